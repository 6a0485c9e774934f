//! The Kueue model's scheduling pass as Kueue's scheduler runs it (SPEC 12.1 "Cycles";
//! Kueue `pkg/scheduler/scheduler.go` `schedule`, `nominate`, `makeClassicalIterator`,
//! `fair_sharing_iterator.go`, `fits`, `requeueAndUpdate`; `pkg/cache/queue`
//! `Manager.Heads`, `ClusterQueue.RequeueIfNotPresent`).
//!
//! A pass runs cycles until one changes nothing. A cycle takes one head per share
//! ([`Sim::cycle_head`]), nominates every head against the same state
//! ([`Sim::nominate`]), orders the entries once (classical) or at every step (fair
//! sharing's tournament), then walks them ([`Sim::process_entry`]): an entry that no
//! longer fits after the cycle's earlier admissions is skipped (it stays at its share's
//! head for the next cycle), a preemption whose targets overlap an earlier one's is
//! skipped, heads that can neither fit nor preempt are set aside ([`Sim::requeue_heads`]).

use crate::input::model::ReclaimPolicy;
use crate::simulation::preemption::Victim;
use crate::simulation::{JobId, Sim, Size, State};

use super::fair_sharing::{bubbled, compare_drs};
use super::kueue::order_rank;
use super::offers::{Entry, KHead, Nomination, Scratch, Staying, Stays};
use super::queues::{Alone, Bucket, InertRun, QKey};

/// What a head would do in a cycle, as the skip reads it ([`Sim::verdict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Fit, preempt or reserve.
    Acts,
    /// Be set aside and do nothing else, without a search.
    Inert,
    /// Be set aside and do nothing else: a search found no victims.
    NoneFound,
}

/// A quiet cycle ([`Sim::quiet_entries`]): the steps its preemptions counted (the heads
/// that stayed through it are in [`Scratch`]'s `quiet`).
struct Quiet {
    steps: u64,
}

/// What a cycle's walk did: the victims it chose (Kueue `preemptedWorkloads`), the heads
/// to set aside after it, and whether it changed anything (an admission, an eviction).
struct Walk {
    preempted: Vec<JobId>,
    aside: Vec<(usize, JobId)>,
    changed: bool,
}

impl Sim<'_> {
    /// SPEC 12 / 12.1 "The pass" in the Kueue model: Kueue's scheduling cycles until one
    /// changes nothing (as the reference harness runs them at an instant). Cycles that go
    /// on changing the state for ever (Kueue's own thrash with no grace) are cut off, and
    /// the instant is kept ([`super::Finished::kueue_unsettled`]).
    pub(crate) fn kueue_pass(&mut self) {
        let mut left = 500 + 4 * (self.sc.jobs.len() + self.cfg.len());
        let mut scratch = std::mem::take(&mut self.kueue.scratch);
        // The first cycles may be done at once too, if every head in them would only be
        // set aside (as after a cycle that was not quiet).
        scratch.quiet.clear();
        let mut quiet = self.kueue.keeps.is_empty().then_some(Quiet { steps: 0 });
        let mut settled = false;
        while left > 0 {
            // The last cycle's waiting preemptors stay counted in until the waiting reasons
            // are read (`undo_swaps` after them); an earlier cycle's are not.
            self.undo_swaps();
            if let Some(q) = quiet.take() {
                let skipped = self.skip_quiet_cycles(&q, left - 1, &mut scratch);
                self.record.cycles.1 += skipped as u64;
                left -= skipped;
            }
            left -= 1;
            self.record.cycles.0 += 1;
            let (changed, q) = self.kueue_cycle(&mut scratch);
            if !changed {
                settled = true;
                break;
            }
            // After a cycle that was not quiet, the next cycles may still be done at once
            // if every head in them would only be set aside: as after a quiet cycle no
            // head of which stayed (none kept instances: `keeps` is read by a walk).
            quiet = q.or_else(|| {
                scratch.quiet.clear();
                self.kueue.keeps.is_empty().then_some(Quiet { steps: 0 })
            });
        }
        if !settled {
            self.kueue.unsettled.push(self.now);
        }
        self.undrain_all();
        self.kueue.keeps.clear();
        self.kueue.scratch = scratch; // kept for its allocations
        self.end_of_waits();
    }

    /// One scheduling cycle (Kueue `schedule`): heads, nominations, the walk, the requeue.
    /// Whether it changed anything (an admission, an eviction, a head set aside), and, if
    /// it was quiet, what the next cycles repeat of it ([`Quiet`]).
    fn kueue_cycle(&mut self, scratch: &mut Scratch) -> (bool, Option<Quiet>) {
        let entries = &mut scratch.entries;
        entries.clear();
        // A head known inert is nominated as one that cannot fit: the walk does the same
        // with it (sets it aside) but where the order reads every head's rank (a preemptor
        // keeps instances) or fair sharing's tournament reads its mode.
        let shortcut = self.sc.fair_sharing.is_none() && self.kueue.keeps.is_empty();
        // A drained share's head is set aside, counted (`simulation::drained`); a share
        // whose every job is known inert is drained, its head the first counted.
        self.check_drained();
        let drains = self.drains();
        for s in 0..self.cfg.len() {
            if self.rt[s].drain.is_some() {
                continue;
            }
            if let Some(h) = self.cycle_head(s) {
                let run = self.rt[s]
                    .inert
                    .get()
                    .filter(|r| shortcut && self.run_holds(s, r));
                if drains && self.drainable(s, run) {
                    self.drain(s, 0);
                    continue;
                }
                let inert = run.is_some_and(|r| r.first.is_none_or(|f| h.key < f));
                debug_assert_eq!(inert, shortcut && self.known_inert(s, h.key));
                entries.push(self.nominate(s, h, inert));
            }
        }
        let drained = self.drained_cycle();
        if !self.kueue.keeps.is_empty() {
            // A preemptor keeps instances only while it is a head.
            self.kueue
                .keeps
                .retain(|p| entries.iter().any(|e| e.job == *p));
        }
        if entries.is_empty() && !drained {
            return (false, None);
        }
        let fair = self.sc.fair_sharing.is_some();
        // Classical: the entries' walk order, by rank (ranks are distinct: one entry per
        // share, and the share is the rank's last key), sorted without moving the entries.
        // A head that can neither fit nor preempt, or found no victims and reserves
        // nothing, does nothing in the walk but be set aside after it and end a
        // preemptor's keeping (`keeps`): with none keeping, those heads are walked last,
        // unsorted (the walk does the same in any order).
        let order = &mut scratch.order;
        order.clear();
        if !fair {
            let sort_all = !self.kueue.keeps.is_empty();
            let inert = |e: &Entry| match e.mode {
                Nomination::NoFit => !sort_all,
                Nomination::NoTargets => !sort_all && self.reserves_nothing(e.share),
                _ => false,
            };
            let ranked = entries.iter().enumerate().filter(|(_, e)| !inert(e));
            order.extend(ranked.map(|(i, e)| (self.rank(e), i)));
            order.sort_unstable();
            // Their ranks are not read (nor worked out).
            let rest = entries.iter().enumerate().filter(|(_, e)| inert(e));
            order.extend(rest.map(|(i, _)| (0, i)));
        }
        let quiet = self.quiet_entries(entries, &mut scratch.quiet);
        let steps = self.record.steps;
        self.kueue.in_cycle = true;
        let mut walk = Walk {
            aside: std::mem::take(&mut scratch.aside),
            preempted: std::mem::take(&mut scratch.preempted),
            changed: false,
        };
        walk.aside.clear();
        walk.preempted.clear();
        let done = &mut scratch.done;
        done.clear();
        done.resize(entries.len(), false);
        let mut ranked = order.iter().map(|&(_, i)| i);
        for _ in 0..entries.len() {
            let i = if fair {
                // Kueue's tournament orders on the cycle's snapshot, where the victims of
                // the preemptions issued so far still hold their quota (only `fits`
                // simulates their removal; SPEC 12.1 "Cycles").
                self.count_held(&walk.preempted, true);
                let i = self.next_fair_entry(entries, done);
                self.count_held(&walk.preempted, false);
                i
            } else {
                ranked.next().expect("an entry per place in the order")
            };
            done[i] = true;
            self.process_entry(&entries[i], &mut walk);
        }
        self.kueue.in_cycle = false;
        // Quiet only if the walk admitted and evicted no one (heads passed over).
        let quiet = quiet && !walk.changed;
        self.release_reservations();
        walk.changed |= self.requeue_heads(&walk.aside) | drained;
        scratch.aside = walk.aside;
        scratch.preempted = walk.preempted;
        let mut deferred = std::mem::take(&mut self.kueue.deferred);
        for &s in &deferred {
            self.requeue_inadmissible(s); // outside the cycle: nothing more is deferred
        }
        deferred.clear();
        self.kueue.deferred = deferred; // kept for its allocation
        let quiet = quiet.then(|| Quiet {
            steps: self.record.steps - steps,
        });
        (walk.changed, quiet)
    }

    /// Whether a cycle of `entries` may be quiet, as its nominations say: each can neither
    /// fit nor preempt, or found no victims and reserves nothing (its `reclaim` is `any`),
    /// or is a preemptor all of whose victims are already in their grace (it waits for
    /// them: issuing its preemptions again changes nothing after this cycle), or (without
    /// fair sharing, and with no preemptor keeping instances from an earlier cycle) may
    /// fit or preempt: it is quiet if the walk then passes over each of these (admits and
    /// evicts no one). With fair sharing, at most one waiting preemptor (the tournament's
    /// order of several could change with the others). If so, `staying` holds the heads
    /// other than those set aside, with what they do, in share order (as `entries`).
    fn quiet_entries(&self, entries: &[Entry], staying: &mut Staying) -> bool {
        staying.clear();
        let fair = self.sc.fair_sharing.is_some();
        for e in entries {
            match &e.mode {
                Nomination::NoFit => {}
                Nomination::NoTargets if self.reserves_nothing(e.share) => {}
                Nomination::Preempt(v) if v.iter().all(|v| self.is_evicted(v.job)) => {
                    staying.push(e.job, Stays::Waits, v);
                }
                Nomination::Fit if !fair => staying.push(e.job, Stays::FitPassedOver, &[]),
                Nomination::Preempt(v) if !fair => {
                    staying.push(e.job, Stays::PreemptPassedOver, v);
                }
                _ => return false,
            }
        }
        if fair && staying.waiting() > 1 {
            return false;
        }
        if staying.passed_over() && !self.kueue.keeps.is_empty() {
            return false; // a preemptor kept instances in this walk, and no longer will
        }
        true
    }

    /// Whether a head of share `s` that found no victims reserves nothing
    /// ([`Sim::reserve_unreclaimable`]).
    fn reserves_nothing(&self, s: usize) -> bool {
        self.cfg[s].kueue.preemption.reclaim == ReclaimPolicy::Any
    }

    /// After a quiet cycle, with its waiting preemptors' usage counted out again: the
    /// cycles that would follow it while nothing changes, done at once (at most `max`).
    /// Each would take the next head of every best-effort share whose head is set aside,
    /// find it can neither fit nor preempt (or found no victims, reserving nothing) and set
    /// it aside, while the heads that stay (waiting preemptors, sticky; heads the walk
    /// passed over; strict FIFO heads) repeat the quiet cycle's work unchanged: the state
    /// is the quiet cycle's but for heads set aside, which do nothing in a walk, so those
    /// heads are nominated alike, walked in the same order and passed over again. They
    /// stop before the first cycle in which some share's next head would do something
    /// else, or in which no head is left to set aside (that cycle runs as any other). The
    /// number of cycles done. After a cycle that changed something and was not quiet, and
    /// before a pass's first cycle, `quiet` is such a cycle with no head staying and no
    /// steps: every head must then be set aside and do nothing else. A head known inert
    /// from its share's run ([`Sim::known_inert`]) is not nominated again.
    fn skip_quiet_cycles(&mut self, quiet: &Quiet, max: usize, scratch: &mut Scratch) -> usize {
        if max == 0 || self.opts.exhaustive {
            return 0;
        }
        self.check_drained();
        // The heads that stay must be those of the quiet cycle, doing the same: its
        // waiting preemptors (sticky, or skipped as their targets overlap an earlier
        // entry's), the heads its walk passed over and strict FIFO heads; every other head
        // is its queue's first job not set aside, and set aside next.
        let fair = self.sc.fair_sharing.is_some();
        let staying = &mut scratch.staying;
        staying.clear();
        let advancing = &mut scratch.advancing;
        advancing.clear();
        for s in 0..self.cfg.len() {
            if staying.heads.len() > scratch.quiet.heads.len() {
                return 0; // more heads stay than in the quiet cycle
            }
            if self.rt[s].drain.is_some() {
                continue; // its heads are counted (`simulation::drained`)
            }
            let Some(h) = self.cycle_head(s) else {
                continue;
            };
            // The room its head is nominated with is the one its next heads are asked
            // with below (`inert_run`): nothing changes the state in between.
            let mut room = None;
            let mode = if self.known_inert(s, h.key) {
                Nomination::NoFit // inert: set aside, as a head that cannot fit
            } else {
                self.nomination(s, h, &mut room)
            };
            match mode {
                Nomination::Preempt(v) if v.iter().all(|v| self.is_evicted(v.job)) => {
                    staying.push(h.job, Stays::Waits, &v);
                    continue;
                }
                Nomination::Fit if !fair => {
                    staying.push(h.job, Stays::FitPassedOver, &[]);
                    continue;
                }
                Nomination::Preempt(v) if !fair => {
                    staying.push(h.job, Stays::PreemptPassedOver, &v);
                    continue;
                }
                Nomination::NoFit => {}
                Nomination::NoTargets if self.reserves_nothing(s) => {}
                _ => return 0,
            }
            if self.strict_fifo(s) {
                continue; // it stays the head
            }
            if self.rt[s].sticky == Some(h.job) {
                return 0; // a sticky head set aside: the share's next heads are not its queue order
            }
            advancing.push((s, room));
        }
        let drained_left = self.drained_longest();
        if !staying.same_as(&scratch.quiet) || (advancing.is_empty() && drained_left == 0) {
            return 0;
        }
        if staying.passed_over() && !self.kueue.keeps.is_empty() {
            return 0;
        }
        // How many cycles: up to the first share whose next head acts.
        let mut k = max;
        let acting = &mut scratch.acting;
        acting.clear();
        for &(s, room) in advancing.iter() {
            let first = self.inert_run(s, k, room);
            if let Some((inert, _)) = first {
                k = k.min(inert);
            }
            acting.push(first);
        }
        let longest = advancing
            .iter()
            .map(|&(s, _)| self.rt[s].ready_count())
            .max();
        let k = k.min(longest.unwrap_or(0).max(drained_left));
        self.drained_skip(k);
        let drains = self.drains();
        for (&(s, _), &first) in advancing.iter().zip(acting.iter()) {
            let m = k.min(self.rt[s].ready_count());
            if first.is_none() && m < self.rt[s].ready_count() && drains && self.wholly_inert(s) {
                // Its next cycles are counted from now on (`simulation::drained`).
                self.drain(s, m);
                continue;
            }
            let rt = &mut self.rt[s];
            match first {
                _ if m == 0 => continue,
                Some((inert, key)) if inert == m => rt.set_aside_before(key, m),
                _ => rt.set_aside_first(m),
            }
            rt.version += 1;
        }
        self.record.steps += k as u64 * quiet.steps;
        k
    }

    /// How many of share `s`'s jobs not set aside, in queue order, come before the first
    /// that would act as a cycle's head now (fit, preempt, or reserve), and that job's
    /// key, if it is among the first `cap + 1`; `None` if those would all be set aside.
    /// `room`: the share's [`Sim::room_now`] if known (as [`Sim::room_in`] keeps it).
    fn inert_run(
        &self,
        s: usize,
        cap: usize,
        mut room: Option<(usize, i128)>,
    ) -> Option<(usize, QKey)> {
        // One search per (size, priority) answers for all such jobs.
        let by_class = self.victims_by_class(s);
        let rt = &self.rt[s];
        if by_class {
            let acting = self.first_acting(s, &mut room)?;
            let before = rt.ready_before(acting);
            return (before <= cap).then_some((before, acting));
        }
        rt.ready()
            .take(cap + 1)
            .enumerate()
            .find(|(_, h)| !self.inert_head(s, h.key.job, h.size, None, &mut room))
            .map(|(i, h)| (i, h.key))
    }

    /// [`ShareRt::first_ready_acting`] of share `s` with [`Sim::inert_head`] (by class:
    /// [`Sim::victims_by_class`]). A cache ([`InertRun`]): the answer is kept in the share
    /// and, while its stamp holds ([`Sim::inert_stamp`]), the jobs before the one kept
    /// are inert still; that one is asked again (a job that acted may no longer fit), and
    /// the whole queue only when it no longer acts.
    fn first_acting(&self, s: usize, room: &mut Option<(usize, i128)>) -> Option<QKey> {
        let rt = &self.rt[s];
        if let Some(run) = rt.inert.get().filter(|r| self.run_holds(s, r)) {
            let Some(f) = run.first else {
                debug_assert_eq!(self.first_acting_afresh(s), None, "a share's run stopped");
                return None; // every job not set aside is inert
            };
            let size = Size::of(&self.sc.jobs[f.job.index()]);
            let acts = |b| !self.inert_head(s, f.job, size, Some(b), room);
            if !rt.is_aside(&f) && rt.buckets.get(&size).is_some_and(acts) {
                debug_assert_eq!(self.first_acting_afresh(s), Some(f), "an inert job acts");
                return Some(f);
            }
        }
        let mut searched = false;
        let first = rt.first_ready_acting(|size, b, k| {
            let v = self.verdict(s, k.job, size, Some(b), room);
            searched |= v == Verdict::NoneFound;
            v == Verdict::Acts
        });
        if let Some(at) = self.inert_stamp(s, searched) {
            rt.inert.set(Some(InertRun {
                at,
                searched,
                first,
            }));
        }
        first
    }

    /// [`Sim::first_acting`] worked out afresh (for the cache's debug checks).
    fn first_acting_afresh(&self, s: usize) -> Option<QKey> {
        let mut room = None;
        self.rt[s]
            .first_ready_acting(|size, b, k| !self.inert_head(s, k.job, size, Some(b), &mut room))
    }

    /// What an [`InertRun`] of share `s` is valid at: the share's RUNNABLE jobs
    /// (`members`: its own admissions change its usage and candidates) and the epoch of
    /// what can make a head act. Quota only taken by admissions keeps a head that cannot
    /// fit from fitting, and what its share alone allows it from growing (SPEC 12 "may
    /// preempt" and [`Sim::finds_no_victims`] read usage that only grows): the `freed`
    /// epoch (releases, evictions, priority and configuration changes). A run in which a
    /// search found no victims (`searched`) holds only while no admission takes its share
    /// over its limit either (new candidates): the quota epoch, in trees whose cohorts
    /// are roots ([`Sim::none_stays_none`]). `None` where the cache is off:
    /// `Options::exhaustive`, fair sharing, searches that read the preemptor itself
    /// ([`Sim::victims_by_class`]).
    fn inert_stamp(&self, s: usize, searched: bool) -> Option<(u64, u64)> {
        let lasting = || (0..self.kueue.trees.len()).all(|t| self.none_stays_none(t));
        let on = !self.opts.exhaustive && self.victims_by_class(s) && (!searched || lasting());
        let epoch = if searched {
            self.epochs.quota()
        } else {
            self.epochs.freed()
        };
        on.then_some((epoch, self.rt[s].members))
    }

    /// Whether share `s`'s [`InertRun`] `run` still holds.
    fn run_holds(&self, s: usize, run: &InertRun) -> bool {
        Some(run.at) == self.inert_stamp(s, run.searched)
    }

    /// Whether every job of best-effort FIFO share `s` not set aside is known to be inert
    /// as a cycle's head ([`Sim::known_inert`] of each): its [`InertRun`] holds and names
    /// no acting job, and it has no sticky head (whose place in the queue a cycle skips).
    pub(super) fn wholly_inert(&self, s: usize) -> bool {
        let run = self.rt[s].inert.get().filter(|r| self.run_holds(s, r));
        self.drainable(s, run)
    }

    /// [`Sim::wholly_inert`] with share `s`'s run if it holds.
    fn drainable(&self, s: usize, run: Option<InertRun>) -> bool {
        run.is_some_and(|r| r.first.is_none())
            && self.rt[s].sticky.is_none()
            && !self.strict_fifo(s)
    }

    /// Whether job `key` of share `s`, not set aside, is known to be inert as a cycle's
    /// head ([`Sim::inert_head`]) from the share's [`InertRun`]: it comes before the first
    /// job that acted when the run was worked out, and the run holds.
    #[inline(never)]
    fn known_inert(&self, s: usize, key: QKey) -> bool {
        let Some(run) = self.rt[s].inert.get() else {
            return false;
        };
        let known = run.first.is_none_or(|f| key < f) && self.run_holds(s, &run);
        debug_assert!(
            !known || {
                let size = Size::of(&self.sc.jobs[key.job.index()]);
                self.inert_head(s, key.job, size, None, &mut None)
            },
            "a job known inert acts"
        );
        known
    }

    /// Whether job `j` of share `s` as a cycle's head would be set aside and do nothing
    /// else ([`Sim::verdict`]).
    fn inert_head(
        &self,
        s: usize,
        j: JobId,
        size: Size,
        b: Option<&Bucket>,
        room: &mut Option<(usize, i128)>,
    ) -> bool {
        self.verdict(s, j, size, b, room) != Verdict::Acts
    }

    /// What job `j` of share `s` would do as a cycle's head, as far as the skip reads it:
    /// be set aside and do nothing else ([`Sim::nominate`]'s `NoFit`, or `NoTargets`
    /// reserving nothing), by a search that found no victims or without one, or act.
    /// `room` keeps the share's [`Sim::room_now`] of the last type asked, for the next
    /// job asked; `b`, if known, is the job's bucket (its [`Sim::alone`] is remembered
    /// there).
    #[inline(never)]
    fn verdict(
        &self,
        s: usize,
        j: JobId,
        size: Size,
        b: Option<&Bucket>,
        room: &mut Option<(usize, i128)>,
    ) -> Verdict {
        let (t, n) = (size.ty.index(), size.instances);
        if !crate::simulation::admission::has_limit(&self.cfg[s], t) {
            return Verdict::Inert;
        }
        if (n as i128) <= self.room_in(s, t, room) {
            return Verdict::Acts; // it fits now
        }
        let alone = match b {
            Some(b) => self.alone_in(s, j, size, b),
            None => self.alone(s, j, size),
        };
        match alone {
            Alone::CannotPreempt => Verdict::Inert,
            Alone::NoVictims if self.reserves_nothing(s) => Verdict::Inert,
            Alone::MaySearch if self.reserves_nothing(s) => match self.kueue_victims_memo(j) {
                None => Verdict::NoneFound,
                Some(_) => Verdict::Acts,
            },
            _ => Verdict::Acts,
        }
    }

    /// SPEC 12 "may preempt" and [`Sim::finds_no_victims`] for job `j` of share `s` of
    /// `size`, a head that does not fit now. In a tree whose cohorts are roots and
    /// without fair sharing both read the share's own usage of the type and the
    /// configuration alone (`QuotaTree::fits_below_root` of a share under a root is its own
    /// quota; `finds_no_victims` reads the share's policy, usage and quota), so the answer
    /// is remembered in the job's bucket with that usage ([`Sim::alone_in`]).
    fn alone(&self, s: usize, j: JobId, size: Size) -> Alone {
        match self.rt[s].buckets.get(&size) {
            Some(b) => self.alone_in(s, j, size, b),
            None => self.alone_afresh(s, j, size),
        }
    }

    /// [`Sim::alone`] for a job of bucket `b` (of `size`). A cache: the answer is kept in
    /// the bucket ([`Bucket::alone`]) with the configuration epoch and the share's usage of
    /// the type, and read there while they hold.
    fn alone_in(&self, s: usize, j: JobId, size: Size, b: &Bucket) -> Alone {
        let t = size.ty.index();
        if !self.remembers_alone(t) {
            return self.alone_afresh(s, j, size);
        }
        let at = (self.epochs.config(), self.kueue.trees[t].usage[s]);
        match b.alone.get() {
            Some((c, u, a)) if (c, u) == at => {
                debug_assert_eq!(a, self.alone_afresh(s, j, size), "a bucket's alone changed");
                a
            }
            _ => {
                let a = self.alone_afresh(s, j, size);
                b.alone.set(Some((at.0, at.1, a)));
                a
            }
        }
    }

    /// [`Sim::alone`] worked out afresh.
    fn alone_afresh(&self, s: usize, j: JobId, size: Size) -> Alone {
        let (t, n) = (size.ty.index(), size.instances);
        if !self.kueue_may_preempt(s, t, n) {
            Alone::CannotPreempt
        } else if self.finds_no_victims(j) {
            Alone::NoVictims
        } else {
            Alone::MaySearch
        }
    }

    /// Whether [`Sim::alone`] keeps answers for type `t`.
    fn remembers_alone(&self, t: usize) -> bool {
        !self.opts.exhaustive && self.sc.fair_sharing.is_none() && self.kueue.trees[t].is_flat()
    }

    /// Kueue `Manager.Heads` / `ClusterQueue.Pop`: share `s`'s head in this cycle. Strict
    /// FIFO: its first job. Best-effort FIFO: its sticky preemptor if it is still queued
    /// and not set aside, else its first job (priority, submit, id) not set aside.
    ///
    /// A share with every RUNNABLE job set aside (or none) is answered without a call.
    #[inline(always)]
    fn cycle_head(&self, s: usize) -> Option<KHead> {
        let rt = &self.rt[s];
        if rt.ready_count() == 0 && (rt.runnable == 0 || !self.strict_fifo(s)) {
            return None;
        }
        self.share_head(s)
    }

    /// [`Sim::cycle_head`] of a share with a job that is not set aside (or, with strict
    /// FIFO, any RUNNABLE job).
    #[inline(never)]
    fn share_head(&self, s: usize) -> Option<KHead> {
        let rt = &self.rt[s];
        let head = |key: QKey, size: Size| KHead {
            job: key.job,
            key,
            size,
            limited: crate::simulation::admission::has_limit(&self.cfg[s], size.ty.index()),
        };
        if self.strict_fifo(s) {
            return rt.heads.first().map(|h| head(h.key, h.size));
        }
        if rt.ready_count() == 0 {
            return None; // every RUNNABLE job is set aside (a sticky preemptor too)
        }
        let sticky = rt
            .sticky
            .filter(|&p| self.jobs[p.index()].state == State::Runnable)
            .map(|p| self.qkey(p))
            .filter(|k| !rt.is_aside(k));
        if let Some(k) = sticky {
            return Some(head(k, Size::of(&self.sc.jobs[k.job.index()])));
        }
        rt.first_ready().map(|h| head(h.key, h.size))
    }

    /// Kueue `nominate` / `getAssignments` for head `h` of share `s`, against the state at
    /// the cycle's start: it fits; or it may preempt (SPEC 12 "may preempt") and these are
    /// its victims, or none are found; or neither.
    /// `inert`: the head is known inert ([`Sim::known_inert`]): nominated as one that
    /// cannot fit, without asking.
    fn nominate(&self, s: usize, h: KHead, inert: bool) -> Entry {
        Entry {
            job: h.job,
            share: s,
            size: h.size,
            mode: if inert {
                Nomination::NoFit
            } else {
                self.nomination(s, h, &mut None)
            },
        }
    }

    /// Entry `e`'s place in the classical order, against the state at the cycle's start
    /// (as it was nominated): its borrowing height, priority and submit time, then its
    /// share (SPEC 12.1 "Order of offers"), as one integer. Worked out only for the
    /// entries the walk sorts.
    fn rank(&self, e: &Entry) -> u128 {
        let (s, j, t, n) = (e.share, e.job, e.size.ty.index(), e.size.instances);
        let height = match &e.mode {
            Nomination::NoFit => 0,
            // Kueue `SimulatePreemption`: the height once the targets are gone.
            Nomination::Preempt(victims) => {
                let mut tree = self.kueue.trees[t].clone();
                for v in victims {
                    tree.remove_usage(v.share, v.instances);
                }
                self.borrowing_height_in(&tree, s, n)
            }
            _ => self.borrowing_height(s, t, n),
        };
        let (priority, submit) = (
            self.jobs[j.index()].priority,
            self.sc.jobs[j.index()].submit,
        );
        order_rank(height, priority, submit, s)
    }

    /// [`Sim::nominate`]'s mode for head `h` of share `s`, without its place in the order.
    /// `room` keeps the share's [`Sim::room_now`] as [`Sim::room_in`] does.
    fn nomination(&self, s: usize, h: KHead, room: &mut Option<(usize, i128)>) -> Nomination {
        let (j, t, n) = (h.job, h.size.ty.index(), h.size.instances);
        if !h.limited {
            return Nomination::NoFit;
        }
        if (n as i128) <= self.room_in(s, t, room) {
            return Nomination::Fit;
        }
        match self.alone(s, j, h.size) {
            Alone::CannotPreempt => Nomination::NoFit,
            Alone::NoVictims => Nomination::NoTargets,
            Alone::MaySearch => match self.kueue_victims_memo(j) {
                Some(v) => Nomination::Preempt(v),
                None => Nomination::NoTargets,
            },
        }
    }

    /// Adds (`back`) or removes again the quota of the cycle's victims in the trees: out of
    /// them once their preemptions are issued, still in Kueue's snapshot for the rest of the
    /// cycle.
    fn count_held(&mut self, victims: &[JobId], back: bool) {
        let sc = self.sc;
        let quota = |j: &JobId| {
            let spec = &sc.jobs[j.index()];
            (spec.share(), spec.instance_type(), spec.instances())
        };
        if back {
            for (s, t, n) in victims.iter().map(quota) {
                self.kueue.trees[t].add_usage(s, n);
            }
        } else {
            for (s, t, n) in victims.iter().rev().map(quota) {
                self.kueue.trees[t].remove_usage(s, n);
            }
        }
    }

    /// Kueue `fairSharingIterator.pop`: the entry the tournament of its root cohort picks
    /// next, with the cycle's admissions so far counted (SPEC 12 "Order of offers" with
    /// fair sharing). The root is the first remaining entry's (Kueue takes any; roots
    /// share no quota); a share without a cohort gives its entry at once.
    fn next_fair_entry(&self, entries: &[Entry], done: &[bool]) -> usize {
        let first = (0..entries.len())
            .find(|&i| !done[i])
            .expect("an entry is left");
        let tree = &self.kueue.trees[entries[first].size.ty.index()];
        if tree.parent[entries[first].share].is_none() {
            return first;
        }
        let root = tree.root(entries[first].share);
        self.tournament(root, entries, done)
            .expect("the root holds the entry")
    }

    /// Kueue `runTournament`: the best entry under cohort `node`: the winners of its child
    /// cohorts and the entries of its child shares, compared at `node` ([`Sim::fair_less`]).
    fn tournament(&self, node: usize, entries: &[Entry], done: &[bool]) -> Option<usize> {
        let tree = &self.kueue.trees[0];
        let mut best: Option<usize> = None;
        let consider = |i: usize, best: &mut Option<usize>| {
            if best.is_none_or(|b| self.fair_less(&entries[i], &entries[b], node)) {
                *best = Some(i);
            }
        };
        for &c in &tree.child_cohorts[node] {
            if let Some(i) = self.tournament(c, entries, done) {
                consider(i, &mut best);
            }
        }
        for &q in &tree.child_shares[node] {
            if let Some(i) = (0..entries.len()).find(|&i| !done[i] && entries[i].share == q) {
                consider(i, &mut best);
            }
        }
        best
    }

    /// Kueue `entryComparer.less` at cohort `parent`: the entry whose subtree under
    /// `parent` does not borrow (its own usage counted) first, then the lower dominant
    /// resource share of that subtree with the entry's usage added, then higher priority,
    /// then earlier submit. An entry that can neither fit nor preempt adds no usage.
    fn fair_less(&self, a: &Entry, b: &Entry, parent: usize) -> bool {
        let side = |e: &Entry| {
            let t = e.size.ty.index();
            let tree = &self.kueue.trees[t];
            let child = tree.child_towards(e.share, parent);
            if matches!(e.mode, Nomination::NoFit) {
                return (false, self.node_drs(child, t, tree, 0));
            }
            let extra = bubbled(tree, e.share, e.size.instances, child);
            (
                tree.borrowing_with(child, extra),
                self.node_drs(child, t, tree, extra),
            )
        };
        let ((ab, ad), (bb, bd)) = (side(a), side(b));
        if ab != bb {
            return !ab;
        }
        match compare_drs(&ad, &bd) {
            std::cmp::Ordering::Less => return true,
            std::cmp::Ordering::Greater => return false,
            std::cmp::Ordering::Equal => {}
        }
        let (pa, pb) = (
            self.jobs[a.job.index()].priority,
            self.jobs[b.job.index()].priority,
        );
        if pa != pb {
            return pa > pb;
        }
        self.sc.jobs[a.job.index()].submit < self.sc.jobs[b.job.index()].submit
    }

    /// Kueue `schedule`'s loop body for one entry: a head that can neither fit nor preempt
    /// is set aside after the cycle; one that may preempt but found no victims reserves
    /// capacity ([`Sim::reserve_unreclaimable`]) and is set aside; one that fits is
    /// admitted if it still fits; a preemptor issues its preemptions if its targets do not
    /// overlap an earlier entry's and it fits once they and the cycle's other victims are
    /// gone. An entry skipped stays its share's head for the next cycle.
    fn process_entry(&mut self, e: &Entry, walk: &mut Walk) {
        let (s, j, t, n) = (e.share, e.job, e.size.ty.index(), e.size.instances);
        if !self.kueue.keeps.is_empty() {
            self.kueue.keeps.retain(|&p| p != j); // walked again: it keeps nothing now
        }
        match &e.mode {
            Nomination::NoFit => walk.aside.push((s, j)),
            Nomination::NoTargets => {
                self.reserve_unreclaimable(s, t, n);
                walk.aside.push((s, j));
            }
            Nomination::Fit => {
                if self.still_fits(s, t, n, &[]) && !self.capacity_kept(s, t, n, &[]) {
                    self.record.steps += 1;
                    self.admit(j);
                    self.start_scheduled();
                    walk.changed = true;
                }
            }
            Nomination::Preempt(victims) => {
                if victims.iter().any(|v| walk.preempted.contains(&v.job)) {
                    return; // overlapping targets with an earlier entry
                }
                if !self.still_fits(s, t, n, victims) || self.capacity_kept(s, t, n, victims) {
                    return; // no longer fits after the cycle's earlier entries
                }
                walk.preempted.extend(victims.iter().map(|v| v.job));
                self.record.steps += 1;
                walk.changed |= self.issue_preemptions(j, victims);
            }
        }
    }

    /// Kueue `fits` (scheduler.go): job of share `s` needing `n` of type `t` fits the
    /// cycle's state (its admissions, reservations and waiting preemptors counted in, their
    /// victims out) once `victims` are gone too.
    fn still_fits(&self, s: usize, t: usize, n: u64, victims: &[Victim]) -> bool {
        if victims.is_empty() {
            return self.fits_now(s, t, n);
        }
        let mut trial = self.trial(t);
        for v in victims {
            trial.tree.remove_usage(v.share, v.instances);
            trial.sum_used = trial.sum_used.saturating_sub(v.instances);
        }
        self.tree_fits(&trial, s, t, n)
    }

    /// SPEC 12 capacity condition for a preemptor whose victims are gone (docs/RELIABILITY.md,
    /// defect 9): whether admitting a job of share `s` needing `n` of type `t` (once
    /// `victims` are gone) would keep out a preemptor of [`KueueState::keeps`] that fits
    /// now and whose quota would still hold it, by the capacity alone. Kueue has no physical
    /// capacity: without this, when the shares' quotas exceed the capacity, a head ordered
    /// before the preemptor takes instances the quota leaves the preemptor, which preempts
    /// again, and so on for ever. Where the capacity covers the quotas it never binds here
    /// (both would fit the quota, so both fit the capacity): Kueue's order decides.
    ///
    /// [`KueueState::keeps`]: super::offers::KueueState::keeps
    fn capacity_kept(&self, s: usize, t: usize, n: u64, victims: &[Victim]) -> bool {
        if self.kueue.keeps.is_empty() {
            return false;
        }
        let now = self.trial(t);
        let mut after = now.clone();
        for v in victims {
            after.tree.remove_usage(v.share, v.instances);
            after.sum_used = after.sum_used.saturating_sub(v.instances);
        }
        after.tree.add_usage(s, n);
        after.sum_used = after.sum_used.saturating_add(n);
        let capacity = self.sc.capacity[t];
        self.kueue.keeps.iter().any(|&p| {
            let spec = &self.sc.jobs[p.index()];
            let (ps, pn) = (spec.share(), spec.instances());
            spec.instance_type() == t
                && self.jobs[p.index()].state == State::Runnable
                && self.tree_fits(&now, ps, t, pn)
                && (pn as i128) <= after.tree.available(ps)
                && after.sum_used.saturating_add(pn) > capacity
        })
    }

    /// [`Sim::room_now`] of share `s` for type `t`, kept in `room` (the type and the room
    /// last asked) for the next job of the share asked while the state is the same.
    fn room_in(&self, s: usize, t: usize, room: &mut Option<(usize, i128)>) -> i128 {
        match *room {
            Some((rt, r)) if rt == t => r,
            _ => {
                let r = self.room_now(s, t);
                *room = Some((t, r));
                r
            }
        }
    }

    /// [`Sim::tree_fits`] on the current trees (no trial copied).
    fn fits_now(&self, s: usize, t: usize, n: u64) -> bool {
        (n as i128) <= self.room_now(s, t)
    }

    /// The most instances of type `t` a job of share `s` fits with now: [`Sim::fits_now`]
    /// is `n <= room` (`available(S,T)`, and what the capacity leaves with the cycle's
    /// kept instances counted in; no bound at the largest capacity, where a sum that
    /// saturates still fits).
    fn room_now(&self, s: usize, t: usize) -> i128 {
        let capacity = self.sc.capacity[t];
        let in_use = self.usage[t].sum_used + self.kueue.reserved[t];
        let by_capacity = if capacity == u64::MAX {
            i128::MAX
        } else {
            capacity as i128 - in_use as i128
        };
        self.kueue.trees[t].available(s).min(by_capacity)
    }

    /// Kueue `IssuePreemptions` and what the cycle does after it: the victims not yet
    /// evicted are (they keep their quota through their grace, SPEC 12.1); the preemptor
    /// becomes its share's sticky head (best-effort FIFO) and waits for them; for the rest
    /// of the cycle it is counted in and its victims out (`cq.AddUsage` after `fits`
    /// without the preempted workloads). Whether anyone was newly evicted.
    fn issue_preemptions(&mut self, j: JobId, victims: &[Victim]) -> bool {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let mut evicted = false;
        for v in victims {
            if !self.is_evicted(v.job) {
                self.preempt_with(v.job, j, v.cause, v.shares);
                evicted = true;
            }
        }
        if !self.strict_fifo(s) && self.rt[s].sticky != Some(j) {
            self.rt[s].sticky = Some(j);
            self.rt[s].version += 1;
        }
        self.start_scheduled();
        let holding: Vec<JobId> = victims
            .iter()
            .map(|v| v.job)
            .filter(|&v| self.is_evicted(v))
            .collect();
        if !holding.is_empty() {
            self.wait_for_victims(j, &holding);
        } else if !self.kueue.keeps.contains(&j) {
            self.kueue.keeps.push(j); // its victims are gone already
        }
        let mut out = 0;
        for v in victims {
            if self.is_evicted(v.job) && !self.kueue.swapped.contains(&v.job) {
                self.kueue.trees[t].remove_usage(v.share, v.instances);
                self.kueue.swaps.push((false, v.share, t, v.instances));
                self.kueue.swapped.push(v.job);
                out += v.instances;
            }
        }
        self.kueue.trees[t].add_usage(s, n);
        self.kueue.swaps.push((true, s, t, n));
        // The capacity condition counts it in too (its victims still hold their
        // instances): the instances it needs besides its victims' are kept for it.
        let keep = n.saturating_sub(out);
        if keep > 0 {
            self.kueue.reserved[t] += keep;
            self.kueue.kept.push((t, keep));
        }
        evicted
    }

    /// Kueue `reserveCapacityForUnreclaimablePreempt` (SPEC 12 "may preempt"): a head that
    /// may preempt but found no victims reserves, unless its `reclaim` is `any`, what it
    /// asked for ([`Sim::to_reserve`]) for the rest of the cycle.
    fn reserve_unreclaimable(&mut self, s: usize, t: usize, n: u64) {
        if self.cfg[s].kueue.preemption.reclaim == ReclaimPolicy::Any {
            return;
        }
        let r = self.to_reserve(s, t, n);
        if r > 0 {
            // Quota, not instances: Kueue knows no physical capacity, and a reservation may
            // take its cohort beyond its quota (it is added without a fit test).
            self.kueue.trees[t].add_usage(s, r);
            self.kueue.reservations.push((s, t, r));
        }
    }

    /// The end of a cycle: its reservations are gone.
    fn release_reservations(&mut self) {
        for &(s, t, r) in &self.kueue.reservations {
            self.kueue.trees[t].remove_usage(s, r);
        }
        self.kueue.reservations.clear();
    }

    /// Kueue `requeueAndUpdate` / `RequeueIfNotPresent` (SPEC 12.1 "Inadmissible
    /// workloads"): with best-effort FIFO, the cycle's heads that could neither fit nor
    /// preempt, or found no victims, are set aside until their cohort tree releases quota;
    /// with strict FIFO they stay at the head. Whether any was newly set aside.
    fn requeue_heads(&mut self, aside: &[(usize, JobId)]) -> bool {
        let mut changed = false;
        for &(s, j) in aside {
            if self.strict_fifo(s) {
                continue;
            }
            let key = self.qkey(j);
            if self.rt[s].set_aside(key) {
                self.rt[s].version += 1;
                changed = true;
            }
        }
        changed
    }
}
