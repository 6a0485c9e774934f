//! Real quota configurations in and out (SPEC 13): AWS Batch JSON (CreateQuotaShare bodies,
//! ListQuotaShares / DescribeQuotaShares responses, service environments) and Kueue YAML
//! (ClusterQueue, Cohort, ResourceFlavor, WorkloadPriorityClass, a Configuration's
//! `fairSharing`), read into a scenario and written back from one.
//!
//! Pure functions, text in and text out, no I/O; the CLI and the page call the same ones:
//! [`detect`] guesses the format, [`import`] (or [`import_files`] for several files) turns
//! configuration text into scenario JSON with warnings, [`merge_into`] keeps another
//! scenario's jobs, workloads and events, and [`export`] writes a scenario's shares back.
//!
//! Every problem names the document (`[i]`, the YAML document index or JSON array index,
//! omitted for a single JSON object) and the path inside it.

pub mod aws;
pub mod history;
pub mod hyperpod;
pub mod kueue;
pub mod quantity;
pub mod typical_load;
pub mod yaml_out;

use serde_json::{Map, Value};

use crate::input::path::Path;
use crate::Problem;

/// SPEC 13: files (and standard input) over this many bytes are refused before parsing.
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

/// A configuration format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// AWS Batch quota-share JSON.
    Aws,
    /// Kueue YAML.
    Kueue,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Aws => "aws",
            Format::Kueue => "kueue",
        }
    }
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "aws" => Some(Format::Aws),
            "kueue" => Some(Format::Kueue),
            _ => None,
        }
    }
}

/// Guesses a configuration's format from its content: JSON (an object or an array) is AWS,
/// anything else Kueue YAML. `None` for blank text.
pub fn detect(text: &str) -> Option<Format> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    match t.chars().next()? {
        '{' | '[' => {
            if serde_json::from_str::<Value>(t).is_ok() {
                Some(Format::Aws)
            } else {
                // Flow-style YAML also starts with a brace; Kueue YAML names a `kind`.
                Some(if t.contains("kind") && t.contains("kueue.x-k8s.io") {
                    Format::Kueue
                } else {
                    Format::Aws
                })
            }
        }
        _ => Some(Format::Kueue),
    }
}

/// How an import reads its input (SPEC 13 options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    /// AWS: the job queue whose shares are imported (a name or an ARN).
    pub queue: Option<String>,
    /// Kueue: the counted resource.
    pub resource: String,
    /// Kueue: flavor name to catalogue instance type.
    pub flavor_map: Vec<(String, String)>,
}

impl ImportOptions {
    pub const DEFAULT_RESOURCE: &'static str = "nvidia.com/gpu";
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions {
            queue: None,
            resource: ImportOptions::DEFAULT_RESOURCE.to_string(),
            flavor_map: Vec::new(),
        }
    }
}

/// Parses `a100=ml.p4d.24xlarge,h100=ml.p5.48xlarge`.
pub fn parse_flavor_map(text: &str) -> Result<Vec<(String, String)>, Problem> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((flavor, ty)) = part.split_once('=') else {
            return Err(Problem::new(
                Path::named("--flavor-map"),
                format!("\"{part}\" is not FLAVOR=INSTANCE_TYPE"),
            ));
        };
        let (flavor, ty) = (flavor.trim(), ty.trim());
        if crate::input::catalogue::lookup(ty).is_none() {
            return Err(Problem::new(
                Path::named("--flavor-map"),
                format!("{ty} is not a catalogue instance type (flavor {flavor})"),
            ));
        }
        out.push((flavor.to_string(), ty.to_string()));
    }
    Ok(out)
}

/// An imported configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The scenario (SPEC 7) with the shares (and cohorts) and no jobs.
    pub scenario: Value,
    /// Pretty-printed [`Imported::scenario`].
    pub scenario_json: String,
    /// Everything ignored, dropped or rounded.
    pub warnings: Vec<Problem>,
    /// SPEC 16, a job history's import: its jobs that had not finished at the history's end
    /// (replayed with only the time they had run), sorted by id; empty for a configuration.
    pub unfinished: Vec<crate::UnfinishedJob>,
}

impl Imported {
    fn new(scenario: Value, warnings: Vec<Problem>) -> Imported {
        let scenario_json = serde_json::to_string_pretty(&scenario).unwrap_or_default();
        Imported {
            scenario,
            scenario_json,
            warnings,
            unfinished: Vec::new(),
        }
    }
}

/// Imports one configuration text (SPEC 13).
pub fn import(text: &str, format: Format, opts: &ImportOptions) -> Result<Imported, Vec<Problem>> {
    import_files(&[("", text)], format, opts)
}

/// Imports several files as one configuration (shares in file order). Problems name the
/// file (`FILE: [i].PATH: message`) when there are several.
pub fn import_files(
    files: &[(&str, &str)],
    format: Format,
    opts: &ImportOptions,
) -> Result<Imported, Vec<Problem>> {
    import_with(files, |sources| match format {
        Format::Aws => aws::import(sources, opts),
        Format::Kueue => kueue::import(sources, opts),
    })
}

/// What every import shares (SPEC 13): the size bound per file, `read` over the files'
/// sinks, one warning per ignored name, and the imported scenario loaded as a safety net.
pub(crate) fn import_with(
    files: &[(&str, &str)],
    read: impl FnOnce(&mut [(Sink, &str)]) -> Result<(Value, Vec<Problem>), Vec<Problem>>,
) -> Result<Imported, Vec<Problem>> {
    let named = files.len() > 1;
    let mut sources = Vec::new();
    let mut errors = Vec::new();
    for (name, text) in files {
        let mut sink = Sink::new(if named { name } else { "" });
        sink.check_size(text);
        sources.push((sink, *text));
    }
    for (sink, _) in &mut sources {
        errors.append(&mut sink.errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let result = read(&mut sources);
    let mut warnings = Vec::new();
    for (sink, _) in &mut sources {
        sink.flush_ignored();
        errors.append(&mut sink.errors);
        warnings.append(&mut sink.warnings);
    }
    match result {
        Ok((scenario, mut extra)) if errors.is_empty() => {
            warnings.append(&mut extra);
            must_load(&scenario)?;
            Ok(Imported::new(scenario, warnings))
        }
        Ok(_) => Err(errors),
        Err(mut more) => {
            errors.append(&mut more);
            Err(errors)
        }
    }
}

/// What `--into` does with the kept jobs, workloads and events of a share the imported
/// configuration does not have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum UnknownShares {
    /// SPEC 13 (the CLI): an error naming each of them.
    #[default]
    Refuse,
    /// The page's first import (SPEC 16 "never an empty result"): those of a share listed
    /// here move to the share it maps to; the others are dropped, with a warning each.
    Resolve(Vec<(String, String)>),
}

/// The shares kept jobs, workloads or `update_share` events name that an import lacks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnknownShare {
    pub name: String,
    /// Explicit jobs of it.
    pub jobs: usize,
    /// Workloads of it.
    pub workloads: usize,
}

/// The shares of `base_json`'s jobs and workloads (and `update_share` events) that
/// `imported` does not have, in first-seen order: what `--into` would refuse.
pub fn unknown_shares(imported: &Imported, base_json: &str) -> Vec<UnknownShare> {
    let Ok(base) = serde_json::from_str::<Value>(base_json) else {
        return Vec::new();
    };
    let names = share_names(&imported.scenario);
    let mut out: Vec<UnknownShare> = Vec::new();
    let mut count = |share: &str, job: bool, workload: bool| {
        if names.iter().any(|n| n == share) {
            return;
        }
        let i = match out.iter().position(|u| u.name == share) {
            Some(i) => i,
            None => {
                out.push(UnknownShare {
                    name: share.to_string(),
                    ..UnknownShare::default()
                });
                out.len() - 1
            }
        };
        out[i].jobs += usize::from(job);
        out[i].workloads += usize::from(workload);
    };
    for (key, job) in [("jobs", true), ("workloads", false)] {
        for item in base
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(share) = item.get("share").and_then(Value::as_str) {
                count(share, job, !job);
            }
        }
    }
    for e in base
        .get("events")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(share) = e.pointer("/update_share/share").and_then(Value::as_str) {
            count(share, false, false);
        }
    }
    out
}

fn share_names(scenario: &Value) -> Vec<String> {
    scenario
        .get("shares")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(|s| s["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A safety net for what an import builds: the scenario must load. Its problems name
/// scenario paths (`imported scenario: shares[0].limits: ...`). The value is checked as it
/// is (its text would read back as the same value), not written out and read again.
pub(crate) fn must_load(scenario: &Value) -> Result<(), Vec<Problem>> {
    crate::input::validate::load_value(scenario)
        .map(|_| ())
        .map_err(|problems| {
            problems
                .into_iter()
                .map(|p| {
                    let at = Path::named(format!("imported scenario: {}", p.path));
                    Problem::new(at, p.message)
                })
                .collect()
        })
}

/// SPEC 13 `--into SCENARIO`: `base`'s everything except `model`, `shares`, `cohorts`,
/// `fair_sharing` and `priority_classes`, which come from the import, as does its capacity
/// where the import gives one. Jobs or workloads of a share that no longer exists are an
/// error naming them.
pub fn merge_into(imported: &Imported, base_json: &str) -> Result<Imported, Vec<Problem>> {
    merge_into_with(imported, base_json, &UnknownShares::Refuse)
}

/// [`merge_into`], with what to do about kept jobs of shares the import does not have.
pub fn merge_into_with(
    imported: &Imported,
    base_json: &str,
    unknown: &UnknownShares,
) -> Result<Imported, Vec<Problem>> {
    let base: Value = serde_json::from_str(base_json)
        .map_err(|e| vec![Problem::whole(crate::input::json::syntax_error(&e))])?;
    let Value::Object(mut base) = base else {
        return Err(vec![Problem::whole("the scenario must be a JSON object")]);
    };
    let imp = imported.scenario.as_object().cloned().unwrap_or_default();
    for key in [
        "model",
        "shares",
        "cohorts",
        "fair_sharing",
        "priority_classes",
        kueue::SOURCE_FIELD,
    ] {
        base.remove(key);
        if let Some(v) = imp.get(key) {
            base.insert(key.to_string(), v.clone());
        }
    }
    if let Some(Value::Object(cap)) = imp.get("capacity") {
        let entry = base
            .entry("capacity")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = entry {
            for (k, v) in cap {
                m.insert(k.clone(), v.clone());
            }
        }
    }
    if let Some(Value::Array(types)) = imp.get("instance_types") {
        let entry = base
            .entry("instance_types")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = entry {
            for t in types {
                let name = t.get("name");
                if !list.iter().any(|x| x.get("name") == name) {
                    list.push(t.clone());
                }
            }
        }
    }
    let names = share_names(&imported.scenario);
    let mut warnings = imported.warnings.clone();
    if let UnknownShares::Resolve(map) = unknown {
        resolve_unknown(&mut base, &names, map, &mut warnings);
    }
    let mut problems = Vec::new();
    for key in ["jobs", "workloads"] {
        let Some(Value::Array(list)) = base.get(key) else {
            continue;
        };
        for (i, item) in list.iter().enumerate() {
            if let Some(share) = item.get("share").and_then(Value::as_str) {
                if !names.iter().any(|n| n == share) {
                    let what = item
                        .get("id")
                        .and_then(Value::as_str)
                        .map(|id| format!("job {id}"))
                        .unwrap_or_else(|| format!("{key}[{i}]"));
                    problems.push(Problem::new(
                        Path::root().key(key).idx(i).key("share"),
                        format!(
                            "{what} is of share \"{share}\", which the imported configuration does not have (shares: {})",
                            names.join(", ")
                        ),
                    ));
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    drop_unused_types(&mut base, &imp);
    let merged = Value::Object(base);
    crate::input::validate::load(&merged.to_string())?;
    Ok(Imported::new(merged, warnings))
}

/// After a merge (SPEC 13): the kept scenario's capacity and instance type declarations
/// that nothing names any more (no share, cohort, kept job, workload or event, and not the
/// import's own) go, so the imported cluster is described by its own flavors alone and not
/// also by the old scenario's ("3 teams share 24 a100 and 3 ml.g5.xlarge").
fn drop_unused_types(base: &mut Map<String, Value>, imp: &Map<String, Value>) {
    fn collect(v: &Value, used: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match (k.as_str(), x) {
                        ("instance_type", Value::String(t)) => used.push(t.clone()),
                        ("limits" | "borrowing_limit" | "lending_limit", Value::Object(l)) => {
                            used.extend(l.keys().cloned());
                        }
                        _ => collect(x, used),
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| collect(x, used)),
            _ => {}
        }
    }
    let mut used = Vec::new();
    for key in ["shares", "cohorts", "jobs", "workloads", "events"] {
        if let Some(v) = base.get(key) {
            collect(v, &mut used);
        }
    }
    if let Some(Value::Object(cap)) = imp.get("capacity") {
        used.extend(cap.keys().cloned());
    }
    if let Some(Value::Array(types)) = imp.get("instance_types") {
        used.extend(
            types
                .iter()
                .filter_map(|t| t["name"].as_str())
                .map(String::from),
        );
    }
    if let Some(Value::Object(cap)) = base.get_mut("capacity") {
        cap.retain(|k, _| used.contains(k));
    }
    if let Some(Value::Array(types)) = base.get_mut("instance_types") {
        types.retain(|t| {
            t["name"]
                .as_str()
                .is_none_or(|n| used.iter().any(|u| u == n))
        });
    }
}

/// Moves the kept jobs, workloads and `update_share` events of shares the import lacks to
/// the share `map` names, or drops them (and the `set_priority` events of dropped jobs),
/// with one warning per share.
fn resolve_unknown(
    base: &mut Map<String, Value>,
    names: &[String],
    map: &[(String, String)],
    warnings: &mut Vec<Problem>,
) {
    let target = |share: &str| -> Option<Option<String>> {
        if names.iter().any(|n| n == share) {
            return None;
        }
        Some(
            map.iter()
                .find(|(from, to)| from == share && names.contains(to))
                .map(|(_, to)| to.clone()),
        )
    };
    // share -> (target, jobs, workloads)
    let mut tally: Vec<(String, Option<String>, usize, usize)> = Vec::new();
    let mut dropped_ids: Vec<String> = Vec::new();
    let mut dropped_shares: Vec<String> = Vec::new();
    for key in ["jobs", "workloads"] {
        let Some(Value::Array(list)) = base.get_mut(key) else {
            continue;
        };
        list.retain_mut(|item| {
            let Some(share) = item
                .get("share")
                .and_then(Value::as_str)
                .map(str::to_string)
            else {
                return true;
            };
            let Some(to) = target(&share) else {
                return true;
            };
            match tally.iter_mut().find(|t| t.0 == share) {
                Some(t) => {
                    t.2 += usize::from(key == "jobs");
                    t.3 += usize::from(key == "workloads");
                }
                None => tally.push((
                    share.clone(),
                    to.clone(),
                    usize::from(key == "jobs"),
                    usize::from(key == "workloads"),
                )),
            }
            match to {
                Some(to) => {
                    item["share"] = Value::String(to);
                    true
                }
                None => {
                    if let Some(id) = item.get("id").and_then(Value::as_str) {
                        dropped_ids.push(id.to_string());
                    }
                    if !dropped_shares.contains(&share) {
                        dropped_shares.push(share.clone());
                    }
                    false
                }
            }
        });
    }
    let mut dropped_events = 0usize;
    if let Some(Value::Array(events)) = base.get_mut("events") {
        events.retain_mut(|e| {
            if let Some(share) = e
                .pointer("/update_share/share")
                .and_then(Value::as_str)
                .map(str::to_string)
            {
                match target(&share) {
                    None => return true,
                    Some(Some(to)) => {
                        e["update_share"]["share"] = Value::String(to);
                        return true;
                    }
                    Some(None) => {
                        dropped_events += 1;
                        return false;
                    }
                }
            }
            if let Some(job) = e.pointer("/set_priority/job").and_then(Value::as_str) {
                // A dropped explicit job, or a job generated by a workload that moved or
                // went (its id, `<share>-<n>`, no longer exists).
                let gone = dropped_ids.iter().any(|d| d == job)
                    || tally
                        .iter()
                        .any(|(s, _, _, w)| *w > 0 && job.starts_with(&format!("{s}-")));
                if gone {
                    dropped_events += 1;
                    return false;
                }
            }
            true
        });
    }
    let plural = |n: usize, one: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {one}s")
        }
    };
    for (share, to, jobs, workloads) in tally {
        let what = match (jobs, workloads) {
            (j, 0) => plural(j, "job"),
            (0, w) => plural(w, "workload"),
            (j, w) => format!("{} and {}", plural(j, "job"), plural(w, "workload")),
        };
        let msg = match to {
            Some(to) => format!(
                "{what} of \"{share}\", which the configuration does not have, moved to \"{to}\""
            ),
            None => {
                format!("{what} of \"{share}\", which the configuration does not have, dropped")
            }
        };
        warnings.push(Problem::whole(msg));
    }
    if dropped_events > 0 {
        warnings.push(Problem::whole(format!(
            "{} about them dropped",
            plural(dropped_events, "timed event")
        )));
    }
}

/// What [`export`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// One JSON array: a CreateServiceEnvironment body and a CreateQuotaShare body per share.
    AwsJson,
    /// The equivalent `aws batch` commands, as a shell script.
    AwsScript,
    /// ResourceFlavors, Cohorts and ClusterQueues as YAML for `kubectl apply` (over the
    /// documents a scenario was imported from, when it was: SPEC 16).
    Kueue,
    /// SPEC 16 `export kueue --patch`: only the changed modelled fields of an imported
    /// scenario, one JSON merge patch per object.
    KueuePatch,
}

/// Export options (SPEC 13).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// AWS: the shares' `jobQueue`.
    pub queue: String,
    /// Kueue: the resource the quotas are in (GPUs).
    pub resource: String,
}

impl ExportOptions {
    pub const DEFAULT_QUEUE: &'static str = "quotalab";
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions {
            queue: ExportOptions::DEFAULT_QUEUE.to_string(),
            resource: ImportOptions::DEFAULT_RESOURCE.to_string(),
        }
    }
}

/// An export: the text and its warnings.
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    pub text: String,
    pub warnings: Vec<Problem>,
    /// SPEC 16 `--patch` of imported objects with nothing to apply: no object changed, none
    /// new, none removed (the text says "Changed: none").
    pub empty_patch: bool,
}

/// Writes a scenario's shares (given as scenario JSON text) in a configuration format.
pub fn export(
    scenario_json: &str,
    format: ExportFormat,
    opts: &ExportOptions,
) -> Result<Exported, Vec<Problem>> {
    let loaded = crate::input::validate::load(scenario_json)?;
    let value = serde_json::from_str::<Value>(scenario_json).unwrap_or(Value::Null);
    // Priority classes are read from the text: they name values, the model keeps none.
    let classes: Vec<(String, i64)> = value
        .get("priority_classes")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_i64().map(|n| (k.clone(), n)))
                .collect()
        })
        .unwrap_or_default();
    let kueue_format = matches!(format, ExportFormat::Kueue | ExportFormat::KueuePatch);
    if kueue_format && loaded.scenario.is_kueue() {
        if let Some(source) = kueue::Source::read(&value) {
            let source = source.map_err(|p| vec![p])?;
            let patch = format == ExportFormat::KueuePatch;
            return kueue::export_over(&loaded.scenario, &classes, &source, opts, patch);
        }
    }
    if format == ExportFormat::KueuePatch {
        return Err(vec![Problem::new(
            Path::named("--patch"),
            "the scenario was not imported from Kueue files (it has no source.kueue): there is no live object to patch; export without --patch",
        )]);
    }
    let kept = aws::Kept::read(&value);
    export_scenario_with(&loaded.scenario, &classes, format, opts, &kept)
}

/// [`export`] of a validated scenario (without priority classes).
pub fn export_scenario(
    scenario: &crate::input::model::Scenario,
    format: ExportFormat,
    opts: &ExportOptions,
) -> Result<Exported, Vec<Problem>> {
    export_scenario_with(scenario, &[], format, opts, &aws::Kept::default())
}

fn export_scenario_with(
    scenario: &crate::input::model::Scenario,
    priority_classes: &[(String, i64)],
    format: ExportFormat,
    opts: &ExportOptions,
    kept: &aws::Kept,
) -> Result<Exported, Vec<Problem>> {
    match format {
        ExportFormat::AwsJson => aws::export(scenario, opts, false, kept),
        ExportFormat::AwsScript => aws::export(scenario, opts, true, kept),
        ExportFormat::Kueue | ExportFormat::KueuePatch => {
            Ok(kueue::export(scenario, priority_classes, opts))
        }
    }
}

/// An ignored name's tally: (document kind, name) -> (first path, count, the names of the
/// objects it was ignored in, in order, and as a set: a history ignores a field in tens of
/// thousands of Workloads; the object at the first path when it was seen, (kind, name,
/// field)).
type Ignored = (
    (String, String),
    (
        String,
        usize,
        Vec<String>,
        std::collections::HashSet<String>,
        Option<(String, String, String)>,
    ),
);

/// Where problems of one file go: errors, warnings, and the "ignored" tallies that become
/// one warning per distinct name and document kind.
pub(crate) struct Sink {
    file: String,
    pub(crate) errors: Vec<Problem>,
    pub(crate) warnings: Vec<Problem>,
    /// In first-seen order.
    ignored: Vec<Ignored>,
    /// The objects read so far: their path -> (kind, name), so that a warning inside one
    /// names it ([`Problem::object`]). A map: a history registers every Workload, and each
    /// warning looks its object up ([`Sink::object_at`]).
    objects: std::collections::HashMap<String, (String, String)>,
    /// The history record being resolved: its path, kind and name ([`Sink::record`]), one
    /// at a time instead of 100,000 entries of `objects`.
    record: Option<(String, String, String)>,
    /// Places inside an object said in the user's words: a path -> its words (a Kueue
    /// ClusterQueue's `resourceGroups[0].flavors[1].resources[0]` is `nvidia.com/gpu in
    /// flavor a100`), so that the page says "nominalQuota of nvidia.com/gpu in flavor a100"
    /// where the CLI keeps the path ([`Sink::place`]).
    places: std::collections::HashMap<String, String>,
}

impl Sink {
    pub(crate) fn new(file: &str) -> Sink {
        Sink {
            file: file.to_string(),
            errors: Vec::new(),
            warnings: Vec::new(),
            ignored: Vec::new(),
            objects: std::collections::HashMap::new(),
            record: None,
            places: std::collections::HashMap::new(),
        }
    }

    /// The place at `path` inside an object is `words` for a reader: problems under it
    /// name their field after it ("nominalQuota of nvidia.com/gpu in flavor a100").
    pub(crate) fn place(&mut self, path: &str, words: String) {
        self.places.insert(path.to_string(), words);
    }

    /// `field` (at `path`) in the words of the longest registered [`Sink::place`] that
    /// holds it: `resourceGroups[0].flavors[0].resources[0].nominalQuota` is
    /// `nominalQuota of nvidia.com/gpu in flavor a100`; `field` itself when none does.
    fn field_words(&self, path: &str, field: String) -> String {
        if self.places.is_empty() {
            return field;
        }
        let mut end = path.len();
        loop {
            let at = &path[..end];
            if let Some(words) = self.places.get(at) {
                let rest = path[end..].trim_start_matches('.');
                return if rest.is_empty() {
                    words.clone()
                } else {
                    format!("{rest} of {words}")
                };
            }
            if end == 0 {
                return field;
            }
            end = at.rfind(['.', '[']).unwrap_or(0);
        }
    }

    /// Object `kind` `name` is the document at `path` (`[3]`, `[0].items[2]`): warnings
    /// under that path name it.
    pub(crate) fn object(&mut self, path: &str, kind: &str, name: &str) {
        self.objects
            .insert(path.to_string(), (kind.to_string(), name.to_string()));
    }

    /// A history record `kind` `name` at `path` is resolved: problems under that path name
    /// it, as [`Sink::object`] would, until the next record. A problem about an earlier
    /// record is never made after it (an ignored field's tally keeps the object it was
    /// first seen in).
    pub(crate) fn record(&mut self, path: &str, kind: &str, name: &str) {
        let (p, k, n) = self
            .record
            .get_or_insert_with(|| (String::new(), String::new(), String::new()));
        for (to, from) in [(p, path), (k, kind), (n, name)] {
            to.clear();
            to.push_str(from);
        }
    }

    /// The object `path` is in, and the field inside it (its `spec.` left out):
    /// (`[3]`, ClusterQueue team-a-cq) for `[3].spec.namespaceSelector` is
    /// (kind, name, `namespaceSelector`).
    fn object_at(&self, path: &str) -> Option<(&str, &str, String)> {
        // The longest registered prefix of `path` that ends a step (before a `.` or a `[`,
        // or the whole path), the root `""` last: a file of one object holds every path.
        let mut end = path.len();
        let (at, (kind, name)) = loop {
            let at = &path[..end];
            if let Some((p, k, n)) = &self.record {
                if p == at {
                    break (at, (k, n));
                }
            }
            if let Some((k, n)) = self.objects.get(at) {
                break (at, (k, n));
            }
            if end == 0 {
                return None;
            }
            end = at.rfind(['.', '[']).unwrap_or(0);
        };
        let rest = path[at.len()..].trim_start_matches('.');
        let field = rest.strip_prefix("spec.").unwrap_or(rest);
        let field = if field == "spec" { "" } else { field };
        Some((kind.as_str(), name.as_str(), field.to_string()))
    }

    /// The file name problems carry (empty for a single file).
    pub(crate) fn file_name(&self) -> &str {
        &self.file
    }

    /// A problem's place: `file: path` (a place in the imported file, not in the scenario,
    /// so [`Path::named`]).
    fn path(&self, path: &str) -> Path {
        Path::named(match (self.file.is_empty(), path.is_empty()) {
            (true, _) => path.to_string(),
            (false, true) => self.file.clone(),
            (false, false) => format!("{}: {path}", self.file),
        })
    }

    /// SPEC 13: a file over [`MAX_FILE_BYTES`] is refused before it is parsed.
    pub(crate) fn check_size(&mut self, text: &str) {
        if text.len() > MAX_FILE_BYTES {
            self.err(
                "",
                format!(
                    "is {} bytes, over the {} MiB limit",
                    text.len(),
                    MAX_FILE_BYTES / (1024 * 1024)
                ),
            );
        }
    }

    pub(crate) fn err(&mut self, path: &str, msg: impl Into<String>) {
        let problem = self.problem_in_object(path, msg.into());
        self.errors.push(problem);
    }

    pub(crate) fn warn(&mut self, path: &str, msg: impl Into<String>) {
        let problem = self.problem_in_object(path, msg.into());
        self.warnings.push(problem);
    }

    /// A problem at `path`, naming the object it is in ([`Problem::object`]) when one was
    /// read there: the page says "ClusterQueue team-a-cq: …" where the CLI keeps the path.
    fn problem_in_object(&self, path: &str, msg: String) -> Problem {
        let mut problem = Problem::new(self.path(path), msg.clone());
        if let Some((kind, name, field)) = self.object_at(path) {
            let field = self.field_words(path, field);
            // A history job's warning names it ("job team-a/x was ..."): the object says it.
            let what = msg
                .strip_prefix(&format!("job {name}"))
                .map_or(msg.as_str(), |rest| {
                    rest.trim_start_matches(':').trim_start()
                })
                .to_string();
            problem.object = Some(Box::new(crate::Object {
                kind: kind.to_string(),
                names: vec![name.to_string()],
                field,
                what,
                unfinished: None,
            }));
        }
        problem
    }

    /// [`Sink::warn`] about a history job that had not finished at the history's end
    /// (SPEC 16), marked so that the page can count them.
    /// `what` is the page's words for it (the CLI's `msg` names `work_s`).
    pub(crate) fn warn_unfinished(
        &mut self,
        path: &str,
        msg: impl Into<String>,
        what: String,
        unfinished: crate::Unfinished,
    ) {
        self.warn_worded(path, msg, what);
        if let Some(o) = self.warnings.last_mut().and_then(|p| p.object.as_mut()) {
            o.unfinished = Some(unfinished);
        }
    }

    /// [`Sink::warn`] with the page's words `what` for it (the CLI's `msg` may name fields
    /// such as `work_s`).
    pub(crate) fn warn_worded(&mut self, path: &str, msg: impl Into<String>, what: String) {
        self.warn(path, msg);
        if let Some(o) = self.warnings.last_mut().and_then(|p| p.object.as_mut()) {
            o.what = what;
        }
    }

    /// An ignored field or kind `name` in a document of `kind`, at `path`.
    pub(crate) fn ignore(&mut self, kind: &str, name: &str, path: &str) {
        let key = (kind.to_string(), name.to_string());
        let found = self
            .object_at(path)
            .map(|(k, n, f)| (k.to_string(), n.to_string(), f));
        let object = found.as_ref().map(|(_, n, _)| n.clone());
        if let Some((_, (_, n, names, seen, _))) = self.ignored.iter_mut().find(|(k, _)| *k == key)
        {
            *n += 1;
            if let Some(o) = object {
                if seen.insert(o.clone()) {
                    names.push(o);
                }
            }
        } else {
            let names: Vec<String> = object.into_iter().collect();
            let seen = names.iter().cloned().collect();
            self.ignored
                .push((key, (path.to_string(), 1, names, seen, found)));
        }
    }

    /// One warning per ignored name: `ignored: namespaceSelector (3 times)` at the first
    /// path for the CLI; for the page, the objects it was ignored in
    /// (`ClusterQueues team-a-cq, team-b-cq: namespaceSelector ignored`).
    pub(crate) fn flush_ignored(&mut self) {
        for ((_, name), (path, n, names, _, first)) in std::mem::take(&mut self.ignored) {
            let msg = if n == 1 {
                format!("ignored: {name}")
            } else {
                format!("ignored: {name} ({n} times)")
            };
            // The object at its first path: as registered now, else (a history record
            // resolved before the last) as it was when first seen.
            let at = self
                .object_at(&path)
                .map(|(k, n, f)| (k.to_string(), n.to_string(), f))
                .or(first);
            let object = at.map(|(kind, first, field)| {
                // A whole object ignored (a kind not modelled) is the object itself.
                let whole = field.is_empty();
                crate::Object {
                    kind: kind.to_string(),
                    names: if names.is_empty() {
                        vec![first.to_string()]
                    } else {
                        names.clone()
                    },
                    field: if whole { String::new() } else { name.clone() },
                    what: "ignored".to_string(),
                    unfinished: None,
                }
            });
            let mut problem = Problem::new(self.path(&path), msg);
            problem.object = object.map(Box::new);
            self.warnings.push(problem);
        }
    }
}

/// `[i].path` for document `i` (or `path` alone for a single JSON object).
pub(crate) fn doc_path(doc: Option<usize>, path: &str) -> String {
    match doc {
        None => path.to_string(),
        Some(i) if path.is_empty() => format!("[{i}]"),
        Some(i) if path.starts_with('[') => format!("[{i}]{path}"),
        Some(i) => format!("[{i}].{path}"),
    }
}

pub(crate) use crate::input::json::{join, kind};

/// Where the line that holds `b[from]` ends: its `\n`, or the end of `b` (eight bytes at a
/// time).
pub(crate) fn line_end(b: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut i = from;
    while let Some(w) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(w.try_into().unwrap_or([0; 8])) ^ (ONES * u64::from(b'\n'));
        // The lowest byte of `x` that is zero (a `\n`) sets the lowest high bit.
        let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
        if zero != 0 {
            return i + (zero.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    b[i..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |k| i + k)
}
