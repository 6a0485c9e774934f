//! `aws sagemaker create-compute-quota ...` and `create-cluster-scheduler-config ...` command
//! lines (SPEC 16), as AWS's examples and users' scripts write them: split into shell words
//! (quotes, `\` line continuations, comments, `;` `&&` `|` and newlines between commands,
//! here-documents skipped, `$( ... )` substitutions looked into), then each `aws sagemaker` command turned into the request body it
//! sends (`--name` is `Name`, `--compute-quota-config` is `ComputeQuotaConfig`, read as JSON
//! or as the CLI's shorthand, ...). Nothing is expanded: `$VARIABLES` stay as written, and
//! the reader refuses them only where they carry quota. Other commands (`export`, `kubectl`,
//! `echo`) are skipped; other `aws` commands are ignored with a warning.

use serde_json::{Map, Value};

use super::shorthand;

/// A shell command: its words and the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub line: usize,
    pub words: Vec<String>,
}

/// How deep `$( ... )` command substitutions are looked into for commands.
const MAX_SUBSTITUTION_DEPTH: usize = 4;

/// Splits shell text into commands of words. An unclosed quote or `$(` is an error naming
/// its line. A command substitution (`ID="$(aws sagemaker create-compute-quota ...)"`) is
/// kept in its word as written, and its commands follow the command holding it.
pub fn split(text: &str) -> Result<Vec<Command>, String> {
    split_at(text, 1, 0)
}

fn split_at(text: &str, first_line: usize, depth: usize) -> Result<Vec<Command>, String> {
    let cmds = tokenize(text, first_line)?;
    if depth >= MAX_SUBSTITUTION_DEPTH {
        return Ok(cmds);
    }
    let mut out = Vec::with_capacity(cmds.len());
    for cmd in cmds {
        let inner: Vec<String> = cmd.words.iter().flat_map(|w| substitutions(w)).collect();
        let line = cmd.line;
        out.push(cmd);
        for text in inner {
            out.extend(split_at(&text, line, depth + 1)?);
        }
    }
    Ok(out)
}

/// The texts inside a word's `$( ... )` substitutions (outermost ones).
fn substitutions(word: &str) -> Vec<String> {
    let s: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < s.len() {
        if s[i] == '$' && s[i + 1] == '(' {
            let mut depth = 0usize;
            let mut quote: Option<char> = None;
            let mut j = i + 1;
            while j < s.len() {
                let c = s[j];
                match (quote, c) {
                    (Some(q), c) if c == q => quote = None,
                    (Some(_), _) => {}
                    (None, '\'') | (None, '"') => quote = Some(c),
                    (None, '(') => depth += 1,
                    (None, ')') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            out.push(s[i + 2..j.min(s.len())].iter().collect());
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

fn tokenize(text: &str, first_line: usize) -> Result<Vec<Command>, String> {
    // A script saved with Windows line ends still continues its lines.
    let s: Vec<char> = text.replace("\r\n", "\n").chars().collect();
    let mut cmds: Vec<Command> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut line = first_line;
    let mut cmd_line = first_line;
    // Here-document delimiters waiting for the end of the current line.
    let mut heredocs: Vec<(String, bool)> = Vec::new();
    let mut i = 0usize;

    let end_word = |words: &mut Vec<String>, cur: &mut String, in_word: &mut bool| {
        if *in_word {
            words.push(std::mem::take(cur));
            *in_word = false;
        }
    };
    let end_cmd = |cmds: &mut Vec<Command>, words: &mut Vec<String>, cmd_line: usize| {
        if !words.is_empty() {
            cmds.push(Command {
                line: cmd_line,
                words: std::mem::take(words),
            });
        }
    };

    while i < s.len() {
        let c = s[i];
        match c {
            ' ' | '\t' | '\r' => {
                end_word(&mut words, &mut cur, &mut in_word);
                i += 1;
            }
            '\n' => {
                end_word(&mut words, &mut cur, &mut in_word);
                end_cmd(&mut cmds, &mut words, cmd_line);
                i += 1;
                line += 1;
                // Skip the bodies of here-documents opened on the line that just ended.
                for (delim, strip_tabs) in std::mem::take(&mut heredocs) {
                    loop {
                        if i >= s.len() {
                            break;
                        }
                        let end = s[i..]
                            .iter()
                            .position(|&c| c == '\n')
                            .map_or(s.len(), |p| i + p);
                        let body: String = s[i..end].iter().collect();
                        i = (end + 1).min(s.len());
                        line += 1;
                        let body = if strip_tabs {
                            body.trim_start_matches('\t')
                        } else {
                            &body
                        };
                        if body.trim_end_matches('\r') == delim {
                            break;
                        }
                    }
                }
                if words.is_empty() {
                    cmd_line = line;
                }
            }
            ';' | '&' | '|' | '(' | ')' => {
                end_word(&mut words, &mut cur, &mut in_word);
                end_cmd(&mut cmds, &mut words, cmd_line);
                cmd_line = line;
                i += 1;
            }
            '#' if !in_word => {
                while i < s.len() && s[i] != '\n' {
                    i += 1;
                }
            }
            '\\' => {
                match s.get(i + 1) {
                    Some('\n') => line += 1,
                    Some(&n) => {
                        cur.push(n);
                        in_word = true;
                    }
                    None => {}
                }
                i += 2;
            }
            '\'' => {
                let start_line = line;
                i += 1;
                loop {
                    match s.get(i) {
                        None => return Err(format!("line {start_line}: unclosed single quote")),
                        Some('\'') => break,
                        Some(&n) => {
                            if n == '\n' {
                                line += 1;
                            }
                            cur.push(n);
                        }
                    }
                    i += 1;
                }
                i += 1;
                in_word = true;
            }
            '"' => {
                let start_line = line;
                i += 1;
                loop {
                    match s.get(i) {
                        None => return Err(format!("line {start_line}: unclosed double quote")),
                        Some('"') => break,
                        Some('\\') => match s.get(i + 1) {
                            Some('\n') => {
                                line += 1;
                                i += 1;
                            }
                            Some(&n @ ('$' | '`' | '"' | '\\')) => {
                                cur.push(n);
                                i += 1;
                            }
                            _ => cur.push('\\'),
                        },
                        Some('$') if s.get(i + 1) == Some(&'(') => {
                            i = substitution(&s, i, &mut cur, &mut line)?;
                            continue;
                        }
                        Some(&n) => {
                            if n == '\n' {
                                line += 1;
                            }
                            cur.push(n);
                        }
                    }
                    i += 1;
                }
                i += 1;
                in_word = true;
            }
            '$' if s.get(i + 1) == Some(&'(') => {
                i = substitution(&s, i, &mut cur, &mut line)?;
                in_word = true;
            }
            '<' if s.get(i + 1) == Some(&'<') && s.get(i + 2) != Some(&'<') => {
                end_word(&mut words, &mut cur, &mut in_word);
                i += 2;
                let strip_tabs = s.get(i) == Some(&'-');
                if strip_tabs {
                    i += 1;
                }
                while s.get(i).is_some_and(|c| *c == ' ' || *c == '\t') {
                    i += 1;
                }
                let mut delim = String::new();
                while let Some(&c) = s.get(i) {
                    if c.is_whitespace() || ";&|<>()".contains(c) {
                        break;
                    }
                    if c != '\'' && c != '"' && c != '\\' {
                        delim.push(c);
                    }
                    i += 1;
                }
                if !delim.is_empty() {
                    heredocs.push((delim, strip_tabs));
                }
            }
            '<' | '>' => {
                // A redirection: its target word is not an argument, nor is a file
                // descriptor number written just before it (`2>&1`).
                if in_word && !cur.is_empty() && cur.chars().all(|c| c.is_ascii_digit()) {
                    cur.clear();
                    in_word = false;
                }
                end_word(&mut words, &mut cur, &mut in_word);
                i += 1;
                while s.get(i).is_some_and(|c| *c == '>' || *c == '&') {
                    i += 1;
                }
                while s.get(i).is_some_and(|c| *c == ' ' || *c == '\t') {
                    i += 1;
                }
                while s
                    .get(i)
                    .is_some_and(|c| !c.is_whitespace() && !";&|()".contains(*c))
                {
                    i += 1;
                }
            }
            _ => {
                cur.push(c);
                in_word = true;
                i += 1;
            }
        }
    }
    end_word(&mut words, &mut cur, &mut in_word);
    end_cmd(&mut cmds, &mut words, cmd_line);
    Ok(cmds)
}

/// A `$( ... )` command substitution starting at `s[i]`, kept as written in `cur`
/// (parentheses balanced, quotes inside skipped); returns the index after it.
fn substitution(
    s: &[char],
    mut i: usize,
    cur: &mut String,
    line: &mut usize,
) -> Result<usize, String> {
    let start_line = *line;
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    while let Some(&c) = s.get(i) {
        cur.push(c);
        i += 1;
        if c == '\n' {
            *line += 1;
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {}
        }
    }
    Err(format!("line {start_line}: unclosed $("))
}

/// What an `aws sagemaker` command asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    CreateComputeQuota,
    CreateClusterSchedulerConfig,
}

/// An `aws` command read as a request body.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    /// A request the import reads, with its body (API field names).
    Request(Operation, Map<String, Value>),
    /// Another `aws` command: ignored (`aws eks create-addon`, `aws sagemaker list-...`).
    Other(String),
    /// Not an `aws` command at all (`export`, `kubectl`, `echo`, ...): skipped silently.
    NotAws,
}

/// A problem in one option of a command: the body field it fills (or the option) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub field: String,
    pub message: String,
}

/// The AWS CLI's global options that take a value.
const GLOBAL_VALUED: &[&str] = &[
    "--region",
    "--profile",
    "--output",
    "--query",
    "--endpoint-url",
    "--color",
    "--ca-bundle",
    "--cli-read-timeout",
    "--cli-connect-timeout",
    "--cli-binary-format",
];

/// The members the CLI converts to numbers (SageMaker's model: integers and floats).
pub const NUMERIC: &[&str] = &[
    "Count",
    "Accelerators",
    "VCpu",
    "MemoryInGiB",
    "BorrowLimit",
    "FairShareWeight",
    "Weight",
];

/// Reads one command. `Err` lists the options that could not be read; the other options
/// still fill the body, so the caller can report every problem.
pub fn read_command(cmd: &Command, ignored: &mut Vec<String>) -> Result<Read, Vec<OptionError>> {
    let mut w = cmd.words.iter().map(String::as_str).peekable();
    // Leading `VAR=value` assignments.
    while w.peek().is_some_and(|x| is_assignment(x)) {
        w.next();
    }
    let Some(first) = w.next() else {
        return Ok(Read::NotAws);
    };
    if first != "aws" && !first.ends_with("/aws") {
        return Ok(Read::NotAws);
    }
    let words: Vec<&str> = w.collect();
    // Service and operation, skipping global options (before or after the service).
    let mut positional: Vec<&str> = Vec::new();
    let mut rest_at = words.len();
    let mut k = 0;
    while k < words.len() {
        let x = words[k];
        if let Some(opt) = x.strip_prefix("--") {
            let name = opt.split('=').next().unwrap_or(opt);
            let dashed = format!("--{name}");
            if positional.len() < 2 {
                if GLOBAL_VALUED.contains(&dashed.as_str()) && !x.contains('=') {
                    k += 1;
                }
                k += 1;
                continue;
            }
            rest_at = k;
            break;
        }
        positional.push(x);
        k += 1;
        if positional.len() == 2 {
            rest_at = k;
            break;
        }
    }
    let service = positional.first().copied().unwrap_or("");
    let op_name = positional.get(1).copied().unwrap_or("");
    let op = match (service, op_name) {
        ("sagemaker", "create-compute-quota") => Operation::CreateComputeQuota,
        ("sagemaker", "create-cluster-scheduler-config") => Operation::CreateClusterSchedulerConfig,
        _ => {
            let what = format!("aws {service} {op_name}");
            return Ok(Read::Other(what.trim_end().to_string()));
        }
    };
    let mut body = Map::new();
    let mut errors = Vec::new();
    let mut base: Option<Map<String, Value>> = None;
    let mut k = rest_at;
    while k < words.len() {
        let x = words[k];
        k += 1;
        let Some(opt) = x.strip_prefix("--") else {
            ignored.push(format!("argument {x}"));
            continue;
        };
        let (name, inline) = match opt.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (opt, None),
        };
        let value = match inline {
            Some(v) => Some(v),
            None if words.get(k).is_some_and(|n| !n.starts_with("--")) => {
                k += 1;
                Some(words[k - 1].to_string())
            }
            None => None,
        };
        let field = match (op, name) {
            (_, "name") => "Name",
            (_, "description") => "Description",
            (_, "cluster-arn") => "ClusterArn",
            (_, "tags") => "Tags",
            (Operation::CreateComputeQuota, "compute-quota-config") => "ComputeQuotaConfig",
            (Operation::CreateComputeQuota, "compute-quota-target") => "ComputeQuotaTarget",
            (Operation::CreateComputeQuota, "activation-state") => "ActivationState",
            (Operation::CreateClusterSchedulerConfig, "scheduler-config") => "SchedulerConfig",
            (_, "cli-input-json") => {
                match value.as_deref().map(|v| structure(v, "--cli-input-json")) {
                    Some(Ok(Value::Object(m))) => base = Some(m),
                    Some(Ok(other)) => errors.push(OptionError {
                        field: "--cli-input-json".into(),
                        message: format!(
                            "must be a JSON object, not {}",
                            crate::input::json::kind(&other)
                        ),
                    }),
                    Some(Err(e)) => errors.push(OptionError {
                        field: "--cli-input-json".into(),
                        message: e,
                    }),
                    None => errors.push(OptionError {
                        field: "--cli-input-json".into(),
                        message: "needs a value".into(),
                    }),
                }
                continue;
            }
            (_, "cli-input-yaml") => {
                errors.push(OptionError {
                    field: "--cli-input-yaml".into(),
                    message: "is not read: give --cli-input-json, or the options themselves".into(),
                });
                continue;
            }
            (_, n) if GLOBAL_VALUED.contains(&format!("--{n}").as_str()) => continue,
            (_, n) => {
                if !matches!(
                    n,
                    "debug"
                        | "no-verify-ssl"
                        | "no-paginate"
                        | "no-sign-request"
                        | "no-cli-pager"
                        | "cli-auto-prompt"
                        | "no-cli-auto-prompt"
                        | "generate-cli-skeleton"
                ) {
                    ignored.push(format!("--{n}"));
                }
                continue;
            }
        };
        let Some(value) = value else {
            errors.push(OptionError {
                field: field.into(),
                message: format!("--{name} needs a value"),
            });
            continue;
        };
        let parsed = match field {
            "ComputeQuotaConfig" | "ComputeQuotaTarget" | "SchedulerConfig" => {
                structure(&value, &format!("--{name}"))
            }
            "Tags" => Ok(Value::String(value)),
            _ => Ok(Value::String(value)),
        };
        match parsed {
            Ok(v) => {
                body.insert(field.to_string(), v);
            }
            Err(message) => errors.push(OptionError {
                field: field.into(),
                message,
            }),
        }
    }
    if let Some(mut m) = base {
        // Options given on the command line win over --cli-input-json.
        for (k, v) in body {
            m.insert(k, v);
        }
        body = m;
    }
    if errors.is_empty() {
        Ok(Read::Request(op, body))
    } else {
        Err(errors)
    }
}

fn is_assignment(w: &str) -> bool {
    match w.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// A structure argument: JSON (starting with `{` or `[`) or shorthand; `file://` and URLs
/// are refused (the engine reads no files), as is a bare `$VARIABLE`.
pub fn structure(value: &str, option: &str) -> Result<Value, String> {
    let t = value.trim();
    for scheme in ["file://", "fileb://", "http://", "https://"] {
        if t.starts_with(scheme) {
            return Err(format!(
                "{t}: {scheme} arguments are not read (quotasim reads only the files it is given): \
                 paste the JSON into the command, or import the JSON file itself"
            ));
        }
    }
    if t.starts_with('$') && !t.contains('=') {
        return Err(format!(
            "is the unexpanded shell variable {t}: {option} carries quota, so give its value"
        ));
    }
    if t.starts_with('{') || t.starts_with('[') {
        return serde_json::from_str::<Value>(t).map_err(|e| crate::input::json::syntax_error(&e));
    }
    let mut v = Value::Object(shorthand::parse(t).map_err(|e| e.to_string())?);
    shorthand::coerce_numbers(&mut v, NUMERIC);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn words(text: &str) -> Vec<Vec<String>> {
        split(text).unwrap().into_iter().map(|c| c.words).collect()
    }

    #[test]
    fn continuations_quotes_and_comments() {
        let text = "# set up\naws sagemaker \\\n  create-compute-quota \\\n  --name \"Team A\" --x 'a \"b\"' # trailing\nexport X=1; echo \"$X\" && ls\n";
        assert_eq!(
            words(text),
            vec![
                vec![
                    "aws",
                    "sagemaker",
                    "create-compute-quota",
                    "--name",
                    "Team A",
                    "--x",
                    "a \"b\""
                ],
                vec!["export", "X=1"],
                vec!["echo", "$X"],
                vec!["ls"],
            ]
        );
        let cmds = split(text).unwrap();
        assert_eq!(cmds[0].line, 2);
        assert_eq!(cmds[1].line, 5);
        assert_eq!(
            words("a\\ b \"c\\\"d\\$e\\x\""),
            vec![vec!["a b", "c\"d$e\\x"]]
        );
        // Windows line ends.
        assert_eq!(
            words("aws sagemaker \\\r\n  create-compute-quota --name \"a\"\r\necho\r\n"),
            vec![
                vec!["aws", "sagemaker", "create-compute-quota", "--name", "a"],
                vec!["echo"]
            ]
        );
    }

    #[test]
    fn heredocs_redirections_and_substitutions() {
        let text = "cat > q.json <<'EOF'\n{\"a\": 1}\nEOF\nID=\"$(aws sagemaker create-compute-quota --name \"x\" --query Id)\"\necho done 2>&1\n";
        assert_eq!(
            words(text),
            vec![
                vec!["cat"],
                vec!["ID=$(aws sagemaker create-compute-quota --name \"x\" --query Id)"],
                vec![
                    "aws",
                    "sagemaker",
                    "create-compute-quota",
                    "--name",
                    "x",
                    "--query",
                    "Id"
                ],
                vec!["echo", "done"],
            ]
        );
        // Nested substitutions are looked into, to a bound.
        let nested = format!("X={}aws s3 ls{}", "$(".repeat(10), ")".repeat(10));
        let cmds = split(&nested).unwrap();
        assert_eq!(cmds.len(), 5);
        assert_eq!(cmds[0].line, 1);
    }

    #[test]
    fn unclosed_quotes_name_their_line() {
        assert_eq!(
            split("a\nb 'c\n").unwrap_err(),
            "line 2: unclosed single quote"
        );
        assert_eq!(split("\"").unwrap_err(), "line 1: unclosed double quote");
        assert_eq!(split("x $(a (b)").unwrap_err(), "line 1: unclosed $(");
        // Hostile: deep parentheses and long input never panic.
        assert!(split(&"$(".repeat(10_000)).is_err());
        assert!(split(&")".repeat(10_000)).unwrap().is_empty());
        assert!(split(&"\\".repeat(10_001)).is_ok());
    }

    fn read(text: &str) -> (Result<Read, Vec<OptionError>>, Vec<String>) {
        let cmds = split(text).unwrap();
        let mut ignored = Vec::new();
        let r = read_command(&cmds[0], &mut ignored);
        (r, ignored)
    }

    #[test]
    fn aws_example_becomes_its_request_body() {
        let (r, ignored) = read(
            "aws sagemaker create-compute-quota --name quota-name --cluster-arn $CLUSTER_ARN \\\n --compute-quota-config \"ComputeQuotaResources=[{InstanceType=ml.c5.2xlarge,Count=2}],ResourceSharingConfig={Strategy=LendAndBorrow,BorrowLimit=50},PreemptTeamTasks=LowerPriority\" \\\n --compute-quota-target \"TeamName=team1,FairShareWeight=0\" --activation-state \"Enabled\" --region us-west-2 --output json",
        );
        assert!(ignored.is_empty(), "{ignored:?}");
        let Ok(Read::Request(Operation::CreateComputeQuota, body)) = r else {
            panic!("{r:?}")
        };
        assert_eq!(
            Value::Object(body),
            json!({
                "Name": "quota-name",
                "ClusterArn": "$CLUSTER_ARN",
                "ComputeQuotaConfig": {
                    "ComputeQuotaResources": [{"InstanceType": "ml.c5.2xlarge", "Count": 2}],
                    "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 50},
                    "PreemptTeamTasks": "LowerPriority"
                },
                "ComputeQuotaTarget": {"TeamName": "team1", "FairShareWeight": 0},
                "ActivationState": "Enabled"
            })
        );
    }

    #[test]
    fn global_options_json_arguments_and_cli_input_json() {
        let (r, _) = read(
            "aws --region $REGION sagemaker --debug create-cluster-scheduler-config --name=p --cluster-arn \"<Enter HyperPod ClusterArn>\" --scheduler-config '{\"FairShare\": \"Enabled\"}'",
        );
        let Ok(Read::Request(Operation::CreateClusterSchedulerConfig, body)) = r else {
            panic!("{r:?}")
        };
        assert_eq!(body["SchedulerConfig"], json!({"FairShare": "Enabled"}));
        assert_eq!(body["ClusterArn"], json!("<Enter HyperPod ClusterArn>"));
        let (r, _) = read(
            "aws sagemaker create-compute-quota --cli-input-json '{\"Name\": \"a\", \"ActivationState\": \"Disabled\"}' --name b",
        );
        let Ok(Read::Request(_, body)) = r else {
            panic!("{r:?}")
        };
        assert_eq!(body["Name"], json!("b"));
        assert_eq!(body["ActivationState"], json!("Disabled"));
    }

    #[test]
    fn other_commands_and_unknown_options() {
        assert_eq!(read("kubectl get cq").0, Ok(Read::NotAws));
        assert_eq!(
            read("REGION=x aws eks create-addon --name y").0,
            Ok(Read::Other("aws eks create-addon".into()))
        );
        assert_eq!(
            read("aws sagemaker list-compute-quotas").0,
            Ok(Read::Other("aws sagemaker list-compute-quotas".into()))
        );
        let (r, ignored) = read("aws sagemaker create-compute-quota --frobnicate 3 stray");
        assert!(matches!(r, Ok(Read::Request(..))));
        assert_eq!(ignored, vec!["--frobnicate", "argument stray"]);
    }

    #[test]
    fn refused_arguments_name_their_field() {
        let (r, _) = read(
            "aws sagemaker create-compute-quota --compute-quota-config file://q.json --compute-quota-target \"$TARGET\" --scheduler-config x --name",
        );
        let errs = r.unwrap_err();
        assert_eq!(errs.len(), 3, "{errs:?}");
        assert_eq!(errs[0].field, "ComputeQuotaConfig");
        assert!(errs[0]
            .message
            .starts_with("file://q.json: file:// arguments are not read"));
        assert_eq!(errs[1].field, "ComputeQuotaTarget");
        assert_eq!(
            errs[1].message,
            "is the unexpanded shell variable $TARGET: --compute-quota-target carries quota, so give its value"
        );
        assert_eq!(errs[2].field, "Name");
        assert_eq!(errs[2].message, "--name needs a value");
    }
}
