//! What goes in and out of the page: share links and the URL that follows the scenario
//! ([`share`]), files opened and saved ([`files`]: scenario, results, CSV, chart images), the
//! CSV trace import form ([`trace_form`]), AWS Batch and Kueue configurations in and out
//! ([`config`], in a worker of their own), a cluster's job history ([`history`]), what the two import dialogs share ([`dialog`]) and
//! the bundled presets ([`presets`]). The two imports are loaded only when first opened
//! ([`tools`]: a second wasm).

pub mod config;
pub mod dialog;
pub mod files;
pub mod history;
pub mod presets;
pub mod share;
pub mod tools;
pub mod trace_form;
