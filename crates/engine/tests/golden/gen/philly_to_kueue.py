# The AWS Philly import as a Kueue scenario under SPEC 12's translation table: every share
# a ClusterQueue of one cohort "all" whose own quota is the unallocated pool; RESERVE is
# lending and borrowing limit 0, LEND borrowing limit 0, LEND_AND_BORROW with borrow_limit p
# a borrowing limit of floor(limit x p / 100) (none for -1); in_share_preemption true/false
# is within_share lower_priority/never; reclaim any.
import json, sys
d = json.load(open(sys.argv[1]))
d["model"] = "kueue"
cap = d.get("capacity", {})
unalloc = {t: max(0, c - sum(s["limits"].get(t, 0) for s in d["shares"])) for t, c in cap.items()}
d["cohorts"] = [{"name": "all", "limits": unalloc}]
for s in d["shares"]:
    st = s.pop("strategy", "LEND_AND_BORROW"); p = s.pop("borrow_limit", -1)
    isp = s.pop("in_share_preemption", False)
    s["cohort"] = "all"
    if st == "RESERVE":
        s["lending_limit"] = {t: 0 for t in s["limits"]}
        s["borrowing_limit"] = {t: 0 for t in s["limits"]}
    elif st == "LEND":
        s["borrowing_limit"] = {t: 0 for t in s["limits"]}
    elif p != -1:
        s["borrowing_limit"] = {t: n * p // 100 for t, n in s["limits"].items()}
    s["preemption"] = {"within_share": "lower_priority" if isp else "never", "reclaim": "any"}
json.dump(d, open(sys.argv[2], "w"))
