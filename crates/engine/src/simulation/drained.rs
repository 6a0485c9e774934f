//! A skip (issue #31, lever 1 of docs/PERFORMANCE.md "Kueue against AWS"): within a
//! Kueue pass, a share whose whole queue is known inert is set aside for the rest of the
//! pass at once and its cycles are counted, not walked (SPEC 12.1 "Cycles", "Inadmissible
//! workloads"; KUEUE.md: `schedule` takes one head per ClusterQueue each cycle,
//! `requeueAndUpdate` sets an inadmissible head aside).
//!
//! Design. Each cycle a best-effort FIFO share's head is its first job not set aside
//! (`Sim::cycle_head`); a head known inert (`Sim::known_inert`) is only set aside, and
//! does nothing else in the walk (it is walked last, unsorted, with no preemptor keeping
//! instances and without fair sharing). When every job not set aside is known inert
//! (its `InertRun` holds and names no acting job: `Sim::wholly_inert`), the share's
//! next `ready_count` cycles each set aside its next job and nothing more, for as long as
//! the run holds. Such a share is *drained* ([`Drain`] in its `ShareRt`): walked cycles
//! and skips no longer visit it; each cycle that would have taken its head counts one
//! more job set aside (`done`), until none is left (`left`); a walked cycle in which one
//! was still left changed something (a head set aside), and a skip's length reads the
//! drained shares' `left` as it reads the others' `ready_count`. What was counted is set
//! aside for real (materialised, [`Sim::undrain`], `set_aside_first(done)`) before
//! anything reads or changes the share's queue: at the start of each cycle or skip if its
//! run no longer holds or a preemptor keeps instances, before a job joins or leaves its
//! RUNNABLE jobs (an eviction's requeue, an admission), before a release requeues its
//! jobs set aside, and at the pass's end. Off with `Options::exhaustive` and fair sharing.

use super::queues::Drain;
use super::Sim;

impl Sim<'_> {
    /// Whether drained shares may be kept in this pass: not with `Options::exhaustive`,
    /// fair sharing (the tournament reads every head) or a preemptor keeping instances
    /// (the walk then sorts every head).
    pub(super) fn drains(&self) -> bool {
        !self.opts.exhaustive && self.sc.fair_sharing.is_none() && self.kueue.keeps.is_empty()
    }

    /// Share `s`, `ready_count` of whose jobs are not set aside, all known inert, is
    /// drained, `done` of them already counted as set aside.
    pub(super) fn drain(&mut self, s: usize, done: usize) {
        let left = self.rt[s].ready_count() - done;
        debug_assert!(self.rt[s].drain.is_none(), "drained twice");
        debug_assert!(
            self.wholly_inert(s),
            "a share drained with a job that may act"
        );
        let run = self.rt[s].inert.get().expect("its run holds");
        self.rt[s].drain = Some(Drain {
            done,
            left,
            at: run.at,
            searched: run.searched,
        });
        self.kueue.drained.push(s);
    }

    /// The start of a cycle or skip: the drained shares whose run no longer holds, or all
    /// of them if drained shares may no longer be kept, are materialised.
    pub(super) fn check_drained(&mut self) {
        if self.kueue.drained.is_empty() {
            return;
        }
        if !self.drains() {
            self.undrain_all();
            return;
        }
        // Runs hold while the epochs they are stamped with do (a share's `members` moving
        // undrains it first): with both unchanged since the last look, all still hold.
        let epochs = (self.epochs.freed(), self.epochs.quota());
        if self.kueue.drained_at == Some(epochs) {
            return;
        }
        self.kueue.drained_at = Some(epochs);
        let mut i = 0;
        while i < self.kueue.drained.len() {
            let s = self.kueue.drained[i];
            if self.drain_holds(s) {
                i += 1;
            } else {
                self.kueue.drained.swap_remove(i);
                self.materialise(s);
            }
        }
    }

    /// Whether drained share `s`'s run still holds ([`Sim::wholly_inert`], read from the
    /// stamp kept in its [`Drain`]).
    fn drain_holds(&self, s: usize) -> bool {
        let d = self.rt[s].drain.expect("a drained share");
        let epoch = if d.searched {
            self.epochs.quota()
        } else {
            self.epochs.freed()
        };
        let holds = (epoch, self.rt[s].members) == d.at;
        debug_assert_eq!(holds, self.wholly_inert(s), "a drained share's run");
        holds
    }

    /// A walked cycle takes the head of every drained share with a job left: each is set
    /// aside (counted). Whether any was.
    pub(super) fn drained_cycle(&mut self) -> bool {
        self.drained_skip(1)
    }

    /// `k` cycles (walked or done at once) take the heads of the drained shares: up to
    /// `k` more jobs of each are set aside (counted). Whether any was.
    pub(super) fn drained_skip(&mut self, k: usize) -> bool {
        let mut any = false;
        for &s in &self.kueue.drained {
            let d = self.rt[s].drain.as_mut().expect("a drained share");
            let m = k.min(d.left);
            d.done += m;
            d.left -= m;
            any |= m > 0;
            self.record.drained += m as u64;
        }
        any
    }

    /// The most jobs any drained share has left (0 if none).
    pub(super) fn drained_longest(&self) -> usize {
        let left = |&s: &usize| self.rt[s].drain.map_or(0, |d| d.left);
        self.kueue.drained.iter().map(left).max().unwrap_or(0)
    }

    /// Before share `s`'s queue is read or changed: its jobs counted as set aside are
    /// set aside, and it is no longer drained.
    pub(super) fn undrain(&mut self, s: usize) {
        if self.rt[s].drain.is_none() {
            return;
        }
        let at = self.kueue.drained.iter().position(|&d| d == s);
        self.kueue.drained.swap_remove(at.expect("listed"));
        self.materialise(s);
    }

    /// [`Sim::undrain`] of every drained share (the pass's end, a release).
    pub(super) fn undrain_all(&mut self) {
        while let Some(s) = self.kueue.drained.pop() {
            self.materialise(s);
        }
    }

    /// Sets aside the jobs counted as set aside of drained share `s` (delisted).
    fn materialise(&mut self, s: usize) {
        let d = self.rt[s].drain.take().expect("a drained share");
        if d.done > 0 {
            let rt = &mut self.rt[s];
            rt.set_aside_first(d.done);
            rt.version += 1;
        }
    }
}
