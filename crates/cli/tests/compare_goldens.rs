//! Goldens of `quotasim compare` for every preset of the page (SPEC 9.1): the `matched`
//! completion, the forecast and the verdicts of `--summary`, as `tests/compare/PRESET.json`.
//! Besides the goldens, what must hold on every preset: `matched` is over jobs that
//! succeeded in all three runs (never more than any run's successes), the forecast is over
//! the same jobs, and a verdict that calls the runs identical comes with identical runs.
//!
//! After an intended change of the engine, `UPDATE_GOLDENS=1 cargo test -p quotalab-cli
//! --test compare_goldens` rewrites the files; review their diff like code.

mod common;

use std::path::{Path, PathBuf};

use common::quotasim;
use serde_json::{json, Value};

fn presets() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/presets");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("www/presets")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    files
}

/// The `== verdict ==` block of `compare --summary`, line by line.
fn verdict_lines(summary: &str) -> Vec<String> {
    summary
        .lines()
        .skip_while(|l| *l != "== verdict ==")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn compare_matched_and_verdicts_of_every_preset() {
    let update = std::env::var_os("UPDATE_GOLDENS").is_some();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compare");
    let mut failures = Vec::new();
    for preset in presets() {
        let path = preset.to_str().unwrap();
        let name = preset.file_stem().unwrap().to_str().unwrap().to_string();
        let out = quotasim(&["compare", path], None);
        assert_eq!(out.code, 0, "{name}: {out:?}");
        let v: Value = serde_json::from_str(&out.stdout).expect("compare prints JSON");
        let summary = quotasim(&["compare", path, "--summary"], None);
        assert_eq!(summary.code, 0, "{name}: {summary:?}");
        let verdict = verdict_lines(&summary.stdout);
        assert!(verdict.len() >= 2, "{name}: {}", summary.stdout);

        // What must hold whatever the numbers.
        for (share, m) in v["matched"].as_object().expect("matched per share") {
            let n = m["n"].as_u64().unwrap();
            for policy in ["as_given", "partitioned", "pooled"] {
                let succeeded = v[policy]["shares"][share]["jobs"]["succeeded"]
                    .as_u64()
                    .unwrap();
                assert!(
                    n <= succeeded,
                    "{name}/{share}: {n} matched > {succeeded} in {policy}"
                );
            }
            let f = &v["forecast"][share];
            assert_eq!(f["as_given"]["n"], m["n"], "{name}/{share}");
            assert_eq!(
                f["as_given"]["p50_s"], m["as_given"]["p50_s"],
                "{name}/{share}"
            );
            assert_eq!(
                f["allocation_alone"]["p90_s"], m["partitioned"]["p90_s"],
                "{name}/{share}"
            );
        }
        let identical = verdict[0].ends_with("no difference: nobody lends or borrows.");
        if identical {
            assert_eq!(
                v["as_given"]["shares"], v["partitioned"]["shares"],
                "{name}"
            );
            assert_eq!(v["as_given"]["jobs"], v["partitioned"]["jobs"], "{name}");
        }

        let got = json!({
            "matched": v["matched"],
            "forecast": v["forecast"],
            "verdict": verdict,
        });
        let file = dir.join(format!("{name}.json"));
        let text = serde_json::to_string_pretty(&got).unwrap() + "\n";
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &text).unwrap();
            continue;
        }
        match std::fs::read_to_string(&file) {
            Ok(want) if want == text => {}
            Ok(want) => failures.push(format!(
                "{name}: differs from {}\n--- want\n{want}\n--- got\n{text}",
                file.display()
            )),
            Err(e) => failures.push(format!("{name}: {}: {e}", file.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The cases, as a platform lead would read them.
#[test]
fn verdicts_a_platform_lead_can_repeat() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/presets");
    let summary = |preset: &str| {
        let path = dir.join(preset);
        let out = quotasim(&["compare", path.to_str().unwrap(), "--summary"], None);
        assert_eq!(out.code, 0, "{out:?}");
        verdict_lines(&out.stdout).join("\n")
    };
    // Priority inflation: every share RESERVE, so nobody lends: no difference.
    let p = summary("priority-inflation.json");
    assert!(
        p.starts_with("As given vs partitioned: no difference: nobody lends or borrows."),
        "{p}"
    );
    // Recovery is not free: partitioned finishes 4 of 6 of steady's jobs; the completion
    // verdict says it is over those 4.
    let r = summary("recovery-not-free.json");
    assert!(
        r.contains(
            "Completion is compared over the 4 of 6 jobs that succeeded under all three policies."
        ),
        "{r}"
    );
    assert!(r.contains("jobs succeeded 4 → 6 (+50%)"), "{r}");
    // Research org with every share RESERVE: identical runs.
    let text = std::fs::read_to_string(dir.join("research-org.json")).unwrap();
    let mut sc: Value = serde_json::from_str(&text).unwrap();
    for s in sc["shares"].as_array_mut().unwrap() {
        s["strategy"] = json!("RESERVE");
        s.as_object_mut().unwrap().remove("borrow_limit");
    }
    let out = quotasim(
        &["compare", "-", "--summary"],
        Some(sc.to_string().as_bytes()),
    );
    assert_eq!(out.code, 0, "{out:?}");
    let v = verdict_lines(&out.stdout).join("\n");
    assert!(
        v.starts_with("As given vs partitioned: no difference: nobody lends or borrows."),
        "{v}"
    );
}
