//! Work off the main thread: the page's side of the engine workers. Every engine call that
//! takes time runs in a worker of the engine's own wasm (`crates/engine-worker`, compiled
//! for speed; the simulator is not in the page's wasm): [`page`] holds the runs' client
//! ([`WorkerClient`]), [`service`] the client of everything else asked of the engine
//! (configurations, the comparison and forecast, the CSV import, the report, the result JSON,
//! the link; the Explore panel's pool, `explore/pool.rs`, sends sweeps), and [`bridge`] the
//! page's one way to read and write JS objects by name and to start a worker.
//!
//! `www/loader.js` starts downloading and compiling the engine's wasm beside the page's own
//! and keeps the compiled module; `globalThis.quotalabStartEngine()` starts a module worker
//! from `www/worker-loader.js` and hands it the module and the glue's address, so a worker
//! costs no download and no compile. In the worker the module's `main` installs the engine's
//! message handler (`quotalab_engine_worker::agent`). A run there is the stages of
//! [`quotalab_engine::pipeline::run`]: validation, then
//! [`Sim::step`](quotalab_engine::Sim::step) instant by instant with a progress report every
//! 50 ms, then the [`Digest`](quotalab_engine::digest::Digest).
//!
//! Messages are the serde enums of `quotalab_engine_worker::protocol`, [`Request`] (page →
//! worker) and [`Response`] (worker → page), encoded with `postcard` (a compact binary serde
//! format: the result is about a third of its JSON size and ten times faster to decode in
//! wasm, measured in `docs/PERFORMANCE.md`) and sent as a `Uint8Array` whose buffer is
//! *transferred*, not copied:
//!
//! | direction | message |
//! |---|---|
//! | page → worker | `{kind: "boot", module, js}`, a plain object read by the loader (a `WebAssembly.Module` cannot be postcard) |
//! | worker → page | [`Response::Ready`] once its wasm is running (earlier requests would be lost) |
//! | page → worker | [`Request::Warmup`] (the first worker runs a small scenario to optimise its code) |
//! | page → worker | [`Request::Run`] `{ id, scenario, limits, relabel, link }` (`relabel`: the run whose result the page shows, none for the Run button; `link` for a scenario over 64 KiB: its share link is made here, so the text crosses once) |
//! | worker → page | [`Response::Progress`] `{ id, fraction, phase }` |
//! | worker → page | [`Response::Problems`] `{ id, problems }` (each `Problem` whole: its path's steps and kind, which the editor words) |
//! | worker → page | [`Response::Done`] `{ id, timing, result }` (the warnings and [`Digest`](quotalab_engine::digest::Digest), encoded before the timing is known) |
//! | worker → page | [`Response::Relabelled`] `{ id, timing, label, warnings }` instead of `Done` when the scenario simulates as the `relabel` run did (a name or agreement edit): the page keeps its result and shows the new [`Label`](quotalab_engine::digest::Label) |
//! | worker → page | [`Response::Link`] `{ id, result }` after `Done`, when the run asked for its link (the payload, or SPEC 10's reason there is none) |
//! | page → worker | [`Request::Config`] `{ id, body }`, answered by [`Response::Config`] |
//! | page → worker | [`Request::Compare`] `{ id, scenario, limits }`, answered by [`Response::Compared`] |
//! | page → worker | [`Request::TraceImport`] / [`Request::TraceCheck`] `{ id, csv, options }`, answered by [`Response::TraceImported`] / [`Response::TraceChecked`] |
//! | page → worker | [`Request::Report`], [`Request::RunFile`], [`Request::Link`] `{ id, scenario, .. }`, answered by the response of the same name |
//! | page → worker | [`Request::Check`] `{ id, scenario }` (a scenario file or link opened: the page does not carry the validator), answered by [`Response::Checked`] |
//! | page → worker | [`Request::Sweep`] (a plan, a run), answered (for a run) by [`Response::Sweep`] |
//! | worker → page | [`Response::Error`] `{ id, message }` (a panic in the worker, a request it could not read) |
//! | worker → page | `{kind: "unavailable", message}`, a plain object from the loader (its wasm could not be started) |
//!
//! The page shows where its run worker is ([`WorkerState`]) as `data-worker` on the run
//! progress line: `idle`, `starting`, `ready` (it fetches nothing more), or `off` (none can
//! be started: the page says so; the component tests, which have no worker, run the engine
//! in-process instead: the runner's `set_local_engine`).
//!
//! A run is cancelled by terminating the worker (it truly stops the CPU work; a fresh worker
//! is started at once for the next run, and begins at once: the module is compiled and V8
//! has optimised its code). No panic crosses the boundary: the worker's panic hook posts an
//! `error` message, and an uncaught worker error reaches [`WorkerClient`] as
//! [`Reply::Failed`] (or [`Reply::Unavailable`] when the worker never started).

pub mod bridge;
pub mod page;
pub mod service;

pub use page::{Reply, WorkerClient, WorkerState, START_TIMEOUT_MS};
pub use quotalab_engine_worker::protocol::{
    decode_result, encode_result, Phase, Request, Response, Timing,
};
pub use quotalab_engine_worker::web::{clock_ms, epoch_ms, js_message, to_js};

/// How often an engine worker reports progress while simulating (milliseconds).
pub const PROGRESS_MS: f64 = quotalab_engine_worker::protocol::PROGRESS_MS;
