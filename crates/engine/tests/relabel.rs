//! Issue #30: an edit that changes nothing the simulation reads (the scenario's name, a
//! share's agreement text) is answered by relabelling the last run's digest instead of
//! simulating again. The relabelled digest must be exactly the digest a fresh run of the
//! edited scenario makes, and any edit the simulation reads must not count as "the same".

use quotalab_engine::analysis::contract_card;
use quotalab_engine::digest::{digest, DigestLimits, Label};
use quotalab_engine::{load, simulate, Options};
use serde_json::{json, Value};

const PRESETS: [&str; 3] = [
    include_str!("../../../www/presets/aws-walkthrough.json"),
    include_str!("../../../www/presets/recovery-not-free.json"),
    include_str!("../../../www/presets/kueue-hierarchical-fair.json"),
];

fn digest_of(doc: &Value) -> quotalab_engine::digest::Digest {
    let loaded = load(&doc.to_string()).expect("valid");
    digest(
        &simulate(&loaded.scenario, Options::default()),
        DigestLimits::default(),
    )
}

#[test]
fn a_relabelled_run_is_the_run_of_the_renamed_scenario() {
    for text in PRESETS {
        let before: Value = serde_json::from_str(text).unwrap();
        let mut after = before.clone();
        after["name"] = json!("renamed <b>&</b>");
        after["shares"][0]["agreement"] = json!({
            "owner": "platform team",
            "rationale": "a new reason",
            "review_by": "2027-01-31"
        });
        let (a, b) = (
            load(&before.to_string()).unwrap().scenario,
            load(&after.to_string()).unwrap().scenario,
        );
        assert!(a.same_simulation(&b), "{}: only labels changed", a.name);
        let mut relabelled = digest_of(&before);
        let kept = relabelled.clone();
        relabelled.relabel(&b);
        let fresh = digest_of(&after);
        assert_eq!(relabelled, fresh, "{}", a.name);
        // The label alone, as the worker answers such a run, makes the same: the page keeps
        // the digest it has and shows the label's name, summary and agreements.
        let label = Label::of(&b);
        assert_eq!(label, fresh.label());
        let mut applied = kept.clone();
        applied.apply(&label);
        assert_eq!(applied, fresh);
        assert_eq!(
            contract_card::cards_labelled(&kept, Some(&label), None),
            contract_card::cards(&fresh, None),
            "{}: the cards of the relabelled run",
            a.name
        );
    }
}

#[test]
fn an_edit_the_simulation_reads_is_not_the_same() {
    let before: Value = serde_json::from_str(PRESETS[0]).unwrap();
    let a = load(&before.to_string()).unwrap().scenario;
    let edits: [fn(&mut Value); 5] = [
        |d| d["seed"] = json!(99),
        |d| d["shares"][0]["borrow_limit"] = json!(50),
        |d| d["queue"] = json!({"preemption_grace_s": 5}),
        |d| d["jobs"][0]["work_s"] = json!(1),
        |d| d["capacity"]["ml.g5.xlarge"] = json!(9),
    ];
    for (i, edit) in edits.iter().enumerate() {
        let mut after = before.clone();
        edit(&mut after);
        let b = load(&after.to_string()).expect("still valid").scenario;
        assert!(!a.same_simulation(&b), "edit {i} changes the simulation");
    }
}
