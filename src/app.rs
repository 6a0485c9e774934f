//! The page: [`App`] provides the state, opens a link's scenario, starts the runner and lays
//! out the header, the toolbar, the editor column and the results.
//!
//! Landmarks: the header (banner), the toolbar (a region, "Scenario controls"), `main` with
//! the editor ("Scenario editor") and the results ("Results") as labelled regions, the footer
//! (contentinfo). A "Skip to results" link comes first in the tab order. On small screens the
//! editor is folded under "Edit scenario" (www/style.css, "Layout"), so the results come
//! right after the toolbar.

use leptos::html;
use leptos::prelude::*;

use crate::editor::glossary::Glossary;
use crate::editor::Editor;
use crate::io::{presets, share};
use crate::results::compare::CompareView;
use crate::results::explain::{self, CheckpointAdvisor, EventLog, JobHistory};
use crate::results::ResultsPanel;
use crate::state::{self, use_app, AppState};
use crate::toolbar::Toolbar;
use crate::ui::format;
use crate::ui::lasting::{lasting, SHOW_WORK_AFTER};
use crate::ui::problems::ErrorBox;

/// The run status line: "4,210 jobs, 18,930 events in 23 ms", or what is wrong / pending
/// ([`state::RunStatus`]).
#[component]
pub fn RunStatusLine() -> impl IntoView {
    let app = use_app();
    // "(updating…)" only once the run has lasted (a failure or a cancellation says so at once).
    let working = Signal::derive(move || {
        app.status
            .with(|s| matches!(s, state::RunStatus::Pending | state::RunStatus::Running(_)))
    });
    let working_shown = lasting(working, SHOW_WORK_AFTER);
    view! {
        <span
            class="run-status"
            role="status"
            data-testid="run-stats"
            data-run-ms=move || app.run_stats.with(|s| format!("{:.1}", s.last_ms))
            data-run-seq=move || app.run_stats.with(|s| s.finished.to_string())
        >
            {move || {
                let problems = app.problems.get();
                if !problems.is_empty() {
                    return format!(
                        "{} problem{} in the scenario: showing the last good result",
                        problems.len(),
                        if problems.len() == 1 { "" } else { "s" },
                    );
                }
                match app.outcome.get() {
                    None => "simulating…".to_string(),
                    Some(o) => format!(
                        "{}, {} in {}{}",
                        // Issue #34: the Kueue model counts workloads.
                        if o.digest.kueue.is_some() {
                            format::count_of(o.digest.totals.submitted, "workload", "workloads")
                        } else {
                            format::count_of(o.digest.totals.submitted, "job", "jobs")
                        },
                        format::count_of(o.digest.event_count, "event", "events"),
                        format::millis(o.millis),
                        if working.get() && !working_shown.get() { "" } else { app.stale_note() },
                    ),
                }
            }}
        </span>
    }
}

/// The page.
#[component]
pub fn App() -> impl IntoView {
    let app = AppState::new(presets::AWS_WALKTHROUGH_JSON.to_string());
    provide_context(app);
    // Opens a `#s=` link's scenario, if any, before the first run; the URL follows from here.
    // The story player first: the link may name a story (`#story=ID&step=N`).
    let story = crate::story::provide();
    let share = share::init_from_url(app);
    let host = crate::io::tools::install_host(app, share);
    crate::explore::install_page(&host, app, share);
    crate::story::init_from_url(app, story);
    state::install_runner(app, 250);
    explain::provide_selected_job();
    let results = NodeRef::<html::Div>::new();
    // Moves the focus to the results without a fragment navigation: the URL's hash holds
    // the share link.
    let skip = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        if let Some(r) = results.get_untracked() {
            let _ = r.focus();
            r.scroll_into_view();
        }
    };
    // The editor's fold: only small screens show it, folded at first.
    let editor_open = RwSignal::new(false);
    // Marked stale only once that has lasted: a quick re-run changes nothing on screen.
    // `data-stale` says it at once (for tests and tools; no style reads it).
    let stale_now = Memo::new(move |_| app.stale.get());
    let stale_marked = lasting(stale_now.into(), SHOW_WORK_AFTER);
    view! {
        <a class="skip-link" href="#results" data-testid="skip-to-results" on:click=skip>
            "Skip to results"
        </a>
        <header class="site-header">
            <div class="wrap">
                <h1>"Quota Lab"</h1>
                <p class="tagline">
                    "GPU quota sharing, simulated: the gap between what each team is allocated and what it actually consumes."
                </p>
            </div>
        </header>
        <Toolbar>
            <RunStatusLine />
        </Toolbar>
        <crate::story::Intro stale=stale_marked />
        <main class="wrap layout">
            <div
                class="editor-column"
                role="region"
                class:folded=move || !editor_open.get()
                aria-label="Scenario editor"
            >
                <button
                    type="button"
                    class="editor-fold"
                    data-testid="editor-fold"
                    aria-controls="editor-body"
                    aria-expanded=move || if editor_open.get() { "true" } else { "false" }
                    on:click=move |_| editor_open.update(|o| *o = !*o)
                >
                    "Edit scenario"
                </button>
                <div id="editor-body" class="editor-body">
                    <Editor />
                    <Glossary kueue=Signal::derive(move || {
                        app.outcome.with(|o| o.as_ref().is_some_and(|o| o.digest.kueue.is_some()))
                    }) />
                </div>
            </div>
            <div
                id="results"
                class="results"
                role="region"
                class:stale=move || stale_marked.get()
                data-stale=move || if stale_now.get() { "true" } else { "false" }
                aria-label="Results"
                tabindex="-1"
                node_ref=results
            >
                {move || {
                    let problems = app.problems.get();
                    (!problems.is_empty()).then(|| {
                        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
                        view! { <ErrorBox title="This scenario cannot be simulated" problems=lines /> }
                    })
                }}
                <ResultsPanel />
                <CheckpointAdvisor />
                <CompareView switch=Callback::new(move |(on, busy)| {
                    crate::io::tools::open(app, crate::io::tools::Tool::Compare(on), busy)
                }) />
                <EventLog />
                <JobHistory />
            </div>
        </main>
        <crate::story::StoryCard />
        <footer class="site-footer wrap">
            "The simulator runs entirely in your browser; nothing is sent anywhere."
        </footer>
    }
}
