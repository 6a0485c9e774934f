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
mod gantt;
mod layout;
mod state_at;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, Segments};

use crate::charts::{chart_canvas, CanvasOpts};

pub use draw::draw_timeline;
pub use gantt::{gantt, mark_label, Gantt, Mark, MarkKind, Seg, Segment};
pub use layout::{layout, Bar, Layout};
pub use state_at::{
    cursor_card, kept_events, log_cap_note, share_counts, state_title, time_scale, StateAtPanel,
    StateAtPanelProps, STATE_AT_ID,
};

/// Jobs drawn one row each; more are packed into lanes.
pub const PER_JOB_MAX: usize = 150;
/// At most this many bars are drawn.
pub const MAX_BARS: usize = 4000;
/// At most this many markers are drawn.
pub const MAX_MARKS: usize = 3000;

/// Runs with more events than this have their Gantt and its layout made in tasks of their
/// own before the chart draws (issue #30: on the Philly trace the three took one task of
/// ~90 ms); smaller ones are made as the chart draws.
pub const STAGED_EVENTS: usize = 20_000;

/// Each job's stretches of the digest last shown ([`Digest::segments`]: one replay of its
/// whole log), read by the Gantt, the cursor's card and the "state at t" panel alike: on the
/// Philly trace each replayed 200,000 events, the card at every cursor move (issue #30). `Weak`: that digest's
/// address is not reused while it is kept.
#[derive(Clone, Copy)]
pub struct Stretches(StoredValue<Option<Kept<Segments>>, LocalStorage>);

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
        Stretches(StoredValue::new_local(None))
    }

    /// `d`'s stretches: the kept ones if they are `d`'s, else replayed now and kept.
    pub fn of(self, d: &Arc<Digest>) -> Arc<Segments> {
        if let Some(s) = self.0.try_with_value(|k| made_of(k, d)).flatten() {
            return s;
        }
        let s = Arc::new(d.segments());
        self.0.try_set_value(Some((Arc::downgrade(d), s.clone())));
        s
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

/// The Gantt chart with its legend, its note and the "state at t" panel.
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
            let m = match made.with_value(|m| made_of(m, &d)) {
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
            if note_text.with_untracked(|n| *n != m.note) {
                note_text.set(m.note.clone());
            }
            draw_timeline(c, size, &d, &m)
        },
    );
    let note = move || {
        note_text.with(|n| (!n.is_empty()).then(|| view! { <p class="chart-note">{n.clone()}</p> }))
    };
    // A capped log: the chart stops where it does, and says so.
    let capped = move || {
        digest.with(|d| {
            log_cap_note(d)
                .map(|n| view! { <p class="chart-note" data-testid="timeline-capped">{n}</p> })
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
