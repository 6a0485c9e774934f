//! *Useful work per share* (SPEC 14, "Allocation versus opportunity"): one bar per share of
//! its useful instance time, the part its allocation backs in its colour and the part done
//! on borrowed capacity in its hatched tint (drawn by `quotalab_report::useful`, as in the
//! report).

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;
use web_sys::HtmlCanvasElement;

use super::{chart_canvas, CanvasOpts, CssBox, Frame};
pub use quotalab_report::useful::{css_height, label, parts, PARTS};

/// Draws the bars on a canvas ([`css_height`] high).
pub fn draw_useful(
    canvas: &HtmlCanvasElement,
    size: CssBox,
    d: &Digest,
) -> Result<Option<Frame>, String> {
    let height = css_height(d.shares.len().max(1));
    super::draw_canvas(canvas, size, Some(height), &|root, pen, _| {
        quotalab_report::useful::draw_useful(root, pen, d).map(|()| None)
    })
}

/// The useful-work bars and their key.
#[component]
pub fn UsefulChart(#[prop(into)] digest: Signal<Arc<Digest>>) -> impl IntoView {
    let canvas = chart_canvas(
        CanvasOpts {
            class: "chart-canvas interruption-canvas",
            label: "Bars per share: useful instance time on its own allocation and on borrowed capacity".into(),
            cursor: None,
            steps: None,
        },
        move |c, size| draw_useful(c, size, &digest.get()),
    );
    view! {
        <figure class="chart useful" data-testid="chart-useful">
            <figcaption>
                "Each share's useful work (kept progress, in instance time): the part its allocation backs, and the part done on capacity it borrowed, which a reclaim can take away."
            </figcaption>
            {canvas}
            <ul class="legend key-legend" aria-label="Legend">
                <li><span class="key key-own" aria-hidden="true"></span>{PARTS[0]}</li>
                <li><span class="key key-borrowed" aria-hidden="true"></span>{PARTS[1]}</li>
            </ul>
        </figure>
    }
}
