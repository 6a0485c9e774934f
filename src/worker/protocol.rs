//! What the page and the worker say to each other: the result and problem encodings
//! (`postcard`), and the clocks both sides time a run with (see [`crate::worker`] for the
//! messages).

use quotalab_engine::digest::Digest;
use quotalab_engine::Problem;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Problems (or warnings) as `(path, message)` pairs: [`Problem`] is not serde.
type Pairs = Vec<(String, String)>;

fn to_pairs(problems: &[Problem]) -> Pairs {
    problems
        .iter()
        .map(|p| (p.path.clone(), p.message.clone()))
        .collect()
}

fn from_pairs(pairs: Pairs) -> Vec<Problem> {
    pairs
        .into_iter()
        .map(|(path, message)| Problem::new(path, message))
        .collect()
}

/// Encodes a finished run (its warnings and digest) as the worker sends it.
pub fn encode_done(warnings: &[Problem], digest: &Digest) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(&(to_pairs(warnings), digest))
        .map_err(|e| format!("could not encode the result: {e}"))
}

/// Decodes what [`encode_done`] made.
pub fn decode_done(bytes: &[u8]) -> Result<(Vec<Problem>, Digest), String> {
    let (warnings, digest): (Pairs, Digest) = postcard::from_bytes(bytes)
        .map_err(|e| format!("could not decode the worker's result: {e}"))?;
    Ok((from_pairs(warnings), digest))
}

/// Encodes a scenario's problems as the worker sends them.
pub fn encode_problems(problems: &[Problem]) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(&to_pairs(problems))
        .map_err(|e| format!("could not encode the problems: {e}"))
}

/// Decodes what [`encode_problems`] made.
pub fn decode_problems(bytes: &[u8]) -> Result<Vec<Problem>, String> {
    postcard::from_bytes::<Pairs>(bytes)
        .map(from_pairs)
        .map_err(|e| format!("could not decode the worker's problems: {e}"))
}

/// Milliseconds from the current global's clock (the page's or the worker's).
pub(crate) fn clock_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
        .ok()
        .filter(|p| !p.is_undefined())
        .map_or_else(js_sys::Date::now, |p| {
            p.unchecked_into::<web_sys::Performance>().now()
        })
}

/// Milliseconds since the epoch, sub-millisecond (comparable between the page and a worker).
pub fn epoch_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
        .ok()
        .filter(|p| !p.is_undefined())
        .map_or_else(js_sys::Date::now, |p| {
            let p = p.unchecked_into::<web_sys::Performance>();
            p.time_origin() + p.now()
        })
}

pub(crate) fn js_message(value: &JsValue) -> String {
    if let Some(s) = value.as_string() {
        return s;
    }
    js_sys::Reflect::get(value, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| format!("{value:?}"))
}
