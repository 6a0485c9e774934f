//! The story player in headless Chromium: the narration card (Back / Next, the arrow keys,
//! the keys left alone in a form field, Leave story keeping the scenario), a step moving the
//! time cursor and outlining its elements with labels, story links (`#story=ID&step=N`,
//! unknown stories and steps as notices), and the first screen's summary.
//! `... cargo test --target wasm32-unknown-unknown -p quotalab-app --test browser story::`

use crate::common::{settle, sleep_ms};
use leptos::{mount::mount_to, prelude::*};
use quotalab_app::io::presets;
use quotalab_app::results::explain;
use quotalab_app::results::ResultsPanel;
use quotalab_app::state::{self, AppState};
use quotalab_app::story::{self, Intro, StoryCard, StoryState};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, KeyboardEvent, KeyboardEventInit};

struct Mounted {
    root: HtmlElement,
    _handle: Box<dyn std::any::Any>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        story::clear_highlights();
        self.root.remove();
    }
}

/// The state, the story player, the runner, the results, the intro and the card.
fn mount_player() -> (Mounted, AppState, StoryState) {
    let slot: StoredValue<Option<(AppState, StoryState)>, LocalStorage> =
        StoredValue::new_local(None);
    // The story looks its highlights up in the whole document, as on the page: earlier
    // tests' pages (results of the same scenario among them) must not be there.
    let body = document().body().unwrap();
    for old in crate::common::all(&body, ":scope > div") {
        if old
            .query_selector("[data-testid=chart-allocation]")
            .ok()
            .flatten()
            .is_some()
        {
            old.remove();
        }
    }
    let div: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&div).unwrap();
    crate::common::use_local_engine();
    let handle = mount_to(div.clone(), move || {
        let app = AppState::new(presets::AWS_WALKTHROUGH_JSON.to_string());
        provide_context(app);
        let st = story::provide();
        state::install_runner(app, 0);
        explain::provide_selected_job();
        slot.set_value(Some((app, st)));
        view! { <Intro stale=false /> <ResultsPanel /> <StoryCard /> }
    });
    let (app, st) = slot.get_value().expect("the page's state");
    (
        Mounted {
            root: div,
            _handle: Box::new(handle),
        },
        app,
        st,
    )
}

/// Waits up to 20 s (runs are slower on a loaded machine) for `cond`.
async fn until(what: &str, cond: impl Fn() -> bool) {
    for _ in 0..400 {
        if cond() {
            return;
        }
        sleep_ms(50).await;
    }
    panic!("timed out waiting for {what}");
}

fn find(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).unwrap()
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector)
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .text_content()
        .unwrap_or_default()
}

fn click(root: &Element, selector: &str) {
    find(root, selector)
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .unchecked_into::<HtmlElement>()
        .click();
}

fn key(target: &web_sys::EventTarget, k: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(k);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let e = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&e).unwrap();
}

fn step_of(st: StoryState) -> Option<usize> {
    st.playing.with_untracked(|p| p.as_ref().map(|p| p.step))
}

#[wasm_bindgen_test]
async fn the_tour_steps_by_buttons_and_keys_and_leaves_the_scenario_as_it_stands() {
    let (m, app, st) = mount_player();
    let root: &Element = &m.root;
    until("the first run", || {
        app.outcome.with_untracked(Option::is_some)
    })
    .await;
    assert!(
        text(root, "[data-testid=scenario-summary]").starts_with("3 teams share 3 ml.g5.xlarge")
    );
    click(root, "[data-testid=take-tour]");
    settle().await;
    assert_eq!(step_of(st), Some(0));
    assert_eq!(app.cursor.get_untracked(), Some(30.0));
    let narration = find(root, "[data-testid=story-narration]").unwrap();
    assert_eq!(
        narration.get_attribute("aria-live").as_deref(),
        Some("polite")
    );
    assert!(
        text(root, "[data-testid=story-narration]").contains("The borrower takes idle capacity")
    );
    assert!(find(root, "[data-testid=story-back]")
        .unwrap()
        .has_attribute("disabled"));
    // The step's elements are outlined and labelled (the allocation panel of background).
    until("the highlights", || {
        find(root, ".panel.story-hl[data-share=background]").is_some()
    })
    .await;
    let panel = find(root, ".panel.story-hl[data-share=background]").unwrap();
    assert!(panel
        .get_attribute("data-story-label")
        .unwrap()
        .contains("background's allocation"));

    click(root, "[data-testid=story-next]");
    settle().await;
    assert_eq!(step_of(st), Some(1));
    assert_eq!(app.cursor.get_untracked(), Some(60.0));
    // The arrow keys, from anywhere but a form field.
    key(&window(), "ArrowRight");
    settle().await;
    assert_eq!(step_of(st), Some(2));
    assert!(find(root, "[data-testid=story-finish]").is_some());
    key(&window(), "ArrowRight");
    settle().await;
    assert_eq!(step_of(st), Some(2), "no step after the last");
    let input: HtmlElement = document().create_element("input").unwrap().unchecked_into();
    root.append_child(&input).unwrap();
    key(&input, "ArrowLeft");
    settle().await;
    assert_eq!(step_of(st), Some(2), "a form field keeps its arrow keys");
    key(&window(), "ArrowLeft");
    settle().await;
    assert_eq!(step_of(st), Some(1));

    // The edit to try, then Leave: the edited scenario stays.
    click(root, "[data-testid=story-try]");
    settle().await;
    assert!(find(root, "[data-testid=story-try-done]").is_some());
    assert!(app.scenario.get_untracked().contains("\"RESERVE\""));
    let edited = app.scenario.get_untracked();
    click(root, "[data-testid=story-leave]");
    settle().await;
    assert_eq!(step_of(st), None);
    assert_eq!(app.scenario.get_untracked(), edited);
    assert!(find(root, ".story-card.open").is_none());
    assert!(document().query_selector(".story-hl").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn story_links_open_a_step_or_say_what_is_wrong() {
    let (_m, app, st) = mount_player();
    story::open_by_link(app, st, "allocation", Some("3"), false);
    settle().await;
    assert_eq!(step_of(st), Some(2));
    assert!(app
        .scenario
        .get_untracked()
        .contains("A quiet morning and a busy afternoon"));
    assert_eq!(app.cursor.get_untracked(), Some(18000.0));
    assert_eq!(
        story::link_part(Some(st), &app.scenario.get_untracked()),
        Some(("story=allocation&step=3".to_string(), true))
    );
    assert_eq!(
        story::link_part(Some(st), "{}"),
        Some(("story=allocation&step=3".to_string(), false)),
        "an edited scenario travels with the story"
    );
    st.leave();

    story::open_by_link(app, st, "walkthrough", Some("9"), false);
    settle().await;
    assert_eq!(step_of(st), Some(0));
    let n = app.notice.get_untracked().expect("a notice");
    assert!(n.title.contains("step 9 does not exist"), "{}", n.title);
    st.leave();
    app.notice.set(None);

    story::open_by_link(app, st, "nope", None, false);
    settle().await;
    assert_eq!(step_of(st), None);
    let n = app.notice.get_untracked().expect("a notice");
    assert!(n.title.contains("\"nope\""), "{}", n.title);
    assert!(n.lines.iter().any(|l| l.starts_with("walkthrough")));

    story::open_by_link(app, st, "walkthrough", Some("x"), false);
    settle().await;
    assert_eq!(
        step_of(st),
        Some(0),
        "a step that is not a number starts at 1"
    );
}
