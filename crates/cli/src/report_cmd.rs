//! `quotasim report FILE [-o OUT]` (SPEC 14): the scenario's report, one self-contained
//! HTML file (the scenario, each agreement beside its share's results, the summary, the
//! interruption-contract cards and every chart as SVG), written by the same generator as
//! the page's "Export report" (`quotalab_report::build`).

use std::path::PathBuf;

use crate::{print, read_input, warn, Failure};

#[derive(clap::Args)]
pub struct ReportArgs {
    /// Scenario JSON file, or - for standard input.
    file: String,
    /// Write the report to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    out: Option<PathBuf>,
}

pub fn run(args: &ReportArgs) -> Result<(), Failure> {
    let text = read_input(&args.file)?;
    let report = quotalab_report::build(&text)?;
    warn(&report.warnings);
    match &args.out {
        None => print(&report.html),
        Some(path) => std::fs::write(path, report.html.as_bytes())
            .map_err(|e| Failure(vec![format!("error: cannot write {}: {e}", path.display())]))?,
    }
    Ok(())
}
