//! `quotasim report FILE [-o OUT]` (SPEC 14): one self-contained HTML file, on stdout or in
//! OUT, with every share and every chart as SVG and no script; a bad scenario exits 2 with
//! one line per problem, like `run`.

mod common;

use std::path::{Path, PathBuf};

use common::{golden, quotasim};

const RECOVERY: &str = "../../www/presets/recovery-not-free.json";

fn preset() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(RECOVERY)
        .to_str()
        .unwrap()
        .to_string()
}

/// A path under the temp directory, removed on drop.
struct TempPath(PathBuf);

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn assert_report(html: &str, shares: &[&str]) {
    assert!(html.starts_with("<!DOCTYPE html>"), "an HTML document");
    assert!(html.trim_end().ends_with("</html>"));
    assert!(!html.to_ascii_lowercase().contains("<script"), "no script");
    for s in shares {
        assert!(
            html.contains(&format!("</span>{s}</h3>")),
            "share {s} has its section"
        );
    }
    for chart in [
        "chart-allocation",
        "chart-occupancy",
        "chart-completion",
        "chart-interruption",
    ] {
        let at = html
            .find(&format!("id=\"{chart}\""))
            .unwrap_or_else(|| panic!("{chart} in the report"));
        let figure = &html[at..at + html[at..].find("</figure>").unwrap()];
        assert!(figure.contains("<svg"), "{chart} is drawn as SVG");
    }
}

#[test]
fn report_writes_the_html_file_given_by_o() {
    let out =
        TempPath(std::env::temp_dir().join(format!("quotasim-report-{}.html", std::process::id())));
    let run = quotasim(&["report", &preset(), "-o", out.0.to_str().unwrap()], None);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.is_empty(), "nothing on stdout with -o: {run:?}");
    let html = std::fs::read_to_string(&out.0).expect("the report is written");
    assert_report(&html, &["product", "steady", "flaky"]);
    // The SPEC 14 chart: useful work split into allocation-backed and borrowed.
    assert!(html.contains("id=\"chart-useful\""));
    assert!(
        html.contains("Product infrastructure lead"),
        "the agreement is in it"
    );
}

#[test]
fn report_prints_to_stdout_and_reads_stdin() {
    let text = std::fs::read(golden("aws-walkthrough.json")).unwrap();
    let run = quotasim(&["report", "-"], Some(&text));
    assert_eq!(run.code, 0, "{run:?}");
    assert_report(&run.stdout, &["background", "medium", "protected"]);
    // The same bytes from the file.
    let from_file = quotasim(
        &["report", golden("aws-walkthrough.json").to_str().unwrap()],
        None,
    );
    assert_eq!(
        from_file.stdout, run.stdout,
        "one generator, the same bytes"
    );
}

#[test]
fn a_bad_scenario_exits_2_with_one_line_per_problem() {
    let bad = br#"{"format": 1, "capacity": {"ml.g5.xlarge": -1}, "shares": [{"name": ""}]}"#;
    let run = quotasim(&["report", "-"], Some(bad));
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stdout.is_empty());
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(lines.len() >= 2, "every problem: {run:?}");
    assert!(lines.iter().all(|l| l.starts_with("error: ")), "{run:?}");
    assert!(!run.stderr.contains("panicked"));

    let missing = quotasim(&["report", "/nonexistent/scenario.json"], None);
    assert_eq!(missing.code, 2, "{missing:?}");
    assert!(missing.stderr.starts_with("error: cannot read"));

    let not_json = quotasim(&["report", "-"], Some(b"<html>"));
    assert_eq!(not_json.code, 2, "{not_json:?}");
}
