//! Validation table tests (SPEC 2 "Entities and limits", SPEC 7 "Scenario file"): one row per
//! rule, each naming the rule, the exact JSON path of the problem and a key part of its
//! message. Then the document-level rules (syntax errors with line and column, every problem
//! at once, warnings that are not errors, defaults), and property tests that `load` never
//! panics, whatever the text.
//!
//! One file per section (scenario, shares, jobs, events, contract, props); this one holds the
//! shared helpers and runs the rows of every section.

use proptest::prelude::*;
use quotalab_engine::model::{BorrowLimit, Strategy as ShareStrategy};
use quotalab_engine::{load, Problem};
use serde_json::{json, Map, Value};

mod contract;
mod events;
mod jobs;
mod props;
mod scenario;
mod shares;

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

/// The error rows of every section.
const ERROR_ROWS: &[&[Row]] = &[
    scenario::ERROR_ROWS,
    shares::ERROR_ROWS,
    jobs::ERROR_ROWS,
    events::ERROR_ROWS,
    contract::ERROR_ROWS,
];

#[test]
fn every_rule_reports_its_path_and_message() {
    // The base scenario itself is valid and quiet.
    assert_eq!(warnings_of(&base()), vec![]);
    let mut failures = Vec::new();
    for (rule, change, path, message) in ERROR_ROWS.iter().copied().flatten() {
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
        ERROR_ROWS.iter().map(|rows| rows.len()).sum::<usize>(),
        failures.join("\n")
    );
}

/// A valid row: the rule and a change to the base scenario that keeps it valid.
type ValidRow = (&'static str, fn(&mut Value));

/// The valid side of each boundary: the values just inside the limits are accepted.
const VALID_ROWS: &[&[ValidRow]] = &[
    scenario::VALID_ROWS,
    shares::VALID_ROWS,
    jobs::VALID_ROWS,
    events::VALID_ROWS,
    contract::VALID_ROWS,
];

#[test]
fn values_inside_the_limits_are_accepted() {
    let mut failures = Vec::new();
    for (rule, change) in VALID_ROWS.iter().copied().flatten() {
        let v = with(*change);
        if let Err(e) = load(&v.to_string()) {
            failures.push(format!("{rule}: refused:{}", show(&e)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
