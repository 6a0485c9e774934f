//! Times of a job history (SPEC 16): Kubernetes timestamps (RFC 3339, `2024-03-19T20:49:17Z`,
//! optional fraction and offset), and `--from` / `--to` as ISO 8601 or epoch seconds, all as
//! epoch milliseconds (UTC, proleptic Gregorian calendar).

use crate::input::trace::time::{days_from_civil, days_in_month};

/// Epoch milliseconds beyond which a time is refused (year ~33658): keeps every sum and
/// difference of two times far from `i64` overflow.
pub(crate) const MAX_MS: i64 = 1_000_000_000_000_000;

/// SPEC 16 `--from` / `--to`: an ISO 8601 date or date-time (`2026-03-01`,
/// `2026-03-01T08:00:00Z`, `2026-03-01T10:00:00+02:00`) or epoch seconds (`1772352000`,
/// fractions allowed), as epoch milliseconds.
pub fn parse_time(text: &str) -> Result<i64, String> {
    let t = text.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        let s: f64 = t
            .parse()
            .map_err(|_| format!("\"{t}\" is not epoch seconds"))?;
        let ms = (s * 1000.0).round();
        if !(0.0..=MAX_MS as f64).contains(&ms) {
            return Err(format!("\"{t}\" is out of range"));
        }
        return Ok(ms as i64);
    }
    if t.len() == 10 {
        if let Some(ms) = rfc3339(&format!("{t}T00:00:00Z")) {
            return Ok(ms);
        }
    }
    rfc3339(t).ok_or_else(|| {
        format!("\"{t}\" is neither an ISO 8601 time (2026-03-01T08:00:00Z) nor epoch seconds")
    })
}

/// An RFC 3339 timestamp (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`, `t`/`z` or a
/// space accepted) as epoch milliseconds; `None` when it is not one.
pub(crate) fn rfc3339(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |from: usize, to: usize| -> Option<i64> {
        let part = b.get(from..to)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(part.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    let mut i = 19;
    let mut millis = 0;
    if b[i] == b'.' {
        let start = i + 1;
        let mut end = start;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
        if end == start || end - start > 9 {
            return None;
        }
        let mut scaled = [b'0'; 3];
        for (slot, d) in scaled.iter_mut().zip(&b[start..end]) {
            *slot = *d;
        }
        millis = scaled
            .iter()
            .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
        i = end;
    }
    let offset_min = match b.get(i..)? {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let digits = [*h1, *h2, *m1, *m2];
            if !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let h = i64::from(h1 - b'0') * 10 + i64::from(h2 - b'0');
            let m = i64::from(m1 - b'0') * 10 + i64::from(m2 - b'0');
            if h > 23 || m > 59 {
                return None;
            }
            if *sign == b'+' {
                h * 60 + m
            } else {
                -(h * 60 + m)
            }
        }
        _ => return None,
    };
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    // 60: a leap second, as RFC 3339 allows.
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let ms = (((days * 24 + hour) * 60 + minute - offset_min) * 60 + second) * 1000 + millis;
    (0..=MAX_MS).contains(&ms).then_some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubernetes_timestamps() {
        assert_eq!(rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(rfc3339("2024-03-19T20:49:17Z"), Some(1_710_881_357_000));
        assert_eq!(rfc3339("2024-03-19T20:49:17.250Z"), Some(1_710_881_357_250));
        assert_eq!(
            rfc3339("2024-03-19T22:49:17+02:00"),
            Some(1_710_881_357_000)
        );
        assert_eq!(
            rfc3339("2024-03-19T18:49:17-02:00"),
            Some(1_710_881_357_000)
        );
        assert_eq!(rfc3339("2024-02-29T00:00:00Z"), Some(1_709_164_800_000));
        for bad in [
            "2024-03-19T20:49:17",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-03-19T24:00:00Z",
            "2024-03-19T20:49:17+25:00",
            "2024-03-19T20:49:17.Z",
            "1969-12-31T23:59:59Z",
            "yesterday",
            "",
        ] {
            assert_eq!(rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn window_bounds() {
        assert_eq!(parse_time("2024-03-19"), Ok(1_710_806_400_000));
        assert_eq!(parse_time("1710881357"), Ok(1_710_881_357_000));
        assert_eq!(parse_time("1710881357.5"), Ok(1_710_881_357_500));
        assert_eq!(parse_time(" 2024-03-19T20:49:17Z "), Ok(1_710_881_357_000));
        assert!(parse_time("last week").unwrap_err().contains("ISO 8601"));
        assert!(parse_time("1e300").is_err());
        assert!(parse_time("99999999999999999999").is_err());
    }
}
