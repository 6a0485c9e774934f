//! A large scenario's explicit jobs kept as text in the editor's document (issue #30: the
//! main thread never blocks). Parsing a 16 MB trace into `serde_json::Value`s takes about
//! half a second in the page, and every form edit would clone and print them all again;
//! the forms read only the jobs on screen. So a scenario text of [`LAZY_BYTES`] or more is
//! read with its `jobs` array checked but kept as text (the array's text and each job's span),
//! a job is parsed when a row shows it, and an edit that leaves the jobs alone writes their
//! text back as it was. An edit that changes the jobs (or reads them all: a share renamed,
//! a job added) runs on the whole document ([`RawJobs::all`]), as before.

use std::cell::RefCell;
use std::sync::Arc;

use quotalab_engine_worker::kept::{self, KeptJobs};
use serde_json::Value;

pub use kept::LAZY_BYTES;

/// The `jobs` array of a scenario text, kept as text.
#[derive(Debug)]
pub struct RawJobs {
    /// The array's text, brackets included, as it was read.
    list: Arc<str>,
    /// Each job's span in `list`.
    items: Vec<(u32, u32)>,
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
        let &(a, b) = self.items.get(i)?;
        self.list.get(a as usize..b as usize)
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
/// whole and reports what is wrong as it always did. A text [`offer`]ed with its jobs
/// located is read without looking for them.
pub fn read(text: &str) -> Option<(Value, RawJobs)> {
    let offered = OFFERED.with(|o| o.borrow_mut().take());
    if let Some(read) = offered.and_then(|o| o.take_for(text)) {
        return Some(read);
    }
    let (head, kept) = kept::locate(text)?;
    let jobs = raw_jobs(text, kept)?;
    Some((Value::Object(head), jobs))
}

/// A text read ahead ([`offer`]): what [`read`] gives for it, and how to tell the text.
struct Offered {
    read: (Value, RawJobs),
    /// Where the text's bytes were and how many: the very `String` offered is the one that
    /// becomes the scenario (moved, not copied), and nothing edits the scenario's text in
    /// place (`context::TextKey` knows a text so too). Comparing 16 MB instead would cost
    /// more than reading them again (a wasm `memcmp`: ~27 ms).
    at: usize,
    len: usize,
    /// Where the jobs' array is in the text, and the text before and after it (checked too).
    list: (usize, usize),
    around: String,
}

impl Offered {
    /// The read, if `text` is the text it was made of.
    fn take_for(self, text: &str) -> Option<(Value, RawJobs)> {
        let (a, b) = self.list;
        let same = text.as_ptr() as usize == self.at
            && text.len() == self.len
            && text.get(..a).is_some_and(|h| self.around.starts_with(h))
            && text.get(b..) == self.around.get(a..);
        same.then_some(self.read)
    }
}

thread_local! {
    /// The text a worker made last, read ahead ([`offer`]).
    static OFFERED: RefCell<Option<Offered>> = const { RefCell::new(None) };
}

/// Reads `text` ahead of its [`read`], from where its jobs are: an engine worker that made
/// the text found them there ([`kept::locate`]; the CSV import does), so the page does not
/// read the 16 MB of a large trace again on its own thread; and reading it (the jobs' text
/// copied) is then a task of its own, before the task that opens the scenario (issue #30).
/// The next read takes the offer, whatever its text; it uses it only for the same text
/// (the same `String`, which `text` must be: the one that becomes the scenario).
pub fn offer(text: &str, kept: KeptJobs) {
    let list = (kept.list.0 as usize, kept.list.1 as usize);
    let offered = (!kept.items.is_empty())
        .then(|| from_kept(text, kept))
        .flatten()
        .map(|read| Offered {
            read,
            at: text.as_ptr() as usize,
            len: text.len(),
            list,
            around: [&text[..list.0], &text[list.1..]].concat(),
        });
    OFFERED.with(|o| *o.borrow_mut() = offered);
}

/// [`read`], from where `text`'s jobs are: only the text around them (small) is parsed.
fn from_kept(text: &str, kept: KeptJobs) -> Option<(Value, RawJobs)> {
    let (a, b) = (kept.list.0 as usize, kept.list.1 as usize);
    let head = if kept.items.is_empty() {
        serde_json::from_str::<Value>(text).ok()?
    } else {
        let around = [text.get(..a)?, "null", text.get(b..)?].concat();
        serde_json::from_str::<Value>(&around).ok()?
    };
    let mut head = head;
    match head.get_mut("jobs") {
        Some(slot) if kept.items.is_empty() && slot.as_array().is_some_and(Vec::is_empty) => {
            *slot = Value::Null;
        }
        Some(Value::Null) if !kept.items.is_empty() => {}
        _ => return None,
    }
    Some((head, raw_jobs(text, kept)?))
}

/// The jobs' text of `text`, as [`kept::locate`] found them.
fn raw_jobs(text: &str, kept: KeptJobs) -> Option<RawJobs> {
    let list: Arc<str> = match kept.list {
        (0, 0) if kept.items.is_empty() => Arc::from("[]"),
        (a, b) => {
            let list = text.get(a as usize..b as usize)?;
            if !(list.starts_with('[') && list.ends_with(']')) {
                return None;
            }
            Arc::from(list)
        }
    };
    // Each span is a `{` to a `}` (ASCII bytes: so also where characters start and end).
    // Bytes, not `str::starts_with`: a call each to compare one byte cost 11 ms on the
    // Philly trace's 82,247 jobs (issue #30).
    let bytes = list.as_bytes();
    let fits = |&(a, b): &(u32, u32)| {
        let (a, b) = (a as usize, b as usize);
        a < b && bytes.get(a) == Some(&b'{') && bytes.get(b - 1) == Some(&b'}')
    };
    if !kept.items.iter().all(fits) {
        return None;
    }
    Some(RawJobs {
        list,
        items: kept.items,
    })
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
    fn a_text_offered_with_its_jobs_located_is_read_without_looking_for_them() {
        let text = big(20_000);
        let (_, kept) = kept::locate(&text).unwrap();
        let (doc, jobs) = read(&text).unwrap();
        // The same text, offered: the same document and jobs.
        offer(&text, kept.clone());
        let (doc2, jobs2) = read(&text).unwrap();
        assert_eq!(doc2, doc);
        assert_eq!(jobs2.items, jobs.items);
        assert_eq!(jobs2.list_text(), jobs.list_text());
        // The offer is taken by that read.
        assert!(OFFERED.with(|o| o.borrow().is_none()));
        // A text of the same length whose head differs: its own head is read.
        let renamed = text.replacen("\"name\": \"big\"", "\"name\": \"bag\"", 1);
        assert_eq!(renamed.len(), text.len());
        offer(&renamed, kept.clone());
        assert_eq!(read(&renamed).unwrap().0["name"], "bag");
        // An offer made of another text of that length is not that text's read.
        offer(&text, kept.clone());
        assert_eq!(read(&renamed).unwrap().0["name"], "bag");
        let mut other_jobs = text.clone().into_bytes();
        let at = text.rfind("j19999").unwrap();
        other_jobs[at] = b'k';
        let other_jobs = String::from_utf8(other_jobs).unwrap();
        offer(&text, kept.clone());
        assert_eq!(
            read(&other_jobs).unwrap().1.get(19_999).unwrap()["id"],
            "k19999"
        );
        // An offer that does not fit the text (moved jobs) is not used: the text is read.
        let shifted = format!(" {}", &text[..text.len() - 1]);
        let moved = format!(" {text}");
        offer(&shifted, kept.clone());
        assert!(read(&shifted).is_none(), "cut text");
        offer(&moved, kept);
        let (doc3, jobs3) = read(&moved).unwrap();
        assert_eq!(doc3, doc);
        assert_eq!(jobs3.get(19_999).unwrap()["id"], "j19999");
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
