//! The page's side: [`WorkerClient`] starts the worker, sends it runs, cancels them by
//! terminating it, and turns its messages into [`Reply`]s.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use js_sys::{Array, Uint8Array};
use quotalab_engine::digest::{Digest, DigestLimits};
use quotalab_engine::Problem;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use super::protocol::{clock_ms, decode_done, decode_problems, epoch_ms, js_message};

/// The worker's entry script (`www/worker-loader.js`), relative to the page.
pub const WORKER_URL: &str = "./worker-loader.js";

/// Give up on a worker that has not started after this long (then the page simulates on
/// its own thread).
pub const START_TIMEOUT_MS: i32 = 15_000;

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
