//! Number formatting shared by the page, its charts and the report.

use quotalab_engine::digest::Pct;
use quotalab_engine::input::digits::group_digits;

/// A duration for people: seconds, minutes, hours or, past two days, days (`45 s`, `5.0
/// min`, `12 min`, `1.5 h`, `30 h`, `520 d`, `1,234 d`): one decimal below ten, none above,
/// the same everywhere (the page's tables, cards and charts, and the report).
pub fn duration(s: f64) -> String {
    duration_compact(s)
}

/// Instance-hours: two decimals below 100, whole numbers with thousands separators above
/// (`40,184`).
pub fn hours(h: f64) -> String {
    if h == 0.0 {
        "0".into()
    } else if h > 0.0 && h < 0.005 {
        // Never "0.00" for something that happened: 2 instances borrowed for a second are
        // 0.0006 instance-hours, and "0.00" beside a chart's "borrowed up to 2" read as none.
        "<0.01".into()
    } else if h.abs() < 100.0 {
        format!("{h:.2}")
    } else {
        let sign = if h < 0.0 { "-" } else { "" };
        format!("{sign}{}", thousands(h.abs()))
    }
}

/// A ratio in [0, 1] as a whole percentage; `—` when absent. Never rounds up to 100% or down
/// to 0%: a ratio just below 1 reads `99.9%`, one just above 0 reads `0.1%`.
pub fn percent(x: Option<f64>) -> String {
    let Some(x) = x else { return "—".into() };
    let whole = (x * 100.0).round();
    if x < 1.0 && whole >= 100.0 {
        format!("{:.1}%", (x * 1000.0).floor() / 10.0)
    } else if x > 0.0 && whole <= 0.0 {
        format!("{:.1}%", ((x * 1000.0).ceil() / 10.0).min(0.5))
    } else {
        format!("{whole:.0}%")
    }
}

/// A count and its noun, singular for one: `1 job`, `4,210 jobs`.
pub fn count_of(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group_digits(n), if n == 1 { one } else { many })
}

/// A short elapsed time: `<1 ms` below half a millisecond, else whole ms (`1,234 ms`).
pub fn millis(ms: f64) -> String {
    if !ms.is_finite() {
        "—".into()
    } else if ms < 0.5 {
        "<1 ms".into()
    } else {
        format!("{} ms", thousands(ms))
    }
}

/// A whole number with thousands separators: `4210.0` -> `4,210`.
pub fn thousands(x: f64) -> String {
    group_digits(x.round().max(0.0) as u64)
}

/// A count with thousands separators: `1234567` -> `1,234,567`.
pub fn count(n: usize) -> String {
    group_digits(n as u64)
}

/// `x` with at most `digits` decimals and no trailing zeros: `decimal(20.0, 2)` is `20`,
/// `decimal(0.250, 3)` is `0.25`; never `-0`.
pub fn decimal(x: f64, digits: usize) -> String {
    let t = format!("{x:.digits$}");
    let t = if t.contains('.') {
        t.trim_end_matches('0').trim_end_matches('.')
    } else {
        &t
    };
    if t == "-0" {
        "0".into()
    } else {
        t.to_string()
    }
}

/// A small quantity without useless decimals: `1` -> `1`, `0.5` -> `0.5`, `2.25` -> `2.3`.
pub fn amount(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let r = (x * 10.0).round() / 10.0;
    if (r - r.round()).abs() < 1e-9 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// A point in time of a run for people: `45 s`, `1 min 30 s`, `2 h 05 min` (the engine's,
/// so its explanations write times as the page's event log does).
pub fn clock(s: f64) -> String {
    quotalab_engine::output::numbers::clock(s)
}

/// The time unit of a run's time axes and of its cursor ("State at …"), picked from the
/// run's span (its last time, seconds) so that the axis labels and the times shown beside
/// them read alike: seconds up to 3 min, minutes up to 3 h, hours up to 3 days, days beyond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeScale {
    Seconds,
    Minutes,
    Hours,
    Days,
}

impl TimeScale {
    pub fn for_span(span_s: f64) -> TimeScale {
        if span_s.is_nan() || span_s <= 180.0 {
            TimeScale::Seconds
        } else if span_s <= 3.0 * 3600.0 {
            TimeScale::Minutes
        } else if span_s <= 3.0 * 86_400.0 {
            TimeScale::Hours
        } else {
            TimeScale::Days
        }
    }

    /// Seconds per unit.
    pub fn per(self) -> f64 {
        match self {
            TimeScale::Seconds => 1.0,
            TimeScale::Minutes => 60.0,
            TimeScale::Hours => 3600.0,
            TimeScale::Days => 86_400.0,
        }
    }

    /// The unit's short name: `s`, `min`, `h`, `d`.
    pub fn unit(self) -> &'static str {
        match self {
            TimeScale::Seconds => "s",
            TimeScale::Minutes => "min",
            TimeScale::Hours => "h",
            TimeScale::Days => "d",
        }
    }

    /// A point in time of the run in the scale's unit and the next smaller one:
    /// `95 s`; `1 min 30 s`, `75 min`; `2 h 05 min`, `45 min`; `4 d 7 h`, `7 h`, `4 d`.
    /// Minute-scale times below an hour are [`clock`]'s.
    pub fn at(self, t: f64) -> String {
        if !t.is_finite() {
            return "—".into();
        }
        let t = t.max(0.0);
        match self {
            TimeScale::Seconds => format!("{:.0} s", t.round()),
            TimeScale::Minutes => {
                let total = t.round() as u64;
                let (m, s) = (total / 60, total % 60);
                match (m, s) {
                    (0, s) => format!("{s} s"),
                    (m, 0) => format!("{m} min"),
                    (m, s) => format!("{m} min {s} s"),
                }
            }
            TimeScale::Hours => {
                let total = (t / 60.0).round() as u64;
                let (h, m) = (total / 60, total % 60);
                if h == 0 {
                    format!("{m} min")
                } else {
                    format!("{h} h {m:02} min")
                }
            }
            TimeScale::Days => {
                let total = (t / 3600.0).round() as u64;
                let (d, h) = (total / 24, total % 24);
                match (d, h) {
                    (0, h) => format!("{h} h"),
                    (d, 0) => format!("{d} d"),
                    (d, h) => format!("{d} d {h} h"),
                }
            }
        }
    }

    /// An axis tick at `t` seconds: [`TimeScale::at`], whole units without the smaller one
    /// (`2 h`, not `2 h 00 min`), and `0` at the origin.
    pub fn tick(self, t: f64) -> String {
        if t.abs() < 1e-9 {
            return "0".into();
        }
        let v = t / self.per();
        if (v - v.round()).abs() < 1e-6 {
            format!("{} {}", v.round(), self.unit())
        } else {
            self.at(t)
        }
    }
}

/// A round duration as an axis tick: `10 s`, `1 min`, `2 h`, `3 d`.
pub fn duration_tick(s: f64) -> String {
    let pick = |v: f64, unit: &str| format!("{} {unit}", amount(v));
    if s < 60.0 {
        pick(s, "s")
    } else if s < 3600.0 {
        pick(s / 60.0, "min")
    } else if s < 86_400.0 {
        pick(s / 3600.0, "h")
    } else {
        pick(s / 86_400.0, "d")
    }
}

/// US dollars, always to the cent and grouped (`$0.42`, `$980.49`, `$1,189.20`), so amounts
/// side by side read alike whatever their size.
pub fn usd(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let cents = (x.abs() * 100.0).round() as u64;
    let sign = if x < 0.0 && cents > 0 { "-" } else { "" };
    format!("{sign}${}.{:02}", group_digits(cents / 100), cents % 100)
}

/// [`usd`] in whole dollars from $10,000 on, where cents are noise and the figure must fit
/// a narrow column ("$11,768,891"; the page's summary cards).
pub fn usd_short(x: f64) -> String {
    if !x.is_finite() || x.abs() < 10_000.0 {
        return usd(x);
    }
    let dollars = x.abs().round() as u64;
    let sign = if x < 0.0 { "-" } else { "" };
    format!("{sign}${}", group_digits(dollars))
}

/// [`duration`] (the one rule for durations, the engine's
/// [`quotalab_engine::output::numbers::duration`], which the comparison's tables use too;
/// kept under this name for dense tables).
pub fn duration_compact(s: f64) -> String {
    quotalab_engine::output::numbers::duration(s)
}

/// `v`, a percentile of the durations `p`, as [`duration_compact`]; `—` when `p` has none.
pub fn percentile(p: &Pct, v: f64) -> String {
    if p.n == 0 {
        "—".into()
    } else {
        duration_compact(v)
    }
}

#[cfg(test)]
mod number_tests {
    use super::{count_of, decimal, hours, millis, percent};

    #[test]
    fn decimals_without_trailing_zeros() {
        assert_eq!(decimal(20.0, 2), "20");
        assert_eq!(decimal(0.25, 3), "0.25");
        assert_eq!(decimal(0.6000000000000001, 2), "0.6");
        assert_eq!(decimal(1.005, 0), "1");
        assert_eq!(decimal(-0.0001, 3), "0");
        assert_eq!(decimal(-1.5, 1), "-1.5");
    }

    /// Issue #34.12: one rule for durations ("11 min" everywhere, not "11.0 min" beside
    /// it), and days with separators for long ones, never "12475 h".
    #[test]
    fn dollars_read_alike_side_by_side() {
        use super::{usd, usd_short};
        assert_eq!(usd(0.42), "$0.42");
        assert_eq!(usd(12.5), "$12.50");
        assert_eq!(usd(980.49), "$980.49");
        assert_eq!(usd(1189.2), "$1,189.20");
        assert_eq!(usd(-250.0), "-$250.00");
        assert_eq!(usd(-0.001), "$0.00");
        assert_eq!(usd(1_234_567.891), "$1,234,567.89");
        assert_eq!(usd_short(9_999.994), "$9,999.99");
        assert_eq!(usd_short(11_768_890.83), "$11,768,891");
        assert_eq!(usd_short(-12_500.5), "-$12,501");
        assert_eq!(usd_short(f64::NAN), "—");
    }

    #[test]
    fn durations_read_alike_everywhere() {
        use super::duration;
        assert_eq!(duration(45.0), "45 s");
        assert_eq!(duration(300.0), "5.0 min");
        assert_eq!(duration(660.0), "11 min");
        assert_eq!(duration(5400.0), "1.5 h");
        assert_eq!(duration(30.0 * 3600.0), "30 h");
        assert_eq!(duration(12_475.0 * 3600.0), "520 d");
        assert_eq!(duration(4000.0 * 86_400.0), "4,000 d");
        assert_eq!(duration(f64::NAN), "—");
    }

    #[test]
    fn hours_group_thousands() {
        assert_eq!(hours(40_184.2), "40,184");
        assert_eq!(hours(27_777_778.0), "27,777,778");
        assert_eq!(hours(113.0), "113");
        assert_eq!(hours(-1_234.0), "-1,234");
        assert_eq!(hours(0.76), "0.76");
        assert_eq!(hours(2.0 / 3600.0), "<0.01");
        assert_eq!(hours(0.005), "0.01");
    }

    // Goodput beside 0.76 h lost is not 100%.
    #[test]
    fn percent_never_rounds_to_100_or_0() {
        assert_eq!(percent(Some(1.0)), "100%");
        assert_eq!(percent(Some(0.9996)), "99.9%");
        assert_eq!(percent(Some(0.997)), "99.7%");
        assert_eq!(percent(Some(0.994)), "99%");
        assert_eq!(percent(Some(0.75)), "75%");
        assert_eq!(percent(Some(0.0)), "0%");
        assert_eq!(percent(Some(0.0004)), "0.1%");
        assert_eq!(percent(None), "—");
    }

    #[test]
    fn counts_and_millis_read_as_words() {
        assert_eq!(count_of(1, "job", "jobs"), "1 job");
        assert_eq!(count_of(0, "job", "jobs"), "0 jobs");
        assert_eq!(count_of(5_000, "job", "jobs"), "5,000 jobs");
        assert_eq!(millis(0.2), "<1 ms");
        assert_eq!(millis(0.0), "<1 ms");
        assert_eq!(millis(66.4), "66 ms");
        assert_eq!(millis(1234.0), "1,234 ms");
    }
}

#[cfg(test)]
mod clock_tests {
    use super::clock;

    // The one clock of the page: the cursor ("t = 1 min 30 s", "State at 2 min"), the event
    // log, job histories.
    #[test]
    fn clock_reads_seconds_minutes_and_hours() {
        let cases = [
            (0.0, "0 s"),
            (45.0, "45 s"),
            (59.6, "1 min"),
            (60.0, "1 min"),
            (90.0, "1 min 30 s"),
            (720.0, "12 min"),
            (3599.0, "59 min 59 s"),
            (3600.0, "1 h 00 min"),
            (7500.0, "2 h 05 min"),
            (90_000.0, "25 h 00 min"),
            (-3.0, "0 s"),
            (f64::NAN, "—"),
            (f64::INFINITY, "—"),
        ];
        for (t, want) in cases {
            assert_eq!(clock(t), want, "clock({t})");
        }
    }
}

#[cfg(test)]
mod time_scale_tests {
    use super::TimeScale;

    #[test]
    fn the_scale_follows_the_span() {
        let cases = [
            (0.0, TimeScale::Seconds),
            (f64::NAN, TimeScale::Seconds),
            (180.0, TimeScale::Seconds),
            (181.0, TimeScale::Minutes),
            (780.0, TimeScale::Minutes),
            (3.0 * 3600.0, TimeScale::Minutes),
            (3.0 * 3600.0 + 1.0, TimeScale::Hours),
            (3.0 * 86_400.0, TimeScale::Hours),
            // The Philly sample: a bit over 4 days.
            (4.3 * 86_400.0, TimeScale::Days),
        ];
        for (span, want) in cases {
            assert_eq!(TimeScale::for_span(span), want, "for_span({span})");
        }
    }

    // The panel's time ("State at …") reads in the axis's unit: a multi-day run says
    // "4 d 7 h", not "103 h 19 min".
    #[test]
    fn times_read_in_the_scales_unit() {
        let cases = [
            (TimeScale::Seconds, 45.0, "45 s"),
            (TimeScale::Seconds, 95.4, "95 s"),
            (TimeScale::Minutes, 0.0, "0 s"),
            (TimeScale::Minutes, 60.0, "1 min"),
            (TimeScale::Minutes, 90.0, "1 min 30 s"),
            (TimeScale::Minutes, 720.0, "12 min"),
            (TimeScale::Minutes, 4530.0, "75 min 30 s"),
            (TimeScale::Hours, 2700.0, "45 min"),
            (TimeScale::Hours, 7500.0, "2 h 05 min"),
            (TimeScale::Hours, 90_000.0, "25 h 00 min"),
            (TimeScale::Days, 103.0 * 3600.0 + 19.0 * 60.0, "4 d 7 h"),
            (TimeScale::Days, 7.0 * 3600.0, "7 h"),
            (TimeScale::Days, 2.0 * 86_400.0 + 600.0, "2 d"),
            (TimeScale::Days, 23.6 * 3600.0, "1 d"),
            (TimeScale::Days, f64::NAN, "—"),
            (TimeScale::Hours, -5.0, "0 min"),
        ];
        for (scale, t, want) in cases {
            assert_eq!(scale.at(t), want, "{scale:?}.at({t})");
        }
    }

    // Below an hour, minute-scale times are the clock's (the walkthrough's "State at 1 min
    // 30 s" and "t = 12 min" stay as they were).
    #[test]
    fn short_runs_keep_the_clock() {
        for t in [0.0, 45.0, 60.0, 90.0, 720.0, 3599.0] {
            assert_eq!(TimeScale::Minutes.at(t), super::clock(t), "{t}");
        }
    }

    #[test]
    fn ticks_carry_the_same_units() {
        let cases = [
            (TimeScale::Seconds, 0.0, "0"),
            (TimeScale::Seconds, 30.0, "30 s"),
            (TimeScale::Minutes, 120.0, "2 min"),
            (TimeScale::Minutes, 150.0, "2 min 30 s"),
            (TimeScale::Hours, 6.0 * 3600.0, "6 h"),
            (TimeScale::Hours, 5400.0, "1 h 30 min"),
            (TimeScale::Days, 4.0 * 86_400.0, "4 d"),
            (TimeScale::Days, 1.5 * 86_400.0, "1 d 12 h"),
        ];
        for (scale, t, want) in cases {
            assert_eq!(scale.tick(t), want, "{scale:?}.tick({t})");
        }
    }
}
