//! The page's state: one scenario text is the source of truth; every view reads the last
//! good run from here. Provided as a context by [`crate::App`].
//!
//! Editing the scenario re-simulates after a short pause (debounced); an invalid scenario
//! keeps the last good result on screen, marked stale, with the validator's problems.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, DigestLimits};
use quotalab_engine::Problem;

/// One finished simulation as the page shows it.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub digest: Arc<Digest>,
    /// Wall time of validation + simulation, in milliseconds.
    pub millis: f64,
}

/// Shared page state (cheap to copy: every field is a signal).
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
        }
    }

    /// Validates and simulates `text` now, updating the state.
    pub fn run_now(&self, text: &str) {
        let start = now_ms();
        match quotalab_engine::load(text) {
            Err(problems) => {
                self.problems.set(problems);
                self.stale.set(true);
            }
            Ok(loaded) => {
                let sim = quotalab_engine::simulate(
                    &loaded.scenario,
                    quotalab_engine::Options::default(),
                );
                let digest = quotalab_engine::digest::digest(&sim, DigestLimits::default());
                let millis = now_ms() - start;
                self.problems.set(Vec::new());
                self.warnings.set(loaded.warnings);
                self.outcome.set(Some(RunOutcome {
                    digest: Arc::new(digest),
                    millis,
                }));
                self.stale.set(false);
            }
        }
    }
}

/// The page's state from context (panics only if used outside [`crate::App`]).
pub fn use_app() -> AppState {
    expect_context::<AppState>()
}

/// Milliseconds from the page's clock (0 outside a browser).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Re-simulates after each edit, `delay_ms` after the last one; at once for the first
/// scenario and when the Run button is pressed.
pub fn install_runner(state: AppState, delay_ms: u32) {
    let pending = StoredValue::new(None::<leptos::prelude::TimeoutHandle>);
    let last_request = StoredValue::new(None::<u64>);
    Effect::new(move |_| {
        let text = state.scenario.get();
        let request = state.run_requests.get();
        state.stale.set(true);
        if let Some(h) = pending.get_value() {
            h.clear();
            pending.set_value(None);
        }
        let first = last_request.get_value().is_none();
        let pressed = last_request.get_value().is_some_and(|r| r != request);
        last_request.set_value(Some(request));
        if first || pressed || delay_ms == 0 {
            state.run_now(&text);
            return;
        }
        let handle = set_timeout_with_handle(
            move || {
                pending.set_value(None);
                state.run_now(&state.scenario.get_untracked());
            },
            std::time::Duration::from_millis(delay_ms as u64),
        )
        .ok();
        pending.set_value(handle);
    });
}
