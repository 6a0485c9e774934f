//! The JSON field helpers of the scenario checker, one copy for the validator and the
//! workload parser: JSON paths (`shares[2].limits`), what kind of value was found, a field
//! read with `null` as absent, whole numbers, and serde_json's syntax messages without their
//! duplicated position.

use serde_json::{Map, Value};

/// `path.key`, or `key` at the document's top.
pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// `path[i]`.
pub fn idx(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// The kind of a JSON value, as problem messages name it (`must be an object, not a string`).
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A field's value, treating `null` as absent.
pub fn get<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

/// A non-negative whole number (`3` or `3.0`), if `v` is one.
pub fn whole_number(v: &Value) -> Option<u64> {
    if let Some(n) = v.as_u64() {
        return Some(n);
    }
    let x = v.as_f64()?;
    // 2^64 as f64; below it every whole f64 converts exactly.
    (x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x < 18_446_744_073_709_551_616.0)
        .then_some(x as u64)
}

/// serde_json's message without its trailing ` at line L column C` (the caller reports the
/// position itself).
pub fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// A syntax error as one line: `JSON syntax error at line L, column C: message`.
pub fn syntax_error(e: &serde_json::Error) -> String {
    format!(
        "JSON syntax error at line {}, column {}: {}",
        e.line(),
        e.column(),
        strip_position(&e.to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_kinds_and_numbers() {
        assert_eq!(join("", "shares"), "shares");
        assert_eq!(join(&idx("shares", 2), "limits"), "shares[2].limits");
        assert_eq!(kind(&json!([])), "an array");
        assert_eq!(kind(&json!(null)), "null");
        assert_eq!(whole_number(&json!(3)), Some(3));
        assert_eq!(whole_number(&json!(3.0)), Some(3));
        assert_eq!(whole_number(&json!(3.5)), None);
        assert_eq!(whole_number(&json!(-1)), None);
        let m = json!({"a": null, "b": 1});
        let m = m.as_object().unwrap();
        assert_eq!(get(m, "a"), None);
        assert_eq!(get(m, "b"), Some(&json!(1)));
    }

    #[test]
    fn syntax_errors_name_the_position_once() {
        let e = serde_json::from_str::<Value>("{\n  \"a\": ,\n}").unwrap_err();
        let line = syntax_error(&e);
        assert!(
            line.starts_with("JSON syntax error at line 2, column "),
            "{line}"
        );
        assert_eq!(line.matches("line").count(), 1, "{line}");
    }
}
