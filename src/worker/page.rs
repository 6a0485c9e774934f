//! The page's side: [`WorkerClient`] starts the worker, sends it [`Request`]s, cancels runs
//! by terminating it, and turns its [`Response`]s into [`Reply`]s.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use quotalab_engine::digest::{Digest, DigestLimits};
use quotalab_engine::Problem;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

use quotalab_engine_worker::protocol::{
    Phase, Request, Response, ResultDecoder, Timing, UNAVAILABLE,
};
use quotalab_engine_worker::web::{clock_ms, epoch_ms, js_message, JsBytes};

use super::bridge;
use super::bridge::Posting;

/// Give up on a worker that has not started after this long (then the page says it cannot
/// simulate).
pub const START_TIMEOUT_MS: i32 = 15_000;

/// Where the page's worker is (the page shows it as `data-worker`, which the end-to-end
/// tests wait for before they reload or leave the page: a worker still loading its scripts
/// would have those requests aborted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerState {
    /// None started yet (one starts about a second after the first result, or for the
    /// first large run).
    Idle,
    /// Started: loading its scripts and starting the page's wasm.
    Starting,
    /// Its wasm runs: it fetches nothing more and takes requests.
    Ready,
    /// No worker will be started: every run stays on the page.
    Off,
}

impl WorkerState {
    pub fn as_str(self) -> &'static str {
        match self {
            WorkerState::Idle => "idle",
            WorkerState::Starting => "starting",
            WorkerState::Ready => "ready",
            WorkerState::Off => "off",
        }
    }
}

/// What the worker reports: its state, and for a run only the run in flight (late replies
/// of an abandoned run are dropped by [`WorkerClient`]).
#[derive(Debug)]
pub enum Reply {
    /// A worker was started (a first one, or a fresh one after a cancel or a failure).
    Starting,
    /// The worker is ready ([`Response::Ready`]).
    Ready,
    Progress {
        id: u64,
        fraction: f64,
        phase: Phase,
    },
    Problems {
        id: u64,
        problems: Vec<Problem>,
    },
    Done {
        id: u64,
        digest: Box<Digest>,
        warnings: Vec<Problem>,
        /// The worker's measures: its time computing and when it received the run and
        /// posted the result.
        timing: Timing,
        /// When the page started handling the result ([`epoch_ms`]).
        handled_at: f64,
        /// Decoding the result on the page.
        decode_ms: f64,
    },
    /// Run `id` simulates as the run the page shows (the `relabel` it was sent with): the
    /// shown result, with `label`, is its result ([`Response::Relabelled`]).
    Relabelled {
        id: u64,
        label: quotalab_engine::digest::Label,
        warnings: Vec<Problem>,
        timing: Timing,
        handled_at: f64,
    },
    /// The share link of run `id`'s scenario, which the run was asked for (it follows the
    /// run's [`Reply::Done`]): the payload, or the engine's reason there is none.
    Link {
        id: u64,
        result: Result<String, String>,
    },
    /// The run failed (a panic in the worker, an undecodable reply): a visible message.
    Failed {
        id: Option<u64>,
        message: String,
    },
    /// The worker could not be started at all (no worker script, no Worker support): the
    /// page says it cannot simulate (it has no simulator of its own).
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
    worker: Option<Worker>,
    /// Bumped per worker started: events of an older worker are ignored.
    generation: u64,
    ready: bool,
    /// The request waiting for the worker to be ready, encoded.
    queued: Option<Posting>,
    /// The run in flight.
    running: Option<u64>,
    /// The run whose link is awaited (after its result).
    linking: Option<u64>,
    callbacks: Option<Callbacks>,
    /// Callbacks of terminated workers: never dropped while one of them may be running.
    graveyard: Vec<Callbacks>,
    /// Inside a worker callback (so its closures must not be dropped now).
    in_callback: bool,
    start_timer: Option<i32>,
    /// A worker has been asked to warm up (only the first one needs to).
    warmed: bool,
    /// The last run's result, while it is decoded over several tasks.
    decoding: Option<Box<Decoding>>,
}

/// The page's handle on the runs' engine worker (cheap to clone).
#[derive(Clone)]
pub struct WorkerClient {
    inner: Rc<RefCell<Inner>>,
    handler: Rc<dyn Fn(Reply)>,
}

impl WorkerClient {
    /// A client of an engine worker; `handler` receives every [`Reply`] of the run in
    /// flight. The worker itself starts with the first [`WorkerClient::run`] (or `warm`).
    pub fn new(handler: impl Fn(Reply) + 'static) -> WorkerClient {
        WorkerClient {
            inner: Rc::new(RefCell::new(Inner {
                worker: None,
                generation: 0,
                ready: false,
                queued: None,
                running: None,
                linking: None,
                callbacks: None,
                graveyard: Vec::new(),
                in_callback: false,
                start_timer: None,
                warmed: false,
                decoding: None,
            })),
            handler: Rc::new(handler),
        }
    }

    /// The id of the run in flight, if any.
    pub fn running(&self) -> Option<u64> {
        self.inner.borrow().running
    }

    /// Starts the worker if none is running (so that the next run starts at once), and has
    /// the first worker optimise its code with a small run, unless a run is waiting for it.
    pub fn warm(&self) -> Result<(), String> {
        if self.inner.borrow().worker.is_none() {
            self.spawn()?;
        }
        let mut inner = self.inner.borrow_mut();
        if inner.warmed {
            return Ok(());
        }
        let request = Posting::new(Request::Warmup, &[])?;
        if inner.ready {
            let worker = inner.worker.as_ref().ok_or("no worker")?;
            send(worker, request)?;
            inner.warmed = true;
        } else if inner.queued.is_none() {
            inner.queued = Some(request);
            inner.warmed = true;
        }
        Ok(())
    }

    /// Sends `text` to the worker as run `id` (with `link`, its share link follows its
    /// result as [`Reply::Link`]; with `relabel`, the run whose result the page shows, a
    /// scenario that simulates as it did is answered by [`Reply::Relabelled`]). A run in
    /// flight is abandoned first (its worker is terminated and a fresh one started).
    pub fn run(
        &self,
        id: u64,
        text: &str,
        limits: DigestLimits,
        relabel: Option<u64>,
        link: bool,
    ) -> Result<(), String> {
        self.bury();
        let busy = {
            let inner = self.inner.borrow();
            // A worker still starting has not begun the queued run: just replace it.
            inner.running.is_some() && inner.ready
        };
        if busy {
            self.restart()?;
        }
        if self.inner.borrow().worker.is_none() {
            self.spawn()?;
        }
        let request = Posting::new(
            Request::Run {
                id,
                scenario: text,
                limits,
                relabel,
                link,
            },
            &[],
        )?;
        let mut inner = self.inner.borrow_mut();
        inner.running = Some(id);
        inner.linking = link.then_some(id);
        if inner.ready {
            let worker = inner.worker.as_ref().ok_or("no worker")?;
            send(worker, request)?;
        } else {
            inner.queued = Some(request);
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
        drop_worker(&mut inner);
        if let Some(timer) = inner.start_timer.take() {
            if let Some(w) = web_sys::window() {
                w.clear_timeout_with_handle(timer);
            }
        }
        inner.ready = false;
        inner.queued = None;
        inner.running = None;
        inner.decoding = None;
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
        let worker = bridge::engine_worker().map_err(|e| js_message(&e))?;
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
                resume_decoding(weak.clone(), handler.clone(), generation);
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
        // A worker whose wasm never starts (e.g. its file is missing) sends neither Ready
        // nor an error: give up after a while.
        let timer = web_sys::window().and_then(|w| {
            let weak = weak.clone();
            let handler = handler.clone();
            let cb = Closure::once_into_js(move || {
                dispatch(&weak, &handler, |inner| {
                    if inner.generation == generation && !inner.ready {
                        inner.start_timer = None;
                        Some(unavailable(inner, "the engine worker did not start".into()))
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
        {
            let mut inner = self.inner.borrow_mut();
            inner.worker = Some(worker);
            inner.callbacks = Some((onmessage, onerror));
            inner.ready = false;
            inner.start_timer = timer;
        }
        (self.handler)(Reply::Starting);
        Ok(())
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

/// Terminates the worker, if there is one, and keeps its callbacks in the graveyard.
fn drop_worker(inner: &mut Inner) {
    if let Some(worker) = inner.worker.take() {
        worker.set_onmessage(None);
        worker.set_onerror(None);
        worker.terminate();
    }
    if let Some(cb) = inner.callbacks.take() {
        inner.graveyard.push(cb);
    }
}

/// The worker could not start: forget it (and its run).
fn unavailable(inner: &mut Inner, message: String) -> Reply {
    drop_worker(inner);
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
        message: format!("the engine worker stopped: {message}"),
    })
}

/// Posts a request, transferring its buffers.
fn send(worker: &Worker, request: Posting) -> Result<(), String> {
    request.post(worker).map_err(|e| js_message(&e))
}

fn on_message(inner: &mut Inner, generation: u64, data: &JsValue) -> Option<Reply> {
    if generation != inner.generation {
        return None;
    }
    let Some(message) = quotalab_engine_worker::web::incoming(data) else {
        // Only the loader posts anything but a message: its wasm could not start.
        let field = |name: &str| bridge::get(data, name).and_then(|v| v.as_string());
        if field("kind").as_deref() == Some(UNAVAILABLE) {
            let text = field("message").unwrap_or_default();
            return Some(unavailable(inner, text));
        }
        return None;
    };
    let handled_at = epoch_ms();
    let start = clock_ms();
    // A finished run's result comes beside the answer's bytes.
    let bytes = message.bytes;
    let beside = message.text;
    let response = match Response::decode(&bytes) {
        Ok(response) => response,
        Err(message) => {
            return Some(Reply::Failed {
                id: inner.running.take(),
                message,
            })
        }
    };
    match response {
        Response::Ready => {
            inner.ready = true;
            if let Some(timer) = inner.start_timer.take() {
                if let Some(w) = web_sys::window() {
                    w.clear_timeout_with_handle(timer);
                }
            }
            if let Some(request) = inner.queued.take() {
                let worker = inner.worker.as_ref()?;
                if let Err(e) = send(worker, request) {
                    return Some(Reply::Failed {
                        id: inner.running.take(),
                        message: format!("could not send the scenario to the worker: {e}"),
                    });
                }
            }
            Some(Reply::Ready)
        }
        Response::Error { id, message } => {
            // A panic hook's message: for the run in flight (or for no run: still shown).
            if id.is_some() && id != inner.running {
                return None;
            }
            Some(Reply::Failed {
                id: inner.running.take(),
                message,
            })
        }
        Response::Progress {
            id,
            fraction,
            phase,
        } => (Some(id) == inner.running).then_some(Reply::Progress {
            id,
            fraction,
            phase,
        }),
        Response::Problems { id, problems } => {
            if Some(id) != inner.running {
                return None;
            }
            inner.running = None;
            Some(Reply::Problems { id, problems })
        }
        Response::Relabelled {
            id,
            timing,
            label,
            warnings,
        } => {
            if Some(id) != inner.running {
                return None;
            }
            inner.running = None;
            Some(Reply::Relabelled {
                id,
                label,
                warnings,
                timing,
                handled_at,
            })
        }
        // Answers to jobs go to the jobs' own worker (`super::service`).
        Response::Config(_)
        | Response::Compared { .. }
        | Response::TraceImported { .. }
        | Response::TraceChecked { .. }
        | Response::Sweep(_)
        | Response::Report { .. }
        | Response::RunFile { .. }
        | Response::Checked { .. }
        | Response::Timeline { .. }
        | Response::Moment { .. }
        | Response::Reading { .. } => None,
        Response::Link { id, result } => {
            if inner.linking != Some(id) {
                return None;
            }
            inner.linking = None;
            Some(Reply::Link { id, result })
        }
        Response::Done { id, timing, .. } => {
            if Some(id) != inner.running {
                return None;
            }
            inner.running = None;
            let decoding = match beside
                .ok_or_else(|| "the worker's result did not come with its answer".to_string())
                .and_then(|result| ResultDecoder::new(Box::new(JsBytes(result))))
            {
                Ok(d) => d,
                Err(message) => {
                    return Some(Reply::Failed {
                        id: Some(id),
                        message,
                    })
                }
            };
            let large = decoding.result_size() > DECODE_AT_ONCE_BYTES;
            let run = Box::new(Decoding {
                id,
                timing,
                handled_at,
                decode_ms: clock_ms() - start,
                decoder: decoding,
            });
            // A large result's rows wait for a task of their own: this one read its head.
            if large {
                inner.decoding = Some(run);
                return None;
            }
            match decode_piece(run) {
                Ok(reply) => Some(reply),
                Err(rest) => {
                    inner.decoding = Some(rest);
                    None
                }
            }
        }
    }
}

/// A run's result being decoded, a few pieces per task.
struct Decoding {
    id: u64,
    timing: Timing,
    handled_at: f64,
    /// Time spent decoding so far (in every task).
    decode_ms: f64,
    decoder: ResultDecoder,
}

/// The main thread's budget for decoding a result in one task (ms): a large result is
/// decoded over several tasks, with input handled between them (issue #30).
const DECODE_BUDGET_MS: f64 = 10.0;

/// A result up to this size (bytes) is decoded whole in the task its message came in (the
/// walkthrough's is a few KB); a larger one's rows are decoded from the next task on: the
/// task its message came in reads its head (series, metrics), ~5-10 ms on the Philly run's
/// 2.5 MB.
const DECODE_AT_ONCE_BYTES: usize = 256 * 1024;

/// Decodes `run`'s next pieces: its [`Reply::Done`] (or `Failed`) once all are, else the
/// rest to decode in a task of its own.
fn decode_piece(mut run: Box<Decoding>) -> Result<Reply, Box<Decoding>> {
    let start = clock_ms();
    let done = run.decoder.step(&mut clock_ms, DECODE_BUDGET_MS);
    run.decode_ms += clock_ms() - start;
    match done {
        Err(message) => Ok(Reply::Failed {
            id: Some(run.id),
            message,
        }),
        Ok(true) => {
            let (warnings, digest) = run.decoder.finish();
            Ok(Reply::Done {
                id: run.id,
                digest: Box::new(digest),
                warnings,
                timing: run.timing,
                handled_at: run.handled_at,
                decode_ms: run.decode_ms,
            })
        }
        Ok(false) => Err(run),
    }
}

/// Goes on decoding the result left in the client (`Inner::decoding`), in a task of its
/// own, until it is whole; dropped if the worker changed or a newer run began meanwhile.
fn resume_decoding(weak: Weak<RefCell<Inner>>, handler: Rc<dyn Fn(Reply)>, generation: u64) {
    let pending = weak
        .upgrade()
        .is_some_and(|rc| rc.borrow().decoding.is_some());
    if !pending {
        return;
    }
    let cb = Closure::once_into_js(move || {
        dispatch(&weak, &handler, |inner| {
            let run = inner.decoding.take()?;
            if inner.generation != generation || inner.running.is_some() {
                return None;
            }
            match decode_piece(run) {
                Ok(reply) => Some(reply),
                Err(rest) => {
                    inner.decoding = Some(rest);
                    None
                }
            }
        });
        resume_decoding(weak, handler, generation);
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), 0);
    }
}
