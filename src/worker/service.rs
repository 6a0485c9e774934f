//! The page's one client for what it asks an engine worker beside runs
//! (`quotalab_engine_worker::jobs`): configurations in and out, the comparison and forecast,
//! the CSV trace import. [`EngineService`] (a context, cheap to copy) sends a [`Job`] to a
//! [`Backend`] and calls back once with its [`Answer`]: on the page an engine worker of its
//! own ([`WorkerBackend`], started on first use, separate from the runs' worker so that a
//! cancelled run never takes an import with it); where no worker can run (the component
//! tests), [`set_local_jobs`] installs the engine in-process.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;
use quotalab_engine_worker::config::{
    Envelope, Request as ConfigRequest, Response as ConfigResponse,
};
use quotalab_engine_worker::jobs::{decode_compared, Answer, FileText, Job};
use quotalab_engine_worker::protocol::{from_pair, from_pairs, Bytes, Request, Response};
use quotalab_engine_worker::web::{js_message, text_of, Incoming};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

use super::bridge::Posting;

/// Called once with the answer.
pub type Reply = Box<dyn FnOnce(Answer)>;

/// Called as a history's files are read: (bytes read, bytes in all, records read).
pub type Reading = Rc<dyn Fn(f64, f64, u64)>;

/// Where jobs are answered.
pub trait Backend {
    fn send(&self, job: Job, reply: Reply);
    /// Starts loading (the worker), so that the first job is answered sooner.
    fn warm(&self) {}
    /// Whether [`Backend::send_files`] reads files itself (a worker does, in pieces).
    fn takes_files(&self) -> bool {
        false
    }
    /// Sends a history request whose `blobs` are `files`, read where the job is answered.
    fn send_files(&self, job: Job, _files: Vec<web_sys::File>, _reading: Reading, reply: Reply) {
        self.send(job, reply);
    }
}

/// The page's jobs' [`Backend`] (cheap to copy). [`use_engine_service`] finds it.
#[derive(Clone, Copy)]
pub struct EngineService(StoredValue<Rc<dyn Backend>, LocalStorage>);

impl EngineService {
    pub fn new(backend: impl Backend + 'static) -> EngineService {
        EngineService(StoredValue::new_local(Rc::new(backend)))
    }

    pub fn send(&self, job: Job, reply: impl FnOnce(Answer) + 'static) {
        self.0.get_value().send(job, Box::new(reply));
    }

    pub fn warm(&self) {
        self.0.get_value().warm();
    }

    /// Sends a history request (`Job::Config(Request::History)`) whose files are `files`:
    /// an engine worker reads them itself, in pieces, calling `reading` as it goes (a large
    /// history never becomes one string on the page); elsewhere their texts are read first.
    pub fn send_files(
        &self,
        job: Job,
        files: Vec<web_sys::File>,
        reading: impl Fn(f64, f64, u64) + 'static,
        reply: impl FnOnce(Answer) + 'static,
    ) {
        let backend = self.0.get_value();
        if backend.takes_files() {
            backend.send_files(job, files, Rc::new(reading), Box::new(reply));
            return;
        }
        let service = *self;
        leptos::task::spawn_local(async move {
            let mut job = job;
            if let Job::Config(quotalab_engine_worker::config::Request::History(r)) = &mut job {
                r.blobs.clear();
                for file in files {
                    let text = wasm_bindgen_futures::JsFuture::from(file.text())
                        .await
                        .ok()
                        .and_then(|v| v.as_string())
                        .unwrap_or_default();
                    r.files.push((file.name(), text));
                }
            }
            service.send(job, reply);
        });
    }
}

/// The engine answering jobs in-process ([`quotalab_engine_worker::jobs::serve`]).
pub type LocalJobs = fn(Job) -> Answer;

thread_local! {
    static LOCAL: Cell<Option<LocalJobs>> = const { Cell::new(None) };
}

/// Answers every job with `serve` on this thread (in the next task, as a worker would),
/// instead of an engine worker: only where no worker can run (the component tests).
pub fn set_local_jobs(serve: LocalJobs) {
    LOCAL.with(|l| l.set(Some(serve)));
}

struct Local(LocalJobs);

impl Backend for Local {
    fn send(&self, job: Job, reply: Reply) {
        let answer = (self.0)(job);
        set_timeout(move || reply(answer), Duration::ZERO);
    }
}

/// The service in context, else the in-process engine if one is installed, else the page's
/// engine worker (one per page).
pub fn use_engine_service() -> EngineService {
    use_context::<EngineService>().unwrap_or_else(default_service)
}

/// The in-process engine if one is installed ([`set_local_jobs`]), else an engine worker.
pub fn default_service() -> EngineService {
    match LOCAL.with(Cell::get) {
        Some(serve) => EngineService::new(Local(serve)),
        None => EngineService::new(WorkerBackend),
    }
}

/// What the worker's client keeps.
#[derive(Default)]
struct Client {
    worker: Option<Worker>,
    ready: bool,
    /// Requests sent before the worker was ready, encoded, with the files they read.
    queued: Vec<Posting>,
    pending: HashMap<u64, Reply>,
    /// Progress of the history requests in flight.
    reading: HashMap<u64, Reading>,
    next_id: u64,
    /// The message and error handlers (kept while the worker lives).
    handlers: Vec<Closure<dyn FnMut(JsValue)>>,
}

thread_local! {
    static CLIENT: RefCell<Client> = RefCell::new(Client::default());
}

/// The page's backend: an engine worker of its own.
pub struct WorkerBackend;

impl WorkerBackend {
    fn start(client: &mut Client) -> Result<(), String> {
        if client.worker.is_some() {
            return Ok(());
        }
        let worker = super::bridge::engine_worker()
            .map_err(|e| format!("the engine could not start: {}", js_message(&e)))?;
        let on_message = Closure::<dyn FnMut(JsValue)>::new(|event: JsValue| {
            let data = event.unchecked_into::<MessageEvent>().data();
            let Some(message) = quotalab_engine_worker::web::incoming(&data) else {
                // Only the loader posts anything but a message: the wasm could not start.
                let why = super::bridge::get(&data, "message")
                    .and_then(|m| m.as_string())
                    .unwrap_or_default();
                fail_all(format!("the engine could not start: {why}"));
                return;
            };
            on_response(message);
        });
        let on_error = Closure::<dyn FnMut(JsValue)>::new(|event: JsValue| {
            let what = event
                .dyn_ref::<web_sys::ErrorEvent>()
                .map(|e| e.message())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "it stopped".to_string());
            fail_all(format!("the engine failed: {what}"));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        client.handlers = vec![on_message, on_error];
        client.worker = Some(worker);
        client.ready = false;
        mark("starting");
        Ok(())
    }
}

/// Shows where the service's worker is as `data-engine-service` on the document's root
/// (`starting` while its scripts load, then `ready`; `failed`): the e2e tests wait for a
/// worker that is loading before they navigate away, which would abort its requests.
fn mark(state: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-engine-service", state);
    }
}

/// A job as the request `id`, built to be posted with `files`.
fn encode(id: u64, job: Job, files: &[web_sys::File]) -> Result<Posting, String> {
    // A configuration request is moved in, not copied (it may carry a 16 MB scenario).
    let job = match job {
        Job::Config(body) => return Posting::new(Request::Config(Envelope { id, body }), files),
        job => job,
    };
    let request = match &job {
        Job::Config(_) => unreachable!("posted above"),
        Job::Compare { scenario, limits } => Request::Compare {
            id,
            scenario,
            limits: *limits,
        },
        Job::TraceImport { csv, options } => Request::TraceImport {
            id,
            csv: Bytes(csv),
            options: options.clone(),
        },
        Job::Report {
            scenario,
            compare,
            review,
        } => Request::Report {
            id,
            scenario,
            compare: *compare,
            review: review.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
        },
        Job::RunFile { scenario, file } => Request::RunFile {
            id,
            scenario,
            file: *file,
        },
        Job::Link { scenario } => Request::Link { id, scenario },
        Job::Check { scenario } => Request::Check { id, scenario },
        Job::Timeline { scenario } => Request::Timeline { id, scenario },
        Job::Moment { key, t_s } => Request::Moment {
            id,
            key: *key,
            t_s: *t_s,
        },
        Job::TraceCheck { csv, options } => Request::TraceCheck {
            id,
            csv: Bytes(csv),
            options: options.clone(),
        },
    };
    Posting::new(request, files)
}

/// A text beside an answer over this many bytes is copied into the page a piece at a time,
/// a task each (issue #30: the whole Philly trace imported, 16 MB, held the main thread
/// for 70 ms in one copy).
pub const TEXT_PIECE: usize = 2 << 20;

/// What a worker's reply that is not UTF-8 is said to be.
const NOT_UTF8: &str = "could not decode the worker's reply";

/// A worker message: Ready sends what waited; an answer goes to its job's reply (with its
/// large text put back, copied once from the buffer it came in, in pieces if large).
fn on_response(message: Incoming) {
    let Incoming { bytes, text, blobs } = message;
    match text {
        // A file made for saving, as the worker made it ([`FileText::Posted`]).
        None if !blobs.is_empty() => {
            let blob = blobs.into_iter().next();
            answer(&bytes, blob.map(Beside::File))
        }
        Some(array) if array.length() as usize > TEXT_PIECE => {
            text_in_pieces(array, move |t| {
                let not_utf8 = |_| format!("{NOT_UTF8}: the text is not UTF-8");
                answer(&bytes, Some(Beside::Text(t.map_err(not_utf8))))
            });
        }
        Some(array) => answer(&bytes, Some(Beside::Text(text_of(&array, NOT_UTF8)))),
        None => answer(&bytes, None),
    }
}

/// What came beside an answer's bytes: its text, read into the page, or a file the worker
/// made of it.
enum Beside {
    Text(Result<String, String>),
    File(web_sys::Blob),
}

/// `array`'s text, copied in [`TEXT_PIECE`] bytes per task (the first now), to `then`; if it
/// is not UTF-8, the place of the first byte that is not.
pub fn text_in_pieces(
    array: js_sys::Uint8Array,
    then: impl FnOnce(Result<String, usize>) + 'static,
) {
    let pieces = Pieces {
        at: 0,
        text: String::with_capacity(array.length() as usize),
        piece: Vec::new(),
        array,
    };
    pieces.copy(Box::new(then));
}

/// A large text being copied in from a worker's buffer, [`TEXT_PIECE`] bytes per task, each
/// piece checked as UTF-8 as it comes (the whole 16 MB at the end held one task for 11 ms).
struct Pieces {
    array: js_sys::Uint8Array,
    /// How many of the buffer's bytes are read.
    at: usize,
    /// The text so far, every byte checked.
    text: String,
    /// The piece being read, after the bytes of a character the last piece cut.
    piece: Vec<u8>,
}

impl Pieces {
    /// Reads the next piece, then the rest in later tasks; `then` gets the whole text.
    fn copy(mut self, then: Box<dyn FnOnce(Result<String, usize>)>) {
        let len = self.array.length() as usize;
        let end = (self.at + TEXT_PIECE).min(len);
        let cut = self.piece.len();
        self.piece.resize(cut + end - self.at, 0);
        self.array
            .subarray(self.at as u32, end as u32)
            .copy_to(&mut self.piece[cut..]);
        self.at = end;
        let start = end - self.piece.len();
        let not_utf8 = |e: std::str::Utf8Error| start + e.valid_up_to();
        let valid = match std::str::from_utf8(&self.piece) {
            Ok(s) => {
                self.text.push_str(s);
                s.len()
            }
            // A character cut by the piece's end: its first bytes wait for the next piece.
            Err(e) if e.error_len().is_none() && end < len => {
                match std::str::from_utf8(&self.piece[..e.valid_up_to()]) {
                    Ok(s) => self.text.push_str(s),
                    Err(e) => return then(Err(not_utf8(e))),
                }
                e.valid_up_to()
            }
            Err(e) => return then(Err(not_utf8(e))),
        };
        self.piece.drain(..valid);
        if end == len {
            then(Ok(self.text));
        } else {
            set_timeout(move || self.copy(then), Duration::ZERO);
        }
    }
}

/// A worker message's bytes and its text beside them, decoded and answered.
fn answer(bytes: &[u8], beside: Option<Beside>) {
    let mut posted = None;
    let decoded = Response::decode(bytes).and_then(|mut r| {
        match beside {
            Some(Beside::Text(text)) => r.put_text(text?)?,
            Some(Beside::File(array)) => posted = Some(array),
            None => {}
        }
        Ok(r)
    });
    // The file: the worker's blob, if it came (else the answer's text).
    let file = move |text: String| match posted {
        Some(blob) => FileText::Posted(blob),
        None => FileText::Text(text),
    };
    let answer = match decoded {
        Err(e) => return fail_all(e),
        Ok(Response::Ready) => {
            CLIENT.with(|c| {
                let mut c = c.borrow_mut();
                c.ready = true;
                mark("ready");
                let queued = std::mem::take(&mut c.queued);
                if let Some(w) = &c.worker {
                    for request in queued {
                        let _ = request.post(w);
                    }
                }
            });
            return;
        }
        // A panic, or a message the worker could not read: every job in flight fails.
        Ok(Response::Error { message, .. }) => return fail_all(message),
        Ok(Response::Config(Envelope { id, body })) => (id, Answer::Config(body)),
        Ok(Response::Compared { id, result }) => (
            id,
            match result {
                Ok(bytes) => match decode_compared(bytes.0) {
                    Ok(c) => Answer::Compared(Ok(c)),
                    Err(e) => Answer::Failed(e),
                },
                Err(problems) => Answer::Compared(Err(from_pairs(problems))),
            },
        ),
        Ok(Response::TraceImported { id, result }) => {
            (id, Answer::TraceImported(result.map_err(from_pair)))
        }
        Ok(Response::TraceChecked { id, result }) => {
            (id, Answer::TraceChecked(result.map_err(from_pair)))
        }
        Ok(Response::Report { id, result }) => (id, Answer::Report(result.map(file))),
        Ok(Response::RunFile { id, result }) => (id, Answer::RunFile(result.map(file))),
        Ok(Response::Link { id, result }) => (id, Answer::Link(result)),
        Ok(Response::Checked { id, result }) => (id, Answer::Checked(result)),
        Ok(Response::Timeline { id, result }) => (id, Answer::Timeline(result)),
        Ok(Response::Moment { id, moment }) => (id, Answer::Moment(moment)),
        Ok(Response::Reading {
            id,
            bytes,
            total,
            records,
        }) => {
            let reading = CLIENT.with(|c| c.borrow().reading.get(&id).cloned());
            if let Some(reading) = reading {
                reading(bytes, total, records);
            }
            return;
        }
        // Runs' messages go to the runs' own worker.
        Ok(_) => return,
    };
    let (id, answer) = answer;
    let reply = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        c.reading.remove(&id);
        c.pending.remove(&id)
    });
    if let Some(reply) = reply {
        reply(answer);
    }
}

/// The worker failed: every job in flight is answered with the failure, and the next job
/// starts a fresh worker.
fn fail_all(message: String) {
    let pending = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(w) = c.worker.take() {
            w.terminate();
            mark("failed");
        }
        c.ready = false;
        c.queued.clear();
        c.reading.clear();
        // The handlers may be running: drop them later.
        let handlers = std::mem::take(&mut c.handlers);
        set_timeout(move || drop(handlers), Duration::ZERO);
        std::mem::take(&mut c.pending)
    });
    for (_, reply) in pending {
        reply(Answer::Failed(message.clone()));
    }
}

impl WorkerBackend {
    fn send_with(
        &self,
        job: Job,
        files: Vec<web_sys::File>,
        reading: Option<Reading>,
        reply: Reply,
    ) {
        let refused = CLIENT.with(|c| {
            let mut c = c.borrow_mut();
            if let Err(e) = WorkerBackend::start(&mut c) {
                return Some((e, reply));
            }
            c.next_id += 1;
            let id = c.next_id;
            let request = match encode(id, job, &files) {
                Ok(request) => request,
                Err(e) => return Some((e, reply)),
            };
            c.pending.insert(id, reply);
            if let Some(reading) = reading {
                c.reading.insert(id, reading);
            }
            match (&c.worker, c.ready) {
                (Some(w), true) => {
                    let _ = request.post(w);
                }
                _ => c.queued.push(request),
            }
            None
        });
        if let Some((message, reply)) = refused {
            reply(Answer::Failed(message));
        }
    }
}

impl Backend for WorkerBackend {
    fn send(&self, job: Job, reply: Reply) {
        self.send_with(job, Vec::new(), None, reply);
    }

    fn takes_files(&self) -> bool {
        true
    }

    fn send_files(&self, job: Job, files: Vec<web_sys::File>, reading: Reading, reply: Reply) {
        self.send_with(job, files, Some(reading), reply);
    }

    fn warm(&self) {
        CLIENT.with(|c| {
            let _ = WorkerBackend::start(&mut c.borrow_mut());
        });
    }
}

/// The configuration requests of the page's [`EngineService`] (cheap to copy).
#[derive(Clone, Copy)]
pub struct ConfigService(pub EngineService);

impl ConfigService {
    /// Sends `request`; `reply` gets its answer (a failed worker as `Response::Failed`).
    pub fn send(&self, request: ConfigRequest, reply: impl FnOnce(ConfigResponse) + 'static) {
        self.0.send(Job::Config(request), move |answer| {
            reply(config_answer(answer))
        });
    }

    /// Sends a history request whose `blobs` are `files` ([`EngineService::send_files`]):
    /// `reading` gets (bytes read, bytes in all, records read) as the worker reads them.
    pub fn send_files(
        &self,
        request: ConfigRequest,
        files: Vec<web_sys::File>,
        reading: impl Fn(f64, f64, u64) + 'static,
        reply: impl FnOnce(ConfigResponse) + 'static,
    ) {
        self.0
            .send_files(Job::Config(request), files, reading, move |answer| {
                reply(config_answer(answer))
            });
    }

    pub fn warm(&self) {
        self.0.warm();
    }
}

/// A configuration request's answer (a failed worker as `Response::Failed`).
fn config_answer(answer: Answer) -> ConfigResponse {
    match answer {
        Answer::Config(r) => r,
        Answer::Failed(m) => ConfigResponse::Failed(m),
        _ => ConfigResponse::Failed("the engine answered another question".into()),
    }
}

/// The page's service for configurations ([`use_engine_service`]): the import dialogs
/// (`io`) and the results' offer of a load (`results::empty`).
pub fn use_config_service() -> ConfigService {
    ConfigService(use_engine_service())
}
