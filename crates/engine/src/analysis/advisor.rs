//! Checkpoint advisor: how often should each share's jobs checkpoint, given
//! how often the simulation interrupted them?
//!
//! # The model (first-order Young/Daly)
//!
//! A job that saves a checkpoint every `T` seconds of progress, each save costing `C` seconds,
//! and that is interrupted on average once every `M` seconds (the *mean time between
//! interruptions*, MTBI), wastes two things:
//!
//! - **checkpoint overhead**: `C` seconds per `T` seconds of work, a fraction `C / T`;
//! - **lost work**: at an interruption, the progress since the last checkpoint is rolled back.
//!   Interruptions fall uniformly within an interval, so on average `T / 2` seconds are lost per
//!   interruption, one interruption per `M` seconds: a fraction `T / (2 M)`.
//!
//! The expected waste fraction is their sum, `W(T) = C / T + T / (2 M)`
//! ([`expected_waste_fraction`]). It is smallest where its derivative `-C / T² + 1 / (2 M)`
//! vanishes: `T* = sqrt(2 C M)` (Young, 1974; Daly, 2006, first order), the
//! [`young_daly_interval_s`], where both terms are equal and `W(T*) = sqrt(2 C / M)`.
//!
//! The model is first order: it ignores the restore time, interruptions during a save and
//! the changes of `M` a different interval would cause; it is a good guide while `C` is small
//! against `M` (`T*` well below `M`), and only a rough one beyond ([`ShareAdvice::rough`]).
//!
//! # From a run to an advice
//!
//! [`advise`] reads a finished run's [`Digest`]: per share, the MTBI is the time its jobs held
//! their instances divided by the number of preemptions they suffered (reclaim + in-share),
//! the configured interval and cost are the means over the share's jobs that checkpoint, and
//! every waste fraction is turned into instance-hours by multiplying it by the share's held
//! instance-hours. Nothing here simulates: it only does arithmetic on what the engine
//! reported.

use serde::{Deserialize, Serialize};

use crate::output::digest::Digest;

/// The checkpoint cost assumed for a share none of whose jobs checkpoint, in seconds (so that
/// the advisor can still say what checkpointing would buy it; flagged by
/// [`ShareAdvice::cost_assumed`]).
pub const ASSUMED_COST_S: f64 = 60.0;

/// The Young/Daly checkpoint interval `sqrt(2 × cost × MTBI)`, in seconds of progress between
/// saves: the interval that minimises [`expected_waste_fraction`].
///
/// `cost_s` is the time one save takes, `mtbi_s` the mean time between interruptions. Returns
/// `None` unless both are finite and positive (no interruption means no lost work, hence no
/// reason to checkpoint at all).
///
/// ```
/// use quotalab_engine::advisor::young_daly_interval_s;
/// // A 50 s save, an interruption every 10,000 s (2.8 h): save every 1,000 s (16.7 min).
/// assert_eq!(young_daly_interval_s(50.0, 10_000.0), Some(1_000.0));
/// ```
pub fn young_daly_interval_s(cost_s: f64, mtbi_s: f64) -> Option<f64> {
    (positive(cost_s) && positive(mtbi_s)).then(|| (2.0 * cost_s * mtbi_s).sqrt())
}

/// The expected fraction of a job's time wasted with checkpoints every `interval_s` seconds of
/// progress, each costing `cost_s`, and interruptions every `mtbi_s` on average:
/// `cost / interval + interval / (2 × mtbi)` (first-order Young/Daly model, see the module
/// documentation). The first term is the time spent saving, the second the progress lost at
/// interruptions (half an interval each, on average).
///
/// Returns `None` unless `interval_s` and `mtbi_s` are finite and positive and `cost_s` is
/// finite and non-negative. The result may exceed 1 when checkpoints or interruptions are
/// very frequent: the first-order model then only says "most of the time is wasted".
pub fn expected_waste_fraction(interval_s: f64, cost_s: f64, mtbi_s: f64) -> Option<f64> {
    (positive(interval_s) && positive(mtbi_s) && cost_s.is_finite() && cost_s >= 0.0)
        .then(|| cost_s / interval_s + interval_s / (2.0 * mtbi_s))
}

fn positive(x: f64) -> bool {
    x.is_finite() && x > 0.0
}

/// What one checkpoint interval would cost a share under the model, in instance-hours.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Seconds of progress between saves.
    pub interval_s: f64,
    /// [`expected_waste_fraction`] at this interval.
    pub waste_fraction: f64,
    /// Expected progress lost at interruptions: held × interval / (2 × MTBI).
    pub lost_h: f64,
    /// Expected time spent saving: held × cost / interval.
    pub checkpoint_h: f64,
}

impl Estimate {
    /// `lost_h + checkpoint_h`.
    pub fn waste_h(&self) -> f64 {
        self.lost_h + self.checkpoint_h
    }
}

/// The estimate for `interval_s`, given the share's held instance-hours.
pub fn estimate(interval_s: f64, cost_s: f64, mtbi_s: f64, held_h: f64) -> Option<Estimate> {
    let waste_fraction = expected_waste_fraction(interval_s, cost_s, mtbi_s)?;
    Some(Estimate {
        interval_s,
        waste_fraction,
        lost_h: held_h * interval_s / (2.0 * mtbi_s),
        checkpoint_h: held_h * cost_s / interval_s,
    })
}

/// The advice for one share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShareAdvice {
    pub share: String,
    /// Jobs of the share in the run, and how many of them checkpoint.
    pub jobs: u64,
    pub checkpointing_jobs: u64,
    /// Preemptions the share's jobs suffered (reclaim + in-share).
    pub interruptions: u64,
    /// Mean time between interruptions: seconds a job of the share held its instances per
    /// preemption (`None` without preemptions).
    pub mtbi_s: Option<f64>,
    /// Mean configured checkpoint interval over the jobs that checkpoint (`None`: no job does).
    pub configured_interval_s: Option<f64>,
    /// Mean configured checkpoint cost, or [`ASSUMED_COST_S`] when no job checkpoints.
    pub cost_s: f64,
    /// True when `cost_s` is [`ASSUMED_COST_S`] rather than the share's configuration.
    pub cost_assumed: bool,
    /// [`young_daly_interval_s`] of `cost_s` and `mtbi_s`.
    pub young_daly_s: Option<f64>,
    /// The model's estimate at the configured interval and at the Young/Daly interval.
    pub configured: Option<Estimate>,
    pub young_daly: Option<Estimate>,
    /// What the simulation measured, in instance-hours: progress lost, time spent saving, and
    /// all time held.
    pub observed_lost_h: f64,
    pub observed_checkpoint_h: f64,
    pub held_h: f64,
    /// The first-order model is only a rough guide here: the Young/Daly interval is not below
    /// the MTBI (`T* >= MTBI`, equivalently `2 × cost >= MTBI`).
    pub rough: bool,
}

/// What the advice comes to for one share ([`ShareAdvice::verdict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// Never preempted: checkpoints guard against nothing here.
    NotInterrupted,
    /// No checkpoints, and saving at the Young/Daly interval would waste less (model) than
    /// the work the share lost in the simulation.
    StartCheckpointing,
    /// No checkpoints, and checkpointing would cost more (model) than the work it lost.
    NotWorthIt,
    /// Checkpoints, yet the share lost under a quarter of the work the model expects at its
    /// interval: its jobs keep their progress when preempted (a save within the grace
    /// period), so periodic saves mostly cost time.
    ProtectedOnPreemption,
    /// The configured interval wastes at most 5% more (model) than the Young/Daly one.
    Keep,
    /// Saving more often (the Young/Daly interval is shorter) would waste less.
    Shorten,
    /// Saving less often (the Young/Daly interval is longer) would waste less.
    Lengthen,
}

impl ShareAdvice {
    /// The advice in one word (see [`Verdict`] for the thresholds).
    pub fn verdict(&self) -> Verdict {
        let Some(yd) = self.young_daly else {
            return Verdict::NotInterrupted;
        };
        let Some(conf) = self.configured else {
            return if yd.waste_h() < self.observed_lost_h {
                Verdict::StartCheckpointing
            } else {
                Verdict::NotWorthIt
            };
        };
        if self.observed_lost_h < 0.25 * conf.lost_h {
            Verdict::ProtectedOnPreemption
        } else if conf.waste_h() <= 1.05 * yd.waste_h() {
            Verdict::Keep
        } else if yd.interval_s < conf.interval_s {
            Verdict::Shorten
        } else {
            Verdict::Lengthen
        }
    }
}

/// One [`ShareAdvice`] per share of the run, in the run's share order.
pub fn advise(d: &Digest) -> Vec<ShareAdvice> {
    d.shares
        .iter()
        .enumerate()
        .map(|(i, m)| {
            // Over every job row, kept in the digest or not.
            let t = d.job_totals.get(i).cloned().unwrap_or_default();
            let (jobs, held_s) = (t.jobs, t.held_s);
            let ck = (t.checkpointing, t.interval_sum_s, t.cost_sum_s);
            let interruptions = m.reclaim + m.in_share;
            let mtbi_s = (interruptions > 0 && held_s > 0.0).then(|| held_s / interruptions as f64);
            let (checkpointing_jobs, configured_interval_s, cost_s, cost_assumed) = if ck.0 > 0 {
                let n = ck.0 as f64;
                (ck.0, Some(ck.1 / n), ck.2 / n, false)
            } else {
                (0, None, ASSUMED_COST_S, true)
            };
            let young_daly_s = mtbi_s.and_then(|mtbi| young_daly_interval_s(cost_s, mtbi));
            let at = |iv: Option<f64>| {
                iv.zip(mtbi_s)
                    .and_then(|(iv, mtbi)| estimate(iv, cost_s, mtbi, m.held_h))
            };
            ShareAdvice {
                share: m.name.clone(),
                jobs,
                checkpointing_jobs,
                interruptions,
                mtbi_s,
                configured_interval_s,
                cost_s,
                cost_assumed,
                young_daly_s,
                configured: at(configured_interval_s),
                young_daly: at(young_daly_s),
                observed_lost_h: m.lost_h,
                observed_checkpoint_h: m.checkpoint_h,
                held_h: m.held_h,
                rough: young_daly_s.zip(mtbi_s).is_some_and(|(t, mtbi)| t >= mtbi),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::digest::{digest, DigestLimits};
    use crate::{input::validate::load, simulate, simulation::Options};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    // sqrt(2 × 50 × 10,000) = sqrt(1,000,000) = 1,000 exactly.
    #[test]
    fn young_daly_by_hand() {
        assert_eq!(young_daly_interval_s(50.0, 10_000.0), Some(1_000.0));
        // sqrt(2 × 8 × 16) = 16.
        assert_eq!(young_daly_interval_s(8.0, 16.0), Some(16.0));
        // sqrt(2 × 60 × 3,000) = sqrt(360,000) = 600.
        assert_eq!(young_daly_interval_s(60.0, 3_000.0), Some(600.0));
    }

    #[test]
    fn young_daly_needs_a_cost_and_interruptions() {
        assert_eq!(young_daly_interval_s(0.0, 10_000.0), None);
        assert_eq!(young_daly_interval_s(60.0, 0.0), None);
        assert_eq!(young_daly_interval_s(-1.0, 10.0), None);
        assert_eq!(young_daly_interval_s(60.0, f64::INFINITY), None);
        assert_eq!(young_daly_interval_s(f64::NAN, 10.0), None);
    }

    // C = 50, M = 10,000: W(1,000) = 50/1,000 + 1,000/20,000 = 0.05 + 0.05 = 0.1;
    // W(500) = 0.1 + 0.025 = 0.125; W(2,000) = 0.025 + 0.1 = 0.125.
    #[test]
    fn waste_fraction_by_hand() {
        assert!(close(
            expected_waste_fraction(1_000.0, 50.0, 10_000.0).unwrap(),
            0.1
        ));
        assert!(close(
            expected_waste_fraction(500.0, 50.0, 10_000.0).unwrap(),
            0.125
        ));
        assert!(close(
            expected_waste_fraction(2_000.0, 50.0, 10_000.0).unwrap(),
            0.125
        ));
        // A free checkpoint only loses half an interval per interruption: 600 / 7,200.
        assert!(close(
            expected_waste_fraction(600.0, 0.0, 3_600.0).unwrap(),
            1.0 / 12.0
        ));
        assert_eq!(expected_waste_fraction(0.0, 50.0, 10_000.0), None);
        assert_eq!(expected_waste_fraction(100.0, -1.0, 10_000.0), None);
        assert_eq!(expected_waste_fraction(100.0, 50.0, 0.0), None);
    }

    // The Young/Daly interval is the minimum of the waste, where it equals sqrt(2 C / M).
    #[test]
    fn young_daly_minimises_the_waste() {
        for &(c, m) in &[(50.0, 10_000.0), (60.0, 3_600.0), (5.0, 86_400.0)] {
            let t = young_daly_interval_s(c, m).unwrap();
            let w = expected_waste_fraction(t, c, m).unwrap();
            assert!(close(w, (2.0 * c / m).sqrt()), "{c} {m}: {w}");
            for k in [0.5, 0.9, 1.1, 2.0] {
                assert!(expected_waste_fraction(t * k, c, m).unwrap() > w);
            }
        }
    }

    // Held 10 instance-hours, C = 50, M = 10,000, T = 500: lost 10 × 500 / 20,000 = 0.25 h,
    // checkpoint 10 × 50 / 500 = 1 h.
    #[test]
    fn estimate_in_instance_hours() {
        let e = estimate(500.0, 50.0, 10_000.0, 10.0).unwrap();
        assert!(close(e.lost_h, 0.25));
        assert!(close(e.checkpoint_h, 1.0));
        assert!(close(e.waste_h(), 1.25));
        assert!(close(e.waste_fraction * 10.0, e.waste_h()));
    }

    fn advice(configured: Option<f64>, lost: f64) -> ShareAdvice {
        // C = 50, M = 10,000, held 10 h: Young/Daly 1,000 s, waste 1 h (0.5 lost + 0.5 saving).
        ShareAdvice {
            share: "s".into(),
            jobs: 1,
            checkpointing_jobs: u64::from(configured.is_some()),
            interruptions: 1,
            mtbi_s: Some(10_000.0),
            configured_interval_s: configured,
            cost_s: 50.0,
            cost_assumed: configured.is_none(),
            young_daly_s: Some(1_000.0),
            configured: configured.and_then(|t| estimate(t, 50.0, 10_000.0, 10.0)),
            young_daly: estimate(1_000.0, 50.0, 10_000.0, 10.0),
            observed_lost_h: lost,
            observed_checkpoint_h: 0.0,
            held_h: 10.0,
            rough: false,
        }
    }

    #[test]
    fn verdicts() {
        // No checkpoints: worth it when the 1 h of model waste is below the lost work.
        assert_eq!(advice(None, 2.0).verdict(), Verdict::StartCheckpointing);
        assert_eq!(advice(None, 0.5).verdict(), Verdict::NotWorthIt);
        // T = 1,000 is optimal; T = 1,050 wastes 0.476 + 0.525 = 1.001 h (< 5% more).
        assert_eq!(advice(Some(1_000.0), 0.5).verdict(), Verdict::Keep);
        assert_eq!(advice(Some(1_050.0), 0.5).verdict(), Verdict::Keep);
        // T = 4,000: 0.125 + 2 h; T = 250: 2 + 0.125 h. Lost work as the model expects.
        assert_eq!(advice(Some(4_000.0), 2.0).verdict(), Verdict::Shorten);
        assert_eq!(advice(Some(250.0), 0.125).verdict(), Verdict::Lengthen);
        // T = 4,000 expects 2 h lost; 0.4 h lost is under a quarter: saved on preemption.
        assert_eq!(
            advice(Some(4_000.0), 0.4).verdict(),
            Verdict::ProtectedOnPreemption
        );
        let mut quiet = advice(None, 0.0);
        quiet.young_daly = None;
        assert_eq!(quiet.verdict(), Verdict::NotInterrupted);
    }

    const SCENARIO: &str = r#"{
      "format": "quotalab/v1", "name": "advisor", "seed": 1,
      "capacity": {"ml.g5.xlarge": 2},
      "queue": {"preemption_grace_s": 0},
      "shares": [
        {"name": "research", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND_AND_BORROW"},
        {"name": "prod", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND"},
        {"name": "idle", "limits": {"ml.g5.xlarge": 0}, "strategy": "RESERVE"}
      ],
      "jobs": [
        {"id": "r1", "share": "research", "instance_type": "ml.g5.xlarge", "submit_s": 0,
         "work_s": 7200, "checkpoint": {"interval_s": 600, "cost_s": 50, "restore_s": 0}},
        {"id": "r2", "share": "research", "instance_type": "ml.g5.xlarge", "submit_s": 0,
         "work_s": 7200, "checkpoint": {"interval_s": 1000, "cost_s": 50, "restore_s": 0}},
        {"id": "p1", "share": "prod", "instance_type": "ml.g5.xlarge", "submit_s": 1000,
         "work_s": 100}
      ]
    }"#;

    // r1 and r2 start at 0 on the two instances (r2 borrowing prod's idle one). At t = 1000
    // p1 reclaims r2 (most recently admitted): one interruption.
    #[test]
    fn advise_a_run() {
        let loaded = load(SCENARIO).unwrap();
        let sim = simulate(&loaded.scenario, Options::default());
        let d = digest(&sim, DigestLimits::default());
        let a = advise(&d);
        assert_eq!(
            a.iter().map(|x| x.share.as_str()).collect::<Vec<_>>(),
            ["research", "prod", "idle"]
        );
        let r = &a[0];
        assert_eq!((r.jobs, r.checkpointing_jobs, r.interruptions), (2, 2, 1));
        assert_eq!(r.configured_interval_s, Some(800.0));
        assert_eq!((r.cost_s, r.cost_assumed), (50.0, false));
        let held_s: f64 = d
            .jobs
            .iter()
            .filter(|j| j.share == 0)
            .map(|j| j.held_s)
            .sum();
        assert_eq!(r.mtbi_s, Some(held_s));
        // Single-instance jobs: the MTBI is the digest's hours per interruption.
        assert!(close(
            r.mtbi_s.unwrap(),
            d.shares[0].hours_per_interruption.unwrap() * 3600.0
        ));
        assert_eq!(r.young_daly_s, young_daly_interval_s(50.0, held_s));
        let yd = r.young_daly.unwrap();
        let conf = r.configured.unwrap();
        assert!(close(
            conf.waste_fraction,
            50.0 / 800.0 + 800.0 / (2.0 * held_s)
        ));
        assert!(yd.waste_fraction <= conf.waste_fraction);
        assert!(close(yd.waste_h(), r.held_h * yd.waste_fraction));
        assert!(!r.rough);

        // prod: never interrupted, never checkpoints: nothing to advise.
        let p = &a[1];
        assert_eq!((p.interruptions, p.checkpointing_jobs), (0, 0));
        assert_eq!(
            (p.mtbi_s, p.young_daly_s, p.configured_interval_s),
            (None, None, None)
        );
        assert_eq!((p.cost_s, p.cost_assumed), (ASSUMED_COST_S, true));
        assert!(p.configured.is_none() && p.young_daly.is_none());
        assert_eq!(a[2].jobs, 0);
    }

    // A share that never checkpoints gets an advice for the assumed cost.
    #[test]
    fn assumed_cost_without_checkpoints() {
        let text = SCENARIO.replace(
            r#", "checkpoint": {"interval_s": 1000, "cost_s": 50, "restore_s": 0}"#,
            "",
        );
        let text = text.replace(
            r#", "checkpoint": {"interval_s": 600, "cost_s": 50, "restore_s": 0}"#,
            "",
        );
        let loaded = load(&text).unwrap();
        let sim = simulate(&loaded.scenario, Options::default());
        let a = advise(&digest(&sim, DigestLimits::default()));
        let r = &a[0];
        assert!(r.cost_assumed);
        assert_eq!(r.configured_interval_s, None);
        assert!(r.configured.is_none());
        assert_eq!(
            r.young_daly_s,
            young_daly_interval_s(ASSUMED_COST_S, r.mtbi_s.unwrap())
        );
        assert!(r.observed_lost_h > 0.0, "r2 lost its progress");
    }
}
