//! Fair sharing in the Kueue model (SPEC 12; Kueue `pkg/cache/scheduler/fair_sharing.go`,
//! `pkg/scheduler/preemption/preemption.go` `fairPreemptions`, `runFirstFsStrategy`,
//! `runSecondFsStrategy`, `pkg/scheduler/preemption/fairsharing/{ordering,target,strategy,
//! least_common_ancestor}.go`, `pkg/scheduler/fair_sharing_iterator.go`).
//!
//! All arithmetic is exact integer arithmetic: a dominant resource share is kept as a
//! fraction and compared by cross-multiplication (Kueue uses floats; the order is the same
//! wherever floats are exact).

use std::cmp::{Ordering, Reverse};
use std::collections::VecDeque;

use crate::input::model::{FsStrategy, Priority, ReclaimPolicy, WithinShare};
use crate::simulation::preemption::Victim;
use crate::simulation::quota_tree::{Node, QuotaTree};
use crate::simulation::share_value::ShareValue;
use crate::simulation::{Cause, JobId, Sim};

use super::kueue::{fill_back, Candidate, Trial, Variant};

/// A dominant resource share (SPEC 12; Kueue `DRS`, fair_sharing.go): the largest over
/// types of `borrowed x 1000 / lendable` (kept as the fraction `num / den`), divided by the
/// node's weight (thousandths). A weight of 0 while borrowing is infinite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drs {
    /// Usage exceeds the subtree quota on some type.
    pub borrowing: bool,
    /// The unweighted ratio `borrowed x 1000 / lendable` as a fraction (`den` > 0).
    pub num: u128,
    pub den: u128,
    /// The node's weight in thousandths.
    pub weight: u64,
}

impl Drs {
    /// The share of the root, or of a node borrowing nothing.
    pub const ZERO: Drs = Drs {
        borrowing: false,
        num: 0,
        den: 1,
        weight: 1000,
    };

    /// Kueue `ZeroWeightBorrows`: weight 0 while borrowing, an infinite share.
    pub fn infinite(&self) -> bool {
        self.weight == 0 && self.borrowing
    }

    /// The weighted share as a fraction: `num x 1000 / (den x weight)` (0 when the ratio is).
    fn weighted(&self) -> (u128, u128) {
        if self.num == 0 {
            (0, 1)
        } else {
            (self.num * 1000, self.den * self.weight as u128)
        }
    }

    /// Kueue `roundedWeightedShare`: the weighted share rounded up, or infinite.
    pub fn value(&self) -> ShareValue {
        if self.infinite() {
            return ShareValue::Infinite;
        }
        let (n, d) = self.weighted();
        ShareValue::Finite(n.div_ceil(d) as u64)
    }
}

/// Compares two fractions exactly.
fn cmp_frac(a: (u128, u128), b: (u128, u128)) -> Ordering {
    (a.0 * b.1).cmp(&(b.0 * a.1))
}

/// SPEC 12 / Kueue `CompareDRS` (fair_sharing.go): an infinite share is above every finite
/// one; two infinite shares compare by their unweighted ratios; else the weighted shares.
pub fn compare_drs(a: &Drs, b: &Drs) -> Ordering {
    match (a.infinite(), b.infinite()) {
        (true, true) => cmp_frac((a.num, a.den), (b.num, b.den)),
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => cmp_frac(a.weighted(), b.weighted()),
    }
}

/// SPEC 12 `fair_sharing.strategies` (Kueue fairsharing/strategy.go):
/// LessThanOrEqualToFinalShare is `pNew <= tNew`, LessThanInitialShare `pNew < tOld`.
pub fn strategy_allows(st: FsStrategy, p_new: &Drs, t_old: &Drs, t_new: &Drs) -> bool {
    match st {
        FsStrategy::LessThanOrEqualToFinalShare => compare_drs(p_new, t_new) != Ordering::Greater,
        FsStrategy::LessThanInitialShare => compare_drs(p_new, t_old) == Ordering::Less,
    }
}

/// How much of `v` instances added at `share` reaches `upto` (an ancestor or the share
/// itself), per Kueue `addUsage`: each node keeps what its unused private quota holds.
pub fn bubbled(tree: &QuotaTree, share: Node, v: u64, upto: Node) -> u64 {
    let (mut at, mut v) = (share, v);
    while at != upto {
        v = v.saturating_sub(tree.local_available(at));
        match tree.parent[at] {
            Some(p) => at = p,
            None => break,
        }
    }
    v
}

/// The fair-sharing target tournament (KUEUE.md "Precise points" 5; Kueue
/// fairsharing/ordering.go `TargetClusterQueueOrdering`): per-share candidate queues and
/// the shares and cohorts pruned so far.
struct Targets {
    queues: Vec<VecDeque<Candidate>>,
    pruned: Vec<bool>,
    on_path: Vec<bool>,
}

impl Sim<'_> {
    /// A node's fairness weight in thousandths (SPEC 12 `weight`).
    fn node_weight(&self, tree: &QuotaTree, node: Node) -> u64 {
        if node < tree.shares {
            self.cfg[node].kueue.weight
        } else {
            self.sc.cohorts[node - tree.shares].weight
        }
    }

    /// SPEC 12 dominant resource share of `node` (Kueue `dominantResourceShare`,
    /// fair_sharing.go): 0 at a root; else the largest over types of `borrowed x 1000 /
    /// lendable` with `borrowed = max(0, usage + extra - subtree)` and `lendable =
    /// potential(parent)`, divided by its weight. Type `t` is read from `tree_t` (a trial),
    /// with `extra` more usage at the node; the other types from the current trees.
    pub(crate) fn node_drs(&self, node: Node, t: usize, tree_t: &QuotaTree, extra: u64) -> Drs {
        let Some(parent) = tree_t.parent[node] else {
            return Drs {
                weight: self.node_weight(tree_t, node),
                ..Drs::ZERO
            };
        };
        let mut d = Drs {
            weight: self.node_weight(tree_t, node),
            ..Drs::ZERO
        };
        for u in 0..self.kueue.trees.len() {
            let tree = if u == t { tree_t } else { &self.kueue.trees[u] };
            let usage = tree.usage[node] + if u == t { extra } else { 0 };
            let borrowed = usage.saturating_sub(tree.subtree[node]);
            if borrowed == 0 {
                continue;
            }
            d.borrowing = true;
            let lendable = tree.potential(parent);
            if lendable > 0 {
                let r = (borrowed as u128 * 1000, lendable as u128);
                if cmp_frac(r, (d.num, d.den)) == Ordering::Greater {
                    (d.num, d.den) = r;
                }
            }
        }
        d
    }

    /// SPEC 12 fair-sharing candidate order (Kueue `CandidatesOrdering`, common/ordering.go):
    /// victims in their grace first (SPEC 12.1), other shares before the preemptor's own,
    /// lower priority, latest admission, job id.
    fn fs_candidate_key(
        &self,
        s: usize,
        c: &Candidate,
    ) -> (bool, bool, Priority, Reverse<u64>, u32) {
        let r = &self.jobs[c.job.index()];
        (
            !self.is_evicted(c.job),
            c.share == s,
            r.priority,
            Reverse(self.kueue.admitted_s[c.job.index()] as u64),
            self.kueue.uid_rank[c.job.index()],
        )
    }

    /// SPEC 12 fair-sharing candidates (Kueue `findCandidates`, preemption.go): with
    /// `within_share` not `never`, the preemptor's own jobs its policy allows; with `reclaim`
    /// not `never`, the jobs its policy allows of every other share of the whole tree that
    /// borrows the type. `borrow_within_cohort` is ignored (Precise point 8).
    fn fs_candidates(&self, j: JobId) -> Vec<Candidate> {
        let spec = &self.sc.jobs[j.index()];
        let (s, t) = (spec.share(), spec.instance_type());
        let tree = &self.kueue.trees[t];
        let p = &self.cfg[s].kueue.preemption;
        let mut out = Vec::new();
        let push = |o: usize, out: &mut Vec<Candidate>, variant: Variant| {
            let rt = &self.rt[o];
            for k in rt.evicted[t].iter().chain(&rt.admitted[t]) {
                if self.policy_allows(j, k.job) && !self.kueue.swapped.contains(&k.job) {
                    out.push(Candidate {
                        job: k.job,
                        share: o,
                        instances: self.sc.jobs[k.job.index()].instances(),
                        variant,
                        lca: None,
                    });
                }
            }
        };
        if p.within_share != WithinShare::Never {
            push(s, &mut out, Variant::WithinShare);
        }
        if tree.parent[s].is_some() && p.reclaim != ReclaimPolicy::Never {
            let root = tree.root(s);
            for o in 0..tree.shares {
                if o != s && tree.borrowing_with(o, 0) && tree.root(o) == root {
                    push(o, &mut out, Variant::ReclaimWithoutBorrowing);
                }
            }
        }
        out.sort_by_key(|c| self.fs_candidate_key(s, c));
        out
    }

    /// Builds the target tournament over `candidates` for preemptor share `s` (Kueue
    /// `MakeClusterQueueOrdering`).
    fn fs_targets(&self, s: usize, t: usize, candidates: &[Candidate]) -> Targets {
        let tree = &self.kueue.trees[t];
        let n = tree.parent.len();
        let mut queues = vec![VecDeque::new(); tree.shares];
        for c in candidates {
            queues[c.share].push_back(*c);
        }
        let mut on_path = vec![false; n];
        for a in tree.ancestors(s) {
            on_path[a] = true;
        }
        Targets {
            queues,
            pruned: vec![false; n],
            on_path,
        }
    }

    /// Kueue `nextTarget` (fairsharing/ordering.go), KUEUE.md "Precise points" 5: among
    /// `cohort`'s child shares, those not borrowing (other than the preemptor's) and those
    /// without candidates drop out; among its child cohorts, those not borrowing and not on
    /// the preemptor's path drop out; the highest dominant share wins (a cohort beats a share
    /// on a tie, tied shares compare their first candidates, the last of tied cohorts in the
    /// scenario's order wins); a winning cohort is entered.
    /// `None`: this call only pruned.
    fn fs_next_target(
        &self,
        s: usize,
        t: usize,
        trial: &Trial,
        tg: &mut Targets,
        cohort: Node,
    ) -> Option<usize> {
        let tree = &trial.tree;
        let mut best_share: Option<(usize, Drs)> = None;
        for &o in &tree.child_shares[cohort] {
            if tg.pruned[o] {
                continue;
            }
            let d = self.node_drs(o, t, tree, 0);
            if (!d.borrowing && o != s) || tg.queues[o].is_empty() {
                tg.pruned[o] = true;
                continue;
            }
            let better = match &best_share {
                None => true,
                Some((b, bd)) => match compare_drs(&d, bd) {
                    Ordering::Greater => true,
                    Ordering::Less => false,
                    Ordering::Equal => {
                        self.fs_candidate_key(s, &tg.queues[o][0])
                            < self.fs_candidate_key(s, &tg.queues[*b][0])
                    }
                },
            };
            if better {
                best_share = Some((o, d));
            }
        }
        let mut best_cohort: Option<(Node, Drs)> = None;
        for &c in &tree.child_cohorts[cohort] {
            if tg.pruned[c] {
                continue;
            }
            let d = self.node_drs(c, t, tree, 0);
            if !d.borrowing && !tg.on_path[c] {
                tg.pruned[c] = true;
                continue;
            }
            // Kueue's `>=`: of cohorts of equal share the last wins. Kueue lists them from a
            // Go set (`ChildCohorts`), whose iteration follows the order the cohorts joined
            // their parent in about 7 of 8 runs (a small map starts at a random one of 8
            // slots); the engine takes that order, the scenario's.
            if best_cohort
                .as_ref()
                .is_none_or(|(_, bd)| compare_drs(&d, bd) != Ordering::Less)
            {
                best_cohort = Some((c, d));
            }
        }
        match (best_share, best_cohort) {
            (None, None) => {
                tg.pruned[cohort] = true;
                None
            }
            (Some((o, _)), None) => Some(o),
            (None, Some((c, _))) => self.fs_next_target(s, t, trial, tg, c),
            (Some((o, od)), Some((c, cd))) => {
                if compare_drs(&cd, &od) != Ordering::Less {
                    self.fs_next_target(s, t, trial, tg, c)
                } else {
                    Some(o)
                }
            }
        }
    }

    /// Kueue `TargetClusterQueueOrdering.Iter`: the next target, chosen again from the root
    /// after every removal; a share alone targets only itself.
    fn fs_iter_next(&self, s: usize, t: usize, trial: &Trial, tg: &mut Targets) -> Option<usize> {
        let tree = &trial.tree;
        if tree.parent[s].is_none() {
            return (!tg.queues[s].is_empty()).then_some(s);
        }
        let root = tree.root(s);
        while !tg.pruned[root] {
            if let Some(o) = self.fs_next_target(s, t, trial, tg, root) {
                return Some(o);
            }
        }
        None
    }

    /// Kueue `ComputeShares` (fairsharing/target.go, least_common_ancestor.go): the
    /// dominant shares of the preemptor's and the target's child of their lowest common
    /// ancestor (`almostLCA`), on the trial (which holds the incoming job).
    fn fs_shares(&self, s: usize, o: usize, t: usize, tree: &QuotaTree) -> (Drs, Drs, Node) {
        let lca = tree.lca(s, o).unwrap_or(s);
        let (ps, ts) = (tree.child_towards(s, lca), tree.child_towards(o, lca));
        (
            self.node_drs(ps, t, tree, 0),
            self.node_drs(ts, t, tree, 0),
            ts,
        )
    }

    /// Kueue `workloadFitsForFairSharing`: the incoming job (held in the trial) fits once
    /// its own instances are taken back out.
    fn fs_fits(&self, trial: &mut Trial, s: usize, t: usize, n: u64) -> bool {
        trial.tree.remove_usage(s, n);
        let fits = self.tree_fits(trial, s, t, n);
        trial.tree.add_usage(s, n);
        fits
    }

    /// SPEC 12 fair-sharing preemption (KUEUE.md 2.5, "Precise points" 5-8; Kueue
    /// preemption.go `fairPreemptions`): the incoming job's usage is simulated; the first
    /// strategy walks targets ([`Sim::fs_first_strategy`]); the second, when configured,
    /// runs over the first one's rejects ([`Sim::fs_second_strategy`]); on success the
    /// minimal set is filled back with borrowing allowed.
    pub(crate) fn fair_victims(&self, j: JobId) -> Option<Vec<Victim>> {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let strategies = &self.sc.fair_sharing.as_ref()?.strategies;
        let candidates = self.fs_candidates(j);
        if candidates.is_empty() {
            return None;
        }
        let mut trial = self.trial(t);
        trial.tree.add_usage(s, n);
        let mut chosen: Vec<(Candidate, Victim)> = Vec::new();
        let first = *strategies.first()?;
        let (mut fits, retry) =
            self.fs_first_strategy(s, t, n, first, &candidates, &mut trial, &mut chosen);
        if !fits && strategies.len() > 1 {
            fits = self.fs_second_strategy(s, t, n, &retry, &mut trial, &mut chosen);
        }
        if !fits {
            return None;
        }
        trial.tree.remove_usage(s, n);
        fill_back(
            &mut trial,
            &mut chosen,
            |c| c.0,
            |tr| self.tree_fits(tr, s, t, n),
        );
        Some(chosen.into_iter().map(|(_, v)| v).collect())
    }

    /// Kueue `runFirstFsStrategy` (preemption.go), KUEUE.md "Precise points" 5-7: the
    /// preemptor's own share yields in-share victims; a preemptor within its limit after
    /// admission (`FairSharingPreemptWithinNominal`) takes candidates in target order without
    /// the strategy test (cause `reclaim`); else each target's candidates are tried in order
    /// against the strategy, the first accepted one removed and the target chosen again; an
    /// infinite preemptor skips finite targets. Returns whether J fits and the rejects.
    #[allow(clippy::too_many_arguments)]
    fn fs_first_strategy(
        &self,
        s: usize,
        t: usize,
        n: u64,
        strategy: FsStrategy,
        candidates: &[Candidate],
        trial: &mut Trial,
        chosen: &mut Vec<(Candidate, Victim)>,
    ) -> (bool, Vec<Candidate>) {
        let mut tg = self.fs_targets(s, t, candidates);
        let mut retry = Vec::new();
        let within_nominal = trial.tree.usage[s] <= trial.tree.quota[s];
        while let Some(o) = self.fs_iter_next(s, t, trial, &mut tg) {
            if o == s || within_nominal {
                let c = tg.queues[o].pop_front().expect("a target has candidates");
                let cause = if o == s {
                    Cause::InShare
                } else {
                    Cause::Reclaim
                };
                take(trial, chosen, c, cause, None);
                if self.fs_fits(trial, s, t, n) {
                    return (true, retry);
                }
                continue;
            }
            let (p_new, t_old, ta) = self.fs_shares(s, o, t, &trial.tree);
            if p_new.infinite() && !t_old.infinite() {
                retry.extend(tg.queues[o].drain(..));
                continue;
            }
            while let Some(c) = tg.queues[o].pop_front() {
                trial.tree.remove_usage(c.share, c.instances);
                let t_new = self.node_drs(ta, t, &trial.tree, 0);
                trial.tree.add_usage(c.share, c.instances);
                if strategy_allows(strategy, &p_new, &t_old, &t_new) {
                    // The target's share the strategy compared with (SPEC 12 explain).
                    let compared = match strategy {
                        FsStrategy::LessThanOrEqualToFinalShare => &t_new,
                        FsStrategy::LessThanInitialShare => &t_old,
                    };
                    let shares = Some([p_new.value(), compared.value()]);
                    take(trial, chosen, c, Cause::FairSharing(strategy), shares);
                    if self.fs_fits(trial, s, t, n) {
                        return (true, retry);
                    }
                    break;
                }
                retry.push(c);
            }
        }
        (false, retry)
    }

    /// Kueue `runSecondFsStrategy` (preemption.go), KUEUE.md "Precise points" 6: over the
    /// first strategy's rejects only, LessThanInitialShare, one candidate per share.
    fn fs_second_strategy(
        &self,
        s: usize,
        t: usize,
        n: u64,
        retry: &[Candidate],
        trial: &mut Trial,
        chosen: &mut Vec<(Candidate, Victim)>,
    ) -> bool {
        let mut tg = self.fs_targets(s, t, retry);
        while let Some(o) = self.fs_iter_next(s, t, trial, &mut tg) {
            let (p_new, t_old, _) = self.fs_shares(s, o, t, &trial.tree);
            if compare_drs(&p_new, &t_old) == Ordering::Less {
                let c = tg.queues[o].pop_front().expect("a target has candidates");
                let shares = Some([p_new.value(), t_old.value()]);
                let why = Cause::FairSharing(FsStrategy::LessThanInitialShare);
                take(trial, chosen, c, why, shares);
                if self.fs_fits(trial, s, t, n) {
                    return true;
                }
            }
            tg.pruned[o] = true; // Kueue DropQueue
        }
        false
    }
}

/// Removes candidate `c` from the trial and records it as a victim with `cause`.
fn take(
    trial: &mut Trial,
    chosen: &mut Vec<(Candidate, Victim)>,
    c: Candidate,
    cause: Cause,
    shares: Option<[ShareValue; 2]>,
) {
    trial.tree.remove_usage(c.share, c.instances);
    trial.sum_used -= c.instances;
    let v = Victim {
        job: c.job,
        share: c.share,
        instances: c.instances,
        cause,
        shares,
    };
    chosen.push((c, v));
}
