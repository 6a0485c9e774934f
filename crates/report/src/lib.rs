//! Quota Lab's charts and its report, with nothing web in them.
//!
//! Every chart of a run is drawn here from its [`Digest`](quotalab_engine::digest::Digest)
//! onto any plotters [`DrawingBackend`](plotters::prelude::DrawingBackend): the page draws
//! them on its canvases (plotters-canvas, `src/charts/`), the SVG export and the report on
//! plotters' SVG backend ([`svg`]), so the three never differ. Text the canvas measures
//! (`measureText`) is measured by the caller ([`chart::TextWidth`]); SVG estimates it.
//!
//! [`report()`] writes the self-contained HTML report of a scenario (SPEC 14; [`build_with`]
//! with [`Options::compare`] adds the comparison of SPEC 9.1), natively for
//! `quotasim report` and in the page's tools wasm: one generator, the same bytes.
//! [`tables`] writes a run's tables as CSV files (the page's Files menu).

pub mod allocation;
pub mod chart;
pub mod completion;
pub mod dominant;
pub mod format;
pub mod html;
pub mod interruption;
pub mod occupancy;
pub mod palette;
mod report;
pub mod svg;
pub mod tables;
pub mod timeline;
pub mod useful;
pub mod words;

pub use report::{build, build_with, report, Options, Report};
