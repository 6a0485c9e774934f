//! The Kueue model's scheduling pass, admission and classical preemption (SPEC 12; Kueue
//! `pkg/scheduler/scheduler.go`, `pkg/scheduler/flavorassigner/flavorassigner.go`,
//! `pkg/scheduler/preemption/preemption.go`, `classical/candidate_generator.go`,
//! `classical/hierarchical_preemption.go`). Fair sharing is in [`super::fair_sharing`].
//!
//! Quota lives in one [`QuotaTree`] per instance type (`KueueState::trees`), kept current by
//! admission and release (see `events.rs`). Instants, a job's life, grace, retries and the
//! event log are the AWS model's (SPEC 4, 6, 8).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::input::model::{Priority, Queueing, ReclaimPolicy, WithinShare};
use crate::simulation::preemption::Victim;
use crate::simulation::quota_tree::{Node, QuotaTree};
use crate::simulation::{AKey, Binding, Cause, JobId, Reason, Sim, Size, State};

use super::offers::PreemptionWait;

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

/// The candidates one share brings to a list (KUEUE.md "Precise points" 2-3): its
/// admitted jobs of the type, with the class flag and common ancestor they are collected
/// with (`lca` `None`: the preemptor's own share).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group {
    pub share: usize,
    pub advantage: bool,
    pub lca: Option<Node>,
}

/// SPEC 12.1 "Order of offers", classical: the key `(height, Reverse(priority), submit,
/// share)` as one integer with the same order (the borrowing height in the top byte, then
/// the priority reversed, the submit time with its sign bit flipped, the share index), so
/// that choosing the first offer compares integers. Share indices are below 2^24
/// (`model::limits`: at most 1000 ClusterQueues).
#[inline(always)]
pub(super) fn order_rank(height: u8, priority: Priority, submit: i64, s: usize) -> u128 {
    let reversed = (i32::MAX as i64 - priority as i64) as u128; // 0..2^32
    let submit = (submit as u64 ^ (1 << 63)) as u128;
    debug_assert!(s < 1 << 24);
    ((height as u128) << 120) | (reversed << 88) | (submit << 24) | s as u128
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
        self.kueue.trees = (0..types)
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
        self.kueue.heights = self
            .kueue
            .trees
            .first()
            .map(node_heights)
            .unwrap_or_default();
    }

    /// The trial state of type `t` now.
    pub(crate) fn trial(&self, t: usize) -> Trial {
        Trial {
            tree: self.kueue.trees[t].clone(),
            sum_used: self.usage[t].sum_used + self.kueue.reserved[t],
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
        let tree = &self.kueue.trees[t];
        let p = &self.cfg[s].kueue.preemption;
        n <= tree.potential(s)
            && (n <= tree.quota[s]
                || tree.fits_below_root(s, n)
                || p.borrow_within_cohort.lower_priority
                || (self.sc.fair_sharing.is_some() && p.reclaim != ReclaimPolicy::Never))
    }

    /// SPEC 12.1 (Kueue `FindHeightOfLowestSubtreeThatFits`, hierarchical_preemption.go): how
    /// far a job of share `s` needing `n` of type `t` borrows: 0 within its nominal quota
    /// (or alone), else the height of the lowest cohort on its path that holds what its
    /// own unused private quota and those below cannot (the root's when none does).
    pub(super) fn borrowing_height(&self, s: usize, t: usize, n: u64) -> u8 {
        self.borrowing_height_in(&self.kueue.trees[t], s, n)
    }

    /// [`Sim::borrowing_height`] on `tree` (a trial: Kueue's `SimulatePreemption` asks it
    /// with the preemption targets removed).
    pub(super) fn borrowing_height_in(&self, tree: &QuotaTree, s: usize, n: u64) -> u8 {
        if tree.parent[s].is_none() || !tree.borrowing_with(s, n) {
            return 0;
        }
        let mut remaining = n as i128 - tree.local_available(s) as i128;
        let mut last = s;
        for node in tree.ancestors(s) {
            if tree.usage[node] as i128 + remaining <= tree.subtree[node] as i128 {
                return self.kueue.heights[node];
            }
            remaining -= tree.local_available(node) as i128;
            last = node;
        }
        self.kueue.heights[last]
    }

    /// SPEC 12: an admission is borrowing when `used(S,T) + n > limit(S,T)` in a cohort
    /// (Kueue `assignment.Borrows()`; a share alone never borrows).
    fn offer_borrows(&self, s: usize, t: usize, n: u64) -> bool {
        let tree = &self.kueue.trees[t];
        tree.parent[s].is_some() && tree.borrowing_with(s, n)
    }

    /// Kueue `QueueAssociatedInadmissibleWorkloadsAfter` (SPEC 12.1): quota was released in
    /// share `s`'s cohort tree (a completion, a victim gone, a priority change): every
    /// inadmissible job of the tree is offered again.
    pub(crate) fn requeue_inadmissible(&mut self, s: usize) {
        if self.kueue.in_cycle {
            // Kueue's workload controller sees the release after the cycle.
            self.kueue.deferred.push(s);
            return;
        }
        let Some(tree) = self.kueue.trees.first() else {
            return;
        };
        let root = tree.root(s);
        self.undrain_all(); // their jobs counted as set aside are, before they come back
        for o in 0..self.cfg.len() {
            if self.rt[o].has_aside() && self.kueue.trees[0].root(o) == root {
                self.rt[o].clear_aside();
                self.rt[o].version += 1;
                self.memo.moved.push(o);
            }
        }
    }

    /// SPEC 12.1, after a pass and its waiting reasons: the waiting preemptors counted out
    /// again and their victims in (see `kueue_pass`).
    pub(crate) fn undo_swaps(&mut self) {
        let mut swaps = std::mem::take(&mut self.kueue.swaps);
        for &(added, node, t, v) in swaps.iter().rev() {
            if added {
                self.kueue.trees[t].remove_usage(node, v);
            } else {
                self.kueue.trees[t].add_usage(node, v);
            }
        }
        swaps.clear();
        self.kueue.swaps = swaps;
        self.kueue.swapped.clear();
        for &(t, keep) in &self.kueue.kept {
            self.kueue.reserved[t] -= keep;
        }
        self.kueue.kept.clear();
    }

    /// SPEC 12.1: preemptor `j` waits for `victims` (`WaitingForPreemptedWorkloads`), each
    /// still holding its quota until its grace ends.
    pub(super) fn wait_for_victims(&mut self, j: JobId, victims: &[JobId]) {
        let grace = self.sc.grace;
        let until = victims
            .iter()
            .map(|&v| self.jobs[v.index()].preempted_at() + grace)
            .max()
            .unwrap_or(self.now);
        for &v in victims {
            self.kueue.claimed.insert(v, j);
        }
        let logged = self
            .kueue
            .waiting
            .get(&j)
            .is_some_and(|w| w.logged && w.until == until);
        let wait = PreemptionWait {
            victims: victims.len() as u32,
            until,
            logged: true,
            freed: false,
        };
        self.kueue.waiting.insert(j, wait);
        if !logged {
            // Its `waiting` event says what it waits for (reason: the SPEC 4 code of its
            // own fit conditions, as every waiting job carries).
            let spec = &self.sc.jobs[j.index()];
            let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
            self.books.counts[s].preemptor_waits += 1;
            let reason = self.kueue_reason(s, t, n);
            self.jobs[j.index()].reason = Some(reason);
            let why = Binding::PreemptedWorkloads {
                victims: wait.victims,
                until,
            };
            self.log(
                j,
                s,
                crate::simulation::EventKind::Waiting(reason, Some(why)),
            );
        }
    }

    /// SPEC 12.1: victim `j` is gone; the preemptor that waited for it has one less to wait
    /// for (its quota is free to whichever offer comes first).
    pub(crate) fn victim_gone(&mut self, j: JobId) {
        let Some(p) = self.kueue.claimed.remove(&j) else {
            return;
        };
        if let Some(w) = self.kueue.waiting.get_mut(&p) {
            w.victims = w.victims.saturating_sub(1);
            if w.victims == 0 {
                w.freed = true;
                if !self.kueue.keeps.contains(&p) {
                    self.kueue.keeps.push(p);
                }
            }
        }
    }

    /// SPEC 12.1, after a pass: a preemptor whose victims are all gone and that is still not
    /// admitted saw the quota it freed taken by another workload first (counted for its
    /// share); its wait is over.
    pub(super) fn end_of_waits(&mut self) {
        if self.kueue.waiting.is_empty() {
            return;
        }
        let over: Vec<JobId> = self
            .kueue
            .waiting
            .iter()
            .filter(|(&p, w)| w.freed || self.jobs[p.index()].state != State::Runnable)
            .map(|(&p, _)| p)
            .collect();
        for p in over {
            if self.jobs[p.index()].state == State::Runnable {
                let s = self.sc.jobs[p.index()].share();
                self.books.counts[s].taken_while_waiting += 1;
            }
            self.kueue.waiting.remove(&p);
        }
    }

    /// Kueue `quotaResourcesToReserve` (scheduler.go): a borrowing request reserves all it
    /// asked for, or up to `limit + borrowing_limit - usage`; one within its limit reserves
    /// up to `limit - usage`.
    pub(super) fn to_reserve(&self, s: usize, t: usize, n: u64) -> u64 {
        let tree = &self.kueue.trees[t];
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

    /// [`Sim::kueue_victims`], remembered at the current usage and structure epochs: until
    /// quota usage, the candidates, configuration or a priority changes, the same search
    /// finds the same victims and is not run again. Only on the state between cycles (a
    /// cycle's admissions, reservations and waiting preemptors change the trees without
    /// those counters). Off with `Options::exhaustive`.
    pub(super) fn kueue_victims_memo(&self, j: JobId) -> Option<Vec<Victim>> {
        if self.opts.exhaustive {
            return self.kueue_victims(j);
        }
        debug_assert!(
            !self.kueue.in_cycle,
            "searches are remembered between cycles only"
        );
        if self.finds_no_victims(j) {
            debug_assert!(
                self.kueue_victims(j).is_none(),
                "a search ruled out finds victims"
            );
            return None;
        }
        let spec = &self.sc.jobs[j.index()];
        let s = spec.share();
        let key = (
            s,
            Size::of(spec),
            self.jobs[j.index()].priority,
            (!self.victims_by_class(s)).then_some(j),
        );
        let now = (self.epochs.usage(), self.epochs.structure());
        if let Some(found) = self.kueue.searches.borrow().get(now, &key) {
            return found;
        }
        let found = self.kueue_victims(j);
        self.kueue
            .searches
            .borrow_mut()
            .put(now, key, found.clone());
        found
    }

    /// Whether a classical search of type `t` that found no victims finds none again
    /// while the quota epoch holds (no release, eviction, priority or configuration
    /// change, no admission over a share's limit) and the preemptor's share admitted
    /// nothing: then the state differs only by admissions within their shares' limits
    /// by other shares. With every cohort a root, those add no candidate (a share within
    /// its limit is none, and no cohort between a candidate and the root can go over its
    /// quota), leave the candidate lists, their order and every validity test as they
    /// were, and only lower `available` and raise the capacity in use: each step of the
    /// walk fits no better, so the attempts fail again. Not with fair sharing (its order
    /// reads every share's dominant resource share) nor in deeper trees (a cohort going
    /// over its quota brings its borrowers' jobs in).
    pub(super) fn none_stays_none(&self, t: usize) -> bool {
        self.sc.fair_sharing.is_none() && self.kueue.trees[t].is_flat()
    }

    /// Whether classical preemption surely finds no victims for `j`, by its share's
    /// policy and usage alone (what [`Sim::classical_victims`] would find, without its
    /// lists built): with `within_share` `never` its own share gives none; without a cohort
    /// or with `reclaim` `never` no other share does either. Else, without
    /// `borrow_within_cohort`, a job that would take its share over its limit fails the
    /// attempt without borrowing (only other shares' jobs are removed in it, so its share's
    /// usage stays), and the borrowing attempt reads the hierarchical list alone, empty
    /// when neither its share nor a cohort below the one collected holds it in quota.
    pub(super) fn finds_no_victims(&self, j: JobId) -> bool {
        if self.sc.fair_sharing.is_some() {
            return false;
        }
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let p = &self.cfg[s].kueue.preemption;
        if p.within_share != WithinShare::Never {
            return false;
        }
        let tree = &self.kueue.trees[t];
        if tree.parent[s].is_none() || p.reclaim == ReclaimPolicy::Never {
            return true;
        }
        if p.borrow_within_cohort.lower_priority || tree.usage[s] + n <= tree.quota[s] {
            return false;
        }
        let (mut advantage, mut remaining) = tree.fits_in_quota(s, n);
        for node in tree.ancestors(s) {
            if advantage {
                return false; // the hierarchical list may hold candidates
            }
            let (fits, rem) = tree.fits_in_quota(node, remaining);
            remaining = rem;
            advantage |= fits;
        }
        true
    }

    /// Whether the victims a job of share `s` finds depend on it only through its size and
    /// priority: no newer-equal-priority rule (which reads its submit time) and no fair
    /// sharing (whose dominant resource shares are the preemptor's).
    pub(super) fn victims_by_class(&self, s: usize) -> bool {
        self.cfg[s].kueue.preemption.within_share != WithinShare::LowerOrNewerEqualPriority
            && self.sc.fair_sharing.is_none()
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
        let s = self.sc.jobs[j.index()].share();
        let (pj, pw) = (self.jobs[j.index()].priority, self.jobs[w.index()].priority);
        let p = &self.cfg[s].kueue.preemption;
        if self.sc.jobs[w.index()].share() == s {
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
        let s = self.sc.jobs[j.index()].share();
        if self.sc.jobs[w.index()].share() == s {
            return Some(Variant::WithinShare);
        }
        if advantage {
            return Some(Variant::Hierarchical);
        }
        let bwc = self.cfg[s].kueue.preemption.borrow_within_cohort;
        let (pj, pw) = (self.jobs[j.index()].priority, self.jobs[w.index()].priority);
        if !bwc.lower_priority || pw >= pj || bwc.max_priority_threshold.is_some_and(|thr| pw > thr)
        {
            return Some(Variant::ReclaimWithoutBorrowing);
        }
        Some(Variant::ReclaimWhileBorrowing)
    }

    /// Whether share `g.share` holds at least one candidate for `j` (a job its policy allows,
    /// SPEC 12). Admitted jobs are in candidate order, so only the priorities a priority
    /// policy can allow are looked at.
    /// The policies that decide on priority alone look at the lowest priority only.
    fn group_nonempty(&self, j: JobId, g: &Group, t: usize) -> bool {
        // SPEC 12.1: victims in their grace are candidates too (few: looked at one by one).
        if self.rt[g.share].evicted[t]
            .iter()
            .any(|k| self.policy_allows(j, k.job))
        {
            return true;
        }
        let pj = self.jobs[j.index()].priority;
        let admitted = &self.rt[g.share].admitted[t];
        let p = &self.cfg[self.sc.jobs[j.index()].share()].kueue.preemption;
        let own = g.share == self.sc.jobs[j.index()].share();
        let lowest_below = || admitted.first().is_some_and(|k| k.priority < pj);
        match (own, p.within_share, p.reclaim) {
            (true, WithinShare::Never, _) | (false, _, ReclaimPolicy::Never) => false,
            (true, WithinShare::LowerPriority, _) | (false, _, ReclaimPolicy::LowerPriority) => {
                lowest_below()
            }
            (false, _, ReclaimPolicy::Any) => !admitted.is_empty(),
            (true, WithinShare::LowerOrNewerEqualPriority, _) => {
                lowest_below()
                    || admitted
                        .iter()
                        .take_while(|k| k.priority <= pj)
                        .any(|k| self.policy_allows(j, k.job))
            }
        }
    }

    /// Whether `j`'s policy towards share `o`'s jobs is `reclaim` `any` (every job is a
    /// candidate); the other policies allow only jobs of priority up to `j`'s.
    fn policy_any(&self, j: JobId, o: usize) -> bool {
        let s = self.sc.jobs[j.index()].share();
        o != s && self.cfg[s].kueue.preemption.reclaim == ReclaimPolicy::Any
    }

    /// Kueue `collectCandidatesInSubtree`: the shares over their quota under `node` whose
    /// jobs are candidates, pruning child cohorts within their quota and the subtree
    /// already visited.
    #[allow(clippy::too_many_arguments)]
    fn collect_in_subtree(
        &self,
        s: usize,
        t: usize,
        node: Node,
        lca: Node,
        skip: Option<Node>,
        advantage: bool,
        out: &mut Vec<Group>,
    ) {
        let tree = &self.kueue.trees[t];
        for &c in &tree.child_cohorts[node] {
            if Some(c) == skip || tree.within_quota(c) {
                continue;
            }
            self.collect_in_subtree(s, t, c, lca, skip, advantage, out);
        }
        for &o in &tree.child_shares[node] {
            if o != s && !tree.within_quota(o) {
                if out.capacity() == 0 {
                    out.reserve(tree.shares); // one allocation, not one per doubling
                }
                out.push(Group {
                    share: o,
                    advantage,
                    lca: Some(lca),
                });
            }
        }
    }

    /// KUEUE.md "Precise points" 2-3 (`NewCandidateIterator`): the shares of the three
    /// lists (hierarchical, other shares, own share), each list taken in candidate order
    /// when an attempt walks it ([`Sim::walk_list`]). Lists are kept as the shares they
    /// draw from, with no job collected or sorted: the admitted jobs of a share are already
    /// in candidate order (lower priority, latest admission; the admission sequence is
    /// unique, so the job id never decides), and a list is their merge.
    ///
    /// `need_prio` false: the second list is not needed (the caller runs only the borrowing
    /// attempt without `borrow_within_cohort`, where all of it is skipped) and comes back
    /// empty.
    fn classical_candidates(
        &self,
        j: JobId,
        need_prio: bool,
    ) -> (Vec<Group>, Vec<Group>, Option<Group>) {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let tree = &self.kueue.trees[t];
        let p = &self.cfg[s].kueue.preemption;
        let own = Group {
            share: s,
            advantage: false,
            lca: None,
        };
        let same = (p.within_share != WithinShare::Never && self.group_nonempty(j, &own, t))
            .then_some(own);
        let (mut hier, mut prio) = (Vec::new(), Vec::new());
        if tree.parent[s].is_some() && p.reclaim != ReclaimPolicy::Never {
            let (mut advantage, mut remaining) = tree.fits_in_quota(s, n);
            let mut prev = None;
            for node in tree.ancestors(s) {
                if advantage || need_prio {
                    let list = if advantage { &mut hier } else { &mut prio };
                    self.collect_in_subtree(s, t, node, node, prev, advantage, list);
                }
                let (fits, rem) = tree.fits_in_quota(node, remaining);
                remaining = rem;
                advantage |= fits;
                prev = Some(node);
            }
        }
        hier.retain(|g| self.group_nonempty(j, g, t));
        prio.retain(|g| self.group_nonempty(j, g, t));
        (hier, prio, same)
    }

    /// SPEC 12 classical preemption (KUEUE.md 2.4, "Precise points" 1-4): candidates in
    /// three lists; attempts with and without borrowing in Kueue's order; the minimal set.
    pub(crate) fn classical_victims(&self, j: JobId) -> Option<Vec<Victim>> {
        let spec = &self.sc.jobs[j.index()];
        let (s, t) = (spec.share(), spec.instance_type());
        let bwc_forbidden = !self.cfg[s]
            .kueue
            .preemption
            .borrow_within_cohort
            .lower_priority;
        let tree = &self.kueue.trees[t];
        let under_limit = tree.usage[s] < tree.quota[s];
        // Only the borrowing attempt runs then, and the second list is all skipped in it.
        let need_prio = !bwc_forbidden || under_limit || self.opts.exhaustive;
        let (hier, prio, same) = self.classical_candidates(j, need_prio);
        // Precise point 1: which attempts run, in which order.
        let attempts: &[bool] =
            if (hier.is_empty() && prio.is_empty()) || (bwc_forbidden && !under_limit) {
                &[true]
            } else if bwc_forbidden && hier.is_empty() {
                &[false, true]
            } else {
                &[true, false]
            };
        attempts.iter().find_map(|&borrow| {
            // In the borrowing attempt without `borrow_within_cohort` every candidate of the
            // second list is "reclaim without borrowing" (skipped): the list is left out.
            let prio = if borrow && bwc_forbidden {
                &[][..]
            } else {
                &prio[..]
            };
            self.classical_attempt(j, [&hier[..], prio, same.as_slice()], borrow)
        })
    }

    /// SPEC 12 / Kueue `fits(borrow)`: J fits (and, without borrowing, within its limit).
    fn attempt_fits(&self, trial: &Trial, s: usize, t: usize, n: u64, borrow: bool) -> bool {
        (borrow || trial.tree.usage[s] + n <= trial.tree.quota[s]) && self.tree_fits(trial, s, t, n)
    }

    /// KUEUE.md "Precise points" 4 (`candidateIsValid`): own-share candidates always;
    /// "reclaim without borrowing" ones not in the borrowing attempt; another share's job
    /// is skipped once its share, or a cohort between it and the common ancestor, is back
    /// within its quota ([`share_still_over`]).
    fn candidate_valid(&self, trial: &Trial, s: usize, c: &Candidate, borrow: bool) -> bool {
        if c.share == s {
            return true;
        }
        if borrow && c.variant == Variant::ReclaimWithoutBorrowing {
            return false;
        }
        share_still_over(trial, c.share, c.lca)
    }

    /// A necessary condition for an attempt to succeed (not checked with
    /// `Options::exhaustive`): J passes the attempt's test once every candidate that could
    /// be removed is: its own share's jobs of priority up to J's, and each other share of
    /// the lists down to the least it can drop to (removal from a share stops once it is
    /// within its quota, so it keeps at least `limit + 1 - its largest job`). Removing
    /// usage never lowers `available`, so if this fails the attempt fails.
    fn attempt_could_pass(&self, j: JobId, lists: [&[Group]; 3], borrow: bool) -> bool {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let pj = self.jobs[j.index()].priority;
        if lists
            .iter()
            .flat_map(|l| l.iter())
            .any(|g| !self.rt[g.share].evicted[t].is_empty())
        {
            return true; // victims in their grace: no bound computed (rare)
        }
        let mut trial = self.trial(t);
        for g in lists.iter().flat_map(|l| l.iter()) {
            let o = g.share;
            let drop = if o == s {
                self.rt[s].admitted_by_priority[t].at_most(pj)
            } else {
                let floor = (trial.tree.quota[o] + 1).saturating_sub(self.max_instances[o][t]);
                trial.tree.usage[o].saturating_sub(floor)
            };
            let drop = drop.min(trial.tree.usage[o]);
            trial.tree.remove_usage(o, drop);
            trial.sum_used = trial.sum_used.saturating_sub(drop);
        }
        self.attempt_fits(&trial, s, t, n, borrow)
    }

    /// One attempt (Kueue `minimalPreemptions` over the candidate iterator): remove valid
    /// candidates of the three lists in order until J fits, then put back (fill back)
    /// every one it still fits without, from the second-to-last removed down (the last one
    /// is always kept).
    fn classical_attempt(
        &self,
        j: JobId,
        lists: [&[Group]; 3],
        borrow: bool,
    ) -> Option<Vec<Victim>> {
        if lists.iter().all(|l| l.is_empty()) {
            return None;
        }
        if !self.opts.exhaustive && !self.attempt_could_pass(j, lists, borrow) {
            return None;
        }
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let mut trial = self.trial(t);
        let mut chosen: Vec<Candidate> = Vec::new();
        // Kueue `CandidatesOrdering`: the evicted jobs of the three lists first (SPEC 12.1),
        // then the admitted ones.
        let phases = [Source::Evicted, Source::Admitted];
        for (source, list) in phases
            .into_iter()
            .flat_map(|src| lists.into_iter().map(move |l| (src, l)))
        {
            if self.walk_list(j, list, source, borrow, &mut trial, &mut chosen) {
                fill_back(
                    &mut trial,
                    &mut chosen,
                    |&c| c,
                    |tr| self.attempt_fits(tr, s, t, n, borrow),
                );
                return Some(chosen.iter().map(victim).collect());
            }
        }
        None
    }

    /// One list of an attempt: its shares' admitted jobs merged in candidate order; each
    /// valid candidate is removed from the trial until J fits (`true`). A share drops out
    /// of the walk as soon as none of its later jobs can be valid: it is back within its
    /// quota (usage only falls during an attempt), its next job's priority is above what
    /// J's policy allows, or, in the borrowing attempt, its next job is "reclaim without
    /// borrowing" (the class only grows with priority). Skipping them is what the full
    /// walk would do.
    fn walk_list(
        &self,
        j: JobId,
        groups: &[Group],
        source: Source,
        borrow: bool,
        trial: &mut Trial,
        chosen: &mut Vec<Candidate>,
    ) -> bool {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let pj = self.jobs[j.index()].priority;
        if source == Source::Evicted
            && groups
                .iter()
                .all(|g| self.rt[g.share].evicted[t].is_empty())
        {
            return false; // no victim in its grace: nothing to walk (the usual case)
        }
        let mut iters: Vec<_> = groups
            .iter()
            .map(|g| match source {
                Source::Admitted => self.rt[g.share].admitted[t].iter(),
                Source::Evicted => self.rt[g.share].evicted[t].iter(),
            })
            .collect();
        let mut heap: BinaryHeap<Reverse<(AKey, usize)>> = BinaryHeap::with_capacity(groups.len());
        for (i, it) in iters.iter_mut().enumerate() {
            if let Some(&k) = it.next() {
                heap.push(Reverse((k, i)));
            }
        }
        while let Some(Reverse((k, i))) = heap.pop() {
            let g = groups[i];
            if source == Source::Evicted && self.kueue.swapped.contains(&k.job) {
                advance(&mut heap, &mut iters, i); // another preemptor's in this pass
                continue;
            }
            if !self.opts.exhaustive && !self.policy_any(j, g.share) && k.priority > pj {
                continue; // no later job of this share is allowed
            }
            let Some(variant) = self.classify(j, k.job, g.advantage) else {
                advance(&mut heap, &mut iters, i);
                continue;
            };
            let c = Candidate {
                job: k.job,
                share: g.share,
                instances: self.sc.jobs[k.job.index()].instances(),
                variant,
                lca: g.lca,
            };
            if !self.candidate_valid(trial, s, &c, borrow) {
                let later_valid = self.opts.exhaustive
                    || (variant != Variant::ReclaimWithoutBorrowing
                        && share_still_over(trial, c.share, c.lca));
                if later_valid {
                    advance(&mut heap, &mut iters, i);
                }
                continue;
            }
            trial.tree.remove_usage(c.share, c.instances);
            trial.sum_used -= c.instances;
            chosen.push(c);
            if self.attempt_fits(trial, s, t, n, borrow) {
                return true;
            }
            advance(&mut heap, &mut iters, i);
        }
        false
    }

    /// SPEC 12 waiting reasons in the Kueue model (SPEC 4 reasons 1 and 3, naming the limit
    /// that binds): no limit -> `unschedulable`; within its limit -> `capacity_in_use` (its
    /// quota is in use by borrowers or held by lending limits elsewhere); over its
    /// `borrowing_limit` -> `borrow_limit`; a share alone over its limit ->
    /// `entitlement_exhausted`; else its cohorts have no capacity left to lend ->
    /// `no_lendable_capacity` (also when a cohort's borrowing limit binds: SPEC 4 gives
    /// `borrow_limit` only for the share's own cap). The code is the SPEC 8 field; the
    /// limit that binds and its node are [`Sim::kueue_binding`]'s, for the explanation
    /// (`Binding::OwnNominal` goes with `entitlement_exhausted`, a share's own
    /// `Binding::BorrowingLimit` with `borrow_limit`, a cohort's, `Binding::CohortFull` and
    /// `Binding::Capacity` with `capacity_in_use` or `no_lendable_capacity`).
    pub(crate) fn kueue_reason(&self, s: usize, t: usize, n: u64) -> Reason {
        if !crate::simulation::admission::has_limit(&self.cfg[s], t) {
            return Reason::Unschedulable;
        }
        let tree = &self.kueue.trees[t];
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

/// Kueue `getNodeHeight` for every node: a share 0; a cohort 1 with any child, or one more
/// than its highest child cohort.
fn node_heights(tree: &QuotaTree) -> Vec<u8> {
    fn height(tree: &QuotaTree, c: Node, depth: usize) -> u8 {
        let any = !tree.child_cohorts[c].is_empty() || !tree.child_shares[c].is_empty();
        let mut h = any as u8;
        if depth > tree.parent.len() {
            return h; // validation refuses cycles; never recurse for ever
        }
        for &k in &tree.child_cohorts[c] {
            h = h.max(height(tree, k, depth + 1).saturating_add(1));
        }
        h
    }
    (0..tree.parent.len())
        .map(|k| {
            if k < tree.shares {
                0
            } else {
                height(tree, k, 0)
            }
        })
        .collect()
}

/// The admitted jobs of one share and type, in candidate order.
type AdmittedIter<'a> = std::collections::btree_set::Iter<'a, AKey>;

/// Which of a share's jobs a walk over candidates reads (SPEC 12.1: the evicted ones,
/// still holding quota in their grace, come before every admitted one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Evicted,
    Admitted,
}

/// The merge of [`Sim::walk_list`]: share `i`'s next admitted job joins the heap.
fn advance(
    heap: &mut BinaryHeap<Reverse<(AKey, usize)>>,
    iters: &mut [AdmittedIter<'_>],
    i: usize,
) {
    if let Some(&k) = iters[i].next() {
        heap.push(Reverse((k, i)));
    }
}

/// KUEUE.md "Precise points" 4: another share's job stays a valid candidate while its
/// share, and every cohort between it and the common ancestor `lca`, is over its quota.
fn share_still_over(trial: &Trial, share: usize, lca: Option<Node>) -> bool {
    if trial.tree.within_quota(share) {
        return false;
    }
    for node in trial.tree.ancestors(share) {
        if Some(node) == lca {
            break;
        }
        if trial.tree.within_quota(node) {
            return false;
        }
    }
    true
}

impl Sim<'_> {
    /// SPEC 12 waiting reasons, the binding limit: walks the quota tree from share `s` up
    /// as `available` does (`max(0, private - usage) + min(available(parent), b)`) and
    /// names the first term that falls short: the share alone, its borrowing limit, a
    /// cohort's borrowing limit, or the root cohort's unused quota; when the quota holds
    /// the job, the capacity. `None`: nothing binds (the job fits now) or no limit.
    pub(crate) fn kueue_binding(&self, s: usize, t: usize, n: u64) -> Option<Binding> {
        let tree = self.kueue.trees.get(t)?;
        if !crate::simulation::admission::has_limit(&self.cfg[s], t) {
            return None;
        }
        if (n as i128) <= tree.available(s) {
            let used = self.usage[t].sum_used + self.kueue.reserved[t];
            let capacity = self.sc.capacity[t];
            return (used.saturating_add(n) > capacity).then_some(Binding::Capacity { capacity });
        }
        let (mut node, mut need) = (s, n);
        for _ in 0..tree.parent.len() {
            let rest = need.saturating_sub(tree.local_available(node));
            let Some(p) = tree.parent[node] else {
                if node < tree.shares {
                    return Some(Binding::OwnNominal {
                        limit: tree.quota[node],
                    });
                }
                return Some(Binding::CohortFull {
                    node: node as u32,
                    free: tree.subtree[node].saturating_sub(tree.usage[node]),
                    need: rest,
                    private: private_elsewhere(tree, s, node),
                });
            };
            let from_parent = tree.available(p);
            if let Some(bl) = tree.borrowing_limit[node] {
                let (sub, private, usage) = (
                    tree.subtree[node] as i128,
                    tree.private[node] as i128,
                    tree.usage[node] as i128,
                );
                let b = sub - private - (usage - private).max(0) + bl as i128;
                if b < rest as i128 && b <= from_parent {
                    return Some(Binding::BorrowingLimit {
                        node: node as u32,
                        limit: bl,
                    });
                }
            }
            if from_parent >= rest as i128 {
                return None;
            }
            (node, need) = (p, rest);
        }
        None
    }
}

/// The idle private quota under cohort `c` away from share `s`'s path: the sum over the
/// other nodes of `max(0, private - usage)` (what lending limits keep from being lent).
fn private_elsewhere(tree: &QuotaTree, s: usize, c: Node) -> u64 {
    let on_path = |k: Node| k == s || tree.ancestors(s).any(|a| a == k);
    let mut stack = vec![c];
    let mut sum = 0u64;
    let mut guard = tree.parent.len() * 2 + 2;
    while let Some(k) = stack.pop() {
        guard = guard.saturating_sub(1);
        if guard == 0 {
            break; // validation refuses cycles; never loop
        }
        if !on_path(k) {
            sum = sum.saturating_add(tree.local_available(k));
        }
        stack.extend(tree.child_cohorts[k].iter().chain(&tree.child_shares[k]));
    }
    sum
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
/// put each back, and keep it back when J still fits. `chosen` holds candidates, or
/// candidates with what they were chosen as (fair sharing): `candidate` reads one.
pub(crate) fn fill_back<T>(
    trial: &mut Trial,
    chosen: &mut Vec<T>,
    candidate: impl Fn(&T) -> Candidate,
    fits: impl Fn(&Trial) -> bool,
) {
    if chosen.len() < 2 {
        return;
    }
    for i in (0..chosen.len() - 1).rev() {
        let c = candidate(&chosen[i]);
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

/// SPEC 12.1: whether job `j` waits for its preempted victims, of the preemptors that wait
/// (`KueueState::waiting`): its `waiting` event says so, and the end of the pass leaves its
/// reason alone.
pub(super) fn waits_for_victims_in(
    waiting: &std::collections::BTreeMap<JobId, super::offers::PreemptionWait>,
    j: JobId,
) -> bool {
    !waiting.is_empty() && waiting.contains_key(&j)
}
