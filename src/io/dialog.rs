//! What the two import dialogs (the CSV trace's, [`super::trace_form`], and the
//! configuration's, [`super::config`]) share: opening and closing one, its head with the
//! Close button, a labelled field of its form and its file picker.

use leptos::html;
use leptos::prelude::*;

/// Opens `dialog` as a modal, unless it is open already; when it closes (its Close button,
/// Escape, an import), the focus goes back to what had it before, once the page is drawn.
///
/// The browser would give it back itself, inside `close()`: focusing an element first works
/// out the style of the whole page, which the modal's end has just changed (no part is inert
/// any more), so a close took 10-50 ms of one task (issue #30: a long task in the CSV
/// import). Here the element that had the focus loses it before the modal opens (the
/// browser then has nothing to give back) and gets it again after the next frame, whose
/// style work the browser does anyway.
pub fn open(dialog: NodeRef<html::Dialog>) {
    use wasm_bindgen::JsCast;
    let Some(d) = dialog.get_untracked() else {
        return;
    };
    if d.open() {
        return;
    }
    let opener = document()
        .active_element()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .filter(|e| !e.is_same_node(document().body().as_deref().map(AsRef::as_ref)));
    if let Some(opener) = &opener {
        let _ = opener.blur();
        give_focus_back_on_close(&d, opener.clone());
    }
    // Not expected (an open dialog is skipped above); said, so that a click that opens
    // nothing is never silent.
    if let Err(e) = d.show_modal() {
        leptos::logging::error!("Quota Lab: a dialog could not open: {e:?}");
    }
}

/// When `dialog` next closes, `opener` gets the focus after the next frame, if it is still in
/// the page and nothing outside the dialog took the focus meanwhile.
fn give_focus_back_on_close(dialog: &web_sys::HtmlDialogElement, opener: web_sys::HtmlElement) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let inside = dialog.clone();
    let on_close = Closure::once_into_js(move || {
        request_animation_frame(move || {
            set_timeout(
                move || {
                    // Nothing has the focus, or what the closed dialog held still does.
                    let free = document().active_element().is_none_or(|a| {
                        a.is_same_node(document().body().as_deref().map(AsRef::as_ref))
                            || inside.contains(Some(&a))
                    });
                    if free && opener.is_connected() {
                        let _ = opener.focus();
                    }
                },
                std::time::Duration::ZERO,
            )
        })
    });
    let options = web_sys::AddEventListenerOptions::new();
    options.set_once(true);
    let _ = dialog.add_event_listener_with_callback_and_add_event_listener_options(
        "close",
        on_close.unchecked_ref(),
        &options,
    );
}

/// Closes `dialog`.
pub fn close(dialog: NodeRef<html::Dialog>) {
    if let Some(d) = dialog.get_untracked() {
        d.close();
    }
}

/// Empties the file inputs of `dialog` (the box no longer names a file given before).
pub fn clear_file_inputs(dialog: NodeRef<html::Dialog>) {
    use wasm_bindgen::JsCast;
    let Some(d) = dialog.get_untracked() else {
        return;
    };
    let Ok(list) = d.query_selector_all("input[type=file]") else {
        return;
    };
    for i in 0..list.length() {
        if let Some(input) = list
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            input.set_value("");
        }
    }
}

/// A dialog's head: its heading (id `heading_id`, for the dialog's `aria-labelledby`) and a
/// Close button that closes `dialog`.
pub fn head(
    dialog: NodeRef<html::Dialog>,
    heading_id: &'static str,
    title: &'static str,
) -> impl IntoView {
    view! {
        <div class="trace-dialog-head">
            <h2 id=heading_id>{title}</h2>
            <button type="button" class="trace-close" aria-label="Close" on:click=move |_| close(dialog)>
                "Close"
            </button>
        </div>
    }
}

/// A labelled control of a dialog's form (the label `for` the control's id, when it has
/// one), with a hint under it when there is one.
pub fn field(
    label: &'static str,
    id: Option<String>,
    hint: String,
    control: impl IntoView,
) -> impl IntoView {
    view! {
        <label class="trace-field" for=id>
            <span class="trace-label">{label}</span>
            {control}
            {(!hint.is_empty()).then(|| view! { <small>{hint}</small> })}
        </label>
    }
}

/// A dialog's file input under `label`, accepting `accept` (several files when
/// `multiple`); `on_pick` is given the input's `change` event.
pub fn file_picker(
    label: &'static str,
    accept: &'static str,
    multiple: bool,
    testid: &'static str,
    on_pick: impl FnMut(leptos::ev::Event) + 'static,
) -> impl IntoView {
    view! {
        <label class="trace-file">
            <span class="trace-label">{label}</span>
            <input
                type="file"
                multiple=multiple
                accept=accept
                data-testid=testid
                // Picking the same (edited) file again must fire `change` again.
                on:click=move |ev| {
                    event_target::<web_sys::HtmlInputElement>(&ev).set_value("");
                }
                on:change=on_pick
            />
        </label>
    }
}
