//! The scenario in plain words, for a reader who has never seen a quota share: who shares
//! what, and each team's rule for idle capacity ("3 teams share 3 ml.g5.xlarge: background
//! lends and borrows up to 200%, medium only lends, protected keeps its one instance"). The
//! playground shows it above the editor. It only reads a validated [`Scenario`]; the rules
//! it words are the ones SPEC 2 gives each strategy.

use crate::input::model::{BorrowLimit, Scenario, Share, Strategy};

/// At most this many teams are named; the rest are counted.
const NAMED_MAX: usize = 6;

/// One sentence (two with the workload) saying who shares what and how each team treats
/// idle capacity.
pub fn scenario_summary(s: &Scenario) -> String {
    let teams = s.shares.len();
    // The Kueue model's words (issue #34): ClusterQueues and workloads.
    let (team, jobs) = if s.is_kueue() {
        (("ClusterQueue", "ClusterQueues"), ("workload", "workloads"))
    } else {
        (("team", "teams"), ("job", "jobs"))
    };
    let mut out = format!(
        "{} share {}",
        count(teams, team.0, team.1),
        capacity_words(s)
    );
    if s.is_kueue() {
        out.push_str(
            " under the Kueue model (cohorts, lending limits and fair sharing decide who borrows)",
        );
    }
    let rules = grouped_rules(s, &s.shares[..teams.min(NAMED_MAX)]);
    if !rules.is_empty() && !s.is_kueue() {
        out.push_str(": ");
        out.push_str(&rules.join(", "));
        if teams > NAMED_MAX {
            out.push_str(&format!(
                ", and {}",
                super::numbers::more(teams - NAMED_MAX, "team")
            ));
        }
    }
    out.push('.');
    let events = s.events.len();
    out.push_str(&format!(
        " {}",
        capitalise(&count(s.described_jobs(), jobs.0, jobs.1))
    ));
    if events > 0 {
        out.push_str(&format!(
            ", {}",
            count(events, "timed event", "timed events")
        ));
    }
    out.push('.');
    out
}

/// "3 ml.g5.xlarge", "24 ml.g5.12xlarge and 8 ml.p4d.24xlarge" (types with no capacity are
/// left out).
fn capacity_words(s: &Scenario) -> String {
    let parts: Vec<String> = s
        .instance_types
        .iter()
        .zip(&s.capacity)
        .filter(|(_, &n)| n > 0)
        .map(|(t, n)| format!("{n} {}", t.name))
        .collect();
    if parts.is_empty() {
        "no instances".to_string()
    } else {
        join(&parts)
    }
}

/// The teams' rules, teams with the same rule named together in the order they first
/// appear: "a, b and c lend and borrow without limit, d only lends".
fn grouped_rules(s: &Scenario, shares: &[Share]) -> Vec<String> {
    // (rule for one, rule for several, the teams' names)
    let mut groups: Vec<(String, String, Vec<String>)> = Vec::new();
    for sh in shares {
        let (one, many) = share_rule(s, sh);
        match groups.iter_mut().find(|g| g.0 == one) {
            Some(g) => g.2.push(sh.name.clone()),
            None => groups.push((one, many, vec![sh.name.clone()])),
        }
    }
    groups
        .into_iter()
        .map(|(one, many, names)| match names.as_slice() {
            [name] => format!("{name} {one}"),
            _ => format!("{} {many}", join(&names)),
        })
        .collect()
}

/// One team's rule, said of one team and of several: "lends and borrows up to 200%", "only
/// lends", "keeps its one instance" ("lend and borrow up to 200%", ...).
fn share_rule(s: &Scenario, sh: &Share) -> (String, String) {
    let (one, many): (String, String) = if !sh.enabled {
        ("is switched off".into(), "are switched off".into())
    } else {
        match sh.strategy {
            Strategy::Reserve => {
                let owned = entitlement_words(s, sh);
                let each = owned
                    .strip_prefix("one ")
                    .map_or(owned.clone(), |rest| format!("1 {rest}"));
                (format!("keeps its {owned}"), format!("keep {each} each"))
            }
            Strategy::Lend => ("only lends".into(), "only lend".into()),
            Strategy::LendAndBorrow => match sh.borrow_limit {
                BorrowLimit::Unlimited => (
                    "lends and borrows without limit".into(),
                    "lend and borrow without limit".into(),
                ),
                BorrowLimit::Percent(0) => (
                    "lends (its borrow limit is 0%)".into(),
                    "lend (their borrow limits are 0%)".into(),
                ),
                BorrowLimit::Percent(p) => (
                    format!("lends and borrows up to {p}%"),
                    format!("lend and borrow up to {p}%"),
                ),
            },
        }
    };
    (one, many)
}

/// "one instance", "4 instances", "2 ml.g5.xlarge and 1 ml.p4d.24xlarge".
fn entitlement_words(s: &Scenario, sh: &Share) -> String {
    let owned: Vec<(usize, u64)> = sh
        .limits
        .iter()
        .enumerate()
        .filter_map(|(t, l)| l.filter(|&n| n > 0).map(|n| (t, n)))
        .collect();
    match owned.as_slice() {
        [] => "nothing (its limit is 0)".to_string(),
        [(_, 1)] => "one instance".to_string(),
        [(_, n)] => format!("{n} instances"),
        many => join(
            &many
                .iter()
                .map(|&(t, n)| {
                    let ty = s.instance_types.get(t).map_or("?", |i| i.name.as_str());
                    format!("{n} {ty}")
                })
                .collect::<Vec<_>>(),
        ),
    }
}

fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        _ => format!("{} {many}", crate::input::digits::group_digits(n as u64)),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        // ASCII only (no Unicode case tables in the page's wasm): other first letters stay.
        .map(|f| std::iter::once(f.to_ascii_uppercase()).chain(c).collect())
        .unwrap_or_default()
}

/// "a", "a and b", "a, b and c".
fn join(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::validate::load;

    const AWS: &str = include_str!("../../tests/golden/aws-walkthrough.json");

    fn summary(text: &str) -> String {
        scenario_summary(&load(text).expect("valid").scenario)
    }

    #[test]
    fn aws_walkthrough_in_plain_words() {
        assert_eq!(
            summary(AWS),
            "3 teams share 3 ml.g5.xlarge: background lends and borrows up to 200%, \
             medium only lends, protected keeps its one instance. 4 jobs, 1 timed event."
        );
    }

    #[test]
    fn unlimited_borrowing_and_several_instances() {
        let text = r#"{"format":"quotalab/v1","name":"x","capacity":{"ml.g5.xlarge":8},
            "shares":[{"name":"a","limits":{"ml.g5.xlarge":4},"strategy":"LEND_AND_BORROW","borrow_limit":-1},
                      {"name":"b","limits":{"ml.g5.xlarge":4},"strategy":"RESERVE"}],
            "jobs":[]}"#;
        assert_eq!(
            summary(text),
            "2 teams share 8 ml.g5.xlarge: a lends and borrows without limit, b keeps its 4 instances. 0 jobs."
        );
    }

    #[test]
    fn teams_with_the_same_rule_are_named_together() {
        let share = |n: &str, rule: &str| {
            format!(r#"{{"name":"{n}","limits":{{"ml.g5.xlarge":2}},{rule}}}"#)
        };
        let free = r#""strategy":"LEND_AND_BORROW","borrow_limit":-1"#;
        let keep = r#""strategy":"RESERVE""#;
        let shares = [
            share("a", free),
            share("b", r#""strategy":"LEND""#),
            share("c", free),
            share("d", keep),
            share("e", free),
            share("f", keep),
        ];
        let text = format!(
            r#"{{"format":"quotalab/v1","name":"x","capacity":{{"ml.g5.xlarge":12}},"shares":[{}],"jobs":[]}}"#,
            shares.join(",")
        );
        assert_eq!(
            summary(&text),
            "6 teams share 12 ml.g5.xlarge: a, c and e lend and borrow without limit, b only lends, \
             d and f keep 2 instances each. 0 jobs."
        );
    }

    #[test]
    fn joins_read_as_english() {
        let s = |v: &[&str]| join(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&[]), "");
        assert_eq!(s(&["a"]), "a");
        assert_eq!(s(&["a", "b"]), "a and b");
        assert_eq!(s(&["a", "b", "c"]), "a, b and c");
        assert_eq!(count(1, "job", "jobs"), "1 job");
        assert_eq!(capitalise("2 jobs"), "2 jobs");
    }
}

/// SPEC 12: one ClusterQueue's (or cohort's) settings in Kueue's own field names, for the
/// report and the page: `(field, value)` rows such as `("nominalQuota", "ml.g5.xlarge: 4")`.
#[derive(Clone, Debug, PartialEq)]
pub struct KueueSettings {
    /// The ClusterQueue's or cohort's name.
    pub name: String,
    /// Its path in the cohort tree (`root/research/team-a`).
    pub path: String,
    pub rows: Vec<(&'static str, String)>,
}

/// A per-type quantity list in Kueue's words: `ml.g5.xlarge: 4, ml.p4d.24xlarge: 1`; types
/// without a value are left out (`None` when none has one).
fn per_type(s: &Scenario, v: &[Option<u64>]) -> Option<String> {
    let parts: Vec<String> = v
        .iter()
        .enumerate()
        .filter_map(|(t, n)| Some(format!("{}: {}", s.instance_types.get(t)?.name, (*n)?)))
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A fair-sharing weight (thousandths) as written: `1`, `0.5`.
fn weight_words(w: crate::input::model::WeightMilli) -> String {
    if w.is_multiple_of(1000) {
        (w / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", w / 1000, w % 1000);
        s.trim_end_matches('0').to_string()
    }
}

/// SPEC 12: every ClusterQueue's settings in Kueue's field names (`cohort`,
/// `nominalQuota`, `borrowingLimit`, `lendingLimit`, `preemption`, `queueingStrategy`,
/// `fairSharing.weight`), in scenario order; empty for an AWS Batch scenario.
pub fn cluster_queue_settings(s: &Scenario) -> Vec<KueueSettings> {
    if !s.is_kueue() {
        return Vec::new();
    }
    s.shares
        .iter()
        .enumerate()
        .map(|(i, sh)| {
            let k = &sh.kueue;
            let mut rows = Vec::new();
            let cohort = k.cohort.and_then(|c| s.cohorts.get(c));
            rows.push((
                "cohort",
                cohort.map_or(
                    "none: it stands alone, neither lends nor borrows".to_string(),
                    |c| c.name.clone(),
                ),
            ));
            rows.push((
                "nominalQuota",
                per_type(s, &sh.limits).unwrap_or_else(|| "none".into()),
            ));
            if cohort.is_some() {
                rows.push((
                    "borrowingLimit",
                    per_type(s, &k.borrowing_limit)
                        .unwrap_or_else(|| "none: bounded by the cohort".into()),
                ));
                rows.push((
                    "lendingLimit",
                    per_type(s, &k.lending_limit)
                        .unwrap_or_else(|| "none: lends all of its quota".into()),
                ));
            }
            let p = &k.preemption;
            let mut pre = vec![
                format!("withinClusterQueue: {}", p.within_share.kueue_name()),
                format!("reclaimWithinCohort: {}", p.reclaim.kueue_name()),
            ];
            let b = &p.borrow_within_cohort;
            pre.push(match (b.lower_priority, b.max_priority_threshold) {
                (false, _) => "borrowWithinCohort: Never".to_string(),
                (true, None) => "borrowWithinCohort: LowerPriority".to_string(),
                (true, Some(t)) => {
                    format!("borrowWithinCohort: LowerPriority, maxPriorityThreshold {t}")
                }
            });
            rows.push(("preemption", pre.join(" · ")));
            rows.push((
                "queueingStrategy",
                match k.queueing {
                    crate::input::model::Queueing::BestEffortFifo => "BestEffortFIFO",
                    crate::input::model::Queueing::StrictFifo => "StrictFIFO",
                }
                .to_string(),
            ));
            if s.fair_sharing.is_some() {
                rows.push(("fairSharing.weight", weight_words(k.weight)));
            }
            KueueSettings {
                name: sh.name.clone(),
                path: crate::output::explain::cohort_path(s, i),
                rows,
            }
        })
        .collect()
}

/// SPEC 12: every cohort's own settings in Kueue's field names (`parent`, `nominalQuota`
/// it adds, `borrowingLimit`, `lendingLimit`, `fairSharing.weight`), in scenario order.
pub fn cohort_settings(s: &Scenario) -> Vec<KueueSettings> {
    s.cohorts
        .iter()
        .map(|c| {
            let mut rows = Vec::new();
            let parent = c.parent.and_then(|p| s.cohorts.get(p));
            rows.push((
                "parent",
                parent.map_or("none: a root".to_string(), |p| p.name.clone()),
            ));
            if let Some(q) = per_type(s, &c.limits) {
                rows.push(("nominalQuota", q));
            }
            if parent.is_some() {
                if let Some(b) = per_type(s, &c.borrowing_limit) {
                    rows.push(("borrowingLimit", b));
                }
                if let Some(l) = per_type(s, &c.lending_limit) {
                    rows.push(("lendingLimit", l));
                }
            }
            if s.fair_sharing.is_some() {
                rows.push(("fairSharing.weight", weight_words(c.weight)));
            }
            let mut parts = vec![c.name.as_str()];
            let mut at = c.parent;
            while let Some(p) = at {
                let Some(pc) = s.cohorts.get(p) else { break };
                parts.push(pc.name.as_str());
                at = pc.parent;
                if parts.len() > s.cohorts.len() {
                    break; // validation refuses cycles; never loop
                }
            }
            parts.reverse();
            KueueSettings {
                name: c.name.clone(),
                path: parts.join("/"),
                rows,
            }
        })
        .collect()
}

#[cfg(test)]
mod kueue_settings_tests {
    use super::*;

    #[test]
    fn cluster_queues_are_described_in_kueue_words() {
        let sc = crate::load(
            r#"{"model": "kueue", "instance_types": [{"name": "ml.g5.xlarge"}],
              "cohorts": [{"name": "root"}, {"name": "research", "parent": "root", "limits": {"ml.g5.xlarge": 2}, "weight": 0.5}],
              "fair_sharing": {},
              "shares": [
                {"name": "team-a", "cohort": "research", "limits": {"ml.g5.xlarge": 4},
                 "borrowing_limit": {"ml.g5.xlarge": 2},
                 "preemption": {"within_share": "lower_priority", "reclaim": "any",
                   "borrow_within_cohort": {"policy": "lower_priority", "max_priority_threshold": 5}}},
                {"name": "solo", "limits": {"ml.g5.xlarge": 1}, "queueing": "strict_fifo"}],
              "jobs": []}"#,
        )
        .unwrap()
        .scenario;
        // Issue #34: the first screen's sentence says ClusterQueues and workloads.
        assert_eq!(
            scenario_summary(&sc),
            "2 ClusterQueues share 7 ml.g5.xlarge under the Kueue model (cohorts, lending limits and fair sharing decide who borrows). 0 workloads."
        );
        let q = cluster_queue_settings(&sc);
        assert_eq!(q[0].path, "root/research/team-a");
        assert_eq!(
            q[0].rows,
            vec![
                ("cohort", "research".to_string()),
                ("nominalQuota", "ml.g5.xlarge: 4".to_string()),
                ("borrowingLimit", "ml.g5.xlarge: 2".to_string()),
                ("lendingLimit", "none: lends all of its quota".to_string()),
                ("preemption", "withinClusterQueue: LowerPriority · reclaimWithinCohort: Any · borrowWithinCohort: LowerPriority, maxPriorityThreshold 5".to_string()),
                ("queueingStrategy", "BestEffortFIFO".to_string()),
                ("fairSharing.weight", "1".to_string()),
            ]
        );
        assert_eq!(
            q[1].rows[0].1,
            "none: it stands alone, neither lends nor borrows"
        );
        assert_eq!(q[1].rows.len(), 5, "no borrowing or lending limit alone");
        let c = cohort_settings(&sc);
        assert_eq!(c[1].path, "root/research");
        assert_eq!(
            c[1].rows,
            vec![
                ("parent", "root".to_string()),
                ("nominalQuota", "ml.g5.xlarge: 2".to_string()),
                ("fairSharing.weight", "0.5".to_string()),
            ]
        );
    }
}
