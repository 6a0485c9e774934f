//! The simulation itself, on valid-but-extreme scenarios built with `arbitrary`: AWS and
//! Kueue models, one to three instance types, capacities and instance counts from 0 or 1 to
//! SPEC 2's 1,000,000,000, times from 0 to SPEC's 10^12 s, every strategy, borrow limit,
//! checkpointing, retries, priority changes and an optional horizon.
//!
//! Properties: the scenario validates (else the generator is at fault, and nothing runs);
//! SPEC 2/3's invariants hold at every change point (`quotalab_fuzz::check_instant`: held
//! within capacity, RESERVE untouched, no borrowing past a cap); every job ends in one state
//! that fits how the run ended and its instance time adds up (`check_end`); a second run
//! gives the same result bytes; CPU time within the budget (one second, plus 50 ms a job).
#![no_main]

use std::time::Duration;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use quotalab_engine::{load, pipeline, Options, Sim};
use quotalab_fuzz::{check_end, check_instant, Budget};
use serde_json::{json, Map, Value};

const TYPES: [&str; 3] = ["ml.g5.xlarge", "ml.g6.xlarge", "ml.p4d.24xlarge"];
/// Instance counts and limits, from nothing to SPEC 2's maximum.
const COUNTS: [u64; 8] = [0, 1, 2, 3, 5, 8, 1_000, 1_000_000_000];
/// Times in seconds, from nothing to SPEC 2's maximum.
const TIMES: [f64; 9] = [0.0, 0.001, 1.0, 59.0, 60.0, 3600.0, 86_400.0, 1e9, 1e12];

#[derive(Arbitrary, Debug)]
struct Gen {
    kueue: bool,
    types: u8,
    spare: u8,
    grace: u8,
    strict: bool,
    horizon: Option<u8>,
    shares: Vec<ShareGen>,
    jobs: Vec<JobGen>,
    events: Vec<(u8, u8, u16)>,
}

#[derive(Arbitrary, Debug)]
struct ShareGen {
    limits: [u8; 3],
    strategy: u8,
    borrow: i16,
    in_share: bool,
    disabled: bool,
    kueue_borrowing: Option<u8>,
    kueue_lending: Option<u8>,
    within: u8,
    reclaim: u8,
}

#[derive(Arbitrary, Debug)]
struct JobGen {
    share: u8,
    ty: u8,
    instances: u8,
    priority: u16,
    submit: u8,
    work: u8,
    startup: u8,
    checkpoint: Option<(u8, u8, u8)>,
    on_preempt: bool,
    retries: Option<u8>,
}

fn count(i: u8) -> u64 {
    COUNTS[usize::from(i) % COUNTS.len()]
}

fn time(i: u8) -> f64 {
    TIMES[usize::from(i) % TIMES.len()]
}

fn scenario(g: &Gen) -> Option<(Value, bool)> {
    let ntypes = 1 + usize::from(g.types) % TYPES.len();
    if g.shares.is_empty() || g.shares.len() > 6 || g.jobs.is_empty() || g.jobs.len() > 40 {
        return None;
    }
    let mut sums = [0u64; 3];
    let mut shares = Vec::new();
    for (i, s) in g.shares.iter().enumerate() {
        let mut limits = Map::new();
        for (t, l) in s.limits.iter().enumerate().take(ntypes) {
            let l = count(*l);
            sums[t] = sums[t].saturating_add(l);
            limits.insert(TYPES[t].into(), json!(l));
        }
        let mut v = json!({"name": format!("s{i}"), "limits": limits});
        if g.kueue {
            v["cohort"] = json!("c");
            let names = ["never", "lower_priority", "any"];
            let within = ["never", "lower_priority", "lower_or_newer_equal_priority"];
            let within = within[usize::from(s.within) % 3];
            let reclaim = names[usize::from(s.reclaim) % 3];
            v["preemption"] = json!({"within_share": within, "reclaim": reclaim});
            if let Some(b) = s.kueue_borrowing {
                v["borrowing_limit"] = json!({TYPES[0]: count(b)});
            }
            if let Some(l) = s.kueue_lending {
                v["lending_limit"] = json!({TYPES[0]: count(l).min(count(s.limits[0]))});
            }
        } else {
            let strategy = ["RESERVE", "LEND", "LEND_AND_BORROW"][usize::from(s.strategy) % 3];
            v["strategy"] = json!(strategy);
            v["in_share_preemption"] = json!(s.in_share);
            if strategy == "LEND_AND_BORROW" {
                v["borrow_limit"] = json!(i64::from(s.borrow).clamp(-1, 10_000));
            }
        }
        if s.disabled {
            v["state"] = json!("DISABLED");
        }
        shares.push(v);
    }
    let spare = count(g.spare);
    let mut capacity = Map::new();
    let mut overcommitted = false;
    for (t, sum) in sums.iter().enumerate().take(ntypes) {
        let cap = sum.saturating_add(spare).min(1_000_000_000);
        overcommitted |= cap < *sum;
        capacity.insert(TYPES[t].into(), json!(cap));
    }
    let jobs: Vec<Value> = g
        .jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let mut v = json!({
                "id": format!("j{i}"),
                "share": format!("s{}", usize::from(j.share) % g.shares.len()),
                "instance_type": TYPES[usize::from(j.ty) % ntypes],
                "instances": count(j.instances).max(1),
                "priority": j.priority % 10_000,
                "submit_s": time(j.submit),
                "work_s": time(j.work).max(0.001),
                "startup_s": time(j.startup),
                "checkpoint_on_preempt": j.on_preempt,
            });
            if let Some(r) = j.retries {
                v["preemption_retries"] = json!(r % 8);
            }
            if let Some((interval, cost, restore)) = j.checkpoint {
                v["checkpoint"] = json!({"interval_s": time(interval).max(1.0),
                    "cost_s": time(cost), "restore_s": time(restore)});
            }
            v
        })
        .collect();
    let events: Vec<Value> = g
        .events
        .iter()
        .take(8)
        .map(|&(at, j, p)| {
            json!({"at_s": time(at), "set_priority": {
                "job": format!("j{}", usize::from(j) % g.jobs.len()), "priority": p % 10_000}})
        })
        .collect();
    let mut sc = json!({
        "format": "quotalab/v1",
        "capacity": capacity,
        "queue": {
            "queueing": if g.strict { "strict_fifo" } else { "best_effort_fifo" },
            "preemption_grace_s": time(g.grace),
        },
        "shares": shares,
        "jobs": jobs,
        "events": events,
    });
    if g.kueue {
        sc["model"] = json!("kueue");
        sc["cohorts"] = json!([{"name": "c"}]);
        sc["queue"] = json!({"preemption_grace_s": time(g.grace)});
    }
    if let Some(h) = g.horizon {
        sc["horizon_s"] = json!(time(h).max(1.0));
    }
    Some((sc, overcommitted))
}

fuzz_target!(|g: Gen| {
    let Some((sc, overcommitted)) = scenario(&g) else {
        return;
    };
    let text = sc.to_string();
    // `FUZZ_PRINT=1 cargo fuzz run simulate CRASH` shows the scenario (for a regression test).
    if std::env::var_os("FUZZ_PRINT").is_some() {
        eprintln!("{text}");
    }
    let mut budget = Budget::for_bytes(text.len());
    budget.allow(Duration::from_millis(50 * g.jobs.len() as u64), 0);
    let loaded = match load(&text) {
        Ok(l) => l,
        Err(problems) => {
            if std::env::var_os("FUZZ_PRINT").is_some() {
                eprintln!("invalid: {}", problems[0]);
            }
            return;
        }
    };
    let horizon = sc.get("horizon_s").is_some();
    let mut sim = Sim::new(&loaded.scenario, Options::default());
    let mut steps = 0u64;
    while sim.step() {
        check_instant(&sim, overcommitted);
        steps += 1;
        if steps.is_multiple_of(1024) {
            budget.check("simulation");
        }
    }
    let finished = sim.finish();
    check_end(&finished, horizon);
    let first = pipeline::output_of(&finished, pipeline::Product::ResultJson);
    let second = pipeline::produce(&loaded.scenario, pipeline::Product::ResultJson);
    assert!(
        first == second,
        "a second run of one scenario gives other bytes\n{text}"
    );
    budget.check("two runs");
});
