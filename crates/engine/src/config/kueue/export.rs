//! The export (SPEC 13, 16): a scenario as Kueue YAML, an AWS one in Kueue's terms (SPEC 12).
//!
//! Every object is built here as a value (one builder per kind, and one per modelled part of
//! a spec), then written by [`crate::config::yaml_out`]. A scenario that was imported from
//! Kueue files is written over the documents it was read from instead ([`super::over`]),
//! with the same builders for what it changed.

use serde_json::{json, Map, Value};

use super::AWS_COHORT;
use crate::config::yaml_out::{self, Doc};
use crate::config::{ExportOptions, Exported};
use crate::input::model::{
    BorrowLimit, Cohort, FsStrategy, Preemption, Queueing, ReclaimPolicy, Scenario, Share,
    Strategy, WeightMilli, WithinShare,
};
use crate::input::path::Path;
use crate::Problem;

pub(super) const API: &str = "kueue.x-k8s.io/v1beta2";

/// A fair-sharing weight in thousandths as a Kubernetes quantity.
pub(super) fn weight_quantity(milli: WeightMilli) -> String {
    if milli.is_multiple_of(1000) {
        format!("{}", milli / 1000)
    } else {
        format!("{milli}m")
    }
}

/// What the export needs of the scenario's instance types: GPUs per instance (at least 1)
/// and the flavor each is written as.
pub(super) struct Types<'a> {
    pub(super) sc: &'a Scenario,
    pub(super) resource: &'a str,
    gpus: Vec<u64>,
    flavor: Vec<String>,
}

impl<'a> Types<'a> {
    /// `flavor_of` names the flavor of an instance type read from a flavor of another name
    /// (SPEC 13 `--flavor-map`); other types are flavors of their own name.
    pub(super) fn new(
        sc: &'a Scenario,
        resource: &'a str,
        flavor_of: &dyn Fn(&str) -> Option<String>,
    ) -> Types<'a> {
        Types {
            sc,
            resource,
            gpus: sc
                .instance_types
                .iter()
                .map(|t| (t.gpus as u64).max(1))
                .collect(),
            flavor: sc
                .instance_types
                .iter()
                .map(|t| flavor_of(&t.name).unwrap_or_else(|| t.name.clone()))
                .collect(),
        }
    }

    pub(super) fn flavor(&self, t: usize) -> &str {
        &self.flavor[t]
    }

    /// Every type some share or cohort has a limit for (the flavors written).
    pub(super) fn used(&self) -> Vec<usize> {
        let sc = self.sc;
        (0..sc.instance_types.len())
            .filter(|&t| {
                sc.shares
                    .iter()
                    .map(|s| &s.limits)
                    .chain(sc.cohorts.iter().map(|c| &c.limits))
                    .any(|l| l.get(t).copied().flatten().is_some())
            })
            .collect()
    }

    /// A node's quotas in GPUs, one per type it has a limit for, in type order.
    pub(super) fn quotas(
        &self,
        limits: &[Option<u64>],
        bl: &[Option<u64>],
        ll: &[Option<u64>],
    ) -> Vec<QuotaOut> {
        let get = |v: &[Option<u64>], t: usize| v.get(t).copied().flatten();
        (0..self.sc.instance_types.len())
            .filter_map(|t| {
                let g = self.gpus[t];
                Some(QuotaOut {
                    t,
                    nominal: get(limits, t)? * g,
                    borrowing: get(bl, t).map(|b| b * g),
                    lending: get(ll, t).map(|l| l * g),
                })
            })
            .collect()
    }

    /// One flavor's resource entry of the counted resource.
    pub(super) fn resource_entry(&self, q: &QuotaOut) -> Map<String, Value> {
        let mut r = Map::new();
        r.insert("name".into(), json!(self.resource));
        r.insert("nominalQuota".into(), json!(q.nominal));
        if let Some(b) = q.borrowing {
            r.insert("borrowingLimit".into(), json!(b));
        }
        if let Some(l) = q.lending {
            r.insert("lendingLimit".into(), json!(l));
        }
        r
    }

    /// `spec.resourceGroups` of a node that has only the counted resource.
    pub(super) fn resource_groups(&self, quotas: &[QuotaOut]) -> Option<Value> {
        if quotas.is_empty() {
            return None;
        }
        let flavors: Vec<Value> = quotas
            .iter()
            .map(|q| {
                json!({"name": self.flavor(q.t), "resources": [Value::Object(self.resource_entry(q))]})
            })
            .collect();
        Some(json!([{"coveredResources": [self.resource], "flavors": flavors}]))
    }
}

/// One type's quota of a node, in GPUs.
pub(super) struct QuotaOut {
    pub(super) t: usize,
    pub(super) nominal: u64,
    pub(super) borrowing: Option<u64>,
    pub(super) lending: Option<u64>,
}

/// `spec.queueingStrategy`.
pub(super) fn queueing_value(q: Queueing) -> Value {
    json!(match q {
        Queueing::BestEffortFifo => "BestEffortFIFO",
        Queueing::StrictFifo => "StrictFIFO",
    })
}

/// `spec.preemption` (SPEC 12): only the policies that are not Kueue's default `Never`,
/// or every one of them with `explicit` (an export over a live object states each).
pub(super) fn preemption_value(p: &Preemption, explicit: bool) -> Option<Value> {
    let mut m = Map::new();
    let within = match p.within_share {
        WithinShare::Never => "Never",
        WithinShare::LowerPriority => "LowerPriority",
        WithinShare::LowerOrNewerEqualPriority => "LowerOrNewerEqualPriority",
    };
    if explicit || p.within_share != WithinShare::Never {
        m.insert("withinClusterQueue".into(), json!(within));
    }
    let reclaim = match p.reclaim {
        ReclaimPolicy::Never => "Never",
        ReclaimPolicy::LowerPriority => "LowerPriority",
        ReclaimPolicy::Any => "Any",
    };
    if explicit || p.reclaim != ReclaimPolicy::Never {
        m.insert("reclaimWithinCohort".into(), json!(reclaim));
    }
    let b = &p.borrow_within_cohort;
    if explicit || b.lower_priority || b.max_priority_threshold.is_some() {
        let mut bm = Map::new();
        bm.insert(
            "policy".into(),
            json!(if b.lower_priority {
                "LowerPriority"
            } else {
                "Never"
            }),
        );
        if let Some(t) = b.max_priority_threshold {
            bm.insert("maxPriorityThreshold".into(), json!(t));
        }
        if !explicit && !b.lower_priority {
            bm.remove("policy");
        }
        m.insert("borrowWithinCohort".into(), Value::Object(bm));
    }
    (!m.is_empty()).then_some(Value::Object(m))
}

/// `spec.fairSharing.weight` as a quantity.
pub(super) fn weight_value(w: WeightMilli) -> Value {
    json!(weight_quantity(w))
}

/// The modelled parts of a ClusterQueue's spec: `None` where Kueue's default holds.
pub(super) struct QueueSpec {
    pub(super) cohort: Option<String>,
    pub(super) queueing: Value,
    pub(super) preemption: Option<Value>,
    pub(super) weight: Option<Value>,
    pub(super) hold: bool,
    pub(super) quotas: Vec<QuotaOut>,
}

/// A Kueue scenario's share as a ClusterQueue spec.
pub(super) fn queue_spec(ty: &Types, s: &Share) -> QueueSpec {
    let k = &s.kueue;
    QueueSpec {
        cohort: k.cohort.map(|c| ty.sc.cohorts[c].name.clone()),
        queueing: queueing_value(k.queueing),
        preemption: preemption_value(&k.preemption, false),
        weight: (k.weight != 1000).then(|| weight_value(k.weight)),
        hold: !s.enabled,
        quotas: ty.quotas(&s.limits, &k.borrowing_limit, &k.lending_limit),
    }
}

/// An AWS scenario's share in Kueue's terms (SPEC 12's translation) and the comment that
/// says what its strategy became.
fn aws_queue_spec(ty: &Types, s: &Share) -> (QueueSpec, String) {
    let n_types = ty.sc.instance_types.len();
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
                format!("LEND_AND_BORROW, borrow limit {p}%: borrows up to {p}% of its limit"),
            ),
        },
    };
    let mut pre = Map::new();
    pre.insert(
        "withinClusterQueue".into(),
        json!(if s.in_share_preemption {
            "LowerPriority"
        } else {
            "Never"
        }),
    );
    pre.insert("reclaimWithinCohort".into(), json!("Any"));
    let spec = QueueSpec {
        cohort: Some(AWS_COHORT.to_string()),
        queueing: queueing_value(ty.sc.queueing),
        preemption: Some(Value::Object(pre)),
        weight: None,
        hold: !s.enabled,
        quotas: ty.quotas(&s.limits, &bl, &ll),
    };
    (spec, format!("{}: {what}", s.name.replace('\n', " ")))
}

fn object(kind: &str, name: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("apiVersion".into(), json!(API));
    m.insert("kind".into(), json!(kind));
    m.insert("metadata".into(), json!({ "name": name }));
    m
}

/// A new ClusterQueue.
pub(super) fn cluster_queue(ty: &Types, name: &str, q: &QueueSpec) -> Value {
    let mut spec = Map::new();
    if let Some(c) = &q.cohort {
        spec.insert("cohortName".into(), json!(c));
    }
    spec.insert("queueingStrategy".into(), q.queueing.clone());
    if let Some(p) = &q.preemption {
        spec.insert("preemption".into(), p.clone());
    }
    if let Some(w) = &q.weight {
        spec.insert("fairSharing".into(), json!({ "weight": w }));
    }
    if q.hold {
        spec.insert("stopPolicy".into(), json!("Hold"));
    }
    if let Some(g) = ty.resource_groups(&q.quotas) {
        spec.insert("resourceGroups".into(), g);
    }
    let mut m = object("ClusterQueue", name);
    m.insert("spec".into(), Value::Object(spec));
    Value::Object(m)
}

/// The modelled parts of a Cohort's spec.
pub(super) struct CohortSpec {
    pub(super) parent: Option<String>,
    pub(super) weight: Option<Value>,
    pub(super) quotas: Vec<QuotaOut>,
}

pub(super) fn cohort_spec(ty: &Types, c: &Cohort) -> CohortSpec {
    CohortSpec {
        parent: c.parent.map(|p| ty.sc.cohorts[p].name.clone()),
        weight: (c.weight != 1000).then(|| weight_value(c.weight)),
        quotas: ty.quotas(&c.limits, &c.borrowing_limit, &c.lending_limit),
    }
}

/// A new Cohort.
pub(super) fn cohort(ty: &Types, name: &str, c: &CohortSpec) -> Value {
    let mut spec = Map::new();
    if let Some(p) = &c.parent {
        spec.insert("parentName".into(), json!(p));
    }
    if let Some(w) = &c.weight {
        spec.insert("fairSharing".into(), json!({ "weight": w }));
    }
    if let Some(g) = ty.resource_groups(&c.quotas) {
        spec.insert("resourceGroups".into(), g);
    }
    let mut m = object("Cohort", name);
    m.insert("spec".into(), Value::Object(spec));
    Value::Object(m)
}

pub(super) fn resource_flavor(name: &str) -> Value {
    Value::Object(object("ResourceFlavor", name))
}

pub(super) fn priority_class(name: &str, value: i64) -> Value {
    let mut m = object("WorkloadPriorityClass", name);
    m.insert("value".into(), json!(value));
    Value::Object(m)
}

/// Kueue's spelling of a fair-sharing strategy.
pub(super) fn strategy_name(s: FsStrategy) -> &'static str {
    match s {
        FsStrategy::LessThanOrEqualToFinalShare => "LessThanOrEqualToFinalShare",
        FsStrategy::LessThanInitialShare => "LessThanInitialShare",
    }
}

/// Fair sharing is a setting of Kueue's manager: a ConfigMap holding its Configuration.
fn fair_sharing_doc(strategies: &[FsStrategy]) -> Doc {
    let mut config = String::from(
        "apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nfairSharing:\n  enable: true\n  preemptionStrategies:\n",
    );
    for s in strategies {
        config.push_str(&format!("  - {}\n", strategy_name(*s)));
    }
    let v = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "kueue-manager-config", "namespace": "kueue-system"},
        "data": {"controller_manager_config.yaml": config},
    });
    Doc::new(v)
        .with_comment("Fair sharing is a setting of Kueue's manager: this replaces its whole")
        .with_comment("Configuration (merge it into yours if you have one).")
}

/// The header of an export that was not written over imported documents: what it holds,
/// and what a live cluster will also need (SPEC 16: it never claims more).
fn fresh_header(sc: &Scenario, resource: &str) -> String {
    format!(
        "# Kueue configuration of scenario {} (Quota Lab export). Quotas are in {resource}:\n# instances x GPUs per instance.\n# It holds only what Quota Lab models. Before applying it to a live cluster, give each\n# ClusterQueue a namespaceSelector (without one it admits no workload; {{}} admits every\n# namespace) and the quotas of the other resources its workloads request (cpu, memory),\n# and create a LocalQueue per team namespace. A scenario imported from Kueue files is\n# written over them instead, keeping all of that.\n",
        Value::String(sc.name.clone())
    )
}

/// Warnings every Kueue export shares: types without GPUs, a capacity Kueue cannot hold.
pub(super) fn warnings(sc: &Scenario, resource: &str) -> Vec<Problem> {
    let mut warnings = Vec::new();
    for t in &sc.instance_types {
        if t.gpus == 0 {
            // The page names the type in words (issue #34); the CLI keeps the path.
            let what = format!("has no GPUs: its quota is exported as 1 {resource} per instance");
            warnings.push(
                Problem::new(
                    Path::root().key("instance_types").key(t.name.as_str()),
                    what.clone(),
                )
                .about(
                    if sc.is_kueue() {
                        "ResourceFlavor"
                    } else {
                        "instance type"
                    },
                    &[t.name.as_str()],
                    "",
                    what,
                ),
            );
        }
    }
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
            // Already in plain words: the page says it without the path.
            let what =
                "Kueue has no physical capacity apart from quotas: the capacity is not exported";
            warnings.push(Problem::new(Path::root().key("capacity"), what).about(
                "",
                &[],
                "",
                what,
            ));
        }
    }
    warnings
}

/// The export of a scenario that was not imported from Kueue files.
pub(crate) fn export(
    sc: &Scenario,
    priority_classes: &[(String, i64)],
    opts: &ExportOptions,
) -> Exported {
    let resource = opts.resource.as_str();
    let ty = Types::new(sc, resource, &|_| None);
    let mut docs = Vec::new();
    for t in ty.used() {
        docs.push(Doc::new(resource_flavor(ty.flavor(t))));
    }
    let mut header = fresh_header(sc, resource);
    if sc.is_kueue() {
        for c in &sc.cohorts {
            docs.push(Doc::new(cohort(&ty, &c.name, &cohort_spec(&ty, c))));
        }
        for s in &sc.shares {
            docs.push(Doc::new(cluster_queue(&ty, &s.name, &queue_spec(&ty, s))));
        }
        if let Some(fs) = &sc.fair_sharing {
            docs.push(fair_sharing_doc(&fs.strategies));
        }
    } else {
        header.push_str(&format!(
            "# AWS Batch in Kueue's terms: all quota shares are ClusterQueues of one cohort, {AWS_COHORT},\n# whose own quota is the unallocated capacity. RESERVE = lendingLimit 0 and borrowingLimit 0;\n# LEND = borrowingLimit 0; LEND_AND_BORROW with borrow limit p% = borrowingLimit\n# floor(limit x p / 100) (none when unlimited). AWS always reclaims lent capacity\n# (reclaimWithinCohort: Any) and never preempts to borrow; in-share preemption is\n# withinClusterQueue LowerPriority. (Kueue offers borrowing jobs last, then by priority;\n# AWS offers by entitlement, then submit time.)\n"
        ));
        // The pool cohort's own quota: the capacity no share is allocated.
        let used = ty.used();
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
        let pool = CohortSpec {
            parent: None,
            weight: None,
            quotas: ty.quotas(&pool, &[], &[]),
        };
        docs.push(Doc::new(cohort(&ty, AWS_COHORT, &pool)));
        for s in &sc.shares {
            let (spec, what) = aws_queue_spec(&ty, s);
            docs.push(Doc::new(cluster_queue(&ty, &s.name, &spec)).with_comment(what));
        }
    }
    for (name, value) in priority_classes {
        docs.push(Doc::new(priority_class(name, *value)));
    }
    let mut text = header;
    text.push_str(&yaml_out::stream(&docs));
    Exported {
        text,
        warnings: warnings(sc, resource),
        empty_patch: false,
    }
}
