//! Explanations (SPEC 8): the sentence beside a preemption and beside a waiting reason in
//! the event log, the same words in the result JSON and on the page.

use crate::input::model::{FsStrategy, Priority, Scenario};
use crate::simulation::share_value::ShareValue;
use crate::simulation::{Cause, EventKind, JobId, Reason};

/// The one-sentence explanation of a preemption (SPEC 8: a newcomer understands it).
pub fn explain_preempt(sc: &Scenario, victim: JobId, kind: &EventKind) -> String {
    let EventKind::Preempt {
        cause,
        by,
        victim_priority,
        by_priority,
        shares,
    } = *kind
    else {
        return String::new();
    };
    if sc.is_kueue() {
        let prio = (victim_priority, by_priority);
        return explain_kueue_preempt(sc, victim, by, cause, prio, shares);
    }
    let v = &sc.jobs[victim.index()];
    let b = &sc.jobs[by.index()];
    let ty = &sc.instance_types[v.instance_type()].name;
    let (vs, bs) = (&sc.shares[v.share()].name, &sc.shares[b.share()].name);
    match cause {
        Cause::Reclaim => format!(
            "reclaimed by {}: {bs} lends its idle {ty} only until it needs it, and {vs} was borrowing beyond its own limit",
            sc.id_of(b)
        ),
        Cause::InShare => format!(
            "preempted by {} in {vs}: in-share preemption lets a higher-priority job ({by_priority} > {victim_priority}) take the place of a lower one",
            sc.id_of(b)
        ),
        // Kueue causes never occur in the AWS model.
        Cause::ReclaimWhileBorrowing | Cause::FairSharing(_) => String::new(),
    }
}

/// SPEC 12: a share's cohort path, `root/research/team-a` (the share alone: its name).
pub fn cohort_path(sc: &Scenario, share: usize) -> String {
    let mut parts = vec![sc.shares[share].name.as_str()];
    let mut at = sc.shares[share].kueue.cohort;
    while let Some(c) = at {
        parts.push(sc.cohorts[c].name.as_str());
        at = sc.cohorts[c].parent;
        if parts.len() > sc.cohorts.len() + 1 {
            break; // validation refuses cycles; never loop
        }
    }
    parts.reverse();
    parts.join("/")
}

/// SPEC 12: a Kueue-model preemption names the rule that allowed it and both cohort paths
/// (Kueue's `preemptionMessage`: "preemptor path ..., preemptee path ...").
fn explain_kueue_preempt(
    sc: &Scenario,
    victim: JobId,
    by: JobId,
    cause: Cause,
    (victim_priority, by_priority): (Priority, Priority),
    shares: Option<[ShareValue; 2]>,
) -> String {
    let v = &sc.jobs[victim.index()];
    let b = &sc.jobs[by.index()];
    let ty = &sc.instance_types[v.instance_type()].name;
    let (vp, bp) = (cohort_path(sc, v.share()), cohort_path(sc, b.share()));
    let paths = format!("preemptor path {bp}, preemptee path {vp}");
    let (vs, bs) = (&sc.shares[v.share()].name, &sc.shares[b.share()].name);
    let policy = sc.shares[b.share()].kueue.preemption;
    let id = sc.id_of(b);
    match cause {
        Cause::InShare => {
            let within = policy.within_share.kueue_name();
            if by_priority > victim_priority {
                format!(
                    "preempted by {id} within its ClusterQueue: withinClusterQueue: {within} lets a higher-priority workload ({by_priority} > {victim_priority}) take the place of a lower one ({paths})"
                )
            } else {
                format!(
                    "preempted by {id} within its ClusterQueue: withinClusterQueue: {within} lets a workload take the place of one of equal priority ({by_priority}) submitted after it ({paths})"
                )
            }
        }
        Cause::Reclaim => {
            let rule = match policy.reclaim {
                crate::input::model::ReclaimPolicy::LowerPriority => {
                    format!("reclaimWithinCohort: LowerPriority, {by_priority} > {victim_priority}")
                }
                crate::input::model::ReclaimPolicy::Any => "reclaimWithinCohort: Any".to_string(),
                // Fair sharing's within-nominal preemptions (KUEUE.md "Precise points").
                crate::input::model::ReclaimPolicy::Never => "within its nominal quota".to_string(),
            };
            format!(
                "reclaimed by {id}: {bs} takes back {ty} quota it is owed from {vs}, which was borrowing beyond its nominal quota ({rule}; {paths})"
            )
        }
        Cause::ReclaimWhileBorrowing => {
            let threshold = policy
                .borrow_within_cohort
                .max_priority_threshold
                .map(|t| format!(", maxPriorityThreshold: {t}"))
                .unwrap_or_default();
            format!(
                "reclaimed by {id} while {bs} borrows itself: borrowWithinCohort: LowerPriority{threshold} allows it against lower-priority workloads ({by_priority} > {victim_priority}) of {vs}, which was borrowing beyond its nominal quota ({paths})"
            )
        }
        Cause::FairSharing(strategy) => {
            let (rule, cmp) = match strategy {
                FsStrategy::LessThanOrEqualToFinalShare => {
                    ("LessThanOrEqualToFinalShare", "no more than")
                }
                FsStrategy::LessThanInitialShare => ("LessThanInitialShare", "less than"),
            };
            let when = match strategy {
                FsStrategy::LessThanOrEqualToFinalShare => "after",
                FsStrategy::LessThanInitialShare => "before",
            };
            let values = shares
                .map(|[p, t]| {
                    let p = share_value_words(p);
                    let t = match t {
                        ShareValue::Infinite => format!(
                            ", which is infinite ({vs} borrows with a fairSharing weight of 0),"
                        ),
                        ShareValue::Finite(_) => format!(" {t}"),
                    };
                    format!(": with it admitted {bs}'s dominant resource share would be {p}, {cmp} {vs}'s{t} {when} this preemption")
                })
                .unwrap_or_default();
            format!(
                "preempted by {id} for fair sharing ({rule}){values}; {vs} borrows more of the cohort than {bs} would ({paths})"
            )
        }
    }
}

/// A dominant resource share in words: its value, or "infinite" with why (a fairSharing
/// weight of 0 while borrowing), never the bare word.
fn share_value_words(v: ShareValue) -> String {
    match v {
        ShareValue::Infinite => "infinite (a fairSharing weight of 0 while borrowing)".to_string(),
        ShareValue::Finite(_) => v.to_string(),
    }
}

/// SPEC 12: a node's path in the quota tree: a share's [`cohort_path`], or a cohort's
/// (node index: shares first, then cohorts).
fn node_path(sc: &Scenario, node: usize) -> String {
    if node < sc.shares.len() {
        return cohort_path(sc, node);
    }
    let mut parts = Vec::new();
    let mut at = Some(node - sc.shares.len());
    while let Some(c) = at {
        let Some(co) = sc.cohorts.get(c) else { break };
        parts.push(co.name.as_str());
        at = co.parent;
        if parts.len() > sc.cohorts.len() {
            break; // validation refuses cycles; never loop
        }
    }
    parts.reverse();
    parts.join("/")
}

/// The explanation of a `waiting` event (SPEC 4, SPEC 8): in the Kueue model, when the
/// event carries the limit that binds (SPEC 12), the sentence names that limit and its
/// node (`explain_kueue_wait`); otherwise [`explain_reason`].
pub fn explain_waiting(
    sc: &Scenario,
    job: JobId,
    reason: Reason,
    why: Option<crate::simulation::Binding>,
) -> String {
    match why {
        Some(b) if sc.is_kueue() => explain_kueue_wait(sc, job, reason, b),
        _ => explain_reason(sc, job, reason),
    }
}

/// SPEC 12 waiting reasons in words: which limit binds and at which node. The reason codes
/// map onto the bindings as `kueue_reason` documents (the share alone at its nominal quota:
/// `entitlement_exhausted`; its own borrowing limit: `borrow_limit`; within its nominal
/// quota: `capacity_in_use`; a cohort's quota or borrowing limit while borrowing:
/// `no_lendable_capacity`).
fn explain_kueue_wait(
    sc: &Scenario,
    job: JobId,
    reason: Reason,
    why: crate::simulation::Binding,
) -> String {
    use crate::simulation::Binding;
    let j = &sc.jobs[job.index()];
    let s = &sc.shares[j.share()].name;
    let ty = &sc.instance_types[j.instance_type()].name;
    let tail = match reason {
        Reason::CapacityInUse => format!(
            "; {s} is owed it within its nominal quota, but it is in use by borrowers that cannot be reclaimed now"
        ),
        Reason::NoLendableCapacity => {
            format!("; the workload would borrow beyond {s}'s nominal quota")
        }
        _ => String::new(),
    };
    match why {
        Binding::OwnNominal { limit } => format!(
            "{s}'s nominal quota of {limit} {ty} is used up and it is in no cohort to borrow from; waits for its own workloads to finish"
        ),
        // After the label "borrowingLimit reached": the number, not the limit said again
        // (issue #34, fresh-eyes walk).
        Binding::BorrowingLimit { node, limit } if node as usize == j.share() => format!(
            "{s} may borrow at most {limit} {ty} beyond its nominalQuota; waits for its own workloads to finish{tail}"
        ),
        Binding::BorrowingLimit { node, limit } => format!(
            "cohort {}'s borrowingLimit of {limit} {ty} is used up; waits for workloads below it to finish{tail}",
            node_path(sc, node as usize)
        ),
        Binding::CohortFull {
            node,
            free,
            need,
            private,
        } => {
            let kept = if private > 0 {
                format!("; lending limits keep {private} private elsewhere")
            } else {
                String::new()
            };
            let path = node_path(sc, node as usize);
            if free == 0 {
                format!("cohort {path} has no unused quota of {ty} ({need} needed{kept}){tail}")
            } else {
                format!(
                    "cohort {path} has only {free} unused {ty} ({need} needed{kept}){tail}"
                )
            }
        }
        Binding::Capacity { capacity } => format!(
            "all {capacity} {ty} of the environment's capacity are in use; waits for instances to be released"
        ),
        Binding::PreemptedWorkloads { victims, until } => {
            let at = moment(until);
            let held = if victims == 1 {
                format!("the workload it preempted keeps its quota until its grace period ends, {at}")
            } else {
                format!("the {victims} workloads it preempted keep their quota until their grace periods end (the last {at})")
            };
            let them = if victims == 1 { "it" } else { "them" };
            format!("{held}; the preemptor waits for {them} (WaitingForPreemptedWorkloads) and is then admitted only if no other workload takes that quota first")
        }
    }
}

/// A moment of the run in an explanation, as the page's event log writes its times
/// (`36 min 23 s into the run`, `1 h 11 min into the run`): no raw seconds.
fn moment(at: crate::input::model::Ms) -> String {
    format!(
        "{} into the run",
        crate::output::numbers::clock(at as f64 / 1000.0)
    )
}

/// The one-sentence explanation of a waiting reason (SPEC 4).
pub fn explain_reason(sc: &Scenario, job: JobId, reason: Reason) -> String {
    let j = &sc.jobs[job.index()];
    let s = &sc.shares[j.share()].name;
    let ty = &sc.instance_types[j.instance_type()].name;
    if sc.is_kueue() {
        return explain_kueue_reason(s, ty, reason);
    }
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

/// [`explain_reason`] in the Kueue model's words: ClusterQueue, ResourceFlavor, nominalQuota,
/// borrowingLimit, cohort, StrictFIFO; workloads rather than jobs.
fn explain_kueue_reason(s: &str, ty: &str, reason: Reason) -> String {
    match reason {
        Reason::Unschedulable => format!(
            "ClusterQueue {s} has no nominalQuota for ResourceFlavor {ty}, so this workload can never be admitted"
        ),
        Reason::BlockedByPriority => format!(
            "StrictFIFO: waits behind a higher-priority workload at the head of ClusterQueue {s}'s queue that cannot be admitted yet"
        ),
        Reason::HeadOfLine => format!(
            "StrictFIFO: waits behind the workload at the head of ClusterQueue {s}'s queue, which cannot be admitted yet"
        ),
        Reason::BorrowLimit => format!(
            "{s} has used its nominalQuota of {ty} plus all its borrowingLimit allows; waits for its own workloads to finish"
        ),
        Reason::EntitlementExhausted => format!(
            "{s} has used its whole nominalQuota of {ty} and cannot borrow; waits for its own workloads to finish"
        ),
        Reason::CapacityInUse => format!(
            "{s} is owed this {ty} quota within its nominal quota, but borrowers use it and cannot be reclaimed now; waits for it to be released"
        ),
        Reason::NoLendableCapacity => format!(
            "the workload would borrow beyond {s}'s nominal quota, but its cohort has no unused {ty} quota left"
        ),
    }
}

/// SPEC 14: the one-sentence explanation of an interruption-contract event
/// (`restore_failed`, `invalid_resume`, `resubmit`, `alarm`, an escalation's
/// `set_priority`); empty for any other kind.
pub fn explain_recovery(sc: &Scenario, job: JobId, kind: &EventKind) -> String {
    let Some(j) = sc.jobs.get(job.index()) else {
        return String::new();
    };
    let id = sc.id_of(j);
    let secs = |ms: crate::input::model::Ms| super::numbers::secs(ms);
    match *kind {
        EventKind::RestoreFailed { lost } => format!(
            "restore of {id} failed: its {} s of checkpointed progress are lost and it starts over",
            secs(lost)
        ),
        EventKind::InvalidResume { lost } => format!(
            "{id} finished its work, but an earlier resume from a checkpoint had silently corrupted it: its {} s of progress are lost and it starts again from zero on the instances it holds",
            secs(lost)
        ),
        EventKind::Resubmit { from, priority } => {
            let from = sc.shares.get(from as usize).map_or("", |s| s.name.as_str());
            let to = &sc.shares[j.share()].name;
            format!(
                "{id} was preempted more often than its preemption retries allow in {from}: instead of failing it is submitted again to {to} (priority {priority}), from its last checkpoint"
            )
        }
        EventKind::Alarm { count } => format!(
            "{id} has now been preempted {count} times: repeated preemptions mean its work keeps being interrupted, so the capacity it relies on is not dependable"
        ),
        EventKind::Escalated(p) => {
            let before = j.escalate().map_or(0, |e| e.before_deadline);
            format!(
                "{id} has not ended {} s before its deadline, so its priority is raised to {p} (escalate)",
                secs(before)
            )
        }
        _ => String::new(),
    }
}
/// The words for each waiting reason, one table for every view: a short label (the event
/// log, a job's history) and the phrase that says why a job waits (the state-at panel).
const REASON_WORDS: [(Reason, &str, &str); 7] = [
    (
        Reason::Unschedulable,
        "unschedulable",
        "its share has no limit for this instance type",
    ),
    (
        Reason::BlockedByPriority,
        "blocked by priority",
        "behind a higher-priority job that cannot start (strict FIFO)",
    ),
    (
        Reason::HeadOfLine,
        "head of line",
        "behind the head of its share's queue (strict FIFO)",
    ),
    (
        Reason::BorrowLimit,
        "borrow limit reached",
        "its share reached its borrow limit",
    ),
    (
        Reason::EntitlementExhausted,
        "entitlement exhausted",
        "its share used its whole limit and does not borrow",
    ),
    (
        Reason::CapacityInUse,
        "capacity in use",
        "its share's capacity is lent out and cannot be reclaimed now",
    ),
    (
        Reason::NoLendableCapacity,
        "no lendable capacity",
        "it would borrow, but no idle capacity is left to lend",
    ),
];

fn reason_row(r: Reason) -> (&'static str, &'static str) {
    REASON_WORDS
        .iter()
        .find(|w| w.0 == r)
        .map_or(("waiting", "waiting"), |w| (w.1, w.2))
}

/// A waiting reason's short label: `borrow limit reached`.
pub fn reason_label(r: Reason) -> &'static str {
    reason_row(r).0
}

/// [`reason_label`] in the model's words: in the Kueue model (`kueue`) its nominalQuota,
/// borrowingLimit and cohort (`borrowingLimit reached`); the AWS model's label otherwise.
pub fn reason_label_in(r: Reason, kueue: bool) -> &'static str {
    if !kueue {
        return reason_label(r);
    }
    match r {
        Reason::Unschedulable => "no nominalQuota",
        Reason::BorrowLimit => "borrowingLimit reached",
        Reason::EntitlementExhausted => "nominalQuota used up",
        Reason::CapacityInUse => "quota in use by borrowers",
        Reason::NoLendableCapacity => "no unused quota in its cohort",
        Reason::BlockedByPriority | Reason::HeadOfLine => reason_label(r),
    }
}

/// Why a job with this reason waits, as a phrase: `its share reached its borrow limit`.
pub fn reason_phrase(r: Reason) -> &'static str {
    reason_row(r).1
}

/// [`reason_phrase`] in the model's words: in the Kueue model (`kueue`) a workload's
/// ClusterQueue, nominalQuota, borrowingLimit and cohort (`behind the head of its
/// ClusterQueue's queue (StrictFIFO)`); the AWS model's phrase otherwise.
pub fn reason_phrase_in(r: Reason, kueue: bool) -> &'static str {
    if !kueue {
        return reason_phrase(r);
    }
    match r {
        Reason::Unschedulable => "its ClusterQueue has no nominalQuota for this ResourceFlavor",
        Reason::BlockedByPriority => {
            "behind a higher-priority workload that cannot be admitted (StrictFIFO)"
        }
        Reason::HeadOfLine => "behind the head of its ClusterQueue's queue (StrictFIFO)",
        Reason::BorrowLimit => "its ClusterQueue reached its borrowingLimit",
        Reason::EntitlementExhausted => {
            "its ClusterQueue used its whole nominalQuota and cannot borrow"
        }
        Reason::CapacityInUse => {
            "its ClusterQueue's nominal quota is used by borrowers that cannot be reclaimed now"
        }
        Reason::NoLendableCapacity => "it would borrow, but its cohort has no unused quota left",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #34: an infinite dominant resource share is said with why ("less than ads's
    /// infinite" read as a typo).
    #[test]
    fn an_infinite_share_is_explained() {
        let text = r#"{"format": "quotalab/v1", "model": "kueue",
            "shares": [{"name": "ads", "limits": {"ml.g5.xlarge": 1}, "cohort": "c"},
                       {"name": "nlp", "limits": {"ml.g5.xlarge": 1}, "cohort": "c"}],
            "cohorts": [{"name": "c"}],
            "jobs": [{"id": "a", "share": "ads", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 9},
                     {"id": "n", "share": "nlp", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 9}]}"#;
        let loaded = crate::load(text).expect("valid");
        let kind = EventKind::Preempt {
            cause: Cause::FairSharing(FsStrategy::LessThanInitialShare),
            by: JobId::new(1),
            victim_priority: 0,
            by_priority: 0,
            shares: Some([ShareValue::Finite(500), ShareValue::Infinite]),
        };
        let said = explain_preempt(&loaded.scenario, JobId::new(0), &kind);
        assert!(
            said.contains("would be 500, less than ads's, which is infinite (ads borrows with a fairSharing weight of 0), before this preemption"),
            "{said}"
        );
        assert!(!said.contains("'s infinite"), "{said}");
    }

    /// Issue #34: the Kueue model's waiting explanations say workload(s), never job(s).
    #[test]
    fn kueue_waits_speak_of_workloads() {
        use crate::simulation::Binding;
        let text = r#"{"format": "quotalab/v1", "model": "kueue",
            "shares": [{"name": "solo", "limits": {"ml.g5.xlarge": 1}},
                       {"name": "nlp", "limits": {"ml.g5.xlarge": 1}, "cohort": "c"}],
            "cohorts": [{"name": "c"}],
            "jobs": [{"id": "a", "share": "solo", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 9},
                     {"id": "n", "share": "nlp", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 9}]}"#;
        let sc = crate::load(text).expect("valid").scenario;
        let cases = [
            (
                0,
                Reason::EntitlementExhausted,
                Binding::OwnNominal { limit: 1 },
            ),
            (
                1,
                Reason::NoLendableCapacity,
                Binding::CohortFull {
                    node: 2,
                    free: 0,
                    need: 1,
                    private: 0,
                },
            ),
            (
                1,
                Reason::CapacityInUse,
                Binding::PreemptedWorkloads {
                    victims: 1,
                    until: 60_000,
                },
            ),
            (
                1,
                Reason::CapacityInUse,
                Binding::PreemptedWorkloads {
                    victims: 2,
                    until: 60_000,
                },
            ),
        ];
        for (job, reason, why) in cases {
            let said = explain_waiting(&sc, JobId::new(job), reason, Some(why));
            assert!(said.contains("workload"), "{said}");
            assert!(!said.contains(" job"), "{said}");
        }
    }
}
