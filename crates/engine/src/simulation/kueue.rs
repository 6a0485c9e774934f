//! The Kueue model's scheduling pass, admission and classical preemption (SPEC 12; Kueue
//! `pkg/scheduler/scheduler.go`, `pkg/scheduler/flavorassigner/flavorassigner.go`,
//! `pkg/scheduler/preemption/preemption.go`, `classical/candidate_generator.go`,
//! `classical/hierarchical_preemption.go`). Fair sharing is in [`super::fair_sharing`].
//!
//! Quota lives in one [`QuotaTree`] per instance type ([`Sim::trees`]), kept current by
//! admission and release (see `events.rs`). Instants, a job's life, grace, retries and the
//! event log are the AWS model's (SPEC 4, 6, 8).

use std::cmp::Reverse;

use crate::model::{Queueing, ReclaimPolicy, WithinShare};
use crate::preemption::Victim;
use crate::quota_tree::{Node, QuotaTree};
use crate::sim::{Cause, JobId, Reason, Sim};

/// The class of a preemption candidate (KUEUE.md "Precise points" 2; Kueue
/// `classical.preemptionVariant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    /// A job of the preemptor's own share (Kueue WithinCQ, reason InClusterQueue).
    WithinShare,
    /// The preemptor's subtree has hierarchical advantage (InCohortReclamation).
    Hierarchical,
    /// May be taken only if the preemptor ends within its limit (InCohortReclamation).
    ReclaimWithoutBorrowing,
    /// May be taken even while the preemptor borrows (InCohortReclaimWhileBorrowing).
    ReclaimWhileBorrowing,
}

impl Variant {
    /// SPEC 12: the preempt event's cause.
    pub(crate) fn cause(self) -> Cause {
        match self {
            Variant::WithinShare => Cause::InShare,
            Variant::Hierarchical | Variant::ReclaimWithoutBorrowing => Cause::Reclaim,
            Variant::ReclaimWhileBorrowing => Cause::ReclaimWhileBorrowing,
        }
    }
}

/// A preemption candidate: the job, its share, its size, its class and the lowest common
/// ancestor of its share and the preemptor's (for the validity test).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    pub job: JobId,
    pub share: usize,
    pub instances: u64,
    pub variant: Variant,
    pub lca: Option<Node>,
}

/// An offer in the Kueue model's order (SPEC 12 "Order of offers").
struct KOffer {
    /// Classical: not borrowing first, then higher priority, then earlier submit, then
    /// share order.
    key: (bool, Reverse<u32>, i64, usize),
    job: JobId,
    fits: bool,
    /// Share, type and size (the fair-sharing comparison).
    ask: (usize, usize, u64),
}

/// A trial state for one instance type: the tree and the quota used, victims removed.
#[derive(Clone)]
pub(crate) struct Trial {
    pub tree: QuotaTree,
    /// `sum of used(*,T)` plus what the pass reserved (SPEC 12 capacity condition).
    pub sum_used: u64,
}

impl Sim<'_> {
    /// SPEC 12 `queueing`, per share in the Kueue model (SPEC 2: per queue in the AWS one).
    pub(crate) fn strict_fifo(&self, s: usize) -> bool {
        let q = if self.sc.is_kueue() {
            self.cfg[s].kueue.queueing
        } else {
            self.sc.queueing
        };
        q == Queueing::StrictFifo
    }

    /// Builds the quota trees of the current configuration and usage (SPEC 12), after
    /// construction and after every `update_share`.
    pub(crate) fn rebuild_trees(&mut self) {
        if !self.sc.is_kueue() {
            return;
        }
        let types = self.sc.instance_types.len();
        self.trees = (0..types)
            .map(|t| {
                let mut tree = QuotaTree::new(&self.cfg, &self.sc.cohorts, t);
                for s in 0..self.cfg.len() {
                    let u = self.usage[t].used[s];
                    if u > 0 {
                        tree.add_usage(s, u);
                    }
                }
                tree
            })
            .collect();
    }

    /// The trial state of type `t` now.
    pub(crate) fn trial(&self, t: usize) -> Trial {
        Trial {
            tree: self.trees[t].clone(),
            sum_used: self.usage[t].sum_used + self.reserved_sum[t],
        }
    }

    /// SPEC 12: a job of share `s` needing `n` instances of type `t` fits when
    /// `n <= available(S,T)` and `sum of used(*,T) + n <= capacity(T)`.
    pub(crate) fn tree_fits(&self, trial: &Trial, s: usize, t: usize, n: u64) -> bool {
        (n as i128) <= trial.tree.available(s)
            && trial.sum_used.saturating_add(n) <= self.sc.capacity[t]
    }

    /// SPEC 12 "may preempt" (Kueue `fitsResourceQuota`, flavorassigner.go): only when
    /// `n <= potential(S,T)` and at least one holds: `n <= limit(S,T)`; a subtree below the
    /// root could hold it; `borrow_within_cohort` is not `never`; fair sharing is on and
    /// `reclaim` is not `never`.
    pub(crate) fn kueue_may_preempt(&self, s: usize, t: usize, n: u64) -> bool {
        let tree = &self.trees[t];
        let p = &self.cfg[s].kueue.preemption;
        n <= tree.potential(s)
            && (n <= tree.quota[s]
                || tree.fits_below_root(s, n)
                || p.borrow_within_cohort.lower_priority
                || (self.sc.fair_sharing.is_some() && p.reclaim != ReclaimPolicy::Never))
    }

    /// SPEC 12: an admission is borrowing when `used(S,T) + n > limit(S,T)` in a cohort
    /// (Kueue `assignment.Borrows()`; a share alone never borrows).
    fn offer_borrows(&self, s: usize, t: usize, n: u64) -> bool {
        let tree = &self.trees[t];
        tree.parent[s].is_some() && tree.borrowing_with(s, n)
    }

    /// SPEC 12 "Order of offers": share `s` offers its first RUNNABLE job that fits or may
    /// preempt (strict FIFO: its first job, or nothing). `passed` holds the (type, size)
    /// buckets of `s` already served without victims in this pass.
    fn kueue_offer(&self, s: usize, passed: &[(usize, usize, u64)]) -> Option<KOffer> {
        let strict = self.strict_fifo(s);
        for &head in &self.rt[s].heads {
            let j = head.3;
            let spec = &self.sc.jobs[j.index()];
            let (t, n) = (spec.instance_type, spec.instances);
            let skip = passed.contains(&(s, t, n));
            if !skip && crate::admission::has_limit(&self.cfg[s], t) {
                let fits = self.tree_fits(&self.trial(t), s, t, n);
                if fits || self.kueue_may_preempt(s, t, n) {
                    let key = (
                        self.offer_borrows(s, t, n),
                        Reverse(self.jobs[j.index()].priority),
                        spec.submit,
                        s,
                    );
                    return Some(KOffer {
                        key,
                        job: j,
                        fits,
                        ask: (s, t, n),
                    });
                }
            }
            if strict {
                return None;
            }
        }
        None
    }

    /// SPEC 12 / SPEC 4 "The pass" in the Kueue model: serve the first offer; admit it if
    /// it fits, else preempt its victims and admit it into the quota they release; a job
    /// that finds no victims keeps waiting (its share offers no other job of that type and
    /// size in this pass, strict FIFO none at all) and, unless its `reclaim` is `any`,
    /// reserves capacity until the end of the pass (Kueue
    /// `reserveCapacityForUnreclaimablePreempt`).
    pub(crate) fn kueue_pass(&mut self) {
        let shares = self.cfg.len();
        let mut passed: Vec<(usize, usize, u64)> = Vec::new();
        let mut blocked = vec![false; shares];
        let mut reservations: Vec<(usize, usize, u64)> = Vec::new();
        loop {
            let mut best: Option<KOffer> = None;
            for (s, _) in blocked.iter().enumerate().filter(|(_, b)| !**b) {
                if let Some(o) = self.kueue_offer(s, &passed) {
                    if best.as_ref().is_none_or(|b| self.offer_before(&o, b)) {
                        best = Some(o);
                    }
                }
            }
            let Some(offer) = best else { break };
            self.steps += 1;
            let j = offer.job;
            let spec = &self.sc.jobs[j.index()];
            let (s, t, n) = (spec.share, spec.instance_type, spec.instances);
            if offer.fits {
                self.admit(j);
                self.start_scheduled();
                continue;
            }
            match self.kueue_victims(j) {
                Some(victims) => {
                    for v in victims {
                        self.preempt_with(v.job, j, v.cause, v.shares);
                    }
                    self.admit(j);
                    self.start_scheduled();
                }
                None => {
                    passed.push((s, t, n));
                    if self.strict_fifo(s) {
                        blocked[s] = true;
                    }
                    if self.cfg[s].kueue.preemption.reclaim != ReclaimPolicy::Any {
                        let r = self.to_reserve(s, t, n);
                        if r > 0 {
                            self.trees[t].add_usage(s, r);
                            self.reserved_sum[t] += r;
                            reservations.push((s, t, r));
                        }
                    }
                }
            }
        }
        for (s, t, r) in reservations {
            self.trees[t].remove_usage(s, r);
            self.reserved_sum[t] -= r;
        }
    }

    /// SPEC 12 "Order of offers": classical key, or with fair sharing the comparison at the
    /// lowest common cohort ([`Sim::fs_offer_cmp`]).
    fn offer_before(&self, a: &KOffer, b: &KOffer) -> bool {
        let classical = a.key.cmp(&b.key);
        if self.sc.fair_sharing.is_none() {
            return classical.is_lt();
        }
        match self.fs_offer_cmp(a.ask, b.ask) {
            Some(fair) => fair
                .then((a.key.1, a.key.2, a.key.3).cmp(&(b.key.1, b.key.2, b.key.3)))
                .is_lt(),
            None => classical.is_lt(),
        }
    }

    /// Kueue `quotaResourcesToReserve` (scheduler.go): a borrowing request reserves all it
    /// asked for, or up to `limit + borrowing_limit - usage`; one within its limit reserves
    /// up to `limit - usage`.
    fn to_reserve(&self, s: usize, t: usize, n: u64) -> u64 {
        let tree = &self.trees[t];
        let (limit, usage) = (tree.quota[s], tree.usage[s]);
        if self.offer_borrows(s, t, n) {
            match tree.borrowing_limit[s] {
                None => n,
                Some(bl) => n.min((limit + bl).saturating_sub(usage)),
            }
        } else {
            n.min(limit.saturating_sub(usage))
        }
    }

    /// SPEC 12 preemption: fair sharing when configured, else classical.
    pub(crate) fn kueue_victims(&self, j: JobId) -> Option<Vec<Victim>> {
        if self.sc.fair_sharing.is_some() {
            self.fair_victims(j)
        } else {
            self.classical_victims(j)
        }
    }

    /// Kueue `PreemptionPolicy` test (`common/preemption_policy.go`) of preemptor `j` against
    /// candidate `w`, for `within_share` (own share) or `reclaim` (other shares).
    pub(crate) fn policy_allows(&self, j: JobId, w: JobId) -> bool {
        let s = self.sc.jobs[j.index()].share;
        let (pj, pw) = (self.jobs[j.index()].priority, self.jobs[w.index()].priority);
        let p = &self.cfg[s].kueue.preemption;
        if self.sc.jobs[w.index()].share == s {
            match p.within_share {
                WithinShare::Never => false,
                WithinShare::LowerPriority => pj > pw,
                WithinShare::LowerOrNewerEqualPriority => {
                    pj > pw
                        || (pj == pw
                            && self.sc.jobs[j.index()].submit < self.sc.jobs[w.index()].submit)
                }
            }
        } else {
            match p.reclaim {
                ReclaimPolicy::Never => false,
                ReclaimPolicy::LowerPriority => pj > pw,
                ReclaimPolicy::Any => true,
            }
        }
    }

    /// Kueue `classifyPreemptionVariant` (hierarchical_preemption.go): own share ->
    /// within-share; hierarchical advantage -> hierarchical; without `borrow_within_cohort`,
    /// or a candidate priority >= the preemptor's or above `max_priority_threshold` ->
    /// reclaim without borrowing; else reclaim while borrowing. `None`: not a candidate.
    fn classify(&self, j: JobId, w: JobId, advantage: bool) -> Option<Variant> {
        if !self.policy_allows(j, w) {
            return None;
        }
        let s = self.sc.jobs[j.index()].share;
        if self.sc.jobs[w.index()].share == s {
            return Some(Variant::WithinShare);
        }
        if advantage {
            return Some(Variant::Hierarchical);
        }
        let bwc = self.cfg[s].kueue.preemption.borrow_within_cohort;
        let (pj, pw) = (
            self.jobs[j.index()].priority as i64,
            self.jobs[w.index()].priority as i64,
        );
        if !bwc.lower_priority || pw >= pj || bwc.max_priority_threshold.is_some_and(|thr| pw > thr)
        {
            return Some(Variant::ReclaimWithoutBorrowing);
        }
        Some(Variant::ReclaimWhileBorrowing)
    }

    /// The admitted jobs of share `o` and type `t` that are candidates for `j`, in
    /// candidate order (lower priority, latest admission, job id: SPEC 12).
    fn share_candidates(
        &self,
        j: JobId,
        o: usize,
        t: usize,
        advantage: bool,
        lca: Option<Node>,
        out: &mut Vec<Candidate>,
    ) {
        for k in &self.rt[o].admitted[t] {
            if let Some(variant) = self.classify(j, k.2, advantage) {
                out.push(Candidate {
                    job: k.2,
                    share: o,
                    instances: self.sc.jobs[k.2.index()].instances,
                    variant,
                    lca,
                });
            }
        }
    }

    /// Kueue `collectCandidatesInSubtree`: candidates of every share over its quota under
    /// `node`, pruning child cohorts within their quota and the subtree already visited.
    #[allow(clippy::too_many_arguments)]
    fn collect_in_subtree(
        &self,
        j: JobId,
        t: usize,
        node: Node,
        lca: Node,
        skip: Option<Node>,
        advantage: bool,
        out: &mut Vec<Candidate>,
    ) {
        let tree = &self.trees[t];
        let s = self.sc.jobs[j.index()].share;
        for &c in &tree.child_cohorts[node] {
            if Some(c) == skip || tree.within_quota(c) {
                continue;
            }
            self.collect_in_subtree(j, t, c, lca, skip, advantage, out);
        }
        for &o in &tree.child_shares[node] {
            if o != s && !tree.within_quota(o) {
                self.share_candidates(j, o, t, advantage, Some(lca), out);
            }
        }
    }

    /// KUEUE.md "Precise points" 2-3 (`NewCandidateIterator`): three lists, each in
    /// candidate order: hierarchical, other shares, own share.
    fn classical_candidates(&self, j: JobId) -> (Vec<Candidate>, Vec<Candidate>, Vec<Candidate>) {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share, spec.instance_type, spec.instances);
        let tree = &self.trees[t];
        let p = &self.cfg[s].kueue.preemption;
        let mut same = Vec::new();
        if p.within_share != WithinShare::Never {
            self.share_candidates(j, s, t, false, None, &mut same);
        }
        let (mut hier, mut prio) = (Vec::new(), Vec::new());
        if tree.parent[s].is_some() && p.reclaim != ReclaimPolicy::Never {
            let (mut advantage, mut remaining) = tree.fits_in_quota(s, n);
            let mut prev = None;
            for node in tree.ancestors(s) {
                let list = if advantage { &mut hier } else { &mut prio };
                self.collect_in_subtree(j, t, node, node, prev, advantage, list);
                let (fits, rem) = tree.fits_in_quota(node, remaining);
                remaining = rem;
                advantage |= fits;
                prev = Some(node);
            }
        }
        let order = |c: &Candidate| {
            let r = &self.jobs[c.job.index()];
            (r.priority, Reverse(r.adm_seq), self.id_rank[c.job.index()])
        };
        for list in [&mut hier, &mut prio, &mut same] {
            list.sort_by_key(order);
        }
        (hier, prio, same)
    }

    /// SPEC 12 classical preemption (KUEUE.md 2.4, "Precise points" 1-4): candidates in
    /// three lists; attempts with and without borrowing in Kueue's order; the minimal set.
    pub(crate) fn classical_victims(&self, j: JobId) -> Option<Vec<Victim>> {
        let spec = &self.sc.jobs[j.index()];
        let (s, t) = (spec.share, spec.instance_type);
        let (hier, prio, same) = self.classical_candidates(j);
        let bwc_forbidden = !self.cfg[s]
            .kueue
            .preemption
            .borrow_within_cohort
            .lower_priority;
        let tree = &self.trees[t];
        let under_limit = tree.usage[s] < tree.quota[s];
        // Precise point 1: which attempts run, in which order.
        let attempts: &[bool] =
            if (hier.is_empty() && prio.is_empty()) || (bwc_forbidden && !under_limit) {
                &[true]
            } else if bwc_forbidden && hier.is_empty() {
                &[false, true]
            } else {
                &[true, false]
            };
        let order: Vec<Candidate> = hier.into_iter().chain(prio).chain(same).collect();
        attempts
            .iter()
            .find_map(|&borrow| self.classical_attempt(j, &order, borrow))
    }

    /// SPEC 12 / Kueue `fits(borrow)`: J fits (and, without borrowing, within its limit).
    fn attempt_fits(&self, trial: &Trial, s: usize, t: usize, n: u64, borrow: bool) -> bool {
        (borrow || trial.tree.usage[s] + n <= trial.tree.quota[s]) && self.tree_fits(trial, s, t, n)
    }

    /// KUEUE.md "Precise points" 4 (`candidateIsValid`): own-share candidates always;
    /// "reclaim without borrowing" ones not in the borrowing attempt; another share's job
    /// is skipped once its share, or a cohort between it and the common ancestor, is back
    /// within its quota.
    fn candidate_valid(&self, trial: &Trial, s: usize, c: &Candidate, borrow: bool) -> bool {
        if c.share == s {
            return true;
        }
        if borrow && c.variant == Variant::ReclaimWithoutBorrowing {
            return false;
        }
        if trial.tree.within_quota(c.share) {
            return false;
        }
        for node in trial.tree.ancestors(c.share) {
            if Some(node) == c.lca {
                break;
            }
            if trial.tree.within_quota(node) {
                return false;
            }
        }
        true
    }

    /// One attempt (Kueue `minimalPreemptions` over the candidate iterator): remove valid
    /// candidates in order until J fits, then put back (fill back) every one it still fits
    /// without, from the second-to-last removed down (the last one is always kept).
    fn classical_attempt(
        &self,
        j: JobId,
        order: &[Candidate],
        borrow: bool,
    ) -> Option<Vec<Victim>> {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share, spec.instance_type, spec.instances);
        let mut trial = self.trial(t);
        let mut chosen: Vec<Candidate> = Vec::new();
        for c in order {
            if !self.candidate_valid(&trial, s, c, borrow) {
                continue;
            }
            trial.tree.remove_usage(c.share, c.instances);
            trial.sum_used -= c.instances;
            chosen.push(*c);
            if self.attempt_fits(&trial, s, t, n, borrow) {
                fill_back(&mut trial, &mut chosen, |tr| {
                    self.attempt_fits(tr, s, t, n, borrow)
                });
                return Some(chosen.iter().map(victim).collect());
            }
        }
        None
    }

    /// SPEC 12 waiting reasons in the Kueue model (SPEC 4 reasons 1 and 3, naming the limit
    /// that binds): no limit -> `unschedulable`; within its limit -> `capacity_in_use` (its
    /// quota is in use by borrowers or held by lending limits elsewhere); over its
    /// `borrowing_limit` -> `borrow_limit`; a share alone over its limit ->
    /// `entitlement_exhausted`; else its cohorts have no capacity left to lend ->
    /// `no_lendable_capacity`.
    pub(crate) fn kueue_reason(&self, s: usize, t: usize, n: u64) -> Reason {
        if !crate::admission::has_limit(&self.cfg[s], t) {
            return Reason::Unschedulable;
        }
        let tree = &self.trees[t];
        let (usage, limit) = (tree.usage[s], tree.quota[s]);
        if usage + n <= limit {
            Reason::CapacityInUse
        } else if tree.parent[s].is_none() {
            Reason::EntitlementExhausted
        } else if tree.borrowing_limit[s].is_some_and(|bl| usage + n > limit + bl) {
            Reason::BorrowLimit
        } else {
            Reason::NoLendableCapacity
        }
    }
}

/// A candidate as a chosen victim.
pub(crate) fn victim(c: &Candidate) -> Victim {
    Victim {
        job: c.job,
        share: c.share,
        instances: c.instances,
        cause: c.variant.cause(),
        shares: None,
    }
}

/// Kueue `fillBackWorkloads`: walk the chosen victims in reverse from the second-to-last,
/// put each back, and keep it back when J still fits.
pub(crate) fn fill_back(
    trial: &mut Trial,
    chosen: &mut Vec<Candidate>,
    fits: impl Fn(&Trial) -> bool,
) {
    if chosen.len() < 2 {
        return;
    }
    for i in (0..chosen.len() - 1).rev() {
        let c = chosen[i];
        trial.tree.add_usage(c.share, c.instances);
        trial.sum_used += c.instances;
        if fits(trial) {
            chosen.remove(i);
        } else {
            trial.tree.remove_usage(c.share, c.instances);
            trial.sum_used -= c.instances;
        }
    }
}
