//! Small helpers over the DOM that several components share.

use wasm_bindgen::JsCast;

/// The element's value, for `<input>` and `<select>` change events.
pub fn target_value(ev: &web_sys::Event) -> String {
    ev.target()
        .and_then(|t| {
            t.dyn_ref::<web_sys::HtmlInputElement>()
                .map(|i| i.value())
                .or_else(|| t.dyn_ref::<web_sys::HtmlSelectElement>().map(|s| s.value()))
        })
        .unwrap_or_default()
}
