//! Explanations (issue 5, part 5; issue 4, part 4): the event log, one job's history and the
//! checkpoint advisor.
//!
//! Everything here reads the last good run's [`Digest`]: the engine wrote the events and
//! their explanations, and [`quotalab_engine::advisor`] does the checkpoint arithmetic; this
//! module only filters, words and lays them out.

use leptos::prelude::*;
use quotalab_engine::advisor::{self, ShareAdvice, Verdict};
use quotalab_engine::digest::{Digest, EventRow, JobRow};

use crate::state::last_digest as digest;
use crate::{format, palette};

/// Rows the event log renders at first (a new run or filter starts here again). Kept small:
/// every run rebuilds them, and on a large scenario they were most of the page's work after a
/// result landed (docs/PERFORMANCE.md, "Browser").
pub const FIRST_PAGE: usize = 100;

/// Rows each "show more" adds.
pub const MORE: usize = 500;

/// The event kinds of SPEC 8, in the order the kind filter lists them.
pub const KINDS: &[&str] = &[
    "submit",
    "dispatch",
    "start",
    "running",
    "checkpoint",
    "preempt",
    "requeue",
    "succeed",
    "fail",
    "reject",
    "waiting",
    "set_priority",
    "update_share",
];

/// The job whose history is open (by id, so that it survives a re-run).
#[derive(Clone, Copy)]
pub struct SelectedJob(pub RwSignal<Option<String>>);

/// Provides the selection shared by [`EventLog`] and [`JobHistory`] to the components below
/// the current owner; [`crate::App`] calls it once.
pub fn provide_selected_job() -> RwSignal<Option<String>> {
    let s = RwSignal::new(None);
    provide_context(SelectedJob(s));
    s
}

fn selected_job() -> RwSignal<Option<String>> {
    use_context::<SelectedJob>().map_or_else(provide_selected_job, |s| s.0)
}

/// A simulation time for people: `0:02:00`, `1d 03:14:05`.
pub fn clock(t_s: f64) -> String {
    if !t_s.is_finite() || t_s < 0.0 {
        return "—".into();
    }
    let t = t_s.round() as u64;
    let (d, h, m, s) = (t / 86_400, t / 3600 % 24, t / 60 % 60, t % 60);
    if d > 0 {
        format!("{d}d {h:02}:{m:02}:{s:02}")
    } else {
        format!("{h}:{m:02}:{s:02}")
    }
}

fn job_id(d: &Digest, j: Option<u32>) -> Option<&str> {
    j.and_then(|j| d.jobs.get(j as usize))
        .map(|r| r.id.as_str())
}

fn share_name(d: &Digest, s: u16) -> &str {
    d.shares
        .get(usize::from(s))
        .map_or("?", |m| m.name.as_str())
}

fn reason_words(reason: &str) -> &str {
    match reason {
        "unschedulable" => "unschedulable",
        "blocked_by_priority" => "blocked by priority",
        "head_of_line" => "head of line",
        "borrow_limit" => "borrow limit reached",
        "entitlement_exhausted" => "entitlement exhausted",
        "capacity_in_use" => "capacity in use",
        "no_lendable_capacity" => "no lendable capacity",
        other => other,
    }
}

/// What one event says, in plain words (the engine's explanation where it has one).
pub fn describe(d: &Digest, e: &EventRow) -> String {
    let or = |s: &Option<String>, fallback: &str| s.clone().unwrap_or_else(|| fallback.into());
    match e.kind.as_str() {
        "submit" => "submitted to its share's queue".into(),
        "dispatch" => {
            if e.borrowing == Some(true) {
                "admitted, borrowing beyond its share's limit (it can be reclaimed)".into()
            } else {
                "admitted within its share's limit".into()
            }
        }
        "start" => "instances held: starting up".into(),
        "running" => "running: making progress".into(),
        "checkpoint" => "saved a checkpoint".into(),
        "preempt" => {
            let by = job_id(d, e.by).unwrap_or("another job");
            or(&e.explain, &format!("preempted by {by}"))
        }
        "requeue" => "back in the queue after its preemption".into(),
        "succeed" => "succeeded".into(),
        "fail" => "failed: preempted more often than its preemption retries allow".into(),
        "reject" => "rejected: its share is DISABLED and accepts no new job".into(),
        "waiting" => {
            let reason = e.reason.as_deref().map_or("waiting", reason_words);
            match &e.explain {
                Some(x) => format!("waits ({reason}): {x}"),
                None => format!("waits ({reason})"),
            }
        }
        "set_priority" => match e.priority {
            Some(p) => format!("priority set to {p}"),
            None => "priority changed".into(),
        },
        "update_share" => format!("{} updated (limits or strategy)", share_name(d, e.share)),
        other => other.to_string(),
    }
}

/// The event log's filters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// A share name; empty = every share.
    pub share: String,
    /// A kind (SPEC 8); empty = every kind.
    pub kind: String,
    /// Part of a job id; empty = every event (including events without a job).
    pub job: String,
}

/// Indices of the events that pass `f`, in log order.
pub fn filter_events(d: &Digest, f: &Filter) -> Vec<u32> {
    let share = (!f.share.is_empty())
        .then(|| d.shares.iter().position(|s| s.name == f.share))
        .map(|p| p.map_or(u16::MAX, |p| p as u16));
    let needle = f.job.trim();
    // Which jobs match the text, once (not per event).
    let job_ok: Option<Vec<bool>> =
        (!needle.is_empty()).then(|| d.jobs.iter().map(|j| j.id.contains(needle)).collect());
    d.events
        .iter()
        .enumerate()
        .filter(|(_, e)| share.is_none_or(|s| e.share == s))
        .filter(|(_, e)| f.kind.is_empty() || e.kind == f.kind)
        .filter(|(_, e)| match &job_ok {
            None => true,
            Some(ok) => e.job.is_some_and(|j| ok.get(j as usize) == Some(&true)),
        })
        .map(|(i, _)| i as u32)
        .collect()
}

/// Counts of each kind present in the log, in [`KINDS`] order.
pub fn kind_counts(d: &Digest) -> Vec<(&'static str, usize)> {
    let mut n = vec![0usize; KINDS.len()];
    for e in &d.events {
        if let Some(k) = KINDS.iter().position(|k| *k == e.kind) {
            n[k] += 1;
        }
    }
    KINDS
        .iter()
        .zip(n)
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| (*k, n))
        .collect()
}

fn swatch(i: u16) -> impl IntoView {
    view! {
        <span
            class="swatch"
            style:background-color=palette::css(usize::from(i))
            aria-hidden="true"
        ></span>
    }
}

fn event_row(d: &Digest, i: u32, select: RwSignal<Option<String>>) -> impl IntoView {
    let e = &d.events[i as usize];
    let what = describe(d, e);
    let job = job_id(d, e.job).map(|id| {
        let id = id.to_string();
        let label = format!("Show the history of {id}");
        let shown = id.clone();
        view! {
            <button
                type="button"
                class="job-link"
                aria-label=label
                on:click=move |_| select.set(Some(id.clone()))
            >
                {shown}
            </button>
        }
    });
    let by = (e.kind == "preempt")
        .then(|| job_id(d, e.by).map(str::to_string))
        .flatten();
    view! {
        <tr data-testid="event-row" data-kind=e.kind.clone() data-by=by>
            <td class="num t">{clock(e.t_s)}</td>
            <td class="share">{swatch(e.share)} {share_name(d, e.share).to_string()}</td>
            <td class="job">{job}</td>
            <td>
                <span class=format!("kind kind-{}", e.kind)>{e.kind.replace('_', " ")}</span>
            </td>
            <td class="what">{what}</td>
        </tr>
    }
}

/// The event log of the last good run: filterable by share, kind and job; the first
/// [`FIRST_PAGE`] rows, and [`MORE`] per "show more". A job id opens its [`JobHistory`].
#[component]
pub fn EventLog() -> impl IntoView {
    let digest = digest();
    let select = selected_job();
    let share = RwSignal::new(String::new());
    let kind = RwSignal::new(String::new());
    let job = RwSignal::new(String::new());
    let limit = RwSignal::new(FIRST_PAGE);

    // A filter that no longer applies to the new run (a share or kind it lacks) is dropped.
    Effect::new(move |_| {
        digest.with(|d| {
            let Some(d) = d else { return };
            if !share.get_untracked().is_empty()
                && !d.shares.iter().any(|s| s.name == share.get_untracked())
            {
                share.set(String::new());
            }
            if !kind.get_untracked().is_empty()
                && !d.events.iter().any(|e| e.kind == kind.get_untracked())
            {
                kind.set(String::new());
            }
        })
    });
    let filtered = Memo::new(move |_| {
        let f = Filter {
            share: share.get(),
            kind: kind.get(),
            job: job.get(),
        };
        digest.with(|d| d.as_ref().map(|d| filter_events(d, &f)).unwrap_or_default())
    });
    // A new filter or run starts from the first page.
    Effect::new(move |_| {
        filtered.track();
        limit.set(FIRST_PAGE);
    });

    let share_options = move || {
        digest.with(|d| {
            d.as_ref().map(|d| {
                d.shares
                    .iter()
                    .map(|s| {
                        let n = s.name.clone();
                        let sel = n.clone();
                        let value = n.clone();
                        view! {
                            <option value=value prop:selected=move || share.get() == sel>
                                {n}
                            </option>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let kind_options = move || {
        digest.with(|d| {
            d.as_ref().map(|d| {
                kind_counts(d)
                    .into_iter()
                    .map(|(k, n)| {
                        view! {
                            <option value=k prop:selected=move || kind.get() == k>
                                {format!("{} ({})", k.replace('_', " "), format::thousands(n as f64))}
                            </option>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let rows = move || {
        let d = digest.get()?;
        let n = limit.get();
        Some(filtered.with(|f| {
            f.iter()
                .take(n)
                .map(|&i| event_row(&d, i, select))
                .collect_view()
        }))
    };
    let status = move || {
        let Some(d) = digest.get() else {
            return String::new();
        };
        let shown = filtered.with(Vec::len);
        let capped = if d.event_count > d.events.len() as u64 {
            format!(
                " (the first {} of {} events were kept)",
                format::thousands(d.events.len() as f64),
                format::thousands(d.event_count as f64)
            )
        } else {
            String::new()
        };
        format!(
            "{} of {} events match{capped}; showing {}",
            format::thousands(shown as f64),
            format::thousands(d.events.len() as f64),
            format::thousands(shown.min(limit.get()) as f64),
        )
    };
    let more = move || {
        let left = filtered.with(Vec::len).saturating_sub(limit.get());
        (left > 0).then(|| {
            let step = left.min(MORE);
            view! {
                <button
                    type="button"
                    class="show-more"
                    data-testid="event-log-more"
                    on:click=move |_| limit.update(|n| *n += MORE)
                >
                    {format!("Show {} more ({} left)", format::thousands(step as f64), format::thousands(left as f64))}
                </button>
            }
        })
    };

    view! {
        <section class="card event-log" aria-labelledby="event-log-heading" data-testid="event-log">
            <h2 id="event-log-heading">"Event log"</h2>
            <p class="explain-intro">
                "Everything the simulator did, in order. Preemptions and waiting reasons say why in plain words; pick a job id to see its whole history."
            </p>
            <div class="event-filters">
                <label>
                    "Share "
                    <select
                        data-testid="event-filter-share"
                        on:change=move |ev| share.set(event_target_value(&ev))
                    >
                        <option value="" prop:selected=move || share.get().is_empty()>
                            "All shares"
                        </option>
                        {share_options}
                    </select>
                </label>
                <label>
                    "Kind "
                    <select
                        data-testid="event-filter-kind"
                        on:change=move |ev| kind.set(event_target_value(&ev))
                    >
                        <option value="" prop:selected=move || kind.get().is_empty()>
                            "All kinds"
                        </option>
                        {kind_options}
                    </select>
                </label>
                <label>
                    "Job "
                    <input
                        type="search"
                        data-testid="event-filter-job"
                        placeholder="job id contains…"
                        prop:value=move || job.get()
                        on:input=move |ev| job.set(event_target_value(&ev))
                    />
                </label>
            </div>
            <p class="event-status" role="status" data-testid="event-status">{status}</p>
            <div class="event-scroll">
                <table class="events">
                    <caption class="visually-hidden">"Simulation events"</caption>
                    <thead>
                        <tr>
                            <th scope="col" class="num">"Time"</th>
                            <th scope="col">"Share"</th>
                            <th scope="col">"Job"</th>
                            <th scope="col">"Event"</th>
                            <th scope="col">"What happened"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {more}
        </section>
    }
}

/// One job's story, gathered from a run.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    pub job: JobRow,
    pub share: String,
    /// `(time, kind, plain words)` of every event of the job, and of the preemptions it
    /// caused (kind `preempted-other`), in log order.
    pub events: Vec<(f64, String, String)>,
    /// Times the job started (took its instances).
    pub attempts: usize,
    /// Distinct waiting reasons, in order of first appearance.
    pub reasons: Vec<String>,
}

/// The history of the job with id `id`, if the run has it.
pub fn history(d: &Digest, id: &str) -> Option<History> {
    let j = d.jobs.iter().position(|r| r.id == id)?;
    let mine = Some(j as u32);
    let mut events = Vec::new();
    let mut attempts = 0;
    let mut reasons: Vec<String> = Vec::new();
    for e in &d.events {
        if e.job == mine {
            match e.kind.as_str() {
                "start" => attempts += 1,
                "waiting" => {
                    if let Some(r) = &e.reason {
                        if !reasons.contains(r) {
                            reasons.push(r.clone());
                        }
                    }
                }
                _ => {}
            }
            events.push((e.t_s, e.kind.clone(), describe(d, e)));
        } else if e.kind == "preempt" && e.by == mine {
            let victim = job_id(d, e.job).unwrap_or("a job");
            let cause = e.cause.as_deref().unwrap_or("preemption");
            events.push((
                e.t_s,
                "preempted-other".to_string(),
                format!("took the place of {victim} ({})", cause.replace('_', "-")),
            ));
        }
    }
    let job = d.jobs[j].clone();
    Some(History {
        share: share_name(d, job.share).to_string(),
        job,
        events,
        attempts,
        reasons,
    })
}

/// The history panel of the job picked in the [`EventLog`]: attempts, preemptions (who and
/// why), waiting reasons, lost work and held time.
#[component]
pub fn JobHistory() -> impl IntoView {
    let digest = digest();
    let select = selected_job();
    // A job the new run does not have closes the panel.
    Effect::new(move |_| {
        digest.with(|d| {
            let Some(d) = d else { return };
            let id = select.get_untracked();
            if id.is_some_and(|id| !d.jobs.iter().any(|j| j.id == id)) {
                select.set(None);
            }
        })
    });
    // Picking a job brings its history into view.
    Effect::new(move |prev: Option<Option<String>>| {
        let id = select.get();
        if prev.is_some() && id.is_some() {
            request_animation_frame(|| {
                if let Some(el) = document().get_element_by_id("job-history-heading") {
                    el.scroll_into_view();
                }
            });
        }
        id
    });
    let body = move || {
        let id = select.get()?;
        let d = digest.get()?;
        let Some(h) = history(&d, &id) else {
            return Some(
                view! { <p class="empty-note">{format!("{id} is not part of this run.")}</p> }
                    .into_any(),
            );
        };
        let j = &h.job;
        let plural = |n: u64, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        let inst = j.instances.max(1) as f64;
        let lost = if j.lost_s > 0.0 {
            format!(
                "{} of progress ({} instance-hours)",
                format::duration(j.lost_s),
                format::hours(j.lost_s * inst / 3600.0)
            )
        } else {
            "none".to_string()
        };
        let held = format!(
            "{} × {} ({} instance-hours)",
            format::duration(j.held_s),
            plural(j.instances, "instance"),
            format::hours(j.held_s * inst / 3600.0)
        );
        let reasons = if h.reasons.is_empty() {
            "never waited for a reason".to_string()
        } else {
            h.reasons
                .iter()
                .map(|r| reason_words(r))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let waiting = j
            .waiting_reason
            .as_deref()
            .map(|r| format!(" (waiting: {})", reason_words(r)))
            .unwrap_or_default();
        let items = h
            .events
            .iter()
            .map(|(t, k, what)| {
                view! {
                    <li data-kind=k.clone()>
                        <span class="t">{clock(*t)}</span>
                        <span class=format!("kind kind-{k}")>{k.replace(['_', '-'], " ")}</span>
                        <span class="what">{what.clone()}</span>
                    </li>
                }
            })
            .collect_view();
        Some(
            view! {
                <h3>
                    {swatch(j.share)}
                    {format!("{} ({})", j.id, h.share)}
                </h3>
                <dl class="history-facts">
                    <dt>"State at the end"</dt>
                    <dd data-testid="history-state">{format!("{}{waiting}", j.state)}</dd>
                    <dt>"Submitted / first start / end"</dt>
                    <dd>
                        {format!(
                            "{} / {} / {}",
                            clock(j.submit_s),
                            j.first_start_s.map_or("never".into(), clock),
                            j.end_s.map_or("—".into(), clock),
                        )}
                    </dd>
                    <dt>"Attempts"</dt>
                    <dd data-testid="history-attempts">{h.attempts}</dd>
                    <dt>"Preemptions"</dt>
                    <dd data-testid="history-preemptions">{plural(j.preemptions, "preemption")}</dd>
                    <dt>"Lost work"</dt>
                    <dd data-testid="history-lost">{lost}</dd>
                    <dt>"Held"</dt>
                    <dd data-testid="history-held">{held}</dd>
                    <dt>"Waited because"</dt>
                    <dd>{reasons}</dd>
                </dl>
                <ol class="history-events" data-testid="history-events">{items}</ol>
            }
            .into_any(),
        )
    };
    view! {
        <Show when=move || select.with(Option::is_some)>
            <section class="card job-history" aria-labelledby="job-history-heading" data-testid="job-history">
                <div class="history-head">
                    <h2 id="job-history-heading">"Job history"</h2>
                    <button type="button" class="close" on:click=move |_| select.set(None)>
                        "Close"
                    </button>
                </div>
                {body}
            </section>
        </Show>
    }
}

fn interval(s: Option<f64>) -> String {
    s.map_or_else(|| "none".into(), format::duration)
}

fn ih(h: f64) -> String {
    format!("{} instance-hours", format::hours(h))
}

/// The advisor's plain-words verdict for one share.
pub fn advice_sentence(a: &ShareAdvice) -> String {
    let name = &a.share;
    let (Some(mtbi), Some(yd)) = (a.mtbi_s, a.young_daly) else {
        return format!("{name} was never preempted: checkpoints guard against nothing here.");
    };
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
        Verdict::NotWorthIt => format!(
            "{every} but lost only {} of work without checkpoints; even at the best interval, {best}. Checkpoints would not pay here.",
            ih(a.observed_lost_h)
        ),
        Verdict::ProtectedOnPreemption => format!(
            "{every}, yet lost only {} of work (the model expects {} at its {} interval): its jobs save when preempted, so the {} it spent saving mostly cost time: a longer interval would waste less.",
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
                        <td class="num" data-col="interruptions">
                            <span class="value">{a.interruptions}</span>
                            <span class="sub" data-col="mtbi">{mtbi}</span>
                        </td>
                        <td class="num" data-col="configured">
                            <span class="value">{interval(a.configured_interval_s)}</span>
                            <span class="sub" data-col="cost">{cost}</span>
                        </td>
                        <td class="num" data-col="young-daly">
                            <span class="value">{interval(a.young_daly_s)}</span>
                        </td>
                        <td class="num" data-col="waste-configured">{waste_cell(a.configured)}</td>
                        <td class="num" data-col="waste-young-daly">{waste_cell(a.young_daly)}</td>
                        <td class="num" data-col="observed">
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
                view! { <li data-verdict=v>{advice_sentence(a)}</li> }
            })
            .collect_view();
        Some(view! {
            <div class="table-scroll">
                <table class="advisor">
                    <caption class="visually-hidden">"Checkpoint advice per quota share"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Share"</th>
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
                "Waste in instance-hours: lost work + time saving checkpoints; \"now\" and \"at Young/Daly\" are the model's estimates, \"simulated\" what this run measured. A cost marked ? is assumed: the share never checkpoints."
            </p>
            <ul class="advice">{sentences}</ul>
        })
    };
    view! {
        <section class="card checkpoint-advisor" aria-labelledby="advisor-heading" data-testid="checkpoint-advisor">
            <h2 id="advisor-heading">"Checkpoint advisor"</h2>
            <p class="explain-intro">
                "How often should each share's jobs save a checkpoint, given how often this run preempted them? Young/Daly: every √(2 × save cost × mean time between interruptions) of progress. Waste, in instance-hours, is the time spent saving (cost ÷ interval) plus the work lost at interruptions (interval ÷ 2 per interruption), over the share's held time: a first-order model, beside what the simulation measured."
            </p>
            {body}
        </section>
    }
}
