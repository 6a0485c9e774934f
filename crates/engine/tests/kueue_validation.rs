//! Validation table tests of the Kueue model (SPEC 12 "Share fields in the Kueue model",
//! `cohorts`, `fair_sharing`, the model switch): one row per rule, each naming the rule, the
//! exact JSON path of the problem and a key part of its message; the change must produce
//! that problem and no other.

use quotalab_engine::model::{FsStrategy, Model, ReclaimPolicy, WithinShare};
use quotalab_engine::{load, Problem};
use serde_json::{json, Value};

const T: &str = "ml.g5.xlarge";

/// A valid Kueue scenario: a two-level cohort tree, three shares, fair sharing.
fn base() -> Value {
    json!({
        "format": "quotalab/v1",
        "model": "kueue",
        "name": "kueue validation base",
        "queue": {"preemption_grace_s": 0},
        "cohorts": [
            {"name": "root", "limits": {T: 1}},
            {"name": "research", "parent": "root", "lending_limit": {T: 2}, "borrowing_limit": {T: 3}, "weight": 2}
        ],
        "shares": [
            {"name": "team-a", "limits": {T: 2}, "cohort": "research",
             "borrowing_limit": {T: 1}, "lending_limit": {T: 1},
             "preemption": {"within_share": "lower_priority", "reclaim": "any",
                            "borrow_within_cohort": {"policy": "lower_priority", "max_priority_threshold": -5}}},
            {"name": "team-b", "limits": {T: 2}, "cohort": "research", "queueing": "strict_fifo"},
            {"name": "ops", "limits": {T: 1}, "cohort": "root", "weight": 0}
        ],
        "fair_sharing": {"strategies": ["less_than_or_equal_to_final_share", "less_than_initial_share"]},
        "jobs": [
            {"id": "a1", "share": "team-a", "instance_type": T, "submit_s": 0, "work_s": 300}
        ],
        "events": [{"at_s": 10, "update_share": {"share": "ops", "limits": {T: 2}}}]
    })
}

fn with(change: impl FnOnce(&mut Value)) -> Value {
    let mut v = base();
    change(&mut v);
    v
}

fn errors_of(v: &Value) -> Vec<Problem> {
    match load(&v.to_string()) {
        Ok(_) => panic!("expected validation errors, got a valid scenario\n{v:#}"),
        Err(e) => e,
    }
}

type Row = (&'static str, fn(&mut Value), &'static str, &'static str);

const ROWS: &[Row] = &[
    (
        "SPEC 12: within_share policy name",
        |v| v["shares"][0]["preemption"]["within_share"] = json!("always"),
        "shares[0].preemption.within_share",
        "\"lower_or_newer_equal_priority\"",
    ),
    (
        "SPEC 12: reclaim policy name",
        |v| v["shares"][1]["preemption"] = json!({"reclaim": "lower"}),
        "shares[1].preemption.reclaim",
        "\"never\", \"lower_priority\" or \"any\"",
    ),
    (
        "SPEC 12: borrow_within_cohort policy name",
        |v| v["shares"][0]["preemption"]["borrow_within_cohort"]["policy"] = json!("any"),
        "shares[0].preemption.borrow_within_cohort.policy",
        "\"never\" or \"lower_priority\"",
    ),
    (
        "SPEC 12: borrow_within_cohort needs reclaim",
        |v| v["shares"][0]["preemption"]["reclaim"] = json!("never"),
        "shares[0].preemption.borrow_within_cohort.policy",
        "requires preemption.reclaim",
    ),
    (
        "SPEC 12: threshold is a 32-bit integer",
        |v| {
            v["shares"][0]["preemption"]["borrow_within_cohort"]["max_priority_threshold"] =
                json!(1.5)
        },
        "shares[0].preemption.borrow_within_cohort.max_priority_threshold",
        "whole number",
    ),
    (
        "SPEC 12: lending limit <= limit",
        |v| v["shares"][0]["lending_limit"] = json!({T: 3}),
        "shares[0].lending_limit.ml.g5.xlarge",
        "at most the share's limit",
    ),
    (
        "SPEC 12: lending limit of a type without limit",
        |v| v["shares"][0]["lending_limit"] = json!({"ml.g5.2xlarge": 0}),
        "shares[0].lending_limit.ml.g5.2xlarge",
        "no limit for ml.g5.2xlarge",
    ),
    (
        "SPEC 12: borrowing limit only in a cohort",
        |v| {
            v["shares"][2].as_object_mut().unwrap().remove("cohort");
            v["shares"][2]["borrowing_limit"] = json!({T: 1});
        },
        "shares[2].borrowing_limit",
        "only allowed for a share in a cohort",
    ),
    (
        "SPEC 12: lending limit only in a cohort",
        |v| {
            v["shares"][2].as_object_mut().unwrap().remove("cohort");
            v["shares"][2]["lending_limit"] = json!({T: 1});
        },
        "shares[2].lending_limit",
        "only allowed for a share in a cohort",
    ),
    (
        "SPEC 12: cohort borrowing limit only with a parent",
        |v| v["cohorts"][0]["borrowing_limit"] = json!({T: 1}),
        "cohorts[0].borrowing_limit",
        "only allowed for a cohort with a parent",
    ),
    (
        "SPEC 12: cohort lending limit only with a parent",
        |v| v["cohorts"][0]["lending_limit"] = json!({T: 1}),
        "cohorts[0].lending_limit",
        "only allowed for a cohort with a parent",
    ),
    (
        "SPEC 12: parent cycle names the cohorts",
        |v| v["cohorts"][0]["parent"] = json!("research"),
        "cohorts[0].parent",
        "cycle of parents: root -> research -> root",
    ),
    (
        "SPEC 12: cohort names unique",
        |v| v["cohorts"][1]["name"] = json!("root"),
        "cohorts[1].name",
        "duplicate cohort name \"root\"",
    ),
    (
        "SPEC 12: weight >= 0",
        |v| v["shares"][1]["weight"] = json!(-1),
        "shares[1].weight",
        "must be a number from 0",
    ),
    (
        "SPEC 12: cohort weight >= 0",
        |v| v["cohorts"][1]["weight"] = json!("heavy"),
        "cohorts[1].weight",
        "must be a number from 0",
    ),
    (
        "SPEC 12: per-share queueing name",
        |v| v["shares"][1]["queueing"] = json!("lifo"),
        "shares[1].queueing",
        "\"best_effort_fifo\" or \"strict_fifo\"",
    ),
    (
        "SPEC 12: fair-sharing strategy name",
        |v| v["fair_sharing"]["strategies"] = json!(["final"]),
        "fair_sharing.strategies[0]",
        "less_than_initial_share",
    ),
    (
        "SPEC 12: fair-sharing lists Kueue accepts",
        |v| {
            v["fair_sharing"]["strategies"] = json!([
                "less_than_initial_share",
                "less_than_or_equal_to_final_share"
            ])
        },
        "fair_sharing.strategies",
        "lists Kueue accepts",
    ),
    (
        "SPEC 12: AWS strategy refused, naming the Kueue fields",
        |v| v["shares"][1]["strategy"] = json!("RESERVE"),
        "shares[1].strategy",
        "use lending_limit and borrowing_limit",
    ),
    (
        "SPEC 12: AWS borrow_limit refused",
        |v| v["shares"][1]["borrow_limit"] = json!(50),
        "shares[1].borrow_limit",
        "use borrowing_limit",
    ),
    (
        "SPEC 12: AWS in_share_preemption refused",
        |v| v["shares"][1]["in_share_preemption"] = json!(true),
        "shares[1].in_share_preemption",
        "use preemption.within_share",
    ),
    (
        "SPEC 12: AWS field in update_share refused",
        |v| v["events"][0]["update_share"]["strategy"] = json!("LEND"),
        "events[0].update_share.strategy",
        "use lending_limit",
    ),
];

/// AWS scenarios refuse the Kueue fields, naming the AWS field to use.
const AWS_ROWS: &[Row] = &[
    (
        "SPEC 12: model name",
        |v| v["model"] = json!("slurm"),
        "model",
        "\"aws_batch\" or \"kueue\"",
    ),
    (
        "SPEC 12: cohort in an AWS scenario",
        |v| v["shares"][0]["cohort"] = json!("x"),
        "shares[0].cohort",
        "is a Kueue field",
    ),
    (
        "SPEC 12: borrowing_limit in an AWS scenario",
        |v| v["shares"][0]["borrowing_limit"] = json!({T: 1}),
        "shares[0].borrowing_limit",
        "use borrow_limit",
    ),
    (
        "SPEC 12: lending_limit in an AWS scenario",
        |v| v["shares"][0]["lending_limit"] = json!({T: 1}),
        "shares[0].lending_limit",
        "use strategy RESERVE",
    ),
    (
        "SPEC 12: preemption in an AWS scenario",
        |v| v["shares"][0]["preemption"] = json!({}),
        "shares[0].preemption",
        "use in_share_preemption",
    ),
    (
        "SPEC 12: weight in an AWS scenario",
        |v| v["shares"][0]["weight"] = json!(1),
        "shares[0].weight",
        "no fair sharing",
    ),
    (
        "SPEC 12: cohorts in an AWS scenario",
        |v| v["cohorts"] = json!([]),
        "cohorts",
        "no cohorts",
    ),
    (
        "SPEC 12: fair_sharing in an AWS scenario",
        |v| v["fair_sharing"] = json!({}),
        "fair_sharing",
        "no fair sharing",
    ),
];

fn aws_base() -> Value {
    json!({
        "format": "quotalab/v1",
        "shares": [{"name": "a", "limits": {T: 1}, "strategy": "LEND"}],
        "jobs": []
    })
}

#[test]
fn every_kueue_rule_reports_its_path_and_message() {
    let base_ok = load(&base().to_string());
    assert!(base_ok.is_ok(), "base must be valid: {:?}", base_ok.err());
    let mut failures = Vec::new();
    for (rule, change, path, message) in ROWS {
        let errs = errors_of(&with(change));
        if !(errs.len() == 1 && errs[0].path == *path && errs[0].message.contains(message)) {
            failures.push(format!(
                "{rule}: want {path}: ...{message}...; got {errs:#?}"
            ));
        }
    }
    for (rule, change, path, message) in AWS_ROWS {
        let mut v = aws_base();
        change(&mut v);
        let errs = errors_of(&v);
        if !(errs.len() == 1 && errs[0].path == *path && errs[0].message.contains(message)) {
            failures.push(format!(
                "{rule}: want {path}: ...{message}...; got {errs:#?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn kueue_fields_are_read() {
    let sc = load(&base().to_string()).unwrap().scenario;
    assert_eq!(sc.model, Model::Kueue);
    assert_eq!(sc.cohorts.len(), 2);
    assert_eq!(sc.cohorts[1].parent, Some(0));
    assert_eq!(sc.cohorts[1].weight, 2000);
    let a = &sc.shares[0].kueue;
    assert_eq!(a.cohort, Some(1));
    assert_eq!(a.borrowing_limit, vec![Some(1)]);
    assert_eq!(a.lending_limit, vec![Some(1)]);
    assert_eq!(a.preemption.within_share, WithinShare::LowerPriority);
    assert_eq!(a.preemption.reclaim, ReclaimPolicy::Any);
    assert!(a.preemption.borrow_within_cohort.lower_priority);
    assert_eq!(
        a.preemption.borrow_within_cohort.max_priority_threshold,
        Some(-5)
    );
    assert_eq!(sc.shares[2].kueue.weight, 0);
    assert_eq!(
        sc.fair_sharing.unwrap().strategies,
        vec![
            FsStrategy::LessThanOrEqualToFinalShare,
            FsStrategy::LessThanInitialShare
        ]
    );
    // SPEC 12: capacity defaults to the sum of all limits, of shares and cohorts.
    assert_eq!(sc.capacity, vec![2 + 2 + 1 + 1]);
}

#[test]
fn cohorts_only_named_exist_with_no_quota() {
    let v = json!({
        "format": "quotalab/v1", "model": "kueue",
        "cohorts": [{"name": "team", "parent": "org"}],
        "shares": [{"name": "a", "limits": {T: 1}, "cohort": "team"},
                   {"name": "b", "limits": {T: 1}, "cohort": "other"}],
        "jobs": []
    });
    let sc = load(&v.to_string()).unwrap().scenario;
    let names: Vec<&str> = sc.cohorts.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["team", "org", "other"]);
    assert_eq!(sc.cohorts[0].parent, Some(1));
    assert_eq!(sc.shares[1].kueue.cohort, Some(2));
    // fair_sharing {} takes both strategies, in Kueue's order.
    let mut v = v;
    v["fair_sharing"] = json!({});
    let sc = load(&v.to_string()).unwrap().scenario;
    assert_eq!(sc.fair_sharing.unwrap().strategies.len(), 2);
}
