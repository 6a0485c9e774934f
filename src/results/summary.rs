//! The per-share summary table of a run (SPEC 8 metrics, from the run's [`Digest`]).

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, ShareMetrics};

use crate::ui::{format, palette};

fn pct(p: &quotalab_engine::digest::Pct, v: f64) -> String {
    if p.n == 0 {
        "—".into()
    } else {
        format::duration_compact(v)
    }
}

fn count(n: u64) -> String {
    format::thousands(n as f64)
}

/// SPEC 16: the notice above a replayed history's summary when some of its jobs had not
/// finished at the history's end (`per`: running and pending per share, from
/// [`crate::state::unfinished_in_run`]): how many, which queues, and what that makes of the
/// numbers below. `None` when there are none in this run.
pub fn unfinished_notice(per: &[(u64, u64)], d: &Digest) -> Option<String> {
    let n: u64 = per.iter().map(|(r, p)| r + p).sum();
    if n == 0 {
        return None;
    }
    let queues = crate::state::unfinished_per_queue(
        per.iter()
            .zip(&d.shares)
            .map(|(&(r, p), s)| (s.name.as_str(), r, p)),
    );
    let jobs = if d.kueue.is_some() {
        "Workloads"
    } else {
        "jobs"
    };
    let (they, their, times) = if n == 1 {
        ("it is", "it", "its completion time")
    } else {
        ("they are", "they", "their completion times")
    };
    Some(format!(
        "{} of the {} {jobs} had not finished when the history ended ({}; marked † below): {they} replayed with the time {their} had run, so {times} and goodput are lower bounds.",
        count(n),
        count(d.totals.submitted),
        queues,
    ))
}

fn row(
    s: &ShareMetrics,
    colour: Option<String>,
    total: bool,
    kueue: bool,
    priced: bool,
    unfinished: bool,
) -> impl IntoView + use<> {
    let swatch = colour.map(|c| {
        view! { <span class="swatch" style:background-color=c aria-hidden="true"></span> }
    });
    let name = if total && kueue {
        "All ClusterQueues".to_string()
    } else if total {
        "All shares".to_string()
    } else {
        s.name.clone()
    };
    let goodput = (s.held_h > 0.0).then_some(s.goodput);
    let key = name.clone();
    view! {
        <tr class:totals=total data-testid=(!total).then_some("summary-row") data-share=key>
            <th scope="row" class="share-name">
                {swatch}
                {name}
            </th>
            <td class="num" data-col="jobs" data-label="done / submitted">
                {format!("{} / {}", count(s.succeeded), count(s.submitted))}
                // SPEC 16: some of these had not finished when the replayed history ended.
                {unfinished.then(|| view! {
                    <span class="history-mark" data-testid="summary-unfinished-mark" title="some of these had not finished when the history ended: lower bounds">" †"</span>
                })}
            </td>
            <td class="num" data-col="failed" data-label="failed">{count(s.failed)}</td>
            <td class="num" data-col="unfinished" data-label="unfinished">{count(s.unfinished)}</td>
            <td class="num group-start" data-col="p50" data-label="completion p50">{pct(&s.completion_s, s.completion_s.p50)}</td>
            <td class="num" data-col="p90" data-label="completion p90">{pct(&s.completion_s, s.completion_s.p90)}</td>
            <td class="num group-start" data-col="wait-p50" data-label="wait p50">{pct(&s.wait_s, s.wait_s.p50)}</td>
            <td class="num group-start" data-col="reclaim" data-label="reclaims">{count(s.reclaim)}</td>
            <td class="num" data-col="in-share" data-label=if kueue { "within ClusterQueue preempts" } else { "in-share preempts" }>{count(s.in_share)}</td>
            {kueue.then(|| view! {
                <td class="num" data-col="reclaim-borrowing" data-label="reclaims while borrowing">{count(s.reclaim_while_borrowing)}</td>
                <td class="num" data-col="fair-sharing" data-label="fair-sharing preempts">{count(s.fair_sharing)}</td>
                <td class="num" data-col="preemptor-waits" data-label="preemptor waits (quota taken)" title="waits of a preemptor for its victims to go (WaitingForPreemptedWorkloads); in brackets, those whose freed quota another workload took first">{quotalab_report::interruption::waits_label(s)}</td>
            })}
            <td class="num group-start" data-col="entitled" data-label=if kueue { "nominal inst.-h" } else { "entitled inst.-h" }>{format::hours(s.entitled_h)}</td>
            <td class="num" data-col="own" data-label="own inst.-h">{format::hours(s.own_h)}</td>
            <td class="num" data-col="borrowed" data-label="borrowed inst.-h">{format::hours(s.borrowed_h)}</td>
            <td class="num" data-col="lent" data-label="lent inst.-h">{format::hours(s.lent_h)}</td>
            <td class="num" data-col="held" data-label="held inst.-h">{format::hours(s.held_h)}</td>
            <td class="num" data-col="lost" data-label="lost inst.-h">{format::hours(s.lost_h)}</td>
            <td class="num group-start" data-col="goodput" data-label="goodput">{format::percent(goodput)}</td>
            // Without any price, every cost would read $0.00: the columns are left out.
            {priced.then(|| view! {
                <td class="num" data-col="cost" data-label="cost (held)">{format::usd_short(s.cost_usd)}</td>
                <td class="num" data-col="reserved" data-label="reserved cost" title="entitled instance-hours × price, used or not">{format::usd_short(s.reserved_usd)}</td>
            })}
            <td class="num" data-col="deadline-misses" data-label="deadline misses">{count(s.deadline_misses)}</td>
        </tr>
    }
}

/// Said instead of costs when no instance type (flavor) has a price: $0.00 would read as
/// free instances.
pub fn no_price_note(kueue: bool) -> &'static str {
    if kueue {
        "No price set: no ResourceFlavor has a USD per unit-hour, so no cost is shown."
    } else {
        "No price set: no instance type has a USD per hour, so no cost is shown."
    }
}

/// One row per share (scenario order) and a totals row when there are several shares.
#[component]
pub fn SummaryTable(#[prop(into)] digest: Signal<Arc<Digest>>) -> impl IntoView {
    // A replayed history's unfinished jobs (none where the page's state is not provided).
    let marks = use_context::<crate::state::AppState>().map(|a| a.unfinished);
    move || {
        let d = digest.get();
        let per = marks
            .map(|m| m.with(|l| crate::state::unfinished_in_run(l, &d)))
            .unwrap_or_default();
        let of = |i: usize| per.get(i).is_some_and(|(r, p)| r + p > 0);
        let notice = unfinished_notice(&per, &d).map(|text| {
            view! { <p class="summary-unfinished" role="note" data-testid="summary-unfinished">{text}</p> }
        });
        if d.shares.is_empty() {
            return view! { <p class="empty-note">"The run has no quota shares to summarise."</p> }
                .into_any();
        }
        // The Kueue model's two more causes of preemption (SPEC 12).
        let kueue = d.kueue.is_some();
        let priced = d.priced;
        let rows = d
            .shares
            .iter()
            .enumerate()
            .map(|(i, s)| row(s, Some(palette::css(i)), false, kueue, priced, of(i)))
            .collect_view();
        let all = (0..per.len()).any(of);
        let totals = (d.shares.len() > 1)
            .then(|| view! { <tfoot>{row(&d.totals, None, true, kueue, priced, all)}</tfoot> });
        // What the reader should know before the numbers (the engine's sentences): a run
        // stopped in a preemption circle, jobs kept from ever starting, instants Kueue never
        // settled.
        let notes = (!d.notes.is_empty()).then(|| {
            let notes = d
                .notes
                .iter()
                .map(|n| view! { <li>{n.clone()}</li> })
                .collect_view();
            view! { <ul class="run-notes" data-testid="run-notes" role="note">{notes}</ul> }
        });
        view! {
            {notice}
            {notes}
            <div class="table-scroll summary-scroll">
                <table class="summary" data-testid="summary-table">
                    <caption class="visually-hidden">{if kueue { "Summary per ClusterQueue over the whole run" } else { "Summary per quota share over the whole run" }}</caption>
                    <thead>
                        <tr>
                            <th scope="col" rowspan="2">{if kueue { "ClusterQueue" } else { "Share" }}</th>
                            <th scope="colgroup" colspan="3">"Jobs"</th>
                            <th scope="colgroup" colspan="2" class="group-start">"Completion"</th>
                            <th scope="col" class="group-start">"Wait"</th>
                            <th scope="colgroup" colspan=if kueue { "5" } else { "2" } class="group-start">"Preemptions"</th>
                            <th scope="colgroup" colspan="6" class="group-start">"Instance-hours"</th>
                            <th scope="col" rowspan="2" class="num group-start">"Goodput"</th>
                            {priced.then(|| view! { <th scope="colgroup" colspan="2">"Cost"</th> })}
                            <th scope="col" rowspan="2" class="num">"Deadline misses"</th>
                        </tr>
                        <tr>
                            <th scope="col" class="num" title="succeeded / submitted">"done / sub."</th>
                            <th scope="col" class="num">"failed"</th>
                            <th scope="col" class="num" title="not ended when the run stopped">"unfinished"</th>
                            <th scope="col" class="num group-start" title="completion time (submit to success), median">"p50"</th>
                            <th scope="col" class="num" title="completion time (submit to success), 90th percentile">"p90"</th>
                            <th scope="col" class="num group-start" title="wait from submission to first start, median">"p50"</th>
                            <th scope="col" class="num group-start" title=if kueue { "taken back by a ClusterQueue reclaiming the quota it had lent" } else { "taken back by a share reclaiming its lent capacity" }>"reclaim"</th>
                            {if kueue {
                                view! { <th scope="col" class="num" title="by a higher-priority workload of the same ClusterQueue (withinClusterQueue)">"within ClusterQueue"</th> }.into_any()
                            } else {
                                view! { <th scope="col" class="num" title="by a higher-priority job of the same share">"in\u{2011}share"</th> }.into_any()
                            }}
                            {kueue.then(|| view! {
                                <th scope="col" class="num" title="by a job of another queue while it borrows (Kueue borrowWithinCohort)">"while borrowing"</th>
                                <th scope="col" class="num" title="by fair sharing: its queue's dominant resource share was the highest">"fair sharing"</th>
                                <th scope="col" class="num" title="waits of a preemptor for its victims to go (WaitingForPreemptedWorkloads); in brackets, those whose freed quota another workload took first">"waits (taken)"</th>
                            })}
                            {if kueue {
                                view! { <th scope="col" class="num group-start" title="nominalQuota × time">"nominal"</th> }.into_any()
                            } else {
                                view! { <th scope="col" class="num group-start" title="limit × time">"entitled"</th> }.into_any()
                            }}
                            <th scope="col" class="num" title=if kueue { "quota of admitted workloads within the nominal quota" } else { "quota of admitted jobs within the limit" }>"own"</th>
                            <th scope="col" class="num" title=if kueue { "quota of admitted workloads beyond the nominal quota" } else { "quota of admitted jobs beyond the limit" }>"borrowed"</th>
                            <th scope="col" class="num" title=if kueue { "unused nominal quota borrowed by other ClusterQueues" } else { "idle entitlement used by other shares" }>"lent"</th>
                            <th scope="col" class="num" title="instances physically held">"held"</th>
                            <th scope="col" class="num" title="work rolled back by preemptions or failures">"lost"</th>
                            {priced.then(|| view! {
                                <th scope="col" class="num" title="held instance-hours × price">"held"</th>
                                <th scope="col" class="num" title="entitled instance-hours × price, used or not">"reserved"</th>
                            })}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                    {totals}
                </table>
            </div>
            <p class="table-note">
                {(!priced).then(|| view! {
                    <span data-testid="summary-no-price">
                        {no_price_note(kueue)}
                        " "
                    </span>
                })}
                {if kueue {
                    "Over the whole run. Completion: submit to success; wait: submit to first start. Instance-hours: nominal is nominalQuota × time; own and borrowed count the quota of admitted workloads within and beyond it, lent the nominal quota others borrowed; held counts instances physically held; lost is work rolled back. Waits (taken): a preemptor's waits for its victims to go (WaitingForPreemptedWorkloads), in brackets those whose freed quota another workload took first. Goodput: useful time ÷ held time."
                } else {
                    "Over the whole run. Completion: submit to success; wait: submit to first start. Instance-hours: entitled is limit × time; own, borrowed and lent count the quota of admitted jobs; held counts instances physically held; lost is work rolled back. Goodput: useful time ÷ held time."
                }}
                // The cost columns' sentence only where they are shown.
                {priced.then_some(if kueue {
                    " Cost: held is what the instances the queue's workloads held cost; reserved is what its nominal quota costs, used or not (nominal instance-hours × price)."
                } else {
                    " Cost: held is what the instances the share's jobs held cost; reserved is what its entitlement costs, used or not (entitled instance-hours × price)."
                })}
            </p>
        }
        .into_any()
    }
}
