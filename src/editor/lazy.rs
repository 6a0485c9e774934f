//! A large scenario's explicit jobs kept as text in the editor's document (issue #30: the
//! main thread never blocks). Parsing a 16 MB trace into `serde_json::Value`s takes about
//! half a second in the page, and every form edit would clone and print them all again;
//! the forms read only the jobs on screen. So a scenario text of [`LAZY_BYTES`] or more is
//! read with its `jobs` array checked but kept as text (the array's text and each job's span),
//! a job is parsed when a row shows it, and an edit that leaves the jobs alone writes their
//! text back as it was. An edit that changes the jobs (or reads them all: a share renamed,
//! a job added) runs on the whole document ([`RawJobs::all`]), as before.

use std::sync::Arc;

use serde::de::{self, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// Scenario texts at least this long keep their jobs as text.
pub const LAZY_BYTES: usize = 1 << 20;

/// The `jobs` array of a scenario text, kept as text.
#[derive(Debug)]
pub struct RawJobs {
    /// The array's text, brackets included, as it was read.
    list: Arc<str>,
    /// Each job's span in `list`.
    items: Vec<(usize, usize)>,
}

impl RawJobs {
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Job `i`, parsed.
    pub fn get(&self, i: usize) -> Option<Value> {
        serde_json::from_str(self.text_of(i)?).ok()
    }

    /// Job `i`'s text.
    pub fn text_of(&self, i: usize) -> Option<&str> {
        self.items.get(i).map(|&(a, b)| &self.list[a..b])
    }

    /// The whole array, parsed (an edit that changes or reads every job).
    pub fn all(&self) -> Value {
        serde_json::from_str(&self.list).unwrap_or(Value::Array(Vec::new()))
    }

    /// The array's text, brackets included, as it was read.
    pub fn list_text(&self) -> &str {
        &self.list
    }
}

/// Reads a large scenario text (an object whose `jobs` is an array) into the document
/// without its jobs (`"jobs": null` at their place) and the jobs as text. `None` for any
/// other text (too short, not an object, invalid, `jobs` not an array): the caller parses it
/// whole and reports what is wrong as it always did.
pub fn read(text: &str) -> Option<(Value, RawJobs)> {
    if text.len() < LAZY_BYTES {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let (map, jobs) = de::Deserializer::deserialize_map(&mut de, Top).ok()?;
    de.end().ok()?;
    // One pass: serde checks the array and hands each element's own text; the array's
    // brackets are the first non-blank bytes around them.
    let elems = jobs?;
    if elems.is_empty() {
        let list = RawJobs {
            list: Arc::from("[]"),
            items: Vec::new(),
        };
        return Some((Value::Object(map), list));
    }
    let offset = |s: &str| s.as_ptr() as usize - text.as_ptr() as usize;
    let first = offset(elems.first()?.get());
    let last = elems.last()?.get();
    let end = offset(last) + last.len();
    let start = text[..first].trim_end().len().checked_sub(1)?;
    let close = end + (text[end..].len() - text[end..].trim_start().len());
    if text.as_bytes().get(start) != Some(&b'[') || text.as_bytes().get(close) != Some(&b']') {
        return None;
    }
    let items = elems
        .iter()
        .map(|e| {
            let a = offset(e.get()) - start;
            (a, a + e.get().len())
        })
        .collect();
    Some((
        Value::Object(map),
        RawJobs {
            list: Arc::from(&text[start..=close]),
            items,
        },
    ))
}

/// The top-level object: every member parsed but `jobs`, whose elements are kept as text.
struct Top;

impl<'de> Visitor<'de> for Top {
    type Value = (Map<String, Value>, Option<Vec<&'de RawValue>>);

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let mut map = Map::new();
        let mut jobs = None;
        while let Some(key) = m.next_key::<String>()? {
            if key == "jobs" {
                jobs = Some(m.next_value::<Vec<&'de RawValue>>()?);
                map.insert(key, Value::Null);
            } else {
                let v = m.next_value::<Value>()?;
                map.insert(key, v);
            }
        }
        Ok((map, jobs))
    }
}

/// The scenario text of `doc` (the forms' pretty print, [`super::json::to_text`]) with the
/// kept jobs written back as they were read at their `"jobs": null` place.
pub fn to_text(doc: &Value, jobs: &RawJobs) -> String {
    // The placeholder is printed as a unique token, then replaced by the jobs' text
    // (printed JSON escapes the control characters: `"\u0001quotalab-kept-jobs\u0001"`).
    const MARK: &str = r#""\u0001quotalab-kept-jobs\u0001""#;
    let mut marked = doc.clone();
    if let Some(slot) = marked.get_mut("jobs") {
        *slot = Value::String("\u{1}quotalab-kept-jobs\u{1}".into());
    }
    let printed = super::json::to_text(&marked);
    let at = printed.find(MARK).unwrap_or(printed.len());
    let mut text = String::with_capacity(printed.len() + jobs.list_text().len());
    text.push_str(&printed[..at]);
    text.push_str(jobs.list_text());
    text.push_str(printed.get(at + MARK.len()..).unwrap_or_default());
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn big(jobs: usize) -> String {
        let list: Vec<Value> = (0..jobs)
            .map(|i| json!({"id": format!("j{i}"), "share": "a", "note": "x, ] } \" [", "submit_s": i}))
            .collect();
        super::super::json::to_text(&json!({
            "format": "quotalab/v1", "name": "big", "jobs": list, "shares": [{"name": "a"}]
        }))
    }

    #[test]
    fn a_large_scenario_keeps_its_jobs_as_text_and_reads_one_at_a_time() {
        let text = big(20_000);
        assert!(text.len() >= LAZY_BYTES);
        let (doc, jobs) = read(&text).unwrap();
        assert_eq!(doc["jobs"], Value::Null);
        assert_eq!(doc["shares"][0]["name"], "a");
        assert_eq!(jobs.len(), 20_000);
        assert_eq!(jobs.get(7).unwrap()["id"], "j7");
        assert_eq!(jobs.get(19_999).unwrap()["submit_s"], 19_999);
        let whole: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(jobs.all(), whole["jobs"]);
        assert_eq!(
            serde_json::from_str::<Value>(jobs.text_of(3).unwrap()).unwrap(),
            whole["jobs"][3]
        );
        // Written back: the same text.
        assert_eq!(to_text(&doc, &jobs), text);
        // An edit elsewhere keeps the jobs, at their place.
        let mut edited = doc.clone();
        edited["name"] = json!("a much longer name than before");
        let text2 = to_text(&edited, &jobs);
        let parsed: Value = serde_json::from_str(&text2).unwrap();
        assert_eq!(parsed["jobs"], whole["jobs"]);
        assert_eq!(parsed["name"], "a much longer name than before");
        let keys: Vec<&String> = parsed.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["format", "name", "jobs", "shares"]);
    }

    #[test]
    fn every_job_span_is_its_text_however_the_array_is_spaced() {
        let jobs: Vec<Value> = (0..40_000)
            .map(|i| json!({"id": format!("j{i}"), "note": "[ ] , { }"}))
            .collect();
        let compact = serde_json::to_string(&json!({"jobs": jobs, "name": "c"})).unwrap();
        let spaced = compact
            .replacen("\"jobs\":[", "\"jobs\" :\n [ \t", 1)
            .replacen("}],\"name\"", "}\r\n ] ,\"name\"", 1);
        for text in [compact, spaced] {
            let (doc, kept) = read(&text).unwrap();
            assert_eq!(doc["name"], "c");
            assert_eq!(kept.len(), 40_000);
            for i in [0, 1, 12_345, 39_999] {
                assert_eq!(kept.get(i).unwrap(), jobs[i]);
            }
            assert!(kept.list_text().starts_with('[') && kept.list_text().ends_with(']'));
            let back: Value = serde_json::from_str(&to_text(&doc, &kept)).unwrap();
            assert_eq!(back["jobs"], Value::Array(jobs.clone()));
        }
    }

    #[test]
    fn small_invalid_or_odd_texts_are_read_whole() {
        assert!(read(r#"{"jobs": []}"#).is_none());
        let pad = " ".repeat(LAZY_BYTES);
        assert!(read(&format!(r#"{{"jobs": 5}}{pad}"#)).is_none());
        assert!(read(&format!(r#"[1, 2]{pad}"#)).is_none());
        assert!(read(&format!(r#"{{"jobs": [1, 2}}{pad}"#)).is_none());
        assert!(read(&format!(r#"{{"name": "x"}}{pad}"#)).is_none());
        assert!(read(&format!(r#"{{"jobs": []}} x{pad}"#)).is_none());
        let (_, empty) = read(&format!(r#"{{"jobs": [ ]}}{pad}"#)).unwrap();
        assert_eq!(empty.len(), 0);
    }
}
