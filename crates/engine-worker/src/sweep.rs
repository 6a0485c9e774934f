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
///
/// A number that a run leaves without a value is NaN, not 0 (the chart leaves a gap and
/// says why): completion p90 when no job of the share succeeded (SPEC 8 `completion_s`
/// is over SUCCEEDED jobs), goodput and the borrowed share when no job held an instance.
/// Lost hours and deadline misses are counts, and 0 is their value.
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
            f64::NAN
        }
    };
    let of = |key: &[f64; 4], stats: &Value| -> Numbers {
        let succeeded = stats["jobs"]["succeeded"].as_u64().unwrap_or(0);
        let held = stats["instance_hours"]["held"].as_f64().unwrap_or(0.0);
        [
            if succeeded > 0 {
                key[0] / 3600.0
            } else {
                f64::NAN
            },
            if held > 0.0 || key[1] > 0.0 {
                key[1]
            } else {
                f64::NAN
            },
            key[2],
            key[3],
            borrowed(stats),
        ]
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

    /// Issue #34 (Explore): a share that ran no job has no completion time, goodput or
    /// borrowed share (NaN, a gap in the chart), not 0; its lost hours and misses are 0.
    #[test]
    fn a_share_that_ran_no_job_has_no_value_not_zero() {
        let text = r#"{"format":"quotalab/v1","seed":1,"capacity":{"ml.g5.xlarge":4},
            "shares":[{"name":"busy","limits":{"ml.g5.xlarge":2},"strategy":"LEND_AND_BORROW"},
                      {"name":"idle","limits":{"ml.g5.xlarge":2},"strategy":"LEND"}],
            "jobs":[{"id":"j","share":"busy","instance_type":"ml.g5.xlarge","submit_s":0,"work_s":600}]}"#;
        let plan = Sweep::new(text, vec![parse_vary("seed=1..1:1").unwrap()], 1).unwrap();
        let FromWorker::Done { shares, .. } = run_one(&plan, 1, 0) else {
            panic!("refused")
        };
        let (busy, idle) = (shares[0].1, shares[1].1);
        assert!(busy.iter().all(|x| x.is_finite()), "{busy:?}");
        assert!(busy[0] > 0.0 && busy[1] > 0.0, "{busy:?}");
        assert!(
            idle[0].is_nan() && idle[1].is_nan() && idle[4].is_nan(),
            "{idle:?}"
        );
        assert_eq!((idle[2], idle[3]), (0.0, 0.0));
    }

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
