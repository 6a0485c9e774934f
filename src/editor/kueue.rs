//! The Kueue model's forms (SPEC 12): the model switch, a share's ClusterQueue fields
//! (cohort, borrowing and lending limits, queueing, the three preemption policies, weight),
//! the cohorts (name, parent, quota, limits, weight) and fair sharing.
//!
//! The switch rewrites the scenario with the engine's translation
//! ([`quotalab_engine::translate`]) and says what it could not keep; the forms only write
//! fields, the validator judges them.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::model::Model;
use quotalab_engine::translate;
use serde_json::{json, Value};

use super::context::{use_ed, Ed};
use super::dist::LimitsField;
use super::fields::{ChangeHook, Messages, NumField, SelectField, TextField};
use super::json;
use super::path::Path;
use super::rows::{names_in, numbered, rename_follows, row, text_of, AddButton, Rows};
use crate::state::{ImportKind, Notice};

/// Whether the scenario is written for the Kueue model.
pub fn is_kueue(ed: Ed) -> Memo<bool> {
    Memo::new(move |_| {
        ed.doc
            .with(|d| translate::model_of(&d.value) == Model::Kueue)
    })
}

/// The model select: switching rewrites the shares for the other model (SPEC 12's
/// translation table; undo puts the scenario back) and lists what did not translate.
#[component]
pub fn ModelField() -> impl IntoView {
    let ed = use_ed();
    let app = ed.app;
    let options = vec![
        (json!("aws_batch"), "AWS Batch quota shares".to_string()),
        (
            json!("kueue"),
            "Kueue ClusterQueues and cohorts".to_string(),
        ),
    ];
    let on_change: ChangeHook = Arc::new(move |doc: &mut Value, new: &Value| {
        let target = new.as_str().and_then(Model::parse).unwrap_or_default();
        // The select has written the new model already: translate from the other one.
        let from = match target {
            Model::Kueue => Model::AwsBatch,
            Model::AwsBatch => Model::Kueue,
        };
        if let Some(m) = doc.as_object_mut() {
            match from {
                Model::Kueue => m.insert("model".into(), json!("kueue")),
                Model::AwsBatch => m.remove("model"),
            };
        }
        let t = translate::to_model(doc, target);
        *doc = t.doc;
        let title = match target {
            Model::Kueue => "Switched to the Kueue model: every share is a ClusterQueue of cohort \"quotalab\", its limits its nominalQuota. Undo switches back.",
            Model::AwsBatch => "Switched to the AWS Batch model. Undo switches back.",
        };
        app.notice.set(Some(Notice::info(title, t.notes)));
    });
    let kueue = is_kueue(ed);
    let hint = Signal::derive(move || {
        if kueue.get() {
            format!(
                "each share is a ClusterQueue; cohorts pool and lend quota (as Kueue {}'s scheduler decides)",
                quotalab_engine::model::KUEUE_RELEASE
            )
        } else {
            "each share is an AWS Batch quota share of one job queue".to_string()
        }
    });
    let app = ed.app;
    view! {
        <SelectField
            label="Model"
            path=Path::root().key("model")
            options=options
            absent=json!("aws_batch")
            testid="model"
            on_change=on_change
            hint=hint
            class="wide"
        />
        // Where a Kueue or AWS user looks first: their own configuration, beside the model.
        <button
            type="button"
            class="small import-near-model"
            data-testid="import-config-near-model"
            on:click=move |_| app.request_import(ImportKind::Config)
        >
            "Import your cluster's configuration…"
        </button>
    }
}

/// The names of the scenario's cohorts, in order.
fn cohort_names(doc: &Value) -> Vec<String> {
    names_in(doc, "cohorts", "name")
}

/// `(null, none)` then every cohort name but `except`.
fn cohort_options(
    ed: Ed,
    none: &'static str,
    except: Option<Memo<Option<Value>>>,
) -> Signal<Vec<(Value, String)>> {
    Signal::derive(move || {
        let skip = except
            .and_then(|e| e.get())
            .and_then(|v| v.as_str().map(str::to_string));
        let mut out = vec![(Value::Null, none.to_string())];
        for n in ed.doc.with(|d| cohort_names(&d.value)) {
            if Some(&n) != skip.as_ref() {
                out.push((json!(n.clone()), n));
            }
        }
        out
    })
}

/// A preemption policy's choices: `(value, Kueue API name, what it means in plain words)`.
/// The select shows the API names, the words a Kubernetes engineer knows from the
/// ClusterQueue spec; the hint under it says what the chosen one does.
type Policy = [(&'static str, &'static str, &'static str)];

const WITHIN: &Policy = &[
    ("never", "Never", "its jobs never preempt each other"),
    (
        "lower_priority",
        "LowerPriority",
        "a job may preempt lower-priority jobs of its own queue",
    ),
    (
        "lower_or_newer_equal_priority",
        "LowerOrNewerEqualPriority",
        "a job may preempt lower-priority jobs of its queue, or equal-priority ones submitted later",
    ),
];
const RECLAIM: &Policy = &[
    (
        "never",
        "Never",
        "never preempts borrowers to get its quota back",
    ),
    (
        "lower_priority",
        "LowerPriority",
        "preempts lower-priority borrowers in its cohort to get its quota back",
    ),
    (
        "any",
        "Any",
        "preempts any borrower in its cohort to get its quota back",
    ),
];
const BWC: &Policy = &[
    (
        "never",
        "Never",
        "while borrowing it preempts nobody in other queues",
    ),
    (
        "lower_priority",
        "LowerPriority",
        "while borrowing it may preempt lower-priority jobs of other queues (up to the threshold)",
    ),
];

/// One preemption policy's select (absent: its first choice, `never`), with what the
/// chosen value means under it.
#[component]
fn PolicyField(
    label: &'static str,
    path: Path,
    table: &'static Policy,
    testid: &'static str,
) -> impl IntoView {
    let value = use_ed().value(path.clone());
    let options: Vec<(Value, String)> = table
        .iter()
        .map(|(v, api, _)| (json!(v), api.to_string()))
        .collect();
    let hint = Signal::derive(move || {
        let v = value.with(|v| v.as_ref().and_then(Value::as_str).map(str::to_string));
        let v = v.as_deref().unwrap_or(table[0].0);
        table
            .iter()
            .find(|(n, _, _)| *n == v)
            .map_or("", |(_, _, w)| w)
            .to_string()
    });
    view! {
        <SelectField
            label=label
            path=path
            options=options
            absent=json!(table[0].0)
            testid=testid
            hint=hint
            class="wide"
        />
    }
}

/// A share's Kueue (ClusterQueue) fields.
#[component]
pub fn KueueShareFields(base: Path, owner: Signal<String>) -> impl IntoView {
    let ed = use_ed();
    let pre = base.key("preemption");
    let bwc = ed.value(pre.key("borrow_within_cohort").key("policy"));
    let cohort = ed.value(base.key("cohort"));
    let queueing = vec![
        (json!("best_effort_fifo"), "BestEffortFIFO".to_string()),
        (json!("strict_fifo"), "StrictFIFO".to_string()),
    ];
    let bwc_on = Signal::derive(move || {
        bwc.with(|v| v.as_ref().and_then(Value::as_str) == Some("lower_priority"))
    });
    let standalone = Signal::derive(move || cohort.with(Option::is_none));
    let on_cohort = limits_follow_parent(ed.app, base.clone(), "ClusterQueue", "cohort");
    view! {
        <div class="row-fields">
            <SelectField
                label="Cohort"
                path=base.key("cohort")
                options=cohort_options(ed, "none: stands alone", None)
                on_change=on_cohort
                testid="share-cohort"
                hint=Signal::derive(move || {
                    if standalone.get() {
                        "neither lends nor borrows".to_string()
                    } else {
                        "lends its unused quota to the cohort and borrows from it".to_string()
                    }
                })
                class="wide"
            />
            <SelectField
                label="Queueing"
                path=base.key("queueing")
                options=queueing
                absent=json!("best_effort_fifo")
                class="state"
            />
            <NumField
                label="Fair-sharing weight"
                path=base.key("weight")
                placeholder="1"
                testid="share-weight"
                title="A larger weight lets this queue hold more of the cohort before fair sharing preempts it; 0 makes any borrowing first to go"
                class="borrow"
            />
        </div>
        <fieldset class="policies">
            <legend>"Preemption (Kueue ClusterQueue spec.preemption)"</legend>
            <div class="row-fields">
                <PolicyField
                    label="Within the queue"
                    path=pre.key("within_share")
                    table=WITHIN
                    testid="share-within"
                />
                <PolicyField
                    label="Reclaim within the cohort"
                    path=pre.key("reclaim")
                    table=RECLAIM
                    testid="share-reclaim"
                />
                <PolicyField
                    label="Borrow within the cohort"
                    path=pre.key("borrow_within_cohort").key("policy")
                    table=BWC
                    testid="share-bwc"
                />
                <NumField
                    label="Max priority threshold"
                    path=pre.key("borrow_within_cohort").key("max_priority_threshold")
                    integer=true
                    placeholder="none"
                    disabled=Signal::derive(move || !bwc_on.get())
                    title="While borrowing, only jobs at or below this priority may be preempted"
                    class="borrow"
                />
            </div>
            <Messages path=pre.clone() />
        </fieldset>
        <LimitsField
            path=base.key("limits")
            label="Nominal quota (instances per type)"
            owner=owner
        />
        <LimitsField
            path=base.key("borrowing_limit")
            label="Borrowing limit: instances beyond the quota (a type not listed borrows without limit)"
            owner=owner
        />
        <LimitsField
            path=base.key("lending_limit")
            label="Lending limit: instances of the quota it may lend (a type not listed lends all)"
            owner=owner
        />
    }
}

/// The change hook of a node's cohort (a ClusterQueue's `cohort`, a cohort's `parent`):
/// set to none, its borrowingLimit and lendingLimit go with it (Kueue allows them only under
/// a cohort), said in a notice; Undo brings them back.
fn limits_follow_parent(
    app: crate::state::AppState,
    base: Path,
    what: &'static str,
    field: &'static str,
) -> ChangeHook {
    Arc::new(move |doc: &mut Value, new: &Value| {
        if !new.is_null() {
            return;
        }
        let mut dropped = Vec::new();
        for (key, word) in [
            ("borrowing_limit", "borrowingLimit"),
            ("lending_limit", "lendingLimit"),
        ] {
            let p = base.key(key);
            if p.get(doc).is_some() {
                p.set(doc, None);
                dropped.push(word);
            }
        }
        if !dropped.is_empty() {
            let left = if field == "parent" {
                "became a root"
            } else {
                "left its cohort"
            };
            app.notice.set(Some(Notice::info(
                format!(
                    "The {what} {left}, so its {} went with it (they apply only under a cohort). Undo puts them back.",
                    dropped.join(" and ")
                ),
                Vec::new(),
            )));
        }
    })
}

/// After cohort `old` is renamed `new`, the shares in it and the cohorts under it follow
/// (unless either name is, or was, another cohort's).
fn rename_cohort_refs(doc: &mut Value, old: &str, new: &str) {
    if !rename_follows(doc, "cohorts", "name", old, new) {
        return;
    }
    for (list, key) in [("shares", "cohort"), ("cohorts", "parent")] {
        if let Some(a) = doc.get_mut(list).and_then(Value::as_array_mut) {
            for item in a {
                if let Some(v) = item.get_mut(key) {
                    if v.as_str() == Some(old) {
                        *v = json!(new);
                    }
                }
            }
        }
    }
}

/// The fair-sharing select's choices (SPEC 12 `fair_sharing`).
fn fair_sharing_options() -> Vec<(Value, String)> {
    let (f, i) = (
        "less_than_or_equal_to_final_share",
        "less_than_initial_share",
    );
    vec![
        (
            Value::Null,
            "off: classical preemption (priorities)".to_string(),
        ),
        (
            json!({}),
            "on, preemptionStrategies not set (Kueue's default: LessThanOrEqualToFinalShare, then LessThanInitialShare)".to_string(),
        ),
        (
            json!({"strategies": [f, i]}),
            "on, preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]".to_string(),
        ),
        (
            json!({"strategies": [f]}),
            "on, preemptionStrategies: [LessThanOrEqualToFinalShare]".to_string(),
        ),
        (
            json!({"strategies": [i]}),
            "on, preemptionStrategies: [LessThanInitialShare]".to_string(),
        ),
    ]
}

/// The cohorts section: fair sharing, then every cohort's row.
#[component]
pub fn CohortsFields() -> impl IntoView {
    let ed = use_ed();
    let root = Path::root();
    let len = Memo::new(move |_| ed.doc.with(|d| cohort_names(&d.value).len()));
    let new_cohort = |doc: &Value| json!({"name": json::unique_name("cohort", &cohort_names(doc))});
    view! {
        <p class="section-note">
            "A cohort pools the unused quota of the ClusterQueues in it (and of cohorts under it) and may add quota of its own. A ClusterQueue names its cohort in its row above."
        </p>
        <SelectField
            label="Fair sharing"
            path=root.key("fair_sharing")
            options=fair_sharing_options()
            testid="fair-sharing"
            hint=Signal::derive(|| "with fair sharing, a queue over its share of the cohort is preempted first, by dominant resource share".to_string())
            class="wide"
        />
        <Rows len=len row=Arc::new(|i| view! { <CohortRow index=i /> }.into_any()) />
        <Messages path=root.key("cohorts") />
        <AddButton list="cohorts" item=new_cohort testid="add-cohort" text="+ Add cohort" />
    }
}

#[component]
fn CohortRow(index: usize) -> impl IntoView {
    let ed = use_ed();
    let base = Path::root().key("cohorts").idx(index);
    let name = ed.value(base.key("name"));
    let name_s = text_of(name);
    let parent = ed.value(base.key("parent"));
    let rm = base.clone();
    let (bl, ll) = (base.key("borrowing_limit"), base.key("lending_limit"));
    let head = view! {
        <TextField
            label="Cohort name"
            path=base.key("name")
            testid="cohort-name"
            on_rename=rename_cohort_refs
            class="grow"
        />
        <div class="row-actions">
            <button
                type="button"
                class="icon-button danger"
                aria-label=move || format!("Remove cohort {}", name_s.get())
                title="Remove this cohort (shares and cohorts that name it are flagged)"
                on:click=move |_| ed.set(&rm, None)
            >
                "✕"
            </button>
        </div>
    };
    let body = view! {
        <div class="row-fields">
            <SelectField
                label="Parent cohort"
                path=base.key("parent")
                options=cohort_options(ed, "none: a root", Some(name))
                on_change=limits_follow_parent(ed.app, base.clone(), "cohort", "parent")
                testid="cohort-parent"
                class="wide"
            />
            <NumField
                label="Fair-sharing weight"
                path=base.key("weight")
                placeholder="1"
                class="borrow"
            />
        </div>
        <LimitsField
            path=base.key("limits")
            label="Quota of its own (instances per type, added to the pool below it)"
            owner=name_s
        />
        <Show when=move || parent.with(Option::is_some)>
            <LimitsField
                path=bl.clone()
                label="Borrowing limit from its parent (a type not listed: no limit)"
                owner=name_s
            />
            <LimitsField
                path=ll.clone()
                label="Lending limit to its parent (a type not listed: lends all)"
                owner=name_s
            />
        </Show>
        <Messages path=base.clone() />
    };
    let what = numbered("Cohort", index, name_s);
    row("share-row row cohort-row", "cohort-row", what, head, body)
}
