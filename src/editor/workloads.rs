//! Workload mixes, explicit jobs and timed events.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::model::limits::priority_bounds;
use serde_json::{json, Value};

use super::context::{use_ed, Ed};
use super::dist::{set_kind, ArrivalField, DistField, LimitsField};
use super::fields::{
    claim, next_id, priority_class_options, share_options, type_options, ChangeHook, CheckField,
    Messages, NumField, SelectField, Shell, TextField,
};
use super::json;
use super::path::Path;
use super::rows::{list_len, names_in, rename_follows, row, AddButton, RemoveButton, Rows};
use super::shares::strategy_options;

/// Above this many explicit jobs the table shows only its first rows ([`JOBS_SHOWN`]).
pub const MANY_JOBS: usize = 200;
pub const JOBS_SHOWN: usize = 20;

/// First share name and an instance type it has a limit for (defaults of new rows).
fn first_share_and_type(doc: &Value) -> (String, String) {
    let share = doc.pointer("/shares/0");
    let name = share
        .and_then(|s| s.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let ty = share
        .and_then(|s| s.get("limits"))
        .and_then(Value::as_object)
        .and_then(|m| m.keys().next().cloned())
        .unwrap_or_else(|| "ml.g5.xlarge".to_string());
    (name, ty)
}

/// A `checkpoint` block (present or not, then its interval, cost and restore time) with
/// the sibling `checkpoint_on_preempt` flag beside it.
#[component]
fn CheckpointField(path: Path, on_preempt: Path) -> impl IntoView {
    let ed = use_ed();
    let id = next_id("f");
    let msg_id = next_id("m");
    let (_, messages) = claim(ed, &path, "Checkpoint", msg_id.clone());
    let value = ed.value(path.clone());
    let present = Memo::new(move |_| value.with(|v| matches!(v, Some(v) if !v.is_null())));
    let p = path.clone();
    let toggle = move |ev| {
        let on = event_target_checked(&ev);
        ed.set(
            &p,
            on.then(|| json!({"interval_s": 1800, "cost_s": 60, "restore_s": 120})),
        );
    };
    let checkbox = view! {
        <input
            id=id.clone()
            type="checkbox"
            aria-describedby=msg_id
            prop:checked=move || present.get()
            on:change=toggle
        />
    };
    let saves = Shell::new("field check", id, "Saves checkpoints");
    view! {
        <fieldset class="checkpoint">
            <legend class="visually-hidden">"Checkpoints"</legend>
            <div class="checks">
                {saves.around_box(checkbox, MaybeProp::default())}
                <CheckField
                    label="Checkpoint on preemption"
                    path=on_preempt
                    title="Save a checkpoint during the grace period when preempted (needs checkpoints whose cost fits the grace)"
                />
            </div>
            {move || {
                present
                    .get()
                    .then(|| {
                        view! {
                            <div class="checkpoint-params">
                                <NumField label="Every (s of work)" path=path.key("interval_s") required=true class="param" />
                                <NumField label="Save cost (s)" path=path.key("cost_s") placeholder="0" class="param" />
                                <NumField label="Restore (s)" path=path.key("restore_s") placeholder="0" class="param" />
                            </div>
                        }
                    })
            }}
            {messages}
        </fieldset>
    }
}

/// A new workload: 10 jobs of the first share, 4 an hour, on a type the share has a limit for.
fn new_workload(doc: &Value) -> Value {
    let (share, ty) = first_share_and_type(doc);
    json!({
        "share": share, "count": 10, "arrival": {"poisson_per_hour": 4},
        "instance_type": ty, "instances": 1, "work_s": 1800, "priority": 0
    })
}

/// The workloads section body.
#[component]
pub fn WorkloadsFields() -> impl IntoView {
    let ed = use_ed();
    let len = list_len(ed, "workloads");
    let kueue = super::kueue::is_kueue(ed);
    view! {
        <p class="section-note">
            "A workload generates jobs from the scenario's seed; their ids are share-1, share-2, …"
        </p>
        <Messages path=Path::root().key("workloads") />
        // Rebuilt when the model changes: a row's labels are the model's words.
        // (`get`, not `track`: a memo nobody read yet would never change.)
        {move || {
            let kueue = kueue.get();
            view! { <Rows len=len row=Arc::new(move |i| view! { <WorkloadRow index=i kueue=kueue /> }.into_any()) /> }
        }}
        <AddButton list="workloads" item=new_workload testid="add-workload" text="+ Add workload" />
    }
}

/// The row of workload `index`, in the words of the model (`kueue`: the rows are rebuilt
/// when it changes).
#[component]
fn WorkloadRow(index: usize, kueue: bool) -> impl IntoView {
    let ed = use_ed();
    let base = Path::root().key("workloads").idx(index);
    // SPEC 2: 0..=9999; SPEC 12: any 32-bit integer in the Kueue model.
    let priority_path = base.key("priority");
    let priority_field = move || {
        let label = if kueue {
            "Priority (any 32-bit integer)".to_string()
        } else {
            let (lo, hi) = priority_bounds(false);
            format!("Priority ({lo}–{hi})")
        };
        view! { <DistField label=label path=priority_path.clone() default=0.0 whole=true /> }
    };
    let priority_field = priority_or_class(ed, &base, priority_field);
    let share = ed.value(base.key("share"));
    let what = Signal::derive(move || {
        format!(
            "workload {} ({})",
            index + 1,
            json::display(share.get().as_ref())
        )
    });
    let head = view! {
        <span class="row-index plain" aria-hidden="true">{format!("W{}", index + 1)}</span>
        <SelectField label=crate::ui::words::share_word(kueue) path=base.key("share") options=share_options(ed) class="grow" />
        <SelectField label=if kueue { "ResourceFlavor" } else { "Instance type" } path=base.key("instance_type") options=type_options(ed) class="grow" />
        <div class="row-actions">
            <RemoveButton path=base.clone() what=what />
        </div>
    };
    let body = view! {
        <ArrivalField path=base.key("arrival") count=base.key("count") />
        <div class="dist-grid">
            <DistField label="Instances per job" path=base.key("instances") default=1.0 whole=true />
            <DistField label="Work" path=base.key("work_s") unit="s" />
            {priority_field}
            <DistField label="Startup" path=base.key("startup_s") default=0.0 unit="s" />
        </div>
        <div class="row-fields">
            <NumField label="Preemption retries" path=base.key("preemption_retries") integer=true placeholder="unlimited" />
            <NumField label="Deadline (× work)" path=base.key("deadline_factor") placeholder="none" title="Deadline = this factor times the job's work, from its submission" />
            <CheckpointField path=base.key("checkpoint") on_preempt=base.key("checkpoint_on_preempt") />
        </div>
        <super::contract::JobContractFields base=base.clone() />
        <Messages path=base.clone() />
    };
    row("workload-row row", "workload-row", what, head, body)
}

/// A job's or a workload's priority: where the scenario has `priority_classes` (SPEC 13,
/// Kueue's WorkloadPriorityClasses), a choice of class first; its own `priority` field
/// (`priority`, a view) only while no class is chosen. Choosing a class removes `priority`,
/// which the engine refuses beside one.
fn priority_or_class<V: IntoView + 'static>(
    ed: Ed,
    base: &Path,
    priority: impl Fn() -> V + Send + Sync + 'static,
) -> impl IntoView {
    let options = priority_class_options(ed);
    let class_path = base.key("priority_class");
    let class = ed.value(class_path.clone());
    let own = base.key("priority");
    let drop_own: ChangeHook = Arc::new(move |doc: &mut Value, new: &Value| {
        if !new.is_null() {
            own.set(doc, None);
        }
    });
    move || {
        let with_classes = options.with(|o| !o.is_empty());
        let chosen = class.with(Option::is_some);
        view! {
            {with_classes.then(|| view! {
                <SelectField label="Priority class" path=class_path.clone() options=options testid="priority-class" on_change=drop_own.clone() />
            })}
            {(!chosen).then(&priority)}
        }
    }
}

/// After a job id changes from `old` to `new`, `set_priority` events naming it follow
/// (unless either id is also another job's).
pub fn rename_job_refs(doc: &mut Value, old: &str, new: &str) {
    if !rename_follows(doc, "jobs", "id", old, new) {
        return;
    }
    if let Some(a) = doc.get_mut("events").and_then(Value::as_array_mut) {
        for e in a {
            if let Some(j) = e.pointer_mut("/set_priority/job") {
                if j.as_str() == Some(old) {
                    *j = Value::String(new.to_string());
                }
            }
        }
    }
}

/// A new job: a unique id, the first share, a type the share has a limit for, 600 s of work.
fn new_job(doc: &Value) -> Value {
    let (share, ty) = first_share_and_type(doc);
    json!({
        "id": json::unique_name("job", &names_in(doc, "jobs", "id")), "share": share, "instance_type": ty,
        "instances": 1, "priority": 0, "submit_s": 0, "work_s": 600
    })
}

/// The jobs section body.
#[component]
pub fn JobsFields() -> impl IntoView {
    let ed = use_ed();
    let len = list_len(ed, "jobs");
    let kueue = super::kueue::is_kueue(ed);
    let shown = Memo::new(move |_| {
        let n = len.get();
        if n > MANY_JOBS {
            JOBS_SHOWN
        } else {
            n
        }
    });
    view! {
        <Messages path=Path::root().key("jobs") />
        {move || {
            let n = len.get();
            (n > MANY_JOBS)
                .then(|| {
                    view! {
                        <p class="section-note many" data-testid="jobs-truncated">
                            {format!(
                                "{} jobs: showing the first {JOBS_SHOWN}. Edit the others in the JSON view (problems in them are listed above).",
                                crate::ui::format::thousands(n as f64),
                            )}
                        </p>
                    }
                })
        }}
        // Rebuilt when the model changes: a row's labels are the model's words.
        {move || {
            let kueue = kueue.get();
            view! { <Rows len=shown row=Arc::new(move |i| view! { <JobRow base=Path::root().key("jobs").idx(i) kueue=kueue /> }.into_any()) /> }
        }}
        <AddButton list="jobs" item=new_job testid="add-job" text="+ Add job" />
    }
}

/// The row of the job at `base`, in the words of the model (`kueue`: the rows are rebuilt
/// when it changes).
#[component]
fn JobRow(base: Path, kueue: bool) -> impl IntoView {
    let ed = use_ed();
    let id = ed.value(base.key("id"));
    let what = Signal::derive(move || format!("job {}", json::display(id.get().as_ref())));
    let head = view! {
        <TextField label="Job id" path=base.key("id") on_rename=rename_job_refs class="grow" />
        <SelectField label=crate::ui::words::share_word(kueue) path=base.key("share") options=share_options(ed) class="grow" />
        <div class="row-actions">
            <RemoveButton path=base.clone() what=what />
        </div>
    };
    let body = view! {
        <div class="grid-fields compact">
            <SelectField label=if kueue { "ResourceFlavor" } else { "Instance type" } path=base.key("instance_type") options=type_options(ed) class="wide" />
            <NumField label="Instances" path=base.key("instances") integer=true placeholder="1" />
            {priority_or_class(ed, &base, {
                let path = base.key("priority");
                move || view! { <NumField label="Priority" path=path.clone() integer=true placeholder="0" /> }
            })}
            <NumField label="Submit (s)" path=base.key("submit_s") required=true />
            <NumField label="Work (s)" path=base.key("work_s") required=true />
            <NumField label="Startup (s)" path=base.key("startup_s") placeholder="0" />
            <NumField label="Deadline (s)" path=base.key("deadline_s") placeholder="none" />
            <NumField label="Retries" path=base.key("preemption_retries") integer=true placeholder="unlimited" />
        </div>
        <div class="row-fields">
            <CheckpointField path=base.key("checkpoint") on_preempt=base.key("checkpoint_on_preempt") />
        </div>
        <super::contract::JobContractFields base=base.clone() />
        <Messages path=base.clone() />
    };
    row("job-row row", "job-row", what, head, body)
}

const EVENT_KINDS: &[&str] = &["set_priority", "update_share"];

/// A new timed event: at 60 s, the first explicit job's priority becomes 1.
fn new_event(doc: &Value) -> Value {
    let job = doc
        .pointer("/jobs/0/id")
        .and_then(Value::as_str)
        .unwrap_or("");
    json!({"at_s": 60, "set_priority": {"job": job, "priority": 1}})
}

/// The timed events section body.
#[component]
pub fn EventsFields() -> impl IntoView {
    let ed = use_ed();
    let kueue = super::kueue::is_kueue(ed);
    let len = list_len(ed, "events");
    // Explicit job ids, as suggestions for set_priority (generated ids work too).
    let ids = Memo::new(move |_| ed.doc.with(|d| d.job_ids(MANY_JOBS)));
    let list_id = next_id("job-ids");
    let list_for_rows = list_id.clone();
    view! {
        <p class="section-note">
            {move || if kueue.get() {
                "At a given time, change a Workload's priority (it may then preempt within its ClusterQueue) or change a ClusterQueue's quota or stopPolicy."
            } else {
                "At a given time, change a job's priority (it may then preempt in its share) or change a share's limits, strategy or state."
            }}
        </p>
        <datalist id=list_id>
            {move || ids.get().into_iter().map(|i| view! { <option value=i></option> }).collect_view()}
        </datalist>
        <Messages path=Path::root().key("events") />
        <Rows len=len row=Arc::new(move |i| view! { <EventRow index=i list=list_for_rows.clone() /> }.into_any()) />
        <AddButton list="events" item=new_event testid="add-event" text="+ Add event" />
    }
}

#[component]
fn EventRow(index: usize, list: String) -> impl IntoView {
    let ed = use_ed();
    let base = Path::root().key("events").idx(index);
    let value = ed.value(base.clone());
    let kind = Memo::new(move |_| {
        value.with(|v| {
            let m = v.as_ref().and_then(Value::as_object);
            EVENT_KINDS
                .iter()
                .find(|k| m.is_some_and(|m| m.contains_key(**k)))
                .copied()
                .unwrap_or("")
        })
    });
    let what = Signal::derive(move || format!("event {}", index + 1));
    let kueue = super::kueue::is_kueue(ed);
    let kind_id = next_id("f");
    let p = base.clone();
    let on_kind = move |ev| {
        let k = event_target_value(&ev);
        let (share, _) = ed.doc.with_untracked(|d| first_share_and_type(&d.value));
        let params = if k == "update_share" && kueue.get_untracked() {
            // No strategy in the Kueue model (the validator refuses AWS's fields there).
            json!({"share": share})
        } else if k == "update_share" {
            json!({"share": share, "strategy": "RESERVE"})
        } else {
            json!({"job": "", "priority": 1})
        };
        ed.edit(|doc| set_kind(doc, &p, EVENT_KINDS, &k, params))
    };
    let b_params = base.clone();
    let params = move || {
        let b = b_params.clone();
        // The model's words (the fields are rebuilt on a model switch).
        let kueue = kueue.get();
        match kind.get() {
            "set_priority" => {
                let sp = b.key("set_priority");
                view! {
                    <div class="grid-fields compact">
                        <TextField label="Job id" path=sp.key("job") list=list.clone() class="wide" />
                        <NumField label="New priority" path=sp.key("priority") integer=true required=true />
                    </div>
                    <Messages path=sp.clone() />
                }
                .into_any()
            }
            "update_share" => {
                let us = b.key("update_share");
                let owner = {
                    let s = ed.value(us.key("share"));
                    Signal::derive(move || json::display(s.get().as_ref()))
                };
                let has_limits = {
                    let l = ed.value(us.key("limits"));
                    Memo::new(move |_| l.with(Option::is_some))
                };
                let lp = us.key("limits");
                let limits_id = next_id("f");
                let toggle = {
                    let lp = lp.clone();
                    move |ev| {
                        let on = event_target_checked(&ev);
                        let (_, ty) = ed.doc.with_untracked(|d| first_share_and_type(&d.value));
                        ed.set(&lp, on.then(|| json!({ty: 0})));
                    }
                };
                let checkbox = view! {
                    <input id=limits_id.clone() type="checkbox" prop:checked=move || has_limits.get() on:change=toggle />
                };
                let change_limits = Shell::new(
                    "field check",
                    limits_id,
                    if kueue {
                        "change nominalQuota (the new map replaces the ClusterQueue's)"
                    } else {
                        "change limits (the new map replaces the share's limits)"
                    },
                )
                .around_box(checkbox, MaybeProp::default());
                let mut strategies = vec![(Value::Null, "unchanged".to_string())];
                strategies.extend(strategy_options());
                let states = vec![
                    (Value::Null, "unchanged".to_string()),
                    (json!("ENABLED"), "ENABLED".to_string()),
                    (json!("DISABLED"), "DISABLED".to_string()),
                ];
                let inshare = vec![
                    (Value::Null, "unchanged".to_string()),
                    (json!(true), "on".to_string()),
                    (json!(false), "off".to_string()),
                ];
                view! {
                    <div class="grid-fields compact">
                        <SelectField label=if kueue { "ClusterQueue" } else { "Share" } path=us.key("share") options=share_options(ed) class="wide" />
                        // AWS's fields only (a ClusterQueue has no strategy, borrow limit
                        // in percent or in-share switch: issue #34, walk).
                        {(!kueue).then(|| view! {
                            <SelectField label="Strategy" path=us.key("strategy") options=strategies class="wide" />
                            <NumField label="Borrow limit (%)" path=us.key("borrow_limit") integer=true placeholder="unchanged" />
                            <SelectField label="In-share preemption" path=us.key("in_share_preemption") options=inshare />
                        })}
                        <SelectField label=if kueue { "State (DISABLED: stopPolicy Hold)" } else { "State" } path=us.key("state") options=states />
                    </div>
                    {change_limits}
                    {move || has_limits.get().then(|| view! { <LimitsField path=lp.clone() label="New limits" owner=owner /> })}
                    <Messages path=us.clone() />
                }
                .into_any()
            }
            _ => view! { <span class="field-hint">"choose what happens"</span> }.into_any(),
        }
    };
    let select = view! {
        <select id=kind_id.clone() prop:value=move || kind.get() on:change=on_kind>
            <option value="set_priority" selected=move || kind.get() == "set_priority">
                {move || if kueue.get() { "set a Workload's priority" } else { "set a job's priority" }}
            </option>
            <option value="update_share" selected=move || kind.get() == "update_share">
                {move || if kueue.get() { "update a ClusterQueue" } else { "update a share" }}
            </option>
            {move || kind.get().is_empty().then(|| view! { <option value="" selected=true>"(choose)"</option> })}
        </select>
    };
    let head = view! {
        <span class="row-index plain" aria-hidden="true">{format!("E{}", index + 1)}</span>
        <NumField label="At (s)" path=base.key("at_s") required=true class="count" />
        {Shell::new("field select grow", kind_id, "What happens").around(select)}
        <div class="row-actions">
            <RemoveButton path=base.clone() what=what />
        </div>
    };
    let body = view! {
        {params}
        <Messages path=base.clone() />
    };
    row("event-edit-row row", "timed-event-row", what, head, body)
}
