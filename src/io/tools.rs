//! The page's less used tools: the "Import configuration" dialog (SPEC 13,
//! [`super::config`]), the CSV trace import ([`super::trace_form`]), the exports, the
//! compare card's three-way comparison (SPEC 9) and the report. Each asks the engine worker
//! for its work (`crate::worker::service`).
//!
//! They are mounted the first time one is used, as a Leptos root of their own on a state of
//! their own that starts from the page's scenario, and talk to the page through one small
//! bridge on `window`:
//!
//! - the page ([`install_host`], [`open`]) registers `quotalabHost` with `scenario()` (the
//!   scenario text now), `digest()` (the last run's digest, postcard bytes, for the result
//!   files' exports), `apply(text, push)` (a tool's new scenario: `push` when it is a new
//!   scenario, as [`super::share::open_scenario`] says) and `notice(error, title, lines)`;
//!   [`open`] calls [`open_tool`];
//! - the tools ([`open_tool`]) mount both dialogs once, open the one asked for, and hand
//!   every scenario and notice they produce to the page, which records them (undo, link) as
//!   if they had been made there.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use quotalab_engine_worker::config::OutFormat;

use super::files::ResultFile;
use super::share::{self, ShareState};
use crate::state::{AppState, Notice, NoticeKind};

/// A tool of the tools wasm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// The "Import configuration" dialog (AWS Batch JSON, Kueue YAML).
    Config,
    /// The CSV job trace import with its column mapping.
    Trace,
    /// The "Import job history" dialog (SPEC 16: Kueue Workloads, AWS Batch jobs).
    History,
    /// The "Review a proposed change" dialog (SPEC 16).
    Review,
    /// The scenario's shares exported as a configuration file (a download).
    Export(OutFormat),
    /// The compare card's comparison switched on (with the page's scenario now) or off
    /// ([`crate::results::compare::CompareView`]).
    Compare(bool),
    /// A file of the page's last run (result JSON, CSVs, occupancy SVG), a download.
    ExportResult(ResultFile),
    /// The scenario's report, one self-contained HTML file (SPEC 14, `quotalab_report`), a
    /// download; with the comparison (SPEC 9.1) while the compare switch is on.
    Report,
}

impl Tool {
    /// The number the bridge carries.
    pub fn code(self) -> u32 {
        match self {
            Tool::Config => 0,
            Tool::Trace => 1,
            Tool::Export(OutFormat::AwsJson) => 2,
            Tool::Export(OutFormat::AwsScript) => 3,
            Tool::Export(OutFormat::Kueue) => 4,
            Tool::Export(OutFormat::KueuePatch) => 8,
            Tool::History => 9,
            Tool::Review => 10,
            Tool::Compare(false) => 5,
            Tool::Compare(true) => 6,
            Tool::Report => 7,
            Tool::ExportResult(kind) => {
                20 + ResultFile::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u32
            }
        }
    }

    pub fn from_code(code: u32) -> Option<Tool> {
        Some(match code {
            0 => Tool::Config,
            1 => Tool::Trace,
            2 => Tool::Export(OutFormat::AwsJson),
            3 => Tool::Export(OutFormat::AwsScript),
            4 => Tool::Export(OutFormat::Kueue),
            5 => Tool::Compare(false),
            6 => Tool::Compare(true),
            7 => Tool::Report,
            8 => Tool::Export(OutFormat::KueuePatch),
            9 => Tool::History,
            10 => Tool::Review,
            20.. => Tool::ExportResult(*ResultFile::ALL.get(code as usize - 20)?),
            _ => return None,
        })
    }
}

const HOST: &str = "quotalabHost";

fn global() -> JsValue {
    js_sys::global().into()
}

use crate::worker::bridge::{get, set};

fn function(obj: &JsValue, key: &str) -> Result<js_sys::Function, String> {
    get(obj, key)
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| format!("{key} is missing"))
}

// ---- the page's side ------------------------------------------------------------------

thread_local! {
    /// The page's state: the tools' root runs in the same wasm and thread, so a scenario
    /// crosses between them as a Rust `String` (through the JS bridge, a trace's 16 MB
    /// were decoded to a JS string and encoded back, ~130 ms of the page's thread).
    static PAGE: std::cell::Cell<Option<(AppState, ShareState)>> =
        const { std::cell::Cell::new(None) };
}

/// Registers the bridge the tools call (once, by the page's [`crate::App`]) and returns it,
/// for the Explore panel's part (the Explore panel's `install_page`, called by the page).
pub fn install_host(app: AppState, share: ShareState) -> js_sys::Object {
    PAGE.with(|p| p.set(Some((app, share))));
    let host = js_sys::Object::new();
    let scenario = Closure::<dyn Fn() -> String>::new(move || app.scenario.get_untracked());
    // The last run's digest as postcard bytes (the worker protocol's encoding), or undefined.
    let digest = Closure::<dyn Fn() -> JsValue>::new(move || {
        app.outcome
            .with_untracked(|o| {
                o.as_ref()
                    .and_then(|o| postcard::to_allocvec(&*o.digest).ok())
            })
            .map_or(JsValue::UNDEFINED, |b| {
                js_sys::Uint8Array::from(&b[..]).into()
            })
    });
    let apply = Closure::<dyn Fn(String, bool)>::new(move |text: String, push: bool| {
        if push {
            share::open_scenario(app, share, text);
        } else {
            app.scenario.set(text);
        }
    });
    let notice = Closure::<dyn Fn(bool, String, js_sys::Array)>::new(
        move |error: bool, title: String, lines: js_sys::Array| {
            let lines = lines.iter().filter_map(|l| l.as_string()).collect();
            app.notice.set(Some(if error {
                Notice::error(title, lines)
            } else {
                Notice::info(title, lines)
            }));
        },
    );
    // A replayed history's unfinished jobs ([`AppState::unfinished`]), a line each: its id,
    // a tab, its words (one string: the glue of a closure of a string is there already).
    let unfinished = Closure::<dyn Fn(String)>::new(move |lines: String| {
        app.unfinished.set(lines);
    });
    // A tool's notice that its own work has ended ("Making the report…" once the report is
    // downloaded): cleared if it is still the one shown.
    let clear_notice = Closure::<dyn Fn(String)>::new(move |title: String| {
        if app
            .notice
            .with_untracked(|n| n.as_ref().is_some_and(|n| n.title == title))
        {
            app.notice.set(None);
        }
    });
    for (key, f) in [
        ("scenario", scenario.as_ref()),
        ("digest", digest.as_ref()),
        ("apply", apply.as_ref()),
        ("notice", notice.as_ref()),
        ("clear_notice", clear_notice.as_ref()),
        ("unfinished", unfinished.as_ref()),
    ] {
        let _ = set(&host, key, f);
    }
    // The page lives as long as its window: the closures too.
    scenario.forget();
    digest.forget();
    apply.forget();
    notice.forget();
    clear_notice.forget();
    unfinished.forget();
    let _ = set(&global(), HOST, &host);
    host
}

/// Opens `tool` (the tools' dialogs are mounted the first time). `busy` is true while it
/// opens.
pub fn open(_app: AppState, tool: Tool, busy: RwSignal<bool>) {
    busy.set(true);
    // After the click's own handlers (a menu closing), as a microtask.
    wasm_bindgen_futures::spawn_local(async move {
        open_tool(tool.code());
        busy.set(false);
    });
}

/// A button that opens `tool` (its label while the tools load: "Loading…").
#[component]
pub fn ToolButton(
    tool: Tool,
    label: &'static str,
    #[prop(optional)] class: Option<&'static str>,
    #[prop(optional)] testid: Option<&'static str>,
    #[prop(optional)] role: Option<&'static str>,
    /// Called after a click (a menu closes itself).
    #[prop(optional)]
    then: Option<Callback<()>>,
) -> impl IntoView {
    let app = crate::state::use_app();
    let busy = RwSignal::new(false);
    view! {
        <button
            type="button"
            class=class
            data-testid=testid
            role=role
            aria-busy=move || busy.get().then_some("true")
            on:click=move |_| {
                if let Some(t) = then {
                    t.run(());
                }
                open(app, tool, busy);
            }
        >
            {move || if busy.get() { "Loading…" } else { label }}
        </button>
    }
}

// ---- the tools' side --------------------------------------------------------------------

/// The tools' mounted dialogs and their state.
#[derive(Clone, Copy)]
struct Mounted {
    app: AppState,
    config: NodeRef<html::Dialog>,
    trace: NodeRef<html::Dialog>,
    history: NodeRef<html::Dialog>,
    review: NodeRef<html::Dialog>,
    /// The tools' scenario was just taken from the page: its change is not handed back.
    from_page: StoredValue<bool>,
    service: crate::worker::service::EngineService,
    /// The compare card's switch, and whether its comparison is mounted in the page's card.
    compare_on: RwSignal<bool>,
    compare_mounted: StoredValue<bool>,
    /// How many times the compare switch was passed on ([`open_tool`]): a deferred "on"
    /// applies only if no later call came.
    compare_asked: StoredValue<u64>,
}

thread_local! {
    static MOUNTED: std::cell::Cell<Option<Mounted>> = const { std::cell::Cell::new(None) };
}

fn host() -> Result<JsValue, String> {
    get(&global(), HOST).ok_or_else(|| "the page's bridge is missing".to_string())
}

/// Whether two texts are the same, compared eight bytes at a time (wasm's `memcmp` goes a
/// byte at a time: 16 MB took ~25 ms).
pub fn same_text(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (wa, wb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tails_equal = wa.remainder() == wb.remainder();
    tails_equal
        && wa.zip(wb).all(|(x, y)| {
            u64::from_ne_bytes(x.try_into().unwrap_or_default())
                == u64::from_ne_bytes(y.try_into().unwrap_or_default())
        })
}

/// `f` of the page's scenario text now (not copied where the page's state is this wasm's).
fn with_page_scenario<R>(f: impl FnOnce(&str) -> R) -> R {
    let mut f = Some(f);
    let mut call = |t: &str| f.take().map(|f| f(t));
    if let Some((app, _)) = PAGE.with(std::cell::Cell::get) {
        if let Some(Some(r)) = app.scenario.try_with_untracked(|t| call(t)) {
            return r;
        }
    }
    call(&page_scenario()).expect("called once: the page's state did not call it")
}

/// The page's scenario text now (the tools' and the Explore panel's: a Rust `String` where
/// the page's state is this wasm's, else through the bridge).
pub(crate) fn page_scenario() -> String {
    if let Some((app, _)) = PAGE.with(std::cell::Cell::get) {
        if let Some(text) = app.scenario.try_get_untracked() {
            return text;
        }
    }
    host()
        .and_then(|h| function(&h, "scenario"))
        .ok()
        .and_then(|f| f.call0(&JsValue::NULL).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// A scenario the tools made, to the page (`push`: a new scenario, as
/// [`share::open_scenario`] says).
fn hand_to_page(text: String, push: bool) {
    if let Some((app, share)) = PAGE.with(std::cell::Cell::get) {
        if app.scenario.try_with_untracked(|_| ()).is_some() {
            if push {
                share::open_scenario(app, share, text);
            } else {
                app.scenario.set(text);
            }
            return;
        }
    }
    if let Ok(f) = host().and_then(|h| function(&h, "apply")) {
        let _ = f.call2(
            &JsValue::NULL,
            &JsValue::from_str(&text),
            &JsValue::from(push),
        );
    }
}

/// The page's last run (`None` without one): the page's own, or decoded from the bridge's
/// postcard bytes where the page's state is not in this wasm (the Philly trace's digest,
/// 11 MB, took ~100 ms of the page's thread each way).
fn page_digest() -> Option<std::sync::Arc<quotalab_engine::digest::Digest>> {
    if let Some((app, _)) = PAGE.with(std::cell::Cell::get) {
        if let Some(outcome) = app.outcome.try_get_untracked() {
            return outcome.map(|o| o.digest);
        }
    }
    let bytes = host()
        .and_then(|h| function(&h, "digest"))
        .ok()?
        .call0(&JsValue::NULL)
        .ok()?
        .dyn_into::<js_sys::Uint8Array>()
        .ok()?
        .to_vec();
    postcard::from_bytes(&bytes).ok().map(std::sync::Arc::new)
}

/// Mounts the tools once: their own state, whose scenario is the page's, copied by each tool
/// that reads it ([`open_tool`]); every new scenario and notice goes to the page.
fn mount() -> Mounted {
    if let Some(m) = MOUNTED.with(|m| m.get()) {
        return m;
    }
    // Empty until a tool that reads it copies the page's ([`open_tool`]).
    let app = AppState::new(String::new());
    let share = ShareState::new();
    let m = Mounted {
        app,
        config: NodeRef::new(),
        trace: NodeRef::new(),
        history: NodeRef::new(),
        review: NodeRef::new(),
        from_page: StoredValue::new(false),
        service: crate::worker::service::default_service(),
        compare_on: RwSignal::new(false),
        compare_mounted: StoredValue::new(false),
        compare_asked: StoredValue::new(0),
    };
    let doc = leptos::prelude::document();
    let root = doc
        .create_element("div")
        .expect("a div")
        .unchecked_into::<web_sys::HtmlElement>();
    root.set_attribute("data-testid", "tools-root").ok();
    doc.body().expect("a body").append_child(&root).ok();
    let handle = leptos::mount::mount_to(root, move || {
        provide_context(app);
        provide_context(share);
        provide_context(m.service);
        // A scenario the tools made goes to the page (not the page's own, handed in).
        // The tools' copy is handed over, not cloned (a trace's 16 MB cost a copy each):
        // the next tool opened takes the page's scenario again (`open_tool`).
        Effect::new(move |prev: Option<()>| {
            app.scenario.track();
            let handed_in = m
                .from_page
                .try_update_value(std::mem::take)
                .unwrap_or(false);
            if prev.is_none() || handed_in {
                return;
            }
            let push = share.take_push();
            let text = app
                .scenario
                .try_update_untracked(std::mem::take)
                .unwrap_or_default();
            if text.len() < quotalab_engine_worker::kept::LAZY_BYTES {
                hand_to_page(text, push);
            } else {
                // A large scenario reaches the page in a task of its own, apart from the
                // task that received it from the worker (issue #30: no long task).
                set_timeout(move || hand_to_page(text, push), std::time::Duration::ZERO);
            }
        });
        // A history's unfinished jobs go to the page (set before its scenario).
        Effect::new(move |prev: Option<()>| {
            let lines = app.unfinished.get();
            if prev.is_some() {
                if let Ok(f) = host().and_then(|h| function(&h, "unfinished")) {
                    let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&lines));
                }
            }
        });
        // The tools' notices go to the page's. A tool that empties its own (its work is
        // done: "Making the report…" once the report is downloaded) clears the page's notice
        // it forwarded last, if that is still the one shown.
        let forwarded = StoredValue::new(None::<String>);
        Effect::new(move |_| {
            let Some(n) = app.notice.get() else {
                if let Some(title) = forwarded.get_value() {
                    if let Ok(f) = host().and_then(|h| function(&h, "clear_notice")) {
                        let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&title));
                    }
                }
                forwarded.set_value(None);
                return;
            };
            if let Ok(f) = host().and_then(|h| function(&h, "notice")) {
                let lines: js_sys::Array = n.lines.iter().map(|l| JsValue::from_str(l)).collect();
                let _ = f.call3(
                    &JsValue::NULL,
                    &JsValue::from(n.kind == NoticeKind::Error),
                    &JsValue::from_str(&n.title),
                    &lines,
                );
            }
            forwarded.set_value(Some(n.title));
        });
        view! {
            <super::config::ConfigDialog node_ref=m.config />
            <super::trace_form::TraceDialog node_ref=m.trace />
            <super::history::HistoryDialog node_ref=m.history />
            <super::review::ReviewDialog node_ref=m.review />
        }
    });
    handle.forget();
    MOUNTED.with(|c| c.set(Some(m)));
    m
}

/// Opens tool `code` ([`Tool::code`]) on the page's current scenario (the tools binary's
/// export calls this).
pub fn open_tool(code: u32) {
    let Some(tool) = Tool::from_code(code) else {
        return;
    };
    let m = mount();
    // A file made of the page's scenario (a report, a result file, a configuration) takes it
    // as it is, in a task after the click's (the menu closes first: a 16 MB trace's copy and
    // posting take ~30 ms); the tools' own copy is brought up to date only for the tools
    // that read it (its copy and comparison cost the click as much again, issue #30).
    let file = move || match tool {
        Tool::Report => {
            let compare = m.compare_on.get_untracked();
            super::files::export_report(m.app, m.service, page_scenario(), compare);
        }
        Tool::ExportResult(kind) => match kind.made_by_a_worker() {
            // Made by an engine worker from the scenario, whole (every job and event).
            Some(file) => super::files::export_run_file(m.app, m.service, page_scenario(), file),
            // The occupancy SVG, drawn from the last run (none: nothing to draw); the
            // scenario gives its name.
            None => {
                if let Some(d) = page_digest() {
                    let stem = with_page_scenario(super::files::file_stem);
                    super::files::export_occupancy_svg(m.app, &stem, &d);
                }
            }
        },
        Tool::Export(format) => {
            let service = super::config::ConfigService(m.service);
            super::config::export_config(m.app, service, page_scenario(), format);
        }
        _ => {}
    };
    if matches!(tool, Tool::Report | Tool::ExportResult(_) | Tool::Export(_)) {
        set_timeout(file, std::time::Duration::ZERO);
        return;
    }
    // The tools' copy of the page's scenario, copied only when it differs (a 16 MB trace's
    // copy costs ~10 ms, the comparison ~3 ms).
    let sync = move || {
        let differs = with_page_scenario(|page| {
            m.app
                .scenario
                .with_untracked(|own| !same_text(own.as_bytes(), page.as_bytes()))
        });
        if differs {
            m.from_page.set_value(true);
            m.app.scenario.set(page_scenario());
        }
    };
    if let Tool::Compare(on) = tool {
        mount_compare(m);
        // Switched on: the copy and the comparison's request (another copy, posted) in a
        // task after the switch's or the new result's (a 16 MB trace's: ~40 ms), unless the
        // switch was passed on again meanwhile. Off: at once.
        m.compare_asked.update_value(|n| *n += 1);
        let asked = m.compare_asked.get_value();
        if on {
            set_timeout(
                move || {
                    if m.compare_asked.get_value() == asked {
                        sync();
                        m.compare_on.set(true);
                    }
                },
                std::time::Duration::ZERO,
            );
        } else {
            m.compare_on.set(false);
        }
        return;
    }
    sync();
    match tool {
        Tool::Config => super::config::open_dialog(m.config),
        Tool::Trace => super::trace_form::open_dialog(m.trace),
        Tool::History => super::history::open_dialog(m.history),
        Tool::Review => super::review::open_dialog(m.review),
        // Answered above: a report (with the comparison while the page's compare switch
        // is on, `Tool::Compare`), the result files, the configuration exports and the
        // comparison.
        Tool::Report | Tool::ExportResult(_) | Tool::Export(_) | Tool::Compare(_) => {}
    }
}

/// Mounts the comparison into the page's compare card (`compare-host`), once; it compares
/// the tools' copy of the scenario, which [`open_tool`] keeps equal to the page's.
fn mount_compare(m: Mounted) {
    if m.compare_mounted.get_value() {
        return;
    }
    let Some(host) = leptos::prelude::document()
        .query_selector("[data-testid=compare-host]")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    let (app, on) = (m.app, m.compare_on);
    let handle = leptos::mount::mount_to(host, move || {
        provide_context(app);
        let source = Signal::derive(move || app.scenario.get());
        view! { <crate::results::compare::CompareBody on=on.into() source=source /> }
    });
    handle.forget();
    m.compare_mounted.set_value(true);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tool crosses the bridge as a number of its own and comes back as itself.
    #[test]
    fn every_tool_has_its_own_code() {
        let mut all = vec![
            Tool::Config,
            Tool::Trace,
            Tool::History,
            Tool::Review,
            Tool::Report,
        ];
        all.extend(
            [
                OutFormat::AwsJson,
                OutFormat::AwsScript,
                OutFormat::Kueue,
                OutFormat::KueuePatch,
            ]
            .map(Tool::Export),
        );
        all.extend([false, true].map(Tool::Compare));
        all.extend(ResultFile::ALL.map(Tool::ExportResult));
        let mut codes: Vec<u32> = all.iter().map(|t| t.code()).collect();
        for t in &all {
            assert_eq!(Tool::from_code(t.code()), Some(*t), "{t:?}");
        }
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len(), "two tools share a code");
        assert_eq!(Tool::from_code(11), None);
        assert_eq!(Tool::from_code(19), None);
        assert_eq!(Tool::from_code(20 + ResultFile::ALL.len() as u32), None);
    }
}
