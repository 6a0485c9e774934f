//! Quota Lab's playground: runs the engine in the browser and shows its results.
//!
//! The app only displays what `quotalab_engine` computes; no scheduling rule lives here.
//! Components: [`summary::SummaryTable`], [`charts::OccupancyChart`], [`problems::ErrorBox`].

pub mod charts;
pub mod format;
pub mod palette;
pub mod panic;
pub mod problems;
pub mod report;
pub mod summary;

use leptos::prelude::*;
use serde_json::Value;

use charts::OccupancyChart;
use problems::ErrorBox;
use summary::SummaryTable;

/// A scenario the page ships with.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub title: &'static str,
    pub description: &'static str,
    pub json: &'static str,
}

/// The scenario of AWS's quota-sharing walkthrough (`www/presets/aws-walkthrough.json`).
pub const AWS_WALKTHROUGH: Preset = Preset {
    title: "AWS walkthrough",
    description: "Three quota shares of one ml.g5.xlarge each on a 3-instance cluster: \
                  background lends and borrows, medium only lends, protected keeps its reserve.",
    json: include_str!("../www/presets/aws-walkthrough.json"),
};

/// Runs a scenario through the engine: the parsed result (SPEC 8), or every problem as text.
pub fn run_scenario(scenario_json: &str) -> Result<Value, Vec<String>> {
    let text = quotalab_engine::run_json(scenario_json)
        .map_err(|problems| problems.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    serde_json::from_str(&text)
        .map_err(|e| vec![format!("the engine's result is not valid JSON: {e}")])
}

/// What one run shows: the summary table and the occupancy chart.
#[component]
pub fn Results(result: Value) -> impl IntoView {
    view! {
        <section class="card" aria-labelledby="summary-heading">
            <h2 id="summary-heading">"Summary"</h2>
            <SummaryTable result=result.clone() />
        </section>
        <section class="card" aria-labelledby="occupancy-heading">
            <h2 id="occupancy-heading">"Cluster occupancy"</h2>
            <OccupancyChart result=result />
        </section>
    }
}

/// The page.
#[component]
pub fn App() -> impl IntoView {
    let (preset, _set_preset) = signal(AWS_WALKTHROUGH);
    let outcome = Memo::new(move |_| run_scenario(preset.get().json));
    view! {
        <header class="site-header">
            <div class="wrap">
                <h1>"Quota Lab"</h1>
                <p class="tagline">
                    "GPU quota sharing, simulated: the gap between what each team is allocated and what it actually consumes."
                </p>
            </div>
        </header>
        <main class="wrap">
            <section class="scenario-intro">
                <h2>{move || preset.get().title}</h2>
                <p>{move || preset.get().description}</p>
            </section>
            {move || match outcome.get() {
                Ok(result) => view! { <Results result=result /> }.into_any(),
                Err(problems) => {
                    view! { <ErrorBox title="This scenario cannot be simulated" problems=problems /> }
                        .into_any()
                }
            }}
        </main>
        <footer class="site-footer wrap">
            "The simulator runs entirely in your browser; nothing is sent anywhere."
        </footer>
    }
}
