//! The scenario editor: forms for all of SPEC 7 and a raw JSON view kept in sync.
//! STUB: only the raw JSON view for now.

use leptos::prelude::*;

use crate::state::use_app;

/// The editor panel.
#[component]
pub fn Editor() -> impl IntoView {
    let app = use_app();
    view! {
        <section class="card editor" aria-labelledby="editor-heading">
            <h2 id="editor-heading">"Scenario"</h2>
            <textarea
                class="json-editor"
                spellcheck="false"
                aria-label="Scenario JSON"
                prop:value=move || app.scenario.get()
                on:input=move |ev| app.scenario.set(event_target_value(&ev))
            ></textarea>
        </section>
    }
}
