//! Recognising a file that is not a CSV text at all (a spreadsheet, an archive, an image,
//! UTF-16 text, random bytes) from its first [`SNIFF_BYTES`], so that the import says so
//! instead of reading garbage as rows.
//!
//! A CSV trace is text: the sample is refused when it holds a NUL byte, a control character
//! other than tab, line feed, carriage return and form feed, or mostly bytes that are not
//! UTF-8. A few non-UTF-8 bytes (a Latin-1 name, say) are not refused here: they only skip the
//! rows whose used columns hold them.

use super::*;

/// How much of the input is looked at.
pub const SNIFF_BYTES: usize = 1024;

/// What the first bytes of a few common binary formats are.
const MAGIC: &[(&[u8], &str)] = &[
    (
        b"PK\x03\x04",
        "a ZIP archive (an .xlsx or .ods spreadsheet?)",
    ),
    (
        b"\xD0\xCF\x11\xE0",
        "an old Office document (an .xls spreadsheet?)",
    ),
    (b"\x1F\x8B", "a gzip archive (decompress it first)"),
    (b"\xFD7zXZ\x00", "an xz archive (decompress it first)"),
    (b"\x28\xB5\x2F\xFD", "a zstd archive (decompress it first)"),
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"\xFF\xD8\xFF", "a JPEG image"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x7FELF", "an executable"),
];

/// `Err` with "this is not a CSV file: ..." when `sample` (the input's first bytes) cannot
/// begin a CSV text.
pub fn check_text(sample: &[u8]) -> Result<(), Problem> {
    let not_csv = |why: String| {
        Err(Problem::whole(format!(
            "this is not a CSV file: {why}; save the trace as CSV text (UTF-8)"
        )))
    };
    if let Some((_, what)) = MAGIC.iter().find(|(m, _)| sample.starts_with(m)) {
        return not_csv(format!("it looks like {what}"));
    }
    if sample.starts_with(b"\xFF\xFE") || sample.starts_with(b"\xFE\xFF") {
        return not_csv("it is UTF-16 text".into());
    }
    let sample = sample.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(sample);
    if let Some(at) = sample.iter().position(|&b| b == 0) {
        return not_csv(format!(
            "it has NUL bytes (the first at byte {at}), as binary files and UTF-16 text do"
        ));
    }
    let control = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C)) || b == 0x7F;
    if let Some(at) = sample.iter().position(|&b| control(b)) {
        return not_csv(format!(
            "it has control characters (0x{:02X} at byte {at}), which text does not",
            sample[at]
        ));
    }
    // Bytes that are not part of a UTF-8 character (a character cut by the sample's end is).
    let mut invalid = 0;
    let mut rest = sample;
    while let Err(e) = std::str::from_utf8(rest) {
        match e.error_len() {
            Some(n) => {
                invalid += n;
                rest = &rest[e.valid_up_to() + n..];
            }
            None => break,
        }
    }
    if invalid * 4 > sample.len() {
        return not_csv(format!(
            "{invalid} of its first {} bytes are not UTF-8 text",
            sample.len()
        ));
    }
    Ok(())
}

/// Reads up to [`SNIFF_BYTES`] from `input` (fewer only at its end).
pub(super) fn read_sample<R: Read>(input: &mut R) -> io::Result<Vec<u8>> {
    let mut sample = Vec::with_capacity(SNIFF_BYTES);
    input
        .by_ref()
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut sample)?;
    Ok(sample)
}
