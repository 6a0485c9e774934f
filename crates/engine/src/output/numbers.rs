//! Numbers as the result JSON and the explanations write them: times in seconds from
//! integer milliseconds and floats in their shortest round-trip form (one place, so the
//! JSON writer and the explanations never disagree and never import each other).

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
