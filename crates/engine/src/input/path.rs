//! JSON paths as the validator names them (`shares[2].limits.ml.g5.xlarge`): the one path
//! type of the validator (every [`Problem`](crate::Problem) names its place with one), the
//! sweep (`--vary PATH`, resolved against the document so that instance-type keys keep
//! their dots) and the page's editor, with edits of a `serde_json::Value` at such a path
//! that keep the document's key order. It imports nothing of the engine, so the crate
//! root's `Problem`, below every stage, can hold one.
//!
//! A path is its steps, so a key with dots or brackets in it (an instance type such as
//! `ml.g5.xlarge`) is one step, never read back from text. It displays as the validator
//! has always written its paths: keys joined by `.`, indices in `[ ]`, every key as it is
//! (`capacity.ml.g5.xlarge`). Places that are not inside the scenario (a command-line
//! option, a place in an imported file, a generated job) are [`Path::named`]: one step
//! holding the words, displayed as they are.

use std::fmt;

use serde_json::{Map, Value};

/// One step of a path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Seg {
    Key(String),
    Idx(usize),
}

/// A path from the document root; displayed like the validator's problem paths.
///
/// It compares equal to a string when it displays as that string (`path == "shares[0]"`),
/// as the problem paths did when they were strings.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Path(Vec<Seg>);

impl Path {
    /// The document itself.
    pub fn root() -> Path {
        Path(Vec::new())
    }

    /// A place that is not a path into the scenario, in words (`--share`, `cluster.yaml:
    /// [0].spec`, `job "train-7"`): one key holding the text, so that it displays as
    /// written. Empty text is the root.
    pub fn named(text: impl Into<String>) -> Path {
        let text = text.into();
        if text.is_empty() {
            Path::root()
        } else {
            Path(vec![Seg::Key(text)])
        }
    }

    /// The path of these steps.
    pub fn from_segs(segs: Vec<Seg>) -> Path {
        Path(segs)
    }

    /// This path, then object key `k`.
    pub fn key(&self, k: &str) -> Path {
        let mut segs = Vec::with_capacity(self.0.len() + 1);
        segs.extend_from_slice(&self.0);
        segs.push(Seg::Key(k.to_string()));
        Path(segs)
    }

    /// This path, then array index `i`.
    pub fn idx(&self, i: usize) -> Path {
        let mut segs = Vec::with_capacity(self.0.len() + 1);
        segs.extend_from_slice(&self.0);
        segs.push(Seg::Idx(i));
        Path(segs)
    }

    /// Adds a step in place (a loop over a large array reuses one path: push, use, pop).
    pub fn push(&mut self, seg: Seg) {
        self.0.push(seg);
    }

    /// Removes the last step in place, and returns it.
    pub fn pop(&mut self) -> Option<Seg> {
        self.0.pop()
    }

    pub fn segs(&self) -> &[Seg] {
        &self.0
    }

    /// Whether the path displays as nothing: the root, or only empty keys (a top-level
    /// field called "").
    pub fn is_empty(&self) -> bool {
        self.0
            .iter()
            .all(|s| matches!(s, Seg::Key(k) if k.is_empty()))
    }

    /// The containing path and the last step (None for the root).
    pub fn split_last(&self) -> Option<(Path, &Seg)> {
        let (last, rest) = self.0.split_last()?;
        Some((Path(rest.to_vec()), last))
    }

    /// The value at this path, if there is one.
    pub fn get<'a>(&self, root: &'a Value) -> Option<&'a Value> {
        self.0.iter().try_fold(root, |v, seg| match seg {
            Seg::Key(k) => v.as_object()?.get(k),
            Seg::Idx(i) => v.as_array()?.get(*i),
        })
    }

    /// The value at this path, mutably, if there is one.
    pub fn get_mut<'a>(&self, root: &'a mut Value) -> Option<&'a mut Value> {
        self.0.iter().try_fold(root, |v, seg| match seg {
            Seg::Key(k) => v.as_object_mut()?.get_mut(k),
            Seg::Idx(i) => v.as_array_mut()?.get_mut(*i),
        })
    }

    /// Sets the value at this path (`Some`) or removes it (`None`). Setting creates missing
    /// (or non-object) parents as objects along object keys; an existing key keeps its
    /// place and a new one goes last. Array indices must exist. Removing keeps the order of
    /// the other keys, and removing something absent does nothing.
    pub fn set(&self, root: &mut Value, new: Option<Value>) {
        let Some((parent, last)) = self.split_last() else {
            if let Some(v) = new {
                *root = v;
            }
            return;
        };
        let container = match &new {
            Some(_) => parent.ensure(root),
            None => parent.get_mut(root),
        };
        let Some(container) = container else { return };
        match (last, new) {
            (Seg::Key(k), Some(v)) => {
                if !container.is_object() {
                    *container = Value::Object(Map::new());
                }
                if let Some(m) = container.as_object_mut() {
                    m.insert(k.clone(), v);
                }
            }
            (Seg::Key(k), None) => {
                if let Some(m) = container.as_object_mut() {
                    m.shift_remove(k);
                }
            }
            (Seg::Idx(i), Some(v)) => {
                if let Some(slot) = container.as_array_mut().and_then(|a| a.get_mut(*i)) {
                    *slot = v;
                }
            }
            (Seg::Idx(i), None) => {
                if let Some(a) = container.as_array_mut() {
                    if *i < a.len() {
                        a.remove(*i);
                    }
                }
            }
        }
    }

    /// The value at this path, creating objects along the way (None if an array index
    /// is missing).
    fn ensure<'a>(&self, root: &'a mut Value) -> Option<&'a mut Value> {
        let mut v = root;
        for seg in &self.0 {
            v = match seg {
                Seg::Key(k) => {
                    if !v.is_object() {
                        *v = Value::Object(Map::new());
                    }
                    v.as_object_mut()?
                        .entry(k.clone())
                        .or_insert_with(|| Value::Object(Map::new()))
                }
                Seg::Idx(i) => v.as_array_mut()?.get_mut(*i)?,
            };
        }
        Some(v)
    }
}

/// Keys joined by `.`, indices in `[ ]`, each key as it is: what the validator's
/// `format!("{path}.{key}")` and `format!("{path}[{i}]")` wrote, where a key after nothing
/// (the first, or one after empty keys) had no dot before it.
impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut written = false;
        for seg in &self.0 {
            match seg {
                Seg::Key(k) if !written => f.write_str(k)?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Idx(i) => write!(f, "[{i}]")?,
            }
            written |= !matches!(seg, Seg::Key(k) if k.is_empty());
        }
        Ok(())
    }
}

impl PartialEq<str> for Path {
    /// Whether the path displays as `text` (compared as it is written, with no copy).
    fn eq(&self, text: &str) -> bool {
        /// Takes what is written off the front of the text, failing at the first difference.
        struct Rest<'a>(&'a str);
        impl fmt::Write for Rest<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut rest = Rest(text);
        fmt::write(&mut rest, format_args!("{self}")).is_ok() && rest.0.is_empty()
    }
}

impl PartialEq<&str> for Path {
    fn eq(&self, text: &&str) -> bool {
        *self == **text
    }
}

impl PartialEq<String> for Path {
    fn eq(&self, text: &String) -> bool {
        *self == **text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn displays_like_the_validator() {
        let p = Path::root().key("shares").idx(2).key("borrow_limit");
        assert_eq!(p.to_string(), "shares[2].borrow_limit");
        let c = Path::root().key("capacity").key("ml.g5.xlarge");
        assert_eq!(c.to_string(), "capacity.ml.g5.xlarge");
        let w = Path::root()
            .key("workloads")
            .idx(0)
            .key("work_s")
            .key("uniform")
            .idx(1);
        assert_eq!(w.to_string(), "workloads[0].work_s.uniform[1]");
    }

    /// The validator's old text, built the old way: `format!("{path}.{key}")` (a key
    /// alone at the top) and `format!("{path}[{i}]")`.
    fn old_join(path: &str, key: &str) -> String {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    }

    #[test]
    fn a_dotted_key_and_an_index_display_as_the_validator_wrote_them() {
        let old = old_join(
            &old_join(&format!("{}[{}]", "shares", 1), "limits"),
            "ml.g5.xlarge",
        );
        let p = Path::root()
            .key("shares")
            .idx(1)
            .key("limits")
            .key("ml.g5.xlarge");
        assert_eq!(p.to_string(), old);
        assert_eq!(p.to_string(), "shares[1].limits.ml.g5.xlarge");
        // One step, dots and all: not four keys.
        assert_eq!(p.segs().len(), 4);
        assert_eq!(p.segs()[3], Seg::Key("ml.g5.xlarge".into()));
        let b = Path::root().key("events").idx(0).key("a[1]").idx(2);
        assert_eq!(
            b.to_string(),
            format!("{}[2]", old_join("events[0]", "a[1]"))
        );
        for i in [0, 7, 10, 123_456, usize::MAX] {
            assert_eq!(
                Path::root().key("jobs").idx(i).to_string(),
                format!("jobs[{i}]")
            );
        }
    }

    #[test]
    fn empty_keys_display_as_the_old_join_did() {
        // `join("", "")` was "" and a key after it had no dot.
        let e = Path::root().key("");
        assert_eq!(e.to_string(), old_join("", ""));
        assert!(e.is_empty() && Path::root().is_empty());
        assert_eq!(e.key("x").to_string(), old_join(&old_join("", ""), "x"));
        assert_eq!(
            Path::root().key("capacity").key("").to_string(),
            old_join("capacity", "")
        );
        assert!(!Path::root().key("x").is_empty());
    }

    #[test]
    fn named_places_and_comparisons() {
        let n = Path::named("--share");
        assert_eq!(n.to_string(), "--share");
        assert_eq!(Path::named(""), Path::root());
        assert_eq!(Path::named("job \"a.b\"").segs().len(), 1);
        let p = Path::root().key("capacity").key("ml.g5.xlarge");
        assert!(p == "capacity.ml.g5.xlarge");
        assert!(p != "capacity" && p != "capacity.ml.g5.xlarge.x");
        assert_eq!(p, "capacity.ml.g5.xlarge".to_string());
        let mut q = Path::root().key("jobs");
        q.push(Seg::Idx(3));
        assert_eq!(q.to_string(), "jobs[3]");
        assert_eq!(q.pop(), Some(Seg::Idx(3)));
        assert_eq!(q, Path::root().key("jobs"));
    }

    #[test]
    fn set_keeps_order_and_creates_parents() {
        let mut v = json!({"a": 1, "b": {"x": 1}, "c": [1, 2]});
        Path::root().key("a").set(&mut v, Some(json!(5)));
        Path::root().key("b").key("y").set(&mut v, Some(json!(2)));
        Path::root()
            .key("q")
            .key("r")
            .set(&mut v, Some(json!(true)));
        Path::root().key("c").idx(1).set(&mut v, Some(json!(9)));
        Path::root().key("c").idx(7).set(&mut v, Some(json!(9)));
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"a":5,"b":{"x":1,"y":2},"c":[1,9],"q":{"r":true}}"#
        );
        Path::root().key("a").set(&mut v, None);
        Path::root().key("c").idx(0).set(&mut v, None);
        Path::root().key("zz").key("y").set(&mut v, None);
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"b":{"x":1,"y":2},"c":[9],"q":{"r":true}}"#
        );
    }
}
