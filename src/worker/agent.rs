//! The worker's side: the message handler installed by [`worker_main`], which validates,
//! simulates step by step with progress reports and posts the encoded
//! [`Digest`](quotalab_engine::digest::Digest).

use std::cell::Cell;

use js_sys::{Array, Uint8Array};
use quotalab_engine::digest::{digest, DigestLimits};
use quotalab_engine::sim::State;
use quotalab_engine::{Options, Sim};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::protocol::{clock_ms, encode_done, encode_problems, epoch_ms};

/// How often the worker reports progress while simulating (milliseconds).
pub const PROGRESS_MS: f64 = 50.0;

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
