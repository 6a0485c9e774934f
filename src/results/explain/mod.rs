//! Explanations: the event log ([`log`]), one job's history ([`history`](mod@history)) and the
//! checkpoint advisor ([`advisor`]), with the helpers they share (the selected job, times,
//! names, colour swatches).
//!
//! Everything here reads the last good run's [`Digest`]: the engine wrote the events and
//! their explanations, and [`quotalab_engine::advisor`] does the checkpoint arithmetic; this
//! module only filters, words and lays them out.

pub mod advisor;
pub mod history;
pub mod log;

pub use self::advisor::{advice_sentence, CheckpointAdvisor};
pub use self::history::{history, Entry, History, HistoryEntry, JobHistory};
pub use self::log::{
    describe, filter_events, kind_counts, EventLog, Filter, FIRST_PAGE, KINDS, MORE,
};

use leptos::prelude::*;
use quotalab_engine::digest::Digest;

use crate::ui::palette;

/// The job whose history is open (by id, so that it survives a re-run).
#[derive(Clone, Copy)]
pub struct SelectedJob(pub RwSignal<Option<String>>);

/// Provides the selection shared by [`EventLog`] and [`JobHistory`] to the components below
/// the current owner; [`crate::App`] calls it once.
pub fn provide_selected_job() -> RwSignal<Option<String>> {
    let s = RwSignal::new(None);
    provide_context(SelectedJob(s));
    s
}

fn selected_job() -> RwSignal<Option<String>> {
    use_context::<SelectedJob>().map_or_else(provide_selected_job, |s| s.0)
}

fn job_id(d: &Digest, j: Option<u32>) -> Option<&str> {
    j.and_then(|j| d.jobs.get(j as usize))
        .map(|r| r.id.as_str())
}

fn share_name(d: &Digest, s: u16) -> &str {
    d.shares
        .get(usize::from(s))
        .map_or("?", |m| m.name.as_str())
}

fn swatch(i: u16) -> impl IntoView {
    view! {
        <span
            class="swatch"
            style:background-color=palette::css(usize::from(i))
            aria-hidden="true"
        ></span>
    }
}
