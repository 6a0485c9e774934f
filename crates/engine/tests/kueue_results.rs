//! SPEC 12 results of the Kueue model, with values derived by hand: borrowed and lent
//! instance-hours under the quota tree, the dominant resource share over time, the
//! preemptions by cause per share and per cohort; and none of it in an AWS result.

use serde_json::Value;

fn run(text: &str) -> Value {
    let out = quotalab_engine::run_json(text).expect("valid scenario");
    serde_json::from_str(&out).expect("result is JSON")
}

/// Kueue's 'reclaim quota from borrower' (golden kueue-reclaim-quota-from-borrower): c1 and
/// c2 have 6 each in one cohort. In [0, 1) c2 uses 9 (borrows 3) and c1 uses 3 (3 idle, all
/// of it lent: the cohort has no quota of its own); at 1 c1 reclaims, and both use 6 until
/// the horizon at 60.
#[test]
fn borrowed_lent_share_and_causes_by_hand() {
    let r = run(include_str!(
        "golden/kueue-reclaim-quota-from-borrower.json"
    ));
    let h = |share: &str, k: &str| r["shares"][share]["instance_hours"][k].as_f64().unwrap();
    // 3 instances for 1 s.
    assert_eq!(h("c2", "borrowed"), 3.0 / 3600.0);
    assert_eq!(h("c1", "lent"), 3.0 / 3600.0);
    assert_eq!(h("c1", "borrowed"), 0.0);
    assert_eq!(h("c2", "lent"), 0.0);
    let p = &r["shares"]["c2"]["preemptions"];
    assert_eq!(p["reclaim"], 1);
    assert_eq!(p["in_share"], 0);
    assert_eq!(p["reclaim_while_borrowing"], 0);
    assert_eq!(p["fair_sharing"], 0);
    assert_eq!(r["totals"]["preemptions"]["reclaim"], 1);
    let c = &r["cohorts"]["cohort"];
    assert_eq!(c["path"], "cohort");
    // The root cohort's quota is 6 + 6 for 60 s; it borrows and lends nothing.
    assert_eq!(
        c["instance_hours"]["quota"].as_f64().unwrap(),
        12.0 * 60.0 / 3600.0
    );
    assert_eq!(c["instance_hours"]["borrowed"], 0);
    assert_eq!(c["instance_hours"]["lent"], 0);
    assert_eq!(c["preemptions"]["reclaim"], 1);
    // c2 borrows 3 of lendable 12 (potential of the cohort): 3 x 1000 / 12 = 250.
    let t: Vec<i64> = r["series"]["t_s"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect();
    let d = &r["series"]["dominant_share"];
    let at = |name: &str, kind: &str, s: i64| {
        let i = t.iter().rposition(|&x| x <= s).unwrap();
        d[kind][name][i].clone()
    };
    assert_eq!(at("c2", "shares", 0), 250);
    assert_eq!(at("c2", "shares", 1), 0);
    assert_eq!(at("c1", "shares", 0), 0);
    assert_eq!(at("cohort", "cohorts", 0), 0);
    let cs = &r["series"]["cohorts"]["cohort"]["ml.g5.xlarge"];
    let i0 = t.iter().rposition(|&x| x == 0).unwrap();
    assert_eq!(cs["quota"][i0], 12);
    assert_eq!(cs["usage"][i0], 12);
    assert_eq!(cs["borrowed"][i0], 0);
}

/// Two levels: root cohort `org` (quota 2) over cohort `dept` (team-a 4, team-b 4) and share
/// `other` (4). `other` uses 10 (borrows 6), team-a 0, team-b 4. At `org`: children borrow
/// 6, `org`'s own 2 first, the remaining 4 from idle lendable: `dept` has 4 idle (team-a's),
/// `other` none, so `dept` lends 4, all of it team-a's. `dept`'s share: it borrows nothing.
#[test]
fn lent_splits_down_the_tree() {
    let text = r#"{"format":"quotalab/v1","model":"kueue","name":"two levels","horizon_s":10,
      "cohorts":[{"name":"org","limits":{"ml.g5.xlarge":2}},{"name":"dept","parent":"org"}],
      "shares":[
        {"name":"team-a","limits":{"ml.g5.xlarge":4},"cohort":"dept"},
        {"name":"team-b","limits":{"ml.g5.xlarge":4},"cohort":"dept"},
        {"name":"other","limits":{"ml.g5.xlarge":4},"cohort":"org"}],
      "jobs":[
        {"id":"b","share":"team-b","instance_type":"ml.g5.xlarge","instances":4,"submit_s":0,"work_s":100},
        {"id":"o","share":"other","instance_type":"ml.g5.xlarge","instances":10,"submit_s":0,"work_s":100}]}"#;
    let r = run(text);
    let h = |share: &str, k: &str| r["shares"][share]["instance_hours"][k].as_f64().unwrap();
    assert_eq!(h("other", "borrowed"), 6.0 * 10.0 / 3600.0);
    assert_eq!(h("team-a", "lent"), 4.0 * 10.0 / 3600.0);
    assert_eq!(h("team-b", "lent"), 0.0);
    let c = |name: &str, k: &str| r["cohorts"][name]["instance_hours"][k].as_f64().unwrap();
    assert_eq!(c("dept", "lent"), 4.0 * 10.0 / 3600.0);
    assert_eq!(c("dept", "borrowed"), 0.0);
    assert_eq!(r["cohorts"]["dept"]["path"], "org/dept");
    // other borrows 6 of potential(org) = 2 + 8 + 4 = 14: ceil(6000 / 14) = 429.
    assert_eq!(r["series"]["dominant_share"]["shares"]["other"][0], 429);
    assert_eq!(r["series"]["dominant_share"]["cohorts"]["dept"][0], 0);
}

#[test]
fn aws_results_have_no_kueue_fields() {
    let r = run(include_str!("golden/aws-walkthrough.json"));
    assert!(r.get("cohorts").is_none());
    assert!(r["series"].get("dominant_share").is_none());
    assert!(r["shares"]
        .as_object()
        .unwrap()
        .values()
        .all(|s| s["preemptions"].get("fair_sharing").is_none()));
}

/// The display digest carries the same figures (the page's cohort tree and charts), and
/// survives serde (the worker sends it with postcard; JSON checks the same derives here).
#[test]
fn digest_kueue_fields() {
    use quotalab_engine::digest::DigestLimits;
    let d = quotalab_engine::run_digest(
        include_str!("golden/kueue-reclaim-quota-from-borrower.json"),
        DigestLimits::default(),
    )
    .unwrap();
    assert_eq!(d.shares[1].reclaim, 1);
    assert_eq!(d.shares[1].fair_sharing, 0);
    assert_eq!(d.shares[0].lent_h, 3.0 / 3600.0);
    let k = d.kueue.as_ref().expect("a Kueue run has its Kueue digest");
    assert_eq!(k.cohorts.len(), 1);
    assert_eq!(k.cohorts[0].name, "cohort");
    assert_eq!(k.cohorts[0].reclaim, 1);
    assert_eq!(k.cohorts[0].quota_h, 12.0 * 60.0 / 3600.0);
    assert_eq!(k.share_dominant[1][0], Some(250));
    assert_eq!(*k.share_dominant[1].last().unwrap(), Some(0));
    assert_eq!(k.t_s.len(), k.cohort_usage[0].len());
    let back: quotalab_engine::digest::Digest =
        serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back, d);
    let aws = quotalab_engine::run_digest(
        include_str!("golden/aws-walkthrough.json"),
        DigestLimits::default(),
    )
    .unwrap();
    assert!(aws.kueue.is_none());
}
