//! The Kueue pass's data (SPEC 12): a share's head as a cycle reads it, its nomination,
//! the heads that stay through a quiet cycle, the cycle's working vectors, what binds a
//! waiting job, and the Kueue model's own part of the simulator's state. The cycle itself
//! is [`super::cycle`].

use super::job::JobId;
use super::job::Size;
use super::preemption::Victim;
use super::queues::QKey;
use super::quota_tree::QuotaTree;
use crate::input::model::Priority;

/// A share's head in a scheduling cycle: its job, its size and whether its share has a
/// limit of its type (a head without one can neither fit nor preempt).
#[derive(Clone, Copy, Debug)]
pub(super) struct KHead {
    pub(super) job: JobId,
    pub(super) key: QKey,
    pub(super) size: Size,
    pub(super) limited: bool,
}

/// A head nominated in a Kueue scheduling cycle (Kueue `scheduler.entry`): the job, its
/// share and size and what the cycle's snapshot allows it (its place in the classical
/// order: `Sim::rank`).
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) job: JobId,
    pub(super) share: usize,
    pub(super) size: Size,
    pub(super) mode: Nomination,
}

/// What the cycle's snapshot allows a head (Kueue `flavorassigner` modes with the targets
/// `Preemptor.GetTargets` found).
#[derive(Clone, Debug)]
pub(super) enum Nomination {
    /// Neither fits nor may preempt (or its share has no quota of its type).
    NoFit,
    /// Fits as is.
    Fit,
    /// May preempt but the search found no victims.
    NoTargets,
    /// Fits once these victims are gone.
    Preempt(Vec<Victim>),
}

/// What a head that stays its share's head through a quiet cycle does in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stays {
    /// A preemptor all of whose victims are in their grace: it issues its preemptions
    /// again, which evicts no one, and waits for them.
    Waits,
    /// Nominated to fit, and passed over by the walk: it no longer fits after the
    /// cycle's earlier entries (their waiting preemptors counted in).
    FitPassedOver,
    /// Nominated to preempt victims not all in their grace, and passed over by the walk:
    /// its targets overlap an earlier entry's, or it no longer fits.
    PreemptPassedOver,
}

/// The heads that stay through a quiet cycle with what they do and their victims, one
/// entry per head, the victims of all in one vector (a quiet cycle's, then the next
/// cycle's to compare with it).
#[derive(Debug, Default)]
pub(super) struct Staying {
    /// Each head, what it does, and where its victims are in `victims`.
    pub(super) heads: Vec<(JobId, Stays, std::ops::Range<usize>)>,
    pub(super) victims: Vec<JobId>,
}

impl Staying {
    pub(super) fn clear(&mut self) {
        self.heads.clear();
        self.victims.clear();
    }

    pub(super) fn push(&mut self, job: JobId, stays: Stays, victims: &[Victim]) {
        let start = self.victims.len();
        self.victims.extend(victims.iter().map(|v| v.job));
        self.heads.push((job, stays, start..self.victims.len()));
    }

    /// How many of them wait for their victims.
    pub(super) fn waiting(&self) -> usize {
        self.heads.iter().filter(|h| h.1 == Stays::Waits).count()
    }

    /// Whether any was passed over by the walk (not a waiting preemptor).
    pub(super) fn passed_over(&self) -> bool {
        self.heads.iter().any(|h| h.1 != Stays::Waits)
    }

    /// The same heads (both in share order) doing the same, with the same victims each.
    pub(super) fn same_as(&self, other: &Staying) -> bool {
        self.heads.len() == other.heads.len()
            && self.heads.iter().zip(&other.heads).all(|(a, b)| {
                a.0 == b.0 && a.1 == b.1 && self.victims[a.2.clone()] == other.victims[b.2.clone()]
            })
    }
}

/// The vectors a pass's cycles fill and empty again, kept across passes for their
/// allocations (`KueueState::scratch`): neither a cycle nor a pass allocates them.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    pub(super) entries: Vec<Entry>,
    /// The classical walk order: each entry's rank and index.
    pub(super) order: Vec<(u128, usize)>,
    pub(super) aside: Vec<(usize, JobId)>,
    pub(super) preempted: Vec<JobId>,
    pub(super) done: Vec<bool>,
    /// The shares whose heads the skip sets aside, each with its room if known
    /// (`Sim::room_in`).
    pub(super) advancing: Vec<(usize, Option<(usize, i128)>)>,
    pub(super) acting: Vec<Option<(usize, QKey)>>,
    /// The heads that stayed through the last quiet cycle, and those of the cycle after it.
    pub(super) quiet: Staying,
    pub(super) staying: Staying,
}

/// SPEC 12: the Kueue model's own state (empty in the AWS model).
#[derive(Debug, Default)]
pub(super) struct KueueState {
    /// The quota tree per instance type.
    pub(super) trees: Vec<QuotaTree>,
    /// Instances per type kept in the current cycle for its waiting preemptors beyond what
    /// their victims hold (SPEC 12 capacity condition; see `kept`).
    pub(super) reserved: Vec<u64>,
    /// SPEC 12.1: the preemptors waiting for their victims to be gone
    /// (`WaitingForPreemptedWorkloads`), each with what it waits for.
    pub(super) waiting: std::collections::BTreeMap<JobId, PreemptionWait>,
    /// SPEC 12 capacity condition across a pass's cycles: the preemptors whose victims are
    /// gone (at once, or at the end of their grace) and that were not walked again since.
    /// Until then an entry ordered before one is not admitted where the capacity alone
    /// (not the quota) would then keep the preemptor out (`Sim::capacity_kept`).
    pub(super) keeps: Vec<JobId>,
    /// SPEC 12.1: each victim in its grace and the preemptor that last claimed it.
    pub(super) claimed: std::collections::BTreeMap<JobId, JobId>,
    /// SPEC 12.1: the capacity reserved in the current cycle, `(share, type, instances)`.
    pub(super) reservations: Vec<(usize, usize, u64)>,
    /// SPEC 12.1: whether a scheduling cycle is being walked (quota released meanwhile, by
    /// a victim without grace, requeues inadmissible workloads only after the cycle, as
    /// Kueue's workload controller does between cycles).
    pub(super) in_cycle: bool,
    /// The shares whose cohort tree released quota during the cycle.
    pub(super) deferred: Vec<usize>,
    /// The pass's drained shares (`simulation::drained`).
    pub(super) drained: Vec<usize>,
    /// The (freed, quota) epochs at which the drained shares' runs were last found to
    /// hold (`Sim::check_drained`).
    pub(super) drained_at: Option<(u64, u64)>,
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
    /// The preemption searches at the current epochs (`Sim::kueue_victims_memo`).
    pub(super) searches: std::cell::RefCell<SearchMemo>,
    /// The pass's working vectors, kept from one pass to the next (`Sim::kueue_pass`).
    pub(super) scratch: Scratch,
    /// The instants whose cycles never settled (Kueue's own thrash: a preemptor evicts a job
    /// that is admitted again before it, and so on), cut off by `Sim::kueue_pass`, in order.
    pub(super) unsettled: Vec<crate::input::model::Ms>,
}

/// What a Kueue preemption search depends on besides the state the usage and structure
/// epochs stamp: the preemptor's share, size and priority, and the preemptor itself unless
/// the victims depend on it only through those (`Sim::victims_by_class`).
pub(super) type SearchKey = (usize, Size, Priority, Option<JobId>);

/// [`Sim::kueue_victims_memo`]'s searches at one (usage, structure) epoch pair: a cycle's
/// heads are searched again in the next cycles, and a share's jobs of one size and
/// priority find the same victims, while nothing changes. A few entries per share (the
/// key's first field), forgotten when an epoch moves.
#[derive(Debug, Default)]
pub(super) struct SearchMemo {
    /// Per share: the epoch pair its searches were made at, and those searches.
    by_share: Vec<((u64, u64), Vec<Search>)>,
}

/// One search remembered: its key and the victims it found.
type Search = (SearchKey, Option<Vec<Victim>>);

impl SearchMemo {
    pub(super) fn get(&self, at: (u64, u64), key: &SearchKey) -> Option<Option<Vec<Victim>>> {
        let (made_at, known) = self.by_share.get(key.0)?;
        if *made_at != at {
            return None;
        }
        known.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }

    pub(super) fn put(&mut self, at: (u64, u64), key: SearchKey, found: Option<Vec<Victim>>) {
        if self.by_share.len() <= key.0 {
            self.by_share.resize_with(key.0 + 1, Default::default);
        }
        let (made_at, known) = &mut self.by_share[key.0];
        if *made_at != at {
            *made_at = at;
            known.clear();
        }
        if known.len() < SEARCH_ENTRIES {
            known.push((key, found));
        }
    }
}

/// Searches kept per share and epoch pair: a cycle's head and a share's few classes.
const SEARCH_ENTRIES: usize = 16;

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
