//! The run's tables as CSV files (the page's Files menu: the summary, the jobs, the
//! events), written from a [`Digest`]: one row per share and the totals, one per submitted
//! job, one per event with its explanation. A whole run's files are made from a digest that
//! keeps every job and event ([`run_csv`]), so they are complete whatever the page keeps.
//! Text cells that a spreadsheet would read as a formula are escaped; quoting is the CSV
//! writer's.

use quotalab_engine::digest::{Digest, DigestLimits};
use quotalab_engine::Problem;

/// Which table of a run ([`run_csv`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Summary,
    Jobs,
    Events,
}

/// Validates and simulates `scenario_json` and writes its `table` whole (every job, every
/// event), or returns every problem of the scenario.
pub fn run_csv(scenario_json: &str, table: Table) -> Result<String, Vec<Problem>> {
    let limits = DigestLimits {
        max_events: usize::MAX,
        max_jobs: usize::MAX,
        ..DigestLimits::default()
    };
    let d = quotalab_engine::run_digest(scenario_json, limits)?;
    Ok(match table {
        Table::Summary => summary_csv(&d),
        Table::Jobs => jobs_csv(&d),
        Table::Events => events_csv(&d),
    })
}

/// A text cell: a leading `=`, `+`, `-` or `@` (a formula in a spreadsheet) is escaped with
/// `'`. Quoting is the CSV writer's.
fn text_cell(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    }
}

fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        String::new()
    }
}

fn opt_num(x: Option<f64>) -> String {
    x.map_or(String::new(), num)
}

fn write_csv(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    // Writing to a Vec cannot fail.
    let _ = w.write_record(header);
    for row in rows {
        let _ = w.write_record(&row);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

const SUMMARY_HEADER: &[&str] = &[
    "scope",
    "share",
    "submitted",
    "succeeded",
    "failed",
    "unfinished",
    "rejected",
    "unschedulable",
    "completion_mean_s",
    "completion_p50_s",
    "completion_p90_s",
    "completion_p99_s",
    "completion_max_s",
    "wait_mean_s",
    "wait_p50_s",
    "wait_p90_s",
    "wait_p99_s",
    "wait_max_s",
    "preemptions_reclaim",
    "preemptions_in_share",
    "entitled_h",
    "own_h",
    "borrowed_h",
    "lent_h",
    "idle_h",
    "held_h",
    "useful_h",
    "lost_h",
    "startup_h",
    "checkpoint_h",
    "grace_h",
    "goodput",
    "cost_usd",
    "deadline_misses",
];

/// One row per share, then the totals (`scope` = `total`, no share name). Times in
/// seconds, instance time in instance-hours; percentiles are empty when no job counts.
pub fn summary_csv(d: &Digest) -> String {
    let row = |scope: &str, m: &quotalab_engine::digest::ShareMetrics, name: &str| {
        let pct = |p: &quotalab_engine::digest::Pct| {
            if p.n == 0 {
                vec![String::new(); 5]
            } else {
                [p.mean, p.p50, p.p90, p.p99, p.max].map(num).to_vec()
            }
        };
        let mut r = vec![
            scope.to_string(),
            text_cell(name),
            m.submitted.to_string(),
            m.succeeded.to_string(),
            m.failed.to_string(),
            m.unfinished.to_string(),
            m.rejected.to_string(),
            m.unschedulable.to_string(),
        ];
        r.extend(pct(&m.completion_s));
        r.extend(pct(&m.wait_s));
        r.push(m.reclaim.to_string());
        r.push(m.in_share.to_string());
        r.extend(
            [
                m.entitled_h,
                m.own_h,
                m.borrowed_h,
                m.lent_h,
                m.idle_h,
                m.held_h,
                m.useful_h,
                m.lost_h,
                m.startup_h,
                m.checkpoint_h,
                m.grace_h,
                m.goodput,
                m.cost_usd,
            ]
            .map(num),
        );
        r.push(m.deadline_misses.to_string());
        r
    };
    let rows = d
        .shares
        .iter()
        .map(|m| row("share", m, &m.name))
        .chain(std::iter::once(row("total", &d.totals, "")));
    write_csv(SUMMARY_HEADER, rows)
}

fn share_name(d: &Digest, i: u16) -> String {
    d.shares
        .get(usize::from(i))
        .map_or(String::new(), |s| text_cell(&s.name))
}

fn job_id(d: &Digest, i: Option<u32>) -> String {
    i.and_then(|i| d.jobs.get(i as usize))
        .map_or(String::new(), |j| text_cell(&j.id))
}

const JOBS_HEADER: &[&str] = &[
    "id",
    "share",
    "instance_type",
    "instances",
    "priority",
    "state",
    "submit_s",
    "first_start_s",
    "end_s",
    "wait_s",
    "preemptions",
    "lost_s",
    "held_s",
    "waiting_reason",
    "checkpoint_interval_s",
    "checkpoint_cost_s",
];

/// One row per submitted job, as it ended the run.
pub fn jobs_csv(d: &Digest) -> String {
    write_csv(JOBS_HEADER, d.jobs.iter().map(|j| job_row(d, j)))
}

fn job_row(d: &Digest, j: &quotalab_engine::digest::JobRow) -> Vec<String> {
    vec![
        text_cell(&j.id),
        share_name(d, j.share),
        d.instance_types
            .get(usize::from(j.instance_type))
            .map_or(String::new(), |t| text_cell(t)),
        j.instances.to_string(),
        j.priority.to_string(),
        j.state.as_str().to_string(),
        num(j.submit_s),
        opt_num(j.first_start_s),
        opt_num(j.end_s),
        opt_num(j.first_start_s.map(|s| s - j.submit_s)),
        j.preemptions.to_string(),
        num(j.lost_s),
        num(j.held_s),
        j.waiting_reason.map_or("", |r| r.as_str()).to_string(),
        opt_num(j.checkpoint_interval_s),
        opt_num(j.checkpoint_cost_s),
    ]
}

const EVENTS_HEADER: &[&str] = &[
    "t_s",
    "kind",
    "job",
    "share",
    "borrowing",
    "cause",
    "by",
    "reason",
    "priority",
    "explain",
];

/// The event log (SPEC 8 `events`), with each preemption's and waiting reason's explanation.
pub fn events_csv(d: &Digest) -> String {
    write_csv(EVENTS_HEADER, d.events.iter().map(|e| event_row(d, e)))
}

fn event_row(d: &Digest, e: &quotalab_engine::digest::EventRow) -> Vec<String> {
    vec![
        num(e.t_s),
        e.kind.as_str().to_string(),
        job_id(d, e.job),
        share_name(d, e.share),
        e.borrowing.map_or(String::new(), |b| b.to_string()),
        e.cause.map_or(String::new(), |c| c.as_str().to_string()),
        job_id(d, e.by),
        e.reason.map_or("", |r| r.as_str()).to_string(),
        e.priority.map_or(String::new(), |p| p.to_string()),
        d.explain(e).map(text_cell).unwrap_or_default(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"{
  "format": "quotalab/v1",
  "name": "two teams",
  "capacity": {"ml.g5.xlarge": 2},
  "shares": [
    {"name": "a, \"quoted\"", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND_AND_BORROW"},
    {"name": "b", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND"}
  ],
  "jobs": [
    {"id": "=HYPERLINK(\"x\")", "share": "a, \"quoted\"", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 600},
    {"id": "a2", "share": "a, \"quoted\"", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 600},
    {"id": "b1", "share": "b", "instance_type": "ml.g5.xlarge", "submit_s": 60, "work_s": 300}
  ]
}"#;

    #[test]
    fn csv_files_quote_fields_and_escape_formulas() {
        let summary = run_csv(SMALL, Table::Summary).unwrap();
        assert!(summary.starts_with("scope,share,submitted,succeeded"));
        assert!(
            summary.contains("share,\"a, \"\"quoted\"\"\",2,2,"),
            "{summary}"
        );
        assert!(summary.contains("\r\ntotal,,3,3,"), "{summary}");

        let jobs = run_csv(SMALL, Table::Jobs).unwrap();
        let mut reader = csv::Reader::from_reader(jobs.as_bytes());
        assert_eq!(
            reader.headers().unwrap().iter().collect::<Vec<_>>(),
            JOBS_HEADER
        );
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 3);
        // A formula is escaped; a comma and quotes survive the quoting.
        assert_eq!(&rows[0][0], "'=HYPERLINK(\"x\")");
        assert_eq!(&rows[0][1], "a, \"quoted\"");
        assert_eq!(&rows[0][5], "SUCCEEDED");

        let events = run_csv(SMALL, Table::Events).unwrap();
        let mut reader = csv::Reader::from_reader(events.as_bytes());
        assert_eq!(
            reader.headers().unwrap().iter().collect::<Vec<_>>(),
            EVENTS_HEADER
        );
        let kinds: Vec<String> = reader
            .records()
            .map(|r| r.unwrap()[1].to_string())
            .collect();
        let d = quotalab_engine::run_digest(SMALL, DigestLimits::default()).unwrap();
        assert_eq!(kinds.len(), d.events.len());
        assert!(kinds.iter().any(|k| k == "succeed"));
    }

    /// A run's files are whole when a digest for the page would keep fewer rows: every
    /// job and every event, in the result JSON's order (SPEC 8).
    #[test]
    fn a_run_s_files_hold_every_job_and_event_of_the_result() {
        let jobs: Vec<String> = (0..300)
            .map(|i| {
                format!(
                    r#"{{"id": "j{i}", "share": "b", "instance_type": "ml.g5.xlarge", "submit_s": {i}, "work_s": 120}}"#
                )
            })
            .collect();
        let text = SMALL.replace(
            r#"{"id": "b1", "share": "b", "instance_type": "ml.g5.xlarge", "submit_s": 60, "work_s": 300}"#,
            &jobs.join(",\n    "),
        );
        let result: serde_json::Value =
            serde_json::from_str(&quotalab_engine::run_json(&text).unwrap()).unwrap();
        let want_events = result["events"].as_array().unwrap();
        let small = DigestLimits {
            max_events: 100,
            max_jobs: 10,
            ..DigestLimits::default()
        };
        let capped = quotalab_engine::run_digest(&text, small).unwrap();
        assert!(capped.events.len() < want_events.len() && capped.jobs.len() < 302);

        let events = run_csv(&text, Table::Events).unwrap();
        let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(events.as_bytes())
            .records()
            .map(Result::unwrap)
            .collect();
        assert_eq!(rows.len(), want_events.len());
        for (row, e) in rows.iter().zip(want_events) {
            assert_eq!(row[0].parse::<f64>().unwrap(), e["t_s"].as_f64().unwrap());
            assert_eq!(&row[1], e["kind"].as_str().unwrap());
            // (A job id a spreadsheet would read as a formula is escaped with a `'`.)
            let job = e["job"].as_str().unwrap_or_default();
            assert_eq!(row[2].strip_prefix('\'').unwrap_or(&row[2]), job, "{e}");
        }
        let jobs = run_csv(&text, Table::Jobs).unwrap();
        let ids: Vec<String> = csv::Reader::from_reader(jobs.as_bytes())
            .records()
            .map(|r| r.unwrap()[0].to_string())
            .collect();
        assert_eq!(ids.len(), 302);
        assert!(ids.iter().any(|id| id == "j299"));
    }

    #[test]
    fn a_scenario_with_problems_makes_no_file() {
        let problems = run_csv(r#"{"format": "quotalab/v1"}"#, Table::Jobs).unwrap_err();
        assert!(!problems.is_empty());
    }
}
