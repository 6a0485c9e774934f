//! The model switch: a scenario document rewritten for the other model (SPEC 12's
//! translation table). AWS Batch to Kueue is exact as far as quota goes (the table's rows);
//! Kueue to AWS Batch is an approximation wherever Kueue says more than AWS can (cohorts,
//! partial lending limits, weights), and every such place is said in a note.
//!
//! Both work on the scenario's JSON document (what the editor edits), not on the validated
//! model, so that a document with problems can still be switched and everything the
//! translation does not concern (workloads, jobs, names, descriptions) is kept as written.

use serde_json::{json, Map, Value};

use crate::input::model::Model;

/// The name of the cohort an AWS scenario's shares go into (as `quotasim export kueue`).
pub const AWS_COHORT: &str = "quotalab";

/// A translated document and what the translation could not keep, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Translated {
    pub doc: Value,
    pub notes: Vec<String>,
}

/// The model a scenario document is written for (SPEC 12: `model`, default `aws_batch`).
pub fn model_of(doc: &Value) -> Model {
    doc.get("model")
        .and_then(Value::as_str)
        .and_then(Model::parse)
        .unwrap_or(Model::AwsBatch)
}

/// `doc` rewritten for `model` ([`aws_to_kueue`] or [`kueue_to_aws`]); unchanged, without
/// notes, when it is already written for it.
pub fn to_model(doc: &Value, model: Model) -> Translated {
    match (model_of(doc), model) {
        (Model::AwsBatch, Model::Kueue) => aws_to_kueue(doc),
        (Model::Kueue, Model::AwsBatch) => kueue_to_aws(doc),
        _ => Translated {
            doc: doc.clone(),
            notes: Vec::new(),
        },
    }
}

/// A share's `{type: n}` limits, in document order (whole, non-negative numbers only).
fn limits(share: &Map<String, Value>) -> Vec<(String, u64)> {
    share
        .get("limits")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_u64().map(|n| (k.clone(), n)))
                .collect()
        })
        .unwrap_or_default()
}

/// Adds `n` to type `t`'s amount in `sums` (in first-seen order).
/// Calls `f` with every share object of the document and its limits, and returns the
/// limits summed per instance type (in the order types first appear).
fn each_share(
    top: &mut Map<String, Value>,
    mut f: impl FnMut(&mut Map<String, Value>, &[(String, u64)]),
) -> Vec<(String, u64)> {
    let mut sums: Vec<(String, u64)> = Vec::new();
    if let Some(shares) = top.get_mut("shares").and_then(Value::as_array_mut) {
        for s in shares.iter_mut() {
            let Some(m) = s.as_object_mut() else { continue };
            let lim = limits(m);
            for (t, n) in &lim {
                add(&mut sums, t, *n);
            }
            f(m, &lim);
        }
    }
    sums
}

fn add(sums: &mut Vec<(String, u64)>, t: &str, n: u64) {
    match sums.iter_mut().find(|(x, _)| x == t) {
        Some((_, s)) => *s += n,
        None => sums.push((t.to_string(), n)),
    }
}

fn per_type(limits: &[(String, u64)], f: impl Fn(u64) -> u64) -> Value {
    Value::Object(
        limits
            .iter()
            .map(|(t, n)| (t.clone(), json!(f(*n))))
            .collect(),
    )
}

/// SPEC 12's translation table, AWS Batch to Kueue: every share a ClusterQueue of one root
/// cohort ([`AWS_COHORT`]) whose own quota is the unallocated pool (capacity minus the sum
/// of the limits, where a capacity is given); `RESERVE` is lending and borrowing limits 0,
/// `LEND` a borrowing limit 0, `LEND_AND_BORROW` with `borrow_limit` p a borrowing limit of
/// floor(limit x p / 100) per type (none for -1); `in_share_preemption` becomes
/// `within_share` `lower_priority` or `never`, reclaim is `any`. `update_share` events keep
/// only what the Kueue model updates (limits, state). What differs then is the order of
/// offers and the "may preempt" gate (SPEC 12), which the notes say.
pub fn aws_to_kueue(doc: &Value) -> Translated {
    let mut out = doc.clone();
    let mut notes = vec![
        "Kueue orders offers by priority before submit time and lets a job preempt only where \
         its cohort could hold it, so some waits and preemptions can differ from the \
         AWS Batch run."
            .to_string(),
    ];
    let Some(top) = out.as_object_mut() else {
        return Translated { doc: out, notes };
    };
    top.insert("model".into(), json!("kueue"));
    let sums = each_share(top, |m, lim| {
        let strategy = m.remove("strategy");
        let borrow = m.remove("borrow_limit");
        let in_share = m.remove("in_share_preemption");
        match strategy.as_ref().and_then(Value::as_str) {
            Some("RESERVE") => {
                m.insert("borrowing_limit".into(), per_type(lim, |_| 0));
                m.insert("lending_limit".into(), per_type(lim, |_| 0));
            }
            Some("LEND") => {
                m.insert("borrowing_limit".into(), per_type(lim, |_| 0));
            }
            _ => {
                let p = borrow.as_ref().and_then(Value::as_i64).unwrap_or(-1);
                if p >= 0 {
                    let p = p as u64;
                    m.insert(
                        "borrowing_limit".into(),
                        per_type(lim, |n| n.saturating_mul(p) / 100),
                    );
                }
            }
        }
        m.insert("cohort".into(), json!(AWS_COHORT));
        let within = if in_share.as_ref().and_then(Value::as_bool) == Some(true) {
            "lower_priority"
        } else {
            "never"
        };
        m.insert(
            "preemption".into(),
            json!({"within_share": within, "reclaim": "any"}),
        );
    });
    let mut cohort = Map::new();
    cohort.insert("name".into(), json!(AWS_COHORT));
    if let Some(cap) = top.get("capacity").and_then(Value::as_object) {
        let pool: Map<String, Value> = cap
            .iter()
            .filter_map(|(t, v)| {
                let c = v.as_u64()?;
                let used = sums.iter().find(|(x, _)| x == t).map_or(0, |(_, n)| *n);
                (c > used).then(|| (t.clone(), json!(c - used)))
            })
            .collect();
        if !pool.is_empty() {
            cohort.insert("limits".into(), Value::Object(pool));
        }
    }
    top.insert("cohorts".into(), json!([Value::Object(cohort)]));
    let mut dropped = false;
    for_update_shares(top, |u| {
        for k in ["strategy", "borrow_limit", "in_share_preemption"] {
            dropped |= u.remove(k).is_some();
        }
    });
    if dropped {
        notes.push(
            "Timed update_share events keep their limits and state: the Kueue model does not \
             update strategies, borrow limits or in-share preemption."
                .to_string(),
        );
    }
    Translated { doc: out, notes }
}

/// Every `update_share` body of the document's `events`.
fn for_update_shares(top: &mut Map<String, Value>, mut f: impl FnMut(&mut Map<String, Value>)) {
    if let Some(events) = top.get_mut("events").and_then(Value::as_array_mut) {
        for e in events {
            if let Some(u) = e.get_mut("update_share").and_then(Value::as_object_mut) {
                f(u);
            }
        }
    }
}

/// A `{type: n}` map's values by type (whole numbers only).
fn amounts(v: Option<&Value>) -> Option<Vec<(String, u64)>> {
    v.and_then(Value::as_object).map(|m| {
        m.iter()
            .filter_map(|(k, v)| v.as_u64().map(|n| (k.clone(), n)))
            .collect()
    })
}

/// The AWS strategy and borrow limit nearest to a ClusterQueue's lending and borrowing
/// limits on its `limits`, and whether it is exact: no lending and no borrowing is
/// `RESERVE`, no borrowing `LEND`, anything else `LEND_AND_BORROW` with the smallest
/// percent whose floor (SPEC 12's row) allows each type's borrowing limit, or -1 when some
/// type's borrowing is unbounded. A share outside any cohort neither lends nor borrows.
fn aws_strategy(
    lim: &[(String, u64)],
    borrowing: Option<&[(String, u64)]>,
    lending: Option<&[(String, u64)]>,
    in_cohort: bool,
) -> (&'static str, Option<i64>, bool) {
    if !in_cohort {
        return ("RESERVE", None, true);
    }
    let get = |m: Option<&[(String, u64)]>, t: &str| {
        m.and_then(|m| m.iter().find(|(x, _)| x == t).map(|(_, n)| *n))
    };
    let lends_nothing = lim
        .iter()
        .all(|(t, n)| *n == 0 || get(lending, t) == Some(0));
    let lends_all = lim
        .iter()
        .all(|(t, n)| get(lending, t).is_none_or(|l| l >= *n));
    let borrows_nothing = lim.iter().all(|(t, _)| get(borrowing, t) == Some(0));
    if lends_nothing && borrows_nothing {
        return ("RESERVE", None, true);
    }
    if borrows_nothing {
        return ("LEND", None, lends_all);
    }
    let mut pct: i64 = 0;
    let mut exact = lends_all;
    for (t, n) in lim {
        match get(borrowing, t) {
            None => return ("LEND_AND_BORROW", Some(-1), exact),
            Some(b) if *n == 0 => {
                // No percent of a zero limit borrows anything.
                exact &= b == 0;
            }
            Some(b) => {
                let p = (b.saturating_mul(100)).div_ceil(*n) as i64;
                pct = pct.max(p);
            }
        }
    }
    for (t, n) in lim {
        if let Some(b) = get(borrowing, t) {
            exact &= n.saturating_mul(pct as u64) / 100 == b;
        }
    }
    ("LEND_AND_BORROW", Some(pct), exact)
}

/// Kueue to AWS Batch, as near as AWS can say it: SPEC 12's table read backwards per share
/// (`aws_strategy`), `within_share` other than `never` as in-share preemption, cohorts
/// folded into the queue's one pool (their quota becomes unallocated capacity), and weights,
/// per-share queueing, reclaim and borrow-within-cohort policies and fair sharing dropped.
/// Priorities outside AWS's 0..=9999 are clamped. Each approximation is one note.
pub fn kueue_to_aws(doc: &Value) -> Translated {
    let mut out = doc.clone();
    let mut notes: Vec<String> = Vec::new();
    let mut note = |s: &str| {
        if !notes.iter().any(|n| n == s) {
            notes.push(s.to_string());
        }
    };
    let Some(top) = out.as_object_mut() else {
        return Translated { doc: out, notes };
    };
    top.remove("model");
    // Quota the cohorts add: unallocated capacity in AWS's one pool.
    let mut pool: Vec<(String, u64)> = Vec::new();
    if let Some(cohorts) = top.remove("cohorts").and_then(|c| match c {
        Value::Array(a) => Some(a),
        _ => None,
    }) {
        if cohorts.len() > 1 {
            note("The AWS Batch model has one pool per queue: the cohort tree is flattened, every share borrows from and lends to every other.");
        }
        for c in &cohorts {
            for (t, n) in amounts(c.get("limits")).unwrap_or_default() {
                add(&mut pool, &t, n);
            }
            if c.get("borrowing_limit").is_some() || c.get("lending_limit").is_some() {
                note(
                    "Cohorts' borrowing and lending limits have no AWS Batch equivalent: dropped.",
                );
            }
        }
    }
    if top.remove("fair_sharing").is_some() {
        note("The AWS Batch model has no fair sharing: dropped (reclaim by priority only).");
    }
    let sums = each_share(top, |m, lim| {
        let borrowing = amounts(m.remove("borrowing_limit").as_ref());
        let lending = amounts(m.remove("lending_limit").as_ref());
        let in_cohort = m.remove("cohort").is_some();
        if !in_cohort {
            note("A share outside any cohort neither lends nor borrows: it becomes RESERVE.");
        }
        let (strategy, borrow, exact) =
            aws_strategy(lim, borrowing.as_deref(), lending.as_deref(), in_cohort);
        if !exact {
            note("Partial lending or borrowing limits have no exact AWS Batch equivalent: the nearest strategy and borrow limit (percent of the limit) were chosen.");
        }
        let pre = m.remove("preemption");
        let within = pre
            .as_ref()
            .and_then(|p| p.get("within_share"))
            .and_then(Value::as_str)
            .unwrap_or("never");
        if within == "lower_or_newer_equal_priority" {
            note("AWS Batch in-share preemption takes strictly lower priorities only: lower_or_newer_equal_priority became in-share preemption.");
        }
        let reclaim = pre
            .as_ref()
            .and_then(|p| p.get("reclaim"))
            .and_then(Value::as_str)
            .unwrap_or("never");
        if reclaim != "any" {
            note("AWS Batch always reclaims lent capacity (Kueue's reclaimWithinCohort: Any): other reclaim and borrow-within-cohort policies are dropped.");
        }
        if m.remove("weight").is_some() {
            note("Fair-sharing weights have no AWS Batch equivalent: dropped.");
        }
        if m.remove("queueing").is_some() {
            note("AWS Batch queues order jobs the same way for every share (queue.queueing): per-share queueing dropped.");
        }
        m.insert("strategy".into(), json!(strategy));
        if let Some(b) = borrow {
            m.insert("borrow_limit".into(), json!(b));
        }
        if within != "never" {
            m.insert("in_share_preemption".into(), json!(true));
        }
    });
    if pool.iter().any(|(_, n)| *n > 0) {
        note("Cohort quota became unallocated capacity of the queue.");
        let cap = top
            .entry("capacity")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(cap) = cap.as_object_mut() {
            for (t, n) in &pool {
                let shares = sums.iter().find(|(x, _)| x == t).map_or(0, |(_, s)| *s);
                cap.entry(t.clone()).or_insert_with(|| json!(shares + n));
            }
        }
    }
    for list in ["jobs", "workloads"] {
        if let Some(a) = top.get_mut(list).and_then(Value::as_array_mut) {
            for j in a {
                if let Some(p) = j.get_mut("priority") {
                    if let Some(n) = p.as_i64() {
                        let c = n.clamp(0, i64::from(crate::input::model::limits::MAX_PRIORITY));
                        if c != n {
                            *p = json!(c);
                            note("Priorities outside AWS Batch's 0..9999 were clamped.");
                        }
                    }
                }
            }
        }
    }
    Translated { doc: out, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(v: Value) -> Value {
        json!({"format": "quotalab/v1", "shares": [v]})
    }

    #[test]
    fn aws_rows_of_the_table() {
        let d = aws_to_kueue(&share(json!({
            "name": "a", "limits": {"x": 10}, "strategy": "LEND_AND_BORROW", "borrow_limit": 25,
            "in_share_preemption": true
        })));
        assert_eq!(
            d.doc["shares"][0],
            json!({"name": "a", "limits": {"x": 10}, "borrowing_limit": {"x": 2},
                   "cohort": "quotalab",
                   "preemption": {"within_share": "lower_priority", "reclaim": "any"}})
        );
        assert_eq!(d.doc["model"], "kueue");
        let r = aws_to_kueue(&share(
            json!({"name": "a", "limits": {"x": 3}, "strategy": "RESERVE"}),
        ));
        assert_eq!(r.doc["shares"][0]["lending_limit"], json!({"x": 0}));
        assert_eq!(r.doc["shares"][0]["borrowing_limit"], json!({"x": 0}));
        let u = aws_to_kueue(&share(
            json!({"name": "a", "limits": {"x": 3}, "strategy": "LEND_AND_BORROW", "borrow_limit": -1}),
        ));
        assert!(u.doc["shares"][0].get("borrowing_limit").is_none());
    }

    #[test]
    fn unallocated_capacity_is_the_cohorts_quota_and_comes_back() {
        let doc = json!({"format": "quotalab/v1", "capacity": {"x": 5},
            "shares": [{"name": "a", "limits": {"x": 2}, "strategy": "LEND"}]});
        let k = aws_to_kueue(&doc);
        assert_eq!(
            k.doc["cohorts"],
            json!([{"name": "quotalab", "limits": {"x": 3}}])
        );
        let back = kueue_to_aws(&k.doc);
        assert_eq!(back.doc["shares"][0]["strategy"], "LEND");
        assert_eq!(back.doc["capacity"], json!({"x": 5}));
        assert!(back.doc.get("cohorts").is_none() && back.doc.get("model").is_none());
    }

    #[test]
    fn round_trip_of_each_strategy() {
        for s in [
            json!({"name": "a", "limits": {"x": 4}, "strategy": "RESERVE"}),
            json!({"name": "a", "limits": {"x": 4}, "strategy": "LEND", "in_share_preemption": true}),
            json!({"name": "a", "limits": {"x": 4}, "strategy": "LEND_AND_BORROW", "borrow_limit": 50}),
            json!({"name": "a", "limits": {"x": 4}, "strategy": "LEND_AND_BORROW", "borrow_limit": -1}),
        ] {
            let k = aws_to_kueue(&share(s.clone()));
            let back = kueue_to_aws(&k.doc);
            assert_eq!(back.doc["shares"][0], s, "{k:?}");
        }
    }

    #[test]
    fn kueue_approximations_are_said() {
        let doc = json!({"format": "quotalab/v1", "model": "kueue",
            "cohorts": [{"name": "r"}, {"name": "c", "parent": "r", "limits": {"x": 2}}],
            "fair_sharing": {},
            "shares": [
                {"name": "a", "limits": {"x": 10}, "cohort": "c", "borrowing_limit": {"x": 3},
                 "lending_limit": {"x": 4}, "weight": 2,
                 "preemption": {"within_share": "lower_or_newer_equal_priority", "reclaim": "lower_priority"}},
                {"name": "b", "limits": {"x": 1}}
            ],
            "jobs": [{"priority": -5}]});
        let a = kueue_to_aws(&doc);
        let s = &a.doc["shares"];
        assert_eq!(s[0]["strategy"], "LEND_AND_BORROW");
        assert_eq!(s[0]["borrow_limit"], 30);
        assert_eq!(s[0]["in_share_preemption"], true);
        assert_eq!(s[1]["strategy"], "RESERVE");
        assert_eq!(a.doc["capacity"], json!({"x": 13}));
        assert_eq!(a.doc["jobs"][0]["priority"], 0);
        assert!(a.notes.len() >= 7, "{:#?}", a.notes);
    }

    #[test]
    fn the_smallest_percent_that_allows_each_borrowing_limit() {
        let lim = vec![("x".to_string(), 3), ("y".to_string(), 7)];
        let b = vec![("x".to_string(), 1), ("y".to_string(), 1)];
        let (s, p, exact) = aws_strategy(&lim, Some(&b), None, true);
        assert_eq!((s, p), ("LEND_AND_BORROW", Some(34)));
        // floor(7 * 34 / 100) = 2: y would borrow more than its limit of 1.
        assert!(!exact);
    }
}
