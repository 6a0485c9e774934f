//! The per-share summary table.

use leptos::prelude::*;
use serde_json::Value;

use crate::{format, palette, report};

fn row(s: report::ShareSummary, colour: Option<String>, total: bool) -> impl IntoView {
    let swatch = colour.map(|c| {
        view! { <span class="swatch" style:background-color=c aria-hidden="true"></span> }
    });
    let key = s.name.clone();
    view! {
        <tr class:totals=total data-share=key>
            <th scope="row" class="share-name">
                {swatch}
                {s.name}
            </th>
            <td class="num" data-col="jobs">{format!("{} / {}", s.succeeded, s.submitted)}</td>
            <td class="num" data-col="p50">{format::opt_duration(s.completion_p50_s)}</td>
            <td class="num" data-col="p90">{format::opt_duration(s.completion_p90_s)}</td>
            <td class="num" data-col="reclaim">{s.preemptions_reclaim}</td>
            <td class="num" data-col="in-share">{s.preemptions_in_share}</td>
            <td class="num group-start" data-col="own">{format::hours(s.hours_own)}</td>
            <td class="num" data-col="borrowed">{format::hours(s.hours_borrowed)}</td>
            <td class="num" data-col="lent">{format::hours(s.hours_lent)}</td>
            <td class="num" data-col="held">{format::hours(s.hours_held)}</td>
            <td class="num group-start" data-col="goodput">{format::percent(s.goodput)}</td>
        </tr>
    }
}

/// One row per share of the result (engine order), plus a totals row when the result has
/// totals. Shows a note instead of an empty table when the result has no share.
#[component]
pub fn SummaryTable(result: Value) -> impl IntoView {
    let shares = report::share_summaries(&result);
    if shares.is_empty() {
        return view! { <p class="empty-note">"The result has no quota shares to summarise."</p> }
            .into_any();
    }
    let totals = report::totals_summary(&result).filter(|_| shares.len() > 1);
    let rows = shares
        .into_iter()
        .enumerate()
        .map(|(i, s)| row(s, Some(palette::css(i)), false))
        .collect_view();
    let totals = totals.map(|t| view! { <tfoot>{row(t, None, true)}</tfoot> });
    view! {
        <div class="table-scroll">
            <table class="summary">
                <caption class="visually-hidden">"Summary per quota share over the whole run"</caption>
                <thead>
                    <tr>
                        <th scope="col" rowspan="2">"Share"</th>
                        <th scope="col" class="num">"Jobs"</th>
                        <th scope="colgroup" colspan="2">"Completion time"</th>
                        <th scope="colgroup" colspan="2">"Preemptions"</th>
                        <th scope="colgroup" colspan="4" class="group-start">"Instance-hours"</th>
                        <th scope="col" rowspan="2" class="num group-start">"Goodput"</th>
                    </tr>
                    <tr>
                        <th scope="col" class="num">"succeeded / submitted"</th>
                        <th scope="col" class="num">"p50"</th>
                        <th scope="col" class="num">"p90"</th>
                        <th scope="col" class="num">"reclaim"</th>
                        <th scope="col" class="num">"in\u{2011}share"</th>
                        <th scope="col" class="num group-start">"own"</th>
                        <th scope="col" class="num">"borrowed"</th>
                        <th scope="col" class="num">"lent"</th>
                        <th scope="col" class="num">"held"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
                {totals}
            </table>
        </div>
        <p class="table-note">
            "Over the whole run. Completion: submit to success. Instance-hours: own, borrowed and lent count the quota of admitted jobs; held counts instances physically held. Goodput: useful time ÷ held time."
        </p>
    }
    .into_any()
}
