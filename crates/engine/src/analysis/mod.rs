//! Analysis: questions asked about a scenario or a finished run. `compare` builds the two
//! reference policies of SPEC 9 (partitioned and pooled) beside the scenario as given;
//! `advisor` suggests checkpoint intervals from how often a run interrupted each share;
//! `sweep` runs a scenario over ranges of values and seeds (SPEC 15); `verdict` words what
//! one policy changes against another (SPEC 9.1), once for the page, the CLI and the report;
//! `review` runs two configurations on the same jobs and compares them per share (SPEC 16).

pub mod advisor;
pub mod compare;
pub mod contract_card;
pub mod matched;
pub mod review;
pub mod sweep;
pub mod verdict;
