//! The playground's entry point (built by Trunk). The same wasm runs in two places: on the
//! page, where it mounts the app, and in the simulation worker (`www/worker-loader.js` starts
//! it there with the page's compiled module), where it serves runs ([`quotalab_app::worker`]).

use wasm_bindgen::JsCast;

fn main() {
    if js_sys::global()
        .dyn_ref::<web_sys::DedicatedWorkerGlobalScope>()
        .is_some()
    {
        quotalab_app::worker::worker_main();
        return;
    }
    quotalab_app::panic::install();
    leptos::mount::mount_to_body(quotalab_app::App);
    // The static "Loading…" text of index.html has served its purpose.
    if let Some(loading) = leptos::prelude::document().get_element_by_id("loading") {
        loading.remove();
    }
}
