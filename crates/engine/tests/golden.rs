//! Data-driven golden tests (in the style of rust-analyzer's): every `golden/NAME.json`
//! scenario is simulated and its event log and final job states, rendered one per line,
//! must equal `golden/NAME.expected`. Each scenario's `description` names the SPEC rule it
//! pins. After a deliberate change of behaviour, regenerate with
//! `UPDATE_EXPECT=1 cargo test -p quotalab-engine --test golden` and review the diff.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

/// Renders a result's events and jobs as stable, reviewable lines.
fn render(result: &str) -> String {
    let r: Value = serde_json::from_str(result).expect("result is JSON");
    let mut out = String::new();
    for e in r["events"].as_array().unwrap() {
        let mut line = format!("{:>6} {:<12}", e["t_s"], e["kind"].as_str().unwrap());
        if let Some(j) = e["job"].as_str() {
            let _ = write!(line, " {j}");
        }
        let _ = write!(line, " [{}]", e["share"].as_str().unwrap());
        for k in [
            "borrowing",
            "cause",
            "by",
            "reason",
            "priority",
            "escalated",
            "from",
            "lost_s",
            "preemptions",
        ] {
            if !e[k].is_null() {
                let v = match &e[k] {
                    Value::String(s) => s.clone(),
                    v => v.to_string(),
                };
                let _ = write!(line, " {k}={v}");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("--\n");
    for j in r["jobs"].as_array().unwrap() {
        let _ = writeln!(
            out,
            "{} {} start={} end={} preemptions={} lost_s={} held_s={}{}{}",
            j["id"].as_str().unwrap(),
            j["state"].as_str().unwrap(),
            j["first_start_s"],
            j["end_s"],
            j["preemptions"],
            j["lost_s"],
            j["held_s"],
            j["waiting_reason"]
                .as_str()
                .map(|r| format!(" waiting={r}"))
                .unwrap_or_default(),
            // SPEC 14 (only in results of scenarios that use it).
            if j["useful_borrowed_s"].is_null() {
                String::new()
            } else {
                format!(" useful_borrowed_s={}", j["useful_borrowed_s"])
            }
        );
    }
    let _ = writeln!(out, "end_s={}", r["end_s"]);
    out
}

#[test]
fn golden_scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    entries.sort();
    assert!(entries.len() >= 10, "golden scenarios are missing");
    let mut failures = Vec::new();
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap();
        let result = quotalab_engine::run_json(&text)
            .unwrap_or_else(|p| panic!("{}: invalid: {p:?}", path.display()));
        let got = render(&result);
        // Byte-identical output on a second run (SPEC 8).
        assert_eq!(
            quotalab_engine::run_json(&text).unwrap(),
            result,
            "{}: not deterministic",
            path.display()
        );
        let expected_path = path.with_extension("expected");
        if update {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != got {
            failures.push(format!(
                "--- {}\n{}\n+++ got\n{}",
                expected_path.display(),
                expected,
                got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "golden mismatches (UPDATE_EXPECT=1 to regenerate):\n{}",
        failures.join("\n")
    );
}
