//! What is due when (SPEC 4 "Instants"): the event loop's agenda. Four sources of instants,
//! each in its own order: the timers jobs set (grace ends, completions, startup ends), the
//! submissions, the scenario's timed events and the SPEC 14 escalations. The agenda owns
//! them; the event loop ([`super::events`]) asks it for the next instant and takes what is
//! due at it, source by source, in SPEC 4's order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::input::model::*;

use super::job::JobId;

/// The kinds of timer, in SPEC 4 order within an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Timer {
    GraceEnd = 0,
    Completion = 1,
    StartupEnd = 2,
}

/// A timer a job set: due `at`, of `kind`, set as the `seq`-th timer, valid while the job's
/// epoch is still `epoch` (a preemption makes its pending timers stale).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Pending {
    at: Ms,
    kind: Timer,
    seq: u64,
    job: JobId,
    epoch: u32,
}

/// Items sorted by the time they are due, taken in order. The times are not stored: each
/// list reads them from the scenario (`at`), which keeps a million jobs' submissions at 4
/// bytes each.
#[derive(Clone, Debug)]
struct Sorted<T> {
    items: Vec<T>,
    next: usize,
}

impl<T: Copy> Sorted<T> {
    fn new(items: Vec<T>) -> Sorted<T> {
        Sorted { items, next: 0 }
    }

    fn at(&self, at: impl Fn(T) -> Ms) -> Option<Ms> {
        self.items.get(self.next).map(|&i| at(i))
    }

    /// The next item if it is due at `t`.
    fn take_at(&mut self, t: Ms, at: impl Fn(T) -> Ms) -> Option<T> {
        let &item = self.items.get(self.next)?;
        (at(item) == t).then(|| {
            self.next += 1;
            item
        })
    }
}

/// The event loop's agenda (see the module's documentation).
#[derive(Clone, Debug)]
pub(super) struct Agenda {
    timers: BinaryHeap<Reverse<Pending>>,
    seq: u64,
    submissions: Sorted<JobId>,
    timed: Sorted<usize>,
    escalations: Sorted<(Ms, JobId, Priority)>,
}

impl Agenda {
    /// The agenda of `sc`: its jobs' submissions (SPEC 14 continuations are submitted by the
    /// engine only, so they are not here), its timed events and `escalations` (in time order,
    /// then job order), each stable in file order within an instant.
    pub(super) fn new(
        sc: &Scenario,
        by_submit: Vec<JobId>,
        escalations: Vec<(Ms, JobId, Priority)>,
    ) -> Agenda {
        // In place: a million jobs' order is not copied.
        let mut submissions = by_submit;
        submissions.retain(|j| sc.jobs[j.index()].resubmission_of.is_none());
        let mut timed: Vec<usize> = (0..sc.events.len()).collect();
        crate::sort::stable_by_i64(&mut timed, &|&e| sc.events[e].at);
        Agenda {
            timers: BinaryHeap::new(),
            seq: 0,
            submissions: Sorted::new(submissions),
            timed: Sorted::new(timed),
            escalations: Sorted::new(escalations),
        }
    }

    /// Whether only timers are left: every submission, timed event and escalation is past.
    pub(super) fn only_timers_left(&self) -> bool {
        self.submissions.next >= self.submissions.items.len()
            && self.timed.next >= self.timed.items.len()
            && self.escalations.next >= self.escalations.items.len()
    }

    /// Sets a timer of `job` (whose epoch is `epoch` now) due `at`.
    pub(super) fn set(&mut self, at: Ms, kind: Timer, job: JobId, epoch: u32) {
        self.seq += 1;
        self.timers.push(Reverse(Pending {
            at,
            kind,
            seq: self.seq,
            job,
            epoch,
        }));
    }

    /// The next instant: the earliest of every source, stale timers (`live(job, epoch)`
    /// false: the job was preempted since) dropped first, for they are not events.
    pub(super) fn next_time(
        &mut self,
        sc: &Scenario,
        live: impl Fn(JobId, u32) -> bool,
    ) -> Option<Ms> {
        while let Some(Reverse(p)) = self.timers.peek() {
            if live(p.job, p.epoch) {
                break;
            }
            self.timers.pop();
        }
        let timer = self.timers.peek().map(|Reverse(p)| p.at);
        [
            timer,
            self.submissions.at(|j| sc.jobs[j.index()].submit),
            self.timed.at(|e| sc.events[e].at),
            self.escalations.at(|e| e.0),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The next timer due at `t` (in kind order, then the order they were set), with the
    /// job epoch it was set at: the caller skips it when stale.
    pub(super) fn timer_at(&mut self, t: Ms) -> Option<(Timer, JobId, u32)> {
        let Reverse(p) = self.timers.peek()?;
        if p.at != t {
            return None;
        }
        let p = *p;
        self.timers.pop();
        Some((p.kind, p.job, p.epoch))
    }

    /// The next job submitted at `t`, in file order.
    pub(super) fn submission_at(&mut self, sc: &Scenario, t: Ms) -> Option<JobId> {
        self.submissions.take_at(t, |j| sc.jobs[j.index()].submit)
    }

    /// The next timed event (its index in `Scenario::events`) at `t`, in file order.
    pub(super) fn timed_at(&mut self, sc: &Scenario, t: Ms) -> Option<usize> {
        self.timed.take_at(t, |e| sc.events[e].at)
    }

    /// The next SPEC 14 escalation at `t`: the job and its new priority.
    pub(super) fn escalation_at(&mut self, t: Ms) -> Option<(JobId, Priority)> {
        self.escalations.take_at(t, |e| e.0).map(|(_, j, p)| (j, p))
    }
}
