//! The document and its top level (SPEC 7; SPEC 2 queue, instance types, capacity): syntax,
//! every problem at once, format, horizon, unknown fields, warnings, defaults.

use super::*;

/// The top level's error rows (see [`Row`]).
pub(super) const ERROR_ROWS: &[Row] = &[
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
];

/// The top level's valid rows (see [`ValidRow`]).
pub(super) const VALID_ROWS: &[ValidRow] = &[
    ("SPEC 2: strict_fifo", |v| {
        v["queue"]["queueing"] = json!("strict_fifo")
    }),
    ("SPEC 7: optional top-level fields omitted", |v| {
        let m = v.as_object_mut().unwrap();
        for k in ["name", "seed", "capacity", "queue", "jobs", "events"] {
            m.remove(k);
        }
    }),
];

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
            .any(|p| p.path == "horizon_s" && p.message.contains("no job runs")),
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
