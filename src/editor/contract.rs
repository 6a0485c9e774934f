//! SPEC 14's fields in the forms: a job's or workload's `recovery`, `escalate` and
//! `on_retries_exhausted`, a share's `agreement` and the scenario's `alarms`, each in a
//! folded "Interruption contract" group. The numbers are one table ([`JOB_NUMBERS`]);
//! every message is the engine validator's, shown beside its field as elsewhere.
//!
//! An object emptied by its fields (`recovery`, `escalate`, `agreement`) is removed, so
//! that clearing them gives back the scenario without SPEC 14 (whose results carry no
//! contract report).

use leptos::prelude::*;
use serde_json::{json, Value};

use super::context::{use_ed, Ed};
use super::fields::{bind, next_id, Messages, NumField, SelectField, Shell};
use super::json;
use super::path::Path;

/// A number of a SPEC 14 object: its keys below the row, label, placeholder, whole or not.
pub struct Number {
    pub at: &'static [&'static str],
    pub label: &'static str,
    pub placeholder: &'static str,
    pub integer: bool,
}

const fn num(
    at: &'static [&'static str],
    label: &'static str,
    placeholder: &'static str,
    integer: bool,
) -> Number {
    Number {
        at,
        label,
        placeholder,
        integer,
    }
}

/// The numbers of a job's or workload's contract, in form order.
pub const JOB_NUMBERS: &[Number] = &[
    num(
        &["recovery", "restore_failure"],
        "Restore failure (0–1)",
        "0",
        false,
    ),
    num(
        &["recovery", "invalid_resume"],
        "Invalid resume (0–1)",
        "0",
        false,
    ),
    num(
        &["escalate", "before_deadline_s"],
        "Escalate before deadline (s)",
        "never",
        false,
    ),
    num(
        &["escalate", "to_priority"],
        "Escalate to priority",
        "",
        true,
    ),
];

/// The texts of a share's agreement: key, label.
pub const AGREEMENT_TEXTS: &[(&str, &str)] = &[
    ("owner", "Owner"),
    ("rationale", "Rationale"),
    ("interruption_contract", "Interruption contract"),
    ("review_by", "Review by"),
];

fn path_of(base: &Path, at: &[&str]) -> Path {
    at.iter().fold(base.clone(), |p, k| p.key(k))
}

/// Removes the objects at `keys` under `base` that their fields emptied. Called as the
/// input event of a field bubbles up, after the field's own edit: the keystroke's step of
/// the undo history takes both (the history records once, after the event).
fn prune(ed: Ed, base: &Path, keys: &[&str]) {
    ed.edit(|doc| {
        for k in keys {
            let p = base.key(k);
            if p.get(doc)
                .and_then(Value::as_object)
                .is_some_and(|m| m.is_empty())
            {
                p.set(doc, None);
            }
        }
    });
}

/// A folded group that is open while the row has one of `keys` (under `base`) or a problem
/// lies there, else folded. Its fields are built when it first opens: a folded group in each
/// job and each share is a large part of a large scenario's form (issue #30).
#[component]
fn Group(
    title: &'static str,
    testid: &'static str,
    base: Path,
    keys: &'static [&'static str],
    children: Children,
) -> impl IntoView {
    let ed = use_ed();
    let node = NodeRef::<leptos::html::Details>::new();
    let prefixes: Vec<String> = keys.iter().map(|k| base.key(k).to_string()).collect();
    let at = base.clone();
    let present = Memo::new(move |_| {
        ed.doc
            .with(|d| keys.iter().any(|k| d.at(&at.key(k)).is_some()))
    });
    let problems = ed.app.problems;
    let inside = Memo::new(move |_| {
        problems.with(|ps| {
            ps.iter().any(|p| {
                let at = p.path.to_string();
                prefixes.iter().any(|f| json::path_within(&at, f))
            })
        })
    });
    let open = present.get_untracked();
    let built = RwSignal::new(open);
    let build = move || {
        if !built.get_untracked() {
            built.set(true);
        }
    };
    // Opens when the row gains one of its fields (a preset, an undo) or a problem in it.
    Effect::new(move |_| {
        let (has, bad) = (present.get(), inside.get());
        if let (true, Some(d)) = (has || bad, node.get()) {
            d.set_open(true);
            build();
        }
    });
    let children = StoredValue::new_local(Some(children));
    let fields = move || {
        built.get().then(|| {
            children
                .try_update_value(Option::take)
                .flatten()
                .map(|c| c())
        })
    };
    view! {
        <details
            class="ed-group contract-group"
            open=open
            node_ref=node
            data-testid=testid
            on:input=move |_| prune(ed, &base, keys)
            on:toggle=move |_| {
                if node.get_untracked().is_some_and(|d| d.open()) {
                    build();
                }
            }
        >
            <summary>{title}</summary>
            {fields}
        </details>
    }
}

/// `on_retries_exhausted`: fail (the default: no key) or resubmit to another share, with an
/// optional priority.
#[component]
fn RetriesExhausted(base: Path) -> impl IntoView {
    let ed = use_ed();
    let path = base.key("on_retries_exhausted");
    let value = ed.value(path.clone());
    let own = ed.value(base.key("share"));
    // Fail, then a resubmission to each other share (the current one as written).
    let options = Signal::derive(move || {
        let cur = value.get();
        let mut o = vec![(Value::Null, "fail (as AWS)".to_string())];
        if cur.as_ref().and_then(Value::as_str) == Some("fail") {
            o.push((json!("fail"), "fail".to_string()));
        }
        let own = own.get();
        for n in ed.share_names.get() {
            if own.as_ref().and_then(Value::as_str) == Some(n.as_str()) {
                continue;
            }
            let to = |v: &Value| v.pointer("/resubmit/share").and_then(Value::as_str) == Some(&n);
            let v = cur
                .clone()
                .filter(to)
                .unwrap_or_else(|| json!({"resubmit": {"share": n}}));
            o.push((v, format!("resubmit to {n}")));
        }
        o
    });
    let resubmit = Memo::new(move |_| value.with(|v| matches!(v, Some(Value::Object(_)))));
    let r = path.key("resubmit");
    view! {
        <SelectField label="When retries run out" path=path.clone() options=options testid="retries-exhausted" />
        {move || {
            resubmit
                .get()
                .then(|| {
                    view! { <NumField label="With priority" path=r.key("priority") placeholder="its own" integer=true /> }
                })
        }}
        <Messages path=path.clone() />
    }
}

/// A job's or workload's SPEC 14 fields (`base`: the row's path).
#[component]
pub fn JobContractFields(base: Path) -> impl IntoView {
    let numbers = JOB_NUMBERS
        .iter()
        .map(|n| {
            view! {
                <NumField
                    path=path_of(&base, n.at)
                    label=n.label
                    placeholder=n.placeholder
                    integer=n.integer
                />
            }
        })
        .collect_view();
    view! {
        <Group
            title="Interruption contract"
            testid="contract-fields"
            base=base.clone()
            keys=&["recovery", "escalate", "on_retries_exhausted"]
        >
            <div class="grid-fields compact">
                {numbers}
                <RetriesExhausted base=base.clone() />
            </div>
            <Messages path=base.key("recovery") />
            <Messages path=base.key("escalate") />
        </Group>
    }
}

/// One text of an agreement (plain text, at most 2,000 characters: the validator says so).
#[component]
fn AgreementText(path: Path, label: &'static str) -> impl IntoView {
    long_text(path, label, "field text", "agreement-text")
}

/// A free text of several lines at `path` (blank removes the key): an agreement's texts,
/// the scenario's description.
pub fn long_text(
    path: Path,
    label: &'static str,
    class: &'static str,
    testid: &'static str,
) -> impl IntoView {
    let f = bind(&path, label);
    let (ed, value, control) = (f.ed, f.value, f.control());
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        ed.type_at(&path, |doc| {
            path.set(doc, (!text.is_empty()).then_some(Value::String(text)))
        });
    };
    Shell::of(f, class, label).around(view! {
        <textarea
            {..control}
            rows="2"
            spellcheck="true"
            data-testid=testid
            prop:value=move || json::display(value.get().as_ref())
            on:input=on_input
        ></textarea>
    })
}

/// A share's `agreement` (`base`: the share's path).
#[component]
pub fn AgreementFields(base: Path) -> impl IntoView {
    let a = base.key("agreement");
    let texts = AGREEMENT_TEXTS
        .iter()
        .map(|(k, label)| view! { <AgreementText path=a.key(k) label=*label /> })
        .collect_view();
    view! {
        <Group title="Agreement" testid="agreement-fields" base=base.clone() keys=&["agreement"]>
            <div class="agreement-fields">{texts}</div>
            <Messages path=a.clone() />
        </Group>
    }
}

/// The scenario's `alarms`: whether the results carry the contract report, and after how
/// many preemptions of one job an alarm is raised.
#[component]
pub fn AlarmsFields() -> impl IntoView {
    let ed = use_ed();
    let path = Path::root().key("alarms");
    let value = ed.value(path.clone());
    let on = Memo::new(move |_| value.with(Option::is_some));
    let id = next_id("f");
    let p = path.clone();
    let checkbox = view! {
        <input
            id=id.clone()
            type="checkbox"
            data-testid="alarms-on"
            prop:checked=move || on.get()
            on:change=move |ev| ed.set(&p, event_target_checked(&ev).then(|| json!({})))
        />
    };
    let label = "Report recovery and alarms for every run";
    view! {
        <div class="row-fields">
            {Shell::new("field check", id, label).around_box(checkbox, MaybeProp::default())}
            <NumField
                path=path.key("repeated_preemptions")
                label="Alarm at preemptions"
                placeholder="3"
                integer=true
                testid="alarms-k"
            />
        </div>
        <Messages path=path.clone() />
    }
}
