//! What the passes remember from one to the next: where the last pass settled, the shares
//! that moved since, scratch space kept for its allocations, and `could_pass`'s trials at
//! the current usage epoch.

use super::admission::{self, TypeUsage};
use super::epochs::Epochs;
use super::job::Reason;
use super::job::Size;
use super::queues::QKey;

/// What the passes remember from one to the next, and their working storage.
#[derive(Debug, Default)]
pub(super) struct PassMemo {
    /// What the last AWS pass found settled: the epochs it ended at (`None` before the
    /// first pass). With these unchanged, only the shares whose queue or usage moved since
    /// (`moved`) can have an offer or new reasons; with none moved, the next pass would do
    /// nothing (see [`Sim::pass`]).
    pub(super) settled: Option<Epochs>,
    /// The shares whose `version` moved since the last pass ended (a job entered or left
    /// their queue or changed priority, or their usage fell), in any order, repeats
    /// allowed.
    pub(super) moved: Vec<usize>,
    /// Scratch space of the waiting-reason update (reused to avoid allocating per pass).
    pub(super) reasons: Vec<(Size, Reason)>,
    /// Scratch space of `update_reasons`: the reasons that change (reused, not allocated
    /// per pass).
    pub(super) changes: Vec<(usize, QKey, Reason)>,
    /// `could_pass`'s answers at the current usage epoch (preemption.rs).
    pub(super) could_pass: std::cell::RefCell<CouldPassMemo>,
}

/// What [`Sim::could_pass`]'s trial depends on besides usage and configuration: the job's
/// share and type, what its own candidates release, and the attempt (reclaim or not).
pub(super) type CouldPassKey = (usize, usize, u64, bool);

/// A trial's fit facts for one share: its SPEC 3 headroom and its usage of the type.
#[derive(Clone, Copy, Debug)]
pub(super) struct TrialRoom {
    pub(super) headroom: admission::Headroom,
    pub(super) t: usize,
    pub(super) used: u64,
}

impl TrialRoom {
    pub(super) fn of(trial: &TypeUsage, s: usize) -> TrialRoom {
        TrialRoom {
            headroom: trial.headroom(s),
            t: trial.t,
            used: trial.used[s],
        }
    }
}

/// [`Sim::could_pass`]'s trials at one the usage epoch (usage and configuration change only
/// with it): the heads of a share's buckets differ in size only, and a share whose queue
/// changed offers its unchanged heads again, so one trial serves them all. A few entries,
/// forgotten when the version moves.
#[derive(Debug, Default)]
pub(super) struct CouldPassMemo {
    pub(super) version: u64,
    pub(super) known: Vec<(CouldPassKey, TrialRoom)>,
    /// [`Sim::totals_after_reclaim`] of one type.
    pub(super) reclaimed: Option<(usize, admission::Totals)>,
}

/// Entries kept per version: a pass tries a few heads of a few shares.
const MEMO_ENTRIES: usize = 32;

impl CouldPassMemo {
    pub(super) fn get(&self, version: u64, key: CouldPassKey) -> Option<TrialRoom> {
        if version != self.version {
            return None;
        }
        self.known.iter().find(|(k, _)| *k == key).map(|&(_, v)| v)
    }

    pub(super) fn put(&mut self, version: u64, key: CouldPassKey, pass: TrialRoom) {
        self.at(version);
        if self.known.len() < MEMO_ENTRIES {
            self.known.push((key, pass));
        }
    }

    pub(super) fn reclaimed(&self, version: u64, t: usize) -> Option<admission::Totals> {
        match self.reclaimed {
            Some((ty, totals)) if version == self.version && ty == t => Some(totals),
            _ => None,
        }
    }

    pub(super) fn put_reclaimed(&mut self, version: u64, t: usize, totals: admission::Totals) {
        self.at(version);
        self.reclaimed = Some((t, totals));
    }

    /// Forgets everything known when the version moves.
    pub(super) fn at(&mut self, version: u64) {
        if version != self.version {
            self.version = version;
            self.known.clear();
            self.reclaimed = None;
        }
    }
}
