//! A typical load per queue (SPEC 16, "never an empty result"): a configuration imported
//! without jobs gets, in one step, a workload per share and instance type whose Poisson
//! arrivals keep a chosen share of that quota busy on average.

use serde_json::{json, Map, Value};

use super::Imported;
use crate::input::path::Path;
use crate::Problem;

/// The generated jobs' work: lognormal, median one hour, sigma 1 (a mean of
/// `3600 x e^0.5` seconds), one instance each.
pub const WORK_MEDIAN_S: f64 = 3600.0;
pub const WORK_SIGMA: f64 = 1.0;
/// Arrivals cover this many hours.
pub const HOURS: f64 = 24.0;
/// The busy share asked for is at most this many percent.
pub const MAX_PERCENT: u32 = 400;

/// The arrival rate (per hour) that keeps `percent` of `limit` instances busy on average
/// with one-instance jobs of mean length `mean_work_s` (Little's law: busy = rate x mean).
pub fn arrivals_per_hour(limit: u64, percent: u32, mean_work_s: f64) -> f64 {
    limit as f64 * f64::from(percent) / 100.0 * 3600.0 / mean_work_s
}

/// Adds to the scenario (JSON text) one workload per share and instance type it has a
/// quota of: one-instance jobs arriving over [`HOURS`] hours at the rate that keeps
/// `percent` of the quota busy, work lognormal (median [`WORK_MEDIAN_S`]), priorities drawn
/// evenly from the scenario's priority classes (0 without). The scenario's other workloads,
/// jobs and events stay; the result is validated.
pub fn add_typical_load(scenario_json: &str, percent: u32) -> Result<Imported, Vec<Problem>> {
    if percent == 0 || percent > MAX_PERCENT {
        return Err(vec![Problem::new(
            Path::named("busy share"),
            format!("must be from 1% to {MAX_PERCENT}% of each queue's quota (got {percent}%)"),
        )]);
    }
    let mut sc: Value = serde_json::from_str(scenario_json)
        .map_err(|e| vec![Problem::whole(crate::input::json::syntax_error(&e))])?;
    // Checks the scenario first: its problems name its paths.
    crate::input::validate::load(scenario_json)?;
    let mean = WORK_MEDIAN_S * libm::exp(WORK_SIGMA * WORK_SIGMA / 2.0);
    let priority = match sc.get("priority_classes").and_then(Value::as_object) {
        Some(m) if !m.is_empty() => {
            let mut values: Vec<i64> = m.values().filter_map(Value::as_i64).collect();
            values.sort_unstable();
            values.dedup();
            json!({"choice": values.iter().map(|v| json!([v, 1])).collect::<Vec<_>>()})
        }
        _ => json!(0),
    };
    let mut added = Vec::new();
    for share in sc
        .get("shares")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(name) = share.get("name").and_then(Value::as_str) else {
            continue;
        };
        for (ty, limit) in share
            .get("limits")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let Some(limit) = limit.as_u64().filter(|l| *l > 0) else {
                continue;
            };
            let rate = arrivals_per_hour(limit, percent, mean);
            let count = libm::ceil(rate * HOURS).max(1.0) as u64;
            let mut w = Map::new();
            w.insert("share".into(), json!(name));
            w.insert("count".into(), json!(count));
            w.insert(
                "arrival".into(),
                json!({"poisson_per_hour": libm::round(rate * 1000.0) / 1000.0}),
            );
            w.insert("instance_type".into(), json!(ty));
            w.insert("instances".into(), json!(1));
            w.insert(
                "work_s".into(),
                json!({"lognormal": {"median": WORK_MEDIAN_S, "sigma": WORK_SIGMA}}),
            );
            w.insert("priority".into(), priority.clone());
            added.push(Value::Object(w));
        }
    }
    if added.is_empty() {
        return Err(vec![Problem::new(
            Path::root().key("shares"),
            "no share has a quota: there is nothing to load",
        )]);
    }
    let n = added.len();
    let Some(obj) = sc.as_object_mut() else {
        return Err(vec![Problem::whole("the scenario must be a JSON object")]);
    };
    let list = obj
        .entry("workloads")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(l) = list {
        l.extend(added);
    }
    let text = sc.to_string();
    crate::input::validate::load(&text)?;
    let warning = Problem::whole(format!(
        "added {n} workload{} ({percent}% of each quota busy on average: one-instance jobs over {HOURS} hours, work lognormal with a median of 1 hour)",
        if n == 1 { "" } else { "s" }
    ));
    Ok(Imported::new(sc, vec![warning]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KUEUE: &str = r#"{"format":"quotalab/v1","model":"kueue","name":"t",
      "instance_types":[{"name":"a100","gpus":1,"usd_per_hour":0}],
      "shares":[{"name":"a","limits":{"a100":8},"cohort":"c"},{"name":"b","limits":{"a100":0},"cohort":"c"}],
      "priority_classes":{"low":10,"high":1000}}"#;

    #[test]
    fn one_workload_per_quota_at_the_asked_busy_share() {
        let out = add_typical_load(KUEUE, 50).unwrap();
        let w = out.scenario["workloads"].as_array().unwrap();
        // b has no quota: nothing to load.
        assert_eq!(w.len(), 1);
        assert_eq!(w[0]["share"], "a");
        // 4 instances busy on average with a mean work of 3600 e^0.5 s.
        let rate = w[0]["arrival"]["poisson_per_hour"].as_f64().unwrap();
        assert!(
            (rate * 3600.0 * libm::exp(0.5) / 3600.0 - 4.0).abs() < 0.01,
            "{rate}"
        );
        assert_eq!(w[0]["count"], json!((rate * 24.0).ceil() as u64));
        assert_eq!(w[0]["priority"], json!({"choice": [[10, 1], [1000, 1]]}));
        // The load runs: jobs are generated and finish.
        let r = crate::run_json(&out.scenario_json).unwrap();
        assert!(r.contains("\"succeeded\""));
    }

    #[test]
    fn a_busy_share_out_of_range_or_no_quota_is_refused() {
        for p in [0, MAX_PERCENT + 1] {
            let e = add_typical_load(KUEUE, p).unwrap_err();
            assert!(e[0]
                .to_string()
                .starts_with("busy share: must be from 1% to 400%"));
        }
        let none = KUEUE.replace("\"a100\":8", "\"a100\":0");
        let e = add_typical_load(&none, 50).unwrap_err();
        assert_eq!(
            e[0].to_string(),
            "shares: no share has a quota: there is nothing to load"
        );
        assert!(add_typical_load("{", 50).is_err());
    }
}
