//! *Cluster occupancy*: per instance type, the instances each share's admitted jobs use
//! (own + borrowed quota) stacked in share order, with the physical capacity on top.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;
use web_sys::HtmlCanvasElement;

use super::{chart_canvas, CanvasOpts, CssBox, Frame};
pub use quotalab_report::occupancy::{draw_on, stack, Stack};

/// The chart of instance type `ty` (titled when the run has several types).
fn type_chart(
    digest: Signal<Arc<Digest>>,
    ty: u16,
    types: Memo<Vec<u16>>,
    cursor: Option<RwSignal<Option<f64>>>,
) -> AnyView {
    let name = Memo::new(move |_| digest.with(|d| super::type_name(d, ty).to_string()));
    let title = move || {
        (types.with(Vec::len) > 1)
            .then(|| view! { <h3 class="panel-title">{move || name.get()}</h3> })
    };
    let canvas = chart_canvas(
        CanvasOpts {
            class: "chart-canvas occupancy-canvas",
            label: Signal::derive(move || {
                format!(
                    "Stacked areas: {} instances used by each share's admitted jobs over time, under the capacity line",
                    name.get()
                )
            }),
            cursor,
            steps: None,
        },
        move |c, size| draw_occupancy(c, size, &digest.get(), ty),
    );
    view! { <div class="occupancy-type">{title}{canvas}</div> }.into_any()
}

/// Draws the occupancy of instance type `ty` on a canvas.
pub fn draw_occupancy(
    canvas: &HtmlCanvasElement,
    size: CssBox,
    d: &Digest,
    ty: u16,
) -> Result<Option<Frame>, String> {
    super::draw_canvas(canvas, size, None, &|root, pen, _| {
        draw_on(root, pen, d, ty).map(Some)
    })
}

/// One occupancy chart per instance type, with the share legend. A new run with the same
/// instance types redraws the charts instead of building new ones.
#[component]
pub fn OccupancyChart(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    #[prop(optional)] cursor: Option<RwSignal<Option<f64>>>,
) -> impl IntoView {
    let types = Memo::new(move |_| digest.with(|d| super::series_types(d)));
    // Rebuilt only when the instance types change (the memo compares).
    let charts = move || {
        let list = types.get();
        if list.is_empty() {
            return view! { <p class="empty-note">"The run has no time series to chart."</p> }
                .into_any();
        }
        list.into_iter()
            .map(|ty| type_chart(digest, ty, types, cursor))
            .collect_view()
            .into_any()
    };
    view! {
        <figure class="chart occupancy" data-testid="chart-occupancy">
            <figcaption>
                {move || quotalab_report::occupancy::caption(digest.with(|d| d.kueue.is_some()))}
            </figcaption>
            {charts}
            {move || super::share_legend(&digest.get())}
        </figure>
    }
}
