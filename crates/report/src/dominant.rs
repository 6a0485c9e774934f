//! *Dominant resource share over time* (SPEC 12 results, Kueue model): each ClusterQueue's
//! Kueue `weightedShare` (the largest, over instance types, of what it borrows beyond its
//! nominal quota per 1,000 of the lendable quota around it, divided by its fair-sharing
//! weight; 0 while it stays within its quota) as a step line in its colour. Fair sharing
//! preempts from the queue whose share is highest and admits first where it is lowest, so
//! the lines show who is ahead. A queue of weight 0 that borrows has an infinite share,
//! drawn along the top of the chart and named in its label.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use quotalab_engine::digest::Digest;

use crate::chart::{
    count_axis, err, estimate_width, share_colour, step_corners, time_chart, Frame, Pen, MUTED,
};

/// The chart's title and caption, on the page and in the report.
pub const TITLE: &str = "Dominant resource share over time";
pub const CAPTION: &str = "Each ClusterQueue's dominant resource share over time: what it borrows beyond its nominal quota, per 1,000 of the quota it could borrow, divided by its weight (0 within its quota). Fair sharing admits first where it is lowest and preempts where it is highest.";

/// Share `i`'s series as plotted: finite values as they are, infinite ones at `top`.
fn values(series: &[Option<u64>], top: f64) -> Vec<f64> {
    series.iter().map(|v| v.map_or(top, |v| v as f64)).collect()
}

/// Whether the run has a dominant share worth a chart: a Kueue run in which some
/// ClusterQueue's share is above 0 at some time.
pub fn has_chart(d: &Digest) -> bool {
    d.kueue.as_ref().is_some_and(|k| {
        !k.t_s.is_empty()
            && k.share_dominant
                .iter()
                .any(|s| s.iter().any(|v| *v != Some(0)))
    })
}

/// The highest finite share of the run, and whether any share was infinite.
pub fn peak(d: &Digest) -> (f64, bool) {
    let Some(k) = d.kueue.as_ref() else {
        return (0.0, false);
    };
    let all = k.share_dominant.iter().flatten();
    let finite = all.clone().filter_map(|v| *v).max().unwrap_or(0) as f64;
    (finite, all.clone().any(Option::is_none))
}

/// Draws the lines on `root` (any plotters backend). Returns where the plotting area is.
pub fn draw_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    d: &Digest,
) -> Result<Frame, String> {
    let (finite, infinite) = peak(d);
    let (y_top, y_labels) = count_axis((finite * 1.15).max(10.0));
    let (mut chart, axis, end) = time_chart(
        root,
        pen,
        d,
        (y_top, y_labels),
        "dominant share (weightedShare)",
    )?;
    let x_max = end / axis.per;
    let Some(k) = d.kueue.as_ref() else {
        return Ok(Frame::of(chart.plotting_area(), pen, 0.0, end));
    };
    for (i, series) in k.share_dominant.iter().enumerate() {
        if series.iter().all(|v| *v == Some(0)) {
            continue;
        }
        let v = values(series, y_top);
        chart
            .draw_series(LineSeries::new(
                step_corners(&k.t_s, |j| v[j], end)
                    .into_iter()
                    .map(|(x, y)| (x / axis.per, y)),
                pen.stroke(share_colour(i), 2.0),
            ))
            .map_err(err)?;
    }
    if infinite {
        let (x, y) = chart.backend_coord(&(x_max, y_top));
        let note = "top line: infinite (weight 0, borrowing)";
        let style = pen.text(11.5, MUTED, HPos::Right, VPos::Top);
        let (right, top) = (x - pen.ipx(4.0), y + pen.ipx(4.0));
        // On a white ground: the lines at the top would run through the words. Its size is
        // estimated, not measured: plotters measures text through the page's DOM, which the
        // engine worker making the report has not (it panicked there).
        let (w, h) = (estimate_width(pen, 11.5, note), pen.ipx(11.5 * 1.25));
        let pad = pen.ipx(3.0);
        root.draw(&Rectangle::new(
            [(right - w - pad, top - pad), (right + pad, top + h + pad)],
            WHITE.mix(0.9).filled(),
        ))
        .map_err(err)?;
        root.draw_text(note, &style, (right, top)).map_err(err)?;
    }
    Ok(Frame::of(chart.plotting_area(), pen, 0.0, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(text: &str) -> Digest {
        let limits = quotalab_engine::digest::DigestLimits {
            max_points: usize::MAX,
            max_events: usize::MAX,
            max_jobs: usize::MAX,
        };
        quotalab_engine::run_digest(text, limits).expect("a valid scenario")
    }

    const FAIR: &str = include_str!("../../../www/presets/kueue-hierarchical-fair.json");
    const AWS: &str = include_str!("../../../www/presets/aws-walkthrough.json");

    #[test]
    fn a_kueue_run_that_borrows_has_a_chart_and_an_aws_run_none() {
        let d = digest(FAIR);
        assert!(has_chart(&d));
        let (finite, _) = peak(&d);
        assert!(finite > 0.0, "someone borrowed: {finite}");
        assert!(!has_chart(&digest(AWS)));
        assert_eq!(peak(&digest(AWS)), (0.0, false));
    }

    #[test]
    fn the_chart_draws_one_line_per_queue_above_zero_as_svg() {
        let d = digest(FAIR);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (800, 300)).into_drawing_area();
            draw_on(&root, Pen { dpr: 1.0 }, &d).unwrap();
        }
        let k = d.kueue.as_ref().unwrap();
        let stroke = |i: usize| {
            let (r, g, b) = crate::palette::rgb(i);
            format!("stroke=\"#{r:02X}{g:02X}{b:02X}\"")
        };
        let mut drawn = 0;
        for (i, s) in k.share_dominant.iter().enumerate() {
            let above = s.iter().any(|v| *v != Some(0));
            let lines = svg.matches(&stroke(i)).count();
            assert_eq!(lines, usize::from(above), "queue {i}: {lines} lines");
            drawn += lines;
        }
        assert!(drawn > 0);
        assert!(svg.contains("dominant share (weightedShare)"));
    }

    #[test]
    fn infinite_shares_are_drawn_at_the_top() {
        assert_eq!(
            values(&[Some(3), None, Some(0)], 50.0),
            vec![3.0, 50.0, 0.0]
        );
    }
}
