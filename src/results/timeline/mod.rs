//! *Timeline*: a Gantt chart of the run's jobs coloured by share, from the event log only
//! (start → preempt / succeed / fail), with preemption, priority-change and share-update
//! markers, a time cursor (click or drag on the chart, arrow keys when it has focus) and the
//! "state at t" panel ([`Digest::state_at`]) beside it.
//!
//! Up to [`PER_JOB_MAX`] jobs get one row each (with their waiting time drawn faintly);
//! beyond, the instance-holding stretches of each share are packed into lanes (a lane is
//! not a physical instance), bars closer than a pixel are merged and at most [`MAX_BARS`]
//! bars are drawn; the caption says so.

mod draw;
mod state_at;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, Segments};

use crate::charts::{chart_canvas, CanvasOpts};
use crate::worker::service::{use_engine_service, EngineService};
use quotalab_engine_worker::jobs::{Answer, Job};

pub use draw::draw_timeline;
pub use quotalab_report::timeline::{
    gantt, layout, mark_label, moment, Bar, Gantt, Layout, Mark, MarkKind, Moment, Seg, Segment,
    MAX_BARS, MAX_MARKS, PER_JOB_MAX,
};
pub use state_at::{
    cursor_card, kept_events, log_cap_note, share_counts, state_title, time_scale, whole_run_note,
    StateAtPanel, StateAtPanelProps, STATE_AT_ID,
};

/// Runs with more events than this have their Gantt and its layout made in tasks of their
/// own before the chart draws (issue #30: on the Philly trace the three took one task of
/// ~90 ms); smaller ones are made as the chart draws.
pub const STAGED_EVENTS: usize = 20_000;

/// Each job's stretches of the digest last shown ([`Digest::segments`]: one replay of its
/// whole log), read by the Gantt, the cursor's card and the "state at t" panel alike: on the
/// Philly trace each replayed 200,000 events, the card at every cursor move (issue #30).
/// `Weak`: that digest's address is not reused while it is kept. For a digest whose log the
/// page keeps in part, also the whole run an engine worker laid out (the Gantt draws it) and
/// the moment after the kept events last asked of it (the card and the panel show it).
#[derive(Clone, Copy)]
pub struct Stretches {
    kept: StoredValue<Option<Kept<Segments>>, LocalStorage>,
    whole: StoredValue<Option<Kept<quotalab_report::timeline::WholeRun>>, LocalStorage>,
    /// `(key, t, answer)` of the moment last asked ([`Later::Reading`] until it is
    /// answered, [`Later::Unknown`] when the worker no longer kept the run).
    moment: RwSignal<Option<(u64, f64, Later)>>,
    /// Where moments are asked (found when the result is made: a closure that asks later
    /// may run where no owner provides it).
    service: EngineService,
}

/// The moment of a time after the events the page keeps ([`Stretches::moment_after`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Later {
    /// No whole run of this digest is kept by an engine worker (or its job rows are not the
    /// page's): nothing is known after the kept events.
    Unknown,
    /// Asked of the engine worker.
    Reading,
    /// The engine worker's answer, from the whole run.
    Known(Arc<Moment>),
}

/// What was made of a digest, and the digest it was made of.
type Kept<T> = (std::sync::Weak<Digest>, Arc<T>);

/// What `kept` holds if it was made of `d`.
fn made_of<T>(kept: &Option<Kept<T>>, d: &Arc<Digest>) -> Option<Arc<T>> {
    kept.as_ref()
        .filter(|(of, _)| std::ptr::eq(of.as_ptr(), Arc::as_ptr(d)))
        .map(|(_, made)| made.clone())
}

impl Stretches {
    pub fn new() -> Stretches {
        Stretches {
            kept: StoredValue::new_local(None),
            whole: StoredValue::new_local(None),
            moment: RwSignal::new(None),
            service: use_engine_service(),
        }
    }

    /// `d`'s stretches: the kept ones if they are `d`'s, else replayed now and kept.
    pub fn of(self, d: &Arc<Digest>) -> Arc<Segments> {
        if let Some(s) = self.kept.try_with_value(|k| made_of(k, d)).flatten() {
            return s;
        }
        let s = Arc::new(d.segments());
        self.kept
            .try_set_value(Some((Arc::downgrade(d), s.clone())));
        s
    }

    /// The whole run laid out for `d`, if an engine worker has answered for it.
    pub fn whole(self, d: &Arc<Digest>) -> Option<Arc<quotalab_report::timeline::WholeRun>> {
        self.whole.try_with_value(|w| made_of(w, d)).flatten()
    }

    /// Keeps `w`, the whole run of `d`; false if the page has gone.
    fn keep_whole(
        self,
        d: &std::sync::Weak<Digest>,
        w: quotalab_report::timeline::WholeRun,
    ) -> bool {
        self.whole
            .try_set_value(Some((d.clone(), Arc::new(w))))
            .is_none()
    }

    /// The key under which an engine worker keeps `d`'s whole run, if it does and its job
    /// rows are the page's (the page has every row): the state after the kept events can
    /// then be asked of it.
    pub fn later_key(self, d: &Arc<Digest>) -> Option<u64> {
        self.whole(d)
            .and_then(|w| w.key)
            .filter(|_| d.jobs.len() as u64 == d.job_count)
    }

    /// The moment `t` of `d`'s run, after the events the page keeps: asked of the engine
    /// worker that keeps its whole run (once per time; reading this tracks the answer).
    pub fn moment_after(self, d: &Arc<Digest>, t: f64) -> Later {
        let Some(key) = self.later_key(d) else {
            return Later::Unknown;
        };
        let asked = self.moment.try_with(|m| match m {
            Some((k, at, answer)) if *k == key && *at == t => Some(answer.clone()),
            _ => None,
        });
        if let Some(answer) = asked.flatten() {
            return answer;
        }
        let (moment, service) = (self.moment, self.service);
        // Asked in a task of its own: this may be read while the page renders.
        set_timeout(
            move || {
                let fresh = moment.try_with_untracked(
                    |m| !matches!(m, Some((k, at, _)) if *k == key && *at == t),
                );
                if fresh != Some(true) {
                    return;
                }
                moment.try_set(Some((key, t, Later::Reading)));
                service.send(Job::Moment { key, t_s: t }, move |answer| {
                    let Answer::Moment(m) = answer else { return };
                    let still = moment.try_with_untracked(
                        |m| matches!(m, Some((k, at, _)) if *k == key && *at == t),
                    );
                    if still == Some(true) {
                        let answer = m.map_or(Later::Unknown, |m| Later::Known(Arc::new(m)));
                        moment.try_set(Some((key, t, answer)));
                    }
                });
            },
            std::time::Duration::ZERO,
        );
        Later::Reading
    }
}

impl Default for Stretches {
    fn default() -> Stretches {
        Stretches::new()
    }
}

/// The layout last made and the digest it was made for (`Weak`: that digest's address is
/// not reused while it is kept).
type Made = StoredValue<Option<Kept<Layout>>, LocalStorage>;

/// Makes `d`'s Gantt in a task, its layout in the next, keeps it in `made` and bumps
/// `landed` (the chart then draws it); nothing if `d` is being made already, or once a newer
/// digest is being made (its own drawing staged it) or `d` is gone.
fn stage(
    d: Arc<Digest>,
    stretches: Stretches,
    made: Made,
    staging: StoredValue<std::sync::Weak<Digest>, LocalStorage>,
    landed: RwSignal<u64>,
) {
    if std::ptr::eq(staging.get_value().as_ptr(), Arc::as_ptr(&d)) {
        return;
    }
    staging.set_value(Arc::downgrade(&d));
    let of = Arc::downgrade(&d);
    drop(d);
    let next = std::time::Duration::ZERO;
    // The digest being made, if it is still alive and no newer one is being made instead (a
    // stale chain neither works nor lands over a newer one).
    let current = move |of: &std::sync::Weak<Digest>| {
        let newest = staging.try_with_value(|s| std::ptr::eq(s.as_ptr(), of.as_ptr()));
        newest.unwrap_or(false).then(|| of.upgrade()).flatten()
    };
    set_timeout(
        move || {
            let Some(d) = current(&of) else { return };
            let g = gantt(&d, &stretches.of(&d));
            set_timeout(
                move || {
                    let Some(d) = current(&of) else { return };
                    let m = Arc::new(layout(&d, &g));
                    if made.try_set_value(Some((of, m))).is_none() {
                        landed.try_update(|n| *n += 1);
                    }
                },
                next,
            );
        },
        next,
    );
}

/// Where the timeline of a run whose log the page keeps in part stands (`data-timeline`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WholeState {
    /// The page has the whole log (or no scenario to ask about): it lays the timeline out.
    Kept,
    /// The page draws the events it keeps while an engine worker lays out the whole run.
    Asking,
    /// The bars and markers drawn are the whole run's
    /// ([`quotalab_report::timeline::whole_run`]).
    Drawn,
    /// The engine worker could not lay it out: the kept events stay drawn.
    Failed,
}

impl WholeState {
    pub fn as_str(self) -> &'static str {
        match self {
            WholeState::Kept => "kept",
            WholeState::Asking => "asking",
            WholeState::Drawn => "whole",
            WholeState::Failed => "failed",
        }
    }
}

/// How long a capped result must stay shown before its whole run is asked for: a drag's
/// results come every 250 ms, and each ask simulates the scenario again.
pub const WHOLE_RUN_DELAY_MS: u64 = 600;

/// Asks an engine worker for the timeline of `d`'s run from its whole log (`text` simulated
/// again, [`quotalab_report::timeline::whole_run`]) once `d` has been shown for
/// [`WHOLE_RUN_DELAY_MS`], keeps it in `whole` and bumps `landed` (the chart then draws
/// it); nothing if `d` was asked for already, is gone or a newer digest was asked for, or
/// the answer is of another run (the text was edited since).
fn ask_whole(
    d: &Arc<Digest>,
    service: EngineService,
    text: RwSignal<String>,
    whole: Stretches,
    asked: StoredValue<std::sync::Weak<Digest>, LocalStorage>,
    state: RwSignal<WholeState>,
    landed: RwSignal<u64>,
) {
    // Read and written with `try_`: a chart may draw once more after its timeline is gone.
    let same = asked.try_with_value(|a| std::ptr::eq(a.as_ptr(), Arc::as_ptr(d)));
    if same != Some(false) {
        return;
    }
    asked.try_set_value(Arc::downgrade(d));
    state.try_set(WholeState::Asking);
    let of = Arc::downgrade(d);
    // The digest asked for, if it is still alive and no newer one was asked for since (a
    // stale answer neither lands nor is asked; nothing reactive of the result is read here:
    // it may be gone, a newer result mounted in its place).
    let shown = move |of: &std::sync::Weak<Digest>| {
        let newest = asked.try_with_value(|a| std::ptr::eq(a.as_ptr(), of.as_ptr()));
        newest.unwrap_or(false).then(|| of.upgrade()).flatten()
    };
    set_timeout(
        move || {
            if shown(&of).is_none() {
                return;
            }
            let Some(scenario) = text.try_get_untracked() else {
                return;
            };
            service.send(Job::Timeline { scenario }, move |answer| {
                let Some(d) = shown(&of) else { return };
                match answer {
                    Answer::Timeline(Ok(w)) if w.is_of(&d) => {
                        if whole.keep_whole(&of, w) {
                            state.try_set(WholeState::Drawn);
                            landed.try_update(|n| *n += 1);
                        }
                    }
                    _ => {
                        state.try_set(WholeState::Failed);
                    }
                }
            });
        },
        std::time::Duration::from_millis(WHOLE_RUN_DELAY_MS),
    );
}

/// The Gantt chart with its legend, its note and the "state at t" panel. A run whose log
/// the page keeps in part is drawn from the events it keeps, then from its whole log once
/// an engine worker has laid it out (when the page has the scenario it was run from).
#[component]
pub fn Timeline(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    cursor: RwSignal<Option<f64>>,
    /// The stretches the cursor's card reads too.
    #[prop(optional)]
    stretches: Stretches,
) -> impl IntoView {
    // The layout last made, and a signal that says a staged one has landed.
    let made: Made = StoredValue::new_local(None);
    let landed = RwSignal::new(0u64);
    let staging = StoredValue::new_local(std::sync::Weak::<Digest>::new());
    // A capped run's whole timeline: the scenario it is asked from, the layout, the digest
    // it was asked for.
    let text = use_context::<crate::state::AppState>().map(|app| app.scenario);
    let service = use_engine_service();
    let asked = StoredValue::new_local(std::sync::Weak::<Digest>::new());
    let whole_state = RwSignal::new(WholeState::Kept);
    let steps = Memo::new_with_compare(
        move |_| {
            let d = digest.get();
            let mut t: Vec<f64> = d.events.iter().map(|e| e.t_s).collect();
            t.dedup();
            t.push(d.end_s);
            t.dedup();
            Arc::new(t)
        },
        |_, _| true,
    );
    // The layout's note, as the last drawing left it: the layout (passes over every event and
    // segment) is made only when the chart draws, so a result whose timeline is out of view
    // costs none of it.
    let note_text = RwSignal::new(String::new());
    let canvas = chart_canvas(
        CanvasOpts {
            class: "chart-canvas timeline-canvas",
            label: "Gantt chart of jobs over time coloured by share, with preemption markers. Click or drag to move the time cursor; arrow keys step through events.".into(),
            cursor: Some(cursor),
            steps: Some(steps.into()),
        },
        move |c, size| {
            landed.track();
            let d = digest.get();
            let capped = d.events_until_s.is_some();
            // A capped run's whole timeline, once the engine worker has laid it out.
            let whole = if capped { stretches.whole(&d) } else { None };
            match text {
                Some(text) if capped && whole.is_none() && c.is_connected() => {
                    ask_whole(&d, service, text, stretches, asked, whole_state, landed);
                }
                _ => {
                    if !capped && whole_state.try_get_untracked() != Some(WholeState::Kept) {
                        whole_state.try_set(WholeState::Kept);
                    }
                }
            }
            let made_now;
            let l: &Layout = match &whole {
                Some(w) => &w.layout,
                None => {
                    made_now = match made.with_value(|m| made_of(m, &d)) {
                        Some(m) => m,
                        // A large run's on the page: made in tasks of its own, then drawn.
                        None if d.events.len() > STAGED_EVENTS && c.is_connected() => {
                            stage(d, stretches, made, staging, landed);
                            return Ok(None);
                        }
                        None => {
                            let m = Arc::new(layout(&d, &gantt(&d, &stretches.of(&d))));
                            made.set_value(Some((Arc::downgrade(&d), m.clone())));
                            m
                        }
                    };
                    &made_now
                }
            };
            if note_text.with_untracked(|n| *n != l.note) {
                note_text.set(l.note.clone());
            }
            draw_timeline(c, size, &d, l)
        },
    );
    let note = move || {
        note_text.with(|n| (!n.is_empty()).then(|| view! { <p class="chart-note">{n.clone()}</p> }))
    };
    // A capped log: the chart stops where it does, and says so; or the whole run is drawn,
    // and the note says what still reads the kept events only.
    let capped = move || {
        let asked = whole_state.get();
        digest.with(|d| {
            // Drawn whole only if the whole run is this digest's (a newer result is drawn from
            // its kept events until its own whole run lands).
            let whole = stretches.whole(d);
            let state = match (&whole, asked) {
                (Some(_), _) => WholeState::Drawn,
                (None, WholeState::Drawn) => WholeState::Kept,
                (None, other) => other,
            };
            let n = match (state, whole) {
                (WholeState::Drawn, Some(w)) => {
                    whole_run_note(d, &w, stretches.later_key(d).is_some())?
                }
                (WholeState::Asking, _) => format!(
                    "{} The whole run's timeline is being laid out…",
                    log_cap_note(d)?
                ),
                _ => log_cap_note(d)?,
            };
            Some(view! { <p class="chart-note" data-testid="timeline-capped" data-timeline=state.as_str()>{n}</p> })
        })
    };
    let kueue = Memo::new(move |_| digest.with(|d| d.kueue.is_some()));
    let by = move || if kueue.get() { "ClusterQueue" } else { "share" };
    // Issue #34: the Kueue model says workload.
    let each = move || if kueue.get() { "workload" } else { "job" };
    view! {
        <div class="timeline-layout">
            <figure class="chart timeline" data-testid="chart-timeline">
                <figcaption>
                    {move || format!("Each {} over time, coloured by {}: solid while running, lighter while starting up, hatched during a grace period, faint while waiting. Click or drag on the chart to move the time cursor (arrow keys step through events when it has focus).", each(), by())}
                </figcaption>
                {canvas}
                <ul class="legend key-legend" aria-label="Legend">
                    <li><span class="key key-run" aria-hidden="true"></span>"running"</li>
                    <li><span class="key key-startup" aria-hidden="true"></span>"starting / restoring"</li>
                    <li><span class="key key-grace-bar" aria-hidden="true"></span>"grace period"</li>
                    <li><span class="key key-wait" aria-hidden="true"></span>"waiting"</li>
                    <li><span class="glyph glyph-reclaim" aria-hidden="true">"▼"</span>"preempted: reclaim"</li>
                    <li><span class="glyph glyph-inshare" aria-hidden="true">"✕"</span>{move || format!("preempted: {}", crate::ui::words::in_share_word(kueue.get()))}</li>
                    <li><span class="glyph glyph-priority" aria-hidden="true">"◇"</span>"priority changed"</li>
                    <li><span class="glyph glyph-update" aria-hidden="true">"┆"</span>{move || format!("{} updated", by())}</li>
                </ul>
                {move || crate::charts::share_legend(&digest.get())}
                {note}
                {capped}
            </figure>
            <StateAtPanel digest=digest cursor=cursor stretches=stretches />
        </div>
    }
}
