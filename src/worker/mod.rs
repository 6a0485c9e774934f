//! Large runs off the main thread: the simulation Web Worker and its protocol, in three
//! files: [`protocol`] (the encodings and clocks both sides share), [`page`] (the page's
//! [`WorkerClient`]) and [`agent`] (the worker's side, [`worker_main`]).
//!
//! The worker runs the page's own wasm: `www/loader.js` compiles the module once and keeps it
//! (with the address of its wasm-bindgen glue) in `globalThis.quotalabBoot`; the page starts a
//! module worker from `www/worker-loader.js` and hands it both, so a worker costs no download
//! and no compile, and the files cannot disagree (one hashed wasm). In the worker the module's
//! `main` (`src/main.rs`) sees a worker scope and calls [`worker_main`]. A run there is:
//! validation, then [`Sim::step`](quotalab_engine::Sim::step) instant by instant with a progress report every
//! [`PROGRESS_MS`], then the [`Digest`](quotalab_engine::digest::Digest).
//!
//! Messages are JS arrays; bulk data travels as byte buffers that are *transferred*, not
//! copied (the scenario as UTF-8, the result as `postcard`: a compact binary serde format,
//! about a third of the JSON size and ten times faster to decode in wasm, measured in
//! `docs/PERFORMANCE.md`):
//!
//! | direction | message |
//! |---|---|
//! | page → worker | `["run", id, scenario bytes, max_points, max_events]` |
//! | worker → page | `["ready"]` once its wasm is running (earlier messages would be lost) |
//! | worker → page | `["progress", id, fraction 0..1, phase]` |
//! | worker → page | `["problems", id, postcard Vec<(path, message)>]` |
//! | worker → page | `["done", id, postcard (warnings, Digest), total ms, validate ms, simulate ms, digest ms, encode ms, received at, posted at]` (times since the epoch, ms) |
//! | worker → page | `["error", id or -1, message]` (a panic in the worker, a bad message) |
//! | worker → page | `["unavailable", -1, message]` (its wasm could not be started) |
//! | page → worker | `["boot", -1, WebAssembly.Module, glue address]` (first message, read by the loader) |
//! | page → worker | `["warmup", -1]` (the first worker runs a small scenario to optimise its code) |
//!
//! A worker started after a cancel shares the compiled module, and with it the code V8 has
//! already optimised: it begins at once (no fetch, no compile, no cold first run).
//!
//! A run is cancelled by terminating the worker (it truly stops the CPU work; a fresh worker
//! is started at once for the next run). No panic crosses the boundary: the worker's panic
//! hook posts an `error` message, and an uncaught worker error reaches [`WorkerClient`] as
//! [`Reply::Failed`] (or [`Reply::Unavailable`] when the worker never started).

pub mod agent;
pub mod page;
pub mod protocol;

pub use agent::{sim_fraction, worker_main, PROGRESS_MS};
pub use page::{Reply, WorkerClient, START_TIMEOUT_MS, WORKER_URL};
pub use protocol::{decode_done, decode_problems, encode_done, encode_problems, epoch_ms};
