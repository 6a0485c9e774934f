//! SPEC 14 (interruption contract): continuations of resubmitted jobs, the contract's warnings.

use serde_json::{Map, Value};

use crate::input::json;
use crate::input::model::*;
use crate::input::path::Path;
use crate::Problem;

/// SPEC 14: a job that is resubmitted when its retries are exhausted gets a continuation,
/// appended after every job: the same job in its new share (same id, submit time and
/// deadline), failing if it exhausts its retries there too, submitted only by the engine.
pub(super) fn add_continuations(jobs: &mut Vec<JobSpec>) {
    let n = jobs.len();
    // One continuation block per distinct block of the jobs continued (a workload's jobs
    // share theirs, and so do their continuations).
    let mut last: Option<(std::sync::Arc<JobClass>, std::sync::Arc<JobClass>)> = None;
    let extra = jobs
        .iter()
        .filter(|j| matches!(j.on_retries_exhausted(), OnExhausted::Resubmit { .. }))
        .count();
    if extra == 0 {
        return;
    }
    jobs.reserve_exact(extra);
    for i in 0..n {
        if let OnExhausted::Resubmit { share, priority } = jobs[i].on_retries_exhausted() {
            let mut c = jobs[i].clone();
            c.set_share(share);
            if let Some(p) = priority {
                c.priority = p;
            }
            c.class = match &last {
                Some((from, to)) if std::sync::Arc::ptr_eq(from, &c.class) => to.clone(),
                _ => {
                    let to = std::sync::Arc::new(JobClass {
                        on_retries_exhausted: OnExhausted::Fail,
                        ..(*c.class).clone()
                    });
                    last = Some((c.class.clone(), to.clone()));
                    to
                }
            };
            c.resubmission_of = OptJob::some(i);
            jobs.push(c);
        }
    }
}

/// SPEC 14: whether a workload writes a field of the interruption contract.
pub(super) fn workloads_use_contract(top: &Map<String, Value>) -> bool {
    top.get("workloads")
        .and_then(Value::as_array)
        .is_some_and(|list| {
            list.iter().any(|w| {
                w.as_object().is_some_and(|m| {
                    crate::input::contract::JOB_FIELDS
                        .iter()
                        .any(|k| json::get(m, k).is_some())
                })
            })
        })
}

/// SPEC 14: a resubmission happens only when the retries are exhausted, so without
/// `preemption_retries` (unlimited) it never happens: a warning.
pub(super) fn resubmit_without_retries(
    m: &Map<String, Value>,
    path: &Path,
    warnings: &mut Vec<Problem>,
) {
    let resubmits = m
        .get("on_retries_exhausted")
        .is_some_and(|v| v.get("resubmit").is_some());
    if resubmits && json::get(m, "preemption_retries").is_none() {
        warnings.push(Problem::new(
            path.key("on_retries_exhausted"),
            "never applies: preemption_retries is unlimited (give preemption_retries for the job to be resubmitted when it runs out of them)",
        ));
    }
}
