//! The page's one bridge to JavaScript objects read and written by name (the tools' and
//! Explore's hosts on `globalThis`, the loader's `quotalabStartEngine`, plain messages to and
//! from workers) and the one way a worker is started. Everything typed crosses as the serde
//! enums of `quotalab_engine_worker::protocol`; only these few string-keyed objects go
//! through here.

use js_sys::{Object, Reflect};
use quotalab_engine_worker::protocol::Request;
use wasm_bindgen::{JsCast, JsValue};
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

/// An engine worker (`crates/engine-worker`): `www/loader.js`'s `quotalabStartEngine`
/// starts `www/worker-loader.js` as a module worker and hands it the engine's module,
/// compiled once at load. An error where the page was not started by that loader (the
/// component tests).
pub fn engine_worker() -> Result<Worker, JsValue> {
    let start = get(&js_sys::global(), "quotalabStartEngine")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| JsValue::from_str("this page has no engine worker to start"))?;
    start.call0(&JsValue::NULL)?.dyn_into::<Worker>()
}

/// Posts `bytes` to `worker` as a `Uint8Array` whose buffer is transferred, not copied (every
/// postcard message the page sends a worker).
pub fn post_bytes(worker: &Worker, bytes: &[u8]) -> Result<(), JsValue> {
    let (array, buffer) = quotalab_engine_worker::web::to_js(bytes);
    worker.post_message_with_transfer(&array, &js_sys::Array::of1(&buffer))
}

/// A request built to be posted to an engine worker (once): its postcard bytes and, beside
/// them, its scenario text copied once out of the page's memory (`web::outgoing`).
pub struct Posting {
    message: JsValue,
    transfer: js_sys::Array,
}

impl Posting {
    pub fn new(request: Request<'_>, files: &[web_sys::File]) -> Result<Posting, String> {
        let (request, text) = request.split_text();
        let bytes = request.encode()?;
        let files: Vec<JsValue> = files.iter().map(|f| f.clone().into()).collect();
        let (message, transfer) =
            quotalab_engine_worker::web::outgoing(&bytes, text.as_deref(), &files);
        Ok(Posting { message, transfer })
    }

    /// Posts it to `worker`, transferring its buffers (so it can be posted once).
    pub fn post(self, worker: &Worker) -> Result<(), JsValue> {
        worker.post_message_with_transfer(&self.message, &self.transfer)
    }
}

/// A module worker running the script at `url` (Explore's pool and the report).
pub fn module_worker(url: &str) -> Result<Worker, JsValue> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    Worker::new_with_options(url, &options)
}
