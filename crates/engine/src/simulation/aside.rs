//! SPEC 12.1 "Inadmissible workloads" (Kueue model, best-effort FIFO): the RUNNABLE jobs of
//! a share that Kueue's queue manager holds as inadmissible, set aside (not offered) until
//! their cohort tree releases quota (Kueue `ClusterQueue.RequeueIfNotPresent`,
//! `QueueInadmissibleWorkloads`).
//!
//! Kueue sets a share's heads aside one per cycle, in queue order, and a release brings
//! them all back, so on a busy cluster the whole queue is set aside again after every
//! completion. The set is kept as what it nearly always is: every RUNNABLE job up to a key
//! ([`Aside`]'s `through`), and the few set aside out of that order (a waiting preemptor
//! offered first, a job that arrived ahead of the prefix's end). Setting aside a queue's
//! first jobs, or all of it, then costs no more than finding where it ends.

use std::collections::btree_map;
use std::collections::BTreeSet;
use std::ops::Bound;

use crate::input::model::Ms;

use super::job::{JobId, Size};
use super::queues::{Aside, Head, QKey, ShareRt};

/// A share's RUNNABLE jobs that are not set aside, in queue order.
pub struct Ready<'a> {
    jobs: btree_map::Range<'a, QKey, Size>,
    extra: &'a BTreeSet<QKey>,
}

impl Iterator for Ready<'_> {
    type Item = Head;

    fn next(&mut self) -> Option<Head> {
        self.jobs
            .find(|(k, _)| !self.extra.contains(k))
            .map(|(&key, &size)| Head { key, size })
    }
}

impl ShareRt {
    /// Whether RUNNABLE job `key` is set aside.
    pub fn is_aside(&self, key: &QKey) -> bool {
        self.aside.through.is_some_and(|t| *key <= t) || self.aside.extra.contains(key)
    }

    /// Whether any job is set aside.
    pub fn has_aside(&self) -> bool {
        self.aside.count > 0
    }

    /// How many RUNNABLE jobs are not set aside.
    pub fn ready_count(&self) -> usize {
        self.runnable - self.aside.count
    }

    /// The RUNNABLE jobs not set aside, in queue order.
    pub fn ready(&self) -> Ready<'_> {
        debug_assert!(self.keeps_order, "the Kueue model keeps the queue order");
        Ready {
            jobs: self.in_order.range((self.after_prefix(), Bound::Unbounded)),
            extra: &self.aside.extra,
        }
    }

    /// The first RUNNABLE job in queue order that is not set aside, with its bucket.
    pub fn first_ready(&self) -> Option<Head> {
        if !self.has_aside() {
            return self.heads.first().copied();
        }
        if self.ready_count() == 0 {
            return None;
        }
        self.ready().next()
    }

    /// The first job not set aside, in queue order, whose bucket and priority act, as
    /// `acts` says of the first such job: it is asked once per bucket and priority present,
    /// not once per job (jobs of one bucket and priority are consecutive in the bucket).
    pub fn first_ready_acting(&self, mut acts: impl FnMut(Size, QKey) -> bool) -> Option<QKey> {
        let mut first: Option<QKey> = None;
        for (&size, b) in self.buckets.iter() {
            let mut from = self.after_prefix();
            while let Some(&k) = b
                .jobs
                .range((from, Bound::Unbounded))
                .find(|k| !self.aside.extra.contains(k))
            {
                if first.is_some_and(|f| f < k) {
                    break; // a job acting earlier is known
                }
                if acts(size, k) {
                    first = Some(k);
                    break;
                }
                // Past this priority's jobs in the bucket.
                from = Bound::Excluded(QKey {
                    priority: k.priority,
                    submit: Ms::MAX,
                    id_rank: u32::MAX,
                    job: JobId(u32::MAX),
                });
            }
        }
        first
    }

    /// The last RUNNABLE job before `key` in queue order.
    fn runnable_before(&self, key: QKey) -> Option<QKey> {
        self.in_order.range(..key).next_back().map(|(&k, _)| k)
    }

    /// Where the jobs not in the prefix start.
    fn after_prefix(&self) -> Bound<QKey> {
        match self.aside.through {
            Some(t) => Bound::Excluded(t),
            None => Bound::Unbounded,
        }
    }

    /// SPEC 12.1: RUNNABLE job `key` is set aside. Whether it was not already.
    pub fn set_aside(&mut self, key: QKey) -> bool {
        if self.is_aside(&key) {
            return false;
        }
        if self.aside.extra.is_empty() && self.ready().next().map(|h| h.key) == Some(key) {
            // The usual case, a cycle's head: the prefix grows by it (with nothing set aside
            // after it, the set stays canonical).
            self.aside.through = Some(key);
            self.aside.count += 1;
            return true;
        }
        self.aside.extra.insert(key);
        self.aside.count += 1;
        self.settle_aside();
        true
    }

    /// SPEC 12.1: the first `m` jobs not set aside (in queue order) are set aside, as `m`
    /// cycles in a row set aside one head each.
    pub fn set_aside_first(&mut self, m: usize) {
        if m == 0 {
            return;
        }
        if m >= self.ready_count() {
            self.set_aside_all();
            return;
        }
        let last = self.ready().nth(m - 1).expect("m jobs are ready").key;
        let a = &mut self.aside;
        a.extra = a.extra.split_off(&last); // those before it are covered now
        a.through = Some(last);
        a.count += m;
        self.settle_aside();
    }

    /// How many jobs not set aside come before `key` in queue order.
    pub fn ready_before(&self, key: QKey) -> usize {
        let from = self.after_prefix();
        self.in_order.range((from, Bound::Excluded(key))).count()
            - self
                .aside
                .extra
                .range((Bound::Unbounded, Bound::Excluded(key)))
                .count()
    }

    /// SPEC 12.1: the `m` jobs not set aside before `key` (a job not set aside; `m` is
    /// [`ShareRt::ready_before`]) are set aside, as `m` cycles in a row set aside one head
    /// each.
    pub fn set_aside_before(&mut self, key: QKey, m: usize) {
        if m == 0 {
            return;
        }
        let last = self.runnable_before(key);
        let a = &mut self.aside;
        a.extra = a.extra.split_off(&key);
        a.through = last;
        a.count += m;
        self.settle_aside();
    }

    /// SPEC 12.1: every RUNNABLE job is set aside.
    fn set_aside_all(&mut self) {
        let a = &mut self.aside;
        a.through = self.in_order.last_key_value().map(|(&k, _)| k);
        a.extra.clear();
        a.count = self.runnable;
    }

    /// SPEC 12.1: RUNNABLE job `key` is no longer set aside (Kueue requeues an updated
    /// pending workload).
    pub fn unset_aside(&mut self, key: QKey) {
        if self.aside.extra.remove(&key) {
            self.aside.count -= 1;
        } else if self.aside.through.is_some_and(|t| key <= t) {
            self.aside.count -= 1;
            self.spell_out_aside(key);
        }
    }

    /// SPEC 12.1: every job set aside is offered again.
    pub fn clear_aside(&mut self) {
        self.aside = Aside::default();
    }

    /// After `key` joined the RUNNABLE jobs (not set aside): one ahead of the prefix's end
    /// breaks the prefix.
    pub(super) fn aside_after_insert(&mut self, key: QKey) {
        if self.aside.through.is_some_and(|t| key < t) {
            self.spell_out_aside(key);
        }
    }

    /// After `key` left the RUNNABLE jobs.
    pub(super) fn aside_after_remove(&mut self, key: QKey) {
        if self.aside.extra.remove(&key) {
            self.aside.count -= 1;
        } else if let Some(t) = self.aside.through.filter(|t| key <= *t) {
            self.aside.count -= 1;
            if t == key {
                self.aside.through = self.runnable_before(key);
            }
        }
        if self.has_aside() {
            self.settle_aside();
        }
    }

    /// The prefix's jobs other than `except` move to `extra` (rare: a job arrived or moved
    /// ahead of the prefix's end), then the prefix is found again.
    fn spell_out_aside(&mut self, except: QKey) {
        let Some(t) = self.aside.through.take() else {
            return;
        };
        for &k in self.in_order.range(..=t).map(|(k, _)| k) {
            if k != except {
                self.aside.extra.insert(k);
            }
        }
        self.settle_aside();
    }

    /// Keeps `Aside` canonical: the prefix grows over the jobs of `extra` that follow it.
    fn settle_aside(&mut self) {
        if self.ready_count() == 0 {
            self.set_aside_all();
            return;
        }
        loop {
            let from = self.after_prefix();
            let next = self
                .in_order
                .range((from, Bound::Unbounded))
                .next()
                .map(|(&k, _)| k);
            match next {
                Some(k) if self.aside.extra.remove(&k) => self.aside.through = Some(k),
                _ => return,
            }
        }
    }
}
