//! Engine benchmark (`cargo bench -p quotalab-engine`): wall time and peak memory of whole
//! runs, recorded in docs/PERFORMANCE.md. Not a micro-benchmark: each case validates,
//! generates and simulates a scenario end to end, as `quotasim run --summary` does.
//!
//! Cases: generated mixes of 250,000 and 1,000,000 jobs over 20 shares (linearity: 4x the
//! jobs should take at most 5x the time), and the whole Philly trace imported into 8 shares.
//! `BENCH_QUICK=1` runs only the smaller case.

use std::time::Instant;

use quotalab_engine::{load, result, simulate, trace, Options};
use serde_json::{json, Value};

/// The allocator `quotasim` runs with (crates/cli/src/main.rs), so the figures are its.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const T: &str = "ml.g5.xlarge";

/// 20 shares (LEND_AND_BORROW 200%, LEND, RESERVE, ...; in-share preemption on every other
/// one), each with a Poisson mix near its 10-instance entitlement: reclaims, in-share
/// preemptions, checkpoints and long queues all happen.
pub fn generated(jobs: u64) -> Value {
    let strategies = ["LEND_AND_BORROW", "LEND", "RESERVE", "LEND_AND_BORROW"];
    let per = jobs / 20;
    let shares: Vec<Value> = (0..20)
        .map(|i| {
            let mut s = json!({"name": format!("team{i:02}"), "limits": {T: 10}, "strategy": strategies[i % 4],
                "in_share_preemption": i % 2 == 0});
            if i % 4 == 0 || i % 4 == 3 {
                s["borrow_limit"] = json!(200);
            }
            s
        })
        .collect();
    let workloads: Vec<Value> = (0..20)
        .map(|i| {
            json!({"share": format!("team{i:02}"), "count": per, "arrival": {"poisson_per_hour": 9.5},
                "instance_type": T, "instances": {"choice": [[1, 8], [2, 1], [4, 1]]},
                "work_s": {"lognormal": {"median": 2400, "sigma": 1.0}},
                "priority": {"choice": [[0, 3], [1, 1], [5, 1]]}, "startup_s": 60,
                "checkpoint": {"interval_s": 1800, "cost_s": 30, "restore_s": 60}, "checkpoint_on_preempt": true})
        })
        .collect();
    json!({"format": "quotalab/v1", "name": format!("generated {jobs} jobs"), "seed": 1, "capacity": {T: 200},
        "queue": {"preemption_grace_s": 60}, "shares": shares, "workloads": workloads})
}

/// Peak resident memory of this process so far, in MB (Linux; 0 elsewhere).
fn peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|kb| kb.parse::<f64>().ok())
            })
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Validates and simulates (metrics only), returning seconds and a one-line summary.
fn run(text: &str) -> (f64, String) {
    let start = Instant::now();
    let loaded = load(text).expect("valid scenario");
    let sim = simulate(&loaded.scenario, Options::summary());
    let secs = start.elapsed().as_secs_f64();
    let (_, total) = result::stats(&sim);
    let line = format!(
        "{} jobs, {} events, {} preemptions ({} reclaim, {} in-share)",
        total.jobs.submitted,
        sim.event_count(),
        total.reclaim + total.in_share,
        total.reclaim,
        total.in_share
    );
    (secs, line)
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` passes nothing useful: ignore args.
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let sizes: &[u64] = if quick {
        &[250_000]
    } else {
        &[250_000, 1_000_000]
    };
    let mut times = Vec::new();
    for &n in sizes {
        let text = generated(n).to_string();
        let (secs, line) = run(&text);
        println!(
            "generated {n:>9} jobs / 20 shares: {secs:6.2} s  ({line}); peak RSS so far {:.0} MB",
            peak_mb()
        );
        times.push(secs);
    }
    if times.len() == 2 {
        println!(
            "linearity: 4x the jobs took {:.2}x the time (target <= 5x)",
            times[1] / times[0]
        );
    }
    let philly = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/traces/philly-adaptdl.csv"
    );
    match std::fs::File::open(philly) {
        Ok(f) => {
            let opts = trace::ImportOptions {
                submit: "timestamp".into(),
                duration: Some("duration".into()),
                gpus: Some("num_gpus".into()),
                share: Some("cluster".into()),
                top_shares: Some(7),
                instance_type: "ml.p4d.24xlarge".into(),
                gpus_per_instance: 8,
                capacity: Some(64),
                ..trace::ImportOptions::default()
            };
            let start = Instant::now();
            let (scenario, report) =
                trace::import(std::io::BufReader::new(f), &opts).expect("philly imports");
            let import = start.elapsed().as_secs_f64();
            let (secs, line) = run(&scenario.to_string());
            println!(
                "philly trace, {} rows into 8 shares: import {import:.2} s + run {secs:.2} s ({line})",
                report.rows
            );
        }
        Err(_) => println!("philly trace not found at {philly}: skipped"),
    }
}
