//! A trace's scenario (SPEC 11): its shape, the jobs' order and ids, the defaults, determinism.

use super::*;

#[test]
fn a_small_trace_gives_the_whole_scenario() {
    let csv = "submit,duration,gpus,team\n\
               100,60,1,a\n\
               40,30.5,16,b\n\
               100,10,2,a\n";
    let o = ImportOptions {
        name: "tiny".into(),
        gpus: Some("gpus".into()),
        share: Some("team".into()),
        instance_type: "ml.p4d.24xlarge".into(),
        gpus_per_instance: 8,
        capacity: Some(4),
        ..opts()
    };
    let (v, report) = run(csv, &o);
    let want = serde_json::json!({
        "format": "quotalab/v1",
        "name": "tiny",
        "seed": 1,
        "capacity": {"ml.p4d.24xlarge": 4},
        "queue": {"queueing": "best_effort_fifo", "preemption_grace_s": 120},
        "shares": [
            {"name": "a", "limits": {"ml.p4d.24xlarge": 2}, "strategy": "LEND_AND_BORROW",
             "borrow_limit": -1, "in_share_preemption": false},
            {"name": "b", "limits": {"ml.p4d.24xlarge": 2}, "strategy": "LEND_AND_BORROW",
             "borrow_limit": -1, "in_share_preemption": false}
        ],
        "jobs": [
            {"id": "b-1", "share": "b", "instance_type": "ml.p4d.24xlarge", "instances": 2,
             "priority": 0, "submit_s": 0, "work_s": 30.5},
            {"id": "a-1", "share": "a", "instance_type": "ml.p4d.24xlarge", "instances": 1,
             "priority": 0, "submit_s": 60, "work_s": 60},
            {"id": "a-2", "share": "a", "instance_type": "ml.p4d.24xlarge", "instances": 1,
             "priority": 0, "submit_s": 60, "work_s": 10}
        ]
    });
    assert_eq!(v, want);
    // Key order is part of the output (serde_json's preserve_order).
    assert_eq!(
        serde_json::to_string(&v).unwrap(),
        serde_json::to_string(&want).unwrap()
    );
    assert_eq!(
        report,
        ImportReport {
            rows: 3,
            imported: 3,
            skipped: 0,
            first_problems: vec![],
            reasons: vec![],
            warnings: vec![],
        }
    );
}

#[test]
fn jobs_are_sorted_by_submit_stably_and_numbered_per_share() {
    let csv = "submit,duration,share\n\
               5,1,x\n3,1,y\n5,1,y\n3,1,x\n0.5,1,x\n5,1,x\n";
    let o = ImportOptions {
        share: Some("share".into()),
        ..opts()
    };
    let (v, _) = run(csv, &o);
    assert_eq!(ids(&v), ["x-1", "y-1", "x-2", "x-3", "y-2", "x-4"]);
    let submits: Vec<f64> = jobs(&v)
        .iter()
        .map(|j| j["submit_s"].as_f64().unwrap())
        .collect();
    assert_eq!(submits, [0.0, 2.5, 2.5, 4.5, 4.5, 4.5]);
    // Whole seconds are JSON integers, others floats.
    assert!(jobs(&v)[0]["submit_s"].is_u64());
    assert!(jobs(&v)[1]["submit_s"].is_f64());
    // x has 4 jobs, y 2: x first.
    assert_eq!(share_names(&v), ["x", "y"]);
}

#[test]
fn without_share_or_gpus_columns_there_is_one_default_share_of_1_instance_jobs() {
    let (v, _) = run("submit,duration\n0,10\n5,20\n", &opts());
    assert_eq!(share_names(&v), ["default"]);
    assert!(jobs(&v).iter().all(|j| j["instances"] == 1));
    assert_eq!(ids(&v), ["default-1", "default-2"]);
    assert_eq!(v["capacity"]["ml.g5.xlarge"], 2); // ceil(30 / 25)
}

#[test]
fn import_is_deterministic() {
    let o = ImportOptions {
        share: Some("team".into()),
        gpus: Some("gpus".into()),
        ..opts()
    };
    let a = serde_json::to_string(&run(&three_shares(), &o).0).unwrap();
    let b = serde_json::to_string(&run(&three_shares(), &o).0).unwrap();
    assert_eq!(a, b);
}
