//! Kueue YAML (SPEC 13): ClusterQueue (v1beta2 `spec.cohortName`, v1beta1 `spec.cohort`),
//! Cohort (`spec.parentName`, v1alpha1 `spec.parent`), ResourceFlavor,
//! WorkloadPriorityClass and a Kueue Configuration's `fairSharing` (alone, or inside the
//! `kueue-manager-config` ConfigMap), read into a Kueue-model scenario; and the export
//! back, which for an AWS scenario spells out SPEC 12's translation.

use serde_json::{json, Map, Value};

use super::quantity::Quantity;
use super::{join, kind, ExportOptions, Exported, ImportOptions, Sink};
use crate::model::{
    BorrowLimit, FsStrategy, Queueing, ReclaimPolicy, Scenario, Strategy, WithinShare,
};
use crate::Problem;

/// The parser's budgets: a document nested deeper, or aliases replaying more, is refused.
fn yaml_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = 48;
    budget.max_aliases = 1_000;
    budget.max_anchors = 1_000;
    budget.max_documents = 10_000;
    budget.max_nodes = 1_000_000;
    budget.max_events = 2_000_000;
    budget.max_reader_input_bytes = Some(super::MAX_FILE_BYTES);
    let mut alias = serde_saphyr::options::AliasLimits::default();
    alias.max_total_replayed_events = 10_000;
    alias.max_replay_stack_depth = 8;
    let mut o = serde_saphyr::Options::default();
    o.budget = Some(budget);
    o.alias_limits = alias;
    o.strict_booleans = true;
    o.with_snippet = false;
    o
}

/// Parses a YAML stream into its documents (empty documents are skipped).
pub fn parse_documents(text: &str) -> Result<Vec<Value>, String> {
    serde_saphyr::from_multiple_with_options::<Value>(text, yaml_options()).map_err(|e| {
        let msg = e.to_string();
        let msg = msg.lines().next().unwrap_or("").to_string();
        format!("YAML: {msg}")
    })
}

/// A quota of one flavor of the counted resource, in the resource's units (GPUs).
struct FlavorQuota {
    flavor: String,
    path: String,
    nominal: u64,
    borrowing: Option<u64>,
    lending: Option<u64>,
}

/// A ClusterQueue or a Cohort, as read.
struct Node {
    name: String,
    path: String,
    file: usize,
    cohort: Option<String>,
    quotas: Vec<FlavorQuota>,
    covers_resource: bool,
    queueing: Option<&'static str>,
    preemption: Option<Value>,
    weight: Option<f64>,
    disabled: bool,
}

#[derive(Default)]
struct Collected {
    queues: Vec<Node>,
    cohorts: Vec<Node>,
    flavors: Vec<String>,
    priority_classes: Vec<(String, i64)>,
    /// `Some(None)`: fair sharing explicitly off.
    fair_sharing: Option<Option<Vec<&'static str>>>,
    fair_sharing_path: String,
}

pub(crate) fn import(
    sources: &mut [(Sink, &str)],
    opts: &ImportOptions,
) -> Result<(Value, Vec<Problem>), Vec<Problem>> {
    let mut c = Collected::default();
    for (fi, (sink, text)) in sources.iter_mut().enumerate() {
        let docs = match parse_documents(text) {
            Ok(d) => d,
            Err(e) => {
                sink.err("", e);
                continue;
            }
        };
        let mut r = Reader {
            sink,
            file: fi,
            resource: &opts.resource,
            c: &mut c,
        };
        for (i, d) in docs.iter().enumerate() {
            r.document(d, &format!("[{i}]"));
        }
    }
    if sources.iter().any(|(s, _)| !s.errors.is_empty()) {
        return Err(Vec::new());
    }
    build(c, sources, opts)
}

struct Reader<'a> {
    sink: &'a mut Sink,
    file: usize,
    resource: &'a str,
    c: &'a mut Collected,
}

fn obj(v: &Value) -> Option<&Map<String, Value>> {
    v.as_object()
}

impl Reader<'_> {
    fn document(&mut self, d: &Value, path: &str) {
        let Some(m) = obj(d) else {
            if !d.is_null() {
                self.sink.err(
                    path,
                    format!(
                        "must be a Kubernetes object (a mapping with kind), not {}",
                        kind(d)
                    ),
                );
            }
            return;
        };
        let k = match m.get("kind") {
            Some(Value::String(k)) => k.as_str(),
            Some(other) => {
                self.sink.err(
                    &join(path, "kind"),
                    format!("must be a string, not {}", kind(other)),
                );
                return;
            }
            None => {
                self.sink.err(&join(path, "kind"), "is required");
                return;
            }
        };
        let api = m.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        match k {
            "List" => match m.get("items") {
                Some(Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        self.document(item, &format!("{path}.items[{i}]"));
                    }
                }
                _ => self
                    .sink
                    .err(&join(path, "items"), "must be a list of objects"),
            },
            "ClusterQueue" | "Cohort" => self.node(m, path, k),
            "ResourceFlavor" => {
                if let Some(name) = self.name(m, path) {
                    if !self.c.flavors.contains(&name) {
                        self.c.flavors.push(name);
                    }
                }
                self.ignore_fields(m, path, k, &[]);
            }
            "WorkloadPriorityClass" => {
                let name = self.name(m, path);
                let value = match m.get("value") {
                    Some(v) => match v.as_i64().filter(|n| i32::try_from(*n).is_ok()) {
                        Some(n) => Some(n),
                        None => {
                            self.sink.err(
                                &join(path, "value"),
                                format!("must be a 32-bit integer, not {v}"),
                            );
                            None
                        }
                    },
                    None => {
                        self.sink.err(&join(path, "value"), "is required");
                        None
                    }
                };
                self.ignore_fields(m, path, k, &["value", "description"]);
                if let (Some(n), Some(v)) = (name, value) {
                    self.c.priority_classes.push((n, v));
                }
            }
            "Configuration" if api.starts_with("config.kueue.x-k8s.io") => {
                self.configuration(m, path)
            }
            "ConfigMap" => {
                // Kueue's own install keeps its Configuration in a ConfigMap's data.
                let mut found = false;
                if let Some(Value::Object(data)) = m.get("data") {
                    for (key, v) in data {
                        let Some(text) = v.as_str() else { continue };
                        if !text.contains("Configuration") {
                            continue;
                        }
                        let p = join(&join(path, "data"), key);
                        match parse_documents(text) {
                            Ok(docs) => {
                                for d in docs {
                                    if let Some(cm) = obj(&d) {
                                        if cm.get("kind").and_then(Value::as_str)
                                            == Some("Configuration")
                                        {
                                            found = true;
                                            self.configuration(cm, &p);
                                        }
                                    }
                                }
                            }
                            Err(e) => self.sink.err(&p, e),
                        }
                    }
                }
                if !found {
                    self.sink.ignore("", k, path);
                }
            }
            other => self.sink.ignore("", other, path),
        }
    }

    fn name(&mut self, m: &Map<String, Value>, path: &str) -> Option<String> {
        let p = join(path, "metadata.name");
        match m.get("metadata").and_then(|md| md.get("name")) {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(other) => {
                self.sink
                    .err(&p, format!("must be a non-empty string, not {other}"));
                None
            }
            None => {
                self.sink.err(&p, "is required");
                None
            }
        }
    }

    /// Top-level fields other than the object's own, and spec fields not in `known`.
    fn ignore_fields(&mut self, m: &Map<String, Value>, path: &str, k: &str, known: &[&str]) {
        for key in m.keys() {
            if ["apiVersion", "kind", "metadata", "spec"].contains(&key.as_str())
                || known.contains(&key.as_str())
            {
                continue;
            }
            self.sink.ignore(k, key, &join(path, key));
        }
    }

    fn configuration(&mut self, m: &Map<String, Value>, path: &str) {
        for key in m.keys() {
            if !["apiVersion", "kind", "fairSharing"].contains(&key.as_str()) {
                self.sink.ignore("Configuration", key, &join(path, key));
            }
        }
        let Some(fs) = m.get("fairSharing").filter(|v| !v.is_null()) else {
            return;
        };
        let fp = join(path, "fairSharing");
        let Some(fs) = obj(fs) else {
            self.sink
                .err(&fp, format!("must be a mapping, not {}", kind(fs)));
            return;
        };
        self.c.fair_sharing_path = self.sink_path(&fp);
        match fs.get("enable") {
            Some(Value::Bool(false)) => {
                self.c.fair_sharing = Some(None);
                return;
            }
            None | Some(Value::Bool(true)) | Some(Value::Null) => {}
            Some(other) => {
                self.sink.err(
                    &join(&fp, "enable"),
                    format!("must be true or false, not {other}"),
                );
                return;
            }
        }
        let mut strategies = Vec::new();
        match fs.get("preemptionStrategies") {
            None | Some(Value::Null) => {
                strategies = vec![
                    FsStrategy::LessThanOrEqualToFinalShare.as_str(),
                    FsStrategy::LessThanInitialShare.as_str(),
                ];
            }
            Some(Value::Array(list)) => {
                for (i, s) in list.iter().enumerate() {
                    match s.as_str() {
                        Some("LessThanOrEqualToFinalShare") => {
                            strategies.push(FsStrategy::LessThanOrEqualToFinalShare.as_str())
                        }
                        Some("LessThanInitialShare") => {
                            strategies.push(FsStrategy::LessThanInitialShare.as_str())
                        }
                        _ => self.sink.err(
                            &format!("{fp}.preemptionStrategies[{i}]"),
                            format!("must be LessThanOrEqualToFinalShare or LessThanInitialShare (got {s})"),
                        ),
                    }
                }
            }
            Some(other) => self.sink.err(
                &join(&fp, "preemptionStrategies"),
                format!("must be a list, not {}", kind(other)),
            ),
        }
        for key in fs.keys() {
            if !["enable", "preemptionStrategies"].contains(&key.as_str()) {
                self.sink.ignore("fairSharing", key, &join(&fp, key));
            }
        }
        self.c.fair_sharing = Some(Some(strategies));
    }

    fn sink_path(&self, p: &str) -> String {
        p.to_string()
    }

    fn quantity(&mut self, v: &Value, path: &str) -> Option<Quantity> {
        let q = Quantity::from_value(v);
        if q.is_none() {
            self.sink.err(path, format!("not a quantity ({v})"));
        }
        q
    }

    /// A counted quantity: a whole number.
    fn count(&mut self, v: &Value, path: &str) -> Option<u64> {
        let q = self.quantity(v, path)?;
        let n = q.whole();
        if n.is_none() {
            self.sink.err(
                path,
                format!("not a whole number of {} ({v})", self.resource),
            );
        }
        n
    }

    fn node(&mut self, m: &Map<String, Value>, path: &str, k: &str) {
        let before = self.sink.errors.len();
        let name = self.name(m, path);
        self.ignore_fields(m, path, k, &[]);
        let sp = join(path, "spec");
        let empty = Map::new();
        let spec = match m.get("spec") {
            None | Some(Value::Null) => &empty,
            Some(Value::Object(s)) => s,
            Some(other) => {
                self.sink
                    .err(&sp, format!("must be a mapping, not {}", kind(other)));
                return;
            }
        };
        let queue = k == "ClusterQueue";
        let known: &[&str] = if queue {
            &[
                "cohort",
                "cohortName",
                "resourceGroups",
                "queueingStrategy",
                "preemption",
                "fairSharing",
                "stopPolicy",
            ]
        } else {
            &["parent", "parentName", "resourceGroups", "fairSharing"]
        };
        for key in spec.keys() {
            if !known.contains(&key.as_str()) {
                self.sink.ignore(k, key, &join(&sp, key));
            }
        }
        let mut cohort = None;
        for key in if queue {
            ["cohortName", "cohort"]
        } else {
            ["parentName", "parent"]
        } {
            match spec.get(key) {
                None | Some(Value::Null) => {}
                Some(Value::String(s)) if s.is_empty() => {}
                Some(Value::String(s)) => {
                    if cohort.is_none() {
                        cohort = Some(s.clone());
                    }
                }
                Some(other) => self.sink.err(
                    &join(&sp, key),
                    format!("must be a cohort name, not {other}"),
                ),
            }
        }
        let (quotas, covers_resource) = self.resource_groups(spec, &sp);
        let queueing = match spec.get("queueingStrategy") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s == "BestEffortFIFO" => Some("best_effort_fifo"),
            Some(Value::String(s)) if s == "StrictFIFO" => Some("strict_fifo"),
            Some(other) => {
                self.sink.err(
                    &join(&sp, "queueingStrategy"),
                    format!("must be BestEffortFIFO or StrictFIFO (got {other})"),
                );
                None
            }
        };
        let preemption = match spec.get("preemption") {
            Some(v) if queue && !v.is_null() => self.preemption(v, &join(&sp, "preemption")),
            _ => None,
        };
        let weight = match spec.get("fairSharing") {
            Some(Value::Object(fs)) => {
                for key in fs.keys() {
                    if key != "weight" {
                        self.sink
                            .ignore("fairSharing", key, &join(&join(&sp, "fairSharing"), key));
                    }
                }
                match fs.get("weight") {
                    Some(w) if !w.is_null() => {
                        let p = join(&sp, "fairSharing.weight");
                        self.quantity(w, &p).map(|q| q.as_f64())
                    }
                    _ => None,
                }
            }
            None | Some(Value::Null) => None,
            Some(other) => {
                self.sink.err(
                    &join(&sp, "fairSharing"),
                    format!("must be a mapping, not {}", kind(other)),
                );
                None
            }
        };
        let disabled = match spec.get("stopPolicy") {
            None | Some(Value::Null) => false,
            Some(Value::String(s)) if s == "None" => false,
            Some(Value::String(s)) if s == "Hold" || s == "HoldAndDrain" => true,
            Some(other) => {
                self.sink.err(
                    &join(&sp, "stopPolicy"),
                    format!("must be None, Hold or HoldAndDrain (got {other})"),
                );
                false
            }
        };
        if self.sink.errors.len() != before {
            return;
        }
        let Some(name) = name else { return };
        let node = Node {
            name,
            path: path.to_string(),
            file: self.file,
            cohort,
            quotas,
            covers_resource,
            queueing,
            preemption,
            weight,
            disabled,
        };
        if queue {
            self.c.queues.push(node);
        } else {
            self.c.cohorts.push(node);
        }
    }

    /// `resourceGroups`: the counted resource's quota per flavor; other resources must parse
    /// and are dropped.
    fn resource_groups(&mut self, spec: &Map<String, Value>, sp: &str) -> (Vec<FlavorQuota>, bool) {
        let mut out: Vec<FlavorQuota> = Vec::new();
        let mut covers = false;
        let gp = join(sp, "resourceGroups");
        let groups = match spec.get("resourceGroups") {
            None | Some(Value::Null) => return (out, false),
            Some(Value::Array(g)) => g,
            Some(other) => {
                self.sink
                    .err(&gp, format!("must be a list, not {}", kind(other)));
                return (out, false);
            }
        };
        for (gi, g) in groups.iter().enumerate() {
            let gpath = format!("{gp}[{gi}]");
            let Some(g) = obj(g) else {
                self.sink
                    .err(&gpath, format!("must be a mapping, not {}", kind(g)));
                continue;
            };
            if let Some(Value::Array(cr)) = g.get("coveredResources") {
                if cr.iter().any(|r| r.as_str() == Some(self.resource)) {
                    covers = true;
                }
            }
            let fl = match g.get("flavors") {
                Some(Value::Array(f)) => f,
                Some(other) => {
                    self.sink.err(
                        &join(&gpath, "flavors"),
                        format!("must be a list, not {}", kind(other)),
                    );
                    continue;
                }
                None => continue,
            };
            for (fi, f) in fl.iter().enumerate() {
                let fpath = format!("{gpath}.flavors[{fi}]");
                let Some(f) = obj(f) else {
                    self.sink
                        .err(&fpath, format!("must be a mapping, not {}", kind(f)));
                    continue;
                };
                let flavor = match f.get("name") {
                    Some(Value::String(s)) if !s.is_empty() => s.clone(),
                    other => {
                        self.sink.err(
                            &join(&fpath, "name"),
                            format!(
                                "must be a flavor name, not {}",
                                other.map(kind).unwrap_or("missing")
                            ),
                        );
                        continue;
                    }
                };
                let rs = match f.get("resources") {
                    Some(Value::Array(r)) => r,
                    _ => {
                        self.sink.err(&join(&fpath, "resources"), "must be a list");
                        continue;
                    }
                };
                for (ri, r) in rs.iter().enumerate() {
                    let rpath = format!("{fpath}.resources[{ri}]");
                    let Some(r) = obj(r) else {
                        self.sink
                            .err(&rpath, format!("must be a mapping, not {}", kind(r)));
                        continue;
                    };
                    let rname = r.get("name").and_then(Value::as_str).unwrap_or("");
                    if rname.is_empty() {
                        self.sink
                            .err(&join(&rpath, "name"), "must be a resource name");
                        continue;
                    }
                    let counted = rname == self.resource;
                    let mut vals = [None, None, None];
                    for (j, key) in ["nominalQuota", "borrowingLimit", "lendingLimit"]
                        .into_iter()
                        .enumerate()
                    {
                        let Some(v) = r.get(key).filter(|v| !v.is_null()) else {
                            if j == 0 {
                                self.sink.err(&join(&rpath, key), "is required");
                            }
                            continue;
                        };
                        let p = join(&rpath, key);
                        vals[j] = if counted {
                            self.count(v, &p)
                        } else {
                            self.quantity(v, &p).map(|_| 0)
                        };
                    }
                    if !counted {
                        self.sink
                            .ignore("resource", &format!("resource {rname}"), &rpath);
                        continue;
                    }
                    covers = true;
                    if let Some(nominal) = vals[0] {
                        if out.iter().any(|q| q.flavor == flavor) {
                            self.sink.err(
                                &join(&fpath, "name"),
                                format!("flavor {flavor} is listed twice"),
                            );
                            continue;
                        }
                        out.push(FlavorQuota {
                            flavor: flavor.clone(),
                            path: rpath.clone(),
                            nominal,
                            borrowing: vals[1],
                            lending: vals[2],
                        });
                    }
                }
            }
        }
        (out, covers)
    }

    fn preemption(&mut self, v: &Value, pp: &str) -> Option<Value> {
        let Some(m) = obj(v) else {
            self.sink
                .err(pp, format!("must be a mapping, not {}", kind(v)));
            return None;
        };
        let mut out = Map::new();
        let pick =
            |s: &mut Sink, key: &str, allowed: &[(&str, &'static str)]| -> Option<&'static str> {
                let v = m.get(key).filter(|v| !v.is_null())?;
                let found = allowed.iter().find(|(k, _)| Some(*k) == v.as_str());
                if found.is_none() {
                    s.err(
                        &join(pp, key),
                        format!(
                            "must be one of {} (got {v})",
                            allowed
                                .iter()
                                .map(|(k, _)| *k)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                }
                found.map(|(_, s)| *s)
            };
        if let Some(w) = pick(
            self.sink,
            "withinClusterQueue",
            &[
                ("Never", "never"),
                ("LowerPriority", "lower_priority"),
                ("LowerOrNewerEqualPriority", "lower_or_newer_equal_priority"),
            ],
        ) {
            if w != "never" {
                out.insert("within_share".into(), json!(w));
            }
        }
        if let Some(r) = pick(
            self.sink,
            "reclaimWithinCohort",
            &[
                ("Never", "never"),
                ("LowerPriority", "lower_priority"),
                ("Any", "any"),
            ],
        ) {
            if r != "never" {
                out.insert("reclaim".into(), json!(r));
            }
        }
        for key in m.keys() {
            if ![
                "withinClusterQueue",
                "reclaimWithinCohort",
                "borrowWithinCohort",
            ]
            .contains(&key.as_str())
            {
                self.sink.ignore("preemption", key, &join(pp, key));
            }
        }
        if let Some(b) = m.get("borrowWithinCohort").filter(|v| !v.is_null()) {
            let bp = join(pp, "borrowWithinCohort");
            let Some(b) = obj(b) else {
                self.sink
                    .err(&bp, format!("must be a mapping, not {}", kind(b)));
                return Some(Value::Object(out));
            };
            let mut bo = Map::new();
            match b.get("policy").and_then(Value::as_str) {
                None | Some("Never") => {}
                Some("LowerPriority") => {
                    bo.insert("policy".into(), json!("lower_priority"));
                }
                Some(other) => self.sink.err(
                    &join(&bp, "policy"),
                    format!("must be Never or LowerPriority (got {other})"),
                ),
            }
            if let Some(t) = b.get("maxPriorityThreshold").filter(|v| !v.is_null()) {
                match t.as_i64().filter(|n| i32::try_from(*n).is_ok()) {
                    Some(n) => {
                        bo.insert("max_priority_threshold".into(), json!(n));
                    }
                    None => self.sink.err(
                        &join(&bp, "maxPriorityThreshold"),
                        format!("must be a 32-bit integer, not {t}"),
                    ),
                }
            }
            if !bo.is_empty() {
                out.insert("borrow_within_cohort".into(), Value::Object(bo));
            }
        }
        Some(Value::Object(out))
    }
}

/// Turns what was read into scenario JSON.
fn build(
    c: Collected,
    sources: &mut [(Sink, &str)],
    opts: &ImportOptions,
) -> Result<(Value, Vec<Problem>), Vec<Problem>> {
    let mut errors = Vec::new();
    if c.queues.is_empty() {
        return Err(vec![Problem::new("", "no ClusterQueue found")]);
    }
    // Flavors carrying the counted resource, in first-seen order.
    let mut flavors: Vec<(String, usize, String)> = Vec::new();
    for n in c.queues.iter().chain(&c.cohorts) {
        for q in &n.quotas {
            if !flavors.iter().any(|(f, _, _)| *f == q.flavor) {
                flavors.push((q.flavor.clone(), n.file, q.path.clone()));
            }
        }
    }
    // Flavor -> (instance type, GPUs per instance, custom?).
    let mut types: Vec<(String, u64, bool)> = Vec::new();
    let mut type_of: Vec<(String, String, u64)> = Vec::new();
    for (f, file, path) in &flavors {
        if !c.flavors.contains(f) {
            sources[*file].0.warn(
                path,
                format!("flavor {f} has no ResourceFlavor document (it is still counted)"),
            );
        }
        let mapped = opts
            .flavor_map
            .iter()
            .find(|(k, _)| k == f)
            .map(|(_, t)| t.clone());
        let (name, gpus, custom) =
            match mapped.or_else(|| crate::catalogue::lookup(f).map(|t| t.name)) {
                Some(t) => {
                    let g = crate::catalogue::lookup(&t)
                        .map(|t| t.gpus)
                        .unwrap_or(1)
                        .max(1);
                    (t, g as u64, false)
                }
                None => (f.clone(), 1, true),
            };
        if let Some((other, _, _)) = type_of.iter().find(|(_, t, _)| *t == name) {
            errors.push(Problem::new(
                path.clone(),
                format!("flavors {other} and {f} both map to instance type {name}"),
            ));
            continue;
        }
        if !types.iter().any(|(t, _, _)| *t == name) {
            types.push((name.clone(), gpus, custom));
        }
        type_of.push((f.clone(), name, gpus));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut warnings = Vec::new();
    let resource = &opts.resource;
    let instances = |sink: &mut Sink, q: u64, flavor: &str, path: &str| -> (String, u64) {
        let (_, t, g) = type_of
            .iter()
            .find(|(f, _, _)| f == flavor)
            .cloned()
            .unwrap_or_default();
        let g = g.max(1);
        if !q.is_multiple_of(g) {
            sink.warn(
                path,
                format!(
                    "{q} {resource} is not a whole number of {t} ({g} per instance): floored to {}",
                    q / g
                ),
            );
        }
        (t, q / g)
    };
    let limits_json = |sink: &mut Sink, n: &Node| -> [Map<String, Value>; 3] {
        let mut out = [Map::new(), Map::new(), Map::new()];
        for q in &n.quotas {
            let (t, v) = instances(sink, q.nominal, &q.flavor, &join(&q.path, "nominalQuota"));
            out[0].insert(t.clone(), json!(v));
            if let Some(b) = q.borrowing {
                let (_, v) = instances(sink, b, &q.flavor, &join(&q.path, "borrowingLimit"));
                out[1].insert(t.clone(), json!(v));
            }
            if let Some(l) = q.lending {
                let (_, v) = instances(sink, l, &q.flavor, &join(&q.path, "lendingLimit"));
                out[2].insert(t.clone(), json!(v));
            }
        }
        out
    };

    let fair = matches!(c.fair_sharing, Some(Some(_)));
    let mut shares = Vec::new();
    let mut cohort_names: Vec<String> = c.cohorts.iter().map(|n| n.name.clone()).collect();
    let mut named_only: Vec<String> = Vec::new();
    let mut mention = |name: &str, cohort_names: &mut Vec<String>| {
        if !cohort_names.iter().any(|n| n == name) {
            cohort_names.push(name.to_string());
            named_only.push(name.to_string());
        }
    };
    for n in &c.queues {
        let sink = &mut sources[n.file].0;
        if n.quotas.is_empty() {
            sink.warn(
                &n.path,
                format!(
                    "ClusterQueue {} has no quota of {resource}: not imported{}",
                    n.name,
                    if n.covers_resource {
                        ""
                    } else {
                        " (--resource names the counted resource)"
                    }
                ),
            );
            continue;
        }
        let [limits, mut borrowing, mut lending] = limits_json(sink, n);
        let mut m = Map::new();
        m.insert("name".into(), json!(n.name));
        m.insert("limits".into(), Value::Object(limits));
        if let Some(co) = &n.cohort {
            m.insert("cohort".into(), json!(co));
            mention(co, &mut cohort_names);
        } else if !borrowing.is_empty() || !lending.is_empty() {
            sink.warn(
                &n.path,
                "ignored: borrowingLimit and lendingLimit of a ClusterQueue without a cohort",
            );
            borrowing.clear();
            lending.clear();
        }
        if !borrowing.is_empty() {
            m.insert("borrowing_limit".into(), Value::Object(borrowing));
        }
        if !lending.is_empty() {
            m.insert("lending_limit".into(), Value::Object(lending));
        }
        if let Some(q) = n.queueing {
            if q != "best_effort_fifo" {
                m.insert("queueing".into(), json!(q));
            }
        }
        if let Some(p) = &n.preemption {
            if fair && p.get("borrow_within_cohort").is_some() {
                sink.warn(
                    &join(&n.path, "spec.preemption.borrowWithinCohort"),
                    "is ignored under fair sharing, as in Kueue",
                );
            }
            if p.as_object().is_some_and(|o| !o.is_empty()) {
                m.insert("preemption".into(), p.clone());
            }
        }
        if let Some(w) = n.weight {
            m.insert("weight".into(), json!(w));
        }
        if n.disabled {
            m.insert("state".into(), json!("DISABLED"));
        }
        shares.push(Value::Object(m));
    }
    let mut cohorts = Vec::new();
    for n in &c.cohorts {
        let sink = &mut sources[n.file].0;
        let [limits, borrowing, lending] = limits_json(sink, n);
        let mut m = Map::new();
        m.insert("name".into(), json!(n.name));
        if let Some(p) = &n.cohort {
            m.insert("parent".into(), json!(p));
        }
        if !limits.is_empty() {
            m.insert("limits".into(), Value::Object(limits));
        }
        if !borrowing.is_empty() {
            m.insert("borrowing_limit".into(), Value::Object(borrowing));
        }
        if !lending.is_empty() {
            m.insert("lending_limit".into(), Value::Object(lending));
        }
        if let Some(w) = n.weight {
            m.insert("weight".into(), json!(w));
        }
        cohorts.push(m);
    }
    for n in &c.cohorts {
        if let Some(p) = &n.cohort {
            mention(p, &mut cohort_names);
        }
    }
    for name in named_only {
        cohorts.push(Map::from_iter([("name".to_string(), json!(name))]));
    }
    for (sink, _) in sources.iter_mut() {
        warnings.append(&mut sink.warnings);
    }
    if shares.is_empty() {
        return Err(vec![Problem::new(
            "",
            format!(
                "no ClusterQueue has a quota of {resource} (--resource names the counted resource)"
            ),
        )]);
    }
    let mut sc = Map::new();
    sc.insert("format".into(), json!("quotalab/v1"));
    sc.insert("name".into(), json!("Kueue ClusterQueues"));
    sc.insert("model".into(), json!("kueue"));
    let custom: Vec<Value> = types
        .iter()
        .filter(|(_, _, c)| *c)
        .map(|(t, _, _)| json!({"name": t, "gpus": 1, "usd_per_hour": 0}))
        .collect();
    if !custom.is_empty() {
        sc.insert("instance_types".into(), Value::Array(custom));
    }
    sc.insert("shares".into(), Value::Array(shares));
    if !cohorts.is_empty() {
        sc.insert(
            "cohorts".into(),
            Value::Array(cohorts.into_iter().map(Value::Object).collect()),
        );
    }
    if let Some(Some(s)) = &c.fair_sharing {
        sc.insert("fair_sharing".into(), json!({"strategies": s}));
    }
    if !c.priority_classes.is_empty() {
        let m: Map<String, Value> = c
            .priority_classes
            .iter()
            .map(|(n, v)| (n.clone(), json!(v)))
            .collect();
        sc.insert("priority_classes".into(), Value::Object(m));
    }
    Ok((Value::Object(sc), warnings))
}

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

/// The pool cohort of an exported AWS scenario.
pub const AWS_COHORT: &str = "quotalab";

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
                format!("instance_types.{}", t.name),
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
                "capacity",
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
            if spec.is_empty() {
                out.push_str(" {}\n");
            } else {
                out.push('\n');
                out.push_str(&spec);
            }
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
        if spec.is_empty() {
            out.push_str(" {}\n");
        } else {
            out.push('\n');
            out.push_str(&spec);
        }
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
