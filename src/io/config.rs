//! Real quota configurations in and out of the page (SPEC 13): the "Import configuration"
//! dialog (drop or pick AWS Batch JSON or Kueue YAML files, or paste one; the format is
//! detected from the content) and the exports (AWS Batch JSON, the AWS CLI script, Kueue
//! YAML), downloaded as files.
//!
//! The engine's `config` functions (the ones `quotasim import` and `export` call) run in an
//! engine worker of their own (`crates/engine-worker`, started the first time the dialog
//! opens or a configuration is exported): the YAML parser is not in the page's wasm (its
//! size budget, docs/PERFORMANCE.md), and reading an 8 MiB file never freezes the page.
//! Requests and answers are [`quotalab_engine_worker::config`]'s, inside the engine
//! protocol's `Request::Config` and `Response::Config`; nothing here decides a rule. Components find the worker
//! through [`ConfigService`] (the page's [`EngineService`]: a context; the component tests provide one that calls the
//! engine directly).
//!
//! An import replaces the scenario's shares (and cohorts, fair sharing, priority classes)
//! and keeps its workloads, jobs and events (`--into`), or, unticked, opens the imported
//! scenario alone; either way it is one undoable edit of the scenario text.

use std::time::Duration;

use leptos::html;
use leptos::prelude::*;
use quotalab_engine::config::{ImportOptions, MAX_FILE_BYTES};
use quotalab_engine_worker::config::{
    ImportReport, ImportRequest, InFormat, OutFormat, Request, Response, UnknownShare,
};

use crate::io::dialog;
use crate::io::files::{download_text, file_stem};
use crate::state::{use_app, AppState, Notice};
use crate::ui::controls::checkbox;
use crate::ui::format;

/// Pause after the last change of the dialog's input before it is read again.
const READ_PAUSE: Duration = Duration::from_millis(250);

pub use crate::worker::service::{use_config_service, ConfigService};

/// Downloads the scenario's shares as `format` (SPEC 13 `quotasim export`, default options):
/// the engine's refusals (an export AWS cannot express) and warnings become the notice.
pub fn export_config(app: AppState, service: ConfigService, scenario: String, format: OutFormat) {
    let stem = file_stem(&scenario);
    service.send(
        Request::Export {
            scenario,
            format,
            queue: String::new(),
            resource: String::new(),
        },
        move |response| match response {
            // Nothing changed since the import: no file of patches that patch nothing.
            Response::Exported(Ok(e)) if e.empty_patch => app.notice.set(Some(Notice::info(
                "Nothing to patch: no imported object has changed since the import, so there is no merge patch to apply.",
                Vec::new(),
            ))),
            Response::Exported(Ok(e)) => {
                let (suffix, mime) = format.file();
                match download_text(&format!("{stem}-{suffix}"), mime, &e.text) {
                    Ok(()) if e.warnings.is_empty() => {}
                    Ok(()) => app.notice.set(Some(Notice::info(
                        "The configuration was exported, with warnings:",
                        e.warnings,
                    ))),
                    Err(err) => app
                        .notice
                        .set(Some(Notice::error("The download failed.", vec![err]))),
                }
            }
            Response::Exported(Err(lines)) => app.notice.set(Some(Notice::error(
                "The configuration cannot be exported:",
                lines,
            ))),
            Response::Failed(m) => app.notice.set(Some(Notice::error(m, Vec::new()))),
            _ => {}
        },
    );
}

/// Opens the import dialog.
pub use crate::io::dialog::open as open_dialog;

/// The name of a scenario imported from `files` (none: pasted text) read as `format`:
/// "Imported from team-queues.yaml", "Imported from a.json and 2 more files",
/// "Imported Kueue YAML".
pub fn imported_name(files: &[String], format: &str) -> String {
    match files {
        [] => format!("Imported {format}"),
        [one] => format!("Imported from {one}"),
        [a, b] => format!("Imported from {a} and {b}"),
        [first, rest @ ..] => format!("Imported from {first} and {} more files", rest.len()),
    }
}

/// The scenario `text` with its `name` set to `name` (`text` itself when it is not a JSON
/// object).
pub fn with_name(text: &str, name: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(m)) => {
            // Where a scenario has its name: after `format` (first when there is none).
            let mut out = serde_json::Map::new();
            let at_front = !m.contains_key("format");
            if at_front {
                out.insert("name".into(), name.into());
            }
            for (k, v) in m {
                if k == "name" {
                    continue;
                }
                let format = k == "format";
                out.insert(k, v);
                if format {
                    out.insert("name".into(), name.into());
                }
            }
            serde_json::to_string_pretty(&out).unwrap_or_else(|_| text.to_string())
        }
        _ => text.to_string(),
    }
}

/// A file given to the dialog: its name and size, and its text once read.
#[derive(Clone, Debug, PartialEq)]
struct Source {
    name: String,
    bytes: f64,
}

/// "3 shares (a, b, c)"; from Kueue or HyperPod "3 ClusterQueues (a, b, c), 1 cohort (org)".
fn summary(format: Option<InFormat>, shares: &[String], cohorts: &[String]) -> String {
    let part = |n: usize, one: &str, many: &str, names: &[String]| {
        format!(
            "{} {} ({})",
            n,
            if n == 1 { one } else { many },
            names.join(", ")
        )
    };
    let mut s = match format {
        Some(InFormat::Kueue | InFormat::HyperPod) => {
            part(shares.len(), "ClusterQueue", "ClusterQueues", shares)
        }
        _ => part(shares.len(), "share", "shares", shares),
    };
    if !cohorts.is_empty() {
        s.push_str(", ");
        s.push_str(&part(cohorts.len(), "cohort", "cohorts", cohorts));
    }
    s
}

/// A `<select>` of the dialog's options (test id `testid`) bound to `value`.
fn select(
    testid: &'static str,
    value: RwSignal<String>,
    options: impl IntoView + 'static,
) -> impl IntoView {
    view! {
        <select
            data-testid=testid
            on:change=move |ev| value.set(event_target_value(&ev))
            prop:value=move || value.get()
        >
            {options}
        </select>
    }
}

/// A text input of the dialog's options (test id `testid`) bound to `value`, read when it
/// changes.
fn text_input(
    testid: &'static str,
    placeholder: Option<&'static str>,
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <input
            type="text"
            spellcheck="false"
            placeholder=placeholder
            data-testid=testid
            prop:value=move || value.get()
            on:change=move |ev| value.set(event_target_value(&ev))
        />
    }
}

/// The way out for jobs of queues a configuration lacks, one choice per queue ("Drop
/// them" or "Move them to" one of `targets`), written into `resolve` as (queue, target)
/// pairs for the engine's `UnknownShares::Resolve`: the import dialog's and the review
/// dialog's. Each select is `{testid}-{queue}`; the list is `testid`.
pub fn unknown_choices(
    list: Vec<UnknownShare>,
    targets: Vec<String>,
    resolve: RwSignal<Vec<(String, String)>>,
    testid: &'static str,
    intro: &'static str,
) -> impl IntoView {
    let rows = list
        .into_iter()
        .map(|u| {
            let name = u.name.clone();
            let what = match (u.jobs, u.workloads) {
                (j, 0) => format!("{j} job{}", if j == 1 { "" } else { "s" }),
                (0, w) => format!("{w} workload mix{}", if w == 1 { "" } else { "es" }),
                (j, w) => format!(
                    "{j} job{} and {w} workload mix{}",
                    if j == 1 { "" } else { "s" },
                    if w == 1 { "" } else { "es" }
                ),
            };
            let current = {
                let name = name.clone();
                move || {
                    resolve.with(|m| {
                        m.iter()
                            .find(|(f, _)| *f == name)
                            .map(|(_, t)| t.clone())
                            .unwrap_or_default()
                    })
                }
            };
            let set = {
                let name = name.clone();
                move |ev: leptos::ev::Event| {
                    let to = event_target_value(&ev);
                    resolve.update(|m| {
                        m.retain(|(f, _)| *f != name);
                        if !to.is_empty() {
                            m.push((name.clone(), to));
                        }
                    });
                }
            };
            let options = targets
                .iter()
                .map(|t| {
                    let v = t.clone();
                    view! { <option value=v>{format!("Move them to {t}")}</option> }
                })
                .collect_view();
            view! {
                <li>
                    <label class="trace-field">
                        <span class="trace-label">{format!("{what} of \u{201c}{name}\u{201d}")}</span>
                        <select data-testid=format!("{testid}-{name}") on:change=set prop:value=current>
                            <option value="">"Drop them"</option>
                            {options}
                        </select>
                    </label>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="config-unknown" data-testid=testid>
            <p>{intro}</p>
            <ul>{rows}</ul>
        </div>
    }
}

/// Whether a scenario text is in the Kueue model: its `model` alone is read (a large
/// scenario's jobs are skipped, not built). The dialogs' words before anything is read.
pub(crate) fn scenario_is_kueue(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct ModelOnly {
        #[serde(default)]
        model: Option<String>,
    }
    serde_json::from_str::<ModelOnly>(text)
        .ok()
        .and_then(|m| m.model)
        .and_then(|m| quotalab_engine::model::Model::parse(&m))
        == Some(quotalab_engine::model::Model::Kueue)
}

/// The "Import configuration" dialog (opened with [`open_dialog`] on `node_ref`).
#[component]
pub fn ConfigDialog(node_ref: NodeRef<html::Dialog>) -> impl IntoView {
    let app = use_app();
    let service = use_config_service();
    // The files' texts (kept out of signals: up to 8 MiB each), and what the dialog shows
    // of them.
    let texts = StoredValue::new(Vec::<(String, String)>::new());
    let sources = RwSignal::new(Vec::<Source>::new());
    let file_problems = RwSignal::new(Vec::<String>::new());
    let pasted = RwSignal::new(String::new());
    let format_choice = RwSignal::new(String::new());
    let queue = RwSignal::new(String::new());
    let resource = RwSignal::new(ImportOptions::DEFAULT_RESOURCE.to_string());
    let flavor_map = RwSignal::new(String::new());
    let keep = RwSignal::new(true);
    // Kept jobs of queues the configuration lacks: queue -> the share they move to (the
    // others are dropped; SPEC 16: the first import never fails for them).
    let resolve = RwSignal::new(Vec::<(String, String)>::new());
    let report = RwSignal::new(None::<ImportReport>);
    let reading = RwSignal::new(false);
    let dragging = RwSignal::new(false);
    // The scenario is in the Kueue model (set on opening): the button's word before a file.
    let scenario_kueue = RwSignal::new(false);
    // Bumped by every change: an answer to an older read is dropped.
    let generation = StoredValue::new(0u64);

    let request = move || -> Option<ImportRequest> {
        let files = texts.get_value();
        let files = if files.is_empty() {
            let text = pasted.get_untracked();
            if text.trim().is_empty() {
                return None;
            }
            vec![(String::new(), text)]
        } else {
            files
        };
        Some(ImportRequest {
            files,
            format: match format_choice.get_untracked().as_str() {
                "aws" => Some(InFormat::Aws),
                "kueue" => Some(InFormat::Kueue),
                "hyperpod" => Some(InFormat::HyperPod),
                _ => None,
            },
            queue: Some(queue.get_untracked()).filter(|q| !q.is_empty()),
            resource: resource.get_untracked(),
            flavor_map: flavor_map.get_untracked(),
            into: keep.get_untracked().then(|| app.scenario.get_untracked()),
            resolve: keep.get_untracked().then(|| resolve.get_untracked()),
        })
    };

    // Reads the input again after a pause, in the worker.
    let read = move || {
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        let Some(req) = request() else {
            report.set(None);
            reading.set(false);
            return;
        };
        reading.set(true);
        set_timeout(
            move || {
                if generation.get_value() != mine {
                    return;
                }
                service.send(Request::Import(req), move |response| {
                    if generation.get_value() != mine {
                        return;
                    }
                    reading.set(false);
                    match response {
                        Response::Imported(r) => report.set(Some(r)),
                        Response::Failed(m) => report.set(Some(ImportReport {
                            format: None,
                            detected: false,
                            queues: Vec::new(),
                            unknown: Vec::new(),
                            result: Err(vec![m]),
                        })),
                        _ => {}
                    }
                });
            },
            READ_PAUSE,
        );
    };
    Effect::new(move |first: Option<()>| {
        pasted.track();
        sources.track();
        format_choice.track();
        queue.track();
        resource.track();
        flavor_map.track();
        keep.track();
        resolve.track();
        if first.is_some() {
            read();
        }
    });

    let take_files = move |list: Option<web_sys::FileList>| {
        let Some(list) = list else { return };
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        if files.is_empty() {
            return;
        }
        leptos::task::spawn_local(async move {
            let mut read_texts = Vec::new();
            let mut shown = Vec::new();
            let mut problems = Vec::new();
            for file in files {
                let name = file.name();
                if file.size() > MAX_FILE_BYTES as f64 {
                    problems.push(format!(
                        "{name}: is {} bytes, over the {} MiB limit",
                        format::count(file.size() as usize),
                        MAX_FILE_BYTES / (1024 * 1024)
                    ));
                    continue;
                }
                match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                    Ok(v) => {
                        shown.push(Source {
                            name: name.clone(),
                            bytes: file.size(),
                        });
                        read_texts.push((name, v.as_string().unwrap_or_default()));
                    }
                    Err(e) => problems.push(format!("{name}: could not be read ({e:?})")),
                }
            }
            texts.set_value(read_texts);
            file_problems.set(problems);
            sources.set(shown);
        });
    };
    let clear_files = move |_| {
        texts.set_value(Vec::new());
        file_problems.set(Vec::new());
        sources.set(Vec::new());
        dialog::clear_file_inputs(node_ref);
    };
    let close = move || dialog::close(node_ref);
    // Closing forgets what was given (Cancel, ×, Escape or an import): the next import
    // starts empty, paste enabled.
    let forget = move || {
        texts.set_value(Vec::new());
        file_problems.set(Vec::new());
        sources.set(Vec::new());
        pasted.set(String::new());
        report.set(None);
        dialog::clear_file_inputs(node_ref);
    };
    let cancel = move || {
        forget();
        close();
    };
    let apply = move |_| {
        let Some(Ok(imported)) = report.with_untracked(|r| r.as_ref().map(|r| r.result.clone()))
        else {
            return;
        };
        let format = report
            .with_untracked(|r| r.as_ref().and_then(|r| r.format))
            .map_or("the configuration", InFormat::label);
        let lacks = report.with_untracked(|r| r.as_ref().is_some_and(|r| !r.unknown.is_empty()));
        // What was kept, counted: with every queue missing and "Drop them", nothing is.
        let before = app.scenario.with_untracked(|t| super::share::job_count(t));
        let kept = super::share::job_count(&imported.scenario);
        let title = format!(
            "Imported {} from {format}{}",
            summary(
                report.with_untracked(|r| r.as_ref().and_then(|r| r.format)),
                &imported.shares,
                &imported.cohorts
            ),
            if keep.get_untracked() && lacks {
                format!("; {kept} of the {before} jobs kept, those of queues it lacks dropped or moved as listed (Undo takes it back).")
            } else if keep.get_untracked() {
                "; the workloads, jobs and events were kept (Undo takes it back).".to_string()
            } else {
                " (Undo takes it back).".to_string()
            }
        );
        app.notice
            .set(Some(Notice::info(title, imported.warnings.clone())));
        // Named after what was imported, in the same undoable edit.
        let files: Vec<String> =
            sources.with_untracked(|l| l.iter().map(|s| s.name.clone()).collect());
        let name = imported_name(&files, format);
        app.scenario.set(with_name(&imported.scenario, &name));
        forget();
        close();
    };

    // Opening the dialog starts the worker and reads the input again (the scenario whose
    // workloads are kept may have changed).
    let on_toggle = move |_: leptos::ev::Event| {
        if node_ref.get_untracked().is_some_and(|d| d.open()) {
            // The queues to resolve are the current scenario's: start from "drop".
            resolve.set(Vec::new());
            scenario_kueue.set(app.scenario.with_untracked(|t| scenario_is_kueue(t)));
            service.warm();
            read();
        } else if sources.with_untracked(|s| !s.is_empty())
            || pasted.with_untracked(|p| !p.is_empty())
        {
            forget();
        }
    };
    let detected = move || {
        report.with(|r| {
            r.as_ref().map(|r| match (r.format, r.detected) {
                (Some(f), true) => format!("Detected: {}", f.label()),
                (Some(f), false) => format!("Read as: {}", f.label()),
                (None, _) => String::new(),
            })
        })
    };
    let format_now = move || report.with(|r| r.as_ref().and_then(|r| r.format));
    let queues = move || report.with(|r| r.as_ref().map(|r| r.queues.clone()).unwrap_or_default());
    let ok = move || report.with(|r| r.as_ref().is_some_and(|r| r.result.is_ok()));
    // The kept jobs' queues the configuration lacks, and the shares they could move to.
    let unknown =
        move || report.with(|r| r.as_ref().map(|r| r.unknown.clone()).unwrap_or_default());
    let targets = move || {
        report.with(|r| match r.as_ref().map(|r| &r.result) {
            Some(Ok(imp)) => imp.shares.clone(),
            _ => Vec::new(),
        })
    };
    let unknown_view = move || {
        let list = unknown();
        (keep.get() && !list.is_empty()).then(|| {
            unknown_choices(
                list,
                targets(),
                resolve,
                "config-unknown",
                if matches!(format_now(), Some(InFormat::Kueue | InFormat::HyperPod)) {
                    "These kept jobs name queues the configuration does not have. Drop them, or move each queue's jobs to one of its ClusterQueues:"
                } else {
                    "These kept jobs name queues the configuration does not have. Drop them, or move each queue's jobs to one of its quota shares:"
                },
            )
        })
    };
    let result_view = move || {
        report.with(|r| {
            let r = r.as_ref()?;
            Some(match &r.result {
                Ok(imp) => {
                    let warnings = imp.warnings.clone();
                    let n = warnings.len();
                    view! {
                        <p class="config-summary" role="status" data-testid="config-summary">
                            {summary(r.format, &imp.shares, &imp.cohorts)}
                        </p>
                        {(n > 0).then(|| view! {
                            <div class="trace-warning" data-testid="config-warnings">
                                <p>{format!("{n} warning{}:", if n == 1 { "" } else { "s" })}</p>
                                <ul>{warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
                            </div>
                        })}
                    }
                    .into_any()
                }
                Err(lines) => {
                    let lines = lines.clone();
                    view! {
                        <div class="trace-problems" role="alert" data-testid="config-errors">
                            <p>"The configuration cannot be imported:"</p>
                            <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                        </div>
                    }
                    .into_any()
                }
            })
        })
    };
    let file_list = move || {
        let list = sources.get();
        let problems = file_problems.get();
        (!list.is_empty() || !problems.is_empty()).then(|| {
            view! {
                <ul class="config-files" data-testid="config-files">
                    {list
                        .into_iter()
                        .map(|s| view! { <li>{format!("{} ({} bytes)", s.name, format::count(s.bytes as usize))}</li> })
                        .collect_view()}
                    {problems.into_iter().map(|p| view! { <li class="config-file-problem">{p}</li> }).collect_view()}
                </ul>
                <button type="button" data-testid="config-clear-files" on:click=clear_files>
                    {move || if pasted.with(|p| p.trim().is_empty()) { "Clear the files" } else { "Use the pasted text instead" }}
                </button>
            }
        })
    };

    view! {
        <dialog
            class="trace-dialog config-dialog"
            node_ref=node_ref
            data-testid="config-dialog"
            aria-labelledby="config-heading"
            aria-describedby="config-intro"
            on:toggle=on_toggle
        >
            {dialog::head(node_ref, "config-heading", "Import a quota configuration")}
            <p class="trace-intro" id="config-intro">
                "AWS Batch quota shares (JSON: CreateQuotaShare bodies, a ListQuotaShares response, a service environment) or Kueue objects (YAML: ClusterQueues, Cohorts, ResourceFlavors, WorkloadPriorityClasses). Its quota shares or ClusterQueues and cohorts replace the scenario's; the files never leave your browser."
            </p>
            <div
                class="config-drop"
                class:dragging=move || dragging.get()
                data-testid="config-drop"
                on:dragover=move |e: leptos::ev::DragEvent| {
                    e.prevent_default();
                    dragging.set(true);
                }
                on:dragleave=move |_| dragging.set(false)
                on:drop=move |e: leptos::ev::DragEvent| {
                    e.prevent_default();
                    dragging.set(false);
                    take_files(e.data_transfer().and_then(|d| d.files()));
                }
            >
                {dialog::file_picker(
                    "Drop files here, or pick them",
                    ".json,.yaml,.yml,.sh,.txt,application/json,application/yaml,text/yaml,text/plain",
                    true,
                    "config-file",
                    move |ev| take_files(event_target::<web_sys::HtmlInputElement>(&ev).files()),
                )}
                {file_list}
                <label class="trace-field config-paste">
                    <span class="trace-label">"Or paste a configuration"</span>
                    <textarea
                        rows="8"
                        spellcheck="false"
                        data-testid="config-text"
                        placeholder="apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n…"
                        prop:value=move || pasted.get()
                        prop:disabled=move || sources.with(|s| !s.is_empty())
                        on:input=move |ev| pasted.set(event_target_value(&ev))
                    ></textarea>
                </label>
            </div>
            <form class="trace-form" on:submit=move |ev| ev.prevent_default()>
                <fieldset>
                    <legend>"Options"</legend>
                    {dialog::field("Format", None, String::new(), select("config-format", format_choice, view! {
                        <option value="">"Detect from the content"</option>
                        <option value="aws">"AWS Batch JSON"</option>
                        <option value="kueue">"Kueue YAML"</option>
                        <option value="hyperpod">"SageMaker HyperPod task governance"</option>
                    }))}
                    <p class="config-detected" role="status" data-testid="config-detected">{detected}</p>
                    <Show when=move || format_now() == Some(InFormat::Aws) && (queues().len() > 1 || !queue.with(String::is_empty))>
                        {dialog::field(
                            "Job queue",
                            None,
                            "the file holds the shares of several job queues".into(),
                            select("config-queue", queue, view! {
                                <option value="">"Choose one of the queues"</option>
                                {move || queues().into_iter().map(|q| {
                                    let v = q.clone();
                                    view! { <option value=v>{q}</option> }
                                }).collect_view()}
                            }),
                        )}
                    </Show>
                    <Show when=move || format_now() == Some(InFormat::HyperPod)>
                        {dialog::field(
                            "Cluster",
                            None,
                            "the HyperPod cluster's ARN or id, when the files name several".into(),
                            text_input("config-cluster", Some("arn:aws:sagemaker:…:cluster/abc123"), queue),
                        )}
                    </Show>
                    <Show when=move || format_now() == Some(InFormat::Kueue)>
                        {dialog::field(
                            "Counted resource",
                            None,
                            "other resources are dropped, with a warning".into(),
                            text_input("config-resource", None, resource),
                        )}
                        {dialog::field(
                            "Flavor map",
                            None,
                            "flavors as catalogue instance types, comma-separated (else 1 GPU per instance)".into(),
                            text_input("config-flavor-map", Some("a100=ml.p4d.24xlarge"), flavor_map),
                        )}
                    </Show>
                    <label class="trace-field config-keep">
                        {checkbox("config-keep", keep)}
                        <span>"Keep the current workloads, jobs and events"</span>
                    </label>
                    {unknown_view}
                </fieldset>
                {move || reading.get().then(|| view! { <p class="trace-reading" data-testid="config-reading">"Reading…"</p> })}
                {result_view}
                <div class="trace-actions">
                    <button
                        type="button"
                        class="primary"
                        data-testid="config-apply"
                        prop:disabled=move || !ok() || reading.get()
                        on:click=apply
                    >
                        {move || {
                            // Before a file is read: the current scenario's model.
                            let kueue = match format_now() {
                                Some(f) => matches!(f, InFormat::Kueue | InFormat::HyperPod),
                                None => scenario_kueue.get(),
                            };
                            if kueue { "Replace the ClusterQueues" } else { "Replace the shares" }
                        }}
                    </button>
                    <button type="button" on:click=move |_| cancel()>"Cancel"</button>
                </div>
            </form>
        </dialog>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #34: an imported scenario is named after its files, not kept under the old
    /// scenario's name.
    #[test]
    fn an_import_is_named_after_its_files() {
        assert_eq!(
            imported_name(&["queues.yaml".into()], "Kueue YAML"),
            "Imported from queues.yaml"
        );
        assert_eq!(
            imported_name(&["a.yaml".into(), "b.yaml".into()], "Kueue YAML"),
            "Imported from a.yaml and b.yaml"
        );
        assert_eq!(
            imported_name(&["a".into(), "b".into(), "c".into()], "x"),
            "Imported from a and 2 more files"
        );
        assert_eq!(imported_name(&[], "Kueue YAML"), "Imported Kueue YAML");
        let text = "{\n  \"format\": \"quotalab/v1\",\n  \"name\": \"AWS walkthrough, job history (6 jobs)\",\n  \"shares\": []\n}";
        assert_eq!(
            with_name(text, "Imported from q.yaml"),
            "{\n  \"format\": \"quotalab/v1\",\n  \"name\": \"Imported from q.yaml\",\n  \"shares\": []\n}"
        );
        let unnamed = with_name("{\"format\":\"quotalab/v1\",\"shares\":[]}", "n");
        assert!(unnamed.find("\"name\"") < unnamed.find("\"shares\""));
        assert_eq!(with_name("not json", "n"), "not json");
    }
}
