//! The "state at t" panel and the cursor card: counts per share, who holds what, who waits.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, EventKind, StateAt};
use quotalab_engine::output::explain::{reason_label_in, reason_phrase_in};
use quotalab_report::timeline::{moment, WholeRun, LIST_MAX};
use wasm_bindgen::JsCast;

use super::{Later, Moment};
use crate::charts::{span_s, CursorCard};
use crate::ui::{format, palette};

/// "State at 4 d 7 h": the cursor's time in the unit of the run's time axes.
pub fn state_title(d: &Digest, t: f64) -> String {
    format!("State at {}", time_scale(d).at(t))
}

/// The time unit of `d`'s time axes (the charts' [`crate::charts::TimeAxis`]).
pub fn time_scale(d: &Digest) -> format::TimeScale {
    format::TimeScale::for_span(span_s(d))
}

/// Per share: jobs holding instances, instances held, jobs admitted but not started, jobs
/// waiting to be admitted.
pub fn share_counts(d: &Digest, at: &StateAt) -> Vec<[u64; 4]> {
    let mut out = vec![[0u64; 4]; d.shares.len()];
    let share = |j: u32| {
        d.jobs
            .get(j as usize)
            .map(|r| (r.share as usize, r.instances))
    };
    for (j, _) in &at.holding {
        if let Some(c) = share(*j).and_then(|(s, n)| out.get_mut(s).map(|c| (c, n))) {
            c.0[0] += 1;
            c.0[1] += c.1;
        }
    }
    for j in &at.scheduled {
        if let Some(c) = share(*j).and_then(|(s, _)| out.get_mut(s)) {
            c[2] += 1;
        }
    }
    for (j, _) in &at.waiting {
        if let Some(c) = share(*j).and_then(|(s, _)| out.get_mut(s)) {
            c[3] += 1;
        }
    }
    out
}

/// A share's name with its colour swatch.
fn share_cell(d: &Digest, s: u16) -> impl IntoView + use<> {
    let name = crate::charts::share_name(d, s as usize).to_string();
    view! {
        <span class="share-tag">
            {crate::charts::swatch(palette::css(s as usize))}
            {name}
        </span>
    }
}

/// The table of counts per share at the cursor (the panel's and the card's).
fn counts_table(d: &Digest, at: &StateAt) -> impl IntoView + use<> {
    let rows = share_counts(d, at)
        .into_iter()
        .enumerate()
        .map(|(s, [holding, instances, admitted, waiting])| {
            view! {
                <tr data-share=d.shares[s].name.clone()>
                    <th scope="row">{share_cell(d, s as u16)}</th>
                    <td class="num" data-col="holding">{holding}</td>
                    <td class="num" data-col="instances">{instances}</td>
                    <td class="num" data-col="admitted">{admitted}</td>
                    <td class="num" data-col="waiting">{waiting}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="state-counts">
            <thead>
                <tr>
                    <th scope="col">{crate::ui::words::share_word(d.kueue.is_some())}</th>
                    <th scope="col" class="num" title="jobs holding instances">"jobs"</th>
                    <th scope="col" class="num" title="instances held">"inst."</th>
                    <th scope="col" class="num" title="admitted, waiting for their instances">"adm."</th>
                    <th scope="col" class="num" title="jobs waiting to be admitted">"wait"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// How much of a capped event log the page keeps, "first 200,000 of 495,274 events, up to
/// 69 d 2 h" with the time written by `at` (`None` when the page has every event): the
/// timeline, the panel, the event log and a job's history all say it so.
pub fn kept_events(d: &Digest, at: impl Fn(f64) -> String) -> Option<String> {
    let until = d.events_until_s?;
    Some(format!(
        "first {} of {} events, up to {}",
        format::thousands(d.events.len() as f64),
        format::thousands(d.event_count as f64),
        at(until)
    ))
}

/// What a capped event log leaves out, as the timeline and the "state at t" panel say it
/// (`None` when the page has every event).
pub fn log_cap_note(d: &Digest) -> Option<String> {
    let kept = kept_events(d, |t| time_scale(d).at(t))?;
    Some(format!(
        "The page keeps the run's {kept}: who held what and who waited after that is not known here. The charts over time cover the whole run; “Export results (JSON)” in the Files menu has every event."
    ))
}

/// What the timeline says once it draws the whole run `w` of a digest whose log the page
/// keeps in part: what still reads the kept events only, and where `w`'s own events stop if
/// the run is longer than the engine worker lays out (`None` when the page has every
/// event). `later`: the engine worker tells the state after the page's events too.
pub fn whole_run_note(d: &Digest, w: &WholeRun, later: bool) -> Option<String> {
    let at = |t| time_scale(d).at(t);
    let kept = kept_events(d, at)?;
    let drawn = match w.layout.until_s {
        None => "The bars and markers are the whole run's, laid out by an engine worker".to_string(),
        Some(until) => format!(
            "The bars and markers are the run's first {} of {} events, up to {}, laid out by an engine worker (nothing is drawn after)",
            format::thousands(w.events as f64),
            format::thousands(w.event_count as f64),
            at(until)
        ),
    };
    let (tells, readers) = if later {
        (
            ", which tells the cursor's card and the “state at t” panel the state at a later time too",
            "the event log and job histories",
        )
    } else {
        (
            "",
            "the cursor's card, the “state at t” panel, the event log and job histories",
        )
    };
    Some(format!(
        "{drawn}{tells}. The page keeps the run's {kept}: {readers} read those. “Export results (JSON)” in the Files menu has every event."
    ))
}

/// [`log_cap_note`] in a line, for the cursor's card.
fn log_cap_short(d: &Digest) -> String {
    let until = d.events_until_s.unwrap_or(d.end_s);
    format!(
        "After the events the page keeps (up to {}): see the state at an earlier time.",
        time_scale(d).at(until)
    )
}

/// The panel's view of moment `m` at `t` (`source`: where it was read from, when not from
/// the events the page keeps).
fn moment_view(d: &Digest, t: f64, m: &Moment, source: Option<String>) -> AnyView {
    let at = &m.at;
    let job = |j: u32| &d.jobs[j as usize];
    let share_cell = |s: u16| share_cell(d, s);
    let kueue = d.kueue.is_some();
    let more = |n: usize| {
        (n > LIST_MAX).then(|| view! { <li class="more">{format!("and {} more", format::thousands((n - LIST_MAX) as f64))}</li> })
    };

    let holding = at
            .holding
            .iter()
            .take(LIST_MAX)
            .map(|(j, st)| {
                let r = job(*j);
                view! {
                    <li data-job=r.id.clone() data-state=st.as_str()>
                        <span class="job-id">{r.id.clone()}</span>
                        {share_cell(r.share)}
                        <span class="detail">
                            {format!("{} × {}, {}", r.instances, crate::charts::type_name(d, r.instance_type), st.as_str().to_ascii_lowercase())}
                        </span>
                    </li>
                }
            })
            .collect_view();
    let scheduled = at
        .scheduled
        .iter()
        .take(LIST_MAX)
        .map(|j| {
            let r = job(*j);
            view! {
                <li data-job=r.id.clone()>
                    <span class="job-id">{r.id.clone()}</span>
                    {share_cell(r.share)}
                    <span class="detail">"admitted, waiting for its instances to be free"</span>
                </li>
            }
        })
        .collect_view();
    let waiting = at
            .waiting
            .iter()
            .take(LIST_MAX)
            .enumerate()
            .map(|(i, (j, reason))| {
                let r = job(*j);
                let code = reason.map_or("", |r| r.as_str()).to_string();
                let why = m.why.get(i).cloned().flatten().unwrap_or_else(|| {
                    reason
                        .map_or("waiting", |r| reason_phrase_in(r, kueue))
                        .to_string()
                });
                view! {
                    <li data-job=r.id.clone() data-reason=code.clone()>
                        <span class="job-id">{r.id.clone()}</span>
                        {share_cell(r.share)}
                        {reason.map(|r| view! { <span class="reason">{reason_label_in(r, kueue)}</span> })}
                        <span class="detail why">{why}</span>
                    </li>
                }
            })
            .collect_view();

    let last_instant = m.latest.as_ref().map(|(lt, events)| {
            let lt = *lt;
            let lines = events
                .iter()
                .map(|(e, explained)| {
                    let who = e.job.map(|j| job(j).id.clone()).unwrap_or_else(|| {
                        crate::charts::share_name(d, e.share as usize).to_string()
                    });
                    let text = match (e.kind, explained) {
                        (EventKind::Preempt, Some(x)) => format!("{who}: {x}"),
                        (EventKind::SetPriority, _) => format!(
                            "{who}: priority set to {}",
                            e.priority.map_or_else(|| "?".into(), |p| p.to_string())
                        ),
                        (EventKind::Dispatch, _) => format!(
                            "{who} admitted{}",
                            if e.borrowing == Some(true) { " (borrowing)" } else { "" }
                        ),
                        (EventKind::Submit, _) => format!("{who} submitted"),
                        (EventKind::Start, _) => format!("{who} holds its instances and starts"),
                        (EventKind::Requeue, _) => format!("{who} back in the queue"),
                        (EventKind::Succeed, _) => format!("{who} succeeded"),
                        (EventKind::Fail, _) => format!("{who} failed"),
                        (EventKind::Reject, _) => format!("{who} rejected (share disabled)"),
                        (EventKind::UpdateShare, _) => format!("share {who} updated"),
                        (k, _) => format!("{who}: {}", k.as_str()),
                    };
                view! { <li data-kind=e.kind.as_str()>{text}</li> }
                })
                .collect_view();
            view! {
                <h4>{if lt == t { "What happens at this moment".to_string() } else { format!("Latest events (at {})", time_scale(d).at(lt)) }}</h4>
                <ul class="state-list events">{lines}</ul>
            }
        });

    view! {
            <div class="state-at-counts">
            <h3 class="state-title">{state_title(d, t)}</h3>
            {source.map(|s| view! { <p class="state-hint" data-testid="state-from-whole-run">{s}</p> })}
            {last_instant}
            {counts_table(d, at)}
            <p class="state-note">"jobs, inst.: jobs holding instances and how many; adm.: admitted, not started yet; wait: waiting to be admitted."</p>
            </div>
            <div class="state-at-lists">
            <h4>{format!("Holding instances ({})", at.holding.len())}</h4>
            <ul class="state-list holding">
                {holding}
                {more(at.holding.len())}
                {at.holding.is_empty().then(|| view! { <li class="none">"nobody"</li> })}
            </ul>
            {(!at.scheduled.is_empty()).then(|| view! {
                <h4>{format!("Admitted, not started ({})", at.scheduled.len())}</h4>
                <ul class="state-list scheduled">{scheduled}{more(at.scheduled.len())}</ul>
            })}
            <h4>{format!("Waiting ({})", at.waiting.len())}</h4>
            <ul class="state-list waiting">
                {waiting}
                {more(at.waiting.len())}
                {at.waiting.is_empty().then(|| view! { <li class="none">"nobody"</li> })}
            </ul>
            </div>
        }
        .into_any()
}

/// The id of the "state at t" panel (the card's "details" link scrolls to it).
pub const STATE_AT_ID: &str = "state-at";

/// The card a chart over time shows beside its cursor: the time, the counts per share and
/// a way to the full panel (who holds what, who waits and why).
pub fn cursor_card(
    digest: Signal<Arc<Digest>>,
    cursor: RwSignal<Option<f64>>,
    stretches: super::Stretches,
) -> CursorCard {
    let at = Memo::new(move |_| {
        let t = cursor.get()?;
        let d = digest.get();
        d.log_covers(t)
            .then(|| Arc::new(stretches.of(&d).state_at(t)))
    });
    let render = move |t: f64| {
        let d = digest.get_untracked();
        let title = view! { <p class="cursor-card-title">{state_title(&d, t)}</p> };
        if d.log_covers(t) {
            let Some(at) = at.get_untracked() else {
                return ().into_any();
            };
            return view! { {title} {card_counts(&d, &at)} }.into_any();
        }
        // After the kept events: the whole run's moment, once the engine worker answers.
        let later = move || {
            let d = digest.get_untracked();
            match stretches.moment_after(&d, t) {
                Later::Known(m) => card_counts(&d, &m.at),
                Later::Reading => view! {
                    <p class="cursor-card-summary">"Reading this moment from the whole run…"</p>
                }
                .into_any(),
                Later::Unknown => {
                    view! { <p class="cursor-card-summary">{log_cap_short(&d)}</p> }.into_any()
                }
            }
        };
        view! { {title} {later} }.into_any()
    };
    CursorCard {
        render: Arc::new(render),
        owner: RwSignal::new(None),
    }
}

/// The card's counts per share at one moment, its summary line and its way to the panel.
fn card_counts(d: &Digest, at: &StateAt) -> AnyView {
    let waiting = at.waiting.len();
    let summary = format!(
        "{} holding, {} admitted, {} waiting",
        format::thousands(at.holding.len() as f64),
        format::thousands(at.scheduled.len() as f64),
        format::thousands(waiting as f64)
    );
    let go = move |_| {
        let Some(panel) = document().get_element_by_id(STATE_AT_ID) else {
            return;
        };
        // Focus (for keyboard and screen-reader users), then its top at the top of the
        // window, whatever focusing scrolled.
        if let Some(el) = panel.dyn_ref::<web_sys::HtmlElement>() {
            let _ = el.focus();
        }
        panel.scroll_into_view_with_bool(true);
    };
    view! {
        {counts_table(d, at)}
        <p class="cursor-card-summary">{summary}</p>
        <button type="button" class="cursor-card-more" on:click=go>
            {if waiting > 0 { "Who waits and why ↓" } else { "Who holds what ↓" }}
        </button>
    }
    .into_any()
}

/// "State at t": who holds what, who waits and why, and counts per share, at the cursor.
/// After the events the page keeps, the engine worker that keeps the whole run is asked
/// ([`super::Stretches::moment_after`]).
#[component]
pub fn StateAtPanel(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    cursor: RwSignal<Option<f64>>,
    /// Each job's stretches, replayed from the log once per result (the Gantt's), not at
    /// every cursor move (200,000 events on the Philly trace).
    #[prop(optional)]
    stretches: super::Stretches,
) -> impl IntoView {
    let body = move || {
        let Some(t) = cursor.get() else {
            return view! {
                <p class="state-hint">
                    "Click the timeline (or any chart over time) to see who held what at that moment, and who waited and why."
                </p>
            }
            .into_any();
        };
        let d = digest.get();
        let (m, source) = if d.log_covers(t) {
            (Arc::new(moment(&d, &stretches.of(&d), t)), None)
        } else {
            match stretches.moment_after(&d, t) {
                Later::Known(m) => (
                    m,
                    Some(format!(
                        "After the events the page keeps (up to {}): read from the whole run, which an engine worker keeps.",
                        time_scale(&d).at(d.events_until_s.unwrap_or(d.end_s))
                    )),
                ),
                later => {
                    let (id, text) = if later == Later::Reading {
                        ("state-reading", "Reading this moment from the whole run…".to_string())
                    } else {
                        ("state-after-log", log_cap_note(&d).unwrap_or_default())
                    };
                    return view! {
                        <div class="state-at-counts">
                        <h3 class="state-title">{state_title(&d, t)}</h3>
                        <p class="state-hint" data-testid=id>{text}</p>
                        </div>
                    }
                    .into_any();
                }
            }
        };
        moment_view(&d, t, &m, source)
    };
    view! {
        <aside class="state-at" id=STATE_AT_ID tabindex="-1" data-testid="state-at" aria-live="polite" aria-label="State at the time cursor">
            {body}
        </aside>
    }
}
