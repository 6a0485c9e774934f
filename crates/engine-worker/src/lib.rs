//! The engine in the browser: one wasm of the whole engine, compiled for speed (the cargo
//! profile `engine`, `opt-level = 3`), that runs only in Web Workers and serves every engine
//! call of the page that takes time through one typed protocol. The page's own wasm links
//! this crate for its message types only, so the simulator and the YAML parser are not in it.
//!
//! - [`protocol`]: [`Request`] and [`Response`], postcard bytes either way, and the encoded
//!   result of a run (its warnings and [`Digest`](quotalab_engine::digest::Digest)).
//! - [`jobs`]: what is asked beside runs (SPEC 9.1's comparison, SPEC 11's CSV import,
//!   SPEC 13's configurations in [`config`]) and [`jobs::serve`], which answers one here (the
//!   worker does; so do the page's component tests, which have no worker).
//! - [`kept`]: a large scenario text's jobs located without parsing them (the page's editor
//!   keeps them as text; a worker that made the text locates them for it).
//! - [`sweep`]: SPEC 15's runs for the Explore panel's pool of engine workers.
//! - [`web`] and `agent` (wasm only): the browser's side of a worker: clocks, transferable
//!   bytes, and the message handler the worker's `main` installs ([`agent::worker_main`]).
//!
//! Nothing here decides a rule: every answer is an engine function's.

pub mod config;
pub mod jobs;
pub mod kept;
pub mod protocol;
pub mod sweep;

#[cfg(target_arch = "wasm32")]
pub mod agent;
pub mod web;

pub use protocol::{
    decode_result, encode_result, from_pairs, to_pairs, Bytes, Pairs, Phase, Request, Response,
    Timing, BOOT, UNAVAILABLE,
};
