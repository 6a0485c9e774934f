//! The sweep's chart, drawn with plotters on a canvas: per share, the chosen metric against
//! the setting, its median over the seeds as a line and its 10th-90th percentile band
//! (the engine's [`band`]) as a shaded area, and every run as a dot. [`Drawn`] keeps where
//! the dots went, for hovering and clicking.

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use quotalab_engine::analysis::sweep::band;
use web_sys::HtmlCanvasElement;

use super::protocol::{pick, Numbers};
use super::settings::Metric;

/// One finished run, as the chart and the table read it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    pub run: u32,
    /// Its value's index, and the value.
    pub point: usize,
    pub value: f64,
    pub seed: u64,
    /// Per share, in the scenario's order.
    pub shares: Vec<Numbers>,
}

/// Per value (ascending) and share: `[p10, median, p90]` of the metric over the seeds done
/// that gave it a value; `None` where no run did (a share that ran no job has no
/// completion time: the chart leaves a gap there, the table says "no jobs").
pub fn bands(
    results: &[RunResult],
    shares: usize,
    metric: Metric,
) -> Vec<(f64, Vec<Option<[f64; 3]>>)> {
    // Each value's index once, ascending, with its value (placed by index: no sort of its
    // own in the page's wasm).
    let mut values: Vec<Option<f64>> = Vec::new();
    for r in results {
        if values.len() <= r.point {
            values.resize(r.point + 1, None);
        }
        values[r.point].get_or_insert(r.value);
    }
    values
        .into_iter()
        .enumerate()
        .filter_map(|(p, value)| value.map(|v| (p, v)))
        .map(|(p, value)| {
            let per_share = (0..shares)
                .map(|s| {
                    let mut xs: Vec<f64> = results
                        .iter()
                        .filter(|r| r.point == p)
                        .filter_map(|r| r.shares.get(s).map(|n| pick(n, metric)))
                        .filter(|x| x.is_finite())
                        .collect();
                    (!xs.is_empty()).then(|| band(&mut xs))
                })
                .collect();
            (value, per_share)
        })
        .collect()
}

/// Per share: at how many of the values drawn it has no value (no run of it gave one).
pub fn gaps(bands: &[(f64, Vec<Option<[f64; 3]>>)], shares: usize) -> Vec<usize> {
    (0..shares)
        .map(|s| {
            bands
                .iter()
                .filter(|(_, b)| b.get(s).is_none_or(Option::is_none))
                .count()
        })
        .collect()
}

/// The runs of consecutive values with a band, as the line and the band draw them (a gap
/// between them where a share has no value).
fn segments(bands: &[(f64, Vec<Option<[f64; 3]>>)], s: usize) -> Vec<Vec<(f64, [f64; 3])>> {
    let mut out: Vec<Vec<(f64, [f64; 3])>> = vec![Vec::new()];
    for (x, b) in bands {
        match b.get(s).copied().flatten() {
            Some(b) => out.last_mut().expect("one").push((*x, b)),
            None if out.last().is_some_and(|l| !l.is_empty()) => out.push(Vec::new()),
            None => {}
        }
    }
    out.retain(|l| !l.is_empty());
    out
}

/// Where each run's dot was drawn (canvas pixels), with its result's index and its share.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    pub dots: Vec<(i32, i32, usize, usize)>,
    /// Values drawn with a band.
    pub bands: usize,
}

impl Drawn {
    /// The dot nearest canvas pixel `(x, y)` within `radius` pixels.
    pub fn nearest(&self, x: f64, y: f64, radius: f64) -> Option<(usize, usize)> {
        self.dots
            .iter()
            .map(|&(dx, dy, r, s)| ((dx as f64 - x).hypot(dy as f64 - y), r, s))
            .filter(|d| d.0 <= radius)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, r, s)| (r, s))
    }
}

/// An axis tick as a person writes it: as many decimals as ticks about a tenth of `span`
/// apart need, no trailing zeros (a borrow limit reads 20, not 20.0; a rate 0.25).
fn tick_label(v: f64, span: f64) -> String {
    let step = span.abs() / 10.0;
    let digits = if step > 0.0 && step.is_finite() {
        (1 - step.log10().floor() as i32).clamp(0, 9) as usize
    } else {
        0
    };
    crate::ui::format::decimal(v, digits)
}

/// How many ticks the x axis may have over `span`: plotters' usual 10, or for a setting
/// swept over whole numbers (instances, a borrow limit) at most one per whole number, so
/// that its ticks fall on whole numbers (issue #34, fresh-eyes walk: they fell on halves
/// of an instance).
fn x_labels(span: f64, whole: bool) -> usize {
    const MOST: usize = 10;
    if whole && span.is_finite() {
        (span.floor().max(0.0) as usize + 1).min(MOST)
    } else {
        MOST
    }
}

fn colour(i: usize) -> RGBColor {
    let (r, g, b) = crate::ui::palette::rgb(i);
    RGBColor(r, g, b)
}

/// Draws the chart of `results` on `canvas` (its backing store set to its CSS size times
/// the device pixel ratio).
pub fn draw(
    canvas: &HtmlCanvasElement,
    results: &[RunResult],
    names: &[String],
    metric: Metric,
    setting: &str,
) -> Result<Drawn, String> {
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0);
    let rect = canvas.get_bounding_client_rect();
    let (w, h) = (
        if rect.width() > 0.0 {
            rect.width()
        } else {
            640.0
        },
        if rect.height() > 0.0 {
            rect.height()
        } else {
            320.0
        },
    );
    canvas.set_width((w * dpr).round() as u32);
    canvas.set_height((h * dpr).round() as u32);
    let px = |v: f64| (v * dpr).round() as i32;
    let err = |e: DrawingAreaErrorKind<_>| format!("{e:?}");
    let root = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or("this browser gives no 2D canvas context")?
        .into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut drawn = Drawn::default();
    if results.is_empty() {
        return Ok(drawn);
    }
    let bands = bands(results, names.len(), metric);
    let xs = results.iter().map(|r| r.value);
    let (mut x0, mut x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let ys = results
        .iter()
        .flat_map(|r| r.shares.iter().map(move |n| pick(n, metric)))
        .filter(|y| y.is_finite());
    let (mut y0, mut y1) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    if x1 <= x0 {
        (x0, x1) = (x0 - 1.0, x1 + 1.0);
    }
    if y0 > y1 {
        // No run gave any share a value (no job finished anywhere).
        (y0, y1) = (0.0, 1.0);
    }
    y0 = y0.min(0.0);
    if y1 <= y0 {
        y1 = y0 + 1.0;
    }
    y1 += (y1 - y0) * 0.05;
    let pad = (x1 - x0) * 0.03;
    // Fractions read as percentages, as the hover and the table say them.
    let percent = matches!(metric, Metric::Goodput | Metric::BorrowedShare);
    // A completion time (hours in the numbers) in the unit that reads best for the largest
    // (minutes for 10-minute jobs, not 0.2 h).
    let unit = (metric == Metric::CompletionP90)
        .then(|| quotalab_engine::output::numbers::DurationUnit::for_seconds(y1 * 3600.0));
    let per_hour = unit.map_or(1.0, |u| 3600.0 / u.seconds());
    // The chart is drawn in the unit its ticks are read in (percent, minutes...), so that
    // its ticks fall on round values of that unit (issue #34, walk: 12, 24, 36 min were
    // round tenths of an hour).
    let k = if percent { 100.0 } else { per_hour };
    let (y0, y1) = (y0 * k, y1 * k);
    let font = ("sans-serif", 12.0 * dpr).into_font();
    let mut chart = ChartBuilder::on(&root)
        .margin(px(10.0))
        .x_label_area_size(px(36.0))
        .y_label_area_size(px(56.0))
        .build_cartesian_2d(x0 - pad..x1 + pad, y0..y1)
        .map_err(err)?;
    let (x_span, y_span) = (x1 - x0, y1 - y0);
    let whole = results.iter().all(|r| r.value.fract() == 0.0);
    let y_desc = match unit {
        Some(u) => format!("{} ({})", metric.label(), u.symbol()),
        None => metric.label().to_string(),
    };
    let y_tick = |v: &f64| {
        if percent {
            format!("{} %", tick_label(*v, y_span))
        } else {
            tick_label(*v, y_span)
        }
    };
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_labels(x_labels(x_span, whole))
        .x_label_formatter(&|v| tick_label(*v, x_span))
        .y_label_formatter(&y_tick)
        .label_style(font.clone())
        .axis_desc_style(font)
        .x_desc(setting)
        .y_desc(y_desc)
        .draw()
        .map_err(err)?;
    for s in 0..names.len() {
        let c = colour(s);
        // Earlier shares' lines are wider, so a line lying on another (two shares at 0)
        // still shows as a coloured edge around the later one.
        let width = (2.0 + 1.5 * (names.len() - 1 - s) as f64).min(8.0);
        for seg in segments(&bands, s) {
            let upper = seg.iter().map(|(x, b)| (*x, b[2] * k));
            let lower = seg.iter().rev().map(|(x, b)| (*x, b[0] * k));
            let outline: Vec<(f64, f64)> = upper.chain(lower).collect();
            chart
                .draw_series(std::iter::once(Polygon::new(outline, c.mix(0.18).filled())))
                .map_err(err)?;
            chart
                .draw_series(LineSeries::new(
                    seg.iter().map(|(x, b)| (*x, b[1] * k)),
                    c.stroke_width(px(width) as u32),
                ))
                .map_err(err)?;
        }
        // A run without a value (no job) has no dot: nothing to hover at 0.
        let dots = || {
            results.iter().enumerate().filter_map(move |(i, r)| {
                let y = pick(r.shares.get(s)?, metric);
                y.is_finite().then_some((i, r.value, y * k))
            })
        };
        chart
            .draw_series(dots().map(|(_, x, y)| Circle::new((x, y), px(2.5), c.mix(0.7).filled())))
            .map_err(err)?;
        for (i, x, y) in dots() {
            let (x, y) = chart.backend_coord(&(x, y));
            drawn.dots.push((x, y, i, s));
        }
    }
    root.present().map_err(err)?;
    drawn.bands = bands.len();
    Ok(drawn)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(point: usize, value: f64, seed: u64, a: f64) -> RunResult {
        RunResult {
            run: 0,
            point,
            value,
            seed,
            shares: vec![[a, a, a, a, a]],
        }
    }

    #[test]
    fn bands_are_per_value_over_the_seeds_done() {
        let rs = [
            run(1, 50.0, 1, 3.0),
            run(0, 0.0, 1, 1.0),
            run(0, 0.0, 2, 2.0),
            run(1, 50.0, 2, 5.0),
        ];
        let b = bands(&rs, 1, Metric::Goodput);
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].0, 0.0);
        assert_eq!(b[0].1[0], Some([1.0, 1.0, 2.0]));
        assert_eq!(b[1].1[0], Some([3.0, 3.0, 5.0]));
        let d = Drawn {
            dots: vec![(10, 10, 0, 0), (20, 10, 1, 0)],
            bands: 2,
        };
        assert_eq!(d.nearest(18.0, 11.0, 6.0), Some((1, 0)));
        assert_eq!(d.nearest(50.0, 50.0, 6.0), None);
    }

    /// Issue #34 (Explore): a share that ran no job (its numbers are NaN) leaves a gap,
    /// not a point at 0; a value where some seeds gave one bands those seeds only.
    #[test]
    fn a_share_without_jobs_leaves_a_gap_not_a_zero() {
        let nan = f64::NAN;
        let rs = [
            run(0, 0.0, 1, 2.0),
            run(1, 10.0, 1, nan),
            run(2, 20.0, 1, 4.0),
            run(2, 20.0, 2, nan),
            run(3, 30.0, 1, 6.0),
        ];
        let b = bands(&rs, 1, Metric::CompletionP90);
        assert_eq!(b[0].1[0], Some([2.0; 3]));
        assert_eq!(b[1].1[0], None, "no run gave a value at 10");
        assert_eq!(b[2].1[0], Some([4.0; 3]), "the seed with a value");
        assert_eq!(gaps(&b, 1), vec![1]);
        let seg = segments(&b, 0);
        let xs: Vec<Vec<f64>> = seg
            .iter()
            .map(|s| s.iter().map(|p| p.0).collect())
            .collect();
        assert_eq!(xs, vec![vec![0.0], vec![20.0, 30.0]]);
    }

    /// The ticks plotters draws for values `x0..=x1` padded as [`draw`] pads them.
    fn ticks(x0: f64, x1: f64, whole: bool) -> Vec<f64> {
        use plotters::coord::ranged1d::Ranged;
        let pad = (x1 - x0) * 0.03;
        let range: plotters::coord::types::RangedCoordf64 = (x0 - pad..x1 + pad).into();
        range.key_points(x_labels(x1 - x0, whole))
    }

    #[test]
    fn a_whole_setting_has_whole_ticks() {
        // Instances from 1 to 4: 1, 2, 3, 4 (not 1.5, 2.5...).
        assert_eq!(ticks(1.0, 4.0, true), [1.0, 2.0, 3.0, 4.0]);
        for (x0, x1) in [
            (0.0, 2.0),
            (2.0, 6.0),
            (0.0, 1.0),
            (3.0, 13.0),
            (0.0, 200.0),
        ] {
            let t = ticks(x0, x1, true);
            assert!(
                !t.is_empty() && t.iter().all(|x| x.fract() == 0.0),
                "{x0}..{x1}: {t:?}"
            );
        }
        // A rate keeps its fractional ticks.
        assert!(ticks(0.5, 1.5, false).iter().any(|x| x.fract() != 0.0));
    }

    #[test]
    fn ticks_read_as_written() {
        // A borrow limit from 0 to 200: whole numbers.
        assert_eq!(tick_label(20.0, 200.0), "20");
        assert_eq!(tick_label(0.0, 200.0), "0");
        // A rate from 0.5 to 1.5, a p90 in hours from 0 to 0.3: the decimals the ticks need.
        assert_eq!(tick_label(0.6000000000000001, 1.0), "0.6");
        assert_eq!(tick_label(0.25, 0.3), "0.25");
        assert_eq!(tick_label(0.05, 0.3), "0.05");
        assert_eq!(tick_label(-0.0001, 0.3), "0");
        // A degenerate span (one value) still gives a number.
        assert_eq!(tick_label(3.0, 0.0), "3");
    }
}
