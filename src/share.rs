//! Share links, files and exports. STUB: the links' owner fills this in.

use leptos::prelude::*;

/// The toolbar's share/export controls.
#[component]
pub fn ShareBar() -> impl IntoView {
    view! { <div class="share-bar"></div> }
}
