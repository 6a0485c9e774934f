//! SPEC 14 "The interruption contract": what happens to a job when a restore fails, when a
//! resume was silently corrupt, when its retries are exhausted and it is resubmitted to
//! another share, when it is preempted again and again (alarms), and when its deadline
//! nears (escalation); and the books behind `useful_borrowed` and `restart_h`.
//!
//! Every rule is a closed-form step at a transition, so a job still costs O(its
//! preemptions). Draws come from a stream per job (see [`restore_draws`]).

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::input::model::*;
use crate::simulation::lifecycle;

use super::agenda::Timer;
use super::state::*;

/// Salt of the recovery streams, so that they never coincide with a workload's stream of
/// the same seed ("RECOVERY" in ASCII).
const RECOVERY_SALT: u64 = 0x5245_434f_5645_5259;

/// FNV-1a (64 bits) of a job id: the job's stream number.
fn fnv1a(id: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// SPEC 14: the two draws of the `index`-th completed restore of job `id`, uniform in
/// `[0, 1)`: `(restore failure, invalid resume)`. The stream is ChaCha8 seeded with
/// `seed_from_u64(seed ^ RECOVERY_SALT)`, stream number FNV-1a-64 of the id, and restore
/// `i` reads its words `4i..4i+4` (two `u64`, each `(x >> 11) * 2^-53`), so a job's draws
/// depend on the scenario seed, its id and how many restores it completed, and on nothing
/// else: adding a job never changes another job's draws.
pub fn restore_draws(seed: u64, id: &str, index: u64) -> (f64, f64) {
    const TWO_POW_MINUS_53: f64 = 1.0 / 9_007_199_254_740_992.0;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ RECOVERY_SALT);
    rng.set_stream(fnv1a(id));
    rng.set_word_pos(index as u128 * 4);
    let a = (rng.next_u64() >> 11) as f64 * TWO_POW_MINUS_53;
    let b = (rng.next_u64() >> 11) as f64 * TWO_POW_MINUS_53;
    (a, b)
}

impl Sim<'_> {
    /// The job a continuation continues (itself for any other job).
    pub fn root_of(&self, j: JobId) -> JobId {
        self.sc.jobs[j.index()]
            .resubmission_of
            .get()
            .map_or(j, JobId::new)
    }

    /// SPEC 14: the incarnation of job `j` that is live: its continuation once resubmitted.
    pub(super) fn incarnation(&self, j: JobId) -> JobId {
        match self.books.continuation.get(j.index()).copied().flatten() {
            Some(c) if self.jobs[c.index()].state != State::Pending => c,
            _ => j,
        }
    }

    /// Preemptions of the job, over its submission and its resubmission (SPEC 14 alarms).
    pub(super) fn total_preemptions(&self, j: JobId) -> u64 {
        let root = self.root_of(j);
        let own = u64::from(self.jobs[j.index()].preemptions);
        if root == j {
            own
        } else {
            own + u64::from(self.jobs[root.index()].preemptions)
        }
    }

    /// SPEC 6 startup (and SPEC 14 `restart_h`): books the STARTING time up to `until`.
    pub(super) fn book_startup(&mut self, j: JobId, until: Ms) {
        let r = &self.jobs[j.index()];
        let d = until - r.phase_start;
        let restart = if r.restarting() { d } else { 0 };
        self.accrue(
            j,
            Acc {
                startup: d,
                restart,
                ..Acc::default()
            },
        );
    }

    /// SPEC 14 `useful_borrowed_s`: a run ends with `kept` progress (from its `base`); what
    /// it added counts as borrowed when its dispatch was borrowing.
    pub(super) fn end_run(&mut self, j: JobId, kept: Ms) {
        let r = &mut self.jobs[j.index()];
        if r.run_borrowed() {
            r.useful_borrowed += (kept - r.base).max(0);
        }
    }

    /// SPEC 14 `recovery`: a restore completed (at the end of STARTING). It fails with
    /// probability `restore_failure` (the checkpointed progress is lost, the job goes on
    /// from zero: a `restore_failed` event), else it is corrupt with probability
    /// `invalid_resume` (found when the work completes).
    pub(super) fn restored(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let s = spec.share();
        let root = self.root_of(j);
        self.jobs[j.index()].set_restoring(false);
        self.books.counts[s].recovery.restores += 1;
        let Some(rec) = spec.recovery() else { return };
        let index = u64::from(self.jobs[root.index()].restores);
        self.jobs[root.index()].restores += 1;
        let (fail, corrupt) = restore_draws(self.sc.seed, self.sc.id_of(spec), index);
        let r = &mut self.jobs[j.index()];
        if fail < rec.restore_failure {
            let lost = r.saved;
            self.lose_progress(j, lost);
            self.books.counts[s].recovery.restore_failures += 1;
            self.log(j, s, EventKind::RestoreFailed { lost });
        } else if corrupt < rec.invalid_resume {
            self.books.corrupt.entry(j).or_insert(r.saved);
        }
    }

    /// SPEC 14: job `j` loses all its kept progress (`lost`, booked as lost time): nothing
    /// saved, nothing of it made in borrowed runs, no corrupt resume pending.
    fn lose_progress(&mut self, j: JobId, lost: Ms) {
        let r = &mut self.jobs[j.index()];
        r.saved = 0;
        r.useful_borrowed = 0;
        self.books.corrupt.remove(&j);
        self.accrue(
            j,
            Acc {
                lost,
                ..Acc::default()
            },
        );
    }

    /// SPEC 14 `invalid_resume`: the work of a corrupt run completed. Instead of
    /// succeeding, all its progress is lost and it goes on at once from zero on the
    /// instances it holds (no restore, so no new draw).
    pub(super) fn invalid_resume(&mut self, j: JobId) {
        let spec = &self.sc.jobs[j.index()];
        let (s, work, ckpt) = (spec.share(), spec.work, spec.checkpoint());
        let p = self.settle_run(j);
        self.end_run(j, p.progress);
        let now = self.now;
        let r = &mut self.jobs[j.index()];
        let lost = p.progress;
        r.base = 0;
        r.run_start = now;
        self.lose_progress(j, lost);
        self.books.counts[s].recovery.invalid_resumes += 1;
        self.log(j, s, EventKind::InvalidResume { lost });
        let done = now + lifecycle::run_length(0, work, ckpt);
        self.timer(done, Timer::Completion, j);
    }

    /// SPEC 14 `alarms`: an `alarm` event when the job's preemption count reaches k.
    pub(super) fn alarm(&mut self, j: JobId) {
        let Some(a) = self.sc.alarms else { return };
        let count = self.total_preemptions(j);
        if count == a.repeated_preemptions {
            let s = self.sc.jobs[j.index()].share();
            self.books.counts[s].recovery.alarms += 1;
            self.log(j, s, EventKind::Alarm { count });
        }
    }

    /// SPEC 14 `on_retries_exhausted: {"resubmit"}`: when its grace ends, job `j` (out of
    /// retries) is submitted again to `share` as its continuation `c`, from its last
    /// checkpoint, keeping its id and submit time (a `resubmit` event; a DISABLED share
    /// rejects it).
    pub(super) fn resubmit(
        &mut self,
        j: JobId,
        c: JobId,
        share: usize,
        priority: Option<Priority>,
    ) {
        let from = self.sc.jobs[j.index()].share();
        let now = self.now;
        let r = &mut self.jobs[j.index()];
        // The job goes on as `c`: its books are folded into `j` at the end of the run.
        r.state = State::Failed;
        let (saved, ub, prio) = (r.saved, r.useful_borrowed, r.priority);
        r.saved = 0;
        r.useful_borrowed = 0;
        self.books.counts[from].recovery.resubmitted += 1;
        let priority = priority.unwrap_or(prio);
        let cr = &mut self.jobs[c.index()];
        cr.saved = saved;
        cr.useful_borrowed = ub;
        cr.priority = priority;
        cr.set_requeued(now);
        if let Some(corrupt) = self.books.corrupt.remove(&j) {
            self.books.corrupt.insert(c, corrupt);
        }
        self.log(
            c,
            share,
            EventKind::Resubmit {
                from: from as u32,
                priority,
            },
        );
        if !self.cfg[share].enabled {
            let cr = &mut self.jobs[c.index()];
            cr.state = State::Rejected;
            let lost = std::mem::take(&mut cr.saved);
            cr.useful_borrowed = 0;
            self.accrue(
                c,
                Acc {
                    lost,
                    ..Acc::default()
                },
            );
            self.log(c, share, EventKind::Reject);
            return;
        }
        self.enqueue(c);
    }

    /// SPEC 14 `escalate`: the job (or its continuation) is raised to `priority` unless it
    /// has ended or already has that priority or a higher one.
    pub(super) fn escalate(&mut self, j: JobId, priority: Priority) {
        let j = self.incarnation(j);
        let r = &self.jobs[j.index()];
        if r.state.finished() || r.state == State::Pending || r.priority >= priority {
            return;
        }
        self.set_priority(j, priority, true);
    }

    /// SPEC 14: at the end of the run each resubmitted job's continuation is folded into
    /// it: one job, counted in its last share, with its whole instance time.
    pub(super) fn merge_continuations(&mut self) {
        for root in 0..self.books.continuation.len() {
            let Some(c) = self.books.continuation[root] else {
                continue;
            };
            if self.jobs[c.index()].state == State::Pending {
                continue;
            }
            let cr = self.jobs[c.index()].clone();
            self.jobs[c.index()].set_merged(true);
            let old_share = self.jobs[root].share();
            let r = &mut self.jobs[root];
            r.state = cr.state;
            r.reason = cr.reason;
            r.set_end(cr.end());
            r.priority = cr.priority;
            r.preemptions = r.preemptions.saturating_add(cr.preemptions);
            r.saved = cr.saved;
            r.useful_borrowed = cr.useful_borrowed;
            r.share = self.sc.jobs[c.index()].share() as u32;
            if cr.raised() {
                r.set_raised(true);
            }
            if r.first_start.is_none() {
                r.first_start = cr.first_start;
            }
            r.held += cr.held;
            self.merge_acc(JobId::new(root), old_share, c);
        }
    }

    /// SPEC 14: folds continuation `c`'s [`Acc`] into job `root`'s, which now counts in its
    /// last share: the share totals lose both jobs' parts (the root's from `old_share`) and
    /// gain the merged one, times the root's instances (as the job is reported). Per-job
    /// [`Sim::acc`] is always kept when there are continuations.
    fn merge_acc(&mut self, root: JobId, old_share: usize, c: JobId) {
        let (ra, ca) = (self.books.acc[root.index()], self.books.acc[c.index()]);
        let (rn, cn) = (
            self.sc.jobs[root.index()].instances(),
            self.sc.jobs[c.index()].instances(),
        );
        self.books.acc_totals[old_share].sub(&ra, rn);
        self.books.acc_totals[self.jobs[c.index()].share()].sub(&ca, cn);
        let merged = &mut self.books.acc[root.index()];
        *merged += &ca;
        let merged = *merged;
        self.books.acc_totals[self.jobs[root.index()].share()].add(&merged, rn);
    }
}
