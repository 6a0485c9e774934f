//! The versions the simulator's caches are stamped with. A cache (a share's "no offer", its
//! Kueue offer and heads, the waiting reasons, `could_pass`'s answers, the series' values)
//! records the versions it was computed at and is trusted while they are unchanged; so every
//! change of what a cache depends on must bump the version that says so. The changes are
//! named here, one method each, and the versions can only be read elsewhere: a line of the
//! pass cannot bump one by accident, and the exhaustive-oracle test (every cache off,
//! `Options::exhaustive`) checks that none is missed.

/// The five versions (see the module's documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Epochs {
    /// Bumped whenever a share's offer could become possible although its queue did not
    /// change: quota released, a share newly borrowing (new reclaim candidates), a
    /// configuration or priority change. Admissions within entitlement without victims
    /// only make fitting harder, so they leave it alone.
    quota: u64,
    /// Like `quota` but not bumped by releases: new reclaim candidates, configuration and
    /// priority changes only.
    structure: u64,
    /// Like `quota` but not bumped by admissions (borrowing or not): releases, evictions,
    /// configuration and priority changes only. While it holds, quota is only taken (the
    /// Kueue heads known inert, `Sim::inert_stamp`, depend on it).
    freed: u64,
    /// Bumped on every change of quota usage or configuration (Kueue waiting reasons depend
    /// on it).
    usage: u64,
    /// Bumped on every change of configuration (`update_share`) only (AWS waiting reasons
    /// depend on it, besides their share's own `version`).
    config: u64,
}

impl Epochs {
    /// An admission took quota (SPEC 3).
    pub(super) fn admitted(&mut self, borrowing: bool) {
        if borrowing {
            // Its share is over its limit: new reclaim candidates.
            self.quota += 1;
            self.structure += 1;
        }
        self.usage += 1;
    }

    /// A job's quota was released (SPEC 3: completion or preemption).
    pub(super) fn released(&mut self) {
        self.quota += 1;
        self.freed += 1;
        self.usage += 1;
    }

    /// New reclaim candidates or a priority change (SPEC 4 `set_priority`, SPEC 14
    /// escalation): offers and victims may differ although usage did not change.
    pub(super) fn new_candidates(&mut self) {
        self.quota += 1;
        self.freed += 1;
        self.structure += 1;
    }

    /// A share's configuration changed (SPEC 4 `update_share`): everything may differ.
    pub(super) fn reconfigured(&mut self) {
        self.quota += 1;
        self.freed += 1;
        self.structure += 1;
        self.usage += 1;
        self.config += 1;
    }

    pub(super) fn quota(&self) -> u64 {
        self.quota
    }

    pub(super) fn freed(&self) -> u64 {
        self.freed
    }

    pub(super) fn structure(&self) -> u64 {
        self.structure
    }

    pub(super) fn usage(&self) -> u64 {
        self.usage
    }

    pub(super) fn config(&self) -> u64 {
        self.config
    }
}
