//! The Explore panel (SPEC 15 on the page): pick a numeric field of the scenario, a range,
//! a number of seeds and a metric; the sweep runs on a pool of Web Workers and each result
//! streams into a chart of the metric per share against the setting (median line, 10th-90th
//! percentile band), with progress, Cancel and a table for screen readers; clicking a dot
//! opens that variant (value and seed) in the main view as a new, undoable scenario.
//!
//! The panel is mounted when it first opens, as a Leptos root of its own; its runs go to a
//! pool of engine workers (`crates/engine-worker`, the page's one engine, compiled for
//! speed). Beside the page's part ([`install_page`], [`ExploreButton`], [`open_page`]), it
//! talks to the page through the tools' bridge (`quotalabHost`: `scenario`, `apply`, `notice`, and
//! `sweep`, `setSweep`, `changed` added here). Its styles come with it
//! (`www/quotalab-explore.css`, linked when it mounts).
//! The page itself only shows the "Explore a setting…" button and carries the sweep's
//! settings in its link (`#s=PAYLOAD&sweep=PATH,FROM,TO,STEP,SEEDS,METRIC`,
//! [`settings::Settings::to_link`]); a link with `sweep=` opens the panel with those
//! settings filled in and waits for Run (a link never starts simulations by itself).
//!
//! - [`settings`]: what a sweep asks, planned with the engine's `Sweep` (its problems
//!   before anything runs), and its link form (hostile input refused with a reason);
//! - [`fields`]: the numeric fields of the scenario, resolved by the engine's sweep paths,
//!   labelled in the editor's words;
//! - [`schedule`]: the order of the runs and which results count (cancel, last edit wins);
//! - [`pool`]: the engine workers; [`protocol`]: what the panel reads of their messages;
//! - [`chart`]: the plotters drawing and where its dots went; [`panel`]: the Leptos panel.
//!
//! Last edit wins: a new sweep or a change of the page's scenario (other than the variant
//! just opened from the chart) stops the runs in flight, by terminating the workers, and
//! the sweep number they carry makes any late result stale.

pub mod chart;
pub mod fields;
pub mod head;
pub mod panel;
pub mod pool;
pub mod protocol;
pub mod schedule;
pub mod settings;

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::io::share::ShareState;
use crate::state::AppState;
use panel::{Explore, ExplorePanel};
use settings::Settings;

const HOST: &str = "quotalabHost";
/// The panel's stylesheet, relative to the page.
pub const STYLES: &str = "./quotalab-explore.css";

use crate::worker::bridge::{get, set};

fn call(name: &str, args: &[JsValue]) -> Option<JsValue> {
    let host = get(&js_sys::global(), HOST)?;
    let f = get(&host, name)?.dyn_into::<js_sys::Function>().ok()?;
    let args: js_sys::Array = args.iter().collect();
    f.apply(&host, &args).ok()
}

// ---- the page's side ------------------------------------------------------------------

/// The page's part of the bridge (called by the page with what [`crate::io::tools::install_host`] returns): `sweep()`
/// (the link's sweep settings, as text), `setSweep(text or null)` (the panel's settings for
/// the link) and a call of the tools' `changed()` after each change of the scenario. A link
/// with sweep settings opens the panel.
pub fn install_page(host: &js_sys::Object, app: AppState, share: ShareState) {
    let sweep = Closure::<dyn Fn() -> Option<String>>::new(move || share.sweep.get_untracked());
    let set_sweep = Closure::<dyn Fn(Option<String>)>::new(move |s| share.sweep.set(s));
    let _ = set(host, "sweep", sweep.as_ref());
    let _ = set(host, "setSweep", set_sweep.as_ref());
    sweep.forget();
    set_sweep.forget();
    Effect::new(move |_| {
        app.scenario.track();
        call("changed", &[]);
    });
    if share.sweep.get_untracked().is_some() {
        open_page(app, RwSignal::new(false));
    }
    // Back, Forward or a pasted link with other sweep settings: the panel shows them.
    Effect::new(move |seen: Option<u64>| {
        let n = share.sweep_navigated.get();
        if seen.is_some_and(|s| s != n) {
            open_with(app, RwSignal::new(false), "open_explore_link");
        }
        n
    });
}

/// Opens the Explore panel, importing its wasm the first time (the page's notice says so if
/// it cannot be loaded). `busy` is true while it loads.
pub fn open_page(app: AppState, busy: RwSignal<bool>) {
    open_with(app, busy, "open_explore");
}

/// Opens the panel (`open_explore`), or with the link's sweep settings (`open_explore_link`).
fn open_with(_app: AppState, busy: RwSignal<bool>, entry: &'static str) {
    busy.set(true);
    // After the click's own handlers, as a microtask.
    wasm_bindgen_futures::spawn_local(async move {
        if entry == "open_explore_link" {
            open_link();
        } else {
            open();
        }
        busy.set(false);
    });
}

/// The share bar's "Explore a setting…" button ("Loading…" while its wasm loads).
#[component]
pub fn ExploreButton() -> impl IntoView {
    let app = crate::state::use_app();
    let busy = RwSignal::new(false);
    view! {
        <button
            type="button"
            class="explore-open"
            data-testid="explore-open"
            aria-busy=move || busy.get().then_some("true")
            on:click=move |_| open_page(app, busy)
        >
            {move || if busy.get() { "Loading…" } else { "Explore a setting…" }}
        </button>
    }
}

// ---- the tools' side --------------------------------------------------------------------

thread_local! {
    static MOUNTED: std::cell::Cell<Option<(Explore, NodeRef<html::Dialog>)>> =
        const { std::cell::Cell::new(None) };
}

/// The page's scenario, as the tools read it (a 16 MB trace through the bridge's JS string
/// cost ~100 ms).
fn page_scenario() -> String {
    crate::io::tools::page_scenario()
}

fn set_link(settings: Option<&Settings>) {
    let v = settings.map_or(JsValue::NULL, |s| JsValue::from_str(&s.to_link()));
    call("setSweep", &[v]);
}

fn mount() -> (Explore, NodeRef<html::Dialog>) {
    if let Some(m) = MOUNTED.with(|m| m.get()) {
        return m;
    }
    // Empty until it opens: the page's scenario is read after the panel shows ([`open`]).
    let explore = Explore::unread(true);
    let dialog = NodeRef::<html::Dialog>::new();
    let doc = document();
    let root = doc
        .create_element("div")
        .expect("a div")
        .unchecked_into::<web_sys::HtmlElement>();
    root.set_attribute("data-testid", "explore-root").ok();
    // The panel's styles come with the tools (not in the page's stylesheet: its load size).
    if let (Ok(link), Some(head)) = (doc.create_element("link"), doc.head()) {
        link.set_attribute("rel", "stylesheet").ok();
        link.set_attribute("href", STYLES).ok();
        head.append_child(&link).ok();
    }
    doc.body().expect("a body").append_child(&root).ok();
    let on_open = Callback::new(move |text: String| {
        call("apply", &[JsValue::from_str(&text), JsValue::TRUE]);
        if let Some(d) = dialog.get_untracked() {
            d.close();
        }
    });
    let handle = leptos::mount::mount_to(root, move || {
        // The link follows the sweep shown while the panel is open.
        // (Not on its first run: a link's settings not run yet stay in the link.)
        Effect::new(move |first: Option<()>| {
            let shown = explore.shown.get();
            if first.is_some() && dialog.get_untracked().is_some_and(|d| d.open()) {
                set_link(shown.as_ref());
            }
        });
        view! { <ExploreDialog explore=explore dialog=dialog on_open=on_open /> }
    });
    handle.forget();
    // A new scenario stops a sweep in flight at once; otherwise the panel reads it when it
    // opens ([`open`]): a closed panel does not copy and plan every edit of a 16 MB trace
    // (~300 ms each).
    let changed = Closure::<dyn Fn()>::new(move || {
        let open = dialog.get_untracked().is_some_and(|d| d.open());
        if open || explore.running.get_untracked() {
            explore.scenario_changed(page_scenario());
        }
    });
    if let Some(host) = get(&js_sys::global(), HOST) {
        let _ = set(&host, "changed", changed.as_ref());
    }
    changed.forget();
    read_link(explore);
    MOUNTED.with(|m| m.set(Some((explore, dialog))));
    (explore, dialog)
}

/// Fills the panel from the link's sweep settings, if it has any (or says why they cannot
/// be read, and drops them from the link).
fn read_link(explore: Explore) {
    if let Some(text) = call("sweep", &[]).and_then(|v| v.as_string()) {
        match Settings::from_link(&text) {
            Ok(s) => explore.set_settings(&s),
            Err(e) => {
                set_link(None);
                let lines: js_sys::Array = [JsValue::from_str(&e)].iter().collect();
                call(
                    "notice",
                    &[
                        JsValue::TRUE,
                        JsValue::from_str("The link's sweep settings could not be read, so the Explore panel opened empty."),
                        lines.into(),
                    ],
                );
            }
        }
    }
}

/// Opens the panel with the link's sweep settings (Back, Forward or a pasted link brought
/// them while the page was open; the first mount reads them itself).
pub fn open_link() {
    let mounted = MOUNTED.with(|m| m.get()).is_some();
    let (explore, _) = mount();
    if mounted {
        explore.stop(Some(
            "Stopped when a link's sweep settings were opened".into(),
        ));
        read_link(explore);
    }
    open();
}

/// Opens the Explore panel on the page's scenario (the tools' `Tool::Explore`): at once, or
/// in the next task when the panel is made now (making it and showing a modal over a large
/// scenario's page were one task of 60-80 ms, issue #30).
pub fn open() {
    let made = MOUNTED.with(|m| m.get()).is_some();
    let (explore, dialog) = mount();
    let show = move || {
        crate::io::dialog::open(dialog);
        // A sweep shown goes (back) into the link; a link's settings not run yet stay there
        // (a sweep of an earlier scenario, cleared just after, takes its settings out again).
        if let Some(shown) = explore.shown.get_untracked() {
            set_link(Some(&shown));
        }
        // The page's scenario, copied in a task after the panel shows and planned a piece
        // per task after that: a 16 MB trace's copy and its jobs located held the opening
        // click ~60 ms more (issue #30).
        set_timeout(
            move || explore.scenario_changed(page_scenario()),
            std::time::Duration::ZERO,
        );
    };
    if made {
        show();
    } else {
        set_timeout(show, std::time::Duration::ZERO);
    }
}

/// The Explore dialog: its title, a Close button and the panel. Closing it stops a sweep
/// in flight (its results stay) and takes the sweep out of the link.
#[component]
pub fn ExploreDialog(
    explore: Explore,
    dialog: NodeRef<html::Dialog>,
    on_open: Callback<String>,
) -> impl IntoView {
    view! {
        <dialog
            node_ref=dialog
            class="explore-dialog"
            data-testid="explore-dialog"
            aria-labelledby="explore-title"
            on:close=move |_| {
                explore.stop(Some("Stopped when the panel closed".into()));
                set_link(None);
            }
        >
            <div class="explore-head">
                <h2 id="explore-title">"Explore a setting"</h2>
                <button
                    type="button"
                    data-testid="explore-close"
                    on:click=move |_| {
                        if let Some(d) = dialog.get_untracked() {
                            d.close();
                        }
                    }
                >
                    "Close"
                </button>
            </div>
            <ExplorePanel explore=explore on_open=on_open />
        </dialog>
    }
}
