//! The event loop (SPEC 4 "Instants", SPEC 6): the next instant, its timers, submissions
//! and timed events in order, then the start of SCHEDULED jobs and one pass; and the job
//! transitions those events cause, down to the books at the end of the run.

use std::cmp::Reverse;

use crate::input::model::*;
use crate::simulation::admission;
use crate::simulation::lifecycle;

use super::agenda::Timer;
use super::finished::Finished;
use super::state::*;

impl<'a> Sim<'a> {
    /// `n` events that happened while the log is off (counted, not kept; each would be a
    /// [`Sim::log`]).
    pub(super) fn count_unlogged(&mut self, n: u64) {
        debug_assert!(n == 0 || !self.opts.events, "events are logged one by one");
        self.record.event_count += n;
    }

    pub(crate) fn log(&mut self, job: JobId, share: usize, kind: EventKind) {
        self.record.event_count += 1;
        if self.opts.events {
            self.record.events.push(Event {
                t: self.now,
                job,
                share: share as u32,
                kind,
            });
        }
    }

    pub(super) fn timer(&mut self, at: Ms, kind: Timer, job: JobId) {
        let epoch = self.jobs[job.index()].epoch;
        self.agenda.set(at, kind, job, epoch);
    }

    pub(super) fn next_time(&mut self) -> Option<Ms> {
        let jobs = &self.jobs;
        self.agenda
            .next_time(self.sc, |job, epoch| jobs[job.index()].epoch == epoch)
    }

    /// Runs to the end (SPEC 6 "End of the run").
    pub fn run(mut self) -> Finished<'a> {
        while self.step() {}
        self.finish()
    }

    /// Processes the next instant; `false` when none is left (or the next is past the
    /// horizon). Between steps the state is consistent and can be inspected.
    pub fn step(&mut self) -> bool {
        if !self.started {
            self.started = true;
            self.record_values();
        }
        match self.next_time() {
            Some(t) if self.sc.horizon.is_none_or(|h| t <= h) => {
                self.instant(t);
                // SPEC 6, bounded: without a horizon, a circle of preemptions ends the run.
                let only_timers = self.agenda.only_timers_left();
                !(self.sc.horizon.is_none() && self.entered_circle(t, only_timers))
            }
            _ => false,
        }
    }

    /// Closes the run after the last step: end time, final integrals and books.
    pub fn finish(mut self) -> Finished<'a> {
        self.close();
        Finished::new(self)
    }

    fn close(&mut self) {
        self.end = self.sc.horizon.unwrap_or(self.record.last_t);
        self.now = self.end;
        self.integrate_to(self.end);
        for i in 0..self.record.now_vals.len() {
            self.settle_pair(i);
        }
        self.close_books();
    }

    /// One instant (SPEC 4): apply its events in order, start what can start, run one pass.
    pub(super) fn instant(&mut self, t: Ms) {
        self.integrate_to(t);
        self.now = t;
        while let Some((kind, job, epoch)) = self.agenda.timer_at(t) {
            if self.jobs[job.index()].epoch != epoch {
                continue; // stale: the job was preempted since
            }
            match kind {
                Timer::GraceEnd => self.grace_end(job),
                Timer::Completion => self.complete(job),
                Timer::StartupEnd => self.begin_running(job),
            }
        }
        while let Some(j) = self.agenda.submission_at(self.sc, t) {
            self.submit(j);
        }
        while let Some(e) = self.agenda.timed_at(self.sc, t) {
            self.apply_timed(e);
        }
        while let Some((job, priority)) = self.agenda.escalation_at(t) {
            self.escalate(job, priority);
        }
        self.start_scheduled();
        self.pass();
        self.record_values();
    }

    // ---- queues ------------------------------------------------------------------------

    pub(crate) fn qkey(&self, j: JobId) -> QKey {
        QKey {
            priority: Reverse(self.jobs[j.index()].priority),
            submit: self.sc.jobs[j.index()].submit,
            id_rank: self.id_rank.of(j),
            job: j,
        }
    }

    /// A job's place among the admitted (candidate order). The AWS model (SPEC 5): latest
    /// admission first. The Kueue model (SPEC 12.1, Kueue `CandidatesOrdering`): latest
    /// admission *second* first, then the job id in string order (the workload UID).
    pub(super) fn akey(&self, j: JobId) -> AKey {
        let r = &self.jobs[j.index()];
        let admitted = if self.sc.is_kueue() {
            let second = self.kueue.admitted_s[j.index()].max(0) as u64;
            let uid = self.kueue.uid_rank[j.index()];
            (second << 32) | u64::from(u32::MAX - uid)
        } else {
            r.adm_seq
        };
        AKey {
            priority: r.priority,
            admitted: Reverse(admitted),
            job: j,
        }
    }

    pub(super) fn enqueue(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let (s, size) = (spec.share(), Size::of(spec));
        let key = self.qkey(j);
        self.jobs[j.index()].state = State::Runnable;
        self.undrain(s);
        let rt = &mut self.rt[s];
        rt.insert_runnable(size, key);
        rt.queued[size.ty] += 1;
        rt.fresh.push(j);
        self.memo.moved.push(s);
    }

    pub(super) fn dequeue(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let (s, size) = (spec.share(), Size::of(spec));
        let key = self.qkey(j);
        self.undrain(s);
        let rt = &mut self.rt[s];
        rt.remove_runnable(size, key);
        rt.queued[size.ty] -= 1;
        self.jobs[j.index()].reason = None; // SPEC 4: leaving RUNNABLE drops the reason
        self.memo.moved.push(s);
    }

    // ---- transitions -------------------------------------------------------------------

    /// SPEC 6: submission; a DISABLED share rejects new jobs.
    pub(super) fn submit(&mut self, j: JobId) {
        let s = self.sc.jobs[j.index()].share();
        self.log(j, s, EventKind::Submit);
        if !self.cfg[s].enabled {
            self.jobs[j.index()].state = State::Rejected;
            self.log(j, s, EventKind::Reject);
            return;
        }
        self.enqueue(j);
    }

    /// SPEC 3: admission takes quota at once; the job is SCHEDULED until its instances are
    /// physically free.
    pub(crate) fn admit(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        self.dequeue(j);
        let borrowing = !admission::within_entitlement(&self.cfg[s], t, self.usage[t].used[s], n);
        self.usage[t].add(&self.cfg, s, n);
        if let Some(tree) = self.kueue.trees.get_mut(t) {
            tree.add_usage(s, n); // SPEC 12: usage bubbles up the quota tree
        }
        self.epochs.admitted(borrowing);
        self.adm_seq += 1;
        if self.rt[s].sticky == Some(j) {
            self.rt[s].sticky = None; // admitted: no longer the sticky head (SPEC 12.1)
        }
        if let Some(at) = self.kueue.admitted_s.get_mut(j.index()) {
            *at = self.now.div_euclid(1000);
        }
        let r = &mut self.jobs[j.index()];
        r.adm_seq = self.adm_seq;
        r.state = State::Scheduled;
        r.set_run_borrowed(borrowing); // SPEC 14: a run is borrowed when its dispatch was
        let key = self.akey(j);
        self.rt[s].add_admitted(t, key, n);
        self.log(j, s, EventKind::Dispatch { borrowing });
        // SPEC 3: it starts at once if its instances are free (and no release waits to be
        // offered to the SCHEDULED jobs before it), else it joins them.
        if !self.released && self.can_start(j) {
            self.start(j);
        } else {
            self.scheduled.insert(self.adm_seq, j);
        }
    }

    /// SPEC 3: instances free to a job of share `s`: not held by anyone, and not the idle
    /// entitlement of another share that is RESERVE.
    pub(super) fn free_for(&self, s: usize, t: usize) -> u64 {
        let (held, reserved) = self.held_totals[t];
        let own = self.reserved_idle(s, t);
        self.sc.capacity[t].saturating_sub(held + reserved - own)
    }

    /// Share `s`'s idle entitlement of type `t` that other shares may not hold: its limit
    /// less the instances it holds if it is RESERVE, else 0 (SPEC 3).
    fn reserved_idle(&self, s: usize, t: usize) -> u64 {
        let c = &self.cfg[s];
        if c.strategy == Strategy::Reserve {
            admission::limit_of(c, t).saturating_sub(self.rt[s].held[t])
        } else {
            0
        }
    }

    /// Sets the instances of type `t` share `s` holds, keeping [`Sim::held_totals`] exact.
    fn set_held(&mut self, s: usize, t: usize, new: u64) {
        let before = self.reserved_idle(s, t);
        let old = std::mem::replace(&mut self.rt[s].held[t], new);
        let after = self.reserved_idle(s, t);
        let (held, reserved) = &mut self.held_totals[t];
        *held = *held - old + new;
        *reserved = *reserved - before + after;
    }

    /// Recomputes [`Sim::held_totals`] (at the start and after a configuration change).
    pub(super) fn recompute_held_totals(&mut self) {
        let types = self.sc.instance_types.len();
        self.held_totals = (0..types)
            .map(|t| {
                let held = self.rt.iter().map(|r| r.held[t]).sum();
                let reserved = (0..self.cfg.len()).map(|s| self.reserved_idle(s, t)).sum();
                (held, reserved)
            })
            .collect();
    }

    pub(super) fn try_start(&mut self, j: JobId) -> bool {
        if !self.can_start(j) {
            return false;
        }
        let seq = self.jobs[j.index()].adm_seq;
        self.scheduled.remove(&seq);
        self.start(j);
        true
    }

    /// SPEC 3: a SCHEDULED job starts when its instances are free.
    fn can_start(&self, j: JobId) -> bool {
        let spec = &self.sc.jobs[j.index()];
        spec.instances() <= self.free_for(spec.share(), spec.instance_type())
    }

    /// SPEC 3: SCHEDULED jobs are taken in admission order; each starts if its instances
    /// are free; one that cannot start does not hold back later ones.
    pub(crate) fn start_scheduled(&mut self) {
        if !self.released {
            return;
        }
        self.released = false;
        let waiting: Vec<JobId> = self.scheduled.values().copied().collect();
        for j in waiting {
            self.try_start(j);
        }
    }

    /// SPEC 6: STARTING for `startup_s` (+ `restore_s` when resuming); 0 ends at once.
    pub(super) fn start(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let saved = self.jobs[j.index()].saved;
        let len = lifecycle::startup_length(spec.startup, spec.checkpoint(), saved);
        let restarting = self.total_preemptions(j) > 0;
        self.set_held(s, t, self.rt[s].held[t] + n);
        let now = self.now;
        let r = &mut self.jobs[j.index()];
        let requeued = r.take_requeued();
        r.state = State::Starting;
        r.phase_start = now;
        if r.first_start.is_none() {
            r.first_start = OptMs::some(now);
        }
        r.set_restoring(spec.checkpoint().is_some() && saved > 0);
        r.set_restarting(restarting);
        if let Some(q) = requeued {
            self.books.waits_after_interruption[s].push(now - q);
        }
        self.log(j, s, EventKind::Start);
        if len == 0 {
            self.begin_running(j);
        } else {
            self.timer(now + len, Timer::StartupEnd, j);
        }
    }

    pub(super) fn begin_running(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let s = spec.share();
        let now = self.now;
        self.book_startup(j, now);
        if self.jobs[j.index()].restoring() {
            self.restored(j);
        }
        let r = &mut self.jobs[j.index()];
        r.state = State::Running;
        r.run_start = now;
        r.base = r.saved;
        let done = now + lifecycle::run_length(r.base, spec.work, spec.checkpoint());
        self.log(j, s, EventKind::Running);
        self.timer(done, Timer::Completion, j);
    }

    /// Releases a job's quota (SPEC 3: at completion or at the preempt event; SPEC 12.1, in
    /// the Kueue model, a victim's at the end of its grace).
    pub(super) fn release_quota(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let key = self.akey(j);
        if !self.rt[s].evicted[t].remove(&key) {
            self.rt[s].remove_admitted(t, key, n);
        }
        self.usage[t].remove(&self.cfg, s, n);
        if let Some(tree) = self.kueue.trees.get_mut(t) {
            tree.remove_usage(s, n);
        }
        self.epochs.released();
        self.rt[s].version += 1; // its own usage fell
        self.memo.moved.push(s);
        if self.sc.is_kueue() {
            self.requeue_inadmissible(s);
        }
    }

    pub(super) fn release_instances(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        self.set_held(s, t, self.rt[s].held[t] - n);
        self.released = true;
    }

    /// SPEC 6: books `d` (ms of one instance) into job `j`'s held instance-time split
    /// ([`super::record::Books::accrue`]).
    pub(super) fn accrue(&mut self, j: JobId, d: Acc) {
        let n = self.sc.jobs[j.index()].instances();
        let share = self.jobs[j.index()].share();
        self.books.accrue(j, share, n, d);
    }

    /// Folds a RUNNING job's run so far into its books (SPEC 6), returning where it stands.
    pub(super) fn settle_run(&mut self, j: JobId) -> lifecycle::RunPoint {
        let spec = &self.sc.jobs[j.index()];
        let now = self.now;
        let r = &mut self.jobs[j.index()];
        let p = lifecycle::run_point(r.base, spec.work, spec.checkpoint(), now - r.run_start);
        let d = Acc {
            progress: p.progress - r.base,
            checkpoint: p.checkpoint_time,
            ..Acc::default()
        };
        r.saved = p.saved;
        self.accrue(j, d);
        p
    }

    pub(super) fn complete(&mut self, j: JobId) {
        let s = self.sc.jobs[j.index()].share();
        if self.books.corrupt.contains_key(&j) {
            self.invalid_resume(j);
            return;
        }
        let p = self.settle_run(j);
        self.end_run(j, p.progress);
        self.circle.completions += 1;
        let now = self.now;
        let r = &mut self.jobs[j.index()];
        r.saved = p.progress;
        r.held += now - r.phase_start;
        r.state = State::Succeeded;
        r.set_end(OptMs::some(now));
        self.release_quota(j);
        self.release_instances(j);
        self.log(j, s, EventKind::Succeed);
    }

    /// SPEC 5: preempt victim `j` for job `by`. Quota is released now; a STARTING or
    /// RUNNING victim holds its instances through the grace period (saving a checkpoint if
    /// it can), a SCHEDULED one returns at once.
    pub(crate) fn preempt(&mut self, j: JobId, by: JobId, cause: Cause) {
        self.preempt_with(j, by, cause, None);
    }

    /// [`Sim::preempt`], recording fair sharing's two dominant resource shares (SPEC 12).
    pub(crate) fn preempt_with(
        &mut self,
        j: JobId,
        by: JobId,
        cause: Cause,
        shares: Option<[crate::simulation::share_value::ShareValue; 2]>,
    ) {
        let spec = &self.sc.jobs[j.index()];
        let s = spec.share();
        let (on_preempt, ckpt) = (spec.checkpoint_on_preempt(), spec.checkpoint());
        let grace = self.sc.grace;
        let state = self.jobs[j.index()].state;
        self.circle.preemptions += 1;
        if self.sc.is_kueue() && state != State::Scheduled {
            self.evict_keeping_quota(j);
        } else {
            self.release_quota(j);
        }
        let r = &mut self.jobs[j.index()];
        r.preemptions = r.preemptions.saturating_add(1);
        if state.holding() {
            self.books.counts[s].recovery.interruptions += 1;
        }
        match cause {
            Cause::Reclaim => self.books.counts[s].reclaims += 1,
            Cause::InShare => self.books.counts[s].in_share += 1,
            Cause::ReclaimWhileBorrowing => self.books.counts[s].reclaims_while_borrowing += 1,
            Cause::FairSharing(_) => self.books.counts[s].fair_sharing += 1,
        }
        let (victim_priority, by_priority) = (
            self.jobs[j.index()].priority,
            self.jobs[by.index()].priority,
        );
        self.log(
            j,
            s,
            EventKind::Preempt {
                cause,
                by,
                victim_priority,
                by_priority,
                shares,
            },
        );
        self.alarm(j);
        let now = self.now;
        match state {
            State::Scheduled => {
                let seq = self.jobs[j.index()].adm_seq;
                self.scheduled.remove(&seq);
                self.requeue_or_fail(j);
                return;
            }
            State::Starting => {
                self.book_startup(j, now);
                self.jobs[j.index()].set_pre_save(false);
            }
            State::Running => {
                let p = self.settle_run(j);
                let save = lifecycle::saves_on_sigterm(&p, on_preempt, ckpt, grace);
                self.end_run(j, if save { p.progress } else { p.saved });
                let r = &mut self.jobs[j.index()];
                r.set_pre_save(save);
                if save {
                    r.saved = p.progress;
                } else {
                    let lost = p.progress - p.saved; // rolls back to the last checkpoint
                    self.accrue(
                        j,
                        Acc {
                            lost,
                            ..Acc::default()
                        },
                    );
                }
            }
            _ => unreachable!("only admitted jobs are preemption candidates"),
        }
        let r = &mut self.jobs[j.index()];
        r.state = State::Preempting;
        r.run_start = now; // JobRt::preempted_at
        r.epoch += 1;
        if grace == 0 {
            self.grace_end(j);
        } else {
            self.timer(now + grace, Timer::GraceEnd, j);
        }
    }

    /// SPEC 12.1 (Kueue model): a victim keeps its quota through its grace. It leaves the
    /// admitted jobs for the evicted ones (candidates before them, never preempted twice).
    fn evict_keeping_quota(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let key = self.akey(j);
        self.rt[s].remove_admitted(t, key, n);
        self.rt[s].evicted[t].insert(key);
        self.epochs.new_candidates(); // the candidates' order changed
        self.rt[s].version += 1;
        self.memo.moved.push(s);
    }

    /// Whether job `j` is a victim in its grace still holding its quota (SPEC 12.1).
    pub(crate) fn is_evicted(&self, j: JobId) -> bool {
        self.sc.is_kueue() && self.jobs[j.index()].state == State::Preempting
    }

    /// SPEC 5: at the end of the grace period the victim releases its instances (SPEC 12.1,
    /// in the Kueue model its quota too), then returns to RUNNABLE (`requeue`) or, past its
    /// retries, FAILS.
    pub(super) fn grace_end(&mut self, j: JobId) {
        if self.is_evicted(j) {
            self.release_quota(j);
            self.victim_gone(j);
        }
        self.settle_grace(j, self.now);
        self.release_instances(j);
        self.requeue_or_fail(j);
    }

    /// Books a PREEMPTING job's time up to `until` (SPEC 6): a save on SIGTERM counts as
    /// `checkpoint` (as far as it got), the rest of the grace period as `grace`.
    pub(super) fn settle_grace(&mut self, j: JobId, until: Ms) {
        let cost = self.sc.jobs[j.index()].checkpoint().map_or(0, |c| c.cost);
        let r = &mut self.jobs[j.index()];
        let grace = until - r.preempted_at();
        let saving = if r.pre_save() { cost.min(grace) } else { 0 };
        r.held += until - r.phase_start;
        let d = Acc {
            checkpoint: saving,
            grace: grace - saving,
            ..Acc::default()
        };
        self.accrue(j, d);
    }

    pub(super) fn requeue_or_fail(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let s = spec.share();
        let on_exhausted = spec.on_retries_exhausted();
        let now = self.now;
        let r = &mut self.jobs[j.index()];
        if self.books.corrupt.get(&j).is_some_and(|&c| r.saved <= c) {
            self.books.corrupt.remove(&j); // it resumes from a checkpoint the corrupt run did not write
        }
        if spec
            .preemption_retries()
            .is_some_and(|max| u64::from(r.preemptions) > max)
        {
            self.books.counts[s].recovery.retries_exhausted += 1;
            if let (OnExhausted::Resubmit { share, priority }, Some(c)) = (
                on_exhausted,
                self.books.continuation.get(j.index()).copied().flatten(),
            ) {
                self.resubmit(j, c, share, priority);
                return;
            }
            let r = &mut self.jobs[j.index()];
            r.state = State::Failed;
            r.set_end(OptMs::some(now));
            let lost = std::mem::take(&mut r.saved); // SPEC 6: a FAILED job loses all progress
            r.useful_borrowed = 0;
            self.accrue(
                j,
                Acc {
                    lost,
                    ..Acc::default()
                },
            );
            self.log(j, s, EventKind::Fail);
        } else {
            r.set_requeued(now);
            self.log(j, s, EventKind::Requeue);
            self.enqueue(j);
        }
    }

    /// SPEC 4/6: `set_priority` and `update_share`, in file order within an instant.
    pub(super) fn apply_timed(&mut self, e: usize) {
        match &self.sc.events[e].action {
            TimedAction::SetPriority { job, priority } => {
                // SPEC 14: a resubmitted job is its continuation from then on.
                let j = self.incarnation(JobId::new(*job));
                self.set_priority(j, *priority, false);
            }
            TimedAction::UpdateShare { share, update } => {
                let types = self.sc.instance_types.len();
                let c = &mut self.cfg[*share];
                if let Some(l) = &update.limits {
                    c.limits = l.clone();
                    c.limits.resize(types, None);
                }
                if let Some(x) = update.strategy {
                    c.strategy = x;
                }
                if let Some(x) = update.borrow_limit {
                    c.borrow_limit = x;
                }
                if let Some(x) = update.in_share_preemption {
                    c.in_share_preemption = x;
                }
                if let Some(x) = update.enabled {
                    c.enabled = x;
                }
                for u in &mut self.usage {
                    u.recompute(&self.cfg);
                }
                self.recompute_held_totals();
                self.rebuild_trees();
                self.epochs.reconfigured();
                for rt in &mut self.rt {
                    rt.dirty = true;
                    rt.clear_aside(); // SPEC 12.1: a ClusterQueue update requeues them
                    for b in rt.buckets.values_mut() {
                        b.reason = None; // re-evaluate every job's reason
                    }
                }
                self.released = true; // RESERVE idle may have changed
                self.books.counts[*share].recovery.allocation_changes += 1;
                self.log(NO_JOB, *share, EventKind::UpdateShare);
            }
        }
    }

    /// SPEC 6 "End of the run": held time of jobs still going is counted up to `end_s`; an
    /// unfinished job's kept progress is `useful`.
    pub(super) fn close_books(&mut self) {
        let end = self.end;
        for j in JobId::all(self.jobs.len()) {
            match self.jobs[j.index()].state {
                State::Starting => {
                    self.book_startup(j, end);
                    let r = &mut self.jobs[j.index()];
                    r.held += end - r.phase_start;
                }
                State::Running => {
                    let p = self.settle_run(j);
                    self.end_run(j, p.progress);
                    let r = &mut self.jobs[j.index()];
                    r.saved = p.progress;
                    r.held += end - r.phase_start;
                }
                State::Preempting => self.settle_grace(j, end),
                _ => {}
            }
        }
        self.merge_continuations();
    }
    /// SPEC 4/6 `set_priority` (and SPEC 14 escalation): the job's new priority, used by
    /// the next pass; a job not yet submitted is submitted with it (no event).
    pub(super) fn set_priority(&mut self, j: JobId, priority: Priority, escalated: bool) {
        let job = j.index();
        self.epochs.new_candidates();
        let spec = &self.sc.jobs[job];
        let (s, t, n) = (spec.share(), spec.instance_type(), spec.instances());
        let old = self.jobs[job].priority;
        let old_key = self.akey(j);
        match self.jobs[job].state {
            State::Runnable => {
                let key = self.qkey(j);
                let bucket = Size::of(spec);
                self.rt[s].remove_runnable(bucket, key);
                self.jobs[job].priority = priority;
                let key = self.qkey(j);
                let rt = &mut self.rt[s];
                rt.insert_runnable(bucket, key);
                rt.unset_aside(key); // Kueue requeues an updated pending workload
                rt.fresh.push(j);
                self.memo.moved.push(s);
            }
            st if st.admitted() => {
                let key = self.akey(j);
                self.rt[s].remove_admitted(t, key, n);
                self.jobs[job].priority = priority;
                let key = self.akey(j);
                self.rt[s].add_admitted(t, key, n);
                if self.sc.is_kueue() {
                    self.requeue_inadmissible(s);
                }
            }
            State::Preempting if self.rt[s].evicted[t].remove(&old_key) => {
                self.jobs[job].priority = priority;
                let key = self.akey(j);
                self.rt[s].evicted[t].insert(key);
            }
            _ => self.jobs[job].priority = priority,
        }
        if self.jobs[job].state != State::Pending {
            if priority > old {
                // SPEC 14 policy stability: counted once per job (its root when resubmitted).
                let root = self.root_of(j);
                self.jobs[root.index()].set_raised(true);
            }
            self.books.counts[s].recovery.priority_overrides += 1;
            let kind = if escalated {
                EventKind::Escalated(priority)
            } else {
                EventKind::SetPriority(priority)
            };
            self.log(j, s, kind);
        }
    }
}
