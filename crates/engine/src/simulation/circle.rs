//! SPEC 6 "End of the run", bounded: a run without `horizon_s` ends when no event is
//! pending, but preemptions can turn in a circle for ever (A reclaims from B, B reclaims
//! back a grace later, and so on: the thrash of kueue#13797 and #14543), so that an event is
//! always pending. Such a run is periodic: once nothing can come from outside (every
//! submission, timed event and escalation is past), the state after an instant determines
//! every later one, and a state seen before means the run repeats itself for ever. The
//! run then stops at that instant, as at a horizon, and says so
//! ([`super::Finished::circle`]).
//!
//! Cheap where nothing circles: states are compared only after `QUIET` instants with a
//! preemption and no completion in a row, and only the live jobs are read.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::input::model::Ms;

use super::{JobId, Sim, State};

/// Instants with a preemption and no completion before states are compared.
const QUIET: u32 = 16;

/// What the watch keeps (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct CircleWatch {
    /// Preemptions logged so far (by `Sim::preempt_with`).
    pub preemptions: u64,
    /// Completions so far (by `Sim::complete`).
    pub completions: u64,
    seen_preemptions: u64,
    seen_completions: u64,
    quiet: u32,
    /// The state digest after each compared instant, and that instant.
    seen: HashMap<u64, Ms>,
    /// `(first, again)`: the run's state at `again` was its state at `first`.
    pub repeats: Option<(Ms, Ms)>,
}

impl Sim<'_> {
    /// SPEC 6, bounded: after instant `t`, whether the run has entered a circle it can
    /// never leave (then recorded in `circle.repeats`).
    pub(super) fn entered_circle(&mut self, t: Ms, only_timers_left: bool) -> bool {
        let w = &mut self.circle;
        let preempted = w.preemptions != w.seen_preemptions;
        let completed = w.completions != w.seen_completions;
        w.seen_preemptions = w.preemptions;
        w.seen_completions = w.completions;
        if completed || !only_timers_left {
            // Something changed for good: no earlier state can come back.
            w.quiet = 0;
            w.seen.clear();
            return false;
        }
        if !preempted {
            return false;
        }
        w.quiet = w.quiet.saturating_add(1);
        if w.quiet < QUIET {
            return false;
        }
        let digest = self.state_digest();
        match self.circle.seen.insert(digest, t) {
            Some(first) => {
                self.circle.repeats = Some((first, t));
                true
            }
            None => false,
        }
    }

    /// A digest of everything the rest of the run depends on once nothing comes from
    /// outside: each live job's state, priority, progress and where it stands in its
    /// phase (its timers are due at those offsets from now), and the Kueue queue manager's
    /// inadmissible jobs.
    fn state_digest(&self) -> u64 {
        // SipHash with fixed keys: the same digest natively and in wasm.
        #[allow(deprecated)]
        let mut h = std::hash::SipHasher::new();
        let now = self.now;
        for j in JobId::all(self.jobs.len()) {
            let r = &self.jobs[j.index()];
            if r.state.finished() || r.state == State::Pending {
                continue;
            }
            j.index().hash(&mut h);
            (r.state as u8).hash(&mut h);
            r.priority.hash(&mut h);
            r.saved.hash(&mut h);
            // Where it stands in its phase: its timers are due at these offsets from now.
            match r.state {
                State::Starting => (now - r.phase_start).hash(&mut h),
                State::Running => {
                    r.base.hash(&mut h);
                    (now - r.run_start).hash(&mut h);
                }
                State::Preempting => (now - r.preempted_at()).hash(&mut h),
                _ => {}
            }
            if self.sc.jobs[j.index()].recovery().is_some() {
                r.restores.hash(&mut h); // the next restore's draws depend on it
            }
        }
        for rt in &self.rt {
            rt.aside.hash(&mut h);
        }
        h.finish()
    }
}
