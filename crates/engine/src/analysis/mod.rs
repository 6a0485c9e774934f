//! Analysis: questions asked about a scenario or a finished run. `compare` builds the two
//! reference policies of SPEC 9 (partitioned and pooled) beside the scenario as given;
//! `advisor` suggests checkpoint intervals from how often a run interrupted each share.

pub mod advisor;
pub mod compare;
