//! The editor's edits of a scenario document beyond setting a value at a path: renaming a
//! key in place and swapping one "action" key for another. Paths themselves are the
//! engine's ([`quotalab_engine::input::path`]).

use serde_json::{Map, Value};

pub use quotalab_engine::input::path::{Path, Seg};

/// Renames key `old` of object `m` to `new` in place (same position). Does nothing if `old`
/// is absent or `new` is taken by another key.
pub fn rename_key(m: &mut Map<String, Value>, old: &str, new: &str) {
    if old == new || m.contains_key(new) {
        return;
    }
    let Some(pos) = m.keys().position(|k| k == old) else {
        return;
    };
    if let Some(v) = m.shift_remove(old) {
        m.shift_insert(pos, new.to_string(), v);
    }
}

/// Replaces the single "action" key of object `m` among `keys` by `new_key: value`, at the
/// same position (for event kinds, distributions and arrival processes).
pub fn replace_one_of(m: &mut Map<String, Value>, keys: &[&str], new_key: &str, value: Value) {
    let pos = m.keys().position(|k| keys.contains(&k.as_str()));
    for k in keys {
        m.shift_remove(*k);
    }
    let pos = pos.unwrap_or(m.len()).min(m.len());
    m.shift_insert(pos, new_key.to_string(), value);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rename_and_replace_keep_positions() {
        let mut v = json!({"a": 1, "b": 2, "c": 3});
        let m = v.as_object_mut().unwrap();
        rename_key(m, "b", "z");
        rename_key(m, "a", "c");
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "z", "c"]);
        replace_one_of(m, &["z", "q"], "q", json!(0));
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "q", "c"]);
    }
}
