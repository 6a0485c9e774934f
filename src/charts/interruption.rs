//! *Interruption cost per share*: horizontal stacked bars of the instance time lost to
//! preemptions (rolled-back work), spent starting up and restoring, saving checkpoints and in
//! grace periods, labelled with the share's preemption counts by cause.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;
use web_sys::HtmlCanvasElement;

use super::{chart_canvas, CanvasOpts, CssBox, Frame};
pub use quotalab_report::interruption::{counts_label, css_height, parts, unit, PARTS};

/// Draws the bars on a canvas ([`css_height`] high).
pub fn draw_interruption(
    canvas: &HtmlCanvasElement,
    size: CssBox,
    d: &Digest,
) -> Result<Option<Frame>, String> {
    let height = css_height(d.shares.len().max(1));
    super::draw_canvas(canvas, size, Some(height), &|root, pen, _| {
        quotalab_report::interruption::draw_interruption(root, pen, d).map(|()| None)
    })
}

/// The interruption-cost bars, their key, and a slot for the checkpoint advisor.
#[component]
pub fn InterruptionChart(#[prop(into)] digest: Signal<Arc<Digest>>) -> impl IntoView {
    let canvas = chart_canvas(
        CanvasOpts {
            class: "chart-canvas interruption-canvas",
            label: "Stacked bars per share: instance time lost to preemptions, startup and restore, checkpoints and grace periods".into(),
            cursor: None,
            steps: None,
        },
        move |c, size| draw_interruption(c, size, &digest.get()),
    );
    view! {
        <figure class="chart interruption" data-testid="chart-interruption">
            <figcaption>
                "What interruptions cost each share in instance time: work rolled back by preemptions, time spent starting up and restoring, saving checkpoints, and grace periods. Labels count preemptions by cause: reclaim (another share took its lent capacity back) and in-share (a higher-priority job of the same share)."
            </figcaption>
            {canvas}
            <ul class="legend key-legend" aria-label="Legend">
                <li><span class="key key-lost" aria-hidden="true"></span>{PARTS[0]}</li>
                <li><span class="key key-startup" aria-hidden="true"></span>{PARTS[1]}</li>
                <li><span class="key key-checkpoint" aria-hidden="true"></span>{PARTS[2]}</li>
                <li><span class="key key-grace" aria-hidden="true"></span>{PARTS[3]}</li>
            </ul>
        </figure>
    }
}
