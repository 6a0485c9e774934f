//! The checkpoint advisor: per share, whether checkpointing would have paid off, in plain
//! words (the arithmetic is [`quotalab_engine::advisor`]'s).

use leptos::prelude::*;
use quotalab_engine::advisor::{self, ShareAdvice, Verdict};

use super::swatch;
use crate::state::last_digest as digest;
use crate::ui::card::card;
use crate::ui::format;

fn interval(s: Option<f64>) -> String {
    s.map_or_else(|| "none".into(), format::duration)
}

fn ih(h: f64) -> String {
    format!("{} instance-hours", format::hours(h))
}

/// The advisor's plain-words verdict for one share (`kueue`: its Workloads, issue #34).
pub fn advice_sentence(a: &ShareAdvice, kueue: bool) -> String {
    let its_jobs = if kueue { "its workloads" } else { "its jobs" };
    let name = &a.share;
    let (Some(mtbi), Some(yd)) = (a.mtbi_s, a.young_daly) else {
        return format!("{name} was never preempted: checkpoints guard against nothing here.");
    };
    // Under what the sentence shows (0.00 instance-hours): said as "no work".
    let nothing_lost = a.observed_lost_h < 0.005;
    let every = format!(
        "{name} was interrupted once every {} of running",
        format::duration(mtbi)
    );
    let saves = if a.cost_assumed {
        format!("{} saves (assumed)", format::duration(a.cost_s))
    } else {
        format!("its {} saves", format::duration(a.cost_s))
    };
    let best = format!(
        "{saves} every {} would waste about {}",
        format::duration(yd.interval_s),
        ih(yd.waste_h())
    );
    let conf = a.configured;
    match a.verdict() {
        Verdict::NotInterrupted => {
            format!("{name} was never preempted: checkpoints guard against nothing here.")
        }
        Verdict::StartCheckpointing => format!(
            "{every} and lost {} of work without checkpoints: {best}. Checkpointing pays.",
            ih(a.observed_lost_h)
        ),
        Verdict::NotWorthIt if nothing_lost => format!(
            "{every} but lost no work without checkpoints; even at the best interval, {best}. Checkpoints would not pay here."
        ),
        Verdict::NotWorthIt => format!(
            "{every} but lost only {} of work without checkpoints; even at the best interval, {best}. Checkpoints would not pay here.",
            ih(a.observed_lost_h)
        ),
        Verdict::ProtectedOnPreemption if nothing_lost => format!(
            "{every}, yet lost no work (the model expects {} at its {} interval): {its_jobs} save when preempted, so the {} it spent saving mostly cost time: a longer interval would waste less.",
            ih(conf.map_or(0.0, |c| c.lost_h)),
            interval(a.configured_interval_s),
            ih(a.observed_checkpoint_h)
        ),
        Verdict::ProtectedOnPreemption => format!(
            "{every}, yet lost only {} of work (the model expects {} at its {} interval): {its_jobs} save when preempted, so the {} it spent saving mostly cost time: a longer interval would waste less.",
            ih(a.observed_lost_h),
            ih(conf.map_or(0.0, |c| c.lost_h)),
            interval(a.configured_interval_s),
            ih(a.observed_checkpoint_h)
        ),
        Verdict::Keep => format!(
            "{every}; its {} interval is close to the Young/Daly {}: keep it.",
            interval(a.configured_interval_s),
            format::duration(yd.interval_s)
        ),
        Verdict::Shorten | Verdict::Lengthen => format!(
            "{every}; saving every {} wastes about {}, while {best}: save {}.",
            interval(a.configured_interval_s),
            ih(conf.map_or(0.0, |c| c.waste_h())),
            if a.verdict() == Verdict::Shorten {
                "more often"
            } else {
                "less often"
            }
        ),
    }
}

/// The advisor's introduction, in the model's words (`kueue`: a ClusterQueue's Workloads).
pub fn intro(kueue: bool) -> String {
    let (share, jobs) = if kueue {
        ("ClusterQueue", "Workloads")
    } else {
        ("share", "jobs")
    };
    format!("How often should each {share}'s {jobs} save a checkpoint, given how often this run preempted them? Young/Daly: every √(2 × save cost × mean time between interruptions) of progress. Waste, in instance-hours, is the time spent saving (cost ÷ interval) plus the work lost at interruptions (interval ÷ 2 per interruption), over the {share}'s held time: a first-order model, beside what the simulation measured.")
}

fn waste_cell(e: Option<advisor::Estimate>) -> impl IntoView {
    match e {
        None => view! { <span class="value">"—"</span> }.into_any(),
        Some(e) => view! {
            <span class="value">{format::hours(e.waste_h())}</span>
            <span class="sub">
                {format!("{} + {}", format::hours(e.lost_h), format::hours(e.checkpoint_h))}
            </span>
        }
        .into_any(),
    }
}

/// The checkpoint advisor: per share, the Young/Daly interval for the simulated interruption
/// rate beside the configured one, and what each costs (from
/// [`quotalab_engine::advisor::advise`]).
#[component]
pub fn CheckpointAdvisor() -> impl IntoView {
    let digest = digest();
    let body = move || {
        let d = digest.get()?;
        let kueue = d.kueue.is_some();
        let advice = advisor::advise(&d);
        let rows = advice
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let cost = if a.cost_assumed {
                    format!("{} save?", format::duration(a.cost_s))
                } else {
                    format!("{} save", format::duration(a.cost_s))
                };
                let mtbi = a
                    .mtbi_s
                    .map(|m| format!("every {}", format::duration(m)));
                view! {
                    <tr data-testid="advisor-row" data-share=a.share.clone() class:rough=a.rough>
                        <th scope="row">{swatch(i as u16)} {a.share.clone()}</th>
                        <td class="num" data-col="interruptions" data-label="preempted">
                            <span class="value">{a.interruptions}</span>
                            <span class="sub" data-col="mtbi">{mtbi}</span>
                        </td>
                        <td class="num" data-col="configured" data-label="interval now">
                            <span class="value">{interval(a.configured_interval_s)}</span>
                            <span class="sub" data-col="cost">{cost}</span>
                        </td>
                        <td class="num" data-col="young-daly" data-label="Young/Daly interval">
                            <span class="value">{interval(a.young_daly_s)}</span>
                        </td>
                        <td class="num" data-col="waste-configured" data-label="waste now">{waste_cell(a.configured)}</td>
                        <td class="num" data-col="waste-young-daly" data-label="waste at Young/Daly">{waste_cell(a.young_daly)}</td>
                        <td class="num" data-col="observed" data-label="simulated waste">
                            <span class="value">{format::hours(a.observed_lost_h + a.observed_checkpoint_h)}</span>
                            <span class="sub">
                                {format!(
                                    "{} + {}",
                                    format::hours(a.observed_lost_h),
                                    format::hours(a.observed_checkpoint_h)
                                )}
                            </span>
                        </td>
                    </tr>
                }
            })
            .collect_view();
        let sentences = advice
            .iter()
            .map(|a| {
                let v = format!("{:?}", a.verdict());
                view! { <li data-verdict=v>{advice_sentence(a, kueue)}</li> }
            })
            .collect_view();
        Some(view! {
            // Where its box is too narrow for the columns (the results column at 1024 px, a
            // phone), each share is a block of labelled values: nothing cut at the right.
            <div class="table-scroll advisor-scroll">
                <table class="advisor" data-testid="advisor-table">
                    <caption class="visually-hidden">
                        {if kueue { "Checkpoint advice per ClusterQueue" } else { "Checkpoint advice per quota share" }}
                    </caption>
                    <thead>
                        <tr>
                            <th scope="col">{crate::ui::words::share_word(kueue)}</th>
                            <th scope="col" class="num">"Preempted"</th>
                            <th scope="col" class="num">"Interval now"</th>
                            <th scope="col" class="num">"Young/Daly"</th>
                            <th scope="col" class="num">"Waste now"</th>
                            <th scope="col" class="num">"Waste at Young/Daly"</th>
                            <th scope="col" class="num">"Simulated"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="table-note">
                "Waste in instance-hours: lost work + time saving checkpoints; \"now\" and \"at Young/Daly\" are the model's estimates, \"simulated\" what this run measured. A cost marked ? is assumed: the "
                {if kueue { "ClusterQueue" } else { "share" }}
                " never checkpoints."
            </p>
            <ul class="advice">{sentences}</ul>
        })
    };
    view! {
        {card("advisor", "Checkpoint advisor", "checkpoint-advisor", Some("checkpoint-advisor"), view! {
            <p class="explain-intro">
                {move || intro(digest.with(|d| d.as_ref().is_some_and(|d| d.kueue.is_some())))}
            </p>
            {body}
        })}
    }
}
