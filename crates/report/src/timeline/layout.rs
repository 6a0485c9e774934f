//! The Gantt's layout: a row per job for small runs, else bars packed into lanes per share.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use quotalab_engine::digest::Digest;

use crate::format;
use serde::{Deserialize, Serialize};

use super::gantt::{mark_label, Gantt, MarkKind, Seg, Segment};
use super::{MAX_BARS, MAX_MARKS, PER_JOB_MAX};

/// Runs this small get a label beside each marker.
const LABEL_MAX_JOBS: usize = 30;
const LABEL_MAX_MARKS: usize = 24;

/// One drawn bar.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    pub lane: usize,
    pub share: u16,
    pub kind: Seg,
    pub t0: f64,
    pub t1: f64,
}

/// Rows, bars and markers ready to draw.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// Where the events it was laid out from stop, if the run went on after them (the
    /// digest's [`Digest::events_until_s`]): nothing is known of the time after.
    pub until_s: Option<f64>,
}

/// The segments that hold instances (not waiting), by job and then time: a counting sort by
/// job ([`super::gantt::counting_sort`]), as each job's segments come in time order (the
/// Gantt lists them in the order of the events that close them). One pass, where a
/// comparison sort of 150,000 segments made the Philly trace's timeline wait (issue #30).
fn by_job(segments: &[Segment], jobs: usize) -> Vec<&Segment> {
    let holding = segments.iter().filter(|s| s.kind != Seg::Waiting);
    super::gantt::counting_sort(holding, jobs + 1, |s| s.job as usize)
}

/// Lays the Gantt out: one row per job for small runs, packed lanes beyond.
pub fn layout(d: &Digest, g: &Gantt) -> Layout {
    let share_of = |j: u32| d.jobs[j as usize].share;
    if d.jobs.len() <= PER_JOB_MAX {
        let mut order: Vec<usize> = (0..d.jobs.len()).collect();
        quotalab_engine::sort::compact_by(&mut order, &|&a, &b| {
            let (x, y) = (&d.jobs[a], &d.jobs[b]);
            x.share
                .cmp(&y.share)
                .then(x.submit_s.total_cmp(&y.submit_s))
                .then(a.cmp(&b))
        });
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
            until_s: d.events_until_s,
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
    let segs = by_job(&g.segments, d.jobs.len());
    debug_assert!(segs
        .windows(2)
        .all(|w| (w[0].job, w[0].t0) <= (w[1].job, w[1].t0)));
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
    quotalab_engine::sort::compact_by(&mut holds, &|a, b| {
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
        quotalab_engine::sort::compact_by(v, &|a, b| a.t0.total_cmp(&b.t0));
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
    let (jobs, share) = if d.kueue.is_some() {
        ("Workloads", "ClusterQueue")
    } else {
        ("jobs", "share")
    };
    let mut note = format!(
        "{} {jobs}: their instance-holding stretches are packed into {} lanes, grouped by {share} (a lane is not a physical instance); waiting time is not drawn",
        format::thousands(d.job_count as f64),
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
        quotalab_engine::sort::compact_by(&mut bars, &|a, b| {
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
        until_s: d.events_until_s,
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
