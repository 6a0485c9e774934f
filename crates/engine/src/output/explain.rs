//! Explanations (SPEC 8): the sentence beside a preemption and beside a waiting reason in
//! the event log, the same words in the result JSON and on the page.

use crate::model::Scenario;
use crate::sim::{Cause, EventKind, JobId, Reason};

/// The one-sentence explanation of a preemption (SPEC 8: a newcomer understands it).
pub fn explain_preempt(sc: &Scenario, victim: JobId, kind: &EventKind) -> String {
    let EventKind::Preempt {
        cause,
        by,
        victim_priority,
        by_priority,
    } = *kind
    else {
        return String::new();
    };
    let v = &sc.jobs[victim.index()];
    let b = &sc.jobs[by.index()];
    let ty = &sc.instance_types[v.instance_type].name;
    let (vs, bs) = (&sc.shares[v.share].name, &sc.shares[b.share].name);
    match cause {
        Cause::Reclaim => format!(
            "reclaimed by {}: {bs} lends its idle {ty} only until it needs it, and {vs} was borrowing beyond its own limit",
            b.id
        ),
        Cause::InShare => format!(
            "preempted by {} in {vs}: in-share preemption lets a higher-priority job ({by_priority} > {victim_priority}) take the place of a lower one",
            b.id
        ),
    }
}

/// The one-sentence explanation of a waiting reason (SPEC 4).
pub fn explain_reason(sc: &Scenario, job: JobId, reason: Reason) -> String {
    let j = &sc.jobs[job.index()];
    let s = &sc.shares[j.share].name;
    let ty = &sc.instance_types[j.instance_type].name;
    match reason {
        Reason::Unschedulable => format!("{s} has no limit for {ty}, so this job can never be admitted"),
        Reason::BlockedByPriority => {
            format!("strict FIFO: waits behind a higher-priority job at the head of {s}'s queue that cannot start yet")
        }
        Reason::HeadOfLine => format!("strict FIFO: waits behind the job at the head of {s}'s queue, which cannot start yet"),
        Reason::BorrowLimit => {
            format!("{s} has used its {ty} limit plus all it may borrow (its borrow limit); waits for its own jobs to finish")
        }
        Reason::EntitlementExhausted => {
            format!("{s} has used its whole {ty} limit and its strategy does not borrow; waits for its own jobs to finish")
        }
        Reason::CapacityInUse => format!(
            "{s} is owed this {ty} capacity, but it is lent out or reserved and cannot be reclaimed now; waits for it to be released"
        ),
        Reason::NoLendableCapacity => {
            format!("the job would borrow beyond {s}'s limit, but no idle {ty} capacity is left to lend")
        }
    }
}
