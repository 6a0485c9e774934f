//! *Cluster occupancy*: per instance type, the instances each share's admitted jobs use
//! (own + borrowed quota) stacked in share order, with the physical capacity on top.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use quotalab_engine::digest::Digest;

use crate::chart::{
    band_polygon, count_axis, err, rows_of_type, share_colour, tick_label, time_chart, Frame, Pen,
    INK,
};

/// Stacked layers of one instance type: per share (in share order), the cumulative
/// `own + borrowed` below and above its band at each change point.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    pub t_s: Vec<f64>,
    /// `(share, lower, upper)` per layer.
    pub layers: Vec<(usize, Vec<f64>, Vec<f64>)>,
    pub capacity: f64,
}

impl Stack {
    /// The highest stacked value.
    pub fn peak(&self) -> f64 {
        self.layers
            .last()
            .map_or(0.0, |(_, _, up)| up.iter().copied().fold(0.0, f64::max))
    }
}

/// The occupancy stack of instance type `ty` (all series rows share one time base).
pub fn stack(d: &Digest, ty: u16) -> Stack {
    let rows = rows_of_type(d, ty);
    let t_s = rows.first().map(|r| r.t_s.clone()).unwrap_or_default();
    let mut below = vec![0.0; t_s.len()];
    let mut layers = Vec::with_capacity(rows.len());
    for r in rows {
        let upper: Vec<f64> = below
            .iter()
            .enumerate()
            .map(|(i, b)| b + r.own.get(i).unwrap_or(&0.0) + r.borrowed.get(i).unwrap_or(&0.0))
            .collect();
        layers.push((r.share as usize, below.clone(), upper.clone()));
        below = upper;
    }
    Stack {
        t_s,
        layers,
        capacity: d.capacity.get(ty as usize).copied().unwrap_or(0) as f64,
    }
}

/// Draws the occupancy of instance type `ty` on `root`, any plotters backend: the page's
/// canvas and the SVG export draw the same chart. Returns where its plotting area is.
pub fn draw_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    d: &Digest,
    ty: u16,
) -> Result<Frame, String> {
    let data = stack(d, ty);
    let y_axis = count_axis(data.peak().max(data.capacity) * 1.1);
    let (mut chart, axis, end) = time_chart(root, pen, d, y_axis, "instances in use (admitted)")?;
    let x_max = end / axis.per;

    for (share, lower, upper) in &data.layers {
        if upper.iter().zip(lower).all(|(u, l)| u <= l) {
            continue;
        }
        chart
            .draw_series(std::iter::once(Polygon::new(
                band_polygon(&data.t_s, |i| lower[i], |i| upper[i], end, axis.per),
                share_colour(*share).filled(),
            )))
            .map_err(err)?;
        // A thin white edge separates stacked shares.
        chart
            .draw_series(LineSeries::new(
                crate::chart::step_corners(&data.t_s, |i| upper[i], end)
                    .into_iter()
                    .map(|(x, y)| (x / axis.per, y)),
                pen.stroke(WHITE, 1.0),
            ))
            .map_err(err)?;
    }
    if data.capacity > 0.0 {
        chart
            .draw_series(LineSeries::new(
                [(0.0, data.capacity), (x_max, data.capacity)],
                pen.stroke(INK, 2.0),
            ))
            .map_err(err)?;
        let (x, y) = chart.backend_coord(&(x_max, data.capacity));
        root.draw_text(
            &format!("capacity {}", tick_label(data.capacity)),
            &pen.text(12.0, INK, HPos::Right, VPos::Bottom),
            (x - pen.ipx(4.0), y - pen.ipx(4.0)),
        )
        .map_err(err)?;
    }
    Ok(Frame::of(chart.plotting_area(), pen, 0.0, end))
}

/// The chart's caption, in the model's words (`kueue`: ClusterQueues, nominal quota).
pub fn caption(kueue: bool) -> &'static str {
    if kueue {
        "Instances each ClusterQueue's admitted workloads use (within its nominal quota + borrowed), stacked, under the cluster's capacity."
    } else {
        "Instances each share's admitted jobs use (own quota + borrowed), stacked, under the cluster's capacity."
    }
}
