//! The worker protocol in headless Chromium (wasm-bindgen-test): a run's result survives the
//! trip as postcard bytes exactly (so a future `skip_serializing_if` or untagged enum in the
//! digest, which postcard cannot carry, fails here and not on the page), and the page's
//! estimate of a scenario's size decides where it runs.

use quotalab_app::state::{estimate_jobs, WORKER_MIN_JOBS};
use quotalab_app::worker::{decode_done, decode_problems, encode_done, encode_problems};
use quotalab_engine::digest::{digest, DigestLimits};
use quotalab_engine::{load, simulate, Options, Problem};
use serde_json::{json, Value};
use wasm_bindgen_test::*;

const AWS: &str = include_str!("../../www/presets/aws-walkthrough.json");

/// Two shares, `jobs` generated jobs, preemptions and checkpoints (every digest field used).
fn generated(jobs: u64) -> Value {
    let t = "ml.g5.xlarge";
    json!({"format": "quotalab/v1", "name": "roundtrip", "seed": 3, "capacity": {t: 8},
    "shares": [
        {"name": "a", "limits": {t: 4}, "strategy": "LEND_AND_BORROW", "borrow_limit": 100, "in_share_preemption": true},
        {"name": "b", "limits": {t: 4}, "strategy": "LEND"}
    ],
    "workloads": [
        {"share": "a", "count": jobs / 2, "arrival": {"poisson_per_hour": 4}, "instance_type": t,
         "instances": {"choice": [[1, 3], [2, 1]]}, "work_s": {"lognormal": {"median": 1800, "sigma": 1}},
         "priority": {"choice": [[0, 1], [5, 1]]}, "checkpoint": {"interval_s": 600, "cost_s": 20, "restore_s": 30},
         "checkpoint_on_preempt": true},
        {"share": "b", "count": jobs - jobs / 2, "arrival": {"poisson_per_hour": 4}, "instance_type": t,
         "work_s": {"exponential": {"mean": 2400}}}
    ]})
}

#[wasm_bindgen_test]
fn a_digest_and_its_warnings_survive_the_trip_exactly() {
    for text in [AWS.to_string(), generated(1_000).to_string()] {
        let loaded = load(&text).expect("valid scenario");
        let sim = simulate(&loaded.scenario, Options::default());
        let d = digest(&sim, DigestLimits::default());
        let warnings = vec![
            Problem::new("shares[0].limits", "overcommitted"),
            Problem::new("", "whole"),
        ];
        let bytes = encode_done(&warnings, &d).expect("encodes");
        let (w2, d2) = decode_done(&bytes).expect("decodes");
        assert_eq!(w2, warnings);
        assert_eq!(d2, d, "the digest of {} changed on the way", d.name);
        // Compact: well under the JSON text of the same digest.
        let json = serde_json::to_string(&d).unwrap().len();
        assert!(
            bytes.len() * 2 < json,
            "{} bytes vs {json} as JSON",
            bytes.len()
        );
    }
}

#[wasm_bindgen_test]
fn problems_survive_the_trip() {
    let problems = vec![
        Problem::new("jobs[3].work_s", "must be > 0"),
        Problem::new("", "JSON syntax error at line 1, column 2: é"),
    ];
    let bytes = encode_problems(&problems).unwrap();
    assert_eq!(decode_problems(&bytes).unwrap(), problems);
    assert!(
        decode_done(&bytes[..bytes.len() / 2]).is_err(),
        "garbage is an error, not a panic"
    );
}

#[wasm_bindgen_test]
fn the_size_estimate_counts_explicit_and_generated_jobs() {
    let aws: Value = serde_json::from_str(AWS).unwrap();
    assert_eq!(estimate_jobs(&aws), 4);
    assert!(
        estimate_jobs(&aws) <= WORKER_MIN_JOBS,
        "the walkthrough runs on the page"
    );
    assert_eq!(estimate_jobs(&generated(5_000)), 5_000);
    let at =
        json!({"jobs": [{}, {}], "workloads": [{"arrival": {"at_s": [1, 2, 3]}}, {"count": 1e30}]});
    assert_eq!(estimate_jobs(&at), u64::MAX, "saturates");
    assert_eq!(
        estimate_jobs(&json!({"workloads": [{"arrival": {"at_s": [1, 2, 3]}}]})),
        3
    );
    assert_eq!(estimate_jobs(&json!([])), 0);
}
