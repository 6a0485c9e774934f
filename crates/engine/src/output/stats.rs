//! Statistics of a finished run (SPEC 8 metrics): job counts, waits and completions as
//! percentiles, and the held instance-time split into useful, lost, startup, checkpoint and
//! grace, per share and in total.

use crate::input::model::Ms;
use crate::simulation::{Finished, Reason, State};

/// `mean, p50, p90, p99, max` of a set of durations, in seconds (SPEC 8). Percentiles are
/// nearest-rank; all 0 for an empty set.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Percentiles {
    pub n: u64,
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Percentiles {
    pub fn of(mut ms: Vec<Ms>) -> Percentiles {
        ms.sort_unstable();
        Percentiles::of_sorted(&ms)
    }

    /// [`Percentiles::of`] a set already sorted.
    pub fn of_sorted(ms: &[Ms]) -> Percentiles {
        if ms.is_empty() {
            return Percentiles::default();
        }
        let n = ms.len();
        let rank = |p: u64| ms[nearest_rank(p, n)] as f64 / 1000.0;
        let sum: i128 = ms.iter().map(|&x| x as i128).sum();
        Percentiles {
            n: n as u64,
            mean: sum as f64 / n as f64 / 1000.0,
            p50: rank(50),
            p90: rank(90),
            p99: rank(99),
            max: ms[n - 1] as f64 / 1000.0,
        }
    }
}

/// [`Percentiles::of`] the union of sorted `runs`, without building it: each rank is found
/// by a binary search on the value (the same values as of their concatenation, sorted).
fn of_sorted_runs(runs: &[&[Ms]]) -> Percentiles {
    let n: usize = runs.iter().map(|r| r.len()).sum();
    if n == 0 {
        return Percentiles::default();
    }
    let sum: i128 = runs.iter().flat_map(|r| r.iter()).map(|&x| x as i128).sum();
    let min = runs.iter().filter_map(|r| r.first()).copied().min();
    let max = runs.iter().filter_map(|r| r.last()).copied().max();
    let range = (min.unwrap_or(0), max.unwrap_or(0));
    let got = [50, 90, 99].map(|p| kth_of_sorted_runs(runs, nearest_rank(p, n), range));
    let max = range.1;
    Percentiles {
        n: n as u64,
        mean: sum as f64 / n as f64 / 1000.0,
        p50: got[0] as f64 / 1000.0,
        p90: got[1] as f64 / 1000.0,
        p99: got[2] as f64 / 1000.0,
        max: max as f64 / 1000.0,
    }
}

/// The `k`th smallest value (from 0) of the union of sorted `runs`, which hold more than
/// `k` values, all within `(lo, hi)` inclusive: the least `v` with more than `k` values at
/// most `v`.
fn kth_of_sorted_runs(runs: &[&[Ms]], k: usize, (mut lo, mut hi): (Ms, Ms)) -> Ms {
    let at_most = |v: Ms| -> usize { runs.iter().map(|r| r.partition_point(|&x| x <= v)).sum() };
    while lo < hi {
        let mid = ((lo as i128 + hi as i128).div_euclid(2)) as Ms;
        if at_most(mid) > k {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Samples of every share in one vector, grouped by share and sorted within each: counted
/// first, so that a million samples take their size once (no growth slack, and no second
/// copy for the total, whose percentiles merge the shares').
struct BySample {
    values: Vec<Ms>,
    /// Share `s`'s samples are `values[starts[s]..starts[s + 1]]`.
    starts: Vec<usize>,
}

impl BySample {
    /// `samples()` yields `(share, value)`, the same every time it is called.
    fn new<I: Iterator<Item = (usize, Ms)>>(nshares: usize, samples: impl Fn() -> I) -> BySample {
        let mut starts = vec![0usize; nshares + 1];
        for (s, _) in samples() {
            starts[s + 1] += 1;
        }
        for s in 0..nshares {
            starts[s + 1] += starts[s];
        }
        let mut next = starts.clone();
        let mut values = vec![0; starts[nshares]];
        for (s, v) in samples() {
            values[next[s]] = v;
            next[s] += 1;
        }
        for s in 0..nshares {
            values[starts[s]..starts[s + 1]].sort_unstable();
        }
        BySample { values, starts }
    }
    /// Each share's percentiles and the total's, the samples dropped (a run's sample sets
    /// are reduced one after the other: a million jobs' peak memory holds one set, not all).
    fn percentiles(self) -> (Vec<Percentiles>, Percentiles) {
        let shares = (0..self.starts.len() - 1).map(|s| self.share(s)).collect();
        (shares, self.total())
    }
    fn share(&self, s: usize) -> Percentiles {
        Percentiles::of_sorted(&self.values[self.starts[s]..self.starts[s + 1]])
    }
    fn total(&self) -> Percentiles {
        let runs: Vec<&[Ms]> = self
            .starts
            .windows(2)
            .map(|w| &self.values[w[0]..w[1]])
            .collect();
        of_sorted_runs(&runs)
    }
}

/// The index of the `p`th percentile in a sorted set of `n > 0` values, nearest-rank (the
/// one percentile definition of the engine: results and sweep summaries alike).
pub fn nearest_rank(p: u64, n: usize) -> usize {
    ((p as usize * n).div_ceil(100)).clamp(1, n) - 1
}

/// Job counts (SPEC 8): `submitted = succeeded + failed + unfinished + rejected`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobCounts {
    pub submitted: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub unfinished: u64,
    pub rejected: u64,
    /// Unfinished jobs whose reason at `end_s` is `unschedulable`.
    pub unschedulable: u64,
}

/// Instance time in instance-milliseconds (exact); shown as instance-hours.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InstanceTime {
    pub entitled: u128,
    pub own: u128,
    pub borrowed: u128,
    /// A display metric, proportional split (SPEC 1): not an integer.
    pub lent: f64,
    pub held: u128,
    pub useful: u128,
    pub lost: u128,
    pub startup: u128,
    pub checkpoint: u128,
    pub grace: u128,
    /// SPEC 14: the part of `useful` made in borrowed runs.
    pub useful_borrowed: u128,
    /// SPEC 14 `restart_h`: the part of `startup` after a preemption.
    pub restart: u128,
}

impl InstanceTime {
    /// `entitled - own - lent` (SPEC 8).
    pub fn idle(&self) -> f64 {
        self.entitled as f64 - self.own as f64 - self.lent
    }
}

/// SPEC 8 metrics of one share (or of all shares).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub jobs: JobCounts,
    pub completion: Percentiles,
    pub wait: Percentiles,
    pub reclaim: u64,
    pub in_share: u64,
    /// SPEC 12 causes (Kueue model only; 0 otherwise).
    pub reclaim_while_borrowing: u64,
    pub fair_sharing: u64,
    /// SPEC 12.1 (Kueue model only): waits of preemptors for their victims, and those that
    /// ended with the freed quota taken by another workload first.
    pub preemptor_waits: u64,
    pub quota_taken_while_waiting: u64,
    pub time: InstanceTime,
    pub cost_usd: f64,
    /// What the share's entitlement costs whether it is used or not: entitled instance-hours
    /// × each type's price (not in the SPEC 8 result; shown beside `cost_usd`, which counts
    /// held instances only, so that an idle RESERVE share does not look free).
    pub reserved_usd: f64,
    pub deadline_misses: u64,
    /// SPEC 14 `recovery` and policy-stability counts.
    pub recovery: RecoveryStats,
}

/// SPEC 14 "recovery quality" of one share (or all): the `recovery` block, and the policy
/// stability counts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecoveryStats {
    pub counts: crate::simulation::RecoveryCounts,
    /// Requeue (or resubmission) to the next start, over the restarts that happened.
    pub wait_after_interruption: Percentiles,
    /// Jobs that SUCCEEDED or FAILED (REJECTED and unfinished ones have not ended).
    pub ended: u64,
    /// Jobs with a deadline that met it, and those whose deadline is decided (met or
    /// missed, as [`Stats::deadline_misses`] counts).
    pub deadline_met: u64,
    pub deadline_decided: u64,
    /// Jobs whose priority some `set_priority` (or escalation) raised.
    pub priority_raised: u64,
}

impl RecoveryStats {
    /// `succeeded / ended`; `None` when no job ended.
    pub fn success_rate(&self, succeeded: u64) -> Option<f64> {
        (self.ended > 0).then(|| succeeded as f64 / self.ended as f64)
    }
    /// Deadlines met over deadlines decided; `None` without any.
    pub fn deadline_met_rate(&self) -> Option<f64> {
        (self.deadline_decided > 0).then(|| self.deadline_met as f64 / self.deadline_decided as f64)
    }
}

impl Stats {
    /// `useful / held`; 0 when nothing was held.
    pub fn goodput(&self) -> f64 {
        if self.time.held == 0 {
            0.0
        } else {
            self.time.useful as f64 / self.time.held as f64
        }
    }
}

pub(crate) const MS_PER_HOUR: f64 = 3_600_000.0;

/// How one job ended a run: what two runs of the same jobs are compared on, job for job
/// (SPEC 9.1: "identical run for run"), and its completion for `matched`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobEnd {
    pub share: u32,
    pub state: State,
    pub submit: Ms,
    pub first_start: Option<Ms>,
    pub end: Option<Ms>,
}

impl JobEnd {
    /// Its share and completion time (end - submit) if it SUCCEEDED.
    pub fn completion(&self) -> Option<(u32, Ms)> {
        match (self.state, self.end) {
            (State::Succeeded, Some(end)) => Some((self.share, end - self.submit)),
            _ => None,
        }
    }
}

/// Per job (in scenario order), how it ended; `None` for a job not reported (submitted
/// after the horizon, or a SPEC 14 continuation, folded into its job).
pub fn job_ends(sim: &Finished) -> Vec<Option<JobEnd>> {
    sim.scenario()
        .jobs
        .iter()
        .zip(sim.jobs())
        .map(|(spec, r)| {
            (r.state != State::Pending && spec.resubmission_of.is_none()).then(|| JobEnd {
                share: r.share() as u32,
                state: r.state,
                submit: spec.submit,
                first_start: r.first_start.get(),
                end: r.end().get(),
            })
        })
        .collect()
}

/// Computes per-share and total metrics from a finished simulation.
pub fn stats(sim: &Finished) -> (Vec<Stats>, Stats) {
    let sc = sim.scenario();
    let nshares = sc.shares.len();
    let mut out = vec![Stats::default(); nshares];
    // Jobs reported (not submitted after the horizon, nor continuations, which are folded
    // into their job).
    let reported = || {
        sc.jobs
            .iter()
            .zip(sim.jobs())
            .filter(|(spec, r)| r.state != State::Pending && spec.resubmission_of.is_none())
    };
    let completion = BySample::new(nshares, || {
        reported().filter_map(|(spec, r)| match (r.state, r.end().get()) {
            (State::Succeeded, Some(end)) => Some((r.share(), end - spec.submit)),
            _ => None,
        })
    })
    .percentiles();
    let wait = BySample::new(nshares, || {
        reported().filter_map(|(spec, r)| Some((r.share(), r.first_start.get()? - spec.submit)))
    })
    .percentiles();
    let after = BySample::new(nshares, || {
        let per_share = sim.waits_after_interruption().iter().enumerate();
        per_share.flat_map(|(s, waits)| waits.iter().map(move |&w| (s, w)))
    })
    .percentiles();
    for (spec, r) in sc.jobs.iter().zip(sim.jobs()) {
        if r.state == State::Pending || spec.resubmission_of.is_some() {
            continue; // submitted after the horizon (or a continuation, folded into its job)
        }
        let share = r.share();
        let st = &mut out[share];
        st.jobs.submitted += 1;
        match r.state {
            State::Succeeded => st.jobs.succeeded += 1,
            State::Failed => st.jobs.failed += 1,
            State::Rejected => st.jobs.rejected += 1,
            _ => {
                st.jobs.unfinished += 1;
                if r.reason == Some(Reason::Unschedulable) {
                    st.jobs.unschedulable += 1;
                }
            }
        }
        let n = spec.instances() as u128;
        let t = &mut st.time;
        t.held += r.held as u128 * n;
        if matches!(r.state, State::Failed | State::Rejected) {
            // nothing kept
        } else {
            t.useful_borrowed += r.useful_borrowed as u128 * n;
        }
        let rc = &mut st.recovery;
        rc.ended += matches!(r.state, State::Succeeded | State::Failed) as u64;
        rc.priority_raised += r.raised() as u64;
        if spec.deadline.is_some() {
            let missed = missed_deadline(
                spec.deadline.get(),
                spec.submit,
                r.state,
                r.end().get(),
                sim.end(),
            );
            let met = r.state == State::Succeeded && !missed;
            rc.deadline_met += met as u64;
            rc.deadline_decided += (met || missed) as u64;
        }
        st.cost_usd += r.held as f64 * n as f64 / MS_PER_HOUR
            * sc.instance_types[spec.instance_type()].usd_per_hour;
        if missed_deadline(
            spec.deadline.get(),
            spec.submit,
            r.state,
            r.end().get(),
            sim.end(),
        ) {
            st.deadline_misses += 1;
        }
    }
    // SPEC 6: the rest of the split, summed per share as the run went (`Sim::accrue`).
    for (st, a) in out.iter_mut().zip(sim.acc_totals()) {
        let t = &mut st.time;
        t.useful += a.useful();
        t.lost += a.lost;
        t.startup += a.startup;
        t.checkpoint += a.checkpoint;
        t.grace += a.grace;
        t.restart += a.restart;
    }
    for (i, p) in sim.series().pairs.iter().enumerate() {
        let (s, ty) = (p.share.index(), p.ty.index());
        let g = sim.integrals()[i];
        out[s].reserved_usd += g.entitled as f64 / MS_PER_HOUR * sc.instance_types[ty].usd_per_hour;
        let t = &mut out[s].time;
        t.entitled += g.entitled;
        t.own += g.own;
        t.borrowed += g.borrowed;
        t.lent += g.lent;
    }
    let mut total = Stats::default();
    for (s, st) in out.iter_mut().enumerate() {
        st.completion = completion.0[s];
        st.wait = wait.0[s];
        st.reclaim = sim.counts()[s].reclaims;
        st.in_share = sim.counts()[s].in_share;
        st.reclaim_while_borrowing = sim.counts()[s].reclaims_while_borrowing;
        st.fair_sharing = sim.counts()[s].fair_sharing;
        st.preemptor_waits = sim.counts()[s].preemptor_waits;
        st.quota_taken_while_waiting = sim.counts()[s].taken_while_waiting;
        st.recovery.counts = sim.counts()[s].recovery;
        st.recovery.wait_after_interruption = after.0[s];
        add_recovery(&mut total.recovery, &st.recovery);
        total.jobs += &st.jobs;
        total.time += &st.time;
        total.reclaim += st.reclaim;
        total.in_share += st.in_share;
        total.reclaim_while_borrowing += st.reclaim_while_borrowing;
        total.fair_sharing += st.fair_sharing;
        total.preemptor_waits += st.preemptor_waits;
        total.quota_taken_while_waiting += st.quota_taken_while_waiting;
        total.cost_usd += st.cost_usd;
        total.reserved_usd += st.reserved_usd;
        total.deadline_misses += st.deadline_misses;
    }
    total.completion = completion.1;
    total.wait = wait.1;
    total.recovery.wait_after_interruption = after.1;
    (out, total)
}

/// Adds a share's SPEC 14 counts to the totals (the percentiles are computed apart).
fn add_recovery(a: &mut RecoveryStats, b: &RecoveryStats) {
    a.counts += &b.counts;
    a.ended += b.ended;
    a.deadline_met += b.deadline_met;
    a.deadline_decided += b.deadline_decided;
    a.priority_raised += b.priority_raised;
}

/// `a += &b` field by field, for the counts and times that add up over shares into the
/// totals (in share order: `lent` is a float).
macro_rules! add_fields {
    ($t:ty { $($f:ident),* $(,)? }) => {
        impl std::ops::AddAssign<&$t> for $t {
            fn add_assign(&mut self, b: &$t) {
                $(self.$f += b.$f;)*
            }
        }
    };
}

add_fields!(JobCounts {
    submitted,
    succeeded,
    failed,
    unfinished,
    rejected,
    unschedulable
});
add_fields!(InstanceTime {
    entitled,
    own,
    borrowed,
    lent,
    held,
    useful,
    lost,
    startup,
    checkpoint,
    grace,
    useful_borrowed,
    restart,
});
add_fields!(crate::simulation::RecoveryCounts {
    interruptions,
    restores,
    restore_failures,
    invalid_resumes,
    retries_exhausted,
    resubmitted,
    alarms,
    priority_overrides,
    allocation_changes,
});

/// SPEC 12 results of one cohort (Kueue model): its instance-hours of quota (subtree),
/// borrowed from its parent and lent to it, and the preemptions of the jobs of every share
/// below it by cause.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CohortStats {
    pub name: String,
    /// `root/research`, from the root down (SPEC 12 cohort paths).
    pub path: String,
    /// Instance-ms: subtree quota x time, borrowed and lent.
    pub quota: u128,
    pub borrowed: u128,
    pub lent: f64,
    pub reclaim: u64,
    pub in_share: u64,
    pub reclaim_while_borrowing: u64,
    pub fair_sharing: u64,
}

/// SPEC 12 results per cohort (Kueue model; empty otherwise), in scenario order.
pub fn cohort_stats(sim: &Finished) -> Vec<CohortStats> {
    let Some(tree) = sim.tree() else {
        return Vec::new();
    };
    let sc = sim.scenario();
    let share_names: Vec<&str> = sc.shares.iter().map(|s| s.name.as_str()).collect();
    let cohort_names: Vec<&str> = sc.cohorts.iter().map(|c| c.name.as_str()).collect();
    let types = sim.tree_types();
    let g = sim.cohort_integrals();
    let mut out: Vec<CohortStats> = (0..sc.cohorts.len())
        .map(|c| {
            let node = tree.shares + c;
            let mut st = CohortStats {
                name: sc.cohorts[c].name.clone(),
                path: tree.path_names(node, &share_names, &cohort_names),
                ..CohortStats::default()
            };
            for t in 0..types {
                let i = c * types + t;
                st.borrowed += g.borrowed.get(i).copied().unwrap_or(0);
                st.lent += g.lent.get(i).copied().unwrap_or(0.0);
                st.quota += g.quota.get(i).copied().unwrap_or(0);
            }
            st
        })
        .collect();
    for (s, r) in sim.counts().iter().enumerate() {
        for a in tree.ancestors(s) {
            let st = &mut out[a - tree.shares];
            st.reclaim += r.reclaims;
            st.in_share += r.in_share;
            st.reclaim_while_borrowing += r.reclaims_while_borrowing;
            st.fair_sharing += r.fair_sharing;
        }
    }
    out
}

/// A job misses its deadline (relative to submit) when it did not succeed by then: it
/// succeeded late, failed, was rejected, or is still unfinished past it at `end_s`.
pub(crate) fn missed_deadline(
    deadline: Option<Ms>,
    submit: Ms,
    state: State,
    end: Option<Ms>,
    run_end: Ms,
) -> bool {
    let Some(d) = deadline else { return false };
    let due = submit + d;
    match (state, end) {
        (State::Succeeded, Some(e)) => e > due,
        (State::Failed | State::Rejected, _) => true,
        _ => run_end > due,
    }
}

// ---- JSON -----------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    /// The percentiles of sorted runs equal those of their sorted concatenation: runs
    /// empty or not, values repeated within and across runs, every split of a few sets.
    #[test]
    fn sorted_runs_give_the_percentiles_of_their_union() {
        let mut x: u64 = 3;
        let mut checked = 0;
        for case in 0..400 {
            let runs_n = 1 + case % 7;
            let mut runs: Vec<Vec<Ms>> = Vec::new();
            for _ in 0..runs_n {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let len = (x >> 58) as usize; // 0 to 63
                let spread = [3, 1000, 1 << 40][case % 3];
                let mut run: Vec<Ms> = (0..len)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((x >> 20) % spread) as Ms
                    })
                    .collect();
                run.sort_unstable();
                runs.push(run);
            }
            let mut all: Vec<Ms> = runs.concat();
            all.sort_unstable();
            let slices: Vec<&[Ms]> = runs.iter().map(|r| r.as_slice()).collect();
            assert_eq!(
                of_sorted_runs(&slices),
                Percentiles::of_sorted(&all),
                "{runs:?}"
            );
            checked += usize::from(!all.is_empty());
        }
        assert!(checked > 300, "{checked} non-empty cases");
    }

    /// The total's percentiles, merged from the shares' sorted samples, are those of all
    /// samples sorted together.
    #[test]
    fn merged_runs_have_the_percentiles_of_their_union() {
        let mut x: u64 = 7;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as Ms % 5000
        };
        for sizes in [
            vec![],
            vec![0, 0],
            vec![1],
            vec![3, 0, 5],
            vec![100, 1, 37, 250, 0, 9],
        ] {
            let mut samples: Vec<(usize, Ms)> = sizes
                .iter()
                .enumerate()
                .flat_map(|(s, &n)| (0..n).map(move |_| s))
                .map(|s| (s, next()))
                .collect();
            samples.sort_by_key(|p| p.1); // the shares' samples interleaved
            let by = BySample::new(sizes.len(), || samples.iter().copied());
            let all: Vec<Ms> = samples.iter().map(|&(_, v)| v).collect();
            assert_eq!(by.total(), Percentiles::of(all));
            for s in 0..sizes.len() {
                let own: Vec<Ms> = samples.iter().filter(|p| p.0 == s).map(|p| p.1).collect();
                assert_eq!(by.share(s), Percentiles::of(own));
            }
        }
    }
}
