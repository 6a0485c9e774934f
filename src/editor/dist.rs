//! Fields whose value takes one of several shapes: a number or a distribution (SPEC 7
//! `instances`, `work_s`, `priority`, `startup_s` of workloads), an arrival process, and a
//! map of instance-type limits.

use leptos::prelude::*;
use serde_json::{json, Map, Value};

use super::context::use_ed;
use super::fields::{bind, claim, next_id, type_options, Bound, NumField, NumberListField, Shell};
use super::path::{replace_one_of, Path};

const DIST_KEYS: &[&str] = &["fixed", "uniform", "exponential", "lognormal", "choice"];
const DIST_LABELS: &[(&str, &str)] = &[
    ("fixed", "fixed"),
    ("uniform", "uniform"),
    ("exponential", "exponential"),
    ("lognormal", "lognormal"),
    ("choice", "choice"),
];

const ARRIVAL_KEYS: &[&str] = &["poisson_per_hour", "uniform", "at_s"];
const ARRIVAL_LABELS: &[(&str, &str)] = &[
    ("poisson_per_hour", "Poisson"),
    ("uniform", "uniform"),
    ("at_s", "listed times"),
];

/// A number as JSON, whole when it is one.
fn num(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

/// The single key of a one-key object among `keys` (a distribution, an arrival).
fn shape_of(v: Option<&Value>, keys: &[&str]) -> &'static str {
    match v {
        None | Some(Value::Null) | Some(Value::Number(_)) => "number",
        Some(Value::Object(m)) => {
            for (k, known) in [("fixed", "fixed")]
                .into_iter()
                .chain(DIST_KEYS.iter().map(|k| (*k, *k)))
                .chain(ARRIVAL_KEYS.iter().map(|k| (*k, *k)))
            {
                if keys.contains(&k) && m.contains_key(k) {
                    return known;
                }
            }
            "other"
        }
        Some(_) => "other",
    }
}

/// A representative number of a distribution (to carry over when its kind changes).
fn typical(v: Option<&Value>, default: f64) -> f64 {
    let Some(v) = v else { return default };
    if let Some(x) = v.as_f64() {
        return x;
    }
    let pick = |p: &str| v.pointer(p).and_then(Value::as_f64);
    pick("/fixed")
        .or_else(|| {
            let a = pick("/uniform/0")?;
            let b = pick("/uniform/1")?;
            Some((a + b) / 2.0)
        })
        .or_else(|| pick("/exponential/mean"))
        .or_else(|| pick("/lognormal/median"))
        .or_else(|| pick("/choice/0/0"))
        .unwrap_or(default)
}

/// What a distribution of kind `kind` starts as, around `x`.
fn dist_of_kind(kind: &str, x: f64, whole: bool) -> Value {
    let round = |y: f64| if whole { y.round() } else { y };
    match kind {
        "uniform" => {
            let (a, b) = if x > 0.0 {
                (round(x / 2.0), round(x * 1.5).max(round(x / 2.0) + 1.0))
            } else {
                (0.0, 1.0)
            };
            json!({"uniform": [num(a), num(b)]})
        }
        "exponential" => json!({"exponential": {"mean": num(x.max(1.0))}}),
        "lognormal" => json!({"lognormal": {"median": num(x.max(1.0)), "sigma": 1.0}}),
        "choice" => json!({"choice": [[num(x), 1]]}),
        _ => num(x),
    }
}

/// Makes the value at `path` of kind `kind` (one of the keys `keys`) with `params`: an
/// object has its kind's key replaced in place (its other keys stay: an event's `at_s`),
/// anything else becomes `{kind: params}`.
pub fn set_kind(doc: &mut Value, path: &Path, keys: &[&str], kind: &str, params: Value) {
    match path.get_mut(doc) {
        Some(Value::Object(m)) => replace_one_of(m, keys, kind, params),
        _ => {
            let mut m = Map::new();
            m.insert(kind.to_string(), params);
            path.set(doc, Some(Value::Object(m)));
        }
    }
}

/// The select of the kind of the value bound in `f` (a distribution's, an arrival
/// process's) among `kinds` `(key, label)`; a current kind not among them shows as an extra
/// option, `unknown`. The value's messages are the caller's to show.
fn kind_select(
    f: &Bound,
    label: &'static str,
    current: Signal<&'static str>,
    kinds: &'static [(&'static str, &'static str)],
    unknown: &'static str,
    on_change: impl Fn(leptos::ev::Event) + 'static,
) -> impl IntoView {
    // The select's `value` follows the kind; an option's `selected` only places it when the
    // select is built (its value is set before its options are there): a plain attribute,
    // not one reactive closure per option (a workload row has 7 of these selects, 48
    // options; a scenario of 20 workloads builds 140 such selects).
    let initial = current.get_untracked();
    Shell::new("field select kind-field", f.id.clone(), label).around(view! {
        <select {..f.control()} prop:value=move || current.get() on:change=on_change>
            {kinds
                .iter()
                .map(|(k, l)| view! { <option value=*k selected=initial == *k>{*l}</option> })
                .collect_view()}
            {move || {
                let c = current.get();
                (!kinds.iter().any(|(k, _)| *k == c))
                    .then(|| view! { <option value=c selected=true>{unknown}</option> })
            }}
        </select>
    })
}

/// A number or a distribution (SPEC 7). `default` is the value when the key is absent
/// (None: the field is required); `whole` for instances and priority.
#[component]
pub fn DistField(
    #[prop(into)] label: String,
    path: Path,
    #[prop(optional)] default: Option<f64>,
    #[prop(optional)] whole: bool,
    #[prop(optional, into)] unit: Option<&'static str>,
) -> impl IntoView {
    let f = bind(&path, &label);
    let (ed, value) = (f.ed, f.value);
    let shape = Memo::new(move |_| value.with(|v| shape_of(v.as_ref(), DIST_KEYS)));
    let kind = move || match shape.get() {
        "number" => "fixed",
        other => other,
    };
    let p = path.clone();
    let on_kind = move |ev| {
        let new_kind = event_target_value(&ev);
        let x = typical(
            value.get_untracked().as_ref(),
            default.unwrap_or(if whole { 1.0 } else { 600.0 }),
        );
        ed.set(&p, Some(dist_of_kind(&new_kind, x, whole)));
    };
    let required = default.is_none();
    let placeholder = default.map(|d| format!("default {d}"));
    let unit_suffix = unit.map(|u| format!(" ({u})")).unwrap_or_default();
    let params = move || {
        let base = path.clone();
        let u = unit_suffix.clone();
        match shape.get() {
            "number" => view! {
                <NumField
                    label=format!("value{u}")
                    path=base
                    required=required
                    placeholder=placeholder.clone().unwrap_or_default()
                    integer=whole
                    class="param"
                />
            }
            .into_any(),
            "fixed" => view! {
                <NumField
                    label=format!("value{u}")
                    path=base.key("fixed")
                    required=true
                    integer=whole
                    class="param"
                />
            }
            .into_any(),
            "uniform" => view! {
                <NumField label=format!("from{u}") path=base.key("uniform").idx(0) required=true class="param" />
                <NumField label=format!("to{u}") path=base.key("uniform").idx(1) required=true class="param" />
            }
            .into_any(),
            "exponential" => view! {
                <NumField label=format!("mean{u}") path=base.key("exponential").key("mean") required=true class="param" />
            }
            .into_any(),
            "lognormal" => view! {
                <NumField label=format!("median{u}") path=base.key("lognormal").key("median") required=true class="param" />
                <NumField label="sigma σ" path=base.key("lognormal").key("sigma") required=true class="param" />
            }
            .into_any(),
            "choice" => view! { <ChoiceList path=base.key("choice") unit=u.clone() /> }.into_any(),
            _ => view! { <span class="field-hint">"edit this value in the JSON view"</span> }.into_any(),
        }
    };
    let kinds = kind_select(
        &f,
        "kind",
        Signal::derive(kind),
        DIST_LABELS,
        "(not valid)",
        on_kind,
    );
    view! {
        <fieldset class="dist">
            <legend>{label.clone()}</legend>
            {kinds}
            <div class="params">{params}</div>
            {f.messages}
        </fieldset>
    }
}

/// The `[[value, weight], ..]` pairs of a choice distribution.
#[component]
fn ChoiceList(path: Path, unit: String) -> impl IntoView {
    let ed = use_ed();
    let value = ed.value(path.clone());
    let len = Memo::new(move |_| {
        value.with(|v| v.as_ref().and_then(Value::as_array).map_or(0, Vec::len))
    });
    let p_add = path.clone();
    let add = move |_: leptos::ev::MouseEvent| {
        ed.edit(|doc| {
            if let Some(a) = p_add.get_mut(doc).and_then(Value::as_array_mut) {
                a.push(json!([0, 1]));
            }
        })
    };
    let p_rows = path.clone();
    view! {
        <div class="choice-list">
            <For
                each=move || 0..len.get()
                key=|i| *i
                children=move |i| {
                    let row = p_rows.idx(i);
                    let p_rm = p_rows.clone();
                    let u = unit.clone();
                    view! {
                        <div class="choice-row">
                            <NumField label=format!("value {}{u}", i + 1) path=row.idx(0) required=true class="param" />
                            <NumField label="weight" path=row.idx(1) required=true class="param" />
                            <button
                                type="button"
                                class="icon-button"
                                aria-label=format!("Remove value {}", i + 1)
                                title="Remove this value"
                                disabled=move || { len.get() <= 1 }
                                on:click=move |_| ed.set(&p_rm.idx(i), None)
                            >
                                "✕"
                            </button>
                        </div>
                    }
                }
            />
            <button type="button" class="small" on:click=add>"+ value"</button>
        </div>
    }
}

/// A workload's arrival process (SPEC 7 `arrival`).
#[component]
pub fn ArrivalField(
    path: Path,
    /// The workload's `count`, shown with the arrival process.
    count: Path,
) -> impl IntoView {
    let f = bind(&path, "Arrivals");
    let (ed, value) = (f.ed, f.value);
    let shape = Memo::new(move |_| value.with(|v| shape_of(v.as_ref(), ARRIVAL_KEYS)));
    let p = path.clone();
    let on_kind = move |ev| {
        let kind = event_target_value(&ev);
        let params = match kind.as_str() {
            "uniform" => json!([0, 3600]),
            "at_s" => json!([0, 60, 120]),
            _ => json!(4),
        };
        ed.edit(|doc| set_kind(doc, &p, ARRIVAL_KEYS, &kind, params));
    };
    let is_at = Signal::derive(move || shape.get() == "at_s");
    let params = move || {
        let base = path.clone();
        match shape.get() {
            "poisson_per_hour" => view! {
                <NumField label="jobs per hour" path=base.key("poisson_per_hour") required=true class="param" />
            }
            .into_any(),
            "uniform" => view! {
                <NumField label="from (s)" path=base.key("uniform").idx(0) required=true class="param" />
                <NumField label="to (s)" path=base.key("uniform").idx(1) required=true class="param" />
            }
            .into_any(),
            "at_s" => view! {
                <NumberListField label="at times (s, comma-separated)" path=base.key("at_s") placeholder="0, 60, 120" />
            }
            .into_any(),
            _ => view! { <span class="field-hint">"choose an arrival process"</span> }.into_any(),
        }
    };
    let kinds = kind_select(
        &f,
        "process",
        shape.into(),
        ARRIVAL_LABELS,
        "(not set)",
        on_kind,
    );
    view! {
        <fieldset class="dist arrival">
            <legend>"Arrival"</legend>
            {kinds}
            <div class="params">
                <NumField
                    label="Jobs"
                    path=count
                    integer=true
                    placeholder=Signal::derive(move || {
                        if is_at.get() { "one per time".to_string() } else { String::new() }
                    })
                    class="param count"
                />
                {params}
            </div>
            {f.messages}
        </fieldset>
    }
}

/// A map of instance type -> instances (a share's `limits`, an update's `limits`): 1 to
/// `max` entries, each type picked from the known ones.
#[component]
pub fn LimitsField(
    path: Path,
    #[prop(into)] label: String,
    /// The share's name, for the buttons' accessible names.
    #[prop(into)]
    owner: Signal<String>,
    #[prop(optional)] max: Option<usize>,
) -> impl IntoView {
    let ed = use_ed();
    let kueue = super::kueue::is_kueue(ed);
    let max = max.unwrap_or(quotalab_engine::model::limits::MAX_LIMITS);
    let msg_id = next_id("m");
    let (_, messages) = claim(ed, &path, &label, msg_id);
    let value = ed.value(path.clone());
    let keys = Memo::new(move |_| {
        value.with(|v| {
            v.as_ref()
                .and_then(Value::as_object)
                .map(|m| m.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    let len = Memo::new(move |_| keys.with(Vec::len));
    let p_add = path.clone();
    let add = move |_: leptos::ev::MouseEvent| {
        let used = keys.get_untracked();
        let Some(t) = ed
            .type_names
            .get_untracked()
            .into_iter()
            .find(|t| !used.contains(t))
        else {
            return;
        };
        ed.edit(|doc| {
            let m = match p_add.get_mut(doc) {
                Some(Value::Object(m)) => m,
                _ => {
                    p_add.set(doc, Some(Value::Object(Map::new())));
                    match p_add.get_mut(doc) {
                        Some(Value::Object(m)) => m,
                        _ => return,
                    }
                }
            };
            m.insert(t, json!(1));
        });
    };
    let p_rows = path.clone();
    view! {
        <fieldset class="limits">
            <legend>{label}</legend>
            <For
                each=move || 0..len.get()
                key=|i| *i
                children=move |i| {
                    let base = p_rows.clone();
                    move || {
                        let Some(key) = keys.with(|k| k.get(i).cloned()) else {
                            return ().into_any();
                        };
                        view! { <LimitRow path=base.clone() key_name=key index=i owner=owner len=len kueue=kueue.get_untracked() /> }
                            .into_any()
                    }
                }
            />
            <button
                type="button"
                class="small"
                disabled=move || { len.get() >= max }
                title=move || {
                    if len.get() >= max {
                        format!("At most {max} instance types per share")
                    } else {
                        "Add a limit for another instance type".to_string()
                    }
                }
                on:click=add
            >
                {move || if kueue.get() { "+ ResourceFlavor" } else { "+ instance type" }}
            </button>
            {messages}
        </fieldset>
    }
}

#[component]
fn LimitRow(
    path: Path,
    key_name: String,
    index: usize,
    owner: Signal<String>,
    len: Memo<usize>,
    /// The Kueue model: a row is a ResourceFlavor's (rows are rebuilt on a model switch).
    kueue: bool,
) -> impl IntoView {
    let ed = use_ed();
    let id = next_id("f");
    let (row_word, remove_title) = if kueue {
        ("ResourceFlavor", "Remove this ResourceFlavor")
    } else {
        ("type", "Remove this instance type")
    };
    let current = Value::String(key_name.clone());
    let options = type_options(ed);
    let p_ren = path.clone();
    let old = key_name.clone();
    let on_type = move |ev| {
        let new = event_target_value(&ev);
        ed.edit(|doc| {
            if let Some(Value::Object(m)) = p_ren.get_mut(doc) {
                super::path::rename_key(m, &old, &new);
            }
        });
    };
    let p_rm = path.clone();
    let k_rm = key_name.clone();
    let cur_for_opts = current.clone();
    let k_label = key_name.clone();
    let select = view! {
        <select id=id.clone() on:change=on_type prop:value=key_name.clone()>
            {move || {
                let mut opts = options.get();
                if !opts.iter().any(|(v, _)| *v == cur_for_opts) {
                    opts.insert(0, (cur_for_opts.clone(), format!("{k_label} (unknown)")));
                }
                opts.into_iter()
                    .map(|(v, l)| {
                        let s = v.as_str().unwrap_or_default().to_string();
                        let sel = v == cur_for_opts;
                        view! { <option value=s selected=sel>{l}</option> }
                    })
                    .collect_view()
            }}
        </select>
    };
    view! {
        <div class="limit-row">
            {Shell::new("field select", id, format!("{row_word} {}", index + 1)).around(select)}
            <NumField label="instances" path=path.key(&key_name) required=true integer=true class="param" />
            <button
                type="button"
                class="icon-button"
                aria-label=move || format!("Remove the {} limit of {}", key_name, owner.get())
                title=remove_title
                disabled=move || { len.get() <= 1 }
                on:click=move |_| {
                    let k = k_rm.clone();
                    ed.edit(|doc| {
                        if let Some(Value::Object(m)) = p_rm.get_mut(doc) {
                            m.shift_remove(&k);
                        }
                    })
                }
            >
                "✕"
            </button>
        </div>
    }
}
