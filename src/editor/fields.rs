//! Form fields bound to one JSON path of the scenario: each shows the value at its path,
//! writes its edits there, and shows the validator's problems for that path beside it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use leptos::attr::Attribute;
use leptos::prelude::*;
use serde_json::Value;

use super::context::{use_ed, Ed};
use super::json;
use super::path::Path;

/// Called inside the same edit after a select changed: `(document, new value)`.
pub type ChangeHook = Arc<dyn Fn(&mut Value, &Value) + Send + Sync>;

/// Called inside the same edit after a text field changed: `(document, old, new)`.
pub type RenameHook = fn(&mut Value, &str, &str);

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// A page-unique element id.
pub fn next_id(prefix: &str) -> String {
    format!("{prefix}-{}", NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

/// Registers `path` as shown here, by the field labelled `label` (its messages are worded
/// with it); returns whether it has errors, and the view of its messages
/// (`span.field-error` per error, `span.field-warning` per warning) with id `msg_id` for
/// `aria-describedby`.
pub fn claim(ed: Ed, path: &Path, label: &str, msg_id: String) -> (Memo<bool>, impl IntoView) {
    let key = path.to_string();
    ed.register(key.clone(), label.to_string());
    let messages = ed.messages(key);
    let invalid = Memo::new(move |_| messages.with(|(e, _)| !e.is_empty()));
    let view = move || {
        let (errors, warnings) = messages.get();
        (!errors.is_empty() || !warnings.is_empty()).then(|| {
            view! {
                <span class="field-messages" id=msg_id.clone()>
                    {errors
                        .into_iter()
                        .map(|m| {
                            view! {
                                <span class="field-error" data-testid="field-error">
                                    {m}
                                </span>
                            }
                        })
                        .collect_view()}
                    {warnings
                        .into_iter()
                        .map(|m| {
                            view! {
                                <span class="field-warning" data-testid="field-warning">
                                    {m}
                                </span>
                            }
                        })
                        .collect_view()}
                </span>
            }
        })
    };
    (invalid, view)
}

/// What a field bound to a path is made of: its control's id, the id of its messages (for
/// `aria-describedby`), whether the path has errors, the messages' view (see [`claim`]) and
/// the value at the path.
pub struct Bound {
    pub ed: Ed,
    pub id: String,
    pub msg_id: String,
    pub invalid: Memo<bool>,
    pub messages: AnyView,
    pub value: Memo<Option<Value>>,
}

impl Bound {
    /// The attributes of the field's control: its id, `aria-invalid` while the path has
    /// errors, and `aria-describedby` naming its messages.
    pub fn control(&self) -> impl Attribute {
        let invalid = self.invalid;
        view! {
            <{..}
                id=self.id.clone()
                aria-invalid=move || invalid.get().then_some("true")
                aria-describedby=self.msg_id.clone()
            />
        }
    }
}

/// Binds a field labelled `label` to `path`: claims the path's messages and reads its value.
pub fn bind(path: &Path, label: &str) -> Bound {
    let ed = use_ed();
    let id = next_id("f");
    let msg_id = next_id("m");
    let (invalid, messages) = claim(ed, path, label, msg_id.clone());
    Bound {
        ed,
        id,
        msg_id,
        invalid,
        messages: messages.into_any(),
        value: ed.value(path.clone()),
    }
}

/// The text typed into a field and the value it wrote: the field shows the text as typed
/// while the value is unchanged ("1.50" stays "1.50", the cursor stays put), else the value
/// as `display` writes it.
#[derive(Clone, Copy)]
struct Typed {
    typed: StoredValue<Option<(String, Option<Value>)>>,
    value: Memo<Option<Value>>,
    display: fn(Option<&Value>) -> String,
}

impl Typed {
    fn new(value: Memo<Option<Value>>, display: fn(Option<&Value>) -> String) -> Typed {
        Typed {
            typed: StoredValue::new(None),
            value,
            display,
        }
    }

    /// What the field shows.
    fn shown(self) -> String {
        let cur = self.value.get();
        if let Some((text, wrote)) = self.typed.get_value() {
            if wrote == cur {
                return text;
            }
        }
        (self.display)(cur.as_ref())
    }

    /// Writes `new`, read from the typed `text`, at `path` (a keystroke: see [`Ed::type_at`]).
    fn write(self, ed: Ed, path: &Path, text: String, new: Option<Value>) {
        self.typed.set_value(Some((text, new.clone())));
        ed.type_at(path, |doc| path.set(doc, new));
    }
}

/// A container's own problems (a whole row, a list): shown as a line, not beside an input.
#[component]
pub fn Messages(path: Path) -> impl IntoView {
    let ed = use_ed();
    let (_, view) = claim(ed, &path, "", next_id("m"));
    view! { <div class="row-messages">{view}</div> }
}

fn classes(base: &str, extra: Option<&'static str>) -> String {
    match extra {
        Some(c) => format!("{base} {c}"),
        None => base.to_string(),
    }
}

/// The shell every field shares around its control: a `div` of classes `class` with the
/// control's `<label for>`, the control (with what follows it: a hint, a note) and the
/// path's messages. Generic, not a component: each field's view stays one tree (no boxed
/// children), which keeps the page's wasm small.
pub struct Shell {
    class: String,
    id: String,
    label: String,
    label_suffix: Option<String>,
    messages: Option<AnyView>,
}

impl Shell {
    /// The shell of the control `id`, labelled `label`, without messages of its own.
    pub fn new(class: impl Into<String>, id: String, label: impl Into<String>) -> Shell {
        Shell {
            class: class.into(),
            id,
            label: label.into(),
            label_suffix: None,
            messages: None,
        }
    }

    /// The shell of the field bound in `f`: its control's id and its path's messages.
    pub fn of(f: Bound, class: impl Into<String>, label: impl Into<String>) -> Shell {
        Shell {
            messages: Some(f.messages),
            ..Shell::new(class, f.id, label)
        }
    }

    /// Words read by screen readers after the label (when the visible label relies on
    /// context).
    pub fn label_suffix(self, label_suffix: Option<String>) -> Shell {
        Shell {
            label_suffix,
            ..self
        }
    }

    fn label(id: String, label: String, suffix: Option<String>) -> impl IntoView {
        view! {
            <label for=id>
                {label}
                {suffix.map(|s| view! { <span class="visually-hidden">{s}</span> })}
            </label>
        }
    }

    /// The field: the label, then `control` and what follows it.
    pub fn around(self, control: impl IntoView) -> impl IntoView {
        view! {
            <div class=self.class>
                {Shell::label(self.id, self.label, self.label_suffix)}
                {control}
                {self.messages}
            </div>
        }
    }

    /// A checkbox's field, titled `title`: the box, then its label.
    pub fn around_box(self, checkbox: impl IntoView, title: MaybeProp<String>) -> impl IntoView {
        view! {
            <div class=self.class title=move || title.get()>
                {checkbox}
                {Shell::label(self.id, self.label, self.label_suffix)}
                {self.messages}
            </div>
        }
    }
}

/// A hint shown after a field's control, if it has one.
fn hint_view(hint: Option<Signal<String>>, testid: Option<&'static str>) -> impl IntoView {
    hint.map(|h| view! { <span class="field-hint" data-testid=testid>{move || h.get()}</span> })
}

/// A string field (names, ids).
#[component]
pub fn TextField(
    #[prop(into)] label: String,
    path: Path,
    /// Blank removes the key (else it writes "").
    #[prop(optional)]
    optional: bool,
    #[prop(optional)] testid: Option<&'static str>,
    #[prop(optional, into)] placeholder: Option<String>,
    /// Id of a `<datalist>` of suggestions.
    #[prop(optional, into)]
    list: Option<String>,
    #[prop(optional)] on_rename: Option<RenameHook>,
    #[prop(optional)] class: Option<&'static str>,
) -> impl IntoView {
    let f = bind(&path, &label);
    let (ed, value, control) = (f.ed, f.value, f.control());
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        ed.type_at(&path, |doc| {
            let old = path.get(doc).and_then(Value::as_str).map(str::to_string);
            let new = if text.is_empty() && optional {
                None
            } else {
                Some(Value::String(text.clone()))
            };
            path.set(doc, new);
            if let (Some(hook), Some(old)) = (on_rename, old) {
                hook(doc, &old, &text);
            }
        });
    };
    Shell::of(f, classes("field", class), label).around(view! {
        <input
            {..control}
            type="text"
            autocomplete="off"
            spellcheck="false"
            placeholder=placeholder
            list=list
            data-testid=testid
            prop:value=move || json::display(value.get().as_ref())
            on:input=on_input
        />
    })
}

/// A number field. Typed text that is not a number is written as a string, so that the
/// validator flags it here; blank removes an optional key (or writes null if required).
#[component]
pub fn NumField(
    #[prop(into)] label: String,
    path: Path,
    #[prop(optional)] required: bool,
    #[prop(optional, into)] placeholder: MaybeProp<String>,
    #[prop(optional)] testid: Option<&'static str>,
    #[prop(optional, into)] disabled: MaybeProp<bool>,
    #[prop(optional, into)] title: MaybeProp<String>,
    /// Shown after the input (e.g. the borrow limit in instances).
    #[prop(optional, into)]
    hint: Option<Signal<String>>,
    #[prop(optional)] hint_testid: Option<&'static str>,
    /// Whole numbers only (numeric keyboard on phones).
    #[prop(optional)]
    integer: bool,
    #[prop(optional)] class: Option<&'static str>,
    /// Read by screen readers after the label (when the visible label relies on context).
    #[prop(optional, into)]
    label_suffix: Option<String>,
) -> impl IntoView {
    let f = bind(&path, &label);
    let (ed, control) = (f.ed, f.control());
    let typed = Typed::new(f.value, json::display);
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        let new = match json::number_from_text(&text) {
            None if required => Some(Value::Null),
            other => other,
        };
        typed.write(ed, &path, text, new);
    };
    let shell = Shell::of(f, classes("field num", class), label).label_suffix(label_suffix);
    shell.around(view! {
        <input
            {..control}
            type="text"
            inputmode=if integer { "numeric" } else { "decimal" }
            autocomplete="off"
            placeholder=move || placeholder.get()
            title=move || title.get()
            data-testid=testid
            disabled=move || disabled.get().unwrap_or(false)
            prop:value=move || typed.shown()
            on:input=on_input
        />
        {hint_view(hint, hint_testid)}
    })
}

/// A true/false field.
#[component]
pub fn CheckField(
    #[prop(into)] label: String,
    path: Path,
    /// The value when the key is absent.
    #[prop(optional)]
    default: bool,
    #[prop(optional)] testid: Option<&'static str>,
    #[prop(optional, into)] title: MaybeProp<String>,
    #[prop(optional)] class: Option<&'static str>,
) -> impl IntoView {
    let f = bind(&path, &label);
    let (ed, value, control) = (f.ed, f.value, f.control());
    let checkbox = view! {
        <input
            {..control}
            type="checkbox"
            data-testid=testid
            prop:checked=move || value.get().and_then(|v| v.as_bool()).unwrap_or(default)
            on:change=move |ev| ed.set(&path, Some(Value::Bool(event_target_checked(&ev))))
        />
    };
    Shell::of(f, classes("field check", class), label).around_box(checkbox, title)
}

/// A choice among JSON values. An option whose value is `null` removes the key (e.g.
/// "unchanged"); a value not among the options is shown as an extra, invalid option.
#[component]
pub fn SelectField(
    #[prop(into)] label: String,
    path: Path,
    #[prop(into)] options: Signal<Vec<(Value, String)>>,
    /// The value shown when the key is absent (the default).
    #[prop(optional)]
    absent: Option<Value>,
    #[prop(optional)] testid: Option<&'static str>,
    #[prop(optional)] on_change: Option<ChangeHook>,
    #[prop(optional, into)] disabled: MaybeProp<bool>,
    /// Shown under the select (e.g. what the chosen strategy means).
    #[prop(optional, into)]
    hint: Option<Signal<String>>,
    #[prop(optional)] class: Option<&'static str>,
) -> impl IntoView {
    let f = bind(&path, &label);
    let (ed, value, control) = (f.ed, f.value, f.control());
    let current = Memo::new(move |_| {
        value
            .get()
            .or_else(|| absent.clone())
            .unwrap_or(Value::Null)
    });
    let shown = Memo::new(move |_| {
        let mut opts = options.get();
        let cur = current.get();
        if !opts.iter().any(|(v, _)| *v == cur) {
            let label = match &cur {
                Value::Null => "(not set)".to_string(),
                other => format!("{} (not valid)", json::display(Some(other))),
            };
            opts.push((cur, label));
        }
        opts
    });
    let selected = move || {
        let cur = current.get();
        shown
            .with(|o| o.iter().position(|(v, _)| *v == cur))
            .unwrap_or(0)
            .to_string()
    };
    let on_change_ev = move |ev| {
        let Ok(i) = event_target_value(&ev).parse::<usize>() else {
            return;
        };
        let Some(new) = shown.with_untracked(|o| o.get(i).map(|(v, _)| v.clone())) else {
            return;
        };
        let edit = |doc: &mut Value| {
            path.set(doc, (!new.is_null()).then(|| new.clone()));
            if let Some(hook) = &on_change {
                hook(doc, &new);
            }
        };
        // A job kept as text, or a hook that may read the jobs (a model switch clamps their
        // priorities): the whole document.
        if on_change.is_some() || ed.in_kept_jobs(&path) {
            ed.edit_whole(edit)
        } else {
            ed.edit(edit)
        }
    };
    Shell::of(f, classes("field select", class), label).around(view! {
        <select
            {..control}
            data-testid=testid
            disabled=move || disabled.get().unwrap_or(false)
            prop:value=selected
            on:change=on_change_ev
        >
            {move || {
                let sel = selected();
                shown
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(i, (_, label))| {
                        let v = i.to_string();
                        let is_sel = v == sel;
                        view! {
                            <option value=v selected=is_sel>
                                {label}
                            </option>
                        }
                    })
                    .collect_view()
            }}
        </select>
        {hint_view(hint, None)}
    })
}

/// Options for a select of strings.
pub fn string_options(values: &[&str]) -> Vec<(Value, String)> {
    values
        .iter()
        .map(|v| (Value::String(v.to_string()), v.to_string()))
        .collect()
}

/// A list of numbers typed as "0, 60, 120" (e.g. arrival times).
#[component]
pub fn NumberListField(
    #[prop(into)] label: String,
    path: Path,
    #[prop(optional, into)] placeholder: Option<String>,
) -> impl IntoView {
    let f = bind(&path, &label);
    let (ed, control) = (f.ed, f.control());
    let typed = Typed::new(f.value, |v| match v {
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| json::display(Some(v)))
            .collect::<Vec<_>>()
            .join(", "),
        other => json::display(other),
    });
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        let items: Vec<Value> = text
            .split([',', ' ', ';', '\n'])
            .filter(|t| !t.trim().is_empty())
            .filter_map(json::number_from_text)
            .collect();
        typed.write(ed, &path, text, Some(Value::Array(items)));
    };
    Shell::of(f, "field list", label).around(view! {
        <input
            {..control}
            type="text"
            autocomplete="off"
            placeholder=placeholder
            prop:value=move || typed.shown()
            on:input=on_input
        />
    })
}

/// Options for a select of names, each its own label.
fn name_options(names: Memo<Vec<String>>) -> Signal<Vec<(Value, String)>> {
    Signal::derive(move || {
        names
            .get()
            .into_iter()
            .map(|n| (Value::String(n.clone()), n))
            .collect()
    })
}

/// Options for a select of the scenario's shares.
pub fn share_options(ed: Ed) -> Signal<Vec<(Value, String)>> {
    name_options(ed.share_names)
}

/// Options for a job's or a workload's `priority_class` (SPEC 13: the scenario's
/// `priority_classes`, Kueue's WorkloadPriorityClasses when imported): "none" (its own
/// `priority`), then each class with its value. Empty when the scenario has no classes.
pub fn priority_class_options(ed: Ed) -> Memo<Vec<(Value, String)>> {
    Memo::new(move |_| {
        ed.doc.with(|d| {
            let Some(classes) = d.value.get("priority_classes").and_then(Value::as_object) else {
                return Vec::new();
            };
            if classes.is_empty() {
                return Vec::new();
            }
            let mut opts = vec![(Value::Null, "none: its own priority".to_string())];
            opts.extend(classes.iter().map(|(name, v)| {
                (
                    Value::String(name.clone()),
                    format!("{name} ({})", json::display(Some(v))),
                )
            }));
            opts
        })
    })
}

/// Options for a select of instance types (the scenario's own, then the catalogue).
pub fn type_options(ed: Ed) -> Signal<Vec<(Value, String)>> {
    name_options(ed.type_names)
}
