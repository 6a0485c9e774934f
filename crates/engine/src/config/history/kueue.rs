//! Kueue Workloads (SPEC 16) as `kubectl get workloads -A -o yaml|json` prints them: a
//! `List` with `items`, or single documents, API v1beta1 or v1beta2; LocalQueue documents
//! may come along (in these files or in the configuration's).
//!
//! Per Workload (`apis/kueue/v1beta2/workload_types.go`): id `namespace/name`; share
//! `status.admission.clusterQueue`, else the ClusterQueue of the LocalQueue
//! `spec.queueName`; submitted at `metadata.creationTimestamp`; the counted resource from
//! the admission's `podSetAssignments` (`resourceUsage`, `flavors`), else from the pod sets
//! (`count` x the pod's requests, limits standing in for absent requests as Kubernetes
//! defaults them); priority `spec.priority`, else the class (`spec.priorityClassName` in
//! v1beta1, `spec.priorityClassRef.name` in v1beta2); its last run from the `Admitted`
//! condition (else `QuotaReserved`) to `Finished`. Conditions are a map by type, so only the
//! last admission is known; evictions are counted from `status.schedulingStats.evictions`,
//! `status.requeueState.count` or the `Evicted` condition.

use serde_json::{Map, Value};

use super::time::rfc3339;
use super::{Collected, Demand, Place, Prio, Record, Run, ShareRef};
use crate::config::kueue::parse_documents;
use crate::config::quantity::Quantity;
use crate::config::{join, kind, Sink};

/// Reads the LocalQueues of a configuration file (its other documents are the
/// configuration import's; its problems were reported there).
pub(crate) fn local_queues(text: &str, c: &mut Collected) {
    let Ok(docs) = parse_documents(text) else {
        return;
    };
    let mut sink = Sink::new("");
    for d in &docs {
        each_object(d, "", &mut |m, path| {
            if m.get("kind").and_then(Value::as_str) == Some("LocalQueue") {
                local_queue(m, path, &mut sink, c);
            }
        });
    }
}

/// The LocalQueues among objects a Kueue import kept (a scenario's `source.kueue`, SPEC 16):
/// a scenario imported from Kueue files places its history's workloads itself.
pub(crate) fn local_queues_of(docs: &[Value], c: &mut Collected) {
    let mut sink = Sink::new("");
    for d in docs {
        each_object(d, "", &mut |m, path| {
            if m.get("kind").and_then(Value::as_str) == Some("LocalQueue") {
                local_queue(m, path, &mut sink, c);
            }
        });
    }
}

/// Calls `f` on each object of a document, and on each item of a `List`.
fn each_object(d: &Value, path: &str, f: &mut dyn FnMut(&Map<String, Value>, &str)) {
    let Some(m) = d.as_object() else { return };
    if m.get("kind").and_then(Value::as_str) == Some("List") {
        if let Some(Value::Array(items)) = m.get("items") {
            for (i, item) in items.iter().enumerate() {
                if let Some(o) = item.as_object() {
                    f(o, &format!("{}[{i}]", join(path, "items")));
                }
            }
        }
    } else {
        f(m, path);
    }
}

/// Reads Kueue objects (Workloads and LocalQueues; other kinds are ignored with one warning
/// per kind), one document or List item at a time ([`super::stream`]).
pub(crate) struct Reader<'a> {
    pub sink: &'a mut Sink,
    pub file: usize,
    pub resource: &'a str,
    pub c: &'a mut Collected,
}

fn local_queue(m: &Map<String, Value>, path: &str, sink: &mut Sink, c: &mut Collected) {
    let md = m.get("metadata");
    let name = md.and_then(|md| md.get("name")).and_then(Value::as_str);
    let ns = md
        .and_then(|md| md.get("namespace"))
        .and_then(Value::as_str)
        .unwrap_or("default");
    let cq = m
        .get("spec")
        .and_then(|s| s.get("clusterQueue"))
        .and_then(Value::as_str);
    match (name, cq) {
        (Some(n), Some(cq)) if !n.is_empty() && !cq.is_empty() => {
            let key = (ns.to_string(), n.to_string());
            if !c.local_queues.iter().any(|(k, _)| *k == key) {
                c.local_queues.push((key, cq.to_string()));
            }
        }
        (None, _) | (Some(""), _) => sink.err(&join(path, "metadata.name"), "is required"),
        _ => sink.err(&join(path, "spec.clusterQueue"), "is required"),
    }
}

/// A condition of `status.conditions`: (status is "True", reason, lastTransitionTime, its
/// place in the list).
struct Condition<'v> {
    is_true: bool,
    reason: &'v str,
    at: Option<i64>,
    index: usize,
}

/// A path built only when a problem names it (a record's places are read 20 times a record,
/// named almost never).
type Lazy<'p> = &'p dyn Fn() -> String;

impl Reader<'_> {
    pub(crate) fn document(&mut self, d: &Value, path: &str) {
        let Some(m) = d.as_object() else {
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
        match k {
            "List" | "WorkloadList" => match m.get("items") {
                Some(Value::Array(items)) => {
                    let ip = join(path, "items");
                    for (i, item) in items.iter().enumerate() {
                        self.document(item, &format!("{ip}[{i}]"));
                    }
                }
                _ => self
                    .sink
                    .err(&join(path, "items"), "must be a list of objects"),
            },
            "Workload" => self.workload(m, path),
            "LocalQueue" => local_queue(m, path, self.sink, self.c),
            other => self.sink.ignore("", other, path),
        }
    }

    fn string<'v>(
        &mut self,
        m: &'v Map<String, Value>,
        key: &str,
        path: Lazy<'_>,
    ) -> Option<&'v str> {
        match m.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                self.sink.err(
                    &join(&path(), key),
                    format!("must be a string, not {}", kind(other)),
                );
                None
            }
        }
    }

    fn object<'v>(
        &mut self,
        v: Option<&'v Value>,
        path: Lazy<'_>,
    ) -> Option<&'v Map<String, Value>> {
        match v {
            None | Some(Value::Null) => None,
            Some(Value::Object(o)) => Some(o),
            Some(other) => {
                self.sink
                    .err(&path(), format!("must be a mapping, not {}", kind(other)));
                None
            }
        }
    }

    fn list<'v>(&mut self, v: Option<&'v Value>, path: Lazy<'_>) -> &'v [Value] {
        match v {
            None | Some(Value::Null) => &[],
            Some(Value::Array(a)) => a,
            Some(other) => {
                self.sink
                    .err(&path(), format!("must be a list, not {}", kind(other)));
                &[]
            }
        }
    }

    fn time(&mut self, v: Option<&Value>, path: Lazy<'_>) -> Option<i64> {
        match v {
            Some(Value::String(s)) => {
                let t = rfc3339(s);
                if t.is_none() {
                    self.sink.err(
                        &path(),
                        format!("\"{s}\" is not an RFC 3339 time (2024-03-19T20:49:17Z)"),
                    );
                }
                t
            }
            None | Some(Value::Null) => None,
            Some(other) => {
                self.sink
                    .err(&path(), format!("must be a time, not {}", kind(other)));
                None
            }
        }
    }

    /// A whole, non-negative amount of a resource (a Kubernetes quantity).
    fn amount(&mut self, v: &Value, path: Lazy<'_>) -> Option<u64> {
        let Some(q) = Quantity::from_value(v) else {
            self.sink.err(&path(), format!("not a quantity ({v})"));
            return None;
        };
        let n = q.whole();
        if n.is_none() {
            self.sink.err(
                &path(),
                format!("must be a whole number >= 0 of {} ({v})", self.resource),
            );
        }
        n
    }

    /// A pod set's `count` (int32 >= 0, default 1).
    fn count(&mut self, v: Option<&Value>, path: Lazy<'_>) -> Option<u64> {
        match v {
            None | Some(Value::Null) => Some(1),
            Some(c) => match c.as_i64() {
                Some(n) if (0..=i64::from(i32::MAX)).contains(&n) => Some(n as u64),
                _ => {
                    self.sink.err(
                        &path(),
                        format!("must be a whole number >= 0 (int32), not {c}"),
                    );
                    None
                }
            },
        }
    }

    fn workload(&mut self, m: &Map<String, Value>, path: &str) {
        let before = self.sink.errors.len();
        let mp = || join(path, "metadata");
        let Some(md) = self.object(m.get("metadata"), &mp) else {
            if before == self.sink.errors.len() {
                self.sink.err(&mp(), "is required");
            }
            return;
        };
        let name = self.string(md, "name", &mp).unwrap_or("");
        if name.is_empty() {
            self.sink.err(&join(&mp(), "name"), "is required");
        }
        let ns = self.string(md, "namespace", &mp).unwrap_or("default");
        let id = format!("{ns}/{name}");
        let cp = || join(&mp(), "creationTimestamp");
        let submit = self.time(md.get("creationTimestamp"), &cp);
        if submit.is_none() && md.get("creationTimestamp").is_none() {
            self.sink.err(&cp(), "is required (the submission time)");
        }
        let sp = || join(path, "spec");
        let empty = Map::new();
        let spec = self.object(m.get("spec"), &sp).unwrap_or(&empty);
        let stp = || join(path, "status");
        let status = self.object(m.get("status"), &stp).unwrap_or(&empty);
        let ap = || join(&stp(), "admission");
        let admission = self.object(status.get("admission"), &ap);

        // The share.
        let cq = admission.and_then(|a| self.string(a, "clusterQueue", &ap));
        let queue = self.string(spec, "queueName", &sp);
        let (share, share_path) = match (cq, queue) {
            (Some(cq), _) if !cq.is_empty() => (
                ShareRef::Named(cq.to_string()),
                Place::Under("status.admission.clusterQueue"),
            ),
            (_, Some(q)) if !q.is_empty() => (
                ShareRef::LocalQueue {
                    namespace: ns.to_string(),
                    name: q.to_string(),
                },
                Place::Under("spec.queueName"),
            ),
            _ => {
                self.sink.err(
                    &join(&sp(), "queueName"),
                    format!("workload {id} names no queue (spec.queueName) and was not admitted (status.admission.clusterQueue): its share is unknown"),
                );
                (ShareRef::Named(String::new()), Place::Under("spec"))
            }
        };

        // What it asks for.
        let (demand, demand_path) = self.demand(spec, &sp, admission, &ap);

        // The priority.
        let (priority, priority_path) = match spec.get("priority") {
            Some(v) if !v.is_null() => match v.as_i64() {
                Some(p) => (Prio::Value(p), Place::Under("spec.priority")),
                None => {
                    self.sink.err(
                        &join(&sp(), "priority"),
                        format!("must be an integer, not {v}"),
                    );
                    (Prio::None, Place::Path(String::new()))
                }
            },
            _ => {
                let v1 = self.string(spec, "priorityClassName", &sp);
                let rp = || join(&sp(), "priorityClassRef");
                let v2 = self
                    .object(spec.get("priorityClassRef"), &rp)
                    .and_then(|r| r.get("name"))
                    .and_then(Value::as_str);
                match (v1, v2) {
                    (Some(c), _) if !c.is_empty() => (
                        Prio::Class(c.to_string()),
                        Place::Under("spec.priorityClassName"),
                    ),
                    (_, Some(c)) if !c.is_empty() => (
                        Prio::Class(c.to_string()),
                        Place::Under("spec.priorityClassRef.name"),
                    ),
                    _ => (Prio::None, Place::Path(String::new())),
                }
            }
        };

        // Its last run.
        let conds = self.conditions(status, &stp);
        let find = |t: &str| conds.iter().find(|(ty, _)| ty == t).map(|(_, c)| c);
        let admitted = find("Admitted")
            .filter(|c| c.is_true)
            .or_else(|| find("QuotaReserved").filter(|c| c.is_true));
        let finished = find("Finished").filter(|c| c.is_true);
        let mut latest = submit.unwrap_or(0);
        for (_, c) in &conds {
            latest = latest.max(c.at.unwrap_or(0));
        }
        let at_path = |c: &Condition<'_>| {
            format!(
                "{}[{}].lastTransitionTime",
                join(&stp(), "conditions"),
                c.index
            )
        };
        let start = match admitted {
            Some(c) if c.at.is_none() => {
                self.sink
                    .err(&at_path(c), "is required (the admission time)");
                None
            }
            Some(c) => c.at,
            None => None,
        };
        let run = match (finished, start) {
            (Some(f), Some(start)) => match f.at {
                Some(stop) => Run::Finished { start, stop },
                None => {
                    self.sink.err(&at_path(f), "is required (the finish time)");
                    Run::NeverRan
                }
            },
            (Some(_), None) => Run::NeverRan,
            (None, Some(start)) => Run::Running { start },
            (None, None) => Run::Pending,
        };

        // Evictions seen.
        let evictions = self.evictions(status, &stp, &conds);

        if self.sink.errors.len() != before {
            return;
        }
        let Some(submit) = submit else { return };
        self.c.records.push(Record {
            file: self.file,
            path: path.to_string(),
            id,
            alt_id: None,
            share,
            share_path,
            submit,
            run,
            demand,
            demand_path,
            priority,
            priority_path,
            evictions,
            latest,
        });
    }

    /// `status.conditions`, by type.
    fn conditions<'v>(
        &mut self,
        status: &'v Map<String, Value>,
        stp: Lazy<'_>,
    ) -> Vec<(String, Condition<'v>)> {
        let cp = || join(&stp(), "conditions");
        let mut out = Vec::new();
        for (i, c) in self.list(status.get("conditions"), &cp).iter().enumerate() {
            let p = || format!("{}[{i}]", cp());
            let Some(c) = self.object(Some(c), &p) else {
                continue;
            };
            let Some(ty) = c.get("type").and_then(Value::as_str) else {
                self.sink.err(&join(&p(), "type"), "is required");
                continue;
            };
            let at_path = || join(&p(), "lastTransitionTime");
            let at = self.time(c.get("lastTransitionTime"), &at_path);
            out.push((
                ty.to_string(),
                Condition {
                    is_true: c.get("status").and_then(Value::as_str) == Some("True"),
                    reason: c.get("reason").and_then(Value::as_str).unwrap_or(""),
                    at,
                    index: i,
                },
            ));
        }
        out
    }

    /// Evictions seen: (by preemption, others), from `schedulingStats.evictions` (every
    /// eviction, by reason), else `requeueState.count`, else the `Evicted` condition.
    fn evictions(
        &mut self,
        status: &Map<String, Value>,
        stp: Lazy<'_>,
        conds: &[(String, Condition<'_>)],
    ) -> (u64, u64) {
        let ssp = || join(&stp(), "schedulingStats");
        if let Some(stats) = self.object(status.get("schedulingStats"), &ssp) {
            let ep = join(&ssp(), "evictions");
            let (mut pre, mut other) = (0u64, 0u64);
            for (i, e) in self
                .list(stats.get("evictions"), &|| ep.clone())
                .iter()
                .enumerate()
            {
                let n = match e.get("count").and_then(Value::as_u64) {
                    Some(n) => n.min(u64::from(u32::MAX)),
                    None => {
                        self.sink
                            .err(&format!("{ep}[{i}].count"), "must be a whole number >= 0");
                        0
                    }
                };
                if e.get("reason").and_then(Value::as_str) == Some("Preempted") {
                    pre += n;
                } else {
                    other += n;
                }
            }
            if pre + other > 0 {
                return (pre, other);
            }
        }
        let find = |ty: &str| conds.iter().find(|(t, _)| t == ty).map(|(_, c)| c);
        // A re-admitted workload keeps `Evicted` (status False, "Previously: ..."); a
        // `Requeued` condition follows an eviction (its reason the eviction's until the
        // workload is queued again); a `Preempted` condition of any status says a
        // preemption happened.
        let evicted = find("Evicted").or(find("Requeued"));
        let preempted_last = find("Evicted").is_some_and(|c| c.reason == "Preempted")
            || find("Requeued").is_some_and(|c| c.reason == "Preempted")
            || find("Preempted").is_some();
        let requeued = status
            .get("requeueState")
            .and_then(|r| r.get("count"))
            .and_then(Value::as_u64)
            .unwrap_or(0)
            .min(u64::from(u32::MAX));
        let seen = requeued.max(u64::from(evicted.is_some()));
        match (seen, preempted_last) {
            (0, _) => (0, 0),
            (n, true) => (1, n - 1),
            (n, false) => (0, n),
        }
    }

    /// The counted resource: the admission's `podSetAssignments` (`resourceUsage` totals
    /// and `flavors`), else the pod sets' `count` x the pod's requests.
    fn demand(
        &mut self,
        spec: &Map<String, Value>,
        sp: Lazy<'_>,
        admission: Option<&Map<String, Value>>,
        ap: Lazy<'_>,
    ) -> (Demand, Place) {
        let res = self.resource;
        let psp = || join(&sp(), "podSets");
        let pod_sets = self.list(spec.get("podSets"), &psp);
        if let Some(a) = admission {
            let pap = || join(&ap(), "podSetAssignments");
            let assignments = self.list(a.get("podSetAssignments"), &pap);
            if !assignments.is_empty() {
                let mut total: u64 = 0;
                let mut flavor: Option<String> = None;
                for (i, pa) in assignments.iter().enumerate() {
                    let p = || format!("{}[{i}]", pap());
                    let Some(pa) = self.object(Some(pa), &p) else {
                        continue;
                    };
                    let f = pa
                        .get("flavors")
                        .and_then(|f| f.get(res))
                        .and_then(Value::as_str);
                    let usage = pa.get("resourceUsage").and_then(|u| u.get(res));
                    let n = match usage {
                        Some(v) => self.amount(v, &|| format!("{}.resourceUsage[{res}]", p())),
                        None => {
                            // Older workloads: the pod set's requests x the admitted count.
                            let name = pa.get("name").and_then(Value::as_str).unwrap_or("main");
                            let count = match pa.get("count") {
                                Some(c) => self.count(Some(c), &|| join(&p(), "count")),
                                None => None,
                            };
                            let found = pod_sets.iter().enumerate().find(|(_, ps)| {
                                ps.get("name").and_then(Value::as_str).unwrap_or("main") == name
                            });
                            match found {
                                Some((j, ps)) => {
                                    self.pod_set(ps, &|| format!("{}[{j}]", psp()), count)
                                }
                                None => Some(0),
                            }
                        }
                    };
                    let Some(n) = n else { continue };
                    if n > 0 {
                        if let Some(f) = f {
                            match &flavor {
                                None => flavor = Some(f.to_string()),
                                Some(first) if first != f => self.sink.warn(
                                    &format!("{}.flavors[{res}]", p()),
                                    format!("pod sets on flavors {first} and {f}: the job is counted on {first}"),
                                ),
                                _ => {}
                            }
                        }
                    }
                    total = match total.checked_add(n) {
                        Some(t) => t,
                        None => {
                            self.sink.err(&p(), format!("too much {res}"));
                            0
                        }
                    };
                }
                return (
                    Demand::Resource {
                        flavor,
                        amount: total,
                    },
                    Place::Under("status.admission.podSetAssignments"),
                );
            }
        }
        let mut total: u64 = 0;
        for (i, ps) in pod_sets.iter().enumerate() {
            let p = || format!("{}[{i}]", psp());
            if let Some(n) = self.pod_set(ps, &p, None) {
                total = match total.checked_add(n) {
                    Some(t) => t,
                    None => {
                        self.sink.err(&p(), format!("too much {res}"));
                        0
                    }
                };
            }
        }
        if pod_sets.is_empty() && spec.get("podSets").is_none() {
            self.sink
                .err(&psp(), "is required (what the workload asks for)");
        }
        (
            Demand::Resource {
                flavor: None,
                amount: total,
            },
            Place::Under("spec.podSets"),
        )
    }

    /// A pod set's total of the counted resource: `count` (or the admitted count) x the
    /// pod's: the sum over containers, or the largest init container if more, each
    /// container's requests (else its limits, as Kubernetes defaults requests to limits).
    fn pod_set(&mut self, ps: &Value, p: Lazy<'_>, count: Option<u64>) -> Option<u64> {
        let ps = self.object(Some(ps), p)?;
        let count = match count {
            Some(c) => c,
            None => self.count(ps.get("count"), &|| join(&p(), "count"))?,
        };
        let tp = || join(&p(), "template.spec");
        let pod = ps
            .get("template")
            .and_then(|t| t.get("spec"))
            .and_then(Value::as_object)?;
        let mut per_pod: u64 = 0;
        let mut init_max: u64 = 0;
        for (key, is_init) in [("containers", false), ("initContainers", true)] {
            let cp = || join(&tp(), key);
            for (i, c) in self.list(pod.get(key), &cp).iter().enumerate() {
                let rp = || format!("{}[{i}].resources", cp());
                let r = c.get("resources");
                let v = r
                    .and_then(|r| r.get("requests"))
                    .and_then(|q| q.get(self.resource))
                    .map(|v| (v, "requests"))
                    .or_else(|| {
                        r.and_then(|r| r.get("limits"))
                            .and_then(|q| q.get(self.resource))
                            .map(|v| (v, "limits"))
                    });
                let Some((v, which)) = v else { continue };
                let res = self.resource;
                let n = self.amount(v, &|| format!("{}.{which}[{res}]", rp()))?;
                if is_init {
                    init_max = init_max.max(n);
                } else {
                    per_pod = per_pod.checked_add(n)?;
                }
            }
        }
        let per_pod = per_pod.max(init_max);
        match per_pod.checked_mul(count) {
            Some(t) => Some(t),
            None => {
                self.sink.err(
                    &p(),
                    format!("{count} pods x {per_pod} {} is too much", self.resource),
                );
                None
            }
        }
    }
}
