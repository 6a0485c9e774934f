//! Compare: the scenario as given beside *partitioned* and *pooled* (SPEC 9,
//! the engine's `compare`), per share, with the deltas that show the price and the benefit
//! of lending.
//!
//! The policies come from [`quotalab_engine::compare`]; this module simulates them only while
//! the comparison is switched on, and words the differences.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::compare::{self, Delta, Metric, Policy, ShareChange, Verdict};
use quotalab_engine::digest::{Digest, DigestLimits};
use quotalab_engine::pipeline::Product;

use crate::state::{now_ms, use_app};
use crate::ui::{format, palette};

/// The three runs of one scenario (only their metrics are kept).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub as_given: Digest,
    pub partitioned: Digest,
    pub pooled: Digest,
}

/// Validates `text` and simulates it as given, partitioned and pooled (the engine's
/// [`compare::run`]); every problem as text if it is invalid.
pub fn run_comparison(text: &str) -> Result<Comparison, Vec<String>> {
    // Metrics only: no event, the fewest series points.
    let limits = DigestLimits {
        max_points: 2,
        max_events: 0,
    };
    let compared = compare::run(text, Product::Digest(limits))
        .map_err(|ps| ps.iter().map(ToString::to_string).collect::<Vec<_>>())?;
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
    Ok(Comparison {
        as_given: next(Policy::AsGiven),
        partitioned: next(Policy::Partitioned),
        pooled: next(Policy::Pooled),
    })
}

/// How the page shows a compared metric (the metric, its rule and its deltas are the
/// engine's, [`quotalab_engine::compare::Metric`]).
pub trait MetricWords {
    /// The row label of the table.
    fn label(self) -> &'static str;
    /// The metric inside a sentence ("p50 completion").
    fn phrase(self) -> &'static str;
    /// A value as the table shows it; `—` where undefined.
    fn show(self, v: Option<f64>) -> String;
    /// A signed difference as the table shows it, e.g. `−3.0 h`, `+12`, `+2 pts`.
    fn show_delta(self, d: f64) -> String;
}

impl MetricWords for Metric {
    fn label(self) -> &'static str {
        match self {
            Metric::CompletionP50 => "Completion p50",
            Metric::CompletionP90 => "Completion p90",
            Metric::WaitP50 => "Wait p50",
            Metric::DeadlineMisses => "Deadline misses",
            Metric::InterruptionCost => "Interruption (instance-hours)",
            Metric::Goodput => "Goodput",
            Metric::Cost => "Cost of held instances",
        }
    }

    fn phrase(self) -> &'static str {
        match self {
            Metric::CompletionP50 => "p50 completion",
            Metric::CompletionP90 => "p90 completion",
            Metric::WaitP50 => "p50 wait",
            Metric::DeadlineMisses => "deadline misses",
            Metric::InterruptionCost => "interruption instance-hours",
            Metric::Goodput => "goodput",
            Metric::Cost => "cost",
        }
    }

    fn show(self, v: Option<f64>) -> String {
        match (self, v) {
            (_, None) => "—".into(),
            (Metric::InterruptionCost, Some(h)) => format::hours(h),
            (Metric::Goodput, Some(g)) => format::percent(Some(g)),
            (Metric::DeadlineMisses, Some(n)) => format::thousands(n),
            (Metric::Cost, Some(usd)) => format::usd(usd),
            (_, Some(s)) => format::duration(s),
        }
    }

    fn show_delta(self, d: f64) -> String {
        let sign = if d < 0.0 { "−" } else { "+" };
        let a = d.abs();
        let body = match self {
            Metric::InterruptionCost => format::hours(a),
            Metric::Goodput => {
                let pts = (a * 100.0).round();
                format!("{pts:.0} {}", if pts == 1.0 { "pt" } else { "pts" })
            }
            Metric::DeadlineMisses => format::thousands(a),
            Metric::Cost => format::usd(a),
            _ => format::duration(a),
        };
        format!("{sign}{body}")
    }
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// At most three items then "N more": "vision, language and 2 more".
fn some_of(items: &[String]) -> String {
    if items.len() <= 3 {
        return join_and(items);
    }
    let mut words = items[..3].to_vec();
    words.push(format!("{} more", items.len() - 3));
    join_and(&words)
}

/// The headline of one comparison: the engine's verdict per share ([`compare::changes`]),
/// then the deltas behind it, worded exactly as the table shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct Caption {
    /// "Lending (pooled vs partitioned) helps vision, hurts batch and is mixed for speech."
    pub verdict: String,
    /// "Better: p50 completion for vision (−3.0 h) and language (−73.1 min); …", if any.
    pub better: Option<String>,
    /// "Worse: …", if any.
    pub worse: Option<String>,
}

/// Words `changes` (what `what` does against its base), e.g. `what` = "Lending (pooled vs
/// partitioned)".
pub fn caption(what: &str, changes: &[ShareChange]) -> Caption {
    let names = |v: Verdict| -> Vec<String> {
        changes
            .iter()
            .filter(|c| c.verdict == v)
            .map(|c| c.name.clone())
            .collect()
    };
    let (helps, hurts, mixed, same) = (
        names(Verdict::Helps),
        names(Verdict::Hurts),
        names(Verdict::Mixed),
        names(Verdict::Unchanged),
    );
    let mut parts = Vec::new();
    if !helps.is_empty() {
        parts.push(format!("helps {}", some_of(&helps)));
    }
    if !hurts.is_empty() {
        parts.push(format!("hurts {}", some_of(&hurts)));
    }
    if !mixed.is_empty() {
        parts.push(format!("is mixed for {}", some_of(&mixed)));
    }
    let verdict = if parts.is_empty() {
        format!("{what} changes no metric of any share.")
    } else {
        if !same.is_empty() {
            parts.push(format!("leaves {} unchanged", some_of(&same)));
        }
        format!("{what} {}.", join_and(&parts))
    };
    // Per metric, the shares it moved, largest difference first (at most three named).
    let list = |better: bool| -> Option<String> {
        let clauses: Vec<String> = Metric::ALL
            .iter()
            .enumerate()
            .filter_map(|(k, &m)| {
                let mut moved: Vec<(f64, String)> = changes
                    .iter()
                    .filter_map(|c| match c.deltas[k].1 {
                        Delta::Better(d) if better => Some((d, c.name.clone())),
                        Delta::Worse(d) if !better => Some((d, c.name.clone())),
                        _ => None,
                    })
                    .collect();
                if moved.is_empty() {
                    return None;
                }
                quotalab_engine::sort::stable_by(&mut moved, &|a, b| {
                    b.0.abs().total_cmp(&a.0.abs())
                });
                let words: Vec<String> = moved
                    .iter()
                    .map(|(d, name)| format!("{name} ({})", m.show_delta(*d)))
                    .collect();
                Some(format!("{} for {}", m.phrase(), some_of(&words)))
            })
            .collect();
        (!clauses.is_empty()).then(|| {
            format!(
                "{}: {}.",
                if better { "Better" } else { "Worse" },
                clauses.join("; ")
            )
        })
    };
    Caption {
        verdict,
        better: list(true),
        worse: list(false),
    }
}

fn caption_item(c: Caption) -> impl IntoView {
    view! {
        <li>
            <strong class="verdict">{c.verdict}</strong>
            {c.better.map(|t| view! { " " <span class="better-list">{t}</span> })}
            {c.worse.map(|t| view! { " " <span class="worse-list">{t}</span> })}
        </li>
    }
}

fn cell(metric: Metric, base: Option<f64>, value: Option<f64>, col: &'static str) -> impl IntoView {
    let d = compare::delta(metric, base, value);
    let (class, text) = match d {
        Delta::Better(x) => ("delta better", Some(metric.show_delta(x))),
        Delta::Worse(x) => ("delta worse", Some(metric.show_delta(x))),
        Delta::Same => ("delta same", Some("=".to_string())),
        Delta::NotComparable => ("delta", None),
    };
    let title = match d {
        Delta::Better(_) => "better than partitioned",
        Delta::Worse(_) => "worse than partitioned",
        _ => "",
    };
    let delta = (col != "partitioned")
        .then_some(text)
        .flatten()
        .map(|t| view! { <span class=class title=title>{t}</span> });
    view! {
        <td class="num" data-col=col>
            <span class="value">{metric.show(value)}</span>
            {delta}
        </td>
    }
}

fn share_table(i: usize, c: &Comparison) -> impl IntoView {
    let (g, p, o) = (
        &c.as_given.shares[i],
        &c.partitioned.shares[i],
        &c.pooled.shares[i],
    );
    let rows = Metric::ALL
        .iter()
        .map(|&m| {
            let base = m.value(p);
            view! {
                <tr data-metric=m.key()>
                    <th scope="row">{m.label()}</th>
                    {cell(m, base, m.value(g), "as-given")}
                    {cell(m, base, base, "partitioned")}
                    {cell(m, base, m.value(o), "pooled")}
                </tr>
            }
        })
        .collect_view();
    let name = g.name.clone();
    let key = name.clone();
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
                        <th scope="col" class="num" data-col="as-given">"As given"</th>
                        <th scope="col" class="num" data-col="partitioned">"Partitioned"</th>
                        <th scope="col" class="num" data-col="pooled">"Pooled"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
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
                    <input
                        type="checkbox"
                        data-testid="compare-toggle"
                        prop:checked=move || on.get()
                        on:change=move |ev| on.set(event_target_checked(&ev))
                    />
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
    Effect::new(move |_| {
        if !on.get() {
            result.set(None);
            return;
        }
        let text = source.get();
        let start = now_ms();
        let c = run_comparison(&text).map(Arc::new);
        result.set(Some((c, now_ms() - start)));
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
                let lending = caption(
                    "Lending (pooled vs partitioned)",
                    &compare::changes(&c.partitioned, &c.pooled),
                );
                let given = if compare::same_metrics(&c.as_given, &c.pooled) {
                    view! { <li>"As given, this scenario behaves exactly as pooled."</li> }
                        .into_any()
                } else if compare::same_metrics(&c.as_given, &c.partitioned) {
                    view! { <li>"As given, this scenario behaves exactly as partitioned."</li> }
                        .into_any()
                } else {
                    caption_item(caption(
                        "As given (vs partitioned), the scenario's sharing",
                        &compare::changes(&c.partitioned, &c.as_given),
                    ))
                    .into_any()
                };
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
                        {caption_item(lending)}
                        {given}
                    </ul>
                    <div class="compare-grid">{tables}</div>
                    <p class="table-note">
                        "Partitioned: every share RESERVE, no preemption. Pooled: every share LEND_AND_BORROW without a borrow limit. Deltas are against partitioned; green is better, red worse. Interruption: instance-hours lost, spent starting up or restoring, saving checkpoints and in grace periods. Cost of held instances: instance-hours held × price. A share is helped when some metric is better and none worse, hurt when some is worse and none better, mixed when both."
                    </p>
                }
                .into_any()
            }
        })
    };
    body
}
