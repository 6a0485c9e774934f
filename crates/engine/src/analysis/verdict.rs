//! SPEC 9.1 "a verdict a person can act on": what one policy changes against another, per
//! share, worded once here for the page's comparison, `quotasim compare --summary` and the
//! report.
//!
//! Rules (each one function below):
//! - [`delta`]: a difference under [`FEW_PERCENT`] of the base (or under the metric's floor:
//!   a minute, one job, two points of goodput, a twentieth of an instance-hour, a dollar) is
//!   "about the same". [`delta_of`] judges two runs of a share as every table and verdict
//!   does: a p50 wait against the p50 completion too, an interruption cost against the
//!   instance-hours the share held ([`Within`]).
//! - Completion percentiles are compared over the `matched` jobs only (SPEC 9.1 "like with
//!   like"), and the verdict says so when they are under 90% of the jobs that succeeded.
//! - [`share_verdict`]: the changes that are not "about the same", largest first (by their
//!   size relative to the base), each in one unit; runs that are the same throughout read
//!   [`NO_DIFFERENCE`].

use crate::analysis::matched::Matched;
use crate::input::digits::group_digits;
use crate::input::variant::Policy;
use crate::output::digest::ShareMetrics;
use crate::output::numbers::{self, more, DurationUnit};

/// What "about the same" means, in words for the page's and the report's notes: the relative
/// [`FEW_PERCENT`] and each metric's floor ([`Metric`]'s least difference that counts).
pub const ABOUT_THE_SAME: &str =
    "under 5%, or under a minute, one job, 0.05 instance-hours, 2 points of goodput or $1; \
     a p50 wait under 5% of the p50 completion; interruption under 1% of the instance-hours held";

/// Below this relative difference a metric is "about the same" (SPEC 9.1: "a change under a
/// few percent").
pub const FEW_PERCENT: f64 = 0.05;

/// An interruption cost that changes by less than this part of the instance-hours the share
/// held is "about the same" ([`delta_within`]): a share that loses under 1% of its time to
/// interruptions in either run has not been hurt by them (half the goodput floor: the
/// goodput and the cost rows judge the rest of that time on their own).
pub const INTERRUPTION_OF_HELD: f64 = 0.01;

/// The verdict when two runs are the same, every share and every job (SPEC 9.1).
pub const NO_DIFFERENCE: &str = "no difference: nobody lends or borrows";

/// Whether a smaller or a larger value of a metric is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    Lower,
    Higher,
}

/// A metric compared between policies, per share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Jobs that succeeded by the end of the run.
    Succeeded,
    /// Over the matched jobs (SPEC 9.1).
    CompletionP50,
    CompletionP90,
    WaitP50,
    /// Jobs that did not succeed by their deadline.
    DeadlineMisses,
    /// lost + startup + checkpoint + grace instance-hours.
    InterruptionCost,
    Goodput,
    /// Held instance-hours × price (`cost_usd`).
    Cost,
}

impl Metric {
    /// Every compared metric, in the order the tables list them.
    pub const ALL: [Metric; 8] = [
        Metric::Succeeded,
        Metric::CompletionP50,
        Metric::CompletionP90,
        Metric::WaitP50,
        Metric::DeadlineMisses,
        Metric::InterruptionCost,
        Metric::Goodput,
        Metric::Cost,
    ];

    /// A stable key (`completion-p50`, ..., `cost`).
    pub fn key(self) -> &'static str {
        match self {
            Metric::Succeeded => "succeeded",
            Metric::CompletionP50 => "completion-p50",
            Metric::CompletionP90 => "completion-p90",
            Metric::WaitP50 => "wait-p50",
            Metric::DeadlineMisses => "deadline-misses",
            Metric::InterruptionCost => "interruption-cost",
            Metric::Goodput => "goodput",
            Metric::Cost => "cost",
        }
    }

    /// The metric as a table's row label ("Completion p50 (matched jobs)"): the page's
    /// comparison and the report's alike.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Succeeded => "Jobs succeeded",
            Metric::CompletionP50 => "Completion p50 (matched jobs)",
            Metric::CompletionP90 => "Completion p90 (matched jobs)",
            Metric::WaitP50 => "Wait p50",
            Metric::DeadlineMisses => "Deadline misses",
            Metric::InterruptionCost => "Interruption (instance-hours)",
            Metric::Goodput => "Goodput",
            Metric::Cost => "Cost of held instances",
        }
    }

    /// The metric inside a sentence ("p50 completion").
    pub fn phrase(self) -> &'static str {
        match self {
            Metric::Succeeded => "jobs succeeded",
            Metric::CompletionP50 => "p50 completion",
            Metric::CompletionP90 => "p90 completion",
            Metric::WaitP50 => "p50 wait",
            Metric::DeadlineMisses => "deadline misses",
            Metric::InterruptionCost => "interruption instance-hours",
            Metric::Goodput => "goodput",
            Metric::Cost => "cost",
        }
    }

    pub fn better(self) -> Better {
        match self {
            Metric::Goodput | Metric::Succeeded => Better::Higher,
            _ => Better::Lower,
        }
    }

    /// The value for one share, completion percentiles excepted (`None` where undefined:
    /// no job started, nothing held); completion comes from `matched` ([`value_of`]).
    pub fn value(self, m: &ShareMetrics) -> Option<f64> {
        match self {
            Metric::Succeeded => Some(m.succeeded as f64),
            Metric::CompletionP50 => (m.completion_s.n > 0).then_some(m.completion_s.p50),
            Metric::CompletionP90 => (m.completion_s.n > 0).then_some(m.completion_s.p90),
            Metric::WaitP50 => (m.wait_s.n > 0).then_some(m.wait_s.p50),
            Metric::DeadlineMisses => Some(m.deadline_misses as f64),
            Metric::InterruptionCost => Some(m.lost_h + m.startup_h + m.checkpoint_h + m.grace_h),
            Metric::Goodput => (m.held_h > 0.0).then_some(m.goodput),
            Metric::Cost => Some(m.cost_usd),
        }
    }

    /// The least difference that counts, whatever the base: its unit's ([`Unit::floor`]).
    fn floor(self) -> f64 {
        self.unit().floor()
    }

    /// The unit of a value of this metric.
    pub fn unit(self) -> Unit {
        match self {
            Metric::CompletionP50 | Metric::CompletionP90 | Metric::WaitP50 => Unit::Seconds,
            Metric::DeadlineMisses | Metric::Succeeded => Unit::Count,
            Metric::InterruptionCost => Unit::InstanceHours,
            Metric::Goodput => Unit::Fraction,
            Metric::Cost => Unit::Usd,
        }
    }
}

/// The value of `metric` for share `share` under `policy`: completion percentiles over the
/// matched jobs (`None` when no job matched), the rest from the run's metrics.
pub fn value_of(
    metric: Metric,
    policy: Policy,
    m: &ShareMetrics,
    matched: Option<&Matched>,
) -> Option<f64> {
    let completion = |p90: bool| {
        let c = matched?.of(policy);
        (c.n > 0).then_some(if p90 { c.p90_s } else { c.p50_s })
    };
    match metric {
        Metric::CompletionP50 => completion(false),
        Metric::CompletionP90 => completion(true),
        _ => metric.value(m),
    }
}

/// How a value compares with a base value of a metric; the difference is `value - base`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Delta {
    Better(f64),
    Worse(f64),
    /// Under a few percent (or the metric's floor): about the same.
    Same,
    /// One side is undefined.
    NotComparable,
}

/// SPEC 9.1: `value` against `base` for `metric`; a difference under [`FEW_PERCENT`] of
/// the base or under the metric's floor is [`Delta::Same`].
pub fn delta(metric: Metric, base: Option<f64>, value: Option<f64>) -> Delta {
    delta_within(metric, base, value, Within::default())
}

/// What a share's difference is judged against besides its base value ([`delta_within`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Within {
    /// The base run's p50 completion over the matched jobs ([`completion_p50`]).
    pub completion_p50: Option<f64>,
    /// The instance-hours the share held, the larger of the two runs' (0 if unknown).
    pub held_h: f64,
}

/// How share `o` under policy `op` compares with share `b` under `bp` on `metric`
/// (completion over `matched`): the one judgement the verdicts, the page's comparison
/// tables and the report's read ([`delta_within`]).
pub fn delta_of(
    metric: Metric,
    (bp, b): (Policy, &ShareMetrics),
    (op, o): (Policy, &ShareMetrics),
    matched: Option<&Matched>,
) -> Delta {
    let within = Within {
        completion_p50: completion_p50(bp, matched),
        held_h: b.held_h.max(o.held_h),
    };
    delta_within(
        metric,
        value_of(metric, bp, b, matched),
        value_of(metric, op, o, matched),
        within,
    )
}

/// [`delta`], with two changes judged against what they are part of:
/// - a p50 wait against the time a job takes: a change under a few percent of the base
///   run's p50 completion (matched jobs) is about the same too (two minutes' more wait on
///   a 90-minute job is not worse);
/// - an interruption cost against the time the share held instances: a change under
///   [`INTERRUPTION_OF_HELD`] of its held instance-hours is about the same (37
///   instance-hours of interruption over 28,000 held is not worse).
pub fn delta_within(
    metric: Metric,
    base: Option<f64>,
    value: Option<f64>,
    within: Within,
) -> Delta {
    let (Some(b), Some(v)) = (base, value) else {
        return Delta::NotComparable;
    };
    let d = v - b;
    let (reference, floor) = match metric {
        Metric::WaitP50 => (
            b.abs().max(within.completion_p50.unwrap_or(0.0)),
            metric.floor(),
        ),
        Metric::InterruptionCost => (
            b.abs(),
            metric.floor().max(INTERRUPTION_OF_HELD * within.held_h),
        ),
        _ => (b.abs(), metric.floor()),
    };
    if negligible(d, reference, floor) {
        return Delta::Same;
    }
    let better = match metric.better() {
        Better::Lower => d < 0.0,
        Better::Higher => d > 0.0,
    };
    if better {
        Delta::Better(d)
    } else {
        Delta::Worse(d)
    }
}

/// SPEC 9.1's "about the same": a difference `d` under [`FEW_PERCENT`] of `base` or under
/// the metric's `floor` (the comparison's verdicts and a review's alike).
pub fn negligible(d: f64, base: f64, floor: f64) -> bool {
    d.abs() < floor || d.abs() < FEW_PERCENT * base.abs()
}

/// The base run's p50 completion over the matched jobs, which [`delta_within`] judges a
/// wait against.
pub fn completion_p50(base: Policy, matched: Option<&Matched>) -> Option<f64> {
    let c = matched?.of(base);
    (c.n > 0).then_some(c.p50_s)
}

/// What a change of policy does to one share, all metrics considered (it crosses the
/// worker's protocol, so it is serde).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    /// The runs are the same for this share (every metric equal).
    NoDifference,
    /// Every difference is under a few percent.
    AboutTheSame,
    /// Some metric better, none worse.
    Helps,
    /// Some metric worse, none better.
    Hurts,
    /// Some better, some worse (the largest named first).
    Mixed,
    /// The share has no jobs in either run: nothing of its own to compare (its idle quota
    /// lent or not is the others' change).
    NoJobs,
}

impl Verdict {
    /// A stable key (`data-verdict` in the page and the report).
    pub fn key(self) -> &'static str {
        match self {
            Verdict::NoDifference => "no-difference",
            Verdict::AboutTheSame => "about-the-same",
            Verdict::Helps => "better",
            Verdict::Hurts => "worse",
            Verdict::Mixed => "mixed",
            Verdict::NoJobs => "no-jobs",
        }
    }

    /// The verdict as a sentence says it.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::NoDifference => "no difference",
            Verdict::AboutTheSame => "about the same",
            Verdict::Helps => "better",
            Verdict::Hurts => "worse",
            Verdict::Mixed => "mixed",
            Verdict::NoJobs => "no jobs",
        }
    }
}

/// One metric that changed: its values in the base and the other run, and the change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Effect {
    pub metric: Metric,
    pub base: f64,
    pub value: f64,
    /// `true` when the change is for the better.
    pub better: bool,
}

impl Effect {
    /// The change relative to the base (`None` when the base is 0).
    pub fn relative(&self) -> Option<f64> {
        (self.base != 0.0).then(|| (self.value - self.base) / self.base.abs())
    }

    /// The change in brackets: relative (" (−71%)"), or in points for a fraction such as
    /// goodput (" (−4.8 pts)", as the tables write it).
    fn change_note(&self, scale: Scale) -> String {
        if self.metric.unit() == Unit::Fraction {
            return format!(" ({})", scale.show_delta(self.value - self.base));
        }
        self.relative()
            .map(|r| format!(" ({})", signed_percent(r)))
            .unwrap_or_default()
    }

    /// "p90 completion better: 4.2 h → 1.2 h (−71%)", both values in one unit.
    pub fn words(&self) -> String {
        let unit = self.metric.unit();
        let scale = unit.scale_for(&[self.base, self.value]);
        let rel = self.change_note(scale);
        format!(
            "{} {}: {} → {}{rel}",
            self.metric.phrase(),
            if self.better { "better" } else { "worse" },
            scale.show(self.base),
            scale.show(self.value),
        )
    }

    /// "p90 completion 4.2 h → 1.2 h (−71%)": [`Effect::words`] without better or worse.
    pub fn change_words(&self) -> String {
        let scale = self.metric.unit().scale_for(&[self.base, self.value]);
        let rel = self.change_note(scale);
        format!(
            "{} {} → {}{rel}",
            self.metric.phrase(),
            scale.show(self.base),
            scale.show(self.value),
        )
    }

    /// How large the change is, to put the largest first: relative to the base, infinite
    /// from a base of 0.
    fn size(&self) -> f64 {
        self.relative().map_or(f64::INFINITY, f64::abs)
    }
}

/// One share's verdict between two runs.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareVerdict {
    /// The share's index (scenario order) and name.
    pub share: usize,
    pub name: String,
    pub verdict: Verdict,
    /// The changes that are not "about the same", largest first.
    pub effects: Vec<Effect>,
    /// The matched jobs and the most that succeeded in either run, when the first is under
    /// 90% of the second (SPEC 9.1).
    pub thin: Option<(u64, u64)>,
}

impl ShareVerdict {
    /// The verdict in one sentence: "vision: better: p90 completion better: ...".
    pub fn sentence(&self) -> String {
        let mut out = format!("{}: {}", self.name, self.verdict.words());
        match self.verdict {
            Verdict::AboutTheSame => out.push_str(" (every change too small to count)"),
            Verdict::NoJobs => out.push_str(", nothing of its own to compare"),
            Verdict::NoDifference => {}
            Verdict::Mixed => {
                // Both sides, each largest first: nothing worse hides behind "and more".
                let side = |better: bool| -> String {
                    let all: Vec<&Effect> =
                        self.effects.iter().filter(|e| e.better == better).collect();
                    let mut words: Vec<String> =
                        all.iter().take(2).map(|e| e.change_words()).collect();
                    if all.len() > 2 {
                        words.push(more(all.len() - 2, "change"));
                    }
                    words.join(", ")
                };
                let first_better = self.effects.first().is_some_and(|e| e.better);
                let (a, b) = if first_better {
                    (("better", side(true)), ("worse", side(false)))
                } else {
                    (("worse", side(false)), ("better", side(true)))
                };
                out.push_str(&format!(" — {}: {}; {}: {}", a.0, a.1, b.0, b.1));
            }
            _ => {
                // The verdict said better or worse already: each change once, its values.
                let words: Vec<String> = self
                    .effects
                    .iter()
                    .take(3)
                    .map(Effect::change_words)
                    .collect();
                out.push_str(" — ");
                out.push_str(&words.join("; "));
                if self.effects.len() > 3 {
                    out.push_str(&format!("; and {}", more(self.effects.len() - 3, "change")));
                }
            }
        }
        out.push('.');
        if let Some((n, of)) = self.thin {
            out.push_str(&format!(
                " Completion is compared over the {n} of {of} jobs that succeeded under all three policies."
            ));
        }
        out
    }
}

/// A comparison's verdicts: `other` against `base`, per share.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdicts {
    pub base: Policy,
    pub other: Policy,
    /// The two runs are the same (every share's metrics, every job).
    pub identical: bool,
    pub shares: Vec<ShareVerdict>,
}

impl Verdicts {
    /// What is compared: "As given vs partitioned", "Pooled vs partitioned".
    pub fn title(&self) -> String {
        format!("{} vs {}", policy_title(self.other), policy_name(self.base))
    }

    /// One line for the whole comparison: [`NO_DIFFERENCE`] for identical runs, else
    /// which shares are better, worse, mixed and about the same.
    pub fn headline(&self) -> String {
        if self.identical {
            return format!("{}: {NO_DIFFERENCE}.", self.title());
        }
        let named = |v: Verdict| -> Vec<String> {
            self.shares
                .iter()
                .filter(|s| s.verdict == v)
                .map(|s| s.name.clone())
                .collect()
        };
        let mut parts = Vec::new();
        for (v, lead) in [
            (Verdict::Helps, "better for"),
            (Verdict::Hurts, "worse for"),
            (Verdict::Mixed, "mixed for"),
            (Verdict::AboutTheSame, "about the same for"),
            (Verdict::NoDifference, "no difference for"),
            (Verdict::NoJobs, "no jobs in"),
        ] {
            let names = named(v);
            if !names.is_empty() {
                parts.push(format!("{lead} {}", some_of(&names, "share")));
            }
        }
        format!("{}: {}.", self.title(), join_and(&parts))
    }
}

/// The policy's name in a sentence.
pub fn policy_name(p: Policy) -> &'static str {
    match p {
        Policy::AsGiven => "as given",
        Policy::Partitioned => "partitioned",
        Policy::Pooled => "pooled",
    }
}

/// The policy's name at the start of a sentence or as a column heading.
pub fn policy_title(p: Policy) -> &'static str {
    match p {
        Policy::AsGiven => "As given",
        Policy::Partitioned => "Partitioned",
        Policy::Pooled => "Pooled",
    }
}

/// SPEC 9.1: the verdicts of `other` against `base` from each run's per-share metrics
/// (indexed alike) and `matched`; `identical` when the two runs are the same throughout.
pub fn verdicts(
    base: (Policy, &[ShareMetrics]),
    other: (Policy, &[ShareMetrics]),
    matched: &[Matched],
    identical: bool,
) -> Verdicts {
    let shares = base
        .1
        .iter()
        .zip(other.1)
        .enumerate()
        .map(|(i, (b, o))| {
            let m = matched.get(i);
            let mut v = share_verdict(i, (base.0, b), (other.0, o), m);
            if identical {
                // A share without jobs still has none to compare (issue #34).
                if v.verdict != Verdict::NoJobs {
                    v.verdict = Verdict::NoDifference;
                }
                v.effects.clear();
            }
            v
        })
        .collect();
    Verdicts {
        base: base.0,
        other: other.0,
        identical,
        shares,
    }
}

/// One share's verdict (see the module doc).
pub fn share_verdict(
    share: usize,
    (bp, b): (Policy, &ShareMetrics),
    (op, o): (Policy, &ShareMetrics),
    matched: Option<&Matched>,
) -> ShareVerdict {
    let mut effects: Vec<Effect> = Metric::ALL
        .iter()
        .filter_map(|&metric| {
            let better = match delta_of(metric, (bp, b), (op, o), matched) {
                Delta::Better(_) => true,
                Delta::Worse(_) => false,
                Delta::Same | Delta::NotComparable => return None,
            };
            Some(Effect {
                metric,
                base: value_of(metric, bp, b, matched)?,
                value: value_of(metric, op, o, matched)?,
                better,
            })
        })
        .collect();
    crate::sort::compact_by(&mut effects, &|x: &Effect, y: &Effect| {
        y.size().total_cmp(&x.size())
    });
    let (better, worse) = (
        effects.iter().any(|e| e.better),
        effects.iter().any(|e| !e.better),
    );
    let verdict = match (better, worse) {
        (true, false) => Verdict::Helps,
        (false, true) => Verdict::Hurts,
        (true, true) => Verdict::Mixed,
        // Issue #34 (fresh-eyes walk): a share without jobs is not "about the same".
        (false, false) if b.submitted == 0 && o.submitted == 0 => Verdict::NoJobs,
        (false, false) if b == o => Verdict::NoDifference,
        (false, false) => Verdict::AboutTheSame,
    };
    let thin = matched.and_then(|m| {
        let of = m.succeeded[bp as usize].max(m.succeeded[op as usize]);
        m.thin(bp, op).then_some((m.n, of))
    });
    ShareVerdict {
        share,
        name: b.name.clone(),
        verdict,
        effects,
        thin,
    }
}

/// One share's differences between two runs, every metric (the page's table cells).
#[derive(Clone, Debug, PartialEq)]
pub struct ShareChange {
    pub share: usize,
    pub name: String,
    /// Every metric of [`Metric::ALL`], in that order.
    pub deltas: Vec<(Metric, Delta)>,
}

/// Per share, how `other` differs from `base` on every metric (completion over `matched`).
pub fn changes(
    base: (Policy, &[ShareMetrics]),
    other: (Policy, &[ShareMetrics]),
    matched: &[Matched],
) -> Vec<ShareChange> {
    base.1
        .iter()
        .zip(other.1)
        .enumerate()
        .map(|(share, (b, o))| ShareChange {
            share,
            name: b.name.clone(),
            deltas: Metric::ALL
                .iter()
                .map(|&m| {
                    (
                        m,
                        delta_of(m, (base.0, b), (other.0, o), matched.get(share)),
                    )
                })
                .collect(),
        })
        .collect()
}

// ---- units: one unit per row -------------------------------------------------------------

/// What a metric's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Seconds,
    Count,
    InstanceHours,
    /// A ratio in [0, 1], shown as a percentage.
    Fraction,
    Usd,
}

/// A unit with its scale fixed for a set of values (a table row, an effect): every value
/// of the set reads in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// A duration in one unit for the whole set (its largest value's, as
    /// [`numbers::duration`] picks it), written by [`numbers::duration_in`].
    Duration(DurationUnit),
    Count,
    /// Instance-hours with two decimals (every value of the set under 100), else whole.
    InstanceHours {
        decimals: bool,
    },
    Percent,
    /// Dollars with cents (every value of the set under 100), else whole.
    Usd {
        cents: bool,
    },
}

impl Unit {
    /// The least difference of a value in this unit that counts, whatever the base (SPEC
    /// 9.1's "about the same", a comparison's and a review's alike): a minute, one (job,
    /// preemption), a twentieth of an instance-hour, two points of a fraction, a dollar.
    pub fn floor(self) -> f64 {
        match self {
            Unit::Seconds => 60.0,
            Unit::Count => 1.0,
            Unit::InstanceHours => 0.05,
            Unit::Fraction => 0.02,
            Unit::Usd => 1.0,
        }
    }

    /// The scale in which the largest of `values` reads best (durations: seconds under 90 s,
    /// minutes under 90 min, hours under two days, else days: [`DurationUnit::for_seconds`]).
    pub fn scale_for(self, values: &[f64]) -> Scale {
        let max = values
            .iter()
            .filter(|v| v.is_finite())
            .fold(0.0_f64, |m, v| m.max(v.abs()));
        match self {
            Unit::Seconds => Scale::Duration(DurationUnit::for_seconds(max)),
            Unit::Count => Scale::Count,
            Unit::InstanceHours => Scale::InstanceHours {
                decimals: max < 100.0,
            },
            Unit::Fraction => Scale::Percent,
            Unit::Usd => Scale::Usd { cents: max < 100.0 },
        }
    }
}

impl Scale {
    /// `v` in this scale: `45 s`, `5.0 min`, `11 min`, `4.1 h`, `3.0 d`, `1,234`, `12.50
    /// inst.-h` or `1,234 inst.-h`, `87.5%`, `$12.50` or `$1,234`.
    pub fn show(self, v: f64) -> String {
        if !v.is_finite() {
            return "—".into();
        }
        match self {
            Scale::Duration(unit) => numbers::duration_in(v, unit),
            Scale::Count => group(v.round()),
            Scale::InstanceHours { decimals: true } => format!("{v:.2} inst.-h"),
            Scale::InstanceHours { decimals: false } => format!("{} inst.-h", group(v.round())),
            Scale::Percent => format!("{:.1}%", v * 100.0),
            Scale::Usd { cents: true } => format!("${v:.2}"),
            Scale::Usd { cents: false } => format!("${}", group(v.round())),
        }
    }

    /// [`Scale::show`] without the unit where a table's row label names it
    /// (instance-hours: `12.50`).
    pub fn show_bare(self, v: f64) -> String {
        let shown = self.show(v);
        match self {
            Scale::InstanceHours { .. } => shown.trim_end_matches(" inst.-h").to_string(),
            _ => shown,
        }
    }

    /// A signed difference in this scale, bare as [`Scale::show_bare`]: `−3.0 h`, `+12`,
    /// `+2.0 pts`.
    pub fn show_delta(self, d: f64) -> String {
        let sign = if d < 0.0 { "−" } else { "+" };
        let body = match self {
            Scale::Percent => format!("{:.1} pts", d.abs() * 100.0),
            _ => self.show_bare(d.abs()),
        };
        format!("{sign}{body}")
    }
}

/// A whole number with thousands separators (`-1234` -> `-1,234`).
fn group(x: f64) -> String {
    let out = group_digits(x.abs().round() as u64);
    if x < 0.0 && out != "0" {
        format!("-{out}")
    } else {
        out
    }
}

/// `+8%`, `−71%`, `<1%`; ten times or more as `×19.6`.
pub(crate) fn signed_percent(r: f64) -> String {
    let sign = if r < 0.0 { "−" } else { "+" };
    let p = (r.abs() * 100.0).round();
    if p < 1.0 {
        format!("{sign}<1%")
    } else if r >= 9.0 {
        format!("×{:.1}", 1.0 + r)
    } else {
        format!("{sign}{p:.0}%")
    }
}

pub(crate) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// At most three items then how many more of what: "vision, language, nlp and 2 more
/// shares".
pub(crate) fn some_of(items: &[String], what: &str) -> String {
    if items.len() <= 3 {
        return join_and(items);
    }
    let mut words = items[..3].to_vec();
    words.push(more(items.len() - 3, what));
    join_and(&words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::matched::Completion;
    use crate::output::digest::Pct;

    /// The words the page and the report give for "about the same" say the rule [`delta`]
    /// applies: the relative share and every metric's floor.
    #[test]
    fn about_the_same_says_the_rule() {
        assert!(ABOUT_THE_SAME.starts_with(&format!("under {:.0}%", FEW_PERCENT * 100.0)));
        assert_eq!(Metric::CompletionP50.floor(), 60.0);
        assert!(ABOUT_THE_SAME.contains("a minute"));
        assert_eq!(Metric::DeadlineMisses.floor(), 1.0);
        assert!(ABOUT_THE_SAME.contains("one job"));
        assert_eq!(Metric::InterruptionCost.floor(), 0.05);
        assert!(ABOUT_THE_SAME.contains("0.05 instance-hours"));
        assert_eq!(Metric::Goodput.floor(), 0.02);
        assert!(ABOUT_THE_SAME.contains("2 points of goodput"));
        assert_eq!(Metric::Cost.floor(), 1.0);
        assert!(ABOUT_THE_SAME.contains("or $1;"));
        assert!(ABOUT_THE_SAME.contains("a p50 wait under 5% of the p50 completion"));
        assert!(ABOUT_THE_SAME.ends_with(&format!(
            "interruption under {:.0}% of the instance-hours held",
            INTERRUPTION_OF_HELD * 100.0
        )));
    }

    #[test]
    fn interruption_is_judged_against_the_instance_hours_held() {
        // The README's Philly comparison, share 11cb48: 0 -> 37 instance-hours of
        // interruption while it held 28,141 (0.13%) is about the same...
        let mut b = share("a", 0, 0.0, 100.0);
        b.held_h = 20_861.4;
        let mut o = share("a", 0, 37.05, 100.0);
        o.held_h = 28_141.3;
        let d = |b: &ShareMetrics, o: &ShareMetrics| {
            delta_of(Metric::InterruptionCost, (PART, b), (GIVEN, o), None)
        };
        assert_eq!(d(&b, &o), Delta::Same);
        // ... and still counts in the other direction (as given is the base).
        assert_eq!(
            delta_of(Metric::InterruptionCost, (GIVEN, &o), (PART, &b), None),
            Delta::Same
        );
        // b436b2's 9,888 of 135,627 (7.3%) is worse, and so is 2.1% (e13805's 296 of 13,854:
        // the larger of the two runs' held hours), and 1.2% (at 37 of 3,000).
        o.lost_h = 9_888.0;
        o.held_h = 135_627.0;
        assert_eq!(d(&b, &o), Delta::Worse(9_888.0));
        (b.held_h, o.lost_h, o.held_h) = (6_173.4, 296.0, 13_853.6);
        assert_eq!(d(&b, &o), Delta::Worse(296.0));
        (b.held_h, o.lost_h, o.held_h) = (2_900.0, 37.0, 3_000.0);
        assert_eq!(d(&b, &o), Delta::Worse(37.0));
        // Nothing held in either run: the floor alone (0.05 instance-hours).
        let (mut b0, mut o0) = (share("a", 0, 0.0, 0.0), share("a", 0, 0.06, 0.0));
        b0.held_h = 0.0;
        o0.held_h = 0.0;
        assert_eq!(d(&b0, &o0), Delta::Worse(0.06));
        // The verdict reads the same judgement: the share's only change is the trivial one.
        let mut given = share("a", 0, 37.05, 100.0);
        (b.held_h, given.held_h) = (20_861.4, 28_141.3);
        let v = share_verdict(0, (PART, &b), (GIVEN, &given), None);
        // Not "under 5%": from 0 it is infinitely more.
        assert_eq!(
            v.sentence(),
            "a: about the same (every change too small to count)."
        );
        assert!(
            v.effects
                .iter()
                .all(|e| e.metric != Metric::InterruptionCost),
            "{v:?}"
        );
    }

    fn share(name: &str, misses: u64, lost_h: f64, cost: f64) -> ShareMetrics {
        ShareMetrics {
            name: name.into(),
            wait_s: Pct {
                n: 3,
                p50: 10.0,
                ..Pct::default()
            },
            submitted: 10,
            deadline_misses: misses,
            lost_h,
            held_h: 10.0,
            goodput: 0.9,
            cost_usd: cost,
            ..ShareMetrics::default()
        }
    }

    fn matched(n: u64, p50: [f64; 3], p90: [f64; 3], succeeded: [u64; 3]) -> Matched {
        let c = |k: usize| Completion {
            n,
            p50_s: p50[k],
            p90_s: p90[k],
        };
        Matched {
            share: 0,
            name: "a".into(),
            n,
            runs: [c(0), c(1), c(2)],
            succeeded,
        }
    }

    const GIVEN: Policy = Policy::AsGiven;
    const PART: Policy = Policy::Partitioned;

    #[test]
    fn a_change_under_a_few_percent_is_about_the_same() {
        // The case: 61 s on a 39 min p50.
        assert_eq!(
            delta(
                Metric::CompletionP50,
                Some(39.0 * 60.0),
                Some(40.0 * 60.0 + 1.0)
            ),
            Delta::Same
        );
        assert_eq!(
            delta(Metric::CompletionP50, Some(600.0), Some(700.0)),
            Delta::Worse(100.0)
        );
        assert_eq!(delta(Metric::Goodput, Some(0.9), Some(0.91)), Delta::Same);
        assert_eq!(
            delta(Metric::DeadlineMisses, Some(0.0), Some(6.0)),
            Delta::Worse(6.0)
        );
        assert_eq!(
            delta(Metric::WaitP50, None, Some(1.0)),
            Delta::NotComparable
        );
    }

    #[test]
    fn largest_effects_come_first_and_small_ones_are_left_out() {
        let b = share("a", 0, 1.0, 100.0);
        let o = share("a", 0, 1.01, 130.0);
        // p90: 4 h -> 1 h (-75%); cost +30%; lost +1% (about the same).
        let m = matched(10, [600.0; 3], [4.0 * 3600.0, 3600.0, 3600.0], [10; 3]);
        let v = share_verdict(0, (PART, &b), (GIVEN, &o), Some(&m));
        // Base is partitioned: p90 as given 4 h, partitioned 1 h => worse from 1 h to 4 h.
        assert_eq!(v.verdict, Verdict::Hurts, "{v:?}");
        assert_eq!(v.effects[0].metric, Metric::CompletionP90);
        assert_eq!(v.effects[1].metric, Metric::Cost);
        assert_eq!(v.effects.len(), 2);
        let s = v.sentence();
        assert!(
            // The verdict says "worse" once, not again per change.
            s == "a: worse — p90 completion 1.0 h → 4.0 h (+300%); cost $100 → $130 (+30%).",
            "{s}"
        );
        let mixed = share_verdict(0, (GIVEN, &b), (PART, &o), Some(&m));
        assert_eq!(mixed.verdict, Verdict::Mixed);
        // Base as given (p90 4 h, $100), other partitioned (1 h, $130).
        assert_eq!(
            mixed.sentence(),
            "a: mixed — better: p90 completion 4.0 h → 1.0 h (−75%); worse: cost $100 → $130 (+30%)."
        );
    }

    #[test]
    fn identical_metrics_are_no_difference_and_small_ones_about_the_same() {
        let b = share("a", 0, 1.0, 100.0);
        let m = matched(10, [600.0; 3], [900.0; 3], [10; 3]);
        let v = share_verdict(0, (PART, &b), (GIVEN, &b), Some(&m));
        assert_eq!(v.verdict, Verdict::NoDifference);
        assert_eq!(v.sentence(), "a: no difference.");
        let o = share("a", 0, 1.02, 101.0);
        let v = share_verdict(0, (PART, &b), (GIVEN, &o), Some(&m));
        assert_eq!(v.verdict, Verdict::AboutTheSame);
        let all = verdicts(
            (PART, std::slice::from_ref(&b)),
            (GIVEN, std::slice::from_ref(&b)),
            &[m],
            true,
        );
        assert_eq!(
            all.headline(),
            "As given vs partitioned: no difference: nobody lends or borrows."
        );
    }

    /// Issue #34 (fresh-eyes walk): a share without jobs, whose idle quota is lent in one
    /// run and not the other, has no jobs to compare: not "about the same".
    #[test]
    fn a_share_without_jobs_says_so() {
        let idle = |lent_h: f64| ShareMetrics {
            name: "protected".into(),
            entitled_h: 10.0,
            lent_h,
            idle_h: 10.0 - lent_h,
            ..ShareMetrics::default()
        };
        let v = share_verdict(0, (PART, &idle(0.0)), (GIVEN, &idle(4.0)), None);
        assert_eq!(v.verdict, Verdict::NoJobs);
        assert_eq!(
            v.sentence(),
            "protected: no jobs, nothing of its own to compare."
        );
        let b = share("a", 0, 1.0, 100.0);
        let o = share("a", 2, 1.0, 100.0);
        let all = verdicts(
            (PART, &[b, idle(0.0)]),
            (GIVEN, &[o, idle(4.0)]),
            &[],
            false,
        );
        assert_eq!(
            all.headline(),
            "As given vs partitioned: worse for a and no jobs in protected."
        );
    }

    /// Issue #34: two identical runs leave a share without jobs with none to compare (its
    /// line in the card), never "no difference".
    #[test]
    fn identical_runs_keep_a_share_without_jobs() {
        let idle = ShareMetrics {
            name: "protected".into(),
            entitled_h: 10.0,
            idle_h: 10.0,
            ..ShareMetrics::default()
        };
        let b = share("a", 0, 1.0, 100.0);
        let all = verdicts(
            (PART, &[b.clone(), idle.clone()]),
            (GIVEN, &[b, idle]),
            &[],
            true,
        );
        assert_eq!(all.shares[0].verdict, Verdict::NoDifference);
        assert_eq!(all.shares[1].verdict, Verdict::NoJobs);
        assert_eq!(
            all.shares[1].sentence(),
            "protected: no jobs, nothing of its own to compare."
        );
    }

    #[test]
    fn completion_is_compared_over_matched_jobs_and_says_when_they_are_few() {
        let b = share("a", 0, 1.0, 100.0);
        // 4 of 6 matched: under 90%.
        let m = matched(4, [600.0; 3], [900.0; 3], [6, 4, 6]);
        let v = share_verdict(0, (PART, &b), (GIVEN, &b), Some(&m));
        assert_eq!(v.thin, Some((4, 6)));
        assert!(
            v.sentence()
                .ends_with("Completion is compared over the 4 of 6 jobs that succeeded under all three policies."),
            "{}",
            v.sentence()
        );
        let full = matched(6, [600.0; 3], [900.0; 3], [6, 6, 6]);
        assert_eq!(
            share_verdict(0, (PART, &b), (GIVEN, &b), Some(&full)).thin,
            None
        );
    }

    /// Issue #34: "and 1 more" says what it counts.
    #[test]
    fn the_rest_says_what_it_counts() {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        assert_eq!(some_of(&names, "share"), "a, b, c and 1 more share");
        let names: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        assert_eq!(some_of(&names, "share"), "a, b, c and 2 more shares");
        assert_eq!(some_of(&names[..3], "share"), "a, b and c");
        assert_eq!(more(1, "change"), "1 more change");
    }

    #[test]
    fn one_unit_per_row() {
        let scale = Unit::Seconds.scale_for(&[5760.0, 5286.0, 5400.0]);
        assert_eq!(scale, Scale::Duration(DurationUnit::Hours));
        assert_eq!(
            [5760.0, 5286.0, 5400.0].map(|v| scale.show(v)),
            ["1.6 h", "1.5 h", "1.5 h"]
        );
        // Issue #34: durations read as the summary writes them (`11 min`, not `11.0 min`;
        // days past two days).
        let minutes = Unit::Seconds.scale_for(&[660.0, 300.0]);
        assert_eq!(
            [660.0, 300.0].map(|v| minutes.show(v)),
            ["11 min", "5.0 min"]
        );
        assert_eq!(minutes.show(660.0), crate::output::numbers::duration(660.0));
        assert_eq!(minutes.show_delta(-660.0), "−11 min");
        let days = Unit::Seconds.scale_for(&[3.0 * 86_400.0, 3600.0]);
        assert_eq!(days.show(3.0 * 86_400.0), "3.0 d");
        assert_eq!(Unit::Seconds.scale_for(&[30.0, 61.0]).show(61.0), "61 s");
        assert_eq!(Unit::Usd.scale_for(&[99.0, 1234.4]).show(99.0), "$99");
        assert_eq!(Unit::Usd.scale_for(&[12.5, 40.0]).show(12.5), "$12.50");
        assert_eq!(Scale::Percent.show_delta(-0.031), "−3.1 pts");
        // Instance-hours as the page's tables spell them (issue #34: `inst-h` beside
        // `inst.-h`); a duration too short for its row's unit as `duration` writes it.
        assert_eq!(
            Unit::InstanceHours.scale_for(&[3.0]).show(3.0),
            "3.00 inst.-h"
        );
        assert_eq!(minutes.show(0.0), "0 s");
    }
}
