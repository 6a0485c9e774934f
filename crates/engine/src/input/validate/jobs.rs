//! Explicit `jobs` (SPEC 7, and their SPEC 14 fields): each job checked and built.

use serde_json::{Map, Value};

use crate::input::json;
use crate::input::model::*;
use crate::input::path::Path;
use crate::input::plain::FIELDS as SPEC7_JOB_FIELDS;

use super::contract::resubmit_without_retries;
use super::{Cx, MAX_INSTANCES, MAX_SHARED_CLASSES, MAX_TIME_S, TOO_MANY_ID_BYTES};

impl Cx {
    /// An explicit job's block: one it shares with an earlier job that has the same.
    fn job_class(&mut self, class: JobClass) -> std::sync::Arc<JobClass> {
        if let Some(c) = self.classes.iter().find(|c| ***c == class) {
            return c.clone();
        }
        let c = std::sync::Arc::new(class);
        if self.classes.len() < MAX_SHARED_CLASSES {
            self.classes.push(c.clone());
        }
        c
    }

    pub(super) fn job(&mut self, v: &Value, path: &Path, shares: &[String]) -> Option<JobSpec> {
        let m = self.object(v, path)?;
        // One pass over the job's fields instead of a hashed lookup per field (SPEC 7 job
        // fields; the warnings about unknown ones are the same, in the same order).
        let mut spec7 = [None; SPEC7_JOB_FIELDS.len()];
        let mut contract = None;
        let mut unknown = false;
        for (k, v) in m {
            if let Some(i) = SPEC7_JOB_FIELDS.iter().position(|f| f == k) {
                spec7[i] = Some(v);
            } else if crate::input::contract::JOB_FIELDS.contains(&k.as_str()) {
                contract = Some(v);
            } else {
                unknown = true;
            }
        }
        if unknown {
            self.unknown_fields(m, path, &JOB_FIELDS);
        }
        self.job_of(job_fields(spec7, contract), Some(m), path, shares)
    }

    /// SPEC 7 job fields, checked: `m` is the job's object when it was read as one (the
    /// SPEC 14 fields are read from it; a [`PlainJob`](crate::input::plain::PlainJob) has none).
    pub(super) fn job_of(
        &mut self,
        f: JobFields<'_>,
        m: Option<&Map<String, Value>>,
        path: &Path,
        shares: &[String],
    ) -> Option<JobSpec> {
        let before = self.errors.len();
        let id = self.str_v(f.id, path, "id");
        if let Some(id) = id {
            if id.is_empty() {
                self.err(path.key("id"), "must not be empty");
            }
        }
        let share = self.str_v(f.share, path, "share").and_then(|s| {
            let found = shares.iter().position(|n| n == s);
            if found.is_none() && !self.invalid_shares.iter().any(|n| n == s) {
                let known: Vec<&str> = shares.iter().map(String::as_str).collect();
                self.err_problem(json::unknown(
                    &path.key("share"),
                    format!("unknown share \"{s}\" (shares: {})", shares.join(", ")),
                    &known,
                ));
            }
            found
        });
        // A declared type is found with one lookup; anything else is checked in full.
        let declared = match f.instance_type {
            Some(Value::String(t)) => self.declared.get(t.as_str()).copied(),
            _ => None,
        };
        let ty = declared.or_else(|| {
            self.string_v(f.instance_type, path, "instance_type")
                .and_then(|t| self.type_index(&t, &path.key("instance_type")))
        });
        let instances = match f.instances {
            None => Some(1),
            Some(v) => self.read_at(
                |p| json::integer(v, p, json::Rule::whole(1, MAX_INSTANCES as i64)),
                || path.key("instances"),
            ),
        };
        let kueue = self.model == Model::Kueue;
        let priority = match f.priority {
            None => Some(0),
            Some(v) => self.read_at(|p| json::priority(v, p, kueue), || path.key("priority")),
        };
        let submit = self.time_v(f.submit_s, path, "submit_s", true);
        let work = self.duration_v(f.work_s, path, "work_s");
        let startup = self
            .time_v(f.startup_s, path, "startup_s", false)
            .unwrap_or(0.0);
        let checkpoint = match f.checkpoint {
            None | Some(Value::Null) => None,
            Some(v) => self.checkpoint(v, &path.key("checkpoint")),
        };
        let checkpoint_on_preempt = self.bool_or_v(
            f.checkpoint_on_preempt,
            path,
            "checkpoint_on_preempt",
            false,
        );
        let retries = match f.preemption_retries {
            None | Some(Value::Null) => None,
            Some(v) => self
                .read_at(
                    |p| json::integer(v, p, json::Rule::whole(0, i64::MAX)),
                    || path.key("preemption_retries"),
                )
                .map(|r| r as u64),
        };
        let deadline = self
            .time_v(f.deadline_s, path, "deadline_s", false)
            .map(ms_from_s);
        // SPEC 14 fields: none given (or all null) is their defaults.
        let contract_map = m.filter(|_| f.contract.is_some());
        let (recovery, on_retries_exhausted, escalate) = if let Some(m) = contract_map {
            let names: Vec<&str> = shares.iter().map(String::as_str).collect();
            let mut problems = Vec::new();
            let fields = crate::input::contract::job_fields(
                m,
                path,
                &names,
                share,
                f.deadline_s.is_some_and(|d| !d.is_null()),
                "deadline_s",
                self.model == Model::Kueue,
                &mut problems,
            );
            self.contract |= crate::input::contract::JOB_FIELDS
                .iter()
                .any(|k| json::get(m, k).is_some());
            self.errors.extend(problems);
            resubmit_without_retries(m, path, &mut self.warnings);
            fields
        } else {
            (Some(None), Some(OnExhausted::Fail), Some(None))
        };
        if let (Some(Some(e)), Some(d)) = (escalate, deadline) {
            if e.before_deadline > d {
                // SPEC 14 is silent: escalated at its submission (docs/ARCHITECTURE.md).
                self.warn(
                    path.key("escalate").key("before_deadline_s"),
                    "is more than deadline_s: the job is escalated as soon as it is submitted",
                );
            }
        }
        if let (Some(w), Some(c)) = (work, checkpoint) {
            if w > c.max_work() {
                self.err(
                    path.key("checkpoint").key("cost_s"),
                    format!(
                        "saving a checkpoint of {} s every {} s of {} s of work takes more than {:e} s (SPEC 2's bound on a time)",
                        c.cost as f64 / 1000.0,
                        c.interval as f64 / 1000.0,
                        w as f64 / 1000.0,
                        MAX_TIME_S
                    ),
                );
            }
        }
        if self.errors.len() != before {
            return None;
        }
        let Some(id) = self.ids.push(id?) else {
            self.err(path.key("id"), TOO_MANY_ID_BYTES);
            return None;
        };
        let times = JobTimes {
            submit: ms_from_s(submit?),
            work: work?,
            startup: ms_from_s(startup),
            deadline: OptMs::from_option(deadline),
        };
        let class = self.job_class(JobClass {
            checkpoint,
            checkpoint_on_preempt,
            preemption_retries: retries,
            recovery: recovery?,
            on_retries_exhausted: on_retries_exhausted?,
            escalate: escalate?,
        });
        Some(JobSpec::new(
            id,
            share?,
            ty?,
            instances? as u64,
            priority?,
            times,
            class,
        ))
    }

    fn checkpoint(&mut self, v: &Value, path: &Path) -> Option<Checkpoint> {
        let m = self.object(v, path)?;
        self.unknown_fields(m, path, &["interval_s", "cost_s", "restore_s"]);
        let interval = self.duration_field(m, path, "interval_s");
        let cost = self.time_field(m, path, "cost_s", false).unwrap_or(0.0);
        let restore = self.time_field(m, path, "restore_s", false).unwrap_or(0.0);
        Some(Checkpoint {
            interval: interval?,
            cost: ms_from_s(cost),
            restore: ms_from_s(restore),
        })
    }
}

/// SPEC 7 (then SPEC 14) fields of an explicit job: the one list of them, both parts'.
const JOB_FIELDS: [&str; SPEC7_JOB_FIELDS.len() + crate::input::contract::JOB_FIELDS.len()] = {
    let (spec7, spec14) = (SPEC7_JOB_FIELDS, crate::input::contract::JOB_FIELDS);
    let mut all = [""; SPEC7_JOB_FIELDS.len() + crate::input::contract::JOB_FIELDS.len()];
    let mut i = 0;
    while i < all.len() {
        all[i] = if i < spec7.len() {
            spec7[i]
        } else {
            spec14[i - spec7.len()]
        };
        i += 1;
    }
    all
};

/// An explicit job's fields as found in one pass over its object (see [`Cx::job`]);
/// `contract`: some SPEC 14 field is present. Made by [`job_fields`].
pub(super) struct JobFields<'v> {
    pub(super) id: Option<&'v Value>,
    share: Option<&'v Value>,
    instance_type: Option<&'v Value>,
    instances: Option<&'v Value>,
    priority: Option<&'v Value>,
    submit_s: Option<&'v Value>,
    work_s: Option<&'v Value>,
    startup_s: Option<&'v Value>,
    checkpoint: Option<&'v Value>,
    checkpoint_on_preempt: Option<&'v Value>,
    preemption_retries: Option<&'v Value>,
    deadline_s: Option<&'v Value>,
    contract: Option<&'v Value>,
}

/// A job's fields as [`Cx::job_of`] reads them: `spec7` indexed as [`SPEC7_JOB_FIELDS`]
/// (an explicit job's object, or a [`PlainJob`]'s values), `contract` some SPEC 14 field.
///
/// [`PlainJob`]: crate::input::plain::PlainJob
pub(super) fn job_fields<'v>(
    spec7: [Option<&'v Value>; SPEC7_JOB_FIELDS.len()],
    contract: Option<&'v Value>,
) -> JobFields<'v> {
    let [id, share, instance_type, instances, priority, submit_s, work_s, startup_s, checkpoint, checkpoint_on_preempt, preemption_retries, deadline_s] =
        spec7;
    JobFields {
        id,
        share,
        instance_type,
        instances,
        priority,
        submit_s,
        work_s,
        startup_s,
        checkpoint,
        checkpoint_on_preempt,
        preemption_retries,
        deadline_s,
        contract,
    }
}
