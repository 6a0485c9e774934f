//! "General" and "Instance types and capacity" sections.

use leptos::prelude::*;
use serde_json::{json, Value};

use super::context::use_ed;
use super::fields::{string_options, Messages, NumField, SelectField, TextField};
use super::path::Path;

/// name, description, seed, horizon, queueing, grace period.
#[component]
pub fn GeneralFields() -> impl IntoView {
    let root = Path::root();
    let queueing = vec![
        (json!("best_effort_fifo"), "best-effort FIFO".to_string()),
        (json!("strict_fifo"), "strict FIFO".to_string()),
    ];
    let queueing_value = use_ed().value(root.key("queue").key("queueing"));
    let kueue = super::kueue::is_kueue(use_ed());
    let queueing_hint = Signal::derive(move || {
        let strict = queueing_value.get().as_ref().and_then(Value::as_str) == Some("strict_fifo");
        queueing_words(strict, kueue.get()).to_string()
    });
    view! {
        <div class="grid-fields">
            <super::kueue::ModelField />
            <TextField label="Name" path=root.key("name") optional=true class="wide" />
            {super::contract::long_text(root.key("description"), "Description", "field text wide", "description")}
            <NumField label="Seed (workload draws)" path=root.key("seed") integer=true placeholder="0" />
            <NumField
                label="Horizon (s)"
                path=root.key("horizon_s")
                placeholder="none (to the end)"
                title="The run stops at this time; jobs not ended are unfinished"
            />
            <SelectField
                label="Queueing"
                path=root.key("queue").key("queueing")
                options=queueing
                absent=json!("best_effort_fifo")
                hint=queueing_hint
                class="wide"
            />
            <NumField
                label="Preemption grace (s)"
                path=root.key("queue").key("preemption_grace_s")
                placeholder="120"
                title="How long a preempted job keeps its instances after SIGTERM"
            />
        </div>
        <Messages path=root.key("queue") />
    }
}

/// The queueing choice's hint in the model's words (`kueue`: a ClusterQueue's workloads).
pub fn queueing_words(strict: bool, kueue: bool) -> &'static str {
    match (strict, kueue) {
        (true, false) => "a share's first job, if it cannot start, blocks the others",
        (false, false) => "a job that cannot start lets later jobs of its share go",
        (true, true) => {
            "a ClusterQueue's first workload, if it cannot be admitted, blocks the others"
        }
        (false, true) => {
            "a workload that cannot be admitted lets later workloads of its ClusterQueue go"
        }
    }
}

/// The instance types in use: declared ones, those named by capacity, and those named by
/// any share's limits (in that order, without repeats).
pub(super) fn types_in_use(doc: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |n: &str| {
        if !n.is_empty() && !out.iter().any(|x| x == n) {
            out.push(n.to_string());
        }
    };
    if let Some(a) = doc.get("instance_types").and_then(Value::as_array) {
        for t in a {
            if let Some(n) = t.get("name").and_then(Value::as_str) {
                push(n);
            }
        }
    }
    if let Some(m) = doc.get("capacity").and_then(Value::as_object) {
        for k in m.keys() {
            push(k);
        }
    }
    if let Some(a) = doc.get("shares").and_then(Value::as_array) {
        for s in a {
            if let Some(m) = s.get("limits").and_then(Value::as_object) {
                for k in m.keys() {
                    push(k);
                }
            }
        }
    }
    out
}

/// Sum of the shares' limits for one type (the default capacity, SPEC 2).
fn sum_of_limits(doc: &Value, ty: &str) -> i64 {
    doc.get("shares")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| {
                    s.pointer("/limits")
                        .and_then(|l| l.get(ty))
                        .and_then(Value::as_i64)
                })
                .sum()
        })
        .unwrap_or(0)
}

/// GPUs and price of a type: declared, else the catalogue's.
fn type_facts(doc: &Value, ty: &str) -> (String, String, bool) {
    let declared = doc
        .get("instance_types")
        .and_then(Value::as_array)
        .and_then(|a| {
            a.iter()
                .find(|t| t.get("name").and_then(Value::as_str) == Some(ty))
        });
    let builtin = quotalab_engine::catalogue::lookup(ty);
    let gpus = declared
        .and_then(|t| t.get("gpus"))
        .and_then(Value::as_u64)
        .or(builtin.as_ref().map(|b| u64::from(b.gpus)));
    let price = declared
        .and_then(|t| t.get("usd_per_hour"))
        .and_then(Value::as_f64)
        .or(builtin.as_ref().map(|b| b.usd_per_hour));
    (
        gpus.map_or("?".into(), |g| g.to_string()),
        price.map_or("?".into(), |p| format!("${p:.2}")),
        declared.is_none() && builtin.is_some(),
    )
}

/// Capacity per type in use, and custom instance types.
#[component]
pub fn TypesFields() -> impl IntoView {
    let ed = use_ed();
    let kueue = super::kueue::is_kueue(ed);
    let in_use = Memo::new(move |_| ed.doc.with(|d| types_in_use(&d.value)));
    let custom_len = Memo::new(move |_| {
        ed.doc.with(|d| {
            d.value
                .get("instance_types")
                .and_then(Value::as_array)
                .map_or(0, Vec::len)
        })
    });
    let add_custom = move |_| {
        ed.edit(|doc| {
            let taken = types_in_use(doc);
            let name = super::json::unique_name("custom", &taken);
            let entry = json!({"name": name, "gpus": 8, "usd_per_hour": 10.0});
            match doc.get_mut("instance_types").and_then(Value::as_array_mut) {
                Some(a) => a.push(entry),
                None => Path::root()
                    .key("instance_types")
                    .set(doc, Some(json!([entry]))),
            }
        })
    };
    view! {
        <p class="section-note">
            {move || if kueue.get() {
                "Capacity is what the cluster physically has of each ResourceFlavor, in units of its quota; blank means the sum of the nominalQuotas (ClusterQueues' and cohorts')."
            } else {
                "Capacity is the number of instances of each type in the cluster; blank means the sum of the shares' limits. Built-in types (ml.g5.*, ml.g6.*, ml.p4d.24xlarge, ml.p5.48xlarge, ml.trn1.*) need no declaration."
            }}
        </p>
        <div class="capacity-list" role="list">
            // Rebuilt when the model changes: the labels are the model's words.
            {move || {
            let capacity_label = if kueue.get() { "Capacity (quota units)" } else { "Capacity (instances)" };
            view! {
            <For
                each=move || in_use.get()
                key=|t| t.clone()
                children=move |ty| {
                    let facts = {
                        let ty = ty.clone();
                        Memo::new(move |_| ed.doc.with(|d| type_facts(&d.value, &ty)))
                    };
                    let default = {
                        let ty = ty.clone();
                        Memo::new(move |_| ed.doc.with(|d| sum_of_limits(&d.value, &ty)))
                    };
                    view! {
                        <div class="capacity-row" role="listitem" data-testid="capacity-row">
                            <div class="type-facts">
                                <span class="type-name">{ty.clone()}</span>
                                <span class="type-meta">
                                    {
                                        let ty = ty.clone();
                                        move || {
                                        let (g, p, builtin) = facts.get();
                                        format!(
                                            "{g} {} · {p}/h{}",
                                            crate::ui::format::accelerator_word(&ty, g == "1"),
                                            if builtin { " · built-in" } else { "" },
                                        )
                                    }}
                                </span>
                            </div>
                            <NumField
                                label=capacity_label
                                label_suffix=format!(" of {ty}")
                                path=Path::root().key("capacity").key(&ty)
                                integer=true
                                placeholder=Signal::derive(move || format!("default {}", default.get()))
                                class="capacity"
                            />
                        </div>
                    }
                }
            />
            }
            }}
        </div>
        <Messages path=Path::root().key("capacity") />
        <h4 class="subhead">{move || if kueue.get() { "ResourceFlavors" } else { "Custom instance types" }}</h4>
        <div class="custom-types">
            <For
                each=move || 0..custom_len.get()
                key=|i| *i
                children=move |i| {
                    let base = Path::root().key("instance_types").idx(i);
                    let rm = base.clone();
                    view! {
                        <div class="custom-type-row" role="group" aria-label=format!("Custom instance type {}", i + 1)>
                            <TextField label="Name" path=base.key("name") class="grow" />
                            {
                                let b = base.clone();
                                move || {
                                    // A Kueue flavor counts units of its resource, not instances.
                                    let (g, u) = if kueue.get() {
                                        ("GPUs per unit of quota", "USD per unit-hour")
                                    } else {
                                        ("GPUs per instance", "USD per hour")
                                    };
                                    view! {
                                        <NumField label=g path=b.key("gpus") integer=true />
                                        <NumField label=u path=b.key("usd_per_hour") />
                                    }
                                }
                            }
                            <button
                                type="button"
                                class="icon-button"
                                aria-label=format!("Remove custom instance type {}", i + 1)
                                title="Remove this instance type"
                                on:click=move |_| ed.set(&rm, None)
                            >
                                "✕"
                            </button>
                            <Messages path=base.clone() />
                        </div>
                    }
                }
            />
            <Messages path=Path::root().key("instance_types") />
            <button type="button" class="small" on:click=add_custom>{move || if kueue.get() { "+ ResourceFlavor" } else { "+ custom instance type" }}</button>
        </div>
    }
}

/// Options of the share state select.
pub fn state_options() -> Vec<(Value, String)> {
    string_options(&["ENABLED", "DISABLED"])
}
