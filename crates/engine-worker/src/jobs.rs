//! The engine's one-shot answers beside runs: a [`Job`] asked of an engine worker and the
//! [`Answer`] it gives, with [`serve`], which answers one on the current thread (the worker
//! does, and so do the page's component tests, which have no worker). Each answer is one
//! engine function's: SPEC 9.1's comparison (`compare::run`, with the SPEC 14 forecast),
//! SPEC 11's CSV trace import (`trace::import`), SPEC 14's report (`quotalab_report`) and
//! SPEC 13's configurations ([`crate::config::handle`]).

use quotalab_engine::analysis::compare::{self, Comparison, Policy};
use quotalab_engine::analysis::matched::Matched;
use quotalab_engine::digest::Segments;
use quotalab_engine::digest::{Digest, DigestLimits, ShareMetrics};
use quotalab_engine::pipeline::{Output, Product};
use quotalab_engine::trace::{self, ImportOptions, ImportReport, ImportWarning};
use quotalab_engine::Problem;
use quotalab_report::timeline::{self, Moment, WholeRun};
use serde::{Deserialize, Serialize};

use crate::config;
pub use crate::protocol::RunFile;

/// What the page asks an engine worker that is not a run.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// SPEC 13: a configuration imported or exported.
    Config(config::Request),
    /// SPEC 9.1: the scenario as given, partitioned and pooled, each digested within
    /// `limits` (the contract card's forecast asks the fewest points).
    Compare {
        scenario: String,
        limits: DigestLimits,
    },
    /// SPEC 11: a CSV trace read as a scenario.
    TraceImport {
        csv: Vec<u8>,
        options: ImportOptions,
    },
    /// SPEC 11: what importing the trace would warn about (`trace::check`), as the form
    /// changes.
    TraceCheck {
        csv: Vec<u8>,
        options: ImportOptions,
    },
    /// SPEC 14: the self-contained HTML report, with SPEC 9.1's comparison when `compare`.
    Report {
        scenario: String,
        compare: bool,
        /// SPEC 16: a proposal (file name, text) reviewed on the scenario's jobs.
        review: Option<(String, String)>,
    },
    /// A file of the scenario's run: SPEC 8's result JSON (`quotasim run`) or a table
    /// as CSV, whole.
    RunFile { scenario: String, file: RunFile },
    /// SPEC 10: the share link's payload of the scenario.
    Link { scenario: String },
    /// SPEC 7: whether a scenario (a file or a link opened) is valid.
    Check { scenario: String },
    /// The timeline of the scenario's run from its whole event log (issue #30); the worker
    /// keeps the run for [`Job::Moment`].
    Timeline { scenario: String },
    /// The moment `t_s` of the whole run kept under `key` ([`Job::Timeline`]).
    Moment { key: u64, t_s: f64 },
}

/// An engine worker's answer to a [`Job`].
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Config(config::Response),
    /// The comparison, or every problem of the scenario.
    Compared(Result<Comparison, Vec<Problem>>),
    /// The imported scenario, or the one problem that stopped the import.
    TraceImported(Result<TraceImported, Problem>),
    /// The import's warnings, or the one problem that would stop it.
    TraceChecked(Result<Vec<ImportWarning>, Problem>),
    /// The report's HTML, or every problem of the scenario (as text).
    Report(Result<FileText, Vec<String>>),
    /// The file, or every problem of the scenario (as text).
    RunFile(Result<FileText, Vec<String>>),
    /// The link's payload, or why the scenario has none.
    Link(Result<String, String>),
    /// Valid, or every problem of the scenario.
    Checked(Result<Option<crate::kept::KeptJobs>, Vec<Problem>>),
    /// The whole run's timeline, or every problem of the scenario (as text).
    Timeline(Result<WholeRun, Vec<String>>),
    /// The moment asked for, or `None` when the worker no longer keeps that run (it keeps
    /// the last one it laid out).
    Moment(Option<Moment>),
    /// The worker failed (it could not start, a panic, an unreadable message).
    Failed(String),
}

/// A file made for the person to save (the report, the result JSON): the page hands it to
/// the browser as it is, never reading it.
#[derive(Clone, Debug)]
pub enum FileText {
    /// Made on this thread (where no worker runs: the component tests).
    Text(String),
    /// As an engine worker posted it: a blob of its UTF-8 bytes, made in the worker. The
    /// page never copies it into its memory nor decodes it as a string (issue #30: the
    /// Philly trace's report, 26 MB, held the page's thread for 250-350 ms doing both).
    Posted(web_sys::Blob),
}

impl PartialEq for FileText {
    /// Texts by their contents, posted files by their buffer (the same object).
    fn eq(&self, other: &FileText) -> bool {
        match (self, other) {
            (FileText::Text(a), FileText::Text(b)) => a == b,
            (FileText::Posted(a), FileText::Posted(b)) => js_sys::Object::is(a, b),
            _ => false,
        }
    }
}

/// A CSV trace imported (SPEC 11).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceImported {
    /// The scenario JSON, pretty-printed as the page writes it.
    pub scenario: String,
    /// How many shares it has.
    pub shares: usize,
    pub report: ImportReport,
    /// Where its jobs are, for the page's editor (a scenario of [`crate::kept::LAZY_BYTES`]
    /// or more: the page then does not read the text to find them).
    pub kept: Option<crate::kept::KeptJobs>,
}

/// Answers `job` here and now.
pub fn serve(job: Job) -> Answer {
    match job {
        Job::Config(r) => Answer::Config(config::handle(r)),
        Job::Compare { scenario, limits } => Answer::Compared(compare_scenario(&scenario, limits)),
        Job::TraceImport { csv, options } => Answer::TraceImported(import_trace(&csv, &options)),
        Job::TraceCheck { csv, options } => Answer::TraceChecked(check_trace(&csv, &options)),
        Job::Report {
            scenario,
            compare,
            review,
        } => Answer::Report(make_report(&scenario, compare, review).map(FileText::Text)),
        Job::RunFile { scenario, file } => {
            Answer::RunFile(run_file(&scenario, file).map(FileText::Text))
        }
        Job::Link { scenario } => Answer::Link(link_payload(&scenario)),
        Job::Check { scenario } => Answer::Checked(check(&scenario)),
        Job::Timeline { scenario } => Answer::Timeline(whole_timeline(&scenario)),
        Job::Moment { key, t_s } => Answer::Moment(moment_of(key, t_s)),
    }
}

/// SPEC 7: whether `text` is a valid scenario ([`quotalab_engine::load`]), every problem if
/// not; for a valid large text, where its jobs are ([`crate::kept::locate`]), so that the
/// page opens it without reading it on its own thread (issue #30).
pub fn check(text: &str) -> Result<Option<crate::kept::KeptJobs>, Vec<Problem>> {
    quotalab_engine::load(text)?;
    Ok(crate::kept::locate(text).map(|(_, kept)| kept))
}

/// The whole run this worker (or the page's thread, in the component tests) last laid out,
/// with its stretches, for [`moment_of`]; and the next key.
struct WholeKept {
    key: u64,
    digest: Digest,
    segments: Segments,
}

thread_local! {
    static WHOLE: std::cell::RefCell<Option<WholeKept>> = const { std::cell::RefCell::new(None) };
    static NEXT_KEY: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
}

/// Issue #30: `text`'s run simulated again and its timeline laid out from its whole event
/// log ([`quotalab_report::timeline::whole_digest`]), or its problems. The run is kept
/// (replacing the one before) under the answer's key, up to
/// [`timeline::WHOLE_RUN_KEPT_JOBS`] job rows.
pub fn whole_timeline(text: &str) -> Result<WholeRun, Vec<String>> {
    WHOLE.with(|w| w.borrow_mut().take());
    let digest = timeline::whole_digest(text)
        .map_err(|p| p.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let segments = digest.segments();
    let key = (digest.jobs.len() <= timeline::WHOLE_RUN_KEPT_JOBS)
        .then(|| NEXT_KEY.with(|k| k.replace(k.get() + 1)));
    let whole = timeline::whole_run_of(&digest, &segments, key);
    if let Some(key) = key {
        WHOLE.with(|w| {
            *w.borrow_mut() = Some(WholeKept {
                key,
                digest,
                segments,
            })
        });
    }
    Ok(whole)
}

/// The moment `t_s` of the whole run kept under `key` ([`timeline::moment`]), or `None`
/// when another run (or none) is kept, or `t_s` is after the events it keeps (a run of more
/// than [`timeline::WHOLE_RUN_EVENTS`]: nothing is known there).
pub fn moment_of(key: u64, t_s: f64) -> Option<Moment> {
    WHOLE.with(|w| {
        let w = w.borrow();
        let kept = w
            .as_ref()
            .filter(|k| k.key == key && k.digest.log_covers(t_s))?;
        Some(timeline::moment(&kept.digest, &kept.segments, t_s))
    })
}

/// SPEC 9.1: [`compare::run`] with digests within `limits`.
pub fn compare_scenario(text: &str, limits: DigestLimits) -> Result<Comparison, Vec<Problem>> {
    compare::run(text, Product::Digest(limits))
}

/// SPEC 11: [`trace::import`], the scenario printed.
pub fn import_trace(csv: &[u8], options: &ImportOptions) -> Result<TraceImported, Problem> {
    let (value, report) = trace::import(csv, options)?;
    let scenario = serde_json::to_string_pretty(&value)
        .map_err(|e| Problem::whole(format!("cannot print the imported scenario: {e}")))?;
    Ok(TraceImported {
        shares: value["shares"].as_array().map_or(0, Vec::len),
        kept: crate::kept::locate(&scenario).map(|(_, kept)| kept),
        scenario,
        report,
    })
}

/// SPEC 14: the report of `text` (`quotasim report`, `--compare`, `--review`), or its
/// problems.
pub fn make_report(
    text: &str,
    compare: bool,
    review: Option<(String, String)>,
) -> Result<String, Vec<String>> {
    quotalab_report::build_with(text, &quotalab_report::Options { compare, review })
        .map(|r| r.html)
        .map_err(|p| p.iter().map(ToString::to_string).collect())
}

/// A file of `text`'s run, or its problems: SPEC 8's result JSON, byte for byte `quotasim
/// run`'s, or a table as CSV with every job and event
/// ([`quotalab_report::tables`]).
pub fn run_file(text: &str, file: RunFile) -> Result<String, Vec<String>> {
    use quotalab_report::tables::{run_csv, Table};
    match file {
        RunFile::Json => quotalab_engine::run_json(text),
        RunFile::Summary => run_csv(text, Table::Summary),
        RunFile::Jobs => run_csv(text, Table::Jobs),
        RunFile::Events => run_csv(text, Table::Events),
    }
    .map_err(|p| p.iter().map(ToString::to_string).collect())
}

/// SPEC 10: the link payload of `text` ([`quotalab_engine::link::encode`]).
pub fn link_payload(text: &str) -> Result<String, String> {
    quotalab_engine::link::encode(text).map_err(|p| p.message)
}

/// SPEC 11: the warnings an import of the trace would give ([`trace::check`]).
pub fn check_trace(csv: &[u8], options: &ImportOptions) -> Result<Vec<ImportWarning>, Problem> {
    trace::check(csv, options).map(|r| r.warnings)
}

/// A [`Comparison`] as it crosses to the page: its digests and what its verdicts are
/// worded from (its warnings stay behind: the page shows the run's).
#[derive(Serialize, Deserialize)]
struct ComparedWire {
    digests: Vec<Digest>,
    matched: Vec<Matched>,
    forecast: Vec<compare::ShareForecast>,
    metrics: [Vec<ShareMetrics>; 3],
    identical: [bool; 2],
    given_is_pooled: bool,
}

/// Postcard bytes of a comparison of digests.
pub fn encode_compared(c: &Comparison) -> Result<Vec<u8>, String> {
    let digests = c
        .runs
        .iter()
        .map(|(_, output)| match output {
            Output::Digest(d) => Ok((**d).clone()),
            _ => Err("a comparison crosses to the page as digests".to_string()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let wire = ComparedWire {
        digests,
        matched: c.matched.clone(),
        forecast: c.forecast.clone(),
        metrics: c.metrics.clone(),
        identical: c.identical,
        given_is_pooled: c.given_is_pooled,
    };
    postcard::to_allocvec(&wire).map_err(|e| format!("could not encode the comparison: {e}"))
}

/// What [`encode_compared`] made, as the engine's [`Comparison`] (without warnings).
pub fn decode_compared(bytes: &[u8]) -> Result<Comparison, String> {
    let wire: ComparedWire =
        postcard::from_bytes(bytes).map_err(|e| format!("could not decode the comparison: {e}"))?;
    if wire.digests.len() != Policy::ALL.len() {
        return Err("a comparison has one digest per policy".into());
    }
    Ok(Comparison {
        warnings: Vec::new(),
        runs: Policy::ALL
            .iter()
            .zip(wire.digests)
            .map(|(&p, d)| (p, Output::Digest(Box::new(d))))
            .collect(),
        matched: wire.matched,
        forecast: wire.forecast,
        metrics: wire.metrics,
        identical: wire.identical,
        given_is_pooled: wire.given_is_pooled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECOVERY: &str = include_str!("../../../www/presets/recovery-not-free.json");

    /// A valid large scenario is checked with where its jobs are (the page opens it without
    /// reading it again); a small one without; an invalid large one with its problems.
    #[test]
    fn a_check_says_where_a_large_scenario_s_jobs_are() {
        assert_eq!(check(RECOVERY), Ok(None));
        let mut v: serde_json::Value = serde_json::from_str(RECOVERY).unwrap();
        let share = v["shares"][0]["name"].clone();
        let jobs: Vec<serde_json::Value> = (0..12_000)
            .map(|i| serde_json::json!({"id": format!("j{i}"), "share": share, "instance_type": "ml.g5.xlarge", "submit_s": i, "work_s": 60}))
            .collect();
        v["jobs"] = serde_json::Value::Array(jobs);
        let text = serde_json::to_string_pretty(&v).unwrap();
        assert!(text.len() >= crate::kept::LAZY_BYTES);
        let kept = check(&text)
            .expect("valid")
            .expect("a large text's jobs located");
        assert_eq!(kept.items.len(), 12_000);
        assert_eq!(Some(kept), crate::kept::locate(&text).map(|(_, k)| k));
        let broken = text.replacen("\"work_s\": 60", "\"work_s\": -60", 1);
        assert!(check(&broken).is_err());
        assert!(check(&text[..text.len() - 2]).is_err(), "not JSON");
    }

    /// The worker keeps the whole run it laid out (issue #30) and answers the state at any
    /// time from it, as the page would from every event; an older run's key is answered
    /// with nothing once a newer run is kept.
    #[test]
    fn the_whole_run_laid_out_is_kept_for_its_moments() {
        let whole = whole_timeline(RECOVERY).expect("valid");
        let key = whole.key.expect("a small run is kept");
        let all = quotalab_engine::run_digest(RECOVERY, DigestLimits::default()).unwrap();
        assert!(whole.is_of(&all));
        let segments = all.segments();
        for t in [0.0, all.end_s / 3.0, all.end_s / 2.0, all.end_s] {
            let m = moment_of(key, t).expect("kept");
            assert_eq!(m, timeline::moment(&all, &segments, t));
            assert_eq!(m.at, all.state_at(t));
        }
        let mid = moment_of(key, all.end_s / 2.0).unwrap();
        assert!(
            !mid.at.holding.is_empty() || !mid.at.waiting.is_empty(),
            "something happens mid-run"
        );
        assert!(moment_of(key + 1, 0.0).is_none(), "no such run");
        let next = whole_timeline(RECOVERY).unwrap().key.unwrap();
        assert_ne!(next, key);
        assert!(moment_of(key, 0.0).is_none(), "the older run is gone");
        assert!(moment_of(next, 0.0).is_some());
        assert!(whole_timeline("{}").is_err());
        assert!(moment_of(next, 0.0).is_none(), "a failed ask keeps nothing");

        // A run longer than the worker keeps: nothing is told after its kept events.
        let capped = quotalab_engine::run_digest(
            RECOVERY,
            DigestLimits {
                max_events: 60,
                ..DigestLimits::default()
            },
        )
        .unwrap();
        let until = capped.events_until_s.expect("capped");
        assert!(until > 0.0, "the kept events span some time");
        let segments = capped.segments();
        WHOLE.with(|w| {
            *w.borrow_mut() = Some(WholeKept {
                key: 99,
                digest: capped,
                segments,
            })
        });
        assert!(moment_of(99, until / 2.0).is_some());
        assert!(moment_of(99, until).is_none(), "after the kept events");
    }

    #[test]
    fn a_comparison_survives_the_trip_exactly() {
        let limits = DigestLimits::default();
        let c = compare_scenario(RECOVERY, limits).expect("valid");
        let back = decode_compared(&encode_compared(&c).unwrap()).unwrap();
        assert_eq!(back.runs, c.runs);
        assert_eq!(back.forecast, c.forecast);
        assert_eq!(back.verdicts(), c.verdicts(), "the same words on the page");
        assert!(decode_compared(&[1, 2, 3]).is_err());
    }

    #[test]
    fn a_trace_is_imported_or_refused_with_its_problem() {
        let options = ImportOptions {
            submit: "submit".into(),
            duration: Some("duration".into()),
            ..ImportOptions::default()
        };
        let ok = import_trace(b"submit,duration\n0,60\n30,120\n", &options).expect("imports");
        assert_eq!((ok.shares, ok.report.imported), (1, 2));
        assert!(ok.scenario.starts_with("{\n"));
        let no = import_trace(b"a,b\n1,2\n", &options).unwrap_err();
        assert!(no.to_string().contains("submit"), "{no}");
    }
}
