//! Parsing and validation of one `workloads[i]` object (SPEC 7), reporting every problem
//! with its full JSON path through the validator's JSON field helpers
//! ([`crate::input::json`]).

use serde_json::{Map, Value};

use super::*;
use crate::input::json::{self, get, Rule};
use crate::input::model::{ms_from_s, Checkpoint};
use crate::input::path::Path;
use crate::Problem;

use super::dist::{optional_dist, parse_dist, Field};
use super::readers::{checked_time, pair, positive, push, resolve_name, single_key, time};

/// The fields of a workload object (SPEC 7). [`parse`] ignores other keys, like the rest of
/// the validator, which may warn about them.
pub const FIELDS: &[&str] = &[
    "share",
    "count",
    "arrival",
    "instance_type",
    "instances",
    "work_s",
    "priority",
    "startup_s",
    "checkpoint",
    "checkpoint_on_preempt",
    "preemption_retries",
    "deadline_factor",
    "recovery",
    "on_retries_exhausted",
    "escalate",
];
pub(super) const ARRIVAL_KEYS: &[&str] = &["poisson_per_hour", "uniform", "at_s"];
/// The fields of a workload's `checkpoint` object; [`parse`] ignores other keys.
pub const CHECKPOINT_FIELDS: &[&str] = &["interval_s", "cost_s", "restore_s"];

/// Parses and validates `workloads[i]` (at JSON path `path`, e.g. `workloads[2]`), pushing
/// every problem with its full path (`workloads[2].work_s.lognormal.sigma: must be >= 0`).
/// Returns None if any problem was found in it.
///
/// `share_names` and `type_names` are the scenario's shares and instance types, in order:
/// the workload's `share` and `instance_type` are resolved to indices into them.
/// Fields (SPEC 7): `share`, `instance_type`, `arrival` and `work_s` are required; `count` is
/// required unless `arrival` is `at_s` (where it defaults to the list's length and must equal
/// it if given); `instances` (default 1), `priority` (default 0), `startup_s` (default 0),
/// `checkpoint`, `checkpoint_on_preempt` (default false), `preemption_retries` (default null
/// = unlimited) and `deadline_factor` are optional. A `null` optional field is the same as
/// an absent one. Times given as such (`at_s`, the bounds of a `uniform` arrival, checkpoint
/// times) must be at most [`MAX_TIME_S`]. Unknown keys inside `arrival` and inside a
/// distribution are problems; unknown keys of the workload object itself and of its
/// `checkpoint` are ignored (see [`FIELDS`], [`CHECKPOINT_FIELDS`]: the caller may warn).
/// `kueue`: the scenario follows the Kueue model, whose priorities are any 32-bit integer
/// (SPEC 12; else SPEC 2's `0..=9999`).
pub fn parse(
    v: &serde_json::Value,
    path: &Path,
    share_names: &[&str],
    type_names: &[&str],
    kueue: bool,
    problems: &mut Vec<Problem>,
) -> Option<Workload> {
    let before = problems.len();
    let Some(obj) = v.as_object() else {
        problems.push(Problem::new(path.clone(), "must be an object (a workload)"));
        return None;
    };
    let p = |key: &str| path.key(key);

    let share = resolve_name(
        get(obj, "share"),
        &p("share"),
        share_names,
        "share",
        problems,
    );
    let instance_type = resolve_name(
        get(obj, "instance_type"),
        &p("instance_type"),
        type_names,
        "instance type",
        problems,
    );

    let arrival = match get(obj, "arrival") {
        Some(a) => parse_arrival(a, &p("arrival"), problems),
        None => {
            problems.push(json::required(&p("arrival")));
            None
        }
    };
    let count = parse_count(obj, &p("count"), arrival.as_ref(), problems);

    let instances = optional_dist(obj, "instances", path, Field::Instances, 1.0, problems);
    let work_s = match get(obj, "work_s") {
        Some(w) => parse_dist(w, &p("work_s"), Field::Work, problems),
        None => {
            problems.push(json::required(&p("work_s")));
            None
        }
    };
    let priority_field = if kueue {
        Field::KueuePriority
    } else {
        Field::Priority
    };
    let priority = optional_dist(obj, "priority", path, priority_field, 0.0, problems);
    let startup_s = optional_dist(obj, "startup_s", path, Field::Startup, 0.0, problems);

    let checkpoint = match get(obj, "checkpoint") {
        Some(c) => parse_checkpoint(c, &p("checkpoint"), problems).map(Some),
        None => Some(None),
    };
    let checkpoint_on_preempt = match get(obj, "checkpoint_on_preempt") {
        None => Some(false),
        Some(b) => push(json::boolean(b, &p("checkpoint_on_preempt")), problems),
    };
    let preemption_retries = match get(obj, "preemption_retries") {
        None => Some(None),
        Some(r) => push(
            json::integer(r, &p("preemption_retries"), Rule::whole(0, i64::MAX)),
            problems,
        )
        .map(|n| Some(n as u64)),
    };
    let deadline_factor = match get(obj, "deadline_factor") {
        None => Some(None),
        Some(f) => positive(f, &p("deadline_factor"), problems).map(Some),
    };

    let (recovery, on_retries_exhausted, escalate) = crate::input::contract::job_fields(
        obj,
        path,
        share_names,
        share,
        get(obj, "deadline_factor").is_some(),
        "deadline_factor",
        kueue,
        problems,
    );

    if problems.len() > before {
        return None;
    }
    let (
        Some(share),
        Some(instance_type),
        Some(arrival),
        Some(count),
        Some(instances),
        Some(work_s),
        Some(priority),
        Some(startup_s),
        Some(checkpoint),
        Some(checkpoint_on_preempt),
        Some(preemption_retries),
        Some(deadline_factor),
        Some(recovery),
        Some(on_retries_exhausted),
        Some(escalate),
    ) = (
        share,
        instance_type,
        arrival,
        count,
        instances,
        work_s,
        priority,
        startup_s,
        checkpoint,
        checkpoint_on_preempt,
        preemption_retries,
        deadline_factor,
        recovery,
        on_retries_exhausted,
        escalate,
    )
    else {
        // Unreachable in practice: every `None` above pushed a problem.
        problems.push(Problem::new(path.clone(), "is invalid"));
        return None;
    };
    let share_name = share_names
        .get(share)
        .copied()
        .unwrap_or_default()
        .to_string();
    Some(Workload {
        share,
        share_name,
        count,
        arrival,
        instance_type,
        instances,
        work_s,
        priority,
        startup_s,
        checkpoint,
        checkpoint_on_preempt,
        preemption_retries,
        deadline_factor,
        recovery,
        on_retries_exhausted,
        escalate,
        kueue,
    })
}

pub(super) fn parse_arrival(
    v: &Value,
    path: &Path,
    problems: &mut Vec<Problem>,
) -> Option<Arrival> {
    let what = "an object: {\"poisson_per_hour\": r}, {\"uniform\": [from_s, to_s]} or {\"at_s\": [t, ..]}";
    let Some(obj) = v.as_object() else {
        problems.push(Problem::new(path.clone(), format!("must be {what}")));
        return None;
    };
    let (key, value) = single_key(obj, path, "arrival process", ARRIVAL_KEYS, problems)?;
    let kp = path.key(key);
    match key {
        "poisson_per_hour" => positive(value, &kp, problems).map(Arrival::PoissonPerHour),
        "uniform" => {
            let (from, to) = pair(value, &kp, "[from_s, to_s] with from_s <= to_s", problems)?;
            let from = checked_time(from, &kp.idx(0), problems);
            let to = checked_time(to, &kp.idx(1), problems);
            Some(Arrival::Uniform(from?, to?))
        }
        _ => {
            let Some(items) = value.as_array() else {
                problems.push(Problem::new(kp, "must be an array of times (seconds >= 0)"));
                return None;
            };
            if items.len() as u64 > MAX_COUNT {
                problems.push(Problem::new(
                    kp,
                    format!("must have at most {MAX_COUNT} times"),
                ));
                return None;
            }
            let before = problems.len();
            let times: Vec<f64> = items
                .iter()
                .enumerate()
                .filter_map(|(i, t)| time(t, &kp.idx(i), problems))
                .collect();
            (problems.len() == before).then_some(Arrival::At(times))
        }
    }
}

/// `count`: required unless `arrival` is `at_s` (whose length it must then equal).
pub(super) fn parse_count(
    obj: &Map<String, Value>,
    path: &Path,
    arrival: Option<&Arrival>,
    problems: &mut Vec<Problem>,
) -> Option<u64> {
    let arrival_is_at = get(obj, "arrival")
        .and_then(Value::as_object)
        .is_some_and(|a| a.contains_key("at_s"));
    let count = match get(obj, "count") {
        None if arrival_is_at => None,
        None => {
            problems.push(Problem::new(
                path.clone(),
                "is required (unless arrival is at_s)",
            ));
            return None;
        }
        Some(v) => match json::integer(v, path, Rule::whole(0, MAX_COUNT as i64)) {
            Ok(n) => Some(n as u64),
            Err(problem) => {
                problems.push(problem);
                return None;
            }
        },
    };
    match (arrival, count) {
        (Some(Arrival::At(times)), Some(n)) if n != times.len() as u64 => {
            problems.push(Problem::new(
                path.clone(),
                format!(
                    "must equal the number of arrival.at_s times ({}) or be omitted",
                    times.len()
                ),
            ));
            None
        }
        (Some(Arrival::At(times)), None) => Some(times.len() as u64),
        (_, Some(n)) => Some(n),
        // at_s given but invalid: its problems are already reported.
        (_, None) => None,
    }
}

pub(super) fn parse_checkpoint(
    v: &Value,
    path: &Path,
    problems: &mut Vec<Problem>,
) -> Option<Checkpoint> {
    let Some(params) = v.as_object() else {
        problems.push(Problem::new(
            path.clone(),
            "must be an object {\"interval_s\": .., \"cost_s\": .., \"restore_s\": ..}",
        ));
        return None;
    };
    let p = path.key("interval_s");
    let interval = match get(params, "interval_s") {
        Some(x) => push(json::number(x, &p, Rule::POSITIVE_SECONDS), problems)
            .and_then(|x| push(json::millis(x, &p, Rule::POSITIVE_SECONDS), problems)),
        None => {
            problems.push(json::required(&p));
            None
        }
    };
    let mut optional = |key: &str| match get(params, key) {
        Some(x) => time(x, &path.key(key), problems).map(ms_from_s),
        None => Some(0),
    };
    let cost = optional("cost_s");
    let restore = optional("restore_s");
    Some(Checkpoint {
        interval: interval?,
        cost: cost?,
        restore: restore?,
    })
}

#[cfg(test)]
mod tests;
