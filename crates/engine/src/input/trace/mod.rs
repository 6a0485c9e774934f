//! Trace import (SPEC 11): turns a cluster's job log (CSV) into a scenario (SPEC 7).
//!
//! Pure: reads from any [`std::io::Read`], writes nothing. Streaming with bounded memory:
//! rows are read one at a time, each record is capped at [`MAX_RECORD_BYTES`] before the CSV
//! parser buffers it (a longer row is skipped as unreadable, never held whole), and only a
//! compact form of each imported job is kept (about 32 bytes), plus one entry per share.
//!
//! Choices this module makes where SPEC 11 leaves room (documented in the report too):
//! - **Rows** are numbered from 1 for the first data row (the header is not a row).
//! - **Times**: `--time-unit` applies to every numeric time (submit, end and duration);
//!   a submit or end value of the form `YYYY-MM-DD HH:MM:SS` (also with `T`, fractional
//!   seconds, a trailing `Z`; read as UTC) is a timestamp, detected per value. Times are kept
//!   in integer milliseconds; the earliest submit becomes 0.
//! - **Jobs** are sorted by submit time, stable in row order; job ids are `<share>-<n>`, `n`
//!   counting from 1 within each share in submit order (the convention of SPEC 7's generated
//!   ids). `--limit-jobs N` stops reading after N imported jobs (the first N readable rows in
//!   file order, not the N earliest).
//! - **Shares** are listed by descending job count, ties by name, a share named `other` last.
//!   `--top-shares N` keeps the N shares with most jobs (ties by name) and folds the rest into
//!   `other` (a trace share literally named `other` then belongs to the fold). More than 20
//!   shares (SPEC 2's limit) is an error that suggests `--top-shares`.
//! - **Priority**: with `--priority-map`, values are looked up in the map and an unmapped value
//!   skips the row; without a map, the column must hold integers 0..=9999.
//! - **Capacity** (`--capacity` unset): sized for the trace's *average* load, so that queues
//!   form at peaks: `ceil(sum of work_s x instances / makespan)`, where the makespan runs from
//!   the first submit to the last end if every job started on submit; at least the largest
//!   job's instances.
//! - **Limits**: `proportional` splits the capacity in proportion to each share's demand
//!   (sum of work_s x instances), `equal` evenly; both by largest remainder so the limits sum
//!   exactly to the capacity (ties to the earlier share in the list for `proportional`, to the
//!   first shares in name order for `equal`). A limit may be 0 (SPEC 3: a limit of 0 is a limit).

use std::collections::HashMap;
use std::io::{self, Read};

use serde_json::{json, Map, Value};

use crate::model::Strategy;
use crate::Problem;

/// The longest CSV record (row) read, in bytes; a longer one is skipped, never buffered whole.
pub const MAX_RECORD_BYTES: usize = 1024 * 1024;

use crate::model::limits::{
    MAX_INSTANCES as MAX_CAPACITY, MAX_NAME as MAX_SHARE_NAME, MAX_PRIORITY, MAX_SHARES,
    MAX_TRACE_GPUS as MAX_GPUS, MAX_TRACE_TIME_MS as MAX_TIME_MS,
};

/// How many row problems the report quotes.
const FIRST_PROBLEMS: usize = 5;

/// How numeric times in the trace are expressed (SPEC 11 `--time-unit s|ms`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    pub priority_map: Vec<(String, u32)>,
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

/// What an import read (SPEC 11: "rows that cannot be read are skipped and counted").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Data rows read (the header excluded).
    pub rows: u64,
    /// Jobs in the scenario.
    pub imported: u64,
    /// Rows skipped as unreadable.
    pub skipped: u64,
    /// The first few reasons, such as `row 17: duration: not a number: "abc"`.
    pub first_problems: Vec<String>,
}

/// Parses a priority map such as `LS=2,BE=0` (SPEC 11 `--priority-map`): comma-separated
/// `VALUE=PRIORITY` pairs, priorities 0..=9999, values unique.
pub fn parse_priority_map(text: &str) -> Result<Vec<(String, u32)>, Problem> {
    let bad = |message: String| Problem::new("--priority-map", message);
    let mut map: Vec<(String, u32)> = Vec::new();
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
        let priority: u32 = match value.trim().parse() {
            Ok(p) if p <= MAX_PRIORITY => p,
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

/// Imports a CSV job trace as a scenario (SPEC 11 "Trace import", producing SPEC 7's format).
///
/// Reads `input` once, streaming. Returns the scenario (`format`, `name`, `seed` 1,
/// `capacity`, `queue`, `shares`, `jobs`; `instance_types` is left out, so the instance type
/// must be in the engine's catalogue) and a report of the rows read and skipped. Errors (no
/// row produced): invalid options, a named column missing from the header (the message lists
/// the header's columns), an unreadable input, a trace with no readable row, and more than 20
/// shares. See the module documentation for the rules where SPEC 11 leaves room.
pub fn import<R: Read>(input: R, opts: &ImportOptions) -> Result<(Value, ImportReport), Problem> {
    check_options(opts)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(BoundedRecords::new(input));

    let header = reader
        .byte_headers()
        .map_err(|e| Problem::new("", format!("cannot read the trace: {e}")))?
        .clone();
    if header.is_empty() || (header.len() == 1 && header[0].trim_ascii().is_empty()) {
        return Err(Problem::new("", "the trace is empty: no header row"));
    }
    if header.iter().any(is_oversized) {
        return Err(Problem::new(
            "",
            "the header row is longer than 1 MiB: not a CSV trace",
        ));
    }
    let columns = Columns::find(&header, opts)?;

    let priority_map: HashMap<&str, u32> = opts
        .priority_map
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    let mut shares = ShareTable::default();
    let mut jobs: Vec<Row> = Vec::new();
    let mut report = ImportReport::default();
    let mut record = csv::ByteRecord::new();

    loop {
        if opts.limit_jobs.is_some_and(|n| jobs.len() >= n) {
            break;
        }
        match reader.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                if let csv::ErrorKind::Io(_) = e.kind() {
                    return Err(Problem::new("", format!("cannot read the trace: {e}")));
                }
                // Not expected with flexible byte records; count it as an unreadable row.
                report.rows += 1;
                report.skip(format!("row {}: {e}", report.rows));
                continue;
            }
        }
        report.rows += 1;
        match read_row(&record, &columns, opts, &priority_map, &mut shares) {
            Ok(row) => jobs.push(row),
            Err(reason) => report.skip(format!("row {}: {reason}", report.rows)),
        }
    }

    if jobs.is_empty() {
        let message = if report.rows == 0 {
            "the trace has a header row but no data row".to_string()
        } else {
            let first = report
                .first_problems
                .first()
                .map_or(String::new(), |p| format!(" (first: {p})"));
            format!(
                "the trace has no readable row: all {} rows were skipped{first}",
                report.rows
            )
        };
        return Err(Problem::new("", message));
    }
    report.imported = jobs.len() as u64;
    let scenario = build_scenario(jobs, &shares, opts)?;
    Ok((scenario, report))
}

impl ImportReport {
    fn skip(&mut self, reason: String) {
        self.skipped += 1;
        if self.first_problems.len() < FIRST_PROBLEMS {
            self.first_problems.push(reason);
        }
    }
}

/// Checks the options that do not depend on the trace.
fn check_options(opts: &ImportOptions) -> Result<(), Problem> {
    let bad = |path: &str, message: &str| Err(Problem::new(path, message));
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
    if crate::catalogue::lookup(&opts.instance_type).is_none() {
        let known: Vec<&str> = crate::catalogue::names().collect();
        return Err(Problem::new(
            "--instance-type",
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
        if *value > MAX_PRIORITY {
            return Err(Problem::new(
                "--priority-map",
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
            "--strategy",
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

/// One imported job, compact.
#[derive(Clone, Copy, Debug)]
struct Row {
    submit_ms: i64,
    work_ms: i64,
    instances: u32,
    priority: u32,
    share: u32,
}

/// Column indexes of the options' columns, with their names for messages.
struct Columns {
    submit: (usize, String),
    duration: Option<(usize, String)>,
    end: Option<(usize, String)>,
    gpus: Option<(usize, String)>,
    share: Option<(usize, String)>,
    priority: Option<(usize, String)>,
}

impl Columns {
    fn find(header: &csv::ByteRecord, opts: &ImportOptions) -> Result<Columns, Problem> {
        let names: Vec<String> = header
            .iter()
            .map(|h| String::from_utf8_lossy(h.trim_ascii()).into_owned())
            .collect();
        let find = |option: &str, wanted: &str| -> Result<(usize, String), Problem> {
            let wanted = wanted.trim();
            match names.iter().position(|n| n == wanted) {
                Some(i) => Ok((i, wanted.to_string())),
                None => Err(Problem::new(
                    option,
                    format!(
                        "no column {wanted:?} in the trace's header; its columns are: {}",
                        list_columns(&names)
                    ),
                )),
            }
        };
        let optional = |option: &str, wanted: &Option<String>| {
            wanted.as_deref().map(|w| find(option, w)).transpose()
        };
        Ok(Columns {
            submit: find("--submit", &opts.submit)?,
            duration: optional("--duration", &opts.duration)?,
            end: optional("--end", &opts.end)?,
            gpus: optional("--gpus", &opts.gpus)?,
            share: optional("--share", &opts.share)?,
            priority: optional("--priority", &opts.priority)?,
        })
    }
}

/// The header's column names for a message, shortened if the header is huge.
fn list_columns(names: &[String]) -> String {
    const MAX: usize = 40;
    let mut shown: Vec<String> = names.iter().take(MAX).map(|n| shorten(n)).collect();
    if names.len() > MAX {
        shown.push(format!("... ({} columns in all)", names.len()));
    }
    shown.join(", ")
}

/// A value quoted for a message, cut to 40 characters.
fn quote(text: &str) -> String {
    format!("{:?}", shorten(text))
}

fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

/// The distinct share values of the trace, with their job counts and demand.
#[derive(Default)]
struct ShareTable {
    index: HashMap<String, u32>,
    names: Vec<String>,
    jobs: Vec<u64>,
}

impl ShareTable {
    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.index.insert(name.to_string(), i);
        self.names.push(name.to_string());
        self.jobs.push(0);
        i
    }
}

/// The text of a column in a row, trimmed; a reason if missing, empty or not UTF-8.
fn field<'r>(record: &'r csv::ByteRecord, column: &(usize, String)) -> Result<&'r str, String> {
    let (index, name) = column;
    let bytes = record.get(*index).ok_or_else(|| {
        format!(
            "{name}: missing value (the row has {} columns)",
            record.len()
        )
    })?;
    let text = std::str::from_utf8(bytes)
        .map_err(|_| format!("{name}: not UTF-8 text"))?
        .trim();
    if text.is_empty() {
        return Err(format!("{name}: empty"));
    }
    Ok(text)
}

/// Reads one data row as a job, or says why it cannot be read.
fn read_row(
    record: &csv::ByteRecord,
    columns: &Columns,
    opts: &ImportOptions,
    priority_map: &HashMap<&str, u32>,
    shares: &mut ShareTable,
) -> Result<Row, String> {
    if record.iter().any(is_oversized) {
        return Err("longer than 1 MiB".to_string());
    }
    let unit = opts.time_unit;
    let submit_ms = {
        let text = field(record, &columns.submit)?;
        parse_time(text, unit).map_err(|e| format!("{}: {e}", columns.submit.1))?
    };
    let work_ms = if let Some(column) = &columns.duration {
        let text = field(record, column)?;
        let ms = parse_number_ms(text, unit).map_err(|e| format!("{}: {e}", column.1))?;
        if ms <= 0 {
            return Err(format!("{}: must be > 0, not {}", column.1, quote(text)));
        }
        ms
    } else if let Some(column) = &columns.end {
        let text = field(record, column)?;
        let end_ms = parse_time(text, unit).map_err(|e| format!("{}: {e}", column.1))?;
        if end_ms <= submit_ms {
            return Err(format!(
                "{}: must be after the submit time, not {}",
                column.1,
                quote(text)
            ));
        }
        end_ms - submit_ms
    } else {
        return Err("no duration or end column".to_string());
    };
    let instances = match &columns.gpus {
        None => 1,
        Some(column) => {
            let text = field(record, column)?;
            let gpus = parse_float(text).map_err(|e| format!("{}: {e}", column.1))?;
            if gpus > MAX_GPUS {
                return Err(format!("{}: out of range: {}", column.1, quote(text)));
            }
            // gpus <= 1e6, so the quotient fits in u32.
            let instances = (gpus / f64::from(opts.gpus_per_instance)).ceil() as u32;
            instances.max(1)
        }
    };
    let priority = match &columns.priority {
        None => 0,
        Some(column) => {
            let text = field(record, column)?;
            if opts.priority_map.is_empty() {
                match text.parse::<u32>() {
                    Ok(p) if p <= MAX_PRIORITY => p,
                    _ => {
                        return Err(format!(
                            "{}: not a priority 0..=9999 (and no --priority-map): {}",
                            column.1,
                            quote(text)
                        ))
                    }
                }
            } else {
                match priority_map.get(text) {
                    Some(&p) => p,
                    None => {
                        return Err(format!(
                            "{}: {} is not in --priority-map",
                            column.1,
                            quote(text)
                        ))
                    }
                }
            }
        }
    };
    // The share last: a skipped row never creates a share.
    let share = match &columns.share {
        None => shares.intern("default"),
        Some(column) => {
            let text = field(record, column)?;
            if text.chars().count() > MAX_SHARE_NAME {
                return Err(format!(
                    "{}: a share name is at most 128 characters: {}",
                    column.1,
                    quote(text)
                ));
            }
            shares.intern(text)
        }
    };
    if let Some(count) = shares.jobs.get_mut(share as usize) {
        *count += 1;
    }
    Ok(Row {
        submit_ms,
        work_ms,
        instances,
        priority,
        share,
    })
}

/// A finite, non-negative number.
fn parse_float(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("not a number: {}", quote(text)))?;
    if !value.is_finite() {
        return Err(format!("not a finite number: {}", quote(text)));
    }
    if value < 0.0 {
        return Err(format!("negative: {}", quote(text)));
    }
    Ok(value)
}

/// A numeric time in the trace's unit, as integer milliseconds.
fn parse_number_ms(text: &str, unit: TimeUnit) -> Result<i64, String> {
    let value = parse_float(text)?;
    let ms = match unit {
        TimeUnit::Seconds => value * 1000.0,
        TimeUnit::Millis => value,
    };
    if ms > MAX_TIME_MS {
        return Err(format!("out of range: {}", quote(text)));
    }
    // 0 <= ms <= 1e13: the rounded value fits in i64 exactly.
    Ok(ms.round() as i64)
}

/// A submit or end time: a timestamp `YYYY-MM-DD HH:MM:SS` (UTC) or a number in the
/// trace's unit, as integer milliseconds.
fn parse_time(text: &str, unit: TimeUnit) -> Result<i64, String> {
    let b = text.as_bytes();
    let looks_like_timestamp = text.contains(':') || (b.len() >= 10 && b[4] == b'-');
    if looks_like_timestamp {
        parse_timestamp(text)
            .ok_or_else(|| format!("not a YYYY-MM-DD HH:MM:SS timestamp: {}", quote(text)))
    } else {
        parse_number_ms(text, unit).map_err(|e| {
            if e.starts_with("not a number") {
                format!(
                    "not a number or a YYYY-MM-DD HH:MM:SS timestamp: {}",
                    quote(text)
                )
            } else {
                e
            }
        })
    }
}

/// `YYYY-MM-DD HH:MM:SS` (or `T` for the space, optional `.fraction`, optional `Z`) as
/// milliseconds since 1970-01-01 00:00:00 UTC.
fn parse_timestamp(text: &str) -> Option<i64> {
    let text = text.strip_suffix('Z').unwrap_or(text);
    let b = text.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b' ' | b'T') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let digits = |from: usize, to: usize| -> Option<i64> {
        let part = b.get(from..to)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(part.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let year = digits(0, 4)?;
    let month = digits(5, 7)?;
    let day = digits(8, 10)?;
    let hour = digits(11, 13)?;
    let minute = digits(14, 16)?;
    let second = digits(17, 19)?;
    let mut millis = 0;
    if b.len() > 19 {
        let fraction = b.get(20..)?;
        if b[19] != b'.' || fraction.is_empty() || fraction.len() > 9 {
            return None;
        }
        if !fraction.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut scaled = [b'0'; 3];
        for (slot, d) in scaled.iter_mut().zip(fraction) {
            *slot = *d;
        }
        millis = scaled
            .iter()
            .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
    }
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis)
}

fn is_leap_year(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let shifted_month = (month + 9) % 12; // March = 0
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// A final share of the scenario.
struct Share {
    name: String,
    jobs: u64,
    /// Sum of work_ms x instances.
    demand: u128,
}

/// Sorts, folds, sets the limits and writes the scenario.
fn build_scenario(
    mut jobs: Vec<Row>,
    table: &ShareTable,
    opts: &ImportOptions,
) -> Result<Value, Problem> {
    // Which trace shares survive, in listing order; the rest fold into `other`.
    let mut order: Vec<usize> = (0..table.names.len())
        .filter(|&i| table.jobs[i] > 0)
        .collect();
    let by_count = |a: &usize, b: &usize| {
        table.jobs[*b]
            .cmp(&table.jobs[*a])
            .then_with(|| table.names[*a].cmp(&table.names[*b]))
    };
    crate::sort::stable_by(&mut order, &by_count);
    let fold = opts.top_shares.filter(|&n| order.len() > n);
    let mut final_of: Vec<usize> = vec![0; table.names.len()];
    let mut shares: Vec<Share> = Vec::new();
    if let Some(keep) = fold {
        let (kept, folded): (Vec<usize>, Vec<usize>) = {
            let ranked: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&i| table.names[i] != "other")
                .collect();
            let kept: Vec<usize> = ranked.iter().copied().take(keep).collect();
            let folded = order
                .iter()
                .copied()
                .filter(|i| !kept.contains(i))
                .collect();
            (kept, folded)
        };
        for i in kept {
            final_of[i] = shares.len();
            shares.push(Share {
                name: table.names[i].clone(),
                jobs: 0,
                demand: 0,
            });
        }
        if !folded.is_empty() {
            for i in folded {
                final_of[i] = shares.len();
            }
            shares.push(Share {
                name: "other".to_string(),
                jobs: 0,
                demand: 0,
            });
        }
    } else {
        // A share named `other` goes last.
        crate::sort::stable_by_i64(&mut order, &|&i| i64::from(table.names[i] == "other"));
        for i in order {
            final_of[i] = shares.len();
            shares.push(Share {
                name: table.names[i].clone(),
                jobs: 0,
                demand: 0,
            });
        }
    }
    if shares.len() > MAX_SHARES {
        return Err(Problem::new(
            "--share",
            format!(
                "the trace has {} shares, and a queue holds at most {MAX_SHARES} (SPEC 2): \
                 use --top-shares N (N <= 19) to fold the smaller ones into `other`",
                shares.len()
            ),
        ));
    }
    for job in &mut jobs {
        let s = final_of[job.share as usize];
        job.share = s as u32;
        shares[s].jobs += 1;
        shares[s].demand = shares[s]
            .demand
            .saturating_add(job.work_ms as u128 * u128::from(job.instances));
    }

    crate::sort::stable_by_i64(&mut jobs, &|j| j.submit_ms); // stable: row order within an instant
    let start = jobs.first().map_or(0, |j| j.submit_ms);
    let capacity = match opts.capacity {
        Some(c) => c,
        None => average_load_capacity(&jobs, start),
    };
    let limits = match opts.limits {
        LimitsMode::Proportional => {
            let weights: Vec<u128> = shares.iter().map(|s| s.demand).collect();
            largest_remainder(capacity, &weights)
        }
        LimitsMode::Equal => equal_split(capacity, &shares),
    };

    let itype = opts.instance_type.trim();
    let share_values: Vec<Value> = shares
        .iter()
        .zip(&limits)
        .map(|(share, limit)| {
            let mut m = Map::new();
            m.insert("name".into(), json!(share.name));
            m.insert("limits".into(), json!({ itype: limit }));
            m.insert("strategy".into(), json!(opts.strategy));
            if opts.strategy == "LEND_AND_BORROW" {
                m.insert(
                    "borrow_limit".into(),
                    json!(opts.borrow_limit.unwrap_or(-1)),
                );
            }
            m.insert("in_share_preemption".into(), json!(false));
            Value::Object(m)
        })
        .collect();

    let mut counters: Vec<u64> = vec![0; shares.len()];
    let job_values: Vec<Value> = jobs
        .iter()
        .map(|job| {
            let s = job.share as usize;
            counters[s] += 1;
            let mut m = Map::new();
            m.insert(
                "id".into(),
                json!(format!("{}-{}", shares[s].name, counters[s])),
            );
            m.insert("share".into(), json!(shares[s].name));
            m.insert("instance_type".into(), json!(itype));
            m.insert("instances".into(), json!(job.instances));
            m.insert("priority".into(), json!(job.priority));
            m.insert("submit_s".into(), seconds(job.submit_ms - start));
            m.insert("work_s".into(), seconds(job.work_ms));
            Value::Object(m)
        })
        .collect();

    let mut scenario = Map::new();
    scenario.insert("format".into(), json!("quotalab/v1"));
    scenario.insert("name".into(), json!(opts.name));
    scenario.insert("seed".into(), json!(1));
    scenario.insert("capacity".into(), json!({ itype: capacity }));
    scenario.insert(
        "queue".into(),
        json!({"queueing": "best_effort_fifo", "preemption_grace_s": 120}),
    );
    scenario.insert("shares".into(), Value::Array(share_values));
    scenario.insert("jobs".into(), Value::Array(job_values));
    Ok(Value::Object(scenario))
}

/// Milliseconds as a JSON number of seconds: an integer when whole.
fn seconds(ms: i64) -> Value {
    if ms % 1000 == 0 {
        json!(ms / 1000)
    } else {
        json!(ms as f64 / 1000.0)
    }
}

/// The default capacity: the average load, `ceil(sum of work x instances / makespan)`,
/// where the makespan runs from the first submit to the last end if every job started on
/// submit; at least the largest job's instances.
fn average_load_capacity(jobs: &[Row], start: i64) -> u64 {
    let mut demand: u128 = 0;
    let mut makespan: i64 = 1;
    let mut largest: u64 = 1;
    for job in jobs {
        demand = demand.saturating_add(job.work_ms as u128 * u128::from(job.instances));
        makespan = makespan.max(job.submit_ms - start + job.work_ms);
        largest = largest.max(u64::from(job.instances));
    }
    let makespan = makespan as u128;
    let average = demand.div_ceil(makespan);
    let average = u64::try_from(average)
        .unwrap_or(MAX_CAPACITY)
        .min(MAX_CAPACITY);
    average.max(largest)
}

/// Splits `total` in proportion to `weights` by largest remainder (Hamilton): the parts sum
/// exactly to `total`; ties go to the earlier weight. All-zero weights split evenly.
fn largest_remainder(total: u64, weights: &[u128]) -> Vec<u64> {
    let mut weights = weights.to_vec();
    let total_wide = u128::from(total);
    loop {
        let sum: u128 = weights.iter().fold(0u128, |a, w| a.saturating_add(*w));
        if sum == 0 {
            return split_evenly(total, weights.len());
        }
        // Keep total x sum within u128 (only absurd traces need this).
        if sum < u128::MAX / total_wide.max(1) {
            let mut parts: Vec<u64> = Vec::with_capacity(weights.len());
            let mut remainders: Vec<(u128, usize)> = Vec::with_capacity(weights.len());
            for (i, w) in weights.iter().enumerate() {
                let exact = total_wide * w;
                parts.push(u64::try_from(exact / sum).unwrap_or(total));
                remainders.push((exact % sum, i));
            }
            let given: u64 = parts.iter().sum();
            let mut left = total.saturating_sub(given);
            crate::sort::stable_by(&mut remainders, &|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            for (_, i) in remainders {
                if left == 0 {
                    break;
                }
                parts[i] += 1;
                left -= 1;
            }
            return parts;
        }
        for w in &mut weights {
            *w >>= 1;
        }
    }
}

/// `total / n` each, the remainder one each to the first shares.
fn split_evenly(total: u64, n: usize) -> Vec<u64> {
    if n == 0 {
        return Vec::new();
    }
    let n64 = n as u64;
    (0..n64)
        .map(|i| total / n64 + u64::from(i < total % n64))
        .collect()
}

/// `equal` limits: an even split, the remainder one each to the first shares in name order.
fn equal_split(total: u64, shares: &[Share]) -> Vec<u64> {
    let mut by_name: Vec<usize> = (0..shares.len()).collect();
    crate::sort::stable_by(&mut by_name, &|a, b| shares[*a].name.cmp(&shares[*b].name));
    let parts = split_evenly(total, shares.len());
    let mut limits = vec![0; shares.len()];
    for (rank, &i) in by_name.iter().enumerate() {
        limits[i] = parts[rank];
    }
    limits
}

/// Marks a record cut at [`MAX_RECORD_BYTES`]; no CSV field holds it by accident (it has
/// NUL bytes, no quote, comma or line break).
const OVERSIZED: &[u8] = b"\x00quotalab: record longer than 1 MiB\x00";
/// The same mark closing a quoted field, so that the parser ends the record at the next
/// line break.
const OVERSIZED_QUOTED: &[u8] = b"\x00quotalab: record longer than 1 MiB\x00\"";

fn is_oversized(field: &[u8]) -> bool {
    field.ends_with(OVERSIZED)
}

/// Where a CSV record stands, mirroring the `csv` crate's parser (RFC 4180 quoting, `"`
/// doubled inside quotes; a quote not at a field's start is a plain character).
#[derive(Clone, Copy, PartialEq, Eq)]
enum CsvState {
    FieldStart,
    Unquoted,
    Quoted,
    QuoteInQuoted,
}

/// A reader that caps each CSV record at [`MAX_RECORD_BYTES`] before the CSV parser sees it:
/// the rest of a longer record is dropped and replaced by the [`OVERSIZED`] mark, so the
/// parser never buffers more than the cap and the importer skips the row.
struct BoundedRecords<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    state: CsvState,
    record_len: usize,
    dropping: bool,
    pending: &'static [u8],
}

impl<R: Read> BoundedRecords<R> {
    fn new(inner: R) -> BoundedRecords<R> {
        BoundedRecords {
            inner,
            buf: vec![0; 64 * 1024],
            pos: 0,
            len: 0,
            state: CsvState::FieldStart,
            record_len: 0,
            dropping: false,
            pending: &[],
        }
    }

    /// Advances the state over one byte of the original stream; true at a record's end.
    fn step(&mut self, byte: u8) -> bool {
        use CsvState::*;
        let (next, record_end) = match (self.state, byte) {
            (Quoted, b'"') => (QuoteInQuoted, false),
            (Quoted, _) => (Quoted, false),
            (_, b'\n' | b'\r') => (FieldStart, true),
            (_, b',') => (FieldStart, false),
            (FieldStart, b'"') => (Quoted, false),
            (QuoteInQuoted, b'"') => (Quoted, false),
            _ => (Unquoted, false),
        };
        self.state = next;
        record_end
    }
}

impl<R: Read> Read for BoundedRecords<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if out.is_empty() {
                return Ok(0);
            }
            if !self.pending.is_empty() {
                let n = self.pending.len().min(out.len());
                out[..n].copy_from_slice(&self.pending[..n]);
                self.pending = &self.pending[n..];
                return Ok(n);
            }
            if self.pos == self.len {
                self.len = self.inner.read(&mut self.buf)?;
                self.pos = 0;
                if self.len == 0 {
                    return Ok(0);
                }
            }
            let mut written = 0;
            while self.pos < self.len && written < out.len() {
                let byte = self.buf[self.pos];
                self.pos += 1;
                let parser_state = self.state;
                if self.step(byte) {
                    self.record_len = 0;
                    self.dropping = false;
                    out[written] = byte;
                    written += 1;
                    continue;
                }
                if self.dropping {
                    continue;
                }
                self.record_len += 1;
                if self.record_len > MAX_RECORD_BYTES {
                    self.dropping = true;
                    self.pending = if parser_state == CsvState::Quoted {
                        OVERSIZED_QUOTED
                    } else {
                        OVERSIZED
                    };
                    break;
                }
                out[written] = byte;
                written += 1;
            }
            if written > 0 {
                return Ok(written);
            }
            // Everything read so far was dropped (or a mark is pending): go on.
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn opts() -> ImportOptions {
        ImportOptions {
            submit: "submit".into(),
            duration: Some("duration".into()),
            ..ImportOptions::default()
        }
    }

    fn run(csv: &str, opts: &ImportOptions) -> (Value, ImportReport) {
        match import(csv.as_bytes(), opts) {
            Ok(out) => out,
            Err(p) => panic!("import failed: {p}"),
        }
    }

    fn error(csv: &[u8], opts: &ImportOptions) -> Problem {
        match import(csv, opts) {
            Ok((v, _)) => panic!("import succeeded: {v}"),
            Err(p) => p,
        }
    }

    fn jobs(v: &Value) -> &Vec<Value> {
        v["jobs"].as_array().unwrap()
    }

    fn ids(v: &Value) -> Vec<&str> {
        jobs(v).iter().map(|j| j["id"].as_str().unwrap()).collect()
    }

    fn share_names(v: &Value) -> Vec<&str> {
        v["shares"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect()
    }

    fn limits(v: &Value, itype: &str) -> Vec<u64> {
        v["shares"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["limits"][itype].as_u64().unwrap())
            .collect()
    }

    #[test]
    fn a_small_trace_gives_the_whole_scenario() {
        let csv = "submit,duration,gpus,team\n\
                   100,60,1,a\n\
                   40,30.5,16,b\n\
                   100,10,2,a\n";
        let o = ImportOptions {
            name: "tiny".into(),
            gpus: Some("gpus".into()),
            share: Some("team".into()),
            instance_type: "ml.p4d.24xlarge".into(),
            gpus_per_instance: 8,
            capacity: Some(4),
            ..opts()
        };
        let (v, report) = run(csv, &o);
        let want = serde_json::json!({
            "format": "quotalab/v1",
            "name": "tiny",
            "seed": 1,
            "capacity": {"ml.p4d.24xlarge": 4},
            "queue": {"queueing": "best_effort_fifo", "preemption_grace_s": 120},
            "shares": [
                {"name": "a", "limits": {"ml.p4d.24xlarge": 2}, "strategy": "LEND_AND_BORROW",
                 "borrow_limit": -1, "in_share_preemption": false},
                {"name": "b", "limits": {"ml.p4d.24xlarge": 2}, "strategy": "LEND_AND_BORROW",
                 "borrow_limit": -1, "in_share_preemption": false}
            ],
            "jobs": [
                {"id": "b-1", "share": "b", "instance_type": "ml.p4d.24xlarge", "instances": 2,
                 "priority": 0, "submit_s": 0, "work_s": 30.5},
                {"id": "a-1", "share": "a", "instance_type": "ml.p4d.24xlarge", "instances": 1,
                 "priority": 0, "submit_s": 60, "work_s": 60},
                {"id": "a-2", "share": "a", "instance_type": "ml.p4d.24xlarge", "instances": 1,
                 "priority": 0, "submit_s": 60, "work_s": 10}
            ]
        });
        assert_eq!(v, want);
        // Key order is part of the output (serde_json's preserve_order).
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            serde_json::to_string(&want).unwrap()
        );
        assert_eq!(
            report,
            ImportReport {
                rows: 3,
                imported: 3,
                skipped: 0,
                first_problems: vec![]
            }
        );
    }

    #[test]
    fn jobs_are_sorted_by_submit_stably_and_numbered_per_share() {
        let csv = "submit,duration,share\n\
                   5,1,x\n3,1,y\n5,1,y\n3,1,x\n0.5,1,x\n5,1,x\n";
        let o = ImportOptions {
            share: Some("share".into()),
            ..opts()
        };
        let (v, _) = run(csv, &o);
        assert_eq!(ids(&v), ["x-1", "y-1", "x-2", "x-3", "y-2", "x-4"]);
        let submits: Vec<f64> = jobs(&v)
            .iter()
            .map(|j| j["submit_s"].as_f64().unwrap())
            .collect();
        assert_eq!(submits, [0.0, 2.5, 2.5, 4.5, 4.5, 4.5]);
        // Whole seconds are JSON integers, others floats.
        assert!(jobs(&v)[0]["submit_s"].is_u64());
        assert!(jobs(&v)[1]["submit_s"].is_f64());
        // x has 4 jobs, y 2: x first.
        assert_eq!(share_names(&v), ["x", "y"]);
    }

    #[test]
    fn without_share_or_gpus_columns_there_is_one_default_share_of_1_instance_jobs() {
        let (v, _) = run("submit,duration\n0,10\n5,20\n", &opts());
        assert_eq!(share_names(&v), ["default"]);
        assert!(jobs(&v).iter().all(|j| j["instances"] == 1));
        assert_eq!(ids(&v), ["default-1", "default-2"]);
        assert_eq!(v["capacity"]["ml.g5.xlarge"], 2); // ceil(30 / 25)
    }

    #[test]
    fn milliseconds_apply_to_every_numeric_time() {
        let csv = "submit,duration\n1000,1500\n2500,250\n1000,0.4\n";
        let o = ImportOptions {
            time_unit: TimeUnit::Millis,
            ..opts()
        };
        let (v, report) = run(csv, &o);
        let times: Vec<(f64, f64)> = jobs(&v)
            .iter()
            .map(|j| {
                (
                    j["submit_s"].as_f64().unwrap(),
                    j["work_s"].as_f64().unwrap(),
                )
            })
            .collect();
        assert_eq!(times, [(0.0, 1.5), (1.5, 0.25)]);
        // 0.4 ms rounds to 0 ms: not a positive work time.
        assert_eq!(report.skipped, 1);
        assert_eq!(
            report.first_problems,
            ["row 3: duration: must be > 0, not \"0.4\""]
        );
    }

    #[test]
    fn end_column_gives_the_duration_in_the_same_format() {
        let o = ImportOptions {
            duration: None,
            end: Some("end".into()),
            ..opts()
        };
        let csv = "submit,end\n\
                   2017-12-31 23:59:00,2018-01-01 00:01:30\n\
                   2017-12-31 23:58:00,2017-12-31 23:58:00\n";
        let (v, report) = run(csv, &o);
        assert_eq!(jobs(&v)[0]["work_s"], 150);
        assert_eq!(report.skipped, 1);
        assert_eq!(
            report.first_problems,
            ["row 2: end: must be after the submit time, not \"2017-12-31 23:58:00\""]
        );
        let (v, _) = run("submit,end\n10,70.25\n", &o);
        assert_eq!(jobs(&v)[0]["work_s"], 60.25);
        let ms = ImportOptions {
            time_unit: TimeUnit::Millis,
            ..o.clone()
        };
        let (v, _) = run("submit,end\n10000,70250\n", &ms);
        assert_eq!(jobs(&v)[0]["work_s"], 60.25);
    }

    #[test]
    fn timestamps_cross_month_and_year_boundaries_and_leap_days() {
        let t = |s: &str| parse_timestamp(s).unwrap_or_else(|| panic!("{s}"));
        assert_eq!(t("1970-01-01 00:00:00"), 0);
        assert_eq!(t("2017-10-09 07:01:55"), 1_507_532_515_000);
        assert_eq!(t("2000-03-01 00:00:00"), 11_017 * 86_400_000);
        assert_eq!(t("1969-12-31 23:59:59"), -1000);
        // Month and year boundaries: one second apart.
        assert_eq!(t("2017-02-01 00:00:00") - t("2017-01-31 23:59:59"), 1000);
        assert_eq!(t("2018-01-01 00:00:00") - t("2017-12-31 23:59:59"), 1000);
        assert_eq!(
            t("2017-03-01 00:00:00") - t("2017-02-28 00:00:00"),
            86_400_000
        );
        // Leap days.
        assert_eq!(
            t("2016-03-01 00:00:00") - t("2016-02-29 00:00:00"),
            86_400_000
        );
        assert_eq!(
            t("2016-03-01 00:00:00") - t("2016-02-28 00:00:00"),
            2 * 86_400_000
        );
        assert_eq!(
            t("2000-03-01 00:00:00") - t("2000-02-28 00:00:00"),
            2 * 86_400_000
        );
        assert_eq!(parse_timestamp("2017-02-29 00:00:00"), None);
        assert_eq!(parse_timestamp("1900-02-29 00:00:00"), None);
        assert_eq!(
            t("2021-01-01 00:00:00") - t("2020-01-01 00:00:00"),
            366 * 86_400_000
        );
        // Variants.
        assert_eq!(t("2017-10-09T07:01:55"), t("2017-10-09 07:01:55"));
        assert_eq!(t("2017-10-09 07:01:55Z"), t("2017-10-09 07:01:55"));
        assert_eq!(t("2017-10-09 07:01:55.25"), t("2017-10-09 07:01:55") + 250);
        assert_eq!(
            t("2017-10-09 07:01:55.123456"),
            t("2017-10-09 07:01:55") + 123
        );
        // Invalid ones.
        for bad in [
            "2017-13-01 00:00:00",
            "2017-00-01 00:00:00",
            "2017-04-31 00:00:00",
            "2017-01-00 00:00:00",
            "2017-01-01 24:00:00",
            "2017-01-01 00:60:00",
            "2017-01-01 00:00:60",
            "2017-01-01",
            "2017-1-01 00:00:00",
            "2017-01-01 00:00:00.",
            "2017-01-01 00:00:00x",
            "2017-01-01_00:00:00",
            "20x7-01-01 00:00:00",
            "2017-01-01 00:00:00.1234567890",
            "٢٠١٧-01-01 00:00:00",
        ] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn timestamp_traces_start_at_zero() {
        let csv = "ts,duration\n\
                   2016-02-29 23:59:30,10\n\
                   2016-02-28 23:59:30,10\n\
                   2016-03-01 00:00:00,10\n\
                   2016-02-30 00:00:00,10\n";
        let o = ImportOptions {
            submit: "ts".into(),
            ..opts()
        };
        let (v, report) = run(csv, &o);
        let submits: Vec<i64> = jobs(&v)
            .iter()
            .map(|j| j["submit_s"].as_i64().unwrap())
            .collect();
        assert_eq!(submits, [0, 86_400, 86_430]);
        assert_eq!(
            report.first_problems,
            ["row 4: ts: not a YYYY-MM-DD HH:MM:SS timestamp: \"2016-02-30 00:00:00\""]
        );
    }

    #[test]
    fn gpus_become_instances_rounded_up() {
        let csv = "submit,duration,gpus\n0,1,1\n0,1,8\n0,1,9\n0,1,0\n0,1,2.5\n0,1,128\n";
        let o = ImportOptions {
            gpus: Some("gpus".into()),
            gpus_per_instance: 8,
            ..opts()
        };
        let (v, _) = run(csv, &o);
        let instances: Vec<u64> = jobs(&v)
            .iter()
            .map(|j| j["instances"].as_u64().unwrap())
            .collect();
        assert_eq!(instances, [1, 1, 2, 1, 1, 16]);
        // The default capacity is at least the largest job.
        assert_eq!(v["capacity"]["ml.g5.xlarge"], 22);
        let one = ImportOptions {
            gpus_per_instance: 1,
            ..o
        };
        let (v, _) = run(csv, &one);
        let instances: Vec<u64> = jobs(&v)
            .iter()
            .map(|j| j["instances"].as_u64().unwrap())
            .collect();
        assert_eq!(instances, [1, 8, 9, 1, 3, 128]);
    }

    #[test]
    fn malformed_rows_are_skipped_counted_and_explained() {
        let csv = "submit,duration,gpus,team\n\
                   0,abc,1,a\n\
                   0,10\n\
                   -5,10,1,a\n\
                   2017-02-30 00:00:00,10,1,a\n\
                   0,10,-1,a\n\
                   0,10,1,\n\
                   0,inf,1,a\n\
                   NaN,10,1,a\n\
                   1e400,10,1,a\n\
                   3,10,1,a\n\
                   0,10,x,a\n";
        let o = ImportOptions {
            gpus: Some("gpus".into()),
            share: Some("team".into()),
            ..opts()
        };
        let (v, report) = run(csv, &o);
        assert_eq!(ids(&v), ["a-1"]);
        assert_eq!(report.rows, 11);
        assert_eq!(report.imported, 1);
        assert_eq!(report.skipped, 10);
        assert_eq!(
            report.first_problems,
            [
                "row 1: duration: not a number: \"abc\"",
                "row 2: gpus: missing value (the row has 2 columns)",
                "row 3: submit: negative: \"-5\"",
                "row 4: submit: not a YYYY-MM-DD HH:MM:SS timestamp: \"2017-02-30 00:00:00\"",
                "row 5: gpus: negative: \"-1\"",
            ]
        );
        // The reasons not quoted in the report.
        let reason = |csv: &str| {
            let (_, r) = run(&format!("submit,duration,gpus,team\n{csv}\n1,1,1,a\n"), &o);
            r.first_problems[0].clone()
        };
        assert_eq!(reason("0,10,1,"), "row 1: team: empty");
        assert_eq!(
            reason("0,inf,1,a"),
            "row 1: duration: not a finite number: \"inf\""
        );
        assert_eq!(
            reason("NaN,10,1,a"),
            "row 1: submit: not a finite number: \"NaN\""
        );
        assert_eq!(
            reason("1e400,10,1,a"),
            "row 1: submit: not a finite number: \"1e400\""
        );
        assert_eq!(
            reason("1e12,10,1,a"),
            "row 1: submit: out of range: \"1e12\""
        );
        assert_eq!(reason("0,10,1e7,a"), "row 1: gpus: out of range: \"1e7\"");
        assert_eq!(
            reason("soon,10,1,a"),
            "row 1: submit: not a number or a YYYY-MM-DD HH:MM:SS timestamp: \"soon\""
        );
        assert_eq!(
            reason(&format!("0,10,1,{}", "n".repeat(129))),
            format!(
                "row 1: team: a share name is at most 128 characters: \"{}...\"",
                "n".repeat(40)
            )
        );
        // Non-UTF-8 bytes in a used column skip the row; in an unused column they do not matter.
        let bytes = b"submit,duration,note\n0,\xff\xfe,x\n1,10,\xff\n".to_vec();
        let (v, r) = import(bytes.as_slice(), &opts()).unwrap();
        assert_eq!(jobs(&v).len(), 1);
        assert_eq!(r.first_problems, ["row 1: duration: not UTF-8 text"]);
    }

    #[test]
    fn csv_quoting_crlf_and_bom_are_read() {
        let csv = "\u{feff}\"submit\",duration,\"team\"\r\n\
                   0,10,\"a, b\"\r\n\
                   \r\n\
                   1,10,\"say \"\"hi\"\"\nthere\"\r\n";
        let o = ImportOptions {
            share: Some("team".into()),
            ..opts()
        };
        let (v, report) = run(csv, &o);
        assert_eq!(report.rows, 2);
        assert_eq!(share_names(&v), ["a, b", "say \"hi\"\nthere"]);
    }

    #[test]
    fn an_empty_file_a_header_only_and_all_bad_rows_are_errors() {
        assert_eq!(
            error(b"", &opts()).message,
            "the trace is empty: no header row"
        );
        assert_eq!(
            error(b"\n\n", &opts()).message,
            "the trace is empty: no header row"
        );
        assert_eq!(
            error(b"submit,duration\n", &opts()).message,
            "the trace has a header row but no data row"
        );
        assert_eq!(
            error(b"submit,duration", &opts()).message,
            "the trace has a header row but no data row"
        );
        assert_eq!(
            error(b"submit,duration\nx,1\n0,0\n", &opts()).message,
            "the trace has no readable row: all 2 rows were skipped \
             (first: row 1: submit: not a number or a YYYY-MM-DD HH:MM:SS timestamp: \"x\")"
        );
    }

    #[test]
    fn a_missing_column_is_an_error_naming_it_and_listing_the_header() {
        let o = ImportOptions {
            share: Some("team".into()),
            ..opts()
        };
        let p = error(b"submit,duration,cluster\n0,1,a\n", &o);
        assert_eq!(p.path, "--share");
        assert_eq!(
            p.to_string(),
            "--share: no column \"team\" in the trace's header; its columns are: submit, duration, cluster"
        );
        let p = error(b"start,duration\n0,1\n", &opts());
        assert_eq!(p.path, "--submit");
        assert!(p.message.contains("\"submit\""));
        // Columns are matched after trimming spaces.
        let (v, _) = run(" submit , duration \n0,1\n", &opts());
        assert_eq!(jobs(&v).len(), 1);
    }

    #[test]
    fn a_huge_field_is_a_skipped_row() {
        let huge = "9".repeat(10 * 1024 * 1024);
        let csv = format!("submit,duration\n0,10\n1,{huge}\n2,10\n");
        let (v, report) = run(&csv, &opts());
        assert_eq!(report.rows, 3);
        assert_eq!(report.skipped, 1);
        assert_eq!(report.first_problems, ["row 2: longer than 1 MiB"]);
        assert_eq!(jobs(&v).len(), 2);
        // A huge quoted field with line breaks and quotes inside.
        let quoted = "x\n\"\",".repeat(3 * 1024 * 1024);
        let csv = format!("submit,duration,note\n0,10,\"{quoted}\"\n2,10,ok\n");
        let (v, report) = run(&csv, &opts());
        assert_eq!((report.rows, report.skipped), (2, 1));
        assert_eq!(report.first_problems, ["row 1: longer than 1 MiB"]);
        assert_eq!(jobs(&v).len(), 1);
        // A huge header is not a trace.
        let csv = format!("submit,duration,{huge}\n0,10,a\n");
        assert!(error(csv.as_bytes(), &opts())
            .message
            .contains("header row is longer than 1 MiB"));
    }

    #[test]
    fn the_record_cap_bounds_what_the_parser_sees() {
        let input = format!("a,b\n1,{}\n2,3\n", "z".repeat(5 * 1024 * 1024));
        let mut out = Vec::new();
        BoundedRecords::new(input.as_bytes())
            .read_to_end(&mut out)
            .unwrap();
        assert!(out.len() < MAX_RECORD_BYTES + 100);
        assert!(out.ends_with(b"\x00\n2,3\n"));
        // Below the cap, the bytes pass through unchanged, whatever the read sizes.
        let normal = "h1,\"h,2\"\r\n1,\"a\"\"b\nc\"\n\n2,x\"y\n".repeat(1000);
        let mut out = Vec::new();
        let mut reader = BoundedRecords::new(normal.as_bytes());
        let mut chunk = [0u8; 7];
        loop {
            let n = reader.read(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&chunk[..n]);
        }
        assert_eq!(out, normal.as_bytes());
    }

    #[test]
    fn top_shares_folds_the_rest_into_other_last() {
        // Counts: a 4, b 3, c 2 (ties with d by name), d 2, e 1.
        let rows = ["a", "a", "a", "a", "b", "b", "b", "c", "c", "d", "d", "e"];
        let mut csv = String::from("submit,duration,team\n");
        for (i, team) in rows.iter().enumerate() {
            csv.push_str(&format!("{i},10,{team}\n"));
        }
        let o = ImportOptions {
            share: Some("team".into()),
            top_shares: Some(3),
            ..opts()
        };
        let (v, _) = run(&csv, &o);
        assert_eq!(share_names(&v), ["a", "b", "c", "other"]);
        let other_ids: Vec<&str> = ids(&v)
            .into_iter()
            .filter(|id| id.starts_with("other-"))
            .collect();
        assert_eq!(other_ids, ["other-1", "other-2", "other-3"]);
        // Enough room: nothing is folded.
        let (v, _) = run(
            &csv,
            &ImportOptions {
                top_shares: Some(5),
                ..o.clone()
            },
        );
        assert_eq!(share_names(&v), ["a", "b", "c", "d", "e"]);
        // A trace share named `other` sorts last, and joins the fold when there is one.
        let csv = "submit,duration,team\n0,1,other\n0,1,other\n0,1,x\n0,1,y\n0,1,y\n";
        let (v, _) = run(
            csv,
            &ImportOptions {
                top_shares: None,
                ..o.clone()
            },
        );
        assert_eq!(share_names(&v), ["y", "x", "other"]);
        let (v, _) = run(
            csv,
            &ImportOptions {
                top_shares: Some(1),
                ..o.clone()
            },
        );
        assert_eq!(share_names(&v), ["y", "other"]);
        assert_eq!(ids(&v), ["other-1", "other-2", "other-3", "y-1", "y-2"]);
    }

    #[test]
    fn more_than_20_shares_needs_top_shares() {
        let mut csv = String::from("submit,duration,team\n");
        for i in 0..25 {
            csv.push_str(&format!("{i},10,t{i:02}\n"));
        }
        let o = ImportOptions {
            share: Some("team".into()),
            ..opts()
        };
        let p = error(csv.as_bytes(), &o);
        assert_eq!(p.path, "--share");
        assert!(p.message.contains("25 shares"), "{p}");
        assert!(p.message.contains("--top-shares"), "{p}");
        let (v, _) = run(
            &csv,
            &ImportOptions {
                top_shares: Some(19),
                ..o
            },
        );
        assert_eq!(share_names(&v).len(), 20);
        assert_eq!(share_names(&v)[19], "other");
        // A large N folds nothing; the result must still fit in 20 shares.
        let p = error(
            csv.as_bytes(),
            &ImportOptions {
                top_shares: Some(20),
                share: Some("team".into()),
                ..opts()
            },
        );
        assert!(p.message.contains("21 shares"), "{p}");
        let (v, _) = run(
            &csv.lines().take(16).collect::<Vec<_>>().join("\n"),
            &ImportOptions {
                top_shares: Some(50),
                share: Some("team".into()),
                ..opts()
            },
        );
        assert_eq!(share_names(&v).len(), 15);
    }

    #[test]
    fn priorities_are_mapped_or_read_as_numbers() {
        let csv = "submit,duration,class\n0,1,LS\n1,1,BE\n2,1,XX\n3,1,LS\n";
        let o = ImportOptions {
            priority: Some("class".into()),
            priority_map: parse_priority_map("LS=2, BE=0").unwrap(),
            ..opts()
        };
        let (v, report) = run(csv, &o);
        let priorities: Vec<u64> = jobs(&v)
            .iter()
            .map(|j| j["priority"].as_u64().unwrap())
            .collect();
        assert_eq!(priorities, [2, 0, 2]);
        assert_eq!(
            report.first_problems,
            ["row 3: class: \"XX\" is not in --priority-map"]
        );
        // Without a map, the column holds priorities.
        let o = ImportOptions {
            priority: Some("class".into()),
            ..opts()
        };
        let (v, report) = run(
            "submit,duration,class\n0,1,7\n0,1,9999\n0,1,10000\n0,1,LS\n",
            &o,
        );
        assert_eq!(jobs(&v)[1]["priority"], 9999);
        assert_eq!(report.skipped, 2);
        assert_eq!(
            report.first_problems[0],
            "row 3: class: not a priority 0..=9999 (and no --priority-map): \"10000\""
        );
    }

    #[test]
    fn priority_maps_parse() {
        assert_eq!(
            parse_priority_map("LS=2,BE=0").unwrap(),
            [("LS".to_string(), 2), ("BE".to_string(), 0)]
        );
        assert_eq!(
            parse_priority_map(" a=b = 9999 ,").unwrap(),
            [("a=b".to_string(), 9999)]
        );
        for bad in [
            "",
            ",",
            "LS",
            "=2",
            "LS=x",
            "LS=10000",
            "LS=-1",
            "LS=1,LS=2",
        ] {
            let p = parse_priority_map(bad).unwrap_err();
            assert_eq!(p.path, "--priority-map", "{bad}");
        }
    }

    fn three_shares() -> String {
        // Demand (work x instances): a 60, b 30, c 10; jobs: a 1, b 2, c 3.
        "submit,duration,gpus,team\n\
         0,60,1,a\n0,10,1,b\n0,20,1,b\n0,2,1,c\n0,3,1,c\n0,5,1,c\n"
            .to_string()
    }

    fn limits_for(mode: LimitsMode, capacity: u64) -> Vec<u64> {
        let o = ImportOptions {
            gpus: Some("gpus".into()),
            share: Some("team".into()),
            limits: mode,
            capacity: Some(capacity),
            ..opts()
        };
        let (v, _) = run(&three_shares(), &o);
        // Listed by job count: c, b, a.
        assert_eq!(share_names(&v), ["c", "b", "a"]);
        assert_eq!(v["capacity"]["ml.g5.xlarge"], capacity);
        limits(&v, "ml.g5.xlarge")
    }

    #[test]
    fn proportional_limits_follow_demand_and_sum_to_capacity() {
        assert_eq!(limits_for(LimitsMode::Proportional, 10), [1, 3, 6]);
        assert_eq!(limits_for(LimitsMode::Proportional, 1), [0, 0, 1]);
        // 7: exact 0.7, 2.1, 4.2 -> floors 0, 2, 4, the one left to c (0.7).
        assert_eq!(limits_for(LimitsMode::Proportional, 7), [1, 2, 4]);
        // 5: exact 0.5, 1.5, 3.0 -> floors 0, 1, 3; ties on .5 go to the earlier share.
        assert_eq!(limits_for(LimitsMode::Proportional, 5), [1, 1, 3]);
        for capacity in 1..200 {
            let l = limits_for(LimitsMode::Proportional, capacity);
            assert_eq!(l.iter().sum::<u64>(), capacity);
        }
    }

    #[test]
    fn equal_limits_give_the_remainder_in_name_order() {
        assert_eq!(limits_for(LimitsMode::Equal, 9), [3, 3, 3]);
        // Listed c, b, a; the remainder goes to a, then b.
        assert_eq!(limits_for(LimitsMode::Equal, 10), [3, 3, 4]);
        assert_eq!(limits_for(LimitsMode::Equal, 11), [3, 4, 4]);
        assert_eq!(limits_for(LimitsMode::Equal, 2), [0, 1, 1]);
        for capacity in 1..100 {
            assert_eq!(
                limits_for(LimitsMode::Equal, capacity).iter().sum::<u64>(),
                capacity
            );
        }
    }

    #[test]
    fn the_default_capacity_is_the_average_load() {
        // Demand 60 + 30 + 10 = 100 instance-seconds over a 60 s makespan: ceil(1.67) = 2.
        let o = ImportOptions {
            share: Some("team".into()),
            ..opts()
        };
        let (v, _) = run(&three_shares(), &o);
        assert_eq!(v["capacity"]["ml.g5.xlarge"], 2);
        assert_eq!(limits(&v, "ml.g5.xlarge").iter().sum::<u64>(), 2);
    }

    #[test]
    fn strategy_and_borrow_limit_apply_to_every_share() {
        let csv = three_shares();
        let o = ImportOptions {
            share: Some("team".into()),
            borrow_limit: Some(200),
            ..opts()
        };
        let (v, _) = run(&csv, &o);
        for s in v["shares"].as_array().unwrap() {
            assert_eq!(s["strategy"], "LEND_AND_BORROW");
            assert_eq!(s["borrow_limit"], 200);
        }
        let o = ImportOptions {
            strategy: "RESERVE".into(),
            borrow_limit: None,
            ..o
        };
        let (v, _) = run(&csv, &o);
        for s in v["shares"].as_array().unwrap() {
            assert_eq!(s["strategy"], "RESERVE");
            assert!(s.get("borrow_limit").is_none());
        }
        let p = error(
            csv.as_bytes(),
            &ImportOptions {
                strategy: "LEND".into(),
                borrow_limit: Some(10),
                ..opts()
            },
        );
        assert_eq!(p.path, "--borrow-limit");
        let p = error(
            csv.as_bytes(),
            &ImportOptions {
                strategy: "lend".into(),
                ..opts()
            },
        );
        assert_eq!(
            p.to_string(),
            "--strategy: unknown strategy \"lend\": expected RESERVE, LEND or LEND_AND_BORROW"
        );
        let p = error(
            csv.as_bytes(),
            &ImportOptions {
                borrow_limit: Some(-2),
                ..opts()
            },
        );
        assert_eq!(p.path, "--borrow-limit");
    }

    #[test]
    fn invalid_options_are_errors() {
        let csv = b"submit,duration,team\n0,1,a\n";
        let cases = [
            (
                ImportOptions {
                    submit: " ".into(),
                    ..opts()
                },
                "--submit",
            ),
            (
                ImportOptions {
                    duration: None,
                    ..opts()
                },
                "--duration",
            ),
            (
                ImportOptions {
                    end: Some("e".into()),
                    ..opts()
                },
                "--end",
            ),
            (
                ImportOptions {
                    gpus_per_instance: 0,
                    ..opts()
                },
                "--gpus-per-instance",
            ),
            (
                ImportOptions {
                    instance_type: "".into(),
                    ..opts()
                },
                "--instance-type",
            ),
            (
                ImportOptions {
                    top_shares: Some(2),
                    ..opts()
                },
                "--top-shares",
            ),
            (
                ImportOptions {
                    share: Some("team".into()),
                    top_shares: Some(0),
                    ..opts()
                },
                "--top-shares",
            ),
            (
                ImportOptions {
                    priority_map: vec![("a".into(), 1)],
                    ..opts()
                },
                "--priority-map",
            ),
            (
                ImportOptions {
                    priority: Some("team".into()),
                    priority_map: vec![("a".into(), 10_000)],
                    ..opts()
                },
                "--priority-map",
            ),
            (
                ImportOptions {
                    capacity: Some(0),
                    ..opts()
                },
                "--capacity",
            ),
            (
                ImportOptions {
                    capacity: Some(u64::MAX),
                    ..opts()
                },
                "--capacity",
            ),
            (
                ImportOptions {
                    limit_jobs: Some(0),
                    ..opts()
                },
                "--limit-jobs",
            ),
        ];
        for (o, path) in cases {
            assert_eq!(error(csv, &o).path, path, "{o:?}");
        }
    }

    #[test]
    fn limit_jobs_stops_after_n_imported_jobs() {
        let csv = "submit,duration\n9,1\nbad,1\n8,1\n7,1\n6,1\n";
        let o = ImportOptions {
            limit_jobs: Some(2),
            ..opts()
        };
        let (v, report) = run(csv, &o);
        assert_eq!((report.rows, report.imported, report.skipped), (3, 2, 1));
        // The first two readable rows in file order, then sorted: 8 before 9.
        let works: Vec<i64> = jobs(&v)
            .iter()
            .map(|j| j["submit_s"].as_i64().unwrap())
            .collect();
        assert_eq!(works, [0, 1]);
    }

    #[test]
    fn first_problems_quote_at_most_five() {
        let mut csv = String::from("submit,duration\n");
        for _ in 0..9 {
            csv.push_str("x,1\n");
        }
        csv.push_str("0,1\n");
        let (_, report) = run(&csv, &opts());
        assert_eq!(report.skipped, 9);
        assert_eq!(report.first_problems.len(), 5);
        assert!(report.first_problems[4].starts_with("row 5: "));
    }

    #[test]
    fn import_is_deterministic() {
        let o = ImportOptions {
            share: Some("team".into()),
            gpus: Some("gpus".into()),
            ..opts()
        };
        let a = serde_json::to_string(&run(&three_shares(), &o).0).unwrap();
        let b = serde_json::to_string(&run(&three_shares(), &o).0).unwrap();
        assert_eq!(a, b);
    }

    const PHILLY: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/traces/philly-adaptdl.csv"
    );

    fn philly(top_shares: Option<usize>) -> Option<(Value, ImportReport)> {
        let file = match std::fs::File::open(PHILLY) {
            Ok(f) => f,
            Err(e) => {
                println!("skipped: the Philly trace is not at {PHILLY}: {e}");
                return None;
            }
        };
        let o = ImportOptions {
            submit: "timestamp".into(),
            duration: Some("duration".into()),
            gpus: Some("num_gpus".into()),
            share: Some("cluster".into()),
            top_shares,
            instance_type: "ml.p4d.24xlarge".into(),
            gpus_per_instance: 8,
            ..ImportOptions::default()
        };
        Some(import(std::io::BufReader::new(file), &o).unwrap())
    }

    #[test]
    fn the_whole_philly_trace_imports() {
        let Some((v, report)) = philly(None) else {
            return;
        };
        assert_eq!(
            report,
            ImportReport {
                rows: 82_247,
                imported: 82_247,
                skipped: 0,
                first_problems: vec![]
            }
        );
        assert_eq!(jobs(&v).len(), 82_247);
        let names = share_names(&v);
        assert_eq!(names.len(), 15);
        assert_eq!(&names[..4], ["6214e9", "11cb48", "6c71a0", "b436b2"]);
        assert_eq!(
            ids(&v)[0],
            format!("{}-1", jobs(&v)[0]["share"].as_str().unwrap())
        );
        assert_eq!(jobs(&v)[0]["submit_s"], 0);
        let capacity = v["capacity"]["ml.p4d.24xlarge"].as_u64().unwrap();
        assert!(capacity >= 16);
        assert_eq!(limits(&v, "ml.p4d.24xlarge").iter().sum::<u64>(), capacity);
        let max_instances = jobs(&v)
            .iter()
            .map(|j| j["instances"].as_u64().unwrap())
            .max();
        assert_eq!(max_instances, Some(16));
        // Every id is unique.
        let mut all = ids(&v);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 82_247);

        let Some((v, report)) = philly(Some(5)) else {
            return;
        };
        assert_eq!(report.imported, 82_247);
        assert_eq!(
            share_names(&v),
            ["6214e9", "11cb48", "6c71a0", "b436b2", "103959", "other"]
        );
        let count = |share: &str| jobs(&v).iter().filter(|j| j["share"] == share).count();
        assert_eq!(count("6214e9"), 41_226);
        assert_eq!(count("11cb48"), 16_091);
        assert_eq!(count("103959"), 1_934);
        assert_eq!(
            count("other"),
            82_247 - 41_226 - 16_091 - 9_953 - 7_423 - 1_934
        );
    }

    proptest! {
        #[test]
        fn import_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let mut input = b"submit,duration,gpus,team\n".to_vec();
            input.extend_from_slice(&bytes);
            let o = ImportOptions {
                gpus: Some("gpus".into()),
                share: Some("team".into()),
                ..opts()
            };
            if let Ok((v, report)) = import(input.as_slice(), &o) {
                prop_assert_eq!(report.rows, report.imported + report.skipped);
                prop_assert_eq!(jobs(&v).len() as u64, report.imported);
            }
        }

        #[test]
        fn import_never_panics_on_csv_like_rows(
            rows in proptest::collection::vec(
                (
                    prop_oneof![Just("0".to_string()), Just("2017-01-31 23:59:59".to_string()), "[-0-9.e:]{0,12}"],
                    "[-0-9.a-z]{0,8}",
                    "[0-9.]{0,4}",
                    "[a-c\"]{0,3}",
                ),
                0..40,
            ),
            capacity in 1u64..50,
            equal in any::<bool>(),
        ) {
            let mut csv = String::from("submit,duration,gpus,team\n");
            for (s, d, g, t) in &rows {
                csv.push_str(&format!("{s},{d},{g},{t}\n"));
            }
            let o = ImportOptions {
                gpus: Some("gpus".into()),
                share: Some("team".into()),
                capacity: Some(capacity),
                limits: if equal { LimitsMode::Equal } else { LimitsMode::Proportional },
                ..opts()
            };
            if let Ok((v, _)) = import(csv.as_bytes(), &o) {
                prop_assert_eq!(limits(&v, "ml.g5.xlarge").iter().sum::<u64>(), capacity);
            }
        }
    }
}
