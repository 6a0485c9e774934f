//! Trace import (SPEC 11): turns a cluster's job log (CSV) into a scenario (SPEC 7).
//!
//! Pure: reads from any [`std::io::Read`], writes nothing. Streaming with bounded memory:
//! rows are read one at a time, each record is capped at [`MAX_RECORD_BYTES`] before the CSV
//! parser buffers it (a longer row is skipped as unreadable, never held whole), and only a
//! compact form of each imported job is kept (about 32 bytes), plus one entry per share.
//!
//! By concern: `options` (the import's options and their defaults), `rows` (columns and
//! row parsing), `time` (numeric times and timestamps), `scenario` (shares, limits, capacity
//! and jobs), `warnings` (the import's warnings), `bounded` (the record-capping reader);
//! [`import`] ties them together.
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
//! - **Warnings** ([`ImportWarning`], in [`ImportReport::warnings`]) are measured on the
//!   scenario's jobs as if every job started on its submit (the assumption of the default
//!   capacity), by one sweep over their starts and ends in time order, ends before starts at
//!   the same instant (a job ending at t and one submitted at t never overlap); O(n log n).
//!   A job's GPUs are its GPUs column's value (fractions kept to thousandths), 1 without the
//!   column; its instances are the scenario's.
//!   - **Zero limit**: one per share that has jobs and a limit of 0 instances (in the shares'
//!     order). Its "demand in GPUs" is given two ways: its *peak concurrent demand*, the most
//!     GPUs its jobs ask for at once (rounded up), and its GPU-hours (GPUs x run time, summed
//!     and rounded). The message says whether the share can still run on borrowed capacity
//!     (`LEND_AND_BORROW` with an unlimited borrow limit) or never starts (any other strategy
//!     or borrow limit: a percentage of 0 is 0).
//!   - **Capacity under peak**: when the capacity is under the trace's *peak concurrent
//!     demand*, the most instances its jobs hold at once; the message also gives the GPUs
//!     those jobs ask for and when the peak is first reached (after the first submit). It is
//!     given for the default capacity too (SPEC 11 makes no exception), worded as what that
//!     default intends: it is sized for the average load, so on a bursty trace it is under
//!     the peak and queues form there by design; the user who sees it learns the figure that
//!     would cover the peak.

use std::collections::HashMap;
use std::io::{self, Read};

use serde_json::{json, Map, Value};

use crate::input::model::limits::{
    MAX_INSTANCES as MAX_CAPACITY, MAX_NAME as MAX_SHARE_NAME, MAX_PRIORITY, MAX_SHARES,
    MAX_TRACE_GPUS as MAX_GPUS, MAX_TRACE_TIME_MS as MAX_TIME_MS, MIN_PRIORITY,
};
use crate::input::model::{Priority, Strategy};
use crate::input::path::Path;
use crate::Problem;

/// The longest CSV record (row) read, in bytes; a longer one is skipped, never buffered whole.
pub const MAX_RECORD_BYTES: usize = 1024 * 1024;

/// How many row problems the report quotes.
const FIRST_PROBLEMS: usize = 5;

mod bounded;
mod options;
mod rows;
mod scenario;
mod sniff;
pub(crate) mod time;
mod warnings;

use bounded::*;
use options::check_options;
pub use options::{parse_priority_map, ImportOptions, LimitsMode, TimeUnit};
use rows::*;
use scenario::*;
pub use sniff::{check_text, SNIFF_BYTES};
use time::*;
pub use warnings::ImportWarning;

/// What an import read (SPEC 11: "rows that cannot be read are skipped and counted").
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ImportReport {
    /// Data rows read (the header excluded).
    pub rows: u64,
    /// Jobs in the scenario.
    pub imported: u64,
    /// Rows skipped as unreadable.
    pub skipped: u64,
    /// The first few reasons, such as `row 17: duration: not a number: "abc"`.
    pub first_problems: Vec<String>,
    /// Why rows were skipped, by kind (a reason without its row and value, such as
    /// `duration: not a number`), with how many rows each: most rows first, ties in the order
    /// first met. At most [`REASON_KINDS`] kinds; further ones are counted as `other reasons`.
    pub reasons: Vec<(String, u64)>,
    /// What the user should know about the scenario (SPEC 11): shares with jobs but a limit
    /// of 0, a capacity under the trace's peak concurrent demand. See [`ImportWarning`].
    pub warnings: Vec<ImportWarning>,
}

/// How many kinds of skip reasons the report counts apart.
pub const REASON_KINDS: usize = 16;

/// Imports a CSV job trace as a scenario (SPEC 11 "Trace import", producing SPEC 7's format).
///
/// Reads `input` once, streaming. Returns the scenario (`format`, `name`, `seed` 1,
/// `capacity`, `queue`, `shares`, `jobs`; `instance_types` is left out, so the instance type
/// must be in the engine's catalogue) and a report of the rows read and skipped. Errors (no
/// row produced): invalid options, a named column missing from the header (the message lists
/// the header's columns), an unreadable input, an input that is not CSV text ([`check_text`]
/// of its first [`SNIFF_BYTES`]: "this is not a CSV file: ..."), a trace with no readable row,
/// and more than 20 shares. See the module documentation for the rules where SPEC 11 leaves
/// room.
pub fn import<R: Read>(input: R, opts: &ImportOptions) -> Result<(Value, ImportReport), Problem> {
    let (plan, report) = read(input, opts)?;
    Ok((write_scenario(&plan, opts), report))
}

/// What [`import`] would report (rows, skips, warnings) or the error it would give, without
/// writing the scenario: the page's form checks its options with it.
pub fn check<R: Read>(input: R, opts: &ImportOptions) -> Result<ImportReport, Problem> {
    read(input, opts).map(|(_, report)| report)
}

/// Reads the trace and plans the scenario: everything [`import`] does but writing it.
fn read<R: Read>(mut input: R, opts: &ImportOptions) -> Result<(Plan, ImportReport), Problem> {
    check_options(opts)?;
    let sample = sniff::read_sample(&mut input)
        .map_err(|e| Problem::whole(format!("cannot read the trace: {e}")))?;
    check_text(&sample)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(BoundedRecords::new(io::Cursor::new(sample).chain(input)));

    let header = reader
        .byte_headers()
        .map_err(|e| Problem::whole(format!("cannot read the trace: {e}")))?
        .clone();
    if header.is_empty() || (header.len() == 1 && header[0].trim_ascii().is_empty()) {
        return Err(Problem::whole("the trace is empty: no header row"));
    }
    if header.iter().any(is_oversized) {
        return Err(Problem::whole(
            "the header row is longer than 1 MiB: not a CSV trace",
        ));
    }
    let columns = Columns::find(&header, opts)?;

    let priority_map: HashMap<&str, Priority> = opts
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
                    return Err(Problem::whole(format!("cannot read the trace: {e}")));
                }
                // Not expected with flexible byte records; count it as an unreadable row.
                report.rows += 1;
                report.skip(&e.to_string());
                continue;
            }
        }
        report.rows += 1;
        match read_row(&record, &columns, opts, &priority_map, &mut shares) {
            Ok(row) => jobs.push(row),
            Err(reason) => report.skip(&reason),
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
        return Err(Problem::whole(message));
    }
    report.imported = jobs.len() as u64;
    sort_reasons(&mut report.reasons);
    let plan = plan_scenario(jobs, &shares, opts)?;
    report.warnings = warnings::warnings(&plan, opts);
    Ok((plan, report))
}

impl ImportReport {
    /// Counts the current row (`rows`) as skipped for `reason`.
    fn skip(&mut self, reason: &str) {
        self.skipped += 1;
        if self.first_problems.len() < FIRST_PROBLEMS {
            self.first_problems
                .push(format!("row {}: {reason}", self.rows));
        }
        let mut kind = reason_kind(reason);
        if !self.reasons.iter().any(|(k, _)| *k == kind) && self.reasons.len() >= REASON_KINDS {
            kind = "other reasons".to_string();
        }
        match self.reasons.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => self.reasons.push((kind, 1)),
        }
    }
}

/// A skip reason without the value it quotes or the details in parentheses:
/// `duration: not a number: "abc"` is of kind `duration: not a number`.
fn reason_kind(reason: &str) -> String {
    let cut = reason.find(['"', '(']).unwrap_or(reason.len());
    let kind = reason[..cut].trim_end_matches([' ', ':', ',']);
    if kind.is_empty() {
        reason.to_string()
    } else {
        kind.to_string()
    }
}

/// Most rows first; a stable sort keeps ties in the order first met.
fn sort_reasons(reasons: &mut [(String, u64)]) {
    crate::sort::compact_by(reasons, &|a, b| b.1.cmp(&a.1));
}

#[cfg(test)]
mod tests;
