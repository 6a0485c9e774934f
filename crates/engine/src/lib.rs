//! Quota Lab's engine: the quota-sharing simulator of `SPEC.md`.
//!
//! Pure and deterministic: no I/O, no clock, no global state, no web dependency. The same
//! scenario text gives the same result bytes natively and in wasm.

pub mod model;

use std::fmt;

/// One problem with an input, named by its JSON path (SPEC 7: `jobs[3].work_s: must be > 0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// JSON path such as `shares[2].borrow_limit`; empty for the document as a whole.
    pub path: String,
    pub message: String,
}

impl Problem {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Validates and simulates a scenario given as JSON text; returns the result JSON
/// (SPEC 8) or every problem found (SPEC 7). TEMPORARY STUB: replaced by the real engine.
pub fn run_json(scenario_json: &str) -> Result<String, Vec<Problem>> {
    let _ = scenario_json;
    Ok(r#"{"format":"quotalab-result/v1","end_s":0,"shares":{},"totals":{},"jobs":[],"events":[],"series":{"t_s":[],"shares":{}}}"#.to_string())
}
