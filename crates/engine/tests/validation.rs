//! Validation table tests (SPEC 2 "Entities and limits", SPEC 7 "Scenario file"): one row per
//! rule, each naming the rule, the exact JSON path of the problem and a key part of its
//! message. Then the document-level rules (syntax errors with line and column, every problem
//! at once, warnings that are not errors, defaults), and property tests that `load` never
//! panics, whatever the text.

use proptest::prelude::*;
use quotalab_engine::model::{BorrowLimit, Strategy as ShareStrategy};
use quotalab_engine::{load, Problem};
use serde_json::{json, Map, Value};

const T: &str = "ml.g5.xlarge";

/// A small valid scenario: three shares of the three strategies, two jobs, one event.
fn base() -> Value {
    json!({
        "format": "quotalab/v1",
        "name": "validation base",
        "seed": 1,
        "capacity": {T: 3},
        "queue": {"queueing": "best_effort_fifo", "preemption_grace_s": 0},
        "shares": [
            {"name": "a", "limits": {T: 1}, "strategy": "LEND_AND_BORROW", "borrow_limit": 100,
             "in_share_preemption": true},
            {"name": "b", "limits": {T: 1}, "strategy": "LEND"},
            {"name": "c", "limits": {T: 1}, "strategy": "RESERVE"}
        ],
        "jobs": [
            {"id": "a1", "share": "a", "instance_type": T, "instances": 1, "priority": 3,
             "submit_s": 0, "work_s": 300},
            {"id": "b1", "share": "b", "instance_type": T, "submit_s": 60, "work_s": 300,
             "checkpoint": {"interval_s": 100, "cost_s": 5, "restore_s": 10}}
        ],
        "events": [
            {"at_s": 120, "set_priority": {"job": "a1", "priority": 4}}
        ]
    })
}

/// The base scenario with a change applied.
fn with(change: impl FnOnce(&mut Value)) -> Value {
    let mut v = base();
    change(&mut v);
    v
}

fn errors_of(v: &Value) -> Vec<Problem> {
    match load(&v.to_string()) {
        Ok(l) => panic!(
            "expected validation errors, got a valid scenario (warnings: {:?})\n{v:#}",
            l.warnings
        ),
        Err(e) => e,
    }
}

fn warnings_of(v: &Value) -> Vec<Problem> {
    match load(&v.to_string()) {
        Ok(l) => l.warnings,
        Err(e) => panic!("expected a valid scenario, got errors: {e:#?}\n{v:#}"),
    }
}

fn show(ps: &[Problem]) -> String {
    ps.iter().map(|p| format!("\n  {p}")).collect()
}

/// A problem with exactly this path whose message contains `message`.
fn has(ps: &[Problem], path: &str, message: &str) -> bool {
    ps.iter()
        .any(|p| p.path == path && p.message.contains(message))
}

fn shares_named(n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"name": format!("s{i}"), "limits": {T: 1}, "strategy": "LEND"}))
            .collect(),
    )
}

/// Six distinct catalogue types (SPEC 7: the catalogue holds at least these).
const SIX_TYPES: [&str; 6] = [
    "ml.g5.xlarge",
    "ml.g5.2xlarge",
    "ml.g6.xlarge",
    "ml.p4d.24xlarge",
    "ml.p5.48xlarge",
    "ml.trn1.32xlarge",
];

fn limits_of(n: usize) -> Value {
    let mut m = Map::new();
    for t in &SIX_TYPES[..n] {
        m.insert(t.to_string(), json!(1));
    }
    Value::Object(m)
}

/// One row: the rule (SPEC section), a change to the base scenario, the exact path of the
/// expected problem and a key part of its message. The change must produce that problem and
/// no other.
type Row = (&'static str, fn(&mut Value), &'static str, &'static str);

const ERROR_ROWS: &[Row] = &[
    // SPEC 2 queue: at most 20 quota shares.
    (
        "SPEC 2: at most 20 quota shares (21)",
        |v| {
            v["shares"] = shares_named(21);
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        },
        "shares",
        "at most 20",
    ),
    // Instance types: at most 10,000 declared (SPEC is silent; a job keeps its type in 16 bits).
    (
        "instance_types: at most 10,000 (10,001)",
        |v| {
            v["instance_types"] = (0..10_001)
                .map(|i| json!({"name": format!("custom-{i}"), "gpus": 1}))
                .collect();
        },
        "instance_types",
        "declares 10001 instance types; a scenario may declare at most 10000",
    ),
    // SPEC 2 quota share: 1..=5 limits (0 limits).
    (
        "SPEC 2: 1..=5 limits (0)",
        |v| v["shares"][2]["limits"] = json!({}),
        "shares[2].limits",
        "must have 1 to 5",
    ),
    // SPEC 2 quota share: 1..=5 limits (6 limits).
    (
        "SPEC 2: 1..=5 limits (6)",
        |v| v["shares"][2]["limits"] = limits_of(6),
        "shares[2].limits",
        "(has 6)",
    ),
    // SPEC 2 quota share: names unique.
    (
        "SPEC 2: share names unique",
        |v| v["shares"][2]["name"] = json!("a"),
        "shares[2].name",
        "duplicate share name \"a\"",
    ),
    // SPEC 2 quota share: names <= 128 chars.
    (
        "SPEC 2: share name <= 128 chars (129)",
        |v| v["shares"][2]["name"] = json!("x".repeat(129)),
        "shares[2].name",
        "at most 128 characters",
    ),
    // SPEC 2 quota share: names <= 128 chars, counted in characters, not bytes.
    (
        "SPEC 2: share name <= 128 chars (129 two-byte chars)",
        |v| v["shares"][2]["name"] = json!("é".repeat(129)),
        "shares[2].name",
        "at most 128 characters",
    ),
    // SPEC 2 quota share: borrow_limit only with LEND_AND_BORROW (LEND).
    (
        "SPEC 2: borrow_limit only with LEND_AND_BORROW (LEND)",
        |v| v["shares"][1]["borrow_limit"] = json!(50),
        "shares[1].borrow_limit",
        "only allowed with strategy LEND_AND_BORROW",
    ),
    // SPEC 2 quota share: borrow_limit only with LEND_AND_BORROW (RESERVE).
    (
        "SPEC 2: borrow_limit only with LEND_AND_BORROW (RESERVE)",
        |v| v["shares"][2]["borrow_limit"] = json!(-1),
        "shares[2].borrow_limit",
        "only allowed with strategy LEND_AND_BORROW",
    ),
    // SPEC 2 quota share: borrow_limit >= -1.
    (
        "SPEC 2: borrow_limit >= -1",
        |v| v["shares"][0]["borrow_limit"] = json!(-2),
        "shares[0].borrow_limit",
        "must be >= -1",
    ),
    // SPEC 2 quota share: borrow_limit is a whole percent.
    (
        "SPEC 2: borrow_limit is a whole number",
        |v| v["shares"][0]["borrow_limit"] = json!(50.5),
        "shares[0].borrow_limit",
        "whole number",
    ),
    // SPEC 2 quota share: borrow_limit is a number, not a string.
    (
        "SPEC 2: borrow_limit is a number",
        |v| v["shares"][0]["borrow_limit"] = json!("50"),
        "shares[0].borrow_limit",
        "whole number",
    ),
    // SPEC 2 quota share: strategy is RESERVE, LEND or LEND_AND_BORROW.
    (
        "SPEC 2: strategy values",
        |v| v["shares"][1]["strategy"] = json!("BORROW"),
        "shares[1].strategy",
        "\"RESERVE\", \"LEND\" or \"LEND_AND_BORROW\"",
    ),
    // SPEC 2 quota share: strategy is case-sensitive.
    (
        "SPEC 2: strategy values are upper case",
        |v| v["shares"][1]["strategy"] = json!("lend"),
        "shares[1].strategy",
        "\"LEND_AND_BORROW\"",
    ),
    // SPEC 2 quota share: state is ENABLED or DISABLED.
    (
        "SPEC 2: state values",
        |v| v["shares"][1]["state"] = json!("PAUSED"),
        "shares[1].state",
        "\"ENABLED\" or \"DISABLED\"",
    ),
    // SPEC 2 quota share: a limit is a count of instances >= 0.
    (
        "SPEC 2: limits are instance counts >= 0",
        |v| v["shares"][1]["limits"][T] = json!(-1),
        "shares[1].limits.ml.g5.xlarge",
        "must be >= 0",
    ),
    // SPEC 2 quota share: in_share_preemption is a bool.
    (
        "SPEC 2: in_share_preemption is a bool",
        |v| v["shares"][0]["in_share_preemption"] = json!("yes"),
        "shares[0].in_share_preemption",
        "true or false",
    ),
    // SPEC 2 queue: queueing is best_effort_fifo or strict_fifo.
    (
        "SPEC 2: queueing values",
        |v| v["queue"]["queueing"] = json!("fifo"),
        "queue.queueing",
        "\"best_effort_fifo\" or \"strict_fifo\"",
    ),
    // SPEC 2 queue: preemption_grace_s is a time >= 0.
    (
        "SPEC 2: preemption_grace_s >= 0",
        |v| v["queue"]["preemption_grace_s"] = json!(-1),
        "queue.preemption_grace_s",
        "must be >= 0",
    ),
    // SPEC 2 job: priority 0..=9999 (10000).
    (
        "SPEC 2: priority <= 9999",
        |v| v["jobs"][0]["priority"] = json!(10000),
        "jobs[0].priority",
        "must be <= 9999",
    ),
    // SPEC 2 job: priority 0..=9999 (-1).
    (
        "SPEC 2: priority >= 0",
        |v| v["jobs"][0]["priority"] = json!(-1),
        "jobs[0].priority",
        "must be >= 0",
    ),
    // SPEC 2 job: ids unique (two explicit jobs).
    (
        "SPEC 2: job ids unique (explicit)",
        |v| v["jobs"][1]["id"] = json!("a1"),
        "jobs[1].id",
        "duplicate job id \"a1\" (also used by jobs[0])",
    ),
    // SPEC 2 + 7: ids unique, explicit vs generated `<share>-<n>` (the generated one is named
    // by the workloads that made it).
    (
        "SPEC 2/7: job ids unique (explicit vs generated <share>-<n>)",
        |v| {
            v["jobs"][1]["id"] = json!("b-2");
            v["workloads"] = json!([{"share": "b", "count": 3, "arrival": {"at_s": [0, 10, 20]},
                                     "instance_type": T, "work_s": 60}]);
        },
        "workloads",
        "duplicate job id \"b-2\" (also used by jobs[1])",
    ),
    // SPEC 7: an unknown instance type is a validation error (in a job).
    (
        "SPEC 7: unknown instance type (job)",
        |v| v["jobs"][0]["instance_type"] = json!("ml.nope.xlarge"),
        "jobs[0].instance_type",
        "unknown instance type \"ml.nope.xlarge\"",
    ),
    // SPEC 7: an unknown instance type is a validation error (in a share's limits).
    (
        "SPEC 7: unknown instance type (limits)",
        |v| v["shares"][2]["limits"] = json!({"ml.nope.xlarge": 1}),
        "shares[2].limits.ml.nope.xlarge",
        "unknown instance type \"ml.nope.xlarge\"",
    ),
    // SPEC 7: an unknown instance type is a validation error (in capacity).
    (
        "SPEC 7: unknown instance type (capacity)",
        |v| v["capacity"]["ml.nope.xlarge"] = json!(4),
        "capacity.ml.nope.xlarge",
        "unknown instance type \"ml.nope.xlarge\"",
    ),
    // SPEC 2 instance type: name non-empty.
    (
        "SPEC 2: instance type name non-empty",
        |v| v["instance_types"] = json!([{"name": "", "gpus": 1, "usd_per_hour": 1.0}]),
        "instance_types[0].name",
        "must not be empty",
    ),
    // SPEC 2 instance type: gpus >= 1.
    (
        "SPEC 2: instance type gpus >= 1",
        |v| v["instance_types"] = json!([{"name": "custom", "gpus": 0, "usd_per_hour": 1.0}]),
        "instance_types[0].gpus",
        "must be >= 1",
    ),
    // SPEC 2 instance type: price >= 0.
    (
        "SPEC 2: instance type price >= 0",
        |v| v["instance_types"] = json!([{"name": "custom", "gpus": 1, "usd_per_hour": -0.5}]),
        "instance_types[0].usd_per_hour",
        ">= 0",
    ),
    // SPEC 2 job: instances >= 1.
    (
        "SPEC 2: instances >= 1",
        |v| v["jobs"][0]["instances"] = json!(0),
        "jobs[0].instances",
        "must be >= 1",
    ),
    // SPEC 2 job: instances is a whole number.
    (
        "SPEC 2: instances is a whole number",
        |v| v["jobs"][0]["instances"] = json!(1.5),
        "jobs[0].instances",
        "whole number",
    ),
    // SPEC 2 job: work_s > 0 (0).
    (
        "SPEC 2: work_s > 0 (0)",
        |v| v["jobs"][0]["work_s"] = json!(0),
        "jobs[0].work_s",
        "must be > 0",
    ),
    // SPEC 2 job: work_s > 0 (negative).
    (
        "SPEC 2: work_s > 0 (negative)",
        |v| v["jobs"][0]["work_s"] = json!(-5),
        "jobs[0].work_s",
        "must be > 0 (got -5)",
    ),
    // SPEC 2 job: times finite (a string such as "NaN" is not a number).
    (
        "SPEC 2: times finite (\"NaN\")",
        |v| v["jobs"][0]["submit_s"] = json!("NaN"),
        "jobs[0].submit_s",
        "must be a number of seconds",
    ),
    // SPEC 2 job: times finite (a string such as "Infinity" is not a number).
    (
        "SPEC 2: times finite (\"Infinity\")",
        |v| v["jobs"][0]["submit_s"] = json!("Infinity"),
        "jobs[0].submit_s",
        "must be a number of seconds",
    ),
    // SPEC 2 job: times finite (a number in a string is still a string).
    (
        "SPEC 2: times are numbers (\"60\")",
        |v| v["jobs"][1]["submit_s"] = json!("60"),
        "jobs[1].submit_s",
        "not a string",
    ),
    // SPEC 2 job: times >= 0.
    (
        "SPEC 2: times >= 0 (submit_s)",
        |v| v["jobs"][0]["submit_s"] = json!(-1),
        "jobs[0].submit_s",
        "must be >= 0",
    ),
    // SPEC 2 job: times finite (1e13 s is past the engine's range).
    (
        "SPEC 2: times in range (submit_s 1e13)",
        |v| v["jobs"][0]["submit_s"] = json!(1e13),
        "jobs[0].submit_s",
        "at most",
    ),
    // SPEC 2 job: times >= 0 (startup_s).
    (
        "SPEC 2: times >= 0 (startup_s)",
        |v| v["jobs"][0]["startup_s"] = json!(-0.5),
        "jobs[0].startup_s",
        "must be >= 0",
    ),
    // SPEC 2 job: times >= 0 (deadline_s).
    (
        "SPEC 2: times >= 0 (deadline_s)",
        |v| v["jobs"][0]["deadline_s"] = json!(-10),
        "jobs[0].deadline_s",
        "must be >= 0",
    ),
    // SPEC 7: required job fields (work_s).
    (
        "SPEC 7: work_s is required",
        |v| {
            v["jobs"][0].as_object_mut().unwrap().remove("work_s");
        },
        "jobs[0].work_s",
        "is required",
    ),
    // SPEC 7: required job fields (id).
    (
        "SPEC 7: id is required",
        |v| {
            v["jobs"][1].as_object_mut().unwrap().remove("id");
        },
        "jobs[1].id",
        "is required",
    ),
    // SPEC 2 job: share names an existing share.
    (
        "SPEC 2: a job's share exists",
        |v| v["jobs"][1]["share"] = json!("nope"),
        "jobs[1].share",
        "unknown share \"nope\"",
    ),
    // SPEC 2 job: checkpoint interval_s > 0.
    (
        "SPEC 2: checkpoint interval_s > 0",
        |v| v["jobs"][1]["checkpoint"]["interval_s"] = json!(0),
        "jobs[1].checkpoint.interval_s",
        "must be > 0",
    ),
    // SPEC 2 job: checkpoint times >= 0.
    (
        "SPEC 2: checkpoint cost_s >= 0",
        |v| v["jobs"][1]["checkpoint"]["cost_s"] = json!(-1),
        "jobs[1].checkpoint.cost_s",
        "must be >= 0",
    ),
    // SPEC 2 job: preemption_retries is a count (null = unlimited), not -1.
    (
        "SPEC 2: preemption_retries >= 0",
        |v| v["jobs"][0]["preemption_retries"] = json!(-1),
        "jobs[0].preemption_retries",
        "must be >= 0",
    ),
    // SPEC 2 job: checkpoint_on_preempt is a bool.
    (
        "SPEC 2: checkpoint_on_preempt is a bool",
        |v| v["jobs"][0]["checkpoint_on_preempt"] = json!(1),
        "jobs[0].checkpoint_on_preempt",
        "true or false",
    ),
    // SPEC 7 events: set_priority names a job that exists.
    (
        "SPEC 7: set_priority for an unknown job",
        |v| v["events"][0]["set_priority"]["job"] = json!("ghost"),
        "events[0].set_priority.job",
        "unknown job \"ghost\"",
    ),
    // SPEC 7 events: set_priority's priority is 0..=9999.
    (
        "SPEC 2/7: set_priority priority <= 9999",
        |v| v["events"][0]["set_priority"]["priority"] = json!(10000),
        "events[0].set_priority.priority",
        "must be <= 9999",
    ),
    // SPEC 2/7 (the AWS model; the Kueue model takes any 32-bit integer, see
    // kueue_validation.rs): set_priority's priority >= 0.
    (
        "SPEC 2/7: set_priority priority >= 0",
        |v| v["events"][0]["set_priority"]["priority"] = json!(-1),
        "events[0].set_priority.priority",
        "must be >= 0",
    ),
    // SPEC 2: a workload's priority 0..=9999 in the AWS model.
    (
        "SPEC 2/7: a workload's priority >= 0",
        |v| {
            v["workloads"] = json!([{"share": "b", "count": 1, "arrival": {"at_s": [0]},
                                     "instance_type": T, "work_s": 60, "priority": -5}])
        },
        "workloads[0].priority",
        "must be >= 0",
    ),
    (
        "SPEC 2/7: a workload's priority <= 9999",
        |v| {
            v["workloads"] = json!([{"share": "b", "count": 1, "arrival": {"at_s": [0]},
                                     "instance_type": T, "work_s": 60,
                                     "priority": {"uniform": [0, 10000]}}])
        },
        "workloads[0].priority.uniform[1]",
        "must be <= 9999",
    ),
    // SPEC 2: the Kueue model's 1,000-share bound is not the AWS model's (25 shares).
    (
        "SPEC 2: at most 20 quota shares (25, a number the Kueue model allows)",
        |v| {
            v["shares"] = shares_named(25);
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        },
        "shares",
        "at most 20 quota shares per queue (has 25)",
    ),
    // SPEC 7 events: update_share names a share that exists.
    (
        "SPEC 7: update_share for an unknown share",
        |v| {
            v["events"] =
                json!([{"at_s": 10, "update_share": {"share": "zzz", "state": "DISABLED"}}])
        },
        "events[0].update_share.share",
        "unknown share \"zzz\"",
    ),
    // SPEC 2 + 7: update_share's borrow_limit only while the share is LEND_AND_BORROW.
    (
        "SPEC 2/7: update_share borrow_limit on a LEND share",
        |v| v["events"] = json!([{"at_s": 10, "update_share": {"share": "b", "borrow_limit": 50}}]),
        "events[0].update_share.borrow_limit",
        "LEND_AND_BORROW",
    ),
    // SPEC 2 + 7: the share's strategy is the one at the event's time, not in file order: an
    // update that switches it to LEND_AND_BORROW *later* does not allow an earlier borrow_limit.
    (
        "SPEC 2/7: update_share borrow_limit before the switch to LEND_AND_BORROW",
        |v| {
            v["events"] = json!([
                {"at_s": 10, "update_share": {"share": "b", "strategy": "LEND_AND_BORROW"}},
                {"at_s": 5, "update_share": {"share": "b", "borrow_limit": 50}}
            ])
        },
        "events[1].update_share.borrow_limit",
        "LEND_AND_BORROW",
    ),
    // SPEC 2 + 7: switching a LEND_AND_BORROW share to LEND makes a later borrow_limit invalid.
    (
        "SPEC 2/7: update_share borrow_limit after a switch to RESERVE",
        |v| {
            v["events"] = json!([
                {"at_s": 10, "update_share": {"share": "a", "strategy": "RESERVE"}},
                {"at_s": 20, "update_share": {"share": "a", "borrow_limit": 50}}
            ])
        },
        "events[1].update_share.borrow_limit",
        "LEND_AND_BORROW",
    ),
    // SPEC 7 events: update_share borrow_limit >= -1.
    (
        "SPEC 2/7: update_share borrow_limit >= -1",
        |v| v["events"] = json!([{"at_s": 10, "update_share": {"share": "a", "borrow_limit": -7}}]),
        "events[0].update_share.borrow_limit",
        "must be >= -1",
    ),
    // SPEC 7 events: update_share limits follow the 1..=5 rule too.
    (
        "SPEC 2/7: update_share limits 1..=5",
        |v| v["events"] = json!([{"at_s": 10, "update_share": {"share": "a", "limits": {}}}]),
        "events[0].update_share.limits",
        "must have 1 to 5",
    ),
    // SPEC 7 events: update_share strategy values.
    (
        "SPEC 2/7: update_share strategy values",
        |v| {
            v["events"] = json!([{"at_s": 10, "update_share": {"share": "a", "strategy": "SHARE"}}])
        },
        "events[0].update_share.strategy",
        "\"LEND_AND_BORROW\"",
    ),
    // SPEC 7 events: an event has exactly one action (both).
    (
        "SPEC 7: event with both actions",
        |v| v["events"][0]["update_share"] = json!({"share": "a", "state": "DISABLED"}),
        "events[0]",
        "not both",
    ),
    // SPEC 7 events: an event has exactly one action (neither).
    (
        "SPEC 7: event with neither action",
        |v| v["events"] = json!([{"at_s": 10}]),
        "events[0]",
        "must have one of set_priority or update_share",
    ),
    // SPEC 7 events: at_s is a time >= 0.
    (
        "SPEC 7: event at_s >= 0",
        |v| v["events"][0]["at_s"] = json!(-3),
        "events[0].at_s",
        "must be >= 0",
    ),
    // SPEC 7: format is "quotalab/v1".
    (
        "SPEC 7: format is quotalab/v1",
        |v| v["format"] = json!("quotalab/v2"),
        "format",
        "\"quotalab/v1\"",
    ),
    // SPEC 7: horizon_s is a time >= 0.
    (
        "SPEC 7: horizon_s >= 0",
        |v| v["horizon_s"] = json!(-1),
        "horizon_s",
        "must be >= 0",
    ),
    // SPEC 7: a scenario needs shares.
    (
        "SPEC 7: missing shares",
        |v| {
            let m = v.as_object_mut().unwrap();
            m.remove("shares");
            m.remove("jobs");
            m.remove("events");
        },
        "shares",
        "is required",
    ),
    // SPEC 2: at least one quota share.
    (
        "SPEC 2: at least one share",
        |v| {
            v["shares"] = json!([]);
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        },
        "shares",
        "at least one",
    ),
    // SPEC 7: shares is an array.
    (
        "SPEC 7: shares is an array",
        |v| {
            v["shares"] = json!({"a": {}});
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        },
        "shares",
        "must be an array, not an object",
    ),
    // SPEC 7 workloads: a workload's share exists.
    (
        "SPEC 7: workload share exists",
        |v| {
            v["workloads"] = json!([{"share": "nope", "count": 2, "arrival": {"at_s": [0, 1]},
                                     "instance_type": T, "work_s": 60}])
        },
        "workloads[0].share",
        "nope",
    ),
    // SPEC 14 recovery: probabilities in [0, 1].
    (
        "SPEC 14: recovery.restore_failure <= 1",
        |v| v["jobs"][1]["recovery"] = json!({"restore_failure": 1.5}),
        "jobs[1].recovery.restore_failure",
        "must be <= 1",
    ),
    (
        "SPEC 14: recovery.invalid_resume >= 0",
        |v| v["jobs"][1]["recovery"] = json!({"invalid_resume": -0.1}),
        "jobs[1].recovery.invalid_resume",
        "must be >= 0",
    ),
    (
        "SPEC 14: recovery.restore_failure is a number",
        |v| v["jobs"][1]["recovery"] = json!({"restore_failure": "often"}),
        "jobs[1].recovery.restore_failure",
        "must be",
    ),
    (
        "SPEC 14: recovery is an object",
        |v| v["jobs"][1]["recovery"] = json!(0.5),
        "jobs[1].recovery",
        "must be an object",
    ),
    (
        "SPEC 14: recovery has no unknown field (a misspelt probability is not 0)",
        |v| v["jobs"][1]["recovery"] = json!({"restore_fail": 0.5}),
        "jobs[1].recovery.restore_fail",
        "unknown field",
    ),
    // SPEC 14 on_retries_exhausted: "fail" or {"resubmit": {"share", "priority"}}.
    (
        "SPEC 14: on_retries_exhausted values",
        |v| v["jobs"][0]["on_retries_exhausted"] = json!("retry"),
        "jobs[0].on_retries_exhausted",
        "must be \"fail\" or",
    ),
    (
        "SPEC 14: on_retries_exhausted.resubmit is required in an object",
        |v| v["jobs"][0]["on_retries_exhausted"] = json!({}),
        "jobs[0].on_retries_exhausted.resubmit",
        "is required",
    ),
    (
        "SPEC 14: resubmit share is required",
        |v| v["jobs"][0]["on_retries_exhausted"] = json!({"resubmit": {}}),
        "jobs[0].on_retries_exhausted.resubmit.share",
        "is required",
    ),
    (
        "SPEC 14: resubmit share exists",
        |v| v["jobs"][0]["on_retries_exhausted"] = json!({"resubmit": {"share": "zz"}}),
        "jobs[0].on_retries_exhausted.resubmit.share",
        "unknown share \"zz\"",
    ),
    (
        "SPEC 14: resubmit share differs from the job's",
        |v| v["jobs"][0]["on_retries_exhausted"] = json!({"resubmit": {"share": "a"}}),
        "jobs[0].on_retries_exhausted.resubmit.share",
        "must differ from the job's own share",
    ),
    (
        "SPEC 14: resubmit priority 0..=9999",
        |v| {
            v["jobs"][0]["on_retries_exhausted"] =
                json!({"resubmit": {"share": "c", "priority": 10000}})
        },
        "jobs[0].on_retries_exhausted.resubmit.priority",
        "must be <= 9999",
    ),
    (
        "SPEC 14: resubmit priority >= 0",
        |v| {
            v["jobs"][0]["on_retries_exhausted"] =
                json!({"resubmit": {"share": "c", "priority": -1}})
        },
        "jobs[0].on_retries_exhausted.resubmit.priority",
        "must be >= 0",
    ),
    // SPEC 14 escalate: {before_deadline_s, to_priority}, needs a deadline.
    (
        "SPEC 14: escalate needs a deadline",
        |v| v["jobs"][0]["escalate"] = json!({"before_deadline_s": 60, "to_priority": 9}),
        "jobs[0].escalate",
        "needs a deadline",
    ),
    (
        "SPEC 14: escalate.to_priority is required",
        |v| {
            v["jobs"][0]["deadline_s"] = json!(600);
            v["jobs"][0]["escalate"] = json!({"before_deadline_s": 60});
        },
        "jobs[0].escalate.to_priority",
        "is required",
    ),
    (
        "SPEC 14: escalate.before_deadline_s >= 0",
        |v| {
            v["jobs"][0]["deadline_s"] = json!(600);
            v["jobs"][0]["escalate"] = json!({"before_deadline_s": -1, "to_priority": 9});
        },
        "jobs[0].escalate.before_deadline_s",
        "must be >= 0",
    ),
    (
        "SPEC 14: escalate.to_priority 0..=9999",
        |v| {
            v["jobs"][0]["deadline_s"] = json!(600);
            v["jobs"][0]["escalate"] = json!({"before_deadline_s": 60, "to_priority": -1});
        },
        "jobs[0].escalate.to_priority",
        "must be >= 0",
    ),
    (
        "SPEC 14: escalate.to_priority <= 9999",
        |v| {
            v["jobs"][0]["deadline_s"] = json!(600);
            v["jobs"][0]["escalate"] = json!({"before_deadline_s": 60, "to_priority": 10000});
        },
        "jobs[0].escalate.to_priority",
        "must be <= 9999",
    ),
    (
        "SPEC 14: a workload's escalate needs deadline_factor",
        |v| {
            v["workloads"] = json!([{"share": "b", "count": 1, "arrival": {"at_s": [0]},
                                     "instance_type": T, "work_s": 60,
                                     "escalate": {"before_deadline_s": 10, "to_priority": 9}}])
        },
        "workloads[0].escalate",
        "needs a deadline: give deadline_factor",
    ),
    (
        "SPEC 14: a workload's recovery probability <= 1",
        |v| {
            v["workloads"] = json!([{"share": "b", "count": 1, "arrival": {"at_s": [0]},
                                     "instance_type": T, "work_s": 60,
                                     "recovery": {"restore_failure": 2}}])
        },
        "workloads[0].recovery.restore_failure",
        "must be <= 1",
    ),
    (
        "SPEC 14: a workload's resubmit share differs from its own",
        |v| {
            v["workloads"] = json!([{"share": "b", "count": 1, "arrival": {"at_s": [0]},
                                     "instance_type": T, "work_s": 60,
                                     "on_retries_exhausted": {"resubmit": {"share": "b"}}}])
        },
        "workloads[0].on_retries_exhausted.resubmit.share",
        "must differ",
    ),
    // SPEC 14 alarms: {repeated_preemptions: k >= 1}.
    (
        "SPEC 14: alarms.repeated_preemptions >= 1",
        |v| v["alarms"] = json!({"repeated_preemptions": 0}),
        "alarms.repeated_preemptions",
        "must be >= 1",
    ),
    (
        "SPEC 14: alarms.repeated_preemptions is whole",
        |v| v["alarms"] = json!({"repeated_preemptions": 2.5}),
        "alarms.repeated_preemptions",
        "whole number",
    ),
    (
        "SPEC 14: alarms is an object",
        |v| v["alarms"] = json!(3),
        "alarms",
        "must be an object",
    ),
    // SPEC 14 agreement: strings of at most 2,000 characters.
    (
        "SPEC 14: agreement texts <= 2000 characters",
        |v| v["shares"][1]["agreement"] = json!({"rationale": "é".repeat(2001)}),
        "shares[1].agreement.rationale",
        "at most 2000 characters",
    ),
    (
        "SPEC 14: agreement texts are strings",
        |v| v["shares"][1]["agreement"] = json!({"owner": 7}),
        "shares[1].agreement.owner",
        "must be a string",
    ),
    (
        "SPEC 14: agreement is an object",
        |v| v["shares"][1]["agreement"] = json!("ml team"),
        "shares[1].agreement",
        "must be an object",
    ),
    (
        "SPEC 14: agreement has no unknown field",
        |v| v["shares"][1]["agreement"] = json!({"owners": "x"}),
        "shares[1].agreement.owners",
        "unknown field",
    ),
];

#[test]
fn every_rule_reports_its_path_and_message() {
    // The base scenario itself is valid and quiet.
    assert_eq!(warnings_of(&base()), vec![]);
    let mut failures = Vec::new();
    for (rule, change, path, message) in ERROR_ROWS {
        let v = with(*change);
        let errors = match load(&v.to_string()) {
            Ok(_) => {
                failures.push(format!("{rule}: accepted"));
                continue;
            }
            Err(e) => e,
        };
        if !has(&errors, path, message) {
            failures.push(format!(
                "{rule}: expected `{path}: ...{message}...`, got:{}",
                show(&errors)
            ));
        } else if errors.len() != 1 {
            failures.push(format!(
                "{rule}: expected only `{path}`, got:{}",
                show(&errors)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        ERROR_ROWS.len(),
        failures.join("\n")
    );
}

/// A valid row: the rule and a change to the base scenario that keeps it valid.
type ValidRow = (&'static str, fn(&mut Value));

/// The valid side of each boundary: the values just inside the limits are accepted.
const VALID_ROWS: &[ValidRow] = &[
    ("SPEC 2: exactly 20 shares", |v| {
        v["shares"] = shares_named(20);
        v["jobs"] = json!([]);
        v["events"] = json!([]);
        v["capacity"] = json!({T: 20});
    }),
    ("SPEC 2: exactly 5 limits", |v| {
        v["shares"][2]["limits"] = limits_of(5);
        v["capacity"] = json!({});
    }),
    ("SPEC 2: exactly 1 limit, of 0 instances", |v| {
        v["shares"][2]["limits"] = json!({T: 0})
    }),
    ("SPEC 2: a 128-character name", |v| {
        v["shares"][2]["name"] = json!("x".repeat(128))
    }),
    ("SPEC 2: a 128-character name of two-byte chars", |v| {
        v["shares"][2]["name"] = json!("é".repeat(128))
    }),
    (
        "SPEC 2: borrow_limit -1 (unlimited) with LEND_AND_BORROW",
        |v| v["shares"][0]["borrow_limit"] = json!(-1),
    ),
    ("SPEC 2: borrow_limit 0 with LEND_AND_BORROW", |v| {
        v["shares"][0]["borrow_limit"] = json!(0)
    }),
    ("SPEC 2: borrow_limit null means the default", |v| {
        v["shares"][1]["borrow_limit"] = json!(null)
    }),
    ("SPEC 2: borrow_limit as a whole float (100.0)", |v| {
        v["shares"][0]["borrow_limit"] = json!(100.0)
    }),
    ("SPEC 2: priority 9999 and 0", |v| {
        v["jobs"][0]["priority"] = json!(9999);
        v["jobs"][1]["priority"] = json!(0);
    }),
    ("SPEC 2: preemption_retries null and 0", |v| {
        v["jobs"][0]["preemption_retries"] = json!(null);
        v["jobs"][1]["preemption_retries"] = json!(0);
    }),
    ("SPEC 2: submit_s 0 and fractional", |v| {
        v["jobs"][1]["submit_s"] = json!(0.25)
    }),
    ("SPEC 2: a large but allowed time (1e9 s)", |v| {
        v["jobs"][1]["submit_s"] = json!(1e9)
    }),
    ("SPEC 2: state DISABLED", |v| {
        v["shares"][1]["state"] = json!("DISABLED")
    }),
    ("SPEC 2: strict_fifo", |v| {
        v["queue"]["queueing"] = json!("strict_fifo")
    }),
    (
        "SPEC 2/7: update_share borrow_limit after an earlier switch to LEND_AND_BORROW",
        |v| {
            v["events"] = json!([
                {"at_s": 10, "update_share": {"share": "b", "strategy": "LEND_AND_BORROW"}},
                {"at_s": 20, "update_share": {"share": "b", "borrow_limit": 50}}
            ])
        },
    ),
    (
        "SPEC 2/7: update_share borrow_limit after an earlier switch, listed first in the file",
        |v| {
            v["events"] = json!([
                {"at_s": 20, "update_share": {"share": "b", "borrow_limit": 50}},
                {"at_s": 10, "update_share": {"share": "b", "strategy": "LEND_AND_BORROW"}}
            ])
        },
    ),
    (
        "SPEC 2/7: update_share switching to LEND_AND_BORROW and setting borrow_limit at once",
        |v| {
            v["events"] = json!([
                {"at_s": 10, "update_share": {"share": "c", "strategy": "LEND_AND_BORROW",
                                              "borrow_limit": 0}}
            ])
        },
    ),
    (
        "SPEC 2/7: update_share borrow_limit on a LEND_AND_BORROW share",
        |v| v["events"] = json!([{"at_s": 10, "update_share": {"share": "a", "borrow_limit": -1}}]),
    ),
    ("SPEC 7: set_priority of a generated job", |v| {
        v["workloads"] = json!([{"share": "b", "count": 2, "arrival": {"at_s": [0, 10]},
                                 "instance_type": T, "work_s": 60}]);
        v["events"] = json!([{"at_s": 5, "set_priority": {"job": "b-2", "priority": 7}}]);
    }),
    (
        "SPEC 14: recovery probabilities 0 and 1, resubmit, escalate, alarms, agreement",
        |v| {
            v["jobs"][0]["recovery"] = json!({"restore_failure": 0, "invalid_resume": 1});
            v["jobs"][0]["on_retries_exhausted"] =
                json!({"resubmit": {"share": "c", "priority": 9999}});
            v["jobs"][1]["on_retries_exhausted"] = json!("fail");
            v["jobs"][1]["deadline_s"] = json!(600);
            v["jobs"][1]["escalate"] = json!({"before_deadline_s": 0, "to_priority": 9999});
            v["alarms"] = json!({});
            v["shares"][2]["agreement"] = json!({
            "owner": "é".repeat(2000), "rationale": "<b>not HTML</b>",
            "interruption_contract": "", "review_by": "2027-01-01"});
        },
    ),
    ("SPEC 14: a workload with every contract field", |v| {
        v["workloads"] = json!([{"share": "b", "count": 2, "arrival": {"at_s": [0, 10]},
                                 "instance_type": T, "work_s": 60, "deadline_factor": 3,
                                 "recovery": {"restore_failure": 0.5},
                                 "on_retries_exhausted": {"resubmit": {"share": "a"}},
                                 "escalate": {"before_deadline_s": 30, "to_priority": 8}}]);
    }),
    ("SPEC 7: optional top-level fields omitted", |v| {
        let m = v.as_object_mut().unwrap();
        for k in ["name", "seed", "capacity", "queue", "jobs", "events"] {
            m.remove(k);
        }
    }),
];

#[test]
fn values_inside_the_limits_are_accepted() {
    let mut failures = Vec::new();
    for (rule, change) in VALID_ROWS {
        let v = with(*change);
        if let Err(e) = load(&v.to_string()) {
            failures.push(format!("{rule}: refused:{}", show(&e)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// SPEC 2/7: an update_share borrow_limit problem names its own event in the file even when an
// earlier event is invalid (and so left out): the index must not shift to another event.
#[test]
fn event_paths_do_not_shift_after_an_invalid_event() {
    let e = errors_of(&with(|v| {
        v["events"] = json!([
            {"at_s": 5, "set_priority": {"job": "a1", "priority": 1}},
            {"at_s": 10, "update_share": {"share": "b", "state": "PAUSED"}},
            {"at_s": 20, "update_share": {"share": "b", "borrow_limit": 50}}
        ])
    }));
    assert!(
        has(&e, "events[1].update_share.state", "PAUSED"),
        "{}",
        show(&e)
    );
    assert!(
        has(&e, "events[2].update_share.borrow_limit", "LEND_AND_BORROW"),
        "{}",
        show(&e)
    );
    assert_eq!(e.len(), 2, "{}", show(&e));
}

// An invalid share or job is reported once, at its own path: the jobs, workloads and events
// that name it are not also told that it does not exist.
#[test]
fn an_invalid_share_or_job_is_not_also_unknown() {
    let e = errors_of(&with(|v| {
        v["shares"][1]["strategy"] = json!("BORROW");
        v["events"] = json!([{"at_s": 10, "update_share": {"share": "b", "state": "DISABLED"}}]);
        v["workloads"] = json!([{"share": "b", "count": 2, "arrival": {"at_s": [0, 1]},
                                 "instance_type": T, "work_s": 60}]);
    }));
    assert_eq!(e.len(), 1, "{}", show(&e));
    assert!(has(&e, "shares[1].strategy", "BORROW"), "{}", show(&e));

    let e = errors_of(&with(|v| v["jobs"][0]["work_s"] = json!(0)));
    assert_eq!(e.len(), 1, "{}", show(&e));
    assert!(has(&e, "jobs[0].work_s", "> 0"), "{}", show(&e));

    // A share that really is unknown is still reported, also next to an invalid one.
    let e = errors_of(&with(|v| {
        v["shares"][1]["state"] = json!("OFF");
        v["jobs"][0]["share"] = json!("zzz");
    }));
    assert!(has(&e, "shares[1].state", "OFF"), "{}", show(&e));
    assert!(
        has(&e, "jobs[0].share", "unknown share \"zzz\""),
        "{}",
        show(&e)
    );
    assert_eq!(e.len(), 2, "{}", show(&e));
}

// SPEC 7: a JSON syntax error reports its line and column.
#[test]
fn syntax_error_reports_line_and_column() {
    // A trailing comma on line 3: serde_json points at the `]` after it (column 19).
    let text = "{\n  \"format\": \"quotalab/v1\",\n  \"shares\": [1, 2,]\n}\n";
    let e = load(text).unwrap_err();
    assert_eq!(e.len(), 1, "{}", show(&e));
    assert_eq!(e[0].path, "");
    assert!(
        e[0].message.contains("line 3, column 19"),
        "{}",
        e[0].message
    );
    assert!(e[0].message.contains("trailing comma"), "{}", e[0].message);
    // The position is not repeated at the end of the message.
    assert_eq!(
        e[0].message.matches("line 3").count(),
        1,
        "{}",
        e[0].message
    );

    // Unterminated documents, bare NaN (not JSON), numbers out of range and empty input.
    for (text, line) in [
        ("{\n\"format\": \"quotalab/v1\"", 2),
        ("{\"submit_s\": NaN}", 1),
        ("\n\n{\"seed\": 1e400}", 3),
        ("", 1),
        ("   \n", 2),
        ("{} {}", 1),
    ] {
        let e = load(text).unwrap_err();
        assert_eq!(e.len(), 1, "{text:?}: {}", show(&e));
        assert_eq!(e[0].path, "", "{text:?}");
        assert!(
            e[0].message
                .starts_with(&format!("JSON syntax error at line {line}, column ")),
            "{text:?}: {}",
            e[0].message
        );
    }
}

// SPEC 7: the document must be a JSON object.
#[test]
fn wrong_top_level_type() {
    for (text, kind) in [
        ("[]", "an array"),
        ("\"quotalab/v1\"", "a string"),
        ("42", "a number"),
        ("null", "null"),
        ("true", "a boolean"),
    ] {
        let e = load(text).unwrap_err();
        assert_eq!(e.len(), 1, "{text}: {}", show(&e));
        assert_eq!(e[0].path, "", "{text}");
        assert!(
            e[0].message.contains("must be an object") && e[0].message.contains(kind),
            "{text}: {}",
            e[0].message
        );
    }
}

// SPEC 7: "Validation reports every problem at once, each naming its JSON path."
#[test]
fn all_problems_at_once() {
    let v = with(|v| {
        v["shares"][1]["borrow_limit"] = json!(50); // LEND with borrow_limit
        v["shares"][2]["limits"] = json!({}); // 0 limits
        v["jobs"][0]["priority"] = json!(10000); // priority out of range
        v["jobs"][1]["work_s"] = json!(0); // work_s not > 0
        v["events"][0]["set_priority"]["job"] = json!("ghost"); // unknown job
    });
    let e = errors_of(&v);
    let expected = [
        ("shares[1].borrow_limit", "LEND_AND_BORROW"),
        ("shares[2].limits", "1 to 5"),
        ("jobs[0].priority", "<= 9999"),
        ("jobs[1].work_s", "> 0"),
        ("events[0].set_priority.job", "ghost"),
    ];
    assert_eq!(e.len(), 5, "{}", show(&e));
    for (path, message) in expected {
        assert!(has(&e, path, message), "missing {path}:{}", show(&e));
    }
    // Each problem also renders as `path: message` (what the CLI prints).
    assert!(e
        .iter()
        .any(|p| p.to_string().starts_with("jobs[0].priority: ")));
}

// SPEC 2: overcommit (sum of limits > capacity) is a warning, not an error.
// SPEC 2: work_s > 0, so a negative work is told "> 0", never ">= 0" (0 is refused too).
#[test]
fn work_that_must_be_positive_never_says_at_least_zero() {
    for bad in [json!(-5), json!(0), json!(0.0001)] {
        let e = errors_of(&with(|v| v["jobs"][0]["work_s"] = bad.clone()));
        assert_eq!(e.len(), 1, "{bad}: {}", show(&e));
        assert!(!e[0].message.contains(">= 0"), "{bad}: {}", e[0]);
    }
    let e = errors_of(&with(|v| {
        v["jobs"][1]["checkpoint"]["interval_s"] = json!(-1)
    }));
    assert!(
        has(&e, "jobs[1].checkpoint.interval_s", "must be > 0 (got -1)"),
        "{}",
        show(&e)
    );
}

// One JSON checker: a job's field and a workload's field with the same problem get the same
// words (validation and workload parsing read fields through the same readers).
#[test]
fn jobs_and_workloads_word_the_same_problem_alike() {
    let workload = |key: &str, value: Value| {
        with(|v| {
            let mut w = json!({"share": "a", "count": 1, "arrival": {"at_s": [0]},
                "instance_type": T, "work_s": 60});
            w[key] = value;
            w["count"] = json!(1);
            v["workloads"] = json!([w]);
        })
    };
    let job = |key: &str, value: Value| with(|v| v["jobs"][0][key] = value);
    let cases: &[(&str, Value)] = &[
        ("startup_s", json!(-1)),
        ("work_s", json!(0)),
        ("work_s", json!(-5)),
        ("priority", json!(10000)),
        ("share", json!(3)),
        ("checkpoint_on_preempt", json!(1)),
        ("preemption_retries", json!(-1)),
        ("preemption_retries", json!("x")),
    ];
    for (key, value) in cases {
        let j = errors_of(&job(key, value.clone()));
        let w = errors_of(&workload(key, value.clone()));
        let jm: Vec<&str> = j.iter().map(|p| p.message.as_str()).collect();
        let wm: Vec<&str> = w.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(jm, wm, "{key} = {value}:{}{}", show(&j), show(&w));
    }
    // Checkpoint times, too.
    let j = errors_of(&with(|v| v["jobs"][1]["checkpoint"]["cost_s"] = json!(-1)));
    let w = errors_of(&workload(
        "checkpoint",
        json!({"interval_s": 100, "cost_s": -1}),
    ));
    assert_eq!(j[0].message, w[0].message, "{}{}", show(&j), show(&w));
}

// Problems carry what was expected, machine-readably, for the page's own words.
#[test]
fn problems_say_what_was_expected() {
    use quotalab_engine::{Bound, Kind};
    let e = errors_of(&with(|v| v["jobs"][0]["work_s"] = json!(0)));
    assert_eq!(
        e[0].kind,
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
    let e = errors_of(&with(|v| v["jobs"][0]["priority"] = json!("high")));
    assert_eq!(e[0].message, "must be a whole number, not a string");
    assert!(matches!(e[0].kind, Kind::Number { whole: true, .. }));
    let e = errors_of(&with(|v| v["shares"][1]["borrow_limit"] = json!(-5)));
    assert!(
        e.iter().any(|p| p.path == "shares[1].borrow_limit"
            && matches!(
                p.kind,
                Kind::Number {
                    min: Some(Bound { value: -1, .. }),
                    ..
                }
            )),
        "{}",
        show(&e)
    );
    let e = errors_of(&with(|v| v["jobs"][1]["share"] = json!("nope")));
    assert_eq!(
        e[0].kind,
        Kind::Unknown(vec!["a".into(), "b".into(), "c".into()])
    );
    let e = errors_of(&with(|v| v["shares"][1]["name"] = json!("a")));
    assert!(e.iter().any(|p| p.kind == Kind::Duplicate), "{}", show(&e));
    let e = errors_of(&with(|v| v["shares"][1]["strategy"] = json!("SHARE")));
    assert_eq!(
        e[0].kind,
        Kind::OneOf(vec![
            "RESERVE".into(),
            "LEND".into(),
            "LEND_AND_BORROW".into()
        ])
    );
}

// SPEC 6 stops the run at horizon_s and is silent on 0: a warning, since nothing runs.
#[test]
fn a_zero_horizon_is_a_warning() {
    let w = warnings_of(&with(|v| v["horizon_s"] = json!(0)));
    assert!(
        w.iter()
            .any(|p| p.path == "horizon_s" && p.message.contains("nothing is simulated")),
        "{}",
        show(&w)
    );
    let w = warnings_of(&with(|v| v["horizon_s"] = json!(60)));
    assert!(w.iter().all(|p| p.path != "horizon_s"), "{}", show(&w));
}

#[test]
fn overcommit_is_a_warning() {
    let w = warnings_of(&with(|v| v["capacity"][T] = json!(2)));
    assert!(
        has(&w, "capacity.ml.g5.xlarge", "overcommitted"),
        "{}",
        show(&w)
    );
    let loaded = load(&with(|v| v["capacity"][T] = json!(0)).to_string()).unwrap();
    assert_eq!(loaded.scenario.capacity, vec![0]);
    assert!(loaded
        .warnings
        .iter()
        .any(|p| p.message.contains("overcommitted")));
}

// SPEC 7: unknown fields are warnings (typos), not errors, at every level.
#[test]
fn unknown_fields_are_warnings() {
    let v = with(|v| {
        v["colour"] = json!("blue");
        v["queue"]["grace"] = json!(5);
        v["shares"][0]["borow_limit"] = json!(5);
        v["jobs"][1]["note"] = json!("x");
        v["jobs"][1]["checkpoint"]["every"] = json!(1);
        v["events"][0]["comment"] = json!("x");
        v["events"][0]["set_priority"]["why"] = json!("x");
    });
    let w = warnings_of(&v);
    for path in [
        "colour",
        "queue.grace",
        "shares[0].borow_limit",
        "jobs[1].note",
        "jobs[1].checkpoint.every",
        "events[0].comment",
        "events[0].set_priority.why",
    ] {
        assert!(
            has(&w, path, "unknown field"),
            "missing {path}:{}",
            show(&w)
        );
    }
    assert_eq!(w.len(), 7, "{}", show(&w));
}

// SPEC 7: a missing "format" is tolerated with a warning.
#[test]
fn missing_format_is_a_warning() {
    let w = warnings_of(&with(|v| {
        v.as_object_mut().unwrap().remove("format");
    }));
    assert!(has(&w, "format", "quotalab/v1"), "{}", show(&w));
}

// SPEC 7: an `instance_types` entry overrides the catalogue entry of the same name; other
// catalogue types are still available without declaring them.
#[test]
fn instance_types_override_the_catalogue() {
    let v = with(|v| {
        v["instance_types"] = json!([{"name": T, "gpus": 2, "usd_per_hour": 9.5},
                                     {"name": "my.custom", "gpus": 3}]);
        v["shares"][2]["limits"] = json!({"ml.p4d.24xlarge": 1, "my.custom": 2});
    });
    let s = load(&v.to_string()).unwrap().scenario;
    let find = |n: &str| s.instance_types.iter().position(|t| t.name == n).unwrap();
    let g5 = &s.instance_types[find(T)];
    assert_eq!((g5.gpus, g5.usd_per_hour), (2, 9.5));
    let custom = &s.instance_types[find("my.custom")];
    assert_eq!((custom.gpus, custom.usd_per_hour), (3, 0.0));
    let p4d = &s.instance_types[find("ml.p4d.24xlarge")];
    assert_eq!(p4d.gpus, 8, "the catalogue's p4d has 8 GPUs");
    // A declared type's price may be omitted for a catalogue name: the catalogue's is kept.
    let v = with(|v| v["instance_types"] = json!([{"name": T, "gpus": 4}]));
    let s = load(&v.to_string()).unwrap().scenario;
    assert_eq!(s.instance_types[0].gpus, 4);
    assert!(s.instance_types[0].usd_per_hour > 0.0);
    // Declaring the same name twice is an error.
    let e = errors_of(&with(|v| {
        v["instance_types"] = json!([{"name": "x", "gpus": 1}, {"name": "x", "gpus": 2}])
    }));
    assert!(
        has(&e, "instance_types[1].name", "duplicate"),
        "{}",
        show(&e)
    );
    // A non-catalogue name needs gpus.
    let e = errors_of(&with(|v| {
        v["instance_types"] = json!([{"name": "x", "usd_per_hour": 1}])
    }));
    assert!(
        has(&e, "instance_types[0].gpus", "required"),
        "{}",
        show(&e)
    );
}

// SPEC 2: capacity defaults to the sum of the shares' limits per type; a given capacity for
// one type leaves the others at their default.
#[test]
fn capacity_defaults_to_the_sum_of_limits() {
    let v = with(|v| {
        v.as_object_mut().unwrap().remove("capacity");
        v["shares"][0]["limits"] = json!({T: 2, "ml.p4d.24xlarge": 1});
        v["shares"][1]["limits"] = json!({T: 3});
        v["shares"][2]["limits"] = json!({T: 4, "ml.p4d.24xlarge": 5});
    });
    let s = load(&v.to_string()).unwrap().scenario;
    let cap = |n: &str| s.capacity[s.instance_types.iter().position(|t| t.name == n).unwrap()];
    assert_eq!(cap(T), 9);
    assert_eq!(cap("ml.p4d.24xlarge"), 6);

    let v = with(|v| {
        v["capacity"] = json!({"ml.p4d.24xlarge": 10});
        v["shares"][2]["limits"] = json!({T: 4, "ml.p4d.24xlarge": 5});
    });
    let s = load(&v.to_string()).unwrap().scenario;
    let cap = |n: &str| s.capacity[s.instance_types.iter().position(|t| t.name == n).unwrap()];
    assert_eq!(cap(T), 6);
    assert_eq!(cap("ml.p4d.24xlarge"), 10);
}

// SPEC 2/7: the defaults of optional fields.
#[test]
fn defaults() {
    let s = load(&base().to_string()).unwrap().scenario;
    let b = &s.shares[1];
    assert_eq!(b.strategy, ShareStrategy::Lend);
    assert_eq!(b.borrow_limit, BorrowLimit::Unlimited);
    assert!(b.enabled);
    assert!(!b.in_share_preemption);
    assert_eq!(s.shares[0].borrow_limit, BorrowLimit::Percent(100));
    let j = &s.jobs[1];
    assert_eq!((j.instances(), j.priority, j.startup), (1, 0, 0));
    assert_eq!(j.preemption_retries(), None);
    assert!(!j.checkpoint_on_preempt());
    let v = with(|v| {
        v.as_object_mut().unwrap().remove("queue");
    });
    let s = load(&v.to_string()).unwrap().scenario;
    assert_eq!(s.grace, 120_000, "preemption_grace_s defaults to 120");
    assert_eq!(s.queueing.as_str(), "best_effort_fifo");
}

// ---------------------------------------------------------------------------------------
// Property tests: `load` never panics.

fn aws_walkthrough() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/aws-walkthrough.json"
    ))
    .expect("the AWS walkthrough golden scenario")
}

/// Field names and values that steer random documents deep into the validator.
const KEYS: &[&str] = &[
    "format",
    "name",
    "seed",
    "horizon_s",
    "instance_types",
    "capacity",
    "queue",
    "queueing",
    "preemption_grace_s",
    "shares",
    "limits",
    "strategy",
    "borrow_limit",
    "in_share_preemption",
    "state",
    "jobs",
    "id",
    "share",
    "instance_type",
    "instances",
    "priority",
    "submit_s",
    "work_s",
    "startup_s",
    "checkpoint",
    "interval_s",
    "cost_s",
    "restore_s",
    "checkpoint_on_preempt",
    "preemption_retries",
    "deadline_s",
    "workloads",
    "count",
    "arrival",
    "poisson_per_hour",
    "uniform",
    "at_s",
    "fixed",
    "exponential",
    "mean",
    "lognormal",
    "median",
    "sigma",
    "choice",
    "events",
    "set_priority",
    "update_share",
    "job",
    "gpus",
    "usd_per_hour",
    "ml.g5.xlarge",
];

const STRINGS: &[&str] = &[
    "quotalab/v1",
    "ml.g5.xlarge",
    "ml.p4d.24xlarge",
    "RESERVE",
    "LEND",
    "LEND_AND_BORROW",
    "ENABLED",
    "DISABLED",
    "best_effort_fifo",
    "strict_fifo",
    "background",
    "medium",
    "protected",
    "bg-p1",
    "medium-1",
    "",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..30).prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |x| x.is_finite())
            .prop_map(|x| json!(x)),
        prop::sample::select(vec![
            0.5, -0.5, 1e12, 1e13, 9.0e15, 1.8e19, -1e300, 1e300, 5e-324, 0.0004
        ])
        .prop_map(|x| json!(x)),
        prop::sample::select(STRINGS).prop_map(|s| json!(s)),
        ".{0,12}".prop_map(Value::String),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(KEYS).prop_map(str::to_string),
        1 => "[a-z_.]{0,8}",
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..10)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// JSON pointers of every leaf (and empty container) of a document.
fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) if !a.is_empty() => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, format!("{at}/{i}"), out);
            }
        }
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                let k = k.replace('~', "~0").replace('/', "~1");
                leaves(x, format!("{at}/{k}"), out);
            }
        }
        _ => out.push(at),
    }
}

fn mutate(doc: &Value, pick: prop::sample::Index, replacement: Value) -> Value {
    let mut doc = doc.clone();
    let mut all = Vec::new();
    leaves(&doc, String::new(), &mut all);
    let at = &all[pick.index(all.len())];
    *doc.pointer_mut(at).expect("a leaf pointer") = replacement;
    doc
}

fn check_no_panic(text: &str) {
    // Any outcome is fine; a panic fails the property. Problems always have a message.
    match load(text) {
        Ok(_) => {}
        Err(problems) => {
            assert!(!problems.is_empty());
            assert!(problems.iter().all(|p| !p.message.is_empty()));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn load_never_panics_on_arbitrary_strings(text in any::<String>()) {
        check_no_panic(&text);
    }

    #[test]
    fn load_never_panics_on_json_like_text(text in "[{}\\[\\]\",:0-9a-z_. \n-]{0,64}") {
        check_no_panic(&text);
    }

    #[test]
    fn load_never_panics_on_random_json(v in json_value()) {
        check_no_panic(&v.to_string());
    }

    #[test]
    fn load_never_panics_on_random_scenario_shapes(
        shares in prop::collection::vec(json_value(), 0..4),
        jobs in prop::collection::vec(json_value(), 0..4),
        events in prop::collection::vec(json_value(), 0..3),
        workloads in prop::collection::vec(json_value(), 0..2),
        capacity in json_value(),
    ) {
        let v = json!({"format": "quotalab/v1", "shares": shares, "jobs": jobs,
                       "events": events, "workloads": workloads, "capacity": capacity});
        check_no_panic(&v.to_string());
    }

    #[test]
    fn load_never_panics_on_mutated_walkthrough(
        pick in any::<prop::sample::Index>(),
        replacement in prop_oneof![4 => leaf(), 1 => json_value()],
    ) {
        let doc: Value = serde_json::from_str(&aws_walkthrough()).unwrap();
        let text = mutate(&doc, pick, replacement).to_string();
        check_no_panic(&text);
    }

    /// Every mutant that validates also simulates without a panic, and deterministically.
    #[test]
    fn valid_mutants_of_the_walkthrough_simulate(
        pick in any::<prop::sample::Index>(),
        replacement in leaf(),
    ) {
        let doc: Value = serde_json::from_str(&aws_walkthrough()).unwrap();
        let text = mutate(&doc, pick, replacement).to_string();
        if let Ok(first) = quotalab_engine::run_json(&text) {
            prop_assert_eq!(first, quotalab_engine::run_json(&text).unwrap());
        }
    }
}

#[test]
fn the_walkthrough_is_valid() {
    let loaded = load(&aws_walkthrough()).unwrap();
    assert_eq!(loaded.scenario.shares.len(), 3);
    assert_eq!(loaded.warnings, vec![]);
}

// SPEC 14: contract fields are stored as given; a resubmission gets the engine's
// continuation (same id, the new share) after every job, which is not a job of the file.
#[test]
fn contract_fields_are_kept_as_given() {
    let v = with(|v| {
        v["jobs"][0]["on_retries_exhausted"] = json!({"resubmit": {"share": "c", "priority": 7}});
        v["jobs"][0]["preemption_retries"] = json!(1);
        v["alarms"] = json!({});
        v["shares"][2]["agreement"] = json!({"owner": "<script>x</script>", "review_by": "Q3"});
    });
    let sc = load(&v.to_string()).expect("valid").scenario;
    assert!(sc.contract);
    assert_eq!(sc.alarms.map(|a| a.repeated_preemptions), Some(3));
    let a = sc.agreements[2].clone().expect("agreement");
    assert_eq!(a.owner.as_deref(), Some("<script>x</script>"));
    assert_eq!(a.review_by.as_deref(), Some("Q3"));
    assert_eq!(a.rationale, None);
    assert_eq!(sc.agreements[0], None);
    assert_eq!(sc.jobs.len(), 3);
    assert_eq!(sc.described_jobs(), 2);
    let c = &sc.jobs[2];
    assert_eq!(
        (sc.id_of(c), c.share(), c.priority, c.resubmission_of.get()),
        ("a1", 2, 7, Some(0))
    );
    // Without any contract field the scenario reports as before.
    assert!(!load(&base().to_string()).unwrap().scenario.contract);
}

// SPEC 14: what can never apply is a warning, not an error.
#[test]
fn contract_fields_that_never_apply_are_warnings() {
    let w = warnings_of(&with(|v| {
        v["jobs"][0]["on_retries_exhausted"] = json!({"resubmit": {"share": "c"}});
        v["jobs"][1]["deadline_s"] = json!(100);
        v["jobs"][1]["escalate"] = json!({"before_deadline_s": 200, "to_priority": 9});
    }));
    assert!(
        has(
            &w,
            "jobs[0].on_retries_exhausted",
            "preemption_retries is unlimited"
        ),
        "{}",
        show(&w)
    );
    assert!(
        has(
            &w,
            "jobs[1].escalate.before_deadline_s",
            "as soon as it is submitted"
        ),
        "{}",
        show(&w)
    );
    assert_eq!(w.len(), 2, "{}", show(&w));
}
