//! The cohort tree (Kueue model): every cohort and ClusterQueue with its quota, usage,
//! borrowed and lent instances at the time cursor (like KueueViz and the Headlamp Kueue
//! plugin), each ClusterQueue's dominant resource share over time
//! ([`crate::charts::dominant`]) and each cohort's totals over the run. The rows come from
//! [`Digest::quota_tree_at`]; nothing here computes a rule.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{CohortMetrics, Digest};
use quotalab_engine::tree_view::{NodeKind, TreeRow};

use crate::ui::{format, palette};

/// The tree at the cursor (or, with none, at the busiest moment), one instance type at a
/// time, and the cohorts' totals under it. Nothing for an AWS Batch run.
#[component]
pub fn CohortTree(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    cursor: RwSignal<Option<f64>>,
) -> impl IntoView {
    // The ResourceFlavor shown: the reader's choice (by name, so it survives a new run of
    // the same flavors), else the one with the most quota and usage at the tree's roots (an
    // imported cluster's GPU flavor, not a cpu-only `default-flavor` that reads all zeros).
    let chosen = RwSignal::new(None::<String>);
    let at = Memo::new(move |_| {
        let d = digest.get();
        match cursor.get() {
            Some(t) => (t, false),
            None => (d.busiest_t(), true),
        }
    });
    let rows = Memo::new(move |_| digest.with(|d| d.quota_tree_at(at.get().0)));
    let types = Memo::new(move |_| digest.with(|d| d.instance_types.clone()));
    let ty = Memo::new(move |_| {
        let picked = chosen.with(|c| {
            c.as_ref()
                .and_then(|c| types.with(|ts| ts.iter().position(|t| t == c)))
        });
        // At the busiest moment, not the cursor's: the default stays as the cursor moves.
        picked.unwrap_or_else(|| digest.with(|d| busiest_type(d)))
    });
    let heading = move || {
        let (t, busiest) = at.get();
        // What the cohorts' quotas leave out (lendingLimits below them), after the time.
        let note = digest.with(|d| private_notes(d, ty.get()));
        if busiest {
            format!(
                "At {} (the busiest moment; click a chart over time to move the cursor).{note}",
                format::clock(t)
            )
        } else {
            format!("At the cursor, {}.{note}", format::clock(t))
        }
    };
    view! {
        <p class="table-note" data-testid="cohort-tree-at" aria-live="polite">{heading}</p>
        {move || {
            (types.with(Vec::len) > 1)
                .then(|| {
                    let opts = types
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, t)| view! { <option value=i.to_string()>{t}</option> })
                        .collect_view();
                    view! {
                        <label class="inline-field">
                            "ResourceFlavor "
                            <select
                                data-testid="cohort-tree-type"
                                prop:value=move || ty.get().to_string()
                                on:change=move |ev| {
                                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                                        chosen.set(types.with(|ts| ts.get(i).cloned()));
                                    }
                                }
                            >
                                {opts}
                            </select>
                        </label>
                    }
                })
        }}
        <div class="table-scroll tree-scroll">
            <table class="tree-table cohort-tree" data-testid="cohort-tree">
                <caption class="visually-hidden">
                    "Cohorts and ClusterQueues with their quota, usage, borrowed and lent instances at the cursor"
                </caption>
                <thead>
                    <tr>
                        <th scope="col">"Cohort / ClusterQueue"</th>
                        <th scope="col" class="num" title="a queue's nominal quota; a cohort's quota of its whole subtree">"quota"</th>
                        <th scope="col" class="num" title="instances its admitted jobs count against the quota">"in use"</th>
                        <th scope="col" class="bar-cell" title="in use against quota"><span class="visually-hidden">"in use against quota"</span></th>
                        <th scope="col" class="num" title="beyond its quota, from its cohort (a cohort: from its parent)">"borrowed"</th>
                        <th scope="col" class="num" title="of its quota, in use elsewhere">"lent"</th>
                        <th scope="col" class="num" title="dominant resource share (Kueue weightedShare): 0 while within quota">"dominant share"</th>
                    </tr>
                </thead>
                <tbody>
                    {move || {
                        let t = ty.get();
                        let d = digest.get();
                        rows.get().into_iter().map(|r| tree_row(r, t, &d)).collect_view()
                    }}
                </tbody>
            </table>
        </div>
        {move || {
            digest
                .with(|d| crate::charts::dominant::has_chart(d))
                .then(|| view! { <crate::charts::dominant::DominantChart digest=digest cursor=cursor /> })
        }}
        <CohortTotals digest=digest />
    }
}

/// What cohort `c`'s children (ClusterQueues and cohorts) keep private of type `ty` (a
/// lendingLimit under their quota), as the engine says
/// ([`quotalab_engine::digest::KueueDigest::private`]): what the cohort's quota leaves out.
fn private_below(d: &Digest, c: u16, ty: usize) -> f64 {
    let Some(k) = d.kueue.as_ref() else {
        return 0.0;
    };
    let types = d.instance_types.len();
    let parents = k
        .share_cohort
        .iter()
        .chain(k.cohorts.iter().map(|x| &x.parent));
    parents
        .enumerate()
        .filter(|(_, p)| **p == Some(c))
        .filter_map(|(node, _)| k.private.get(node * types + ty))
        .sum()
}

/// Each cohort whose quota leaves out what its children keep private (a lendingLimit below
/// their quota), said above the tree so that a quota smaller than its ClusterQueues' reads
/// right (issue #34, walk); empty when none does.
fn private_notes(d: &Digest, ty: usize) -> String {
    let mut note = String::new();
    for (c, co) in d.kueue.iter().flat_map(|k| k.cohorts.iter()).enumerate() {
        let kept = private_below(d, c as u16, ty);
        if kept > 0.0 {
            note.push_str(&format!(
                " * Cohort {}'s quota leaves out the {} {} kept private below it by lendingLimits: never lent to the cohort.",
                co.name,
                format::amount(kept),
                d.instance_types.get(ty).map_or("", String::as_str),
            ));
        }
    }
    note
}

fn tree_row(r: TreeRow, ty: usize, d: &Digest) -> impl IntoView {
    let a = r.amounts.get(ty).copied().unwrap_or_default();
    // A cohort whose children keep part of their quota private (a lendingLimit) is marked;
    // the note under the tree says how much.
    let private = match r.kind {
        NodeKind::Cohort(c) => private_below(d, c, ty),
        NodeKind::Share(_) => 0.0,
    };
    let (kind, swatch) = match r.kind {
        NodeKind::Cohort(_) => ("cohort", None),
        NodeKind::Share(s) => ("queue", Some(palette::css(usize::from(s)))),
    };
    let fill = if a.quota > 0.0 {
        (a.usage / a.quota * 100.0).min(100.0)
    } else if a.usage > 0.0 {
        100.0
    } else {
        0.0
    };
    let dominant = match r.dominant {
        Some(Some(v)) => format::thousands(v as f64),
        Some(None) => "∞".to_string(),
        None => "—".to_string(),
    };
    let over = a.borrowed > 0.0;
    let indent = format!("{}em", f64::from(r.depth) * 1.2);
    let key = r.name.clone();
    view! {
        <tr data-testid="cohort-tree-row" data-kind=kind data-name=key>
            <th scope="row" class="share-name">
                <span class="tree-indent" style:padding-left=indent>
                    {swatch.map(|c| view! { <span class="swatch" style:background-color=c aria-hidden="true"></span> })}
                    {(kind == "cohort").then(|| view! { <span class="tree-kind">"cohort"</span> " " })}
                    {r.name}
                </span>
            </th>
            <td class="num" data-col="quota" data-label="quota">
                {format::amount(a.quota)}
                {(private > 0.0).then_some(" *")}
            </td>
            <td class="num" data-col="usage" data-label="in use">{format::amount(a.usage)}</td>
            <td class="bar-cell" aria-hidden="true" data-label="">
                <span class="use-bar" class:over=over>
                    <span class="use-fill" style:width=format!("{fill:.0}%")></span>
                </span>
            </td>
            <td class="num" data-col="borrowed" data-label="borrowed">{format::amount(a.borrowed)}</td>
            <td class="num" data-col="lent" data-label="lent">{format::amount(a.lent)}</td>
            <td class="num" data-col="dominant" data-label="dominant share">{dominant}</td>
        </tr>
    }
}

/// Each cohort over the whole run (SPEC 12 results): quota, borrowed and lent
/// instance-hours, and the preemptions of the jobs under it by cause.
#[component]
fn CohortTotals(#[prop(into)] digest: Signal<Arc<Digest>>) -> impl IntoView {
    move || {
        let d = digest.get();
        let k = d.kueue.as_ref()?;
        if k.cohorts.is_empty() {
            return None;
        }
        let rows = k
            .cohorts
            .iter()
            .map(|c| {
                view! {
                    <tr data-testid="cohort-total-row" data-name=c.name.clone()>
                        <th scope="row">{c.path.clone()}</th>
                        <td class="num" data-label="quota inst.-h">{format::hours(c.quota_h)}</td>
                        <td class="num" data-label="borrowed from its parent">{from_parent(c, c.borrowed_h)}</td>
                        <td class="num" data-label="lent to its parent">{from_parent(c, c.lent_h)}</td>
                        <td class="num group-start" data-label="reclaims">{format::thousands(c.reclaim as f64)}</td>
                        <td class="num" data-label="within ClusterQueue">{format::thousands(c.in_share as f64)}</td>
                        <td class="num" data-label="while borrowing">{format::thousands(c.reclaim_while_borrowing as f64)}</td>
                        <td class="num" data-label="fair sharing">{format::thousands(c.fair_sharing as f64)}</td>
                    </tr>
                }
            })
            .collect_view();
        let inside = inside_lines(&d);
        Some(view! {
            <h3 class="subhead cohort-totals-head">"Cohorts over the whole run"</h3>
            <div class="table-scroll tree-scroll">
                <table class="tree-table" data-testid="cohort-totals">
                    <caption class="visually-hidden">"Each cohort's instance-hours and the preemptions below it, by cause"</caption>
                    <thead>
                        <tr>
                            <th scope="col" rowspan="2">"Cohort"</th>
                            <th scope="colgroup" colspan="3">"Instance-hours"</th>
                            <th scope="colgroup" colspan="4" class="group-start">"Preemptions below it"</th>
                        </tr>
                        <tr>
                            <th scope="col" class="num" title="subtree quota × time">"quota"</th>
                            <th scope="col" class="num" title="the cohort as a whole, beyond its subtree quota (its queues' borrowing from each other is below)">"borrowed from its parent"</th>
                            <th scope="col" class="num" title="of its quota, in use outside it">"lent to its parent"</th>
                            <th scope="col" class="num group-start">"reclaim"</th>
                            <th scope="col" class="num" title="within its ClusterQueue (withinClusterQueue)">"within CQ"</th>
                            <th scope="col" class="num" title="reclaim while borrowing (borrowWithinCohort)">"borrowing"</th>
                            <th scope="col" class="num" title="fair sharing">"fair share"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {(!inside.is_empty()).then(|| view! {
                <p class="table-note cohort-inside-lead">"Borrowing inside a cohort, which is not the cohort borrowing from its parent:"</p>
                <ul class="table-note cohort-inside" data-testid="cohort-inside">
                    {inside.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                </ul>
            })}
        })
    }
}

/// A cohort's borrowed or lent instance-hours with its parent; a root has none ("—").
fn from_parent(c: &CohortMetrics, h: f64) -> String {
    if c.parent.is_some() {
        format::hours(h)
    } else {
        "— (root)".into()
    }
}

/// Borrowing inside each cohort, which its "borrowed from its parent" does not count: per
/// cohort, its ClusterQueues and child cohorts that went beyond their own quota over the run
/// ("team-a borrowed 4.00 inst.-h (up to 3 ml.g5.xlarge at once) from others inside
/// research"). A ClusterQueue's "up to" is the engine's peak ([`Digest::borrowed_peaks`]),
/// the figure its allocation chart's caption says. When the cohort itself borrowed from its
/// parent, part of that came from outside, and the line says so.
pub fn inside_lines(d: &Digest) -> Vec<String> {
    let Some(k) = d.kueue.as_ref() else {
        return vec![];
    };
    let share_parent = |s: usize| k.share_cohort.get(s).copied().flatten();
    k.cohorts
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let queues = d
                .shares
                .iter()
                .enumerate()
                .filter(|(s, _)| share_parent(*s) == Some(i as u16))
                .map(|(s, m)| (m.name.as_str(), m.borrowed_h, peaks(d, s as u16)));
            let children = k
                .cohorts
                .iter()
                .filter(|x| x.parent == Some(i as u16))
                .map(|x| (x.name.as_str(), x.borrowed_h, String::new()));
            let who: Vec<(&str, String)> = queues
                .chain(children)
                .filter(|(_, h, p)| *h > 0.0 || !p.is_empty())
                .map(|(n, h, p)| (n, format!("{} inst.-h{p}", format::hours(h))))
                .collect();
            let ((name, first), rest) = who.split_first()?;
            let mut list = format!("{name} borrowed {first}");
            for (j, (n, w)) in rest.iter().enumerate() {
                list.push_str(if j + 1 == rest.len() { " and " } else { ", " });
                list.push_str(&format!("{n} {w}"));
            }
            let parent = c.parent.and_then(|p| k.cohorts.get(usize::from(p)));
            Some(match parent {
                Some(p) if c.borrowed_h > 0.0 => format!(
                    "{list} beyond {} quota inside {}; {} itself borrowed {} inst.-h of it from {}.",
                    if rest.is_empty() { "its" } else { "their" },
                    c.name,
                    c.name,
                    format::hours(c.borrowed_h),
                    p.name
                ),
                _ => format!("{list} from others inside {}.", c.name),
            })
        })
        .collect()
}

/// " (up to 2 l4 at once)": the most ClusterQueue `share` borrowed at once, per flavor, as
/// the engine counted it; empty when it never borrowed.
fn peaks(d: &Digest, share: u16) -> String {
    let parts: Vec<String> = d
        .borrowed_peaks(share)
        .into_iter()
        .map(|(t, n)| {
            let ty = d
                .instance_types
                .get(usize::from(t))
                .map_or("", String::as_str);
            format!("{} {ty}", format::amount(n))
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" (up to {} at once)", parts.join(" and "))
    }
}

/// The instance type (ResourceFlavor) with the most quota and usage at the tree's roots at
/// the busiest moment; the first on a tie.
fn busiest_type(d: &Digest) -> usize {
    let rows = d.quota_tree_at(d.busiest_t());
    let weight = |t: usize| -> f64 {
        rows.iter()
            .filter(|r| r.depth == 0)
            .filter_map(|r| r.amounts.get(t))
            .map(|a| a.quota + a.usage)
            .sum()
    };
    (0..d.instance_types.len()).fold(0, |best, t| if weight(t) > weight(best) { t } else { best })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quotalab_engine::digest::DigestLimits;

    fn run(text: &str) -> Digest {
        quotalab_engine::run_digest(text, DigestLimits::default()).expect("the preset runs")
    }

    #[test]
    fn borrowing_inside_a_cohort_is_told_apart_from_the_cohort_borrowing_from_its_parent() {
        // team-ab is a root: it borrows nothing, its queues borrow from each other.
        let d = run(include_str!("../../www/presets/kueue-three-queues.json"));
        let k = d.kueue.as_ref().unwrap();
        assert_eq!(k.cohorts[0].borrowed_h, 0.0);
        let lines = inside_lines(&d);
        assert_eq!(lines.len(), 1, "{lines:?}");
        let a = &d.shares[0];
        assert!(a.borrowed_h > 0.0);
        assert!(
            lines[0].starts_with(&format!(
                "{} borrowed {} inst.-h",
                a.name,
                format::hours(a.borrowed_h)
            )),
            "{lines:?}"
        );
        assert!(
            lines[0].ends_with("from others inside team-ab."),
            "{lines:?}"
        );
        assert_eq!(from_parent(&k.cohorts[0], 0.0), "— (root)");

        // org/research borrowed from org: the line says how much of its queues' came from there.
        let d = run(include_str!(
            "../../www/presets/kueue-hierarchical-fair.json"
        ));
        let lines = inside_lines(&d);
        let research = lines
            .iter()
            .find(|l| l.contains("inside research"))
            .unwrap_or_else(|| panic!("{lines:?}"));
        assert!(research.starts_with("nlp borrowed "), "{research}");
        assert!(
            research.contains("research itself borrowed 39.79 inst.-h of it from org"),
            "{research}"
        );
    }

    // Issue #34 (fresh-eyes walk): a replayed history's team-c-cq borrowed 2 l4 for one
    // second. The panel said "team-c-cq borrowed 0.00 inst.-h" beside the allocation chart's
    // "borrowed up to 2": now both say the engine's peak, and a second is not "0.00".
    #[test]
    fn the_cohort_line_and_the_allocation_caption_say_the_same_borrowed_peak() {
        let d = run(include_str!(
            "../../crates/cli/tests/history/kueue.golden.json"
        ));
        let lines = inside_lines(&d);
        let line = lines
            .iter()
            .find(|l| l.contains("inside research"))
            .unwrap_or_else(|| panic!("{lines:?}"));
        assert!(
            line.contains("team-c-cq <0.01 inst.-h (up to 2 l4 at once)")
                || line.contains("team-c-cq borrowed <0.01 inst.-h (up to 2 l4 at once)"),
            "{line}"
        );
        let c = d.shares.iter().position(|s| s.name == "team-c-cq").unwrap() as u16;
        let row = d.series.iter().find(|r| r.share == c).unwrap();
        let caption = crate::charts::allocation::caption(
            &crate::charts::allocation::panel_summary(row),
            true,
        );
        assert!(caption.contains("borrowed up to 2"), "{caption}");
        // The preset's lines name each ClusterQueue's peak too.
        let d = run(include_str!("../../www/presets/kueue-three-queues.json"));
        let lines = inside_lines(&d);
        assert!(
            lines[0].contains("(up to 6 ml.g5.xlarge at once)"),
            "{lines:?}"
        );
    }
}
