//! Validation problems in the page's own words. The engine names each problem by its JSON
//! path with a message for the command line (`jobs[0].work_s: must be > 0 (got 0)`) and a
//! machine-readable [`Kind`] (what the rule accepts); here a field's label and that kind
//! become what to type ("Work: type a number of seconds greater than 0"). The rules stay in
//! the engine: only the wording is chosen here.

use quotalab_engine::{Bound, Kind, Problem};
use quotalab_report::words::capitalized;
pub use quotalab_report::words::place;
use serde_json::Value;

/// The model's word for a share, for headings and labels: Kueue's "ClusterQueue", else
/// "Share".
pub fn share_word(kueue: bool) -> &'static str {
    if kueue {
        "ClusterQueue"
    } else {
        "Share"
    }
}

/// The model's word for a preemption inside a share: Kueue's policy is
/// `withinClusterQueue`, AWS Batch's `in-share` preemption.
pub fn in_share_word(kueue: bool) -> &'static str {
    if kueue {
        "within ClusterQueue"
    } else {
        "in-share"
    }
}

/// A label without its unit or hint: "Work (s)" is "Work".
pub fn field_name(label: &str) -> &str {
    let label = label.trim();
    match label.find(" (") {
        Some(i) if label.ends_with(')') => &label[..i],
        _ => label,
    }
}

/// `n` with thousands separators from 10,000 up (9999 stays as priorities are labelled).
fn thousands(n: i64) -> String {
    if n.unsigned_abs() < 10_000 {
        return n.to_string();
    }
    let grouped = crate::ui::format::count(n.unsigned_abs() as usize);
    if n < 0 {
        format!("-{grouped}")
    } else {
        grouped
    }
}

/// Bounds at least this large are the engine's safety limits (1e9 instances, 1e12 s), not
/// something a person is asked to keep to: they are not spelled out.
const HUGE: i64 = 1_000_000_000;

/// The range of a number in words: "greater than 0", "0 or more", "from 0 to 9,999".
fn range_words(min: Option<Bound>, max: Option<Bound>) -> String {
    let max = max.filter(|b| b.value < HUGE);
    match (min, max) {
        (Some(lo), Some(hi)) if lo.inclusive && hi.inclusive => {
            format!("from {} to {}", thousands(lo.value), thousands(hi.value))
        }
        (Some(lo), None) if lo.value == -1 && lo.inclusive => {
            "0 or more, or -1 for no limit".to_string()
        }
        (Some(lo), None) if lo.inclusive => format!("{} or more", thousands(lo.value)),
        (Some(lo), None) => format!("greater than {}", thousands(lo.value)),
        (None, Some(hi)) => format!("at most {}", thousands(hi.value)),
        (Some(lo), Some(hi)) => format!(
            "greater than {} and at most {}",
            thousands(lo.value),
            thousands(hi.value)
        ),
        (None, None) => String::new(),
    }
}

/// What to do, in words, for a problem of this kind; None for [`Kind::Other`].
/// `value` is what the field holds (named in "is already used" and "does not exist").
pub fn what_to_do(kind: &Kind, value: Option<&Value>) -> Option<String> {
    let named = || match value {
        Some(Value::String(s)) => format!("\"{s}\""),
        _ => "this name".to_string(),
    };
    Some(match kind {
        Kind::Other => return None,
        Kind::Required => "fill this in".to_string(),
        Kind::Number {
            whole,
            seconds,
            min,
            max,
        } => {
            let noun = match (whole, seconds) {
                (true, _) => "a whole number",
                (false, true) => "a number of seconds",
                (false, false) => "a number",
            };
            let range = range_words(*min, *max);
            if range.is_empty() {
                format!("type {noun}")
            } else {
                format!("type {noun} {range}")
            }
        }
        Kind::Text => "type a name".to_string(),
        Kind::NotEmpty => "type a name: it cannot be empty".to_string(),
        Kind::Bool => "tick or clear the box".to_string(),
        Kind::OneOf(names) => format!("pick one of {}", names.join(", ")),
        Kind::Duplicate => format!("{} is already used: pick another name", named()),
        Kind::Unknown(known) if known.is_empty() => format!("{} does not exist", named()),
        Kind::Unknown(known) if known.len() > 8 => {
            format!("{} does not exist: pick one from the list", named())
        }
        Kind::Unknown(known) => format!(
            "{} does not exist: pick one of {}",
            named(),
            known.join(", ")
        ),
    })
}

/// [`what_to_do`] for `p`, except for a number over a machine bound (the kind's range does
/// not spell those out): that one is "far too large", as [`plain_message`] says.
fn what_to_do_for(p: &Problem, value: Option<&Value>) -> Option<String> {
    if plain_message(&p.message).starts_with("is far too large") {
        return None;
    }
    what_to_do(&p.kind, value)
}

/// The message shown beside the field labelled `label`: "Work: type a number of seconds
/// greater than 0" (the engine's message when the kind says nothing more).
pub fn beside(label: &str, p: &Problem, value: Option<&Value>) -> String {
    let name = field_name(label);
    // An emptied field holds null: say it is empty, not "not null".
    let empty = value.is_some_and(Value::is_null);
    match what_to_do_for(p, value) {
        Some(w) if name.is_empty() && empty => format!("Empty: {w}"),
        Some(w) if name.is_empty() => capitalized(&w),
        Some(w) if empty => format!("{name} is empty: {w}"),
        Some(w) => format!("{name}: {w}"),
        // "must be .." and "is .." read as a sentence after the field's name.
        None => {
            let m = plain_message(&p.message);
            if !name.is_empty() && (m.starts_with("must ") || m.starts_with("is ")) {
                format!("{name} {m}")
            } else {
                m
            }
        }
    }
}

/// Why a text is not JSON, as a person says it: "The file is not JSON: it ends before the
/// JSON is complete (line 1, column 34)".
pub fn json_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let why = match e.classify() {
        Category::Eof => "it ends before the JSON is complete",
        Category::Syntax => "it has a syntax error",
        Category::Data => "it has a value of the wrong type",
        Category::Io => "it could not be read",
    };
    format!(
        "The file is not JSON: {why} (line {}, column {})",
        e.line(),
        e.column()
    )
}

/// A command-line message in the page's words: no `--vary ARG:` prefix or usage hint,
/// comparisons and large numbers as people write them ("must be at least -1 (got -5)",
/// "at most 100,000 values per sweep"), FROM / TO / STEP as the form's fields.
pub fn plain_message(m: &str) -> String {
    let mut m = m.to_string();
    if let Some(rest) = m.strip_prefix("--vary ") {
        // "--vary PATH=FROM..TO:STEP: what" -> "what" (the form shows the range).
        if let Some(i) = rest.find(": ") {
            m = rest[i + 2..].to_string();
        }
    }
    if let Some(i) = m.find(" (expected PATH=") {
        m.truncate(i);
    }
    for (from, to) in [
        ("must be >= ", "must be at least "),
        ("must be <= ", "must be at most "),
        ("must be > ", "must be more than "),
        ("must be < ", "must be less than "),
        ("STEP must be", "Step must be"),
        ("TO must be >= FROM", "To must be at least From"),
        ("FROM ", "From "),
        ("TO ", "To "),
        ("STEP ", "Step "),
        ("per --vary", "per sweep"),
        (", not a string", ", not text"),
        (", not null", ", not empty"),
    ] {
        m = m.replace(from, to);
    }
    let m = group_long_numbers(&m);
    // A machine bound is not something to keep to: say the number is too large.
    let mut m = m;
    for bound in [
        "9,223,372,036,854,775,807",
        "18,446,744,073,709,551,615",
        "4,294,967,295",
        "2,147,483,647",
    ] {
        m = m.replace(&format!("must be at most {bound}"), "is far too large");
    }
    m
}

/// Runs of five or more digits (not after a '.') with thousands separators.
fn group_long_numbers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() && (i == 0 || b[i - 1] != b'.') {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let run = &s[start..i];
            if run.len() >= 5 && !run.starts_with('0') {
                // Grouped as written, digit for digit (a float would round 2^63 - 1).
                for (k, c) in run.chars().enumerate() {
                    if k > 0 && (run.len() - k).is_multiple_of(3) {
                        out.push(',');
                    }
                    out.push(c);
                }
            } else {
                out.push_str(run);
            }
        } else {
            let c = s[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// A problem no field shows, for the list at the top of the editor: "Explicit job 1,
/// share: "x" does not exist: pick one of a, b".
/// A problem placed in an input (a review's proposal) starts with the input's name.
pub fn located(p: &Problem, value: Option<&Value>) -> String {
    let what = what_to_do_for(p, value).unwrap_or_else(|| plain_message(&p.message));
    let at = p.path.to_string();
    let said = if at.is_empty() {
        capitalized(&what)
    } else if at.starts_with("job \"") {
        // A generated job, named by its id (the engine's warnings about generated jobs).
        format!("{}: {what}", capitalized(&at))
    } else {
        format!("{}: {what}", place(&at))
    };
    match p.file.as_deref() {
        Some(f) => format!("{}: {said}", f.words()),
        None => said,
    }
}

/// A problem from an engine worker, in the page's words: an import warning names its
/// object ([`Problem::words`]); any other is [`located`].
pub fn said(p: &Problem) -> String {
    if p.object.is_some() {
        p.words()
    } else {
        located(p, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quotalab_engine::input::path::Path;
    use serde_json::json;

    #[test]
    fn a_number_over_a_machine_bound_is_far_too_large() {
        let text = r#"{"format":"quotalab/v1","name":"x","seed":100000000000000000000,
            "capacity":{"ml.g5.xlarge":2},
            "shares":[{"name":"a","limits":{"ml.g5.xlarge":1},"strategy":"LEND"}]}"#;
        let problems = quotalab_engine::load(text).unwrap_err();
        let said: Vec<String> = problems.iter().map(|p| located(p, None)).collect();
        assert_eq!(
            said,
            ["Seed: is far too large (got 100,000,000,000,000,000,000)"]
        );
        assert_eq!(
            beside("Seed (workload draws)", &problems[0], None),
            "Seed is far too large (got 100,000,000,000,000,000,000)"
        );
    }

    #[test]
    fn a_reviews_validator_warning_names_the_proposal_and_the_field() {
        use quotalab_engine::analysis::review as rv;
        let current = include_str!("../../www/presets/aws-walkthrough.json");
        let proposed = current.replacen(
            "\"capacity\": {\n  \"ml.g5.xlarge\": 3",
            "\"capacity\": {\n  \"ml.g5.xlarge\": 2",
            1,
        );
        assert_ne!(
            proposed, current,
            "the preset's capacity is written as expected"
        );
        let input = |name, text| rv::Input { name, text };
        let done = rv::review(
            input("the scenario", current),
            input("proposed.json", &proposed),
            rv::JobsSource::Current,
            &rv::ReviewOptions::default(),
        )
        .expect("reviews");
        let said: Vec<String> = done.warnings.iter().map(said).collect();
        assert_eq!(
            said,
            ["proposed.json: Capacity, ml.g5.xlarge: overcommitted: the shares' limits add up to 3 instances but capacity is 2; some entitlements may be unreachable"]
        );
        // The CLI's text keeps the file's role and the path.
        assert_eq!(
            done.warnings[0].to_string(),
            "proposed.json (PROPOSED) with the jobs of the scenario: capacity.ml.g5.xlarge: overcommitted: the shares' limits add up to 3 instances but capacity is 2; some entitlements may be unreachable"
        );
        // Words for an input name it as a sentence starts.
        let p = Problem::new(Path::named("--seeds"), "must be at least 1")
            .in_file("the scenario", "(CURRENT)");
        assert!(
            located(&p, None).starts_with("The scenario: "),
            "{}",
            located(&p, None)
        );
    }

    #[test]
    fn places_in_words() {
        assert_eq!(place("jobs[0].share"), "Explicit job 1, share");
        assert_eq!(place("shares[2].borrow_limit"), "Share 3, borrow limit (%)");
        assert_eq!(place("shares[0].limits"), "Share 1, limits");
        assert_eq!(
            plain_message("--vary shares[0].borrow_limit=0..100000:1: 100001 values: at most 100000 per --vary"),
            "100,001 values: at most 100,000 per sweep"
        );
        assert_eq!(
            plain_message("must be >= -1 (got -5)"),
            "must be at least -1 (got -5)"
        );
        assert_eq!(
            plain_message(
                "--vary x=a..1:1: FROM \"a\" is not a number (expected PATH=FROM..TO:STEP, e.g. y)"
            ),
            "From \"a\" is not a number"
        );
        assert_eq!(
            plain_message("must be a whole number, not a string"),
            "must be a whole number, not text"
        );
        // Issue #34: an emptied field is "empty", never "null".
        assert_eq!(
            plain_message("must be a whole number, not null"),
            "must be a whole number, not empty"
        );
        let e = serde_json::from_str::<Value>("{\"a\": ").unwrap_err();
        assert_eq!(
            json_error(&e),
            "The file is not JSON: it ends before the JSON is complete (line 1, column 6)"
        );
        let e = serde_json::from_str::<Value>("{\"a\" 1}").unwrap_err();
        assert!(json_error(&e).starts_with("The file is not JSON: it has a syntax error (line 1"));
        assert_eq!(plain_message("at 0.12345 s"), "at 0.12345 s");
        // Per-type maps keep the type's dots (issue #34: "borrowing limit, ml, g5, xlarge").
        assert_eq!(
            place("shares[0].borrowing_limit.ml.g5.xlarge"),
            "Share 1, borrowingLimit ml.g5.xlarge"
        );
        assert_eq!(place("capacity.ml.g5.xlarge"), "Capacity, ml.g5.xlarge");
        assert_eq!(
            place("shares[0].limits.ml.g5.xlarge"),
            "Share 1, limits ml.g5.xlarge"
        );
        assert_eq!(
            place("workloads[1].work_s.uniform[0]"),
            "Workload mix 2, work, uniform 1"
        );
        assert_eq!(place("horizon_s"), "Horizon");
    }

    #[test]
    fn words_for_kinds() {
        let work = Kind::Number {
            whole: false,
            seconds: true,
            min: Some(Bound {
                value: 0,
                inclusive: false,
            }),
            max: Some(Bound {
                value: 1_000_000_000_000,
                inclusive: true,
            }),
        };
        let job = Path::root().key("jobs").idx(0);
        let p = Problem::new(job.key("work_s"), "must be > 0 (got 0)").with_kind(work);
        assert_eq!(
            beside("Work (s)", &p, None),
            "Work: type a number of seconds greater than 0"
        );
        assert_eq!(
            beside("instances", &p, Some(&Value::Null)),
            "instances is empty: type a number of seconds greater than 0"
        );
        let prio = Kind::Number {
            whole: true,
            seconds: false,
            min: Some(Bound {
                value: 0,
                inclusive: true,
            }),
            max: Some(Bound {
                value: 9999,
                inclusive: true,
            }),
        };
        assert_eq!(
            what_to_do(&prio, None).unwrap(),
            "type a whole number from 0 to 9999"
        );
        let p = Problem::new(job.key("share"), "unknown share")
            .with_kind(Kind::Unknown(vec!["a".into(), "b".into()]));
        assert_eq!(
            located(&p, Some(&json!("x"))),
            "Explicit job 1, share: \"x\" does not exist: pick one of a, b"
        );
    }
}
