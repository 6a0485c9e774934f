//! What both sides of an engine worker need from the browser: bytes as a transferable
//! `Uint8Array`, the clocks a run is timed with, and a JS error's message.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn get(obj: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(obj, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// `bytes` as a `Uint8Array` of its own, and its buffer (to transfer).
pub fn to_js(bytes: &[u8]) -> (js_sys::Uint8Array, JsValue) {
    let array = js_sys::Uint8Array::from(bytes);
    let buffer = array.buffer().into();
    (array, buffer)
}

/// Milliseconds from the current global's clock (the page's or the worker's).
pub fn clock_ms() -> f64 {
    get(&js_sys::global(), "performance").map_or_else(js_sys::Date::now, |p| {
        p.unchecked_into::<web_sys::Performance>().now()
    })
}

/// Milliseconds since the epoch, sub-millisecond (comparable between the page and a worker).
pub fn epoch_ms() -> f64 {
    get(&js_sys::global(), "performance").map_or_else(js_sys::Date::now, |p| {
        let p = p.unchecked_into::<web_sys::Performance>();
        p.time_origin() + p.now()
    })
}

pub fn js_message(value: &JsValue) -> String {
    if let Some(s) = value.as_string() {
        return s;
    }
    get(value, "message")
        .and_then(|m| m.as_string())
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| format!("{value:?}"))
}
