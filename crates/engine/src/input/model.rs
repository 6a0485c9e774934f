//! The scenario model (SPEC 2 "Entities and limits", SPEC 7 "Scenario file").
//!
//! These are the *validated* types: every value here has passed [`crate::validate`], so the
//! simulator never re-checks them. Times are integer milliseconds ([`Ms`]) so that sums of
//! time are exact and the output is byte-identical on every platform.

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
}

/// A quota share's borrow limit: percent of its own limit per type, or unlimited (-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorrowLimit {
    Unlimited,
    Percent(u64),
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
}

/// SPEC 2 job checkpoint block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub interval: Ms,
    pub cost: Ms,
    pub restore: Ms,
}

/// A job as submitted (explicit or generated), with indices resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct JobSpec {
    pub id: String,
    pub share: usize,
    pub instance_type: usize,
    pub instances: u64,
    pub priority: u32,
    pub submit: Ms,
    pub work: Ms,
    pub startup: Ms,
    pub checkpoint: Option<Checkpoint>,
    pub checkpoint_on_preempt: bool,
    /// `None` = unlimited retries.
    pub preemption_retries: Option<u64>,
    /// Deadline, relative to `submit` (see docs/ARCHITECTURE.md, "Model choices").
    pub deadline: Option<Ms>,
}

/// A timed event (SPEC 4, 6).
#[derive(Clone, Debug, PartialEq)]
pub enum TimedAction {
    SetPriority { job: usize, priority: u32 },
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
    /// Timed events in file order.
    pub events: Vec<TimedEvent>,
}
