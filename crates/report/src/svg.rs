//! Charts as SVG documents, drawn by the same code as the page's canvases on plotters' SVG
//! backend (which escapes every text it writes): the occupancy export of the page's Files
//! menu ([`occupancy_svg`]) and the report's figures ([`svg`]).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use quotalab_engine::digest::Digest;

use crate::chart::{self, err, Pen};
use crate::occupancy;

/// One drawing as an SVG document `width` x `height` pixels (at one device pixel per CSS
/// pixel) on a white ground.
pub fn svg<F>(width: u32, height: u32, draw: F) -> Result<String, String>
where
    F: FnOnce(&DrawingArea<SVGBackend<'_>, Shift>, Pen) -> Result<(), String>,
{
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        draw(&root, Pen { dpr: 1.0 })?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// Width of the SVG occupancy export.
const SVG_WIDTH: u32 = 960;
/// Height of one instance type's chart in the SVG export.
const SVG_CHART_HEIGHT: u32 = 360;
/// Height of the export's title, of an instance type's title, and of a legend row.
const SVG_TITLE: u32 = 40;
const SVG_TYPE_TITLE: u32 = 24;
const SVG_LEGEND_ROW: u32 = 28;

/// The legend of the SVG export: each share's place `(share, x, row)`, left to right,
/// wrapped at the export's width (text widths estimated from 12 px sans-serif).
fn svg_legend(d: &Digest) -> Vec<(usize, i32, u32)> {
    let mut out = Vec::with_capacity(d.shares.len());
    let (mut x, mut row) = (16, 0);
    for (i, s) in d.shares.iter().enumerate() {
        let width = 18 + (s.name.chars().count() as f64 * 7.2).ceil() as i32 + 20;
        if x > 16 && x + width > SVG_WIDTH as i32 - 16 {
            x = 16;
            row += 1;
        }
        out.push((i, x, row));
        x += width;
    }
    out
}

/// The occupancy as SVG, for documents: the page's occupancy charts (one per instance type,
/// drawn by the same code as the canvases, [`occupancy::draw_on`]) under the scenario's
/// name, with the share legend.
pub fn occupancy_svg(d: &Digest) -> Result<String, String> {
    let types = chart::series_types(d);
    let titled = types.len() > 1;
    let pen = Pen { dpr: 1.0 };
    let legend = svg_legend(d);
    let legend_rows = legend.last().map_or(0, |&(_, _, row)| row + 1);
    let panel = SVG_CHART_HEIGHT + if titled { SVG_TYPE_TITLE } else { 0 };
    let charts_height = panel * types.len().max(1) as u32;
    let height = SVG_TITLE + charts_height + SVG_LEGEND_ROW * legend_rows;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SVG_WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        root.draw_text(
            &format!("{}: instances in use per share", d.name),
            &pen.text(18.0, chart::TEXT, HPos::Left, VPos::Top),
            (16, 12),
        )
        .map_err(err)?;
        let (_, body) = root.split_vertically(SVG_TITLE);
        let (chart_area, legend_area) = body.split_vertically(charts_height);
        if types.is_empty() {
            chart_area
                .draw_text(
                    "The run has no time series to chart.",
                    &pen.text(13.0, chart::MUTED, HPos::Left, VPos::Top),
                    (16, 8),
                )
                .map_err(err)?;
        } else {
            for (area, &ty) in chart_area.split_evenly((types.len(), 1)).iter().zip(&types) {
                let area = if titled {
                    area.draw_text(
                        chart::type_name(d, ty),
                        &pen.text(14.0, chart::TEXT, HPos::Left, VPos::Top),
                        (16, 4),
                    )
                    .map_err(err)?;
                    area.split_vertically(SVG_TYPE_TITLE).1
                } else {
                    area.clone()
                };
                occupancy::draw_on(&area, pen, d, ty)?;
            }
        }
        for &(i, x, row) in &legend {
            let y = (row * SVG_LEGEND_ROW) as i32 + 8;
            legend_area
                .draw(&Rectangle::new(
                    [(x, y), (x + 12, y + 12)],
                    chart::share_colour(i).filled(),
                ))
                .map_err(err)?;
            legend_area
                .draw_text(
                    &d.shares[i].name,
                    &pen.text(12.0, chart::TEXT, HPos::Left, VPos::Center),
                    (x + 18, y + 6),
                )
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}
