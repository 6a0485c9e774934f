//! SageMaker HyperPod task governance (SPEC 16), AWS's quota product on Kueue, in and out.
//!
//! In: CreateComputeQuota request bodies, DescribeComputeQuota and ListComputeQuotas
//! responses, CreateClusterSchedulerConfig bodies and DescribeClusterSchedulerConfig
//! responses (JSON: an object or an array of them), or the `aws sagemaker
//! create-compute-quota` / `create-cluster-scheduler-config` command lines that write them
//! (`shell.rs` splits the words, `shorthand.rs` reads the CLI's `Key=Value,Key={...}`
//! syntax), read by `read.rs` into a Kueue-model scenario the way task governance
//! configures Kueue: each team's compute quota a ClusterQueue (share) in the cluster's
//! cohort ([`COHORT`]), its `Strategy` and borrow limits as lending and borrowing limits,
//! `PreemptTeamTasks` as `within_share`, `FairShareWeight` and the cluster policy's
//! `FairShare` as fair sharing, and its `PriorityClasses` as `priority_classes`
//! (docs/MODEL-CHOICES.md, "HyperPod task governance", says which rule AWS documents and
//! which is inferred). Out: `export.rs` writes a scenario's shares back as those request
//! bodies (a JSON array) or as `aws sagemaker` commands, refusing each feature HyperPod
//! cannot express.
//!
//! Not a [`super::Format`]: the page's format switch stays as it is; the CLI calls
//! [`import_files`] and [`export`] here, through the same [`super::Imported`] /
//! [`super::Exported`] and [`super::merge_into`] as the other formats.

mod export;
mod read;
pub mod shell;
pub mod shorthand;

use serde_json::{json, Map, Value};

use super::{join, Imported, Sink};
use crate::input::path::Path;
use crate::Problem;

pub use export::{export, ExportOptions, DEFAULT_CLUSTER_ARN};
pub use read::Strategy;

/// The cohort every team's ClusterQueue joins (inferred: task governance puts the teams of
/// a cluster in one cohort; its name is not part of the API).
pub const COHORT: &str = "shared-pool";

/// Import options (SPEC 16).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// The cluster whose compute quotas are imported (an ARN, or the cluster id that ends
    /// it), when the files name several.
    pub cluster: Option<String>,
}

/// Whether `text` reads as SageMaker HyperPod task governance (SPEC 16): a
/// CreateComputeQuota / DescribeComputeQuota / ListComputeQuotas or ClusterSchedulerConfig
/// body, or the `aws sagemaker` commands that create them. The page's import asks this
/// before [`super::detect`] (AWS Batch JSON, Kueue YAML), whose files never hold these names.
pub fn detect(text: &str) -> bool {
    const MARKS: [&str; 7] = [
        "\"ComputeQuotaConfig\"",
        "\"ComputeQuotaSummaries\"",
        "\"ComputeQuotaTarget\"",
        "\"SchedulerConfig\"",
        "create-compute-quota",
        "create-cluster-scheduler-config",
        "update-compute-quota",
    ];
    MARKS.iter().any(|m| text.contains(m))
}

/// What HyperPod accepts as a TeamName, in words.
pub(crate) const TEAM_NAME_RULE: &str = "a TeamName is lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters";

/// A TeamName HyperPod accepts (`[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63 characters).
pub(crate) fn valid_team_name(s: &str) -> bool {
    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    !s.is_empty()
        && s.len() <= 63
        && s.chars().all(|c| ok(c) || c == '-')
        && s.starts_with(ok)
        && s.ends_with(ok)
}

/// A cluster ARN's id (`arn:aws:sagemaker:...:cluster/abc123` -> `abc123`).
pub fn cluster_id(arn: &str) -> &str {
    arn.rsplit('/').next().unwrap_or(arn)
}

fn cluster_matches(arn: &str, wanted: &str) -> bool {
    arn == wanted || cluster_id(arn) == wanted || cluster_id(arn) == cluster_id(wanted)
}

/// Imports HyperPod task governance files (JSON or command lines) as one configuration.
pub fn import_files(
    files: &[(&str, &str)],
    opts: &ImportOptions,
) -> Result<Imported, Vec<Problem>> {
    super::import_with(files, |sources| scenario_of(sources, opts))
}

/// [`import_files`] of one text.
pub fn import(text: &str, opts: &ImportOptions) -> Result<Imported, Vec<Problem>> {
    import_files(&[("", text)], opts)
}

fn scenario_of(
    sources: &mut [(Sink, &str)],
    opts: &ImportOptions,
) -> Result<(Value, Vec<Problem>), Vec<Problem>> {
    let mut c = read::Collected::default();
    read::read_all(sources, &mut c);
    if sources.iter().any(|(s, _)| !s.errors.is_empty()) {
        return Err(Vec::new());
    }
    let cluster = pick_cluster(&c, opts)?;
    let keep = |x: &Option<String>| match (&cluster, x) {
        (Some(w), Some(a)) => cluster_matches(a, w),
        _ => true,
    };
    c.quotas.retain(|q| keep(&q.cluster));
    c.scheds.retain(|s| keep(&s.cluster));
    if c.quotas.is_empty() {
        return Err(vec![Problem::whole(
            "no compute quota found (expected CreateComputeQuota bodies, DescribeComputeQuota or ListComputeQuotas responses, or `aws sagemaker create-compute-quota` commands)",
        )]);
    }
    let mut errors = Vec::new();
    let place = |file: usize, path: &str| -> String {
        let name = sources[file].0.file_name();
        match (name.is_empty(), path.is_empty()) {
            (true, _) => path.to_string(),
            (false, true) => name.to_string(),
            (false, false) => format!("{name}: {path}"),
        }
    };
    for (i, q) in c.quotas.iter().enumerate() {
        if let Some(first) = c.quotas[..i].iter().find(|o| o.team == q.team) {
            errors.push(Problem::new(
                Path::named(place(q.file, &join(&q.path, "ComputeQuotaTarget.TeamName"))),
                format!(
                    "team {} has two compute quotas (also {})",
                    q.team,
                    place(first.file, &first.path)
                ),
            ));
        }
    }
    if c.scheds.len() > 1 {
        errors.push(Problem::new(
            Path::named(place(c.scheds[1].file, &c.scheds[1].path)),
            format!(
                "several cluster scheduler configs ({} and {}): a cluster has one cluster policy",
                place(c.scheds[0].file, &c.scheds[0].path),
                place(c.scheds[1].file, &c.scheds[1].path)
            ),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // Instance types in first-seen order; names outside the catalogue are custom types.
    let mut types: Vec<String> = Vec::new();
    let mut warnings = Vec::new();
    for q in &c.quotas {
        for (t, _) in q.limits.iter().chain(&q.absolute) {
            if !types.contains(t) {
                types.push(t.clone());
                if crate::input::catalogue::lookup(t).is_none() {
                    sources[q.file].0.warn(
                        &join(&q.path, "ComputeQuotaConfig"),
                        format!("{t} is not in the catalogue: a custom instance type with 1 GPU and price 0"),
                    );
                }
            }
        }
    }
    for (sink, _) in sources.iter_mut() {
        warnings.append(&mut sink.warnings);
    }

    let mut sc = Map::new();
    sc.insert("format".into(), json!("quotalab/v1"));
    let name = match cluster
        .as_deref()
        .filter(|a| !a.contains('$') && !a.contains('<'))
    {
        Some(a) => format!("HyperPod task governance of cluster {}", cluster_id(a)),
        None => "HyperPod task governance".to_string(),
    };
    sc.insert("name".into(), json!(name));
    sc.insert("model".into(), json!("kueue"));
    let custom: Vec<Value> = types
        .iter()
        .filter(|t| crate::input::catalogue::lookup(t).is_none())
        .map(|t| json!({"name": t, "gpus": 1, "usd_per_hour": 0}))
        .collect();
    if !custom.is_empty() {
        sc.insert("instance_types".into(), Value::Array(custom));
    }
    let shares: Vec<Value> = c.quotas.iter().map(share_json).collect();
    sc.insert("shares".into(), Value::Array(shares));
    sc.insert("cohorts".into(), json!([{"name": COHORT}]));
    if let Some(s) = c.scheds.first() {
        if s.fair_share {
            sc.insert(
                "fair_sharing".into(),
                json!({"strategies": ["less_than_or_equal_to_final_share", "less_than_initial_share"]}),
            );
        }
        if !s.priority_classes.is_empty() {
            let m: Map<String, Value> = s
                .priority_classes
                .iter()
                .map(|(n, w)| (n.clone(), json!(w)))
                .collect();
            sc.insert("priority_classes".into(), Value::Object(m));
        }
    }
    Ok((Value::Object(sc), warnings))
}

/// The one cluster to import: `--cluster`, or the only one named (placeholders such as
/// `$CLUSTER_ARN` count as written).
fn pick_cluster(c: &read::Collected, opts: &ImportOptions) -> Result<Option<String>, Vec<Problem>> {
    let mut clusters: Vec<String> = Vec::new();
    for a in c
        .quotas
        .iter()
        .map(|q| &q.cluster)
        .chain(c.scheds.iter().map(|s| &s.cluster))
        .flatten()
    {
        if !clusters.contains(a) {
            clusters.push(a.clone());
        }
    }
    match opts.cluster.as_deref() {
        Some(w) => match clusters.iter().find(|a| cluster_matches(a, w)) {
            Some(a) => Ok(Some(a.clone())),
            None if clusters.is_empty() => Ok(Some(w.to_string())),
            None => Err(vec![Problem::new(
                Path::named("--cluster"),
                format!(
                    "no compute quota or cluster policy is of cluster {w} (clusters: {})",
                    clusters.join(", ")
                ),
            )]),
        },
        None if clusters.len() > 1 => Err(vec![Problem::whole(format!(
            "compute quotas of several clusters: {} (--cluster ARN picks one)",
            clusters.join(", ")
        ))]),
        None => Ok(clusters.into_iter().next()),
    }
}

/// One team's compute quota as a Kueue-model share (SPEC 16):
/// - `ComputeQuotaResources` `Count` -> `limits` (nominal quota, in instances); a type
///   named only in `AbsoluteBorrowLimits` gets a limit of 0 (a share uses only the types
///   its limits name, as a ClusterQueue only the flavors it lists);
/// - `DontLend` -> `lending_limit` 0 and `borrowing_limit` 0; `Lend` -> `borrowing_limit`
///   0; `LendAndBorrow` with `BorrowLimit` p -> `borrowing_limit` floor(limit x p / 100)
///   per type, or the type's `AbsoluteBorrowLimits` where one is given;
/// - `PreemptTeamTasks` LowerPriority / Never -> `within_share` lower_priority / never;
///   reclaim is always `any` (a team gets back what it lent);
/// - `FairShareWeight` -> `weight`; `ActivationState` Disabled -> `state` DISABLED.
fn share_json(q: &read::QuotaIn) -> Value {
    let mut limits = q.limits.clone();
    for (t, _) in &q.absolute {
        if !limits.iter().any(|(x, _)| x == t) {
            limits.push((t.clone(), 0));
        }
    }
    let mut m = Map::new();
    m.insert("name".into(), json!(q.team));
    let lim: Map<String, Value> = limits.iter().map(|(t, n)| (t.clone(), json!(n))).collect();
    m.insert("limits".into(), Value::Object(lim));
    m.insert("cohort".into(), json!(COHORT));
    let borrowing: Map<String, Value> = limits
        .iter()
        .map(|(t, n)| {
            let b = match q.strategy {
                read::Strategy::DontLend | read::Strategy::Lend => 0,
                read::Strategy::LendAndBorrow => match q.absolute.iter().find(|(x, _)| x == t) {
                    Some((_, a)) => *a,
                    None => {
                        ((*n as u128 * q.borrow_limit as u128) / 100).min(u64::MAX as u128) as u64
                    }
                },
            };
            (t.clone(), json!(b))
        })
        .collect();
    m.insert("borrowing_limit".into(), Value::Object(borrowing));
    if q.strategy == read::Strategy::DontLend {
        let lending: Map<String, Value> =
            limits.iter().map(|(t, _)| (t.clone(), json!(0))).collect();
        m.insert("lending_limit".into(), Value::Object(lending));
    }
    m.insert(
        "preemption".into(),
        json!({
            "within_share": if q.preempt_lower { "lower_priority" } else { "never" },
            "reclaim": "any",
        }),
    );
    m.insert("weight".into(), json!(q.weight));
    if !q.enabled {
        m.insert("state".into(), json!("DISABLED"));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests;
