//! The per-share bar charts (interruption cost, useful work): one component shape, a
//! figure with its caption, the canvas `quotalab_report` draws on, and the colour key.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;

use super::{chart_canvas, Area, CanvasOpts, Pen};

/// What tells one bar chart from the other.
pub struct BarChart {
    /// The figure's class and `data-testid` suffix (`chart {name}`, `chart-{name}`).
    pub name: &'static str,
    /// The canvas's accessible label.
    pub label: &'static str,
    /// The caption in the model's words (`true`: Kueue).
    pub caption: fn(bool) -> &'static str,
    /// The key: `(CSS class of the swatch, text)` per part of a bar.
    pub key: &'static [(&'static str, &'static str)],
    /// The chart's CSS height for this many shares.
    pub css_height: fn(usize) -> f64,
    /// The drawing (`quotalab_report`'s, on the canvas backend).
    pub draw: fn(&Area, Pen, &Digest) -> Result<(), String>,
}

/// The figure of `chart` for the run in `digest`.
pub fn bar_chart(chart: BarChart, digest: Signal<Arc<Digest>>) -> impl IntoView {
    let BarChart {
        name,
        label,
        caption,
        key,
        css_height,
        draw,
    } = chart;
    let canvas = chart_canvas(
        CanvasOpts {
            // Both charts share the bar charts' CSS sizing (`canvas.interruption-canvas`).
            class: "chart-canvas interruption-canvas",
            label: label.into(),
            cursor: None,
            steps: None,
        },
        move |c, size| {
            let d = digest.get();
            let height = css_height(d.shares.len().max(1));
            super::draw_canvas(c, size, Some(height), &|root, pen, _| {
                draw(root, pen, &d).map(|()| None)
            })
        },
    );
    let key = key
        .iter()
        .map(|&(class, text)| {
            view! { <li><span class=format!("key {class}") aria-hidden="true"></span>{text}</li> }
        })
        .collect_view();
    view! {
        <figure class=format!("chart {name}") data-testid=format!("chart-{name}")>
            <figcaption>{move || caption(digest.with(|d| d.kueue.is_some()))}</figcaption>
            {canvas}
            <ul class="legend key-legend" aria-label="Legend">{key}</ul>
        </figure>
    }
}
