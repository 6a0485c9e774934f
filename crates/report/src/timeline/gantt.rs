//! The Gantt read from the event log alone: each job's segments and markers, and their labels.

use quotalab_engine::digest::{Cause, Digest, EventKind, Segments, State};
use serde::{Deserialize, Serialize};

/// What a job is doing during a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// The Gantt's segments and markers: each job's stretches of state (`stretches`, `d`'s
/// [`Digest::segments`], which the "state at t" panel reads too) (RUNNABLE and SCHEDULED drawn alike as waiting; a new waiting
/// stretch begins at each submission, requeue and preemption, not at an admission or a new
/// waiting reason), and a marker per preemption and priority change of the log.
pub fn gantt(d: &Digest, stretches: &Segments) -> Gantt {
    let mut g = Gantt::default();
    // (closing event, segment): segments are listed in the order the log closes them, the
    // ones still open at the end of the run last, by job.
    let mut closed: Vec<(u32, Segment)> = Vec::new();
    for (j, segs) in stretches.jobs.iter().enumerate() {
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
            o.t1 = d.log_end_s();
            closed.push((u32::MAX, o));
        }
    }
    g.segments = by_closing_event(&closed, d.events.len())
        .into_iter()
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

/// The segments of `closed` in the order of their closing events (indices below `events`,
/// `u32::MAX` for those still open, last), each event's in the order listed: a counting
/// sort, one pass over 250,000 segments where a comparison sort made the Philly trace's
/// timeline wait (issue #30).
pub fn by_closing_event(closed: &[(u32, Segment)], events: usize) -> Vec<Segment> {
    let sorted = counting_sort(closed.iter().copied(), events + 1, |c| c.0 as usize);
    sorted.into_iter().map(|(_, s)| s).collect()
}

/// `items` in the order of their `key` (from 0 to `buckets - 1`; a larger key counts as the
/// last), those of one key in the order given: a stable counting sort, linear in the items
/// and the buckets, for the timeline's long lists keyed by a small index.
pub fn counting_sort<T: Copy>(
    items: impl Iterator<Item = T> + Clone,
    buckets: usize,
    key: impl Fn(&T) -> usize,
) -> Vec<T> {
    let bucket = |x: &T| key(x).min(buckets.saturating_sub(1));
    let mut next = vec![0usize; buckets + 1];
    for x in items.clone() {
        next[bucket(&x) + 1] += 1;
    }
    for i in 1..next.len() {
        next[i] += next[i - 1];
    }
    let mut out: Vec<T> = items.clone().collect();
    for x in items {
        let at = &mut next[bucket(&x)];
        out[*at] = x;
        *at += 1;
    }
    out
}

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
