//! *Timeline*: a Gantt chart of the run's jobs coloured by share, from the event log only
//! (start → preempt / succeed / fail), with preemption, priority-change and share-update
//! markers, a time cursor (click or drag on the chart, arrow keys when it has focus) and the
//! "state at t" panel ([`Digest::state_at`]) beside it.
//!
//! Up to [`PER_JOB_MAX`] jobs get one row each (with their waiting time drawn faintly);
//! beyond, the instance-holding stretches of each share are packed into lanes (a lane is
//! not a physical instance), bars closer than a pixel are merged and at most [`MAX_BARS`]
//! bars are drawn; the caption says so.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use leptos::prelude::*;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use quotalab_engine::digest::{Cause, Digest, EventKind, State, StateAt};
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use crate::charts::{
    chart_canvas, err, fit_backing_store, hatch, root_area, share_colour, share_tint, span_s,
    CanvasOpts, CssBox, CursorCard, Frame, Pen, TimeAxis, INK, IN_SHARE, MUTED, RECLAIM, TEXT,
};
use crate::ui::{format, palette};

/// Jobs drawn one row each; more are packed into lanes.
pub const PER_JOB_MAX: usize = 150;
/// At most this many bars are drawn.
pub const MAX_BARS: usize = 4000;
/// At most this many markers are drawn.
pub const MAX_MARKS: usize = 3000;

/// What a job is doing during a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg {
    /// RUNNABLE or SCHEDULED: submitted, not holding instances.
    Waiting,
    /// STARTING: instances held, starting up or restoring a checkpoint.
    Starting,
    Running,
    /// PREEMPTING: notified, still holding its instances.
    Grace,
}

/// One stretch of one job.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    pub job: u32,
    pub kind: Seg,
    pub t0: f64,
    pub t1: f64,
}

/// A marker's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// Preempted by reclaim (another share took back its lent capacity).
    Reclaim,
    /// Preempted by a higher-priority job of its own share.
    InShare,
    /// Its priority was changed (`set_priority`).
    Priority,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    pub job: u32,
    pub t: f64,
    pub kind: MarkKind,
    /// The preemptor (job row) of a preemption.
    pub by: Option<u32>,
    /// The new priority of a priority change.
    pub priority: Option<quotalab_engine::model::Priority>,
}

/// Every segment and marker of a run, read from its event log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gantt {
    pub segments: Vec<Segment>,
    pub marks: Vec<Mark>,
    /// `(t, share)` of `update_share` events.
    pub updates: Vec<(f64, u16)>,
}

/// The Gantt's segments and markers: each job's stretches of state from
/// [`Digest::segments`] (RUNNABLE and SCHEDULED drawn alike as waiting; a new waiting
/// stretch begins at each submission, requeue and preemption, not at an admission or a new
/// waiting reason), and a marker per preemption and priority change of the log.
pub fn gantt(d: &Digest) -> Gantt {
    let mut g = Gantt::default();
    // (closing event, segment): segments are listed in the order the log closes them, the
    // ones still open at the end of the run last, by job.
    let mut closed: Vec<(u32, Segment)> = Vec::new();
    for (j, segs) in d.segments().jobs.iter().enumerate() {
        let job = j as u32;
        let mut open: Option<Segment> = None;
        for s in segs {
            let kind = match s.state {
                State::Runnable | State::Scheduled => Some(Seg::Waiting),
                State::Starting => Some(Seg::Starting),
                State::Running => Some(Seg::Running),
                State::Preempting => Some(Seg::Grace),
                _ => None,
            };
            let goes_on = kind == Some(Seg::Waiting)
                && matches!(s.opened_by, EventKind::Dispatch | EventKind::Waiting)
                && open.is_some_and(|o| o.kind == Seg::Waiting);
            if goes_on {
                continue;
            }
            if let Some(mut o) = open.take() {
                o.t1 = s.t0;
                closed.push((s.event, o));
            }
            open = kind.map(|kind| Segment {
                job,
                kind,
                t0: s.t0,
                t1: s.t0,
            });
        }
        if let Some(mut o) = open {
            o.t1 = d.end_s;
            closed.push((u32::MAX, o));
        }
    }
    quotalab_engine::sort::stable_by(&mut closed, &|a, b| a.0.cmp(&b.0));
    g.segments = closed
        .into_iter()
        .map(|(_, s)| s)
        .filter(|s| s.t1 > s.t0)
        .collect();
    let n = d.jobs.len() as u32;
    for e in &d.events {
        if e.kind == EventKind::UpdateShare {
            g.updates.push((e.t_s, e.share));
            continue;
        }
        let Some(job) = e.job.filter(|&j| j < n) else {
            continue;
        };
        let kind = match (e.kind, e.cause) {
            (EventKind::Preempt, Some(Cause::InShare)) => MarkKind::InShare,
            (EventKind::Preempt, _) => MarkKind::Reclaim,
            (EventKind::SetPriority, _) => MarkKind::Priority,
            _ => continue,
        };
        g.marks.push(Mark {
            job,
            t: e.t_s,
            kind,
            by: e.by.filter(|_| e.kind == EventKind::Preempt),
            priority: e.priority.filter(|_| e.kind == EventKind::SetPriority),
        });
    }
    g
}

/// Runs this small get a label beside each marker.
const LABEL_MAX_JOBS: usize = 30;
const LABEL_MAX_MARKS: usize = 24;

/// "reclaimed by med-1", "preempted by bg-p1 (in-share)", "priority → 4".
pub fn mark_label(d: &Digest, m: &Mark) -> String {
    let id = |j: Option<u32>| {
        j.and_then(|j| d.jobs.get(j as usize))
            .map_or_else(|| "?".to_string(), |r| r.id.clone())
    };
    match m.kind {
        MarkKind::Reclaim => format!("reclaimed by {}", id(m.by)),
        MarkKind::InShare => format!("preempted by {} (in-share)", id(m.by)),
        MarkKind::Priority => format!(
            "priority → {}",
            m.priority.map_or_else(|| "?".into(), |p| p.to_string())
        ),
    }
}

/// One drawn bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    pub lane: usize,
    pub share: u16,
    pub kind: Seg,
    pub t0: f64,
    pub t1: f64,
}

/// Rows, bars and markers ready to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    /// One row per job (`true`) or packed lanes.
    pub per_job: bool,
    pub lanes: usize,
    pub bars: Vec<Bar>,
    /// `(lane, t, kind, label)`: small runs name what happened beside the marker.
    pub marks: Vec<(usize, f64, MarkKind, Option<String>)>,
    pub updates: Vec<(f64, u16)>,
    /// Per-job mode: the job id of each row.
    pub row_labels: Vec<String>,
    /// `(share, first lane, lanes)`, top to bottom.
    pub groups: Vec<(u16, usize, usize)>,
    /// What was simplified to draw it (empty when nothing was).
    pub note: String,
}

/// Lays the Gantt out: one row per job for small runs, packed lanes beyond.
pub fn layout(d: &Digest, g: &Gantt) -> Layout {
    let mut order: Vec<usize> = (0..d.jobs.len()).collect();
    quotalab_engine::sort::stable_by(&mut order, &|&a, &b| {
        let (x, y) = (&d.jobs[a], &d.jobs[b]);
        x.share
            .cmp(&y.share)
            .then(x.submit_s.total_cmp(&y.submit_s))
            .then(a.cmp(&b))
    });
    let share_of = |j: u32| d.jobs[j as usize].share;
    if d.jobs.len() <= PER_JOB_MAX {
        let labelled = d.jobs.len() <= LABEL_MAX_JOBS && g.marks.len() <= LABEL_MAX_MARKS;
        let mut lane_of = vec![0usize; d.jobs.len()];
        for (lane, &j) in order.iter().enumerate() {
            lane_of[j] = lane;
        }
        let mut groups: Vec<(u16, usize, usize)> = Vec::new();
        for (lane, &j) in order.iter().enumerate() {
            let s = d.jobs[j].share;
            match groups.last_mut() {
                Some(gr) if gr.0 == s => gr.2 += 1,
                _ => groups.push((s, lane, 1)),
            }
        }
        return Layout {
            per_job: true,
            lanes: order.len(),
            bars: g
                .segments
                .iter()
                .map(|s| Bar {
                    lane: lane_of[s.job as usize],
                    share: share_of(s.job),
                    kind: s.kind,
                    t0: s.t0,
                    t1: s.t1,
                })
                .collect(),
            marks: g
                .marks
                .iter()
                .map(|m| {
                    let label = (labelled).then(|| mark_label(d, m));
                    (lane_of[m.job as usize], m.t, m.kind, label)
                })
                .collect(),
            updates: g.updates.clone(),
            row_labels: order.iter().map(|&j| d.jobs[j].id.clone()).collect(),
            groups,
            note: String::new(),
        };
    }

    // Holds: the contiguous instance-holding stretches (start to release) of each job.
    struct Hold {
        job: u32,
        t0: f64,
        t1: f64,
        parts: Vec<Segment>,
    }
    let mut holds: Vec<Hold> = Vec::new();
    let mut segs: Vec<&Segment> = g
        .segments
        .iter()
        .filter(|s| s.kind != Seg::Waiting)
        .collect();
    quotalab_engine::sort::stable_by(&mut segs, &|a, b| {
        a.job.cmp(&b.job).then(a.t0.total_cmp(&b.t0))
    });
    for s in segs {
        match holds.last_mut() {
            Some(h) if h.job == s.job && (s.t0 - h.t1).abs() < 1e-9 => {
                h.t1 = s.t1;
                h.parts.push(*s);
            }
            _ => holds.push(Hold {
                job: s.job,
                t0: s.t0,
                t1: s.t1,
                parts: vec![*s],
            }),
        }
    }
    quotalab_engine::sort::stable_by(&mut holds, &|a, b| {
        share_of(a.job)
            .cmp(&share_of(b.job))
            .then(a.t0.total_cmp(&b.t0))
    });
    // Interval partitioning per share: reuse the lane that freed up earliest.
    let mut lanes = 0usize;
    let mut groups: Vec<(u16, usize, usize)> = Vec::new();
    let mut placed: Vec<(usize, usize)> = Vec::with_capacity(holds.len()); // (hold, lane)
    let mut free: BinaryHeap<Reverse<(i64, usize)>> = BinaryHeap::new();
    let key = |t: f64| (t * 1000.0).round() as i64;
    for (h_i, h) in holds.iter().enumerate() {
        let s = share_of(h.job);
        if groups.last().map(|gr| gr.0) != Some(s) {
            groups.push((s, lanes, 0));
            free.clear();
        }
        let lane = match free.peek() {
            Some(Reverse((end, lane))) if *end <= key(h.t0) => {
                let lane = *lane;
                free.pop();
                lane
            }
            _ => {
                lanes += 1;
                if let Some(gr) = groups.last_mut() {
                    gr.2 += 1;
                }
                lanes - 1
            }
        };
        free.push(Reverse((key(h.t1), lane)));
        placed.push((h_i, lane));
    }
    let mut per_lane: Vec<Vec<Bar>> = vec![Vec::new(); lanes];
    for &(h_i, lane) in &placed {
        for p in &holds[h_i].parts {
            per_lane[lane].push(Bar {
                lane,
                share: share_of(p.job),
                kind: p.kind,
                t0: p.t0,
                t1: p.t1,
            });
        }
    }
    for v in &mut per_lane {
        quotalab_engine::sort::stable_by(v, &|a, b| a.t0.total_cmp(&b.t0));
    }
    let raw: usize = per_lane.iter().map(Vec::len).sum();
    // Merge bars closer than about a pixel; coarser until few enough are left.
    let span = d.end_s.max(1.0);
    let mut tol = span / 2000.0;
    let mut bars = merge(&per_lane, tol, false);
    while bars.len() > MAX_BARS && tol < span / 50.0 {
        tol *= 2.0;
        bars = merge(&per_lane, tol, true);
    }
    let mut note = format!(
        "{} jobs: their instance-holding stretches are packed into {} lanes, grouped by share (a lane is not a physical instance); waiting time is not drawn",
        format::thousands(d.jobs.len() as f64),
        format::thousands(lanes as f64)
    );
    if bars.len() < raw {
        note.push_str(&format!(
            "; {} stretches merged into {} bars",
            format::thousands(raw as f64),
            format::thousands(bars.len() as f64)
        ));
    }
    if bars.len() > MAX_BARS {
        quotalab_engine::sort::stable_by(&mut bars, &|a, b| {
            (b.t1 - b.t0).total_cmp(&(a.t1 - a.t0))
        });
        bars.truncate(MAX_BARS);
        note.push_str(&format!(
            "; only the {} longest bars are drawn",
            format::thousands(MAX_BARS as f64)
        ));
    }
    // Markers go on the lane of the hold they happened in.
    let mut holds_of: Vec<Vec<(f64, f64, usize)>> = vec![Vec::new(); d.jobs.len()];
    for &(h_i, lane) in &placed {
        let h = &holds[h_i];
        holds_of[h.job as usize].push((h.t0, h.t1, lane));
    }
    let mut marks: Vec<(usize, f64, MarkKind, Option<String>)> = g
        .marks
        .iter()
        .filter_map(|m| {
            holds_of[m.job as usize]
                .iter()
                .find(|(a, b, _)| *a <= m.t && m.t <= *b)
                .map(|&(_, _, lane)| (lane, m.t, m.kind, None))
        })
        .collect();
    if marks.len() > MAX_MARKS {
        note.push_str(&format!(
            "; {} of {} markers drawn",
            format::thousands(MAX_MARKS as f64),
            format::thousands(marks.len() as f64)
        ));
        marks.truncate(MAX_MARKS);
    }
    note.push('.');
    Layout {
        per_job: false,
        lanes,
        bars,
        marks,
        updates: g.updates.clone(),
        row_labels: Vec::new(),
        groups,
        note,
    }
}

/// Joins consecutive bars of a lane closer than `tol` seconds (of any kind when `any`, the
/// joined bar then showing as running).
fn merge(per_lane: &[Vec<Bar>], tol: f64, any: bool) -> Vec<Bar> {
    let mut out = Vec::new();
    for lane in per_lane {
        let mut cur: Option<Bar> = None;
        for b in lane {
            cur = match cur {
                Some(mut c) if b.t0 - c.t1 <= tol && (any || c.kind == b.kind) => {
                    if c.kind != b.kind {
                        c.kind = Seg::Running;
                    }
                    c.t1 = c.t1.max(b.t1);
                    Some(c)
                }
                Some(c) => {
                    out.push(c);
                    Some(*b)
                }
                None => Some(*b),
            };
        }
        out.extend(cur);
    }
    out
}

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
    let mut chart = ChartBuilder::on(&root)
        .margin_top(pen.px(26.0))
        .margin_right(pen.px(16.0))
        .margin_left(pen.px(4.0))
        .margin_bottom(pen.px(4.0))
        .x_label_area_size(pen.px(40.0))
        .y_label_area_size(pen.px(labels_w))
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

/// The Gantt chart with its legend, its note and the "state at t" panel.
#[component]
pub fn Timeline(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    cursor: RwSignal<Option<f64>>,
) -> impl IntoView {
    let model = Memo::new_with_compare(
        move |_| {
            let d = digest.get();
            let g = gantt(&d);
            Arc::new(layout(&d, &g))
        },
        |_, _| true,
    );
    let steps = Memo::new_with_compare(
        move |_| {
            let d = digest.get();
            let mut t: Vec<f64> = d.events.iter().map(|e| e.t_s).collect();
            t.dedup();
            t.push(d.end_s);
            t.dedup();
            Arc::new(t)
        },
        |_, _| true,
    );
    let canvas = chart_canvas(
        CanvasOpts {
            class: "chart-canvas timeline-canvas",
            label: "Gantt chart of jobs over time coloured by share, with preemption markers. Click or drag to move the time cursor; arrow keys step through events.".into(),
            cursor: Some(cursor),
            steps: Some(steps.into()),
        },
        move |c, size| draw_timeline(c, size, &digest.get(), &model.get()),
    );
    let note = move || {
        let l = model.get();
        (!l.note.is_empty()).then(|| view! { <p class="chart-note">{l.note.clone()}</p> })
    };
    view! {
        <div class="timeline-layout">
            <figure class="chart timeline" data-testid="chart-timeline">
                <figcaption>
                    "Each job over time, coloured by share: solid while running, lighter while starting up, hatched during a grace period, faint while waiting. Click or drag on the chart to move the time cursor (arrow keys step through events when it has focus)."
                </figcaption>
                {canvas}
                <ul class="legend key-legend" aria-label="Legend">
                    <li><span class="key key-run" aria-hidden="true"></span>"running"</li>
                    <li><span class="key key-startup" aria-hidden="true"></span>"starting / restoring"</li>
                    <li><span class="key key-grace-bar" aria-hidden="true"></span>"grace period"</li>
                    <li><span class="key key-wait" aria-hidden="true"></span>"waiting"</li>
                    <li><span class="glyph glyph-reclaim" aria-hidden="true">"▼"</span>"preempted: reclaim"</li>
                    <li><span class="glyph glyph-inshare" aria-hidden="true">"✕"</span>"preempted: in-share"</li>
                    <li><span class="glyph glyph-priority" aria-hidden="true">"◇"</span>"priority changed"</li>
                    <li><span class="glyph glyph-update" aria-hidden="true">"┆"</span>"share updated"</li>
                </ul>
                {move || crate::charts::share_legend(&digest.get())}
                {note}
            </figure>
            <StateAtPanel digest=digest cursor=cursor />
        </div>
    }
}

/// "State at 4 d 7 h": the cursor's time in the unit of the run's time axes.
pub fn state_title(d: &Digest, t: f64) -> String {
    format!("State at {}", time_scale(d).at(t))
}

/// The time unit of `d`'s time axes (the charts' [`crate::charts::TimeAxis`]).
pub fn time_scale(d: &Digest) -> format::TimeScale {
    format::TimeScale::for_span(span_s(d))
}

/// Per share: jobs holding instances, instances held, jobs admitted but not started, jobs
/// waiting to be admitted.
pub fn share_counts(d: &Digest, at: &StateAt) -> Vec<[u64; 4]> {
    let mut out = vec![[0u64; 4]; d.shares.len()];
    let share = |j: u32| {
        d.jobs
            .get(j as usize)
            .map(|r| (r.share as usize, r.instances))
    };
    for (j, _) in &at.holding {
        if let Some(c) = share(*j).and_then(|(s, n)| out.get_mut(s).map(|c| (c, n))) {
            c.0[0] += 1;
            c.0[1] += c.1;
        }
    }
    for j in &at.scheduled {
        if let Some(c) = share(*j).and_then(|(s, _)| out.get_mut(s)) {
            c[2] += 1;
        }
    }
    for (j, _) in &at.waiting {
        if let Some(c) = share(*j).and_then(|(s, _)| out.get_mut(s)) {
            c[3] += 1;
        }
    }
    out
}

/// A share's name with its colour swatch.
fn share_cell(d: &Digest, s: u16) -> impl IntoView + use<> {
    let name = crate::charts::share_name(d, s as usize).to_string();
    view! {
        <span class="share-tag">
            {crate::charts::swatch(palette::css(s as usize))}
            {name}
        </span>
    }
}

/// The table of counts per share at the cursor (the panel's and the card's).
fn counts_table(d: &Digest, at: &StateAt) -> impl IntoView + use<> {
    let rows = share_counts(d, at)
        .into_iter()
        .enumerate()
        .map(|(s, [holding, instances, admitted, waiting])| {
            view! {
                <tr data-share=d.shares[s].name.clone()>
                    <th scope="row">{share_cell(d, s as u16)}</th>
                    <td class="num" data-col="holding">{holding}</td>
                    <td class="num" data-col="instances">{instances}</td>
                    <td class="num" data-col="admitted">{admitted}</td>
                    <td class="num" data-col="waiting">{waiting}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="state-counts">
            <thead>
                <tr>
                    <th scope="col">"Share"</th>
                    <th scope="col" class="num" title="jobs holding instances">"jobs"</th>
                    <th scope="col" class="num" title="instances held">"inst."</th>
                    <th scope="col" class="num" title="admitted, waiting for their instances">"adm."</th>
                    <th scope="col" class="num" title="jobs waiting to be admitted">"wait"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// The id of the "state at t" panel (the card's "details" link scrolls to it).
pub const STATE_AT_ID: &str = "state-at";

/// The card a chart over time shows beside its cursor: the time, the counts per share and
/// a way to the full panel (who holds what, who waits and why).
pub fn cursor_card(digest: Signal<Arc<Digest>>, cursor: RwSignal<Option<f64>>) -> CursorCard {
    let at = Memo::new(move |_| {
        cursor
            .get()
            .map(|t| Arc::new(digest.with(|d| d.state_at(t))))
    });
    let render = move |t: f64| {
        let d = digest.get_untracked();
        let Some(at) = at.get_untracked() else {
            return ().into_any();
        };
        let waiting = at.waiting.len();
        let summary = format!(
            "{} holding, {} admitted, {} waiting",
            format::thousands(at.holding.len() as f64),
            format::thousands(at.scheduled.len() as f64),
            format::thousands(waiting as f64)
        );
        let go = move |_| {
            let Some(panel) = document().get_element_by_id(STATE_AT_ID) else {
                return;
            };
            // Focus (for keyboard and screen-reader users), then its top at the top of the
            // window, whatever focusing scrolled.
            if let Some(el) = panel.dyn_ref::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
            panel.scroll_into_view_with_bool(true);
        };
        view! {
            <p class="cursor-card-title">{state_title(&d, t)}</p>
            {counts_table(&d, &at)}
            <p class="cursor-card-summary">{summary}</p>
            <button type="button" class="cursor-card-more" on:click=go>
                {if waiting > 0 { "Who waits and why ↓" } else { "Who holds what ↓" }}
            </button>
        }
        .into_any()
    };
    CursorCard {
        render: Arc::new(render),
        owner: RwSignal::new(None),
    }
}

/// Human words for a waiting reason code.
pub fn reason_words(code: &str) -> &'static str {
    match code {
        "unschedulable" => "its share has no limit for this instance type",
        "blocked_by_priority" => "behind a higher-priority job that cannot start (strict FIFO)",
        "head_of_line" => "behind the head of its share's queue (strict FIFO)",
        "borrow_limit" => "its share reached its borrow limit",
        "entitlement_exhausted" => "its share used its whole limit and does not borrow",
        "capacity_in_use" => "its share's capacity is lent out and cannot be reclaimed now",
        "no_lendable_capacity" => "it would borrow, but no idle capacity is left to lend",
        _ => "waiting",
    }
}

/// The events the panel tells about (the others are details of these).
const SHOWN: [EventKind; 10] = [
    EventKind::Submit,
    EventKind::Dispatch,
    EventKind::Start,
    EventKind::Preempt,
    EventKind::Requeue,
    EventKind::Succeed,
    EventKind::Fail,
    EventKind::Reject,
    EventKind::SetPriority,
    EventKind::UpdateShare,
];

/// At most this many jobs are listed per group in the panel.
const LIST_MAX: usize = 40;

/// "State at t": who holds what, who waits and why, and counts per share, at the cursor.
#[component]
pub fn StateAtPanel(
    #[prop(into)] digest: Signal<Arc<Digest>>,
    cursor: RwSignal<Option<f64>>,
) -> impl IntoView {
    let body = move || {
        let Some(t) = cursor.get() else {
            return view! {
                <p class="state-hint">
                    "Click the timeline (or any chart over time) to see who held what at that moment, and who waited and why."
                </p>
            }
            .into_any();
        };
        let d = digest.get();
        let segments = d.segments();
        let at = segments.state_at(t);
        // The engine's explanation of each waiting job's current reason: the `waiting`
        // event that gave it.
        let explain = |j: u32| {
            segments
                .at(j, t)
                .filter(|s| s.opened_by == EventKind::Waiting)
                .and_then(|s| d.events[s.event as usize].explain.as_deref())
        };
        // The last instant something the panel tells about happened.
        let last_t = d
            .events
            .iter()
            .take_while(|e| e.t_s <= t)
            .filter(|e| SHOWN.contains(&e.kind))
            .last()
            .map(|e| e.t_s);
        let job = |j: u32| &d.jobs[j as usize];
        let share_cell = |s: u16| share_cell(&d, s);
        let more = |n: usize| {
            (n > LIST_MAX).then(|| view! { <li class="more">{format!("and {} more", format::thousands((n - LIST_MAX) as f64))}</li> })
        };

        let holding = at
            .holding
            .iter()
            .take(LIST_MAX)
            .map(|(j, st)| {
                let r = job(*j);
                view! {
                    <li data-job=r.id.clone() data-state=st.as_str()>
                        <span class="job-id">{r.id.clone()}</span>
                        {share_cell(r.share)}
                        <span class="detail">
                            {format!("{} × {}, {}", r.instances, crate::charts::type_name(&d, r.instance_type), st.as_str().to_ascii_lowercase())}
                        </span>
                    </li>
                }
            })
            .collect_view();
        let scheduled = at
            .scheduled
            .iter()
            .take(LIST_MAX)
            .map(|j| {
                let r = job(*j);
                view! {
                    <li data-job=r.id.clone()>
                        <span class="job-id">{r.id.clone()}</span>
                        {share_cell(r.share)}
                        <span class="detail">"admitted, waiting for its instances to be free"</span>
                    </li>
                }
            })
            .collect_view();
        let waiting = at
            .waiting
            .iter()
            .take(LIST_MAX)
            .map(|(j, reason)| {
                let r = job(*j);
                let code = reason.clone().unwrap_or_default();
                let why = explain(*j)
                    .map(str::to_string)
                    .unwrap_or_else(|| reason_words(&code).to_string());
                view! {
                    <li data-job=r.id.clone() data-reason=code.clone()>
                        <span class="job-id">{r.id.clone()}</span>
                        {share_cell(r.share)}
                        {(!code.is_empty()).then(|| view! { <code class="reason">{code.clone()}</code> })}
                        <span class="detail why">{why}</span>
                    </li>
                }
            })
            .collect_view();

        let last_instant = last_t.map(|lt| {
            let lines = d
                .events
                .iter()
                .filter(|e| e.t_s == lt)
                .filter(|e| SHOWN.contains(&e.kind))
                .take(6)
                .map(|e| {
                    let who = e.job.map(|j| job(j).id.clone()).unwrap_or_else(|| {
                        crate::charts::share_name(&d, e.share as usize).to_string()
                    });
                    let text = match (e.kind, &e.explain) {
                        (EventKind::Preempt, Some(x)) => format!("{who}: {x}"),
                        (EventKind::SetPriority, _) => format!(
                            "{who}: priority set to {}",
                            e.priority.map_or_else(|| "?".into(), |p| p.to_string())
                        ),
                        (EventKind::Dispatch, _) => format!(
                            "{who} admitted{}",
                            if e.borrowing == Some(true) { " (borrowing)" } else { "" }
                        ),
                        (EventKind::Submit, _) => format!("{who} submitted"),
                        (EventKind::Start, _) => format!("{who} holds its instances and starts"),
                        (EventKind::Requeue, _) => format!("{who} back in the queue"),
                        (EventKind::Succeed, _) => format!("{who} succeeded"),
                        (EventKind::Fail, _) => format!("{who} failed"),
                        (EventKind::Reject, _) => format!("{who} rejected (share disabled)"),
                        (EventKind::UpdateShare, _) => format!("share {who} updated"),
                        (k, _) => format!("{who}: {}", k.as_str()),
                    };
                    view! { <li data-kind=e.kind.as_str()>{text}</li> }
                })
                .collect_view();
            view! {
                <h4>{if lt == t { "What happens at this moment".to_string() } else { format!("Latest events (at {})", time_scale(&d).at(lt)) }}</h4>
                <ul class="state-list events">{lines}</ul>
            }
        });

        view! {
            <div class="state-at-counts">
            <h3 class="state-title">{state_title(&d, t)}</h3>
            {last_instant}
            {counts_table(&d, &at)}
            <p class="state-note">"jobs, inst.: jobs holding instances and how many; adm.: admitted, not started yet; wait: waiting to be admitted."</p>
            </div>
            <div class="state-at-lists">
            <h4>{format!("Holding instances ({})", at.holding.len())}</h4>
            <ul class="state-list holding">
                {holding}
                {more(at.holding.len())}
                {at.holding.is_empty().then(|| view! { <li class="none">"nobody"</li> })}
            </ul>
            {(!at.scheduled.is_empty()).then(|| view! {
                <h4>{format!("Admitted, not started ({})", at.scheduled.len())}</h4>
                <ul class="state-list scheduled">{scheduled}{more(at.scheduled.len())}</ul>
            })}
            <h4>{format!("Waiting ({})", at.waiting.len())}</h4>
            <ul class="state-list waiting">
                {waiting}
                {more(at.waiting.len())}
                {at.waiting.is_empty().then(|| view! { <li class="none">"nobody"</li> })}
            </ul>
            </div>
        }
        .into_any()
    };
    view! {
        <aside class="state-at" id=STATE_AT_ID tabindex="-1" data-testid="state-at" aria-live="polite" aria-label="State at the time cursor">
            {body}
        </aside>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::presets::PRESETS;
    use quotalab_engine::digest::DigestLimits;

    const AWS: &str = include_str!("../../www/presets/aws-walkthrough.json");

    const MANY: &str = r#"{
      "format": "quotalab/v1", "name": "many", "seed": 3,
      "capacity": {"ml.g5.xlarge": 8},
      "shares": [
        {"name": "a", "limits": {"ml.g5.xlarge": 4}, "strategy": "LEND_AND_BORROW"},
        {"name": "b", "limits": {"ml.g5.xlarge": 4}, "strategy": "LEND_AND_BORROW"}
      ],
      "jobs": [],
      "workloads": [
        {"share": "a", "count": 300, "arrival": {"uniform": [0, 36000]}, "instance_type": "ml.g5.xlarge", "work_s": {"exponential": {"mean": 900}}},
        {"share": "b", "count": 300, "arrival": {"uniform": [0, 36000]}, "instance_type": "ml.g5.xlarge", "work_s": {"exponential": {"mean": 900}}}
      ]
    }"#;

    fn run(text: &str) -> Digest {
        quotalab_engine::run_digest(text, DigestLimits::default()).expect("a valid scenario")
    }

    #[test]
    fn gantt_has_the_walkthrough_steps() {
        let d = run(AWS);
        let g = gantt(&d);
        let id = |j: u32| d.jobs[j as usize].id.as_str();
        let marks: Vec<(&str, f64, MarkKind)> =
            g.marks.iter().map(|m| (id(m.job), m.t, m.kind)).collect();
        assert_eq!(
            marks,
            [
                ("bg-p2", 60.0, MarkKind::Reclaim),
                ("bg-p1", 120.0, MarkKind::Priority),
                ("bg-p3", 120.0, MarkKind::InShare),
            ]
        );
        // bg-p2 runs 0-60, waits 60-420 (requeued, then waiting for lendable capacity: one
        // waiting stretch), runs again 420-720.
        let p2: Vec<(Seg, f64, f64)> = g
            .segments
            .iter()
            .filter(|s| id(s.job) == "bg-p2")
            .map(|s| (s.kind, s.t0, s.t1))
            .collect();
        assert_eq!(
            p2,
            [
                (Seg::Running, 0.0, 60.0),
                (Seg::Waiting, 60.0, 420.0),
                (Seg::Running, 420.0, 720.0)
            ]
        );
        // bg-p1 waits from its submission to its start at 120: admission does not split it.
        let p1_wait: Vec<(f64, f64)> = g
            .segments
            .iter()
            .filter(|s| id(s.job) == "bg-p1" && s.kind == Seg::Waiting)
            .map(|s| (s.t0, s.t1))
            .collect();
        assert_eq!(p1_wait, [(0.0, 120.0)]);
        let l = layout(&d, &g);
        assert!(l.per_job);
        assert_eq!(l.row_labels, ["bg-p3", "bg-p2", "bg-p1", "med-1"]);
        assert_eq!(
            l.marks
                .iter()
                .map(|m| m.3.clone().unwrap())
                .collect::<Vec<_>>(),
            [
                "reclaimed by med-1",
                "priority → 4",
                "preempted by bg-p1 (in-share)"
            ]
        );
        assert!(l.note.is_empty());
    }

    #[test]
    fn large_runs_are_packed_into_lanes() {
        let d = run(MANY);
        assert_eq!(d.jobs.len(), 600);
        let g = gantt(&d);
        let l = layout(&d, &g);
        assert!(!l.per_job);
        assert_eq!(l.groups.len(), 2, "lanes grouped by share");
        assert_eq!(l.groups.iter().map(|g| g.2).sum::<usize>(), l.lanes);
        assert!(l.lanes >= 2 && l.lanes < 100, "{} lanes", l.lanes);
        assert!(l.bars.len() <= MAX_BARS);
        assert!(l.bars.iter().all(|b| b.kind != Seg::Waiting));
        assert!(l.note.starts_with("600 jobs: "), "{}", l.note);
        assert!(l.note.contains("packed into"), "{}", l.note);
        // No two bars of one lane overlap, and a lane holds one share's jobs.
        let mut by_lane = vec![Vec::new(); l.lanes];
        for b in &l.bars {
            by_lane[b.lane].push((b.t0, b.t1));
            let (s, first, n) = l.groups[usize::from(b.share)];
            assert_eq!(s, b.share);
            assert!((first..first + n).contains(&b.lane));
        }
        for v in &mut by_lane {
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            assert!(v.windows(2).all(|w| w[0].1 <= w[1].0 + 1e-6));
        }
    }

    /// The Gantt as the page read it straight from the log before the digest had
    /// segments: a waiting bar from each submission, requeue or preemption of a SCHEDULED
    /// job, start and running bars, a grace bar from each preemption of a holding job.
    fn direct_gantt(d: &Digest) -> Vec<Segment> {
        let n = d.jobs.len();
        let mut open: Vec<Option<(Seg, f64)>> = vec![None; n];
        let mut out = Vec::new();
        let close = |open: &mut Vec<Option<(Seg, f64)>>, out: &mut Vec<Segment>, j: usize, t| {
            if let Some((kind, t0)) = open[j].take() {
                if t > t0 {
                    out.push(Segment {
                        job: j as u32,
                        kind,
                        t0,
                        t1: t,
                    });
                }
            }
        };
        for e in &d.events {
            let Some(j) = e.job.map(|j| j as usize) else {
                continue;
            };
            let kind = match e.kind {
                EventKind::Submit | EventKind::Requeue => Seg::Waiting,
                EventKind::Start => Seg::Starting,
                EventKind::Running => Seg::Running,
                EventKind::Preempt => {
                    if matches!(open[j], Some((Seg::Starting | Seg::Running, _))) {
                        Seg::Grace
                    } else {
                        Seg::Waiting
                    }
                }
                EventKind::Succeed | EventKind::Fail | EventKind::Reject => {
                    close(&mut open, &mut out, j, e.t_s);
                    continue;
                }
                _ => continue,
            };
            close(&mut open, &mut out, j, e.t_s);
            open[j] = Some((kind, e.t_s));
        }
        for j in 0..n {
            close(&mut open, &mut out, j, d.end_s);
        }
        out
    }

    // The segments replay gives the same bars, in the same order, as reading the log
    // directly, on every inline preset, the engine's grace, retry and share-update
    // scenarios and a run large enough to be packed.
    #[test]
    fn gantt_segments_match_a_direct_reading_of_the_log() {
        let mut texts: Vec<&str> = PRESETS.iter().filter_map(|p| p.inline()).collect();
        texts.extend([
            MANY,
            include_str!("../../crates/engine/tests/golden/reclaim-grace-checkpoint.json"),
            include_str!("../../crates/engine/tests/golden/retries-fail.json"),
            include_str!("../../crates/engine/tests/golden/update-share-and-disable.json"),
            include_str!("../../crates/engine/tests/golden/horizon-startup.json"),
        ]);
        assert!(texts.len() >= 3, "{} scenarios", texts.len());
        for text in texts {
            let d = run(text);
            let g = gantt(&d);
            assert!(!g.segments.is_empty(), "{}", d.name);
            assert_eq!(g.segments, direct_gantt(&d), "{}", d.name);
        }
    }

    // One time format per scale: the panel's time reads in the unit of the run's time axes.
    // The Philly sample spans days, so "State at 4 d 7 h", not "103 h 19 min" (the clock's).
    #[test]
    fn the_panels_time_uses_the_axis_unit() {
        let philly = run(include_str!("../../www/presets/philly-sample.json"));
        let axis = crate::charts::TimeAxis::for_span(span_s(&philly));
        assert_eq!(axis.unit, "d");
        assert_eq!(time_scale(&philly), axis.scale);
        let t = 103.0 * 3600.0 + 19.0 * 60.0;
        assert_eq!(state_title(&philly, t), "State at 4 d 7 h");
        assert_eq!(axis.label(4.0), "4 d");
        // The walkthrough (minutes) reads as before.
        let aws = run(AWS);
        assert_eq!(crate::charts::TimeAxis::for_span(span_s(&aws)).unit, "min");
        assert_eq!(state_title(&aws, 90.0), "State at 1 min 30 s");
        assert_eq!(
            crate::charts::cursor_text(720.0, span_s(&aws)),
            "t = 12 min"
        );
    }

    #[test]
    fn counts_per_share_at_90_s() {
        let d = run(AWS);
        let at = d.state_at(90.0);
        let counts = share_counts(&d, &at);
        let total: [u64; 4] = counts.iter().fold([0; 4], |mut a, c| {
            (0..4).for_each(|i| a[i] += c[i]);
            a
        });
        assert_eq!(total[0] as usize, at.holding.len());
        assert_eq!(total[2] as usize, at.scheduled.len());
        assert_eq!(total[3] as usize, at.waiting.len());
        assert_eq!(counts.len(), d.shares.len());
    }

    #[test]
    fn mark_labels_name_the_preemptor_or_the_priority() {
        let d = run(AWS);
        let mark = |kind, by, priority| Mark {
            job: 0,
            t: 0.0,
            kind,
            by,
            priority,
        };
        assert_eq!(
            mark_label(&d, &mark(MarkKind::Reclaim, Some(3), None)),
            "reclaimed by med-1"
        );
        assert_eq!(
            mark_label(&d, &mark(MarkKind::InShare, None, None)),
            "preempted by ? (in-share)"
        );
        assert_eq!(
            mark_label(&d, &mark(MarkKind::Priority, None, Some(7))),
            "priority → 7"
        );
    }
}
