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
