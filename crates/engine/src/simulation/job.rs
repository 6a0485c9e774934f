//! A job in the simulator: its SPEC 6 state, SPEC 4 waiting reason, SPEC 8 event kinds,
//! its index ([`JobId`]), its dynamic record ([`JobRt`]) and its SPEC 6 time split
//! ([`Acc`]).

use crate::input::model::*;

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
    /// Fair sharing, with the strategy that allowed it (the output's `cause` is
    /// `fair_sharing` either way; the explanation names the strategy).
    FairSharing(crate::input::model::FsStrategy),
}

impl Cause {
    /// The SPEC 8 / 12 name: `reclaim`, `in_share`, `reclaim_while_borrowing` or
    /// `fair_sharing`.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Reclaim => "reclaim",
            Cause::InShare => "in_share",
            Cause::ReclaimWhileBorrowing => "reclaim_while_borrowing",
            Cause::FairSharing(_) => "fair_sharing",
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
    Waiting(Reason, Option<Binding>),
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

/// A job of the scenario: its index in `Scenario::jobs` (and in the simulator's job records). Ordered
/// by that index, the last tie-break of the queue and candidate orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JobId(pub u32);

impl JobId {
    /// The job at `index` of the scenario's jobs.
    pub fn new(index: usize) -> JobId {
        JobId(index as u32)
    }
    /// Its index in `Scenario::jobs` and the simulator's job records.
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
    /// in the run's books, see `Sim::accrue`).
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
}

/// Each yes/no fact of [`JobRt::flags`] as a getter and a setter.
macro_rules! job_flags {
    ($($(#[$doc:meta])* $get:ident, $set:ident = $bit:ident;)*) => {
        impl JobRt {
            $(
                $(#[$doc])*
                pub fn $get(&self) -> bool {
                    self.flag($bit)
                }
                pub fn $set(&mut self, on: bool) {
                    self.set_flag($bit, on);
                }
            )*
        }
    };
}

job_flags! {
    /// The preemption in progress saves a checkpoint during grace.
    pre_save, set_pre_save = PRE_SAVE;
    /// The current STARTING includes a restore.
    restoring, set_restoring = RESTORING;
    /// The current STARTING follows a preemption (`restart_h`).
    restarting, set_restarting = RESTARTING;
    /// SPEC 14: the current run's dispatch was borrowing.
    run_borrowed, set_run_borrowed = RUN_BORROWED;
    /// SPEC 14: some `set_priority` raised its priority.
    raised, set_raised = RAISED;
    /// SPEC 14: a continuation folded into the job it continues (never reported itself).
    merged, set_merged = MERGED;
}

// `OptMs` moved to the model (job deadlines are one); the old path still works.
pub use crate::input::model::OptMs;

/// What a job asks for, the key of its share's bucket: instances of one type. Ordered by
/// type, then instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Size {
    pub ty: TypeIx,
    pub instances: u64,
}

impl Size {
    /// The size of job `spec`.
    pub fn of(spec: &JobSpec) -> Size {
        Size {
            ty: TypeIx::new(spec.instance_type()),
            instances: spec.instances(),
        }
    }
}

/// What holds a waiting job back in the Kueue model (SPEC 12 waiting reasons): the limit
/// that binds, the node it belongs to (a share or a cohort) and the numbers the
/// explanation names. Carried by the `waiting` event for its explanation only: the reason
/// code alone decides when a `waiting` event is logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// A share in no cohort has used its nominal quota (`entitlement_exhausted`).
    OwnNominal { limit: u64 },
    /// The borrowing limit of `node` (the share, or a cohort on its path) is used up.
    BorrowingLimit { node: u32, limit: u64 },
    /// Cohort `node` (the root, or one whose parent cannot lend more) has `free` unused
    /// quota, less than the `need` that reaches it; lending limits keep `private` idle
    /// instances elsewhere in its subtree private to their nodes.
    CohortFull {
        node: u32,
        free: u64,
        need: u64,
        private: u64,
    },
    /// The environment's physical capacity (SPEC 12 capacity condition).
    Capacity { capacity: u64 },
    /// SPEC 12.1: it has preempted `victims` jobs and waits for them to release their
    /// quota, the last at `until` (the end of its grace): Kueue's
    /// `WaitingForPreemptedWorkloads`.
    PreemptedWorkloads { victims: u32, until: Ms },
}
