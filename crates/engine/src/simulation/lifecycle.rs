//! A job's life and its costs, in closed form (SPEC 6).
//!
//! A run is computed per transition, never per checkpoint: a RUNNING job that resumed from
//! progress `base` works `interval` of progress, pauses `cost` to save, and so on, with no
//! save at completion. So the cost of a job is O(its preemptions), not O(its work).

use crate::input::model::{Checkpoint, Ms};

/// SPEC 6 "Startup": `startup_s`, then `restore_s` if the job resumes from a checkpoint with
/// progress above 0. Both count as `startup`; the job is STARTING throughout.
pub fn startup_length(startup: Ms, checkpoint: Option<Checkpoint>, saved: Ms) -> Ms {
    match checkpoint {
        Some(c) if saved > 0 => startup + c.restore,
        _ => startup,
    }
}

/// Where a RUNNING job stands `elapsed` ms after it started running from progress `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunPoint {
    /// Progress reached (work done, saved or not).
    pub progress: Ms,
    /// Progress covered by the last completed checkpoint (or `base`).
    pub saved: Ms,
    /// Time spent saving checkpoints in this run, including a save in progress.
    pub checkpoint_time: Ms,
}

/// SPEC 6 "Work": the state of a run after `elapsed` ms (clamped to the run's length).
pub fn run_point(base: Ms, work: Ms, checkpoint: Option<Checkpoint>, elapsed: Ms) -> RunPoint {
    let remaining = work - base;
    let Some(c) = checkpoint else {
        let p = base + elapsed.min(remaining);
        return RunPoint {
            progress: p,
            saved: base,
            checkpoint_time: 0,
        };
    };
    let saves = saves_in_run(remaining, c.interval);
    let cycle = c.interval + c.cost;
    let full = (elapsed / cycle).min(saves);
    let rest = elapsed - full * cycle;
    let saved = base + full * c.interval;
    if full == saves {
        // After the last save: working towards completion.
        let p = (saved + rest).min(work);
        return RunPoint {
            progress: p,
            saved,
            checkpoint_time: full * c.cost,
        };
    }
    if rest < c.interval {
        RunPoint {
            progress: saved + rest,
            saved,
            checkpoint_time: full * c.cost,
        }
    } else {
        // Saving checkpoint number full+1: its progress is reached but not yet kept.
        RunPoint {
            progress: saved + c.interval,
            saved,
            checkpoint_time: full * c.cost + (rest - c.interval),
        }
    }
}

/// SPEC 6: a save every `interval` of progress counted from the resume point, none at
/// completion: `ceil(remaining / interval) - 1` saves.
pub fn saves_in_run(remaining: Ms, interval: Ms) -> Ms {
    if remaining <= 0 {
        0
    } else {
        (remaining + interval - 1) / interval - 1
    }
}

/// SPEC 6: how long a run from `base` to `work` takes, checkpoints included.
pub fn run_length(base: Ms, work: Ms, checkpoint: Option<Checkpoint>) -> Ms {
    let remaining = work - base;
    match checkpoint {
        None => remaining,
        Some(c) => remaining + saves_in_run(remaining, c.interval) * c.cost,
    }
}

/// SPEC 5: does a preempted RUNNING victim save a checkpoint during its grace period?
/// Only with progress beyond its last checkpoint, `checkpoint_on_preempt`, and a checkpoint
/// block whose `cost_s` fits in the grace period.
pub fn saves_on_sigterm(
    point: &RunPoint,
    on_preempt: bool,
    checkpoint: Option<Checkpoint>,
    grace: Ms,
) -> bool {
    match checkpoint {
        Some(c) => on_preempt && point.progress > point.saved && c.cost <= grace,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C: Checkpoint = Checkpoint {
        interval: 100,
        cost: 10,
        restore: 7,
    };

    #[test]
    fn no_checkpoint_runs_straight() {
        assert_eq!(run_length(0, 300, None), 300);
        assert_eq!(
            run_point(0, 300, None, 120),
            RunPoint {
                progress: 120,
                saved: 0,
                checkpoint_time: 0
            }
        );
    }

    // SPEC 6: a save every interval of progress, none at completion.
    #[test]
    fn saves_and_length() {
        assert_eq!(saves_in_run(300, 100), 2); // at 100 and 200, not at 300
        assert_eq!(saves_in_run(301, 100), 3);
        assert_eq!(saves_in_run(50, 100), 0);
        assert_eq!(run_length(0, 300, Some(C)), 320);
        assert_eq!(run_length(200, 300, Some(C)), 100);
    }

    #[test]
    fn run_point_phases() {
        // Working before the first save.
        assert_eq!(
            run_point(0, 300, Some(C), 50),
            RunPoint {
                progress: 50,
                saved: 0,
                checkpoint_time: 0
            }
        );
        // Mid-save of the first checkpoint: progress 100 reached, not kept.
        assert_eq!(
            run_point(0, 300, Some(C), 105),
            RunPoint {
                progress: 100,
                saved: 0,
                checkpoint_time: 5
            }
        );
        // After the first save.
        assert_eq!(
            run_point(0, 300, Some(C), 110),
            RunPoint {
                progress: 100,
                saved: 100,
                checkpoint_time: 10
            }
        );
        // After the last save, working to the end.
        assert_eq!(
            run_point(0, 300, Some(C), 250),
            RunPoint {
                progress: 230,
                saved: 200,
                checkpoint_time: 20
            }
        );
        assert_eq!(
            run_point(0, 300, Some(C), 320),
            RunPoint {
                progress: 300,
                saved: 200,
                checkpoint_time: 20
            }
        );
    }

    #[test]
    fn restore_only_when_resuming_from_progress() {
        assert_eq!(startup_length(5, Some(C), 0), 5);
        assert_eq!(startup_length(5, Some(C), 100), 12);
        assert_eq!(startup_length(5, None, 100), 5);
    }

    // Instance time adds up: progress + checkpoint time == elapsed, at every instant.
    #[test]
    fn elapsed_splits_exactly() {
        for base in [0, 37, 100] {
            let len = run_length(base, 1000, Some(C));
            for e in 0..=len {
                let p = run_point(base, 1000, Some(C), e);
                assert_eq!(
                    p.progress - base + p.checkpoint_time,
                    e,
                    "base {base} elapsed {e}"
                );
                assert!(p.saved <= p.progress);
            }
        }
    }
}
