//! The engine worker's entry: `www/worker-loader.js` starts this module in a module worker
//! with the module the page compiled once; `main` installs the message handler and posts
//! `Response::Ready` ([`quotalab_engine_worker::agent`]).

#[cfg(target_arch = "wasm32")]
fn main() {
    quotalab_engine_worker::agent::worker_main();
}

/// Natively the worker is only a library.
#[cfg(not(target_arch = "wasm32"))]
fn main() {}
