//! One colour per share, shared by the table swatches and the charts: `quotalab_report`'s
//! palette (the report and the SVG export use the same colours).

pub use quotalab_report::palette::*;
