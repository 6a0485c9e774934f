//! Import options and the report (SPEC 11): invalid options, limits, problems, skip reasons.

use super::*;

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
