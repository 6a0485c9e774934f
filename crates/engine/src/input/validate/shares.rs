//! `shares` (SPEC 2, SPEC 7): name, limits, strategy, borrow limit, state, agreement.

use std::collections::HashMap;

use serde_json::Value;

use crate::input::json;
use crate::input::model::*;
use crate::input::path::Path;
use crate::{Kind, Problem};

use super::{Cx, KUEUE_MAX_SHARES, MAX_INSTANCES, MAX_LIMITS, MAX_NAME, MAX_SHARES};

impl Cx {
    pub(super) fn limits(&mut self, v: &Value, path: &Path) -> Option<Vec<(usize, u64)>> {
        let m = self.object(v, path)?;
        if m.is_empty() || m.len() > MAX_LIMITS {
            self.err(
                path.clone(),
                format!(
                    "must have 1 to {MAX_LIMITS} instance types (has {})",
                    m.len()
                ),
            );
        }
        self.instances_per_type(m, path)
    }

    /// Instances per instance type (`{"ml.g5.xlarge": 4}`): each key a known type, each
    /// value 0 to `MAX_INSTANCES`; `None` when any is not (every problem reported).
    pub(super) fn instances_per_type(
        &mut self,
        m: &serde_json::Map<String, Value>,
        path: &Path,
    ) -> Option<Vec<(usize, u64)>> {
        let mut out = Vec::new();
        let mut ok = true;
        for (t, n) in m {
            let p = path.key(t);
            let ti = self.type_index(t, &p);
            let n = self.int(n, &p, 0, MAX_INSTANCES as i64);
            match (ti, n) {
                (Some(ti), Some(n)) => out.push((ti, n as u64)),
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }

    pub(super) fn borrow_limit(&mut self, v: &Value, path: &Path) -> Option<BorrowLimit> {
        let n = self.int(v, path, -1, i64::MAX)?;
        Some(if n == -1 {
            BorrowLimit::Unlimited
        } else {
            BorrowLimit::Percent(n as u64)
        })
    }

    pub(super) fn strategy(&mut self, v: &Value, path: &Path) -> Option<Strategy> {
        let names = ["RESERVE", "LEND", "LEND_AND_BORROW"];
        let s = self.read(json::one_of(v, path, &names))?;
        Strategy::parse(s)
    }

    pub(super) fn state(&mut self, v: &Value, path: &Path) -> Option<bool> {
        let s = self.read(json::one_of(v, path, &["ENABLED", "DISABLED"]))?;
        Some(s == "ENABLED")
    }

    pub(super) fn shares(
        &mut self,
        v: Option<&Value>,
        queueing: Queueing,
        cohorts: &mut Vec<Cohort>,
    ) -> Vec<Share> {
        let kueue = self.model == Model::Kueue;
        let top = Path::root().key("shares");
        let Some(v) = v else {
            self.err(
                top,
                "is required: a scenario needs at least one quota share",
            );
            return Vec::new();
        };
        let Some(list) = self.array(v, &top) else {
            return Vec::new();
        };
        if list.is_empty() {
            self.err(top.clone(), "must have at least one quota share");
        }
        if !kueue && list.len() > MAX_SHARES {
            self.err(
                top.clone(),
                format!(
                    "at most {MAX_SHARES} quota shares per queue (has {})",
                    list.len()
                ),
            );
        }
        if kueue && list.len() > KUEUE_MAX_SHARES {
            self.err(
                top.clone(),
                format!(
                    "at most {KUEUE_MAX_SHARES} quota shares (ClusterQueues) in the Kueue model (has {})",
                    list.len()
                ),
            );
        }
        let mut out = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, s) in list.iter().enumerate() {
            let path = top.idx(i);
            let Some(m) = self.object(s, &path) else {
                continue;
            };
            if kueue {
                self.unknown_fields(m, &path, KUEUE_SHARE_FIELDS);
                self.foreign_fields(m, &path, AWS_SHARE_FIELDS);
            } else {
                self.unknown_fields(
                    m,
                    &path,
                    &[
                        "name",
                        "limits",
                        "strategy",
                        "borrow_limit",
                        "in_share_preemption",
                        "state",
                        "agreement",
                    ],
                );
                self.foreign_fields(m, &path, KUEUE_SHARE_FIELDS);
            }
            let name = self.string(m, &path, "name");
            if let Some(n) = &name {
                if n.is_empty() {
                    self.err_problem(
                        Problem::new(path.key("name"), "must not be empty")
                            .with_kind(Kind::NotEmpty),
                    );
                } else if n.chars().count() > MAX_NAME {
                    self.err(
                        path.key("name"),
                        format!("must be at most {MAX_NAME} characters"),
                    );
                }
                if let Some(first) = seen.insert(n.clone(), i) {
                    self.err_problem(
                        Problem::new(
                            path.key("name"),
                            format!("duplicate share name \"{n}\" (also shares[{first}])"),
                        )
                        .with_kind(Kind::Duplicate),
                    );
                }
            }
            let limits = match m.get("limits") {
                Some(v) => self.limits(v, &path.key("limits")),
                None => {
                    self.err(
                        path.key("limits"),
                        "is required (instances per type, e.g. {\"ml.g5.xlarge\": 2})",
                    );
                    None
                }
            };
            let strategy = match m.get("strategy") {
                // SPEC 12: the AWS fields are refused in the Kueue model (above); the
                // share's AWS configuration is a neutral one that no Kueue rule reads.
                _ if kueue => Some(Strategy::LendAndBorrow),
                Some(v) => self.strategy(v, &path.key("strategy")),
                None => {
                    self.err(
                        path.key("strategy"),
                        "is required: RESERVE, LEND or LEND_AND_BORROW",
                    );
                    None
                }
            };
            let borrow_limit = match m.get("borrow_limit") {
                _ if kueue => Some(BorrowLimit::Unlimited),
                None | Some(Value::Null) => Some(BorrowLimit::Unlimited),
                Some(v) => {
                    let b = self.borrow_limit(v, &path.key("borrow_limit"));
                    if strategy.is_some() && strategy != Some(Strategy::LendAndBorrow) {
                        self.err(
                            path.key("borrow_limit"),
                            "is only allowed with strategy LEND_AND_BORROW",
                        );
                    }
                    b
                }
            };
            let in_share_preemption =
                !kueue && self.bool_or(m, &path, "in_share_preemption", false);
            let enabled = match m.get("state") {
                None | Some(Value::Null) => Some(true),
                Some(v) => self.state(v, &path.key("state")),
            };
            let agreement = match m.get("agreement") {
                None | Some(Value::Null) => Some(None),
                Some(v) => {
                    let mut problems = Vec::new();
                    let a =
                        crate::input::contract::agreement(v, &path.key("agreement"), &mut problems);
                    self.errors.extend(problems);
                    a.map(Some)
                }
            };
            let fields = if kueue {
                let limits = limits.as_deref().map(limits_vec).unwrap_or_default();
                self.kueue_share(m, &path, &limits, queueing, cohorts)
            } else {
                Some(KueueShare::default())
            };
            match (name, limits, strategy, borrow_limit, enabled, fields) {
                (
                    Some(name),
                    Some(limits),
                    Some(strategy),
                    Some(borrow_limit),
                    Some(enabled),
                    Some(kueue),
                ) if agreement.is_some() => {
                    self.agreements.push(agreement.flatten());
                    out.push(Share {
                        name,
                        limits: limits_vec(&limits),
                        strategy,
                        borrow_limit,
                        in_share_preemption,
                        enabled,
                        kueue,
                    })
                }
                (Some(name), ..) => self.invalid_shares.push(name),
                _ => {}
            }
        }
        out
    }
}

/// SPEC 12: the share fields of the Kueue model.
const KUEUE_SHARE_FIELDS: &[&str] = &[
    "name",
    "limits",
    "cohort",
    "borrowing_limit",
    "lending_limit",
    "queueing",
    "preemption",
    "weight",
    "state",
    "agreement",
];

/// SPEC 2: the share fields only the AWS Batch model has.
pub(super) const AWS_SHARE_FIELDS: &[&str] = &["strategy", "borrow_limit", "in_share_preemption"];

pub(super) fn limits_vec(limits: &[(usize, u64)]) -> Vec<Option<u64>> {
    let n = limits.iter().map(|(t, _)| t + 1).max().unwrap_or(0);
    let mut v = vec![None; n];
    for &(t, l) in limits {
        v[t] = Some(l);
    }
    v
}
