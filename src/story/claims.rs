//! Checks a story's claims against what the engine did: every sentence of a story says
//! something about the run (an event at a time, a job's state, the allocation series, a
//! metric), and [`check`] runs the story's scenario through the engine and lists each claim
//! that does not hold. The native story tests call it for every shipped story; the page
//! never does (it only shows the run).

use quotalab_engine::analysis::verdict;
use quotalab_engine::compare::{self, Metric, Policy};
use quotalab_engine::digest::{Digest, DigestLimits, EventKind, ShareMetrics};
use quotalab_engine::pipeline::Product;

use super::format::{apply_edit, Claim, Highlight, Story};

/// Every claim of `story` (and of its steps' edits, in the edited scenario) that the engine's
/// run contradicts, as sentences naming the step; empty when the story tells the truth.
/// Highlights that name a share, job or event the run does not have count as failures too.
pub fn check(story: &Story) -> Vec<String> {
    let text = story.scenario_text();
    let mut out = Vec::new();
    let run = match Run::new(&text) {
        Ok(r) => r,
        Err(e) => return vec![format!("story {}: {e}", story.id)],
    };
    for (i, step) in story.steps.iter().enumerate() {
        let at = |what: String| format!("story {} step {}: {what}", story.id, i + 1);
        match step.claims.parse() {
            Ok(claims) => {
                for c in &claims {
                    if let Err(e) = run.holds(c) {
                        out.push(at(e));
                    }
                }
            }
            Err(e) => out.push(at(e)),
        }
        for h in &step.highlight {
            if let Err(e) = run.shows(h) {
                out.push(at(e));
            }
        }
        if let Some(edit) = &step.try_edit {
            match apply_edit(&text, edit).and_then(|t| Run::new(&t)) {
                Ok(edited) => match edit.claims.parse() {
                    Ok(claims) => {
                        for c in &claims {
                            if let Err(e) = edited.holds(c) {
                                out.push(at(format!("after \"{}\": {e}", edit.label)));
                            }
                        }
                    }
                    Err(e) => out.push(at(e)),
                },
                Err(e) => out.push(at(format!("the edit \"{}\" fails: {e}", edit.label))),
            }
        }
    }
    out
}

/// A scenario's run, with its comparison computed when a claim asks for it.
struct Run {
    text: String,
    digest: Digest,
}

impl Run {
    fn new(text: &str) -> Result<Run, String> {
        let limits = DigestLimits {
            max_points: usize::MAX,
            max_events: usize::MAX,
            max_jobs: usize::MAX,
        };
        let digest = quotalab_engine::run_digest(text, limits).map_err(|ps| {
            let lines: Vec<String> = ps.iter().map(ToString::to_string).collect();
            format!("the scenario is invalid: {}", lines.join("; "))
        })?;
        Ok(Run {
            text: text.to_string(),
            digest,
        })
    }

    fn job(&self, id: &str) -> Result<u32, String> {
        self.digest
            .jobs
            .iter()
            .position(|j| j.id == id)
            .map(|j| j as u32)
            .ok_or_else(|| format!("the run has no job {id}"))
    }

    fn share(&self, name: &str) -> Result<u16, String> {
        self.digest
            .shares
            .iter()
            .position(|s| s.name == name)
            .map(|s| s as u16)
            .ok_or_else(|| format!("the run has no share {name}"))
    }

    fn shows(&self, h: &Highlight) -> Result<(), String> {
        match h {
            Highlight::Allocation { share } => self.share(share).map(drop),
            Highlight::Job { job } => self.job(job).map(drop),
            Highlight::Event { event, job } => {
                let kind =
                    EventKind::parse(event).ok_or_else(|| format!("no event kind {event}"))?;
                let j = self.job(job)?;
                self.digest
                    .events
                    .iter()
                    .any(|e| e.kind == kind && e.job == Some(j))
                    .then_some(())
                    .ok_or_else(|| format!("the log has no {event} event of {job}"))
            }
            Highlight::StateAt | Highlight::Compare | Highlight::Summary | Highlight::Cohorts => {
                Ok(())
            }
        }
    }

    fn holds(&self, c: &Claim) -> Result<(), String> {
        let d = &self.digest;
        match c {
            Claim::Event {
                event,
                t_s,
                job,
                cause,
                by,
                borrowing,
            } => {
                let kind =
                    EventKind::parse(event).ok_or_else(|| format!("no event kind {event}"))?;
                let job = job.as_deref().map(|j| self.job(j)).transpose()?;
                let by = by.as_deref().map(|j| self.job(j)).transpose()?;
                let found = d.events.iter().any(|e| {
                    e.kind == kind
                        && (e.t_s - t_s).abs() < 1e-6
                        && job.is_none_or(|j| e.job == Some(j))
                        && by.is_none_or(|b| e.by == Some(b))
                        && cause
                            .as_deref()
                            .is_none_or(|c| e.cause.map(|x| x.as_str()) == Some(c))
                        && borrowing.is_none_or(|b| e.borrowing == Some(b))
                });
                found
                    .then_some(())
                    .ok_or_else(|| format!("no event matches {c:?}"))
            }
            Claim::State { job, state, t_s } => {
                let j = self.job(job)?;
                let segments = d.segments();
                let got = segments.at(j, *t_s).map(|s| s.state.as_str());
                (got == Some(state.as_str()))
                    .then_some(())
                    .ok_or_else(|| format!("{job} is {got:?} at {t_s} s, not {state}"))
            }
            Claim::Series {
                share,
                t_s,
                limit,
                own,
                borrowed,
                lent,
                queued,
            } => {
                let s = self.share(share)?;
                let row = d
                    .series
                    .iter()
                    .find(|r| r.share == s)
                    .ok_or_else(|| format!("no series of {share}"))?;
                let i = row.t_s.partition_point(|&t| t <= *t_s);
                let i = i
                    .checked_sub(1)
                    .ok_or_else(|| format!("{share}'s series starts after {t_s} s"))?;
                let fields = [
                    ("limit", limit, row.limit[i]),
                    ("own", own, row.own[i]),
                    ("borrowed", borrowed, row.borrowed[i]),
                    ("lent", lent, row.lent[i]),
                    ("queued", queued, row.queued[i]),
                ];
                for (name, want, got) in fields {
                    if let Some(w) = want {
                        if !w.holds(got) {
                            return Err(format!("{share}'s {name} at {t_s} s is {got}, not {w:?}"));
                        }
                    }
                }
                Ok(())
            }
            Claim::Job {
                job,
                lost_s,
                preemptions,
                end_s,
            } => {
                let row = &d.jobs[self.job(job)? as usize];
                let fields = [
                    ("lost_s", lost_s, Some(row.lost_s)),
                    ("preemptions", preemptions, Some(row.preemptions as f64)),
                    ("end_s", end_s, row.end_s),
                ];
                for (name, want, got) in fields {
                    if let Some(w) = want {
                        if !got.is_some_and(|g| w.holds(g)) {
                            return Err(format!("{job}'s {name} is {got:?}, not {w:?}"));
                        }
                    }
                }
                Ok(())
            }
            Claim::Metric {
                share,
                metric,
                value,
                policy,
            } => {
                let got = match policy.as_deref() {
                    None => metric_value(&d.shares[self.share(share)? as usize], metric),
                    Some(p) => self.compared(p, share, metric)?,
                }
                .ok_or_else(|| format!("no metric {metric}"))?;
                value.holds(got).then_some(()).ok_or_else(|| {
                    format!("{share}'s {metric} ({policy:?}) is {got}, not {value:?}")
                })
            }
        }
    }

    /// A share's metric under one policy of the comparison, as the compare view shows it
    /// (completion over the matched jobs, SPEC 9.1).
    fn compared(&self, policy: &str, share: &str, metric: &str) -> Result<Option<f64>, String> {
        let p = Policy::ALL
            .into_iter()
            .find(|p| p.as_str() == policy)
            .ok_or_else(|| format!("no policy {policy}"))?;
        let limits = DigestLimits {
            max_points: 2,
            max_events: 0,
            max_jobs: usize::MAX,
        };
        let runs = compare::run(&self.text, Product::Digest(limits))
            .map_err(|_| "the comparison fails".to_string())?;
        let i = runs
            .matched
            .iter()
            .position(|m| m.name == share)
            .ok_or_else(|| format!("no share {share} under {policy}"))?;
        let m = &runs.metrics[p as usize][i];
        Ok(match Metric::ALL.into_iter().find(|x| x.key() == metric) {
            Some(x) => verdict::value_of(x, p, m, runs.matched.get(i)),
            None => metric_value(m, metric),
        })
    }
}

/// A metric by name: the compare view's keys (`wait-p50`, `completion-p50`...) or a digest
/// field (`lost_h`, `borrowed_h`, `lent_h`, `idle_h`, `reclaim`, `in_share`).
pub fn metric_value(m: &ShareMetrics, name: &str) -> Option<f64> {
    if let Some(metric) = Metric::ALL.into_iter().find(|x| x.key() == name) {
        return metric.value(m);
    }
    Some(match name {
        "lost_h" => m.lost_h,
        "borrowed_h" => m.borrowed_h,
        "lent_h" => m.lent_h,
        "idle_h" => m.idle_h,
        "own_h" => m.own_h,
        "reclaim" => m.reclaim as f64,
        "in_share" => m.in_share as f64,
        _ => return None,
    })
}
