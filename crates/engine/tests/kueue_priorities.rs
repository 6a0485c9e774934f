//! SPEC 12/13: in the Kueue model priorities are any 32-bit integer (negative ones ordered as
//! numbers, in the result as written) and a scenario may hold up to 1,000 shares; the AWS
//! model keeps SPEC 2's 20 shares and 0..=9999. (The golden scenarios
//! `kueue-negative-*` pin the event logs.)

use serde_json::{json, Value};

const T: &str = "ml.g5.xlarge";

fn run(v: &Value) -> Value {
    let out = quotalab_engine::run_json(&v.to_string()).expect("valid scenario");
    serde_json::from_str(&out).expect("result is JSON")
}

fn job<'a>(r: &'a Value, id: &str) -> &'a Value {
    r["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == id)
        .unwrap_or_else(|| panic!("no job {id}"))
}

fn preempts(r: &Value) -> Vec<(String, String, String)> {
    r["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "preempt")
        .map(|e| {
            (
                e["job"].as_str().unwrap().to_string(),
                e["by"].as_str().unwrap().to_string(),
                e["cause"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// One ClusterQueue of limit 1 with `within_share` `lower_priority`: `low` runs from 0 and
/// `high` arrives at 10.
fn within_share(low: i64, high: i64) -> Value {
    json!({"format": "quotalab/v1", "model": "kueue", "horizon_s": 100,
        "queue": {"preemption_grace_s": 0},
        "shares": [{"name": "q", "limits": {T: 1},
                    "preemption": {"within_share": "lower_priority"}}],
        "jobs": [
            {"id": "low", "share": "q", "instance_type": T, "priority": low,
             "submit_s": 0, "work_s": 50},
            {"id": "high", "share": "q", "instance_type": T, "priority": high,
             "submit_s": 10, "work_s": 50}]})
}

// SPEC 12: a job of priority -5 is preempted by one of priority 0 (0 > -5 as numbers; as an
// unsigned number -5 would be the larger), and the result prints the priorities as given.
#[test]
fn negative_priority_is_preempted_by_zero_within_share() {
    let r = run(&within_share(-5, 0));
    assert_eq!(
        preempts(&r),
        [("low".into(), "high".into(), "in_share".into())]
    );
    assert_eq!(job(&r, "low")["priority"], -5);
    assert_eq!(job(&r, "high")["priority"], 0);
    assert_eq!(job(&r, "high")["first_start_s"], 10);
    // The other way round nothing is preempted: -5 < 0.
    let r = run(&within_share(0, -5));
    assert_eq!(preempts(&r), []);
    assert_eq!(job(&r, "high")["first_start_s"], 50);
    // The extremes of the 32-bit range order too.
    let r = run(&within_share(i32::MIN as i64, i32::MAX as i64));
    assert_eq!(preempts(&r).len(), 1);
    assert_eq!(job(&r, "low")["priority"], i32::MIN);
}

// SPEC 4/12: the RUNNABLE order is priority high first, negatives included, and a
// set_priority to a negative value moves a job behind the others.
#[test]
fn negative_priorities_order_the_queue() {
    let mut v = within_share(0, 0);
    v["horizon_s"] = json!(1000);
    v["jobs"] = json!([
        {"id": "first", "share": "q", "instance_type": T, "submit_s": 0, "work_s": 10},
        {"id": "m7", "share": "q", "instance_type": T, "priority": -7, "submit_s": 1, "work_s": 10},
        {"id": "m2", "share": "q", "instance_type": T, "priority": -2, "submit_s": 2, "work_s": 10},
        {"id": "m9", "share": "q", "instance_type": T, "priority": -9, "submit_s": 3, "work_s": 10},
        {"id": "p1", "share": "q", "instance_type": T, "priority": 1, "submit_s": 4, "work_s": 10}]);
    v["shares"][0]["preemption"] = json!({});
    v["events"] = json!([{"at_s": 5, "set_priority": {"job": "p1", "priority": -8}}]);
    let r = run(&v);
    let start = |id: &str| job(&r, id)["first_start_s"].as_f64().unwrap();
    // first ends at 10; then -2, -7, -8 (p1 lowered), -9.
    assert_eq!(
        [start("m2"), start("m7"), start("p1"), start("m9")],
        [10.0, 20.0, 30.0, 40.0]
    );
    let sp = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "set_priority")
        .unwrap();
    assert_eq!(sp["priority"], -8);
}

/// `n` ClusterQueues `q0..` of limit 1 in cohort `org`, reclaiming with `any`.
fn many_shares(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({"name": format!("q{i}"), "limits": {T: 1}, "cohort": "org",
                   "preemption": {"reclaim": "any"}})
        })
        .collect()
}

// SPEC 13: a Kueue scenario of 25 shares (more than SPEC 2's 20) runs: q24 borrows the idle
// quota of q20..q23, and q20 reclaims it at 10.
#[test]
fn kueue_scenario_with_25_shares_runs() {
    let mut jobs: Vec<Value> = (0..20)
        .map(|i| {
            json!({"id": format!("j{i}"), "share": format!("q{i}"), "instance_type": T,
                   "submit_s": 0, "work_s": 100})
        })
        .collect();
    jobs.push(
        json!({"id": "big", "share": "q24", "instance_type": T, "instances": 5,
                     "submit_s": 0, "work_s": 100}),
    );
    jobs.push(json!({"id": "back", "share": "q20", "instance_type": T,
                     "submit_s": 10, "work_s": 100}));
    let v = json!({"format": "quotalab/v1", "model": "kueue", "name": "25 ClusterQueues",
        "queue": {"preemption_grace_s": 0}, "shares": many_shares(25), "jobs": jobs});
    let r = run(&v);
    assert_eq!(r["shares"].as_object().unwrap().len(), 25);
    assert_eq!(
        preempts(&r),
        [("big".into(), "back".into(), "reclaim".into())]
    );
    assert_eq!(job(&r, "big")["first_start_s"], 0);
    assert_eq!(r["shares"]["q24"]["preemptions"]["reclaim"], 1);
    for j in r["jobs"].as_array().unwrap() {
        assert_eq!(j["state"], "SUCCEEDED", "{j}");
    }
    // The same shares are refused in the AWS model (SPEC 2: at most 20).
    let mut aws = v.clone();
    aws.as_object_mut().unwrap().remove("model");
    aws["shares"] = (0..25)
        .map(|i| json!({"name": format!("q{i}"), "limits": {T: 1}, "strategy": "LEND"}))
        .collect();
    aws["jobs"] = json!([]);
    let errs = quotalab_engine::load(&aws.to_string()).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].path, "shares");
    assert!(
        errs[0].message.contains("at most 20"),
        "{}",
        errs[0].message
    );
}

// SPEC 13: 1,000 shares (the Kueue model's bound) run, each job on its own share's quota.
#[test]
fn kueue_scenario_with_1000_shares_runs() {
    let jobs: Vec<Value> = (0..1000)
        .map(|i| {
            json!({"id": format!("j{i}"), "share": format!("q{i}"), "instance_type": T,
                   "priority": -(i as i64), "submit_s": i % 7, "work_s": 60})
        })
        .collect();
    let v = json!({"format": "quotalab/v1", "model": "kueue", "shares": many_shares(1000),
        "queue": {"preemption_grace_s": 0}, "jobs": jobs});
    let r = run(&v);
    assert_eq!(r["shares"].as_object().unwrap().len(), 1000);
    assert!(r["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .all(|j| j["state"] == "SUCCEEDED"));
    assert_eq!(job(&r, "j999")["priority"], -999);
}

// SPEC 12: max_priority_threshold -1 while borrowing: a borrower's job of priority -1 (at the
// threshold) is preempted, one of priority 0 (above it) is not.
#[test]
fn max_priority_threshold_minus_one() {
    let scenario = |victim: i64| {
        json!({"format": "quotalab/v1", "model": "kueue", "horizon_s": 50,
            "queue": {"preemption_grace_s": 0},
            "shares": [
                {"name": "a", "limits": {T: 1}, "cohort": "org",
                 "preemption": {"reclaim": "lower_priority",
                    "borrow_within_cohort": {"policy": "lower_priority",
                                             "max_priority_threshold": -1}}},
                {"name": "b", "limits": {T: 1}, "cohort": "org"},
                {"name": "c", "limits": {T: 1}, "cohort": "org"}],
            "jobs": [
                // b borrows c's idle quota (2 of 3), a's own instance stays free for a1.
                {"id": "b2", "share": "b", "instance_type": T, "instances": 2,
                 "priority": victim, "submit_s": 0, "work_s": 100},
                {"id": "a1", "share": "a", "instance_type": T, "priority": 5,
                 "submit_s": 1, "work_s": 100},
                // a borrows for a2: only b's job may make room, and only at or below -1.
                {"id": "a2", "share": "a", "instance_type": T, "priority": 5,
                 "submit_s": 2, "work_s": 100}]})
    };
    let r = run(&scenario(-1));
    assert_eq!(
        preempts(&r),
        [("b2".into(), "a2".into(), "reclaim_while_borrowing".into())]
    );
    let r = run(&scenario(0));
    assert_eq!(preempts(&r), []);
    assert_eq!(job(&r, "a2")["state"], "RUNNABLE");
}
