//! Chart images for documents: a chart drawn again by its own drawing code (the function its
//! [`super::chart_canvas`] was given) onto an offscreen canvas at [`EXPORT_SCALE`] times its
//! size on the page, under its title and over a legend of its shares (name and colour
//! swatch, [`crate::ui::palette`]), in one image.
//!
//! The page's canvas is never touched: its drawing function draws into a new canvas while
//! [`scale`] tells [`super::fit_backing_store`] to use the export's pixel ratio instead of
//! the screen's.

use std::cell::{Cell, RefCell};

use leptos::{html, prelude::*};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::HtmlCanvasElement;

use super::{err, text_width, CssBox, DrawFn, Pen, MUTED, TEXT};

/// Device pixels per CSS pixel of an exported chart: twice its size on the page.
pub const EXPORT_SCALE: f64 = 2.0;

/// The event that makes a chart canvas draw itself into the export's canvas (dispatched by
/// [`redraw_at`]; handled synchronously).
pub const EXPORT_EVENT: &str = "quotalab-export-draw";

/// The export's layout in CSS pixels (scaled by the export's pen).
const MARGIN: f64 = 16.0;
const TITLE_SIZE: f64 = 17.0;
const SUBTITLE_SIZE: f64 = 12.5;
const LEGEND_SIZE: f64 = 13.0;
const SWATCH: f64 = 12.0;
const LEGEND_ROW: f64 = 22.0;
/// Between a swatch and its name, and after a name.
const SWATCH_GAP: f64 = 6.0;
const ITEM_GAP: f64 = 20.0;

/// The canvas an export asked a chart to draw into, and how the drawing went (`None`: no
/// chart drew).
type Target = (HtmlCanvasElement, Option<Result<(), String>>);

thread_local! {
    /// The pixel ratio of the drawing in progress, when it is an export's.
    static SCALE: Cell<Option<f64>> = const { Cell::new(None) };
    /// The canvas an export asked a chart to draw into, and how that went.
    static TARGET: RefCell<Option<Target>> = const { RefCell::new(None) };
}

/// The pixel ratio an export is drawing at (`None`: the screen's, `devicePixelRatio`).
pub fn scale() -> Option<f64> {
    SCALE.with(Cell::get)
}

/// One entry of the legend drawn into an export: a swatch of `colour` and `name`.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendItem {
    pub name: String,
    pub colour: RGBColor,
}

/// The listener a chart canvas registers for [`EXPORT_EVENT`]: draws with `draw` into the
/// export's target, at the size the page canvas has.
pub(super) fn listener(
    canvas_ref: NodeRef<html::Canvas>,
    observed: StoredValue<Option<CssBox>>,
    draw: StoredValue<DrawFn, LocalStorage>,
) -> Closure<dyn FnMut()> {
    Closure::<dyn FnMut()>::new(move || {
        let Some(page) = canvas_ref.get_untracked() else {
            return;
        };
        let Some(target) = TARGET.with_borrow(|t| t.as_ref().map(|(c, _)| c.clone())) else {
            return;
        };
        let size = observed
            .try_get_value()
            .flatten()
            .unwrap_or_else(|| CssBox::measure(&page));
        let result = draw
            .try_with_value(|draw| untrack(|| draw(&target, size)))
            .unwrap_or_else(|| Err("the chart is gone".into()))
            .map(|_| ());
        TARGET.with_borrow_mut(|t| {
            if let Some((_, done)) = t.as_mut() {
                *done = Some(result);
            }
        });
    })
}

/// Draws the chart of the page's chart canvas `page` again, by its own drawing code, into a
/// new canvas `scale` times its CSS size.
pub fn redraw_at(page: &HtmlCanvasElement, scale: f64) -> Result<HtmlCanvasElement, String> {
    let target: HtmlCanvasElement = document()
        .create_element("canvas")
        .map_err(|e| format!("cannot make a canvas: {e:?}"))?
        .unchecked_into();
    TARGET.with_borrow_mut(|t| *t = Some((target.clone(), None)));
    SCALE.with(|s| s.set(Some(scale)));
    let event = web_sys::Event::new(EXPORT_EVENT);
    if let Ok(event) = &event {
        let _ = page.dispatch_event(event);
    }
    SCALE.with(|s| s.set(None));
    let done = TARGET
        .with_borrow_mut(Option::take)
        .and_then(|(_, done)| done);
    match done {
        Some(Ok(())) => Ok(target),
        Some(Err(e)) => Err(format!("cannot draw the chart: {e}")),
        None => Err("this canvas is not a chart that can be exported".into()),
    }
}

/// Where each legend item goes, `(x, row)` in device pixels from the legend's left edge,
/// given the items' text widths (device pixels) and the width available: left to right,
/// wrapped onto new rows.
pub fn legend_layout(text_widths: &[i32], pen: Pen, width: i32) -> Vec<(i32, u32)> {
    let mut out = Vec::with_capacity(text_widths.len());
    let (mut x, mut row) = (0, 0);
    for &w in text_widths {
        let item = pen.ipx(SWATCH + SWATCH_GAP) + w + pen.ipx(ITEM_GAP);
        if x > 0 && x + item - pen.ipx(ITEM_GAP) > width {
            x = 0;
            row += 1;
        }
        out.push((x, row));
        x += item;
    }
    out
}

/// The chart of page canvas `page` as an image for documents: `title` (and `subtitle`, in
/// grey) above the chart drawn at [`EXPORT_SCALE`] times its page size, and `legend` below
/// it. The image is as wide as the scaled chart.
pub fn chart_image(
    page: &HtmlCanvasElement,
    title: &str,
    subtitle: &str,
    legend: &[LegendItem],
) -> Result<HtmlCanvasElement, String> {
    let chart = redraw_at(page, EXPORT_SCALE)?;
    let pen = Pen { dpr: EXPORT_SCALE };
    let out: HtmlCanvasElement = document()
        .create_element("canvas")
        .map_err(|e| format!("cannot make a canvas: {e:?}"))?
        .unchecked_into();
    let width = chart.width() as i32;
    let margin = pen.ipx(MARGIN);
    let widths: Vec<i32> = legend
        .iter()
        .map(|l| text_width(&out, pen, LEGEND_SIZE, &l.name))
        .collect();
    let places = legend_layout(&widths, pen, width - 2 * margin);
    let rows = places.last().map_or(0, |&(_, row)| row + 1);
    let title_band = pen.ipx(MARGIN + TITLE_SIZE + 6.0)
        + if subtitle.is_empty() {
            0
        } else {
            pen.ipx(SUBTITLE_SIZE + 4.0)
        }
        + pen.ipx(8.0);
    let legend_band = if rows == 0 {
        0
    } else {
        pen.ipx(10.0) + rows as i32 * pen.ipx(LEGEND_ROW) + pen.ipx(8.0)
    };
    out.set_width(width as u32);
    out.set_height((title_band + chart.height() as i32 + legend_band) as u32);

    let root = CanvasBackend::with_canvas_object(out.clone())
        .ok_or("this browser gives no 2D canvas context")?
        .into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let bold = |size: f64| {
        ("sans-serif", size * pen.dpr)
            .into_font()
            .style(FontStyle::Bold)
            .color(&TEXT)
            .pos(plotters::style::text_anchor::Pos::new(
                HPos::Left,
                VPos::Top,
            ))
    };
    root.draw_text(title, &bold(TITLE_SIZE), (margin, pen.ipx(MARGIN)))
        .map_err(err)?;
    if !subtitle.is_empty() {
        root.draw_text(
            subtitle,
            &pen.text(SUBTITLE_SIZE, MUTED, HPos::Left, VPos::Top),
            (margin, pen.ipx(MARGIN + TITLE_SIZE + 6.0)),
        )
        .map_err(err)?;
    }
    root.present().map_err(err)?;
    let ctx = out
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        .ok_or("this browser gives no 2D canvas context")?;
    ctx.draw_image_with_html_canvas_element(&chart, 0.0, f64::from(title_band))
        .map_err(|e| format!("cannot copy the chart: {e:?}"))?;
    let top = title_band + chart.height() as i32 + pen.ipx(10.0);
    for (item, &(x, row)) in legend.iter().zip(&places) {
        let x = margin + x;
        let y = top + row as i32 * pen.ipx(LEGEND_ROW);
        let middle = y + pen.ipx(SWATCH / 2.0);
        root.draw(&Rectangle::new(
            [(x, y), (x + pen.ipx(SWATCH), y + pen.ipx(SWATCH))],
            item.colour.filled(),
        ))
        .map_err(err)?;
        root.draw_text(
            &item.name,
            &pen.text(LEGEND_SIZE, TEXT, HPos::Left, VPos::Center),
            (x + pen.ipx(SWATCH + SWATCH_GAP), middle),
        )
        .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(out)
}
