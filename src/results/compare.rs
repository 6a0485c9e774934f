//! Compare: the scenario as given beside *partitioned* and *pooled* (SPEC 9,
//! the engine's `compare`), per share, with the deltas that show the price and the benefit
//! of lending.
//!
//! The policies come from [`quotalab_engine::compare`]; this module simulates them only while
//! the comparison is switched on, and words the differences.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::compare::{self, Policy};
use quotalab_engine::digest::{Digest, DigestLimits, ShareMetrics};
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

/// Whether a smaller value of a metric is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    Lower,
    Higher,
}

/// A compared metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    CompletionP50,
    CompletionP90,
    WaitP50,
    /// lost + startup + checkpoint + grace instance-hours.
    InterruptionCost,
    Goodput,
}

impl Metric {
    pub const ALL: [Metric; 5] = [
        Metric::CompletionP50,
        Metric::CompletionP90,
        Metric::WaitP50,
        Metric::InterruptionCost,
        Metric::Goodput,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Metric::CompletionP50 => "Completion p50",
            Metric::CompletionP90 => "Completion p90",
            Metric::WaitP50 => "Wait p50",
            Metric::InterruptionCost => "Interruption cost (inst.-h)",
            Metric::Goodput => "Goodput",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Metric::CompletionP50 => "completion-p50",
            Metric::CompletionP90 => "completion-p90",
            Metric::WaitP50 => "wait-p50",
            Metric::InterruptionCost => "interruption-cost",
            Metric::Goodput => "goodput",
        }
    }

    pub fn better(self) -> Better {
        match self {
            Metric::Goodput => Better::Higher,
            _ => Better::Lower,
        }
    }

    /// The value for one share (`None` where it is undefined: no job succeeded or started,
    /// nothing held).
    pub fn value(self, m: &ShareMetrics) -> Option<f64> {
        match self {
            Metric::CompletionP50 => (m.completion_s.n > 0).then_some(m.completion_s.p50),
            Metric::CompletionP90 => (m.completion_s.n > 0).then_some(m.completion_s.p90),
            Metric::WaitP50 => (m.wait_s.n > 0).then_some(m.wait_s.p50),
            Metric::InterruptionCost => Some(m.lost_h + m.startup_h + m.checkpoint_h + m.grace_h),
            Metric::Goodput => (m.held_h > 0.0).then_some(m.goodput),
        }
    }

    pub fn show(self, v: Option<f64>) -> String {
        match (self, v) {
            (_, None) => "—".into(),
            (Metric::InterruptionCost, Some(h)) => format::hours(h),
            (Metric::Goodput, Some(g)) => format::percent(Some(g)),
            (_, Some(s)) => format::duration(s),
        }
    }

    /// A signed difference, e.g. `−3.0 h`, `+0.25`, `+2 pts`.
    pub fn show_delta(self, d: f64) -> String {
        let sign = if d < 0.0 { "−" } else { "+" };
        let a = d.abs();
        let body = match self {
            Metric::InterruptionCost => format::hours(a),
            Metric::Goodput => format!("{:.0} pts", a * 100.0),
            _ => format::duration(a),
        };
        format!("{sign}{body}")
    }

    /// Differences smaller than this are shown as no change.
    fn tolerance(self, base: f64) -> f64 {
        match self {
            Metric::Goodput => 0.005,
            Metric::InterruptionCost => 0.005_f64.max(base.abs() * 0.005),
            _ => 1.0_f64.max(base.abs() * 0.005),
        }
    }
}

/// How `value` compares with `base` for a metric.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Delta {
    Better(f64),
    Worse(f64),
    Same,
    /// One side is undefined.
    NotComparable,
}

pub fn delta(metric: Metric, base: Option<f64>, value: Option<f64>) -> Delta {
    let (Some(b), Some(v)) = (base, value) else {
        return Delta::NotComparable;
    };
    let d = v - b;
    if d.abs() < metric.tolerance(b) {
        return Delta::Same;
    }
    let better = match metric.better() {
        Better::Lower => d < 0.0,
        Better::Higher => d > 0.0,
    };
    if better {
        Delta::Better(d)
    } else {
        Delta::Worse(d)
    }
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Names and amounts, largest first, at most three then "and N more": "vision 3.0 h and
/// language 1.2 h".
fn listing(mut items: Vec<(f64, String, String)>) -> String {
    quotalab_engine::sort::stable_by(&mut items, &|a, b| b.0.total_cmp(&a.0));
    let n = items.len();
    let mut words: Vec<String> = items
        .into_iter()
        .take(3)
        .map(|(_, name, amount)| format!("{name} {amount}"))
        .collect();
    if n > 3 {
        words.push(format!("{} more", n - 3));
    }
    join_and(&words)
}

/// The plain-words summary of what `other` changes against `base` over all shares, e.g.
/// "lending saves vision 3.0 h and language 1.2 h at p50 completion but costs language
/// 1.80 h of interruption time". `what` names the change ("Lending (pooled vs
/// partitioned)").
pub fn caption(what: &str, base: &Digest, other: &Digest) -> String {
    let (mut saves, mut delays, mut costs, mut relieves) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (b, o) in base.shares.iter().zip(&other.shares) {
        let name = b.name.clone();
        let m = Metric::CompletionP50;
        match delta(m, m.value(b), m.value(o)) {
            Delta::Better(d) => saves.push((-d, name.clone(), format::duration(-d))),
            Delta::Worse(d) => delays.push((d, name.clone(), format::duration(d))),
            _ => {}
        }
        let m = Metric::InterruptionCost;
        match delta(m, m.value(b), m.value(o)) {
            Delta::Worse(d) => costs.push((d, name, format!("{} h", format::hours(d)))),
            Delta::Better(d) => relieves.push((-d, name, format!("{} h", format::hours(-d)))),
            _ => {}
        }
    }
    let mut good = Vec::new();
    if !saves.is_empty() {
        good.push(format!("saves {} at p50 completion", listing(saves)));
    }
    if !relieves.is_empty() {
        good.push(format!("spares {} of interruption time", listing(relieves)));
    }
    let mut bad = Vec::new();
    if !costs.is_empty() {
        bad.push(format!(
            "costs {} of interruption time (lost work, restarts, saves, grace)",
            listing(costs)
        ));
    }
    if !delays.is_empty() {
        bad.push(format!("delays {} at p50", listing(delays)));
    }
    match (good.is_empty(), bad.is_empty()) {
        (true, true) => format!("{what} changes no share's p50 completion or interruption time."),
        (false, true) => format!("{what} {}, at no cost to any share.", join_and(&good)),
        (true, false) => format!("{what} {} and helps no share.", join_and(&bad)),
        (false, false) => format!("{what} {} but {}.", join_and(&good), join_and(&bad)),
    }
}

/// Whether two runs gave every share the same metrics.
fn same_metrics(a: &Digest, b: &Digest) -> bool {
    a.shares == b.shares
}

fn cell(metric: Metric, base: Option<f64>, value: Option<f64>, col: &'static str) -> impl IntoView {
    let d = delta(metric, base, value);
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

/// The compare panel: a toggle (`compare-toggle`); when on, the current scenario is also
/// simulated partitioned and pooled (re-run after each new result) and shown per share.
#[component]
pub fn CompareView() -> impl IntoView {
    let app = use_app();
    let on = RwSignal::new(false);
    // The comparison and how long its three runs took (ms).
    let result = RwSignal::new(None::<(Result<Arc<Comparison>, Vec<String>>, f64)>);
    Effect::new(move |_| {
        if !on.get() {
            result.set(None);
            return;
        }
        // Re-run when a new result lands (the text then is the one it was simulated from).
        app.outcome.track();
        let text = app.scenario.get_untracked();
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
                let lending = caption("Lending (pooled vs partitioned)", &c.partitioned, &c.pooled);
                let given = if same_metrics(&c.as_given, &c.pooled) {
                    "As given, this scenario behaves exactly as pooled.".to_string()
                } else if same_metrics(&c.as_given, &c.partitioned) {
                    "As given, this scenario behaves exactly as partitioned.".to_string()
                } else {
                    caption(
                        "As given (vs partitioned), the scenario's sharing",
                        &c.partitioned,
                        &c.as_given,
                    )
                };
                let tables = (0..c.as_given.shares.len())
                    .map(|i| share_table(i, &c))
                    .collect_view();
                let status = format!(
                    "{} jobs simulated three ways in {} ms.",
                    format::thousands(c.as_given.totals.submitted as f64),
                    format::thousands(millis.round())
                );
                view! {
                    <p class="compare-status" data-testid="compare-status">{status}</p>
                    <ul class="compare-captions" data-testid="compare-caption">
                        <li>{lending}</li>
                        <li>{given}</li>
                    </ul>
                    <div class="compare-grid">{tables}</div>
                    <p class="table-note">
                        "Partitioned: every share RESERVE, no preemption. Pooled: every share LEND_AND_BORROW without a borrow limit. Deltas are against partitioned; green is better, red worse. Interruption cost: instance-hours lost, spent starting up or restoring, saving checkpoints and in grace periods."
                    </p>
                }
                .into_any()
            }
        })
    };
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
            <Show
                when=move || on.get()
                fallback=|| view! {
                    <p class="explain-intro">
                        "What would each team gain or lose if nobody shared (partitioned) or everybody did (pooled)? Switch on to simulate both."
                    </p>
                }
            >
                {body}
            </Show>
        </section>
    }
}
