//! The Kueue pass's data (SPEC 12): a share's queue heads as offers read them, an offer,
//! the pass's working storage, what binds a waiting job, and the Kueue model's own part of
//! the simulator's state. The pass itself is [`super::kueue`].

use super::job::JobId;
use super::job::Size;
use super::quota_tree::QuotaTree;

/// An offer in the Kueue model's order (SPEC 12 "Order of offers").
#[derive(Clone, Copy, Debug)]
pub(super) struct KOffer {
    /// Classical order: not borrowing first, then higher priority, then earlier submit,
    /// then share order, as one integer ([`order_rank`]).
    pub(super) rank: u128,
    pub(super) job: JobId,
    /// Its place in the share's [`Heads`] (queue order); [`STICKY`] for the share's
    /// sticky preemptor.
    pub(super) head: u32,
    pub(super) fits: bool,
}

/// [`KOffer::head`] of an offer of the share's sticky preemptor (SPEC 12.1).
pub(super) const STICKY: u32 = u32::MAX;

/// A share's queue heads as the Kueue pass reads them (SPEC 12 "Order of offers"): the
/// first job of every bucket in queue order, with its type, size and whether the share has
/// a limit of that type. Kept in the share's `ShareRt` from one pass to the next and read
/// again only when its queue `version` or the configuration (the structure epoch) changed.
#[derive(Clone, Debug, Default)]
pub(super) struct Heads {
    /// (version, structure epoch) the heads were read at.
    pub(super) at: Option<(u64, u64)>,
    pub(super) heads: Vec<KHead>,
}

/// A queue head as an offer reads it: its job, its size and whether its share has a limit
/// of its type (a head without one is never offered).
#[derive(Clone, Copy, Debug)]
pub(super) struct KHead {
    pub(super) job: JobId,
    pub(super) size: Size,
    pub(super) limited: bool,
}

/// SPEC 12: the Kueue model's own state (empty in the AWS model).
#[derive(Debug, Default)]
pub(super) struct KueueState {
    /// The quota tree per instance type.
    pub(super) trees: Vec<QuotaTree>,
    /// Capacity reserved in the current pass per type.
    pub(super) reserved: Vec<u64>,
    /// The pass's working storage (reset by every pass, kept for its allocations).
    pub(super) scratch: PassScratch,
    /// SPEC 12.1: the preemptors waiting for their victims to be gone
    /// (`WaitingForPreemptedWorkloads`), each with what it waits for.
    pub(super) waiting: std::collections::BTreeMap<JobId, PreemptionWait>,
    /// SPEC 12.1: each victim in its grace and the preemptor that last claimed it.
    pub(super) claimed: std::collections::BTreeMap<JobId, JobId>,
    /// SPEC 12.1: the capacity reserved in the current pass, `(share, type, instances)`.
    pub(super) reservations: Vec<(usize, usize, u64)>,
    /// SPEC 12.1: each quota-tree node's height (Kueue `getNodeHeight`).
    pub(super) heights: Vec<u8>,
    /// SPEC 12.1, per job: the whole second of its last admission (Kueue's candidate order
    /// compares the `QuotaReserved` condition's time, which the API server keeps to the
    /// second) and its id's rank among all ids (the workload UID, the order's last key).
    pub(super) admitted_s: Vec<i64>,
    pub(super) uid_rank: Vec<u32>,
    /// SPEC 12.1: victims counted out of the trees for the rest of the pass (their
    /// preemptor waits for them and is counted in).
    pub(super) swapped: Vec<JobId>,
    /// SPEC 12.1: the pass's swaps, `(added, node, type, instances)`, kept until its
    /// waiting reasons are read.
    pub(super) swaps: Vec<(bool, usize, usize, u64)>,
    /// SPEC 12 capacity condition, with the swaps: instances of a type kept for waiting
    /// preemptors beyond what their victims hold, `(type, instances)`, in `reserved` until
    /// the swaps are undone.
    pub(super) kept: Vec<(usize, u64)>,
}

/// SPEC 12.1: what a preemptor waits for once it has preempted: its victims, still holding
/// their quota through their grace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PreemptionWait {
    /// Victims it preempted (or found already preempted) that still hold quota.
    pub victims: u32,
    /// When the last of them is gone (the end of their grace).
    pub until: crate::input::model::Ms,
    /// Whether the event log already says so (one `waiting` event per wait).
    pub logged: bool,
    /// Whether its victims' quota was freed while it still waited (another workload may
    /// take it first: the thrash of kueue#13797).
    pub freed: bool,
}

/// The Kueue pass's working storage, kept in [`Sim`] from one pass to the next so that a
/// pass allocates nothing; every pass starts by resetting it (no content is carried over).
#[derive(Debug, Default)]
pub(super) struct PassScratch {
    pub(super) passed: Vec<Vec<Size>>,
    pub(super) blocked: Vec<bool>,
    pub(super) offers: Vec<Option<KOffer>>,
    pub(super) ranks: Vec<u128>,
    pub(super) available: Vec<Option<(usize, i128)>>,
}

impl PassScratch {
    /// Empty storage for a pass over `shares` shares.
    pub(super) fn reset(&mut self, shares: usize) {
        self.passed.resize_with(shares, Vec::new);
        self.passed.iter_mut().for_each(Vec::clear);
        self.blocked.clear();
        self.blocked.resize(shares, false);
        self.offers.clear();
        self.offers.resize(shares, None);
        self.ranks.clear();
        self.ranks.resize(shares, u128::MAX);
        self.available.clear();
        self.available.resize(shares, None);
    }
}
