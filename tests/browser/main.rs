//! The browser tests: one wasm test binary, run in headless Chromium by wasm-bindgen-test
//! (`./run test` does, or
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --tests`;
//! add a module path such as `charts::` to run one module). Each module holds the tests of
//! one part of the page; `common` holds the helpers they share.
#![cfg(target_arch = "wasm32")]

mod common;

mod charts;
mod components;
mod config;
mod contract;
mod cursor;
mod decision;
mod determinism;
mod editor;
mod explain;
mod explore;
mod exports;
mod kueue;
mod share;
mod story;
mod trace_form;
mod worker;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
