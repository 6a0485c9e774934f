//! The scenario model (SPEC 2 "Entities and limits", SPEC 7 "Scenario file").
//!
//! These are the *validated* types: every value here has passed [`crate::input::validate`], so the
//! simulator never re-checks them. Times are integer milliseconds ([`Ms`]) so that sums of
//! time are exact and the output is byte-identical on every platform.

pub use super::index::{ShareIx, TypeIx};

/// The bounds of a scenario, defined once: the validator, the workload generators, the
/// trace import and the editor all use these.
pub mod limits {
    /// SPEC 2: a queue holds at most 20 quota shares (the AWS model).
    pub const MAX_SHARES: usize = 20;
    /// SPEC 13: in the Kueue model a scenario holds at most 1,000 shares (ClusterQueues).
    pub const KUEUE_MAX_SHARES: usize = 1000;
    /// SPEC 13: in the Kueue model a scenario holds at most 1,000 cohorts.
    pub const KUEUE_MAX_COHORTS: usize = 1000;
    /// SPEC 2: a share has 1..=5 limits (instance types).
    pub const MAX_LIMITS: usize = 5;
    /// SPEC 2: share names are at most 128 characters.
    pub const MAX_NAME: usize = 128;
    /// SPEC 2: the lowest job priority (the AWS model).
    pub const MIN_PRIORITY: super::Priority = 0;
    /// SPEC 2: the highest job priority (the AWS model: priorities are 0..=9999).
    pub const MAX_PRIORITY: super::Priority = 9999;
    /// SPEC 12: in the Kueue model priorities are any 32-bit integer.
    pub const KUEUE_MIN_PRIORITY: super::Priority = super::Priority::MIN;
    /// SPEC 12: the highest priority of the Kueue model.
    pub const KUEUE_MAX_PRIORITY: super::Priority = super::Priority::MAX;

    /// The most shares a scenario of this model may hold (SPEC 2, SPEC 13).
    pub fn max_shares(kueue: bool) -> usize {
        if kueue {
            KUEUE_MAX_SHARES
        } else {
            MAX_SHARES
        }
    }

    /// The priority bounds of a model (SPEC 2: 0..=9999; SPEC 12: any 32-bit integer).
    pub fn priority_bounds(kueue: bool) -> (super::Priority, super::Priority) {
        if kueue {
            (KUEUE_MIN_PRIORITY, KUEUE_MAX_PRIORITY)
        } else {
            (MIN_PRIORITY, MAX_PRIORITY)
        }
    }
    /// SPEC 2/7: times are finite and >= 0; beyond this many seconds (about 31,700 years)
    /// they are refused (or, when sampled, clamped), so that no sum of millisecond times can
    /// overflow.
    pub const MAX_TIME_S: f64 = 1e12;
    /// [`MAX_TIME_S`] in milliseconds.
    pub const MAX_TIME_MS: i64 = 1_000_000_000_000_000;
    /// SPEC 2/7: counts of instances (a job's size, a limit, a capacity) are at most this,
    /// for the same reason.
    pub const MAX_INSTANCES: u64 = 1_000_000_000;
    /// The most instance types a scenario may declare (SPEC is silent; with the built-in
    /// ones it names, a job keeps its type's index in 16 bits).
    pub const MAX_INSTANCE_TYPES: usize = 10_000;
    /// SPEC 7: the largest `count` (or `at_s` list) of one workload, a bound on the memory a
    /// scenario (or a hostile share link) can make the generator allocate.
    pub const MAX_WORKLOAD_COUNT: u64 = 1_000_000;
    /// SPEC 11: a trace's numeric times (submit, end, duration) are at most this many
    /// milliseconds once converted from their unit.
    pub const MAX_TRACE_TIME_MS: f64 = 1e13;
    /// SPEC 11: a trace row asks for at most this many GPUs.
    pub const MAX_TRACE_GPUS: f64 = 1e6;
}

/// A job priority: higher is more important. The AWS model allows 0..=9999 (SPEC 2), the
/// Kueue model any 32-bit integer, negatives included (SPEC 12).
pub type Priority = i32;

/// Time in integer milliseconds. Scenario seconds are rounded to the nearest millisecond.
pub type Ms = i64;

/// Converts scenario seconds (finite, >= 0, already validated) to milliseconds.
pub fn ms_from_s(s: f64) -> Ms {
    // round() is exact in IEEE arithmetic and identical natively and in wasm.
    (s * 1000.0).round() as Ms
}

/// A hardware configuration; capacity is counted in instances of one type (SPEC 1).
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceType {
    pub name: String,
    pub gpus: u32,
    pub usd_per_hour: f64,
}

/// SPEC 2: how a share treats its idle entitlement and others' idle capacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Reserve,
    Lend,
    LendAndBorrow,
}

impl Strategy {
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Reserve => "RESERVE",
            Strategy::Lend => "LEND",
            Strategy::LendAndBorrow => "LEND_AND_BORROW",
        }
    }
    pub fn parse(s: &str) -> Option<Strategy> {
        match s {
            "RESERVE" => Some(Strategy::Reserve),
            "LEND" => Some(Strategy::Lend),
            "LEND_AND_BORROW" => Some(Strategy::LendAndBorrow),
            _ => None,
        }
    }
    /// Does the share lend its idle entitlement (LEND and LEND_AND_BORROW)?
    pub fn lends(self) -> bool {
        self != Strategy::Reserve
    }
}

/// SPEC 2: queue ordering policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queueing {
    BestEffortFifo,
    StrictFifo,
}

impl Queueing {
    pub fn as_str(self) -> &'static str {
        match self {
            Queueing::BestEffortFifo => "best_effort_fifo",
            Queueing::StrictFifo => "strict_fifo",
        }
    }
    /// Kueue's own value of `queueingStrategy` (`StrictFIFO`).
    pub fn kueue_name(self) -> &'static str {
        match self {
            Queueing::BestEffortFifo => "BestEffortFIFO",
            Queueing::StrictFifo => "StrictFIFO",
        }
    }
}

/// A quota share's borrow limit: percent of its own limit per type, or unlimited (-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorrowLimit {
    Unlimited,
    Percent(u64),
}

impl BorrowLimit {
    /// SPEC 2 `borrow_limit` as written in a scenario: `-1` is unlimited, a percent is
    /// `>= 0`; anything else is not a borrow limit.
    pub fn from_percent(value: i64) -> Option<BorrowLimit> {
        match value {
            -1 => Some(BorrowLimit::Unlimited),
            p if p >= 0 => Some(BorrowLimit::Percent(p as u64)),
            _ => None,
        }
    }
}

/// A quota share (SPEC 2). `limits[t]` is `None` when the share has no limit for type `t`
/// (its jobs of that type are `unschedulable`), indexed like [`Scenario::instance_types`].
#[derive(Clone, Debug, PartialEq)]
pub struct Share {
    pub name: String,
    pub limits: Vec<Option<u64>>,
    pub strategy: Strategy,
    pub borrow_limit: BorrowLimit,
    pub in_share_preemption: bool,
    pub enabled: bool,
    /// SPEC 12 "Share fields in the Kueue model" (defaults in the AWS model, where they are
    /// unused: the AWS fields above hold the configuration).
    pub kueue: KueueShare,
}

/// The Kueue release whose scheduler the Kueue model follows (SPEC 12.1): the one the
/// reference harness pins (`oracle/kueue/go.mod`, checked by `crates/kueue-diff`'s tests)
/// and docs/KUEUE-FIDELITY.md measures it against. The page and the report name it.
pub const KUEUE_RELEASE: &str = "v0.17.0";

/// SPEC 12: which model a scenario follows (`"model"`, default `aws_batch`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Model {
    #[default]
    AwsBatch,
    Kueue,
}

impl Model {
    pub fn as_str(self) -> &'static str {
        match self {
            Model::AwsBatch => "aws_batch",
            Model::Kueue => "kueue",
        }
    }
    pub fn parse(s: &str) -> Option<Model> {
        match s {
            "aws_batch" => Some(Model::AwsBatch),
            "kueue" => Some(Model::Kueue),
            _ => None,
        }
    }
}

/// SPEC 12 `preemption.within_share` (Kueue `withinClusterQueue`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WithinShare {
    #[default]
    Never,
    LowerPriority,
    LowerOrNewerEqualPriority,
}

impl WithinShare {
    pub const NAMES: [&'static str; 3] =
        ["never", "lower_priority", "lower_or_newer_equal_priority"];
    pub fn parse(s: &str) -> Option<WithinShare> {
        match s {
            "never" => Some(WithinShare::Never),
            "lower_priority" => Some(WithinShare::LowerPriority),
            "lower_or_newer_equal_priority" => Some(WithinShare::LowerOrNewerEqualPriority),
            _ => None,
        }
    }
    /// Kueue's own value of `withinClusterQueue` (`LowerPriority`).
    pub fn kueue_name(self) -> &'static str {
        match self {
            WithinShare::Never => "Never",
            WithinShare::LowerPriority => "LowerPriority",
            WithinShare::LowerOrNewerEqualPriority => "LowerOrNewerEqualPriority",
        }
    }
}

/// SPEC 12 `preemption.reclaim` (Kueue `reclaimWithinCohort`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReclaimPolicy {
    #[default]
    Never,
    LowerPriority,
    Any,
}

impl ReclaimPolicy {
    pub const NAMES: [&'static str; 3] = ["never", "lower_priority", "any"];
    pub fn parse(s: &str) -> Option<ReclaimPolicy> {
        match s {
            "never" => Some(ReclaimPolicy::Never),
            "lower_priority" => Some(ReclaimPolicy::LowerPriority),
            "any" => Some(ReclaimPolicy::Any),
            _ => None,
        }
    }
    /// Kueue's own value of `reclaimWithinCohort` (`Any`).
    pub fn kueue_name(self) -> &'static str {
        match self {
            ReclaimPolicy::Never => "Never",
            ReclaimPolicy::LowerPriority => "LowerPriority",
            ReclaimPolicy::Any => "Any",
        }
    }
}

/// SPEC 12 `preemption.borrow_within_cohort` (Kueue `borrowWithinCohort`): `policy`
/// `lower_priority` when `lower_priority` is true, else `never`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BorrowWithinCohort {
    pub lower_priority: bool,
    /// Candidates above this priority are never preempted while the preemptor borrows.
    pub max_priority_threshold: Option<Priority>,
}

/// SPEC 12 `preemption` (Kueue `spec.preemption`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Preemption {
    pub within_share: WithinShare,
    pub reclaim: ReclaimPolicy,
    pub borrow_within_cohort: BorrowWithinCohort,
}

/// A fair-sharing weight in thousandths (`weight` 1 is 1000); 0 makes a borrowing node's
/// dominant resource share infinite (SPEC 12, Kueue `fairSharing.weight`).
pub type WeightMilli = u64;

/// SPEC 12: a share's Kueue fields (a ClusterQueue's). Vectors are indexed like
/// [`Scenario::instance_types`] (shorter ones: `None` beyond their end).
#[derive(Clone, Debug, PartialEq)]
pub struct KueueShare {
    /// Index into [`Scenario::cohorts`]; `None`: the share stands alone.
    pub cohort: Option<usize>,
    /// `borrowing_limit` per type; `None` = unlimited (bounded by the cohort).
    pub borrowing_limit: Vec<Option<u64>>,
    /// `lending_limit` per type; `None` = lends all of its limit.
    pub lending_limit: Vec<Option<u64>>,
    pub queueing: Queueing,
    pub preemption: Preemption,
    pub weight: WeightMilli,
}

impl Default for KueueShare {
    fn default() -> KueueShare {
        KueueShare {
            cohort: None,
            borrowing_limit: Vec::new(),
            lending_limit: Vec::new(),
            queueing: Queueing::BestEffortFifo,
            preemption: Preemption::default(),
            weight: 1000,
        }
    }
}

/// SPEC 12 `cohorts[]` (Kueue Cohort): quota it adds to its subtree's pool, and limits on
/// what it borrows from and lends to its parent's subtree.
#[derive(Clone, Debug, PartialEq)]
pub struct Cohort {
    pub name: String,
    /// Index into [`Scenario::cohorts`]; `None`: a root.
    pub parent: Option<usize>,
    pub limits: Vec<Option<u64>>,
    pub borrowing_limit: Vec<Option<u64>>,
    pub lending_limit: Vec<Option<u64>>,
    pub weight: WeightMilli,
}

/// SPEC 12 `fair_sharing.strategies` (Kueue `preemptionStrategies`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum FsStrategy {
    /// `less_than_or_equal_to_final_share` (Kueue LessThanOrEqualToFinalShare, rule S2-a).
    LessThanOrEqualToFinalShare,
    /// `less_than_initial_share` (Kueue LessThanInitialShare, rule S2-b).
    LessThanInitialShare,
}

impl FsStrategy {
    pub fn as_str(self) -> &'static str {
        match self {
            FsStrategy::LessThanOrEqualToFinalShare => "less_than_or_equal_to_final_share",
            FsStrategy::LessThanInitialShare => "less_than_initial_share",
        }
    }
    /// Kueue's own name of the strategy (`LessThanOrEqualToFinalShare`), as a Kueue user
    /// writes it in `fairSharing.preemptionStrategies`.
    pub fn kueue_name(self) -> &'static str {
        match self {
            FsStrategy::LessThanOrEqualToFinalShare => "LessThanOrEqualToFinalShare",
            FsStrategy::LessThanInitialShare => "LessThanInitialShare",
        }
    }
    pub fn parse(s: &str) -> Option<FsStrategy> {
        match s {
            "less_than_or_equal_to_final_share" => Some(FsStrategy::LessThanOrEqualToFinalShare),
            "less_than_initial_share" => Some(FsStrategy::LessThanInitialShare),
            _ => None,
        }
    }
}

/// SPEC 12 `fair_sharing`: present = fair-sharing preemption and order of offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairSharing {
    pub strategies: Vec<FsStrategy>,
}

/// SPEC 2 job checkpoint block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub interval: Ms,
    pub cost: Ms,
    pub restore: Ms,
}

impl Checkpoint {
    /// SPEC 2's bound on a time, applied to a run's saves: the most work a job with this
    /// checkpoint block may have so that one whole run's saves, `(ceil(work / interval) - 1)
    /// x cost` (SPEC 6), take at most [`limits::MAX_TIME_MS`]. A run's length is then a sum
    /// of bounded times and never overflows. SPEC is silent (docs/MODEL-CHOICES.md): an
    /// explicit job with more work is refused, a generated one has its work clamped.
    pub fn max_work(&self) -> Ms {
        if self.cost <= 0 || self.interval <= 0 {
            return Ms::MAX;
        }
        let saves = limits::MAX_TIME_MS / self.cost;
        saves.saturating_add(1).saturating_mul(self.interval)
    }
}

/// A job as submitted (explicit or generated), with indices resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct JobSpec {
    /// The job's id, in the scenario's [`JobIds`]: read it with [`Scenario::job_id`] or
    /// [`Scenario::id_of`].
    pub id: IdRef,
    /// The share's index, read with [`JobSpec::share`] (16 bits: a scenario holds at most
    /// [`limits::KUEUE_MAX_SHARES`]; with the two fields below, 64 bytes a job).
    share: u16,
    /// The instance type's index, read with [`JobSpec::instance_type`] (at most
    /// [`limits::MAX_INSTANCE_TYPES`] declared ones and the catalogue's).
    instance_type: u16,
    /// Read with [`JobSpec::instances`] (at most [`limits::MAX_INSTANCES`], under `u32::MAX`).
    instances: u32,
    pub priority: Priority,
    pub submit: Ms,
    pub work: Ms,
    pub startup: Ms,
    /// Deadline, relative to `submit` (see docs/ARCHITECTURE.md, "Model choices").
    pub deadline: OptMs,
    /// The fields every generated job of a workload has alike (SPEC 2 `checkpoint`,
    /// `checkpoint_on_preempt`, `preemption_retries`; SPEC 14 `recovery`,
    /// `on_retries_exhausted`, `escalate`), out of line: a million generated jobs share
    /// their workload's block. Read them with the accessors ([`JobSpec::checkpoint`]...).
    pub class: std::sync::Arc<JobClass>,
    /// SPEC 14 resubmission: `Some(i)` marks the engine's continuation of job `i` in its
    /// `resubmit` share (same id, added by the validator after every job of the file; it is
    /// submitted only if job `i` exhausts its retries, and reported as job `i`).
    pub resubmission_of: OptJob,
}

impl JobSpec {
    /// A job of `instances` instances of type `instance_type` in share `share`, with
    /// indices and sizes the validator has bounded (SPEC 2 limits).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: IdRef,
        share: usize,
        instance_type: usize,
        instances: u64,
        priority: Priority,
        times: JobTimes,
        class: std::sync::Arc<JobClass>,
    ) -> JobSpec {
        debug_assert!(share <= limits::KUEUE_MAX_SHARES);
        // Declared types, then the built-in ones a scenario names: far under 65,536.
        debug_assert!(instance_type <= usize::from(u16::MAX));
        debug_assert!(instances <= limits::MAX_INSTANCES);
        JobSpec {
            id,
            share: share as u16,
            instance_type: instance_type as u16,
            instances: instances as u32,
            priority,
            submit: times.submit,
            work: times.work,
            startup: times.startup,
            deadline: times.deadline,
            class,
            resubmission_of: OptJob::NONE,
        }
    }
    /// The index of the job's share in [`Scenario::shares`].
    pub fn share(&self) -> usize {
        usize::from(self.share)
    }
    /// Moves the job to share `s` (a SPEC 14 continuation in its `resubmit` share).
    pub fn set_share(&mut self, s: usize) {
        debug_assert!(s <= limits::KUEUE_MAX_SHARES);
        self.share = s as u16;
    }
    /// The index of the job's instance type in [`Scenario::instance_types`].
    pub fn instance_type(&self) -> usize {
        usize::from(self.instance_type)
    }
    /// How many instances the job needs.
    pub fn instances(&self) -> u64 {
        u64::from(self.instances)
    }
    /// SPEC 2 job checkpoint block.
    pub fn checkpoint(&self) -> Option<Checkpoint> {
        self.class.checkpoint
    }
    /// SPEC 2 `checkpoint_on_preempt`.
    pub fn checkpoint_on_preempt(&self) -> bool {
        self.class.checkpoint_on_preempt
    }
    /// SPEC 2 `preemption_retries`; `None` = unlimited retries.
    pub fn preemption_retries(&self) -> Option<u64> {
        self.class.preemption_retries
    }
    /// SPEC 14 `recovery`: the odds that a restore fails or silently corrupts the run.
    pub fn recovery(&self) -> Option<Recovery> {
        self.class.recovery
    }
    /// SPEC 14 `on_retries_exhausted` (default [`OnExhausted::Fail`], as AWS).
    pub fn on_retries_exhausted(&self) -> OnExhausted {
        self.class.on_retries_exhausted
    }
    /// SPEC 14 `escalate`: raise the priority this long before the deadline.
    pub fn escalate(&self) -> Option<Escalate> {
        self.class.escalate
    }
}

/// A job's SPEC 7 times, for [`JobSpec::new`].
#[derive(Clone, Copy, Debug)]
pub struct JobTimes {
    pub submit: Ms,
    pub work: Ms,
    pub startup: Ms,
    /// Relative to `submit`.
    pub deadline: OptMs,
}

/// Where a job's id is in its scenario's [`JobIds`] (8 bytes where a `String` takes 24 and
/// a heap block).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdRef {
    start: u32,
    len: u32,
}

/// Every job id of a scenario, end to end in one string (a million generated ids are one
/// allocation, not a million). Continuations share their job's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JobIds {
    text: String,
}

impl JobIds {
    /// The most bytes of ids a scenario may hold (their offsets are `u32`).
    pub const MAX_BYTES: u64 = u32::MAX as u64;

    pub fn with_capacity(bytes: usize) -> JobIds {
        JobIds {
            text: String::with_capacity(bytes),
        }
    }
    /// Bytes of ids held.
    pub fn len(&self) -> usize {
        self.text.len()
    }
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
    /// Makes room for `bytes` more.
    pub fn reserve(&mut self, bytes: usize) {
        self.text.reserve_exact(bytes);
    }
    /// Adds an id; `None` (nothing added) when the ids would exceed [`JobIds::MAX_BYTES`].
    pub fn push(&mut self, id: &str) -> Option<IdRef> {
        self.push_with(|t| t.push_str(id))
    }
    /// Adds the id `write` appends to the text (a generated `<share>-<n>` without a
    /// temporary string); `None` (nothing added) beyond [`JobIds::MAX_BYTES`].
    pub fn push_with(&mut self, write: impl FnOnce(&mut String)) -> Option<IdRef> {
        let start = self.text.len();
        write(&mut self.text);
        let end = self.text.len();
        if end as u64 > Self::MAX_BYTES {
            self.text.truncate(start);
            return None;
        }
        Some(IdRef {
            start: start as u32,
            len: (end - start) as u32,
        })
    }
    /// The id at `r`.
    pub fn get(&self, r: IdRef) -> &str {
        let start = r.start as usize;
        &self.text[start..start + r.len as usize]
    }
}

/// An optional time (a job's deadline, SPEC 14 `corrupt`, `requeued_at`) in 8 bytes where
/// `Option<Ms>` takes 16: such times are never `Ms::MIN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptMs(Ms);

impl OptMs {
    pub const NONE: OptMs = OptMs(Ms::MIN);
    pub fn some(t: Ms) -> OptMs {
        debug_assert!(t != Ms::MIN);
        OptMs(t)
    }
    /// `None` as [`OptMs::NONE`].
    pub fn from_option(t: Option<Ms>) -> OptMs {
        t.map_or(OptMs::NONE, OptMs::some)
    }
    pub fn get(self) -> Option<Ms> {
        (self.0 != Ms::MIN).then_some(self.0)
    }
    pub fn is_some(self) -> bool {
        self.0 != Ms::MIN
    }
    pub fn is_none(self) -> bool {
        self.0 == Ms::MIN
    }
    pub fn take(&mut self) -> Option<Ms> {
        std::mem::replace(self, OptMs::NONE).get()
    }
}

/// An optional index into [`Scenario::jobs`] in 4 bytes where `Option<usize>` takes 16
/// (jobs are indexed by `u32`, and never reach `u32::MAX`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptJob(u32);

impl OptJob {
    pub const NONE: OptJob = OptJob(u32::MAX);
    pub fn some(i: usize) -> OptJob {
        debug_assert!(i < u32::MAX as usize);
        OptJob(i as u32)
    }
    pub fn get(self) -> Option<usize> {
        (self.0 != u32::MAX).then_some(self.0 as usize)
    }
    pub fn is_some(self) -> bool {
        self.0 != u32::MAX
    }
    pub fn is_none(self) -> bool {
        self.0 == u32::MAX
    }
}

/// The per-workload fields of a job (see [`JobSpec::class`]): one block per workload, and
/// one per distinct explicit job.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobClass {
    /// SPEC 2 job checkpoint block.
    pub checkpoint: Option<Checkpoint>,
    /// SPEC 2 `checkpoint_on_preempt`.
    pub checkpoint_on_preempt: bool,
    /// SPEC 2 `preemption_retries`; `None` = unlimited retries.
    pub preemption_retries: Option<u64>,
    /// SPEC 14 `recovery`.
    pub recovery: Option<Recovery>,
    /// SPEC 14 `on_retries_exhausted` (default [`OnExhausted::Fail`], as AWS).
    pub on_retries_exhausted: OnExhausted,
    /// SPEC 14 `escalate`: raise the priority this long before the deadline.
    pub escalate: Option<Escalate>,
}

/// SPEC 14 `recovery`: probabilities in `[0, 1]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Recovery {
    /// A restore from a checkpoint fails: its time counts as startup, the checkpointed
    /// progress is lost and the job goes on from zero.
    pub restore_failure: f64,
    /// A successful restore silently corrupts the run, found when its work completes.
    pub invalid_resume: f64,
}

/// SPEC 14 `on_retries_exhausted`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnExhausted {
    /// `"fail"`: the job FAILS when its grace ends (SPEC 5).
    #[default]
    Fail,
    /// `{"resubmit": {"share", "priority"}}`: submitted again to `share` from its last
    /// checkpoint, with `priority` (`None`: the priority it has then).
    Resubmit {
        share: usize,
        priority: Option<Priority>,
    },
}

/// SPEC 14 `escalate`: `to_priority` from `submit + deadline - before_deadline`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Escalate {
    pub before_deadline: Ms,
    pub to_priority: Priority,
}

/// SPEC 14 `agreement` of a share: free text, stored as given, never interpreted.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Agreement {
    pub owner: Option<String>,
    pub rationale: Option<String>,
    pub interruption_contract: Option<String>,
    pub review_by: Option<String>,
}

/// SPEC 14 scenario `alarms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alarms {
    /// An `alarm` event when a job's preemption count reaches this (>= 1, default 3).
    pub repeated_preemptions: u64,
}

/// A timed event (SPEC 4, 6).
#[derive(Clone, Debug, PartialEq)]
pub enum TimedAction {
    SetPriority { job: usize, priority: Priority },
    UpdateShare { share: usize, update: ShareUpdate },
}

/// `update_share`: every field is optional; `limits` replaces the share's whole map.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShareUpdate {
    pub limits: Option<Vec<Option<u64>>>,
    pub strategy: Option<Strategy>,
    pub borrow_limit: Option<BorrowLimit>,
    pub in_share_preemption: Option<bool>,
    pub enabled: Option<bool>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TimedEvent {
    pub at: Ms,
    pub action: TimedAction,
}

/// A validated scenario, ready to simulate.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub seed: u64,
    pub horizon: Option<Ms>,
    pub instance_types: Vec<InstanceType>,
    /// Physical instances per type, indexed like `instance_types`.
    pub capacity: Vec<u64>,
    pub queueing: Queueing,
    pub grace: Ms,
    pub shares: Vec<Share>,
    /// Explicit jobs in file order, then generated ones (SPEC 4 "Instants").
    pub jobs: Vec<JobSpec>,
    /// The jobs' ids (see [`JobSpec::id`]).
    pub job_ids: JobIds,
    /// Timed events in file order.
    pub events: Vec<TimedEvent>,
    /// SPEC 12: `aws_batch` (sections 2-6) or `kueue`.
    pub model: Model,
    /// SPEC 12: cohorts, listed ones in file order, then those only named (no quota).
    pub cohorts: Vec<Cohort>,
    /// SPEC 12: `None` = classical preemption.
    pub fair_sharing: Option<FairSharing>,
    /// SPEC 14: `alarms` (`None`: no alarm events).
    pub alarms: Option<Alarms>,
    /// SPEC 14: each share's `agreement`, indexed like `shares`.
    pub agreements: Vec<Option<Agreement>>,
    /// SPEC 14: the scenario uses a field of the interruption contract (`recovery`,
    /// `on_retries_exhausted`, `escalate` or `alarms`), so results carry its report (the
    /// `recovery` and `policy` blocks, `useful_borrowed`); see docs/ARCHITECTURE.md.
    pub contract: bool,
}

impl Scenario {
    /// Whether `other` simulates exactly as this scenario: every field is equal but the
    /// descriptive ones no rule reads, the scenario's `name` and the shares' SPEC 14
    /// `agreement` texts. The page's engine worker then relabels the last run
    /// (`Digest::relabel`) instead of simulating again. A field added to [`Scenario`] must be
    /// placed here (the pattern lists every one).
    pub fn same_simulation(&self, other: &Scenario) -> bool {
        let Scenario {
            name: _,
            agreements: _,
            seed,
            horizon,
            instance_types,
            capacity,
            queueing,
            grace,
            shares,
            jobs,
            job_ids,
            events,
            model,
            cohorts,
            fair_sharing,
            alarms,
            contract,
        } = self;
        *seed == other.seed
            && *horizon == other.horizon
            && *instance_types == other.instance_types
            && *capacity == other.capacity
            && *queueing == other.queueing
            && *grace == other.grace
            && *shares == other.shares
            && *jobs == other.jobs
            && *job_ids == other.job_ids
            && *events == other.events
            && *model == other.model
            && *cohorts == other.cohorts
            && *fair_sharing == other.fair_sharing
            && *alarms == other.alarms
            && *contract == other.contract
    }

    /// SPEC 12: whether the scenario follows the Kueue model.
    pub fn is_kueue(&self) -> bool {
        self.model == Model::Kueue
    }

    /// The id of job `j` (an index into `jobs`).
    pub fn job_id(&self, j: usize) -> &str {
        self.job_ids.get(self.jobs[j].id)
    }

    /// The id of one of the scenario's jobs.
    pub fn id_of(&self, spec: &JobSpec) -> &str {
        self.job_ids.get(spec.id)
    }

    /// Jobs as the scenario describes them: without the engine's resubmission
    /// continuations (SPEC 14), which are reported as the job they continue.
    pub fn described_jobs(&self) -> usize {
        self.jobs
            .iter()
            .filter(|j| j.resubmission_of.is_none())
            .count()
    }
}

/// SPEC 14 agreement texts are at most this many characters each.
pub const MAX_AGREEMENT_CHARS: usize = 2000;
