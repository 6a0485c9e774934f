//! A scenario as the reference harness reads it: validated by the engine, with every job
//! explicit (generated `workloads` expanded by the engine's own generator, SPEC 7).

use quotalab_engine::input::model::{Model, Scenario};
use serde_json::{json, Map, Value};

/// Seconds as the scenario writes them: whole seconds as integers.
pub fn seconds(ms: i64) -> Value {
    if ms % 1000 == 0 {
        json!(ms / 1000)
    } else {
        json!(ms as f64 / 1000.0)
    }
}

/// The engine's problems, one per line, as the CLI prints them.
pub fn lines(problems: &[quotalab_engine::Problem]) -> String {
    problems
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The scenario text with explicit jobs, or what keeps the reference from replaying it
/// (an invalid scenario, the AWS model, fields Kueue has no counterpart for).
pub fn expand(text: &str) -> Result<(Value, Scenario), String> {
    let loaded = quotalab_engine::validate::load(text).map_err(|p| lines(&p))?;
    let sc = loaded.scenario;
    if sc.model != Model::Kueue {
        return Err(
            "model: the Kueue reference replays Kueue-model scenarios (\"model\": \"kueue\")"
                .into(),
        );
    }
    let mut top: Map<String, Value> =
        serde_json::from_str(text).map_err(|e| format!("scenario: {e}"))?;
    if sc.jobs.iter().any(|j| j.resubmission_of.get().is_some()) {
        return Err(
            "jobs: the Kueue reference does not replay resubmissions (recovery.resubmit)".into(),
        );
    }
    if !sc.events.is_empty() {
        return Err(
            "events: the Kueue reference does not replay set_priority or update_share events"
                .into(),
        );
    }
    let mut jobs = Vec::with_capacity(sc.jobs.len());
    for (i, j) in sc.jobs.iter().enumerate() {
        if j.checkpoint().is_some() || j.class.preemption_retries.is_some() {
            return Err(format!(
                "jobs[{i}] ({}): the Kueue reference replays jobs without checkpoints or preemption retries (Kueue restarts a preempted job)",
                sc.id_of(j)
            ));
        }
        jobs.push(json!({
            "id": sc.id_of(j),
            "share": sc.shares[j.share()].name,
            "instance_type": sc.instance_types[j.instance_type()].name,
            "instances": j.instances(),
            "priority": j.priority,
            "submit_s": seconds(j.submit),
            "work_s": seconds(j.work),
            "startup_s": seconds(j.startup),
        }));
    }
    top.remove("workloads");
    top.insert("jobs".into(), Value::Array(jobs));
    Ok((Value::Object(top), sc))
}
