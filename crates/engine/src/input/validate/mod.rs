//! Scenario parsing and validation (SPEC 2 "Entities and limits", SPEC 7 "Scenario file").
//!
//! The JSON text is parsed into a [`serde_json::Value`] first (syntax errors give line and
//! column), then walked by hand so that *every* problem is reported at once, each with its
//! JSON path. Nothing is simulated from an invalid scenario. Unknown fields are warnings.

mod contract;
mod events;
mod jobs;
mod kueue;
mod readers;
mod scenario;
mod shares;
mod warnings;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::input::json::{self, kind};
use crate::input::model::*;
use crate::input::path::{Path, Seg};
pub use crate::input::plain::JobsMemo;
use crate::input::plain::PlainJobs;
use crate::input::workload;
use crate::Problem;

use contract::{add_continuations, resubmit_without_retries, workloads_use_contract};
use jobs::job_fields;

pub use crate::input::json::strip_position;
pub use crate::input::model::limits::{
    KUEUE_MAX_COHORTS, KUEUE_MAX_SHARES, MAX_INSTANCES, MAX_INSTANCE_TYPES, MAX_LIMITS, MAX_NAME,
    MAX_SHARES, MAX_TIME_S,
};

/// SPEC 2: priorities are 0..=[`MAX_PRIORITY`] (see [`crate::input::model::limits`]).
pub const MAX_PRIORITY: u64 = crate::input::model::limits::MAX_PRIORITY as u64;

/// A valid scenario and the warnings found while checking it (e.g. overcommit).
#[derive(Clone, Debug)]
pub struct Loaded {
    pub scenario: Scenario,
    pub warnings: Vec<Problem>,
}

impl Loaded {
    /// `quotasim validate`'s line (SPEC 9), also the Python package's `validate(...).text`:
    /// `valid: 3 shares, 4 jobs, 1 timed events, 0 warning(s)`.
    pub fn valid_line(&self) -> String {
        format!(
            "valid: {} shares, {} jobs, {} timed events, {} warning(s)",
            self.scenario.shares.len(),
            self.scenario.described_jobs(),
            self.scenario.events.len(),
            self.warnings.len()
        )
    }
}

/// Parses and validates scenario JSON text (SPEC 7). Returns every problem at once.
/// A document whose jobs are plain is read without a JSON object per job
/// (`input/plain.rs`: the same checks, the same result); any other is parsed into a
/// [`Value`] and checked.
pub fn load(text: &str) -> Result<Loaded, Vec<Problem>> {
    match super::plain::read(text) {
        Some(doc) => load_parts(&doc.top, doc.jobs.map(PlainJobs::Read)),
        None => load_general(text),
    }
}

/// A text the plain reading refuses, parsed into a [`Value`] and checked.
fn load_general(text: &str) -> Result<Loaded, Vec<Problem>> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| vec![Problem::whole(json::syntax_error(&e))])?;
    load_value(&value)
}

/// [`load`] for a text edited again and again (the page's engine worker, issue #30): a
/// plain document's explicit jobs are read once and reused while the edits are outside its
/// `jobs` array ([`JobsMemo`]); `memo` keeps them between calls. The result is [`load`]'s:
/// the jobs are validated again, with the rest of this text.
pub fn load_remembering(text: &str, memo: &mut Option<JobsMemo>) -> Result<Loaded, Vec<Problem>> {
    if text.len() > super::plain::MEMO_MAX_BYTES {
        *memo = None;
        return load(text);
    }
    match super::plain::read_remembering(text, memo) {
        Some(doc) => load_parts(&doc.top, doc.jobs.map(PlainJobs::Kept)),
        None => load_general(text),
    }
}

/// Validates an already-parsed scenario document (SPEC 7).
pub fn load_value(value: &Value) -> Result<Loaded, Vec<Problem>> {
    load_parts(value, None)
}

/// Validates a document, its explicit jobs read apart as [`PlainJobs`] when `plain` is given
/// (then `value` has no `jobs` field).
fn load_parts(value: &Value, plain: Option<PlainJobs>) -> Result<Loaded, Vec<Problem>> {
    let mut cx = Cx::default();
    // SPEC 13: `priority_class` names become the priorities they name.
    let resolved = super::priority_class::resolve(value, &mut cx.errors);
    let scenario = cx.scenario(resolved.as_ref().unwrap_or(value), plain);
    if cx.errors.is_empty() {
        if let Some(scenario) = scenario {
            return Ok(Loaded {
                scenario,
                warnings: cx.warnings,
            });
        }
    }
    if cx.errors.is_empty() {
        cx.errors.push(Problem::whole("invalid scenario"));
    }
    Err(cx.errors)
}

#[derive(Default)]
struct Cx {
    errors: Vec<Problem>,
    warnings: Vec<Problem>,
    /// Instance types: declared ones first, then catalogue types in order of first use.
    types: Vec<InstanceType>,
    declared: HashMap<String, usize>,
    /// Names of shares that are declared but invalid (their problems are already reported):
    /// a job or event naming one is not also told the share is unknown.
    invalid_shares: Vec<String>,
    /// Ids of explicit jobs that are declared but invalid, for the same reason.
    invalid_jobs: HashSet<String>,
    /// SPEC 12: the scenario's model (read first: the share fields depend on it).
    model: Model,
    /// SPEC 14: the agreement of each valid share, in the order of the shares.
    agreements: Vec<Option<Agreement>>,
    /// SPEC 14: some job, workload or the scenario wrote a field of the contract.
    contract: bool,
    /// The distinct per-workload blocks of the explicit jobs so far (at most
    /// [`MAX_SHARED_CLASSES`]), shared by the jobs that have the same.
    classes: Vec<std::sync::Arc<JobClass>>,
    /// The ids of the jobs built so far.
    ids: JobIds,
}

/// The error when a scenario's job ids (explicit and generated) exceed [`JobIds::MAX_BYTES`].
const TOO_MANY_ID_BYTES: &str =
    "the scenario's job ids (explicit and generated) total more than 4 GiB";

/// Explicit jobs share at most this many distinct [`JobClass`] blocks (the rest get their
/// own): a bound on the search.
const MAX_SHARED_CLASSES: usize = 32;

impl Cx {
    fn scenario(&mut self, v: &Value, plain: Option<PlainJobs>) -> Option<Scenario> {
        let root = Path::root();
        let top = self.object(v, &root)?;
        self.unknown_fields(
            top,
            &root,
            &[
                "format",
                "name",
                "description",
                "seed",
                "horizon_s",
                "instance_types",
                "capacity",
                "queue",
                "shares",
                "jobs",
                "workloads",
                "events",
                "model",
                "cohorts",
                "fair_sharing",
                "alarms",
                "priority_classes",
                "source",
            ],
        );
        self.model = self.model_field(top);
        match top.get("format") {
            Some(Value::String(f)) if f == "quotalab/v1" => {}
            Some(other) => self.err(
                root.key("format"),
                format!("must be \"quotalab/v1\" (got {other})"),
            ),
            None => self.warn(root.key("format"), "missing; assuming \"quotalab/v1\""),
        }
        let name = match top.get("name") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                self.err(
                    root.key("name"),
                    format!("must be a string, not {}", kind(other)),
                );
                String::new()
            }
        };
        let seed = match top.get("seed") {
            None | Some(Value::Null) => 0,
            Some(v) => self.int(v, &root.key("seed"), 0, i64::MAX).unwrap_or(0) as u64,
        };
        let horizon = self
            .time_field(top, &root, "horizon_s", false)
            .map(ms_from_s);
        if horizon == Some(0) {
            // SPEC 6 stops the run at horizon_s; at 0 nothing runs (a model choice: a
            // warning, not an error, see docs/ARCHITECTURE.md).
            self.warn(root.key("horizon_s"), "is 0: the run stops at its start, so only what happens at time 0 is simulated and no job runs (remove it to run every job to its end, or give the seconds to simulate)");
        }

        // Declared instance types come first, in file order.
        if let Some(v) = top.get("instance_types") {
            let path = root.key("instance_types");
            if let Some(list) = self.array(v, &path) {
                if list.len() > MAX_INSTANCE_TYPES {
                    self.err(
                        path.clone(),
                        format!(
                            "declares {} instance types; a scenario may declare at most {MAX_INSTANCE_TYPES}",
                            list.len()
                        ),
                    );
                }
                for (i, t) in list.iter().enumerate().take(MAX_INSTANCE_TYPES) {
                    self.instance_type(t, &path.idx(i));
                }
            }
        }

        // SPEC 16: what an import read (`source.kueue`, `source.aws`), kept for a safe export; the
        // simulation never reads it.
        if let Some(v) = top.get("source") {
            if let Some(m) = self.object(v, &root.key("source")) {
                self.unknown_fields(m, &root.key("source"), &["kueue", "aws"]);
            }
        }

        let queue = top.get("queue");
        let (queueing, grace) = self.queue(queue);
        let mut cohorts = self.cohorts(top.get("cohorts"));
        let fair_sharing = self.fair_sharing(top.get("fair_sharing"));
        let shares = self.shares(top.get("shares"), queueing, &mut cohorts);
        if cohorts.len() > KUEUE_MAX_COHORTS {
            // SPEC 13: listed ones and those only named by a share or a parent.
            self.err(
                root.key("cohorts"),
                format!(
                    "at most {KUEUE_MAX_COHORTS} cohorts in the Kueue model (has {}, listed or named by a share or a parent)",
                    cohorts.len()
                ),
            );
        }
        self.cohort_cycles(&cohorts);
        let share_names: Vec<String> = shares.iter().map(|s| s.name.clone()).collect();

        let mut jobs = Vec::new();
        if let Some(list) = plain {
            jobs.reserve_exact(list.len());
            // One path for every job (`jobs[i]`: its index set in place, nothing allocated
            // per job).
            let mut path = root.key("jobs");
            for (i, values) in list.into_values().enumerate() {
                let f = job_fields(values.each_ref().map(Option::as_ref), None);
                let id = f.id;
                path.push(Seg::Idx(i));
                if let Some(job) = self.job_of(f, None, &path, &share_names) {
                    jobs.push(job);
                } else if let Some(id) = id.and_then(Value::as_str) {
                    self.invalid_jobs.insert(id.to_string());
                }
                path.pop();
            }
        } else if let Some(v) = top.get("jobs") {
            let mut path = root.key("jobs");
            if let Some(list) = self.array(v, &path) {
                jobs.reserve_exact(list.len());
                for (i, j) in list.iter().enumerate() {
                    path.push(Seg::Idx(i));
                    if let Some(job) = self.job(j, &path, &share_names) {
                        jobs.push(job);
                    } else if let Some(id) = j.get("id").and_then(Value::as_str) {
                        self.invalid_jobs.insert(id.to_string());
                    }
                    path.pop();
                }
            }
        }
        let explicit_jobs = jobs.len();

        // Workloads: parsed against the share and type names known so far. Catalogue types
        // they name are added to the type list first so that their indices resolve.
        let mut workloads = Vec::new();
        if let Some(v) = top.get("workloads") {
            if let Some(list) = self.array(v, &root.key("workloads")) {
                for (i, w) in list.iter().enumerate() {
                    let path = root.key("workloads").idx(i);
                    if let Some(Value::String(t)) = w.get("instance_type") {
                        self.type_index(t, &path.key("instance_type"));
                    }
                    if let Value::Object(m) = w {
                        resubmit_without_retries(m, &path, &mut self.warnings);
                        self.unknown_fields(m, &path, workload::FIELDS);
                        if let Some(Value::Object(c)) = m.get("checkpoint") {
                            self.unknown_fields(
                                c,
                                &path.key("checkpoint"),
                                workload::CHECKPOINT_FIELDS,
                            );
                        }
                    }
                    // Invalid shares are named too (after the valid ones, so that valid
                    // indices are unchanged): their problems are reported already, and the
                    // scenario is invalid whatever the workload's share index.
                    let names: Vec<&str> = share_names
                        .iter()
                        .chain(&self.invalid_shares)
                        .map(String::as_str)
                        .collect();
                    let type_names: Vec<String> =
                        self.types.iter().map(|t| t.name.clone()).collect();
                    let type_refs: Vec<&str> = type_names.iter().map(String::as_str).collect();
                    if let Some(w) = workload::parse(
                        w,
                        &path,
                        &names,
                        &type_refs,
                        self.model == Model::Kueue,
                        &mut self.errors,
                    ) {
                        workloads.push(w);
                    }
                }
            }
        }
        // Sized once for the generated jobs and their SPEC 14 continuations.
        if (self.ids.len() as u64).saturating_add(workload::id_bytes(&workloads) as u64)
            > JobIds::MAX_BYTES
        {
            self.err(root.key("workloads"), TOO_MANY_ID_BYTES);
        } else {
            workload::generate_into(&workloads, seed, &mut jobs, &mut self.ids);
        }
        let job_ids = std::mem::take(&mut self.ids);

        // Unique ids (explicit and generated). Generated ids `<share>-<n>` never repeat
        // among themselves (a share's name resolves to one index, numbered from 1, and a
        // name followed by `-<digits>` determines both), so they are only looked up among
        // the explicit ones, and joined to the map only when timed events name jobs: a
        // million generated jobs are not hashed for nothing.
        let all_ids = top.get("events").is_some();
        let mut ids: HashMap<&str, usize> =
            HashMap::with_capacity(if all_ids { jobs.len() } else { explicit_jobs });
        let mut dup = Vec::new();
        for (i, j) in jobs.iter().enumerate() {
            if i < explicit_jobs || all_ids {
                if let Some(first) = ids.insert(job_ids.get(j.id), i) {
                    dup.push((i, first));
                }
            } else if explicit_jobs == 0 {
                break;
            } else if let Some(&first) = ids.get(job_ids.get(j.id)) {
                dup.push((i, first));
            }
        }
        for (i, first) in dup {
            let path = if i < explicit_jobs {
                root.key("jobs").idx(i).key("id")
            } else {
                root.key("workloads")
            };
            let what = if first < explicit_jobs {
                format!("jobs[{first}]")
            } else {
                "a generated job".to_string()
            };
            self.err(
                path,
                format!(
                    "duplicate job id \"{}\" (also used by {what})",
                    job_ids.get(jobs[i].id)
                ),
            );
        }

        let events = self.events(top.get("events"), &ids, &shares);
        let alarms = match top.get("alarms") {
            None | Some(Value::Null) => None,
            Some(v) => {
                self.contract = true;
                let mut problems = Vec::new();
                let a = crate::input::contract::alarms(v, &root.key("alarms"), &mut problems);
                self.errors.extend(problems);
                a
            }
        };

        let capacity = self.capacity(top.get("capacity"), &shares, &cohorts);

        if shares.len() != share_names.len() || !self.errors.is_empty() {
            return None;
        }
        self.advise(&shares, &capacity, &jobs, &job_ids, explicit_jobs);
        add_continuations(&mut jobs);
        let contract = self.contract || workloads_use_contract(top);
        Some(Scenario {
            name,
            seed,
            horizon,
            instance_types: std::mem::take(&mut self.types),
            capacity,
            queueing,
            grace,
            shares,
            jobs,
            job_ids,
            events,
            model: self.model,
            cohorts,
            fair_sharing,
            alarms,
            agreements: std::mem::take(&mut self.agreements),
            contract,
        })
    }
}
