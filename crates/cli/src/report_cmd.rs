//! `quotasim report FILE [--compare] [--review PROPOSED] [-o OUT]` (SPEC 14, 16): the scenario's report, one
//! self-contained HTML file (the scenario, each agreement beside its share's results, the
//! summary, the interruption-contract cards and every chart as SVG; with `--compare`, the
//! comparison with the partitioned and pooled policies of SPEC 9.1), written by the same
//! generator as the page's "Export report" (`quotalab_report::build_with`).

use std::path::PathBuf;

use crate::{print, read_input, warn, Failure};

#[derive(clap::Args)]
pub struct ReportArgs {
    /// Scenario JSON file, or - for standard input.
    file: String,
    /// Also compare the scenario with the partitioned (nobody lends or borrows) and pooled
    /// (everyone lends and borrows without limits) policies: the verdicts, the matched jobs
    /// and each share's table of the three policies, after the summary (as the page's
    /// report while its comparison is on).
    #[arg(long)]
    compare: bool,
    /// Also review a proposed configuration (AWS Batch JSON, Kueue YAML or a scenario) on
    /// this scenario's jobs, as `quotasim review FILE PROPOSED` does (SPEC 16).
    #[arg(long, value_name = "PROPOSED")]
    review: Option<String>,
    /// Write the report to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    out: Option<PathBuf>,
}

pub fn run(args: &ReportArgs) -> Result<(), Failure> {
    let text = read_input(&args.file)?;
    let review = match &args.review {
        Some(f) => Some((f.clone(), crate::config_cmd::read_bounded(f)?)),
        None => None,
    };
    let options = quotalab_report::Options {
        compare: args.compare,
        review,
    };
    let report = quotalab_report::build_with(&text, &options)?;
    warn(&report.warnings);
    match &args.out {
        None => print(&report.html),
        Some(path) => std::fs::write(path, report.html.as_bytes())
            .map_err(|e| Failure(vec![format!("error: cannot write {}: {e}", path.display())]))?,
    }
    Ok(())
}
