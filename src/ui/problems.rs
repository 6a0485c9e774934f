//! The error box: every problem the engine reported, one per line.

use leptos::prelude::*;

/// Lists every problem (`path: message`, as the engine's `Problem` displays).
#[component]
pub fn ErrorBox(#[prop(into)] title: String, problems: Vec<String>) -> impl IntoView {
    view! {
        <section class="error-box" role="alert">
            <h2>{title}</h2>
            <ul>{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
        </section>
    }
}
