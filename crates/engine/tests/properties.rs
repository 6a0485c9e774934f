//! Property tests over random scenarios: the invariants of SPEC 2-6 hold at every change
//! point, every job ends accounted for, instance time adds up exactly, and the output is
//! byte-identical on a second run.

use proptest::prelude::*;
use quotalab_engine::admission::limit_of;
use quotalab_engine::model::BorrowLimit;
use quotalab_engine::model::Strategy as ShareStrategy;
use quotalab_engine::sim::State;
use quotalab_engine::{load, result, Finished, Options, Sim};
use serde_json::{json, Value};

const T: &str = "ml.g5.xlarge";
const T2: &str = "ml.g6.xlarge";

#[derive(Debug, Clone)]
struct ShareGen {
    strategy: u8,
    limit: u64,
    limit2: Option<u64>,
    borrow: i64,
    in_share: bool,
}

#[derive(Debug, Clone)]
struct JobGen {
    share: usize,
    second_type: bool,
    instances: u64,
    priority: u64,
    submit: u64,
    work: u64,
    startup: u64,
    checkpoint: Option<(u64, u64, u64)>,
    on_preempt: bool,
    retries: Option<u64>,
}

fn share_gen() -> impl Strategy<Value = ShareGen> {
    (
        0u8..3,
        0u64..4,
        proptest::option::of(0u64..3),
        -1i64..300,
        any::<bool>(),
    )
        .prop_map(|(strategy, limit, limit2, borrow, in_share)| ShareGen {
            strategy,
            limit,
            limit2,
            borrow,
            in_share,
        })
}

fn job_gen(shares: usize) -> impl Strategy<Value = JobGen> {
    (
        0..shares,
        any::<bool>(),
        1u64..4,
        0u64..4,
        0u64..400,
        1u64..300,
        0u64..30,
        proptest::option::of((1u64..100, 0u64..20, 0u64..20)),
        any::<bool>(),
        proptest::option::of(0u64..3),
    )
        .prop_map(
            |(
                share,
                second_type,
                instances,
                priority,
                submit,
                work,
                startup,
                checkpoint,
                on_preempt,
                retries,
            )| {
                JobGen {
                    share,
                    second_type,
                    instances,
                    priority,
                    submit,
                    work,
                    startup,
                    checkpoint,
                    on_preempt,
                    retries,
                }
            },
        )
}

fn scenario_gen() -> impl Strategy<Value = Value> {
    (proptest::collection::vec(share_gen(), 1..5), 0u64..3, 0u64..90, any::<bool>(), any::<bool>())
        .prop_flat_map(|(shares, spare, grace, strict, horizon)| {
            let n = shares.len();
            (
                Just(shares),
                Just(spare),
                Just(grace),
                Just(strict),
                Just(horizon),
                proptest::collection::vec(job_gen(n), 1..30),
                proptest::collection::vec((0u64..500, 0usize..30, 0u64..6), 0..4),
            )
        })
        .prop_map(|(shares, spare, grace, strict, horizon, jobs, prio_events)| {
            let strategies = ["RESERVE", "LEND", "LEND_AND_BORROW"];
            let sum: u64 = shares.iter().map(|s| s.limit).sum();
            let sum2: u64 = shares.iter().map(|s| s.limit2.unwrap_or(0)).sum();
            let share_json: Vec<Value> = shares
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let mut limits = serde_json::Map::new();
                    limits.insert(T.into(), json!(s.limit));
                    if let Some(l2) = s.limit2 {
                        limits.insert(T2.into(), json!(l2));
                    }
                    let mut v = json!({"name": format!("s{i}"), "limits": limits,
                        "strategy": strategies[s.strategy as usize], "in_share_preemption": s.in_share});
                    if s.strategy == 2 {
                        v["borrow_limit"] = json!(s.borrow);
                    }
                    v
                })
                .collect();
            let job_json: Vec<Value> = jobs
                .iter()
                .enumerate()
                .map(|(i, j)| {
                    let mut v = json!({"id": format!("j{i}"), "share": format!("s{}", j.share),
                        "instance_type": if j.second_type { T2 } else { T }, "instances": j.instances,
                        "priority": j.priority, "submit_s": j.submit, "work_s": j.work, "startup_s": j.startup,
                        "checkpoint_on_preempt": j.on_preempt, "preemption_retries": j.retries});
                    if let Some((interval, cost, restore)) = j.checkpoint {
                        v["checkpoint"] = json!({"interval_s": interval, "cost_s": cost, "restore_s": restore});
                    }
                    v
                })
                .collect();
            let events: Vec<Value> = prio_events
                .iter()
                .filter(|(_, j, _)| *j < jobs.len())
                .map(|(at, j, p)| json!({"at_s": at, "set_priority": {"job": format!("j{j}"), "priority": p}}))
                .collect();
            let mut sc = json!({
                "format": "quotalab/v1",
                "capacity": {T: sum + spare, T2: sum2 + spare},
                "queue": {"queueing": if strict { "strict_fifo" } else { "best_effort_fifo" }, "preemption_grace_s": grace},
                "shares": share_json, "jobs": job_json, "events": events,
            });
            if horizon {
                sc["horizon_s"] = json!(300);
            }
            sc
        })
}

/// SPEC 2/3 invariants at one change point.
fn check_instant(sim: &Sim) -> Result<(), String> {
    let sc = sim.scenario();
    let shares = sim.config();
    for t in 0..sc.instance_types.len() {
        let u = sim.usage(t);
        let cap = sc.capacity[t];
        // Physical capacity is never exceeded.
        let held: u64 = (0..shares.len()).map(|s| sim.held(s, t)).sum();
        if held > cap {
            return Err(format!(
                "t={} type {t}: held {held} > capacity {cap}",
                sim.now()
            ));
        }
        // Quota never exceeds capacity (no overcommit in these scenarios).
        if u.sum_used > cap {
            return Err(format!(
                "t={} type {t}: used {} > capacity {cap}",
                sim.now(),
                u.sum_used
            ));
        }
        // Guaranteed entitlement: others never use a RESERVE share's limit, even physically.
        let reserved: u64 = shares
            .iter()
            .filter(|s| s.strategy == ShareStrategy::Reserve)
            .map(|s| limit_of(s, t))
            .sum();
        let others_held: u64 = (0..shares.len())
            .filter(|&s| shares[s].strategy != ShareStrategy::Reserve)
            .map(|s| sim.held(s, t))
            .sum();
        if others_held + reserved > cap {
            return Err(format!(
                "t={} type {t}: non-RESERVE shares hold {others_held}, RESERVE owns {reserved}",
                sim.now()
            ));
        }
        if u.pool_used > u.pool_size {
            return Err(format!(
                "t={} type {t}: lendable pool {} > {}",
                sim.now(),
                u.pool_used,
                u.pool_size
            ));
        }
        for (s, share) in shares.iter().enumerate() {
            let used = u.used[s];
            let limit = limit_of(share, t);
            match share.strategy {
                // RESERVE and LEND never borrow.
                ShareStrategy::Reserve | ShareStrategy::Lend if used > limit => {
                    return Err(format!(
                        "t={} {} ({:?}) borrows: used {used} > limit {limit}",
                        sim.now(),
                        share.name,
                        share.strategy
                    ));
                }
                // Borrow caps hold.
                ShareStrategy::LendAndBorrow => {
                    // Computed here from the share's settings, not by the engine's function.
                    let cap = match share.borrow_limit {
                        BorrowLimit::Unlimited => None,
                        BorrowLimit::Percent(p) => Some(limit * p / 100),
                    };
                    if let Some(cap) = cap {
                        if used > limit + cap {
                            return Err(format!(
                                "t={} {}: used {used} > limit {limit} + cap {cap}",
                                sim.now(),
                                share.name
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn check_end(sim: &Finished, horizon: bool) -> Result<(), String> {
    for (i, (spec, r)) in sim.scenario().jobs.iter().zip(sim.jobs()).enumerate() {
        let a = &sim.acc()[i]; // kept: events are recorded
                               // Instance time adds up exactly.
        if a.useful() + a.lost + a.startup + a.checkpoint + a.grace != r.held {
            return Err(format!(
                "{}: useful+lost+startup+checkpoint+grace != held: {a:?}",
                sim.scenario().id_of(spec)
            ));
        }
        if a.useful() < 0 || a.lost < 0 {
            return Err(format!(
                "{}: negative time {a:?}",
                sim.scenario().id_of(spec)
            ));
        }
        match r.state {
            State::Succeeded => {
                if a.useful() != spec.work {
                    return Err(format!(
                        "{}: succeeded with useful {} != work {}",
                        sim.scenario().id_of(spec),
                        a.useful(),
                        spec.work
                    ));
                }
            }
            State::Failed => {
                if a.useful() != 0
                    || u64::from(r.preemptions) <= spec.preemption_retries().unwrap_or(u64::MAX)
                {
                    return Err(format!(
                        "{}: failed wrongly {r:?}",
                        sim.scenario().id_of(spec)
                    ));
                }
            }
            State::Rejected => {}
            State::Runnable => {
                if r.reason.is_none() {
                    return Err(format!(
                        "{}: RUNNABLE without a waiting reason",
                        sim.scenario().id_of(spec)
                    ));
                }
            }
            State::Pending if horizon => {}
            State::Scheduled => {}
            s if horizon => {
                let _ = s;
            }
            s => {
                return Err(format!(
                    "{}: ended the run {s:?} without a horizon",
                    sim.scenario().id_of(spec)
                ))
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn invariants_hold(sc in scenario_gen()) {
        let text = sc.to_string();
        let loaded = load(&text).map_err(|p| TestCaseError::fail(format!("invalid: {p:?}\n{text}")))?;
        let mut sim = Sim::new(&loaded.scenario, Options::default());
        while sim.step() {
            check_instant(&sim).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        }
        let sim = sim.finish();
        check_end(&sim, sc.get("horizon_s").is_some()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        // Per share and total, the identity holds in the reported figures too.
        let (shares, total) = result::stats(&sim);
        for st in shares.iter().chain([&total]) {
            let t = &st.time;
            prop_assert_eq!(t.useful + t.lost + t.startup + t.checkpoint + t.grace, t.held);
            let j = &st.jobs;
            prop_assert_eq!(j.submitted, j.succeeded + j.failed + j.unfinished + j.rejected);

        }
        // RESERVE shares never lend.
        for (i, p) in sim.series().pairs.iter().enumerate() {
            if sim.config()[p.share.index()].strategy == ShareStrategy::Reserve {
                prop_assert!(sim.series().values(i).all(|v| v.lent == 0.0));
            }
        }
        // Byte-identical output on a second run.
        let first = result::to_json(&sim);
        let again = Sim::new(&loaded.scenario, Options::default()).run();
        prop_assert_eq!(&first, &result::to_json(&again));
        // The caches and preemption bounds change nothing: same bytes as re-evaluating
        // everything every time.
        let oracle = Sim::new(&loaded.scenario, Options { exhaustive: true, ..Options::default() }).run();
        prop_assert_eq!(&first, &result::to_json(&oracle));
    }
}

/// A congested generated workload (reclaims, in-share preemptions, checkpoints, long
/// queues): the fast path gives the same bytes as the exhaustive oracle.
#[test]
fn caches_match_oracle_on_a_congested_mix() {
    let strategies = ["LEND_AND_BORROW", "LEND", "RESERVE", "LEND_AND_BORROW"];
    let shares: Vec<Value> = (0..8)
        .map(|i| {
            let mut s = json!({"name": format!("team{i}"), "limits": {T: 4}, "strategy": strategies[i % 4],
                "in_share_preemption": i % 2 == 0});
            if i % 4 == 0 {
                s["borrow_limit"] = json!(150);
            }
            s
        })
        .collect();
    let workloads: Vec<Value> = (0..8)
        .map(|i| {
            json!({"share": format!("team{i}"), "count": 250, "arrival": {"poisson_per_hour": 3.5},
                "instance_type": T, "instances": {"choice": [[1, 6], [2, 2], [3, 1]]},
                "work_s": {"lognormal": {"median": 2400, "sigma": 1.0}}, "priority": {"choice": [[0, 3], [1, 1], [5, 1]]},
                "startup_s": 30, "checkpoint": {"interval_s": 900, "cost_s": 20, "restore_s": 40},
                "checkpoint_on_preempt": i % 3 == 0, "preemption_retries": if i == 5 { json!(1) } else { Value::Null }})
        })
        .collect();
    let sc = json!({"format": "quotalab/v1", "seed": 3, "capacity": {T: 34}, "queue": {"preemption_grace_s": 45},
        "shares": shares, "workloads": workloads});
    let loaded = load(&sc.to_string()).expect("valid");
    let fast = Sim::new(&loaded.scenario, Options::default()).run();
    let (_, total) = result::stats(&fast);
    assert!(
        total.reclaim > 10 && total.in_share > 10,
        "the mix should preempt: {total:?}"
    );
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
        "fast path and oracle differ"
    );
}
