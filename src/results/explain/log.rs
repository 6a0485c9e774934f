//! The event log: every event of the run in plain words, filtered by kind, share or job,
//! rendered a page at a time.

use leptos::prelude::*;
use quotalab_engine::digest::{Digest, EventKind, EventRow};

use super::{job_id, selected_job, share_name, swatch};
use crate::results::timeline::kept_events;
use crate::state::later_digest as digest;
use crate::ui::card::card;
use crate::ui::format::{self, clock};
use quotalab_engine::output::explain::reason_label_in;

/// Rows the event log renders at first (a new run or filter starts here again). Kept small:
/// every run rebuilds them, and on a large scenario they were most of the page's work after a
/// result landed (docs/PERFORMANCE.md, "Browser").
pub const FIRST_PAGE: usize = 100;

/// Rows each "show more" adds.
pub const MORE: usize = 500;

/// The event kinds of SPEC 8, in the order the kind filter lists them.
pub const KINDS: [EventKind; 12] = EventKind::ALL;

/// What one event says, in plain words (the engine's explanation where it has one).
pub fn describe(d: &Digest, e: &EventRow) -> String {
    let or = |s: Option<&str>, fallback: &str| s.unwrap_or(fallback).to_string();
    match e.kind {
        EventKind::Submit if d.kueue.is_some() => {
            "submitted to its LocalQueue's ClusterQueue".into()
        }
        EventKind::Submit => "submitted to its share's queue".into(),
        EventKind::Dispatch => {
            let limit = if d.kueue.is_some() {
                "its ClusterQueue's nominal quota"
            } else {
                "its share's limit"
            };
            if e.borrowing == Some(true) {
                format!("admitted, borrowing beyond {limit} (it can be reclaimed)")
            } else {
                format!("admitted within {limit}")
            }
        }
        EventKind::Start => "instances held: starting up".into(),
        EventKind::Running => "running: making progress".into(),
        EventKind::Preempt => {
            let by = job_id(d, e.by).unwrap_or("another job");
            or(d.explain(e), &format!("preempted by {by}"))
        }
        EventKind::Requeue => "back in the queue after its preemption".into(),
        EventKind::Succeed => "succeeded".into(),
        EventKind::Fail => "failed: preempted more often than its preemption retries allow".into(),
        EventKind::Reject if d.kueue.is_some() => {
            "rejected: its ClusterQueue is stopped (stopPolicy) and takes no new Workload".into()
        }
        EventKind::Reject => "rejected: its share is DISABLED and accepts no new job".into(),
        EventKind::Waiting => {
            // A preemptor waiting for its victims says so, whatever its reason code (the
            // same wait was tagged "capacity in use" on one row, "no lendable capacity" on
            // another: issue #34, walk).
            let reason = if e.for_preempted {
                "for preempted workloads"
            } else {
                let kueue = d.kueue.is_some();
                e.reason.map_or("waiting", |r| reason_label_in(r, kueue))
            };
            match d.explain(e) {
                Some(x) => format!("waits ({reason}): {x}"),
                None => format!("waits ({reason})"),
            }
        }
        EventKind::SetPriority => match e.priority {
            Some(p) => format!("priority set to {p}"),
            None => "priority changed".into(),
        },
        EventKind::UpdateShare => {
            format!("{} updated (limits or strategy)", share_name(d, e.share))
        }
    }
}

/// The event log's filters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// A share name; empty = every share.
    pub share: String,
    /// A kind (SPEC 8); `None` = every kind.
    pub kind: Option<EventKind>,
    /// Part of a job id; empty = every event (including events without a job).
    pub job: String,
}

/// Indices of the events that pass `f`, in log order.
pub fn filter_events(d: &Digest, f: &Filter) -> Vec<u32> {
    let share = (!f.share.is_empty())
        .then(|| d.shares.iter().position(|s| s.name == f.share))
        .map(|p| p.map_or(u16::MAX, |p| p as u16));
    let needle = f.job.trim();
    // Which jobs match the text, once (not per event).
    let job_ok: Option<Vec<bool>> =
        (!needle.is_empty()).then(|| d.jobs.iter().map(|j| j.id.contains(needle)).collect());
    d.events
        .iter()
        .enumerate()
        .filter(|(_, e)| share.is_none_or(|s| e.share == s))
        .filter(|(_, e)| f.kind.is_none_or(|k| e.kind == k))
        .filter(|(_, e)| match &job_ok {
            None => true,
            Some(ok) => e.job.is_some_and(|j| ok.get(j as usize) == Some(&true)),
        })
        .map(|(i, _)| i as u32)
        .collect()
}

/// Counts of each kind present in the log, in [`KINDS`] order.
pub fn kind_counts(d: &Digest) -> Vec<(EventKind, usize)> {
    let mut n = [0usize; KINDS.len()];
    for e in &d.events {
        if let Some(k) = KINDS.iter().position(|k| *k == e.kind) {
            n[k] += 1;
        }
    }
    KINDS
        .iter()
        .zip(n)
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| (*k, n))
        .collect()
}

/// What one row of the log shows, worked out from the digest (the log draws its rows again
/// only when one of them reads otherwise: issue #30).
#[derive(Clone, PartialEq)]
struct Shown {
    clock: String,
    share: u16,
    share_name: String,
    job: Option<String>,
    kind: EventKind,
    what: String,
    by: Option<String>,
}

/// Row `i` of the event log as it reads.
fn shown(d: &Digest, i: u32, unfinished: &str) -> Shown {
    let e = &d.events[i as usize];
    let mut what = describe(d, e);
    // A replayed history's unfinished job "succeeds" with only the work it had done.
    if e.kind == EventKind::Succeed {
        if let Some(mark) =
            job_id(d, e.job).and_then(|id| crate::state::unfinished_mark(unfinished, id))
        {
            what = format!("{what}: {mark}");
        }
    }
    Shown {
        clock: clock(e.t_s),
        share: e.share,
        share_name: share_name(d, e.share).to_string(),
        job: job_id(d, e.job).map(str::to_string),
        kind: e.kind,
        what,
        by: (e.kind == EventKind::Preempt)
            .then(|| job_id(d, e.by).map(str::to_string))
            .flatten(),
    }
}

fn event_row(row: Shown, select: RwSignal<Option<String>>) -> impl IntoView {
    let Shown {
        clock,
        share,
        share_name,
        job,
        kind,
        what,
        by,
    } = row;
    let job = job.map(|id| {
        let label = format!("Show the history of {id}");
        let shown = id.clone();
        view! {
            <button
                type="button"
                class="job-link"
                aria-label=label
                on:click=move |_| select.set(Some(id.clone()))
            >
                {shown}
            </button>
        }
    });
    view! {
        <tr data-testid="event-row" data-kind=kind.as_str() data-by=by>
            <td class="num t">{clock}</td>
            <td class="share">{swatch(share)} {share_name}</td>
            <td class="job">{job}</td>
            <td>
                <span class=format!("kind kind-{}", kind.as_str())>{kind.as_str().replace('_', " ")}</span>
            </td>
            <td class="what">{what}</td>
        </tr>
    }
}

/// The event log of the last good run: filterable by share, kind and job; the first
/// [`FIRST_PAGE`] rows, and [`MORE`] per "show more". A job id opens its [`JobHistory`](super::JobHistory).
#[component]
pub fn EventLog() -> impl IntoView {
    let app = crate::state::use_app();
    let digest = digest();
    let kueue = Memo::new(move |_| digest.with(|d| d.as_ref().is_some_and(|d| d.kueue.is_some())));
    let select = selected_job();
    let share = RwSignal::new(String::new());
    let kind = RwSignal::new(None::<EventKind>);
    let job = RwSignal::new(String::new());
    let limit = RwSignal::new(FIRST_PAGE);

    // A filter that no longer applies to the new run (a share or kind it lacks) is dropped.
    Effect::new(move |_| {
        digest.with(|d| {
            let Some(d) = d else { return };
            if !share.get_untracked().is_empty()
                && !d.shares.iter().any(|s| s.name == share.get_untracked())
            {
                share.set(String::new());
            }
            if let Some(k) = kind.get_untracked() {
                if !d.events.iter().any(|e| e.kind == k) {
                    kind.set(None);
                }
            }
        })
    });
    let filtered = Memo::new(move |_| {
        let f = Filter {
            share: share.get(),
            kind: kind.get(),
            job: job.get(),
        };
        digest.with(|d| d.as_ref().map(|d| filter_events(d, &f)).unwrap_or_default())
    });
    // A new filter or run starts from the first page.
    Effect::new(move |_| {
        filtered.with(|_| ());
        limit.set(FIRST_PAGE);
    });

    let share_options = move || {
        digest.with(|d| {
            d.as_ref().map(|d| {
                d.shares
                    .iter()
                    .map(|s| {
                        let n = s.name.clone();
                        let sel = n.clone();
                        let value = n.clone();
                        view! {
                            <option value=value prop:selected=move || share.get() == sel>
                                {n}
                            </option>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let kind_options = move || {
        digest.with(|d| {
            d.as_ref().map(|d| {
                kind_counts(d)
                    .into_iter()
                    .map(|(k, n)| {
                        view! {
                            <option value=k.as_str() prop:selected=move || kind.get() == Some(k)>
                                {format!("{} ({})", k.as_str().replace('_', " "), format::thousands(n as f64))}
                            </option>
                        }
                    })
                    .collect_view()
            })
        })
    };
    // The rows shown, as they read: a new run whose first rows read the same draws nothing
    // again (a share edit on a large trace rebuilt 100 rows a task after its result).
    let rows = Memo::new(move |_| {
        let Some(d) = digest.get() else {
            return Vec::new();
        };
        let n = limit.get();
        app.unfinished.with(|u| {
            filtered.with(|f| {
                f.iter()
                    .take(n)
                    .map(|&i| shown(&d, i, u))
                    .collect::<Vec<_>>()
            })
        })
    });
    let rows = move || {
        rows.with(|r| {
            r.iter()
                .map(|row| event_row(row.clone(), select))
                .collect_view()
        })
    };
    let status = move || {
        let Some(d) = digest.get() else {
            return String::new();
        };
        let shown = filtered.with(Vec::len);
        // Capped only where the digest says its events stop: a contract's own events
        // (restore failures, alarms) count in `event_count` but are not rows of the log.
        let capped = kept_events(&d, clock)
            .map(|kept| format!(" (the page keeps the {kept})"))
            .unwrap_or_default();
        format!(
            "{} of {} events match{capped}; showing {}",
            format::thousands(shown as f64),
            format::thousands(d.events.len() as f64),
            format::thousands(shown.min(limit.get()) as f64),
        )
    };
    let more = move || {
        let left = filtered.with(Vec::len).saturating_sub(limit.get());
        (left > 0).then(|| {
            let step = left.min(MORE);
            view! {
                <button
                    type="button"
                    class="show-more"
                    data-testid="event-log-more"
                    on:click=move |_| limit.update(|n| *n += MORE)
                >
                    {format!("Show {} more ({} left)", format::thousands(step as f64), format::thousands(left as f64))}
                </button>
            }
        })
    };

    view! {
        {card("event-log", "Event log", "event-log", Some("event-log"), view! {
            <p class="explain-intro">
                {move || format!(
                    "Everything the simulator did, in order. Preemptions and waiting reasons say why in plain words; pick a {} id to see its whole history.",
                    if kueue.get() { "workload" } else { "job" }
                )}
            </p>
            <div class="event-filters">
                <label>
                    {move || format!("{} ", crate::ui::words::share_word(kueue.get()))}
                    <select
                        data-testid="event-filter-share"
                        on:change=move |ev| share.set(event_target_value(&ev))
                    >
                        <option value="" prop:selected=move || share.get().is_empty()>
                            {move || if kueue.get() { "All ClusterQueues" } else { "All shares" }}
                        </option>
                        {share_options}
                    </select>
                </label>
                <label>
                    "Kind "
                    <select
                        data-testid="event-filter-kind"
                        on:change=move |ev| kind.set(EventKind::parse(&event_target_value(&ev)))
                    >
                        <option value="" prop:selected=move || kind.get().is_none()>
                            "All kinds"
                        </option>
                        {kind_options}
                    </select>
                </label>
                <label>
                    {move || if kueue.get() { "Workload " } else { "Job " }}
                    <input
                        type="search"
                        data-testid="event-filter-job"
                        placeholder=move || if kueue.get() { "workload id contains…" } else { "job id contains…" }
                        prop:value=move || job.get()
                        on:input=move |ev| job.set(event_target_value(&ev))
                    />
                </label>
            </div>
            <p class="event-status" role="status" data-testid="event-status">{status}</p>
            <div class="event-scroll">
                <table class="events">
                    <caption class="visually-hidden">"Simulation events"</caption>
                    <thead>
                        <tr>
                            <th scope="col" class="num">"Time"</th>
                            <th scope="col">{move || crate::ui::words::share_word(kueue.get())}</th>
                            <th scope="col">{move || if kueue.get() { "Workload" } else { "Job" }}</th>
                            <th scope="col">"Event"</th>
                            <th scope="col">"What happened"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {more}
        })}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quotalab_engine::digest::DigestLimits;

    fn aws() -> Digest {
        let text = include_str!("../../../www/presets/aws-walkthrough.json");
        quotalab_engine::run_digest(text, DigestLimits::default()).expect("the walkthrough runs")
    }

    #[test]
    fn a_kueue_submit_names_its_clusterqueue() {
        let text = include_str!("../../../www/presets/kueue-three-queues.json");
        let d =
            quotalab_engine::run_digest(text, DigestLimits::default()).expect("the preset runs");
        let submit = d
            .events
            .iter()
            .find(|e| e.kind == EventKind::Submit)
            .unwrap();
        assert_eq!(
            describe(&d, submit),
            "submitted to its LocalQueue's ClusterQueue"
        );
    }

    #[test]
    fn a_kueue_reject_names_the_stop_policy() {
        let mut sc: serde_json::Value =
            serde_json::from_str(include_str!("../../../www/presets/kueue-three-queues.json"))
                .unwrap();
        sc["shares"][0]["state"] = serde_json::json!("DISABLED");
        let d = quotalab_engine::run_digest(&sc.to_string(), DigestLimits::default())
            .expect("the preset runs");
        let reject = d.events.iter().find(|e| e.kind == EventKind::Reject);
        let reject = reject.expect("a job of the stopped ClusterQueue is rejected");
        assert_eq!(
            describe(&d, reject),
            "rejected: its ClusterQueue is stopped (stopPolicy) and takes no new Workload"
        );
    }

    #[test]
    fn the_kind_filter_lists_the_kinds_present_in_spec_order() {
        let d = aws();
        let counts = kind_counts(&d);
        let kinds: Vec<EventKind> = counts.iter().map(|c| c.0).collect();
        let mut in_order = kinds.clone();
        in_order.sort_by_key(|k| KINDS.iter().position(|x| x == k));
        assert_eq!(kinds, in_order);
        assert_eq!(counts.iter().map(|c| c.1).sum::<usize>(), d.events.len());
        assert!(counts.contains(&(EventKind::Preempt, 2)), "{counts:?}");
        assert!(counts.contains(&(EventKind::SetPriority, 1)), "{counts:?}");
        assert!(KINDS.iter().all(|k| k.as_str() != "checkpoint"));
    }

    #[test]
    fn filters_narrow_by_kind_share_and_job() {
        let d = aws();
        let all = filter_events(&d, &Filter::default());
        assert_eq!(all.len(), d.events.len());
        let pre = filter_events(
            &d,
            &Filter {
                kind: Some(EventKind::Preempt),
                ..Filter::default()
            },
        );
        let who: Vec<&str> = pre
            .iter()
            .map(|&i| {
                d.jobs[d.events[i as usize].job.unwrap() as usize]
                    .id
                    .as_str()
            })
            .collect();
        assert_eq!(who, ["bg-p2", "bg-p3"]);
        let medium = filter_events(
            &d,
            &Filter {
                share: "medium".into(),
                ..Filter::default()
            },
        );
        assert!(!medium.is_empty());
        assert!(medium.iter().all(|&i| d.events[i as usize].share == 1));
        let p1 = filter_events(
            &d,
            &Filter {
                job: " bg-p1 ".into(),
                ..Filter::default()
            },
        );
        assert!(p1.iter().all(|&i| d.events[i as usize]
            .job
            .map(|j| d.jobs[j as usize].id.as_str())
            == Some("bg-p1")));
        let none = filter_events(
            &d,
            &Filter {
                share: "no such share".into(),
                ..Filter::default()
            },
        );
        assert!(none.is_empty());
    }

    /// Issue #34 (fresh-eyes walk): a Kueue wait at its borrowingLimit says so in Kueue's
    /// words, once: not "(borrow limit reached): ...'s borrowing limit ... is used up".
    #[test]
    fn a_kueue_wait_says_its_borrowing_limit_once() {
        let jobs: Vec<String> = (1..=4)
            .map(|i| format!(r#"{{"id": "a{i}", "share": "team-a", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 100}}"#))
            .collect();
        let text = format!(
            r#"{{"format": "quotalab/v1", "model": "kueue", "horizon_s": 50,
                "shares": [{{"name": "team-a", "limits": {{"ml.g5.xlarge": 1}}, "cohort": "c", "borrowing_limit": {{"ml.g5.xlarge": 2}}}},
                           {{"name": "team-b", "limits": {{"ml.g5.xlarge": 5}}, "cohort": "c"}}],
                "cohorts": [{{"name": "c"}}], "jobs": [{}]}}"#,
            jobs.join(",")
        );
        let d = quotalab_engine::run_digest(&text, DigestLimits::default()).expect("runs");
        let waits: Vec<String> = d
            .events
            .iter()
            .filter(|e| e.kind == EventKind::Waiting)
            .map(|e| describe(&d, e))
            .collect();
        let last = waits.last().expect("a4 waits");
        assert_eq!(
            last,
            "waits (borrowingLimit reached): team-a may borrow at most 2 ml.g5.xlarge beyond its nominalQuota; waits for its own workloads to finish"
        );
        assert!(!last.contains("borrow limit"), "{last}");
    }

    #[test]
    fn events_in_plain_words() {
        let d = aws();
        let first = |k: EventKind| d.events.iter().find(|e| e.kind == k).unwrap();
        assert_eq!(
            describe(&d, first(EventKind::Submit)),
            "submitted to its share's queue"
        );
        let reclaim = describe(&d, first(EventKind::Preempt));
        assert!(reclaim.contains("reclaimed by med-1"), "{reclaim}");
        let waits = describe(&d, first(EventKind::Waiting));
        assert!(
            waits.starts_with("waits (no lendable capacity): "),
            "{waits}"
        );
        assert_eq!(
            describe(&d, first(EventKind::SetPriority)),
            "priority set to 4"
        );
    }
}
