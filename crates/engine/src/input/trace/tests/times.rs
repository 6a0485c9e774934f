//! Trace times (SPEC 11): units, an end column, timestamps across boundaries, the zero.

use super::*;

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
