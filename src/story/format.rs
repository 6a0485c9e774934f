//! The story file format (`www/stories/<id>.json`), parsed with serde into typed structs.
//! Unknown fields and bad values are errors that name what is wrong; [`parse`] also checks
//! what serde cannot (steps present, times finite, a preset that exists).
//!
//! ```json
//! {"id": "walkthrough", "title": "...", "intro": "...",
//!  "scenario": {"preset": "aws"},                 // or {"inline": { a scenario }}
//!  "steps": [{"t_s": 60, "title": "...", "text": "...",
//!             "highlight": [{"kind": "allocation", "share": "medium"},
//!                           {"kind": "event", "event": "preempt", "job": "bg-p2"}],
//!             "try": {"label": "...", "pointer": "/shares/1/strategy", "value": "RESERVE"},
//!             "claims": [{"kind": "event", "event": "preempt", "job": "bg-p2",
//!                         "cause": "reclaim", "t_s": 60}]}]}
//! ```

use serde::Deserialize;
use serde_json::Value;

/// One story: a scenario and the steps that walk through its run.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Story {
    pub id: String,
    pub title: String,
    /// One sentence on what the story teaches (the story menu shows it).
    pub intro: String,
    pub scenario: ScenarioRef,
    pub steps: Vec<Step>,
}

/// Where a story's scenario comes from.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ScenarioRef {
    /// A compiled-in preset, by its id (`aws`, `partition`...: [`crate::io::presets`]).
    Preset(String),
    /// A scenario written into the story.
    Inline(Value),
}

/// One step: a time, a sentence or two, what to look at, and what the engine must have done.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Where the time cursor goes (seconds).
    pub t_s: f64,
    pub title: String,
    pub text: String,
    #[serde(default)]
    pub highlight: Vec<Highlight>,
    /// An edit to try on the scenario, if any.
    #[serde(default, rename = "try")]
    pub try_edit: Option<TryEdit>,
    /// What the text says the engine did, checked by the native story tests.
    #[serde(default)]
    pub claims: Claims,
}

/// A page element a step points at.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Highlight {
    /// A share's panel of the allocation chart.
    Allocation { share: String },
    /// A job's row of the timeline (and its history).
    Job { job: String },
    /// An event of the event log: its kind (`preempt`...) and job.
    Event { event: String, job: String },
    /// The "state at t" panel.
    StateAt,
    /// The compare view (switched on).
    Compare,
    /// The summary table.
    Summary,
    /// The Kueue cohort tree at the time cursor.
    Cohorts,
}

/// An edit to try: set the value at a JSON pointer of the scenario.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TryEdit {
    /// The button's text ("Make medium RESERVE").
    pub label: String,
    /// What to look for after it.
    pub then: String,
    /// RFC 6901 pointer into the scenario JSON (`/shares/1/strategy`).
    pub pointer: String,
    pub value: Value,
    /// What the engine must do in the edited scenario.
    #[serde(default)]
    pub claims: Claims,
}

/// A step's (or an edit's) claims as written. They are read only where they are checked
/// (the native story tests, [`super::claims`]), so the page's wasm carries no parser for
/// them (docs/PERFORMANCE.md, "Load size"); [`Claims::parse`] reads them.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct Claims(pub Value);

impl Claims {
    /// The claims, or what is wrong with them.
    pub fn parse(&self) -> Result<Vec<Claim>, String> {
        if self.0.is_null() {
            return Ok(Vec::new());
        }
        serde_json::from_value(self.0.clone()).map_err(|e| format!("claims: {e}"))
    }
}

/// A number, or an inclusive range `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Num {
    Exact(f64),
    Range([f64; 2]),
}

impl Num {
    pub fn holds(self, v: f64) -> bool {
        match self {
            Num::Exact(x) => (v - x).abs() <= 1e-6 * x.abs().max(1.0),
            Num::Range([lo, hi]) => lo <= v && v <= hi,
        }
    }
}

/// What a step's text says happened, checked against the run.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Claim {
    /// An event of the log at `t_s` (any job / cause / preemptor / borrowing when left out).
    Event {
        event: String,
        t_s: f64,
        job: Option<String>,
        cause: Option<String>,
        by: Option<String>,
        borrowing: Option<bool>,
    },
    /// A job's state (SPEC 6 name, `RUNNING`) after every event up to `t_s`.
    State {
        job: String,
        state: String,
        t_s: f64,
    },
    /// A share's allocation series at `t_s` (the chart's lines): instances.
    Series {
        share: String,
        t_s: f64,
        limit: Option<Num>,
        own: Option<Num>,
        borrowed: Option<Num>,
        lent: Option<Num>,
        queued: Option<Num>,
    },
    /// A job's row as it ended the run.
    Job {
        job: String,
        lost_s: Option<Num>,
        preemptions: Option<Num>,
        end_s: Option<Num>,
    },
    /// A share's metric in the run, or in one policy of the comparison (`as_given`,
    /// `partitioned`, `pooled`).
    Metric {
        share: String,
        metric: String,
        value: Num,
        policy: Option<String>,
    },
}

/// Parses a story file, with a message naming what is wrong.
pub fn parse(text: &str) -> Result<Story, String> {
    let story: Story = serde_json::from_str(text).map_err(|e| format!("story file: {e}"))?;
    if story.steps.is_empty() {
        return Err(format!("story {}: it has no steps", story.id));
    }
    for (i, s) in story.steps.iter().enumerate() {
        if !s.t_s.is_finite() || s.t_s < 0.0 {
            return Err(format!(
                "story {} step {}: t_s must be a time >= 0",
                story.id,
                i + 1
            ));
        }
        if s.text.trim().is_empty() || s.title.trim().is_empty() {
            return Err(format!(
                "story {} step {}: the title and text cannot be empty",
                story.id,
                i + 1
            ));
        }
    }
    if let ScenarioRef::Preset(id) = &story.scenario {
        if preset_text(id).is_none() {
            return Err(format!(
                "story {}: no compiled-in preset is called \"{id}\"",
                story.id
            ));
        }
    }
    Ok(story)
}

/// The text of a compiled-in preset by id.
pub fn preset_text(id: &str) -> Option<&'static str> {
    crate::io::presets::PRESETS
        .iter()
        .find(|p| p.id == id)
        .and_then(|p| p.inline())
}

impl Story {
    /// The scenario text the story opens (a preset's own text, or the inline scenario
    /// pretty-printed).
    pub fn scenario_text(&self) -> String {
        match &self.scenario {
            ScenarioRef::Preset(id) => preset_text(id).unwrap_or_default().to_string(),
            ScenarioRef::Inline(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        }
    }
}

/// `text` with `edit` applied, or why it cannot be.
pub fn apply_edit(text: &str, edit: &TryEdit) -> Result<String, String> {
    let mut v: Value =
        serde_json::from_str(text).map_err(|e| format!("the scenario is not JSON: {e}"))?;
    let missing = || format!("the scenario has nothing at {}", edit.pointer);
    if let Some(slot) = v.pointer_mut(&edit.pointer) {
        *slot = edit.value.clone();
    } else {
        // A new field of an existing object (`/jobs/2/checkpoint`).
        let (parent, key) = edit.pointer.rsplit_once('/').ok_or_else(missing)?;
        let key = key.replace("~1", "/").replace("~0", "~");
        v.pointer_mut(parent)
            .and_then(Value::as_object_mut)
            .ok_or_else(missing)?
            .insert(key, edit.value.clone());
    }
    serde_json::to_string_pretty(&v).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_and_bad_values_are_named() {
        let ok = r#"{"id":"x","title":"X","intro":"i","scenario":{"preset":"aws"},
            "steps":[{"t_s":0,"title":"a","text":"b"}]}"#;
        assert!(parse(ok).is_ok());
        let extra = ok.replace("\"intro\"", "\"colour\":1,\"intro\"");
        assert!(parse(&extra)
            .unwrap_err()
            .contains("unknown field `colour`"));
        let kind = ok.replace(
            "\"text\":\"b\"",
            "\"text\":\"b\",\"highlight\":[{\"kind\":\"chart\"}]",
        );
        assert!(parse(&kind)
            .unwrap_err()
            .contains("unknown variant `chart`"));
        let hl = ok.replace(
            "\"text\":\"b\"",
            "\"text\":\"b\",\"highlight\":[{\"kind\":\"job\",\"job\":\"a\",\"x\":1}]",
        );
        assert!(
            parse(&hl).unwrap_err().contains("unknown field `x`"),
            "{:?}",
            parse(&hl)
        );
        let neg = ok.replace("\"t_s\":0", "\"t_s\":-1");
        assert!(parse(&neg).unwrap_err().contains("t_s must be"));
        let preset = ok.replace("aws", "nope");
        assert!(parse(&preset).unwrap_err().contains("\"nope\""));
        let empty = ok.replace(r#"[{"t_s":0,"title":"a","text":"b"}]"#, "[]");
        assert!(parse(&empty).unwrap_err().contains("no steps"));
        assert!(parse("{").is_err());
    }

    #[test]
    fn edits_set_a_pointer() {
        let edit = TryEdit {
            label: String::new(),
            then: String::new(),
            pointer: "/a/1".into(),
            value: Value::from("z"),
            claims: Claims::default(),
        };
        let out = apply_edit(r#"{"a":["x","y"]}"#, &edit).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["a"][1], "z");
        assert!(apply_edit(r#"{"a":[]}"#, &edit).is_err());
        let add = TryEdit {
            pointer: "/b/c".into(),
            ..edit
        };
        let out = apply_edit(r#"{"b":{}}"#, &add).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["b"]["c"], "z");
    }
}
