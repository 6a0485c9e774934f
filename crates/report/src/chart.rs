//! What every chart drawing shares, on any plotters backend: the colours, the [`Pen`] that
//! turns CSS pixels into device pixels, the time axis, count axes, step lines and bands,
//! hatching, and the digest lookups the charts make.
//!
//! Text that must be measured to be placed (the allocation panel's `limit` tab) is measured
//! by the caller's [`TextWidth`]: the page's canvas measures it (`measureText`), SVG uses
//! [`estimate_width`].

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use quotalab_engine::digest::{Digest, SeriesRow};

use crate::{format, palette};

pub const TEXT: RGBColor = RGBColor(0x37, 0x41, 0x51);
pub const MUTED: RGBColor = RGBColor(0x6b, 0x72, 0x80);
pub const AXIS: RGBColor = RGBColor(0x9c, 0xa3, 0xaf);
pub const GRID: RGBColor = RGBColor(0xec, 0xee, 0xf1);
/// Entitlement (limit) and capacity lines.
pub const INK: RGBColor = RGBColor(0x11, 0x18, 0x27);
/// Capacity lent to other shares.
pub const LENT: RGBColor = RGBColor(0xcb, 0xd0, 0xd8);
pub const QUEUED: RGBColor = RGBColor(0x47, 0x55, 0x69);
/// Preemption markers: reclaim (cross-share) and in-share.
pub const RECLAIM: RGBColor = RGBColor(0xc0, 0x1c, 0x28);
pub const IN_SHARE: RGBColor = RGBColor(0x6d, 0x28, 0xd9);

/// The width in device pixels of a text in the chart font of a size in CSS pixels:
/// `measure(size, text)`.
pub type TextWidth<'a> = &'a dyn Fn(f64, &str) -> i32;

/// An estimate of [`TextWidth`] for backends that cannot measure (SVG): 0.6 em per
/// character of sans-serif.
pub fn estimate_width(pen: Pen, size: f64, text: &str) -> i32 {
    (text.chars().count() as f64 * size * 0.6 * pen.dpr) as i32
}

/// One bar chart row's place: the middle and the bar's top and bottom, in chart units.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub mid: f64,
    pub y0: f64,
    pub y1: f64,
}

/// The plotters chart of [`share_bars`] and [`time_chart`] (f64 on both axes).
pub type XyChart<'a, DB> = ChartContext<
    'a,
    DB,
    plotters::coord::cartesian::Cartesian2d<
        plotters::coord::types::RangedCoordf64,
        plotters::coord::types::RangedCoordf64,
    >,
>;

/// A chart's builder on `root`: its margins `[top, right, left, bottom]` and the width of its
/// y axis's labels in CSS pixels, under 40 px of x axis labels.
pub fn chart_builder<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    pen: Pen,
    [top, right, left, bottom]: [f64; 4],
    y_labels_width: f64,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(root);
    builder
        .margin_top(pen.px(top))
        .margin_right(pen.px(right))
        .margin_left(pen.px(left))
        .margin_bottom(pen.px(bottom))
        .x_label_area_size(pen.px(40.0))
        .y_label_area_size(pen.px(y_labels_width));
    builder
}

/// A chart of one horizontal bar per share, top to bottom in share order (the interruption
/// cost and the useful work): the x axis from 0 to `x_top` named `x_desc`, each share's
/// name left of its row, then `bar(chart, i, row)` draws share `i`'s bar and returns where
/// it ends and its label, written right of its end (muted for an empty bar).
pub fn share_bars<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    pen: Pen,
    d: &Digest,
    x_top: f64,
    x_desc: &str,
    mut bar: impl FnMut(&mut XyChart<'a, DB>, usize, Row) -> Result<(f64, String), String>,
) -> Result<(), String> {
    let n = d.shares.len().max(1);
    let longest = d
        .shares
        .iter()
        .map(|m| short(&m.name, 18).chars().count())
        .max()
        .unwrap_or(4);
    let label_w = (longest as f64 * 7.2 + 16.0).clamp(56.0, 150.0);
    let mut chart = chart_builder(root, pen, [8.0, 20.0, 6.0, 4.0], label_w)
        .build_cartesian_2d(0f64..x_top, 0f64..n as f64)
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    crate::base_mesh!(mesh, pen)
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(6)
        .x_desc(x_desc)
        .x_label_formatter(&|v| tick_label(*v))
        .draw()
        .map_err(err)?;
    for (i, m) in d.shares.iter().enumerate() {
        // Row i from the top.
        let mid = n as f64 - i as f64 - 0.5;
        let (lx, ly) = chart.backend_coord(&(0.0, mid));
        root.draw_text(
            &short(&m.name, 18),
            &pen.text(12.0, TEXT, HPos::Right, VPos::Center),
            (lx - pen.ipx(8.0), ly),
        )
        .map_err(err)?;
        let (end, label) = bar(
            &mut chart,
            i,
            Row {
                mid,
                y0: mid - 0.27,
                y1: mid + 0.27,
            },
        )?;
        let (tx, ty) = chart.backend_coord(&(end, mid));
        let colour = if end > 0.0 { TEXT } else { MUTED };
        // A label too long for the room after its bar (a phone) goes on several lines, cut
        // at its " · " (issue #34, walk: "2.6 inst.-h · 7 recl…" was cut at the edge).
        let room = root.dim_in_pixel().0 as i32 - tx - pen.ipx(10.0);
        let lines = wrap_label(&label, pen, room);
        let step = pen.ipx(13.0);
        let top = ty - step * (lines.len() as i32 - 1) / 2;
        for (k, line) in lines.iter().enumerate() {
            root.draw_text(
                line,
                &pen.text(11.5, colour, HPos::Left, VPos::Center),
                (tx + pen.ipx(6.0), top + step * k as i32),
            )
            .map_err(err)?;
        }
    }
    Ok(())
}

/// `label` as one line if it fits in `room` device pixels (11.5 px text, as
/// [`estimate_width`] counts), else its " · " parts joined on as few lines as fit (at most
/// three: a bar's row holds three). Not inlined: one copy for every bar chart.
#[inline(never)]
pub fn wrap_label(label: &str, pen: Pen, room: i32) -> Vec<String> {
    // Characters that fit in `room` (estimate_width in reverse).
    let fit = (f64::from(room) / (11.5 * 0.6 * pen.dpr)) as usize;
    let mut lines: Vec<String> = Vec::new();
    for part in label.split(" · ") {
        let (n, full) = (part.chars().count(), lines.len() >= 3);
        match lines.last_mut() {
            Some(last) if full || last.chars().count() + 3 + n <= fit => {
                last.push_str(" · ");
                last.push_str(part);
            }
            _ => lines.push(part.to_string()),
        }
    }
    lines
}

/// Draws the rectangle `rect` (in chart units) in `style`.
pub fn draw_rect<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    rect: [(f64, f64); 2],
    style: impl Into<ShapeStyle>,
) -> Result<(), String> {
    chart
        .draw_series(std::iter::once(Rectangle::new(rect, style)))
        .map_err(err)?;
    Ok(())
}

/// Hatches the part `rect` of share `i`'s bar in the share's colour, `spacing` CSS pixels
/// apart, and outlines it.
pub fn hatch_rect<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &mut XyChart<'_, DB>,
    pen: Pen,
    rect: [(f64, f64); 2],
    spacing: f64,
    i: usize,
) -> Result<(), String> {
    let a = chart.backend_coord(&rect[0]);
    let b = chart.backend_coord(&rect[1]);
    hatch(
        root,
        a,
        b,
        pen.ipx(spacing),
        pen.stroke(share_colour(i), 1.2),
    )?;
    draw_rect(chart, rect, pen.stroke(share_colour(i), 1.0))
}

/// A chart over the run's time (occupancy, dominant share): the time axis from 0 to the
/// run's end in the units of its [`TimeAxis`], and a count axis from 0 to `y_top` with
/// `y_labels` ticks named `y_desc`. Returns the chart, the axis and the end in seconds.
pub fn time_chart<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    pen: Pen,
    d: &Digest,
    (y_top, y_labels): (f64, usize),
    y_desc: &str,
) -> Result<(XyChart<'a, DB>, TimeAxis, f64), String> {
    let end = span_s(d);
    let axis = TimeAxis::for_span(end);
    let x_max = end / axis.per;
    let mut chart = chart_builder(root, pen, [12.0, 20.0, 6.0, 4.0], 56.0)
        .build_cartesian_2d(0f64..x_max, 0f64..y_top)
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    crate::base_mesh!(mesh, pen)
        .x_labels(axis.label_count(f64::from(root.dim_in_pixel().0) / pen.dpr))
        .y_labels(y_labels)
        .x_desc(axis.desc())
        .y_desc(y_desc)
        .x_label_formatter(&|v| axis.label(*v))
        .y_label_formatter(&|v| int_label(*v))
        .draw()
        .map_err(err)?;
    Ok((chart, axis, end))
}

/// The colour of share `i` (as in the summary table's swatches).
pub fn share_colour(i: usize) -> RGBColor {
    let (r, g, b) = palette::rgb(i);
    RGBColor(r, g, b)
}

/// Share `i`'s colour mixed with white (`amount` 1 = white).
pub fn share_tint(i: usize, amount: f64) -> RGBColor {
    let (r, g, b) = palette::tint(i, amount);
    RGBColor(r, g, b)
}

/// Lengths in CSS pixels turned into device pixels for one drawing.
#[derive(Clone, Copy, Debug)]
pub struct Pen {
    pub dpr: f64,
}

impl Pen {
    /// A length (stroke width, margin) in device pixels, at least 1.
    pub fn px(self, css: f64) -> u32 {
        (css * self.dpr).round().max(1.0) as u32
    }

    /// A signed offset in device pixels.
    pub fn ipx(self, css: f64) -> i32 {
        (css * self.dpr).round() as i32
    }

    /// Body text of `size` CSS pixels.
    pub fn font(self, size: f64) -> TextStyle<'static> {
        ("sans-serif", size * self.dpr).into_font().color(&TEXT)
    }

    /// Text in another colour and anchored at `(h, v)`.
    pub fn text(self, size: f64, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
        let mut style = self.font(size).pos(Pos::new(h, v));
        style.color = colour.to_backend_color();
        style
    }

    pub fn stroke(self, colour: RGBColor, css_width: f64) -> ShapeStyle {
        ShapeStyle::from(colour).stroke_width(self.px(css_width))
    }
}

/// Converts a plotters error to text.
pub fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}

/// Where a chart's plotting area is, in CSS pixels of its canvas, and which times its x
/// axis spans (seconds): used to place the cursor and to turn a click into a time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Frame {
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
    pub t0: f64,
    pub t1: f64,
}

impl Frame {
    /// The plotting area of `area` (device pixels) in CSS pixels, spanning `t0..t1` seconds.
    pub fn of<DB, X, Y>(
        area: &DrawingArea<DB, Cartesian2d<X, Y>>,
        pen: Pen,
        t0: f64,
        t1: f64,
    ) -> Frame
    where
        DB: DrawingBackend,
        X: Ranged,
        Y: Ranged,
    {
        let (x, y) = area.get_pixel_range();
        Frame {
            left: f64::from(x.start) / pen.dpr,
            right: f64::from(x.end) / pen.dpr,
            top: f64::from(y.start) / pen.dpr,
            bottom: f64::from(y.end) / pen.dpr,
            t0,
            t1,
        }
    }

    /// The CSS x of time `t` (clamped to the plotting area).
    pub fn x_of(&self, t: f64) -> f64 {
        let span = (self.t1 - self.t0).max(1e-9);
        self.left + ((t - self.t0) / span).clamp(0.0, 1.0) * (self.right - self.left)
    }

    /// The time at CSS x (clamped to the x axis).
    pub fn t_of(&self, x: f64) -> f64 {
        let width = (self.right - self.left).max(1e-9);
        self.t0 + ((x - self.left) / width).clamp(0.0, 1.0) * (self.t1 - self.t0)
    }
}

/// The unit of a time axis: seconds, minutes, hours or days, by the run's length
/// ([`format::TimeScale`], which also formats the cursor's time beside the charts).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeAxis {
    /// Seconds per unit.
    pub per: f64,
    /// The unit's short name (`min`).
    pub unit: &'static str,
    pub scale: format::TimeScale,
}

impl TimeAxis {
    pub fn for_span(end_s: f64) -> TimeAxis {
        let scale = format::TimeScale::for_span(end_s);
        TimeAxis {
            per: scale.per(),
            unit: scale.unit(),
            scale,
        }
    }

    /// The axis description (the tick labels carry the unit).
    pub fn desc(&self) -> String {
        "time since start".into()
    }

    /// The label of tick `v` (in units of the axis): `2 min`, `1 h 30 min`, `4 d`.
    pub fn label(&self, v: f64) -> String {
        self.scale.tick(v * self.per)
    }

    /// How many x labels fit in a plot `css_width` pixels wide (labels with units are
    /// wider than bare numbers).
    pub fn label_count(&self, css_width: f64) -> usize {
        ((css_width / 90.0) as usize).clamp(3, 10)
    }
}

/// The last time a chart of `d` covers (its end, or the last change point if later; > 0).
pub fn span_s(d: &Digest) -> f64 {
    let last = d
        .series
        .iter()
        .filter_map(|r| r.t_s.last().copied())
        .fold(d.end_s, f64::max);
    if last > 0.0 {
        last
    } else {
        1.0
    }
}

/// A y-axis label for whole numbers of instances: blank between integers.
pub fn int_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

/// An axis tick: whole numbers without decimals, others with one.
pub fn tick_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// A nice upper bound for a count axis (instances, jobs) and how many labels to ask for.
pub fn count_axis(max: f64) -> (f64, usize) {
    let max = max.max(1.0);
    if max <= 6.0 {
        let top = max.ceil() + if max.fract() == 0.0 { 0.25 } else { 0.0 };
        (top, top.floor() as usize + 1)
    } else {
        (max * 1.08, 6)
    }
}

/// A round step (1, 2 or 5 × 10^k, at least 1) giving at most about `n` steps up to `top`.
pub fn nice_step(top: f64, n: usize) -> f64 {
    let raw = (top / n.max(1) as f64).max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw - 1e-9)
        .unwrap_or(raw)
}

/// Turns change points into the corners of a step line that holds each value until the
/// next change and the last one until `until`.
pub fn step_corners(t: &[f64], v: impl Fn(usize) -> f64, until: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(t.len() * 2 + 1);
    for (i, &ti) in t.iter().enumerate() {
        if i > 0 {
            out.push((ti, v(i - 1)));
        }
        out.push((ti, v(i)));
    }
    if let (Some(&last), false) = (t.last(), t.is_empty()) {
        if until > last {
            out.push((until, v(t.len() - 1)));
        }
    }
    out
}

/// The outline of the region between two step functions over change points `t` (lower to
/// upper), as one polygon in data coordinates scaled by `per` on x.
pub fn band_polygon(
    t: &[f64],
    lower: impl Fn(usize) -> f64,
    upper: impl Fn(usize) -> f64,
    until: f64,
    per: f64,
) -> Vec<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = step_corners(t, upper, until)
        .into_iter()
        .map(|(x, y)| (x / per, y))
        .collect();
    let low: Vec<(f64, f64)> = step_corners(t, lower, until)
        .into_iter()
        .map(|(x, y)| (x / per, y))
        .collect();
    pts.extend(low.into_iter().rev());
    pts
}

/// Diagonal hatching (`/`) inside the device-pixel rectangle `(x0, y0)..(x1, y1)`. The lines
/// are aligned on the whole drawing, so adjacent rectangles continue each other's pattern.
pub fn hatch<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x0, y0): (i32, i32),
    (x1, y1): (i32, i32),
    spacing: i32,
    style: ShapeStyle,
) -> Result<(), String> {
    let (x0, x1) = (x0.min(x1), x0.max(x1));
    let (y0, y1) = (y0.min(y1), y0.max(y1));
    if x1 - x0 < 1 || y1 - y0 < 1 {
        return Ok(());
    }
    let spacing = spacing.max(2);
    // Lines x + y = k.
    let mut k = (x0 + y0).div_euclid(spacing) * spacing;
    while k <= x1 + y1 {
        let xa = x0.max(k - y1);
        let xb = x1.min(k - y0);
        if xa < xb {
            root.draw(&PathElement::new(vec![(xa, k - xa), (xb, k - xb)], style))
                .map_err(err)?;
        }
        k += spacing;
    }
    Ok(())
}

/// The series rows of `d` for instance type `ty`, in share order.
pub fn rows_of_type(d: &Digest, ty: u16) -> Vec<&SeriesRow> {
    let mut rows: Vec<&SeriesRow> = d.series.iter().filter(|r| r.instance_type == ty).collect();
    quotalab_engine::sort::compact_by(&mut rows, &|a, b| a.share.cmp(&b.share));
    rows
}

/// The instance types the series covers, in scenario order.
pub fn series_types(d: &Digest) -> Vec<u16> {
    let mut types: Vec<u16> = d.series.iter().map(|r| r.instance_type).collect();
    types.sort_unstable();
    types.dedup();
    types
}

/// The name of instance type `ty`.
pub fn type_name(d: &Digest, ty: u16) -> &str {
    d.instance_types
        .get(ty as usize)
        .map_or("?", String::as_str)
}

/// The name of share `i`.
pub fn share_name(d: &Digest, i: usize) -> &str {
    d.shares.get(i).map_or("?", |s| s.name.as_str())
}

/// `name` cut to `max` characters with an ellipsis.
pub fn short(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        name.to_string()
    } else {
        let mut s: String = name.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}

/// Configures the usual mesh: light grid, grey axes, text in `pen`'s size.
#[macro_export]
#[doc(hidden)]
macro_rules! base_mesh {
    ($mesh:expr, $pen:expr) => {
        $mesh
            .label_style($pen.font(11.5))
            .axis_desc_style($pen.font(12.0))
            .axis_style($pen.stroke($crate::chart::AXIS, 1.0))
            .bold_line_style($pen.stroke($crate::chart::GRID, 1.0))
            .light_line_style(::plotters::prelude::TRANSPARENT)
            .set_all_tick_mark_size($pen.px(4.0))
    };
}

/// For the charts' tests: how many of the SVG `out`'s texts that `keep` picks there are, each
/// asserted to end within `width` (its estimated width at 11.5 px from its `x`).
#[cfg(test)]
pub(crate) fn texts_within(out: &str, width: u32, keep: &dyn Fn(&str) -> bool) -> usize {
    let mut checked = 0;
    for piece in out.split("<text").skip(1) {
        let body = &piece[piece.find('>').unwrap() + 1..piece.find("</text>").unwrap()];
        if !keep(body) {
            continue;
        }
        let x: f64 = piece
            .split("x=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        let w = estimate_width(Pen { dpr: 1.0 }, 11.5, body) as f64;
        assert!(
            x + w <= f64::from(width),
            "{body} at {x} + {w} past {width}"
        );
        checked += 1;
    }
    checked
}
