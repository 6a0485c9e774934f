//! AWS Batch jobs (SPEC 16) as the API and CLI print them: `aws batch describe-jobs`
//! (`{"jobs": [JobDetail...]}`), `list-jobs` and `list-service-jobs`
//! (`{"jobSummaryList": [...]}`), `describe-service-job` (one object), or an array of any
//! of them.
//!
//! Per job: id `jobName` (made unique with the `jobId` when names repeat); share
//! `quotaShareName`, else `shareIdentifier`; submitted at `createdAt` (epoch ms); its last
//! run the last attempt's `startedAt` to `stoppedAt` (else the job's own); instances from
//! the service request's SageMaker `ResourceConfig` (`InstanceType`, `InstanceCount`), else
//! `capacityUsage` (`NUM_INSTANCES`), else GPUs from the container's `resourceRequirements`
//! (type `GPU`; x `numNodes` for a multi-node job); priority `schedulingPriority`;
//! preemptions from `preemptionSummary.preemptedAttemptCount`.

use serde_json::{Map, Value};

use super::time::MAX_MS;
use super::{Collected, Demand, Place, Prio, Record, Run, ShareRef};
use crate::config::{doc_path, join, kind, Sink};

/// Reads AWS Batch responses and jobs, one top-level element or listed job at a time
/// ([`super::stream`]).
pub(crate) struct Reader<'a> {
    pub sink: &'a mut Sink,
    pub file: usize,
    pub c: &'a mut Collected,
}

/// A job's status (AWS Batch `JobStatus` / `ServiceJobStatus`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Waiting,
    Running,
    Done,
}

fn status(s: &str) -> Option<Status> {
    match s {
        "SUBMITTED" | "PENDING" | "RUNNABLE" => Some(Status::Waiting),
        "SCHEDULED" | "STARTING" | "RUNNING" => Some(Status::Running),
        "SUCCEEDED" | "FAILED" => Some(Status::Done),
        _ => None,
    }
}

impl Reader<'_> {
    /// A top-level value: a response listing jobs, or a job (`doc`: its index in a
    /// top-level array).
    pub(crate) fn item(&mut self, v: &Value, doc: Option<usize>) {
        let path = doc_path(doc, "");
        let Value::Object(m) = v else {
            self.sink.err(
                &path,
                format!(
                    "must be an object (a DescribeJobs or ListJobs response, or a job), not {}",
                    kind(v)
                ),
            );
            return;
        };
        let list_key = ["jobs", "jobSummaryList"]
            .into_iter()
            .find(|k| m.contains_key(*k));
        match list_key {
            Some(key) => {
                self.response_keys(m, key, &path);
                let lp = join(&path, key);
                match &m[key] {
                    Value::Array(items) => {
                        for (i, item) in items.iter().enumerate() {
                            self.list_item(item, &format!("{lp}[{i}]"));
                        }
                    }
                    other => self
                        .sink
                        .err(&lp, format!("must be an array, not {}", kind(other))),
                }
            }
            None if m.contains_key("jobId") || m.contains_key("jobName") => self.job(m, &path),
            None => self.sink.err(
                &path,
                "is neither a job (no jobId) nor a response listing jobs (no jobs or jobSummaryList)",
            ),
        }
    }

    /// A response's fields beside its list `key`: `nextToken` warns that more pages exist,
    /// the others are ignored.
    pub(crate) fn response_keys(&mut self, m: &Map<String, Value>, key: &str, path: &str) {
        for (k, v) in m {
            if k == "nextToken" && !v.is_null() {
                self.sink.warn(
                    &join(path, "nextToken"),
                    "the response has more pages (nextToken is set): only this page is imported",
                );
            } else if k != key && k != "nextToken" {
                self.sink.ignore("response", k, &join(path, k));
            }
        }
    }

    /// A job of a response's list, at `ip`.
    pub(crate) fn list_item(&mut self, item: &Value, ip: &str) {
        match item {
            Value::Object(o) => self.job(o, ip),
            other => self
                .sink
                .err(ip, format!("must be an object, not {}", kind(other))),
        }
    }

    fn string<'v>(&mut self, m: &'v Map<String, Value>, key: &str, path: &str) -> Option<&'v str> {
        match m.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                self.sink.err(
                    &join(path, key),
                    format!("must be a string, not {}", kind(other)),
                );
                None
            }
        }
    }

    /// An epoch-milliseconds time.
    fn ms(&mut self, m: &Map<String, Value>, key: &str, path: &str) -> Option<i64> {
        let v = m.get(key).filter(|v| !v.is_null())?;
        match v.as_i64() {
            Some(t) if (0..=MAX_MS).contains(&t) => Some(t),
            _ => {
                self.sink.err(
                    &join(path, key),
                    format!("must be epoch milliseconds (a whole number >= 0), not {v}"),
                );
                None
            }
        }
    }

    fn job(&mut self, m: &Map<String, Value>, path: &str) {
        let before = self.sink.errors.len();
        let name = self.string(m, "jobName", path).filter(|s| !s.is_empty());
        let job_id = self.string(m, "jobId", path).filter(|s| !s.is_empty());
        let Some(id) = name.or(job_id) else {
            self.sink
                .err(&join(path, "jobName"), "is required (or jobId)");
            return;
        };
        let id = id.to_string();
        let (share, share_path) = match (
            self.string(m, "quotaShareName", path),
            self.string(m, "shareIdentifier", path),
        ) {
            (Some(s), _) if !s.is_empty() => (s.to_string(), join(path, "quotaShareName")),
            (_, Some(s)) if !s.is_empty() => (s.to_string(), join(path, "shareIdentifier")),
            _ => {
                self.sink.err(
                    &join(path, "shareIdentifier"),
                    format!("job {id} names no share (shareIdentifier or quotaShareName; a list-jobs summary may lack it: describe-jobs gives it)"),
                );
                return;
            }
        };
        let submit = self.ms(m, "createdAt", path);
        if submit.is_none() && m.get("createdAt").is_none() {
            self.sink.err(
                &join(path, "createdAt"),
                "is required (the submission time)",
            );
        }
        let st = match self.string(m, "status", path) {
            Some(s) => match status(s) {
                Some(st) => Some(st),
                None => {
                    self.sink.err(
                        &join(path, "status"),
                        format!("\"{s}\" is not an AWS Batch job status"),
                    );
                    None
                }
            },
            None => {
                self.sink.err(&join(path, "status"), "is required");
                None
            }
        };
        // The last attempt's run, else the job's own times.
        let ap = join(path, "attempts");
        let mut start = None;
        let mut stop = None;
        let mut latest = submit.unwrap_or(0);
        match m.get("attempts") {
            None | Some(Value::Null) => {}
            Some(Value::Array(attempts)) => {
                for (i, a) in attempts.iter().enumerate() {
                    let p = format!("{ap}[{i}]");
                    let Some(a) = a.as_object() else {
                        self.sink
                            .err(&p, format!("must be an object, not {}", kind(a)));
                        continue;
                    };
                    let s = self.ms(a, "startedAt", &p);
                    let e = self.ms(a, "stoppedAt", &p);
                    latest = latest.max(s.unwrap_or(0)).max(e.unwrap_or(0));
                    if s.is_some() {
                        (start, stop) = (s, e);
                    }
                }
            }
            Some(other) => self
                .sink
                .err(&ap, format!("must be an array, not {}", kind(other))),
        }
        let own_start = self.ms(m, "startedAt", path);
        let own_stop = self.ms(m, "stoppedAt", path);
        latest = latest
            .max(own_start.unwrap_or(0))
            .max(own_stop.unwrap_or(0));
        if start.is_none() {
            (start, stop) = (own_start, own_stop);
        }
        let run = match (st, start, stop) {
            (Some(Status::Done), Some(s), Some(e)) => Run::Finished { start: s, stop: e },
            (Some(Status::Done), Some(_), None) => {
                self.sink.err(
                    &join(path, "stoppedAt"),
                    format!("job {id} finished but has no stoppedAt"),
                );
                Run::NeverRan
            }
            (Some(Status::Done), None, _) => Run::NeverRan,
            (Some(Status::Running), Some(s), _) => Run::Running { start: s },
            (Some(Status::Running), None, _) => Run::Running {
                start: latest.max(submit.unwrap_or(0)),
            },
            _ => Run::Pending,
        };
        let (demand, demand_path) = self.demand(m, path, &id);
        let priority = match m.get("schedulingPriority") {
            None | Some(Value::Null) => Prio::None,
            Some(v) => match v.as_i64() {
                Some(p) => Prio::Value(p),
                None => {
                    self.sink.err(
                        &join(path, "schedulingPriority"),
                        format!("must be an integer, not {v}"),
                    );
                    Prio::None
                }
            },
        };
        let preempted = m
            .get("preemptionSummary")
            .and_then(|p| p.get("preemptedAttemptCount"))
            .and_then(Value::as_u64)
            .unwrap_or(0)
            .min(u64::from(u32::MAX));
        if self.sink.errors.len() != before {
            return;
        }
        let Some(submit) = submit else { return };
        self.c.records.push(Record {
            file: self.file,
            path: path.to_string(),
            id,
            alt_id: job_id.map(str::to_string),
            share: ShareRef::Named(share),
            share_path: Place::Path(share_path),
            submit,
            run,
            demand,
            demand_path: Place::Path(demand_path),
            priority,
            priority_path: Place::Under("schedulingPriority"),
            evictions: (preempted, 0),
            latest,
        });
    }

    /// Instances or GPUs the job asks for.
    fn demand(&mut self, m: &Map<String, Value>, path: &str, id: &str) -> (Demand, String) {
        // A SageMaker training job's ResourceConfig, in the service request payload.
        let pp = join(path, "serviceRequestPayload");
        if let Some(text) = self.string(m, "serviceRequestPayload", path) {
            match serde_json::from_str::<Value>(text) {
                Ok(payload) => {
                    if let Some(rc) = payload.get("ResourceConfig").and_then(Value::as_object) {
                        let rp = join(&pp, "ResourceConfig");
                        let ty = rc.get("InstanceType").and_then(Value::as_str);
                        let groups = rc.get("InstanceGroups").and_then(Value::as_array);
                        let (ty, n) = match (rc.get("InstanceCount"), groups) {
                            (Some(c), _) => {
                                (ty.map(str::to_string), self.whole(c, &rp, "InstanceCount"))
                            }
                            (None, Some(g)) if !g.is_empty() => {
                                let first = g[0].get("InstanceType").and_then(Value::as_str);
                                let mut total = Some(0u64);
                                for gr in g {
                                    let n = gr.get("InstanceCount").map(|c| {
                                        self.whole(c, &rp, "InstanceGroups[].InstanceCount")
                                    });
                                    total = match (total, n.flatten()) {
                                        (Some(t), Some(n)) => t.checked_add(n),
                                        _ => None,
                                    };
                                    if gr.get("InstanceType").and_then(Value::as_str) != first {
                                        self.sink.warn(&rp, format!("job {id} uses several instance groups: counted as {} of the first group's type", total.unwrap_or(0)));
                                    }
                                }
                                (first.map(str::to_string), total)
                            }
                            _ => (ty.map(str::to_string), Some(1)),
                        };
                        return (
                            Demand::Instances {
                                ty,
                                n: n.unwrap_or(0),
                            },
                            rp,
                        );
                    }
                }
                Err(_) => self
                    .sink
                    .err(&pp, "is not JSON (a SageMaker CreateTrainingJob request)"),
            }
        }
        // capacityUsage: instances (service jobs), or GPUs.
        let cup = join(path, "capacityUsage");
        if let Some(Value::Array(usage)) = m.get("capacityUsage") {
            for (i, u) in usage.iter().enumerate() {
                let unit = u.get("capacityUnit").and_then(Value::as_str).unwrap_or("");
                let p = format!("{cup}[{i}]");
                let Some(q) = u.get("quantity") else { continue };
                let n = self.whole(q, &p, "quantity").unwrap_or(0);
                match unit {
                    "NUM_INSTANCES" => return (Demand::Instances { ty: None, n }, p),
                    "GPU" => return (Demand::Gpus { amount: n }, p),
                    t if crate::input::catalogue::lookup(t).is_some() => {
                        return (
                            Demand::Instances {
                                ty: Some(t.to_string()),
                                n,
                            },
                            p,
                        )
                    }
                    _ => {}
                }
            }
        }
        // The container's GPU requirement (x numNodes for a multi-node job).
        let mut gpus: Option<(u64, String)> = None;
        if let Some(c) = m.get("container").and_then(Value::as_object) {
            gpus = self.gpu_requirement(c, &join(path, "container"));
        }
        if gpus.is_none() {
            if let Some(tasks) = m
                .get("ecsProperties")
                .and_then(|e| e.get("taskProperties"))
                .and_then(Value::as_array)
            {
                let mut total = 0u64;
                let mut first = None;
                for (t, task) in tasks.iter().enumerate() {
                    let tp = format!("{path}.ecsProperties.taskProperties[{t}].containers");
                    for (i, c) in task
                        .get("containers")
                        .and_then(Value::as_array)
                        .map(Vec::as_slice)
                        .unwrap_or(&[])
                        .iter()
                        .enumerate()
                    {
                        if let Some(c) = c.as_object() {
                            if let Some((n, p)) = self.gpu_requirement(c, &format!("{tp}[{i}]")) {
                                total = total.saturating_add(n);
                                first.get_or_insert(p);
                            }
                        }
                    }
                }
                if let Some(p) = first {
                    gpus = Some((total, p));
                }
            }
        }
        if let Some(np) = m.get("nodeProperties").and_then(Value::as_object) {
            let nodes = np.get("numNodes").and_then(Value::as_u64);
            if gpus.is_none() {
                if let Some(c) = np
                    .get("nodeRangeProperties")
                    .and_then(Value::as_array)
                    .and_then(|r| r.first())
                    .and_then(|r| r.get("container"))
                    .and_then(Value::as_object)
                {
                    gpus = self.gpu_requirement(
                        c,
                        &join(path, "nodeProperties.nodeRangeProperties[0].container"),
                    );
                }
            }
            if let (Some(n), Some((g, p))) = (nodes, gpus.as_ref()) {
                gpus = Some((g.saturating_mul(n), p.clone()));
            }
        }
        match gpus {
            Some((amount, p)) => (Demand::Gpus { amount }, p),
            None => (
                Demand::Gpus { amount: 0 },
                join(path, "container.resourceRequirements"),
            ),
        }
    }

    /// `resourceRequirements` `[{"type": "GPU", "value": "4"}]` of a container.
    fn gpu_requirement(&mut self, c: &Map<String, Value>, cp: &str) -> Option<(u64, String)> {
        let reqs = c.get("resourceRequirements")?.as_array()?;
        for (i, r) in reqs.iter().enumerate() {
            if r.get("type").and_then(Value::as_str) == Some("GPU") {
                let p = format!("{cp}.resourceRequirements[{i}]");
                let v = r.get("value")?;
                let n = self.whole(v, &p, "value")?;
                return Some((n, p));
            }
        }
        None
    }

    /// A whole number >= 0 (a JSON number or a numeric string, as AWS writes them).
    fn whole(&mut self, v: &Value, path: &str, key: &str) -> Option<u64> {
        let n = match v {
            Value::Number(n) => n.as_u64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9e15)
                    .map(|f| f as u64)
            }),
            Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        if n.is_none() {
            self.sink.err(
                &join(path, key),
                format!("must be a whole number >= 0, not {v}"),
            );
        }
        n
    }
}
