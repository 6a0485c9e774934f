//! The simulator's state (SPEC 6 job states, SPEC 4 waiting reasons, SPEC 8 event kinds, the
//! per-share queues) and [`Sim`] itself with its construction.
//!
//! The event loop and job transitions live in [`super::events`], the series and integrals
//! in [`super::series`], the scheduling pass in [`super::pass`], victim selection in
//! [`super::preemption`], the fit rules in [`super::admission`] and the closed-form run
//! arithmetic in [`super::lifecycle`].

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use crate::input::model::*;
use crate::simulation::admission::{self, TypeUsage};

use super::share_value::ShareValue;

/// What to record besides the metrics. The CLI's `--summary` needs neither the event log
/// nor the series; the page and `run` need both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub events: bool,
    pub series: bool,
    /// Re-evaluate everything every time: no cached "no offer", no skipped reasons, no
    /// preemption bounds. Same results, slower: the oracle the property tests compare with.
    pub exhaustive: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            events: true,
            series: true,
            exhaustive: false,
        }
    }
}

impl Options {
    /// Metrics only (the CLI's `--summary`): no event log, no series.
    pub fn summary() -> Options {
        Options {
            events: false,
            series: false,
            exhaustive: false,
        }
    }
}

/// SPEC 6 job states (plus "not yet submitted"). Serializable: the display digest carries
/// them (see the output stage's `digest`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum State {
    Pending,
    Runnable,
    Scheduled,
    Starting,
    Running,
    Preempting,
    Succeeded,
    Failed,
    Rejected,
}

impl State {
    /// The SPEC 6 name: `RUNNABLE`, `SUCCEEDED`...
    pub fn as_str(self) -> &'static str {
        match self {
            State::Pending => "PENDING",
            State::Runnable => "RUNNABLE",
            State::Scheduled => "SCHEDULED",
            State::Starting => "STARTING",
            State::Running => "RUNNING",
            State::Preempting => "PREEMPTING",
            State::Succeeded => "SUCCEEDED",
            State::Failed => "FAILED",
            State::Rejected => "REJECTED",
        }
    }
    /// Admitted: counts in `used` (SPEC 3).
    pub fn admitted(self) -> bool {
        matches!(self, State::Scheduled | State::Starting | State::Running)
    }
    /// Holding instances: STARTING, RUNNING or PREEMPTING (in its grace period).
    pub fn holding(self) -> bool {
        matches!(self, State::Starting | State::Running | State::Preempting)
    }
    /// Final: SUCCEEDED, FAILED or REJECTED.
    pub fn finished(self) -> bool {
        matches!(self, State::Succeeded | State::Failed | State::Rejected)
    }
}

/// SPEC 4 waiting reasons, in precedence order (the words for people are
/// `output::explain::reason_words`, one table for every view).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Reason {
    Unschedulable,
    BlockedByPriority,
    HeadOfLine,
    BorrowLimit,
    EntitlementExhausted,
    CapacityInUse,
    NoLendableCapacity,
}

impl Reason {
    /// Every reason, in precedence order.
    pub const ALL: [Reason; 7] = [
        Reason::Unschedulable,
        Reason::BlockedByPriority,
        Reason::HeadOfLine,
        Reason::BorrowLimit,
        Reason::EntitlementExhausted,
        Reason::CapacityInUse,
        Reason::NoLendableCapacity,
    ];

    /// The reason of a SPEC 8 code (`borrow_limit`), if it is one.
    pub fn parse(code: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == code)
    }

    /// The SPEC 8 code: `unschedulable`, `borrow_limit`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Unschedulable => "unschedulable",
            Reason::BlockedByPriority => "blocked_by_priority",
            Reason::HeadOfLine => "head_of_line",
            Reason::BorrowLimit => "borrow_limit",
            Reason::EntitlementExhausted => "entitlement_exhausted",
            Reason::CapacityInUse => "capacity_in_use",
            Reason::NoLendableCapacity => "no_lendable_capacity",
        }
    }
}

/// SPEC 5: the two preemption mechanisms, reported separately; SPEC 12 adds Kueue's
/// reclaim while borrowing and fair sharing (Kueue InCohortReclaimWhileBorrowing,
/// InCohortFairSharing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Cause {
    Reclaim,
    InShare,
    ReclaimWhileBorrowing,
    FairSharing,
}

impl Cause {
    /// The SPEC 8 / 12 name: `reclaim`, `in_share`, `reclaim_while_borrowing` or
    /// `fair_sharing`.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Reclaim => "reclaim",
            Cause::InShare => "in_share",
            Cause::ReclaimWhileBorrowing => "reclaim_while_borrowing",
            Cause::FairSharing => "fair_sharing",
        }
    }
}

/// SPEC 8 event kinds. Job and share are indices; text is produced at output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Submit,
    Dispatch {
        borrowing: bool,
    },
    Start,
    Running,
    Preempt {
        cause: Cause,
        by: JobId,
        victim_priority: Priority,
        by_priority: Priority,
        /// Fair sharing (Kueue model): the preemptor's and the victim's dominant resource
        /// share at the decision (SPEC 12 explanations).
        shares: Option<[crate::simulation::share_value::ShareValue; 2]>,
    },
    Requeue,
    Succeed,
    Fail,
    Reject,
    /// A waiting reason changed; in the Kueue model with the limit that binds (SPEC 12),
    /// for the explanation only.
    Waiting(Reason, Option<super::kueue::Binding>),
    SetPriority(Priority),
    UpdateShare,
    /// SPEC 14: a restore from a checkpoint failed; `lost` ms of checkpointed progress.
    RestoreFailed {
        lost: Ms,
    },
    /// SPEC 14: the work completed on a corrupt resume; `lost` ms of progress, restarts.
    InvalidResume {
        lost: Ms,
    },
    /// SPEC 14: retries exhausted, submitted again to the event's share from share `from`.
    Resubmit {
        from: u32,
        priority: Priority,
    },
    /// SPEC 14 `escalate`: a `set_priority` to this priority as the deadline nears.
    Escalated(Priority),
    /// SPEC 14: the job's preemption count reached `count` (`alarms.repeated_preemptions`).
    Alarm {
        count: u64,
    },
}

/// A job of the scenario: its index in `Scenario::jobs` (and in [`Sim::jobs`]). Ordered
/// by that index, the last tie-break of the queue and candidate orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JobId(pub u32);

impl JobId {
    /// The job at `index` of the scenario's jobs.
    pub fn new(index: usize) -> JobId {
        JobId(index as u32)
    }
    /// Its index in `Scenario::jobs` and [`Sim::jobs`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// Every job of a scenario with `n` jobs, in order.
    pub fn all(n: usize) -> impl Iterator<Item = JobId> {
        (0..n as u32).map(JobId)
    }
}

/// One entry of the event log. `job` is `NO_JOB` for `update_share`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub t: Ms,
    pub job: JobId,
    pub share: u32,
    pub kind: EventKind,
}

/// The `job` of an event without one (`update_share`).
pub const NO_JOB: JobId = JobId(u32::MAX);

/// SPEC 6: a job's held instance-time split (all but `held` itself, which is
/// [`JobRt::held`]), in ms of one instance (multiply by `instances`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Acc {
    /// All progress ever made (kept or lost); `useful = progress - lost`.
    pub progress: Ms,
    pub lost: Ms,
    pub startup: Ms,
    pub checkpoint: Ms,
    pub grace: Ms,
    /// SPEC 14 `restart_h`: the part of `startup` spent starting again after a preemption.
    pub restart: Ms,
}

impl Acc {
    pub fn useful(&self) -> Ms {
        self.progress - self.lost
    }
    /// The parts in field order (one loop for every sum of them below: small wasm).
    fn parts(&self) -> [Ms; 6] {
        [
            self.progress,
            self.lost,
            self.startup,
            self.checkpoint,
            self.grace,
            self.restart,
        ]
    }
    fn parts_mut(&mut self) -> [&mut Ms; 6] {
        let Acc {
            progress,
            lost,
            startup,
            checkpoint,
            grace,
            restart,
        } = self;
        [progress, lost, startup, checkpoint, grace, restart]
    }
}

/// SPEC 6: the [`Acc`] of a share's jobs, summed times their instances (instance-ms,
/// exact). Kept for every run, so a summary run needs no per-job [`Acc`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccTotals {
    pub progress: u128,
    pub lost: u128,
    pub startup: u128,
    pub checkpoint: u128,
    pub grace: u128,
    pub restart: u128,
}

impl AccTotals {
    /// Adds `a` times `n` instances.
    pub fn add(&mut self, a: &Acc, n: u64) {
        self.fold(a, n, u128::wrapping_add);
    }
    /// Takes back what [`AccTotals::add`] added.
    pub fn sub(&mut self, a: &Acc, n: u64) {
        self.fold(a, n, u128::wrapping_sub);
    }
    fn fold(&mut self, a: &Acc, n: u64, op: fn(u128, u128) -> u128) {
        let AccTotals {
            progress,
            lost,
            startup,
            checkpoint,
            grace,
            restart,
        } = self;
        for (t, x) in [progress, lost, startup, checkpoint, grace, restart]
            .into_iter()
            .zip(a.parts())
        {
            *t = op(*t, x as u128 * u128::from(n));
        }
    }
    pub fn useful(&self) -> u128 {
        self.progress - self.lost
    }
}

impl std::ops::AddAssign<&Acc> for Acc {
    fn add_assign(&mut self, b: &Acc) {
        for (t, x) in self.parts_mut().into_iter().zip(b.parts()) {
            *t += x;
        }
    }
}

/// A job's dynamic state.
#[derive(Clone, Debug)]
pub struct JobRt {
    pub priority: Priority,
    pub state: State,
    pub reason: Option<Reason>,
    pub adm_seq: u64,
    /// Preemptions so far (saturating: a count, never an index).
    pub preemptions: u32,
    pub first_start: OptMs,
    /// Bumped whenever a pending startup-end or completion becomes stale.
    pub epoch: u32,
    /// Progress covered by the last checkpoint (what a restart resumes from).
    pub saved: Ms,
    /// When STARTING began (instances held from then on); while RUNNABLE again after a
    /// preemption (SPEC 14), when it returned to the queue: set and read that with
    /// [`JobRt::set_requeued`] and [`JobRt::take_requeued`] (one field for both).
    pub phase_start: Ms,
    /// When RUNNING began, and the progress it began from; while PREEMPTING (the run is
    /// settled by then), when the preemption began: read it with [`JobRt::preempted_at`];
    /// once the job has ended (SUCCEEDED or FAILED), when: [`JobRt::end`] (one field for
    /// all three: 8 bytes of each of a million jobs).
    pub run_start: Ms,
    pub base: Ms,
    /// SPEC 6: instance time held so far, in ms of one instance (the rest of the split is
    /// in [`Sim::acc`] and [`Sim::acc_totals`], see [`Sim::accrue`]).
    pub held: Ms,
    /// SPEC 14: the share the job counts in (its last share once resubmitted); read it
    /// with [`JobRt::share`].
    pub share: u32,
    /// SPEC 14: restores that completed (the index of the next draw of its stream).
    pub restores: u32,
    /// SPEC 14: the part of the kept progress (`saved`, or the progress at the run's end)
    /// made in borrowed runs.
    pub useful_borrowed: Ms,
    /// The job's yes/no facts, one bit each: read and set them with the accessors
    /// ([`JobRt::pre_save`], [`JobRt::restoring`], [`JobRt::restarting`],
    /// [`JobRt::run_borrowed`], [`JobRt::raised`], [`JobRt::merged`], and whether
    /// [`JobRt::take_requeued`] has a time).
    pub flags: u8,
}

/// The bits of [`JobRt::flags`].
const PRE_SAVE: u8 = 1;
const RESTORING: u8 = 1 << 1;
const RESTARTING: u8 = 1 << 2;
const RUN_BORROWED: u8 = 1 << 3;
const RAISED: u8 = 1 << 4;
const MERGED: u8 = 1 << 5;
const REQUEUED: u8 = 1 << 6;
const ENDED: u8 = 1 << 7;

impl JobRt {
    /// PREEMPTING: when the preemption began (whether it saves a checkpoint during grace is
    /// [`JobRt::pre_save`]).
    pub fn preempted_at(&self) -> Ms {
        debug_assert_eq!(self.state, State::Preempting);
        self.run_start
    }

    /// When the job ended (SUCCEEDED or FAILED), if it has.
    pub fn end(&self) -> OptMs {
        if self.flag(ENDED) {
            OptMs::some(self.run_start)
        } else {
            OptMs::NONE
        }
    }

    /// The job ends at `at` (or, `NONE`, has not ended): its run is settled by then.
    pub fn set_end(&mut self, at: OptMs) {
        if let Some(at) = at.get() {
            self.run_start = at;
        }
        self.set_flag(ENDED, at.is_some());
    }

    /// SPEC 14 `wait_after_interruption_s`: the job returns to the queue at `at` after a
    /// preemption (or as a continuation); it holds no instances until it starts again.
    pub fn set_requeued(&mut self, at: Ms) {
        self.phase_start = at;
        self.set_flag(REQUEUED, true);
    }

    /// The time [`JobRt::set_requeued`] recorded, once (read it before STARTING begins).
    pub fn take_requeued(&mut self) -> Option<Ms> {
        let at = self.flag(REQUEUED).then_some(self.phase_start);
        self.set_flag(REQUEUED, false);
        at
    }

    /// SPEC 14: the share the job counts in (its last share once resubmitted).
    pub fn share(&self) -> usize {
        self.share as usize
    }

    fn flag(&self, bit: u8) -> bool {
        self.flags & bit != 0
    }
    fn set_flag(&mut self, bit: u8, on: bool) {
        if on {
            self.flags |= bit;
        } else {
            self.flags &= !bit;
        }
    }
    /// The preemption in progress saves a checkpoint during grace.
    pub fn pre_save(&self) -> bool {
        self.flag(PRE_SAVE)
    }
    pub fn set_pre_save(&mut self, on: bool) {
        self.set_flag(PRE_SAVE, on);
    }
    /// The current STARTING includes a restore.
    pub fn restoring(&self) -> bool {
        self.flag(RESTORING)
    }
    pub fn set_restoring(&mut self, on: bool) {
        self.set_flag(RESTORING, on);
    }
    /// The current STARTING follows a preemption (`restart_h`).
    pub fn restarting(&self) -> bool {
        self.flag(RESTARTING)
    }
    pub fn set_restarting(&mut self, on: bool) {
        self.set_flag(RESTARTING, on);
    }
    /// SPEC 14: the current run's dispatch was borrowing.
    pub fn run_borrowed(&self) -> bool {
        self.flag(RUN_BORROWED)
    }
    pub fn set_run_borrowed(&mut self, on: bool) {
        self.set_flag(RUN_BORROWED, on);
    }
    /// SPEC 14: some `set_priority` raised its priority.
    pub fn raised(&self) -> bool {
        self.flag(RAISED)
    }
    pub fn set_raised(&mut self, on: bool) {
        self.set_flag(RAISED, on);
    }
    /// SPEC 14: a continuation folded into the job it continues (never reported itself).
    pub fn merged(&self) -> bool {
        self.flag(MERGED)
    }
    pub fn set_merged(&mut self, on: bool) {
        self.set_flag(MERGED, on);
    }
}

// `OptMs` moved to the model (job deadlines are one); the old path still works.
pub use crate::input::model::OptMs;

/// SPEC 14 counts of one share (the `recovery` and `policy` blocks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecoveryCounts {
    /// Preemptions of jobs holding instances (STARTING or RUNNING).
    pub interruptions: u64,
    pub restores: u64,
    pub restore_failures: u64,
    pub invalid_resumes: u64,
    pub retries_exhausted: u64,
    pub resubmitted: u64,
    pub alarms: u64,
    /// `set_priority` events of the share's jobs (escalations included).
    pub priority_overrides: u64,
    /// `update_share` events of the share.
    pub allocation_changes: u64,
}

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

/// A bucket's first job ([`ShareRt::heads`]): its key, then its bucket (instance type,
/// instances). Ordered by key (keys are distinct jobs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Head {
    pub key: QKey,
    pub ty: usize,
    pub instances: u64,
}

impl Head {
    /// The head `key` of bucket `(ty, instances)`.
    pub fn new(key: QKey, (ty, instances): (usize, u64)) -> Head {
        Head { key, ty, instances }
    }
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
    /// Jobs that became RUNNABLE (or changed priority) since the last pass ended.
    pub fresh: Vec<JobId>,
    /// Queue membership or configuration changed since the last pass (strict FIFO reasons).
    pub dirty: bool,
    /// RUNNABLE jobs per instance type (series `queued`).
    pub queued: Vec<u64>,
    /// Physical instances held per type (STARTING, RUNNING, PREEMPTING).
    pub held: Vec<u64>,
    pub reclaims: u64,
    pub in_share: u64,
    /// SPEC 12: preemptions of this share's jobs with cause `reclaim_while_borrowing` and
    /// `fair_sharing` (Kueue model only).
    pub reclaims_while_borrowing: u64,
    pub fair_sharing: u64,
    /// SPEC 14 counts.
    pub recovery: RecoveryCounts,
    /// Bumped whenever the RUNNABLE queue or the admitted set's priorities change.
    pub version: u64,
    /// When this share last had no offer (see [`NoOffer`]).
    pub no_offer: Option<NoOffer>,
    /// `(what else they depend on, version)` at which the waiting reasons were last brought
    /// up to date: `config_epoch` in the AWS model, `usage_version` in the Kueue model.
    pub reasons_at: Option<(u64, u64)>,
    /// The first job of every non-empty bucket, in queue order (a share's candidates for
    /// its offer); sorted, one per bucket, each with its bucket (instance type, instances),
    /// so that the pass reads no job to know its size.
    pub heads: Vec<Head>,
    /// SPEC 12 (Kueue model): per (type, size) bucket, the job whose preemption search last
    /// found no victims and the `(usage_version, struct_epoch)` it was judged at; while
    /// both are unchanged (and the pass reserved nothing) the search would fail again.
    pub kueue_failed: Vec<(usize, u64, (u64, u64), JobId)>,
    /// SPEC 12 (Kueue model): the share's offer at the start of a pass and the
    /// `(usage_version, struct_epoch, version)` it was found at; while they are unchanged
    /// the next pass starts with the same offer.
    pub(crate) kueue_offer: Option<((u64, u64, u64), Option<super::kueue::KOffer>)>,
    /// SPEC 12 (Kueue model): the share's queue heads as its offers read them, kept from one
    /// pass to the next (see [`super::kueue::Heads`]).
    pub(crate) kueue_heads: super::kueue::Heads,
}

/// A share had no offer at these epochs and `version`. Until the epoch it depends on
/// (`struct_epoch` when only its own limit held it back, else `quota_epoch`) or its
/// `version` changes, it has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoOffer {
    /// `quota_epoch` and `struct_epoch` then.
    pub quota_at: u64,
    pub struct_at: u64,
    pub version: u64,
    pub limit_bound: bool,
    /// `Some((t, n))` when no head it looked at could preempt and those with a limit were all
    /// of type `t`, the smallest needing `n` instances: while `struct_at` and `version` hold,
    /// it has an offer only once a job of `n` fits (see [`Sim::still_no_offer`]).
    pub fit_only: Option<(usize, u64)>,
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
    pub fn insert_runnable(&mut self, bucket: (usize, u64), key: QKey) {
        let b = self.buckets.entry(bucket);
        if let Some(&old) = b.jobs.first() {
            if key < old {
                remove_sorted(&mut self.heads, &Head::new(old, bucket));
                insert_sorted(&mut self.heads, Head::new(key, bucket));
            }
        } else {
            insert_sorted(&mut self.heads, Head::new(key, bucket));
        }
        b.jobs.insert(key);
        self.version += 1;
        self.dirty = true;
    }

    /// Removes a RUNNABLE job from its bucket, keeping `heads` current.
    pub fn remove_runnable(&mut self, bucket: (usize, u64), key: QKey) {
        let Some(b) = self.buckets.get_mut(&bucket) else {
            return;
        };
        let was_head = b.jobs.first() == Some(&key);
        b.jobs.remove(&key);
        if was_head {
            remove_sorted(&mut self.heads, &Head::new(key, bucket));
            match b.jobs.first() {
                Some(&next) => insert_sorted(&mut self.heads, Head::new(next, bucket)),
                None => self.buckets.remove(&bucket),
            }
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
pub struct Buckets(Vec<((usize, u64), Bucket)>);

impl Buckets {
    /// The bucket of `key`, created empty if missing.
    pub fn entry(&mut self, key: (usize, u64)) -> &mut Bucket {
        let i = match self.0.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key, Bucket::default()));
                i
            }
        };
        &mut self.0[i].1
    }

    pub fn get(&self, key: &(usize, u64)) -> Option<&Bucket> {
        let i = self.0.binary_search_by(|(k, _)| k.cmp(key)).ok()?;
        Some(&self.0[i].1)
    }

    pub fn get_mut(&mut self, key: &(usize, u64)) -> Option<&mut Bucket> {
        let i = self.0.binary_search_by(|(k, _)| k.cmp(key)).ok()?;
        Some(&mut self.0[i].1)
    }

    pub fn remove(&mut self, key: &(usize, u64)) {
        if let Ok(i) = self.0.binary_search_by(|(k, _)| k.cmp(key)) {
            self.0.remove(i);
        }
    }

    /// Buckets in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&(usize, u64), &Bucket)> {
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
    type Item = (&'a (usize, u64), &'a Bucket);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, ((usize, u64), Bucket)>,
        fn(&'a ((usize, u64), Bucket)) -> (&'a (usize, u64), &'a Bucket),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, b)| (k, b))
    }
}

/// The simulator. Build with [`Sim::new`], run with [`Sim::run`].
pub struct Sim<'a> {
    pub sc: &'a Scenario,
    pub opts: Options,
    pub now: Ms,
    pub end: Ms,
    /// Current share configuration (changed by `update_share`).
    pub cfg: Vec<Share>,
    pub rt: Vec<ShareRt>,
    pub usage: Vec<TypeUsage>,
    pub jobs: Vec<JobRt>,
    /// SPEC 6: each job's [`Acc`], kept only when per-job output is recorded (events or
    /// series) or some job has a continuation (merging moves it, SPEC 14); else empty.
    /// Added to with [`Sim::accrue`].
    pub acc: Vec<Acc>,
    /// SPEC 6: per share, its jobs' [`Acc`] times their instances (see [`Sim::accrue`]).
    pub acc_totals: Vec<AccTotals>,
    /// Largest job (instances) of each share and type, for preemption bounds.
    pub max_instances: Vec<Vec<u64>>,
    /// SPEC 4 tie-break: each job's rank among the jobs of its submit time, by (id, file
    /// order): [`IdRanks::of`].
    pub id_rank: IdRanks,
    pub events: Vec<Event>,
    pub series: Series,
    /// Per pair, its values' integrals over time; complete once the run is finished
    /// ([`Sim::finish`]): during the run the integer ones lag to each value's last change.
    pub integrals: Vec<Integrals>,
    /// Per instance type: the instances all shares hold, and the RESERVE shares' idle
    /// entitlement (`max(0, limit - held)`), kept with every change of `ShareRt::held`.
    pub(super) held_totals: Vec<(u64, u64)>,
    /// SCHEDULED jobs in admission order.
    pub scheduled: BTreeMap<u64, JobId>,
    /// Instances were released since the SCHEDULED jobs were last scanned.
    pub released: bool,
    /// What the last AWS pass found settled: the epochs and usage version it ended at
    /// (`None` before the first pass). With these unchanged, only the shares whose queue or
    /// usage moved since (`moved`) can have an offer or new reasons; with none moved, the
    /// next pass would do nothing (see [`Sim::pass`]).
    pub(super) pass_settled: Option<[u64; 4]>,
    /// The shares whose `version` moved since the last pass ended (a job entered or left
    /// their queue or changed priority, or their usage fell), in any order, repeats
    /// allowed.
    pub(super) moved: Vec<usize>,
    pub adm_seq: u64,
    /// Bumped whenever a share's offer could become possible although its queue did not
    /// change: quota released, a share newly borrowing (new reclaim candidates), a
    /// configuration or priority change. Admissions within entitlement without victims
    /// only make fitting harder, so they leave it alone.
    pub quota_epoch: u64,
    /// Like `quota_epoch` but not bumped by releases: new reclaim candidates, configuration
    /// and priority changes only.
    pub struct_epoch: u64,
    /// Bumped on every change of quota usage or configuration (Kueue waiting reasons depend
    /// on it).
    pub usage_version: u64,
    /// Bumped on every change of configuration (`update_share`) only (AWS waiting reasons
    /// depend on it, besides their share's own `version`).
    pub config_epoch: u64,
    pub steps: u64,
    /// Events that happened (recorded or not).
    pub event_count: u64,
    pub(super) heap: BinaryHeap<Reverse<TimerEntry>>,
    pub(super) timer_seq: u64,
    pub(super) submissions: Vec<JobId>,
    pub(super) next_submission: usize,
    pub(super) timed: Vec<usize>,
    pub(super) next_timed: usize,
    pub(super) now_vals: Vec<PairNow>,
    /// The pairs whose `lent` is not 0 now, in order (the ones `integrate_to` adds to).
    pub(super) lending: Vec<usize>,
    /// Per pair: the time up to which its integer values are in `integrals` (see
    /// `Sim::settle_pair`).
    pub(super) settled_at: Vec<Ms>,
    pub(super) last_t: Ms,
    pub(super) started: bool,
    /// `(usage_version, sum of share versions)` when the values were last computed.
    pub(super) values_at: Option<(u64, u64)>,
    /// Scratch space of the waiting-reason update (reused to avoid allocating per pass).
    pub(crate) scratch_reasons: Vec<((usize, u64), Reason)>,
    /// Scratch space of `update_reasons`: the reasons that change (reused, not allocated
    /// per pass).
    pub(crate) scratch_changes: Vec<(usize, QKey, Reason)>,
    /// `could_pass`'s answers at the current `usage_version` (preemption.rs).
    pub(crate) could_pass_memo: std::cell::RefCell<crate::simulation::preemption::CouldPassMemo>,
    /// `record_values`' (lent, idle) per type at its last call, and whether they moved
    /// then.
    pub(super) scratch_lent: Vec<((u64, u64), bool)>,
    /// SPEC 12: the quota tree per instance type (Kueue model only; empty otherwise).
    pub trees: Vec<crate::simulation::quota_tree::QuotaTree>,
    /// SPEC 12: capacity reserved in the current pass per type (Kueue model).
    pub reserved_sum: Vec<u64>,
    /// The Kueue pass's working storage (reset by every pass, kept for its allocations).
    pub(crate) kueue_scratch: super::kueue::PassScratch,
    /// SPEC 12 results now and their integrals per (cohort, type) (Kueue model).
    pub(super) kueue_now: KueueNow,
    pub cohort_integrals: CohortIntegrals,
    /// SPEC 14: each job's continuation in its `resubmit` share, if it has one (empty when
    /// no job has one: read it with `get`).
    pub continuation: Vec<Option<JobId>>,
    /// SPEC 14 escalations `(at, job, priority)` in time order, then job order.
    pub(super) escalations: Vec<(Ms, JobId, Priority)>,
    pub(super) next_escalation: usize,
    /// SPEC 14 `wait_after_interruption_s`: per share, its `requeue to next start` samples.
    pub waits_after_interruption: Vec<Vec<Ms>>,
    /// SPEC 14 `invalid_resume`: the jobs whose resume was corrupt, each with the saved
    /// progress it resumed from (found when the work completes). Few jobs ever are, so
    /// they are kept here, not in every [`JobRt`].
    pub(super) corrupt: BTreeMap<JobId, Ms>,
}

impl<'a> Sim<'a> {
    pub fn new(sc: &'a Scenario, opts: Options) -> Sim<'a> {
        let types = sc.instance_types.len();
        let cfg: Vec<Share> = sc
            .shares
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.limits.resize(types, None);
                s
            })
            .collect();
        let usage = (0..types)
            .map(|t| {
                let u = TypeUsage::new(&cfg, t, sc.capacity[t]);
                // SPEC 12: the AWS model's admission goes through the translated quota tree
                // inside its usage; the Kueue model's trees are `trees`.
                if sc.is_kueue() {
                    u.without_tree()
                } else {
                    u
                }
            })
            .collect();
        let rt = cfg
            .iter()
            .map(|_| ShareRt {
                admitted: vec![BTreeSet::new(); types],
                admitted_by_priority: vec![PriorityTotals::default(); types],
                queued: vec![0; types],
                held: vec![0; types],
                ..ShareRt::default()
            })
            .collect();
        let jobs = sc
            .jobs
            .iter()
            .map(|j| JobRt {
                priority: j.priority,
                state: State::Pending,
                reason: None,
                adm_seq: 0,
                preemptions: 0,
                first_start: OptMs::NONE,
                epoch: 0,
                saved: 0,
                phase_start: 0,
                run_start: 0,
                base: 0,
                held: 0,
                share: j.share() as u32,
                restores: 0,
                useful_borrowed: 0,
                flags: 0,
            })
            .collect();
        // Empty when no job is resubmitted (most scenarios): 8 bytes a job saved.
        let mut continuation = if sc.jobs.iter().any(|j| j.resubmission_of.is_some()) {
            vec![None; sc.jobs.len()]
        } else {
            Vec::new()
        };
        for (i, j) in sc.jobs.iter().enumerate() {
            if let Some(root) = j.resubmission_of.get() {
                if let Some(c) = continuation.get_mut(root) {
                    *c = Some(JobId::new(i));
                }
            }
        }
        let escalations = escalations(sc);
        // Stable: file order within an instant.
        let mut by_submit: Vec<JobId> = JobId::all(sc.jobs.len()).collect();
        crate::sort::stable_by_i64(&mut by_submit, &|&j| sc.jobs[j.index()].submit);
        let id_rank = id_ranks(sc, &by_submit);
        // SPEC 14: continuations are submitted by the engine only (resubmission). In place:
        // a million jobs' order is not copied.
        let mut submissions = by_submit;
        submissions.retain(|j| sc.jobs[j.index()].resubmission_of.is_none());
        let mut timed: Vec<usize> = (0..sc.events.len()).collect();
        crate::sort::stable_by_i64(&mut timed, &|&e| sc.events[e].at);

        // Series pairs: every type a share ever has a limit for, or runs jobs of.
        let mut uses = vec![vec![false; types]; cfg.len()];
        for (share, row) in cfg.iter().zip(uses.iter_mut()) {
            for (t, used) in row.iter_mut().enumerate() {
                *used |= admission::has_limit(share, t);
            }
        }
        for e in &sc.events {
            if let TimedAction::UpdateShare {
                share,
                update: ShareUpdate {
                    limits: Some(l), ..
                },
            } = &e.action
            {
                for (t, v) in l.iter().enumerate() {
                    uses[*share][t] |= v.is_some();
                }
            }
        }
        for j in &sc.jobs {
            uses[j.share()][j.instance_type()] = true;
        }
        let pairs: Vec<(usize, usize)> = (0..cfg.len())
            .flat_map(|s| (0..types).map(move |t| (s, t)))
            .filter(|&(s, t)| uses[s][t])
            .collect();
        let n = pairs.len();
        let mut max_instances = vec![vec![0u64; types]; cfg.len()];
        for j in &sc.jobs {
            let m = &mut max_instances[j.share()][j.instance_type()];
            *m = (*m).max(j.instances());
        }
        let mut sim = Sim {
            trees: Vec::new(),
            reserved_sum: vec![0; types],
            kueue_scratch: Default::default(),
            max_instances,
            sc,
            opts,
            now: 0,
            end: 0,
            cfg,
            rt,
            usage,
            acc: if opts.events || opts.series || !continuation.is_empty() {
                vec![Acc::default(); sc.jobs.len()]
            } else {
                Vec::new()
            },
            acc_totals: vec![AccTotals::default(); sc.shares.len()],
            jobs,
            id_rank,
            events: Vec::new(),
            series: Series {
                pairs,
                t: Vec::new(),
                limit: vec![Vec::new(); n],
                own: vec![Vec::new(); n],
                borrowed: vec![Vec::new(); n],
                lent: vec![Vec::new(); n],
                queued: vec![Vec::new(); n],
                kueue: Default::default(),
            },
            kueue_now: Default::default(),
            cohort_integrals: Default::default(),
            integrals: vec![Integrals::default(); n],
            held_totals: Vec::new(),
            scheduled: BTreeMap::new(),
            released: false,
            pass_settled: None,
            moved: Vec::new(),
            adm_seq: 0,
            quota_epoch: 0,
            struct_epoch: 0,
            usage_version: 0,
            config_epoch: 0,
            steps: 0,
            event_count: 0,
            heap: BinaryHeap::new(),
            timer_seq: 0,
            submissions,
            next_submission: 0,
            timed,
            next_timed: 0,
            now_vals: vec![PairNow::default(); n],
            lending: Vec::new(),
            settled_at: vec![0; n],
            last_t: 0,
            started: false,
            values_at: None,
            scratch_reasons: Vec::new(),
            scratch_changes: Vec::new(),
            could_pass_memo: std::cell::RefCell::default(),
            scratch_lent: Vec::new(),
            continuation,
            escalations,
            next_escalation: 0,
            waits_after_interruption: vec![Vec::new(); sc.shares.len()],
            corrupt: BTreeMap::new(),
        };
        sim.rebuild_trees();
        sim.recompute_held_totals();
        sim
    }
}

/// SPEC 4 tie-break of equal priority and submit time: the job id in string order (then
/// file order, for a continuation's id is its job's). Each job's rank in the order (id, file
/// order) among its submit time's jobs, from `by_submit` (every job, stably sorted by
/// submit): only jobs of one submit time ever compare ranks (the queue key compares submit
/// first; fair sharing's candidate key compares admissions first, which never tie), so ids
/// are sorted only within a submit time, not all of them as strings.
fn id_ranks(sc: &Scenario, by_submit: &[JobId]) -> IdRanks {
    let submit = |j: &JobId| sc.jobs[j.index()].submit;
    let mut tied = Vec::new();
    let mut group_by_id = Vec::new();
    for group in by_submit.chunk_by(|a, b| submit(a) == submit(b)) {
        if group.len() > 1 {
            group_by_id.clear();
            group_by_id.extend_from_slice(group);
            crate::sort::stable_by(&mut group_by_id, &|&a, &b| {
                sc.job_id(a.index()).cmp(sc.job_id(b.index()))
            });
            tied.extend(group_by_id.iter().enumerate().map(|(r, &j)| (j, r as u32)));
        }
    }
    if tied.len() * 16 > sc.jobs.len() {
        // Many ties (a trace with times in whole seconds): one rank per job, looked up
        // directly, costs 4 bytes a job and no search on every enqueue.
        let mut dense = vec![0; sc.jobs.len()];
        for (j, r) in tied {
            dense[j.index()] = r;
        }
        return IdRanks {
            tied: Vec::new(),
            dense,
        };
    }
    tied.sort_unstable_by_key(|&(j, _)| j);
    IdRanks {
        tied,
        dense: Vec::new(),
    }
}

/// SPEC 4's id tie-break, kept only for jobs that share their submit time with another (a
/// rank only ever decides between those): most jobs of a generated million have none, so
/// this costs nothing per job where a dense rank took 4 bytes each; with many ties, dense.
#[derive(Clone, Debug, Default)]
pub struct IdRanks {
    /// (job, its rank among its submit time's jobs), by job.
    tied: Vec<(JobId, u32)>,
    /// Every job's rank, instead, when more than one job in 16 shares its submit time.
    dense: Vec<u32>,
}

impl IdRanks {
    /// Job `j`'s rank among the jobs submitted at its time (0 when it is alone there).
    pub fn of(&self, j: JobId) -> u32 {
        if let Some(&r) = self.dense.get(j.index()) {
            return r;
        }
        if self.tied.is_empty() {
            return 0;
        }
        self.tied
            .binary_search_by_key(&j, |&(t, _)| t)
            .map_or(0, |i| self.tied[i].1)
    }
}

/// SPEC 14 `escalate`: `to_priority` at `submit + deadline - before_deadline` (not before
/// the submission), in time order, then job order (file order, then generated jobs).
fn escalations(sc: &Scenario) -> Vec<(Ms, JobId, Priority)> {
    let mut out: Vec<(Ms, JobId, Priority)> = sc
        .jobs
        .iter()
        .enumerate()
        .filter(|(_, j)| j.resubmission_of.is_none())
        .filter_map(|(i, j)| {
            let e = j.escalate()?;
            let d = j.deadline.get()?;
            let at = (j.submit + d - e.before_deadline).max(j.submit);
            Some((at, JobId::new(i), e.to_priority))
        })
        .collect();
    crate::sort::stable_by_i64(&mut out, &|e| e.0);
    out
}

// The timers of the event loop (events.rs) and the series' types (series.rs) live here, with
// the rest of the state, so that those files depend on this one and not the reverse.

/// A pending timer: `(at, kind, sequence, job, job epoch)`.
pub(super) type TimerEntry = (Ms, Timer, u64, JobId, u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Timer {
    /// Kinds in SPEC 4 order within an instant.
    GraceEnd = 0,
    Completion = 1,
    StartupEnd = 2,
}

/// Change points per (share, type) and the integrals behind `instance_hours`.
#[derive(Clone, Debug, Default)]
pub struct Series {
    pub pairs: Vec<(usize, usize)>,
    pub t: Vec<Ms>,
    pub limit: Vec<Vec<u64>>,
    pub own: Vec<Vec<u64>>,
    pub borrowed: Vec<Vec<u64>>,
    pub lent: Vec<Vec<f64>>,
    pub queued: Vec<Vec<u64>>,
    /// SPEC 12 results (Kueue model only; empty otherwise).
    pub kueue: KueueSeries,
}

/// SPEC 12 results over time (Kueue model): each node's dominant resource share (shares
/// then cohorts), and per (cohort, type) its subtree quota, usage, borrowed and lent
/// instances, with the same change points `t` as the share series.
#[derive(Clone, Debug, Default)]
pub struct KueueSeries {
    /// Per node (shares, then cohorts).
    pub dominant_share: Vec<Vec<ShareValue>>,
    /// Per cohort and type, index `cohort * types + type`.
    pub quota: Vec<Vec<u64>>,
    pub usage: Vec<Vec<u64>>,
    pub borrowed: Vec<Vec<u64>>,
    pub lent: Vec<Vec<f64>>,
}

/// SPEC 12 results now (Kueue model): the values the series and integrals are built of.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct KueueNow {
    pub(super) dominant_share: Vec<ShareValue>,
    /// Per cohort and type: (quota, usage, borrowed, lent).
    pub(super) cohort: Vec<(u64, u64, u64, f64)>,
}

/// Integrals over time per (cohort, type), in instance-ms (Kueue model).
#[derive(Clone, Debug, Default)]
pub struct CohortIntegrals {
    pub quota: Vec<u128>,
    pub borrowed: Vec<u128>,
    pub lent: Vec<f64>,
}

/// Integrals over time per (share, type) pair, in instance-ms.
#[derive(Clone, Copy, Debug, Default)]
pub struct Integrals {
    pub entitled: u128,
    pub own: u128,
    pub borrowed: u128,
    pub lent: f64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct PairNow {
    pub(super) limit: u64,
    pub(super) own: u64,
    pub(super) borrowed: u64,
    pub(super) lent: f64,
    pub(super) queued: u64,
}

#[cfg(test)]
mod size {
    /// Per-job records, the bulk of a large run's memory (docs/PERFORMANCE.md).
    #[test]
    fn per_job_records() {
        let (spec, rt) = (
            std::mem::size_of::<crate::input::model::JobSpec>(),
            std::mem::size_of::<super::JobRt>(),
        );
        eprintln!("JobSpec {spec} bytes, JobRt {rt} bytes");
        // On 64-bit targets; a change here is a change of a large run's memory.
        if cfg!(target_pointer_width = "64") {
            assert_eq!((spec, rt), (64, 88));
        }
    }
}

#[cfg(test)]
mod ranks {
    use super::{id_ranks, JobId};

    /// `n` jobs on one share, one a minute; the jobs at indices `tied` all submitted at 0,
    /// with ids in reverse of their file order (so the id order is the reverse of file order).
    fn scenario(n: usize, tied: &[usize]) -> crate::input::model::Scenario {
        let jobs: Vec<_> = (0..n)
            .map(|i| {
                let (id, submit) = match tied.iter().position(|&t| t == i) {
                    Some(k) => (format!("tied-{}", tied.len() - k), 0),
                    None => (format!("job-{i:03}"), 60 * (i + 1)),
                };
                serde_json::json!({"id": id, "share": "a", "instance_type": "ml.g5.xlarge",
                    "instances": 1, "submit_s": submit, "work_s": 10})
            })
            .collect();
        let doc = serde_json::json!({"format": "quotalab/v1", "capacity": {"ml.g5.xlarge": 1},
            "shares": [{"name": "a", "strategy": "RESERVE", "limits": {"ml.g5.xlarge": 1}}],
            "jobs": jobs});
        crate::input::validate::load(&doc.to_string())
            .unwrap()
            .scenario
    }

    /// SPEC 4: among jobs of one submit time, ranks follow the ids; a job alone at its time
    /// ranks 0. Sparse (few ties) and dense (many) give the same ranks.
    #[test]
    fn ties_rank_by_id_sparse_or_dense() {
        for (n, tied) in [(64, vec![5, 9, 40]), (8, vec![1, 2, 3, 6])] {
            let sc = scenario(n, &tied);
            let mut by_submit: Vec<JobId> = JobId::all(n).collect();
            by_submit.sort_by_key(|j| sc.jobs[j.index()].submit);
            let ranks = id_ranks(&sc, &by_submit);
            assert_eq!(ranks.dense.is_empty(), n == 64, "{n} jobs");
            let want: Vec<u32> = (0..tied.len() as u32).rev().collect();
            let got: Vec<u32> = tied.iter().map(|&i| ranks.of(JobId::new(i))).collect();
            assert_eq!(got, want, "{n} jobs");
            for i in (0..n).filter(|i| !tied.contains(i)) {
                assert_eq!(ranks.of(JobId::new(i)), 0);
            }
        }
    }
}
