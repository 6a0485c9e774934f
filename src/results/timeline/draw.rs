//! Drawing the laid-out Gantt on its canvas (plotters): rows, bars, markers and labels.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use quotalab_engine::digest::Digest;
use web_sys::HtmlCanvasElement;

use crate::charts::{
    chart_builder, err, fit_backing_store, hatch, root_area, share_colour, share_tint, span_s,
    CssBox, Frame, Pen, TimeAxis, INK, IN_SHARE, MUTED, RECLAIM, TEXT,
};

use super::{Layout, MarkKind, Seg};

/// CSS height of a row (or lane) and of the whole canvas.
fn heights(l: &Layout) -> (f64, f64) {
    let n = l.lanes.max(1) as f64;
    let row = if l.per_job {
        (460.0 / n).clamp(5.0, 34.0)
    } else {
        (520.0 / n).clamp(0.4, 14.0)
    };
    let plot = (row * n).max(40.0);
    (plot / n, plot + 26.0 + 44.0)
}

fn draw_mark(
    root: &crate::charts::Area,
    pen: Pen,
    (x, y): (i32, i32),
    kind: MarkKind,
    size: f64,
) -> Result<(), String> {
    let r = pen.ipx(size);
    match kind {
        MarkKind::Reclaim => {
            // A downward triangle whose tip touches the bar's middle.
            root.draw(&Polygon::new(
                vec![(x - r, y - 2 * r), (x + r, y - 2 * r), (x, y)],
                RECLAIM.filled(),
            ))
            .map_err(err)?;
            root.draw(&PathElement::new(
                vec![
                    (x - r, y - 2 * r),
                    (x + r, y - 2 * r),
                    (x, y),
                    (x - r, y - 2 * r),
                ],
                pen.stroke(WHITE, 1.0),
            ))
            .map_err(err)?;
        }
        MarkKind::InShare => {
            for (a, b) in [
                ((x - r, y - r), (x + r, y + r)),
                ((x - r, y + r), (x + r, y - r)),
            ] {
                root.draw(&PathElement::new(vec![a, b], pen.stroke(WHITE, 4.0)))
                    .map_err(err)?;
                root.draw(&PathElement::new(vec![a, b], pen.stroke(IN_SHARE, 2.2)))
                    .map_err(err)?;
            }
        }
        MarkKind::Priority => {
            let pts = vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y), (x, y - r)];
            root.draw(&Polygon::new(pts.clone(), WHITE.filled()))
                .map_err(err)?;
            root.draw(&PathElement::new(pts, pen.stroke(INK, 1.6)))
                .map_err(err)?;
        }
    }
    Ok(())
}

/// Draws the Gantt; returns its time frame for the cursor.
pub fn draw_timeline(
    canvas: &HtmlCanvasElement,
    size: CssBox,
    d: &Digest,
    l: &Layout,
) -> Result<Option<Frame>, String> {
    let (row_h, css_h) = heights(l);
    let pen = fit_backing_store(canvas, size, Some(css_h));
    let root = root_area(canvas)?;
    let end = span_s(d);
    let axis = TimeAxis::for_span(end);
    let x_max = end / axis.per;
    let n = l.lanes.max(1) as f64;

    let labels_w = if l.per_job && row_h >= 11.0 {
        let longest = l
            .row_labels
            .iter()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(4);
        (longest.min(22) as f64 * 7.0 + 14.0).clamp(48.0, 170.0)
    } else {
        let longest = d
            .shares
            .iter()
            .map(|s| s.name.chars().count())
            .max()
            .unwrap_or(4);
        (longest.min(18) as f64 * 7.0 + 14.0).clamp(48.0, 150.0)
    };
    let mut chart = chart_builder(&root, pen, [26.0, 16.0, 4.0, 4.0], labels_w)
        .build_cartesian_2d(0f64..x_max, 0f64..n)
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    quotalab_report::base_mesh!(mesh, pen)
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(axis.label_count(f64::from(root.dim_in_pixel().0) / pen.dpr))
        .x_desc(axis.desc())
        .x_label_formatter(&|v| axis.label(*v))
        .draw()
        .map_err(err)?;

    let per = axis.per;
    let y_of = |lane: usize| n - lane as f64; // top of the lane
                                              // Share groups: light banding and labels.
    for (k, &(share, first, count)) in l.groups.iter().enumerate() {
        if k % 2 == 1 {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(0.0, y_of(first)), (x_max, y_of(first + count))],
                    RGBColor(0xf6, 0xf7, 0xf9).filled(),
                )))
                .map_err(err)?;
        }
        let group_px = count as f64 * row_h;
        if !(l.per_job && row_h >= 11.0) && group_px >= 12.0 {
            let (x, y) = chart.backend_coord(&(0.0, y_of(first) - count as f64 / 2.0));
            root.draw_text(
                &super_short(crate::charts::share_name(d, share as usize), 18),
                &pen.text(
                    12.0,
                    share_colour(share as usize),
                    HPos::Right,
                    VPos::Center,
                ),
                (x - pen.ipx(8.0), y),
            )
            .map_err(err)?;
        }
    }
    if l.per_job && row_h >= 11.0 {
        for (lane, id) in l.row_labels.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(0.0, y_of(lane) - 0.5));
            root.draw_text(
                &super_short(id, 22),
                &pen.text(11.5, TEXT, HPos::Right, VPos::Center),
                (x - pen.ipx(8.0), y),
            )
            .map_err(err)?;
        }
    }

    let hatch_style = |share: u16| pen.stroke(share_colour(share as usize), 1.0);
    // Waiting first (faint and thin), then held stretches.
    for b in l.bars.iter().filter(|b| b.kind == Seg::Waiting) {
        let top = y_of(b.lane);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(b.t0 / per, top - 0.38), (b.t1 / per, top - 0.62)],
                share_tint(b.share as usize, 0.8).filled(),
            )))
            .map_err(err)?;
    }
    let pad = if row_h >= 4.0 { 0.14 } else { 0.0 };
    let min_w = 1.0 / pen.dpr * (x_max / f64::from(chart.plotting_area().dim_in_pixel().0.max(1)));
    for b in l.bars.iter().filter(|b| b.kind != Seg::Waiting) {
        let top = y_of(b.lane);
        let x0 = b.t0 / per;
        let x1 = (b.t1 / per).max(x0 + min_w * pen.dpr);
        let rect = [(x0, top - pad), (x1, top - 1.0 + pad)];
        let fill = match b.kind {
            Seg::Running => share_colour(b.share as usize),
            Seg::Starting => share_tint(b.share as usize, 0.5),
            _ => share_tint(b.share as usize, 0.72),
        };
        chart
            .draw_series(std::iter::once(Rectangle::new(rect, fill.filled())))
            .map_err(err)?;
        if b.kind == Seg::Grace && row_h >= 6.0 {
            let a = chart.backend_coord(&rect[0]);
            let c = chart.backend_coord(&rect[1]);
            hatch(&root, a, c, pen.ipx(4.0), hatch_style(b.share))?;
        }
    }
    // Share updates: a dashed line across the chart, named at the top.
    for (k, &(t, share)) in l.updates.iter().enumerate() {
        let x = t / per;
        chart
            .draw_series(DashedLineSeries::new(
                [(x, 0.0), (x, n)],
                pen.px(4.0),
                pen.px(3.0),
                pen.stroke(MUTED, 1.2),
            ))
            .map_err(err)?;
        if k < 12 {
            let (px, py) = chart.backend_coord(&(x, n));
            root.draw_text(
                &format!("update {}", crate::charts::share_name(d, share as usize)),
                &pen.text(11.0, MUTED, HPos::Center, VPos::Bottom),
                (px, py - pen.ipx(4.0)),
            )
            .map_err(err)?;
        }
    }
    // Laid out from a capped log: after its last event nothing is known, shaded and named.
    if let Some(until) = l.until_s.filter(|&u| u < end) {
        let x = until / per;
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x, 0.0), (x_max, n)],
                RGBColor(0xe9, 0xeb, 0xef).filled(),
            )))
            .map_err(err)?;
        let (x0, top) = chart.backend_coord(&(x, n));
        let (x1, _) = chart.backend_coord(&(x_max, n));
        if x1 - x0 > pen.ipx(150.0) {
            root.draw_text(
                "events not kept",
                &pen.text(11.5, MUTED, HPos::Center, VPos::Top),
                ((x0 + x1) / 2, top + pen.ipx(6.0)),
            )
            .map_err(err)?;
        }
    }
    let mark_size = (row_h * 0.3).clamp(3.0, 6.5);
    for (lane, t, kind, _) in &l.marks {
        let at = chart.backend_coord(&(t / per, y_of(*lane) - 0.5));
        draw_mark(&root, pen, at, *kind, mark_size)?;
    }
    // Labels beside the markers of small runs, on a white tab so they read over any bar; a
    // label that would cover another label or marker of its row moves to the marker's left,
    // or is left out (the marker stays).
    if row_h >= 14.0 {
        let style = pen.text(11.0, INK, HPos::Left, VPos::Center);
        let (x_start, _) = chart.backend_coord(&(0.0, 0.0));
        let (x_end, _) = chart.backend_coord(&(x_max, 0.0));
        let r = pen.ipx(mark_size);
        let mut taken: Vec<Vec<(i32, i32)>> = vec![Vec::new(); l.lanes];
        for (lane, t, _, _) in &l.marks {
            let (x, _) = chart.backend_coord(&(t / per, 0.0));
            if let Some(v) = taken.get_mut(*lane) {
                v.push((x - r, x + r));
            }
        }
        for (lane, t, kind, label) in &l.marks {
            let Some(label) = label else { continue };
            let (x, y) = chart.backend_coord(&(t / per, y_of(*lane) - 0.5));
            let (w, h) = (
                crate::charts::text_width(canvas, pen, 11.0, label),
                pen.ipx(13.0),
            );
            let gap = pen.ipx(mark_size + 5.0);
            let pad = pen.ipx(3.0);
            let free = |(a, b): (i32, i32)| {
                a >= x_start && b <= x_end && taken[*lane].iter().all(|&(c, d)| b <= c || a >= d)
            };
            let right = (x + gap - pad, x + gap + w + pad);
            let left = (x - gap - w - pad, x - gap + pad);
            let Some(span) = [right, left].into_iter().find(|s| free(*s)) else {
                continue;
            };
            taken[*lane].push(span);
            let colour = match kind {
                MarkKind::Reclaim => RECLAIM,
                MarkKind::InShare => IN_SHARE,
                MarkKind::Priority => INK,
            };
            root.draw(&Rectangle::new(
                [
                    (span.0, y - h / 2 - pen.ipx(2.0)),
                    (span.1, y + h / 2 + pen.ipx(2.0)),
                ],
                WHITE.mix(0.9).filled(),
            ))
            .map_err(err)?;
            let mut s = style.clone();
            s.color = colour.to_backend_color();
            root.draw_text(label, &s, (span.0 + pad, y)).map_err(err)?;
        }
    }
    let frame = Frame::of(chart.plotting_area(), pen, 0.0, end);
    root.present().map_err(err)?;
    Ok(Some(frame))
}

fn super_short(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max - 1).collect();
        out.push('…');
        out
    }
}
