//! Share links, files and the trace form in headless Chromium (wasm-bindgen-test):
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --test browser share::`
//!
//! Each test sets the page's fragment itself, mounts what it needs into a fresh `<div>` and
//! unmounts it at the end (removing its listeners), so tests do not see each other's URL.

use crate::common::sleep_ms;
use leptos::{mount::mount_to, prelude::*, task::tick};
use quotalab_app::io::files::{self, json_problem};
use quotalab_app::io::share::{self, ShareState};
use quotalab_app::io::{presets, trace_form};
use quotalab_app::state::{self, AppState};
use quotalab_app::toolbar::ShareBar;
use quotalab_app::ui::format;
use quotalab_app::App;
use quotalab_engine::digest::DigestLimits;
use quotalab_engine::link;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

/// A mounted view and the `<div>` that holds it; unmounted on drop.
struct Mounted {
    root: HtmlElement,
    /// The mount's `UnmountHandle`: dropping it unmounts the view and disposes its owner.
    _handle: Box<dyn std::any::Any>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

fn mount<F, N>(f: F) -> Mounted
where
    F: FnOnce() -> N + 'static,
    N: IntoView + 'static,
{
    let div: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&div).unwrap();
    crate::common::use_local_engine();
    let handle = mount_to(div.clone(), f);
    Mounted {
        root: div,
        _handle: Box::new(handle),
    }
}

async fn settle() {
    for _ in 0..5 {
        tick().await;
    }
}

/// Waits (up to ~5 s) until `cond` holds.
async fn until(what: &str, cond: impl Fn() -> bool) {
    for _ in 0..100 {
        if cond() {
            return;
        }
        sleep_ms(50).await;
    }
    panic!("timed out waiting for {what}");
}

fn set_fragment(fragment: &str) {
    let url = if fragment.is_empty() {
        share::page_base()
    } else {
        fragment.to_string()
    };
    window()
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some(&url))
        .unwrap();
}

fn find(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).unwrap()
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector)
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .text_content()
        .unwrap_or_default()
        .trim()
        .to_string()
}

fn click(root: &Element, selector: &str) {
    find(root, selector)
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .unchecked_into::<HtmlElement>()
        .click();
}

/// What `App` does for links, without the rest of the page: the state, the link opener,
/// the runner (no debounce), the share bar.
fn share_page(slot: StoredValue<Option<(AppState, ShareState)>, LocalStorage>) -> impl IntoView {
    let app = AppState::new(presets::AWS_WALKTHROUGH_JSON.to_string());
    provide_context(app);
    let share = share::init_from_url(app);
    state::install_runner(app, 0);
    slot.set_value(Some((app, share)));
    view! { <ShareBar /> }
}

fn mount_share_page() -> (Mounted, AppState, ShareState) {
    let slot = StoredValue::new_local(None);
    let mounted = mount(move || share_page(slot));
    let (app, share) = slot.get_value().expect("the page's state");
    (mounted, app, share)
}

/// The share page on a page without a fragment, once its first run is shown.
async fn share_page_after_its_first_run() -> (Mounted, AppState) {
    set_fragment("");
    let (page, app, _) = mount_share_page();
    until("the first run", || {
        app.outcome.with_untracked(Option::is_some)
    })
    .await;
    (page, app)
}

const SMALL: &str = r#"{
  "format": "quotalab/v1",
  "name": "two teams",
  "capacity": {"ml.g5.xlarge": 2},
  "shares": [
    {"name": "a, \"quoted\"", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND_AND_BORROW"},
    {"name": "b", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND"}
  ],
  "jobs": [
    {"id": "=HYPERLINK(\"x\")", "share": "a, \"quoted\"", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 600},
    {"id": "a2", "share": "a, \"quoted\"", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 600},
    {"id": "b1", "share": "b", "instance_type": "ml.g5.xlarge", "submit_s": 60, "work_s": 300}
  ]
}"#;

#[wasm_bindgen_test]
async fn share_bar_shows_the_link_length_and_copies_the_link() {
    set_fragment("");
    let (page, app, _) = mount_share_page();
    let root: &Element = &page.root;
    assert!(find(root, "[data-testid=share-bar]").is_some());
    assert!(find(root, "[data-testid=files-menu]").is_some());
    assert!(find(root, "[data-testid=trace-open]").is_some());

    // After the run and the sync pause, the link's length shows and the URL follows.
    let expected = share::link_of(presets::AWS_WALKTHROUGH_JSON).unwrap();
    until("the link length", || {
        !text(root, "[data-testid=link-length]").is_empty()
    })
    .await;
    assert_eq!(
        text(root, "[data-testid=link-length]"),
        format!("{} characters", expected.len())
    );
    assert!(expected.len() < 600, "{} characters", expected.len());
    until("the URL fragment", || {
        window().location().hash().unwrap().starts_with("#s=")
    })
    .await;
    assert_eq!(window().location().href().unwrap(), expected.url);

    // Copy link shows the link, selected, and a status.
    click(root, "[data-testid=copy-link]");
    settle().await;
    let field: HtmlInputElement = find(root, "[data-testid=share-link]")
        .unwrap()
        .unchecked_into();
    assert_eq!(field.value(), expected.url);
    assert!(field.read_only());
    until("the copy status", || {
        let s = text(root, "[data-testid=copy-status]");
        s.starts_with("Copied") || s.starts_with("The link is selected")
    })
    .await;
    // The link opens the same scenario.
    let back = link::decode(&field.value()).unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&back).unwrap(),
        serde_json::from_str::<serde_json::Value>(presets::AWS_WALKTHROUGH_JSON).unwrap()
    );
    // A short link has no warning.
    assert!(find(root, "[data-testid=long-link-warning]").is_none());

    // An edit replaces the fragment (after the pause) with the new scenario's link.
    let edited =
        presets::AWS_WALKTHROUGH_JSON.replace("\"ml.g5.xlarge\": 3", "\"ml.g5.xlarge\": 4");
    assert_ne!(edited, presets::AWS_WALKTHROUGH_JSON);
    let before = window().history().unwrap().length().unwrap();
    app.scenario.set(edited.clone());
    let want = share::link_of(&edited).unwrap().url;
    until("the edited link in the URL", || {
        window().location().href().unwrap() == want
    })
    .await;
    assert_eq!(
        window().history().unwrap().length().unwrap(),
        before,
        "an edit replaces the history entry"
    );
    // The open panel follows: the new link, and a status saying it is not the copied one.
    settle().await;
    assert_eq!(field.value(), want);
    assert!(text(root, "[data-testid=copy-status]").starts_with("The scenario has changed since"));
    drop(page);
}

#[wasm_bindgen_test]
async fn the_url_follows_at_once_when_the_window_loses_the_focus() {
    // Issue #34: a link copied from the address bar in the pause after an edit was the
    // previous scenario's. Going to the address bar blurs the window: the URL follows then.
    let (page, app) = share_page_after_its_first_run().await;
    let edited = SMALL.replace("\"work_s\": 300", "\"work_s\": 301");
    let finished = app.run_stats.with_untracked(|s| s.finished);
    app.scenario.set(edited.clone());
    // Polled closely: the pause (SYNC_DELAY_MS) starts when the edit's run ends.
    let done = || app.run_stats.with_untracked(|s| s.finished) > finished;
    for _ in 0..2000 {
        if done() {
            break;
        }
        sleep_ms(5).await;
    }
    assert!(done() && !app.stale.get_untracked(), "the edit's run");
    let want = share::link_of(&edited).unwrap().url;
    assert_ne!(
        window().location().href().unwrap(),
        want,
        "the URL waits for the pause"
    );
    window()
        .dispatch_event(&web_sys::Event::new("blur").unwrap())
        .unwrap();
    // The link is made in the (in-process) engine's next task, well before the pause ends.
    sleep_ms(40).await;
    assert_eq!(window().location().href().unwrap(), want);
    drop(page);
}

#[wasm_bindgen_test]
async fn the_url_follows_a_run_that_relabels_the_result_shown() {
    // The engine worker answers an edit that simulates as the result shown (a new name, an
    // agreement's words) by relabelling it: the run ends with no new outcome. The URL sync
    // put off while that run was pending must still happen (a CI run caught the URL keeping
    // the previous scenario's link).
    let (page, app) = share_page_after_its_first_run().await;
    sleep_ms(share::SYNC_DELAY_MS as i32 + 100).await;
    let first = window().location().href().unwrap();
    let edited =
        presets::AWS_WALKTHROUGH_JSON.replace("AWS walkthrough", "AWS walkthrough, renamed");
    let want = share::link_of(&edited).unwrap().url;
    assert_ne!(first, want);
    // What the runner does for a worker run: pending, the text changed, the run ends with
    // the result shown kept (relabelled, no outcome set).
    app.status.set(state::RunStatus::Pending);
    app.scenario.update_untracked(|t| *t = edited.clone());
    sleep_ms(share::SYNC_DELAY_MS as i32 + 100).await;
    assert_eq!(
        window().location().href().unwrap(),
        first,
        "no link while the run is pending"
    );
    app.status.set(state::RunStatus::Current);
    until("the URL follows the relabelled run", || {
        window().location().href().unwrap() == want
    })
    .await;
    drop(page);
}

#[wasm_bindgen_test]
async fn a_bad_fragment_shows_why_and_opens_the_default_preset() {
    set_fragment("#s=this-is-not*a-link");
    let (page, app, _) = mount_share_page();
    let root: &Element = &page.root;
    settle().await;
    let notice = text(root, "[data-testid=share-notice]");
    assert!(notice.contains("could not be opened"), "{notice}");
    assert!(notice.contains("AWS walkthrough"), "{notice}");
    assert!(
        notice.contains("This link is damaged: it has characters a Quota Lab link never has"),
        "why, in the page's words: {notice}"
    );
    assert_eq!(app.scenario.get_untracked(), presets::AWS_WALKTHROUGH_JSON);
    // The default preset runs.
    until("the run", || app.outcome.with_untracked(Option::is_some)).await;
    assert_eq!(app.outcome.get_untracked().unwrap().digest.shares.len(), 3);
    // Dismissible.
    click(root, "[data-testid=notice-dismiss]");
    settle().await;
    assert!(find(root, "[data-testid=share-notice]").is_none());
    drop(page);
}

#[wasm_bindgen_test]
async fn the_whole_app_shows_the_notice_for_a_bad_link() {
    set_fragment("#s=eJyrVkrLz1eyUkpKLFKqBQA");
    let page = mount(App);
    settle().await;
    let notice = text(&page.root, "[data-testid=share-notice]");
    assert!(notice.contains("could not be opened"), "{notice}");
    assert!(notice.contains("This link is damaged"), "{notice}");
    drop(page);
}

#[wasm_bindgen_test]
async fn a_link_whose_scenario_is_invalid_lists_its_problems() {
    let bad = r#"{"format": "quotalab/v1", "shares": [{"name": "a", "limits": {"ml.g5.xlarge": 1}, "strategy": "SHARE_EVERYTHING"}], "jobs": []}"#;
    set_fragment(&format!("#s={}", link::encode(bad).unwrap()));
    let (page, app, _) = mount_share_page();
    let root: &Element = &page.root;
    // Opened at once, validated by the engine (a worker in the page), then refused.
    until("the notice", || {
        find(root, "[data-testid=share-notice]").is_some()
    })
    .await;
    let notice = text(root, "[data-testid=share-notice]");
    assert!(notice.contains("problem"), "{notice}");
    assert!(notice.contains("Share 1, strategy"), "{notice}");
    assert_eq!(app.scenario.get_untracked(), presets::AWS_WALKTHROUGH_JSON);
    drop(page);
}

#[wasm_bindgen_test]
async fn a_good_link_opens_its_scenario_and_back_restores_the_previous_one() {
    let payload = link::encode(SMALL).unwrap();
    set_fragment(&format!("#s={payload}"));
    let (page, app, share) = mount_share_page();
    let root: &Element = &page.root;
    settle().await;
    assert!(find(root, "[data-testid=share-notice]").is_none());
    assert_eq!(
        app.scenario.get_untracked(),
        link::decode(&payload).unwrap()
    );
    until("the run", || app.outcome.with_untracked(Option::is_some)).await;
    assert_eq!(
        app.outcome.get_untracked().unwrap().digest.shares[1].name,
        "b"
    );

    // A discrete action (an import) pushes a new entry; Back restores the link's scenario.
    let before = window().history().unwrap().length().unwrap();
    share::open_scenario(app, share, presets::AWS_WALKTHROUGH_JSON.to_string());
    let aws = share::link_of(presets::AWS_WALKTHROUGH_JSON).unwrap().url;
    until("the pushed link", || {
        window().location().href().unwrap() == aws
    })
    .await;
    // Pushed, not replaced (Chromium keeps at most 50 entries, which the tests before this
    // one in the same page may have reached).
    let after = window().history().unwrap().length().unwrap();
    assert!(
        after == before + 1 || (before >= 50 && after == before),
        "history length {before} -> {after}"
    );
    window().history().unwrap().back().unwrap();
    until("Back to open the first link", || {
        app.scenario.with_untracked(|t| t.contains("two teams"))
    })
    .await;
    assert_eq!(window().location().hash().unwrap(), format!("#s={payload}"));
    drop(page);
}

// The CSV files' quoting and formula escapes: `quotalab_report::tables`'s tests.

#[wasm_bindgen_test]
fn occupancy_svg_names_every_share() {
    let digest = quotalab_engine::run_digest(SMALL, DigestLimits::default()).unwrap();
    let svg = files::occupancy_svg(&digest).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
    assert!(svg.contains("two teams"));
    // Names are text, escaped (a scenario's names never become markup).
    assert!(svg.contains("\na, &quot;quoted&quot;\n</text>"), "{svg}");
    assert!(svg.contains("\nb\n</text>"));
    // The occupancy chart's own capacity label.
    assert!(svg.contains("capacity 2"), "{svg}");
}

#[wasm_bindgen_test]
fn scenario_files_are_checked_before_opening() {
    // The page checks the JSON; the engine worker validates (`Job::Check`), in the page's
    // words.
    let check = |text: &str| -> Result<(), Vec<String>> {
        json_problem(text)?;
        quotalab_engine_worker::jobs::check(text)
            .map(|_| ())
            .map_err(|p| files::problem_lines(&p))
    };
    assert!(check(SMALL).is_ok());
    let not_json = check("{\"format\": ").unwrap_err();
    assert_eq!(
        not_json,
        ["The file is not JSON: it ends before the JSON is complete (line 1, column 11)"]
    );
    let invalid = check(r#"{"format": "quotalab/v1", "shares": []}"#).unwrap_err();
    assert!(!invalid.is_empty());
    // The page's words: the editor's places and plain numbers, no JSON path.
    let big = SMALL.replacen(
        "\"name\": \"two teams\",",
        "\"name\": \"two teams\", \"seed\": 100000000000000000000,",
        1,
    );
    assert_ne!(big, SMALL);
    let big = check(&big).unwrap_err();
    assert!(
        big.iter()
            .any(|m| m.starts_with("Seed") && m.contains("far too large")),
        "{big:?}"
    );
    assert!(big.iter().all(|m| !m.contains("922")), "{big:?}");
    assert_eq!(files::file_stem(SMALL), "two-teams");
    assert_eq!(files::file_stem("{}"), "scenario");
    assert_eq!(
        files::file_stem(r#"{"name": "  Philly trace sample (5 days) "}"#),
        "philly-trace-sample-5-days"
    );
}

#[wasm_bindgen_test]
fn trace_preview_and_column_guesses() {
    let csv = "timestamp,duration,num_gpus,gpu_time,cluster\n\
               2017-10-09 07:01:55,66.0,1,66.0,11cb48\n\
               2017-10-09 06:13:03,2951.0,2,5902.0,6214e9\n";
    let p = trace_form::preview(csv.as_bytes()).unwrap();
    assert_eq!(
        p.header,
        ["timestamp", "duration", "num_gpus", "gpu_time", "cluster"]
    );
    assert_eq!(p.total_rows, 2);
    assert_eq!(p.rows[1][4], "6214e9");
    let guess =
        |names: &[&str], except: &[&str]| trace_form::guess_column(&p.header, names, except);
    assert_eq!(
        guess(&["submit", "timestamp"], &[]).as_deref(),
        Some("timestamp")
    );
    assert_eq!(
        guess(&["gpus", "gpu"], &["time"]).as_deref(),
        Some("num_gpus")
    );
    assert_eq!(guess(&["team", "cluster"], &[]).as_deref(), Some("cluster"));
    assert!(trace_form::preview(b"").is_err());
}

#[wasm_bindgen_test]
fn edits_replace_and_new_scenarios_push() {
    let aws = presets::AWS_WALKTHROUGH_JSON;
    assert_eq!(share::changed_span(aws, aws), 0);
    let renamed = aws.replace("AWS walkthrough", "AWS walkthrough 2");
    assert_eq!(share::changed_span(aws, &renamed), 2);
    let longer_job = aws.replacen("\"work_s\": 300", "\"work_s\": 900", 1);
    assert_eq!(share::changed_span(aws, &longer_job), 1);
    // Typing a name: an edit. Another preset: a new scenario.
    assert!(!share::is_replacement(
        true,
        share::changed_span(aws, &renamed)
    ));
    assert!(!share::is_replacement(
        false,
        share::changed_span(aws, &longer_job)
    ));
    let other = presets::PRESETS[1].inline().unwrap();
    assert!(share::is_replacement(true, share::changed_span(aws, other)));
    // A large paste without a new name is one too.
    assert!(share::is_replacement(false, 5000));
}

#[wasm_bindgen_test]
fn thousands_separators() {
    assert_eq!(format::count(0), "0");
    assert_eq!(format::count(999), "999");
    assert_eq!(format::count(48_210), "48,210");
    assert_eq!(format::count(1_234_567), "1,234,567");
}

#[wasm_bindgen_test]
fn a_scenario_name_is_read_without_the_rest() {
    let name = |t: &str| share::scenario_name(t);
    assert_eq!(
        name(presets::AWS_WALKTHROUGH_JSON).as_deref(),
        Some("AWS walkthrough")
    );
    // Found where it is, after the jobs too, with escapes.
    assert_eq!(
        name(r#"{"jobs": [{"id": "a", "name": "not this"}], "name": "late \"one\""}"#).as_deref(),
        Some("late \"one\"")
    );
    // The reader stops at the name: what follows is not read (a file's name only).
    assert_eq!(
        name(r#"{"name": "first", "jobs": [oops"#).as_deref(),
        Some("first")
    );
    // None: no name, a null one, a name that is not text, not an object, not JSON.
    for t in [
        r#"{"jobs": []}"#,
        r#"{"name": null}"#,
        r#"{"name": 7}"#,
        r#"["name", "x"]"#,
        "name",
        "",
    ] {
        assert_eq!(name(t), None, "{t}");
    }
}

#[wasm_bindgen_test]
fn texts_compare_equal_only_when_every_byte_is() {
    use quotalab_app::io::tools::same_text;
    let a = presets::AWS_WALKTHROUGH_JSON.as_bytes();
    assert!(same_text(a, a) && same_text(b"", b""));
    let mut b = a.to_vec();
    for at in [0, 7, 8, a.len() / 2, a.len() - 9, a.len() - 1] {
        b[at] ^= 1;
        assert!(!same_text(a, &b), "a change at byte {at}");
        b[at] ^= 1;
    }
    assert!(same_text(a, &b));
    assert!(!same_text(a, &a[..a.len() - 1]));
    assert!(!same_text(b"abc", b"abd"));
}
