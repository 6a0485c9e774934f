//! The quota tree at an instant (output/tree_view.rs) read back from a Kueue run, and the
//! model switch (input/translate.rs) on every bundled AWS preset.

use quotalab_engine::digest::{Digest, DigestLimits};
use quotalab_engine::pipeline::{run, Product, RunOptions};
use quotalab_engine::translate::{aws_to_kueue, kueue_to_aws};
use quotalab_engine::tree_view::{Amounts, NodeKind};
use serde_json::Value;

fn digest(text: &str) -> Digest {
    let opts = RunOptions {
        product: Product::Digest(DigestLimits::default()),
        ..RunOptions::default()
    };
    run(text, &opts)
        .unwrap_or_else(|p| panic!("{p:?}"))
        .output
        .into_digest()
        .unwrap()
}

/// Kueue's "preempt with hierarchical advantage": tree r <- {c(2) <- q, q_borrowing}.
/// q_borrowing borrows c's 2 instances from 0 s; q reclaims them at 1 s.
const HIER: &str = include_str!("golden/kueue-hier-hierarchical-advantage.json");

fn a(quota: f64, usage: f64, borrowed: f64, lent: f64) -> Vec<Amounts> {
    vec![Amounts {
        quota,
        usage,
        borrowed,
        lent,
    }]
}

#[test]
fn the_tree_in_reading_order_with_its_amounts_at_the_cursor() {
    let d = digest(HIER);
    let tree = d.quota_tree_at(0.5);
    let rows: Vec<(NodeKind, &str, u16)> = tree
        .iter()
        .map(|r| (r.kind, r.name.as_str(), r.depth))
        .collect();
    assert_eq!(
        rows,
        [
            (NodeKind::Cohort(0), "r", 0),
            (NodeKind::Cohort(1), "c", 1),
            (NodeKind::Share(0), "q", 2),
            (NodeKind::Share(1), "q_borrowing", 1),
        ]
    );
    // Before the reclaim: q_borrowing holds c's two instances, borrowed through r.
    assert_eq!(tree[0].amounts, a(2.0, 2.0, 0.0, 0.0), "root r");
    assert_eq!(
        tree[1].amounts,
        a(2.0, 0.0, 0.0, 2.0),
        "cohort c lends its 2"
    );
    assert_eq!(
        tree[3].amounts,
        a(0.0, 2.0, 2.0, 0.0),
        "q_borrowing borrows 2"
    );
    // After it (grace 0): q holds them within c's quota.
    let later = d.quota_tree_at(3.0);
    assert_eq!(later[2].amounts, a(0.0, 2.0, 2.0, 0.0), "q borrows from c");
    assert_eq!(later[1].amounts, a(2.0, 2.0, 0.0, 0.0), "c uses its own");
    assert_eq!(
        later[3].amounts,
        a(0.0, 0.0, 0.0, 0.0),
        "q_borrowing preempted"
    );
}

#[test]
fn an_aws_run_has_no_tree() {
    let d = digest(include_str!("golden/aws-walkthrough.json"));
    assert!(d.quota_tree_at(10.0).is_empty());
    assert_eq!(d.busiest_t(), 0.0);
}

/// Every bundled AWS preset, switched to Kueue, is a valid Kueue scenario, and switched
/// back gives the same shares.
#[test]
fn presets_switch_to_kueue_and_back() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/presets");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if doc.get("model").is_some() {
            continue;
        }
        seen += 1;
        let k = aws_to_kueue(&doc);
        let text = serde_json::to_string(&k.doc).unwrap();
        if let Err(p) = quotalab_engine::load(&text) {
            panic!("{}: {p:?}", path.display());
        }
        let back = kueue_to_aws(&k.doc);
        // Back as written, but for defaults left out (in-share preemption false).
        let mut want = doc["shares"].clone();
        for s in want.as_array_mut().unwrap() {
            let m = s.as_object_mut().unwrap();
            if m.get("in_share_preemption") == Some(&Value::Bool(false)) {
                m.remove("in_share_preemption");
            }
        }
        assert_eq!(back.doc["shares"], want, "{}", path.display());
        assert!(quotalab_engine::load(&serde_json::to_string(&back.doc).unwrap()).is_ok());
    }
    assert!(seen >= 4, "presets read: {seen}");
}
