//! The small readers of a workload's fields (SPEC 7): numbers, times, names, pairs, keys.

use serde_json::{Map, Value};

use crate::input::json::{self, get, Rule};
use crate::input::path::Path;
use crate::Problem;

/// Pushes one problem per key of `obj` that is not in `accepted`.
pub(super) fn check_keys(
    obj: &Map<String, Value>,
    path: &Path,
    accepted: &[&str],
    problems: &mut Vec<Problem>,
) {
    for key in obj.keys() {
        if !accepted.contains(&key.as_str()) {
            problems.push(Problem::new(
                path.clone(),
                format!("unknown key \"{key}\" (accepted: {})", accepted.join(", ")),
            ));
        }
    }
}

/// Keeps a reader's value, or records its problem.
pub(super) fn push<T>(r: Result<T, Problem>, problems: &mut Vec<Problem>) -> Option<T> {
    r.map_err(|p| problems.push(p)).ok()
}

pub(super) fn resolve_name(
    v: Option<&Value>,
    path: &Path,
    names: &[&str],
    what: &str,
    problems: &mut Vec<Problem>,
) -> Option<usize> {
    let Some(v) = v else {
        problems.push(json::required(path));
        return None;
    };
    let name = push(json::string(v, path), problems)?;
    match names.iter().position(|n| *n == name) {
        Some(i) => Some(i),
        None => {
            let known = if names.is_empty() {
                "none is defined".to_string()
            } else {
                format!("known: {}", names.join(", "))
            };
            problems.push(json::unknown(
                path,
                format!("unknown {what} \"{name}\" ({known})"),
                names,
            ));
            None
        }
    }
}

/// A JSON number as a finite `f64`, or a problem.
pub(super) fn number(v: &Value, path: &Path, problems: &mut Vec<Problem>) -> Option<f64> {
    push(json::number(v, path, Rule::NUMBER), problems)
}

/// A required number (missing = a problem).
pub(super) fn required_number(
    obj: &Map<String, Value>,
    key: &str,
    path: &Path,
    problems: &mut Vec<Problem>,
) -> Option<f64> {
    let p = path.key(key);
    match get(obj, key) {
        Some(v) => number(v, &p, problems),
        None => {
            problems.push(json::required(&p));
            None
        }
    }
}

/// A number > 0.
pub(super) fn positive(v: &Value, path: &Path, problems: &mut Vec<Problem>) -> Option<f64> {
    push(json::number(v, path, Rule::POSITIVE), problems)
}

/// A time in seconds: a number in `0..=MAX_TIME_S`.
pub(super) fn time(v: &Value, path: &Path, problems: &mut Vec<Problem>) -> Option<f64> {
    push(json::number(v, path, Rule::SECONDS), problems)
}

pub(super) fn checked_time(x: f64, path: &Path, problems: &mut Vec<Problem>) -> Option<f64> {
    push(Rule::SECONDS.check(x, path), problems)
}

/// A number >= 0.
pub(super) fn non_negative(v: &Value, path: &Path, problems: &mut Vec<Problem>) -> Option<f64> {
    push(json::number(v, path, Rule::NON_NEGATIVE), problems)
}

/// A two-element array of numbers `[a, b]` with `a <= b`.
pub(super) fn pair(
    v: &Value,
    path: &Path,
    what: &str,
    problems: &mut Vec<Problem>,
) -> Option<(f64, f64)> {
    let Some([a, b]) = v.as_array().map(Vec::as_slice) else {
        problems.push(Problem::new(path.clone(), format!("must be {what}")));
        return None;
    };
    let a = number(a, &path.idx(0), problems);
    let b = number(b, &path.idx(1), problems);
    let (a, b) = (a?, b?);
    if a > b {
        problems.push(Problem::new(
            path.clone(),
            format!("must be {what}: the first number is greater than the second"),
        ));
        return None;
    }
    Some((a, b))
}

/// An object with exactly one key among `accepted`: that key and its value.
pub(super) fn single_key<'a>(
    obj: &'a Map<String, Value>,
    path: &Path,
    what: &str,
    accepted: &[&str],
    problems: &mut Vec<Problem>,
) -> Option<(&'a str, &'a Value)> {
    let mut entries = obj.iter();
    match (entries.next(), entries.next()) {
        (Some((key, value)), None) => {
            if accepted.contains(&key.as_str()) {
                Some((key.as_str(), value))
            } else {
                problems.push(Problem::new(
                    path.clone(),
                    format!(
                        "unknown {what} \"{key}\" (accepted: {})",
                        accepted.join(", ")
                    ),
                ));
                None
            }
        }
        _ => {
            problems.push(Problem::new(
                path.clone(),
                format!(
                    "must have exactly one key, the {what}: one of {}",
                    accepted.join(", ")
                ),
            ));
            None
        }
    }
}
