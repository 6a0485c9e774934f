//! A share's queues (SPEC 4 and 5): the RUNNABLE jobs in buckets of one instance type and
//! size, in queue order ([`QKey`]), the admitted jobs in candidate order ([`AKey`]), and
//! the memory of its last offer ([`NoOffer`]).

use std::cmp::Reverse;
use std::collections::BTreeSet;

use crate::input::model::*;

use super::job::*;
use super::ranked::Ranked;

/// RUNNABLE order within a share (SPEC 4): priority high first, then submit, then id
/// (fields compared in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QKey {
    pub priority: Reverse<Priority>,
    pub submit: Ms,
    /// The job id's rank among all ids (ids compare as strings).
    pub id_rank: u32,
    pub job: JobId,
}

/// A bucket's first job ([`ShareRt::heads`]): its key, then its bucket's size. Ordered by
/// key (keys are distinct jobs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Head {
    pub key: QKey,
    pub size: Size,
}

/// Candidate order (SPEC 5): lowest priority first, then latest admission first (fields
/// compared in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AKey {
    pub priority: Priority,
    /// Admission sequence, reversed: the latest admitted first.
    pub admitted: Reverse<u64>,
    pub job: JobId,
}

/// RUNNABLE jobs of one share with the same instance type and size. Such jobs fit, preempt
/// and wait for the same reasons, so a pass looks at bucket heads only.
#[derive(Clone, Debug, Default)]
pub struct Bucket {
    pub jobs: BTreeSet<QKey>,
    /// The reason every settled job of the bucket carries.
    pub reason: Option<Reason>,
    /// A cache (Kueue model): what the share alone allows a job of the bucket that does
    /// not fit (`Sim::alone`), at a (configuration epoch, share's usage of the type).
    pub(super) alone: std::cell::Cell<Option<(u64, u64, Alone)>>,
}

/// What a head that does not fit can do, as its share alone decides (`Sim::alone`):
/// SPEC 12 "may preempt", and whether a search surely finds no victims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Alone {
    /// It may not preempt: set aside.
    CannotPreempt,
    /// It may preempt, but a search surely finds no victims (`Sim::finds_no_victims`).
    NoVictims,
    /// It may preempt, and a search may find victims.
    MaySearch,
}

/// The jobs of a share set aside (SPEC 12.1; the methods of `simulation::aside` keep it). Kept canonical, so that
/// equal sets are equal values (the circle watch hashes it): `through` is the key of a
/// RUNNABLE job and as late as it can be (the RUNNABLE job after it is not in `extra`),
/// `extra` holds only keys after it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Aside {
    /// Every RUNNABLE job whose key is at most this one is set aside.
    pub(super) through: Option<QKey>,
    /// The jobs set aside after `through`.
    pub(super) extra: BTreeSet<QKey>,
    /// How many RUNNABLE jobs are set aside.
    pub(super) count: usize,
}

/// A share's queues.
#[derive(Clone, Debug, Default)]
pub struct ShareRt {
    /// RUNNABLE jobs by (instance type, instances), in key order (a share has few sizes:
    /// a sorted vector iterates much faster than a tree in the pass).
    pub buckets: Buckets,
    /// Admitted jobs per instance type, in candidate order.
    pub admitted: Vec<BTreeSet<AKey>>,
    /// Per instance type: admitted instances by priority (for preemption bounds).
    pub admitted_by_priority: Vec<PriorityTotals>,
    /// SPEC 12.1 (Kueue model): per instance type, the jobs preempted and still in their
    /// grace, in candidate order. They hold their quota until they are gone (Kueue keeps an
    /// evicted workload's reservation until its job has stopped) and are preemption
    /// candidates before every admitted job (Kueue `CandidatesOrdering`: evicted first).
    /// Always empty in the AWS model, whose victims release their quota at once (SPEC 3).
    pub evicted: Vec<BTreeSet<AKey>>,
    /// SPEC 12.1 (Kueue model, best-effort FIFO): the RUNNABLE jobs Kueue's queue manager
    /// holds as inadmissible: heads that could neither be admitted nor preempt, set aside
    /// (not offered) until something in their cohort tree releases quota. Read and changed
    /// through the methods of `simulation::aside`.
    pub(super) aside: Aside,
    /// How many RUNNABLE jobs the buckets hold.
    pub runnable: usize,
    /// SPEC 12.1 (Kueue model): every RUNNABLE job in queue order with its bucket, so that
    /// the set-aside prefix (`simulation::aside`) walks one ordered set, not a merge of the
    /// buckets, and finds its `k`-th job by rank. Kept only when `keeps_order` (the Kueue
    /// model); empty in the AWS model.
    pub(super) in_order: Ranked<QKey, Size>,
    pub(super) keeps_order: bool,
    /// Bumped by every change of `in_order` or `aside` (the methods of `simulation::aside`
    /// and `insert_runnable` / `remove_runnable`): what `first_ready_at` is stamped with.
    pub(super) order_gen: u64,
    /// [`ShareRt::first_ready`]'s last answer (a cycle's head is asked for again when the
    /// cycle sets it aside, and the next cycle asks for the job after it).
    pub(super) first_ready_at: std::cell::Cell<Option<ReadyMemo>>,
    /// Bumped whenever a job joins or leaves the RUNNABLE jobs (not when jobs are set
    /// aside or offered again): what [`InertRun`] is stamped with besides an epoch.
    pub(super) members: u64,
    /// A cache (Kueue model): the first job not set aside that acts as a cycle's head, as
    /// last worked out in full (`Sim::first_acting`).
    pub(super) inert: std::cell::Cell<Option<InertRun>>,
    /// A skip (Kueue model, within a pass): the share's jobs are all known inert and its
    /// cycles are counted, not walked (`simulation::drained`).
    pub(super) drain: Option<Drain>,
    /// SPEC 12.1 (Kueue model, best-effort FIFO): the preemptor at the head of the share
    /// that waits for its victims (Kueue's sticky workload): offered before every other job
    /// of the share until it is admitted.
    pub sticky: Option<JobId>,
    /// Jobs that became RUNNABLE (or changed priority) since the last pass ended.
    pub fresh: Vec<JobId>,
    /// Queue membership or configuration changed since the last pass (strict FIFO reasons).
    pub dirty: bool,
    /// RUNNABLE jobs per instance type (series `queued`).
    pub queued: Vec<u64>,
    /// Physical instances held per type (STARTING, RUNNING, PREEMPTING).
    pub held: Vec<u64>,
    /// Bumped whenever the RUNNABLE queue or the admitted set's priorities change.
    pub version: u64,
    /// When this share last had no offer (see [`NoOffer`]).
    pub no_offer: Option<NoOffer>,
    /// `(configuration epoch, version)` at which the waiting reasons were last brought up
    /// to date (in the Kueue model with best-effort FIFO the version plays no part: 0).
    pub reasons_at: Option<(u64, u64)>,
    /// Kueue model: the share's own usage of each type in the quota trees then (what its
    /// reasons read besides the configuration, `Sim::kueue_reason`).
    pub reasons_used: Vec<u64>,
    /// The first job of every non-empty bucket, in queue order (a share's candidates for
    /// its offer); sorted, one per bucket, each with its bucket (instance type, instances),
    /// so that the pass reads no job to know its size.
    pub heads: Vec<Head>,
}

/// [`ShareRt::first_ready`]'s answer at one `order_gen`: the first job not set aside and,
/// when nothing is set aside out of order, the place in `in_order` just after it (where
/// the next first job is once it is set aside; `None`: not known).
#[derive(Clone, Copy, Debug)]
pub(super) struct ReadyMemo {
    pub(super) at: u64,
    pub(super) first: Option<Head>,
    pub(super) after: Option<super::ranked::Place>,
}

/// `Sim::first_acting`'s answer for a share (a cache): every job not set aside before
/// `first` (all of them if `None`) would only be set aside as a cycle's head, and `first`
/// would act, at `at` (an epoch and the share's `members`, `Sim::inert_stamp`). While
/// those hold the jobs before `first` stay inert (SPEC 12: other shares' admissions only
/// make fitting harder); `first` may have stopped acting, and is asked again.
#[derive(Clone, Copy, Debug)]
pub(super) struct InertRun {
    pub(super) at: (u64, u64),
    /// Whether a job was found inert by a search that found no victims (the run then
    /// holds only while no share newly borrows).
    pub(super) searched: bool,
    pub(super) first: Option<QKey>,
}

/// A drained share (a skip within a Kueue pass, `simulation::drained`): its jobs set aside by the cycles counted and not yet materialised
/// (`done`), its jobs not set aside left for the next cycles (`left`), and the stamp of
/// the run that says they are inert (`InertRun`'s `at` and `searched`: within a pass the
/// configuration does not change, so the run holds while the stamp's epoch and the
/// share's `members` do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Drain {
    pub(super) done: usize,
    pub(super) left: usize,
    pub(super) at: (u64, u64),
    pub(super) searched: bool,
}

/// A share had no offer at these epochs and `version`. Until the epoch it depends on
/// (the structure epoch when only its own limit held it back, else the quota epoch) or its
/// `version` changes, it has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoOffer {
    /// the quota epoch and the structure epoch then.
    pub quota_at: u64,
    pub struct_at: u64,
    pub version: u64,
    pub limit_bound: bool,
    /// `Some(size)` when no head it looked at could preempt and those with a limit were all
    /// of `size.ty`, the smallest needing `size.instances`: while `struct_at` and `version`
    /// hold, it has an offer only once a job of that size fits (see `Sim::still_no_offer`).
    pub fit_only: Option<Size>,
}

impl ShareRt {
    /// Records an admitted job (candidate order and per-priority totals).
    pub fn add_admitted(&mut self, t: usize, key: AKey, n: u64) {
        self.admitted[t].insert(key);
        self.admitted_by_priority[t].add(key.priority, n);
    }

    /// Forgets an admitted job.
    pub fn remove_admitted(&mut self, t: usize, key: AKey, n: u64) {
        self.admitted[t].remove(&key);
        self.admitted_by_priority[t].remove(key.priority, n);
    }

    /// Instances of admitted jobs of type `t` with priority strictly below `p`.
    pub fn admitted_below(&self, t: usize, p: Priority) -> u64 {
        self.admitted_by_priority[t].below(p)
    }

    /// Adds a RUNNABLE job to its bucket, keeping `heads` current.
    pub fn insert_runnable(&mut self, size: Size, key: QKey) {
        let b = self.buckets.entry(size);
        if let Some(&old) = b.jobs.first() {
            if key < old {
                remove_sorted(&mut self.heads, &Head { key: old, size });
                insert_sorted(&mut self.heads, Head { key, size });
            }
        } else {
            insert_sorted(&mut self.heads, Head { key, size });
        }
        b.jobs.insert(key);
        self.order_gen += 1;
        self.members += 1;
        if self.keeps_order {
            self.in_order.insert(key, size);
        }
        self.runnable += 1;
        self.aside_after_insert(key);
        self.version += 1;
        self.dirty = true;
    }

    /// Removes a RUNNABLE job from its bucket, keeping `heads` current.
    pub fn remove_runnable(&mut self, size: Size, key: QKey) {
        let Some(b) = self.buckets.get_mut(&size) else {
            return;
        };
        let was_head = b.jobs.first() == Some(&key);
        let removed = b.jobs.remove(&key);
        if was_head {
            remove_sorted(&mut self.heads, &Head { key, size });
            match b.jobs.first() {
                Some(&next) => insert_sorted(&mut self.heads, Head { key: next, size }),
                None => self.buckets.remove(&size),
            }
        }
        if removed {
            self.order_gen += 1;
            self.members += 1;
            self.in_order.remove(&key);
            self.runnable -= 1;
            self.aside_after_remove(key);
        }
        self.version += 1;
        self.dirty = true;
    }
}

/// Inserts `key` into the sorted vector `v` (no duplicates: heads are distinct jobs).
fn insert_sorted(v: &mut Vec<Head>, key: Head) {
    let i = v.partition_point(|k| *k < key);
    v.insert(i, key);
}

/// Removes `key` from the sorted vector `v`, if present.
fn remove_sorted(v: &mut Vec<Head>, key: &Head) {
    if let Ok(i) = v.binary_search(key) {
        v.remove(i);
    }
}

/// Admitted instances per priority (one share, one type), in priority order: a share's
/// admitted jobs have few distinct priorities, so a sorted vector beats a tree here.
#[derive(Clone, Debug, Default)]
pub struct PriorityTotals(Vec<(Priority, u64)>);

impl PriorityTotals {
    /// `n` more instances at priority `p`.
    pub fn add(&mut self, p: Priority, n: u64) {
        match self.0.binary_search_by_key(&p, |e| e.0) {
            Ok(i) => self.0[i].1 += n,
            Err(i) => self.0.insert(i, (p, n)),
        }
    }

    /// `n` fewer instances at priority `p` (an entry that falls to 0 is dropped).
    pub fn remove(&mut self, p: Priority, n: u64) {
        if let Ok(i) = self.0.binary_search_by_key(&p, |e| e.0) {
            self.0[i].1 -= n;
            if self.0[i].1 == 0 {
                self.0.remove(i);
            }
        }
    }

    /// Instances at priorities strictly below `p`.
    pub fn below(&self, p: Priority) -> u64 {
        self.0.iter().take_while(|e| e.0 < p).map(|e| e.1).sum()
    }

    /// Instances at priorities up to `p` included.
    pub fn at_most(&self, p: Priority) -> u64 {
        self.0.iter().take_while(|e| e.0 <= p).map(|e| e.1).sum()
    }
}

/// A share's buckets by (instance type, instances), kept sorted by key: the map the pass
/// iterates on every share of every pass (see [`ShareRt::buckets`]).
#[derive(Clone, Debug, Default)]
pub struct Buckets(Vec<(Size, Bucket)>);

impl Buckets {
    /// The bucket of `key`, created empty if missing.
    pub fn entry(&mut self, key: Size) -> &mut Bucket {
        let i = match self.0.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key, Bucket::default()));
                i
            }
        };
        &mut self.0[i].1
    }

    pub fn get(&self, key: &Size) -> Option<&Bucket> {
        let i = self.0.binary_search_by(|(k, _)| k.cmp(key)).ok()?;
        Some(&self.0[i].1)
    }

    pub fn get_mut(&mut self, key: &Size) -> Option<&mut Bucket> {
        let i = self.0.binary_search_by(|(k, _)| k.cmp(key)).ok()?;
        Some(&mut self.0[i].1)
    }

    pub fn remove(&mut self, key: &Size) {
        if let Ok(i) = self.0.binary_search_by(|(k, _)| k.cmp(key)) {
            self.0.remove(i);
        }
    }

    /// Buckets in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&Size, &Bucket)> {
        self.0.iter().map(|(k, b)| (k, b))
    }

    pub fn values(&self) -> impl Iterator<Item = &Bucket> {
        self.0.iter().map(|(_, b)| b)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Bucket> {
        self.0.iter_mut().map(|(_, b)| b)
    }
}

impl<'a> IntoIterator for &'a Buckets {
    type Item = (&'a Size, &'a Bucket);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (Size, Bucket)>,
        fn(&'a (Size, Bucket)) -> (&'a Size, &'a Bucket),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, b)| (k, b))
    }
}
