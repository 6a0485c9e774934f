//! SPEC 14 "The interruption contract", as one card per share: the four questions borrowed
//! capacity raises (can it recover, who answers for a failure, does the forecast assume
//! continuous access, what happens on repeated yields), each answered with this run's
//! numbers, already worded, and a one-line verdict where the numbers say something.
//!
//! The page (`src/results/contract.rs`) and the HTML report both render this model; neither
//! words or computes anything of its own. It only reads a finished run's [`Digest`] and,
//! when it has been computed, the share's [`ShareForecast`] (the partitioned variant, SPEC 9).

use crate::analysis::compare::{Completion, ShareForecast};
use crate::analysis::verdict::Unit;
use crate::input::model::Agreement;
use crate::output::digest::{ContractEventKind, Digest, Label, ShareContract, State};

/// The four questions of SPEC 14, in the order a card asks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    Recover,
    Responsible,
    Forecast,
    RepeatedYields,
}

impl Question {
    pub const ALL: [Question; 4] = [
        Question::Recover,
        Question::Responsible,
        Question::Forecast,
        Question::RepeatedYields,
    ];

    /// The question as the card asks it.
    pub fn title(self) -> &'static str {
        match self {
            Question::Recover => "Can it recover?",
            Question::Responsible => "Who answers for a failure?",
            Question::Forecast => "Does the forecast assume continuous access?",
            Question::RepeatedYields => "What happens on repeated yields?",
        }
    }

    /// A stable key (`data-question` in the page and the report).
    pub fn key(self) -> &'static str {
        match self {
            Question::Recover => "recover",
            Question::Responsible => "responsible",
            Question::Forecast => "forecast",
            Question::RepeatedYields => "repeated-yields",
        }
    }
}

/// How a verdict reads: fine, a caution, or a problem the numbers show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tone {
    Good,
    Caution,
    Bad,
}

impl Tone {
    /// A stable key (a CSS class suffix: `tone-good`, ...).
    pub fn key(self) -> &'static str {
        match self {
            Tone::Good => "good",
            Tone::Caution => "caution",
            Tone::Bad => "bad",
        }
    }
}

/// One line of an answer: what is measured and its value in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub label: &'static str,
    pub value: String,
}

/// One question's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub question: Question,
    pub rows: Vec<Row>,
    /// What the numbers say, when they say something.
    pub verdict: Option<(Tone, String)>,
}

/// The card of one share.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// The share's index (scenario order) and name.
    pub share: usize,
    pub name: String,
    /// The share's `agreement`, exactly as written (plain text, never HTML).
    pub agreement: Option<Agreement>,
    /// The four answers, in [`Question::ALL`] order.
    pub answers: Vec<Answer>,
    /// The forecast was not given: its answer waits for the partitioned run.
    pub forecast_pending: bool,
}

/// What the card says of a share without an agreement.
pub const NO_AGREEMENT: &str = "No agreement is written for this share.";

/// The fields of an agreement that are written, labelled, in SPEC 14's order; the text
/// exactly as written (to be shown as text, never as HTML).
pub fn agreement_rows(a: &Agreement) -> Vec<Row> {
    [
        ("Owner", &a.owner),
        ("Rationale", &a.rationale),
        ("Interruption contract", &a.interruption_contract),
        ("Review by", &a.review_by),
    ]
    .into_iter()
    .filter_map(|(label, v)| v.as_ref().map(|v| row(label, v.clone())))
    .collect()
}

/// What the forecast's answer says before the partitioned run is ready.
pub const FORECAST_PENDING: &str = "forecast…";

/// The cards of every share of `d`, in scenario order; `forecast` is
/// `compare::run`'s (SPEC 9.1: over the matched jobs), `None` while it is not
/// computed.
pub fn cards(d: &Digest, forecast: Option<&[ShareForecast]>) -> Vec<Card> {
    cards_labelled(d, None, forecast)
}

/// The cards of `d` as the run of a scenario that simulates the same with `label`'s
/// agreements ([`Digest::apply`]: the page shows a relabelled run without copying its
/// digest); `None`: `d`'s own.
pub fn cards_labelled(
    d: &Digest,
    label: Option<&Label>,
    forecast: Option<&[ShareForecast]>,
) -> Vec<Card> {
    (0..d.shares.len())
        .map(|i| {
            let mut c = d.contract.shares.get(i).cloned().unwrap_or_default();
            if let Some(l) = label {
                c.agreement = l.agreements.get(i).cloned().flatten();
            }
            card_of(d, i, &c, forecast.and_then(|f| f.get(i)))
        })
        .collect()
}

/// The card of share `share` of `d`.
pub fn card(d: &Digest, share: usize, forecast: Option<&ShareForecast>) -> Card {
    let empty = ShareContract::default();
    card_of(
        d,
        share,
        d.contract.shares.get(share).unwrap_or(&empty),
        forecast,
    )
}

/// The card of share `share` of `d`, whose contract results are `c`.
fn card_of(d: &Digest, share: usize, c: &ShareContract, forecast: Option<&ShareForecast>) -> Card {
    let name = d
        .shares
        .get(share)
        .map(|m| m.name.clone())
        .unwrap_or_default();
    Card {
        share,
        name,
        agreement: c.agreement.clone(),
        answers: vec![
            recover(c),
            responsible(c),
            forecast_answer(d, share, c, forecast),
            repeated_yields(d, share, c),
        ],
        forecast_pending: forecast.is_none(),
    }
}

// ---- words -------------------------------------------------------------------------------

/// `1 restore`, `3 restores`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A duration as the page writes it everywhere ([`crate::output::numbers::duration`]):
/// `45 s`, `5.0 min`, `13 min`, `4.1 h`.
pub fn duration(s: f64) -> String {
    crate::output::numbers::duration(s)
}

/// Instance-hours: `1.2 h`, `0.05 h`, `0 h`.
fn hours(h: f64) -> String {
    if h == 0.0 {
        "0 h".into()
    } else if h < 0.1 {
        format!("{h:.2} h")
    } else {
        format!("{h:.1} h")
    }
}

/// A ratio as a whole percentage that never rounds to 0% or 100% when it is not.
fn percent(x: f64) -> String {
    let whole = (x * 100.0).round();
    if x > 0.0 && whole < 1.0 {
        "<1%".into()
    } else if x < 1.0 && whole > 99.0 {
        ">99%".into()
    } else {
        format!("{whole:.0}%")
    }
}

fn row(label: &'static str, value: String) -> Row {
    Row { label, value }
}

// ---- the four answers ----------------------------------------------------------------------

fn recover(c: &ShareContract) -> Answer {
    let restores = if c.restores == 0 {
        "no restore from a checkpoint".to_string()
    } else {
        format!(
            "{}, {} failed",
            count(c.restores, "restore", "restores"),
            c.restore_failures
        )
    };
    let rows = vec![
        row(
            "Interruptions",
            count(c.interruptions, "interruption", "interruptions"),
        ),
        row("Restores", restores),
        row(
            "Invalid resumes",
            if c.invalid_resumes == 0 {
                "none".into()
            } else {
                format!(
                    "{}, found at completion",
                    count(c.invalid_resumes, "invalid resume", "invalid resumes")
                )
            },
        ),
        row(
            "Recomputed",
            format!(
                "{} recomputed, {} restarting",
                hours(c.recomputed_h),
                hours(c.restart_h)
            ),
        ),
    ];
    let broken = c.restore_failures + c.invalid_resumes;
    let verdict = if broken > 0 {
        Some((
            Tone::Bad,
            format!(
                "Recovery is not free: {} and {} of work done again.",
                count(broken, "recovery failed", "recoveries failed"),
                hours(c.recomputed_h)
            ),
        ))
    } else if c.interruptions == 0 {
        Some((
            Tone::Good,
            "Never interrupted in this run: recovery was not put to the test.".to_string(),
        ))
    } else if c.restores == 0 && c.recomputed_h > 0.0 {
        Some((
            Tone::Caution,
            "No checkpoint restored: every interruption started over from zero.".to_string(),
        ))
    } else if c.restores > 0 {
        Some((Tone::Good, "Every restore worked.".to_string()))
    } else {
        None
    };
    Answer {
        question: Question::Recover,
        rows,
        verdict,
    }
}

/// Failures someone must answer for: failed recoveries and jobs failed at their retry limit.
fn failures(c: &ShareContract) -> u64 {
    c.restore_failures + c.invalid_resumes + c.retries_exhausted.saturating_sub(c.resubmitted)
}

fn text(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn responsible(c: &ShareContract) -> Answer {
    let a = c.agreement.as_ref();
    let owner = a.and_then(|a| text(&a.owner));
    let rows = vec![
        row(
            "Owner",
            match (a, owner) {
                (_, Some(o)) => o.to_string(),
                (Some(_), None) => "the agreement names no owner".into(),
                (None, None) => "no agreement: nobody is named".into(),
            },
        ),
        row(
            "Review",
            match a.and_then(|a| text(&a.review_by)) {
                Some(r) => r.to_string(),
                None => "no review date".into(),
            },
        ),
    ];
    let n = failures(c);
    let verdict = match (owner, n) {
        (None, 0) => None,
        (None, n) => Some((
            Tone::Bad,
            format!(
                "{} and nobody answers for them.",
                count(n, "failure", "failures")
            ),
        )),
        (Some(o), 0) => Some((
            Tone::Good,
            format!("{o} answers; no failure to answer for."),
        )),
        (Some(o), n) => Some((
            Tone::Caution,
            format!("{o} answers for {}.", count(n, "failure", "failures")),
        )),
    };
    Answer {
        question: Question::Responsible,
        rows,
        verdict,
    }
}

/// `4.1 h on its allocation alone, 2.0 h as given` (the row names the percentile).
/// "80.0 min on its allocation alone, 85.0 min as given": both in one unit.
fn completion_row(alone: &Completion, given: &Completion, p90: bool) -> String {
    let pick = |c: &Completion| if p90 { c.p90_s } else { c.p50_s };
    let scale = Unit::Seconds.scale_for(&[pick(alone), pick(given)]);
    let v = |c: &Completion| {
        if c.n == 0 {
            "no job finished".to_string()
        } else {
            scale.show(pick(c))
        }
    };
    format!(
        "{} on its allocation alone, {} as given",
        v(alone),
        v(given)
    )
}

fn forecast_answer(
    d: &Digest,
    share: usize,
    c: &ShareContract,
    f: Option<&ShareForecast>,
) -> Answer {
    // The part of useful work done on borrowed capacity comes from this run alone.
    let borrowed = (c.useful_h > 0.0).then(|| c.useful_borrowed_h / c.useful_h);
    let borrowed_row = row(
        "On borrowed capacity",
        match borrowed {
            // SPEC 14: a run started while borrowing counts whole (own and borrowed
            // instance-hours split by the instant, so the two can read apart).
            Some(x) => format!(
                "{} of useful work done in runs that started on borrowed capacity",
                percent(x)
            ),
            None => "no useful work".into(),
        },
    );
    let Some(f) = f else {
        let given = d.shares.get(share).map(|m| &m.completion_s);
        let given = given.map_or("no job finished".to_string(), |p| {
            if p.n == 0 {
                "no job finished".into()
            } else {
                format!("p50 {}, p90 {}", duration(p.p50), duration(p.p90))
            }
        });
        return Answer {
            question: Question::Forecast,
            rows: vec![
                row("Completion as given", given),
                row("On its allocation alone", FORECAST_PENDING.into()),
                borrowed_row,
            ],
            verdict: None,
        };
    };
    // Over the matched jobs; when none matched (nothing succeeded on its allocation alone),
    // as given over its own successes.
    let (alone, given) = (
        &f.allocation_alone,
        if f.allocation_alone.n == 0 {
            &f.as_given_all
        } else {
            &f.as_given
        },
    );
    let mut rows = vec![
        row("Completion p50", completion_row(alone, given, false)),
        row("Completion p90", completion_row(alone, given, true)),
        row(
            "Jobs compared",
            format!(
                "{} that succeeded under all three policies ({} on its allocation alone, {} as given)",
                alone.n, f.succeeded_alone, f.succeeded_given
            ),
        ),
        borrowed_row,
    ];
    if let Some(x) = c.deadline_met_rate {
        rows.push(row(
            "Deadlines",
            format!("{} of deadlines met as given", percent(x)),
        ));
    }
    if let Some(why) = &f.why {
        rows.push(row("Why they differ", why.clone()));
    }
    let borrowed_none = borrowed.is_none_or(|x| x == 0.0);
    let verdict = if f.why.is_none() {
        Some((
            Tone::Good,
            "Nothing was lent to it or borrowed by it that changed its run: as given is its allocation alone."
                .to_string(),
        ))
    } else if f.succeeded_alone < f.succeeded_given {
        Some((
            Tone::Bad,
            format!(
                "The forecast assumes borrowing: on its allocation alone {} jobs finish, {} as given.",
                f.succeeded_alone, f.succeeded_given
            ),
        ))
    } else if given.n > 0 && alone.p90_s > given.p90_s * 1.1 {
        Some((
            Tone::Caution,
            format!(
                "The forecast assumes continuous access: on its allocation alone p90 is {:.1}× as long.",
                alone.p90_s / given.p90_s.max(1e-9)
            ),
        ))
    } else if borrowed_none {
        Some((
            Tone::Good,
            "No useful work ran on borrowed capacity: the forecast needs only its allocation."
                .to_string(),
        ))
    } else {
        Some((
            Tone::Good,
            "Borrowing sped it up, but its allocation alone meets the same forecast.".to_string(),
        ))
    };
    Answer {
        question: Question::Forecast,
        rows,
        verdict,
    }
}

fn repeated_yields(d: &Digest, share: usize, c: &ShareContract) -> Answer {
    // Where the resubmitted jobs went, and how they ended there.
    let mut moved: Vec<(u16, u64, u64)> = Vec::new();
    let mut alarm_at = None;
    for e in &d.contract.events {
        match e.kind {
            ContractEventKind::Resubmit if e.from_share == Some(share as u16) => {
                let ok = e
                    .job
                    .and_then(|j| d.jobs.get(j as usize))
                    .is_some_and(|j| j.state == State::Succeeded);
                match moved.iter_mut().find(|m| m.0 == e.share) {
                    Some(m) => {
                        m.1 += 1;
                        m.2 += u64::from(ok);
                    }
                    None => moved.push((e.share, 1, u64::from(ok))),
                }
            }
            ContractEventKind::Alarm if usize::from(e.share) == share => {
                alarm_at = alarm_at.or(e.preemptions)
            }
            _ => {}
        }
    }
    let failed = c.retries_exhausted.saturating_sub(c.resubmitted);
    let mut fate: Vec<String> = moved
        .iter()
        .map(|&(to, n, ok)| {
            let to = d
                .shares
                .get(usize::from(to))
                .map_or("", |m| m.name.as_str());
            format!("{n} resubmitted to {to} ({ok} succeeded)")
        })
        .collect();
    if c.resubmitted > moved.iter().map(|m| m.1).sum::<u64>() {
        fate.push(format!("{} resubmitted", c.resubmitted));
    }
    if failed > 0 {
        fate.push(format!("{failed} failed"));
    }
    let mut rows = vec![
        row(
            "Alarms",
            match (c.alarms, alarm_at) {
                (0, _) => "no alarm".into(),
                (n, Some(k)) => {
                    format!("{}: jobs preempted {k} times", count(n, "alarm", "alarms"))
                }
                (n, None) => count(n, "alarm", "alarms"),
            },
        ),
        row(
            "Retry limit",
            if c.retries_exhausted == 0 {
                "no job hit its retry limit".into()
            } else {
                format!(
                    "{} hit the retry limit: {}",
                    count(c.retries_exhausted, "job", "jobs"),
                    fate.join(", ")
                )
            },
        ),
        row(
            "Back to work",
            if c.wait_after_interruption_s.n == 0 {
                "no requeue after an interruption".into()
            } else {
                format!(
                    "p90 {} from requeue to restart",
                    duration(c.wait_after_interruption_s.p90)
                )
            },
        ),
    ];
    if c.priority_overrides > 0 {
        rows.push(row(
            "Priority changes",
            format!(
                "{}, {} raised",
                count(
                    c.priority_overrides,
                    "priority override",
                    "priority overrides"
                ),
                count(c.priority_raised, "job", "jobs")
            ),
        ));
    }
    let verdict = if failed > 0 {
        Some((
            Tone::Bad,
            format!(
                "{} failed after yielding too often.",
                count(failed, "job", "jobs")
            ),
        ))
    } else if c.resubmitted > 0 {
        Some((
            Tone::Caution,
            format!(
                "{} moved to another share after its retry limit.",
                count(c.resubmitted, "job", "jobs")
            ),
        ))
    } else if c.alarms > 0 {
        Some((
            Tone::Caution,
            format!(
                "{} raised: the same jobs keep yielding.",
                count(c.alarms, "alarm", "alarms")
            ),
        ))
    } else if c.priority_raised > 0 {
        Some((
            Tone::Caution,
            format!(
                "{} raised {} priority: when every job is urgent, priority orders nothing.",
                count(c.priority_raised, "job", "jobs"),
                if c.priority_raised == 1 {
                    "its"
                } else {
                    "their"
                }
            ),
        ))
    } else {
        None
    };
    Answer {
        question: Question::RepeatedYields,
        rows,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare::{self, Policy};
    use crate::output::digest::DigestLimits;
    use crate::pipeline::Product;

    fn digests(text: &str) -> (Digest, Vec<ShareForecast>) {
        let c = compare::run(text, Product::Digest(DigestLimits::default())).unwrap();
        let f = c.forecast;
        let given = c.runs.into_iter().find(|(p, _)| *p == Policy::AsGiven);
        (given.unwrap().1.into_digest().unwrap(), f)
    }

    fn value<'a>(c: &'a Card, q: Question, label: &str) -> &'a str {
        let a = c.answers.iter().find(|a| a.question == q).unwrap();
        &a.rows.iter().find(|r| r.label == label).unwrap().value
    }

    fn verdict(c: &Card, q: Question) -> Option<(Tone, &str)> {
        let a = c.answers.iter().find(|a| a.question == q).unwrap();
        a.verdict.as_ref().map(|(t, s)| (*t, s.as_str()))
    }

    /// The golden `contract-restore-failure`: b borrows, is reclaimed, its restore fails.
    const RESTORE_FAILURE: &str = include_str!("../../tests/golden/contract-restore-failure.json");

    #[test]
    fn restore_failure_card() {
        let (d, f) = digests(RESTORE_FAILURE);
        let cards = cards(&d, Some(&f));
        assert_eq!(cards.len(), 2);
        let b = &cards[1];
        assert_eq!(b.name, "b");
        assert!(!b.forecast_pending);
        let qs: Vec<Question> = b.answers.iter().map(|a| a.question).collect();
        assert_eq!(qs, Question::ALL);
        assert_eq!(
            value(b, Question::Recover, "Restores"),
            "1 restore, 1 failed"
        );
        assert_eq!(
            value(b, Question::Recover, "Interruptions"),
            "1 interruption"
        );
        // lost 270 s = 0.075 h; restart 30 s.
        assert_eq!(
            value(b, Question::Recover, "Recomputed"),
            "0.07 h recomputed, 0.01 h restarting"
        );
        assert_eq!(verdict(b, Question::Recover).unwrap().0, Tone::Bad);
        assert_eq!(
            value(b, Question::Responsible, "Owner"),
            "no agreement: nobody is named"
        );
        assert_eq!(
            verdict(b, Question::Responsible),
            Some((Tone::Bad, "1 failure and nobody answers for them."))
        );
        // b has no allocation of its own: alone, nothing finishes.
        assert_eq!(
            value(b, Question::Forecast, "Completion p90"),
            "no job finished on its allocation alone, 25 min as given"
        );
        assert_eq!(verdict(b, Question::Forecast).unwrap().0, Tone::Bad);
        let on_borrowed = value(b, Question::Forecast, "On borrowed capacity");
        assert!(
            on_borrowed.ends_with("of useful work done in runs that started on borrowed capacity"),
            "{on_borrowed}"
        );
        assert_eq!(value(b, Question::RepeatedYields, "Alarms"), "no alarm");
        // a is never interrupted.
        assert_eq!(verdict(&cards[0], Question::Recover).unwrap().0, Tone::Good);
    }

    #[test]
    fn pending_forecast_and_agreement() {
        let text = RESTORE_FAILURE.replace(
            "\"strategy\": \"LEND_AND_BORROW\"",
            "\"agreement\": {\"owner\": \"Team B lead\", \"review_by\": \"2027-01\"}, \"strategy\": \"LEND_AND_BORROW\"",
        );
        let d = crate::run_digest(&text, DigestLimits::default()).unwrap();
        let b = card(&d, 1, None);
        assert!(b.forecast_pending);
        assert_eq!(value(&b, Question::Responsible, "Owner"), "Team B lead");
        assert_eq!(value(&b, Question::Responsible, "Review"), "2027-01");
        assert_eq!(
            verdict(&b, Question::Responsible),
            Some((Tone::Caution, "Team B lead answers for 1 failure."))
        );
        assert_eq!(
            value(&b, Question::Forecast, "On its allocation alone"),
            FORECAST_PENDING
        );
        assert_eq!(
            b.agreement.as_ref().unwrap().owner.as_deref(),
            Some("Team B lead")
        );
    }

    /// A single raised job is "its", not "their", priority (issue #34's polish list).
    #[test]
    fn one_raised_job_reads_its_priority() {
        let text = include_str!("../../tests/golden/contract-escalation.json");
        let d = crate::run_digest(text, DigestLimits::default()).unwrap();
        let said: Vec<String> = cards(&d, None)
            .iter()
            .filter_map(|c| verdict(c, Question::RepeatedYields).map(|v| v.1.to_string()))
            .filter(|v| v.contains("priority"))
            .collect();
        assert!(
            said.iter()
                .any(|v| v.starts_with("1 job raised its priority")),
            "{said:?}"
        );
        assert!(
            !said.iter().any(|v| v.contains("1 job raised their")),
            "{said:?}"
        );
    }

    #[test]
    fn resubmitted_jobs_and_alarms() {
        let text = include_str!("../../tests/golden/contract-resubmit.json");
        let (d, f) = digests(text);
        let from = d
            .contract
            .events
            .iter()
            .find(|e| e.kind == ContractEventKind::Resubmit)
            .and_then(|e| e.from_share)
            .expect("the golden resubmits") as usize;
        let c = card(&d, from, f.get(from));
        let retry = value(&c, Question::RepeatedYields, "Retry limit");
        assert!(retry.contains("resubmitted to "), "{retry}");
        assert_eq!(
            verdict(&c, Question::RepeatedYields).unwrap().0,
            Tone::Caution
        );
        let text = include_str!("../../tests/golden/contract-alarm.json");
        let d = crate::run_digest(text, DigestLimits::default()).unwrap();
        let cards = cards(&d, None);
        let alarmed = cards
            .iter()
            .find(|c| value(c, Question::RepeatedYields, "Alarms") != "no alarm")
            .expect("the golden raises an alarm");
        assert!(value(alarmed, Question::RepeatedYields, "Alarms").contains("preempted"));
    }

    #[test]
    fn agreement_rows_keep_the_text() {
        let a = Agreement {
            owner: Some("<b>x</b>".into()),
            review_by: Some("2027".into()),
            ..Agreement::default()
        };
        let rows = agreement_rows(&a);
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[0].label, rows[0].value.as_str()),
            ("Owner", "<b>x</b>")
        );
        assert_eq!(rows[1].label, "Review by");
    }

    /// The presets that teach SPEC 14 say what they are meant to (www/presets/).
    #[test]
    fn teaching_presets() {
        let (d, f) = digests(include_str!(
            "../../../../www/presets/recovery-not-free.json"
        ));
        let cards = cards(&d, Some(&f));
        let by = |n: &str| cards.iter().find(|c| c.name == n).unwrap();
        let (steady, flaky) = (by("steady"), by("flaky"));
        assert_eq!(verdict(steady, Question::Recover).unwrap().0, Tone::Good);
        assert_eq!(verdict(flaky, Question::Recover).unwrap().0, Tone::Bad);
        assert_eq!(
            value(flaky, Question::Recover, "Restores"),
            "10 restores, 4 failed"
        );
        assert_eq!(
            value(flaky, Question::Responsible, "Owner"),
            "no agreement: nobody is named"
        );
        assert_eq!(
            value(steady, Question::Responsible, "Owner"),
            "Training platform on-call"
        );
        for c in [steady, flaky] {
            // Alone on 2 instances, 4 of the 6 eight-hour jobs finish in the day.
            assert_eq!(
                verdict(c, Question::Forecast).unwrap().0,
                Tone::Bad,
                "{}",
                c.name
            );
        }
        let (d, f) = digests(include_str!(
            "../../../../www/presets/priority-inflation.json"
        ));
        let cards = super::cards(&d, Some(&f));
        let by = |n: &str| cards.iter().find(|c| c.name == n).unwrap();
        let (vision, calm) = (by("vision"), by("vision-calm"));
        assert!(verdict(vision, Question::RepeatedYields)
            .unwrap()
            .1
            .ends_with("priority orders nothing."));
        assert_eq!(verdict(calm, Question::RepeatedYields), None);
        let met = |c: &Card| value(c, Question::Forecast, "Deadlines").to_string();
        assert_eq!(met(vision), "47% of deadlines met as given");
        assert_eq!(met(calm), "59% of deadlines met as given");
    }

    #[test]
    fn words() {
        assert_eq!(duration(45.0), "45 s");
        assert_eq!(duration(750.0), "13 min");
        assert_eq!(duration(300.0), "5.0 min");
        assert_eq!(duration(14_760.0), "4.1 h");
        assert_eq!(hours(0.0), "0 h");
        assert_eq!(hours(1.23), "1.2 h");
        assert_eq!(percent(0.38), "38%");
        assert_eq!(percent(0.001), "<1%");
        assert_eq!(percent(0.999), ">99%");
        assert_eq!(count(1, "job", "jobs"), "1 job");
    }

    /// SPEC 9.1: the card agrees with itself. Priority inflation has every share RESERVE,
    /// so its allocation alone is its run as given, and the card says so; in Recovery is
    /// not free the runs differ and the card says why, over the matched jobs.
    #[test]
    fn the_forecast_agrees_with_itself() {
        let (d, f) = digests(include_str!(
            "../../../../www/presets/priority-inflation.json"
        ));
        for card in cards(&d, Some(&f)) {
            let p50 = value(&card, Question::Forecast, "Completion p50");
            let (alone, given) = p50.split_once(" on its allocation alone, ").unwrap();
            assert_eq!(format!("{alone} as given"), given, "{}", card.name);
            let (tone, words) = verdict(&card, Question::Forecast).unwrap();
            assert_eq!(tone, Tone::Good);
            assert!(words.starts_with("Nothing was lent to it"), "{words}");
            let a = card
                .answers
                .iter()
                .find(|a| a.question == Question::Forecast)
                .unwrap();
            assert!(a.rows.iter().all(|r| r.label != "Why they differ"));
        }
        let (d, f) = digests(include_str!(
            "../../../../www/presets/recovery-not-free.json"
        ));
        let cards = cards(&d, Some(&f));
        let steady = cards.iter().find(|c| c.name == "steady").unwrap();
        assert_eq!(
            value(steady, Question::Forecast, "Jobs compared"),
            "4 that succeeded under all three policies (4 on its allocation alone, 6 as given)"
        );
        assert!(value(steady, Question::Forecast, "Why they differ").contains("borrowed capacity"));
        assert_eq!(verdict(steady, Question::Forecast).unwrap().0, Tone::Bad);
    }
}
