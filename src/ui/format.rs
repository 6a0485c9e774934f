//! Number formatting shared by the components: `quotalab_report`'s (the charts and the
//! report format numbers and times as the page does).

pub use quotalab_report::format::*;
