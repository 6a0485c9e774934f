//! A large scenario planned on the page without its jobs (issue #30). The panel's fields, its
//! plan's checks and its note on seeds read every other field of the scenario; a 16 MB
//! trace's 82,247 jobs parsed into values held the page's thread 0.3-0.6 s when the panel
//! opened and when Run was pressed, and even skipped by a JSON reader (`kept::locate`) about
//! 45 ms. The jobs are found by one pass over the bytes that follows strings and brackets
//! only ([`Scanner`]); the engine workers read, plan and run the whole text, and say what is
//! wrong in it.

use quotalab_engine::analysis::sweep;
use quotalab_engine_worker::kept;
use serde_json::Value;

/// A scenario text as the panel plans it.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    /// The text without its jobs (`"jobs": []` at their place), or the whole text (a text
    /// under [`kept::LAZY_BYTES`], or one whose jobs cannot be set aside: then it is planned
    /// whole, as before).
    pub text: String,
    /// Where the jobs' array is in the whole text, when it was set aside.
    pub jobs: Option<(usize, usize)>,
    /// Whether a job set aside has a recovery draw a seed changes (SPEC 14, the engine's
    /// [`sweep::seeded`] on the jobs' `recovery` objects alone).
    pub jobs_seeded: bool,
}

/// The whole text a sweep was planned from, and where its jobs are in it ([`with_jobs`]).
pub type Whole = (std::sync::Arc<String>, (usize, usize));

/// `text` as the panel plans it ([`Planned`]): its jobs are found without being read
/// ([`Scanner`]) and left out; what is around them must be JSON (read with them left out).
/// At once: [`Planning`] does the same a piece per task.
pub fn planned(text: &str) -> Planned {
    let mut planning = Planning::new(text);
    loop {
        if let Some(done) = planning.step(text, usize::MAX) {
            return done;
        }
    }
}

/// [`planned`] a piece at a time: a 16 MB text's pass takes longer than a task may (the
/// page's wasm is built for size), so the panel plans a large scenario over several tasks.
pub struct Planning {
    scanner: Option<Scanner>,
}

impl Planning {
    /// Bytes a [`Planning::step`] of the page reads (about 10 ms of the page's wasm).
    pub const STEP_BYTES: usize = 2 << 20;

    pub fn new(text: &str) -> Planning {
        Planning {
            scanner: (text.len() >= kept::LAZY_BYTES).then(Scanner::new),
        }
    }

    /// Reads about `bytes` more of `text` (the text it was made for): the plan once the
    /// whole text is read.
    pub fn step(&mut self, text: &str, bytes: usize) -> Option<Planned> {
        let whole = || Planned {
            text: text.to_string(),
            jobs: None,
            jobs_seeded: false,
        };
        let Some(scanner) = &mut self.scanner else {
            return Some(whole());
        };
        let scan = match scanner.advance(text.as_bytes(), bytes)? {
            Some(Scan {
                jobs: Some(jobs),
                recovery,
            }) => (jobs, recovery),
            _ => return Some(whole()),
        };
        Some(around_jobs(text, scan).unwrap_or_else(whole))
    }
}

/// The plan of `text` whose jobs and their recovery objects are where [`Scanner`] found
/// them: `None` when what is around the jobs is not JSON, or not an object whose `jobs` is
/// that list.
fn around_jobs(
    text: &str,
    ((a, b), recovery): ((usize, usize), Vec<(usize, usize)>),
) -> Option<Planned> {
    let around = [text.get(..a)?, "[]", text.get(b..)?].concat();
    let head = serde_json::from_str::<Value>(&around).ok()?;
    if !head
        .get("jobs")
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty)
    {
        return None;
    }
    let planned = serde_json::to_string(&head).ok()?;
    // The recovery objects of the jobs, as jobs of their own, asked as the engine asks.
    let jobs: Vec<Value> = recovery
        .iter()
        .filter_map(|&(s, e)| serde_json::from_str::<Value>(text.get(s..e)?).ok())
        .map(|r| Value::Object([("recovery".to_string(), r)].into_iter().collect()))
        .collect();
    let mut doc = serde_json::Map::new();
    doc.insert("jobs".into(), Value::Array(jobs));
    Some(Planned {
        text: planned,
        jobs: Some((a, b)),
        jobs_seeded: sweep::seeded(&doc),
    })
}

/// What [`Scanner`] finds in a scenario's text.
#[derive(Debug, PartialEq)]
struct Scan {
    /// Where the top-level object's `jobs` array is (its `[` to after its `]`).
    jobs: Option<(usize, usize)>,
    /// Where each job's `recovery` object is (a `{` to after its `}`).
    recovery: Vec<(usize, usize)>,
}

/// One pass over a text following only strings and brackets, a piece at a time: where its
/// top-level object's `jobs` array is, and where its jobs' `recovery` objects are. It does
/// not check the JSON (what is around the jobs is read as JSON after, the whole text by the
/// workers).
struct Scanner {
    /// The next byte to read.
    i: usize,
    /// Depths: the top-level object is 1, the jobs' array 2, a job 3.
    depth: u32,
    in_jobs: bool,
    recovery_at: Option<usize>,
    found: Scan,
}

impl Scanner {
    fn new() -> Scanner {
        Scanner {
            i: 0,
            depth: 0,
            in_jobs: false,
            recovery_at: None,
            found: Scan {
                jobs: None,
                recovery: Vec::new(),
            },
        }
    }

    /// Reads about `bytes` more of `b` (a string is read to its end): `None` while there is
    /// more to read, then what was found, or `None` when `b` is not an object whose brackets
    /// and strings close, or names `jobs` twice at its top level.
    fn advance(&mut self, b: &[u8], bytes: usize) -> Option<Option<Scan>> {
        let Scanner {
            i,
            depth,
            in_jobs,
            recovery_at,
            found,
        } = self;
        // The first non-blank byte at or after `i`.
        let next = |mut i: usize| {
            while b.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            i
        };
        if *i == 0 && b.get(next(0)) != Some(&b'{') {
            return Some(None);
        }
        let until = i.saturating_add(bytes).min(b.len());
        while *i < until {
            match b[*i] {
                b'"' => {
                    let start = *i + 1;
                    *i = start;
                    // To the closing quote (a backslash escapes the byte after it).
                    loop {
                        match b.get(*i) {
                            Some(b'"') => break,
                            Some(b'\\') => *i += 2,
                            Some(_) => *i += 1,
                            None => return Some(None),
                        }
                    }
                    let name = &b[start..*i];
                    let wanted = (*depth == 1 && name == b"jobs")
                        || (*in_jobs && *depth == 3 && name == b"recovery");
                    let colon = if wanted { next(*i + 1) } else { *i };
                    if wanted && b.get(colon) == Some(&b':') {
                        let value = next(colon + 1);
                        if *depth == 1 {
                            if found.jobs.is_some() {
                                return Some(None);
                            }
                            if b.get(value) == Some(&b'[') {
                                *in_jobs = true;
                            }
                            // (0, 0): not a list, then planned whole (the plan says so).
                            found.jobs = Some(if *in_jobs { (value, value) } else { (0, 0) });
                        } else if b.get(value) == Some(&b'{') {
                            *recovery_at = Some(value);
                        }
                        *i = value;
                        continue;
                    }
                }
                b'{' | b'[' => *depth += 1,
                b'}' | b']' => {
                    let Some(d) = depth.checked_sub(1) else {
                        return Some(None);
                    };
                    *depth = d;
                    if *in_jobs && d == 1 {
                        *in_jobs = false;
                        found.jobs = found.jobs.map(|(a, _)| (a, *i + 1));
                    } else if d == 3 {
                        if let Some(at) = recovery_at.take() {
                            found.recovery.push((at, *i + 1));
                        }
                    }
                    if d == 0 {
                        // The top level's end: only blanks may follow.
                        if next(*i + 1) != b.len() {
                            return Some(None);
                        }
                        let mut f = std::mem::replace(
                            found,
                            Scan {
                                jobs: None,
                                recovery: Vec::new(),
                            },
                        );
                        if f.jobs == Some((0, 0)) {
                            f.jobs = None;
                        }
                        return Some(Some(f));
                    }
                }
                _ => {}
            }
            *i += 1;
        }
        (*i >= b.len()).then_some(None)
    }
}

/// [`Scanner`]'s whole pass at once.
#[cfg(test)]
fn scan(text: &str) -> Option<Scan> {
    let mut s = Scanner::new();
    loop {
        if let Some(done) = s.advance(text.as_bytes(), 1000) {
            return done;
        }
    }
}

/// `doc`, a variant of a planned text without its jobs (`"jobs": []`), with the jobs of
/// `whole` (the text it was planned from, whose jobs are at `jobs`) back in their place,
/// pretty-printed as the panel gives a variant to the page. `None` if `doc` has no such
/// place or `whole` no such jobs.
pub fn with_jobs(doc: &Value, whole: &str, jobs: (usize, usize)) -> Option<String> {
    jobs_back(doc, whole, jobs).map(|(text, _)| text)
}

/// [`with_jobs`], and where the jobs are in the text it makes.
fn jobs_back(doc: &Value, whole: &str, jobs: (usize, usize)) -> Option<(String, (usize, usize))> {
    let list = whole.get(jobs.0..jobs.1)?;
    let text = serde_json::to_string_pretty(doc).ok()?;
    // The top level's entry: two spaces in (an entry of a nested object is deeper, and a
    // string cannot hold an unescaped quote).
    const EMPTY: &str = "\n  \"jobs\": []";
    let at = text.find(EMPTY)? + EMPTY.len() - 2;
    let spliced = [&text[..at], list, &text[at + 2..]].concat();
    Some((spliced, (at, at + list.len())))
}

/// The scenario `whole`, planned as `planned` with its jobs set aside, with a setting it
/// leaves unset written at its starting value (`fields::with_field`), and its plan: the
/// setting written in the text without the jobs, the jobs put back after
/// ([`with_jobs`], where they are then known). `None` when the jobs were not set aside (the
/// caller writes the whole text). A 16 MB trace parsed whole for it held Run ~0.5 s.
pub fn with_field_set(
    planned: &Planned,
    whole: &str,
    f: &super::fields::Field,
) -> Option<(String, Planned)> {
    let jobs = planned.jobs?;
    let head = super::fields::with_field(&planned.text, f);
    let doc: Value = serde_json::from_str(&head).ok()?;
    let (text, at) = jobs_back(&doc, whole, jobs)?;
    Some((
        text,
        Planned {
            text: head,
            jobs: Some(at),
            jobs_seeded: planned.jobs_seeded,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::fields::{fields, missing, missing_with};
    use crate::io::presets::AWS_WALKTHROUGH_JSON;

    /// The walkthrough with `n` jobs (its first one, renamed), pretty-printed.
    fn with_n_jobs(n: usize) -> (String, Value) {
        let mut doc: Value = serde_json::from_str(AWS_WALKTHROUGH_JSON).unwrap();
        let job = doc["jobs"][0].clone();
        doc["jobs"] = (0..n)
            .map(|i| {
                let mut j = job.clone();
                j["id"] = Value::from(format!("j{i}"));
                j["submit_s"] = Value::from(i as u64);
                j
            })
            .collect();
        (serde_json::to_string_pretty(&doc).unwrap(), doc)
    }

    #[test]
    fn a_large_scenario_is_planned_without_its_jobs_and_its_variant_has_them() {
        let (text, doc) = with_n_jobs(12_000);
        assert!(text.len() > kept::LAZY_BYTES, "{} bytes", text.len());
        let p = planned(&text);
        let (a, b) = p.jobs.expect("the jobs set aside");
        assert!(p.text.len() < 2_000, "{} bytes planned", p.text.len());
        // The planned text is the scenario with no job, in the same order of keys.
        let mut head = doc.clone();
        head["jobs"] = Value::Array(Vec::new());
        let planned_doc: Value = serde_json::from_str(&p.text).unwrap();
        assert_eq!(planned_doc, head);
        let keys = |d: &Value| d.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&planned_doc), keys(&doc));
        // Where the jobs were: their array, whole.
        let jobs: Value = serde_json::from_str(&text[a..b]).unwrap();
        assert_eq!(jobs, doc["jobs"]);
        // The panel offers the same fields either way (the jobs are never walked), and says
        // the same of those it does not offer.
        assert_eq!(fields(&p.text), fields(&text));
        assert_eq!(missing_with(&p.text, true), missing(&text));
        assert!(missing(&text)
            .iter()
            .any(|l| l.starts_with("explicit jobs")));
        // A variant of the planned text, with the jobs back: the whole scenario, changed.
        let mut variant = planned_doc.clone();
        variant["shares"][0]["borrow_limit"] = Value::from(50);
        let whole: Value =
            serde_json::from_str(&with_jobs(&variant, &text, (a, b)).unwrap()).unwrap();
        let mut want = doc.clone();
        want["shares"][0]["borrow_limit"] = Value::from(50);
        assert_eq!(whole, want);
    }

    #[test]
    fn the_scan_follows_strings_and_brackets_and_finds_what_the_json_reader_finds() {
        // Brackets, quotes, backslashes and the names looked for, inside strings; a nested
        // `jobs`; `jobs` as a value; the list not last; compact and pretty.
        let doc = serde_json::json!({
            "name": "jobs",
            "description": "a \"quoted\" ] } [ { \\ \\\" text",
            "nested": {"jobs": [1, 2], "recovery": {"restore_failure": 0.5}},
            "jobs": [
                {"id": "a]\\", "share": "x", "submit_s": 0, "note": "\"recovery\": {"},
                {"id": "b", "share": "x", "recovery": {"restore_failure": 0.5, "deep": {"x": [1]}}},
                {"id": "c", "share": "x", "recovery": null, "tags": [[], {}]}
            ],
            "shares": [{"name": "x", "recovery": {"restore_failure": 0.5}}]
        });
        for text in [
            serde_json::to_string(&doc).unwrap(),
            serde_json::to_string_pretty(&doc).unwrap(),
        ] {
            let found = scan(&text).expect("an object whose strings and brackets close");
            let (a, b) = found.jobs.expect("the top level's jobs");
            let jobs: Value = serde_json::from_str(&text[a..b]).unwrap();
            assert_eq!(jobs, doc["jobs"]);
            // Only job b's recovery object, not the note's text, nor c's null, nor those
            // outside the jobs.
            let recovery: Vec<Value> = found
                .recovery
                .iter()
                .map(|&(s, e)| serde_json::from_str(&text[s..e]).unwrap())
                .collect();
            assert_eq!(recovery, vec![doc["jobs"][1]["recovery"].clone()]);
        }
        // Not an object, brackets or strings that do not close, text after the end, `jobs`
        // twice at the top level, `jobs` not a list.
        for bad in [
            "[1, 2]",
            r#"{"jobs": [1, 2}"#,
            r#"{"jobs": [1, 2], "name": "x}"#,
            r#"{"jobs": [1]} {}"#,
            r#"{"jobs": [1], "jobs": [2]}"#,
            r#"{"jobs": ["\"]}"#,
        ] {
            assert!(
                scan(bad).is_none_or(|f| f.jobs.is_none()),
                "{bad}: {:?}",
                scan(bad)
            );
        }
        assert_eq!(scan(r#"{"jobs": 3}"#).unwrap().jobs, None);
        assert_eq!(scan(r#" {"a": {}} "#).unwrap().jobs, None);
        // The JSON reader agrees on a large scenario, as the workers read it.
        let (text, _) = with_n_jobs(12_000);
        let (_, kept) = kept::locate(&text).unwrap();
        let list = (kept.list.0 as usize, kept.list.1 as usize);
        assert_eq!(scan(&text).unwrap().jobs, Some(list));
    }

    #[test]
    fn a_large_scenario_is_random_when_a_job_s_recovery_draw_is() {
        let (text, _) = with_n_jobs(12_000);
        assert!(!planned(&text).jobs_seeded);
        for (odds, seeded) in [("0.5", true), ("0", false), ("1", false)] {
            let one = text.replacen(
                "\"id\": \"j7\",",
                &format!("\"id\": \"j7\", \"recovery\": {{\"invalid_resume\": {odds}}},"),
                1,
            );
            assert_ne!(one, text);
            let p = planned(&one);
            assert!(p.jobs.is_some());
            assert_eq!(p.jobs_seeded, seeded, "odds {odds}");
        }
    }

    #[test]
    fn a_setting_left_unset_is_written_beside_the_jobs_as_in_the_whole_text() {
        // A Kueue scenario (its cohorts' limits may be unset) with 30,000 jobs.
        // (Its jobs are not read by the plan: any will do.)
        let mut doc: Value = serde_json::from_str(include_str!(
            "../../www/presets/kueue-hierarchical-fair.json"
        ))
        .unwrap();
        let jobs: Vec<Value> = (0..30_000)
            .map(|i| serde_json::json!({"id": format!("x{i}"), "share": "nlp", "submit_s": i}))
            .collect();
        doc["jobs"] = Value::Array(jobs);
        let text = serde_json::to_string_pretty(&doc).unwrap();
        assert!(text.len() > kept::LAZY_BYTES);
        let p = planned(&text);
        assert!(p.jobs.is_some());
        let unset: Vec<_> = fields(&p.text)
            .into_iter()
            .filter(|f| f.unset.is_some())
            .collect();
        assert!(!unset.is_empty(), "the preset leaves a setting unset");
        // (A few: each reads the 2 MB text whole for the comparison, in a debug build.)
        for f in unset.into_iter().take(3) {
            let (whole, head) = with_field_set(&p, &text, &f).unwrap();
            let want: Value =
                serde_json::from_str(&crate::explore::fields::with_field(&text, &f)).unwrap();
            assert_eq!(
                serde_json::from_str::<Value>(&whole).unwrap(),
                want,
                "{}",
                f.path
            );
            // Its plan is the one of the text made, without a new pass.
            assert_eq!(head, planned(&whole), "{}", f.path);
        }
    }

    #[test]
    fn a_small_scenario_or_one_without_a_jobs_list_is_planned_whole() {
        let p = planned(AWS_WALKTHROUGH_JSON);
        assert_eq!((p.text.as_str(), p.jobs), (AWS_WALKTHROUGH_JSON, None));
        // Large, its jobs a list, but what is around them not JSON: planned whole.
        let (text, _) = with_n_jobs(12_000);
        let broken = text.replacen("\"shares\": [", "\"shares\": [,", 1);
        assert_eq!(planned(&broken).jobs, None);
        // Large, but its jobs are not a list: planned whole (the plan then says what is wrong).
        let (text, _) = with_n_jobs(12_000);
        let odd = text.replacen("\"jobs\": [", "\"jobz\": [", 1);
        let p = planned(&odd);
        assert_eq!((p.text == odd, p.jobs), (true, None));
        // A whole text with no jobs where they were said to be, a document with no place for
        // them: no variant text.
        let empty: Value = serde_json::from_str(r#"{"jobs": []}"#).unwrap();
        assert_eq!(with_jobs(&empty, "{}", (0, 5)), None);
        assert_eq!(
            with_jobs(&Value::Object(Default::default()), "[1]", (0, 3)),
            None
        );
        // A nested `jobs` is not the place.
        let nested: Value = serde_json::from_str(r#"{"a": {"jobs": []}, "jobs": []}"#).unwrap();
        let text = with_jobs(&nested, "[1]", (0, 3)).unwrap();
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["jobs"], serde_json::json!([1]));
        assert_eq!(back["a"]["jobs"], serde_json::json!([]));
    }
}
