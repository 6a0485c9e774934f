//! The whole Philly trace (82,247 jobs, `shared/traces/philly-adaptdl.csv`) through
//! `quotasim trace import` and `quotasim run`: the realistic load of SPEC 11. Slow in a debug
//! build, so ignored by default; the project's test script runs it in release:
//! `cargo test --locked --release -p quotalab-cli --test philly -- --ignored`.

mod common;

use std::path::Path;

use common::Out;
use serde_json::Value;

const JOBS: u64 = 82_247;

/// Runs `quotasim ARGS` on `stdin` (megabytes of scenario) and checks it did not panic.
fn quotasim(args: &[&str], stdin: Option<&str>) -> Out {
    let out = common::quotasim(args, stdin.map(str::as_bytes));
    assert!(
        !out.stderr.contains("panicked"),
        "quotasim {args:?} panicked:\n{}",
        out.stderr
    );
    out
}

fn trace_present() -> bool {
    if Path::new(common::PHILLY).is_file() {
        true
    } else {
        eprintln!(
            "note: {} is absent; skipping the Philly trace test",
            common::PHILLY
        );
        false
    }
}

/// `quotasim trace import` of the whole trace with `extra` options; returns the scenario JSON.
fn import(extra: &[&str]) -> String {
    let out = common::philly_import(extra).expect("the trace is present");
    assert_eq!(out.code, 0, "trace import failed:\n{}", out.stderr);
    assert!(
        out.stderr.contains("imported 82,247 jobs"),
        "import summary: {}",
        out.stderr
    );
    out.stdout
}

fn share_names(scenario: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(scenario).expect("the import prints JSON");
    v["shares"]
        .as_array()
        .expect("shares")
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// SPEC 8: the job counts and the instance-hour identity hold for a share's (or the totals')
/// statistics.
fn check_accounting(name: &str, s: &Value, submitted: Option<u64>) {
    let j = &s["jobs"];
    if let Some(n) = submitted {
        assert_eq!(u(&j["submitted"]), n, "{name}: submitted");
    }
    assert_eq!(
        u(&j["succeeded"]) + u(&j["failed"]) + u(&j["unfinished"]) + u(&j["rejected"]),
        u(&j["submitted"]),
        "{name}: succeeded + failed + unfinished + rejected == submitted: {j}"
    );
    assert!(u(&j["unschedulable"]) <= u(&j["unfinished"]), "{name}: {j}");
    let h = &s["instance_hours"];
    let parts: f64 = ["useful", "lost", "startup", "checkpoint", "grace"]
        .iter()
        .map(|k| f(&h[*k]))
        .sum();
    let held = f(&h["held"]);
    assert!(
        (parts - held).abs() <= 1e-9 * held.abs().max(1.0),
        "{name}: useful + lost + startup + checkpoint + grace = {parts} != held = {held}: {h}"
    );
}

#[test]
#[ignore = "the whole Philly trace: run in release with --ignored"]
fn philly_top5_on_p4d() {
    if !trace_present() {
        return;
    }
    let scenario = import(&[
        "--top-shares",
        "5",
        "--instance-type",
        "ml.p4d.24xlarge",
        "--gpus-per-instance",
        "8",
        "--limits",
        "proportional",
        "--capacity",
        "64",
    ]);
    let names = share_names(&scenario);
    assert_eq!(names.len(), 6, "5 largest clusters and other: {names:?}");
    assert!(names.iter().any(|n| n == "other"), "{names:?}");
    // The README's four largest virtual clusters are among the kept shares.
    for big in ["6214e9", "11cb48", "6c71a0", "b436b2"] {
        assert!(names.iter().any(|n| n == big), "{big} missing: {names:?}");
    }

    // The summary table: every share and a TOTAL row of all jobs.
    let out = quotasim(&["run", "-", "--summary"], Some(&scenario));
    assert_eq!(out.code, 0, "run --summary failed:\n{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    for name in names.iter().map(String::as_str).chain(["TOTAL"]) {
        assert!(
            lines
                .iter()
                .any(|l| l.split_whitespace().next() == Some(name)),
            "no row {name}:\n{}",
            out.stdout
        );
    }
    let total = lines
        .iter()
        .find(|l| l.starts_with("TOTAL"))
        .expect("a TOTAL row");
    assert_eq!(
        total.split_whitespace().nth(1),
        Some("82247"),
        "TOTAL jobs: {total}"
    );

    // The full result JSON.
    let out = quotasim(&["run", "-"], Some(&scenario));
    assert_eq!(out.code, 0, "run failed:\n{}", out.stderr);
    let r: Value = serde_json::from_str(&out.stdout).expect("result JSON");
    assert_eq!(r["format"], "quotalab-result/v1");
    check_accounting("totals", &r["totals"], Some(JOBS));
    let shares = r["shares"].as_object().expect("shares");
    assert_eq!(shares.len(), 6);
    let mut sum = 0;
    for (name, s) in shares {
        check_accounting(name, s, None);
        sum += u(&s["jobs"]["submitted"]);
    }
    assert_eq!(sum, JOBS, "the shares' jobs add up to the total");
    assert_eq!(r["jobs"].as_array().map(Vec::len), Some(JOBS as usize));
}

#[test]
#[ignore = "the whole Philly trace: run in release with --ignored"]
fn philly_8_shares_on_1_gpu_instances() {
    if !trace_present() {
        return;
    }
    let scenario = import(&[
        "--top-shares",
        "7",
        "--instance-type",
        "ml.g5.xlarge",
        "--gpus-per-instance",
        "1",
    ]);
    let names = share_names(&scenario);
    assert_eq!(names.len(), 8, "7 largest clusters and other: {names:?}");

    let out = quotasim(&["run", "-"], Some(&scenario));
    assert_eq!(out.code, 0, "run failed:\n{}", out.stderr);
    let r: Value = serde_json::from_str(&out.stdout).expect("result JSON");
    assert_eq!(r["format"], "quotalab-result/v1");
    check_accounting("totals", &r["totals"], Some(JOBS));
    assert_eq!(r["shares"].as_object().map(|m| m.len()), Some(8));
}
