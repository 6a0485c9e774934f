//! A cluster's job history as a scenario's explicit `jobs` (SPEC 16, "A team decides with
//! its own jobs"): Kueue Workloads as `kubectl get workloads -A -o yaml|json` prints them
//! ([`kueue`]), and AWS Batch jobs as `aws batch describe-jobs` / `list-jobs` and the
//! service-job equivalents print them ([`aws`]).
//!
//! The shares come from a configuration (SPEC 13, read with [`super::import_files`]) or a
//! scenario (`--into`); the history gives the jobs. Pure functions, text in and text out,
//! like the configuration import: the CLI, the page's worker and Python call [`import`].
//!
//! Each reader turns its records into [`Record`]s (times in epoch milliseconds, the share
//! as named, the demand in instances or in GPUs); [`import`] then resolves them against the
//! shares: share names, instance types, priorities, the time window, times relative to the
//! earliest submission, and a deterministic job order (submit time, then id). Every problem
//! names the file (when there are several), the document and the path, as SPEC 13 says.

pub mod aws;
pub mod kueue;
// Natively only: the engine worker's wasm has no room for it (docs/PERFORMANCE.md, "Load
// size"); the page reads every record with the general parser, with the same results.
#[cfg(not(target_arch = "wasm32"))]
mod kept;
#[cfg(not(target_arch = "wasm32"))]
mod kyaml;
pub mod stream;
mod time;

use std::collections::{HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::{Format, ImportOptions, Imported, Sink, MAX_FILE_BYTES};
use crate::input::model::limits;
use crate::input::path::Path;
use crate::{Problem, Unfinished};

pub use stream::{HistoryReader, MAX_HISTORY_BYTES, MAX_HISTORY_RECORDS};
pub use time::parse_time;

/// Where the shares of a history import come from (SPEC 16: `--config` and/or `--into`).
#[derive(Clone, Copy, Debug)]
pub enum Shares<'a> {
    /// Configuration files (SPEC 13: AWS JSON or Kueue YAML, all of one format), merged
    /// into the scenario `into` when one is given (as `import --into` does).
    Config {
        files: &'a [(&'a str, &'a str)],
        into: Option<(&'a str, &'a str)>,
    },
    /// A scenario's shares (`--into` alone): (file name, scenario JSON).
    Scenario(&'a str, &'a str),
}

/// Options of a history import (SPEC 16).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryOptions {
    /// Kueue: the counted resource (`--resource`, default `nvidia.com/gpu`).
    pub resource: String,
    /// Kueue: flavor name to catalogue instance type (`--flavor-map`).
    pub flavor_map: Vec<(String, String)>,
    /// AWS configuration: the job queue whose shares are imported (`--queue`).
    pub queue: Option<String>,
    /// The window's start (`--from`): ISO 8601 or epoch seconds.
    pub from: Option<String>,
    /// The window's end (`--to`), and the end of the history when given.
    pub to: Option<String>,
}

impl Default for HistoryOptions {
    fn default() -> HistoryOptions {
        HistoryOptions {
            resource: ImportOptions::DEFAULT_RESOURCE.to_string(),
            flavor_map: Vec::new(),
            queue: None,
            from: None,
            to: None,
        }
    }
}

/// A job's share as its record names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShareRef {
    /// A share (ClusterQueue or quota share) by name.
    Named(String),
    /// A Kueue LocalQueue (`spec.queueName` in the workload's namespace), resolved to its
    /// ClusterQueue through the LocalQueue documents.
    LocalQueue { namespace: String, name: String },
}

/// What a job asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Demand {
    /// Instances, of a named instance type or (None) of the share's first type.
    Instances { ty: Option<String>, n: u64 },
    /// An amount of the counted resource (GPUs), on a Kueue flavor or (None) on the
    /// share's first instance type.
    Resource { flavor: Option<String>, amount: u64 },
    /// An amount of GPUs (an AWS container's requirement), on the share's first type.
    Gpus { amount: u64 },
}

/// How far a job got, in epoch milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Run {
    /// Its last run started and finished.
    Finished { start: i64, stop: i64 },
    /// Running at the end of the history, since `start`.
    Running { start: i64 },
    /// Waiting at the end of the history.
    Pending,
    /// Finished without ever running (cancelled, rejected): not a job to replay.
    NeverRan,
}

/// A job's priority as its record gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Prio {
    Value(i64),
    /// A WorkloadPriorityClass name, resolved through the scenario's `priority_classes`.
    Class(String),
    None,
}

/// One job of the history, as read.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub file: usize,
    /// The record's path in its file (`[0].items[3]`, `jobs[2]`).
    pub path: String,
    pub id: String,
    /// A second identity (the AWS job id) that makes `id` unique when names repeat.
    pub alt_id: Option<String>,
    pub share: ShareRef,
    pub share_path: Place,
    pub submit: i64,
    pub run: Run,
    pub demand: Demand,
    pub demand_path: Place,
    pub priority: Prio,
    pub priority_path: Place,
    /// Evictions seen: (by preemption, for other reasons).
    pub evictions: (u64, u64),
    /// The latest time the record mentions (for the end of the history).
    pub latest: i64,
}

/// A place in a record that a problem may name, built only then ([`Record::at`]): a
/// record's places are read for each of 100,000 records and named for a few.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// A field under the record's own path (`spec.podSets` of `[0].items[3]`).
    Under(&'static str),
    /// A path of its own.
    Path(String),
}

impl Record {
    /// The path of `place` in this record's file.
    pub(crate) fn at(&self, place: &Place) -> String {
        match place {
            Place::Under(field) => super::join(&self.path, field),
            Place::Path(p) => p.clone(),
        }
    }
}

/// What the readers collect.
#[derive(Default)]
pub(crate) struct Collected {
    pub records: Vec<Record>,
    /// Kueue LocalQueues: (namespace, name) -> ClusterQueue.
    pub local_queues: Vec<((String, String), String)>,
}

/// A history file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryFormat {
    /// Kueue Workloads (YAML or JSON, `kind` fields).
    Kueue,
    /// AWS Batch jobs (JSON responses or job objects).
    Aws,
}

/// Guesses a history file's format: JSON Kubernetes objects (a `kind` field) and any YAML
/// are Kueue, other JSON is AWS Batch.
pub fn detect(text: &str) -> HistoryFormat {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return HistoryFormat::Kueue;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(v) => {
            let first = match &v {
                Value::Array(a) => a.first().cloned().unwrap_or(Value::Null),
                other => other.clone(),
            };
            if first.get("kind").is_some() || first.get("apiVersion").is_some() {
                HistoryFormat::Kueue
            } else {
                HistoryFormat::Aws
            }
        }
        Err(_) => {
            if t.contains("kind") {
                HistoryFormat::Kueue
            } else {
                HistoryFormat::Aws
            }
        }
    }
}

/// The shares' side of the import: the scenario the jobs go into and what resolving a
/// record needs from it.
struct Base {
    scenario: Map<String, Value>,
    warnings: Vec<Problem>,
    /// Share names in order, each with its instance types in `limits` order.
    shares: Vec<(String, Vec<String>)>,
    /// Instance types known to the scenario: (name, GPUs per instance).
    types: Vec<(String, u32)>,
    priority_classes: Vec<String>,
    kueue: bool,
    /// `--flavor-map`: flavor to instance type.
    flavor_map: Vec<(String, String)>,
    /// `--resource`: the counted resource.
    resource: String,
}

/// Whether problems name their file: several files are read (history, configuration,
/// scenario).
pub fn names_files(history_files: usize, shares: Shares<'_>) -> bool {
    let config_files = match shares {
        Shares::Config { files, .. } => files.len(),
        Shares::Scenario(..) => 0,
    };
    history_files + config_files + usize::from(matches!(shares, Shares::Scenario(..))) > 1
}

/// SPEC 16: imports a job history (`files`, each (name, text)) into a scenario whose
/// shares come from `shares`. The scenario's `jobs` are the history's, ordered by submit
/// time then id, times relative to the earliest submission. Each file is read record by
/// record ([`HistoryReader`]); [`import_read`] takes files read that way in pieces.
pub fn import(
    files: &[(&str, &str)],
    shares: Shares<'_>,
    opts: &HistoryOptions,
) -> Result<Imported, Vec<Problem>> {
    let named = names_files(files.len(), shares);
    let readers = files
        .iter()
        .enumerate()
        .map(|(i, (name, text))| {
            let mut r = HistoryReader::new(name, i, named, &opts.resource);
            r.push(text.as_bytes());
            r.finish();
            r
        })
        .collect();
    import_read(readers, shares, opts)
}

/// [`import`] of history files already read by [`HistoryReader`]s (made with the file
/// number, [`names_files`] and `opts.resource`, in file order).
pub fn import_read(
    readers: Vec<HistoryReader>,
    shares: Shares<'_>,
    opts: &HistoryOptions,
) -> Result<Imported, Vec<Problem>> {
    let named = names_files(readers.len(), shares);
    let mut readers = readers;
    let mut errors = Vec::new();
    for r in readers.iter_mut() {
        r.finish();
        errors.append(&mut r.bounds.errors);
    }
    if readers.is_empty() {
        errors.push(Problem::whole("no history file given"));
    }
    let window = match parse_window(opts) {
        Ok(w) => Some(w),
        Err(mut e) => {
            errors.append(&mut e);
            None
        }
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let (from, to) = window.unwrap_or((None, None));
    let mut base = base(shares, opts, named)?;

    // The LocalQueues: the configuration's, the scenario's, then the history files'.
    let mut c = Collected::default();
    if let Shares::Config { files: cfg, .. } = shares {
        for (_, text) in cfg {
            if super::detect(text) == Some(Format::Kueue) {
                kueue::local_queues(text, &mut c);
            }
        }
    }
    // A scenario imported from Kueue files keeps its LocalQueues (SPEC 16 `source`).
    let scenario_text = match shares {
        Shares::Scenario(_, text)
        | Shares::Config {
            into: Some((_, text)),
            ..
        } => Some(text),
        Shares::Config { into: None, .. } => None,
    };
    if let Some(docs) = scenario_text
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
        .and_then(|v| super::kueue::Source::read(&v))
        .and_then(Result::ok)
        .map(|s| s.documents)
    {
        kueue::local_queues_of(&docs, &mut c);
    }
    let mut sinks = Vec::with_capacity(readers.len());
    for r in readers {
        let HistoryReader {
            sink, c: mut rc, ..
        } = r;
        c.records.append(&mut rc.records);
        for (key, cq) in rc.local_queues {
            if !c.local_queues.iter().any(|(k, _)| *k == key) {
                c.local_queues.push((key, cq));
            }
        }
        sinks.push(sink);
    }
    for s in sinks.iter_mut() {
        errors.append(&mut s.errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    let mut unfinished = Vec::new();
    let jobs = resolve(c, &mut sinks, &base, from, to, &mut unfinished);
    for s in sinks.iter_mut() {
        s.flush_ignored();
        errors.append(&mut s.errors);
    }
    let jobs = match jobs {
        Ok(j) if errors.is_empty() => j,
        Ok(_) => return Err(errors),
        Err(mut e) => {
            errors.append(&mut e);
            return Err(errors);
        }
    };
    let mut warnings = std::mem::take(&mut base.warnings);
    for s in sinks.iter_mut() {
        warnings.append(&mut s.warnings);
    }
    let n = jobs.len();
    let mut sc = base.scenario;
    let name = sc
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("Job history")
        .to_string();
    if !name.contains("job history") {
        sc.insert(
            "name".into(),
            json!(format!(
                "{name}, job history ({n} job{})",
                if n == 1 { "" } else { "s" }
            )),
        );
    }
    let last_submit = jobs
        .iter()
        .filter_map(|j| j["submit_s"].as_f64())
        .fold(0.0, f64::max);
    if let Some(h) = sc.get("horizon_s").and_then(Value::as_f64) {
        if h < last_submit {
            warnings.push(Problem::new(
                Path::named("horizon_s"),
                format!(
                    "is {h} s, before the history's last submission ({last_submit} s): later jobs are not simulated"
                ),
            ));
        }
    }
    sc.insert("jobs".into(), Value::Array(jobs));
    let scenario = Value::Object(sc);
    super::must_load(&scenario)?;
    crate::sort::compact_by(&mut unfinished, &|a, b| a.id.cmp(&b.id));
    let mut imported = Imported::new(scenario, warnings);
    imported.unfinished = unfinished;
    Ok(imported)
}

/// `--from` / `--to` as epoch milliseconds.
fn parse_window(opts: &HistoryOptions) -> Result<(Option<i64>, Option<i64>), Vec<Problem>> {
    let mut errors = Vec::new();
    let mut one = |flag: &str, v: &Option<String>| -> Option<i64> {
        let text = v.as_deref()?;
        match parse_time(text) {
            Ok(t) => Some(t),
            Err(e) => {
                errors.push(Problem::new(Path::named(flag), e));
                None
            }
        }
    };
    let from = one("--from", &opts.from);
    let to = one("--to", &opts.to);
    if let (Some(f), Some(t)) = (from, to) {
        if t <= f {
            errors.push(Problem::new(
                Path::named("--to"),
                "must be after --from".to_string(),
            ));
        }
    }
    if errors.is_empty() {
        Ok((from, to))
    } else {
        Err(errors)
    }
}

/// The scenario the history goes into: a configuration import (merged into `--into` when
/// given), or the `--into` scenario alone. Its own jobs, workloads and job events are
/// replaced by the history, with a warning.
fn base(shares: Shares<'_>, opts: &HistoryOptions, named: bool) -> Result<Base, Vec<Problem>> {
    let mut warnings = Vec::new();
    let into = match shares {
        Shares::Config { into, .. } => into,
        Shares::Scenario(name, text) => Some((name, text)),
    };
    let stripped = match into {
        Some((name, text)) => Some(strip_jobs(name, text, &mut warnings)?),
        None => None,
    };
    let imported = match shares {
        Shares::Config { files, .. } => {
            if files.is_empty() {
                return Err(vec![Problem::whole(
                    "a configuration is needed for the shares: give --config FILE (AWS or Kueue, SPEC 13) or --into SCENARIO",
                )]);
            }
            let formats: Vec<Option<Format>> =
                files.iter().map(|(_, t)| super::detect(t)).collect();
            let format = formats[0].unwrap_or(Format::Kueue);
            if formats.iter().any(|f| f.unwrap_or(Format::Kueue) != format) {
                return Err(vec![Problem::new(
                    Path::named("--config"),
                    "mixes AWS JSON and Kueue YAML: give the files of one configuration",
                )]);
            }
            let io = ImportOptions {
                queue: opts.queue.clone(),
                resource: opts.resource.clone(),
                flavor_map: opts.flavor_map.clone(),
            };
            // One configuration file among several files: its problems name it too.
            let name_it = |ps: Vec<Problem>| -> Vec<Problem> {
                if !(named && files.len() == 1) {
                    return ps;
                }
                ps.into_iter()
                    .map(|p| {
                        let at = if p.path.is_empty() {
                            files[0].0.to_string()
                        } else {
                            format!("{}: {}", files[0].0, p.path)
                        };
                        Problem::new(Path::named(at), p.message)
                    })
                    .collect()
            };
            let mut imp = super::import_files(files, format, &io).map_err(name_it)?;
            imp.warnings = name_it(std::mem::take(&mut imp.warnings));
            // LocalQueues are what a history import reads from a configuration.
            imp.warnings
                .retain(|w| !w.message.starts_with("ignored: LocalQueue"));
            match &stripped {
                Some(s) => super::merge_into(&imp, &s.to_string())?,
                None => imp,
            }
        }
        Shares::Scenario(name, _) => {
            let s = stripped.unwrap_or(Value::Null);
            // The scenario as given must load; its problems name it.
            crate::input::validate::load(&s.to_string()).map_err(|ps| {
                ps.into_iter()
                    .map(|p| Problem::new(Path::named(format!("{name}: {}", p.path)), p.message))
                    .collect::<Vec<_>>()
            })?;
            Imported::new(s, Vec::new())
        }
    };
    warnings.extend(imported.warnings);
    let Value::Object(scenario) = imported.scenario else {
        return Err(vec![Problem::whole("the scenario must be a JSON object")]);
    };
    let mut shares_out = Vec::new();
    if let Some(Value::Array(list)) = scenario.get("shares") {
        for s in list {
            let name = s
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let types = s
                .get("limits")
                .and_then(Value::as_object)
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default();
            shares_out.push((name, types));
        }
    }
    let mut types: Vec<(String, u32)> = Vec::new();
    if let Some(Value::Array(list)) = scenario.get("instance_types") {
        for t in list {
            if let Some(n) = t.get("name").and_then(Value::as_str) {
                let g = t.get("gpus").and_then(Value::as_u64).unwrap_or(1);
                types.push((n.to_string(), u32::try_from(g).unwrap_or(u32::MAX)));
            }
        }
    }
    let priority_classes = scenario
        .get("priority_classes")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let kueue = scenario.get("model").and_then(Value::as_str) == Some("kueue");
    Ok(Base {
        scenario,
        warnings,
        shares: shares_out,
        types,
        priority_classes,
        kueue,
        flavor_map: opts.flavor_map.clone(),
        resource: opts.resource.clone(),
    })
}

/// The `--into` scenario without its jobs, workloads and `set_priority` events (the
/// history replaces them), with a warning saying what was dropped.
fn strip_jobs(name: &str, text: &str, warnings: &mut Vec<Problem>) -> Result<Value, Vec<Problem>> {
    let at = |p: &str| Path::named(format!("{name}: {p}"));
    if text.len() > MAX_FILE_BYTES {
        return Err(vec![Problem::new(
            Path::named(name),
            format!("is over the {} MiB limit", MAX_FILE_BYTES / (1024 * 1024)),
        )]);
    }
    let v: Value = serde_json::from_str(text).map_err(|e| {
        vec![Problem::new(
            Path::named(name),
            crate::input::json::syntax_error(&e),
        )]
    })?;
    let Value::Object(mut m) = v else {
        return Err(vec![Problem::new(
            Path::named(name),
            "the scenario must be a JSON object",
        )]);
    };
    for key in ["jobs", "workloads"] {
        if let Some(Value::Array(list)) = m.get(key) {
            if !list.is_empty() {
                warnings.push(Problem::new(
                    at(key),
                    format!("its {} {key} are replaced by the history", list.len()),
                ));
            }
        }
        m.remove(key);
    }
    if let Some(Value::Array(events)) = m.get_mut("events") {
        let before = events.len();
        events.retain(|e| e.get("set_priority").is_none());
        let dropped = before - events.len();
        if dropped > 0 {
            warnings.push(Problem::new(
                at("events"),
                format!(
                    "its {dropped} set_priority event(s) name jobs the history replaces: dropped"
                ),
            ));
        }
    }
    Ok(Value::Object(m))
}

impl Base {
    fn gpus_of(&self, ty: &str) -> Option<u32> {
        if let Some((_, g)) = self.types.iter().find(|(n, _)| n == ty) {
            return Some(*g);
        }
        crate::input::catalogue::lookup(ty).map(|t| t.gpus)
    }

    fn share(&self, name: &str) -> Option<&(String, Vec<String>)> {
        self.shares.iter().find(|(n, _)| n == name)
    }

    fn share_names(&self) -> String {
        self.shares
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A problem of one record: (its path in the file, the message).
type RecordProblem = (String, String);

/// SPEC 16: a flavor's instance type, as the Kueue configuration import maps it: the
/// `--flavor-map` entry, else the flavor's own name (a catalogue type of that name, or the
/// custom type the import made of it).
fn flavor_type(flavor: &str, map: &[(String, String)]) -> String {
    map.iter()
        .find(|(f, _)| f == flavor)
        .map_or_else(|| flavor.to_string(), |(_, t)| t.clone())
}

/// SPEC 16: why a record is not a job to replay, if it is not (one warning per reason and
/// file): it asks for none of the counted resource, or it finished without running.
fn skipped(r: &Record, resource: &str) -> Option<(String, String)> {
    let (amount, what) = match &r.demand {
        Demand::Instances { n, .. } => (*n, "jobs asking for no instance".to_string()),
        Demand::Resource { amount, .. } => (*amount, format!("workloads asking for no {resource}")),
        Demand::Gpus { amount } => (*amount, "jobs asking for no GPU".to_string()),
    };
    if amount == 0 {
        return Some((what, r.at(&r.demand_path)));
    }
    (r.run == Run::NeverRan).then(|| {
        (
            "jobs that finished without running".to_string(),
            r.path.clone(),
        )
    })
}

/// SPEC 16: the record's share: the one it names, or its LocalQueue's ClusterQueue; an
/// error names the shares that exist.
fn share_of<'b>(
    r: &Record,
    id: &str,
    base: &'b Base,
    local_queues: &[((String, String), String)],
) -> Result<&'b (String, Vec<String>), RecordProblem> {
    let share = match &r.share {
        ShareRef::Named(s) => s.as_str(),
        ShareRef::LocalQueue { namespace, name } => local_queues
            .iter()
            .find(|((ns, n), _)| ns == namespace && n == name)
            .map(|(_, cq)| cq.as_str())
            .ok_or_else(|| {
                (
                    r.at(&r.share_path),
                    format!(
                        "job {id}: LocalQueue {namespace}/{name} is not among the LocalQueue documents, so its ClusterQueue is unknown (add `kubectl get localqueues -A -o yaml` to the files)"
                    ),
                )
            })?,
    };
    base.share(share).ok_or_else(|| {
        (
            r.at(&r.share_path),
            format!(
                "job {id} is of share \"{share}\", which the configuration does not have (shares: {})",
                base.share_names()
            ),
        )
    })
}

/// SPEC 16: the job's instance type and number of instances. A type the record names (an
/// AWS instance type, a Kueue flavor's), else the share's first; GPUs are divided by the
/// type's GPUs per instance and rounded up, with a warning.
fn instances_of(
    r: &Record,
    id: &str,
    base: &Base,
    share: &(String, Vec<String>),
    sink: &mut Sink,
) -> Result<(String, u64), RecordProblem> {
    let first = share.1.first().cloned();
    let (ty, amount, in_gpus) = match &r.demand {
        Demand::Instances { ty, n } => (ty.clone().or(first), *n, false),
        Demand::Resource { flavor, amount } => (
            flavor
                .as_deref()
                .map(|f| flavor_type(f, &base.flavor_map))
                .or(first),
            *amount,
            true,
        ),
        Demand::Gpus { amount } => (first, *amount, true),
    };
    let ty = ty.ok_or_else(|| {
        (
            r.at(&r.share_path),
            format!(
                "job {id}: share \"{}\" has no limits, so the job's instance type is unknown",
                share.0
            ),
        )
    })?;
    let gpus = base.gpus_of(&ty).ok_or_else(|| {
        (
            r.at(&r.demand_path),
            format!(
                "job {id}: instance type {ty} is neither in the configuration nor in the catalogue (--flavor-map maps a flavor to a catalogue type)"
            ),
        )
    })?;
    let n = if in_gpus {
        let g = u64::from(gpus.max(1));
        let n = amount.div_ceil(g);
        if amount % g != 0 {
            sink.warn(
                &r.at(&r.demand_path),
                format!(
                    "job {id} asks for {amount} GPUs, not a whole number of {ty} ({g} per instance): {n} instance(s)"
                ),
            );
        }
        n
    } else {
        amount
    };
    if n > limits::MAX_INSTANCES {
        return Err((
            r.at(&r.demand_path),
            format!(
                "job {id} asks for {n} instances, over the limit of {}",
                limits::MAX_INSTANCES
            ),
        ));
    }
    Ok((ty, n))
}

/// SPEC 16 (SPEC 2 and 12 for the ranges): the job's `priority`, or its `priority_class`
/// when the configuration has the class (else priority 0, with a warning).
fn priority_of(
    r: &Record,
    id: &str,
    base: &Base,
    sink: &mut Sink,
) -> Result<Option<(&'static str, Value)>, RecordProblem> {
    let (lo, hi, model) = if base.kueue {
        (
            limits::KUEUE_MIN_PRIORITY,
            limits::KUEUE_MAX_PRIORITY,
            "Kueue",
        )
    } else {
        (limits::MIN_PRIORITY, limits::MAX_PRIORITY, "AWS")
    };
    match &r.priority {
        Prio::Value(p) if (i64::from(lo)..=i64::from(hi)).contains(p) => {
            Ok(Some(("priority", json!(p))))
        }
        Prio::Value(p) => Err((
            r.at(&r.priority_path),
            format!("job {id}: priority {p} is outside {lo}..={hi}, the {model} model's range"),
        )),
        Prio::Class(c) if base.priority_classes.contains(c) => {
            Ok(Some(("priority_class", json!(c))))
        }
        Prio::Class(c) => {
            sink.warn(
                &r.at(&r.priority_path),
                format!("job {id}: priority class {c} is not in the configuration's WorkloadPriorityClasses: priority 0"),
            );
            Ok(None)
        }
        Prio::None => Ok(None),
    }
}

/// SPEC 16: `work_s` in milliseconds, at least 1 s: the last run that finished by `end`;
/// a job still running at `end` ran until it, one still waiting not at all; both warn, and
/// say so in the second value (what it was, and the milliseconds it had run).
fn work_of(r: &Record, id: &str, end: i64, sink: &mut Sink) -> (i64, Option<(Unfinished, i64)>) {
    let mut left = None;
    let mut pending = |sink: &mut Sink| {
        left = Some((Unfinished::Pending, 0));
        sink.warn_unfinished(
            &r.path,
            format!("job {id} was still pending at the end of the history: work_s 1"),
            "was still pending at the history's end: replayed with 1 s of work, a lower bound"
                .to_string(),
            Unfinished::Pending,
        );
        0
    };
    let ms = match r.run {
        Run::Finished { start, stop } if stop <= end => {
            if stop < start {
                sink.warn(
                    &r.path,
                    format!("job {id} finished before its last admission: work_s 1"),
                );
            }
            stop - start
        }
        Run::Finished { start, .. } | Run::Running { start } if start >= end => pending(sink),
        Run::Finished { start, .. } | Run::Running { start } => {
            let ran = end - start;
            left = Some((Unfinished::Running, ran));
            sink.warn_unfinished(
                &r.path,
                format!(
                    "job {id} was still running at the end of the history: work_s is its time run so far ({})",
                    secs(ran.max(1000))
                ),
                format!(
                    "was still running at the history's end: replayed with only the {} it had run, a lower bound",
                    time_run(ran.max(1000))
                ),
                Unfinished::Running,
            );
            ran
        }
        Run::Pending => pending(sink),
        Run::NeverRan => 0,
    };
    (ms.max(1000), left)
}

/// SPEC 16: evictions are counted and reported, not replayed.
fn report_evictions(r: &Record, id: &str, sink: &mut Sink) {
    let (pre, other) = r.evictions;
    if pre + other > 0 {
        let n = pre + other;
        let times = if n == 1 { "once" } else { "times" };
        let count = if n == 1 {
            String::new()
        } else {
            format!("{n} ")
        };
        sink.warn_worded(
            &r.path,
            format!(
                "job {id} was evicted {} time(s) ({pre} by preemption): evictions are counted, not replayed; work_s is its last run",
                pre + other
            ),
            format!(
                "was evicted {count}{times} ({pre} by preemption): evictions are counted, not replayed, and its work is its last run's"
            ),
        );
    }
}

/// SPEC 16: job ids. An AWS job name that several jobs (several `jobId`s) share is made
/// unique with the job id, for each of them.
fn job_ids(records: &[Record]) -> Vec<String> {
    let mut alts: HashMap<&str, Vec<Option<&str>>> = HashMap::new();
    for r in records {
        let e = alts.entry(r.id.as_str()).or_default();
        if !e.contains(&r.alt_id.as_deref()) {
            e.push(r.alt_id.as_deref());
        }
    }
    records
        .iter()
        .map(|r| match &r.alt_id {
            Some(alt) if alts[r.id.as_str()].len() > 1 => format!("{}/{alt}", r.id),
            _ => r.id.clone(),
        })
        .collect()
}

/// Turns the records into scenario jobs (SPEC 16): the window, then per record in submit
/// order (then id) its share, instances, priority and times; problems go to each record's
/// file.
fn resolve(
    c: Collected,
    sinks: &mut [Sink],
    base: &Base,
    from: Option<i64>,
    to: Option<i64>,
    unfinished: &mut Vec<crate::UnfinishedJob>,
) -> Result<Vec<Value>, Vec<Problem>> {
    let Collected {
        mut records,
        local_queues,
    } = c;
    let total = records.len();
    // The window: jobs submitted in [from, to].
    records.retain(|r| from.is_none_or(|f| r.submit >= f) && to.is_none_or(|t| r.submit <= t));
    if records.is_empty() {
        return Err(vec![Problem::whole(if total == 0 {
            "no job found in the history (expected Kueue Workloads or AWS Batch jobs)".to_string()
        } else {
            format!("none of the history's {total} jobs was submitted in the --from/--to window")
        })]);
    }
    // The end of the history: --to, else the latest time any record mentions.
    let end = to.unwrap_or_else(|| records.iter().map(|r| r.latest).max().unwrap_or(0));
    let ids = job_ids(&records);
    let mut order: Vec<usize> = (0..records.len()).collect();
    crate::sort::compact_by(&mut order, &|&a, &b| {
        records[a]
            .submit
            .cmp(&records[b].submit)
            .then_with(|| ids[a].cmp(&ids[b]))
    });
    let t0 = records.iter().map(|r| r.submit).min().unwrap_or(0);
    let mut jobs = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for &i in &order {
        let r = &records[i];
        let id = ids[i].as_str();
        let sink = &mut sinks[r.file];
        // The page names the job, not its place in the file (`[0].items[2]`): a Kueue
        // Workload by namespace/name, an AWS Batch job by its name.
        let kind = if id.contains('/') { "Workload" } else { "job" };
        sink.record(&r.path, kind, id);
        if seen.contains(id) {
            sink.warn(
                &r.path,
                format!("job {id} appears more than once: the first (earliest) record is kept"),
            );
            continue;
        }
        if let Some((what, path)) = skipped(r, &base.resource) {
            sink.ignore("skip", &what, &path);
            continue;
        }
        let job = share_of(r, id, base, &local_queues).and_then(|share| {
            let (ty, n) = instances_of(r, id, base, share, sink)?;
            let priority = priority_of(r, id, base, sink)?;
            let mut job = Map::new();
            job.insert("id".into(), json!(id));
            job.insert("share".into(), json!(share.0));
            job.insert("instance_type".into(), json!(ty));
            job.insert("instances".into(), json!(n));
            if let Some((key, v)) = priority {
                job.insert(key.into(), v);
            }
            let (work, left) = work_of(r, id, end, sink);
            if let Some((kind, ran)) = left {
                unfinished.push(crate::UnfinishedJob {
                    id: id.to_string(),
                    share: share.0.to_string(),
                    kind,
                    ran_s: ran as f64 / 1000.0,
                });
            }
            job.insert("submit_s".into(), json_secs(r.submit - t0));
            job.insert("work_s".into(), json_secs(work));
            report_evictions(r, id, sink);
            Ok(job)
        });
        match job {
            Ok(job) => {
                seen.insert(id);
                jobs.push(Value::Object(job));
            }
            Err((path, msg)) => sink.err(&path, msg),
        }
    }
    if jobs.is_empty() && sinks.iter().all(|s| s.errors.is_empty()) {
        return Err(vec![Problem::whole(format!(
            "no job left to replay: each of the {} jobs in the window asks for no {} (--resource names the counted resource) or finished without running",
            records.len(),
            base.resource
        ))]);
    }
    Ok(jobs)
}

/// Milliseconds as JSON seconds: an integer when whole, else with the milliseconds.
fn json_secs(ms: i64) -> Value {
    if ms % 1000 == 0 {
        json!(ms / 1000)
    } else {
        json!(ms as f64 / 1000.0)
    }
}

/// `1234 s` for warnings.
/// A time run in words for the page: `40 s`, `30 min`, `2.5 h`.
fn time_run(ms: i64) -> String {
    let s = ms as f64 / 1000.0;
    if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 5400.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

fn secs(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.3} s", ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests;
