//! Regression fixtures: scenarios where the engine and Kueue once differed, with the real
//! scheduler's recorded decisions, so the engine is checked against them where Go is
//! absent (`oracle/kueue/testdata/regressions/*.json`).
//!
//! A fixture is `{"scenario": S, "kueue_version": V, "kueue_events": [...]}`, plus
//! `"known_difference": "why"` and the engine's own `"engine_events"` for a difference
//! the fidelity page lists as remaining: there the check is that the engine still decides
//! as recorded (a change is noticed and the fixture re-recorded).

use std::path::Path;

use serde_json::{json, Value};

use crate::decisions;
use crate::generate::Draw;
use crate::oracle::Oracle;

/// Records the minimal scenario of a difference as a fixture named after its case
/// ([`fixture_name`]).
pub fn write(
    dir: &Path,
    seed: u64,
    case: u64,
    draw: &Draw,
    scenario: &Value,
    oracle: &mut Oracle,
) -> Result<(), String> {
    record(dir, &fixture_name(seed, case, draw), scenario, oracle).map(|_| ())
}

/// `random-SEED-CASE`, with `-jobs-LO-HI` and `-capacity-N` when the scenarios were drawn
/// with another `--jobs` range or a `--capacity` ([`Draw::suffix`]): what `kueue-diff case
/// SEED CASE [--jobs LO..HI] [--capacity N]` needs to draw the case again.
pub fn fixture_name(seed: u64, case: u64, draw: &Draw) -> String {
    format!("random-{seed}-{case}{}", draw.suffix())
}

/// Records a scenario as the fixture `dir/name.json` with Kueue's decisions; where the
/// engine decides otherwise, also its own decisions and a `known_difference` to be
/// explained (and the file renamed after its class). Returns the file's path.
pub fn record(
    dir: &Path,
    name: &str,
    scenario: &Value,
    oracle: &mut Oracle,
) -> Result<String, String> {
    let text = serde_json::to_string(scenario).map_err(|e| e.to_string())?;
    let (explicit, _) = crate::expand::expand(&text)?;
    let answer = oracle.ask(&explicit)?;
    let mut fixture = json!({
        "scenario": scenario,
        "kueue_version": answer.kueue_version,
        "kueue_events": answer.events,
    });
    let engine = decisions::engine(&text)?;
    if engine != decisions::from_events(&answer.events) {
        fixture["known_difference"] = json!("found by kueue-diff random; not yet explained");
        fixture["engine_events"] = json!(as_events(engine));
    }
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let path = dir.join(format!("{name}.json"));
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&fixture).unwrap() + "\n",
    )
    .map_err(|e| e.to_string())?;
    Ok(path.display().to_string())
}

/// The engine's decisions as a fixture records its events.
fn as_events(decisions: Vec<decisions::Decision>) -> Vec<Value> {
    decisions
        .into_iter()
        .map(|d| {
            let mut e = json!({"t_s": crate::expand::seconds(d.t_ms), "job": d.job, "kind": d.kind.as_str()});
            if let Some(by) = d.by {
                e["by"] = json!(by);
            }
            e
        })
        .collect()
}

/// Checks one fixture; `Err` says how the engine now differs from what is recorded.
pub fn check(fixture: &Value) -> Result<(), String> {
    let text = serde_json::to_string(&fixture["scenario"]).map_err(|e| e.to_string())?;
    let engine = decisions::engine(&text)?;
    let kueue = decisions::from_events(
        fixture["kueue_events"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]),
    );
    match fixture["known_difference"].as_str() {
        None => match decisions::first_difference(&engine, &kueue) {
            None => Ok(()),
            Some(d) => Err(format!(
                "the engine no longer decides as Kueue {}:\n{d}",
                fixture["kueue_version"]
            )),
        },
        Some(_) => {
            let recorded = decisions::from_events(
                fixture["engine_events"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or(&[]),
            );
            if engine == kueue {
                return Err(
                    "the engine now decides as Kueue: drop known_difference and engine_events"
                        .into(),
                );
            }
            match decisions::first_difference(&engine, &recorded) {
                None => Ok(()),
                Some(d) => Err(format!("the engine decides differently from its recorded (known-different) decisions:\n{d}")),
            }
        }
    }
}

/// Checks every fixture of a directory; the number checked.
pub fn check_dir(dir: &Path) -> Result<usize, String> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    let mut failures = Vec::new();
    for p in &names {
        let text = std::fs::read_to_string(p).map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
        if let Err(e) = check(&v) {
            failures.push(format!("{}: {e}", p.display()));
        }
    }
    if failures.is_empty() {
        Ok(names.len())
    } else {
        Err(failures.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_case_is_named_with_what_draws_it_again() {
        assert_eq!(fixture_name(41, 9594, &Draw::default()), "random-41-9594");
        let jobs = Draw {
            jobs: 20..=60,
            ..Draw::default()
        };
        assert_eq!(fixture_name(1, 9, &jobs), "random-1-9-jobs-20-60");
        let both = Draw {
            capacity: Some(40),
            ..jobs
        };
        assert_eq!(
            fixture_name(1, 9, &both),
            "random-1-9-jobs-20-60-capacity-40"
        );
    }
}
