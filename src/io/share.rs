//! Share links (SPEC 10) in the page: the URL follows the scenario, and a link opens one.
//!
//! The URL fragment follows the scenario as `#s=PAYLOAD`, made by [`quotalab_engine::link`]
//! (the codec `quotasim link` uses too):
//! - after each edit, once the scenario has run and validated, and a pause of
//!   [`SYNC_DELAY_MS`] (none when the window loses the focus, to the address bar), the
//!   fragment is *replaced* (typing never floods the history);
//! - discrete actions *push* a new entry, so Back and Forward (`popstate`, `hashchange`)
//!   restore earlier scenarios: a file or trace import ([`open_scenario`]), and a change that
//!   replaces the scenario rather than edits it ([`is_replacement`]: a new `name` with more
//!   than a typed word changed, as picking a preset does, or a large paste);
//! - on load, a `#s=` link is decoded and opened, and validated in an engine worker (the page
//!   does not carry the validator); a link that cannot be read, or whose scenario is invalid,
//!   shows a dismissible notice quoting the codec's or the validator's message and opens the
//!   default preset instead ([`init_from_url`]).
//!
//! - while a story is told ([`StoryLink`], set by the story player), the fragment also names
//!   it and its step:
//!   `#story=ID&step=N` alone while the scenario is the story's own, `#s=PAYLOAD&story=ID&step=N`
//!   once it was edited; on load, the story player opens the story.
//!
//! - while the Explore panel shows a sweep (`src/explore/`), the fragment also carries
//!   its settings, `&sweep=PATH,FROM,TO,STEP,SEEDS,METRIC` (after `s=` and any story part);
//!   on load, a `sweep=` opens the panel with them (the tools' wasm reads and checks them).
//!
//! Nothing read from a link or a file is ever inserted as HTML: every text goes through
//! Leptos text nodes or `value` properties.

use std::sync::Arc;

use leptos::{ev, prelude::*};
use quotalab_engine::link;
use wasm_bindgen::JsValue;

use crate::io::presets;
use crate::state::{AppState, Notice, LINK_WITH_RUN_BYTES};
use crate::worker::service::{use_engine_service, EngineService};
use quotalab_engine_worker::jobs::{Answer, Job};

/// Links longer than this are hard to share: many chat apps, e-mail clients, documents and
/// some browsers cut or refuse them.
pub const LONG_LINK: usize = 2000;

/// The fragment is not written past this many characters (browsers refuse URLs of a few
/// MB); the file export is the way to share such a scenario.
pub const MAX_FRAGMENT: usize = 1024 * 1024;

/// The pause after the last edit (and its run) before the URL follows; the URL follows at
/// once when the window loses the focus (to its address bar, most often), so a link copied
/// from there is never an older scenario's.
pub const SYNC_DELAY_MS: u64 = 200;

/// The link of the current scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkInfo {
    /// The whole URL: this page's address, `#s=`, the payload.
    pub url: String,
    /// Explicit jobs in the scenario (`jobs` array): what makes links long.
    pub jobs: usize,
}

impl LinkInfo {
    pub fn len(&self) -> usize {
        self.url.len()
    }

    pub fn is_empty(&self) -> bool {
        self.url.is_empty()
    }

    pub fn is_long(&self) -> bool {
        self.len() > LONG_LINK
    }
}

/// The share controls' state, provided as a context by [`init_from_url`] (or by the toolbar's
/// share bar when the page never called it).
#[derive(Clone, Copy)]
pub struct ShareState {
    /// The link to the current scenario when it is valid (updated after each run).
    pub link: RwSignal<Option<LinkInfo>>,
    /// Why the current valid scenario has no link (it is too large for one), in the
    /// page's words.
    pub no_link: RwSignal<Option<String>>,
    /// The next URL update pushes a history entry (a discrete action).
    push_next: StoredValue<bool>,
    /// The scenario `name` last written to the URL (a new name pushes an entry).
    synced_name: StoredValue<Option<String>>,
    /// The scenario text last written to the URL.
    synced_text: StoredValue<Option<String>>,
    pending: StoredValue<Option<TimeoutHandle>>,
    /// The Explore panel's sweep settings, as the link carries them (`sweep=`).
    pub sweep: RwSignal<Option<String>>,
    /// Bumped when Back, Forward or a pasted link brings sweep settings other than those
    /// shown: the Explore panel opens with them (the Explore panel's `install_page`).
    pub sweep_navigated: RwSignal<u64>,
}

impl Default for ShareState {
    fn default() -> ShareState {
        ShareState::new()
    }
}

impl ShareState {
    /// Whether the next URL update was to push a history entry (a new scenario, from
    /// [`open_scenario`]), clearing it: the tools' wasm hands that on to the page
    /// ([`super::tools`]).
    pub fn take_push(&self) -> bool {
        let push = self.push_next.get_value();
        self.push_next.set_value(false);
        push
    }

    pub fn new() -> ShareState {
        ShareState {
            link: RwSignal::new(None),
            push_next: StoredValue::new(false),
            synced_name: StoredValue::new(None),
            synced_text: StoredValue::new(None),
            no_link: RwSignal::new(None),
            pending: StoredValue::new(None),
            sweep: RwSignal::new(None),
            sweep_navigated: RwSignal::new(0),
        }
    }
}

/// The share state from context, created (and provided) if the page has none yet.
pub fn use_share() -> ShareState {
    use_context::<ShareState>().unwrap_or_else(|| {
        let share = ShareState::new();
        provide_context(share);
        share
    })
}

/// Opens the scenario of the page's `#s=` link, if any, and keeps the URL following the
/// scenario from then on (see the module documentation). Call once, in `App`, after the
/// [`AppState`] context is provided and before the runner starts.
pub fn init_from_url(app: AppState) -> ShareState {
    let share = ShareState::new();
    provide_context(share);
    share
        .sweep
        .set(current_hash().as_deref().and_then(sweep_part));
    if let Some(payload) = current_hash().as_deref().and_then(link_payload) {
        // The default preset instead, saying why.
        let refuse = move |lines: Vec<String>| {
            let default = presets::AWS_WALKTHROUGH;
            app.notice.set(Some(Notice::error(
                format!(
                    "This link could not be opened, so the default preset ({}) is shown instead.",
                    default.title
                ),
                lines,
            )));
            let text = presets::AWS_WALKTHROUGH_JSON.to_string();
            share.synced_name.set_value(scenario_name(&text));
            share.synced_text.set_value(Some(text.clone()));
            app.scenario.set(text);
        };
        match open_link(payload) {
            Ok(json) => {
                let json = presets::as_preset_text(json);
                share.synced_name.set_value(scenario_name(&json));
                share.synced_text.set_value(Some(json.clone()));
                app.scenario.set(json.clone());
                // Shown at once; the worker's validation may still send it back.
                check_link(use_engine_service(), json, move |lines| {
                    if app.scenario.try_with_untracked(|t| *t == lines.0) == Some(true) {
                        refuse(lines.1);
                    }
                });
            }
            Err(lines) => refuse(lines),
        }
    }
    // The page's first scenario counts as synced: a preset picked before its link is
    // written is still a new scenario (a history entry of its own, so Back returns here).
    if share.synced_text.with_value(Option::is_none) {
        let text = app.scenario.get_untracked();
        share.synced_name.set_value(scenario_name(&text));
        share.synced_text.set_value(Some(text));
    }
    install_url_sync(app, share);
    install_navigation(app, share);
    share
}

/// Replaces the scenario as a discrete action (file or trace import): the URL gets a new
/// history entry, so Back returns to the previous scenario.
pub fn open_scenario(app: AppState, share: ShareState, json: String) {
    share.push_next.set_value(true);
    app.scenario.set(json);
}

/// Decodes a link: the scenario JSON, or why it cannot be opened (the codec's message).
/// Its validation is [`check_link`]'s, in an engine worker.
pub fn open_link(text: &str) -> Result<String, Vec<String>> {
    link::decode(text).map_err(|p| vec![link_words(&p.message)])
}

/// Validates a link's scenario `json` in an engine worker; when it is invalid, calls
/// `refused` with the text and every problem in the page's words.
pub fn check_link(
    service: EngineService,
    json: String,
    refused: impl Fn((String, Vec<String>)) + 'static,
) {
    let text = json.clone();
    service.send(Job::Check { scenario: json }, move |answer| {
        if let Answer::Checked(Err(problems)) = answer {
            refused((text.clone(), link_problems(&problems)));
        }
    });
}

/// A link's invalid scenario, in the page's words: how many problems, then each.
fn link_problems(problems: &[quotalab_engine::Problem]) -> Vec<String> {
    let mut lines = vec![format!(
        "the link holds a scenario with {} problem{}:",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    )];
    lines.extend(problems.iter().map(|p| crate::ui::words::located(p, None)));
    lines
}

/// The link codec's refusal (SPEC 10, `quotasim link`'s words) as the page says it.
pub fn link_words(message: &str) -> String {
    let why = if message.contains("base64url") {
        "it has characters a Quota Lab link never has"
    } else if message.contains("zlib") {
        "its scenario is incomplete or altered"
    } else if message.contains("UTF-8") || message.contains("not JSON") {
        "it does not hold a scenario"
    } else if message.contains("too long") || message.contains("past 8 MiB") {
        "its scenario is larger than a link may carry (8 MiB)"
    } else if message.contains("is empty") {
        "it holds no scenario"
    } else {
        return message.to_string();
    };
    format!("This link is damaged: {why}. It was probably cut off or changed when it was copied; ask for it again.")
}

/// The payload of a `#s=PAYLOAD` fragment (`None` for any other fragment).
fn link_payload(hash: &str) -> Option<&str> {
    let rest = hash.strip_prefix('#').unwrap_or(hash).strip_prefix("s=")?;
    Some(rest.split('&').next().unwrap_or(rest))
}

/// The `sweep=` part of a fragment, if any.
fn sweep_part(hash: &str) -> Option<String> {
    let rest = hash
        .split(['#', '&'])
        .find_map(|p| p.strip_prefix("sweep="))?;
    Some(rest.to_string())
}

/// The page's fragment (`#...`), percent-decoded (a chat app may have escaped the link),
/// or `None` when it has none.
fn current_hash() -> Option<String> {
    let hash = window().location().hash().ok()?;
    if hash.len() <= 1 {
        return None;
    }
    Some(
        js_sys::decode_uri_component(&hash)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or(hash),
    )
}

/// This page's address without its fragment.
pub fn page_base() -> String {
    let href = window().location().href().unwrap_or_default();
    match href.find('#') {
        Some(i) => href[..i].to_string(),
        None => href,
    }
}

/// The scenario's `name`, if its text is a JSON object with one.
///
/// Read up to the `name` only (a scenario names itself near its top): a 16 MB trace's jobs
/// are not scanned to find a file's name (issue #30: 35 ms of the report's click). The text
/// after it is not checked; a text with no `name`, or not an object, gives `None`.
pub fn scenario_name(text: &str) -> Option<String> {
    use serde::de::{Deserializer as _, Error as _, IgnoredAny, MapAccess, Visitor};
    /// Finds the top-level `name`, then stops the reader with an error (nothing after it is
    /// read).
    struct Find<'a>(&'a mut Option<String>);
    impl<'de> Visitor<'de> for Find<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a scenario object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == "name" {
                    *self.0 = map.next_value::<Option<String>>()?;
                    return Err(A::Error::custom("found"));
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let mut name = None;
    let _ = serde_json::Deserializer::from_str(text).deserialize_map(Find(&mut name));
    name
}

/// How many explicit jobs the scenario lists.
pub fn job_count(text: &str) -> usize {
    head(text).1
}

/// The scenario's `name` and how many explicit jobs it lists, in one pass (one reader in
/// the page's wasm for both).
fn head(text: &str) -> (Option<String>, usize) {
    #[derive(serde::Deserialize)]
    struct Head {
        name: Option<String>,
        #[serde(default)]
        jobs: Vec<serde::de::IgnoredAny>,
    }
    serde_json::from_str::<Head>(text).map_or((None, 0), |h| (h.name, h.jobs.len()))
}

/// The link of a scenario text (`None` if it is not a JSON object).
pub fn link_of(text: &str) -> Option<LinkInfo> {
    let payload = link::encode(text).ok()?;
    Some(link_info(text, &payload))
}

/// The link of a scenario text whose payload is made.
pub fn link_info(text: &str, payload: &str) -> LinkInfo {
    LinkInfo {
        url: format!("{}#s={payload}", page_base()),
        jobs: job_count(text),
    }
}

/// The link the engine worker made with the current text's run (`None` until it comes):
/// its payload, or the engine's reason there is none.
fn run_link_now(app: AppState) -> Option<Result<String, String>> {
    let revision = app.revision();
    app.run_link.with_untracked(|l| {
        l.as_ref()
            .filter(|l| l.revision == revision)
            .map(|l| l.result.clone())
    })
}

/// The link of the current scenario for Copy link ([`current_link`]).
#[derive(Clone, Debug, PartialEq)]
pub enum CurrentLink {
    Made(LinkInfo),
    /// A large scenario's link comes with its run, which is not done yet.
    Coming,
    /// Why there is none, in the page's words.
    None(String),
}

/// The link of the current scenario: made here for a small scenario, or the one the engine
/// worker made with a large one's run.
pub fn current_link(app: AppState) -> CurrentLink {
    if app.scenario.with_untracked(String::len) <= LINK_WITH_RUN_BYTES {
        return match app.scenario.with_untracked(|t| link_of(t)) {
            Some(info) => CurrentLink::Made(info),
            None => CurrentLink::None("it is not a JSON object".to_string()),
        };
    }
    if !app.problems.with_untracked(Vec::is_empty) {
        return CurrentLink::None("it has problems; fix them first".to_string());
    }
    match run_link_now(app) {
        Some(Ok(payload)) => {
            CurrentLink::Made(app.scenario.with_untracked(|t| link_info(t, &payload)))
        }
        Some(Err(why)) => CurrentLink::None(no_link_words(&why)),
        None => CurrentLink::Coming,
    }
}

/// The part of the link a story being told adds (`story=ID&step=N`) and the scenario text
/// the story opened: an unedited story's link needs no `s=`. The story player provides and
/// sets it; a page without stories has none.
#[derive(Clone, Copy)]
pub struct StoryLink(pub RwSignal<Option<(String, Arc<String>)>>);

impl StoryLink {
    /// Provides an empty one as a context (before the URL sync is installed).
    pub fn provide() -> StoryLink {
        let link = StoryLink(RwSignal::new(None));
        provide_context(link);
        link
    }

    /// The story part for the current scenario `text`, and whether `text` is the story's own.
    fn part(self, text: &str) -> Option<(String, bool)> {
        self.0.with_untracked(|l| {
            l.as_ref()
                .map(|(part, opened)| (part.clone(), opened.as_str() == text))
        })
    }
}

/// After each edit and each run, [`SYNC_DELAY_MS`] after the last one, writes the link of
/// the current scenario to the URL (when it is valid and its run is done); at once when
/// the window loses the focus.
fn install_url_sync(app: AppState, share: ShareState) {
    let story = use_context::<StoryLink>();
    // A run's end, whether it drew a new result or relabelled the one shown (which changes
    // no outcome): a sync put off while the run was pending happens now.
    let stale = Memo::new(move |_| app.stale.get());
    Effect::new(move |_| {
        if let Some(s) = story {
            s.0.track();
        }
        app.scenario.track();
        app.outcome.track();
        // Read, not only tracked: a memo subscribes to its sources when it computes.
        stale.with(|_| ());
        app.problems.track();
        app.run_link.track();
        share.sweep.track();
        if let Some(h) = share.pending.get_value() {
            h.clear();
        }
        let handle = set_timeout_with_handle(
            move || {
                share.pending.set_value(None);
                sync_url(app, share, story);
            },
            std::time::Duration::from_millis(SYNC_DELAY_MS),
        )
        .ok();
        share.pending.set_value(handle);
    });
    // Focus leaving the page (for the address bar): a pending sync happens now.
    let blur = window_event_listener(ev::blur, move |_| {
        if let Some(Some(h)) = share.pending.try_get_value() {
            h.clear();
            share.pending.set_value(None);
            sync_url(app, share, story);
        }
    });
    // A page that goes away (a test's unmount) leaves no timer or listener behind.
    on_cleanup(move || {
        blur.remove();
        if let Some(Some(h)) = share.pending.try_get_value() {
            h.clear();
        }
    });
}

fn sync_url(app: AppState, share: ShareState, story: Option<StoryLink>) {
    let Some(valid) = app.problems.try_with_untracked(Vec::is_empty) else {
        return; // the page is gone
    };
    if !valid {
        // An invalid scenario has no link; the URL keeps the last valid one.
        share.link.set(None);
        return;
    }
    if app.stale.get_untracked() {
        return; // a run is pending: its end triggers another sync
    }
    // A scenario of a few KB is deflated here (a millisecond); a large one's link is made
    // by the engine worker after its run (`AppState::run_link`), so that neither the
    // deflating nor a second copy of the text holds the page.
    if app.scenario.with_untracked(String::len) > LINK_WITH_RUN_BYTES {
        match run_link_now(app) {
            // Not made yet: its arrival syncs again.
            None => {}
            Some(Ok(payload)) => {
                share.no_link.set(None);
                write_link(share, story, app.scenario.get_untracked(), &payload);
            }
            Some(Err(why)) => {
                share.link.set(None);
                share.no_link.set(Some(no_link_words(&why)));
                // The address bar never shows an older scenario's link: the bare page
                // (pushed after a scenario just opened, so Back returns to that one).
                let push = share.push_next.get_value();
                share.push_next.set_value(false);
                if let Some(hash) = current_hash() {
                    write_url(&page_base(), push && link_payload(&hash).is_some());
                }
            }
        }
        return;
    }
    share.no_link.set(None);
    let text = app.scenario.get_untracked();
    match link::encode(&text) {
        Ok(payload) => write_link(share, story, text, &payload),
        Err(_) => share.link.set(None),
    }
}

/// Why a valid scenario has no link, in the page's words (the engine's reason is SPEC 10's
/// bound: a link carries at most 8 MiB of compact JSON).
pub fn no_link_words(why: &str) -> String {
    if why.contains("too large") {
        "it is larger than a link may carry (8 MiB of JSON): share it as a file (Files → Export scenario)".to_string()
    } else {
        why.to_string()
    }
}

/// Shows `payload`, the link of `text`, and writes it to the URL.
fn write_link(share: ShareState, story: Option<StoryLink>, text: String, payload: &str) {
    // The story's own scenario needs no `s=`; an edited one travels with the story.
    let mut fragment = match story.and_then(|s| s.part(&text)) {
        Some((part, true)) => format!("#{part}"),
        Some((part, false)) => format!("#s={payload}&{part}"),
        None => format!("#s={payload}"),
    };
    if let Some(sweep) = share.sweep.get_untracked() {
        fragment = format!("{fragment}&sweep={sweep}");
    }
    let (name, jobs) = head(&text);
    share.link.set(Some(LinkInfo {
        url: format!("{}{fragment}", page_base()),
        jobs,
    }));
    let push = share.push_next.get_value();
    share.push_next.set_value(false);
    let current = current_hash();
    if current.as_deref() == Some(fragment.as_str()) {
        return;
    }
    let span = share
        .synced_text
        .with_value(|t| t.as_deref().map_or(0, |t| changed_span(t, &text)));
    let renamed = share.synced_name.with_value(|n| n.is_some() && *n != name);
    share.synced_name.set_value(name);
    share.synced_text.set_value(Some(text));
    // Push when there is an earlier scenario to go back to: one in the URL, or the bare
    // page's own first one (Back to the bare page opens it again).
    let push = (push || is_replacement(renamed, span))
        && current.as_deref().is_none_or(|h| link_payload(h).is_some());
    if fragment.len() > MAX_FRAGMENT {
        // Too long for a URL: drop the fragment rather than leave an older scenario's.
        write_url(&page_base(), false);
    } else {
        write_url(&fragment, push);
    }
}

/// How many bytes differ between two texts: the longer one's length minus their common
/// prefix and suffix (0 when equal; the size of what was typed or pasted in between).
pub fn changed_span(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    a.len().max(b.len()) - prefix - suffix
}

/// Whether a change between two URL updates is a new scenario rather than an edit: a new
/// `name` together with more than a typed word (picking a preset), or a large paste.
pub fn is_replacement(renamed: bool, changed_span: usize) -> bool {
    (renamed && changed_span > 64) || changed_span > 4096
}

fn write_url(url: &str, push: bool) {
    let Ok(history) = window().history() else {
        return;
    };
    let result = if push {
        history.push_state_with_url(&JsValue::NULL, "", Some(url))
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(url))
    };
    if let Err(e) = result {
        leptos::logging::warn!("cannot update the URL: {e:?}");
    }
}

/// Back, Forward, or a link pasted into the address bar of the open page: opens the
/// fragment's scenario (or says why it cannot, keeping the current one), and its sweep
/// settings, if any, in the Explore panel.
fn install_navigation(app: AppState, share: ShareState) {
    let service = use_engine_service();
    let on_navigate = move || {
        let Some(hash) = current_hash() else {
            // Back to the bare page (its first entry): what it shows on load.
            let default = presets::AWS_WALKTHROUGH_JSON;
            if app.scenario.with_untracked(|t| t != default) {
                share.synced_name.set_value(scenario_name(default));
                share.synced_text.set_value(Some(default.to_string()));
                app.scenario.set(default.to_string());
            }
            return;
        };
        let Some(payload) = link_payload(&hash) else {
            return;
        };
        // The sweep settings first: the scenario may be the one shown.
        let sweep = sweep_part(&hash);
        if sweep != share.sweep.get_untracked() {
            let some = sweep.is_some();
            share.sweep.set(sweep);
            if some {
                share.sweep_navigated.update(|n| *n += 1);
            }
        }
        // Already showing it (popstate and hashchange both fire on Back).
        let current = app.scenario.with_untracked(|t| link::encode(t).ok());
        if current.as_deref() == Some(payload) {
            return;
        }
        let refuse = move |lines: Vec<String>| {
            app.notice.set(Some(Notice::error(
                "This link could not be opened; the scenario was left as it was.",
                lines,
            )))
        };
        match open_link(payload) {
            Ok(json) => {
                let json = presets::as_preset_text(json);
                // Opened once the worker finds it valid (the scenario shown stays otherwise).
                let open = json.clone();
                let at = hash.clone();
                service.send(Job::Check { scenario: json }, move |answer| {
                    // Navigated on meanwhile: that navigation decides.
                    if current_hash().as_deref() != Some(at.as_str()) {
                        return;
                    }
                    match answer {
                        Answer::Checked(Err(problems)) => refuse(link_problems(&problems)),
                        _ => {
                            share.synced_name.set_value(scenario_name(&open));
                            share.synced_text.set_value(Some(open.clone()));
                            app.notice.set(None);
                            app.scenario.set(open);
                        }
                    }
                });
            }
            Err(lines) => refuse(lines),
        }
    };
    let pop = window_event_listener(ev::popstate, move |_| on_navigate());
    let hash = window_event_listener(ev::hashchange, move |_| on_navigate());
    on_cleanup(move || {
        pop.remove();
        hash.remove();
    });
}
