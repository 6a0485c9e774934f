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
pub mod empty;
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
use crate::ui::card::card;
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
                view! {
                    <Show when=move || d.with(|d| d.jobs.is_empty() && d.event_count == 0)>
                        <empty::EmptyOffer />
                    </Show>
                    <RunResults digest=d cursor=app.cursor />
                }
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
    // Each job's stretches, replayed once per result for the Gantt, the cursor's card and
    // the "state at t" panel.
    let stretches = timeline::Stretches::new();
    // The charts over time show the state at their cursor beside it.
    provide_context(timeline::cursor_card(digest, cursor, stretches));
    view! {
        {card("summary", "Summary", "", None, view! {
            <SummaryTable digest=digest />
        })}
        <Show when=move || digest.with(|d| d.contract.used)>
            {card("contract", "Interruption contract", "", Some("contract-view"), view! {
                <contract::ContractCards digest=digest />
            })}
            // SPEC 14: useful work on the allocation and on borrowed capacity, per share.
            {card("useful", "Useful work: allocation or borrowed", "", None, view! {
                <UsefulChart digest=digest />
            })}
        </Show>
        {card("allocation", "Allocation vs consumption", "", None, view! {
            <AllocationChart digest=digest cursor=cursor />
        })}
        <Show when=move || digest.with(|d| d.kueue.is_some())>
            {card("cohort-tree", "Cohort tree", "", Some("cohort-tree-card"), view! {
                <cohorts::CohortTree digest=digest cursor=cursor />
            })}
        </Show>
        {card("occupancy", "Cluster occupancy", "", None, view! {
            <OccupancyChart digest=digest cursor=cursor />
        })}
        {card("completion", "Completion time", "", None, view! {
            <CompletionChart digest=digest />
        })}
        {card("interruption", "Interruption cost", "", None, view! {
            <div class="interruption-layout">
                <InterruptionChart digest=digest />
                // SLOT (checkpoint advisor): `explain::CheckpointAdvisor` goes here,
                // beside the bars, when it exists; the layout gives it the right column.
                <div class="advisor-slot"></div>
            </div>
        })}
        {card("timeline", "Timeline", "", None, view! {
            <Timeline digest=digest cursor=cursor stretches=stretches />
        })}
        // SLOT (compare): the compare section (`compare`) goes here.
        // SLOT (event log): the event log section (`explain`) goes here.
    }
}
