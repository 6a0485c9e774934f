//! Jobs and workloads (SPEC 2, SPEC 7): ids, times, instances, priorities, checkpoints.

use super::*;

/// The jobs' and workloads' error rows (see [`Row`]).
pub(super) const ERROR_ROWS: &[Row] = &[
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
];

/// The jobs' and workloads' valid rows (see [`ValidRow`]).
pub(super) const VALID_ROWS: &[ValidRow] = &[
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
];

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
