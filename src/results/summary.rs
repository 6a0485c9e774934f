//! The per-share summary table of a run (SPEC 8 metrics, from the run's [`Digest`]).

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, ShareMetrics};

use crate::ui::table::{self, Column};
use crate::ui::{format, palette};

fn count(n: u64) -> String {
    format::thousands(n as f64)
}

/// The table's columns after the share's, left to right, in their groups; the Kueue model's
/// two more causes of preemption (SPEC 12) only when `kueue`.
fn columns(kueue: bool) -> [Column<ShareMetrics>; 20] {
    type Col = Column<ShareMetrics>;
    [
        Col::new("done / sub.", |s| {
            format!("{} / {}", count(s.succeeded), count(s.submitted))
        })
        .group("Jobs")
        .title("succeeded / submitted")
        .key("jobs")
        .label("done / submitted"),
        Col::new("failed", |s| count(s.failed))
            .key("failed")
            .label("failed"),
        Col::new("unfinished", |s| count(s.unfinished))
            .title("not ended when the run stopped")
            .key("unfinished")
            .label("unfinished"),
        Col::new("p50", |s| {
            format::percentile(&s.completion_s, s.completion_s.p50)
        })
        .group("Completion")
        .rule()
        .title("completion time (submit to success), median")
        .key("p50")
        .label("completion p50"),
        Col::new("p90", |s| {
            format::percentile(&s.completion_s, s.completion_s.p90)
        })
        .title("completion time (submit to success), 90th percentile")
        .key("p90")
        .label("completion p90"),
        Col::new("p50", |s| format::percentile(&s.wait_s, s.wait_s.p50))
            .group("Wait")
            .rule()
            .title("wait from submission to first start, median")
            .key("wait-p50")
            .label("wait p50"),
        Col::new("reclaim", |s| count(s.reclaim))
            .group("Preemptions")
            .rule()
            .title("taken back by a share reclaiming its lent capacity")
            .key("reclaim")
            .label("reclaims"),
        Col::new("in\u{2011}share", |s| count(s.in_share))
            .title("by a higher-priority job of the same share")
            .key("in-share")
            .label("in-share preempts"),
        Col::new("while borrowing", |s| count(s.reclaim_while_borrowing))
            .title("by a job of another queue while it borrows (Kueue borrowWithinCohort)")
            .key("reclaim-borrowing")
            .label("reclaims while borrowing")
            .shown_if(kueue),
        Col::new("fair sharing", |s| count(s.fair_sharing))
            .title("by fair sharing: its queue's dominant resource share was the highest")
            .key("fair-sharing")
            .label("fair-sharing preempts")
            .shown_if(kueue),
        Col::new("entitled", |s| format::hours(s.entitled_h))
            .group("Instance-hours")
            .rule()
            .title("limit × time")
            .key("entitled")
            .label("entitled inst.-h"),
        Col::new("own", |s| format::hours(s.own_h))
            .title("quota of admitted jobs within the limit")
            .key("own")
            .label("own inst.-h"),
        Col::new("borrowed", |s| format::hours(s.borrowed_h))
            .title("quota of admitted jobs beyond the limit")
            .key("borrowed")
            .label("borrowed inst.-h"),
        Col::new("lent", |s| format::hours(s.lent_h))
            .title("idle entitlement used by other shares")
            .key("lent")
            .label("lent inst.-h"),
        Col::new("held", |s| format::hours(s.held_h))
            .title("instances physically held")
            .key("held")
            .label("held inst.-h"),
        Col::new("lost", |s| format::hours(s.lost_h))
            .title("work rolled back by preemptions or failures")
            .key("lost")
            .label("lost inst.-h"),
        Col::new("Goodput", |s| {
            format::percent((s.held_h > 0.0).then_some(s.goodput))
        })
        .spans()
        .rule()
        .key("goodput")
        .label("goodput"),
        Col::new("held", |s| format::usd(s.cost_usd))
            .group("Cost")
            .title("held instance-hours × price")
            .key("cost")
            .label("cost (held)"),
        Col::new("reserved", |s| format::usd(s.reserved_usd))
            .title("entitled instance-hours × price, used or not")
            .cell_title()
            .key("reserved")
            .label("reserved cost"),
        Col::new("Deadline misses", |s| count(s.deadline_misses))
            .spans()
            .key("deadline-misses")
            .label("deadline misses"),
    ]
}

fn row(
    s: &ShareMetrics,
    colour: Option<String>,
    total: bool,
    columns: &[Column<ShareMetrics>; 20],
) -> impl IntoView + use<> {
    let swatch = colour.map(|c| {
        view! { <span class="swatch" style:background-color=c aria-hidden="true"></span> }
    });
    let name = if total {
        "All shares".to_string()
    } else {
        s.name.clone()
    };
    let key = name.clone();
    view! {
        <tr class:totals=total data-testid=(!total).then_some("summary-row") data-share=key>
            <th scope="row" class="share-name">
                {swatch}
                {name}
            </th>
            {table::cells(columns, s)}
        </tr>
    }
}

/// One row per share (scenario order) and a totals row when there are several shares.
#[component]
pub fn SummaryTable(#[prop(into)] digest: Signal<Arc<Digest>>) -> impl IntoView {
    move || {
        let d = digest.get();
        if d.shares.is_empty() {
            return view! { <p class="empty-note">"The run has no quota shares to summarise."</p> }
                .into_any();
        }
        // The Kueue model's two more causes of preemption (SPEC 12).
        let kueue = d.kueue.is_some();
        let columns = columns(kueue);
        let rows = d
            .shares
            .iter()
            .enumerate()
            .map(|(i, s)| row(s, Some(palette::css(i)), false, &columns))
            .collect_view();
        let totals = (d.shares.len() > 1)
            .then(|| view! { <tfoot>{row(&d.totals, None, true, &columns)}</tfoot> });
        view! {
            <div class="table-scroll summary-scroll">
                <table class="summary" data-testid="summary-table">
                    <caption class="visually-hidden">"Summary per quota share over the whole run"</caption>
                    {table::two_row_head("Share", &columns)}
                    <tbody>{rows}</tbody>
                    {totals}
                </table>
            </div>
            <p class="table-note">
                "Over the whole run. Completion: submit to success; wait: submit to first start. Instance-hours: entitled is limit × time; own, borrowed and lent count the quota of admitted jobs; held counts instances physically held; lost is work rolled back. Goodput: useful time ÷ held time. Cost: held is what the instances the share's jobs held cost; reserved is what its entitlement costs, used or not (entitled instance-hours × price)."
            </p>
        }
        .into_any()
    }
}
