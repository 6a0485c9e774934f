//! The simulation worker's wasm entry: Trunk builds it with `data-type="worker"` (see
//! `index.html`); everything it does is in [`quotalab_app::worker`].

fn main() {
    quotalab_app::worker::worker_main();
}
