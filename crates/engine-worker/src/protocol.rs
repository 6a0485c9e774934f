//! What the page and an engine worker say to each other: [`Request`] (page → worker) and
//! [`Response`] (worker → page), one pair of serde enums for every kind of work, sent as
//! `postcard` bytes in a `Uint8Array` (transferred, not copied).
//!
//! Two messages are not postcard, because they are read or written by
//! `www/worker-loader.js` before the worker's wasm runs: the page's first message, a
//! [`BOOT`] object carrying the compiled `WebAssembly.Module` and the glue's address (a
//! module cannot be serialised, only structured-cloned), and the loader's
//! [`UNAVAILABLE`] object when the wasm could not be started.

use std::borrow::Cow;

use quotalab_engine::digest::{Digest, DigestLimits};
use quotalab_engine::input::path::Path;
use quotalab_engine::Problem;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::jobs::TraceImported;
use crate::{config, sweep};
use quotalab_engine::trace::{ImportOptions, ImportWarning};

/// The `kind` of the page's first message, `{kind: "boot", module, js}` (read by the loader).
pub const BOOT: &str = "boot";
/// The `kind` of the loader's `{kind: "unavailable", message}` (its wasm could not start).
pub const UNAVAILABLE: &str = "unavailable";

/// How often a worker reports progress while simulating (milliseconds).
pub const PROGRESS_MS: f64 = 50.0;

/// Which file of a run [`Request::RunFile`] asks for (the page's Files menu).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunFile {
    /// The result JSON (SPEC 8, `quotasim run`).
    Json,
    /// The summary table: a row per share, then the totals.
    Summary,
    /// A row per submitted job.
    Jobs,
    /// A row per event, with its explanation.
    Events,
}

/// What the page asks an engine worker to do (after its [`Response::Ready`]; earlier
/// messages would be lost).
///
/// There is no "cancel": the worker is busy with a request from start to end (one
/// synchronous call), so a run is cancelled by terminating the worker, which truly stops the
/// CPU work.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request<'a> {
    /// Run a small scenario once to optimise the code (the first worker only).
    Warmup,
    /// Validate, simulate and digest `scenario`, as run `id`. `relabel` is the run whose
    /// result the page shows (`None`: the Run button, or nothing of this worker shown): if
    /// it is this worker's last run and `scenario` simulates as it did, nothing is
    /// simulated and the answer is [`Response::Relabelled`], its new descriptive fields
    /// only (issue #30). With `link`, a valid scenario's share link follows the result as
    /// [`Response::Link`] `id` (a large scenario's text then crosses to a worker once per
    /// edit, not twice).
    Run {
        id: u64,
        scenario: &'a str,
        limits: DigestLimits,
        relabel: Option<u64>,
        link: bool,
    },
    /// Import or export a configuration (SPEC 13), answered by [`Response::Config`].
    Config(config::Envelope<config::Request>),
    /// Compare `scenario` as given, partitioned and pooled (SPEC 9.1), answered by
    /// [`Response::Compared`].
    Compare {
        id: u64,
        scenario: &'a str,
        limits: DigestLimits,
    },
    /// Import a CSV trace (SPEC 11), answered by [`Response::TraceImported`].
    TraceImport {
        id: u64,
        #[serde(borrow)]
        csv: Bytes<'a>,
        options: ImportOptions,
    },
    /// The HTML report of `scenario` (SPEC 14), answered by [`Response::Report`].
    Report {
        id: u64,
        scenario: &'a str,
        compare: bool,
        /// SPEC 16: a proposed configuration reviewed on the scenario's jobs (its file name
        /// and text).
        #[serde(borrow)]
        review: Option<(&'a str, &'a str)>,
    },
    /// A file of `scenario`'s run: the result JSON (SPEC 8) or one of its tables as CSV,
    /// whole (every job and event), answered by [`Response::RunFile`].
    RunFile {
        id: u64,
        scenario: &'a str,
        file: RunFile,
    },
    /// The share link's payload of `scenario` (SPEC 10), answered by [`Response::Link`].
    Link { id: u64, scenario: &'a str },
    /// Whether `scenario` is valid (SPEC 7, a file or link opened in the page), answered by
    /// [`Response::Checked`]: the page does not carry the validator.
    Check { id: u64, scenario: &'a str },
    /// The timeline of `scenario`'s run laid out from its whole event log (issue #30: the
    /// page keeps a long run's first events only), answered by [`Response::Timeline`].
    Timeline { id: u64, scenario: &'a str },
    /// The moment `t_s` of the whole run the worker keeps under `key` (its last
    /// [`Response::Timeline`]), answered by [`Response::Moment`].
    Moment { id: u64, key: u64, t_s: f64 },
    /// A sweep's plan or one of its runs (SPEC 15, the Explore panel), answered (for a run,
    /// or a refused plan) by [`Response::Sweep`].
    Sweep(#[serde(borrow)] sweep::ToWorker<'a>),
    /// The warnings importing a CSV trace would give, answered by
    /// [`Response::TraceChecked`].
    TraceCheck {
        id: u64,
        #[serde(borrow)]
        csv: Bytes<'a>,
        options: ImportOptions,
    },
}

/// Where a worker run is (the page adds [`Phase::Starting`] before the worker replies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Starting,
    Validating,
    Simulating,
    Summarising,
}

impl Phase {
    /// As shown next to the progress bar.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Starting => "starting",
            Phase::Validating => "validating",
            Phase::Simulating => "simulating",
            Phase::Summarising => "summarising",
        }
    }
}

/// How long a worker run took, measured in the worker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Validation + simulation + digest + encoding (ms).
    pub compute_ms: f64,
    /// Of which: validation (and generation), simulation, digest, encoding (ms).
    pub phases: [f64; 4],
    /// When the worker received the run and posted its result (`web::epoch_ms`).
    pub received_at: f64,
    pub posted_at: f64,
    /// The scenario simulates as the worker's last run did (only descriptive fields
    /// changed): that run's digest was relabelled, nothing was simulated.
    pub reused: bool,
}

/// Problems (or warnings) as `(path, message)` pairs: [`Problem`] is not serde. A path
/// travels as its text, which is all the page reads of it (it places a problem at the
/// field whose path displays the same), so the page keeps it as a [`Path::named`]: the
/// same text, as one step. Its steps would cost the page's wasm serde code for them
/// (docs/PERFORMANCE.md, "Load size").
pub type Pairs = Vec<(String, String)>;

/// What the worker tells the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Response<'a> {
    /// The worker's wasm runs and its message handler is installed: requests may come, and
    /// it will fetch nothing more.
    Ready,
    /// Run `id` is `fraction` (0 to 1) done.
    Progress {
        id: u64,
        fraction: f64,
        phase: Phase,
    },
    /// Run `id`'s scenario is invalid: every problem, whole (the editor words each by its
    /// kind beside its field).
    Problems { id: u64, problems: Vec<Problem> },
    /// Run `id` finished: `result` is [`encode_result`]'s bytes (encoded before `timing` is
    /// known, so that the timing includes the encoding).
    Done {
        id: u64,
        timing: Timing,
        #[serde(borrow)]
        result: Bytes<'a>,
    },
    /// Run `id` simulates as the run the page shows (its [`Request::Run`]'s `relabel`):
    /// nothing was simulated; the shown result with `label` is run `id`'s (the digest's
    /// [`Digest::apply`](quotalab_engine::digest::Digest::apply)), and `warnings` are the
    /// scenario's.
    Relabelled {
        id: u64,
        timing: Timing,
        label: quotalab_engine::digest::Label,
        warnings: Vec<Problem>,
    },
    /// A panic in the worker (for run `id`, or for none) or a request it could not read.
    Error { id: Option<u64>, message: String },
    /// The answer to a [`Request::Config`].
    Config(config::Envelope<config::Response>),
    /// The answer to [`Request::Compare`] `id`: `crate::jobs::encode_compared`'s bytes, or
    /// every problem of the scenario.
    Compared {
        id: u64,
        #[serde(borrow)]
        result: Result<Bytes<'a>, Pairs>,
    },
    /// The answer to [`Request::TraceImport`] `id`: the scenario, or the problem that
    /// stopped the import as `(path, message)`.
    TraceImported {
        id: u64,
        result: Result<TraceImported, (String, String)>,
    },
    /// The answer to [`Request::Report`] `id`: the HTML, or the scenario's problems.
    Report {
        id: u64,
        result: Result<String, Vec<String>>,
    },
    /// The answer to [`Request::RunFile`] `id`: the file's text, or the scenario's problems.
    RunFile {
        id: u64,
        result: Result<String, Vec<String>>,
    },
    /// The answer to [`Request::Link`] `id`, or the link of run `id` (after its
    /// [`Response::Done`], when the run asked for it): the payload, or why there is none.
    Link {
        id: u64,
        result: Result<String, String>,
    },
    /// The answer to [`Request::Check`] `id`: valid (with where a large text's jobs are), or
    /// every problem (whole: the page words them by their kind).
    Checked {
        id: u64,
        result: Result<Option<crate::kept::KeptJobs>, Vec<Problem>>,
    },
    /// The answer to a [`Request::Sweep`].
    Sweep(sweep::FromWorker),
    /// The answer to [`Request::Timeline`] `id`: the layout, or the scenario's problems (as
    /// text).
    Timeline {
        id: u64,
        result: Result<quotalab_report::timeline::WholeRun, Vec<String>>,
    },
    /// The answer to [`Request::Moment`] `id`, `None` when the worker no longer keeps that
    /// run.
    Moment {
        id: u64,
        moment: Option<quotalab_report::timeline::Moment>,
    },
    /// The answer to [`Request::TraceCheck`] `id`.
    TraceChecked {
        id: u64,
        result: Result<Vec<ImportWarning>, (String, String)>,
    },
    /// History request `id` (a [`config::Request::History`] whose files came as blobs) has
    /// read `bytes` of `total` bytes, `records` records.
    Reading {
        id: u64,
        bytes: f64,
        total: f64,
        records: u64,
    },
}

/// Bytes inside a message, written as one block (serde would write a `&[u8]` byte by byte)
/// and read without a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bytes<'a>(pub &'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Bytes<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bytes<'a>, D::Error> {
        <&'a [u8]>::deserialize(d).map(Bytes)
    }
}

impl<'a> Request<'a> {
    /// The request as postcard bytes, in a buffer sized for its text at once (a 16 MB
    /// scenario is copied once, not grown and copied again as the buffer doubles).
    pub fn encode(&self) -> Result<Vec<u8>, String> {
        let carried = match self {
            Request::Run { scenario, .. }
            | Request::Compare { scenario, .. }
            | Request::RunFile { scenario, .. }
            | Request::Link { scenario, .. }
            | Request::Check { scenario, .. }
            | Request::Timeline { scenario, .. } => scenario.len(),
            Request::Report {
                scenario, review, ..
            } => scenario.len() + review.map_or(0, |(name, text)| name.len() + text.len()),
            Request::TraceImport { csv, .. } | Request::TraceCheck { csv, .. } => csv.0.len(),
            Request::Warmup | Request::Config(_) | Request::Sweep(_) | Request::Moment { .. } => 0,
        };
        postcard::to_extend(self, Vec::with_capacity(carried + 1024))
            .map_err(|e| format!("could not encode the request: {e}"))
    }

    pub fn decode(bytes: &'a [u8]) -> Result<Request<'a>, String> {
        postcard::from_bytes(bytes).map_err(|e| match e {
            postcard::Error::DeserializeBadUtf8 => {
                "the worker could not read a request: the scenario is not UTF-8 text".to_string()
            }
            e => format!("the worker could not read a request: {e}"),
        })
    }

    /// The request without the text or file it carries (a scenario, a CSV trace), and that
    /// text: it is posted beside the request's bytes as a buffer of its own
    /// ([`crate::web::outgoing`]), so a 16 MB scenario is copied once on its way to the
    /// worker, not into the bytes and then out of them. The Explore panel's plan
    /// ([`sweep::ToWorker::Plan`]) goes to each of its workers so, the same buffer copied by
    /// the browser.
    ///
    /// A configuration request's scenario (an export's, a history's, a review's, an
    /// import's `into`) is its own string: it is taken out of the request and returned.
    pub fn split_text(mut self) -> (Request<'a>, Option<Cow<'a, [u8]>>) {
        let text = match &mut self {
            Request::Run { scenario, .. }
            | Request::Compare { scenario, .. }
            | Request::Report { scenario, .. }
            | Request::RunFile { scenario, .. }
            | Request::Link { scenario, .. }
            | Request::Check { scenario, .. }
            | Request::Timeline { scenario, .. } => {
                Some(Cow::Borrowed(std::mem::take(scenario).as_bytes()))
            }
            Request::TraceImport { csv, .. } | Request::TraceCheck { csv, .. } => {
                Some(Cow::Borrowed(std::mem::replace(csv, Bytes(&[])).0))
            }
            Request::Sweep(sweep::ToWorker::Plan { scenario, .. }) => {
                Some(Cow::Borrowed(std::mem::take(scenario).as_bytes()))
            }
            Request::Config(c) => c
                .body
                .scenario_mut()
                .map(|s| Cow::Owned(std::mem::take(s).into_bytes())),
            Request::Warmup
            | Request::Sweep(sweep::ToWorker::Run { .. })
            | Request::Moment { .. } => None,
        };
        (self, text)
    }

    /// The request with `text` put back where [`Request::split_text`] took it from (a
    /// scenario must be UTF-8).
    pub fn with_text(mut self, text: &'a [u8]) -> Result<Request<'a>, String> {
        match &mut self {
            Request::Run { scenario, .. }
            | Request::Compare { scenario, .. }
            | Request::Report { scenario, .. }
            | Request::RunFile { scenario, .. }
            | Request::Link { scenario, .. }
            | Request::Check { scenario, .. }
            | Request::Timeline { scenario, .. }
            | Request::Sweep(sweep::ToWorker::Plan { scenario, .. }) => {
                *scenario = std::str::from_utf8(text).map_err(|_| {
                    "the worker could not read a request: the scenario is not UTF-8 text"
                        .to_string()
                })?;
            }
            Request::TraceImport { csv, .. } | Request::TraceCheck { csv, .. } => {
                *csv = Bytes(text);
            }
            Request::Config(c) => {
                let Some(slot) = c.body.scenario_mut() else {
                    return Err(
                        "the worker could not read a request: it came with a text it has no place for"
                            .to_string(),
                    );
                };
                *slot = std::str::from_utf8(text)
                    .map_err(|_| {
                        "the worker could not read a request: the scenario is not UTF-8 text"
                            .to_string()
                    })?
                    .to_string();
            }
            Request::Warmup | Request::Sweep(_) | Request::Moment { .. } => {
                return Err(
                    "the worker could not read a request: it came with a text it has no place for"
                        .to_string(),
                );
            }
        }
        Ok(self)
    }
}

impl<'a> Response<'a> {
    /// Where this answer carries a text that may be megabytes (an imported scenario, a
    /// report, a result JSON), if it has one.
    fn text_slot(&mut self) -> Option<&mut String> {
        match self {
            Response::TraceImported { result: Ok(t), .. } => Some(&mut t.scenario),
            Response::Config(config::Envelope {
                body: config::Response::Loaded(Ok(imported)),
                ..
            }) => Some(&mut imported.scenario),
            Response::Report {
                result: Ok(text), ..
            }
            | Response::RunFile {
                result: Ok(text), ..
            } => Some(text),
            _ => None,
        }
    }

    /// Whether the answer's text is a file made for saving (a report, a result JSON): the
    /// worker posts it as a blob, which the page hands to the browser (`jobs::FileText::Posted`).
    pub fn text_is_a_file(&self) -> bool {
        matches!(
            self,
            Response::Report { result: Ok(_), .. } | Response::RunFile { result: Ok(_), .. }
        )
    }

    /// Takes the answer's large text out of it, to be posted beside its bytes as a buffer of
    /// its own: the page copies it once, into the string it keeps, instead of copying the
    /// bytes and then the text out of them (issue #30: the Philly import's longest task).
    pub fn take_text(&mut self) -> Option<String> {
        self.text_slot().map(std::mem::take)
    }

    /// A finished run's result, taken out to be posted beside the answer's bytes: the page
    /// decodes it from the buffer it came in, a piece at a time ([`ResultDecoder`]).
    pub fn take_result(&mut self) -> Option<&'a [u8]> {
        match self {
            Response::Done { result, .. } => Some(std::mem::replace(result, Bytes(&[])).0),
            _ => None,
        }
    }

    /// Puts back the text [`Response::take_text`] took.
    pub fn put_text(&mut self, text: String) -> Result<(), String> {
        match self.text_slot() {
            Some(slot) => {
                *slot = text;
                Ok(())
            }
            None => Err(
                "could not decode the worker's reply: it came with a text it has no place for"
                    .to_string(),
            ),
        }
    }

    pub fn encode(&self) -> Result<Vec<u8>, String> {
        postcard::to_allocvec(self).map_err(|e| format!("could not encode the reply: {e}"))
    }

    pub fn decode(bytes: &'a [u8]) -> Result<Response<'a>, String> {
        postcard::from_bytes(bytes).map_err(|e| format!("could not decode the worker's reply: {e}"))
    }
}

pub fn to_pairs(problems: &[Problem]) -> Pairs {
    problems
        .iter()
        .map(|p| (p.path.to_string(), p.message.clone()))
        .collect()
}

pub fn from_pairs(pairs: Pairs) -> Vec<Problem> {
    pairs.into_iter().map(from_pair).collect()
}

/// A problem from its `(path, message)` pair (the path kept as the text it displays).
pub fn from_pair((path, message): (String, String)) -> Problem {
    Problem::new(Path::named(path), message)
}

/// Job rows or events per piece of an encoded result: a piece decodes in a few
/// milliseconds in the page, so [`ResultDecoder`] can stop between pieces and let the page
/// handle input (issue #30: no main-thread task over 50 ms).
pub const RESULT_PIECE_ROWS: usize = 4_096;

/// Encodes a finished run (its warnings and digest), the `result` of [`Response::Done`],
/// posted beside the answer's bytes: the length of the head (4 bytes, little-endian), the
/// head (the warnings, the digest without its job rows and events but with their
/// explanations, and the length of each
/// piece), then the job rows and the events in pieces of [`RESULT_PIECE_ROWS`] (each its own
/// postcard block). The page reads the head, then a piece at a time from the buffer the
/// result came in ([`ResultDecoder`]): it never copies a large result whole, and decodes it
/// over several tasks.
pub fn encode_result(warnings: &[Problem], digest: &Digest) -> Result<Vec<u8>, String> {
    let fail = |e: postcard::Error| format!("could not encode the result: {e}");
    fn pieces<T: Serialize>(rows: &[T]) -> Result<Vec<Vec<u8>>, postcard::Error> {
        rows.chunks(RESULT_PIECE_ROWS)
            .map(postcard::to_allocvec)
            .collect()
    }
    let (jobs, events) = (
        pieces(&digest.jobs).map_err(fail)?,
        pieces(&digest.events).map_err(fail)?,
    );
    let lengths = |v: &[Vec<u8>]| v.iter().map(Vec::len).collect::<Vec<usize>>();
    let head = postcard::to_allocvec(&(
        to_pairs(warnings),
        head(digest),
        lengths(&jobs),
        lengths(&events),
    ))
    .map_err(fail)?;
    let head_len = u32::try_from(head.len())
        .map_err(|_| "could not encode the result: its head is over 4 GB".to_string())?;
    let total = 4 + head.len() + jobs.iter().chain(&events).map(Vec::len).sum::<usize>();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&head_len.to_le_bytes());
    out.extend_from_slice(&head);
    for piece in jobs.iter().chain(&events) {
        out.extend_from_slice(piece);
    }
    Ok(out)
}

/// The digest without its job rows and events (every other field cloned: they are small).
fn head(d: &Digest) -> Digest {
    let Digest {
        name,
        summary,
        end_s,
        shares,
        totals,
        instance_types,
        capacity,
        priced,
        jobs: _,
        job_count,
        job_totals,
        events: _,
        explanations,
        event_count,
        events_until_s,
        series,
        series_points,
        steps,
        kueue,
        contract,
        notes,
    } = d;
    Digest {
        name: name.clone(),
        summary: summary.clone(),
        end_s: *end_s,
        shares: shares.clone(),
        totals: totals.clone(),
        instance_types: instance_types.clone(),
        capacity: capacity.clone(),
        priced: *priced,
        jobs: Vec::new(),
        job_count: *job_count,
        job_totals: job_totals.clone(),
        events: Vec::new(),
        explanations: explanations.clone(),
        event_count: *event_count,
        events_until_s: *events_until_s,
        series: series.clone(),
        series_points: *series_points,
        steps: *steps,
        kueue: kueue.clone(),
        contract: contract.clone(),
        notes: notes.clone(),
    }
}

/// Decodes what [`encode_result`] made, at once.
pub fn decode_result(bytes: &[u8]) -> Result<(Vec<Problem>, Digest), String> {
    let mut d = ResultDecoder::new(Box::new(bytes.to_vec()))?;
    while !d.step(&mut || 0.0, f64::INFINITY)? {}
    Ok(d.finish())
}

/// Where an encoded result is while it is decoded: in this memory (a `Vec`), or, in the
/// page, in the JavaScript buffer it came in (`web::JsBytes`), read a piece at a time.
pub trait ResultBytes {
    /// How many bytes there are.
    fn size(&self) -> usize;
    /// Copies `range` into `into` (replacing what it held); false if `range` is not inside.
    fn read(&self, range: std::ops::Range<usize>, into: &mut Vec<u8>) -> bool;
}

impl ResultBytes for Vec<u8> {
    fn size(&self) -> usize {
        Vec::len(self)
    }

    fn read(&self, range: std::ops::Range<usize>, into: &mut Vec<u8>) -> bool {
        match self.get(range) {
            Some(piece) => {
                into.clear();
                into.extend_from_slice(piece);
                true
            }
            None => false,
        }
    }
}

/// What [`encode_result`] made, decoded a piece at a time: [`ResultDecoder::step`] decodes
/// pieces until a time budget is spent, so the page can decode a large result over several
/// tasks and handle input between them.
pub struct ResultDecoder {
    bytes: Box<dyn ResultBytes>,
    /// The piece being decoded (one buffer, reused).
    piece: Vec<u8>,
    warnings: Vec<Problem>,
    digest: Digest,
    /// Each piece still to decode: whether it holds job rows (else events), and its place in
    /// `bytes`.
    pieces: std::collections::VecDeque<(bool, std::ops::Range<usize>)>,
}

impl ResultDecoder {
    /// Reads the warnings and the digest's head; the pieces wait for [`ResultDecoder::step`].
    /// A result cut short (its pieces past its end) is refused here, before any is decoded.
    pub fn new(bytes: Box<dyn ResultBytes>) -> Result<ResultDecoder, String> {
        let cut = || "could not decode the worker's result: it was cut short".to_string();
        let fail = |e: postcard::Error| format!("could not decode the worker's result: {e}");
        let mut piece = Vec::new();
        if !bytes.read(0..4, &mut piece) {
            return Err(cut());
        }
        let head_len = u32::from_le_bytes([piece[0], piece[1], piece[2], piece[3]]) as usize;
        let head_end = 4usize.checked_add(head_len).ok_or_else(cut)?;
        if !bytes.read(4..head_end, &mut piece) {
            return Err(cut());
        }
        let (warnings, mut digest, jobs, events): (Pairs, Digest, Vec<usize>, Vec<usize>) =
            postcard::from_bytes(&piece).map_err(fail)?;
        let mut at = head_end;
        let mut pieces = std::collections::VecDeque::with_capacity(jobs.len() + events.len());
        for (is_jobs, len) in jobs
            .iter()
            .map(|l| (true, *l))
            .chain(events.iter().map(|l| (false, *l)))
        {
            let end = at
                .checked_add(len)
                .filter(|e| *e <= bytes.size())
                .ok_or_else(cut)?;
            pieces.push_back((is_jobs, at..end));
            at = end;
        }
        // Room for every piece's rows at once (200,000 events grown row by row were copied
        // again at each doubling): a piece holds at most RESULT_PIECE_ROWS rows and a row
        // takes at least 8 bytes, so a hostile result reserves no more than its own size
        // allows.
        let room = |lens: &[usize]| {
            let bytes: usize = lens.iter().sum();
            (lens.len().saturating_mul(RESULT_PIECE_ROWS)).min(bytes / 8)
        };
        digest.jobs.reserve(room(&jobs));
        digest.events.reserve(room(&events));
        Ok(ResultDecoder {
            bytes,
            piece,
            warnings: from_pairs(warnings),
            digest,
            pieces,
        })
    }

    /// The result's size in bytes, its head and every piece.
    pub fn result_size(&self) -> usize {
        self.bytes.size()
    }

    /// Decodes pieces until every one is (then `true`) or `clock()` (ms) has moved
    /// `budget_ms` past its first reading (at least one piece per call).
    pub fn step(&mut self, clock: &mut dyn FnMut() -> f64, budget_ms: f64) -> Result<bool, String> {
        let fail = |e: postcard::Error| format!("could not decode the worker's result: {e}");
        let start = clock();
        while let Some((jobs, range)) = self.pieces.pop_front() {
            if !self.bytes.read(range, &mut self.piece) {
                return Err("could not decode the worker's result: it was cut short".to_string());
            }
            if jobs {
                let rows: Vec<quotalab_engine::digest::JobRow> =
                    postcard::from_bytes(&self.piece).map_err(fail)?;
                self.digest.jobs.extend(rows);
            } else {
                let rows: Vec<quotalab_engine::digest::EventRow> =
                    postcard::from_bytes(&self.piece).map_err(fail)?;
                self.digest.events.extend(rows);
            }
            if clock() - start >= budget_ms {
                break;
            }
        }
        Ok(self.pieces.is_empty())
    }

    /// The warnings and the digest (whole once [`ResultDecoder::step`] returned `true`).
    pub fn finish(self) -> (Vec<Problem>, Digest) {
        (self.warnings, self.digest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quotalab_engine::digest::DigestLimits;

    /// A generated scenario of `jobs` jobs on two shares that lend to each other.
    fn scenario(jobs: u64) -> String {
        serde_json::json!({
            "format": "quotalab/v1", "name": "pieces",
            "capacity": {"ml.g5.xlarge": 8},
            "shares": [
                {"name": "a", "limits": {"ml.g5.xlarge": 4}, "strategy": "LEND_AND_BORROW", "borrow_limit": 100},
                {"name": "b", "limits": {"ml.g5.xlarge": 4}, "strategy": "LEND_AND_BORROW", "borrow_limit": 100}
            ],
            "workloads": [
                {"share": "a", "count": jobs / 2, "arrival": {"poisson_per_hour": 40},
                 "instance_type": "ml.g5.xlarge", "work_s": {"exponential": {"mean": 600}}},
                {"share": "b", "count": jobs - jobs / 2, "arrival": {"poisson_per_hour": 40},
                 "instance_type": "ml.g5.xlarge", "work_s": {"exponential": {"mean": 600}}}
            ]
        })
        .to_string()
    }

    #[test]
    fn a_large_result_decodes_a_piece_at_a_time_into_the_same_digest() {
        let d = quotalab_engine::run_digest(&scenario(10_000), DigestLimits::default()).unwrap();
        assert!(
            d.jobs.len() > 2 * RESULT_PIECE_ROWS,
            "{} job rows",
            d.jobs.len()
        );
        assert!(
            d.events.len() > 2 * RESULT_PIECE_ROWS,
            "{} events",
            d.events.len()
        );
        let warnings = vec![Problem::whole("a warning")];
        let bytes = encode_result(&warnings, &d).unwrap();
        // A clock that moves 10 ms per reading and a budget of 1 ms: one piece per step.
        let mut now = 0.0;
        let mut clock = || {
            now += 10.0;
            now
        };
        let mut decoder = ResultDecoder::new(Box::new(bytes.clone())).unwrap();
        let mut steps = 1;
        while !decoder.step(&mut clock, 1.0).unwrap() {
            steps += 1;
        }
        let pieces =
            d.jobs.len().div_ceil(RESULT_PIECE_ROWS) + d.events.len().div_ceil(RESULT_PIECE_ROWS);
        assert_eq!(steps, pieces, "one piece per step");
        let (w, got) = decoder.finish();
        assert_eq!(w, warnings);
        assert_eq!(got, d);
        // At once; and read from where it is a piece at a time, never whole (the page reads
        // it from the buffer it came in).
        assert_eq!(decode_result(&bytes).unwrap().1, d);
        struct Counted(Vec<u8>, std::rc::Rc<std::cell::Cell<usize>>);
        impl ResultBytes for Counted {
            fn size(&self) -> usize {
                self.0.len()
            }
            fn read(&self, range: std::ops::Range<usize>, into: &mut Vec<u8>) -> bool {
                self.1.set(self.1.get().max(range.len()));
                self.0.read(range, into)
            }
        }
        let largest = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut decoder =
            ResultDecoder::new(Box::new(Counted(bytes.clone(), largest.clone()))).unwrap();
        assert!(decoder.step(&mut || 0.0, f64::INFINITY).unwrap());
        assert_eq!(decoder.finish().1, d);
        assert!(
            largest.get() * 4 < bytes.len(),
            "largest read {} of {} bytes",
            largest.get(),
            bytes.len()
        );
        // A cut result, or one whose head claims more than there is, is refused in words,
        // never a panic.
        for cut in [
            bytes[..bytes.len() - 100].to_vec(),
            bytes[..3].to_vec(),
            [&u32::MAX.to_le_bytes()[..], &bytes[4..]].concat(),
        ] {
            let err = decode_result(&cut).unwrap_err();
            assert!(
                err.starts_with("could not decode the worker's result"),
                "{err}"
            );
        }
    }

    /// A request's text travels beside its bytes and is put back where it was: the request
    /// that arrives is the request that left, for every kind that carries one.
    #[test]
    fn a_request_text_beside_its_bytes_comes_back_in_its_place() {
        let text = scenario(10);
        let csv = b"submit,duration\n0,60\n".to_vec();
        let limits = DigestLimits::default();
        let requests = [
            Request::Run {
                id: 1,
                scenario: &text,
                limits,
                relabel: Some(7),
                link: true,
            },
            Request::Compare {
                id: 2,
                scenario: &text,
                limits,
            },
            Request::Report {
                id: 3,
                scenario: &text,
                compare: true,
                review: Some(("p.yaml", "x")),
            },
            Request::RunFile {
                id: 4,
                scenario: &text,
                file: RunFile::Events,
            },
            Request::Link {
                id: 5,
                scenario: &text,
            },
            Request::Check {
                id: 6,
                scenario: &text,
            },
            Request::Timeline {
                id: 9,
                scenario: &text,
            },
            Request::TraceImport {
                id: 7,
                csv: Bytes(&csv),
                options: ImportOptions::default(),
            },
            Request::TraceCheck {
                id: 8,
                csv: Bytes(&csv),
                options: ImportOptions::default(),
            },
            // The Explore panel's plan, posted to each of its workers.
            Request::Sweep(sweep::ToWorker::Plan {
                sweep: 3,
                scenario: &text,
                vary: "shares[0].borrow_limit=0..100:50",
                seeds: 2,
            }),
            // A configuration request's scenario is its own string: taken out all the same.
            Request::Config(config::Envelope {
                id: 10,
                body: config::Request::Export {
                    scenario: text.to_string(),
                    format: config::OutFormat::Kueue,
                    queue: String::new(),
                    resource: String::new(),
                },
            }),
        ];
        for request in requests {
            let (header, beside) = request.clone().split_text();
            let beside = beside.expect("a text beside");
            let bytes = header.encode().unwrap();
            assert!(
                bytes.len() < 64,
                "the text is not in the bytes: {} bytes",
                bytes.len()
            );
            let back = Request::decode(&bytes).unwrap().with_text(&beside).unwrap();
            assert_eq!(back, request);
        }
        // Nothing to take from a request without a text, and no place to put one.
        let (warmup, none) = Request::Warmup.split_text();
        assert!(none.is_none());
        assert!(warmup.with_text(b"x").is_err());
        let (run, none) = Request::Sweep(sweep::ToWorker::Run { sweep: 3, run: 1 }).split_text();
        assert!(none.is_none());
        assert!(run.with_text(b"x").is_err());
        // A scenario that is not UTF-8 is refused in words.
        let (run, _) = Request::Check {
            id: 9,
            scenario: "{}",
        }
        .split_text();
        let err = run.with_text(&[0xff, 0xfe]).unwrap_err();
        assert!(err.contains("not UTF-8"), "{err}");
    }

    /// An answer's large text is taken out before it is posted and put back on arrival.
    #[test]
    fn an_answer_text_beside_its_bytes_comes_back_in_its_place() {
        let csv = b"submit,duration,share\n0,60,a\n30,120,b\n";
        let options = ImportOptions {
            submit: "submit".into(),
            duration: Some("duration".into()),
            share: Some("share".into()),
            ..ImportOptions::default()
        };
        let imported = crate::jobs::import_trace(csv, &options).unwrap();
        let answers = [
            Response::TraceImported {
                id: 1,
                result: Ok(imported),
            },
            Response::Report {
                id: 2,
                result: Ok("<html>report</html>".into()),
            },
            Response::RunFile {
                id: 3,
                result: Ok("{\"result\":1}".into()),
            },
        ];
        for answer in answers {
            let mut header = answer.clone();
            let text = header.take_text().expect("a text to take");
            assert!(!text.is_empty());
            let bytes = header.encode().unwrap();
            let mut back = Response::decode(&bytes).unwrap();
            back.put_text(text).unwrap();
            assert_eq!(back, answer);
        }
        // An answer without a text keeps its bytes, and refuses one.
        let mut problems = Response::Report {
            id: 4,
            result: Err(vec!["no".into()]),
        };
        assert!(problems.take_text().is_none());
        assert!(problems.put_text("x".into()).is_err());
    }

    /// A run answered by relabelling the shown one crosses back as its label alone, whole.
    /// A whole run's timeline (issue #30) crosses from the worker to the page unchanged.
    #[test]
    fn a_whole_run_s_timeline_crosses_unchanged() {
        let text = include_str!("../../../www/presets/aws-walkthrough.json");
        let result = crate::jobs::whole_timeline(text);
        assert!(result.as_ref().is_ok_and(|w| !w.layout.bars.is_empty()));
        let answer = Response::Timeline { id: 4, result };
        let bytes = answer.encode().unwrap();
        assert_eq!(Response::decode(&bytes).unwrap(), answer);
        let refused = Response::Timeline {
            id: 5,
            result: crate::jobs::whole_timeline("{}"),
        };
        assert!(matches!(&refused, Response::Timeline { result: Err(p), .. } if !p.is_empty()));
        assert_eq!(
            Response::decode(&refused.encode().unwrap()).unwrap(),
            refused
        );
    }

    #[test]
    fn a_relabelled_run_crosses_as_its_label() {
        let text = scenario(40).replace("\"pieces\"", "\"renamed\"");
        let loaded = quotalab_engine::load(&text).unwrap();
        let answer = Response::Relabelled {
            id: 9,
            timing: Timing::default(),
            label: quotalab_engine::digest::Label::of(&loaded.scenario),
            warnings: vec![Problem::new(Path::named("capacity"), "a warning")],
        };
        let mut header = answer.clone();
        assert!(header.take_text().is_none(), "nothing large beside it");
        let bytes = answer.encode().unwrap();
        assert!(bytes.len() < 1_000, "{} bytes", bytes.len());
        assert_eq!(Response::decode(&bytes).unwrap(), answer);
    }
}
