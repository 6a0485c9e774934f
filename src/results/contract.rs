//! The interruption contract (SPEC 14): one card per share that answers its four questions
//! with this run's numbers, the share's agreement beside it.
//!
//! Words and numbers are the engine's ([`quotalab_engine::analysis::contract_card`]); this
//! module only lays them out, as text nodes (an agreement is never HTML). The forecast
//! needs the partitioned and pooled variants (SPEC 9.1: completion over the jobs that
//! succeeded under all three): they are simulated in an engine worker (the page's
//! [`EngineService`](crate::worker::service::EngineService)), metrics only, after a current
//! result lands, and only while the cards are shown.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::analysis::contract_card::{self, Card, Row, NO_AGREEMENT};
use quotalab_engine::compare::ShareForecast;
use quotalab_engine::digest::Digest;
use quotalab_engine_worker::jobs::{Answer, Job};

use crate::state::AppState;
use crate::ui::palette;
use crate::worker::service::use_engine_service;

fn rows(rows: Vec<Row>, class: &'static str) -> impl IntoView {
    view! {
        <dl class=class>
            {rows
                .into_iter()
                .map(|r| view! { <dt>{r.label}</dt><dd>{r.value}</dd> })
                .collect_view()}
        </dl>
    }
}

fn card_view(c: Card) -> impl IntoView {
    let name = c.name;
    let agreement = match &c.agreement {
        Some(a) => rows(contract_card::agreement_rows(a), "agreement").into_any(),
        None => view! { <p class="agreement none">{NO_AGREEMENT}</p> }.into_any(),
    };
    let answers = c
        .answers
        .into_iter()
        .map(|a| {
            let verdict = a.verdict.map(|(tone, text)| {
                view! { <p class=format!("verdict tone-{}", tone.key())>{text}</p> }
            });
            view! {
                <div class="contract-q" data-question=a.question.key()>
                    <h4>{a.question.title()}</h4>
                    {rows(a.rows, "answer")}
                    {verdict}
                </div>
            }
        })
        .collect_view();
    view! {
        <article
            class="contract-card"
            data-testid="contract-card"
            data-share=name.clone()
            data-forecast=if c.forecast_pending { "pending" } else { "ready" }
        >
            <h3>
                <span class="swatch" style:background-color=palette::css(c.share) aria-hidden="true"></span>
                {name.clone()}
            </h3>
            {agreement}
            <div class="contract-answers">{answers}</div>
        </article>
    }
}

/// The cards of `digest`'s shares; its forecast is simulated (from the page's scenario text,
/// when the result shown is current) after the cards are first drawn.
#[component]
pub fn ContractCards(#[prop(into)] digest: Signal<Arc<Digest>>) -> impl IntoView {
    let app = use_context::<AppState>();
    let service = use_engine_service();
    // The forecast and the digest it belongs to.
    let forecast = RwSignal::new(None::<(usize, Arc<Vec<ShareForecast>>)>);
    let key = |d: &Arc<Digest>| Arc::as_ptr(d) as usize;
    Effect::new(move |_| {
        let d = digest.get();
        let Some(app) = app else { return };
        if app.stale.get()
            || forecast.with_untracked(|f| f.as_ref().is_some_and(|f| f.0 == key(&d)))
        {
            return;
        }
        // Simulated three ways in an engine worker: the page never waits for it.
        let job = Job::Compare {
            scenario: app.scenario.get_untracked(),
            limits: super::compare::METRICS_ONLY,
        };
        service.send(job, move |answer| {
            let Answer::Compared(Ok(c)) = answer else {
                return;
            };
            if digest.try_with_untracked(|cur| key(cur) == key(&d)) == Some(true) {
                forecast.set(Some((key(&d), Arc::new(c.forecast))));
            }
        });
    });
    let cards = move || {
        let d = digest.get();
        let f = forecast.get().filter(|f| f.0 == key(&d)).map(|f| f.1);
        // A later run that only relabelled this one: its agreements.
        let label = app.and_then(|a| a.label.get());
        contract_card::cards_labelled(&d, label.as_deref(), f.as_deref().map(Vec::as_slice))
            .into_iter()
            .map(card_view)
            .collect_view()
    };
    view! { <div class="contract-grid">{cards}</div> }
}
