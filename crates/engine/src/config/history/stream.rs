//! A history file read record by record (SPEC 16, "the 8 MiB bound and hostile-input rules
//! hold", read as docs/MODEL-CHOICES.md says): `kubectl get workloads -A -o json` of 100,000
//! workloads is about 220 MB, so a history is never parsed whole. A [`HistoryReader`] takes
//! the file in pieces ([`HistoryReader::push`], any split) and hands each record to the
//! Kueue or AWS reader as soon as it is complete:
//!
//! - JSON (the first byte `{` or `[`): a byte scanner that follows strings, escapes and
//!   depth splits a top-level array into its elements, and a top-level object into its
//!   fields, streaming the elements of its `items` (a `kubectl -o json` List) or `jobs` /
//!   `jobSummaryList` (AWS `describe-jobs`, `list-jobs`, `list-service-jobs`) array; the
//!   object's other fields are kept (they are small) and read when it ends.
//! - YAML: a stream split at its `---` lines into documents; a document whose `items:` key
//!   is at column 0 and is followed by entries starting `- ` at column 0 (as `kubectl -o
//!   yaml` prints a List) is split into those entries. Any other document is parsed whole.
//!
//! A List's item is read by [`super::kyaml`] when it has the shape kubectl prints (natively),
//! else by the general YAML parser: the same values, several times faster.
//!
//! Each record, document, or the kept rest of a document, is parsed alone and may hold at
//! most [`MAX_FILE_BYTES`]; a file at most [`MAX_HISTORY_BYTES`] and [`MAX_HISTORY_RECORDS`]
//! records. Memory is the records kept, plus one record's text.

use serde_json::{Map, Value};

#[cfg(not(target_arch = "wasm32"))]
use super::kept;
use super::{aws, kueue, Collected, HistoryFormat};
use crate::config::kueue::parse_documents;
use crate::config::{join, line_end, Sink, MAX_FILE_BYTES};

/// The most text a history file may hold (2 GiB).
pub const MAX_HISTORY_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// The most records (list items, array elements, documents) a history file may hold.
pub const MAX_HISTORY_RECORDS: usize = 1_000_000;
/// After this many errors in one file the rest is not read (the first ones say what to fix).
const MAX_ERRORS: usize = 1_000;

fn mib() -> usize {
    MAX_FILE_BYTES / (1024 * 1024)
}

/// One history file being read: feed it with [`push`](Self::push), then
/// [`finish`](Self::finish); [`records`](Self::records) counts the records read so far (for
/// progress).
pub struct HistoryReader {
    pub(crate) sink: Sink,
    /// Refusals of the file as a whole (size, number of records): reported before any other
    /// problem, as the whole-file bound was.
    pub(crate) bounds: Sink,
    pub(crate) c: Collected,
    file: usize,
    resource: String,
    /// Records are read by serde_json straight from the buffer (natively; in wasm they are
    /// cut out by the scanner and read from text: the same results).
    pub(crate) serde_records: bool,
    /// No more is read (a bound, a syntax error, the end).
    stopped: bool,
    finished: bool,
    bytes: u64,
    records: usize,
    /// List items of YAML read by the general parser, not by [`super::kyaml`].
    yaml_fallbacks: usize,
    buf: Vec<u8>,
    /// What of `buf` is read (dropped once per piece, not per record).
    off: usize,
    bom_checked: bool,
    /// The line (1-based) of `buf[off]`, and the column (1-based) of `buf[off]` in it.
    line: usize,
    col: usize,
    mode: Mode,
}

enum Mode {
    /// Before the first byte that is not whitespace (or a byte order mark).
    Start,
    Json(Box<Json>),
    Yaml(Box<Yaml>),
}

impl HistoryReader {
    /// A reader of history file number `file` (`name` is given in problems when `named`,
    /// as [`super::names_files`] says).
    pub fn new(name: &str, file: usize, named: bool, resource: &str) -> HistoryReader {
        let shown = if named { name } else { "" };
        HistoryReader {
            sink: Sink::new(shown),
            bounds: Sink::new(if named { name } else { "" }),
            c: Collected::default(),
            file,
            resource: resource.to_string(),
            serde_records: cfg!(not(target_arch = "wasm32")),
            stopped: false,
            finished: false,
            bytes: 0,
            records: 0,
            yaml_fallbacks: 0,
            buf: Vec::new(),
            off: 0,
            bom_checked: false,
            line: 1,
            col: 1,
            mode: Mode::Start,
        }
    }

    /// Records read so far (list items, array elements, documents).
    pub fn records(&self) -> usize {
        self.records
    }

    /// Items of YAML Lists read so far by the general YAML parser rather than by the reader
    /// of kubectl's own shape (for tests and measures: 0 for kubectl's output).
    pub fn yaml_fallbacks(&self) -> usize {
        self.yaml_fallbacks
    }

    /// Bytes received so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Whether the reader has stopped reading (a bound or a syntax error): the rest of the
    /// file need not be read.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The next piece of the file (pieces may split it anywhere, even inside a character).
    pub fn push(&mut self, chunk: &[u8]) {
        if self.stopped || self.finished {
            return;
        }
        self.bytes += chunk.len() as u64;
        if self.bytes > MAX_HISTORY_BYTES {
            self.bound(format!(
                "is over the {} GiB limit of a history file",
                MAX_HISTORY_BYTES >> 30
            ));
            return;
        }
        self.buf.extend_from_slice(chunk);
        self.run(false);
    }

    /// The end of the file: what is left is read (or said to be cut short).
    pub fn finish(&mut self) {
        if self.finished {
            return;
        }
        if !self.stopped {
            self.run(true);
        }
        self.finished = true;
        self.stopped = true;
        self.buf = Vec::new();
    }

    fn bound(&mut self, msg: String) {
        self.bounds.err("", msg);
        self.stop();
    }

    fn stop(&mut self) {
        self.stopped = true;
        self.buf = Vec::new();
        self.off = 0;
    }

    /// Counts a record; false (and stopped) past the bound.
    fn count(&mut self) -> bool {
        self.records += 1;
        if self.records > MAX_HISTORY_RECORDS {
            self.bound(format!(
                "holds more than {MAX_HISTORY_RECORDS} records, the limit of a history file"
            ));
            return false;
        }
        if self.sink.errors.len() >= MAX_ERRORS {
            self.sink.err(
                "",
                format!("more than {MAX_ERRORS} problems: the rest of the file is not read"),
            );
            self.stop();
            return false;
        }
        true
    }

    /// Marks `buf[off..to]` read, following its lines and columns.
    fn advance(&mut self, to: usize) {
        let bytes = &self.buf[self.off..to];
        let newlines = count_newlines(bytes);
        if newlines > 0 {
            self.line += newlines;
            let last = bytes.iter().rposition(|&b| b == b'\n').unwrap_or(0);
            self.col = bytes.len() - last;
        } else {
            self.col += bytes.len();
        }
        self.off = to;
    }

    /// Drops what is read from the buffer: `off` bytes.
    fn compact(&mut self) -> usize {
        let n = self.off;
        if n > 0 && !self.stopped {
            self.buf.drain(..n);
        }
        self.off = 0;
        n
    }

    fn run(&mut self, end: bool) {
        if matches!(self.mode, Mode::Start) {
            // A byte order mark, then whitespace, then the first byte says JSON or YAML.
            const BOM: [u8; 3] = [0xef, 0xbb, 0xbf];
            if !self.bom_checked {
                if self.buf.len() < 3 && !end && BOM.starts_with(&self.buf) {
                    return;
                }
                if self.buf.starts_with(&BOM) {
                    self.buf.drain(..3);
                }
                self.bom_checked = true;
            }
            let first = self.buf.iter().find(|b| !b.is_ascii_whitespace()).copied();
            match first {
                Some(b'{' | b'[') => self.mode = Mode::Json(Box::default()),
                Some(_) => self.mode = Mode::Yaml(Box::default()),
                None if end => self.mode = Mode::Yaml(Box::default()),
                None => return,
            }
        }
        match std::mem::replace(&mut self.mode, Mode::Start) {
            Mode::Json(mut j) => {
                self.json(&mut j, end);
                self.mode = Mode::Json(j);
            }
            Mode::Yaml(mut y) => {
                self.yaml(&mut y, end);
                self.mode = Mode::Yaml(y);
            }
            Mode::Start => {}
        }
    }

    fn kueue_reader(&mut self) -> kueue::Reader<'_> {
        kueue::Reader {
            sink: &mut self.sink,
            file: self.file,
            resource: &self.resource,
            c: &mut self.c,
        }
    }

    fn aws_reader(&mut self) -> aws::Reader<'_> {
        aws::Reader {
            sink: &mut self.sink,
            file: self.file,
            c: &mut self.c,
        }
    }
}

// ---------------------------------------------------------------- JSON

/// Where the JSON scanner is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum J {
    /// Before the top-level value.
    #[default]
    Top,
    /// In the top-level array: before an element (after `[`, or after `,` when `comma`).
    ArrBefore,
    ArrAfter,
    /// In the top-level object: before a key.
    ObjBefore,
    ObjColon,
    ObjValue,
    ObjAfter,
    /// In the streamed array of the top-level object.
    ListBefore,
    ListAfter,
    /// Scanning a value (a record, a field of the top-level object, or a key).
    Value(Ctx),
    /// After the top-level value.
    End,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    Elem,
    Field,
    ListElem,
    Key,
}

#[derive(Default)]
struct Json {
    state: J,
    /// After a `,` (a value must follow).
    comma: bool,
    /// Scan position in the buffer.
    pos: usize,
    /// The value being scanned: where it starts, and its line and column.
    start: usize,
    start_at: (usize, usize),
    depth: u32,
    in_str: bool,
    esc: bool,
    /// A scalar (number, literal) rather than a string or a container.
    scalar: bool,
    top_array: bool,
    /// Elements read of the top-level array or the streamed list.
    n: usize,
    key: String,
    shell: Map<String, Value>,
    shell_bytes: usize,
    list_key: Option<String>,
    format: Option<HistoryFormat>,
    /// The record being read is an object or array that serde_json reads straight from the
    /// buffer (finding its end itself); again once the buffer reaches `retry_at`.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    records_by_serde: bool,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    retry_at: usize,
    /// Warnings of the file before the streamed list began (the top-level object's own
    /// warnings go there, as when the object was read whole).
    warn_at: usize,
}

impl HistoryReader {
    /// The line and column of `buf[at]`.
    fn position(&self, at: usize) -> (usize, usize) {
        let bytes = &self.buf[self.off..at];
        match bytes.iter().rposition(|&b| b == b'\n') {
            Some(last) => (
                self.line + bytes.iter().filter(|&&b| b == b'\n').count(),
                bytes.len() - last,
            ),
            None => (self.line, self.col + bytes.len()),
        }
    }

    /// The file ended before its JSON did: said at the end's line and column.
    fn eof_error(&mut self, msg: &str) {
        let (l, c) = self.position(self.buf.len());
        self.sink.err(
            "",
            format!("JSON syntax error at line {l}, column {c}: {msg}"),
        );
        self.stop();
    }

    fn json_error(&mut self, at: usize, msg: &str) {
        let (l, c) = self.position(at);
        self.sink.err(
            "",
            format!("JSON syntax error at line {l}, column {c}: {msg}"),
        );
        self.stop();
    }

    fn json(&mut self, j: &mut Json, end: bool) {
        self.json_steps(j, end);
        let n = self.compact();
        j.pos -= n.min(j.pos);
        j.start -= n.min(j.start);
        j.retry_at = j.retry_at.saturating_sub(n);
    }

    fn json_steps(&mut self, j: &mut Json, end: bool) {
        loop {
            if self.stopped {
                return;
            }
            if let J::Value(ctx) = j.state {
                #[cfg(not(target_arch = "wasm32"))]
                if j.records_by_serde {
                    match self.record_by_serde(j, ctx, end) {
                        Some(stop) => {
                            self.advance(stop);
                            j.pos = stop;
                            continue;
                        }
                        None => return,
                    }
                }
                match self.scan_value(j) {
                    Some(stop) => {
                        let (s, at) = (j.start, j.start_at);
                        self.value_done(j, ctx, s, stop, at);
                        if self.stopped {
                            return;
                        }
                        self.advance(stop);
                        j.pos = stop;
                        continue;
                    }
                    None => {
                        if j.pos - j.start > MAX_FILE_BYTES {
                            let what = self.what(j, ctx);
                            self.too_big(&what);
                        } else if end {
                            self.truncated(j, ctx);
                        }
                        return;
                    }
                }
            }
            // Between values: skip whitespace, read one structural byte.
            while j.pos < self.buf.len() && self.buf[j.pos].is_ascii_whitespace() {
                j.pos += 1;
            }
            if j.pos >= self.buf.len() {
                self.advance(j.pos);
                if end {
                    self.json_end(j);
                }
                return;
            }
            let b = self.buf[j.pos];
            let at = j.pos;
            match (j.state, b) {
                (J::Top, b'[') => {
                    j.top_array = true;
                    j.state = J::ArrBefore;
                    j.comma = false;
                    j.pos += 1;
                }
                (J::Top, b'{') => {
                    j.state = J::ObjBefore;
                    j.comma = false;
                    j.pos += 1;
                }
                (J::ArrBefore, b']') | (J::ListBefore, b']') if !j.comma => {
                    j.state = if j.state == J::ArrBefore {
                        J::End
                    } else {
                        J::ObjAfter
                    };
                    j.pos += 1;
                }
                (J::ArrBefore, _) => self.begin_value(j, Ctx::Elem, at),
                (J::ListBefore, _) => self.begin_value(j, Ctx::ListElem, at),
                (J::ArrAfter | J::ListAfter, b',') => {
                    j.state = if j.state == J::ArrAfter {
                        J::ArrBefore
                    } else {
                        J::ListBefore
                    };
                    j.comma = true;
                    j.pos += 1;
                }
                (J::ArrAfter, b']') => {
                    j.state = J::End;
                    j.pos += 1;
                }
                (J::ListAfter, b']') => {
                    j.state = J::ObjAfter;
                    j.pos += 1;
                }
                (J::ObjBefore, b'}') if !j.comma => {
                    j.state = J::End;
                    j.pos += 1;
                }
                (J::ObjBefore, b'"') => self.begin_value(j, Ctx::Key, at),
                (J::ObjColon, b':') => {
                    j.state = J::ObjValue;
                    j.pos += 1;
                }
                (J::ObjValue, b'[') if self.streams(j) => {
                    j.list_key = Some(j.key.clone());
                    j.format = Some(if j.key == "items" {
                        HistoryFormat::Kueue
                    } else {
                        HistoryFormat::Aws
                    });
                    j.warn_at = self.sink.warnings.len();
                    j.n = 0;
                    j.state = J::ListBefore;
                    j.comma = false;
                    j.pos += 1;
                }
                (J::ObjValue, _) => self.begin_value(j, Ctx::Field, at),
                (J::ObjAfter, b',') => {
                    j.state = J::ObjBefore;
                    j.comma = true;
                    j.pos += 1;
                }
                (J::ObjAfter, b'}') => {
                    j.state = J::End;
                    j.pos += 1;
                }
                (J::End, _) => {
                    self.json_error(at, "trailing characters");
                    return;
                }
                (state, _) => {
                    let expected = match state {
                        J::ArrAfter | J::ListAfter => "expected `,` or `]`",
                        J::ObjBefore => "expected a key (a string)",
                        J::ObjColon => "expected `:`",
                        J::ObjAfter => "expected `,` or `}`",
                        _ => "expected a value",
                    };
                    self.json_error(at, expected);
                    return;
                }
            }
        }
    }

    /// Whether the top-level object's field `j.key` is the list streamed record by record.
    fn streams(&self, j: &Json) -> bool {
        if j.list_key.is_some() {
            return false;
        }
        let kube = j.shell.contains_key("kind") || j.shell.contains_key("apiVersion");
        j.key == "items" || (!kube && (j.key == "jobs" || j.key == "jobSummaryList"))
    }

    fn begin_value(&mut self, j: &mut Json, ctx: Ctx, at: usize) {
        self.advance(at);
        j.pos = at;
        j.start = at;
        j.start_at = (self.line, self.col);
        j.depth = 0;
        j.in_str = false;
        j.esc = false;
        j.scalar = false;
        j.state = J::Value(ctx);
        j.records_by_serde = self.serde_records
            && matches!(ctx, Ctx::Elem | Ctx::ListElem)
            && matches!(self.buf[at], b'{' | b'[');
        j.retry_at = 0;
    }

    /// Reads the record at `j.start` with serde_json: its end once complete and read, or
    /// None (more is needed, or the reader stopped).
    #[cfg(not(target_arch = "wasm32"))]
    fn record_by_serde(&mut self, j: &mut Json, ctx: Ctx, end: bool) -> Option<usize> {
        if self.buf.len() < j.retry_at && !end {
            return None;
        }
        let s = j.start;
        let slice = &self.buf[s..];
        // A kubectl List's items keep only what the Kueue reader reads (less to build).
        let (got, e) = if ctx == Ctx::ListElem && j.format == Some(HistoryFormat::Kueue) {
            let mut it =
                serde_json::Deserializer::from_slice(slice).into_iter::<kept::KueueRecord>();
            let got = it.next().map(|r| r.map(|k| k.0));
            (got, s + it.byte_offset())
        } else {
            let mut it = serde_json::Deserializer::from_slice(slice).into_iter::<Value>();
            let got = it.next();
            (got, s + it.byte_offset())
        };
        match got {
            Some(Ok(v)) => {
                if e - s > MAX_FILE_BYTES {
                    let what = self.what(j, ctx);
                    self.too_big(&what);
                    return None;
                }
                self.value_parsed(j, ctx, v, e - s);
                (!self.stopped).then_some(e)
            }
            Some(Err(err)) if err.is_eof() => {
                let have = self.buf.len() - s;
                if have > MAX_FILE_BYTES {
                    let what = self.what(j, ctx);
                    self.too_big(&what);
                } else if end {
                    self.truncated(j, ctx);
                } else {
                    // Read again once the buffer has grown by as much again (linear time).
                    j.retry_at = self.buf.len() + have.max(64 * 1024);
                }
                None
            }
            Some(Err(err)) => {
                self.syntax(j.start_at, &err);
                None
            }
            None => {
                if end {
                    self.truncated(j, ctx);
                }
                None
            }
        }
    }

    /// A serde_json syntax error in the value that starts at `at` (line, column), placed in
    /// the file.
    fn syntax(&mut self, at: (usize, usize), err: &serde_json::Error) {
        let (line, col) = if err.line() <= 1 {
            (at.0, at.1 + err.column().saturating_sub(1))
        } else {
            (at.0 + err.line() - 1, err.column())
        };
        let msg = crate::input::json::syntax_error(err);
        let tail = msg.split_once(": ").map_or(msg.as_str(), |(_, t)| t);
        self.sink.err(
            "",
            format!("JSON syntax error at line {line}, column {col}: {tail}"),
        );
        self.stop();
    }

    /// Scans the value at `j.start` from `j.pos`: its end (exclusive) once complete.
    fn scan_value(&mut self, j: &mut Json) -> Option<usize> {
        let buf = &self.buf;
        let mut i = j.pos;
        if i == j.start {
            match buf.get(i) {
                None => return None,
                Some(b'{' | b'[') => j.depth = 1,
                Some(b'"') => j.in_str = true,
                Some(_) => j.scalar = true,
            }
            i += 1;
        }
        let n = buf.len();
        while i < n {
            let b = buf[i];
            if j.in_str {
                if j.esc {
                    j.esc = false;
                } else if b == b'\\' {
                    j.esc = true;
                } else if b == b'"' {
                    j.in_str = false;
                    if j.depth == 0 {
                        j.pos = i + 1;
                        return Some(i + 1);
                    }
                } else {
                    // Skip to the next quote or backslash.
                    match buf[i + 1..].iter().position(|&c| c == b'"' || c == b'\\') {
                        Some(k) => {
                            i += k + 1;
                            continue;
                        }
                        None => break,
                    }
                }
            } else if j.scalar {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n') {
                    j.pos = i;
                    return Some(i);
                }
            } else {
                match b {
                    b'"' => j.in_str = true,
                    b'{' | b'[' => j.depth += 1,
                    b'}' | b']' => {
                        j.depth -= 1;
                        if j.depth == 0 {
                            j.pos = i + 1;
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        j.pos = n;
        None
    }

    /// What the value being read is, for problems: `items[3]`, `[2]`, `metadata`.
    fn what(&self, j: &Json, ctx: Ctx) -> String {
        match ctx {
            Ctx::Elem => format!("[{}]", j.n),
            Ctx::ListElem => format!("{}[{}]", j.list_key.as_deref().unwrap_or("items"), j.n),
            Ctx::Field => j.key.clone(),
            Ctx::Key => String::new(),
        }
    }

    fn too_big(&mut self, what: &str) {
        self.bounds.err(
            what,
            format!(
                "is over the {} MiB limit (each record of a history is read alone and may hold at most {} MiB)",
                mib(),
                mib()
            ),
        );
        self.stop();
    }

    fn truncated(&mut self, j: &Json, ctx: Ctx) {
        let (l, _) = j.start_at;
        let what = self.what(j, ctx);
        let msg = if what.is_empty() {
            "the file ends inside a value: it is cut short (truncated?)".to_string()
        } else {
            format!(
                "the file ends inside {what}, which starts at line {l}: it is cut short (truncated?)"
            )
        };
        self.eof_error(&msg);
    }

    fn value_done(&mut self, j: &mut Json, ctx: Ctx, s: usize, e: usize, at: (usize, usize)) {
        if e - s > MAX_FILE_BYTES {
            let what = self.what(j, ctx);
            self.too_big(&what);
            return;
        }
        let Ok(text) = std::str::from_utf8(&self.buf[s..e]) else {
            self.sink.err("", "is not UTF-8 text");
            self.stop();
            return;
        };
        let v: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(err) => {
                self.syntax(at, &err);
                return;
            }
        };
        self.value_parsed(j, ctx, v, e - s);
    }

    /// A value read: a key, a field of the top-level object, or a record.
    fn value_parsed(&mut self, j: &mut Json, ctx: Ctx, v: Value, len: usize) {
        match ctx {
            Ctx::Key => {
                j.key = match v {
                    Value::String(s) => s,
                    _ => String::new(),
                };
                j.state = J::ObjColon;
            }
            Ctx::Field => {
                j.shell_bytes += len;
                if j.shell_bytes > MAX_FILE_BYTES {
                    self.too_big("");
                    return;
                }
                j.shell.insert(std::mem::take(&mut j.key), v);
                j.state = J::ObjAfter;
            }
            Ctx::Elem => {
                if !self.count() {
                    return;
                }
                let i = j.n;
                j.n += 1;
                j.state = J::ArrAfter;
                let format = *j.format.get_or_insert_with(|| {
                    if v.get("kind").is_some() || v.get("apiVersion").is_some() {
                        HistoryFormat::Kueue
                    } else {
                        HistoryFormat::Aws
                    }
                });
                match format {
                    HistoryFormat::Kueue => self.kueue_reader().document(&v, &format!("[{i}]")),
                    HistoryFormat::Aws => self.aws_reader().item(&v, Some(i)),
                }
            }
            Ctx::ListElem => {
                if !self.count() {
                    return;
                }
                let i = j.n;
                j.n += 1;
                j.state = J::ListAfter;
                let key = j.list_key.clone().unwrap_or_default();
                let p = format!("{key}[{i}]");
                match j.format {
                    Some(HistoryFormat::Aws) => self.aws_reader().list_item(&v, &p),
                    _ => self.kueue_reader().document(&v, &p),
                }
            }
        }
    }

    /// The end of a JSON file: the top-level object, read now that all of it is known.
    fn json_end(&mut self, j: &mut Json) {
        if j.state != J::End {
            let msg = if matches!(j.state, J::ListBefore | J::ListAfter) {
                format!(
                    "the file ends inside {} after {} records: it is cut short (truncated?)",
                    j.list_key.as_deref().unwrap_or("items"),
                    j.n
                )
            } else {
                "the file ends before its JSON is complete: it is cut short (truncated?)"
                    .to_string()
            };
            self.eof_error(&msg);
            return;
        }
        if j.top_array {
            return;
        }
        let shell = std::mem::take(&mut j.shell);
        let Some(key) = j.list_key.clone() else {
            // A single object: read whole, as before.
            if !self.count() {
                return;
            }
            let v = Value::Object(shell);
            if v.get("kind").is_some() || v.get("apiVersion").is_some() {
                self.kueue_reader().document(&v, "");
            } else {
                self.aws_reader().item(&v, None);
            }
            return;
        };
        match j.format {
            Some(HistoryFormat::Aws) => {
                let before = self.sink.warnings.len();
                self.aws_reader().response_keys(&shell, &key, "");
                let added = self.sink.warnings.len() - before;
                self.sink.warnings[j.warn_at..].rotate_right(added);
            }
            _ => list_kind(&mut self.sink, &shell, ""),
        }
    }

    // ------------------------------------------------------------ YAML

    fn yaml(&mut self, y: &mut Yaml, end: bool) {
        // The lines are read from the buffer taken out of `self` (the readers borrow it).
        let buf = std::mem::take(&mut self.buf);
        let mut off = 0;
        loop {
            if self.stopped {
                return;
            }
            // The lines of a List's item (indented, comments, blank) all at once, as
            // `yaml_line` would add them one by one.
            if y.state == Y::Items && y.in_item && y.scan == 0 {
                let (mut p, mut n) = (off, 0);
                while matches!(buf.get(p), Some(b' ' | b'\t' | b'#' | b'\n')) {
                    let e = line_end(&buf, p);
                    if e == buf.len() {
                        break;
                    }
                    p = e + 1;
                    n += 1;
                }
                if p > off {
                    // Up to the line that is not UTF-8, if one is: that line is said to be
                    // (below, one line at a time), and the reading stops there.
                    let (lines, n) = match std::str::from_utf8(&buf[off..p]) {
                        Ok(lines) => (lines, n),
                        Err(e) => {
                            let valid = &buf[off..off + e.valid_up_to()];
                            let whole =
                                valid.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
                            let lines = std::str::from_utf8(&valid[..whole]).unwrap_or("");
                            (lines, lines.bytes().filter(|&b| b == b'\n').count())
                        }
                    };
                    if !lines.is_empty() {
                        y.item.push_str(lines);
                        self.line += n;
                        off += lines.len();
                        if y.item.len() > MAX_FILE_BYTES {
                            let what = y.what();
                            self.too_big(&what);
                        }
                        continue;
                    }
                }
            }
            let n = match buf[off + y.scan..].iter().position(|&b| b == b'\n') {
                Some(k) => off + y.scan + k + 1,
                None if end && off < buf.len() => buf.len(),
                None => {
                    y.scan = buf.len() - off;
                    if y.scan > MAX_FILE_BYTES {
                        let what = y.what();
                        self.too_big(&what);
                        return;
                    }
                    if end {
                        self.end_doc(y);
                    }
                    break;
                }
            };
            y.scan = 0;
            let Ok(line) = std::str::from_utf8(&buf[off..n]) else {
                self.sink
                    .err("", format!("is not UTF-8 text (line {})", self.line));
                self.stop();
                return;
            };
            let at = self.line;
            self.line += 1;
            off = n;
            self.yaml_line(y, line, at);
        }
        if !self.stopped {
            self.buf = buf;
            self.buf.drain(..off);
        }
    }

    fn yaml_line(&mut self, y: &mut Yaml, line: &str, at: usize) {
        let t = line.trim_end_matches(['\n', '\r']);
        let marker = |m: &str| {
            t.strip_prefix(m)
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
        };
        if marker("---") {
            self.end_doc(y);
            y.push_shell(line, at);
        } else if marker("...") {
            self.end_doc(y);
        } else {
            match y.state {
                Y::Header => {
                    if y.list_ok && is_key(t, "items") {
                        y.state = Y::ItemsStart;
                    } else if let Some(k) = t.strip_prefix("kind:") {
                        let k = k.split('#').next().unwrap_or("");
                        let k = k.trim().trim_matches(['"', '\'']);
                        y.list_ok = k == "List" || k == "WorkloadList";
                    }
                    y.push_shell(line, at);
                }
                Y::ItemsStart if is_entry(t) => {
                    y.state = Y::Items;
                    self.start_item(y, line, at);
                }
                Y::ItemsStart if t.trim().is_empty() || t.starts_with('#') => {
                    y.push_shell(line, at);
                }
                Y::ItemsStart if t.starts_with([' ', '\t']) => {
                    y.state = Y::Whole;
                    y.push_shell(line, at);
                }
                Y::ItemsStart => {
                    y.state = Y::Trailer;
                    y.push_shell(line, at);
                }
                Y::Items if is_entry(t) => {
                    self.end_item(y);
                    self.start_item(y, line, at);
                }
                Y::Items if t.is_empty() || t.starts_with([' ', '\t', '#']) => {
                    y.item.push_str(line);
                }
                Y::Items => {
                    self.end_item(y);
                    y.state = Y::Trailer;
                    y.push_shell(line, at);
                }
                Y::Trailer | Y::Whole => y.push_shell(line, at),
            }
        }
        if y.shell.len() > MAX_FILE_BYTES {
            let what = format!("[{}]", y.doc);
            self.too_big(&what);
        } else if y.item.len() > MAX_FILE_BYTES {
            let what = y.what();
            self.too_big(&what);
        }
    }

    fn start_item(&mut self, y: &mut Yaml, line: &str, at: usize) {
        y.in_item = true;
        y.item_line = at;
        y.item.clear();
        // `- key: v` becomes `  key: v`: the entry as a document of its own.
        y.item.push(' ');
        y.item.push_str(&line[1..]);
    }

    fn end_item(&mut self, y: &mut Yaml) {
        if !y.in_item {
            return;
        }
        y.in_item = false;
        y.streamed = true;
        let i = y.items;
        y.items += 1;
        if !self.count() {
            return;
        }
        let path = format!("[{}].items[{i}]", y.doc);
        // The text's room is kept for the next item.
        let mut text = std::mem::take(&mut y.item);
        // Only what the Kueue reader reads is kept, as of a JSON List's items.
        #[cfg(not(target_arch = "wasm32"))]
        let fast = super::kyaml::record_kept(&text, &kept::RECORD);
        #[cfg(target_arch = "wasm32")]
        let fast: Option<Value> = None;
        let parsed = match fast {
            Some(v) => Ok(vec![v]),
            None => {
                self.yaml_fallbacks += 1;
                parse_documents(&text)
            }
        };
        match parsed {
            Ok(docs) => {
                for d in &docs {
                    self.kueue_reader().document(d, &path);
                }
            }
            Err(e) => self.sink.err(
                &path,
                format!("{e} (in the record that starts at line {})", y.item_line),
            ),
        }
        text.clear();
        y.item = text;
    }

    fn end_doc(&mut self, y: &mut Yaml) {
        self.end_item(y);
        if self.stopped {
            return;
        }
        let shell = std::mem::take(&mut y.shell);
        let first = y.shell_line;
        let streamed = y.streamed;
        *y = Yaml {
            doc: y.doc,
            ..Yaml::default()
        };
        if streamed {
            let d = y.doc;
            y.doc += 1;
            let path = format!("[{d}]");
            match parse_documents(&shell) {
                Ok(docs) => match docs.first().and_then(Value::as_object) {
                    Some(m) => list_kind(&mut self.sink, m, &path),
                    None => list_kind(&mut self.sink, &Map::new(), &path),
                },
                Err(e) => self.sink.err(&path, e),
            }
            return;
        }
        if shell.trim().is_empty() {
            return;
        }
        match parse_documents(&shell) {
            Ok(docs) => {
                for d in &docs {
                    if !self.count() {
                        return;
                    }
                    let path = format!("[{}]", y.doc);
                    y.doc += 1;
                    self.kueue_reader().document(d, &path);
                }
            }
            Err(e) if first > 1 => self.sink.err(
                "",
                format!("{e} (in the document that starts at line {first})"),
            ),
            Err(e) => self.sink.err("", e),
        }
    }
}

/// A streamed List's own kind, read once its items are: `List` (or `WorkloadList`).
/// The newlines in `bytes`: counted in runs of at most 255 bytes into a byte-wide sum,
/// which the compiler turns into wide compares (the plain `filter().count()` widened each
/// byte to 64 bits and was 7% of a 100,000-workload import).
fn count_newlines(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|run| {
            run.iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b == b'\n'))) as usize
        })
        .sum()
}

fn list_kind(sink: &mut Sink, m: &Map<String, Value>, path: &str) {
    match m.get("kind") {
        Some(Value::String(k)) if k == "List" || k == "WorkloadList" => {}
        Some(Value::String(k)) => sink.err(
            &join(path, "kind"),
            format!("is {k}, but the document has items: a List of Workloads was expected"),
        ),
        Some(other) => sink.err(
            &join(path, "kind"),
            format!("must be a string, not {}", crate::config::kind(other)),
        ),
        None => sink.err(
            &join(path, "kind"),
            "is required (kubectl prints `kind: List` after the items: is the file cut short?)",
        ),
    }
}

/// `key:` alone on a line at column 0 (a comment may follow).
fn is_key(t: &str, key: &str) -> bool {
    t.strip_prefix(key)
        .and_then(|r| r.strip_prefix(':'))
        .is_some_and(|r| {
            let r = r.trim_start();
            r.is_empty() || r.starts_with('#')
        })
}

/// An entry of a sequence at column 0: `- ...` or `-`.
fn is_entry(t: &str) -> bool {
    t == "-" || t.starts_with("- ") || t.starts_with("-\t")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Y {
    /// Before `items:`.
    #[default]
    Header,
    /// After `items:`, before its first entry.
    ItemsStart,
    Items,
    /// After the items.
    Trailer,
    /// A document read whole.
    Whole,
}

struct Yaml {
    /// Where to look for the next line end in the buffer.
    scan: usize,
    state: Y,
    /// The header names no kind, or a List's.
    list_ok: bool,
    /// The document's text but its items, and its first line.
    shell: String,
    shell_line: usize,
    item: String,
    item_line: usize,
    in_item: bool,
    items: usize,
    streamed: bool,
    /// The index of the document (non-empty ones counted).
    doc: usize,
}

impl Default for Yaml {
    fn default() -> Yaml {
        Yaml {
            scan: 0,
            state: Y::Header,
            list_ok: true,
            shell: String::new(),
            shell_line: 0,
            item: String::new(),
            item_line: 0,
            in_item: false,
            items: 0,
            streamed: false,
            doc: 0,
        }
    }
}

impl Yaml {
    fn push_shell(&mut self, line: &str, at: usize) {
        if self.shell.is_empty() {
            self.shell_line = at;
        }
        self.shell.push_str(line);
    }

    fn what(&self) -> String {
        if self.in_item {
            format!("[{}].items[{}]", self.doc, self.items)
        } else {
            format!("[{}]", self.doc)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::count_newlines;

    #[test]
    fn newlines_are_counted_as_the_plain_count_does() {
        // Runs longer than 255 bytes, all newlines (a byte-wide sum at its limit), none.
        let mut cases: Vec<Vec<u8>> = vec![vec![], vec![b'\n'; 1000], vec![b'x'; 1000]];
        let mut seed = 7u32;
        for len in [1, 254, 255, 256, 511, 4096, 70_000] {
            let v = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    if (seed >> 16).is_multiple_of(5) {
                        b'\n'
                    } else {
                        b'a'
                    }
                })
                .collect();
            cases.push(v);
        }
        for c in cases {
            let plain = c.iter().filter(|&&b| b == b'\n').count();
            assert_eq!(count_newlines(&c), plain, "{} bytes", c.len());
        }
    }
}
