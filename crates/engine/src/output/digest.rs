//! A compact, typed view of a finished run for display (the playground and its worker).
//!
//! The SPEC 8 result JSON is the exchange format; a [`Digest`] is what a UI needs to draw:
//! metrics per share, job rows, the event log with its explanations, and the series
//! downsampled to a drawable number of points. It is serde-serializable so a Web Worker can
//! send it to the page, and it answers "what was the state at time t" by replaying the log
//! ([`Digest::state_at`]): nothing here decides anything, it only reports what happened.

use serde::{Deserialize, Serialize};

use crate::model::{Ms, Scenario};
use crate::result::{self, Percentiles, Stats};
use crate::sim::{EventKind, Sim, State, NO_JOB};

const MS_PER_HOUR: f64 = 3_600_000.0;

/// Metrics of one share (or the totals), in display units.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShareMetrics {
    pub name: String,
    pub submitted: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub unfinished: u64,
    pub rejected: u64,
    pub unschedulable: u64,
    pub completion_s: Pct,
    pub wait_s: Pct,
    pub reclaim: u64,
    pub in_share: u64,
    /// Instance-hours.
    pub entitled_h: f64,
    pub own_h: f64,
    pub borrowed_h: f64,
    pub lent_h: f64,
    pub idle_h: f64,
    pub held_h: f64,
    pub useful_h: f64,
    pub lost_h: f64,
    pub startup_h: f64,
    pub checkpoint_h: f64,
    pub grace_h: f64,
    pub goodput: f64,
    pub cost_usd: f64,
    pub deadline_misses: u64,
    /// Mean time between interruptions of this share's jobs, in hours of held instance
    /// time per preemption (`None` without preemptions): the input of a checkpoint advice.
    pub hours_per_interruption: Option<f64>,
}

/// Percentiles in seconds (see [`Percentiles`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Pct {
    pub n: u64,
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl From<Percentiles> for Pct {
    fn from(p: Percentiles) -> Pct {
        Pct {
            n: p.n,
            mean: p.mean,
            p50: p.p50,
            p90: p.p90,
            p99: p.p99,
            max: p.max,
        }
    }
}

/// One job as it ended the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobRow {
    pub id: String,
    pub share: u16,
    pub instance_type: u16,
    pub instances: u64,
    pub priority: u32,
    pub state: String,
    pub submit_s: f64,
    pub first_start_s: Option<f64>,
    pub end_s: Option<f64>,
    pub preemptions: u64,
    pub lost_s: f64,
    pub held_s: f64,
    pub waiting_reason: Option<String>,
    pub checkpoint_interval_s: Option<f64>,
    pub checkpoint_cost_s: Option<f64>,
}

/// One event of the log (SPEC 8), with its explanation where it has one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventRow {
    pub t_s: f64,
    /// Index into [`Digest::jobs`], or `None` (update_share).
    pub job: Option<u32>,
    pub share: u16,
    pub kind: String,
    /// `dispatch`: borrowing; `preempt`: cause and preemptor; `waiting`: reason;
    /// `set_priority`: the new priority.
    pub borrowing: Option<bool>,
    pub cause: Option<String>,
    pub by: Option<u32>,
    pub reason: Option<String>,
    pub priority: Option<u32>,
    pub explain: Option<String>,
}

/// The change points of one (share, instance type), downsampled for drawing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesRow {
    pub share: u16,
    pub instance_type: u16,
    pub t_s: Vec<f64>,
    pub limit: Vec<f64>,
    pub own: Vec<f64>,
    pub borrowed: Vec<f64>,
    pub lent: Vec<f64>,
    pub queued: Vec<f64>,
}

/// Everything the playground shows about one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Digest {
    pub name: String,
    pub end_s: f64,
    pub shares: Vec<ShareMetrics>,
    pub totals: ShareMetrics,
    pub instance_types: Vec<String>,
    /// Capacity per instance type (instances).
    pub capacity: Vec<u64>,
    pub jobs: Vec<JobRow>,
    pub events: Vec<EventRow>,
    /// Events that happened; `events` may hold fewer when capped.
    pub event_count: u64,
    pub series: Vec<SeriesRow>,
    /// Change points before downsampling.
    pub series_points: u64,
    pub steps: u64,
}

/// What the UI asks for: how many series points and events to keep at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigestLimits {
    pub max_points: usize,
    pub max_events: usize,
}

impl Default for DigestLimits {
    fn default() -> DigestLimits {
        DigestLimits {
            max_points: 2000,
            max_events: 200_000,
        }
    }
}

fn s(ms: Ms) -> f64 {
    ms as f64 / 1000.0
}

fn metrics(name: &str, st: &Stats) -> ShareMetrics {
    let t = &st.time;
    let interruptions = st.reclaim + st.in_share;
    ShareMetrics {
        name: name.to_string(),
        submitted: st.jobs.submitted,
        succeeded: st.jobs.succeeded,
        failed: st.jobs.failed,
        unfinished: st.jobs.unfinished,
        rejected: st.jobs.rejected,
        unschedulable: st.jobs.unschedulable,
        completion_s: st.completion.into(),
        wait_s: st.wait.into(),
        reclaim: st.reclaim,
        in_share: st.in_share,
        entitled_h: t.entitled as f64 / MS_PER_HOUR,
        own_h: t.own as f64 / MS_PER_HOUR,
        borrowed_h: t.borrowed as f64 / MS_PER_HOUR,
        lent_h: t.lent / MS_PER_HOUR,
        idle_h: t.idle() / MS_PER_HOUR,
        held_h: t.held as f64 / MS_PER_HOUR,
        useful_h: t.useful as f64 / MS_PER_HOUR,
        lost_h: t.lost as f64 / MS_PER_HOUR,
        startup_h: t.startup as f64 / MS_PER_HOUR,
        checkpoint_h: t.checkpoint as f64 / MS_PER_HOUR,
        grace_h: t.grace as f64 / MS_PER_HOUR,
        goodput: st.goodput(),
        cost_usd: st.cost_usd,
        deadline_misses: st.deadline_misses,
        hours_per_interruption: (interruptions > 0)
            .then(|| t.held as f64 / MS_PER_HOUR / interruptions as f64),
    }
}

/// Downsamples change points to about `max / 2` time buckets: the first change point of
/// each bucket is kept, and the last point. Returns the indices to keep (ascending). Short
/// spikes inside a bucket are not drawn; the metrics are computed from every point.
fn keep_indices(t: &[Ms], max: usize) -> Vec<usize> {
    if t.len() <= max || max < 2 {
        return (0..t.len()).collect();
    }
    let (t0, t1) = (t[0], *t.last().unwrap_or(&0));
    let span = (t1 - t0).max(1) as f64;
    let buckets = max / 2;
    let mut keep = Vec::with_capacity(max);
    let mut last_bucket = usize::MAX;
    for (i, &x) in t.iter().enumerate() {
        let b = (((x - t0) as f64 / span) * buckets as f64) as usize;
        if b != last_bucket {
            keep.push(i);
            last_bucket = b;
        }
    }
    if keep.last() != Some(&(t.len() - 1)) {
        keep.push(t.len() - 1);
    }
    keep
}

/// Builds the digest of a finished simulation.
pub fn digest(sim: &Sim, limits: DigestLimits) -> Digest {
    let sc: &Scenario = sim.sc;
    let (shares, total) = result::stats(sim);
    // Job rows for submitted jobs only; map engine indices to row indices.
    let mut row_of = vec![u32::MAX; sc.jobs.len()];
    let mut jobs = Vec::new();
    for (i, (spec, r)) in sc.jobs.iter().zip(&sim.jobs).enumerate() {
        if r.state == State::Pending {
            continue;
        }
        row_of[i] = jobs.len() as u32;
        jobs.push(JobRow {
            id: spec.id.clone(),
            share: spec.share as u16,
            instance_type: spec.instance_type as u16,
            instances: spec.instances,
            priority: r.priority,
            state: r.state.as_str().to_string(),
            submit_s: s(spec.submit),
            first_start_s: r.first_start.map(s),
            end_s: r.end.map(s),
            preemptions: r.preemptions,
            lost_s: s(r.acc.lost),
            held_s: s(r.acc.held),
            waiting_reason: r.reason.map(|x| x.as_str().to_string()),
            checkpoint_interval_s: spec.checkpoint.map(|c| s(c.interval)),
            checkpoint_cost_s: spec.checkpoint.map(|c| s(c.cost)),
        });
    }
    let events = sim
        .events
        .iter()
        .take(limits.max_events)
        .map(|e| {
            let job = (e.job != NO_JOB).then(|| row_of[e.job as usize]);
            let mut row = EventRow {
                t_s: s(e.t),
                job,
                share: e.share as u16,
                kind: String::new(),
                borrowing: None,
                cause: None,
                by: None,
                reason: None,
                priority: None,
                explain: None,
            };
            row.kind = match e.kind {
                EventKind::Submit => "submit",
                EventKind::Dispatch { borrowing } => {
                    row.borrowing = Some(borrowing);
                    "dispatch"
                }
                EventKind::Start => "start",
                EventKind::Running => "running",
                EventKind::Preempt { cause, by, .. } => {
                    row.cause = Some(cause.as_str().to_string());
                    row.by = Some(row_of[by as usize]);
                    row.explain = Some(result::explain_preempt(sc, e.job, &e.kind));
                    "preempt"
                }
                EventKind::Requeue => "requeue",
                EventKind::Succeed => "succeed",
                EventKind::Fail => "fail",
                EventKind::Reject => "reject",
                EventKind::Waiting(r) => {
                    row.reason = Some(r.as_str().to_string());
                    row.explain = Some(result::explain_reason(sc, e.job, r));
                    "waiting"
                }
                EventKind::SetPriority(p) => {
                    row.priority = Some(p);
                    "set_priority"
                }
                EventKind::UpdateShare => "update_share",
            }
            .to_string();
            row
        })
        .collect();
    let ser = &sim.series;
    let keep = keep_indices(&ser.t, limits.max_points);
    let series = ser
        .pairs
        .iter()
        .enumerate()
        .map(|(i, &(share, t))| {
            let pick_u = |v: &Vec<u64>| keep.iter().map(|&k| v[k] as f64).collect::<Vec<f64>>();
            SeriesRow {
                share: share as u16,
                instance_type: t as u16,
                t_s: keep.iter().map(|&k| s(ser.t[k])).collect(),
                limit: pick_u(&ser.limit[i]),
                own: pick_u(&ser.own[i]),
                borrowed: pick_u(&ser.borrowed[i]),
                lent: keep.iter().map(|&k| ser.lent[i][k]).collect(),
                queued: pick_u(&ser.queued[i]),
            }
        })
        .collect();
    Digest {
        name: sc.name.clone(),
        end_s: s(sim.end),
        shares: shares
            .iter()
            .enumerate()
            .map(|(i, st)| metrics(&sc.shares[i].name, st))
            .collect(),
        totals: metrics("total", &total),
        instance_types: sc.instance_types.iter().map(|t| t.name.clone()).collect(),
        capacity: sc.capacity.clone(),
        jobs,
        events,
        event_count: sim.event_count,
        series,
        series_points: ser.t.len() as u64,
        steps: sim.steps,
    }
}

/// Who held what and who waited why at one instant (the timeline cursor's panel).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StateAt {
    pub t_s: f64,
    /// `(job row, state)` of jobs holding instances (STARTING, RUNNING, PREEMPTING).
    pub holding: Vec<(u32, String)>,
    /// `(job row)` admitted but not yet holding (SCHEDULED).
    pub scheduled: Vec<u32>,
    /// `(job row, reason)` of RUNNABLE jobs.
    pub waiting: Vec<(u32, Option<String>)>,
}

impl Digest {
    /// Replays the event log up to and including `t_s`: each job's state and reason then.
    /// (Only reports what the engine logged; it decides nothing.)
    pub fn state_at(&self, t_s: f64) -> StateAt {
        let mut state: Vec<&str> = vec![""; self.jobs.len()];
        let mut reason: Vec<Option<&str>> = vec![None; self.jobs.len()];
        for e in self.events.iter().take_while(|e| e.t_s <= t_s) {
            let Some(j) = e.job else { continue };
            let j = j as usize;
            match e.kind.as_str() {
                "submit" | "requeue" => {
                    state[j] = "RUNNABLE";
                    reason[j] = None;
                }
                "dispatch" => state[j] = "SCHEDULED",
                "start" => state[j] = "STARTING",
                "running" => state[j] = "RUNNING",
                "preempt" => {
                    state[j] = if state[j] == "SCHEDULED" {
                        "RUNNABLE"
                    } else {
                        "PREEMPTING"
                    };
                }
                "succeed" => state[j] = "SUCCEEDED",
                "fail" => state[j] = "FAILED",
                "reject" => state[j] = "REJECTED",
                "waiting" => reason[j] = e.reason.as_deref(),
                _ => {}
            }
        }
        let mut out = StateAt {
            t_s,
            ..StateAt::default()
        };
        for (j, st) in state.iter().enumerate() {
            match *st {
                "STARTING" | "RUNNING" | "PREEMPTING" => {
                    out.holding.push((j as u32, st.to_string()))
                }
                "SCHEDULED" => out.scheduled.push(j as u32),
                "RUNNABLE" => out.waiting.push((j as u32, reason[j].map(str::to_string))),
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{load, simulate, Options};

    const AWS: &str = include_str!("../../tests/golden/aws-walkthrough.json");

    fn aws() -> Digest {
        let loaded = load(AWS).unwrap();
        let sim = simulate(&loaded.scenario, Options::default());
        digest(&sim, DigestLimits::default())
    }

    #[test]
    fn digest_matches_the_result() {
        let d = aws();
        assert_eq!(d.end_s, 720.0);
        assert_eq!(d.shares.len(), 3);
        assert_eq!(d.shares[0].name, "background");
        assert_eq!((d.shares[0].reclaim, d.shares[0].in_share), (1, 1));
        assert_eq!(d.totals.submitted, 4);
        assert_eq!(d.events.len() as u64, d.event_count);
        let preempt = d.events.iter().find(|e| e.kind == "preempt").unwrap();
        assert_eq!(d.jobs[preempt.job.unwrap() as usize].id, "bg-p2");
        assert_eq!(d.jobs[preempt.by.unwrap() as usize].id, "med-1");
        assert!(preempt
            .explain
            .as_ref()
            .unwrap()
            .contains("reclaimed by med-1"));
    }

    // The cursor panel replays the log: at t=90 bg-p3 and med-1 run, bg-p2 and bg-p1 wait.
    #[test]
    fn state_at_replays_the_log() {
        let d = aws();
        let at = d.state_at(90.0);
        let ids = |v: Vec<u32>| {
            v.into_iter()
                .map(|j| d.jobs[j as usize].id.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            ids(at.holding.iter().map(|h| h.0).collect()),
            ["bg-p3", "med-1"]
        );
        let waiting: Vec<(String, Option<String>)> = at
            .waiting
            .iter()
            .map(|(j, r)| (d.jobs[*j as usize].id.clone(), r.clone()))
            .collect();
        assert_eq!(
            waiting,
            [
                (
                    "bg-p2".to_string(),
                    Some("no_lendable_capacity".to_string())
                ),
                (
                    "bg-p1".to_string(),
                    Some("no_lendable_capacity".to_string())
                )
            ]
        );
        assert!(d.state_at(10_000.0).holding.is_empty());
    }

    #[test]
    fn downsampling_keeps_ends_and_bounds_points() {
        let t: Vec<Ms> = (0..10_000).map(|i| i * 7).collect();
        let k = keep_indices(&t, 100);
        assert!(k.len() <= 101, "{}", k.len());
        assert_eq!(k[0], 0);
        assert_eq!(*k.last().unwrap(), 9_999);
        assert_eq!(keep_indices(&t[..50], 100).len(), 50);
    }
}
