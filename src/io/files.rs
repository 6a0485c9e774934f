//! Files in and out of the page: the scenario as JSON (export and import), its shares as an
//! AWS Batch or Kueue configuration (import dialog and exports: [`super::config`]), the results as
//! JSON (SPEC 8) and as CSV (per-share summary, per-job rows, events:
//! `quotalab_report::tables`), made by an engine worker from the scenario, whole whatever the page
//! keeps of the run; each chart as PNG (drawn again at twice its page size, with its title
//! and share legend: [`chart_png`]) and the occupancy as SVG (the occupancy charts' own
//! drawing, on plotters' SVG backend), from the last run's [`Digest`].
//!
//! An imported file is validated first; if it is not a valid scenario its problems are shown
//! and the current scenario stays.

use leptos::html;
use leptos::prelude::*;
use quotalab_engine::digest::Digest;
use quotalab_engine_worker::config::OutFormat;
use quotalab_engine_worker::jobs::{Answer, FileText, Job, RunFile};

use crate::worker::service::EngineService;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use crate::charts;
use crate::charts::export::LegendItem;
use crate::io::share::{self, use_share, ShareState};
use crate::io::tools::{self, Tool};
use crate::state::{use_app, AppState, ImportKind, Notice};
use crate::ui::menu::MenuButton;

/// Scenario files larger than this are refused (the editor could not hold them anyway).
pub const MAX_SCENARIO_FILE: f64 = 64.0 * 1024.0 * 1024.0;

/// The canvases of the page's charts (`[data-testid^="chart-"] canvas`).
pub const CHART_CANVASES: &str = "[data-testid^=\"chart-\"] canvas";

/// Offers `text` as a download named `filename` (a Blob URL, revoked a minute later). The
/// blob is made of the text's UTF-8 bytes, not of a JS string (a 16 MB scenario decoded to
/// one and encoded back took the page's thread ~100 ms, issue #30).
pub fn download_text(filename: &str, mime: &str, text: &str) -> Result<(), String> {
    let bytes = js_sys::Uint8Array::from(text.as_bytes());
    download_parts(filename, mime, &js_sys::Array::of1(&bytes))
}

/// Downloads `parts` (byte arrays or blobs: the browser's constructor takes either), one
/// after the other, as one file.
fn download_parts(filename: &str, mime: &str, parts: &js_sys::Array) -> Result<(), String> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(parts, &options)
        .map_err(|e| format!("cannot make the file: {e:?}"))?;
    download_blob(filename, &blob)
}

/// Downloads a file an engine worker made ([`FileText`]): the blob it posted goes to the
/// browser as it is (a blob of it, typed, holds no copy), never read by the page.
pub fn download_file(filename: &str, mime: &str, file: &FileText) -> Result<(), String> {
    match file {
        FileText::Text(text) => download_text(filename, mime, text),
        FileText::Posted(blob) => download_parts(filename, mime, &js_sys::Array::of1(blob)),
    }
}

/// Downloads `blob` as `filename`.
fn download_blob(filename: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let url = web_sys::Url::create_object_url_with_blob(blob)
        .map_err(|e| format!("cannot make the file's address: {e:?}"))?;
    let clicked = download_href(filename, &url);
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(60),
    );
    clicked
}

/// Clicks a temporary `<a download>` pointing at `href` (a Blob or data URL).
fn download_href(filename: &str, href: &str) -> Result<(), String> {
    let document = document();
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .unchecked_into();
    a.set_href(href);
    a.set_download(filename);
    a.set_hidden(true);
    let body = document.body().ok_or("the page has no body")?;
    body.append_child(&a).map_err(|e| format!("{e:?}"))?;
    a.click();
    a.remove();
    Ok(())
}

/// A file name from the scenario's name: lower case, `a-z0-9` and dashes, at most 60
/// characters (`scenario` if nothing is left).
pub fn file_stem(scenario_text: &str) -> String {
    let stem = slug(&share::scenario_name(scenario_text).unwrap_or_default());
    if stem.is_empty() {
        "scenario".to_string()
    } else {
        stem
    }
}

fn report(app: AppState, result: Result<(), String>) {
    if let Err(e) = result {
        app.notice
            .set(Some(Notice::error("The download failed.", vec![e])));
    }
}

/// Downloads the scenario text as it is in the editor.
pub fn export_scenario(app: AppState) {
    let text = app.scenario.get_untracked();
    let name = format!("{}.json", file_stem(&text));
    report(app, download_text(&name, "application/json", &text));
}

/// Simulates `text` in an engine worker and downloads `file` of its run: the result JSON
/// (SPEC 8) or a table as CSV, with every job and event.
pub fn export_run_file(app: AppState, service: EngineService, text: String, file: RunFile) {
    let (suffix, mime) = match file {
        RunFile::Json => ("result.json", "application/json"),
        RunFile::Summary => ("summary.csv", "text/csv"),
        RunFile::Jobs => ("jobs.csv", "text/csv"),
        RunFile::Events => ("events.csv", "text/csv"),
    };
    let name = format!("{}-{suffix}", file_stem(&text));
    // Said while the worker runs the scenario again (a second on a month's trace), gone
    // with the download.
    let making = format!("Making {name}…");
    app.notice
        .set(Some(Notice::info(making.clone(), Vec::new())));
    let job = Job::RunFile {
        scenario: text,
        file,
    };
    service.send(job, move |answer| match answer {
        Answer::RunFile(Ok(result)) => {
            if app
                .notice
                .with_untracked(|n| n.as_ref().is_some_and(|n| n.title == making))
            {
                app.notice.set(None);
            }
            report(app, download_file(&name, mime, &result));
        }
        Answer::RunFile(Err(problems)) => app.notice.set(Some(Notice::error(
            "The results cannot be exported: the scenario has problems.",
            problems,
        ))),
        Answer::Failed(m) => app.notice.set(Some(Notice::error(
            "The results cannot be exported.",
            vec![m],
        ))),
        _ => {}
    });
}

/// Checks that a scenario file's text is JSON (the page's part: its SPEC 7 validation is the
/// engine worker's, `Job::Check`, worded by [`problem_lines`]).
pub fn json_problem(text: &str) -> Result<(), Vec<String>> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map(|_| ())
        .map_err(|e| vec![crate::ui::words::json_error(&e)])
}

/// A scenario's problems in the page's words: the editor's place for a path, plain numbers.
pub fn problem_lines(problems: &[quotalab_engine::Problem]) -> Vec<String> {
    problems
        .iter()
        .map(|p| crate::ui::words::located(p, None))
        .collect()
}

/// A name for a file: lower case, `a-z0-9` and dashes, at most 60 characters.
fn slug(text: &str) -> String {
    let mut out = String::new();
    // ASCII case only: other letters become dashes anyway (and the page carries no
    // Unicode case tables).
    for c in text.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 60 {
            break;
        }
    }
    out.trim_end_matches('-').to_string()
}

/// A chart canvas's name in the Files menu and its PNG's title, as the page heads it: its
/// results section's heading (`Cluster occupancy`; `base`, the chart's key, without one),
/// then its panel's share and instance type (`Allocation vs consumption: background
/// (ml.g5.xlarge)`).
fn chart_label(heading: Option<&str>, base: &str, share: Option<&str>, ty: Option<&str>) -> String {
    let mut label = heading.unwrap_or(base).to_string();
    match (share, ty) {
        (Some(s), Some(t)) => label.push_str(&format!(": {s} ({t})")),
        (Some(s), None) => label.push_str(&format!(": {s}")),
        (None, Some(t)) => label.push_str(&format!(": {t}")),
        (None, None) => {}
    }
    label
}

/// One chart canvas on the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartCanvas {
    /// `Cluster occupancy`, `Allocation vs consumption: background` ([`chart_label`]).
    pub label: String,
    /// The file name part, the label's words (`cluster-occupancy`,
    /// `allocation-vs-consumption-background`): never a number but for a repeat.
    pub file: String,
}

/// The charts' canvases on the page (`[data-testid^="chart-"] canvas`), named from their
/// chart's `data-testid` (`chart-occupancy` gives `occupancy`) and, for a chart with one
/// panel per share, the panel's `data-share`; other repeats are numbered.
pub fn chart_canvases() -> Vec<(ChartCanvas, HtmlCanvasElement)> {
    let Ok(list) = document().query_selector_all(CHART_CANVASES) else {
        return Vec::new();
    };
    let mut out: Vec<(ChartCanvas, HtmlCanvasElement)> = Vec::new();
    for i in 0..list.length() {
        let Some(canvas) = list
            .item(i)
            .and_then(|n| n.dyn_into::<HtmlCanvasElement>().ok())
        else {
            continue;
        };
        let chart_el = canvas.closest("[data-testid^=\"chart-\"]").ok().flatten();
        let chart = chart_el
            .as_ref()
            .and_then(|c| c.get_attribute("data-testid"))
            .unwrap_or_default();
        let base = chart.strip_prefix("chart-").unwrap_or("chart").to_string();
        // Named as the page names it: the results section's heading, the panel's share and
        // instance type (issue #34, fresh-eyes walk: the files were `occupancy-1`,
        // `occupancy-2`, the label `occupancy (1)`).
        let p = chart_place(&canvas);
        let label = chart_label(
            p.heading.as_deref(),
            &base,
            p.share.as_deref(),
            p.instance_type.as_deref(),
        );
        let file = match slug(&label) {
            f if f.is_empty() => base,
            f => f,
        };
        out.push((ChartCanvas { label, file }, canvas));
    }
    // Number what is still ambiguous.
    let files: Vec<String> = out.iter().map(|(c, _)| c.file.clone()).collect();
    for (i, (c, _)) in out.iter_mut().enumerate() {
        let total = files.iter().filter(|f| **f == files[i]).count();
        if total > 1 {
            let k = files[..=i].iter().filter(|f| **f == files[i]).count();
            c.file = format!("{}-{k}", files[i]);
            c.label = format!("{} ({k})", c.label);
        }
    }
    out
}

fn export_chart_png(app: AppState, index: usize) {
    let charts = chart_canvases();
    let Some((chart, canvas)) = charts.get(index) else {
        app.notice.set(Some(Notice::error(
            "That chart is no longer on the page.",
            Vec::new(),
        )));
        return;
    };
    let digest = app
        .outcome
        .with_untracked(|o| o.as_ref().map(|o| o.digest.clone()));
    let name = untrack(|| app.name_shown()).unwrap_or_default();
    let result = chart_png(chart, canvas, digest.as_deref(), &name).and_then(|url| {
        let stem = app.scenario.with_untracked(|t| file_stem(t));
        download_href(&format!("{stem}-{}.png", chart.file), &url)
    });
    report(app, result);
}

/// The chart of `canvas` as a PNG data URL for documents ([`charts::export::chart_image`]):
/// drawn again at twice its page size by its own code, under its title (the results
/// section's heading, the panel's share and instance type) and the scenario's `name`, over
/// the legend of its shares (all of them; a per-share panel's own).
pub fn chart_png(
    chart: &ChartCanvas,
    canvas: &HtmlCanvasElement,
    digest: Option<&Digest>,
    name: &str,
) -> Result<String, String> {
    chart_export(chart, canvas, digest, name)?
        .to_data_url_with_type("image/png")
        .map_err(|e| format!("cannot read the chart's pixels: {e:?}"))
}

/// The image [`chart_png`] encodes, as a canvas.
pub fn chart_export(
    chart: &ChartCanvas,
    canvas: &HtmlCanvasElement,
    digest: Option<&Digest>,
    name: &str,
) -> Result<HtmlCanvasElement, String> {
    let (title, share) = chart_title(chart, canvas);
    let legend: Vec<LegendItem> = digest
        .map(|d| {
            d.shares
                .iter()
                .enumerate()
                .filter(|(_, s)| share.as_ref().is_none_or(|name| *name == s.name))
                .map(|(i, s)| LegendItem {
                    name: s.name.clone(),
                    colour: charts::share_colour(i),
                })
                .collect()
        })
        .unwrap_or_default();
    charts::export::chart_image(canvas, &title, name, &legend)
}

/// What names a chart's canvas on the page: the heading of its results section
/// (`Allocation vs consumption`), the share of a per-share panel, the instance type of a
/// panel per type.
struct ChartPlace {
    heading: Option<String>,
    share: Option<String>,
    instance_type: Option<String>,
}

fn chart_place(canvas: &HtmlCanvasElement) -> ChartPlace {
    let text_of = |e: Option<web_sys::Element>| {
        e.and_then(|e| e.text_content())
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    };
    let figure = canvas.closest("[data-testid^=\"chart-\"]").ok().flatten();
    let heading = text_of(
        canvas
            .closest("section")
            .ok()
            .flatten()
            .and_then(|s| s.query_selector("h2").ok().flatten()),
    );
    let panel = canvas.closest("[data-share]").ok().flatten().filter(|p| {
        figure
            .as_ref()
            .is_some_and(|f| f.contains(Some(p.as_ref())))
    });
    let share = panel.as_ref().and_then(|p| p.get_attribute("data-share"));
    let instance_type = match &panel {
        Some(p) => text_of(p.query_selector(".panel-type").ok().flatten()),
        None => text_of(
            canvas
                .closest(".occupancy-type")
                .ok()
                .flatten()
                .and_then(|t| t.query_selector(".panel-title").ok().flatten()),
        ),
    };
    ChartPlace {
        heading,
        share,
        instance_type,
    }
}

/// A chart's title for its export, and the share of a per-share panel: the heading of its
/// results section (`Allocation vs consumption`), then the panel's share and instance type
/// (`: background (ml.g5.xlarge)`); the menu's label if the page has no heading for it.
fn chart_title(chart: &ChartCanvas, canvas: &HtmlCanvasElement) -> (String, Option<String>) {
    (chart.label.clone(), chart_place(canvas).share)
}

/// The occupancy as SVG, for documents (drawn by the occupancy charts' own code on
/// plotters' SVG backend, `quotalab_report::svg`).
pub use quotalab_report::svg::occupancy_svg;

/// A file of the page's run, from the Files menu ([`crate::io::tools`],
/// `Tool::ExportResult`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFile {
    /// The result JSON (SPEC 8).
    Json,
    Summary,
    Jobs,
    Events,
    /// The occupancy charts as SVG.
    OccupancySvg,
}

impl ResultFile {
    pub const ALL: [ResultFile; 5] = [
        ResultFile::Json,
        ResultFile::Summary,
        ResultFile::Jobs,
        ResultFile::Events,
        ResultFile::OccupancySvg,
    ];

    /// The file as an engine worker makes it from the scenario ([`export_run_file`]), for
    /// those that are not drawn from the page's last run.
    pub fn made_by_a_worker(self) -> Option<RunFile> {
        match self {
            ResultFile::Json => Some(RunFile::Json),
            ResultFile::Summary => Some(RunFile::Summary),
            ResultFile::Jobs => Some(RunFile::Jobs),
            ResultFile::Events => Some(RunFile::Events),
            ResultFile::OccupancySvg => None,
        }
    }
}

/// Downloads the occupancy SVG of the page's last run `d`, named after the scenario (`stem`,
/// [`file_stem`]); the other result files are [`export_run_file`]'s.
pub fn export_occupancy_svg(app: AppState, stem: &str, d: &Digest) {
    let name = format!("{stem}-occupancy.svg");
    report(
        app,
        occupancy_svg(d).and_then(|b| download_text(&name, "image/svg+xml", &b)),
    );
}

/// Downloads the report (SPEC 14) of `text`, one self-contained HTML file, made in an engine
/// worker (the page's [`EngineService`]), so a large
/// scenario never freezes the page ("Making the report…" meanwhile). The file is
/// `<scenario name>.html`; the scenario's problems go in a notice. With `compare` (the page's
/// comparison is switched on) the report holds the comparison too (SPEC 9.1,
/// `quotasim report --compare`).
pub fn export_report(app: AppState, service: EngineService, text: String, compare: bool) {
    export_report_with(app, service, text, compare, None);
}

/// [`export_report`], with a proposal (file name, text) reviewed on the scenario's jobs
/// (SPEC 16, `quotasim report --review`).
pub fn export_report_with(
    app: AppState,
    service: EngineService,
    text: String,
    compare: bool,
    review: Option<(String, String)>,
) {
    let name = format!("{}.html", file_stem(&text));
    app.notice
        .set(Some(Notice::info("Making the report…", Vec::new())));
    let job = Job::Report {
        scenario: text,
        compare,
        review,
    };
    service.send(job, move |answer| match answer {
        Answer::Report(Ok(html)) => {
            app.notice.set(None);
            report(app, download_file(&name, "text/html", &html));
        }
        Answer::Report(Err(lines)) => app.notice.set(Some(Notice::error(
            "The report cannot be made: the scenario has problems.",
            lines,
        ))),
        Answer::Failed(m) => app
            .notice
            .set(Some(Notice::error("The report cannot be made.", vec![m]))),
        _ => {}
    });
}

/// Reads a picked scenario file and opens it if it is valid; otherwise says why and keeps
/// the current scenario.
async fn import_file(
    app: AppState,
    share: ShareState,
    service: EngineService,
    file: web_sys::File,
) {
    let name = file.name();
    if file.size() > MAX_SCENARIO_FILE {
        app.notice.set(Some(Notice::error(
            format!("{name} was not opened: it is larger than 64 MB."),
            Vec::new(),
        )));
        return;
    }
    // Read as bytes and made text 2 MiB per task (`text_in_pieces`): `File.text()` made one
    // string of it, then one Rust copy, in one task (~0.1 s on the Philly trace, issue #30).
    let bytes = match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
        Ok(buffer) => js_sys::Uint8Array::new(&buffer),
        Err(e) => {
            app.notice.set(Some(Notice::error(
                format!("{name} could not be read."),
                vec![format!("{e:?}")],
            )));
            return;
        }
    };
    let refuse = move |lines: Vec<String>| {
        app.notice.set(Some(Notice::error(
            format!("{name} is not a valid scenario; the current scenario was kept."),
            lines,
        )))
    };
    let not_utf8 = |at: usize| {
        format!(
            "The file is not UTF-8 text: byte {} is not part of a character. Save it as UTF-8 \
             and open it again.",
            crate::ui::format::count(at + 1)
        )
    };
    crate::worker::service::text_in_pieces(bytes, move |text| match text {
        Ok(text) => check_file(app, share, service, text, refuse),
        Err(at) => refuse(vec![not_utf8(at)]),
    });
}

/// Checks an opened file's `text` and opens it if it is a valid scenario; otherwise `refuse`s
/// it with what is wrong.
fn check_file(
    app: AppState,
    share: ShareState,
    service: EngineService,
    mut text: String,
    refuse: impl Fn(Vec<String>) + 'static,
) {
    // A byte order mark is not the scenario's (`File.text()` dropped it too).
    if text.starts_with('\u{feff}') {
        text.drain(..3);
    }
    // A large text's JSON is checked by the worker alone: a pass of serde over it here held
    // the page for ~0.1 s (issue #30).
    if text.len() < quotalab_engine_worker::kept::LAZY_BYTES {
        if let Err(lines) = json_problem(&text) {
            return refuse(lines);
        }
    }
    // Validated in an engine worker (the page does not carry the validator), then opened;
    // a large one read ahead from where the worker found its jobs, in a task of its own,
    // and opened in the next (as an imported trace: `trace_form`).
    service.send(
        Job::Check {
            scenario: text.clone(),
        },
        move |answer| match answer {
            Answer::Checked(Ok(None)) => {
                app.notice.set(None);
                share::open_scenario(app, share, text);
            }
            Answer::Checked(Ok(Some(kept))) => {
                app.notice.set(None);
                let read = move || {
                    crate::editor::lazy::offer(&text, kept);
                    let open = move || share::open_scenario(app, share, text);
                    set_timeout(open, std::time::Duration::ZERO);
                };
                set_timeout(read, std::time::Duration::ZERO);
            }
            Answer::Checked(Err(problems)) => refuse(problem_lines(&problems)),
            Answer::Failed(m) => refuse(vec![m]),
            _ => {}
        },
    );
}

/// An item of the Files menu, `disabled` while that is true, with the tooltip `title` when
/// it gives one. A choice closes the menu and gives the focus back to its button, then does
/// `act`.
fn menu_item(
    button: MenuButton,
    label: impl IntoView + 'static,
    testid: String,
    disabled: impl Fn() -> bool + Send + Sync + 'static,
    title: impl Fn() -> Option<&'static str> + Send + Sync + 'static,
    act: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <button
            type="button"
            role="menuitem"
            data-testid=testid
            prop:disabled=disabled
            title=title
            on:click=move |_| {
                button.close(true);
                act();
            }
        >
            {label}
        </button>
    }
}

/// The toolbar's Files menu.
#[component]
pub fn FilesMenu() -> impl IntoView {
    let app = use_app();
    let share = use_share();
    let service = crate::worker::service::use_engine_service();
    let menu = NodeRef::<html::Details>::new();
    let picker = NodeRef::<html::Input>::new();
    // The charts on the page when the menu was opened (names only: canvases are looked up
    // again on click).
    let charts = RwSignal::new(Vec::<ChartCanvas>::new());
    // Keys, outside clicks and placement of a menu button (src/ui/menu.rs).
    let button = MenuButton::new(menu);
    let no_results = move || !app.problems.with(Vec::is_empty) || app.outcome.with(Option::is_none);
    let results_title = move || {
        if no_results() {
            "Fix the scenario's problems first: results are exported for the scenario as it is."
        } else {
            ""
        }
    };

    // Whether the menu is open: what its items say of the scenario is read only then (a
    // search of a 16 MB scenario on every keystroke is 20 ms of the page's thread).
    let open = RwSignal::new(false);
    let on_toggle = move |_| {
        button.on_toggle();
        let is_open = menu.get_untracked().is_some_and(|d| d.open());
        if open.get_untracked() != is_open {
            open.set(is_open);
        }
        if is_open {
            // Only a changed list is set: setting an equal one would rebuild every chart
            // item under a pointer that is about to click one (the click then lands on
            // neither the old button nor the new one).
            let now: Vec<ChartCanvas> = chart_canvases().into_iter().map(|(c, _)| c).collect();
            if charts.with_untracked(|old| *old != now) {
                charts.set(now);
            }
        }
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        let file = input.files().and_then(|f| f.get(0));
        // Picking the same file again must fire `change` again.
        input.set_value("");
        if let Some(file) = file {
            leptos::task::spawn_local(import_file(app, share, service, file));
        }
    };
    // The exports of the scenario need a valid one.
    let invalid = move || !app.problems.with(Vec::is_empty);
    let tool = move |t: Tool| tools::open(app, t, RwSignal::new(false));
    // The editor and the results ask for an import through the page's state.
    Effect::new(move |_| {
        if let Some(kind) = app.import_requests.get() {
            tool(match kind {
                ImportKind::Config => Tool::Config,
                ImportKind::Trace => Tool::Trace,
                ImportKind::History => Tool::History,
            });
        }
    });
    let item = move |label: &'static str, testid: &'static str, action: fn(AppState)| {
        menu_item(
            button,
            label,
            testid.into(),
            || false,
            || None,
            move || action(app),
        )
    };
    // SPEC 16: a scenario imported from Kueue files keeps them (`source.kueue`), so its
    // changes can be exported as patches.
    let imported_from_kueue = move || open.get() && app.scenario.with(|s| s.contains("\"source\""));
    let config_item = move |label: &'static str, testid: &'static str, format: OutFormat| {
        menu_item(
            button,
            label,
            testid.into(),
            invalid,
            || None,
            move || tool(Tool::Export(format)),
        )
    };
    let result_item = move |label: &'static str, testid: &'static str, kind: ResultFile| {
        let title = move || Some(results_title());
        menu_item(button, label, testid.into(), no_results, title, move || {
            tool(Tool::ExportResult(kind))
        })
    };
    // The summary's rows in the last run's model's words (its digest says it).
    let summary_label = move || {
        if app
            .outcome
            .with(|o| o.as_ref().is_some_and(|o| o.digest.kueue.is_some()))
        {
            "Export summary per ClusterQueue (CSV)"
        } else {
            "Export summary per share (CSV)"
        }
    };
    let chart_items = move || {
        let list = charts.get();
        if list.is_empty() {
            return view! { <p class="menu-note">"No chart on the page yet."</p> }.into_any();
        }
        list.into_iter()
            .enumerate()
            .map(|(i, chart)| {
                let label = format!("{} (PNG)", chart.label);
                let testid = format!("export-chart-{}", chart.file);
                menu_item(
                    button,
                    label,
                    testid,
                    || false,
                    || None,
                    move || export_chart_png(app, i),
                )
            })
            .collect_view()
            .into_any()
    };
    let import_scenario = move || {
        if let Some(p) = picker.get_untracked() {
            p.click();
        }
    };

    view! {
        <details class="files-menu" node_ref=menu on:toggle=on_toggle data-testid="files-menu">
            <summary
                role="button"
                aria-haspopup="menu"
                aria-expanded=button.expanded()
                on:keydown=move |e| button.on_button_keydown(e)
                on:keyup=move |e| button.on_button_keyup(e)
            >
                "Files"
            </summary>
            <div
                class="menu-panel"
                role="menu"
                aria-label="Files"
                on:keydown=move |e| button.on_menu_keydown(e)
            >
                <p class="menu-group" aria-hidden="true">"Scenario"</p>
                {item("Export scenario (JSON)", "export-scenario", export_scenario)}
                {menu_item(button, "Import scenario (JSON)…", "import-scenario".into(), || false, || None, import_scenario)}
                <p class="menu-group" aria-hidden="true">"Configuration"</p>
                {menu_item(
                    button,
                    "Import AWS Batch, Kueue or HyperPod configuration…",
                    "import-config".into(),
                    || false,
                    || None,
                    move || tool(Tool::Config),
                )}
                {menu_item(
                    button,
                    "Review a proposed change…",
                    "review-change".into(),
                    invalid,
                    || None,
                    move || tool(Tool::Review),
                )}
                {menu_item(
                    button,
                    "Import job history (Kueue Workloads, AWS Batch jobs)…",
                    "import-history".into(),
                    || false,
                    || None,
                    move || tool(Tool::History),
                )}
                <p class="menu-group" aria-hidden="true">"Export the configuration"</p>
                {config_item("Export as AWS Batch (JSON)", "export-aws-json", OutFormat::AwsJson)}
                {config_item("Export as AWS Batch (CLI script)", "export-aws-script", OutFormat::AwsScript)}
                {config_item("Export as Kueue (YAML)", "export-kueue-yaml", OutFormat::Kueue)}
                {menu_item(
                    button,
                    view! {
                        "Export only the changes, as Kueue merge patches"
                        // The reason in sight, not only in a tooltip (issue #34).
                        {move || (!imported_from_kueue()).then(|| view! {
                            <span class="menu-why" data-testid="export-kueue-patch-why">
                                "Only for a scenario imported from Kueue files: it patches the objects it was read from."
                            </span>
                        })}
                    },
                    "export-kueue-patch".into(),
                    move || invalid() || !imported_from_kueue(),
                    move || (!imported_from_kueue()).then_some("Only for a scenario imported from Kueue files: it patches the objects it was read from"),
                    move || tool(Tool::Export(OutFormat::KueuePatch)),
                )}
                <p class="menu-group" aria-hidden="true">"Results"</p>
                {menu_item(button, "Export report (HTML)", "export-report-html".into(), invalid, || None, move || {
                    tool(Tool::Report)
                })}
                {result_item("Export results (JSON)", "export-result-json", ResultFile::Json)}
                {menu_item(button, summary_label, "export-summary-csv".into(), no_results, move || Some(results_title()), move || {
                    tool(Tool::ExportResult(ResultFile::Summary))
                })}
                {result_item("Export jobs (CSV)", "export-jobs-csv", ResultFile::Jobs)}
                {result_item("Export events (CSV)", "export-events-csv", ResultFile::Events)}
                <p class="menu-group" aria-hidden="true">"Charts"</p>
                {chart_items}
                {result_item("Occupancy (SVG)", "export-occupancy-svg", ResultFile::OccupancySvg)}
            </div>
        </details>
        <input
            type="file"
            accept=".json,application/json"
            class="visually-hidden"
            tabindex="-1"
            aria-hidden="true"
            data-testid="import-scenario-input"
            node_ref=picker
            on:change=on_pick
        />
    }
}

#[cfg(test)]
mod tests {
    use super::{chart_label, slug};

    /// Issue #34 (fresh-eyes walk): a chart is named as the page heads it, in the Files
    /// menu and in its file's name (`occupancy-1.png` said nothing).
    #[test]
    fn charts_are_named_in_words_in_the_files_menu_and_their_files() {
        let label = chart_label(
            Some("Cluster occupancy"),
            "occupancy",
            None,
            Some("ml.g5.xlarge"),
        );
        assert_eq!(label, "Cluster occupancy: ml.g5.xlarge");
        assert_eq!(slug(&label), "cluster-occupancy-ml-g5-xlarge");
        let label = chart_label(
            Some("Allocation vs consumption"),
            "allocation",
            Some("background"),
            None,
        );
        assert_eq!(slug(&label), "allocation-vs-consumption-background");
        assert_eq!(chart_label(None, "timeline", None, None), "timeline");
    }
}
