//! Timed `events` (SPEC 7): set_priority, update_share, borrow limits over time (SPEC 2).

use std::collections::HashMap;

use serde_json::Value;

use crate::input::json::kind;
use crate::input::model::*;
use crate::input::path::Path;

use super::shares::{limits_vec, AWS_SHARE_FIELDS};
use super::Cx;

impl Cx {
    pub(super) fn events(
        &mut self,
        v: Option<&Value>,
        ids: &HashMap<&str, usize>,
        shares: &[Share],
    ) -> Vec<TimedEvent> {
        let Some(v) = v else { return Vec::new() };
        let top = Path::root().key("events");
        let Some(list) = self.array(v, &top) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // The file index of each event in `out` (invalid events are left out of `out`).
        let mut file_index = Vec::new();
        for (i, e) in list.iter().enumerate() {
            let path = top.idx(i);
            let Some(m) = self.object(e, &path) else {
                continue;
            };
            self.unknown_fields(m, &path, &["at_s", "set_priority", "update_share"]);
            let at = self.time_field(m, &path, "at_s", true).map(ms_from_s);
            let action = match (m.get("set_priority"), m.get("update_share")) {
                (Some(sp), None) => self.set_priority(sp, &path.key("set_priority"), ids),
                (None, Some(us)) => self.update_share(us, &path.key("update_share"), shares),
                (Some(_), Some(_)) => {
                    self.err(
                        path,
                        "must have exactly one of set_priority or update_share, not both",
                    );
                    None
                }
                (None, None) => {
                    self.err(path, "must have one of set_priority or update_share");
                    None
                }
            };
            if let (Some(at), Some(action)) = (at, action) {
                out.push(TimedEvent { at, action });
                file_index.push(i);
            }
        }
        self.check_borrow_limits_over_time(&out, &file_index, shares);
        out
    }

    fn set_priority(
        &mut self,
        v: &Value,
        path: &Path,
        ids: &HashMap<&str, usize>,
    ) -> Option<TimedAction> {
        let m = self.object(v, path)?;
        self.unknown_fields(m, path, &["job", "priority"]);
        let job = self.string(m, path, "job").and_then(|j| {
            let found = ids.get(j.as_str()).copied();
            if found.is_none() && !self.invalid_jobs.contains(&j) {
                self.err(path.key("job"), format!("unknown job \"{j}\""));
            }
            found
        });
        let priority = match m.get("priority") {
            Some(v) => self.priority(v, &path.key("priority")),
            None => {
                self.err(path.key("priority"), "is required");
                None
            }
        };
        Some(TimedAction::SetPriority {
            job: job?,
            priority: priority?,
        })
    }

    fn update_share(&mut self, v: &Value, path: &Path, shares: &[Share]) -> Option<TimedAction> {
        let m = self.object(v, path)?;
        self.unknown_fields(
            m,
            path,
            &[
                "share",
                "limits",
                "strategy",
                "borrow_limit",
                "in_share_preemption",
                "state",
            ],
        );
        let before = self.errors.len();
        let share = self.string(m, path, "share").and_then(|s| {
            let found = shares.iter().position(|x| x.name == s);
            if found.is_none() && !self.invalid_shares.contains(&s) {
                let names: Vec<&str> = shares.iter().map(|s| s.name.as_str()).collect();
                self.err(
                    path.key("share"),
                    format!("unknown share \"{s}\" (shares: {})", names.join(", ")),
                );
            }
            found
        });
        let mut update = ShareUpdate::default();
        if self.model == Model::Kueue {
            self.foreign_fields(m, path, AWS_SHARE_FIELDS);
        }
        if let Some(v) = m.get("limits") {
            update.limits = self.limits(v, &path.key("limits")).map(|l| limits_vec(&l));
        }
        if let Some(v) = m.get("strategy") {
            update.strategy = self.strategy(v, &path.key("strategy"));
        }
        if let Some(v) = m.get("borrow_limit") {
            update.borrow_limit = self.borrow_limit(v, &path.key("borrow_limit"));
        }
        if let Some(v) = m.get("in_share_preemption") {
            match v {
                Value::Bool(b) => update.in_share_preemption = Some(*b),
                other => self.err(
                    path.key("in_share_preemption"),
                    format!("must be true or false, not {}", kind(other)),
                ),
            }
        }
        if let Some(v) = m.get("state") {
            update.enabled = self.state(v, &path.key("state"));
        }
        if self.errors.len() != before {
            return None;
        }
        Some(TimedAction::UpdateShare {
            share: share?,
            update,
        })
    }

    /// SPEC 2: `borrow_limit` only with LEND_AND_BORROW, also for a share's later updates.
    /// `file_index[i]` is the index in the file's `events` array of `events[i]`.
    fn check_borrow_limits_over_time(
        &mut self,
        events: &[TimedEvent],
        file_index: &[usize],
        shares: &[Share],
    ) {
        let mut order: Vec<usize> = (0..events.len()).collect();
        crate::sort::compact_by_i64(&mut order, &|&i| events[i].at);
        let mut strategy: Vec<Strategy> = shares.iter().map(|s| s.strategy).collect();
        for i in order {
            if let TimedAction::UpdateShare { share, update } = &events[i].action {
                if let Some(s) = update.strategy {
                    strategy[*share] = s;
                }
                if update.borrow_limit.is_some() && strategy[*share] != Strategy::LendAndBorrow {
                    self.err(
                        Path::root()
                            .key("events")
                            .idx(file_index[i])
                            .key("update_share")
                            .key("borrow_limit"),
                        "is only allowed when the share's strategy is LEND_AND_BORROW",
                    );
                }
            }
        }
    }
}
