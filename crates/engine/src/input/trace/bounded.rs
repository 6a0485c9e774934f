//! The bounded reader: caps every CSV record at [`MAX_RECORD_BYTES`] before the CSV parser
//! buffers it, so a hostile trace cannot make the import hold a huge row in memory.

use super::*;

/// Marks a record cut at [`MAX_RECORD_BYTES`]; no CSV field holds it by accident (it has
/// NUL bytes, no quote, comma or line break).
pub(super) const OVERSIZED: &[u8] = b"\x00quotalab: record longer than 1 MiB\x00";
/// The same mark closing a quoted field, so that the parser ends the record at the next
/// line break.
pub(super) const OVERSIZED_QUOTED: &[u8] = b"\x00quotalab: record longer than 1 MiB\x00\"";

pub(super) fn is_oversized(field: &[u8]) -> bool {
    field.ends_with(OVERSIZED)
}

/// Where a CSV record stands, mirroring the `csv` crate's parser (RFC 4180 quoting, `"`
/// doubled inside quotes; a quote not at a field's start is a plain character).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum CsvState {
    FieldStart,
    Unquoted,
    Quoted,
    QuoteInQuoted,
}

/// A reader that caps each CSV record at [`MAX_RECORD_BYTES`] before the CSV parser sees it:
/// the rest of a longer record is dropped and replaced by the [`OVERSIZED`] mark, so the
/// parser never buffers more than the cap and the importer skips the row.
pub(super) struct BoundedRecords<R> {
    pub(super) inner: R,
    pub(super) buf: Vec<u8>,
    pub(super) pos: usize,
    pub(super) len: usize,
    pub(super) state: CsvState,
    pub(super) record_len: usize,
    pub(super) dropping: bool,
    pub(super) pending: &'static [u8],
}

impl<R: Read> BoundedRecords<R> {
    pub(super) fn new(inner: R) -> BoundedRecords<R> {
        BoundedRecords {
            inner,
            buf: vec![0; 64 * 1024],
            pos: 0,
            len: 0,
            state: CsvState::FieldStart,
            record_len: 0,
            dropping: false,
            pending: &[],
        }
    }

    /// Advances the state over one byte of the original stream; true at a record's end.
    pub(super) fn step(&mut self, byte: u8) -> bool {
        use CsvState::*;
        let (next, record_end) = match (self.state, byte) {
            (Quoted, b'"') => (QuoteInQuoted, false),
            (Quoted, _) => (Quoted, false),
            (_, b'\n' | b'\r') => (FieldStart, true),
            (_, b',') => (FieldStart, false),
            (FieldStart, b'"') => (Quoted, false),
            (QuoteInQuoted, b'"') => (Quoted, false),
            _ => (Unquoted, false),
        };
        self.state = next;
        record_end
    }
}

impl<R: Read> Read for BoundedRecords<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if out.is_empty() {
                return Ok(0);
            }
            if !self.pending.is_empty() {
                let n = self.pending.len().min(out.len());
                out[..n].copy_from_slice(&self.pending[..n]);
                self.pending = &self.pending[n..];
                return Ok(n);
            }
            if self.pos == self.len {
                self.len = self.inner.read(&mut self.buf)?;
                self.pos = 0;
                if self.len == 0 {
                    return Ok(0);
                }
            }
            let mut written = 0;
            while self.pos < self.len && written < out.len() {
                let byte = self.buf[self.pos];
                self.pos += 1;
                let parser_state = self.state;
                if self.step(byte) {
                    self.record_len = 0;
                    self.dropping = false;
                    out[written] = byte;
                    written += 1;
                    continue;
                }
                if self.dropping {
                    continue;
                }
                self.record_len += 1;
                if self.record_len > MAX_RECORD_BYTES {
                    self.dropping = true;
                    self.pending = if parser_state == CsvState::Quoted {
                        OVERSIZED_QUOTED
                    } else {
                        OVERSIZED
                    };
                    break;
                }
                out[written] = byte;
                written += 1;
            }
            if written > 0 {
                return Ok(written);
            }
            // Everything read so far was dropped (or a mark is pending): go on.
        }
    }
}
