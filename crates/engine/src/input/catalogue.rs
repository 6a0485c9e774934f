//! The built-in instance-type catalogue (SPEC 7: `instance_types` may be omitted for these).
//!
//! GPU (or accelerator) counts per instance and approximate on-demand SageMaker training
//! prices in us-east-1 (USD per instance-hour). A scenario's own `instance_types` entry
//! overrides a catalogue entry of the same name.

use crate::input::model::InstanceType;

/// `(name, gpus, usd_per_hour)`.
const CATALOGUE: &[(&str, u32, f64)] = &[
    ("ml.g5.xlarge", 1, 1.408),
    ("ml.g5.2xlarge", 1, 1.515),
    ("ml.g5.4xlarge", 1, 2.03),
    ("ml.g5.8xlarge", 1, 3.06),
    ("ml.g5.12xlarge", 4, 7.09),
    ("ml.g5.16xlarge", 1, 4.096),
    ("ml.g5.24xlarge", 4, 10.18),
    ("ml.g5.48xlarge", 8, 20.36),
    ("ml.g6.xlarge", 1, 1.1644),
    ("ml.g6.2xlarge", 1, 1.2604),
    ("ml.g6.4xlarge", 1, 1.6524),
    ("ml.g6.8xlarge", 1, 2.4364),
    ("ml.g6.12xlarge", 4, 5.9004),
    ("ml.g6.16xlarge", 1, 4.0044),
    ("ml.g6.24xlarge", 4, 8.0492),
    ("ml.g6.48xlarge", 8, 16.0984),
    ("ml.p4d.24xlarge", 8, 37.688),
    ("ml.p4de.24xlarge", 8, 47.11),
    ("ml.p5.48xlarge", 8, 113.07),
    ("ml.trn1.2xlarge", 1, 1.5484),
    ("ml.trn1.32xlarge", 16, 24.725),
];

/// Looks up a built-in instance type by name.
pub fn lookup(name: &str) -> Option<InstanceType> {
    CATALOGUE
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(name, gpus, usd_per_hour)| InstanceType {
            name: name.to_string(),
            gpus,
            usd_per_hour,
        })
}

/// Every built-in name, in catalogue order (for error messages and the page's pickers).
pub fn names() -> impl Iterator<Item = &'static str> {
    CATALOGUE.iter().map(|(n, _, _)| *n)
}
