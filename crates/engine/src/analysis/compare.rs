//! `quotasim compare` (SPEC 9): the scenario as given beside two reference policies.

use crate::digest::{Digest, ShareMetrics};
use crate::model::{BorrowLimit, Scenario, Strategy, TimedAction};
use crate::pipeline::{self, Output, Product};
use crate::result::{self, Stats};
use crate::{validate, Problem, Sim};

/// SPEC 9: a policy a scenario can be run under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The scenario as written.
    #[default]
    AsGiven,
    /// Every share RESERVE (see [`partitioned`]).
    Partitioned,
    /// Every share LEND_AND_BORROW, unlimited (see [`pooled`]).
    Pooled,
}

impl Policy {
    /// The three policies in the order `compare` reports them.
    pub const ALL: [Policy; 3] = [Policy::AsGiven, Policy::Partitioned, Policy::Pooled];

    /// The policy's name in `compare`'s output (`as_given`, `partitioned`, `pooled`).
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::AsGiven => "as_given",
            Policy::Partitioned => "partitioned",
            Policy::Pooled => "pooled",
        }
    }

    /// The scenario under this policy.
    pub fn apply(self, s: &Scenario) -> Scenario {
        match self {
            Policy::AsGiven => s.clone(),
            Policy::Partitioned => partitioned(s),
            Policy::Pooled => pooled(s),
        }
    }
}

/// One scenario run under every policy: the validator's warnings (once), one output per
/// policy, in [`Policy::ALL`] order, and the SPEC 14 forecast per share.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub warnings: Vec<Problem>,
    pub runs: Vec<(Policy, Output)>,
    /// SPEC 14 "Allocation versus opportunity", per share in scenario order.
    pub forecast: Vec<ShareForecast>,
}

/// SPEC 9 `compare`: validates `text` once and runs it through the pipeline under each
/// policy, producing `product` for each (and the SPEC 14 forecast from the as-given and
/// partitioned runs).
pub fn run(text: &str, product: Product) -> Result<Comparison, Vec<Problem>> {
    let loaded = validate::load(text)?;
    let mut stats = Vec::new();
    let runs = Policy::ALL
        .iter()
        .map(|&policy| {
            let scenario = match policy {
                Policy::AsGiven => std::borrow::Cow::Borrowed(&loaded.scenario),
                _ => std::borrow::Cow::Owned(policy.apply(&loaded.scenario)),
            };
            let mut sim = Sim::new(&scenario, product.options());
            sim.run();
            stats.push(result::stats(&sim).0);
            (policy, pipeline::output_of(&sim, product))
        })
        .collect();
    let names: Vec<&str> = loaded
        .scenario
        .shares
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    let forecast = forecast(&names, &stats[0], &stats[1]);
    Ok(Comparison {
        warnings: loaded.warnings,
        runs,
        forecast,
    })
}

// ---- SPEC 14: allocation versus opportunity -------------------------------------------

/// Completion times (end - submit of SUCCEEDED jobs) of one share in one run, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Completion {
    /// Jobs that succeeded (0: the percentiles are not defined).
    pub n: u64,
    pub p50_s: f64,
    pub p90_s: f64,
}

impl Completion {
    fn of(s: &Stats) -> Completion {
        Completion {
            n: s.completion.n,
            p50_s: s.completion.p50,
            p90_s: s.completion.p90,
        }
    }
}

/// SPEC 14 "Allocation versus opportunity" for one share: its completion on its allocation
/// alone (the partitioned variant: every share RESERVE, nothing lent or borrowed) beside
/// its completion as given, and how much of its useful work (as given) was done on
/// borrowed capacity.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShareForecast {
    pub share: usize,
    pub name: String,
    pub allocation_alone: Completion,
    pub as_given: Completion,
    /// Useful instance-hours as given, and the part made in borrowed runs.
    pub useful_h: f64,
    pub useful_borrowed_h: f64,
}

impl ShareForecast {
    /// `useful_borrowed / useful`; `None` without useful work.
    pub fn borrowed_fraction(&self) -> Option<f64> {
        (self.useful_h > 0.0).then(|| self.useful_borrowed_h / self.useful_h)
    }
}

/// SPEC 14: the forecast per share from the metrics of the as-given and partitioned runs
/// (each indexed like `names`).
pub fn forecast(names: &[&str], as_given: &[Stats], partitioned: &[Stats]) -> Vec<ShareForecast> {
    const MS_PER_HOUR: f64 = 3_600_000.0;
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let g = as_given.get(i).cloned().unwrap_or_default();
            let p = partitioned.get(i).cloned().unwrap_or_default();
            ShareForecast {
                share: i,
                name: name.to_string(),
                allocation_alone: Completion::of(&p),
                as_given: Completion::of(&g),
                useful_h: g.time.useful as f64 / MS_PER_HOUR,
                useful_borrowed_h: g.time.useful_borrowed as f64 / MS_PER_HOUR,
            }
        })
        .collect()
}

/// SPEC 14: the same forecast from the digests of the as-given and partitioned runs (what
/// the page holds).
pub fn forecast_of_digests(as_given: &Digest, partitioned: &Digest) -> Vec<ShareForecast> {
    let completion = |m: Option<&ShareMetrics>| {
        m.map_or_else(Completion::default, |m| Completion {
            n: m.completion_s.n,
            p50_s: m.completion_s.p50,
            p90_s: m.completion_s.p90,
        })
    };
    as_given
        .shares
        .iter()
        .enumerate()
        .map(|(i, m)| ShareForecast {
            share: i,
            name: m.name.clone(),
            allocation_alone: completion(partitioned.shares.get(i)),
            as_given: completion(Some(m)),
            useful_h: m.useful_h,
            useful_borrowed_h: as_given
                .contract
                .shares
                .get(i)
                .map_or(0.0, |c| c.useful_borrowed_h),
        })
        .collect()
}

/// The forecast as JSON: `{share: {"allocation_alone": {"n", "p50_s", "p90_s"},
/// "as_given": {..}, "useful_h", "useful_borrowed_h", "useful_borrowed_fraction"}}` (the
/// fraction `null` without useful work).
pub fn forecast_json(f: &[ShareForecast]) -> String {
    use crate::output::json::{num, string};
    let completion = |c: &Completion| {
        format!(
            "{{\"n\":{},\"p50_s\":{},\"p90_s\":{}}}",
            c.n,
            num(c.p50_s),
            num(c.p90_s)
        )
    };
    let mut out = String::from("{");
    for (i, s) in f.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            "{}:{{\"allocation_alone\":{},\"as_given\":{},\"useful_h\":{},\"useful_borrowed_h\":{},\"useful_borrowed_fraction\":{}}}",
            string(&s.name),
            completion(&s.allocation_alone),
            completion(&s.as_given),
            num(s.useful_h),
            num(s.useful_borrowed_h),
            s.borrowed_fraction().map_or_else(|| "null".to_string(), num)
        ));
    }
    out.push('}');
    out
}

/// The forecast as an aligned table (`quotasim compare --summary`).
pub fn forecast_table(f: &[ShareForecast]) -> String {
    use crate::output::summary::human_secs;
    let cell = |c: &Completion, x: f64| {
        if c.n == 0 {
            "-".to_string()
        } else {
            human_secs(x)
        }
    };
    let mut rows = vec![[
        "share".to_string(),
        "p50 alone".to_string(),
        "p90 alone".to_string(),
        "p50 given".to_string(),
        "p90 given".to_string(),
        "useful h".to_string(),
        "on borrowed".to_string(),
    ]];
    for s in f {
        rows.push([
            s.name.clone(),
            cell(&s.allocation_alone, s.allocation_alone.p50_s),
            cell(&s.allocation_alone, s.allocation_alone.p90_s),
            cell(&s.as_given, s.as_given.p50_s),
            cell(&s.as_given, s.as_given.p90_s),
            format!("{:.2}", s.useful_h),
            s.borrowed_fraction()
                .map_or_else(|| "-".to_string(), |x| format!("{:.1}%", x * 100.0)),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c == 0 {
                line.push_str(&format!("{cell:<w$}", w = widths[c]));
            } else {
                line.push_str(&format!("  {cell:>w$}", w = widths[c]));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(
        "alone = completion on the share's allocation alone (partitioned: every share RESERVE); \
         given = as given; on borrowed = part of useful work done in runs dispatched while borrowing\n",
    );
    out
}

/// `partitioned`: every share RESERVE, no preemption (in-share off; RESERVE shares neither
/// lend nor borrow, so nothing is reclaimed). `update_share` events keep their limits but
/// cannot switch a share back to lending.
pub fn partitioned(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    for share in &mut s.shares {
        share.strategy = Strategy::Reserve;
        share.borrow_limit = BorrowLimit::Unlimited;
        share.in_share_preemption = false;
    }
    for e in &mut s.events {
        if let TimedAction::UpdateShare { update, .. } = &mut e.action {
            update.strategy = None;
            update.borrow_limit = None;
            update.in_share_preemption = None;
        }
    }
    s
}

/// `pooled`: every share LEND_AND_BORROW with an unlimited borrow limit (in-share
/// preemption as given); `update_share` events keep their limits.
pub fn pooled(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    for share in &mut s.shares {
        share.strategy = Strategy::LendAndBorrow;
        share.borrow_limit = BorrowLimit::Unlimited;
    }
    for e in &mut s.events {
        if let TimedAction::UpdateShare { update, .. } = &mut e.action {
            update.strategy = None;
            update.borrow_limit = None;
        }
    }
    s
}

// ---- Differences between two runs (the compare view's deltas and verdicts) --------------

/// Whether a smaller or a larger value of a metric is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    Lower,
    Higher,
}

/// A metric compared between policies, per share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
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
    /// Every compared metric, in the order the compare view lists them.
    pub const ALL: [Metric; 7] = [
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
            Metric::CompletionP50 => "completion-p50",
            Metric::CompletionP90 => "completion-p90",
            Metric::WaitP50 => "wait-p50",
            Metric::DeadlineMisses => "deadline-misses",
            Metric::InterruptionCost => "interruption-cost",
            Metric::Goodput => "goodput",
            Metric::Cost => "cost",
        }
    }

    pub fn better(self) -> Better {
        match self {
            Metric::Goodput => Better::Higher,
            _ => Better::Lower,
        }
    }

    /// The value for one share (`None` where it is undefined: no job succeeded or started,
    /// nothing held).
    pub fn value(self, m: &ShareMetrics) -> Option<f64> {
        match self {
            Metric::CompletionP50 => (m.completion_s.n > 0).then_some(m.completion_s.p50),
            Metric::CompletionP90 => (m.completion_s.n > 0).then_some(m.completion_s.p90),
            Metric::WaitP50 => (m.wait_s.n > 0).then_some(m.wait_s.p50),
            Metric::DeadlineMisses => Some(m.deadline_misses as f64),
            Metric::InterruptionCost => Some(m.lost_h + m.startup_h + m.checkpoint_h + m.grace_h),
            Metric::Goodput => (m.held_h > 0.0).then_some(m.goodput),
            Metric::Cost => Some(m.cost_usd),
        }
    }

    /// Differences smaller than this are no change: durations under a second (or 0.5 %),
    /// goodput under half a point, counts under one, hours and dollars under 0.5 %.
    fn tolerance(self, base: f64) -> f64 {
        match self {
            Metric::Goodput => 0.005,
            Metric::DeadlineMisses => 0.5,
            Metric::InterruptionCost | Metric::Cost => 0.005_f64.max(base.abs() * 0.005),
            Metric::CompletionP50 | Metric::CompletionP90 | Metric::WaitP50 => {
                1.0_f64.max(base.abs() * 0.005)
            }
        }
    }
}

/// How a value compares with a base value of a metric; the difference is `value - base`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Delta {
    Better(f64),
    Worse(f64),
    Same,
    /// One side is undefined.
    NotComparable,
}

/// `value` against `base` for `metric` (see [`Metric::better`] and its tolerance).
pub fn delta(metric: Metric, base: Option<f64>, value: Option<f64>) -> Delta {
    let (Some(b), Some(v)) = (base, value) else {
        return Delta::NotComparable;
    };
    let d = v - b;
    if d.abs() < metric.tolerance(b) {
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

/// What a change of policy does to one share, all metrics considered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Some metric better, none worse.
    Helps,
    /// Some metric worse, none better.
    Hurts,
    /// Some better, some worse.
    Mixed,
    /// Nothing better or worse.
    Unchanged,
}

/// One share's differences between two runs of the same scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareChange {
    /// The share's index (scenario order) and name.
    pub share: usize,
    pub name: String,
    /// Every metric of [`Metric::ALL`], in that order.
    pub deltas: Vec<(Metric, Delta)>,
    pub verdict: Verdict,
}

/// Per share (scenario order), how `other` differs from `base` on every metric, and the
/// verdict that follows from those deltas.
pub fn changes(base: &Digest, other: &Digest) -> Vec<ShareChange> {
    base.shares
        .iter()
        .zip(&other.shares)
        .enumerate()
        .map(|(share, (b, o))| {
            let deltas: Vec<(Metric, Delta)> = Metric::ALL
                .iter()
                .map(|&m| (m, delta(m, m.value(b), m.value(o))))
                .collect();
            let better = deltas.iter().any(|(_, d)| matches!(d, Delta::Better(_)));
            let worse = deltas.iter().any(|(_, d)| matches!(d, Delta::Worse(_)));
            let verdict = match (better, worse) {
                (true, false) => Verdict::Helps,
                (false, true) => Verdict::Hurts,
                (true, true) => Verdict::Mixed,
                (false, false) => Verdict::Unchanged,
            };
            ShareChange {
                share,
                name: b.name.clone(),
                deltas,
                verdict,
            }
        })
        .collect()
}

/// Whether two runs gave every share the same metrics.
pub fn same_metrics(a: &Digest, b: &Digest) -> bool {
    a.shares == b.shares
}

#[cfg(test)]
mod delta_tests {
    use super::*;
    use crate::digest::Pct;

    fn share(name: &str, p50: f64, p90: f64, misses: u64, lost_h: f64) -> ShareMetrics {
        let pct = |p50, p90| Pct {
            n: 3,
            p50,
            p90,
            ..Pct::default()
        };
        ShareMetrics {
            name: name.into(),
            completion_s: pct(p50, p90),
            wait_s: pct(10.0, 20.0),
            deadline_misses: misses,
            lost_h,
            held_h: 10.0,
            goodput: 0.9,
            cost_usd: 5.0,
            ..ShareMetrics::default()
        }
    }

    fn digest(shares: Vec<ShareMetrics>) -> Digest {
        Digest {
            name: String::new(),
            end_s: 0.0,
            shares,
            totals: ShareMetrics::default(),
            instance_types: Vec::new(),
            capacity: Vec::new(),
            jobs: Vec::new(),
            events: Vec::new(),
            event_count: 0,
            series: Vec::new(),
            series_points: 0,
            steps: 0,
            kueue: None,
            contract: Default::default(),
        }
    }

    #[test]
    fn a_better_p90_alone_is_a_help_and_a_worse_p50_with_it_is_mixed() {
        let base = digest(vec![
            share("a", 100.0, 1000.0, 0, 0.0),
            share("b", 100.0, 1000.0, 0, 0.0),
        ]);
        let other = digest(vec![
            share("a", 100.0, 500.0, 0, 0.0),
            share("b", 200.0, 500.0, 0, 0.0),
        ]);
        let c = changes(&base, &other);
        assert_eq!(c[0].verdict, Verdict::Helps, "{:?}", c[0]);
        assert_eq!(c[1].verdict, Verdict::Mixed, "{:?}", c[1]);
        assert_eq!(
            c[0].deltas[1],
            (Metric::CompletionP90, Delta::Better(-500.0))
        );
        assert_eq!(c[1].deltas[0], (Metric::CompletionP50, Delta::Worse(100.0)));
    }

    #[test]
    fn deadline_misses_and_interruption_cost_decide_too() {
        let base = digest(vec![
            share("a", 100.0, 1000.0, 3, 0.0),
            share("b", 100.0, 1000.0, 0, 0.0),
        ]);
        let other = digest(vec![
            share("a", 100.0, 1000.0, 5, 0.0),
            share("b", 100.0, 1000.0, 0, 2.0),
        ]);
        let c = changes(&base, &other);
        assert_eq!(c[0].verdict, Verdict::Hurts);
        assert_eq!(c[0].deltas[3], (Metric::DeadlineMisses, Delta::Worse(2.0)));
        assert_eq!(c[1].verdict, Verdict::Hurts);
        assert_eq!(
            c[1].deltas[4],
            (Metric::InterruptionCost, Delta::Worse(2.0))
        );
        assert_eq!(changes(&base, &base)[0].verdict, Verdict::Unchanged);
    }

    #[test]
    fn small_differences_are_no_change_and_undefined_values_are_not_compared() {
        assert_eq!(
            delta(Metric::CompletionP50, Some(100.0), Some(100.5)),
            Delta::Same
        );
        assert_eq!(delta(Metric::Goodput, Some(0.9), Some(0.904)), Delta::Same);
        assert_eq!(
            delta(Metric::Goodput, Some(0.9), Some(0.95)),
            Delta::Better(0.95 - 0.9)
        );
        assert_eq!(
            delta(Metric::WaitP50, None, Some(1.0)),
            Delta::NotComparable
        );
    }
}
