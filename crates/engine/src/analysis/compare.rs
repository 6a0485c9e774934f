//! `quotasim compare` (SPEC 9): the scenario as given beside two reference policies.

use crate::model::{BorrowLimit, Scenario, Strategy, TimedAction};

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
