//! Decisions (SPEC 12.1): who is admitted, who preempts whom, who completes, and when.
//!
//! Within one instant the order of decisions is not compared (Kueue's cycles and the
//! engine's pass may write them in a different order); their set is.

use std::fmt;

use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Decision {
    pub t_ms: i64,
    pub kind: Kind,
    pub job: String,
    /// The preemptor, for a preemption.
    pub by: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Complete,
    Preempt,
    Dispatch,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Complete => "complete",
            Kind::Preempt => "preempt",
            Kind::Dispatch => "dispatch",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "t={}s {} {}",
            crate::expand::seconds(self.t_ms),
            self.kind.as_str(),
            self.job
        )?;
        if let Some(by) = &self.by {
            write!(f, " by {by}")?;
        }
        Ok(())
    }
}

/// A time in seconds as the result JSON writes it (`t_s`), in ms.
pub(crate) fn ms(v: &Value) -> i64 {
    (v.as_f64().unwrap_or(0.0) * 1000.0).round() as i64
}

/// The decisions among `events` (a result's, whose completion is `succeed`, or the
/// harness's, whose completion is `complete`), sorted by time, then kind and job.
pub fn from_events(events: &[Value]) -> Vec<Decision> {
    let mut out: Vec<Decision> = events
        .iter()
        .filter_map(|e| {
            let kind = match e["kind"].as_str()? {
                "dispatch" => Kind::Dispatch,
                "preempt" => Kind::Preempt,
                "succeed" | "complete" => Kind::Complete,
                _ => return None,
            };
            Some(Decision {
                t_ms: ms(&e["t_s"]),
                kind,
                job: e["job"].as_str()?.to_string(),
                by: (kind == Kind::Preempt).then(|| e["by"].as_str().unwrap_or("").to_string()),
            })
        })
        .collect();
    out.sort();
    out
}

/// The engine's decisions on a scenario (its result JSON's events).
pub fn engine(text: &str) -> Result<Vec<Decision>, String> {
    engine_run(text).map(|(decisions, _)| decisions)
}

/// [`engine`], with the instants (ms) at which the engine found Kueue's cycles would never
/// settle (the result's `unsettled_instants_s`).
pub fn engine_run(text: &str) -> Result<(Vec<Decision>, Vec<i64>), String> {
    let run = quotalab_engine::pipeline::run(text, &Default::default())
        .map_err(|p| crate::expand::lines(&p))?;
    let json = run.output.into_text().ok_or("no result JSON")?;
    let v: Value = serde_json::from_str(&json).map_err(|e| e.to_string())?;
    let unsettled = v["unsettled_instants_s"]
        .as_array()
        .map(|a| a.iter().map(ms).collect())
        .unwrap_or_default();
    Ok((
        from_events(v["events"].as_array().map(Vec::as_slice).unwrap_or(&[])),
        unsettled,
    ))
}

/// Where two decision lists part: the first instant whose decisions differ, with each
/// side's decisions at that instant.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub t_ms: i64,
    pub engine: Vec<Decision>,
    pub kueue: Vec<Decision>,
}

impl Difference {
    /// The difference on one line, as a `--quiet` run prints it.
    pub fn one_line(&self) -> String {
        self.to_string().replace('\n', " ").trim_end().to_string()
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "first difference at t={}s",
            crate::expand::seconds(self.t_ms)
        )?;
        let show = |f: &mut fmt::Formatter<'_>, who: &str, d: &[Decision]| -> fmt::Result {
            write!(f, "  {who}:")?;
            if d.is_empty() {
                write!(f, " (nothing)")?;
            }
            for x in d {
                write!(
                    f,
                    " [{} {}{}]",
                    x.kind.as_str(),
                    x.job,
                    x.by.as_ref()
                        .map(|b| format!(" by {b}"))
                        .unwrap_or_default()
                )?;
            }
            writeln!(f)
        };
        show(f, "engine", &self.engine)?;
        show(f, "kueue ", &self.kueue)
    }
}

/// The first difference between the engine's and Kueue's decisions, if any.
pub fn first_difference(engine: &[Decision], kueue: &[Decision]) -> Option<Difference> {
    let instants = |d: &[Decision]| {
        let mut t: Vec<i64> = d.iter().map(|x| x.t_ms).collect();
        t.dedup();
        t
    };
    let mut all = instants(engine);
    all.extend(instants(kueue));
    all.sort_unstable();
    all.dedup();
    for t in all {
        let a: Vec<Decision> = engine.iter().filter(|x| x.t_ms == t).cloned().collect();
        let b: Vec<Decision> = kueue.iter().filter(|x| x.t_ms == t).cloned().collect();
        if a != b {
            return Some(Difference {
                t_ms: t,
                engine: a,
                kueue: b,
            });
        }
    }
    None
}
