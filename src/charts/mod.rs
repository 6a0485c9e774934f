//! Charts of one run, drawn with plotters into `<canvas>` elements from the run's
//! [`Digest`] only (no scheduling logic here).
//!
//! Every canvas goes through [`chart_canvas`]: its backing store is its CSS size times
//! `devicePixelRatio` (crisp on high-DPI screens), it is redrawn when its size changes and
//! when the digest changes, and it shows the shared timeline cursor as an overlay (so moving
//! the cursor never redraws a chart). Each share keeps its [`crate::ui::palette`] colour in every
//! chart.

pub mod allocation;
pub mod completion;
pub mod export;
pub mod interruption;
pub mod occupancy;

pub use allocation::AllocationChart;
pub use completion::CompletionChart;
pub use interruption::InterruptionChart;
pub use occupancy::OccupancyChart;

use std::sync::Arc;

use leptos::{ev, html, prelude::*};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use quotalab_engine::digest::{Digest, SeriesRow};
use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::HtmlCanvasElement;

use crate::ui::{format, palette};

pub const TEXT: RGBColor = RGBColor(0x37, 0x41, 0x51);
pub const MUTED: RGBColor = RGBColor(0x6b, 0x72, 0x80);
pub const AXIS: RGBColor = RGBColor(0x9c, 0xa3, 0xaf);
pub const GRID: RGBColor = RGBColor(0xec, 0xee, 0xf1);
/// Entitlement (limit) and capacity lines.
pub const INK: RGBColor = RGBColor(0x11, 0x18, 0x27);
/// Capacity lent to other shares.
pub const LENT: RGBColor = RGBColor(0xcb, 0xd0, 0xd8);
pub const QUEUED: RGBColor = RGBColor(0x47, 0x55, 0x69);
/// Preemption markers: reclaim (cross-share) and in-share.
pub const RECLAIM: RGBColor = RGBColor(0xc0, 0x1c, 0x28);
pub const IN_SHARE: RGBColor = RGBColor(0x6d, 0x28, 0xd9);

/// The root drawing area of a canvas.
pub type Area = DrawingArea<CanvasBackend, Shift>;

/// The colour of share `i` (as in the summary table's swatches).
pub fn share_colour(i: usize) -> RGBColor {
    let (r, g, b) = palette::rgb(i);
    RGBColor(r, g, b)
}

/// Share `i`'s colour mixed with white (`amount` 1 = white).
pub fn share_tint(i: usize, amount: f64) -> RGBColor {
    let (r, g, b) = palette::tint(i, amount);
    RGBColor(r, g, b)
}

/// Lengths in CSS pixels turned into device pixels for one drawing.
#[derive(Clone, Copy, Debug)]
pub struct Pen {
    pub dpr: f64,
}

impl Pen {
    /// A length (stroke width, margin) in device pixels, at least 1.
    pub fn px(self, css: f64) -> u32 {
        (css * self.dpr).round().max(1.0) as u32
    }

    /// A signed offset in device pixels.
    pub fn ipx(self, css: f64) -> i32 {
        (css * self.dpr).round() as i32
    }

    /// Body text of `size` CSS pixels.
    pub fn font(self, size: f64) -> TextStyle<'static> {
        ("sans-serif", size * self.dpr).into_font().color(&TEXT)
    }

    /// Text in another colour and anchored at `(h, v)`.
    pub fn text(self, size: f64, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
        let mut style = self.font(size).pos(Pos::new(h, v));
        style.color = colour.to_backend_color();
        style
    }

    pub fn stroke(self, colour: RGBColor, css_width: f64) -> ShapeStyle {
        ShapeStyle::from(colour).stroke_width(self.px(css_width))
    }
}

/// Converts a plotters error to text.
pub fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}

/// Where a chart's plotting area is, in CSS pixels of its canvas, and which times its x
/// axis spans (seconds): used to place the cursor and to turn a click into a time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Frame {
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
    pub t0: f64,
    pub t1: f64,
}

impl Frame {
    /// The plotting area of `area` (device pixels) in CSS pixels, spanning `t0..t1` seconds.
    pub fn of<DB, X, Y>(
        area: &DrawingArea<DB, Cartesian2d<X, Y>>,
        pen: Pen,
        t0: f64,
        t1: f64,
    ) -> Frame
    where
        DB: DrawingBackend,
        X: Ranged,
        Y: Ranged,
    {
        let (x, y) = area.get_pixel_range();
        Frame {
            left: f64::from(x.start) / pen.dpr,
            right: f64::from(x.end) / pen.dpr,
            top: f64::from(y.start) / pen.dpr,
            bottom: f64::from(y.end) / pen.dpr,
            t0,
            t1,
        }
    }

    /// The CSS x of time `t` (clamped to the plotting area).
    pub fn x_of(&self, t: f64) -> f64 {
        let span = (self.t1 - self.t0).max(1e-9);
        self.left + ((t - self.t0) / span).clamp(0.0, 1.0) * (self.right - self.left)
    }

    /// The time at CSS x (clamped to the x axis).
    pub fn t_of(&self, x: f64) -> f64 {
        let width = (self.right - self.left).max(1e-9);
        self.t0 + ((x - self.left) / width).clamp(0.0, 1.0) * (self.t1 - self.t0)
    }
}

/// A canvas's CSS box (CSS pixels), as its `ResizeObserver` last reported it.
///
/// Charts draw at this size instead of asking the canvas (`clientWidth`): reading a layout
/// property while the page has pending changes makes the browser lay the page out there and
/// then, once per chart, and a new result changes much of the page (docs/PERFORMANCE.md,
/// "Browser"). Only a canvas's very first drawing, before any report, measures it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CssBox {
    pub width: f64,
    pub height: f64,
}

impl CssBox {
    /// Measures `canvas` (forces a layout if one is pending), fractional pixels included
    /// as the observer reports them.
    pub fn measure(canvas: &HtmlCanvasElement) -> CssBox {
        let rect = canvas.get_bounding_client_rect();
        CssBox {
            width: rect.width(),
            height: rect.height(),
        }
    }
}

/// Sizes the canvas backing store to its CSS box times `devicePixelRatio` (after setting its
/// CSS height when given, which then wins over the box's); returns the pen to draw with.
pub fn fit_backing_store(canvas: &HtmlCanvasElement, size: CssBox, css_height: Option<f64>) -> Pen {
    if let Some(h) = css_height {
        let style = web_sys::HtmlElement::style(canvas);
        let value = format!("{}px", h.round());
        // Only a change: an equal write would still invalidate the page's style.
        if style.get_property_value("height").ok().as_deref() != Some(value.as_str()) {
            let _ = style.set_property("height", &value);
        }
    }
    // An export draws at its own scale (`export::scale`), not the screen's.
    let dpr = export::scale()
        .or_else(|| web_sys::window().map(|w| w.device_pixel_ratio()))
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0);
    let css = |v: f64, fallback: f64| if v > 0.0 { v } else { fallback };
    let w = css(size.width, 640.0);
    let h = match css_height {
        Some(h) => h.round(),
        None => css(size.height, 240.0),
    };
    canvas.set_width((w * dpr).round() as u32);
    canvas.set_height((h * dpr).round() as u32);
    Pen { dpr }
}

/// The width in device pixels of `text` in the chart font of `size` CSS pixels, measured by
/// the canvas itself (plotters' own estimate adds a styled `<span>` to the page, which the
/// page's Content-Security-Policy forbids).
pub fn text_width(canvas: &HtmlCanvasElement, pen: Pen, size: f64, text: &str) -> i32 {
    let ctx = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok());
    let Some(ctx) = ctx else {
        return (text.chars().count() as f64 * size * 0.6 * pen.dpr) as i32;
    };
    ctx.set_font(&format!("{}px sans-serif", size * pen.dpr));
    ctx.measure_text(text).map_or(0.0, |m| m.width()).ceil() as i32
}

/// A white drawing area over the whole canvas.
pub fn root_area(canvas: &HtmlCanvasElement) -> Result<Area, String> {
    let root = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or("this browser gives no 2D canvas context")?
        .into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    Ok(root)
}

/// The unit of a time axis: seconds, minutes, hours or days, by the run's length
/// ([`format::TimeScale`], which also formats the cursor's time beside the charts).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeAxis {
    /// Seconds per unit.
    pub per: f64,
    /// The unit's short name (`min`).
    pub unit: &'static str,
    pub scale: format::TimeScale,
}

impl TimeAxis {
    pub fn for_span(end_s: f64) -> TimeAxis {
        let scale = format::TimeScale::for_span(end_s);
        TimeAxis {
            per: scale.per(),
            unit: scale.unit(),
            scale,
        }
    }

    /// The axis description (the tick labels carry the unit).
    pub fn desc(&self) -> String {
        "time since start".into()
    }

    /// The label of tick `v` (in units of the axis): `2 min`, `1 h 30 min`, `4 d`.
    pub fn label(&self, v: f64) -> String {
        self.scale.tick(v * self.per)
    }

    /// How many x labels fit in a plot `css_width` pixels wide (labels with units are
    /// wider than bare numbers).
    pub fn label_count(&self, css_width: f64) -> usize {
        ((css_width / 90.0) as usize).clamp(3, 10)
    }
}

/// The last time a chart of `d` covers (its end, or the last change point if later; > 0).
pub fn span_s(d: &Digest) -> f64 {
    let last = d
        .series
        .iter()
        .filter_map(|r| r.t_s.last().copied())
        .fold(d.end_s, f64::max);
    if last > 0.0 {
        last
    } else {
        1.0
    }
}

/// A y-axis label for whole numbers of instances: blank between integers.
pub fn int_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

/// An axis tick: whole numbers without decimals, others with one.
pub fn tick_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// A nice upper bound for a count axis (instances, jobs) and how many labels to ask for.
pub fn count_axis(max: f64) -> (f64, usize) {
    let max = max.max(1.0);
    if max <= 6.0 {
        let top = max.ceil() + if max.fract() == 0.0 { 0.25 } else { 0.0 };
        (top, top.floor() as usize + 1)
    } else {
        (max * 1.08, 6)
    }
}

/// A round step (1, 2 or 5 × 10^k, at least 1) giving at most about `n` steps up to `top`.
pub fn nice_step(top: f64, n: usize) -> f64 {
    let raw = (top / n.max(1) as f64).max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw - 1e-9)
        .unwrap_or(raw)
}

/// Turns change points into the corners of a step line that holds each value until the
/// next change and the last one until `until`.
pub fn step_corners(t: &[f64], v: impl Fn(usize) -> f64, until: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(t.len() * 2 + 1);
    for (i, &ti) in t.iter().enumerate() {
        if i > 0 {
            out.push((ti, v(i - 1)));
        }
        out.push((ti, v(i)));
    }
    if let (Some(&last), false) = (t.last(), t.is_empty()) {
        if until > last {
            out.push((until, v(t.len() - 1)));
        }
    }
    out
}

/// The outline of the region between two step functions over change points `t` (lower to
/// upper), as one polygon in data coordinates scaled by `per` on x.
pub fn band_polygon(
    t: &[f64],
    lower: impl Fn(usize) -> f64,
    upper: impl Fn(usize) -> f64,
    until: f64,
    per: f64,
) -> Vec<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = step_corners(t, upper, until)
        .into_iter()
        .map(|(x, y)| (x / per, y))
        .collect();
    let low: Vec<(f64, f64)> = step_corners(t, lower, until)
        .into_iter()
        .map(|(x, y)| (x / per, y))
        .collect();
    pts.extend(low.into_iter().rev());
    pts
}

/// Diagonal hatching (`/`) inside the device-pixel rectangle `(x0, y0)..(x1, y1)`. The lines
/// are aligned on the whole canvas, so adjacent rectangles continue each other's pattern.
pub fn hatch(
    root: &Area,
    (x0, y0): (i32, i32),
    (x1, y1): (i32, i32),
    spacing: i32,
    style: ShapeStyle,
) -> Result<(), String> {
    let (x0, x1) = (x0.min(x1), x0.max(x1));
    let (y0, y1) = (y0.min(y1), y0.max(y1));
    if x1 - x0 < 1 || y1 - y0 < 1 {
        return Ok(());
    }
    let spacing = spacing.max(2);
    // Lines x + y = k.
    let mut k = (x0 + y0).div_euclid(spacing) * spacing;
    while k <= x1 + y1 {
        let xa = x0.max(k - y1);
        let xb = x1.min(k - y0);
        if xa < xb {
            root.draw(&PathElement::new(vec![(xa, k - xa), (xb, k - xb)], style))
                .map_err(err)?;
        }
        k += spacing;
    }
    Ok(())
}

/// The series rows of `d` for instance type `ty`, in share order.
pub fn rows_of_type(d: &Digest, ty: u16) -> Vec<&SeriesRow> {
    let mut rows: Vec<&SeriesRow> = d.series.iter().filter(|r| r.instance_type == ty).collect();
    quotalab_engine::sort::stable_by(&mut rows, &|a, b| a.share.cmp(&b.share));
    rows
}

/// The instance types the series covers, in scenario order.
pub fn series_types(d: &Digest) -> Vec<u16> {
    let mut types: Vec<u16> = d.series.iter().map(|r| r.instance_type).collect();
    types.sort_unstable();
    types.dedup();
    types
}

/// The name of instance type `ty`.
pub fn type_name(d: &Digest, ty: u16) -> &str {
    d.instance_types
        .get(ty as usize)
        .map_or("?", String::as_str)
}

/// The name of share `i`.
pub fn share_name(d: &Digest, i: usize) -> &str {
    d.shares.get(i).map_or("?", |s| s.name.as_str())
}

/// Configures the usual mesh: light grid, grey axes, text in `pen`'s size.
#[macro_export]
#[doc(hidden)]
macro_rules! base_mesh {
    ($mesh:expr, $pen:expr) => {
        $mesh
            .label_style($pen.font(11.5))
            .axis_desc_style($pen.font(12.0))
            .axis_style($pen.stroke($crate::charts::AXIS, 1.0))
            .bold_line_style($pen.stroke($crate::charts::GRID, 1.0))
            .light_line_style(::plotters::prelude::TRANSPARENT)
            .set_all_tick_mark_size($pen.px(4.0))
    };
}

/// How a chart's canvas behaves besides drawing.
#[derive(Clone)]
pub struct CanvasOpts {
    /// The canvas's class (its CSS height lives in `www/style.css`, "charts" section).
    pub class: &'static str,
    /// What the chart shows, for screen readers.
    pub label: Signal<String>,
    /// The shared time cursor: drawn over the chart, and set by a click or drag.
    pub cursor: Option<RwSignal<Option<f64>>>,
    /// Focusable; arrow keys move the cursor through `steps` (times in seconds, ascending).
    pub steps: Option<Signal<Arc<Vec<f64>>>>,
}

/// What a chart over time shows beside its cursor once the cursor was set there (a click,
/// a drag, a key): the results provide it as a context (`results::RunResults`, the state at
/// t in brief), so that the state is read where the click happened, not a screen away.
#[derive(Clone)]
pub struct CursorCard {
    /// The card's content at time `t` (seconds).
    pub render: Arc<dyn Fn(f64) -> AnyView + Send + Sync>,
    /// The chart the cursor was last set from (a [`chart_canvas`]'s id): only it shows the
    /// card; `None` once the card is closed.
    pub owner: RwSignal<Option<u64>>,
}

thread_local! {
    static NEXT_CANVAS: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
}

/// A `<canvas>` drawn by `draw`, which returns where its time axis is (or `None`). `draw`
/// runs once mounted, again when a signal it reads changes, and when the canvas is resized.
pub fn chart_canvas<F>(opts: CanvasOpts, draw: F) -> AnyView
where
    F: Fn(&HtmlCanvasElement, CssBox) -> Result<Option<Frame>, String> + 'static,
{
    canvas_view(opts, Box::new(draw))
}

/// The event that makes a chart canvas catch up on a drawing it skipped while out of view
/// (for a caller about to read the canvas's pixels; handled synchronously). The PNG export
/// draws a chart anew instead ([`export`]).
pub const DRAW_NOW_EVENT: &str = "quotalab-draw-now";

/// How far from the viewport a chart still counts as near (and is redrawn at once).
const NEAR_MARGIN: &str = "300px 0px";

/// The drawing function of a canvas: draws at the given CSS size.
type DrawFn = Box<dyn Fn(&HtmlCanvasElement, CssBox) -> Result<Option<Frame>, String>>;

// Not generic, so that it is compiled once for every chart.
fn canvas_view(opts: CanvasOpts, draw: DrawFn) -> AnyView {
    let canvas_ref = NodeRef::<html::Canvas>::new();
    // Bumped when the canvas's width changes: redraw.
    let resized = RwSignal::new(0u64);
    let frame = RwSignal::new(None::<Frame>);
    let error = RwSignal::new(None::<String>);
    // The box the ResizeObserver last reported, and the width last drawn at.
    let observed = StoredValue::new(None::<CssBox>);
    let drawn_width = StoredValue::new(f64::NAN);
    // Near the viewport, as the IntersectionObserver last reported (true until its first
    // report), and whether a drawing was skipped because the canvas was not.
    let near = RwSignal::new(true);
    let stale = StoredValue::new(false);
    // Bumped after a drawing the export asked for: the effect then draws once more, out of
    // view or not, to follow the data again.
    let wake = RwSignal::new(0u64);
    let draw = StoredValue::new_local(draw);
    let paint = move |canvas: &HtmlCanvasElement| {
        let size = observed
            .get_value()
            .unwrap_or_else(|| CssBox::measure(canvas));
        match draw.with_value(|draw| draw(canvas, size)) {
            Ok(f) => {
                frame.set(f);
                error.set(None);
            }
            Err(e) => error.set(Some(e)),
        }
        drawn_width.set_value(size.width);
        if stale.get_value() {
            stale.set_value(false);
            let _ = canvas.remove_attribute("data-pending");
        }
    };

    // Draws now, and again when what it reads changes or the canvas is resized. A canvas far
    // from the viewport waits instead: it draws once it comes near (a new result of a large
    // run redraws only the charts that can be seen). Coming into view redraws only a chart
    // that missed a change.
    Effect::new(move |last_wake: Option<u64>| {
        resized.track();
        let woken = wake.get();
        let Some(canvas) = canvas_ref.get() else {
            return woken;
        };
        if !near.get_untracked() && last_wake.is_none_or(|w| w == woken) {
            if !stale.get_value() {
                stale.set_value(true);
                // For tests and the curious: this chart owes a drawing.
                let _ = canvas.set_attribute("data-pending", "");
            }
            near.track();
            return woken;
        }
        paint(&canvas);
        woken
    });
    // An export reads the canvas: it first asks for the missed drawing, if any.
    // (With the listener of the PNG export, which draws into its own canvas.)
    type Listeners = (
        HtmlCanvasElement,
        Closure<dyn FnMut()>,
        Closure<dyn FnMut()>,
    );
    let draw_now = StoredValue::new_local(None::<Listeners>);
    Effect::new(move |_| {
        let Some(canvas) = canvas_ref.get() else {
            return;
        };
        if draw_now.with_value(Option::is_some) {
            return;
        }
        let on_draw_now = Closure::<dyn FnMut()>::new(move || {
            if stale.get_value() {
                if let Some(c) = canvas_ref.get_untracked() {
                    untrack(|| paint(&c));
                    wake.update(|n| *n += 1);
                }
            }
        });
        let _ = canvas
            .add_event_listener_with_callback(DRAW_NOW_EVENT, on_draw_now.as_ref().unchecked_ref());
        let on_export = export::listener(canvas_ref, observed, draw);
        let _ = canvas.add_event_listener_with_callback(
            export::EXPORT_EVENT,
            on_export.as_ref().unchecked_ref(),
        );
        draw_now.set_value(Some((canvas.clone(), on_draw_now, on_export)));
    });

    // Redraw when the canvas's width changes (window resize, layout change). Heights are set
    // by the charts or fixed by www/style.css, and change only with the width.
    type OnResize = Closure<dyn FnMut(js_sys::Array)>;
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, OnResize)>);
    Effect::new(move |_| {
        let Some(canvas) = canvas_ref.get() else {
            return;
        };
        if observer.with_value(Option::is_some) {
            return;
        }
        let on_resize = OnResize::new(move |entries: js_sys::Array| {
            let Some(entry) = entries
                .get(0)
                .dyn_ref::<web_sys::ResizeObserverEntry>()
                .cloned()
            else {
                return;
            };
            let rect = entry.content_rect();
            let now = CssBox {
                width: rect.width(),
                height: rect.height(),
            };
            observed.set_value(Some(now));
            if now.width > 0.0 && now.width != drawn_width.get_value() {
                resized.update(|n| *n += 1);
            }
        });
        if let Ok(ro) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            ro.observe(&canvas);
            observer.set_value(Some((ro, on_resize)));
        }
    });
    type OnView = Closure<dyn FnMut(js_sys::Array)>;
    let viewport = StoredValue::new_local(None::<(web_sys::IntersectionObserver, OnView)>);
    Effect::new(move |_| {
        let Some(canvas) = canvas_ref.get() else {
            return;
        };
        if viewport.with_value(Option::is_some) {
            return;
        }
        let on_view = OnView::new(move |entries: js_sys::Array| {
            let last = entries.get(entries.length().saturating_sub(1));
            if let Some(entry) = last.dyn_ref::<web_sys::IntersectionObserverEntry>() {
                let now = entry.is_intersecting();
                if now != near.get_untracked() {
                    near.set(now);
                }
            }
        });
        let init = web_sys::IntersectionObserverInit::new();
        init.set_root_margin(NEAR_MARGIN);
        if let Ok(io) =
            web_sys::IntersectionObserver::new_with_options(on_view.as_ref().unchecked_ref(), &init)
        {
            io.observe(&canvas);
            viewport.set_value(Some((io, on_view)));
        }
    });
    on_cleanup(move || {
        observer.try_update_value(|o| {
            if let Some((ro, _)) = o.take() {
                ro.disconnect();
            }
        });
        viewport.try_update_value(|o| {
            if let Some((io, _)) = o.take() {
                io.disconnect();
            }
        });
        draw_now.try_update_value(|o| {
            if let Some((canvas, cb, on_export)) = o.take() {
                let _ = canvas.remove_event_listener_with_callback(
                    DRAW_NOW_EVENT,
                    cb.as_ref().unchecked_ref(),
                );
                let _ = canvas.remove_event_listener_with_callback(
                    export::EXPORT_EVENT,
                    on_export.as_ref().unchecked_ref(),
                );
            }
        });
    });

    let cursor = opts.cursor;
    let steps = opts.steps;
    let focusable = steps.is_some();
    // The state card beside the cursor, for charts over time inside the results.
    let card = cursor.and(use_context::<CursorCard>());
    let id = NEXT_CANVAS.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    });
    let own_card = {
        let card = card.clone();
        move || {
            if let Some(k) = &card {
                if k.owner.get_untracked() != Some(id) {
                    k.owner.set(Some(id));
                }
            }
        }
    };
    let set_at = move |x: f64| {
        if let (Some(c), Some(f)) = (cursor, frame.get_untracked()) {
            c.set(Some(f.t_of(x)));
        }
    };
    let own_card_key = own_card.clone();
    let on_down = move |e: ev::PointerEvent| {
        if cursor.is_none() || e.button() != 0 {
            return;
        }
        if let Some(c) = canvas_ref.get_untracked() {
            let _ = c.set_pointer_capture(e.pointer_id());
        }
        own_card();
        set_at(f64::from(e.offset_x()));
    };
    let on_move = move |e: ev::PointerEvent| {
        if e.buttons() & 1 == 1 {
            set_at(f64::from(e.offset_x()));
        }
    };
    let on_key = move |e: ev::KeyboardEvent| {
        let (Some(c), Some(steps), Some(f)) = (cursor, steps, frame.get_untracked()) else {
            return;
        };
        let steps = steps.get_untracked();
        let now = c.get_untracked();
        let next = match e.key().as_str() {
            "ArrowRight" | "ArrowDown" => match now {
                None => steps.first().copied(),
                Some(t) => steps.iter().copied().find(|&s| s > t + 1e-9).or(Some(f.t1)),
            },
            "ArrowLeft" | "ArrowUp" => match now {
                None => Some(f.t0),
                Some(t) => steps
                    .iter()
                    .rev()
                    .copied()
                    .find(|&s| s < t - 1e-9)
                    .or(Some(f.t0)),
            },
            "Home" => Some(f.t0),
            "End" => Some(f.t1),
            "Escape" => None,
            _ => return,
        };
        e.prevent_default();
        own_card_key();
        c.set(next);
    };

    let overlay = move || {
        let (c, f) = (cursor?.get()?, frame.get()?);
        let x = f.x_of(c);
        Some(view! {
            <div
                class="cursor-line"
                aria-hidden="true"
                style:left=format!("{x:.1}px")
                style:top=format!("{:.1}px", f.top)
                style:height=format!("{:.1}px", (f.bottom - f.top).max(0.0))
            ></div>
        })
    };

    // Beside the cursor, on the side with more room, inside the plotting area.
    let card_view = move || {
        let k = card.clone()?;
        if k.owner.get() != Some(id) {
            return None;
        }
        let (t, f) = (cursor?.get()?, frame.get()?);
        let x = f.x_of(t);
        // Beside the cursor on the side with more room; where neither side has room for
        // the card, over the cursor at that side's edge. Always inside the chart's box.
        let width = observed
            .get_value()
            .map_or(f.right, |b| b.width)
            .max(f.right);
        let (room_left, room_right) = (x - 14.0, width - x - 14.0);
        let on_right = room_right >= room_left;
        let room = room_left.max(room_right);
        let (left, right, max_width) = if room < 250.0 {
            let edge = (String::from("4px"), String::new());
            let (l, r) = if on_right { edge } else { (edge.1, edge.0) };
            (l, r, "calc(100% - 8px)".to_string())
        } else if on_right {
            (
                format!("{:.0}px", x + 10.0),
                String::new(),
                format!("min(340px, {room:.0}px)"),
            )
        } else {
            (
                String::new(),
                format!("calc(100% - {:.0}px)", x - 10.0),
                format!("min(340px, {room:.0}px)"),
            )
        };
        let owner = k.owner;
        let on_key = move |e: ev::KeyboardEvent| {
            if e.key() == "Escape" {
                owner.set(None);
            }
        };
        Some(view! {
            <div
                class="cursor-card"
                data-testid="cursor-card"
                role="region"
                aria-label="State at the time cursor, in brief"
                style:left=left
                style:right=right
                style:max-width=max_width
                style:top=format!("{:.0}px", f.top + 4.0)
                on:keydown=on_key
            >
                <button
                    type="button"
                    class="cursor-card-close"
                    aria-label="Close"
                    title="Close"
                    on:click=move |_| owner.set(None)
                >"×"</button>
                {(k.render)(t)}
            </div>
        })
    };

    view! {
        <div class="plot" class:scrubbable=cursor.is_some()>
            <canvas
                node_ref=canvas_ref
                class=opts.class
                role=if focusable { "slider" } else { "img" }
                aria-label=opts.label
                aria-orientation=focusable.then_some("horizontal")
                aria-valuemin=move || focusable.then(|| frame.get().map_or(0.0, |f| f.t0).to_string())
                aria-valuemax=move || focusable.then(|| frame.get().map_or(0.0, |f| f.t1).to_string())
                aria-valuenow=move || {
                    focusable.then(|| cursor.and_then(|c| c.get()).map(|t| format!("{t:.0}"))).flatten()
                }
                aria-valuetext=move || {
                    focusable.then(|| {
                        let span = frame.get().map_or(0.0, |f| f.t1);
                        cursor.and_then(|c| c.get()).map_or_else(|| "no time selected".to_string(), |t| cursor_text(t, span))
                    })
                }
                tabindex=if focusable { Some("0") } else { None }
                data-time-unit=move || {
                    cursor.and(frame.get()).map(|f| format::TimeScale::for_span(f.t1).unit())
                }
                on:pointerdown=on_down
                on:pointermove=on_move
                on:keydown=on_key
            ></canvas>
            {overlay}
            {card_view}
            {move || error.get().map(|e| view! { <p class="chart-error">"Could not draw the chart: " {e}</p> })}
        </div>
    }
    .into_any()
}

/// A swatch for an HTML legend: a small box in `css` colour (or class `kind`).
pub fn swatch(css: String) -> impl IntoView {
    view! { <span class="swatch" style:background-color=css aria-hidden="true"></span> }
}

/// The share legend used under several charts: one swatch per share, in share order.
pub fn share_legend(d: &Digest) -> impl IntoView + use<> {
    let items = d
        .shares
        .iter()
        .enumerate()
        .map(|(i, s)| {
            view! {
                <li data-share=s.name.clone()>
                    {swatch(palette::css(i))}
                    {s.name.clone()}
                </li>
            }
        })
        .collect_view();
    view! { <ul class="legend share-legend" aria-label="Quota shares">{items}</ul> }
}

/// `"t = 3 s"`, `"t = 5 min"`, `"t = 4 d 7 h"`: the time of the cursor in the unit of the
/// time axis of a run spanning `span_s` seconds.
pub fn cursor_text(t: f64, span_s: f64) -> String {
    format!("t = {}", format::TimeScale::for_span(span_s).at(t))
}
