//! `quotasim review CURRENT PROPOSED [--jobs FILE] [--seeds N] [--fail-on RULE...] [--json]`
//! (SPEC 16, "Reviewing a change"): reads the files and prints what the engine's
//! `analysis::review` finds. Exit 0 when no rule is crossed, 1 when one is (one line per
//! share and rule crossed on stderr), 2 for any bad input or rule.

use std::io::{self, Write};

use quotalab_engine::analysis::review::{self, Input, JobsSource, ReviewOptions};
use quotalab_engine::config::{self, ImportOptions};
use rayon::prelude::*;

use crate::{print, read_input, warn, Failure};

/// The exit code of a review that crossed a `--fail-on` rule.
pub const CROSSED: i32 = 1;

#[derive(clap::Args)]
pub struct ReviewArgs {
    /// The configuration in use: AWS Batch JSON, Kueue YAML or a scenario (`-` = standard
    /// input).
    #[arg(value_name = "CURRENT")]
    current: String,
    /// The proposed configuration, in any of the same formats.
    #[arg(value_name = "PROPOSED")]
    proposed: String,
    /// A scenario whose workloads, jobs and events both configurations run (default:
    /// CURRENT's, when CURRENT is a scenario).
    #[arg(long, value_name = "FILE")]
    jobs: Option<String>,
    /// Seeds to run (seed, seed+1, ...); default 1 when nothing is random, else 10.
    #[arg(long, value_name = "N")]
    seeds: Option<u64>,
    /// Exit 1 when a share crosses RULE, METRIC OP THRESHOLD, e.g. 'deadline_misses>0' or
    /// 'completion_p90>+10%' (repeatable; OP >, <, >=, <=; a % threshold is a relative
    /// change, a number an absolute one in the metric's unit; METRIC: completion_p50,
    /// completion_p90, wait_mean, wait_p90 (s), deadline_misses, preemptions, borrowed_h,
    /// borrowed_fraction).
    #[arg(long = "fail-on", value_name = "RULE")]
    fail_on: Vec<String>,
    /// Print JSON (`quotalab-review/v1`) instead of the table.
    #[arg(long)]
    json: bool,
    /// Kueue files: the counted resource.
    #[arg(long, value_name = "NAME", default_value = ImportOptions::DEFAULT_RESOURCE)]
    resource: String,
    /// Kueue files: flavors as catalogue instance types, e.g. `a100=ml.p4d.24xlarge`.
    #[arg(long, value_name = "MAP")]
    flavor_map: Option<String>,
    /// AWS files: the job queue whose shares are compared (a name or an ARN).
    #[arg(long, value_name = "NAME")]
    queue: Option<String>,
}

/// Runs the review and prints it. A crossed rule ends the process with [`CROSSED`] once
/// everything is printed (the other commands know only 0 and 2).
pub fn run(args: &ReviewArgs) -> Result<(), Failure> {
    let mut problems = Vec::new();
    let mut rules = Vec::new();
    for r in &args.fail_on {
        match review::parse_rule(r) {
            Ok(rule) => rules.push(rule),
            Err(p) => problems.push(p),
        }
    }
    let flavor_map = match &args.flavor_map {
        Some(m) => match config::parse_flavor_map(m) {
            Ok(map) => map,
            Err(p) => {
                problems.push(p);
                Vec::new()
            }
        },
        None => Vec::new(),
    };
    if !problems.is_empty() {
        return Err(problems.into());
    }
    let stdin_uses = [
        Some(&args.current),
        Some(&args.proposed),
        args.jobs.as_ref(),
    ]
    .iter()
    .filter(|f| f.is_some_and(|f| f == "-"))
    .count();
    if stdin_uses > 1 {
        return Err(Failure(vec![
            "error: only one of CURRENT, PROPOSED and --jobs may be - (standard input)".into(),
        ]));
    }
    // Read as `run` reads a scenario; the engine bounds configuration files (SPEC 13).
    let current = read_input(&args.current)?;
    let proposed = read_input(&args.proposed)?;
    let jobs_text = match &args.jobs {
        Some(f) => Some(read_input(f)?),
        None => None,
    };
    let jobs = match (&args.jobs, &jobs_text) {
        (Some(name), Some(text)) => JobsSource::Scenario(Input { name, text }),
        _ => JobsSource::Current,
    };
    let opts = ReviewOptions {
        seeds: args.seeds,
        import: ImportOptions {
            queue: args.queue.clone(),
            resource: args.resource.clone(),
            flavor_map,
        },
        rules,
        // Jobs of a share PROPOSED lacks are refused, naming them (SPEC 13 `--into`).
        unknown: Default::default(),
    };
    let plan = review::Plan::new(
        Input {
            name: &args.current,
            text: &current,
        },
        Input {
            name: &args.proposed,
            text: &proposed,
        },
        jobs,
        &opts,
    )?;
    // Each seed's two runs on a core of their own; the review reads them in seed order.
    let runs = (0..plan.seeds().len())
        .into_par_iter()
        .map(|k| plan.run(k))
        .collect::<Result<Vec<_>, _>>()?;
    let result = plan.finish(runs);
    warn(&result.warnings);
    print(&if args.json {
        review::json_text(&result)
    } else {
        review::table_text(&result)
    });
    if result.failed() {
        let mut err = io::stderr().lock();
        for c in &result.crossings {
            let _ = writeln!(err, "crossed: {}", review::crossing_line(c));
        }
        let _ = err.flush();
        std::process::exit(CROSSED);
    }
    Ok(())
}
