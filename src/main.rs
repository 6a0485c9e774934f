//! The playground's entry point (built by Trunk): mounts the page. The engine runs in
//! workers of its own wasm (`crates/engine-worker`, started by `src/worker/`).

fn main() {
    quotalab_app::panic::install();
    leptos::mount::mount_to_body(quotalab_app::App);
    // The static "Loading…" text of index.html has served its purpose.
    if let Some(loading) = leptos::prelude::document().get_element_by_id("loading") {
        loading.remove();
    }
}
