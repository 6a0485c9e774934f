//! The interruption contract (SPEC 14) in the page: the cards of the results
//! (`src/results/contract.rs`) and the editor's fields (`src/editor/contract.rs`).

use std::sync::Arc;

use crate::common::{all, choose, doc, mount, mount_editor, one, settle, sleep_ms, text, validate};
use leptos::prelude::*;
use quotalab_app::results::contract::ContractCards;
use quotalab_app::state::AppState;
use quotalab_engine::digest::{Digest, DigestLimits};
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlTextAreaElement};

/// b borrows, is reclaimed, and its restore fails (a golden of the engine).
const RESTORE_FAILURE: &str =
    include_str!("../../crates/engine/tests/golden/contract-restore-failure.json");
const WALKTHROUGH: &str = include_str!("../../www/presets/aws-walkthrough.json");

const MARKUP: [&str; 2] = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"];

fn digest(text: &str) -> Arc<Digest> {
    Arc::new(quotalab_engine::run_digest(text, DigestLimits::default()).expect("valid"))
}

/// The cards of `text`'s run, with a page state whose result is current (so the forecast
/// runs).
async fn cards(text: &str) -> HtmlElement {
    let app = AppState::new(text.to_string());
    app.stale.set(false);
    let d = digest(text);
    let root = mount(move || {
        provide_context(app);
        view! { <ContractCards digest=d /> }
    });
    settle().await;
    sleep_ms(30).await;
    settle().await;
    root
}

fn card(root: &Element, share: &str) -> Element {
    one(
        root,
        &format!("[data-testid=contract-card][data-share='{share}']"),
    )
}

/// The value of the row labelled `label` of question `q` in `card`.
fn answer(card: &Element, q: &str, label: &str) -> String {
    let dl = one(card, &format!("[data-question={q}] dl"));
    let dts = all(&dl, "dt");
    let i = dts
        .iter()
        .position(|d| text(d) == label)
        .unwrap_or_else(|| panic!("no row {label} in {q}"));
    text(&all(&dl, "dd")[i])
}

#[wasm_bindgen_test]
async fn the_card_answers_the_four_questions_with_the_run_s_numbers() {
    let root = cards(RESTORE_FAILURE).await;
    assert_eq!(all(&root, "[data-testid=contract-card]").len(), 2);
    let b = card(&root, "b");
    let titles: Vec<String> = all(&b, "h4").iter().map(text).collect();
    assert_eq!(
        titles,
        [
            "Can it recover?",
            "Who answers for a failure?",
            "Does the forecast assume continuous access?",
            "What happens on repeated yields?"
        ]
    );
    assert_eq!(answer(&b, "recover", "Restores"), "1 restore, 1 failed");
    assert_eq!(
        answer(&b, "recover", "Recomputed"),
        "0.07 h recomputed, 0.01 h restarting"
    );
    assert_eq!(
        answer(&b, "responsible", "Owner"),
        "no agreement: nobody is named"
    );
    assert_eq!(b.get_attribute("data-forecast").as_deref(), Some("ready"));
    assert_eq!(
        answer(&b, "forecast", "Completion p90"),
        "no job finished on its allocation alone, 25 min as given"
    );
    assert!(answer(&b, "forecast", "On borrowed capacity").ends_with("on borrowed capacity"));
    assert_eq!(answer(&b, "repeated-yields", "Alarms"), "no alarm");
    let bad = one(&b, "[data-question=recover] .verdict");
    assert!(bad.class_list().contains("tone-bad"));
    assert!(
        text(&bad).starts_with("Recovery is not free"),
        "{}",
        text(&bad)
    );
}

#[wasm_bindgen_test]
async fn the_forecast_waits_for_a_current_result() {
    // Without a page state (or with a stale result) the forecast is not simulated.
    let d = digest(RESTORE_FAILURE);
    let root = mount(move || view! { <ContractCards digest=d /> });
    settle().await;
    sleep_ms(30).await;
    let b = card(&root, "b");
    assert_eq!(b.get_attribute("data-forecast").as_deref(), Some("pending"));
    assert_eq!(
        answer(&b, "forecast", "On its allocation alone"),
        "forecast…"
    );
}

#[wasm_bindgen_test]
async fn the_results_show_the_cards_only_for_a_contract_scenario() {
    for (text, shown) in [(RESTORE_FAILURE, true), (WALKTHROUGH, false)] {
        let d = digest(text);
        let cursor = RwSignal::new(None::<f64>);
        let root = mount(move || {
            view! { <quotalab_app::results::RunResults digest=d cursor=cursor /> }
        });
        settle().await;
        assert_eq!(
            all(&root, "[data-testid=contract-view]").len(),
            usize::from(shown)
        );
        root.remove();
    }
}

fn with_agreement(agreement: Value) -> String {
    let mut v: Value = serde_json::from_str(RESTORE_FAILURE).unwrap();
    v["shares"][1]["agreement"] = agreement;
    serde_json::to_string_pretty(&v).unwrap()
}

#[wasm_bindgen_test]
async fn agreement_markup_is_shown_as_text() {
    for m in MARKUP {
        let text_ = with_agreement(json!({
            "owner": m, "rationale": m, "interruption_contract": m, "review_by": m
        }));
        let root = cards(&text_).await;
        assert!(
            all(&root, "script, img").is_empty(),
            "no element made of {m}"
        );
        let b = card(&root, "b");
        let dds: Vec<String> = all(&one(&b, "dl.agreement"), "dd")
            .iter()
            .map(text)
            .collect();
        assert_eq!(dds, [m; 4]);
        assert_eq!(answer(&b, "responsible", "Owner"), m.to_string());
        root.remove();

        // The editor shows it as the textareas' values.
        let (root, _) = mount_editor(&text_);
        settle().await;
        let share = all(&root, "[data-testid=share-row]").remove(1);
        let areas = all(&share, "[data-testid=agreement-text]");
        assert_eq!(areas.len(), 4);
        for a in areas {
            assert_eq!(a.unchecked_into::<HtmlTextAreaElement>().value(), m);
        }
        assert!(all(&root, "script, img").is_empty());
        root.remove();
    }
}

/// The `.field` under `root` whose label reads `label`.
fn field(root: &Element, label: &str) -> Element {
    all(root, ".field")
        .into_iter()
        .find(|f| {
            f.query_selector(":scope > label")
                .unwrap()
                .is_some_and(|l| text(&l) == label)
        })
        .unwrap_or_else(|| panic!("no field labelled {label:?}"))
}

/// The value in `field`'s input.
fn value_of(field: &Element) -> String {
    one(field, "input")
        .unchecked_into::<HtmlInputElement>()
        .value()
}

fn type_into(field: &Element, value: &str) {
    let el = field.query_selector("input, textarea").unwrap().unwrap();
    if let Some(i) = el.dyn_ref::<HtmlInputElement>() {
        i.set_value(value);
    } else {
        el.unchecked_ref::<HtmlTextAreaElement>().set_value(value);
    }
    // As typing does: the event bubbles (the contract's groups tidy up on the way).
    let ev: Event = js_sys::eval("new Event('input', {bubbles: true})")
        .unwrap()
        .unchecked_into();
    el.dispatch_event(&ev).unwrap();
}

fn errors_in(el: &Element) -> Vec<String> {
    all(el, "[data-testid=field-error]")
        .iter()
        .map(text)
        .collect()
}

#[wasm_bindgen_test]
async fn a_new_text_with_an_agreement_opens_its_group() {
    // As a preset or a link replaces the scenario: the rows stay, their values change.
    let (root, app) = mount_editor(WALKTHROUGH);
    validate(app).await;
    let ag = || {
        one(
            &all(&root, "[data-testid=share-row]")[1],
            "[data-testid=agreement-fields]",
        )
    };
    assert!(!ag().has_attribute("open"));
    let mut v: Value = serde_json::from_str(WALKTHROUGH).unwrap();
    v["shares"][1]["agreement"] = json!({"owner": "Team B lead"});
    app.scenario.set(serde_json::to_string_pretty(&v).unwrap());
    settle().await;
    assert!(ag().has_attribute("open"), "an agreement opens its group");
    root.remove();
}

#[wasm_bindgen_test]
async fn editor_fields_write_the_scenario_and_show_the_engine_s_messages() {
    let (root, app) = mount_editor(RESTORE_FAILURE);
    validate(app).await;
    let job = one(&root, "[data-testid=job-row]");
    let group = one(&job, "[data-testid=contract-fields]");
    // b1 has a recovery block: its group starts open.
    assert!(group.has_attribute("open"));
    let rf = field(&group, "Restore failure (0–1)");
    assert_eq!(value_of(&rf), "1");
    type_into(&rf, "1.5");
    assert_eq!(
        doc(app)["jobs"][0]["recovery"]["restore_failure"],
        json!(1.5)
    );
    validate(app).await;
    let errors = errors_in(&rf);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains('1'), "{errors:?}");
    // Cleared: the emptied recovery block goes too.
    type_into(&rf, "");
    assert_eq!(doc(app)["jobs"][0].get("recovery"), None);
    validate(app).await;
    assert!(errors_in(&group).is_empty());

    // An escalation needs a deadline: the engine says so beside the group.
    type_into(&field(&group, "Escalate before deadline (s)"), "600");
    type_into(&field(&group, "Escalate to priority"), "9");
    assert_eq!(
        doc(app)["jobs"][0]["escalate"],
        json!({"before_deadline_s": 600, "to_priority": 9})
    );
    validate(app).await;
    let errors = errors_in(&group);
    assert!(errors.iter().any(|e| e.contains("deadline")), "{errors:?}");

    // Resubmission to another share.
    choose(&one(&group, "[data-testid=retries-exhausted]"), "resubmit");
    settle().await;
    assert_eq!(
        doc(app)["jobs"][0]["on_retries_exhausted"],
        json!({"resubmit": {"share": "a"}})
    );
    type_into(&field(&group, "With priority"), "7");
    assert_eq!(
        doc(app)["jobs"][0]["on_retries_exhausted"]["resubmit"]["priority"],
        json!(7)
    );
    choose(&one(&group, "[data-testid=retries-exhausted]"), "fail");
    settle().await;
    assert_eq!(doc(app)["jobs"][0].get("on_retries_exhausted"), None);

    // A share's agreement: typed, too long, cleared.
    let share = all(&root, "[data-testid=share-row]").remove(1);
    let ag = one(&share, "[data-testid=agreement-fields]");
    assert!(!ag.has_attribute("open"), "folded without an agreement");
    // A folded group's fields are built when it opens (issue #30): a click on its title.
    assert!(
        all(&ag, "input, textarea").is_empty(),
        "nothing built while folded"
    );
    one(&ag, "summary").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert!(ag.has_attribute("open"));
    type_into(&field(&ag, "Owner"), "Team B lead");
    assert_eq!(
        doc(app)["shares"][1]["agreement"],
        json!({"owner": "Team B lead"})
    );
    type_into(&field(&ag, "Rationale"), &"x".repeat(2001));
    validate(app).await;
    assert!(ag.has_attribute("open"));
    let errors = errors_in(&field(&ag, "Rationale"));
    assert!(errors.iter().any(|e| e.contains("2000")), "{errors:?}");
    type_into(&field(&ag, "Rationale"), "");
    type_into(&field(&ag, "Owner"), "");
    assert_eq!(doc(app)["shares"][1].get("agreement"), None);

    settle().await;

    // The scenario's alarms.
    let on = one(&root, "[data-testid=alarms-on]");
    on.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert_eq!(doc(app)["alarms"], json!({}));
    let k = one(&root, "[data-testid=alarms-k]")
        .parent_element()
        .unwrap();
    type_into(&k, "0");
    assert_eq!(doc(app)["alarms"], json!({"repeated_preemptions": 0}));
    validate(app).await;
    assert_eq!(errors_in(&k).len(), 1);
    // Undo gives the last good value back (the text is the single source of truth).
    app.history.seal();
    app.history.undo(app.scenario);
    settle().await;
    assert_eq!(doc(app)["alarms"], json!({}));
}

/// A large scenario keeps its jobs as text (`editor::lazy`): a job with an interruption
/// contract still opens its group, and its fields show the job's own values.
#[wasm_bindgen_test]
async fn a_large_scenario_s_job_with_a_contract_opens_its_group() {
    let mut v: Value = serde_json::from_str(RESTORE_FAILURE).unwrap();
    let filler: Vec<Value> = (0..9_000)
        .map(|i| json!({"id": format!("f{i}"), "share": "a", "instance_type": "ml.g5.xlarge", "submit_s": 1000 + i, "work_s": 60}))
        .collect();
    v["jobs"].as_array_mut().unwrap().extend(filler);
    let text = serde_json::to_string_pretty(&v).unwrap();
    assert!(text.len() >= quotalab_engine_worker::kept::LAZY_BYTES);
    let (root, _app) = mount_editor(&text);
    crate::common::settle_rows().await;
    let rows = all(&root, "[data-testid=job-row]");
    let group = one(&rows[0], "[data-testid=contract-fields]");
    assert!(group.has_attribute("open"), "b1 has a recovery block");
    let rf = field(&group, "Restore failure (0–1)");
    assert_eq!(value_of(&rf), "1");
    // a1 has none: folded, nothing built.
    let other = one(&rows[1], "[data-testid=contract-fields]");
    assert!(!other.has_attribute("open"));
    assert!(all(&other, "input").is_empty());
    root.remove();
}
