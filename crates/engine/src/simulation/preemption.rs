//! Preemption: victim selection (SPEC 5), Kueue's classic algorithm.
//!
//! Two mechanisms: **reclaim** (always on: a job that will end within its share's
//! entitlement may preempt jobs of other shares that are over their limit) and **in-share**
//! preemption (per share: strictly lower priority jobs of the same share). Selection works
//! on a copy of one type's [`TypeUsage`], so trying costs no change to the simulation.

use std::collections::BinaryHeap;

use super::memo::{CouldPassKey, TrialRoom};
use crate::input::model::Priority;
use crate::simulation::admission::{self, TypeUsage};
use crate::simulation::{AKey, Cause, JobId, Sim};

/// A chosen victim and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Victim {
    pub job: JobId,
    pub share: usize,
    pub instances: u64,
    pub cause: Cause,
    /// Kueue model, fair sharing: the preemptor's and the victim's dominant resource share
    /// (SPEC 12 explanations); `None` elsewhere.
    pub shares: Option<[crate::simulation::share_value::ShareValue; 2]>,
}

/// The job preemption makes room for, as its queue head knows it (share, type, size,
/// priority): the pass hands it over, so selection reads no job record to learn them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Preemptor {
    pub share: usize,
    pub ty: usize,
    pub n: u64,
    pub priority: Priority,
}

/// Which fit test an attempt uses (SPEC 5 step 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Attempt {
    /// A: J must fit *within entitlement*.
    NoBorrowing,
    /// B: J may borrow up to its cap.
    Borrowing,
}

impl Sim<'_> {
    /// SPEC 5: the victims that let job `j` be admitted, or `None` (nobody is preempted).
    ///
    /// SPEC 12: under the translation table this is Kueue's `classicalPreemptions` with
    /// `borrow_within_cohort` `never` (KUEUE.md "Precise points" 1: attempt A is the
    /// no-borrowing attempt, B the borrowing one over own-share candidates). SPEC 5 wins
    /// where they differ: candidates form one merged list (lowest priority, latest admission)
    /// instead of Kueue's three separately sorted lists; another share's job is a candidate
    /// whenever its share is over its limit, with no hierarchical classes and no pruning of
    /// cohorts within quota (one flat cohort); and fit is SPEC 3's three conditions, the third
    /// (other RESERVE shares' idle entitlement) having no Kueue counterpart. Conditions 1-2
    /// are tested on the translated quota tree each trial copy of [`TypeUsage`] carries
    /// (SPEC 12 "One engine"), so every trial fit goes through the same tree as admission.
    pub(crate) fn select_victims(&self, j: Preemptor) -> Option<Vec<Victim>> {
        let (s, t, p) = (j.share, j.ty, j.priority);
        // What removing every own candidate would release (0 with in-share preemption off).
        let own_lower = if self.cfg[s].in_share_preemption {
            self.rt[s].admitted_below(t, p)
        } else {
            0
        };
        // Attempt A only when some other share's job is a candidate and used < limit.
        let exhaustive = self.opts.exhaustive;
        if self.may_reclaim(s, t) && (exhaustive || self.could_pass(j, own_lower, true)) {
            let cands = self.other_candidates(s, t).chain(self.own_candidates(j));
            if let Some(v) = self.attempt(j, cands, Attempt::NoBorrowing) {
                return Some(v);
            }
        }
        if own_lower == 0 || !(exhaustive || self.could_pass(j, own_lower, false)) {
            return None;
        }
        // Attempt B: own-share candidates only, borrowing allowed.
        self.attempt(j, self.own_candidates(j), Attempt::Borrowing)
    }

    /// SPEC 12: SPEC 5 wins here over Kueue's "may preempt" gate (`fitsResourceQuota`,
    /// flavorassigner.go): in the AWS model every served job may try to preempt, with no
    /// `potential` or nominal test; only this candidate test applies.
    ///
    /// SPEC 5: whether a job of share `s`, type `t` and priority `p` has any preemption
    /// candidate at all: other shares over their limit while its share is under its own, or
    /// lower-priority admitted jobs of its share with in-share preemption on.
    pub(crate) fn may_preempt(&self, s: usize, t: usize, p: Priority) -> bool {
        self.may_reclaim(s, t)
            || (self.cfg[s].in_share_preemption
                && self.rt[s].admitted[t]
                    .first()
                    .is_some_and(|k| k.priority < p))
    }

    /// SPEC 12: Kueue's `reclaim` `any` with `borrow_within_cohort` `never` under the
    /// translation: the no-borrowing attempt runs only while the preemptor is under its
    /// limit, as Kueue's `queueUnderNominalInResourcesNeedingPreemption` (no difference).
    ///
    /// SPEC 5 reclaim: a job of share `s` may reclaim instances of type `t` only while `s`
    /// is under its own limit and some other share is over its limit (its jobs are the
    /// candidates of group 1).
    fn may_reclaim(&self, s: usize, t: usize) -> bool {
        // A share under its limit is not over it: some other share is when any is.
        let usage = &self.usage[t];
        usage.over > 0 && usage.under_limit(s)
    }

    /// SPEC 5 candidates, group 1: admitted jobs of type `t` of other shares that are over
    /// their limit, lowest priority first, then latest admission first (merged across
    /// shares). Computed lazily: attempts usually stop after a few.
    fn other_candidates(&self, s: usize, t: usize) -> impl Iterator<Item = Victim> + '_ {
        let mut iters: Vec<_> = (0..self.cfg.len())
            .filter(|&o| o != s && self.usage[t].over_limit(&self.cfg, o))
            .map(|o| (o, self.rt[o].admitted[t].iter().peekable()))
            .collect();
        let mut heap: BinaryHeap<std::cmp::Reverse<(AKey, usize)>> = BinaryHeap::new();
        for (i, (_, it)) in iters.iter_mut().enumerate() {
            if let Some(&k) = it.next() {
                heap.push(std::cmp::Reverse((k, i)));
            }
        }
        std::iter::from_fn(move || {
            let std::cmp::Reverse((k, i)) = heap.pop()?;
            let (o, it) = &mut iters[i];
            if let Some(&next) = it.next() {
                heap.push(std::cmp::Reverse((next, i)));
            }
            let job = k.job;
            Some(Victim {
                job,
                share: *o,
                instances: self.sc.jobs[job.index()].instances(),
                cause: Cause::Reclaim,
                shares: None,
            })
        })
    }

    /// SPEC 5 candidates, group 2: with in-share preemption on, admitted jobs of J's own
    /// share and type with strictly lower priority, lowest first, then latest admission.
    fn own_candidates(&self, j: Preemptor) -> impl Iterator<Item = Victim> + '_ {
        let (s, t, p) = (j.share, j.ty, j.priority);
        let on = self.cfg[s].in_share_preemption;
        self.rt[s].admitted[t]
            .iter()
            .take_while(move |k| on && k.priority < p)
            .map(move |k| Victim {
                job: k.job,
                share: s,
                instances: self.sc.jobs[k.job.index()].instances(),
                cause: Cause::InShare,
                shares: None,
            })
    }

    /// A necessary condition for an attempt to succeed, in O(shares): J passes the attempt's
    /// test once every candidate that could be removed is (own lower-priority jobs, and for
    /// attempt A other shares down to the least they can drop to: removal from a share stops
    /// once it is within its limit, so it keeps at least `limit + 1 - largest job`).
    /// Removing more only helps, so if this fails the attempt fails and is not run.
    fn could_pass(&self, j: Preemptor, own_lower: u64, reclaim: bool) -> bool {
        let (s, n) = (j.share, j.n);
        let key = (s, j.ty, own_lower, reclaim);
        let known = self.memo.could_pass.borrow().get(self.epochs.usage(), key);
        let room = known.unwrap_or_else(|| {
            let room = self.room_after_removal(key);
            self.memo
                .could_pass
                .borrow_mut()
                .put(self.epochs.usage(), key, room);
            room
        });
        let attempt = if reclaim {
            Attempt::NoBorrowing
        } else {
            Attempt::Borrowing
        };
        self.room_passes(room, s, n, attempt)
    }

    /// [`Sim::could_pass`]'s trial: share `s`'s room once every candidate that could be
    /// removed is. It does not depend on the job's size, only on the usage of one type and
    /// the configuration (both unchanged while the usage epoch is) and on its key: the heads
    /// of a share's buckets, which differ in size, share it. Computed on the usage's totals
    /// ([`TypeUsage::remove_from`]), nothing copied.
    ///
    /// With `reclaim`, `s` is under its limit ([`Sim::may_reclaim`]), so not among the
    /// shares reclaim takes from: what they release is the same for every such `s`.
    fn room_after_removal(&self, (s, t, own_lower, reclaim): CouldPassKey) -> TrialRoom {
        let usage = &self.usage[t];
        let mut totals = if reclaim {
            debug_assert!(usage.under_limit(s));
            self.totals_after_reclaim(t)
        } else {
            usage.totals()
        };
        usage.remove_from(&mut totals, s, own_lower);
        let used = usage.used[s] - own_lower;
        TrialRoom {
            headroom: usage.headroom_given(s, used, totals),
            t,
            used,
        }
    }

    /// The totals of type `t` once every share over its limit released what reclaim can
    /// take from it ([`Sim::reclaimable`]); kept for the current the usage epoch.
    fn totals_after_reclaim(&self, t: usize) -> admission::Totals {
        let version = self.epochs.usage();
        if let Some(totals) = self.memo.could_pass.borrow().reclaimed(version, t) {
            return totals;
        }
        let usage = &self.usage[t];
        let mut totals = usage.totals();
        for o in 0..self.cfg.len() {
            if usage.over_limit(&self.cfg, o) {
                usage.remove_from(&mut totals, o, self.reclaimable(usage, o));
            }
        }
        self.memo
            .could_pass
            .borrow_mut()
            .put_reclaimed(version, t, totals);
        totals
    }

    /// SPEC 5 step 2, bounded: what reclaim can take from share `o` (over its limit) at
    /// most. Removal from a share stops once it is within its limit, so it keeps at least
    /// `limit + 1 - largest job`.
    fn reclaimable(&self, usage: &TypeUsage, o: usize) -> u64 {
        let t = usage.t;
        let floor =
            (admission::limit_of(&self.cfg[o], t) + 1).saturating_sub(self.max_instances[o][t]);
        usage.used[o] - floor.min(usage.used[o])
    }

    /// The test an attempt uses: A needs J to fit within entitlement, B just to fit.
    fn passes(&self, trial: &TypeUsage, s: usize, n: u64, attempt: Attempt) -> bool {
        self.room_passes(TrialRoom::of(trial, s), s, n, attempt)
    }

    /// [`Sim::passes`] on a trial's room for share `s`.
    fn room_passes(&self, room: TrialRoom, s: usize, n: u64, attempt: Attempt) -> bool {
        room.headroom.fits(n).is_ok()
            && (attempt == Attempt::Borrowing
                || admission::within_entitlement(&self.cfg[s], room.t, room.used, n))
    }

    /// SPEC 5 step 2: remove candidates in order until J passes the attempt's test,
    /// skipping another share's job once that share is no longer over its limit; then
    /// step 3, the minimal set.
    fn attempt(
        &self,
        j: Preemptor,
        cands: impl Iterator<Item = Victim>,
        attempt: Attempt,
    ) -> Option<Vec<Victim>> {
        let (s, t, n) = (j.share, j.ty, j.n);
        let mut trial = self.usage[t].clone();
        let mut victims = Vec::new();
        for c in cands {
            if c.share != s && !trial.over_limit(&self.cfg, c.share) {
                continue;
            }
            trial.remove(&self.cfg, c.share, c.instances);
            victims.push(c);
            if self.passes(&trial, s, n, attempt) {
                self.minimal_set(&mut trial, &mut victims, s, n, attempt);
                return Some(victims);
            }
        }
        None
    }

    /// SPEC 5 step 3: walk the victims in reverse, skipping the last one chosen, and put
    /// back every one J still fits without (by the same test).
    fn minimal_set(
        &self,
        trial: &mut TypeUsage,
        victims: &mut Vec<Victim>,
        s: usize,
        n: u64,
        attempt: Attempt,
    ) {
        if victims.len() < 2 {
            return;
        }
        for i in (0..victims.len() - 1).rev() {
            let v = victims[i];
            trial.add(&self.cfg, v.share, v.instances);
            if self.passes(trial, s, n, attempt) {
                victims.remove(i);
            } else {
                trial.remove(&self.cfg, v.share, v.instances);
            }
        }
    }
}
