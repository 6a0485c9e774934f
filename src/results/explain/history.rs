//! One job's history: its events (and the preemptions it caused), attempts and waiting
//! reasons, opened from the event log.

use leptos::prelude::*;
use quotalab_engine::digest::{Cause, Digest, EventKind, JobRow, State};
use quotalab_engine::simulation::Reason;

use super::log::describe;
use super::{job_id, selected_job, share_name, swatch};
use crate::results::timeline::kept_events;
use crate::state::last_digest as digest;
use crate::ui::format::{self, clock};
use quotalab_engine::output::explain::reason_label_in;

/// What one line of a job's history is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// One of the job's own events.
    Event(EventKind),
    /// The job took the place of `victim` (a job row): it was the preemptor.
    TookPlaceOf {
        victim: Option<u32>,
        cause: Option<Cause>,
    },
}

impl Entry {
    /// The name the page gives it (`data-kind`, the `kind-…` style): the event kind's, or
    /// `preempted-other` for a preemption the job caused.
    pub fn name(self) -> &'static str {
        match self {
            Entry::Event(k) => k.as_str(),
            Entry::TookPlaceOf { .. } => "preempted-other",
        }
    }
}

/// The pill's word for an entry: the kind, spaced ("set priority"); a preemption the job
/// caused is "preemptor" (its words say whose place it took), short enough for its pill.
pub fn pill(name: &str) -> String {
    match name {
        "preempted-other" => "preemptor".to_string(),
        other => other.replace(['_', '-'], " "),
    }
}

/// One line of a job's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    pub t_s: f64,
    pub entry: Entry,
    /// What happened, in plain words.
    pub words: String,
}

/// One job's story, gathered from a run.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    pub job: JobRow,
    pub share: String,
    /// Every event of the job, and the preemptions it caused, in log order.
    pub events: Vec<HistoryEntry>,
    /// The page's events end before the job's story does (a capped log,
    /// [`Digest::events_until_s`]): `events`, `attempts` and `reasons` tell its start only.
    pub cut: bool,
    /// Times the job started (took its instances).
    pub attempts: usize,
    /// Distinct waiting reasons, in order of first appearance.
    pub reasons: Vec<Reason>,
}

/// The history of the job with id `id`, if the run has it.
pub fn history(d: &Digest, id: &str) -> Option<History> {
    let j = d.jobs.iter().position(|r| r.id == id)?;
    let mine = Some(j as u32);
    let mut events = Vec::new();
    for e in &d.events {
        if e.job == mine {
            events.push(HistoryEntry {
                t_s: e.t_s,
                entry: Entry::Event(e.kind),
                words: describe(d, e),
            });
        } else if e.kind == EventKind::Preempt && e.by == mine {
            let victim = job_id(d, e.job).unwrap_or("a job");
            let cause = e.cause.map_or("preemption", Cause::as_str);
            events.push(HistoryEntry {
                t_s: e.t_s,
                entry: Entry::TookPlaceOf {
                    victim: e.job,
                    cause: e.cause,
                },
                words: format!("took the place of {victim} ({})", cause.replace('_', "-")),
            });
        }
    }
    let segments = d.segments();
    let stretches = segments.of(j as u32);
    let attempts = stretches
        .iter()
        .filter(|s| s.state == State::Starting)
        .count();
    let mut reasons: Vec<Reason> = Vec::new();
    for r in stretches.iter().filter_map(|s| s.reason) {
        if !reasons.contains(&r) {
            reasons.push(r);
        }
    }
    let job = d.jobs[j].clone();
    let cut = d
        .events_until_s
        .is_some_and(|u| job.end_s.is_none_or(|end| end >= u));
    Some(History {
        cut,
        share: share_name(d, job.share).to_string(),
        job,
        events,
        attempts,
        reasons,
    })
}

/// The history panel of the job picked in the [`EventLog`](super::EventLog): attempts, preemptions (who and
/// why), waiting reasons, lost work and held time.
#[component]
pub fn JobHistory() -> impl IntoView {
    let app = crate::state::use_app();
    let digest = digest();
    let select = selected_job();
    // A job the new run does not have closes the panel.
    Effect::new(move |_| {
        digest.with(|d| {
            let Some(d) = d else { return };
            let id = select.get_untracked();
            if id.is_some_and(|id| !d.jobs.iter().any(|j| j.id == id)) {
                select.set(None);
            }
        })
    });
    // Picking a job brings its history into view.
    Effect::new(move |prev: Option<Option<String>>| {
        let id = select.get();
        if prev.is_some() && id.is_some() {
            request_animation_frame(|| {
                if let Some(el) = document().get_element_by_id("job-history-heading") {
                    el.scroll_into_view();
                }
            });
        }
        id
    });
    let body = move || {
        let id = select.get()?;
        let d = digest.get()?;
        let Some(h) = history(&d, &id) else {
            return Some(
                view! { <p class="empty-note">{format!("{id} is not part of this run.")}</p> }
                    .into_any(),
            );
        };
        let j = &h.job;
        // A replayed history's unfinished job: its work is a lower bound.
        let unfinished = app
            .unfinished
            .with(|u| crate::state::unfinished_mark(u, &j.id).map(|m| format!(": {m}")))
            .unwrap_or_default();
        let plural = |n: u64, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        let inst = j.instances.max(1) as f64;
        let lost = if j.lost_s > 0.0 {
            format!(
                "{} of progress ({} instance-hours)",
                format::duration(j.lost_s),
                format::hours(j.lost_s * inst / 3600.0)
            )
        } else {
            "none".to_string()
        };
        let held = format!(
            "{} × {} ({} instance-hours)",
            format::duration(j.held_s),
            plural(j.instances, "instance"),
            format::hours(j.held_s * inst / 3600.0)
        );
        // A capped log: what is counted from the events is counted in the ones kept.
        let in_kept = |x: String| {
            if h.cut {
                format!("{x} (in the events the page keeps)")
            } else {
                x
            }
        };
        let reasons = if h.reasons.is_empty() {
            let never = "never waited for a reason";
            if h.cut {
                format!("{never} in the events the page keeps")
            } else {
                never.to_string()
            }
        } else {
            in_kept(
                h.reasons
                    .iter()
                    .map(|&r| reason_label_in(r, d.kueue.is_some()))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        };
        let attempts = in_kept(h.attempts.to_string());
        let cut = kept_events(&d, clock).filter(|_| h.cut).map(|kept| {
            view! {
                <p class="empty-note" data-testid="history-cut">
                    {format!(
                        "The page keeps the run's {kept}: this job's events after that are not listed. “Export results (JSON)” in the Files menu has every event."
                    )}
                </p>
            }
        });
        let waiting = j
            .waiting_reason
            .map(|r| format!(" (waiting: {})", reason_label_in(r, d.kueue.is_some())))
            .unwrap_or_default();
        let items = h
            .events
            .iter()
            .map(|h| {
                let k = h.entry.name();
                view! {
                    <li data-kind=k>
                        <span class="t">{clock(h.t_s)}</span>
                        <span class=format!("kind kind-{k}")>{pill(k)}</span>
                        <span class="what">{h.words.clone()}</span>
                    </li>
                }
            })
            .collect_view();
        Some(
            view! {
                <h3>
                    {swatch(j.share)}
                    {format!("{} ({})", j.id, h.share)}
                </h3>
                <dl class="history-facts">
                    <dt>"State at the end"</dt>
                    <dd data-testid="history-state">{format!("{}{waiting}{unfinished}", j.state.as_str())}</dd>
                    <dt>"Submitted / first start / end"</dt>
                    <dd>
                        {format!(
                            "{} / {} / {}",
                            clock(j.submit_s),
                            j.first_start_s.map_or("never".into(), clock),
                            j.end_s.map_or("—".into(), clock),
                        )}
                    </dd>
                    <dt>"Attempts"</dt>
                    <dd data-testid="history-attempts">{attempts}</dd>
                    <dt>"Preemptions"</dt>
                    <dd data-testid="history-preemptions">{plural(j.preemptions, "preemption")}</dd>
                    <dt>"Lost work"</dt>
                    <dd data-testid="history-lost">{lost}</dd>
                    <dt>"Held"</dt>
                    <dd data-testid="history-held">{held}</dd>
                    <dt>"Waited because"</dt>
                    <dd>{reasons}</dd>
                </dl>
                <ol class="history-events" data-testid="history-events">{items}</ol>
                {cut}
            }
            .into_any(),
        )
    };
    // Kueue admits workloads (issue #34: the Kueue model speaks Kueue).
    let heading = move || {
        if digest.with(|d| d.as_ref().is_some_and(|d| d.kueue.is_some())) {
            "Workload history"
        } else {
            "Job history"
        }
    };
    view! {
        <Show when=move || select.with(Option::is_some)>
            <section class="card job-history" aria-labelledby="job-history-heading" data-testid="job-history">
                <div class="history-head">
                    <h2 id="job-history-heading">{heading}</h2>
                    <button type="button" class="close" on:click=move |_| select.set(None)>
                        "Close"
                    </button>
                </div>
                {body}
            </section>
        </Show>
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

    // Issue #30: a capped log tells a job's story up to where it stops, and says so; a
    // job that ended before it has its whole story.
    #[test]
    fn a_capped_log_cuts_the_stories_it_does_not_finish() {
        let d = aws();
        assert!(d.jobs.iter().all(|j| !history(&d, &j.id).unwrap().cut));
        let text = include_str!("../../../www/presets/aws-walkthrough.json");
        let capped = quotalab_engine::run_digest(
            text,
            DigestLimits {
                max_events: 28,
                ..DigestLimits::default()
            },
        )
        .unwrap();
        let until = capped.events_until_s.unwrap();
        let mut cut = 0;
        for j in &capped.jobs {
            let h = history(&capped, &j.id).unwrap();
            assert_eq!(h.cut, j.end_s.is_none_or(|e| e >= until), "{}", j.id);
            assert!(h.events.iter().all(|e| e.t_s <= until));
            cut += usize::from(h.cut);
        }
        assert!(cut > 0 && cut < capped.jobs.len(), "{cut} cut");
    }

    fn row(d: &Digest, id: &str) -> u32 {
        d.jobs.iter().position(|j| j.id == id).unwrap() as u32
    }

    // bg-p3 runs, is preempted in-share by bg-p1 at 120, waits and runs again.
    #[test]
    fn a_preempted_jobs_history() {
        let d = aws();
        let h = history(&d, "bg-p3").unwrap();
        assert_eq!(h.share, "background");
        assert_eq!(h.job.state, State::Succeeded);
        assert_eq!(h.attempts, 2);
        assert_eq!(h.reasons, [Reason::NoLendableCapacity]);
        let first = &h.events[0];
        assert_eq!(
            (first.t_s, first.entry),
            (0.0, Entry::Event(EventKind::Submit))
        );
        assert_eq!(first.words, "submitted to its share's queue");
        assert_eq!(
            h.events.last().unwrap().entry,
            Entry::Event(EventKind::Succeed)
        );
        let pre: Vec<&HistoryEntry> = h
            .events
            .iter()
            .filter(|e| e.entry == Entry::Event(EventKind::Preempt))
            .collect();
        assert_eq!(pre.len(), 1);
        assert_eq!(pre[0].t_s, 120.0);
        assert!(
            pre[0].words.contains("preempted by bg-p1"),
            "{}",
            pre[0].words
        );
        assert!(h.events.iter().all(|e| matches!(e.entry, Entry::Event(_))));
        assert!(history(&d, "nobody").is_none());
    }

    // bg-p1's history tells whose place it took; med-1's the reclaim it caused.
    #[test]
    fn a_preemptors_history_names_its_victims() {
        let d = aws();
        let took = |id: &str| -> Vec<(f64, Entry, String)> {
            history(&d, id)
                .unwrap()
                .events
                .into_iter()
                .filter(|e| matches!(e.entry, Entry::TookPlaceOf { .. }))
                .map(|e| (e.t_s, e.entry, e.words))
                .collect()
        };
        assert_eq!(
            took("bg-p1"),
            [(
                120.0,
                Entry::TookPlaceOf {
                    victim: Some(row(&d, "bg-p3")),
                    cause: Some(Cause::InShare)
                },
                "took the place of bg-p3 (in-share)".to_string()
            )]
        );
        assert_eq!(
            took("med-1"),
            [(
                60.0,
                Entry::TookPlaceOf {
                    victim: Some(row(&d, "bg-p2")),
                    cause: Some(Cause::Reclaim)
                },
                "took the place of bg-p2 (reclaim)".to_string()
            )]
        );
        assert_eq!(took("med-1").len(), 1);
        let h = history(&d, "med-1").unwrap();
        assert_eq!((h.attempts, h.reasons.len()), (1, 0));
        let names: Vec<&str> = h.events.iter().map(|e| e.entry.name()).collect();
        assert!(names.contains(&"preempted-other"), "{names:?}");
        assert_eq!(pill("preempted-other"), "preemptor");
        assert_eq!(pill("set_priority"), "set priority");
        assert_eq!(names[0], "submit");
    }
}
