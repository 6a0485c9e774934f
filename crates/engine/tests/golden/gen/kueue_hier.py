#!/usr/bin/env python3
"""Generates kueue-hier-* golden scenarios from Kueue's preemption_hierarchical_test.go
(TestHierarchicalPreemptions) and kueue-bwc-* from preemption_test.go's borrow_within_cohort
cases. Same conventions as kueue_fair.py: cpu is instances of ml.g5.xlarge; a ClusterQueue
without quota has limit 0; Kueue priority p is p + 20 here (and so is a threshold); the
admitted workloads are submitted one per second in the order given (the last is the latest
admitted); the incoming one follows and the pass preempts (classical preemption)."""
import json

T = "ml.g5.xlarge"
AnyLower = {"within_share": "lower_priority", "reclaim": "any"}

def scenario(prefix, slug, test, case, note, cohorts, cqs, admitted, incoming):
    shares = []
    for cq in cqs:
        sh = {"name": cq["name"], "limits": {T: cq.get("nominal", 0)}, "cohort": cq["cohort"],
              "preemption": cq.get("preemption", AnyLower)}
        for k in ("lending_limit", "borrowing_limit"):
            if k in cq: sh[k] = {T: cq[k]}
        shares.append(sh)
    jobs = []
    for i, (name, share, n, prio) in enumerate(admitted):
        jobs.append({"id": name, "share": share, "instance_type": T, "instances": n,
                     "priority": prio + 20, "submit_s": i, "work_s": 3600})
    name, share, n, prio = incoming
    k = len(admitted)
    jobs.append({"id": name, "share": share, "instance_type": T, "instances": n,
                 "priority": prio + 20, "submit_s": k, "work_s": 3600})
    doc = {"format": "quotalab/v1", "model": "kueue", "name": case,
           "description": f"Kueue {test}: '{case}' (SPEC 12 classical preemption). {note}",
           "horizon_s": k + 5, "queue": {"preemption_grace_s": 0},
           "cohorts": cohorts, "shares": shares, "jobs": jobs}
    with open(f"crates/engine/tests/golden/kueue-{prefix}-{slug}.json", "w") as f:
        json.dump(doc, f, indent=1); f.write("\n")

H = "preemption_hierarchical_test.go TestHierarchicalPreemptions"
rc = [{"name": "r"}, {"name": "c", "parent": "r", "limits": {T: 2}}]
scenario("hier", "hierarchical-advantage", H, "preempt with hierarchical advantage",
         "Tree r <- {c(2) <- q, q_borrowing}. Kueue: admitted2 preempted, InCohortReclamation, preemptor path /r/c/q, preemptee path /r/q_borrowing.",
         rc, [{"name": "q", "cohort": "c"}, {"name": "q_borrowing", "cohort": "r"}],
         [("admitted2", "q_borrowing", 2, 0)], ("in", "q", 2, 0))
scenario("hier", "avoid-within-nominal", H, "avoid queues within nominal quota",
         "Tree r <- {c(2) <- q, q_borrowing, q_nominal(2)}. Kueue: only admitted2 (q_borrowing) preempted, not the lower-priority admitted1 of q_nominal, which is within its quota.",
         rc, [{"name": "q_nominal", "cohort": "r", "nominal": 2}, {"name": "q", "cohort": "c"},
              {"name": "q_borrowing", "cohort": "r"}],
         [("admitted1", "q_nominal", 2, -10), ("admitted2", "q_borrowing", 2, 0)], ("in", "q", 2, 0))
scenario("hier", "multiple-hierarchical-advantage", H, "preempt multiple with hierarchical advantage",
         "Tree r <- {c(2) <- q, q_borrowing}. Kueue: admitted1 and admitted2 preempted (higher priorities than the incoming: hierarchical reclaim with reclaim any), InCohortReclamation.",
         rc, [{"name": "q", "cohort": "c"}, {"name": "q_borrowing", "cohort": "r"}],
         [("admitted1", "q_borrowing", 1, 1), ("admitted2", "q_borrowing", 1, 2)], ("in", "q", 2, 0))

# preemption_test.go TestPreemption, the borrow_within_cohort cases: the cohort
# with_shared_cq of its defaultClusterQueues (threshold 0 is 20 here).
P = "preemption_test.go TestPreemption"
bwc = {"policy": "lower_priority", "max_priority_threshold": 20}
shared_cq = [
    {"name": "a_standard", "cohort": "with_shared_cq", "nominal": 1, "borrowing_limit": 12,
     "preemption": {"within_share": "never", "reclaim": "lower_priority", "borrow_within_cohort": bwc}},
    {"name": "b_standard", "cohort": "with_shared_cq", "nominal": 1, "borrowing_limit": 12,
     "preemption": {"within_share": "lower_priority", "reclaim": "any", "borrow_within_cohort": bwc}},
    {"name": "a_best_effort", "cohort": "with_shared_cq", "nominal": 1, "borrowing_limit": 12,
     "preemption": {"within_share": "never", "reclaim": "lower_priority", "borrow_within_cohort": bwc}},
    {"name": "b_best_effort", "cohort": "with_shared_cq", "nominal": 0, "borrowing_limit": 13,
     "preemption": {"within_share": "never", "reclaim": "lower_priority", "borrow_within_cohort": bwc}},
    {"name": "shared", "cohort": "with_shared_cq", "nominal": 10, "preemption": {}},
]
scenario("bwc", "above-threshold-without-borrowing", P,
         "use BorrowWithinCohort; allow preempting a lower-priority workload with priority above MaxPriorityThreshold, if borrowing is not required after the preemption",
         "Kueue: b_standard preempted, InCohortReclamation (the threshold binds only while borrowing; in fits within a_standard's nominal once it is gone).",
         [], shared_cq, [("b_standard", "b_standard", 13, 1)], ("in", "a_standard", 1, 2))
scenario("bwc", "not-from-same-share", P,
         "use BorrowWithinCohort; don't allow for preemption of lower-priority workload from the same ClusterQueue",
         "Kueue: no victim (a_standard's within_share is never); in stays pending.",
         [], shared_cq, [("a_standard", "a_standard", 13, 1)], ("in", "a_standard", 1, 2))
scenario("bwc", "own-share-if-none-below-threshold", P,
         "use BorrowWithinCohort; only preempt from CQ if no workloads below threshold and already above nominal",
         "Kueue: only b_standard_1 preempted, InClusterQueue (the other shares' workloads are above the threshold).",
         [], shared_cq, [("a_standard_1", "a_standard", 10, 1), ("a_standard_2", "a_standard", 1, 1),
                         ("b_standard_1", "b_standard", 1, 1), ("b_standard_2", "b_standard", 1, 2)],
         ("in", "b_standard", 1, 3))
scenario("bwc", "own-share-and-below-threshold", P,
         "use BorrowWithinCohort; preempt from CQ and from other CQs with workloads below threshold",
         "Kueue: b_standard_mid (InClusterQueue) and a_best_effort_lower (InCohortReclaimWhileBorrowing) preempted.",
         [], shared_cq, [("b_standard_high", "b_standard", 10, 2), ("b_standard_mid", "b_standard", 1, 1),
                         ("a_best_effort_low", "a_best_effort", 1, -1), ("a_best_effort_lower", "a_best_effort", 1, -2)],
         ("in", "b_standard", 2, 2))
scenario("bwc", "other-share-while-borrowing", P,
         "use BorrowWithinCohort; allow preempting a lower-priority workload from another ClusterQueue while borrowing",
         "Kueue: a_best_effort_low preempted, InCohortReclaimWhileBorrowing (in borrows 9 beyond a_standard's nominal 1; the victim's priority is below in's and at most the threshold).",
         [], shared_cq, [("a_best_effort_low", "a_best_effort", 10, -1), ("b_best_effort_low", "b_best_effort", 1, -1)],
         ("in", "a_standard", 10, 0))
scenario("bwc", "above-threshold-while-borrowing", P,
         "use BorrowWithinCohort; don't allow preempting a lower-priority workload with priority above MaxPriorityThreshold, if borrowing is required even after the preemption",
         "Kueue: no victim (b_standard's priority 1 is above the threshold 0 and in would still borrow); in stays pending.",
         [], shared_cq, [("b_standard", "b_standard", 10, 1)], ("in", "a_standard", 10, 2))
