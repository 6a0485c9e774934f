//! The scheduling pass and waiting reasons (SPEC 4).
//!
//! RUNNABLE jobs of a share sit in buckets of equal (instance type, instances): jobs of one
//! bucket fit, preempt and wait for the same reasons, and a later job of a bucket (lower or
//! equal priority) can preempt no more than its head. So a share's offer is found by looking
//! at bucket heads only, and a pass costs O(shares x buckets + jobs touched), not O(queued).

use crate::input::model::Queueing;
use crate::simulation::admission::{self, Headroom, Misfit};
use crate::simulation::preemption::{Preemptor, Victim};
use crate::simulation::{EventKind, Head, JobId, NoOffer, QKey, Reason, Sim, Size, State};

use super::epochs::Epochs;

/// Why a share has no offer in a step of the pass (see [`NoOffer`]).
struct Refusal {
    /// Only the share's own limit (or a missing limit) held every job back, with no
    /// preemption possible.
    limit_bound: bool,
    /// No job looked at could preempt; those with a limit were all of one type, the
    /// smallest needing this many instances.
    fit_only: Option<Size>,
}

/// What a share offers in one step of the pass.
struct Offer {
    /// SPEC 4 step 2 order: within entitlement first, then earlier submit, then share order.
    /// SPEC 12: here SPEC 4 wins over Kueue under the translation table: Kueue orders
    /// offers by priority between "not borrowing" and submit time (`makeClassicalIterator`,
    /// scheduler.go); the AWS model has no priority in its order of offers.
    key: (bool, i64, usize),
    job: JobId,
    /// `None`: the job fits as is; `Some`: it is admitted into the quota these release.
    victims: Option<Vec<Victim>>,
}

impl Sim<'_> {
    /// SPEC 4 "The pass": serve one offer per step until no offer can be admitted, then
    /// bring every waiting reason up to date.
    pub(crate) fn pass(&mut self) {
        if self.sc.is_kueue() {
            // SPEC 12: the Kueue model's order of offers, gate and preemption.
            self.kueue_pass();
            self.update_reasons();
            self.undo_swaps();
            return;
        }
        // With nothing but some queues moved since the last pass settled, every other share
        // still has no offer: the first step asks only the moved ones (none: nothing to do).
        let mut only_moved = self.memo.settled == Some(self.pass_stamp()) && !self.opts.exhaustive;
        self.memo.moved.sort_unstable();
        self.memo.moved.dedup();
        if only_moved && self.memo.moved.is_empty() {
            return; // nothing a pass reads changed since the last one settled
        }
        loop {
            let mut best: Option<Offer> = None;
            let step_moved = std::mem::take(&mut only_moved);
            let asked = if step_moved {
                self.memo.moved.len()
            } else {
                self.cfg.len()
            };
            for i in 0..asked {
                let s = if step_moved { self.memo.moved[i] } else { i };
                if self.still_no_offer(s) {
                    continue; // nothing it depends on changed since it last had no offer
                }
                match self.offer(s) {
                    Ok(o) => {
                        if best.as_ref().is_none_or(|b| o.key < b.key) {
                            best = Some(o);
                        }
                    }
                    Err(Refusal {
                        limit_bound,
                        fit_only,
                    }) => {
                        self.rt[s].no_offer = Some(NoOffer {
                            quota_at: self.epochs.quota(),
                            struct_at: self.epochs.structure(),
                            version: self.rt[s].version,
                            limit_bound,
                            fit_only,
                        });
                    }
                }
            }
            let Some(offer) = best else { break };
            self.record.steps += 1;
            if let Some(victims) = offer.victims {
                for v in victims {
                    self.preempt(v.job, offer.job, v.cause);
                }
            }
            self.admit(offer.job);
            self.start_scheduled();
        }
        self.update_reasons();
        self.memo.settled = Some(self.pass_stamp());
    }

    /// What an AWS pass depends on besides the queues: every [`super::epochs::Epochs`]
    /// version. Every share's offer cache ([`Sim::still_no_offer`]) and reasons
    /// ([`Sim::update_reasons`]) are keyed on these and on the share's queue.
    fn pass_stamp(&self) -> Epochs {
        self.epochs
    }

    /// Whether share `s` still has no offer: nothing its last "no offer" depended on changed.
    /// A share held back only by its own limit (condition 1, no preemption possible) waits
    /// on its own queue and usage and on configuration, not on other shares' releases.
    ///
    /// A share none of whose heads could preempt, after releases only (its queue, its
    /// admitted jobs, the configuration, priorities and the shares over their limit are as
    /// they were: the structure epoch and `version` unchanged), still cannot preempt (SPEC 5: no
    /// share is newly over its limit, its own admitted jobs are the same), so it has an offer
    /// only when one of those heads fits as is; SPEC 3's conditions are the same for every
    /// job of a type but for `n`, and a job of more instances fits only if a smaller one
    /// does: it suffices that its smallest head does not fit.
    fn still_no_offer(&self, s: usize) -> bool {
        if self.opts.exhaustive {
            return false;
        }
        let Some(c) = self.rt[s].no_offer else {
            return false;
        };
        if c.version != self.rt[s].version {
            return false;
        }
        let unchanged = if c.limit_bound {
            c.struct_at == self.epochs.structure()
        } else {
            c.quota_at == self.epochs.quota()
        };
        if unchanged {
            return true;
        }
        match c.fit_only {
            Some(size) if c.struct_at == self.epochs.structure() => self.usage[size.ty]
                .headroom(s)
                .fits(size.instances)
                .is_err(),
            _ => false,
        }
    }

    /// SPEC 4 step 1: a share offers its first RUNNABLE job; with best-effort FIFO a job that
    /// can neither fit nor preempt is passed over, with strict FIFO it blocks the share.
    /// `Err`: no offer, and what held the jobs back (see [`Refusal`]).
    fn offer(&self, s: usize) -> Result<Offer, Refusal> {
        let strict = self.sc.queueing == Queueing::StrictFifo;
        let mut limit_bound = true;
        // The type and smallest size of the heads with a limit, while none could preempt
        // (`None` once one could, or once two types were seen).
        let mut fit_only: Option<Option<Size>> = Some(None);
        // The last head's type and its headroom (`None`: the share has no limit for it).
        let mut room: Option<(usize, Option<Headroom>)> = None;
        for &Head { key: head, size } in &self.rt[s].heads {
            let (j, t, n) = (head.job, size.ty.index(), size.instances);
            let h = match room {
                Some((rt, h)) if rt == t => h,
                _ => {
                    let h =
                        admission::has_limit(&self.cfg[s], t).then(|| self.usage[t].headroom(s));
                    room = Some((t, h));
                    h
                }
            };
            if let Some(h) = h {
                let key = (!h.within_entitlement(n), head.submit, s);
                let misfit = match h.fits(n) {
                    Ok(()) => {
                        return Ok(Offer {
                            key,
                            job: j,
                            victims: None,
                        })
                    }
                    Err(m) => m,
                };
                // SPEC 5: with no candidate at all there are no victims (no search is run).
                let can_preempt = self.may_preempt(s, t, head.priority.0);
                if misfit != Misfit::ShareLimit || can_preempt {
                    limit_bound = false;
                }
                fit_only = match fit_only {
                    _ if can_preempt => None,
                    Some(None) => Some(Some(size)),
                    Some(Some(f)) if f.ty == size.ty => Some(Some(Size {
                        ty: size.ty,
                        instances: f.instances.min(n),
                    })),
                    _ => None,
                };
                let preemptor = Preemptor {
                    share: s,
                    ty: t,
                    n,
                    priority: head.priority.0,
                };
                if let Some(v) = can_preempt
                    .then(|| self.select_victims(preemptor))
                    .flatten()
                {
                    return Ok(Offer {
                        key,
                        job: j,
                        victims: Some(v),
                    });
                }
            }
            if strict {
                break;
            }
        }
        Err(Refusal {
            limit_bound,
            fit_only: fit_only.flatten(),
        })
    }

    /// SPEC 4 "Waiting reasons" 1 and 3: the reason a job of share `s` with `n` instances of
    /// type `t` waits, judged on its own (no strict-FIFO blocking).
    ///
    /// In the AWS model reason 3 reads the share's own usage and configuration only:
    /// condition 1 (`used + n <= limit + borrow_cap`) is the share's own, and a job that
    /// passes it waits on condition 2 or 3, `capacity_in_use` or `no_lendable_capacity` by
    /// the share's own within-entitlement test. (Conditions 1-2 are one test on the
    /// translated quota tree, SPEC 12, whose `available(S)` never exceeds `limit +
    /// borrow_cap - used`: when condition 1 fails the tree test fails too, so the tree's
    /// misfit and SPEC 3's first failing condition agree.) So the reasons of a share change
    /// only with its own `version` and the configuration (see [`Sim::update_reasons`]).
    fn own_reason(&self, s: usize, t: usize, n: u64) -> Reason {
        if self.sc.is_kueue() {
            return self.kueue_reason(s, t, n);
        }
        let share = &self.cfg[s];
        if !admission::has_limit(share, t) {
            return Reason::Unschedulable;
        }
        let usage = &self.usage[t];
        if !usage.within_ceiling(s, n) {
            // Condition 1.
            if share.strategy == crate::input::model::Strategy::LendAndBorrow {
                Reason::BorrowLimit
            } else {
                Reason::EntitlementExhausted
            }
        } else if admission::within_entitlement(share, t, usage.used[s], n) {
            Reason::CapacityInUse
        } else {
            Reason::NoLendableCapacity
        }
    }

    /// SPEC 12: the limit that binds a waiting job of the Kueue model, named by its
    /// `waiting` event's explanation (reasons of the fit conditions only; none for the AWS
    /// model, whose explanations name its fixed rules, or while the event log is off).
    fn binding_of(&self, j: JobId, reason: Reason) -> Option<super::job::Binding> {
        let fit_reason = matches!(
            reason,
            Reason::BorrowLimit
                | Reason::EntitlementExhausted
                | Reason::CapacityInUse
                | Reason::NoLendableCapacity
        );
        if !self.sc.is_kueue() || !fit_reason || !self.opts.events {
            return None;
        }
        let spec = &self.sc.jobs[j.index()];
        self.kueue_binding(spec.share(), spec.instance_type(), spec.instances())
    }

    /// SPEC 4 reason 2 (strict FIFO): a job behind a blocked head waits
    /// `blocked_by_priority` if the head's priority is higher, else `head_of_line`.
    fn behind_head_reason(&self, j: JobId, head: JobId) -> Reason {
        if self.jobs[head.index()].priority > self.jobs[j.index()].priority {
            Reason::BlockedByPriority
        } else {
            Reason::HeadOfLine
        }
    }

    /// Recomputes every RUNNABLE job's reason at the end of a pass; each change is a
    /// `waiting` event (SPEC 4), logged in share order, then queue order.
    ///
    /// A share whose queue, usage and configuration are unchanged (its `version`, and
    /// the configuration epoch) keeps its reasons in the AWS model (see [`Sim::own_reason`]).
    /// In the Kueue model a reason reads the configuration and its share's own usage in the
    /// quota trees ([`Sim::kueue_reason`]): a share whose usage and configuration are
    /// unchanged keeps its reasons, but for jobs new to a bucket (`fresh`), whose bucket's
    /// reason they take, and, with strict FIFO, a new head (its `version`). Jobs leaving a
    /// bucket change no other job's reason, and setting jobs aside changes none.
    fn update_reasons(&mut self) {
        let mut changes = std::mem::take(&mut self.memo.changes);
        let kueue = self.sc.is_kueue();
        let config = self.epochs.config();
        // In the AWS model, with the configuration unchanged since the last AWS pass, only
        // the shares whose `version` moved can have new reasons.
        let only_moved = !kueue
            && !self.opts.exhaustive
            && self
                .memo
                .settled
                .is_some_and(|at| at.config() == self.epochs.config());
        let mut asked = std::mem::take(&mut self.memo.moved);
        if only_moved {
            asked.sort_unstable();
            asked.dedup();
        } else {
            asked.clear();
            asked.extend(0..self.cfg.len());
        }
        for &s in &asked {
            let strict = self.strict_fifo(s);
            let version = if kueue && !strict {
                0
            } else {
                self.rt[s].version
            };
            let now = (config, version);
            let trees = &self.kueue.trees;
            let same_usage = || {
                !kueue
                    || self.rt[s]
                        .reasons_used
                        .iter()
                        .eq(trees.iter().map(|t| &t.usage[s]))
            };
            if self.rt[s].reasons_at == Some(now)
                && self.rt[s].fresh.is_empty()
                && !self.opts.exhaustive
                && same_usage()
            {
                continue; // nothing a reason depends on changed
            }
            if strict {
                self.strict_reasons(s, &mut changes);
            } else {
                self.bucket_reasons(s, &mut changes);
            }
            let rt = &mut self.rt[s];
            rt.fresh.clear();
            rt.dirty = false;
            rt.reasons_at = Some(now);
            if kueue {
                // SPEC 12.1: as read, with the waiting preemptors counted in (`undo_swaps`).
                rt.reasons_used.clear();
                rt.reasons_used
                    .extend(self.kueue.trees.iter().map(|t| t.usage[s]));
            }
        }
        // The list is kept for its allocation.
        asked.clear();
        self.memo.moved = asked;
        // A job may be listed twice with its one new reason (its bucket's reason changed and
        // it is new to the bucket). The log wants share order, then queue order; without a
        // log only the changes themselves count, in any order, each once.
        if self.opts.events {
            changes.sort_unstable_by_key(|c| (c.0, c.1));
        }
        for &(s, key, reason) in &changes {
            let j = key.job;
            let waiting = self.sc.is_kueue().then_some(&self.kueue.waiting);
            if !takes_reason(&self.jobs, waiting, j, reason) {
                continue;
            }
            self.jobs[j.index()].reason = Some(reason);
            let why = self.binding_of(j, reason);
            self.log(j, s, EventKind::Waiting(reason, why));
        }
        changes.clear();
        self.memo.changes = changes; // kept for its allocation
    }

    /// Best-effort FIFO: every job of a bucket has the bucket head's own reason.
    fn bucket_reasons(&mut self, s: usize, changes: &mut Vec<(usize, QKey, Reason)>) {
        let mut updated = std::mem::take(&mut self.memo.reasons);
        updated.clear();
        // Without the event log the changes are only counted, in any order: the jobs of a
        // bucket whose reason changed take it at once, not through the list.
        let at_once = !self.opts.events;
        let mut unlogged = 0;
        for (&size, b) in &self.rt[s].buckets {
            let r = self.own_reason(s, size.ty.index(), size.instances);
            if b.reason != Some(r) {
                // The bucket's reason changed: every job in it that does not carry it yet.
                if at_once {
                    let waiting = self.sc.is_kueue().then_some(&self.kueue.waiting);
                    let jobs = &mut self.jobs;
                    for key in &b.jobs {
                        if takes_reason(jobs, waiting, key.job, r) {
                            jobs[key.job.index()].reason = Some(r);
                            unlogged += 1;
                        }
                    }
                } else {
                    for key in &b.jobs {
                        if self.jobs[key.job.index()].reason != Some(r) {
                            changes.push((s, *key, r));
                        }
                    }
                }
                updated.push((size, r));
            }
        }
        self.count_unlogged(unlogged);
        for &(bucket, r) in &updated {
            if let Some(b) = self.rt[s].buckets.get_mut(&bucket) {
                b.reason = Some(r);
            }
        }
        // Jobs new to their bucket take its (now current) reason.
        for &j in &self.rt[s].fresh {
            let job = &self.jobs[j.index()];
            if job.state != State::Runnable {
                continue;
            }
            let spec = &self.sc.jobs[j.index()];
            let r = self.rt[s]
                .buckets
                .get(&Size::of(spec))
                .and_then(|b| b.reason);
            if let Some(r) = r {
                if job.reason != Some(r) {
                    changes.push((s, self.qkey(j), r));
                }
            }
        }
        self.memo.reasons = updated;
    }

    /// Strict FIFO: the head carries its own reason; the others reason 1 or 2. Only the
    /// head's reason can change while the queue itself is unchanged.
    fn strict_reasons(&mut self, s: usize, changes: &mut Vec<(usize, QKey, Reason)>) {
        let Some(&Head { key: head, size }) = self.rt[s].heads.first() else {
            return;
        };
        let h = head.job;
        let r = self.own_reason(s, size.ty.index(), size.instances);
        if self.jobs[h.index()].reason != Some(r) {
            changes.push((s, head, r));
        }
        if !self.rt[s].dirty {
            return;
        }
        for b in self.rt[s].buckets.values() {
            for key in &b.jobs {
                let j = key.job;
                if j == h {
                    continue;
                }
                let t = self.sc.jobs[j.index()].instance_type();
                let r = if !admission::has_limit(&self.cfg[s], t) {
                    Reason::Unschedulable
                } else {
                    self.behind_head_reason(j, h)
                };
                if self.jobs[j.index()].reason != Some(r) {
                    changes.push((s, *key, r));
                }
            }
        }
    }
}

/// Whether job `j` takes `reason` as its new waiting reason (a `waiting` event): not if it
/// carries it already (a job may be listed twice), nor, in the Kueue model (`waiting`: its
/// preemptors that wait for their victims), while it waits for its victims (SPEC 12.1: its
/// event said so).
fn takes_reason(
    jobs: &[super::job::JobRt],
    waiting: Option<&std::collections::BTreeMap<JobId, super::offers::PreemptionWait>>,
    j: JobId,
    reason: Reason,
) -> bool {
    jobs[j.index()].reason != Some(reason)
        && !waiting.is_some_and(|w| super::kueue::waits_for_victims_in(w, j))
}
