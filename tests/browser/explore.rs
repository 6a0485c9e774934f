//! The Explore panel (src/explore/) in headless Chromium: a sweep runs (on the page's
//! thread here: the component tests have no tools' wasm for workers), its band is drawn, a
//! dot shows its numbers and opens its variant; Cancel stops it, a new sweep or an edit of
//! the scenario wins over the old one; a bad range says why before anything runs.
//! `... cargo test --target wasm32-unknown-unknown -p quotalab-app --test browser explore::`

use crate::common::{mount, one, pixels, settle, sleep_ms, text};
use leptos::prelude::*;
use quotalab_app::explore::panel::{Explore, ExplorePanel};
use quotalab_app::io::presets;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    Element, Event, HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
    PointerEvent, PointerEventInit,
};

fn panel(scenario: &str) -> (HtmlElement, Explore, RwSignal<Option<String>>) {
    let e = Explore::new(scenario.to_string(), false);
    let opened = RwSignal::new(None::<String>);
    let root = mount(move || {
        view! { <ExplorePanel explore=e on_open=Callback::new(move |t| opened.set(Some(t))) /> }
    });
    (root, e, opened)
}

fn type_into(root: &Element, testid: &str, value: &str) {
    let input: HtmlInputElement = one(root, &format!("[data-testid={testid}]")).unchecked_into();
    input.set_value(value);
    input.dispatch_event(&Event::new("input").unwrap()).unwrap();
}

fn pick_field(root: &Element, path: &str) {
    let select: HtmlSelectElement = one(root, "[data-testid=explore-field]").unchecked_into();
    select.set_value(path);
    select
        .dispatch_event(&Event::new("change").unwrap())
        .unwrap();
}

fn click(root: &Element, testid: &str) {
    one(root, &format!("[data-testid={testid}]"))
        .unchecked_into::<HtmlElement>()
        .click();
}

async fn until(what: &str, ms: i32, cond: impl Fn() -> bool) {
    for _ in 0..ms / 50 {
        if cond() {
            return;
        }
        sleep_ms(50).await;
    }
    panic!("timed out waiting for {what}");
}

fn mouse(canvas: &Element, kind: &str, x: f64, y: f64) {
    let rect = canvas.get_bounding_client_rect();
    // A pointer event is a mouse event (the dev-dependencies have its init dictionary).
    let init = PointerEventInit::new();
    init.set_client_x((rect.left() + x).round() as i32);
    init.set_client_y((rect.top() + y).round() as i32);
    init.set_bubbles(true);
    let ev = PointerEvent::new_with_event_init_dict(kind, &init).unwrap();
    canvas.dispatch_event(&ev).unwrap();
}

#[wasm_bindgen_test]
async fn a_sweep_streams_into_the_band_and_a_dot_opens_its_variant() {
    let (root, e, opened) = panel(presets::AWS_WALKTHROUGH_JSON);
    settle().await;
    // The field list has the share's borrow limit in the editor's words, with its value.
    let field = one(&root, "[data-testid=explore-field]");
    assert!(
        text(&field).contains("background: borrow limit (%) (now 200)"),
        "{}",
        text(&field)
    );
    pick_field(&root, "shares[0].borrow_limit");
    settle().await;
    let from: HtmlInputElement = one(&root, "[data-testid=explore-from]").unchecked_into();
    assert_eq!(
        from.value(),
        "100",
        "the default range centres on the value"
    );
    type_into(&root, "explore-from", "0");
    type_into(&root, "explore-to", "200");
    type_into(&root, "explore-step", "100");
    type_into(&root, "explore-seeds", "3");
    // The walkthrough's jobs are all written out: its seeds give the same run, and the
    // panel says so where the seeds are chosen, before any run (issue #34, fresh-eyes
    // walk: it said so only after the runs).
    let same = one(&root, "[data-testid=explore-seeds-note]");
    assert!(!same.unchecked_ref::<HtmlElement>().hidden());
    assert!(
        text(&same)
            .starts_with("Nothing in this scenario is random: every seed gives the same run"),
        "{}",
        text(&same)
    );
    click(&root, "explore-run");
    let progress = one(&root, "[data-testid=explore-progress]");
    until("the sweep to finish", 60_000, || {
        text(&progress) == "9 / 9 runs, done"
    })
    .await;
    settle().await;
    // Said once, beside the seeds: not again under the chart.
    assert_eq!(text(&one(&root, "[data-testid=explore-note]")), "");
    let canvas = one(&root, "[data-testid=explore-canvas]");
    assert_eq!(canvas.get_attribute("data-bands").as_deref(), Some("3"));
    // protected (RESERVE, no job) has no completion time: no dot at 0 for it, and the key
    // says so (issue #34).
    let shares = e.names.get_untracked().len();
    assert_eq!(
        canvas.get_attribute("data-dots"),
        Some((9 * (shares - 1)).to_string())
    );
    let legend = text(&one(&root, "[data-testid=explore-legend]"));
    assert!(
        legend.contains("protected (no job finished: not drawn)"),
        "{legend}"
    );
    // The band of the first share is shaded in its colour.
    let c: HtmlCanvasElement = canvas.clone().unchecked_into();
    let (r, g, b) = quotalab_app::ui::palette::rgb(0);
    let data = pixels(&c);
    let coloured = data
        .chunks_exact(4)
        .filter(|p| {
            // The band: the colour at 18% over white.
            let mix = |c: u8| 255.0 - (255.0 - f64::from(c)) * 0.18;
            (f64::from(p[0]) - mix(r)).abs()
                + (f64::from(p[1]) - mix(g)).abs()
                + (f64::from(p[2]) - mix(b)).abs()
                < 20.0
        })
        .count();
    assert!(coloured > 0 || shares > 1, "no band pixels");
    // The table fallback has one row per value.
    let table = one(&root, "[data-testid=explore-table]");
    assert_eq!(table.query_selector_all("tbody tr").unwrap().length(), 3);
    // Its numbers in the metric's unit, as the chart says them (issue #34, fresh-eyes
    // walk: goodput read 0.882 where the chart said 88.2 %), under the setting's name.
    let metric: HtmlSelectElement = one(&root, "[data-testid=explore-metric]").unchecked_into();
    metric.set_value("goodput");
    metric
        .dispatch_event(&Event::new("change").unwrap())
        .unwrap();
    settle().await;
    let table = one(&root, "[data-testid=explore-table]");
    let head = text(&one(&table, "thead th"));
    assert_eq!(head, "background: borrow limit (%)");
    let cell = text(&one(&table, "tbody td"));
    assert!(
        cell.ends_with(" %)") && cell.contains(" % ("),
        "goodput in percent: {cell}"
    );
    // Hover the first dot: its numbers.
    let dot = canvas.get_attribute("data-dot").unwrap();
    let (x, y) = dot.split_once(',').unwrap();
    let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
    mouse(&canvas, "mousemove", x, y);
    settle().await;
    let hover = one(&root, "[data-testid=explore-hover]");
    assert!(!hover.unchecked_ref::<HtmlElement>().hidden());
    // The setting in the editor's words, as the field list and the axis name it.
    assert!(
        text(&hover).contains("background: borrow limit (%) = "),
        "{}",
        text(&hover)
    );
    // The shares' key sits under the chart, one entry per share, in their colours.
    let legend = one(&root, "[data-testid=explore-legend]");
    assert!(!legend.unchecked_ref::<HtmlElement>().hidden());
    let items = legend.query_selector_all("li").unwrap();
    assert_eq!(items.length() as usize, shares);
    assert!(text(&legend).contains("background"), "{}", text(&legend));
    assert!(text(&hover).contains("seed "), "{}", text(&hover));
    // Click it: the variant (its value and seed) goes to the main view.
    mouse(&canvas, "click", x, y);
    settle().await;
    let variant: Value =
        serde_json::from_str(&opened.get_untracked().expect("a variant opened")).unwrap();
    let first = e.results.with_untracked(|r| r[0].clone());
    assert_eq!(
        variant["shares"][0]["borrow_limit"].as_f64(),
        Some(first.value)
    );
    assert_eq!(variant["seed"].as_u64(), Some(first.seed));
    // The variant coming back from the page keeps the sweep.
    e.scenario_changed(opened.get_untracked().unwrap());
    assert_eq!(e.results.with_untracked(Vec::len), 9);
    root.remove();
}

/// A scenario with generated workloads: its seeds differ, so no such note.
#[wasm_bindgen_test]
async fn seeds_of_generated_workloads_are_not_said_to_be_the_same() {
    let (root, e, _) = panel(presets::RESEARCH_ORG.inline().unwrap());
    settle().await;
    let path = e.fields.get_untracked()[0].path.clone();
    pick_field(&root, &path);
    settle().await;
    type_into(&root, "explore-seeds", "3");
    click(&root, "explore-run");
    settle().await;
    assert!(e.shown.get_untracked().is_some(), "the sweep started");
    assert_eq!(text(&one(&root, "[data-testid=explore-note]")), "");
    assert!(one(&root, "[data-testid=explore-seeds-note]")
        .unchecked_ref::<HtmlElement>()
        .hidden());
    e.stop(None);
}

#[wasm_bindgen_test]
async fn cancel_stops_and_the_last_edit_wins() {
    let (root, e, _) = panel(presets::AWS_WALKTHROUGH_JSON);
    settle().await;
    pick_field(&root, "shares[0].borrow_limit");
    type_into(&root, "explore-from", "0");
    type_into(&root, "explore-to", "1000");
    type_into(&root, "explore-step", "10");
    type_into(&root, "explore-seeds", "5");
    click(&root, "explore-run");
    let results = move || e.results.with_untracked(Vec::len);
    until("a first result", 20_000, || results() > 0).await;
    click(&root, "explore-cancel");
    let at_cancel = results();
    sleep_ms(300).await;
    assert_eq!(results(), at_cancel, "no run after Cancel");
    assert!(!e.running.get_untracked());
    settle().await;
    let note = text(&one(&root, "[data-testid=explore-note]"));
    assert!(note.starts_with("Cancelled after"), "{note}");

    // A new sweep while one runs: only the new one's values arrive.
    click(&root, "explore-run");
    until("a result", 20_000, || results() > 0).await;
    type_into(&root, "explore-from", "5000");
    type_into(&root, "explore-to", "5001");
    type_into(&root, "explore-step", "1");
    type_into(&root, "explore-seeds", "1");
    click(&root, "explore-run");
    until("the second sweep", 20_000, || !e.running.get_untracked()).await;
    sleep_ms(200).await;
    let values: Vec<f64> = e
        .results
        .with_untracked(|r| r.iter().map(|r| r.value).collect());
    assert_eq!(values.len(), 2, "{values:?}");
    assert!(values.iter().all(|v| *v >= 5000.0), "{values:?}");

    // An edit of the scenario while a sweep runs: it stops and its results go.
    type_into(&root, "explore-from", "0");
    type_into(&root, "explore-to", "1000");
    type_into(&root, "explore-step", "10");
    type_into(&root, "explore-seeds", "5");
    click(&root, "explore-run");
    until("a result", 20_000, || results() > 0).await;
    let edited = presets::AWS_WALKTHROUGH_JSON.replace("\"seed\": 7", "\"seed\": 8");
    e.scenario_changed(edited);
    sleep_ms(300).await;
    assert_eq!(results(), 0);
    assert!(!e.running.get_untracked());
    settle().await;
    assert!(text(&one(&root, "[data-testid=explore-note]")).contains("scenario changed"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_bad_range_says_why_before_anything_runs() {
    let (root, e, _) = panel(presets::AWS_WALKTHROUGH_JSON);
    settle().await;
    pick_field(&root, "shares[0].borrow_limit");
    type_into(&root, "explore-step", "0");
    click(&root, "explore-run");
    settle().await;
    let problems = text(&one(&root, "[data-testid=explore-problems]"));
    // In the form's words: the field's label, "Step", no command-line syntax.
    assert!(
        problems.contains("background: borrow limit (%): Step must be more than 0"),
        "{problems}"
    );
    assert!(!problems.contains("--vary"), "{problems}");
    assert_eq!(e.progress.get_untracked(), (0, 0));
    // A variant the validator refuses stops the sweep with its message.
    type_into(&root, "explore-from", "-10");
    type_into(&root, "explore-to", "0");
    type_into(&root, "explore-step", "10");
    type_into(&root, "explore-seeds", "1");
    click(&root, "explore-run");
    until("the refusal", 20_000, || !e.running.get_untracked()).await;
    settle().await;
    let problems = text(&one(&root, "[data-testid=explore-problems]"));
    assert!(problems.contains("borrow limit"), "{problems}");
    assert!(problems.contains("at least -1"), "{problems}");
    assert!(!problems.contains("shares[0]"), "{problems}");
    root.remove();
}

/// A panel made before the page's scenario is read says it is reading, offers no field and
/// says nothing of the seeds; once the scenario comes (even an empty one, the same text it
/// was made with), it is read; a large one is read a piece per task, then its fields come.
#[wasm_bindgen_test]
async fn a_panel_reads_its_scenario_when_it_comes_a_large_one_a_piece_per_task() {
    let e = Explore::unread(false);
    let root = mount(move || {
        view! { <ExplorePanel explore=e on_open=Callback::new(|_: String| {}) /> }
    });
    settle().await;
    let note_hidden = |root: &Element| {
        one(root, "[data-testid=explore-seeds-note]")
            .unchecked_into::<HtmlElement>()
            .hidden()
    };
    assert_eq!(
        text(&one(&root, "[data-testid=explore-progress]")),
        "Reading the scenario…"
    );
    assert!(
        note_hidden(&root),
        "nothing said of the seeds of no scenario"
    );
    let run_disabled = |root: &Element| {
        one(root, "[data-testid=explore-run]")
            .unchecked_into::<web_sys::HtmlButtonElement>()
            .disabled()
    };
    assert!(
        run_disabled(&root),
        "nothing to run before the scenario is read"
    );
    e.scenario_changed(String::new());
    settle().await;
    assert!(!e.reading.get_untracked());
    assert_eq!(text(&one(&root, "[data-testid=explore-progress]")), "");

    // The walkthrough with 12,000 jobs more (over 1 MiB): read over several tasks.
    let mut doc: Value = serde_json::from_str(presets::AWS_WALKTHROUGH_JSON).unwrap();
    let job = doc["jobs"][0].clone();
    let jobs = doc["jobs"].as_array_mut().unwrap();
    for i in 0..12_000 {
        let mut j = job.clone();
        j["id"] = Value::from(format!("x{i}"));
        jobs.push(j);
    }
    let large = serde_json::to_string_pretty(&doc).unwrap();
    assert!(large.len() > 1 << 20);
    e.scenario_changed(large);
    assert!(
        e.reading.get_untracked(),
        "a large scenario is not read at once"
    );
    until("the large scenario read", 10_000, || {
        !e.reading.get_untracked()
    })
    .await;
    settle().await;
    assert_eq!(text(&one(&root, "[data-testid=explore-progress]")), "");
    assert!(e
        .fields
        .get_untracked()
        .iter()
        .any(|f| f.path == "shares[0].borrow_limit"));
    assert!(!note_hidden(&root), "nothing in it is random: said");
    assert!(!run_disabled(&root));
}
