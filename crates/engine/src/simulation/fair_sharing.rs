//! Fair sharing in the Kueue model (SPEC 12; Kueue `pkg/cache/scheduler/fair_sharing.go`,
//! `pkg/scheduler/preemption/preemption.go` `fairPreemptions`,
//! `pkg/scheduler/preemption/fairsharing/*`).
//!
//! NOT YET IMPLEMENTED (issue 12 part 2): the dominant resource share, the target
//! tournament, the two strategies, the within-nominal bypass and the fair-sharing order of
//! offers. Until then a scenario with `fair_sharing` is validated and its gate (SPEC 12
//! "may preempt": fair sharing with `reclaim` not `never`) applies, but victims are chosen
//! by the classical algorithm.

use crate::preemption::Victim;
use crate::sim::{JobId, Sim};

impl Sim<'_> {
    /// SPEC 12 fair-sharing preemption (placeholder: the classical algorithm, see above).
    pub(crate) fn fair_victims(&self, j: JobId) -> Option<Vec<Victim>> {
        self.classical_victims(j)
    }
}
