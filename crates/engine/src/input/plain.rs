//! SPEC 7 "Scenario file", read fast: a document whose explicit jobs are plain (only the
//! SPEC 7 job fields, each at most once, every job an object) is parsed without building a
//! JSON object (an ordered, hashed map with its keys allocated) for each job. The whole
//! Philly trace is 82,247 such jobs. Each job field keeps its JSON value, `null` included,
//! and the validator runs exactly the checks of the general path on them
//! ([`crate::input::validate::load`]).
//!
//! Anything else makes this reading fail, and the document is read again the general way:
//! a syntax error, a document that is not an object, a key given twice, a job that is not an
//! object, has an unknown field or a SPEC 13/14 field (`priority_class`, `recovery`,
//! `on_retries_exhausted`, `escalate`). So a problem is always worded by the general path;
//! this one only makes the common case cheaper.
//!
//! A text edited again and again (the page's engine worker) is read with
//! [`read_remembering`]: the jobs read from the last text are kept in a [`JobsMemo`] with
//! the bytes they were read from, and reused while an edit leaves those bytes, and what
//! they mean, unchanged (issue #30).

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// A scenario document with its `jobs` array read as [`PlainJob`]s.
pub(crate) type PlainDoc = Doc<Vec<PlainJob>>;

/// A scenario document with its `jobs` value read apart, as `J`.
pub(crate) struct Doc<J> {
    /// Every top-level field but `jobs`, in document order.
    pub top: Value,
    /// The `jobs` value, if the document has one.
    pub jobs: Option<J>,
    /// What follows the `jobs` value (where the jobs end, [`jobs_span`]).
    after_jobs: After,
}

/// What follows a document's `jobs` value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum After {
    /// The next key, at this address in the text.
    Key(usize),
    /// The end of the document.
    End,
    /// A key with escapes (serde hands it copied), or no `jobs`.
    Unknown,
}

/// The SPEC 7 job fields, in the order of [`PlainJob::into_values`]'s array.
pub(crate) const FIELDS: [&str; 12] = [
    "id",
    "share",
    "instance_type",
    "instances",
    "priority",
    "submit_s",
    "work_s",
    "startup_s",
    "checkpoint",
    "checkpoint_on_preempt",
    "preemption_retries",
    "deadline_s",
];

/// An explicit job of only SPEC 7 job fields: the fields given, each with its JSON value,
/// stored compactly (a JSON object per job is what this module avoids).
pub(crate) struct PlainJob {
    fields: Vec<(u8, Field)>,
}

/// A job field's value: strings and numbers (nearly every field) inline, the rest boxed.
enum Field {
    Str(String),
    Num(serde_json::Number),
    Bool(bool),
    Null,
    Other(Box<Value>),
}

impl From<Value> for Field {
    fn from(v: Value) -> Field {
        match v {
            Value::String(s) => Field::Str(s),
            Value::Number(n) => Field::Num(n),
            Value::Bool(b) => Field::Bool(b),
            Value::Null => Field::Null,
            other => Field::Other(Box::new(other)),
        }
    }
}

impl From<Field> for Value {
    fn from(f: Field) -> Value {
        match f {
            Field::Str(s) => Value::String(s),
            Field::Num(n) => Value::Number(n),
            Field::Bool(b) => Value::Bool(b),
            Field::Null => Value::Null,
            Field::Other(v) => *v,
        }
    }
}

impl PlainJob {
    /// The job's fields as JSON values, indexed as [`FIELDS`] (`None`: absent).
    pub fn into_values(self) -> [Option<Value>; FIELDS.len()] {
        let mut out: [Option<Value>; 12] = Default::default();
        for (k, v) in self.fields {
            out[usize::from(k)] = Some(v.into());
        }
        out
    }

    /// [`PlainJob::into_values`] of a job kept for later texts: its fields copied.
    pub fn to_values(&self) -> [Option<Value>; FIELDS.len()] {
        let mut out: [Option<Value>; 12] = Default::default();
        for (k, v) in &self.fields {
            out[usize::from(*k)] = Some(v.to_value());
        }
        out
    }
}

impl Field {
    fn to_value(&self) -> Value {
        match self {
            Field::Str(s) => Value::String(s.clone()),
            Field::Num(n) => Value::Number(n.clone()),
            Field::Bool(b) => Value::Bool(*b),
            Field::Null => Value::Null,
            Field::Other(v) => (**v).clone(),
        }
    }
}

/// A document's explicit jobs as the validator takes them: read for this text, or kept
/// from an earlier one ([`read_remembering`]).
pub(crate) enum PlainJobs<'a> {
    Read(Vec<PlainJob>),
    Kept(&'a [PlainJob]),
}

impl<'a> PlainJobs<'a> {
    pub fn len(&self) -> usize {
        match self {
            PlainJobs::Read(v) => v.len(),
            PlainJobs::Kept(v) => v.len(),
        }
    }

    /// Each job's fields as JSON values, in order: moved out of jobs read for this text,
    /// copied from kept ones.
    pub fn into_values(self) -> Box<dyn Iterator<Item = [Option<Value>; FIELDS.len()]> + 'a> {
        match self {
            PlainJobs::Read(v) => Box::new(v.into_iter().map(PlainJob::into_values)),
            PlainJobs::Kept(v) => Box::new(v.iter().map(PlainJob::to_values)),
        }
    }
}

/// Reads the document, or fails for anything the general path must word (module doc).
pub(crate) fn read(text: &str) -> Option<PlainDoc> {
    let doc: Doc<Jobs> = serde_json::from_str(text).ok()?;
    Some(Doc {
        top: doc.top,
        jobs: doc.jobs.map(|j| j.jobs),
        after_jobs: doc.after_jobs,
    })
}

/// The explicit jobs of the last plain document read by [`crate::load_remembering`], with that
/// document's text around them and their own (issue #30: a share edited in a large
/// scenario does not read its jobs again).
pub struct JobsMemo {
    /// The text before the `jobs` value, the value's own and the text after it.
    head: String,
    list: String,
    tail: String,
    jobs: Vec<PlainJob>,
}

impl std::fmt::Debug for JobsMemo {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_struct("JobsMemo")
            .field("head", &self.head.len())
            .field("list", &self.list.len())
            .field("tail", &self.tail.len())
            .field("jobs", &self.jobs.len())
            .finish()
    }
}

/// Texts longer than this are not remembered: the memo would hold their jobs twice more.
pub const MEMO_MAX_BYTES: usize = 64 << 20;

impl JobsMemo {
    /// Where the remembered `jobs` bytes are in `text`, if `text` differs from the
    /// remembered one only after them or only before them (so they are the same bytes).
    fn span_in(&self, text: &str) -> Option<std::ops::Range<usize>> {
        let (new, head, list, tail) = (
            text.as_bytes(),
            self.head.as_bytes(),
            self.list.as_bytes(),
            self.tail.as_bytes(),
        );
        let at = |start: usize| new.get(start..start + list.len()) == Some(list);
        if new.starts_with(head) && at(head.len()) {
            return Some(head.len()..head.len() + list.len());
        }
        let start = new.len().checked_sub(tail.len() + list.len())?;
        (new.ends_with(tail) && at(start)).then(|| start..start + list.len())
    }
}

/// [`read`], reusing the jobs `memo` read from an earlier text when `text` differs from it
/// only outside its `jobs` array; `memo` then holds `text`'s jobs (or nothing, for a
/// document [`read`] refuses), and the document returned reads them there. The same
/// document as [`read`] gives: the other fields are read from `text` with `[]` in the jobs'
/// place, and taken only if that `[]` is read as the `jobs` value (an edit before the jobs
/// could have changed what the same bytes mean); a job array's reading depends on its bytes
/// alone. The caller keeps texts over [`MEMO_MAX_BYTES`] out.
pub(crate) fn read_remembering<'m>(
    text: &str,
    memo: &'m mut Option<JobsMemo>,
) -> Option<Doc<&'m [PlainJob]>> {
    let kept = memo
        .take()
        .and_then(|mut old| reread(text, &mut old).map(|top| (old, top)));
    let top = match kept {
        Some((old, top)) => {
            *memo = Some(old);
            top
        }
        None => {
            let doc: Doc<Jobs> = serde_json::from_str(text).ok()?;
            let Some(jobs) = doc.jobs else {
                return Some(Doc {
                    top: doc.top,
                    jobs: None,
                    after_jobs: After::Unknown,
                });
            };
            // Where the jobs are, from where serde handed their first key and the key after
            // them; else (no job, keys with escapes) from a second reading.
            let span = match jobs.first_key {
                Some(key) => jobs_span(text, key, doc.after_jobs),
                None => None,
            };
            let span = match span {
                Some(span) => span,
                None => {
                    let raw = serde_json::from_str::<Doc<&RawValue>>(text).ok()?.jobs?;
                    let start = raw.get().as_ptr() as usize - text.as_ptr() as usize;
                    start..start + raw.get().len()
                }
            };
            *memo = Some(JobsMemo {
                head: text[..span.start].to_owned(),
                list: text[span.clone()].to_owned(),
                tail: text[span.end..].to_owned(),
                jobs: jobs.jobs,
            });
            doc.top
        }
    };
    Some(Doc {
        top,
        jobs: memo.as_ref().map(|m| m.jobs.as_slice()),
        after_jobs: After::Unknown,
    })
}

/// The bytes of `text`'s `jobs` array, from the address of its first job's first key and
/// what follows it: back from the key over `"`, `{` and `[` (and blanks), and back from the
/// next key over `"`, `,` and `]` (or from the end over `}` and `]`). `None` if the bytes
/// there are not those.
fn jobs_span(text: &str, first_key: usize, after: After) -> Option<std::ops::Range<usize>> {
    let b = text.as_bytes();
    let base = text.as_ptr() as usize;
    // The last byte before `i` that is not a JSON blank, if it is `want`.
    let back = |i: usize, want: u8| -> Option<usize> {
        let j = b[..i]
            .iter()
            .rposition(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))?;
        (b[j] == want).then_some(j)
    };
    let key = first_key.checked_sub(base)?;
    let quote = key.checked_sub(1).filter(|&q| b.get(q) == Some(&b'"'))?;
    let start = back(back(quote, b'{')?, b'[')?;
    let close = match after {
        After::Key(next) => {
            let quote = next
                .checked_sub(base + 1)
                .filter(|&q| b.get(q) == Some(&b'"'))?;
            back(back(quote, b',')?, b']')?
        }
        After::End => back(back(b.len(), b'}')?, b']')?,
        After::Unknown => return None,
    };
    Some(start..close + 1)
}

/// The fields of `text` other than its jobs, if its jobs are `memo`'s (then `memo` is
/// updated to `text`'s head and tail).
fn reread(text: &str, memo: &mut JobsMemo) -> Option<Value> {
    let span = memo.span_in(text)?;
    let (head, tail) = (&text[..span.start], &text[span.end..]);
    let stub = [head, "[]", tail].concat();
    let doc = serde_json::from_str::<Doc<&RawValue>>(&stub).ok()?;
    let at = doc
        .jobs
        .map(|j| j.get().as_ptr() as usize - stub.as_ptr() as usize);
    if at != Some(span.start) {
        return None;
    }
    (memo.head, memo.tail) = (head.to_owned(), tail.to_owned());
    Some(doc.top)
}

impl<'de, J: Deserialize<'de>> Deserialize<'de> for Doc<J> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(DocVisitor(std::marker::PhantomData))
    }
}

struct DocVisitor<J>(std::marker::PhantomData<J>);

impl<'de, J: Deserialize<'de>> Visitor<'de> for DocVisitor<J> {
    type Value = Doc<J>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scenario object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Doc<J>, A::Error> {
        let mut top = Map::new();
        let mut jobs = None;
        let mut after_jobs = After::Unknown;
        let mut jobs_last = false;
        while let Some(key) = a.next_key::<Key>()? {
            if std::mem::take(&mut jobs_last) {
                after_jobs = key.at.map_or(After::Unknown, After::Key);
            }
            if key.name == "jobs" {
                if jobs.is_some() {
                    return Err(de::Error::duplicate_field("jobs"));
                }
                jobs = Some(a.next_value::<J>()?);
                jobs_last = true;
            } else {
                let v = a.next_value::<Value>()?;
                if top.insert(key.name.into_owned(), v).is_some() {
                    return Err(de::Error::custom("a key given twice"));
                }
            }
        }
        if jobs_last {
            after_jobs = After::End;
        }
        Ok(Doc {
            top: Value::Object(top),
            jobs,
            after_jobs,
        })
    }
}

/// A map key: borrowed from the text where it has no escapes (`at`: its first byte's
/// address), else copied.
struct Key<'de> {
    name: std::borrow::Cow<'de, str>,
    at: Option<usize>,
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key {
                    name: std::borrow::Cow::Borrowed(s),
                    at: Some(s.as_ptr() as usize),
                })
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key {
                    name: std::borrow::Cow::Owned(s.to_owned()),
                    at: None,
                })
            }
        }
        d.deserialize_str(V)
    }
}

/// The `jobs` array: a sequence of job objects (`null` or anything else fails), and the
/// address of the first job's first key when serde hands it borrowed.
struct Jobs {
    jobs: Vec<PlainJob>,
    first_key: Option<usize>,
}

impl<'de> Deserialize<'de> for Jobs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Jobs;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of jobs")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Jobs, A::Error> {
                let mut jobs = Vec::with_capacity(a.size_hint().unwrap_or(0));
                let mut first_key = None;
                if let Some(j) = a.next_element_seed(JobSeed(Some(&mut first_key)))? {
                    jobs.push(j);
                    while let Some(j) = a.next_element_seed(JobSeed(None))? {
                        jobs.push(j);
                    }
                }
                Ok(Jobs { jobs, first_key })
            }
        }
        d.deserialize_seq(V)
    }
}

/// Reads a [`PlainJob`], noting its first key's address where asked (the first job's).
struct JobSeed<'a>(Option<&'a mut Option<usize>>);

impl<'de> de::DeserializeSeed<'de> for JobSeed<'_> {
    type Value = PlainJob;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<PlainJob, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for JobSeed<'_> {
    type Value = PlainJob;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a job object")
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut a: A) -> Result<PlainJob, A::Error> {
        let mut fields: Vec<(u8, Field)> = Vec::with_capacity(8);
        while let Some(key) = a.next_key::<Key>()? {
            if let Some(first) = self.0.take() {
                *first = key.at;
            }
            let key = key.name;
            let Some(k) = FIELDS.iter().position(|f| *f == key) else {
                a.next_value::<IgnoredAny>()?;
                return Err(de::Error::custom("not a plain job field"));
            };
            let k = k as u8;
            if fields.iter().any(|(f, _)| *f == k) {
                return Err(de::Error::custom("a job field given twice"));
            }
            fields.push((k, a.next_value::<Value>()?.into()));
        }
        fields.shrink_to_fit();
        Ok(PlainJob { fields })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_document_is_read_with_its_jobs_apart() {
        let doc =
            read(r#"{"format": "quotalab/v1", "jobs": [{"id": "a", "work_s": null}], "seed": 2}"#)
                .expect("plain");
        let top: Vec<&String> = doc.top.as_object().unwrap().keys().collect();
        assert_eq!(top, ["format", "seed"]);
        let jobs = doc.jobs.unwrap();
        let values = jobs[0].to_values();
        assert_eq!(values[0], Some(Value::from("a")));
        assert_eq!(values[6], Some(Value::Null), "null is kept, not absent");
        assert_eq!(values[1], None);
    }

    #[test]
    fn anything_the_general_path_must_word_is_refused() {
        for text in [
            r#"{"jobs": [{"id": "a", "priority_class": "high"}]}"#,
            r#"{"jobs": [{"id": "a", "recovery": {}}]}"#,
            r#"{"jobs": [{"id": "a", "colour": 1}]}"#,
            r#"{"jobs": [{"id": "a", "id": "b"}]}"#,
            r#"{"jobs": [["a", "team"]]}"#,
            r#"{"jobs": null}"#,
            r#"{"jobs": [], "jobs": []}"#,
            r#"{"seed": 1, "seed": 2}"#,
            r#"[1, 2]"#,
            r#"{"jobs": [{"id": "a"}]"#,
            r#"{"jobs": []} trailing"#,
            r#"{"jobs": [{"id": "a", "work_s": 1e400}]}"#,
        ] {
            assert!(read(text).is_none(), "{text}");
        }
    }

    /// An edit outside the jobs reuses the remembered ones (a memo holding other jobs for
    /// the same bytes shows which were taken); one that changes what the jobs' bytes mean,
    /// or edits them, reads them again.
    #[test]
    fn the_jobs_are_reused_only_while_their_bytes_mean_the_same() {
        let text = r#"{"name": "a", "jobs": [{"id": "j"}], "seed": 1}"#;
        fn ids(jobs: Option<&[PlainJob]>) -> Vec<String> {
            let jobs = jobs.unwrap_or_default();
            jobs.iter()
                .map(|j| j.to_values()[0].as_ref().unwrap().to_string())
                .collect()
        }
        let poisoned = || {
            let mut memo = None;
            read_remembering(text, &mut memo).unwrap();
            let mut memo = memo.unwrap();
            memo.jobs = read(r#"{"jobs": [{"id": "other"}]}"#)
                .unwrap()
                .jobs
                .unwrap();
            Some(memo)
        };
        for (edited, reused) in [
            (r#"{"name": "bb", "jobs": [{"id": "j"}], "seed": 1}"#, true),
            (r#"{"name": "a", "jobs": [{"id": "j"}], "seed": 22}"#, true),
            (text, true),
            (r#"{"name": "a", "jobs": [{"id": "k"}], "seed": 1}"#, false),
            (
                r#"{"name": "a", "x": "jobs": [{"id": "j"}], "seed": 1}"#,
                false,
            ),
            (r#"{"name": "a", "jobz": [{"id": "j"}], "seed": 1}"#, false),
            (
                r#"{"name": "a", "jobs": [{"id": "j"}], "jobs": [], "seed": 1}"#,
                false,
            ),
            (
                r#"{"name": "a", "x": {"jobs": [{"id": "j"}]}, "seed": 1}"#,
                false,
            ),
        ] {
            let mut memo = poisoned();
            let got = read_remembering(edited, &mut memo);
            assert_eq!(
                got.map(|d| ids(d.jobs)),
                read(edited).map(|d| if reused {
                    vec!["\"other\"".to_string()]
                } else {
                    ids(d.jobs.as_deref())
                }),
                "{edited}"
            );
        }
    }

    /// Where the jobs are is read from where serde handed the first job's key and the key
    /// after the jobs: the same bytes as the jobs value's own, however the text is laid out
    /// (and a second reading finds them where a key has escapes).
    #[test]
    fn the_jobs_are_found_where_their_value_is() {
        for text in [
            r#"{"name": "a", "jobs": [{"id": "j"}, {"id": "k"}], "seed": 1}"#,
            "{\"jobs\" :\n [\n  { \"id\": \"j\" }\n ]\n ,\n \"seed\": 1 }",
            "{\"seed\": 1, \"jobs\":[{\"id\":\"j\"}]}\n",
            r#"{"jobs": [{"id": "j"}], "se\u0065d": 1}"#,
            r#"{"jobs": [{"\u0069d": "j"}]}"#,
            r#"{"jobs": [], "seed": 1}"#,
        ] {
            let mut memo = None;
            read_remembering(text, &mut memo).expect("plain");
            let memo = memo.unwrap();
            let raw = serde_json::from_str::<Doc<&RawValue>>(text)
                .unwrap()
                .jobs
                .unwrap();
            assert_eq!(memo.list, raw.get(), "{text}");
            assert_eq!(format!("{}{}{}", memo.head, memo.list, memo.tail), text);
        }
    }

    /// The fast reading is only a cheaper route: every document it takes, valid or not,
    /// gives the same scenario, problems and warnings as the general path.
    #[test]
    fn the_plain_path_checks_exactly_as_the_general_one() {
        let jobs = [
            r#"{"id": "a", "share": "A", "submit_s": 0, "work_s": 60}"#,
            r#"{"id": "b", "share": "A", "submit_s": 1.5, "work_s": 60, "instances": 2, "priority": 3, "startup_s": 5, "deadline_s": 900}"#,
            r#"{"id": "c", "share": "A", "submit_s": 0, "work_s": 600, "checkpoint": {"interval_s": 60, "cost_s": 1, "restore_s": 2}, "checkpoint_on_preempt": true, "preemption_retries": 2}"#,
            r#"{"id": "d", "share": "A", "submit_s": 0, "work_s": 60, "instance_type": "ml.g5.xlarge", "checkpoint": null, "preemption_retries": null}"#,
            r#"{"id": "", "share": "Z", "submit_s": -1, "work_s": 0}"#,
            r#"{"id": "a", "share": "A", "submit_s": "soon", "work_s": null, "instances": 0}"#,
            r#"{"share": "A", "work_s": 1e300}"#,
            r#"{"id": 7, "share": null, "submit_s": 0, "work_s": 60, "priority": 1.5, "instances": [1]}"#,
            r#"{"id": "e", "share": "A", "submit_s": 0, "work_s": 60, "instance_type": "ml.nope", "checkpoint_on_preempt": "yes"}"#,
            r#"{"id": "f", "share": "A", "submit_s": 0, "work_s": 60, "checkpoint": {"interval_s": 0}}"#,
        ];
        let head = r#""format": "quotalab/v1", "capacity": {"ml.g5.xlarge": 4}, "shares": [{"name": "A", "limits": {"ml.g5.xlarge": 4}}]"#;
        let mut docs: Vec<String> = jobs
            .iter()
            .map(|j| format!("{{{head}, \"jobs\": [{j}]}}"))
            .collect();
        docs.push(format!("{{{head}, \"jobs\": [{}]}}", jobs.join(", ")));
        docs.push(format!(
            "{{\"jobs\": [{}], {head}, \"colour\": 1}}",
            jobs[0]
        ));
        docs.push(format!("{{{head}, \"jobs\": []}}"));
        docs.push(format!("{{{head}, \"jobs\": [{}], \"events\": [{{\"at_s\": 10, \"set_priority\": {{\"job\": \"a\", \"priority\": 2}}}}]}}", jobs[0]));
        for doc in &docs {
            assert!(read(doc).is_some(), "the plain path takes {doc}");
            let general = crate::input::validate::load_value(&serde_json::from_str(doc).unwrap());
            let fast = crate::input::validate::load(doc);
            assert_eq!(format!("{fast:?}"), format!("{general:?}"), "{doc}");
        }
    }
}
