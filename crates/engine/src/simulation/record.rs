//! What a run records as it goes: the change-point series, the integrals behind
//! `instance_hours` (per share and type, and per cohort and type in the Kueue model) and
//! each share's SPEC 14 counts.

use std::collections::BTreeMap;

use crate::input::model::*;

use super::job::{Acc, AccTotals, Event, JobId};

use super::share_value::ShareValue;

/// A share's preemptions by cause (SPEC 5 and 12) and its SPEC 14 counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShareCounts {
    /// SPEC 5: preemptions of this share's jobs by cause.
    pub reclaims: u64,
    pub in_share: u64,
    /// SPEC 12: preemptions of this share's jobs with cause `reclaim_while_borrowing` and
    /// `fair_sharing` (Kueue model only).
    pub reclaims_while_borrowing: u64,
    pub fair_sharing: u64,
    /// SPEC 12.1 (Kueue model): times a preemptor of this share saw its victims gone and
    /// the quota they freed taken by another workload before it was admitted.
    pub taken_while_waiting: u64,
    /// SPEC 12.1 (Kueue model): times a job of this share preempted and waited for its
    /// victims to release their quota.
    pub preemptor_waits: u64,
    /// SPEC 14 counts.
    pub recovery: RecoveryCounts,
}

/// SPEC 14 counts of one share (the `recovery` and `policy` blocks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecoveryCounts {
    /// Preemptions of jobs holding instances (STARTING or RUNNING).
    pub interruptions: u64,
    pub restores: u64,
    pub restore_failures: u64,
    pub invalid_resumes: u64,
    pub retries_exhausted: u64,
    pub resubmitted: u64,
    pub alarms: u64,
    /// `set_priority` events of the share's jobs (escalations included).
    pub priority_overrides: u64,
    /// `update_share` events of the share.
    pub allocation_changes: u64,
}

/// A share and an instance type: a row of the series.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pair {
    pub share: ShareIx,
    pub ty: TypeIx,
}

/// Change points per (share, type) and the integrals behind `instance_hours`.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// The (share, type) pairs the series has a row of each, in order.
    pub pairs: Vec<Pair>,
    /// The change points: a time at which some pair's values changed.
    pub t: Vec<Ms>,
    /// Per pair, its values at the change points where they changed (the index into `t`,
    /// ascending, the first 0): most change points change one or two pairs of many, so
    /// each pair keeps only its own changes ([`Series::values`] reads them at every point).
    pub(super) changes: Vec<Vec<(u32, PairValues)>>,
    /// SPEC 12 results (Kueue model only; empty otherwise).
    pub kueue: KueueSeries,
}

impl Series {
    /// Pair `i`'s values at every change point, in the order of [`Series::t`].
    pub fn values(&self, i: usize) -> impl Iterator<Item = PairValues> + '_ {
        let changes = &self.changes[i];
        let mut next = 0;
        let mut now = PairValues::default();
        (0..self.t.len()).map(move |k| {
            while let Some(&(at, v)) = changes.get(next) {
                if at as usize > k {
                    break;
                }
                now = v;
                next += 1;
            }
            now
        })
    }

    /// The fewest and the most instances pair `i` had in use at once (own + borrowed), over
    /// every change point (and the run's start, before its first).
    pub fn used_range(&self, i: usize) -> (u64, u64) {
        let changes = &self.changes[i];
        let start = match changes.first() {
            Some(&(0, _)) => None,
            _ => Some(0),
        };
        let used = changes.iter().map(|(_, v)| v.own + v.borrowed).chain(start);
        used.fold(None, |r: Option<(u64, u64)>, u| {
            Some(r.map_or((u, u), |(lo, hi)| (lo.min(u), hi.max(u))))
        })
        .unwrap_or((0, 0))
    }

    /// The most instances pair `i` borrowed at once, over every change point.
    pub fn borrowed_peak(&self, i: usize) -> u64 {
        self.changes[i]
            .iter()
            .map(|(_, v)| v.borrowed)
            .max()
            .unwrap_or(0)
    }
}

/// SPEC 12 results over time (Kueue model): each node's dominant resource share (shares
/// then cohorts), and per (cohort, type) its subtree quota, usage, borrowed and lent
/// instances, with the same change points `t` as the share series.
#[derive(Clone, Debug, Default)]
pub struct KueueSeries {
    /// Per node (shares, then cohorts).
    pub dominant_share: Vec<Vec<ShareValue>>,
    /// Per cohort and type, index `cohort * types + type`.
    pub quota: Vec<Vec<u64>>,
    pub usage: Vec<Vec<u64>>,
    pub borrowed: Vec<Vec<u64>>,
    pub lent: Vec<Vec<f64>>,
}

/// SPEC 12 results now (Kueue model): the values the series and integrals are built of.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct KueueNow {
    pub(super) dominant_share: Vec<ShareValue>,
    /// Per cohort and type: (quota, usage, borrowed, lent).
    pub(super) cohort: Vec<(u64, u64, u64, f64)>,
}

/// Integrals over time per (cohort, type), in instance-ms (Kueue model).
#[derive(Clone, Debug, Default)]
pub struct CohortIntegrals {
    pub quota: Vec<u128>,
    pub borrowed: Vec<u128>,
    pub lent: Vec<f64>,
}

/// Integrals over time per (share, type) pair, in instance-ms.
#[derive(Clone, Copy, Debug, Default)]
pub struct Integrals {
    pub entitled: u128,
    pub own: u128,
    pub borrowed: u128,
    pub lent: f64,
}

/// A pair's values (SPEC 1, 8): limit, own, borrowed, lent and queued instances.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairValues {
    pub limit: u64,
    pub own: u64,
    pub borrowed: u64,
    pub lent: f64,
    pub queued: u64,
}

impl PairValues {
    /// The same values, bit for bit (a change point records a pair whose values are not).
    pub(super) fn same(&self, o: &PairValues) -> bool {
        (
            self.limit,
            self.own,
            self.borrowed,
            self.lent.to_bits(),
            self.queued,
        ) == (o.limit, o.own, o.borrowed, o.lent.to_bits(), o.queued)
    }
}

/// SPEC 6 and 14 books of a run: what each job's held time went to and each share's
/// counts, added to as the run goes (see [`super::Sim::accrue`]).
#[derive(Clone, Debug, Default)]
pub(super) struct Books {
    /// SPEC 6: each job's [`Acc`], kept only when per-job output is recorded (events or
    /// series) or some job has a continuation (merging moves it, SPEC 14); else empty.
    pub(super) acc: Vec<Acc>,
    /// SPEC 6: per share, its jobs' [`Acc`] times their instances.
    pub(super) acc_totals: Vec<AccTotals>,
    /// Per share, its preemptions by cause and SPEC 14 counts.
    pub(super) counts: Vec<ShareCounts>,
    /// SPEC 14 `wait_after_interruption_s`: per share, its `requeue to next start` samples.
    pub(super) waits_after_interruption: Vec<Vec<Ms>>,
    /// SPEC 14 `invalid_resume`: the jobs whose resume was corrupt, each with the saved
    /// progress it resumed from (found when the work completes). Few jobs ever are, so
    /// they are kept here, not in every [`super::JobRt`].
    pub(super) corrupt: BTreeMap<JobId, Ms>,
    /// SPEC 14: each job's continuation in its `resubmit` share, if it has one (empty when
    /// no job has one: read it with `get`).
    pub(super) continuation: Vec<Option<JobId>>,
}

impl Books {
    /// SPEC 6: books `d` (ms of one instance) into job `j`'s held instance-time split: into
    /// its share's totals (times its `instances`) and, when kept, its own [`Acc`]. The one
    /// place the split grows.
    pub(super) fn accrue(&mut self, j: JobId, share: usize, instances: u64, d: Acc) {
        self.acc_totals[share].add(&d, instances);
        if let Some(a) = self.acc.get_mut(j.index()) {
            *a += &d;
        }
    }
}

/// What a run records as it goes (series.rs keeps it): the event log, the change-point
/// series and the integrals, with the values they are built of now.
#[derive(Clone, Debug, Default)]
pub(super) struct Recording {
    pub(super) events: Vec<Event>,
    /// Events that happened (recorded or not).
    pub(super) event_count: u64,
    /// Admissions the passes made.
    pub(super) steps: u64,
    /// Kueue model: the scheduling cycles walked one by one, and those done at once
    /// (`Sim::skip_quiet_cycles`).
    pub(super) cycles: (u64, u64),
    /// Kueue model: the heads of drained shares set aside by counting
    /// (`simulation::drained`).
    pub(super) drained: u64,
    pub(super) series: Series,
    /// Per pair, its values' integrals over time; complete once the run is finished
    /// ([`super::Sim::finish`]): during the run the integer ones lag to each value's last
    /// change.
    pub(super) integrals: Vec<Integrals>,
    /// SPEC 12 results now and their integrals per (cohort, type) (Kueue model).
    pub(super) kueue_now: KueueNow,
    pub(super) cohort_integrals: CohortIntegrals,
    /// Per pair, its values now.
    pub(super) now_vals: Vec<PairValues>,
    /// The pairs whose `lent` is not 0 now, in order (the ones `integrate_to` adds to).
    pub(super) lending: Vec<usize>,
    /// Per pair: the time up to which its integer values are in `integrals` (see
    /// `Sim::settle_pair`).
    pub(super) settled_at: Vec<Ms>,
    /// The last instant integrated to.
    pub(super) last_t: Ms,
    /// (usage epoch, sum of share versions) when the values were last computed.
    pub(super) values_at: Option<(u64, u64)>,
    /// `record_values`' (lent, idle) per type at its last call, and whether they moved
    /// then.
    pub(super) scratch_lent: Vec<((u64, u64), bool)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pair keeps only its changes; read back, it has a value at every change point: the
    /// last one it changed to at or before that point.
    #[test]
    fn a_pair_s_changes_read_back_at_every_point() {
        let at = |own: u64, queued: u64| PairValues {
            limit: 4,
            own,
            queued,
            ..PairValues::default()
        };
        let series = Series {
            t: vec![0, 10, 20, 30, 40],
            changes: vec![
                vec![(0, at(0, 1)), (2, at(2, 0)), (4, at(1, 0))],
                vec![(0, at(0, 0))],
            ],
            ..Series::default()
        };
        let own = |i| series.values(i).map(|v| v.own).collect::<Vec<_>>();
        assert_eq!(own(0), [0, 0, 2, 2, 1]);
        assert_eq!(own(1), [0, 0, 0, 0, 0]);
        assert_eq!(
            series.values(0).map(|v| v.queued).collect::<Vec<_>>(),
            [1, 1, 0, 0, 0]
        );
        assert_eq!(series.borrowed_peak(0), 0);
    }
}
