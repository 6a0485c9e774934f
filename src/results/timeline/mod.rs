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
use quotalab_engine::digest::Digest;

use crate::charts::{chart_canvas, CanvasOpts};

pub use draw::draw_timeline;
pub use gantt::{gantt, mark_label, Gantt, Mark, MarkKind, Seg, Segment};
pub use layout::{layout, Bar, Layout};
pub use state_at::{
    cursor_card, share_counts, state_title, time_scale, StateAtPanel, StateAtPanelProps,
    STATE_AT_ID,
};

/// Jobs drawn one row each; more are packed into lanes.
pub const PER_JOB_MAX: usize = 150;
/// At most this many bars are drawn.
pub const MAX_BARS: usize = 4000;
/// At most this many markers are drawn.
pub const MAX_MARKS: usize = 3000;

/// The Gantt chart with its legend, its note and the "state at t" panel.
#[component]
pub fn Timeline(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    cursor: RwSignal<Option<f64>>,
) -> impl IntoView {
    let model = Memo::new_with_compare(
        move |_| {
            let d = digest.get();
            let g = gantt(&d);
            Arc::new(layout(&d, &g))
        },
        |_, _| true,
    );
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
    // The layout's note, as the last drawing left it: the layout (a sort of every job row and
    // a pass over every segment) is made only when the chart draws, so a result whose
    // timeline is out of view costs none of it.
    let note_text = RwSignal::new(String::new());
    let canvas = chart_canvas(
        CanvasOpts {
            class: "chart-canvas timeline-canvas",
            label: "Gantt chart of jobs over time coloured by share, with preemption markers. Click or drag to move the time cursor; arrow keys step through events.".into(),
            cursor: Some(cursor),
            steps: Some(steps.into()),
        },
        move |c, size| {
            let m = model.get();
            if note_text.with_untracked(|n| *n != m.note) {
                note_text.set(m.note.clone());
            }
            draw_timeline(c, size, &digest.get(), &m)
        },
    );
    let note = move || {
        note_text.with(|n| (!n.is_empty()).then(|| view! { <p class="chart-note">{n.clone()}</p> }))
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
            </figure>
            <StateAtPanel digest=digest cursor=cursor />
        </div>
    }
}
