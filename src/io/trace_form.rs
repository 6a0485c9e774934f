//! CSV trace upload (SPEC 11 in the page): pick a cluster's job log, preview its first rows,
//! map its columns in a small form (the options of `quotasim trace import`), and import it
//! with [`quotalab_engine::trace::import`] as the scenario.
//!
//! Every value read from the file is shown as text (Leptos text nodes, `<option>` values).

use leptos::html;
use leptos::prelude::*;
use quotalab_engine::model::limits::{MAX_PRIORITY, MIN_PRIORITY};
use quotalab_engine::model::Strategy;
use quotalab_engine::trace::{
    self, ImportOptions, ImportReport, ImportWarning, LimitsMode, TimeUnit,
};

use crate::io::dialog::{self, field};
use crate::io::share::{self, use_share};
use crate::state::{use_app, Notice};
use crate::ui::format;
use crate::worker::service::use_engine_service;
use quotalab_engine_worker::jobs::{Answer, Job};

/// Rows shown in the preview.
pub const PREVIEW_ROWS: usize = 10;
/// Longest cell text shown in the preview (longer ones are cut with `…`).
const PREVIEW_CELL: usize = 60;
/// Traces larger than this are refused (the page holds the file in memory).
pub const MAX_TRACE_FILE: f64 = 256.0 * 1024.0 * 1024.0;
/// Above this many rows the page grows slow: the form suggests `limit jobs`.
pub const MANY_ROWS: usize = 20_000;

/// Imported scenarios longer than this (bytes) are said to have a long link without
/// encoding it.
pub const LARGE_SCENARIO: usize = 64 * 1024;
/// The form checks its options for warnings after this pause in typing.
const CHECK_DELAY_MS: u64 = 300;

/// The first rows of a CSV file and how many data rows it has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Data rows in the whole file (the header excluded).
    pub total_rows: usize,
}

fn cell_text(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim();
    if text.chars().count() > PREVIEW_CELL {
        let cut: String = text.chars().take(PREVIEW_CELL - 1).collect();
        format!("{cut}…")
    } else {
        text.to_string()
    }
}

/// Reads the header and the first [`PREVIEW_ROWS`] rows of a CSV file, and counts its rows.
/// A file that is not CSV text (binary, UTF-16: the engine's [`trace::check_text`]) is refused
/// with "this is not a CSV file: ..." rather than previewed as garbled cells.
pub fn preview(bytes: &[u8]) -> Result<Preview, String> {
    trace::check_text(&bytes[..bytes.len().min(trace::SNIFF_BYTES)]).map_err(|p| p.message)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(bytes);
    let header: Vec<String> = reader
        .byte_headers()
        .map_err(|e| format!("cannot read the CSV header: {e}"))?
        .iter()
        .map(|h| String::from_utf8_lossy(h.trim_ascii()).into_owned())
        .collect();
    if header.iter().all(String::is_empty) {
        return Err("the file is empty: no header row".to_string());
    }
    let mut rows = Vec::new();
    let mut total_rows = 0;
    let mut record = csv::ByteRecord::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(_) => {
                total_rows += 1;
                continue;
            }
        }
        total_rows += 1;
        if rows.len() < PREVIEW_ROWS {
            rows.push(record.iter().map(cell_text).collect());
        }
    }
    Ok(Preview {
        header,
        rows,
        total_rows,
    })
}

/// The header column that best matches one of `names` (exactly, ignoring case), else the
/// first containing one of them (and none of `except`).
pub fn guess_column(header: &[String], names: &[&str], except: &[&str]) -> Option<String> {
    let lower: Vec<String> = header.iter().map(|h| h.to_ascii_lowercase()).collect();
    for n in names {
        if let Some(i) = lower.iter().position(|h| h == n) {
            return Some(header[i].clone());
        }
    }
    for n in names {
        if let Some(i) = lower
            .iter()
            .position(|h| h.contains(n) && !except.iter().any(|x| h.contains(x)))
        {
            return Some(header[i].clone());
        }
    }
    None
}

/// The form's values, as text (what the inputs hold).
#[derive(Clone, Copy)]
struct Form {
    name: RwSignal<String>,
    submit: RwSignal<String>,
    time_unit: RwSignal<String>,
    /// `duration` or `end`.
    timing: RwSignal<String>,
    duration: RwSignal<String>,
    end: RwSignal<String>,
    gpus: RwSignal<String>,
    share: RwSignal<String>,
    top_shares: RwSignal<String>,
    priority: RwSignal<String>,
    priority_map: RwSignal<String>,
    instance_type: RwSignal<String>,
    gpus_per_instance: RwSignal<String>,
    limits: RwSignal<String>,
    capacity: RwSignal<String>,
    strategy: RwSignal<String>,
    borrow_limit: RwSignal<String>,
    limit_jobs: RwSignal<String>,
}

impl Form {
    /// The form as the engine's defaults of [`ImportOptions`] set it.
    fn new() -> Form {
        let s = |v: &str| RwSignal::new(v.to_string());
        Form {
            name: s(ImportOptions::DEFAULT_NAME),
            submit: s(""),
            time_unit: s(ImportOptions::DEFAULT_TIME_UNIT.as_str()),
            timing: s("duration"),
            duration: s(""),
            end: s(""),
            gpus: s(""),
            share: s(""),
            top_shares: s(""),
            priority: s(""),
            priority_map: s(""),
            instance_type: s(ImportOptions::DEFAULT_INSTANCE_TYPE),
            gpus_per_instance: s(&ImportOptions::DEFAULT_GPUS_PER_INSTANCE.to_string()),
            limits: s(ImportOptions::DEFAULT_LIMITS.as_str()),
            capacity: s(""),
            strategy: s(ImportOptions::DEFAULT_STRATEGY.as_str()),
            borrow_limit: s(""),
            limit_jobs: s(""),
        }
    }

    /// Fills the column choices from a new file's header (best guesses), and its name.
    fn guess(&self, file_name: &str, header: &[String]) {
        self.name.set(format!("trace {file_name}"));
        let pick = |names: &[&str], except: &[&str]| {
            guess_column(header, names, except).unwrap_or_default()
        };
        // No match leaves a column empty (its picker says "pick a column"), never a guess.
        self.submit.set(pick(
            &[
                "submit_time",
                "submit",
                "submitted",
                "timestamp",
                "start_time",
                "time",
            ],
            &["end"],
        ));
        let duration = pick(&["duration", "runtime", "run_time", "elapsed"], &[]);
        let end = pick(&["end_time", "end", "finish", "completed"], &[]);
        self.timing.set(if duration.is_empty() && !end.is_empty() {
            "end".into()
        } else {
            "duration".into()
        });
        self.duration.set(duration);
        self.end.set(end);
        self.gpus.set(pick(
            &["num_gpus", "gpus", "gpu", "n_gpus", "gpu_num"],
            &["time", "util", "mem"],
        ));
        self.share.set(pick(
            &[
                "cluster", "vc", "queue", "team", "share", "group", "project", "tenant", "user",
            ],
            &[],
        ));
        self.priority.set(pick(&["priority", "qos", "prio"], &[]));
        self.priority_map.set(String::new());
    }

    /// The import options, or what is wrong with the form (one line per field).
    fn options(&self) -> Result<ImportOptions, Vec<String>> {
        let mut problems = Vec::new();
        let column = |s: RwSignal<String>| {
            let v = s.get_untracked();
            (!v.trim().is_empty()).then_some(v)
        };
        fn number<T: std::str::FromStr>(
            problems: &mut Vec<String>,
            label: &str,
            s: RwSignal<String>,
        ) -> Option<T> {
            let v = s.get_untracked();
            let v = v.trim();
            if v.is_empty() {
                return None;
            }
            match v.replace([',', '_'], "").parse() {
                Ok(n) => Some(n),
                Err(_) => {
                    problems.push(format!("{label}: {v:?} is not a whole number"));
                    None
                }
            }
        }
        let mut o = ImportOptions {
            name: self.name.get_untracked().trim().to_string(),
            submit: self.submit.get_untracked(),
            ..ImportOptions::default()
        };
        if o.submit.trim().is_empty() {
            problems.push("Submit time column: pick a column".into());
        }
        if o.name.is_empty() {
            o.name = ImportOptions::DEFAULT_NAME.into();
        }
        o.time_unit = TimeUnit::parse(&self.time_unit.get_untracked())
            .unwrap_or(ImportOptions::DEFAULT_TIME_UNIT);
        if self.timing.get_untracked() == "end" {
            o.end = column(self.end);
            if o.end.is_none() {
                problems.push("End time column: pick a column".into());
            }
        } else {
            o.duration = column(self.duration);
            if o.duration.is_none() {
                problems.push("Duration column: pick a column".into());
            }
        }
        o.gpus = column(self.gpus);
        o.share = column(self.share);
        o.top_shares = number(&mut problems, "Top shares", self.top_shares);
        o.priority = column(self.priority);
        let map = self.priority_map.get_untracked();
        if !map.trim().is_empty() {
            match trace::parse_priority_map(&map) {
                Ok(m) => o.priority_map = m,
                Err(p) => problems.push(format!("Priority map: {}", p.message)),
            }
        }
        o.instance_type = self.instance_type.get_untracked();
        o.gpus_per_instance = number(&mut problems, "GPUs per instance", self.gpus_per_instance)
            .unwrap_or(ImportOptions::DEFAULT_GPUS_PER_INSTANCE);
        o.limits = LimitsMode::parse(&self.limits.get_untracked())
            .unwrap_or(ImportOptions::DEFAULT_LIMITS);
        o.capacity = number(&mut problems, "Capacity", self.capacity);
        o.strategy = self.strategy.get_untracked();
        o.borrow_limit = number(&mut problems, "Borrow limit", self.borrow_limit);
        o.limit_jobs = number(&mut problems, "Limit jobs", self.limit_jobs);
        if problems.is_empty() {
            Ok(o)
        } else {
            Err(problems)
        }
    }

    /// Subscribes the running effect to every value of the form.
    fn track(&self) {
        for s in [
            self.name,
            self.submit,
            self.time_unit,
            self.timing,
            self.duration,
            self.end,
            self.gpus,
            self.share,
            self.top_shares,
            self.priority,
            self.priority_map,
            self.instance_type,
            self.gpus_per_instance,
            self.limits,
            self.capacity,
            self.strategy,
            self.borrow_limit,
            self.limit_jobs,
        ] {
            s.track();
        }
    }
}

/// An import that would skip more than half of the file's rows: the form asks before it
/// replaces the scenario.
pub fn is_lossy(report: &ImportReport) -> bool {
    report.skipped * 2 > report.rows
}

/// How many kinds of skip reasons the confirm step names.
const CONFIRM_REASONS: usize = 3;

/// The confirm step's question for a lossy import: `"600 of 1,000 rows would be skipped:
/// duration: not a number (550 rows); gpus: empty (50 rows)."`
pub fn lossy_message(report: &ImportReport) -> String {
    let rows = |n: u64| {
        format!(
            "{} row{}",
            format::count(n as usize),
            if n == 1 { "" } else { "s" }
        )
    };
    let mut reasons: Vec<String> = report
        .reasons
        .iter()
        .take(CONFIRM_REASONS)
        .map(|(kind, n)| format!("{kind} ({})", rows(*n)))
        .collect();
    let named: u64 = report
        .reasons
        .iter()
        .take(CONFIRM_REASONS)
        .map(|r| r.1)
        .sum();
    if report.skipped > named {
        reasons.push(format!("other reasons ({})", rows(report.skipped - named)));
    }
    format!(
        "{} of {} would be skipped: {}.",
        format::count(report.skipped as usize),
        rows(report.rows),
        reasons.join("; ")
    )
}

/// An import that is waiting for "Import anyway".
#[derive(Clone, Debug, PartialEq)]
struct Pending {
    json: String,
    report: ImportReport,
    shares: usize,
    /// Where the worker found the scenario's jobs (a large one), for the editor.
    kept: Option<quotalab_engine_worker::kept::KeptJobs>,
}

/// The form's label of an import option (`--submit` reads "Submit time column").
fn option_label(path: &str) -> &str {
    match path {
        "--submit" => "Submit time column",
        "--duration" => "Duration column",
        "--end" => "End time column",
        "--gpus" => "GPUs column",
        "--share" => "Share column",
        "--top-shares" => "Top shares",
        "--priority" => "Priority column",
        "--priority-map" => "Priority map",
        "--instance-type" => "Instance type",
        "--gpus-per-instance" => "GPUs per instance",
        "--capacity" => "Capacity",
        "--limits" => "Limits",
        "--strategy" => "Strategy",
        "--borrow-limit" => "Borrow limit",
        "--limit-jobs" => "Limit jobs",
        other => other,
    }
}

/// An import warning (SPEC 11) in the form's words: its fields, not the command line's flags.
pub fn warning_text(warning: &ImportWarning) -> String {
    let text = warning.message(&|o| match o.split_once(' ') {
        Some((flag, value)) => format!("{} \"{value}\"", option_label(flag)),
        None => option_label(o).to_string(),
    });
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// A labelled `<select>` (id `trace-{testid}`) whose choice is written to `value`.
fn select_field(
    label: &'static str,
    testid: &'static str,
    value: RwSignal<String>,
    hint: String,
    options: impl IntoView + 'static,
) -> impl IntoView {
    let id = format!("trace-{testid}");
    let select = view! {
        <select id=id.clone() data-testid=testid on:change=move |ev| value.set(event_target_value(&ev))>
            {options}
        </select>
    };
    field(label, Some(id), hint, select)
}

/// A `<select>` of the header's columns (with "none" first when the column is optional).
#[component]
fn ColumnSelect(
    label: &'static str,
    testid: &'static str,
    value: RwSignal<String>,
    header: RwSignal<Vec<String>>,
    #[prop(optional)] optional: bool,
    #[prop(optional, into)] hint: String,
) -> impl IntoView {
    let options = move || {
        // An empty required column shows "pick a column", not the first column's name.
        let none = if optional {
            view! { <option value="" prop:selected=move || value.with(String::is_empty)>"— none —"</option> }
                .into_any()
        } else {
            view! {
                <option value="" disabled=true prop:selected=move || value.with(String::is_empty)>
                    "— pick a column —"
                </option>
            }
            .into_any()
        };
        let columns = header
            .get()
            .into_iter()
            .map(|c| {
                let selected = c.clone();
                let option_value = c.clone();
                view! {
                    <option value=option_value prop:selected=move || value.with(|v| *v == selected)>{c}</option>
                }
            })
            .collect_view();
        view! { {none} {columns} }
    };
    select_field(label, testid, value, hint, options)
}

/// A text or number `<input>` bound to a form value.
#[component]
fn TextField(
    label: &'static str,
    testid: &'static str,
    value: RwSignal<String>,
    #[prop(optional)] numeric: bool,
    #[prop(optional)] placeholder: &'static str,
    #[prop(optional, into)] hint: String,
) -> impl IntoView {
    let id = format!("trace-{testid}");
    let input = view! {
        <input
            id=id.clone()
            type="text"
            inputmode=if numeric { "numeric" } else { "text" }
            spellcheck="false"
            placeholder=placeholder
            data-testid=testid
            prop:value=move || value.get()
            on:input=move |ev| value.set(event_target_value(&ev))
        />
    };
    field(label, Some(id), hint, input)
}

/// A `<select>` of fixed choices `(value, label)`.
#[component]
fn ChoiceSelect(
    label: &'static str,
    testid: &'static str,
    value: RwSignal<String>,
    choices: Vec<(&'static str, &'static str)>,
    #[prop(optional, into)] hint: String,
) -> impl IntoView {
    let options = choices
        .into_iter()
        .map(|(v, l)| {
            view! { <option value=v prop:selected=move || value.with(|x| x == v)>{l}</option> }
        })
        .collect_view();
    select_field(label, testid, value, hint, options)
}

/// The time units as the form offers them.
fn time_unit_choices() -> Vec<(&'static str, &'static str)> {
    TimeUnit::ALL
        .iter()
        .map(|u| {
            let label = match u {
                TimeUnit::Seconds => "seconds",
                TimeUnit::Millis => "milliseconds",
            };
            (u.as_str(), label)
        })
        .collect()
}

/// The ways to set the limits as the form offers them.
fn limits_choices() -> Vec<(&'static str, &'static str)> {
    LimitsMode::ALL
        .iter()
        .map(|m| {
            let label = match m {
                LimitsMode::Proportional => "proportional to GPU demand",
                LimitsMode::Equal => "equal",
            };
            (m.as_str(), label)
        })
        .collect()
}

/// The strategies, each labelled with its own name.
fn strategy_choices() -> Vec<(&'static str, &'static str)> {
    [Strategy::LendAndBorrow, Strategy::Lend, Strategy::Reserve]
        .iter()
        .map(|s| (s.as_str(), s.as_str()))
        .collect()
}

/// The "Import CSV trace…" button and its dialog, in one wasm (the component tests; the page
/// opens the dialog from the tools' wasm instead: [`super::tools`]).
#[component]
pub fn TraceImport() -> impl IntoView {
    let dialog = NodeRef::<html::Dialog>::new();
    view! {
        <button type="button" class="trace-open" data-testid="trace-open" on:click=move |_| open_dialog(dialog)>
            "Import CSV trace…"
        </button>
        <TraceDialog node_ref=dialog />
    }
}

/// Opens the trace import dialog (modal).
pub use super::dialog::open as open_dialog;

/// The CSV trace import dialog: pick a file, map its columns, preview, import.
#[component]
pub fn TraceDialog(node_ref: NodeRef<html::Dialog>) -> impl IntoView {
    let app = use_app();
    let share = use_share();
    let form = Form::new();
    let file_name = RwSignal::new(None::<String>);
    let bytes = StoredValue::new(Vec::<u8>::new());
    let preview_data = RwSignal::new(None::<Preview>);
    let header = RwSignal::new(Vec::<String>::new());
    let problems = RwSignal::new(Vec::<String>::new());
    let reading = RwSignal::new(false);
    // An import in the engine worker.
    let importing = RwSignal::new(false);
    let service = use_engine_service();
    // A lossy import waiting for "Import anyway"; any change to the form or file drops it.
    let pending = RwSignal::new(None::<Pending>);
    Effect::new(move |_| {
        form.track();
        header.track();
        pending.set(None);
    });
    // The import's warnings (SPEC 11) for the current file and options, checked after a pause.
    let warnings = RwSignal::new(Vec::<String>::new());
    let checks = StoredValue::new(0u32);
    Effect::new(move |_| {
        form.track();
        header.track();
        file_name.track();
        let n = checks.get_value().wrapping_add(1);
        checks.set_value(n);
        set_timeout(
            move || {
                // Skip a stale check, and one after the dialog is gone.
                if checks.try_get_value() != Some(n) {
                    return;
                }
                let Ok(options) = form.options() else {
                    warnings.set(Vec::new());
                    return;
                };
                if bytes.with_value(Vec::is_empty) {
                    warnings.set(Vec::new());
                    return;
                }
                // Checked in an engine worker (a whole trace is read).
                let job = Job::TraceCheck {
                    csv: bytes.with_value(Clone::clone),
                    options,
                };
                service.send(job, move |answer| {
                    if checks.try_get_value() != Some(n) {
                        return;
                    }
                    let found = match answer {
                        Answer::TraceChecked(Ok(ws)) => ws.iter().map(warning_text).collect(),
                        _ => Vec::new(),
                    };
                    warnings.set(found);
                });
            },
            std::time::Duration::from_millis(CHECK_DELAY_MS),
        );
    });

    let close = move || dialog::close(node_ref);

    let on_pick = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        let name = file.name();
        problems.set(Vec::new());
        if file.size() > MAX_TRACE_FILE {
            problems.set(vec![format!("{name} is larger than 256 MB: not read.")]);
            return;
        }
        reading.set(true);
        leptos::task::spawn_local(async move {
            let read = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await;
            reading.set(false);
            let data = match read {
                Ok(buffer) => js_sys::Uint8Array::new(&buffer).to_vec(),
                Err(e) => {
                    problems.set(vec![format!("{name} could not be read: {e:?}")]);
                    return;
                }
            };
            match preview(&data) {
                Ok(p) => {
                    form.guess(&name, &p.header);
                    if p.total_rows > MANY_ROWS && form.limit_jobs.with_untracked(String::is_empty)
                    {
                        form.limit_jobs.set("5000".into());
                    }
                    header.set(p.header.clone());
                    preview_data.set(Some(p));
                    bytes.set_value(data);
                    file_name.set(Some(name));
                }
                Err(e) => {
                    problems.set(vec![format!("{name}: {e}")]);
                    preview_data.set(None);
                    header.set(Vec::new());
                    bytes.set_value(Vec::new());
                    file_name.set(None);
                }
            }
        });
    };

    // Replaces the scenario with an import, and says what it read.
    let finish = move |Pending {
                           json,
                           report,
                           shares,
                           kept,
                       }| {
        pending.set(None);
        let mut lines: Vec<String> = report
            .warnings
            .iter()
            .map(|w| format!("Warning: {}", warning_text(w)))
            .collect();
        lines.extend(report.first_problems.iter().map(|p| format!("skipped {p}")));
        if report.skipped > report.first_problems.len() as u64 {
            lines.push(format!(
                "… and {} more skipped rows",
                format::count((report.skipped - report.first_problems.len() as u64) as usize)
            ));
        }
        // A scenario this large has a long link (JSON does not compress 24-fold): encoding
        // megabytes on the page's thread only to say so would freeze it.
        let long = if json.len() > LARGE_SCENARIO {
            Some(format!("over {}", format::count(share::LONG_LINK)))
        } else {
            share::link_of(&json)
                .filter(|l| l.is_long())
                .map(|l| format::count(l.len()))
        };
        if let Some(chars) = long {
            lines.push(format!(
                "Its link is {chars} characters long: share this scenario as a file (Files → Export scenario) rather than as a link."
            ));
        }
        app.notice.set(Some(Notice::info(
            format!(
                "Imported {} job{} from {} row{} into {} share{}; {} row{} skipped.",
                format::count(report.imported as usize),
                if report.imported == 1 { "" } else { "s" },
                format::count(report.rows as usize),
                if report.rows == 1 { "" } else { "s" },
                shares,
                if shares == 1 { "" } else { "s" },
                format::count(report.skipped as usize),
                if report.skipped == 1 {
                    " was"
                } else {
                    "s were"
                },
            ),
            lines,
        )));
        problems.set(Vec::new());
        close();
        let large = json.len() >= quotalab_engine_worker::kept::LAZY_BYTES;
        // The editor's read of the text ahead (its jobs' text copied), then what opens it.
        let read = move || {
            if let Some(kept) = kept {
                crate::editor::lazy::offer(&json, kept);
            }
            move || share::open_scenario(app, share, json)
        };
        if large {
            // The dialog closes (the browser restyles the page) and the notice shows in
            // this task; the read is the next; the editor and the results open the new
            // scenario in the one after (issue #30: no long task).
            set_timeout(
                move || set_timeout(read(), std::time::Duration::ZERO),
                std::time::Duration::ZERO,
            );
        } else {
            read()();
        }
    };

    let import = move |_| {
        let opts = match form.options() {
            Ok(o) => o,
            Err(lines) => {
                problems.set(lines);
                return;
            }
        };
        // Read in an engine worker: a 100 MB trace never freezes the page.
        let job = Job::TraceImport {
            csv: bytes.with_value(Clone::clone),
            options: opts,
        };
        importing.set(true);
        service.send(job, move |answer| {
            if importing.try_get_untracked() != Some(true) {
                return;
            }
            importing.set(false);
            match answer {
                Answer::TraceImported(Err(p)) => {
                    let line = if p.path.is_empty() {
                        p.message
                    } else {
                        format!("{}: {}", option_label(&p.path.to_string()), p.message)
                    };
                    problems.set(vec![line]);
                }
                Answer::TraceImported(Ok(imported)) => {
                    problems.set(Vec::new());
                    warnings.set(imported.report.warnings.iter().map(warning_text).collect());
                    let ready = Pending {
                        json: imported.scenario,
                        report: imported.report,
                        shares: imported.shares,
                        kept: imported.kept,
                    };
                    if is_lossy(&ready.report) {
                        // Ask first: most of the file would be lost.
                        pending.set(Some(ready));
                    } else if ready.json.len() < quotalab_engine_worker::kept::LAZY_BYTES {
                        finish(ready);
                    } else {
                        // A large scenario: closing the dialog is a task of its own, apart
                        // from receiving the text, and opening the scenario another
                        // (issue #30: no long task).
                        set_timeout(
                            move || {
                                // Not if the dialog is gone meanwhile.
                                if importing.try_get_untracked().is_some() {
                                    finish(ready);
                                }
                            },
                            std::time::Duration::ZERO,
                        );
                    }
                }
                Answer::Failed(m) => problems.set(vec![m]),
                _ => {}
            }
        });
    };
    let import_anyway = move |_| {
        if let Some(p) = pending.get_untracked() {
            finish(p);
        }
    };
    let confirm = move || {
        pending.with(|p| {
            p.as_ref().map(|p| {
                view! {
                    <div class="trace-confirm" role="alert" data-testid="trace-confirm">
                        <p>{lossy_message(&p.report)}</p>
                        <p>"Importing replaces the current scenario with the rows that could be read."</p>
                        <div class="trace-actions">
                            <button type="button" class="primary" data-testid="trace-import-anyway" on:click=import_anyway>
                                "Import anyway"
                            </button>
                            <button type="button" data-testid="trace-import-cancel" on:click=move |_| pending.set(None)>
                                "Cancel"
                            </button>
                        </div>
                    </div>
                }
            })
        })
    };

    let on_type = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if let Some(t) = quotalab_engine::catalogue::lookup(&name) {
            form.gpus_per_instance.set(t.gpus.to_string());
        }
        form.instance_type.set(name);
    };
    let type_options = move || {
        quotalab_engine::catalogue::names()
        .map(|n| {
            let gpus = quotalab_engine::catalogue::lookup(n).map_or(1, |t| t.gpus);
            let label = format!(
                "{n} ({gpus} {})",
                crate::ui::format::accelerator_word(n, gpus == 1)
            );
            view! { <option value=n prop:selected=move || form.instance_type.with(|t| t == n)>{label}</option> }
        })
        .collect_view()
    };

    let preview_table = move || {
        preview_data.get().map(|p| {
            let head = p
                .header
                .iter()
                .map(|h| view! { <th scope="col">{h.clone()}</th> })
                .collect_view();
            let rows = p
                .rows
                .iter()
                .map(|r| {
                    view! { <tr>{r.iter().map(|c| view! { <td>{c.clone()}</td> }).collect_view()}</tr> }
                })
                .collect_view();
            let caption = format!(
                "{}: the first {} of {} data rows",
                file_name.get().unwrap_or_default(),
                p.rows.len(),
                format::count(p.total_rows)
            );
            let many = (p.total_rows > MANY_ROWS).then(|| {
                view! {
                    <p class="trace-warning" data-testid="trace-many-rows">
                        {format!(
                            "{} rows: the page stays responsive up to a few thousand jobs, so \"Limit jobs\" is set to 5,000 (clear it to import every row). Large traces also make long links: share them as files.",
                            format::count(p.total_rows)
                        )}
                    </p>
                }
            });
            view! {
                <div class="trace-preview table-scroll" data-testid="trace-preview">
                    <table>
                        <caption>{caption}</caption>
                        <thead><tr>{head}</tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                {many}
            }
        })
    };

    let timing_is_end = move || form.timing.with(|t| t == "end");
    let strategy_is_lb = move || {
        form.strategy
            .with(|s| s == Strategy::LendAndBorrow.as_str())
    };
    let problem_list = move || {
        let lines = problems.get();
        (!lines.is_empty()).then(|| {
            view! {
                <div class="trace-problems" role="alert" data-testid="trace-problems">
                    <p>"The trace cannot be imported:"</p>
                    <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                </div>
            }
        })
    };

    let warning_list = move || {
        let lines = warnings.get();
        (!lines.is_empty()).then(|| {
            view! {
                <div class="trace-warnings" data-testid="trace-import-warnings">
                    {lines
                        .into_iter()
                        .map(|l| view! { <p class="trace-warning" data-testid="trace-import-warning">{l}</p> })
                        .collect_view()}
                </div>
            }
        })
    };

    view! {
        <dialog
            class="trace-dialog"
            node_ref=node_ref
            data-testid="trace-dialog"
            aria-labelledby="trace-heading"
            // Closed (Cancel, Escape) while the worker reads: its answer is dropped.
            on:close=move |_| importing.set(false)
        >
            {dialog::head(node_ref, "trace-heading", "Import a CSV job trace")}
            <p class="trace-intro">
                "Any cluster's job log becomes a scenario: name the columns that hold each job's submit time, run time, GPUs and team, then choose the cluster. Rows that cannot be read are skipped and counted. The file never leaves your browser."
            </p>
            {dialog::file_picker("CSV file (with a header row)", ".csv,text/csv,text/plain", false, "trace-file", on_pick)}
            {move || reading.get().then(|| view! { <p class="trace-reading">"Reading…"</p> })}
            {preview_table}
            <Show when=move || preview_data.with(Option::is_some)>
                <form class="trace-form" on:submit=move |ev| { ev.prevent_default(); import(()); }>
                    <fieldset>
                        <legend>"Columns"</legend>
                        <ColumnSelect label="Submit time" testid="submit" value=form.submit header=header
                            hint="seconds, milliseconds, or YYYY-MM-DD HH:MM:SS" />
                        <ChoiceSelect label="Time unit" testid="time-unit" value=form.time_unit
                            choices=time_unit_choices()
                            hint="of numeric times" />
                        <ChoiceSelect label="Run time from" testid="timing" value=form.timing
                            choices=vec![("duration", "a duration column"), ("end", "an end time column")] />
                        <Show
                            when=timing_is_end
                            fallback=move || view! { <ColumnSelect label="Duration" testid="duration" value=form.duration header=header /> }
                        >
                            <ColumnSelect label="End time" testid="end" value=form.end header=header />
                        </Show>
                        <ColumnSelect label="GPUs" testid="gpus" value=form.gpus header=header optional=true
                            hint="none: 1 GPU per job" />
                        <ColumnSelect label="Share (team)" testid="share" value=form.share header=header optional=true
                            hint="each value a quota share; none: one share" />
                        <TextField label="Top shares" testid="top-shares" value=form.top_shares numeric=true
                            placeholder="all" hint="keep the N largest, fold the rest into other" />
                        <ColumnSelect label="Priority" testid="priority" value=form.priority header=header optional=true
                            hint=format!("integers {MIN_PRIORITY}–{MAX_PRIORITY}, or mapped below") />
                        <TextField label="Priority map" testid="priority-map" value=form.priority_map
                            placeholder="LS=2,BE=0" hint="optional; unmapped values skip the row" />
                    </fieldset>
                    <fieldset>
                        <legend>"Cluster"</legend>
                        {field(
                            "Instance type",
                            Some("trace-instance-type".into()),
                            String::new(),
                            view! {
                                <select id="trace-instance-type" data-testid="instance-type" on:change=on_type>
                                    {type_options}
                                </select>
                            },
                        )}
                        <TextField label="GPUs per instance" testid="gpus-per-instance" value=form.gpus_per_instance
                            numeric=true hint="instances = ceil(GPUs / this)" />
                        <TextField label="Capacity (instances)" testid="capacity" value=form.capacity numeric=true
                            placeholder="auto" hint="auto: the trace's average load" />
                        <ChoiceSelect label="Limits" testid="limits" value=form.limits
                            choices=limits_choices() />
                        <ChoiceSelect label="Strategy" testid="strategy" value=form.strategy
                            choices=strategy_choices()
                            hint="for every share" />
                        <Show when=strategy_is_lb>
                            <TextField label="Borrow limit (%)" testid="borrow-limit" value=form.borrow_limit
                                numeric=true placeholder="unlimited" hint="of each share's limit; -1 unlimited" />
                        </Show>
                        <TextField label="Limit jobs" testid="limit-jobs" value=form.limit_jobs numeric=true
                            placeholder="all" hint="stop after the first N readable rows" />
                        <TextField label="Scenario name" testid="name" value=form.name />
                    </fieldset>
                    {problem_list}
                    {warning_list}
                    {confirm}
                    <Show when=move || pending.with(Option::is_none)>
                        <div class="trace-actions">
                            <button type="submit" class="primary" data-testid="trace-import" disabled=move || importing.get()>
                                {move || if importing.get() { "Importing…" } else { "Import" }}
                            </button>
                            <button type="button" on:click=move |_| close()>"Cancel"</button>
                        </div>
                    </Show>
                </form>
            </Show>
            <Show when=move || preview_data.with(Option::is_none)>{problem_list}</Show>
        </dialog>
    }
}
