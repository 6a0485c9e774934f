//! Read-only views of the engine's result JSON (SPEC section 8) for display.
//!
//! Everything here only *reads* what the engine computed: no scheduling rule lives in the app.
//! Missing or malformed fields read as zero or `None` so a partial result still renders.

use serde_json::Value;

/// One row of the summary table: a share (or the totals over all shares).
#[derive(Clone, Debug, PartialEq)]
pub struct ShareSummary {
    pub name: String,
    pub submitted: u64,
    pub succeeded: u64,
    /// Completion time (end minus submit) of succeeded jobs; `None` when none succeeded.
    pub completion_p50_s: Option<f64>,
    pub completion_p90_s: Option<f64>,
    pub preemptions_reclaim: u64,
    pub preemptions_in_share: u64,
    pub hours_own: f64,
    pub hours_borrowed: f64,
    pub hours_lent: f64,
    pub hours_held: f64,
    /// `None` when the share held no instance (the ratio is undefined).
    pub goodput: Option<f64>,
}

/// The occupancy of one share over time: change points `(t_s, instances)` where
/// instances = `own + borrowed` summed over the share's instance types.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareOccupancy {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// Cluster occupancy per share, from `series`.
#[derive(Clone, Debug, PartialEq)]
pub struct Occupancy {
    pub end_s: f64,
    /// How many distinct instance types the series covers (the chart sums them).
    pub instance_types: usize,
    pub shares: Vec<ShareOccupancy>,
}

impl Occupancy {
    /// The largest occupancy of any share at any time (0 when there is no data).
    pub fn max_instances(&self) -> f64 {
        self.shares
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .fold(0.0, f64::max)
    }

    /// The last time the chart must cover: `end_s`, or the last change point if later.
    pub fn last_t_s(&self) -> f64 {
        self.shares
            .iter()
            .filter_map(|s| s.points.last().map(|p| p.0))
            .fold(self.end_s, f64::max)
    }
}

fn num(v: &Value, path: &[&str]) -> Option<f64> {
    let mut v = v;
    for key in path {
        v = v.get(key)?;
    }
    v.as_f64()
}

fn count(v: &Value, path: &[&str]) -> u64 {
    num(v, path).map_or(0, |x| x.max(0.0).round() as u64)
}

fn hours(v: &Value, key: &str) -> f64 {
    num(v, &["instance_hours", key]).unwrap_or(0.0)
}

/// Reads one share's (or the totals') statistics.
pub fn summary_of(name: &str, stats: &Value) -> ShareSummary {
    let succeeded = count(stats, &["jobs", "succeeded"]);
    let completion = |key: &str| {
        if succeeded == 0 {
            None
        } else {
            num(stats, &["completion_s", key])
        }
    };
    let hours_held = hours(stats, "held");
    ShareSummary {
        name: name.to_string(),
        submitted: count(stats, &["jobs", "submitted"]),
        succeeded,
        completion_p50_s: completion("p50"),
        completion_p90_s: completion("p90"),
        preemptions_reclaim: count(stats, &["preemptions", "reclaim"]),
        preemptions_in_share: count(stats, &["preemptions", "in_share"]),
        hours_own: hours(stats, "own"),
        hours_borrowed: hours(stats, "borrowed"),
        hours_lent: hours(stats, "lent"),
        hours_held,
        goodput: if hours_held > 0.0 {
            num(stats, &["goodput"])
        } else {
            None
        },
    }
}

/// The share names in the result, in the engine's order.
pub fn share_names(result: &Value) -> Vec<String> {
    result
        .get("shares")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

/// One summary per share, in the engine's order.
pub fn share_summaries(result: &Value) -> Vec<ShareSummary> {
    result
        .get("shares")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| summary_of(k, v)).collect())
        .unwrap_or_default()
}

/// The totals over all shares, when the result has them.
pub fn totals_summary(result: &Value) -> Option<ShareSummary> {
    let totals = result.get("totals")?;
    totals.get("jobs")?;
    Some(summary_of("All shares", totals))
}

/// Per share, `own + borrowed` over time (summed over instance types), from `series`.
pub fn occupancy(result: &Value) -> Occupancy {
    let end_s = num(result, &["end_s"]).unwrap_or(0.0);
    let series = result.get("series");
    let t_s: Vec<f64> = series
        .and_then(|s| s.get("t_s"))
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|t| t.as_f64().unwrap_or(0.0)).collect())
        .unwrap_or_default();
    let per_share = series
        .and_then(|s| s.get("shares"))
        .and_then(Value::as_object);

    // The table's order first, then any share only the series knows.
    let mut names = share_names(result);
    if let Some(m) = per_share {
        for k in m.keys() {
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
    }

    let mut types: Vec<&str> = Vec::new();
    let shares = names
        .into_iter()
        .map(|name| {
            let mut values = vec![0.0; t_s.len()];
            if let Some(by_type) = per_share
                .and_then(|m| m.get(&name))
                .and_then(Value::as_object)
            {
                for (ty, s) in by_type {
                    if !types.contains(&ty.as_str()) {
                        types.push(ty);
                    }
                    for key in ["own", "borrowed"] {
                        if let Some(a) = s.get(key).and_then(Value::as_array) {
                            for (slot, x) in values.iter_mut().zip(a) {
                                *slot += x.as_f64().unwrap_or(0.0);
                            }
                        }
                    }
                }
            }
            ShareOccupancy {
                name,
                points: t_s.iter().copied().zip(values).collect(),
            }
        })
        .collect();
    Occupancy {
        end_s,
        instance_types: types.len(),
        shares,
    }
}

/// Turns change points into the corners of a step line that holds each value until the
/// next change and the last one until `until`.
pub fn step_points(points: &[(f64, f64)], until: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len() * 2 + 1);
    for (i, &(t, v)) in points.iter().enumerate() {
        if i > 0 {
            out.push((t, points[i - 1].1));
        }
        out.push((t, v));
    }
    if let Some(&(t, v)) = points.last() {
        if until > t {
            out.push((until, v));
        }
    }
    out
}
