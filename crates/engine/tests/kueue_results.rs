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

/// A congested generated Kueue mix in a two-level cohort tree (lending and borrowing
/// limits, every preemption policy, `borrow_within_cohort` with a threshold, strict FIFO on
/// some shares, reservations from `reclaim` other than `any`), classical or with fair
/// sharing: the fast path (cached offers, candidate lists merged lazily, attempt bounds)
/// gives the same bytes as the exhaustive oracle.
fn kueue_mix(seed: u64, fair: bool) -> String {
    use serde_json::json;
    const T: &str = "ml.g5.xlarge";
    let within = ["lower_priority", "never", "lower_or_newer_equal_priority"];
    let reclaim = ["any", "lower_priority", "any", "never"];
    let shares: Vec<Value> = (0..7)
        .map(|i| {
            let cohort = ["a", "b", "root"][i % 3];
            let queueing = if i % 4 == 3 {
                "strict_fifo"
            } else {
                "best_effort_fifo"
            };
            let mut s = json!({"name": format!("q{i}"), "limits": {T: 2 + i % 3},
                "cohort": cohort, "queueing": queueing,
                "preemption": {"within_share": within[i % 3], "reclaim": reclaim[i % 4]}});
            if i % 4 == 0 {
                s["preemption"]["borrow_within_cohort"] =
                    json!({"policy": "lower_priority", "max_priority_threshold": 3});
            }
            if i % 3 == 1 {
                s["borrowing_limit"] = json!({T: 2});
            }
            if i % 2 == 1 {
                s["lending_limit"] = json!({T: 1});
            }
            s
        })
        .collect();
    let workloads: Vec<Value> = (0..7)
        .map(|i| {
            json!({"share": format!("q{i}"), "count": 25, "arrival": {"poisson_per_hour": 4.0},
                "instance_type": T, "instances": {"choice": [[1, 5], [2, 2], [3, 1]]},
                "work_s": {"lognormal": {"median": 1800, "sigma": 1.0}},
                "priority": {"choice": [[0, 3], [2, 1], [5, 1]]}})
        })
        .collect();
    let mut sc = json!({"format": "quotalab/v1", "model": "kueue", "seed": seed,
        "queue": {"preemption_grace_s": 30},
        "cohorts": [{"name": "root", "limits": {T: 1}},
                    {"name": "a", "parent": "root", "limits": {T: 1}, "lending_limit": {T: 2}},
                    {"name": "b", "parent": "root", "borrowing_limit": {T: 3}}],
        "shares": shares, "workloads": workloads});
    if fair {
        sc["fair_sharing"] = json!({});
    }
    sc.to_string()
}

#[test]
fn kueue_caches_match_oracle_on_a_congested_mix() {
    use quotalab_engine::{load, result, Options, Sim};
    for fair in [false, true] {
        for seed in 1..4 {
            let text = kueue_mix(seed, fair);
            let loaded = load(&text).expect("valid");
            let fast = Sim::new(&loaded.scenario, Options::default()).run();
            let (_, total) = result::stats(&fast);
            let oracle = Sim::new(
                &loaded.scenario,
                Options {
                    exhaustive: true,
                    ..Options::default()
                },
            )
            .run();
            assert!(
                result::to_json(&fast) == result::to_json(&oracle),
                "seed {seed}, fair sharing {fair}: fast and exhaustive differ"
            );
            assert!(
                total.reclaim + total.in_share > 0,
                "seed {seed}: no preemption"
            );
        }
    }
}

/// SPEC 12 waiting reasons name the limit that binds: a Kueue scenario of one type with
/// `shares` (JSON objects), `cohorts`, and jobs `(id, share, submit_s)` of one instance
/// each; returns the explanation of each job's last `waiting` event, with its reason.
fn waits(shares: &str, cohorts: &str, jobs: &[(&str, &str, u64)]) -> Vec<(String, String, String)> {
    let jobs: Vec<String> = jobs
        .iter()
        .map(|(id, share, at)| {
            format!(
                r#"{{"id": "{id}", "share": "{share}", "instance_type": "ml.g5.xlarge", "instances": 1, "submit_s": {at}, "work_s": 100}}"#
            )
        })
        .collect();
    let text = format!(
        r#"{{"format": "quotalab/v1", "model": "kueue", "horizon_s": 50, "shares": [{shares}], "cohorts": [{cohorts}], "jobs": [{}]}}"#,
        jobs.join(",")
    );
    let r = run(&text);
    let mut out: Vec<(String, String, String)> = Vec::new();
    for e in r["events"].as_array().unwrap() {
        if e["kind"] == "waiting" {
            let job = e["job"].as_str().unwrap().to_string();
            out.retain(|(j, _, _)| *j != job);
            out.push((
                job,
                e["reason"].as_str().unwrap().to_string(),
                e["explain"].as_str().unwrap().to_string(),
            ));
        }
    }
    out
}

#[test]
fn waiting_names_the_own_borrowing_limit() {
    let w = waits(
        r#"{"name": "team-a", "limits": {"ml.g5.xlarge": 1}, "cohort": "c", "borrowing_limit": {"ml.g5.xlarge": 2}},
           {"name": "team-b", "limits": {"ml.g5.xlarge": 5}, "cohort": "c"}"#,
        r#"{"name": "c"}"#,
        &[
            ("a1", "team-a", 0),
            ("a2", "team-a", 0),
            ("a3", "team-a", 0),
            ("a4", "team-a", 0),
        ],
    );
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!((w[0].0.as_str(), w[0].1.as_str()), ("a4", "borrow_limit"));
    assert_eq!(
        w[0].2,
        "team-a may borrow at most 2 ml.g5.xlarge beyond its nominalQuota; waits for its own workloads to finish"
    );
}

#[test]
fn waiting_names_the_own_nominal_quota() {
    let w = waits(
        r#"{"name": "solo", "limits": {"ml.g5.xlarge": 2}}"#,
        "",
        &[("s1", "solo", 0), ("s2", "solo", 0), ("s3", "solo", 0)],
    );
    assert_eq!(
        (w[0].0.as_str(), w[0].1.as_str()),
        ("s3", "entitlement_exhausted")
    );
    assert_eq!(
        w[0].2,
        "solo's nominal quota of 2 ml.g5.xlarge is used up and it is in no cohort to borrow from; waits for its own workloads to finish"
    );
}

#[test]
fn waiting_names_the_cohort_and_what_lending_limits_keep() {
    // team-b lends 1 of its 3 (2 stay private): team-a borrows that 1, then the cohort has
    // nothing left to lend although team-b's 2 private instances are idle.
    let w = waits(
        r#"{"name": "team-a", "limits": {"ml.g5.xlarge": 2}, "cohort": "research"},
           {"name": "team-b", "limits": {"ml.g5.xlarge": 3}, "cohort": "research", "lending_limit": {"ml.g5.xlarge": 1}}"#,
        r#"{"name": "research"}"#,
        &[
            ("a1", "team-a", 0),
            ("a2", "team-a", 0),
            ("a3", "team-a", 0),
            ("a4", "team-a", 0),
        ],
    );
    assert_eq!(
        (w[0].0.as_str(), w[0].1.as_str()),
        ("a4", "no_lendable_capacity")
    );
    assert_eq!(
        w[0].2,
        "cohort research has no unused quota of ml.g5.xlarge (1 needed; lending limits keep 2 private elsewhere); the workload would borrow beyond team-a's nominal quota"
    );
}

#[test]
fn waiting_names_a_cohorts_borrowing_limit() {
    // root has 4 of its own; research may borrow only 1 of it: team-a gets 2 + 1.
    let w = waits(
        r#"{"name": "team-a", "limits": {"ml.g5.xlarge": 2}, "cohort": "research"}"#,
        r#"{"name": "root", "limits": {"ml.g5.xlarge": 4}},
           {"name": "research", "parent": "root", "borrowing_limit": {"ml.g5.xlarge": 1}}"#,
        &[
            ("a1", "team-a", 0),
            ("a2", "team-a", 0),
            ("a3", "team-a", 0),
            ("a4", "team-a", 0),
        ],
    );
    assert_eq!(
        (w[0].0.as_str(), w[0].1.as_str()),
        ("a4", "no_lendable_capacity")
    );
    assert_eq!(
        w[0].2,
        "cohort root/research's borrowingLimit of 1 ml.g5.xlarge is used up; waits for workloads below it to finish; the workload would borrow beyond team-a's nominal quota"
    );
}

#[test]
fn waiting_within_nominal_names_the_borrowed_cohort() {
    // team-b borrows team-a's idle quota at 0; team-a (reclaim never) cannot take it back.
    let w = waits(
        r#"{"name": "team-a", "limits": {"ml.g5.xlarge": 2}, "cohort": "c"},
           {"name": "team-b", "limits": {"ml.g5.xlarge": 2}, "cohort": "c"}"#,
        r#"{"name": "c"}"#,
        &[
            ("b1", "team-b", 0),
            ("b2", "team-b", 0),
            ("b3", "team-b", 0),
            ("b4", "team-b", 0),
            ("a1", "team-a", 1),
        ],
    );
    assert_eq!(
        (w[0].0.as_str(), w[0].1.as_str()),
        ("a1", "capacity_in_use")
    );
    assert_eq!(
        w[0].2,
        "cohort c has no unused quota of ml.g5.xlarge (1 needed); team-a is owed it within its nominal quota, but it is in use by borrowers that cannot be reclaimed now"
    );
}

/// Runs the Kueue scenario `text` with its cycles done at once where they can be and with
/// every cycle walked (the exhaustive oracle): the same bytes, steps and cycles in all.
/// Returns the cycles (walked, done at once); `what` names the scenario in a failure.
fn done_at_once_as_walked(text: &str, what: &str) -> (u64, u64) {
    use quotalab_engine::{load, result, Options, Sim};
    let loaded = load(text).expect("valid");
    let fast = Sim::new(&loaded.scenario, Options::default()).run();
    let exhaustive = Options {
        exhaustive: true,
        ..Options::default()
    };
    let walked = Sim::new(&loaded.scenario, exhaustive).run();
    assert!(
        result::to_json(&fast) == result::to_json(&walked),
        "{what}: cycles done at once and walking each differ"
    );
    assert_eq!(fast.steps(), walked.steps(), "{what}: steps");
    let (w, s) = fast.kueue_cycles();
    assert_eq!(
        w + s,
        walked.kueue_cycles().0,
        "{what}: the same cycles in all"
    );
    (w, s)
}

/// One cohort of shares `q0`, `q1`, ... with `quotas` of ml.g5.xlarge, each reclaiming from
/// anyone and never preempting its own (as the Philly trace translated), 60 generated jobs
/// each arriving at `rate + i` an hour (share `i`), 1 to 8 instances, on `capacity`
/// instances with a 120 s grace.
fn overloaded_cohort(quotas: &[u64], rate: f64, capacity: u64, seed: u64) -> String {
    use serde_json::json;
    const T: &str = "ml.g5.xlarge";
    let shares: Vec<Value> = quotas
        .iter()
        .enumerate()
        .map(|(i, q)| {
            json!({"name": format!("q{i}"), "limits": {T: q}, "cohort": "all",
                "preemption": {"within_share": "never", "reclaim": "any"}})
        })
        .collect();
    let workloads: Vec<Value> = (0..quotas.len())
        .map(|i| {
            json!({"share": format!("q{i}"), "count": 60,
                "arrival": {"poisson_per_hour": rate + i as f64}, "instance_type": T,
                "instances": {"choice": [[1, 6], [2, 2], [4, 1], [8, 1]]},
                "work_s": {"lognormal": {"median": 3600, "sigma": 1.2}},
                "priority": {"choice": [[0, 4], [1, 1]]}})
        })
        .collect();
    json!({"format": "quotalab/v1", "model": "kueue", "seed": seed,
        "capacity": {T: capacity}, "queue": {"preemption_grace_s": 120},
        "cohorts": [{"name": "all"}], "shares": shares, "workloads": workloads})
    .to_string()
}

/// SPEC 12.1 cycles done at once: on an overloaded cohort whose queues Kueue sets aside one
/// head per cycle after every release (one cohort of shares that reclaim from anyone and
/// never preempt their own, with grace, as the Philly trace translated; and the mix above,
/// every policy, classical and fair), skipping the cycles in which nothing but heads set
/// aside would change gives the bytes of walking every cycle (the exhaustive oracle does),
/// and skips most of them.
#[test]
fn quiet_cycles_done_at_once_match_walking_each() {
    use quotalab_engine::{load, result, Options, Sim};
    let overloaded = |seed: u64| overloaded_cohort(&[2, 5, 8, 11, 14, 17], 6.0, 40, seed);
    let mut skipped = 0;
    let texts = (1..4)
        .map(overloaded)
        .chain((4..6).flat_map(|seed| [kueue_mix(seed, false), kueue_mix(seed, true)]));
    for (i, text) in texts.enumerate() {
        let loaded = load(&text).expect("valid");
        let fast = Sim::new(&loaded.scenario, Options::default()).run();
        let walked = Sim::new(
            &loaded.scenario,
            Options {
                exhaustive: true,
                ..Options::default()
            },
        )
        .run();
        assert_eq!(walked.kueue_cycles().1, 0, "the oracle walks every cycle");
        assert!(
            result::to_json(&fast) == result::to_json(&walked),
            "scenario {i}: cycles done at once and walked differ"
        );
        assert_eq!(fast.steps(), walked.steps(), "scenario {i}: steps");
        let (w, s) = fast.kueue_cycles();
        if i < 3 {
            assert!(
                s > 2 * w,
                "scenario {i}: {s} cycles done at once, {w} walked"
            );
        }
        skipped += s;
    }
    assert!(skipped > 0);
}

/// SPEC 12.1 cycles done at once while a head is passed over (issue #31): a's preemptor
/// waits for b's victim in its grace and is walked first; c's head fits the cycle's
/// snapshot but no longer once the preemptor is counted in, so each cycle passes it over;
/// d's 50 heads, too big to ever fit, are set aside one per cycle. Those cycles admit and
/// evict no one: done at once, as cycles that only set heads aside, with the bytes of
/// walking every cycle. (Before, a head that fit the snapshot made every cycle walked:
/// 72 of them.)
#[test]
fn cycles_that_pass_a_head_over_are_done_at_once() {
    use serde_json::json;
    const T: &str = "ml.g5.xlarge";
    let p = json!({"within_share": "never", "reclaim": "any"});
    let share = |name: &str, quota: u64| json!({"name": name, "limits": {T: quota}, "cohort": "all", "preemption": p});
    let job = |id: String, share: &str, n: u64, at: u64, work: u64| json!({"id": id, "share": share, "instance_type": T, "instances": n, "submit_s": at, "work_s": work});
    let mut jobs = vec![
        job("b1".into(), "b", 2, 0, 10_000),
        job("b2".into(), "b", 3, 0, 10_000),
        job("a1".into(), "a", 4, 10, 1000),
        job("c1".into(), "c", 2, 15, 1000),
    ];
    jobs.extend((0..50).map(|i| job(format!("d{i}"), "d", 8, 20, 100)));
    let text = json!({"format": "quotalab/v1", "model": "kueue", "capacity": {T: 7},
        "queue": {"preemption_grace_s": 120}, "cohorts": [{"name": "all"}],
        "shares": [share("a", 4), share("b", 1), share("c", 2), share("d", 0)], "jobs": jobs})
    .to_string();
    let (w, s) = done_at_once_as_walked(&text, "");
    assert!(w < 30, "{w} cycles walked, {s} done at once");
}

/// SPEC 12.1 cycles done at once with each share's run of inert heads carried through a
/// pass (issue #31): on a cohort whose quotas add up to more than the capacity, with a
/// share of no quota of its own (its heads borrow or cannot preempt), big jobs that fit
/// only after releases, and shares under their quota whose searches find victims or none,
/// the heads known inert from an earlier cycle of the pass (not asked again while only
/// admissions happened, or, after a search that found none, only admissions within
/// limits) give the bytes of walking every cycle.
#[test]
fn inert_runs_carried_through_a_pass_match_walking_each() {
    for seed in 1..5 {
        let text = overloaded_cohort(&[0, 2, 5, 8, 11, 14], 5.0, 30, seed);
        done_at_once_as_walked(&text, &format!("seed {seed}"));
    }
}

/// SPEC 12.1 shares whose whole queue is known inert, drained for the rest of a pass
/// (issue #31, `simulation::drained`): each cycle sets their next head aside by counting,
/// without visiting them, while the other shares' cycles are walked or done at once; a
/// victim requeued into a drained share, an admission or a release mid-pass first sets
/// aside what was counted. On overloaded cohorts (as the Philly trace translated), with a
/// grace period and without (victims requeued within the cycle), heads are drained and
/// the bytes, steps and cycles are those of walking every cycle.
#[test]
fn drained_shares_match_walking_each() {
    use quotalab_engine::{load, Options, Sim};
    let mut drained = 0;
    for seed in 1..5 {
        for grace in [120, 0] {
            let text = overloaded_cohort(&[0, 2, 5, 8, 11, 14], 5.0, 30, seed);
            let mut sc: Value = serde_json::from_str(&text).expect("json");
            sc["queue"]["preemption_grace_s"] = grace.into();
            let text = sc.to_string();
            done_at_once_as_walked(&text, &format!("seed {seed}, grace {grace}"));
            let loaded = load(&text).expect("valid");
            drained += Sim::new(&loaded.scenario, Options::default())
                .run()
                .kueue_drained();
        }
    }
    assert!(drained > 1000, "{drained} heads set aside by counting");
}

/// SPEC 12.1: a pass's first cycles are done at once too when every head in them would
/// only be set aside (issue #31): d's 40 jobs, each too big to ever fit, arrive a minute
/// apart while a's job runs; each arrival's pass sets the new head aside at once and
/// walks only the cycle that finds no head (before: that cycle, and the one that set the
/// head aside, 80 in all).
#[test]
fn a_pass_whose_first_heads_are_inert_walks_one_cycle() {
    use serde_json::json;
    const T: &str = "ml.g5.xlarge";
    let p = json!({"within_share": "never", "reclaim": "any"});
    let job = |id: String, share: &str, n: u64, at: u64, work: u64| json!({"id": id, "share": share, "instance_type": T, "instances": n, "submit_s": at, "work_s": work});
    let mut jobs = vec![job("a1".into(), "a", 4, 0, 10_000)];
    jobs.extend((0..40).map(|i| job(format!("d{i}"), "d", 8, 60 + 60 * i, 100)));
    let text = json!({"format": "quotalab/v1", "model": "kueue", "capacity": {T: 7},
        "cohorts": [{"name": "all"}],
        "shares": [{"name": "a", "limits": {T: 4}, "cohort": "all", "preemption": p},
                   {"name": "d", "limits": {T: 0}, "cohort": "all", "preemption": p}],
        "jobs": jobs})
    .to_string();
    let (w, s) = done_at_once_as_walked(&text, "");
    assert!(w <= 45 && s >= 40, "{w} cycles walked, {s} done at once");
}

/// SPEC 12.1 with a grace period: c1's preemptor waits for its victims, and its `waiting`
/// explanation says when their grace ends as the page's event log writes its times (a
/// newcomer reads "36 min 23 s into the run", not "2182.844 s": issue #34, walk).
#[test]
fn a_waiting_preemptor_says_when_its_victims_grace_ends_in_words() {
    let mut sc: Value = serde_json::from_str(include_str!(
        "golden/kueue-reclaim-quota-from-borrower.json"
    ))
    .unwrap();
    sc["queue"]["preemption_grace_s"] = 2181.844.into();
    sc["horizon_s"] = 5000.into();
    let r = run(&sc.to_string());
    let waits: Vec<&str> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "waiting" && e["share"] == "c1")
        .filter_map(|e| e["explain"].as_str())
        .filter(|x| x.contains("preempted"))
        .collect();
    assert!(
        !waits.is_empty(),
        "no waiting preemptor in {:#}",
        r["events"]
    );
    for w in waits {
        assert!(
            w.contains("grace period ends, 36 min 23 s into the run"),
            "{w}"
        );
        assert!(!w.contains("2182.844"), "no raw seconds: {w}");
    }
}

/// Issue #34: a Kueue workload waiting behind its queue's head (StrictFIFO) or for a
/// flavor its ClusterQueue has no quota of is explained in Kueue's words, never "share".
#[test]
fn waiting_reasons_without_a_binding_speak_kueue() {
    let text = r#"{"format": "quotalab/v1", "model": "kueue", "horizon_s": 50,
        "shares": [{"name": "team-a", "limits": {"ml.g5.xlarge": 2}, "queueing": "strict_fifo"}],
        "jobs": [
          {"id": "a1", "share": "team-a", "instance_type": "ml.g5.xlarge", "instances": 2, "submit_s": 0, "work_s": 100},
          {"id": "a2", "share": "team-a", "instance_type": "ml.g5.xlarge", "instances": 2, "submit_s": 1, "work_s": 100},
          {"id": "a3", "share": "team-a", "instance_type": "ml.g5.xlarge", "instances": 1, "submit_s": 2, "work_s": 100}]}"#;
    let r = run(text);
    let said: Vec<(String, String)> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "waiting")
        .map(|e| {
            (
                e["reason"].as_str().unwrap().to_string(),
                e["explain"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let head = said
        .iter()
        .find(|(r, _)| r == "head_of_line")
        .unwrap_or_else(|| panic!("{said:?}"));
    assert_eq!(
        head.1,
        "StrictFIFO: waits behind the workload at the head of ClusterQueue team-a's queue, which cannot be admitted yet"
    );
    for (_, e) in &said {
        assert!(!e.contains("share"), "{e}");
    }
    use quotalab_engine::output::explain::{reason_phrase, reason_phrase_in};
    use quotalab_engine::simulation::Reason;
    assert_eq!(
        reason_phrase_in(Reason::HeadOfLine, true),
        "behind the head of its ClusterQueue's queue (StrictFIFO)"
    );
    assert_eq!(
        reason_phrase_in(Reason::HeadOfLine, false),
        reason_phrase(Reason::HeadOfLine)
    );
    // The short label in Kueue's words too (issue #34, fresh-eyes walk: "borrow limit
    // reached" in a Kueue event log), the AWS one unchanged.
    use quotalab_engine::output::explain::{reason_label, reason_label_in};
    assert_eq!(
        reason_label_in(Reason::BorrowLimit, true),
        "borrowingLimit reached"
    );
    assert_eq!(
        reason_label_in(Reason::BorrowLimit, false),
        reason_label(Reason::BorrowLimit)
    );
    for r in [
        Reason::Unschedulable,
        Reason::BorrowLimit,
        Reason::EntitlementExhausted,
        Reason::CapacityInUse,
        Reason::NoLendableCapacity,
    ] {
        let l = reason_label_in(r, true);
        assert!(
            !l.contains("share") && !l.contains("borrow limit") && !l.contains("capacity"),
            "{l}"
        );
    }
}

/// A summary run (no event log, `Options::summary`) gives the full run's statistics and
/// event count: there the jobs of a bucket whose waiting reason changes take it at once and
/// are only counted, here they are listed and logged one by one (`pass::bucket_reasons`,
/// one rule for both, `takes_reason`, which leaves a preemptor waiting for its victims alone).
#[test]
fn a_summary_run_counts_what_the_full_run_logs() {
    use quotalab_engine::sim::job::EventKind;
    use quotalab_engine::{load, result, Options, Sim};
    let texts = (1..4)
        .map(|seed| overloaded_cohort(&[2, 5, 8, 11, 14, 17], 6.0, 40, seed))
        .chain((4..8).flat_map(|seed| [kueue_mix(seed, false), kueue_mix(seed, true)]));
    let mut waits = 0;
    for (i, text) in texts.enumerate() {
        let loaded = load(&text).expect("valid");
        let full = Sim::new(&loaded.scenario, Options::default()).run();
        let summary = Sim::new(&loaded.scenario, Options::summary()).run();
        assert!(summary.events().is_empty(), "scenario {i}: no log kept");
        assert_eq!(
            summary.event_count(),
            full.event_count(),
            "scenario {i}: events counted"
        );
        assert!(
            format!("{:?}", result::stats(&summary)) == format!("{:?}", result::stats(&full)),
            "scenario {i}: the statistics differ"
        );
        let waiting =
            |e: &&quotalab_engine::sim::job::Event| matches!(e.kind, EventKind::Waiting(..));
        waits += full.events().iter().filter(waiting).count();
    }
    assert!(waits > 100, "{waits} waiting events: too few to test");
}
