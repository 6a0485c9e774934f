//! Form controls bound to a signal.

use leptos::prelude::*;

/// A checkbox (test id `testid`) bound to `on`.
pub fn checkbox(testid: &'static str, on: RwSignal<bool>) -> impl IntoView {
    view! {
        <input
            type="checkbox"
            data-testid=testid
            prop:checked=move || on.get()
            on:change=move |ev| on.set(event_target_checked(&ev))
        />
    }
}
