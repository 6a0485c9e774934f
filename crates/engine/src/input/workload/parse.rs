//! Parsing and validation of one `workloads[i]` object (SPEC 7), reporting every problem
//! with its full JSON path through the validator's JSON field helpers
//! ([`crate::input::json`]).

use serde_json::{Map, Value};

use super::*;
use crate::input::json::{self, get, idx, join, Rule};
use crate::model::{ms_from_s, Checkpoint};
use crate::Problem;

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
pub(super) const DIST_KEYS: &[&str] = &["fixed", "uniform", "exponential", "lognormal", "choice"];
/// The fields of a workload's `checkpoint` object; [`parse`] ignores other keys.
pub const CHECKPOINT_FIELDS: &[&str] = &["interval_s", "cost_s", "restore_s"];

/// Parses and validates `workloads[i]` (at JSON path `path`, e.g. `"workloads[2]"`), pushing
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
    path: &str,
    share_names: &[&str],
    type_names: &[&str],
    kueue: bool,
    problems: &mut Vec<Problem>,
) -> Option<Workload> {
    let before = problems.len();
    let Some(obj) = v.as_object() else {
        problems.push(Problem::new(path, "must be an object (a workload)"));
        return None;
    };
    let p = |key: &str| join(path, key);

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
        problems.push(Problem::new(path, "is invalid"));
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

/// Pushes one problem per key of `obj` that is not in `accepted`.
pub(super) fn check_keys(
    obj: &Map<String, Value>,
    path: &str,
    accepted: &[&str],
    problems: &mut Vec<Problem>,
) {
    for key in obj.keys() {
        if !accepted.contains(&key.as_str()) {
            problems.push(Problem::new(
                path,
                format!("unknown key \"{key}\" (accepted: {})", accepted.join(", ")),
            ));
        }
    }
}

/// Keeps a reader's value, or records its problem.
pub(super) fn push<T>(r: Result<T, Problem>, problems: &mut Vec<Problem>) -> Option<T> {
    r.map_err(|p| problems.push(p)).ok()
}

pub(super) fn resolve_name(
    v: Option<&Value>,
    path: &str,
    names: &[&str],
    what: &str,
    problems: &mut Vec<Problem>,
) -> Option<usize> {
    let Some(v) = v else {
        problems.push(json::required(path));
        return None;
    };
    let name = push(json::string(v, path), problems)?;
    match names.iter().position(|n| *n == name) {
        Some(i) => Some(i),
        None => {
            let known = if names.is_empty() {
                "none is defined".to_string()
            } else {
                format!("known: {}", names.join(", "))
            };
            problems.push(json::unknown(
                path,
                format!("unknown {what} \"{name}\" ({known})"),
                names,
            ));
            None
        }
    }
}

/// A JSON number as a finite `f64`, or a problem.
pub(super) fn number(v: &Value, path: &str, problems: &mut Vec<Problem>) -> Option<f64> {
    push(json::number(v, path, Rule::NUMBER), problems)
}

/// A required number (missing = a problem).
pub(super) fn required_number(
    obj: &Map<String, Value>,
    key: &str,
    path: &str,
    problems: &mut Vec<Problem>,
) -> Option<f64> {
    let p = join(path, key);
    match get(obj, key) {
        Some(v) => number(v, &p, problems),
        None => {
            problems.push(json::required(&p));
            None
        }
    }
}

/// A number > 0.
pub(super) fn positive(v: &Value, path: &str, problems: &mut Vec<Problem>) -> Option<f64> {
    push(json::number(v, path, Rule::POSITIVE), problems)
}

/// A time in seconds: a number in `0..=MAX_TIME_S`.
pub(super) fn time(v: &Value, path: &str, problems: &mut Vec<Problem>) -> Option<f64> {
    push(json::number(v, path, Rule::SECONDS), problems)
}

pub(super) fn checked_time(x: f64, path: &str, problems: &mut Vec<Problem>) -> Option<f64> {
    push(Rule::SECONDS.check(x, path), problems)
}

/// A number >= 0.
pub(super) fn non_negative(v: &Value, path: &str, problems: &mut Vec<Problem>) -> Option<f64> {
    push(json::number(v, path, Rule::NON_NEGATIVE), problems)
}

/// A two-element array of numbers `[a, b]` with `a <= b`.
pub(super) fn pair(
    v: &Value,
    path: &str,
    what: &str,
    problems: &mut Vec<Problem>,
) -> Option<(f64, f64)> {
    let Some([a, b]) = v.as_array().map(Vec::as_slice) else {
        problems.push(Problem::new(path, format!("must be {what}")));
        return None;
    };
    let a = number(a, &idx(path, 0), problems);
    let b = number(b, &idx(path, 1), problems);
    let (a, b) = (a?, b?);
    if a > b {
        problems.push(Problem::new(
            path,
            format!("must be {what}: the first number is greater than the second"),
        ));
        return None;
    }
    Some((a, b))
}

/// An object with exactly one key among `accepted`: that key and its value.
pub(super) fn single_key<'a>(
    obj: &'a Map<String, Value>,
    path: &str,
    what: &str,
    accepted: &[&str],
    problems: &mut Vec<Problem>,
) -> Option<(&'a str, &'a Value)> {
    let mut entries = obj.iter();
    match (entries.next(), entries.next()) {
        (Some((key, value)), None) => {
            if accepted.contains(&key.as_str()) {
                Some((key.as_str(), value))
            } else {
                problems.push(Problem::new(
                    path,
                    format!(
                        "unknown {what} \"{key}\" (accepted: {})",
                        accepted.join(", ")
                    ),
                ));
                None
            }
        }
        _ => {
            problems.push(Problem::new(
                path,
                format!(
                    "must have exactly one key, the {what}: one of {}",
                    accepted.join(", ")
                ),
            ));
            None
        }
    }
}

pub(super) fn parse_arrival(v: &Value, path: &str, problems: &mut Vec<Problem>) -> Option<Arrival> {
    let what = "an object: {\"poisson_per_hour\": r}, {\"uniform\": [from_s, to_s]} or {\"at_s\": [t, ..]}";
    let Some(obj) = v.as_object() else {
        problems.push(Problem::new(path, format!("must be {what}")));
        return None;
    };
    let (key, value) = single_key(obj, path, "arrival process", ARRIVAL_KEYS, problems)?;
    let kp = join(path, key);
    match key {
        "poisson_per_hour" => positive(value, &kp, problems).map(Arrival::PoissonPerHour),
        "uniform" => {
            let (from, to) = pair(value, &kp, "[from_s, to_s] with from_s <= to_s", problems)?;
            let from = checked_time(from, &idx(&kp, 0), problems);
            let to = checked_time(to, &idx(&kp, 1), problems);
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
                .filter_map(|(i, t)| time(t, &idx(&kp, i), problems))
                .collect();
            (problems.len() == before).then_some(Arrival::At(times))
        }
    }
}

/// `count`: required unless `arrival` is `at_s` (whose length it must then equal).
pub(super) fn parse_count(
    obj: &Map<String, Value>,
    path: &str,
    arrival: Option<&Arrival>,
    problems: &mut Vec<Problem>,
) -> Option<u64> {
    let arrival_is_at = get(obj, "arrival")
        .and_then(Value::as_object)
        .is_some_and(|a| a.contains_key("at_s"));
    let count = match get(obj, "count") {
        None if arrival_is_at => None,
        None => {
            problems.push(Problem::new(path, "is required (unless arrival is at_s)"));
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
                path,
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

/// The job field a distribution feeds, for the checks that can be made before sampling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Instances,
    Work,
    /// SPEC 2: `0..=9999`.
    Priority,
    /// SPEC 12: the Kueue model's priorities, any 32-bit integer.
    KueuePriority,
    Startup,
}

impl Field {
    /// What a value the distribution can produce as such (fixed, choice, and the upper bound
    /// of uniform) must be.
    fn rule(self) -> Rule {
        match self {
            Field::Instances => Rule::NUMBER.at_least(1),
            Field::Work => Rule {
                seconds: true,
                ..Rule::POSITIVE
            },
            Field::Priority => Rule::NUMBER.at_least(0).at_most(MAX_PRIORITY as i64),
            Field::KueuePriority => Rule::NUMBER
                .at_least(crate::model::limits::KUEUE_MIN_PRIORITY as i64)
                .at_most(crate::model::limits::KUEUE_MAX_PRIORITY as i64),
            Field::Startup => Rule {
                seconds: true,
                ..Rule::NON_NEGATIVE
            },
        }
    }

    /// The rule of the lower bound of a uniform: for `work_s` it may be 0 (a sample of
    /// exactly 0 is clamped to 1 ms), otherwise as [`Field::rule`].
    fn lower_bound_rule(self) -> Rule {
        match self {
            Field::Work => Rule {
                seconds: true,
                ..Rule::NON_NEGATIVE
            },
            _ => self.rule(),
        }
    }

    /// `rule` checking `x` of this field: a Kueue priority out of range names both bounds.
    fn check(self, rule: Rule, x: f64, path: &str) -> Result<f64, Problem> {
        match rule.check(x, path) {
            Err(p) if self == Field::KueuePriority && x.is_finite() => {
                let mut p = p;
                // Fractions are fine (sampled values are rounded): only bounds fail here.
                p.message = json::kueue_priority_message(x);
                Err(p)
            }
            r => r,
        }
    }
}

pub(super) fn optional_dist(
    obj: &Map<String, Value>,
    key: &str,
    path: &str,
    field: Field,
    default: f64,
    problems: &mut Vec<Problem>,
) -> Option<Dist> {
    match get(obj, key) {
        Some(v) => parse_dist(v, &join(path, key), field, problems),
        None => Some(Dist::Fixed(default)),
    }
}

/// Checks a statically known value of `field`.
pub(super) fn checked(
    x: f64,
    path: &str,
    field: Field,
    problems: &mut Vec<Problem>,
) -> Option<f64> {
    push(field.check(field.rule(), x, path), problems)
}

pub(super) fn parse_dist(
    v: &Value,
    path: &str,
    field: Field,
    problems: &mut Vec<Problem>,
) -> Option<Dist> {
    if v.is_number() {
        let x = number(v, path, problems)?;
        return checked(x, path, field, problems).map(Dist::Fixed);
    }
    let Some(obj) = v.as_object() else {
        problems.push(Problem::new(
            path,
            "must be a number or a distribution: {\"fixed\": x}, {\"uniform\": [a, b]}, \
             {\"exponential\": {\"mean\": m}}, {\"lognormal\": {\"median\": m, \"sigma\": s}} \
             or {\"choice\": [[value, weight], ..]}",
        ));
        return None;
    };
    let (key, value) = single_key(obj, path, "distribution", DIST_KEYS, problems)?;
    let kp = join(path, key);
    match key {
        "fixed" => {
            let x = number(value, &kp, problems)?;
            checked(x, &kp, field, problems).map(Dist::Fixed)
        }
        "uniform" => {
            let (a, b) = pair(value, &kp, "[a, b] with a <= b", problems)?;
            let low = push(
                field.check(field.lower_bound_rule(), a, &idx(&kp, 0)),
                problems,
            );
            let high = push(field.check(field.rule(), b, &idx(&kp, 1)), problems);
            (low.is_some() && high.is_some()).then_some(Dist::Uniform(a, b))
        }
        "exponential" => {
            let params = params_object(value, &kp, &["mean"], problems)?;
            let mean = required_number(params, "mean", &kp, problems)?;
            let mean = push(Rule::POSITIVE.check(mean, &join(&kp, "mean")), problems)?;
            Some(Dist::Exponential { mean })
        }
        "lognormal" => {
            let params = params_object(value, &kp, &["median", "sigma"], problems)?;
            let median = required_number(params, "median", &kp, problems);
            let sigma = required_number(params, "sigma", &kp, problems);
            let median =
                median.and_then(|m| push(Rule::POSITIVE.check(m, &join(&kp, "median")), problems));
            let sigma = sigma
                .and_then(|s| push(Rule::NON_NEGATIVE.check(s, &join(&kp, "sigma")), problems));
            Some(Dist::Lognormal {
                median: median?,
                sigma: sigma?,
            })
        }
        _ => parse_choice(value, &kp, field, problems),
    }
}

/// The parameter object of a distribution, with only `accepted` keys.
pub(super) fn params_object<'a>(
    v: &'a Value,
    path: &str,
    accepted: &[&str],
    problems: &mut Vec<Problem>,
) -> Option<&'a Map<String, Value>> {
    let Some(obj) = v.as_object() else {
        let fields: Vec<String> = accepted.iter().map(|k| format!("\"{k}\": ..")).collect();
        problems.push(Problem::new(
            path,
            format!("must be an object {{{}}}", fields.join(", ")),
        ));
        return None;
    };
    let before = problems.len();
    check_keys(obj, path, accepted, problems);
    (problems.len() == before).then_some(obj)
}

pub(super) fn parse_choice(
    v: &Value,
    path: &str,
    field: Field,
    problems: &mut Vec<Problem>,
) -> Option<Dist> {
    let what = "a non-empty array of [value, weight] pairs";
    let Some(items) = v.as_array().filter(|items| !items.is_empty()) else {
        problems.push(Problem::new(path, format!("must be {what}")));
        return None;
    };
    let before = problems.len();
    let mut entries = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let ip = idx(path, i);
        let Some([value, weight]) = item.as_array().map(Vec::as_slice) else {
            problems.push(Problem::new(ip, "must be a [value, weight] pair"));
            continue;
        };
        let vp = idx(&ip, 0);
        let value = number(value, &vp, problems).and_then(|x| checked(x, &vp, field, problems));
        let weight = non_negative(weight, &idx(&ip, 1), problems);
        if let (Some(value), Some(weight)) = (value, weight) {
            entries.push((value, weight));
        }
    }
    if problems.len() > before {
        return None;
    }
    let total: f64 = entries.iter().map(|(_, w)| w).sum();
    if !(total > 0.0 && total.is_finite()) {
        problems.push(Problem::new(
            path,
            "the weights must add up to a positive (finite) number",
        ));
        return None;
    }
    Some(Dist::Choice(entries))
}

pub(super) fn parse_checkpoint(
    v: &Value,
    path: &str,
    problems: &mut Vec<Problem>,
) -> Option<Checkpoint> {
    let Some(params) = v.as_object() else {
        problems.push(Problem::new(
            path,
            "must be an object {\"interval_s\": .., \"cost_s\": .., \"restore_s\": ..}",
        ));
        return None;
    };
    let p = join(path, "interval_s");
    let interval = match get(params, "interval_s") {
        Some(x) => push(json::number(x, &p, Rule::POSITIVE_SECONDS), problems)
            .and_then(|x| push(json::millis(x, &p, Rule::POSITIVE_SECONDS), problems)),
        None => {
            problems.push(json::required(&p));
            None
        }
    };
    let mut optional = |key: &str| match get(params, key) {
        Some(x) => time(x, &join(path, key), problems).map(ms_from_s),
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
mod tests {
    use super::*;
    use serde_json::json;

    const SHARES: &[&str] = &["alpha", "beta", "gamma"];
    const TYPES: &[&str] = &["ml.g5.xlarge", "ml.p5.48xlarge"];

    fn parse_ok(v: Value) -> Workload {
        let mut problems = Vec::new();
        let w = parse(&v, "workloads[0]", SHARES, TYPES, false, &mut problems);
        assert!(problems.is_empty(), "unexpected problems: {problems:?}");
        w.expect("a workload")
    }

    /// The problems of parsing `v` as `workloads[3]`, as "path: message" strings.
    fn problems_of(v: Value) -> Vec<String> {
        let mut problems = Vec::new();
        let w = parse(&v, "workloads[3]", SHARES, TYPES, false, &mut problems);
        assert!(w.is_none(), "expected problems for {v}");
        assert!(!problems.is_empty());
        problems
            .into_iter()
            .map(|p| format!("{}: {}", p.path, p.message))
            .collect()
    }

    fn paths_of(v: Value) -> Vec<String> {
        let mut problems = Vec::new();
        let w = parse(&v, "workloads[3]", SHARES, TYPES, false, &mut problems);
        assert!(w.is_none(), "expected problems for {v}");
        problems.into_iter().map(|p| p.path).collect()
    }

    fn base() -> Value {
        json!({"share": "beta", "count": 5, "arrival": {"poisson_per_hour": 2},
               "instance_type": "ml.g5.xlarge", "work_s": 600})
    }

    fn with(key: &str, value: Value) -> Value {
        let mut v = base();
        v[key] = value;
        v
    }

    fn without(key: &str) -> Value {
        let mut v = base();
        v.as_object_mut().expect("object").remove(key);
        v
    }

    // ---- parsing -------------------------------------------------------------------

    #[test]
    fn parses_the_spec_example() {
        let w = parse_ok(
            json!({"share": "beta", "count": 50, "arrival": {"poisson_per_hour": 2},
            "instance_type": "ml.p5.48xlarge", "instances": 1,
            "work_s": {"lognormal": {"median": 3600, "sigma": 1.0}},
            "priority": 0, "checkpoint": {"interval_s": 1800, "cost_s": 60, "restore_s": 120}}),
        );
        assert_eq!(
            w,
            Workload {
                share: 1,
                share_name: "beta".into(),
                count: 50,
                arrival: Arrival::PoissonPerHour(2.0),
                instance_type: 1,
                instances: Dist::Fixed(1.0),
                work_s: Dist::Lognormal {
                    median: 3600.0,
                    sigma: 1.0
                },
                priority: Dist::Fixed(0.0),
                startup_s: Dist::Fixed(0.0),
                checkpoint: Some(Checkpoint {
                    interval: 1_800_000,
                    cost: 60_000,
                    restore: 120_000
                }),
                checkpoint_on_preempt: false,
                preemption_retries: None,
                deadline_factor: None,
                recovery: None,
                on_retries_exhausted: Default::default(),
                escalate: None,
                kueue: false,
            }
        );
    }

    #[test]
    fn parses_every_field_and_form() {
        let w = parse_ok(json!({"share": "gamma", "arrival": {"at_s": [5, 1.5, 3]},
            "instance_type": "ml.g5.xlarge",
            "instances": {"choice": [[1, 3], [2, 1], [8, 0]]},
            "work_s": {"exponential": {"mean": 100}},
            "priority": {"uniform": [0, 9999]},
            "startup_s": {"fixed": 30},
            "checkpoint": {"interval_s": 0.001},
            "checkpoint_on_preempt": true, "preemption_retries": 3.0, "deadline_factor": 2.5}));
        assert_eq!(w.count, 3);
        assert_eq!(w.arrival, Arrival::At(vec![5.0, 1.5, 3.0]));
        assert_eq!(
            w.instances,
            Dist::Choice(vec![(1.0, 3.0), (2.0, 1.0), (8.0, 0.0)])
        );
        assert_eq!(w.work_s, Dist::Exponential { mean: 100.0 });
        assert_eq!(w.priority, Dist::Uniform(0.0, 9999.0));
        assert_eq!(w.startup_s, Dist::Fixed(30.0));
        assert_eq!(
            w.checkpoint,
            Some(Checkpoint {
                interval: 1,
                cost: 0,
                restore: 0
            })
        );
        assert!(w.checkpoint_on_preempt);
        assert_eq!(w.preemption_retries, Some(3));
        assert_eq!(w.deadline_factor, Some(2.5));
        // at_s with a matching count; uniform arrival; explicit nulls are defaults.
        let w = parse_ok(
            json!({"share": "alpha", "count": 2, "arrival": {"at_s": [0, 0]},
            "instance_type": "ml.g5.xlarge", "work_s": 1, "preemption_retries": null,
            "checkpoint": null, "priority": null}),
        );
        assert_eq!(
            (w.count, w.preemption_retries, w.checkpoint),
            (2, None, None)
        );
        assert_eq!(w.priority, Dist::Fixed(0.0));
        let w = parse_ok(with("arrival", json!({"uniform": [10, 10]})));
        assert_eq!(w.arrival, Arrival::Uniform(10.0, 10.0));
        // count 0 is allowed: the workload generates nothing.
        assert_eq!(parse_ok(with("count", json!(0))).count, 0);
    }

    #[test]
    fn reports_missing_and_unknown_fields() {
        let v = json!({"arrival": {"poisson_per_hour": 1}});
        assert_eq!(
            problems_of(v),
            [
                "workloads[3].share: is required",
                "workloads[3].instance_type: is required",
                "workloads[3].count: is required (unless arrival is at_s)",
                "workloads[3].work_s: is required",
            ]
        );
        assert_eq!(
            problems_of(json!(5)),
            ["workloads[3]: must be an object (a workload)"]
        );
        // Unknown keys of the workload and of its checkpoint are left to the caller (it warns).
        let mut v = with("checkpoint", json!({"interval_s": 10, "every": 1}));
        v["comment"] = json!("nightly batch");
        let checkpoint = Checkpoint {
            interval: 10_000,
            cost: 0,
            restore: 0,
        };
        assert_eq!(parse_ok(v).checkpoint, Some(checkpoint));
        assert!(FIELDS.contains(&"deadline_factor") && CHECKPOINT_FIELDS.len() == 3);
        assert_eq!(
            problems_of(without("arrival")),
            ["workloads[3].arrival: is required"]
        );
    }

    #[test]
    fn reports_unknown_names_with_the_known_ones() {
        assert_eq!(
            problems_of(with("share", json!("delta"))),
            ["workloads[3].share: unknown share \"delta\" (known: alpha, beta, gamma)"]
        );
        assert_eq!(
            problems_of(with("instance_type", json!("ml.x"))),
            ["workloads[3].instance_type: unknown instance type \"ml.x\" (known: ml.g5.xlarge, ml.p5.48xlarge)"]
        );
        assert_eq!(
            problems_of(with("share", json!(3))),
            ["workloads[3].share: must be a string, not a number"]
        );
        let mut problems = Vec::new();
        assert!(parse(&base(), "workloads[0]", &[], TYPES, false, &mut problems).is_none());
        assert_eq!(
            problems[0].message,
            "unknown share \"beta\" (none is defined)"
        );
    }

    #[test]
    fn reports_arrival_problems() {
        let cases = [
            (json!(3), "workloads[3].arrival"),
            (json!({}), "workloads[3].arrival"),
            (
                json!({"poisson_per_hour": 1, "at_s": []}),
                "workloads[3].arrival",
            ),
            (json!({"poisson": 1}), "workloads[3].arrival"),
            (
                json!({"poisson_per_hour": 0}),
                "workloads[3].arrival.poisson_per_hour",
            ),
            (
                json!({"poisson_per_hour": "2"}),
                "workloads[3].arrival.poisson_per_hour",
            ),
            (json!({"uniform": [5]}), "workloads[3].arrival.uniform"),
            (json!({"uniform": [5, 1]}), "workloads[3].arrival.uniform"),
            (
                json!({"uniform": [-1, 1]}),
                "workloads[3].arrival.uniform[0]",
            ),
            (
                json!({"uniform": [0, "x"]}),
                "workloads[3].arrival.uniform[1]",
            ),
            (
                json!({"uniform": [0, 2e12]}),
                "workloads[3].arrival.uniform[1]",
            ),
            (json!({"at_s": 5}), "workloads[3].arrival.at_s"),
        ];
        for (arrival, path) in cases {
            assert_eq!(
                paths_of(with("arrival", arrival.clone())),
                [path],
                "{arrival}"
            );
        }
        assert_eq!(
            problems_of(with("arrival", json!({"poisson": 1}))),
            ["workloads[3].arrival: unknown arrival process \"poisson\" (accepted: poisson_per_hour, uniform, at_s)"]
        );
        assert_eq!(
            problems_of(with("arrival", json!({}))),
            ["workloads[3].arrival: must have exactly one key, the arrival process: one of poisson_per_hour, uniform, at_s"]
        );
        assert_eq!(
            problems_of(with("arrival", json!({"at_s": [1, -2, 3, "x", 1e13]}))),
            [
                "workloads[3].arrival.at_s[1]: must be >= 0 (got -2)",
                "workloads[3].arrival.at_s[3]: must be a number of seconds, not a string",
                "workloads[3].arrival.at_s[4]: must be at most 1e12 seconds (got 10000000000000)",
            ]
        );
    }

    #[test]
    fn reports_count_problems() {
        assert_eq!(
            problems_of(with("count", json!(-1))),
            ["workloads[3].count: must be >= 0 (got -1)"]
        );
        assert_eq!(paths_of(with("count", json!(2.5))), ["workloads[3].count"]);
        assert_eq!(
            problems_of(with("count", json!(MAX_COUNT + 1))),
            ["workloads[3].count: must be <= 1000000 (got 1000001)"]
        );
        let mut v = with("arrival", json!({"at_s": [1, 2, 3]}));
        v["count"] = json!(2);
        assert_eq!(
            problems_of(v),
            ["workloads[3].count: must equal the number of arrival.at_s times (3) or be omitted"]
        );
        // An invalid at_s list does not also make `count` required.
        let mut v = with("arrival", json!({"at_s": "soon"}));
        v.as_object_mut().expect("object").remove("count");
        assert_eq!(paths_of(v), ["workloads[3].arrival.at_s"]);
    }

    #[test]
    fn reports_distribution_problems_with_exact_paths() {
        let cases = [
            ("work_s", json!("long"), "workloads[3].work_s"),
            ("work_s", json!(0), "workloads[3].work_s"),
            ("work_s", json!({"fixed": -1}), "workloads[3].work_s.fixed"),
            ("work_s", json!({"fixed": "x"}), "workloads[3].work_s.fixed"),
            (
                "work_s",
                json!({"normal": {"mean": 1}}),
                "workloads[3].work_s",
            ),
            (
                "work_s",
                json!({"fixed": 1, "uniform": [1, 2]}),
                "workloads[3].work_s",
            ),
            (
                "work_s",
                json!({"uniform": [3, 2]}),
                "workloads[3].work_s.uniform",
            ),
            (
                "work_s",
                json!({"uniform": [1, 2, 3]}),
                "workloads[3].work_s.uniform",
            ),
            (
                "work_s",
                json!({"uniform": [-1, 2]}),
                "workloads[3].work_s.uniform[0]",
            ),
            (
                "work_s",
                json!({"exponential": 5}),
                "workloads[3].work_s.exponential",
            ),
            (
                "work_s",
                json!({"exponential": {}}),
                "workloads[3].work_s.exponential.mean",
            ),
            (
                "work_s",
                json!({"exponential": {"mean": 0}}),
                "workloads[3].work_s.exponential.mean",
            ),
            (
                "work_s",
                json!({"exponential": {"mean": 1, "rate": 1}}),
                "workloads[3].work_s.exponential",
            ),
            (
                "work_s",
                json!({"lognormal": {"median": 0, "sigma": 1}}),
                "workloads[3].work_s.lognormal.median",
            ),
            (
                "work_s",
                json!({"lognormal": {"median": 10, "sigma": -1}}),
                "workloads[3].work_s.lognormal.sigma",
            ),
            (
                "work_s",
                json!({"lognormal": {"median": 10}}),
                "workloads[3].work_s.lognormal.sigma",
            ),
            (
                "work_s",
                json!({"choice": []}),
                "workloads[3].work_s.choice",
            ),
            (
                "work_s",
                json!({"choice": [[1, 0], [2, 0]]}),
                "workloads[3].work_s.choice",
            ),
            (
                "work_s",
                json!({"choice": [[1, 1], 2]}),
                "workloads[3].work_s.choice[1]",
            ),
            (
                "work_s",
                json!({"choice": [[1, 1], [0, 1]]}),
                "workloads[3].work_s.choice[1][0]",
            ),
            (
                "work_s",
                json!({"choice": [[1, -1]]}),
                "workloads[3].work_s.choice[0][1]",
            ),
            ("instances", json!(0), "workloads[3].instances"),
            (
                "instances",
                json!({"uniform": [0, 4]}),
                "workloads[3].instances.uniform[0]",
            ),
            (
                "instances",
                json!({"choice": [[1, 1], [0.5, 1]]}),
                "workloads[3].instances.choice[1][0]",
            ),
            ("priority", json!(10000), "workloads[3].priority"),
            (
                "priority",
                json!({"fixed": -1}),
                "workloads[3].priority.fixed",
            ),
            (
                "priority",
                json!({"uniform": [1, 10000]}),
                "workloads[3].priority.uniform[1]",
            ),
            (
                "priority",
                json!({"choice": [[-3, 1]]}),
                "workloads[3].priority.choice[0][0]",
            ),
            ("startup_s", json!(-5), "workloads[3].startup_s"),
            (
                "startup_s",
                json!({"uniform": [-5, 5]}),
                "workloads[3].startup_s.uniform[0]",
            ),
        ];
        for (key, value, path) in cases {
            assert_eq!(paths_of(with(key, value.clone())), [path], "{key}: {value}");
        }
        // Both bounds of a uniform are checked.
        assert_eq!(
            paths_of(with("work_s", json!({"uniform": [-2, 0]}))),
            [
                "workloads[3].work_s.uniform[0]",
                "workloads[3].work_s.uniform[1]"
            ]
        );
        assert_eq!(
            paths_of(with("priority", json!({"uniform": [-1, 10000]}))),
            [
                "workloads[3].priority.uniform[0]",
                "workloads[3].priority.uniform[1]"
            ]
        );
        // The messages the brief names.
        assert_eq!(
            problems_of(with(
                "work_s",
                json!({"lognormal": {"median": 10, "sigma": -1}})
            )),
            ["workloads[3].work_s.lognormal.sigma: must be >= 0 (got -1)"]
        );
        assert_eq!(
            problems_of(with("work_s", json!({"normal": {"mean": 1}}))),
            ["workloads[3].work_s: unknown distribution \"normal\" (accepted: fixed, uniform, exponential, lognormal, choice)"]
        );
        assert_eq!(
            problems_of(with(
                "work_s",
                json!({"lognormal": {"median": 1, "sigma": 1, "mu": 0}})
            )),
            ["workloads[3].work_s.lognormal: unknown key \"mu\" (accepted: median, sigma)"]
        );
        assert_eq!(
            problems_of(with("instances", json!({"choice": [[1, 1], [0.5, 1]]}))),
            ["workloads[3].instances.choice[1][0]: must be >= 1 (got 0.5)"]
        );
        assert_eq!(
            problems_of(with("priority", json!(10000))),
            ["workloads[3].priority: must be <= 9999 (got 10000)"]
        );
        // Statically unknowable ranges are fine: they are clamped when sampled.
        parse_ok(with("priority", json!({"exponential": {"mean": 50000}})));
        parse_ok(with("work_s", json!({"uniform": [0, 10]})));
        parse_ok(with(
            "work_s",
            json!({"lognormal": {"median": 10, "sigma": 0}}),
        ));
    }

    #[test]
    fn reports_other_field_problems() {
        let cases = [
            ("checkpoint", json!(5), "workloads[3].checkpoint"),
            (
                "checkpoint",
                json!({"cost_s": 1}),
                "workloads[3].checkpoint.interval_s",
            ),
            (
                "checkpoint",
                json!({"interval_s": 0}),
                "workloads[3].checkpoint.interval_s",
            ),
            (
                "checkpoint",
                json!({"interval_s": 0.0004}),
                "workloads[3].checkpoint.interval_s",
            ),
            (
                "checkpoint",
                json!({"interval_s": 10, "cost_s": -1}),
                "workloads[3].checkpoint.cost_s",
            ),
            (
                "checkpoint",
                json!({"interval_s": 10, "restore_s": "x"}),
                "workloads[3].checkpoint.restore_s",
            ),
            (
                "checkpoint",
                json!({"interval_s": 1e13}),
                "workloads[3].checkpoint.interval_s",
            ),
            (
                "checkpoint_on_preempt",
                json!(1),
                "workloads[3].checkpoint_on_preempt",
            ),
            (
                "preemption_retries",
                json!(-1),
                "workloads[3].preemption_retries",
            ),
            (
                "preemption_retries",
                json!(1.5),
                "workloads[3].preemption_retries",
            ),
            (
                "preemption_retries",
                json!("3"),
                "workloads[3].preemption_retries",
            ),
            ("deadline_factor", json!(0), "workloads[3].deadline_factor"),
            (
                "deadline_factor",
                json!(true),
                "workloads[3].deadline_factor",
            ),
        ];
        for (key, value, path) in cases {
            assert_eq!(paths_of(with(key, value.clone())), [path], "{key}: {value}");
        }
        assert_eq!(
            problems_of(with("checkpoint", json!({"interval_s": 0.0004}))),
            ["workloads[3].checkpoint.interval_s: must be at least 0.001 seconds (1 ms) (got 0.0004)"]
        );
    }

    #[test]
    fn reports_every_problem_at_once() {
        let v = json!({"share": "nope", "count": -2, "arrival": {"uniform": [4, 2]},
            "instance_type": "ml.x", "work_s": {"exponential": {"mean": -1}},
            "instances": 0, "priority": 1e6, "startup_s": -1, "deadline_factor": -1});
        assert_eq!(
            paths_of(v),
            [
                "workloads[3].share",
                "workloads[3].instance_type",
                "workloads[3].arrival.uniform",
                "workloads[3].count",
                "workloads[3].instances",
                "workloads[3].work_s.exponential.mean",
                "workloads[3].priority",
                "workloads[3].startup_s",
                "workloads[3].deadline_factor",
            ]
        );
    }
}
