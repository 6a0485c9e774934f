//! The page's one bridge to JavaScript objects read and written by name (the tools' and
//! Explore's hosts on `globalThis`, the loaders' `quotalabBoot`, plain messages to and from
//! workers) and the one way a module worker is started. Everything typed crosses as the
//! serde enums of [`super::protocol`]; only these few string-keyed objects go through here.

use js_sys::{Object, Reflect};
use wasm_bindgen::JsValue;
use web_sys::{Worker, WorkerOptions, WorkerType};

/// `obj[key]`, if it is there (neither undefined nor null).
pub fn get(obj: &JsValue, key: &str) -> Option<JsValue> {
    Reflect::get(obj, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// `obj[key] = value`.
pub fn set(obj: &JsValue, key: &str, value: &JsValue) -> Result<(), JsValue> {
    Reflect::set(obj, &JsValue::from_str(key), value).map(|_| ())
}

/// A plain object of `pairs` (a worker's boot message, a host's functions).
pub fn object(pairs: &[(&str, &JsValue)]) -> Result<Object, JsValue> {
    let o = Object::new();
    for (k, v) in pairs {
        set(&o, k, v)?;
    }
    Ok(o)
}

/// A module worker running the script at `url` (every worker of the page is one: the
/// simulation, Explore's pool, the configuration reader and the report).
pub fn module_worker(url: &str) -> Result<Worker, JsValue> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    Worker::new_with_options(url, &options)
}
