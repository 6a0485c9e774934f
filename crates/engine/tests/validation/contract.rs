//! The interruption contract (SPEC 14): recovery, resubmission, escalation, alarms, agreement.

use super::*;

/// The contract's error rows (see [`Row`]).
pub(super) const ERROR_ROWS: &[Row] = &[
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

/// The contract's valid rows (see [`ValidRow`]).
pub(super) const VALID_ROWS: &[ValidRow] = &[
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
];

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
