//! The import's warnings (SPEC 11): a share that has jobs but a limit of 0 instances, and a
//! capacity under the trace's peak concurrent demand. Pure data, computed from the planned
//! scenario with one sweep over the (compact) jobs; their definitions are in the module
//! documentation's choices.

use super::*;
use crate::input::digits::group_digits;

/// Something about a successful import that the user should know (SPEC 11). The scenario is
/// still produced; [`ImportWarning::message`] says it in words.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ImportWarning {
    /// A share that has jobs but whose limit comes out as 0 instances.
    ZeroLimit {
        share: String,
        jobs: u64,
        /// Its peak concurrent demand in GPUs: the most GPUs its jobs ask for at once if
        /// every job started on submit (rounded up).
        peak_gpus: u64,
        /// Its total demand: GPUs x run time of its jobs, in GPU-hours (rounded).
        gpu_hours: u64,
        /// Whether it may borrow (`LEND_AND_BORROW` with an unlimited borrow limit); if not,
        /// its jobs never start.
        borrows: bool,
        /// How the limits were set.
        limits: LimitsMode,
        /// How many shares the scenario has.
        shares: u64,
    },
    /// The capacity is under the trace's peak concurrent demand.
    CapacityUnderPeak {
        /// The scenario's capacity, in instances.
        capacity: u64,
        /// Whether that is the default capacity (the average load), not `--capacity`.
        default: bool,
        /// The most instances that jobs hold at once if every job started on submit.
        peak_instances: u64,
        /// The GPUs those jobs ask for (rounded up).
        peak_gpus: u64,
        /// When that peak is first reached, in milliseconds after the first submit.
        at_ms: i64,
    },
}

impl ImportWarning {
    /// The warning in words. `option` names an import option, given as its flag and
    /// possibly a value (`--capacity`, `--limits equal`), in the caller's words: the command
    /// line keeps the flag, the page says its form's field. `Display` keeps the flags.
    pub fn message(&self, option: &dyn Fn(&str) -> String) -> String {
        match self {
            ImportWarning::ZeroLimit {
                share,
                jobs,
                peak_gpus,
                gpu_hours,
                borrows,
                limits,
                shares,
            } => {
                let runs = if *borrows {
                    "its jobs can only run on capacity that other shares lend"
                } else {
                    "its jobs will never start, since its strategy and borrow limit let a \
                     share with limit 0 borrow nothing"
                };
                let fix = match limits {
                    LimitsMode::Proportional => format!(
                        "raise {} or use {}",
                        option("--capacity"),
                        option("--limits equal")
                    ),
                    LimitsMode::Equal => format!(
                        "raise {} to at least {} (one instance per share) or fold small shares \
                         into other with {}",
                        option("--capacity"),
                        group_digits(*shares),
                        option("--top-shares")
                    ),
                };
                format!(
                    "share \"{share}\" has {} (up to {} at once, {} in all) but its limit comes \
                     out as 0 instances: {runs}; {fix}",
                    count(*jobs, "job"),
                    count(*peak_gpus, "GPU"),
                    count(*gpu_hours, "GPU-hour"),
                )
            }
            ImportWarning::CapacityUnderPeak {
                capacity,
                default,
                peak_instances,
                peak_gpus,
                at_ms,
            } => {
                let (what, intent) = if *default {
                    (
                        format!(
                            "the default capacity, {} (the trace's average load),",
                            count(*capacity, "instance")
                        ),
                        ", as the default intends",
                    )
                } else {
                    (
                        format!("the capacity, {},", count(*capacity, "instance")),
                        "",
                    )
                };
                format!(
                    "{what} is under the trace's peak concurrent demand of {} ({}, {} into the \
                     trace, if every job started on submit): jobs will queue at peaks{intent}; \
                     a capacity of {} would cover the peak",
                    count(*peak_instances, "instance"),
                    count(*peak_gpus, "GPU"),
                    elapsed(*at_ms),
                    count(*peak_instances, "instance"),
                )
            }
        }
    }
}

impl std::fmt::Display for ImportWarning {
    /// The message with the command line's flags.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(&|o| o.to_string()))
    }
}

/// The warnings of a planned scenario: a [`ImportWarning::ZeroLimit`] per share with jobs
/// and limit 0 (in the shares' order), then a [`ImportWarning::CapacityUnderPeak`] if the
/// capacity is under the peak.
pub(super) fn warnings(plan: &Plan, opts: &ImportOptions) -> Vec<ImportWarning> {
    let peaks = sweep(plan);
    let borrows = opts.strategy == "LEND_AND_BORROW" && opts.borrow_limit.unwrap_or(-1) == -1;
    let mut out = Vec::new();
    for (i, share) in plan.shares.iter().enumerate() {
        if share.jobs > 0 && plan.limits.get(i) == Some(&0) {
            out.push(ImportWarning::ZeroLimit {
                share: share.name.clone(),
                jobs: share.jobs,
                peak_gpus: whole_gpus(peaks.share_peak[i]),
                // A GPU-hour is 1,000 thousandths x 3,600,000 ms; rounded to nearest.
                gpu_hours: u64::try_from(
                    peaks.share_work[i].saturating_add(1_800_000_000) / 3_600_000_000,
                )
                .unwrap_or(u64::MAX),
                borrows,
                limits: opts.limits,
                shares: plan.shares.len() as u64,
            });
        }
    }
    if plan.capacity < peaks.instances {
        out.push(ImportWarning::CapacityUnderPeak {
            capacity: plan.capacity,
            default: opts.capacity.is_none(),
            peak_instances: peaks.instances,
            peak_gpus: whole_gpus(peaks.milli_gpus),
            at_ms: peaks.at_ms,
        });
    }
    out
}

/// The peak concurrent demand if every job started on submit.
struct Peaks {
    /// The most instances held at once, the thousandths of GPUs asked for then, and when
    /// that was first reached (after the first submit).
    instances: u64,
    milli_gpus: u64,
    at_ms: i64,
    /// Per share: the most thousandths of GPUs its jobs ask for at once.
    share_peak: Vec<u64>,
    /// Per share: thousandths of GPUs x milliseconds of run time.
    share_work: Vec<u128>,
}

/// One sweep over the jobs' starts (their submits: the jobs are sorted by submit) and ends
/// (sorted here), ends before starts at the same instant: O(n log n), one index per job.
fn sweep(plan: &Plan) -> Peaks {
    let jobs = &plan.jobs;
    let n = plan.shares.len();
    let end = |j: &Row| j.submit_ms.saturating_add(j.work_ms);
    let mut ends: Vec<usize> = (0..jobs.len()).collect();
    crate::sort::compact_by_i64(&mut ends, &|&i| end(&jobs[i]));
    let mut ends = ends.into_iter().peekable();
    let mut peaks = Peaks {
        instances: 0,
        milli_gpus: 0,
        at_ms: 0,
        share_peak: vec![0; n],
        share_work: vec![0; n],
    };
    let (mut instances, mut milli_gpus) = (0u64, 0u64);
    let mut share_now: Vec<u64> = vec![0; n];
    for job in jobs {
        // A job ends after its submit (work > 0), so every job ended here has started.
        while let Some(done) = ends.next_if(|&i| end(&jobs[i]) <= job.submit_ms) {
            let done = &jobs[done];
            instances = instances.saturating_sub(u64::from(done.instances));
            milli_gpus = milli_gpus.saturating_sub(u64::from(done.milli_gpus));
            if let Some(now) = share_now.get_mut(done.share as usize) {
                *now = now.saturating_sub(u64::from(done.milli_gpus));
            }
        }
        instances += u64::from(job.instances);
        milli_gpus += u64::from(job.milli_gpus);
        let s = job.share as usize;
        if let (Some(now), Some(peak), Some(work)) = (
            share_now.get_mut(s),
            peaks.share_peak.get_mut(s),
            peaks.share_work.get_mut(s),
        ) {
            *now += u64::from(job.milli_gpus);
            *peak = (*peak).max(*now);
            *work = work.saturating_add(u128::from(job.milli_gpus) * job.work_ms.max(0) as u128);
        }
        if instances > peaks.instances {
            peaks.instances = instances;
            peaks.milli_gpus = milli_gpus;
            peaks.at_ms = job.submit_ms - plan.start;
        }
    }
    peaks
}

/// Thousandths of GPUs as whole GPUs, rounded up.
fn whole_gpus(milli: u64) -> u64 {
    milli.div_ceil(1000)
}

/// `n` things: `1 job`, `1,234 jobs`.
fn count(n: u64, one: &str) -> String {
    format!("{} {one}{}", group_digits(n), if n == 1 { "" } else { "s" })
}

/// A time after the trace's first submit: `45 s` under an hour, else `342.1 h`.
fn elapsed(ms: i64) -> String {
    if ms < 3_600_000 {
        format!("{} s", group_digits((ms.max(0) / 1000) as u64))
    } else {
        format!("{:.1} h", ms as f64 / 3_600_000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `small` (2 jobs of 2 GPUs, 1 h each, overlapping from 1,800 s) and `big` (1 job of
    /// 8 GPUs for 10 h), on 8-GPU instances: every job is 1 instance.
    const TWO_TEAMS: &str = "submit,duration,gpus,team\n\
                             0,36000,8,big\n\
                             0,3600,2,small\n\
                             1800,3600,2,small\n";

    fn opts(capacity: Option<u64>) -> ImportOptions {
        ImportOptions {
            submit: "submit".into(),
            duration: Some("duration".into()),
            gpus: Some("gpus".into()),
            share: Some("team".into()),
            instance_type: "ml.p4d.24xlarge".into(),
            gpus_per_instance: 8,
            capacity,
            ..ImportOptions::default()
        }
    }

    fn warned(csv: &str, o: &ImportOptions) -> Vec<ImportWarning> {
        let report = match check(csv.as_bytes(), o) {
            Ok(r) => r,
            Err(p) => panic!("import failed: {p}"),
        };
        // `import` reports the same.
        assert_eq!(import(csv.as_bytes(), o).unwrap().1, report);
        report.warnings
    }

    #[test]
    fn a_share_with_jobs_and_limit_0_is_warned_with_its_demand() {
        // Demand (instance-seconds) 7,200 and 36,000: with 2 instances, small gets 0.33 and
        // big 1.67, so by largest remainder small 0 and big 2.
        let w = warned(TWO_TEAMS, &opts(Some(2)));
        assert_eq!(
            w,
            [
                ImportWarning::ZeroLimit {
                    share: "small".into(),
                    jobs: 2,
                    peak_gpus: 4,
                    gpu_hours: 4,
                    borrows: true,
                    limits: LimitsMode::Proportional,
                    shares: 2,
                },
                ImportWarning::CapacityUnderPeak {
                    capacity: 2,
                    default: false,
                    peak_instances: 3,
                    peak_gpus: 12,
                    at_ms: 1_800_000,
                },
            ]
        );
        assert_eq!(
            w[0].to_string(),
            "share \"small\" has 2 jobs (up to 4 GPUs at once, 4 GPU-hours in all) but its \
             limit comes out as 0 instances: its jobs can only run on capacity that other shares \
             lend; raise --capacity or use --limits equal"
        );
        assert_eq!(
            w[1].to_string(),
            "the capacity, 2 instances, is under the trace's peak concurrent demand of 3 \
             instances (12 GPUs, 1,800 s into the trace, if every job started on submit): jobs \
             will queue at peaks; a capacity of 3 instances would cover the peak"
        );
        // The page names its fields instead of the flags.
        let page = w[0].message(&|o| match o {
            "--capacity" => "Capacity".into(),
            "--limits equal" => "Limits \"equal\"".into(),
            other => other.into(),
        });
        assert!(
            page.ends_with("; raise Capacity or use Limits \"equal\""),
            "{page}"
        );
    }

    #[test]
    fn nothing_is_warned_when_everything_fits() {
        // 3 instances: small 0.5 and big 2.5, the tie to small (listed first): 1 and 2.
        assert_eq!(warned(TWO_TEAMS, &opts(Some(3))), []);
        assert_eq!(warned(TWO_TEAMS, &opts(Some(1_000))), []);
        let equal = ImportOptions {
            limits: LimitsMode::Equal,
            ..opts(Some(3))
        };
        assert_eq!(warned(TWO_TEAMS, &equal), []);
    }

    #[test]
    fn the_peak_counts_ends_before_starts_at_the_same_instant() {
        let o = ImportOptions {
            gpus: None,
            share: None,
            instance_type: ImportOptions::DEFAULT_INSTANCE_TYPE.into(),
            gpus_per_instance: 1,
            capacity: Some(1),
            ..opts(None)
        };
        // One job ends at 10 s as the next is submitted: never 2 at once.
        assert_eq!(warned("submit,duration\n0,10\n10,10\n20,5\n", &o), []);
        // Overlapping by 1 s: 2 at once, first at 9 s.
        assert_eq!(
            warned("submit,duration\n0,10\n9,10\n", &o),
            [ImportWarning::CapacityUnderPeak {
                capacity: 1,
                default: false,
                peak_instances: 2,
                peak_gpus: 2,
                at_ms: 9_000,
            }]
        );
        // Fractions of a GPU are summed, then rounded up; times count from the first submit.
        let halves = ImportOptions {
            gpus: Some("gpus".into()),
            ..o
        };
        assert_eq!(
            warned("submit,duration,gpus\n100,10,0.5\n105,10,0.75\n", &halves),
            [ImportWarning::CapacityUnderPeak {
                capacity: 1,
                default: false,
                peak_instances: 2,
                peak_gpus: 2,
                at_ms: 5_000,
            }]
        );
    }

    #[test]
    fn the_default_capacity_under_the_peak_is_warned_as_intended() {
        // Demand 30 instance-seconds over 110 s: the default is 1 instance; the peak is 2.
        let o = ImportOptions {
            gpus: None,
            share: None,
            instance_type: ImportOptions::DEFAULT_INSTANCE_TYPE.into(),
            gpus_per_instance: 1,
            ..opts(None)
        };
        let w = warned("submit,duration\n0,10\n0,10\n7300,10\n", &o);
        assert_eq!(
            w,
            [ImportWarning::CapacityUnderPeak {
                capacity: 1,
                default: true,
                peak_instances: 2,
                peak_gpus: 2,
                at_ms: 0,
            }]
        );
        assert_eq!(
            w[0].to_string(),
            "the default capacity, 1 instance (the trace's average load), is under the trace's \
             peak concurrent demand of 2 instances (2 GPUs, 0 s into the trace, if every job \
             started on submit): jobs will queue at peaks, as the default intends; a capacity of \
             2 instances would cover the peak"
        );
        assert_eq!(elapsed(7_300_000), "2.0 h");
        assert_eq!(elapsed(1_234_567_890), "342.9 h");
    }

    #[test]
    fn a_share_that_cannot_borrow_never_starts() {
        for o in [
            ImportOptions {
                strategy: "RESERVE".into(),
                ..opts(Some(3))
            },
            ImportOptions {
                borrow_limit: Some(500),
                ..opts(Some(3))
            },
        ] {
            // 3 instances with limits 1 and 2 do fit; make small's limit 0 with equal
            // limits on 1 instance (the remainder to big, first in name order).
            let o = ImportOptions {
                limits: LimitsMode::Equal,
                capacity: Some(1),
                ..o
            };
            let w = warned(TWO_TEAMS, &o);
            assert_eq!(w.len(), 2, "{w:?}");
            let text = w[0].to_string();
            assert!(text.starts_with("share \"small\" has 2 jobs"), "{text}");
            assert!(
                text.contains(
                    "its jobs will never start, since its strategy and borrow limit let a share \
                     with limit 0 borrow nothing; raise --capacity to at least 2 (one instance \
                     per share) or fold small shares into other with --top-shares"
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn a_job_stays_compact() {
        assert!(std::mem::size_of::<Row>() <= 32);
    }
}
