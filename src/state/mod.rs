//! The page's state: [`AppState`] (one scenario text is the source of truth; every view
//! reads the last good run and the current [`Notice`] from here), the [`runner`] that
//! simulates it, and the [`notice`]s. Provided as a context by [`crate::App`].
//!
//! Editing the scenario re-simulates at once after a quiet spell, else after a short pause
//! (see [`install_runner`]); an invalid scenario keeps the last good result on screen, marked
//! stale, with the validator's problems.
//!
//! Where a run happens: scenarios up to [`WORKER_MIN_JOBS`] jobs (the walkthrough, the
//! presets) run here, synchronously, in tens of milliseconds at most. Larger ones, and
//! any text over [`WORKER_MIN_TEXT`] (an imported trace), go to the simulation Web Worker
//! ([`crate::worker`]) so the page never freezes: a progress bar and a Cancel button show
//! while it works, the previous result stays on screen (marked stale) until the new one
//! arrives, and a newer run (an edit, the Run button) abandons the one in flight by
//! terminating its worker. At most one run is ever in flight and none is ever queued: a
//! burst of edits ends with the last one's result.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;
use quotalab_engine::Problem;

pub mod notice;
pub mod runner;

pub use notice::{Notice, NoticeKind};
use runner::Runner;
pub use runner::{
    estimate_jobs, install_runner, now_ms, SPLIT_AFTER_MS, WARM_AFTER_MS, WORKER_LIMITS,
    WORKER_MIN_JOBS, WORKER_MIN_TEXT,
};

/// One finished simulation as the page shows it.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub digest: Arc<Digest>,
    /// Wall time of the run as the page waited for it, in milliseconds: validation +
    /// simulation + digest (and, for a worker run, the transfer and decoding).
    pub millis: f64,
}

/// A run in flight in the worker.
#[derive(Clone, Debug, PartialEq)]
pub struct RunProgress {
    /// 0 to 1.
    pub fraction: f64,
    /// "starting", "validating", "simulating", "summarising".
    pub phase: String,
}

/// Counters and timings of the runs so far (the benchmark and tests read them from the
/// `data-*` attributes of the status line).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunStats {
    /// Runs started (here or in the worker).
    pub started: u64,
    /// Runs that ended with a result or with problems.
    pub finished: u64,
    /// Worker runs cancelled with the Cancel button.
    pub cancelled: u64,
    /// Worker runs abandoned because a newer run started.
    pub superseded: u64,
    /// Wall time of the last finished run (ms, as [`RunOutcome::millis`]).
    pub last_ms: f64,
    /// The last finished run ran in the worker.
    pub on_worker: bool,
    /// Worker time of the last worker run (validation to encoding), ms.
    pub compute_ms: f64,
    /// Of which: validation (and generation), simulation, digest, encoding (ms).
    pub phases: [f64; 4],
    /// Time to decode the last worker result on the page, ms.
    pub decode_ms: f64,
    /// Of the last worker run: from the page's request to the worker starting on it, and
    /// from the worker posting its result to the page handling it (ms).
    pub hops_ms: [f64; 2],
}

/// Shared page state (cheap to copy: every field is a signal or a stored value).
#[derive(Clone, Copy)]
pub struct AppState {
    /// The scenario as JSON text (the raw editor, the forms and the link all edit this).
    pub scenario: RwSignal<String>,
    /// The last successful run.
    pub outcome: RwSignal<Option<RunOutcome>>,
    /// Problems of the current scenario text (empty when it is valid).
    pub problems: RwSignal<Vec<Problem>>,
    /// Warnings of the current scenario (e.g. overcommit).
    pub warnings: RwSignal<Vec<Problem>>,
    /// The shown result is not of the current text (invalid, or a run is pending).
    pub stale: RwSignal<bool>,
    /// The timeline cursor (seconds), shared by the charts and the "state at t" panel.
    pub cursor: RwSignal<Option<f64>>,
    /// Bumped by the Run button to re-simulate the same text.
    pub run_requests: RwSignal<u64>,
    /// The worker run in flight (`None` when none is).
    pub progress: RwSignal<Option<RunProgress>>,
    /// Why the last run failed (a worker error), shown until the next run.
    pub run_error: RwSignal<Option<String>>,
    /// The last worker run was cancelled (the result shown is of an older text).
    pub cancelled: RwSignal<bool>,
    /// Counters and timings of the runs.
    pub run_stats: RwSignal<RunStats>,
    /// The dismissible message above the results (a link or a file that could not be
    /// opened, what an import did), or `None`.
    pub notice: RwSignal<Option<Notice>>,
    runner: StoredValue<Runner, LocalStorage>,
}

impl AppState {
    pub fn new(initial: String) -> AppState {
        AppState {
            scenario: RwSignal::new(initial),
            outcome: RwSignal::new(None),
            problems: RwSignal::new(Vec::new()),
            warnings: RwSignal::new(Vec::new()),
            stale: RwSignal::new(true),
            cursor: RwSignal::new(None),
            run_requests: RwSignal::new(0),
            progress: RwSignal::new(None),
            run_error: RwSignal::new(None),
            cancelled: RwSignal::new(false),
            run_stats: RwSignal::new(RunStats::default()),
            notice: RwSignal::new(None),
            runner: StoredValue::new_local(Runner::default()),
        }
    }

    /// " (updating…)" while a newer result is coming, or why the shown result is old.
    pub fn stale_note(&self) -> &'static str {
        if !self.stale.get() {
            ""
        } else if self.cancelled.get() {
            " (cancelled: press Run to simulate the current scenario)"
        } else if self.run_error.with(Option::is_some) {
            " (the last run failed)"
        } else {
            " (updating…)"
        }
    }
}

/// The last good run's digest, changing only when a new run lands (the results panel, the
/// event log, the job history and the advisor all read it).
pub fn last_digest() -> Memo<Option<Arc<Digest>>> {
    let app = use_app();
    Memo::new_with_compare(
        move |_| app.outcome.with(|o| o.as_ref().map(|o| o.digest.clone())),
        |a, b| match (a, b) {
            (Some(Some(a)), Some(Some(b))) => !Arc::ptr_eq(a, b),
            (Some(None), Some(None)) => false,
            _ => true,
        },
    )
}

/// The page's state from context (panics only if used outside [`crate::App`]).
pub fn use_app() -> AppState {
    expect_context::<AppState>()
}
