//! `quotasim`: the Quota Lab engine on the command line (SPEC 9). A thin shell: it reads
//! files, calls the engine and prints; every rule lives in `quotalab-engine`.
//!
//! Exit codes: 0 success; 2 for any bad input (scenario, link, trace, usage), with one line
//! per problem on stderr; `review` exits 1 when a `--fail-on` rule is crossed. Never a panic
//! or a backtrace, whatever the input.

use std::io::{self, Read, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use quotalab_engine::pipeline::{self, Product, RunOptions};
use quotalab_engine::{compare, link, Problem};

mod choice;
mod config_cmd;
mod report_cmd;
mod review_cmd;
mod sweep_cmd;
mod trace_cmd;

/// mimalloc rather than the system allocator: a run allocates and frees many small blocks
/// (the scenario's JSON tree, queues), and glibc's malloc spent ~7% of the whole Philly run
/// on them (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's C API (linked through the `mimalloc` crate's `libmimalloc-sys`).
extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    fn mi_collect(force: bool);
}

/// mimalloc's `mi_option_purge_delay` (`mimalloc.h` of the linked mimalloc v3).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// Memory a run frees (loading's temporaries, finished queues) goes back to the system at
/// once instead of after mimalloc's default 10 ms: a million-job run's peak resident
/// memory is then 194 MB, not 201 MB, at no measurable cost in time (docs/PERFORMANCE.md).
/// An explicit `MIMALLOC_PURGE_DELAY` in the environment still wins.
fn purge_freed_memory_at_once() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's documented options (an integer); no memory is
        // touched, and mimalloc reads its options atomically.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    }
}

/// Memory freed while a job history's records are read stays with mimalloc for the next
/// records (until [`records_read`]): a history of 100,000 Workloads parses and drops one
/// record at a time, and purging at once made the system zero the same pages again and
/// again (15% of the import's time, as `clear_page` under `perf`). No transparent huge
/// pages meanwhile ([`no_huge_pages`]). An explicit `MIMALLOC_PURGE_DELAY` in the
/// environment still wins.
pub(crate) fn keep_freed_memory() {
    no_huge_pages();
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: as in `purge_freed_memory_at_once`.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    }
}

/// A history's records are read: the memory their reading freed goes back to the system,
/// and from here memory is freed at once, as in a run. The import that follows (its jobs,
/// warnings and scenario text) then peaks at 197 MB for 100,000 Workloads, not 258 MB with
/// everything freed kept. An explicit `MIMALLOC_PURGE_DELAY` in the environment still wins.
pub(crate) fn records_read() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        purge_freed_memory_at_once();
        // SAFETY: mimalloc's documented call to purge what is free now; no live memory is
        // touched.
        unsafe { mi_collect(true) };
    }
}

/// No transparent huge pages for this process (Linux; `MIMALLOC_ALLOW_THP` in the
/// environment still wins): mimalloc asks for them, and the kernel zeroing (and finding)
/// 2 MiB at each first touch was 0.6-0.9 s of system time in importing a 100,000-Workload
/// history, 0.2 s with 4 KiB pages.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none() {
        use std::ffi::{c_int, c_ulong};
        extern "C" {
            fn prctl(option: c_int, ...) -> c_int;
        }
        const PR_SET_THP_DISABLE: c_int = 41;
        // SAFETY: prctl(2)'s PR_SET_THP_DISABLE takes four unsigned longs and only sets a
        // flag of this process; its result is not needed (THP stays allowed on failure).
        unsafe {
            prctl(
                PR_SET_THP_DISABLE,
                1 as c_ulong,
                0 as c_ulong,
                0 as c_ulong,
                0 as c_ulong,
            )
        };
    }
}

#[derive(Parser)]
#[command(
    name = "quotasim",
    version,
    about = "Simulate GPU quota shares (AWS Batch quota shares / Kueue cohorts)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Simulate a scenario; print the result JSON (or a table with --summary).
    Run {
        /// Scenario JSON file, or - for standard input.
        file: String,
        /// Print an aligned per-share table instead of JSON.
        #[arg(long)]
        summary: bool,
    },
    /// Check a scenario; print its warnings.
    Validate {
        /// Scenario JSON file, or - for standard input.
        file: String,
    },
    /// Simulate the scenario as given, partitioned (all RESERVE) and pooled (all LEND_AND_BORROW).
    Compare {
        /// Scenario JSON file, or - for standard input.
        file: String,
        /// Print a table of the three policies instead of JSON.
        #[arg(long)]
        summary: bool,
    },
    /// Run the scenario over ranges of values and seeds; print one JSON line per run (SPEC 15).
    Sweep(Box<sweep_cmd::SweepArgs>),
    /// Write the scenario's report: one self-contained HTML file (SPEC 14).
    Report(report_cmd::ReportArgs),
    /// Share links: a scenario as a URL-fragment payload, and back.
    #[command(subcommand)]
    Link(LinkCommand),
    /// Job traces: turn a cluster's job log into a scenario.
    #[command(subcommand)]
    Trace(TraceCommand),
    /// Real configurations in: AWS Batch JSON or Kueue YAML to a scenario; a job history
    /// (Kueue Workloads, AWS Batch jobs) to its jobs.
    #[command(subcommand)]
    Import(config_cmd::ImportCommand),
    /// A scenario's shares out: AWS Batch JSON (or a script) or Kueue YAML.
    #[command(subcommand)]
    Export(config_cmd::ExportCommand),
    /// Compare two configurations on the same jobs, per share; exit 1 on a --fail-on rule (SPEC 16).
    Review(Box<review_cmd::ReviewArgs>),
}

#[derive(Subcommand)]
enum LinkCommand {
    /// Print the share-link payload of a scenario.
    Encode {
        /// Scenario JSON file, or - for standard input.
        file: String,
    },
    /// Print the scenario JSON of a payload, `#s=PAYLOAD` or a whole URL.
    Decode {
        /// The link text.
        text: String,
    },
}

#[derive(Subcommand)]
enum TraceCommand {
    /// Import a CSV job trace as a scenario (SPEC 11).
    Import(Box<trace_cmd::TraceImportArgs>),
}

/// Failure: lines for stderr; exit code 2.
struct Failure(Vec<String>);

impl From<Vec<Problem>> for Failure {
    fn from(p: Vec<Problem>) -> Failure {
        Failure(p.iter().map(|p| format!("error: {p}")).collect())
    }
}

impl From<Problem> for Failure {
    fn from(p: Problem) -> Failure {
        Failure(vec![format!("error: {p}")])
    }
}

fn read_input(file: &str) -> Result<String, Failure> {
    let mut text = String::new();
    let res = if file == "-" {
        io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(file).map(|t| text = t)
    };
    res.map_err(|e| Failure(vec![format!("error: cannot read {file}: {e}")]))?;
    Ok(text)
}

fn load(file: &str) -> Result<quotalab_engine::Loaded, Failure> {
    let text = read_input(file)?;
    let loaded = quotalab_engine::load(&text)?;
    Ok(loaded)
}

fn warn(warnings: &[Problem]) {
    // Standard error is not buffered: a history's 70,000 warnings were as many writes each.
    let mut err = io::BufWriter::new(io::stderr().lock());
    for w in warnings {
        let _ = writeln!(err, "warning: {w}");
    }
    let _ = err.flush();
}

/// Per-job warnings of one kind past this many (a month of history: tens of thousands of
/// jobs still pending at its end) are counted after the first ones, not each printed.
pub const JOB_WARNINGS_SHOWN: usize = 100;

/// The warnings, each job warning kind ([`job_warning_kind`]) past [`JOB_WARNINGS_SHOWN`]
/// counted in one line at the end (`all`: every one printed).
fn warn_jobs(warnings: &[Problem], all: bool) {
    if all {
        return warn(warnings);
    }
    let mut err = io::BufWriter::new(io::stderr().lock());
    // Per kind: how many seen, and the first one's line.
    let mut kinds: Vec<(String, usize, String)> = Vec::new();
    for w in warnings {
        let Some(kind) = job_warning_kind(w) else {
            let _ = writeln!(err, "warning: {w}");
            continue;
        };
        let line = w.to_string();
        let at = match kinds.iter().position(|(k, ..)| *k == kind) {
            Some(i) => i,
            None => {
                kinds.push((kind, 0, line.clone()));
                kinds.len() - 1
            }
        };
        kinds[at].1 += 1;
        if kinds[at].1 <= JOB_WARNINGS_SHOWN {
            let _ = writeln!(err, "warning: {line}");
        }
    }
    for (_, n, first) in kinds {
        if n > JOB_WARNINGS_SHOWN {
            let (file, rest) = first.split_once(": ").unwrap_or(("", &first));
            // "job ID was still pending ...: work_s 1" -> "was still pending ..."
            let like = rest
                .split_once(" was ")
                .map_or(rest, |(_, r)| r)
                .split(':')
                .next()
                .unwrap_or_default();
            let _ = writeln!(
                err,
                "warning: {file}: and {} more jobs with a warning like the first {JOB_WARNINGS_SHOWN} above (was {like}); --all-warnings prints each",
                n - JOB_WARNINGS_SHOWN
            );
        }
    }
    let _ = err.flush();
}

/// A warning about one job of a history (SPEC 16: still running or pending at its end, or
/// evicted), by kind: its words with the numbers left out; `None` for other warnings.
fn job_warning_kind(w: &Problem) -> Option<String> {
    let o = w.object.as_ref()?;
    let about_a_job =
        o.names.len() == 1 && (o.unfinished.is_some() || o.what.starts_with("was evicted"));
    about_a_job.then(|| o.what.chars().filter(|c| !c.is_ascii_digit()).collect())
}

/// The product of `run` and `compare`: the result JSON, or the table with `--summary`.
fn product(summary: bool) -> Product {
    if summary {
        Product::SummaryTable
    } else {
        Product::ResultJson
    }
}

/// Prints to stdout, ignoring a closed pipe (e.g. `| head`).
fn print(text: &str) {
    let mut out = io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = out.write_all(b"\n");
    }
    let _ = out.flush();
}

fn execute(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Run { file, summary } => {
            let text = read_input(&file)?;
            let opts = RunOptions {
                product: product(summary),
                ..RunOptions::default()
            };
            let run = pipeline::run(&text, &opts)?;
            warn(&run.warnings);
            print(&run.output.into_text().unwrap_or_default());
        }
        Command::Validate { file } => {
            let loaded = load(&file)?;
            warn(&loaded.warnings);
            print(&loaded.valid_line());
        }
        Command::Compare { file, summary } => {
            let text = read_input(&file)?;
            let comparison = compare::run(&text, product(summary))?;
            warn(&comparison.warnings);
            print(&if summary {
                compare::summary_text(comparison)
            } else {
                compare::json_text(comparison)
            });
        }
        Command::Sweep(args) => sweep_cmd::run(&args)?,
        Command::Report(args) => report_cmd::run(&args)?,
        Command::Link(LinkCommand::Encode { file }) => {
            let text = read_input(&file)?;
            // Only valid scenarios become links: a link that cannot open is worse than none.
            let loaded = quotalab_engine::load(&text)?;
            warn(&loaded.warnings);
            print(&link::encode(&text)?);
        }
        Command::Link(LinkCommand::Decode { text }) => {
            print(&link::decode(&text)?);
        }
        Command::Trace(TraceCommand::Import(args)) => {
            let json = trace_cmd::run(&args).map_err(Failure)?;
            print(&json);
        }
        Command::Import(cmd) => config_cmd::import(cmd)?,
        Command::Export(cmd) => config_cmd::export(cmd)?,
        Command::Review(args) => review_cmd::run(&args)?,
    }
    Ok(())
}

fn main() -> ExitCode {
    purge_freed_memory_at_once();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match execute(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(lines)) => {
            let mut err = io::stderr().lock();
            for l in lines {
                let _ = writeln!(err, "{l}");
            }
            ExitCode::from(2)
        }
    }
}
