//! Input: everything between a scenario's text and a validated [`model::Scenario`]. The
//! model itself (the validated types and the SPEC limits), the validator that walks the JSON
//! and reports every problem with its path, the built-in instance-type catalogue, the
//! workload generators that expand `workloads` into jobs, and the trace import that turns a
//! cluster's CSV job log into scenario JSON. Nothing here simulates.

pub mod catalogue;
pub mod contract;
pub mod digits;
pub mod index;
pub mod json;
pub mod model;
pub mod path;
pub(crate) mod plain;
pub mod priority_class;
pub mod trace;
pub mod translate;
pub mod validate;
pub mod variant;
pub mod workload;
