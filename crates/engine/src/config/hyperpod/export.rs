//! `quotasim export hyperpod` (SPEC 16): a scenario's shares as HyperPod task governance
//! request bodies (one JSON array: a CreateClusterSchedulerConfig body, then a
//! CreateComputeQuota body per share) or as the equivalent `aws sagemaker` commands. The
//! inverse of the import's mapping (`super::share_json`), so importing an export gives the
//! same shares back; a feature HyperPod cannot express is refused, each by name, as
//! `export aws` refuses Kueue features AWS Batch lacks.

use serde_json::{json, Map, Value};

use super::read::{Strategy, MAX_BORROW_LIMIT, MAX_WEIGHT};
use super::{valid_team_name, TEAM_NAME_RULE};
use crate::config::Exported;
use crate::input::model::{
    BorrowLimit, FsStrategy, Queueing, ReclaimPolicy, Scenario, Strategy as AwsStrategy,
    WithinShare,
};
use crate::input::path::Path;
use crate::Problem;

/// The cluster ARN written when none is given: a shell variable the script requires.
pub const DEFAULT_CLUSTER_ARN: &str = "$CLUSTER_ARN";

/// The cluster policy's name in an export.
const POLICY_NAME: &str = "quotalab-cluster-policy";

/// Export options (SPEC 16).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// Every body's `ClusterArn` (default [`DEFAULT_CLUSTER_ARN`]).
    pub cluster_arn: String,
    /// Write `aws sagemaker` commands (a shell script) instead of JSON.
    pub script: bool,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions {
            cluster_arn: DEFAULT_CLUSTER_ARN.to_string(),
            script: false,
        }
    }
}

/// A team's compute quota as exported.
struct QuotaOut {
    name: String,
    limits: Vec<(String, u64)>,
    strategy: Strategy,
    borrow_limit: u64,
    absolute: Vec<(String, u64)>,
    preempt_lower: bool,
    weight: u64,
    enabled: bool,
}

/// Writes a scenario's shares (scenario JSON text) as HyperPod task governance.
pub fn export(scenario_json: &str, opts: &ExportOptions) -> Result<Exported, Vec<Problem>> {
    let loaded = crate::input::validate::load(scenario_json)?;
    let sc = &loaded.scenario;
    // Priority classes are read from the text: they name values, the model keeps none.
    let classes: Vec<(String, i64)> = serde_json::from_str::<Value>(scenario_json)
        .ok()
        .and_then(|v| {
            v.get("priority_classes")
                .and_then(Value::as_object)
                .cloned()
        })
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_i64().map(|n| (k.clone(), n)))
                .collect()
        })
        .unwrap_or_default();
    let mut lacks: Vec<Problem> = Vec::new();
    let mut warnings: Vec<Problem> = Vec::new();
    let quotas = if sc.is_kueue() {
        from_kueue(sc, &mut lacks)
    } else {
        warnings.push(Problem::whole(
            "an AWS Batch scenario, written by SPEC 12's translation (each share a team in the cluster's cohort); task governance runs Kueue, which orders offers by priority before submit time",
        ));
        from_aws(sc, &mut lacks)
    };
    let mut classes_out = Vec::new();
    for (n, v) in &classes {
        match u64::try_from(*v).ok().filter(|v| *v <= MAX_WEIGHT) {
            Some(w) => classes_out.push((n.clone(), w)),
            None => lacks.push(Problem::new(
                Path::root().key("priority_classes").key(n.as_str()),
                format!("HyperPod task governance has no priority class weight {v} (weights are 0 to {MAX_WEIGHT})"),
            )),
        }
    }
    for (i, q) in quotas.iter().enumerate() {
        if !valid_team_name(&q.name) {
            lacks.push(Problem::new(
                Path::root().key("shares").idx(i).key("name"),
                format!(
                    "HyperPod task governance has no team named \"{}\" ({TEAM_NAME_RULE})",
                    q.name
                ),
            ));
        }
    }
    if !lacks.is_empty() {
        return Err(lacks);
    }
    // Capacity: the cluster's instances are not part of these APIs.
    let sums: Vec<u64> = (0..sc.instance_types.len())
        .map(|t| {
            sc.shares
                .iter()
                .map(|s| s.limits.get(t).copied().flatten().unwrap_or(0))
                .sum()
        })
        .collect();
    for (t, (cap, sum)) in sc.capacity.iter().zip(&sums).enumerate() {
        if cap > sum {
            warnings.push(Problem::new(
                Path::root().key("capacity").key(sc.instance_types[t].name.as_str()),
                format!(
                    "{} instances are nobody's quota: the cluster's instances are not written here (the cluster's instance groups give them), and teams borrow only what other teams lend",
                    cap - sum
                ),
            ));
        }
    }
    for t in &sc.instance_types {
        if crate::input::catalogue::lookup(&t.name).is_none() {
            warnings.push(Problem::new(
                Path::root().key("instance_types").key(t.name.as_str()),
                "a custom instance type: HyperPod knows only its name, so its GPUs and price are not exported",
            ));
        }
    }
    if let Some((i, c)) = sc
        .shares
        .iter()
        .enumerate()
        .find_map(|(i, s)| Some((i, s.kueue.cohort?)))
    {
        let name = &sc.cohorts[c].name;
        if name != super::COHORT {
            warnings.push(Problem::new(
                Path::root().key("shares").idx(i).key("cohort"),
                format!(
                    "HyperPod names no cohort: cohort {name} is the cluster's, which an import names {}",
                    super::COHORT
                ),
            ));
        }
    }
    let fair_share = sc.fair_sharing.is_some();
    let text = if opts.script {
        script(sc, &quotas, &classes_out, fair_share, &opts.cluster_arn)
    } else {
        let mut all = vec![policy_body(&classes_out, fair_share, &opts.cluster_arn)];
        all.extend(quotas.iter().map(|q| quota_body(q, &opts.cluster_arn)));
        let mut t = serde_json::to_string_pretty(&Value::Array(all)).unwrap_or_default();
        t.push('\n');
        t
    };
    Ok(Exported {
        text,
        warnings,
        empty_patch: false,
    })
}

fn named_limits(sc: &Scenario, limits: &[Option<u64>]) -> Vec<(String, u64)> {
    limits
        .iter()
        .enumerate()
        .filter_map(|(t, n)| n.map(|n| (sc.instance_types[t].name.clone(), n)))
        .collect()
}

/// An AWS Batch scenario, share by share: RESERVE -> DontLend, LEND -> Lend,
/// LEND_AND_BORROW p -> LendAndBorrow with BorrowLimit p (unlimited is refused),
/// in-share preemption -> PreemptTeamTasks LowerPriority.
fn from_aws(sc: &Scenario, lacks: &mut Vec<Problem>) -> Vec<QuotaOut> {
    let mut out = Vec::new();
    for (i, s) in sc.shares.iter().enumerate() {
        let (strategy, borrow_limit) = match (s.strategy, s.borrow_limit) {
            (AwsStrategy::Reserve, _) => (Strategy::DontLend, 0),
            (AwsStrategy::Lend, _) => (Strategy::Lend, 0),
            (AwsStrategy::LendAndBorrow, BorrowLimit::Percent(p)) if p <= MAX_BORROW_LIMIT => {
                (Strategy::LendAndBorrow, p)
            }
            (AwsStrategy::LendAndBorrow, b) => {
                lacks.push(Problem::new(
                    Path::root().key("shares").idx(i).key("borrow_limit"),
                    format!(
                        "HyperPod task governance has no {} (BorrowLimit is a percent of the team's quota, at most {MAX_BORROW_LIMIT})",
                        match b {
                            BorrowLimit::Unlimited => "unlimited borrow limit (-1)".to_string(),
                            BorrowLimit::Percent(p) => format!("borrow limit of {p}%"),
                        }
                    ),
                ));
                continue;
            }
        };
        out.push(QuotaOut {
            name: s.name.clone(),
            limits: named_limits(sc, &s.limits),
            strategy,
            borrow_limit,
            absolute: Vec::new(),
            preempt_lower: s.in_share_preemption,
            weight: 0,
            enabled: s.enabled,
        });
    }
    out
}

/// A Kueue scenario: the inverse of the import's rules (`super::share_json`), refusing
/// nested cohorts, a cohort's own quota, several cohorts, teams outside the cohort, partial
/// lending, borrowing without lending, unlimited borrowing, other preemption policies,
/// strict FIFO, weights that are not whole 0..=100, and other fair-sharing strategies.
fn from_kueue(sc: &Scenario, lacks: &mut Vec<Problem>) -> Vec<QuotaOut> {
    let mut lack = |path: Path, what: String| {
        lacks.push(Problem::new(
            path,
            format!("HyperPod task governance has no {what}"),
        ));
    };
    for (i, c) in sc.cohorts.iter().enumerate() {
        if let Some(p) = c.parent {
            lack(
                Path::root().key("cohorts").idx(i).key("parent"),
                format!(
                    "nested cohorts (cohort {} has parent {})",
                    c.name, sc.cohorts[p].name
                ),
            );
        }
        if c.limits.iter().any(|l| l.is_some_and(|n| n > 0)) {
            lack(
                Path::root().key("cohorts").idx(i).key("limits"),
                format!("quota of a cohort itself (cohort {}): every instance is some team's compute quota", c.name),
            );
        }
    }
    let mut used: Vec<usize> = sc.shares.iter().filter_map(|s| s.kueue.cohort).collect();
    used.sort_unstable();
    used.dedup();
    if used.len() > 1 {
        lack(
            Path::root().key("shares"),
            format!(
                "way to hold several cohorts in one cluster (cohorts {})",
                used.iter()
                    .map(|&c| sc.cohorts[c].name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    if let Some(fs) = &sc.fair_sharing {
        if fs.strategies
            != [
                FsStrategy::LessThanOrEqualToFinalShare,
                FsStrategy::LessThanInitialShare,
            ]
        {
            lack(
                Path::root().key("fair_sharing").key("strategies"),
                "fair-sharing strategies other than Kueue's default (less_than_or_equal_to_final_share, then less_than_initial_share)".into(),
            );
        }
    }
    let mut out = Vec::new();
    for (i, s) in sc.shares.iter().enumerate() {
        let p = Path::root().key("shares").idx(i);
        let k = &s.kueue;
        let name = &s.name;
        let tname = |t: usize| sc.instance_types[t].name.clone();
        let get = |v: &[Option<u64>], t: usize| v.get(t).copied().flatten();
        if k.cohort.is_none() {
            lack(
                p.key("cohort"),
                format!("team outside the cluster's cohort (share {name}): to keep its quota to itself, put it in the cohort with lending_limit and borrowing_limit 0 (DontLend)"),
            );
            continue;
        }
        let typed: Vec<(usize, u64)> = s
            .limits
            .iter()
            .enumerate()
            .filter_map(|(t, n)| n.map(|n| (t, n)))
            .collect();
        let dont = !typed.is_empty()
            && typed
                .iter()
                .all(|&(t, _)| get(&k.lending_limit, t) == Some(0));
        let partial = typed
            .iter()
            .any(|&(t, n)| get(&k.lending_limit, t).is_some_and(|l| l < n));
        if partial && !dont {
            lack(
                p.key("lending_limit"),
                format!("lending limit other than 0 for every type or none (share {name}): a team lends all its idle quota (Lend) or none (DontLend)"),
            );
            continue;
        }
        // A share uses only the types its limits name; the validator allows borrowing
        // limits for those alone.
        let own: Vec<usize> = typed.iter().map(|&(t, _)| t).collect();
        let borrows_none = own.iter().all(|&t| get(&k.borrowing_limit, t) == Some(0));
        let (strategy, borrow_limit, absolute) = if dont {
            if !borrows_none {
                lack(
                    p.key("borrowing_limit"),
                    format!("team that borrows but lends nothing (share {name}): DontLend borrows nothing"),
                );
                continue;
            }
            (Strategy::DontLend, 0, Vec::new())
        } else if borrows_none {
            (Strategy::Lend, 0, Vec::new())
        } else {
            let unlimited: Vec<String> = own
                .iter()
                .copied()
                .filter(|&t| get(&k.borrowing_limit, t).is_none())
                .map(tname)
                .collect();
            if !unlimited.is_empty() {
                lack(
                    p.key("borrowing_limit"),
                    format!(
                        "unlimited borrowing (share {name} has no borrowing limit for {}): BorrowLimit is a percent of the team's quota, or AbsoluteBorrowLimits a number",
                        unlimited.join(", ")
                    ),
                );
                continue;
            }
            let b = |t: usize| get(&k.borrowing_limit, t).unwrap_or(0);
            let n = |t: usize| get(&s.limits, t).unwrap_or(0);
            // The smallest percent giving the first quota type's borrowing limit; the types
            // it does not give exactly get an absolute limit.
            let pct = own.iter().copied().find(|&t| n(t) > 0).map_or(0, |t| {
                ((b(t) as u128 * 100).div_ceil(n(t) as u128)).min(MAX_BORROW_LIMIT as u128) as u64
            });
            let absolute: Vec<(String, u64)> = own
                .iter()
                .copied()
                .filter(|&t| (n(t) as u128 * pct as u128 / 100) != b(t) as u128)
                .map(|t| (tname(t), b(t)))
                .collect();
            (Strategy::LendAndBorrow, pct, absolute)
        };
        let preempt_lower = match k.preemption.within_share {
            WithinShare::Never => false,
            WithinShare::LowerPriority => true,
            WithinShare::LowerOrNewerEqualPriority => {
                lack(
                    p.key("preemption").key("within_share"),
                    "PreemptTeamTasks other than Never or LowerPriority (within_share lower_or_newer_equal_priority)".into(),
                );
                false
            }
        };
        if k.preemption.reclaim != ReclaimPolicy::Any {
            lack(
                p.key("preemption").key("reclaim"),
                format!("reclaim policy other than any (share {name}): a team always gets back what it lent"),
            );
        }
        if k.preemption.borrow_within_cohort.lower_priority {
            lack(
                p.key("preemption").key("borrow_within_cohort"),
                "preemption while borrowing (borrow_within_cohort)".into(),
            );
        }
        if k.queueing == Queueing::StrictFifo {
            lack(
                p.key("queueing"),
                "strict_fifo queueing (task governance queues best-effort FIFO)".into(),
            );
        }
        let weight = if k.weight % 1000 == 0 && k.weight / 1000 <= MAX_WEIGHT {
            k.weight / 1000
        } else {
            lack(
                p.key("weight"),
                format!(
                    "fair-share weight {} (FairShareWeight is a whole number from 0 to {MAX_WEIGHT})",
                    k.weight as f64 / 1000.0
                ),
            );
            0
        };
        out.push(QuotaOut {
            name: name.clone(),
            limits: named_limits(sc, &s.limits),
            strategy,
            borrow_limit,
            absolute,
            preempt_lower,
            weight,
            enabled: s.enabled,
        });
    }
    out
}

fn policy_body(classes: &[(String, u64)], fair_share: bool, arn: &str) -> Value {
    json!({
        "Name": POLICY_NAME,
        "ClusterArn": arn,
        "SchedulerConfig": scheduler_config(classes, fair_share),
    })
}

fn scheduler_config(classes: &[(String, u64)], fair_share: bool) -> Value {
    let mut m = Map::new();
    if !classes.is_empty() {
        m.insert(
            "PriorityClasses".into(),
            Value::Array(
                classes
                    .iter()
                    .map(|(n, w)| json!({"Name": n, "Weight": w}))
                    .collect(),
            ),
        );
    }
    m.insert(
        "FairShare".into(),
        json!(if fair_share { "Enabled" } else { "Disabled" }),
    );
    Value::Object(m)
}

fn quota_config(q: &QuotaOut) -> Value {
    let mut rs = Map::new();
    rs.insert("Strategy".into(), json!(q.strategy.as_str()));
    if q.strategy == Strategy::LendAndBorrow {
        rs.insert("BorrowLimit".into(), json!(q.borrow_limit));
        if !q.absolute.is_empty() {
            rs.insert(
                "AbsoluteBorrowLimits".into(),
                Value::Array(
                    q.absolute
                        .iter()
                        .map(|(t, n)| json!({"InstanceType": t, "Count": n}))
                        .collect(),
                ),
            );
        }
    }
    json!({
        "ComputeQuotaResources": q.limits.iter().map(|(t, n)| json!({"InstanceType": t, "Count": n})).collect::<Vec<_>>(),
        "ResourceSharingConfig": rs,
        "PreemptTeamTasks": if q.preempt_lower { "LowerPriority" } else { "Never" },
    })
}

fn quota_target(q: &QuotaOut) -> Value {
    json!({"TeamName": q.name, "FairShareWeight": q.weight})
}

fn activation(q: &QuotaOut) -> &'static str {
    if q.enabled {
        "Enabled"
    } else {
        "Disabled"
    }
}

fn quota_body(q: &QuotaOut, arn: &str) -> Value {
    json!({
        "Name": q.name,
        "ClusterArn": arn,
        "ComputeQuotaConfig": quota_config(q),
        "ComputeQuotaTarget": quota_target(q),
        "ActivationState": activation(q),
    })
}

/// `'text'` for a POSIX shell.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `$NAME` or `${NAME}`: the variable's name.
fn variable_name(s: &str) -> Option<&str> {
    let n = s.strip_prefix('$')?;
    let n = n
        .strip_prefix('{')
        .and_then(|n| n.strip_suffix('}'))
        .unwrap_or(n);
    (!n.is_empty()
        && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !n.starts_with(|c: char| c.is_ascii_digit()))
    .then_some(n)
}

fn script(
    sc: &Scenario,
    quotas: &[QuotaOut],
    classes: &[(String, u64)],
    fair_share: bool,
    arn: &str,
) -> String {
    let mut out = String::from("#!/bin/sh\n");
    out.push_str(&format!(
        "# The compute quotas of scenario \"{}\" for SageMaker HyperPod task governance.\n",
        sc.name.replace('\n', " ")
    ));
    out.push_str("# The cluster must be EKS-orchestrated with the task governance add-on installed.\nset -e\n");
    let arn_arg = match variable_name(arn) {
        Some(v) => {
            out.push_str(&format!(
                ": \"${{{v}:?set {v} to the HyperPod cluster's ARN}}\"\n"
            ));
            format!("\"${v}\"")
        }
        None => shell_quote(arn),
    };
    out.push_str(&format!(
        "\naws sagemaker create-cluster-scheduler-config \\\n  --name {POLICY_NAME} \\\n  --cluster-arn {arn_arg} \\\n  --scheduler-config {}\n",
        shell_quote(&scheduler_config(classes, fair_share).to_string())
    ));
    for q in quotas {
        out.push_str(&format!(
            "\naws sagemaker create-compute-quota \\\n  --name {} \\\n  --cluster-arn {arn_arg} \\\n  --compute-quota-config {} \\\n  --compute-quota-target {} \\\n  --activation-state {}\n",
            shell_quote(&q.name),
            shell_quote(&quota_config(q).to_string()),
            shell_quote(&quota_target(q).to_string()),
            activation(q)
        ));
    }
    out
}
