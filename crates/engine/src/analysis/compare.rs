//! `quotasim compare` (SPEC 9): the scenario as given beside two reference policies.

use crate::analysis::verdict::{self, Verdicts};
use crate::output::digest::ShareMetrics;
use crate::output::result::{self, Stats};
use crate::pipeline::{self, Output, Product};
use crate::{input::validate, simulation::Sim, Problem};

/// One scenario run under every policy: the validator's warnings (once), one output per
/// policy, in [`Policy::ALL`] order, `matched` completion per share and the SPEC 14 forecast
/// per share (both over the same jobs, SPEC 9.1 "like with like").
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub warnings: Vec<Problem>,
    pub runs: Vec<(Policy, Output)>,
    /// SPEC 9.1 `matched`, per share in scenario order.
    pub matched: Vec<Matched>,
    /// SPEC 14 "Allocation versus opportunity", per share in scenario order.
    pub forecast: Vec<ShareForecast>,
    /// Each run's per-share metrics, in [`Policy::ALL`] order.
    pub metrics: [Vec<ShareMetrics>; 3],
    /// Whether as given, then pooled, is the partitioned run throughout (every share's
    /// metrics, every job's end): what [`Comparison::verdicts`] calls "no difference".
    pub identical: [bool; 2],
    /// The as-given run is the pooled run, share for share and job for job (its verdict
    /// against partitioned is then the pooled one: say [`GIVEN_IS_POOLED`] instead of
    /// repeating it).
    pub given_is_pooled: bool,
}

/// What a comparison says instead of a second, identical verdict.
pub const GIVEN_IS_POOLED: &str =
    "Pooled vs partitioned: the same as given (the scenario already lends and borrows without limits).";

/// SPEC 9 `compare`: validates `text` once and runs it through the pipeline under each
/// policy, producing `product` for each (and `matched` and the SPEC 14 forecast).
pub fn run(text: &str, product: Product) -> Result<Comparison, Vec<Problem>> {
    run_each(text, |_| product)
}

/// [`run`] with a product per policy (the report keeps the as-given run whole and only the
/// metrics of the others).
pub fn run_each(
    text: &str,
    product: impl Fn(Policy) -> Product,
) -> Result<Comparison, Vec<Problem>> {
    let loaded = validate::load(text)?;
    let mut stats = Vec::new();
    let mut done = Vec::new();
    let runs = Policy::ALL
        .iter()
        .map(|&policy| {
            let scenario = match policy {
                Policy::AsGiven => std::borrow::Cow::Borrowed(&loaded.scenario),
                _ => std::borrow::Cow::Owned(policy.apply(&loaded.scenario)),
            };
            let sim = Sim::new(&scenario, product(policy).options()).run();
            stats.push(result::stats(&sim).0);
            done.push(result::job_ends(&sim));
            (policy, pipeline::output_of(&sim, product(policy)))
        })
        .collect();
    let names: Vec<&str> = loaded
        .scenario
        .shares
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    let completions: Vec<Vec<Option<(u32, crate::input::model::Ms)>>> = done
        .iter()
        .map(|d| d.iter().map(|e| e.and_then(|e| e.completion())).collect())
        .collect();
    let matched = matched(&names, [&completions[0], &completions[1], &completions[2]]);
    let forecast = forecast(&names, &stats[0], &stats[1], &matched);
    let metrics = [0, 1, 2].map(|k| {
        names
            .iter()
            .zip(&stats[k])
            .map(|(name, st)| crate::output::digest::metrics(name, st))
            .collect::<Vec<_>>()
    });
    let identical = [0, 2].map(|k| stats[k] == stats[1] && done[k] == done[1]);
    let given_is_pooled = stats[0] == stats[2] && done[0] == done[2];
    Ok(Comparison {
        warnings: loaded.warnings,
        runs,
        matched,
        forecast,
        metrics,
        identical,
        given_is_pooled,
    })
}

impl Comparison {
    /// SPEC 9.1's verdicts: as given vs partitioned, then pooled vs partitioned (worded on
    /// demand: the contract card's forecast needs the runs, not the words).
    pub fn verdicts(&self) -> [Verdicts; 2] {
        [(0, Policy::AsGiven), (1, Policy::Pooled)].map(|(i, policy)| {
            verdict::verdicts(
                (
                    Policy::Partitioned,
                    &self.metrics[Policy::Partitioned as usize],
                ),
                (policy, &self.metrics[policy as usize]),
                &self.matched,
                self.identical[i],
            )
        })
    }
}

// ---- SPEC 14: allocation versus opportunity -------------------------------------------

/// SPEC 14 "Allocation versus opportunity" for one share: its completion on its allocation
/// alone (the partitioned variant: nothing lent or borrowed) beside its completion as given,
/// both over the `matched` jobs (SPEC 9.1), the jobs that succeeded in each run, and how
/// much of its useful work (as given) was done on borrowed capacity.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ShareForecast {
    pub share: usize,
    pub name: String,
    pub allocation_alone: Completion,
    pub as_given: Completion,
    /// As given over every job of the share that succeeded (what is shown when no job
    /// matched: nothing succeeded on its allocation alone).
    pub as_given_all: Completion,
    /// Jobs of the share that succeeded: on its allocation alone, as given.
    pub succeeded_alone: u64,
    pub succeeded_given: u64,
    /// The matched jobs are under 90% of those that succeeded in either run.
    pub thin: bool,
    /// Useful instance-hours as given, and the part made in borrowed runs.
    pub useful_h: f64,
    pub useful_borrowed_h: f64,
    /// Why its completion on its allocation alone differs from as given, in one sentence
    /// (`None` when the two read the same).
    pub why: Option<String>,
}

impl ShareForecast {
    /// `useful_borrowed / useful`; `None` without useful work.
    pub fn borrowed_fraction(&self) -> Option<f64> {
        (self.useful_h > 0.0).then(|| self.useful_borrowed_h / self.useful_h)
    }
}

/// SPEC 14: the forecast per share from the metrics of the as-given and partitioned runs
/// (each indexed like `names`) and `matched` (SPEC 9.1).
pub fn forecast(
    names: &[&str],
    as_given: &[Stats],
    partitioned: &[Stats],
    matched: &[Matched],
) -> Vec<ShareForecast> {
    const MS_PER_HOUR: f64 = 3_600_000.0;
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let g = as_given.get(i).cloned().unwrap_or_default();
            let p = partitioned.get(i).cloned().unwrap_or_default();
            let m = matched.get(i).cloned().unwrap_or_default();
            // The card says why only where the figures it shows differ.
            let (alone, given) = (m.of(Policy::Partitioned), m.of(Policy::AsGiven));
            let differs = alone != given || g.jobs.succeeded != p.jobs.succeeded;
            let why = differs.then(|| why_differs(&g, &p));
            ShareForecast {
                share: i,
                name: name.to_string(),
                allocation_alone: *m.of(Policy::Partitioned),
                as_given: *m.of(Policy::AsGiven),
                as_given_all: Completion {
                    n: g.completion.n,
                    p50_s: g.completion.p50,
                    p90_s: g.completion.p90,
                },
                succeeded_alone: p.jobs.succeeded,
                succeeded_given: g.jobs.succeeded,
                thin: m.thin(Policy::AsGiven, Policy::Partitioned),
                useful_h: g.time.useful as f64 / MS_PER_HOUR,
                useful_borrowed_h: g.time.useful_borrowed as f64 / MS_PER_HOUR,
                why,
            }
        })
        .collect()
}

/// Why a share's run as given differs from its run on its allocation alone, in one
/// sentence, from the as-given run's own numbers: borrowing, reclaims, lending, in that
/// order of directness.
fn why_differs(g: &Stats, p: &Stats) -> String {
    let borrowed = g.time.useful_borrowed > 0;
    let reclaimed = g.reclaim + g.reclaim_while_borrowing > p.reclaim + p.reclaim_while_borrowing;
    let lent = g.time.lent > 0.0;
    match (borrowed, reclaimed, lent) {
        (true, true, _) => "It ran part of its work on borrowed capacity, and borrowed runs of its jobs were reclaimed.",
        // In both models' words (a share, a ClusterQueue: "others").
        (true, false, _) => "It ran part of its work on capacity it borrowed from others.",
        (false, true, _) => "Its jobs' borrowed runs were reclaimed before they kept any work.",
        (false, false, true) => "Others borrowed its idle capacity, and waiting for reclaims delayed its jobs.",
        (false, false, false) => "Others' borrowing changed when capacity was free for its jobs.",
    }
    .to_string()
}

/// The forecast as JSON: `{share: {"allocation_alone": {"n", "succeeded", "p50_s",
/// "p90_s"}, "as_given": {..}, "useful_h", "useful_borrowed_h", "useful_borrowed_fraction",
/// "why"}}`: `n` matched jobs (SPEC 9.1) the percentiles are over, `succeeded` the jobs that
/// succeeded in that run, the fraction `null` without useful work, `why` the sentence on why
/// the two runs differ (`null` when they do not).
pub fn forecast_json(f: &[ShareForecast]) -> String {
    use crate::output::json::{num, string};
    let completion = |c: &Completion, succeeded: u64| {
        format!(
            "{{\"n\":{},\"succeeded\":{succeeded},\"p50_s\":{},\"p90_s\":{}}}",
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
            "{}:{{\"allocation_alone\":{},\"as_given\":{},\"useful_h\":{},\"useful_borrowed_h\":{},\"useful_borrowed_fraction\":{},\"why\":{}}}",
            string(&s.name),
            completion(&s.allocation_alone, s.succeeded_alone),
            completion(&s.as_given, s.succeeded_given),
            num(s.useful_h),
            num(s.useful_borrowed_h),
            s.borrowed_fraction().map_or_else(|| "null".to_string(), num),
            s.why.as_deref().map_or_else(|| "null".to_string(), string)
        ));
    }
    out.push('}');
    out
}

/// The forecast as an aligned table (`quotasim compare --summary`): completion over the
/// matched jobs, one unit per share.
pub fn forecast_table(f: &[ShareForecast]) -> String {
    let mut rows = vec![[
        "share".to_string(),
        "matched".to_string(),
        "p50 alone".to_string(),
        "p90 alone".to_string(),
        "p50 given".to_string(),
        "p90 given".to_string(),
        "useful h".to_string(),
        "on borrowed".to_string(),
    ]];
    for s in f {
        let (a, g) = (&s.allocation_alone, &s.as_given);
        let scale = verdict::Unit::Seconds.scale_for(&[a.p50_s, a.p90_s, g.p50_s, g.p90_s]);
        let cell = |x: f64| {
            if a.n == 0 {
                "-".to_string()
            } else {
                scale.show(x)
            }
        };
        rows.push([
            s.name.clone(),
            format!("{} of {}", a.n, s.succeeded_alone.max(s.succeeded_given)),
            cell(a.p50_s),
            cell(a.p90_s),
            cell(g.p50_s),
            cell(g.p90_s),
            format!("{:.2}", s.useful_h),
            s.borrowed_fraction()
                .map_or_else(|| "-".to_string(), |x| format!("{:.1}%", x * 100.0)),
        ]);
    }
    let mut out = aligned(&rows, 1);
    out.push_str(
        "alone = completion on the share's allocation alone (partitioned: nothing lent or borrowed); \
         given = as given; both over the matched jobs; on borrowed = part of useful work done in \
         runs dispatched while borrowing\n",
    );
    for s in f {
        if let Some(why) = &s.why {
            out.push_str(&format!("{}: {why}\n", s.name));
        }
    }
    out
}

pub use super::matched::{matched, matched_json, Completion, Matched};
pub use super::verdict::{changes, delta, Better, Delta, Metric, ShareChange, Verdict};
pub use crate::input::variant::{partitioned, pooled, Policy, POOLED_COHORT};

/// `quotasim compare`'s JSON (SPEC 9): `{"as_given":R,"partitioned":R,"pooled":R,
/// "matched":M,"forecast":F}`, from a comparison run with [`Product::ResultJson`].
pub fn json_text(c: Comparison) -> String {
    let mut out = String::from("{");
    for (i, (policy, output)) in c.runs.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            "\"{}\":{}",
            policy.as_str(),
            output.into_text().unwrap_or_default()
        ));
    }
    out.push_str(&format!(",\"matched\":{}", matched_json(&c.matched)));
    out.push_str(&format!(",\"forecast\":{}", forecast_json(&c.forecast)));
    out.push('}');
    out
}

/// `quotasim compare --summary`: the verdicts first (SPEC 9.1), then each policy's table,
/// the matched completion with each policy's job counts, and the forecast; from a
/// comparison run with [`Product::SummaryTable`].
pub fn summary_text(c: Comparison) -> String {
    let mut out = String::from("== verdict ==\n");
    for (k, v) in c.verdicts().iter().enumerate() {
        if k == 1 && c.given_is_pooled {
            out.push_str(GIVEN_IS_POOLED);
            out.push('\n');
            continue;
        }
        out.push_str(&v.headline());
        out.push('\n');
        if !v.identical {
            for s in &v.shares {
                out.push_str(&format!("  {}\n", s.sentence()));
            }
        }
    }
    out.push('\n');
    for (policy, output) in c.runs {
        out.push_str(&format!(
            "== {} ==\n{}\n",
            policy.as_str(),
            output.into_text().unwrap_or_default()
        ));
    }
    out.push_str("== matched completion ==\n");
    out.push_str(&matched_table(&c.matched, &c.metrics));
    out.push_str(&format!(
        "\n== forecast ==\n{}",
        forecast_table(&c.forecast)
    ));
    out
}

/// Per share and policy: succeeded / unfinished / failed jobs and completion p50 and p90
/// over the matched jobs, one unit per share (SPEC 9.1).
pub fn matched_table(m: &[Matched], metrics: &[Vec<ShareMetrics>; 3]) -> String {
    let mut rows = vec![[
        "share".to_string(),
        "policy".to_string(),
        "succeeded".to_string(),
        "unfinished".to_string(),
        "failed".to_string(),
        "matched".to_string(),
        "p50".to_string(),
        "p90".to_string(),
    ]];
    for s in m {
        let values: Vec<f64> = s.runs.iter().flat_map(|c| [c.p50_s, c.p90_s]).collect();
        let scale = verdict::Unit::Seconds.scale_for(&values);
        for (k, policy) in Policy::ALL.iter().enumerate() {
            let Some(sm) = metrics[k].get(s.share) else {
                continue;
            };
            let c = s.of(*policy);
            let pct = |v: f64| {
                if c.n == 0 {
                    "-".to_string()
                } else {
                    scale.show(v)
                }
            };
            rows.push([
                if k == 0 {
                    s.name.clone()
                } else {
                    String::new()
                },
                policy.as_str().to_string(),
                sm.succeeded.to_string(),
                sm.unfinished.to_string(),
                sm.failed.to_string(),
                s.n.to_string(),
                pct(c.p50_s),
                pct(c.p90_s),
            ]);
        }
    }
    let mut out = aligned(&rows, 2);
    out.push_str(
        "matched = jobs of the share that succeeded under all three policies; p50 and p90 are over them\n",
    );
    out
}

/// Rows as an aligned table: the first two columns left-aligned, the rest right-aligned.
pub(crate) fn aligned<const N: usize>(rows: &[[String; N]], left: usize) -> String {
    let widths: Vec<usize> = (0..N)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let w = widths[c];
            let sep = if c == 0 { "" } else { "  " };
            if c < left {
                line.push_str(&format!("{sep}{cell:<w$}"));
            } else {
                line.push_str(&format!("{sep}{cell:>w$}"));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
