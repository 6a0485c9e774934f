//! Large runs off the main thread: the simulation Web Worker and its protocol.
//!
//! The worker runs the page's own wasm: `www/loader.js` compiles the module once and keeps it
//! (with the address of its wasm-bindgen glue) in `globalThis.quotalabBoot`; the page starts a
//! module worker from `www/worker-loader.js` and hands it both, so a worker costs no download
//! and no compile, and the files cannot disagree (one hashed wasm). In the worker the module's
//! `main` (`src/main.rs`) sees a worker scope and calls [`worker_main`]. A run there is:
//! validation, then [`Sim::step`] instant by instant with a progress report every
//! [`PROGRESS_MS`], then the [`Digest`].
//!
//! Messages are JS arrays; bulk data travels as byte buffers that are *transferred*, not
//! copied (the scenario as UTF-8, the result as `postcard`: a compact binary serde format,
//! about a third of the JSON size and ten times faster to decode in wasm, measured in
//! `docs/PERFORMANCE.md`):
//!
//! | direction | message |
//! |---|---|
//! | page → worker | `["run", id, scenario bytes, max_points, max_events]` |
//! | worker → page | `["ready"]` once its wasm is running (earlier messages would be lost) |
//! | worker → page | `["progress", id, fraction 0..1, phase]` |
//! | worker → page | `["problems", id, postcard Vec<(path, message)>]` |
//! | worker → page | `["done", id, postcard (warnings, Digest), total ms, validate ms, simulate ms, digest ms, encode ms, received at, posted at]` (times since the epoch, ms) |
//! | worker → page | `["error", id or -1, message]` (a panic in the worker, a bad message) |
//! | worker → page | `["unavailable", -1, message]` (its wasm could not be started) |
//! | page → worker | `["boot", -1, WebAssembly.Module, glue address]` (first message, read by the loader) |
//! | page → worker | `["warmup", -1]` (the first worker runs a small scenario to optimise its code) |
//!
//! A worker started after a cancel shares the compiled module, and with it the code V8 has
//! already optimised: it begins at once (no fetch, no compile, no cold first run).
//!
//! A run is cancelled by terminating the worker (it truly stops the CPU work; a fresh worker
//! is started at once for the next run). No panic crosses the boundary: the worker's panic
//! hook posts an `error` message, and an uncaught worker error reaches [`WorkerClient`] as
//! [`Reply::Failed`] (or [`Reply::Unavailable`] when the worker never started).

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use js_sys::{Array, Uint8Array};
use quotalab_engine::digest::{digest, Digest, DigestLimits};
use quotalab_engine::sim::State;
use quotalab_engine::{Options, Problem, Sim};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The worker's entry script (`www/worker-loader.js`), relative to the page.
pub const WORKER_URL: &str = "./worker-loader.js";

/// How often the worker reports progress while simulating (milliseconds).
pub const PROGRESS_MS: f64 = 50.0;

/// Give up on a worker that has not started after this long (then the page simulates on
/// its own thread).
pub const START_TIMEOUT_MS: i32 = 15_000;

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
fn clock_ms() -> f64 {
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

fn js_message(value: &JsValue) -> String {
    if let Some(s) = value.as_string() {
        return s;
    }
    js_sys::Reflect::get(value, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| format!("{value:?}"))
}

/// The fraction of the simulation done: half for jobs submitted, half for jobs ended.
pub fn sim_fraction(sim: &Sim) -> f64 {
    let n = sim.jobs.len();
    if n == 0 {
        return 0.5;
    }
    let (mut submitted, mut ended) = (0usize, 0usize);
    for j in &sim.jobs {
        if j.state != State::Pending {
            submitted += 1;
        }
        if matches!(j.state, State::Succeeded | State::Failed | State::Rejected) {
            ended += 1;
        }
    }
    (submitted + ended) as f64 / (2 * n) as f64
}

// ---------------------------------------------------------------------------------------
// The worker's side.

thread_local! {
    /// The id of the run the worker is busy with (-1 when idle), for the panic hook.
    static CURRENT: Cell<f64> = const { Cell::new(-1.0) };
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(message: &Array, transfer: Option<&JsValue>) {
    let scope = scope();
    let _ = match transfer {
        Some(buffer) => scope.post_message_with_transfer(message, &Array::of1(buffer)),
        None => scope.post_message(message),
    };
}

fn post_bytes(kind: &str, id: f64, bytes: &[u8], extra: &[f64]) {
    let array = Uint8Array::from(bytes);
    let message = Array::of3(&kind.into(), &id.into(), &array);
    for &x in extra {
        message.push(&x.into());
    }
    post(&message, Some(&array.buffer()));
}

fn post_error(id: f64, message: &str) {
    post(
        &Array::of3(&"error".into(), &id.into(), &message.into()),
        None,
    );
}

fn post_progress(id: f64, fraction: f64, phase: &str) {
    let message = Array::of3(&"progress".into(), &id.into(), &fraction.into());
    message.push(&phase.into());
    post(&message, None);
}

/// The worker's `main`: installs the panic hook and the message handler, then says "ready".
pub fn worker_main() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        post_error(
            CURRENT.with(Cell::get),
            &format!("internal error in the simulation worker: {info}"),
        );
    }));
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        on_request(&event.data());
    });
    scope().set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    post(&Array::of1(&"ready".into()), None);
}

fn on_request(data: &JsValue) {
    let Some(message) = data.dyn_ref::<Array>() else {
        post_error(-1.0, "the worker received a message it does not understand");
        return;
    };
    match message.get(0).as_string().as_deref() {
        Some("run") => {}
        Some("warmup") => {
            warm_up();
            return;
        }
        _ => {
            post_error(-1.0, "the worker received a message it does not understand");
            return;
        }
    }
    let received = epoch_ms();
    let id = message.get(1).as_f64().unwrap_or(-1.0);
    let bytes = Uint8Array::new(&message.get(2)).to_vec();
    let default = DigestLimits::default();
    let limits = DigestLimits {
        max_points: message
            .get(3)
            .as_f64()
            .map_or(default.max_points, |x| x as usize),
        max_events: message
            .get(4)
            .as_f64()
            .map_or(default.max_events, |x| x as usize),
    };
    CURRENT.with(|c| c.set(id));
    match String::from_utf8(bytes) {
        Ok(text) => run_in_worker(id, &text, limits, received),
        Err(_) => post_error(id, "the scenario is not UTF-8 text"),
    }
    CURRENT.with(|c| c.set(-1.0));
}

/// Runs a small trace-like scenario (explicit jobs, two shares, preemptions) through every
/// step of a run and drops the result: the browser compiles a fresh worker's wasm with a fast
/// baseline compiler first and optimises the functions that get hot, so without this the
/// first real run (often a large one) would run on the slow code. About 1,500 jobs: tens of
/// milliseconds, once per page, before any large scenario is asked for.
fn warm_up() {
    let mut text = String::from(
        r#"{"format":"quotalab/v1","name":"warm-up","capacity":{"ml.g5.xlarge":8},"shares":[{"name":"a","limits":{"ml.g5.xlarge":4},"strategy":"LEND_AND_BORROW","borrow_limit":100,"in_share_preemption":true},{"name":"b","limits":{"ml.g5.xlarge":4},"strategy":"LEND"}],"jobs":["#,
    );
    for i in 0..1_500u32 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(
            r#"{{"id":"j{i}","share":"{}","instance_type":"ml.g5.xlarge","instances":{},"priority":{},"submit_s":{},"work_s":{}}}"#,
            if i % 3 == 0 { "b" } else { "a" },
            1 + i % 3,
            i % 4,
            i * 97,
            600 + (i * 7919) % 5400,
        ));
    }
    text.push_str("]}");
    if let Ok(loaded) = quotalab_engine::load(&text) {
        let sim = quotalab_engine::simulate(&loaded.scenario, Options::default());
        let d = digest(&sim, DigestLimits::default());
        let _ = encode_done(&loaded.warnings, &d);
    }
}

/// Share of the progress bar given to validation (and generation) before the first step.
const LOAD_SHARE: f64 = 0.05;
/// Share given to the digest and its encoding after the last step.
const DIGEST_SHARE: f64 = 0.05;

fn run_in_worker(id: f64, text: &str, limits: DigestLimits, received: f64) {
    let start = clock_ms();
    post_progress(id, 0.0, "validating");
    let loaded = match quotalab_engine::load(text) {
        Ok(loaded) => loaded,
        Err(problems) => {
            match encode_problems(&problems) {
                Ok(bytes) => post_bytes("problems", id, &bytes, &[]),
                Err(e) => post_error(id, &e),
            }
            return;
        }
    };
    let loaded_at = clock_ms();
    let mut sim = Sim::new(&loaded.scenario, Options::default());
    post_progress(id, LOAD_SHARE, "simulating");
    let mut last = clock_ms();
    let mut steps = 0u32;
    while sim.step() {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(64) {
            let now = clock_ms();
            if now - last >= PROGRESS_MS {
                last = now;
                let f = LOAD_SHARE + (1.0 - LOAD_SHARE - DIGEST_SHARE) * sim_fraction(&sim);
                post_progress(id, f, "simulating");
            }
        }
    }
    sim.finish();
    let simulated_at = clock_ms();
    post_progress(id, 1.0 - DIGEST_SHARE, "summarising");
    let d = digest(&sim, limits);
    let digested_at = clock_ms();
    match encode_done(&loaded.warnings, &d) {
        Ok(bytes) => {
            let end = clock_ms();
            let phases = [
                end - start,
                loaded_at - start,
                simulated_at - loaded_at,
                digested_at - simulated_at,
                end - digested_at,
                received,
                epoch_ms(),
            ];
            post_bytes("done", id, &bytes, &phases);
        }
        Err(e) => post_error(id, &e),
    }
}

// ---------------------------------------------------------------------------------------
// The page's side.

/// What the worker reports for a run (only for the run in flight: late replies of an
/// abandoned run are dropped by [`WorkerClient`]).
#[derive(Debug)]
pub enum Reply {
    Progress {
        id: u64,
        fraction: f64,
        phase: String,
    },
    Problems {
        id: u64,
        problems: Vec<Problem>,
    },
    Done {
        id: u64,
        digest: Box<Digest>,
        warnings: Vec<Problem>,
        /// Validation + simulation + digest + encoding, in the worker.
        compute_ms: f64,
        /// Of which: validation (and generation), simulation, digest, encoding.
        phases: [f64; 4],
        /// When the worker received the run and posted its result ([`epoch_ms`]).
        received_at: f64,
        posted_at: f64,
        /// When the page started handling the result ([`epoch_ms`]).
        handled_at: f64,
        /// Decoding the result on the page.
        decode_ms: f64,
    },
    /// The run failed (a panic in the worker, an undecodable reply): a visible message.
    Failed {
        id: Option<u64>,
        message: String,
    },
    /// The worker could not be started at all (no worker script, no Worker support): the
    /// page should simulate on its own thread.
    Unavailable {
        id: Option<u64>,
        message: String,
    },
}

type Callbacks = (
    Closure<dyn FnMut(MessageEvent)>,
    Closure<dyn FnMut(web_sys::Event)>,
);

struct Inner {
    url: String,
    worker: Option<Worker>,
    /// Bumped per worker started: events of an older worker are ignored.
    generation: u64,
    ready: bool,
    /// The run waiting for the worker to be ready: (message, buffer to transfer).
    queued: Option<(Array, JsValue)>,
    /// The run in flight.
    running: Option<u64>,
    callbacks: Option<Callbacks>,
    /// Callbacks of terminated workers: never dropped while one of them may be running.
    graveyard: Vec<Callbacks>,
    /// Inside a worker callback (so its closures must not be dropped now).
    in_callback: bool,
    start_timer: Option<i32>,
    /// A worker has been asked to warm up (only the first one needs to).
    warmed: bool,
}

/// The page's handle on the simulation worker (cheap to clone).
#[derive(Clone)]
pub struct WorkerClient {
    inner: Rc<RefCell<Inner>>,
    handler: Rc<dyn Fn(Reply)>,
}

impl WorkerClient {
    /// A client of the worker at `url`; `handler` receives every [`Reply`] of the run in
    /// flight. The worker itself starts with the first [`WorkerClient::run`] (or `warm`).
    pub fn new(url: &str, handler: impl Fn(Reply) + 'static) -> WorkerClient {
        WorkerClient {
            inner: Rc::new(RefCell::new(Inner {
                url: url.to_string(),
                worker: None,
                generation: 0,
                ready: false,
                queued: None,
                running: None,
                callbacks: None,
                graveyard: Vec::new(),
                in_callback: false,
                start_timer: None,
                warmed: false,
            })),
            handler: Rc::new(handler),
        }
    }

    /// The id of the run in flight, if any.
    pub fn running(&self) -> Option<u64> {
        self.inner.borrow().running
    }

    /// Starts the worker if none is running (so that the next run starts at once).
    pub fn warm(&self) -> Result<(), String> {
        if self.inner.borrow().worker.is_some() {
            return Ok(());
        }
        self.spawn()?;
        // The first worker warms its code up, unless a run replaces this request before it
        // is ready; later ones share the module it optimised.
        let mut inner = self.inner.borrow_mut();
        if !inner.warmed && inner.queued.is_none() {
            inner.warmed = true;
            let message = Array::of2(&"warmup".into(), &(-1.0).into());
            inner.queued = Some((message, JsValue::UNDEFINED));
        }
        Ok(())
    }

    /// Sends `text` to the worker as run `id`. A run in flight is abandoned first (its worker
    /// is terminated and a fresh one started).
    pub fn run(&self, id: u64, text: &str, limits: DigestLimits) -> Result<(), String> {
        self.bury();
        let busy = {
            let inner = self.inner.borrow();
            // A worker still starting has not begun the queued run: just replace it.
            inner.running.is_some() && inner.ready
        };
        if busy {
            self.restart()?;
        }
        self.warm()?;
        let bytes = Uint8Array::from(text.as_bytes());
        let message = Array::of3(&"run".into(), &(id as f64).into(), &bytes);
        message.push(&(limits.max_points as f64).into());
        message.push(&(limits.max_events as f64).into());
        let buffer: JsValue = bytes.buffer().into();
        let mut inner = self.inner.borrow_mut();
        inner.running = Some(id);
        if inner.ready {
            let worker = inner.worker.as_ref().ok_or("no worker")?;
            worker
                .post_message_with_transfer(&message, &Array::of1(&buffer))
                .map_err(|e| js_message(&e))?;
        } else {
            inner.queued = Some((message, buffer));
        }
        Ok(())
    }

    /// Abandons the run in flight, if any: terminates its worker (stopping its CPU work)
    /// and starts a fresh one for the next run. Returns whether a run was cancelled.
    pub fn cancel(&self) -> bool {
        self.bury();
        {
            let mut inner = self.inner.borrow_mut();
            if inner.running.is_none() {
                return false;
            }
            if !inner.ready {
                // Still starting: the run was not sent yet, so the worker keeps starting (for
                // the next run) and only the request is dropped.
                inner.queued = None;
                inner.running = None;
                return true;
            }
        }
        let _ = self.restart();
        true
    }

    /// Stops the worker for good (the page is going away).
    pub fn shutdown(&self) {
        self.terminate();
    }

    fn terminate(&self) {
        let mut inner = self.inner.borrow_mut();
        if let Some(worker) = inner.worker.take() {
            worker.set_onmessage(None);
            worker.set_onerror(None);
            worker.terminate();
        }
        if let Some(cb) = inner.callbacks.take() {
            inner.graveyard.push(cb);
        }
        if let Some(timer) = inner.start_timer.take() {
            if let Some(w) = web_sys::window() {
                w.clear_timeout_with_handle(timer);
            }
        }
        inner.ready = false;
        inner.queued = None;
        inner.running = None;
    }

    fn restart(&self) -> Result<(), String> {
        self.terminate();
        self.spawn()
    }

    /// Drops the callbacks of terminated workers (only outside their own invocation).
    fn bury(&self) {
        let mut inner = self.inner.borrow_mut();
        if !inner.in_callback {
            inner.graveyard.clear();
        }
    }

    fn spawn(&self) -> Result<(), String> {
        let url = self.inner.borrow().url.clone();
        let (module, glue) = boot()?;
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(&url, &options).map_err(|e| js_message(&e))?;
        let message = Array::of3(&"boot".into(), &(-1.0).into(), &module);
        message.push(&glue);
        worker.post_message(&message).map_err(|e| js_message(&e))?;
        let generation = {
            let mut inner = self.inner.borrow_mut();
            inner.generation += 1;
            inner.generation
        };
        let weak = Rc::downgrade(&self.inner);
        let handler = self.handler.clone();
        let onmessage = Closure::<dyn FnMut(MessageEvent)>::new({
            let weak = weak.clone();
            let handler = handler.clone();
            move |event: MessageEvent| {
                let data = event.data();
                dispatch(&weak, &handler, |inner| {
                    on_message(inner, generation, &data)
                });
            }
        });
        let onerror = Closure::<dyn FnMut(web_sys::Event)>::new({
            let weak = weak.clone();
            let handler = handler.clone();
            move |event: web_sys::Event| {
                // Handled here: not also an uncaught error on the page.
                event.prevent_default();
                let message = js_message(&event);
                dispatch(&weak, &handler, |inner| {
                    on_error(inner, generation, message.clone())
                });
            }
        });
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        // A worker whose wasm never starts (e.g. its file is missing) sends neither "ready"
        // nor an error: give up after a while.
        let timer = web_sys::window().and_then(|w| {
            let weak = weak.clone();
            let handler = handler.clone();
            let cb = Closure::once_into_js(move || {
                dispatch(&weak, &handler, |inner| {
                    if inner.generation == generation && !inner.ready {
                        inner.start_timer = None;
                        Some(unavailable(
                            inner,
                            "the simulation worker did not start".into(),
                        ))
                    } else {
                        None
                    }
                });
            });
            w.set_timeout_with_callback_and_timeout_and_arguments_0(
                cb.unchecked_ref(),
                START_TIMEOUT_MS,
            )
            .ok()
        });
        let mut inner = self.inner.borrow_mut();
        inner.worker = Some(worker);
        inner.callbacks = Some((onmessage, onerror));
        inner.ready = false;
        inner.start_timer = timer;
        Ok(())
    }
}

/// The page's compiled module and the address of its glue, from `www/loader.js`
/// (`globalThis.quotalabBoot`); an error where the page was not started by it (the component
/// tests), so that runs stay on the page.
fn boot() -> Result<(JsValue, JsValue), String> {
    let missing = || "the page was not started by its loader (no compiled module to share)";
    let boot = js_sys::Reflect::get(&js_sys::global(), &"quotalabBoot".into())
        .ok()
        .filter(JsValue::is_object)
        .ok_or_else(missing)?;
    let field = |name: &str| {
        js_sys::Reflect::get(&boot, &name.into())
            .ok()
            .filter(|v| !v.is_undefined())
    };
    match (field("module"), field("js")) {
        (Some(module), Some(js)) => Ok((module, js)),
        _ => Err(missing().to_string()),
    }
}

/// Runs `f` on the client's state, then (with the state released) the handler on its reply.
fn dispatch(
    weak: &Weak<RefCell<Inner>>,
    handler: &Rc<dyn Fn(Reply)>,
    f: impl FnOnce(&mut Inner) -> Option<Reply>,
) {
    let Some(rc) = weak.upgrade() else { return };
    let reply = {
        let mut inner = rc.borrow_mut();
        inner.in_callback = true;
        f(&mut inner)
    };
    if let Some(reply) = reply {
        let failed = matches!(reply, Reply::Failed { .. });
        handler(reply);
        if failed {
            // A worker that failed may be in any state: start afresh.
            let client = WorkerClient {
                inner: rc.clone(),
                handler: handler.clone(),
            };
            let _ = client.restart();
        }
    }
    rc.borrow_mut().in_callback = false;
}

/// The worker could not start: forget it (and its run).
fn unavailable(inner: &mut Inner, message: String) -> Reply {
    if let Some(worker) = inner.worker.take() {
        worker.set_onmessage(None);
        worker.set_onerror(None);
        worker.terminate();
    }
    if let Some(cb) = inner.callbacks.take() {
        inner.graveyard.push(cb);
    }
    inner.queued = None;
    Reply::Unavailable {
        id: inner.running.take(),
        message,
    }
}

fn on_error(inner: &mut Inner, generation: u64, message: String) -> Option<Reply> {
    if generation != inner.generation {
        return None;
    }
    if !inner.ready {
        return Some(unavailable(inner, message));
    }
    Some(Reply::Failed {
        id: inner.running.take(),
        message: format!("the simulation worker stopped: {message}"),
    })
}

fn on_message(inner: &mut Inner, generation: u64, data: &JsValue) -> Option<Reply> {
    if generation != inner.generation {
        return None;
    }
    let message = data.dyn_ref::<Array>()?;
    let kind = message.get(0).as_string().unwrap_or_default();
    if kind == "ready" {
        inner.ready = true;
        if let Some(timer) = inner.start_timer.take() {
            if let Some(w) = web_sys::window() {
                w.clear_timeout_with_handle(timer);
            }
        }
        if let Some((msg, buffer)) = inner.queued.take() {
            let worker = inner.worker.as_ref()?;
            let transfer = if buffer.is_undefined() {
                Array::new()
            } else {
                Array::of1(&buffer)
            };
            if let Err(e) = worker.post_message_with_transfer(&msg, &transfer) {
                return Some(Reply::Failed {
                    id: inner.running.take(),
                    message: format!(
                        "could not send the scenario to the worker: {}",
                        js_message(&e)
                    ),
                });
            }
        }
        return None;
    }
    if kind == "unavailable" {
        let text = message.get(2).as_string().unwrap_or_default();
        return Some(unavailable(inner, text));
    }
    let raw_id = message.get(1).as_f64().unwrap_or(-1.0);
    let id = (raw_id >= 0.0).then_some(raw_id as u64);
    if kind == "error" {
        // A panic hook's message: for the run in flight (or for no run: still shown).
        if id.is_some() && id != inner.running {
            return None;
        }
        return Some(Reply::Failed {
            id: inner.running.take(),
            message: message
                .get(2)
                .as_string()
                .unwrap_or_else(|| "the simulation worker failed".into()),
        });
    }
    let id = id.filter(|&i| Some(i) == inner.running)?;
    match kind.as_str() {
        "progress" => Some(Reply::Progress {
            id,
            fraction: message.get(2).as_f64().unwrap_or(0.0),
            phase: message.get(3).as_string().unwrap_or_default(),
        }),
        "problems" => {
            inner.running = None;
            let bytes = Uint8Array::new(&message.get(2)).to_vec();
            Some(match decode_problems(&bytes) {
                Ok(problems) => Reply::Problems { id, problems },
                Err(message) => Reply::Failed {
                    id: Some(id),
                    message,
                },
            })
        }
        "done" => {
            inner.running = None;
            let handled_at = epoch_ms();
            let start = clock_ms();
            let bytes = Uint8Array::new(&message.get(2)).to_vec();
            let compute_ms = message.get(3).as_f64().unwrap_or(f64::NAN);
            let phase = |i| message.get(i).as_f64().unwrap_or(f64::NAN);
            let phases = [phase(4), phase(5), phase(6), phase(7)];
            Some(match decode_done(&bytes) {
                Ok((warnings, digest)) => Reply::Done {
                    id,
                    digest: Box::new(digest),
                    warnings,
                    compute_ms,
                    phases,
                    received_at: phase(8),
                    posted_at: phase(9),
                    handled_at,
                    decode_ms: clock_ms() - start,
                },
                Err(message) => Reply::Failed {
                    id: Some(id),
                    message,
                },
            })
        }
        _ => None,
    }
}
