//! The JSON field readers of the scenario checker, one copy for the validator and the
//! workload parser, so that the same problem has the same words wherever it is found: each
//! at its JSON path (a [`Path`], `shares[2].limits`), what kind of value was found, a field
//! read with `null` as absent, numbers against a [`Rule`] (`must be > 0 (got 0)`), strings,
//! booleans, choices, and serde_json's syntax messages without their duplicated position.
//! Each problem carries its machine-readable [`Kind`] for readers that word it themselves
//! (the page).

use serde_json::{Map, Value};

use crate::input::model::limits::MAX_TIME_S;
use crate::input::path::Path;
use crate::{Bound, Kind, Problem};

/// What a number field takes: whole or not, a time in seconds or not, and its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub whole: bool,
    pub seconds: bool,
    pub min: Option<Bound>,
    pub max: Option<Bound>,
}

/// [`MAX_TIME_S`] as a whole number.
const MAX_TIME_WHOLE: i64 = MAX_TIME_S as i64;

impl Rule {
    /// Any finite number.
    pub const NUMBER: Rule = Rule {
        whole: false,
        seconds: false,
        min: None,
        max: None,
    };
    /// A time or duration (SPEC 2): seconds, finite, from 0 to [`MAX_TIME_S`].
    pub const SECONDS: Rule = Rule {
        whole: false,
        seconds: true,
        min: Some(Bound {
            value: 0,
            inclusive: true,
        }),
        max: Some(Bound {
            value: MAX_TIME_WHOLE,
            inclusive: true,
        }),
    };
    /// A duration that must last (`work_s`, a checkpoint interval): seconds > 0.
    pub const POSITIVE_SECONDS: Rule = Rule::SECONDS.above(0);
    /// A number >= 0.
    pub const NON_NEGATIVE: Rule = Rule::NUMBER.at_least(0);
    /// A number > 0.
    pub const POSITIVE: Rule = Rule::NUMBER.above(0);

    /// A whole number in `lo..=hi`.
    pub const fn whole(lo: i64, hi: i64) -> Rule {
        Rule {
            whole: true,
            seconds: false,
            min: Some(Bound {
                value: lo,
                inclusive: true,
            }),
            max: Some(Bound {
                value: hi,
                inclusive: true,
            }),
        }
    }

    /// The same rule with `x >= lo`.
    pub const fn at_least(self, lo: i64) -> Rule {
        Rule {
            min: Some(Bound {
                value: lo,
                inclusive: true,
            }),
            ..self
        }
    }

    /// The same rule with `x > lo`.
    pub const fn above(self, lo: i64) -> Rule {
        Rule {
            min: Some(Bound {
                value: lo,
                inclusive: false,
            }),
            ..self
        }
    }

    /// The same rule with `x <= hi`.
    pub const fn at_most(self, hi: i64) -> Rule {
        Rule {
            max: Some(Bound {
                value: hi,
                inclusive: true,
            }),
            ..self
        }
    }

    /// The problem kind of a value this rule refuses.
    pub fn kind(&self) -> Kind {
        Kind::Number {
            whole: self.whole,
            seconds: self.seconds,
            min: self.min,
            max: self.max,
        }
    }

    fn problem(&self, path: &Path, message: String) -> Problem {
        Problem::new(path.clone(), message).with_kind(self.kind())
    }

    /// The problem with the number `x`, if this rule refuses it.
    pub fn check(&self, x: f64, path: &Path) -> Result<f64, Problem> {
        if !x.is_finite() {
            return Err(self.problem(path, "must be a finite number".into()));
        }
        if self.whole && x.fract() != 0.0 {
            return Err(self.problem(path, format!("must be a whole number (got {x})")));
        }
        if let Some(b) = self.min {
            let lo = b.value as f64;
            if x < lo || (!b.inclusive && x == lo) {
                let op = if b.inclusive { ">=" } else { ">" };
                return Err(self.problem(path, format!("must be {op} {} (got {x})", b.value)));
            }
        }
        if let Some(b) = self.max {
            let hi = b.value as f64;
            if x > hi || (!b.inclusive && x == hi) {
                let message = if self.seconds && b.value == MAX_TIME_WHOLE {
                    format!("must be at most {MAX_TIME_S:e} seconds (got {x})")
                } else {
                    let op = if b.inclusive { "<=" } else { "<" };
                    format!("must be {op} {} (got {x})", b.value)
                };
                return Err(self.problem(path, message));
            }
        }
        Ok(x)
    }

    /// `a whole number`, `a number of seconds` or `a number`.
    fn noun(&self) -> &'static str {
        if self.whole {
            "a whole number"
        } else if self.seconds {
            "a number of seconds"
        } else {
            "a number"
        }
    }
}

/// `is required`.
pub fn required(path: &Path) -> Problem {
    Problem::new(path.clone(), "is required").with_kind(Kind::Required)
}

/// `is required` with a hint of what to give (`is required: RESERVE, LEND or ..`).
pub fn required_with(path: &Path, hint: &str) -> Problem {
    Problem::new(path.clone(), format!("is required{hint}")).with_kind(Kind::Required)
}

/// `v` as a number that `rule` accepts.
pub fn number(v: &Value, path: &Path, rule: Rule) -> Result<f64, Problem> {
    match v.as_f64() {
        Some(x) => rule.check(x, path),
        None => Err(rule.problem(path, format!("must be {}, not {}", rule.noun(), kind(v)))),
    }
}

/// `v` as a whole number that `rule` accepts (exact for every `i64`).
pub fn integer(v: &Value, path: &Path, rule: Rule) -> Result<i64, Problem> {
    let rule = Rule {
        whole: true,
        ..rule
    };
    if let Some(i) = v.as_i64() {
        // Exact bounds (an f64 comparison would round the largest i64s).
        let low = rule
            .min
            .is_some_and(|b| i < b.value || (!b.inclusive && i == b.value));
        let high = rule
            .max
            .is_some_and(|b| i > b.value || (!b.inclusive && i == b.value));
        if !low && !high {
            return Ok(i);
        }
    }
    let x = number(v, path, rule)?;
    // A whole number beyond i64 (every bound is an i64): refused by its bounds above, or
    // too large to be one.
    if x.abs() < 9.0e18 {
        Ok(x as i64)
    } else {
        let message = format!("must be a whole number within the range of the field (got {x})");
        Err(rule.problem(path, message))
    }
}

/// The rule of a job priority in a model: 0..=9999 in the AWS model (SPEC 2), any 32-bit
/// integer in the Kueue model (SPEC 12).
pub fn priority_rule(kueue: bool) -> Rule {
    let (lo, hi) = crate::input::model::limits::priority_bounds(kueue);
    Rule::whole(lo as i64, hi as i64)
}

/// The message of a Kueue-model priority out of the 32-bit range, naming both bounds.
pub fn kueue_priority_message(x: f64) -> String {
    use crate::input::model::limits::{KUEUE_MAX_PRIORITY, KUEUE_MIN_PRIORITY};
    format!(
        "must be a 32-bit integer, {KUEUE_MIN_PRIORITY}..={KUEUE_MAX_PRIORITY} in the Kueue model (got {x})"
    )
}

/// A Kueue-model priority problem of a number out of bounds, reworded to name both bounds
/// (other problems, like a fraction, are kept as they are).
pub fn kueue_priority_problem(mut p: Problem, x: Option<f64>) -> Problem {
    if let Some(x) = x.filter(|x| x.is_finite() && x.fract() == 0.0) {
        p.message = kueue_priority_message(x);
    }
    p
}

/// `v` as a job priority of the model (see [`priority_rule`]): the AWS model keeps SPEC 2's
/// messages (`must be <= 9999 (got 10000)`), the Kueue model names its 32-bit bounds.
pub fn priority(
    v: &Value,
    path: &Path,
    kueue: bool,
) -> Result<crate::input::model::Priority, Problem> {
    match integer(v, path, priority_rule(kueue)) {
        Ok(i) => Ok(i as crate::input::model::Priority),
        Err(p) if kueue => Err(kueue_priority_problem(p, v.as_f64())),
        Err(p) => Err(p),
    }
}

/// Seconds `x` (already accepted by `rule`) as milliseconds, refusing a positive duration
/// that rounds to 0 ms.
pub fn millis(x: f64, path: &Path, rule: Rule) -> Result<i64, Problem> {
    let ms = crate::input::model::ms_from_s(x);
    if ms < 1 && rule.min.is_some_and(|b| !b.inclusive) {
        let message = format!("must be at least 0.001 seconds (1 ms) (got {x})");
        return Err(rule.problem(path, message));
    }
    Ok(ms)
}

/// `v` as a string.
pub fn string<'v>(v: &'v Value, path: &Path) -> Result<&'v str, Problem> {
    v.as_str().ok_or_else(|| {
        Problem::new(path.clone(), format!("must be a string, not {}", kind(v)))
            .with_kind(Kind::Text)
    })
}

/// `v` as true or false.
pub fn boolean(v: &Value, path: &Path) -> Result<bool, Problem> {
    v.as_bool().ok_or_else(|| {
        Problem::new(
            path.clone(),
            format!("must be true or false, not {}", kind(v)),
        )
        .with_kind(Kind::Bool)
    })
}

/// `v` as one of the strings `names`.
pub fn one_of<'n>(v: &Value, path: &Path, names: &[&'n str]) -> Result<&'n str, Problem> {
    match v.as_str().and_then(|s| names.iter().find(|n| **n == s)) {
        Some(n) => Ok(n),
        None => Err(
            Problem::new(path.clone(), format!("must be {} (got {v})", quoted(names)))
                .with_kind(Kind::OneOf(names.iter().map(|n| n.to_string()).collect())),
        ),
    }
}

/// `"a", "b" or "c"`.
pub fn quoted(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => q.join(""),
    }
}

/// `unknown share "x" (shares: a, b)`: a name that refers to nothing.
pub fn unknown(path: &Path, message: String, known: &[&str]) -> Problem {
    Problem::new(path.clone(), message)
        .with_kind(Kind::Unknown(known.iter().map(|n| n.to_string()).collect()))
}

/// `path.key`, or `key` at the document's top, as text: the configuration importers' places
/// in the files they read (a scenario's paths are [`Path`]s).
pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
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
        assert_eq!(join("shares[2]", "limits"), "shares[2].limits");
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
    fn rules_word_their_bounds_and_kinds() {
        let at = |key: &str| Path::root().key(key);
        let msg = |v: Value, rule: Rule| number(&v, &at("x"), rule).unwrap_err().message;
        assert_eq!(msg(json!(0), Rule::POSITIVE_SECONDS), "must be > 0 (got 0)");
        assert_eq!(
            msg(json!(-5), Rule::POSITIVE_SECONDS),
            "must be > 0 (got -5)"
        );
        assert_eq!(msg(json!(-1), Rule::SECONDS), "must be >= 0 (got -1)");
        assert_eq!(
            msg(json!("60"), Rule::SECONDS),
            "must be a number of seconds, not a string"
        );
        assert_eq!(
            msg(json!(1e13), Rule::SECONDS),
            "must be at most 1e12 seconds (got 10000000000000)"
        );
        let int = |v: Value| {
            integer(&v, &at("p"), Rule::whole(0, 9999))
                .unwrap_err()
                .message
        };
        assert_eq!(int(json!(10000)), "must be <= 9999 (got 10000)");
        assert_eq!(int(json!(2.5)), "must be a whole number (got 2.5)");
        assert_eq!(int(json!("a")), "must be a whole number, not a string");
        assert_eq!(integer(&json!(3.0), &at("p"), Rule::whole(0, 9)), Ok(3));
        assert_eq!(
            integer(&json!(i64::MAX), &at("s"), Rule::whole(0, i64::MAX)),
            Ok(i64::MAX)
        );
        let p = number(&json!(0), &at("w"), Rule::POSITIVE_SECONDS).unwrap_err();
        assert_eq!(
            p.kind,
            Kind::Number {
                whole: false,
                seconds: true,
                min: Some(Bound {
                    value: 0,
                    inclusive: false
                }),
                max: Some(Bound {
                    value: 1_000_000_000_000,
                    inclusive: true
                }),
            }
        );
        assert_eq!(
            one_of(&json!("x"), &at("s"), &["A", "B", "C"])
                .unwrap_err()
                .message,
            "must be \"A\", \"B\" or \"C\" (got \"x\")"
        );
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
