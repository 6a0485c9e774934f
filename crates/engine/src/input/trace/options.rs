//! The import's options (SPEC 11), one field per command-line option, with their defaults
//! written once: the CLI's `quotasim trace import` and the page's import form both build an
//! [`ImportOptions`]. Also the checks of the options that do not depend on the trace.

use super::*;

/// How numeric times in the trace are expressed (SPEC 11 `--time-unit s|ms`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TimeUnit {
    #[default]
    Seconds,
    Millis,
}

impl TimeUnit {
    /// Parses `s` or `ms` (SPEC 11 `--time-unit`).
    pub fn parse(text: &str) -> Option<TimeUnit> {
        match text {
            "s" => Some(TimeUnit::Seconds),
            "ms" => Some(TimeUnit::Millis),
            _ => None,
        }
    }

    /// The option's spelling: `s` or `ms`.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Millis => "ms",
        }
    }

    /// Every unit, in the order the options list them.
    pub const ALL: [TimeUnit; 2] = [TimeUnit::Seconds, TimeUnit::Millis];
}

/// How the shares' limits are set from the capacity (SPEC 11 `--limits proportional|equal`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LimitsMode {
    #[default]
    Proportional,
    Equal,
}

impl LimitsMode {
    /// Parses `proportional` or `equal` (SPEC 11 `--limits`).
    pub fn parse(text: &str) -> Option<LimitsMode> {
        match text {
            "proportional" => Some(LimitsMode::Proportional),
            "equal" => Some(LimitsMode::Equal),
            _ => None,
        }
    }

    /// The option's spelling: `proportional` or `equal`.
    pub fn as_str(self) -> &'static str {
        match self {
            LimitsMode::Proportional => "proportional",
            LimitsMode::Equal => "equal",
        }
    }

    /// Every mode, in the order the options list them.
    pub const ALL: [LimitsMode; 2] = [LimitsMode::Proportional, LimitsMode::Equal];
}

/// The options of a trace import (SPEC 11), one field per command-line option, plus the
/// scenario's `name`. Column options name a column of the CSV header.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ImportOptions {
    /// The scenario's `name` (default `imported trace`).
    pub name: String,
    /// `--submit COL`: the submit time column (required).
    pub submit: String,
    /// `--time-unit s|ms`: the unit of numeric times (submit, end and duration).
    pub time_unit: TimeUnit,
    /// `--duration COL`: the run time column; exactly one of `duration` and `end` is required.
    pub duration: Option<String>,
    /// `--end COL`: the end time column (duration = end - submit).
    pub end: Option<String>,
    /// `--gpus COL`: GPUs per job (default: 1 GPU per job).
    pub gpus: Option<String>,
    /// `--share COL`: the share column (default: one share named `default`).
    pub share: Option<String>,
    /// `--top-shares N`: keep the N shares with most jobs, fold the rest into `other`.
    pub top_shares: Option<usize>,
    /// `--priority COL`: the priority column (default: priority 0).
    pub priority: Option<String>,
    /// `--priority-map LS=2,BE=0` (see [`parse_priority_map`]).
    pub priority_map: Vec<(String, Priority)>,
    /// `--instance-type NAME` (default `ml.g5.xlarge`).
    pub instance_type: String,
    /// `--gpus-per-instance K` (default 1): instances = ceil(gpus / K), at least 1.
    pub gpus_per_instance: u32,
    /// `--limits proportional|equal`.
    pub limits: LimitsMode,
    /// `--capacity N`: total instances (default: sized for the average load).
    pub capacity: Option<u64>,
    /// `--strategy` for every share (default `LEND_AND_BORROW`).
    pub strategy: String,
    /// `--borrow-limit` for every share (only with `LEND_AND_BORROW`; default -1, unlimited).
    pub borrow_limit: Option<i64>,
    /// `--limit-jobs N`: stop reading after N imported jobs.
    pub limit_jobs: Option<usize>,
}

impl ImportOptions {
    /// The scenario's `name` unless the caller names it.
    pub const DEFAULT_NAME: &'static str = "imported trace";
    /// `--time-unit`: seconds.
    pub const DEFAULT_TIME_UNIT: TimeUnit = TimeUnit::Seconds;
    /// `--instance-type`: a one-GPU instance of the catalogue.
    pub const DEFAULT_INSTANCE_TYPE: &'static str = "ml.g5.xlarge";
    /// `--gpus-per-instance`: one GPU per instance.
    pub const DEFAULT_GPUS_PER_INSTANCE: u32 = 1;
    /// `--limits`: in proportion to each share's demand.
    pub const DEFAULT_LIMITS: LimitsMode = LimitsMode::Proportional;
    /// `--strategy`: every share lends and borrows.
    pub const DEFAULT_STRATEGY: Strategy = Strategy::LendAndBorrow;
}

impl Default for ImportOptions {
    /// The defaults of SPEC 11 (see the `DEFAULT_*` constants); `submit` is empty (the caller
    /// must name the column) and every optional column is unset.
    fn default() -> ImportOptions {
        ImportOptions {
            name: ImportOptions::DEFAULT_NAME.to_string(),
            submit: String::new(),
            time_unit: ImportOptions::DEFAULT_TIME_UNIT,
            duration: None,
            end: None,
            gpus: None,
            share: None,
            top_shares: None,
            priority: None,
            priority_map: Vec::new(),
            instance_type: ImportOptions::DEFAULT_INSTANCE_TYPE.to_string(),
            gpus_per_instance: ImportOptions::DEFAULT_GPUS_PER_INSTANCE,
            limits: ImportOptions::DEFAULT_LIMITS,
            capacity: None,
            strategy: ImportOptions::DEFAULT_STRATEGY.as_str().to_string(),
            borrow_limit: None,
            limit_jobs: None,
        }
    }
}

/// Parses a priority map such as `LS=2,BE=0` (SPEC 11 `--priority-map`): comma-separated
/// `VALUE=PRIORITY` pairs, priorities 0..=9999, values unique.
pub fn parse_priority_map(text: &str) -> Result<Vec<(String, Priority)>, Problem> {
    let bad = |message: String| Problem::new(Path::named("--priority-map"), message);
    let mut map: Vec<(String, Priority)> = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((key, value)) = item.rsplit_once('=') else {
            return Err(bad(format!("{item:?} is not VALUE=PRIORITY")));
        };
        let key = key.trim();
        if key.is_empty() {
            return Err(bad(format!("{item:?} has an empty value before '='")));
        }
        let priority: Priority = match value.trim().parse() {
            Ok(p) if (MIN_PRIORITY..=MAX_PRIORITY).contains(&p) => p,
            _ => {
                return Err(bad(format!(
                    "{item:?}: the priority must be an integer 0..=9999"
                )))
            }
        };
        if map.iter().any(|(k, _)| k == key) {
            return Err(bad(format!("{key:?} is mapped twice")));
        }
        map.push((key.to_string(), priority));
    }
    if map.is_empty() {
        return Err(bad(
            "empty map: expected VALUE=PRIORITY pairs such as LS=2,BE=0".into(),
        ));
    }
    Ok(map)
}

/// Checks the options that do not depend on the trace.
pub(super) fn check_options(opts: &ImportOptions) -> Result<(), Problem> {
    let bad = |path: &str, message: &str| Err(Problem::new(Path::named(path), message));
    if opts.submit.trim().is_empty() {
        return bad("--submit", "a submit time column is required");
    }
    match (&opts.duration, &opts.end) {
        (None, None) => {
            return bad(
                "--duration",
                "one of --duration COL or --end COL is required",
            )
        }
        (Some(_), Some(_)) => return bad("--end", "give --duration or --end, not both"),
        _ => {}
    }
    if opts.gpus_per_instance == 0 {
        return bad("--gpus-per-instance", "must be >= 1");
    }
    if opts.instance_type.trim().is_empty() {
        return bad("--instance-type", "must not be empty");
    }
    if crate::input::catalogue::lookup(&opts.instance_type).is_none() {
        let known: Vec<&str> = crate::input::catalogue::names().collect();
        return Err(Problem::new(
            Path::named("--instance-type"),
            format!(
                "unknown instance type \"{}\" (built-in: {})",
                opts.instance_type,
                known.join(", ")
            ),
        ));
    }
    if let Some(n) = opts.top_shares {
        if opts.share.is_none() {
            return bad("--top-shares", "needs a share column (--share COL)");
        }
        if n == 0 {
            return bad("--top-shares", "must be >= 1");
        }
    }
    if !opts.priority_map.is_empty() && opts.priority.is_none() {
        return bad("--priority-map", "needs a priority column (--priority COL)");
    }
    for (key, value) in &opts.priority_map {
        if !(MIN_PRIORITY..=MAX_PRIORITY).contains(value) {
            return Err(Problem::new(
                Path::named("--priority-map"),
                format!("{key:?}: the priority must be 0..=9999, not {value}"),
            ));
        }
    }
    match opts.capacity {
        Some(0) => return bad("--capacity", "must be >= 1"),
        Some(n) if n > MAX_CAPACITY => return bad("--capacity", "must be at most 1,000,000,000"),
        _ => {}
    }
    if !matches!(
        opts.strategy.as_str(),
        "RESERVE" | "LEND" | "LEND_AND_BORROW"
    ) {
        return Err(Problem::new(
            Path::named("--strategy"),
            format!(
                "unknown strategy {:?}: expected RESERVE, LEND or LEND_AND_BORROW",
                opts.strategy
            ),
        ));
    }
    if let Some(limit) = opts.borrow_limit {
        if opts.strategy != "LEND_AND_BORROW" {
            return bad(
                "--borrow-limit",
                "only applies with --strategy LEND_AND_BORROW",
            );
        }
        if limit < -1 {
            return bad("--borrow-limit", "must be >= -1 (-1 = unlimited)");
        }
    }
    if opts.limit_jobs == Some(0) {
        return bad("--limit-jobs", "must be >= 1");
    }
    Ok(())
}
