//! JSON paths as the validator names them (`shares[2].limits.ml.g5.xlarge`): the one path
//! type of the engine's sweep (`--vary PATH`, resolved against the document so that
//! instance-type keys keep their dots) and the page's editor, with edits of a
//! `serde_json::Value` at such a path that keep the document's key order.

use std::fmt;

use serde_json::{Map, Value};

/// One step of a path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    Key(String),
    Idx(usize),
}

/// A path from the document root; displayed like the validator's problem paths.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Path(Vec<Seg>);

impl Path {
    /// The document itself.
    pub fn root() -> Path {
        Path(Vec::new())
    }

    /// The path of these steps.
    pub fn from_segs(segs: Vec<Seg>) -> Path {
        Path(segs)
    }

    /// This path, then object key `k`.
    pub fn key(&self, k: impl Into<String>) -> Path {
        let mut segs = self.0.clone();
        segs.push(Seg::Key(k.into()));
        Path(segs)
    }

    /// This path, then array index `i`.
    pub fn idx(&self, i: usize) -> Path {
        let mut segs = self.0.clone();
        segs.push(Seg::Idx(i));
        Path(segs)
    }

    pub fn segs(&self) -> &[Seg] {
        &self.0
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

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if n == 0 => f.write_str(k)?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Idx(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
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
