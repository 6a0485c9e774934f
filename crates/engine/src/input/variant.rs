//! SPEC 9.1 "What a comparison compares": the variants of a scenario that change only who
//! may lend and borrow (`partitioned`, `pooled`), in both models. A variant is a validated
//! scenario like any other: the pipeline runs it, `analysis::compare` puts the runs side by
//! side.

use crate::input::model::{BorrowLimit, Cohort, Scenario, Strategy, TimedAction};

/// SPEC 9: a policy a scenario can be run under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The scenario as written.
    #[default]
    AsGiven,
    /// Every share RESERVE (see [`partitioned`]).
    Partitioned,
    /// Every share LEND_AND_BORROW, unlimited (see [`pooled`]).
    Pooled,
}

impl Policy {
    /// The three policies in the order `compare` reports them.
    pub const ALL: [Policy; 3] = [Policy::AsGiven, Policy::Partitioned, Policy::Pooled];

    /// The policy's name in `compare`'s output (`as_given`, `partitioned`, `pooled`).
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::AsGiven => "as_given",
            Policy::Partitioned => "partitioned",
            Policy::Pooled => "pooled",
        }
    }

    /// The scenario under this policy.
    pub fn apply(self, s: &Scenario) -> Scenario {
        match self {
            Policy::AsGiven => s.clone(),
            Policy::Partitioned => partitioned(s),
            Policy::Pooled => pooled(s),
        }
    }
}

/// SPEC 9.1 `partitioned`: nobody lends or borrows, everything else as given. AWS model:
/// every share `RESERVE` (in-share preemption, priorities, grace, retries, recovery and
/// events unchanged). Kueue model: every ClusterQueue stands alone (no cohort, so no cohort's
/// own quota is used; its preemption policies unchanged). `update_share` events keep their
/// limits and other changes but not a change of lending (strategy, borrow limit).
pub fn partitioned(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    let kueue = s.is_kueue();
    for share in &mut s.shares {
        if kueue {
            share.kueue.cohort = None;
        } else {
            share.strategy = Strategy::Reserve;
        }
    }
    keep_lending_as_the_variant(&mut s);
    s
}

/// SPEC 9.1 `pooled`: everybody lends and borrows without limit, everything else as given.
/// AWS model: every share `LEND_AND_BORROW` with an unlimited borrow limit. Kueue model:
/// every ClusterQueue in one root cohort, `pooled`, without borrowing or lending limits;
/// nested cohorts are flattened into it, so the quota they held (summed per type) is the
/// root's. `update_share` events keep their limits but not a change of lending.
pub fn pooled(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    if s.is_kueue() {
        let types = s.instance_types.len();
        let limits = (0..types)
            .map(|t| {
                let held: Vec<u64> = s
                    .cohorts
                    .iter()
                    .filter_map(|c| c.limits.get(t).copied().flatten())
                    .collect();
                (!held.is_empty()).then(|| held.iter().sum())
            })
            .collect();
        s.cohorts = vec![Cohort {
            name: POOLED_COHORT.to_string(),
            parent: None,
            limits,
            borrowing_limit: Vec::new(),
            lending_limit: Vec::new(),
            weight: 1000,
        }];
    }
    let kueue = s.is_kueue();
    for share in &mut s.shares {
        if kueue {
            share.kueue.cohort = Some(0);
            share.kueue.borrowing_limit = Vec::new();
            share.kueue.lending_limit = Vec::new();
        } else {
            share.strategy = Strategy::LendAndBorrow;
            share.borrow_limit = BorrowLimit::Unlimited;
        }
    }
    keep_lending_as_the_variant(&mut s);
    s
}

/// The one cohort of the Kueue model's `pooled` variant.
pub const POOLED_COHORT: &str = "pooled";

/// SPEC 9.1: "the variant holds for the whole run": `update_share` events keep every change
/// but one of lending (strategy, borrow limit).
fn keep_lending_as_the_variant(s: &mut Scenario) {
    for e in &mut s.events {
        if let TimedAction::UpdateShare { update, .. } = &mut e.action {
            update.strategy = None;
            update.borrow_limit = None;
        }
    }
}
