//! The settings a sweep may vary: every number of the scenario document a person would
//! tune (a share's borrow limit and limits, a workload's rates, checkpoints, retries...),
//! as validation paths that the engine's sweep resolves, labelled in the editor's words.

use quotalab_engine::analysis::sweep::{Sweep, Vary};
use serde_json::Value;

use crate::editor::words;

/// At most this many fields are offered (a scenario of 1,000 Kueue queues has more).
pub const MAX_FIELDS: usize = 400;

/// One numeric field of the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The validation path (`shares[0].borrow_limit`).
    pub path: String,
    /// In the editor's words, with the share's name (`research: borrow limit`).
    pub label: String,
    /// Its value now (the default range's centre).
    pub value: f64,
}

/// The lists whose entries are walked (explicit `jobs` are left out: thousands of them).
const LISTS: [&str; 4] = ["shares", "workloads", "cohorts", "events"];

/// The numeric fields of scenario `text`, in document order, each confirmed by the
/// engine's path resolution ([`Sweep::new`]); none when the text is not a JSON object.
pub fn fields(text: &str) -> Vec<Field> {
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    let Value::Object(map) = &doc else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (k, v) in map {
        if k == "seed" || k == "jobs" || k == "format" {
            continue;
        }
        match v {
            Value::Array(list) if LISTS.contains(&k.as_str()) => {
                for (i, item) in list.iter().enumerate() {
                    walk(item, &format!("{k}[{i}]"), &mut found);
                }
            }
            Value::Array(_) => {}
            _ => walk(v, k, &mut found),
        }
    }
    found.truncate(MAX_FIELDS);
    // One resolution of every path at once: those the engine cannot find are dropped.
    let varies: Vec<Vary> = found
        .iter()
        .map(|(path, v)| Vary {
            path: path.clone(),
            values: vec![Value::from(*v)],
        })
        .collect();
    let refused: Vec<String> = match Sweep::new(text, varies, 1) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.into_iter().map(|p| p.path.to_string()).collect(),
    };
    found
        .into_iter()
        .filter(|(path, _)| !refused.contains(path))
        .map(|(path, value)| Field {
            label: label(&doc, &path),
            path,
            value,
        })
        .collect()
}

/// Every number under `v` (objects only: the lists inside a field, such as a distribution's
/// `choice` weights, are not settings).
fn walk(v: &Value, path: &str, out: &mut Vec<(String, f64)>) {
    if out.len() >= MAX_FIELDS {
        return;
    }
    match v {
        Value::Number(n) => {
            if let Some(x) = n.as_f64() {
                out.push((path.to_string(), x));
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                walk(item, &format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

/// `research: borrow limit`, `Workload mix 2 (product): arrival, poisson per hour`.
pub fn label(doc: &Value, path: &str) -> String {
    let place = words::place(path);
    let entry = |list: &str| -> Option<(usize, &Value)> {
        let rest = path.strip_prefix(list)?.strip_prefix('[')?;
        let i: usize = rest.split(']').next()?.parse().ok()?;
        Some((i, doc.get(list)?.get(i)?))
    };
    let tail = |place: &str| {
        place
            .split_once(", ")
            .map_or(String::new(), |(_, t)| t.to_string())
    };
    if let Some((_, share)) = entry("shares") {
        if let Some(name) = share.get("name").and_then(Value::as_str) {
            return format!("{name}: {}", tail(&place));
        }
    }
    if let Some((i, w)) = entry("workloads") {
        if let Some(name) = w.get("share").and_then(Value::as_str) {
            return format!("Workload mix {} ({name}): {}", i + 1, tail(&place));
        }
    }
    if let Some((_, c)) = entry("cohorts") {
        if let Some(name) = c.get("name").and_then(Value::as_str) {
            return format!("Cohort {name}: {}", tail(&place));
        }
    }
    place
}

/// A default range around `value`: from half to one and a half times it in 4 steps (0 to 4
/// for 0), whole numbers when the value is whole; `(from, to, step)` as text.
pub fn default_range(value: f64) -> (String, String, String) {
    let whole = value.fract() == 0.0;
    if value == 0.0 {
        return ("0".into(), "4".into(), "1".into());
    }
    let (lo, hi) = if value > 0.0 {
        (value * 0.5, value * 1.5)
    } else {
        (value * 1.5, value * 0.5)
    };
    if whole && value.abs() >= 4.0 {
        let step = ((hi - lo) / 4.0).round().max(1.0);
        let lo = lo.round();
        let hi = lo + step * 4.0;
        return (fmt(lo), fmt(hi), fmt(step));
    }
    let step = (hi - lo) / 4.0;
    // Three significant digits, written in decimal (the engine then steps exactly).
    let digits = (2 - step.abs().log10().floor() as i32).clamp(0, 9) as usize;
    let r = |x: f64| crate::ui::format::decimal(x, digits);
    let step_text = r(step);
    let step_v: f64 = step_text.parse().unwrap_or(step);
    (r(lo), r(lo + step_v * 4.0), step_text)
}

fn fmt(x: f64) -> String {
    format!("{}", x as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"{"format":"quotalab/v1","seed":7,"capacity":{"ml.g5.xlarge":4},
        "shares":[{"name":"research","limits":{"ml.g5.xlarge":2},"strategy":"LEND_AND_BORROW","borrow_limit":100},
                  {"name":"product","limits":{"ml.g5.xlarge":1, "ml.g5.2xlarge": 1},"strategy":"LEND"}],
        "workloads":[{"share":"research","count":5,"arrival":{"poisson_per_hour":4},"instance_type":"ml.g5.xlarge",
                      "instances":{"choice":[[1,2],[2,1]]},"work_s":600,"checkpoint":{"interval_s":300,"cost_s":10,"restore_s":20}}],
        "jobs":[{"id":"j","share":"research","instance_type":"ml.g5.xlarge","submit_s":0,"work_s":60}]}"#;

    #[test]
    fn the_fields_are_the_documents_numbers_in_editor_words() {
        let f = fields(DOC);
        let paths: Vec<&str> = f.iter().map(|f| f.path.as_str()).collect();
        for want in [
            "capacity.ml.g5.xlarge",
            "shares[0].borrow_limit",
            "shares[1].limits.ml.g5.xlarge",
            "shares[1].limits.ml.g5.2xlarge",
            "workloads[0].checkpoint.interval_s",
            "workloads[0].arrival.poisson_per_hour",
            "workloads[0].count",
        ] {
            assert!(paths.contains(&want), "{want} in {paths:?}");
        }
        assert!(!paths.iter().any(|p| p.starts_with("jobs") || *p == "seed"));
        assert!(!paths.iter().any(|p| p.contains("choice")), "{paths:?}");
        let borrow = f
            .iter()
            .find(|f| f.path == "shares[0].borrow_limit")
            .unwrap();
        assert_eq!(borrow.value, 100.0);
        assert_eq!(borrow.label, "research: borrow limit");
        let lim = f
            .iter()
            .find(|f| f.path == "shares[1].limits.ml.g5.2xlarge")
            .unwrap();
        assert!(lim.label.starts_with("product: limits"), "{}", lim.label);
        let rate = f
            .iter()
            .find(|f| f.path == "workloads[0].arrival.poisson_per_hour")
            .unwrap();
        assert!(
            rate.label.starts_with("Workload mix 1 (research): "),
            "{}",
            rate.label
        );
        assert!(fields("not json").is_empty());
        assert!(fields("[1,2]").is_empty());
    }

    #[test]
    fn default_ranges_centre_on_the_value() {
        assert_eq!(
            default_range(100.0),
            ("50".into(), "150".into(), "25".into())
        );
        assert_eq!(default_range(0.0), ("0".into(), "4".into(), "1".into()));
        assert_eq!(default_range(2.0), ("1".into(), "3".into(), "0.5".into()));
        let (from, to, step) = default_range(4.0);
        assert_eq!((from.as_str(), to.as_str(), step.as_str()), ("2", "6", "1"));
        let (from, _, step) = default_range(0.23);
        assert_eq!((from.as_str(), step.as_str()), ("0.115", "0.0575"));
    }
}
