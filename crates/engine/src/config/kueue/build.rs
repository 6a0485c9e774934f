//! What was read becomes scenario JSON (SPEC 13): flavors to types, quotas to shares, cohorts.

use serde_json::{json, Map, Value};

use super::{Collected, Node};
use crate::config::{join, ImportOptions, Sink};
use crate::input::path::Path;
use crate::Problem;

/// Turns what was read into scenario JSON.
pub(super) fn build(
    mut c: Collected,
    sources: &mut [(Sink, &str)],
    opts: &ImportOptions,
) -> Result<(Value, Vec<Problem>), Vec<Problem>> {
    let mut errors = Vec::new();
    if c.queues.is_empty() {
        // Workloads given as a configuration: say where they go.
        let workloads = c
            .documents
            .iter()
            .any(|d| d.get("kind").and_then(Value::as_str) == Some("Workload"));
        return Err(vec![Problem::whole(if workloads {
            "no ClusterQueue found: these are Workloads, a job history; import them as one (Import job history… on the page, `quotasim import history` with this file's configuration as --config)"
        } else {
            "no ClusterQueue found"
        })]);
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
            match mapped.or_else(|| crate::input::catalogue::lookup(f).map(|t| t.name)) {
                Some(t) => {
                    let g = crate::input::catalogue::lookup(&t)
                        .map(|t| t.gpus)
                        .unwrap_or(1)
                        .max(1);
                    (t, g as u64, false)
                }
                None => (f.clone(), 1, true),
            };
        if let Some((other, _, _)) = type_of.iter().find(|(_, t, _)| *t == name) {
            errors.push(Problem::new(
                Path::named(path.clone()),
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
        return Err(vec![Problem::whole(format!(
            "no ClusterQueue has a quota of {resource} (--resource names the counted resource)"
        ))]);
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
    let source = super::Source {
        resource: opts.resource.clone(),
        flavor_map: opts.flavor_map.clone(),
        documents: std::mem::take(&mut c.documents),
    };
    if !c.priority_classes.is_empty() {
        let m: Map<String, Value> = c
            .priority_classes
            .iter()
            .map(|(n, v)| (n.clone(), json!(v)))
            .collect();
        sc.insert("priority_classes".into(), Value::Object(m));
    }
    sc.insert(super::SOURCE_FIELD.into(), source.to_value());
    Ok((Value::Object(sc), warnings))
}
