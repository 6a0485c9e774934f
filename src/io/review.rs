//! "Review a proposed change…" (SPEC 16): a second configuration (AWS Batch JSON, Kueue
//! YAML or a scenario) as the proposal, run against the scenario on the scenario's jobs for
//! several seeds; per share, worst first, the change in completion, wait, deadline misses,
//! preemptions and borrowing, each with its band over seeds: the engine's
//! `analysis::review`, the function `quotasim review` calls, in the engine worker. Rules
//! (`--fail-on`) say which shares cross a line; the report can carry the review.

use leptos::html;
use leptos::prelude::*;
use quotalab_engine::analysis::review::{ShareTable, TeamVerdict};
use quotalab_engine::config::MAX_FILE_BYTES;
use quotalab_engine_worker::config::{
    Request, Response, ReviewReport, ReviewRequest, UnknownShare,
};

use crate::io::config::use_config_service;
use crate::io::dialog;
use crate::state::use_app;
use crate::ui::{format, words};
use crate::worker::service::use_engine_service;

/// Opens the dialog.
pub use crate::io::dialog::open as open_dialog;

/// The "Review a proposed change" dialog (opened with [`open_dialog`] on `node_ref`).
#[component]
pub fn ReviewDialog(node_ref: NodeRef<html::Dialog>) -> impl IntoView {
    let app = use_app();
    let service = use_config_service();
    let engine = use_engine_service();
    // The proposal: a file's name and text, or pasted text.
    let proposal = StoredValue::new(None::<(String, String)>);
    let file_label = RwSignal::new(String::new());
    let pasted = RwSignal::new(String::new());
    let seeds = RwSignal::new(String::new());
    let rules = RwSignal::new(String::new());
    let result = RwSignal::new(None::<Result<ReviewReport, Vec<String>>>);
    let running = RwSignal::new(false);
    let generation = StoredValue::new(0u64);
    // Jobs of shares the proposal lacks: moved as mapped here, else dropped (the import
    // dialog's way out, the same engine function); the last review's list of them.
    let resolve = RwSignal::new(Vec::<(String, String)>::new());
    let unknown = RwSignal::new((Vec::<UnknownShare>::new(), Vec::<String>::new()));
    // Another proposal: its shares are other ones (no review runs for this).
    let forget_unknown = move || {
        resolve.update_untracked(|m| m.clear());
        unknown.set(Default::default());
    };

    let proposed = move || -> Option<(String, String)> {
        proposal.get_value().or_else(|| {
            let t = pasted.get_untracked();
            (!t.trim().is_empty()).then(|| ("the pasted proposal".to_string(), t))
        })
    };
    let run = move || {
        let Some(p) = proposed() else {
            result.set(Some(Err(vec![
                "Proposal: drop or pick a configuration file, or paste one.".to_string(),
            ])));
            return;
        };
        let seeds_text = seeds.get_untracked();
        let seeds = match seeds_text.trim() {
            "" => None,
            t => match t.parse::<u64>() {
                Ok(n) if (1..=100).contains(&n) => Some(n),
                _ => {
                    result.set(Some(Err(vec![format!(
                        "Seeds: enter a whole number from 1 to 100, or leave it empty (got \u{201c}{t}\u{201d})."
                    )])));
                    return;
                }
            },
        };
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        running.set(true);
        result.set(None);
        let req = ReviewRequest {
            scenario: app.scenario.get_untracked(),
            proposed: p,
            seeds,
            rules: rules
                .get_untracked()
                .split([',', '\n'])
                .map(str::to_string)
                .collect(),
            resolve: Some(resolve.get_untracked()),
        };
        service.send(Request::Review(req), move |response| {
            if generation.get_value() != mine {
                return;
            }
            running.set(false);
            match response {
                Response::Reviewed(r) => {
                    if let Ok(rep) = &r {
                        unknown.set((rep.unknown.clone(), rep.targets.clone()));
                    }
                    // In the page's words: fields named, an object rather than a path
                    // (the CLI keeps its paths).
                    result.set(Some(r.map_err(|ps| ps.iter().map(words::said).collect())))
                }
                Response::Failed(m) => result.set(Some(Err(vec![m]))),
                _ => {}
            }
        });
    };
    let take_files = move |list: Option<web_sys::FileList>| {
        let Some(file) = list.and_then(|l| l.get(0)) else {
            return;
        };
        leptos::task::spawn_local(async move {
            let name = file.name();
            if file.size() > MAX_FILE_BYTES as f64 {
                file_label.set(format!(
                    "{name}: is {} bytes, over the {} MiB limit",
                    format::count(file.size() as usize),
                    MAX_FILE_BYTES / (1024 * 1024)
                ));
                proposal.set_value(None);
                return;
            }
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(v) => {
                    file_label.set(format!(
                        "{name} ({} bytes)",
                        format::count(file.size() as usize)
                    ));
                    proposal.set_value(Some((name, v.as_string().unwrap_or_default())));
                    result.set(None);
                    forget_unknown();
                }
                Err(e) => file_label.set(format!("{name}: could not be read ({e:?})")),
            }
        });
    };
    // A choice of where a share's jobs go reviews again at once (as the import re-reads).
    Effect::new(move |prev: Option<()>| {
        resolve.track();
        if prev.is_some() && result.with_untracked(|r| matches!(r, Some(Ok(_)))) {
            run();
        }
    });
    let unknown_view = move || {
        let (list, targets) = unknown.get();
        (!list.is_empty()).then(|| {
            // The scenario's model (its `model` alone is read: the tools' app has no run),
            // only when there is something to say (the tools are mounted with the page's
            // scenario, which may be a 16 MB trace, issue #30).
            let kueue = app
                .scenario
                .with_untracked(|t| crate::io::config::scenario_is_kueue(t));
            crate::io::config::unknown_choices(
                list,
                targets,
                resolve,
                "review-unknown",
                if kueue {
                    "These jobs of the scenario name ClusterQueues the proposal does not have. Drop them from the proposal's run, or move each queue's jobs to one of its ClusterQueues, and the review runs again:"
                } else {
                    "These jobs of the scenario name shares the proposal does not have. Drop them from the proposal's run, or move each share's jobs to one of its shares, and the review runs again:"
                },
            )
        })
    };
    let report = move |_| {
        let Some(p) = proposed() else { return };
        let text = app.scenario.get_untracked();
        crate::io::files::export_report_with(app, engine, text, false, Some(p));
    };
    let close = move || dialog::close(node_ref);
    // The scenario is in the Kueue model (the intro says ClusterQueues), set on opening.
    let kueue = RwSignal::new(false);
    let on_toggle = move |_: leptos::ev::Event| {
        if node_ref.get_untracked().is_some_and(|d| d.open()) {
            kueue.set(
                app.scenario
                    .with_untracked(|t| crate::io::config::scenario_is_kueue(t)),
            );
            service.warm();
        }
    };
    let result_view = move || {
        result.with(|r| {
            Some(match r.as_ref()? {
                Ok(rep) => {
                    let rep = rep.clone();
                    let crossed = rep.crossed;
                    view! {
                        <div class="review-result" data-testid="review-result">
                            <p class="review-headline" data-testid="review-headline">{rep.headline}</p>
                            <p class="review-note">{rep.ran}</p>
                            {(!rep.rules.is_empty()).then(|| view! {
                                <ul class=if crossed { "review-rules crossed" } else { "review-rules" } data-testid="review-rules">
                                    {rep.rules.iter().map(|l| view! { <li>{l.clone()}</li> }).collect_view()}
                                </ul>
                            })}
                            {rep.shares.into_iter().map(share_view).collect_view()}
                            {rep.only.iter().map(|l| view! { <p class="review-note">{l.clone()}</p> }).collect_view()}
                            {(!rep.warnings.is_empty()).then(|| view! {
                                <div class="trace-warning" data-testid="review-warnings">
                                    <p>{format!("{} warning{}:", rep.warnings.len(), if rep.warnings.len() == 1 { "" } else { "s" })}</p>
                                    <ul>{rep.warnings.iter().map(|w| view! { <li title=w.to_string()>{words::said(w)}</li> }).collect_view()}</ul>
                                </div>
                            })}
                            <details class="review-numbers" data-testid="review-numbers">
                                <summary>"Every number, as "<code>"quotasim review"</code>" prints it"</summary>
                                {rep.preamble.iter().map(|l| view! { <p class="review-note">{l.clone()}</p> }).collect_view()}
                                {rep.tables.into_iter().map(table_view).collect_view()}
                            </details>
                        </div>
                    }
                    .into_any()
                }
                Err(lines) => {
                    let lines = lines.clone();
                    view! {
                        <div class="trace-problems" role="alert" data-testid="review-errors">
                            <p>"The proposal cannot be reviewed:"</p>
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
            class="trace-dialog config-dialog review-dialog"
            node_ref=node_ref
            data-testid="review-dialog"
            aria-labelledby="review-heading"
            aria-describedby="review-intro"
            on:toggle=on_toggle
        >
            {dialog::head(node_ref, "review-heading", "Review a proposed change")}
            <p class="trace-intro" id="review-intro">
                "A quota change affects running work: review it like code. The proposal (AWS Batch JSON, Kueue YAML, or a scenario) runs on this scenario's jobs beside the scenario as it is, for several seeds; each "
                {move || if kueue.get() { "ClusterQueue" } else { "share" }}
                "'s change comes with its band over the seeds, worst first."
            </p>
            <div class="config-drop" data-testid="review-drop"
                on:dragover=move |e: leptos::ev::DragEvent| e.prevent_default()
                on:drop=move |e: leptos::ev::DragEvent| {
                    e.prevent_default();
                    take_files(e.data_transfer().and_then(|d| d.files()));
                }
            >
                {dialog::file_picker(
                    "The proposed configuration",
                    ".json,.yaml,.yml,application/json,application/yaml,text/yaml,text/plain",
                    false,
                    "review-file",
                    move |ev| take_files(event_target::<web_sys::HtmlInputElement>(&ev).files()),
                )}
                {move || (!file_label.get().is_empty()).then(|| view! { <p class="config-files" data-testid="review-file-name">{file_label.get()}</p> })}
                <label class="trace-field config-paste">
                    <span class="trace-label">"Or paste it"</span>
                    <textarea
                        rows="5"
                        spellcheck="false"
                        data-testid="review-text"
                        prop:value=move || pasted.get()
                        on:input=move |ev| {
                            forget_unknown();
                            proposal.set_value(None);
                            file_label.set(String::new());
                            pasted.set(event_target_value(&ev));
                        }
                    ></textarea>
                </label>
            </div>
            <form class="trace-form" on:submit=move |ev| ev.prevent_default()>
                <fieldset>
                    <legend>"Options"</legend>
                    {dialog::field("Seeds", None, "runs of each side; empty: 1 when nothing is random, else 10".into(), view! {
                        <input type="number" min="1" max="100" data-testid="review-seeds" placeholder="auto"
                            prop:value=move || seeds.get() on:input=move |ev| seeds.set(event_target_value(&ev)) />
                    })}
                    {dialog::field("Rules", None, rules_hint(), view! {
                        <input type="text" spellcheck="false" data-testid="review-rules-input" placeholder="deadline_misses>0"
                            prop:value=move || rules.get() on:change=move |ev| rules.set(event_target_value(&ev)) />
                    })}
                </fieldset>
                {unknown_view}
                {move || unknown.with(|u| !u.0.is_empty()).then(|| view! {
                    <p class="review-note" data-testid="review-report-why">
                        "The report reviews the proposal as the command line does, which refuses jobs of shares the proposal lacks: to download it, give the proposal those shares."
                    </p>
                })}
                {move || running.get().then(|| view! { <p class="trace-reading" role="status" data-testid="review-running">"Reviewing in the engine worker…"</p> })}
                {result_view}
                <div class="trace-actions">
                    <button type="button" class="primary" data-testid="review-run" prop:disabled=move || running.get() on:click=move |_| run()>
                        "Review"
                    </button>
                    <button type="button" data-testid="review-report" prop:disabled=move || !result.with(|r| matches!(r, Some(Ok(_)))) || unknown.with(|u| !u.0.is_empty()) on:click=report>
                        "Download the report with this review"
                    </button>
                    <button type="button" on:click=move |_| close()>"Close"</button>
                </div>
            </form>
        </dialog>
    }
}

/// One team's verdict: a heading with the verdict, the changes for the worse and for the
/// better in words, what else changed, the rules it crosses.
fn share_view(s: TeamVerdict) -> impl IntoView {
    let list = |class: &'static str, lead: &'static str, lines: Vec<String>| {
        (!lines.is_empty()).then(|| {
            view! {
                <div class=class>
                    <span class="review-lead">{lead}</span>
                    <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                </div>
            }
        })
    };
    let crossed = s
        .crossing()
        .map(|c| view! { <p class="review-crossed" data-testid="review-crossed">{c}</p> });
    let name = s.name.clone();
    view! {
        <section class="review-share" data-testid="review-share" data-share=name data-verdict=s.verdict.key()>
            <h3>
                <span class="review-name">{s.name}</span>
                <span class="review-verdict">{s.verdict.words()}</span>
            </h3>
            {crossed}
            {list("review-worse", "Worse:", s.worse)}
            {list("review-better", "Better:", s.better)}
            {list("review-also", "Also:", s.also)}
            {s.notes.into_iter().map(|n| view! { <p class="review-note">{n}</p> }).collect_view()}
        </section>
    }
}

/// One share's numbers, as the CLI prints them.
fn table_view(t: ShareTable) -> impl IntoView {
    let mut rows = t.rows.into_iter();
    let head = rows.next().unwrap_or_default();
    view! {
        <div class="review-table-wrap table-scroll" data-share=t.name>
            <h4>{t.heading}</h4>
            <p class="review-note">{format!("current: {} · proposed: {}", t.current, t.proposed)}</p>
            <table class="review-table">
                <thead><tr>{head.into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr></thead>
                <tbody>
                    {rows.map(|r| {
                        let [m, rest @ ..] = r;
                        let key = m.clone();
                        view! {
                            <tr data-metric=key>
                                <th scope="row">{m}</th>
                                {rest.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// The Rules field's hint: the form of a rule and every metric a rule may name (the engine's
/// [`Metric::ALL`](quotalab_engine::analysis::review::Metric::ALL)).
fn rules_hint() -> String {
    let metrics: Vec<&str> = quotalab_engine::analysis::review::Metric::ALL
        .iter()
        .map(|m| m.name())
        .collect();
    format!(
        "optional, comma-separated, METRIC > < >= <= a change (+10% relative, or a number in the metric's unit): deadline_misses>0, completion_p90>+10%. Metrics: {}",
        metrics.join(", ")
    )
}
