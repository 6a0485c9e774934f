//! SPEC 13 in the page: what the page asks an engine worker about configurations and what it
//! answers ([`Envelope`]s of [`Request`] and [`Response`], inside the protocol's
//! `Request::Config` and `Response::Config`), and [`handle`], which answers with the engine's
//! `config` functions, the same ones `quotasim import` and `export` call:
//! [`config::detect`], [`config::import_files`], [`config::merge_into_with`] (`--into`),
//! [`config::export`], [`config::typical_load`]. Nothing here decides a rule; it only carries text and problems.
//!
//! The page links this crate for the types only; `handle` (and with it the YAML parser)
//! runs in the engine worker's wasm. The page's component tests call `handle` directly.

use quotalab_engine::analysis::review::{ShareTable, TeamVerdict};
use quotalab_engine::config::{
    self, ExportFormat, ExportOptions, Format, ImportOptions, UnknownShares, MAX_FILE_BYTES,
};
use quotalab_engine::Problem;
use serde::{Deserialize, Serialize};

/// A message and the id of the request it belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope<T> {
    pub id: u64,
    pub body: T,
}

/// A configuration format (SPEC 13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum InFormat {
    /// AWS Batch quota-share JSON.
    Aws,
    /// Kueue YAML.
    Kueue,
    /// SageMaker HyperPod task governance (SPEC 16): compute quotas and the cluster
    /// scheduler config, as JSON or `aws sagemaker` commands.
    HyperPod,
}

impl InFormat {
    /// How the page names it.
    pub fn label(self) -> &'static str {
        match self {
            InFormat::Aws => "AWS Batch JSON",
            InFormat::Kueue => "Kueue YAML",
            InFormat::HyperPod => "SageMaker HyperPod task governance",
        }
    }

    /// The engine's format of an AWS Batch or Kueue file (HyperPod has its own entry points,
    /// `config::hyperpod`).
    fn engine(self) -> Option<Format> {
        match self {
            InFormat::Aws => Some(Format::Aws),
            InFormat::Kueue => Some(Format::Kueue),
            InFormat::HyperPod => None,
        }
    }

    /// Detects a file's format: HyperPod first (its names never occur in the others), then
    /// [`config::detect`].
    pub fn detect(text: &str) -> Option<InFormat> {
        if config::hyperpod::detect(text) {
            return Some(InFormat::HyperPod);
        }
        config::detect(text).map(InFormat::of)
    }

    fn of(f: Format) -> InFormat {
        match f {
            Format::Aws => InFormat::Aws,
            Format::Kueue => InFormat::Kueue,
        }
    }
}

/// What an export writes (`quotasim export aws`, `export aws --script`, `export kueue`,
/// `export kueue --patch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OutFormat {
    AwsJson,
    AwsScript,
    Kueue,
    /// SPEC 16: only what changed since the import, one merge patch per object.
    KueuePatch,
}

impl OutFormat {
    /// The downloaded file's suffix and MIME type.
    pub fn file(self) -> (&'static str, &'static str) {
        match self {
            OutFormat::AwsJson => ("aws-batch.json", "application/json"),
            OutFormat::AwsScript => ("aws-batch.sh", "text/x-shellscript"),
            OutFormat::Kueue => ("kueue.yaml", "application/yaml"),
            OutFormat::KueuePatch => ("kueue-patch.yaml", "application/yaml"),
        }
    }
}

/// An import: the files (name, text), as `quotasim import aws|kueue FILE...` reads them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ImportRequest {
    pub files: Vec<(String, String)>,
    /// `None`: detected from the first file's content ([`config::detect`]).
    pub format: Option<InFormat>,
    /// AWS `--queue` (a name or an ARN); `None` or empty: the only one.
    pub queue: Option<String>,
    /// Kueue `--resource`; empty: `nvidia.com/gpu`.
    pub resource: String,
    /// Kueue `--flavor-map` (`a100=ml.p4d.24xlarge,...`); may be empty.
    pub flavor_map: String,
    /// `--into`: the scenario whose workloads, jobs and events are kept (its shares,
    /// cohorts, fair sharing and priority classes are replaced). `None`: the imported
    /// scenario alone.
    pub into: Option<String>,
    /// With `into`: what to do with kept jobs, workloads and events of shares the
    /// configuration lacks. `None`: refused, as the CLI does; `Some(map)`: those of a share
    /// mapped here move to its target, the others are dropped (the page's default, so a
    /// first import never fails for them: SPEC 16).
    pub resolve: Option<Vec<(String, String)>>,
}

/// A history import: `quotasim import history FILE... --into SCENARIO [--from] [--to]
/// [--resource] [--flavor-map]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HistoryRequest {
    /// The history files (name, text).
    pub files: Vec<(String, String)>,
    /// History files that come beside the message as `Blob`s (their names, read after
    /// `files`): the worker reads them in pieces ([`history_readers`], [`history_with`]),
    /// so a large history is never one string, nor on the page.
    pub blobs: Vec<String>,
    /// The scenario whose shares the jobs are of (its jobs and workloads are replaced).
    pub scenario: String,
    /// `--from` / `--to`: ISO 8601 or epoch seconds; empty: the whole history.
    pub from: String,
    pub to: String,
    /// Kueue `--resource`; empty: `nvidia.com/gpu`.
    pub resource: String,
    /// Kueue `--flavor-map`; may be empty.
    pub flavor_map: String,
}

/// A review: `quotasim review SCENARIO PROPOSED [--seeds N] [--fail-on RULE...]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReviewRequest {
    /// CURRENT: the scenario (its shares and its jobs).
    pub scenario: String,
    /// PROPOSED: its file name and text (AWS Batch JSON, Kueue YAML or a scenario).
    pub proposed: (String, String),
    /// `--seeds`; `None`: 1 when nothing is random, else 10.
    pub seeds: Option<u64>,
    /// `--fail-on` rules, as typed.
    pub rules: Vec<String>,
    /// What to do with the scenario's jobs of shares the proposal lacks, as an import's
    /// [`ImportRequest::resolve`]: `None` refused (the CLI), `Some(map)` moved as mapped,
    /// the others dropped.
    pub resolve: Option<Vec<(String, String)>>,
}

/// A finished review, as the page shows it: a verdict per team in words, and the CLI's
/// numbers beside them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReviewReport {
    /// The review in one line: "The proposal is worse for team-b and better for team-a."
    pub headline: String,
    /// What ran: the jobs, the seeds.
    pub ran: String,
    /// What was reviewed and how to read the numbers.
    pub preamble: Vec<String>,
    /// Shares worst first: the verdicts, then the tables (the engine's, whole).
    pub shares: Vec<TeamVerdict>,
    pub tables: Vec<ShareTable>,
    /// Shares only one side has.
    pub only: Vec<String>,
    /// Each rule in words: `deadline misses rise: ok` or `... crossed by team-b`.
    pub rules: Vec<String>,
    /// Whether a rule was crossed (the CLI exits 1).
    pub crossed: bool,
    /// Import and validation warnings, each placed in its input ([`Problem::file`]): the
    /// page words them as it words its own problems.
    pub warnings: Vec<Problem>,
    /// The shares the scenario's jobs name that the proposal lacks (what `resolve`
    /// decided about), and the proposal's shares they may move to.
    pub unknown: Vec<UnknownShare>,
    pub targets: Vec<String>,
}

/// A share the kept jobs name that the configuration lacks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnknownShare {
    pub name: String,
    pub jobs: usize,
    pub workloads: usize,
}

/// A request to the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    Import(ImportRequest),
    Export {
        /// The scenario JSON text.
        scenario: String,
        format: OutFormat,
        /// AWS: the shares' `jobQueue`; empty: `quotalab`.
        queue: String,
        /// Kueue: the resource the quotas are in; empty: `nvidia.com/gpu`.
        resource: String,
    },
    /// SPEC 16: a job history (Kueue Workloads, AWS Batch jobs) replayed on a scenario's
    /// shares (`quotasim import history FILE... --into SCENARIO`).
    History(HistoryRequest),
    /// SPEC 16: `quotasim review` of a proposed configuration on the scenario's jobs.
    Review(ReviewRequest),
    /// SPEC 16: a typical load per queue added to a scenario without jobs.
    TypicalLoad {
        scenario: String,
        /// The busy share of each quota, in percent.
        percent: u32,
    },
}

impl Request {
    /// The scenario text the request carries, if it carries one (an import's `into`, an
    /// export's, a history's, a review's, a typical load's): it goes to the worker beside the
    /// request's bytes ([`crate::protocol::Request::split_text`]).
    pub fn scenario_mut(&mut self) -> Option<&mut String> {
        match self {
            Request::Import(r) => r.into.as_mut(),
            Request::Export { scenario, .. }
            | Request::TypicalLoad { scenario, .. }
            | Request::History(HistoryRequest { scenario, .. })
            | Request::Review(ReviewRequest { scenario, .. }) => Some(scenario),
        }
    }
}

/// What an import read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportReport {
    /// The format read: chosen, or detected from the content; `None` for blank input.
    pub format: Option<InFormat>,
    /// Whether [`ImportReport::format`] was detected (not chosen).
    pub detected: bool,
    /// AWS: the job queues the shares name (the page offers a choice when there are several).
    pub queues: Vec<String>,
    /// With `into`: the shares its jobs name that the configuration lacks (what
    /// `resolve` decides about).
    pub unknown: Vec<UnknownShare>,
    /// The scenario JSON (merged `--into` the given one, if any), or every error
    /// (`[i].PATH: message`, naming the file when several).
    pub result: Result<Imported, Vec<String>>,
}

/// A successful import.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Imported {
    /// The scenario JSON text (pretty).
    pub scenario: String,
    /// The imported shares' names, in file order.
    pub shares: Vec<String>,
    /// The imported cohorts' names.
    pub cohorts: Vec<String>,
    /// The scenario is in the Kueue model (the page says ClusterQueue, not share).
    pub kueue: bool,
    /// Everything ignored, dropped or rounded (one line each).
    pub warnings: Vec<String>,
    /// The scenario's explicit jobs (so that the page need not parse a large scenario to
    /// count them).
    pub jobs: usize,
    /// SPEC 16: the history's jobs that had not finished at its end (replayed with only the
    /// time they had run), per share, in the scenario's share order.
    pub unfinished: Vec<UnfinishedJobs>,
    /// The same jobs one by one (id, share, running or pending, the time run), sorted by
    /// id: what the page marks their rows and the summary with.
    pub unfinished_jobs: Vec<quotalab_engine::UnfinishedJob>,
}

/// A share's jobs that had not finished at the history's end.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnfinishedJobs {
    pub share: String,
    pub running: usize,
    pub pending: usize,
}

/// A finished export.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exported {
    pub text: String,
    pub warnings: Vec<String>,
    /// A merge-patch export with nothing to apply (no object changed since the import).
    pub empty_patch: bool,
}

/// The worker's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Response {
    Imported(ImportReport),
    Exported(Result<Exported, Vec<String>>),
    /// The scenario with a typical load, or what was wrong.
    Loaded(Result<Imported, Vec<String>>),
    /// A review, or what was wrong.
    Reviewed(Result<ReviewReport, Vec<Problem>>),
    /// A message the worker could not read.
    Failed(String),
}

/// Problems as the page shows them: an imported file's naming its object
/// ([`Problem::words`]: "ClusterQueue team-a-cq: …"), any other as the CLI writes it.
fn lines(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(Problem::words).collect()
}

/// Answers one request with the engine's `config` functions.
pub fn handle(request: Request) -> Response {
    match request {
        Request::Import(r) => Response::Imported(import(&r)),
        Request::Export {
            scenario,
            format,
            queue,
            resource,
        } => Response::Exported(export(&scenario, format, queue, resource)),
        Request::History(r) => Response::Loaded(history(&r)),
        Request::Review(r) => Response::Reviewed(review(&r)),
        Request::TypicalLoad { scenario, percent } => Response::Loaded(
            config::typical_load::add_typical_load(&scenario, percent)
                .map(|i| summarise(&i))
                .map_err(|p| lines(&p)),
        ),
    }
}

/// `quotasim import aws|kueue FILE... [--queue] [--resource] [--flavor-map] [--into]`.
pub fn import(r: &ImportRequest) -> ImportReport {
    let first = r
        .files
        .iter()
        .map(|(_, t)| t.as_str())
        .find(|t| !t.trim().is_empty());
    let (format, detected) = match r.format {
        Some(f) => (Some(f), false),
        None => (first.and_then(InFormat::detect), true),
    };
    let mut report = ImportReport {
        format,
        detected,
        queues: Vec::new(),
        unknown: Vec::new(),
        result: Err(Vec::new()),
    };
    let Some(format) = format else {
        report.result = Err(vec![
            "nothing to import: drop or pick a file, or paste a configuration".to_string(),
        ]);
        return report;
    };
    // Refused before parsing (the engine says so too; this keeps the parse off big texts).
    let big: Vec<String> = r
        .files
        .iter()
        .filter(|(_, t)| t.len() > MAX_FILE_BYTES)
        .map(|(name, t)| {
            format!(
                "{}: is {} bytes, over the {} MiB limit",
                if name.is_empty() { "the text" } else { name },
                t.len(),
                MAX_FILE_BYTES / (1024 * 1024)
            )
        })
        .collect();
    if !big.is_empty() {
        report.result = Err(big);
        return report;
    }
    let texts: Vec<&str> = r.files.iter().map(|(_, t)| t.as_str()).collect();
    if format == InFormat::Aws {
        report.queues = config::aws::job_queues(&texts)
            .into_iter()
            .map(|q| config::aws::queue_name(&q).to_string())
            .collect();
    }
    report.result = import_text(r, format, &mut report.unknown);
    report
}

fn import_text(
    r: &ImportRequest,
    format: InFormat,
    unknown: &mut Vec<UnknownShare>,
) -> Result<Imported, Vec<String>> {
    let files: Vec<(&str, &str)> = r
        .files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let Some(format) = format.engine() else {
        // HyperPod: `--cluster` is the queue field's choice (a cluster ARN or its id).
        let opts = config::hyperpod::ImportOptions {
            cluster: r.queue.clone().filter(|q| !q.trim().is_empty()),
        };
        let imported = config::hyperpod::import_files(&files, &opts).map_err(|p| lines(&p))?;
        return merged(r, imported, unknown);
    };
    let mut opts = ImportOptions {
        queue: r.queue.clone().filter(|q| !q.trim().is_empty()),
        ..ImportOptions::default()
    };
    if format == Format::Kueue {
        if !r.resource.trim().is_empty() {
            opts.resource = r.resource.trim().to_string();
        }
        opts.flavor_map =
            config::parse_flavor_map(&r.flavor_map).map_err(|p| vec![p.to_string()])?;
    }
    let imported = config::import_files(&files, format, &opts).map_err(|p| lines(&p))?;
    merged(r, imported, unknown)
}

/// `--into`: the imported shares merged into the page's scenario, kept jobs of unknown
/// shares resolved as asked.
fn merged(
    r: &ImportRequest,
    mut imported: config::Imported,
    unknown: &mut Vec<UnknownShare>,
) -> Result<Imported, Vec<String>> {
    if let Some(base) = &r.into {
        *unknown = config::unknown_shares(&imported, base)
            .into_iter()
            .map(|u| UnknownShare {
                name: u.name,
                jobs: u.jobs,
                workloads: u.workloads,
            })
            .collect();
        let policy = match &r.resolve {
            None => UnknownShares::Refuse,
            Some(map) => UnknownShares::Resolve(map.clone()),
        };
        imported = config::merge_into_with(&imported, base, &policy).map_err(|p| lines(&p))?;
    }
    Ok(summarise(&imported))
}

/// The counted resource of a history request (`--resource`, default `nvidia.com/gpu`).
fn history_resource(r: &HistoryRequest) -> String {
    Some(r.resource.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| ImportOptions::DEFAULT_RESOURCE.to_string())
}

/// A reader per history file of `r`: its `files` read already, its `blobs` (after them)
/// still to be fed in pieces ([`config::history::HistoryReader::push`]).
pub fn history_readers(r: &HistoryRequest) -> Vec<config::history::HistoryReader> {
    let resource = history_resource(r);
    let n = r.files.len() + r.blobs.len();
    let named = config::history::names_files(n, config::history::Shares::Scenario("", &r.scenario));
    let mut readers = Vec::with_capacity(n);
    for (i, (name, text)) in r.files.iter().enumerate() {
        let mut reader = config::history::HistoryReader::new(name, i, named, &resource);
        reader.push(text.as_bytes());
        reader.finish();
        readers.push(reader);
    }
    for (k, name) in r.blobs.iter().enumerate() {
        readers.push(config::history::HistoryReader::new(
            name,
            r.files.len() + k,
            named,
            &resource,
        ));
    }
    readers
}

/// `quotasim import history FILE... --into SCENARIO` of the request's `files`.
pub fn history(r: &HistoryRequest) -> Result<Imported, Vec<String>> {
    history_with(r, history_readers(r))
}

/// [`history`] of files read by `readers` ([`history_readers`], then fed).
pub fn history_with(
    r: &HistoryRequest,
    readers: Vec<config::history::HistoryReader>,
) -> Result<Imported, Vec<String>> {
    let nonempty = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
    let opts = config::history::HistoryOptions {
        resource: history_resource(r),
        flavor_map: config::parse_flavor_map(&r.flavor_map).map_err(|p| vec![p.to_string()])?,
        queue: None,
        from: nonempty(&r.from),
        to: nonempty(&r.to),
    };
    let shares = config::history::Shares::Scenario("the scenario", &r.scenario);
    config::history::import_read(readers, shares, &opts)
        .map(|i| summarise(&i))
        .map_err(|p| lines(&p))
}

/// `quotasim review SCENARIO PROPOSED`.
pub fn review(r: &ReviewRequest) -> Result<ReviewReport, Vec<Problem>> {
    use quotalab_engine::analysis::review as rv;
    let rules = r
        .rules
        .iter()
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .map(rv::parse_rule)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|p| vec![p])?;
    let opts = rv::ReviewOptions {
        seeds: r.seeds,
        rules,
        unknown: match &r.resolve {
            None => UnknownShares::Refuse,
            Some(map) => UnknownShares::Resolve(map.clone()),
        },
        ..rv::ReviewOptions::default()
    };
    let current = rv::Input {
        name: "the scenario",
        text: &r.scenario,
    };
    let proposed = rv::Input {
        name: &r.proposed.0,
        text: &r.proposed.1,
    };
    let done = rv::review(current, proposed, rv::JobsSource::Current, &opts)?;
    let unknown = done
        .unknown
        .iter()
        .map(|u| UnknownShare {
            name: u.name.clone(),
            jobs: u.jobs,
            workloads: u.workloads,
        })
        .collect();
    let mut only = Vec::new();
    if !done.only_current.is_empty() {
        only.push(format!(
            "only in the scenario (no jobs): {}",
            done.only_current.join(", ")
        ));
    }
    if !done.only_proposed.is_empty() {
        only.push(format!(
            "only in the proposal (no jobs): {}",
            done.only_proposed.join(", ")
        ));
    }
    let verdicts = rv::team_verdicts(&done);
    Ok(ReviewReport {
        headline: rv::headline(&done, &verdicts),
        ran: rv::ran(&done),
        preamble: rv::preamble(&done)
            .iter()
            .flat_map(|l| l.lines().map(str::to_string).collect::<Vec<_>>())
            .collect(),
        shares: verdicts,
        tables: rv::share_tables(&done),
        only,
        rules: done
            .rules
            .iter()
            .map(|rule| {
                // In words ("deadline misses rise"), not as typed (`deadline_misses>0`).
                let who = done.crossed_by(rule);
                if who.is_empty() {
                    format!("{}: ok", rule.words())
                } else {
                    format!("{}: crossed by {}", rule.words(), who.join(", "))
                }
            })
            .collect(),
        crossed: done.failed(),
        warnings: done.warnings.clone(),
        unknown,
        targets: done.proposed_shares.clone(),
    })
}

/// What the page shows of an imported (or loaded) scenario.
fn summarise(imported: &config::Imported) -> Imported {
    let names = |key: &str| -> Vec<String> {
        imported.scenario[key]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|s| s["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    Imported {
        shares: names("shares"),
        cohorts: names("cohorts"),
        kueue: quotalab_engine::translate::model_of(&imported.scenario)
            == quotalab_engine::model::Model::Kueue,
        // In the page's words: an object named, not a path (the CLI keeps its paths).
        warnings: imported
            .warnings
            .iter()
            .map(quotalab_engine::Problem::words)
            .collect(),
        scenario: imported.scenario_json.clone(),
        jobs: imported.scenario["jobs"].as_array().map_or(0, Vec::len),
        unfinished: unfinished(imported),
        unfinished_jobs: imported.unfinished.clone(),
    }
}

/// The jobs of an imported history that had not finished at its end
/// ([`config::Imported::unfinished`]), counted per share of the scenario.
fn unfinished(imported: &config::Imported) -> Vec<UnfinishedJobs> {
    use quotalab_engine::Unfinished;
    if imported.unfinished.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<UnfinishedJobs> = imported.scenario["shares"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["name"].as_str())
        .map(|name| UnfinishedJobs {
            share: name.to_string(),
            ..UnfinishedJobs::default()
        })
        .collect();
    for job in &imported.unfinished {
        if let Some(u) = out.iter_mut().find(|u| u.share == job.share) {
            match job.kind {
                Unfinished::Running => u.running += 1,
                Unfinished::Pending => u.pending += 1,
            }
        }
    }
    out.retain(|u| u.running + u.pending > 0);
    out
}

/// `quotasim export aws [--script] [--queue] | kueue [--resource] [--patch] FILE`.
pub fn export(
    scenario: &str,
    format: OutFormat,
    queue: String,
    resource: String,
) -> Result<Exported, Vec<String>> {
    let mut opts = ExportOptions::default();
    if !queue.trim().is_empty() {
        opts.queue = queue.trim().to_string();
    }
    if !resource.trim().is_empty() {
        opts.resource = resource.trim().to_string();
    }
    let format = match format {
        OutFormat::AwsJson => ExportFormat::AwsJson,
        OutFormat::AwsScript => ExportFormat::AwsScript,
        OutFormat::Kueue => ExportFormat::Kueue,
        OutFormat::KueuePatch => ExportFormat::KueuePatch,
    };
    config::export(scenario, format, &opts)
        .map(|e| Exported {
            text: e.text,
            warnings: lines(&e.warnings),
            empty_patch: e.empty_patch,
        })
        .map_err(|p| lines(&p))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KUEUE: &str = "apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team-a
spec:
  cohort: org
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: ml.g5.xlarge
      resources:
      - name: nvidia.com/gpu
        nominalQuota: 4
";

    #[test]
    fn detects_and_imports_hyperpod_commands_and_json() {
        // AWS's own task governance example (crates/cli/tests/hyperpod/README.md).
        let sh = include_str!("../../cli/tests/hyperpod/awsome-task-governance.sh");
        let json = include_str!("../../cli/tests/hyperpod/awsome-task-governance.export.json");
        for text in [sh, json] {
            let r = ImportRequest {
                files: vec![("governance".to_string(), text.to_string())],
                ..ImportRequest::default()
            };
            let report = import(&r);
            assert_eq!(report.format, Some(InFormat::HyperPod));
            assert!(report.detected);
            let ok = report.result.expect("imports");
            assert_eq!(ok.shares, ["team-a", "team-b"]);
        }
        // AWS Batch JSON and Kueue YAML are never taken for HyperPod.
        assert_eq!(InFormat::detect(KUEUE), Some(InFormat::Kueue));
        assert_eq!(
            InFormat::detect(r#"[{"quotaShareName":"a","capacityLimits":[]}]"#),
            Some(InFormat::Aws)
        );
    }

    #[test]
    fn a_history_counts_its_unfinished_jobs_per_share() {
        let config = include_str!("../../cli/tests/history/kueue-config.yaml");
        let workloads = include_str!("../../cli/tests/history/kueue-workloads.yaml");
        let r = ImportRequest {
            files: vec![("kueue-config.yaml".to_string(), config.to_string())],
            ..ImportRequest::default()
        };
        let scenario = import(&r)
            .result
            .expect("the configuration imports")
            .scenario;
        let h = HistoryRequest {
            files: vec![("kueue-workloads.yaml".to_string(), workloads.to_string())],
            scenario,
            ..HistoryRequest::default()
        };
        let got = history(&h).expect("the history imports");
        // The fixture: team-b/job-ablation-3d4e5 still pending at the history's end,
        // team-c/job-render-7f3c9 still running and team-c/job-render-8a4d0 pending.
        assert_eq!(
            got.unfinished,
            [
                UnfinishedJobs {
                    share: "team-b-cq".into(),
                    running: 0,
                    pending: 1
                },
                UnfinishedJobs {
                    share: "team-c-cq".into(),
                    running: 1,
                    pending: 1
                },
            ],
            "{:?}",
            got.warnings
        );
        // One by one, typed, sorted by id: what the page marks.
        let listed: Vec<(&str, &str, quotalab_engine::Unfinished)> = got
            .unfinished_jobs
            .iter()
            .map(|j| (j.id.as_str(), j.share.as_str(), j.kind))
            .collect();
        use quotalab_engine::Unfinished::{Pending, Running};
        assert_eq!(
            listed,
            [
                ("team-b/job-ablation-3d4e5", "team-b-cq", Pending),
                ("team-c/job-render-7f3c9", "team-c-cq", Running),
                ("team-c/job-render-8a4d0", "team-c-cq", Pending),
            ]
        );
        assert_eq!(got.unfinished_jobs[1].ran_s, 4495.0);
    }

    #[test]
    fn a_reviews_warnings_name_their_objects() {
        let config = include_str!("../../cli/tests/history/kueue-config.yaml");
        let r = ImportRequest {
            files: vec![("kueue-config.yaml".to_string(), config.to_string())],
            ..ImportRequest::default()
        };
        let scenario = import(&r)
            .result
            .expect("the configuration imports")
            .scenario;
        let workloads = include_str!("../../cli/tests/history/kueue-workloads.yaml");
        let scenario = history(&HistoryRequest {
            files: vec![("kueue-workloads.yaml".to_string(), workloads.to_string())],
            scenario,
            ..HistoryRequest::default()
        })
        .expect("the history imports")
        .scenario;
        let got = review(&ReviewRequest {
            scenario,
            proposed: ("proposal.yaml".into(), config.to_string()),
            ..ReviewRequest::default()
        })
        .expect("reviews");
        assert!(!got.warnings.is_empty());
        // The page words each ([`Problem::words`] for an import warning): the proposal's
        // file, then the object, never the path (the CLI's text keeps the path).
        let said: Vec<String> = got.warnings.iter().map(Problem::words).collect();
        for (w, p) in said.iter().zip(&got.warnings) {
            assert!(!w.contains("].spec"), "a path, not an object: {w}");
            assert!(w.starts_with("proposal.yaml: "), "{w}");
            assert!(p.to_string().starts_with("proposal.yaml: "), "{p}");
        }
        assert!(
            said.iter()
                .any(|w| w.starts_with("proposal.yaml: ClusterQueue")),
            "{said:?}"
        );
    }

    #[test]
    fn detects_and_imports_kueue() {
        let r = ImportRequest {
            files: vec![(String::new(), KUEUE.to_string())],
            ..ImportRequest::default()
        };
        let report = import(&r);
        assert_eq!(report.format, Some(InFormat::Kueue));
        assert!(report.detected);
        let ok = report.result.expect("imports");
        assert_eq!(ok.shares, ["team-a"]);
        assert_eq!(ok.cohorts, ["org"]);
        assert!(ok.warnings.iter().any(|w| w.contains("namespaceSelector")));
    }

    #[test]
    fn round_trips_through_postcard() {
        let e = Envelope {
            id: 7,
            body: Request::Import(ImportRequest {
                files: vec![("a.yaml".into(), KUEUE.into())],
                ..ImportRequest::default()
            }),
        };
        let bytes = crate::Request::Config(e.clone()).encode().unwrap();
        assert_eq!(
            crate::Request::decode(&bytes).unwrap(),
            crate::Request::Config(e.clone())
        );
        let resp = crate::Response::Config(Envelope {
            id: 7,
            body: handle(e.body),
        });
        let bytes = resp.encode().unwrap();
        assert_eq!(crate::Response::decode(&bytes).unwrap(), resp);
    }

    #[test]
    fn several_aws_queues_are_listed() {
        let text = r#"[{"quotaShareName":"a","jobQueue":"q1","capacityLimits":[{"maxCapacity":2,"capacityUnit":"ml.g5.xlarge"}],"resourceSharingConfiguration":{"strategy":"RESERVE"}},
                      {"quotaShareName":"b","jobQueue":"arn:aws:batch:us-east-1:1:job-queue/q2","capacityLimits":[{"maxCapacity":2,"capacityUnit":"ml.g5.xlarge"}],"resourceSharingConfiguration":{"strategy":"RESERVE"}}]"#;
        let mut r = ImportRequest {
            files: vec![(String::new(), text.to_string())],
            ..ImportRequest::default()
        };
        let report = import(&r);
        assert_eq!(report.format, Some(InFormat::Aws));
        assert_eq!(report.queues, ["q1", "q2"]);
        assert!(report.result.is_err());
        r.queue = Some("q2".into());
        assert_eq!(import(&r).result.unwrap().shares, ["b"]);
    }

    #[test]
    fn blank_input_says_so() {
        let report = import(&ImportRequest::default());
        assert_eq!(report.format, None);
        assert!(report.result.is_err());
    }
}
