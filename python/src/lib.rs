//! `quotalab._quotalab`: the engine for Python (SPEC 17), a thin PyO3 shell like the CLI
//! (`crates/cli`): every function here reads its input, calls the engine function the
//! matching `quotasim` command calls and returns the text the command prints, so a result's
//! JSON is the CLI's bytes. The pure-Python package (`python/quotalab`) turns the text into
//! DataFrames and the problems into `quotalab.ScenarioError`.
//!
//! Problems cross as `EngineError(list of (path, message, line))`, where `line` is the
//! problem as the CLI writes it after `error: ` (or `warning: `). Every simulation releases
//! the GIL (`Python::detach`, PyO3's name for `allow_threads` since 0.26).

use std::io::Read;

use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use quotalab_engine::analysis::review::{self, Input, JobsSource, ReviewOptions};
use quotalab_engine::analysis::sweep::{self, Sweep, Vary};
use quotalab_engine::config::{
    self, history, hyperpod, ExportFormat, ExportOptions, Format, ImportOptions, MAX_FILE_BYTES,
};
use quotalab_engine::input::path::Path;
use quotalab_engine::pipeline::{self, Product, RunOptions};
use quotalab_engine::{compare as engine_compare, Problem};
use rayon::prelude::*;

/// mimalloc, as `quotasim` (crates/cli/src/main.rs): only the engine's own allocations.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Named by its full module path, so that it pickles by reference like any other class.
create_exception!(
    quotalab._quotalab,
    EngineError,
    PyValueError,
    "The engine refused an input: args[0] is a list of (path, message, line)."
);

/// A problem as Python sees it: its path, its message and the CLI's line.
type Triple = (String, String, String);

/// `validate`'s answer: the printed line, (shares, jobs, timed events), the warnings.
type Validated = (String, (usize, usize, usize), Vec<Triple>);

/// `compare`'s answer: the printed output, (policy, its output) per policy, the warnings.
type Compared = (String, Vec<(String, String)>, Vec<Triple>);

/// `review`'s answer: the `--json` output, the table, the lines of the crossed rules (as
/// the CLI writes them after `crossed: `) and the warnings.
type Reviewed = (String, String, Vec<String>, Vec<Triple>);

/// `quotasim import history`'s refusal when no configuration gives the shares (crates/cli
/// `config_cmd.rs`, word for word).
const HISTORY_NEEDS_SHARES: &str = "a configuration is needed for the shares: give --config FILE (AWS JSON or Kueue YAML) or --into SCENARIO";

fn triples(problems: &[Problem]) -> Vec<Triple> {
    problems
        .iter()
        .map(|p| (p.place(), p.message.clone(), p.to_string()))
        .collect()
}

fn fail(problems: Vec<Problem>) -> PyErr {
    EngineError::new_err(triples(&problems))
}

/// A refusal the CLI words itself (`cannot read FILE: ...`), with no path.
fn fail_line(line: String) -> PyErr {
    EngineError::new_err(vec![(String::new(), line.clone(), line)])
}

/// The text as `quotasim` prints it: with a final newline (crates/cli `print`).
fn printed(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Reads a file as `quotasim run|validate|compare|sweep|report` do (crates/cli
/// `read_input`), with the same message when it cannot.
#[pyfunction]
fn read_input(py: Python<'_>, file: &str) -> PyResult<String> {
    py.detach(|| std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}")))
        .map_err(fail_line)
}

/// Reads a file as `quotasim import|export` do (crates/cli `read_bounded`): more than
/// `MAX_FILE_BYTES` is refused without reading the rest.
#[pyfunction]
fn read_bounded(py: Python<'_>, file: &str) -> PyResult<String> {
    py.detach(|| {
        let mut bytes = Vec::new();
        std::fs::File::open(file)
            .and_then(|f| f.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read {file}: {e}"))?;
        if bytes.len() > MAX_FILE_BYTES {
            return Err(format!(
                "{file}: is over the {} MiB limit",
                MAX_FILE_BYTES / (1024 * 1024)
            ));
        }
        String::from_utf8(bytes).map_err(|_| format!("{file}: is not UTF-8 text"))
    })
    .map_err(fail_line)
}

/// Feeds the file at `path` to `reader` in 1 MiB pieces until its end or until the reader
/// has stopped (a bound, a syntax error), as `quotasim import history` does.
fn read_pieces(path: &str, reader: &mut history::HistoryReader) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot read {path}: {e}");
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let mut piece = vec![0u8; 1 << 20];
    loop {
        let n = match file.read(&mut piece) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(fail(e)),
        };
        reader.push(&piece[..n]);
        if reader.stopped() {
            return Ok(());
        }
    }
}

/// The configuration format of a text, as the engine guesses it (`config::detect`): `aws`
/// for JSON, `kueue` otherwise; `None` for blank text.
#[pyfunction]
fn detect_format(text: &str) -> Option<&'static str> {
    config::detect(text).map(Format::as_str)
}

/// `quotasim run FILE [--summary]`: the printed output and the warnings.
#[pyfunction]
#[pyo3(signature = (text, summary=false))]
fn run(py: Python<'_>, text: &str, summary: bool) -> PyResult<(String, Vec<Triple>)> {
    let opts = RunOptions {
        product: if summary {
            Product::SummaryTable
        } else {
            Product::ResultJson
        },
        ..RunOptions::default()
    };
    let run = py.detach(|| pipeline::run(text, &opts)).map_err(fail)?;
    Ok((
        printed(run.output.into_text().unwrap_or_default()),
        triples(&run.warnings),
    ))
}

/// `quotasim validate FILE`: the printed line, (shares, jobs, timed events) and the
/// warnings.
#[pyfunction]
fn validate(py: Python<'_>, text: &str) -> PyResult<Validated> {
    let loaded = py.detach(|| quotalab_engine::load(text)).map_err(fail)?;
    let sc = &loaded.scenario;
    let counts = (sc.shares.len(), sc.described_jobs(), sc.events.len());
    Ok((
        printed(loaded.valid_line()),
        counts,
        triples(&loaded.warnings),
    ))
}

/// `quotasim compare FILE [--summary]`: the printed output, each policy's own output (the
/// result JSON exactly as `quotasim run` of that policy prints it; empty with `summary`)
/// and the warnings.
#[pyfunction]
#[pyo3(signature = (text, summary=false))]
fn compare(py: Python<'_>, text: &str, summary: bool) -> PyResult<Compared> {
    let product = if summary {
        Product::SummaryTable
    } else {
        Product::ResultJson
    };
    let out = py
        .detach(|| {
            engine_compare::run(text, product).map(|c| {
                let warnings = triples(&c.warnings);
                if summary {
                    return (engine_compare::summary_text(c), Vec::new(), warnings);
                }
                let runs = c
                    .runs
                    .iter()
                    .map(|(policy, output)| {
                        let text = output.clone().into_text().unwrap_or_default();
                        (policy.as_str().to_string(), printed(text))
                    })
                    .collect();
                (engine_compare::json_text(c), runs, warnings)
            })
        })
        .map_err(fail)?;
    Ok((printed(out.0), out.1, out.2))
}

/// `quotasim report FILE [--compare] [--review PROPOSED]`: the HTML (as written with `-o`)
/// and the warnings. `review` is the proposal's (name, text), read as the CLI reads it.
#[pyfunction]
#[pyo3(signature = (text, compare=false, review=None))]
fn report(
    py: Python<'_>,
    text: &str,
    compare: bool,
    review: Option<(String, String)>,
) -> PyResult<(String, Vec<Triple>)> {
    let options = quotalab_report::Options { compare, review };
    let report = py
        .detach(|| quotalab_report::build_with(text, &options))
        .map_err(fail)?;
    Ok((report.html, triples(&report.warnings)))
}

/// `quotasim import aws|kueue|hyperpod FILE... [--queue] [--resource] [--flavor-map]
/// [--cluster] [--into]`: `files` are (name, text) pairs as read; the printed scenario and
/// the warnings.
#[pyfunction]
#[pyo3(signature = (files, format, queue=None, resource=None, flavor_map=None, into=None, cluster=None))]
#[allow(clippy::too_many_arguments)]
fn import_config(
    py: Python<'_>,
    files: Vec<(String, String)>,
    format: &str,
    queue: Option<String>,
    resource: Option<String>,
    flavor_map: Option<String>,
    into: Option<String>,
    cluster: Option<String>,
) -> PyResult<(String, Vec<Triple>)> {
    let hyperpod = format == "hyperpod";
    let format = match Format::parse(format) {
        Some(f) => Some(f),
        None if hyperpod => None,
        None => {
            return Err(PyValueError::new_err(format!(
                "format must be \"aws\", \"kueue\" or \"hyperpod\" (got {format:?})"
            )))
        }
    };
    let flavor_map = match flavor_map {
        Some(m) => config::parse_flavor_map(&m).map_err(|p| fail(vec![p]))?,
        None => Vec::new(),
    };
    let opts = ImportOptions {
        queue,
        resource: resource.unwrap_or_else(|| ImportOptions::DEFAULT_RESOURCE.to_string()),
        flavor_map,
    };
    let imported = py
        .detach(|| {
            let refs: Vec<(&str, &str)> = files
                .iter()
                .map(|(f, t)| (f.as_str(), t.as_str()))
                .collect();
            let imported = match format {
                Some(format) => config::import_files(&refs, format, &opts)?,
                None => hyperpod::import_files(&refs, &hyperpod::ImportOptions { cluster })?,
            };
            match &into {
                Some(base) => config::merge_into(&imported, base),
                None => Ok(imported),
            }
        })
        .map_err(fail)?;
    Ok((printed(imported.scenario_json), triples(&imported.warnings)))
}

/// `quotasim import history FILE... [--config FILE...] [--from T] [--to T] [--resource]
/// [--flavor-map] [--queue] [--into SCENARIO]`: `files`, `configs` and `into` are (name,
/// text) as read; the printed scenario and the warnings. The shares come from the
/// configurations (merged into `into` when given) or from `into` alone, as the CLI decides.
#[pyfunction]
#[pyo3(signature = (files, configs, into=None, from_=None, to=None, resource=None, flavor_map=None, queue=None))]
#[allow(clippy::too_many_arguments)]
fn import_history(
    py: Python<'_>,
    files: Vec<(String, Option<String>)>,
    configs: Vec<(String, String)>,
    into: Option<(String, String)>,
    from_: Option<String>,
    to: Option<String>,
    resource: Option<String>,
    flavor_map: Option<String>,
    queue: Option<String>,
) -> PyResult<(String, Vec<Triple>)> {
    let flavor_map = flavor_map_of(flavor_map.as_deref()).map_err(|p| fail(vec![p]))?;
    if configs.is_empty() && into.is_none() {
        return Err(fail_line(HISTORY_NEEDS_SHARES.to_string()));
    }
    let opts = history::HistoryOptions {
        resource: resource.unwrap_or_else(|| ImportOptions::DEFAULT_RESOURCE.to_string()),
        flavor_map,
        queue,
        from: from_,
        to,
    };
    let imported = py
        .detach(|| {
            let cfg: Vec<(&str, &str)> = configs
                .iter()
                .map(|(f, t)| (f.as_str(), t.as_str()))
                .collect();
            let into = into.as_ref().map(|(f, t)| (f.as_str(), t.as_str()));
            let shares = match into {
                Some(into) if cfg.is_empty() => history::Shares::Scenario(into.0, into.1),
                into => history::Shares::Config { files: &cfg, into },
            };
            // SPEC 16: read record by record, as `quotasim import history` reads them: a
            // path in 1 MiB pieces (any size up to the engine's bounds), a text at once.
            let named = history::names_files(files.len(), shares);
            let mut readers = Vec::new();
            for (i, (name, text)) in files.iter().enumerate() {
                let mut reader = history::HistoryReader::new(name, i, named, &opts.resource);
                match text {
                    Some(text) => reader.push(text.as_bytes()),
                    None => read_pieces(name, &mut reader)
                        .map_err(|m| vec![Problem::new(Path::root(), m)])?,
                }
                reader.finish();
                readers.push(reader);
            }
            history::import_read(readers, shares, &opts)
        })
        .map_err(fail)?;
    Ok((printed(imported.scenario_json), triples(&imported.warnings)))
}

/// An input read by Python as the engine's review sees it.
fn input((name, text): &(String, String)) -> Input<'_> {
    Input { name, text }
}

/// A flavor map given to the native module is checked as the CLI checks `--flavor-map`:
/// its problem, or the map.
fn flavor_map_of(m: Option<&str>) -> Result<Vec<(String, String)>, Problem> {
    match m {
        Some(m) => config::parse_flavor_map(m),
        None => Ok(Vec::new()),
    }
}

/// `quotasim review CURRENT PROPOSED [--jobs FILE] [--seeds N] [--fail-on RULE...]
/// [--resource] [--flavor-map] [--queue]`: `current`, `proposed` and `jobs` are (name,
/// text) as read. Every seed's two runs on the rayon pool (all cores), as the CLI; the JSON
/// (`--json`), the table, the crossed rules' lines and the warnings of one review.
#[pyfunction]
#[pyo3(signature = (current, proposed, jobs=None, seeds=None, fail_on=Vec::new(), resource=None, flavor_map=None, queue=None))]
#[pyo3(name = "review")]
#[allow(clippy::too_many_arguments)]
fn review_configs(
    py: Python<'_>,
    current: (String, String),
    proposed: (String, String),
    jobs: Option<(String, String)>,
    seeds: Option<u64>,
    fail_on: Vec<String>,
    resource: Option<String>,
    flavor_map: Option<String>,
    queue: Option<String>,
) -> PyResult<Reviewed> {
    // The CLI's order: the rules' and the flavor map's problems together, before any file.
    let mut problems = Vec::new();
    let mut rules = Vec::new();
    for r in &fail_on {
        match review::parse_rule(r) {
            Ok(rule) => rules.push(rule),
            Err(p) => problems.push(p),
        }
    }
    let flavor_map = flavor_map_of(flavor_map.as_deref()).unwrap_or_else(|p| {
        problems.push(p);
        Vec::new()
    });
    if !problems.is_empty() {
        return Err(fail(problems));
    }
    let opts = ReviewOptions {
        seeds,
        import: ImportOptions {
            queue,
            resource: resource.unwrap_or_else(|| ImportOptions::DEFAULT_RESOURCE.to_string()),
            flavor_map,
        },
        rules,
        // Jobs of a share PROPOSED lacks are refused, naming them (SPEC 13 `--into`).
        unknown: Default::default(),
    };
    let result = py
        .detach(|| {
            let jobs = match &jobs {
                Some(j) => JobsSource::Scenario(input(j)),
                None => JobsSource::Current,
            };
            let plan = review::Plan::new(input(&current), input(&proposed), jobs, &opts)?;
            let runs = (0..plan.seeds().len())
                .into_par_iter()
                .map(|k| plan.run(k))
                .collect::<Result<Vec<_>, _>>()?;
            let result = plan.finish(runs);
            Ok::<_, Vec<Problem>>((
                printed(review::json_text(&result)),
                printed(review::table_text(&result)),
                result.crossings.iter().map(review::crossing_line).collect(),
                triples(&result.warnings),
            ))
        })
        .map_err(fail)?;
    Ok(result)
}

/// `quotasim export aws [--script] [--queue] | kueue [--resource] [--patch] | hyperpod
/// [--script] [--cluster-arn] FILE`: `format` is `aws`, `aws-script`, `kueue`,
/// `kueue-patch`, `hyperpod` or `hyperpod-script`; the printed text and the warnings.
#[pyfunction]
#[pyo3(signature = (text, format, queue=None, resource=None, cluster_arn=None))]
fn export_config(
    py: Python<'_>,
    text: &str,
    format: &str,
    queue: Option<String>,
    resource: Option<String>,
    cluster_arn: Option<String>,
) -> PyResult<(String, Vec<Triple>)> {
    let engine_format = match format {
        "aws" => Some(ExportFormat::AwsJson),
        "aws-script" => Some(ExportFormat::AwsScript),
        "kueue" => Some(ExportFormat::Kueue),
        "kueue-patch" => Some(ExportFormat::KueuePatch),
        "hyperpod" | "hyperpod-script" => None,
        other => {
            return Err(PyValueError::new_err(format!(
                "format must be \"aws\", \"aws-script\", \"kueue\", \"kueue-patch\", \"hyperpod\" or \"hyperpod-script\" (got {other:?})"
            )))
        }
    };
    let exported = match engine_format {
        Some(engine_format) => {
            let defaults = ExportOptions::default();
            let opts = ExportOptions {
                queue: queue.unwrap_or(defaults.queue),
                resource: resource.unwrap_or(defaults.resource),
            };
            py.detach(|| config::export(text, engine_format, &opts))
        }
        None => {
            let opts = hyperpod::ExportOptions {
                cluster_arn: cluster_arn
                    .unwrap_or_else(|| hyperpod::DEFAULT_CLUSTER_ARN.to_string()),
                script: format == "hyperpod-script",
            };
            py.detach(|| hyperpod::export(text, &opts))
        }
    }
    .map_err(fail)?;
    Ok((printed(exported.text), triples(&exported.warnings)))
}

/// The rayon pool of `threads` threads (0: every core).
fn pool(threads: usize) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start threads: {e}")))
}

/// A planned sweep (SPEC 15): the engine's [`Sweep`], built once per process from the
/// scenario text, the varies and the seeds, then asked for runs by index. Immutable and
/// shared between threads; every method that validates or simulates releases the GIL.
#[pyclass(frozen, module = "quotalab._quotalab")]
struct Plan {
    sweep: Sweep,
}

#[pymethods]
impl Plan {
    /// `varies`: (PATH, spec) pairs, where spec is `FROM..TO:STEP` (as `--vary
    /// PATH=FROM..TO:STEP`) or a JSON array of the values.
    #[new]
    fn new(
        py: Python<'_>,
        text: &str,
        varies: Vec<(String, String)>,
        seeds: u64,
    ) -> PyResult<Plan> {
        py.detach(|| {
            let mut problems = Vec::new();
            let mut parsed = Vec::new();
            for (path, spec) in &varies {
                match vary(path, spec) {
                    Ok(v) => parsed.push(v),
                    Err(p) => problems.push(p),
                }
            }
            if !problems.is_empty() {
                return Err(problems);
            }
            Sweep::new(text, parsed, seeds)
        })
        .map(|sweep| Plan { sweep })
        .map_err(fail)
    }

    /// Runs: points x seeds.
    fn runs(&self) -> usize {
        self.sweep.runs()
    }

    /// Value combinations.
    fn points(&self) -> usize {
        self.sweep.points()
    }

    fn seeds(&self) -> u64 {
        self.sweep.seeds()
    }

    /// Runs per chunk for `threads` threads (0: every core), as `quotasim sweep`.
    #[staticmethod]
    fn chunk_len(threads: usize) -> PyResult<usize> {
        Ok(sweep::chunk_len(pool(threads)?.current_num_threads()))
    }

    /// Validates every run before anything runs, as `quotasim sweep` does (in chunks, on
    /// `threads` threads): the warnings, or raises `EngineError` with the errors.
    #[pyo3(signature = (threads=0))]
    fn check(&self, py: Python<'_>, threads: usize) -> PyResult<Vec<Triple>> {
        let pool = pool(threads)?;
        let plan = &self.sweep;
        py.detach(|| {
            pool.install(|| {
                let chunk = sweep::chunk_len(rayon::current_num_threads());
                plan.check_chunked(chunk, |range| {
                    range.into_par_iter().map(|r| plan.check(r)).collect()
                })
            })
        })
        .map(|w| triples(&w))
        .map_err(fail)
    }

    /// Validates run `r` alone: its warnings, or raises `EngineError` with its errors (each
    /// naming the variant, as [`Sweep::check`] words them).
    fn check_run(&self, py: Python<'_>, r: usize) -> PyResult<Vec<Triple>> {
        if r >= self.sweep.runs() {
            return Err(PyIndexError::new_err(format!(
                "run {r} of a sweep of {} runs",
                self.sweep.runs()
            )));
        }
        py.detach(|| self.sweep.check(r))
            .map(|w| triples(&w))
            .map_err(fail)
    }

    /// Simulates run `r` (value index x seeds + seed index): its JSON line.
    fn run(&self, py: Python<'_>, r: usize) -> PyResult<String> {
        if r >= self.sweep.runs() {
            return Err(PyIndexError::new_err(format!(
                "run {r} of a sweep of {} runs",
                self.sweep.runs()
            )));
        }
        py.detach(|| self.sweep.run(r))
            .map(|o| o.line)
            .map_err(fail)
    }

    /// Simulates runs `start..end` on `threads` threads (0: every core): their lines, in
    /// run order.
    #[pyo3(signature = (start, end, threads=0))]
    fn run_range(
        &self,
        py: Python<'_>,
        start: usize,
        end: usize,
        threads: usize,
    ) -> PyResult<Vec<String>> {
        let end = end.min(self.sweep.runs());
        let pool = pool(threads)?;
        let plan = &self.sweep;
        py.detach(|| {
            pool.install(|| {
                (start.min(end)..end)
                    .into_par_iter()
                    .map(|r| plan.run(r).map(|o| o.line))
                    .collect::<Result<Vec<_>, _>>()
            })
        })
        .map_err(fail)
    }
}

/// One vary: `FROM..TO:STEP` through the CLI's parser, or a JSON array of values.
fn vary(path: &str, spec: &str) -> Result<Vary, Problem> {
    let spec = spec.trim();
    if !spec.starts_with('[') {
        return sweep::parse_vary(&format!("{path}={spec}"));
    }
    let values: Vec<serde_json::Value> = serde_json::from_str(spec).map_err(|e| {
        Problem::new(
            Path::named(path),
            format!("the values are not a JSON list: {e}"),
        )
    })?;
    if values.is_empty() {
        return Err(Problem::new(Path::named(path), "has no values"));
    }
    if values.len() > sweep::MAX_VALUES {
        return Err(Problem::new(
            Path::named(path),
            format!(
                "{} values: at most {} per vary",
                values.len(),
                sweep::MAX_VALUES
            ),
        ));
    }
    Ok(Vary {
        path: path.to_string(),
        values,
    })
}

#[pymodule]
fn _quotalab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("EngineError", m.py().get_type::<EngineError>())?;
    m.add("MAX_FILE_BYTES", MAX_FILE_BYTES)?;
    m.add("HISTORY_NEEDS_SHARES", HISTORY_NEEDS_SHARES)?;
    m.add("REVIEW_MAX_SEEDS", review::MAX_SEEDS)?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Plan>()?;
    m.add_function(wrap_pyfunction!(read_input, m)?)?;
    m.add_function(wrap_pyfunction!(read_bounded, m)?)?;
    m.add_function(wrap_pyfunction!(detect_format, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    m.add_function(wrap_pyfunction!(import_config, m)?)?;
    m.add_function(wrap_pyfunction!(import_history, m)?)?;
    m.add_function(wrap_pyfunction!(review_configs, m)?)?;
    m.add_function(wrap_pyfunction!(export_config, m)?)?;
    Ok(())
}
