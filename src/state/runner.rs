//! The runner: sends the scenario to the engine worker ([`crate::worker`]) to validate and
//! simulate, re-runs on edits ([`install_runner`]) and keeps at most one run in flight (see
//! [`crate::state`]). The page's own wasm has no simulator: every run is the worker's.

use std::cell::Cell;
use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, DigestLimits, Label};
use quotalab_engine::Problem;

use super::{AppState, RunLink, RunOutcome, RunProgress, RunStatus, LINK_WITH_RUN_BYTES};
use crate::worker::{Phase, Reply, WorkerClient, WorkerState};
use quotalab_engine_worker::kept;

/// A local run drawn after this long (ms) is drawn in a task of its own.
pub const SPLIT_AFTER_MS: f64 = 8.0;

/// How long after the first result the worker runs its warm-up (ms).
pub const WARM_AFTER_MS: u64 = 1_000;

/// What a run keeps for the page: downsampled series, at most this many events, and the job
/// rows those events name plus the first others up to 100,000 (a result of more says so where
/// rows are read: the jobs file, a job's history).
pub const WORKER_LIMITS: DigestLimits = DigestLimits {
    max_points: 2000,
    max_events: 200_000,
    max_jobs: 100_000,
};

/// The engine called in-process: validation, simulation and the digest (warnings and digest,
/// or every problem). Only where no worker can run it: the component tests install
/// `pipeline::run` here ([`set_local_engine`]); the page never does, so the simulator is not
/// in its wasm.
pub type LocalEngine = fn(&str) -> Result<(Vec<Problem>, Digest), Vec<Problem>>;

thread_local! {
    static LOCAL: Cell<Option<LocalEngine>> = const { Cell::new(None) };
}

/// Runs every scenario with `engine`, on this thread, instead of the engine worker.
pub fn set_local_engine(engine: LocalEngine) {
    LOCAL.with(|l| l.set(Some(engine)));
}

fn local_engine() -> Option<LocalEngine> {
    LOCAL.with(Cell::get)
}

/// The runner's bookkeeping (not reactive).
#[derive(Default)]
pub(super) struct Runner {
    client: Option<WorkerClient>,
    /// The worker could not be started: no run can be made.
    no_worker: bool,
    /// Why the worker could not be started.
    why: String,
    next_id: u64,
    inflight: Option<Inflight>,
    /// The worker run whose share link is awaited, and its text's revision.
    linking: Option<(u64, u64)>,
    /// Bumped on every edit or Run press; a result is current if no bump happened since
    /// its run started.
    revision: u64,
    /// Runs made in-process ([`LocalEngine`]), counted; and the last one shown (a result
    /// drawn in a task of its own never replaces a newer one).
    page_runs: u64,
    page_shown: u64,
    /// The worker run whose result is shown (landed or relabelled): a run that simulates
    /// as it did is answered with its new label alone ([`Reply::Relabelled`]).
    worker_shown: Option<u64>,
    /// When the worker last said it was ready ([`now_ms`]): a run sent before that waited
    /// for the engine to start, which its shown time leaves out ([`RunOutcome::millis`]).
    ready_ms: f64,
}

#[derive(Clone, Copy)]
struct Inflight {
    id: u64,
    revision: u64,
    started_ms: f64,
    /// [`crate::worker::epoch_ms`] when the run was sent.
    sent_at: f64,
}

/// A worker run's result, decoded, waiting to be shown ([`AppState::land`]).
struct Landed {
    run: Inflight,
    digest: Box<Digest>,
    warnings: Vec<Problem>,
    timing: crate::worker::Timing,
    handled_at: f64,
    decode_ms: f64,
}

fn set_if_changed<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    if signal.with_untracked(|v| *v != value) {
        signal.set(value);
    }
}

impl AppState {
    /// Validates and simulates `text` now in the engine worker, updating the state. A run in
    /// flight is abandoned.
    pub fn run_now(&self, text: &str) {
        self.run_text(text, false);
    }

    /// Re-simulates the current scenario text now, even if the last run simulated the same
    /// (the Run button: nothing is relabelled).
    pub fn run_fresh(&self) {
        self.scenario
            .with_untracked(|text| self.run_text(text, true));
    }

    fn run_text(&self, text: &str, fresh: bool) {
        if self
            .status
            .with_untracked(|s| matches!(s, RunStatus::Cancelled | RunStatus::Failed(_)))
        {
            self.status.set(RunStatus::Pending);
        }
        if let Some(engine) = local_engine() {
            self.run_here(engine, text);
            return;
        }
        if self.runner.with_value(|r| r.no_worker) || !self.start_in_worker(text, fresh) {
            self.cannot_run();
        }
    }

    /// Re-simulates the current scenario text now.
    pub fn run_current(&self) {
        self.scenario.with_untracked(|text| self.run_now(text));
    }

    /// The Cancel button: stops the worker run in flight; the shown result stays (stale).
    pub fn cancel_run(&self) {
        if self.abandon_worker_run(true) {
            self.status.set(RunStatus::Cancelled);
        }
    }

    /// Starts the engine worker and has it optimise its code with a small run, ahead of a
    /// large run (no effect once warmed, or once the page is gone).
    pub fn warm_worker(&self) {
        if self.runner.try_with_value(|r| r.no_worker) == Some(false) {
            if let Err(e) = self.client().warm() {
                self.no_worker(&e);
            }
        }
    }

    /// No worker can be started: the page says so (it has no simulator of its own).
    fn no_worker(&self, why: &str) {
        web_sys::console::warn_1(
            &format!("Quota Lab: the engine worker cannot start ({why})").into(),
        );
        self.runner.update_value(|r| {
            r.no_worker = true;
            r.inflight = None;
            r.why = why.to_string();
        });
        set_if_changed(self.worker, WorkerState::Off);
    }

    fn cannot_run(&self) {
        let why = self.runner.with_value(|r| r.why.clone());
        self.status.set(RunStatus::Failed(format!(
            "this browser could not start the simulator ({why}): Quota Lab needs WebAssembly and Web Workers"
        )));
    }

    /// A worker run is no longer in flight: the result shown stays, stale.
    fn stop_running(&self) {
        if self.status.with_untracked(|s| s.progress().is_some()) {
            self.status.set(RunStatus::Pending);
        }
    }

    /// The current text's revision: bumped on every edit or Run press.
    pub fn revision(&self) -> u64 {
        self.runner.with_value(|r| r.revision)
    }

    /// Marks the scenario as edited (called by the runner on every change).
    fn bump_revision(&self) {
        self.runner.update_value(|r| r.revision += 1);
    }

    fn client(&self) -> WorkerClient {
        if let Some(c) = self.runner.with_value(|r| r.client.clone()) {
            return c;
        }
        let state = *self;
        let client = WorkerClient::new(move |reply| state.on_reply(reply));
        self.runner
            .update_value(|r| r.client = Some(client.clone()));
        client
    }

    /// Stops the worker run in flight, if any; returns whether there was one.
    fn abandon_worker_run(&self, by_user: bool) -> bool {
        let Some(_) = self.runner.with_value(|r| r.inflight) else {
            return false;
        };
        self.runner.update_value(|r| r.inflight = None);
        if let Some(c) = self.runner.with_value(|r| r.client.clone()) {
            c.cancel();
        }
        self.stop_running();
        self.run_stats.update(|s| {
            if by_user {
                s.cancelled += 1
            } else {
                s.superseded += 1
            }
        });
        true
    }

    /// Sends the run to the worker; false if the worker cannot be used.
    fn start_in_worker(&self, text: &str, fresh: bool) -> bool {
        let client = self.client();
        let id = self.runner.with_value(|r| r.next_id);
        let had_inflight = self.runner.with_value(|r| r.inflight.is_some());
        mark("quotalab-run-start");
        let started_ms = now_ms();
        let sent_at = crate::worker::epoch_ms();
        let link = text.len() > LINK_WITH_RUN_BYTES;
        let relabel = if fresh {
            None
        } else {
            self.runner.with_value(|r| r.worker_shown)
        };
        if let Err(e) = client.run(id, text, WORKER_LIMITS, relabel, link) {
            self.no_worker(&e);
            return false;
        }
        let revision = self.revision();
        self.runner.update_value(|r| {
            r.linking = link.then_some((id, revision));
            r.next_id += 1;
            r.inflight = Some(Inflight {
                id,
                revision,
                started_ms,
                sent_at,
            });
        });
        self.run_stats.update(|s| {
            s.started += 1;
            if had_inflight {
                s.superseded += 1;
            }
        });
        self.status.set(RunStatus::Running(RunProgress {
            fraction: 0.0,
            phase: Phase::Starting,
        }));
        true
    }

    /// Validates and simulates on this thread with the [`LocalEngine`].
    fn run_here(&self, engine: LocalEngine, text: &str) {
        mark("quotalab-run-start");
        let start = now_ms();
        let run = engine(text);
        self.run_stats.update(|s| s.started += 1);
        match run {
            Err(problems) => {
                self.problems.set(problems);
                self.status.set(RunStatus::Invalid);
                self.finish_stats(now_ms() - start, None);
                measure("quotalab-run", "quotalab-run-start");
            }
            Ok((warnings, digest)) => {
                let millis = now_ms() - start;
                let outcome = RunOutcome {
                    digest: Arc::new(digest),
                    millis,
                };
                self.runner.update_value(|r| r.page_runs += 1);
                let run = self.runner.with_value(|r| r.page_runs);
                let revision = self.revision();
                if text.len() > LINK_WITH_RUN_BYTES {
                    // As the worker does after its run (the component tests' engine).
                    let result = quotalab_engine::link::encode(text).map_err(|p| p.message);
                    self.run_link.set(Some(RunLink { revision, result }));
                }
                if millis < SPLIT_AFTER_MS {
                    self.show(run, revision, outcome, warnings);
                } else {
                    // Drawing the result is a task of its own: input that came while the
                    // simulation ran (a slider being dragged) is handled in between, so the
                    // page never stops for simulation and drawing at once. An edit in the
                    // meantime leaves the result shown but stale (its own run follows), so
                    // that a drag still sees results on the way.
                    let state = *self;
                    set_timeout(
                        move || {
                            if state.runner.try_with_value(|_| ()).is_some() {
                                state.show(run, revision, outcome, warnings);
                            }
                        },
                        std::time::Duration::ZERO,
                    );
                }
            }
        }
    }

    /// Shows a worker run's decoded result. A newer run started since (while the result
    /// waited for its task) keeps its status: the result shows as the one before it.
    fn land(&self, l: Landed) {
        let Landed {
            run,
            digest,
            warnings,
            timing,
            handled_at,
            decode_ms,
        } = l;
        let now = now_ms();
        let millis = now - run.started_ms;
        // Shown: the run's own time, not the engine's start on the page's first run.
        let shown_ms = now - self.runner.with_value(|r| r.ready_ms.max(run.started_ms));
        let newer = self.runner.with_value(|r| r.inflight.is_some());
        set_if_changed(self.problems, Vec::new());
        set_if_changed(self.warnings, warnings);
        self.runner.update_value(|r| r.worker_shown = Some(run.id));
        self.label.set(None);
        self.outcome.set(Some(RunOutcome {
            digest: Arc::new(*digest),
            millis: shown_ms,
        }));
        self.settle(run, millis, timing, handled_at, decode_ms, newer);
    }

    /// Run `run` answered with a new label for the result shown ([`Reply::Relabelled`]):
    /// the result stays as it is, drawn; its name, summary and agreements change.
    fn relabel(
        &self,
        run: Inflight,
        label: Label,
        warnings: Vec<Problem>,
        timing: crate::worker::Timing,
        handled_at: f64,
    ) {
        let millis = now_ms() - run.started_ms;
        set_if_changed(self.problems, Vec::new());
        set_if_changed(self.warnings, warnings);
        self.runner.update_value(|r| r.worker_shown = Some(run.id));
        self.label.set(Some(Arc::new(label)));
        self.settle(run, millis, timing, handled_at, 0.0, false);
    }

    /// The status and the stats once worker run `run` is shown (`newer`: a later run is
    /// already under way, whose status stays).
    fn settle(
        &self,
        run: Inflight,
        millis: f64,
        timing: crate::worker::Timing,
        handled_at: f64,
        decode_ms: f64,
        newer: bool,
    ) {
        if !newer {
            set_if_changed(
                self.status,
                if run.revision == self.revision() {
                    RunStatus::Current
                } else {
                    RunStatus::Pending
                },
            );
        }
        self.finish_stats(millis, Some((timing.compute_ms, timing.phases, decode_ms)));
        let hops = [
            timing.received_at - run.sent_at,
            handled_at - timing.posted_at,
        ];
        self.run_stats.update(|s| {
            s.hops_ms = hops;
            s.reused = timing.reused;
        });
        measure("quotalab-run", "quotalab-run-start");
    }

    /// Shows page run number `run` (of the scenario at `revision`), unless a newer page run
    /// is already shown; stale if the scenario changed since.
    fn show(&self, run: u64, revision: u64, outcome: RunOutcome, warnings: Vec<Problem>) {
        if self.runner.with_value(|r| r.page_shown) > run {
            self.run_stats.update(|s| s.superseded += 1);
            return;
        }
        self.runner.update_value(|r| {
            r.page_shown = run;
            r.worker_shown = None;
        });
        let millis = outcome.millis;
        set_if_changed(self.problems, Vec::new());
        set_if_changed(self.warnings, warnings);
        self.label.set(None);
        self.outcome.set(Some(outcome));
        // Of an older text: whatever is under way for the current one stays as it is.
        self.stale.set(self.revision() != revision);
        self.finish_stats(millis, None);
        measure("quotalab-run", "quotalab-run-start");
    }

    fn finish_stats(&self, millis: f64, worker: Option<(f64, [f64; 4], f64)>) {
        self.run_stats.update(|s| {
            s.finished += 1;
            s.last_ms = millis;
            s.on_worker = worker.is_some();
            (s.compute_ms, s.phases, s.decode_ms) = worker.unwrap_or_default();
            s.hops_ms = [0.0; 2];
            s.reused = false;
        });
    }

    /// The run in flight if `id` is it (and forgets it when `take`).
    fn current(&self, id: Option<u64>, take: bool) -> Option<Inflight> {
        let inflight = self.runner.with_value(|r| r.inflight)?;
        if id.is_some_and(|i| i != inflight.id) {
            return None;
        }
        if take {
            self.runner.update_value(|r| r.inflight = None);
        }
        Some(inflight)
    }

    fn on_reply(&self, reply: Reply) {
        match reply {
            Reply::Starting => set_if_changed(self.worker, WorkerState::Starting),
            Reply::Ready => {
                self.runner.update_value(|r| r.ready_ms = now_ms());
                set_if_changed(self.worker, WorkerState::Ready);
            }
            Reply::Progress {
                id,
                fraction,
                phase,
            } => {
                if self.current(Some(id), false).is_some() {
                    self.status
                        .set(RunStatus::Running(RunProgress { fraction, phase }));
                }
            }
            Reply::Problems { id, problems } => {
                let Some(run) = self.current(Some(id), true) else {
                    return;
                };
                self.problems.set(problems);
                self.status.set(RunStatus::Invalid);
                self.finish_stats(now_ms() - run.started_ms, Some(Default::default()));
            }
            Reply::Done {
                id,
                digest,
                warnings,
                timing,
                handled_at,
                decode_ms,
            } => {
                let Some(run) = self.current(Some(id), true) else {
                    return;
                };
                let landed = Landed {
                    run,
                    digest,
                    warnings,
                    timing,
                    handled_at,
                    decode_ms,
                };
                if decode_ms < SPLIT_AFTER_MS {
                    self.land(landed);
                } else {
                    // A large result: decoding it was this task; drawing it is the next, so
                    // the page handles input in between and neither task holds it for both.
                    let state = *self;
                    set_timeout(
                        move || {
                            if state.runner.try_with_value(|_| ()).is_some() {
                                state.land(landed);
                            }
                        },
                        std::time::Duration::ZERO,
                    );
                }
            }
            Reply::Relabelled {
                id,
                label,
                warnings,
                timing,
                handled_at,
            } => {
                let Some(run) = self.current(Some(id), true) else {
                    return;
                };
                self.relabel(run, label, warnings, timing, handled_at);
            }
            Reply::Link { id, result } => {
                let Some((_, revision)) = self
                    .runner
                    .with_value(|r| r.linking)
                    .filter(|(linking, _)| *linking == id)
                else {
                    return;
                };
                self.runner.update_value(|r| r.linking = None);
                self.run_link.set(Some(RunLink { revision, result }));
            }
            Reply::Failed { id, message } => {
                if id.is_some() && self.current(id, true).is_none() {
                    return;
                }
                self.runner.update_value(|r| r.inflight = None);
                self.status.set(RunStatus::Failed(message));
            }
            Reply::Unavailable { id, message } => {
                let had_run = id.is_some() && self.current(id, true).is_some();
                self.no_worker(&message);
                self.stop_running();
                if had_run {
                    self.cannot_run();
                }
            }
        }
    }
}

/// Milliseconds from the page's clock (0 outside a browser).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn performance() -> Option<web_sys::Performance> {
    web_sys::window().and_then(|w| w.performance())
}

/// A `performance.mark` (the previous mark of that name is replaced).
fn mark(name: &str) {
    if let Some(p) = performance() {
        p.clear_marks_with_mark_name(name);
        let _ = p.mark(name);
    }
}

/// A `performance.measure` from the mark `start` to now (replacing the previous one).
fn measure(name: &str, start: &str) {
    if let Some(p) = performance() {
        p.clear_measures_with_measure_name(name);
        let _ = p.measure_with_start_mark(name, start);
    }
}

/// Re-simulates on edits: at once for the first scenario, when the Run button is pressed and
/// for an edit after a quiet spell of `delay_ms` (a form field, a preset, an imported file);
/// edits that follow closely (typing) run `delay_ms` after the last one. While edits keep
/// coming (a slider being dragged) and runs are quicker than `delay_ms`, a run also starts
/// every `delay_ms`, so the results follow the drag instead of waiting for it to stop.
pub fn install_runner(state: AppState, delay_ms: u32) {
    let pending = StoredValue::new(None::<leptos::prelude::TimeoutHandle>);
    let last_request = StoredValue::new(None::<u64>);
    // When the oldest edit not yet simulated happened, and the latest edit.
    let unserved_since = StoredValue::new(None::<f64>);
    let last_edit = StoredValue::new(None::<f64>);
    Effect::new(move |_| {
        state.scenario.track();
        let request = state.run_requests.get();
        state.bump_revision();
        state.stale.set(true);
        if let Some(h) = pending.get_value() {
            h.clear();
            pending.set_value(None);
        }
        let first = last_request.get_value().is_none();
        let pressed = last_request.get_value().is_some_and(|r| r != request);
        last_request.set_value(Some(request));
        if first || pressed || delay_ms == 0 {
            unserved_since.set_value(None);
            if pressed {
                untrack(|| state.run_fresh());
            } else {
                untrack(|| state.run_current());
            }
            if first {
                // Once the first result is up, the worker starts (and optimises its code)
                // in the background, so that a first large run starts at full speed.
                set_timeout(
                    move || state.warm_worker(),
                    std::time::Duration::from_millis(WARM_AFTER_MS),
                );
            }
            return;
        }
        // The first edit starts the worker in the background: a large scenario, when one
        // comes, then runs at once.
        untrack(|| state.warm_worker());
        let now = now_ms();
        let delay = delay_ms as f64;
        // An edit after a quiet spell (a form field, a preset, an imported file, the first
        // keystroke) runs at once; the edits that follow it closely wait as below.
        let quiet = last_edit.get_value().is_none_or(|t| now - t >= delay);
        last_edit.set_value(Some(now));
        if quiet && unserved_since.get_value().is_none() {
            if state.scenario.with_untracked(String::len) < kept::LAZY_BYTES {
                untrack(|| state.run_current());
                return;
            }
            // A large text's run is posted in a task of its own: the edit's task (the
            // editor, the undo step) and copying megabytes to the worker would otherwise
            // make one long task (issue #30).
            let handle = set_timeout_with_handle(
                move || {
                    pending.set_value(None);
                    state.run_current();
                },
                std::time::Duration::ZERO,
            )
            .ok();
            pending.set_value(handle);
            return;
        }
        let since = unserved_since.get_value().unwrap_or(now);
        unserved_since.set_value(Some(since));
        let keeps_up = state
            .run_stats
            .with_untracked(|s| s.finished > 0 && s.last_ms < delay);
        let wait = if keeps_up {
            (since + delay - now).clamp(0.0, delay)
        } else {
            delay
        };
        let handle = set_timeout_with_handle(
            move || {
                pending.set_value(None);
                unserved_since.set_value(None);
                state.run_current();
            },
            std::time::Duration::from_millis(wait as u64),
        )
        .ok();
        pending.set_value(handle);
    });
    on_cleanup(move || {
        if let Some(c) = state.runner.try_with_value(|r| r.client.clone()).flatten() {
            c.shutdown();
        }
    });
}
