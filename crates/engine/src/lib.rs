//! Quota Lab's engine: the quota-sharing simulator of `SPEC.md`.
//!
//! Pure and deterministic: no I/O, no clock, no global state, no web dependency. The same
//! scenario text gives the same result bytes natively and in wasm.

pub mod analysis;
pub mod config;
pub mod input;
pub mod link;
pub mod output;
pub mod pipeline;
pub mod simulation;
pub mod sort;

pub use analysis::{advisor, compare};
pub use input::{catalogue, model, trace, translate, validate, workload};
pub use output::{digest, result, tree_view};
pub use simulation as sim;
pub use simulation::{admission, lifecycle, pass, preemption, quota_tree};

pub use sim::{Finished, Options, Sim};
pub use validate::{load, load_remembering, JobsMemo, Loaded};

use std::fmt;

use input::path::Path;

/// One problem with an input, named by its JSON path (SPEC 7: `jobs[3].work_s: must be > 0`).
/// Serde, whole, so that the page words a problem from an engine worker as it words its own.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Problem {
    /// JSON path such as `shares[2].borrow_limit`, as steps ([`Path`]); the root for the
    /// document as a whole. A place outside the scenario (a command-line option, a place in
    /// an imported file) is [`Path::named`].
    pub path: Path,
    pub message: String,
    /// What was expected, for readers that word the problem themselves (the page says
    /// "Work: type a number of seconds greater than 0" where the CLI prints the message).
    pub kind: Kind,
    /// For a warning about an imported file: the object(s) it is about, which the page
    /// names instead of the path ([`Problem::words`]); never part of [`Display`](fmt::Display),
    /// so the CLI's text keeps its paths.
    pub object: Option<Box<Object>>,
    /// For a command that reads several inputs (`quotasim review`): the one the problem is
    /// in, written before its path.
    pub file: Option<Box<InFile>>,
}

/// The input a problem is in (SPEC 16's review reads two configurations and a jobs file):
/// the CLI writes `proposed.yaml (PROPOSED) with the jobs of jobs.json: capacity.x: ...`;
/// the page names the file and words the path as it words its own.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InFile {
    /// As the user named it: a file's path, `the scenario`, `the pasted proposal`.
    pub name: String,
    /// What the CLI adds after the name (`(PROPOSED)`, `(CURRENT) with the jobs of
    /// jobs.json`); may be empty.
    pub role: String,
}

impl InFile {
    /// The input as the page names it: its name, a sentence's start when it is words (`The
    /// scenario`), a file's name as it is (`proposed.yaml`).
    pub fn words(&self) -> String {
        match self.name.strip_prefix("the ") {
            Some(rest) => format!("The {rest}"),
            None => self.name.clone(),
        }
    }
}

/// What an import warning is about, in the file's own terms: `kind` (`ClusterQueue`), the
/// objects' names (`team-a-cq`; several for a warning told once for many), the `field`
/// inside them (`namespaceSelector`; empty for the object as a whole) and what happened
/// to it (`ignored`; else the CLI's message).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Object {
    pub kind: String,
    pub names: Vec<String>,
    pub field: String,
    pub what: String,
    /// SPEC 16: the warning is about a history job that had not finished by the history's
    /// end (replayed with only the time it had run): the page counts these by kind.
    pub unfinished: Option<Unfinished>,
}

/// A job of an imported history that had not finished at the history's end (SPEC 16): one
/// still running is replayed with the time it had run so far, one still pending with 1 s;
/// either way its `work_s` is a lower bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Unfinished {
    Running,
    Pending,
}

/// A job of an imported history that had not finished at the history's end (SPEC 16), as
/// the import reports it ([`config::Imported::unfinished`]): the page says which results
/// are lower bounds from these, never from the warnings' text.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct UnfinishedJob {
    /// The job's id in the scenario (`namespace/name` for a Kueue Workload).
    pub id: String,
    /// Its share (ClusterQueue) in the imported scenario.
    pub share: String,
    pub kind: Unfinished,
    /// The time it had run by the history's end, in seconds (0 for one still pending); its
    /// replayed `work_s` is this, at least 1 s.
    pub ran_s: f64,
}

/// What a problem is about, machine-readable: the rule that refused the value and what it
/// accepts. [`Kind::Other`] problems are told by their message only.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    #[default]
    Other,
    /// A required field is missing.
    Required,
    /// The value must be a number (`whole`: with no fractional part; `seconds`: a time)
    /// within the bounds.
    Number {
        whole: bool,
        seconds: bool,
        min: Option<Bound>,
        max: Option<Bound>,
    },
    /// The value must be a string.
    Text,
    /// The string must not be empty.
    NotEmpty,
    /// The value must be true or false.
    Bool,
    /// The value must be one of these strings.
    OneOf(Vec<String>),
    /// The name is already used by another entry of the same list.
    Duplicate,
    /// The name refers to nothing that exists; the names that do.
    Unknown(Vec<String>),
}

/// One end of a number's range: `value` itself allowed (`inclusive`) or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Bound {
    pub value: i64,
    pub inclusive: bool,
}

impl Problem {
    pub fn new(path: Path, message: impl Into<String>) -> Problem {
        Problem {
            path,
            message: message.into(),
            kind: Kind::Other,
            object: None,
            file: None,
        }
    }

    /// The same problem, said to be in input `name` (`role`: what the CLI adds after the
    /// name); a problem already placed in an input keeps its place.
    pub fn in_file(mut self, name: &str, role: &str) -> Problem {
        if self.file.is_none() {
            self.file = Some(Box::new(InFile {
                name: name.to_string(),
                role: role.to_string(),
            }));
        }
        self
    }

    /// Where the problem is, as the CLI writes it before the message: the path, after the
    /// input it is in (`proposed.yaml (PROPOSED): capacity.ml.g5.xlarge`); empty for the
    /// document as a whole.
    pub fn place(&self) -> String {
        let path = self.path.to_string();
        match self.file.as_deref() {
            None => path,
            Some(f) => {
                let file = if f.role.is_empty() {
                    f.name.clone()
                } else {
                    format!("{} {}", f.name, f.role)
                };
                if path.is_empty() {
                    file
                } else {
                    format!("{file}: {path}")
                }
            }
        }
    }

    /// The problem in the page's words: an import warning names its object
    /// (`ClusterQueue team-a-cq: namespaceSelector ignored`) instead of its path
    /// (`[3].spec.namespaceSelector: ignored: namespaceSelector`); any other problem as
    /// [`Display`](fmt::Display) writes it.
    pub fn words(&self) -> String {
        let Some(o) = &self.object else {
            return self.to_string();
        };
        let file = match self.file.as_deref() {
            Some(f) => format!("{}: ", f.words()),
            None => String::new(),
        };
        const SHOWN: usize = 3;
        let mut names = o.names[..o.names.len().min(SHOWN)].join(", ");
        if o.names.len() > SHOWN {
            // The kind, named just before, says what the rest counts.
            let rest = input::digits::group_digits((o.names.len() - SHOWN) as u64);
            names.push_str(&format!(" and {rest} more"));
        }
        let kind = if o.names.len() == 1 || o.kind.is_empty() {
            o.kind.clone()
        } else {
            format!("{}s", o.kind)
        };
        let who = format!("{kind} {names}").trim().to_string();
        let said = if o.field.is_empty() {
            // Nothing named ("Fair sharing is on: ..."): the words alone.
            format!("{who} {}", o.what).trim_start().to_string()
        } else if let Some(rest) = o.what.strip_prefix("not ") {
            // "nominalQuota of nvidia.com/gpu in flavor a100 is not a quantity (x)".
            format!("{who}: {} is not {rest}", o.field)
        } else {
            format!("{who}: {} {}", o.field, o.what)
        };
        // A sentence: "Quota share research: tags ignored" ("job x ..." starts one too).
        let mut c = said.chars();
        let said = match c.next() {
            Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
            None => said,
        };
        file + &said
    }

    /// The same problem, said on the page about the objects it concerns
    /// ([`Problem::words`]): an export's refusal names the ClusterQueue or cohort and the
    /// Kueue setting ("Cohort research has a parent cohort (org): AWS Batch has no nested
    /// cohorts") where the CLI keeps the path. An empty `kind` with no `names`: `what`
    /// alone.
    pub fn about(
        mut self,
        kind: &str,
        names: &[&str],
        field: &str,
        what: impl Into<String>,
    ) -> Problem {
        self.object = Some(Box::new(Object {
            kind: kind.to_string(),
            names: names.iter().map(|n| n.to_string()).collect(),
            field: field.to_string(),
            what: what.into(),
            unfinished: None,
        }));
        self
    }

    /// A problem with the input as a whole (its path is the root).
    pub fn whole(message: impl Into<String>) -> Problem {
        Problem::new(Path::root(), message)
    }

    /// The same problem, with a machine-readable kind.
    pub fn with_kind(mut self, kind: Kind) -> Problem {
        self.kind = kind;
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() && self.file.is_none() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.place(), self.message)
        }
    }
}

/// Simulates a validated scenario to the end (SPEC 4-6).
pub fn simulate(scenario: &model::Scenario, opts: Options) -> Finished<'_> {
    Sim::new(scenario, opts).run()
}

/// Validates and simulates a scenario given as JSON text; returns the result JSON
/// (SPEC 8) or every problem found (SPEC 7). A thin wrapper of [`pipeline::run`].
pub fn run_json(scenario_json: &str) -> Result<String, Vec<Problem>> {
    let opts = pipeline::RunOptions::default();
    let run = pipeline::run(scenario_json, &opts)?;
    Ok(run.output.into_text().unwrap_or_default())
}

/// Validates and simulates a scenario; returns the display digest (see [`digest`]). A thin
/// wrapper of [`pipeline::run`].
pub fn run_digest(
    scenario_json: &str,
    limits: digest::DigestLimits,
) -> Result<digest::Digest, Vec<Problem>> {
    let opts = pipeline::RunOptions {
        product: pipeline::Product::Digest(limits),
        ..pipeline::RunOptions::default()
    };
    let run = pipeline::run(scenario_json, &opts)?;
    Ok(run
        .output
        .into_digest()
        .unwrap_or_else(|| unreachable!("a digest was asked for")))
}
