//! SPEC 15 on the page: what the Explore panel's pool and an engine worker say about a sweep
//! ([`ToWorker`] and [`FromWorker`], carried inside the protocol's `Request::Sweep` and
//! `Response::Sweep`), the numbers one run reports ([`Numbers`]), and [`serve`], which plans
//! a sweep with the engine's [`parse_vary`] and [`Sweep::new`] and simulates the runs it is
//! asked for ([`run_one`]: the page's component tests call it in-process).

use quotalab_engine::analysis::sweep::{parse_vary, Outcome, Sweep};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A run's numbers per share (and in total), indexed as the panel's metrics are.
pub type Numbers = [f64; 5];

/// The panel's pool → an engine worker.
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

/// An engine worker → the panel's pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
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

/// Simulates run `run` of `sweep` (as a worker does) into its message.
pub fn run_one(plan: &Sweep, sweep: u64, run: u32) -> FromWorker {
    match plan.run(run as usize) {
        Ok(outcome) => {
            let (shares, totals) = numbers(&outcome);
            FromWorker::Done {
                sweep,
                run,
                shares,
                totals,
            }
        }
        Err(problems) => FromWorker::Refused {
            sweep,
            run,
            problems: problems
                .into_iter()
                .map(|p| (p.path.to_string(), p.message))
                .collect(),
        },
    }
}

/// Answers one message about sweeps; `plan` keeps the sweep planned (with its number)
/// between messages.
pub fn serve(message: ToWorker, plan: &mut Option<(u64, Sweep)>) -> Option<FromWorker> {
    match message {
        ToWorker::Plan {
            sweep,
            scenario,
            vary,
            seeds,
        } => {
            let planned = parse_vary(vary)
                .map_err(|p| vec![p])
                .and_then(|v| Sweep::new(scenario, vec![v], seeds));
            match planned {
                Ok(p) => {
                    *plan = Some((sweep, p));
                    None
                }
                Err(problems) => Some(FromWorker::Refused {
                    sweep,
                    run: u32::MAX,
                    problems: problems
                        .into_iter()
                        .map(|p| (p.path.to_string(), p.message))
                        .collect(),
                }),
            }
        }
        ToWorker::Run { sweep, run } => match plan {
            Some((id, p)) if *id == sweep => Some(run_one(p, sweep, run)),
            _ => None,
        },
    }
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
        let bytes = crate::Request::Sweep(m.clone()).encode().unwrap();
        assert_eq!(
            crate::Request::decode(&bytes).unwrap(),
            crate::Request::Sweep(m)
        );
        let r = FromWorker::Done {
            sweep: 3,
            run: 7,
            shares: vec![("a".into(), [1.0, 0.5, 2.0, 0.0, 0.25])],
            totals: [1.0; 5],
        };
        let bytes = crate::Response::Sweep(r.clone()).encode().unwrap();
        assert_eq!(
            crate::Response::decode(&bytes).unwrap(),
            crate::Response::Sweep(r)
        );
    }
}
