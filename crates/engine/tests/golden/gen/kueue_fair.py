#!/usr/bin/env python3
"""Generates the kueue-fair-* golden scenarios from Kueue's preemption_fair_test.go cases
(TestFairPreemptions). Run from the repository root; then
`UPDATE_EXPECT=1 cargo test -p quotalab-engine --test golden` writes the .expected files.

Mapping: a ClusterQueue is a share of cohort "all"; cpu is instances of ml.g5.xlarge
(x2 where Kueue uses halves); Kueue priority p is p + 10 here (priorities are u32 in the
event log; the order is the same). The admitted workloads are submitted one per second in
reverse name order, so the first by name is the latest admitted (Kueue's tests tie on the
QuotaReserved time and the expected victims follow name order); the incoming one comes
after them and the scheduling pass preempts, as Kueue's GetTargets does."""
import json, sys

T = "ml.g5.xlarge"
BASE = {"within_share": "lower_priority", "reclaim": "any",
        "borrow_within_cohort": {"policy": "lower_priority", "max_priority_threshold": 7}}

def scenario(slug, case, note, cqs, admitted, incoming, strategies=None, cohorts=None):
    shares = []
    for cq in cqs:
        sh = {"name": cq["name"], "limits": {T: cq["nominal"]}, "cohort": cq.get("cohort", "all"),
              "preemption": cq.get("preemption", BASE)}
        if "weight" in cq: sh["weight"] = cq["weight"]
        if "lending_limit" in cq: sh["lending_limit"] = {T: cq["lending_limit"]}
        if "borrowing_limit" in cq: sh["borrowing_limit"] = {T: cq["borrowing_limit"]}
        shares.append(sh)
    jobs = []
    order = sorted(admitted, key=lambda w: w[0], reverse=True)
    for i, (name, share, n, prio) in enumerate(order):
        jobs.append({"id": name, "share": share, "instance_type": T, "instances": n,
                     "priority": prio + 10, "submit_s": i, "work_s": 3600})
    name, share, n, prio = incoming
    k = len(order)
    jobs.append({"id": name, "share": share, "instance_type": T, "instances": n,
                 "priority": prio + 10, "submit_s": k, "work_s": 3600})
    doc = {"format": "quotalab/v1", "model": "kueue", "name": case,
           "description": f"Kueue preemption_fair_test.go TestFairPreemptions: '{case}' (SPEC 12 fair sharing). {note}",
           "horizon_s": k + 5, "queue": {"preemption_grace_s": 0},
           "fair_sharing": {"strategies": strategies or ["less_than_or_equal_to_final_share", "less_than_initial_share"]},
           "shares": shares, "jobs": jobs}
    if cohorts: doc["cohorts"] = cohorts
    with open(f"crates/engine/tests/golden/kueue-fair-{slug}.json", "w") as f:
        json.dump(doc, f, indent=1); f.write("\n")

abc = [{"name": x, "nominal": 3} for x in "abc"]
abc2 = [{"name": x, "nominal": 6} for x in "abc"]
def units(prefix, share, k, prio=0): return [(f"{prefix}{i}", share, 1, prio) for i in range(1, k + 1)]

scenario("reclaim-nominal-from-most", "reclaim nominal from user using the most",
         "Kueue: b1 preempted, InCohortReclamation (c stays within nominal: the within-nominal bypass, cause reclaim).",
         abc, units("a", "a", 3) + units("b", "b", 5) + units("c", "c", 1), ("c_incoming", "c", 1, 0))
scenario("reclaim-from-less-if-needed", "can reclaim from queue using less, if taking the latest workload from user using the most isn't enough",
         "Kueue: a1 preempted, InCohortReclamation.",
         abc, [("a1", "a", 3, 0), ("a2", "a", 1, 0), ("b1", "b", 2, 0), ("b2", "b", 3, 0)], ("c_incoming", "c", 3, 0))
scenario("reclaim-borrowable-from-most", "reclaim borrowable quota from user using the most",
         "Kueue: b1 preempted, InCohortFairSharing (a borrows after admission: the strategy decides).",
         abc, units("a", "a", 3) + units("b", "b", 5) + units("c", "c", 1), ("a_incoming", "a", 1, 0))
scenario("one-from-each-borrowing", "preempt one from each CQ borrowing",
         "cpu x2. Kueue: a1 and b1 preempted, InCohortReclamation.",
         abc2, [("a1", "a", 1, 0), ("a2", "a", 1, 0), ("a3", "a", 6, 0), ("b1", "b", 1, 0), ("b2", "b", 1, 0), ("b3", "b", 6, 0)],
         ("c_incoming", "c", 4, 0))
scenario("everyone-under-nominal", "can't preempt when everyone under nominal",
         "Kueue: no victims, the incoming workload stays pending.",
         abc, units("a", "a", 3) + units("b", "b", 3) + units("c", "c", 3), ("c_incoming", "c", 1, 0))
scenario("would-switch-imbalance", "can't preempt when it would switch the imbalance",
         "Kueue: no victims, the incoming workload stays pending.",
         abc, units("a", "a", 3) + units("b", "b", 5), ("a_incoming", "a", 2, 0))
scenario("lower-priority-same-cq", "can preempt lower priority workloads from same CQ",
         "Kueue: a1_low and a2_low preempted, InClusterQueue.",
         abc, [("a1_low", "a", 1, -1), ("a2_low", "a", 1, -1), ("a3", "a", 1, 0), ("a4", "a", 1, 0)] + units("b", "b", 5),
         ("a_incoming", "a", 2, 0))
scenario("same-cq-and-highest-user", "can preempt a combination of same CQ and highest user",
         "Kueue: a_low InClusterQueue and b1 InCohortFairSharing.",
         abc, [("a_low", "a", 1, -1), ("a2", "a", 1, 0), ("a3", "a", 1, 0)] + units("b", "b", 6),
         ("a_incoming", "a", 2, 0))
scenario("huge-if-no-other-option", "preempt huge workload if there is no other option, as long as the target CQ gets a lower share",
         "Kueue: b1 preempted, InCohortReclamation.",
         abc, [("b1", "b", 9, 0)], ("a_incoming", "a", 2, 0))
scenario("huge-incoming-huge-victim", "can't preempt huge workload if the incoming is also huge",
         "Kueue: no victims, the incoming workload stays pending.",
         abc, [("a1", "a", 2, 0), ("b1", "b", 7, 0)], ("a_incoming", "a", 5, 0))
scenario("two-smaller-incoming-huge", "can't preempt 2 smaller workloads if the incoming is huge",
         "Kueue: no victims, the incoming workload stays pending.",
         abc, [("b1", "b", 2, 0), ("b2", "b", 2, 0), ("b3", "b", 3, 0)], ("a_incoming", "a", 6, 0))
scenario("target-and-others-over-nominal", "preempt from target and others even if over nominal",
         "Kueue: a1_low InClusterQueue and b1 InCohortFairSharing.",
         abc, [("a1_low", "a", 2, -1), ("a2_low", "a", 1, -1), ("b1", "b", 3, 0), ("b2", "b", 3, 0)],
         ("a_incoming", "a", 4, 0))
scenario("not-biggest-share", "prefer to preempt workloads that don't make the target CQ have the biggest share",
         "cpu x2. Kueue: b2 preempted, InCohortFairSharing (S2-a before S2-b).",
         abc2, [("b1", "b", 4, 0), ("b2", "b", 2, 0), ("b3", "b", 4, 0), ("c1", "c", 2, 0)], ("a_incoming", "a", 7, 0))
