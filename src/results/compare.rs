//! Compare: the scenario as given beside *partitioned* and *pooled* (SPEC 9,
//! the engine's `compare`), per share, with the deltas that show the price and the benefit
//! of lending.
//!
//! The policies come from [`quotalab_engine::compare`]; this module simulates them only while
//! the comparison is switched on, and words the differences.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::analysis::verdict::{self, Verdicts};
use quotalab_engine::compare::{self, Delta, Matched, Metric, Policy};
use quotalab_engine::digest::{Digest, DigestLimits, ShareMetrics};
use quotalab_engine_worker::jobs::{Answer, Job};

use crate::state::{now_ms, use_app};
use crate::ui::controls::checkbox;
use crate::ui::{format, palette};
use crate::worker::service::use_engine_service;

/// The three runs of one scenario (only their metrics are kept), the matched completion
/// and the engine's verdicts (SPEC 9.1).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub as_given: Digest,
    pub partitioned: Digest,
    pub pooled: Digest,
    pub matched: Vec<Matched>,
    /// As given vs partitioned, then pooled vs partitioned.
    pub verdicts: [Verdicts; 2],
    /// The as-given run is the pooled run (its verdicts are the same).
    pub given_is_pooled: bool,
}

impl Comparison {
    /// The run of `policy`.
    pub fn of(&self, policy: Policy) -> &Digest {
        match policy {
            Policy::AsGiven => &self.as_given,
            Policy::Partitioned => &self.partitioned,
            Policy::Pooled => &self.pooled,
        }
    }
}

/// The comparison's runs (and the contract card's forecast) keep metrics only: no event,
/// the fewest series points.
pub const METRICS_ONLY: DigestLimits = DigestLimits {
    max_points: 2,
    max_events: 0,
    max_jobs: 0,
};

/// The view of the engine's comparison ([`compare::run`], made in an engine worker).
pub fn view_of(compared: compare::Comparison) -> Comparison {
    let verdicts = compared.verdicts();
    let mut digests = compared.runs.into_iter().map(|(policy, output)| {
        let d = output.into_digest();
        (
            policy,
            d.unwrap_or_else(|| unreachable!("a digest was asked for")),
        )
    });
    let mut next = |want: Policy| match digests.next() {
        Some((policy, d)) if policy == want => d,
        _ => unreachable!("compare::run reports the policies in Policy::ALL order"),
    };
    Comparison {
        as_given: next(Policy::AsGiven),
        partitioned: next(Policy::Partitioned),
        pooled: next(Policy::Pooled),
        matched: compared.matched,
        verdicts,
        given_is_pooled: compared.given_is_pooled,
    }
}

/// The row label of a compared metric in the table: the engine's, except the jobs row,
/// which reads succeeded / unfinished / failed.
pub fn label(m: Metric) -> &'static str {
    match m {
        Metric::Succeeded => "Jobs succeeded / unfinished / failed",
        m => m.label(),
    }
}

/// One comparison's verdicts as a list item: the headline, then each share's sentence
/// (none when the runs are identical: the headline says so).
fn verdict_item(v: &Verdicts) -> impl IntoView {
    let shares = (!v.identical).then(|| {
        v.shares
            .iter()
            .map(|s| {
                view! { <li data-verdict=s.verdict.key() data-share=s.name.clone()>{s.sentence()}</li> }
            })
            .collect_view()
    });
    view! {
        <li>
            <strong class="verdict">{v.headline()}</strong>
            {shares.map(|s| view! { <ul class="share-verdicts">{s}</ul> })}
        </li>
    }
}

/// A value cell (`shown`, else the value in the row's scale); beside it, `d`, its difference
/// with partitioned ([`verdict::delta_of`]) in the row's scale.
fn cell(
    scale: verdict::Scale,
    d: Delta,
    (value, shown): (Option<f64>, Option<String>),
    col: &'static str,
) -> impl IntoView {
    let shown =
        shown.unwrap_or_else(|| value.map_or_else(|| "—".to_string(), |v| scale.show_bare(v)));
    let (class, text) = match d {
        Delta::Better(x) => ("delta better", Some(scale.show_delta(x))),
        Delta::Worse(x) => ("delta worse", Some(scale.show_delta(x))),
        Delta::Same => ("delta same", Some("≈".to_string())),
        Delta::NotComparable => ("delta", None),
    };
    let title = match d {
        Delta::Better(_) => "better than partitioned",
        Delta::Worse(_) => "worse than partitioned",
        Delta::Same => "about the same as partitioned",
        Delta::NotComparable => "",
    };
    let delta = (col != "partitioned")
        .then_some(text)
        .flatten()
        .map(|t| view! { <span class=class title=title>{t}</span> });
    view! {
        <td class="num" data-col=col>
            <span class="value">{shown}</span>
            {delta}
        </td>
    }
}

/// The column key of a policy (`as-given`, `partitioned`, `pooled`).
fn col(p: Policy) -> &'static str {
    match p {
        Policy::AsGiven => "as-given",
        Policy::Partitioned => "partitioned",
        Policy::Pooled => "pooled",
    }
}

fn share_table(i: usize, c: &Comparison) -> impl IntoView {
    let metrics = |p: Policy| -> &ShareMetrics { &c.of(p).shares[i] };
    let matched = c.matched.get(i);
    // No price set anywhere: every cost is $0, so the cost row is left out (a note says
    // why under the tables).
    let priced = c.as_given.priced;
    let rows = Metric::ALL
        .iter()
        .filter(|&&m| priced || m != Metric::Cost)
        .map(|&m| {
            let values = Policy::ALL.map(|p| verdict::value_of(m, p, metrics(p), matched));
            let known: Vec<f64> = values.iter().flatten().copied().collect();
            let scale = m.unit().scale_for(&known);
            let base = (Policy::Partitioned, metrics(Policy::Partitioned));
            let d = |p: Policy| verdict::delta_of(m, base, (p, metrics(p)), matched);
            // The jobs row reads succeeded / unfinished / failed, its delta the succeeded.
            let shown = |p: Policy| {
                let s = metrics(p);
                (m == Metric::Succeeded).then(|| {
                    format!(
                        "{} / {} / {}",
                        format::thousands(s.succeeded as f64),
                        format::thousands(s.unfinished as f64),
                        format::thousands(s.failed as f64)
                    )
                })
            };
            view! {
                <tr data-metric=m.key()>
                    <th scope="row">{label(m)}</th>
                    {Policy::ALL
                        .iter()
                        .map(|&p| cell(scale, d(p), (values[p as usize], shown(p)), col(p)))
                        .collect_view()}
                </tr>
            }
        })
        .collect_view();
    let name = c.as_given.shares[i].name.clone();
    let key = name.clone();
    let matched_note = matched.map(|m| {
        let most = m.succeeded.iter().copied().max().unwrap_or(0);
        format!(
            "Completion over the {} of {} jobs that succeeded under all three policies.",
            format::thousands(m.n as f64),
            format::thousands(most as f64)
        )
    });
    view! {
        <div class="compare-share">
            <table class="compare" data-testid="compare-table" data-share=key>
                <caption>
                    <span
                        class="swatch"
                        style:background-color=palette::css(i)
                        aria-hidden="true"
                    ></span>
                    {name}
                </caption>
                <thead>
                    <tr>
                        <th scope="col">"Metric"</th>
                        {Policy::ALL
                            .iter()
                            .map(|&p| {
                                view! {
                                    <th scope="col" class="num" data-col=col(p)>
                                        {verdict::policy_title(p)}
                                    </th>
                                }
                            })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            <p class="table-note matched-note" data-testid="matched-note">{matched_note}</p>
        </div>
    }
}

/// The compare card's frame: heading, the `compare-toggle` switch bound to `on`, and `body`
/// (the comparison, or where the tools mount it) under an explanation while off.
fn compare_card(on: RwSignal<bool>, body: impl IntoView + 'static) -> impl IntoView {
    view! {
        <section class="card compare-view" aria-labelledby="compare-heading" data-testid="compare-view">
            <div class="compare-head">
                <h2 id="compare-heading">"Compare policies"</h2>
                <label class="toggle">
                    {checkbox("compare-toggle", on)}
                    " Compare with partitioned and pooled"
                </label>
            </div>
            <p class="explain-intro" hidden=move || on.get()>
                "What would each team gain or lose if nobody shared (partitioned) or everybody did (pooled)? Switch on to simulate both."
            </p>
            {body}
        </section>
    }
}

/// The page's compare card. The comparison itself ([`CompareBody`]) is drawn by the lazily
/// loaded tools wasm, which mounts it into this card's `compare-host` the first time the
/// switch is turned on and is handed the page's scenario again each time a new result
/// lands: its code and the three-way captions never weigh on the page's load. `switch`
/// tells the tools (the page passes `Tool::Compare` through `io::tools::open`) the switch's
/// state and the signal that is true while they load.
#[component]
pub fn CompareView(switch: Callback<(bool, RwSignal<bool>)>) -> impl IntoView {
    let app = use_app();
    let on = RwSignal::new(false);
    let busy = RwSignal::new(false);
    Effect::new(move |prev: Option<bool>| {
        let now = on.get();
        // Re-compare when a new result lands (the text then is the one it was simulated from).
        app.outcome.track();
        if now || prev == Some(true) {
            switch.run((now, busy));
        }
        now
    });
    let host = view! {
        <div class="compare-host" data-testid="compare-host" aria-busy=move || busy.get().then_some("true")></div>
    };
    compare_card(on, host)
}

/// The compare card with its comparison drawn in place (the tools' [`CompareBody`] mounted
/// directly): what the page shows, for the component tests, which cannot import the tools.
#[component]
pub fn CompareInline() -> impl IntoView {
    let app = use_app();
    let on = RwSignal::new(false);
    // The scenario each time a new result lands, as the page hands it to the tools.
    let source = Memo::new(move |_| {
        app.outcome.track();
        app.scenario.get_untracked()
    });
    compare_card(
        on,
        view! { <CompareBody on=on.into() source=source.into() /> },
    )
}

/// The comparison (tools side): while `on`, `source` is also simulated partitioned and
/// pooled, again whenever it changes, and shown per share with the captions.
#[component]
pub fn CompareBody(on: Signal<bool>, source: Signal<String>) -> impl IntoView {
    // The comparison and how long its three runs took (ms).
    let result = RwSignal::new(None::<(Result<Arc<Comparison>, Vec<String>>, f64)>);
    let service = use_engine_service();
    let asked = StoredValue::new(0u64);
    Effect::new(move |_| {
        if !on.get() {
            // An answer still on its way is of no use now.
            asked.update_value(|n| *n += 1);
            result.set(None);
            return;
        }
        let job = Job::Compare {
            scenario: source.get(),
            limits: METRICS_ONLY,
        };
        // Simulated three ways in an engine worker; only the latest request's answer shows.
        asked.update_value(|n| *n += 1);
        let mine = asked.get_value();
        let start = now_ms();
        service.send(job, move |answer| {
            if asked.try_get_value() != Some(mine) {
                return;
            }
            let c = match answer {
                Answer::Compared(Ok(c)) => Ok(Arc::new(view_of(c))),
                Answer::Compared(Err(problems)) => {
                    Err(problems.iter().map(ToString::to_string).collect())
                }
                Answer::Failed(m) => Err(vec![m]),
                _ => return,
            };
            result.set(Some((c, now_ms() - start)));
        });
    });
    let body = move || {
        let (r, millis) = result.get()?;
        Some(match r {
            Err(problems) => view! {
                <p class="compare-error">
                    {format!(
                        "The scenario has {} problem{}: fix it to compare.",
                        problems.len(),
                        if problems.len() == 1 { "" } else { "s" }
                    )}
                </p>
            }
            .into_any(),
            Ok(c) => {
                let tables = (0..c.as_given.shares.len())
                    .map(|i| share_table(i, &c))
                    .collect_view();
                let status = format!(
                    "{} simulated three ways in {}.",
                    format::count_of(c.as_given.totals.submitted, "job", "jobs"),
                    format::millis(millis)
                );
                view! {
                    <p class="compare-status" data-testid="compare-status">{status}</p>
                    <ul class="compare-captions" data-testid="compare-caption">
                        {verdict_item(&c.verdicts[0])}
                        {if c.given_is_pooled {
                            view! { <li>{compare::GIVEN_IS_POOLED}</li> }.into_any()
                        } else {
                            verdict_item(&c.verdicts[1]).into_any()
                        }}
                    </ul>
                    <div class="compare-grid">{tables}</div>
                    {(!c.as_given.priced).then(|| view! {
                        <p class="table-note" data-testid="compare-no-price">
                            {crate::results::summary::no_price_note(c.as_given.kueue.is_some())}
                        </p>
                    })}
                    <p class="table-note">
                        {format!("A comparison changes only lending; everything else (in-share preemption, priorities, grace, retries, recovery, events) is as given. Partitioned: nobody lends or borrows. Pooled: everybody lends and borrows without limits. Completion is compared over the matched jobs, those that succeeded under all three policies. Deltas are against partitioned; green is better, red worse, ≈ about the same ({}). Interruption: instance-hours lost, spent starting up or restoring, saving checkpoints and in grace periods. Cost of held instances: instance-hours held × price.", quotalab_engine::analysis::verdict::ABOUT_THE_SAME)}
                    </p>
                }
                .into_any()
            }
        })
    };
    body
}
