//! *Useful work per share* (SPEC 14, "Allocation versus opportunity"): one horizontal bar
//! per share of the instance time that became kept progress, split into the part backed by
//! the share's allocation (solid, in the share's colour) and the part made on borrowed
//! capacity (its tint, hatched as borrowed usage is on the allocation panels), labelled with
//! hours and the borrowed part's share.

use plotters::coord::Shift;
use plotters::prelude::*;
use quotalab_engine::digest::Digest;

use crate::chart::{draw_rect, hatch_rect, share_bars, share_colour, share_tint, Pen};
use crate::format;
use crate::interruption::{bar_axis, room_for_labels};

/// The two parts of a bar, in drawing order.
pub const PARTS: [&str; 2] = ["on its allocation", "on borrowed capacity"];

/// Share `i`'s bar in instance-hours: `[allocation-backed, borrowed]`, that is
/// `[useful_h - useful_borrowed_h, useful_borrowed_h]`.
pub fn parts(d: &Digest, i: usize) -> [f64; 2] {
    let useful = d.shares.get(i).map_or(0.0, |m| m.useful_h.max(0.0));
    let borrowed = d
        .contract
        .shares
        .get(i)
        .map_or(0.0, |c| c.useful_borrowed_h)
        .clamp(0.0, useful);
    [useful - borrowed, borrowed]
}

/// A bar's label: `3.5 inst.-h useful · 1.25 borrowed (36%)`, `2 inst.-h useful · all on its
/// allocation`, `no useful work`; amounts in `per_hour` units per hour named `unit`. The
/// parts are joined by " · ", where a narrow chart wraps them (issue #34: "60 inst.-h
/// useful, all o…" was cut on a phone).
pub fn label(parts: [f64; 2], per_hour: f64, unit: &str) -> String {
    let total = parts[0] + parts[1];
    if total <= 0.0 {
        return "no useful work".into();
    }
    let num = |h: f64| format::decimal(h * per_hour, 2);
    if parts[1] <= 0.0 {
        format!("{} {unit} useful · all on its allocation", num(total))
    } else {
        format!(
            "{} {unit} useful · {} borrowed ({})",
            num(total),
            num(parts[1]),
            format::percent(Some(parts[1] / total))
        )
    }
}

/// The chart's CSS height for `n` shares (as the interruption bars').
pub fn css_height(n: usize) -> f64 {
    crate::interruption::css_height(n)
}

/// Draws the bars on `root` (any plotters backend, [`css_height`] CSS pixels high).
pub fn draw_useful<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    d: &Digest,
) -> Result<(), String> {
    let bars: Vec<[f64; 2]> = (0..d.shares.len()).map(|i| parts(d, i)).collect();
    let max_h = bars.iter().map(|p| p[0] + p[1]).fold(0.0, f64::max);
    let (scale, unit_short, x_top, x_desc) = bar_axis(max_h, 1.6, "useful work");
    // Room after each bar for its label (issue #34: cut at the edge on a phone).
    let ends: Vec<f64> = bars.iter().map(|p| (p[0] + p[1]) * scale).collect();
    let texts: Vec<String> = bars.iter().map(|p| label(*p, scale, unit_short)).collect();
    let x_top = room_for_labels(root.dim_in_pixel().0, pen, d, x_top, &ends, &texts);
    share_bars(root, pen, d, x_top, &x_desc, |chart, i, row| {
        let p = &bars[i];
        let (y0, y1) = (row.y0, row.y1);
        let own = p[0] * scale;
        let total = (p[0] + p[1]) * scale;
        if own > 0.0 {
            draw_rect(chart, [(0.0, y0), (own, y1)], share_colour(i).filled())?;
        }
        if total > own {
            let rect = [(own, y0), (total, y1)];
            draw_rect(chart, rect, share_tint(i, 0.55).filled())?;
            hatch_rect(root, chart, pen, rect, 6.0, i)?;
        }
        Ok((total, texts[i].clone()))
    })
}

/// The chart's caption, in the model's words (`kueue`: ClusterQueues, nominal quota).
pub fn caption(kueue: bool) -> &'static str {
    if kueue {
        "Each ClusterQueue's useful work (kept progress, in instance time): the part its nominal quota backs, and the part done on quota it borrowed, which a reclaim can take away."
    } else {
        "Each share's useful work (kept progress, in instance time): the part its allocation backs, and the part done on capacity it borrowed, which a reclaim can take away."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #34: on a phone's card every label ends within the chart ("60 inst.-h useful,
    /// all o…" was cut at the right edge in the recovery preset).
    #[test]
    fn every_label_fits_on_a_phone() {
        let text = include_str!("../../../www/presets/recovery-not-free.json");
        let d = quotalab_engine::run_digest(text, quotalab_engine::digest::DigestLimits::default())
            .unwrap();
        let width = 330u32;
        let out = crate::svg::svg(width, css_height(d.shares.len()) as u32, |root, pen| {
            draw_useful(root, pen, &d)
        })
        .unwrap();
        let checked = crate::chart::texts_within(&out, width, &|body| {
            let body = body.trim();
            // A bar's label (not the axis's centred "useful work (instance-hours)").
            let bar_label = body.contains("inst.-") && !body.starts_with("useful work");
            bar_label || body.contains("allocation")
        });
        assert!(checked >= d.shares.len(), "{out}");
    }

    #[test]
    fn labels_say_hours_and_the_borrowed_part() {
        assert_eq!(label([0.0, 0.0], 1.0, "inst.-h"), "no useful work");
        assert_eq!(
            label([2.0, 0.0], 1.0, "inst.-h"),
            "2 inst.-h useful · all on its allocation"
        );
        assert_eq!(
            label([2.25, 1.25], 1.0, "inst.-h"),
            "3.5 inst.-h useful · 1.25 borrowed (36%)"
        );
        assert_eq!(
            label([0.5, 0.25], 60.0, "inst.-min"),
            "45 inst.-min useful · 15 borrowed (33%)"
        );
    }
}
