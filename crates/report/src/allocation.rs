//! *Allocation vs consumption*: one small panel per share (and instance type). The limit is
//! a black step line; own usage is a solid area in the share's colour, borrowed usage a
//! hatched lighter area on top of it, capacity lent to others a grey band above own usage,
//! and queued jobs a dashed line on the right axis. Entitled but unused capacity is the white
//! gap under the limit line.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use quotalab_engine::digest::{Digest, SeriesRow};

use crate::chart::{
    band_polygon, count_axis, err, hatch, share_colour, share_tint, span_s, step_corners, Frame,
    Pen, TextWidth, TimeAxis, INK, LENT, QUEUED,
};
use crate::format;

/// The narrowest a borrowing is drawn, in CSS pixels (issue #34: a borrowing of a second
/// was invisible).
pub const MIN_BORROW_PX: f64 = 4.0;

/// The numbers behind a panel's one-line caption.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PanelSummary {
    pub limit: (f64, f64),
    pub used: (f64, f64),
    pub borrowed_max: f64,
    pub lent_max: f64,
    pub queued_max: f64,
}

fn range(v: impl Iterator<Item = f64>) -> (f64, f64) {
    v.fold(None, |acc: Option<(f64, f64)>, x| {
        Some(acc.map_or((x, x), |(a, b)| (a.min(x), b.max(x))))
    })
    .unwrap_or((0.0, 0.0))
}

/// Ranges of one series row (limit, own + borrowed, maxima of borrowed, lent and queued).
/// Used and borrowed are the engine's over the whole run ([`SeriesRow::used`],
/// [`SeriesRow::borrowed_peak`], which the cohort panel says too), not those of the points
/// kept for drawing.
pub fn panel_summary(row: &SeriesRow) -> PanelSummary {
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    PanelSummary {
        limit: range(row.limit.iter().copied()),
        used: row.used,
        borrowed_max: row.borrowed_peak,
        lent_max: max(&row.lent),
        queued_max: max(&row.queued),
    }
}

/// The allocation chart's words, in the model's own terms (the page's chart and the
/// report's): its caption, then the legend's five keys (CSS class, label).
pub struct Words {
    pub intro: &'static str,
    pub legend: [(&'static str, &'static str); 5],
}

/// The colour of share `i`'s peaks ([`SeriesRow::peak`]).
pub fn peak_colour(i: usize) -> RGBColor {
    share_tint(i, 0.4)
}

/// The legend's key for a long run's peaks ([`SeriesRow::peak`]): a thin line in a tint
/// of the share's colour.
pub const PEAK_KEY: (&str, &str) = ("key-peak", "peak in use between the points drawn");

/// The allocation chart's legend for `d`: its model's keys ([`words`]), and the peaks' when
/// the run is long enough that its series keeps some points only.
pub fn legend(d: &Digest) -> Vec<(&'static str, &'static str)> {
    let mut keys = words(d.kueue.is_some()).legend.to_vec();
    if d.series.iter().any(|r| !r.peak.is_empty()) {
        keys.push(PEAK_KEY);
    }
    keys
}

/// [`Words`] for the AWS Batch model (a share's limit, its entitlement) or the Kueue model
/// (a ClusterQueue's nominalQuota, SPEC 12).
pub fn words(kueue: bool) -> Words {
    if kueue {
        Words {
            intro: "What each ClusterQueue is owed (its nominalQuota) against what its admitted workloads use. The white gap under the black line is nominal quota nobody used.",
            legend: [
                ("key-limit", "nominalQuota"),
                ("key-own", "own usage (queue colour)"),
                ("key-borrowed", "borrowed beyond its nominal quota"),
                ("key-lent", "lent to other ClusterQueues"),
                ("key-queued", "pending workloads (right axis)"),
            ],
        }
    } else {
        Words {
            intro: "What each share is owed (its limit) against what its admitted jobs use. The white gap under the black line is entitlement nobody used.",
            legend: [
                ("key-limit", "limit (entitled)"),
                ("key-own", "own usage (share colour)"),
                ("key-borrowed", "borrowed beyond the limit"),
                ("key-lent", "lent to other shares"),
                ("key-queued", "queued jobs (right axis)"),
            ],
        }
    }
}

/// "entitled 1, used 0–2, borrowed up to 1, lent up to 1" (queued jobs are on the chart);
/// "nominal quota 1, …" in the Kueue model.
pub fn caption(s: &PanelSummary, kueue: bool) -> String {
    // Whole instances from 10 up (lent is a fractional attribution).
    let num = |x: f64| {
        if x >= 10.0 {
            format!("{}", x.round())
        } else {
            format::amount(x)
        }
    };
    let span = |(a, b): (f64, f64)| {
        if (a - b).abs() < 1e-9 {
            num(a)
        } else {
            format!("{}–{}", num(a), num(b))
        }
    };
    let mut parts = vec![
        format!(
            "{} {}",
            if kueue { "nominal quota" } else { "entitled" },
            span(s.limit)
        ),
        format!("used {}", span(s.used)),
    ];
    if s.borrowed_max > 0.0 {
        parts.push(format!("borrowed up to {}", num(s.borrowed_max)));
    }
    if s.lent_max > 0.0 {
        // Lent is an attribution (SPEC 1): what others borrow is split among the lenders in
        // proportion to their idle quota, so it can be a fraction of an instance: say so.
        let whole = (s.lent_max - s.lent_max.round()).abs() < 0.05;
        parts.push(if whole {
            format!("lent up to {}", num(s.lent_max))
        } else {
            format!(
                "lent up to {} (a fraction: lenders split what others borrow by their idle quota)",
                num(s.lent_max)
            )
        });
    }
    parts.join(", ")
}

/// Draws one panel (one share, one instance type) on `root`, any plotters backend (the
/// page's canvas, SVG); `measure` measures its text. Returns where its plotting area is.
pub fn draw_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    d: &Digest,
    row: &SeriesRow,
    measure: TextWidth,
) -> Result<Frame, String> {
    let share = row.share as usize;
    // The line's and the right axis's names in the model's own terms (SPEC 12).
    let (limit_label, queued_label) = if d.kueue.is_some() {
        ("nominalQuota", "pending workloads")
    } else {
        ("limit", "queued jobs")
    };
    let end = span_s(d);
    let axis = TimeAxis::for_span(end);
    let x_max = end / axis.per;
    let n = row.t_s.len();

    let peak = (0..n)
        .map(|i| {
            row.limit[i]
                .max(row.own[i] + row.borrowed[i])
                .max(row.own[i] + row.lent[i])
        })
        .chain(row.peak.iter().copied())
        .fold(0.0, f64::max);
    let (y_top, y_labels) = count_axis(peak);
    let q_peak = row.queued.iter().copied().fold(0.0, f64::max);
    // A different scale from the left axis, so the dashed line does not sit on the areas' edges.
    let (q_top, _) = count_axis(q_peak * 1.35);
    let q_step = if q_top <= 6.5 {
        1.0
    } else {
        crate::chart::nice_step(q_top, 5)
    };
    let q_ticks: Vec<(f64, String)> = (0..)
        .map(|i| f64::from(i) * q_step)
        .take_while(|q| *q <= q_top + 1e-9)
        .map(|q| (q, format!("{q:.0}")))
        .collect();
    // The right axis holds its ticks' labels and then its name: wide enough for the widest
    // label ("2000" pending jobs), so the name never runs over them.
    let widest = q_ticks
        .iter()
        .map(|(_, l)| measure(11.5, l))
        .max()
        .unwrap_or(0);
    let right_area = (pen.ipx(7.0) + widest + pen.ipx(20.0)).max(pen.ipx(40.0)) as u32;
    // The left axis likewise: its name, then its labels (whole numbers up to `y_top`).
    let left_widest = measure(11.5, &format!("{:.0}", y_top.floor()));
    let left_area = (left_widest + pen.ipx(22.0)).max(pen.ipx(40.0)) as u32;

    let mut chart = ChartBuilder::on(root)
        .margin_top(pen.px(10.0))
        .margin_right(pen.px(4.0))
        .margin_left(pen.px(4.0))
        .margin_bottom(pen.px(2.0))
        .x_label_area_size(pen.px(36.0))
        .y_label_area_size(left_area)
        .right_y_label_area_size(right_area)
        .build_cartesian_2d(0f64..x_max, 0f64..y_top)
        .map_err(err)?
        .set_secondary_coord(0f64..x_max, 0f64..q_top);

    let mut mesh = chart.configure_mesh();
    crate::base_mesh!(mesh, pen)
        .x_labels(axis.label_count(f64::from(root.dim_in_pixel().0) / pen.dpr))
        .y_labels(y_labels)
        .x_desc(axis.desc())
        .y_desc("instances")
        .x_label_formatter(&|v| axis.label(*v))
        .y_label_formatter(&|v| crate::chart::int_label(*v))
        .draw()
        .map_err(err)?;
    // The right axis's labels are drawn here: plotters would measure them with a styled
    // `<span>`, which the page's Content-Security-Policy forbids.
    chart
        .configure_secondary_axes()
        .axis_desc_style(pen.font(12.0))
        .axis_style(pen.stroke(crate::chart::AXIS, 1.0))
        .y_labels(0)
        .y_desc(queued_label)
        .draw()
        .map_err(err)?;
    {
        let style = pen.text(11.5, crate::chart::TEXT, HPos::Left, VPos::Center);
        for (q, label) in &q_ticks {
            let (x, y) = chart.borrow_secondary().backend_coord(&(x_max, *q));
            root.draw(&PathElement::new(
                vec![(x, y), (x + pen.ipx(4.0), y)],
                pen.stroke(crate::chart::AXIS, 1.0),
            ))
            .map_err(err)?;
            root.draw_text(label, &style, (x + pen.ipx(7.0), y))
                .map_err(err)?;
        }
    }

    let t = &row.t_s;
    let per = axis.per;
    // Own usage: solid share colour.
    chart
        .draw_series(std::iter::once(Polygon::new(
            band_polygon(t, |_| 0.0, |i| row.own[i], end, per),
            share_colour(share).filled(),
        )))
        .map_err(err)?;
    // Lent to other shares: a grey band above own usage, under the limit.
    if row.lent.iter().any(|&l| l > 0.0) {
        chart
            .draw_series(std::iter::once(Polygon::new(
                band_polygon(t, |i| row.own[i], |i| row.own[i] + row.lent[i], end, per),
                LENT.filled(),
            )))
            .map_err(err)?;
    }
    // Borrowed: a lighter, hatched area above own usage.
    if row.borrowed.iter().any(|&b| b > 0.0) {
        chart
            .draw_series(std::iter::once(Polygon::new(
                band_polygon(
                    t,
                    |i| row.own[i],
                    |i| row.own[i] + row.borrowed[i],
                    end,
                    per,
                ),
                share_tint(share, 0.55).filled(),
            )))
            .map_err(err)?;
        let style = pen.stroke(share_colour(share), 1.2);
        // Issue #34: a borrowing of a second in an hour's run is under a pixel wide; it is
        // drawn at least this wide, outlined, so that every borrowing can be seen.
        let min_w = pen.ipx(MIN_BORROW_PX).max(1);
        for i in 0..n {
            if row.borrowed[i] <= 0.0 {
                continue;
            }
            let t1 = t.get(i + 1).copied().unwrap_or(end);
            let a = chart.backend_coord(&(t[i] / per, row.own[i] + row.borrowed[i]));
            let b = chart.backend_coord(&(t1 / per, row.own[i]));
            if b.0 - a.0 < min_w {
                let right = chart.plotting_area().get_pixel_range().0.end;
                let x0 = a.0.min(right - min_w);
                let rect = [(x0, a.1), (x0 + min_w, b.1.max(a.1 + 1))];
                root.draw(&Rectangle::new(rect, share_tint(share, 0.55).filled()))
                    .map_err(err)?;
                root.draw(&Rectangle::new(rect, style)).map_err(err)?;
                continue;
            }
            hatch(root, a, b, pen.ipx(6.0), style)?;
        }
    }
    // A long run keeps some of its points only: the most in use between two of them, a
    // thin line in a tint of the share's colour over the areas, so that a short spike
    // still shows (where usage comes and goes within every few pixels, its steps read as
    // a pale band: at times that many, not all the time).
    if !row.peak.is_empty() {
        chart
            .draw_series(LineSeries::new(
                step_corners(t, |i| row.peak[i], end)
                    .into_iter()
                    .map(|(x, y)| (x / per, y)),
                pen.stroke(peak_colour(share), 1.0),
            ))
            .map_err(err)?;
    }
    // The limit (entitlement): a black step line on top.
    chart
        .draw_series(LineSeries::new(
            step_corners(t, |i| row.limit[i], end)
                .into_iter()
                .map(|(x, y)| (x / per, y)),
            pen.stroke(INK, 2.0),
        ))
        .map_err(err)?;
    // Queued jobs on the right axis: dashed.
    if q_peak > 0.0 {
        let corners: Vec<(f64, f64)> = step_corners(t, |i| row.queued[i], end)
            .into_iter()
            .map(|(x, y)| (x / per, y))
            .collect();
        // A white halo keeps the dashes readable over the areas.
        chart
            .draw_secondary_series(LineSeries::new(
                corners.clone(),
                WHITE.mix(0.85).stroke_width(pen.px(4.0)),
            ))
            .map_err(err)?;
        chart
            .draw_secondary_series(DashedLineSeries::new(
                corners,
                pen.px(5.0),
                pen.px(3.0),
                pen.stroke(QUEUED, 1.5),
            ))
            .map_err(err)?;
    }
    // Name the limit line at its right end, on a white tab.
    if let Some(&last) = row.limit.last() {
        if last > 0.0 {
            let style = pen.text(11.0, INK, HPos::Right, VPos::Bottom);
            let (x, y) = chart.backend_coord(&(x_max, last));
            let w = measure(11.0, limit_label);
            let h = pen.ipx(13.0);
            let (x, y) = (x - pen.ipx(5.0), y - pen.ipx(3.0));
            root.draw(&Rectangle::new(
                [
                    (x - w - pen.ipx(3.0), y - h),
                    (x + pen.ipx(3.0), y + pen.ipx(1.0)),
                ],
                WHITE.filled(),
            ))
            .map_err(err)?;
            root.draw_text(limit_label, &style, (x, y)).map_err(err)?;
        }
    }
    Ok(Frame::of(chart.plotting_area(), pen, 0.0, end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quotalab_engine::digest::DigestLimits;

    /// Issue #34: a borrowing of one second in an hour's run is drawn at least
    /// [`MIN_BORROW_PX`] wide in the borrowed tint, not as an invisible sliver.
    #[test]
    fn a_one_second_borrowing_is_visible() {
        let text = r#"{"format": "quotalab/v1", "name": "short borrow",
            "capacity": {"ml.g5.xlarge": 2},
            "shares": [
              {"name": "a", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND_AND_BORROW", "borrow_limit": -1},
              {"name": "b", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND"}],
            "jobs": [
              {"id": "quick", "share": "a", "instance_type": "ml.g5.xlarge", "instances": 2, "submit_s": 0, "work_s": 1},
              {"id": "long", "share": "b", "instance_type": "ml.g5.xlarge", "submit_s": 10, "work_s": 3600}]}"#;
        let d = quotalab_engine::run_digest(text, DigestLimits::default()).unwrap();
        let row = d
            .series
            .iter()
            .find(|r| r.share == 0 && r.borrowed.iter().any(|&b| b > 0.0))
            .expect("share a borrows");
        let RGBColor(r, g, b) = share_tint(0, 0.55);
        let tint = format!("fill=\"#{r:02X}{g:02X}{b:02X}\"");
        let (w, h) = (470u32, 210u32);
        let out = crate::svg::svg(w, h, |root, pen| {
            let measure =
                move |size: f64, text: &str| crate::chart::estimate_width(pen, size, text);
            draw_panel(root, pen, &d, row, &measure).map(|_| ())
        })
        .unwrap();
        // The band is one polygon over the whole run, a second of it under a pixel wide:
        // the borrowing shows as a rectangle in the borrowed tint, at least MIN_BORROW_PX.
        let widest = out
            .split('<')
            .filter(|p| p.starts_with("rect") && p.contains(&tint))
            .filter_map(|p| {
                p.split(" width=\"")
                    .nth(1)?
                    .split('"')
                    .next()?
                    .parse::<f64>()
                    .ok()
            })
            .fold(0.0, f64::max);
        assert!(
            widest >= MIN_BORROW_PX,
            "widest borrowed mark {widest} px\n{out}"
        );
    }
}

#[cfg(test)]
mod axis_tests {
    use super::*;
    use quotalab_engine::digest::DigestLimits;

    /// An SVG text's attribute `name`, as a number.
    fn num(tag: &str, name: &str) -> f64 {
        let v = tag.split(&format!(" {name}=\"")).nth(1).unwrap();
        v.split('"').next().unwrap().parse().unwrap()
    }

    /// The texts (tag, body) of share `a`'s panel when `jobs` one-instance jobs of a minute
    /// arrive within seconds on `capacity` instances of its own.
    fn panel_texts(jobs: u32, capacity: u32) -> Vec<(String, String)> {
        let text = format!(
            r#"{{"format": "quotalab/v1", "name": "many jobs",
            "capacity": {{"ml.g5.xlarge": {capacity}}},
            "shares": [{{"name": "a", "limits": {{"ml.g5.xlarge": {capacity}}}, "strategy": "RESERVE"}}],
            "workloads": [{{"share": "a", "count": {jobs}, "arrival": {{"poisson_per_hour": 100000}},
              "instance_type": "ml.g5.xlarge", "work_s": 60}}]}}"#
        );
        let d = quotalab_engine::run_digest(&text, DigestLimits::default()).unwrap();
        let row = &d.series[0];
        let out = crate::svg::svg(470, 210, |root, pen| {
            let measure =
                move |size: f64, text: &str| crate::chart::estimate_width(pen, size, text);
            draw_panel(root, pen, &d, row, &measure).map(|_| ())
        })
        .unwrap();
        panel_texts_of(&out)
    }

    /// The texts (tag, body) of an SVG.
    fn panel_texts_of(out: &str) -> Vec<(String, String)> {
        out.split("<text")
            .skip(1)
            .map(|p| {
                let open = p.find('>').unwrap();
                let body = p[open + 1..p.find("</text>").unwrap()].trim();
                (p[..open].to_string(), body.to_string())
            })
            .collect()
    }

    /// The tags of the numeric labels anchored at `anchor`, with their estimated widths
    /// (0.6 em a digit, as `estimate_width`) and a quarter em of space.
    fn labels(texts: &[(String, String)], anchor: &str) -> Vec<(f64, f64)> {
        let labels: Vec<(f64, f64)> = texts
            .iter()
            .filter(|(tag, body)| {
                tag.contains(&format!("text-anchor=\"{anchor}\"")) && body.parse::<u32>().is_ok()
            })
            .map(|(tag, body)| {
                let size = num(tag, "font-size");
                (
                    num(tag, "x"),
                    (body.chars().count() as f64 * 0.6 + 0.25) * size,
                )
            })
            .collect();
        assert!(
            texts
                .iter()
                .any(|(t, b)| t.contains(&format!("text-anchor=\"{anchor}\""))
                    && b.len() == 4
                    && b.parse::<u32>().is_ok()),
            "a four-digit label: {texts:?}"
        );
        labels
    }

    /// The axis named `name`: its x and font size.
    fn axis_name(texts: &[(String, String)], name: &str, turn: &str) -> (f64, f64) {
        let (tag, _) = texts
            .iter()
            .find(|(_, b)| b == name)
            .expect("the axis is named");
        assert!(tag.contains(turn), "{tag}");
        (num(tag, "x"), num(tag, "font-size"))
    }

    /// The right axis's name ("queued jobs", turned a quarter clockwise: its letters lie
    /// within one em left of its x) stays clear of four-digit labels (about 1,500 queued).
    #[test]
    fn the_right_axis_name_clears_four_digit_labels() {
        let texts = panel_texts(1500, 1);
        let (x, em) = axis_name(&texts, "queued jobs", "rotate(90");
        for (start, width) in labels(&texts, "start") {
            assert!(
                start + width <= x - em,
                "a label ends at {}, the name starts at {}",
                start + width,
                x - em
            );
        }
    }

    /// The left axis's name ("instances", turned a quarter anticlockwise: its letters lie
    /// within one em right of its x) stays clear of four-digit labels (1,200 instances).
    #[test]
    fn the_left_axis_name_clears_four_digit_labels() {
        let texts = panel_texts(1200, 1200);
        let (x, em) = axis_name(&texts, "instances", "rotate(270");
        for (end, width) in labels(&texts, "end") {
            assert!(
                end - width >= x + em,
                "a label starts at {}, the name ends at {}",
                end - width,
                x + em
            );
        }
    }

    /// A long run's series keeps some points only: the most in use between two of them is
    /// drawn as a thin line in a tint of the share's colour, up to the spike, and the legend
    /// names it; a run whose every point is kept has neither.
    #[test]
    fn a_spike_between_the_points_kept_is_drawn_as_a_peak() {
        let text = r#"{"format": "quotalab/v1", "name": "a spike",
            "capacity": {"ml.g5.xlarge": 8},
            "shares": [{"name": "a", "limits": {"ml.g5.xlarge": 8}, "strategy": "RESERVE"}],
            "jobs": [
              {"id": "j1", "share": "a", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 3600},
              {"id": "spike", "share": "a", "instance_type": "ml.g5.xlarge", "instances": 8, "submit_s": 3700, "work_s": 1},
              {"id": "j2", "share": "a", "instance_type": "ml.g5.xlarge", "submit_s": 7300, "work_s": 3600}]}"#;
        let whole = quotalab_engine::run_digest(text, DigestLimits::default()).unwrap();
        assert!(whole.series[0].peak.is_empty());
        assert!(!legend(&whole).contains(&PEAK_KEY));
        let thin = DigestLimits {
            max_points: 4,
            ..DigestLimits::default()
        };
        let d = quotalab_engine::run_digest(text, thin).unwrap();
        let row = &d.series[0];
        let drawn = (0..row.t_s.len()).map(|i| row.own[i] + row.borrowed[i]);
        assert!(
            drawn.fold(0.0, f64::max) < 8.0,
            "the spike falls between kept points"
        );
        assert_eq!(row.peak.iter().copied().fold(0.0, f64::max), 8.0);
        assert_eq!(row.used, (0.0, 8.0));
        assert!(legend(&d).contains(&PEAK_KEY));

        let out = crate::svg::svg(470, 210, |root, pen| {
            let measure =
                move |size: f64, text: &str| crate::chart::estimate_width(pen, size, text);
            draw_panel(root, pen, &d, row, &measure).map(|_| ())
        })
        .unwrap();
        let RGBColor(r, g, b) = peak_colour(0);
        let stroke = format!("stroke=\"#{r:02X}{g:02X}{b:02X}\"");
        let top = out
            .split("<polyline")
            .skip(1)
            .filter(|p| p[..p.find("/>").unwrap()].contains(&stroke))
            .flat_map(|p| {
                let pts = p
                    .split("points=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                pts.split(' ')
                    .filter_map(|xy| xy.split(',').nth(1)?.parse::<f64>().ok())
                    .collect::<Vec<_>>()
            })
            .fold(f64::INFINITY, f64::min);
        let texts = panel_texts_of(&out);
        let (eight, _) = texts
            .iter()
            .find(|(t, body)| body == "8" && t.contains("text-anchor=\"end\""))
            .expect("the left axis reaches 8");
        assert!(
            (top - num(eight, "y")).abs() <= 1.0,
            "the peak line's top {top}, the label 8 at {}",
            num(eight, "y")
        );
    }
}
