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
