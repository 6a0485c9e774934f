//! `quotasim import aws|kueue|hyperpod FILE...` and `quotasim export aws|kueue|hyperpod FILE`
//! (SPEC 13, 16): real quota configurations in and out, through the engine's `config`
//! functions.

use std::io::{self, Read};

use quotalab_engine::config::{
    self, hyperpod, ExportFormat, ExportOptions, Format, ImportOptions, MAX_FILE_BYTES,
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
    /// ResourceFlavors, Cohorts and ClusterQueues for `kubectl apply`.
    Kueue {
        /// Scenario JSON file, or - for standard input.
        file: String,
        /// The resource the quotas are given in.
        #[arg(long, value_name = "NAME", default_value = ImportOptions::DEFAULT_RESOURCE)]
        resource: String,
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
        ExportCommand::Kueue { file, resource } => (
            file,
            ExportFormat::Kueue,
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
