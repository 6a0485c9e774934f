//! Reviewing a change (SPEC 16, "Reviewing a change"): two configurations, CURRENT and
//! PROPOSED, run on the same jobs for N seeds; per share, what the proposal changes in
//! completion (over matched jobs, SPEC 9.1), wait, deadline misses, preemptions and
//! borrowing, each with its 10th-90th band over the seeds, worst first; and `--fail-on`
//! rules that turn a change into a failed check, so a quota change is reviewed in CI like
//! code.
//!
//! - **Inputs.** CURRENT and PROPOSED are texts in any format of SPEC 13 (AWS Batch JSON,
//!   Kueue YAML: [`config::detect`] and [`config::import`]) or scenarios (`"format":
//!   "quotalab/v1"`). From a scenario, the configuration is its `model`, `shares`,
//!   `cohorts`, `fair_sharing`, `priority_classes`, `instance_types`, `capacity` and
//!   `queue`; everything else comes with the jobs.
//! - **The jobs** ([`JobsSource`]): a scenario given with `--jobs` (its workloads, jobs,
//!   events, seed, horizon, ...), else CURRENT's when CURRENT is a scenario with jobs or
//!   workloads. Both configurations get the same jobs through [`config::merge_into`]
//!   (SPEC 13 `--into`): a job of a share one of them lacks is an error naming it.
//! - **Seeds.** Run `k` uses seed `seed + k` of the jobs' scenario, as a sweep does
//!   ([`Sweep::variant`]); the seed changes only what is random (generated workloads,
//!   SPEC 14's recovery draws). Without `--seeds`: 1 when nothing is random, else
//!   [`DEFAULT_RANDOM_SEEDS`].
//! - **Metrics** ([`Metric`]), per share and seed, PROPOSED - CURRENT: completion p50/p90
//!   over the jobs of the share that succeeded in both runs of that seed (by job id; a
//!   job counts in the share CURRENT ended it in), SPEC 8's `wait_s` mean and p90,
//!   `deadline_misses`, preemptions (every cause of SPEC 8's `preemptions` block, with the
//!   Kueue model's two more), `instance_hours.borrowed` and the borrowed fraction of the
//!   share's quota use (`borrowed / (own + borrowed)`).
//! - **Over seeds.** `current` and `proposed` are the medians of each run's value; `change`
//!   is the median of the per-seed changes, with its 10th-90th band (nearest rank, as
//!   [`sweep::band`]); `relative` is `change / current` (none when `current` is 0 and
//!   `change` is not).
//! - **Worst first** ([`worse`]): largest relative increase of completion p90 first (an
//!   increase from 0 counts as infinite), then the largest increase of deadline misses,
//!   then of wait p90, then CURRENT's share order.
//! - **Rules** ([`Rule`], `METRIC OP THRESHOLD`: `deadline_misses>0`,
//!   `completion_p90>+10%`; OP `>`, `<`, `>=`, `<=`): a threshold with `%` compares the
//!   relative change, a plain number the change itself in the metric's unit. A rule is
//!   checked on the median change of each share; a metric that did not change in any seed
//!   never crosses a rule (identical configurations never fail a review, whatever the
//!   rules).

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use serde_json::{Map, Value};

use crate::analysis::compare;
use crate::analysis::sweep::{self, Sweep};
use crate::analysis::verdict::{self, Unit, Verdict};
use crate::config::{self, ImportOptions, Imported};
use crate::input::digits::group_digits;
use crate::input::model::{Model, Ms, Scenario};
use crate::input::path::Path;
use crate::input::validate;
use crate::output::json::{num, string};
use crate::output::stats::{job_ends, stats, Percentiles, Stats, MS_PER_HOUR};
use crate::simulation::{Options, Sim};
use crate::{InFile, Problem};

/// Seeds run without `--seeds` when the jobs have something random.
pub const DEFAULT_RANDOM_SEEDS: u64 = 10;
/// At most this many seeds: each is two full runs.
pub const MAX_SEEDS: u64 = 1000;

// ---- rules ---------------------------------------------------------------------------

/// A per-share metric a review compares (SPEC 16, named after SPEC 8's fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    /// Completion p50 over matched jobs (s).
    CompletionP50,
    /// Completion p90 over matched jobs (s).
    CompletionP90,
    /// `wait_s.mean` (s).
    WaitMean,
    /// `wait_s.p90` (s).
    WaitP90,
    /// `deadline_misses` (jobs).
    DeadlineMisses,
    /// Every preemption cause of `preemptions` (preemptions).
    Preemptions,
    /// `instance_hours.borrowed` (instance-hours).
    BorrowedH,
    /// `borrowed / (own + borrowed)` of `instance_hours` (0 to 1).
    BorrowedFraction,
}

impl Metric {
    pub const ALL: [Metric; 8] = [
        Metric::CompletionP50,
        Metric::CompletionP90,
        Metric::WaitMean,
        Metric::WaitP90,
        Metric::DeadlineMisses,
        Metric::Preemptions,
        Metric::BorrowedH,
        Metric::BorrowedFraction,
    ];

    /// The name rules and the JSON use.
    pub fn name(self) -> &'static str {
        match self {
            Metric::CompletionP50 => "completion_p50",
            Metric::CompletionP90 => "completion_p90",
            Metric::WaitMean => "wait_mean",
            Metric::WaitP90 => "wait_p90",
            Metric::DeadlineMisses => "deadline_misses",
            Metric::Preemptions => "preemptions",
            Metric::BorrowedH => "borrowed_h",
            Metric::BorrowedFraction => "borrowed_fraction",
        }
    }

    /// The unit of its values and of a rule's absolute threshold.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::CompletionP50 | Metric::CompletionP90 | Metric::WaitMean | Metric::WaitP90 => {
                "s"
            }
            Metric::DeadlineMisses => "jobs",
            Metric::Preemptions => "preemptions",
            Metric::BorrowedH => "h",
            Metric::BorrowedFraction => "fraction",
        }
    }

    /// Decimals the table prints.
    fn decimals(self) -> usize {
        match self {
            Metric::DeadlineMisses | Metric::Preemptions => 0,
            Metric::BorrowedH => 2,
            Metric::BorrowedFraction => 3,
            _ => 1,
        }
    }

    pub fn parse(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The metric's value in one run of a share (matched completion aside).
    fn of(self, st: &Stats, matched: &Percentiles) -> f64 {
        let t = &st.time;
        match self {
            Metric::CompletionP50 => matched.p50,
            Metric::CompletionP90 => matched.p90,
            Metric::WaitMean => st.wait.mean,
            Metric::WaitP90 => st.wait.p90,
            Metric::DeadlineMisses => st.deadline_misses as f64,
            Metric::Preemptions => {
                (st.reclaim + st.in_share + st.reclaim_while_borrowing + st.fair_sharing) as f64
            }
            Metric::BorrowedH => t.borrowed as f64 / MS_PER_HOUR,
            Metric::BorrowedFraction => {
                let used = t.own + t.borrowed;
                if used == 0 {
                    0.0
                } else {
                    t.borrowed as f64 / used as f64
                }
            }
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule's comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Gt,
    Lt,
    Ge,
    Le,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Gt => ">",
            Op::Lt => "<",
            Op::Ge => ">=",
            Op::Le => "<=",
        }
    }
    fn holds(self, value: f64, threshold: f64) -> bool {
        match self {
            Op::Gt => value > threshold,
            Op::Lt => value < threshold,
            Op::Ge => value >= threshold,
            Op::Le => value <= threshold,
        }
    }
}

/// What a rule's threshold compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Threshold {
    /// `+10%`: the change relative to CURRENT, as a fraction (0.10).
    Relative(f64),
    /// `0`, `600`: the change itself, in the metric's unit.
    Absolute(f64),
}

/// One `--fail-on METRIC OP THRESHOLD`.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// As written (spaces removed).
    pub text: String,
    pub metric: Metric,
    pub op: Op,
    pub threshold: Threshold,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Rule {
    /// The rule in words, for the page and the report (the CLI keeps it as written): what
    /// change of the metric crosses it. `completion_p90>+10%` is "p90 completion rises by
    /// more than 10%", `deadline_misses>0` "deadline misses rise", `wait_p90<-600` "p90 wait
    /// falls by more than 10 min", `borrowed_fraction>0.05` "borrowed part of its use rises
    /// by more than 5 points".
    pub fn words(&self) -> String {
        let j = self.metric.judged();
        let (subject, plural) = match self.metric {
            Metric::BorrowedH => ("borrowing", false),
            Metric::DeadlineMisses | Metric::Preemptions => (j.phrase, true),
            _ => (j.phrase, false),
        };
        let (rise, fall, not) = if plural {
            ("rise", "fall", "do not")
        } else {
            ("rises", "falls", "does not")
        };
        let (x, amount) = match self.threshold {
            Threshold::Relative(r) => (r, format!("{}%", plain(r.abs() * 100.0))),
            Threshold::Absolute(x) => {
                let a = x.abs();
                let amount = match j.unit {
                    Unit::Seconds => crate::output::numbers::duration(a),
                    Unit::InstanceHours => format!("{} inst.-h", plain(a)),
                    Unit::Fraction => {
                        let pts = plain(a * 100.0);
                        let s = if pts == "1" { "" } else { "s" };
                        format!("{pts} point{s}")
                    }
                    Unit::Count | Unit::Usd => plain(a),
                };
                (x, amount)
            }
        };
        let how = match (self.op, x.partial_cmp(&0.0)) {
            (Op::Gt, Some(std::cmp::Ordering::Greater)) => format!("{rise} by more than {amount}"),
            (Op::Ge, Some(std::cmp::Ordering::Greater)) => format!("{rise} by {amount} or more"),
            (Op::Gt, Some(std::cmp::Ordering::Less)) => format!("{not} fall by {amount} or more"),
            (Op::Ge, Some(std::cmp::Ordering::Less)) => format!("{not} fall by more than {amount}"),
            (Op::Gt, _) => rise.to_string(),
            (Op::Ge, _) => format!("{not} fall"),
            (Op::Lt, Some(std::cmp::Ordering::Less)) => format!("{fall} by more than {amount}"),
            (Op::Le, Some(std::cmp::Ordering::Less)) => format!("{fall} by {amount} or more"),
            (Op::Lt, Some(std::cmp::Ordering::Greater)) => {
                format!("{not} rise by {amount} or more")
            }
            (Op::Le, Some(std::cmp::Ordering::Greater)) => {
                format!("{not} rise by more than {amount}")
            }
            (Op::Lt, _) => fall.to_string(),
            (Op::Le, _) => format!("{not} rise"),
        };
        format!("{subject} {how}")
    }
}

/// `x` as typed: no trailing zeros (`10`, `0.5`), six decimals at most.
fn plain(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    group_digits_str(s)
}

/// `12345.5` with thousands separators in its whole part (`12,345.5`).
fn group_digits_str(s: &str) -> String {
    let (whole, frac) = s.split_once('.').map_or((s, None), |(w, f)| (w, Some(f)));
    let grouped = whole
        .parse::<u64>()
        .map_or_else(|_| whole.to_string(), group_digits);
    match frac {
        Some(f) => format!("{grouped}.{f}"),
        None => grouped,
    }
}

/// The metric names, for messages.
pub fn metric_names() -> String {
    Metric::ALL
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses a `--fail-on` rule (SPEC 16): `METRIC OP THRESHOLD`, OP one of `>`, `<`, `>=`,
/// `<=`, THRESHOLD a number (an absolute change, in the metric's unit) or a signed or
/// unsigned percentage (`+10%`, `-5%`, `10%`: a relative change). Spaces are allowed. A
/// problem names `--fail-on` and says what is wrong; an unknown metric lists the metrics.
pub fn parse_rule(arg: &str) -> Result<Rule, Problem> {
    let text: String = arg.chars().filter(|c| !c.is_whitespace()).collect();
    let bad = |msg: String| {
        Problem::new(
            Path::named("--fail-on"),
            format!(
                "{arg:?}: {msg} (expected METRIC OP THRESHOLD, e.g. 'deadline_misses>0' or 'completion_p90>+10%'; metrics: {})",
                metric_names()
            ),
        )
    };
    let Some(at) = text.find(['>', '<']) else {
        return Err(bad("no comparison (>, <, >= or <=)".into()));
    };
    let (name, rest) = text.split_at(at);
    let (op, value) = if let Some(v) = rest.strip_prefix(">=") {
        (Op::Ge, v)
    } else if let Some(v) = rest.strip_prefix("<=") {
        (Op::Le, v)
    } else if let Some(v) = rest.strip_prefix('>') {
        (Op::Gt, v)
    } else {
        (Op::Lt, &rest[1..])
    };
    if name.is_empty() {
        return Err(bad("no metric before the comparison".into()));
    }
    let Some(metric) = Metric::parse(name) else {
        return Err(bad(format!("unknown metric \"{name}\"")));
    };
    let (number, relative) = match value.strip_suffix('%') {
        Some(n) => (n, true),
        None => (value, false),
    };
    let x = match number.parse::<f64>() {
        Ok(x) if x.is_finite() && !number.is_empty() => x,
        _ => {
            return Err(bad(format!(
                "threshold \"{value}\" is not a number or a percentage"
            )))
        }
    };
    Ok(Rule {
        text,
        metric,
        op,
        threshold: if relative {
            Threshold::Relative(x / 100.0)
        } else {
            Threshold::Absolute(x)
        },
    })
}

// ---- inputs --------------------------------------------------------------------------

/// One input file: its name (for messages) and its text.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// Where the jobs both configurations run come from. Extension point: a job history
/// (SPEC 16 `import history`, `config::history`) becomes a variant here, turned into a
/// scenario's jobs where `jobs_base` reads the others.
#[derive(Clone, Copy, Debug)]
pub enum JobsSource<'a> {
    /// CURRENT's workloads, jobs and events (CURRENT must be a scenario that has some).
    Current,
    /// `--jobs FILE`: a scenario whose workloads, jobs, events (and seed, horizon, ...)
    /// are used.
    Scenario(Input<'a>),
}

/// What a review is asked.
#[derive(Clone, Debug, Default)]
pub struct ReviewOptions {
    /// `--seeds`; `None`: 1 when nothing is random, else [`DEFAULT_RANDOM_SEEDS`].
    pub seeds: Option<u64>,
    /// How AWS and Kueue files are read (`--resource`, `--flavor-map`, `--queue`).
    pub import: ImportOptions,
    /// `--fail-on` rules.
    pub rules: Vec<Rule>,
    /// What to do with the jobs of a share a side lacks (SPEC 13 `--into`): refused, as
    /// the CLI does (the default), or moved to the share mapped, else dropped, with a
    /// warning each (the page's review, as its import dialog does: [`Review::unknown`]).
    pub unknown: config::UnknownShares,
}

/// Which side of the review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Current,
    Proposed,
}

impl Side {
    fn label(self) -> &'static str {
        match self {
            Side::Current => "CURRENT",
            Side::Proposed => "PROPOSED",
        }
    }
}

/// Parses a scenario's text as a JSON object, or `None` when it is not a scenario (a
/// configuration, then): a JSON object whose `format` is `"quotalab/v1"`, or that has no
/// `format` (the validator assumes it, with a warning) but `shares` (no AWS body has them).
fn as_scenario(text: &str) -> Option<Map<String, Value>> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if !t.starts_with('{') {
        return None;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(Value::Object(m)) => {
            let scenario = match m.get("format") {
                Some(f) => f.as_str() == Some("quotalab/v1"),
                None => m.contains_key("shares"),
            };
            scenario.then_some(m)
        }
        _ => None,
    }
}

/// The configuration fields a scenario given as CURRENT or PROPOSED contributes.
const CONFIG_KEYS: [&str; 8] = [
    "model",
    "shares",
    "cohorts",
    "fair_sharing",
    "priority_classes",
    "instance_types",
    "capacity",
    "queue",
];

/// One side's configuration as an import: a scenario's configuration fields, or an AWS /
/// Kueue file imported (SPEC 13: at most [`config::MAX_FILE_BYTES`]). Problems name the
/// file.
fn configuration(input: Input, opts: &ImportOptions) -> Result<Imported, Vec<Problem>> {
    if let Some(doc) = as_scenario(input.text) {
        let mut m = Map::new();
        m.insert("format".into(), Value::from("quotalab/v1"));
        for k in CONFIG_KEYS {
            if let Some(v) = doc.get(k) {
                m.insert(k.to_string(), v.clone());
            }
        }
        let scenario = Value::Object(m);
        return Ok(Imported {
            scenario_json: scenario.to_string(),
            scenario,
            warnings: Vec::new(),
            unfinished: Vec::new(),
        });
    }
    // SPEC 13's bound holds for configuration files; a scenario is read as `run` reads one.
    if input.text.len() > config::MAX_FILE_BYTES {
        return Err(vec![Problem::new(
            Path::named(input.name),
            format!(
                "is {} bytes, over the {} MiB limit",
                input.text.len(),
                config::MAX_FILE_BYTES / (1024 * 1024)
            ),
        )]);
    }
    let Some(format) = config::detect(input.text) else {
        return Err(vec![Problem::new(
            Path::named(input.name),
            "is empty: expected a scenario, AWS Batch JSON or Kueue YAML",
        )]);
    };
    config::import(input.text, format, opts).map_err(|ps| {
        ps.into_iter()
            .map(|p| p.in_file(input.name, ""))
            .collect::<Vec<_>>()
    })
}

/// The scenario whose jobs, workloads and events both sides run (SPEC 16: "the history, or
/// CURRENT's workloads and jobs"), with the name of the file it came from. A `--jobs` file
/// that is not a scenario is read as a job history (Kueue Workloads, AWS Batch jobs:
/// `config::history`) on CURRENT's shares.
fn jobs_base<'a>(
    source: JobsSource<'a>,
    current: Input<'a>,
    import: &ImportOptions,
) -> Result<(Map<String, Value>, &'a str), Vec<Problem>> {
    let has_jobs = |m: &Map<String, Value>| {
        ["jobs", "workloads"].iter().any(|k| {
            m.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|l| !l.is_empty())
        })
    };
    match source {
        JobsSource::Scenario(input) => {
            if let Some(m) = as_scenario(input.text) {
                if !has_jobs(&m) {
                    return Err(vec![Problem::new(
                        Path::named(input.name),
                        "has no jobs and no workloads: --jobs takes a scenario with jobs or workloads, or a job history (Kueue Workloads, AWS Batch jobs)",
                    )]);
                }
                return Ok((m, input.name));
            }
            // A job history, replayed on CURRENT's shares.
            let opts = crate::config::history::HistoryOptions {
                resource: import.resource.clone(),
                flavor_map: import.flavor_map.clone(),
                queue: import.queue.clone(),
                from: None,
                to: None,
            };
            let config = [(current.name, current.text)];
            let shares = if as_scenario(current.text).is_some() {
                crate::config::history::Shares::Scenario(current.name, current.text)
            } else {
                crate::config::history::Shares::Config {
                    files: &config,
                    into: None,
                }
            };
            let imported =
                crate::config::history::import(&[(input.name, input.text)], shares, &opts)?;
            match imported.scenario {
                Value::Object(m) => Ok((m, input.name)),
                _ => Err(vec![Problem::new(
                    Path::named(input.name),
                    "the job history gave no scenario",
                )]),
            }
        }
        JobsSource::Current => match as_scenario(current.text) {
            Some(m) if has_jobs(&m) => Ok((m, current.name)),
            // The page says it without the command line's CURRENT and --jobs (issue #34).
            _ => Err(vec![Problem::new(
                Path::named(current.name),
                "CURRENT has no jobs or workloads: give the jobs to run with --jobs FILE (a scenario whose workloads, jobs and events both configurations run, or a job history: Kueue Workloads, AWS Batch jobs)",
            )
            .about(
                "",
                &[],
                "",
                "The scenario has no jobs or workloads for both configurations to run: import a job history (Kueue Workloads, AWS Batch jobs) or give the scenario jobs first",
            )]),
        },
    }
}

/// How problems of one side's merged scenario name it: `proposed.yaml` in the role
/// `(PROPOSED) with the jobs of jobs.json`.
fn place(side: Side, file: &str, jobs_file: &str) -> InFile {
    let role = if file == jobs_file {
        format!("({})", side.label())
    } else {
        format!("({}) with the jobs of {jobs_file}", side.label())
    };
    InFile {
        name: file.to_string(),
        role,
    }
}

/// A problem of one side's merged scenario, placed in it.
fn in_place(place: &InFile, p: Problem) -> Problem {
    p.in_file(&place.name, &place.role)
}

/// SPEC 16: one side's scenario, its configuration with the jobs of `base` (SPEC 13
/// `--into`); problems name the side's file and the jobs' file.
fn side_scenario(
    side: Side,
    input: Input,
    base: &Map<String, Value>,
    jobs_file: &str,
    opts: &ImportOptions,
    unknown: &config::UnknownShares,
) -> Result<SideScenario, Vec<Problem>> {
    let imported = configuration(input, opts)?;
    let mut warnings: Vec<Problem> = imported
        .warnings
        .iter()
        .cloned()
        .map(|p| p.in_file(input.name, ""))
        .collect();
    let place = place(side, input.name, jobs_file);
    let base_text = Value::Object(base.clone()).to_string();
    let lacked = config::unknown_shares(&imported, &base_text);
    let merged = config::merge_into_with(&imported, &base_text, unknown).map_err(|ps| {
        ps.into_iter()
            .map(|p| in_place(&place, p))
            .collect::<Vec<_>>()
    })?;
    // The jobs moved or dropped (only with `unknown` resolving them), named in this side.
    let moved = merged
        .warnings
        .iter()
        .skip(imported.warnings.len())
        .cloned();
    warnings.extend(moved.map(|p| in_place(&place, p)));
    let mut doc = merged.scenario;
    if let (Some(q), Value::Object(m)) = (imported.scenario.get("queue"), &mut doc) {
        m.insert("queue".into(), q.clone());
    }
    // A scenario's own jobs are not run when the jobs come from elsewhere: say so.
    if input.name != jobs_file {
        if let Some(own) = as_scenario(input.text) {
            let differs = ["jobs", "workloads", "events"].iter().any(|k| {
                let non_empty = own
                    .get(*k)
                    .and_then(Value::as_array)
                    .is_some_and(|l| !l.is_empty());
                non_empty && own.get(*k) != base.get(*k)
            });
            if differs {
                warnings.push(
                    Problem::whole(format!(
                        "its own jobs, workloads and events are not run: both configurations run those of {jobs_file}"
                    ))
                    .in_file(input.name, ""),
                );
            }
        }
    }
    Ok((doc.to_string(), warnings, lacked))
}

/// A side's scenario text, its warnings, and the shares the jobs name that it lacks.
type SideScenario = (String, Vec<Problem>, Vec<config::UnknownShare>);

// ---- running -------------------------------------------------------------------------

/// One metric of one share over the seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricChange {
    pub metric: Metric,
    /// Median over seeds of CURRENT's and PROPOSED's values.
    pub current: f64,
    pub proposed: f64,
    /// 10th percentile, median and 90th percentile over seeds of PROPOSED - CURRENT.
    pub band: [f64; 3],
    /// PROPOSED differs from CURRENT in at least one seed.
    pub changed: bool,
}

impl MetricChange {
    /// From each seed's `(current, proposed)`.
    pub fn of(metric: Metric, pairs: &[(f64, f64)]) -> MetricChange {
        let mut c: Vec<f64> = pairs.iter().map(|p| p.0).collect();
        let mut p: Vec<f64> = pairs.iter().map(|p| p.1).collect();
        let mut d: Vec<f64> = pairs.iter().map(|(c, p)| p - c).collect();
        MetricChange {
            metric,
            current: sweep::band(&mut c)[1],
            proposed: sweep::band(&mut p)[1],
            band: sweep::band(&mut d),
            changed: pairs.iter().any(|(c, p)| c != p),
        }
    }

    /// The median change, PROPOSED - CURRENT.
    pub fn change(&self) -> f64 {
        self.band[1]
    }

    /// `change / current`; `None` when CURRENT is 0 and the change is not (0 when both are).
    pub fn relative(&self) -> Option<f64> {
        let d = self.change();
        if self.current == 0.0 {
            (d == 0.0).then_some(0.0)
        } else {
            Some(d / self.current)
        }
    }

    /// [`MetricChange::relative`] with a change from 0 as an infinite one (its sign).
    fn relative_or_infinite(&self) -> f64 {
        self.relative().unwrap_or(if self.change() > 0.0 {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        })
    }
}

/// Job counts of one share, the medians over seeds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    pub succeeded: f64,
    pub failed: f64,
    pub unfinished: f64,
}

/// One share's review.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareReview {
    pub name: String,
    /// Matched jobs (succeeded in both runs of a seed): the median over seeds.
    pub matched: f64,
    /// In some seed the matched jobs are under 90% of those that succeeded in either run
    /// (SPEC 9.1: a completion verdict must say so).
    pub thin: bool,
    pub current_jobs: Counts,
    pub proposed_jobs: Counts,
    /// In [`Metric::ALL`] order.
    pub metrics: Vec<MetricChange>,
}

impl ShareReview {
    pub fn metric(&self, m: Metric) -> &MetricChange {
        &self.metrics[m as usize]
    }
}

/// A rule a share crossed.
#[derive(Clone, Debug, PartialEq)]
pub struct Crossing {
    pub share: String,
    pub rule: Rule,
    /// The share's change of the rule's metric.
    pub change: MetricChange,
}

/// A finished review.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub current: String,
    pub proposed: String,
    /// The file the jobs came from.
    pub jobs: String,
    /// The seeds run, in order.
    pub seeds: Vec<u64>,
    /// Shares in both configurations, worst first ([`worse`]).
    pub shares: Vec<ShareReview>,
    /// Shares only one configuration has (they have no jobs: the jobs run in both).
    pub only_current: Vec<String>,
    pub only_proposed: Vec<String>,
    pub rules: Vec<Rule>,
    /// Every (share, rule) crossed, shares worst first, rules in the order given.
    pub crossings: Vec<Crossing>,
    /// Import and validation warnings, each once.
    pub warnings: Vec<Problem>,
    /// The shares the jobs name that PROPOSED lacks (what [`ReviewOptions::unknown`]
    /// decided about, as [`config::unknown_shares`] says it for an import), and PROPOSED's
    /// shares, the ones they may move to.
    pub unknown: Vec<config::UnknownShare>,
    pub proposed_shares: Vec<String>,
    /// CURRENT's model (the words a page uses for a share).
    pub model: Model,
}

impl Review {
    /// Whether any rule was crossed (the CLI exits 1).
    pub fn failed(&self) -> bool {
        !self.crossings.is_empty()
    }

    /// The shares that crossed `rule`, worst first.
    pub fn crossed_by(&self, rule: &Rule) -> Vec<&str> {
        self.crossings
            .iter()
            .filter(|c| c.rule == *rule)
            .map(|c| c.share.as_str())
            .collect()
    }
}

/// SPEC 16 `quotasim review`: runs CURRENT and PROPOSED on the same jobs for each seed and
/// compares them per share ([`Plan::new`], every [`Plan::run`] in order, [`Plan::finish`]).
/// Every problem (unreadable files, a job of a share the proposal removes, an invalid merged
/// scenario, `--seeds 0`) names its file and path.
pub fn review(
    current: Input,
    proposed: Input,
    jobs: JobsSource,
    opts: &ReviewOptions,
) -> Result<Review, Vec<Problem>> {
    let plan = Plan::new(current, proposed, jobs, opts)?;
    let runs = (0..plan.seeds().len())
        .map(|k| plan.run(k))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(plan.finish(runs))
}

/// One side of a planned review: its scenario as written (seed 0), the sweep that makes its
/// other seeds, and how its problems name it.
#[derive(Clone, Debug)]
struct PlanSide {
    first: Scenario,
    sweep: Sweep,
    place: InFile,
}

impl PlanSide {
    /// The side's scenario for seed `k` (0: as written).
    fn scenario(&self, k: usize) -> Result<std::borrow::Cow<'_, Scenario>, Vec<Problem>> {
        if k == 0 {
            return Ok(std::borrow::Cow::Borrowed(&self.first));
        }
        validate::load_value(&self.sweep.variant(k).0)
            .map(|l| std::borrow::Cow::Owned(l.scenario))
            .map_err(|ps| ps.into_iter().map(|p| in_place(&self.place, p)).collect())
    }
}

/// A planned review: both sides read, merged with the jobs and validated, the seeds
/// decided. [`Plan::run`] runs one seed and is pure and `Sync`, so a caller may run the
/// seeds on as many threads as it likes; [`Plan::finish`] compares them (given in seed
/// order, whatever order they ran in).
#[derive(Clone, Debug)]
pub struct Plan {
    current: String,
    proposed: String,
    jobs: String,
    sides: [PlanSide; 2],
    seeds: Vec<u64>,
    /// The shares both sides have: (name, index in CURRENT, index in PROPOSED), CURRENT's
    /// order.
    shared: Vec<(String, usize, usize)>,
    only_current: Vec<String>,
    only_proposed: Vec<String>,
    rules: Vec<Rule>,
    warnings: Vec<Problem>,
    /// The shares the jobs name that PROPOSED lacks, and PROPOSED's shares.
    unknown: Vec<config::UnknownShare>,
    proposed_shares: Vec<String>,
}

impl Plan {
    /// Reads both sides and the jobs, validates each side as written (seed 0; its warnings
    /// kept) and decides the seeds. Refuses with every problem, each naming its file.
    pub fn new(
        current: Input,
        proposed: Input,
        jobs: JobsSource,
        opts: &ReviewOptions,
    ) -> Result<Plan, Vec<Problem>> {
        let (base, jobs_file) = jobs_base(jobs, current, &opts.import)?;
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let mut sides = Vec::new();
        let mut unknown = Vec::new();
        for (side, input) in [(Side::Current, current), (Side::Proposed, proposed)] {
            match side_scenario(side, input, &base, jobs_file, &opts.import, &opts.unknown) {
                Ok((text, w, lacked)) => {
                    push_new(&mut warnings, w);
                    sides.push((place(side, input.name, jobs_file), text));
                    if side == Side::Proposed {
                        unknown = lacked;
                    }
                }
                Err(mut e) => errors.append(&mut e),
            }
        }
        if let Some(0) = opts.seeds {
            errors.push(Problem::new(Path::named("--seeds"), "must be at least 1"));
        }
        if let Some(n) = opts.seeds.filter(|&n| n > MAX_SEEDS) {
            errors.push(Problem::new(
                Path::named("--seeds"),
                format!("{n} is over the limit of {MAX_SEEDS}"),
            ));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut first = Vec::new();
        for (place, text) in &sides {
            match validate::load(text) {
                Ok(l) => {
                    let w = l.warnings.iter().cloned().map(|p| in_place(place, p));
                    push_new(&mut warnings, w.collect());
                    let never = never_start(&l.scenario).into_iter();
                    push_new(&mut warnings, never.map(|p| in_place(place, p)).collect());
                    first.push(l.scenario);
                }
                Err(e) => errors.extend(e.into_iter().map(|p| in_place(place, p))),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let random = random(&base, &first[0]);
        let seeds = match opts.seeds {
            Some(n) => {
                if n > 1 && !random {
                    warnings.push(Problem::new(
                        Path::named("--seeds"),
                        format!("nothing in the jobs of {jobs_file} is random (no workloads, no recovery odds): every seed gives the same runs"),
                    ));
                }
                n
            }
            None if random => DEFAULT_RANDOM_SEEDS,
            None => 1,
        };
        // Seeds 1.. are a sweep's seed variants of each side (`seed + k`).
        let mut planned = Vec::new();
        for ((place, text), first) in sides.into_iter().zip(first) {
            let sweep = Sweep::new(&text, Vec::new(), seeds).map_err(|ps| {
                ps.into_iter()
                    .map(|p| in_place(&place, p))
                    .collect::<Vec<_>>()
            })?;
            planned.push(PlanSide {
                first,
                sweep,
                place,
            });
        }
        let [c, p]: [PlanSide; 2] = planned
            .try_into()
            .unwrap_or_else(|_| unreachable!("two sides"));
        let seed_list = (0..seeds as usize).map(|k| c.sweep.variant(k).1).collect();
        let names =
            |sc: &Scenario| -> Vec<String> { sc.shares.iter().map(|s| s.name.clone()).collect() };
        let (nc, np) = (names(&c.first), names(&p.first));
        let shared = nc
            .iter()
            .enumerate()
            .filter_map(|(ci, n)| Some((n.clone(), ci, np.iter().position(|m| m == n)?)))
            .collect();
        Ok(Plan {
            current: current.name.to_string(),
            proposed: proposed.name.to_string(),
            jobs: jobs_file.to_string(),
            only_current: nc.iter().filter(|n| !np.contains(n)).cloned().collect(),
            only_proposed: np.iter().filter(|n| !nc.contains(n)).cloned().collect(),
            proposed_shares: np,
            sides: [c, p],
            seeds: seed_list,
            shared,
            rules: opts.rules.clone(),
            warnings,
            unknown,
        })
    }

    /// The seeds, in order: [`Plan::run`]`(k)` runs `seeds()[k]`.
    pub fn seeds(&self) -> &[u64] {
        &self.seeds
    }

    /// Import and validation warnings, each once.
    pub fn warnings(&self) -> &[Problem] {
        &self.warnings
    }

    /// Runs both sides with seed `seeds()[k]` (metrics only) and compares them per share.
    pub fn run(&self, k: usize) -> Result<SeedRuns, Vec<Problem>> {
        let [c, p] = &self.sides;
        let (c, p) = (c.scenario(k)?, p.scenario(k)?);
        Ok(compare_seed(&c, &p, &self.shared))
    }

    /// The review from every seed's runs (in seed order).
    pub fn finish(self, runs: Vec<SeedRuns>) -> Review {
        let mut shares: Vec<ShareReview> = self
            .shared
            .iter()
            .enumerate()
            .map(|(i, (name, _, _))| share_review(name, runs.iter().map(|r| &r.0[i])))
            .collect();
        crate::sort::compact_by(&mut shares, &worse);
        let crossings = crossings(&shares, &self.rules);
        Review {
            current: self.current,
            proposed: self.proposed,
            jobs: self.jobs,
            seeds: self.seeds,
            shares,
            only_current: self.only_current,
            only_proposed: self.only_proposed,
            rules: self.rules,
            crossings,
            warnings: self.warnings,
            unknown: self.unknown,
            proposed_shares: self.proposed_shares,
            model: self.sides[0].first.model,
        }
    }
}

/// SPEC 16: the jobs of `sc` that can never start under its configuration, one warning
/// per share and instance type: they need more instances than the share could hold with
/// every other share idle ([`Sim::most_ever`]), so a review's unfinished jobs say why. A
/// share with no limit for the type is validation's own warning already.
fn never_start(sc: &Scenario) -> Vec<Problem> {
    let sim = Sim::new(sc, Options::summary());
    // Per (share, type): jobs, the most any needs.
    let mut over: BTreeMap<(usize, usize), (u64, u64)> = BTreeMap::new();
    for j in &sc.jobs {
        let (s, t, n) = (j.share(), j.instance_type(), j.instances());
        if !crate::simulation::admission::has_limit(&sc.shares[s], t) {
            continue;
        }
        if n > sim.most_ever(s, t) {
            let e = over.entry((s, t)).or_default();
            e.0 += 1;
            e.1 = e.1.max(n);
        }
    }
    over.into_iter()
        .map(|((s, t), (jobs, need))| {
            let ty = &sc.instance_types[t].name;
            let most = sim.most_ever(s, t);
            let (these, need_words) = if jobs == 1 {
                ("1 job".to_string(), format!("it needs {need}"))
            } else {
                (format!("{jobs} jobs"), format!("they need up to {need}"))
            };
            Problem::new(
                Path::named(format!("share \"{}\"", sc.shares[s].name)),
                format!(
                    "{these} can never start in this configuration: {need_words} instances of {ty}, and the share can hold at most {most} (its quota and all it may borrow, with every other share idle)"
                ),
            )
        })
        .collect()
}

fn push_new(into: &mut Vec<Problem>, more: Vec<Problem>) {
    for p in more {
        if !into.contains(&p) {
            into.push(p);
        }
    }
}

/// Whether a seed changes anything ([`crate::analysis::sweep::seeded`]).
fn random(base: &Map<String, Value>, _sc: &Scenario) -> bool {
    crate::analysis::sweep::seeded(base)
}

/// One share in both runs of one seed.
#[derive(Clone, Debug, PartialEq)]
struct SeedShare {
    /// Per metric ([`Metric::ALL`] order): (CURRENT, PROPOSED).
    values: [(f64, f64); 8],
    /// Jobs that succeeded in both runs.
    matched: u64,
    /// `matched` is under 90% of the jobs that succeeded in either run.
    thin: bool,
    /// Succeeded, failed, unfinished: CURRENT's, PROPOSED's.
    jobs: [[u64; 3]; 2],
}

/// Both runs of one seed, compared per share ([`Plan::run`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SeedRuns(Vec<SeedShare>);

/// Per job id, its share and completion (ms) in a run, SUCCEEDED jobs only.
fn succeeded<'a>(
    sim: &crate::simulation::Finished,
    sc: &'a Scenario,
) -> BTreeMap<&'a str, (usize, Ms)> {
    job_ends(sim)
        .iter()
        .enumerate()
        .filter_map(|(j, e)| {
            let (share, ms) = e.as_ref()?.completion()?;
            Some((sc.job_id(j), (share as usize, ms)))
        })
        .collect()
}

/// Runs one seed of both sides and compares the `shared` shares (name, index in CURRENT,
/// index in PROPOSED). Completion is SPEC 9.1's "like with like": over the jobs that
/// succeeded in both runs, counted in the share CURRENT ended them in. Not
/// `matched::matched`, which pairs the three runs of one scenario by job and share index:
/// the two sides of a review may list their shares in another order, so jobs pair by id
/// here and shares by name.
fn compare_seed(c: &Scenario, p: &Scenario, shared: &[(String, usize, usize)]) -> SeedRuns {
    let (run_c, run_p) = (
        Sim::new(c, Options::summary()).run(),
        Sim::new(p, Options::summary()).run(),
    );
    let (stats_c, stats_p) = (stats(&run_c).0, stats(&run_p).0);
    let (done_c, done_p) = (succeeded(&run_c, c), succeeded(&run_p, p));
    let mut matched: Vec<(Vec<Ms>, Vec<Ms>)> = vec![Default::default(); c.shares.len()];
    for (id, &(share, ms)) in &done_c {
        if let (Some(&(_, other)), Some(m)) = (done_p.get(id), matched.get_mut(share)) {
            m.0.push(ms);
            m.1.push(other);
        }
    }
    SeedRuns(
        shared
            .iter()
            .map(|(_, ci, pi)| {
                let (sc, sp) = (&stats_c[*ci], &stats_p[*pi]);
                let (mc, mp) = std::mem::take(&mut matched[*ci]);
                let n = mc.len() as u64;
                let (pc, pp) = (Percentiles::of(mc), Percentiles::of(mp));
                let jobs = |st: &Stats| [st.jobs.succeeded, st.jobs.failed, st.jobs.unfinished];
                SeedShare {
                    values: Metric::ALL.map(|m| (m.of(sc, &pc), m.of(sp, &pp))),
                    matched: n,
                    thin: n * 10 < sc.jobs.succeeded.max(sp.jobs.succeeded) * 9,
                    jobs: [jobs(sc), jobs(sp)],
                }
            })
            .collect(),
    )
}

/// One share's review from its comparison in every seed.
fn share_review<'a>(name: &str, seeds: impl Iterator<Item = &'a SeedShare>) -> ShareReview {
    let seeds: Vec<&SeedShare> = seeds.collect();
    let median = |mut xs: Vec<f64>| sweep::band(&mut xs)[1];
    let counts = |side: usize| {
        let of = |k: usize| median(seeds.iter().map(|s| s.jobs[side][k] as f64).collect());
        Counts {
            succeeded: of(0),
            failed: of(1),
            unfinished: of(2),
        }
    };
    ShareReview {
        name: name.to_string(),
        matched: median(seeds.iter().map(|s| s.matched as f64).collect()),
        thin: seeds.iter().any(|s| s.thin),
        current_jobs: counts(0),
        proposed_jobs: counts(1),
        metrics: Metric::ALL
            .iter()
            .map(|&m| {
                let pairs: Vec<(f64, f64)> = seeds.iter().map(|s| s.values[m as usize]).collect();
                MetricChange::of(m, &pairs)
            })
            .collect(),
    }
}

/// Worst first (SPEC 16): the larger relative increase of completion p90 (from 0, an
/// infinite one), then the larger increase of deadline misses, then of wait p90; a stable
/// sort keeps CURRENT's order for the rest.
pub fn worse(a: &ShareReview, b: &ShareReview) -> std::cmp::Ordering {
    let key = |s: &ShareReview| {
        [
            s.metric(Metric::CompletionP90).relative_or_infinite(),
            s.metric(Metric::DeadlineMisses).change(),
            s.metric(Metric::WaitP90).change(),
        ]
    };
    let (ka, kb) = (key(a), key(b));
    for i in 0..3 {
        let o = kb[i].total_cmp(&ka[i]);
        if o.is_ne() {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

/// Whether `rule` is crossed by a share's `change`: on the median change (relative or
/// absolute), and never by a metric that changed in no seed.
pub fn crosses(rule: &Rule, change: &MetricChange) -> bool {
    if !change.changed {
        return false;
    }
    match rule.threshold {
        Threshold::Absolute(x) => rule.op.holds(change.change(), x),
        Threshold::Relative(x) => rule.op.holds(change.relative_or_infinite(), x),
    }
}

fn crossings(shares: &[ShareReview], rules: &[Rule]) -> Vec<Crossing> {
    let mut out = Vec::new();
    for s in shares {
        for r in rules {
            let change = s.metric(r.metric);
            if crosses(r, change) {
                out.push(Crossing {
                    share: s.name.clone(),
                    rule: r.clone(),
                    change: change.clone(),
                });
            }
        }
    }
    out
}

// ---- output --------------------------------------------------------------------------

/// How the shares are ordered, in words (the table's and the JSON's `order`).
pub const ORDER: &str = "worst first: largest relative increase of completion_p90, then of deadline_misses, then of wait_p90";

/// `x` with `d` decimals, trailing zeros dropped (`-0` as `0`).
fn fixed(x: f64, d: usize) -> String {
    if !x.is_finite() {
        return "inf".into();
    }
    let mut s = format!("{x:.d$}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".into();
    }
    s
}

fn signed(x: f64, d: usize) -> String {
    let s = fixed(x, d);
    if s != "0" && !s.starts_with('-') {
        format!("+{s}")
    } else {
        s
    }
}

fn percent(r: Option<f64>) -> String {
    match r {
        None => "from 0".into(),
        Some(r) => format!("{}%", signed(r * 100.0, 1)),
    }
}

/// One crossing, in a line: `team-b: completion_p90>+10% crossed: +50% (+600 s: 1200 s ->
/// 1800 s)`.
pub fn crossing_line(c: &Crossing) -> String {
    let m = &c.change;
    let d = m.metric.decimals();
    let u = m.metric.unit();
    format!(
        "{}: {} crossed: {} ({} {u}: {} {u} -> {} {u})",
        c.share,
        c.rule,
        percent(m.relative()),
        signed(m.change(), d),
        fixed(m.current, d),
        fixed(m.proposed, d)
    )
}

fn seeds_text(seeds: &[u64]) -> String {
    match seeds {
        [one] => format!("1 seed ({one})"),
        [first, .., last] => format!("{} seeds ({first}..{last})", seeds.len()),
        [] => "no seeds".into(),
    }
}

/// The lines above the shares' tables: what was reviewed and how to read the numbers.
pub fn preamble(r: &Review) -> [String; 3] {
    [
        format!(
            "review: {} -> {}, jobs of {}, {}",
            r.current,
            r.proposed,
            r.jobs,
            seeds_text(&r.seeds)
        ),
        "current, proposed: medians over seeds; change: median of the per-seed changes (PROPOSED - CURRENT)\nchange %: change / current; band: 10th..90th percentile of the per-seed changes".to_string(),
        format!("shares {ORDER}"),
    ]
}

/// One share's table as the review shows it (the CLI's text, the report, the page, which
/// receives it whole from the engine worker).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ShareTable {
    pub name: String,
    /// `team-b: 5 matched jobs` (and whether that is thin).
    pub heading: String,
    /// Job counts: `5 succeeded, 0 failed, 0 unfinished`.
    pub current: String,
    pub proposed: String,
    /// The header row, then one row per metric: metric, unit, current, proposed, change,
    /// change %, band.
    pub rows: Vec<[String; 7]>,
}

/// Every share's table, worst first.
pub fn share_tables(r: &Review) -> Vec<ShareTable> {
    let jobs = |c: &Counts| {
        format!(
            "{} succeeded, {} failed, {} unfinished",
            fixed(c.succeeded, 1),
            fixed(c.failed, 1),
            fixed(c.unfinished, 1)
        )
    };
    r.shares
        .iter()
        .map(|s| {
            let mut rows = vec![[
                "metric", "unit", "current", "proposed", "change", "change %", "band",
            ]
            .map(String::from)];
            for m in &s.metrics {
                let d = m.metric.decimals();
                let band = if r.seeds.len() > 1 {
                    format!("{}..{}", signed(m.band[0], d), signed(m.band[2], d))
                } else {
                    "-".into()
                };
                rows.push([
                    m.metric.name().to_string(),
                    m.metric.unit().to_string(),
                    fixed(m.current, d),
                    fixed(m.proposed, d),
                    signed(m.change(), d),
                    percent(m.relative()),
                    band,
                ]);
            }
            ShareTable {
                name: s.name.clone(),
                heading: format!(
                    "{}: {} matched jobs{}",
                    s.name,
                    fixed(s.matched, 1),
                    if s.thin {
                        " (under 90% of the jobs that succeeded in either run)"
                    } else {
                        ""
                    }
                ),
                current: jobs(&s.current_jobs),
                proposed: jobs(&s.proposed_jobs),
                rows,
            }
        })
        .collect()
}

// ---- verdicts in words (the page and the report) ------------------------------------

/// One change a review words: what it measures and how it is judged.
struct Judged {
    /// The metric inside a sentence ("p90 completion").
    phrase: &'static str,
    /// Whether less is better; `None`: neither (borrowing is reported, not judged).
    lower_is_better: Option<bool>,
    /// Its unit, whose floor is the least change that counts ([`Unit::floor`], SPEC 9.1's
    /// floors, [`verdict::negligible`]).
    unit: Unit,
}

impl Metric {
    /// How [`team_verdict`] judges this metric: completion and wait by a minute, deadline
    /// misses and preemptions by one, borrowing reported without a judgement.
    fn judged(self) -> Judged {
        let (phrase, lower_is_better, unit) = match self {
            Metric::CompletionP50 => ("p50 completion", Some(true), Unit::Seconds),
            Metric::CompletionP90 => ("p90 completion", Some(true), Unit::Seconds),
            Metric::WaitMean => ("mean wait", Some(true), Unit::Seconds),
            Metric::WaitP90 => ("p90 wait", Some(true), Unit::Seconds),
            Metric::DeadlineMisses => ("deadline misses", Some(true), Unit::Count),
            Metric::Preemptions => ("preemptions", Some(true), Unit::Count),
            Metric::BorrowedH => ("borrowed", None, Unit::InstanceHours),
            Metric::BorrowedFraction => ("borrowed part of its use", None, Unit::Fraction),
        };
        Judged {
            phrase,
            lower_is_better,
            unit,
        }
    }
}

/// One team's verdict on the proposal, in words (SPEC 16 "a verdict per team", judged as
/// SPEC 9.1 judges a comparison: a change under 5% or under the metric's floor is about the
/// same).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TeamVerdict {
    pub name: String,
    pub verdict: Verdict,
    /// The changes for the worse, then for the better, largest first within each:
    /// "p90 completion 12 min → 18 min (+50%)".
    pub worse: Vec<String>,
    pub better: Vec<String>,
    /// Changes that are neither better nor worse (borrowing).
    pub also: Vec<String>,
    /// What the numbers rest on: matched jobs when they are few, seeds that disagree.
    pub notes: Vec<String>,
    /// The rules this team crosses, in words ([`Rule::words`]: "deadline misses rise").
    pub crossed: Vec<String>,
}

impl TeamVerdict {
    /// "team-b: worse — p90 completion 12 min → 18 min (+50%); deadline misses 0 → 2."
    pub fn sentence(&self) -> String {
        let mut out = format!("{}: {}", self.name, self.verdict.words());
        let changes: Vec<&String> = self.worse.iter().chain(&self.better).collect();
        if !changes.is_empty() {
            let words: Vec<&str> = changes.iter().map(|s| s.as_str()).collect();
            out.push_str(" — ");
            out.push_str(&words.join("; "));
        }
        out.push('.');
        out
    }

    /// The rules it crosses, as a sentence: "Crosses the rule: deadline misses rise.",
    /// "Crosses the rules: ...; ...."; none when it crosses none.
    pub fn crossing(&self) -> Option<String> {
        match self.crossed.as_slice() {
            [] => None,
            [one] => Some(format!("Crosses the rule: {one}.")),
            many => Some(format!("Crosses the rules: {}.", many.join("; "))),
        }
    }
}

/// SPEC 16: what the proposal does to one team. Each metric's median change over seeds is
/// judged as SPEC 9.1 judges a difference ([`verdict::negligible`]); failed and unfinished
/// jobs count too. With several seeds, a change whose 10th-90th band holds 0 says that the
/// seeds disagree.
pub fn team_verdict(r: &Review, s: &ShareReview) -> TeamVerdict {
    let several = r.seeds.len() > 1;
    // (judgement, current, proposed, band over seeds)
    let mut rows: Vec<(Judged, f64, f64, Option<[f64; 3]>)> = s
        .metrics
        .iter()
        .map(|m| (m.metric.judged(), m.current, m.proposed, Some(m.band)))
        .collect();
    for (phrase, c, p) in [
        ("failed jobs", s.current_jobs.failed, s.proposed_jobs.failed),
        (
            "jobs unfinished at the end",
            s.current_jobs.unfinished,
            s.proposed_jobs.unfinished,
        ),
    ] {
        let judged = Judged {
            phrase,
            lower_is_better: Some(true),
            unit: Unit::Count,
        };
        rows.push((judged, c, p, None));
    }
    let any_changed = s.metrics.iter().any(|m| m.changed) || s.current_jobs != s.proposed_jobs;
    let mut worse = Vec::new();
    let mut better = Vec::new();
    let mut also = Vec::new();
    let mut notes = Vec::new();
    for (j, c, p, band) in rows {
        let d = band.map_or(p - c, |b| b[1]);
        if d == 0.0 || verdict::negligible(d, c, j.unit.floor()) {
            continue;
        }
        let scale = j.unit.scale_for(&[c, p]);
        let rel = if c != 0.0 && j.unit != Unit::Fraction {
            format!(" ({})", verdict::signed_percent(d / c.abs()))
        } else {
            String::new()
        };
        let mut words = format!("{} {} → {}{rel}", j.phrase, scale.show(c), scale.show(p));
        if let Some(b) = band.filter(|b| several && b[0] <= 0.0 && b[2] >= 0.0) {
            let _ = write!(
                words,
                " (the seeds disagree: {} to {})",
                scale.show_delta(b[0]),
                scale.show_delta(b[2])
            );
        }
        let size = if c != 0.0 {
            (d / c).abs()
        } else {
            f64::INFINITY
        };
        match j.lower_is_better {
            Some(lower) if (d < 0.0) == lower => better.push((size, words)),
            Some(_) => worse.push((size, words)),
            None => also.push((size, words)),
        }
    }
    let largest_first = |mut v: Vec<(f64, String)>| -> Vec<String> {
        crate::sort::compact_by(&mut v, &|a, b| b.0.total_cmp(&a.0));
        v.into_iter().map(|(_, w)| w).collect()
    };
    let (worse, better, also) = (
        largest_first(worse),
        largest_first(better),
        largest_first(also),
    );
    // Issue #34: a team with no jobs in either configuration has nothing of its own to
    // compare; "no different" would read as a finding.
    let none = |c: &Counts| c.succeeded + c.failed + c.unfinished == 0.0;
    let no_jobs = none(&s.current_jobs) && none(&s.proposed_jobs);
    let verdict = match (worse.is_empty(), better.is_empty()) {
        _ if no_jobs && worse.is_empty() && better.is_empty() => Verdict::NoJobs,
        _ if !any_changed => Verdict::NoDifference,
        (true, true) => Verdict::AboutTheSame,
        (false, true) => Verdict::Hurts,
        (true, false) => Verdict::Helps,
        (false, false) => Verdict::Mixed,
    };
    if verdict == Verdict::NoJobs {
        notes.push("No jobs in either configuration: nothing of its own to compare.".into());
    }
    if s.thin {
        notes.push(format!(
            "Completion is compared over the {} jobs that succeeded both ways, under 90% of those that succeeded in either.",
            fixed(s.matched, 1)
        ));
    }
    if several {
        notes.push(format!(
            "Medians over {} seeds.",
            group_digits(r.seeds.len() as u64)
        ));
    }
    let crossed = r
        .crossings
        .iter()
        .filter(|c| c.share == s.name)
        .map(|c| c.rule.words())
        .collect();
    TeamVerdict {
        name: s.name.clone(),
        verdict,
        worse,
        better,
        also,
        notes,
        crossed,
    }
}

/// Every team's verdict, worst first (the review's order).
pub fn team_verdicts(r: &Review) -> Vec<TeamVerdict> {
    r.shares.iter().map(|s| team_verdict(r, s)).collect()
}

/// What ran, for a reader rather than a log: "The proposal (proposed.yaml) ran on the
/// scenario's jobs beside the scenario as it is, over 10 seeds. Worst first."
pub fn ran(r: &Review) -> String {
    let seeds = match r.seeds.len() {
        1 => "once (nothing in the jobs is random)".to_string(),
        n => format!("over {} seeds", group_digits(n as u64)),
    };
    let teams = if r.model == Model::Kueue {
        "ClusterQueues"
    } else {
        "shares"
    };
    // A file's name in brackets; the page's own names ("the pasted proposal") as the subject.
    let subject = if r.proposed.starts_with("the ") {
        capitalised(&r.proposed)
    } else {
        format!("The proposal ({})", r.proposed)
    };
    format!(
        "{subject} ran on the jobs of {} beside the configuration as it is, {seeds}. {} worst first; a change under 5%, or under a minute or one job, counts as about the same.",
        r.jobs,
        capitalised(teams)
    )
}

fn capitalised(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The review in one line: "The proposal is worse for team-b, better for team-a and about
/// the same for team-c." (the model's word for a share in "and 2 more").
pub fn headline(r: &Review, verdicts: &[TeamVerdict]) -> String {
    let team = if r.model == Model::Kueue {
        "ClusterQueue"
    } else {
        "share"
    };
    if verdicts.is_empty() {
        return "The proposal and the scenario have no team in common.".into();
    }
    if verdicts
        .iter()
        .all(|v| matches!(v.verdict, Verdict::NoDifference | Verdict::NoJobs))
    {
        return "The proposal changes nothing for any team: every run is the same.".into();
    }
    let mut parts = Vec::new();
    for (v, lead) in [
        (Verdict::Hurts, "worse for"),
        (Verdict::Mixed, "mixed for"),
        (Verdict::Helps, "better for"),
        (Verdict::AboutTheSame, "about the same for"),
        (Verdict::NoDifference, "no different for"),
        (Verdict::NoJobs, "without jobs to compare for"),
    ] {
        let names: Vec<String> = verdicts
            .iter()
            .filter(|t| t.verdict == v)
            .map(|t| t.name.clone())
            .collect();
        if !names.is_empty() {
            parts.push(format!("{lead} {}", verdict::some_of(&names, team)));
        }
    }
    format!("The proposal is {}.", verdict::join_and(&parts))
}

/// The human table: a header, then per share (worst first) its matched jobs and a row per
/// metric (current, proposed, change, relative change, band over seeds), then the rules.
pub fn table_text(r: &Review) -> String {
    let mut out = String::new();
    for line in preamble(r) {
        let _ = writeln!(out, "{line}");
    }
    for t in share_tables(r) {
        out.push('\n');
        let _ = writeln!(out, "{}", t.heading);
        let _ = writeln!(out, "  current:  {}", t.current);
        let _ = writeln!(out, "  proposed: {}", t.proposed);
        for line in compare::aligned(&t.rows, 1).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    for (label, names) in [
        ("only in CURRENT", &r.only_current),
        ("only in PROPOSED", &r.only_proposed),
    ] {
        if !names.is_empty() {
            let _ = writeln!(out, "\n{label} (no jobs): {}", names.join(", "));
        }
    }
    if !r.rules.is_empty() {
        out.push_str("\nrules:\n");
        for rule in &r.rules {
            let who = r.crossed_by(rule);
            if who.is_empty() {
                let _ = writeln!(out, "  {rule}: ok");
            } else {
                let _ = writeln!(out, "  {rule}: CROSSED by {}", who.join(", "));
            }
        }
    }
    out
}

fn opt_num(x: Option<f64>) -> String {
    x.map_or_else(|| "null".into(), num)
}

/// The JSON (`quotalab-review/v1`, docs/REVIEW.md): `{"format", "current", "proposed",
/// "jobs", "seeds": [..], "order", "shares": [{"name", "matched", "thin", "jobs":
/// {"current": {"succeeded", "failed", "unfinished"}, "proposed": {..}}, "metrics":
/// {METRIC: {"unit", "current", "proposed", "change", "relative", "band": {"p10",
/// "median", "p90"}}}}], "only_current", "only_proposed", "rules": [{"rule", "crossed":
/// [share..]}], "crossed": [{"share", "rule", "metric", "change", "relative"}]}`, written
/// field by field in a fixed order.
pub fn json_text(r: &Review) -> String {
    let counts = |c: &Counts| {
        format!(
            "{{\"succeeded\":{},\"failed\":{},\"unfinished\":{}}}",
            num(c.succeeded),
            num(c.failed),
            num(c.unfinished)
        )
    };
    let metric = |m: &MetricChange| {
        format!(
            "\"{}\":{{\"unit\":\"{}\",\"current\":{},\"proposed\":{},\"change\":{},\"relative\":{},\"band\":{{\"p10\":{},\"median\":{},\"p90\":{}}}}}",
            m.metric.name(),
            m.metric.unit(),
            num(m.current),
            num(m.proposed),
            num(m.change()),
            opt_num(m.relative()),
            num(m.band[0]),
            num(m.band[1]),
            num(m.band[2])
        )
    };
    let share = |s: &ShareReview| {
        format!(
            "{{\"name\":{},\"matched\":{},\"thin\":{},\"jobs\":{{\"current\":{},\"proposed\":{}}},\"metrics\":{{{}}}}}",
            string(&s.name),
            num(s.matched),
            s.thin,
            counts(&s.current_jobs),
            counts(&s.proposed_jobs),
            list(&s.metrics, metric)
        )
    };
    let rule = |rule: &Rule| {
        format!(
            "{{\"rule\":{},\"crossed\":[{}]}}",
            string(&rule.text),
            list(&r.crossed_by(rule), |n| string(n))
        )
    };
    let crossing = |c: &Crossing| {
        format!(
            "{{\"share\":{},\"rule\":{},\"metric\":\"{}\",\"change\":{},\"relative\":{}}}",
            string(&c.share),
            string(&c.rule.text),
            c.rule.metric.name(),
            num(c.change.change()),
            opt_num(c.change.relative())
        )
    };
    let quoted = |n: &String| string(n);
    format!(
        "{{\"format\":\"quotalab-review/v1\",\"current\":{},\"proposed\":{},\"jobs\":{},\"seeds\":[{}],\"order\":{},\"shares\":[{}],\"only_current\":[{}],\"only_proposed\":[{}],\"rules\":[{}],\"crossed\":[{}]}}",
        string(&r.current),
        string(&r.proposed),
        string(&r.jobs),
        list(&r.seeds, u64::to_string),
        string(ORDER),
        list(&r.shares, share),
        list(&r.only_current, quoted),
        list(&r.only_proposed, quoted),
        list(&r.rules, rule),
        list(&r.crossings, crossing)
    )
}

/// `items` written by `item`, comma-separated.
fn list<T>(items: &[T], item: impl Fn(&T) -> String) -> String {
    items.iter().map(item).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_in_words() {
        let said = |r: &str| parse_rule(r).unwrap().words();
        assert_eq!(
            said("completion_p90>+10%"),
            "p90 completion rises by more than 10%"
        );
        assert_eq!(said("deadline_misses>0"), "deadline misses rise");
        assert_eq!(
            said("deadline_misses>=2"),
            "deadline misses rise by 2 or more"
        );
        assert_eq!(said("wait_p90<-600"), "p90 wait falls by more than 10 min");
        assert_eq!(said("wait_mean<=0"), "mean wait does not rise");
        assert_eq!(
            said("wait_mean<=90"),
            "mean wait does not rise by more than 1.5 min"
        );
        assert_eq!(said("preemptions<=-1"), "preemptions fall by 1 or more");
        assert_eq!(said("preemptions>=0"), "preemptions do not fall");
        assert_eq!(
            said("completion_p50>-5%"),
            "p50 completion does not fall by 5% or more"
        );
        assert_eq!(
            said("borrowed_fraction>0.05"),
            "borrowed part of its use rises by more than 5 points"
        );
        assert_eq!(
            said("borrowed_fraction<-0.01"),
            "borrowed part of its use falls by more than 1 point"
        );
        assert_eq!(
            said("borrowed_h>12345.5"),
            "borrowing rises by more than 12,345.5 inst.-h"
        );
        assert_eq!(said("completion_p90<0%"), "p90 completion falls");
    }

    #[test]
    fn rules_parse_into_metric_op_and_threshold() {
        let r = parse_rule("deadline_misses>0").unwrap();
        assert_eq!(
            (r.metric, r.op, r.threshold),
            (Metric::DeadlineMisses, Op::Gt, Threshold::Absolute(0.0))
        );
        let r = parse_rule("completion_p90 > +10%").unwrap();
        assert_eq!(
            (r.metric, r.op, r.threshold, r.text.as_str()),
            (
                Metric::CompletionP90,
                Op::Gt,
                Threshold::Relative(0.1),
                "completion_p90>+10%"
            )
        );
        assert_eq!(parse_rule("wait_p90>=600").unwrap().op, Op::Ge);
        assert_eq!(parse_rule("wait_mean<=-5%").unwrap().op, Op::Le);
        assert_eq!(
            parse_rule("borrowed_fraction<-0.25").unwrap().threshold,
            Threshold::Absolute(-0.25)
        );
        assert_eq!(
            parse_rule("preemptions<-50%").unwrap().threshold,
            Threshold::Relative(-0.5)
        );
        for m in Metric::ALL {
            assert_eq!(parse_rule(&format!("{m}>1")).unwrap().metric, m);
        }
    }

    #[test]
    fn bad_rules_say_what_is_wrong_and_list_the_metrics() {
        for (arg, word) in [
            ("completion_p99>1", "unknown metric \"completion_p99\""),
            ("deadline_misses", "no comparison"),
            (">5", "no metric"),
            ("deadline_misses>", "not a number"),
            ("deadline_misses>ten", "not a number"),
            ("deadline_misses>%", "not a number"),
            ("deadline_misses=>1", "unknown metric"),
            ("deadline_misses>inf", "not a number"),
        ] {
            let e = parse_rule(arg).unwrap_err();
            assert_eq!(e.path.to_string(), "--fail-on", "{arg}");
            assert!(e.message.contains(word), "{arg}: {e}");
            assert!(
                e.message
                    .contains("completion_p50, completion_p90, wait_mean, wait_p90"),
                "{e}"
            );
        }
    }

    fn change(metric: Metric, pairs: &[(f64, f64)]) -> MetricChange {
        MetricChange::of(metric, pairs)
    }

    /// A one-team review with these (metric, per-seed pairs); the rest unchanged.
    fn reviewed(changes: &[(Metric, &[(f64, f64)])], seeds: usize) -> Review {
        let metrics = Metric::ALL
            .into_iter()
            .map(|m| {
                let pairs = changes
                    .iter()
                    .find(|c| c.0 == m)
                    .map_or(vec![(100.0, 100.0); seeds], |c| c.1.to_vec());
                change(m, &pairs)
            })
            .collect();
        let counts = Counts {
            succeeded: 10.0,
            failed: 0.0,
            unfinished: 0.0,
        };
        Review {
            current: "current.json".into(),
            proposed: "proposed.json".into(),
            jobs: "current.json".into(),
            seeds: (0..seeds as u64).collect(),
            shares: vec![ShareReview {
                name: "team-b".into(),
                matched: 10.0,
                thin: false,
                current_jobs: counts,
                proposed_jobs: counts,
                metrics,
            }],
            only_current: vec![],
            only_proposed: vec![],
            rules: vec![],
            crossings: vec![],
            warnings: vec![],
            unknown: vec![],
            proposed_shares: vec!["team-b".into()],
            model: Model::AwsBatch,
        }
    }

    #[test]
    fn a_team_verdict_words_what_got_worse_and_better_largest_first() {
        let r = reviewed(
            &[
                (Metric::CompletionP90, &[(720.0, 1080.0)]),
                (Metric::WaitMean, &[(600.0, 630.0)]),
                (Metric::DeadlineMisses, &[(0.0, 2.0)]),
                (Metric::Preemptions, &[(4.0, 1.0)]),
                (Metric::BorrowedH, &[(3.0, 0.0)]),
            ],
            1,
        );
        let v = team_verdict(&r, &r.shares[0]);
        assert_eq!(v.verdict, Verdict::Mixed);
        // A change from 0 is the largest; 30 s more mean wait is under a minute: the same.
        assert_eq!(
            v.worse,
            [
                "deadline misses 0 → 2",
                "p90 completion 12 min → 18 min (+50%)"
            ]
        );
        assert_eq!(v.better, ["preemptions 4 → 1 (−75%)"]);
        assert_eq!(v.also, ["borrowed 3.00 inst.-h → 0.00 inst.-h (−100%)"]);
        assert_eq!(
            v.sentence(),
            "team-b: mixed — deadline misses 0 → 2; p90 completion 12 min → 18 min (+50%); preemptions 4 → 1 (−75%)."
        );
        assert_eq!(headline(&r, &[v]), "The proposal is mixed for team-b.");
    }

    #[test]
    fn a_team_verdict_says_about_the_same_no_difference_and_when_seeds_disagree() {
        let same = reviewed(&[(Metric::CompletionP90, &[(6000.0, 6100.0)])], 1);
        let v = team_verdict(&same, &same.shares[0]);
        assert_eq!((v.verdict, v.worse.len()), (Verdict::AboutTheSame, 0));
        let none = reviewed(&[], 3);
        let v = team_verdict(&none, &none.shares[0]);
        assert_eq!(v.verdict, Verdict::NoDifference);
        assert_eq!(
            headline(&none, &[v]),
            "The proposal changes nothing for any team: every run is the same."
        );
        // Three seeds: +10, +10 and -5 minutes of p90 wait: worse, but not in every seed.
        let split = reviewed(
            &[(
                Metric::WaitP90,
                &[(600.0, 1200.0), (600.0, 1200.0), (900.0, 600.0)],
            )],
            3,
        );
        let v = team_verdict(&split, &split.shares[0]);
        assert_eq!(v.verdict, Verdict::Hurts);
        assert_eq!(
            v.worse,
            ["p90 wait 10 min → 20 min (+100%) (the seeds disagree: −5.0 min to +10 min)"]
        );
        assert_eq!(v.notes, ["Medians over 3 seeds."]);
        assert_eq!(
            ran(&split),
            "The proposal (proposed.json) ran on the jobs of current.json beside the configuration as it is, over 3 seeds. Shares worst first; a change under 5%, or under a minute or one job, counts as about the same."
        );
    }

    /// Issue #34: a team with no jobs in either configuration has none to compare; it is
    /// not "no different".
    #[test]
    fn a_team_without_jobs_has_none_to_compare() {
        let mut r = reviewed(&[], 1);
        r.shares[0].current_jobs = Counts::default();
        r.shares[0].proposed_jobs = Counts::default();
        let v = team_verdict(&r, &r.shares[0]);
        assert_eq!(v.verdict, Verdict::NoJobs);
        assert_eq!(
            v.notes,
            ["No jobs in either configuration: nothing of its own to compare."]
        );
        let busy = reviewed(&[(Metric::CompletionP90, &[(720.0, 1080.0)])], 1);
        let mut b = team_verdict(&busy, &busy.shares[0]);
        b.name = "team-a".into();
        assert_eq!(
            headline(&r, &[b, v.clone()]),
            "The proposal is worse for team-a and without jobs to compare for team-b."
        );
        assert_eq!(
            headline(&r, &[v]),
            "The proposal changes nothing for any team: every run is the same."
        );
    }

    #[test]
    fn the_band_is_over_the_per_seed_changes() {
        // Ten seeds: changes 1..=10 (not the difference of the medians).
        let pairs: Vec<(f64, f64)> = (1..=10)
            .map(|k| (100.0 * k as f64, 100.0 * k as f64 + k as f64))
            .collect();
        let m = change(Metric::WaitP90, &pairs);
        assert_eq!(m.band, [1.0, 5.0, 9.0]);
        assert_eq!(m.change(), 5.0);
        assert_eq!((m.current, m.proposed), (500.0, 505.0));
        assert_eq!(m.relative(), Some(0.01));
        assert!(m.changed);
        let one = change(Metric::WaitP90, &[(10.0, 7.0)]);
        assert_eq!(one.band, [-3.0; 3]);
        let same = change(Metric::WaitP90, &[(10.0, 10.0), (4.0, 4.0)]);
        assert_eq!(
            (same.band, same.changed, same.relative()),
            ([0.0; 3], false, Some(0.0))
        );
        let from_zero = change(Metric::DeadlineMisses, &[(0.0, 2.0)]);
        assert_eq!(from_zero.relative(), None);
    }

    #[test]
    fn rules_compare_the_median_change_and_never_an_unchanged_metric() {
        let rule = |s: &str| parse_rule(s).unwrap();
        let up = change(Metric::CompletionP90, &[(1000.0, 1200.0)]);
        assert!(crosses(&rule("completion_p90>+10%"), &up));
        assert!(!crosses(&rule("completion_p90>+20%"), &up));
        assert!(crosses(&rule("completion_p90>=+20%"), &up));
        assert!(crosses(&rule("completion_p90>199"), &up));
        assert!(!crosses(&rule("completion_p90>200"), &up));
        assert!(!crosses(&rule("completion_p90<0"), &up));
        let down = change(Metric::CompletionP90, &[(1000.0, 800.0)]);
        assert!(crosses(&rule("completion_p90<-10%"), &down));
        assert!(crosses(&rule("completion_p90<=-200"), &down));
        let from_zero = change(Metric::DeadlineMisses, &[(0.0, 1.0)]);
        assert!(crosses(&rule("deadline_misses>+1000%"), &from_zero));
        assert!(crosses(&rule("deadline_misses>0"), &from_zero));
        // Unchanged: no rule is crossed, even one that zero satisfies.
        let same = change(Metric::DeadlineMisses, &[(3.0, 3.0)]);
        for r in [
            "deadline_misses>=0",
            "deadline_misses<=0",
            "deadline_misses<+5%",
        ] {
            assert!(!crosses(&rule(r), &same), "{r}");
        }
        // Seeds that disagree: the median decides.
        let mixed = change(
            Metric::DeadlineMisses,
            &[(0.0, 1.0), (1.0, 1.0), (2.0, 2.0)],
        );
        assert!(!crosses(&rule("deadline_misses>0"), &mixed));
        assert!(crosses(&rule("deadline_misses>=0"), &mixed));
    }

    fn share(name: &str, p90: (f64, f64), misses: (f64, f64), wait: (f64, f64)) -> ShareReview {
        let mut metrics: Vec<MetricChange> = Metric::ALL
            .iter()
            .map(|&m| change(m, &[(0.0, 0.0)]))
            .collect();
        metrics[Metric::CompletionP90 as usize] = change(Metric::CompletionP90, &[p90]);
        metrics[Metric::DeadlineMisses as usize] = change(Metric::DeadlineMisses, &[misses]);
        metrics[Metric::WaitP90 as usize] = change(Metric::WaitP90, &[wait]);
        ShareReview {
            name: name.into(),
            matched: 1.0,
            thin: false,
            current_jobs: Counts::default(),
            proposed_jobs: Counts::default(),
            metrics,
        }
    }

    #[test]
    fn worst_first_is_relative_p90_then_misses_then_wait_then_given_order() {
        let mut v = [
            share("same-a", (100.0, 100.0), (0.0, 0.0), (0.0, 0.0)),
            share("better", (100.0, 50.0), (0.0, 0.0), (0.0, 0.0)),
            // +50% of a small p90 is worse than +10% of a large one.
            share("small+50%", (100.0, 150.0), (0.0, 0.0), (0.0, 0.0)),
            share("large+10%", (10000.0, 11000.0), (5.0, 9.0), (0.0, 0.0)),
            share("misses", (100.0, 100.0), (0.0, 2.0), (0.0, 0.0)),
            share("wait", (100.0, 100.0), (0.0, 0.0), (10.0, 20.0)),
            share("from-zero", (0.0, 30.0), (0.0, 0.0), (0.0, 0.0)),
            share("same-b", (100.0, 100.0), (0.0, 0.0), (0.0, 0.0)),
        ];
        v.sort_by(worse);
        let names: Vec<&str> = v.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "from-zero",
                "small+50%",
                "large+10%",
                "misses",
                "wait",
                "same-a",
                "same-b",
                "better"
            ]
        );
    }

    const CONFIG: &str = r#"{"format":"quotalab/v1","capacity":{"ml.g5.xlarge":4},
        "shares":[{"name":"a","limits":{"ml.g5.xlarge":2},"strategy":"LEND_AND_BORROW","borrow_limit":100},
                  {"name":"b","limits":{"ml.g5.xlarge":2},"strategy":"LEND"}]}"#;

    /// Jobs: a2 starts only once a1 ends under `partitioned` a; b's jobs.
    const JOBS: &str = r#"{"format":"quotalab/v1","seed":3,"capacity":{"ml.g5.xlarge":4},
        "shares":[{"name":"a","limits":{"ml.g5.xlarge":2},"strategy":"LEND_AND_BORROW","borrow_limit":100},
                  {"name":"b","limits":{"ml.g5.xlarge":2},"strategy":"LEND"}],
        "jobs":[{"id":"a1","share":"a","instance_type":"ml.g5.xlarge","instances":2,"submit_s":0,"work_s":100},
                {"id":"a2","share":"a","instance_type":"ml.g5.xlarge","instances":2,"submit_s":0,"work_s":100},
                {"id":"a3","share":"a","instance_type":"ml.g5.xlarge","instances":2,"submit_s":0,"work_s":100},
                {"id":"b1","share":"b","instance_type":"ml.g5.xlarge","instances":1,"submit_s":500,"work_s":50}]}"#;

    fn run(current: &str, proposed: &str, rules: &[&str]) -> Result<Review, Vec<Problem>> {
        review(
            Input {
                name: "current.json",
                text: current,
            },
            Input {
                name: "proposed.json",
                text: proposed,
            },
            JobsSource::Scenario(Input {
                name: "jobs.json",
                text: JOBS,
            }),
            &ReviewOptions {
                rules: rules.iter().map(|r| parse_rule(r).unwrap()).collect(),
                ..ReviewOptions::default()
            },
        )
    }

    #[test]
    fn identical_configurations_change_nothing_and_cross_no_rule() {
        let r = run(CONFIG, CONFIG, &["completion_p90>=0", "deadline_misses<=0"]).unwrap();
        assert_eq!(r.seeds, [3], "nothing random: one seed, the jobs' own");
        assert_eq!(r.shares.len(), 2);
        for s in &r.shares {
            for m in &s.metrics {
                assert!(!m.changed && m.band == [0.0; 3], "{}: {m:?}", s.name);
            }
        }
        assert!(!r.failed());
    }

    #[test]
    fn a_reserved_share_slows_the_borrower_on_matched_jobs() {
        // b no longer lends: a runs one job at a time on its own 2 instances.
        let reserve = CONFIG.replace("\"LEND\"", "\"RESERVE\"");
        let r = run(
            CONFIG,
            &reserve,
            &["completion_p90>+10%", "deadline_misses>0"],
        )
        .unwrap();
        assert_eq!(r.shares[0].name, "a", "worst first");
        let a = &r.shares[0];
        assert_eq!(a.matched, 3.0);
        // Current: a1, a2 run at once (a borrows b's 2), a3 at 100 s: p50 100, p90 200.
        // Proposed: one at a time: 100, 200, 300.
        assert_eq!(a.metric(Metric::CompletionP50).current, 100.0);
        assert_eq!(a.metric(Metric::CompletionP90).current, 200.0);
        assert_eq!(a.metric(Metric::CompletionP50).proposed, 200.0);
        assert_eq!(a.metric(Metric::CompletionP90).proposed, 300.0);
        assert_eq!(a.metric(Metric::CompletionP90).relative(), Some(0.5));
        assert!(a.metric(Metric::BorrowedH).current > 0.0);
        assert_eq!(a.metric(Metric::BorrowedH).proposed, 0.0);
        assert_eq!(r.crossings.len(), 1);
        assert_eq!(r.crossings[0].share, "a");
        assert_eq!(r.crossings[0].rule.text, "completion_p90>+10%");
        assert_eq!(
            crossing_line(&r.crossings[0]),
            "a: completion_p90>+10% crossed: +50% (+100 s: 200 s -> 300 s)"
        );
    }

    #[test]
    fn matched_jobs_are_those_that_succeeded_in_both_runs() {
        // A horizon that ends a3 in the proposal only: completion over a1 and a2.
        let jobs = JOBS.replace("\"seed\":3,", "\"seed\":3,\"horizon_s\":250,");
        let reserve = CONFIG.replace("\"LEND\"", "\"RESERVE\"");
        let r = review(
            Input {
                name: "c",
                text: CONFIG,
            },
            Input {
                name: "p",
                text: &reserve,
            },
            JobsSource::Scenario(Input {
                name: "j",
                text: &jobs,
            }),
            &ReviewOptions::default(),
        )
        .unwrap();
        let a = r.shares.iter().find(|s| s.name == "a").unwrap();
        assert_eq!(a.matched, 2.0);
        assert_eq!(
            (a.current_jobs.succeeded, a.proposed_jobs.succeeded),
            (3.0, 2.0)
        );
        assert!(a.thin, "2 of 3");
        // Current a1, a2: 100, 100; proposed 100, 200 (a3 unfinished, not compared).
        assert_eq!(a.metric(Metric::CompletionP90).current, 100.0);
        assert_eq!(a.metric(Metric::CompletionP90).proposed, 200.0);
    }

    #[test]
    fn a_job_of_a_removed_share_is_named() {
        let without_b =
            r#"{"format":"quotalab/v1","shares":[{"name":"a","limits":{"ml.g5.xlarge":2}}]}"#;
        let e = run(CONFIG, without_b, &[]).unwrap_err();
        assert!(
            e.iter().any(|p| p.to_string().starts_with(
                "proposed.json (PROPOSED) with the jobs of jobs.json: jobs[3].share: job b1 is of share \"b\""
            )),
            "{e:?}"
        );
    }

    /// Issue #34: the page's review resolves jobs of a share the proposal lacks as its
    /// import dialog does (moved to a share, else dropped, with a warning each), where the
    /// CLI refuses; the review names them and the shares they may move to.
    #[test]
    fn a_job_of_a_removed_share_moves_or_drops_when_asked() {
        let without_b = r#"{"format":"quotalab/v1","shares":[{"name":"a","limits":{"ml.g5.xlarge":2},"strategy":"LEND"},
            {"name":"z","limits":{"ml.g5.xlarge":2},"strategy":"LEND"}]}"#;
        let inputs = |p| {
            (
                Input {
                    name: "current.json",
                    text: CONFIG,
                },
                Input {
                    name: "proposed.json",
                    text: p,
                },
                JobsSource::Scenario(Input {
                    name: "jobs.json",
                    text: JOBS,
                }),
            )
        };
        let (c, p, j) = inputs(without_b);
        assert!(
            review(c, p, j, &ReviewOptions::default()).is_err(),
            "the CLI refuses"
        );
        let moved = ReviewOptions {
            unknown: config::UnknownShares::Resolve(vec![("b".into(), "z".into())]),
            ..ReviewOptions::default()
        };
        let r = review(c, p, j, &moved).unwrap();
        assert_eq!(
            r.unknown,
            [config::UnknownShare {
                name: "b".into(),
                jobs: 1,
                workloads: 0
            }]
        );
        assert_eq!(r.proposed_shares, ["a", "z"]);
        assert_eq!(r.only_current, ["b"]);
        assert_eq!(r.only_proposed, ["z"]);
        assert!(
            r.warnings
                .iter()
                .any(|w| w.to_string().contains("moved to \"z\"")),
            "{:?}",
            r.warnings
        );
        let dropped = ReviewOptions {
            unknown: config::UnknownShares::Resolve(Vec::new()),
            ..ReviewOptions::default()
        };
        let r = review(c, p, j, &dropped).unwrap();
        assert!(
            r.warnings.iter().any(|w| w.to_string().contains("dropped")),
            "{:?}",
            r.warnings
        );
        // Same configuration: nothing is unknown.
        let (c, p, j) = inputs(CONFIG);
        assert!(review(c, p, j, &dropped).unwrap().unknown.is_empty());
    }

    #[test]
    fn a_share_only_one_side_has_is_listed_not_compared() {
        let with_c = CONFIG.replace(
            "\"strategy\":\"LEND\"}]",
            "\"strategy\":\"LEND\"},{\"name\":\"c\",\"limits\":{\"ml.g5.xlarge\":1},\"strategy\":\"RESERVE\"}]",
        );
        assert_ne!(with_c, CONFIG);
        let r = run(CONFIG, &with_c, &[]).unwrap();
        assert_eq!(r.only_proposed, ["c"]);
        assert!(r.only_current.is_empty());
        let names: Vec<&str> = r.shares.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        let json: Value = serde_json::from_str(&json_text(&r)).unwrap();
        assert_eq!(json["only_proposed"], serde_json::json!(["c"]));
        assert!(table_text(&r).contains("only in PROPOSED (no jobs): c"));
    }

    #[test]
    fn a_proposed_scenario_brings_its_configuration_not_its_jobs() {
        // PROPOSED as a scenario with other jobs and a queue setting: the queue is part of
        // the configuration; its jobs are not run (and a warning says so).
        let mut proposed: Value = serde_json::from_str(JOBS).unwrap();
        proposed["queue"] = serde_json::json!({"queueing": "strict_fifo"});
        proposed["jobs"][0]["work_s"] = Value::from(5000);
        let r = run(CONFIG, &proposed.to_string(), &[]).unwrap();
        assert!(
            r.warnings.iter().any(|w| w.to_string()
                == "proposed.json: its own jobs, workloads and events are not run: both configurations run those of jobs.json"),
            "{:?}",
            r.warnings
        );
        let a = r.shares.iter().find(|s| s.name == "a").unwrap();
        // Had a1's 5000 s been run, completion p90 would have moved by thousands of seconds.
        assert!(a.metric(Metric::CompletionP90).proposed <= 300.0, "{a:?}");
        let base = serde_json::from_str::<Value>(JOBS).unwrap();
        let Value::Object(base) = base else {
            unreachable!()
        };
        let (text, _, _) = side_scenario(
            Side::Proposed,
            Input {
                name: "p",
                text: &proposed.to_string(),
            },
            &base,
            "j",
            &ImportOptions::default(),
            &config::UnknownShares::Refuse,
        )
        .unwrap();
        let merged: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(merged["queue"]["queueing"], "strict_fifo");
        assert_eq!(merged["jobs"][0]["work_s"], 100);
    }

    #[test]
    fn a_plan_runs_seeds_on_any_thread_in_any_order() {
        fn sync<T: Sync + Send>() {}
        sync::<Plan>();
        sync::<SeedRuns>();
        let jobs = JOBS.replace(
            "\"jobs\":[",
            "\"workloads\":[{\"share\":\"b\",\"count\":4,\"arrival\":{\"poisson_per_hour\":30},\"instance_type\":\"ml.g5.xlarge\",\"work_s\":{\"exponential\":{\"mean\":600}}}],\"jobs\":[",
        );
        let reserve = CONFIG.replace("\"LEND\"", "\"RESERVE\"");
        let input = |name, text| Input { name, text };
        let plan = Plan::new(
            input("c", CONFIG),
            input("p", &reserve),
            JobsSource::Scenario(input("j", &jobs)),
            &ReviewOptions {
                seeds: Some(4),
                ..ReviewOptions::default()
            },
        )
        .unwrap();
        assert_eq!(plan.seeds(), [3, 4, 5, 6]);
        let mut backwards: Vec<SeedRuns> = (0..4).rev().map(|k| plan.run(k).unwrap()).collect();
        backwards.reverse();
        let forwards: Vec<SeedRuns> = (0..4).map(|k| plan.run(k).unwrap()).collect();
        assert_eq!(backwards, forwards);
        assert_ne!(
            forwards[0], forwards[1],
            "the seed changes the generated jobs"
        );
        let r = plan.clone().finish(forwards);
        assert_eq!(
            r,
            review(
                input("c", CONFIG),
                input("p", &reserve),
                JobsSource::Scenario(input("j", &jobs)),
                &ReviewOptions {
                    seeds: Some(4),
                    ..ReviewOptions::default()
                }
            )
            .unwrap()
        );
    }

    #[test]
    fn scenarios_are_told_from_configurations() {
        assert!(as_scenario(CONFIG).is_some());
        assert!(as_scenario(&CONFIG.replace("\"format\":\"quotalab/v1\",", "")).is_some());
        assert!(as_scenario(r#"{"format": "quotalab-result/v1", "shares": {}}"#).is_none());
        assert!(as_scenario(r#"{"quotaShareName": "a", "capacityLimits": []}"#).is_none());
        assert!(as_scenario(r#"[{"quotaShareName": "a"}]"#).is_none());
        assert!(as_scenario("kind: ClusterQueue").is_none());
        assert!(as_scenario("{ kind: ClusterQueue }").is_none());
    }

    #[test]
    fn a_configuration_without_jobs_asks_for_them() {
        let e = review(
            Input {
                name: "current.yaml",
                text: "kind: ClusterQueue",
            },
            Input {
                name: "p.yaml",
                text: "kind: ClusterQueue",
            },
            JobsSource::Current,
            &ReviewOptions::default(),
        )
        .unwrap_err();
        assert_eq!(e.len(), 1);
        assert!(e[0]
            .to_string()
            .starts_with("current.yaml: CURRENT has no jobs"));
        assert!(e[0].message.contains("--jobs FILE"));
        // The page's words (issue #34): no CURRENT, no --jobs.
        let w = e[0].words();
        assert!(
            w.starts_with("The scenario has no jobs or workloads"),
            "{w}"
        );
        assert!(!w.contains("--jobs") && !w.contains("CURRENT"), "{w}");
    }

    #[test]
    fn workloads_are_random_and_get_ten_seeds() {
        let jobs = JOBS.replace(
            "\"jobs\":[",
            "\"workloads\":[{\"share\":\"b\",\"count\":3,\"arrival\":{\"poisson_per_hour\":20},\"instance_type\":\"ml.g5.xlarge\",\"work_s\":{\"exponential\":{\"mean\":300}}}],\"jobs\":[",
        );
        let r = review(
            Input {
                name: "c",
                text: CONFIG,
            },
            Input {
                name: "p",
                text: CONFIG,
            },
            JobsSource::Scenario(Input {
                name: "j",
                text: &jobs,
            }),
            &ReviewOptions::default(),
        )
        .unwrap();
        assert_eq!(r.seeds, (3..13).collect::<Vec<u64>>());
        let json: Value = serde_json::from_str(&json_text(&r)).unwrap();
        assert_eq!(json["seeds"].as_array().unwrap().len(), 10);
        assert_eq!(json["shares"][0]["metrics"]["completion_p90"]["change"], 0);
    }
}
