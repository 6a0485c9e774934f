//! A finished run (SPEC 6 "End of the run"): what the output stage reads. [`Sim::run`] and
//! [`Sim::finish`] turn the simulator into a [`Finished`] run; its methods give the
//! outcome (each job's record and time split, the event log, the series and integrals, each
//! share's counts) and nothing of the simulator's queues, caches or agenda.

use crate::input::model::{Ms, Scenario, Share};

use super::job::{Acc, AccTotals, Event, JobRt};
use super::quota_tree::QuotaTree;
use super::record::{CohortIntegrals, Integrals, Series, ShareCounts};
use super::state::Sim;

/// A run that has ended (see the module's documentation).
pub struct Finished<'a> {
    sim: Sim<'a>,
}

impl<'a> Finished<'a> {
    pub(super) fn new(sim: Sim<'a>) -> Finished<'a> {
        Finished { sim }
    }

    /// The scenario that ran.
    pub fn scenario(&self) -> &'a Scenario {
        self.sim.sc
    }

    /// The shares' configuration at the end (SPEC 4 `update_share` changes it).
    pub fn config(&self) -> &[Share] {
        &self.sim.cfg
    }

    /// SPEC 6 `end_s`: the horizon, or the last instant.
    pub fn end(&self) -> Ms {
        self.sim.end
    }

    /// Each job's record, in `Scenario::jobs` order.
    pub fn jobs(&self) -> &[JobRt] {
        &self.sim.jobs
    }

    /// SPEC 6: each job's held instance-time split, in `Scenario::jobs` order; kept only
    /// when the run recorded events or series, or some job has a continuation (else empty).
    pub fn acc(&self) -> &[Acc] {
        &self.sim.books.acc
    }

    /// SPEC 6: per share, its jobs' splits times their instances.
    pub fn acc_totals(&self) -> &[AccTotals] {
        &self.sim.books.acc_totals
    }

    /// SPEC 8: the event log (empty unless `Options::events`).
    pub fn events(&self) -> &[Event] {
        &self.sim.record.events
    }

    /// How many events happened, recorded or not.
    pub fn event_count(&self) -> u64 {
        self.sim.record.event_count
    }

    /// How many admissions the passes made (a measure of the work done).
    pub fn steps(&self) -> u64 {
        self.sim.record.steps
    }

    /// Kueue model: the scheduling cycles the passes walked one by one, and those they did
    /// at once because nothing would have changed in them but heads set aside (SPEC 12.1;
    /// `Options::exhaustive` walks them all).
    pub fn kueue_cycles(&self) -> (u64, u64) {
        self.sim.record.cycles
    }

    /// Kueue model: the heads of shares whose whole queue was known inert that a pass set
    /// aside by counting, without visiting the share (0 with `Options::exhaustive`).
    pub fn kueue_drained(&self) -> u64 {
        self.sim.record.drained
    }

    /// The change-point series (empty unless `Options::series`, but for its pairs).
    pub fn series(&self) -> &Series {
        &self.sim.record.series
    }

    /// Per series pair, its values' integrals over the whole run.
    pub fn integrals(&self) -> &[Integrals] {
        &self.sim.record.integrals
    }

    /// SPEC 12: per (cohort, type), the integrals over the run (Kueue model).
    pub fn cohort_integrals(&self) -> &CohortIntegrals {
        &self.sim.record.cohort_integrals
    }

    /// SPEC 6, bounded: `(first, again)` when the run stopped in a circle of preemptions
    /// (its state at `again` was its state at `first`, so it would repeat for ever).
    pub fn circle(&self) -> Option<(Ms, Ms)> {
        self.sim.circle.repeats
    }

    /// SPEC 12.1, Kueue model: the instants at which Kueue's cycles would never settle
    /// (a preemptor evicts a job that is admitted again before it, and so on, without
    /// end); the engine cut each off and went on. Empty in nearly every run.
    pub fn kueue_unsettled(&self) -> &[Ms] {
        &self.sim.kueue.unsettled
    }

    /// Per share, its preemption and SPEC 14 counts, in scenario order.
    pub fn counts(&self) -> &[ShareCounts] {
        &self.sim.books.counts
    }

    /// SPEC 14 `wait_after_interruption_s`: per share, its samples.
    pub fn waits_after_interruption(&self) -> &[Vec<Ms>] {
        &self.sim.books.waits_after_interruption
    }

    /// SPEC 12: the quota tree's shape (shares, cohorts, who holds whom) in the Kueue
    /// model; `None` in the AWS model.
    pub fn tree(&self) -> Option<&QuotaTree> {
        self.sim.kueue.trees.first()
    }

    /// How many instance types the Kueue model's trees cover (0 in the AWS model).
    pub fn tree_types(&self) -> usize {
        self.sim.kueue.trees.len()
    }
}
