//! The scenario's own sections (SPEC 7): instance types, `queue` and `capacity`.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::input::catalogue;
use crate::input::json;
use crate::input::model::*;
use crate::input::path::Path;

use super::{Cx, MAX_INSTANCES};

impl Cx {
    /// Resolves an instance-type name: declared in `instance_types`, else the catalogue.
    pub(super) fn type_index(&mut self, name: &str, path: &Path) -> Option<usize> {
        if let Some(&i) = self.declared.get(name) {
            return Some(i);
        }
        match catalogue::lookup(name) {
            Some(t) => {
                let i = self.types.len();
                self.types.push(t);
                self.declared.insert(name.to_string(), i);
                Some(i)
            }
            None => {
                let known: Vec<&str> = catalogue::names().collect();
                self.err_problem(json::unknown(
                    path,
                    format!(
                        "unknown instance type \"{name}\": declare it in instance_types or use a built-in one ({})",
                        known.join(", ")
                    ),
                    &known,
                ));
                None
            }
        }
    }

    pub(super) fn instance_type(&mut self, v: &Value, path: &Path) {
        let Some(m) = self.object(v, path) else {
            return;
        };
        self.unknown_fields(m, path, &["name", "gpus", "usd_per_hour"]);
        let name = self.string(m, path, "name");
        if let Some(n) = &name {
            if n.is_empty() {
                self.err(path.key("name"), "must not be empty");
            } else if self.declared.contains_key(n) {
                self.err(path.key("name"), format!("duplicate instance type \"{n}\""));
            }
        }
        let builtin = name.as_deref().and_then(catalogue::lookup);
        let gpus = match m.get("gpus") {
            Some(v) => self
                .int(v, &path.key("gpus"), 1, u32::MAX as i64)
                .map(|g| g as u32),
            None => match &builtin {
                Some(b) => Some(b.gpus),
                None => {
                    self.err(path.key("gpus"), "is required (GPUs per instance, >= 1)");
                    None
                }
            },
        };
        let price = match m.get("usd_per_hour") {
            Some(v) => match v.as_f64() {
                Some(p) if p.is_finite() && p >= 0.0 => Some(p),
                _ => {
                    self.err(
                        path.key("usd_per_hour"),
                        format!("must be a finite number >= 0 (got {v})"),
                    );
                    None
                }
            },
            None => Some(builtin.as_ref().map_or(0.0, |b| b.usd_per_hour)),
        };
        if let (Some(name), Some(gpus), Some(usd_per_hour)) = (name, gpus, price) {
            if !name.is_empty() && !self.declared.contains_key(&name) {
                self.declared.insert(name.clone(), self.types.len());
                self.types.push(InstanceType {
                    name,
                    gpus,
                    usd_per_hour,
                });
            }
        }
    }

    pub(super) fn queue(&mut self, v: Option<&Value>) -> (Queueing, Ms) {
        let mut queueing = Queueing::BestEffortFifo;
        let mut grace = 120_000;
        let Some(v) = v else { return (queueing, grace) };
        let path = Path::root().key("queue");
        let Some(m) = self.object(v, &path) else {
            return (queueing, grace);
        };
        self.unknown_fields(m, &path, &["queueing", "preemption_grace_s"]);
        if let Some(q) = self.queueing(m.get("queueing"), &path.key("queueing")) {
            queueing = q;
        }
        if let Some(g) = self.time_field(m, &path, "preemption_grace_s", false) {
            grace = ms_from_s(g);
        }
        (queueing, grace)
    }

    /// `queueing`: `best_effort_fifo` or `strict_fifo` (None when absent or invalid).
    pub(super) fn queueing(&mut self, v: Option<&Value>, path: &Path) -> Option<Queueing> {
        let v = v?;
        match self.read(json::one_of(v, path, &["best_effort_fifo", "strict_fifo"]))? {
            "strict_fifo" => Some(Queueing::StrictFifo),
            _ => Some(Queueing::BestEffortFifo),
        }
    }

    pub(super) fn capacity(
        &mut self,
        v: Option<&Value>,
        shares: &[Share],
        cohorts: &[Cohort],
    ) -> Vec<u64> {
        // Default (SPEC 2): the sum of the shares' limits per type (SPEC 12: and of the
        // cohorts').
        let mut given: BTreeMap<usize, u64> = BTreeMap::new();
        if let Some(v) = v {
            let path = Path::root().key("capacity");
            if let Some(m) = self.object(v, &path) {
                for (t, n) in m {
                    let p = path.key(t);
                    let ti = self.type_index(t, &p);
                    let n = self.int(n, &p, 0, MAX_INSTANCES as i64);
                    if let (Some(ti), Some(n)) = (ti, n) {
                        given.insert(ti, n as u64);
                    }
                }
            }
        }
        (0..self.types.len())
            .map(|t| {
                given.get(&t).copied().unwrap_or_else(|| {
                    shares
                        .iter()
                        .map(|s| &s.limits)
                        .chain(cohorts.iter().map(|c| &c.limits))
                        .map(|l| l.get(t).copied().flatten().unwrap_or(0))
                        .fold(0u64, u64::saturating_add)
                })
            })
            .collect()
    }
}
