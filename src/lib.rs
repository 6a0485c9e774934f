//! Quota Lab's playground: runs the engine in the browser and shows its results.
//!
//! The app only displays what `quotalab_engine` computes; no scheduling rule lives here.
//! Layers, each using only those before it: [`ui`] (formatting, colours, DOM helpers) and
//! [`worker`] (the typed bridge to the page's workers) <- [`state`] (the scenario, the
//! runner, notices) <- [`charts`] <- [`editor`], [`results`] <- [`io`] (links, files,
//! imports, presets, the lazily loaded tools) <- [`explore`], [`story`] <- [`toolbar`] <-
//! [`app`]. Test modules keep to the same order.

pub mod app;
pub mod charts;
pub mod editor;
pub mod explore;
pub mod io;
pub mod results;
pub mod state;
pub mod story;
pub mod toolbar;
pub mod ui;
pub mod worker;

pub use app::App;
/// The panic hook, at the path `src/main.rs` calls.
pub use ui::panic;
