//! The time cursor: a click on a chart over time shows the state at that
//! time beside the click (`charts::CursorCard`, provided by the results); the timeline uses
//! its card's whole width and the "state at t" table fits its panel (with the page's
//! stylesheet); a multi-day run tells its times in days on the axes, on the slider and in
//! the panel alike.

use crate::common::{all, mount, one, settle, sleep_ms};
use std::sync::Arc;

use leptos::prelude::*;
use quotalab_app::charts::{AllocationChart, OccupancyChart};
use quotalab_app::results::timeline::{cursor_card, Timeline};
use quotalab_engine::digest::{Digest, DigestLimits};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    Element, HtmlElement, KeyboardEvent, KeyboardEventInit, PointerEvent, PointerEventInit,
};

const AWS: &str = include_str!("../../www/presets/aws-walkthrough.json");

/// Jobs arriving over five days: the charts' time axes are in days.
const DAYS: &str = r#"{
  "format": "quotalab/v1", "name": "days", "seed": 5,
  "capacity": {"ml.g5.xlarge": 4},
  "shares": [
    {"name": "a", "limits": {"ml.g5.xlarge": 2}, "strategy": "LEND_AND_BORROW"},
    {"name": "b", "limits": {"ml.g5.xlarge": 2}, "strategy": "LEND_AND_BORROW"}
  ],
  "jobs": [],
  "workloads": [
    {"share": "a", "count": 30, "arrival": {"uniform": [0, 432000]}, "instance_type": "ml.g5.xlarge", "work_s": {"exponential": {"mean": 20000}}},
    {"share": "b", "count": 30, "arrival": {"uniform": [0, 432000]}, "instance_type": "ml.g5.xlarge", "work_s": {"exponential": {"mean": 20000}}}
  ]
}"#;

fn digest(text: &str) -> Arc<Digest> {
    Arc::new(quotalab_engine::run_digest(text, DigestLimits::default()).expect("a valid scenario"))
}

/// The page's stylesheet, once per test page.
fn page_style() {
    if document().get_element_by_id("quotalab-style").is_some() {
        return;
    }
    let style = document().create_element("style").unwrap();
    style.set_id("quotalab-style");
    style.set_text_content(Some(include_str!("../../www/style.css")));
    document().head().unwrap().append_child(&style).unwrap();
}

fn down_at(canvas: &Element, fx: f64) {
    let r = canvas.get_bounding_client_rect();
    let init = PointerEventInit::new();
    init.set_bubbles(true);
    init.set_client_x((r.left() + r.width() * fx) as i32);
    init.set_client_y((r.top() + r.height() / 2.0) as i32);
    init.set_button(0);
    init.set_buttons(1);
    init.set_pointer_id(1);
    canvas
        .dispatch_event(&PointerEvent::new_with_event_init_dict("pointerdown", &init).unwrap())
        .unwrap();
}

fn key(el: &Element, name: &str) {
    let init = KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_key(name);
    el.dispatch_event(&KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap())
        .unwrap();
}

fn text(root: &Element, selector: &str) -> String {
    one(root, selector)
        .text_content()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// The charts over time and the timeline, with the card as the results provide it.
fn results(d: Arc<Digest>, cursor: RwSignal<Option<f64>>) -> HtmlElement {
    mount(move || {
        let digest = Signal::derive(move || d.clone());
        provide_context(cursor_card(digest, cursor, Default::default()));
        view! {
            <div style="width: 1000px">
                <AllocationChart digest=digest cursor=cursor />
                <OccupancyChart digest=digest cursor=cursor />
                <Timeline digest=digest cursor=cursor />
            </div>
        }
    })
}

#[wasm_bindgen_test]
async fn a_click_shows_the_state_beside_the_clicked_chart() {
    page_style();
    let cursor = RwSignal::new(None::<f64>);
    let root = results(digest(AWS), cursor);
    settle().await;
    assert!(
        all(&root, "[data-testid=cursor-card]").is_empty(),
        "no card before a click"
    );

    let alloc = one(&root, "[data-testid=chart-allocation] canvas");
    down_at(&alloc, 0.3);
    settle().await;
    assert!(cursor.get_untracked().is_some());
    let cards = all(&root, "[data-testid=cursor-card]");
    assert_eq!(cards.len(), 1, "one card");
    let card = &cards[0];
    assert!(
        card.closest("[data-testid=chart-allocation]")
            .unwrap()
            .is_some(),
        "on the clicked chart"
    );
    // Beside the cursor, in the chart's box.
    let (cr, pr) = (
        card.get_bounding_client_rect(),
        card.parent_element().unwrap().get_bounding_client_rect(),
    );
    assert!(cr.top() >= pr.top() && cr.left() >= pr.left() - 0.5 && cr.right() <= pr.right() + 0.5);
    let title = text(card, ".cursor-card-title");
    assert!(title.starts_with("State at "), "{title}");
    assert_eq!(title, text(&root, "[data-testid=state-at] .state-title"));
    assert_eq!(
        all(card, "table.state-counts tbody tr").len(),
        3,
        "a row per share"
    );
    assert_eq!(
        all(card, "td[data-col=waiting]").len(),
        3,
        "with the wait column"
    );

    // A click on another chart moves the card there.
    let timeline = one(&root, "[data-testid=chart-timeline] canvas");
    down_at(&timeline, 0.7);
    settle().await;
    let cards = all(&root, "[data-testid=cursor-card]");
    assert_eq!(cards.len(), 1);
    assert!(cards[0]
        .closest("[data-testid=chart-timeline]")
        .unwrap()
        .is_some());

    // Arrow keys on a chart bring the card to it too, and follow the cursor's time.
    let occ = one(&root, "[data-testid=chart-occupancy] canvas");
    key(&occ, "Home");
    settle().await;
    // (The occupancy chart is not a slider: keys do nothing there.)
    assert!(cards[0]
        .closest("[data-testid=chart-timeline]")
        .unwrap()
        .is_some());
    key(&timeline, "Home");
    key(&timeline, "ArrowRight");
    settle().await;
    assert_eq!(
        text(&root, "[data-testid=cursor-card] .cursor-card-title"),
        "State at 1 min"
    );

    // Close hides the card and keeps the cursor; Escape on the chart clears both.
    one(&root, "[data-testid=cursor-card] .cursor-card-close")
        .unchecked_ref::<HtmlElement>()
        .click();
    settle().await;
    assert!(all(&root, "[data-testid=cursor-card]").is_empty(), "closed");
    assert_eq!(cursor.get_untracked(), Some(60.0));
    down_at(&timeline, 0.5);
    settle().await;
    assert_eq!(
        all(&root, "[data-testid=cursor-card]").len(),
        1,
        "a new click shows it again"
    );
    key(&timeline, "Escape");
    settle().await;
    assert!(all(&root, "[data-testid=cursor-card]").is_empty());
    assert_eq!(cursor.get_untracked(), None);
}

/// The timeline canvas's width and its card's content width; the rightmost wait cell's
/// right edge and the panel's content right edge.
fn measure(card: &Element) -> (f64, f64, f64, f64) {
    let canvas = one(card, "[data-testid=chart-timeline] canvas");
    let cs = window().get_computed_style(card).unwrap().unwrap();
    let pad = |p: &str| {
        cs.get_property_value(p)
            .unwrap()
            .trim_end_matches("px")
            .parse::<f64>()
            .unwrap_or(0.0)
    };
    let content = f64::from(card.client_width()) - pad("padding-left") - pad("padding-right");
    let panel = one(card, "[data-testid=state-at]");
    let ps = window().get_computed_style(&panel).unwrap().unwrap();
    let pr = panel.get_bounding_client_rect();
    let inner_right = pr.left() + f64::from(panel.client_left()) + f64::from(panel.client_width())
        - ps.get_property_value("padding-right")
            .unwrap()
            .trim_end_matches("px")
            .parse::<f64>()
            .unwrap_or(0.0);
    let wait_right = all(
        &panel,
        "table.state-counts [data-col=waiting], table.state-counts thead th:last-child",
    )
    .iter()
    .map(|c| c.get_bounding_client_rect().right())
    .fold(0.0, f64::max);
    (
        canvas.get_bounding_client_rect().width(),
        content,
        wait_right,
        inner_right,
    )
}

// With the page's stylesheet, in the card of the results column at 1440 px (818 px) and at
// 1024 px and 390 px: the Gantt is as wide as its card (it was ~471 px beside the panel) and
// the panel's wait column is inside the panel (it was cut off).
#[wasm_bindgen_test]
async fn the_timeline_fills_its_card_and_the_panel_fits() {
    page_style();
    for width in [818, 690, 360] {
        let cursor = RwSignal::new(Some(90.0));
        let d = digest(AWS);
        let root = mount(move || {
            view! {
                <section class="card" style=format!("width: {width}px")>
                    <Timeline digest=d cursor=cursor />
                </section>
            }
        });
        settle().await;
        sleep_ms(100).await;
        settle().await;
        let card = one(&root, "section.card");
        let (canvas, content, wait_right, inner_right) = measure(&card);
        assert!(
            (canvas - content).abs() <= 1.0,
            "{width} px card: timeline {canvas} px wide in {content} px"
        );
        assert!(
            wait_right > 0.0 && wait_right <= inner_right + 0.5,
            "{width} px card: wait column ends at {wait_right}, the panel at {inner_right}"
        );
        let panel = one(&card, "[data-testid=state-at]");
        let edge = panel.get_bounding_client_rect().right();
        let wide: Vec<String> = all(&panel, "*")
            .iter()
            .filter(|e| e.get_bounding_client_rect().right() > edge + 0.5)
            .map(|e| {
                format!(
                    "{}.{} {:.0}",
                    e.tag_name(),
                    e.class_name(),
                    e.get_bounding_client_rect().right()
                )
            })
            .collect();
        assert!(
            panel.scroll_width() <= panel.client_width(),
            "{width} px: the panel does not scroll sideways ({} > {}): {wide:?}",
            panel.scroll_width(),
            panel.client_width()
        );
        // The backing store follows the full width (no stale size).
        let c: web_sys::HtmlCanvasElement =
            one(&card, "[data-testid=chart-timeline] canvas").unchecked_into();
        let dpr = window().device_pixel_ratio();
        assert_eq!(
            f64::from(c.width()),
            (canvas * dpr).round(),
            "{width} px: backing store"
        );
        root.remove();
    }
}

// One time format per scale: a run over days says "4 d 7 h" on the slider, in the panel and
// in the card, and every chart over time has its axis in days.
#[wasm_bindgen_test]
async fn a_multi_day_run_tells_time_in_days() {
    let cursor = RwSignal::new(None::<f64>);
    let d = digest(DAYS);
    assert!(d.end_s > 3.0 * 86_400.0, "the run spans days: {}", d.end_s);
    let root = results(d, cursor);
    settle().await;
    let timeline = one(&root, "[data-testid=chart-timeline] canvas");
    down_at(&timeline, 0.6);
    settle().await;
    let title = text(&root, "[data-testid=state-at] .state-title");
    let at = title.trim_start_matches("State at ");
    let days = at.split(' ').collect::<Vec<_>>();
    assert!(
        matches!(days.as_slice(), [_, "d"] | [_, "d", _, "h"]),
        "the panel in days: {title}"
    );
    assert_eq!(
        text(&root, "[data-testid=cursor-card] .cursor-card-title"),
        title
    );
    assert_eq!(
        timeline.get_attribute("aria-valuetext").as_deref(),
        Some(format!("t = {at}").as_str())
    );
    let units: Vec<String> = all(&root, "canvas[data-time-unit]")
        .iter()
        .filter_map(|c| c.get_attribute("data-time-unit"))
        .collect();
    assert!(units.len() >= 3, "{units:?}");
    assert!(units.iter().all(|u| u == "d"), "{units:?}");
}
