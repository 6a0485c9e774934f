//! The worker's side: the message handler installed by [`worker_main`]. A run is validated,
//! simulated step by step with progress reports, and its
//! `Digest` posted encoded; a configuration request is
//! answered by [`crate::config::handle`].

use std::cell::{Cell, RefCell};

use js_sys::Uint8Array;
use quotalab_engine::digest::{Digest, DigestLimits, Label};
use quotalab_engine::input::model::Scenario;
use quotalab_engine::pipeline::{self, Output, Product, RunOptions};
use quotalab_engine::{JobsMemo, Sim};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::protocol::{encode_result, to_pairs, Bytes, Phase, Request, Response, Timing};
use crate::web::{clock_ms, epoch_ms, incoming, js_message, outgoing, Incoming};
use crate::{config, jobs, sweep};

use crate::protocol::PROGRESS_MS;

thread_local! {
    /// The sweep this worker planned, with its number.
    static PLAN: RefCell<Option<(u64, quotalab_engine::analysis::sweep::Sweep)>> =
        const { RefCell::new(None) };
    /// The id of the run the worker is busy with, for the panic hook.
    static CURRENT: Cell<Option<u64>> = const { Cell::new(None) };
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts `response` as postcard bytes, its large text or a run's result beside them
/// ([`web::outgoing`]),
/// transferring their buffers.
fn post(mut response: Response) {
    let is_a_file = response.text_is_a_file();
    let text = response.take_text();
    let result = response.take_result();
    // A file made for saving goes as a blob, made here: the page hands it to the browser
    // without copying it (`jobs::FileText::Posted`; the Philly trace's result JSON, 97.5 MB,
    // took the page's thread 60-80 ms to copy into a blob).
    let file = text
        .as_deref()
        .filter(|_| is_a_file)
        .and_then(|t| blob_of(t.as_bytes()));
    let beside = match file {
        Some(_) => None,
        None => text.as_deref().map(str::as_bytes).or(result),
    };
    let (bytes, beside, file) = match response.encode() {
        Ok(bytes) => (bytes, beside, file),
        Err(message) => {
            let id = CURRENT.with(Cell::get);
            match (Response::Error { id, message }).encode() {
                Ok(bytes) => (bytes, None, None),
                Err(_) => return,
            }
        }
    };
    let blobs: Vec<JsValue> = file.into_iter().map(JsValue::from).collect();
    let (message, transfer) = outgoing(&bytes, beside, &blobs);
    let _ = scope().post_message_with_transfer(&message, &transfer);
}

/// `bytes` as a blob (`None` if the browser refuses to make one).
fn blob_of(bytes: &[u8]) -> Option<web_sys::Blob> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    web_sys::Blob::new_with_u8_array_sequence(&parts).ok()
}

fn post_error(id: Option<u64>, message: String) {
    post(Response::Error { id, message });
}

fn post_progress(id: u64, fraction: f64, phase: Phase) {
    post(Response::Progress {
        id,
        fraction,
        phase,
    });
}

/// The worker's `main`: installs the panic hook and the message handler, then posts
/// [`Response::Ready`].
pub fn worker_main() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        post_error(
            CURRENT.with(Cell::get),
            format!("internal error in the engine worker: {info}"),
        );
    }));
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        match incoming(&event.data()) {
            Some(message) => on_request(message),
            None => post_error(
                None,
                "the worker received a message it does not understand".into(),
            ),
        }
    });
    scope().set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    post(Response::Ready);
}

fn on_request(message: Incoming) {
    let received = epoch_ms();
    let Incoming { bytes, text, blobs } = message;
    let blobs = &blobs[..];
    // The text or file beside the request, copied once (validated where it is a scenario).
    let text = text.map(|t| t.to_vec());
    let request = Request::decode(&bytes).and_then(|r| match &text {
        Some(text) => r.with_text(text),
        None => Ok(r),
    });
    let problem = |p: quotalab_engine::Problem| (p.path.to_string(), p.message);
    match request {
        Ok(Request::Warmup) => warm_up(),
        Ok(Request::Run {
            id,
            scenario,
            limits,
            relabel,
            link,
        }) => serving(id, || {
            if run_in_worker(id, scenario, limits, relabel, received) && link {
                // After the result: the page draws it while the link is made.
                let result = jobs::link_payload(scenario);
                post(Response::Link { id, result });
            }
        }),
        Ok(Request::Compare {
            id,
            scenario,
            limits,
        }) => serving(id, || {
            match jobs::compare_scenario(scenario, limits).map(|c| jobs::encode_compared(&c)) {
                Ok(Err(message)) => post_error(Some(id), message),
                Ok(Ok(bytes)) => post(Response::Compared {
                    id,
                    result: Ok(Bytes(&bytes)),
                }),
                Err(problems) => post(Response::Compared {
                    id,
                    result: Err(to_pairs(&problems)),
                }),
            }
        }),
        Ok(Request::TraceImport { id, csv, options }) => serving(id, || {
            let result = jobs::import_trace(csv.0, &options).map_err(problem);
            post(Response::TraceImported { id, result });
        }),
        Ok(Request::TraceCheck { id, csv, options }) => serving(id, || {
            let result = jobs::check_trace(csv.0, &options).map_err(problem);
            post(Response::TraceChecked { id, result });
        }),
        Ok(Request::Report {
            id,
            scenario,
            compare,
            review,
        }) => serving(id, || {
            let review = review.map(|(n, t)| (n.to_string(), t.to_string()));
            let result = jobs::make_report(scenario, compare, review);
            post(Response::Report { id, result });
        }),
        Ok(Request::RunFile { id, scenario, file }) => serving(id, || {
            let result = jobs::run_file(scenario, file);
            post(Response::RunFile { id, result });
        }),
        Ok(Request::Link { id, scenario }) => serving(id, || {
            let result = jobs::link_payload(scenario);
            post(Response::Link { id, result });
        }),
        Ok(Request::Check { id, scenario }) => serving(id, || {
            let result = jobs::check(scenario);
            post(Response::Checked { id, result });
        }),
        Ok(Request::Timeline { id, scenario }) => serving(id, || {
            let result = jobs::whole_timeline(scenario);
            post(Response::Timeline { id, result });
        }),
        Ok(Request::Moment { id, key, t_s }) => serving(id, || {
            let moment = jobs::moment_of(key, t_s);
            post(Response::Moment { id, moment });
        }),
        Ok(Request::Config(config::Envelope {
            id,
            body: config::Request::History(r),
        })) if !r.blobs.is_empty() => serving(id, || {
            let body = config::Response::Loaded(read_history(id, &r, blobs));
            post(Response::Config(config::Envelope { id, body }));
        }),
        Ok(Request::Config(config::Envelope { id, body })) => serving(id, || {
            let body = config::handle(body);
            post(Response::Config(config::Envelope { id, body }));
        }),
        Ok(Request::Sweep(message)) => {
            if let Some(reply) = PLAN.with(|p| sweep::serve(message, &mut p.borrow_mut())) {
                post(Response::Sweep(reply));
            }
        }
        Err(message) => post_error(None, message),
    }
}

/// The pieces a history blob is read in: each `FileReaderSync` read has a cost of its own
/// (the 469 MB history: 4.84-4.95 s in 16 MiB pieces, 5.35-5.86 s in 4 MiB ones, side by
/// side), and a piece is still a progress line every ~0.2 s.
const HISTORY_PIECE: f64 = 16.0 * 1024.0 * 1024.0;

/// SPEC 16 in the worker: a history whose files came as blobs, each read in pieces with
/// `FileReaderSync` and fed to the engine's reader record by record, a
/// [`Response::Reading`] posted after each piece; then the import.
fn read_history(
    id: u64,
    r: &config::HistoryRequest,
    blobs: &[web_sys::Blob],
) -> Result<config::Imported, Vec<String>> {
    if blobs.len() != r.blobs.len() {
        return Err(vec![format!(
            "the worker received {} of the {} history files",
            blobs.len(),
            r.blobs.len()
        )]);
    }
    let mut readers = config::history_readers(r);
    let total: f64 = blobs.iter().map(web_sys::Blob::size).sum();
    let sync = web_sys::FileReaderSync::new()
        .map_err(|e| vec![format!("the worker cannot read files: {}", js_message(&e))])?;
    let first = r.files.len();
    let mut done = 0.0;
    let mut records = 0u64;
    for (k, blob) in blobs.iter().enumerate() {
        let name = &r.blobs[k];
        let reader = &mut readers[first + k];
        let size = blob.size();
        let mut at = 0.0;
        let mut piece = Vec::new();
        while at < size && !reader.stopped() {
            let end = (at + HISTORY_PIECE).min(size);
            let buffer = blob
                .slice_with_f64_and_f64(at, end)
                .and_then(|b| sync.read_as_array_buffer(&b))
                .map_err(|e| vec![format!("{name}: could not be read ({})", js_message(&e))])?;
            let array = Uint8Array::new(&buffer);
            piece.resize(array.length() as usize, 0);
            array.copy_to(&mut piece);
            reader.push(&piece);
            done += end - at;
            at = end;
            post(Response::Reading {
                id,
                bytes: done,
                total,
                records: records + reader.records() as u64,
            });
        }
        reader.finish();
        records += reader.records() as u64;
    }
    config::history_with(r, readers)
}

/// Does `work` for request `id` (a panic meanwhile is reported as that request's).
fn serving(id: u64, work: impl FnOnce()) {
    CURRENT.with(|c| c.set(Some(id)));
    work();
    CURRENT.with(|c| c.set(None));
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
    let opts = RunOptions {
        product: Product::Digest(DigestLimits::default()),
        ..RunOptions::default()
    };
    if let Ok(run) = pipeline::run(&text, &opts) {
        if let Output::Digest(d) = run.output {
            let _ = encode_result(&run.warnings, &d);
        }
    }
}

/// Share of the progress bar given to validation (and generation) before the first step.
const LOAD_SHARE: f64 = 0.05;
/// Share given to the digest and its encoding after the last step.
const DIGEST_SHARE: f64 = 0.05;

/// The last run this worker made: an edit that changes nothing the simulation reads (the
/// scenario's name, an agreement's text) is answered from it, relabelled, without simulating
/// again (issue #30; [`Scenario::same_simulation`]).
struct Last {
    /// The run's id: a run relabels it only when the page shows it ([`Request::Run`]).
    id: u64,
    scenario: Scenario,
    limits: DigestLimits,
    digest: Digest,
}

thread_local! {
    static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
    /// The explicit jobs of the last text run, read, for the next edit of the same scenario
    /// ([`quotalab_engine::load_remembering`]: a share edited on the whole Philly trace does
    /// not read its 82,247 jobs again).
    static JOBS: RefCell<Option<JobsMemo>> = const { RefCell::new(None) };
}

/// Runs `text` as run `id`: validation, then, if the page shows this worker's last run
/// (`relabel`) and the scenario simulates the same, that run's new label
/// ([`Response::Relabelled`]); else the stages of [`pipeline::run_observed`] (the policy as
/// given, simulation, the digest), posting progress between simulation steps. False when it
/// posted its problems or an error instead.
fn run_in_worker(
    id: u64,
    text: &str,
    limits: DigestLimits,
    relabel: Option<u64>,
    received: f64,
) -> bool {
    struct Progress {
        id: u64,
        simulated_at: f64,
        last: f64,
        steps: u32,
    }
    impl pipeline::Observer for Progress {
        fn stepped(&mut self, sim: &Sim) {
            self.steps = self.steps.wrapping_add(1);
            if self.steps.is_multiple_of(64) {
                let now = clock_ms();
                if now - self.last >= PROGRESS_MS {
                    self.last = now;
                    let done = sim.progress();
                    let f = LOAD_SHARE + (1.0 - LOAD_SHARE - DIGEST_SHARE) * done;
                    post_progress(self.id, f, Phase::Simulating);
                }
            }
        }
        fn simulated(&mut self) {
            self.simulated_at = clock_ms();
            post_progress(self.id, 1.0 - DIGEST_SHARE, Phase::Summarising);
        }
    }

    let start = clock_ms();
    post_progress(id, 0.0, Phase::Validating);
    let loaded = JOBS.with(|memo| quotalab_engine::load_remembering(text, &mut memo.borrow_mut()));
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(problems) => {
            post(Response::Problems { id, problems });
            return false;
        }
    };
    let loaded_at = clock_ms();
    let last = LAST.with(|l| l.borrow_mut().take()).filter(|last| {
        relabel == Some(last.id)
            && last.limits == limits
            && last.scenario.same_simulation(&loaded.scenario)
    });
    if let Some(Last { mut digest, .. }) = last {
        // The page has this run's result: only what changed crosses back.
        let label = Label::of(&loaded.scenario);
        digest.apply(&label);
        let end = clock_ms();
        post(Response::Relabelled {
            id,
            timing: Timing {
                compute_ms: end - start,
                phases: [loaded_at - start, 0.0, 0.0, end - loaded_at],
                received_at: received,
                posted_at: epoch_ms(),
                reused: true,
            },
            label,
            warnings: loaded.warnings,
        });
        LAST.with(|l| {
            *l.borrow_mut() = Some(Last {
                id,
                scenario: loaded.scenario,
                limits,
                digest,
            })
        });
        return true;
    }
    post_progress(id, LOAD_SHARE, Phase::Simulating);
    let mut progress = Progress {
        id,
        simulated_at: loaded_at,
        last: loaded_at,
        steps: 0,
    };
    let out = pipeline::produce_observed(&loaded.scenario, Product::Digest(limits), &mut progress);
    let Output::Digest(digest) = out else {
        post_error(Some(id), "the run produced no digest".into());
        return false;
    };
    let (digest, simulated_at) = (*digest, progress.simulated_at);
    let digested_at = clock_ms();
    let posted = match encode_result(&loaded.warnings, &digest) {
        Ok(bytes) => {
            let end = clock_ms();
            let timing = Timing {
                compute_ms: end - start,
                phases: [
                    loaded_at - start,
                    simulated_at - loaded_at,
                    digested_at - simulated_at,
                    end - digested_at,
                ],
                received_at: received,
                posted_at: epoch_ms(),
                reused: false,
            };
            post(Response::Done {
                id,
                timing,
                result: Bytes(&bytes),
            });
            true
        }
        Err(e) => {
            post_error(Some(id), e);
            false
        }
    };
    LAST.with(|l| {
        *l.borrow_mut() = Some(Last {
            id,
            scenario: loaded.scenario,
            limits,
            digest,
        })
    });
    posted
}
