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
use super::fields::{bind, share_options, Bound, Messages, SelectField};
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
    at.iter().fold(base.clone(), |p, k| p.key(*k))
}

/// Sets `path` to `new`; when that empties its parent object (`prune`), removes the parent.
fn write(ed: Ed, path: &Path, new: Option<Value>, prune: bool) {
    ed.type_at(path, |doc| {
        path.set(doc, new);
        if let Some((parent, _)) = path.split_last() {
            let empty = parent
                .get(doc)
                .and_then(Value::as_object)
                .is_some_and(|m| m.is_empty());
            if prune && empty {
                parent.set(doc, None);
            }
        }
    });
}

/// A number of SPEC 14 at `path`: a blank removes it (and its emptied parent object when
/// `prune`); text that is not a number is written as a string, for the validator to name.
#[component]
pub fn ContractNumber(
    path: Path,
    label: &'static str,
    #[prop(optional)] placeholder: &'static str,
    #[prop(optional)] integer: bool,
    #[prop(optional)] prune: bool,
    #[prop(optional)] testid: Option<&'static str>,
) -> impl IntoView {
    let Bound {
        ed,
        id,
        msg_id,
        invalid,
        messages,
        value,
    } = bind(&path, label);
    // What was typed, and the value it wrote: shown as typed while that value stands.
    let typed = StoredValue::new(None::<(String, Option<Value>)>);
    let shown = move || {
        let cur = value.get();
        match typed.get_value() {
            Some((text, wrote)) if wrote == cur => text,
            _ => json::display(cur.as_ref()),
        }
    };
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        let new = json::number_from_text(&text);
        typed.set_value(Some((text, new.clone())));
        write(ed, &path, new, prune);
    };
    view! {
        <div class="field num">
            <label for=id.clone()>{label}</label>
            <input
                id=id
                type="text"
                inputmode=if integer { "numeric" } else { "decimal" }
                autocomplete="off"
                placeholder=placeholder
                data-testid=testid
                aria-invalid=move || invalid.get().then_some("true")
                aria-describedby=msg_id
                prop:value=shown
                on:input=on_input
            />
            {messages}
        </div>
    }
}

/// A folded group that is open while the row has one of `keys` (under `base`) or a problem
/// lies there, else folded.
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
    let prefixes: Vec<String> = keys.iter().map(|k| base.key(*k).to_string()).collect();
    let present = Memo::new(move |_| {
        ed.doc
            .with(|d| keys.iter().any(|k| base.key(*k).get(&d.value).is_some()))
    });
    let problems = ed.app.problems;
    let inside = Memo::new(move |_| {
        problems.with(|ps| {
            ps.iter()
                .any(|p| prefixes.iter().any(|f| json::path_within(&p.path, f)))
        })
    });
    // Opens when the row gains one of its fields (a preset, an undo) or a problem in it.
    Effect::new(move |_| {
        let (has, bad) = (present.get(), inside.get());
        if let (true, Some(d)) = (has || bad, node.get()) {
            d.set_open(true);
        }
    });
    let open = present.get_untracked();
    view! {
        <details class="ed-group contract-group" open=open node_ref=node data-testid=testid>
            <summary>{title}</summary>
            {children()}
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
    let resubmit = Memo::new(move |_| value.with(|v| matches!(v, Some(Value::Object(_)))));
    let id = super::fields::next_id("f");
    let p = path.clone();
    let on_mode = move |ev| {
        let to = event_target_value(&ev) == "resubmit";
        let own = ed.doc.with_untracked(|d| {
            base.key("share")
                .get(&d.value)
                .and_then(Value::as_str)
                .map(str::to_string)
        });
        let other = ed.share_names.with_untracked(|n| {
            n.iter()
                .find(|n| Some(n.as_str()) != own.as_deref())
                .cloned()
                .unwrap_or_default()
        });
        ed.set(&p, to.then(|| json!({"resubmit": {"share": other}})));
    };
    let r = path.key("resubmit");
    view! {
        <div class="field select">
            <label for=id.clone()>"When retries run out"</label>
            <select id=id data-testid="retries-exhausted" prop:value=move || if resubmit.get() { "resubmit" } else { "fail" } on:change=on_mode>
                <option value="fail" selected=move || !resubmit.get()>"fail (as AWS)"</option>
                <option value="resubmit" selected=move || resubmit.get()>"resubmit to another share"</option>
            </select>
        </div>
        {move || {
            resubmit
                .get()
                .then(|| {
                    view! {
                        <SelectField label="Resubmit to" path=r.key("share") options=share_options(ed) />
                        <ContractNumber path=r.key("priority") label="With priority" placeholder="its own" integer=true />
                    }
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
                <ContractNumber
                    path=path_of(&base, n.at)
                    label=n.label
                    placeholder=n.placeholder
                    integer=n.integer
                    prune=true
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
    let Bound {
        ed,
        id,
        msg_id,
        invalid,
        messages,
        value,
    } = bind(&path, label);
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        write(
            ed,
            &path,
            (!text.is_empty()).then_some(Value::String(text)),
            true,
        );
    };
    view! {
        <div class="field text">
            <label for=id.clone()>{label}</label>
            <textarea
                id=id
                rows="2"
                spellcheck="true"
                data-testid="agreement-text"
                aria-invalid=move || invalid.get().then_some("true")
                aria-describedby=msg_id
                prop:value=move || json::display(value.get().as_ref())
                on:input=on_input
            ></textarea>
            {messages}
        </div>
    }
}

/// A share's `agreement` (`base`: the share's path).
#[component]
pub fn AgreementFields(base: Path) -> impl IntoView {
    let a = base.key("agreement");
    let texts = AGREEMENT_TEXTS
        .iter()
        .map(|(k, label)| view! { <AgreementText path=a.key(*k) label=*label /> })
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
    let id = super::fields::next_id("f");
    let p = path.clone();
    view! {
        <div class="row-fields">
            <div class="field check">
                <input
                    id=id.clone()
                    type="checkbox"
                    data-testid="alarms-on"
                    prop:checked=move || on.get()
                    on:change=move |ev| ed.set(&p, event_target_checked(&ev).then(|| json!({})))
                />
                <label for=id>"Report recovery and alarms for every run"</label>
            </div>
            <ContractNumber
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
