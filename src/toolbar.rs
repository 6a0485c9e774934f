//! The toolbar above the editor and the results: the preset picker, the Run button, the run
//! in flight (progress, Cancel), and the share bar (Copy link, the Files menu, the CSV trace
//! import and the notices they raise). It only places controls; what they do lives in
//! [`crate::state`] (runs, notices) and [`crate::io`] (presets, links, files, imports).

use leptos::html;
use leptos::prelude::*;

use crate::io::files::{self, FilesMenu};
use crate::io::presets::{by_id, fetch_text, matching, Preset, Source, PRESETS};
use crate::io::share::{current_link, use_share, CurrentLink, LinkInfo, LONG_LINK};
use crate::io::tools::{Tool, ToolButton};
use crate::state::{use_app, Notice, NoticeKind, RunStats};
use crate::ui::format;
use crate::ui::lasting::{lasting, SHOW_WORK_AFTER};

/// The toolbar (a region labelled "Scenario controls"); `children` (the app's run status
/// line) sit after the Run button.
#[component]
pub fn Toolbar(children: Children) -> impl IntoView {
    let app = use_app();
    view! {
        <div class="toolbar wrap" role="region" aria-label="Scenario controls">
            <PresetPicker />
            <button class="run" data-testid="run" on:click=move |_| app.run_requests.update(|n| *n += 1)>"Run"</button>
            {children()}
            <RunProgressBar />
            <ShareBar />
        </div>
    }
}

/// The toolbar's preset menu: picking a preset loads its scenario. Shows "Custom scenario"
/// once the text no longer matches a preset, and the picked preset's description below;
/// while a fetched preset loads, says so (the scenario on screen stays until it arrives), and
/// if it cannot be loaded, says why.
#[component]
pub fn PresetPicker() -> impl IntoView {
    let app = use_app();
    let current = Memo::new(move |_| app.scenario.with(|t| matching(t).map(|p| p.id)));
    // The fetch in flight or failed: (preset id, error if it failed).
    let loading = RwSignal::new(None::<(&'static str, Option<String>)>);
    let requests = StoredValue::new(0u64);
    // Any later change of the scenario (another preset, an edit) supersedes a fetch in
    // flight and clears a failure's message.
    Effect::new(move |_| {
        app.scenario.track();
        requests.update_value(|n| *n += 1);
        loading.set(None);
    });
    // The menu shows the preset being loaded, else the one on screen.
    let shown = Memo::new(move |_| match loading.get() {
        Some((id, None)) => Some(id),
        _ => current.get(),
    });
    let pick = move |p: &'static Preset| {
        requests.update_value(|n| *n += 1);
        let request = requests.get_value();
        match p.source {
            Source::Inline(text) => {
                loading.set(None);
                app.replace_scenario(text.to_string());
            }
            Source::Fetched { path, .. } => {
                loading.set(Some((p.id, None)));
                leptos::task::spawn_local(async move {
                    let result = fetch_text(path).await;
                    if requests.try_get_value() != Some(request) {
                        return; // another pick came first
                    }
                    match result {
                        Ok(text) => {
                            loading.set(None);
                            app.replace_scenario(text);
                        }
                        Err(e) => loading.set(Some((p.id, Some(e)))),
                    }
                });
            }
        }
    };
    let options = PRESETS
        .iter()
        .map(|p| {
            let id = p.id;
            view! {
                <option value=id prop:selected=move || shown.get() == Some(id)>
                    {p.title}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="preset-picker">
            <label for="preset-select">"Preset"</label>
            <select
                id="preset-select"
                data-testid="preset-select"
                aria-describedby="preset-description"
                on:change=move |ev| {
                    if let Some(p) = by_id(&event_target_value(&ev)) {
                        pick(p);
                    }
                }
            >
                {options}
                <option value="custom" disabled=true prop:selected=move || shown.get().is_none()>
                    "Custom scenario"
                </option>
            </select>
            <span
                id="preset-description"
                class="preset-description"
                class:preset-error=move || loading.with(|l| l.as_ref().is_some_and(|(_, e)| e.is_some()))
                data-testid="preset-description"
            >
                {move || match loading.get() {
                    Some((id, None)) => {
                        format!("Loading the {}…", by_id(id).map_or(id, |p| p.title))
                    }
                    Some((id, Some(e))) => {
                        format!(
                            "Could not load the {} preset ({e}); the scenario on screen is unchanged.",
                            by_id(id).map_or(id, |p| p.title),
                        )
                    }
                    None => {
                        current
                            .get()
                            .and_then(by_id)
                            .map_or("Edited: no longer a preset.", |p| p.description)
                            .to_string()
                    }
                }}
            </span>
        </div>
    }
}

/// The run in flight: a progress bar, its phase and a Cancel button; a worker failure as a
/// visible message. Run counters and timings are in its `data-*` attributes.
#[component]
pub fn RunProgressBar() -> impl IntoView {
    let app = use_app();
    let running = move || app.status.with(|s| s.progress().is_some());
    let percent = move || {
        app.status.with(|s| {
            s.progress()
                .map_or(0.0, |p| (p.fraction * 100.0).clamp(0.0, 100.0))
        })
    };
    let stat = move |f: fn(&RunStats) -> String| move || app.run_stats.with(f);
    // Shown once the run has lasted: a quick one moves nothing on the page.
    let bar_shown = lasting(Signal::derive(running), SHOW_WORK_AFTER);
    view! {
        <span
            class="run-progress"
            data-testid="run-progress"
            data-state=move || if running() { "running" } else { "idle" }
            data-worker=move || app.worker.get().as_str()
            data-runs-started=stat(|s| s.started.to_string())
            data-runs-finished=stat(|s| s.finished.to_string())
            data-runs-cancelled=stat(|s| s.cancelled.to_string())
            data-runs-superseded=stat(|s| s.superseded.to_string())
            data-run-where=stat(|s| (if s.on_worker { "worker" } else { "page" }).to_string())
            data-run-compute-ms=stat(|s| format!("{:.1}", s.compute_ms))
            data-run-decode-ms=stat(|s| format!("{:.1}", s.decode_ms))
            data-run-phases-ms=stat(|s| s.phases.map(|x| format!("{x:.1}")).join(","))
            data-run-hops-ms=stat(|s| s.hops_ms.map(|x| format!("{x:.1}")).join(","))
            data-run-reused=stat(|s| s.reused.to_string())
            data-run-name=move || app.name_shown()
        >
            <Show when=move || bar_shown.get()>
                <progress
                    class="run-bar"
                    max="100"
                    aria-label="Simulation progress"
                    prop:value=percent
                ></progress>
                <span class="run-phase">
                    {move || {
                        app.status
                            .with(|s| {
                                s.progress()
                                    .map(|p| format!("{} {:.0}%", p.phase.as_str(), p.fraction * 100.0))
                            })
                    }}
                </span>
                <button
                    type="button"
                    class="run-cancel"
                    data-testid="run-cancel"
                    on:click=move |_| app.cancel_run()
                >
                    "Cancel"
                </button>
            </Show>
            {move || {
                app.status
                    .with(|s| s.error().map(str::to_string))
                    .map(|m| view! { <span class="run-error" role="alert">{m}</span> })
            }}
        </span>
    }
}

const NO_LINK_NOW: &str = "The scenario has problems now: it has no link until they are fixed.";
const MOVED_ON: &str =
    "The scenario has changed since: this is its new link (Copy link copies it).";
const COPY_BY_HAND: &str = "The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.";

/// What the Copy link button did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CopyStatus {
    Copying,
    Copied,
    /// No clipboard access: the link is selected for Ctrl+C.
    Manual,
}

/// Copies `text` with the asynchronous clipboard API when the page has it; `false` when it
/// does not (then the caller offers the selected text).
fn write_clipboard(text: String, status: RwSignal<Option<CopyStatus>>) -> bool {
    let navigator = window().navigator();
    let has_clipboard = crate::worker::bridge::get(&navigator, "clipboard").is_some();
    if !has_clipboard {
        return false;
    }
    let promise = navigator.clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        let copied = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        status.set(Some(if copied {
            CopyStatus::Copied
        } else {
            CopyStatus::Manual
        }));
    });
    true
}

/// The toolbar's share controls: Copy link (with the link's length), the Files menu, the
/// CSV trace import, and the notices they raise.
#[component]
pub fn ShareBar() -> impl IntoView {
    let app = use_app();
    let share = use_share();
    let panel_open = RwSignal::new(false);
    let status = RwSignal::new(None::<CopyStatus>);
    // The link that was copied (the panel then follows edits: the status says when the
    // scenario has moved on from it).
    let copied = RwSignal::new(None::<String>);
    let field = NodeRef::<html::Input>::new();

    let select_field = move || {
        if let Some(input) = field.get_untracked() {
            let _ = input.focus();
            input.select();
        }
    };

    // Copy link pressed before a large scenario's link came with its run: copied when it comes.
    let copy_waiting = RwSignal::new(false);
    let copy_now = move || {
        // The text may have changed within the sync pause: the link of what is shown now.
        let info = match current_link(app) {
            CurrentLink::Made(info) => info,
            CurrentLink::Coming => {
                copy_waiting.set(true);
                panel_open.set(true);
                return;
            }
            CurrentLink::None(why) => {
                copy_waiting.set(false);
                app.notice.set(Some(Notice::error(
                    format!("This scenario has no link: {why}."),
                    Vec::new(),
                )));
                return;
            }
        };
        copy_waiting.set(false);
        let url = info.url.clone();
        copied.set(Some(url.clone()));
        share.link.set(Some(info));
        panel_open.set(true);
        status.set(Some(CopyStatus::Copying));
        if !write_clipboard(url, status) {
            status.set(Some(CopyStatus::Manual));
        }
        // Select the link once the panel shows it (the manual fallback, and a visible cue).
        request_animation_frame(select_field);
    };
    let copy = move |_| copy_now();
    Effect::new(move |_| {
        app.run_link.track();
        app.problems.track();
        if copy_waiting.get_untracked() {
            untrack(copy_now);
        }
    });

    let length = move || {
        share.link.with(|l| match l {
            None if !app.problems.with(Vec::is_empty) => {
                "no link: fix the scenario's problems first".to_string()
            }
            None if share.no_link.with(Option::is_some) => "no link: too large".to_string(),
            None => String::new(),
            Some(l) if l.is_long() => format!("{} characters: long link", format::count(l.len())),
            Some(l) => format!("{} characters", format::count(l.len())),
        })
    };
    let is_long = move || {
        share
            .link
            .with(|l| l.as_ref().is_some_and(LinkInfo::is_long))
    };

    let panel = move || {
        panel_open.get().then(|| {
            let url = move || {
                share
                    .link
                    .with(|l| l.as_ref().map(|l| l.url.clone()).unwrap_or_default())
            };
            let status_text = move || {
                if copy_waiting.get() {
                    return "Making the link: it comes with the scenario's run…";
                }
                if share.no_link.with(Option::is_some) && share.link.with(Option::is_none) {
                    return "This scenario is larger than a link may carry (8 MiB of JSON): share it as a file (Files → Export scenario).";
                }
                let (has_link, moved_on) = share.link.with(|l| {
                    copied.with(|c| {
                        let url = l.as_ref().map(|l| l.url.as_str());
                        (url.is_some(), url != c.as_deref())
                    })
                });
                if !has_link {
                    return NO_LINK_NOW;
                }
                if moved_on {
                    return MOVED_ON;
                }
                match status.get() {
                    Some(CopyStatus::Copying) => "Copying…",
                    Some(CopyStatus::Copied) => "Copied to the clipboard.",
                    Some(CopyStatus::Manual) => COPY_BY_HAND,
                    None => "",
                }
            };
            let long_note = move || {
                share.link.with(|l| {
                    l.as_ref().filter(|l| l.is_long()).map(|l| {
                        let why = if l.jobs > 0 {
                            format!(
                                "The scenario lists {} job{} explicitly (a trace, typically), and a link carries every one.",
                                format::count(l.jobs),
                                if l.jobs == 1 { "" } else { "s" }
                            )
                        } else {
                            "The scenario is large.".to_string()
                        };
                        view! {
                            <div class="long-link" data-testid="long-link-warning" role="note">
                                <p>
                                    {format!(
                                        "This link is {} characters long: many chat apps, e-mail clients and some browsers cut links past about {}. ",
                                        format::count(l.len()),
                                        format::count(LONG_LINK),
                                    )}
                                    {why}
                                </p>
                                <p>
                                    "Share the scenario file instead: "
                                    <button
                                        type="button"
                                        data-testid="long-link-export"
                                        on:click=move |_| files::export_scenario(app)
                                    >
                                        "Export scenario (JSON)"
                                    </button>
                                </p>
                            </div>
                        }
                    })
                })
            };
            view! {
                <div class="share-panel" data-testid="share-panel">
                    <label for="share-link-field">"Link to this scenario"</label>
                    <div class="share-link-row">
                        <input
                            id="share-link-field"
                            type="text"
                            readonly
                            spellcheck="false"
                            data-testid="share-link"
                            node_ref=field
                            prop:value=url
                            on:focus=move |_| select_field()
                        />
                        <button
                            type="button"
                            class="share-panel-close"
                            aria-label="Close the link panel"
                            on:click=move |_| panel_open.set(false)
                        >
                            "Close"
                        </button>
                    </div>
                    <p class="copy-status" role="status" data-testid="copy-status">{status_text}</p>
                    {long_note}
                    <p class="share-hint">
                        "Whoever opens the link sees this scenario and its simulation; the link holds the whole scenario (nothing is stored on a server)."
                    </p>
                </div>
            }
        })
    };

    view! {
        <div class="share-bar" data-testid="share-bar">
            <div class="share-controls">
                <button
                    type="button"
                    class="copy-link"
                    data-testid="copy-link"
                    on:click=copy
                    prop:disabled=move || !app.problems.with(Vec::is_empty)
                    title="Copy a link that opens this scenario"
                >
                    "Copy link"
                </button>
                <span class="link-length" class:long=is_long data-testid="link-length">
                    {length}
                </span>
                <FilesMenu />
                <ToolButton tool=Tool::Trace label="Import CSV trace…" class="trace-open" testid="trace-open" />
                <crate::explore::ExploreButton />
            </div>
            {panel}
            <NoticeView />
        </div>
    }
}

/// The current notice, with a button that dismisses it.
#[component]
pub fn NoticeView() -> impl IntoView {
    let app = use_app();
    move || {
        app.notice.get().map(|n| {
            let lines = (!n.lines.is_empty()).then(|| {
                view! {
                    <ul class="notice-lines">
                        {n.lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                    </ul>
                }
            });
            let error = n.kind == NoticeKind::Error;
            view! {
                <div
                    class="share-notice"
                    class:error=error
                    class:info=!error
                    role=if error { "alert" } else { "status" }
                    data-testid="share-notice"
                >
                    <div class="notice-body">
                        <p class="notice-title">{n.title}</p>
                        {lines}
                    </div>
                    <button
                        type="button"
                        class="notice-dismiss"
                        data-testid="notice-dismiss"
                        aria-label="Dismiss this message"
                        on:click=move |_| app.notice.set(None)
                    >
                        "Dismiss"
                    </button>
                </div>
            }
        })
    }
}
