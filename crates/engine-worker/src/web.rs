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

/// A message between the page and an engine worker as posted: its postcard bytes alone, or
/// `[bytes, text, ...blobs]` where `text` is the large text taken out of the message
/// ([`crate::Request::split_text`], [`crate::Response::take_text`]) as a `Uint8Array` of its
/// own, or `null`, and the blobs are the files a history request reads. Every buffer is
/// transferred, not copied.
pub fn outgoing(bytes: &[u8], text: Option<&[u8]>, blobs: &[JsValue]) -> (JsValue, js_sys::Array) {
    let (array, buffer) = to_js(bytes);
    if text.is_none() && blobs.is_empty() {
        return (array.into(), js_sys::Array::of1(&buffer));
    }
    let transfer = js_sys::Array::of1(&buffer);
    let message = js_sys::Array::of1(&array);
    match text {
        Some(text) => {
            let (array, buffer) = to_js(text);
            message.push(&array);
            transfer.push(&buffer);
        }
        None => {
            message.push(&JsValue::NULL);
        }
    }
    for b in blobs {
        message.push(b);
    }
    (message.into(), transfer)
}

/// A message [`outgoing`] posted, as received: its bytes, its text (as posted: copy it with
/// [`text_of`]) and its blobs. None for anything else (the loader's `{kind, ...}` objects).
pub struct Incoming {
    pub bytes: Vec<u8>,
    pub text: Option<js_sys::Uint8Array>,
    pub blobs: Vec<web_sys::Blob>,
}

pub fn incoming(data: &JsValue) -> Option<Incoming> {
    if let Some(array) = data.dyn_ref::<js_sys::Uint8Array>() {
        return Some(Incoming {
            bytes: array.to_vec(),
            text: None,
            blobs: Vec::new(),
        });
    }
    let parts = data.dyn_ref::<js_sys::Array>()?;
    let bytes = parts.get(0).dyn_into::<js_sys::Uint8Array>().ok()?.to_vec();
    let text = parts.get(1).dyn_into::<js_sys::Uint8Array>().ok();
    let blobs = (2..parts.length())
        .filter_map(|i| parts.get(i).dyn_into::<web_sys::Blob>().ok())
        .collect();
    Some(Incoming { bytes, text, blobs })
}

/// A posted text, copied once into a string (`what` names it in the error: it is not UTF-8).
pub fn text_of(array: &js_sys::Uint8Array, what: &str) -> Result<String, String> {
    String::from_utf8(array.to_vec()).map_err(|_| format!("{what}: the text is not UTF-8"))
}

/// A run's result as it came beside its answer, read a piece at a time by the page's
/// [`crate::protocol::ResultDecoder`] (only the piece being decoded is copied into wasm).
pub struct JsBytes(pub js_sys::Uint8Array);

impl crate::protocol::ResultBytes for JsBytes {
    fn size(&self) -> usize {
        self.0.length() as usize
    }

    fn read(&self, range: std::ops::Range<usize>, into: &mut Vec<u8>) -> bool {
        if range.start > range.end || range.end > self.size() {
            return false;
        }
        into.clear();
        into.resize(range.len(), 0);
        self.0
            .subarray(range.start as u32, range.end as u32)
            .copy_to(into);
        true
    }
}
