//! What the Explore panel and its sweep workers say to each other: [`ToWorker`] and
//! [`FromWorker`], serde enums sent as `postcard` bytes (as the engine worker's protocol),
//! and the numbers one run reports ([`Numbers`]).
//!
//! The only message that is not postcard is the first, `{kind: "boot", module}` (a
//! compiled `WebAssembly.Module` can only be structured-cloned), read by
//! `www/quotalab-explore-worker.js` before the Explore wasm runs in the worker.

use quotalab_engine::analysis::sweep::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::settings::Metric;

/// A run's numbers per share (and in total), indexed by [`Metric::index`].
pub type Numbers = [f64; 5];

/// Page (the tools' panel) → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToWorker<'a> {
    /// Plan sweep `sweep` (a number the panel bumps per sweep): the scenario text, the
    /// `--vary` argument and the seeds.
    Plan {
        sweep: u64,
        scenario: &'a str,
        vary: &'a str,
        seeds: u64,
    },
    /// Simulate run `run` of sweep `sweep`.
    Run { sweep: u64, run: u32 },
}

/// Worker → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// Its wasm runs and it takes messages.
    Ready,
    /// Run `run` of sweep `sweep` finished.
    Done {
        sweep: u64,
        run: u32,
        /// Per share, in the scenario's order, with its name.
        shares: Vec<(String, Numbers)>,
        totals: Numbers,
    },
    /// The variant of run `run` was refused (or the plan was): `(path, message)` pairs.
    Refused {
        sweep: u64,
        run: u32,
        problems: Vec<(String, String)>,
    },
    /// A panic in the worker, or a message it could not read.
    Error { message: String },
}

impl ToWorker<'_> {
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }
}

impl<'a> ToWorker<'a> {
    pub fn decode(bytes: &'a [u8]) -> Result<ToWorker<'a>, String> {
        postcard::from_bytes(bytes)
            .map_err(|e| format!("the sweep worker could not read a message: {e}"))
    }
}

impl FromWorker {
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    pub fn decode(bytes: &[u8]) -> Result<FromWorker, String> {
        postcard::from_bytes(bytes)
            .map_err(|e| format!("could not read the sweep worker's reply: {e}"))
    }
}

/// The numbers of one outcome: the engine's four summary numbers (completion p90 in hours
/// here) and the borrowed share, read from the run's JSON line (`useful_borrowed / useful`
/// with the interruption contract, else `borrowed / held` instance-hours).
pub fn numbers(outcome: &Outcome) -> (Vec<(String, Numbers)>, Numbers) {
    let line: Value = serde_json::from_str(&outcome.line).unwrap_or(Value::Null);
    let borrowed = |stats: &Value| {
        let h = &stats["instance_hours"];
        let f = |k: &str| h[k].as_f64().unwrap_or(0.0);
        let (part, whole) = if h.get("useful_borrowed").is_some() {
            (f("useful_borrowed"), f("useful"))
        } else {
            (f("borrowed"), f("held"))
        };
        if whole > 0.0 {
            part / whole
        } else {
            0.0
        }
    };
    let of = |key: &[f64; 4], stats: &Value| -> Numbers {
        [key[0] / 3600.0, key[1], key[2], key[3], borrowed(stats)]
    };
    let shares = outcome
        .shares
        .iter()
        .map(|(name, key)| (name.clone(), of(key, &line["shares"][name.as_str()])))
        .collect();
    (shares, of(&outcome.totals, &line["totals"]))
}

/// The metric's number of a run's [`Numbers`].
pub fn pick(n: &Numbers, metric: Metric) -> f64 {
    n[metric.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip() {
        let m = ToWorker::Plan {
            sweep: 3,
            scenario: "{}",
            vary: "a=1..2:1",
            seeds: 4,
        };
        assert_eq!(ToWorker::decode(&m.encode()).unwrap(), m);
        let r = FromWorker::Done {
            sweep: 3,
            run: 7,
            shares: vec![("a".into(), [1.0, 0.5, 2.0, 0.0, 0.25])],
            totals: [1.0; 5],
        };
        assert_eq!(FromWorker::decode(&r.encode()).unwrap(), r);
        assert!(FromWorker::decode(&[200, 1]).is_err());
    }
}
