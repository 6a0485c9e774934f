//! A sweep worker's side: the Explore wasm running in a Web Worker
//! (`www/quotalab-explore-worker.js` calls the Explore binary's `explore_worker`). It plans the
//! sweep it is sent (the same [`Settings::plan`](super::settings::Settings) steps: the
//! engine's `parse_vary` and `Sweep::new`) and simulates the runs it is asked for, one
//! message each.

use std::cell::RefCell;

use js_sys::{Array, Uint8Array};
use quotalab_engine::analysis::sweep::{parse_vary, Sweep};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::pool::run_one;
use super::protocol::{FromWorker, ToWorker};

thread_local! {
    /// The sweep planned, with its number.
    static PLAN: RefCell<Option<(u64, Sweep)>> = const { RefCell::new(None) };
}

fn post(message: &FromWorker) {
    let array = Uint8Array::from(message.encode().as_slice());
    let buffer = array.buffer();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let _ = scope.post_message_with_transfer(&array, &Array::of1(&buffer));
}

/// Installs the message handler (and a panic hook that reports), then says it is ready.
pub fn worker_main() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        post(&FromWorker::Error {
            message: format!("internal error in a sweep worker: {info}"),
        });
    }));
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        if let Some(array) = event.data().dyn_ref::<Uint8Array>() {
            handle(&array.to_vec());
        }
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    post(&FromWorker::Ready);
}

fn handle(bytes: &[u8]) {
    match ToWorker::decode(bytes) {
        Ok(ToWorker::Plan {
            sweep,
            scenario,
            vary,
            seeds,
        }) => {
            let planned = parse_vary(vary)
                .map_err(|p| vec![p])
                .and_then(|v| Sweep::new(scenario, vec![v], seeds));
            match planned {
                Ok(plan) => PLAN.with(|p| *p.borrow_mut() = Some((sweep, plan))),
                Err(problems) => post(&FromWorker::Refused {
                    sweep,
                    run: u32::MAX,
                    problems: problems
                        .into_iter()
                        .map(|p| (p.path.to_string(), p.message))
                        .collect(),
                }),
            }
        }
        Ok(ToWorker::Run { sweep, run }) => {
            let reply = PLAN.with(|p| match &*p.borrow() {
                Some((id, plan)) if *id == sweep => Some(run_one(plan, sweep, run)),
                _ => None,
            });
            if let Some(reply) = reply {
                post(&reply);
            }
        }
        Err(message) => post(&FromWorker::Error { message }),
    }
}
