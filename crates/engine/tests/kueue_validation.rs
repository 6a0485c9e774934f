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

/// `n` Kueue shares (ClusterQueues) of cohort `research`.
fn kueue_shares(n: usize) -> Value {
    (0..n)
        .map(|i| json!({"name": format!("cq{i}"), "limits": {T: 1}, "cohort": "research"}))
        .collect()
}

/// `root` and `research` (as in [`base`]), then more children of `root` up to `n` cohorts.
fn kueue_cohorts(n: usize) -> Value {
    let mut list = vec![
        json!({"name": "root", "limits": {T: 1}}),
        json!({"name": "research", "parent": "root"}),
    ];
    list.extend((2..n).map(|i| json!({"name": format!("c{i}"), "parent": "root"})));
    Value::Array(list)
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
        "SPEC 12: threshold <= 2147483647",
        |v| {
            v["shares"][0]["preemption"]["borrow_within_cohort"]["max_priority_threshold"] =
                json!(2147483648_i64)
        },
        "shares[0].preemption.borrow_within_cohort.max_priority_threshold",
        "-2147483648..=2147483647",
    ),
    // SPEC 12/13: in the Kueue model priorities are any 32-bit integer, and the message
    // names both bounds.
    (
        "SPEC 12: job priority <= 2147483647",
        |v| v["jobs"][0]["priority"] = json!(2147483648_i64),
        "jobs[0].priority",
        "must be a 32-bit integer, -2147483648..=2147483647 in the Kueue model (got 2147483648)",
    ),
    (
        "SPEC 12: job priority >= -2147483648",
        |v| v["jobs"][0]["priority"] = json!(-2147483649_i64),
        "jobs[0].priority",
        "must be a 32-bit integer, -2147483648..=2147483647 in the Kueue model (got -2147483649)",
    ),
    (
        "SPEC 12: job priority stays whole",
        |v| v["jobs"][0]["priority"] = json!(-1.5),
        "jobs[0].priority",
        "must be a whole number",
    ),
    (
        "SPEC 12: set_priority priority >= -2147483648",
        |v| v["events"] = json!([{"at_s": 5, "set_priority": {"job": "a1", "priority": -3e9}}]),
        "events[0].set_priority.priority",
        "-2147483648..=2147483647",
    ),
    (
        "SPEC 12: set_priority priority <= 2147483647",
        |v| {
            v["events"] =
                json!([{"at_s": 5, "set_priority": {"job": "a1", "priority": 2147483648_i64}}])
        },
        "events[0].set_priority.priority",
        "-2147483648..=2147483647",
    ),
    (
        "SPEC 12: a workload's priority >= -2147483648",
        |v| {
            v["workloads"] = json!([{"share": "team-b", "count": 1, "arrival": {"at_s": [0]},
                                     "instance_type": T, "work_s": 60,
                                     "priority": {"uniform": [-2147483649_i64, 0]}}])
        },
        "workloads[0].priority.uniform[0]",
        "-2147483648..=2147483647",
    ),
    (
        "SPEC 12: a workload's priority <= 2147483647",
        |v| {
            v["workloads"] = json!([{"share": "team-b", "count": 1, "arrival": {"at_s": [0]},
                                     "instance_type": T, "work_s": 60,
                                     "priority": 2147483648_i64}])
        },
        "workloads[0].priority",
        "-2147483648..=2147483647",
    ),
    (
        "SPEC 12/14: resubmit priority in the 32-bit range",
        |v| {
            v["jobs"][0]["on_retries_exhausted"] =
                json!({"resubmit": {"share": "team-b", "priority": 2147483648_i64}})
        },
        "jobs[0].on_retries_exhausted.resubmit.priority",
        "-2147483648..=2147483647",
    ),
    (
        "SPEC 12/14: escalate.to_priority in the 32-bit range",
        |v| {
            v["jobs"][0]["deadline_s"] = json!(600);
            v["jobs"][0]["escalate"] =
                json!({"before_deadline_s": 60, "to_priority": -2147483649_i64});
        },
        "jobs[0].escalate.to_priority",
        "-2147483648..=2147483647",
    ),
    // SPEC 13: up to 1,000 shares and 1,000 cohorts in the Kueue model.
    (
        "SPEC 13: at most 1000 shares in the Kueue model (1001)",
        |v| {
            v["shares"] = kueue_shares(1001);
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        },
        "shares",
        "at most 1000 quota shares (ClusterQueues) in the Kueue model (has 1001)",
    ),
    (
        "SPEC 13: at most 1000 cohorts in the Kueue model (1001 listed)",
        |v| v["cohorts"] = kueue_cohorts(1001),
        "cohorts",
        "at most 1000 cohorts in the Kueue model (has 1001",
    ),
    (
        "SPEC 13: at most 1000 cohorts, counting those only named by a share",
        |v| {
            v["cohorts"] = kueue_cohorts(1000);
            v["shares"][2]["cohort"] = json!("named-only");
        },
        "cohorts",
        "at most 1000 cohorts in the Kueue model (has 1001, listed or named",
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

/// The valid side of each Kueue bound (SPEC 12, 13): the values just inside are accepted.
#[test]
fn kueue_values_inside_the_limits_are_accepted() {
    type ValidRow = (&'static str, fn(&mut Value));
    const VALID: &[ValidRow] = &[
        ("SPEC 12: priorities -2147483648 and 2147483647", |v| {
            v["jobs"][0]["priority"] = json!(-2147483648_i64);
            v["jobs"]
                .as_array_mut()
                .unwrap()
                .push(json!({"id": "b1", "share": "team-b", "instance_type": T,
                             "submit_s": 0, "work_s": 60, "priority": 2147483647_i64}));
            v["events"] = json!([{"at_s": 5, "set_priority": {"job": "a1", "priority": -1}}]);
        }),
        ("SPEC 12: a workload of negative priorities", |v| {
            v["workloads"] = json!([{"share": "team-b", "count": 20, "arrival": {"uniform": [0, 100]},
                                     "instance_type": T, "work_s": 60,
                                     "priority": {"choice": [[-2147483648_i64, 1], [-5, 1]]}}])
        }),
        ("SPEC 12: threshold -2147483648 and 2147483647", |v| {
            v["shares"][0]["preemption"]["borrow_within_cohort"]["max_priority_threshold"] =
                json!(-2147483648_i64);
            v["shares"][1]["preemption"] = json!({"reclaim": "any",
                "borrow_within_cohort": {"policy": "lower_priority",
                                         "max_priority_threshold": 2147483647_i64}});
        }),
        (
            "SPEC 12/14: negative resubmit and escalation priorities",
            |v| {
                v["jobs"][0]["on_retries_exhausted"] =
                    json!({"resubmit": {"share": "team-b", "priority": -7}});
                v["jobs"][0]["preemption_retries"] = json!(1);
                v["jobs"][0]["deadline_s"] = json!(600);
                v["jobs"][0]["escalate"] = json!({"before_deadline_s": 60, "to_priority": -2});
            },
        ),
        ("SPEC 13: exactly 1000 shares", |v| {
            v["shares"] = kueue_shares(1000);
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        }),
        ("SPEC 13: exactly 1000 cohorts", |v| {
            v["cohorts"] = kueue_cohorts(1000)
        }),
    ];
    let mut failures = Vec::new();
    for (rule, change) in VALID {
        if let Err(e) = load(&with(change).to_string()) {
            failures.push(format!("{rule}: refused: {e:#?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The values are kept as given.
    let sc = load(&with(VALID[0].1).to_string()).unwrap().scenario;
    assert_eq!(sc.jobs[0].priority, i32::MIN);
    assert_eq!(sc.jobs[1].priority, i32::MAX);
    let sc = load(&with(VALID[1].1).to_string()).unwrap().scenario;
    // The workload's jobs follow the base scenario's one job.
    let p: Vec<i32> = sc.jobs[1..].iter().map(|j| j.priority).collect();
    assert!(p.iter().all(|p| [i32::MIN, -5].contains(p)), "{p:?}");
    assert!(p.contains(&i32::MIN) && p.contains(&-5), "{p:?}");
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
