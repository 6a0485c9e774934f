//! Numbers as the result JSON and the explanations write them: times in seconds from
//! integer milliseconds and floats in their shortest round-trip form (one place, so the
//! JSON writer and the explanations never disagree and never import each other).

use crate::input::digits::group_digits;
use crate::input::model::Ms;

/// Seconds from milliseconds: an integer when whole, else the shortest decimal.
pub fn secs(ms: Ms) -> String {
    if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        num(ms as f64 / 1000.0)
    }
}

/// A finite float in the shortest round-trip form (integers without a fraction).
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "0".to_string();
    }
    if x == x.trunc() && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    serde_json::to_string(&x).unwrap_or_else(|_| "0".to_string())
}

/// A moment of a run for people, as the page's event log writes its times: `45 s`,
/// `1 min 30 s`, `2 h 05 min` (whole seconds; `quotalab_report::format::clock` is this).
pub fn clock(s: f64) -> String {
    if !s.is_finite() {
        return "—".into();
    }
    let total = s.max(0.0).round() as u64;
    let (h, m, sec) = (total / 3600, (total % 3600) / 60, total % 60);
    if h > 0 {
        format!("{h} h {m:02} min")
    } else if m > 0 {
        if sec == 0 {
            format!("{m} min")
        } else {
            format!("{m} min {sec} s")
        }
    } else {
        format!("{sec} s")
    }
}

/// "1 more share", "2 more changes": a list cut short says what the rest counts (issue #34).
pub fn more(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 more {what}")
    } else {
        format!("{n} more {what}s")
    }
}

/// The unit a duration reads in: seconds under 90 s, minutes under 90 min, hours under two
/// days, else days ([`duration`]; a table row picks one for all its values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DurationUnit {
    Seconds,
    Minutes,
    Hours,
    Days,
}

impl DurationUnit {
    /// The unit in which `s` seconds (the largest of a set) read best.
    pub fn for_seconds(s: f64) -> DurationUnit {
        let s = s.abs();
        if s < 90.0 {
            DurationUnit::Seconds
        } else if s < 90.0 * 60.0 {
            DurationUnit::Minutes
        } else if s < 48.0 * 3600.0 {
            DurationUnit::Hours
        } else {
            DurationUnit::Days
        }
    }

    /// Seconds in one of the unit.
    pub fn seconds(self) -> f64 {
        match self {
            DurationUnit::Seconds => 1.0,
            DurationUnit::Minutes => 60.0,
            DurationUnit::Hours => 3600.0,
            DurationUnit::Days => 86_400.0,
        }
    }

    /// `s`, `min`, `h`, `d`.
    pub fn symbol(self) -> &'static str {
        match self {
            DurationUnit::Seconds => "s",
            DurationUnit::Minutes => "min",
            DurationUnit::Hours => "h",
            DurationUnit::Days => "d",
        }
    }
}

/// A duration for people, in the unit that reads best (`45 s`, `5.0 min`, `12 min`,
/// `1.5 h`, `30 h`, `520 d`, `1,234 d`): the one way durations are written on the page,
/// in the report and in the comparison's tables and sentences ([`duration_in`]).
pub fn duration(s: f64) -> String {
    duration_in(s, DurationUnit::for_seconds(s))
}

/// `s` seconds in `unit`: whole seconds; otherwise one decimal below ten and whole numbers
/// with thousands separators from ten (`5.0 min`, `11 min`, `12,475 h`); `—` when not
/// finite.
pub fn duration_in(s: f64, unit: DurationUnit) -> String {
    if !s.is_finite() {
        return "—".into();
    }
    let v = s / unit.seconds();
    let sym = unit.symbol();
    // A duration too short for the unit (`0.0 min`, `0.0 h`) reads as [`duration`] writes
    // it (`0 s`, `27 s`): zero is the same beside `0 s` in the next row (issue #34,
    // fresh-eyes walk).
    if unit != DurationUnit::Seconds && v.abs() < 0.05 {
        return duration(s);
    }
    if unit == DurationUnit::Seconds {
        return format!("{v:.0} {sym}");
    }
    if v.abs() < 9.95 {
        format!("{v:.1} {sym}")
    } else {
        let whole = group_digits(v.abs().round() as u64);
        let sign = if v < 0.0 { "-" } else { "" };
        format!("{sign}{whole} {sym}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #34: one way to write a duration, whatever the table: `11 min` in the summary
    /// and in the comparison, not `11.0 min` beside `11 min`.
    #[test]
    fn durations_read_one_way() {
        assert_eq!(duration(45.0), "45 s");
        assert_eq!(duration(300.0), "5.0 min");
        assert_eq!(duration(660.0), "11 min");
        assert_eq!(duration(5400.0), "1.5 h");
        assert_eq!(duration(30.0 * 3600.0), "30 h");
        assert_eq!(duration(520.0 * 86_400.0), "520 d");
        assert_eq!(duration(1234.0 * 86_400.0), "1,234 d");
        assert_eq!(duration(f64::NAN), "—");
        // A fixed unit (a table row's): the same decimals rule.
        assert_eq!(duration_in(660.0, DurationUnit::Minutes), "11 min");
        assert_eq!(duration_in(60.0, DurationUnit::Minutes), "1.0 min");
        assert_eq!(
            duration_in(12_475.0 * 3600.0, DurationUnit::Hours),
            "12,475 h"
        );
        assert_eq!(duration_in(-660.0, DurationUnit::Minutes), "-11 min");
        // Too short for the unit: as `duration` writes it, never `0.0 min` beside `0 s`.
        assert_eq!(duration_in(0.0, DurationUnit::Minutes), "0 s");
        assert_eq!(duration_in(27.0, DurationUnit::Hours), "27 s");
        assert_eq!(duration_in(2.0, DurationUnit::Minutes), "2 s");
        assert_eq!(duration_in(0.0, DurationUnit::Days), duration(0.0));
        assert_eq!(DurationUnit::for_seconds(89.0), DurationUnit::Seconds);
        assert_eq!(DurationUnit::for_seconds(90.0), DurationUnit::Minutes);
        assert_eq!(DurationUnit::for_seconds(5400.0), DurationUnit::Hours);
        assert_eq!(DurationUnit::for_seconds(48.0 * 3600.0), DurationUnit::Days);
    }
}
