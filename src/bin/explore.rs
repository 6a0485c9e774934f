//! The Explore panel and its sweep workers ([`quotalab_app::explore`]), a third wasm that the
//! page imports only when the panel first opens (Trunk builds it from index.html). On the
//! page, [`open_explore`] opens the panel; in a worker (`www/quotalab-explore-worker.js`),
//! [`explore_worker`] serves sweep runs. Its `main` only installs the panic hook.

use wasm_bindgen::prelude::*;

fn main() {
    quotalab_app::panic::install();
}

/// Opens the Explore panel on the page's current scenario.
#[wasm_bindgen]
pub fn open_explore() {
    quotalab_app::explore::open();
}

/// Opens the Explore panel with the link's sweep settings (Back, Forward, a pasted link).
#[wasm_bindgen]
pub fn open_explore_link() {
    quotalab_app::explore::open_link();
}

/// Serves sweep runs in a worker ([`quotalab_app::explore::worker`]).
#[wasm_bindgen]
pub fn explore_worker() {
    quotalab_app::explore::worker::worker_main();
}
