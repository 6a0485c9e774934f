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
use quotalab_engine::analysis::sweep::{self, Sweep, Vary};
use quotalab_engine::config::{
    self, ExportFormat, ExportOptions, Format, ImportOptions, MAX_FILE_BYTES,
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

fn triples(problems: &[Problem]) -> Vec<Triple> {
    problems
        .iter()
        .map(|p| (p.path.to_string(), p.message.clone(), p.to_string()))
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

/// `quotasim report FILE [--compare]`: the HTML (as written with `-o`) and the warnings.
#[pyfunction]
#[pyo3(signature = (text, compare=false))]
fn report(py: Python<'_>, text: &str, compare: bool) -> PyResult<(String, Vec<Triple>)> {
    let options = quotalab_report::Options { compare };
    let report = py
        .detach(|| quotalab_report::build_with(text, &options))
        .map_err(fail)?;
    Ok((report.html, triples(&report.warnings)))
}

/// `quotasim import aws|kueue FILE... [--queue] [--resource] [--flavor-map] [--into]`:
/// `files` are (name, text) pairs as read; the printed scenario and the warnings.
#[pyfunction]
#[pyo3(signature = (files, format, queue=None, resource=None, flavor_map=None, into=None))]
fn import_config(
    py: Python<'_>,
    files: Vec<(String, String)>,
    format: &str,
    queue: Option<String>,
    resource: Option<String>,
    flavor_map: Option<String>,
    into: Option<String>,
) -> PyResult<(String, Vec<Triple>)> {
    let format = Format::parse(format).ok_or_else(|| {
        PyValueError::new_err(format!(
            "format must be \"aws\" or \"kueue\" (got {format:?})"
        ))
    })?;
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
            let imported = config::import_files(&refs, format, &opts)?;
            match &into {
                Some(base) => config::merge_into(&imported, base),
                None => Ok(imported),
            }
        })
        .map_err(fail)?;
    Ok((printed(imported.scenario_json), triples(&imported.warnings)))
}

/// `quotasim export aws [--script] [--queue] | kueue [--resource] FILE`: `format` is `aws`,
/// `aws-script` or `kueue`; the printed text and the warnings.
#[pyfunction]
#[pyo3(signature = (text, format, queue=None, resource=None))]
fn export_config(
    py: Python<'_>,
    text: &str,
    format: &str,
    queue: Option<String>,
    resource: Option<String>,
) -> PyResult<(String, Vec<Triple>)> {
    let format = match format {
        "aws" => ExportFormat::AwsJson,
        "aws-script" => ExportFormat::AwsScript,
        "kueue" => ExportFormat::Kueue,
        other => {
            return Err(PyValueError::new_err(format!(
                "format must be \"aws\", \"aws-script\" or \"kueue\" (got {other:?})"
            )))
        }
    };
    let defaults = ExportOptions::default();
    let opts = ExportOptions {
        queue: queue.unwrap_or(defaults.queue),
        resource: resource.unwrap_or(defaults.resource),
    };
    let exported = py
        .detach(|| config::export(text, format, &opts))
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
    m.add_function(wrap_pyfunction!(export_config, m)?)?;
    Ok(())
}
