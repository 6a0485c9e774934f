//! Component tests in headless Chromium (wasm-bindgen-test):
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --tests`

use crate::common::{all, mount, near, pixels, settle, sleep_ms};
use std::sync::Arc;

use leptos::prelude::*;
use quotalab_app::{
    charts::{occupancy, OccupancyChart},
    results::summary::SummaryTable,
    state::{AppState, RunStatus},
    ui::problems::ErrorBox,
    App,
};
use quotalab_engine::digest::{Digest, Pct, SeriesRow, ShareMetrics};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlCanvasElement};

fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .text_content()
        .unwrap_or_default()
        .trim()
        .to_string()
}

fn pct(n: u64, p50: f64, p90: f64) -> Pct {
    Pct {
        n,
        mean: p50,
        p50,
        p90,
        p99: p90,
        max: p90,
    }
}

fn share(
    name: &str,
    submitted: u64,
    succeeded: u64,
    p50: f64,
    p90: f64,
    held: f64,
) -> ShareMetrics {
    ShareMetrics {
        name: name.into(),
        submitted,
        succeeded,
        failed: 0,
        unfinished: submitted - succeeded,
        completion_s: pct(succeeded, p50, p90),
        wait_s: pct(succeeded, 30.0, 60.0),
        reclaim: 1,
        in_share: 2,
        entitled_h: 1.0,
        own_h: 1.25,
        borrowed_h: 0.5,
        lent_h: 0.25,
        held_h: held,
        useful_h: held * 0.75,
        lost_h: held * 0.25,
        goodput: 0.75,
        cost_usd: 2.5,
        deadline_misses: 1,
        ..ShareMetrics::default()
    }
}

fn series(share: u16, ty: u16, own: [f64; 3], borrowed: [f64; 3]) -> SeriesRow {
    SeriesRow {
        share,
        instance_type: ty,
        t_s: vec![0.0, 600.0, 1200.0],
        limit: vec![1.0; 3],
        own: own.to_vec(),
        borrowed: borrowed.to_vec(),
        lent: vec![0.0; 3],
        queued: vec![0.0; 3],
        borrowed_peak: borrowed.iter().copied().fold(0.0, f64::max),
        peak: Vec::new(),
        used: (0..3).fold((f64::INFINITY, 0.0), |(lo, hi), i| {
            let u = own[i] + borrowed[i];
            (lo.min(u), hi.max(u))
        }),
    }
}

/// A small hand-written digest with two shares, totals and series over two instance types.
fn small_digest() -> Digest {
    Digest {
        name: "small".into(),
        end_s: 1800.0,
        shares: vec![
            share("research", 3, 2, 300.0, 5400.0, 2.0),
            share("prod", 1, 0, 0.0, 0.0, 0.0),
        ],
        totals: share("total", 4, 2, 300.0, 5400.0, 2.0),
        instance_types: vec!["ml.g5.xlarge".into(), "ml.g5.2xlarge".into()],
        capacity: vec![4, 2],
        priced: true,
        series: vec![
            series(0, 0, [1.0, 1.0, 0.0], [2.0, 0.0, 0.0]),
            series(1, 0, [0.0, 2.0, 1.0], [0.0, 0.0, 0.0]),
            series(1, 1, [0.0, 1.0, 1.0], [0.0, 0.0, 0.0]),
        ],
        series_points: 3,
        ..Digest::default()
    }
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

fn expect(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[wasm_bindgen_test]
fn summary_table_has_one_row_per_share_with_its_numbers() {
    let root = mount(|| view! { <SummaryTable digest=Arc::new(small_digest()) /> });
    assert!(root
        .query_selector("table.summary[data-testid=summary-table]")
        .unwrap()
        .is_some());
    let rows = all(&root, "[data-testid=summary-row]");
    let names: Vec<_> = rows
        .iter()
        .map(|r| r.get_attribute("data-share").unwrap())
        .collect();
    assert_eq!(names, ["research", "prod"], "one row per share, in order");
    assert_eq!(text(&rows[0], "th"), "research");
    assert_eq!(
        cells(&rows[0]),
        expect(&[
            ("jobs", "2 / 3"),
            ("failed", "0"),
            ("unfinished", "1"),
            ("p50", "5.0 min"),
            ("p90", "1.5 h"),
            ("wait-p50", "30 s"),
            ("reclaim", "1"),
            ("in-share", "2"),
            ("entitled", "1.00"),
            ("own", "1.25"),
            ("borrowed", "0.50"),
            ("lent", "0.25"),
            ("held", "2.00"),
            ("lost", "0.50"),
            ("goodput", "75%"),
            ("cost", "$2.50"),
            ("reserved", "$0.00"),
            ("deadline-misses", "1"),
        ])
    );
    // No job succeeded or started: no completion or wait time; nothing held: no goodput.
    let prod = cells(&rows[1]);
    for col in ["p50", "p90", "wait-p50", "goodput"] {
        let v = &prod.iter().find(|(c, _)| c == col).unwrap().1;
        assert_eq!(v, "—", "{col} of a share without data");
    }

    let totals = all(&root, "table.summary tfoot tr");
    assert_eq!(totals.len(), 1, "a totals row");
    assert_eq!(text(&totals[0], "th"), "All shares");
    assert_eq!(text(&totals[0], "[data-col=jobs]"), "2 / 4");
    assert!(totals[0].get_attribute("data-testid").is_none());
    // Each share row carries its palette colour; the totals row has none.
    let swatches = all(&root, "tbody .swatch");
    assert_eq!(swatches.len(), 2);
    for (i, s) in swatches.iter().enumerate() {
        let style = s.get_attribute("style").unwrap_or_default();
        let (r, g, b) = quotalab_app::ui::palette::rgb(i);
        assert!(
            style.contains(&format!("rgb({r}, {g}, {b})"))
                || style.contains(&quotalab_app::ui::palette::css(i)),
            "swatch {i}: {style}"
        );
    }
    assert_eq!(all(&root, "tfoot .swatch").len(), 0);
    assert!(text(&root, ".table-note").contains("Cost: held is what"));
}

/// Issue #34: without any price (an imported configuration's flavors), no "$0.00" as if
/// the instances were free: the cost columns are left out and a note says no price is set.
#[wasm_bindgen_test]
fn summary_table_without_prices_says_so_instead_of_zero_dollars() {
    let mut d = small_digest();
    d.priced = false;
    let root = mount(move || view! { <SummaryTable digest=Arc::new(d) /> });
    assert!(root.query_selector("[data-col=cost]").unwrap().is_none());
    assert!(root
        .query_selector("[data-col=reserved]")
        .unwrap()
        .is_none());
    assert!(!root.text_content().unwrap_or_default().contains("$0.00"));
    // Nor the note's sentence about the cost columns left out.
    assert!(!root
        .text_content()
        .unwrap_or_default()
        .contains("Cost: held"));
    assert_eq!(
        text(&root, "[data-testid=summary-no-price]"),
        "No price set: no instance type has a USD per hour, so no cost is shown."
    );
    // Every header still sits over its column.
    let heads: u32 = all(&root, "thead tr:first-child th")
        .iter()
        .map(|th| {
            th.get_attribute("colspan")
                .map_or(1, |c| c.parse().unwrap())
        })
        .sum();
    let row = &all(&root, "[data-testid=summary-row]")[0];
    assert_eq!(heads as usize, 1 + all(row, "td").len());
}

#[wasm_bindgen_test]
fn summary_table_without_shares_says_so() {
    let mut d = small_digest();
    d.shares.clear();
    let root = mount(move || view! { <SummaryTable digest=Arc::new(d) /> });
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
fn invalid_scenario_gives_every_problem_with_its_path() {
    let problems = quotalab_engine::load(
        r#"{"format": "quotalab/v1", "shares": [{"name": "", "limits": {}}], "jobs": [{"id": "a"}]}"#,
    )
    .expect_err("an invalid scenario has problems");
    let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(lines.len() >= 2, "every problem is reported: {lines:?}");
    assert!(
        lines.iter().any(|p| p.contains(": ")),
        "problems name their path: {lines:?}"
    );
}

#[wasm_bindgen_test]
fn occupancy_stacks_own_and_borrowed_per_type() {
    let d = small_digest();
    let s = occupancy::stack(&d, 0);
    assert_eq!(s.capacity, 4.0);
    assert_eq!(s.t_s, [0.0, 600.0, 1200.0]);
    assert_eq!(s.layers.len(), 2);
    assert_eq!(s.layers[0], (0, vec![0.0; 3], vec![3.0, 1.0, 0.0]));
    assert_eq!(s.layers[1], (1, vec![3.0, 1.0, 0.0], vec![3.0, 3.0, 1.0]));
    assert_eq!(s.peak(), 3.0);
    let other = occupancy::stack(&d, 1);
    assert_eq!(other.capacity, 2.0);
    assert_eq!(other.layers.len(), 1, "only prod has ml.g5.2xlarge");
}

#[wasm_bindgen_test]
async fn occupancy_chart_draws_every_share_at_device_resolution() {
    let root = mount(|| view! { <OccupancyChart digest=Arc::new(small_digest()) /> });
    settle().await;
    let canvases: Vec<HtmlCanvasElement> = all(&root, "[data-testid=chart-occupancy] canvas")
        .into_iter()
        .map(JsCast::unchecked_into)
        .collect();
    assert_eq!(canvases.len(), 2, "one chart per instance type");
    let dpr = web_sys::window().unwrap().device_pixel_ratio();
    for canvas in &canvases {
        assert_eq!(
            f64::from(canvas.width()),
            (canvas.get_bounding_client_rect().width() * dpr).round()
        );
        assert_eq!(
            f64::from(canvas.height()),
            (canvas.get_bounding_client_rect().height() * dpr).round()
        );
    }
    let first = pixels(&canvases[0]);
    for (i, name) in ["research", "prod"].iter().enumerate() {
        let n = near(&first, quotalab_app::ui::palette::rgb(i));
        assert!(n > 30, "{name}'s area is drawn ({n} pixels)");
    }
    assert_eq!(
        near(&pixels(&canvases[1]), quotalab_app::ui::palette::rgb(0)),
        0,
        "research uses no ml.g5.2xlarge"
    );
    let legend: Vec<_> = all(&root, "ul.share-legend li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert_eq!(legend, ["research", "prod"]);
    let titles: Vec<_> = all(&root, ".occupancy-type .panel-title")
        .iter()
        .map(|h| h.text_content().unwrap())
        .collect();
    assert_eq!(titles, ["ml.g5.xlarge", "ml.g5.2xlarge"]);
    assert!(root.query_selector(".chart-error").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn app_runs_the_aws_walkthrough_on_load() {
    let root = mount(App);
    settle().await;
    // A run that takes a while (this unoptimised test build) is drawn in a task of its own.
    for _ in 0..200 {
        if !all(&root, "[data-testid=summary-row]").is_empty() {
            break;
        }
        sleep_ms(10).await;
    }
    assert_eq!(text(&root, "header h1"), "Quota Lab");
    assert!(root.query_selector(".error-box").unwrap().is_none());
    let names: Vec<_> = all(&root, "[data-testid=summary-row]")
        .iter()
        .map(|r| r.get_attribute("data-share").unwrap())
        .collect();
    assert_eq!(names, ["background", "medium", "protected"]);
    for id in [
        "chart-allocation",
        "chart-occupancy",
        "chart-completion",
        "chart-interruption",
        "chart-timeline",
    ] {
        assert!(
            root.query_selector(&format!("[data-testid={id}] canvas"))
                .unwrap()
                .is_some(),
            "{id} has a canvas"
        );
    }
}

#[wasm_bindgen_test]
fn panic_banner_shows_the_message() {
    quotalab_app::ui::panic::show_banner("boom at src/x.rs:1");
    let banner = document()
        .get_element_by_id(quotalab_app::ui::panic::BANNER_ID)
        .expect("the banner");
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    assert!(banner
        .text_content()
        .unwrap()
        .contains("boom at src/x.rs:1"));
    banner.remove();
}

/// A page run that took a while is drawn in a task of its own; a quicker, newer run drawn in
/// the meantime is never replaced by it (the last edit wins), and the older one counts as
/// superseded.
#[wasm_bindgen_test]
async fn a_slow_page_run_drawn_later_never_replaces_a_newer_result() {
    let research = quotalab_app::io::presets::RESEARCH_ORG.inline().unwrap();
    let aws = quotalab_app::io::presets::AWS_WALKTHROUGH_JSON;
    let owner = Owner::new();
    owner.set();
    let app = AppState::new(aws.to_string());
    app.run_now(research); // 5,000 jobs: on the page, well over 8 ms, drawn later
    assert!(
        app.outcome.get_untracked().is_none(),
        "not drawn in the same task as the simulation"
    );
    app.run_now(aws); // 4 jobs: drawn at once
    let shown = |app: AppState| app.outcome.get_untracked().map(|o| o.digest.name.clone());
    assert_eq!(shown(app).as_deref(), Some("AWS walkthrough"));
    sleep_ms(50).await;
    assert_eq!(
        shown(app).as_deref(),
        Some("AWS walkthrough"),
        "the older, slower run did not replace it"
    );
    let stats = app.run_stats.get_untracked();
    assert_eq!((stats.started, stats.finished, stats.superseded), (2, 1, 1));
}

/// The run status is one value: a fresh page waits for its first run, a valid run makes the
/// result current, an invalid text keeps the last good result (stale, with its problems), a
/// failure or a cancellation stays through edits until the next run, and the next valid run
/// makes the result current again.
#[wasm_bindgen_test]
async fn the_run_status_follows_the_runs() {
    // Alone or after other tests: mounting installs the in-process engine and starts the
    // executor, and a run that takes long is drawn in a task of its own, so each run is
    // settled before its status is read.
    mount(|| ());
    let aws = quotalab_app::io::presets::AWS_WALKTHROUGH_JSON;
    let owner = Owner::new();
    owner.set();
    let app = AppState::new(aws.to_string());
    assert_eq!(app.status.get_untracked(), RunStatus::Pending);
    assert!(app.stale.get_untracked());
    app.run_now(aws);
    settle().await;
    assert_eq!(app.status.get_untracked(), RunStatus::Current);
    assert!(!app.stale.get_untracked());
    assert_eq!(app.status.get_untracked().stale_note(), "");

    app.run_now(r#"{"format": "quotalab/v1", "shares": []}"#);
    settle().await;
    assert_eq!(app.status.get_untracked(), RunStatus::Invalid);
    assert!(app.stale.get_untracked());
    assert!(!app.problems.get_untracked().is_empty());
    let shown = app.outcome.get_untracked().map(|o| o.digest.name.clone());
    assert_eq!(
        shown.as_deref(),
        Some("AWS walkthrough"),
        "the last good result stays"
    );

    app.run_now(aws);
    settle().await;
    assert_eq!(app.status.get_untracked(), RunStatus::Current);
    assert!(app.problems.get_untracked().is_empty());

    // An edit marks a current result pending, but leaves a failure (or a cancellation) shown.
    app.stale.set(true);
    assert_eq!(app.status.get_untracked(), RunStatus::Pending);
    app.status
        .set(RunStatus::Failed("the worker stopped".into()));
    app.stale.set(true);
    assert_eq!(
        app.status.get_untracked().error(),
        Some("the worker stopped")
    );
    assert_eq!(app.stale_note(), " (the last run failed)");
    app.status.set(RunStatus::Cancelled);
    app.stale.set(true);
    assert_eq!(app.status.get_untracked(), RunStatus::Cancelled);
    assert!(app.stale_note().contains("cancelled"));
    app.run_now(aws);
    settle().await;
    assert_eq!(app.status.get_untracked(), RunStatus::Current);
}

/// Without the loader's compiled module (as here) no worker can start: once the first result
/// is up and the worker would have been started, the page says so (`data-worker="off"`, which
/// the end-to-end tests wait for as they do for `ready`), and a large scenario runs on the
/// page.
#[wasm_bindgen_test]
async fn the_worker_state_is_shown_and_off_without_a_loader() {
    let root = mount(App);
    settle().await;
    let worker = |root: &Element| {
        root.query_selector("[data-testid=run-progress]")
            .unwrap()
            .expect("the run progress line")
            .get_attribute("data-worker")
            .unwrap_or_default()
    };
    assert_eq!(worker(&root), "idle", "not started before the first result");
    for _ in 0..300 {
        if worker(&root) != "idle" {
            break;
        }
        sleep_ms(10).await;
    }
    assert_eq!(worker(&root), "off");
    root.remove();
}

/// A dialog gives the focus back to the button that opened it, but only after the page is
/// drawn: the browser's own give-back, inside `close()`, works out the whole page's style in
/// that task (10-50 ms: issue #30). Escape (the browser closing it) gives it back too.
#[wasm_bindgen_test]
async fn a_dialog_gives_the_focus_back_after_the_page_is_drawn() {
    use leptos::html;
    use quotalab_app::io::dialog;
    let node = NodeRef::<html::Dialog>::new();
    let root = mount(move || {
        view! {
            <button data-testid="opener" on:click=move |_| dialog::open(node)>"Open"</button>
            <dialog node_ref=node><button>"Inside"</button></dialog>
        }
    });
    settle().await;
    let opener: web_sys::HtmlElement = root
        .query_selector("[data-testid=opener]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let focused = || document().active_element();
    for browser_closes in [false, true] {
        opener.focus().unwrap();
        opener.click();
        let d = node.get_untracked().expect("the dialog");
        assert!(d.open());
        assert_eq!(
            focused().and_then(|e| e.text_content()).as_deref(),
            Some("Inside"),
            "the modal has the focus"
        );
        if browser_closes {
            // What Escape does: the browser closes the dialog itself.
            d.close();
        } else {
            dialog::close(node);
        }
        assert!(
            !focused().is_some_and(|e| e.is_same_node(Some(&opener))),
            "the focus is not given back inside close()"
        );
        sleep_ms(200).await;
        assert!(
            focused().is_some_and(|e| e.is_same_node(Some(&opener))),
            "the opener has the focus again (browser closes: {browser_closes})"
        );
    }
    root.remove();
}
