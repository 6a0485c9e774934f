//! Never an empty result (SPEC 16): a scenario without jobs (a configuration just imported)
//! gets, instead of cards of zeros, an offer in one step: a typical load per queue (the
//! engine's `config::typical_load`, in the engine worker) or the user's own jobs (a
//! cluster's job history or a CSV trace, whose dialogs the Files menu opens when asked). Either is one undoable
//! edit of the scenario.

use leptos::prelude::*;
use quotalab_engine::config::typical_load::MAX_PERCENT;
use quotalab_engine_worker::config::{Request, Response};

use crate::state::{use_app, ImportKind, Notice};
use crate::worker::service::use_config_service;

/// The busy share offered first, in percent of each queue's quota.
const DEFAULT_PERCENT: u32 = 60;

/// The offer shown above the results when the run had no job.
#[component]
pub fn EmptyOffer() -> impl IntoView {
    let app = use_app();
    let service = use_config_service();
    let percent = RwSignal::new(DEFAULT_PERCENT.to_string());
    let busy = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);
    let add = move |_| {
        let p = percent.get_untracked();
        let value = match p.trim().parse::<u32>() {
            Ok(v) if (1..=MAX_PERCENT).contains(&v) => v,
            _ => {
                problem.set(Some(format!(
                    "Busy share: enter a whole number of percent from 1 to {MAX_PERCENT} (got \u{201c}{p}\u{201d})."
                )));
                return;
            }
        };
        problem.set(None);
        busy.set(true);
        let scenario = app.scenario.get_untracked();
        service.send(
            Request::TypicalLoad {
                scenario,
                percent: value,
            },
            move |response| {
                busy.set(false);
                match response {
                    Response::Loaded(Ok(imp)) => {
                        app.notice.set(Some(Notice::info(
                            "Added a typical load per queue (Undo takes it back).",
                            imp.warnings,
                        )));
                        app.scenario.set(imp.scenario);
                    }
                    Response::Loaded(Err(lines)) => problem.set(Some(lines.join("; "))),
                    Response::Failed(m) => problem.set(Some(m)),
                    _ => {}
                }
            },
        );
    };
    view! {
        <section class="card empty-offer" data-testid="empty-offer" aria-labelledby="empty-offer-heading">
            <h2 id="empty-offer-heading">"No jobs yet: nothing to simulate"</h2>
            <p>
                "The scenario has its queues and quotas but no job, so every figure below would read 0. Give it work in one step (Undo takes it back):"
            </p>
            <div class="empty-offer-row">
                <label class="trace-field">
                    <span class="trace-label">"Busy share of each queue's quota (%)"</span>
                    <input
                        type="number"
                        min="1"
                        max=MAX_PERCENT.to_string()
                        step="5"
                        data-testid="typical-load-percent"
                        prop:value=move || percent.get()
                        on:input=move |ev| percent.set(event_target_value(&ev))
                    />
                </label>
                <button
                    type="button"
                    class="primary"
                    data-testid="typical-load-add"
                    prop:disabled=move || busy.get()
                    on:click=add
                >
                    {move || if busy.get() { "Adding…" } else { "Add a typical load" }}
                </button>
            </div>
            <p class="empty-offer-note">
                "One-instance jobs arriving over a day at each queue's rate (Poisson), work about an hour (lognormal), priorities from the scenario's priority classes."
            </p>
            {move || problem.get().map(|p| view! { <p class="trace-problems" role="alert" data-testid="typical-load-problem">{p}</p> })}
            <p>
                "Or replay your own jobs: "
                <button
                    type="button"
                    data-testid="empty-offer-trace"
                    on:click=move |_| app.request_import(ImportKind::Trace)
                >
                    "Import a job trace (CSV)…"
                </button>
                " "
                <button
                    type="button"
                    data-testid="empty-offer-history"
                    on:click=move |_| app.request_import(ImportKind::History)
                >
                    "Import job history (Kueue Workloads, AWS Batch jobs)…"
                </button>
            </p>
        </section>
    }
}
