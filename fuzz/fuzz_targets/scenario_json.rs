//! Scenario JSON (SPEC 7), the door every scenario goes through: the validator, its plain
//! fast path (input/plain.rs) and, for small valid scenarios, the whole pipeline.
//!
//! Properties: no panic; a refusal is problems with messages; the plain path and the general
//! path (`load_value` of the parsed document) agree exactly; a valid scenario of at most
//! `MAX_SIMULATED_JOBS` jobs simulates, twice to the same bytes; CPU time within the budget
//! (one second per KiB, plus 20 us per job the input asks its workloads to generate).
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use quotalab_engine::{load, pipeline, validate};
use quotalab_fuzz::{check_refusal, Budget};
use serde_json::Value;

/// Valid scenarios with more jobs are only validated (a run's cost is the jobs', not the
/// bytes': the structured target `simulate` runs extreme scenarios).
const MAX_SIMULATED_JOBS: usize = 400;
/// Documents asking for more generated jobs than this are skipped (they are valid by design
/// up to SPEC's 1,000,000 per workload, and cost time in proportion, not a defect).
const MAX_GENERATED: u64 = 20_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut budget = Budget::for_bytes(text.len());
    let parsed: Option<Value> = serde_json::from_str(text).ok();
    let generated = parsed.as_ref().map(generated_jobs).unwrap_or(0);
    if generated > MAX_GENERATED {
        return;
    }
    budget.allow(
        Duration::from_micros(20 * generated),
        2048 * generated as usize,
    );

    let fast = load(text);
    match (&fast, &parsed) {
        (Err(problems), _) => check_refusal("load", problems),
        (Ok(_), None) => panic!("load accepted text that is not JSON"),
        _ => {}
    }
    // The plain path must decide exactly as the general path does.
    if let Some(value) = &parsed {
        let general = validate::load_value(value);
        match (&fast, &general) {
            (Ok(a), Ok(b)) => {
                assert_eq!(
                    format!("{:?}", a.scenario),
                    format!("{:?}", b.scenario),
                    "plain and general paths build different scenarios"
                );
                assert_eq!(
                    a.warnings, b.warnings,
                    "plain and general paths warn differently"
                );
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "plain and general paths refuse differently"),
            (a, b) => panic!(
                "plain path {} but general path {}",
                if a.is_ok() { "accepts" } else { "refuses" },
                if b.is_ok() { "accepts" } else { "refuses" }
            ),
        }
    }
    budget.check("validation");

    let Ok(loaded) = fast else { return };
    if loaded.scenario.jobs.len() > MAX_SIMULATED_JOBS {
        return;
    }
    budget.allow(
        Duration::from_millis(2 * loaded.scenario.jobs.len() as u64),
        0,
    );
    let opts = pipeline::RunOptions::default();
    let first = pipeline::run(text, &opts).expect("a valid scenario runs");
    let second = pipeline::run(text, &opts).expect("a valid scenario runs twice");
    assert_eq!(first, second, "two runs of one scenario differ");
    budget.check("two runs");
});

/// How many jobs the document's workloads ask to generate (their `count`s).
fn generated_jobs(doc: &Value) -> u64 {
    doc.get("workloads")
        .and_then(Value::as_array)
        .map(|ws| {
            ws.iter()
                .map(|w| match w.get("count") {
                    Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0).clamp(0.0, 1e7) as u64,
                    Some(_) => 0,
                    None => 1,
                })
                .sum()
        })
        .unwrap_or(0)
}
