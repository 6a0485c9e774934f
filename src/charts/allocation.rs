//! *Allocation vs consumption*: one small panel per share (and instance type). The limit is
//! a black step line; own usage is a solid area in the share's colour, borrowed usage a
//! hatched lighter area on top of it, capacity lent to others a grey band above own usage,
//! and queued jobs a dashed line on the right axis. Entitled but unused capacity is the white
//! gap under the limit line.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, SeriesRow};
use web_sys::HtmlCanvasElement;

use super::{chart_canvas, CanvasOpts, CssBox, Frame};
use crate::ui::palette;
pub use quotalab_report::allocation::{self, caption, panel_summary, PanelSummary};

/// One share's panel for one instance type: title, caption and chart follow the digest.
fn panel(
    digest: Signal<Arc<Digest>>,
    (share, ty): (u16, u16),
    several_types: Memo<bool>,
    cursor: Option<RwSignal<Option<f64>>>,
) -> AnyView {
    let row_of = move |d: &Digest| -> Option<usize> {
        d.series
            .iter()
            .position(|r| r.share == share && r.instance_type == ty)
    };
    let name =
        Memo::new(move |_| digest.with(|d| super::share_name(d, share as usize).to_string()));
    let cap = Memo::new(move |_| {
        digest.with(|d| {
            row_of(d).map_or_else(String::new, |i| {
                caption(&panel_summary(&d.series[i]), d.kueue.is_some())
            })
        })
    });
    let type_label = move || {
        several_types.get().then(|| {
            let t = digest.with(|d| super::type_name(d, ty).to_string());
            view! { <span class="panel-type">{t}</span> }
        })
    };
    let canvas = chart_canvas(
        CanvasOpts {
            class: "chart-canvas panel-canvas",
            label: Signal::derive(move || {
                format!(
                    "{}: {}, own, borrowed and lent instances over time; {}",
                    name.get(),
                    if digest.with(|d| d.kueue.is_some()) {
                        "nominalQuota"
                    } else {
                        "limit"
                    },
                    cap.get()
                )
            }),
            cursor,
            steps: None,
        },
        move |c, size| {
            let d = digest.get();
            match row_of(&d) {
                Some(i) => draw_panel(c, size, &d, &d.series[i]),
                None => Ok(None),
            }
        },
    );
    view! {
        <div class="panel" data-share=move || name.get()>
            <h3 class="panel-title">
                {super::swatch(palette::css(share as usize))}
                {move || name.get()}
                {type_label}
            </h3>
            <p class="panel-caption">{move || cap.get()}</p>
            {canvas}
        </div>
    }
    .into_any()
}

/// Draws one panel (one share, one instance type) on its canvas.
pub fn draw_panel(
    canvas: &HtmlCanvasElement,
    size: CssBox,
    d: &Digest,
    row: &SeriesRow,
) -> Result<Option<Frame>, String> {
    super::draw_canvas(canvas, size, None, &|root, pen, measure| {
        quotalab_report::allocation::draw_panel(root, pen, d, row, measure).map(Some)
    })
}

/// One panel per series row (share × instance type), with a shared legend. A new run with
/// the same panels redraws them instead of building new ones.
#[component]
pub fn AllocationChart(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    #[prop(optional)] cursor: Option<RwSignal<Option<f64>>>,
) -> impl IntoView {
    // The panels in order: (share, instance type), by share then type.
    let keys = Memo::new(move |_| {
        digest.with(|d| {
            let mut keys: Vec<(u16, u16)> = d
                .series
                .iter()
                .map(|r| (r.share, r.instance_type))
                .collect();
            quotalab_engine::sort::compact_by(&mut keys, &|a, b| a.cmp(b));
            keys
        })
    });
    let several_types = Memo::new(move |_| digest.with(|d| super::series_types(d).len() > 1));
    // Rebuilt only when the set of panels changes (the memo compares): a new run of the same
    // shares redraws the panels in place. (Not `<For>`: the same effect here, and its code
    // weighs on the size budget.)
    let panels = move || {
        let keys = keys.get();
        if keys.is_empty() {
            return view! { <p class="empty-note">"The run has no time series to chart."</p> }
                .into_any();
        }
        keys.into_iter()
            .map(|k| panel(digest, k, several_types, cursor))
            .collect_view()
            .into_any()
    };
    let words = Memo::new(move |_| digest.with(|d| d.kueue.is_some()));
    let legend = move || {
        digest
            .with(|d| allocation::legend(d))
            .into_iter()
            .map(|(class, label)| {
                view! { <li><span class=format!("key {class}") aria-hidden="true"></span>{label}</li> }
            })
            .collect_view()
    };
    view! {
        <figure class="chart allocation" data-testid="chart-allocation">
            <figcaption>{move || allocation::words(words.get()).intro}</figcaption>
            <ul class="legend key-legend" aria-label="Legend">{legend}</ul>
            <div class="panels">{panels}</div>
        </figure>
    }
}
