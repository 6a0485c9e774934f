//! *Dominant resource share over time* (Kueue model, SPEC 12 results): each ClusterQueue's
//! `weightedShare` as a step line in its colour, with the shared time cursor (drawn by
//! `quotalab_report::dominant`, as in the report).

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;
use web_sys::HtmlCanvasElement;

use super::{chart_canvas, CanvasOpts, CssBox, Frame};
pub use quotalab_report::dominant::{draw_on, has_chart, CAPTION};

/// Draws the lines on a canvas.
pub fn draw_dominant(
    canvas: &HtmlCanvasElement,
    size: CssBox,
    d: &Digest,
) -> Result<Option<Frame>, String> {
    super::draw_canvas(canvas, size, None, &|root, pen, _| {
        draw_on(root, pen, d).map(Some)
    })
}

/// The chart with its caption and share legend (only for a run [`has_chart`] says has one).
#[component]
pub fn DominantChart(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    cursor: RwSignal<Option<f64>>,
) -> impl IntoView {
    let canvas = chart_canvas(
        CanvasOpts {
            class: "chart-canvas occupancy-canvas",
            label: "Lines per ClusterQueue: its dominant resource share (Kueue weightedShare) over time".into(),
            cursor: Some(cursor),
            steps: None,
        },
        move |c, size| draw_dominant(c, size, &digest.get()),
    );
    view! {
        <figure class="chart dominant" data-testid="chart-dominant">
            <figcaption>{CAPTION}</figcaption>
            {canvas}
            {move || super::share_legend(&digest.get())}
        </figure>
    }
}
