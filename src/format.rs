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

/// An optional duration; `—` when absent.
pub fn opt_duration(s: Option<f64>) -> String {
    s.map_or_else(|| "—".into(), duration)
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
    let n = x.round().max(0.0) as u64;
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
