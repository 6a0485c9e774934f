//! The simulator's state (SPEC 6 job states, SPEC 4 waiting reasons, SPEC 8 event kinds, the
//! per-share queues) and [`Sim`] itself with its construction.
//!
//! The event loop and job transitions live in [`super::events`], the series and integrals
//! in [`super::series`], the scheduling pass in [`super::pass`], victim selection in
//! [`super::preemption`], the fit rules in [`super::admission`] and the closed-form run
//! arithmetic in [`super::lifecycle`].

use std::collections::{BTreeMap, BTreeSet};

use crate::input::model::*;
use crate::simulation::admission::{self, TypeUsage};

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

use super::agenda::Agenda;
use super::epochs::Epochs;
pub use super::job::*;
use super::memo::PassMemo;
use super::offers::KueueState;
pub use super::queues::*;
pub use super::record::*;

/// The simulator. Build with [`Sim::new`], run with [`Sim::run`].
pub struct Sim<'a> {
    pub(super) sc: &'a Scenario,
    pub(super) opts: Options,
    pub(super) now: Ms,
    pub(super) end: Ms,
    /// Current share configuration (changed by `update_share`).
    pub(super) cfg: Vec<Share>,
    /// Each share's queues (RUNNABLE buckets, admitted candidates, held instances).
    pub(super) rt: Vec<ShareRt>,
    /// Quota usage per instance type (the AWS model's translated quota tree inside).
    pub(super) usage: Vec<TypeUsage>,
    /// Each job's record, in `Scenario::jobs` order.
    pub(super) jobs: Vec<JobRt>,
    /// Largest job (instances) of each share and type, for preemption bounds.
    pub(super) max_instances: Vec<Vec<u64>>,
    /// SPEC 4 tie-break: each job's rank among the jobs of its submit time, by (id, file
    /// order): [`IdRanks::of`].
    pub(super) id_rank: IdRanks,
    /// Per instance type: the instances all shares hold, and the RESERVE shares' idle
    /// entitlement (`max(0, limit - held)`), kept with every change of `ShareRt::held`.
    pub(super) held_totals: Vec<(u64, u64)>,
    /// SCHEDULED jobs in admission order.
    pub(super) scheduled: BTreeMap<u64, JobId>,
    /// Instances were released since the SCHEDULED jobs were last scanned.
    pub(super) released: bool,
    /// The last admission's sequence number (SPEC 5 candidate order).
    pub(super) adm_seq: u64,
    /// Whether the first step has run (it records the values at time 0).
    pub(super) started: bool,
    /// SPEC 6, bounded: the watch for a circle of preemptions that never ends.
    pub(super) circle: super::circle::CircleWatch,
    /// What is due when: timers, submissions, timed events, escalations.
    pub(super) agenda: Agenda,
    /// The versions the caches are stamped with.
    pub(super) epochs: Epochs,
    /// What the passes remember from one to the next (and their working storage).
    pub(super) memo: PassMemo,
    /// SPEC 6 and 14 books: each job's time split, each share's counts.
    pub(super) books: Books,
    /// What the run records: events, series, integrals.
    pub(super) record: Recording,
    /// SPEC 12: the Kueue model's quota trees and the pass's reservations.
    pub(super) kueue: KueueState,
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
            .map(|t| {
                let u = TypeUsage::new(&cfg, t, sc.capacity[t]);
                // SPEC 12: the AWS model's admission goes through the translated quota tree
                // inside its usage; the Kueue model's trees are `trees`.
                if sc.is_kueue() {
                    u.without_tree()
                } else {
                    u
                }
            })
            .collect();
        let rt = cfg
            .iter()
            .map(|_| ShareRt {
                admitted: vec![BTreeSet::new(); types],
                evicted: vec![BTreeSet::new(); types],
                admitted_by_priority: vec![PriorityTotals::default(); types],
                queued: vec![0; types],
                held: vec![0; types],
                keeps_order: sc.is_kueue(),
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
                first_start: OptMs::NONE,
                epoch: 0,
                saved: 0,
                phase_start: 0,
                run_start: 0,
                base: 0,
                held: 0,
                share: j.share() as u32,
                restores: 0,
                useful_borrowed: 0,
                flags: 0,
            })
            .collect();
        // Empty when no job is resubmitted (most scenarios): 8 bytes a job saved.
        let mut continuation = if sc.jobs.iter().any(|j| j.resubmission_of.is_some()) {
            vec![None; sc.jobs.len()]
        } else {
            Vec::new()
        };
        for (i, j) in sc.jobs.iter().enumerate() {
            if let Some(root) = j.resubmission_of.get() {
                if let Some(c) = continuation.get_mut(root) {
                    *c = Some(JobId::new(i));
                }
            }
        }
        let escalations = escalations(sc);
        // Stable: file order within an instant.
        let mut by_submit: Vec<JobId> = JobId::all(sc.jobs.len()).collect();
        crate::sort::stable_by_i64(&mut by_submit, &|&j| sc.jobs[j.index()].submit);
        let id_rank = id_ranks(sc, &by_submit);
        let agenda = Agenda::new(sc, by_submit, escalations);

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
            uses[j.share()][j.instance_type()] = true;
        }
        let pairs: Vec<Pair> = (0..cfg.len())
            .flat_map(|s| (0..types).map(move |t| (s, t)))
            .filter(|&(s, t)| uses[s][t])
            .map(|(s, t)| Pair {
                share: ShareIx::new(s),
                ty: TypeIx::new(t),
            })
            .collect();
        let n = pairs.len();
        let mut max_instances = vec![vec![0u64; types]; cfg.len()];
        for j in &sc.jobs {
            let m = &mut max_instances[j.share()][j.instance_type()];
            *m = (*m).max(j.instances());
        }
        let books = Books {
            acc: if opts.events || opts.series || !continuation.is_empty() {
                vec![Acc::default(); sc.jobs.len()]
            } else {
                Vec::new()
            },
            acc_totals: vec![AccTotals::default(); sc.shares.len()],
            counts: vec![ShareCounts::default(); sc.shares.len()],
            waits_after_interruption: vec![Vec::new(); sc.shares.len()],
            corrupt: BTreeMap::new(),
            continuation,
        };
        let record = Recording {
            series: Series {
                pairs,
                t: Vec::new(),
                changes: vec![Vec::new(); n],
                kueue: Default::default(),
            },
            integrals: vec![Integrals::default(); n],
            now_vals: vec![PairValues::default(); n],
            settled_at: vec![0; n],
            ..Recording::default()
        };
        let mut sim = Sim {
            max_instances,
            agenda,
            sc,
            opts,
            now: 0,
            end: 0,
            cfg,
            rt,
            usage,
            jobs,
            id_rank,
            held_totals: Vec::new(),
            scheduled: BTreeMap::new(),
            released: false,
            adm_seq: 0,
            started: false,
            circle: Default::default(),
            epochs: Epochs::default(),
            memo: PassMemo::default(),
            books,
            record,
            kueue: KueueState {
                reserved: vec![0; types],
                admitted_s: if sc.is_kueue() {
                    vec![0; sc.jobs.len()]
                } else {
                    Vec::new()
                },
                uid_rank: if sc.is_kueue() {
                    uid_ranks(sc)
                } else {
                    Vec::new()
                },
                ..KueueState::default()
            },
        };
        sim.rebuild_trees();
        sim.recompute_held_totals();
        sim
    }
}

/// What can be read of a run between steps: a progress bar's measure and, for the property
/// tests, the state the SPEC 2/3 invariants are about. Nothing here changes the state.
impl<'a> Sim<'a> {
    /// The scenario being run.
    pub fn scenario(&self) -> &'a Scenario {
        self.sc
    }

    /// The current instant.
    pub fn now(&self) -> Ms {
        self.now
    }

    /// The most instances of type `t` share `s` could ever hold now, every other share
    /// idle (0 without a limit for `t`): the quota test (SPEC 3 conditions 1-2 on the AWS
    /// scenario's translated tree, SPEC 12 `potential` in the Kueue model) and capacity. A
    /// job that needs more cannot start under this configuration.
    pub fn most_ever(&self, s: usize, t: usize) -> u64 {
        if !crate::simulation::admission::has_limit(&self.cfg[s], t) {
            return 0;
        }
        match self.kueue.trees.get(t) {
            Some(tree) => tree.potential(s).min(self.sc.capacity[t]),
            None => self.usage[t].most_ever(s),
        }
    }

    /// The shares' configuration now (SPEC 4 `update_share` changes it).
    pub fn config(&self) -> &[Share] {
        &self.cfg
    }

    /// The physical instances share `s` holds of type `t` now (STARTING, RUNNING,
    /// PREEMPTING).
    pub fn held(&self, s: usize, t: usize) -> u64 {
        self.rt[s].held[t]
    }

    /// Quota usage of type `t` now.
    pub fn usage(&self, t: usize) -> &TypeUsage {
        &self.usage[t]
    }

    /// How far the run has come, from 0 to 1: half for jobs submitted, half for jobs
    /// ended. A progress bar's measure, not a metric (a job can be submitted late in
    /// simulated time). SPEC 14 continuations are not jobs of their own (their job counts
    /// as ended while they run).
    pub fn progress(&self) -> f64 {
        let n = self.sc.described_jobs();
        if n == 0 {
            return 0.5;
        }
        let (mut submitted, mut ended) = (0usize, 0usize);
        let jobs = self.sc.jobs.iter().zip(&self.jobs);
        for (_, j) in jobs.filter(|(spec, _)| spec.resubmission_of.is_none()) {
            if j.state != State::Pending {
                submitted += 1;
            }
            if j.state.finished() {
                ended += 1;
            }
        }
        (submitted + ended) as f64 / (2 * n) as f64
    }
}

/// SPEC 12.1: every job's rank among all job ids in string order (Kueue's workload UIDs),
/// then file order. Sorted by each id's first 16 bytes as one integer (zero-padded: an
/// integer order that differs is the ids' string order), then file order; each run of ids
/// that share those bytes is put in string order (stably: file order within an id). The
/// pairs are sorted as the classical walk's order is (`(u128, usize)`, `sort_unstable`), and a
/// run as `id_ranks` sorts ties: one copy of each sort in the wasm (docs/PERFORMANCE.md, "Load
/// size").
fn uid_ranks(sc: &Scenario) -> Vec<u32> {
    let prefix = |id: &str| {
        let mut b = [0u8; 16];
        let n = id.len().min(16);
        b[..n].copy_from_slice(&id.as_bytes()[..n]);
        u128::from_be_bytes(b)
    };
    let mut order: Vec<(u128, usize)> = (0..sc.jobs.len())
        .map(|j| (prefix(sc.job_id(j)), j))
        .collect();
    order.sort_unstable();
    let mut run = Vec::new();
    for same in order.chunk_by_mut(|a, b| a.0 == b.0) {
        if same.len() > 1 {
            run.clear();
            run.extend(same.iter().map(|&(_, j)| JobId::new(j)));
            crate::sort::stable_by(&mut run, &|&a, &b| {
                sc.job_id(a.index()).cmp(sc.job_id(b.index()))
            });
            for (slot, j) in same.iter_mut().zip(&run) {
                slot.1 = j.index();
            }
        }
    }
    let mut rank = vec![0; sc.jobs.len()];
    for (r, (_, j)) in order.into_iter().enumerate() {
        rank[j] = r as u32;
    }
    rank
}

/// SPEC 4 tie-break of equal priority and submit time: the job id in string order (then
/// file order, for a continuation's id is its job's). Each job's rank in the order (id, file
/// order) among its submit time's jobs, from `by_submit` (every job, stably sorted by
/// submit): only jobs of one submit time ever compare ranks (the queue key compares submit
/// first; fair sharing's candidate key compares admissions first, which never tie), so ids
/// are sorted only within a submit time, not all of them as strings.
fn id_ranks(sc: &Scenario, by_submit: &[JobId]) -> IdRanks {
    let submit = |j: &JobId| sc.jobs[j.index()].submit;
    let mut tied = Vec::new();
    let mut group_by_id = Vec::new();
    for group in by_submit.chunk_by(|a, b| submit(a) == submit(b)) {
        if group.len() > 1 {
            group_by_id.clear();
            group_by_id.extend_from_slice(group);
            crate::sort::stable_by(&mut group_by_id, &|&a, &b| {
                sc.job_id(a.index()).cmp(sc.job_id(b.index()))
            });
            tied.extend(group_by_id.iter().enumerate().map(|(r, &j)| (j, r as u32)));
        }
    }
    if tied.len() * 16 > sc.jobs.len() {
        // Many ties (a trace with times in whole seconds): one rank per job, looked up
        // directly, costs 4 bytes a job and no search on every enqueue.
        let mut dense = vec![0; sc.jobs.len()];
        for (j, r) in tied {
            dense[j.index()] = r;
        }
        return IdRanks {
            tied: Vec::new(),
            dense,
        };
    }
    tied.sort_unstable_by_key(|&(j, _)| j);
    IdRanks {
        tied,
        dense: Vec::new(),
    }
}

/// SPEC 4's id tie-break, kept only for jobs that share their submit time with another (a
/// rank only ever decides between those): most jobs of a generated million have none, so
/// this costs nothing per job where a dense rank took 4 bytes each; with many ties, dense.
#[derive(Clone, Debug, Default)]
pub struct IdRanks {
    /// (job, its rank among its submit time's jobs), by job.
    tied: Vec<(JobId, u32)>,
    /// Every job's rank, instead, when more than one job in 16 shares its submit time.
    dense: Vec<u32>,
}

impl IdRanks {
    /// Job `j`'s rank among the jobs submitted at its time (0 when it is alone there).
    pub fn of(&self, j: JobId) -> u32 {
        if let Some(&r) = self.dense.get(j.index()) {
            return r;
        }
        if self.tied.is_empty() {
            return 0;
        }
        self.tied
            .binary_search_by_key(&j, |&(t, _)| t)
            .map_or(0, |i| self.tied[i].1)
    }
}

/// SPEC 14 `escalate`: `to_priority` at `submit + deadline - before_deadline` (not before
/// the submission), in time order, then job order (file order, then generated jobs).
fn escalations(sc: &Scenario) -> Vec<(Ms, JobId, Priority)> {
    let mut out: Vec<(Ms, JobId, Priority)> = sc
        .jobs
        .iter()
        .enumerate()
        .filter(|(_, j)| j.resubmission_of.is_none())
        .filter_map(|(i, j)| {
            let e = j.escalate()?;
            let d = j.deadline.get()?;
            let at = (j.submit + d - e.before_deadline).max(j.submit);
            Some((at, JobId::new(i), e.to_priority))
        })
        .collect();
    crate::sort::stable_by_i64(&mut out, &|e| e.0);
    out
}

#[cfg(test)]
mod size {
    /// Per-job records, the bulk of a large run's memory (docs/PERFORMANCE.md).
    #[test]
    fn per_job_records() {
        let (spec, rt) = (
            std::mem::size_of::<crate::input::model::JobSpec>(),
            std::mem::size_of::<super::JobRt>(),
        );
        eprintln!("JobSpec {spec} bytes, JobRt {rt} bytes");
        // On 64-bit targets; a change here is a change of a large run's memory.
        if cfg!(target_pointer_width = "64") {
            assert_eq!((spec, rt), (64, 88));
        }
    }
}

#[cfg(test)]
mod ranks {
    use super::{id_ranks, uid_ranks, JobId};

    /// SPEC 12.1: ranks among all ids are the ids' string order where ids share their
    /// first 16 bytes, one is a prefix of another, or one ends in what the padding adds
    /// (`a` and `a\0`).
    #[test]
    fn uid_ranks_follow_the_ids_string_order() {
        let ids = [
            "b",
            "a",
            "abcdefghijklmnop-2",
            "abcdefghijklmnop-10",
            "abcdefghijklmnop",
            "abcdefghijklmno",
            "ab",
            "a\u{0}",
            "a\u{0}b",
            "é",
            "z-1",
            "Z",
            "ab\u{0}",
        ];
        let jobs: Vec<_> = ids
            .iter()
            .map(|id| {
                serde_json::json!({"id": id,
                    "share": "a", "instance_type": "ml.g5.xlarge", "instances": 1,
                    "submit_s": 0, "work_s": 10})
            })
            .collect();
        let doc = serde_json::json!({"format": "quotalab/v1", "capacity": {"ml.g5.xlarge": 1},
            "shares": [{"name": "a", "strategy": "RESERVE", "limits": {"ml.g5.xlarge": 1}}],
            "jobs": jobs});
        let loaded = crate::input::validate::load(&doc.to_string());
        let sc = match loaded {
            Ok(l) => l.scenario,
            Err(p) => panic!("{p:?}"),
        };
        let mut want: Vec<usize> = (0..ids.len()).collect();
        want.sort_by(|&a, &b| sc.job_id(a).cmp(sc.job_id(b)).then(a.cmp(&b)));
        let ranks = uid_ranks(&sc);
        let got: Vec<usize> = {
            let mut by_rank: Vec<usize> = (0..ids.len()).collect();
            by_rank.sort_by_key(|&j| ranks[j]);
            by_rank
        };
        assert_eq!(got, want);
    }

    /// `n` jobs on one share, one a minute; the jobs at indices `tied` all submitted at 0,
    /// with ids in reverse of their file order (so the id order is the reverse of file order).
    fn scenario(n: usize, tied: &[usize]) -> crate::input::model::Scenario {
        let jobs: Vec<_> = (0..n)
            .map(|i| {
                let (id, submit) = match tied.iter().position(|&t| t == i) {
                    Some(k) => (format!("tied-{}", tied.len() - k), 0),
                    None => (format!("job-{i:03}"), 60 * (i + 1)),
                };
                serde_json::json!({"id": id, "share": "a", "instance_type": "ml.g5.xlarge",
                    "instances": 1, "submit_s": submit, "work_s": 10})
            })
            .collect();
        let doc = serde_json::json!({"format": "quotalab/v1", "capacity": {"ml.g5.xlarge": 1},
            "shares": [{"name": "a", "strategy": "RESERVE", "limits": {"ml.g5.xlarge": 1}}],
            "jobs": jobs});
        crate::input::validate::load(&doc.to_string())
            .unwrap()
            .scenario
    }

    /// SPEC 4: among jobs of one submit time, ranks follow the ids; a job alone at its time
    /// ranks 0. Sparse (few ties) and dense (many) give the same ranks.
    #[test]
    fn ties_rank_by_id_sparse_or_dense() {
        for (n, tied) in [(64, vec![5, 9, 40]), (8, vec![1, 2, 3, 6])] {
            let sc = scenario(n, &tied);
            let mut by_submit: Vec<JobId> = JobId::all(n).collect();
            by_submit.sort_by_key(|j| sc.jobs[j.index()].submit);
            let ranks = id_ranks(&sc, &by_submit);
            assert_eq!(ranks.dense.is_empty(), n == 64, "{n} jobs");
            let want: Vec<u32> = (0..tied.len() as u32).rev().collect();
            let got: Vec<u32> = tied.iter().map(|&i| ranks.of(JobId::new(i))).collect();
            assert_eq!(got, want, "{n} jobs");
            for i in (0..n).filter(|i| !tied.contains(i)) {
                assert_eq!(ranks.of(JobId::new(i)), 0);
            }
        }
    }
}
