//! `quotasim import aws|kueue` and `quotasim export aws|kueue` (SPEC 13) end to end.

mod common;

use common::{golden, quotasim};
use std::path::PathBuf;

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../engine/tests/config")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn import_kueue_then_run_summary() {
    let imp = quotasim(
        &["import", "kueue", &fixture("kueue-cohort-example.yaml")],
        None,
    );
    assert_eq!(imp.code, 0, "{imp:?}");
    assert!(
        imp.stderr.contains("warning: [4]: ignored: LocalQueue"),
        "{imp:?}"
    );
    let run = quotasim(&["run", "-", "--summary"], Some(imp.stdout.as_bytes()));
    assert_eq!(run.code, 0, "{run:?}");
    for q in ["team-a-cq", "team-b-cq", "team-c-cq"] {
        assert!(run.stdout.contains(q), "{run:?}");
    }
}

#[test]
fn import_into_keeps_the_workloads() {
    let out = quotasim(
        &[
            "import",
            "aws",
            &fixture("aws-create-quota-shares.json"),
            "--into",
            golden("aws-walkthrough.json").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.code, 0, "{out:?}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(!v["jobs"].as_array().unwrap().is_empty());
    // A share the import lacks: an error naming the jobs.
    let k = quotasim(
        &[
            "import",
            "kueue",
            &fixture("kueue-cohort-example.yaml"),
            "--into",
            golden("aws-walkthrough.json").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(k.code, 2, "{k:?}");
    assert!(
        k.stderr
            .contains("jobs[0].share: job bg-p3 is of share \"background\""),
        "{k:?}"
    );
}

#[test]
fn export_then_import_round_trips() {
    let g = golden("aws-walkthrough.json");
    let aws = quotasim(&["export", "aws", g.to_str().unwrap()], None);
    assert_eq!(aws.code, 0, "{aws:?}");
    let back = quotasim(&["import", "aws", "-"], Some(aws.stdout.as_bytes()));
    assert_eq!(back.code, 0, "{back:?}");
    let orig: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&g).unwrap()).unwrap();
    let got: serde_json::Value = serde_json::from_str(&back.stdout).unwrap();
    assert_eq!(orig["shares"], got["shares"]);
    let script = quotasim(
        &[
            "export",
            "aws",
            g.to_str().unwrap(),
            "--script",
            "--queue",
            "ml",
        ],
        None,
    );
    assert_eq!(
        script
            .stdout
            .matches("aws batch create-quota-share --cli-input-json '")
            .count(),
        3,
        "{script:?}"
    );
    let k = quotasim(&["export", "kueue", g.to_str().unwrap()], None);
    assert!(
        k.stdout.contains("kind: ClusterQueue") && k.stdout.contains("reclaimWithinCohort: Any"),
        "{k:?}"
    );
    let kb = quotasim(&["import", "kueue", "-"], Some(k.stdout.as_bytes()));
    assert_eq!(kb.code, 0, "{kb:?}");
}

#[test]
fn bad_input_exits_2_without_panicking() {
    let big = vec![b'#'; 8 * 1024 * 1024 + 10];
    let out = quotasim(&["import", "kueue", "-"], Some(&big));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("over the 8 MiB limit"), "{out:?}");
    let out = quotasim(
        &["import", "kueue", "-"],
        Some("[".repeat(50_000).as_bytes()),
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(!out.stderr.contains("panicked"), "{out:?}");
    let out = quotasim(&["import", "aws", "-"], Some(b"{\"quotaShares\": 3}"));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("error: quotaShares: must be an array, not a number"),
        "{out:?}"
    );
}
