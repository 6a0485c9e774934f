//! Everything shown about the last good run, from its [`Digest`] (`app.outcome`): the
//! summary table ([`summary`]), the charts, the timeline and the state at the cursor
//! ([`timeline`]), the comparison of two strategies ([`compare`]) and the explanations
//! ([`explain`]: the event log, one job's history, the checkpoint advisor), and the
//! interruption contract's cards when the scenario uses SPEC 14 ([`contract`]). Nothing here
//! decides anything; only compare and the contract's forecast re-run the scenario, under a
//! reference policy of the engine's.

pub mod cohorts;
pub mod compare;
pub mod contract;
pub mod explain;
pub mod summary;
pub mod timeline;

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;

use crate::charts::{
    AllocationChart, CompletionChart, InterruptionChart, OccupancyChart, UsefulChart,
};
use crate::state::{last_digest, use_app};
use summary::SummaryTable;
use timeline::Timeline;

/// The results panel of the page, fed by `app.outcome`.
#[component]
pub fn ResultsPanel() -> impl IntoView {
    let app = use_app();
    let digest = last_digest();
    view! {
        <Show
            when=move || digest.with(Option::is_some)
            fallback=|| view! { <p class="empty-note results-pending">"Simulating…"</p> }
        >
            {move || {
                let d = Signal::derive(move || digest.get().unwrap_or_else(|| Arc::new(Digest::default())));
                view! { <RunResults digest=d cursor=app.cursor /> }
            }}
        </Show>
    }
}

/// Every section about one run, in reading order.
#[component]
pub fn RunResults(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    cursor: RwSignal<Option<f64>>,
) -> impl IntoView {
    // The charts over time show the state at their cursor beside it.
    provide_context(timeline::cursor_card(digest, cursor));
    view! {
        <section class="card" aria-labelledby="summary-heading">
            <h2 id="summary-heading">"Summary"</h2>
            <SummaryTable digest=digest />
        </section>
        <Show when=move || digest.with(|d| d.contract.used)>
            <section class="card" aria-labelledby="contract-heading" data-testid="contract-view">
                <h2 id="contract-heading">"Interruption contract"</h2>
                <contract::ContractCards digest=digest />
            </section>
            // SPEC 14: useful work on the allocation and on borrowed capacity, per share.
            <section class="card" aria-labelledby="useful-heading">
                <h2 id="useful-heading">"Useful work: allocation or borrowed"</h2>
                <UsefulChart digest=digest />
            </section>
        </Show>
        <section class="card" aria-labelledby="allocation-heading">
            <h2 id="allocation-heading">"Allocation vs consumption"</h2>
            <AllocationChart digest=digest cursor=cursor />
        </section>
        <Show when=move || digest.with(|d| d.kueue.is_some())>
            <section class="card" aria-labelledby="cohort-tree-heading" data-testid="cohort-tree-card">
                <h2 id="cohort-tree-heading">"Cohort tree"</h2>
                <cohorts::CohortTree digest=digest cursor=cursor />
            </section>
        </Show>
        <section class="card" aria-labelledby="occupancy-heading">
            <h2 id="occupancy-heading">"Cluster occupancy"</h2>
            <OccupancyChart digest=digest cursor=cursor />
        </section>
        <section class="card" aria-labelledby="completion-heading">
            <h2 id="completion-heading">"Completion time"</h2>
            <CompletionChart digest=digest />
        </section>
        <section class="card" aria-labelledby="interruption-heading">
            <h2 id="interruption-heading">"Interruption cost"</h2>
            <div class="interruption-layout">
                <InterruptionChart digest=digest />
                // SLOT (checkpoint advisor): `explain::CheckpointAdvisor` goes here,
                // beside the bars, when it exists; the layout gives it the right column.
                <div class="advisor-slot"></div>
            </div>
        </section>
        <section class="card" aria-labelledby="timeline-heading">
            <h2 id="timeline-heading">"Timeline"</h2>
            <Timeline digest=digest cursor=cursor />
        </section>
        // SLOT (compare): the compare section (`compare`) goes here.
        // SLOT (event log): the event log section (`explain`) goes here.
    }
}
