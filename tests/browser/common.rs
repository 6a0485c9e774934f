//! Helpers shared by the browser test modules (each module uses a part).

use leptos::{mount::mount_to, prelude::*, task::tick};
use quotalab_app::editor::Editor;
use quotalab_app::state::AppState;
use serde_json::Value;
use wasm_bindgen::JsCast;
use web_sys::{
    CanvasRenderingContext2d, Element, Event, HtmlCanvasElement, HtmlElement, HtmlSelectElement,
};

/// Mounts `f` into a fresh `<div>` appended to the body; returns the div.
pub fn mount<F, N>(f: F) -> HtmlElement
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    use_local_engine();
    let div: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&div).unwrap();
    mount_to(div.clone(), f).forget();
    div
}

/// The engine in-process for the page's runs and jobs: this test binary has no engine worker
/// (no `dist/`), so the runner calls `pipeline::run` here, as the worker would
/// (`quotalab_app::state::set_local_engine`), and jobs are answered by the worker's own
/// `jobs::serve` (`quotalab_app::worker::service::set_local_jobs`).
pub fn use_local_engine() {
    use quotalab_engine::digest::DigestLimits;
    use quotalab_engine::pipeline::{self, Product, RunOptions};
    quotalab_app::state::set_local_engine(|text| {
        let opts = RunOptions {
            product: Product::Digest(DigestLimits::default()),
            ..RunOptions::default()
        };
        let run = pipeline::run(text, &opts)?;
        Ok((run.warnings, run.output.into_digest().unwrap_or_default()))
    });
    // The comparison, the forecast, the CSV import and configurations, likewise.
    quotalab_app::worker::service::set_local_jobs(quotalab_engine_worker::jobs::serve);
    quotalab_app::explore::pool::set_local_runs(quotalab_engine_worker::sweep::run_one);
}

/// Lets effects (scheduled as tasks) run, and then the in-process engine's answers (which
/// come in a task of their own, as an engine worker's would) and what they cause, the
/// charts' drawings included (each a task of its own), and the rows the editor's lists are
/// still building (a few milliseconds' worth a task, `editor::rows`: in this unoptimised
/// build, often one row a task).
pub async fn settle() {
    for _ in 0..2 {
        for _ in 0..6 {
            tick().await;
        }
        sleep_ms(0).await;
    }
    for _ in 0..6 {
        tick().await;
    }
    for _ in 0..200 {
        if !quotalab_app::editor::rows::rows_pending() {
            break;
        }
        sleep_ms(0).await;
        for _ in 0..6 {
            tick().await;
        }
    }
}

/// Settles until a list the editor opened with many rows has built them all (the first
/// few at once, the others a few per task: `editor::rows`).
pub async fn settle_rows() {
    for _ in 0..100 {
        settle().await;
        if !quotalab_app::editor::rows::rows_pending() {
            return;
        }
    }
    panic!("the editor's lists never finished building their rows");
}

/// Waits `ms` milliseconds of real time (for the network, timers, observers and frames).
pub async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Every element under `root` matching `selector`.
pub fn all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().unchecked_into())
        .collect()
}

/// The first element under `root` matching `selector` (panics, naming it, if none).
pub fn one(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

/// The canvas's pixels, RGBA.
pub fn pixels(canvas: &HtmlCanvasElement) -> Vec<u8> {
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    ctx.get_image_data(
        0.0,
        0.0,
        f64::from(canvas.width()),
        f64::from(canvas.height()),
    )
    .unwrap()
    .data()
    .0
}

/// Pixels within a small distance of `rgb`.
pub fn near(data: &[u8], (r, g, b): (u8, u8, u8)) -> usize {
    data.chunks_exact(4)
        .filter(|p| {
            u32::from(p[0].abs_diff(r)) + u32::from(p[1].abs_diff(g)) + u32::from(p[2].abs_diff(b))
                <= 24
        })
        .count()
}

// ---- the scenario editor ----

/// The editor alone, on `scenario`, with its page state (not validated yet: see
/// [`validate`]).
pub fn mount_editor(scenario: &str) -> (HtmlElement, AppState) {
    use_local_engine();
    let app = AppState::new(scenario.to_string());
    let root = mount(move || {
        provide_context(app);
        view! { <Editor /> }
    });
    (root, app)
}

/// Validates the current text (as the page's debounced runner would), then settles.
pub async fn validate(app: AppState) {
    settle().await;
    app.run_now(&app.scenario.get_untracked());
    settle().await;
}

pub fn text(el: &Element) -> String {
    el.text_content().unwrap_or_default().trim().to_string()
}

/// Picks the option whose text is `label` (or starts with it) and fires `change`.
pub fn choose(select: &Element, label: &str) {
    let select: HtmlSelectElement = select.clone().unchecked_into();
    let option = all(&select, "option")
        .into_iter()
        .find(|o| text(o) == label || text(o).starts_with(label))
        .unwrap_or_else(|| panic!("no option {label:?}"));
    select.set_value(&option.get_attribute("value").unwrap());
    select
        .dispatch_event(&Event::new("change").unwrap())
        .unwrap();
}

pub fn doc(app: AppState) -> Value {
    serde_json::from_str(&app.scenario.get_untracked()).expect("the scenario text is JSON")
}
