//! The lists of the forms (shares, cohorts, workloads, jobs, events): a row per entry with
//! its head, the button under a list that adds an entry and the one that removes a row.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::{json, Value};

use super::context::{use_ed, Ed};
use super::path::Path;

/// The length of the list at the document's key `list` (0 while there is none).
pub fn list_len(ed: Ed, list: &'static str) -> Memo<usize> {
    Memo::new(move |_| ed.doc.with(|d| d.list_len(list)))
}

/// Appends `item` to the list at the document's key `list`, creating the list if need be.
pub fn push_to(doc: &mut Value, list: &str, item: Value) {
    match doc.get_mut(list).and_then(Value::as_array_mut) {
        Some(a) => a.push(item),
        None => Path::root().key(list).set(doc, Some(json!([item]))),
    }
}

/// The `key` of each entry of the list at the document's key `list`, where it is a string
/// (the shares' names, the jobs' ids), in order.
pub fn names_in(doc: &Value, list: &str, key: &str) -> Vec<String> {
    doc.get(list)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|e| e.get(key).and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether what names an entry of `list` (its `key`) follows when the entry is renamed from
/// `old` to `new` (the document already renamed): not when the name is unchanged, nor when
/// either name is (or was) also another entry's.
pub fn rename_follows(doc: &Value, list: &str, key: &str, old: &str, new: &str) -> bool {
    let count = |name: &str| {
        doc.get(list).and_then(Value::as_array).map_or(0, |a| {
            a.iter()
                .filter(|e| e.get(key).and_then(Value::as_str) == Some(name))
                .count()
        })
    };
    old != new && count(old) == 0 && count(new) <= 1
}

/// The text at a row's name (empty while it has none), for the accessible names of the row
/// and of its buttons.
pub fn text_of(value: Memo<Option<Value>>) -> Signal<String> {
    Signal::derive(move || {
        value
            .get()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    })
}

/// The accessible name of the row of an entry that has a name: what the entry is, its
/// position from 1 and its name ("Quota share 2: medium").
pub fn numbered(kind: &'static str, index: usize, name: Signal<String>) -> Signal<String> {
    Signal::derive(move || format!("{kind} {}: {}", index + 1, name.get()))
}

/// The rows of a list: `row(i)` for each position `i` below `len`. A list that grows by many
/// rows at once (a scenario opened: an imported trace's shares and jobs) gets its first
/// [`ROWS_AT_ONCE`] at once and the others [`ROWS_PER_TASK`] per task after ([`growing`]),
/// so building the form never holds the page for long (issue #30).
#[component]
pub fn Rows(
    #[prop(into)] len: Signal<usize>,
    row: Arc<dyn Fn(usize) -> AnyView + Send + Sync>,
) -> impl IntoView {
    let shown = growing(len);
    view! {
        <div class="rows">
            <For each=move || 0..shown.get() key=|i| *i children=move |i| row(i) />
        </div>
    }
}

/// Rows built in the task that opens a scenario; the rest follow in later tasks.
pub const ROWS_AT_ONCE: usize = 8;
/// Rows built per later task.
pub const ROWS_PER_TASK: usize = 4;

/// How many rows of a list of `len` are built: all of them, except while a list that grew by
/// more than [`ROWS_AT_ONCE`] catches up, [`ROWS_PER_TASK`] more in each task (a shrink is
/// at once).
fn growing(len: Signal<usize>) -> Signal<usize> {
    let shown = RwSignal::new(len.get_untracked().min(ROWS_AT_ONCE));
    // Whether a later task is already adding rows.
    let catching_up = StoredValue::new(false);
    fn step(len: Signal<usize>, shown: RwSignal<usize>, catching_up: StoredValue<bool>) {
        let next = move || {
            let (Some(want), Some(now)) = (len.try_get_untracked(), shown.try_get_untracked())
            else {
                return; // the list is gone
            };
            if now < want {
                shown.set((now + ROWS_PER_TASK).min(want));
            }
            if shown.get_untracked() < len.get_untracked() {
                step(len, shown, catching_up);
            } else {
                catching_up.set_value(false);
            }
        };
        set_timeout(next, std::time::Duration::ZERO);
    }
    Effect::new(move |first: Option<()>| {
        let want = len.get();
        let now = shown.get_untracked();
        // The first rows of a list just built are already this task's.
        let at_once = if first.is_none() { 0 } else { ROWS_AT_ONCE };
        if want <= now + at_once {
            shown.set(want);
        } else if !catching_up.get_value() {
            shown.set(now + at_once);
            catching_up.set_value(true);
            step(len, shown, catching_up);
        }
    });
    shown.into()
}

/// One entry of a list: a group named `what` for screen readers, its head (its index, its
/// name, its buttons), then its fields. A generic function, not a component with children
/// (boxed), like [`super::fields::Shell`]: it keeps the page's wasm small.
pub fn row(
    class: &'static str,
    testid: &'static str,
    what: Signal<String>,
    head: impl IntoView,
    fields: impl IntoView,
) -> impl IntoView {
    view! {
        <div class=class data-testid=testid role="group" aria-label=move || what.get()>
            <div class="row-head">{head}</div>
            {fields}
        </div>
    }
}

/// The button under a list that appends `item(doc)` to the list at the document's key
/// `list`.
#[component]
pub fn AddButton(
    list: &'static str,
    item: fn(&Value) -> Value,
    testid: &'static str,
    text: &'static str,
) -> impl IntoView {
    let ed = use_ed();
    let add = move |_| {
        let add = |doc: &mut Value| {
            let new = item(doc);
            push_to(doc, list, new);
        };
        // A new job's id is unique among all the jobs, kept as text or not.
        if list == "jobs" {
            ed.edit_whole(add)
        } else {
            ed.edit(add)
        }
    };
    view! {
        <button type="button" class="add" data-testid=testid on:click=add>
            {text}
        </button>
    }
}

/// A remove button for `path` (an item of a list).
#[component]
pub fn RemoveButton(path: Path, #[prop(into)] what: Signal<String>) -> impl IntoView {
    let ed = use_ed();
    view! {
        <button
            type="button"
            class="icon-button danger"
            aria-label=move || format!("Remove {}", what.get())
            title=move || format!("Remove {}", what.get())
            on:click=move |_| ed.set(&path, None)
        >
            "✕"
        </button>
    }
}
