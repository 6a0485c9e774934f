//! The dominant resource share as explanations and results show it (SPEC 12): a value
//! the fair-sharing rules compute and preemption, the series and the output carry.

/// A dominant resource share as shown (SPEC 12 explanations and results): Kueue's
/// `weightedShare`, the weighted share rounded up, or infinite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ShareValue {
    Finite(u64),
    Infinite,
}

impl std::fmt::Display for ShareValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShareValue::Finite(v) => write!(f, "{v}"),
            ShareValue::Infinite => f.write_str("infinite"),
        }
    }
}
