//! Jobs that waited the whole run because of the capacity or the quota, said once for the
//! reader where the results begin ("Capacity of ml.p4d.24xlarge (1) is below one job's 4
//! instances: that job can never start"). Each sentence joins what the scenario sets
//! (capacity, limits, strategies: the validator's overcommit and "can never start"
//! warnings, SPEC 2) with what the run did (jobs still RUNNABLE at the end that never
//! started, and their waiting reasons, SPEC 4). It decides nothing: the reasons are the
//! engine's.

use crate::input::digits::group_digits;
use crate::input::model::{Scenario, Strategy};
use crate::simulation::{JobRt, Reason, State};

/// One sentence per instance type whose capacity keeps jobs from ever starting, then one
/// per share and type it has no limit for (unschedulable); empty when every job could
/// start. The Kueue model says ClusterQueue and nominalQuota.
pub fn stuck_notes(sc: &Scenario, jobs: &[JobRt]) -> Vec<String> {
    let kueue = sc.is_kueue();
    let types = sc.instance_types.len();
    // Jobs that ended the run waiting without ever having started: (type, size, reason),
    // and the unschedulable ones counted per share and type. One pass over the jobs.
    let mut never: Vec<(usize, u64, Option<Reason>)> = Vec::new();
    let mut unschedulable = vec![0u64; sc.shares.len() * types];
    for (spec, r) in sc.jobs.iter().zip(jobs) {
        if r.state != State::Runnable || r.first_start.get().is_some() {
            continue;
        }
        let t = spec.instance_type();
        if r.reason == Some(Reason::Unschedulable) {
            if let Some(n) = unschedulable.get_mut(r.share as usize * types + t) {
                *n += 1;
            }
        } else {
            never.push((t, spec.instances(), r.reason));
        }
    }
    let mut notes = Vec::new();
    for (t, ty) in sc.instance_types.iter().enumerate() {
        let cap = sc.capacity.get(t).copied().unwrap_or(0);
        let here: Vec<(u64, Option<Reason>)> = never
            .iter()
            .filter(|(jt, _, _)| *jt == t)
            .map(|&(_, n, r)| (n, r))
            .collect();
        // Larger than the whole capacity (the validator's "it can never start").
        let big: Vec<u64> = here.iter().map(|&(n, _)| n).filter(|&n| n > cap).collect();
        if !big.is_empty() {
            let (lo, hi) = big
                .iter()
                .fold((u64::MAX, 0), |(a, b), &n| (a.min(n), b.max(n)));
            let sizes = if lo == hi {
                format!(
                    "{} instance{}",
                    group_digits(lo),
                    if lo == 1 { "" } else { "s" }
                )
            } else {
                format!("{}–{} instances", group_digits(lo), group_digits(hi))
            };
            notes.push(if big.len() == 1 {
                format!(
                    "Capacity of {} ({}) is below one job's {sizes}: that job can never start.",
                    ty.name,
                    group_digits(cap)
                )
            } else {
                format!(
                    "Capacity of {} ({}) is below the {sizes} each of {} jobs needs: those jobs can never start.",
                    ty.name,
                    group_digits(cap),
                    group_digits(big.len() as u64)
                )
            });
        }
        // Capacity under the quota (SPEC 2's overcommit) and jobs that waited for it to the
        // end, for capacity in use or none to lend (SPEC 4 reasons, conditions 2 and 3).
        let limit =
            |s: &crate::input::model::Share| s.limits.get(t).copied().flatten().unwrap_or(0);
        let owed: u64 = sc.shares.iter().map(limit).sum();
        let waited = here
            .iter()
            .filter(|(n, r)| {
                matches!(r, Some(Reason::CapacityInUse | Reason::NoLendableCapacity)) && *n <= cap
            })
            .count();
        if owed > cap && waited > 0 {
            let whose = if kueue {
                "the ClusterQueues' nominalQuota"
            } else {
                "what the shares are entitled to"
            };
            // AWS model, SPEC 3 condition 3: a RESERVE share's idle entitlement is free only
            // to its own jobs.
            let reserved: Vec<&crate::input::model::Share> = if kueue {
                Vec::new()
            } else {
                sc.shares
                    .iter()
                    .filter(|s| s.strategy == Strategy::Reserve && limit(s) > 0)
                    .collect()
            };
            let keep = match reserved.as_slice() {
                [] => String::new(),
                [s] => format!(
                    ", and the RESERVE share {} keeps {} of it for its own jobs",
                    s.name,
                    group_digits(limit(s))
                ),
                many => format!(
                    ", and the RESERVE shares {} keep {} of it for their own jobs",
                    many.iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    group_digits(many.iter().map(|s| limit(s)).sum())
                ),
            };
            notes.push(format!(
                "Capacity of {} ({}) is below {whose} ({} instances){keep}: {} waited to the end without starting.",
                ty.name,
                group_digits(cap),
                group_digits(owed),
                if waited == 1 {
                    "1 job".to_string()
                } else {
                    format!("{} jobs", group_digits(waited as u64))
                }
            ));
        }
    }
    // A share with no limit for a type: its jobs of that type are unschedulable (SPEC 2).
    for (s, share) in sc.shares.iter().enumerate() {
        for (t, ty) in sc.instance_types.iter().enumerate() {
            let n = unschedulable[s * types + t];
            if n > 0 {
                notes.push(format!(
                    "{} has no {} for {}: {} of that type can never start (unschedulable).",
                    share.name,
                    if kueue { "nominalQuota" } else { "limit" },
                    ty.name,
                    if n == 1 {
                        "its job".to_string()
                    } else {
                        format!("its {} jobs", group_digits(n))
                    }
                ));
            }
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use crate::output::digest::DigestLimits;
    use serde_json::{json, Value};

    const WALKTHROUGH: &str = include_str!("../../tests/golden/aws-walkthrough.json");

    fn notes(doc: &Value) -> Vec<String> {
        crate::run_digest(&doc.to_string(), DigestLimits::default())
            .expect("valid")
            .notes
    }

    fn walkthrough() -> Value {
        let mut v: Value = serde_json::from_str(WALKTHROUGH).unwrap();
        // The golden file carries its expected events beside the scenario.
        if let Some(s) = v.get("scenario") {
            v = s.clone();
        }
        v
    }

    // Issue #34 (fresh-eyes walk): capacity 1 on the AWS walkthrough left every job waiting
    // ("capacity in use") with no word on why.
    #[test]
    fn capacity_under_the_entitlements_is_said_with_the_reserve_that_takes_it() {
        let mut v = walkthrough();
        assert_eq!(notes(&v), Vec::<String>::new(), "every job starts as given");
        v["capacity"] = json!({"ml.g5.xlarge": 1});
        assert_eq!(
            notes(&v),
            ["Capacity of ml.g5.xlarge (1) is below what the shares are entitled to (3 instances), and the RESERVE share protected keeps 1 of it for its own jobs: 4 jobs waited to the end without starting."]
        );
    }

    #[test]
    fn a_job_larger_than_the_capacity_can_never_start() {
        let mut v = walkthrough();
        v["instance_types"] = json!([{"name": "ml.p4d.24xlarge"}, {"name": "ml.g5.xlarge"}]);
        v["capacity"] = json!({"ml.g5.xlarge": 3, "ml.p4d.24xlarge": 1});
        v["shares"][0]["limits"] = json!({"ml.g5.xlarge": 1, "ml.p4d.24xlarge": 1});
        let job = |id: &str, n: u64| {
            json!({"id": id, "share": "background", "instance_type": "ml.p4d.24xlarge",
                   "instances": n, "submit_s": 0, "work_s": 60})
        };
        v["jobs"].as_array_mut().unwrap().push(job("big-1", 4));
        assert_eq!(
            notes(&v),
            ["Capacity of ml.p4d.24xlarge (1) is below one job's 4 instances: that job can never start."]
        );
        v["jobs"].as_array_mut().unwrap().push(job("big-2", 8));
        assert_eq!(
            notes(&v),
            ["Capacity of ml.p4d.24xlarge (1) is below the 4–8 instances each of 2 jobs needs: those jobs can never start."]
        );
    }

    #[test]
    fn a_share_without_a_limit_for_the_type_is_unschedulable() {
        let mut v = walkthrough();
        v["instance_types"] = json!([{"name": "ml.p4d.24xlarge"}, {"name": "ml.g5.xlarge"}]);
        v["capacity"] = json!({"ml.g5.xlarge": 3, "ml.p4d.24xlarge": 2});
        v["shares"][0]["limits"] = json!({"ml.g5.xlarge": 1, "ml.p4d.24xlarge": 2});
        v["jobs"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "m-p4", "share": "medium",
            "instance_type": "ml.p4d.24xlarge", "submit_s": 0, "work_s": 60}));
        assert_eq!(
            notes(&v),
            ["medium has no limit for ml.p4d.24xlarge: its job of that type can never start (unschedulable)."]
        );
    }

    #[test]
    fn the_notes_end_with_the_instants_kueue_never_settles() {
        // oracle/kueue/testdata/unsettled/: Kueue's own cycles never settle at t=113 s.
        let doc: Value = serde_json::from_str(include_str!(
            "../../../../oracle/kueue/testdata/unsettled/random-1-9-jobs-20-60.json"
        ))
        .unwrap();
        let said = notes(&doc);
        let last = said.last().expect("a note");
        assert!(
            last.starts_with("Never settled: at ") && last.contains("(t=113 s, "),
            "{said:?}"
        );
        assert!(last.ends_with("went on."), "{last}");
        // A run that settles at every instant has no such note.
        assert!(notes(&walkthrough()).is_empty());
    }
}
