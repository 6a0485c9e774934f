//! Time parsing: numeric times in the trace's unit and `YYYY-MM-DD HH:MM:SS` timestamps
//! (UTC, proleptic Gregorian calendar), both as integer milliseconds.

use super::*;

/// A numeric time in the trace's unit, as integer milliseconds.
pub(super) fn parse_number_ms(text: &str, unit: TimeUnit) -> Result<i64, String> {
    let value = parse_float(text)?;
    let ms = match unit {
        TimeUnit::Seconds => value * 1000.0,
        TimeUnit::Millis => value,
    };
    if ms > MAX_TIME_MS {
        return Err(format!("out of range: {}", quote(text)));
    }
    // 0 <= ms <= 1e13: the rounded value fits in i64 exactly.
    Ok(ms.round() as i64)
}

/// A submit or end time: a timestamp `YYYY-MM-DD HH:MM:SS` (UTC) or a number in the
/// trace's unit, as integer milliseconds.
pub(super) fn parse_time(text: &str, unit: TimeUnit) -> Result<i64, String> {
    let b = text.as_bytes();
    let looks_like_timestamp = text.contains(':') || (b.len() >= 10 && b[4] == b'-');
    if looks_like_timestamp {
        parse_timestamp(text)
            .ok_or_else(|| format!("not a YYYY-MM-DD HH:MM:SS timestamp: {}", quote(text)))
    } else {
        parse_number_ms(text, unit).map_err(|e| {
            if e.starts_with("not a number") {
                format!(
                    "not a number or a YYYY-MM-DD HH:MM:SS timestamp: {}",
                    quote(text)
                )
            } else {
                e
            }
        })
    }
}

/// `YYYY-MM-DD HH:MM:SS` (or `T` for the space, optional `.fraction`, optional `Z`) as
/// milliseconds since 1970-01-01 00:00:00 UTC.
pub(super) fn parse_timestamp(text: &str) -> Option<i64> {
    let text = text.strip_suffix('Z').unwrap_or(text);
    let b = text.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b' ' | b'T') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let digits = |from: usize, to: usize| -> Option<i64> {
        let part = b.get(from..to)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(part.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let year = digits(0, 4)?;
    let month = digits(5, 7)?;
    let day = digits(8, 10)?;
    let hour = digits(11, 13)?;
    let minute = digits(14, 16)?;
    let second = digits(17, 19)?;
    let mut millis = 0;
    if b.len() > 19 {
        let fraction = b.get(20..)?;
        if b[19] != b'.' || fraction.is_empty() || fraction.len() > 9 {
            return None;
        }
        if !fraction.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut scaled = [b'0'; 3];
        for (slot, d) in scaled.iter_mut().zip(fraction) {
            *slot = *d;
        }
        millis = scaled
            .iter()
            .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
    }
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis)
}

pub(super) fn is_leap_year(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

pub(crate) fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
pub(crate) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let shifted_month = (month + 9) % 12; // March = 0
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}
