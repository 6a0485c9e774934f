//! A compact, typed view of a finished run for display (the playground and its worker).
//!
//! The SPEC 8 result JSON is the exchange format; a [`Digest`] is what a UI needs to draw:
//! metrics per share, job rows, the event log with its explanations, and the series
//! downsampled to a drawable number of points. It is serde-serializable so a Web Worker can
//! send it to the page. Job states ([`State`]), event kinds ([`EventKind`]) and preemption
//! causes ([`Cause`]) are enums; their `as_str()` gives the SPEC names the page shows and
//! exports. [`Digest::segments`] replays the event log once into each job's stretches of
//! state: the one reading of the job state machine that the "state at t" panel
//! ([`Digest::state_at`]), the timeline and a job's history share. Nothing here decides
//! anything, it only reports what happened.

use serde::{Deserialize, Serialize};

use crate::input::model::{Ms, Priority, Scenario};
use crate::output::result::{self, Percentiles, Stats};
use crate::simulation::{self as sim, Finished, PairValues, Reason, NO_JOB};

pub use crate::simulation::{Cause, State};

const MS_PER_HOUR: f64 = 3_600_000.0;

/// SPEC 8 event kinds, as the digest's event log carries them (the engine's own
/// [`sim::EventKind`] also holds each kind's data; here the data are [`EventRow`] fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventKind {
    Submit,
    Dispatch,
    Start,
    Running,
    Preempt,
    Requeue,
    Succeed,
    Fail,
    Reject,
    Waiting,
    SetPriority,
    UpdateShare,
}

impl EventKind {
    /// Every kind, in SPEC 8 order.
    pub const ALL: [EventKind; 12] = [
        EventKind::Submit,
        EventKind::Dispatch,
        EventKind::Start,
        EventKind::Running,
        EventKind::Preempt,
        EventKind::Requeue,
        EventKind::Succeed,
        EventKind::Fail,
        EventKind::Reject,
        EventKind::Waiting,
        EventKind::SetPriority,
        EventKind::UpdateShare,
    ];

    /// The SPEC 8 name: `submit`, `set_priority`...
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Submit => "submit",
            EventKind::Dispatch => "dispatch",
            EventKind::Start => "start",
            EventKind::Running => "running",
            EventKind::Preempt => "preempt",
            EventKind::Requeue => "requeue",
            EventKind::Succeed => "succeed",
            EventKind::Fail => "fail",
            EventKind::Reject => "reject",
            EventKind::Waiting => "waiting",
            EventKind::SetPriority => "set_priority",
            EventKind::UpdateShare => "update_share",
        }
    }

    /// The kind named `name` (its [`as_str`](EventKind::as_str)), if there is one.
    pub fn parse(name: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The digest kind of an engine event; `None` for SPEC 14's own kinds
    /// (`restore_failed`, `invalid_resume`, `alarm`), which change no state and are in
    /// [`ContractDigest::events`]. A `resubmit` returns the job to a queue, so the state
    /// replay reads it as a `requeue` (and [`ContractDigest::events`] has it too).
    fn of(kind: &sim::EventKind) -> Option<EventKind> {
        Some(match kind {
            sim::EventKind::Escalated(_) => EventKind::SetPriority,
            sim::EventKind::Resubmit { .. } => EventKind::Requeue,
            sim::EventKind::RestoreFailed { .. }
            | sim::EventKind::InvalidResume { .. }
            | sim::EventKind::Alarm { .. } => return None,
            sim::EventKind::Submit => EventKind::Submit,
            sim::EventKind::Dispatch { .. } => EventKind::Dispatch,
            sim::EventKind::Start => EventKind::Start,
            sim::EventKind::Running => EventKind::Running,
            sim::EventKind::Preempt { .. } => EventKind::Preempt,
            sim::EventKind::Requeue => EventKind::Requeue,
            sim::EventKind::Succeed => EventKind::Succeed,
            sim::EventKind::Fail => EventKind::Fail,
            sim::EventKind::Reject => EventKind::Reject,
            sim::EventKind::Waiting(..) => EventKind::Waiting,
            sim::EventKind::SetPriority(_) => EventKind::SetPriority,
            sim::EventKind::UpdateShare => EventKind::UpdateShare,
        })
    }
}

/// SPEC 14 for display: the interruption contract's results and each share's agreement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ContractDigest {
    /// The scenario writes a field of the interruption contract (the result JSON then
    /// carries its blocks; the digest always does).
    pub used: bool,
    /// Per share, in scenario order.
    pub shares: Vec<ShareContract>,
    pub totals: ShareContract,
    /// Per row of [`Digest::jobs`]: kept progress made in borrowed runs, in seconds.
    pub jobs_useful_borrowed_s: Vec<f64>,
    /// The SPEC 14 events, with their explanations (capped like [`Digest::events`]).
    pub events: Vec<ContractEvent>,
}

/// SPEC 14 results of one share (or the totals), in display units.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShareContract {
    /// The share's `agreement`, as written (`None` for the totals and shares without one).
    pub agreement: Option<crate::input::model::Agreement>,
    pub interruptions: u64,
    pub restores: u64,
    pub restore_failures: u64,
    pub invalid_resumes: u64,
    /// Lost instance-hours.
    pub recomputed_h: f64,
    /// Startup and restore instance-hours after a preemption.
    pub restart_h: f64,
    pub wait_after_interruption_s: Pct,
    pub retries_exhausted: u64,
    pub resubmitted: u64,
    pub alarms: u64,
    /// Succeeded / ended; `None` when no job ended.
    pub success_rate: Option<f64>,
    /// Deadlines met / deadlines decided; `None` without any.
    pub deadline_met_rate: Option<f64>,
    pub useful_h: f64,
    /// Useful instance-hours made in borrowed runs (`instance_hours.useful_borrowed`).
    pub useful_borrowed_h: f64,
    /// Policy stability: `set_priority` events, `update_share` events, jobs raised.
    pub priority_overrides: u64,
    pub allocation_changes: u64,
    pub priority_raised: u64,
}

/// SPEC 14 event kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ContractEventKind {
    RestoreFailed,
    InvalidResume,
    Resubmit,
    Alarm,
    /// An `escalate` rule's `set_priority`.
    Escalation,
}

impl ContractEventKind {
    /// The result JSON's name (`set_priority` for an escalation).
    pub fn as_str(self) -> &'static str {
        match self {
            ContractEventKind::RestoreFailed => "restore_failed",
            ContractEventKind::InvalidResume => "invalid_resume",
            ContractEventKind::Resubmit => "resubmit",
            ContractEventKind::Alarm => "alarm",
            ContractEventKind::Escalation => "set_priority",
        }
    }
}

/// One SPEC 14 event with its explanation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContractEvent {
    pub t_s: f64,
    /// Index into [`Digest::jobs`].
    pub job: Option<u32>,
    pub share: u16,
    pub kind: ContractEventKind,
    /// `restore_failed`, `invalid_resume`: progress lost, in seconds.
    pub lost_s: Option<f64>,
    /// `resubmit`: the share it leaves.
    pub from_share: Option<u16>,
    /// `resubmit`, escalation: the new priority.
    pub priority: Option<Priority>,
    /// `alarm`: the preemption count reached.
    pub preemptions: Option<u64>,
    pub explain: String,
}

fn share_contract(st: &Stats, agreement: Option<crate::input::model::Agreement>) -> ShareContract {
    let r = &st.recovery;
    let c = &r.counts;
    ShareContract {
        agreement,
        interruptions: c.interruptions,
        restores: c.restores,
        restore_failures: c.restore_failures,
        invalid_resumes: c.invalid_resumes,
        recomputed_h: st.time.lost as f64 / MS_PER_HOUR,
        restart_h: st.time.restart as f64 / MS_PER_HOUR,
        wait_after_interruption_s: r.wait_after_interruption.into(),
        retries_exhausted: c.retries_exhausted,
        resubmitted: c.resubmitted,
        alarms: c.alarms,
        success_rate: r.success_rate(st.jobs.succeeded),
        deadline_met_rate: r.deadline_met_rate(),
        useful_h: st.time.useful as f64 / MS_PER_HOUR,
        useful_borrowed_h: st.time.useful_borrowed as f64 / MS_PER_HOUR,
        priority_overrides: c.priority_overrides,
        allocation_changes: c.allocation_changes,
        priority_raised: r.priority_raised,
    }
}

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
    /// SPEC 12 causes (Kueue model; 0 in the AWS one).
    pub reclaim_while_borrowing: u64,
    pub fair_sharing: u64,
    /// SPEC 12.1 (Kueue model only): preemptors that waited for their victims
    /// (WaitingForPreemptedWorkloads), and those waits whose freed quota another workload
    /// took first.
    pub preemptor_waits: u64,
    pub quota_taken_while_waiting: u64,
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
    /// The price of the share's entitlement, used or not: entitled instance-hours × price
    /// ([`Stats::reserved_usd`]; a digest field, not part of the SPEC 8 result).
    pub reserved_usd: f64,
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
    pub priority: Priority,
    /// As the job ended the run (never [`State::Pending`]: unsubmitted jobs have no row).
    pub state: State,
    pub submit_s: f64,
    pub first_start_s: Option<f64>,
    pub end_s: Option<f64>,
    pub preemptions: u64,
    pub lost_s: f64,
    pub held_s: f64,
    pub waiting_reason: Option<Reason>,
    pub checkpoint_interval_s: Option<f64>,
    pub checkpoint_cost_s: Option<f64>,
}

/// One share's totals over its job rows, all of them even when [`Digest::jobs`] is capped
/// (the checkpoint advisor reads them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobTotals {
    pub jobs: u64,
    pub held_s: f64,
    /// Jobs with a checkpoint interval and cost, and the sums of both.
    pub checkpointing: u64,
    pub interval_sum_s: f64,
    pub cost_sum_s: f64,
}

impl JobTotals {
    fn add(&mut self, j: &JobRow) {
        self.jobs += 1;
        self.held_s += j.held_s;
        if let (Some(iv), Some(c)) = (j.checkpoint_interval_s, j.checkpoint_cost_s) {
            self.checkpointing += 1;
            self.interval_sum_s += iv;
            self.cost_sum_s += c;
        }
    }
}

/// One event of the log (SPEC 8), with its explanation where it has one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventRow {
    pub t_s: f64,
    /// Index into [`Digest::jobs`], or `None` (update_share).
    pub job: Option<u32>,
    pub share: u16,
    pub kind: EventKind,
    /// `dispatch`: borrowing; `preempt`: cause and preemptor; `waiting`: reason;
    /// `set_priority`: the new priority.
    pub borrowing: Option<bool>,
    pub cause: Option<Cause>,
    pub by: Option<u32>,
    pub reason: Option<Reason>,
    pub priority: Option<Priority>,
    /// The explanation's place in [`Digest::explanations`] ([`Digest::explain`] reads it):
    /// a run repeats a few hundred sentences over its events (the Philly trace: 371 over
    /// 82,587 explained events), so each crosses to the page once (issue #30).
    pub explain: Option<u32>,
    /// `waiting`: a preemptor waiting for the workloads it preempted (SPEC 12.1,
    /// WaitingForPreemptedWorkloads), whatever its `reason` code: the page tags it so.
    pub for_preempted: bool,
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
    /// The most instances borrowed at once over the whole run (SPEC 1: admitted quota beyond
    /// the limit), from every change point, not only the ones kept for drawing: the figure
    /// the allocation chart's "borrowed up to" and the cohort panel both say.
    pub borrowed_peak: f64,
    /// When the run has more change points than are kept (`DigestLimits::max_points`): per
    /// kept point, the most instances in use at once (own + borrowed) from it to the next,
    /// drawn as the peaks between the points. Empty when every point is kept.
    pub peak: Vec<f64>,
    /// The fewest and the most instances in use at once (own + borrowed) over the whole
    /// run, from every change point: the allocation chart's caption's "used".
    pub used: (f64, f64),
}

/// What a digest says of its scenario that the simulation does not read (issue #30): the
/// name, the plain-words summary and the shares' agreements. A run of a scenario that
/// simulates as the last one did changes only these ([`Digest::relabel`]), so the engine
/// worker answers it with them alone and the page keeps the result it has.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Label {
    pub name: String,
    pub summary: String,
    /// Per share, in the scenario's order.
    pub agreements: Vec<Option<crate::input::model::Agreement>>,
}

impl Label {
    /// The label a run of `sc` has.
    pub fn of(sc: &crate::input::model::Scenario) -> Label {
        Label {
            name: sc.name.clone(),
            summary: super::describe::scenario_summary(sc),
            agreements: sc.agreements.clone(),
        }
    }
}

/// Everything the playground shows about one run (`Default`: a run of nothing).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Digest {
    pub name: String,
    /// The scenario in plain words ([`super::describe::scenario_summary`]): the page's first
    /// screen reads it here, so it never validates a large scenario on its own thread.
    pub summary: String,
    pub end_s: f64,
    pub shares: Vec<ShareMetrics>,
    pub totals: ShareMetrics,
    pub instance_types: Vec<String>,
    /// Capacity per instance type (instances).
    pub capacity: Vec<u64>,
    /// What the reader should know before the numbers, a sentence each: a run stopped in a
    /// preemption circle ([`super::summary::circle_note`]), jobs the capacity or the quota
    /// kept from ever starting ([`super::stuck::stuck_notes`]), then the instants Kueue's
    /// cycles never settled ([`super::summary::unsettled_note`]). The page says them above
    /// the summary.
    pub notes: Vec<String>,
    /// Whether any instance type has a price (`usd_per_hour` > 0): without one, every cost
    /// is $0 because nothing is priced, and the page says "no price set" instead.
    pub priced: bool,
    /// Job rows, in scenario order: every submitted job's, or when more than
    /// [`DigestLimits::max_jobs`], those the kept events name and the first others up to
    /// the limit ([`keep_rows`]).
    pub jobs: Vec<JobRow>,
    /// Submitted jobs of the run; `jobs` may hold fewer when capped.
    pub job_count: u64,
    /// Per share (scenario order), totals over all its job rows, kept or not.
    pub job_totals: Vec<JobTotals>,
    pub events: Vec<EventRow>,
    /// Every distinct explanation of [`Digest::events`], in order of first use
    /// ([`EventRow::explain`]).
    pub explanations: Vec<String>,
    /// Events that happened; `events` may hold fewer when capped.
    pub event_count: u64,
    /// When [`Digest::events`] is capped, the time of the first event left out: the kept log
    /// tells the whole story before it and nothing after it ([`Digest::log_covers`]); `None`
    /// when every event is kept.
    #[serde(default)]
    pub events_until_s: Option<f64>,
    pub series: Vec<SeriesRow>,
    /// Change points before downsampling.
    pub series_points: u64,
    pub steps: u64,
    /// SPEC 12 results (Kueue model only; `None` in the AWS one).
    pub kueue: Option<KueueDigest>,
    /// SPEC 14 results and the shares' agreements.
    #[serde(default)]
    pub contract: ContractDigest,
}

/// SPEC 12 results of a Kueue run for display: every cohort's metrics and each share's and
/// cohort's dominant resource share over time, downsampled like [`Digest::series`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KueueDigest {
    pub cohorts: Vec<CohortMetrics>,
    /// The kept change points (seconds), the times of the series below.
    pub t_s: Vec<f64>,
    /// Per share (scenario order): Kueue's weightedShare, `None` for infinite.
    pub share_dominant: Vec<Vec<Option<u64>>>,
    /// Per cohort (scenario order), the same.
    pub cohort_dominant: Vec<Vec<Option<u64>>>,
    /// Per cohort and instance type (`cohort * types + type`): usage and subtree quota.
    pub cohort_usage: Vec<Vec<f64>>,
    pub cohort_quota: Vec<Vec<f64>>,
    /// Per cohort and instance type: instances borrowed from its parent
    /// (`max(0, usage - subtree)`) and lent to it (of its lendable quota, in use elsewhere).
    pub cohort_borrowed: Vec<Vec<f64>>,
    pub cohort_lent: Vec<Vec<f64>>,
    /// Per share (scenario order): its cohort's index in [`KueueDigest::cohorts`], `None`
    /// for a share that stands alone.
    pub share_cohort: Vec<Option<u16>>,
    /// Per node (shares, then cohorts, in scenario order) and instance type (`node * types +
    /// type`), as the scenario starts: SPEC 12 `private(N)`, the part of its quota a lending
    /// limit keeps from its cohort, which the cohort's quota leaves out.
    pub private: Vec<f64>,
}

/// One cohort's SPEC 12 results (Kueue model).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CohortMetrics {
    pub name: String,
    /// `root/research` (from the root down).
    pub path: String,
    /// Parent cohort's index in [`KueueDigest::cohorts`], `None` for a root.
    pub parent: Option<u16>,
    /// Instance-hours of subtree quota, borrowed from the parent, lent to it.
    pub quota_h: f64,
    pub borrowed_h: f64,
    pub lent_h: f64,
    /// Preemptions of the jobs of the shares below it, by cause.
    pub reclaim: u64,
    pub in_share: u64,
    pub reclaim_while_borrowing: u64,
    pub fair_sharing: u64,
}

/// The Kueue part of the digest, on the kept change points `keep`.
fn kueue_digest(sim: &Finished, keep: &[usize]) -> Option<KueueDigest> {
    if !sim.scenario().is_kueue() {
        return None;
    }
    let k = &sim.series().kueue;
    let cohorts = crate::output::stats::cohort_stats(sim)
        .into_iter()
        .enumerate()
        .map(|(c, st)| CohortMetrics {
            name: st.name,
            path: st.path,
            parent: sim.scenario().cohorts[c].parent.map(|p| p as u16),
            quota_h: st.quota as f64 / MS_PER_HOUR,
            borrowed_h: st.borrowed as f64 / MS_PER_HOUR,
            lent_h: st.lent / MS_PER_HOUR,
            reclaim: st.reclaim,
            in_share: st.in_share,
            reclaim_while_borrowing: st.reclaim_while_borrowing,
            fair_sharing: st.fair_sharing,
        })
        .collect();
    let dominant = |v: &Vec<crate::simulation::share_value::ShareValue>| {
        keep.iter()
            .map(|&i| match v.get(i) {
                Some(crate::simulation::share_value::ShareValue::Finite(x)) => Some(*x),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let ns = sim.scenario().shares.len();
    let pick = |v: &Vec<u64>| {
        keep.iter()
            .map(|&i| v.get(i).map_or(0.0, |&x| x as f64))
            .collect()
    };
    Some(KueueDigest {
        cohorts,
        t_s: keep.iter().map(|&i| s(sim.series().t[i])).collect(),
        share_dominant: k.dominant_share.iter().take(ns).map(dominant).collect(),
        cohort_dominant: k.dominant_share.iter().skip(ns).map(dominant).collect(),
        cohort_usage: k.usage.iter().map(pick).collect(),
        cohort_quota: k.quota.iter().map(pick).collect(),
        cohort_borrowed: k.borrowed.iter().map(pick).collect(),
        cohort_lent: k
            .lent
            .iter()
            .map(|v| {
                keep.iter()
                    .map(|&i| v.get(i).copied().unwrap_or(0.0))
                    .collect()
            })
            .collect(),
        share_cohort: sim
            .scenario()
            .shares
            .iter()
            .map(|s| s.kueue.cohort.map(|c| c as u16))
            .collect(),
        private: private(sim.scenario()),
    })
}

/// [`KueueDigest::private`]: each node's private quota, per type.
fn private(sc: &crate::input::model::Scenario) -> Vec<f64> {
    use crate::simulation::quota_tree::QuotaTree;
    let types = sc.instance_types.len();
    let trees: Vec<QuotaTree> = (0..types)
        .map(|t| QuotaTree::new(&sc.shares, &sc.cohorts, t))
        .collect();
    let nodes = sc.shares.len() + sc.cohorts.len();
    (0..nodes * types)
        .map(|i| trees[i % types].private[i / types] as f64)
        .collect()
}

/// What the UI asks for: how many series points, events and job rows to keep at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigestLimits {
    pub max_points: usize,
    /// The first events of the log kept.
    pub max_events: usize,
    /// Job rows kept besides those the kept events name ([`keep_rows`]); the page keeps what
    /// it can draw, the CLI's and the report's digests keep every row.
    pub max_jobs: usize,
}

impl Default for DigestLimits {
    fn default() -> DigestLimits {
        DigestLimits {
            max_points: 2000,
            max_events: 200_000,
            max_jobs: usize::MAX,
        }
    }
}

/// Which of `rows` job rows a digest keeps under `max_jobs`: every row `named` (by a kept
/// event, as its job or its preemptor), then the first others in order while the kept stay
/// under `max_jobs`. Returns each row's new index (`u32::MAX` for a row dropped), or `None`
/// when every row is kept.
fn keep_rows(rows: usize, named: &[bool], max_jobs: usize) -> Option<Vec<u32>> {
    if rows <= max_jobs {
        return None;
    }
    let mut budget = max_jobs.saturating_sub(named.iter().filter(|&&n| n).count());
    let mut next = 0u32;
    let index = (0..rows)
        .map(|r| {
            let keep = named[r]
                || budget > 0 && {
                    budget -= 1;
                    true
                };
            if keep {
                next += 1;
                next - 1
            } else {
                u32::MAX
            }
        })
        .collect();
    Some(index)
}

/// The distinct explanations of a digest's events, each kept once ([`EventRow::explain`]).
#[derive(Default)]
struct Explanations {
    texts: Vec<String>,
    place: std::collections::HashMap<String, u32>,
}

impl Explanations {
    /// `text`'s place, kept at the end if it is new.
    fn place(&mut self, text: String) -> u32 {
        if let Some(&i) = self.place.get(&text) {
            return i;
        }
        let i = self.texts.len() as u32;
        self.texts.push(text.clone());
        self.place.insert(text, i);
        i
    }
}

fn s(ms: Ms) -> f64 {
    ms as f64 / 1000.0
}

/// A share's (or the total's) metrics as a UI shows them, from its [`Stats`].
pub fn metrics(name: &str, st: &Stats) -> ShareMetrics {
    let t = &st.time;
    let interruptions = st.reclaim + st.in_share + st.reclaim_while_borrowing + st.fair_sharing;
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
        reclaim_while_borrowing: st.reclaim_while_borrowing,
        fair_sharing: st.fair_sharing,
        preemptor_waits: st.preemptor_waits,
        quota_taken_while_waiting: st.quota_taken_while_waiting,
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
        reserved_usd: st.reserved_usd,
        deadline_misses: st.deadline_misses,
        hours_per_interruption: (interruptions > 0)
            .then(|| t.held as f64 / MS_PER_HOUR / interruptions as f64),
    }
}

/// The values at the change points `keep` (ascending) of a pair's values at every point,
/// and each kept point's bucket's peak: the most instances in use at once (own + borrowed)
/// from it to the next kept point. A short spike between two kept points (8 instances
/// borrowed for 10 s of a 4-month trace) is not among the values, which stay the state at
/// their own instants (the cohort panel reads them as such), but is its bucket's peak.
fn kept_values(
    values: impl Iterator<Item = PairValues>,
    keep: &[usize],
) -> (Vec<PairValues>, Vec<u64>) {
    let mut out = Vec::with_capacity(keep.len());
    let mut peaks: Vec<u64> = Vec::with_capacity(keep.len());
    let mut want = keep.iter().peekable();
    for (k, v) in values.enumerate() {
        let used = v.own + v.borrowed;
        if want.peek() == Some(&&k) {
            out.push(v);
            peaks.push(used);
            want.next();
        } else if let Some(p) = peaks.last_mut() {
            *p = (*p).max(used);
        }
    }
    (out, peaks)
}

/// Downsamples change points to about `max / 2` time buckets: the first change point of
/// each bucket is kept, and the last point. Returns the indices to keep (ascending). Short
/// spikes inside a bucket are drawn as its peak ([`kept_values`]); the metrics are computed
/// from every point.
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
pub fn digest(sim: &Finished, limits: DigestLimits) -> Digest {
    let sc: &Scenario = sim.scenario();
    let (shares, total) = result::stats(sim);
    // Job rows for submitted jobs only; map engine indices to row indices.
    let mut row_of = vec![u32::MAX; sc.jobs.len()];
    let mut jobs = Vec::new();
    let mut useful_borrowed = Vec::new();
    for (i, (spec, r)) in sc.jobs.iter().zip(sim.jobs()).enumerate() {
        if r.state == State::Pending || spec.resubmission_of.is_some() {
            continue;
        }
        row_of[i] = jobs.len() as u32;
        let kept = !matches!(r.state, State::Failed | State::Rejected);
        useful_borrowed.push(if kept { s(r.useful_borrowed) } else { 0.0 });
        jobs.push(JobRow {
            id: sc.id_of(spec).to_string(),
            share: r.share as u16,
            instance_type: spec.instance_type() as u16,
            instances: spec.instances(),
            priority: r.priority,
            state: r.state,
            submit_s: s(spec.submit),
            first_start_s: r.first_start.get().map(s),
            end_s: r.end().get().map(s),
            preemptions: r.preemptions.into(),
            lost_s: s(sim.acc()[i].lost),
            held_s: s(r.held),
            waiting_reason: r.reason,
            checkpoint_interval_s: spec.checkpoint().map(|c| s(c.interval)),
            checkpoint_cost_s: spec.checkpoint().map(|c| s(c.cost)),
        });
    }
    // SPEC 14: a continuation's events are its job's.
    for (i, spec) in sc.jobs.iter().enumerate() {
        if let Some(root) = spec.resubmission_of.get() {
            row_of[i] = row_of[root];
        }
    }
    let job_count = jobs.len() as u64;
    let mut job_totals = vec![JobTotals::default(); sc.shares.len()];
    for j in &jobs {
        if let Some(t) = job_totals.get_mut(usize::from(j.share)) {
            t.add(j);
        }
    }
    if jobs.len() > limits.max_jobs {
        let mut named = vec![false; jobs.len()];
        let mut name = |job: sim::JobId| {
            if let Some(n) = named.get_mut(row_of[job.index()] as usize) {
                *n = true;
            }
        };
        for e in sim.events().iter().take(limits.max_events) {
            if e.job != NO_JOB {
                name(e.job);
            }
            if let sim::EventKind::Preempt { by, .. } = e.kind {
                name(by);
            }
        }
        if let Some(index) = keep_rows(jobs.len(), &named, limits.max_jobs) {
            let mut r = 0;
            jobs.retain(|_| {
                r += 1;
                index[r - 1] != u32::MAX
            });
            let mut r = 0;
            useful_borrowed.retain(|_| {
                r += 1;
                index[r - 1] != u32::MAX
            });
            for x in row_of.iter_mut().filter(|x| **x != u32::MAX) {
                *x = index[*x as usize];
            }
        }
    }
    let mut contract_events = Vec::new();
    for e in sim.events().iter().take(limits.max_events) {
        let kind = match e.kind {
            sim::EventKind::RestoreFailed { .. } => ContractEventKind::RestoreFailed,
            sim::EventKind::InvalidResume { .. } => ContractEventKind::InvalidResume,
            sim::EventKind::Resubmit { .. } => ContractEventKind::Resubmit,
            sim::EventKind::Alarm { .. } => ContractEventKind::Alarm,
            sim::EventKind::Escalated(_) => ContractEventKind::Escalation,
            _ => continue,
        };
        let mut row = ContractEvent {
            t_s: s(e.t),
            job: (e.job != NO_JOB).then(|| row_of[e.job.index()]),
            share: e.share as u16,
            kind,
            lost_s: None,
            from_share: None,
            priority: None,
            preemptions: None,
            explain: result::explain_recovery(sc, e.job, &e.kind),
        };
        match e.kind {
            sim::EventKind::RestoreFailed { lost } | sim::EventKind::InvalidResume { lost } => {
                row.lost_s = Some(s(lost))
            }
            sim::EventKind::Resubmit { from, priority } => {
                row.from_share = Some(from as u16);
                row.priority = Some(priority);
            }
            sim::EventKind::Alarm { count } => row.preemptions = Some(count),
            sim::EventKind::Escalated(p) => row.priority = Some(p),
            _ => {}
        }
        contract_events.push(row);
    }
    let mut explanations = Explanations::default();
    let events = sim
        .events()
        .iter()
        .take(limits.max_events)
        .filter_map(|e| {
            let job = (e.job != NO_JOB).then(|| row_of[e.job.index()]);
            let mut row = EventRow {
                t_s: s(e.t),
                job,
                share: e.share as u16,
                kind: EventKind::of(&e.kind)?,
                borrowing: None,
                cause: None,
                by: None,
                reason: None,
                priority: None,
                explain: None,
                for_preempted: false,
            };
            match e.kind {
                sim::EventKind::Dispatch { borrowing } => row.borrowing = Some(borrowing),
                sim::EventKind::Preempt { cause, by, .. } => {
                    row.cause = Some(cause);
                    row.by = Some(row_of[by.index()]);
                    row.explain =
                        Some(explanations.place(result::explain_preempt(sc, e.job, &e.kind)));
                }
                sim::EventKind::Waiting(r, why) => {
                    row.reason = Some(r);
                    row.for_preempted = matches!(
                        why,
                        Some(crate::simulation::Binding::PreemptedWorkloads { .. })
                    );
                    row.explain =
                        Some(explanations.place(result::explain_waiting(sc, e.job, r, why)));
                }
                sim::EventKind::SetPriority(p) => row.priority = Some(p),
                sim::EventKind::Escalated(p) => {
                    row.priority = Some(p);
                    row.explain =
                        Some(explanations.place(result::explain_recovery(sc, e.job, &e.kind)));
                }
                sim::EventKind::Resubmit { .. } => {
                    row.explain =
                        Some(explanations.place(result::explain_recovery(sc, e.job, &e.kind)));
                }
                _ => {}
            }
            Some(row)
        })
        .collect();
    let ser = sim.series();
    let keep = keep_indices(&ser.t, limits.max_points);
    let series = ser
        .pairs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (share, t) = (p.share.index(), p.ty.index());
            let (kept, peaks) = kept_values(ser.values(i), &keep);
            let pick_u = |f: fn(&PairValues) -> u64| kept.iter().map(|v| f(v) as f64).collect();
            SeriesRow {
                share: share as u16,
                instance_type: t as u16,
                t_s: keep.iter().map(|&k| s(ser.t[k])).collect(),
                limit: pick_u(|v| v.limit),
                own: pick_u(|v| v.own),
                borrowed: pick_u(|v| v.borrowed),
                lent: kept.iter().map(|v| v.lent).collect(),
                queued: pick_u(|v| v.queued),
                borrowed_peak: ser.borrowed_peak(i) as f64,
                peak: if keep.len() < ser.t.len() {
                    peaks.into_iter().map(|p| p as f64).collect()
                } else {
                    Vec::new()
                },
                used: {
                    let (lo, hi) = ser.used_range(i);
                    (lo as f64, hi as f64)
                },
            }
        })
        .collect();
    Digest {
        name: sc.name.clone(),
        summary: super::describe::scenario_summary(sc),
        end_s: s(sim.end()),
        shares: shares
            .iter()
            .enumerate()
            .map(|(i, st)| metrics(&sc.shares[i].name, st))
            .collect(),
        totals: metrics("total", &total),
        instance_types: sc.instance_types.iter().map(|t| t.name.clone()).collect(),
        capacity: sc.capacity.clone(),
        notes: {
            let mut notes: Vec<String> = super::summary::circle_note(sim.circle())
                .into_iter()
                .collect();
            notes.extend(super::stuck::stuck_notes(sc, sim.jobs()));
            notes.extend(super::summary::unsettled_note(sim.kueue_unsettled()));
            notes
        },
        priced: sc.instance_types.iter().any(|t| t.usd_per_hour > 0.0),
        jobs,
        job_count,
        job_totals,
        events,
        explanations: explanations.texts,
        event_count: sim.event_count(),
        events_until_s: sim.events().get(limits.max_events).map(|e| s(e.t)),
        series,
        series_points: ser.t.len() as u64,
        steps: sim.steps(),
        kueue: kueue_digest(sim, &keep),
        contract: ContractDigest {
            used: sc.contract,
            shares: shares
                .iter()
                .enumerate()
                .map(|(i, st)| share_contract(st, sc.agreements.get(i).cloned().flatten()))
                .collect(),
            totals: share_contract(&total, None),
            jobs_useful_borrowed_s: useful_borrowed,
            events: contract_events,
        },
    }
}

/// One stretch of one job's life: the job was in `state` from `t0` to `t1` (seconds).
///
/// A stretch begins with the event that put the job in its state (or, for a RUNNABLE job,
/// gave it a new waiting reason) and ends with the next such event of the job, or at the
/// end of the run. `t0 == t1` when the job passed through a state at once (admitted and
/// started in the same instant, say). A finished job's last stretch is its final state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    pub state: State,
    pub t0: f64,
    pub t1: f64,
    /// The event that began it: its index in [`Digest::events`] and its kind.
    pub event: u32,
    pub opened_by: EventKind,
    /// Begun by a preemption (PREEMPTING, or RUNNABLE for a SCHEDULED victim): its cause
    /// and the preemptor's job row.
    pub cause: Option<Cause>,
    pub by: Option<u32>,
    /// RUNNABLE: the waiting reason in force (the last `waiting` event since the job was
    /// submitted or requeued), if the engine gave one yet.
    pub reason: Option<Reason>,
}

/// Every job's stretches of state (see [`Digest::segments`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Segments {
    /// Per job row, in time order.
    pub jobs: Vec<Vec<Segment>>,
}

/// Who held what and who waited why at one instant (the timeline cursor's panel).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StateAt {
    pub t_s: f64,
    /// `(job row, state)` of jobs holding instances (STARTING, RUNNING, PREEMPTING).
    pub holding: Vec<(u32, State)>,
    /// `(job row)` admitted but not yet holding (SCHEDULED).
    pub scheduled: Vec<u32>,
    /// `(job row, reason)` of RUNNABLE jobs.
    pub waiting: Vec<(u32, Option<Reason>)>,
}

impl Digest {
    /// `e`'s explanation, where it has one (SPEC 8 `explain`).
    pub fn explain(&self, e: &EventRow) -> Option<&str> {
        e.explain
            .and_then(|i| self.explanations.get(i as usize))
            .map(String::as_str)
    }

    /// What share `share` borrowed at most at once, per instance type it borrowed
    /// ([`SeriesRow::borrowed_peak`], in series order): `(instance type, instances)`.
    pub fn borrowed_peaks(&self, share: u16) -> Vec<(u16, f64)> {
        self.series
            .iter()
            .filter(|r| r.share == share && r.borrowed_peak > 0.0)
            .map(|r| (r.instance_type, r.borrowed_peak))
            .collect()
    }

    /// This digest as the run of `sc`, a scenario that simulates the same as the one it was
    /// made from ([`Scenario::same_simulation`](crate::input::model::Scenario::same_simulation)):
    /// only the descriptive fields change ([`Label`]).
    pub fn relabel(&mut self, sc: &crate::input::model::Scenario) {
        self.apply(&Label::of(sc));
    }

    /// This digest with `label`'s descriptive fields.
    pub fn apply(&mut self, label: &Label) {
        self.name.clone_from(&label.name);
        self.summary.clone_from(&label.summary);
        for (i, share) in self.contract.shares.iter_mut().enumerate() {
            share.agreement = label.agreements.get(i).cloned().flatten();
        }
    }

    /// The descriptive fields of this digest.
    pub fn label(&self) -> Label {
        Label {
            name: self.name.clone(),
            summary: self.summary.clone(),
            agreements: self
                .contract
                .shares
                .iter()
                .map(|s| s.agreement.clone())
                .collect(),
        }
    }

    /// Where the kept event log ends: the run's end, or the time of the first event left out
    /// when [`Digest::events`] is capped.
    pub fn log_end_s(&self) -> f64 {
        self.events_until_s
            .map_or(self.end_s, |u| u.min(self.end_s))
    }

    /// Whether the kept event log tells what happened up to `t_s` (a capped log does not
    /// from the first event it left out on: a job it last saw running may have ended since).
    pub fn log_covers(&self, t_s: f64) -> bool {
        self.events_until_s.is_none_or(|u| t_s < u)
    }

    /// Replays the event log once into each job's stretches of state (SPEC 6: submit and
    /// requeue make a job RUNNABLE, dispatch SCHEDULED, start STARTING, running RUNNING; a
    /// preemption makes a SCHEDULED victim RUNNABLE and a holding one PREEMPTING; succeed,
    /// fail and reject end it). It only reads what the engine logged; it decides nothing.
    /// Jobs without an event in the (possibly capped) log have no stretch, and a capped log's
    /// last stretches end where it does ([`Digest::log_end_s`]), not at the run's end.
    pub fn segments(&self) -> Segments {
        let n = self.jobs.len();
        let log_end = self.log_end_s();
        let mut jobs: Vec<Vec<Segment>> = vec![Vec::new(); n];
        let mut reason: Vec<Option<Reason>> = vec![None; n];
        for (i, e) in self.events.iter().enumerate() {
            let Some(j) = e.job.map(|j| j as usize).filter(|&j| j < n) else {
                continue;
            };
            let segs = &mut jobs[j];
            let now = segs.last().map(|s| s.state);
            let next = match e.kind {
                EventKind::Submit | EventKind::Requeue => {
                    reason[j] = None;
                    Some(State::Runnable)
                }
                EventKind::Dispatch => Some(State::Scheduled),
                EventKind::Start => Some(State::Starting),
                EventKind::Running => Some(State::Running),
                EventKind::Preempt if now == Some(State::Scheduled) => Some(State::Runnable),
                EventKind::Preempt => Some(State::Preempting),
                EventKind::Succeed => Some(State::Succeeded),
                EventKind::Fail => Some(State::Failed),
                EventKind::Reject => Some(State::Rejected),
                EventKind::Waiting => {
                    reason[j] = e.reason;
                    let changed = segs.last().is_some_and(|s| s.reason != reason[j]);
                    (now == Some(State::Runnable) && changed).then_some(State::Runnable)
                }
                EventKind::SetPriority | EventKind::UpdateShare => None,
            };
            let Some(state) = next else { continue };
            if let Some(last) = segs.last_mut() {
                last.t1 = e.t_s;
            }
            let preempt = e.kind == EventKind::Preempt;
            segs.push(Segment {
                state,
                t0: e.t_s,
                t1: log_end.max(e.t_s),
                event: i as u32,
                opened_by: e.kind,
                cause: e.cause.filter(|_| preempt),
                by: e.by.filter(|_| preempt),
                reason: (state == State::Runnable).then_some(reason[j]).flatten(),
            });
        }
        Segments { jobs }
    }

    /// Each job's state and reason at `t_s`, after every event up to and including `t_s`
    /// ([`Segments::state_at`] of [`Digest::segments`]).
    pub fn state_at(&self, t_s: f64) -> StateAt {
        self.segments().state_at(t_s)
    }
}

impl Segments {
    /// The stretches of job row `job` (empty for a job the log does not mention).
    pub fn of(&self, job: u32) -> &[Segment] {
        self.jobs.get(job as usize).map_or(&[], Vec::as_slice)
    }

    /// The stretch job row `job` was in at `t_s`, after every event up to and including
    /// `t_s`; `None` before its first event.
    pub fn at(&self, job: u32, t_s: f64) -> Option<&Segment> {
        let segs = self.of(job);
        segs[..segs.partition_point(|s| s.t0 <= t_s)].last()
    }

    /// Who held instances, who was admitted and who waited (and why) at `t_s`.
    pub fn state_at(&self, t_s: f64) -> StateAt {
        let mut out = StateAt {
            t_s,
            ..StateAt::default()
        };
        for j in 0..self.jobs.len() as u32 {
            let Some(s) = self.at(j, t_s) else { continue };
            match s.state {
                st if st.holding() => out.holding.push((j, st)),
                State::Scheduled => out.scheduled.push(j),
                State::Runnable => out.waiting.push((j, s.reason)),
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{input::validate::load, simulate, simulation::Options};

    const AWS: &str = include_str!("../../tests/golden/aws-walkthrough.json");

    fn aws() -> Digest {
        let loaded = load(AWS).unwrap();
        let sim = simulate(&loaded.scenario, Options::default());
        digest(&sim, DigestLimits::default())
    }

    // Issue #34 (fresh-eyes walk): a replayed Kueue history whose team-c-cq borrowed 2 l4
    // for one second (a Workload pending at the history's end runs 1 s). The allocation
    // chart said "borrowed up to 2" and the cohort panel "0.00 inst.-h": both right (SPEC
    // 1/8: borrowed is admitted quota beyond the nominal quota, 2 instances x 1 s), and both
    // now read the engine's peak. The peak counts every change point, so drawing with few
    // points never hides it.
    #[test]
    fn borrowed_peak_is_the_runs_whole_maximum_even_when_the_series_is_thinned() {
        let text = include_str!("../../../cli/tests/history/kueue.golden.json");
        let loaded = load(text).unwrap();
        let sim = simulate(&loaded.scenario, Options::default());
        let all = digest(&sim, DigestLimits::default());
        let c = all
            .shares
            .iter()
            .position(|s| s.name == "team-c-cq")
            .unwrap() as u16;
        let l4 = all.instance_types.iter().position(|t| t == "l4").unwrap() as u16;
        assert_eq!(all.borrowed_peaks(c), vec![(l4, 2.0)]);
        let h = all.shares[usize::from(c)].borrowed_h;
        assert!((h - 2.0 / 3600.0).abs() < 1e-12, "{h}");
        for r in &all.series {
            let drawn = r.borrowed.iter().copied().fold(0.0, f64::max);
            assert_eq!(r.borrowed_peak, drawn, "every point kept: the same maximum");
            let used = (0..r.t_s.len()).map(|i| r.own[i] + r.borrowed[i]);
            let lo = used.clone().fold(f64::INFINITY, f64::min);
            assert_eq!(
                r.used,
                (lo, used.fold(0.0, f64::max)),
                "and the same range in use"
            );
        }
        // Four points: the one-second peak falls between the kept ones.
        let thin = digest(
            &sim,
            DigestLimits {
                max_points: 4,
                ..DigestLimits::default()
            },
        );
        let row = thin
            .series
            .iter()
            .find(|r| r.share == c && r.instance_type == l4)
            .unwrap();
        assert!(row.borrowed.iter().all(|&b| b < 2.0), "{:?}", row.borrowed);
        // ... but within a kept point's peak, drawn over it.
        let full = all
            .series
            .iter()
            .find(|r| r.share == c && r.instance_type == l4)
            .unwrap();
        assert!(full.peak.is_empty(), "every point kept: no peaks");
        assert_eq!(row.peak.len(), row.t_s.len());
        assert_eq!(row.peak.iter().copied().fold(0.0, f64::max), full.used.1);
        assert_eq!(thin.borrowed_peaks(c), vec![(l4, 2.0)]);
        assert_eq!(
            row.used,
            all.series
                .iter()
                .find(|r| r.share == c && r.instance_type == l4)
                .unwrap()
                .used
        );
        // A ClusterQueue has a peak exactly when it borrowed.
        for (i, s) in all.shares.iter().enumerate() {
            assert_eq!(all.borrowed_peaks(i as u16).is_empty(), s.borrowed_h == 0.0);
        }
    }

    /// A thinned series keeps the values at its kept points and, per kept point, the peak
    /// in use until the next one; with every point kept, the values as recorded.
    #[test]
    fn a_kept_point_carries_its_buckets_peak() {
        let v = |own, borrowed, queued| PairValues {
            limit: 2,
            own,
            borrowed,
            lent: 0.0,
            queued,
        };
        let points = [
            v(1, 0, 5),
            v(2, 6, 0),
            v(0, 0, 9),
            v(1, 0, 1),
            v(2, 1, 0),
            v(1, 0, 0),
        ];
        // Buckets [0, 3) and [3, 5), and the last point.
        let (kept, peaks) = kept_values(points.into_iter(), &[0, 3, 5]);
        assert_eq!(kept, vec![v(1, 0, 5), v(1, 0, 1), v(1, 0, 0)]);
        assert_eq!(peaks, vec![8, 3, 1]);
        let all: Vec<usize> = (0..points.len()).collect();
        let (kept, peaks) = kept_values(points.into_iter(), &all);
        assert_eq!(kept, points.to_vec());
        assert_eq!(peaks, vec![1, 8, 0, 1, 3, 1]);
    }

    #[test]
    fn kept_rows_are_the_named_then_the_first_others() {
        assert_eq!(keep_rows(3, &[false; 3], 3), None);
        let named = [false, true, false, false, true, false];
        // Two named, room for one other: the first.
        assert_eq!(
            keep_rows(6, &named, 3),
            Some(vec![0, 1, u32::MAX, u32::MAX, 2, u32::MAX])
        );
        // More named than the limit: all of them, no other.
        assert_eq!(
            keep_rows(6, &named, 1),
            Some(vec![u32::MAX, 0, u32::MAX, u32::MAX, 1, u32::MAX])
        );
    }

    // 600 generated jobs on two shares that borrow and reclaim: preemptions name jobs far
    // apart in the rows.
    const BUSY: &str = r#"{"format":"quotalab/v1","name":"busy","seed":3,
        "capacity":{"ml.g5.xlarge":8},"queue":{"preemption_grace_s":60},
        "shares":[{"name":"a","limits":{"ml.g5.xlarge":4},"strategy":"LEND_AND_BORROW","borrow_limit":100},
                  {"name":"b","limits":{"ml.g5.xlarge":4},"strategy":"LEND_AND_BORROW","borrow_limit":100,"in_share_preemption":true}],
        "workloads":[
          {"share":"a","count":300,"arrival":{"poisson_per_hour":12},"instance_type":"ml.g5.xlarge",
           "instances":{"choice":[[1,8],[2,1],[4,1]]},"work_s":{"lognormal":{"median":2400,"sigma":1.0}},
           "priority":{"choice":[[0,3],[5,1]]},"checkpoint":{"interval_s":1800,"cost_s":30,"restore_s":60}},
          {"share":"b","count":300,"arrival":{"poisson_per_hour":12},"instance_type":"ml.g5.xlarge",
           "instances":{"choice":[[1,8],[2,1],[4,1]]},"work_s":{"lognormal":{"median":2400,"sigma":1.0}},
           "priority":{"choice":[[0,3],[5,1]]}}]}"#;

    // Capping the rows keeps every row the kept events name, under their own ids, counts
    // and totals the dropped ones, and changes no checkpoint advice.
    #[test]
    fn capped_rows_keep_what_the_events_name() {
        let loaded = load(BUSY).unwrap();
        let sim = simulate(&loaded.scenario, Options::default());
        let all = digest(&sim, DigestLimits::default());
        assert_eq!(all.jobs.len(), 600);
        assert_eq!(all.job_count, 600);
        assert!(all.events.iter().any(|e| e.kind == EventKind::Preempt));
        for (max_events, max_jobs) in [(400, 50), (400, 0), (5000, 10), (0, 20)] {
            let limits = DigestLimits {
                max_events,
                max_jobs,
                ..DigestLimits::default()
            };
            let d = digest(&sim, limits);
            assert_eq!(d.job_count, 600);
            assert_eq!(d.job_totals, all.job_totals);
            assert_eq!(d.events.len(), all.events.len().min(max_events));
            let id = |d: &Digest, j: Option<u32>| j.map(|j| d.jobs[j as usize].id.clone());
            let mut named = std::collections::BTreeSet::new();
            for (e, a) in d.events.iter().zip(&all.events) {
                assert_eq!(id(&d, e.job), id(&all, a.job));
                assert_eq!(id(&d, e.by), id(&all, a.by));
                named.extend(e.job.into_iter().chain(e.by));
            }
            assert_eq!(d.jobs.len(), max_jobs.max(named.len()));
            // Rows keep their scenario order and their values.
            let ids: Vec<&str> = d.jobs.iter().map(|j| j.id.as_str()).collect();
            let order: Vec<&str> = all
                .jobs
                .iter()
                .map(|j| j.id.as_str())
                .filter(|i| ids.contains(i))
                .collect();
            assert_eq!(ids, order);
            for j in &d.jobs {
                assert_eq!(Some(j), all.jobs.iter().find(|a| a.id == j.id));
            }
            assert_eq!(
                d.contract.jobs_useful_borrowed_s.len(),
                d.jobs.len(),
                "one useful-borrowed figure per kept row"
            );
            assert_eq!(
                crate::analysis::advisor::advise(&d),
                crate::analysis::advisor::advise(&all)
            );
        }
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
        let preempt = d
            .events
            .iter()
            .find(|e| e.kind == EventKind::Preempt)
            .unwrap();
        assert_eq!(d.jobs[preempt.job.unwrap() as usize].id, "bg-p2");
        assert_eq!(d.jobs[preempt.by.unwrap() as usize].id, "med-1");
        assert!(d.explain(preempt).unwrap().contains("reclaimed by med-1"));
    }

    // A capped log says where it stops, and its stretches stop there: a job the kept log
    // last saw running is not drawn running to the end of the run (the Philly trace's page
    // showed 43,466 jobs waiting at 152 d, where its 200,000 events end at 69 d).
    #[test]
    fn a_capped_log_ends_where_its_first_left_out_event_is() {
        let loaded = load(BUSY).unwrap();
        let sim = simulate(&loaded.scenario, Options::default());
        let all = digest(&sim, DigestLimits::default());
        assert_eq!(all.events_until_s, None);
        assert_eq!(all.log_end_s(), all.end_s);
        assert!(all.log_covers(all.end_s));
        let max_events = 400;
        let d = digest(
            &sim,
            DigestLimits {
                max_events,
                ..DigestLimits::default()
            },
        );
        let until = d.events_until_s.expect("capped");
        assert_eq!(until, all.events[max_events].t_s);
        assert!(until < d.end_s);
        assert!(d.events.iter().all(|e| e.t_s <= until));
        assert!(d.log_covers(until - 0.001) && !d.log_covers(until));
        let segs = d.segments();
        let last = segs.jobs.iter().flatten().map(|s| s.t1).fold(0.0, f64::max);
        assert_eq!(last, until, "stretches stop where the log does");
        // Before it, the capped log's stretches are the whole log's.
        let whole = all.segments();
        for (j, row) in d.jobs.iter().enumerate() {
            let w = all.jobs.iter().position(|r| r.id == row.id).unwrap();
            for (a, b) in segs.jobs[j].iter().zip(&whole.jobs[w]) {
                assert_eq!((a.state, a.t0), (b.state, b.t0));
                assert_eq!(a.t1, b.t1.min(until));
            }
        }
    }

    // Issue #30: each explanation crosses to the page once, and every event still reads
    // the SPEC 8 result's own sentence.
    #[test]
    fn explanations_are_kept_once_and_read_as_the_result_says() {
        let loaded = load(BUSY).unwrap();
        let sim = simulate(&loaded.scenario, Options::default());
        let d = digest(&sim, DigestLimits::default());
        let json: serde_json::Value =
            serde_json::from_str(&crate::output::result::to_json(&sim)).unwrap();
        let events = json["events"].as_array().unwrap();
        assert_eq!(events.len(), d.events.len());
        let mut explained = 0;
        for (row, e) in d.events.iter().zip(events) {
            assert_eq!(row.kind.as_str(), e["kind"].as_str().unwrap());
            assert_eq!(d.explain(row), e["explain"].as_str(), "{e}");
            explained += usize::from(row.explain.is_some());
        }
        let distinct: std::collections::BTreeSet<&String> = d.explanations.iter().collect();
        assert_eq!(distinct.len(), d.explanations.len(), "kept once each");
        assert!(d.explanations.len() * 4 < explained, "{explained} events");
        // Every kept sentence is some event's.
        let used: std::collections::BTreeSet<u32> =
            d.events.iter().filter_map(|e| e.explain).collect();
        assert_eq!(used.len(), d.explanations.len());
    }

    // An idle RESERVE share holds nothing (cost $0) but its entitlement is paid for: the
    // reserved cost is entitled instance-hours × price, per share and in total.
    #[test]
    fn reserved_cost_prices_the_entitlement_used_or_not() {
        let d = aws();
        let protected = &d.shares[2];
        assert_eq!(protected.name, "protected");
        assert_eq!((protected.held_h, protected.cost_usd), (0.0, 0.0));
        assert!(
            (protected.entitled_h - 0.2).abs() < 1e-9,
            "{}",
            protected.entitled_h
        );
        assert!((protected.reserved_usd - 0.2 * 1.408).abs() < 1e-9);
        let sum: f64 = d.shares.iter().map(|s| s.reserved_usd).sum();
        assert!((d.totals.reserved_usd - sum).abs() < 1e-9);
        assert!((d.totals.reserved_usd - d.totals.entitled_h * 1.408).abs() < 1e-9);
    }

    // Issue #34: a scenario whose instance types have no price (an imported configuration's
    // flavors) says so, rather than showing $0.00 as if the instances were free.
    #[test]
    fn priced_says_whether_any_instance_type_has_a_price() {
        assert!(aws().priced, "ml.* types have catalogue prices");
        let text = r#"{"format":"quotalab/v1","seed":1,
            "instance_types":[{"name":"a100","gpus":1,"usd_per_hour":0}],
            "capacity":{"a100":2},
            "shares":[{"name":"a","limits":{"a100":2},"strategy":"LEND"}],
            "jobs":[{"id":"j","share":"a","instance_type":"a100","submit_s":0,"work_s":60}]}"#;
        let d = crate::run_digest(text, DigestLimits::default()).unwrap();
        assert!(!d.priced);
        assert_eq!(d.totals.cost_usd, 0.0);
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
            .map(|(j, r)| {
                let code = r.map(|r| r.as_str().to_string());
                (d.jobs[*j as usize].id.clone(), code)
            })
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

    // bg-p2 runs 0-60, is reclaimed by med-1 (no grace: its PREEMPTING stretch is an
    // instant), waits for lendable capacity, runs again 420-720 and succeeds.
    #[test]
    fn segments_follow_the_walkthrough() {
        let d = aws();
        let segs = d.segments();
        let j = d.jobs.iter().position(|r| r.id == "bg-p2").unwrap() as u32;
        let long: Vec<(State, f64, f64, Option<&str>)> = segs
            .of(j)
            .iter()
            .filter(|s| s.t1 > s.t0)
            .map(|s| (s.state, s.t0, s.t1, s.reason.map(Reason::as_str)))
            .collect();
        assert_eq!(
            long,
            [
                (State::Running, 0.0, 60.0, None),
                (State::Runnable, 60.0, 420.0, Some("no_lendable_capacity")),
                (State::Running, 420.0, 720.0, None),
            ]
        );
        let pre: Vec<&Segment> = segs
            .of(j)
            .iter()
            .filter(|s| s.opened_by == EventKind::Preempt)
            .collect();
        assert_eq!(pre.len(), 1);
        assert_eq!(
            (pre[0].state, pre[0].t0, pre[0].cause),
            (State::Preempting, 60.0, Some(Cause::Reclaim))
        );
        assert_eq!(d.jobs[pre[0].by.unwrap() as usize].id, "med-1");
        assert_eq!(segs.of(j).last().unwrap().state, State::Succeeded);
        // Stretches are contiguous and each begins with its event.
        for v in &segs.jobs {
            assert!(v.windows(2).all(|w| w[0].t1 == w[1].t0), "{v:?}");
            for s in v {
                let e = &d.events[s.event as usize];
                assert_eq!((e.t_s, e.kind), (s.t0, s.opened_by));
            }
        }
        assert!(segs.of(99).is_empty());
        assert_eq!(segs.at(j, 59.0).unwrap().state, State::Running);
        assert_eq!(segs.at(j, 60.0).unwrap().state, State::Runnable);
    }

    /// The replay the page did before the digest had a state machine: each job's state
    /// and reason after the events up to `t`, by the SPEC names.
    fn plain_replay(d: &Digest, t: f64) -> Vec<(u32, String, Option<String>)> {
        let mut state = vec![""; d.jobs.len()];
        let mut reason: Vec<Option<Reason>> = vec![None; d.jobs.len()];
        for e in d.events.iter().take_while(|e| e.t_s <= t) {
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
                "preempt" if state[j] == "SCHEDULED" => state[j] = "RUNNABLE",
                "preempt" => state[j] = "PREEMPTING",
                "succeed" => state[j] = "SUCCEEDED",
                "fail" => state[j] = "FAILED",
                "reject" => state[j] = "REJECTED",
                "waiting" => reason[j] = e.reason,
                _ => {}
            }
        }
        state
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_empty())
            .map(|(j, s)| {
                let r = (*s == "RUNNABLE").then(|| reason[j].map(|r| r.as_str().to_string()));
                (j as u32, s.to_string(), r.flatten())
            })
            .collect()
    }

    // The segments give every job the state a plain replay of the log gives, at every
    // event time and between them, in every golden scenario.
    #[test]
    fn segments_agree_with_a_plain_replay() {
        let goldens = [
            AWS,
            include_str!("../../tests/golden/best-effort-skip.json"),
            include_str!("../../tests/golden/horizon-startup.json"),
            include_str!("../../tests/golden/in-share-off-waits.json"),
            include_str!("../../tests/golden/minimal-set.json"),
            include_str!("../../tests/golden/offer-order.json"),
            include_str!("../../tests/golden/overcommit-capacity-in-use.json"),
            include_str!("../../tests/golden/reclaim-grace-checkpoint.json"),
            include_str!("../../tests/golden/reserve-never-lent.json"),
            include_str!("../../tests/golden/retries-fail.json"),
            include_str!("../../tests/golden/strict-fifo.json"),
            include_str!("../../tests/golden/update-share-and-disable.json"),
        ];
        for text in goldens {
            let loaded = load(text).unwrap();
            let sim = simulate(&loaded.scenario, Options::default());
            let d = digest(&sim, DigestLimits::default());
            let segs = d.segments();
            let mut times: Vec<f64> = d.events.iter().map(|e| e.t_s).collect();
            times.extend(d.events.iter().map(|e| e.t_s + 0.5));
            times.extend([-1.0, d.end_s + 1.0]);
            for t in times {
                let got: Vec<(u32, String, Option<String>)> = (0..d.jobs.len() as u32)
                    .filter_map(|j| segs.at(j, t).map(|s| (j, s)))
                    .map(|(j, s)| {
                        let r = (s.state == State::Runnable)
                            .then(|| s.reason.map(|r| r.as_str().to_string()));
                        (j, s.state.as_str().to_string(), r.flatten())
                    })
                    .collect();
                assert_eq!(got, plain_replay(&d, t), "{} at {t}", d.name);
            }
        }
    }

    #[test]
    fn event_kinds_keep_their_spec_names() {
        let names: Vec<&str> = EventKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "submit",
                "dispatch",
                "start",
                "running",
                "preempt",
                "requeue",
                "succeed",
                "fail",
                "reject",
                "waiting",
                "set_priority",
                "update_share"
            ]
        );
        for k in EventKind::ALL {
            assert_eq!(EventKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(EventKind::parse("checkpoint"), None);
        assert_eq!(State::Preempting.as_str(), "PREEMPTING");
        assert_eq!(Cause::InShare.as_str(), "in_share");
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
