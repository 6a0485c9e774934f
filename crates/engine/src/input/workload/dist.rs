//! A numeric field's distribution (SPEC 7): fixed, uniform, exponential, lognormal, choice.

use serde_json::{Map, Value};

use super::*;
use crate::input::json::{self, get, Rule};
use crate::input::path::Path;
use crate::Problem;

use super::readers::{check_keys, non_negative, number, pair, push, required_number, single_key};

pub(super) const DIST_KEYS: &[&str] = &["fixed", "uniform", "exponential", "lognormal", "choice"];

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
                .at_least(crate::input::model::limits::KUEUE_MIN_PRIORITY as i64)
                .at_most(crate::input::model::limits::KUEUE_MAX_PRIORITY as i64),
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
    fn check(self, rule: Rule, x: f64, path: &Path) -> Result<f64, Problem> {
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
    path: &Path,
    field: Field,
    default: f64,
    problems: &mut Vec<Problem>,
) -> Option<Dist> {
    match get(obj, key) {
        Some(v) => parse_dist(v, &path.key(key), field, problems),
        None => Some(Dist::Fixed(default)),
    }
}

/// Checks a statically known value of `field`.
pub(super) fn checked(
    x: f64,
    path: &Path,
    field: Field,
    problems: &mut Vec<Problem>,
) -> Option<f64> {
    push(field.check(field.rule(), x, path), problems)
}

pub(super) fn parse_dist(
    v: &Value,
    path: &Path,
    field: Field,
    problems: &mut Vec<Problem>,
) -> Option<Dist> {
    if v.is_number() {
        let x = number(v, path, problems)?;
        return checked(x, path, field, problems).map(Dist::Fixed);
    }
    let Some(obj) = v.as_object() else {
        problems.push(Problem::new(
            path.clone(),
            "must be a number or a distribution: {\"fixed\": x}, {\"uniform\": [a, b]}, \
             {\"exponential\": {\"mean\": m}}, {\"lognormal\": {\"median\": m, \"sigma\": s}} \
             or {\"choice\": [[value, weight], ..]}",
        ));
        return None;
    };
    let (key, value) = single_key(obj, path, "distribution", DIST_KEYS, problems)?;
    let kp = path.key(key);
    match key {
        "fixed" => {
            let x = number(value, &kp, problems)?;
            checked(x, &kp, field, problems).map(Dist::Fixed)
        }
        "uniform" => {
            let (a, b) = pair(value, &kp, "[a, b] with a <= b", problems)?;
            let low = push(
                field.check(field.lower_bound_rule(), a, &kp.idx(0)),
                problems,
            );
            let high = push(field.check(field.rule(), b, &kp.idx(1)), problems);
            (low.is_some() && high.is_some()).then_some(Dist::Uniform(a, b))
        }
        "exponential" => {
            let params = params_object(value, &kp, &["mean"], problems)?;
            let mean = required_number(params, "mean", &kp, problems)?;
            let mean = push(Rule::POSITIVE.check(mean, &kp.key("mean")), problems)?;
            Some(Dist::Exponential { mean })
        }
        "lognormal" => {
            let params = params_object(value, &kp, &["median", "sigma"], problems)?;
            let median = required_number(params, "median", &kp, problems);
            let sigma = required_number(params, "sigma", &kp, problems);
            let median =
                median.and_then(|m| push(Rule::POSITIVE.check(m, &kp.key("median")), problems));
            let sigma =
                sigma.and_then(|s| push(Rule::NON_NEGATIVE.check(s, &kp.key("sigma")), problems));
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
    path: &Path,
    accepted: &[&str],
    problems: &mut Vec<Problem>,
) -> Option<&'a Map<String, Value>> {
    let Some(obj) = v.as_object() else {
        let fields: Vec<String> = accepted.iter().map(|k| format!("\"{k}\": ..")).collect();
        problems.push(Problem::new(
            path.clone(),
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
    path: &Path,
    field: Field,
    problems: &mut Vec<Problem>,
) -> Option<Dist> {
    let what = "a non-empty array of [value, weight] pairs";
    let Some(items) = v.as_array().filter(|items| !items.is_empty()) else {
        problems.push(Problem::new(path.clone(), format!("must be {what}")));
        return None;
    };
    let before = problems.len();
    let mut entries = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let ip = path.idx(i);
        let Some([value, weight]) = item.as_array().map(Vec::as_slice) else {
            problems.push(Problem::new(ip, "must be a [value, weight] pair"));
            continue;
        };
        let vp = ip.idx(0);
        let value = number(value, &vp, problems).and_then(|x| checked(x, &vp, field, problems));
        let weight = non_negative(weight, &ip.idx(1), problems);
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
            path.clone(),
            "the weights must add up to a positive (finite) number",
        ));
        return None;
    }
    Some(Dist::Choice(entries))
}
