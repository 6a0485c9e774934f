//! Reading Kueue YAML documents (SPEC 13): each object checked and collected for the build.

use serde_json::{json, Map, Value};

use super::{parse_documents, Collected, FlavorQuota, Node};
use crate::config::quantity::Quantity;
use crate::config::{join, kind, Sink};
use crate::input::model::FsStrategy;

/// A nominal quota this large is a stand-in for "no limit" (SPEC 16: warned about).
const HUGE_QUOTA: u64 = 1_000_000;

pub(super) struct Reader<'a> {
    pub(super) sink: &'a mut Sink,
    pub(super) file: usize,
    pub(super) resource: &'a str,
    pub(super) c: &'a mut Collected,
}

fn obj(v: &Value) -> Option<&Map<String, Value>> {
    v.as_object()
}

impl Reader<'_> {
    pub(super) fn document(&mut self, d: &Value, path: &str) {
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
        // Warnings inside the document name it (on the page: "ClusterQueue team-a-cq").
        if let Some(name) = m
            .get("metadata")
            .and_then(|md| md.get("name"))
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
        {
            self.sink.object(path, k, name);
        }
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
        // Kueue's Configuration has no name: the page says "Configuration: namespace ignored".
        self.sink.object(path, "Configuration", "");
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
        match n {
            None => self.sink.err(
                path,
                format!("not a whole number of {} ({v})", self.resource),
            ),
            Some(n) if n > crate::input::model::limits::MAX_INSTANCES => {
                self.sink.err(
                    path,
                    format!(
                        "{n} {} ({v}) is more than the model counts (at most {} per flavor); a quantity in bytes (Gi, Mi) is not a count of {}",
                        self.resource,
                        crate::input::digits::group_digits(crate::input::model::limits::MAX_INSTANCES),
                        self.resource
                    ),
                );
                return None;
            }
            Some(_) => {}
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
            if key == "requestableResources" {
                // Kueue v1alpha1 (before 0.3): quotas as `quota: {min, max}` per flavor.
                self.sink.err(
                    &join(&sp, key),
                    "is Kueue's API before v1beta1 (requestableResources with quota.min and quota.max): write it as v1beta1 resourceGroups (coveredResources, then per flavor each resource's nominalQuota = quota.min and borrowingLimit = quota.max - quota.min) and import that",
                );
            } else if !known.contains(&key.as_str()) {
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
                self.sink.place(&fpath, format!("flavor {flavor}"));
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
                    self.sink
                        .place(&rpath, format!("{rname} in flavor {flavor}"));
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
                    if let Some(nominal) = vals[0].filter(|n| *n >= HUGE_QUOTA) {
                        // A stand-in for "no limit" (on-demand or autoscaled flavors).
                        self.sink.warn(
                            &join(&rpath, "nominalQuota"),
                            format!(
                                "{nominal} {rname} on flavor {flavor} reads as \"no limit\" (an on-demand or autoscaled flavor): it is imported as that much quota, and as that much capacity unless the scenario's capacity says what the cluster can really reach"
                            ),
                        );
                    }
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
