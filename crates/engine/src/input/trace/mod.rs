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

use crate::model::limits::{
    MAX_INSTANCES as MAX_CAPACITY, MAX_NAME as MAX_SHARE_NAME, MAX_PRIORITY, MAX_SHARES,
    MAX_TRACE_GPUS as MAX_GPUS, MAX_TRACE_TIME_MS as MAX_TIME_MS, MIN_PRIORITY,
};
use crate::model::{Priority, Strategy};
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
mod time;
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
        .map_err(|e| Problem::new("", format!("cannot read the trace: {e}")))?;
    check_text(&sample)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(BoundedRecords::new(io::Cursor::new(sample).chain(input)));

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
                    return Err(Problem::new("", format!("cannot read the trace: {e}")));
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
        return Err(Problem::new("", message));
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
    crate::sort::stable_by(reasons, &|a, b| b.1.cmp(&a.1));
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
                first_problems: vec![],
                reasons: vec![],
                warnings: vec![],
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
    fn a_file_that_is_not_csv_text_says_so() {
        let not_csv = |bytes: &[u8]| {
            let p = error(bytes, &opts());
            assert!(
                p.message.starts_with("this is not a CSV file: "),
                "{:?}: {p}",
                &bytes[..bytes.len().min(16)]
            );
            assert_eq!(p.path, "");
            p.message
        };
        // Random bytes (a fixed pseudo-random stream), even with a CSV-like header first.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect();
        not_csv(&noise);
        not_csv(&[b"submit,duration\n".as_slice(), &noise].concat());
        // Known binary formats are named.
        assert!(not_csv(b"PK\x03\x04\x14\x00\x06\x00").contains("ZIP archive"));
        assert!(not_csv(b"\x1f\x8b\x08\x00\x00\x00").contains("gzip"));
        assert!(not_csv(b"\x89PNG\r\n\x1a\n\x00\x00").contains("PNG image"));
        // UTF-16 text, with or without its byte order mark.
        let utf16: Vec<u8> = "submit,duration\n0,1\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(not_csv(&[b"\xff\xfe".as_slice(), &utf16].concat()).contains("UTF-16"));
        assert!(not_csv(&utf16).contains("NUL bytes (the first at byte 1)"));
        // Control characters, and mostly non-UTF-8 bytes.
        assert!(not_csv(b"submit,duration\n0,\x01\x02\n").contains("0x01 at byte 18"));
        assert!(
            not_csv(&[0xC3u8, 0x28, 0xA0, 0xA1, 0xFF, 0xFE, b'a'].repeat(50))
                .contains("are not UTF-8 text")
        );
        // Only the first KB is looked at: a NUL further on is a row's problem, not the file's.
        let mut late = format!("submit,duration\n{}", "0,1\n".repeat(SNIFF_BYTES / 4));
        late.push_str("5,\0\n");
        let (v, report) = run(&late, &opts());
        assert_eq!(report.skipped, 1, "{report:?}");
        assert_eq!(jobs(&v).len() as u64, report.imported);
    }

    #[test]
    fn csv_text_is_not_mistaken_for_garbage() {
        for text in [
            "submit,duration\n0,1\n".as_bytes(),
            b"\xEF\xBB\xBFsubmit,duration\r\n0,1\r\n",
            b"submit\tduration,note\n0,1,\x0c\n",
            "submit,duration,team\n0,1,équipe \u{1F680}\n".as_bytes(),
            // A Latin-1 name: that row's own problem if its column is used.
            b"submit,duration,team\n0,1,caf\xe9\n1,1,bar\n",
        ] {
            assert_eq!(
                check_text(text),
                Ok(()),
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        // A UTF-8 character cut by the sample's end is not an invalid byte.
        let cut = format!("submit,duration,note\n0,1,{}\n", "é".repeat(SNIFF_BYTES));
        assert_eq!(check_text(&cut.as_bytes()[..SNIFF_BYTES]), Ok(()));
        let (_, report) = run(&cut, &opts());
        assert_eq!((report.rows, report.imported), (1, 1));
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
    fn skip_reasons_are_counted_by_kind_most_first() {
        let mut csv = String::from("submit,duration,gpus\n");
        csv.push_str("0,-1,1\n");
        for i in 0..6 {
            csv.push_str(&format!("0,abc{i},1\n"));
        }
        csv.push_str("0,1\n0,1\n0,1,1\n");
        let o = ImportOptions {
            gpus: Some("gpus".into()),
            ..opts()
        };
        let (_, report) = run(&csv, &o);
        assert_eq!((report.rows, report.skipped), (10, 9));
        assert_eq!(
            report.reasons,
            [
                ("duration: not a number".to_string(), 6),
                ("gpus: missing value".to_string(), 2),
                ("duration: negative".to_string(), 1),
            ]
        );
        // Beyond REASON_KINDS kinds, the rest are `other reasons`.
        let mut r = ImportReport::default();
        for i in 0..REASON_KINDS + 4 {
            r.rows += 1;
            r.skip(&format!("kind {i}: bad: \"{i}\""));
        }
        sort_reasons(&mut r.reasons);
        assert_eq!(r.reasons.len(), REASON_KINDS + 1);
        assert_eq!(r.reasons[0], ("other reasons".to_string(), 4));
        assert_eq!(r.reasons[1], ("kind 0: bad".to_string(), 1));
        assert_eq!(r.first_problems[0], "row 1: kind 0: bad: \"0\"");
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
            ImportReport {
                warnings: vec![],
                ..report.clone()
            },
            ImportReport {
                rows: 82_247,
                imported: 82_247,
                skipped: 0,
                first_problems: vec![],
                reasons: vec![],
                warnings: vec![],
            }
        );
        // The default capacity (the average load, 119 instances) leaves 4 small teams at a
        // limit of 0 and is far under the peak of 865 instances held at once.
        let zero: Vec<&str> = report
            .warnings
            .iter()
            .filter_map(|w| match w {
                ImportWarning::ZeroLimit { share, .. } => Some(share.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(zero, ["23dbec", "51b7ef", "795a4c", "925e2b"]);
        assert_eq!(
            report.warnings.last(),
            Some(&ImportWarning::CapacityUnderPeak {
                capacity: 119,
                default: true,
                peak_instances: 865,
                peak_gpus: 1_243,
                at_ms: 4_105_977_000,
            })
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
