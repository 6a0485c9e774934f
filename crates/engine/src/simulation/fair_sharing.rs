//! Fair sharing in the Kueue model (SPEC 12; Kueue `pkg/cache/scheduler/fair_sharing.go`,
//! `pkg/scheduler/preemption/preemption.go` `fairPreemptions`,
//! `pkg/scheduler/preemption/fairsharing/*`).

use crate::preemption::Victim;
use crate::sim::{JobId, Sim};

impl Sim<'_> {
    /// SPEC 12 fair-sharing preemption.
    pub(crate) fn fair_victims(&self, j: JobId) -> Option<Vec<Victim>> {
        self.classical_victims(j)
    }
}
