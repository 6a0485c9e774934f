//! The configuration worker's entry: Trunk's loader shim starts this module in a module
//! worker; `main` installs the message handler and posts [`Response::Ready`]. Every message
//! either way is postcard bytes ([`quotalab_config_worker`]).

#[cfg(target_arch = "wasm32")]
fn main() {
    use quotalab_config_worker::{decode_request, encode_response, handle, Envelope, Response};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    fn post(scope: &DedicatedWorkerGlobalScope, message: &Envelope<Response>) {
        let bytes = encode_response(message);
        let _ = scope.post_message(&js_sys::Uint8Array::from(&bytes[..]));
    }

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let bytes = js_sys::Uint8Array::new(&event.data()).to_vec();
        let reply = match decode_request(&bytes) {
            Ok(request) => Envelope {
                id: request.id,
                body: handle(request.body),
            },
            Err(e) => Envelope {
                id: 0,
                body: Response::Failed(e),
            },
        };
        post(&reply_scope, &reply);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(
        &scope,
        &Envelope {
            id: 0,
            body: Response::Ready,
        },
    );
}

/// Natively the worker is only a library ([`quotalab_config_worker::handle`]).
#[cfg(not(target_arch = "wasm32"))]
fn main() {}
