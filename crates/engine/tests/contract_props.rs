//! Property tests of SPEC 14 (the interruption contract) over random scenarios that use
//! it: restore failures, invalid resumes, resubmissions, escalations and alarms keep the
//! instance-time identity exact, `useful_borrowed <= useful`, the output byte-identical
//! (and equal to the exhaustive oracle's), and a job's draws its own: adding a job never
//! changes another job's restore outcomes.

use proptest::prelude::*;
use quotalab_engine::sim::State;
use quotalab_engine::{load, result, Finished, Options, Sim};
use serde_json::{json, Value};

const T: &str = "ml.g5.xlarge";

#[derive(Debug, Clone)]
struct JobGen {
    share: usize,
    priority: u64,
    submit: u64,
    work: u64,
    startup: u64,
    checkpoint: (u64, u64, u64),
    on_preempt: bool,
    retries: Option<u64>,
    restore_failure: f64,
    invalid_resume: f64,
    resubmit: Option<(usize, Option<u64>)>,
    escalate: Option<(u64, u64, u64)>,
}

fn job_gen(shares: usize) -> impl Strategy<Value = JobGen> {
    (
        (0..shares, 0u64..4, 0u64..400, 1u64..300, 0u64..30),
        (
            (1u64..100, 0u64..20, 0u64..20),
            any::<bool>(),
            proptest::option::of(0u64..3),
        ),
        (
            prop_oneof![Just(0.0), Just(0.5), Just(1.0), 0.0f64..1.0],
            prop_oneof![Just(0.0), Just(0.5), Just(1.0), 0.0f64..1.0],
        ),
        proptest::option::of((0..shares, proptest::option::of(0u64..9))),
        proptest::option::of((1u64..600, 0u64..600, 0u64..9)),
    )
        .prop_map(
            |(
                (share, priority, submit, work, startup),
                (checkpoint, on_preempt, retries),
                (restore_failure, invalid_resume),
                resubmit,
                escalate,
            )| JobGen {
                share,
                priority,
                submit,
                work,
                startup,
                checkpoint,
                on_preempt,
                retries,
                restore_failure,
                invalid_resume,
                resubmit: resubmit.filter(|&(s, _)| s != share),
                escalate,
            },
        )
}

fn job_json(i: usize, j: &JobGen) -> Value {
    let (interval, cost, restore) = j.checkpoint;
    let mut v = json!({"id": format!("j{i}"), "share": format!("s{}", j.share), "instance_type": T,
        "priority": j.priority, "submit_s": j.submit, "work_s": j.work, "startup_s": j.startup,
        "checkpoint": {"interval_s": interval, "cost_s": cost, "restore_s": restore},
        "checkpoint_on_preempt": j.on_preempt, "preemption_retries": j.retries,
        "recovery": {"restore_failure": j.restore_failure, "invalid_resume": j.invalid_resume}});
    if let Some((s, p)) = j.resubmit {
        let mut r = json!({"share": format!("s{s}")});
        if let Some(p) = p {
            r["priority"] = json!(p);
        }
        v["on_retries_exhausted"] = json!({ "resubmit": r });
    }
    if let Some((deadline, before, to)) = j.escalate {
        v["deadline_s"] = json!(deadline);
        v["escalate"] = json!({"before_deadline_s": before, "to_priority": to});
    }
    v
}

fn scenario_gen() -> impl Strategy<Value = Value> {
    (
        proptest::collection::vec((0u8..3, 0u64..4, any::<bool>()), 2..5),
        0u64..60,
        any::<bool>(),
        1u64..4,
        0u64..1_000_000,
    )
        .prop_flat_map(|(shares, grace, horizon, k, seed)| {
            let n = shares.len();
            (
                Just(shares),
                Just(grace),
                Just(horizon),
                Just(k),
                Just(seed),
                proptest::collection::vec(job_gen(n), 1..25),
            )
        })
        .prop_map(|(shares, grace, horizon, k, seed, jobs)| {
            let strategies = ["RESERVE", "LEND", "LEND_AND_BORROW"];
            let share_json: Vec<Value> = shares
                .iter()
                .enumerate()
                .map(|(i, &(st, limit, in_share))| {
                    json!({"name": format!("s{i}"), "limits": {T: limit},
                           "strategy": strategies[st as usize], "in_share_preemption": in_share})
                })
                .collect();
            let jobs: Vec<Value> = jobs
                .iter()
                .enumerate()
                .map(|(i, j)| job_json(i, j))
                .collect();
            let mut sc = json!({"format": "quotalab/v1", "seed": seed,
                "queue": {"preemption_grace_s": grace}, "alarms": {"repeated_preemptions": k},
                "shares": share_json, "jobs": jobs});
            if horizon {
                sc["horizon_s"] = json!(500);
            }
            sc
        })
}

fn check(sim: &Finished) -> Result<(), String> {
    for (i, (spec, r)) in sim.scenario().jobs.iter().zip(sim.jobs()).enumerate() {
        if spec.resubmission_of.is_some() {
            continue; // folded into the job it continues
        }
        let a = &sim.acc()[i]; // kept: events are recorded
        if a.useful() + a.lost + a.startup + a.checkpoint + a.grace != r.held {
            return Err(format!(
                "{}: identity broken {a:?}",
                sim.scenario().id_of(spec)
            ));
        }
        if a.useful() < 0 || a.lost < 0 || a.restart > a.startup {
            return Err(format!(
                "{}: negative or inconsistent time {a:?}",
                sim.scenario().id_of(spec)
            ));
        }
        if r.state == State::Succeeded && a.useful() != spec.work {
            return Err(format!(
                "{}: succeeded with useful {}",
                sim.scenario().id_of(spec),
                a.useful()
            ));
        }
        let kept = !matches!(r.state, State::Failed | State::Rejected);
        if kept && (r.useful_borrowed < 0 || r.useful_borrowed > a.useful()) {
            return Err(format!(
                "{}: useful_borrowed {} outside 0..=useful {}",
                sim.scenario().id_of(spec),
                r.useful_borrowed,
                a.useful()
            ));
        }
    }
    let (shares, total) = result::stats(sim);
    for st in shares.iter().chain([&total]) {
        let t = &st.time;
        if t.useful + t.lost + t.startup + t.checkpoint + t.grace != t.held {
            return Err(format!("share identity broken {t:?}"));
        }
        if t.useful_borrowed > t.useful {
            return Err(format!("share useful_borrowed > useful {t:?}"));
        }
        let j = &st.jobs;
        if j.submitted != j.succeeded + j.failed + j.unfinished + j.rejected {
            return Err(format!("job counts {j:?}"));
        }
        let c = &st.recovery.counts;
        if c.restore_failures > c.restores || c.resubmitted > c.retries_exhausted {
            return Err(format!("recovery counts {c:?}"));
        }
    }
    if total.jobs.submitted as usize > sim.scenario().described_jobs() {
        return Err("a continuation counted as a job".into());
    }
    Ok(())
}

/// Each event of job `id`, as `(t, kind, lost)` from the result JSON.
fn events_of(result: &str, id: &str) -> Vec<String> {
    let r: Value = serde_json::from_str(result).expect("JSON");
    r["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["job"] == id)
        .map(|e| format!("{} {} {}", e["t_s"], e["kind"], e["lost_s"]))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn contract_invariants_hold(sc in scenario_gen()) {
        let text = sc.to_string();
        let loaded = load(&text).map_err(|p| TestCaseError::fail(format!("invalid: {p:?}\n{text}")))?;
        let sim = Sim::new(&loaded.scenario, Options::default()).run();
        check(&sim).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let first = result::to_json(&sim);
        let again = Sim::new(&loaded.scenario, Options::default()).run();
        prop_assert_eq!(&first, &result::to_json(&again));
        let oracle = Sim::new(&loaded.scenario, Options { exhaustive: true, ..Options::default() }).run();
        prop_assert_eq!(&first, &result::to_json(&oracle));
    }

    /// SPEC 14: draws come from a stream per job. A job added in a share of its own (a
    /// RESERVE share with its own capacity, so it changes no one's scheduling) restores and
    /// draws first; every other job's events, restore failures included, are unchanged.
    #[test]
    fn adding_a_job_leaves_other_jobs_draws_unchanged(sc in scenario_gen()) {
        let base = quotalab_engine::run_json(&sc.to_string()).map_err(|p| TestCaseError::fail(format!("{p:?}")))?;
        let mut more = sc.clone();
        let n = more["shares"].as_array().map_or(0, Vec::len);
        more["shares"].as_array_mut().expect("shares").push(
            json!({"name": "extra", "limits": {T: 1}, "strategy": "RESERVE"}));
        more["jobs"].as_array_mut().expect("jobs").push(json!({
            "id": "x-extra", "share": "extra", "instance_type": T, "submit_s": 0, "work_s": 50,
            "checkpoint": {"interval_s": 1, "cost_s": 0, "restore_s": 0},
            "recovery": {"restore_failure": 0.5, "invalid_resume": 0.5}}));
        let _ = n;
        let more_result = quotalab_engine::run_json(&more.to_string()).map_err(|p| TestCaseError::fail(format!("{p:?}")))?;
        let jobs = sc["jobs"].as_array().expect("jobs").len();
        for i in 0..jobs {
            let id = format!("j{i}");
            prop_assert_eq!(events_of(&base, &id), events_of(&more_result, &id), "job {}", id);
        }
    }
}

/// The draws are a pure function of the seed, the job id and the restore's index.
#[test]
fn restore_draws_depend_on_seed_id_and_index_only() {
    use quotalab_engine::simulation::recovery::restore_draws;
    let a = restore_draws(7, "a1", 0);
    assert_eq!(a, restore_draws(7, "a1", 0));
    assert_ne!(a, restore_draws(7, "a1", 1));
    assert_ne!(a, restore_draws(7, "a2", 0));
    assert_ne!(a, restore_draws(8, "a1", 0));
    for i in 0..100 {
        let (x, y) = restore_draws(3, "job", i);
        assert!((0.0..1.0).contains(&x) && (0.0..1.0).contains(&y));
    }
}

/// A congested generated mix with every SPEC 14 feature on: each one happens, the books add
/// up, and the fast path gives the oracle's bytes.
#[test]
fn a_congested_mix_exercises_every_feature() {
    let strategies = ["LEND_AND_BORROW", "LEND", "RESERVE", "LEND_AND_BORROW"];
    let shares: Vec<Value> = (0..4)
        .map(|i| {
            let mut s = json!({"name": format!("team{i}"), "limits": {T: 3}, "strategy": strategies[i],
                "in_share_preemption": i % 2 == 0});
            if i % 4 == 0 {
                s["borrow_limit"] = json!(200);
            }
            s
        })
        .collect();
    let workloads: Vec<Value> = (0..4)
        .map(|i| {
            let mut w = json!({"share": format!("team{i}"), "count": 120, "arrival": {"poisson_per_hour": 4},
                "instance_type": T, "work_s": {"lognormal": {"median": 2400, "sigma": 1.0}},
                "priority": {"choice": [[0, 3], [1, 1], [5, 1]]}, "startup_s": 30,
                "checkpoint": {"interval_s": 600, "cost_s": 20, "restore_s": 40},
                "preemption_retries": 2, "deadline_factor": 4,
                "recovery": {"restore_failure": 0.2, "invalid_resume": 0.1},
                "escalate": {"before_deadline_s": 1800, "to_priority": 6}});
            if i != 2 {
                w["on_retries_exhausted"] = json!({"resubmit": {"share": "team2"}});
            }
            w
        })
        .collect();
    let sc = json!({"format": "quotalab/v1", "seed": 11, "queue": {"preemption_grace_s": 30},
        "alarms": {}, "shares": shares, "workloads": workloads});
    let loaded = load(&sc.to_string()).expect("valid");
    let fast = Sim::new(&loaded.scenario, Options::default()).run();
    check(&fast).expect("books add up");
    let (_, total) = result::stats(&fast);
    let c = total.recovery.counts;
    assert!(
        c.restore_failures > 0
            && c.invalid_resumes > 0
            && c.resubmitted > 0
            && c.alarms > 0
            && c.priority_overrides > 0,
        "every feature should happen: {c:?}"
    );
    assert!(total.time.useful_borrowed > 0 && total.time.restart > 0);
    let oracle = Sim::new(
        &loaded.scenario,
        Options {
            exhaustive: true,
            ..Options::default()
        },
    )
    .run();
    assert!(result::to_json(&fast) == result::to_json(&oracle));
}

/// SPEC 10 + 14: a share link carries every contract field, and the decoded scenario is
/// the same scenario.
#[test]
fn links_carry_the_contract_fields() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden/contract-resubmit.json"),
    )
    .expect("golden");
    let mut v: Value = serde_json::from_str(&text).expect("JSON");
    v["alarms"] = json!({"repeated_preemptions": 4});
    v["shares"][2]["agreement"] = json!({"owner": "platform", "rationale": "<i>why</i>",
        "interruption_contract": "resubmitted here after 1 preemption", "review_by": "2027-06"});
    v["jobs"][0]["recovery"] = json!({"restore_failure": 0.25, "invalid_resume": 0.125});
    v["jobs"][0]["deadline_s"] = json!(3000);
    v["jobs"][0]["escalate"] = json!({"before_deadline_s": 600, "to_priority": 8});
    let text = v.to_string();
    let decoded =
        quotalab_engine::link::decode(&quotalab_engine::link::encode(&text).unwrap()).unwrap();
    let back: Value = serde_json::from_str(&decoded).expect("JSON");
    assert_eq!(back, v);
    assert_eq!(
        load(&decoded).unwrap().scenario,
        load(&text).unwrap().scenario
    );
    assert_eq!(
        quotalab_engine::run_json(&decoded).unwrap(),
        quotalab_engine::run_json(&text).unwrap()
    );
}

/// The digest carries what the page shows of SPEC 14: per share the recovery block,
/// useful_borrowed and the agreement; the contract events with their explanations; a
/// resubmitted job as one row in its last share, its continuation's events on that row.
#[test]
fn the_digest_carries_the_contract() {
    use quotalab_engine::digest::{ContractEventKind, DigestLimits, EventKind};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/contract-resubmit.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["shares"][2]["agreement"] = json!({"owner": "platform team", "review_by": "2027-06"});
    let d = quotalab_engine::run_digest(&v.to_string(), DigestLimits::default()).expect("valid");
    let c = &d.contract;
    assert!(c.used);
    assert_eq!(c.shares.len(), 3);
    assert_eq!(c.shares[1].retries_exhausted, 1);
    assert_eq!(c.shares[1].resubmitted, 1);
    assert_eq!(c.shares[1].interruptions, 1);
    assert_eq!(c.shares[2].restores, 1);
    assert!((c.shares[2].useful_borrowed_h - 200.0 / 3600.0).abs() < 1e-12);
    assert_eq!(
        c.shares[2]
            .agreement
            .as_ref()
            .and_then(|a| a.owner.as_deref()),
        Some("platform team")
    );
    assert_eq!(c.shares[0].agreement, None);
    assert_eq!(c.totals.resubmitted, 1);
    // One row per job of the file; b1 ends in r.
    assert_eq!(d.jobs.len(), 2);
    let b1 = d.jobs.iter().position(|j| j.id == "b1").unwrap();
    assert_eq!(d.jobs[b1].share, 2);
    assert_eq!(c.jobs_useful_borrowed_s[b1], 200.0);
    // The resubmission: a contract event with its words, and a requeue in the state replay.
    let e = &c.events[0];
    assert_eq!(
        (e.kind, e.job, e.from_share, e.priority),
        (
            ContractEventKind::Resubmit,
            Some(b1 as u32),
            Some(1),
            Some(5)
        )
    );
    assert!(e.explain.contains("submitted again to r"), "{}", e.explain);
    let replay: Vec<_> = d
        .events
        .iter()
        .filter(|e| e.job == Some(b1 as u32))
        .map(|e| e.kind)
        .collect();
    assert!(
        replay.contains(&EventKind::Requeue) && replay.last() == Some(&EventKind::Succeed),
        "{replay:?}"
    );
    assert_eq!(
        d.segments().of(b1 as u32).last().map(|s| s.state),
        Some(quotalab_engine::digest::State::Succeeded)
    );
}
