//! Story mode: a narrated walk through a real run. A story ([`format::Story`], a small JSON
//! file in `www/stories/`) names a scenario and a few steps; each step moves the time
//! cursor, says in a sentence or two what the engine did then, outlines and labels the
//! elements to look at (a share's allocation chart, a job's timeline row, an event of the
//! log, the "state at t" panel, the compare view) and scrolls them into view, and may offer
//! an edit to try. This module owns the story format ([`format`](mod@format)), the checks of a story's
//! claims against the engine ([`claims`], run by the native tests), the player's state and
//! its narration card ([`StoryCard`]: Back / Next, the arrow keys, "Leave story", which
//! keeps the scenario as it stands), the first screen's plain-words summary with its
//! "Take the tour" button ([`Intro`]), and the `story=ID&step=N` part of the page's link
//! ([`link_part`], handed to [`crate::io::share`] as its `StoryLink`; [`init_from_url`] opens it).
//!
//! The stories are a few kilobytes of JSON, so they are compiled in (like the small presets)
//! rather than fetched: a step never waits on the network. The player decides nothing about
//! the run: the summary comes from the engine ([`quotalab_engine::output::describe`]), and
//! the highlights only point at what the results already show.

pub mod claims;
pub mod format;

use std::sync::Arc;

use leptos::{ev, prelude::*};
use wasm_bindgen::JsCast;

use crate::io::share::StoryLink;
use crate::results::explain::SelectedJob;
use crate::state::{use_app, AppState, Notice};
pub use format::{Highlight, Story};

/// Every shipped story's file, in menu order (the first is the tour).
pub const STORY_FILES: &[&str] = &[
    include_str!("../../www/stories/walkthrough.json"),
    include_str!("../../www/stories/allocation.json"),
    include_str!("../../www/stories/partition.json"),
    include_str!("../../www/stories/checkpoint.json"),
    include_str!("../../www/stories/cohort.json"),
];

/// The shipped stories (a file that does not parse is left out; the native tests make sure
/// none is).
pub fn stories() -> Vec<Story> {
    STORY_FILES
        .iter()
        .filter_map(|t| format::parse(t).ok())
        .collect()
}

/// A shipped story by id.
pub fn by_id(id: &str) -> Option<Story> {
    stories().into_iter().find(|s| s.id == id)
}

/// The story being told.
#[derive(Clone, Debug, PartialEq)]
pub struct Playing {
    pub story: Arc<Story>,
    /// 0-based.
    pub step: usize,
    /// The scenario text the story opened (the link carries the scenario only once it
    /// differs).
    pub opened: Arc<String>,
    /// The step's edit was applied.
    pub tried: bool,
}

/// The player's state, provided as a context by [`provide`].
#[derive(Clone, Copy)]
pub struct StoryState {
    pub playing: RwSignal<Option<Playing>>,
}

/// Provides the player's state (once, in `App`, before the share link is read).
pub fn provide() -> StoryState {
    let s = StoryState {
        playing: RwSignal::new(None),
    };
    provide_context(s);
    // The link follows the story through `io::share`'s StoryLink (io knows nothing of stories).
    let link = StoryLink::provide();
    Effect::new(move |_| {
        let part = s
            .playing
            .with(|p| p.as_ref().map(|p| (fragment_part(p), p.opened.clone())));
        link.0.set(part);
    });
    s
}

/// `story=ID&step=N` (1-based step) for the step being shown.
fn fragment_part(p: &Playing) -> String {
    format!("story={}&step={}", p.story.id, p.step + 1)
}

/// The player's state, if the page has one.
pub fn use_story() -> Option<StoryState> {
    use_context::<StoryState>()
}

impl StoryState {
    /// Opens `story` at `step` (0-based): its scenario replaces the current one unless
    /// `keep_scenario` (a link that carries its own).
    pub fn start(self, app: AppState, story: Story, step: usize, keep_scenario: bool) {
        let text = story.scenario_text();
        let opened = if keep_scenario {
            app.scenario.get_untracked()
        } else {
            text
        };
        if !keep_scenario {
            // An import's notice is about the scenario the story replaces (issue #34).
            app.replace_scenario(opened.clone());
        }
        let step = step.min(story.steps.len() - 1);
        app.cursor.set(Some(story.steps[step].t_s));
        self.playing.set(Some(Playing {
            story: Arc::new(story),
            step,
            opened: Arc::new(opened),
            tried: false,
        }));
    }

    /// Moves to step `step` (clamped to the story).
    /// After a "Try it" edit the story's scenario is put back first (an undoable step):
    /// every step narrates the story's own scenario.
    pub fn go(self, app: AppState, step: usize) {
        let mut restore = None;
        self.playing.update(|p| {
            if let Some(p) = p {
                p.step = step.min(p.story.steps.len() - 1);
                if p.tried {
                    restore = Some(p.opened.clone());
                }
                p.tried = false;
                app.cursor.set(Some(p.story.steps[p.step].t_s));
            }
        });
        if let Some(text) = restore {
            if app.scenario.with_untracked(|t| t != text.as_str()) {
                app.scenario.set(text.as_str().to_string());
            }
        }
    }

    /// Leaves the story; the scenario stays as it stands.
    pub fn leave(self) {
        self.playing.set(None);
        clear_highlights();
    }

    pub fn track(self) {
        self.playing.track();
    }
}

/// The story part of the page's link for the current scenario `text`: `story=ID&step=N`
/// (1-based step), and whether `text` is still the story's own scenario (then the link
/// needs no `s=`).
pub fn link_part(story: Option<StoryState>, text: &str) -> Option<(String, bool)> {
    let s = story?;
    s.playing.with_untracked(|p| {
        p.as_ref()
            .map(|p| (fragment_part(p), p.opened.as_str() == text))
    })
}

/// What a fragment asks of the player: a story id and a 1-based step (`None`: step 1).
pub fn parse_fragment(hash: &str) -> Option<(String, Option<String>)> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    let mut id = None;
    let mut step = None;
    for part in hash.split('&') {
        if let Some(v) = part.strip_prefix("story=") {
            id = Some(v.to_string());
        } else if let Some(v) = part.strip_prefix("step=") {
            step = Some(v.to_string());
        }
    }
    id.map(|i| (i, step))
}

/// Opens the story a `#story=ID&step=N` link names (after [`crate::io::share::init_from_url`]
/// opened the link's scenario, if it has one). An unknown story or step leaves a notice.
pub fn init_from_url(app: AppState, story: StoryState) {
    let hash = window().location().hash().unwrap_or_default();
    let hash = js_sys::decode_uri_component(&hash)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or(hash);
    let Some((id, step)) = parse_fragment(&hash) else {
        return;
    };
    let keep = hash
        .trim_start_matches('#')
        .split('&')
        .any(|p| p.starts_with("s="));
    open_by_link(app, story, &id, step.as_deref(), keep);
}

/// Opens story `id` at the 1-based `step` text of a link; a clear notice when either is
/// unknown (an unknown step opens step 1).
pub fn open_by_link(app: AppState, st: StoryState, id: &str, step: Option<&str>, keep: bool) {
    let Some(story) = by_id(id) else {
        let ids: Vec<String> = stories()
            .iter()
            .map(|s| format!("{} ({})", s.id, s.title))
            .collect();
        app.notice.set(Some(Notice::error(
            format!("This link names a story \"{id}\" that the page does not have."),
            std::iter::once("The stories are:".to_string())
                .chain(ids)
                .collect(),
        )));
        return;
    };
    let n = story.steps.len();
    let index = match step.map(|s| s.parse::<usize>()) {
        None => 0,
        Some(Ok(k)) if (1..=n).contains(&k) => k - 1,
        Some(_) => {
            app.notice.set(Some(Notice::error(
                format!(
                    "The story \"{}\" has {n} steps; step {} does not exist, so it starts at step 1.",
                    story.title,
                    step.unwrap_or_default()
                ),
                vec![],
            )));
            0
        }
    };
    st.start(app, story, index, keep);
}

/// The words a highlight's badge shows.
pub fn label(h: &Highlight) -> String {
    match h {
        Highlight::Allocation { share } => format!("{share}'s allocation"),
        Highlight::Job { job } => format!("{job}'s row"),
        Highlight::Event { event, job } => format!("{job}: {}", event.replace('_', " ")),
        Highlight::StateAt => "state at this time".to_string(),
        Highlight::Compare => "the comparison".to_string(),
        Highlight::Summary => "the summary".to_string(),
        Highlight::Cohorts => "the cohort tree".to_string(),
    }
}

const HL: &str = "story-hl";
/// The element that shows a highlight's label (the highlighted one, or a row's first cell).
const HL_LABEL: &str = "story-hl-label";

/// Removes every highlight from the page.
pub fn clear_highlights() {
    let Some(doc) = document_opt() else { return };
    if let Ok(list) = doc.query_selector_all(&format!(".{HL}, .{HL_LABEL}")) {
        for i in 0..list.length() {
            if let Some(el) = list
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                let _ = el.class_list().remove_2(HL, HL_LABEL);
                let _ = el.remove_attribute("data-story-label");
                let _ = el.remove_attribute(STAND_IN);
            }
        }
    }
}

fn document_opt() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Marks a stand-in element (the event log for an event row not drawn yet, the timeline for
/// a job history not open yet): outlined, but not worth scrolling to for good.
const STAND_IN: &str = "data-story-stand-in";

fn inexact(el: Option<web_sys::Element>) -> Option<web_sys::Element> {
    el.inspect(|e| {
        let _ = e.set_attribute(STAND_IN, "");
    })
}

/// The element a highlight points at, if it is on the page (a stand-in carries
/// [`STAND_IN`]).
fn target(doc: &web_sys::Document, h: &Highlight) -> Option<web_sys::Element> {
    let q = |sel: &str| doc.query_selector(sel).ok().flatten();
    match h {
        Highlight::Allocation { share } => {
            let all = doc
                .query_selector_all("[data-testid=chart-allocation] .panel")
                .ok()?;
            (0..all.length())
                .filter_map(|i| all.item(i)?.dyn_into::<web_sys::Element>().ok())
                .find(|e| e.get_attribute("data-share").as_deref() == Some(share))
        }
        // The job's own history (the story selects the job); the timeline until it is open.
        Highlight::Job { .. } => {
            q("[data-testid=job-history]").or_else(|| inexact(q("[data-testid=chart-timeline]")))
        }
        Highlight::Event { event, job } => {
            let rows = doc
                .query_selector_all(&format!("[data-testid=event-row][data-kind={event}]"))
                .ok()?;
            (0..rows.length())
                .filter_map(|i| rows.item(i)?.dyn_into::<web_sys::Element>().ok())
                .find(|r| {
                    r.query_selector("td.job")
                        .ok()
                        .flatten()
                        .and_then(|c| c.text_content())
                        .is_some_and(|t| t.trim() == job)
                })
                .or_else(|| inexact(q("[data-testid=event-log]")))
        }
        Highlight::StateAt => q("[data-testid=state-at]"),
        Highlight::Compare => q("[data-testid=compare-view]"),
        // A table's box that scrolls sideways: the table's outline and label above it would
        // be clipped inside it.
        Highlight::Summary => q(".table-scroll:has(> [data-testid=summary-table])"),
        Highlight::Cohorts => q(".table-scroll:has(> [data-testid=cohort-tree])"),
    }
}

/// Outlines and labels a step's elements and scrolls the first into view; a compare
/// highlight switches the comparison on, a job highlight opens the job's history. Returns
/// the labels of the elements found, and whether it scrolled to the first highlight's own
/// element (not a stand-in drawn before it).
pub fn apply_highlights(highlights: &[Highlight], scroll: bool) -> (Vec<String>, bool) {
    clear_highlights();
    let Some(doc) = document_opt() else {
        return (vec![], false);
    };
    let mut found = Vec::new();
    let mut first = None;
    for (i, h) in highlights.iter().enumerate() {
        if matches!(h, Highlight::Compare) {
            if let Some(toggle) = doc
                .query_selector("[data-testid=compare-toggle]")
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                if !toggle.checked() {
                    toggle.click();
                }
            }
        }
        let Some(el) = target(&doc, h) else { continue };
        let text = format!("{} {}", badge_number(i), label(h));
        // Several highlights on one element (two jobs' rows): one badge naming both.
        // A table row cannot hold a positioned label: its first cell carries it.
        let holder = if el.tag_name().eq_ignore_ascii_case("tr") {
            el.first_element_child().unwrap_or_else(|| el.clone())
        } else {
            el.clone()
        };
        let joined = match holder.get_attribute("data-story-label") {
            Some(prev) if el.class_list().contains(HL) => format!("{prev} · {text}"),
            _ => text.clone(),
        };
        let _ = el.class_list().add_1(HL);
        let _ = holder.class_list().add_1(HL_LABEL);
        let _ = holder.set_attribute("data-story-label", &joined);
        found.push(text);
        first.get_or_insert(el);
    }
    let mut scrolled = false;
    if scroll {
        if let Some(el) = first {
            el.scroll_into_view_with_bool(true);
            scrolled = !el.has_attribute(STAND_IN);
        }
    }
    (found, scrolled)
}

/// Scrolls the first of `highlights` on the page back into view if the results drawn
/// since pushed it out (the event log filling in above a job's history): the first
/// attempts of a step only.
fn keep_first_in_view(highlights: &[Highlight]) {
    let Some(doc) = document_opt() else { return };
    let Some(el) = highlights.iter().find_map(|h| target(&doc, h)) else {
        return;
    };
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let r = el.get_bounding_client_rect();
    // The story card covers the bottom of the view: a place whose top is under it is not
    // in view either.
    let card = doc
        .query_selector(".story-card.open")
        .ok()
        .flatten()
        .map(|c| c.get_bounding_client_rect());
    let under_card = card
        .is_some_and(|c| r.left() < c.right() && r.right() > c.left() && r.top() + 24.0 > c.top());
    if !el.has_attribute(STAND_IN) && (r.bottom() < 0.0 || r.top() > height - 80.0 || under_card) {
        el.scroll_into_view_with_bool(true);
    }
}

/// Scrolls a highlight's element into view (the "Look at" buttons).
fn scroll_to(h: &Highlight) {
    if let Some(el) = document_opt().and_then(|d| target(&d, h)) {
        el.scroll_into_view_with_bool(true);
    }
}

/// The jobs whose history `story` opens (its job highlights), in step order.
fn story_jobs(story: &Story) -> impl Iterator<Item = &String> {
    story.steps.iter().flat_map(|s| {
        s.highlight.iter().filter_map(|h| match h {
            Highlight::Job { job } => Some(job),
            _ => None,
        })
    })
}

/// The job whose history step `step` (0-based) shows: its own job highlight, else that of
/// the last step before it with one (what walking forward left open), so Back shows what
/// the earlier step showed.
pub fn job_shown_at(story: &Story, step: usize) -> Option<String> {
    story
        .steps
        .iter()
        .take(step.saturating_add(1))
        .rev()
        .find_map(|s| {
            s.highlight.iter().find_map(|h| match h {
                Highlight::Job { job } => Some(job.clone()),
                _ => None,
            })
        })
}

/// ①, ②... (the badges and the narration's list use the same numbers).
pub fn badge_number(i: usize) -> char {
    char::from_u32(0x2460 + i as u32).unwrap_or('•')
}

/// Whether a key press belongs to a form field or a widget that uses the arrow keys itself.
fn in_field(target: Option<web_sys::EventTarget>) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return false;
    };
    let tag = el.tag_name().to_ascii_lowercase();
    matches!(tag.as_str(), "input" | "textarea" | "select" | "canvas")
        || el
            .closest("[contenteditable=true], [role=slider], [role=menu], [role=listbox], dialog")
            .ok()
            .flatten()
            .is_some()
}

/// The narration card: the step's words, Back / Next / Leave story, the arrow keys.
#[component]
pub fn StoryCard() -> impl IntoView {
    let app = use_app();
    let Some(st) = use_story() else {
        return ().into_any();
    };
    let selected = use_context::<SelectedJob>();
    // Which of the step's elements are on the page (its badges' words).
    let shown = RwSignal::new(Vec::<String>::new());
    // The step whose first highlight was scrolled to (its own element, not a stand-in).
    let reached = RwSignal::new(None::<(String, usize)>);
    // The step during which the reader moved the view (a "Look at" place, the wheel, a
    // touch): from then on the step scrolls no more by itself.
    let moved = StoredValue::new(None::<(String, usize)>);
    let mark_moved = move || {
        let key = st
            .playing
            .with_untracked(|p| p.as_ref().map(|p| (p.story.id.clone(), p.step)));
        moved.set_value(key);
    };
    let wheel = window_event_listener(ev::wheel, move |_| mark_moved());
    let touch = window_event_listener(ev::touchstart, move |_| mark_moved());
    on_cleanup(move || {
        wheel.remove();
        touch.remove();
    });
    // Highlights after a step change (the attempts below follow the results as they draw).
    // Not again when a run lands: a second round of attempts would scroll a story link
    // to a stand-in before the place it waits for is drawn.
    Effect::new(move |prev: Option<(String, usize)>| {
        let Some(p) = st.playing.get() else {
            clear_highlights();
            return (String::new(), usize::MAX);
        };
        let key = (p.story.id.clone(), p.step);
        // Scrolled on a step change, and again when the step is played again before its
        // first highlight's own element was reached (a story link opens before its results
        // are drawn).
        let scroll =
            prev.as_ref() != Some(&key) || reached.with_untracked(|r| r.as_ref() != Some(&key));
        let hl = p.story.steps[p.step].highlight.clone();
        if let Some(sel) = selected {
            let shown = job_shown_at(&p.story, p.step);
            let story_opened = |j: &String| story_jobs(&p.story).any(|s| s == j);
            match shown {
                Some(job) => sel.0.set(Some(job)),
                // Back to a step before any job's history: the one a later step opened closes.
                None if sel
                    .0
                    .with_untracked(|j| j.as_ref().is_some_and(story_opened)) =>
                {
                    sel.0.set(None)
                }
                None => {}
            }
        }
        // The results draw in stages (charts after the summary, the job's history once it is
        // selected): try again until every place is on the page, or give up after 3 s.
        let want = hl.len();
        let this = key.clone();
        let places = hl.clone();
        let attempt = Arc::new(move |scroll: bool| -> bool {
            let same = st.playing.try_with_untracked(|p| {
                p.as_ref()
                    .is_some_and(|p| (p.story.id.as_str(), p.step) == (this.0.as_str(), this.1))
            }) == Some(true);
            if !same {
                return true; // another step or no story: stop
            }
            let (found, scrolled) = apply_highlights(&hl, scroll);
            if scrolled {
                reached.set(Some(this.clone()));
            }
            let done = found.len() >= want;
            shown.set(found);
            done
        });
        for (i, ms) in [80u64, 400, 1200, 3000].into_iter().enumerate() {
            let attempt = attempt.clone();
            let step = key.clone();
            let first = places.clone();
            set_timeout(
                move || {
                    // The card may be gone by now (the story left, the page unmounted): then
                    // there is nothing to show or scroll.
                    let Some(unreached) = reached.try_with_untracked(|r| r.as_ref() != Some(&step))
                    else {
                        return;
                    };
                    let Some(not_moved) = moved.try_with_value(|m| m.as_ref() != Some(&step))
                    else {
                        return;
                    };
                    let scroll = scroll && not_moved;
                    let few = shown.try_with_untracked(|f| f.len() < want) == Some(true);
                    if i == 0 || few || (scroll && unreached) {
                        attempt(scroll && (i == 0 || unreached));
                    }
                    let current = st.playing.try_with_untracked(|p| {
                        p.as_ref().is_some_and(|p| {
                            (p.story.id.as_str(), p.step) == (step.0.as_str(), step.1)
                        })
                    });
                    if scroll && i > 0 && current == Some(true) {
                        keep_first_in_view(&first);
                    }
                },
                std::time::Duration::from_millis(ms),
            );
        }
        key
    });
    let keys = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.alt_key() || e.ctrl_key() || e.meta_key() || e.shift_key() || in_field(e.target()) {
            return;
        }
        let Some(step) = st.playing.with_untracked(|p| p.as_ref().map(|p| p.step)) else {
            return;
        };
        match e.key().as_str() {
            "ArrowRight" => {
                e.prevent_default();
                st.go(app, step + 1);
            }
            "ArrowLeft" => {
                e.prevent_default();
                st.go(app, step.saturating_sub(1));
            }
            "Escape" => {
                e.prevent_default();
                st.leave();
            }
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());
    let card = move || {
        let p = st.playing.get()?;
        let n = p.story.steps.len();
        let step = p.story.steps[p.step].clone();
        let looks: Vec<String> = step
            .highlight
            .iter()
            .enumerate()
            .map(|(i, h)| format!("{} {}", badge_number(i), label(h)))
            .collect();
        let missing: Vec<String> = {
            let found = shown.get();
            looks
                .iter()
                .filter(|l| !found.contains(l))
                .cloned()
                .collect()
        };
        let try_view = step.try_edit.clone().map(|t| {
            let then = t.then.clone();
            let apply = {
                let t = t.clone();
                move |_| {
                    let text = app.scenario.get_untracked();
                    match format::apply_edit(&text, &t) {
                        Ok(next) => {
                            app.scenario.set(next);
                            st.playing.update(|p| {
                                if let Some(p) = p {
                                    p.tried = true;
                                }
                            });
                        }
                        Err(e) => app.notice.set(Some(Notice::error("The edit could not be applied.", vec![e]))),
                    }
                }
            };
            view! {
                <div class="story-try">
                    {if p.tried {
                        view! { <p data-testid="story-try-done">"Tried. "{then}" (Leave the story to keep editing; Back or Next puts the story's own scenario back.)"</p> }.into_any()
                    } else {
                        view! {
                            <p>
                                "Try it: "
                                <button type="button" class="story-try-button" data-testid="story-try" on:click=apply>{t.label.clone()}</button>
                            </p>
                        }.into_any()
                    }}
                </div>
            }
        });
        Some(view! {
            <p class="story-kicker">{format!("Story: {} · step {} of {n}", p.story.title, p.step + 1)}</p>
            <h2 class="story-step-title" id="story-step-title">{step.title.clone()}</h2>
            <p class="story-text" data-testid="story-text">{step.text.clone()}</p>
            {(!looks.is_empty()).then(|| {
                // Each place is a button that scrolls it into view: a step may point at
                // several, and only the first is scrolled to by itself.
                let links = step.highlight.iter().cloned().zip(looks.clone()).enumerate().map(|(i, (h, l))| {
                    let gone = missing.contains(&l);
                    view! {
                        {(i > 0).then_some(", ")}
                        <button type="button" class="link-button story-look-at" data-testid="story-look-at"
                            disabled=gone
                            on:click=move |_| {
                                mark_moved();
                                scroll_to(&h);
                            }>{l}</button>
                    }
                }).collect_view();
                view! {
                    <p class="story-look">"Look at: " {links}
                        {(!missing.is_empty()).then(|| format!(" (not on screen now: {})", missing.join(", ")))}
                    </p>
                }
            })}
            {try_view}
        })
    };
    // Back / Next / Leave below the words, outside their scrolling box: long words scroll
    // above the buttons, never under them.
    let nav = move || {
        let (at, last) = st.playing.with(|p| {
            p.as_ref()
                .map(|p| (p.step, p.step + 1 == p.story.steps.len()))
        })?;
        Some(view! {
            <div class="story-nav">
                <button type="button" data-testid="story-back" disabled=at == 0 on:click=move |_| st.go(app, at.saturating_sub(1))>"← Back"</button>
                {if last {
                    view! { <button type="button" class="primary" data-testid="story-finish" on:click=move |_| st.leave()>"Finish"</button> }.into_any()
                } else {
                    view! { <button type="button" class="primary" data-testid="story-next" on:click=move |_| st.go(app, at + 1)>"Next →"</button> }.into_any()
                }}
                <button type="button" class="story-leave" data-testid="story-leave" on:click=move |_| st.leave()>"Leave story"</button>
            </div>
            <p class="story-keys">"The ← and → keys also move between steps, Escape leaves. Leaving keeps the scenario as it is now."</p>
        })
    };
    view! {
        <aside
            class="story-card"
            class:open=move || st.playing.with(Option::is_some)
            aria-label="Story"
            data-testid="story-card"
        >
            <div class="story-body" aria-live="polite" data-testid="story-narration">{card}</div>
            {nav}
        </aside>
    }
    .into_any()
}

/// The first screen above the editor: the scenario in plain words (the engine's
/// [`quotalab_engine::output::describe::scenario_summary`]) and the stories to take. The
/// words are the last result's: `stale` (the results marked stale) dims them as it dims
/// the results, while a new scenario runs or the text is invalid.
#[component]
pub fn Intro(#[prop(into)] stale: Signal<bool>) -> impl IntoView {
    let app = use_app();
    let st = use_story();
    // The engine's words for the last run's scenario (the digest carries them).
    let summary = Memo::new(move |_| app.summary_shown());
    // The last valid scenario's words stay while the text is being edited.
    let last = RwSignal::new(String::new());
    Effect::new(move |_| {
        if let Some(s) = summary.get() {
            last.set(s);
        }
    });
    let list = stories();
    let tour = list.first().cloned();
    let start = move |story: Story| {
        if let Some(st) = st {
            st.start(app, story, 0, false);
            set_timeout(
                || {
                    if let Some(b) = document_opt()
                        .and_then(|d| d.query_selector("[data-testid=story-next]").ok().flatten())
                        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        let _ = b.focus();
                    }
                },
                std::time::Duration::from_millis(120),
            );
        }
    };
    let others = list
        .iter()
        .skip(1)
        .map(|s| {
            let s2 = s.clone();
            view! {
                <li>
                    <button type="button" class="link-button" data-testid="story-start" data-story=s.id.clone() title=s.intro.clone() on:click=move |_| start(s2.clone())>
                        {s.title.clone()}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="intro wrap" aria-label="What this is" data-testid="intro">
            <p class="intro-summary" class:stale=move || stale.get() data-testid="scenario-summary">{move || last.get()}</p>
            <div class="intro-actions">
                {tour.map(|t| view! {
                    <button type="button" class="primary tour" data-testid="take-tour" on:click=move |_| start(t.clone())>
                        "Take the tour"
                    </button>
                })}
                <span class="intro-more">"More stories:"</span>
                <ul class="intro-stories">{others}</ul>
            </div>
            <p class="intro-own">
                "Your own cluster: "
                <button type="button" class="link-button" data-testid="intro-import-config"
                    on:click=move |_| crate::io::tools::open(app, crate::io::tools::Tool::Config, RwSignal::new(false))>
                    "import its AWS Batch, Kueue or HyperPod configuration…"
                </button>
            </p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_story_parses() {
        for text in STORY_FILES {
            let s = format::parse(text).unwrap_or_else(|e| panic!("{e}"));
            assert!(s.steps.len() >= 3, "{} has {} steps", s.id, s.steps.len());
        }
        assert_eq!(stories().len(), STORY_FILES.len());
        assert_eq!(stories()[0].id, "walkthrough");
    }

    #[test]
    fn every_claim_of_every_story_holds() {
        for story in stories() {
            let wrong = claims::check(&story);
            assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        }
    }

    /// Issue #34: a story in the Kueue model speaks of workloads, never of jobs (its
    /// scenario's description included); so does a Kueue preset's description.
    #[test]
    fn kueue_stories_and_presets_say_workloads() {
        let says_job = |t: &str| has_word(t, "job") || has_word(t, "jobs");
        let mut kueue = 0;
        for story in stories() {
            let text = story.scenario_text();
            let sc: serde_json::Value = serde_json::from_str(&text).unwrap();
            if sc["model"] != "kueue" {
                continue;
            }
            kueue += 1;
            let mut said = vec![story.title.clone(), story.intro.clone()];
            said.push(sc["description"].as_str().unwrap_or("").to_string());
            for st in &story.steps {
                said.push(st.title.clone());
                said.push(st.text.clone());
                if let Some(t) = &st.try_edit {
                    said.push(t.label.clone());
                    said.push(t.then.clone());
                }
            }
            for t in said {
                assert!(!says_job(&t), "{}: {t}", story.id);
            }
        }
        assert!(kueue > 0);
        for p in crate::io::presets::PRESETS
            .iter()
            .filter(|p| p.id.starts_with("kueue"))
        {
            assert!(!says_job(p.description), "{}: {}", p.id, p.description);
        }
    }

    /// Whether `word` stands alone in `t` (not inside "jobless" or "job-a").
    fn has_word(t: &str, word: &str) -> bool {
        t.split(|c: char| !(c.is_alphanumeric() || c == '-'))
            .any(|w| w.eq_ignore_ascii_case(word))
    }

    #[test]
    fn a_claim_the_engine_contradicts_is_caught() {
        let mut s = by_id("walkthrough").unwrap();
        s.steps[1].claims = format::Claims(serde_json::json!([{
            "kind": "event", "event": "preempt", "t_s": 61.0, "job": "bg-p2", "cause": "reclaim"
        }]));
        s.steps[1].highlight.push(Highlight::Job {
            job: "nobody".into(),
        });
        let wrong = claims::check(&s);
        assert_eq!(wrong.len(), 2, "{wrong:?}");
        assert!(wrong[0].contains("step 2"));
        assert!(wrong[1].contains("no job nobody"));
    }

    #[test]
    fn each_step_shows_the_job_history_walking_forward_left_open() {
        let w = by_id("walkthrough").unwrap();
        let shown: Vec<Option<String>> = (0..3).map(|i| job_shown_at(&w, i)).collect();
        assert_eq!(
            shown,
            [
                Some("bg-p2".into()),
                Some("bg-p2".into()),
                Some("bg-p1".into())
            ]
        );
        let a = by_id("allocation").unwrap();
        assert_eq!(job_shown_at(&a, 0), None);
        assert_eq!(job_shown_at(&a, 2), Some("busy-r2".into()));
        assert_eq!(story_jobs(&a).collect::<Vec<_>>(), ["busy-r2"]);
    }

    #[test]
    fn fragments_name_a_story_and_a_step() {
        assert_eq!(
            parse_fragment("#story=walkthrough&step=2"),
            Some(("walkthrough".into(), Some("2".into())))
        );
        assert_eq!(parse_fragment("#s=abc&story=x"), Some(("x".into(), None)));
        assert_eq!(parse_fragment("#s=abc"), None);
        assert_eq!(badge_number(0), '①');
    }
}
