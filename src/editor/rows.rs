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

/// The rows of a list: `row(i)` for each position `i` below `len`. The row a person adds is
/// built in the task that adds it; rows that lists gain many at once (a scenario opened or
/// pasted: an imported trace's shares and jobs; a form shown with its lists) are built from
/// the next task on, a few milliseconds' worth per task, the page's lists in turn
/// ([`pace`]), so building the form never holds the page for long (issue #30).
#[component]
pub fn Rows(
    #[prop(into)] len: Signal<usize>,
    row: Arc<dyn Fn(usize) -> AnyView + Send + Sync>,
) -> impl IntoView {
    let shown = pace::growing(len);
    view! {
        <div class="rows">
            <For each=move || 0..shown.get() key=|i| *i children=move |i| row(i) />
        </div>
    }
}

pub use pace::{rows_pending, set_task_budget_ms, ROWS_AT_ONCE, TASK_BUDGET_MS};

/// How many rows of each list are built while lists catch up with their length.
mod pace {
    use std::cell::{Cell, RefCell};
    use std::time::Duration;

    use leptos::prelude::*;

    use crate::state::runner::now_ms;

    /// Rows added one at a time (a person's "Add", an undone removal) that the page's lists
    /// build in the task that adds them; more follow in later tasks, as do the rows of a
    /// list that grows by more than one (a scenario opened or pasted, a form shown with its
    /// lists): the task that replaces a form already drops the old rows and restyles the
    /// page, and building rows in it too took it over 50 ms on large scenarios.
    pub const ROWS_AT_ONCE: usize = 4;
    /// Milliseconds each later task spends building rows, the first lists first: a row at
    /// a time while the task is under it (at least one row a task). A workload row is
    /// about 200 elements, 5-10 ms to build in the page; the page's layout of the new rows
    /// follows in the frame after, so a task with its frame stays well under 50 ms.
    pub const TASK_BUDGET_MS: f64 = 8.0;

    thread_local! {
        /// Rows still to build in this task ([`ROWS_AT_ONCE`] each task: `None` until a list
        /// asks; renewed once the task ends).
        static AT_ONCE: Cell<Option<usize>> = const { Cell::new(None) };
        /// The lists catching up, in the order they asked.
        static WAITING: RefCell<Vec<Grower>> = const { RefCell::new(Vec::new()) };
        /// [`TASK_BUDGET_MS`], or what a test set ([`set_task_budget_ms`]).
        static BUDGET_MS: Cell<f64> = const { Cell::new(TASK_BUDGET_MS) };
    }

    /// Sets the milliseconds each later task spends building rows (tests: 0 builds one row
    /// a task, a large budget all of them in one).
    pub fn set_task_budget_ms(ms: f64) {
        BUDGET_MS.with(|b| b.set(ms));
    }

    /// A list catching up: its length and how many of its rows are built.
    #[derive(Clone, Copy)]
    struct Grower {
        len: Signal<usize>,
        shown: RwSignal<usize>,
    }

    impl Grower {
        /// Rows still to build, `None` once the list is gone.
        fn behind(&self) -> Option<usize> {
            let (want, now) = (
                self.len.try_get_untracked()?,
                self.shown.try_get_untracked()?,
            );
            Some(want.saturating_sub(now))
        }
    }

    /// How many of `want` new rows of a list to build in this task: the one row of a growth
    /// by one, while this task's [`ROWS_AT_ONCE`] lasts; none of a larger growth.
    fn at_once(want: usize) -> usize {
        if want != 1 {
            return 0;
        }
        AT_ONCE.with(|b| {
            let left = b.get().unwrap_or_else(|| {
                set_timeout(|| AT_ONCE.with(|b| b.set(None)), Duration::ZERO);
                ROWS_AT_ONCE
            });
            let n = want.min(left);
            b.set(Some(left - n));
            n
        })
    }

    /// Whether some list is still building rows (for tests that wait for a whole form).
    pub fn rows_pending() -> bool {
        WAITING.with(|w| !w.borrow().is_empty())
    }

    /// Queues `g`; the first list queued starts the tasks that build the rows.
    fn wait(g: Grower) {
        let first = WAITING.with(|w| {
            let mut w = w.borrow_mut();
            if w.iter().any(|x| x.shown == g.shown) {
                return false;
            }
            w.push(g);
            w.len() == 1
        });
        if first {
            set_timeout(next_task, Duration::ZERO);
        }
    }

    /// A later task's rows: one row, then more while the task is under its budget
    /// ([`TASK_BUDGET_MS`]); then the next task, while some list waits.
    fn next_task() {
        next_row(now_ms());
    }

    /// One row of the first list waiting (lists that are gone or caught up leave the
    /// queue). The row is built by the reactive flush the change queues; the microtask
    /// queued after it reads the clock once the row is built, and builds the next row in
    /// the same task if the task `started` under the budget's milliseconds ago.
    fn next_row(started: f64) {
        let first = WAITING.with(|w| {
            let mut w = w.borrow_mut();
            while let Some(&g) = w.first() {
                match g.behind() {
                    Some(behind) if behind > 0 => return Some((g, behind)),
                    _ => {
                        w.remove(0);
                    }
                }
            }
            None
        });
        let Some((g, behind)) = first else { return };
        g.shown.set(g.shown.get_untracked() + 1);
        let more = WAITING.with(|w| {
            let mut w = w.borrow_mut();
            if behind == 1 {
                w.retain(|x| x.shown != g.shown);
            }
            !w.is_empty()
        });
        if more {
            queue_microtask(move || {
                if now_ms() - started < BUDGET_MS.with(Cell::get) {
                    next_row(started);
                } else {
                    set_timeout(next_task, Duration::ZERO);
                }
            });
        }
    }

    /// How many rows of a list of `len` are built: all of them, except while it catches up
    /// with a growth (a shrink is at once).
    pub fn growing(len: Signal<usize>) -> Signal<usize> {
        // A list mounted with one row shows it at once; with more, from the next task.
        let start = len.get_untracked();
        let shown = RwSignal::new(at_once(start));
        let g = Grower { len, shown };
        if shown.get_untracked() < start {
            wait(g);
        }
        Effect::new(move |_| {
            let want = len.get();
            let now = shown.get_untracked();
            if want <= now {
                if want < now {
                    shown.set(want);
                }
                return;
            }
            let n = at_once(want - now);
            if n > 0 {
                shown.set(now + n);
            }
            if now + n < want {
                wait(g);
            }
        });
        shown.into()
    }
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
