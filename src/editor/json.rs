//! Pure helpers of the editor: reading and writing the scenario text, numbers typed into
//! fields, and the values the forms show. No reactive code here.

use quotalab_engine::admission::borrow_cap_instances;
use quotalab_engine::model::{BorrowLimit, Strategy};
use quotalab_engine::validate::strip_position;
use serde_json::{Number, Value};

/// Parses scenario text into a JSON object (the forms need one).
pub fn parse_object(text: &str) -> Result<Value, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err("the scenario must be a JSON object ({ ... })".to_string()),
        Err(e) => Err(format!(
            "line {}, column {}: {}",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        )),
    }
}

/// The scenario text the forms write: pretty-printed with a one-space indent (as the
/// bundled presets), keys in document order.
pub fn to_text(v: &Value) -> String {
    let mut out = String::with_capacity(4096);
    write_pretty(v, 0, &mut out);
    out
}

fn write_pretty(v: &Value, depth: usize, out: &mut String) {
    let pad = |out: &mut String, d: usize| out.extend(std::iter::repeat_n(' ', d));
    match v {
        Value::Array(a) if !a.is_empty() => {
            out.push_str("[\n");
            for (i, item) in a.iter().enumerate() {
                pad(out, depth + 1);
                write_pretty(item, depth + 1, out);
                out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
            }
            pad(out, depth);
            out.push(']');
        }
        Value::Object(m) if !m.is_empty() => {
            out.push_str("{\n");
            for (i, (k, item)) in m.iter().enumerate() {
                pad(out, depth + 1);
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                write_pretty(item, depth + 1, out);
                out.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
            }
            pad(out, depth);
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// What a number field writes for the text typed into it: `None` when blank, a JSON number
/// when the text reads as one, else the text itself as a string (so that the validator
/// reports it beside the field, like any other invalid value).
pub fn number_from_text(text: &str) -> Option<Value> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    // "50%" in a field labelled (%) is 50; a lone "%" stays text (and is refused).
    let t = match t.strip_suffix('%').map(str::trim_end) {
        Some(n) if !n.is_empty() => n,
        _ => t,
    };
    if let Ok(n) = serde_json::from_str::<Number>(t) {
        return Some(Value::Number(n));
    }
    match t.parse::<f64>() {
        Ok(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15 => {
            Some(Value::from(f as i64))
        }
        Ok(f) if f.is_finite() => Number::from_f64(f).map(Value::Number),
        _ => Some(Value::String(t.to_string())),
    }
}

/// The text a field shows for a value (blank when absent or null).
pub fn display(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(other) => other.to_string(),
    }
}

/// A number as the forms use it (integers and floats alike).
pub fn as_f64(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64)
}

/// The first of `base-1`, `base-2`, ... not in `taken`.
pub fn unique_name(base: &str, taken: &[String]) -> String {
    (1..)
        .map(|n| format!("{base}-{n}"))
        .find(|n| !taken.iter().any(|t| t == n))
        .unwrap_or_else(|| base.to_string())
}

/// The borrow limit of a share as instances (display only; the engine's
/// [`borrow_cap_instances`] does the arithmetic), e.g. "200% = 2 instances" or
/// "200% = 2 × ml.g5.xlarge, 4 × ml.p4d.24xlarge".
pub fn borrow_as_instances(
    strategy: Option<&str>,
    borrow: Option<&Value>,
    limits: Option<&Value>,
) -> String {
    let strategy = match strategy.and_then(Strategy::parse) {
        Some(Strategy::LendAndBorrow) => Strategy::LendAndBorrow,
        Some(s) => return format!("{} never borrows", s.as_str()),
        None => return String::new(),
    };
    let (pct, borrow_limit) = match borrow {
        None | Some(Value::Null) => {
            return "empty: unlimited (the default, as -1): may borrow any idle capacity".into()
        }
        Some(v) => match v.as_i64().and_then(BorrowLimit::from_percent) {
            Some(BorrowLimit::Unlimited) => {
                return "-1 = unlimited: may borrow any idle capacity".into()
            }
            Some(b @ BorrowLimit::Percent(p)) => (p, b),
            None => return String::new(),
        },
    };
    let entries: Vec<(String, u64)> = limits
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_u64().map(|n| (k.clone(), n)))
                .collect()
        })
        .unwrap_or_default();
    // `None` (unbounded) is only for -1, answered above.
    let instances = |n: u64| borrow_cap_instances(strategy, borrow_limit, n).unwrap_or(u64::MAX);
    // A percent this large is a typo more often than a policy: say what it amounts to.
    let huge = if pct > 1000 {
        format!(
            " (over {}× its own limit: in effect no limit; -1 says so plainly)",
            pct / 100
        )
    } else {
        String::new()
    };
    let text = match entries.as_slice() {
        [(_, n)] => {
            let k = instances(*n);
            format!("{pct}% = {k} instance{}", if k == 1 { "" } else { "s" })
        }
        many => format!(
            "{pct}% = {}",
            many.iter()
                .map(|(t, n)| format!("{} × {t}", instances(*n)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    // AWS rounds a share's borrowing down to whole instances: say so where it does.
    let rounded = entries
        .iter()
        .any(|(_, n)| !pct.saturating_mul(*n).is_multiple_of(100));
    let rounded = if rounded { " (rounded down)" } else { "" };
    text + rounded + &huge
}

/// Does a problem at `problem` belong to a field at `field`: the same path, or inside it?
pub fn path_within(problem: &str, field: &str) -> bool {
    problem == field
        || (problem.starts_with(field)
            && (field.is_empty()
                || matches!(problem.as_bytes().get(field.len()), Some(b'.') | Some(b'['))))
}

/// The paths a problem at `path` may be shown at, longest first: the path itself, then
/// each prefix ending before a `.` or `[` (`jobs[3].work_s`, `jobs[3]`, `jobs`).
pub fn candidate_paths(path: &str) -> impl Iterator<Item = &str> {
    std::iter::once(path).chain(
        path.char_indices()
            .rev()
            .filter(|&(i, c)| i > 0 && (c == '.' || c == '['))
            .map(move |(i, _)| &path[..i]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_from_text() {
        assert_eq!(number_from_text(""), None);
        assert_eq!(number_from_text("  "), None);
        assert_eq!(number_from_text("200"), Some(json!(200)));
        assert_eq!(number_from_text("-5"), Some(json!(-5)));
        assert_eq!(number_from_text("1.5"), Some(json!(1.5)));
        assert_eq!(number_from_text("01"), Some(json!(1)));
        assert_eq!(number_from_text(".5"), Some(json!(0.5)));
        assert_eq!(number_from_text("abc"), Some(json!("abc")));
        assert_eq!(number_from_text("-"), Some(json!("-")));
        assert_eq!(number_from_text("50%"), Some(json!(50)));
        assert_eq!(number_from_text(" 50 % "), Some(json!(50)));
        assert_eq!(number_from_text("%"), Some(json!("%")));
    }

    #[test]
    fn text_is_one_space_pretty() {
        let v = json!({"b": 1, "a": [1, {"x": "y"}]});
        assert_eq!(
            to_text(&v),
            "{\n \"b\": 1,\n \"a\": [\n  1,\n  {\n   \"x\": \"y\"\n  }\n ]\n}"
        );
    }

    #[test]
    fn borrow_limits_as_instances() {
        let l1 = json!({"ml.g5.xlarge": 1});
        let s = Some("LEND_AND_BORROW");
        assert_eq!(
            borrow_as_instances(s, Some(&json!(200)), Some(&l1)),
            "200% = 2 instances"
        );
        assert_eq!(
            borrow_as_instances(s, Some(&json!(150)), Some(&json!({"a": 3}))),
            "150% = 4 instances (rounded down)"
        );
        assert_eq!(
            borrow_as_instances(s, Some(&json!(50)), Some(&json!({"a": 1, "b": 4}))),
            "50% = 0 × a, 2 × b (rounded down)"
        );
        assert_eq!(
            borrow_as_instances(s, Some(&json!(50)), Some(&json!({"a": 2}))),
            "50% = 1 instance"
        );
        assert!(borrow_as_instances(s, Some(&json!(-1)), Some(&l1)).contains("unlimited"));
        assert!(borrow_as_instances(s, None, Some(&l1)).contains("unlimited"));
        assert_eq!(borrow_as_instances(s, Some(&json!(-5)), Some(&l1)), "");
        assert!(borrow_as_instances(s, Some(&json!(99_999_999)), Some(&l1))
            .contains("in effect no limit"));
        assert!(borrow_as_instances(s, None, Some(&l1)).starts_with("empty: unlimited"));
        assert!(borrow_as_instances(Some("RESERVE"), None, Some(&l1)).contains("never"));
    }

    #[test]
    fn problem_paths() {
        assert!(path_within("shares[2].borrow_limit", "shares[2]"));
        assert!(path_within("shares[2]", "shares[2]"));
        assert!(!path_within("shares[20]", "shares[2]"));
        let c: Vec<_> = candidate_paths("workloads[0].work_s.uniform[1]").collect();
        assert_eq!(
            c,
            [
                "workloads[0].work_s.uniform[1]",
                "workloads[0].work_s.uniform",
                "workloads[0].work_s",
                "workloads[0]",
                "workloads"
            ]
        );
        assert_eq!(candidate_paths("").collect::<Vec<_>>(), [""]);
    }

    #[test]
    fn unique_names() {
        let taken = vec!["share-1".to_string(), "share-3".to_string()];
        assert_eq!(unique_name("share", &taken), "share-2");
    }
}
