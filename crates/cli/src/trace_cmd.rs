//! `quotasim trace import CSV [options]` (SPEC 9, SPEC 11): a job trace to a scenario.

use std::fs::File;
use std::io::{self, BufReader, Read};

use quotalab_engine::input::digits::group_digits;
use quotalab_engine::trace::{self, ImportOptions, ImportReport};

use crate::choice::{LimitsArg, StrategyArg, TimeUnitArg};

/// The options of `quotasim trace import` (SPEC 11). Column options name a CSV header column.
#[derive(clap::Args, Debug, Clone)]
pub struct TraceImportArgs {
    /// The CSV job trace, with a header row (`-` = standard input).
    #[arg(value_name = "CSV")]
    pub csv: String,

    /// Submit time column: seconds, milliseconds with `--time-unit ms`, or
    /// `YYYY-MM-DD HH:MM:SS`. The earliest submit becomes time 0.
    #[arg(long, value_name = "COL")]
    pub submit: String,

    /// Unit of numeric times (submit, end and duration).
    #[arg(long, value_name = "s|ms", value_enum,
          default_value_t = TimeUnitArg(ImportOptions::DEFAULT_TIME_UNIT))]
    pub time_unit: TimeUnitArg,

    /// Run time column (in the time unit).
    #[arg(
        long,
        value_name = "COL",
        required_unless_present = "end",
        conflicts_with = "end"
    )]
    pub duration: Option<String>,

    /// End time column, in the submit column's format (duration = end - submit).
    #[arg(long, value_name = "COL")]
    pub end: Option<String>,

    /// GPUs per job column (default: 1 GPU per job).
    #[arg(long, value_name = "COL")]
    pub gpus: Option<String>,

    /// Share column: each distinct value is a quota share (default: one share `default`).
    #[arg(long, value_name = "COL")]
    pub share: Option<String>,

    /// Keep the N shares with most jobs and fold the rest into a share `other`.
    #[arg(long, value_name = "N", requires = "share")]
    pub top_shares: Option<usize>,

    /// Priority column: integers 0..=9999, or values mapped by `--priority-map`.
    #[arg(long, value_name = "COL")]
    pub priority: Option<String>,

    /// Priorities of the priority column's values, e.g. `LS=2,BE=0` (unmapped: row skipped).
    #[arg(long, value_name = "MAP", requires = "priority")]
    pub priority_map: Option<String>,

    /// Instance type of every job (a name from the engine's catalogue).
    #[arg(long, value_name = "NAME",
          default_value = ImportOptions::DEFAULT_INSTANCE_TYPE)]
    pub instance_type: String,

    /// GPUs per instance: a job's instances = ceil(gpus / K), at least 1.
    #[arg(long, value_name = "K", default_value_t = ImportOptions::DEFAULT_GPUS_PER_INSTANCE)]
    pub gpus_per_instance: u32,

    /// How the shares' limits split the capacity: by GPU demand, or evenly.
    #[arg(long, value_name = "proportional|equal", value_enum,
          default_value_t = LimitsArg(ImportOptions::DEFAULT_LIMITS))]
    pub limits: LimitsArg,

    /// Total instances (default: the trace's average load, at least its largest job).
    #[arg(long, value_name = "N")]
    pub capacity: Option<u64>,

    /// Strategy of every share.
    #[arg(long, value_name = "STRATEGY", value_enum,
          default_value_t = StrategyArg(ImportOptions::DEFAULT_STRATEGY))]
    pub strategy: StrategyArg,

    /// Borrow limit of every share, in percent of its limit (-1 = unlimited; only with
    /// LEND_AND_BORROW).
    #[arg(long, value_name = "PERCENT", allow_negative_numbers = true)]
    pub borrow_limit: Option<i64>,

    /// Stop reading after N imported jobs (the first N readable rows of the file).
    #[arg(long, value_name = "N")]
    pub limit_jobs: Option<usize>,
}

impl TraceImportArgs {
    /// The engine's import options for these arguments (SPEC 11).
    pub fn options(&self) -> Result<ImportOptions, Vec<String>> {
        let priority_map = match &self.priority_map {
            Some(text) => trace::parse_priority_map(text).map_err(|p| vec![p.to_string()])?,
            None => Vec::new(),
        };
        Ok(ImportOptions {
            name: scenario_name(&self.csv),
            submit: self.submit.clone(),
            time_unit: self.time_unit.0,
            duration: self.duration.clone(),
            end: self.end.clone(),
            gpus: self.gpus.clone(),
            share: self.share.clone(),
            top_shares: self.top_shares,
            priority: self.priority.clone(),
            priority_map,
            instance_type: self.instance_type.clone(),
            gpus_per_instance: self.gpus_per_instance,
            limits: self.limits.0,
            capacity: self.capacity,
            strategy: self.strategy.0.as_str().to_string(),
            borrow_limit: self.borrow_limit,
            limit_jobs: self.limit_jobs,
        })
    }
}

/// Runs `quotasim trace import` (SPEC 9, SPEC 11): reads the CSV (a file, or standard input
/// for `-`), prints a summary of the rows read and skipped and the import's warnings
/// (`warning: ...`) to standard error, and returns the scenario JSON, pretty-printed. Errors are returned as lines for standard error (exit 2).
pub fn run(args: &TraceImportArgs) -> Result<String, Vec<String>> {
    let opts = args.options()?;
    let input: Box<dyn Read> = if args.csv == "-" {
        Box::new(io::stdin().lock())
    } else {
        let file = File::open(&args.csv).map_err(|e| vec![format!("{}: {e}", args.csv)])?;
        Box::new(file)
    };
    let (scenario, report) = trace::import(BufReader::with_capacity(64 * 1024, input), &opts)
        .map_err(|p| vec![p.to_string()])?;
    let shares = scenario["shares"].as_array().map_or(0, Vec::len);
    for line in summary(&report, shares) {
        eprintln!("{line}");
    }
    serde_json::to_string_pretty(&scenario)
        .map_err(|e| vec![format!("cannot print the scenario: {e}")])
}

/// The report as lines for standard error (SPEC 11: skipped rows are counted on stderr):
/// `imported 82,247 jobs from 82,247 rows into 6 shares; skipped 0`, then the first reasons,
/// then one `warning: ...` line per import warning (SPEC 11).
pub fn summary(report: &ImportReport, shares: usize) -> Vec<String> {
    let mut lines = vec![format!(
        "imported {} {} from {} {} into {} {}; skipped {}",
        group_digits(report.imported),
        plural(report.imported, "job", "jobs"),
        group_digits(report.rows),
        plural(report.rows, "row", "rows"),
        shares,
        plural(shares as u64, "share", "shares"),
        group_digits(report.skipped)
    )];
    for problem in &report.first_problems {
        lines.push(format!("  skipped {problem}"));
    }
    let quoted = report.first_problems.len() as u64;
    if report.skipped > quoted {
        lines.push(format!(
            "  ... and {} more skipped rows",
            group_digits(report.skipped - quoted)
        ));
    }
    lines.extend(report.warnings.iter().map(|w| format!("warning: {w}")));
    lines
}

fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The scenario's name: `trace <file name>`, or `trace (stdin)`.
fn scenario_name(path: &str) -> String {
    if path == "-" {
        return "trace (stdin)".to_string();
    }
    let file = std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |f| f.to_string_lossy().into_owned());
    format!("trace {file}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use quotalab_engine::trace::{ImportWarning, LimitsMode, TimeUnit};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: TraceImportArgs,
    }

    fn parse(argv: &[&str]) -> Result<TraceImportArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("import").chain(argv.iter().copied())).map(|c| c.args)
    }

    #[test]
    fn every_spec_option_parses() {
        let a = parse(&[
            "t.csv",
            "--submit",
            "ts",
            "--time-unit",
            "ms",
            "--end",
            "te",
            "--gpus",
            "g",
            "--share",
            "team",
            "--top-shares",
            "5",
            "--priority",
            "class",
            "--priority-map",
            "LS=2,BE=0",
            "--instance-type",
            "ml.p4d.24xlarge",
            "--gpus-per-instance",
            "8",
            "--limits",
            "equal",
            "--capacity",
            "40",
            "--strategy",
            "LEND_AND_BORROW",
            "--borrow-limit",
            "-1",
            "--limit-jobs",
            "100",
        ])
        .unwrap();
        let o = a.options().unwrap();
        assert_eq!(o.name, "trace t.csv");
        assert_eq!(o.submit, "ts");
        assert_eq!(o.time_unit, TimeUnit::Millis);
        assert_eq!((o.duration, o.end.as_deref()), (None, Some("te")));
        assert_eq!(o.gpus.as_deref(), Some("g"));
        assert_eq!(o.share.as_deref(), Some("team"));
        assert_eq!(o.top_shares, Some(5));
        assert_eq!(o.priority.as_deref(), Some("class"));
        assert_eq!(
            o.priority_map,
            [("LS".to_string(), 2), ("BE".to_string(), 0)]
        );
        assert_eq!(o.instance_type, "ml.p4d.24xlarge");
        assert_eq!(o.gpus_per_instance, 8);
        assert_eq!(o.limits, LimitsMode::Equal);
        assert_eq!(o.capacity, Some(40));
        assert_eq!(o.strategy, "LEND_AND_BORROW");
        assert_eq!(o.borrow_limit, Some(-1));
        assert_eq!(o.limit_jobs, Some(100));
    }

    #[test]
    fn defaults_and_refusals() {
        let o = parse(&["-", "--submit", "s", "--duration", "d"])
            .unwrap()
            .options()
            .unwrap();
        assert_eq!(o.name, "trace (stdin)");
        assert_eq!(o.time_unit, TimeUnit::Seconds);
        assert_eq!(o.limits, LimitsMode::Proportional);
        assert_eq!(o.instance_type, "ml.g5.xlarge");
        assert_eq!(o.gpus_per_instance, 1);
        assert_eq!(o.strategy, "LEND_AND_BORROW");
        for bad in [
            &["t.csv", "--duration", "d"][..],
            &["t.csv", "--submit", "s"],
            &["t.csv", "--submit", "s", "--duration", "d", "--end", "e"],
            &[
                "t.csv",
                "--submit",
                "s",
                "--duration",
                "d",
                "--time-unit",
                "h",
            ],
            &[
                "t.csv",
                "--submit",
                "s",
                "--duration",
                "d",
                "--limits",
                "fair",
            ],
            &[
                "t.csv",
                "--submit",
                "s",
                "--duration",
                "d",
                "--strategy",
                "BORROW",
            ],
            &[
                "t.csv",
                "--submit",
                "s",
                "--duration",
                "d",
                "--top-shares",
                "3",
            ],
            &[
                "t.csv",
                "--submit",
                "s",
                "--duration",
                "d",
                "--priority-map",
                "a=1",
            ],
            &[
                "t.csv",
                "--submit",
                "s",
                "--duration",
                "d",
                "--capacity",
                "-3",
            ],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let a = parse(&[
            "t.csv",
            "--submit",
            "s",
            "--duration",
            "d",
            "--priority",
            "p",
            "--priority-map",
            "x",
        ])
        .unwrap();
        assert_eq!(a.options().unwrap_err().len(), 1);
    }

    #[test]
    fn a_missing_file_is_an_error_line() {
        let a = parse(&["/nonexistent/t.csv", "--submit", "s", "--duration", "d"]).unwrap();
        let lines = run(&a).unwrap_err();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].starts_with("/nonexistent/t.csv: "), "{lines:?}");
    }

    #[test]
    fn summary_lines() {
        let report = ImportReport {
            rows: 82_247,
            imported: 82_240,
            skipped: 7,
            first_problems: vec!["row 3: duration: empty".into()],
            reasons: vec![("duration: empty".into(), 7)],
            warnings: vec![],
        };
        assert_eq!(
            summary(&report, 6),
            [
                "imported 82,240 jobs from 82,247 rows into 6 shares; skipped 7",
                "  skipped row 3: duration: empty",
                "  ... and 6 more skipped rows",
            ]
        );
        let one = ImportReport {
            rows: 1,
            imported: 1,
            skipped: 0,
            first_problems: vec![],
            reasons: vec![],
            warnings: vec![ImportWarning::CapacityUnderPeak {
                capacity: 1,
                default: false,
                peak_instances: 2,
                peak_gpus: 2,
                at_ms: 0,
            }],
        };
        assert_eq!(
            summary(&one, 1),
            [
                "imported 1 job from 1 row into 1 share; skipped 0",
                "warning: the capacity, 1 instance, is under the trace's peak concurrent demand \
                 of 2 instances (2 GPUs, 0 s into the trace, if every job started on submit): \
                 jobs will queue at peaks; a capacity of 2 instances would cover the peak",
            ]
        );
    }
}
