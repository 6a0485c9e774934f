//! The page's state: [`AppState`] (one scenario text is the source of truth; every view
//! reads the last good run and the current [`Notice`] from here), the [`runner`] that
//! simulates it, the [`notice`]s and the undo [`history`]. Provided as a context by [`crate::App`].
//!
//! Editing the scenario re-simulates at once after a quiet spell, else after a short pause
//! (see [`install_runner`]); an invalid scenario keeps the last good result on screen, marked
//! stale, with the validator's problems.
//!
//! Where a run happens: always in the engine worker ([`crate::worker`], the engine's own wasm
//! compiled for speed), so the page never freezes and its wasm carries no simulator: once a
//! run has lasted 300 ms ([`crate::ui::lasting`]) a progress bar and a Cancel button show and
//! the previous result, on screen until the new one arrives, is marked stale; a quick run
//! changes nothing on screen until its result. A newer run (an edit, the Run button)
//! abandons the one in flight by terminating its worker. At most one run is ever in flight
//! and none is ever queued: a burst of edits ends with the last one's result.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, Label};
use quotalab_engine::Problem;

use crate::worker::{Phase, WorkerState};

pub mod history;
pub mod notice;
pub mod runner;

pub use history::History;
pub use notice::{Notice, NoticeKind};
use runner::Runner;
pub use runner::{
    install_runner, now_ms, set_local_engine, LocalEngine, SPLIT_AFTER_MS, WARM_AFTER_MS,
    WORKER_LIMITS,
};

/// One finished simulation as the page shows it.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub digest: Arc<Digest>,
    /// Wall time of the run as the page waited for it, in milliseconds: validation +
    /// simulation + digest (and, for a worker run, the transfer and decoding), from when the
    /// run was sent or, if later, when the engine worker was ready: the page's first run
    /// waits for the engine to start, which is not the run's time.
    pub millis: f64,
}

/// A run in flight in the worker.
#[derive(Clone, Debug, PartialEq)]
pub struct RunProgress {
    /// 0 to 1.
    pub fraction: f64,
    pub phase: Phase,
}

/// Where the page's run of the current scenario is, and so what the result shown
/// ([`AppState::outcome`], the last good run) is worth. One value instead of four flags
/// (stale, in flight, failed, cancelled) that had to agree.
#[derive(Clone, Debug, PartialEq)]
pub enum RunStatus {
    /// The result shown is of the current scenario text.
    Current,
    /// The text changed since the result shown (or nothing was shown yet): its run is
    /// coming (after a pause, or drawn in a task of its own).
    Pending,
    /// A worker run of the current text is in flight.
    Running(RunProgress),
    /// The current text has problems ([`AppState::problems`]): the result shown is the last
    /// good one.
    Invalid,
    /// The worker run was cancelled (the Cancel button): the result shown is of an older text.
    Cancelled,
    /// The last run failed (a worker error), shown until the next run.
    Failed(String),
}

impl RunStatus {
    /// The result shown is not of the current text.
    pub fn is_stale(&self) -> bool {
        !matches!(self, RunStatus::Current)
    }

    /// The worker run in flight, if any.
    pub fn progress(&self) -> Option<&RunProgress> {
        match self {
            RunStatus::Running(p) => Some(p),
            _ => None,
        }
    }

    /// Why the last run failed, if it did.
    pub fn error(&self) -> Option<&str> {
        match self {
            RunStatus::Failed(m) => Some(m),
            _ => None,
        }
    }

    /// " (updating…)" while a newer result is coming, or why the shown result is old.
    pub fn stale_note(&self) -> &'static str {
        match self {
            RunStatus::Current => "",
            RunStatus::Cancelled => " (cancelled: press Run to simulate the current scenario)",
            RunStatus::Failed(_) => " (the last run failed)",
            RunStatus::Pending | RunStatus::Running(_) | RunStatus::Invalid => " (updating…)",
        }
    }
}

/// Whether the result shown is stale: a view of [`AppState::status`] for the readers that need
/// only that bit (the link sync, the results' styling, tests that set a result by hand).
#[derive(Clone, Copy)]
pub struct Stale(RwSignal<RunStatus>);

impl Stale {
    pub fn get(&self) -> bool {
        self.0.with(RunStatus::is_stale)
    }

    pub fn get_untracked(&self) -> bool {
        self.0.with_untracked(RunStatus::is_stale)
    }

    /// `false`: the result shown is current; `true`: a run of the current text is coming (a
    /// failure, a cancellation or problems already make it stale and stay as they are).
    pub fn set(&self, stale: bool) {
        let current = self.0.with_untracked(|s| *s == RunStatus::Current);
        if !stale && !current {
            self.0.set(RunStatus::Current);
        } else if stale && current {
            self.0.set(RunStatus::Pending);
        }
    }
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
    /// The last run simulated nothing: only descriptive fields had changed since the
    /// worker's previous run, whose result was relabelled.
    pub reused: bool,
}

/// Shared page state (cheap to copy: every field is a signal or a stored value).
#[derive(Clone, Copy)]
pub struct AppState {
    /// The scenario as JSON text (the raw editor, the forms and the link all edit this).
    pub scenario: RwSignal<String>,
    /// The last successful run.
    pub outcome: RwSignal<Option<RunOutcome>>,
    /// The shown run's name, summary and agreements when a later run of a scenario that
    /// simulates the same relabelled it (issue #30: the result stays, only these change);
    /// `None`: the digest's own. Read through [`AppState::name_shown`] and the like.
    pub label: RwSignal<Option<Arc<Label>>>,
    /// Problems of the current scenario text (empty when it is valid).
    pub problems: RwSignal<Vec<Problem>>,
    /// Warnings of the current scenario (e.g. overcommit).
    pub warnings: RwSignal<Vec<Problem>>,
    /// Where the run of the current text is ([`RunStatus`]).
    pub status: RwSignal<RunStatus>,
    /// The result shown is not of the current text (a view of `status`).
    pub stale: Stale,
    /// Where the runs' engine worker is (`data-worker`).
    pub worker: RwSignal<WorkerState>,
    /// The timeline cursor (seconds), shared by the charts and the "state at t" panel.
    pub cursor: RwSignal<Option<f64>>,
    /// Bumped by the Run button to re-simulate the same text.
    pub run_requests: RwSignal<u64>,
    /// An import dialog asked for outside the Files menu (the editor's button beside the
    /// model, the results' offer when there is no job): the Files menu (`io::files`) opens
    /// it, so neither the editor nor the results depend on `io`. See [`AppState::request_import`].
    pub import_requests: RwSignal<Option<ImportKind>>,
    /// Counters and timings of the runs.
    pub run_stats: RwSignal<RunStats>,
    /// The dismissible message above the results (a link or a file that could not be
    /// opened, what an import did), or `None`.
    pub notice: RwSignal<Option<Notice>>,
    /// A replayed job history's unfinished jobs (SPEC 16: still running or pending at the
    /// history's end, so their work is a lower bound), a line each, sorted by id: the job's
    /// id, a tab, `r` (running) or `p` (pending), a tab, what its rows say ("ran 1 h 14 min
    /// of an unfinished Workload (a lower bound)"; [`unfinished_mark`]). Set by the last
    /// history import (`io::history`) from the engine's typed list; a row is marked, and the
    /// summary counts it ([`unfinished_in_run`]), while a job of that id is in the run.
    pub unfinished: RwSignal<String>,
    /// The share link of a large scenario's text (over [`LINK_WITH_RUN_BYTES`]), made by
    /// the engine worker after the text's run (so the text is not sent twice), or `None`
    /// until then. `io::share` shows it once it is of the current text.
    pub run_link: RwSignal<Option<RunLink>>,
    /// Undo and redo over the scenario text (recorded by the editor, [`history::record`]).
    pub history: History,
    runner: StoredValue<Runner, LocalStorage>,
    /// The information notice of a scenario that a story or a preset replaced, with a hash
    /// of that scenario's text ([`AppState::replace_scenario`]): an undo back to that text
    /// shows it again ([`AppState::notice_after_restore`]).
    left_notice: StoredValue<Option<(u64, Notice)>>,
}

/// A scenario text larger than this has its share link made with its run, in the engine
/// worker (a smaller one is deflated on the page, in about a millisecond).
pub const LINK_WITH_RUN_BYTES: usize = 64 * 1024;

/// The link the engine made with a run ([`AppState::run_link`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RunLink {
    /// The revision of the text it is of ([`AppState::revision`]).
    pub revision: u64,
    /// The link's payload, or the engine's reason there is none (SPEC 10: a scenario whose
    /// compact JSON is over 8 MiB has no link).
    pub result: Result<String, String>,
}

/// A hash of a scenario text, to know it again without keeping a copy.
fn text_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// What the rows of job `id` say in [`AppState::unfinished`] (a line per job: its id, a
/// tab, its kind, a tab, its words; text, not a map: a map's code costs the page's download
/// more than a search of a few lines does), if it is one of them.
pub fn unfinished_mark<'a>(lines: &'a str, id: &str) -> Option<&'a str> {
    lines
        .lines()
        .find_map(|l| l.strip_prefix(id)?.strip_prefix('\t')?.get(2..))
}

/// Unfinished jobs per queue in words, `(queue, running, pending)` for each queue that has
/// some: "team-b-cq: 1 pending; team-c-cq: 1 running, 1 pending".
pub fn unfinished_per_queue<'a>(queues: impl Iterator<Item = (&'a str, u64, u64)>) -> String {
    let mut out = String::new();
    for (name, running, pending) in queues.filter(|(_, r, p)| r + p > 0) {
        if !out.is_empty() {
            out.push_str("; ");
        }
        out.push_str(name);
        let mut sep = ": ";
        for (n, what) in [(running, " running"), (pending, " pending")] {
            if n > 0 {
                out.push_str(sep);
                out.push_str(&crate::ui::format::thousands(n as f64));
                out.push_str(what);
                sep = ", ";
            }
        }
    }
    out
}

/// The jobs of [`AppState::unfinished`] among `d`'s rows, per share (scenario order): how
/// many had been running and how many pending when the history ended. The lines are sorted
/// by id, so each row is one binary search.
pub fn unfinished_in_run(lines: &str, d: &quotalab_engine::digest::Digest) -> Vec<(u64, u64)> {
    let mut per = vec![(0, 0); d.shares.len()];
    let marked: Vec<(&str, bool)> = lines
        .lines()
        .filter_map(|l| {
            let (id, rest) = l.split_once('\t')?;
            Some((id, rest.starts_with('r')))
        })
        .collect();
    if marked.is_empty() {
        return per;
    }
    for row in &d.jobs {
        let Ok(i) = marked.binary_search_by(|(id, _)| (*id).cmp(row.id.as_str())) else {
            continue;
        };
        if let Some(p) = per.get_mut(row.share as usize) {
            if marked[i].1 {
                p.0 += 1;
            } else {
                p.1 += 1;
            }
        }
    }
    per
}

/// The import dialogs a view may ask for ([`AppState::request_import`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportKind {
    /// "Import your cluster's configuration…" (AWS Batch, Kueue, HyperPod; SPEC 13, 16).
    Config,
    /// "Import a job trace (CSV)…" (SPEC 11).
    Trace,
    /// "Import job history…" (SPEC 16).
    History,
}

impl AppState {
    /// The shown run's scenario name (tracked): the last relabelling's, else the digest's.
    pub fn name_shown(&self) -> Option<String> {
        self.shown(|l| &l.name, |d| &d.name)
    }

    /// The shown run's scenario in plain words (tracked), as [`AppState::name_shown`].
    pub fn summary_shown(&self) -> Option<String> {
        self.shown(|l| &l.summary, |d| &d.summary)
    }

    /// A descriptive field of the shown run: the last relabelling's, else the digest's.
    fn shown(
        &self,
        of_label: fn(&Label) -> &String,
        of_digest: fn(&Digest) -> &String,
    ) -> Option<String> {
        self.label
            .with(|l| l.as_deref().map(|l| of_label(l).clone()))
            .or_else(|| {
                self.outcome
                    .with(|o| o.as_ref().map(|o| of_digest(&o.digest).clone()))
            })
    }

    /// Opens the import dialog `kind` (each call opens it, even when asked twice).
    pub fn request_import(&self, kind: ImportKind) {
        self.import_requests.set(Some(kind));
    }

    pub fn new(initial: String) -> AppState {
        let status = RwSignal::new(RunStatus::Pending);
        AppState {
            scenario: RwSignal::new(initial),
            outcome: RwSignal::new(None),
            label: RwSignal::new(None),
            problems: RwSignal::new(Vec::new()),
            warnings: RwSignal::new(Vec::new()),
            status,
            stale: Stale(status),
            worker: RwSignal::new(WorkerState::Idle),
            cursor: RwSignal::new(None),
            run_requests: RwSignal::new(0),
            import_requests: RwSignal::new(None),
            run_stats: RwSignal::new(RunStats::default()),
            notice: RwSignal::new(None),
            unfinished: RwSignal::new(String::new()),
            run_link: RwSignal::new(None),
            history: History::new(),
            runner: StoredValue::new_local(Runner::default()),
            left_notice: StoredValue::new(None),
        }
    }

    /// Replaces the whole scenario (a story, a preset): an information notice about the
    /// scenario being left (what an import did) no longer holds, so it goes, kept aside for
    /// an undo back to that scenario. Error notices stay until dismissed.
    pub fn replace_scenario(&self, text: String) {
        let info = self
            .notice
            .get_untracked()
            .filter(|n| n.kind == notice::NoticeKind::Info);
        if let Some(n) = info {
            let left = self.scenario.with_untracked(|t| text_hash(t));
            self.left_notice.set_value(Some((left, n)));
            self.notice.set(None);
        }
        self.scenario.set(text);
    }

    /// After an undo or redo: the information notice that belongs to the restored text (one
    /// a story or a preset set aside, [`AppState::replace_scenario`]), else none; an error
    /// notice stays.
    pub fn notice_after_restore(&self) {
        let here = self.scenario.with_untracked(|t| text_hash(t));
        let back = self.left_notice.with_value(|l| {
            l.as_ref()
                .filter(|(h, _)| *h == here)
                .map(|(_, n)| n.clone())
        });
        if let Some(n) = back {
            self.notice.set(Some(n));
        } else if self.notice.with_untracked(|x| {
            x.as_ref()
                .is_some_and(|x| x.kind == notice::NoticeKind::Info)
        }) {
            self.notice.set(None);
        }
    }

    /// " (updating…)" while a newer result is coming, or why the shown result is old.
    pub fn stale_note(&self) -> &'static str {
        self.status.with(RunStatus::stale_note)
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

/// [`last_digest`], one task later: a large view below the summary (the event log) draws
/// a new result in a task of its own, so the page handles input between
/// drawing the summary and drawing it (issue #30: no task over 50 ms).
pub fn later_digest() -> ReadSignal<Option<Arc<Digest>>> {
    let digest = last_digest();
    let (later, set_later) = signal(digest.get_untracked());
    Effect::new(move |first: Option<()>| {
        let d = digest.get();
        if first.is_some() {
            // Gone with the page: nothing to draw.
            let later = move || {
                let _ = set_later.try_set(d);
            };
            set_timeout(later, std::time::Duration::ZERO);
        }
    });
    later
}

/// The page's state from context (panics only if used outside [`crate::App`]).
pub fn use_app() -> AppState {
    expect_context::<AppState>()
}
