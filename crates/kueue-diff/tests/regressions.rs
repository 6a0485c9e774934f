//! The engine against Kueue's recorded decisions (oracle/kueue/testdata/regressions): runs
//! without Go. Each fixture is a minimal scenario where the engine and Kueue once differed.

use std::path::Path;

#[test]
fn the_engine_decides_as_recorded() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../oracle/kueue/testdata/regressions");
    let n = quotalab_kueue_diff::regressions::check_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(n > 0, "no regression fixtures in {}", dir.display());
}

#[test]
fn decisions_differ_at_the_first_instant_that_differs() {
    use quotalab_kueue_diff::decisions::{first_difference, from_events};
    use serde_json::json;
    let engine = from_events(&[
        json!({"t_s": 0, "job": "a", "kind": "dispatch"}),
        json!({"t_s": 5, "job": "a", "kind": "preempt", "by": "b"}),
        json!({"t_s": 5, "job": "b", "kind": "dispatch"}),
        json!({"t_s": 9, "job": "b", "kind": "succeed"}),
    ]);
    // Kueue writes the same instant's decisions in another order and says "complete".
    let kueue = from_events(&[
        json!({"t_s": 0, "job": "a", "kind": "dispatch"}),
        json!({"t_s": 5, "job": "b", "kind": "dispatch"}),
        json!({"t_s": 5, "job": "a", "kind": "preempt", "by": "b"}),
        json!({"t_s": 9, "job": "b", "kind": "complete"}),
    ]);
    assert_eq!(first_difference(&engine, &kueue), None);
    let later = from_events(&[
        json!({"t_s": 0, "job": "a", "kind": "dispatch"}),
        json!({"t_s": 5, "job": "a", "kind": "preempt", "by": "b"}),
        json!({"t_s": 8, "job": "b", "kind": "dispatch"}),
    ]);
    let d = first_difference(&engine, &later).expect("differs");
    assert_eq!(d.t_ms, 5000);
    assert_eq!(d.kueue.len(), 1);
}

/// The release the page and the report name (`model::KUEUE_RELEASE`) is the one the
/// reference harness builds against.
#[test]
fn the_engine_names_the_kueue_release_the_harness_pins() {
    let go_mod = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../oracle/kueue/go.mod");
    let text = std::fs::read_to_string(&go_mod).unwrap();
    let pinned = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("sigs.k8s.io/kueue "))
        .map(|v| v.split_whitespace().next().unwrap_or(""))
        .unwrap_or_else(|| panic!("no sigs.k8s.io/kueue requirement in {}", go_mod.display()));
    assert_eq!(pinned, quotalab_engine::model::KUEUE_RELEASE);
}
