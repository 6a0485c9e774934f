//! A card of the page: a section headed by its title.

use leptos::prelude::*;

/// A `<section class="card {class}">` labelled by its heading, an `<h2>` of `title` with
/// the id `{id}-heading`, then the children.
#[component]
pub fn Card(
    id: &'static str,
    title: &'static str,
    #[prop(optional)] class: &'static str,
    #[prop(optional)] testid: Option<&'static str>,
    children: Children,
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
            {children()}
        </section>
    }
}
