//! Everything shown about the last good run. STUB: the results' owner replaces the interim
//! JSON-based view with components fed by the run's `Digest`.

use leptos::prelude::*;

use crate::state::use_app;
use crate::{run_scenario, Results};

/// The results panel: summary, charts, explanations.
#[component]
pub fn ResultsPanel() -> impl IntoView {
    let app = use_app();
    view! {
        {move || {
            app.outcome.get().and_then(|_| run_scenario(&app.scenario.get_untracked()).ok()).map(|result| {
                view! { <Results result=result /> }
            })
        }}
    }
}
