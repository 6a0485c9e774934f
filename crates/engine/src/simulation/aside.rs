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

use std::collections::BTreeSet;
use std::ops::Bound;

use crate::input::model::Ms;

use super::job::{JobId, Size};
use super::queues::{Aside, Bucket, Head, QKey, ReadyMemo, ShareRt};
use super::ranked;

/// A share's RUNNABLE jobs that are not set aside, in queue order.
pub struct Ready<'a> {
    jobs: ranked::Iter<'a, QKey, Size>,
    extra: &'a BTreeSet<QKey>,
}

impl Iterator for Ready<'_> {
    type Item = Head;

    fn next(&mut self) -> Option<Head> {
        self.jobs
            .find(|(k, _)| !self.extra.contains(k))
            .map(|(key, size)| Head { key, size })
    }

    /// With nothing set aside out of order (the usual case), by rank (whole blocks at a
    /// time).
    fn nth(&mut self, n: usize) -> Option<Head> {
        if !self.extra.is_empty() {
            for _ in 0..n {
                self.next()?;
            }
            return self.next();
        }
        self.jobs.nth(n).map(|(key, size)| Head { key, size })
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
            jobs: self.in_order.iter_from(self.after_prefix().as_ref()),
            extra: &self.aside.extra,
        }
    }

    /// The first RUNNABLE job in queue order that is not set aside, with its bucket
    /// (remembered until the queue or the jobs set aside change).
    pub fn first_ready(&self) -> Option<Head> {
        if !self.has_aside() {
            return self.heads.first().copied();
        }
        if self.ready_count() == 0 {
            return None;
        }
        if let Some(m) = self.first_ready_at.get() {
            if m.at == self.order_gen {
                debug_assert_eq!(
                    m.first,
                    self.ready().next(),
                    "the first job not set aside remembered is not the first"
                );
                return m.first;
            }
        }
        let mut ready = self.ready();
        let first = ready.next();
        let after = self.aside.extra.is_empty().then(|| ready.jobs.place());
        self.first_ready_at.set(Some(ReadyMemo {
            at: self.order_gen,
            first,
            after,
        }));
        first
    }

    /// The first job not set aside, in queue order, whose bucket and priority act, as
    /// `acts` says of any job of that bucket and priority: it is asked once per bucket and
    /// priority present, not once per job (jobs of one bucket and priority are consecutive
    /// in the bucket).
    pub fn first_ready_acting(
        &self,
        mut acts: impl FnMut(Size, &Bucket, QKey) -> bool,
    ) -> Option<QKey> {
        let mut first: Option<QKey> = None;
        for (&size, b) in self.buckets.iter() {
            let (Some(&lo), Some(&hi)) = (b.jobs.first(), b.jobs.last()) else {
                continue;
            };
            if self.aside.through.is_some_and(|t| hi <= t) {
                continue; // all of the bucket is in the prefix set aside
            }
            if lo.priority == hi.priority {
                // One priority: its first job answers for the bucket, the first job not set
                // aside is looked for only when the bucket acts.
                if acts(size, b, lo) {
                    let k = self.first_ready_from(&b.jobs, self.after_prefix());
                    if let Some(k) = k.filter(|&k| first.is_none_or(|f| k < f)) {
                        first = Some(k);
                    }
                }
                continue;
            }
            let mut from = self.after_prefix();
            while let Some(k) = self.first_ready_from(&b.jobs, from) {
                if first.is_some_and(|f| f < k) {
                    break; // a job acting earlier is known
                }
                if acts(size, b, k) {
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

    /// The first job of `jobs` (a bucket) after `from` that is not set aside out of order.
    /// The bucket's first job is that job when it is after `from` (the usual case: the
    /// prefix set aside ends before it), found without a search.
    fn first_ready_from(&self, jobs: &BTreeSet<QKey>, from: Bound<QKey>) -> Option<QKey> {
        let &first = jobs.first()?;
        let after = match from {
            Bound::Unbounded => true,
            Bound::Excluded(f) => first > f,
            Bound::Included(f) => first >= f,
        };
        if after && !self.aside.extra.contains(&first) {
            return Some(first);
        }
        jobs.range((from, Bound::Unbounded))
            .find(|k| !self.aside.extra.contains(k))
            .copied()
    }

    /// The last RUNNABLE job before `key` in queue order.
    fn runnable_before(&self, key: QKey) -> Option<QKey> {
        self.in_order.before(&key).map(|(k, _)| k)
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
        let first = self.aside.extra.is_empty() && self.first_ready().map(|h| h.key) == Some(key);
        self.order_gen += 1;
        if first {
            // The usual case, a cycle's head: the prefix grows by it (with nothing set aside
            // after it, the set stays canonical), and the job after it comes first now:
            // the one at the place remembered after it (nothing moved in between), else
            // the one after the prefix's jobs by rank.
            self.aside.through = Some(key);
            self.aside.count += 1;
            let after = self.first_ready_at.get().and_then(|m| {
                let was_first = m.first.map(|h| h.key) == Some(key);
                (m.at + 1 == self.order_gen && was_first).then_some(m.after)?
            });
            let mut next = match after {
                Some(place) => self.in_order.iter_at(place),
                None => self.in_order.iter_from_rank(self.aside.count),
            };
            let first = next.next().map(|(key, size)| Head { key, size });
            self.first_ready_at.set(Some(ReadyMemo {
                at: self.order_gen,
                first,
                after: Some(next.place()),
            }));
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
        self.order_gen += 1;
        if m == 0 {
            return;
        }
        if m >= self.ready_count() {
            self.set_aside_all();
            return;
        }
        let mut ready = self.ready();
        let last = ready.nth(m - 1).expect("m jobs are ready").key;
        let after = ready.jobs.place();
        let a = &mut self.aside;
        if !a.extra.is_empty() {
            a.extra = a.extra.split_off(&last); // those before it are covered now
        }
        a.through = Some(last);
        a.count += m;
        if a.extra.is_empty() {
            // The job after the last one set aside comes first now.
            let mut next = self.in_order.iter_at(after);
            let first = next.next().map(|(key, size)| Head { key, size });
            self.first_ready_at.set(Some(ReadyMemo {
                at: self.order_gen,
                first,
                after: Some(next.place()),
            }));
            return;
        }
        self.settle_aside();
    }

    /// How many jobs not set aside come before `key` in queue order.
    pub fn ready_before(&self, key: QKey) -> usize {
        let from = self.after_prefix();
        self.in_order
            .rank_between(from.as_ref(), Bound::Included(&key))
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
        self.order_gen += 1;
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
        a.through = self.in_order.last().map(|(k, _)| k);
        a.extra.clear();
        a.count = self.runnable;
    }

    /// SPEC 12.1: RUNNABLE job `key` is no longer set aside (Kueue requeues an updated
    /// pending workload).
    pub fn unset_aside(&mut self, key: QKey) {
        self.order_gen += 1;
        if self.aside.extra.remove(&key) {
            self.aside.count -= 1;
        } else if self.aside.through.is_some_and(|t| key <= t) {
            self.aside.count -= 1;
            self.spell_out_aside(key);
        }
    }

    /// SPEC 12.1: every job set aside is offered again.
    pub fn clear_aside(&mut self) {
        self.order_gen += 1;
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
        let prefix = self.in_order.iter_from(Bound::Unbounded);
        for (k, _) in prefix.take_while(|(k, _)| *k <= t) {
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
                .iter_from(from.as_ref())
                .next()
                .map(|(k, _)| k);
            match next {
                Some(k) if self.aside.extra.remove(&k) => self.aside.through = Some(k),
                _ => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The set aside jobs against a naive model: every RUNNABLE job with a flag.

    use std::cmp::Reverse;
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::super::job::{JobId, Size};
    use super::super::queues::{QKey, ShareRt};
    use crate::input::index::TypeIx;

    fn key(i: u32) -> QKey {
        QKey {
            priority: Reverse((i % 3) as i32),
            submit: i64::from(i / 3),
            id_rank: i,
            job: JobId(i),
        }
    }

    fn size(i: u32) -> Size {
        Size {
            ty: TypeIx::new(0),
            instances: u64::from(i % 4 + 1),
        }
    }

    /// One change of the queue or of what is set aside, on job `i` or count `m`.
    #[derive(Clone, Debug)]
    enum Op {
        Insert(u32),
        Remove(u32),
        SetAside(u32),
        SetAsideFirstReady,
        SetAsideFirst(usize),
        Unset(u32),
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0..40u32).prop_map(Op::Insert),
            2 => (0..40u32).prop_map(Op::Remove),
            2 => (0..40u32).prop_map(Op::SetAside),
            3 => Just(Op::SetAsideFirstReady),
            2 => (0..12usize).prop_map(Op::SetAsideFirst),
            1 => (0..40u32).prop_map(Op::Unset),
            1 => Just(Op::Clear),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// After every change: the first job not set aside (remembered between changes),
        /// every `nth` of the jobs not set aside, their count and `is_aside` agree with the
        /// naive model.
        #[test]
        fn set_aside_jobs_match_a_naive_model(ops in proptest::collection::vec(op(), 1..80)) {
            let mut rt = ShareRt { keeps_order: true, ..ShareRt::default() };
            let mut naive: BTreeMap<QKey, bool> = BTreeMap::new(); // key -> set aside
            for op in ops {
                match op {
                    Op::Insert(i) if !naive.contains_key(&key(i)) => {
                        rt.insert_runnable(size(i), key(i));
                        naive.insert(key(i), false);
                    }
                    Op::Remove(i) if naive.contains_key(&key(i)) => {
                        rt.remove_runnable(size(i), key(i));
                        naive.remove(&key(i));
                    }
                    Op::SetAside(i) if naive.contains_key(&key(i)) => {
                        let newly = rt.set_aside(key(i));
                        prop_assert_eq!(newly, !naive[&key(i)]);
                        naive.insert(key(i), true);
                    }
                    Op::SetAsideFirstReady => {
                        // A cycle's head asked for, then set aside (the remembered answer).
                        if let Some(h) = rt.first_ready() {
                            prop_assert!(rt.set_aside(h.key));
                            naive.insert(h.key, true);
                        }
                    }
                    Op::SetAsideFirst(m) => {
                        let m = m.min(rt.ready_count());
                        rt.set_aside_first(m);
                        for (_, aside) in naive.iter_mut().filter(|(_, a)| !**a).take(m) {
                            *aside = true;
                        }
                    }
                    Op::Unset(i) if naive.get(&key(i)) == Some(&true) => {
                        rt.unset_aside(key(i));
                        naive.insert(key(i), false);
                    }
                    Op::Clear => {
                        rt.clear_aside();
                        naive.values_mut().for_each(|a| *a = false);
                    }
                    _ => continue,
                }
                let ready: Vec<QKey> =
                    naive.iter().filter(|(_, a)| !**a).map(|(k, _)| *k).collect();
                prop_assert_eq!(rt.ready_count(), ready.len());
                prop_assert_eq!(rt.first_ready().map(|h| h.key), ready.first().copied());
                prop_assert_eq!(rt.first_ready().map(|h| h.key), ready.first().copied());
                for (n, k) in ready.iter().enumerate() {
                    prop_assert_eq!(rt.ready().nth(n).map(|h| h.key), Some(*k));
                }
                prop_assert_eq!(rt.ready().nth(ready.len()).map(|h| h.key), None);
                // A bucket and priority act or not (as a class of jobs does in a cycle).
                let acts = |s: Size, k: QKey| (s.instances as i32 + k.priority.0) % 3 == 0;
                prop_assert_eq!(
                    rt.first_ready_acting(|s, _, k| acts(s, k)),
                    ready.iter().copied().find(|k| acts(size(k.id_rank), *k))
                );
                for (k, a) in &naive {
                    prop_assert_eq!(rt.is_aside(k), *a);
                }
            }
        }
    }
}
