//! Exports that are safe to apply (SPEC 16): a scenario imported from Kueue files keeps the
//! documents it was read from (`source.kueue`), and its export is those documents with only
//! what the scenario changed written over them. Every field Quota Lab does not model
//! (namespaceSelector, other resources' quotas, flavors' node labels and taints, admission
//! checks, LocalQueues, ...) stays exactly as it was read; `--patch` prints only the changed
//! modelled fields, one JSON merge patch per object.
//!
//! What changed is decided on the model, not on text: the documents are imported again and
//! each share, cohort and priority class is compared with the scenario's, part by part
//! (cohort, queueing, preemption, weight, stop policy, quotas).

use serde_json::{json, Map, Value};

use super::export::{
    cluster_queue, cohort, cohort_spec, preemption_value, priority_class, queue_spec,
    resource_flavor, strategy_name, warnings, CohortSpec, QueueSpec, Types, API,
};
use crate::config::yaml_out::{self, Doc};
use crate::config::{ExportOptions, Exported, ImportOptions};
use crate::input::model::{Cohort, Scenario, Share};
use crate::input::path::Path;
use crate::Problem;

/// The scenario field that keeps what an import read.
pub const SOURCE_FIELD: &str = "source";

/// What a Kueue import keeps of its files (the scenario's `source.kueue`).
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// The counted resource (`--resource`).
    pub resource: String,
    /// `--flavor-map`: flavor -> instance type.
    pub flavor_map: Vec<(String, String)>,
    /// Every object read, in file and document order (the items of a `List` one by one).
    pub documents: Vec<Value>,
}

impl Source {
    /// `source.kueue` as the scenario stores it.
    pub fn to_value(&self) -> Value {
        let map: Map<String, Value> = self
            .flavor_map
            .iter()
            .map(|(f, t)| (f.clone(), json!(t)))
            .collect();
        let mut m = Map::new();
        m.insert("resource".into(), json!(self.resource));
        if !map.is_empty() {
            m.insert("flavor_map".into(), Value::Object(map));
        }
        m.insert("documents".into(), Value::Array(self.documents.clone()));
        json!({ "kueue": Value::Object(m) })
    }

    /// Reads `source.kueue` back; `None` when the scenario has none, a problem when it is
    /// not what an import writes.
    pub fn read(scenario: &Value) -> Option<Result<Source, Problem>> {
        let k = scenario.get(SOURCE_FIELD)?.get("kueue")?;
        let at = Path::root().key(SOURCE_FIELD).key("kueue");
        let bad = |what: &str, msg: &str| Some(Err(Problem::new(at.key(what), msg.to_string())));
        let Some(resource) = k.get("resource").and_then(Value::as_str) else {
            return bad("resource", "must be the counted resource's name");
        };
        let mut flavor_map = Vec::new();
        match k.get("flavor_map") {
            None => {}
            Some(Value::Object(m)) => {
                for (f, t) in m {
                    let Some(t) = t.as_str() else {
                        return bad("flavor_map", "must map flavor names to instance types");
                    };
                    flavor_map.push((f.clone(), t.to_string()));
                }
            }
            Some(_) => return bad("flavor_map", "must map flavor names to instance types"),
        }
        let Some(Value::Array(documents)) = k.get("documents") else {
            return bad("documents", "must be the list of the imported objects");
        };
        if let Some(i) = documents.iter().position(|d| !d.is_object()) {
            return Some(Err(Problem::new(
                at.key("documents").idx(i),
                "must be a Kubernetes object".to_string(),
            )));
        }
        Some(Ok(Source {
            resource: resource.to_string(),
            flavor_map,
            documents: documents.clone(),
        }))
    }

    fn options(&self) -> ImportOptions {
        ImportOptions {
            queue: None,
            resource: self.resource.clone(),
            flavor_map: self.flavor_map.clone(),
        }
    }
}

/// A kind of object the scenario models, as `kubectl` names it.
fn kubectl_kind(kind: &str) -> &'static str {
    match kind {
        "ClusterQueue" => "clusterqueue",
        "Cohort" => "cohort",
        _ => "workloadpriorityclass",
    }
}

fn name_of(doc: &Value) -> &str {
    doc.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn kind_of(doc: &Value) -> &str {
    doc.get("kind").and_then(Value::as_str).unwrap_or("")
}

/// The modelled parts of a ClusterQueue or Cohort that differ between two readings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Changed {
    cohort: bool,
    queueing: bool,
    preemption: bool,
    weight: bool,
    stop: bool,
    quotas: bool,
}

impl Changed {
    const ALL: Changed = Changed {
        cohort: true,
        queueing: true,
        preemption: true,
        weight: true,
        stop: true,
        quotas: true,
    };

    fn any(self) -> bool {
        self != Changed::default()
    }

    /// The names of what changed, for the header.
    fn names(self, kind: &str) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.cohort {
            v.push(if kind == "Cohort" { "parent" } else { "cohort" });
        }
        if self.queueing {
            v.push("queueingStrategy");
        }
        if self.preemption {
            v.push("preemption");
        }
        if self.weight {
            v.push("fairSharing.weight");
        }
        if self.stop {
            v.push("stopPolicy");
        }
        if self.quotas {
            v.push("quotas");
        }
        v
    }
}

/// A node's quota per instance type name: (nominal, borrowing, lending) in instances.
type Quotas = Vec<(String, Option<u64>, Option<u64>, Option<u64>)>;

fn quotas_by_name(
    sc: &Scenario,
    limits: &[Option<u64>],
    bl: &[Option<u64>],
    ll: &[Option<u64>],
) -> Quotas {
    let get = |v: &[Option<u64>], t: usize| v.get(t).copied().flatten();
    let mut out: Quotas = sc
        .instance_types
        .iter()
        .enumerate()
        .filter(|(t, _)| get(limits, *t).is_some())
        .map(|(t, ty)| (ty.name.clone(), get(limits, t), get(bl, t), get(ll, t)))
        .collect();
    crate::sort::compact_by(&mut out, &Ord::cmp);
    out
}

fn cohort_name(sc: &Scenario, c: Option<usize>) -> Option<&str> {
    c.map(|c| sc.cohorts[c].name.as_str())
}

fn share_changes(new: &Scenario, s: &Share, old: &Scenario, o: &Share) -> Changed {
    let (k, ok) = (&s.kueue, &o.kueue);
    Changed {
        cohort: cohort_name(new, k.cohort) != cohort_name(old, ok.cohort),
        queueing: k.queueing != ok.queueing,
        preemption: k.preemption != ok.preemption,
        weight: k.weight != ok.weight,
        stop: s.enabled != o.enabled,
        quotas: quotas_by_name(new, &s.limits, &k.borrowing_limit, &k.lending_limit)
            != quotas_by_name(old, &o.limits, &ok.borrowing_limit, &ok.lending_limit),
    }
}

fn cohort_changes(new: &Scenario, c: &Cohort, old: &Scenario, o: &Cohort) -> Changed {
    Changed {
        cohort: cohort_name(new, c.parent) != cohort_name(old, o.parent),
        weight: c.weight != o.weight,
        quotas: quotas_by_name(new, &c.limits, &c.borrowing_limit, &c.lending_limit)
            != quotas_by_name(old, &o.limits, &o.borrowing_limit, &o.lending_limit),
        ..Changed::default()
    }
}

/// Where an object's parts are written: in the whole object (`spec` of the document), or
/// in a merge patch (absent parts become `null`, which a merge patch reads as "remove").
struct Writer<'a> {
    spec: &'a mut Map<String, Value>,
    patch: bool,
}

impl Writer<'_> {
    fn set(&mut self, key: &str, v: Option<Value>) {
        match v {
            Some(v) => {
                self.spec.insert(key.to_string(), v);
            }
            None if self.patch => {
                self.spec.insert(key.to_string(), Value::Null);
            }
            None => {
                self.spec.remove(key);
            }
        }
    }

    fn weight(&mut self, w: Option<Value>, original: &Map<String, Value>) {
        let mut fs = original
            .get("fairSharing")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        if self.patch {
            fs = Map::new();
        }
        // Kueue's default weight is 1: an explicit 1 where the object gave one.
        fs.insert("weight".into(), w.unwrap_or_else(|| json!("1")));
        self.spec.insert("fairSharing".into(), Value::Object(fs));
    }
}

/// The key naming a ClusterQueue's cohort or a Cohort's parent in this document's version:
/// v1beta1 `spec.cohort` and v1alpha1 `spec.parent`, v1beta2 `cohortName` / `parentName`.
fn link_key(doc: &Value, spec: &Map<String, Value>) -> &'static str {
    let api = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    match kind_of(doc) {
        "Cohort" if spec.contains_key("parent") || api.ends_with("v1alpha1") => "parent",
        "Cohort" => "parentName",
        _ if spec.contains_key("cohort") || api.ends_with("v1beta1") => "cohort",
        _ => "cohortName",
    }
}

/// Writes the scenario's quotas of the counted resource into `spec.resourceGroups`,
/// keeping every other resource and flavor field. A flavor new to the object is added to
/// the group that covers the resource, other covered resources at 0 (with a warning).
fn write_quotas(
    ty: &Types,
    quotas: &[super::export::QuotaOut],
    old: &[String],
    groups: &mut Vec<Value>,
    at: &str,
    object: (&str, &str),
    warnings: &mut Vec<Problem>,
) {
    let resource = ty.resource;
    let gi = groups.iter().position(|g| {
        g.get("coveredResources")
            .and_then(Value::as_array)
            .is_some_and(|c| c.iter().any(|r| r.as_str() == Some(resource)))
    });
    let gi = match gi {
        Some(i) => i,
        None => {
            groups.push(json!({"coveredResources": [resource], "flavors": []}));
            groups.len() - 1
        }
    };
    let group = &mut groups[gi];
    let covered: Vec<String> = group
        .get("coveredResources")
        .and_then(Value::as_array)
        .map(|c| {
            c.iter()
                .filter_map(|r| r.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let Some(flavors) = group.get_mut("flavors").and_then(Value::as_array_mut) else {
        return;
    };
    let entry_of = |f: &Value| f.get("name").and_then(Value::as_str).map(str::to_string);
    for q in quotas {
        let flavor = ty.flavor(q.t).to_string();
        let entry = ty.resource_entry(q);
        match flavors
            .iter_mut()
            .find(|f| entry_of(f).as_deref() == Some(flavor.as_str()))
        {
            Some(f) => {
                let Some(res) = f.get_mut("resources").and_then(Value::as_array_mut) else {
                    continue;
                };
                match res
                    .iter_mut()
                    .find(|r| r.get("name").and_then(Value::as_str) == Some(resource))
                {
                    Some(Value::Object(r)) => {
                        for k in ["nominalQuota", "borrowingLimit", "lendingLimit"] {
                            r.remove(k);
                        }
                        // Keep the entry's own key order: name first, then the limits.
                        for (k, v) in entry.into_iter().skip(1) {
                            r.insert(k, v);
                        }
                    }
                    _ => res.push(Value::Object(entry)),
                }
            }
            None => {
                let resources: Vec<Value> = covered
                    .iter()
                    .map(|r| {
                        if r == resource {
                            Value::Object(entry.clone())
                        } else {
                            json!({"name": r, "nominalQuota": 0})
                        }
                    })
                    .collect();
                if covered.len() > 1 {
                    let others = covered
                        .iter()
                        .filter(|r| *r != resource)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ");
                    let rest = format!(
                        "its other covered resources ({others}) are written with a nominalQuota of 0"
                    );
                    // The page names the object (issue #34); the CLI keeps the path.
                    let (kind, name) = object;
                    let field = format!("flavor {flavor}");
                    warnings.push(
                        Problem::new(
                            Path::named(at.to_string()),
                            format!("{field} is new to this object: {rest}"),
                        )
                        .about(
                            kind,
                            &[name],
                            &field,
                            format!("is new to it: {rest}"),
                        ),
                    );
                }
                flavors.push(json!({"name": flavor, "resources": resources}));
            }
        }
    }
    // Flavors the object had and the scenario no longer gives a quota: 0 of the resource
    // (removing the flavor would change the other resources).
    let now: Vec<String> = quotas.iter().map(|q| ty.flavor(q.t).to_string()).collect();
    for f in flavors.iter_mut() {
        let Some(name) = entry_of(f) else { continue };
        if now.contains(&name) || !old.contains(&name) {
            continue;
        }
        if let Some(res) = f.get_mut("resources").and_then(Value::as_array_mut) {
            for r in res.iter_mut() {
                if r.get("name").and_then(Value::as_str) == Some(resource) {
                    if let Value::Object(r) = r {
                        r.remove("borrowingLimit");
                        r.remove("lendingLimit");
                        r.insert("nominalQuota".into(), json!(0));
                    }
                }
            }
        }
    }
}

/// The flavors an object gives a quota of the counted resource in its document.
fn flavors_with_resource(spec: &Map<String, Value>, resource: &str) -> Vec<String> {
    let mut out = Vec::new();
    for g in spec
        .get("resourceGroups")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for f in g
            .get("flavors")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let has = f
                .get("resources")
                .and_then(Value::as_array)
                .is_some_and(|r| {
                    r.iter()
                        .any(|r| r.get("name").and_then(Value::as_str) == Some(resource))
                });
            if let (true, Some(n)) = (has, f.get("name").and_then(Value::as_str)) {
                out.push(n.to_string());
            }
        }
    }
    out
}

/// The parts of a node to write: a ClusterQueue's or a Cohort's.
enum Parts<'a> {
    Queue(&'a QueueSpec, &'a Share),
    Cohort(&'a CohortSpec),
}

/// Writes the changed parts of one ClusterQueue or Cohort: into the document itself, or
/// (with `patch`) into a merge patch.
fn write_node(
    ty: &Types,
    doc: &Value,
    parts: Parts,
    changed: Changed,
    patch: bool,
    at: &str,
    warnings: &mut Vec<Problem>,
) -> Value {
    let original = doc
        .get("spec")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut spec = if patch { Map::new() } else { original.clone() };
    let link = link_key(doc, &original);
    let mut w = Writer {
        spec: &mut spec,
        patch,
    };
    let (link_to, weight, quotas) = match &parts {
        Parts::Queue(q, _) => (q.cohort.clone(), q.weight.clone(), &q.quotas),
        Parts::Cohort(c) => (c.parent.clone(), c.weight.clone(), &c.quotas),
    };
    if changed.cohort {
        w.set(link, link_to.map(Value::String));
    }
    if changed.weight {
        w.weight(weight, &original);
    }
    if let Parts::Queue(q, s) = &parts {
        if changed.queueing {
            w.set("queueingStrategy", Some(q.queueing.clone()));
        }
        if changed.preemption {
            w.set(
                "preemption",
                preemption_value(&s.kueue.preemption, true).or_else(|| q.preemption.clone()),
            );
        }
        if changed.stop {
            w.set(
                "stopPolicy",
                Some(json!(if q.hold { "Hold" } else { "None" })),
            );
        }
    }
    if changed.quotas {
        let mut groups = original
            .get("resourceGroups")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let old = flavors_with_resource(&original, ty.resource);
        let object = (kind_of(doc), name_of(doc));
        write_quotas(ty, quotas, &old, &mut groups, at, object, warnings);
        // A merge patch replaces a list whole: the patch carries every group.
        spec.insert("resourceGroups".into(), Value::Array(groups));
    }
    let mut out = Map::new();
    if let Some(api) = doc.get("apiVersion") {
        out.insert("apiVersion".into(), api.clone());
    }
    out.insert("kind".into(), json!(kind_of(doc)));
    if patch {
        out.insert("metadata".into(), json!({"name": name_of(doc)}));
    } else if let Some(m) = doc.get("metadata") {
        out.insert("metadata".into(), m.clone());
    }
    for (k, v) in doc.as_object().into_iter().flatten() {
        if !patch && !out.contains_key(k) && k != "spec" {
            out.insert(k.clone(), v.clone());
        }
    }
    out.insert("spec".into(), Value::Object(spec));
    if !patch {
        // Keep the document's own key order.
        let mut ordered = Map::new();
        for (k, _) in doc.as_object().into_iter().flatten() {
            if let Some(v) = out.remove(k) {
                ordered.insert(k.clone(), v);
            }
        }
        ordered.append(&mut out);
        return Value::Object(ordered);
    }
    Value::Object(out)
}

/// The export of a scenario over the Kueue documents it was imported from (SPEC 16); with
/// `patch`, only the changed modelled fields as one merge patch per object.
pub(crate) fn export(
    sc: &Scenario,
    priority_classes: &[(String, i64)],
    src: &Source,
    opts: &ExportOptions,
    patch: bool,
) -> Result<Exported, Vec<Problem>> {
    let resource = src.resource.as_str();
    if opts.resource != resource && opts.resource != ImportOptions::DEFAULT_RESOURCE {
        return Err(vec![Problem::new(
            Path::named("--resource"),
            format!(
                "the scenario was imported counting {resource}: its export counts the same resource"
            ),
        )]);
    }
    // The documents as they were imported, to tell what the scenario changed.
    let base = crate::config::import_with(&[("", "")], |sources| {
        super::import_documents(sources, &src.documents, &src.options())
    })
    .and_then(|i| crate::input::validate::load(&i.scenario_json).map(|l| l.scenario))
    .map_err(|problems| {
        problems
            .into_iter()
            .map(|p| {
                Problem::new(
                    Path::named(format!("source.kueue.documents: {}", p.path)),
                    format!("{} (the imported documents no longer import)", p.message),
                )
            })
            .collect::<Vec<_>>()
    })?;
    let fair_sharing_changed = fair_sharing_differs(sc, &base).then(|| fair_sharing_words(sc));
    let flavor_of = |t: &str| {
        src.flavor_map
            .iter()
            .find(|(_, ty)| ty == t)
            .map(|(f, _)| f.clone())
    };
    let ty = Types::new(sc, resource, &flavor_of);
    let mut warns = warnings(sc, resource);
    let mut docs: Vec<Doc> = Vec::new();
    let mut changed_list: Vec<String> = Vec::new();
    let mut removed: Vec<String> = Vec::new();
    let mut unchanged = 0usize;
    let mut seen_queues: Vec<String> = Vec::new();
    let mut seen_cohorts: Vec<String> = Vec::new();
    let mut seen_classes: Vec<String> = Vec::new();
    let mut seen_flavors: Vec<String> = Vec::new();
    let cls_value = |n: &str| {
        priority_classes
            .iter()
            .find(|(c, _)| c == n)
            .map(|(_, v)| *v)
    };
    for (i, doc) in src.documents.iter().enumerate() {
        let (kind, name) = (kind_of(doc), name_of(doc).to_string());
        let at = format!("source.kueue.documents[{i}] ({kind} {name})");
        let written: Option<(Value, Changed)> = match kind {
            "ClusterQueue" => {
                seen_queues.push(name.clone());
                match sc.shares.iter().find(|s| s.name == name) {
                    None => {
                        if base.shares.iter().any(|s| s.name == name) {
                            removed.push(format!("clusterqueue {name}"));
                            continue;
                        }
                        None
                    }
                    Some(s) => {
                        let changed = match base.shares.iter().find(|o| o.name == name) {
                            Some(o) => share_changes(sc, s, &base, o),
                            None => Changed::ALL,
                        };
                        let q = queue_spec(&ty, s);
                        changed.any().then(|| {
                            let v = write_node(
                                &ty,
                                doc,
                                Parts::Queue(&q, s),
                                changed,
                                patch,
                                &at,
                                &mut warns,
                            );
                            (v, changed)
                        })
                    }
                }
            }
            "Cohort" => {
                seen_cohorts.push(name.clone());
                match sc.cohorts.iter().find(|c| c.name == name) {
                    None => {
                        if base.cohorts.iter().any(|c| c.name == name) {
                            removed.push(format!("cohort {name}"));
                            continue;
                        }
                        None
                    }
                    Some(c) => {
                        let changed = match base.cohorts.iter().find(|o| o.name == name) {
                            Some(o) => cohort_changes(sc, c, &base, o),
                            None => Changed {
                                cohort: true,
                                weight: true,
                                quotas: true,
                                ..Changed::default()
                            },
                        };
                        let cs = cohort_spec(&ty, c);
                        changed.any().then(|| {
                            let v = write_node(
                                &ty,
                                doc,
                                Parts::Cohort(&cs),
                                changed,
                                patch,
                                &at,
                                &mut warns,
                            );
                            (v, changed)
                        })
                    }
                }
            }
            "WorkloadPriorityClass" => {
                seen_classes.push(name.clone());
                match cls_value(&name) {
                    None => {
                        removed.push(format!("workloadpriorityclass {name}"));
                        continue;
                    }
                    Some(v) if doc.get("value").and_then(Value::as_i64) != Some(v) => {
                        let mut d = if patch {
                            let mut m = Map::new();
                            m.insert(
                                "apiVersion".into(),
                                doc.get("apiVersion").cloned().unwrap_or(json!(API)),
                            );
                            m.insert("kind".into(), json!(kind));
                            m.insert("metadata".into(), json!({"name": name}));
                            m
                        } else {
                            doc.as_object().cloned().unwrap_or_default()
                        };
                        d.insert("value".into(), json!(v));
                        Some((
                            Value::Object(d),
                            Changed {
                                quotas: true,
                                ..Changed::default()
                            },
                        ))
                    }
                    Some(_) => None,
                }
            }
            "ResourceFlavor" => {
                seen_flavors.push(name.clone());
                None
            }
            _ => None,
        };
        match written {
            Some((v, changed)) => {
                let what = if kind == "WorkloadPriorityClass" {
                    vec!["value"]
                } else {
                    changed.names(kind)
                };
                changed_list.push(format!("{kind} {name} ({})", what.join(", ")));
                let mut d = Doc::new(v);
                if patch {
                    d = d.with_comment(format!(
                        "kubectl patch {} {name} --type merge --patch-file FILE",
                        kubectl_kind(kind)
                    ));
                }
                docs.push(d);
            }
            None => {
                unchanged += 1;
                if !patch {
                    docs.push(Doc::new(doc.clone()));
                }
            }
        }
    }
    // Objects the documents did not have: flavors no object named, cohorts only named
    // there and now given a quota or a parent, new shares and classes.
    let named_flavors: Vec<String> = src
        .documents
        .iter()
        .filter_map(|d| d.get("spec").and_then(Value::as_object))
        .flat_map(|spec| flavors_with_resource(spec, resource))
        .collect();
    let mut new: Vec<Doc> = Vec::new();
    for t in ty.used() {
        let f = ty.flavor(t).to_string();
        if !seen_flavors.contains(&f) && !named_flavors.contains(&f) {
            new.push(Doc::new(resource_flavor(&f)));
        }
    }
    for c in sc
        .cohorts
        .iter()
        .filter(|c| !seen_cohorts.contains(&c.name))
    {
        let same = base
            .cohorts
            .iter()
            .find(|o| o.name == c.name)
            .is_some_and(|o| !cohort_changes(sc, c, &base, o).any());
        if !same {
            new.push(Doc::new(cohort(&ty, &c.name, &cohort_spec(&ty, c))));
        }
    }
    for s in sc.shares.iter().filter(|s| !seen_queues.contains(&s.name)) {
        new.push(
            Doc::new(cluster_queue(&ty, &s.name, &queue_spec(&ty, s))).with_comment(
                "New: give it a namespaceSelector and the other resources' quotas before applying.",
            ),
        );
    }
    for (n, v) in priority_classes
        .iter()
        .filter(|(n, _)| !seen_classes.contains(n))
    {
        new.push(Doc::new(priority_class(n, *v)));
    }
    let versions = FileVersions::of(&src.documents);
    for d in &mut new {
        versions.apply(&mut d.value);
    }
    let new_names: Vec<String> = new
        .iter()
        .map(|d| format!("{} {}", kind_of(&d.value), name_of(&d.value)))
        .collect();
    if let Some(fs) = &fair_sharing_changed {
        let what = format!("changed, but fair sharing is set in Kueue's manager Configuration, which this export does not rewrite: set its fairSharing to {fs}");
        // The page: "Fair sharing changed, ..." (issue #34); the CLI keeps the path.
        let words = what.replacen(
            "changed, but fair sharing",
            "Fair sharing changed, but it",
            1,
        );
        warns.push(Problem::new(Path::root().key("fair_sharing"), what).about("", &[], "", words));
    }
    let mut text = format!(
        "# Kueue configuration of scenario {} (Quota Lab export),\n# written over the {} objects it was imported from: every field Quota Lab does not model\n# is kept as it was read.\n",
        Value::String(sc.name.clone()),
        src.documents.len()
    );
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join("; ")
        }
    };
    let empty_patch =
        patch && changed_list.is_empty() && new_names.is_empty() && removed.is_empty();
    text.push_str(&format!("# Changed: {}.\n", list(&changed_list)));
    if patch {
        text.push_str("# One JSON merge patch per changed object (a merge patch replaces a list whole: each\n# carries the object's every resourceGroup). Save a document alone and apply it with the\n# command above it.\n");
        if !new_names.is_empty() {
            text.push_str(&format!(
                "# Not patchable, new in the scenario (export without --patch to create them):\n# {}.\n",
                new_names.join("; ")
            ));
        }
    } else {
        text.push_str(&format!(
            "# Unchanged: {unchanged} objects. New: {}.\n# Apply with: kubectl apply -f FILE\n",
            list(&new_names)
        ));
        docs.append(&mut new);
    }
    if !removed.is_empty() {
        text.push_str(&format!(
            "# No longer in the scenario, so not written (kubectl apply leaves them in the cluster;\n# delete them with kubectl delete): {}.\n",
            removed.join("; ")
        ));
    }
    text.push_str(&yaml_out::stream(&docs));
    Ok(Exported {
        text,
        warnings: warns,
        empty_patch,
    })
}

/// The Kueue API versions a file was written in, for the objects an export over it adds:
/// a cluster on v1beta1 (Kueue before v0.15) takes neither v1beta2 objects nor their
/// `cohortName` / `parentName`, so new objects follow the file's own documents.
struct FileVersions {
    /// The version of the file's ClusterQueues, ResourceFlavors, WorkloadPriorityClasses
    /// and LocalQueues (the first seen), if not v1beta2.
    objects: Option<String>,
    /// The version of its Cohorts: the first seen, else v1alpha1 beside v1beta1 objects.
    cohorts: Option<String>,
}

impl FileVersions {
    fn of(documents: &[Value]) -> FileVersions {
        let version = |kinds: &[&str]| {
            documents
                .iter()
                .filter(|d| kinds.contains(&kind_of(d)))
                .filter_map(|d| d.get("apiVersion").and_then(Value::as_str))
                .find(|v| v.starts_with("kueue.x-k8s.io/"))
                .filter(|v| *v != API)
                .map(str::to_string)
        };
        let objects = version(&[
            "ClusterQueue",
            "ResourceFlavor",
            "WorkloadPriorityClass",
            "LocalQueue",
        ]);
        let cohorts = version(&["Cohort"]).or_else(|| {
            objects
                .as_deref()
                .is_some_and(|v| v.ends_with("v1beta1"))
                .then(|| "kueue.x-k8s.io/v1alpha1".to_string())
        });
        FileVersions { objects, cohorts }
    }

    /// Writes new object `doc` (v1beta2, as `export.rs` makes it) in the file's versions.
    fn apply(&self, doc: &mut Value) {
        let cohort = kind_of(doc) == "Cohort";
        let Some(v) = (if cohort { &self.cohorts } else { &self.objects }) else {
            return;
        };
        doc["apiVersion"] = json!(v);
        let (from, to) = if cohort {
            ("parentName", "parent")
        } else {
            ("cohortName", "cohort")
        };
        let old = v.ends_with("v1beta1") || v.ends_with("v1alpha1");
        if let Some(spec) = doc.get_mut("spec").and_then(Value::as_object_mut) {
            if old {
                if let Some(link) = spec.remove(from) {
                    spec.insert(to.into(), link);
                }
            }
        }
    }
}

/// How fair sharing reads in Kueue's terms (for the warning when it changed).
fn fair_sharing_words(sc: &Scenario) -> String {
    match &sc.fair_sharing {
        None => "enable: false".to_string(),
        Some(fs) => format!(
            "enable: true, preemptionStrategies: [{}]",
            fs.strategies
                .iter()
                .map(|s| strategy_name(*s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Whether two readings' fair sharing differ.
fn fair_sharing_differs(a: &Scenario, b: &Scenario) -> bool {
    a.fair_sharing.as_ref().map(|f| &f.strategies) != b.fair_sharing.as_ref().map(|f| &f.strategies)
}
