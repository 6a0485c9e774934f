//! `quotasim compare` (SPEC 9): the scenario as given beside two reference policies.

use crate::model::{BorrowLimit, Scenario, Strategy, TimedAction};
use crate::pipeline::{self, Output, Product};
use crate::{validate, Problem};

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

/// One scenario run under every policy: the validator's warnings (once) and one output per
/// policy, in [`Policy::ALL`] order.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub warnings: Vec<Problem>,
    pub runs: Vec<(Policy, Output)>,
}

/// SPEC 9 `compare`: validates `text` once and runs it through the pipeline under each
/// policy, producing `product` for each.
pub fn run(text: &str, product: Product) -> Result<Comparison, Vec<Problem>> {
    let loaded = validate::load(text)?;
    let runs = Policy::ALL
        .iter()
        .map(|&policy| {
            let output = match policy {
                Policy::AsGiven => pipeline::produce(&loaded.scenario, product),
                _ => pipeline::produce(&policy.apply(&loaded.scenario), product),
            };
            (policy, output)
        })
        .collect();
    Ok(Comparison {
        warnings: loaded.warnings,
        runs,
    })
}

/// `partitioned`: every share RESERVE, no preemption (in-share off; RESERVE shares neither
/// lend nor borrow, so nothing is reclaimed). `update_share` events keep their limits but
/// cannot switch a share back to lending.
pub fn partitioned(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    for share in &mut s.shares {
        share.strategy = Strategy::Reserve;
        share.borrow_limit = BorrowLimit::Unlimited;
        share.in_share_preemption = false;
    }
    for e in &mut s.events {
        if let TimedAction::UpdateShare { update, .. } = &mut e.action {
            update.strategy = None;
            update.borrow_limit = None;
            update.in_share_preemption = None;
        }
    }
    s
}

/// `pooled`: every share LEND_AND_BORROW with an unlimited borrow limit (in-share
/// preemption as given); `update_share` events keep their limits.
pub fn pooled(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    for share in &mut s.shares {
        share.strategy = Strategy::LendAndBorrow;
        share.borrow_limit = BorrowLimit::Unlimited;
    }
    for e in &mut s.events {
        if let TimedAction::UpdateShare { update, .. } = &mut e.action {
            update.strategy = None;
            update.borrow_limit = None;
        }
    }
    s
}
