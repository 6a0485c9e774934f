//! What the two import dialogs (the CSV trace's, [`super::trace_form`], and the
//! configuration's, [`super::config`]) share: opening and closing one, its head with the
//! Close button, a labelled field of its form and its file picker.

use leptos::html;
use leptos::prelude::*;

/// Opens `dialog` as a modal, unless it is open already.
pub fn open(dialog: NodeRef<html::Dialog>) {
    if let Some(d) = dialog.get_untracked() {
        if !d.open() {
            // Not expected (an open dialog is skipped above); said, so that a click that
            // opens nothing is never silent.
            if let Err(e) = d.show_modal() {
                leptos::logging::error!("Quota Lab: a dialog could not open: {e:?}");
            }
        }
    }
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
