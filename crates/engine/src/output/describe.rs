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
    let mut out = format!(
        "{} share {}",
        count(teams, "team", "teams"),
        capacity_words(s)
    );
    if s.is_kueue() {
        out.push_str(
            " under the Kueue model (cohorts, lending limits and fair sharing decide who borrows)",
        );
    }
    let rules: Vec<String> = s
        .shares
        .iter()
        .take(NAMED_MAX)
        .map(|sh| share_rule(s, sh))
        .collect();
    if !rules.is_empty() && !s.is_kueue() {
        out.push_str(": ");
        out.push_str(&rules.join(", "));
        if teams > NAMED_MAX {
            out.push_str(&format!(", and {} more", teams - NAMED_MAX));
        }
    }
    out.push('.');
    let events = s.events.len();
    out.push_str(&format!(
        " {}",
        capitalise(&count(s.described_jobs(), "job", "jobs"))
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

/// One team's rule: "background lends and borrows up to 200%", "medium only lends",
/// "protected keeps its one instance".
fn share_rule(s: &Scenario, sh: &Share) -> String {
    let name = &sh.name;
    if !sh.enabled {
        return format!("{name} is switched off");
    }
    match sh.strategy {
        Strategy::Reserve => format!("{name} keeps its {}", entitlement_words(s, sh)),
        Strategy::Lend => format!("{name} only lends"),
        Strategy::LendAndBorrow => match sh.borrow_limit {
            BorrowLimit::Unlimited => format!("{name} lends and borrows without limit"),
            BorrowLimit::Percent(0) => format!("{name} lends (its borrow limit is 0%)"),
            BorrowLimit::Percent(p) => format!("{name} lends and borrows up to {p}%"),
        },
    }
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
        _ => format!("{n} {many}"),
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
