//! The one pipeline every caller runs: scenario text -> validated scenario with warnings ->
//! (a policy of SPEC 9, as given by default) -> simulation -> the product asked for (the
//! result JSON, the summary table or the display digest).
//!
//! The CLI's `run` and `compare`, [`crate::run_json`], [`crate::run_digest`] and
//! [`crate::compare::run`] all go through here, so a scenario is checked and simulated the
//! same way wherever it is run.

use crate::compare::Policy;
use crate::digest::{self, Digest, DigestLimits};
use crate::model::Scenario;
use crate::{result, simulate, validate, Options, Problem};

/// What a run produces from the finished simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Product {
    /// The SPEC 8 result JSON (events and series recorded).
    ResultJson,
    /// The CLI's per-share table (metrics only: no event log, no series).
    SummaryTable,
    /// The display digest, downsampled to the given limits.
    Digest(DigestLimits),
}

impl Product {
    /// What the simulation must record for this product.
    pub fn options(self) -> Options {
        match self {
            Product::SummaryTable => Options::summary(),
            Product::ResultJson | Product::Digest(_) => Options::default(),
        }
    }
}

/// A product of a finished run.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    ResultJson(String),
    SummaryTable(String),
    Digest(Box<Digest>),
}

impl Output {
    /// The result JSON or summary table; `None` for a digest.
    pub fn into_text(self) -> Option<String> {
        match self {
            Output::ResultJson(s) | Output::SummaryTable(s) => Some(s),
            Output::Digest(_) => None,
        }
    }

    /// The digest; `None` for text products.
    pub fn into_digest(self) -> Option<Digest> {
        match self {
            Output::Digest(d) => Some(*d),
            _ => None,
        }
    }
}

/// How to run: which policy (SPEC 9) and what to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    pub policy: Policy,
    pub product: Product,
}

impl Default for RunOptions {
    /// The scenario as given, producing the result JSON.
    fn default() -> RunOptions {
        RunOptions {
            policy: Policy::AsGiven,
            product: Product::ResultJson,
        }
    }
}

/// A finished run: the validator's warnings and the product.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub warnings: Vec<Problem>,
    pub output: Output,
}

/// Validates `text` (SPEC 7), applies the policy, simulates (SPEC 3-6) and produces the
/// output (SPEC 8); or every problem found, in which case nothing is simulated.
pub fn run(text: &str, opts: &RunOptions) -> Result<Run, Vec<Problem>> {
    let loaded = validate::load(text)?;
    let output = match opts.policy {
        Policy::AsGiven => produce(&loaded.scenario, opts.product),
        policy => produce(&policy.apply(&loaded.scenario), opts.product),
    };
    Ok(Run {
        warnings: loaded.warnings,
        output,
    })
}

/// The stages after validation: simulates a validated scenario and produces `product`.
pub fn produce(scenario: &Scenario, product: Product) -> Output {
    let sim = simulate(scenario, product.options());
    match product {
        Product::ResultJson => Output::ResultJson(result::to_json(&sim)),
        Product::SummaryTable => Output::SummaryTable(result::summary_table(&sim)),
        Product::Digest(limits) => Output::Digest(Box::new(digest::digest(&sim, limits))),
    }
}
