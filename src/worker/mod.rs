//! Large runs off the main thread: the simulation Web Worker and its protocol, in three
//! files: [`protocol`] (the encodings and clocks both sides share), [`page`] (the page's
//! [`WorkerClient`]) and [`agent`] (the worker's side, [`worker_main`]).
//!
//! The worker runs the page's own wasm: `www/loader.js` compiles the module once and keeps it
//! (with the address of its wasm-bindgen glue) in `globalThis.quotalabBoot`; the page starts a
//! module worker from `www/worker-loader.js` and hands it both, so a worker costs no download
//! and no compile, and the files cannot disagree (one hashed wasm). In the worker the module's
//! `main` (`src/main.rs`) sees a worker scope and calls [`worker_main`]. A run there is:
//! the stages of [`quotalab_engine::pipeline::run`] (the call the page makes for its own runs):
//! validation, then [`Sim::step`](quotalab_engine::Sim::step) instant by instant with a
//! progress report every [`PROGRESS_MS`], then the [`Digest`](quotalab_engine::digest::Digest).
//!
//! Messages are the serde enums of [`protocol`], [`Request`] (page → worker) and [`Response`]
//! (worker → page), encoded with `postcard` (a compact binary serde format: the result is
//! about a third of its JSON size and ten times faster to decode in wasm, measured in
//! `docs/PERFORMANCE.md`) and sent as a `Uint8Array` whose buffer is *transferred*, not
//! copied:
//!
//! | direction | message |
//! |---|---|
//! | page → worker | `{kind: "boot", module, js}`, a plain object read by the loader (a `WebAssembly.Module` cannot be postcard) |
//! | worker → page | [`Response::Ready`] once its wasm is running (earlier requests would be lost) |
//! | page → worker | [`Request::Warmup`] (the first worker runs a small scenario to optimise its code) |
//! | page → worker | [`Request::Run`] `{ id, scenario, limits }` |
//! | worker → page | [`Response::Progress`] `{ id, fraction, phase }` |
//! | worker → page | [`Response::Problems`] `{ id, problems }` |
//! | worker → page | [`Response::Done`] `{ id, timing, result }` (the warnings and [`Digest`](quotalab_engine::digest::Digest), encoded before the timing is known) |
//! | worker → page | [`Response::Error`] `{ id, message }` (a panic in the worker, a request it could not read) |
//! | worker → page | `{kind: "unavailable", message}`, a plain object from the loader (its wasm could not be started) |
//!
//! The page shows where its worker is ([`WorkerState`]) as `data-worker` on the run progress
//! line: `idle`, `starting`, `ready` (it fetches nothing more), or `off` (none will be
//! started).
//!
//! A worker started after a cancel shares the compiled module, and with it the code V8 has
//! already optimised: it begins at once (no fetch, no compile, no cold first run).
//!
//! A run is cancelled by terminating the worker (it truly stops the CPU work; a fresh worker
//! is started at once for the next run). No panic crosses the boundary: the worker's panic
//! hook posts an `error` message, and an uncaught worker error reaches [`WorkerClient`] as
//! [`Reply::Failed`] (or [`Reply::Unavailable`] when the worker never started).

pub mod agent;
pub mod bridge;
pub mod page;
pub mod protocol;

pub use agent::{worker_main, PROGRESS_MS};
pub use page::{Reply, WorkerClient, WorkerState, START_TIMEOUT_MS, WORKER_URL};
pub use protocol::{decode_result, encode_result, epoch_ms, Phase, Request, Response, Timing};
