//! The settings a sweep may vary: every number of the scenario document a person would
//! tune (a share's borrow limit and limits, a workload's rates, checkpoints, retries...),
//! as validation paths that the engine's sweep resolves, labelled in the editor's words.

use quotalab_engine::analysis::sweep::{Sweep, Vary};
use serde_json::Value;

use crate::ui::words;

/// At most this many fields are offered (a scenario of 1,000 Kueue queues has more).
pub const MAX_FIELDS: usize = 400;

/// One numeric field of the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The validation path (`shares[0].borrow_limit`).
    pub path: String,
    /// In the editor's words, with the share's name (`research: borrow limit`).
    pub label: String,
    /// Its value now (the default range's centre); for an unset field, the value the
    /// sweep starts from.
    pub value: f64,
    /// `Some(what unset means)` for a field the scenario does not write ("no limit"): the
    /// sweep writes it ([`with_field`]) before planning.
    pub unset: Option<&'static str>,
}

/// The scenario `text` with field `f` written at its starting value when it is unset (the
/// engine's sweep varies only fields that exist); `text` itself otherwise.
pub fn with_field(text: &str, f: &Field) -> String {
    if f.unset.is_none() {
        return text.to_string();
    }
    let Ok(mut doc) = serde_json::from_str::<Value>(text) else {
        return text.to_string();
    };
    if let Some((entry, key, ty)) = split_unset(&f.path) {
        if let Some(item) = entry_mut(&mut doc, &entry) {
            let v = Value::from(f.value);
            match ty {
                None => {
                    item[key] = v;
                }
                Some(t) => {
                    if !item.get(key).is_some_and(Value::is_object) {
                        item[key] = Value::Object(Default::default());
                    }
                    item[key][t] = v;
                }
            }
        }
    }
    serde_json::to_string(&doc).unwrap_or_else(|_| text.to_string())
}

/// `shares[2].borrowing_limit.ml.g5.xlarge` as (`shares[2]`, `borrowing_limit`,
/// `Some("ml.g5.xlarge")`).
fn split_unset(path: &str) -> Option<(String, &str, Option<&str>)> {
    let close = path.find(']')?;
    let entry = path[..=close].to_string();
    let rest = path[close + 1..].strip_prefix('.')?;
    match rest.split_once('.') {
        Some((key, ty)) => Some((entry, key, Some(ty))),
        None => Some((entry, rest, None)),
    }
}

fn entry_mut<'a>(doc: &'a mut Value, entry: &str) -> Option<&'a mut Value> {
    let (list, i) = entry.split_once('[')?;
    let i: usize = i.trim_end_matches(']').parse().ok()?;
    doc.get_mut(list)?.get_mut(i)
}

/// Why settings a person may look for are not offered, one line each: an AWS share that
/// does not borrow has no borrow limit, a ClusterQueue in no cohort no borrowing or lending
/// limit, explicit jobs are left out.
pub fn missing(text: &str) -> Vec<String> {
    missing_with(text, false)
}

/// [`missing`] of a scenario planned without its jobs (`jobs_left_out`: it had some,
/// [`super::head::planned`]).
pub fn missing_with(text: &str, jobs_left_out: bool) -> Vec<String> {
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    let kueue = quotalab_engine::translate::model_of(&doc) == quotalab_engine::model::Model::Kueue;
    let mut out = Vec::new();
    let shares = doc
        .get("shares")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for sh in &shares {
        let name = sh.get("name").and_then(Value::as_str).unwrap_or("?");
        if kueue {
            if sh.get("cohort").is_none_or(Value::is_null) {
                out.push(format!(
                    "{name}: no borrowingLimit or lendingLimit, as it is in no cohort (it neither lends nor borrows)"
                ));
            }
        } else {
            let strategy = sh.get("strategy").and_then(Value::as_str).unwrap_or("?");
            if strategy != "LEND_AND_BORROW" {
                out.push(format!(
                    "{name}: no borrow limit, as a {strategy} share does not borrow (its strategy is not LEND_AND_BORROW)"
                ));
            }
        }
    }
    if kueue {
        for c in doc
            .get("cohorts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if c.get("parent").is_none_or(Value::is_null) {
                let name = c.get("name").and_then(Value::as_str).unwrap_or("?");
                out.push(format!(
                    "Cohort {name}: no borrowingLimit or lendingLimit, as it is a root cohort (it has no parent to borrow from or lend to)"
                ));
            }
        }
    }
    if kueue && doc.get("fair_sharing").is_none_or(Value::is_null) {
        out.push("no fair-sharing weights, as fair sharing is off".to_string());
    }
    if jobs_left_out
        || doc
            .get("jobs")
            .and_then(Value::as_array)
            .is_some_and(|j| !j.is_empty())
    {
        out.push(
            "explicit jobs are not offered one at a time: to vary jobs, describe them as a workload mix in the editor (Workload mixes) and vary its settings"
                .to_string(),
        );
    }
    out
}

/// The numeric settings of the model a scenario leaves unset, each with the value a sweep
/// starts from and what unset means: an AWS LEND_AND_BORROW share's borrow limit (100 %),
/// a Kueue ClusterQueue's or cohort's borrowingLimit and lendingLimit per flavor of its
/// quota (its quota), and fair-sharing weights (1).
fn unset_fields(doc: &Value) -> Vec<(String, f64, &'static str)> {
    let mut out = Vec::new();
    let kueue = quotalab_engine::translate::model_of(doc) == quotalab_engine::model::Model::Kueue;
    let fair = doc.get("fair_sharing").is_some_and(|f| !f.is_null());
    let list = |k: &str| {
        doc.get(k)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    for (i, sh) in list("shares").iter().enumerate() {
        if !kueue {
            if sh.get("strategy").and_then(Value::as_str) == Some("LEND_AND_BORROW")
                && sh.get("borrow_limit").is_none()
            {
                out.push((
                    format!("shares[{i}].borrow_limit"),
                    100.0,
                    "unset: unlimited",
                ));
            }
            continue;
        }
        kueue_limits(
            &mut out,
            &format!("shares[{i}]"),
            sh,
            sh.get("cohort").is_some_and(|c| !c.is_null()),
        );
        if fair && sh.get("weight").is_none() {
            out.push((format!("shares[{i}].weight"), 1.0, "unset: 1"));
        }
    }
    if kueue {
        let cohorts = list("cohorts");
        let shares = list("shares");
        for (i, c) in cohorts.iter().enumerate() {
            // A child cohort's limits to its parent, per flavor of its subtree's quota
            // (SPEC 12: `borrowing_limit` and `lending_limit` of a cohort with a parent,
            // any flavor): a cohort without quota of its own still lends its children's.
            let mut node = c.clone();
            if let Some(name) = c.get("name").and_then(Value::as_str) {
                node["limits"] = Value::Object(subtree_quota(name, &cohorts, &shares));
            }
            kueue_limits(
                &mut out,
                &format!("cohorts[{i}]"),
                &node,
                c.get("parent").is_some_and(|p| !p.is_null()),
            );
            if fair && c.get("weight").is_none() {
                out.push((format!("cohorts[{i}].weight"), 1.0, "unset: 1"));
            }
        }
    }
    out
}

/// The quota of cohort `name`'s subtree per flavor: its own `limits`, its ClusterQueues'
/// and its child cohorts' (each cohort counted once, a cycle of parents stops).
fn subtree_quota(
    name: &str,
    cohorts: &[Value],
    shares: &[Value],
) -> serde_json::Map<String, Value> {
    let mut sum: Vec<(String, f64)> = Vec::new();
    let mut add = |limits: Option<&Value>| {
        for (t, q) in limits.and_then(Value::as_object).into_iter().flatten() {
            let q = q.as_f64().unwrap_or(0.0);
            match sum.iter_mut().find(|(k, _)| k == t) {
                Some((_, s)) => *s += q,
                None => sum.push((t.clone(), q)),
            }
        }
    };
    let str_of = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let mut todo = vec![name.to_string()];
    let mut seen: Vec<String> = Vec::new();
    while let Some(n) = todo.pop() {
        if seen.contains(&n) {
            continue;
        }
        for c in cohorts {
            if str_of(c, "name").as_deref() == Some(n.as_str()) {
                add(c.get("limits"));
            }
            if str_of(c, "parent").as_deref() == Some(n.as_str()) {
                todo.extend(str_of(c, "name"));
            }
        }
        for sh in shares {
            if str_of(sh, "cohort").as_deref() == Some(n.as_str()) {
                add(sh.get("limits"));
            }
        }
        seen.push(n);
    }
    sum.into_iter().map(|(t, q)| (t, Value::from(q))).collect()
}

/// A Kueue node's unset borrowingLimit and lendingLimit, per flavor of its quota (only
/// for a node under a cohort, as Kueue allows them).
fn kueue_limits(out: &mut Vec<(String, f64, &'static str)>, at: &str, node: &Value, under: bool) {
    if !under {
        return;
    }
    let Some(limits) = node.get("limits").and_then(Value::as_object) else {
        return;
    };
    for (t, q) in limits {
        let Some(q) = q.as_f64() else { continue };
        let has = |k: &str| node.get(k).and_then(|m| m.get(t)).is_some();
        if !has("borrowing_limit") {
            out.push((format!("{at}.borrowing_limit.{t}"), q, "unset: no limit"));
        }
        if !has("lending_limit") {
            out.push((format!("{at}.lending_limit.{t}"), q, "unset: lends all"));
        }
    }
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
    let mut out: Vec<Field> = found
        .into_iter()
        .filter(|(path, _)| !refused.contains(path))
        .map(|(path, value)| Field {
            label: label(&doc, &path),
            path,
            value,
            unset: None,
        })
        .collect();
    // Settings of the model the scenario leaves unset, from where a sweep would start.
    for (path, value, unset) in unset_fields(&doc) {
        if out.len() >= MAX_FIELDS {
            break;
        }
        // Built from the document's own entries, so the path exists once written (the
        // plan checks it again; no whole-document parse per field here).
        out.push(Field {
            label: label(&doc, &path),
            path,
            value,
            unset: Some(unset),
        });
    }
    out
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

/// `research: borrow limit (%)`, `Workload mix 2 (product): arrival, jobs per hour`,
/// `Workload mix 1 (research): work (s)`: with its unit (issue #34, walk), the axis reads it.
pub fn label(doc: &Value, path: &str) -> String {
    let named = named_label(doc, path);
    // A time (`work_s`, `interval_s`, `horizon_s`...) is in seconds, and so is a time's
    // distribution's `median`, `mean` or `fixed`; its lognormal `sigma` is the spread of
    // its logarithm, a plain number (issue #34, fresh-eyes walk: it read "sigma (s)").
    let keys: Vec<&str> = path
        .split(['.', '['])
        .filter(|k| !k.contains(']'))
        .collect();
    let seconds = match keys.as_slice() {
        [.., last] if last.ends_with("_s") => true,
        [.., time, _, "median" | "mean"] | [.., time, "fixed"] => time.ends_with("_s"),
        _ => false,
    };
    if seconds && !named.ends_with(')') {
        format!("{named} (s)")
    } else {
        named
    }
}

fn named_label(doc: &Value, path: &str) -> String {
    let place = words::place(path);
    let entry = |list: &str| -> Option<(usize, &Value)> {
        let rest = path.strip_prefix(list)?.strip_prefix('[')?;
        let i: usize = rest.split(']').next()?.parse().ok()?;
        Some((i, doc.get(list)?.get(i)?))
    };
    let kueue = quotalab_engine::translate::model_of(doc) == quotalab_engine::model::Model::Kueue;
    let tail = |place: &str| {
        let t = place
            .split_once(", ")
            .map_or(String::new(), |(_, t)| t.to_string());
        // A ClusterQueue's or cohort's limits are Kueue's nominalQuota of each flavor.
        match t.strip_prefix("limits ") {
            Some(flavor) if kueue => format!("nominalQuota {flavor}"),
            _ => t,
        }
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
        assert_eq!(borrow.label, "research: borrow limit (%)");
        // A lognormal time's sigma has no unit; its median is in seconds (issue #34).
        let doc: Value = serde_json::from_str(
            r#"{"workloads":[{"share":"research","work_s":{"lognormal":{"median":600,"sigma":0.5}},
                "instances":{"exponential":{"mean":2}}}]}"#,
        )
        .unwrap();
        assert_eq!(
            label(&doc, "workloads[0].work_s.lognormal.sigma"),
            "Workload mix 1 (research): work, lognormal, sigma"
        );
        assert_eq!(
            label(&doc, "workloads[0].work_s.lognormal.median"),
            "Workload mix 1 (research): work, lognormal, median (s)"
        );
        assert_eq!(
            label(&doc, "workloads[0].instances.exponential.mean"),
            "Workload mix 1 (research): instances, exponential, mean"
        );
        // Times say their unit (issue #34, walk).
        let interval = f
            .iter()
            .find(|f| f.path == "workloads[0].checkpoint.interval_s")
            .unwrap();
        assert_eq!(
            interval.label,
            "Workload mix 1 (research): checkpoint, interval (s)"
        );
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
        assert!(f.iter().all(|f| f.unset.is_none()), "all written");
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

    /// Issue #34.6: unset settings of the model are offered from where a sweep starts, and
    /// the sweep writes them first.
    #[test]
    fn unset_settings_are_offered_and_written_before_the_sweep() {
        let aws = r#"{"shares":[{"name":"a","limits":{"ml.g5.xlarge":2},"strategy":"LEND_AND_BORROW"},
            {"name":"b","limits":{"ml.g5.xlarge":2},"strategy":"LEND"}],"jobs":[]}"#;
        let f = fields(aws);
        let bl = f
            .iter()
            .find(|f| f.path == "shares[0].borrow_limit")
            .expect("offered");
        assert_eq!((bl.value, bl.unset), (100.0, Some("unset: unlimited")));
        assert!(
            !f.iter().any(|f| f.path == "shares[1].borrow_limit"),
            "LEND does not borrow"
        );
        let written: Value = serde_json::from_str(&with_field(aws, bl)).unwrap();
        assert_eq!(written["shares"][0]["borrow_limit"], 100.0);

        let kueue = r#"{"model":"kueue","fair_sharing":{},
            "cohorts":[{"name":"root"}],
            "shares":[{"name":"nlp","cohort":"root","limits":{"ml.g5.xlarge":4}},
                      {"name":"solo","limits":{"ml.g5.xlarge":1}}],"jobs":[]}"#;
        let f = fields(kueue);
        let paths: Vec<&str> = f.iter().map(|f| f.path.as_str()).collect();
        for want in [
            "shares[0].borrowing_limit.ml.g5.xlarge",
            "shares[0].lending_limit.ml.g5.xlarge",
            "shares[0].weight",
            "shares[1].weight",
            "cohorts[0].weight",
        ] {
            assert!(paths.contains(&want), "{want} in {paths:?}");
        }
        assert!(
            !paths.contains(&"shares[1].borrowing_limit.ml.g5.xlarge"),
            "not in a cohort"
        );
        let b = f
            .iter()
            .find(|f| f.path == "shares[0].borrowing_limit.ml.g5.xlarge")
            .unwrap();
        assert_eq!(b.label, "nlp: borrowingLimit ml.g5.xlarge");
        // Issue #34: a ClusterQueue's limits are its nominalQuota (AWS keeps "limits").
        let q = f
            .iter()
            .find(|f| f.path == "shares[0].limits.ml.g5.xlarge")
            .unwrap();
        assert_eq!(q.label, "nlp: nominalQuota ml.g5.xlarge");
        let written: Value = serde_json::from_str(&with_field(kueue, b)).unwrap();
        assert_eq!(written["shares"][0]["borrowing_limit"]["ml.g5.xlarge"], 4.0);
    }

    /// Issue #34 (Explore): a child cohort's borrowingLimit and lendingLimit to its parent
    /// are offered (per flavor of its subtree's quota, even without quota of its own), and
    /// the engine's sweep plans, validates and runs them once written; a root cohort says
    /// why it has none.
    #[test]
    fn child_cohorts_limits_to_their_parent_are_offered_and_sweep() {
        let doc = include_str!("../../www/presets/kueue-hierarchical-fair.json");
        let f = fields(doc);
        let find = |p: &str| f.iter().find(|f| f.path == p).cloned();
        let b = find("cohorts[1].borrowing_limit.ml.g5.xlarge").expect("offered");
        assert_eq!(b.label, "Cohort research: borrowingLimit ml.g5.xlarge");
        assert_eq!((b.value, b.unset), (16.0, Some("unset: no limit")));
        let l = find("cohorts[2].lending_limit.ml.g5.xlarge").expect("offered");
        assert_eq!((l.value, l.unset), (12.0, Some("unset: lends all")));
        assert!(
            find("cohorts[0].borrowing_limit.ml.g5.xlarge").is_none(),
            "the root"
        );
        assert!(missing(doc)
            .iter()
            .any(|m| m.starts_with("Cohort org: no borrowingLimit")));
        for field in [b, l] {
            let text = with_field(doc, &field);
            let vary =
                quotalab_engine::analysis::sweep::parse_vary(&format!("{}=0..8:4", field.path))
                    .unwrap();
            let plan = Sweep::new(&text, vec![vary], 1).expect("the sweep resolves it");
            assert_eq!(plan.runs(), 3);
            for r in 0..3 {
                assert!(plan.check(r).is_ok(), "{} run {r} validates", field.path);
            }
            assert!(plan.run(0).is_ok());
        }
    }

    #[test]
    fn missing_settings_say_why() {
        let aws = r#"{"shares":[{"name":"a","limits":{"x":1},"strategy":"RESERVE"}],
            "jobs":[{"id":"j"}]}"#;
        let m = missing(aws);
        assert!(
            m[0].starts_with("a: no borrow limit, as a RESERVE share does not borrow"),
            "{m:?}"
        );
        assert!(m[1].contains("explicit jobs"), "{m:?}");
        let kueue = r#"{"model":"kueue","shares":[{"name":"solo","limits":{"x":1}}]}"#;
        let m = missing(kueue);
        assert!(m[0].contains("in no cohort"), "{m:?}");
        assert!(m[1].contains("fair sharing is off"), "{m:?}");
    }
}
