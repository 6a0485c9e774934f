//! The Kueue model (SPEC 12): `model`, other-model fields, cohorts, fair sharing, share fields.

use serde_json::{Map, Value};

use crate::input::json::{self, quoted};
use crate::input::model::*;
use crate::input::path::Path;

use super::shares::limits_vec;
use super::{Cx, MAX_NAME};

/// SPEC 12: why a field of the other model is refused, naming the field to use instead.
fn foreign_field_message(model: Model, key: &str) -> Option<&'static str> {
    Some(match (model, key) {
        (Model::Kueue, "strategy") => "is an AWS Batch field, refused in the Kueue model: use lending_limit and borrowing_limit (RESERVE is lending_limit 0 and borrowing_limit 0 per type, LEND is borrowing_limit 0)",
        (Model::Kueue, "borrow_limit") => "is an AWS Batch field, refused in the Kueue model: use borrowing_limit, instances per type (e.g. {\"ml.g5.xlarge\": 2})",
        (Model::Kueue, "in_share_preemption") => "is an AWS Batch field, refused in the Kueue model: use preemption.within_share (\"lower_priority\" for true, \"never\" for false)",
        (Model::AwsBatch, "cohort") => "is a Kueue field (\"model\": \"kueue\"): in the AWS Batch model every share is in the queue's one pool",
        (Model::AwsBatch, "borrowing_limit") => "is a Kueue field (\"model\": \"kueue\"): in the AWS Batch model use borrow_limit (percent of the limit) with strategy LEND_AND_BORROW",
        (Model::AwsBatch, "lending_limit") => "is a Kueue field (\"model\": \"kueue\"): in the AWS Batch model use strategy RESERVE (lends nothing) or LEND / LEND_AND_BORROW (lends all its idle limit)",
        (Model::AwsBatch, "preemption") => "is a Kueue field (\"model\": \"kueue\"): in the AWS Batch model use in_share_preemption (reclaim is always on)",
        (Model::AwsBatch, "weight") => "is a Kueue field (\"model\": \"kueue\"): the AWS Batch model has no fair sharing",
        (Model::AwsBatch, "queueing") => "is a Kueue field (\"model\": \"kueue\"): in the AWS Batch model use queue.queueing",
        (Model::AwsBatch, "cohorts") => "is a Kueue field (\"model\": \"kueue\"): the AWS Batch model has no cohorts",
        (Model::AwsBatch, "fair_sharing") => "is a Kueue field (\"model\": \"kueue\"): the AWS Batch model has no fair sharing",
        _ => return None,
    })
}

impl Cx {
    /// SPEC 12: `model`, `aws_batch` (default) or `kueue`.
    pub(super) fn model_field(&mut self, top: &Map<String, Value>) -> Model {
        match json::get(top, "model") {
            None => Model::AwsBatch,
            Some(v) => match v.as_str().and_then(Model::parse) {
                Some(m) => m,
                None => {
                    self.err(
                        Path::root().key("model"),
                        format!("must be \"aws_batch\" or \"kueue\" (got {v})"),
                    );
                    Model::AwsBatch
                }
            },
        }
    }

    /// SPEC 12: fields of the other model are errors naming the field to use.
    pub(super) fn foreign_fields(&mut self, m: &Map<String, Value>, path: &Path, keys: &[&str]) {
        for k in keys {
            if m.contains_key(*k) {
                if let Some(msg) = foreign_field_message(self.model, k) {
                    self.err(path.key(k), msg);
                }
            }
        }
    }

    /// SPEC 12: instances per type (`limits` of a cohort, `borrowing_limit`,
    /// `lending_limit`); an empty map is allowed.
    fn type_map(&mut self, v: &Value, path: &Path) -> Option<Vec<Option<u64>>> {
        let m = self.object(v, path)?;
        let out = self.instances_per_type(m, path)?;
        Some(limits_vec(&out))
    }

    /// SPEC 12 `weight`: a number >= 0, default 1, kept in thousandths.
    fn weight(&mut self, m: &Map<String, Value>, path: &Path) -> Option<WeightMilli> {
        let Some(v) = json::get(m, "weight") else {
            return Some(1000);
        };
        let p = path.key("weight");
        match v.as_f64() {
            Some(w) if (0.0..=1e9).contains(&w) => {
                let milli = (w * 1000.0).round() as u64;
                if w > 0.0 && milli == 0 {
                    self.err(p, format!("must be 0 or at least 0.001 (got {w})"));
                    return None;
                }
                Some(milli)
            }
            _ => {
                self.err(p, format!("must be a number from 0 to 1e9 (got {v})"));
                None
            }
        }
    }

    /// The index of cohort `name`, adding it (no quota) when it is only named (SPEC 12).
    fn cohort_index(cohorts: &mut Vec<Cohort>, name: &str) -> usize {
        if let Some(i) = cohorts.iter().position(|c| c.name == name) {
            return i;
        }
        cohorts.push(Cohort {
            name: name.to_string(),
            parent: None,
            limits: Vec::new(),
            borrowing_limit: Vec::new(),
            lending_limit: Vec::new(),
            weight: 1000,
        });
        cohorts.len() - 1
    }

    /// SPEC 12 `cohorts`: name, parent, limits, borrowing and lending limits (only with a
    /// parent), weight. Parents only named are added with no quota.
    pub(super) fn cohorts(&mut self, v: Option<&Value>) -> Vec<Cohort> {
        let mut out: Vec<Cohort> = Vec::new();
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return out;
        };
        let top = Path::root().key("cohorts");
        if self.model != Model::Kueue {
            self.err(
                top,
                foreign_field_message(Model::AwsBatch, "cohorts").unwrap_or(""),
            );
            return out;
        }
        let Some(list) = self.array(v, &top) else {
            return out;
        };
        let mut parents: Vec<(usize, String)> = Vec::new();
        for (i, c) in list.iter().enumerate() {
            let path = top.idx(i);
            let Some(m) = self.object(c, &path) else {
                continue;
            };
            self.unknown_fields(
                m,
                &path,
                &[
                    "name",
                    "parent",
                    "limits",
                    "borrowing_limit",
                    "lending_limit",
                    "weight",
                ],
            );
            let Some(name) = self.string(m, &path, "name") else {
                continue;
            };
            if name.is_empty() {
                self.err(path.key("name"), "must not be empty");
            } else if name.chars().count() > MAX_NAME {
                self.err(
                    path.key("name"),
                    format!("must be at most {MAX_NAME} characters"),
                );
            }
            if let Some(first) = out.iter().position(|c| c.name == name) {
                self.err(
                    path.key("name"),
                    format!("duplicate cohort name \"{name}\" (also cohorts[{first}])"),
                );
                continue;
            }
            let parent = match json::get(m, "parent") {
                None => None,
                Some(Value::String(p)) if !p.is_empty() => Some(p.clone()),
                Some(other) => {
                    self.err(
                        path.key("parent"),
                        format!("must be a cohort name, not {other}"),
                    );
                    None
                }
            };
            let mut cohort = Cohort {
                name,
                parent: None,
                limits: Vec::new(),
                borrowing_limit: Vec::new(),
                lending_limit: Vec::new(),
                weight: self.weight(m, &path).unwrap_or(1000),
            };
            if let Some(v) = json::get(m, "limits") {
                cohort.limits = self.type_map(v, &path.key("limits")).unwrap_or_default();
            }
            for key in ["borrowing_limit", "lending_limit"] {
                let Some(v) = json::get(m, key) else { continue };
                if parent.is_none() {
                    self.err(
                        path.key(key),
                        "is only allowed for a cohort with a parent (a root cohort neither borrows nor lends)",
                    );
                }
                let map = self.type_map(v, &path.key(key)).unwrap_or_default();
                if key == "borrowing_limit" {
                    cohort.borrowing_limit = map;
                } else {
                    cohort.lending_limit = map;
                }
            }
            if let Some(p) = parent {
                parents.push((out.len(), p));
            }
            out.push(cohort);
        }
        for (c, p) in parents {
            let pi = Cx::cohort_index(&mut out, &p);
            out[c].parent = Some(pi);
        }
        out
    }

    /// SPEC 12: a cycle of parents is an error naming the cohorts in it.
    pub(super) fn cohort_cycles(&mut self, cohorts: &[Cohort]) {
        let mut reported = vec![false; cohorts.len()];
        for start in 0..cohorts.len() {
            let mut path = vec![start];
            let mut at = start;
            while let Some(p) = cohorts[at].parent {
                if let Some(pos) = path.iter().position(|&x| x == p) {
                    let cycle = &path[pos..];
                    if cycle.iter().all(|&c| !reported[c]) {
                        let first = *cycle.iter().min().unwrap_or(&p);
                        let names: Vec<&str> =
                            cycle.iter().map(|&c| cohorts[c].name.as_str()).collect();
                        self.err(
                            Path::root().key("cohorts").idx(first).key("parent"),
                            format!(
                                "cohorts form a cycle of parents: {} -> {}",
                                names.join(" -> "),
                                names[0]
                            ),
                        );
                    }
                    for &c in cycle {
                        reported[c] = true;
                    }
                    break;
                }
                path.push(p);
                at = p;
            }
        }
    }

    /// SPEC 12 `fair_sharing`: {`strategies`} with the lists Kueue accepts.
    pub(super) fn fair_sharing(&mut self, v: Option<&Value>) -> Option<FairSharing> {
        let v = v.filter(|v| !v.is_null())?;
        let top = Path::root().key("fair_sharing");
        if self.model != Model::Kueue {
            self.err(
                top,
                foreign_field_message(Model::AwsBatch, "fair_sharing").unwrap_or(""),
            );
            return None;
        }
        let m = self.object(v, &top)?;
        self.unknown_fields(m, &top, &["strategies"]);
        let default = vec![
            FsStrategy::LessThanOrEqualToFinalShare,
            FsStrategy::LessThanInitialShare,
        ];
        let Some(list) = json::get(m, "strategies") else {
            return Some(FairSharing {
                strategies: default,
            });
        };
        let path = top.key("strategies");
        let list = self.array(list, &path)?;
        let mut out = Vec::new();
        for (i, x) in list.iter().enumerate() {
            match x.as_str().and_then(FsStrategy::parse) {
                Some(st) => out.push(st),
                None => self.err(
                    path.idx(i),
                    format!("must be \"less_than_or_equal_to_final_share\" or \"less_than_initial_share\" (got {x})"),
                ),
            }
        }
        if out.len() != list.len() {
            return None;
        }
        use FsStrategy::*;
        let ok = matches!(
            out.as_slice(),
            [LessThanOrEqualToFinalShare]
                | [LessThanInitialShare]
                | [LessThanOrEqualToFinalShare, LessThanInitialShare]
        );
        if !ok {
            self.err(
                path,
                "must be one of the lists Kueue accepts: [less_than_or_equal_to_final_share], [less_than_initial_share] or [less_than_or_equal_to_final_share, less_than_initial_share]",
            );
            return None;
        }
        Some(FairSharing { strategies: out })
    }

    /// SPEC 12 "Share fields in the Kueue model": cohort, borrowing and lending limits (only
    /// in a cohort; lending <= limit), queueing, preemption policies, weight.
    pub(super) fn kueue_share(
        &mut self,
        m: &Map<String, Value>,
        path: &Path,
        limits: &[Option<u64>],
        default_queueing: Queueing,
        cohorts: &mut Vec<Cohort>,
    ) -> Option<KueueShare> {
        let before = self.errors.len();
        let mut k = KueueShare {
            queueing: default_queueing,
            ..KueueShare::default()
        };
        match json::get(m, "cohort") {
            None => {}
            Some(Value::String(c)) if !c.is_empty() => {
                k.cohort = Some(Cx::cohort_index(cohorts, c));
            }
            Some(other) => self.err(
                path.key("cohort"),
                format!("must be a cohort name, not {other}"),
            ),
        }
        for key in ["borrowing_limit", "lending_limit"] {
            let Some(v) = json::get(m, key) else { continue };
            let p = path.key(key);
            if k.cohort.is_none() {
                self.err(
                    p.clone(),
                    "is only allowed for a share in a cohort (a share alone neither borrows nor lends)",
                );
            }
            let Some(map) = self.type_map(v, &p) else {
                continue;
            };
            for (t, n) in map.iter().enumerate() {
                let Some(n) = *n else { continue };
                let tname = self.types[t].name.clone();
                match limits.get(t).copied().flatten() {
                    None => self.err(
                        p.key(tname.as_str()),
                        format!("the share has no limit for {tname} (add it to limits)"),
                    ),
                    Some(l) if key == "lending_limit" && n > l => self.err(
                        p.key(tname.as_str()),
                        format!("must be at most the share's limit for {tname} ({l}), got {n}"),
                    ),
                    _ => {}
                }
            }
            if key == "borrowing_limit" {
                k.borrowing_limit = map;
            } else {
                k.lending_limit = map;
            }
        }
        if let Some(q) = self.queueing(json::get(m, "queueing"), &path.key("queueing")) {
            k.queueing = q;
        }
        if let Some(v) = json::get(m, "preemption") {
            if let Some(p) = self.preemption(v, &path.key("preemption")) {
                k.preemption = p;
            }
        }
        if let Some(w) = self.weight(m, path) {
            k.weight = w;
        }
        (self.errors.len() == before).then_some(k)
    }

    /// SPEC 12 `preemption`: within_share, reclaim, borrow_within_cohort {policy,
    /// max_priority_threshold}; a borrow_within_cohort policy needs reclaim.
    fn preemption(&mut self, v: &Value, path: &Path) -> Option<Preemption> {
        let m = self.object(v, path)?;
        self.unknown_fields(
            m,
            path,
            &["within_share", "reclaim", "borrow_within_cohort"],
        );
        let mut p = Preemption::default();
        if let Some(v) = json::get(m, "within_share") {
            match v.as_str().and_then(WithinShare::parse) {
                Some(w) => p.within_share = w,
                None => self.err(
                    path.key("within_share"),
                    format!("must be one of {} (got {v})", quoted(&WithinShare::NAMES)),
                ),
            }
        }
        if let Some(v) = json::get(m, "reclaim") {
            match v.as_str().and_then(ReclaimPolicy::parse) {
                Some(r) => p.reclaim = r,
                None => self.err(
                    path.key("reclaim"),
                    format!("must be one of {} (got {v})", quoted(&ReclaimPolicy::NAMES)),
                ),
            }
        }
        if let Some(v) = json::get(m, "borrow_within_cohort") {
            let bp = path.key("borrow_within_cohort");
            if let Some(b) = self.object(v, &bp) {
                self.unknown_fields(b, &bp, &["policy", "max_priority_threshold"]);
                match json::get(b, "policy").map(|v| (v, v.as_str())) {
                    None | Some((_, Some("never"))) => {}
                    Some((_, Some("lower_priority"))) => {
                        p.borrow_within_cohort.lower_priority = true;
                        if p.reclaim == ReclaimPolicy::Never {
                            self.err(
                                bp.key("policy"),
                                "\"lower_priority\" requires preemption.reclaim other than \"never\" (Kueue refuses borrowWithinCohort without reclaimWithinCohort)",
                            );
                        }
                    }
                    Some((v, _)) => self.err(
                        bp.key("policy"),
                        format!("must be \"never\" or \"lower_priority\" (got {v})"),
                    ),
                }
                if let Some(t) = json::get(b, "max_priority_threshold") {
                    p.borrow_within_cohort.max_priority_threshold =
                        self.priority(t, &bp.key("max_priority_threshold"));
                }
            }
        }
        Some(p)
    }
}
