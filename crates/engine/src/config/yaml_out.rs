//! YAML out (SPEC 13): a JSON value as block-style YAML, the way `kubectl` prints objects.
//! Keys keep their order; a string is written plain when YAML reads it back as the same
//! string, as a literal block when it spans lines, and double-quoted (JSON's escapes are
//! YAML's) otherwise. So the import reads an export back to the same value.

use serde_json::{Map, Value};

/// One YAML document: an optional comment above it and the object.
#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    /// Lines written as `# ...` above the document (without the `# `).
    pub comment: Vec<String>,
    pub value: Value,
}

impl Doc {
    pub fn new(value: Value) -> Doc {
        Doc {
            comment: Vec::new(),
            value,
        }
    }

    pub fn with_comment(mut self, line: impl Into<String>) -> Doc {
        self.comment.push(line.into());
        self
    }
}

/// A YAML stream: every document after `---`, each with its comment lines.
pub fn stream(docs: &[Doc]) -> String {
    let mut out = String::new();
    for d in docs {
        out.push_str("---\n");
        for line in &d.comment {
            for l in line.split('\n') {
                out.push_str("# ");
                out.push_str(l);
                out.push('\n');
            }
        }
        document(&mut out, &d.value);
    }
    out
}

/// One document's body (no `---`).
pub fn document(out: &mut String, v: &Value) {
    match v {
        Value::Object(m) if !m.is_empty() => map(out, m, 0, false),
        Value::Array(a) if !a.is_empty() => seq(out, a, 0),
        other => {
            out.push_str(&scalar(other, 0));
            out.push('\n');
        }
    }
}

fn indent(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push(' ');
    }
}

/// A mapping at `level`; with `inline_first` its first key follows a sequence item's `- `.
fn map(out: &mut String, m: &Map<String, Value>, level: usize, inline_first: bool) {
    let mut first = true;
    for (k, v) in m {
        if !(first && inline_first) {
            indent(out, level);
        }
        first = false;
        let k = key(k);
        if k.chars().count() > LONGEST_IMPLICIT_KEY {
            // YAML reads a key of more than 1,024 characters only as an explicit one.
            out.push_str("? ");
            out.push_str(&k);
            out.push('\n');
            indent(out, level);
        } else {
            out.push_str(&k);
        }
        out.push(':');
        value_after_key(out, v, level);
    }
}

/// The longest key written as `key: value` (YAML 1.2 limits an implicit key to 1,024
/// characters; a longer one is written `? key` then `: value`), with a margin.
const LONGEST_IMPLICIT_KEY: usize = 1_000;

fn value_after_key(out: &mut String, v: &Value, level: usize) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            map(out, m, level + 2, false);
        }
        // kubectl's style: a sequence under a key is not indented further.
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            seq(out, a, level);
        }
        other => {
            out.push(' ');
            out.push_str(&scalar(other, level + 2));
            out.push('\n');
        }
    }
}

fn seq(out: &mut String, a: &[Value], level: usize) {
    for v in a {
        indent(out, level);
        out.push_str("- ");
        match v {
            Value::Object(m) if !m.is_empty() => map(out, m, level + 2, true),
            Value::Array(inner) if !inner.is_empty() => {
                out.push('\n');
                seq(out, inner, level + 2);
            }
            other => {
                out.push_str(&scalar(other, level + 2));
                out.push('\n');
            }
        }
    }
}

fn key(k: &str) -> String {
    if plain_ok(k) {
        k.to_string()
    } else {
        Value::String(k.to_string()).to_string()
    }
}

/// A scalar (or an empty collection) at `level` (the indentation of a literal block's lines).
fn scalar(v: &Value, level: usize) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string(s, level),
        Value::Object(_) => "{}".to_string(),
        Value::Array(_) => "[]".to_string(),
    }
}

fn string(s: &str, level: usize) -> String {
    if plain_ok(s) {
        return s.to_string();
    }
    if let Some(block) = literal_block(s, level) {
        return block;
    }
    Value::String(s.to_string()).to_string()
}

/// `|` (or `|-` without a final line break) when the lines can be kept as they are.
fn literal_block(s: &str, level: usize) -> Option<String> {
    let body = s.strip_suffix('\n');
    let (text, head) = match body {
        Some(b) if !b.ends_with('\n') => (b, "|"),
        Some(_) => return None,
        None => (s, "|-"),
    };
    // The first line with text sets the block's indentation: it may not start with a space
    // (after empty lines either).
    let clean = text.contains('\n')
        && !text.trim_start_matches('\n').starts_with([' ', '\t'])
        && text
            .chars()
            .all(|c| c == '\n' || (!c.is_control() && c != '\u{feff}'))
        && text.lines().all(|l| !l.ends_with([' ', '\t']));
    if !clean {
        return None;
    }
    let mut out = head.to_string();
    for line in text.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.push_str(&" ".repeat(level));
            out.push_str(line);
        }
    }
    Some(out)
}

/// Whether `s` written plain reads back as the same string: names, paths and quantities
/// such as `36Gi`, never anything YAML 1.1 or 1.2 reads as a number, boolean or null.
fn plain_ok(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    let chars_ok = s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'));
    if !chars_ok || !(first.is_ascii_alphanumeric() || first == '_' || first == '/') {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null" | "~" | ".inf" | ".nan"
    ) {
        return false;
    }
    // Anything that could be a number in some YAML reading (digits, dots, signs, 0x, 1e3,
    // sexagesimal) stays quoted unless it also has a letter no number has (not a hex
    // digit, x or o), as quantities do: `36Gi`, `500m`.
    if first.is_ascii_digit() || first == '.' {
        let has_unit = s.chars().any(|c| {
            c.is_ascii_alphabetic() && !matches!(c.to_ascii_lowercase(), 'a'..='f' | 'x' | 'o')
        });
        return has_unit;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(v: &Value) -> Value {
        let text = stream(&[Doc::new(v.clone())]);
        let docs = crate::config::kueue::parse_documents(&text).unwrap();
        assert_eq!(docs.len(), 1, "{text}");
        docs[0].clone()
    }

    #[test]
    fn kubectl_style_block_yaml() {
        let v = json!({
            "apiVersion": "kueue.x-k8s.io/v1beta2",
            "kind": "ClusterQueue",
            "metadata": {"name": "team-a", "labels": {"app.kubernetes.io/part-of": "ml"}},
            "spec": {
                "namespaceSelector": {},
                "resourceGroups": [{
                    "coveredResources": ["cpu", "nvidia.com/gpu"],
                    "flavors": [{"name": "a100", "resources": [
                        {"name": "cpu", "nominalQuota": "36"},
                        {"name": "nvidia.com/gpu", "nominalQuota": 8, "lendingLimit": 0}
                    ]}]
                }]
            }
        });
        let text = stream(&[Doc::new(v.clone()).with_comment("a comment")]);
        assert_eq!(
            text,
            "---\n# a comment\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: team-a\n  labels:\n    app.kubernetes.io/part-of: ml\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources:\n    - cpu\n    - nvidia.com/gpu\n    flavors:\n    - name: a100\n      resources:\n      - name: cpu\n        nominalQuota: \"36\"\n      - name: nvidia.com/gpu\n        nominalQuota: 8\n        lendingLimit: 0\n"
        );
        assert_eq!(round_trip(&v), v);
    }

    #[test]
    fn strings_that_yaml_would_misread_are_quoted() {
        for s in [
            "true", "No", "null", "~", "1e3", "0x1F", "12", "1.5", "", " x", "a: b", "#c", "-",
            "- x", "'q'", "\"q\"", "é", "a\tb", "1_000", ".5",
        ] {
            let v = json!({ s: s, "list": [s] });
            assert_eq!(round_trip(&v), v, "{s:?}");
        }
        assert_eq!(string("36Gi", 0), "36Gi");
        assert_eq!(string("500m", 0), "500m");
        assert_eq!(string("true", 0), "\"true\"");
    }

    #[test]
    fn multi_line_strings_are_literal_blocks_that_read_back() {
        let v = json!({"data": {"config.yaml": "apiVersion: v1\nkind: Configuration\nfairSharing:\n  enable: true\n"}, "x": "a\nb", "y": "a\n\nb\n\n", "z": " lead\nx", "w": "\n lead after an empty line\na"});
        let text = stream(&[Doc::new(v.clone())]);
        assert!(
            text.contains("config.yaml: |\n    apiVersion: v1\n"),
            "{text}"
        );
        assert_eq!(round_trip(&v), v);
    }

    #[test]
    fn nested_sequences_and_empty_collections() {
        let v = json!({"a": [[1, 2], [], {}], "b": [], "c": {}, "d": [{"e": []}], "n": null, "t": true});
        assert_eq!(round_trip(&v), v);
    }
}
