//! `quotasim sweep FILE --vary PATH=FROM..TO:STEP [--vary ...] [--seeds N] [--jobs N]
//! [--summary]` (SPEC 15): the scenario for every value and seed, one JSON line per run (or
//! per value with `--summary`), through the engine's `sweep` module.
//!
//! Every variant is validated before anything runs (exit 2 naming the path). The runs go on
//! `--jobs` threads (every core by default) in chunks, and each chunk is printed in run order
//! (value index, then seed), so the output is the same bytes whatever the thread count. A
//! progress bar shows on stderr when it is a terminal.

use std::io::{self, IsTerminal, Write};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use quotalab_engine::analysis::sweep::{self, Outcome, Sweep};
use rayon::prelude::*;

use crate::{read_input, warn, Failure};

#[derive(clap::Args)]
pub struct SweepArgs {
    /// Scenario JSON file, or - for standard input.
    file: String,
    /// A validation path and an inclusive range, e.g. `shares[0].borrow_limit=0..200:50`
    /// (repeat for a grid: every combination is run).
    #[arg(long, value_name = "PATH=FROM..TO:STEP")]
    vary: Vec<String>,
    /// Seeds per value: the scenario's seed, seed+1, ...
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    seeds: u64,
    /// Runs in parallel (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    jobs: Option<u64>,
    /// Per value and share: median and 10th-90th percentile band over the seeds of
    /// completion p90, goodput, lost hours and deadline misses.
    #[arg(long)]
    summary: bool,
}

pub fn run(args: &SweepArgs) -> Result<(), Failure> {
    let text = read_input(&args.file)?;
    let mut problems = Vec::new();
    let mut varies = Vec::new();
    for a in &args.vary {
        match sweep::parse_vary(a) {
            Ok(v) => varies.push(v),
            Err(p) => problems.push(p),
        }
    }
    if !problems.is_empty() {
        return Err(problems.into());
    }
    let plan = Sweep::new(&text, varies, args.seeds)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0) as usize)
        .build()
        .map_err(|e| Failure(vec![format!("error: cannot start threads: {e}")]))?;
    pool.install(|| execute(&plan, args.summary))
}

fn execute(plan: &Sweep, summary: bool) -> Result<(), Failure> {
    let chunk = sweep::chunk_len(rayon::current_num_threads());
    let runs = plan.runs();
    // Every variant first: nothing runs unless all of them are valid.
    let warnings = plan.check_chunked(chunk, |range| {
        range.into_par_iter().map(|r| plan.check(r)).collect()
    })?;
    warn(&warnings);

    let bar = progress(runs);
    let run = |r: usize| {
        let o = plan.run(r);
        bar.0.inc(1);
        o
    };
    let mut out = io::stdout().lock();
    if summary {
        let seeds = plan.seeds() as usize;
        let per = (chunk / seeds).max(1);
        for start in (0..plan.points()).step_by(per) {
            let points = start..(start + per).min(plan.points());
            let outcomes: Vec<Outcome> = (points.start * seeds..points.end * seeds)
                .into_par_iter()
                .map(run)
                .collect::<Result<_, _>>()?;
            for (p, seeds_of) in points.zip(outcomes.chunks(seeds)) {
                if writeln!(out, "{}", plan.summary_line(p, seeds_of)).is_err() {
                    return Ok(()); // a closed pipe (e.g. `| head`)
                }
            }
        }
    } else {
        for start in (0..runs).step_by(chunk) {
            let lines: Vec<Outcome> = (start..(start + chunk).min(runs))
                .into_par_iter()
                .map(run)
                .collect::<Result<_, _>>()?;
            for o in lines {
                if writeln!(out, "{}", o.line).is_err() {
                    return Ok(());
                }
            }
        }
    }
    let _ = out.flush();
    Ok(())
}

/// The progress bar, cleared however the sweep ends (done, a closed pipe, an error).
struct Bar(ProgressBar);

impl Drop for Bar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// A bar on stderr when it is a terminal and the sweep has more than one run; hidden
/// otherwise (a pipe or a log gets no escape codes).
fn progress(runs: usize) -> Bar {
    let target = if io::stderr().is_terminal() && runs > 1 {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(runs as u64), target);
    if let Ok(style) =
        ProgressStyle::with_template("sweep {bar:40} {pos}/{len} runs, {elapsed} (eta {eta})")
    {
        bar.set_style(style);
    }
    Bar(bar)
}
