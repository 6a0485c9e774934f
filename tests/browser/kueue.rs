//! The Kueue model on the page (SPEC 12): the model switch, a ClusterQueue's fields, the
//! cohort editor and the cohort tree at the cursor.

use std::sync::Arc;

use crate::common::{all, choose, doc, mount, mount_editor, one, settle, text, validate};
use leptos::prelude::*;
use quotalab_engine::digest::{Digest, DigestLimits};
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement};

const WALKTHROUGH: &str = include_str!("../../www/presets/aws-walkthrough.json");
const THREE: &str = include_str!("../../www/presets/kueue-three-queues.json");
const FAIR: &str = include_str!("../../www/presets/kueue-hierarchical-fair.json");

fn present(root: &Element, selector: &str) -> bool {
    root.query_selector(selector).unwrap().is_some()
}

/// The labels of the fields in the first element matching `selector`.
fn labels_in(root: &Element, selector: &str) -> Vec<String> {
    all(&one(root, selector), ".field > label")
        .iter()
        .map(text)
        .collect()
}

#[wasm_bindgen_test]
async fn the_model_switch_translates_the_shares_and_undo_puts_them_back() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    assert!(present(&root, "[data-testid=share-strategy]"));
    assert!(!present(&root, "[data-testid=share-cohort]"));
    assert!(
        !present(&root, "[data-testid=add-cohort]"),
        "no cohorts in the AWS model"
    );

    choose(&one(&root, "[data-testid=model]"), "Kueue");
    settle().await;
    let d = doc(app);
    assert_eq!(d["model"], "kueue");
    // SPEC 12's table: background LEND_AND_BORROW 200 % of 1, medium LEND, protected RESERVE.
    let s = &d["shares"];
    assert_eq!(s[0]["cohort"], "quotalab");
    assert_eq!(s[0]["borrowing_limit"]["ml.g5.xlarge"], 2);
    assert!(s[0].get("strategy").is_none() && s[0].get("borrow_limit").is_none());
    assert_eq!(s[1]["borrowing_limit"]["ml.g5.xlarge"], 0);
    assert_eq!(s[2]["lending_limit"]["ml.g5.xlarge"], 0);
    assert_eq!(s[0]["preemption"]["reclaim"], "any");
    let notice = app
        .notice
        .get_untracked()
        .expect("the switch says what it did");
    assert!(notice.title.contains("Kueue"), "{}", notice.title);
    assert!(!notice.lines.is_empty());
    // The forms follow: Kueue fields, no AWS strategy, a cohorts section.
    assert!(!present(&root, "[data-testid=share-strategy]"));
    assert_eq!(all(&root, "[data-testid=share-cohort]").len(), 3);
    assert!(present(&root, "[data-testid=add-cohort]"));
    validate(app).await;
    assert!(
        app.problems.get_untracked().is_empty(),
        "{:?}",
        app.problems.get_untracked()
    );

    assert!(app.history.undo(app.scenario));
    settle().await;
    assert_eq!(
        doc(app),
        serde_json::from_str::<Value>(WALKTHROUGH).unwrap()
    );
    assert!(present(&root, "[data-testid=share-strategy]"));
}

// Issue #34: a job's and a workload's rows name the share and the type in the model's words,
// and follow the model switch (and its undo).
#[wasm_bindgen_test]
async fn job_and_workload_rows_follow_the_model() {
    let mut d: Value = serde_json::from_str(WALKTHROUGH).unwrap();
    d["workloads"] = serde_json::json!([{
        "share": "background", "count": 2, "arrival": {"poisson_per_hour": 4},
        "instance_type": "ml.g5.xlarge", "instances": 1, "work_s": 600
    }]);
    d["events"] = serde_json::json!([{"at_s": 60, "update_share": {"share": "background", "state": "DISABLED"}}]);
    let (root, app) = mount_editor(&d.to_string());
    settle().await;
    let events = |root: &Element| labels_in(root, "[data-testid=timed-event-row]");
    assert!(
        events(&root).iter().any(|l| l == "Share"),
        "{:?}",
        events(&root)
    );
    assert!(
        events(&root).iter().any(|l| l == "Strategy"),
        "{:?}",
        events(&root)
    );
    let rows = |root: &Element| {
        [
            labels_in(root, "[data-testid=job-row]"),
            labels_in(root, "[data-testid=workload-row]"),
        ]
    };
    for labels in rows(&root) {
        assert!(
            labels.iter().any(|l| l == "Share") && labels.iter().any(|l| l == "Instance type"),
            "{labels:?}"
        );
    }
    choose(&one(&root, "[data-testid=model]"), "Kueue");
    settle().await;
    // A timed event's fields speak Kueue too.
    let ev = events(&root);
    assert!(ev.iter().any(|l| l == "ClusterQueue"), "{ev:?}");
    assert!(!ev.iter().any(|l| l == "Share"), "{ev:?}");
    // ... and offer only what the Kueue model has (issue #34, walk).
    for aws in ["Strategy", "Borrow limit (%)", "In-share preemption"] {
        assert!(!ev.iter().any(|l| l == aws), "{aws} in {ev:?}");
    }
    for labels in rows(&root) {
        assert!(
            labels.iter().any(|l| l == "ClusterQueue")
                && labels.iter().any(|l| l == "ResourceFlavor"),
            "{labels:?}"
        );
        assert!(
            !labels.iter().any(|l| l == "Share" || l == "Instance type"),
            "{labels:?}"
        );
    }
    assert!(app.history.undo(app.scenario));
    settle().await;
    for labels in rows(&root) {
        assert!(labels.iter().any(|l| l == "Share"), "{labels:?}");
    }
}

#[wasm_bindgen_test]
async fn a_clusterqueues_policies_are_written_and_judged_by_the_validator() {
    let (root, app) = mount_editor(THREE);
    settle().await;
    let row = all(&root, "[data-testid=share-row]")[2].clone();
    // team-c-cq: reclaim lower_priority; borrow within cohort needs reclaim not never.
    choose(&one(&row, "[data-testid=share-reclaim]"), "Never");
    choose(&one(&row, "[data-testid=share-bwc]"), "LowerPriority");
    settle().await;
    let d = doc(app);
    assert_eq!(d["shares"][2]["preemption"]["reclaim"], "never");
    assert_eq!(
        d["shares"][2]["preemption"]["borrow_within_cohort"]["policy"],
        "lower_priority"
    );
    validate(app).await;
    let shown = text(&row);
    assert!(
        shown.contains("reclaim"),
        "the row shows the validator's message: {shown}"
    );
    // The threshold is enabled with the policy, and typed into the document.
    let threshold: HtmlInputElement = all(&row, "input")
        .into_iter()
        .find(|i| {
            i.closest(".field")
                .unwrap()
                .map(|f| text(&f).starts_with("Max priority threshold"))
                .unwrap_or(false)
        })
        .expect("the threshold field")
        .unchecked_into();
    assert!(!threshold.disabled());
    threshold.set_value("-5");
    threshold
        .dispatch_event(&Event::new("input").unwrap())
        .unwrap();
    settle().await;
    assert_eq!(
        doc(app)["shares"][2]["preemption"]["borrow_within_cohort"]["max_priority_threshold"],
        -5
    );
}

#[wasm_bindgen_test]
async fn cohorts_are_added_and_a_rename_carries_the_shares_along() {
    let (root, app) = mount_editor(THREE);
    settle().await;
    assert_eq!(all(&root, "[data-testid=cohort-row]").len(), 1);
    let name: HtmlInputElement = one(&root, "[data-testid=cohort-name]").unchecked_into();
    name.set_value("ab");
    name.dispatch_event(&Event::new("input").unwrap()).unwrap();
    settle().await;
    let d = doc(app);
    assert_eq!(d["cohorts"][0]["name"], "ab");
    for s in d["shares"].as_array().unwrap() {
        assert_eq!(s["cohort"], "ab", "{s}");
    }
    one(&root, "[data-testid=add-cohort]")
        .unchecked_into::<HtmlElement>()
        .click();
    settle().await;
    assert_eq!(all(&root, "[data-testid=cohort-row]").len(), 2);
    // The new cohort may have ab as its parent; ab may not be its own.
    let rows = all(&root, "[data-testid=cohort-row]");
    choose(&one(&rows[1], "[data-testid=cohort-parent]"), "ab");
    settle().await;
    assert_eq!(doc(app)["cohorts"][1]["parent"], "ab");
    let own = all(&one(&rows[0], "[data-testid=cohort-parent]"), "option")
        .iter()
        .map(text)
        .collect::<Vec<_>>();
    assert!(!own.iter().any(|o| o == "ab"), "{own:?}");
    validate(app).await;
    assert!(app.problems.get_untracked().is_empty());
}

fn digest(text: &str) -> Arc<Digest> {
    Arc::new(quotalab_engine::run_digest(text, DigestLimits::default()).expect("valid"))
}

fn cells(row: &Element) -> Vec<String> {
    all(row, "th, td").iter().map(text).collect()
}

#[wasm_bindgen_test]
async fn the_cohort_tree_follows_the_cursor() {
    let d = digest(FAIR);
    let cursor = RwSignal::new(None::<f64>);
    let root = mount(move || {
        view! { <quotalab_app::results::RunResults digest=d cursor=cursor /> }
    });
    settle().await;
    let card = one(&root, "[data-testid=cohort-tree-card]");
    let names: Vec<String> = all(&card, "[data-testid=cohort-tree-row]")
        .iter()
        .map(|r| r.get_attribute("data-name").unwrap())
        .collect();
    assert_eq!(
        names,
        ["org", "research", "nlp", "vision", "product", "search", "ads"]
    );
    assert!(text(&one(&card, "[data-testid=cohort-tree-at]")).contains("busiest"));
    // At 0 s nothing runs yet: the root's quota is the whole organisation (32), none in use.
    cursor.set(Some(0.0));
    settle().await;
    let rows = all(&card, "[data-testid=cohort-tree-row]");
    let org = cells(&rows[0]);
    assert_eq!((org[1].as_str(), org[2].as_str()), ("32", "0"), "{org:?}");
    // Two hours in, nlp borrows beyond its 8.
    cursor.set(Some(7200.0));
    settle().await;
    let rows = all(&card, "[data-testid=cohort-tree-row]");
    let nlp = cells(&rows[2]);
    let borrowed: f64 = nlp[4].parse().unwrap();
    assert!(borrowed > 0.0, "{nlp:?}");
    assert!(text(&one(&card, "[data-testid=cohort-tree-at]")).contains("2 h 00 min"));
    // Totals per cohort, with the fair-sharing preemptions below each.
    assert_eq!(all(&card, "[data-testid=cohort-total-row]").len(), 3);
    // The summary has the Kueue causes.
    assert!(present(&root, "[data-col=fair-sharing]"));
    // Each ClusterQueue's dominant share over time, beside the tree, with the cursor.
    let chart = one(&card, "[data-testid=chart-dominant]");
    assert!(present(&chart, "canvas"));
    assert_eq!(
        all(&chart, ".legend li").len(),
        4,
        "one legend entry per ClusterQueue"
    );
}

/// Issue #34 (walk): team-c-cq lends nothing (lendingLimit 0), so cohort team-ab's quota
/// (21) leaves out its 3: the quota is marked and a note under the tree says why.
#[wasm_bindgen_test]
async fn a_cohort_quota_without_a_private_part_says_so() {
    let d = digest(THREE);
    let cursor = RwSignal::new(Some(0.0));
    let root = mount(move || {
        view! { <quotalab_app::results::RunResults digest=d cursor=cursor /> }
    });
    settle().await;
    let card = one(&root, "[data-testid=cohort-tree-card]");
    let rows = all(&card, "[data-testid=cohort-tree-row]");
    let ab = cells(&rows[0]);
    assert_eq!(ab[0], "cohort team-ab", "{ab:?}");
    assert_eq!(ab[1], "21 *", "{ab:?}");
    let note = text(&one(&card, "[data-testid=cohort-tree-at]"));
    assert!(
        note.contains("Cohort team-ab's quota leaves out the 3 ml.g5.xlarge kept private below it by lendingLimits"),
        "{note}"
    );
    // A ClusterQueue's own quota is not marked.
    assert!(
        cells(&rows[1]).iter().all(|c| !c.contains('*')),
        "{:?}",
        cells(&rows[1])
    );
}

/// The tree opens on the ResourceFlavor that carries the cluster's quota and usage, not on
/// the first one (an imported cluster's cpu-only flavor read all zeros); a flavor the reader
/// picks stays picked.
#[wasm_bindgen_test]
async fn the_cohort_tree_opens_on_the_busy_flavor() {
    let d = digest(
        r#"{"format": "quotalab/v1", "model": "kueue", "name": "two flavors",
        "instance_types": [{"name": "cpu-flavor", "gpus": 1, "usd_per_hour": 0},
                           {"name": "a100", "gpus": 1, "usd_per_hour": 0}],
        "cohorts": [{"name": "research"}],
        "shares": [{"name": "team-a-cq", "cohort": "research", "limits": {"cpu-flavor": 1, "a100": 8}}],
        "jobs": [{"id": "j1", "share": "team-a-cq", "instance_type": "a100", "instances": 8, "submit_s": 0, "work_s": 600}]}"#,
    );
    let cursor = RwSignal::new(None::<f64>);
    let root = mount(move || {
        view! { <quotalab_app::results::RunResults digest=d cursor=cursor /> }
    });
    settle().await;
    let card = one(&root, "[data-testid=cohort-tree-card]");
    let picker: web_sys::HtmlSelectElement =
        one(&card, "[data-testid=cohort-tree-type]").unchecked_into();
    let shown = |card: &Element| cells(&all(card, "[data-testid=cohort-tree-row]")[0]);
    let picked = |p: &web_sys::HtmlSelectElement| {
        p.selected_options()
            .item(0)
            .map(|o| text(&o))
            .unwrap_or_default()
    };
    assert_eq!(picked(&picker), "a100");
    assert_eq!(shown(&card)[1], "8", "{:?}", shown(&card));
    choose(&picker, "cpu-flavor");
    settle().await;
    assert_eq!(picked(&picker), "cpu-flavor");
    assert_eq!(shown(&card)[1], "1", "{:?}", shown(&card));
}

#[wasm_bindgen_test]
async fn an_aws_run_has_no_cohort_tree() {
    let d = digest(WALKTHROUGH);
    let cursor = RwSignal::new(None::<f64>);
    let root = mount(move || {
        view! { <quotalab_app::results::RunResults digest=d cursor=cursor /> }
    });
    settle().await;
    assert!(!present(&root, "[data-testid=cohort-tree-card]"));
    assert!(!present(&root, "[data-col=fair-sharing]"));
    assert!(!present(&root, "[data-testid=chart-dominant]"));
}

// SPEC 13: the Kueue model holds up to 1,000 ClusterQueues, so "+ Add share" goes past the
// AWS model's 20 (tests/browser/editor.rs pins the AWS cap), and the count names the bound.
#[wasm_bindgen_test]
async fn a_kueue_scenario_adds_shares_beyond_twenty() {
    let mut d: Value = serde_json::from_str(THREE).unwrap();
    let shares: Vec<Value> = (0..20)
        .map(|i| serde_json::json!({"name": format!("cq{i}"), "limits": {"ml.g5.xlarge": 1}}))
        .collect();
    d["shares"] = Value::Array(shares);
    d["cohorts"] = serde_json::json!([]);
    d["workloads"] = serde_json::json!([]);
    let (root, app) = mount_editor(&d.to_string());
    crate::common::settle_rows().await;
    assert_eq!(all(&root, "[data-testid=share-row]").len(), 20);
    let add: web_sys::HtmlButtonElement = one(&root, "[data-testid=add-share]").unchecked_into();
    assert!(!add.disabled(), "{}", add.title());
    add.click();
    settle().await;
    assert_eq!(doc(app)["shares"].as_array().unwrap().len(), 21);
    assert!(
        root.text_content()
            .unwrap_or_default()
            .contains("ClusterQueues21"),
        "the Kueue section counts its ClusterQueues (no AWS bound of 20): {}",
        root.text_content()
            .unwrap_or_default()
            .chars()
            .take(300)
            .collect::<String>()
    );
}

#[wasm_bindgen_test]
async fn a_share_added_in_the_kueue_model_is_a_clusterqueue_of_the_cohort() {
    let (root, app) = mount_editor(THREE);
    settle().await;
    one(&root, "[data-testid=add-share]")
        .unchecked_into::<HtmlElement>()
        .click();
    settle().await;
    let d = doc(app);
    let added = &d["shares"][3];
    assert_eq!(added["cohort"], "team-ab", "{added}");
    assert!(added.get("strategy").is_none(), "{added}");
    validate(app).await;
    assert!(
        app.problems.get_untracked().is_empty(),
        "{:?}",
        app.problems.get_untracked()
    );
    assert_eq!(all(&root, "[data-testid=share-cohort]").len(), 4);
}

// Issue #32: a scenario's priority classes (Kueue's WorkloadPriorityClasses, imported) are
// offered for each workload and job; choosing one replaces the row's own priority, and
// "none" gives the priority field back.
#[wasm_bindgen_test]
async fn imported_priority_classes_are_offered_for_workloads_and_jobs() {
    let mut d: Value = serde_json::from_str(THREE).unwrap();
    d["priority_classes"] = serde_json::json!({"high": 1000, "low": 10});
    d["workloads"][0]["priority"] = 5.into();
    d["jobs"] = serde_json::json!([{
        "id": "j1", "share": d["shares"][0]["name"], "instance_type": d["workloads"][0]["instance_type"],
        "submit_s": 0, "work_s": 60, "priority": 3
    }]);
    let (root, app) = mount_editor(&d.to_string());
    settle().await;
    let pickers = all(&root, "[data-testid=priority-class]");
    assert_eq!(pickers.len(), 4, "three workloads and one job");
    let labels: Vec<String> = all(&pickers[0], "option").iter().map(text).collect();
    assert_eq!(
        labels,
        ["none: its own priority", "high (1000)", "low (10)"]
    );

    // The job (the last picker): a class replaces its priority.
    choose(&pickers[3], "high");
    settle().await;
    let job = &doc(app)["jobs"][0];
    assert_eq!(job["priority_class"], "high");
    assert!(job.get("priority").is_none(), "{job}");
    validate(app).await;
    assert!(
        app.problems.get_untracked().is_empty(),
        "{:?}",
        app.problems.get_untracked()
    );

    // The first workload: a class, then none again.
    choose(&all(&root, "[data-testid=priority-class]")[0], "low");
    settle().await;
    assert_eq!(doc(app)["workloads"][0]["priority_class"], "low");
    assert!(doc(app)["workloads"][0].get("priority").is_none());
    choose(&all(&root, "[data-testid=priority-class]")[0], "none");
    settle().await;
    assert!(doc(app)["workloads"][0].get("priority_class").is_none());

    // Without classes, no picker.
    let (plain, _) = mount_editor(THREE);
    settle().await;
    assert!(all(&plain, "[data-testid=priority-class]").is_empty());
}

// Issue #31.4: a preemptor's waits for its victims, and the waits whose freed quota another
// workload took first, per ClusterQueue in the summary (the engine's counts, SPEC 12.1).
#[wasm_bindgen_test]
async fn the_summary_counts_preemptor_waits_and_quota_taken() {
    let d = digest(FAIR);
    let waited: u64 = d.shares.iter().map(|s| s.preemptor_waits).sum();
    assert!(
        waited > 0,
        "the fair-sharing preset's preemptors wait (grace 120 s)"
    );
    assert_eq!(d.totals.preemptor_waits, waited);
    let shown = d.clone();
    let root = mount(move || {
        view! { <quotalab_app::results::summary::SummaryTable digest=shown.clone() /> }
    });
    settle().await;
    let header = text(&one(&root, "table.summary thead"));
    assert!(header.contains("waits (taken)"), "{header}");
    for (row, s) in all(&root, "[data-testid=summary-row]")
        .iter()
        .zip(&d.shares)
    {
        let cell = text(&one(row, "[data-col=preemptor-waits]"));
        let want = match s.quota_taken_while_waiting {
            0 => s.preemptor_waits.to_string(),
            n => format!("{} ({n} taken)", s.preemptor_waits),
        };
        assert_eq!(cell, want, "{}", s.name);
    }
}

// SPEC 12.1: an instant whose Kueue cycles never settle is named above the summary, as
// `quotasim run --summary` names it (the fixture of oracle/kueue/testdata/unsettled/).
#[wasm_bindgen_test]
async fn instants_kueue_never_settles_are_said_above_the_summary() {
    let scenario = include_str!("../../oracle/kueue/testdata/unsettled/random-1-9-jobs-20-60.json");
    let app = quotalab_app::state::AppState::new(scenario.to_string());
    let root = mount(move || {
        provide_context(app);
        view! { <quotalab_app::results::ResultsPanel /> }
    });
    validate(app).await;
    assert!(one(&root, "[data-testid=summary-table]").is_connected());
    let note = text(&one(&root, "[data-testid=run-notes]"));
    assert!(
        note.starts_with("Never settled: at 12 instants (t=113 s, t=148 s, t=149 s, ...) Kueue's scheduling cycles"),
        "{note}"
    );
}
