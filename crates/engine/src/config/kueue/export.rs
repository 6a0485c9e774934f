//! The export (SPEC 13): a scenario as Kueue YAML, an AWS one in Kueue's terms (SPEC 12).

use serde_json::Value;

use super::AWS_COHORT;
use crate::config::{ExportOptions, Exported};
use crate::input::model::{
    BorrowLimit, FsStrategy, Queueing, ReclaimPolicy, Scenario, Strategy, WithinShare,
};
use crate::input::path::Path;
use crate::Problem;

/// A YAML scalar for a name (a JSON string is a YAML double-quoted scalar).
fn q(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

/// A fair-sharing weight in thousandths as a Kubernetes quantity.
fn weight_quantity(milli: u64) -> String {
    if milli.is_multiple_of(1000) {
        format!("{}", milli / 1000)
    } else {
        format!("{milli}m")
    }
}

/// One node's quota, flavors in instance-type order.
struct QuotaOut {
    flavor: String,
    gpus: u64,
    nominal: u64,
    borrowing: Option<u64>,
    lending: Option<u64>,
}

fn resource_groups(out: &mut String, resource: &str, quotas: &[QuotaOut], indent: &str) {
    if quotas.is_empty() {
        return;
    }
    out.push_str(&format!(
        "{indent}resourceGroups:\n{indent}- coveredResources: [{}]\n{indent}  flavors:\n",
        q(resource)
    ));
    for qo in quotas {
        out.push_str(&format!(
            "{indent}  - name: {}\n{indent}    resources:\n{indent}    - name: {}\n{indent}      nominalQuota: {}\n",
            q(&qo.flavor),
            q(resource),
            qo.nominal * qo.gpus
        ));
        if let Some(b) = qo.borrowing {
            out.push_str(&format!("{indent}      borrowingLimit: {}\n", b * qo.gpus));
        }
        if let Some(l) = qo.lending {
            out.push_str(&format!("{indent}      lendingLimit: {}\n", l * qo.gpus));
        }
    }
}

const API: &str = "kueue.x-k8s.io/v1beta2";

pub(crate) fn export(
    sc: &Scenario,
    priority_classes: &[(String, i64)],
    opts: &ExportOptions,
) -> Exported {
    let mut warnings = Vec::new();
    let resource = &opts.resource;
    let gpus: Vec<u64> = sc
        .instance_types
        .iter()
        .map(|t| (t.gpus as u64).max(1))
        .collect();
    for t in &sc.instance_types {
        if t.gpus == 0 {
            warnings.push(Problem::new(
                Path::root().key("instance_types").key(t.name.as_str()),
                format!("has no GPUs: its quota is exported as 1 {resource} per instance"),
            ));
        }
    }
    let mut out = String::new();
    out.push_str(&format!(
        "# Kueue configuration of scenario {} (Quota Lab export). Quotas are in {resource}:\n# instances x GPUs per instance. Apply with: kubectl apply -f FILE\n",
        q(&sc.name)
    ));
    if !sc.is_kueue() {
        out.push_str(&format!(
            "# AWS Batch in Kueue's terms: all quota shares are ClusterQueues of one cohort, {AWS_COHORT},\n# whose own quota is the unallocated capacity. RESERVE = lendingLimit 0 and borrowingLimit 0;\n# LEND = borrowingLimit 0; LEND_AND_BORROW with borrow limit p% = borrowingLimit\n# floor(limit x p / 100) (none when unlimited). AWS always reclaims lent capacity\n# (reclaimWithinCohort: Any) and never preempts to borrow; in-share preemption is\n# withinClusterQueue LowerPriority. (Kueue offers borrowing jobs last, then by priority;\n# AWS offers by entitlement, then submit time.)\n"
        ));
    }
    // ResourceFlavors: every instance type a share or cohort has a limit for.
    let used: Vec<usize> = (0..sc.instance_types.len())
        .filter(|&t| {
            sc.shares
                .iter()
                .map(|s| &s.limits)
                .chain(sc.cohorts.iter().map(|c| &c.limits))
                .any(|l| l.get(t).copied().flatten().is_some())
        })
        .collect();
    for &t in &used {
        out.push_str(&format!(
            "---\napiVersion: {API}\nkind: ResourceFlavor\nmetadata:\n  name: {}\n",
            q(&sc.instance_types[t].name)
        ));
    }
    let quotas =
        |limits: &[Option<u64>], bl: &[Option<u64>], ll: &[Option<u64>]| -> Vec<QuotaOut> {
            let get = |v: &[Option<u64>], t: usize| v.get(t).copied().flatten();
            used.iter()
                .filter_map(|&t| {
                    Some(QuotaOut {
                        flavor: sc.instance_types[t].name.clone(),
                        gpus: gpus[t],
                        nominal: get(limits, t)?,
                        borrowing: get(bl, t),
                        lending: get(ll, t),
                    })
                })
                .collect()
        };
    if sc.is_kueue() {
        let implied: Vec<u64> = (0..sc.instance_types.len())
            .map(|t| {
                sc.shares
                    .iter()
                    .map(|s| &s.limits)
                    .chain(sc.cohorts.iter().map(|c| &c.limits))
                    .map(|l| l.get(t).copied().flatten().unwrap_or(0))
                    .sum()
            })
            .collect();
        if implied != sc.capacity {
            warnings.push(Problem::new(
                Path::root().key("capacity"),
                "Kueue has no physical capacity apart from quotas: the capacity is not exported",
            ));
        }
        for c in &sc.cohorts {
            out.push_str(&format!(
                "---\napiVersion: {API}\nkind: Cohort\nmetadata:\n  name: {}\nspec:",
                q(&c.name)
            ));
            let mut spec = String::new();
            if let Some(p) = c.parent {
                spec.push_str(&format!("  parentName: {}\n", q(&sc.cohorts[p].name)));
            }
            if c.weight != 1000 {
                spec.push_str(&format!(
                    "  fairSharing:\n    weight: {}\n",
                    q(&weight_quantity(c.weight))
                ));
            }
            resource_groups(
                &mut spec,
                resource,
                &quotas(&c.limits, &c.borrowing_limit, &c.lending_limit),
                "  ",
            );
            push_spec(&mut out, &spec);
        }
        for s in &sc.shares {
            let k = &s.kueue;
            out.push_str(&format!(
                "---\napiVersion: {API}\nkind: ClusterQueue\nmetadata:\n  name: {}\nspec:\n",
                q(&s.name)
            ));
            if let Some(c) = k.cohort {
                out.push_str(&format!("  cohortName: {}\n", q(&sc.cohorts[c].name)));
            }
            out.push_str(&format!(
                "  queueingStrategy: {}\n",
                match k.queueing {
                    Queueing::BestEffortFifo => "BestEffortFIFO",
                    Queueing::StrictFifo => "StrictFIFO",
                }
            ));
            let p = &k.preemption;
            let mut pre = String::new();
            match p.within_share {
                WithinShare::Never => {}
                WithinShare::LowerPriority => {
                    pre.push_str("    withinClusterQueue: LowerPriority\n")
                }
                WithinShare::LowerOrNewerEqualPriority => {
                    pre.push_str("    withinClusterQueue: LowerOrNewerEqualPriority\n")
                }
            }
            match p.reclaim {
                ReclaimPolicy::Never => {}
                ReclaimPolicy::LowerPriority => {
                    pre.push_str("    reclaimWithinCohort: LowerPriority\n")
                }
                ReclaimPolicy::Any => pre.push_str("    reclaimWithinCohort: Any\n"),
            }
            let b = &p.borrow_within_cohort;
            if b.lower_priority || b.max_priority_threshold.is_some() {
                pre.push_str("    borrowWithinCohort:\n");
                if b.lower_priority {
                    pre.push_str("      policy: LowerPriority\n");
                }
                if let Some(t) = b.max_priority_threshold {
                    pre.push_str(&format!("      maxPriorityThreshold: {t}\n"));
                }
            }
            if !pre.is_empty() {
                out.push_str("  preemption:\n");
                out.push_str(&pre);
            }
            if k.weight != 1000 {
                out.push_str(&format!(
                    "  fairSharing:\n    weight: {}\n",
                    q(&weight_quantity(k.weight))
                ));
            }
            if !s.enabled {
                out.push_str("  stopPolicy: Hold\n");
            }
            resource_groups(
                &mut out,
                resource,
                &quotas(&s.limits, &k.borrowing_limit, &k.lending_limit),
                "  ",
            );
        }
        if let Some(fs) = &sc.fair_sharing {
            out.push_str(
                "---\n# Fair sharing is a setting of Kueue's manager: this replaces its whole\n# Configuration (merge it into yours if you have one).\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kueue-manager-config\n  namespace: kueue-system\ndata:\n  controller_manager_config.yaml: |\n    apiVersion: config.kueue.x-k8s.io/v1beta1\n    kind: Configuration\n    fairSharing:\n      enable: true\n      preemptionStrategies:\n",
            );
            for s in &fs.strategies {
                out.push_str(&format!(
                    "      - {}\n",
                    match s {
                        FsStrategy::LessThanOrEqualToFinalShare => "LessThanOrEqualToFinalShare",
                        FsStrategy::LessThanInitialShare => "LessThanInitialShare",
                    }
                ));
            }
        }
    } else {
        // SPEC 12's translation: every share a ClusterQueue of one cohort whose own quota
        // is the unallocated pool.
        let pool: Vec<Option<u64>> = (0..sc.instance_types.len())
            .map(|t| {
                let alloc: u64 = sc
                    .shares
                    .iter()
                    .map(|s| s.limits.get(t).copied().flatten().unwrap_or(0))
                    .sum();
                let free = sc.capacity[t].saturating_sub(alloc);
                (used.contains(&t) && free > 0).then_some(free)
            })
            .collect();
        out.push_str(&format!(
            "---\napiVersion: {API}\nkind: Cohort\nmetadata:\n  name: {}\nspec:",
            q(AWS_COHORT)
        ));
        let mut spec = String::new();
        resource_groups(&mut spec, resource, &quotas(&pool, &[], &[]), "  ");
        push_spec(&mut out, &spec);
        for s in &sc.shares {
            let n_types = sc.instance_types.len();
            let zeros = |l: &[Option<u64>]| -> Vec<Option<u64>> {
                (0..n_types)
                    .map(|t| l.get(t).copied().flatten().map(|_| 0))
                    .collect()
            };
            let (bl, ll, what) = match s.strategy {
                Strategy::Reserve => (
                    zeros(&s.limits),
                    zeros(&s.limits),
                    "RESERVE: lends nothing, borrows nothing".to_string(),
                ),
                Strategy::Lend => (
                    zeros(&s.limits),
                    Vec::new(),
                    "LEND: lends its idle limit, borrows nothing".to_string(),
                ),
                Strategy::LendAndBorrow => match s.borrow_limit {
                    BorrowLimit::Unlimited => (
                        Vec::new(),
                        Vec::new(),
                        "LEND_AND_BORROW, unlimited: lends and borrows without a limit".to_string(),
                    ),
                    BorrowLimit::Percent(p) => (
                        s.limits
                            .iter()
                            .map(|l| l.map(|n| (n as u128 * p as u128 / 100) as u64))
                            .collect(),
                        Vec::new(),
                        format!(
                            "LEND_AND_BORROW, borrow limit {p}%: borrows up to {p}% of its limit"
                        ),
                    ),
                },
            };
            out.push_str(&format!(
                "---\n# {}: {what}\napiVersion: {API}\nkind: ClusterQueue\nmetadata:\n  name: {}\nspec:\n  cohortName: {}\n  queueingStrategy: {}\n  preemption:\n    withinClusterQueue: {}\n    reclaimWithinCohort: Any\n",
                s.name.replace('\n', " "),
                q(&s.name),
                q(AWS_COHORT),
                match sc.queueing {
                    Queueing::BestEffortFifo => "BestEffortFIFO",
                    Queueing::StrictFifo => "StrictFIFO",
                },
                if s.in_share_preemption { "LowerPriority" } else { "Never" },
            ));
            if !s.enabled {
                out.push_str("  stopPolicy: Hold\n");
            }
            resource_groups(&mut out, resource, &quotas(&s.limits, &bl, &ll), "  ");
        }
    }
    for (name, value) in priority_classes {
        out.push_str(&format!(
            "---\napiVersion: {API}\nkind: WorkloadPriorityClass\nmetadata:\n  name: {}\nvalue: {value}\n",
            q(name)
        ));
    }
    Exported {
        text: out,
        warnings,
    }
}

/// Ends an object's `spec:` line: its fields below it, or ` {}` when it has none.
fn push_spec(out: &mut String, spec: &str) {
    if spec.is_empty() {
        out.push_str(" {}\n");
    } else {
        out.push('\n');
        out.push_str(spec);
    }
}
