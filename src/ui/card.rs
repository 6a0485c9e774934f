//! A card of the page: a section headed by its title.

use leptos::prelude::*;

/// A `<section class="card {class}">` labelled by its heading, an `<h2>` of `title` with
/// the id `{id}-heading`, then `body`. A function, not a component: a component's props
/// cost the page's wasm bytes at every use.
pub fn card(
    id: &'static str,
    title: &'static str,
    class: &'static str,
    testid: Option<&'static str>,
    body: impl IntoView,
) -> impl IntoView {
    let heading = format!("{id}-heading");
    let labelled_by = heading.clone();
    let class = if class.is_empty() {
        "card".to_string()
    } else {
        format!("card {class}")
    };
    view! {
        <section class=class aria-labelledby=labelled_by data-testid=testid>
            <h2 id=heading>{title}</h2>
            {body}
        </section>
    }
}
