//! Charts drawn with plotters into a `<canvas>`, crisp on high-DPI screens.

use leptos::{ev, prelude::*};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use serde_json::Value;
use web_sys::HtmlCanvasElement;

use crate::{palette, report};

/// The chart's CSS height when the stylesheet gives none (`www/style.css` sets it).
const FALLBACK_CSS_HEIGHT: f64 = 360.0;
const FALLBACK_CSS_WIDTH: f64 = 800.0;
const TEXT: RGBColor = RGBColor(0x37, 0x41, 0x51);
const AXIS: RGBColor = RGBColor(0x9c, 0xa3, 0xaf);
const GRID: RGBColor = RGBColor(0xe5, 0xe7, 0xeb);

/// Sizes the canvas backing store to its CSS box times `devicePixelRatio`; returns the ratio
/// (every length drawn is scaled by it).
fn fit_backing_store(canvas: &HtmlCanvasElement) -> f64 {
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0);
    let css = |v: i32, fallback: f64| if v > 0 { f64::from(v) } else { fallback };
    let w = css(canvas.client_width(), FALLBACK_CSS_WIDTH);
    let h = css(canvas.client_height(), FALLBACK_CSS_HEIGHT);
    canvas.set_width((w * dpr).round() as u32);
    canvas.set_height((h * dpr).round() as u32);
    dpr
}

/// The time unit of the x axis: minutes up to three hours, hours beyond.
pub fn time_unit(last_t_s: f64) -> (&'static str, f64) {
    if last_t_s <= 3.0 * 3600.0 {
        ("minutes", 60.0)
    } else {
        ("hours", 3600.0)
    }
}

fn tick_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Draws the occupancy step lines (one per share) into `canvas`.
pub fn draw_occupancy(canvas: HtmlCanvasElement, data: &report::Occupancy) -> Result<(), String> {
    let dpr = fit_backing_store(&canvas);
    let px = |v: f64| (v * dpr).round().max(1.0) as u32;
    let font = |size: f64| ("sans-serif", size * dpr).into_font().color(&TEXT);
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();

    let root = CanvasBackend::with_canvas_object(canvas)
        .ok_or("this browser gives no 2D canvas context")?
        .into_drawing_area();
    root.fill(&WHITE).map_err(err)?;

    let last_t = data.last_t_s();
    let (unit, unit_s) = time_unit(last_t);
    let x_max = if last_t > 0.0 { last_t / unit_s } else { 1.0 };
    let peak = data.max_instances();
    let y_max = (peak + (peak * 0.1).max(1.0)).ceil();
    // A little room under zero so lines at zero stay visible above the axis.
    let y_min = -y_max * 0.03;

    let mut chart = ChartBuilder::on(&root)
        .margin_top(px(16.0))
        .margin_right(px(24.0))
        .margin_left(px(8.0))
        .margin_bottom(px(8.0))
        .x_label_area_size(px(48.0))
        .y_label_area_size(px(64.0))
        .build_cartesian_2d(0f64..x_max, y_min..y_max)
        .map_err(err)?;

    let mut mesh = chart.configure_mesh();
    mesh.x_desc(format!("time since start ({unit})"))
        .y_desc("instances in use")
        .label_style(font(13.0))
        .axis_desc_style(font(14.0))
        .axis_style(ShapeStyle::from(&AXIS).stroke_width(px(1.0)))
        .bold_line_style(ShapeStyle::from(&GRID).stroke_width(px(1.0)))
        .light_line_style(TRANSPARENT)
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| {
            if *v < 0.0 {
                String::new()
            } else {
                tick_label(*v)
            }
        });
    if y_max <= 12.0 {
        mesh.y_labels(y_max as usize + 1);
    }
    mesh.draw().map_err(err)?;

    // Shares at the same value would hide each other: spread their lines by a few pixels.
    let (_, y_px) = chart.plotting_area().get_pixel_range();
    let units_per_px = (y_max - y_min) / f64::from((y_px.end - y_px.start).max(1));
    let n = data.shares.len();
    let spread_px = if n > 1 {
        (2.5 * dpr).min(8.0 * dpr / (n - 1) as f64)
    } else {
        0.0
    };
    for (i, share) in data.shares.iter().enumerate() {
        let offset = (i as f64 - (n as f64 - 1.0) / 2.0) * spread_px * units_per_px;
        let (r, g, b) = palette::rgb(i);
        let style = ShapeStyle::from(&RGBColor(r, g, b)).stroke_width(px(2.0));
        let points = report::step_points(&share.points, last_t)
            .into_iter()
            .map(|(t, v)| (t / unit_s, v - offset));
        chart
            .draw_series(LineSeries::new(points, style))
            .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}

/// Cluster occupancy: per share, the instances its admitted jobs use (own + borrowed) over
/// time, one step line per share with an HTML legend.
#[component]
pub fn OccupancyChart(result: Value) -> impl IntoView {
    let data = report::occupancy(&result);
    if data.shares.iter().all(|s| s.points.is_empty()) {
        return view! { <p class="empty-note">"The result has no time series to chart."</p> }
            .into_any();
    }
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let (resized, set_resized) = signal(0u32);
    let (error, set_error) = signal(None::<String>);
    let listener = window_event_listener(ev::resize, move |_| {
        set_resized.update(|n| *n = n.wrapping_add(1));
    });
    on_cleanup(move || listener.remove());

    let types_note = (data.instance_types > 1)
        .then(|| format!(" Summed over {} instance types.", data.instance_types));
    let legend = data
        .shares
        .iter()
        .enumerate()
        .map(|(i, s)| {
            view! {
                <li>
                    <span class="swatch" style:background-color=palette::css(i)></span>
                    {s.name.clone()}
                </li>
            }
        })
        .collect_view();

    Effect::new(move |_| {
        resized.track();
        if let Some(canvas) = canvas_ref.get() {
            set_error.set(draw_occupancy(canvas, &data).err());
        }
    });

    view! {
        <figure class="chart">
            <figcaption>
                "Instances each share's admitted jobs use (own quota + borrowed), over time."
                {types_note}
            </figcaption>
            <canvas
                node_ref=canvas_ref
                class="chart-canvas"
                role="img"
                aria-label="Step chart of the instances each quota share uses over time"
            ></canvas>
            <ul class="legend" aria-label="Legend">{legend}</ul>
            {move || error.get().map(|e| view! { <p class="chart-error">"Could not draw the chart: " {e}</p> })}
        </figure>
    }
    .into_any()
}
