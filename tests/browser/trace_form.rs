//! The CSV trace form in headless Chromium: pickers with no matching
//! column start empty and say so, a file that is not CSV text says so instead of a garbled
//! preview, an import that would skip most rows asks first, and the import's warnings
//! (SPEC 11) show in the form before import and in the notice after it.
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --test browser trace_form::`

use crate::common::{settle, sleep_ms};
use leptos::{mount::mount_to, prelude::*};
use quotalab_app::io::presets;
use quotalab_app::io::share;
use quotalab_app::io::trace_form::{self, TraceImport};
use quotalab_app::state::AppState;
use quotalab_engine::trace::ImportReport;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlSelectElement};

/// The form, mounted with the page's state; unmounted on drop.
struct Form {
    root: HtmlElement,
    app: AppState,
    _handle: Box<dyn std::any::Any>,
}

impl Drop for Form {
    fn drop(&mut self) {
        self.root.remove();
    }
}

fn mount_form() -> Form {
    let div: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&div).unwrap();
    let slot = StoredValue::new_local(None::<AppState>);
    crate::common::use_local_engine();
    let handle = mount_to(div.clone(), move || {
        let app = AppState::new(presets::AWS_WALKTHROUGH_JSON.to_string());
        provide_context(app);
        let _ = share::init_from_url(app);
        slot.set_value(Some(app));
        view! { <TraceImport /> }
    });
    let app = slot.get_value().expect("the page's state");
    Form {
        root: div,
        app,
        _handle: Box::new(handle),
    }
}

impl Form {
    fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    fn text(&self, selector: &str) -> String {
        self.find(selector)
            .unwrap_or_else(|| panic!("no element matches {selector}"))
            .text_content()
            .unwrap_or_default()
    }

    fn click(&self, selector: &str) {
        self.find(selector)
            .unwrap_or_else(|| panic!("no element matches {selector}"))
            .unchecked_into::<HtmlElement>()
            .click();
    }

    fn select(&self, testid: &str) -> HtmlSelectElement {
        self.find(&format!("select[data-testid={testid}]"))
            .unwrap_or_else(|| panic!("no select {testid}"))
            .unchecked_into()
    }

    /// What a picker shows: its value and the text of its selected option.
    fn shown(&self, testid: &str) -> (String, String) {
        let s = self.select(testid);
        let index = s.selected_index();
        let option = (index >= 0)
            .then(|| s.children().item(index as u32))
            .flatten()
            .and_then(|o| o.text_content())
            .unwrap_or_default();
        (s.value(), option.trim().to_string())
    }

    /// Picks a file of `bytes` named `name` in the form's file input, as a person does.
    async fn pick(&self, name: &str, bytes: &[u8]) {
        let input = self
            .find("[data-testid=trace-file]")
            .expect("the file input");
        let pick = js_sys::Function::new_with_args(
            "input, bytes, name",
            "const dt = new DataTransfer();
             dt.items.add(new File([bytes], name, { type: 'text/csv' }));
             input.files = dt.files;
             input.dispatchEvent(new Event('change', { bubbles: true }));",
        );
        pick.call3(
            &JsValue::NULL,
            &input,
            &js_sys::Uint8Array::from(bytes),
            &JsValue::from_str(name),
        )
        .unwrap();
        // The file is read asynchronously.
        for _ in 0..100 {
            settle().await;
            let mentions = |selector: &str| {
                self.find(selector)
                    .and_then(|e| e.text_content())
                    .is_some_and(|t| t.contains(name))
            };
            if mentions("[data-testid=trace-preview] caption")
                || mentions("[data-testid=trace-problems]")
            {
                return;
            }
            sleep_ms(20).await;
        }
        panic!("{name} was never read");
    }
}

#[wasm_bindgen_test]
async fn pickers_start_empty_when_no_column_matches() {
    let form = mount_form();
    form.click("[data-testid=trace-open]");
    form.pick("odd.csv", b"a,b,c\n1,2,3\n4,5,6\n").await;
    assert!(form.find("[data-testid=trace-preview]").is_some());
    // Nothing matches: both required pickers are empty and say so (not "a").
    for testid in ["submit", "duration"] {
        assert_eq!(
            form.shown(testid),
            (String::new(), "— pick a column —".to_string()),
            "{testid}"
        );
    }
    // Optional ones say none.
    assert_eq!(form.shown("gpus"), (String::new(), "— none —".to_string()));
    // Import agrees with what the pickers show.
    form.click("[data-testid=trace-import]");
    settle().await;
    let problems = form.text("[data-testid=trace-problems]");
    assert!(
        problems.contains("Submit time column: pick a column"),
        "{problems}"
    );
    assert!(
        problems.contains("Duration column: pick a column"),
        "{problems}"
    );
    // Picking the columns imports.
    let choose = |testid: &str, value: &str| {
        let s = form.select(testid);
        s.set_value(value);
        s.dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
    };
    choose("submit", "a");
    choose("duration", "b");
    settle().await;
    assert_eq!(form.shown("submit"), ("a".into(), "a".into()));
    form.click("[data-testid=trace-import]");
    settle().await;
    assert!(form.app.scenario.get_untracked().contains("trace odd.csv"));
}

#[wasm_bindgen_test]
async fn matching_columns_are_still_guessed() {
    let form = mount_form();
    form.pick(
        "t.csv",
        b"job,submit_time,duration,num_gpus,vc\nj1,0,10,1,x\n",
    )
    .await;
    assert_eq!(form.shown("submit").0, "submit_time");
    assert_eq!(form.shown("duration").0, "duration");
    assert_eq!(form.shown("gpus").0, "num_gpus");
    assert_eq!(form.shown("share").0, "vc");
}

#[wasm_bindgen_test]
async fn a_binary_file_is_not_previewed() {
    let form = mount_form();
    // A zip archive (what an .xlsx workbook is), and random bytes.
    let mut zip = b"PK\x03\x04\x14\x00\x06\x00\x08\x00".to_vec();
    zip.extend((0..600u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    form.pick("trace.xlsx", &zip).await;
    assert!(
        form.find("[data-testid=trace-preview]").is_none(),
        "no garbled preview"
    );
    let problems = form.text("[data-testid=trace-problems]");
    assert!(
        problems.contains("trace.xlsx: this is not a CSV file: it looks like a ZIP archive"),
        "{problems}"
    );
    assert!(form.find("[data-testid=trace-import]").is_none());

    let noise: Vec<u8> = (0..2048u32)
        .map(|i| (i.wrapping_mul(2_246_822_519).rotate_left(7) >> 11) as u8)
        .collect();
    form.pick("noise.csv", &noise).await;
    assert!(form.find("[data-testid=trace-preview]").is_none());
    assert!(form
        .text("[data-testid=trace-problems]")
        .contains("noise.csv: this is not a CSV file: "));
    // The preview refuses it too.
    assert!(trace_form::preview(&noise)
        .unwrap_err()
        .starts_with("this is not a CSV file: "));
}

/// A trace of `good` readable rows and `bad` rows with an unreadable duration.
fn trace(good: usize, bad: usize) -> String {
    let mut csv = String::from("submit,duration,team\n");
    for i in 0..good {
        csv.push_str(&format!("{i},60,a\n"));
    }
    for i in 0..bad {
        csv.push_str(&format!("{i},soon,a\n"));
    }
    csv
}

#[wasm_bindgen_test]
async fn a_lossy_import_asks_first() {
    let form = mount_form();
    let before = form.app.scenario.get_untracked();
    form.pick("lossy.csv", trace(3, 7).as_bytes()).await;
    form.click("[data-testid=trace-import]");
    settle().await;
    // Nothing replaced yet: the form asks.
    assert_eq!(form.app.scenario.get_untracked(), before);
    let confirm = form.text("[data-testid=trace-confirm]");
    assert!(
        confirm.contains("7 of 10 rows would be skipped: duration: not a number (7 rows)."),
        "{confirm}"
    );
    assert!(form.find("[data-testid=trace-import]").is_none());

    // Cancel goes back to the form, the scenario unchanged.
    form.click("[data-testid=trace-import-cancel]");
    settle().await;
    assert!(form.find("[data-testid=trace-confirm]").is_none());
    assert!(form.find("[data-testid=trace-import]").is_some());
    assert_eq!(form.app.scenario.get_untracked(), before);

    // Changing the form drops a pending question.
    form.click("[data-testid=trace-import]");
    settle().await;
    assert!(form.find("[data-testid=trace-confirm]").is_some());
    let name: web_sys::HtmlInputElement = form
        .find("input[data-testid=name]")
        .unwrap()
        .unchecked_into();
    name.set_value("lossy trace");
    name.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settle().await;
    assert!(form.find("[data-testid=trace-confirm]").is_none());

    // Import anyway replaces it.
    form.click("[data-testid=trace-import]");
    settle().await;
    form.click("[data-testid=trace-import-anyway]");
    settle().await;
    let now = form.app.scenario.get_untracked();
    assert!(now.contains("\"lossy trace\""), "{now:.200}");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&now).unwrap()["jobs"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[wasm_bindgen_test]
async fn an_import_that_keeps_most_rows_does_not_ask() {
    let form = mount_form();
    form.pick("mostly.csv", trace(6, 4).as_bytes()).await;
    form.click("[data-testid=trace-import]");
    settle().await;
    assert!(form.find("[data-testid=trace-confirm]").is_none());
    assert!(form
        .app
        .scenario
        .get_untracked()
        .contains("trace mostly.csv"));
}

#[wasm_bindgen_test]
fn the_lossy_question_names_the_top_reasons() {
    let report = ImportReport {
        rows: 1000,
        imported: 400,
        skipped: 600,
        first_problems: vec![],
        reasons: vec![
            ("duration: not a number".into(), 550),
            ("gpus: empty".into(), 30),
            ("team: empty".into(), 10),
            ("submit: negative".into(), 6),
            ("gpus: negative".into(), 4),
        ],
        warnings: vec![],
    };
    assert!(trace_form::is_lossy(&report));
    assert_eq!(
        trace_form::lossy_message(&report),
        "600 of 1,000 rows would be skipped: duration: not a number (550 rows); \
         gpus: empty (30 rows); team: empty (10 rows); other reasons (10 rows)."
    );
    let half = ImportReport {
        rows: 10,
        imported: 5,
        skipped: 5,
        ..report
    };
    assert!(
        !trace_form::is_lossy(&half),
        "exactly half is not over half"
    );
}

/// Waits until `done` holds (the form checks its options after a pause).
async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..150 {
        settle().await;
        if done() {
            return;
        }
        sleep_ms(20).await;
    }
    panic!("never: {what}");
}

#[wasm_bindgen_test]
async fn a_share_left_at_limit_0_is_warned_before_and_after_import() {
    let form = mount_form();
    // Demand: a 100, b 2 instance-seconds; the default capacity of 2 instances gives b 0.
    form.pick(
        "zero.csv",
        b"submit,duration,gpus,team\n0,100,1,a\n0,1,1,b\n50,1,1,b\n",
    )
    .await;
    let warnings = |form: &Form| -> Vec<String> {
        let list = form
            .root
            .query_selector_all("[data-testid=trace-import-warning]")
            .unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i).and_then(|n| n.text_content()))
            .collect()
    };
    until("a warning", || !warnings(&form).is_empty()).await;
    let shown = warnings(&form);
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(
        shown[0],
        "Share \"b\" has 2 jobs (up to 1 GPU at once, 0 GPU-hours in all) but its limit comes \
         out as 0 instances: its jobs can only run on capacity that other shares lend; raise \
         Capacity or use Limits \"equal\""
    );

    // Equal limits give each share 1 instance: the warning goes.
    let limits = form.select("limits");
    limits.set_value("equal");
    limits
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    until("no warning", || warnings(&form).is_empty()).await;

    // Back to proportional: importing keeps the warning in what the page says it imported.
    limits.set_value("proportional");
    limits
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    until("the warning again", || warnings(&form).len() == 1).await;
    form.click("[data-testid=trace-import]");
    settle().await;
    assert!(form.app.scenario.get_untracked().contains("trace zero.csv"));
    let notice = form.app.notice.get_untracked().expect("a notice");
    assert_eq!(
        notice.lines.first().map(String::as_str),
        Some(format!("Warning: {}", shown[0]).as_str()),
        "{notice:?}"
    );
}
