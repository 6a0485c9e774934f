//! The one pipeline every caller runs: scenario text -> validated scenario with warnings ->
//! (a policy of SPEC 9, as given by default) -> simulation -> the product asked for (the
//! result JSON, the summary table or the display digest).
//!
//! The CLI's `run` and `compare`, [`crate::run_json`], [`crate::run_digest`] and
//! `analysis::compare::run` all go through here, so a scenario is checked and simulated the
//! same way wherever it is run.

use crate::input::model::Scenario;
use crate::input::variant::Policy;
use crate::output::digest::{self, Digest, DigestLimits};
use crate::{
    input::validate, output::result, simulation::Finished, simulation::Options, simulation::Sim,
    Problem,
};

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
    run_observed(text, opts, &mut ())
}

/// Watches a run between its stages: a long run (the page's worker) reports progress from
/// here. Every method has an empty default; the observer cannot change the run.
pub trait Observer {
    /// The scenario is valid (and workloads are generated); simulation starts next.
    fn validated(&mut self) {}
    /// One instant of the simulation was processed; `sim` is consistent here.
    fn stepped(&mut self, _sim: &Sim) {}
    /// The simulation has ended; the product is made next.
    fn simulated(&mut self) {}
}

/// The observer that watches nothing.
impl Observer for () {}

/// [`run`], telling `observer` where it stands.
pub fn run_observed(
    text: &str,
    opts: &RunOptions,
    observer: &mut dyn Observer,
) -> Result<Run, Vec<Problem>> {
    let loaded = validate::load(text)?;
    observer.validated();
    let output = match opts.policy {
        Policy::AsGiven => produce_observed(&loaded.scenario, opts.product, observer),
        policy => produce_observed(&policy.apply(&loaded.scenario), opts.product, observer),
    };
    Ok(Run {
        warnings: loaded.warnings,
        output,
    })
}

/// The stages after validation: simulates a validated scenario and produces `product`.
pub fn produce(scenario: &Scenario, product: Product) -> Output {
    produce_observed(scenario, product, &mut ())
}

/// [`produce`], telling `observer` where it stands.
pub fn produce_observed(
    scenario: &Scenario,
    product: Product,
    observer: &mut dyn Observer,
) -> Output {
    let mut sim = Sim::new(scenario, product.options());
    while sim.step() {
        observer.stepped(&sim);
    }
    let run = sim.finish();
    observer.simulated();
    output_of(&run, product)
}

/// The product of a finished simulation.
pub fn output_of(sim: &Finished, product: Product) -> Output {
    match product {
        Product::ResultJson => Output::ResultJson(result::to_json(sim)),
        Product::SummaryTable => Output::SummaryTable(result::summary_table(sim)),
        Product::Digest(limits) => Output::Digest(Box::new(digest::digest(sim, limits))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALKTHROUGH: &str = include_str!("../tests/golden/aws-walkthrough.json");

    #[derive(Default)]
    struct Watch {
        order: Vec<&'static str>,
        steps: usize,
        last_progress: f64,
    }

    impl Observer for Watch {
        fn validated(&mut self) {
            self.order.push("validated");
        }
        fn stepped(&mut self, sim: &Sim) {
            self.steps += 1;
            let p = sim.progress();
            assert!(p >= self.last_progress, "progress never goes back");
            self.last_progress = p;
        }
        fn simulated(&mut self) {
            self.order.push("simulated");
        }
    }

    #[test]
    fn an_observed_run_gives_the_same_bytes_and_sees_every_stage() {
        let text = WALKTHROUGH;
        let plain = run(text, &RunOptions::default()).unwrap();
        let mut watch = Watch::default();
        let observed = run_observed(text, &RunOptions::default(), &mut watch).unwrap();
        assert_eq!(plain, observed);
        assert_eq!(watch.order, ["validated", "simulated"]);
        assert!(watch.steps > 3, "one call per instant: {}", watch.steps);
        assert_eq!(watch.last_progress, 1.0, "every job submitted and ended");
    }

    #[test]
    fn an_invalid_scenario_is_never_simulated() {
        let mut watch = Watch::default();
        assert!(run_observed("{}", &RunOptions::default(), &mut watch).is_err());
        assert!(watch.order.is_empty() && watch.steps == 0);
    }
}
