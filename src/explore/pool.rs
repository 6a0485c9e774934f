//! The sweep's pool of engine workers (`crates/engine-worker`, the engine's own wasm compiled
//! for speed, as every run of the page), `navigator.hardwareConcurrency` of them: each gets
//! the plan once and at most [`IN_FLIGHT`] runs at a time; results stream back as
//! [`Event`]s. Cancel (and a new sweep while runs are in flight) terminates the workers,
//! which truly stops the CPU work; the [`Schedule`] drops any late result of an older sweep.
//! Where no worker can start, the runs go one per task on the page's thread through the
//! engine installed with [`set_local_runs`] (the component tests), under the same schedule;
//! the page's own wasm has no simulator, so without one the sweep fails with a message.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use js_sys::Uint8Array;
use quotalab_engine::analysis::sweep::Sweep;
use quotalab_engine_worker::protocol::{Request, Response};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

use super::protocol::{FromWorker, ToWorker};
use super::schedule::Schedule;
use crate::worker::bridge;

/// Runs sent to one worker before its first result comes back (hides the message latency).
pub const IN_FLIGHT: usize = 2;
/// At most this many workers.
pub const MAX_WORKERS: usize = 8;

/// What the pool reports to the panel (only for the sweep in flight).
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Done {
        sweep: u64,
        run: u32,
        shares: Vec<(String, super::protocol::Numbers)>,
        totals: super::protocol::Numbers,
    },
    Refused {
        sweep: u64,
        problems: Vec<(String, String)>,
    },
    Failed {
        sweep: u64,
        message: String,
    },
}

/// Simulates run `run` of `sweep` in-process into its message
/// (`quotalab_engine_worker::sweep::run_one`).
pub type LocalRuns = fn(&Sweep, u64, u32) -> FromWorker;

thread_local! {
    static LOCAL: Cell<Option<LocalRuns>> = const { Cell::new(None) };
}

/// Runs sweeps with `runs` on the page's thread when no worker can start (the component
/// tests; the page never installs one).
pub fn set_local_runs(runs: LocalRuns) {
    LOCAL.with(|l| l.set(Some(runs)));
}

fn encode(message: ToWorker) -> Vec<u8> {
    Request::Sweep(message).encode().unwrap_or_default()
}

/// A plan as posted: its scenario beside its bytes, copied out of the page's memory once
/// (`Request::split_text`; postcard-encoding a 16 MB trace into the bytes held the Run click
/// ~60 ms, issue #30). Posted without transfer, to each worker.
fn plan_message(plan: ToWorker) -> Option<JsValue> {
    let (request, text) = Request::Sweep(plan).split_text();
    let bytes = request.encode().ok()?;
    Some(quotalab_engine_worker::web::outgoing(&bytes, text.as_deref(), &[]).0)
}

type Callbacks = (
    Closure<dyn FnMut(MessageEvent)>,
    Closure<dyn FnMut(web_sys::Event)>,
);

struct Slot {
    worker: Worker,
    ready: bool,
    in_flight: usize,
    /// Its message and error handlers (dropped with the slot, after termination).
    _callbacks: Callbacks,
}

struct Inner {
    use_workers: bool,
    slots: Vec<Slot>,
    /// Slots of terminated workers, kept until no callback of theirs can be running.
    graveyard: Vec<Slot>,
    schedule: Schedule,
    /// The plan message of the sweep in flight, as posted (sent to each worker once ready:
    /// the browser copies its buffers for each, [`plan_message`]).
    plan_msg: Option<JsValue>,
    /// The sweep planned on the page (for runs on the page's thread).
    plan: Option<Rc<Sweep>>,
    /// Bumped per batch of workers: messages of terminated ones are ignored.
    generation: u64,
}

/// The pool (cheap to clone).
#[derive(Clone)]
pub struct Pool {
    inner: Rc<RefCell<Inner>>,
    handler: Rc<dyn Fn(Event)>,
}

impl Pool {
    /// A pool that uses workers when `use_workers` (else the page's thread); `handler`
    /// receives the events of the sweep in flight.
    pub fn new(use_workers: bool, handler: impl Fn(Event) + 'static) -> Pool {
        Pool {
            inner: Rc::new(RefCell::new(Inner {
                use_workers,
                slots: Vec::new(),
                graveyard: Vec::new(),
                schedule: Schedule::default(),
                plan_msg: None,
                plan: None,
                generation: 0,
            })),
            handler: Rc::new(handler),
        }
    }

    /// `(done, total)` of the sweep in flight.
    pub fn progress(&self) -> (usize, usize) {
        self.inner.borrow().schedule.progress()
    }

    /// Starts sweep `sweep` (`plan`, planned from `text` with `vary`): the sweep before it,
    /// if still running, is stopped first (last edit wins).
    pub fn start(&self, sweep: u64, plan: Rc<Sweep>, text: &str, vary: &str) {
        self.cancel();
        {
            let mut inner = self.inner.borrow_mut();
            inner
                .schedule
                .start(sweep, plan.points(), plan.seeds() as usize);
            inner.plan_msg = plan_message(ToWorker::Plan {
                sweep,
                scenario: text,
                vary,
                seeds: plan.seeds(),
            });
            inner.plan = Some(plan);
        }
        if self.inner.borrow().use_workers {
            if self.inner.borrow().slots.is_empty() {
                spawn_all(self);
            } else {
                // Idle workers (nothing was in flight) take the new plan at once.
                let inner = self.inner.borrow();
                if let Some(plan) = &inner.plan_msg {
                    for slot in inner.slots.iter().filter(|s| s.ready) {
                        let _ = slot.worker.post_message(plan);
                    }
                }
                drop(inner);
                fill(self);
            }
        } else {
            local_tick(Rc::downgrade(&self.inner), self.handler.clone(), sweep);
        }
    }

    /// Stops the sweep in flight: workers busy with its runs are terminated (their CPU work
    /// stops) and later results are ignored. Returns whether runs were in flight.
    pub fn cancel(&self) -> bool {
        let mut inner = self.inner.borrow_mut();
        let busy = inner.schedule.current().is_some() && !inner.schedule.finished();
        let outstanding = inner.slots.iter().any(|s| s.in_flight > 0);
        inner.schedule.cancel();
        inner.plan_msg = None;
        if outstanding {
            terminate_all(&mut inner);
        }
        busy
    }

    /// Stops every worker (the panel goes away).
    pub fn shutdown(&self) {
        let mut inner = self.inner.borrow_mut();
        inner.schedule.cancel();
        terminate_all(&mut inner);
    }
}

fn terminate_all(inner: &mut Inner) {
    inner.generation += 1;
    for slot in inner.slots.drain(..) {
        slot.worker.set_onmessage(None);
        slot.worker.set_onerror(None);
        slot.worker.terminate();
        inner.graveyard.push(slot);
    }
}

fn worker_count() -> usize {
    let n = web_sys::window().map_or(2.0, |w| w.navigator().hardware_concurrency());
    (n as usize).clamp(1, MAX_WORKERS)
}

/// Starts the workers.
fn spawn_all(pool: &Pool) {
    let generation = pool.inner.borrow().generation;
    for i in 0..worker_count() {
        match spawn_one(pool, generation, i) {
            Ok(slot) => pool.inner.borrow_mut().slots.push(slot),
            Err(e) => {
                fall_back(pool, e);
                return;
            }
        }
    }
}

/// No worker can run: the sweep goes on the page's thread.
fn fall_back(pool: &Pool, why: String) {
    leptos::logging::warn!("sweep workers unavailable ({why}): running on the page");
    let sweep = {
        let mut inner = pool.inner.borrow_mut();
        inner.use_workers = false;
        terminate_all(&mut inner);
        inner.schedule.current()
    };
    if let Some(sweep) = sweep {
        // The runs not yet reported are handed out again.
        let mut inner = pool.inner.borrow_mut();
        let (points, seeds) = inner
            .plan
            .as_ref()
            .map_or((0, 1), |p| (p.points(), p.seeds() as usize));
        let done = inner.schedule.clone();
        inner.schedule.start(sweep, points, seeds);
        // Keep the results already taken.
        inner.schedule.merge_taken(&done);
        drop(inner);
        local_tick(Rc::downgrade(&pool.inner), pool.handler.clone(), sweep);
    }
}

fn spawn_one(pool: &Pool, generation: u64, index: usize) -> Result<Slot, String> {
    let worker = bridge::engine_worker().map_err(|e| crate::worker::js_message(&e))?;
    let weak = Rc::downgrade(&pool.inner);
    let handler = pool.handler.clone();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new({
        let (weak, handler) = (weak.clone(), handler.clone());
        move |event: MessageEvent| {
            let Some(inner) = weak.upgrade() else { return };
            let pool = Pool {
                inner,
                handler: handler.clone(),
            };
            on_message(&pool, generation, index, &event.data());
        }
    });
    let onerror = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
        event.prevent_default();
        let Some(inner) = weak.upgrade() else { return };
        let pool = Pool {
            inner,
            handler: handler.clone(),
        };
        if pool.inner.borrow().generation == generation {
            let message = crate::worker::js_message(&event);
            fall_back(&pool, format!("a sweep worker stopped: {message}"));
        }
    });
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    Ok(Slot {
        worker,
        ready: false,
        in_flight: 0,
        _callbacks: (onmessage, onerror),
    })
}

fn send(worker: &Worker, bytes: &[u8]) -> Result<(), JsValue> {
    bridge::post_bytes(worker, bytes)
}

/// Hands out runs to every ready worker with room.
fn fill(pool: &Pool) {
    let mut inner = pool.inner.borrow_mut();
    let Some(sweep) = inner.schedule.current() else {
        return;
    };
    let Inner {
        slots, schedule, ..
    } = &mut *inner;
    for slot in slots.iter_mut().filter(|s| s.ready) {
        while slot.in_flight < IN_FLIGHT {
            let Some(run) = schedule.next_run() else {
                return;
            };
            if send(&slot.worker, &encode(ToWorker::Run { sweep, run })).is_err() {
                return;
            }
            slot.in_flight += 1;
        }
    }
}

fn on_message(pool: &Pool, generation: u64, index: usize, data: &JsValue) {
    if pool.inner.borrow().generation != generation {
        return;
    }
    // The graveyard's callbacks are not running now (this is a live worker's).
    pool.inner.borrow_mut().graveyard.clear();
    let Some(array) = data.dyn_ref::<Uint8Array>() else {
        // The loader's plain object: the wasm could not start in the worker.
        let message = bridge::get(data, "message")
            .and_then(|m| m.as_string())
            .unwrap_or_default();
        fall_back(pool, message);
        return;
    };
    let bytes = array.to_vec();
    let message = match Response::decode(&bytes) {
        Ok(Response::Ready) => {
            let mut inner = pool.inner.borrow_mut();
            if let Some(slot) = inner.slots.get_mut(index) {
                slot.ready = true;
            }
            if let (Some(slot), Some(plan)) = (inner.slots.get(index), inner.plan_msg.as_ref()) {
                let _ = slot.worker.post_message(plan);
            }
            drop(inner);
            fill(pool);
            return;
        }
        Ok(Response::Sweep(m)) => m,
        Ok(Response::Error { message, .. }) => FromWorker::Error { message },
        Ok(_) => return,
        Err(e) => FromWorker::Error { message: e },
    };
    let event = {
        let mut inner = pool.inner.borrow_mut();
        let current = inner.schedule.current();
        match message {
            FromWorker::Done {
                sweep,
                run,
                shares,
                totals,
            } => {
                if let Some(slot) = inner.slots.get_mut(index) {
                    slot.in_flight = slot.in_flight.saturating_sub(1);
                }
                inner.schedule.accept(sweep, run).then_some(Event::Done {
                    sweep,
                    run,
                    shares,
                    totals,
                })
            }
            FromWorker::Refused {
                sweep, problems, ..
            } => {
                if let Some(slot) = inner.slots.get_mut(index) {
                    slot.in_flight = slot.in_flight.saturating_sub(1);
                }
                (current == Some(sweep)).then_some(Event::Refused { sweep, problems })
            }
            FromWorker::Error { message } => current.map(|sweep| Event::Failed { sweep, message }),
        }
    };
    let stop = matches!(event, Some(Event::Refused { .. } | Event::Failed { .. }));
    if stop {
        pool.cancel();
    } else {
        fill(pool);
    }
    if let Some(event) = event {
        (pool.handler)(event);
    }
}

/// One run on the page's thread, then the next in a later task (the page stays responsive
/// and a cancel or a new sweep is seen between runs).
fn local_tick(weak: Weak<RefCell<Inner>>, handler: Rc<dyn Fn(Event)>, sweep: u64) {
    let cb = Closure::once_into_js(move || {
        let Some(rc) = weak.upgrade() else { return };
        let (plan, run) = {
            let mut inner = rc.borrow_mut();
            if inner.schedule.current() != Some(sweep) {
                return;
            }
            let Some(run) = inner.schedule.next_run() else {
                return;
            };
            (inner.plan.clone(), run)
        };
        let Some(plan) = plan else { return };
        let message = match LOCAL.with(Cell::get) {
            Some(runs) => runs(&plan, sweep, run),
            None => FromWorker::Error {
                message: "this browser could not start the simulator's workers".into(),
            },
        };
        let event = {
            let mut inner = rc.borrow_mut();
            match message {
                FromWorker::Done {
                    sweep,
                    run,
                    shares,
                    totals,
                } => inner.schedule.accept(sweep, run).then_some(Event::Done {
                    sweep,
                    run,
                    shares,
                    totals,
                }),
                FromWorker::Refused { problems, .. } => {
                    inner.schedule.cancel();
                    Some(Event::Refused { sweep, problems })
                }
                FromWorker::Error { message } => {
                    inner.schedule.cancel();
                    Some(Event::Failed { sweep, message })
                }
            }
        };
        let more = rc.borrow().schedule.current() == Some(sweep);
        if let Some(event) = event {
            handler(event);
        }
        if more {
            local_tick(Rc::downgrade(&rc), handler, sweep);
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), 0);
    }
}
