//! Charts of one run, drawn with plotters into `<canvas>` elements from the run's
//! [`Digest`] only (no scheduling logic here). The drawings themselves are
//! `quotalab_report`'s (generic over the plotters backend, shared with the SVG export and
//! the report); this module holds the Leptos components and the canvas plumbing.
//!
//! Every canvas goes through [`chart_canvas`]: its backing store is its CSS size times
//! `devicePixelRatio` (crisp on high-DPI screens), it is redrawn when its size changes and
//! when the digest changes, and it shows the shared timeline cursor as an overlay (so moving
//! the cursor never redraws a chart). Each share keeps its [`crate::ui::palette`] colour in every
//! chart.

pub mod allocation;
pub mod bars;
pub mod completion;
pub mod dominant;
pub mod export;
pub mod interruption;
pub mod occupancy;
pub mod useful;

pub use allocation::AllocationChart;
pub use completion::CompletionChart;
pub use interruption::InterruptionChart;
pub use occupancy::OccupancyChart;
pub use useful::UsefulChart;
// The drawing's pieces (colours, pen, frame, time axis, step lines, hatching), shared with
// the SVG export and the report: one crate draws every chart for every backend.
pub use quotalab_report::chart::*;

use std::sync::Arc;

use leptos::{ev, html, prelude::*};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use quotalab_engine::digest::Digest;
use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::HtmlCanvasElement;

use crate::ui::{format, palette};

/// The root drawing area of a canvas.
pub type Area = DrawingArea<CanvasBackend, Shift>;

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

/// A drawing on a canvas's root area, with its pen and text measure ([`draw_canvas`]).
pub type CanvasDraw<'a> = &'a dyn Fn(&Area, Pen, TextWidth) -> Result<Option<Frame>, String>;

/// Draws on `canvas` at its CSS `size` (its CSS height set first when given): sizes the
/// backing store, fills it white, runs `draw` with the pen and the canvas's own text
/// measure, and presents the drawing.
pub fn draw_canvas(
    canvas: &HtmlCanvasElement,
    size: CssBox,
    css_height: Option<f64>,
    draw: CanvasDraw,
) -> Result<Option<Frame>, String> {
    let pen = fit_backing_store(canvas, size, css_height);
    let root = root_area(canvas)?;
    let measure = |size: f64, text: &str| text_width(canvas, pen, size, text);
    let frame = draw(&root, pen, &measure)?;
    root.present().map_err(err)?;
    Ok(frame)
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

    // Draws, and again when what it reads changes or the canvas is resized, each drawing in
    // a task of its own (issue #30: a new result of a large run does not hold the main
    // thread for every chart at once). A change schedules the drawing (bumping `go` in a
    // task); the effect then runs again and draws, reading and tracking what it draws. A
    // canvas far from the viewport waits instead: it draws once it comes near (a new result
    // of a large run redraws only the charts that can be seen). Coming into view redraws
    // only a chart that missed a change.
    let go = RwSignal::new(0u64);
    let drawn_go = StoredValue::new(0u64);
    let scheduled = StoredValue::new(false);
    Effect::new(move |last_wake: Option<u64>| {
        resized.track();
        let woken = wake.get();
        let now = go.get();
        let Some(canvas) = canvas_ref.get() else {
            return woken;
        };
        // A canvas never drawn draws wherever it is (its first drawing waited a task, in
        // which the viewport observer may have said it is far).
        let drawn = !drawn_width.get_value().is_nan();
        if drawn && !near.get_untracked() && last_wake.is_none_or(|w| w == woken) {
            if !stale.get_value() {
                stale.set_value(true);
                // For tests and the curious: this chart owes a drawing.
                let _ = canvas.set_attribute("data-pending", "");
            }
            near.track();
            return woken;
        }
        // After a drawing the export asked for, at once: it follows the data again.
        let woke = last_wake.is_some_and(|w| w != woken);
        if now == drawn_go.get_value() && !woke {
            if !scheduled.get_value() {
                scheduled.set_value(true);
                set_timeout(
                    move || {
                        if scheduled.try_set_value(false).is_none() {
                            go.try_update(|g| *g += 1);
                        }
                    },
                    std::time::Duration::ZERO,
                );
            }
            return woken;
        }
        drawn_go.set_value(now);
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
