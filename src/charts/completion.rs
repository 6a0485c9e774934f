//! *Completion time*: per share, the cumulative share of its succeeded jobs that completed
//! (submit to success) within a time, on a logarithmic time axis, with the engine's p50 and
//! p90 marked.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;
use web_sys::HtmlCanvasElement;

use super::{chart_canvas, CanvasOpts, CssBox};
use crate::ui::palette;
pub use quotalab_report::completion::{cdf_corners, completion_times, legend_note, log_range};

/// Draws the completion-time CDFs on a canvas.
pub fn draw_completion(
    canvas: &HtmlCanvasElement,
    size: CssBox,
    d: &Digest,
) -> Result<Option<Frame>, String> {
    super::draw_canvas(canvas, size, None, &|root, pen, _| {
        quotalab_report::completion::draw_completion(root, pen, d).map(|()| None)
    })
}

use super::Frame;

/// The completion-time chart with a legend giving each share's p50 and p90.
#[component]
pub fn CompletionChart(#[prop(into)] digest: Signal<Arc<Digest>>) -> impl IntoView {
    let canvas = chart_canvas(
        CanvasOpts {
            class: "chart-canvas completion-canvas",
            label: "Cumulative distribution of job completion times per share, log time axis"
                .into(),
            cursor: None,
            steps: None,
        },
        move |c, size| draw_completion(c, size, &digest.get()),
    );
    let legend = move || {
        let d = digest.get();
        d.shares
            .iter()
            .enumerate()
            .map(|(i, s)| {
                view! {
                    <li data-share=s.name.clone()>
                        {super::swatch(palette::css(i))}
                        <strong>{s.name.clone()}</strong>
                        <span class="legend-note">{legend_note(s)}</span>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <figure class="chart completion" data-testid="chart-completion">
            <figcaption>
                {move || quotalab_report::completion::caption(digest.with(|d| d.kueue.is_some()))}
            </figcaption>
            {canvas}
            <ul class="legend share-legend" aria-label="Quota shares">{legend}</ul>
        </figure>
    }
}
