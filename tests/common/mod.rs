//! Helpers shared by the wasm component tests (`mod common;` in each test file that needs
//! them).
#![allow(dead_code)]

use leptos::prelude::window;

/// Waits `ms` milliseconds of real time (for the network, observers and frames).
pub async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}
