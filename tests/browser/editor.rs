//! Component tests of the scenario editor in headless Chromium (wasm-bindgen-test):
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --test browser editor::`

use crate::common::{
    all, choose, doc, mount, mount_editor, one, settle, settle_rows, sleep_ms, text, validate,
};
use leptos::prelude::*;
use quotalab_app::editor::glossary::Glossary;
use quotalab_app::state::AppState;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    Element, Event, HtmlButtonElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
    HtmlTextAreaElement,
};

const WALKTHROUGH: &str = include_str!("../../www/presets/aws-walkthrough.json");

/// The `.field` in `root` whose label reads `label`.
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

fn input_of(field: &Element) -> HtmlInputElement {
    one(field, "input").unchecked_into()
}

fn type_into(input: &HtmlInputElement, value: &str) {
    input.set_value(value);
    input.dispatch_event(&Event::new("input").unwrap()).unwrap();
}

fn click(el: &Element) {
    el.clone().unchecked_into::<HtmlElement>().click();
}

fn textarea(root: &Element) -> HtmlTextAreaElement {
    one(root, "[data-testid=json-editor]").unchecked_into()
}

/// Every input, select and textarea has a `<label for>` with some text.
fn assert_every_control_is_labelled(root: &Element) {
    let controls = all(root, "input, select, textarea");
    assert!(!controls.is_empty());
    for el in controls {
        let id = el.id();
        assert!(
            !id.is_empty(),
            "a control without an id: {}",
            el.outer_html()
        );
        let label = root
            .query_selector(&format!("label[for='{id}']"))
            .unwrap()
            .unwrap_or_else(|| panic!("no label for {}", el.outer_html()));
        assert!(
            !text(&label).is_empty(),
            "an empty label for {}",
            el.outer_html()
        );
    }
}

fn errors_in(el: &Element) -> Vec<String> {
    all(el, "[data-testid=field-error]")
        .iter()
        .map(text)
        .collect()
}

#[wasm_bindgen_test]
async fn every_share_has_a_row_with_its_values() {
    let (root, _) = mount_editor(WALKTHROUGH);
    settle().await;
    let rows = all(&root, "[data-testid=share-row]");
    assert_eq!(rows.len(), 3);
    let names: Vec<String> = rows
        .iter()
        .map(|r| input_of(&field(r, "Share name")).value())
        .collect();
    assert_eq!(names, ["background", "medium", "protected"]);
    let strategies: Vec<String> = rows
        .iter()
        .map(|r| {
            let s: HtmlSelectElement = one(r, "[data-testid=share-strategy]").unchecked_into();
            s.selected_options()
                .item(0)
                .unwrap()
                .text_content()
                .unwrap()
        })
        .collect();
    assert_eq!(strategies, ["LEND_AND_BORROW", "LEND", "RESERVE"]);
    let inshare: Vec<bool> = rows
        .iter()
        .map(|r| {
            one(r, "[data-testid=share-inshare]")
                .unchecked_into::<HtmlInputElement>()
                .checked()
        })
        .collect();
    assert_eq!(inshare, [true, false, false]);
    assert_every_control_is_labelled(&root);
    assert_eq!(all(&root, "[data-testid=field-error]").len(), 0);
}

#[wasm_bindgen_test]
async fn editing_a_share_strategy_through_the_form_changes_the_json_text() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let row = all(&root, "[data-testid=share-row]").remove(0);
    choose(&one(&row, "[data-testid=share-strategy]"), "RESERVE");
    settle().await;

    let d = doc(app);
    assert_eq!(d["shares"][0]["strategy"], "RESERVE");
    // RESERVE may not have a borrow limit: the form sets it aside...
    assert!(d["shares"][0].get("borrow_limit").is_none());
    // ...the rest of the document is unchanged, keys in their order...
    let keys: Vec<&String> = d["shares"][0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["name", "limits", "strategy", "in_share_preemption"]);
    assert_eq!(d["jobs"], doc_of(WALKTHROUGH)["jobs"]);
    // ...and the raw editor shows the new text.
    assert_eq!(textarea(&root).value(), app.scenario.get_untracked());
    assert!(textarea(&root)
        .value()
        .contains("\"strategy\": \"RESERVE\""));
    let borrow: HtmlInputElement = one(&row, "[data-testid=share-borrow-limit]").unchecked_into();
    assert!(borrow.disabled(), "RESERVE shares do not borrow");

    validate(app).await;
    assert!(
        app.problems.get_untracked().is_empty(),
        "{:?}",
        app.problems.get_untracked()
    );

    // Back to LEND_AND_BORROW: the borrow limit set aside comes back.
    choose(
        &one(&row, "[data-testid=share-strategy]"),
        "LEND_AND_BORROW",
    );
    settle().await;
    assert_eq!(doc(app)["shares"][0]["borrow_limit"], 200);
    assert!(!borrow.disabled());
}

fn doc_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[wasm_bindgen_test]
async fn adding_a_share_adds_a_row_and_a_valid_share() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    click(&one(&root, "[data-testid=add-share]"));
    settle().await;
    assert_eq!(all(&root, "[data-testid=share-row]").len(), 4);
    let d = doc(app);
    let share = &d["shares"][3];
    assert_eq!(share["name"], "share-1");
    assert_eq!(share["limits"], json!({"ml.g5.xlarge": 1}));
    assert_eq!(share["strategy"], "LEND_AND_BORROW");
    validate(app).await;
    assert!(
        app.problems.get_untracked().is_empty(),
        "{:?}",
        app.problems.get_untracked()
    );
    let row = all(&root, "[data-testid=share-row]").remove(3);
    assert_eq!(input_of(&field(&row, "Share name")).value(), "share-1");

    // Reorder: the new share moves up, then is removed.
    let up = all(&row, ".row-actions button").remove(0);
    click(&up);
    settle().await;
    let names: Vec<Value> = doc(app)["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    assert_eq!(
        names,
        [
            json!("background"),
            json!("medium"),
            json!("share-1"),
            json!("protected")
        ]
    );
    let row = all(&root, "[data-testid=share-row]").remove(2);
    click(&all(&row, ".row-actions button").remove(2));
    settle().await;
    assert_eq!(all(&root, "[data-testid=share-row]").len(), 3);
    assert_eq!(doc(app)["shares"], doc_of(WALKTHROUGH)["shares"]);
}

#[wasm_bindgen_test]
async fn at_most_twenty_shares() {
    let mut d = doc_of(WALKTHROUGH);
    let shares: Vec<Value> = (0..20)
        .map(
            |i| json!({"name": format!("s{i}"), "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND"}),
        )
        .collect();
    d["shares"] = json!(shares);
    d["jobs"] = json!([]);
    d["events"] = json!([]);
    let (root, app) = mount_editor(&d.to_string());
    // None in the task that shows the form, a few per task after (issue #30).
    assert_eq!(all(&root, "[data-testid=share-row]").len(), 0);
    settle_rows().await;
    assert_eq!(all(&root, "[data-testid=share-row]").len(), 20);
    let add: HtmlButtonElement = one(&root, "[data-testid=add-share]").unchecked_into();
    assert!(add.disabled());
    assert!(add.title().contains("20"), "{}", add.title());
    add.click();
    settle().await;
    assert_eq!(doc(app)["shares"].as_array().unwrap().len(), 20);
}

#[wasm_bindgen_test]
async fn a_list_that_grows_by_many_rows_builds_them_a_few_per_task() {
    // Issue #30: opening a scenario with many shares or jobs builds no row in the task that
    // opens it (that task already replaces the form), then rows while each later task is
    // under its budget (at least one a task), so no task holds the page for long; the row a
    // person adds is built in the task that adds it.
    use quotalab_app::editor::rows::{set_task_budget_ms, TASK_BUDGET_MS};
    let mut d = doc_of(WALKTHROUGH);
    d["jobs"] = json!([]);
    d["events"] = json!([]);
    let small = d.to_string();
    let shares: Vec<Value> = (0..20)
        .map(
            |i| json!({"name": format!("s{i}"), "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND"}),
        )
        .collect();
    d["shares"] = json!(shares);
    let large = d.to_string();
    let (root, app) = mount_editor(&small);
    settle().await;
    let before = all(&root, "[data-testid=share-row]").len();
    assert_eq!(before, 3);
    let rows = || all(&root, "[data-testid=share-row]").len();
    let one_task = || async {
        sleep_ms(0).await;
        for _ in 0..6 {
            leptos::task::tick().await;
        }
    };
    // No time to spare: one row a task.
    set_task_budget_ms(0.0);
    app.scenario.set(large.clone());
    // The reactive flush, no timer yet: no new row.
    for _ in 0..6 {
        leptos::task::tick().await;
    }
    assert_eq!(rows(), before);
    one_task().await;
    assert_eq!(rows(), before + 1);
    one_task().await;
    assert_eq!(rows(), before + 2);
    // Time to spare: the rest in the next task.
    set_task_budget_ms(60_000.0);
    one_task().await;
    assert_eq!(rows(), 20);
    set_task_budget_ms(TASK_BUDGET_MS);
    // Each row shows its own share.
    let last = all(&root, "[data-testid=share-row]")[19].clone();
    let name: web_sys::HtmlInputElement = last
        .query_selector("input")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(name.value(), "s19");
    // A shrink is at once.
    app.scenario.set(small.clone());
    settle().await;
    assert_eq!(all(&root, "[data-testid=share-row]").len(), 3);
    // With the page's own budget, a growth is built whole too.
    app.scenario.set(large);
    settle_rows().await;
    assert_eq!(rows(), 20);
    // A growth by one (a share removed, then the removal undone) in the task that makes it.
    app.scenario.set(small.clone());
    settle().await;
    let mut d: Value = serde_json::from_str(&small).unwrap();
    let s = json!({"name": "added", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND"});
    d["shares"].as_array_mut().unwrap().push(s);
    app.scenario.set(d.to_string());
    for _ in 0..6 {
        leptos::task::tick().await;
    }
    assert_eq!(rows(), 4);
}

#[wasm_bindgen_test]
async fn borrow_limit_shows_instances() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let row = all(&root, "[data-testid=share-row]").remove(0);
    let hint = one(&row, "[data-testid=borrow-instances]");
    assert_eq!(text(&hint), "200% = 2 instances");

    let input: HtmlInputElement = one(&row, "[data-testid=share-borrow-limit]").unchecked_into();
    type_into(&input, "350");
    settle().await;
    assert_eq!(doc(app)["shares"][0]["borrow_limit"], 350);
    assert_eq!(text(&hint), "350% = 3 instances (rounded down)");

    // The limit is per type: 3 instances at 150% may borrow 4.
    let limit = input_of(&field(&row, "instances"));
    type_into(&limit, "3");
    type_into(&input, "150");
    settle().await;
    assert_eq!(text(&hint), "150% = 4 instances (rounded down)");

    type_into(&input, "-1");
    settle().await;
    assert!(text(&hint).contains("unlimited"), "{}", text(&hint));
    // Blank = the default (unlimited): the key goes away.
    type_into(&input, "");
    settle().await;
    assert!(doc(app)["shares"][0].get("borrow_limit").is_none());
    assert!(text(&hint).contains("unlimited"));
}

#[wasm_bindgen_test]
async fn a_bad_job_priority_is_flagged_beside_its_field() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let job = all(&root, "[data-testid=job-row]").remove(0);
    let priority = field(&job, "Priority");
    type_into(&input_of(&priority), "10000");
    validate(app).await;

    assert_eq!(doc(app)["jobs"][0]["priority"], 10000);
    let problems = app.problems.get_untracked();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path, "jobs[0].priority");
    assert!(
        problems[0].message.contains("9999"),
        "{}",
        problems[0].message
    );
    // Beside the field, in the field's own words: what to type.
    assert_eq!(
        errors_in(&priority),
        ["Priority: type a whole number from 0 to 9999"]
    );
    assert_eq!(
        input_of(&priority).get_attribute("aria-invalid").as_deref(),
        Some("true")
    );
    // Only there: no other field, and nothing listed at the top.
    assert_eq!(all(&root, "[data-testid=field-error]").len(), 1);
    assert!(root
        .query_selector("[data-testid=editor-problems]")
        .unwrap()
        .is_none());

    // Fixed: the error goes.
    type_into(&input_of(&priority), "9999");
    validate(app).await;
    assert!(errors_in(&priority).is_empty());
    assert_eq!(input_of(&priority).get_attribute("aria-invalid"), None);
}

#[wasm_bindgen_test]
async fn a_negative_borrow_limit_is_flagged_with_the_validators_message() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let row = all(&root, "[data-testid=share-row]").remove(0);
    let input: HtmlInputElement = one(&row, "[data-testid=share-borrow-limit]").unchecked_into();
    type_into(&input, "-5");
    validate(app).await;
    let problems = app.problems.get_untracked();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path, "shares[0].borrow_limit");
    let f = input.closest(".field").unwrap().unwrap();
    assert_eq!(
        errors_in(&f),
        ["Borrow limit: type a whole number 0 or more, or -1 for no limit"]
    );
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
    // The section says so too.
    assert!(all(&root, ".ed-section .badge-error")
        .iter()
        .any(|b| text(b) == "1 problem"));

    // Text that is not a number is written as is and flagged by the validator.
    type_into(&input, "lots");
    validate(app).await;
    assert_eq!(doc(app)["shares"][0]["borrow_limit"], "lots");
    assert_eq!(input.value(), "lots");
    assert_eq!(errors_in(&f).len(), 1);
    assert!(
        errors_in(&f)[0].contains("whole number") && !errors_in(&f)[0].contains("string"),
        "{:?}",
        errors_in(&f)
    );
}

#[wasm_bindgen_test]
async fn problems_without_a_field_are_listed_at_the_top() {
    let mut d = doc_of(WALKTHROUGH);
    d["format"] = json!("quotalab/v9");
    let (root, app) = mount_editor(&d.to_string());
    validate(app).await;
    assert_eq!(app.problems.get_untracked().len(), 1);
    let top = one(&root, "[data-testid=editor-problems]");
    assert!(text(&top).contains("Format: must be"), "{}", text(&top));
    assert_eq!(all(&root, "[data-testid=field-error]").len(), 0);
}

#[wasm_bindgen_test]
async fn the_raw_editor_and_the_forms_stay_in_sync() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let area = textarea(&root);
    assert_eq!(area.value(), WALKTHROUGH);

    // Raw -> forms.
    let edited = WALKTHROUGH.replace("\"medium\"", "\"research\"");
    area.set_value(&edited);
    area.dispatch_event(&Event::new("input").unwrap()).unwrap();
    settle().await;
    assert_eq!(app.scenario.get_untracked(), edited);
    let row = all(&root, "[data-testid=share-row]").remove(1);
    assert_eq!(input_of(&field(&row, "Share name")).value(), "research");

    // Forms -> raw; a renamed share's jobs follow it.
    type_into(&input_of(&field(&row, "Share name")), "team-b");
    settle().await;
    assert!(area.value().contains("\"name\": \"team-b\""));
    assert_eq!(doc(app)["jobs"][3]["share"], "team-b");
    assert_eq!(area.value(), app.scenario.get_untracked());

    // Text that is not JSON: a notice; the forms keep the last good values, read-only.
    area.set_value("{\"format\": ");
    area.dispatch_event(&Event::new("input").unwrap()).unwrap();
    settle().await;
    assert!(text(&one(&root, "[data-testid=json-notice]")).contains("not valid"));
    let forms = one(&root, "fieldset.forms");
    assert!(forms.has_attribute("disabled"));
    assert_eq!(input_of(&field(&row, "Share name")).value(), "team-b");
    assert_eq!(
        area.value(),
        "{\"format\": ",
        "the raw text is left as typed"
    );

    // Fixed: the forms are live again and show the new text.
    area.set_value(&WALKTHROUGH.replace("\"protected\"", "\"prod\""));
    area.dispatch_event(&Event::new("input").unwrap()).unwrap();
    settle().await;
    assert!(root
        .query_selector("[data-testid=json-notice]")
        .unwrap()
        .is_none());
    assert!(!one(&root, "fieldset.forms").has_attribute("disabled"));
    let row = all(&root, "[data-testid=share-row]").remove(2);
    assert_eq!(input_of(&field(&row, "Share name")).value(), "prod");
}

#[wasm_bindgen_test]
async fn the_raw_editor_keeps_what_is_typed() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let area = textarea(&root);
    // Same JSON, other formatting: the text is kept exactly (and the cursor with it).
    let compact = doc_of(WALKTHROUGH).to_string();
    area.set_value(&compact);
    area.set_selection_start(Some(10)).unwrap();
    area.set_selection_end(Some(10)).unwrap();
    area.dispatch_event(&Event::new("input").unwrap()).unwrap();
    settle().await;
    assert_eq!(area.value(), compact);
    assert_eq!(area.selection_start().unwrap(), Some(10));
    assert_eq!(app.scenario.get_untracked(), compact);
}

#[wasm_bindgen_test]
async fn workloads_take_numbers_or_distributions() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    click(&one(&root, "[data-testid=add-workload]"));
    settle().await;
    let rows = all(&root, "[data-testid=workload-row]");
    assert_eq!(rows.len(), 1);
    let w = &rows[0];
    assert_eq!(doc(app)["workloads"][0]["share"], "background");

    // Work: a fixed number, then a lognormal distribution.
    let work = all(w, "fieldset.dist")
        .into_iter()
        .find(|f| text(&one(f, "legend")) == "Work")
        .unwrap();
    choose(&one(&work, "select"), "lognormal");
    settle().await;
    assert_eq!(
        doc(app)["workloads"][0]["work_s"],
        json!({"lognormal": {"median": 1800, "sigma": 1.0}})
    );
    type_into(&input_of(&field(&work, "sigma σ")), "0.5");
    settle().await;
    assert_eq!(
        doc(app)["workloads"][0]["work_s"]["lognormal"]["sigma"],
        0.5
    );
    // The kind's select follows the text: a kind typed in the raw editor, one it does not
    // know (shown as such), then a known one again; the same row throughout.
    let kind_shown = || {
        let select: web_sys::HtmlSelectElement = one(&work, "select").dyn_into().unwrap();
        let option = select.selected_options().item(0).map(|o| text(&o));
        (select.value(), option.unwrap_or_default())
    };
    assert_eq!(kind_shown().0, "lognormal");
    let area = textarea(&root);
    for (work_s, shown) in [
        (r#"{"uniform": {"min": 60, "max": 120}}"#, Some("uniform")),
        (r#"{"gamma": {"k": 2}}"#, None),
        ("900", Some("fixed")),
        (
            r#"{"lognormal": {"median": 1800, "sigma": 0.5}}"#,
            Some("lognormal"),
        ),
    ] {
        let mut d = doc(app);
        d["workloads"][0]["work_s"] = serde_json::from_str(work_s).unwrap();
        area.set_value(&serde_json::to_string_pretty(&d).unwrap());
        area.dispatch_event(&Event::new("input").unwrap()).unwrap();
        settle().await;
        let (value, option) = kind_shown();
        match shown {
            Some(kind) => assert_eq!(value, kind, "{work_s}: the select shows {option:?}"),
            None => assert_eq!(
                option, "(not valid)",
                "{work_s}: the select shows {value:?}"
            ),
        }
    }
    assert_eq!(all(&root, "[data-testid=workload-row]").len(), 1);

    // Arrival: listed times.
    let arrival = one(w, "fieldset.arrival");
    choose(&one(&arrival, "select"), "listed times");
    settle().await;
    type_into(
        &input_of(&field(&arrival, "at times (s, comma-separated)")),
        "0, 30, 90",
    );
    settle().await;
    assert_eq!(
        doc(app)["workloads"][0]["arrival"],
        json!({"at_s": [0, 30, 90]})
    );
    // count must then match the list (or be omitted): blank removes it.
    type_into(&input_of(&field(w, "Jobs")), "");
    // Checkpoints on.
    let cp = all(w, "fieldset.checkpoint input[type=checkbox]").remove(0);
    click(&cp);
    settle().await;
    assert_eq!(
        doc(app)["workloads"][0]["checkpoint"],
        json!({"interval_s": 1800, "cost_s": 60, "restore_s": 120})
    );
    validate(app).await;
    assert!(
        app.problems.get_untracked().is_empty(),
        "{:?}",
        app.problems.get_untracked()
    );

    // A bad sigma is flagged beside the sigma input.
    type_into(&input_of(&field(&work, "sigma σ")), "-2");
    validate(app).await;
    assert_eq!(
        errors_in(&field(&work, "sigma σ")),
        ["sigma σ: type a number 0 or more"]
    );

    // Priority as a weighted choice, with a second value.
    let priority = all(w, "fieldset.dist")
        .into_iter()
        .find(|f| text(&one(f, "legend")) == "Priority (0–9999)")
        .unwrap();
    choose(&one(&priority, "select"), "choice");
    settle().await;
    let add = all(&priority, "button")
        .into_iter()
        .find(|b| text(b) == "+ value")
        .unwrap();
    click(&add);
    settle().await;
    type_into(&input_of(&field(&priority, "value 2")), "5");
    type_into(&input_of(&field(&priority, "weight")), "3");
    settle().await;
    assert_eq!(
        doc(app)["workloads"][0]["priority"],
        json!({"choice": [[0, 3], [5, 1]]})
    );
    assert_every_control_is_labelled(&root);
}

#[wasm_bindgen_test]
async fn timed_events_are_edited_as_forms() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let rows = all(&root, "[data-testid=timed-event-row]");
    assert_eq!(rows.len(), 1);
    assert_eq!(input_of(&field(&rows[0], "Job id")).value(), "bg-p1");
    assert_eq!(input_of(&field(&rows[0], "New priority")).value(), "4");

    click(&one(&root, "[data-testid=add-event]"));
    settle().await;
    let row = all(&root, "[data-testid=timed-event-row]").remove(1);
    choose(
        &one(&field(&row, "What happens"), "select"),
        "update a share",
    );
    settle().await;
    let d = doc(app);
    assert_eq!(d["events"][1]["update_share"]["share"], "background");
    assert!(d["events"][1].get("set_priority").is_none());
    let keys: Vec<&String> = d["events"][1].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["at_s", "update_share"]);
    let row = all(&root, "[data-testid=timed-event-row]").remove(1);
    choose(&one(&field(&row, "Share"), "select"), "medium");
    choose(&one(&field(&row, "Strategy"), "select"), "unchanged");
    choose(&one(&field(&row, "State"), "select"), "DISABLED");
    settle().await;
    assert_eq!(
        doc(app)["events"][1]["update_share"],
        json!({"share": "medium", "state": "DISABLED"})
    );
    // New limits for the share at that time.
    let limits = all(&row, "input[type=checkbox]").remove(0);
    click(&limits);
    settle().await;
    let row = all(&root, "[data-testid=timed-event-row]").remove(1);
    type_into(&input_of(&field(&row, "instances")), "3");
    settle().await;
    assert_eq!(
        doc(app)["events"][1]["update_share"]["limits"],
        json!({"ml.g5.xlarge": 3})
    );
    assert_every_control_is_labelled(&root);
    validate(app).await;
    assert!(
        app.problems.get_untracked().is_empty(),
        "{:?}",
        app.problems.get_untracked()
    );
}

#[wasm_bindgen_test]
async fn large_job_lists_show_a_count_and_the_first_rows() {
    let mut d = doc_of(WALKTHROUGH);
    let jobs: Vec<Value> = (0..5000)
        .map(|i| {
            json!({"id": format!("j{i}"), "share": "medium", "instance_type": "ml.g5.xlarge",
                        "submit_s": i, "work_s": 60})
        })
        .collect();
    d["jobs"] = json!(jobs);
    d["events"] = json!([]);
    let (root, _) = mount_editor(&d.to_string());
    settle_rows().await;
    assert_eq!(all(&root, "[data-testid=job-row]").len(), 20);
    let note = text(&one(&root, "[data-testid=jobs-truncated]"));
    assert!(note.contains("5,000 jobs"), "{note}");
    assert!(all(&root, "input").len() < 400);
}

#[wasm_bindgen_test]
async fn a_large_scenario_folds_the_raw_editor_and_syncs_it_after_a_pause() {
    let mut d = doc_of(WALKTHROUGH);
    let jobs: Vec<Value> = (0..3000)
        .map(|i| {
            json!({"id": format!("j{i}"), "share": "medium", "instance_type": "ml.g5.xlarge",
                        "submit_s": i, "work_s": 60})
        })
        .collect();
    d["jobs"] = json!(jobs);
    d["events"] = json!([]);
    let text = d.to_string();
    assert!(text.len() > quotalab_app::editor::LARGE_TEXT);
    let (root, app) = mount_editor(&text);
    settle().await;
    let section = one(&root, "[data-testid=json-section]");
    assert!(
        !section.has_attribute("open"),
        "the raw editor of a large scenario is folded"
    );
    assert!(text_of_summary(&section).contains("KB"));
    // Folded, it holds nothing (laying out megabytes costs seconds at every edit)...
    let area = textarea(&root);
    assert_eq!(area.value(), "");
    let row = all(&root, "[data-testid=share-row]").remove(0);
    type_into(&input_of(&field(&row, "Share name")), "b");
    settle().await;
    assert_eq!(
        area.value(),
        "",
        "a folded editor is not rewritten by an edit"
    );
    // ...and opened, the current text.
    section
        .unchecked_ref::<web_sys::HtmlDetailsElement>()
        .set_open(true);
    sleep_ms(50).await;
    assert_eq!(area.value(), app.scenario.get_untracked());

    // A form edit: the text changes at once, the open raw editor catches up after a pause.
    // (Read before anything awaits: the run the edit starts is simulated in this thread by
    // the component tests, and a slow one could outlast the pause.)
    type_into(&input_of(&field(&row, "Share name")), "bg");
    assert!(app.scenario.get_untracked().contains("\"name\": \"bg\""));
    assert_ne!(area.value(), app.scenario.get_untracked());
    settle().await;
    sleep_ms((quotalab_app::editor::LARGE_SYNC_DELAY_MS + 300) as i32).await;
    assert_eq!(area.value(), app.scenario.get_untracked());
}

fn text_of_summary(details: &Element) -> String {
    text(&one(details, "summary"))
}

// Issue #34 (fresh-eyes walk): capacity 1 on the AWS walkthrough left every job waiting
// with no word on why; the summary now says the engine's sentence.
#[wasm_bindgen_test]
async fn capacity_below_the_entitlements_is_said_above_the_summary() {
    let app = AppState::new(WALKTHROUGH.to_string());
    let root = mount(move || {
        provide_context(app);
        view! {
            <quotalab_app::editor::Editor />
            <quotalab_app::results::ResultsPanel />
        }
    });
    validate(app).await;
    assert!(one(&root, "[data-testid=summary-table]").is_connected());
    assert!(root
        .query_selector("[data-testid=run-notes]")
        .unwrap()
        .is_none());
    let cap = one(&root, "[data-testid=capacity-row]");
    type_into(&input_of(&one(&cap, ".field")), "1");
    validate(app).await;
    assert_eq!(
        text(&one(&root, "[data-testid=run-notes]")),
        "Capacity of ml.g5.xlarge (1) is below what the shares are entitled to (3 instances), and the RESERVE share protected keeps 1 of it for its own jobs: 4 jobs waited to the end without starting."
    );
}

#[wasm_bindgen_test]
async fn custom_types_and_capacity() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let cap = one(&root, "[data-testid=capacity-row]");
    assert!(text(&cap).contains("ml.g5.xlarge"));
    let input = input_of(&one(&cap, ".field"));
    assert_eq!(input.value(), "3");
    type_into(&input, "");
    settle().await;
    assert!(doc(app)
        .get("capacity")
        .unwrap()
        .get("ml.g5.xlarge")
        .is_none());
    assert_eq!(input.placeholder(), "default 3");

    let add = all(&root, "button")
        .into_iter()
        .find(|b| text(b) == "+ custom instance type")
        .unwrap();
    click(&add);
    settle().await;
    assert_eq!(
        doc(app)["instance_types"],
        json!([{"name": "custom-1", "gpus": 8, "usd_per_hour": 10.0}])
    );
    // The new type can be picked as a share's limit.
    let row = all(&root, "[data-testid=share-row]").remove(0);
    choose(&one(&field(&row, "type 1"), "select"), "custom-1");
    settle().await;
    assert_eq!(doc(app)["shares"][0]["limits"], json!({"custom-1": 1}));
}

// Issue #34 (fresh-eyes walk): in the Kueue model the "Allocation vs consumption" legend
// said "Limit (entitlement)" and "what a share is owed".
#[wasm_bindgen_test]
async fn the_legend_speaks_kueue_in_the_kueue_model() {
    let kueue = RwSignal::new(true);
    let root = mount(move || view! { <Glossary kueue=kueue /> });
    settle().await;
    let terms: Vec<String> = all(&root, "dl.legend-terms dt").iter().map(text).collect();
    assert_eq!(
        terms,
        ["nominalQuota", "Own", "Borrowed", "Lent", "Held", "Pending"]
    );
    let words = text(&one(&root, ".legend-intro")) + &text(&one(&root, "dl.legend-terms"));
    for kueue_word in [
        "ClusterQueue",
        "nominalQuota",
        "cohort",
        "borrowingLimit",
        "lendingLimit",
    ] {
        assert!(words.contains(kueue_word), "{kueue_word}: {words}");
    }
    for aws_word in ["share", "entitlement", "Limit (", "jobs"] {
        assert!(!words.contains(aws_word), "{aws_word}: {words}");
    }
    // Back to the AWS model: its own words.
    kueue.set(false);
    settle().await;
    assert_eq!(
        text(&one(&root, "dl.legend-terms dt")),
        "Limit (entitlement)"
    );
    assert!(text(&one(&root, ".legend-intro")).contains("what a share is owed"));
}

#[wasm_bindgen_test]
fn glossary_maps_fields_to_aws_and_kueue() {
    let root = mount(|| view! { <Glossary /> });
    let terms: Vec<String> = all(&root, "dl.legend-terms dt").iter().map(text).collect();
    assert_eq!(
        terms,
        [
            "Limit (entitlement)",
            "Own",
            "Borrowed",
            "Lent",
            "Held",
            "Queued"
        ]
    );
    let table = text(&one(&root, "dl.glossary-list"));
    for name in [
        "capacityLimits",
        "resourceSharingConfiguration.strategy",
        "LEND_AND_BORROW",
        "borrowLimit",
        "preemptionConfiguration.inSharePreemption",
        "ENABLED / DISABLED",
        "schedulingPriority",
        "nominalQuota",
        "cohort",
        "borrowingLimit",
        "lendingLimit",
        "reclaimWithinCohort",
        "withinClusterQueue: LowerPriority",
        "Workload priority",
    ] {
        assert!(table.contains(name), "the glossary names {name}");
    }
}

/// Sets a share name as a person types it: the old name selected and typed over, one key
/// at a time.
async fn type_over(input: &HtmlInputElement, name: &str) {
    for n in 1..=name.chars().count() {
        let typed: String = name.chars().take(n).collect();
        type_into(input, &typed);
        settle().await;
    }
}

fn share_name_input(root: &Element, i: usize) -> HtmlInputElement {
    let row = all(root, "[data-testid=share-row]").remove(i);
    one(&row, "[data-testid=share-name]").unchecked_into()
}

fn shares_of_jobs(app: AppState) -> Vec<String> {
    doc(app)["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["share"].as_str().unwrap().to_string())
        .collect()
}

#[wasm_bindgen_test]
async fn a_rename_through_another_shares_name_keeps_the_jobs() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let before = shares_of_jobs(app);
    assert_eq!(before, ["background", "background", "background", "medium"]);
    let input = share_name_input(&root, 0);
    // "medium2" passes through "medium", the second share's name.
    type_over(&input, "medium").await;
    // Not applied while it collides: the field says so, the scenario keeps "mediu".
    assert_eq!(doc(app)["shares"][0]["name"], "mediu");
    assert_eq!(input.value(), "medium");
    let held = one(&root, "[data-testid=share-name-held]");
    assert!(
        text(&held).contains("already called \"medium\""),
        "{}",
        text(&held)
    );
    validate(app).await;
    assert!(
        app.problems.get_untracked().is_empty(),
        "{:?}",
        app.problems.get_untracked()
    );

    type_into(&input, "medium2");
    validate(app).await;
    assert_eq!(doc(app)["shares"][0]["name"], "medium2");
    assert_eq!(
        shares_of_jobs(app),
        ["medium2", "medium2", "medium2", "medium"]
    );
    assert!(
        app.problems.get_untracked().is_empty(),
        "{:?}",
        app.problems.get_untracked()
    );
    assert!(root
        .query_selector("[data-testid=share-name-held]")
        .unwrap()
        .is_none());

    // Leaving the field with a colliding name keeps the share's name.
    type_into(&input, "protected");
    settle().await;
    input.dispatch_event(&Event::new("blur").unwrap()).unwrap();
    settle().await;
    assert_eq!(input.value(), "medium2");
    assert_eq!(doc(app)["shares"][0]["name"], "medium2");
}

fn press(target: &web_sys::EventTarget, key: &str, ctrl: bool, shift: bool) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_ctrl_key(ctrl);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let e = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&e).unwrap();
}

#[wasm_bindgen_test]
async fn ctrl_z_undoes_a_fields_typing_as_one_step_and_ctrl_y_redoes_it() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let original = app.scenario.get_untracked();
    let undo: HtmlButtonElement = one(&root, "[data-testid=undo]").unchecked_into();
    let redo: HtmlButtonElement = one(&root, "[data-testid=redo]").unchecked_into();
    assert!(undo.disabled() && redo.disabled());
    assert!(undo
        .get_attribute("aria-label")
        .is_some_and(|l| l.contains("Undo")));

    let input = share_name_input(&root, 0);
    type_over(&input, "batch").await;
    assert_eq!(shares_of_jobs(app)[0], "batch");
    assert!(!undo.disabled());
    // Ctrl+Z in the form field: the whole rename at once (jobs included).
    press(&input, "z", true, false);
    settle().await;
    assert_eq!(app.scenario.get_untracked(), original);
    assert_eq!(input.value(), "background");
    assert!(undo.disabled() && !redo.disabled());
    // Ctrl+Y redoes it, Ctrl+Shift+Z after another undo too.
    press(&input, "y", true, false);
    settle().await;
    assert_eq!(doc(app)["shares"][0]["name"], "batch");
    assert_eq!(shares_of_jobs(app)[0], "batch");
    click(&undo);
    settle().await;
    assert_eq!(app.scenario.get_untracked(), original);
    let body: web_sys::EventTarget = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .body()
        .unwrap()
        .into();
    press(&body, "z", true, true);
    settle().await;
    assert_eq!(doc(app)["shares"][0]["name"], "batch");

    // A preset-like replacement of the whole text is a step of its own.
    let replaced = WALKTHROUGH.replace("AWS walkthrough", "Another");
    app.scenario.set(replaced.clone());
    settle().await;
    press(&body, "z", true, false);
    settle().await;
    assert_eq!(doc(app)["shares"][0]["name"], "batch");
    assert_ne!(app.scenario.get_untracked(), replaced);
}

/// A large text (megabytes: an imported trace) is copied into the undo history in a task
/// after the one that set it (issue #30: no long task); an undo that comes first still finds
/// it, and every step comes back whole.
#[wasm_bindgen_test]
async fn a_large_change_is_an_undo_step_even_when_undone_before_it_is_recorded() {
    let (_root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let original = app.scenario.get_untracked();
    let pad = " ".repeat(quotalab_engine_worker::kept::LAZY_BYTES);
    let large = |name: &str| format!("{}{pad}", WALKTHROUGH.replace("AWS walkthrough", name));
    let (a, b) = (large("Large A"), large("Large B"));
    app.scenario.set(a.clone());
    settle().await;
    assert!(app.history.can_undo());
    app.scenario.set(b.clone());
    // At once, before the task that records B.
    assert!(app.history.undo(app.scenario));
    settle().await;
    assert_eq!(app.scenario.get_untracked(), a);
    assert!(app.history.redo(app.scenario));
    settle().await;
    assert_eq!(app.scenario.get_untracked(), b);
    assert!(app.history.undo(app.scenario));
    settle().await;
    assert!(app.history.undo(app.scenario));
    settle().await;
    assert_eq!(app.scenario.get_untracked(), original);
    assert!(!app.history.can_undo());
}

#[wasm_bindgen_test]
async fn the_raw_json_editor_keeps_the_browsers_own_undo() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let area = textarea(&root);
    let edited = WALKTHROUGH.replace("AWS walkthrough", "Typed here");
    area.set_value(&edited);
    area.dispatch_event(&Event::new("input").unwrap()).unwrap();
    settle().await;
    // Ctrl+Z inside the textarea is left to the browser (the page does not undo).
    press(&area, "z", true, false);
    settle().await;
    assert_eq!(app.scenario.get_untracked(), edited);
    // The Undo button undoes the typing as one step.
    click(&one(&root, "[data-testid=undo]"));
    settle().await;
    assert_eq!(app.scenario.get_untracked(), WALKTHROUGH);
}

#[wasm_bindgen_test]
async fn messages_beside_fields_say_what_to_type() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let job = all(&root, "[data-testid=job-row]").remove(0);
    let work = field(&job, "Work (s)");
    type_into(&input_of(&work), "0");
    validate(app).await;
    assert_eq!(
        errors_in(&work),
        ["Work: type a number of seconds greater than 0"]
    );
    type_into(&input_of(&work), "-5");
    validate(app).await;
    assert_eq!(
        errors_in(&work),
        ["Work: type a number of seconds greater than 0"]
    );
    assert!(app.problems.get_untracked()[0].message.contains("> 0"));
    let prio = field(&job, "Priority");
    type_into(&input_of(&work), "60");
    type_into(&input_of(&prio), "high");
    validate(app).await;
    let shown = errors_in(&prio);
    assert_eq!(shown, ["Priority: type a whole number from 0 to 9999"]);
    // No JSON words anywhere on the editor's messages.
    for m in all(&root, "[data-testid=field-error]").iter().map(text) {
        assert!(!m.contains("string") && !m.contains("jobs["), "{m}");
    }
}

#[wasm_bindgen_test]
async fn the_borrow_slider_has_an_unlimited_box_and_shows_invalid_limits() {
    let (root, app) = mount_editor(WALKTHROUGH);
    settle().await;
    let row = all(&root, "[data-testid=share-row]").remove(0);
    let number: HtmlInputElement = one(&row, "[data-testid=share-borrow-limit]").unchecked_into();
    let slider: HtmlInputElement = one(&row, "[data-testid=share-borrow-slider]").unchecked_into();
    let unlimited: HtmlInputElement =
        one(&row, "[data-testid=share-borrow-unlimited]").unchecked_into();
    let note = || text(&one(&row, "[data-testid=share-borrow-slider-note]"));
    assert_eq!(slider.value(), "200");
    assert!(!unlimited.checked());

    // Unlimited: -1 in the scenario, the slider rests.
    unlimited.set_checked(true);
    unlimited
        .dispatch_event(&Event::new("change").unwrap())
        .unwrap();
    settle().await;
    assert_eq!(doc(app)["shares"][0]["borrow_limit"], -1);
    assert!(slider.disabled());
    assert_eq!(note(), "no limit");

    // An invalid -5 is not shown as a position: it is said to be invalid.
    type_into(&number, "-5");
    settle().await;
    assert!(!unlimited.checked());
    assert_eq!(
        slider.get_attribute("aria-invalid").as_deref(),
        Some("true")
    );
    assert!(note().contains("not a valid limit"), "{}", note());
    assert_ne!(slider.value(), "500");

    // And back to unlimited from there.
    unlimited.set_checked(true);
    unlimited
        .dispatch_event(&Event::new("change").unwrap())
        .unwrap();
    validate(app).await;
    assert_eq!(doc(app)["shares"][0]["borrow_limit"], -1);
    assert!(app.problems.get_untracked().is_empty());
    // Clearing it gives back the last limit the slider showed.
    unlimited.set_checked(false);
    unlimited
        .dispatch_event(&Event::new("change").unwrap())
        .unwrap();
    settle().await;
    assert_eq!(doc(app)["shares"][0]["borrow_limit"], 200);
}

#[wasm_bindgen_test]
async fn a_zero_horizon_is_a_warning_beside_its_field() {
    let mut d = doc_of(WALKTHROUGH);
    d["horizon_s"] = json!(0);
    let (root, app) = mount_editor(&serde_json::to_string_pretty(&d).unwrap());
    validate(app).await;
    assert!(app.problems.get_untracked().is_empty());
    let horizon = field(&root, "Horizon (s)");
    let warnings: Vec<String> = all(&horizon, "[data-testid=field-warning]")
        .iter()
        .map(text)
        .collect();
    assert!(
        warnings.iter().any(|w| w.contains("no job runs")),
        "{warnings:?}"
    );
}
