//! *Interruption cost per share*: horizontal stacked bars of the instance time lost to
//! preemptions (rolled-back work), spent starting up and restoring, saving checkpoints and in
//! grace periods, labelled with the share's preemption counts by cause.

use plotters::coord::Shift;
use plotters::prelude::*;
use quotalab_engine::digest::{Digest, ShareMetrics};

use crate::chart::{draw_rect, hatch_rect, share_bars, share_colour, share_tint, Pen};
use crate::format;

/// The four parts of a bar, in drawing order.
pub const PARTS: [&str; 4] = ["lost work", "startup / restore", "checkpoints", "grace"];

/// A share's bar in instance-hours: `[lost, startup, checkpoint, grace]`.
pub fn parts(m: &ShareMetrics) -> [f64; 4] {
    [m.lost_h, m.startup_h, m.checkpoint_h, m.grace_h].map(|v| v.max(0.0))
}

/// "2 reclaims · 1 fair-sharing · 1 in-share" (every cause the share had), or "no preemption";
/// in the Kueue model (`kueue`) preemption inside a queue is "within CQ" (withinClusterQueue).
pub fn counts_label(m: &ShareMetrics, kueue: bool) -> String {
    let n = |x: u64| format::thousands(x as f64);
    let mut v = Vec::new();
    if m.reclaim > 0 {
        let s = if m.reclaim == 1 { "" } else { "s" };
        v.push(format!("{} reclaim{s}", n(m.reclaim)));
    }
    if m.reclaim_while_borrowing > 0 {
        v.push(format!("{} while borrowing", n(m.reclaim_while_borrowing)));
    }
    if m.fair_sharing > 0 {
        v.push(format!("{} fair-sharing", n(m.fair_sharing)));
    }
    if m.in_share > 0 {
        // Short in a bar's label, as the cohorts table says it (the caption spells it out).
        let word = if kueue { "within CQ" } else { "in-share" };
        v.push(format!("{} {word}", n(m.in_share)));
    }
    if v.is_empty() {
        return "no preemption".into();
    }
    v.join(" · ")
}

/// A Kueue queue's preemptor waits (SPEC 12.1), with those whose freed quota another
/// workload took first: "3", "3 (1 taken)".
pub fn waits_label(m: &ShareMetrics) -> String {
    let n = |x: u64| format::thousands(x as f64);
    match m.quota_taken_while_waiting {
        0 => n(m.preemptor_waits),
        taken => format!("{} ({} taken)", n(m.preemptor_waits), n(taken)),
    }
}

/// The bar unit: instance-minutes for small costs, instance-hours otherwise. `(per hour,
/// axis name, short unit)`.
pub fn unit(max_h: f64) -> (f64, &'static str, &'static str) {
    if max_h < 2.0 {
        (60.0, "instance-minutes", "inst.-min")
    } else {
        (1.0, "instance-hours", "inst.-h")
    }
}

/// The x axis of a chart of bars in instance time (these, the useful work's) whose longest
/// bar is `max_h` instance-hours: in its [`unit`], `room` times that bar long (1 when it is
/// empty), named `what (unit)`. `(per hour, short unit, length, name)`.
pub fn bar_axis(max_h: f64, room: f64, what: &str) -> (f64, &'static str, f64, String) {
    let (scale, unit_name, unit_short) = unit(max_h);
    let top = if max_h > 0.0 {
        max_h * scale * room
    } else {
        1.0
    };
    (scale, unit_short, top, format!("{what} ({unit_name})"))
}

/// The x axis's top, raised from `x_top` so that each bar's label (`texts[i]`, written after
/// its end `ends[i]`) fits in a chart `root_w` device pixels wide (a long one, "2.6 inst.-h ·
/// 7 reclaims · 9 in-share", was cut at the chart's edge at 1024 px), unless that would
/// squash the bars; a label too long for one line is wrapped ([`crate::chart::share_bars`]),
/// so room for its widest part then. Every bar chart of shares uses it.
pub fn room_for_labels(
    root_w: u32,
    pen: Pen,
    d: &Digest,
    x_top: f64,
    ends: &[f64],
    texts: &[String],
) -> f64 {
    let longest = d
        .shares
        .iter()
        .map(|m| m.name.chars().count().min(18))
        .max()
        .unwrap_or(4);
    let names_w = (longest as f64 * 7.2 + 16.0).clamp(56.0, 150.0);
    let plot_w = f64::from(root_w) / pen.dpr - names_w - 40.0;
    ends.iter().zip(texts).fold(x_top, |top, (end, text)| {
        let width = |s: &str| crate::chart::estimate_width(pen, 11.5, s) as f64 / pen.dpr + 12.0;
        let need = Some(width(text))
            .filter(|w| *w < plot_w * 0.8)
            .unwrap_or_else(|| text.split(" · ").map(width).fold(0.0, f64::max));
        if plot_w > 0.0 && need < plot_w * 0.8 {
            top.max(end / (1.0 - need / plot_w))
        } else {
            top
        }
    })
}

/// The chart's CSS height for `n` shares.
pub fn css_height(n: usize) -> f64 {
    (64.0 + 44.0 * n as f64).max(150.0)
}

/// Draws the bars on `root` (any plotters backend, [`css_height`] CSS pixels high).
pub fn draw_interruption<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    d: &Digest,
) -> Result<(), String> {
    let totals: Vec<f64> = d.shares.iter().map(|m| parts(m).iter().sum()).collect();
    let max_h = totals.iter().copied().fold(0.0, f64::max);
    let (scale, unit_short, x_top, x_desc) = bar_axis(max_h, 1.45, "interruption cost");
    let kueue = d.kueue.is_some();
    let texts: Vec<String> = d
        .shares
        .iter()
        .zip(&totals)
        .map(|(m, t)| {
            let total = t * scale;
            if total > 0.0 {
                format!(
                    "{} {unit_short} · {}",
                    crate::chart::tick_label((total * 100.0).round() / 100.0),
                    counts_label(m, kueue)
                )
            } else if m.reclaim + m.in_share > 0 {
                format!("no cost · {}", counts_label(m, kueue))
            } else {
                "no interruption".into()
            }
        })
        .collect();
    let ends: Vec<f64> = totals.iter().map(|t| t * scale).collect();
    let x_top = room_for_labels(root.dim_in_pixel().0, pen, d, x_top, &ends, &texts);
    share_bars(root, pen, d, x_top, &x_desc, |chart, i, row| {
        let m = &d.shares[i];
        let (y0, y1) = (row.y0, row.y1);
        let mut x = 0.0;
        for (k, v) in parts(m).into_iter().enumerate() {
            let w = v * scale;
            if w <= 0.0 {
                continue;
            }
            let rect = [(x, y0), (x + w, y1)];
            let fill = match k {
                0 => share_colour(i),
                1 => share_tint(i, 0.5),
                2 => WHITE,
                _ => share_tint(i, 0.82),
            };
            draw_rect(chart, rect, fill.filled())?;
            // Checkpoints hatched and outlined, grace outlined.
            match k {
                2 => hatch_rect(root, chart, pen, rect, 5.0, i)?,
                3.. => draw_rect(chart, rect, pen.stroke(share_colour(i), 1.0))?,
                _ => {}
            }
            x += w;
        }
        Ok((totals[i] * scale, texts[i].clone()))
    })
}

/// The chart's caption, in the model's words (`kueue`: ClusterQueues, within ClusterQueue).
pub fn caption(kueue: bool) -> &'static str {
    if kueue {
        "What interruptions cost each ClusterQueue in instance time: work rolled back by preemptions, time spent starting up and restoring, saving checkpoints, and grace periods. Labels count preemptions by cause: reclaim (another ClusterQueue took back quota it had lent), while borrowing, fair-sharing, and within CQ (withinClusterQueue: a higher-priority workload of the same ClusterQueue)."
    } else {
        "What interruptions cost each share in instance time: work rolled back by preemptions, time spent starting up and restoring, saving checkpoints, and grace periods. Labels count preemptions by cause: reclaim (another share took its lent capacity back) and in-share (a higher-priority job of the same share)."
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quotalab_engine::digest::DigestLimits;

    /// Issue #34: a long label ("· 9 within CQ") is not cut at the chart's right edge: the
    /// axis leaves room for every label after its bar.
    #[test]
    fn every_label_fits_after_its_bar() {
        let text = include_str!("../../../www/presets/kueue-hierarchical-fair.json");
        let mut d = quotalab_engine::run_digest(text, DigestLimits::default()).unwrap();
        for m in d.shares.iter_mut() {
            // As the Kueue preset's team-b-cq at 1024 px: "· 7 reclaims · 9 within CQ".
            m.reclaim = 7;
            m.in_share = 9;
            m.fair_sharing = 0;
            m.reclaim_while_borrowing = 0;
        }
        // 500 px; 330 px, a phone's card (issue #34, walk: "2.6 inst.-h · 7 recl…" was cut
        // there): the label goes on several lines, each within the chart.
        for width in [500u32, 330] {
            let out = crate::svg::svg(width, css_height(d.shares.len()) as u32, |root, pen| {
                draw_interruption(root, pen, &d)
            })
            .unwrap();
            let checked = crate::chart::texts_within(&out, width, &|body| {
                body.contains("within CQ") || body.contains("inst.-h") || body.contains("reclaims")
            });
            assert!(checked >= d.shares.len(), "{width}: {out}");
        }
    }
}
