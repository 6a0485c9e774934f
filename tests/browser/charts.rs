//! Chart tests in headless Chromium on the AWS walkthrough (`www/presets/aws-walkthrough.json`):
//! every chart draws, in the shares' colours, at device resolution; the timeline draws the
//! walkthrough's markers and moves the cursor; the "state at t" panel reads the log.
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --test browser charts::`

use crate::common::{all, near, one, pixels, settle, sleep_ms};
use std::sync::Arc;

use leptos::{mount::mount_to, prelude::*};
use quotalab_app::charts::{
    allocation, AllocationChart, CompletionChart, InterruptionChart, OccupancyChart,
    DRAW_NOW_EVENT, IN_SHARE, RECLAIM,
};
use quotalab_app::results::timeline::{StateAtPanel, Timeline};
use quotalab_app::ui::palette;
use quotalab_engine::digest::{Digest, DigestLimits};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    Element, HtmlCanvasElement, HtmlElement, KeyboardEvent, KeyboardEventInit, PointerEvent,
    PointerEventInit,
};

const AWS: &str = include_str!("../../www/presets/aws-walkthrough.json");

fn aws() -> Digest {
    quotalab_engine::run_digest(AWS, DigestLimits::default()).expect("the walkthrough runs")
}

/// The walkthrough's digest keeping its first `events` events only (issue #30's capped log).
fn aws_capped(events: usize) -> Digest {
    let limits = DigestLimits {
        max_events: events,
        ..DigestLimits::default()
    };
    quotalab_engine::run_digest(AWS, limits).expect("the walkthrough runs")
}

fn mount<F, N>(f: F) -> HtmlElement
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    let div: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    // Wide enough for the charts' layout, as on a laptop screen.
    div.set_attribute("style", "width: 1000px").unwrap();
    document().body().unwrap().append_child(&div).unwrap();
    crate::common::use_local_engine();
    mount_to(div.clone(), f).forget();
    div
}

fn canvases(root: &Element, testid: &str) -> Vec<HtmlCanvasElement> {
    all(root, &format!("[data-testid={testid}] canvas"))
        .into_iter()
        .map(JsCast::unchecked_into)
        .collect()
}

/// Not blank: many pixels differ from white.
fn inked(data: &[u8]) -> usize {
    data.chunks_exact(4)
        .filter(|p| p[3] > 0 && (p[0] < 235 || p[1] < 235 || p[2] < 235))
        .count()
}

/// The backing store is the CSS box times devicePixelRatio, and something is drawn.
fn check_canvas(c: &HtmlCanvasElement, what: &str) -> Vec<u8> {
    let dpr = web_sys::window().unwrap().device_pixel_ratio();
    assert!(
        c.client_width() > 100,
        "{what}: laid out ({}px)",
        c.client_width()
    );
    assert_eq!(
        f64::from(c.width()),
        (c.get_bounding_client_rect().width() * dpr).round(),
        "{what}: backing width"
    );
    assert_eq!(
        f64::from(c.height()),
        (c.get_bounding_client_rect().height() * dpr).round(),
        "{what}: backing height"
    );
    let data = pixels(c);
    let n = inked(&data);
    assert!(n > 500, "{what}: drawn ({n} non-white pixels)");
    data
}

fn assert_colour(data: &[u8], share: usize, what: &str) {
    let n = near(data, palette::rgb(share));
    assert!(
        n > 30,
        "{what}: share {share}'s colour is used ({n} pixels)"
    );
}

fn rgb(c: plotters::style::RGBColor) -> (u8, u8, u8) {
    (c.0, c.1, c.2)
}

#[wasm_bindgen_test]
async fn allocation_panels_per_share_in_share_colours() {
    let d = Arc::new(aws());
    let root = mount(move || view! { <AllocationChart digest=d /> });
    settle().await;
    let panels = all(&root, "[data-testid=chart-allocation] .panel");
    let names: Vec<_> = panels
        .iter()
        .map(|p| p.get_attribute("data-share").unwrap())
        .collect();
    assert_eq!(names, ["background", "medium", "protected"]);
    let cs = canvases(&root, "chart-allocation");
    assert_eq!(cs.len(), 3);
    let data: Vec<Vec<u8>> = cs
        .iter()
        .enumerate()
        .map(|(i, c)| check_canvas(c, &format!("allocation panel {i}")))
        .collect();
    // background and medium use instances (own usage in their colour); protected never does.
    assert_colour(&data[0], 0, "background panel");
    assert_colour(&data[1], 1, "medium panel");
    assert_eq!(near(&data[2], palette::rgb(2)), 0, "protected used nothing");
    assert_eq!(
        near(&data[0], palette::rgb(1)),
        0,
        "no other share's colour"
    );
    let captions: Vec<_> = all(&root, ".panel-caption")
        .iter()
        .map(|p| p.text_content().unwrap())
        .collect();
    assert_eq!(
        captions,
        [
            "entitled 1, used 0–2, borrowed up to 1",
            "entitled 1, used 0–1, lent up to 1",
            "entitled 1, used 0",
        ]
    );
    assert!(root.query_selector(".chart-error").unwrap().is_none());
}

#[wasm_bindgen_test]
fn allocation_caption_reads_the_series() {
    let d = aws();
    let s = allocation::panel_summary(&d.series[0]);
    assert_eq!(s.limit, (1.0, 1.0));
    assert_eq!(s.used, (0.0, 2.0));
    assert_eq!(s.queued_max, 2.0);
}

#[wasm_bindgen_test]
async fn occupancy_stacks_shares_under_capacity() {
    let d = Arc::new(aws());
    let root = mount(move || view! { <OccupancyChart digest=d /> });
    settle().await;
    let cs = canvases(&root, "chart-occupancy");
    assert_eq!(cs.len(), 1, "one instance type");
    let data = check_canvas(&cs[0], "occupancy");
    assert_colour(&data, 0, "occupancy");
    assert_colour(&data, 1, "occupancy");
    let legend: Vec<_> = all(&root, "ul.share-legend li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert_eq!(legend, ["background", "medium", "protected"]);
}

#[wasm_bindgen_test]
async fn completion_cdf_per_share() {
    let d = Arc::new(aws());
    let times = quotalab_app::charts::completion::completion_times(&d);
    assert_eq!(
        times[0],
        [420.0, 660.0, 720.0],
        "background: submit to success"
    );
    assert_eq!(times[1], [300.0]);
    assert!(times[2].is_empty());
    let root = mount(move || view! { <CompletionChart digest=d /> });
    settle().await;
    let cs = canvases(&root, "chart-completion");
    let data = check_canvas(&cs[0], "completion");
    assert_colour(&data, 0, "completion");
    assert_colour(&data, 1, "completion");
    let legend: Vec<_> = all(&root, "ul.share-legend li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert!(legend[0].contains("p50 11 min"), "{legend:?}");
    assert!(legend[2].contains("no job succeeded"), "{legend:?}");
}

#[wasm_bindgen_test]
async fn interruption_bars_with_counts() {
    let d = Arc::new(aws());
    assert_eq!(
        quotalab_app::charts::interruption::counts_label(&d.shares[0], false),
        "1 reclaim · 1 in-share"
    );
    let root = mount(move || view! { <InterruptionChart digest=d /> });
    settle().await;
    let cs = canvases(&root, "chart-interruption");
    let data = check_canvas(&cs[0], "interruption");
    assert_colour(&data, 0, "interruption (background lost work)");
    assert_eq!(near(&data, palette::rgb(1)), 0, "medium lost nothing");
}

fn pointer(kind: &str, x: f64, y: f64) -> PointerEvent {
    let init = PointerEventInit::new();
    init.set_bubbles(true);
    init.set_client_x(x as i32);
    init.set_client_y(y as i32);
    init.set_button(0);
    init.set_buttons(1);
    init.set_pointer_id(1);
    PointerEvent::new_with_event_init_dict(kind, &init).unwrap()
}

fn key(name: &str) -> KeyboardEvent {
    let init = KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_key(name);
    KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()
}

/// Issue #34: in the Kueue model the timeline's caption speaks of workloads.
#[wasm_bindgen_test]
async fn the_kueue_timeline_says_workloads() {
    let text = include_str!("../../www/presets/kueue-three-queues.json");
    let d = Arc::new(quotalab_engine::run_digest(text, DigestLimits::default()).unwrap());
    let cursor = RwSignal::new(None::<f64>);
    let root = mount(move || view! { <Timeline digest=d cursor=cursor /> });
    settle().await;
    let caption = all(&root, "[data-testid=chart-timeline] figcaption")
        .first()
        .map(crate::common::text)
        .unwrap_or_default();
    assert!(
        caption.starts_with("Each workload over time, coloured by ClusterQueue"),
        "{caption}"
    );
}

#[wasm_bindgen_test]
async fn timeline_draws_markers_and_moves_the_cursor() {
    let d = Arc::new(aws());
    let cursor = RwSignal::new(None::<f64>);
    let root = mount(move || view! { <Timeline digest=d cursor=cursor /> });
    settle().await;
    let cs = canvases(&root, "chart-timeline");
    let data = check_canvas(&cs[0], "timeline");
    assert_colour(&data, 0, "timeline");
    assert_colour(&data, 1, "timeline");
    assert!(near(&data, rgb(RECLAIM)) > 10, "a reclaim marker");
    assert!(near(&data, rgb(IN_SHARE)) > 10, "an in-share marker");

    // A click in the middle of the plot sets the cursor to about the middle of the run.
    let c = &cs[0];
    let rect = c.get_bounding_client_rect();
    c.dispatch_event(&pointer(
        "pointerdown",
        rect.left() + rect.width() * 0.55,
        rect.top() + rect.height() / 2.0,
    ))
    .unwrap();
    settle().await;
    let t = cursor.get_untracked().expect("the click set the cursor");
    assert!(t > 200.0 && t < 600.0, "cursor at {t}");
    assert!(
        root.query_selector(".cursor-line").unwrap().is_some(),
        "the cursor is drawn"
    );
    assert!(root
        .query_selector("[data-testid=state-at] .state-title")
        .unwrap()
        .is_some());

    // Arrow keys step through the times of events.
    cursor.set(None);
    for _ in 0..3 {
        c.dispatch_event(&key("ArrowRight")).unwrap();
    }
    assert_eq!(cursor.get_untracked(), Some(120.0), "0, 60, then 120 s");
    c.dispatch_event(&key("ArrowLeft")).unwrap();
    assert_eq!(cursor.get_untracked(), Some(60.0));
    c.dispatch_event(&key("End")).unwrap();
    assert_eq!(cursor.get_untracked(), Some(720.0));
    // For assistive technology the timeline is a slider over the run's time.
    settle().await;
    assert_eq!(c.get_attribute("role").as_deref(), Some("slider"));
    assert_eq!(c.get_attribute("aria-valuemax").as_deref(), Some("720"));
    assert_eq!(c.get_attribute("aria-valuenow").as_deref(), Some("720"));
    assert_eq!(
        c.get_attribute("aria-valuetext").as_deref(),
        Some("t = 12 min")
    );
}

fn items(root: &Element, selector: &str) -> Vec<(String, String)> {
    all(root, selector)
        .iter()
        .map(|li| {
            (
                li.get_attribute("data-job").unwrap_or_default(),
                li.get_attribute("data-reason")
                    .or_else(|| li.get_attribute("data-state"))
                    .unwrap_or_default(),
            )
        })
        .collect()
}

#[wasm_bindgen_test]
async fn state_at_90_s_lists_holders_and_waiters() {
    let d = Arc::new(aws());
    let cursor = RwSignal::new(Some(90.0));
    let root = mount(move || view! { <StateAtPanel digest=d cursor=cursor /> });
    settle().await;
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        items(&root, "ul.holding li[data-job]"),
        [pair("bg-p3", "RUNNING"), pair("med-1", "RUNNING")]
    );
    assert_eq!(
        items(&root, "ul.waiting li[data-job]"),
        [
            pair("bg-p2", "no_lendable_capacity"),
            pair("bg-p1", "no_lendable_capacity")
        ]
    );
    let why = all(&root, "ul.waiting li .why")[0].text_content().unwrap();
    assert!(why.contains("no idle ml.g5.xlarge capacity"), "{why}");
    let title = root
        .query_selector(".state-title")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert_eq!(title, "State at 1 min 30 s");
    // Counts per share: background holds 1 job and 1 instance, 2 wait; medium holds 1.
    let counts: Vec<Vec<String>> = all(&root, "table.state-counts tbody tr")
        .iter()
        .map(|tr| {
            all(tr, "td")
                .iter()
                .map(|td| td.text_content().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(counts[0], ["1", "1", "0", "2"]);
    assert_eq!(counts[1], ["1", "1", "0", "0"]);
    assert_eq!(counts[2], ["0", "0", "0", "0"]);

    // Moving the cursor updates the panel: at 400 s bg-p3 runs again and bg-p2 waits alone.
    cursor.set(Some(400.0));
    settle().await;
    assert_eq!(
        items(&root, "ul.holding li[data-job]"),
        [pair("bg-p3", "RUNNING"), pair("bg-p1", "RUNNING")]
    );
    assert_eq!(
        items(&root, "ul.waiting li[data-job]"),
        [pair("bg-p2", "no_lendable_capacity")]
    );
}

// Issue #30: a capped log says where it stops; after it the panel states nothing it does
// not know (the Philly page listed 43,466 jobs waiting at 152 d, its log ending at 69 d).
#[wasm_bindgen_test]
async fn state_after_a_capped_log_is_not_made_up() {
    let d = aws_capped(10);
    let until = d.events_until_s.expect("capped at 10 events");
    let d = Arc::new(d);
    let cursor = RwSignal::new(Some(until - 1.0));
    let root = mount(move || view! { <StateAtPanel digest=d cursor=cursor /> });
    settle().await;
    assert!(root.query_selector("table.state-counts").unwrap().is_some());
    assert!(root
        .query_selector("[data-testid=state-after-log]")
        .unwrap()
        .is_none());
    cursor.set(Some(until));
    settle().await;
    assert!(root.query_selector("table.state-counts").unwrap().is_none());
    assert!(root.query_selector("ul.holding").unwrap().is_none());
    let note = root
        .query_selector("[data-testid=state-after-log]")
        .unwrap()
        .expect("the panel says the log stops")
        .text_content()
        .unwrap();
    assert!(
        note.contains("first 10 of 34 events, up to 1 min"),
        "{note}"
    );
}

// Issue #30: the timeline of a run whose log the page keeps in part is drawn from the whole
// run once an engine worker has laid it out (the Philly trace's timeline stopped at 69 d of
// 220 d); a text edited since (another run) is not drawn over the result shown.
#[wasm_bindgen_test]
async fn a_capped_run_s_timeline_is_laid_out_whole_by_the_engine() {
    let d = aws_capped(10);
    let until = d.events_until_s.expect("capped at 10 events");
    let d = Arc::new(d);
    let d_all = aws();
    let state = |root: &Element| {
        root.query_selector("[data-testid=timeline-capped]")
            .unwrap()
            .map(|n| {
                (
                    n.get_attribute("data-timeline").unwrap_or_default(),
                    n.text_content().unwrap_or_default(),
                )
            })
    };
    for (text, want) in [
        (AWS, "whole"),
        (
            include_str!("../../www/presets/recovery-not-free.json"),
            "failed",
        ),
    ] {
        let result = RwSignal::new(d.clone());
        let cursor = RwSignal::new(None::<f64>);
        let root = mount(move || {
            provide_context(quotalab_app::state::AppState::new(text.to_string()));
            view! { <Timeline digest=result cursor=cursor /> }
        });
        settle().await;
        let (asking, note) = state(&root).expect("the capped note");
        assert_eq!(asking, "asking", "{note}");
        assert!(
            note.contains("first 10 of 34 events") && note.contains("being laid out"),
            "{note}"
        );
        sleep_ms(quotalab_app::results::timeline::WHOLE_RUN_DELAY_MS as i32 + 100).await;
        settle().await;
        let (now, note) = state(&root).expect("the note");
        assert_eq!(now, want, "{note}");
        if want == "whole" {
            assert!(
                note.contains("whole run's")
                    && note.contains("first 10 of 34 events")
                    && note.contains("tells the cursor's card"),
                "{note}"
            );
            let c: HtmlCanvasElement = root
                .query_selector("canvas")
                .unwrap()
                .unwrap()
                .unchecked_into();
            check_canvas(&c, "the whole run's timeline");
        } else {
            assert!(
                note.starts_with("The page keeps the run's first 10 of 34 events, up to"),
                "{note}"
            );
        }
        // A time after the kept events: the panel reads it from the whole run the engine
        // worker keeps, the same counts as a digest of every event gives; without a whole
        // run, it says nothing is known.
        let later = (until + d_all.end_s) / 2.0;
        cursor.set(Some(later));
        settle().await;
        sleep_ms(50).await;
        settle().await;
        let panel = one(&root, "[data-testid=state-at]");
        if want == "whole" {
            let note = one(&panel, "[data-testid=state-from-whole-run]")
                .text_content()
                .unwrap();
            assert!(note.contains("read from the whole run"), "{note}");
            let want_counts =
                quotalab_app::results::timeline::share_counts(&d_all, &d_all.state_at(later));
            let shown: Vec<[u64; 4]> = all(&panel, "table.state-counts tbody tr")
                .iter()
                .map(|tr| {
                    let n = |col: &str| {
                        one(tr, &format!("[data-col={col}]"))
                            .text_content()
                            .unwrap()
                            .parse::<u64>()
                            .unwrap()
                    };
                    [n("holding"), n("instances"), n("admitted"), n("waiting")]
                })
                .collect();
            assert_eq!(shown, want_counts, "the whole run's counts at {later}");
            assert!(want_counts.iter().any(|c| c.iter().any(|&n| n > 0)));
            // A newer result (the same run, another digest) is drawn from its kept events
            // until its own whole run lands: the note does not say "whole" meanwhile, not
            // even while the chart is out of view (it asks once it comes into view).
            root.set_attribute("style", "width: 1000px; margin-top: 6000px")
                .unwrap();
            web_sys::window().unwrap().scroll_to_with_x_and_y(0.0, 0.0);
            // The chart's observer reports it out of view a frame or more later.
            sleep_ms(100).await;
            settle().await;
            result.set(Arc::new((*d).clone()));
            settle().await;
            let (now, note) = state(&root).expect("the note");
            assert_eq!(now, "kept", "{note}");
            root.scroll_into_view();
            settle().await;
            sleep_ms(quotalab_app::results::timeline::WHOLE_RUN_DELAY_MS as i32 + 100).await;
            settle().await;
            assert_eq!(state(&root).expect("the note").0, "whole");
        } else {
            one(&panel, "[data-testid=state-after-log]");
            assert!(panel
                .query_selector("table.state-counts")
                .unwrap()
                .is_none());
        }
        root.remove();
    }
}

#[wasm_bindgen_test]
async fn one_colour_per_share_everywhere() {
    // The summary swatches and every chart legend give share i the palette's colour i.
    let d = Arc::new(aws());
    let cursor = RwSignal::new(None::<f64>);
    let root = mount(move || {
        view! { <quotalab_app::results::RunResults digest=d cursor=cursor /> }
    });
    settle().await;
    let swatches = all(&root, ".swatch");
    assert!(swatches.len() >= 12, "{} swatches", swatches.len());
    for s in swatches {
        let style = s.get_attribute("style").unwrap_or_default();
        let share = s
            .closest("[data-share]")
            .unwrap()
            .and_then(|e| e.get_attribute("data-share"));
        let Some(share) = share else { continue };
        let i = ["background", "medium", "protected"]
            .iter()
            .position(|n| *n == share)
            .unwrap_or_else(|| panic!("unknown share {share}"));
        let (r, g, b) = palette::rgb(i);
        assert!(
            style.contains(&format!("rgb({r}, {g}, {b})")),
            "{share}'s swatch: {style}"
        );
    }
}

/// A chart far below the viewport does not redraw when its data changes (a large result
/// redraws only what can be seen): it says it owes a drawing, catches up at once when an
/// export asks ([`DRAW_NOW_EVENT`]), and by itself when it comes into view.
#[wasm_bindgen_test]
async fn a_chart_out_of_view_waits_and_catches_up() {
    let aws = Arc::new(aws());
    let pooled = Arc::new(
        quotalab_engine::run_digest(
            quotalab_app::io::presets::POOLED.inline().unwrap(),
            DigestLimits::default(),
        )
        .unwrap(),
    );
    let digest = RwSignal::new(aws.clone());
    let root = mount(move || {
        view! { <div style="margin-top: 20000px"><CompletionChart digest=digest /></div> }
    });
    settle().await;
    let canvas = canvases(&root, "chart-completion").remove(0);
    let first = pixels(&canvas);
    assert!(inked(&first) > 1000, "drawn once mounted, wherever it is");
    // The observer's first report comes with a frame.
    sleep_ms(100).await;

    digest.set(pooled.clone());
    settle().await;
    assert!(
        canvas.has_attribute("data-pending"),
        "out of view: not redrawn"
    );
    assert_eq!(pixels(&canvas), first);

    canvas
        .dispatch_event(&web_sys::Event::new(DRAW_NOW_EVENT).unwrap())
        .unwrap();
    assert!(!canvas.has_attribute("data-pending"), "caught up at once");
    let second = pixels(&canvas);
    assert_ne!(second, first, "drawn with the new data");
    // Asking again with nothing owed draws nothing (no cost).
    canvas
        .dispatch_event(&web_sys::Event::new(DRAW_NOW_EVENT).unwrap())
        .unwrap();
    settle().await;
    assert!(!canvas.has_attribute("data-pending"));
    assert_eq!(pixels(&canvas), second);

    digest.set(aws);
    settle().await;
    assert!(canvas.has_attribute("data-pending"));
    canvas.scroll_into_view();
    let mut waited = 0;
    while canvas.has_attribute("data-pending") && waited < 3000 {
        sleep_ms(20).await;
        waited += 20;
    }
    assert!(!canvas.has_attribute("data-pending"), "drawn once in view");
    assert_eq!(pixels(&canvas), first, "the walkthrough again");
    root.remove();
}
