//! The simulator's state and its event loop: instants, job transitions, accounting
//! (SPEC 4 "Instants", SPEC 6 "A job's life and its costs", "End of the run").
//!
//! The scheduling pass lives in [`crate::pass`], victim selection in [`crate::preemption`],
//! the fit rules in [`crate::admission`] and the closed-form run arithmetic in
//! [`crate::lifecycle`]. This module only moves jobs between states and keeps the books.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use crate::admission::{self, TypeUsage};
use crate::lifecycle;
use crate::model::*;

/// What to record besides the metrics. The CLI's `--summary` needs neither the event log
/// nor the series; the page and `run` need both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub events: bool,
    pub series: bool,
    /// Re-evaluate everything every time: no cached "no offer", no skipped reasons, no
    /// preemption bounds. Same results, slower: the oracle the property tests compare with.
    pub exhaustive: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            events: true,
            series: true,
            exhaustive: false,
        }
    }
}

impl Options {
    /// Metrics only (the CLI's `--summary`): no event log, no series.
    pub fn summary() -> Options {
        Options {
            events: false,
            series: false,
            exhaustive: false,
        }
    }
}

/// SPEC 6 job states (plus "not yet submitted").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum State {
    Pending,
    Runnable,
    Scheduled,
    Starting,
    Running,
    Preempting,
    Succeeded,
    Failed,
    Rejected,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Pending => "PENDING",
            State::Runnable => "RUNNABLE",
            State::Scheduled => "SCHEDULED",
            State::Starting => "STARTING",
            State::Running => "RUNNING",
            State::Preempting => "PREEMPTING",
            State::Succeeded => "SUCCEEDED",
            State::Failed => "FAILED",
            State::Rejected => "REJECTED",
        }
    }
    /// Admitted: counts in `used` (SPEC 3).
    pub fn admitted(self) -> bool {
        matches!(self, State::Scheduled | State::Starting | State::Running)
    }
}

/// SPEC 4 waiting reasons, in precedence order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    Unschedulable,
    BlockedByPriority,
    HeadOfLine,
    BorrowLimit,
    EntitlementExhausted,
    CapacityInUse,
    NoLendableCapacity,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Unschedulable => "unschedulable",
            Reason::BlockedByPriority => "blocked_by_priority",
            Reason::HeadOfLine => "head_of_line",
            Reason::BorrowLimit => "borrow_limit",
            Reason::EntitlementExhausted => "entitlement_exhausted",
            Reason::CapacityInUse => "capacity_in_use",
            Reason::NoLendableCapacity => "no_lendable_capacity",
        }
    }
}

/// SPEC 5: the two preemption mechanisms, reported separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    Reclaim,
    InShare,
}

impl Cause {
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Reclaim => "reclaim",
            Cause::InShare => "in_share",
        }
    }
}

/// SPEC 8 event kinds. Job and share are indices; text is produced at output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Submit,
    Dispatch {
        borrowing: bool,
    },
    Start,
    Running,
    Preempt {
        cause: Cause,
        by: u32,
        victim_priority: u32,
        by_priority: u32,
    },
    Requeue,
    Succeed,
    Fail,
    Reject,
    Waiting(Reason),
    SetPriority(u32),
    UpdateShare,
}

/// One entry of the event log. `job` is `NO_JOB` for `update_share`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub t: Ms,
    pub job: u32,
    pub share: u32,
    pub kind: EventKind,
}

pub const NO_JOB: u32 = u32::MAX;

/// SPEC 6: a job's held instance-time split, in ms of one instance (multiply by `instances`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Acc {
    /// All progress ever made (kept or lost); `useful = progress - lost`.
    pub progress: Ms,
    pub lost: Ms,
    pub startup: Ms,
    pub checkpoint: Ms,
    pub grace: Ms,
    pub held: Ms,
}

impl Acc {
    pub fn useful(&self) -> Ms {
        self.progress - self.lost
    }
}

/// A job's dynamic state.
#[derive(Clone, Debug)]
pub struct JobRt {
    pub priority: u32,
    pub state: State,
    pub reason: Option<Reason>,
    pub adm_seq: u64,
    pub preemptions: u64,
    pub first_start: Option<Ms>,
    pub end: Option<Ms>,
    /// Bumped whenever a pending startup-end or completion becomes stale.
    pub epoch: u32,
    /// Progress covered by the last checkpoint (what a restart resumes from).
    pub saved: Ms,
    /// When STARTING began (instances held from then on).
    pub phase_start: Ms,
    /// When RUNNING began, and the progress it began from.
    pub run_start: Ms,
    pub base: Ms,
    /// Preemption in progress: when, and whether it saves a checkpoint during grace.
    pub pre_at: Ms,
    pub pre_save: bool,
    pub acc: Acc,
}

/// RUNNABLE order within a share (SPEC 4): priority high first, then submit, then id.
pub type QKey = (Reverse<u32>, Ms, u32, u32);
/// Candidate order (SPEC 5): lowest priority first, then latest admission first.
pub type AKey = (u32, Reverse<u64>, u32);

/// RUNNABLE jobs of one share with the same instance type and size. Such jobs fit, preempt
/// and wait for the same reasons, so a pass looks at bucket heads only.
#[derive(Clone, Debug, Default)]
pub struct Bucket {
    pub jobs: BTreeSet<QKey>,
    /// The reason every settled job of the bucket carries.
    pub reason: Option<Reason>,
}

/// A share's queues.
#[derive(Clone, Debug, Default)]
pub struct ShareRt {
    /// RUNNABLE jobs by (instance type, instances).
    pub buckets: BTreeMap<(usize, u64), Bucket>,
    /// Admitted jobs per instance type, in candidate order.
    pub admitted: Vec<BTreeSet<AKey>>,
    /// Per instance type: admitted instances by priority (for preemption bounds).
    pub admitted_by_priority: Vec<BTreeMap<u32, u64>>,
    /// Jobs that became RUNNABLE (or changed priority) since the last pass ended.
    pub fresh: Vec<u32>,
    /// Queue membership or configuration changed since the last pass (strict FIFO reasons).
    pub dirty: bool,
    /// RUNNABLE jobs per instance type (series `queued`).
    pub queued: Vec<u64>,
    /// Physical instances held per type (STARTING, RUNNING, PREEMPTING).
    pub held: Vec<u64>,
    pub reclaims: u64,
    pub in_share: u64,
    /// Bumped whenever the RUNNABLE queue or the admitted set's priorities change.
    pub version: u64,
    /// When this share last had no offer (see [`NoOffer`]).
    pub no_offer: Option<NoOffer>,
    /// `(usage_version, version)` at which the waiting reasons were last brought up to date.
    pub reasons_at: Option<(u64, u64)>,
    /// The first job of every non-empty bucket, in queue order (a share's candidates for
    /// its offer).
    pub heads: BTreeSet<QKey>,
}

/// A share had no offer at `(epoch, version)`. Until the epoch (`struct_epoch` when only
/// its own limit held it back, else `quota_epoch`) or its `version` changes, it has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoOffer {
    pub epoch: u64,
    pub version: u64,
    pub limit_bound: bool,
}

impl ShareRt {
    /// Records an admitted job (candidate order and per-priority totals).
    pub fn add_admitted(&mut self, t: usize, key: AKey, n: u64) {
        self.admitted[t].insert(key);
        *self.admitted_by_priority[t].entry(key.0).or_default() += n;
    }

    /// Forgets an admitted job.
    pub fn remove_admitted(&mut self, t: usize, key: AKey, n: u64) {
        self.admitted[t].remove(&key);
        if let Some(x) = self.admitted_by_priority[t].get_mut(&key.0) {
            *x -= n;
            if *x == 0 {
                self.admitted_by_priority[t].remove(&key.0);
            }
        }
    }

    /// Instances of admitted jobs of type `t` with priority strictly below `p`.
    pub fn admitted_below(&self, t: usize, p: u32) -> u64 {
        self.admitted_by_priority[t]
            .range(..p)
            .map(|(_, n)| n)
            .sum()
    }

    /// Adds a RUNNABLE job to its bucket, keeping `heads` current.
    pub fn insert_runnable(&mut self, bucket: (usize, u64), key: QKey) {
        let b = self.buckets.entry(bucket).or_default();
        if let Some(&old) = b.jobs.first() {
            if key < old {
                self.heads.remove(&old);
                self.heads.insert(key);
            }
        } else {
            self.heads.insert(key);
        }
        b.jobs.insert(key);
        self.version += 1;
        self.dirty = true;
    }

    /// Removes a RUNNABLE job from its bucket, keeping `heads` current.
    pub fn remove_runnable(&mut self, bucket: (usize, u64), key: QKey) {
        let Some(b) = self.buckets.get_mut(&bucket) else {
            return;
        };
        let was_head = b.jobs.first() == Some(&key);
        b.jobs.remove(&key);
        if was_head {
            self.heads.remove(&key);
            match b.jobs.first() {
                Some(&next) => {
                    self.heads.insert(next);
                }
                None => {
                    self.buckets.remove(&bucket);
                }
            }
        }
        self.version += 1;
        self.dirty = true;
    }
}

/// A pending timer: `(at, kind, sequence, job, job epoch)`.
type TimerEntry = (Ms, Timer, u64, u32, u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    /// Kinds in SPEC 4 order within an instant.
    GraceEnd = 0,
    Completion = 1,
    StartupEnd = 2,
}

/// Change points per (share, type) and the integrals behind `instance_hours`.
#[derive(Clone, Debug, Default)]
pub struct Series {
    pub pairs: Vec<(usize, usize)>,
    pub t: Vec<Ms>,
    pub limit: Vec<Vec<u64>>,
    pub own: Vec<Vec<u64>>,
    pub borrowed: Vec<Vec<u64>>,
    pub lent: Vec<Vec<f64>>,
    pub queued: Vec<Vec<u64>>,
}

/// Integrals over time per (share, type) pair, in instance-ms.
#[derive(Clone, Copy, Debug, Default)]
pub struct Integrals {
    pub entitled: u128,
    pub own: u128,
    pub borrowed: u128,
    pub lent: f64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct PairNow {
    limit: u64,
    own: u64,
    borrowed: u64,
    lent: f64,
    queued: u64,
}

/// The simulator. Build with [`Sim::new`], run with [`Sim::run`].
pub struct Sim<'a> {
    pub sc: &'a Scenario,
    pub opts: Options,
    pub now: Ms,
    pub end: Ms,
    /// Current share configuration (changed by `update_share`).
    pub cfg: Vec<Share>,
    pub rt: Vec<ShareRt>,
    pub usage: Vec<TypeUsage>,
    pub jobs: Vec<JobRt>,
    /// Largest job (instances) of each share and type, for preemption bounds.
    pub max_instances: Vec<Vec<u64>>,
    /// Rank of each job's id in string order (SPEC 4 tie-break).
    pub id_rank: Vec<u32>,
    pub events: Vec<Event>,
    pub series: Series,
    pub integrals: Vec<Integrals>,
    /// SCHEDULED jobs in admission order.
    pub scheduled: BTreeMap<u64, u32>,
    /// Instances were released since the SCHEDULED jobs were last scanned.
    pub released: bool,
    pub adm_seq: u64,
    /// Bumped whenever a share's offer could become possible although its queue did not
    /// change: quota released, a share newly borrowing (new reclaim candidates), a
    /// configuration or priority change. Admissions within entitlement without victims
    /// only make fitting harder, so they leave it alone.
    pub quota_epoch: u64,
    /// Like `quota_epoch` but not bumped by releases: new reclaim candidates, configuration
    /// and priority changes only.
    pub struct_epoch: u64,
    /// Bumped on every change of quota usage or configuration (waiting reasons depend on it).
    pub usage_version: u64,
    pub steps: u64,
    /// Events that happened (recorded or not).
    pub event_count: u64,
    heap: BinaryHeap<Reverse<TimerEntry>>,
    timer_seq: u64,
    submissions: Vec<u32>,
    next_submission: usize,
    timed: Vec<usize>,
    next_timed: usize,
    now_vals: Vec<PairNow>,
    last_t: Ms,
    started: bool,
    /// `(usage_version, sum of share versions)` when the values were last computed.
    values_at: Option<(u64, u64)>,
    /// Scratch space of the waiting-reason update (reused to avoid allocating per pass).
    pub(crate) scratch_reasons: Vec<((usize, u64), Reason)>,
    /// Scratch space of `record_values`: (lent, idle) per type.
    scratch_lent: Vec<(u64, u64)>,
}

impl<'a> Sim<'a> {
    pub fn new(sc: &'a Scenario, opts: Options) -> Sim<'a> {
        let types = sc.instance_types.len();
        let cfg: Vec<Share> = sc
            .shares
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.limits.resize(types, None);
                s
            })
            .collect();
        let usage = (0..types)
            .map(|t| TypeUsage::new(&cfg, t, sc.capacity[t]))
            .collect();
        let rt = cfg
            .iter()
            .map(|_| ShareRt {
                admitted: vec![BTreeSet::new(); types],
                admitted_by_priority: vec![BTreeMap::new(); types],
                queued: vec![0; types],
                held: vec![0; types],
                ..ShareRt::default()
            })
            .collect();
        let jobs = sc
            .jobs
            .iter()
            .map(|j| JobRt {
                priority: j.priority,
                state: State::Pending,
                reason: None,
                adm_seq: 0,
                preemptions: 0,
                first_start: None,
                end: None,
                epoch: 0,
                saved: 0,
                phase_start: 0,
                run_start: 0,
                base: 0,
                pre_at: 0,
                pre_save: false,
                acc: Acc::default(),
            })
            .collect();
        let mut by_id: Vec<u32> = (0..sc.jobs.len() as u32).collect();
        crate::sort::stable_by(&mut by_id, &|&a, &b| {
            sc.jobs[a as usize].id.cmp(&sc.jobs[b as usize].id)
        });
        let mut id_rank = vec![0; sc.jobs.len()];
        for (rank, &j) in by_id.iter().enumerate() {
            id_rank[j as usize] = rank as u32;
        }
        let mut submissions: Vec<u32> = (0..sc.jobs.len() as u32).collect();
        // Stable: file order within an instant.
        crate::sort::stable_by_i64(&mut submissions, &|&j| sc.jobs[j as usize].submit);
        let mut timed: Vec<usize> = (0..sc.events.len()).collect();
        crate::sort::stable_by_i64(&mut timed, &|&e| sc.events[e].at);

        // Series pairs: every type a share ever has a limit for, or runs jobs of.
        let mut uses = vec![vec![false; types]; cfg.len()];
        for (share, row) in cfg.iter().zip(uses.iter_mut()) {
            for (t, used) in row.iter_mut().enumerate() {
                *used |= admission::has_limit(share, t);
            }
        }
        for e in &sc.events {
            if let TimedAction::UpdateShare {
                share,
                update: ShareUpdate {
                    limits: Some(l), ..
                },
            } = &e.action
            {
                for (t, v) in l.iter().enumerate() {
                    uses[*share][t] |= v.is_some();
                }
            }
        }
        for j in &sc.jobs {
            uses[j.share][j.instance_type] = true;
        }
        let pairs: Vec<(usize, usize)> = (0..cfg.len())
            .flat_map(|s| (0..types).map(move |t| (s, t)))
            .filter(|&(s, t)| uses[s][t])
            .collect();
        let n = pairs.len();
        let mut max_instances = vec![vec![0u64; types]; cfg.len()];
        for j in &sc.jobs {
            let m = &mut max_instances[j.share][j.instance_type];
            *m = (*m).max(j.instances);
        }
        Sim {
            max_instances,
            sc,
            opts,
            now: 0,
            end: 0,
            cfg,
            rt,
            usage,
            jobs,
            id_rank,
            events: Vec::new(),
            series: Series {
                pairs,
                t: Vec::new(),
                limit: vec![Vec::new(); n],
                own: vec![Vec::new(); n],
                borrowed: vec![Vec::new(); n],
                lent: vec![Vec::new(); n],
                queued: vec![Vec::new(); n],
            },
            integrals: vec![Integrals::default(); n],
            scheduled: BTreeMap::new(),
            released: false,
            adm_seq: 0,
            quota_epoch: 0,
            struct_epoch: 0,
            usage_version: 0,
            steps: 0,
            event_count: 0,
            heap: BinaryHeap::new(),
            timer_seq: 0,
            submissions,
            next_submission: 0,
            timed,
            next_timed: 0,
            now_vals: vec![PairNow::default(); n],
            last_t: 0,
            started: false,
            values_at: None,
            scratch_reasons: Vec::new(),
            scratch_lent: Vec::new(),
        }
    }

    pub(crate) fn log(&mut self, job: u32, share: usize, kind: EventKind) {
        self.event_count += 1;
        if self.opts.events {
            self.events.push(Event {
                t: self.now,
                job,
                share: share as u32,
                kind,
            });
        }
    }

    fn timer(&mut self, at: Ms, kind: Timer, job: u32) {
        self.timer_seq += 1;
        let epoch = self.jobs[job as usize].epoch;
        self.heap
            .push(Reverse((at, kind, self.timer_seq, job, epoch)));
    }

    fn next_time(&mut self) -> Option<Ms> {
        // Stale timers (a preempted job's completion) are not events: drop them first.
        while let Some(&Reverse((_, _, _, job, epoch))) = self.heap.peek() {
            if self.jobs[job as usize].epoch == epoch {
                break;
            }
            self.heap.pop();
        }
        let a = self.heap.peek().map(|Reverse(e)| e.0);
        let b = self
            .submissions
            .get(self.next_submission)
            .map(|&j| self.sc.jobs[j as usize].submit);
        let c = self
            .timed
            .get(self.next_timed)
            .map(|&e| self.sc.events[e].at);
        [a, b, c].into_iter().flatten().min()
    }

    /// Runs to the end (SPEC 6 "End of the run").
    pub fn run(&mut self) {
        while self.step() {}
        self.finish();
    }

    /// Processes the next instant; `false` when none is left (or the next is past the
    /// horizon). Between steps the state is consistent and can be inspected.
    pub fn step(&mut self) -> bool {
        if !self.started {
            self.started = true;
            self.record_values();
        }
        match self.next_time() {
            Some(t) if self.sc.horizon.is_none_or(|h| t <= h) => {
                self.instant(t);
                true
            }
            _ => false,
        }
    }

    /// Closes the run after the last step: end time, final integrals and books.
    pub fn finish(&mut self) {
        self.end = self.sc.horizon.unwrap_or(self.last_t);
        self.now = self.end;
        self.integrate_to(self.end);
        self.close_books();
    }

    /// One instant (SPEC 4): apply its events in order, start what can start, run one pass.
    fn instant(&mut self, t: Ms) {
        self.integrate_to(t);
        self.now = t;
        while let Some(&Reverse((at, kind, _, job, epoch))) = self.heap.peek() {
            if at != t {
                break;
            }
            self.heap.pop();
            if self.jobs[job as usize].epoch != epoch {
                continue; // stale: the job was preempted since
            }
            match kind {
                Timer::GraceEnd => self.grace_end(job),
                Timer::Completion => self.complete(job),
                Timer::StartupEnd => self.begin_running(job),
            }
        }
        while let Some(&j) = self.submissions.get(self.next_submission) {
            if self.sc.jobs[j as usize].submit != t {
                break;
            }
            self.next_submission += 1;
            self.submit(j);
        }
        while let Some(&e) = self.timed.get(self.next_timed) {
            if self.sc.events[e].at != t {
                break;
            }
            self.next_timed += 1;
            self.apply_timed(e);
        }
        self.start_scheduled();
        self.pass();
        self.record_values();
    }

    // ---- queues ------------------------------------------------------------------------

    pub(crate) fn qkey(&self, j: u32) -> QKey {
        (
            Reverse(self.jobs[j as usize].priority),
            self.sc.jobs[j as usize].submit,
            self.id_rank[j as usize],
            j,
        )
    }

    fn akey(&self, j: u32) -> AKey {
        let r = &self.jobs[j as usize];
        (r.priority, Reverse(r.adm_seq), j)
    }

    fn enqueue(&mut self, j: u32) {
        let spec = &self.sc.jobs[j as usize];
        let (s, t, n) = (spec.share, spec.instance_type, spec.instances);
        let key = self.qkey(j);
        self.jobs[j as usize].state = State::Runnable;
        let rt = &mut self.rt[s];
        rt.insert_runnable((t, n), key);
        rt.queued[t] += 1;
        rt.fresh.push(j);
    }

    fn dequeue(&mut self, j: u32) {
        let spec = &self.sc.jobs[j as usize];
        let (s, t, n) = (spec.share, spec.instance_type, spec.instances);
        let key = self.qkey(j);
        let rt = &mut self.rt[s];
        rt.remove_runnable((t, n), key);
        rt.queued[t] -= 1;
        self.jobs[j as usize].reason = None; // SPEC 4: leaving RUNNABLE drops the reason
    }

    // ---- transitions -------------------------------------------------------------------

    /// SPEC 6: submission; a DISABLED share rejects new jobs.
    fn submit(&mut self, j: u32) {
        let s = self.sc.jobs[j as usize].share;
        self.log(j, s, EventKind::Submit);
        if !self.cfg[s].enabled {
            self.jobs[j as usize].state = State::Rejected;
            self.log(j, s, EventKind::Reject);
            return;
        }
        self.enqueue(j);
    }

    /// SPEC 3: admission takes quota at once; the job is SCHEDULED until its instances are
    /// physically free.
    pub(crate) fn admit(&mut self, j: u32) {
        let spec = &self.sc.jobs[j as usize];
        let (s, t, n) = (spec.share, spec.instance_type, spec.instances);
        self.dequeue(j);
        let borrowing = !admission::within_entitlement(&self.cfg[s], t, self.usage[t].used[s], n);
        if borrowing {
            self.quota_epoch += 1; // its share is over its limit: new reclaim candidates
            self.struct_epoch += 1;
        }
        self.usage[t].add(&self.cfg, s, n);
        self.usage_version += 1;
        self.adm_seq += 1;
        let r = &mut self.jobs[j as usize];
        r.adm_seq = self.adm_seq;
        r.state = State::Scheduled;
        let key = self.akey(j);
        self.rt[s].add_admitted(t, key, n);
        self.scheduled.insert(self.adm_seq, j);
        self.log(j, s, EventKind::Dispatch { borrowing });
        if !self.released {
            self.try_start(j);
        }
    }

    /// SPEC 3: instances free to a job of share `s`: not held by anyone, and not the idle
    /// entitlement of another share that is RESERVE.
    fn free_for(&self, s: usize, t: usize) -> u64 {
        let held: u64 = self.rt.iter().map(|r| r.held[t]).sum();
        let reserved: u64 = self
            .cfg
            .iter()
            .enumerate()
            .filter(|&(r, c)| r != s && c.strategy == Strategy::Reserve)
            .map(|(r, c)| admission::limit_of(c, t).saturating_sub(self.rt[r].held[t]))
            .sum();
        self.sc.capacity[t].saturating_sub(held + reserved)
    }

    fn try_start(&mut self, j: u32) -> bool {
        let spec = &self.sc.jobs[j as usize];
        if spec.instances > self.free_for(spec.share, spec.instance_type) {
            return false;
        }
        let seq = self.jobs[j as usize].adm_seq;
        self.scheduled.remove(&seq);
        self.start(j);
        true
    }

    /// SPEC 3: SCHEDULED jobs are taken in admission order; each starts if its instances
    /// are free; one that cannot start does not hold back later ones.
    pub(crate) fn start_scheduled(&mut self) {
        if !self.released {
            return;
        }
        self.released = false;
        let waiting: Vec<u32> = self.scheduled.values().copied().collect();
        for j in waiting {
            self.try_start(j);
        }
    }

    /// SPEC 6: STARTING for `startup_s` (+ `restore_s` when resuming); 0 ends at once.
    fn start(&mut self, j: u32) {
        let spec = &self.sc.jobs[j as usize];
        let (s, t, n) = (spec.share, spec.instance_type, spec.instances);
        let len =
            lifecycle::startup_length(spec.startup, spec.checkpoint, self.jobs[j as usize].saved);
        self.rt[s].held[t] += n;
        let now = self.now;
        let r = &mut self.jobs[j as usize];
        r.state = State::Starting;
        r.phase_start = now;
        r.first_start.get_or_insert(now);
        self.log(j, s, EventKind::Start);
        if len == 0 {
            self.begin_running(j);
        } else {
            self.timer(now + len, Timer::StartupEnd, j);
        }
    }

    fn begin_running(&mut self, j: u32) {
        let spec = &self.sc.jobs[j as usize];
        let s = spec.share;
        let now = self.now;
        let r = &mut self.jobs[j as usize];
        r.acc.startup += now - r.phase_start;
        r.state = State::Running;
        r.run_start = now;
        r.base = r.saved;
        let done = now + lifecycle::run_length(r.base, spec.work, spec.checkpoint);
        self.log(j, s, EventKind::Running);
        self.timer(done, Timer::Completion, j);
    }

    /// Releases a job's quota (SPEC 3: at completion or at the preempt event).
    fn release_quota(&mut self, j: u32) {
        let spec = &self.sc.jobs[j as usize];
        let (s, t, n) = (spec.share, spec.instance_type, spec.instances);
        let key = self.akey(j);
        self.rt[s].remove_admitted(t, key, n);
        self.usage[t].remove(&self.cfg, s, n);
        self.quota_epoch += 1;
        self.usage_version += 1;
        self.rt[s].version += 1; // its own usage fell
    }

    fn release_instances(&mut self, j: u32) {
        let spec = &self.sc.jobs[j as usize];
        self.rt[spec.share].held[spec.instance_type] -= spec.instances;
        self.released = true;
    }

    /// Folds a RUNNING job's run so far into its books (SPEC 6), returning where it stands.
    fn settle_run(&mut self, j: u32) -> lifecycle::RunPoint {
        let spec = &self.sc.jobs[j as usize];
        let now = self.now;
        let r = &mut self.jobs[j as usize];
        let p = lifecycle::run_point(r.base, spec.work, spec.checkpoint, now - r.run_start);
        r.acc.progress += p.progress - r.base;
        r.acc.checkpoint += p.checkpoint_time;
        r.saved = p.saved;
        p
    }

    fn complete(&mut self, j: u32) {
        let s = self.sc.jobs[j as usize].share;
        let p = self.settle_run(j);
        let now = self.now;
        let r = &mut self.jobs[j as usize];
        r.saved = p.progress;
        r.acc.held += now - r.phase_start;
        r.state = State::Succeeded;
        r.end = Some(now);
        self.release_quota(j);
        self.release_instances(j);
        self.log(j, s, EventKind::Succeed);
    }

    /// SPEC 5: preempt victim `j` for job `by`. Quota is released now; a STARTING or
    /// RUNNING victim holds its instances through the grace period (saving a checkpoint if
    /// it can), a SCHEDULED one returns at once.
    pub(crate) fn preempt(&mut self, j: u32, by: u32, cause: Cause) {
        let spec = &self.sc.jobs[j as usize];
        let s = spec.share;
        let (on_preempt, ckpt) = (spec.checkpoint_on_preempt, spec.checkpoint);
        let grace = self.sc.grace;
        let state = self.jobs[j as usize].state;
        self.release_quota(j);
        self.jobs[j as usize].preemptions += 1;
        match cause {
            Cause::Reclaim => self.rt[s].reclaims += 1,
            Cause::InShare => self.rt[s].in_share += 1,
        }
        let (victim_priority, by_priority) = (
            self.jobs[j as usize].priority,
            self.jobs[by as usize].priority,
        );
        self.log(
            j,
            s,
            EventKind::Preempt {
                cause,
                by,
                victim_priority,
                by_priority,
            },
        );
        let now = self.now;
        match state {
            State::Scheduled => {
                let seq = self.jobs[j as usize].adm_seq;
                self.scheduled.remove(&seq);
                self.requeue_or_fail(j);
                return;
            }
            State::Starting => {
                let r = &mut self.jobs[j as usize];
                r.acc.startup += now - r.phase_start;
                r.pre_save = false;
            }
            State::Running => {
                let p = self.settle_run(j);
                let save = lifecycle::saves_on_sigterm(&p, on_preempt, ckpt, grace);
                let r = &mut self.jobs[j as usize];
                r.pre_save = save;
                if save {
                    r.saved = p.progress;
                } else {
                    r.acc.lost += p.progress - p.saved; // rolls back to the last checkpoint
                }
            }
            _ => unreachable!("only admitted jobs are preemption candidates"),
        }
        let r = &mut self.jobs[j as usize];
        r.state = State::Preempting;
        r.pre_at = now;
        r.epoch += 1;
        if grace == 0 {
            self.grace_end(j);
        } else {
            self.timer(now + grace, Timer::GraceEnd, j);
        }
    }

    /// SPEC 5: at the end of the grace period the victim releases its instances, then
    /// returns to RUNNABLE (`requeue`) or, past its retries, FAILS.
    fn grace_end(&mut self, j: u32) {
        self.settle_grace(j, self.now);
        self.release_instances(j);
        self.requeue_or_fail(j);
    }

    /// Books a PREEMPTING job's time up to `until` (SPEC 6): a save on SIGTERM counts as
    /// `checkpoint` (as far as it got), the rest of the grace period as `grace`.
    fn settle_grace(&mut self, j: u32, until: Ms) {
        let cost = self.sc.jobs[j as usize].checkpoint.map_or(0, |c| c.cost);
        let r = &mut self.jobs[j as usize];
        let grace = until - r.pre_at;
        let saving = if r.pre_save { cost.min(grace) } else { 0 };
        r.acc.checkpoint += saving;
        r.acc.grace += grace - saving;
        r.acc.held += until - r.phase_start;
    }

    fn requeue_or_fail(&mut self, j: u32) {
        let spec = &self.sc.jobs[j as usize];
        let s = spec.share;
        let r = &mut self.jobs[j as usize];
        if spec
            .preemption_retries
            .is_some_and(|max| r.preemptions > max)
        {
            r.state = State::Failed;
            r.end = Some(self.now);
            r.acc.lost += r.saved; // SPEC 6: all progress of a job that FAILED is lost
            r.saved = 0;
            self.log(j, s, EventKind::Fail);
        } else {
            self.log(j, s, EventKind::Requeue);
            self.enqueue(j);
        }
    }

    /// SPEC 4/6: `set_priority` and `update_share`, in file order within an instant.
    fn apply_timed(&mut self, e: usize) {
        match &self.sc.events[e].action {
            TimedAction::SetPriority { job, priority } => {
                self.quota_epoch += 1;
                self.struct_epoch += 1;
                let j = *job as u32;
                let s = self.sc.jobs[*job].share;
                match self.jobs[*job].state {
                    State::Runnable => {
                        let key = self.qkey(j);
                        let spec = &self.sc.jobs[*job];
                        let bucket = (spec.instance_type, spec.instances);
                        self.rt[s].remove_runnable(bucket, key);
                        self.jobs[*job].priority = *priority;
                        let key = self.qkey(j);
                        let rt = &mut self.rt[s];
                        rt.insert_runnable(bucket, key);
                        rt.fresh.push(j);
                    }
                    st if st.admitted() => {
                        let t = self.sc.jobs[*job].instance_type;
                        let key = self.akey(j);
                        let n = self.sc.jobs[*job].instances;
                        self.rt[s].remove_admitted(t, key, n);
                        self.jobs[*job].priority = *priority;
                        let key = self.akey(j);
                        self.rt[s].add_admitted(t, key, n);
                    }
                    _ => self.jobs[*job].priority = *priority,
                }
                if self.jobs[*job].state != State::Pending {
                    self.log(j, s, EventKind::SetPriority(*priority));
                }
            }
            TimedAction::UpdateShare { share, update } => {
                let types = self.sc.instance_types.len();
                let c = &mut self.cfg[*share];
                if let Some(l) = &update.limits {
                    c.limits = l.clone();
                    c.limits.resize(types, None);
                }
                if let Some(x) = update.strategy {
                    c.strategy = x;
                }
                if let Some(x) = update.borrow_limit {
                    c.borrow_limit = x;
                }
                if let Some(x) = update.in_share_preemption {
                    c.in_share_preemption = x;
                }
                if let Some(x) = update.enabled {
                    c.enabled = x;
                }
                for u in &mut self.usage {
                    u.recompute(&self.cfg);
                }
                self.quota_epoch += 1;
                self.struct_epoch += 1;
                self.usage_version += 1;
                for rt in &mut self.rt {
                    rt.dirty = true;
                    for b in rt.buckets.values_mut() {
                        b.reason = None; // re-evaluate every job's reason
                    }
                }
                self.released = true; // RESERVE idle may have changed
                self.log(NO_JOB, *share, EventKind::UpdateShare);
            }
        }
    }

    // ---- books ---------------------------------------------------------------------------

    /// Integrates the current values over `[last_t, t)`.
    fn integrate_to(&mut self, t: Ms) {
        let dt = t - self.last_t;
        if dt > 0 {
            for (i, v) in self.now_vals.iter().enumerate() {
                let g = &mut self.integrals[i];
                g.entitled += v.limit as u128 * dt as u128;
                g.own += v.own as u128 * dt as u128;
                g.borrowed += v.borrowed as u128 * dt as u128;
                g.lent += v.lent * dt as f64;
            }
        }
        self.last_t = t;
    }

    /// Computes limit, own, borrowed, lent and queued per (share, type) now (SPEC 1, 8) and
    /// records a change point if anything changed.
    fn record_values(&mut self) {
        // Values depend only on quota usage, configuration and queue lengths.
        let version = (
            self.usage_version,
            self.rt.iter().map(|r| r.version).sum::<u64>(),
        );
        if self.values_at == Some(version) && !self.opts.exhaustive {
            return;
        }
        self.values_at = Some(version);
        // SPEC 1 "Lent": of B = max(0, total borrowed - unallocated), min(B, total idle) is
        // split across lending shares in proportion to their idle entitlement.
        let nshares = self.cfg.len();
        let mut lent_idle = std::mem::take(&mut self.scratch_lent);
        lent_idle.clear();
        for u in &self.usage {
            let (mut borrowed, mut idle) = (0u64, 0u64);
            for s in 0..nshares {
                let (used, l) = (u.used[s], u.limit(s));
                borrowed += used.saturating_sub(l);
                if u.lends(s) {
                    idle += l.saturating_sub(used);
                }
            }
            lent_idle.push((borrowed.saturating_sub(u.unallocated).min(idle), idle));
        }
        let mut changed = false;
        for (i, &(s, t)) in self.series.pairs.iter().enumerate() {
            let u = &self.usage[t];
            let (limit, used) = (u.limit(s), u.used[s]);
            let own = used.min(limit);
            let (lent_total, idle_total) = lent_idle[t];
            let lent = if u.lends(s) && idle_total > 0 {
                lent_total as f64 * limit.saturating_sub(used) as f64 / idle_total as f64
            } else {
                0.0
            };
            let v = PairNow {
                limit,
                own,
                borrowed: used - own,
                lent,
                queued: self.rt[s].queued[t],
            };
            if v != self.now_vals[i] {
                changed = true;
                self.now_vals[i] = v;
            }
        }
        self.scratch_lent = lent_idle;
        if !self.opts.series {
            return;
        }
        let fresh = self.series.t.is_empty();
        if !(changed || fresh) {
            return;
        }
        let replace = self.series.t.last() == Some(&self.now) && !fresh;
        if replace {
            self.series.t.pop();
        }
        self.series.t.push(self.now);
        for (i, v) in self.now_vals.iter().enumerate() {
            let ser = &mut self.series;
            if replace {
                ser.limit[i].pop();
                ser.own[i].pop();
                ser.borrowed[i].pop();
                ser.lent[i].pop();
                ser.queued[i].pop();
            }
            ser.limit[i].push(v.limit);
            ser.own[i].push(v.own);
            ser.borrowed[i].push(v.borrowed);
            ser.lent[i].push(v.lent);
            ser.queued[i].push(v.queued);
        }
    }

    /// SPEC 6 "End of the run": held time of jobs still going is counted up to `end_s`; an
    /// unfinished job's kept progress is `useful`.
    fn close_books(&mut self) {
        let end = self.end;
        for j in 0..self.jobs.len() as u32 {
            match self.jobs[j as usize].state {
                State::Starting => {
                    let r = &mut self.jobs[j as usize];
                    r.acc.startup += end - r.phase_start;
                    r.acc.held += end - r.phase_start;
                }
                State::Running => {
                    let p = self.settle_run(j);
                    let r = &mut self.jobs[j as usize];
                    r.saved = p.progress;
                    r.acc.held += end - r.phase_start;
                }
                State::Preempting => self.settle_grace(j, end),
                _ => {}
            }
        }
    }
}
