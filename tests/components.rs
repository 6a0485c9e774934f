//! Component tests in headless Chromium (wasm-bindgen-test):
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --tests`
#![cfg(target_arch = "wasm32")]

use leptos::{mount::mount_to, prelude::*, task::tick};
use quotalab_app::{
    charts::OccupancyChart, problems::ErrorBox, report, summary::SummaryTable, App,
};
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts `f` into a fresh `<div>` appended to the body and returns that div.
fn mount<F, N>(f: F) -> HtmlElement
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    let div: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&div).unwrap();
    mount_to(div.clone(), f).forget();
    div
}

/// Lets effects (scheduled as tasks) run.
async fn settle() {
    for _ in 0..5 {
        tick().await;
    }
}

fn all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().unchecked_into())
        .collect()
}

fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .text_content()
        .unwrap_or_default()
        .trim()
        .to_string()
}

fn share(submitted: u64, succeeded: u64, p50: f64, p90: f64, reclaim: u64, held: f64) -> Value {
    json!({
        "jobs": {"submitted": submitted, "succeeded": succeeded, "failed": 0,
                 "unfinished": submitted - succeeded, "rejected": 0, "unschedulable": 0},
        "completion_s": {"mean": p50, "p50": p50, "p90": p90, "p99": p90, "max": p90},
        "wait_s": {"mean": 0, "p50": 0, "p90": 0, "p99": 0, "max": 0},
        "preemptions": {"reclaim": reclaim, "in_share": 2},
        "instance_hours": {"entitled": 1, "own": 1.25, "borrowed": 0.5, "lent": 0.25, "idle": 0,
                           "held": held, "useful": held * 0.75, "lost": 0, "startup": 0,
                           "checkpoint": 0, "grace": 0},
        "goodput": 0.75, "cost_usd": 0.0, "deadline_misses": 0
    })
}

/// A small hand-written result (SPEC 8) with two shares, totals and a series.
fn small_result() -> Value {
    json!({
        "format": "quotalab-result/v1",
        "end_s": 1800,
        "shares": {
            "research": share(3, 2, 300.0, 5400.0, 1, 2.0),
            "prod": share(1, 0, 0.0, 0.0, 0, 0.0),
        },
        "totals": share(4, 2, 300.0, 5400.0, 1, 2.0),
        "jobs": [],
        "events": [],
        "series": {
            "t_s": [0, 600, 1200],
            "shares": {
                "research": {"ml.g5.xlarge": {"limit": [1, 1, 1], "own": [1, 1, 0], "borrowed": [2, 0, 0], "lent": [0, 0, 0], "queued": [0, 0, 0]}},
                "prod": {"ml.g5.xlarge": {"limit": [2, 2, 2], "own": [0, 2, 1], "borrowed": [0, 0, 0], "lent": [2, 0, 0], "queued": [0, 0, 0]},
                         "ml.g5.2xlarge": {"limit": [1, 1, 1], "own": [0, 1, 1], "borrowed": [0, 0, 0], "lent": [0, 0, 0], "queued": [0, 0, 0]}}
            }
        }
    })
}

fn cells(row: &Element) -> Vec<(String, String)> {
    all(row, "td")
        .iter()
        .map(|td| {
            (
                td.get_attribute("data-col").unwrap_or_default(),
                td.text_content().unwrap_or_default(),
            )
        })
        .collect()
}

#[wasm_bindgen_test]
fn summary_table_has_one_row_per_share_with_its_numbers() {
    let root = mount(|| view! { <SummaryTable result=small_result() /> });
    let rows = all(&root, "table.summary tbody tr");
    let names: Vec<_> = rows
        .iter()
        .map(|r| r.get_attribute("data-share").unwrap())
        .collect();
    assert_eq!(
        names,
        ["research", "prod"],
        "one row per share, in the result's order"
    );
    assert_eq!(text(&rows[0], "th"), "research");

    let expect = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        cells(&rows[0]),
        expect(&[
            ("jobs", "2 / 3"),
            ("p50", "5.0 min"),
            ("p90", "1.5 h"),
            ("reclaim", "1"),
            ("in-share", "2"),
            ("own", "1.25"),
            ("borrowed", "0.50"),
            ("lent", "0.25"),
            ("held", "2.00"),
            ("goodput", "75%"),
        ])
    );
    // No job succeeded: no completion time; nothing held: no goodput.
    assert_eq!(
        cells(&rows[1]),
        expect(&[
            ("jobs", "0 / 1"),
            ("p50", "—"),
            ("p90", "—"),
            ("reclaim", "0"),
            ("in-share", "2"),
            ("own", "1.25"),
            ("borrowed", "0.50"),
            ("lent", "0.25"),
            ("held", "0"),
            ("goodput", "—"),
        ])
    );

    let totals = all(&root, "table.summary tfoot tr");
    assert_eq!(totals.len(), 1, "a totals row");
    assert_eq!(text(&totals[0], "th"), "All shares");
    assert_eq!(text(&totals[0], "[data-col=jobs]"), "2 / 4");
    // Each share row carries its colour swatch; the totals row has none.
    assert_eq!(all(&root, "tbody .swatch").len(), 2);
    assert_eq!(all(&root, "tfoot .swatch").len(), 0);
}

#[wasm_bindgen_test]
fn summary_table_without_shares_says_so() {
    let result = json!({"format": "quotalab-result/v1", "end_s": 0, "shares": {}, "totals": {},
                        "jobs": [], "events": [], "series": {"t_s": [], "shares": {}}});
    let root = mount(move || view! { <SummaryTable result=result /> });
    assert!(root.query_selector("table").unwrap().is_none());
    assert!(text(&root, ".empty-note").contains("no quota shares"));
}

#[wasm_bindgen_test]
fn error_box_lists_every_problem() {
    let problems = vec![
        "shares[2].borrow_limit: only LEND_AND_BORROW shares may borrow".to_string(),
        "jobs[0].work_s: must be > 0".to_string(),
        "capacity: unknown instance type ml.x".to_string(),
    ];
    let expected = problems.clone();
    let root = mount(move || view! { <ErrorBox title="Invalid scenario" problems=problems /> });
    assert_eq!(text(&root, ".error-box h2"), "Invalid scenario");
    assert_eq!(
        root.query_selector(".error-box")
            .unwrap()
            .unwrap()
            .get_attribute("role")
            .as_deref(),
        Some("alert")
    );
    let items: Vec<_> = all(&root, ".error-box li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert_eq!(items, expected);
}

#[wasm_bindgen_test]
fn invalid_scenario_gives_every_problem_as_text() {
    let problems = quotalab_app::run_scenario(
        r#"{"format": "quotalab/v1", "shares": [{"name": "", "limits": {}}], "jobs": [{"id": "a"}]}"#,
    )
    .expect_err("an invalid scenario has problems");
    assert!(
        problems.len() >= 2,
        "every problem is reported: {problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains(": ")),
        "problems name their path: {problems:?}"
    );
}

#[wasm_bindgen_test]
fn occupancy_sums_own_and_borrowed_over_types() {
    let occ = report::occupancy(&small_result());
    assert_eq!(occ.end_s, 1800.0);
    assert_eq!(occ.instance_types, 2);
    assert_eq!(occ.shares[0].name, "research");
    assert_eq!(
        occ.shares[0].points,
        [(0.0, 3.0), (600.0, 1.0), (1200.0, 0.0)]
    );
    assert_eq!(
        occ.shares[1].points,
        [(0.0, 0.0), (600.0, 3.0), (1200.0, 2.0)]
    );
    assert_eq!(occ.max_instances(), 3.0);
    assert_eq!(
        report::step_points(&occ.shares[0].points, 1800.0),
        [
            (0.0, 3.0),
            (600.0, 3.0),
            (600.0, 1.0),
            (1200.0, 1.0),
            (1200.0, 0.0),
            (1800.0, 0.0)
        ]
    );
}

fn pixels(canvas: &HtmlCanvasElement) -> Vec<u8> {
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

#[wasm_bindgen_test]
async fn occupancy_chart_draws_every_share_at_device_resolution() {
    let root = mount(|| view! { <OccupancyChart result=small_result() /> });
    settle().await;
    let canvas: HtmlCanvasElement = root
        .query_selector("canvas")
        .unwrap()
        .expect("a canvas")
        .unchecked_into();
    let dpr = web_sys::window().unwrap().device_pixel_ratio();
    assert_eq!(
        f64::from(canvas.width()),
        (f64::from(canvas.client_width()) * dpr).round()
    );
    assert_eq!(
        f64::from(canvas.height()),
        (f64::from(canvas.client_height()) * dpr).round()
    );

    let data = pixels(&canvas);
    for (i, name) in ["research", "prod"].iter().enumerate() {
        let (r, g, b) = quotalab_app::palette::rgb(i);
        let n = data
            .chunks_exact(4)
            .filter(|p| {
                u32::from(p[0].abs_diff(r))
                    + u32::from(p[1].abs_diff(g))
                    + u32::from(p[2].abs_diff(b))
                    <= 24
            })
            .count();
        assert!(n > 30, "{name}'s line is drawn ({n} pixels)");
    }
    let legend: Vec<_> = all(&root, "ul.legend li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert_eq!(legend, ["research", "prod"]);
    assert!(text(&root, "figcaption").contains("2 instance types"));
    assert!(root.query_selector(".chart-error").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn app_runs_the_aws_walkthrough_on_load() {
    let root = mount(App);
    settle().await;
    assert_eq!(text(&root, "header h1"), "Quota Lab");
    assert!(root.query_selector(".error-box").unwrap().is_none());
    let names: Vec<_> = all(&root, "table.summary tbody tr")
        .iter()
        .map(|r| r.get_attribute("data-share").unwrap())
        .collect();
    assert_eq!(names, ["background", "medium", "protected"]);
    assert!(root
        .query_selector("canvas.chart-canvas")
        .unwrap()
        .is_some());
}

#[wasm_bindgen_test]
fn panic_banner_shows_the_message() {
    quotalab_app::panic::show_banner("boom at src/x.rs:1");
    let banner = document()
        .get_element_by_id(quotalab_app::panic::BANNER_ID)
        .expect("the banner");
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    assert!(banner
        .text_content()
        .unwrap()
        .contains("boom at src/x.rs:1"));
    banner.remove();
}
