//! The walk's readers (SPEC 7): objects, arrays, strings, numbers, times, unknown fields,
//! each reporting a problem at the [`Path`] it is given.

use serde_json::{Map, Value};

use crate::input::json::{self, kind};
use crate::input::model::*;
use crate::input::path::Path;
use crate::Problem;

use super::Cx;

impl Cx {
    pub(super) fn err(&mut self, path: Path, msg: impl Into<String>) {
        self.errors.push(Problem::new(path, msg));
    }
    pub(super) fn warn(&mut self, path: Path, msg: impl Into<String>) {
        self.warnings.push(Problem::new(path, msg));
    }

    pub(super) fn object<'v>(
        &mut self,
        v: &'v Value,
        path: &Path,
    ) -> Option<&'v Map<String, Value>> {
        match v {
            Value::Object(m) => Some(m),
            other => {
                self.err(
                    path.clone(),
                    format!("must be an object, not {}", kind(other)),
                );
                None
            }
        }
    }

    pub(super) fn array<'v>(&mut self, v: &'v Value, path: &Path) -> Option<&'v Vec<Value>> {
        match v {
            Value::Array(a) => Some(a),
            other => {
                self.err(
                    path.clone(),
                    format!("must be an array, not {}", kind(other)),
                );
                None
            }
        }
    }

    /// Warns about fields that are not part of the format (typos are common).
    pub(super) fn unknown_fields(&mut self, m: &Map<String, Value>, path: &Path, known: &[&str]) {
        for k in m.keys() {
            if !known.contains(&k.as_str()) {
                self.warn(
                    path.key(k.as_str()),
                    format!(
                        "unknown field, ignored (expected one of: {})",
                        known.join(", ")
                    ),
                );
            }
        }
    }

    /// Records the problem of a reader ([`json`]), keeping the value it read.
    pub(super) fn read<T>(&mut self, r: Result<T, Problem>) -> Option<T> {
        r.map_err(|p| self.errors.push(p)).ok()
    }

    /// A reader's value, its path built only when it reports a problem: readers are pure,
    /// so the problem read again at the real path is the one it would have reported (SPEC
    /// 7 problems; a valid field costs no path).
    pub(super) fn read_at<T>(
        &mut self,
        reader: impl Fn(&Path) -> Result<T, Problem>,
        path: impl FnOnce() -> Path,
    ) -> Option<T> {
        match reader(&Path::root()) {
            Ok(x) => Some(x),
            Err(_) => {
                let p = path();
                self.read(reader(&p))
            }
        }
    }

    pub(super) fn string(
        &mut self,
        m: &Map<String, Value>,
        path: &Path,
        key: &str,
    ) -> Option<String> {
        self.string_v(m.get(key), path, key)
    }

    /// [`Cx::string`] of the field's value `v` (as `Map::get` gives it).
    pub(super) fn string_v(&mut self, v: Option<&Value>, path: &Path, key: &str) -> Option<String> {
        self.str_v(v, path, key).map(str::to_string)
    }

    /// [`Cx::string_v`], borrowed from the value (no copy for a field only looked at).
    pub(super) fn str_v<'v>(
        &mut self,
        v: Option<&'v Value>,
        path: &Path,
        key: &str,
    ) -> Option<&'v str> {
        match v {
            Some(Value::String(s)) => Some(s),
            None => self.read(Err(json::required(&path.key(key)))),
            Some(v) => self.read(json::string(v, &path.key(key))),
        }
    }

    pub(super) fn bool_or(
        &mut self,
        m: &Map<String, Value>,
        path: &Path,
        key: &str,
        default: bool,
    ) -> bool {
        self.bool_or_v(m.get(key), path, key, default)
    }

    /// [`Cx::bool_or`] of the field's value `v` (`null` is absent).
    pub(super) fn bool_or_v(
        &mut self,
        v: Option<&Value>,
        path: &Path,
        key: &str,
        default: bool,
    ) -> bool {
        match v.filter(|v| !v.is_null()) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(v) => self
                .read(json::boolean(v, &path.key(key)))
                .unwrap_or(default),
        }
    }

    /// A time in seconds: finite, from 0 to [`MAX_TIME_S`](super::MAX_TIME_S).
    pub(super) fn time_field(
        &mut self,
        m: &Map<String, Value>,
        path: &Path,
        key: &str,
        required: bool,
    ) -> Option<f64> {
        self.time_v(m.get(key), path, key, required)
    }

    /// [`Cx::time_field`] of the field's value `v` (`null` is absent).
    pub(super) fn time_v(
        &mut self,
        v: Option<&Value>,
        path: &Path,
        key: &str,
        required: bool,
    ) -> Option<f64> {
        match v.filter(|v| !v.is_null()) {
            None => {
                if required {
                    self.err_problem(json::required(&path.key(key)));
                }
                None
            }
            Some(v) => self.read_at(
                |p| json::number(v, p, json::Rule::SECONDS),
                || path.key(key),
            ),
        }
    }

    /// A duration that must last (`work_s`, a checkpoint interval): seconds > 0, at least
    /// one millisecond once rounded.
    pub(super) fn duration_field(
        &mut self,
        m: &Map<String, Value>,
        path: &Path,
        key: &str,
    ) -> Option<Ms> {
        self.duration_v(m.get(key), path, key)
    }

    /// [`Cx::duration_field`] of the field's value `v` (`null` is absent).
    pub(super) fn duration_v(&mut self, v: Option<&Value>, path: &Path, key: &str) -> Option<Ms> {
        let rule = json::Rule::POSITIVE_SECONDS;
        match v.filter(|v| !v.is_null()) {
            None => self.read(Err(json::required(&path.key(key)))),
            Some(v) => self.read_at(
                |p| json::number(v, p, rule).and_then(|x| json::millis(x, p, rule)),
                || path.key(key),
            ),
        }
    }

    pub(super) fn err_problem(&mut self, p: Problem) {
        self.errors.push(p);
    }

    /// A job priority of the scenario's model (SPEC 2: 0..=9999; SPEC 12: any 32-bit
    /// integer in the Kueue model).
    pub(super) fn priority(&mut self, v: &Value, path: &Path) -> Option<Priority> {
        self.read(json::priority(v, path, self.model == Model::Kueue))
    }

    /// A whole number in `lo..=hi` (a JSON number with no fractional part).
    pub(super) fn int(&mut self, v: &Value, path: &Path, lo: i64, hi: i64) -> Option<i64> {
        self.read(json::integer(v, path, json::Rule::whole(lo, hi)))
    }
}
