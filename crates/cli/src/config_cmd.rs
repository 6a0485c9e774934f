//! `quotasim import aws|kueue|hyperpod FILE...`, `quotasim import history FILE...` and
//! `quotasim export aws|kueue|hyperpod FILE` (SPEC 13, 16): real quota configurations and job
//! histories in, configurations out, through the engine's `config` functions.

use std::io::{self, Read};

use quotalab_engine::config::{
    self, history, hyperpod, ExportFormat, ExportOptions, Format, ImportOptions, MAX_FILE_BYTES,
};

use crate::{print, warn, Failure};

#[derive(clap::Subcommand)]
pub enum ImportCommand {
    /// AWS Batch JSON: CreateQuotaShare bodies, ListQuotaShares / DescribeQuotaShares
    /// responses, and a service environment for the capacity.
    Aws {
        /// JSON files (`-` = standard input).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// The job queue whose shares are imported (a name or an ARN).
        #[arg(long, value_name = "NAME")]
        queue: Option<String>,
        /// Keep this scenario's workloads, jobs and events, with the imported shares.
        #[arg(long, value_name = "SCENARIO")]
        into: Option<String>,
    },
    /// Kueue YAML: ClusterQueue, Cohort, ResourceFlavor, WorkloadPriorityClass and a
    /// Configuration's fairSharing.
    Kueue {
        /// YAML files, one or many documents each (`-` = standard input).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// The counted resource.
        #[arg(long, value_name = "NAME", default_value = ImportOptions::DEFAULT_RESOURCE)]
        resource: String,
        /// Flavors as catalogue instance types, e.g. `a100=ml.p4d.24xlarge`.
        #[arg(long, value_name = "MAP")]
        flavor_map: Option<String>,
        /// Keep this scenario's workloads, jobs and events, with the imported shares.
        #[arg(long, value_name = "SCENARIO")]
        into: Option<String>,
    },
    /// A job history as a scenario's jobs (SPEC 16): Kueue Workloads (`kubectl get
    /// workloads -A -o yaml|json`, LocalQueues alongside) or AWS Batch jobs (`aws batch
    /// describe-jobs`, `list-jobs`, `describe-service-job`, `list-service-jobs`), with the
    /// shares of --config or --into.
    History(Box<HistoryArgs>),
    /// SageMaker HyperPod task governance: CreateComputeQuota / CreateClusterSchedulerConfig
    /// JSON (bodies, Describe and ListComputeQuotas responses) or `aws sagemaker
    /// create-compute-quota` / `create-cluster-scheduler-config` command lines.
    Hyperpod {
        /// JSON or shell files (`-` = standard input).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// The cluster whose compute quotas are imported (an ARN or its cluster id).
        #[arg(long, value_name = "ARN")]
        cluster: Option<String>,
        /// Keep this scenario's workloads, jobs and events, with the imported shares.
        #[arg(long, value_name = "SCENARIO")]
        into: Option<String>,
    },
}

/// `quotasim import history` (SPEC 16).
#[derive(clap::Args)]
pub struct HistoryArgs {
    /// History files: Kueue Workloads (YAML or JSON) or AWS Batch jobs (JSON); `-` =
    /// standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// The configuration with the shares: AWS Batch JSON or Kueue YAML (SPEC 13); its
    /// LocalQueues place workloads not yet admitted. Repeat for several files.
    #[arg(long = "config", value_name = "FILE")]
    config: Vec<String>,
    /// Only jobs submitted at or after this time (ISO 8601 or epoch seconds).
    #[arg(long, value_name = "T")]
    from: Option<String>,
    /// Only jobs submitted at or before this time; the end of the history (jobs still
    /// running then run until it).
    #[arg(long, value_name = "T")]
    to: Option<String>,
    /// Kueue: the counted resource.
    #[arg(long, value_name = "NAME", default_value = ImportOptions::DEFAULT_RESOURCE)]
    resource: String,
    /// Kueue: flavors as catalogue instance types, e.g. `a100=ml.p4d.24xlarge`.
    #[arg(long, value_name = "MAP")]
    flavor_map: Option<String>,
    /// AWS configuration: the job queue whose shares are imported.
    #[arg(long, value_name = "NAME")]
    queue: Option<String>,
    /// The scenario the jobs go into (its shares, unless --config gives them; its own
    /// jobs and workloads are replaced by the history).
    #[arg(long, value_name = "SCENARIO")]
    into: Option<String>,
    /// Print every job's warning (by default, past the first 100 of a kind, such as jobs
    /// still pending at the history's end, the rest are counted in one line).
    #[arg(long)]
    all_warnings: bool,
}

/// `quotasim import history`: prints the scenario; warnings to stderr.
fn import_history(args: HistoryArgs) -> Result<(), Failure> {
    crate::keep_freed_memory();
    let flavor_map = match &args.flavor_map {
        Some(m) => config::parse_flavor_map(m)?,
        None => Vec::new(),
    };
    if args.config.is_empty() && args.into.is_none() {
        return Err(Failure(vec![
            "error: a configuration is needed for the shares: give --config FILE (AWS JSON or Kueue YAML) or --into SCENARIO".to_string(),
        ]));
    }
    let mut configs = Vec::new();
    for f in &args.config {
        configs.push((f.as_str(), read_bounded(f)?));
    }
    let into = match &args.into {
        Some(f) => Some((f.as_str(), read_bounded(f)?)),
        None => None,
    };
    let cfg: Vec<(&str, &str)> = configs.iter().map(|(f, t)| (*f, t.as_str())).collect();
    let into = into.as_ref().map(|(f, t)| (*f, t.as_str()));
    let shares = match into {
        Some(into) if cfg.is_empty() => history::Shares::Scenario(into.0, into.1),
        into => history::Shares::Config { files: &cfg, into },
    };
    // SPEC 16: a history is read record by record, in pieces, whatever its size (up to
    // the engine's bounds: each record 8 MiB, the file 2 GiB and a million records).
    let named = history::names_files(args.files.len(), shares);
    let mut readers = Vec::new();
    for (i, f) in args.files.iter().enumerate() {
        let mut reader = history::HistoryReader::new(f, i, named, &args.resource);
        read_pieces(f, &mut reader)?;
        readers.push(reader);
    }
    crate::records_read();
    let opts = history::HistoryOptions {
        resource: args.resource,
        flavor_map,
        queue: args.queue,
        from: args.from,
        to: args.to,
    };
    let imported = history::import_read(readers, shares, &opts)?;
    crate::warn_jobs(&imported.warnings, args.all_warnings);
    print(&imported.scenario_json);
    Ok(())
}

#[derive(clap::Subcommand)]
pub enum ExportCommand {
    /// A CreateServiceEnvironment body and a CreateQuotaShare body per share (one JSON
    /// array), or with --script the equivalent `aws batch` commands.
    Aws {
        /// Scenario JSON file, or - for standard input.
        file: String,
        /// The shares' job queue.
        #[arg(long, value_name = "NAME", default_value = ExportOptions::DEFAULT_QUEUE)]
        queue: String,
        /// Print a shell script of `aws batch ... --cli-input-json` commands.
        #[arg(long)]
        script: bool,
    },
    /// ResourceFlavors, Cohorts and ClusterQueues for `kubectl apply`. A scenario imported
    /// from Kueue files is written over them: fields Quota Lab does not model are kept.
    Kueue {
        /// Scenario JSON file, or - for standard input.
        file: String,
        /// The resource the quotas are given in.
        #[arg(long, value_name = "NAME", default_value = ImportOptions::DEFAULT_RESOURCE)]
        resource: String,
        /// Print only what the scenario changed, one JSON merge patch per object (for
        /// `kubectl patch --type merge`); the scenario must have been imported from Kueue.
        #[arg(long)]
        patch: bool,
    },
    /// SageMaker HyperPod task governance: a CreateClusterSchedulerConfig body and a
    /// CreateComputeQuota body per share (one JSON array), or with --script the equivalent
    /// `aws sagemaker` commands.
    Hyperpod {
        /// Scenario JSON file, or - for standard input.
        file: String,
        /// Every body's ClusterArn (a `$VARIABLE` is required by the script).
        #[arg(long, value_name = "ARN", default_value = hyperpod::DEFAULT_CLUSTER_ARN)]
        cluster_arn: String,
        /// Print a shell script of `aws sagemaker` commands.
        #[arg(long)]
        script: bool,
    },
}

/// Feeds a history file (or standard input) to `reader` in 1 MiB pieces, until its end or
/// until the reader has stopped (a bound, a syntax error).
fn read_pieces(file: &str, reader: &mut history::HistoryReader) -> Result<(), Failure> {
    let fail = |e: io::Error| Failure(vec![format!("error: cannot read {file}: {e}")]);
    let mut input: Box<dyn Read> = if file == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(file).map_err(fail)?)
    };
    let mut piece = vec![0u8; 1 << 20];
    loop {
        let n = match input.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(fail(e)),
        };
        reader.push(&piece[..n]);
        if reader.stopped() {
            break;
        }
    }
    reader.finish();
    Ok(())
}

/// Reads a file or standard input, refusing more than [`MAX_FILE_BYTES`] without reading
/// the rest.
pub fn read_bounded(file: &str) -> Result<String, Failure> {
    let fail = |e: String| Failure(vec![format!("error: {e}")]);
    let mut bytes = Vec::new();
    let limit = MAX_FILE_BYTES as u64 + 1;
    let res = if file == "-" {
        io::stdin().take(limit).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|f| f.take(limit).read_to_end(&mut bytes))
    };
    res.map_err(|e| fail(format!("cannot read {file}: {e}")))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(fail(format!(
            "{file}: is over the {} MiB limit",
            MAX_FILE_BYTES / (1024 * 1024)
        )));
    }
    String::from_utf8(bytes).map_err(|_| fail(format!("{file}: is not UTF-8 text")))
}

/// Reads every file (each bounded) and imports them with `f`, then `--into`.
fn import_texts(
    files: &[String],
    into: Option<String>,
    f: impl FnOnce(&[(&str, &str)]) -> Result<config::Imported, Vec<quotalab_engine::Problem>>,
) -> Result<(), Failure> {
    let mut texts = Vec::new();
    for file in files {
        texts.push((file.as_str(), read_bounded(file)?));
    }
    let refs: Vec<(&str, &str)> = texts.iter().map(|(f, t)| (*f, t.as_str())).collect();
    let mut imported = f(&refs)?;
    if let Some(base) = into {
        let text = read_bounded(&base)?;
        imported = config::merge_into(&imported, &text)?;
    }
    warn(&imported.warnings);
    print(&imported.scenario_json);
    Ok(())
}

pub fn import(cmd: ImportCommand) -> Result<(), Failure> {
    let (files, format, opts, into) = match cmd {
        ImportCommand::History(args) => return import_history(*args),
        ImportCommand::Hyperpod {
            files,
            cluster,
            into,
        } => {
            let opts = hyperpod::ImportOptions { cluster };
            return import_texts(&files, into, |refs| hyperpod::import_files(refs, &opts));
        }
        ImportCommand::Aws { files, queue, into } => (
            files,
            Format::Aws,
            ImportOptions {
                queue,
                ..ImportOptions::default()
            },
            into,
        ),
        ImportCommand::Kueue {
            files,
            resource,
            flavor_map,
            into,
        } => {
            let flavor_map = match flavor_map {
                Some(m) => config::parse_flavor_map(&m)?,
                None => Vec::new(),
            };
            (
                files,
                Format::Kueue,
                ImportOptions {
                    resource,
                    flavor_map,
                    ..ImportOptions::default()
                },
                into,
            )
        }
    };
    import_texts(&files, into, |refs| {
        config::import_files(refs, format, &opts)
    })
}

pub fn export(cmd: ExportCommand) -> Result<(), Failure> {
    let (file, format, opts) = match cmd {
        ExportCommand::Hyperpod {
            file,
            cluster_arn,
            script,
        } => {
            let text = read_bounded(&file)?;
            let opts = hyperpod::ExportOptions {
                cluster_arn,
                script,
            };
            let exported = hyperpod::export(&text, &opts)?;
            warn(&exported.warnings);
            print(&exported.text);
            return Ok(());
        }
        ExportCommand::Aws {
            file,
            queue,
            script,
        } => (
            file,
            if script {
                ExportFormat::AwsScript
            } else {
                ExportFormat::AwsJson
            },
            ExportOptions {
                queue,
                ..ExportOptions::default()
            },
        ),
        ExportCommand::Kueue {
            file,
            resource,
            patch,
        } => (
            file,
            if patch {
                ExportFormat::KueuePatch
            } else {
                ExportFormat::Kueue
            },
            ExportOptions {
                resource,
                ..ExportOptions::default()
            },
        ),
    };
    let text = read_bounded(&file)?;
    let exported = config::export(&text, format, &opts)?;
    warn(&exported.warnings);
    print(&exported.text);
    Ok(())
}
