//! Component tests of the explanations, the compare view and the preset picker, in headless
//! Chromium (wasm-bindgen-test):
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --test browser explain::`

use crate::common::{all, mount, one, settle, sleep_ms};
use leptos::{prelude::*, task::tick};
use quotalab_app::io::presets::{self, PRESETS};
use quotalab_app::results::compare::CompareInline;
use quotalab_app::results::explain::{self, CheckpointAdvisor, EventLog, JobHistory};
use quotalab_app::state::{AppState, RunOutcome};
use quotalab_app::toolbar::PresetPicker;
use quotalab_engine::digest::DigestLimits;
use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlSelectElement};

/// Mounts `f` under a page state whose last good run is `scenario`'s (simulated here, so
/// that the test does not depend on where the page runs it); returns the root and the state.
fn mount_run<F, N>(scenario: &'static str, f: F) -> (HtmlElement, AppState)
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    let digest =
        quotalab_engine::run_digest(scenario, DigestLimits::default()).expect("a valid scenario");
    let cell = Rc::new(Cell::new(None));
    let out = cell.clone();
    let root = mount(move || {
        let app = AppState::new(scenario.to_string());
        provide_context(app);
        app.outcome.set(Some(RunOutcome {
            digest: Arc::new(digest),
            millis: 0.0,
        }));
        app.stale.set(false);
        explain::provide_selected_job();
        out.set(Some(app));
        f()
    });
    (root, cell.get().expect("the state"))
}

fn text(root: &Element, selector: &str) -> String {
    one(root, selector)
        .text_content()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// Picks `value` in the `<select>` as a person would (value, then a `change` event).
fn choose(root: &Element, selector: &str, value: &str) {
    let select: HtmlSelectElement = one(root, selector).unchecked_into();
    select.set_value(value);
    assert_eq!(select.value(), value, "{selector} has an option {value}");
    select
        .dispatch_event(&Event::new("change").unwrap())
        .unwrap();
}

fn type_into(root: &Element, selector: &str, value: &str) {
    let input: HtmlInputElement = one(root, selector).unchecked_into();
    input.set_value(value);
    input.dispatch_event(&Event::new("input").unwrap()).unwrap();
}

/// `(kind, job, share, what)` of each rendered event row.
fn rows(root: &Element) -> Vec<(String, String, String, String)> {
    all(root, "[data-testid=event-row]")
        .iter()
        .map(|r| {
            let cell = |c: &str| {
                r.query_selector(c)
                    .unwrap()
                    .and_then(|e| e.text_content())
                    .unwrap_or_default()
                    .trim()
                    .to_string()
            };
            (
                r.get_attribute("data-kind").unwrap_or_default(),
                cell("td.job"),
                cell("td.share"),
                cell("td.what"),
            )
        })
        .collect()
}

const AWS: &str = presets::AWS_WALKTHROUGH_JSON;

#[wasm_bindgen_test]
async fn event_log_lists_the_reclaim_of_bg_p2_by_med_1_with_its_explanation() {
    let (root, _) = mount_run(AWS, || view! { <EventLog /> });
    settle().await;
    let log = one(&root, "[data-testid=event-log]");
    let rows = rows(&log);
    assert!(
        rows.len() > 10,
        "the whole small log is shown: {}",
        rows.len()
    );
    let reclaim = all(&log, "[data-testid=event-row][data-kind=preempt]")
        .into_iter()
        .find(|r| r.get_attribute("data-by").as_deref() == Some("med-1"))
        .expect("a preemption by med-1");
    assert_eq!(text(&reclaim, "td.job"), "bg-p2");
    assert_eq!(text(&reclaim, "td.share"), "background");
    let what = text(&reclaim, "td.what");
    assert!(what.contains("reclaimed by med-1"), "{what}");
    assert!(what.contains("medium lends its idle"), "{what}");
    // Waiting rows explain themselves too.
    let waiting: Vec<_> = rows.iter().filter(|r| r.0 == "waiting").collect();
    assert!(!waiting.is_empty());
    assert!(
        waiting
            .iter()
            .all(|r| r.3.starts_with("waits (") && r.3.len() > 30),
        "{waiting:?}"
    );
}

// A contract's own events (an alarm, a failed restore) are not rows of the log: the page
// keeps every event of such a run, and the log does not say it keeps only some.
#[wasm_bindgen_test]
async fn a_contracts_own_events_do_not_read_as_a_capped_log() {
    const ALARM: &str = include_str!("../../crates/engine/tests/golden/contract-alarm.json");
    let (root, app) = mount_run(ALARM, || view! { <EventLog /> });
    settle().await;
    let d = app.outcome.get_untracked().unwrap().digest;
    assert!(
        d.event_count > d.events.len() as u64,
        "the alarm is counted"
    );
    assert_eq!(d.events_until_s, None);
    let status = text(&root, "[data-testid=event-status]");
    assert!(!status.contains('('), "no cap to explain: {status}");
}

#[wasm_bindgen_test]
async fn kind_share_and_job_filters_narrow_the_log() {
    let (root, _) = mount_run(AWS, || view! { <EventLog /> });
    settle().await;
    let all_rows = rows(&root).len();

    choose(&root, "[data-testid=event-filter-kind]", "preempt");
    settle().await;
    let pre = rows(&root);
    assert_eq!(
        pre.len(),
        2,
        "one reclaim and one in-share preemption: {pre:?}"
    );
    assert!(pre.iter().all(|r| r.0 == "preempt"));
    assert!(text(&root, "[data-testid=event-status]").starts_with("2 of "));

    choose(&root, "[data-testid=event-filter-kind]", "");
    choose(&root, "[data-testid=event-filter-share]", "medium");
    settle().await;
    let med = rows(&root);
    assert!(!med.is_empty() && med.len() < all_rows);
    assert!(med.iter().all(|r| r.2 == "medium"), "{med:?}");

    choose(&root, "[data-testid=event-filter-share]", "");
    type_into(&root, "[data-testid=event-filter-job]", "bg-p1");
    settle().await;
    let p1 = rows(&root);
    assert!(!p1.is_empty());
    assert!(p1.iter().all(|r| r.1 == "bg-p1"), "{p1:?}");
}

#[wasm_bindgen_test]
async fn clicking_a_job_shows_its_history() {
    let (root, app) = mount_run(AWS, || view! { <EventLog /> <JobHistory /> });
    settle().await;
    assert!(root
        .query_selector("[data-testid=job-history]")
        .unwrap()
        .is_none());
    let button: HtmlElement = all(&root, "[data-testid=event-row] td.job button")
        .into_iter()
        .find(|b| b.text_content().as_deref() == Some("bg-p3"))
        .expect("a bg-p3 job button")
        .unchecked_into();
    button.click();
    settle().await;
    let h = one(&root, "[data-testid=job-history]");
    assert_eq!(text(&h, "#job-history-heading"), "Job history");
    assert!(text(&h, "h3").starts_with("bg-p3"), "{}", text(&h, "h3"));
    assert_eq!(
        text(&h, "[data-testid=history-preemptions]"),
        "1 preemption"
    );
    assert_eq!(text(&h, "[data-testid=history-attempts]"), "2");
    assert_eq!(text(&h, "[data-testid=history-state]"), "SUCCEEDED");
    let kinds: Vec<_> = all(&h, "[data-testid=history-events] li")
        .iter()
        .map(|li| li.get_attribute("data-kind").unwrap())
        .collect();
    assert_eq!(kinds.first().map(String::as_str), Some("submit"));
    assert_eq!(kinds.last().map(String::as_str), Some("succeed"));
    assert_eq!(kinds.iter().filter(|k| *k == "preempt").count(), 1);
    let preempt = all(&h, "[data-testid=history-events] li[data-kind=preempt]");
    let why = preempt[0].text_content().unwrap();
    assert!(why.contains("preempted by bg-p1"), "who and why: {why}");
    assert!(why.contains("in-share preemption"), "{why}");

    // Another run without bg-p3 closes the panel.
    let other =
        quotalab_engine::run_digest(presets::POOLED.inline().unwrap(), DigestLimits::default())
            .unwrap();
    app.outcome.set(Some(RunOutcome {
        digest: Arc::new(other),
        millis: 0.0,
    }));
    settle().await;
    assert!(root
        .query_selector("[data-testid=job-history]")
        .unwrap()
        .is_none());
}

/// A replayed history's unfinished job (SPEC 16) "succeeds" with only the work it had done:
/// its succeed row and its history say so (issue #34, walk).
#[wasm_bindgen_test]
async fn an_unfinished_history_job_is_marked_where_its_outcome_is_read() {
    let (root, app) = mount_run(AWS, || view! { <EventLog /> <JobHistory /> });
    app.unfinished
        .set("bg-p3\tr\tran 75 min of an unfinished Workload (a lower bound)\n".to_string());
    settle().await;
    let succeed: Vec<String> = all(&root, "[data-testid=event-row][data-kind=succeed]")
        .iter()
        .map(|r| r.text_content().unwrap_or_default())
        .collect();
    let p3 = succeed
        .iter()
        .find(|r| r.contains("bg-p3"))
        .expect("bg-p3 succeeds");
    assert!(
        p3.contains("succeeded: ran 75 min of an unfinished Workload (a lower bound)"),
        "{p3}"
    );
    // Only the marked job.
    assert!(
        succeed.iter().filter(|r| r.contains("unfinished")).count() == 1,
        "{succeed:?}"
    );
    let button: HtmlElement = all(&root, "[data-testid=event-row] td.job button")
        .into_iter()
        .find(|b| b.text_content().as_deref() == Some("bg-p3"))
        .expect("a bg-p3 job button")
        .unchecked_into();
    button.click();
    settle().await;
    let h = one(&root, "[data-testid=job-history]");
    assert_eq!(
        text(&h, "[data-testid=history-state]"),
        "SUCCEEDED: ran 75 min of an unfinished Workload (a lower bound)"
    );
}

/// Issue #34 (walk): a Kueue preemptor waiting for its victims is tagged for that wait on
/// every row (it read "capacity in use" on one, "no lendable capacity" on another), and
/// says when their grace ends as the log writes times, not "at 2182.844 s".
#[wasm_bindgen_test]
async fn a_preemptor_waiting_for_its_victims_is_tagged_so_with_a_readable_time() {
    let mut sc: serde_json::Value = serde_json::from_str(include_str!(
        "../../crates/engine/tests/golden/kueue-reclaim-quota-from-borrower.json"
    ))
    .unwrap();
    sc["queue"]["preemption_grace_s"] = 2181.844.into();
    sc["horizon_s"] = 5000.into();
    let text_of: &'static str = Box::leak(sc.to_string().into_boxed_str());
    let (root, _) = mount_run(text_of, || view! { <EventLog /> });
    settle().await;
    let waits: Vec<String> = all(&root, "[data-testid=event-row][data-kind=waiting] td.what")
        .iter()
        .map(|r| r.text_content().unwrap_or_default())
        .filter(|w| w.contains("it preempted"))
        .collect();
    assert!(!waits.is_empty(), "a waiting preemptor");
    for w in &waits {
        assert!(w.starts_with("waits (for preempted workloads): "), "{w}");
        assert!(w.contains("36 min 23 s into the run"), "{w}");
        assert!(!w.contains("2182.844"), "{w}");
        // Issue #34: the Kueue model says workload(s), never job(s).
        assert!(!w.contains(" job"), "{w}");
    }
}

#[wasm_bindgen_test]
async fn event_log_caps_the_rows_and_shows_more_on_demand() {
    let (root, _) = mount_run(
        presets::RESEARCH_ORG.inline().unwrap(),
        || view! { <EventLog /> },
    );
    settle().await;
    assert_eq!(rows(&root).len(), explain::FIRST_PAGE);
    let more: HtmlElement = one(&root, "[data-testid=event-log-more]").unchecked_into();
    more.click();
    settle().await;
    assert_eq!(rows(&root).len(), explain::FIRST_PAGE + explain::MORE);
    choose(&root, "[data-testid=event-filter-kind]", "preempt");
    settle().await;
    let pre = rows(&root);
    assert_eq!(
        pre.len(),
        explain::FIRST_PAGE,
        "a new filter starts from the first page"
    );
    assert!(pre.iter().all(|r| r.0 == "preempt"));
}

#[wasm_bindgen_test]
async fn compare_view_shows_three_columns_per_share_only_when_on() {
    let (root, _) = mount_run(
        presets::POOLED.inline().unwrap(),
        || view! { <CompareInline /> },
    );
    settle().await;
    assert!(
        all(&root, "table.compare").is_empty(),
        "nothing is computed while off"
    );
    let toggle: HtmlElement = one(&root, "[data-testid=compare-toggle]").unchecked_into();
    toggle.click();
    settle().await;
    let tables = all(&root, "[data-testid=compare-table]");
    let shares: Vec<_> = tables
        .iter()
        .map(|t| t.get_attribute("data-share").unwrap())
        .collect();
    assert_eq!(shares, ["vision", "language", "speech", "batch"]);
    let heads: Vec<_> = all(&tables[0], "thead th[data-col]")
        .iter()
        .map(|th| th.text_content().unwrap())
        .collect();
    assert_eq!(heads, ["As given", "Partitioned", "Pooled"]);
    // As given is pooled here: the same values, and vision finishes sooner than partitioned.
    let p50 = one(&tables[0], "tr[data-metric=completion-p50]");
    let given = text(&p50, "[data-col=as-given] .value");
    assert_eq!(given, text(&p50, "[data-col=pooled] .value"));
    assert!(p50
        .query_selector("[data-col=pooled] .delta.better")
        .unwrap()
        .is_some());
    // Each policy's succeeded / unfinished / failed beside its percentiles (SPEC 9.1).
    let jobs = one(&tables[0], "tr[data-metric=succeeded]");
    assert_eq!(
        text(&jobs, "[data-col=partitioned] .value")
            .split(" / ")
            .count(),
        3,
        "{}",
        text(&jobs, "[data-col=partitioned] .value")
    );
    assert!(text(
        &tables[0].parent_element().unwrap(),
        "[data-testid=matched-note]"
    )
    .contains("jobs that succeeded under all three policies"),);
    // One unit per row: the three completion values read in the same unit.
    let units: Vec<String> = ["as-given", "partitioned", "pooled"]
        .iter()
        .map(|c| {
            let v = text(&p50, &format!("[data-col={c}] .value"));
            v.rsplit(' ').next().unwrap_or_default().to_string()
        })
        .collect();
    assert!(units.iter().all(|u| *u == units[0]), "{units:?}");
    // The engine's verdicts: as given vs partitioned, then pooled vs partitioned, each
    // share's sentence with its largest change first.
    let caption = text(&root, "[data-testid=compare-caption]");
    assert!(caption.contains("As given vs partitioned: "), "{caption}");
    assert!(caption.contains("Pooled vs partitioned: "), "{caption}");
    let vision = one(&root, "[data-testid=compare-caption] li[data-share=vision]");
    // Vision gains hours of wait and completion and pays in interruptions: both sides
    // named, the larger first.
    assert_eq!(
        vision.get_attribute("data-verdict").as_deref(),
        Some("mixed")
    );
    let words = vision.text_content().unwrap();
    assert!(
        words.contains("vision: mixed — better: p50 wait 4.5 h → 1.0 h (−78%)")
            && words.contains("; worse: interruption instance-hours"),
        "{words}"
    );

    toggle.click();
    settle().await;
    assert!(all(&root, "table.compare").is_empty());
}

#[wasm_bindgen_test]
async fn checkpoint_advisor_shows_young_daly_per_share() {
    let (root, _) = mount_run(
        presets::RESEARCH_ORG.inline().unwrap(),
        || view! { <CheckpointAdvisor /> },
    );
    settle().await;
    let rows = all(&root, "[data-testid=advisor-row]");
    let names: Vec<_> = rows
        .iter()
        .map(|r| r.get_attribute("data-share").unwrap())
        .collect();
    assert_eq!(names, ["research", "product", "platform"]);
    // research checkpoints and is reclaimed; product never checkpoints; platform is RESERVE.
    let value = |row: &Element, col: &str| text(row, &format!("[data-col={col}] .value"));
    assert_eq!(value(&rows[0], "configured"), "16 min");
    assert_ne!(value(&rows[0], "young-daly"), "none");
    assert_eq!(value(&rows[1], "configured"), "none");
    assert_eq!(text(&rows[1], "[data-col=cost]"), "60 s save?");
    assert_ne!(value(&rows[1], "young-daly"), "none");
    assert_eq!(value(&rows[2], "interruptions"), "0");
    assert_eq!(value(&rows[2], "young-daly"), "none");
    let verdicts: Vec<_> = all(&root, "ul.advice li")
        .iter()
        .map(|li| li.get_attribute("data-verdict").unwrap())
        .collect();
    // research saves on preemption; product's short jobs lose too little to checkpoint.
    assert_eq!(
        verdicts,
        ["ProtectedOnPreemption", "NotWorthIt", "NotInterrupted"]
    );
    let advice = text(&root, "ul.advice");
    assert!(
        advice.contains("product was interrupted once every"),
        "{advice}"
    );
    assert!(advice.contains("platform was never preempted"), "{advice}");
    assert!(text(&root, ".explain-intro").starts_with("How often should each share's jobs"));
    assert_eq!(
        text(&root, "table.advisor caption"),
        "Checkpoint advice per quota share"
    );
}

// Issue #34: the Kueue model's advisor speaks of ClusterQueues and their Workloads.
#[wasm_bindgen_test]
async fn the_kueue_checkpoint_advisor_names_clusterqueues() {
    let (root, _) = mount_run(
        include_str!("../../www/presets/kueue-three-queues.json"),
        || view! { <CheckpointAdvisor /> },
    );
    settle().await;
    let intro = text(&root, ".explain-intro");
    assert!(
        intro.starts_with("How often should each ClusterQueue's Workloads")
            && intro.contains("over the ClusterQueue's held time")
            && !intro.contains("share"),
        "{intro}"
    );
    assert_eq!(
        text(&root, "table.advisor caption"),
        "Checkpoint advice per ClusterQueue"
    );
    assert!(text(&root, ".table-note").ends_with("the ClusterQueue never checkpoints."));
}

// Issue #34: the Kueue model's event log and checkpoint advice say workload(s), not job(s).
#[wasm_bindgen_test]
async fn the_kueue_event_log_and_advice_say_workloads() {
    let (root, _) = mount_run(
        include_str!("../../www/presets/kueue-three-queues.json"),
        || view! { <EventLog /> <CheckpointAdvisor /> <JobHistory /> },
    );
    settle().await;
    let intro = text(&root, "[data-testid=event-log] .explain-intro");
    assert!(
        intro.ends_with("pick a workload id to see its whole history."),
        "{intro}"
    );
    let heads: Vec<String> = all(&root, "table.events th")
        .iter()
        .map(|h| h.text_content().unwrap_or_default())
        .collect();
    assert!(heads.iter().any(|h| h == "Workload"), "{heads:?}");
    assert!(!heads.iter().any(|h| h == "Job"), "{heads:?}");
    let filter: HtmlInputElement = one(&root, "[data-testid=event-filter-job]").unchecked_into();
    assert_eq!(filter.placeholder(), "workload id contains…");
    let advice = text(&root, "ul.advice");
    assert!(
        advice.contains("its workloads save when preempted"),
        "{advice}"
    );
    assert!(!advice.contains("its jobs"), "{advice}");
    // A workload's history is headed so.
    let button: HtmlElement = one(&root, "[data-testid=event-row] td.job button").unchecked_into();
    button.click();
    settle().await;
    assert_eq!(text(&root, "#job-history-heading"), "Workload history");
}

#[wasm_bindgen_test]
async fn preset_picker_loads_each_preset() {
    let (root, app) = mount_run(AWS, || view! { <PresetPicker /> });
    settle().await;
    let select: HtmlSelectElement = one(&root, "[data-testid=preset-select]").unchecked_into();
    assert_eq!(select.value(), "aws");
    for p in PRESETS.iter().filter(|p| p.inline().is_some()) {
        choose(&root, "[data-testid=preset-select]", p.id);
        settle().await;
        assert_eq!(
            app.scenario.get_untracked(),
            p.inline().unwrap(),
            "{}",
            p.id
        );
        assert_eq!(select.value(), p.id);
        assert_eq!(text(&root, ".preset-description"), p.description);
    }
    app.scenario.set("{}".into());
    settle().await;
    assert_eq!(select.value(), "custom");
}

/// The large preset is fetched when picked; the test runner does not serve it, so this is the
/// failure a visitor would see on a broken deploy: said, and the scenario left as it was.
#[wasm_bindgen_test]
async fn a_fetched_preset_that_cannot_be_loaded_says_so_and_keeps_the_scenario() {
    let (root, app) = mount_run(AWS, || view! { <PresetPicker /> });
    settle().await;
    let select: HtmlSelectElement = one(&root, "[data-testid=preset-select]").unchecked_into();
    choose(&root, "[data-testid=preset-select]", presets::PHILLY.id);
    tick().await; // the page updates; the fetch takes longer
    assert!(
        text(&root, ".preset-description").starts_with("Loading the Philly trace sample"),
        "{}",
        text(&root, ".preset-description")
    );
    assert_eq!(select.value(), "philly");
    let mut said = String::new();
    for _ in 0..500 {
        sleep_ms(10).await;
        said = text(&root, ".preset-description");
        if !said.starts_with("Loading") {
            break;
        }
    }
    assert!(
        said.starts_with(
            "Could not load the Philly trace sample (3,056 jobs) preset (the server answered 404"
        ),
        "{said}"
    );
    assert!(
        said.ends_with("the scenario on screen is unchanged."),
        "{said}"
    );
    assert!(one(&root, ".preset-description")
        .class_list()
        .contains("preset-error"));
    assert_eq!(app.scenario.get_untracked(), AWS);
    assert_eq!(select.value(), "aws", "the menu shows what is on screen");
    // The next change of scenario clears the message.
    choose(&root, "[data-testid=preset-select]", "pool");
    settle().await;
    assert_eq!(
        text(&root, ".preset-description"),
        presets::POOLED.description
    );
}

/// A new run whose first events read as the last run's draws no row again (a share edit on
/// a large trace rebuilt 100 rows a task after its result: issue #30); a row that reads
/// otherwise is drawn as it now reads, and rows that read alike both show.
#[wasm_bindgen_test]
async fn a_new_run_draws_the_event_rows_again_only_when_one_reads_otherwise() {
    let (root, app) = mount_run(AWS, || view! { <EventLog /> });
    settle().await;
    let rows = all(&root, "[data-testid=event-row]");
    assert!(rows.len() > 3, "{} rows", rows.len());
    let cells = |r: &Element| {
        all(r, "td")
            .into_iter()
            .map(|c| c.text_content().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    // The same run again (a new digest, equal events): the very same cells, untouched.
    let first_text = one(&rows[0], "td.t")
        .first_child()
        .expect("the time's text");
    // Listeners added (a row drawn again adds its job link's click anew).
    js_sys::eval(
        "window.__adds = 0; window.__add = EventTarget.prototype.addEventListener; \
         EventTarget.prototype.addEventListener = function (...a) { window.__adds++; return window.__add.apply(this, a); };",
    )
    .unwrap();
    let adds = || js_sys::eval("window.__adds").unwrap().as_f64().unwrap();
    let mut again = quotalab_engine::run_digest(AWS, DigestLimits::default()).unwrap();
    app.outcome.set(Some(RunOutcome {
        digest: Arc::new(again.clone()),
        millis: 0.0,
    }));
    settle().await;
    let after = all(&root, "[data-testid=event-row]");
    assert_eq!(after.len(), rows.len());
    assert!(after[0].is_same_node(Some(&rows[0])), "the first row kept");
    assert!(
        one(&after[0], "td.t")
            .first_child()
            .is_some_and(|t| t.is_same_node(Some(&first_text))),
        "its text untouched"
    );
    assert_eq!(adds(), 0.0, "no row drawn again");
    js_sys::eval("EventTarget.prototype.addEventListener = window.__add;").unwrap();
    // The third event one second later: its row reads so.
    again.events[2].t_s += 1.0;
    let moved = quotalab_engine::output::numbers::clock(again.events[2].t_s);
    app.outcome.set(Some(RunOutcome {
        digest: Arc::new(again.clone()),
        millis: 0.0,
    }));
    settle().await;
    let after = all(&root, "[data-testid=event-row]");
    assert_eq!(text(&after[2], "td.t"), moved);
    assert_eq!(cells(&after[0]), cells(&rows[0]));
    // Two rows that read alike: both shown.
    again.events[1] = again.events[0].clone();
    app.outcome.set(Some(RunOutcome {
        digest: Arc::new(again),
        millis: 0.0,
    }));
    settle().await;
    let after = all(&root, "[data-testid=event-row]");
    assert_eq!(after.len(), rows.len());
    assert_eq!(cells(&after[0]), cells(&after[1]));
    root.remove();
}
