//! A reader of one record of `kubectl get ... -o yaml` (SPEC 16, issue #32): the block
//! style kubectl prints (sigs.k8s.io/yaml, go-yaml's emitter), read straight into the
//! `Value` the general YAML parser ([`parse_documents`]) would give, several times faster
//! (docs/PERFORMANCE.md). It reads only that shape: mappings and sequences in block style
//! (a sequence at its key's column or indented), plain, single- and double-quoted scalars
//! (over several lines too, as go-yaml wraps long strings), literal block scalars and
//! folded ones without more-indented lines, `{}` and `[]`, comments. Anything else
//! (anchors, aliases, tags, flow collections with content, complex, null or duplicate keys,
//! tabs, odd indentation, a nesting deeper than [`MAX_DEPTH`]...) gives `None`, and the
//! caller reads the record with the general parser: the results are the same, never
//! merely close (`tests` compare them). The history keeps only what its Kueue reader reads
//! of a record ([`record_kept`], the rules of a JSON List's items): the rest is read, so
//! that it falls back as the whole record would, but not built.
//!
//! Plain scalars are typed as serde-saphyr types them (YAML 1.2 core, strict booleans):
//! `true`/`True`/`TRUE` and the `false`s, `null`/`Null`/`NULL`/`~`, decimal integers are
//! read here; a scalar that starts like a number but is not a decimal integer (`1.5`,
//! `0x1F`, `0777`, `1e3`) is handed to the general parser alone, so that its reading is
//! the parser's own; one with a letter no number has (`36Gi`, `500m`, a timestamp) is a
//! string.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Number, Value};

use super::kept::{Rule, ALL};
use crate::config::kueue::parse_documents;
use crate::config::{line_end, MAX_FILE_BYTES};

/// Deeper records go to the general parser (its budget is 48 levels).
pub(crate) const MAX_DEPTH: usize = 32;
/// Records with more nodes go to the general parser (its budget is 1,000,000 nodes).
const MAX_NODES: usize = 400_000;
/// Records with more scalars that may be numbers (`1.5`, `0x1F`) than this go to the
/// general parser: each is read by it alone, slower than in a whole record.
const MAX_PARSED: usize = 64;
/// Longer keys go to the general parser (it looks 1,024 characters ahead for a key's `:`).
const MAX_KEY_BYTES: usize = 512;

/// One record (a List's item, its `- ` turned into a space) as [`parse_documents`] reads
/// it, when it is a mapping in the shape this reader knows (`None` otherwise), keeping only
/// what `keep` names (`&ALL`: everything); the rest is read all the same (so that it falls
/// back as the whole would), not built.
pub(crate) fn record_kept(text: &str, keep: &'static Rule) -> Option<Value> {
    if text.len() > MAX_FILE_BYTES || !text.ends_with('\n') || !printable(text.as_bytes()) {
        return None;
    }
    let mut r = R {
        t: text,
        b: text.as_bytes(),
        at: 0,
        pending: None,
        peeked: (usize::MAX, Line { col: 0, s: 0, e: 0 }),
        nodes: 0,
        parsed: 0,
        entries: Vec::new(),
        items: Vec::new(),
    };
    let first = r.peek()?;
    let m = r.map(first.col, 0, Some(keep))?;
    if r.peek().is_some() {
        return None;
    }
    Some(m)
}

/// What of a mapping's field `k` is kept by `rule` (`None`: nothing).
fn field_rule(rule: Option<&'static Rule>, k: &str) -> Option<&'static Rule> {
    let rule = rule?;
    if let Some((_, r)) = rule.fields.iter().find(|(n, _)| *n == k) {
        return Some(r);
    }
    rule.others.then_some(&ALL)
}

/// No tab, carriage return or other control character, no byte order mark, no character
/// YAML 1.1 reads as a line break (NEL, U+2028, U+2029) and no non-character U+FFFE/FFFF.
fn printable(b: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES << 7;
    let mut i = 0;
    while i < b.len() {
        // Eight bytes at a time while they are ASCII from ` ` to `~` or line breaks. Each
        // byte is tested on its own (no carry crosses into the next byte).
        if let Some(w) = b.get(i..i + 8) {
            let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
            let low = w & !HIGH;
            // The high bit of each byte whose low seven bits are `x`.
            let is = |x: u64| !(((low ^ (ONES * x)) + ONES * 0x7f) | (low ^ (ONES * x))) & HIGH;
            // ... whose low seven bits are at least 0x20.
            let from_space = (low + ONES * 0x60) & HIGH;
            let control = !from_space & HIGH & !is(u64::from(b'\n'));
            if (w & HIGH) | control | is(0x7f) == 0 {
                i += 8;
                continue;
            }
        }
        let c = b[i];
        if c < 0x80 {
            if (c < 0x20 && c != b'\n') || c == 0x7f {
                return false;
            }
        } else {
            let bad = match c {
                0xc2 => b.get(i + 1).is_some_and(|&d| d < 0xa0),
                0xe2 => b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xa8 | 0xa9)),
                0xef => matches!(
                    (b.get(i + 1), b.get(i + 2)),
                    (Some(0xbb), Some(0xbf)) | (Some(0xbf), Some(0xbe | 0xbf))
                ),
                _ => false,
            };
            if bad {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// A line (or what is left of one after `- `): the column of its content, where the
/// content starts and where the line ends (its `\n`).
#[derive(Clone, Copy, Debug)]
struct Line {
    col: usize,
    s: usize,
    e: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Chomp {
    Clip,
    Strip,
    Keep,
}

struct R<'a> {
    t: &'a str,
    b: &'a [u8],
    /// The start of the next line not read.
    at: usize,
    /// The rest of a line after a sequence entry's `- `, not read yet.
    pending: Option<Line>,
    /// The last line [`R::peek`] found, and the `at` it was found from (a line is looked
    /// at again by each collection it ends).
    peeked: (usize, Line),
    nodes: usize,
    /// Scalars read by the general parser alone ([`MAX_PARSED`]).
    parsed: usize,
    /// The fields and elements of the mappings and sequences being read (each built at its
    /// end with the room it needs).
    entries: Vec<(String, Value)>,
    items: Vec<Value>,
}

/// The bytes a plain key's reading stops at to look closer (`:`, `#`, flow indicators).
static KEY_STOPS: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let stops = b":#,[]{}";
    while k < stops.len() {
        t[stops[k] as usize] = true;
        k += 1;
    }
    t
};

/// Bytes no plain scalar (or plain key) may start with.
fn indicator(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

impl<'a> R<'a> {
    fn line_end(&self, from: usize) -> usize {
        line_end(self.b, from)
    }

    fn spaces(&self, from: usize, end: usize) -> usize {
        self.b[from..end].iter().take_while(|&&c| c == b' ').count()
    }

    /// The next line with content (blank and comment lines are skipped for good).
    fn peek(&mut self) -> Option<Line> {
        if let Some(p) = self.pending {
            return Some(p);
        }
        if self.peeked.0 == self.at {
            return Some(self.peeked.1);
        }
        let b = self.b;
        while self.at < b.len() {
            let s = past_spaces(b, self.at);
            if matches!(b.get(s), Some(b'\n' | b'#') | None) {
                self.at = self.line_end(s) + 1;
                continue;
            }
            let e = self.line_end(s);
            let l = Line {
                col: s - self.at,
                s,
                e,
            };
            self.peeked = (self.at, l);
            return Some(l);
        }
        None
    }

    /// The line is read: the next starts after it.
    fn take(&mut self, l: Line) {
        self.pending = None;
        self.at = l.e + 1;
    }

    fn node(&mut self, n: usize) -> Option<()> {
        self.nodes += n;
        (self.nodes <= MAX_NODES).then_some(())
    }

    fn is_entry(&self, l: Line) -> bool {
        self.b[l.s] == b'-' && (l.s + 1 == l.e || self.b[l.s + 1] == b' ')
    }

    /// A block mapping whose keys are at `col`, what `keep` keeps of it (`Null` if
    /// nothing).
    fn map(&mut self, col: usize, depth: usize, keep: Option<&'static Rule>) -> Option<Value> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.node(1)?;
        let start = self.entries.len();
        // The keys not kept, for duplicates (a set once there are many).
        let mut seen: Vec<Cow<'a, str>> = Vec::new();
        let mut many: HashSet<Cow<'a, str>> = HashSet::new();
        while let Some(l) = self.peek() {
            if l.col < col {
                break;
            }
            if l.col > col || self.is_entry(l) {
                return None;
            }
            let (k, after) = self.key(l)?;
            self.node(2)?;
            let rule = field_rule(keep, &k);
            let v = self.after_key(l, after, col, depth, rule)?;
            if rule.is_some() {
                self.entries.push((k.into_owned(), v));
            } else if seen.len() < 16 {
                if seen.contains(&k) {
                    return None;
                }
                seen.push(k);
            } else if seen.contains(&k) || !many.insert(k) {
                return None;
            }
        }
        if keep.is_none() {
            return Some(Value::Null);
        }
        let n = self.entries.len() - start;
        let m: Map<String, Value> = self.entries.drain(start..).collect();
        // Fewer fields than read: a key twice.
        (m.len() == n).then_some(Value::Object(m))
    }

    /// A block sequence whose `- ` are at `col`, what `keep` keeps of it.
    fn seq(&mut self, col: usize, depth: usize, keep: Option<&'static Rule>) -> Option<Value> {
        if depth >= MAX_DEPTH {
            return None;
        }
        let each = keep.map(|r| r.each.unwrap_or(&ALL));
        self.node(1)?;
        let start = self.items.len();
        while let Some(l) = self.peek() {
            if l.col < col {
                break;
            }
            if l.col > col {
                return None;
            }
            if !self.is_entry(l) {
                break;
            }
            self.node(1)?;
            let i = l.s + 1 + self.spaces(l.s + 1, l.e);
            if i == l.e || self.b[i] == b'#' {
                self.take(l);
                let v = match self.peek() {
                    Some(n) if n.col > col => self.nested(n, depth, each)?,
                    _ => Value::Null,
                };
                if keep.is_some() {
                    self.items.push(v);
                }
                continue;
            }
            let rest = Line {
                col: l.col + (i - l.s),
                s: i,
                e: l.e,
            };
            let v = match self.b[i] {
                b'-' if self.is_entry(rest) => {
                    self.pending = Some(rest);
                    self.at = l.e + 1;
                    self.seq(rest.col, depth + 1, each)?
                }
                b'"' | b'\'' => {
                    let (s, j) = self.quoted(i, col)?;
                    if self.b.get(j) == Some(&b':') {
                        // A quoted key: the entry is a mapping (its key read again).
                        self.pending = Some(rest);
                        self.at = l.e + 1;
                        self.map(rest.col, depth + 1, each)?
                    } else {
                        self.trail(j)?;
                        if keep.is_some() {
                            Value::String(s.into_owned())
                        } else {
                            Value::Null
                        }
                    }
                }
                _ if self.key(rest).is_some() => {
                    self.pending = Some(rest);
                    self.at = l.e + 1;
                    self.map(rest.col, depth + 1, each)?
                }
                _ => {
                    self.take(l);
                    self.inline_value(i, l.e, col, each.is_some())?
                }
            };
            if keep.is_some() {
                self.items.push(v);
            }
        }
        Some(if keep.is_some() {
            Value::Array(self.items.drain(start..).collect())
        } else {
            Value::Null
        })
    }

    /// A collection on the lines after a `key:` or `-` with nothing after it.
    fn nested(&mut self, n: Line, depth: usize, keep: Option<&'static Rule>) -> Option<Value> {
        if self.is_entry(n) {
            self.seq(n.col, depth + 1, keep)
        } else {
            self.map(n.col, depth + 1, keep)
        }
    }

    /// A key at the start of `l`, and where its `:` ends.
    fn key(&self, l: Line) -> Option<(Cow<'a, str>, usize)> {
        let (b, s, e) = (self.b, l.s, l.e);
        let c = b[s];
        if c == b'"' || c == b'\'' {
            let (k, j) = self.quoted_in(s, usize::MAX, e)?;
            let ok = j - s <= MAX_KEY_BYTES
                && b.get(j) == Some(&b':')
                && (j + 1 == e || b[j + 1] == b' ');
            return ok.then_some((k, j + 1));
        }
        // Not `-x`, `<<` (a merge), nor a key that may be an integer: serde-saphyr compares
        // those by value (`0xB` and `11` are the same key).
        if indicator(c) || matches!(c, b'-' | b'<' | b'+') || c.is_ascii_digit() {
            return None;
        }
        let mut j = s;
        while j < e {
            let c = b[j];
            if KEY_STOPS[usize::from(c)] {
                match c {
                    b':' if j + 1 == e || b[j + 1] == b' ' => break,
                    b'#' if b[j - 1] == b' ' => return None,
                    b',' | b'[' | b']' | b'{' | b'}' => return None,
                    _ => {}
                }
            }
            j += 1;
        }
        if j == e || j - s > MAX_KEY_BYTES || b[j - 1] == b' ' {
            return None;
        }
        let t: &'a str = self.t;
        let k = &t[s..j];
        if matches!(k, "null" | "Null" | "NULL" | "~") {
            return None;
        }
        Some((Cow::Borrowed(k), j + 1))
    }

    /// The value after `key:` (its `:` ends at `after` on line `l`).
    fn after_key(
        &mut self,
        l: Line,
        after: usize,
        col: usize,
        depth: usize,
        keep: Option<&'static Rule>,
    ) -> Option<Value> {
        let i = after + self.spaces(after, l.e);
        if i == l.e || self.b[i] == b'#' {
            self.take(l);
            return match self.peek() {
                Some(n) if n.col > col => self.nested(n, depth, keep),
                Some(n) if n.col == col && self.is_entry(n) => self.seq(col, depth + 1, keep),
                _ => Some(Value::Null),
            };
        }
        self.take(l);
        self.inline_value(i, l.e, col, keep.is_some())
    }

    /// A scalar (or `{}`, `[]`) starting at `i` on a line that ends at `e`, in a collection
    /// at column `p` (its further lines, if any, are indented more); `Null` unless `build`.
    fn inline_value(&mut self, i: usize, e: usize, p: usize, build: bool) -> Option<Value> {
        let b = self.b;
        match b[i] {
            b'|' | b'>' => self.block_scalar(i, e, p).map(Value::String),
            b'"' | b'\'' => {
                let (s, j) = self.quoted(i, p)?;
                self.trail(j)?;
                Some(if build {
                    Value::String(s.into_owned())
                } else {
                    Value::Null
                })
            }
            b'{' | b'[' => {
                let close = if b[i] == b'{' { b'}' } else { b']' };
                if b.get(i + 1) != Some(&close) {
                    return None;
                }
                self.trail(i + 2)?;
                Some(if close == b'}' {
                    Value::Object(Map::new())
                } else {
                    Value::Array(Vec::new())
                })
            }
            _ => self.plain(i, e, p, build),
        }
    }

    /// After a quoted scalar or `{}` ending at `j`: spaces, and a comment after a space, to
    /// the line's end; the next line is read next.
    fn trail(&mut self, j: usize) -> Option<()> {
        let e = self.line_end(j);
        if j < e && self.b[j] != b' ' {
            return None;
        }
        let k = j + self.spaces(j, e);
        if k < e && self.b[k] != b'#' {
            return None;
        }
        self.pending = None;
        self.at = e + 1;
        Some(())
    }

    /// A quoted scalar starting at `i`; its further lines must be indented more than `p`.
    /// The string and where its closing quote ends.
    fn quoted(&self, i: usize, p: usize) -> Option<(Cow<'a, str>, usize)> {
        self.quoted_in(i, p, self.b.len())
    }

    /// As [`Self::quoted`], within `b[..limit]` (a key's line).
    fn quoted_in(&self, i: usize, p: usize, limit: usize) -> Option<(Cow<'a, str>, usize)> {
        let b = self.b;
        let q = b[i];
        let double = q == b'"';
        // Most scalars end on their line without an escape or a doubled quote: the text
        // between the quotes as it is.
        let end = b.len().min(limit);
        let j = find3(b, i + 1, end, q, if double { b'\\' } else { q }, b'\n');
        if j < end && b[j] == q && (double || !(b.get(j + 1) == Some(&b'\'') && j + 1 < limit)) {
            let t: &'a str = self.t;
            return Some((Cow::Borrowed(&t[i + 1..j]), j + 1));
        }
        self.quoted_slow(i, p, limit)
            .map(|(s, j)| (Cow::Owned(s), j))
    }

    /// [`Self::quoted_in`] for any quoted scalar (escapes, doubled quotes, folded lines).
    fn quoted_slow(&self, i: usize, p: usize, limit: usize) -> Option<(String, usize)> {
        let (b, t) = (self.b, self.t);
        let q = b[i];
        let double = q == b'"';
        let mut out = String::new();
        // Spaces at the end of `out` that were written as they are (not escaped): they go
        // when the line is folded.
        let mut raw_trail = 0usize;
        let mut j = i + 1;
        loop {
            if j >= limit {
                return None;
            }
            match b[j] {
                b'\'' if !double => {
                    if b.get(j + 1) == Some(&b'\'') && j + 1 < limit {
                        out.push('\'');
                        raw_trail = 0;
                        j += 2;
                    } else {
                        return Some((out, j + 1));
                    }
                }
                b'"' if double => return Some((out, j + 1)),
                b'\\' if double => {
                    j = escape(b, t, j, &mut out)?;
                    raw_trail = 0;
                }
                b'\n' => {
                    if p == usize::MAX {
                        return None;
                    }
                    out.truncate(out.len() - raw_trail);
                    raw_trail = 0;
                    let mut blanks = 0;
                    let mut k = j + 1;
                    let ind = loop {
                        if k >= limit {
                            return None;
                        }
                        let ke = self.line_end(k);
                        let ind = self.spaces(k, ke);
                        if k + ind == ke {
                            blanks += 1;
                            k = ke + 1;
                            continue;
                        }
                        break ind;
                    };
                    if ind <= p {
                        return None;
                    }
                    if blanks == 0 {
                        out.push(' ');
                    } else {
                        out.extend(std::iter::repeat_n('\n', blanks));
                    }
                    j = k + ind;
                }
                _ => {
                    let start = j;
                    while j < limit {
                        let c = b[j];
                        if c == b'\n'
                            || (double && (c == b'"' || c == b'\\'))
                            || (!double && c == b'\'')
                        {
                            break;
                        }
                        j += 1;
                    }
                    let run = &t[start..j];
                    out.push_str(run);
                    let sp = run.len() - run.trim_end_matches(' ').len();
                    raw_trail = if sp == run.len() { raw_trail + sp } else { sp };
                }
            }
        }
    }

    /// A plain scalar starting at `i` on a line ending at `e`, in a collection at column
    /// `p`: its further lines are indented more.
    fn plain(&mut self, i: usize, e: usize, p: usize, build: bool) -> Option<Value> {
        let (b, t) = (self.b, self.t);
        let c = b[i];
        if indicator(c) || (c == b'-' && (i + 1 == e || b[i + 1] == b' ')) {
            return None;
        }
        let (first, comment) = plain_line(b, t, i, e)?;
        self.pending = None;
        self.at = e + 1;
        if comment {
            return typed(first, build, &mut self.parsed);
        }
        // Lines indented more than the collection continue it (folded with spaces).
        let mut out: Option<String> = None;
        let mut k = e + 1;
        loop {
            let mut blanks = 0;
            let (ks, ke) = loop {
                if k >= b.len() {
                    break (k, k);
                }
                let ke = self.line_end(k);
                let ind = self.spaces(k, ke);
                if k + ind == ke {
                    blanks += 1;
                    k = ke + 1;
                    continue;
                }
                if ind <= p || b[k + ind] == b'#' {
                    break (k, k);
                }
                break (k + ind, ke);
            };
            if ks == ke {
                break;
            }
            let c = b[ks];
            if indicator(c) || c == b'-' {
                return None;
            }
            let (more, comment) = plain_line(b, t, ks, ke)?;
            if comment {
                return None;
            }
            let s = out.get_or_insert_with(|| first.to_string());
            if blanks == 0 {
                s.push(' ');
            } else {
                s.extend(std::iter::repeat_n('\n', blanks));
            }
            s.push_str(more);
            k = ke + 1;
            self.at = k;
        }
        match out {
            Some(s) => Some(Value::String(s)),
            None => typed(first, build, &mut self.parsed),
        }
    }

    /// A block scalar: its header at `i` (`|` or `>`, then `-` or `+`) on a line ending at
    /// `e`, in a collection at column `p`.
    fn block_scalar(&mut self, i: usize, e: usize, p: usize) -> Option<String> {
        let b = self.b;
        let literal = b[i] == b'|';
        let mut j = i + 1;
        let chomp = match b.get(j) {
            Some(b'-') => Chomp::Strip,
            Some(b'+') => Chomp::Keep,
            _ => Chomp::Clip,
        };
        if chomp != Chomp::Clip {
            j += 1;
        }
        if j < e && b[j] != b' ' {
            return None;
        }
        let j = j + self.spaces(j, e);
        if j < e && b[j] != b'#' {
            return None;
        }
        let mut out = String::new();
        let mut m: Option<usize> = None;
        let mut blanks = 0usize;
        let mut lead_max = 0usize;
        let mut any = false;
        let mut k = e + 1;
        while k < b.len() {
            let ke = self.line_end(k);
            let ind = self.spaces(k, ke);
            if k + ind == ke {
                match m {
                    Some(m) if ind > m => return None,
                    _ => lead_max = lead_max.max(ind),
                }
                blanks += 1;
                k = ke + 1;
                continue;
            }
            let mm = match m {
                Some(m) => m,
                None => {
                    if ind <= p {
                        break;
                    }
                    if lead_max > ind {
                        return None;
                    }
                    m = Some(ind);
                    ind
                }
            };
            if ind < mm {
                break;
            }
            if literal {
                let breaks = if any { 1 + blanks } else { blanks };
                out.extend(std::iter::repeat_n('\n', breaks));
            } else {
                if ind > mm || (!any && blanks > 0) {
                    return None;
                }
                if any {
                    if blanks == 0 {
                        out.push(' ');
                    } else {
                        out.extend(std::iter::repeat_n('\n', blanks));
                    }
                }
            }
            out.push_str(&self.t[k + mm..ke]);
            any = true;
            blanks = 0;
            k = ke + 1;
        }
        if !any {
            if blanks > 0 {
                return None;
            }
        } else {
            match chomp {
                Chomp::Strip => {}
                Chomp::Clip => out.push('\n'),
                Chomp::Keep => out.extend(std::iter::repeat_n('\n', 1 + blanks)),
            }
        }
        self.pending = None;
        self.at = k.min(b.len());
        Some(out)
    }
}

/// Where the spaces from `b[from]` end, eight bytes at a time.
fn past_spaces(b: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut i = from;
    while let Some(w) = b.get(i..i + 8) {
        // Zero bytes are spaces: the lowest other byte is the first that is not.
        let x = u64::from_le_bytes(w.try_into().unwrap_or([0; 8])) ^ (ONES * u64::from(b' '));
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

/// The first place in `b[from..end]` that holds `x`, `y` or `z` (`end` if none), eight
/// bytes at a time.
fn find3(b: &[u8], from: usize, end: usize, x: u8, y: u8, z: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES << 7;
    let zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
    let mut i = from;
    while i + 8 <= end {
        let w = u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        // The lowest flagged byte of each is a true match (a false one is only above one).
        let m = zero(w ^ (ONES * u64::from(x)))
            | zero(w ^ (ONES * u64::from(y)))
            | zero(w ^ (ONES * u64::from(z)));
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < end && b[i] != x && b[i] != y && b[i] != z {
        i += 1;
    }
    i
}

/// A plain scalar's text on one line from `i` to `e`: up to a comment (then `true`), without
/// trailing spaces; `None` if it holds `: ` or ends with `:` (not a scalar).
fn plain_line<'t>(b: &[u8], t: &'t str, i: usize, e: usize) -> Option<(&'t str, bool)> {
    let mut j = i;
    let mut comment = false;
    while j < e {
        match b[j] {
            b':' if j + 1 == e || b[j + 1] == b' ' => return None,
            b'#' if b[j - 1] == b' ' => {
                comment = true;
                break;
            }
            _ => {}
        }
        j += 1;
    }
    Some((t[i..j].trim_end_matches(' '), comment))
}

/// A one-line plain scalar typed as serde-saphyr types it into a `Value` (a string only
/// when `build`; else `Null`); `parsed` counts the scalars handed to the general parser.
fn typed(s: &str, build: bool, parsed: &mut usize) -> Option<Value> {
    let string = || {
        Some(if build {
            Value::String(s.to_string())
        } else {
            Value::Null
        })
    };
    match s {
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        "null" | "Null" | "NULL" | "~" => return Some(Value::Null),
        _ => {}
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    match unsigned.as_bytes().first() {
        Some(c) if c.is_ascii_digit() => {}
        // `.5`, `.inf`, `-.nan`...
        Some(b'.') => return by_parser(s, parsed),
        _ => return string(),
    }
    // A decimal integer without a sign `+` or a leading zero.
    let digits = s.strip_prefix('-').unwrap_or(s);
    let decimal =
        digits.bytes().all(|c| c.is_ascii_digit()) && (digits == "0" || !digits.starts_with('0'));
    if decimal {
        let n = if s.starts_with('-') {
            s.parse::<i64>().ok().map(Number::from)
        } else {
            s.parse::<u64>().ok().map(Number::from)
        };
        if let Some(n) = n {
            return Some(Value::Number(n));
        }
    }
    // No integer or float of any radix has a byte outside these: a string.
    let number_bytes = s.bytes().all(|c| {
        c.is_ascii_hexdigit() || matches!(c, b'x' | b'X' | b'o' | b'O' | b'.' | b'_' | b'+' | b'-')
    });
    if !number_bytes {
        return string();
    }
    by_parser(s, parsed)
}

/// A plain scalar that may be a number, read by the general parser, alone; past
/// [`MAX_PARSED`] of a record, the record is (faster, whole).
fn by_parser(s: &str, parsed: &mut usize) -> Option<Value> {
    *parsed += 1;
    if *parsed > MAX_PARSED {
        return None;
    }
    let docs = parse_documents(&format!("k: {s}\n")).ok()?;
    match docs.as_slice() {
        [Value::Object(m)] if m.len() == 1 => m.get("k").cloned(),
        _ => None,
    }
}

/// The escape at `b[j]` (a `\`) of a double-quoted scalar, written to `out`; where it ends.
fn escape(b: &[u8], t: &str, j: usize, out: &mut String) -> Option<usize> {
    let hex = |from: usize, n: usize| -> Option<u32> {
        let h = t.get(from..from + n)?;
        if !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(h, 16).ok()
    };
    let c = match *b.get(j + 1)? {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b't' => '\t',
        b'n' => '\n',
        b'v' => '\x0b',
        b'f' => '\x0c',
        b'r' => '\r',
        b'e' => '\x1b',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b'x' => {
            out.push(char::from_u32(hex(j + 2, 2)?)?);
            return Some(j + 4);
        }
        b'u' => {
            let v = hex(j + 2, 4)?;
            if (0xd800..0xdc00).contains(&v) {
                // A surrogate pair, as JSON writes characters outside the BMP.
                if b.get(j + 6) != Some(&b'\\') || b.get(j + 7) != Some(&b'u') {
                    return None;
                }
                let lo = hex(j + 8, 4)?;
                if !(0xdc00..0xe000).contains(&lo) {
                    return None;
                }
                out.push(char::from_u32(
                    0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00),
                )?);
                return Some(j + 12);
            }
            out.push(char::from_u32(v)?);
            return Some(j + 6);
        }
        b'U' => {
            out.push(char::from_u32(hex(j + 2, 8)?)?);
            return Some(j + 10);
        }
        _ => return None,
    };
    out.push(c);
    Some(j + 2)
}

#[cfg(test)]
mod tests {
    use super::super::kept::{KueueRecord, RECORD};
    use super::*;
    use crate::config::yaml_out;
    use proptest::prelude::*;
    use serde_json::json;

    /// The whole record.
    fn record(text: &str) -> Option<Value> {
        record_kept(text, &ALL)
    }

    /// The general parser's reading of a one-document text.
    fn general(text: &str) -> Option<Value> {
        let docs = parse_documents(text).ok()?;
        match <[Value; 1]>::try_from(docs) {
            Ok([v]) => Some(v),
            Err(_) => None,
        }
    }

    /// Read by this reader, and the same as the general parser (order of keys too).
    #[track_caller]
    fn same(text: &str) -> Value {
        let slow = general(text).unwrap_or_else(|| panic!("the general parser: {text:?}"));
        let fast = record(text).unwrap_or_else(|| panic!("fell back: {text:?}"));
        assert_eq!(fast, slow, "{text:?}");
        assert_eq!(fast.to_string(), slow.to_string(), "{text:?}");
        fast
    }

    /// Left to the general parser.
    #[track_caller]
    fn falls_back(text: &str) {
        assert_eq!(record(text), None, "{text:?}");
    }

    /// Never read differently: either left to the general parser or the same value.
    /// And what the history keeps of a record (`stream::kept::RECORD`) is what it keeps of
    /// the general parser's value, and falls back as the whole does.
    fn never_differs(text: &str) -> Result<bool, TestCaseError> {
        let kept = record_kept(text, &RECORD);
        match record(text) {
            None => {
                prop_assert_eq!(kept, None, "{:?}", text);
                Ok(false)
            }
            Some(fast) => {
                let slow = general(text);
                prop_assert_eq!(Some(&fast), slow.as_ref(), "{:?}", text);
                let slow = slow.unwrap();
                prop_assert_eq!(fast.to_string(), slow.to_string());
                let want = serde_json::from_value::<KueueRecord>(slow).unwrap().0;
                let kept = kept.unwrap_or_else(|| panic!("kept fell back: {text:?}"));
                prop_assert_eq!(kept.to_string(), want.to_string(), "{:?}", text);
                Ok(true)
            }
        }
    }

    #[test]
    fn plain_scalars_are_typed_as_the_general_parser_types_them() {
        for s in [
            "1",
            "0",
            "-0",
            "-5",
            "42",
            "1.0",
            "0777",
            "012",
            "-012",
            "00",
            "0.",
            "1.",
            "1e3",
            "1E3",
            "1e+3",
            "1.5e3",
            ".5",
            "+.5",
            "+5",
            "0x1F",
            "0X1F",
            "0o17",
            "0b11",
            "1_000",
            "1__0",
            "1_",
            "_1",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "9223372036854775808",
            "1e",
            "+",
            "--",
            "---",
            "-a",
            "yes",
            "no",
            "on",
            "off",
            "y",
            "n",
            "tRue",
            "true",
            "True",
            "TRUE",
            "false",
            "False",
            "FALSE",
            "null",
            "Null",
            "NULL",
            "nULL",
            "~",
            "inf",
            "nan",
            "+inf",
            "-nan",
            "infinity",
            "1:30",
            "2026-01-02",
            "2026-01-02T03:04:05Z",
            "36Gi",
            "500m",
            "1.5Gi",
            "a,b",
            "a[0]",
            "a]",
            "a}",
            "a#c",
            "a'b",
            "a\"b",
            "é",
            "日本",
            "😀",
            "a b  c",
            "x=y",
            "/path",
            "a:b",
            "http://x.y/z",
            "1-2",
            "0x",
            "0xG",
            "1.2.3",
            "1e5e5",
            "-.5",
            "+1_0",
        ] {
            let v = same(&format!("k: {s}\n"));
            // Inside a sequence, and as a List item's record, too.
            same(&format!("k:\n- {s}\n- x\n"));
            same(&format!("  a: 1\n  k:\n  - {s}\n  z: {s}\n"));
            let _ = v;
        }
        same("k: a   # a comment\nl: 1 #c\n");
    }

    #[test]
    fn bytes_are_tested_eight_at_a_time_as_one_at_a_time() {
        let plain = |b: &[u8]| {
            std::str::from_utf8(b).is_ok_and(|t| {
                t.chars().all(|c| {
                    (c == '\n' || (c >= ' ' && c != '\x7f'))
                        && !matches!(c, '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}')
                        && !matches!(c, '\u{feff}' | '\u{fffe}' | '\u{ffff}')
                })
            })
        };
        let alphabet: Vec<&[u8]> = vec![
            b"a",
            b" ",
            b"\n",
            b"\t",
            b"\r",
            b"\x7f",
            b"\x00",
            b"\x1f",
            b"~",
            b":",
            b"'",
            b"\"",
            b"\\",
            "\u{e9}".as_bytes(),
            "\u{85}".as_bytes(),
            "\u{2028}".as_bytes(),
            "\u{feff}".as_bytes(),
            "\u{a0}".as_bytes(),
        ];
        let mut seed = 11u32;
        for len in 0..200 {
            let mut b = Vec::new();
            for _ in 0..len {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                // Mostly letters, so that long runs reach the eight-byte tests.
                let k = (seed >> 16) as usize % (alphabet.len() * 4);
                b.extend_from_slice(alphabet.get(k).copied().unwrap_or(b"x"));
            }
            assert_eq!(
                printable(&b),
                plain(&b),
                "{:?}",
                String::from_utf8_lossy(&b)
            );
            for from in [0, len.min(5)] {
                let spaces = b[from..].iter().take_while(|&&c| c == b' ').count();
                assert_eq!(past_spaces(&b, from), from + spaces);
            }
            let runs = format!("{}x{}", " ".repeat(len % 21), " ".repeat(len / 10));
            let spaces = len % 21;
            assert_eq!(past_spaces(runs.as_bytes(), 0), spaces);
            assert_eq!(past_spaces(runs.as_bytes(), spaces + 1), runs.len());
            for (x, y, z) in [(b'"', b'\\', b'\n'), (b'\'', b'\'', b'\n')] {
                let one = b.iter().position(|&c| c == x || c == y || c == z);
                for from in [0, len.min(3)] {
                    let want = b[from..]
                        .iter()
                        .position(|&c| c == x || c == y || c == z)
                        .map_or(b.len(), |k| from + k);
                    assert_eq!(find3(&b, from, b.len(), x, y, z), want, "{one:?}");
                }
            }
        }
    }

    #[test]
    fn many_numbers_read_by_the_general_parser_send_the_record_to_it() {
        let floats = |n: usize| (0..n).map(|i| format!("- {i}.5\n")).collect::<String>();
        let v = same(&format!("k:\n{}", floats(MAX_PARSED)));
        assert_eq!(v["k"][1], json!(1.5));
        falls_back(&format!("k:\n{}", floats(MAX_PARSED + 1)));
        // Decimal integers are read here, any number of them.
        let ints: String = (0..10 * MAX_PARSED).map(|i| format!("- {i}\n")).collect();
        same(&format!("k:\n{ints}"));
    }

    #[test]
    fn numbers_the_general_parser_refuses_fall_back() {
        for s in [".inf", "-.inf", ".nan", "1e999", "-.Inf"] {
            assert!(general(&format!("k: {s}\n")).is_none(), "{s}");
            falls_back(&format!("k: {s}\n"));
        }
    }

    #[test]
    fn quoted_scalars_and_escapes() {
        for s in [
            "''",
            "'123'",
            "'a''b'",
            "'a # b'",
            "'a: b'",
            "' lead and trail '",
            "'true'",
            "\"\"",
            "\"1.0\"",
            "\"a\\\"b\\\\c\\/d\"",
            "\"\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\N\\_\\L\\P\"",
            "\"\\x41\\xe9\\xFF\"",
            "\"\\u00e9\\u00E9\\u0000\\u001f\"",
            "\"\\ud83d\\ude00\\U0001F600\"",
            "\"é 日本 😀 \\t tab\"",
            "\"a # b\"",
            "\"2026-03-02T08:00:00Z\"",
        ] {
            same(&format!("k: {s}\n"));
            same(&format!("k: {s}   # comment\n"));
            same(&format!("s:\n- {s}\n- {s} #c\n"));
        }
        // Escapes the general parser refuses, or that this reader leaves to it.
        for s in [
            "\"\\ud83d\"",
            "\"\\ude00\"",
            "\"\\q\"",
            "\"\\x4\"",
            "\"\\U0011FFFF\"",
        ] {
            falls_back(&format!("k: {s}\n"));
        }
        // Not a scalar alone on its line.
        for text in [
            "k: 'x'y\n",
            "k: \"x\"#c\n",
            "k: 'x' y\n",
            "k: 'x\n",
            "k: \"x\n",
        ] {
            falls_back(text);
        }
    }

    #[test]
    fn quoted_scalars_over_several_lines_are_folded() {
        // As kubectl (go-yaml) wraps a long message at 80 columns.
        same("  conditions:\n    - lastTransitionTime: \"2026-03-02T09:00:00Z\"\n      message: 'Previously: Preempted to accommodate a workload (UID: 6c0e1f4a,\n        JobUID: 6c0e1f4a-2b3d) due to reclamation within the\n        cohort'\n      reason: QuotaReserved\n");
        same("k: 'a b\n  c'\n");
        same("k: 'a   \n   \n   b  \n\n  c'\n");
        same("k: \"a\\t\n  b\"\n");
        same("k: \"a\\ \n  b\"\n");
        same("k: \"a  \n  b\\n\n\n  c\"\nz: 1\n");
        same("s:\n- 'q one\n  two'\n- \"x\n   y\"\n");
        same("m:\n  k: 'a\n   b'\n");
        same("k: 'a\n\n\n  # not a comment\n  b'\n");
        // Continuation lines not indented past their collection, and escaped line breaks.
        falls_back("k: 'a\nb'\n");
        falls_back("m:\n  k: 'a\n  b'\n");
        falls_back("k: \"a \\\n  b\"\n");
    }

    #[test]
    fn plain_scalars_over_several_lines_are_folded() {
        same("k: plain one\n  two\n\n  three\nz: 1\n");
        same("k: plain one\n two\n");
        same("s:\n- plain one\n  two\n- 3\n");
        same("s:\n- plain one\n two\n");
        same("k: 1\n  2\n");
        same("k: true\n  false\n");
        same("k: a\n\n  # a comment\nz: 1\n");
        falls_back("k: plain # c\n  more\n");
        falls_back("k: a\n  - b\n");
        falls_back("k: a\n  b: c\n");
        falls_back("k: a\n  b #c\n");
        falls_back("k:\n  plain\n");
    }

    #[test]
    fn block_scalars() {
        for text in [
            "k: |\n  lit\n",
            "k: |\n lit\n",
            "k: |\n  a\n    b\n\n  c\n\n\nz: 1\n",
            "k: |+\n  a\n\n\n",
            "k: |+\n  a\n\n# c\nx: 1\n",
            "k: |-\n  a\n\n",
            "k: |-\n  a\n  b\nz: 2\n",
            "k: >\n  a\n  b\n\n  c\n  e\n",
            "k: >-\n  a\n  b\n",
            "k: >+\n  a\n  b\n\n",
            "k: |\n\n  a\n",
            "k: |\n  a\nx: 1\n",
            "k: |\n  a\n # c\nx: 1\n",
            "k: |\n  a\n\n# c\nx: 1\n",
            "k: | # c\n  a\n",
            "k: |\n",
            "k: |\nx: 1\n",
            "k: |\n  # not a comment\n  {\"apiVersion\": \"v1\", \"a\": [1, 2]}\n",
            "s:\n- |\n  lit\n  more\n\n- |-\n  x\n",
            "s:\n- |\n lit\n",
            "  metadata:\n    annotations:\n      kubectl.kubernetes.io/last-applied-configuration: |\n        {\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\"}\n    name: w\n",
        ] {
            same(text);
        }
        for text in [
            "k: |\n   \n  a\n",
            "k: |2\n   a\n",
            "k: |x\n  a\n",
            "k: >\n  a\n   more\n  b\n",
            "k: >\n\n  a\n",
            "k: |\n  a\n     \nz: 1\n",
            "k: |+\n\n",
        ] {
            falls_back(text);
        }
    }

    #[test]
    fn collections_keys_and_comments() {
        same("  a: 1\n  b:\n  - x\n  - y\n  c: 2\n");
        same("  a: 1\n  b:\n    - x\n    - y\n  c: 2\n");
        same("a:\n- - a\n  - b\n- c\n- - - d\n");
        same("a:\n-\n  k: v\n-\n  - x\n-\n- z\n");
        same("a:\n-   k: v\n    l: w\n- k: 'q'\n  l: \"r\"\n");
        same("a:\n- 'k': v\n  \"l\": w\n");
        same("k: {}\nl: []\nm: {}   # c\nn: null\no: ~\np:\nq: \n");
        same("# head\nk: v # c\n# between\n\n   # odd\nl:\n  # inside\n  m: 1\n");
        same(
            "true: 1\nTrue: 2\nyes: 4\n\"null\": 5\n'~': 6\n\"0x1F\": 8\na b: 9\na:b: 10\n~x: 11\n",
        );
        same("a\"b: 1\na'c: 2\n\"123\": 3\n'1.5': 4\n");
        same("nvidia.com/gpu: \"8\"\napp.kubernetes.io/name: x\n\"k\\n\": 1\n'it''s': 2\n");
        same(" \n  a: 1\n");
        same("k: -1\nl: -x\n");
        same("k:  \"x\"   # c\n");
        // Shapes the general parser reads otherwise, or refuses, or that are not kubectl's.
        for text in [
            "null: v\n",
            "~: v\n",
            // Keys that may be integers are compared by value, and a quoted key is not the
            // same as a plain one.
            "0xB: a\n11: b\n",
            "123: 1\n",
            "1.5: 1\n",
            "+1: 1\n",
            "\"11\": a\n11: b\n",
            "<<: {a: 1}\n",
            "? a\n: b\n",
            "a: 1\na: 2\n",
            "k: [a]\n",
            "k: {a: 1}\n",
            "k: { }\n",
            "k: &a 1\n",
            "k: *a\n",
            "k: !!str 1\n",
            "k: a\tb\n",
            "k: a\r\n",
            "k: -\n",
            "k: - x\n",
            "k: x: y\n",
            "k: %x\n",
            "k: @x\n",
            "k: `x\n",
            "- a\n",
            "scalar\n",
            "k: v\n  l: w\n",
            "k:\n    a: 1\n  b: 2\n",
            "k: v\n- x\n",
            "a[0]: 1\n",
            "a : 1\n",
            "-x: 1\n",
            "k: v",
            "k: \u{feff}x\n",
            "k: a\u{2028}b\n",
            "k: a\u{85}b\n",
            "k: \"a\u{7f}\"\n",
            "",
            "# only a comment\n",
        ] {
            falls_back(text);
        }
        let long = "k".repeat(MAX_KEY_BYTES + 1);
        falls_back(&format!("{long}: 1\n"));
        same(&format!("{}: 1\n", &long[1..]));
    }

    #[test]
    fn deep_nesting_falls_back_without_recursing_far() {
        let nested = |depth: usize, seq: bool| {
            let mut text = String::new();
            for d in 0..depth {
                let pad = " ".repeat(2 * d);
                if seq {
                    text.push_str(&format!("{pad}k{d}:\n{pad}-\n"));
                    text = text.replacen(&format!("{pad}-\n"), &format!("{pad}- \n"), 0);
                } else {
                    text.push_str(&format!("{pad}k{d}:\n"));
                }
            }
            text.push_str(&format!("{}x: 1\n", " ".repeat(2 * depth)));
            text
        };
        same(&nested(MAX_DEPTH - 1, false));
        falls_back(&nested(MAX_DEPTH, false));
        falls_back(&nested(10_000, false));
        // Sequences in sequences, as deep.
        let mut deep = String::from("k:\n");
        for d in 0..MAX_DEPTH + 5 {
            deep.push_str(&" ".repeat(2 * d));
            deep.push_str("-\n");
        }
        falls_back(&deep);
        let _ = nested(3, true);
    }

    #[test]
    fn the_fixture_and_the_generated_history_are_read_without_falling_back() {
        let fixture = include_str!("../../../../cli/tests/history/kueue-workloads.yaml");
        for (name, text) in [
            ("fixture", fixture.to_string()),
            ("generated", generated_list(fixture, 50)),
        ] {
            let mut r = super::super::HistoryReader::new(name, 0, false, "nvidia.com/gpu");
            r.push(text.as_bytes());
            r.finish();
            assert!(r.records() >= 7, "{name}: {}", r.records());
            assert_eq!(r.yaml_fallbacks(), 0, "{name}");
            // And each item, as the reader cuts it, is the general parser's value, and the
            // general parser's item in the whole List.
            let all = general(&text).unwrap();
            let items = all["items"].as_array().unwrap();
            let texts = item_texts(&text);
            assert_eq!(texts.len(), items.len());
            for (t, item) in texts.iter().zip(items) {
                assert_eq!(same(t), *item);
                let kept = record_kept(t, &RECORD).unwrap();
                let want = serde_json::from_value::<KueueRecord>(item.clone())
                    .unwrap()
                    .0;
                assert_eq!(kept.to_string(), want.to_string());
                assert!(kept.to_string().len() < item.to_string().len());
            }
        }
    }

    /// The items of a List printed at column 0, each as the history reader cuts it.
    fn item_texts(text: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut inside = false;
        for line in text.split_inclusive('\n') {
            if line.starts_with("items:") {
                inside = true;
            } else if inside && line.starts_with('-') {
                out.push(format!(" {}", &line[1..]));
            } else if inside && line.starts_with([' ', '#', '\n']) {
                out.last_mut().unwrap().push_str(line);
            } else {
                inside = false;
            }
        }
        out
    }

    /// `n` items of the fixture as `history_gen` prints a List (JSON-quoted strings).
    fn generated_list(fixture: &str, n: usize) -> String {
        let docs = parse_documents(fixture).unwrap();
        let items = docs[0]["items"].as_array().unwrap();
        let list: Vec<Value> = (0..n).map(|k| items[k % items.len()].clone()).collect();
        let mut out = String::new();
        gen_emit(
            &json!({"apiVersion": "v1", "items": list, "kind": "List"}),
            0,
            &mut out,
        );
        out
    }

    /// As `examples/history_gen.rs` writes YAML: every string double-quoted as JSON.
    fn gen_emit(v: &Value, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        let scalar = |x: &Value| match x {
            Value::Object(_) => "{}".to_string(),
            Value::Array(_) => "[]".to_string(),
            other => other.to_string(),
        };
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    out.push_str(&format!("{pad}{k}:"));
                    match x {
                        Value::Object(o) if !o.is_empty() => {
                            out.push('\n');
                            gen_emit(x, indent + 2, out);
                        }
                        Value::Array(a) if !a.is_empty() => {
                            out.push('\n');
                            gen_emit(x, indent, out);
                        }
                        _ => out.push_str(&format!(" {}\n", scalar(x))),
                    }
                }
            }
            Value::Array(a) => {
                for x in a {
                    match x {
                        Value::Object(o) if !o.is_empty() => {
                            let mut inner = String::new();
                            gen_emit(x, indent + 2, &mut inner);
                            out.push_str(&format!("{pad}- {}", &inner[indent + 2..]));
                        }
                        _ => out.push_str(&format!("{pad}- {}\n", scalar(x))),
                    }
                }
            }
            _ => out.push_str(&format!("{pad}{}\n", scalar(v))),
        }
    }

    // ------------------------------------------------------------ random values

    /// Strings made to trouble a YAML writer and reader: quotes, colons, `#`, leading
    /// spaces, line breaks, unicode, text that looks like a number, boolean or null.
    fn tricky_string() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z]{1,8}",
            prop::sample::select(vec![
                "true",
                "False",
                "yes",
                "on",
                "null",
                "~",
                "",
                " ",
                "1",
                "-1",
                "1.5",
                "0777",
                "0x1F",
                "1e3",
                ".5",
                "36Gi",
                "500m",
                "2026-01-02T03:04:05Z",
                "'123'",
                "-",
                "- x",
                "a: b",
                "#c",
                "a #c",
                "{}",
                "[]",
                "&a",
                "*a",
                "!t",
                "|",
                ">",
                "%",
                "@",
                "`",
                "a\nb",
                "a\n",
                "a\n\n",
                "\n",
                " lead",
                "trail ",
                "é",
                "😀",
                "\u{85}",
                "\u{2028}",
                "\u{feff}",
                "\t",
                "a\u{7f}",
            ])
            .prop_map(str::to_string),
            prop::collection::vec(
                prop::sample::select(vec![
                    "a", "b", "Z", "0", "9", " ", "  ", ":", ": ", "#", " #", "'", "\"", "\\", "-",
                    ".", "/", ",", "[", "]", "{", "}", "\n", "é", "日", "😀", "\t", "x=",
                ]),
                0..12
            )
            .prop_map(|parts| parts.concat()),
        ]
    }

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => "[a-z][a-zA-Z0-9]{0,6}",
            1 => prop::sample::select(vec!["nvidia.com/gpu", "app.kubernetes.io/name", "kubectl.kubernetes.io/last-applied-configuration"]).prop_map(str::to_string),
            // The fields the history keeps of a record, or not.
            3 => prop::sample::select(vec![
                "metadata", "spec", "status", "name", "namespace", "creationTimestamp", "labels",
                "podSets", "template", "containers", "initContainers", "resources", "requests",
            ]).prop_map(str::to_string),
            1 => tricky_string(),
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            any::<u64>().prop_map(|n| json!(n)),
            (-1e6f64..1e6).prop_map(|f| json!(f)),
            tricky_string().prop_map(Value::String),
            Just(json!({})),
            Just(json!([])),
        ];
        leaf.prop_recursive(6, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 1..5).prop_map(Value::Array),
                prop::collection::vec((key(), inner), 1..6)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    /// A record: a mapping.
    fn record_value() -> impl Strategy<Value = Value> {
        prop::collection::vec((key(), value()), 1..6)
            .prop_map(|kv| Value::Object(kv.into_iter().collect()))
    }

    /// No character this reader leaves to the general parser (control characters but the
    /// line break, NEL, U+2028, U+2029, U+FEFF, DEL, tabs), and no key that may be written
    /// plain and start with a digit or `+` (it may be an integer).
    fn clean(v: &Value) -> bool {
        let ok = |s: &str| printable(s.as_bytes());
        let key_ok = |k: &str| ok(k) && !k.starts_with(|c: char| c.is_ascii_digit() || c == '+');
        match v {
            Value::String(s) => ok(s),
            Value::Array(a) => a.iter().all(clean),
            Value::Object(m) => m.iter().all(|(k, x)| key_ok(k) && clean(x)),
            _ => true,
        }
    }

    /// Indents every line (a List item's record: its `- ` becomes two spaces).
    fn indented(text: &str, n: usize) -> String {
        let pad = " ".repeat(n);
        text.split_inclusive('\n')
            .map(|l| {
                if l == "\n" {
                    l.to_string()
                } else {
                    format!("{pad}{l}")
                }
            })
            .collect()
    }

    /// Another writer of the same values, as go-yaml may write them: sequences indented
    /// under their key or not, strings single-quoted, double-quoted or literal and wrapped
    /// over lines, comments after values. `style` picks among the choices.
    fn variant(v: &Value, style: u64) -> String {
        let mut out = String::new();
        let mut w = Variant { style, n: 0 };
        if let Value::Object(m) = v {
            w.map(&mut out, m, 0, false);
        }
        out
    }

    struct Variant {
        style: u64,
        n: u64,
    }

    impl Variant {
        fn pick(&mut self, k: u64) -> u64 {
            self.n += 1;
            (self
                .style
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(self.n as u32 * 7)
                ^ self.n)
                % k
        }

        fn key(&mut self, k: &str) -> String {
            let plain = k.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-' | '_'))
                && !matches!(k, "null" | "Null" | "NULL");
            if plain && self.pick(4) > 0 {
                k.to_string()
            } else if !k.contains(['\n', '\'']) && self.pick(2) == 0 {
                format!("'{k}'")
            } else {
                Value::String(k.to_string()).to_string()
            }
        }

        fn map(&mut self, out: &mut String, m: &Map<String, Value>, col: usize, inline: bool) {
            for (i, (k, v)) in m.iter().enumerate() {
                if !(inline && i == 0) {
                    out.push_str(&" ".repeat(col));
                }
                out.push_str(&self.key(k));
                out.push(':');
                match v {
                    Value::Object(o) if !o.is_empty() => {
                        self.comment(out);
                        out.push('\n');
                        self.map(out, o, col + 2, false);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        self.comment(out);
                        out.push('\n');
                        let at = if self.pick(2) == 0 { col } else { col + 2 };
                        self.seq(out, a, at);
                    }
                    _ => {
                        out.push(' ');
                        self.scalar(out, v, col);
                    }
                }
            }
        }

        fn seq(&mut self, out: &mut String, a: &[Value], col: usize) {
            for v in a {
                out.push_str(&" ".repeat(col));
                out.push('-');
                match v {
                    Value::Object(o) if !o.is_empty() => {
                        if self.pick(4) == 0 {
                            out.push('\n');
                            self.map(out, o, col + 2, false);
                        } else {
                            out.push(' ');
                            self.map(out, o, col + 2, true);
                        }
                    }
                    Value::Array(inner) if !inner.is_empty() => {
                        out.push('\n');
                        self.seq(out, inner, col + 2);
                    }
                    _ => {
                        out.push(' ');
                        self.scalar(out, v, col);
                    }
                }
            }
        }

        fn comment(&mut self, out: &mut String) {
            if self.pick(6) == 0 {
                out.push_str(" # note: 'x' \"y\"");
            }
        }

        /// A scalar after `key: ` or `- ` in a collection at `col`, with its line break.
        fn scalar(&mut self, out: &mut String, v: &Value, col: usize) {
            let s = match v {
                Value::String(s) => s,
                Value::Object(_) => return self.end(out, "{}"),
                Value::Array(_) => return self.end(out, "[]"),
                other => return self.end(out, &other.to_string()),
            };
            let pad = " ".repeat(col + 2);
            let lines: Vec<&str> = s.split('\n').collect();
            match self.pick(4) {
                // Literal, when the lines allow it.
                // (Not with a line of spaces alone: this reader leaves those to the parser.)
                0 if s.contains('\n')
                    && !s.trim_matches('\n').is_empty()
                    && !s
                        .split('\n')
                        .any(|l| !l.is_empty() && l.trim_matches(' ').is_empty())
                    && !s.trim_start_matches('\n').starts_with(' ')
                    && !s.contains('\t') =>
                {
                    let body = s.trim_end_matches('\n');
                    let trailing = s.len() - body.len();
                    let head = match trailing {
                        0 => "|-",
                        1 => "|",
                        _ => "|+",
                    };
                    out.push_str(head);
                    out.push('\n');
                    for l in body.split('\n') {
                        if !l.is_empty() {
                            out.push_str(&pad);
                            out.push_str(l);
                        }
                        out.push('\n');
                    }
                    for _ in 1..trailing {
                        out.push('\n');
                    }
                }
                // Single-quoted, folded at its spaces and line breaks.
                1 if !lines.iter().any(|l| l.starts_with(' ') || l.ends_with(' '))
                    || !s.contains('\n') =>
                {
                    let q = s.replace('\'', "''");
                    let mut text = String::from("'");
                    for (i, l) in q.split('\n').enumerate() {
                        if i > 0 {
                            text.push_str("\n\n");
                            text.push_str(&pad);
                        }
                        text.push_str(&self.wrap(l, &pad));
                    }
                    text.push('\'');
                    self.end(out, &text);
                }
                // Double-quoted (JSON), folded at its spaces.
                2 => {
                    let q = Value::String(s.clone()).to_string();
                    let text = self.wrap(&q, &pad);
                    self.end(out, &text);
                }
                _ => {
                    let mut text = String::new();
                    yaml_out::document(&mut text, v);
                    if text.contains('\n') && text.trim_end_matches('\n').contains('\n') {
                        // A literal block at level 0: indented to the collection.
                        out.push_str(&indented(&text, col + 2)[col + 2..]);
                    } else {
                        self.end(out, text.trim_end_matches('\n'));
                    }
                }
            }
        }

        /// Breaks some single spaces between words into a line break and `pad`.
        fn wrap(&mut self, s: &str, pad: &str) -> String {
            let b = s.as_bytes();
            let mut out = String::new();
            let mut last = 0;
            for i in 1..b.len().saturating_sub(1) {
                if b[i] == b' ' && b[i - 1] != b' ' && b[i + 1] != b' ' && self.pick(3) == 0 {
                    out.push_str(&s[last..i]);
                    out.push('\n');
                    out.push_str(pad);
                    last = i + 1;
                }
            }
            out.push_str(&s[last..]);
            out
        }

        fn end(&mut self, out: &mut String, text: &str) {
            out.push_str(text);
            self.comment(out);
            out.push('\n');
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// The engine's own kubectl-style writer: every record read, as the general parser
        /// reads it, at column 0 and as a List item.
        #[test]
        fn the_engines_yaml_is_read_as_the_general_parser_reads_it(v in record_value()) {
            let mut text = String::new();
            yaml_out::document(&mut text, &v);
            for t in [text.clone(), indented(&text, 2)] {
                let read = never_differs(&t)?;
                if clean(&v) {
                    prop_assert!(read, "fell back: {:?}", t);
                }
            }
        }

        /// Other writers' choices (indented sequences, quotes, wrapped strings, comments).
        #[test]
        fn other_block_yaml_is_read_as_the_general_parser_reads_it(
            v in record_value(), style in any::<u64>()
        ) {
            let text = variant(&v, style);
            for t in [text.clone(), indented(&text, 2)] {
                let read = never_differs(&t)?;
                if clean(&v) && general(&t).is_some() {
                    prop_assert!(read, "fell back: {:?}", t);
                }
            }
        }

        /// Any text made of YAML's pieces: never read differently.
        #[test]
        fn arbitrary_text_is_never_read_differently(
            parts in prop::collection::vec(prop::sample::select(vec![
                "a", "k", ":", ": ", "- ", "-", " ", "  ", "\n", "\n  ", "\n- ", "'", "''", "\"",
                "\\", "\\n", "\\u00e9", "#", " #", "|", "|-", ">", "{}", "[]", "{", "1", "0x",
                ".5", "true", "null", "~", "é", "&a", "*a", "!t", "?", "\n\n", "   ", "0xB",
                "11", "\n11: ", "\n0xB: ", "\nk: ", "\n'k': ", "\n\"k\": ",
            ]), 0..40)
        ) {
            let mut text = parts.concat();
            text.push('\n');
            never_differs(&text)?;
        }
    }
}
