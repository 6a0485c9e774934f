//! The simulation's own cost on a scenario file, without the CLI (docs/PERFORMANCE.md, "Kueue
//! against AWS"): validates the file once, then runs the metrics-only product (the CLI's
//! `--summary`) `N` times (default 1) and prints each run's time and the Kueue model's cycles
//! (walked one by one, done at once) and heads set aside by counting (`simulation::drained`).
//!
//! `cargo run --release -p quotalab-engine --example sim_cost -- FILE [N]`; profile it with
//! `perf record -g target/release/examples/sim_cost FILE` or callgrind.

use std::time::Instant;

use quotalab_engine::input::validate;
use quotalab_engine::simulation::{Options, Sim};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: sim_cost FILE [N]");
        std::process::exit(2);
    };
    let n: usize = args.next().map_or(1, |a| a.parse().expect("N is a count"));
    let text = std::fs::read_to_string(&path).expect("a readable scenario file");
    let loaded = match validate::load(&text) {
        Ok(l) => l,
        Err(problems) => {
            for p in problems {
                eprintln!("{p}");
            }
            std::process::exit(1);
        }
    };
    for _ in 0..n {
        let t = Instant::now();
        let done = Sim::new(&loaded.scenario, Options::summary()).run();
        let (walked, skipped) = done.kueue_cycles();
        println!(
            "{:.3} s, {} events, cycles walked {walked}, done at once {skipped}, \
             heads of drained shares counted {}",
            t.elapsed().as_secs_f64(),
            done.event_count(),
            done.kueue_drained()
        );
    }
}
