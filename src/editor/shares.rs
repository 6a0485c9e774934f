//! The quota shares table: add, remove, reorder (up to 20, or 1,000 ClusterQueues in the Kueue
//! model), and each share's fields.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::model::limits::max_shares;
use serde_json::{json, Value};

use super::context::use_ed;
use super::dist::LimitsField;
use super::fields::{bind, ChangeHook, CheckField, Messages, NumField, SelectField, Shell};
use super::general::state_options;
use super::json;
use super::path::Path;
use super::rows::{names_in, numbered, rename_follows, row, text_of, Rows};

/// The three strategies, for the select.
pub fn strategy_options() -> Vec<(Value, String)> {
    super::fields::string_options(&["RESERVE", "LEND", "LEND_AND_BORROW"])
}

/// What a strategy means, in plain words.
pub fn strategy_meaning(s: Option<&str>) -> &'static str {
    match s {
        Some("RESERVE") => "keeps its idle quota for itself; never lends or borrows",
        Some("LEND") => "lends its idle quota (and reclaims it); never borrows",
        Some("LEND_AND_BORROW") => "lends its idle quota and borrows idle capacity",
        _ => "",
    }
}

/// After a share is renamed from `old` to `new`, its jobs, workloads and events follow,
/// unless either name is (or was) also another share's: then nothing is renamed.
pub fn rename_share_refs(doc: &mut Value, old: &str, new: &str) {
    if !rename_follows(doc, "shares", "name", old, new) {
        return;
    }
    for (list, ptr) in [
        ("jobs", "/share"),
        ("workloads", "/share"),
        ("events", "/update_share/share"),
    ] {
        if let Some(a) = doc.get_mut(list).and_then(Value::as_array_mut) {
            for item in a {
                if let Some(s) = item.pointer_mut(ptr) {
                    if s.as_str() == Some(old) {
                        *s = Value::String(new.to_string());
                    }
                }
            }
        }
    }
}

/// A share's name. Its jobs, workloads and events follow a rename as it is typed. A name
/// that another share already has, or none, is not applied while it is typed: the field says
/// so, and leaving it (or Enter) puts back the share's name. So the text passed through on
/// the way to a new name ("medium" on the way to "medium2") never gives this share's jobs
/// to another share, and the scenario stays valid at every keystroke.
#[component]
fn ShareNameField(index: usize, path: Path) -> impl IntoView {
    let ed0 = use_ed();
    let label = if ed0.doc.with_untracked(|d| {
        quotalab_engine::translate::model_of(&d.value) == quotalab_engine::model::Model::Kueue
    }) {
        "ClusterQueue name"
    } else {
        "Share name"
    };
    let mut f = bind(&path, label);
    let (ed, value, invalid) = (f.ed, f.value, f.invalid);
    // The text typed but not applied (empty, or another share's name).
    let held = RwSignal::new(None::<String>);
    f.invalid = Memo::new(move |_| invalid.get() || held.with(Option::is_some));
    let control = f.control();
    // A change of the name (an applied keystroke, an undo, a preset) drops it.
    Effect::new(move |_| {
        value.with(|_| ());
        ed.app.history.restores();
        held.set(None);
    });
    let p = path.clone();
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        let taken = ed.share_names.with_untracked(|names| {
            names
                .iter()
                .enumerate()
                .any(|(i, n)| i != index && *n == text)
        });
        if text.is_empty() || taken {
            held.set(Some(text));
            return;
        }
        held.set(None);
        // The jobs follow: the whole document (a large scenario's jobs are kept as text).
        ed.type_at_whole(&p, |doc| {
            let old = p.get(doc).and_then(Value::as_str).map(str::to_string);
            p.set(doc, Some(Value::String(text.clone())));
            if let Some(old) = old {
                rename_share_refs(doc, &old, &text);
            }
        });
    };
    let current = move || json::display(value.get().as_ref());
    let revert = move || {
        if held.get_untracked().is_some() {
            held.set(None);
        }
    };
    let note = move || {
        let typed = held.get()?;
        let keeps = json::display(value.get().as_ref());
        let msg = if typed.is_empty() {
            format!("A share needs a name: leaving the field keeps \"{keeps}\".")
        } else {
            format!(
                "Another share is already called \"{typed}\": type on, or leave the field to keep \"{keeps}\"."
            )
        };
        Some(view! {
            <span class="field-error" data-testid="share-name-held" role="status">
                {msg}
            </span>
        })
    };
    Shell::of(f, "field grow", label).around(view! {
        <input
            {..control}
            type="text"
            autocomplete="off"
            spellcheck="false"
            data-testid="share-name"
            prop:value=move || held.get().unwrap_or_else(current)
            on:input=on_input
            on:blur=move |_| revert()
            on:keydown=move |e| {
                if e.key() == "Enter" {
                    revert();
                }
            }
        />
        {note}
    })
}

/// A new share: a unique name, the first instance type in use, LEND_AND_BORROW; in the
/// Kueue model a ClusterQueue of the first share's cohort (or the first cohort) that
/// reclaims its quota from any borrower.
pub fn new_share(doc: &Value) -> Value {
    let names = names_in(doc, "shares", "name");
    let ty = doc
        .pointer("/shares/0/limits")
        .and_then(Value::as_object)
        .and_then(|m| m.keys().next().cloned())
        .or_else(|| {
            doc.get("capacity")
                .and_then(Value::as_object)
                .and_then(|m| m.keys().next().cloned())
        })
        .unwrap_or_else(|| "ml.g5.xlarge".to_string());
    let name = json::unique_name("share", &names);
    if quotalab_engine::translate::model_of(doc) == quotalab_engine::model::Model::Kueue {
        let cohort = doc
            .pointer("/shares/0/cohort")
            .or_else(|| doc.pointer("/cohorts/0/name"))
            .and_then(Value::as_str);
        let mut share = json!({
            "name": name,
            "limits": {ty: 1},
            "preemption": {"within_share": "lower_priority", "reclaim": "any"}
        });
        if let Some(c) = cohort {
            share["cohort"] = json!(c);
        }
        return share;
    }
    json!({
        "name": name,
        "limits": {ty: 1},
        "strategy": "LEND_AND_BORROW",
        "in_share_preemption": false
    })
}

/// The shares section body.
#[component]
pub fn SharesFields() -> impl IntoView {
    let ed = use_ed();
    let len = Memo::new(move |_| ed.share_names.with(Vec::len));
    // SPEC 2: at most 20 shares; SPEC 13: 1,000 in the Kueue model.
    let kueue = super::kueue::is_kueue(ed);
    let max = Memo::new(move |_| max_shares(kueue.get()));
    let add = move |_: leptos::ev::MouseEvent| {
        ed.edit(|doc| {
            let share = new_share(doc);
            let max = max_shares(
                quotalab_engine::translate::model_of(doc) == quotalab_engine::model::Model::Kueue,
            );
            match doc.get_mut("shares").and_then(Value::as_array_mut) {
                Some(a) if a.len() < max => a.push(share),
                Some(_) => {}
                None => Path::root().key("shares").set(doc, Some(json!([share]))),
            }
        })
    };
    view! {
        <Messages path=Path::root().key("shares") />
        // Rebuilt when the model changes: a row's labels are the model's words.
        {move || {
            kueue.with(|_| ());
            view! { <Rows len=len row=Arc::new(move |i| view! { <ShareRow index=i len=len /> }.into_any()) /> }
        }}
        <button
            type="button"
            class="add"
            data-testid="add-share"
            disabled=move || { len.get() >= max.get() }
            title=move || {
                if len.get() >= max.get() {
                    if kueue.get() {
                        format!("At most {} ClusterQueues in the Kueue model", max.get())
                    } else {
                        format!("At most {} quota shares per queue", max.get())
                    }
                } else if kueue.get() {
                    "Add a ClusterQueue".to_string()
                } else {
                    "Add a quota share".to_string()
                }
            }
            on:click=add
        >
            {move || if kueue.get() { "+ Add ClusterQueue" } else { "+ Add share" }}
        </button>
    }
}

#[component]
fn ShareRow(index: usize, len: Memo<usize>) -> impl IntoView {
    let ed = use_ed();
    let base = Path::root().key("shares").idx(index);
    let name_s = text_of(ed.value(base.key("name")));
    let state = ed.value(base.key("state"));
    // The borrow limit set aside while the strategy is not LEND_AND_BORROW (which may not
    // have one), given back when it is again.
    let stash = StoredValue::new(None::<Value>);
    let kueue = super::kueue::is_kueue(ed);
    let swap = move |a: usize, b: usize| {
        stash.set_value(None);
        ed.edit(|doc| {
            if let Some(list) = doc.get_mut("shares").and_then(Value::as_array_mut) {
                if a < list.len() && b < list.len() {
                    list.swap(a, b);
                }
            }
        })
    };
    let rm = base.clone();
    let who = move || {
        let n = name_s.get();
        if n.is_empty() {
            format!("share {}", index + 1)
        } else {
            n
        }
    };
    // Up swaps the share with the one before it, down with the one after.
    let move_button = move |up: bool| {
        let (word, arrow, (a, b)) = if up {
            ("up", "↑", (index.saturating_sub(1), index))
        } else {
            ("down", "↓", (index, index + 1))
        };
        view! {
            <button
                type="button"
                class="icon-button"
                aria-label=move || format!("Move {} {word}", who())
                title=format!("Move {word}")
                disabled=move || if up { index == 0 } else { index + 1 >= len.get() }
                on:click=move |_| swap(a, b)
            >
                {arrow}
            </button>
        }
    };
    let head = view! {
        <span
            class="row-index"
            style=format!("background:{}", crate::ui::palette::css(index))
            aria-hidden="true"
        >
            {index + 1}
        </span>
        <ShareNameField index=index path=base.key("name") />
        <div class="row-actions">
            {move_button(true)}
            {move_button(false)}
            <button
                type="button"
                class="icon-button danger"
                aria-label=move || format!("Remove {}", who())
                title="Remove this share (its jobs, workloads and events are kept and flagged)"
                on:click=move |_| {
                    stash.set_value(None);
                    ed.set(&rm, None)
                }
            >
                "✕"
            </button>
        </div>
    };
    let body = view! {
        {
            let b = base.clone();
            move || {
                if kueue.get() {
                    view! { <super::kueue::KueueShareFields base=b.clone() owner=name_s /> }.into_any()
                } else {
                    view! { <AwsShareFields base=b.clone() owner=name_s stash=stash /> }.into_any()
                }
            }
        }
        <div class="row-fields">
            {
                let b = base.clone();
                move || {
                    // Kueue's stopPolicy Hold is the AWS share state DISABLED: no new
                    // admission, admitted work runs on, quota still lent.
                    let (label, options) = if kueue.get() {
                        ("stopPolicy", vec![(json!("ENABLED"), "None".to_string()), (json!("DISABLED"), "Hold".to_string())])
                    } else {
                        ("State", state_options())
                    };
                    view! {
                        <SelectField
                            label=label
                            path=b.key("state")
                            options=options
                            absent=json!("ENABLED")
                            hint=Signal::derive(move || {
                                if state.with(|s| s.as_ref().and_then(Value::as_str) == Some("DISABLED")) {
                                    "admits no new workload; still lends".to_string()
                                } else {
                                    String::new()
                                }
                            })
                            class="state"
                        />
                    }
                }
            }
        </div>
        <super::contract::AgreementFields base=base.clone() />
        <Messages path=base.clone() />
    };
    let what = numbered("Quota share", index, name_s);
    row("share-row row", "share-row", what, head, body)
}

/// A share's AWS Batch fields (sections 2-3): strategy, borrow limit, in-share preemption,
/// limits. `stash` keeps the borrow limit set aside while the strategy does not borrow.
#[component]
fn AwsShareFields(
    base: Path,
    owner: Signal<String>,
    stash: StoredValue<Option<Value>>,
) -> impl IntoView {
    let ed = use_ed();
    let name_s = owner;
    let strategy = ed.value(base.key("strategy"));
    let borrow = ed.value(base.key("borrow_limit"));
    let limits = ed.value(base.key("limits"));
    let bl_path = base.key("borrow_limit");
    let on_strategy: ChangeHook = Arc::new(move |doc: &mut Value, new: &Value| {
        if new.as_str() == Some("LEND_AND_BORROW") {
            if bl_path.get(doc).is_none() {
                if let Some(v) = stash.get_value() {
                    bl_path.set(doc, Some(v));
                }
            }
        } else if let Some(v) = bl_path.get(doc).cloned() {
            stash.set_value(Some(v));
            bl_path.set(doc, None);
        }
    });
    let borrows = Signal::derive(move || {
        strategy.with(|s| s.as_ref().and_then(Value::as_str) == Some("LEND_AND_BORROW"))
    });
    let hint = Signal::derive(move || {
        let s = strategy.get();
        json::borrow_as_instances(
            s.as_ref().and_then(Value::as_str),
            borrow.get().as_ref(),
            limits.get().as_ref(),
        )
    });
    view! {
            <div class="row-fields">
                <SelectField
                    label="Strategy"
                    path=base.key("strategy")
                    options=strategy_options()
                    testid="share-strategy"
                    on_change=on_strategy
                    hint=Signal::derive(move || {
                        strategy_meaning(strategy.get().as_ref().and_then(Value::as_str)).to_string()
                    })
                    class="wide"
                />
                <NumField
                    label="Borrow limit (%)"
                    path=base.key("borrow_limit")
                    testid="share-borrow-limit"
                    integer=true
                    placeholder="unlimited"
                    disabled=Signal::derive(move || !borrows.get() && borrow.with(Option::is_none))
                    title=Signal::derive(move || {
                        if borrows.get() {
                            "Percent of the share's own limit it may borrow, per type; -1 = unlimited".to_string()
                        } else {
                            "Only LEND_AND_BORROW shares borrow".to_string()
                        }
                    })
                    hint=hint
                    hint_testid="borrow-instances"
                    class="borrow"
                />
                <BorrowSlider path=base.key("borrow_limit") enabled=borrows share=name_s />
                <CheckField
                    label="In-share preemption"
                    path=base.key("in_share_preemption")
                    testid="share-inshare"
                    title="A job may preempt lower-priority jobs of its own share"
                />
            </div>
            <LimitsField path=base.key("limits") label="Limits (instances per type)" owner=name_s />
    }
}

/// What the borrow limit's slider shows for a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderState {
    /// -1, or absent: no limit. The slider rests, disabled; the "Unlimited" box is ticked.
    Unlimited,
    /// A percent the slider can show (0 to [`SLIDER_MAX`]).
    Percent(i64),
    /// A valid percent past the slider's right end.
    Above(i64),
    /// Not a valid borrow limit (below -1, fractional, not a number): shown as invalid, at
    /// no position, until a valid one is typed, dragged or ticked.
    Invalid,
}

impl SliderState {
    pub fn of(v: Option<&Value>) -> SliderState {
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return SliderState::Unlimited;
        };
        match v.as_i64().or_else(|| {
            v.as_f64()
                .filter(|x| x.fract() == 0.0 && x.abs() < 9e15)
                .map(|x| x as i64)
        }) {
            Some(-1) => SliderState::Unlimited,
            Some(n) if (0..=SLIDER_MAX).contains(&n) => SliderState::Percent(n),
            Some(n) if n > SLIDER_MAX => SliderState::Above(n),
            _ => SliderState::Invalid,
        }
    }
}

/// The borrow limit's slider, 0 to [`SLIDER_MAX`] % in steps of 10, with an "Unlimited" box
/// (-1) beside its number field (which takes any value). Dragging it edits the scenario at
/// every step (one undo step per drag), and the page re-simulates as it goes (live feedback
/// while dragging). A value the slider cannot show is said in words, never clamped.
#[component]
fn BorrowSlider(path: Path, enabled: Signal<bool>, share: Signal<String>) -> impl IntoView {
    let ed = use_ed();
    let id = super::fields::next_id("slide");
    let box_id = super::fields::next_id("unl");
    let value = ed.value(path.clone());
    let state = Memo::new(move |_| value.with(|v| SliderState::of(v.as_ref())));
    // The last limit the slider showed, given back when "Unlimited" is cleared.
    let last = StoredValue::new(100i64);
    let position = move || {
        match state.get() {
            SliderState::Percent(n) => {
                last.set_value(n);
                n
            }
            // No limit rests at the right end, not at the last limit's place.
            SliderState::Above(_) | SliderState::Unlimited => SLIDER_MAX,
            SliderState::Invalid => 0,
        }
        .to_string()
    };
    let p = path.clone();
    let on_input = move |ev| {
        if let Ok(v) = event_target_value(&ev).parse::<i64>() {
            ed.type_at(&p, |doc| p.set(doc, Some(json!(v))));
        }
    };
    let on_unlimited = move |ev| {
        let on = event_target_checked(&ev);
        let new = if on { -1 } else { last.get_value() };
        ed.set(&path, Some(json!(new)));
    };
    let note = move || match state.get() {
        SliderState::Unlimited => "no limit".to_string(),
        SliderState::Percent(n) => format!("{n} %"),
        SliderState::Above(n) => format!("{n} % (past the slider's end)"),
        SliderState::Invalid => "not a valid limit: type one, drag, or tick Unlimited".to_string(),
    };
    view! {
        <div class="field borrow-slide" class:invalid=move || state.get() == SliderState::Invalid>
            <label for=id.clone()>{format!("Drag the limit (0 to {SLIDER_MAX} %)")}</label>
            <div class="slide-row">
                <input
                    id=id
                    type="range"
                    min="0"
                    max=SLIDER_MAX.to_string()
                    step="10"
                    data-testid="share-borrow-slider"
                    aria-label=move || format!("Borrow limit of {} (%)", share.get())
                    aria-invalid=move || (state.get() == SliderState::Invalid).then_some("true")
                    aria-valuetext=note
                    prop:value=position
                    disabled=move || !enabled.get() || state.get() == SliderState::Unlimited
                    on:input=on_input
                    on:change=move |_| ed.app.history.seal()
                />
                <span class="check unlimited">
                    <input
                        id=box_id.clone()
                        type="checkbox"
                        data-testid="share-borrow-unlimited"
                        prop:checked=move || state.get() == SliderState::Unlimited
                        disabled=move || !enabled.get()
                        on:change=on_unlimited
                    />
                    <label for=box_id>"Unlimited"</label>
                </span>
            </div>
            <span class="field-hint" data-testid="share-borrow-slider-note">{note}</span>
        </div>
    }
}

/// The borrow-limit slider's right end (%).
pub const SLIDER_MAX: i64 = 500;
