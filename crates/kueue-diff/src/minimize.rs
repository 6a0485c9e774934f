//! The smallest scenario that still shows a difference: jobs, then shares without jobs,
//! then cohorts nobody names are removed one at a time while the engine and Kueue still
//! disagree.

use serde_json::Value;

use crate::decisions::{self, Difference};
use crate::expand;
use crate::oracle::Oracle;

/// Compares one scenario: `Ok(None)` when the decisions are identical.
pub fn check(oracle: &mut Oracle, scenario: &Value) -> Result<Option<Difference>, String> {
    let text = serde_json::to_string(scenario).map_err(|e| e.to_string())?;
    let (explicit, _) = expand::expand(&text)?;
    let engine = decisions::engine(&text)?;
    let kueue = oracle.ask(&explicit)?;
    Ok(decisions::first_difference(&engine, &kueue.decisions))
}

fn differs(oracle: &mut Oracle, s: &Value) -> bool {
    matches!(check(oracle, s), Ok(Some(_)))
}

fn remove_at(s: &Value, list: &str, i: usize) -> Value {
    let mut t = s.clone();
    if let Some(a) = t[list].as_array_mut() {
        a.remove(i);
    }
    t
}

/// Shrinks `scenario` (which differs) to a local minimum.
pub fn minimize(oracle: &mut Oracle, scenario: &Value) -> Value {
    let mut best = scenario.clone();
    loop {
        let mut shrunk = false;
        let n = best["jobs"].as_array().map_or(0, Vec::len);
        for i in (0..n).rev() {
            let t = remove_at(&best, "jobs", i);
            if differs(oracle, &t) {
                best = t;
                shrunk = true;
            }
        }
        let used: Vec<String> = best["jobs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|j| j["share"].as_str().map(str::to_string))
            .collect();
        let n = best["shares"].as_array().map_or(0, Vec::len);
        for i in (0..n).rev() {
            let name = best["shares"][i]["name"].as_str().unwrap_or("").to_string();
            if used.contains(&name) {
                continue;
            }
            let t = remove_at(&best, "shares", i);
            if differs(oracle, &t) {
                best = t;
                shrunk = true;
            }
        }
        let n = best["cohorts"].as_array().map_or(0, Vec::len);
        for i in (0..n).rev() {
            let t = remove_at(&best, "cohorts", i);
            if differs(oracle, &t) {
                best = t;
                shrunk = true;
            }
        }
        if !shrunk {
            return best;
        }
    }
}
