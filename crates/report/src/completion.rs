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
        quotalab_engine::sort::compact_by(v, &f64::total_cmp);
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

/// The ticks of a log axis from `lo` to `hi` drawn `width` pixels wide whose labels (each
/// `label_w(t)` pixels wide) do not touch: left to right, a tick too close to the last one
/// kept is left out (issue #34: "20 min" and "30 min" ran together on a phone).
pub fn spaced_ticks(
    ticks: Vec<f64>,
    lo: f64,
    hi: f64,
    width: f64,
    label_w: impl Fn(f64) -> f64,
) -> Vec<f64> {
    let span = (hi / lo).ln();
    if !span.is_finite() || span <= 0.0 || width <= 0.0 {
        return ticks;
    }
    let x = |t: f64| width * (t / lo).ln() / span;
    let gap = 8.0;
    let mut out: Vec<f64> = Vec::with_capacity(ticks.len());
    for t in ticks {
        let fits = out
            .last()
            .is_none_or(|&p| x(t) - x(p) >= (label_w(p) + label_w(t)) / 2.0 + gap);
        if fits {
            out.push(t);
        }
    }
    out
}

/// Draws the completion-time CDFs on `root`, any plotters backend.
pub fn draw_completion<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    d: &Digest,
) -> Result<(), String> {
    let times = completion_times(d);
    let (lo, hi, ticks) = log_range(&times);
    // The plot's width in device pixels (the root less the margins and the y labels).
    let plot_w = f64::from(root.dim_in_pixel().0) - (6.0 + 24.0 + 56.0) * pen.dpr;
    let ticks = spaced_ticks(ticks, lo, hi, plot_w, |t| {
        f64::from(crate::chart::estimate_width(
            pen,
            11.5,
            &format::duration_tick(t),
        ))
    });

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

    /// Issue #34: on a phone's chart (about 290 px of plot) the ticks 5 min, 10 min,
    /// 20 min, 30 min, 1 h... keep only labels that do not run together.
    #[test]
    fn close_ticks_are_left_out_on_a_narrow_axis() {
        let ticks = vec![300.0, 600.0, 1200.0, 1800.0, 3600.0, 7200.0, 10_800.0];
        let w = |t: f64| 11.5 * 0.6 * format::duration_tick(t).chars().count() as f64;
        let kept = spaced_ticks(ticks.clone(), 200.0, 15_000.0, 290.0, w);
        assert!(
            !kept.contains(&1800.0) || !kept.contains(&1200.0),
            "{kept:?}"
        );
        assert!(kept.len() >= 4, "{kept:?}");
        // Wide enough, every tick stays.
        assert_eq!(
            spaced_ticks(ticks.clone(), 200.0, 15_000.0, 900.0, w),
            ticks
        );
        // The Kueue preset's chart on a phone's card: no two axis labels touch.
        let text = include_str!("../../../www/presets/kueue-three-queues.json");
        let d = quotalab_engine::run_digest(text, DigestLimits::default()).unwrap();
        let out = crate::svg::svg(330, 260, |root, pen| draw_completion(root, pen, &d)).unwrap();
        let mut labels: Vec<(f64, f64)> = out
            .split("<text")
            .skip(1)
            .filter_map(|piece| {
                let body = piece[piece.find('>')? + 1..piece.find("</text>")?].trim();
                let is_tick =
                    body.ends_with(" min") || body.ends_with(" h") || body.ends_with(" s");
                let x: f64 = piece
                    .split("x=\"")
                    .nth(1)?
                    .split('"')
                    .next()?
                    .parse()
                    .ok()?;
                is_tick.then(|| (x, w(0.0).max(11.5 * 0.6 * body.chars().count() as f64)))
            })
            .collect();
        labels.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(labels.len() >= 3, "{out}");
        for pair in labels.windows(2) {
            // Centred labels: their half widths must fit between the two x.
            let room = pair[1].0 - pair[0].0;
            assert!(room >= (pair[0].1 + pair[1].1) / 2.0, "{labels:?}");
        }
    }

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
