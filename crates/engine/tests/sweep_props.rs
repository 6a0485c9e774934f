//! SPEC 15 property: every line of a sweep carries exactly the metrics (`shares`, `totals`)
//! of a plain run (`quotasim run`, the result JSON with events and series) of its variant,
//! on small random scenarios, paths and ranges, with more than one seed.

use proptest::prelude::*;
use quotalab_engine::analysis::sweep::{parse_vary, Sweep};
use quotalab_engine::run_json;
use serde_json::{json, Value};

const T: &str = "ml.g5.xlarge";

/// A path to vary, its range, and where the test itself puts a value (independently of
/// the engine's path resolution).
#[derive(Clone, Debug)]
enum Knob {
    Limit(usize),
    Borrow(usize),
    Interval,
    Rate,
    Count,
}

impl Knob {
    fn arg(&self) -> String {
        match self {
            Knob::Limit(s) => format!("shares[{s}].limits.{T}=0..3:1"),
            Knob::Borrow(s) => format!("shares[{s}].borrow_limit=0..200:100"),
            Knob::Interval => "workloads[0].checkpoint.interval_s=60..600:270".into(),
            Knob::Rate => "workloads[0].arrival.poisson_per_hour=0.5..2:0.5".into(),
            Knob::Count => "workloads[0].count=1..7:3".into(),
        }
    }
    fn path(&self) -> String {
        self.arg().split_once('=').unwrap().0.to_string()
    }
    fn set(&self, doc: &mut Value, v: &Value) {
        let slot = match self {
            Knob::Limit(s) => &mut doc["shares"][*s]["limits"][T],
            Knob::Borrow(s) => &mut doc["shares"][*s]["borrow_limit"],
            Knob::Interval => &mut doc["workloads"][0]["checkpoint"]["interval_s"],
            Knob::Rate => &mut doc["workloads"][0]["arrival"]["poisson_per_hour"],
            Knob::Count => &mut doc["workloads"][0]["count"],
        };
        *slot = v.clone();
    }
}

#[derive(Clone, Debug)]
struct Gen {
    strategies: Vec<u8>,
    capacity: u64,
    jobs: Vec<(usize, u64, u64, u64)>,
    contract: bool,
    deadline: bool,
    knobs: Vec<Knob>,
    seeds: u64,
}

fn gen() -> impl Strategy<Value = Gen> {
    (
        proptest::collection::vec(0u8..3, 1..4),
        1u64..6,
        any::<bool>(),
        any::<bool>(),
        1u64..4,
    )
        .prop_flat_map(|(strategies, capacity, contract, deadline, seeds)| {
            let n = strategies.len();
            let borrowers: Vec<usize> = (0..n).filter(|&i| strategies[i] == 2).collect();
            let mut knobs = vec![
                (0..n).prop_map(Knob::Limit).boxed(),
                Just(Knob::Interval).boxed(),
                Just(Knob::Rate).boxed(),
                Just(Knob::Count).boxed(),
            ];
            if !borrowers.is_empty() {
                knobs.push(
                    proptest::sample::select(borrowers)
                        .prop_map(Knob::Borrow)
                        .boxed(),
                );
            }
            (
                Just((strategies, capacity, contract, deadline, seeds)),
                proptest::collection::vec((0..n, 0u64..600, 30u64..900, 1u64..3), 0..6),
                proptest::collection::vec(proptest::strategy::Union::new(knobs), 1..3),
            )
        })
        .prop_map(
            |((strategies, capacity, contract, deadline, seeds), jobs, mut knobs)| {
                // One knob per path.
                let mut seen = Vec::new();
                knobs.retain(|k| {
                    let p = k.path();
                    let fresh = !seen.contains(&p);
                    seen.push(p);
                    fresh
                });
                Gen {
                    strategies,
                    capacity,
                    jobs,
                    contract,
                    deadline,
                    knobs,
                    seeds,
                }
            },
        )
}

fn scenario(g: &Gen) -> Value {
    let names = ["RESERVE", "LEND", "LEND_AND_BORROW"];
    let shares: Vec<Value> = g
        .strategies
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let mut v = json!({"name": format!("s{i}"), "limits": {T: 1},
                "strategy": names[s as usize], "in_share_preemption": i % 2 == 0});
            if s == 2 {
                v["borrow_limit"] = json!(100);
            }
            v
        })
        .collect();
    let jobs: Vec<Value> = g
        .jobs
        .iter()
        .enumerate()
        .map(|(i, &(share, submit, work, instances))| {
            let mut v = json!({"id": format!("j{i}"), "share": format!("s{share}"),
                "instance_type": T, "instances": instances, "priority": i % 3,
                "submit_s": submit, "work_s": work});
            if g.deadline {
                v["deadline_s"] = json!(work * 2);
            }
            v
        })
        .collect();
    let mut workload = json!({"share": "s0", "count": 4, "arrival": {"poisson_per_hour": 3},
        "instance_type": T, "instances": 1,
        "work_s": {"lognormal": {"median": 900, "sigma": 0.8}}, "priority": {"choice": [[0, 1], [2, 1]]},
        "checkpoint": {"interval_s": 300, "cost_s": 10, "restore_s": 30}});
    if g.contract {
        workload["recovery"] = json!({"restore_failure": 0.3});
    }
    let mut doc = json!({"format": "quotalab/v1", "seed": 11, "capacity": {T: g.capacity},
        "queue": {"queueing": "best_effort_fifo", "preemption_grace_s": 30},
        "shares": shares, "jobs": jobs, "workloads": [workload]});
    if g.contract {
        doc["alarms"] = json!({});
    }
    doc
}

/// `shares` and `totals` of a result or a line, as their bytes.
fn metrics(v: &Value) -> (String, String) {
    (v["shares"].to_string(), v["totals"].to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn every_line_has_the_metrics_of_a_plain_run_of_its_variant(g in gen()) {
        let doc = scenario(&g);
        let text = doc.to_string();
        let varies = g.knobs.iter().map(|k| parse_vary(&k.arg()).unwrap()).collect();
        let sweep = Sweep::new(&text, varies, g.seeds).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        sweep.check_all().map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        for r in 0..sweep.runs() {
            let line: Value = serde_json::from_str(&sweep.run(r).unwrap().line).unwrap();
            let mut variant = doc.clone();
            for k in &g.knobs {
                k.set(&mut variant, &line["values"][k.path()]);
            }
            let seed = 11 + (r as u64 % g.seeds);
            prop_assert_eq!(&line["seed"], &json!(seed));
            variant["seed"] = json!(seed);
            let result: Value = serde_json::from_str(&run_json(&variant.to_string()).unwrap()).unwrap();
            prop_assert_eq!(metrics(&line), metrics(&result), "run {} of {}", r, variant);
        }
    }
}
