//! Scenario parsing and validation (SPEC 2 "Entities and limits", SPEC 7 "Scenario file").
//!
//! The JSON text is parsed into a [`serde_json::Value`] first (syntax errors give line and
//! column), then walked by hand so that *every* problem is reported at once, each with its
//! JSON path. Nothing is simulated from an invalid scenario. Unknown fields are warnings.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value};

use crate::catalogue;
use crate::input::json::{self, idx, join, kind, quoted};
use crate::input::plain::{PlainJob, FIELDS as SPEC7_JOB_FIELDS};
use crate::model::*;
use crate::workload;
use crate::{Kind, Problem};

pub use crate::input::json::strip_position;
pub use crate::model::limits::{
    KUEUE_MAX_COHORTS, KUEUE_MAX_SHARES, MAX_INSTANCES, MAX_INSTANCE_TYPES, MAX_LIMITS, MAX_NAME,
    MAX_SHARES, MAX_TIME_S,
};

/// SPEC 2: priorities are 0..=[`MAX_PRIORITY`] (see [`crate::model::limits`]).
pub const MAX_PRIORITY: u64 = crate::model::limits::MAX_PRIORITY as u64;

/// A valid scenario and the warnings found while checking it (e.g. overcommit).
#[derive(Clone, Debug)]
pub struct Loaded {
    pub scenario: Scenario,
    pub warnings: Vec<Problem>,
}

/// Parses and validates scenario JSON text (SPEC 7). Returns every problem at once.
/// Natively, a document whose jobs are plain is read without a JSON object per job
/// (`input/plain.rs`: the same checks, the same result); any other, and every document in
/// the page's wasm (whose load budget has no room for that reader), is parsed into a
/// [`Value`] and checked.
pub fn load(text: &str) -> Result<Loaded, Vec<Problem>> {
    if cfg!(not(target_arch = "wasm32")) {
        if let Some(doc) = super::plain::read(text) {
            return load_parts(&doc.top, doc.jobs);
        }
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| vec![Problem::new("", json::syntax_error(&e))])?;
    load_value(&value)
}

/// Validates an already-parsed scenario document (SPEC 7).
pub fn load_value(value: &Value) -> Result<Loaded, Vec<Problem>> {
    load_parts(value, None)
}

/// Validates a document, its explicit jobs read apart as [`PlainJob`]s when `plain` is given
/// (then `value` has no `jobs` field).
fn load_parts(value: &Value, plain: Option<Vec<PlainJob>>) -> Result<Loaded, Vec<Problem>> {
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
        cx.errors.push(Problem::new("", "invalid scenario"));
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

    fn err(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.errors.push(Problem::new(path, msg));
    }
    fn warn(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.warnings.push(Problem::new(path, msg));
    }

    fn object<'v>(&mut self, v: &'v Value, path: &str) -> Option<&'v Map<String, Value>> {
        match v {
            Value::Object(m) => Some(m),
            other => {
                self.err(path, format!("must be an object, not {}", kind(other)));
                None
            }
        }
    }

    fn array<'v>(&mut self, v: &'v Value, path: &str) -> Option<&'v Vec<Value>> {
        match v {
            Value::Array(a) => Some(a),
            other => {
                self.err(path, format!("must be an array, not {}", kind(other)));
                None
            }
        }
    }

    /// Warns about fields that are not part of the format (typos are common).
    fn unknown_fields(&mut self, m: &Map<String, Value>, path: &str, known: &[&str]) {
        for k in m.keys() {
            if !known.contains(&k.as_str()) {
                self.warn(
                    join(path, k),
                    format!(
                        "unknown field, ignored (expected one of: {})",
                        known.join(", ")
                    ),
                );
            }
        }
    }

    /// Records the problem of a reader ([`json`]), keeping the value it read.
    fn read<T>(&mut self, r: Result<T, Problem>) -> Option<T> {
        r.map_err(|p| self.errors.push(p)).ok()
    }

    /// A reader's value, its path built only when it reports a problem: readers are pure,
    /// so the problem read again at the real path is the one it would have reported (SPEC
    /// 7 problems; a valid field costs no string).
    fn read_at<T>(
        &mut self,
        reader: impl Fn(&str) -> Result<T, Problem>,
        path: impl FnOnce() -> String,
    ) -> Option<T> {
        match reader("") {
            Ok(x) => Some(x),
            Err(_) => {
                let p = path();
                self.read(reader(&p))
            }
        }
    }

    fn string(&mut self, m: &Map<String, Value>, path: &str, key: &str) -> Option<String> {
        self.string_v(m.get(key), path, key)
    }

    /// [`Cx::string`] of the field's value `v` (as `Map::get` gives it).
    fn string_v(&mut self, v: Option<&Value>, path: &str, key: &str) -> Option<String> {
        self.str_v(v, path, key).map(str::to_string)
    }

    /// [`Cx::string_v`], borrowed from the value (no copy for a field only looked at).
    fn str_v<'v>(&mut self, v: Option<&'v Value>, path: &str, key: &str) -> Option<&'v str> {
        match v {
            Some(Value::String(s)) => Some(s),
            None => self.read(Err(json::required(&join(path, key)))),
            Some(v) => self.read(json::string(v, &join(path, key))),
        }
    }

    fn bool_or(&mut self, m: &Map<String, Value>, path: &str, key: &str, default: bool) -> bool {
        self.bool_or_v(m.get(key), path, key, default)
    }

    /// [`Cx::bool_or`] of the field's value `v` (`null` is absent).
    fn bool_or_v(&mut self, v: Option<&Value>, path: &str, key: &str, default: bool) -> bool {
        match v.filter(|v| !v.is_null()) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(v) => self
                .read(json::boolean(v, &join(path, key)))
                .unwrap_or(default),
        }
    }

    /// A time in seconds: finite, from 0 to [`MAX_TIME_S`].
    fn time_field(
        &mut self,
        m: &Map<String, Value>,
        path: &str,
        key: &str,
        required: bool,
    ) -> Option<f64> {
        self.time_v(m.get(key), path, key, required)
    }

    /// [`Cx::time_field`] of the field's value `v` (`null` is absent).
    fn time_v(&mut self, v: Option<&Value>, path: &str, key: &str, required: bool) -> Option<f64> {
        match v.filter(|v| !v.is_null()) {
            None => {
                if required {
                    self.err_problem(json::required(&join(path, key)));
                }
                None
            }
            Some(v) => self.read_at(
                |p| json::number(v, p, json::Rule::SECONDS),
                || join(path, key),
            ),
        }
    }

    /// A duration that must last (`work_s`, a checkpoint interval): seconds > 0, at least
    /// one millisecond once rounded.
    fn duration_field(&mut self, m: &Map<String, Value>, path: &str, key: &str) -> Option<Ms> {
        self.duration_v(m.get(key), path, key)
    }

    /// [`Cx::duration_field`] of the field's value `v` (`null` is absent).
    fn duration_v(&mut self, v: Option<&Value>, path: &str, key: &str) -> Option<Ms> {
        let rule = json::Rule::POSITIVE_SECONDS;
        match v.filter(|v| !v.is_null()) {
            None => self.read(Err(json::required(&join(path, key)))),
            Some(v) => self.read_at(
                |p| json::number(v, p, rule).and_then(|x| json::millis(x, p, rule)),
                || join(path, key),
            ),
        }
    }

    fn err_problem(&mut self, p: Problem) {
        self.errors.push(p);
    }

    /// A job priority of the scenario's model (SPEC 2: 0..=9999; SPEC 12: any 32-bit
    /// integer in the Kueue model).
    fn priority(&mut self, v: &Value, path: &str) -> Option<Priority> {
        self.read(json::priority(v, path, self.model == Model::Kueue))
    }

    /// A whole number in `lo..=hi` (a JSON number with no fractional part).
    fn int(&mut self, v: &Value, path: &str, lo: i64, hi: i64) -> Option<i64> {
        self.read(json::integer(v, path, json::Rule::whole(lo, hi)))
    }

    /// Resolves an instance-type name: declared in `instance_types`, else the catalogue.
    fn type_index(&mut self, name: &str, path: &str) -> Option<usize> {
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

    fn scenario(&mut self, v: &Value, plain: Option<Vec<PlainJob>>) -> Option<Scenario> {
        let top = self.object(v, "")?;
        self.unknown_fields(
            top,
            "",
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
            ],
        );
        self.model = self.model_field(top);
        match top.get("format") {
            Some(Value::String(f)) if f == "quotalab/v1" => {}
            Some(other) => self.err("format", format!("must be \"quotalab/v1\" (got {other})")),
            None => self.warn("format", "missing; assuming \"quotalab/v1\""),
        }
        let name = match top.get("name") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                self.err("name", format!("must be a string, not {}", kind(other)));
                String::new()
            }
        };
        let seed = match top.get("seed") {
            None | Some(Value::Null) => 0,
            Some(v) => self.int(v, "seed", 0, i64::MAX).unwrap_or(0) as u64,
        };
        let horizon = self.time_field(top, "", "horizon_s", false).map(ms_from_s);
        if horizon == Some(0) {
            // SPEC 6 stops the run at horizon_s; at 0 nothing runs (a model choice: a
            // warning, not an error, see docs/ARCHITECTURE.md).
            self.warn("horizon_s", "is 0: nothing is simulated (remove it to run every job to its end, or give the seconds to simulate)");
        }

        // Declared instance types come first, in file order.
        if let Some(v) = top.get("instance_types") {
            if let Some(list) = self.array(v, "instance_types") {
                if list.len() > MAX_INSTANCE_TYPES {
                    self.err(
                        "instance_types",
                        format!(
                            "declares {} instance types; a scenario may declare at most {MAX_INSTANCE_TYPES}",
                            list.len()
                        ),
                    );
                }
                for (i, t) in list.iter().enumerate().take(MAX_INSTANCE_TYPES) {
                    self.instance_type(t, &idx("instance_types", i));
                }
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
                "cohorts",
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
            let mut path = String::new();
            for (i, j) in list.into_iter().enumerate() {
                let values = j.into_values();
                let f = job_fields(values.each_ref().map(Option::as_ref), None);
                let id = f.id;
                json::idx_into(&mut path, "jobs", i);
                if let Some(job) = self.job_of(f, None, &path, &share_names) {
                    jobs.push(job);
                } else if let Some(id) = id.and_then(Value::as_str) {
                    self.invalid_jobs.insert(id.to_string());
                }
            }
        } else if let Some(v) = top.get("jobs") {
            if let Some(list) = self.array(v, "jobs") {
                jobs.reserve_exact(list.len());
                for (i, j) in list.iter().enumerate() {
                    if let Some(job) = self.job(j, &idx("jobs", i), &share_names) {
                        jobs.push(job);
                    } else if let Some(id) = j.get("id").and_then(Value::as_str) {
                        self.invalid_jobs.insert(id.to_string());
                    }
                }
            }
        }
        let explicit_jobs = jobs.len();

        // Workloads: parsed against the share and type names known so far. Catalogue types
        // they name are added to the type list first so that their indices resolve.
        let mut workloads = Vec::new();
        if let Some(v) = top.get("workloads") {
            if let Some(list) = self.array(v, "workloads") {
                for (i, w) in list.iter().enumerate() {
                    let path = idx("workloads", i);
                    if let Some(Value::String(t)) = w.get("instance_type") {
                        self.type_index(t, &join(&path, "instance_type"));
                    }
                    if let Value::Object(m) = w {
                        resubmit_without_retries(m, &path, &mut self.warnings);
                        self.unknown_fields(m, &path, workload::FIELDS);
                        if let Some(Value::Object(c)) = m.get("checkpoint") {
                            self.unknown_fields(
                                c,
                                &join(&path, "checkpoint"),
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
            self.err("workloads", TOO_MANY_ID_BYTES);
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
                idx("jobs", i) + ".id"
            } else {
                "workloads".to_string()
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
                let a = crate::input::contract::alarms(v, "alarms", &mut problems);
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

    fn instance_type(&mut self, v: &Value, path: &str) {
        let Some(m) = self.object(v, path) else {
            return;
        };
        self.unknown_fields(m, path, &["name", "gpus", "usd_per_hour"]);
        let name = self.string(m, path, "name");
        if let Some(n) = &name {
            if n.is_empty() {
                self.err(join(path, "name"), "must not be empty");
            } else if self.declared.contains_key(n) {
                self.err(
                    join(path, "name"),
                    format!("duplicate instance type \"{n}\""),
                );
            }
        }
        let builtin = name.as_deref().and_then(catalogue::lookup);
        let gpus = match m.get("gpus") {
            Some(v) => self
                .int(v, &join(path, "gpus"), 1, u32::MAX as i64)
                .map(|g| g as u32),
            None => match &builtin {
                Some(b) => Some(b.gpus),
                None => {
                    self.err(join(path, "gpus"), "is required (GPUs per instance, >= 1)");
                    None
                }
            },
        };
        let price = match m.get("usd_per_hour") {
            Some(v) => match v.as_f64() {
                Some(p) if p.is_finite() && p >= 0.0 => Some(p),
                _ => {
                    self.err(
                        join(path, "usd_per_hour"),
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

    fn queue(&mut self, v: Option<&Value>) -> (Queueing, Ms) {
        let mut queueing = Queueing::BestEffortFifo;
        let mut grace = 120_000;
        let Some(v) = v else { return (queueing, grace) };
        let Some(m) = self.object(v, "queue") else {
            return (queueing, grace);
        };
        self.unknown_fields(m, "queue", &["queueing", "preemption_grace_s"]);
        if let Some(q) = self.queueing(m.get("queueing"), "queue.queueing") {
            queueing = q;
        }
        if let Some(g) = self.time_field(m, "queue", "preemption_grace_s", false) {
            grace = ms_from_s(g);
        }
        (queueing, grace)
    }

    /// `queueing`: `best_effort_fifo` or `strict_fifo` (None when absent or invalid).
    fn queueing(&mut self, v: Option<&Value>, path: &str) -> Option<Queueing> {
        let v = v?;
        match self.read(json::one_of(v, path, &["best_effort_fifo", "strict_fifo"]))? {
            "strict_fifo" => Some(Queueing::StrictFifo),
            _ => Some(Queueing::BestEffortFifo),
        }
    }

    fn limits(&mut self, v: &Value, path: &str) -> Option<Vec<(usize, u64)>> {
        let m = self.object(v, path)?;
        if m.is_empty() || m.len() > MAX_LIMITS {
            self.err(
                path,
                format!(
                    "must have 1 to {MAX_LIMITS} instance types (has {})",
                    m.len()
                ),
            );
        }
        let mut out = Vec::new();
        let mut ok = true;
        for (t, n) in m {
            let p = join(path, t);
            let ti = self.type_index(t, &p);
            let n = self.int(n, &p, 0, MAX_INSTANCES as i64);
            match (ti, n) {
                (Some(ti), Some(n)) => out.push((ti, n as u64)),
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn borrow_limit(&mut self, v: &Value, path: &str) -> Option<BorrowLimit> {
        let n = self.int(v, path, -1, i64::MAX)?;
        Some(if n == -1 {
            BorrowLimit::Unlimited
        } else {
            BorrowLimit::Percent(n as u64)
        })
    }

    fn strategy(&mut self, v: &Value, path: &str) -> Option<Strategy> {
        let names = ["RESERVE", "LEND", "LEND_AND_BORROW"];
        let s = self.read(json::one_of(v, path, &names))?;
        Strategy::parse(s)
    }

    fn state(&mut self, v: &Value, path: &str) -> Option<bool> {
        let s = self.read(json::one_of(v, path, &["ENABLED", "DISABLED"]))?;
        Some(s == "ENABLED")
    }

    fn shares(
        &mut self,
        v: Option<&Value>,
        queueing: Queueing,
        cohorts: &mut Vec<Cohort>,
    ) -> Vec<Share> {
        let kueue = self.model == Model::Kueue;
        let Some(v) = v else {
            self.err(
                "shares",
                "is required: a scenario needs at least one quota share",
            );
            return Vec::new();
        };
        let Some(list) = self.array(v, "shares") else {
            return Vec::new();
        };
        if list.is_empty() {
            self.err("shares", "must have at least one quota share");
        }
        if !kueue && list.len() > MAX_SHARES {
            self.err(
                "shares",
                format!(
                    "at most {MAX_SHARES} quota shares per queue (has {})",
                    list.len()
                ),
            );
        }
        if kueue && list.len() > KUEUE_MAX_SHARES {
            self.err(
                "shares",
                format!(
                    "at most {KUEUE_MAX_SHARES} quota shares (ClusterQueues) in the Kueue model (has {})",
                    list.len()
                ),
            );
        }
        let mut out = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, s) in list.iter().enumerate() {
            let path = idx("shares", i);
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
                        Problem::new(join(&path, "name"), "must not be empty")
                            .with_kind(Kind::NotEmpty),
                    );
                } else if n.chars().count() > MAX_NAME {
                    self.err(
                        join(&path, "name"),
                        format!("must be at most {MAX_NAME} characters"),
                    );
                }
                if let Some(first) = seen.insert(n.clone(), i) {
                    self.err_problem(
                        Problem::new(
                            join(&path, "name"),
                            format!("duplicate share name \"{n}\" (also shares[{first}])"),
                        )
                        .with_kind(Kind::Duplicate),
                    );
                }
            }
            let limits = match m.get("limits") {
                Some(v) => self.limits(v, &join(&path, "limits")),
                None => {
                    self.err(
                        join(&path, "limits"),
                        "is required (instances per type, e.g. {\"ml.g5.xlarge\": 2})",
                    );
                    None
                }
            };
            let strategy = match m.get("strategy") {
                // SPEC 12: the AWS fields are refused in the Kueue model (above); the
                // share's AWS configuration is a neutral one that no Kueue rule reads.
                _ if kueue => Some(Strategy::LendAndBorrow),
                Some(v) => self.strategy(v, &join(&path, "strategy")),
                None => {
                    self.err(
                        join(&path, "strategy"),
                        "is required: RESERVE, LEND or LEND_AND_BORROW",
                    );
                    None
                }
            };
            let borrow_limit = match m.get("borrow_limit") {
                _ if kueue => Some(BorrowLimit::Unlimited),
                None | Some(Value::Null) => Some(BorrowLimit::Unlimited),
                Some(v) => {
                    let b = self.borrow_limit(v, &join(&path, "borrow_limit"));
                    if strategy.is_some() && strategy != Some(Strategy::LendAndBorrow) {
                        self.err(
                            join(&path, "borrow_limit"),
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
                Some(v) => self.state(v, &join(&path, "state")),
            };
            let agreement = match m.get("agreement") {
                None | Some(Value::Null) => Some(None),
                Some(v) => {
                    let mut problems = Vec::new();
                    let a = crate::input::contract::agreement(
                        v,
                        &join(&path, "agreement"),
                        &mut problems,
                    );
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

    fn job(&mut self, v: &Value, path: &str, shares: &[String]) -> Option<JobSpec> {
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
    /// SPEC 14 fields are read from it; a [`PlainJob`] has none).
    fn job_of(
        &mut self,
        f: JobFields<'_>,
        m: Option<&Map<String, Value>>,
        path: &str,
        shares: &[String],
    ) -> Option<JobSpec> {
        let before = self.errors.len();
        let id = self.str_v(f.id, path, "id");
        if let Some(id) = id {
            if id.is_empty() {
                self.err(join(path, "id"), "must not be empty");
            }
        }
        let share = self.str_v(f.share, path, "share").and_then(|s| {
            let found = shares.iter().position(|n| n == s);
            if found.is_none() && !self.invalid_shares.iter().any(|n| n == s) {
                let known: Vec<&str> = shares.iter().map(String::as_str).collect();
                self.err_problem(json::unknown(
                    &join(path, "share"),
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
                .and_then(|t| self.type_index(&t, &join(path, "instance_type")))
        });
        let instances = match f.instances {
            None => Some(1),
            Some(v) => self.read_at(
                |p| json::integer(v, p, json::Rule::whole(1, MAX_INSTANCES as i64)),
                || join(path, "instances"),
            ),
        };
        let kueue = self.model == Model::Kueue;
        let priority = match f.priority {
            None => Some(0),
            Some(v) => self.read_at(|p| json::priority(v, p, kueue), || join(path, "priority")),
        };
        let submit = self.time_v(f.submit_s, path, "submit_s", true);
        let work = self.duration_v(f.work_s, path, "work_s");
        let startup = self
            .time_v(f.startup_s, path, "startup_s", false)
            .unwrap_or(0.0);
        let checkpoint = match f.checkpoint {
            None | Some(Value::Null) => None,
            Some(v) => self.checkpoint(v, &join(path, "checkpoint")),
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
                    || join(path, "preemption_retries"),
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
                    join(path, "escalate.before_deadline_s"),
                    "is more than deadline_s: the job is escalated as soon as it is submitted",
                );
            }
        }
        if self.errors.len() != before {
            return None;
        }
        let Some(id) = self.ids.push(id?) else {
            self.err(join(path, "id"), TOO_MANY_ID_BYTES);
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

    fn checkpoint(&mut self, v: &Value, path: &str) -> Option<Checkpoint> {
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

    fn events(
        &mut self,
        v: Option<&Value>,
        ids: &HashMap<&str, usize>,
        shares: &[Share],
    ) -> Vec<TimedEvent> {
        let Some(v) = v else { return Vec::new() };
        let Some(list) = self.array(v, "events") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // The file index of each event in `out` (invalid events are left out of `out`).
        let mut file_index = Vec::new();
        for (i, e) in list.iter().enumerate() {
            let path = idx("events", i);
            let Some(m) = self.object(e, &path) else {
                continue;
            };
            self.unknown_fields(m, &path, &["at_s", "set_priority", "update_share"]);
            let at = self.time_field(m, &path, "at_s", true).map(ms_from_s);
            let action = match (m.get("set_priority"), m.get("update_share")) {
                (Some(sp), None) => self.set_priority(sp, &join(&path, "set_priority"), ids),
                (None, Some(us)) => self.update_share(us, &join(&path, "update_share"), shares),
                (Some(_), Some(_)) => {
                    self.err(
                        &path,
                        "must have exactly one of set_priority or update_share, not both",
                    );
                    None
                }
                (None, None) => {
                    self.err(&path, "must have one of set_priority or update_share");
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
        path: &str,
        ids: &HashMap<&str, usize>,
    ) -> Option<TimedAction> {
        let m = self.object(v, path)?;
        self.unknown_fields(m, path, &["job", "priority"]);
        let job = self.string(m, path, "job").and_then(|j| {
            let found = ids.get(j.as_str()).copied();
            if found.is_none() && !self.invalid_jobs.contains(&j) {
                self.err(join(path, "job"), format!("unknown job \"{j}\""));
            }
            found
        });
        let priority = match m.get("priority") {
            Some(v) => self.priority(v, &join(path, "priority")),
            None => {
                self.err(join(path, "priority"), "is required");
                None
            }
        };
        Some(TimedAction::SetPriority {
            job: job?,
            priority: priority?,
        })
    }

    fn update_share(&mut self, v: &Value, path: &str, shares: &[Share]) -> Option<TimedAction> {
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
                    join(path, "share"),
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
            update.limits = self
                .limits(v, &join(path, "limits"))
                .map(|l| limits_vec(&l));
        }
        if let Some(v) = m.get("strategy") {
            update.strategy = self.strategy(v, &join(path, "strategy"));
        }
        if let Some(v) = m.get("borrow_limit") {
            update.borrow_limit = self.borrow_limit(v, &join(path, "borrow_limit"));
        }
        if let Some(v) = m.get("in_share_preemption") {
            match v {
                Value::Bool(b) => update.in_share_preemption = Some(*b),
                other => self.err(
                    join(path, "in_share_preemption"),
                    format!("must be true or false, not {}", kind(other)),
                ),
            }
        }
        if let Some(v) = m.get("state") {
            update.enabled = self.state(v, &join(path, "state"));
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
        crate::sort::stable_by_i64(&mut order, &|&i| events[i].at);
        let mut strategy: Vec<Strategy> = shares.iter().map(|s| s.strategy).collect();
        for i in order {
            if let TimedAction::UpdateShare { share, update } = &events[i].action {
                if let Some(s) = update.strategy {
                    strategy[*share] = s;
                }
                if update.borrow_limit.is_some() && strategy[*share] != Strategy::LendAndBorrow {
                    self.err(
                        format!("events[{}].update_share.borrow_limit", file_index[i]),
                        "is only allowed when the share's strategy is LEND_AND_BORROW",
                    );
                }
            }
        }
    }

    fn capacity(&mut self, v: Option<&Value>, shares: &[Share], cohorts: &[Cohort]) -> Vec<u64> {
        // Default (SPEC 2): the sum of the shares' limits per type (SPEC 12: and of the
        // cohorts').
        let mut given: BTreeMap<usize, u64> = BTreeMap::new();
        if let Some(v) = v {
            if let Some(m) = self.object(v, "capacity") {
                for (t, n) in m {
                    let p = join("capacity", t);
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

    /// Warnings that help a user (SPEC 2: overcommit is a warning, not an error).
    fn advise(
        &mut self,
        shares: &[Share],
        capacity: &[u64],
        jobs: &[JobSpec],
        ids: &JobIds,
        explicit: usize,
    ) {
        for (t, ty) in self.types.clone().iter().enumerate() {
            let sum: u64 = shares
                .iter()
                .map(|s| s.limits.get(t).copied().flatten().unwrap_or(0))
                .sum();
            if sum > capacity[t] {
                self.warn(
                    format!("capacity.{}", ty.name),
                    format!(
                        "overcommitted: the shares' limits add up to {sum} instances but capacity is {}; some entitlements may be unreachable",
                        capacity[t]
                    ),
                );
            }
        }
        let mut reported = std::collections::HashSet::new();
        for (i, j) in jobs.iter().enumerate() {
            // Only formatted when a warning is reported.
            let path = || {
                if i < explicit {
                    idx("jobs", i)
                } else {
                    format!("job \"{}\"", ids.get(j.id))
                }
            };
            let share = &shares[j.share()];
            let limit = share.limits.get(j.instance_type()).copied().flatten();
            if limit.is_none() && reported.insert((j.share(), j.instance_type())) {
                self.warn(
                    path(),
                    format!(
                        "share \"{}\" has no limit for {}: its jobs of that type are unschedulable",
                        share.name,
                        self.types[j.instance_type()].name
                    ),
                );
            } else if j.instances() > capacity[j.instance_type()]
                && reported.insert((usize::MAX - j.share(), j.instance_type()))
            {
                self.warn(
                    path(),
                    format!(
                        "needs {} instances of {} but capacity is {}: it can never start",
                        j.instances(),
                        self.types[j.instance_type()].name,
                        capacity[j.instance_type()]
                    ),
                );
            }
        }
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
struct JobFields<'v> {
    id: Option<&'v Value>,
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
fn job_fields<'v>(
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
const AWS_SHARE_FIELDS: &[&str] = &["strategy", "borrow_limit", "in_share_preemption"];

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
    fn model_field(&mut self, top: &Map<String, Value>) -> Model {
        match json::get(top, "model") {
            None => Model::AwsBatch,
            Some(v) => match v.as_str().and_then(Model::parse) {
                Some(m) => m,
                None => {
                    self.err(
                        "model",
                        format!("must be \"aws_batch\" or \"kueue\" (got {v})"),
                    );
                    Model::AwsBatch
                }
            },
        }
    }

    /// SPEC 12: fields of the other model are errors naming the field to use.
    fn foreign_fields(&mut self, m: &Map<String, Value>, path: &str, keys: &[&str]) {
        for k in keys {
            if m.contains_key(*k) {
                if let Some(msg) = foreign_field_message(self.model, k) {
                    self.err(join(path, k), msg);
                }
            }
        }
    }

    /// SPEC 12: instances per type (`limits` of a cohort, `borrowing_limit`,
    /// `lending_limit`); an empty map is allowed.
    fn type_map(&mut self, v: &Value, path: &str) -> Option<Vec<Option<u64>>> {
        let m = self.object(v, path)?;
        let mut out = Vec::new();
        let mut ok = true;
        for (t, n) in m {
            let p = join(path, t);
            let ti = self.type_index(t, &p);
            let n = self.int(n, &p, 0, MAX_INSTANCES as i64);
            match (ti, n) {
                (Some(ti), Some(n)) => out.push((ti, n as u64)),
                _ => ok = false,
            }
        }
        ok.then(|| limits_vec(&out))
    }

    /// SPEC 12 `weight`: a number >= 0, default 1, kept in thousandths.
    fn weight(&mut self, m: &Map<String, Value>, path: &str) -> Option<WeightMilli> {
        let Some(v) = json::get(m, "weight") else {
            return Some(1000);
        };
        let p = join(path, "weight");
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
    fn cohorts(&mut self, v: Option<&Value>) -> Vec<Cohort> {
        let mut out: Vec<Cohort> = Vec::new();
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return out;
        };
        if self.model != Model::Kueue {
            self.err(
                "cohorts",
                foreign_field_message(Model::AwsBatch, "cohorts").unwrap_or(""),
            );
            return out;
        }
        let Some(list) = self.array(v, "cohorts") else {
            return out;
        };
        let mut parents: Vec<(usize, String)> = Vec::new();
        for (i, c) in list.iter().enumerate() {
            let path = idx("cohorts", i);
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
                self.err(join(&path, "name"), "must not be empty");
            } else if name.chars().count() > MAX_NAME {
                self.err(
                    join(&path, "name"),
                    format!("must be at most {MAX_NAME} characters"),
                );
            }
            if let Some(first) = out.iter().position(|c| c.name == name) {
                self.err(
                    join(&path, "name"),
                    format!("duplicate cohort name \"{name}\" (also cohorts[{first}])"),
                );
                continue;
            }
            let parent = match json::get(m, "parent") {
                None => None,
                Some(Value::String(p)) if !p.is_empty() => Some(p.clone()),
                Some(other) => {
                    self.err(
                        join(&path, "parent"),
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
                cohort.limits = self.type_map(v, &join(&path, "limits")).unwrap_or_default();
            }
            for key in ["borrowing_limit", "lending_limit"] {
                let Some(v) = json::get(m, key) else { continue };
                if parent.is_none() {
                    self.err(
                        join(&path, key),
                        "is only allowed for a cohort with a parent (a root cohort neither borrows nor lends)",
                    );
                }
                let map = self.type_map(v, &join(&path, key)).unwrap_or_default();
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
    fn cohort_cycles(&mut self, cohorts: &[Cohort]) {
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
                            format!("{}.parent", idx("cohorts", first)),
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
    fn fair_sharing(&mut self, v: Option<&Value>) -> Option<FairSharing> {
        let v = v.filter(|v| !v.is_null())?;
        if self.model != Model::Kueue {
            self.err(
                "fair_sharing",
                foreign_field_message(Model::AwsBatch, "fair_sharing").unwrap_or(""),
            );
            return None;
        }
        let m = self.object(v, "fair_sharing")?;
        self.unknown_fields(m, "fair_sharing", &["strategies"]);
        let default = vec![
            FsStrategy::LessThanOrEqualToFinalShare,
            FsStrategy::LessThanInitialShare,
        ];
        let Some(list) = json::get(m, "strategies") else {
            return Some(FairSharing {
                strategies: default,
            });
        };
        let path = "fair_sharing.strategies";
        let list = self.array(list, path)?;
        let mut out = Vec::new();
        for (i, x) in list.iter().enumerate() {
            match x.as_str().and_then(FsStrategy::parse) {
                Some(st) => out.push(st),
                None => self.err(
                    idx(path, i),
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
    fn kueue_share(
        &mut self,
        m: &Map<String, Value>,
        path: &str,
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
                join(path, "cohort"),
                format!("must be a cohort name, not {other}"),
            ),
        }
        for key in ["borrowing_limit", "lending_limit"] {
            let Some(v) = json::get(m, key) else { continue };
            let p = join(path, key);
            if k.cohort.is_none() {
                self.err(
                    &p,
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
                        join(&p, &tname),
                        format!("the share has no limit for {tname} (add it to limits)"),
                    ),
                    Some(l) if key == "lending_limit" && n > l => self.err(
                        join(&p, &tname),
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
        if let Some(q) = self.queueing(json::get(m, "queueing"), &join(path, "queueing")) {
            k.queueing = q;
        }
        if let Some(v) = json::get(m, "preemption") {
            if let Some(p) = self.preemption(v, &join(path, "preemption")) {
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
    fn preemption(&mut self, v: &Value, path: &str) -> Option<Preemption> {
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
                    join(path, "within_share"),
                    format!("must be one of {} (got {v})", quoted(&WithinShare::NAMES)),
                ),
            }
        }
        if let Some(v) = json::get(m, "reclaim") {
            match v.as_str().and_then(ReclaimPolicy::parse) {
                Some(r) => p.reclaim = r,
                None => self.err(
                    join(path, "reclaim"),
                    format!("must be one of {} (got {v})", quoted(&ReclaimPolicy::NAMES)),
                ),
            }
        }
        if let Some(v) = json::get(m, "borrow_within_cohort") {
            let bp = join(path, "borrow_within_cohort");
            if let Some(b) = self.object(v, &bp) {
                self.unknown_fields(b, &bp, &["policy", "max_priority_threshold"]);
                match json::get(b, "policy").map(|v| (v, v.as_str())) {
                    None | Some((_, Some("never"))) => {}
                    Some((_, Some("lower_priority"))) => {
                        p.borrow_within_cohort.lower_priority = true;
                        if p.reclaim == ReclaimPolicy::Never {
                            self.err(
                                join(&bp, "policy"),
                                "\"lower_priority\" requires preemption.reclaim other than \"never\" (Kueue refuses borrowWithinCohort without reclaimWithinCohort)",
                            );
                        }
                    }
                    Some((v, _)) => self.err(
                        join(&bp, "policy"),
                        format!("must be \"never\" or \"lower_priority\" (got {v})"),
                    ),
                }
                if let Some(t) = json::get(b, "max_priority_threshold") {
                    p.borrow_within_cohort.max_priority_threshold =
                        self.priority(t, &join(&bp, "max_priority_threshold"));
                }
            }
        }
        Some(p)
    }
}

fn limits_vec(limits: &[(usize, u64)]) -> Vec<Option<u64>> {
    let n = limits.iter().map(|(t, _)| t + 1).max().unwrap_or(0);
    let mut v = vec![None; n];
    for &(t, l) in limits {
        v[t] = Some(l);
    }
    v
}

/// SPEC 14: a job that is resubmitted when its retries are exhausted gets a continuation,
/// appended after every job: the same job in its new share (same id, submit time and
/// deadline), failing if it exhausts its retries there too, submitted only by the engine.
fn add_continuations(jobs: &mut Vec<JobSpec>) {
    let n = jobs.len();
    // One continuation block per distinct block of the jobs continued (a workload's jobs
    // share theirs, and so do their continuations).
    let mut last: Option<(std::sync::Arc<JobClass>, std::sync::Arc<JobClass>)> = None;
    let extra = jobs
        .iter()
        .filter(|j| matches!(j.on_retries_exhausted(), OnExhausted::Resubmit { .. }))
        .count();
    if extra == 0 {
        return;
    }
    jobs.reserve_exact(extra);
    for i in 0..n {
        if let OnExhausted::Resubmit { share, priority } = jobs[i].on_retries_exhausted() {
            let mut c = jobs[i].clone();
            c.set_share(share);
            if let Some(p) = priority {
                c.priority = p;
            }
            c.class = match &last {
                Some((from, to)) if std::sync::Arc::ptr_eq(from, &c.class) => to.clone(),
                _ => {
                    let to = std::sync::Arc::new(JobClass {
                        on_retries_exhausted: OnExhausted::Fail,
                        ..(*c.class).clone()
                    });
                    last = Some((c.class.clone(), to.clone()));
                    to
                }
            };
            c.resubmission_of = OptJob::some(i);
            jobs.push(c);
        }
    }
}

/// SPEC 14: whether a workload writes a field of the interruption contract.
fn workloads_use_contract(top: &Map<String, Value>) -> bool {
    top.get("workloads")
        .and_then(Value::as_array)
        .is_some_and(|list| {
            list.iter().any(|w| {
                w.as_object().is_some_and(|m| {
                    crate::input::contract::JOB_FIELDS
                        .iter()
                        .any(|k| json::get(m, k).is_some())
                })
            })
        })
}

/// SPEC 14: a resubmission happens only when the retries are exhausted, so without
/// `preemption_retries` (unlimited) it never happens: a warning.
fn resubmit_without_retries(m: &Map<String, Value>, path: &str, warnings: &mut Vec<Problem>) {
    let resubmits = m
        .get("on_retries_exhausted")
        .is_some_and(|v| v.get("resubmit").is_some());
    if resubmits && json::get(m, "preemption_retries").is_none() {
        warnings.push(Problem::new(
            join(path, "on_retries_exhausted"),
            "never applies: preemption_retries is unlimited (give preemption_retries for the job to be resubmitted when it runs out of them)",
        ));
    }
}
