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

/// The verdict lines of `quotasim compare --summary` (the headlines, then each share's
/// sentence, indented) for the scenario at `path`.
fn verdict_lines(path: &str) -> (Vec<String>, Vec<String>) {
    let run = quotasim(&["compare", path, "--summary"], None);
    assert_eq!(run.code, 0, "{run:?}");
    let block = run
        .stdout
        .split("\n\n")
        .next()
        .expect("the verdicts come first");
    let (mut headlines, mut sentences) = (Vec::new(), Vec::new());
    for line in block.lines().skip(1) {
        match line.strip_prefix("  ") {
            Some(s) => sentences.push(s.to_string()),
            None => headlines.push(line.to_string()),
        }
    }
    (headlines, sentences)
}

/// The comparison `section` of the report of `path` holds the verdicts word for word as
/// `quotasim compare --summary` gives them: two headlines, a sentence per share under each
/// that is not the same as the other.
fn assert_verdicts(section: &str, path: &str) {
    let (headlines, sentences) = verdict_lines(path);
    assert_eq!(
        headlines.len(),
        2,
        "as given and pooled, each against partitioned"
    );
    assert!(!sentences.is_empty(), "a sentence per share");
    for line in headlines.iter().chain(&sentences) {
        let escaped = quotalab_report::html::escape(line);
        assert!(
            section.contains(&format!(">{escaped}<")),
            "{line} in the report"
        );
    }
    assert_eq!(
        section.matches("<li data-verdict=\"").count(),
        sentences.len(),
        "no other verdict"
    );
}

#[test]
fn report_compare_holds_the_verdicts_the_matched_jobs_and_each_policy() {
    let path = preset();
    let run = quotasim(&["report", &path, "--compare"], None);
    assert_eq!(run.code, 0, "{run:?}");
    let html = &run.stdout;
    assert_report(html, &["product", "steady", "flaky"]);
    let at = html
        .find("<section id=\"comparison\">")
        .expect("the comparison section");
    assert!(
        at > html.find("<section id=\"summary\">").unwrap(),
        "after the summary"
    );
    let section = &html[at..at + html[at..].find("</section>").unwrap()];
    assert!(section.contains("Compare policies: what does lending change?"));

    // SPEC 9.1: the verdicts, word for word as `quotasim compare --summary` gives them.
    assert_verdicts(section, &path);

    // The matched jobs of each share, as `quotasim compare` counts them.
    let compare = quotasim(&["compare", &path], None);
    assert_eq!(compare.code, 0, "{compare:?}");
    let json: serde_json::Value = serde_json::from_str(&compare.stdout).unwrap();
    let matched = json["matched"].as_object().expect("matched per share");
    assert_eq!(matched.len(), 3);
    for (share, m) in matched {
        let n = m["n"].as_u64().unwrap();
        let table_at = section
            .find(&format!(
                "<div class=\"compare-share\" data-share=\"{share}\">"
            ))
            .unwrap_or_else(|| panic!("{share}'s table"));
        let table = &section[table_at..table_at + section[table_at..].find("</table>").unwrap()];
        let count = quotalab_report::format::thousands(n as f64);
        assert!(
            table.contains(&format!(
                "<tr data-row=\"matched\" class=\"matched\"><th scope=\"row\" colspan=\"4\">Matched jobs: {count} (succeeded under all three policies"
            )),
            "{share}: {count} matched"
        );
        // The three policies side by side, with the jobs that did not succeed.
        for col in ["as-given", "partitioned", "pooled"] {
            assert!(table.contains(&format!("<th scope=\"col\" data-col=\"{col}\">")));
        }
        for row in ["jobs-unfinished", "jobs-failed", "matched"] {
            assert!(
                table.contains(&format!("<tr data-row=\"{row}\"")),
                "{share}: {row}"
            );
        }
        for metric in ["succeeded", "completion-p50", "completion-p90", "cost"] {
            assert!(
                table.contains(&format!("<tr data-metric=\"{metric}\">")),
                "{share}: {metric}"
            );
        }
    }
    // Differences are said in words, not in colour only.
    assert!(section.contains(" better</span>") || section.contains(" worse</span>"));

    // A scenario whose as-given run is not the pooled one: both verdicts in full.
    let research = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../www/presets/research-org.json")
        .to_str()
        .unwrap()
        .to_string();
    let run = quotasim(&["report", &research, "--compare"], None);
    assert_eq!(run.code, 0, "{run:?}");
    let at = run.stdout.find("<section id=\"comparison\">").unwrap();
    let section = &run.stdout[at..at + run.stdout[at..].find("</section>").unwrap()];
    assert_verdicts(section, &research);
    assert_eq!(section.matches("<li data-verdict=\"").count(), 6);
}

#[test]
fn report_without_compare_has_no_comparison_and_both_are_deterministic() {
    let path = preset();
    let plain = quotasim(&["report", &path], None);
    assert_eq!(plain.code, 0, "{plain:?}");
    assert!(!plain.stdout.contains("id=\"comparison\""));
    assert!(!plain.stdout.contains("<li data-verdict"));
    assert_eq!(
        quotasim(&["report", &path], None).stdout,
        plain.stdout,
        "the same bytes on every run"
    );

    let text = std::fs::read(&path).unwrap();
    let compared = quotasim(&["report", "-", "--compare"], Some(&text));
    assert_eq!(compared.code, 0, "{compared:?}");
    assert!(compared.stdout.contains("id=\"comparison\""));
    assert_eq!(
        quotasim(&["report", &path, "--compare"], None).stdout,
        compared.stdout,
        "the same bytes on every run, from a file or standard input"
    );
    // The report is the plain one with the comparison added after the summary.
    assert!(compared.stdout.len() > plain.stdout.len());
    let tail = |html: &str| html[html.find("<section id=\"shares\">").unwrap()..].to_string();
    assert_eq!(tail(&compared.stdout), tail(&plain.stdout));
}

#[test]
fn report_compare_of_a_scenario_where_nobody_lends_says_no_difference() {
    // Every share RESERVE: as given is partitioned, run for run (SPEC 9.1).
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(preset()).unwrap()).unwrap();
    for share in doc["shares"].as_array_mut().unwrap() {
        share["strategy"] = serde_json::json!("RESERVE");
        share.as_object_mut().unwrap().remove("borrow_limit");
    }
    let text = serde_json::to_string(&doc).unwrap();
    let run = quotasim(&["report", "-", "--compare"], Some(text.as_bytes()));
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains(">As given vs partitioned: no difference: nobody lends or borrows.<"),
        "{}",
        &run.stdout[run.stdout.find("id=\"comparison\"").unwrap()..][..3000]
    );
}

/// SPEC 16: "the report can carry" a review: `--review PROPOSED` adds the review of the
/// proposal on the scenario's jobs, each share's table as `quotasim review` prints it.
#[test]
fn report_carries_the_review_of_a_proposed_change() {
    let base = golden("aws-walkthrough.json");
    let text = std::fs::read_to_string(&base).unwrap();
    let mut proposed: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The proposal: medium stops lending.
    proposed["shares"][1]["strategy"] = serde_json::json!("RESERVE");
    let out = TempPath(std::env::temp_dir().join(format!(
        "quotasim-report-proposed-{}.json",
        std::process::id()
    )));
    std::fs::write(&out.0, proposed.to_string()).unwrap();
    let proposal = out.0.to_str().unwrap();
    let run = quotasim(
        &["report", base.to_str().unwrap(), "--review", proposal],
        None,
    );
    assert_eq!(run.code, 0, "{run:?}");
    let html = &run.stdout;
    assert_report(html, &["background", "medium", "protected"]);
    let at = html
        .find("<section id=\"review\">")
        .expect("a review section");
    let section = &html[at..at + html[at..].find("</section>").unwrap()];
    // A verdict per team in words, before the numbers: the medium share's stopping lending
    // is worse for background (it waits for capacity it used to borrow).
    let words = &section[..section.find("<table").unwrap()];
    assert!(words.contains("The proposal is "), "{words}");
    for share in ["background", "medium", "protected"] {
        assert!(
            words.contains(&format!("data-share=\"{share}\"")),
            "{share}: {words}"
        );
    }
    assert!(
        words.contains("data-verdict=\"worse\" data-share=\"background\"")
            || words.contains("data-verdict=\"mixed\" data-share=\"background\""),
        "{words}"
    );
    assert!(words.contains("p90 wait"), "{words}");
    // The same tables as the review command's.
    let review = quotasim(&["review", base.to_str().unwrap(), proposal], None);
    assert_eq!(review.code, 0, "{review:?}");
    for line in review
        .stdout
        .lines()
        .filter(|l| l.starts_with("  completion_p90"))
    {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let row = format!(
            "<tr><th scope=\"row\">{}</th>{}</tr>",
            cells[0],
            cells[1..]
                .iter()
                .map(|c| format!("<td>{c}</td>"))
                .collect::<String>()
        );
        assert!(section.contains(&row), "{row} in {section}");
    }
    assert!(!section.contains("</tr>\n</tr>"), "well-formed rows");
    // A proposal that does not read is named.
    let bad = quotasim(
        &["report", base.to_str().unwrap(), "--review", "nowhere.yaml"],
        None,
    );
    assert_eq!(bad.code, 2, "{bad:?}");
    assert!(bad.stderr.contains("nowhere.yaml"), "{bad:?}");
}
