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

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

/// A scenario document with its `jobs` array read as [`PlainJob`]s.
pub(crate) struct PlainDoc {
    /// Every top-level field but `jobs`, in document order.
    pub top: Value,
    /// The `jobs` array, if the document has one.
    pub jobs: Option<Vec<PlainJob>>,
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
}

/// Reads the document, or fails for anything the general path must word (module doc).
pub(crate) fn read(text: &str) -> Option<PlainDoc> {
    serde_json::from_str(text).ok()
}

impl<'de> Deserialize<'de> for PlainDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(DocVisitor)
    }
}

struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = PlainDoc;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scenario object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<PlainDoc, A::Error> {
        let mut top = Map::new();
        let mut jobs = None;
        while let Some(key) = a.next_key::<String>()? {
            if key == "jobs" {
                if jobs.is_some() {
                    return Err(de::Error::duplicate_field("jobs"));
                }
                jobs = Some(a.next_value::<Jobs>()?.0);
            } else {
                let v = a.next_value::<Value>()?;
                if top.insert(key, v).is_some() {
                    return Err(de::Error::custom("a key given twice"));
                }
            }
        }
        Ok(PlainDoc {
            top: Value::Object(top),
            jobs,
        })
    }
}

/// The `jobs` array: a sequence of job objects (`null` or anything else fails).
struct Jobs(Vec<PlainJob>);

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
                while let Some(j) = a.next_element::<PlainJob>()? {
                    jobs.push(j);
                }
                Ok(Jobs(jobs))
            }
        }
        d.deserialize_seq(V)
    }
}

impl<'de> Deserialize<'de> for PlainJob {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PlainJob;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a job object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<PlainJob, A::Error> {
                let mut fields: Vec<(u8, Field)> = Vec::with_capacity(8);
                while let Some(key) = a.next_key::<std::borrow::Cow<'de, str>>()? {
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
        d.deserialize_map(V)
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
        let mut jobs = doc.jobs.unwrap();
        let values = jobs.remove(0).into_values();
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
