//! The AWS CLI's shorthand syntax for structure arguments (SPEC 16: `aws sagemaker
//! create-compute-quota --compute-quota-config "ComputeQuotaResources=[{InstanceType=...,
//! Count=2}],ResourceSharingConfig={Strategy=LendAndBorrow,BorrowLimit=50}"`), read into
//! JSON the way `awscli/shorthand.py` reads it:
//!
//! ```text
//! parameter      = keyval *("," keyval)
//! keyval         = key "=" values
//! values         = explicit-list / hash-literal / csv-value
//! csv-value      = value *("," value)     ; a list without brackets, while no "key=" follows
//! explicit-list  = "[" [item *("," item)] "]"
//! hash-literal   = "{" [key "=" item *("," key "=" item)] "}"
//! item           = explicit-list / hash-literal / value
//! value          = 'single quoted' / "double quoted" / unquoted (up to , ] }, and not
//!                  starting with = [ {)
//! ```
//!
//! Every value is a string, as in the AWS CLI (which converts them by the API model): the
//! caller turns the numeric fields into numbers ([`coerce_numbers`]). Bounded: nesting deeper
//! than [`MAX_DEPTH`] is refused, and nothing here recurses on unbounded input or panics.

use serde_json::{Map, Value};

/// Nesting deeper than this (lists and structures) is refused; the SageMaker structures read
/// here nest four levels.
pub const MAX_DEPTH: usize = 32;

/// A shorthand syntax error: where (0-based character index) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShorthandError {
    pub at: usize,
    pub message: String,
}

impl std::fmt::Display for ShorthandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "shorthand syntax: {} (at character {})",
            self.message,
            self.at + 1
        )
    }
}

/// Parses a shorthand argument (`Key=Value,Key={...},Key=[...]`) into a JSON object whose
/// leaves are strings.
pub fn parse(text: &str) -> Result<Map<String, Value>, ShorthandError> {
    let mut p = Parser {
        s: text.chars().collect(),
        i: 0,
    };
    p.ws();
    if p.at_end() {
        return Err(p.err("empty argument: expected Key=Value"));
    }
    let mut out = Map::new();
    loop {
        let (key, at) = p.key()?;
        p.expect('=')?;
        p.ws();
        let v = p.values(1)?;
        insert(&mut out, key, v, at)?;
        p.ws();
        if p.at_end() {
            return Ok(out);
        }
        p.expect(',')?;
        p.ws();
    }
}

/// Turns the string leaves under `keys` that read as numbers into numbers (the AWS CLI does
/// so by the API model: these are the integer and float members). Others stay strings, so
/// the reader names them (`Count: must be a whole number, not "$COUNT"`).
pub fn coerce_numbers(v: &mut Value, keys: &[&str]) {
    // An explicit stack: the depth is bounded by the parser, but stay iterative anyway.
    let mut stack: Vec<&mut Value> = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                for (k, child) in m.iter_mut() {
                    if let Value::String(s) = child {
                        if keys.contains(&k.as_str()) {
                            if let Some(n) = number(s) {
                                *child = n;
                            }
                        }
                    } else {
                        stack.push(child);
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// A decimal number as JSON (integers exactly, others as finite floats), or `None`.
fn number(s: &str) -> Option<Value> {
    let t = s.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) {
        return None;
    }
    if let Ok(n) = t.parse::<u64>() {
        return Some(Value::from(n));
    }
    if let Ok(n) = t.parse::<i64>() {
        return Some(Value::from(n));
    }
    let x: f64 = t.parse().ok()?;
    serde_json::Number::from_f64(x).map(Value::Number)
}

fn insert(
    m: &mut Map<String, Value>,
    key: String,
    v: Value,
    at: usize,
) -> Result<(), ShorthandError> {
    if m.contains_key(&key) {
        return Err(ShorthandError {
            at,
            message: format!("{key} is given twice"),
        });
    }
    m.insert(key, v);
    Ok(())
}

struct Parser {
    s: Vec<char>,
    i: usize,
}

impl Parser {
    fn at_end(&self) -> bool {
        self.i >= self.s.len()
    }

    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }

    fn err(&self, message: impl Into<String>) -> ShorthandError {
        ShorthandError {
            at: self.i.min(self.s.len()),
            message: message.into(),
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            None => "the end".to_string(),
            Some(c) => format!("'{c}'"),
        }
    }

    fn expect(&mut self, c: char) -> Result<(), ShorthandError> {
        self.ws();
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.err(format!("expected '{c}', found {}", self.found())))
        }
    }

    /// `[A-Za-z0-9_.#/:-]+`, as `awscli` reads keys.
    fn key(&mut self) -> Result<(String, usize), ShorthandError> {
        self.ws();
        let start = self.i;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || "_.#/:-".contains(c))
        {
            self.i += 1;
        }
        if self.i == start {
            if self.peek() == Some('$') {
                let rest = &self.s[self.i + 1..];
                let len = if rest.first() == Some(&'{') {
                    rest.iter()
                        .position(|c| *c == '}')
                        .map_or(rest.len(), |p| p + 1)
                } else {
                    rest.iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                        .count()
                };
                let var: String = self.s[self.i..self.i + 1 + len].iter().collect();
                return Err(self.err(format!(
                    "{var} is an unexpanded shell variable where Key=Value is expected: give its value"
                )));
            }
            return Err(self.err(format!("expected a key, found {}", self.found())));
        }
        Ok((self.s[start..self.i].iter().collect(), start))
    }

    fn depth_check(&self, depth: usize) -> Result<(), ShorthandError> {
        if depth > MAX_DEPTH {
            Err(self.err(format!("nested deeper than {MAX_DEPTH} levels")))
        } else {
            Ok(())
        }
    }

    /// The value of a top-level `key=`: a list, a structure, or a comma-separated value.
    fn values(&mut self, depth: usize) -> Result<Value, ShorthandError> {
        match self.peek() {
            None => Ok(Value::String(String::new())),
            Some('[') => self.list(depth),
            Some('{') => self.hash(depth),
            Some(_) => self.csv(),
        }
    }

    /// `a` or `a,b,c` (a list), stopping before a `,` that starts the next `key=`.
    fn csv(&mut self) -> Result<Value, ShorthandError> {
        let first = self.scalar()?;
        let mut list = vec![first];
        loop {
            let save = self.i;
            self.ws();
            if self.peek() != Some(',') {
                self.i = save;
                break;
            }
            self.i += 1;
            self.ws();
            if self.at_end() || self.starts_keyval() {
                self.i = save;
                break;
            }
            list.push(self.scalar()?);
        }
        Ok(if list.len() == 1 {
            list.pop().unwrap_or(Value::Null)
        } else {
            Value::Array(list)
        })
    }

    /// Whether a `key=` starts here (without consuming it).
    fn starts_keyval(&self) -> bool {
        let mut j = self.i;
        while self
            .s
            .get(j)
            .is_some_and(|c| c.is_ascii_alphanumeric() || "_.#/:-".contains(*c))
        {
            j += 1;
        }
        if j == self.i {
            return false;
        }
        while self.s.get(j).is_some_and(|c| c.is_whitespace()) {
            j += 1;
        }
        self.s.get(j) == Some(&'=')
    }

    fn list(&mut self, depth: usize) -> Result<Value, ShorthandError> {
        self.depth_check(depth)?;
        self.expect('[')?;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(']') {
            self.i += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.ws();
            items.push(self.item(depth + 1)?);
            self.ws();
            match self.peek() {
                Some(',') => self.i += 1,
                Some(']') => {
                    self.i += 1;
                    return Ok(Value::Array(items));
                }
                None => return Err(self.err("unclosed '[': expected ',' or ']', found the end")),
                Some(c) => return Err(self.err(format!("expected ',' or ']', found '{c}'"))),
            }
        }
    }

    fn hash(&mut self, depth: usize) -> Result<Value, ShorthandError> {
        self.depth_check(depth)?;
        self.expect('{')?;
        let mut m = Map::new();
        self.ws();
        if self.peek() == Some('}') {
            self.i += 1;
            return Ok(Value::Object(m));
        }
        loop {
            let (key, at) = self.key()?;
            self.expect('=')?;
            self.ws();
            let v = self.item(depth + 1)?;
            insert(&mut m, key, v, at)?;
            self.ws();
            match self.peek() {
                Some(',') => self.i += 1,
                Some('}') => {
                    self.i += 1;
                    return Ok(Value::Object(m));
                }
                None => return Err(self.err("unclosed '{': expected ',' or '}', found the end")),
                Some(c) => return Err(self.err(format!("expected ',' or '}}', found '{c}'"))),
            }
        }
    }

    fn item(&mut self, depth: usize) -> Result<Value, ShorthandError> {
        match self.peek() {
            Some('[') => self.list(depth),
            Some('{') => self.hash(depth),
            _ => self.scalar(),
        }
    }

    /// A quoted or unquoted value (possibly empty). Unquoted: up to `,` `]` `}` (not
    /// starting with `=` `[` `{`), with `\,` an escaped comma and `${VAR}` kept whole;
    /// trailing blanks are dropped.
    fn scalar(&mut self) -> Result<Value, ShorthandError> {
        match self.peek() {
            Some(q @ ('\'' | '"')) => {
                let start = self.i;
                self.i += 1;
                let mut out = String::new();
                loop {
                    match self.peek() {
                        None => {
                            return Err(ShorthandError {
                                at: start,
                                message: format!("unclosed {q} quote"),
                            })
                        }
                        Some('\\') if self.s.get(self.i + 1) == Some(&q) => {
                            out.push(q);
                            self.i += 2;
                        }
                        Some(c) if c == q => {
                            self.i += 1;
                            return Ok(Value::String(out));
                        }
                        Some(c) => {
                            out.push(c);
                            self.i += 1;
                        }
                    }
                }
            }
            _ => {
                let mut out = String::new();
                while let Some(c) = self.peek() {
                    if c == '$' && self.s.get(self.i + 1) == Some(&'{') {
                        // `${VAR}`: a shell variable left unexpanded, kept whole.
                        let close = self.s[self.i..].iter().position(|c| *c == '}');
                        if let Some(len) = close {
                            out.extend(&self.s[self.i..=self.i + len]);
                            self.i += len + 1;
                            continue;
                        }
                    }
                    if c == '\\' && self.s.get(self.i + 1) == Some(&',') {
                        out.push(',');
                        self.i += 2;
                        continue;
                    }
                    // As `awscli`: a value ends at `,` `]` `}`; `=` `[` `{` may follow
                    // its first character.
                    if ",]}".contains(c) || (out.is_empty() && "[{".contains(c)) {
                        break;
                    }
                    if c == '=' && out.is_empty() {
                        return Err(self.err("a value cannot start with '=' (quote it)"));
                    }
                    out.push(c);
                    self.i += 1;
                }
                Ok(Value::String(out.trim_end().to_string()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(s: &str) -> Value {
        Value::Object(parse(s).unwrap_or_else(|e| panic!("{s}: {e}")))
    }

    fn bad(s: &str) -> String {
        parse(s).unwrap_err().to_string()
    }

    #[test]
    fn aws_compute_quota_example() {
        let mut v = ok("ComputeQuotaResources=[{InstanceType=ml.c5.2xlarge,Count=2}],ResourceSharingConfig={Strategy=LendAndBorrow,BorrowLimit=50},PreemptTeamTasks=LowerPriority");
        assert_eq!(
            v,
            json!({
                "ComputeQuotaResources": [{"InstanceType": "ml.c5.2xlarge", "Count": "2"}],
                "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": "50"},
                "PreemptTeamTasks": "LowerPriority"
            })
        );
        coerce_numbers(&mut v, &["Count", "BorrowLimit"]);
        assert_eq!(v["ComputeQuotaResources"][0]["Count"], json!(2));
        assert_eq!(v["ResourceSharingConfig"]["BorrowLimit"], json!(50));
        assert_eq!(v["PreemptTeamTasks"], json!("LowerPriority"));
    }

    #[test]
    fn scheduler_config_and_target() {
        assert_eq!(
            ok("PriorityClasses=[{Name=inference,Weight=90},{Name=fine-tuning,Weight=50}],FairShare=Enabled"),
            json!({
                "PriorityClasses": [{"Name": "inference", "Weight": "90"},
                                    {"Name": "fine-tuning", "Weight": "50"}],
                "FairShare": "Enabled"
            })
        );
        assert_eq!(
            ok("TeamName=team1,FairShareWeight=0"),
            json!({"TeamName": "team1", "FairShareWeight": "0"})
        );
    }

    #[test]
    fn csv_lists_quotes_blanks_and_empty() {
        assert_eq!(ok("A=x,y,z,B=1"), json!({"A": ["x", "y", "z"], "B": "1"}));
        assert_eq!(ok("A='a,b',B=\"c d\""), json!({"A": "a,b", "B": "c d"}));
        assert_eq!(ok("A=a\\,b"), json!({"A": "a,b"}));
        assert_eq!(
            ok(" A = [ 1 , 2 ] , B = { C = 3 } "),
            json!({"A": ["1", "2"], "B": {"C": "3"}})
        );
        assert_eq!(ok("A=[],B={}"), json!({"A": [], "B": {}}));
        assert_eq!(ok("A="), json!({"A": ""}));
        assert_eq!(ok("A=[[1,2],[3]]"), json!({"A": [["1", "2"], ["3"]]}));
    }

    #[test]
    fn syntax_errors_say_where_and_what() {
        assert_eq!(
            bad("A={B=1"),
            "shorthand syntax: unclosed '{': expected ',' or '}', found the end (at character 7)"
        );
        assert_eq!(
            bad("A=[1,2"),
            "shorthand syntax: unclosed '[': expected ',' or ']', found the end (at character 7)"
        );
        assert_eq!(
            bad("A=1}"),
            "shorthand syntax: expected ',', found '}' (at character 4)"
        );
        assert_eq!(
            bad("A"),
            "shorthand syntax: expected '=', found the end (at character 2)"
        );
        assert_eq!(
            bad("=1"),
            "shorthand syntax: expected a key, found '=' (at character 1)"
        );
        assert_eq!(
            bad("A=1,A=2"),
            "shorthand syntax: A is given twice (at character 5)"
        );
        assert_eq!(
            bad(""),
            "shorthand syntax: empty argument: expected Key=Value (at character 1)"
        );
        assert_eq!(
            bad("A='x"),
            "shorthand syntax: unclosed ' quote (at character 3)"
        );
        assert_eq!(
            bad("${TEAM_A_CONFIG},ResourceSharingConfig={Strategy=Lend}"),
            "shorthand syntax: ${TEAM_A_CONFIG} is an unexpanded shell variable where Key=Value is expected: give its value (at character 1)"
        );
        assert_eq!(
            bad("A={B==2}"),
            "shorthand syntax: a value cannot start with '=' (quote it) (at character 6)"
        );
        assert!(bad("A=[1 2 }").contains("expected ',' or ']', found '}'"));
        // After its first character a value may hold `=`, `[` and `{`, as in `awscli`.
        assert_eq!(
            ok("A={B=x=1,C=a[b{c}"),
            json!({"A": {"B": "x=1", "C": "a[b{c"}})
        );
    }

    #[test]
    fn hostile_nesting_and_sizes() {
        // 10,000 levels: refused at the bound, without recursing that deep.
        let deep = format!("A={}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(bad(&deep).contains("nested deeper than 32 levels"));
        let deep = format!("A={}1{}", "{B=".repeat(10_000), "}".repeat(10_000));
        assert!(bad(&deep).contains("nested deeper than 32 levels"));
        // Unbalanced in both directions.
        assert!(parse(&"[".repeat(10_000)).is_err());
        assert!(parse(&format!("A=1{}", "]".repeat(10_000))).is_err());
        // Exactly at the bound is fine.
        let ok_deep = format!("A={}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok_deep).is_ok());
        // A long flat list is fine (no recursion per item).
        let long = format!("A=[{}]", vec!["1"; 100_000].join(","));
        assert_eq!(ok(&long)["A"].as_array().unwrap().len(), 100_000);
    }

    #[test]
    fn huge_and_odd_numbers_stay_strings_or_become_floats() {
        let mut v = json!({"Count": "99999999999999999999999999", "BorrowLimit": "1e400",
                           "VCpu": "4.5", "Weight": "-3", "Name": "12", "X": "1,2", "Y": "0x10"});
        coerce_numbers(
            &mut v,
            &["Count", "BorrowLimit", "VCpu", "Weight", "X", "Y"],
        );
        // Too big for u64: a float (the reader then refuses it as over the limit).
        assert!(v["Count"].is_f64());
        // Not finite: stays a string.
        assert_eq!(v["BorrowLimit"], json!("1e400"));
        assert_eq!(v["VCpu"], json!(4.5));
        assert_eq!(v["Weight"], json!(-3));
        // Not a numeric member: untouched.
        assert_eq!(v["Name"], json!("12"));
        assert_eq!(v["X"], json!("1,2"));
        assert_eq!(v["Y"], json!("0x10"));
    }

    #[test]
    fn never_panics_on_arbitrary_input() {
        // A small deterministic fuzz over the grammar's characters.
        let alphabet: Vec<char> = "AB=,[]{}'\"\\ $1.".chars().collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut s = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 24) as usize;
            let mut y = x;
            for _ in 0..len {
                s.push(alphabet[(y % alphabet.len() as u64) as usize]);
                y = y
                    .rotate_right(5)
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1);
            }
            if let Ok(m) = parse(&s) {
                let mut v = Value::Object(m);
                coerce_numbers(&mut v, &["A", "B"]);
            }
        }
    }
}
