//! "Import job history…" (SPEC 16): the jobs a cluster already keeps (Kueue Workloads as
//! `kubectl get workloads -A -o yaml|json` prints them, with LocalQueues; AWS Batch
//! `describe-jobs` / `list-jobs` and the service-job equivalents) replayed on the
//! scenario's shares: the engine's `config::history::import`, the function `quotasim import
//! history FILE... --into SCENARIO` calls, run in the engine worker. The chosen files go to
//! the worker as `File` handles: it reads them in pieces, record by record, and reports
//! its progress, so a history of hundreds of megabytes is never one string on the page and
//! the page stays responsive. The history's jobs replace the scenario's jobs and workloads,
//! in one undoable edit.

use std::time::Duration;

use leptos::html;
use leptos::prelude::*;
use quotalab_engine::config::history::MAX_HISTORY_BYTES;
use quotalab_engine_worker::config::{HistoryRequest, Imported, Request, Response};

use crate::io::config::use_config_service;
use crate::io::dialog;
use crate::state::{use_app, Notice};
use crate::ui::format;

/// At most this many warnings are listed (a large history warns per job).
const SHOWN: usize = 100;

/// Pause after the last change before the history is read again.
const READ_PAUSE: Duration = Duration::from_millis(250);

/// Opens the dialog.
pub use crate::io::dialog::open as open_dialog;

fn text_input(
    testid: &'static str,
    placeholder: &'static str,
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

/// `1.2 MB`, or `3,456 bytes` under a megabyte.
fn size_words(n: usize) -> String {
    if n >= 1_000_000 {
        format!("{} MB", format::decimal(n as f64 / 1e6, 1))
    } else {
        format!("{} bytes", format::count(n))
    }
}

/// The "Import job history" dialog (opened with [`open_dialog`] on `node_ref`).
#[component]
pub fn HistoryDialog(node_ref: NodeRef<html::Dialog>) -> impl IntoView {
    let app = use_app();
    let service = use_config_service();
    let files_in = StoredValue::new_local(Vec::<web_sys::File>::new());
    let names = RwSignal::new(Vec::<String>::new());
    let file_problems = RwSignal::new(Vec::<String>::new());
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let resource = RwSignal::new(String::new());
    let flavor_map = RwSignal::new(String::new());
    let result = RwSignal::new(None::<Result<Imported, Vec<String>>>);
    // Bytes being read (shown while the worker parses them), 0 when idle, and the
    // worker's progress: (bytes read, records read).
    let reading = RwSignal::new(0usize);
    let progress = RwSignal::new((0.0f64, 0u64));
    let generation = StoredValue::new(0u64);
    // The scenario is in the Kueue model (the intro says ClusterQueues), set on opening.
    let kueue = RwSignal::new(false);

    let read = move || {
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        let files = files_in.get_value();
        if files.is_empty() {
            result.set(None);
            reading.set(0);
            return;
        }
        reading.set((files.iter().map(|f| f.size()).sum::<f64>() as usize).max(1));
        progress.set((0.0, 0));
        let req = HistoryRequest {
            files: Vec::new(),
            blobs: files.iter().map(web_sys::File::name).collect(),
            scenario: app.scenario.get_untracked(),
            from: from.get_untracked(),
            to: to.get_untracked(),
            resource: resource.get_untracked(),
            flavor_map: flavor_map.get_untracked(),
        };
        set_timeout(
            move || {
                if generation.get_value() != mine {
                    return;
                }
                let on_reading = move |bytes: f64, _total: f64, records: u64| {
                    if generation.get_value() == mine {
                        progress.set((bytes, records));
                    }
                };
                service.send_files(Request::History(req), files, on_reading, move |response| {
                    if generation.get_value() != mine {
                        return;
                    }
                    reading.set(0);
                    match response {
                        Response::Loaded(r) => result.set(Some(r)),
                        Response::Failed(m) => result.set(Some(Err(vec![m]))),
                        _ => {}
                    }
                });
            },
            READ_PAUSE,
        );
    };
    Effect::new(move |first: Option<()>| {
        names.track();
        from.track();
        to.track();
        resource.track();
        flavor_map.track();
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
        // The files stay `File` handles: the worker reads them (in pieces, SPEC 16).
        let mut kept = Vec::new();
        let mut shown = Vec::new();
        let mut problems = Vec::new();
        for file in files {
            let name = file.name();
            if file.size() > MAX_HISTORY_BYTES as f64 {
                problems.push(format!(
                    "{name}: is {} bytes, over the {} GiB limit of a history file",
                    format::count(file.size() as usize),
                    MAX_HISTORY_BYTES >> 30
                ));
                continue;
            }
            shown.push(format!(
                "{name} ({} bytes)",
                format::count(file.size() as usize)
            ));
            kept.push(file);
        }
        files_in.set_value(kept);
        file_problems.set(problems);
        names.set(shown);
    };
    let close = move || dialog::close(node_ref);
    // Closing forgets the files (Cancel, ×, Escape or a replay): the next import starts
    // empty.
    let forget = move || {
        generation.update_value(|g| *g += 1);
        files_in.set_value(Vec::new());
        file_problems.set(Vec::new());
        names.set(Vec::new());
        result.set(None);
        reading.set(0);
        dialog::clear_file_inputs(node_ref);
    };
    let apply = move |_| {
        let Some(Ok(imported)) = result.get_untracked() else {
            return;
        };
        let w = imported.warnings.len();
        let mut warnings: Vec<String> = imported.warnings.iter().take(SHOWN).cloned().collect();
        if w > SHOWN {
            warnings.push(format!("… and {} more", format::count(w - SHOWN)));
        }
        // The lower bounds first: they change how the results read.
        if let Some(line) = unfinished_line(&imported.unfinished, imported.kueue) {
            warnings.insert(0, line);
        }
        // The rows of the unfinished jobs say so (the job history, the event log).
        app.unfinished
            .set(unfinished_marks(&imported.unfinished_jobs));
        app.notice.set(Some(Notice::info(
            format!(
                "Replayed the job history on the scenario's {}s (Undo takes it back).",
                queue_word(imported.kueue)
            ),
            warnings,
        )));
        app.scenario.set(imported.scenario);
        close();
    };
    // Opening reads again: the scenario whose shares the jobs are of may have changed.
    let on_toggle = move |_: leptos::ev::Event| {
        if node_ref.get_untracked().is_some_and(|d| d.open()) {
            // The model's words: the scenario's model (read once, here; the last run may
            // be of an older scenario).
            kueue.set(
                app.scenario
                    .with_untracked(|t| crate::io::config::scenario_is_kueue(t)),
            );
            service.warm();
            read();
        } else if names.with_untracked(|n| !n.is_empty())
            || file_problems.with_untracked(|p| !p.is_empty())
        {
            forget();
        }
    };
    let ok = move || result.with(|r| matches!(r, Some(Ok(_))));
    let result_view = move || {
        result.with(|r| {
            Some(match r.as_ref()? {
                Ok(imp) => {
                    let n = imp.jobs;
                    let w = imp.warnings.len();
                    let mut warnings: Vec<String> = imp.warnings.iter().take(SHOWN).cloned().collect();
                    if w > SHOWN {
                        warnings.push(format!("… and {} more", format::count(w - SHOWN)));
                    }
                    // The model's word: ClusterQueues in the Kueue model, shares in AWS's.
                    let word = queue_word(imp.kueue);
                    view! {
                        <p class="config-summary" role="status" data-testid="history-summary">
                            {format!(
                                "{} {}{} of {} {word}{} ({})",
                                format::count(n),
                                if imp.kueue { "workload" } else { "job" },
                                if n == 1 { "" } else { "s" },
                                imp.shares.len(),
                                if imp.shares.len() == 1 { "" } else { "s" },
                                imp.shares.join(", ")
                            )}
                        </p>
                        {unfinished_line(&imp.unfinished, imp.kueue).map(|l| view! {
                            <p class="trace-warning" data-testid="history-unfinished">{l}</p>
                        })}
                        {(w > 0).then(|| view! {
                            <div class="trace-warning" data-testid="history-warnings">
                                <p>{format!("{w} warning{}:", if w == 1 { "" } else { "s" })}</p>
                                <ul>{warnings.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                            </div>
                        })}
                    }
                    .into_any()
                }
                Err(lines) => {
                    let lines = lines.clone();
                    view! {
                        <div class="trace-problems" role="alert" data-testid="history-errors">
                            <p>"The history cannot be replayed:"</p>
                            <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                        </div>
                    }
                    .into_any()
                }
            })
        })
    };
    view! {
        <dialog
            class="trace-dialog config-dialog"
            node_ref=node_ref
            data-testid="history-dialog"
            aria-labelledby="history-heading"
            aria-describedby="history-intro"
            on:toggle=on_toggle
        >
            {dialog::head(node_ref, "history-heading", "Import job history")}
            <p class="trace-intro" id="history-intro">
                {move || intro(kueue.get())}
            </p>
            <div class="config-drop" data-testid="history-drop"
                on:dragover=move |e: leptos::ev::DragEvent| e.prevent_default()
                on:drop=move |e: leptos::ev::DragEvent| {
                    e.prevent_default();
                    take_files(e.data_transfer().and_then(|d| d.files()));
                }
            >
                {dialog::file_picker(
                    "Drop history files here, or pick them",
                    ".json,.yaml,.yml,application/json,application/yaml,text/yaml,text/plain",
                    true,
                    "history-file",
                    move |ev| take_files(event_target::<web_sys::HtmlInputElement>(&ev).files()),
                )}
                {move || {
                    let list = names.get();
                    let problems = file_problems.get();
                    (!list.is_empty() || !problems.is_empty()).then(|| view! {
                        <ul class="config-files" data-testid="history-files">
                            {list.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                            {problems.into_iter().map(|p| view! { <li class="config-file-problem">{p}</li> }).collect_view()}
                        </ul>
                    })
                }}
            </div>
            <form class="trace-form" on:submit=move |ev| ev.prevent_default()>
                <fieldset>
                    <legend>"Options"</legend>
                    {dialog::field("From", None, "the window's start: ISO 8601 or epoch seconds".into(), text_input("history-from", "2026-11-01T00:00:00Z", from))}
                    {dialog::field("To", None, "the window's end and the history's".into(), text_input("history-to", "the last record", to))}
                    {dialog::field("Counted resource", None, "Kueue: the resource counted as GPUs".into(), text_input("history-resource", "nvidia.com/gpu", resource))}
                    {dialog::field("Flavor map", None, "Kueue: flavors as catalogue instance types".into(), text_input("history-flavor-map", "a100=ml.p4d.24xlarge", flavor_map))}
                </fieldset>
                {move || (reading.get() > 0).then(|| view! {
                    <p class="trace-reading" role="status" data-testid="history-reading">
                        {move || {
                            let (bytes, records) = progress.get();
                            let total = reading.get();
                            if bytes > 0.0 {
                                format!(
                                    "Reading the history in the engine worker: {} of {} ({} records)…",
                                    size_words(bytes as usize),
                                    size_words(total),
                                    format::count(records as usize)
                                )
                            } else {
                                format!("Reading {} of history in the engine worker…", size_words(total))
                            }
                        }}
                    </p>
                })}
                {result_view}
                <div class="trace-actions">
                    <button
                        type="button"
                        class="primary"
                        data-testid="history-apply"
                        prop:disabled=move || !ok() || (reading.get() > 0)
                        on:click=apply
                    >
                        {move || if kueue.get() { "Replace the workloads" } else { "Replace the jobs" }}
                    </button>
                    <button type="button" on:click=move |_| close()>"Cancel"</button>
                </div>
            </form>
        </dialog>
    }
}

/// The dialog's introduction, in the model's words (`kueue`: ClusterQueues): what is read,
/// and SPEC 16's rule for jobs that had not finished (said before any warning).
fn intro(kueue: bool) -> String {
    if kueue {
        "Your cluster's own workloads, replayed on this scenario's ClusterQueues: Kueue Workloads (kubectl get workloads -A -o yaml or -o json, with the LocalQueues) or AWS Batch jobs (aws batch describe-jobs, list-jobs, or the service-job equivalents). They replace the scenario's workloads and its workload mix; the files never leave your browser. A workload still running or pending at the history's end is replayed with only the time it had run (at least 1 s): its completion time is a lower bound.".to_string()
    } else {
        "Your cluster's own jobs, replayed on this scenario's quota shares: Kueue Workloads (kubectl get workloads -A -o yaml or -o json, with the LocalQueues) or AWS Batch jobs (aws batch describe-jobs, list-jobs, or the service-job equivalents). They replace the scenario's jobs and workloads; the files never leave your browser. A job still running or pending at the history's end is replayed with only the time it had run (at least 1 s): its completion time is a lower bound.".to_string()
    }
}

/// A share in the model's word, inside a sentence: "ClusterQueue" (Kueue) or "share".
fn queue_word(kueue: bool) -> String {
    let w = crate::ui::words::share_word(kueue);
    if kueue {
        w.to_string()
    } else {
        w.to_lowercase()
    }
}

/// What the rows of a replayed history's unfinished jobs say ([`crate::state::AppState::unfinished`]),
/// from the import's typed list (sorted by id): a line per job, its id, a tab, `r`
/// (running) or `p` (pending), a tab, the words: "ran 1 h 14 min of an unfinished Workload
/// (a lower bound)", or for one still pending "an unfinished Workload, still pending when the
/// history ends: replayed with 1 s of work, a lower bound".
pub fn unfinished_marks(jobs: &[quotalab_engine::UnfinishedJob]) -> String {
    let mut marks = String::new();
    for j in jobs {
        // A Kueue Workload is named namespace/name, an AWS Batch job by its name.
        let what = if j.id.contains('/') {
            "Workload"
        } else {
            "job"
        };
        let line = match j.kind {
            quotalab_engine::Unfinished::Running => format!(
                "{}\tr\tran {} of an unfinished {what} (a lower bound)\n",
                j.id,
                format::duration(j.ran_s.max(1.0))
            ),
            quotalab_engine::Unfinished::Pending => format!(
                "{}\tp\tan unfinished {what}, still pending when the history ends: replayed with 1 s of work, a lower bound\n",
                j.id
            ),
        };
        marks.push_str(&line);
    }
    marks
}

/// SPEC 16's lower bounds in words: how many jobs of the history had not finished at its end,
/// per share, and what their replay means ("3 jobs had not finished when the history ends
/// (team-c-cq: 2 pending; team-a-cq: 1 running): each is replayed with only the time it had
/// run …"). `None` when every job had finished.
pub fn unfinished_line(
    unfinished: &[quotalab_engine_worker::config::UnfinishedJobs],
    kueue: bool,
) -> Option<String> {
    let n: usize = unfinished.iter().map(|u| u.running + u.pending).sum();
    if n == 0 {
        return None;
    }
    let per = crate::state::unfinished_per_queue(
        unfinished
            .iter()
            .map(|u| (u.share.as_str(), u.running as u64, u.pending as u64)),
    );
    let (job, jobs) = if kueue {
        ("Workload", "Workloads")
    } else {
        ("job", "jobs")
    };
    Some(format!(
        "{} {} had not finished when the history ends ({}): each is replayed with only the time it had run (1 s if it never started), so its completion and the {}'s percentiles read shorter than they were: a lower bound.",
        format::count(n),
        if n == 1 { job } else { jobs },
        per,
        queue_word(kueue),
    ))
}

#[cfg(test)]
mod tests {
    use super::unfinished_marks;

    #[test]
    fn unfinished_jobs_are_marked_by_id_from_the_imports_list() {
        use quotalab_engine::{Unfinished, UnfinishedJob};
        let job = |id: &str, kind, ran_s| UnfinishedJob {
            id: id.into(),
            share: "q".into(),
            kind,
            ran_s,
        };
        let m = unfinished_marks(&[
            job("team-c/job-render-7f3c9", Unfinished::Running, 4440.0),
            job("team-c/job-render-8a4d0", Unfinished::Pending, 0.0),
            job("train-7", Unfinished::Running, 300.0),
        ]);
        assert_eq!(m.lines().count(), 3);
        let get = |id: &str| crate::state::unfinished_mark(&m, id);
        assert_eq!(
            get("team-c/job-render-7f3c9").unwrap(),
            "ran 74 min of an unfinished Workload (a lower bound)"
        );
        assert_eq!(
            get("team-c/job-render-8a4d0").unwrap(),
            "an unfinished Workload, still pending when the history ends: replayed with 1 s of work, a lower bound"
        );
        assert_eq!(
            get("train-7"),
            Some("ran 5.0 min of an unfinished job (a lower bound)")
        );
        assert_eq!(get("team-c/job-render"), None);
    }
}
