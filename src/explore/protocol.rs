//! What the Explore panel reads of its sweep workers: the engine worker's sweep messages
//! (`quotalab_engine_worker::sweep`, re-exported here) and the metric's number of a run.

pub use quotalab_engine_worker::sweep::{FromWorker, Numbers, ToWorker};

use super::settings::Metric;

/// The metric's number of a run's [`Numbers`].
pub fn pick(n: &Numbers, metric: Metric) -> f64 {
    n[metric.index()]
}
