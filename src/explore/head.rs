//! A large scenario planned on the page without its jobs (issue #30). The panel's fields, its
//! plan's checks and its note on seeds read every other field of the scenario; a 16 MB
//! trace's 82,247 jobs parsed into values held the page's thread 0.3-0.6 s when the panel
//! opened and when Run was pressed. The engine workers plan and run the whole text.

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
}

/// The whole text a sweep was planned from, and where its jobs are in it ([`with_jobs`]).
pub type Whole = (std::sync::Arc<String>, (usize, usize));

/// `text` as the panel plans it ([`Planned`]): its jobs are located without being parsed
/// ([`kept::locate`]) and left out.
pub fn planned(text: &str) -> Planned {
    if let Some((mut head, kept)) = kept::locate(text) {
        let (a, b) = (kept.list.0 as usize, kept.list.1 as usize);
        if b > a {
            // In place of the `null` the reader left there (the map keeps its order).
            head.insert("jobs".into(), Value::Array(Vec::new()));
            if let Ok(text) = serde_json::to_string(&Value::Object(head)) {
                return Planned {
                    text,
                    jobs: Some((a, b)),
                };
            }
        }
    }
    Planned {
        text: text.to_string(),
        jobs: None,
    }
}

/// `doc`, a variant of a planned text without its jobs (`"jobs": []`), with the jobs of
/// `whole` (the text it was planned from, whose jobs are at `jobs`) back in their place,
/// pretty-printed as the panel gives a variant to the page. `None` if `doc` has no such
/// place or `whole` no such jobs.
pub fn with_jobs(doc: &Value, whole: &str, jobs: (usize, usize)) -> Option<String> {
    let list = whole.get(jobs.0..jobs.1)?;
    let text = serde_json::to_string_pretty(doc).ok()?;
    // The top level's entry: two spaces in (an entry of a nested object is deeper, and a
    // string cannot hold an unescaped quote).
    const EMPTY: &str = "\n  \"jobs\": []";
    let at = text.find(EMPTY)? + EMPTY.len() - 2;
    Some([&text[..at], list, &text[at + 2..]].concat())
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
    fn a_small_scenario_or_one_without_a_jobs_list_is_planned_whole() {
        let p = planned(AWS_WALKTHROUGH_JSON);
        assert_eq!((p.text.as_str(), p.jobs), (AWS_WALKTHROUGH_JSON, None));
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
