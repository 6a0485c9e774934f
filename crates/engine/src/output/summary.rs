//! The summary table (`quotasim run --summary`): one aligned row per share and a total.

use std::fmt::Write as _;

use crate::input::model::Ms;
use crate::simulation::Finished;

use super::stats::{stats, Percentiles, Stats, MS_PER_HOUR};

pub(crate) fn human_secs(s: f64) -> String {
    if s >= 86_400.0 {
        format!("{:.1}d", s / 86_400.0)
    } else if s >= 3_600.0 {
        format!("{:.1}h", s / 3_600.0)
    } else if s >= 60.0 {
        format!("{:.1}m", s / 60.0)
    } else {
        format!("{s:.0}s")
    }
}

/// A percentile cell: "-" when the set is empty.
pub(crate) fn pct(p: &Percentiles, x: f64) -> String {
    if p.n == 0 {
        "-".to_string()
    } else {
        human_secs(x)
    }
}

/// Instance-hours: one decimal in big runs, two in small ones.
pub(crate) fn hrs(h: f64, big: bool) -> String {
    if big {
        format!("{h:.1}")
    } else {
        format!("{h:.2}")
    }
}

/// A table row: the first cell left-aligned, the others right-aligned, each in its
/// column's width, two spaces apart; no trailing spaces.
fn aligned(row: &[String], widths: &[usize]) -> String {
    let mut line = String::new();
    for (c, cell) in row.iter().enumerate() {
        if c == 0 {
            let _ = write!(line, "{cell:<w$}", w = widths[c]);
        } else {
            let _ = write!(line, "  {cell:>w$}", w = widths[c]);
        }
    }
    line.trim_end().to_string()
}

/// The `--summary` table: one aligned row per share, then the totals.
pub fn summary_table(sim: &Finished) -> String {
    let sc = sim.scenario();
    let (shares, total) = stats(sim);
    let big = total.time.held as f64 / MS_PER_HOUR >= 100.0;
    // The Kueue model's two more causes of preemption (SPEC 12), after in-share.
    let kueue = sc.is_kueue();
    let mut head = vec![
        "share",
        "jobs",
        "done",
        "failed",
        "unfin",
        "p50 compl",
        "p90 compl",
        "p50 wait",
        "reclaim",
        "in-share",
        "own h",
        "borrow h",
        "lent h",
        "held h",
        "lost h",
        "goodput",
        "cost $",
    ];
    if kueue {
        // Kueue's own name for preemption inside a queue (AWS: in-share).
        head[9] = "withinClusterQueue";
        head.splice(10..10, ["borrowing", "fair share"]);
    }
    let row = |name: &str, s: &Stats| -> Vec<String> {
        let t = &s.time;
        let mut cells = vec![
            name.to_string(),
            s.jobs.submitted.to_string(),
            s.jobs.succeeded.to_string(),
            s.jobs.failed.to_string(),
            s.jobs.unfinished.to_string(),
            pct(&s.completion, s.completion.p50),
            pct(&s.completion, s.completion.p90),
            pct(&s.wait, s.wait.p50),
            s.reclaim.to_string(),
            s.in_share.to_string(),
            hrs(t.own as f64 / MS_PER_HOUR, big),
            hrs(t.borrowed as f64 / MS_PER_HOUR, big),
            hrs(t.lent / MS_PER_HOUR, big),
            hrs(t.held as f64 / MS_PER_HOUR, big),
            hrs(t.lost as f64 / MS_PER_HOUR, big),
            if t.held == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", s.goodput() * 100.0)
            },
            if s.cost_usd < 100.0 {
                format!("{:.2}", s.cost_usd)
            } else {
                format!("{:.0}", s.cost_usd)
            },
        ];
        if kueue {
            cells.splice(
                10..10,
                [
                    s.reclaim_while_borrowing.to_string(),
                    s.fair_sharing.to_string(),
                ],
            );
        }
        cells
    };
    let mut rows: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
    for (i, s) in shares.iter().enumerate() {
        rows.push(row(&sc.shares[i].name, s));
    }
    rows.push(row("TOTAL", &total));
    let widths: Vec<usize> = (0..head.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    let title = if sc.name.is_empty() {
        "scenario".to_string()
    } else {
        sc.name.clone()
    };
    let _ = writeln!(
        out,
        "{title}: {} jobs, {} shares, simulated to {} ({} events)",
        total.jobs.submitted,
        sc.shares.len(),
        human_secs(sim.end() as f64 / 1000.0),
        sim.event_count()
    );
    for (i, r) in rows.iter().enumerate() {
        out.push_str(&aligned(r, &widths));
        out.push('\n');
        if i == 0 || i == rows.len() - 2 {
            out.push_str(&"-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1)));
            out.push('\n');
        }
    }
    // First under the table: every number in it is of the run up to there.
    out.push_str(&circle_line(sim.circle()));
    out.push_str(
        "compl = completion time (end - submit) of succeeded jobs; wait = first start - submit; \
         h = instance-hours (own/borrow: quota of admitted jobs; lent: idle entitlement others borrowed; held: instances actually held)\n",
    );
    if kueue {
        out.push_str(
            "preemptions: reclaim = of a borrower by its lender; borrowing = by a job of another ClusterQueue while it borrows (borrowWithinCohort); fair share = by fair sharing\n",
        );
        out.push_str(&waits_line(&total));
        out.push_str(&unsettled_line(sim.kueue_unsettled()));
    }
    if sc.contract {
        recovery_table(sc, &shares, &total, big, &mut out);
    }
    out
}

/// SPEC 12.1: how often a Kueue preemptor waited for its victims, and how often the quota
/// they freed went to another workload first (the thrash of kueue#13797).
fn waits_line(total: &Stats) -> String {
    match (total.preemptor_waits, total.quota_taken_while_waiting) {
        (0, _) => "waits: no preemptor waited for its victims\n".to_string(),
        (1, taken) => format!(
            "waits: a preemptor waited for its victims once; {}\n",
            if taken == 0 {
                "it got the quota they freed"
            } else {
                "another workload took the quota they freed first"
            }
        ),
        (waits, 0) => format!(
            "waits: preemptors waited for their victims {waits} times; each got the quota they freed\n"
        ),
        (waits, taken) => format!(
            "waits: preemptors waited for their victims {waits} times; in {taken} another workload took the quota they freed first\n"
        ),
    }
}

/// SPEC 6, bounded: a run that stopped because its preemptions turn in a circle (the
/// result's `"stopped"`): the summary's line, right under the table, since every number in
/// it is of the run up to there.
fn circle_line(circle: Option<(Ms, Ms)>) -> String {
    line_of("stopped", circle_sentence(circle))
}

/// The page's note on the same stop ([`super::digest::Digest::notes`]).
pub fn circle_note(circle: Option<(Ms, Ms)>) -> Option<String> {
    note_of("Stopped", circle_sentence(circle))
}

/// SPEC 12.1: the instants at which Kueue's cycles would never settle (nothing in nearly
/// every run): the summary's line.
fn unsettled_line(instants: &[Ms]) -> String {
    line_of("never settled", unsettled_sentence(instants))
}

/// The page's note on the same instants ([`super::digest::Digest::notes`]).
pub fn unsettled_note(instants: &[Ms]) -> Option<String> {
    note_of("Never settled", unsettled_sentence(instants))
}

/// A sentence as a line of the summary, `label: sentence` (nothing without one).
fn line_of(label: &str, sentence: Option<String>) -> String {
    sentence
        .map(|s| format!("{label}: {s}\n"))
        .unwrap_or_default()
}

/// A sentence as one of the page's notes, `Label: sentence.`
fn note_of(label: &str, sentence: Option<String>) -> Option<String> {
    sentence.map(|s| format!("{label}: {s}."))
}

/// A run that stopped in a preemption circle, in words: when its state came back, to
/// which earlier instant's, and what the run did (`None`: it did not).
fn circle_sentence(circle: Option<(Ms, Ms)>) -> Option<String> {
    let (first, again) = circle?;
    Some(format!(
        "at t={} s the run was back in its state of t={} s, its preemptions turning in a circle every {} s with no job able to finish, so it stopped there, as at a horizon; the numbers are of the run up to then",
        super::numbers::secs(again),
        super::numbers::secs(first),
        super::numbers::secs(again - first)
    ))
}

/// The instants at which Kueue's cycles would never settle, in words: the first three and
/// how many in all, and what the run did. `None` when there are none.
fn unsettled_sentence(instants: &[Ms]) -> Option<String> {
    if instants.is_empty() {
        return None;
    }
    let shown: Vec<String> = instants
        .iter()
        .take(3)
        .map(|&t| format!("t={} s", super::numbers::secs(t)))
        .collect();
    let when = match instants.len() {
        n if n <= 3 => format!("at {}", shown.join(", ")),
        n => format!("at {} instants ({}, ...)", n, shown.join(", ")),
    };
    Some(format!(
        "{when} Kueue's scheduling cycles would go on for ever (a preemptor evicts a job that is admitted again before it, and so on); the run cut each such instant off and went on"
    ))
}

/// SPEC 14: the recovery table, only for scenarios that use the interruption contract.
fn recovery_table(
    sc: &crate::input::model::Scenario,
    shares: &[Stats],
    total: &Stats,
    big: bool,
    out: &mut String,
) {
    let head = [
        "share",
        "interr",
        "restores",
        "failed",
        "invalid",
        "exhausted",
        "resub",
        "alarms",
        "p50 wait*",
        "restart h",
        "useful h",
        "on borrow h",
        "success",
        "overrides",
    ];
    let rate = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{:.1}%", x * 100.0));
    let row = |name: &str, s: &Stats| -> Vec<String> {
        let r = &s.recovery;
        let c = &r.counts;
        vec![
            name.to_string(),
            c.interruptions.to_string(),
            c.restores.to_string(),
            c.restore_failures.to_string(),
            c.invalid_resumes.to_string(),
            c.retries_exhausted.to_string(),
            c.resubmitted.to_string(),
            c.alarms.to_string(),
            pct(&r.wait_after_interruption, r.wait_after_interruption.p50),
            hrs(s.time.restart as f64 / MS_PER_HOUR, big),
            hrs(s.time.useful as f64 / MS_PER_HOUR, big),
            hrs(s.time.useful_borrowed as f64 / MS_PER_HOUR, big),
            rate(r.success_rate(s.jobs.succeeded)),
            c.priority_overrides.to_string(),
        ]
    };
    let mut rows: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
    for (i, s) in shares.iter().enumerate() {
        rows.push(row(&sc.shares[i].name, s));
    }
    rows.push(row("TOTAL", total));
    let widths: Vec<usize> = (0..head.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    out.push_str("\nrecovery (SPEC 14)\n");
    for r in &rows {
        out.push_str(&aligned(r, &widths));
        out.push('\n');
    }
    out.push_str(
        "interr = preemptions of started jobs; failed/invalid = restores that failed / resumes found corrupt; \
         exhausted/resub = jobs out of retries / resubmitted elsewhere; wait* = requeue to next start; \
         on borrow h = useful work done in borrowed runs; overrides = set_priority events\n",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waits(waits: u64, taken: u64) -> String {
        waits_line(&Stats {
            preemptor_waits: waits,
            quota_taken_while_waiting: taken,
            ..Stats::default()
        })
    }

    #[test]
    fn a_run_stopped_in_a_circle_says_so_only_when_it_did() {
        assert_eq!(circle_line(None), "");
        assert_eq!(circle_note(None), None);
        assert_eq!(
            circle_line(Some((5_000, 27_500))),
            "stopped: at t=27.5 s the run was back in its state of t=5 s, its preemptions turning in a circle every 22.5 s with no job able to finish, so it stopped there, as at a horizon; the numbers are of the run up to then\n"
        );
        assert!(circle_note(Some((5_000, 27_500)))
            .unwrap()
            .starts_with("Stopped: at t=27.5 s the run was back"));
    }

    #[test]
    fn instants_that_never_settle_are_named_only_when_there_are_some() {
        assert_eq!(unsettled_line(&[]), "");
        let one = unsettled_line(&[113_000]);
        assert!(
            one.starts_with("never settled: at t=113 s Kueue's"),
            "{one}"
        );
        let many = unsettled_line(&[113_000, 148_000, 149_000, 150_000]);
        assert!(
            many.starts_with(
                "never settled: at 4 instants (t=113 s, t=148 s, t=149 s, ...) Kueue's"
            ),
            "{many}"
        );
    }

    #[test]
    fn the_waits_line_says_each_case_in_words() {
        assert_eq!(waits(0, 0), "waits: no preemptor waited for its victims\n");
        assert_eq!(
            waits(1, 0),
            "waits: a preemptor waited for its victims once; it got the quota they freed\n"
        );
        assert_eq!(
            waits(1, 1),
            "waits: a preemptor waited for its victims once; another workload took the quota they freed first\n"
        );
        assert_eq!(
            waits(20, 0),
            "waits: preemptors waited for their victims 20 times; each got the quota they freed\n"
        );
        assert_eq!(
            waits(121, 2),
            "waits: preemptors waited for their victims 121 times; in 2 another workload took the quota they freed first\n"
        );
    }
}
