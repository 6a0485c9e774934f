//! The timeline's Gantt (issue #30): each job's stretches read from a digest's event log
//! ([`gantt()`]) and laid out to draw ([`layout()`]: a row per job for small runs, bars
//! packed into lanes per share beyond, at most [`MAX_BARS`] bars and [`MAX_MARKS`]
//! markers). The page lays out the runs whose whole log it keeps; an engine worker lays out
//! the whole log of a run longer than the page keeps ([`whole_run`]), so that the timeline
//! of a long trace is drawn to its end.

mod gantt;
mod layout;

pub use gantt::{
    by_closing_event, counting_sort, gantt, mark_label, Gantt, Mark, MarkKind, Seg, Segment,
};
pub use layout::{layout, Bar, Layout};

use quotalab_engine::digest::{Digest, DigestLimits, EventKind, EventRow, Segments, StateAt};
use quotalab_engine::pipeline::{self, Product, RunOptions};
use quotalab_engine::Problem;
use serde::{Deserialize, Serialize};

/// Jobs drawn one row each; more are packed into lanes.
pub const PER_JOB_MAX: usize = 150;
/// At most this many bars are drawn.
pub const MAX_BARS: usize = 4000;
/// At most this many markers are drawn.
pub const MAX_MARKS: usize = 3000;

/// The events [`whole_run`] lays out at most: a memory bound on the worker that keeps the
/// run, whose event rows take ~50 bytes each and their stretches about as much again (the
/// Kueue model's Philly run has 4,134,298 events).
pub const WHOLE_RUN_EVENTS: usize = 1_000_000;

/// What [`whole_digest`] keeps: up to [`WHOLE_RUN_EVENTS`] events, every job row, no series
/// to speak of (the layout reads none).
pub const WHOLE_RUN_LIMITS: DigestLimits = DigestLimits {
    max_points: 2,
    max_events: WHOLE_RUN_EVENTS,
    max_jobs: usize::MAX,
};

/// An engine worker keeps the whole run it laid out for the "state at t" panel only up to
/// this many jobs: the page has every job row up to its own cap (`runner::WORKER_LIMITS`),
/// and the rows of the two digests are the same only then.
pub const WHOLE_RUN_KEPT_JOBS: usize = 100_000;

/// A run's timeline laid out from its whole event log (or its first [`WHOLE_RUN_EVENTS`]),
/// with what identifies the run it is of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WholeRun {
    pub layout: Layout,
    /// The number the engine worker keeps this run under, to be asked the state at a time
    /// ([`moment`]); `None` when it does not keep it (more than [`WHOLE_RUN_KEPT_JOBS`]).
    pub key: Option<u64>,
    /// The run's end and event count: the page draws this layout only for the digest of the
    /// same run (the text it asked for may have been edited since).
    pub end_s: f64,
    pub event_count: u64,
    /// The events laid out: all of them, or the first [`WHOLE_RUN_EVENTS`] (then
    /// [`Layout::until_s`] says where they stop).
    pub events: u64,
}

impl WholeRun {
    /// Whether this is the layout of the run `d` digests.
    pub fn is_of(&self, d: &Digest) -> bool {
        self.end_s == d.end_s && self.event_count == d.event_count
    }
}

/// Simulates `text` again and digests its whole event log (its first [`WHOLE_RUN_EVENTS`]
/// for a longer one: then [`Digest::events_until_s`] says where they stop), every job row
/// kept; or the scenario's problems.
pub fn whole_digest(text: &str) -> Result<Digest, Vec<Problem>> {
    let opts = RunOptions {
        product: Product::Digest(WHOLE_RUN_LIMITS),
        ..RunOptions::default()
    };
    pipeline::run(text, &opts)?
        .output
        .into_digest()
        .ok_or_else(|| vec![Problem::whole("the run produced no digest")])
}

/// `d`'s timeline laid out from its stretches (`segments`, [`Digest::segments`]), under
/// `key` if the worker keeps the run.
pub fn whole_run_of(d: &Digest, segments: &Segments, key: Option<u64>) -> WholeRun {
    WholeRun {
        layout: layout(d, &gantt(d, segments)),
        key,
        end_s: d.end_s,
        event_count: d.event_count,
        events: d.events.len() as u64,
    }
}

/// [`whole_digest`] laid out ([`whole_run_of`]), the run not kept.
pub fn whole_run(text: &str) -> Result<WholeRun, Vec<Problem>> {
    let d = whole_digest(text)?;
    Ok(whole_run_of(&d, &d.segments(), None))
}

/// The kinds of event the "state at t" panel tells about (the others are details of these).
pub const SHOWN: [EventKind; 10] = [
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

/// At most this many jobs are listed per group in the panel (the counts are of all).
pub const LIST_MAX: usize = 40;

/// At most this many events of the latest instant are told.
pub const LATEST_MAX: usize = 6;

/// What the "state at t" panel and the cursor's card show of one moment of a run: made on
/// the page from the events it keeps, or by an engine worker from the whole run it keeps
/// ([`WholeRun::key`]) for a time after them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Moment {
    /// Who held instances, who was admitted and who waited (and why).
    pub at: StateAt,
    /// The engine's explanation of the first [`LIST_MAX`] waiting jobs' current reason (the
    /// `waiting` event that gave it), in the order of `at.waiting`.
    pub why: Vec<Option<String>>,
    /// The last instant at or before the time when something of [`SHOWN`] happened, and its
    /// first [`LATEST_MAX`] such events with their explanations.
    pub latest: Option<(f64, Vec<Told>)>,
}

/// An event of a [`Moment`]'s latest instant, with its explanation where it has one.
pub type Told = (EventRow, Option<String>);

/// The moment `t` of `d`'s run, from its stretches (`segments`, [`Digest::segments`]).
pub fn moment(d: &Digest, segments: &Segments, t: f64) -> Moment {
    let at = segments.state_at(t);
    let why = at
        .waiting
        .iter()
        .take(LIST_MAX)
        .map(|&(j, _)| {
            segments
                .at(j, t)
                .filter(|s| s.opened_by == EventKind::Waiting)
                .and_then(|s| d.events.get(s.event as usize))
                .and_then(|e| d.explain(e))
                .map(str::to_string)
        })
        .collect();
    let upto = &d.events[..d.events.partition_point(|e| e.t_s <= t)];
    let latest = upto
        .iter()
        .rev()
        .find(|e| SHOWN.contains(&e.kind))
        .map(|e| e.t_s)
        .map(|lt| {
            let lines = upto[upto.partition_point(|e| e.t_s < lt)..]
                .iter()
                .filter(|e| SHOWN.contains(&e.kind))
                .take(LATEST_MAX)
                .map(|e| (e.clone(), d.explain(e).map(str::to_string)))
                .collect();
            (lt, lines)
        });
    Moment { at, why, latest }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORG: &str = include_str!("../../../../www/presets/research-org.json");

    /// The page keeps a long run's first events; its timeline stops there. The whole run's
    /// layout goes on to the end, is the layout of the digest that keeps every event, and
    /// says it is of the page's run (and not of another).
    #[test]
    fn the_whole_run_is_laid_out_past_the_events_the_page_keeps() {
        let kept = quotalab_engine::run_digest(
            ORG,
            DigestLimits {
                max_events: 2_000,
                ..DigestLimits::default()
            },
        )
        .expect("the preset runs");
        let until = kept.events_until_s.expect("capped at 2,000 events");
        let part = layout(&kept, &gantt(&kept, &kept.segments()));
        assert_eq!(part.until_s, Some(until));
        assert!(
            part.bars.iter().all(|b| b.t1 <= until),
            "the kept part stops"
        );

        let whole = whole_run(ORG).expect("the preset runs");
        assert!(whole.is_of(&kept), "the same run");
        assert_eq!(whole.layout.until_s, None, "every event laid out");
        assert!(
            whole.layout.bars.iter().any(|b| b.t0 > until),
            "bars after the cap"
        );
        let all = quotalab_engine::run_digest(ORG, DigestLimits::default()).unwrap();
        assert!(all.events_until_s.is_none());
        assert_eq!(whole.layout, layout(&all, &gantt(&all, &all.segments())));

        let other = include_str!("../../../../www/presets/aws-walkthrough.json");
        assert!(!whole_run(other).unwrap().is_of(&kept));
        let problems = whole_run("{\"format\": 1}").unwrap_err();
        assert!(!problems.is_empty());
    }
}
