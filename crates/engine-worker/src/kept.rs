//! A large scenario text's jobs located without parsing them (issue #30: the main thread
//! never blocks). The page's editor keeps a large scenario's explicit jobs as text and parses
//! a job only when a row shows it (`src/editor/lazy.rs`); finding each job's span takes one
//! pass of serde over the whole text, about 0.1 s for the 16 MB Philly trace in the page's
//! size-optimised wasm. [`locate`] is that pass: the page runs it on texts it opens itself,
//! and an engine worker that made a scenario (the CSV import) runs it there and sends
//! [`KeptJobs`] with the text, so the page builds the editor's document without reading it.

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// Scenario texts at least this long keep their jobs as text.
pub const LAZY_BYTES: usize = 1 << 20;

/// Where a scenario text's jobs are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptJobs {
    /// The `jobs` array's place in the text: from its `[` to just after its `]` (`(0, 0)`
    /// for an empty array).
    pub list: (u32, u32),
    /// Each job's span, from the array's `[`.
    pub items: Vec<(u32, u32)>,
}

/// The top-level object of a text of at least [`LAZY_BYTES`] whose `jobs` is an array, with
/// `"jobs": null` at the jobs' place, and where the jobs are; `None` for any other text (too
/// short, not an object, invalid, `jobs` not an array, over 4 GiB): the caller parses it
/// whole and reports what is wrong as it always did.
pub fn locate(text: &str) -> Option<(Map<String, Value>, KeptJobs)> {
    if text.len() < LAZY_BYTES || u32::try_from(text.len()).is_err() {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let (map, jobs) = de::Deserializer::deserialize_map(&mut de, Top).ok()?;
    de.end().ok()?;
    let elems = jobs?;
    let offset = |s: &str| s.as_ptr() as usize - text.as_ptr() as usize;
    let (first, last) = match (elems.first(), elems.last()) {
        (Some(first), Some(last)) => (first.get(), last.get()),
        // No jobs: nothing to keep but an empty array.
        _ => {
            let none = KeptJobs {
                list: (0, 0),
                items: Vec::new(),
            };
            return Some((map, none));
        }
    };
    // One pass: serde checks the array and hands each element's own text; the array's
    // brackets are the first non-blank bytes around them.
    let end = offset(last) + last.len();
    let start = text[..offset(first)].trim_end().len().checked_sub(1)?;
    let close = end + (text[end..].len() - text[end..].trim_start().len());
    if text.as_bytes().get(start) != Some(&b'[') || text.as_bytes().get(close) != Some(&b']') {
        return None;
    }
    let items = elems
        .iter()
        .map(|e| {
            let a = offset(e.get()) - start;
            (a as u32, (a + e.get().len()) as u32)
        })
        .collect();
    let kept = KeptJobs {
        list: (start as u32, close as u32 + 1),
        items,
    };
    Some((map, kept))
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
