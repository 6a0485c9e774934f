//! The page's rarely used tools (the configuration and CSV trace imports), a second wasm
//! that the page imports only when one is first opened ([`quotalab_app::io::tools`]; Trunk
//! builds it from index.html). Its `main` does nothing: the page calls [`open_tool`].

use wasm_bindgen::prelude::*;

fn main() {
    quotalab_app::panic::install();
}

/// Opens a tool ([`quotalab_app::io::tools::Tool::code`]) on the page's current scenario.
#[wasm_bindgen]
pub fn open_tool(code: u32) {
    quotalab_app::io::tools::open_tool(code);
}

/// The report (SPEC 14) of a scenario, with the comparison of SPEC 9.1 when `compare`, made
/// in a worker (`www/quotalab-tools-worker.js`): its HTML, or an array of the scenario's
/// problems, thrown.
#[wasm_bindgen]
pub fn make_report(text: &str, compare: bool) -> Result<String, JsValue> {
    quotalab_app::io::files::make_report(text, compare).map_err(|lines| {
        lines
            .iter()
            .map(|l| JsValue::from_str(l))
            .collect::<js_sys::Array>()
            .into()
    })
}
