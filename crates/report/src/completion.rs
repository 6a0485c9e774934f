//! *Completion time*: per share, the cumulative share of its succeeded jobs that completed
//! (submit to success) within a time, on a logarithmic time axis, with the engine's p50 and
//! p90 marked.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use quotalab_engine::digest::{Digest, ShareMetrics};

use crate::chart::{chart_builder, err, share_colour, Pen, MUTED};
use crate::format;

/// A share's note in the chart's legend: `12 done · p50 5 min · p90 2.5 h`, or `no job
/// succeeded`.
pub fn legend_note(s: &ShareMetrics) -> String {
    if s.succeeded == 0 {
        "no job succeeded".to_string()
    } else {
        format!(
            "{} done · p50 {} · p90 {}",
            s.succeeded,
            format::duration(s.completion_s.p50),
            format::duration(s.completion_s.p90)
        )
    }
}

/// At most this many steps are drawn per share (quantiles of the sorted times).
const MAX_STEPS: usize = 600;

/// The sorted completion times (seconds) of each share's SUCCEEDED jobs.
pub fn completion_times(d: &Digest) -> Vec<Vec<f64>> {
    let mut out = vec![Vec::new(); d.shares.len()];
    for j in &d.jobs {
        if j.state != quotalab_engine::digest::State::Succeeded {
            continue;
        }
        if let (Some(end), Some(v)) = (j.end_s, out.get_mut(j.share as usize)) {
            v.push((end - j.submit_s).max(0.0));
        }
    }
    for v in &mut out {
        quotalab_engine::sort::stable_by(v, &f64::total_cmp);
    }
    out
}

/// The corners of the empirical CDF of sorted `times`, at most about `MAX_STEPS` steps,
/// extended to `x_end`.
pub fn cdf_corners(times: &[f64], x_end: f64) -> Vec<(f64, f64)> {
    let n = times.len();
    if n == 0 {
        return Vec::new();
    }
    let picks: Vec<usize> = if n <= MAX_STEPS {
        (0..n).collect()
    } else {
        let mut v: Vec<usize> = (0..MAX_STEPS)
            .map(|k| ((k as f64 + 1.0) * n as f64 / MAX_STEPS as f64).ceil() as usize - 1)
            .collect();
        v.dedup();
        v
    };
    let mut out = Vec::with_capacity(picks.len() * 2 + 2);
    let mut level = 0.0;
    for k in picks {
        let x = times[k];
        out.push((x, level));
        level = (k + 1) as f64 / n as f64;
        out.push((x, level));
    }
    out.push((x_end.max(times[n - 1]), level));
    out
}

/// Round durations for the log axis's ticks.
const TICKS: [f64; 22] = [
    1.0,
    2.0,
    5.0,
    10.0,
    20.0,
    30.0,
    60.0,
    120.0,
    300.0,
    600.0,
    1200.0,
    1800.0,
    3600.0,
    7200.0,
    10_800.0,
    21_600.0,
    43_200.0,
    86_400.0,
    172_800.0,
    345_600.0,
    604_800.0,
    1_209_600.0,
];

/// The x range (seconds) and its ticks: at least a decade, a little room on both sides.
pub fn log_range(times: &[Vec<f64>]) -> (f64, f64, Vec<f64>) {
    let all = times.iter().flatten().copied().filter(|t| *t > 0.0);
    let (lo, hi) = all.fold((f64::INFINITY, 0.0f64), |(a, b), t| (a.min(t), b.max(t)));
    let (mut lo, mut hi) = if hi > 0.0 {
        (lo / 1.5, hi * 1.5)
    } else {
        (10.0, 3600.0)
    };
    if hi / lo < 10.0 {
        let mid = (lo * hi).sqrt();
        lo = mid / 10f64.sqrt();
        hi = mid * 10f64.sqrt();
    }
    lo = lo.max(0.5);
    let mut ticks: Vec<f64> = TICKS
        .iter()
        .copied()
        .filter(|t| *t >= lo && *t <= hi)
        .collect();
    // Keep about six labels, evenly spread on the log scale.
    while ticks.len() > 7 {
        ticks = ticks.into_iter().step_by(2).collect();
    }
    (lo, hi, ticks)
}

/// Draws the completion-time CDFs on `root`, any plotters backend.
pub fn draw_completion<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    d: &Digest,
) -> Result<(), String> {
    let times = completion_times(d);
    let (lo, hi, ticks) = log_range(&times);

    let mut chart = chart_builder(root, pen, [14.0, 24.0, 6.0, 4.0], 56.0)
        .build_cartesian_2d((lo..hi).log_scale().with_key_points(ticks), 0f64..1.04)
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    crate::base_mesh!(mesh, pen)
        .y_labels(5)
        .x_desc("completion time (submit to success, log scale)")
        .y_desc(if d.kueue.is_some() {
            // Issue #34: the Kueue model says workloads.
            "succeeded workloads done by then"
        } else {
            "succeeded jobs done by then"
        })
        .x_label_formatter(&|v| format::duration_tick(*v))
        .y_label_formatter(&|v| {
            if *v > 1.001 {
                String::new()
            } else {
                format!("{:.0}%", v * 100.0)
            }
        })
        .draw()
        .map_err(err)?;

    // The p50 and p90 levels.
    for (level, name) in [(0.5, "p50"), (0.9, "p90")] {
        chart
            .draw_series(DashedLineSeries::new(
                [(lo, level), (hi, level)],
                pen.px(4.0),
                pen.px(4.0),
                pen.stroke(MUTED, 1.0),
            ))
            .map_err(err)?;
        let (x, y) = chart.backend_coord(&(lo, level));
        root.draw_text(
            name,
            &pen.text(11.0, MUTED, HPos::Left, VPos::Bottom),
            (x + pen.ipx(4.0), y - pen.ipx(2.0)),
        )
        .map_err(err)?;
    }
    for (i, t) in times.iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        chart
            .draw_series(LineSeries::new(
                cdf_corners(t, hi).into_iter().map(|(x, y)| (x.max(lo), y)),
                pen.stroke(share_colour(i), 2.2),
            ))
            .map_err(err)?;
    }
    // The engine's percentiles, one mark per share on each level.
    for (i, t) in times.iter().enumerate() {
        let Some(m) = d.shares.get(i).filter(|_| !t.is_empty()) else {
            continue;
        };
        for (v, level) in [(m.completion_s.p50, 0.5), (m.completion_s.p90, 0.9)] {
            if v <= 0.0 {
                continue;
            }
            let at = (v.clamp(lo, hi), level);
            chart
                .draw_series([
                    Circle::new(at, pen.px(5.0), WHITE.filled()),
                    Circle::new(at, pen.px(3.6), share_colour(i).filled()),
                ])
                .map_err(err)?;
        }
    }
    Ok(())
}

/// The chart's caption, in the model's words (`kueue`: ClusterQueues, workloads).
pub fn caption(kueue: bool) -> &'static str {
    if kueue {
        "How long workloads took from submission to success, per ClusterQueue: the further left a curve rises, the faster that ClusterQueue's workloads finished. Dots mark the median (p50) and p90."
    } else {
        "How long jobs took from submission to success, per share: the further left a curve rises, the faster that share's jobs finished. Dots mark the median (p50) and p90."
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quotalab_engine::digest::DigestLimits;

    /// Issue #34: the Kueue model's axis says workloads, the AWS model's jobs.
    #[test]
    fn the_axis_says_the_models_word() {
        for (text, word) in [
            (
                include_str!("../../../www/presets/kueue-three-queues.json"),
                "succeeded workloads done by then",
            ),
            (
                include_str!("../../../www/presets/aws-walkthrough.json"),
                "succeeded jobs done by then",
            ),
        ] {
            let d = quotalab_engine::run_digest(text, DigestLimits::default()).unwrap();
            let out =
                crate::svg::svg(600, 300, |root, pen| draw_completion(root, pen, &d)).unwrap();
            assert!(out.contains(word), "{word}");
        }
    }
}
