//! Number formatting shared by the components.

/// A duration for people: seconds, minutes or hours depending on its size.
pub fn duration(s: f64) -> String {
    if !s.is_finite() {
        return "—".into();
    }
    if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 90.0 * 60.0 {
        format!("{:.1} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

/// Instance-hours: two decimals below 100, whole numbers above.
pub fn hours(h: f64) -> String {
    if h == 0.0 {
        "0".into()
    } else if h.abs() < 100.0 {
        format!("{h:.2}")
    } else {
        format!("{h:.0}")
    }
}

/// A ratio in [0, 1] as a whole percentage; `—` when absent.
pub fn percent(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |x| format!("{:.0}%", x * 100.0))
}

/// A whole number with thousands separators: `4210.0` -> `4,210`.
pub fn thousands(x: f64) -> String {
    group_digits(x.round().max(0.0) as u64)
}

/// A count with thousands separators: `1234567` -> `1,234,567`.
pub fn count(n: usize) -> String {
    group_digits(n as u64)
}

/// `n`'s digits in groups of three, separated by commas.
fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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

/// A point in time of a run for people: `45 s`, `1 min 30 s`, `2 h 05 min`.
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

/// US dollars: `$0.42`, `$12.50`, `$1,234`.
pub fn usd(x: f64) -> String {
    if !x.is_finite() {
        "—".into()
    } else if x.abs() < 1000.0 {
        format!("${x:.2}")
    } else {
        format!("${}", thousands(x))
    }
}

/// [`duration`] with fewer digits for dense tables: `45 s`, `5.0 min`, `12 min`, `1.5 h`,
/// `30 h`.
pub fn duration_compact(s: f64) -> String {
    if !s.is_finite() {
        return "—".into();
    }
    let (v, unit) = if s < 90.0 {
        return format!("{s:.0} s");
    } else if s < 90.0 * 60.0 {
        (s / 60.0, "min")
    } else {
        (s / 3600.0, "h")
    };
    if v < 9.95 {
        format!("{v:.1} {unit}")
    } else {
        format!("{v:.0} {unit}")
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
