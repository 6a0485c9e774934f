//! The scenario editor: forms for all of SPEC 7 and a raw JSON view kept in sync, and the
//! glossary under it (each field's AWS and Kueue names).
//!
//! The scenario text ([`crate::state::AppState::scenario`]) stays the single source of
//! truth: every form field reads its value at one JSON path of the parsed text and writes
//! its edits back as text (pretty-printed, key order kept). Each field also shows the
//! validator's problems for its path; problems no field shows are listed at the top.

pub mod context;
pub mod contract;
pub mod dist;
pub mod fields;
pub mod general;
pub mod glossary;
pub mod json;
pub mod kueue;
pub mod lazy;
pub mod path;
pub mod rows;
pub mod shares;
pub use crate::ui::words;
pub mod workloads;

use leptos::prelude::*;
use quotalab_engine::Problem;

use crate::state::use_app;
use context::{use_ed, Ed};

/// The editor panel.
#[component]
pub fn Editor() -> impl IntoView {
    let app = use_app();
    let ed = Ed::new(app);
    provide_context(ed);
    let editable = Memo::new(move |_| ed.json_error.with(Option::is_none));
    let kueue = kueue::is_kueue(ed);
    install_undo_keys(app);
    view! {
        <section
            class="card editor"
            aria-labelledby="editor-heading"
            on:focusout=move |_| app.history.seal()
        >
            <div class="editor-head">
                <h2 id="editor-heading">"Scenario"</h2>
                <ProblemCount />
                <UndoRedo />
            </div>
            <Unclaimed />
            {move || {
                ed.json_error
                    .get()
                    .map(|e| {
                        view! {
                            <div class="notice" role="status" data-testid="json-notice">
                                <strong>"The JSON text is not valid: "</strong>
                                {e}
                                ". The forms are read-only until it is fixed in the JSON editor below."
                            </div>
                        }
                    })
            }}
            <fieldset class="forms" disabled=move || !editable.get()>
                <legend class="visually-hidden">"Scenario forms"</legend>
                <Section title="General" prefixes=&["name", "description", "seed", "horizon_s", "queue", "format", "model"]>
                    <general::GeneralFields />
                </Section>
                <Section title="Instance types and capacity" kueue_title="ResourceFlavors and capacity" prefixes=&["instance_types", "capacity"]>
                    <general::TypesFields />
                </Section>
                <Section
                    title="Quota shares"
                    kueue_title="ClusterQueues"
                    prefixes=&["shares"]
                    count=Signal::derive(move || {
                        // AWS Batch allows 5 shares per queue, worth showing; the Kueue
                        // model's bound is only a safety limit.
                        let n = ed.share_names.with(Vec::len);
                        if kueue.get() {
                            n.to_string()
                        } else {
                            format!("{n} / {}", quotalab_engine::model::limits::max_shares(false))
                        }
                    })
                >
                    <shares::SharesFields />
                </Section>
                <Show when=move || kueue.get()>
                    <Section
                        title="Cohorts and fair sharing"
                        prefixes=&["cohorts", "fair_sharing"]
                        count=list_count(ed, "cohorts")
                    >
                        <kueue::CohortsFields />
                    </Section>
                </Show>
                <Section title="Workload mixes" prefixes=&["workloads"] count=list_count(ed, "workloads")>
                    <workloads::WorkloadsFields />
                </Section>
                <Section title="Explicit jobs" prefixes=&["jobs"] count=list_count(ed, "jobs")>
                    <workloads::JobsFields />
                </Section>
                <Section title="Timed events" prefixes=&["events"] count=list_count(ed, "events")>
                    <workloads::EventsFields />
                </Section>
                <Section title="Interruption contract" prefixes=&["alarms"]>
                    <contract::AlarmsFields />
                </Section>
            </fieldset>
            <RawJson />
        </section>
    }
}

fn list_count(ed: Ed, list: &'static str) -> Signal<String> {
    Signal::derive(move || {
        ed.doc
            .with(|d| crate::ui::format::thousands(d.list_len(list) as f64))
    })
}

/// Whether Ctrl+Z typed in `target` is the element's own text undo: a text control outside
/// the scenario forms (the raw JSON editor, the import form, the toolbar) keeps the
/// browser's undo. The forms' fields do not: each keystroke there rewrites the scenario
/// text and the field is drawn from it (so the browser's undo stack of the field is not the
/// scenario's), and an edit may change other places too (a renamed share's jobs), so the
/// page's undo is the one that restores what was there.
fn own_text_undo(target: Option<web_sys::EventTarget>) -> bool {
    use wasm_bindgen::JsCast;
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return false;
    };
    let tag = el.tag_name().to_ascii_lowercase();
    let text_control = tag == "textarea"
        || (tag == "input"
            && !matches!(
                el.get_attribute("type").as_deref(),
                Some("checkbox" | "radio" | "range" | "button" | "submit" | "file")
            ))
        || el
            .dyn_ref::<web_sys::HtmlElement>()
            .is_some_and(|h| h.is_content_editable());
    text_control && el.closest("fieldset.forms").ok().flatten().is_none()
}

/// Ctrl+Z (or Cmd+Z) undoes a scenario edit; Ctrl+Shift+Z and Ctrl+Y redo it (see
/// [`own_text_undo`] for where the browser's own text undo is kept).
fn install_undo_keys(app: crate::state::AppState) {
    let handle = window_event_listener(leptos::ev::keydown, move |e| {
        if !(e.ctrl_key() || e.meta_key()) || e.alt_key() {
            return;
        }
        let key = e.key().to_ascii_lowercase();
        let redo = match key.as_str() {
            "z" => e.shift_key(),
            "y" if !e.shift_key() => true,
            _ => return,
        };
        if own_text_undo(e.target()) {
            return;
        }
        e.prevent_default();
        if redo {
            app.history.redo(app.scenario);
        } else {
            app.history.undo(app.scenario);
        }
    });
    on_cleanup(move || handle.remove());
}

/// The Undo and Redo buttons of the editor's head.
#[component]
fn UndoRedo() -> impl IntoView {
    let app = use_app();
    let h = app.history;
    let button = move |redo: bool| {
        let (testid, label, title, text) = if redo {
            (
                "redo",
                "Redo the last undone scenario edit",
                "Redo (Ctrl+Shift+Z or Ctrl+Y)",
                "↷ Redo",
            )
        } else {
            (
                "undo",
                "Undo the last scenario edit",
                "Undo (Ctrl+Z)",
                "↶ Undo",
            )
        };
        view! {
            <button
                type="button"
                class="small"
                data-testid=testid
                aria-label=label
                title=title
                disabled=move || if redo { !h.can_redo() } else { !h.can_undo() }
                on:click=move |_| {
                    if redo {
                        h.redo(app.scenario);
                    } else {
                        h.undo(app.scenario);
                    }
                }
            >
                {text}
            </button>
        }
    };
    view! {
        <div class="undo-redo" role="group" aria-label="Undo history">
            {button(false)}
            {button(true)}
        </div>
    }
}

/// "3 problems" beside the title (nothing when valid).
#[component]
fn ProblemCount() -> impl IntoView {
    let app = use_app();
    view! {
        {move || {
            let n = app.problems.with(Vec::len);
            (n > 0)
                .then(|| {
                    view! {
                        <span class="badge-error" data-testid="editor-problem-count">
                            {format!("{n} problem{}", if n == 1 { "" } else { "s" })}
                        </span>
                    }
                })
        }}
    }
}

/// Problems (and warnings) that no field on screen shows.
#[component]
fn Unclaimed() -> impl IntoView {
    let ed = use_ed();
    // While the text is not JSON, the notice says so (the only problem then).
    let errors = Memo::new(move |_| {
        if ed.json_error.with(Option::is_some) {
            return Vec::new();
        }
        ed.assigned.with(|a| a.unclaimed.clone())
    });
    let warnings = Memo::new(move |_| ed.assigned.with(|a| a.unclaimed_warnings.clone()));
    // A list of `problems`, there while it has one.
    let list = |problems: Memo<Vec<Problem>>,
                class: &'static str,
                testid: &'static str,
                label: &'static str| {
        move || {
            let problems = problems.get();
            (!problems.is_empty())
                .then(|| {
                    view! {
                        <ul class=class data-testid=testid aria-label=label>
                            {problems.iter().map(|p| view! { <li title=p.to_string()>{words::located(p, None)}</li> }).collect_view()}
                        </ul>
                    }
                })
        }
    };
    view! {
        {list(errors, "unclaimed errors", "editor-problems", "Problems")}
        {list(warnings, "unclaimed warnings", "editor-warnings", "Warnings")}
    }
}

/// A collapsible part of the editor; opens itself when a problem appears inside it.
#[component]
fn Section(
    title: &'static str,
    /// The title in the Kueue model, when it differs (Kueue's own words).
    #[prop(optional)]
    kueue_title: Option<&'static str>,
    prefixes: &'static [&'static str],
    #[prop(optional, into)] count: Option<Signal<String>>,
    children: Children,
) -> impl IntoView {
    let ed = use_ed();
    let kueue = kueue::is_kueue(ed);
    let problems = ed.problems_under(prefixes);
    let node = NodeRef::<leptos::html::Details>::new();
    Effect::new(move |_| {
        if problems.get() > 0 {
            if let Some(d) = node.get() {
                d.set_open(true);
            }
        }
    });
    view! {
        <details class="ed-section" open=true node_ref=node>
            <summary>
                <span class="section-title">
                    {move || match kueue_title {
                        Some(k) if kueue.get() => k,
                        _ => title,
                    }}
                </span>
                {count.map(|c| view! { <span class="section-count">{move || c.get()}</span> })}
                {move || {
                    let n = problems.get();
                    (n > 0)
                        .then(|| {
                            view! {
                                <span class="badge-error">
                                    {format!("{n} problem{}", if n == 1 { "" } else { "s" })}
                                </span>
                            }
                        })
                }}
            </summary>
            <div class="section-body">{children()}</div>
        </details>
    }
}

/// Scenario texts longer than this (bytes) are large (an imported trace): the raw editor
/// closes itself when one arrives, holds the text only while it is open (laying out a huge
/// textarea costs seconds: 2.7 s for the whole Philly trace's 10 MB), and while open follows
/// edits made in the forms after a pause rather than at every keystroke.
pub const LARGE_TEXT: usize = 100_000;

/// How long the raw editor of a large text waits after the last edit before catching up.
pub const LARGE_SYNC_DELAY_MS: u64 = 400;

/// The raw JSON editor. Its text is replaced only when the scenario changed elsewhere (an
/// edit from the forms or a preset), so a typing user keeps the cursor; the textarea's value
/// is never read back to compare (reading 10 MB out of the DOM costs as much as writing it).
#[component]
fn RawJson() -> impl IntoView {
    let app = use_app();
    let ed = use_ed();
    let area = NodeRef::<leptos::html::Textarea>::new();
    let details = NodeRef::<leptos::html::Details>::new();
    let pending = StoredValue::new(None::<TimeoutHandle>);
    let was_large = StoredValue::new(false);
    // The textarea holds the scenario's current text; the last change came from typing in it.
    let synced = StoredValue::new(true);
    let typed = StoredValue::new(false);
    let is_open = move || details.get_untracked().is_some_and(|d| d.open());
    let sync = move || {
        if let Some(el) = area.get_untracked() {
            app.scenario.with_untracked(|text| el.set_value(text));
            synced.set_value(true);
        }
    };
    Effect::new(move |_| {
        let large = app.scenario.with(String::len) > LARGE_TEXT;
        if let Some(h) = pending.get_value() {
            h.clear();
            pending.set_value(None);
        }
        if typed.get_value() {
            typed.set_value(false);
            was_large.set_value(large);
            return;
        }
        synced.set_value(false);
        if large && !was_large.get_value() {
            if let Some(d) = details.get_untracked() {
                d.set_open(false);
            }
            // A folded editor holds nothing: the text is written when it is opened.
            if let Some(el) = area.get_untracked() {
                el.set_value("");
            }
        }
        was_large.set_value(large);
        if !large {
            sync();
        } else if is_open() {
            let handle = set_timeout_with_handle(
                move || {
                    pending.set_value(None);
                    sync();
                },
                std::time::Duration::from_millis(LARGE_SYNC_DELAY_MS),
            );
            pending.set_value(handle.ok());
        }
    });
    let on_toggle = move |_| {
        if is_open() && !synced.get_value() {
            sync();
        }
    };
    let reformat = move |_| {
        let doc = ed.doc.get_untracked();
        if doc.error.is_none() {
            app.scenario.set(json::to_text(&doc.whole()));
        }
    };
    let note = move || {
        let len = app.scenario.with(String::len);
        if len > LARGE_TEXT {
            format!(
                "the scenario file, {} KB: open to read or edit it; it follows the forms after a short pause",
                crate::ui::format::thousands((len / 1024) as f64)
            )
        } else {
            "the scenario file (JSON), in sync with the forms".to_string()
        }
    };
    let id = fields::next_id("json");
    view! {
        <details class="ed-section raw" open=true node_ref=details data-testid="json-section" on:toggle=on_toggle>
            <summary>
                <span class="section-title">"JSON"</span>
                <span class="section-count">{note}</span>
            </summary>
            <div class="section-body">
                <label for=id.clone() class="visually-hidden">"Scenario JSON"</label>
                <textarea
                    id=id
                    class="json-editor"
                    data-testid="json-editor"
                    spellcheck="false"
                    autocomplete="off"
                    rows="22"
                    node_ref=area
                    aria-invalid=move || ed.json_error.with(Option::is_some).then_some("true")
                    prop:value=app.scenario.with_untracked(|t| if t.len() > LARGE_TEXT { String::new() } else { t.clone() })
                    on:input=move |ev| {
                        app.history.tag("json");
                        typed.set_value(true);
                        app.scenario.set(event_target_value(&ev))
                    }
                ></textarea>
                {move || {
                    ed.json_error
                        .get()
                        .map(|e| {
                            view! {
                                <span class="field-error" data-testid="field-error">
                                    {format!("Not valid JSON: {e}")}
                                </span>
                            }
                        })
                }}
                <div class="raw-actions">
                    <button type="button" class="small" on:click=reformat disabled=move || ed.json_error.with(Option::is_some)>
                        "Reformat"
                    </button>
                </div>
            </div>
        </details>
    }
}
