//! The Explore panel ([`quotalab_app::explore`]), a third wasm that the page imports only
//! when the panel first opens (Trunk builds it from index.html); its sweeps run in engine
//! workers. [`open_explore`] opens the panel. Its `main` only installs the panic hook.

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
