//! SPEC 14 "The interruption contract": the readers of its fields, shared by the validator
//! (jobs, shares, the scenario's `alarms`) and the workload parser, so that a field has the
//! same words wherever it is written. Every problem names its JSON path.

use serde_json::{Map, Value};

use crate::input::json::{self, kind, Rule};
use crate::input::model::{
    ms_from_s, Agreement, Alarms, Escalate, OnExhausted, Recovery, MAX_AGREEMENT_CHARS,
};
use crate::input::path::Path;
use crate::Problem;

/// The job (and workload) fields of SPEC 14.
pub const JOB_FIELDS: &[&str] = &["recovery", "on_retries_exhausted", "escalate"];
/// The fields of `recovery`.
pub const RECOVERY_FIELDS: &[&str] = &["restore_failure", "invalid_resume"];
/// The fields of `escalate`.
pub const ESCALATE_FIELDS: &[&str] = &["before_deadline_s", "to_priority"];
/// The fields of a share's `agreement`.
pub const AGREEMENT_FIELDS: &[&str] = &["owner", "rationale", "interruption_contract", "review_by"];
/// The default of `alarms.repeated_preemptions` (SPEC 14).
pub const DEFAULT_REPEATED_PREEMPTIONS: u64 = 3;

/// A probability: a number in `[0, 1]`.
const PROBABILITY: Rule = Rule::NUMBER.at_least(0).at_most(1);

fn object<'v>(
    v: &'v Value,
    path: &Path,
    problems: &mut Vec<Problem>,
) -> Option<&'v Map<String, Value>> {
    match v {
        Value::Object(m) => Some(m),
        other => {
            problems.push(Problem::new(
                path.clone(),
                format!("must be an object, not {}", kind(other)),
            ));
            None
        }
    }
}

/// Unknown keys of a SPEC 14 object are problems (a misspelt probability must not be read
/// as 0 silently).
fn known_keys(m: &Map<String, Value>, path: &Path, known: &[&str], problems: &mut Vec<Problem>) {
    for k in m.keys() {
        if !known.contains(&k.as_str()) {
            problems.push(Problem::new(
                path.key(k),
                format!("unknown field (expected one of: {})", known.join(", ")),
            ));
        }
    }
}

fn keep<T>(r: Result<T, Problem>, problems: &mut Vec<Problem>) -> Option<T> {
    r.map_err(|p| problems.push(p)).ok()
}

/// SPEC 14 `recovery`: {`restore_failure`, `invalid_resume`}, probabilities in [0, 1]
/// (each optional, default 0).
pub fn recovery(v: &Value, path: &Path, problems: &mut Vec<Problem>) -> Option<Recovery> {
    let m = object(v, path, problems)?;
    known_keys(m, path, RECOVERY_FIELDS, problems);
    let before = problems.len();
    let mut p = |key: &str| match json::get(m, key) {
        None => Some(0.0),
        Some(x) => keep(json::number(x, &path.key(key), PROBABILITY), problems),
    };
    let restore_failure = p("restore_failure");
    let invalid_resume = p("invalid_resume");
    if problems.len() != before {
        return None;
    }
    Some(Recovery {
        restore_failure: restore_failure?,
        invalid_resume: invalid_resume?,
    })
}

/// SPEC 14 `on_retries_exhausted`: `"fail"` or {`resubmit`: {`share`, `priority`}}. The
/// share must exist (`shares` are the scenario's names) and differ from `own` (the job's
/// share, when known); `priority` is one of the model's (`kueue`: SPEC 12's 32-bit range).
pub fn on_exhausted(
    v: &Value,
    path: &Path,
    shares: &[&str],
    own: Option<usize>,
    kueue: bool,
    problems: &mut Vec<Problem>,
) -> Option<OnExhausted> {
    const HINT: &str = "must be \"fail\" or {\"resubmit\": {\"share\": NAME}}";
    match v {
        Value::String(s) if s == "fail" => return Some(OnExhausted::Fail),
        Value::Object(_) => {}
        _ => {
            problems.push(Problem::new(path.clone(), format!("{HINT} (got {v})")));
            return None;
        }
    }
    let m = object(v, path, problems)?;
    known_keys(m, path, &["resubmit"], problems);
    let rpath = path.key("resubmit");
    let Some(r) = json::get(m, "resubmit") else {
        problems.push(json::required_with(&rpath, &format!(": {HINT}")));
        return None;
    };
    let r = object(r, &rpath, problems)?;
    known_keys(r, &rpath, &["share", "priority"], problems);
    let spath = rpath.key("share");
    let share = match json::get(r, "share") {
        None => {
            problems.push(json::required_with(
                &spath,
                ": the share the job is submitted to again",
            ));
            None
        }
        Some(x) => match keep(json::string(x, &spath), problems) {
            None => None,
            Some(name) => match shares.iter().position(|n| *n == name) {
                None => {
                    problems.push(json::unknown(
                        &spath,
                        format!("unknown share \"{name}\" (shares: {})", shares.join(", ")),
                        shares,
                    ));
                    None
                }
                Some(i) if Some(i) == own => {
                    problems.push(Problem::new(
                        spath.clone(),
                        format!("must differ from the job's own share \"{name}\" (a resubmission moves the job to another share)"),
                    ));
                    None
                }
                Some(i) => Some(i),
            },
        },
    };
    let priority = match json::get(r, "priority") {
        None => Some(None),
        Some(x) => keep(json::priority(x, &rpath.key("priority"), kueue), problems).map(Some),
    };
    Some(OnExhausted::Resubmit {
        share: share?,
        priority: priority?,
    })
}

/// SPEC 14 `escalate`: {`before_deadline_s` (seconds >= 0), `to_priority`}, both required.
/// `has_deadline` says whether the job has one (else the field is refused); `to_priority`
/// is one of the model's (`kueue`: SPEC 12's 32-bit range).
pub fn escalate(
    v: &Value,
    path: &Path,
    has_deadline: bool,
    deadline_field: &str,
    kueue: bool,
    problems: &mut Vec<Problem>,
) -> Option<Escalate> {
    let m = object(v, path, problems)?;
    known_keys(m, path, ESCALATE_FIELDS, problems);
    let before = problems.len();
    if !has_deadline {
        problems.push(Problem::new(
            path.clone(),
            format!("needs a deadline: give {deadline_field} (escalation happens before_deadline_s before it)"),
        ));
    }
    let bpath = path.key("before_deadline_s");
    let x = match json::get(m, "before_deadline_s") {
        None => {
            problems.push(json::required(&bpath));
            None
        }
        Some(x) => keep(json::number(x, &bpath, Rule::SECONDS), problems),
    };
    let ppath = path.key("to_priority");
    let p = match json::get(m, "to_priority") {
        None => {
            problems.push(json::required(&ppath));
            None
        }
        Some(x) => keep(json::priority(x, &ppath, kueue), problems),
    };
    if problems.len() != before {
        return None;
    }
    Some(Escalate {
        before_deadline: ms_from_s(x?),
        to_priority: p?,
    })
}

/// SPEC 14 share `agreement`: {`owner`, `rationale`, `interruption_contract`,
/// `review_by`}: strings of at most [`MAX_AGREEMENT_CHARS`] characters each (each optional),
/// stored exactly as given.
pub fn agreement(v: &Value, path: &Path, problems: &mut Vec<Problem>) -> Option<Agreement> {
    let m = object(v, path, problems)?;
    known_keys(m, path, AGREEMENT_FIELDS, problems);
    let before = problems.len();
    let mut text = |key: &str| -> Option<String> {
        let p = path.key(key);
        let s = keep(json::string(json::get(m, key)?, &p), problems)?;
        let n = s.chars().count();
        if n > MAX_AGREEMENT_CHARS {
            problems.push(Problem::new(
                p,
                format!("must be at most {MAX_AGREEMENT_CHARS} characters (has {n})"),
            ));
            return None;
        }
        Some(s.to_string())
    };
    let a = Agreement {
        owner: text("owner"),
        rationale: text("rationale"),
        interruption_contract: text("interruption_contract"),
        review_by: text("review_by"),
    };
    (problems.len() == before).then_some(a)
}

/// SPEC 14 scenario `alarms`: {`repeated_preemptions`: k >= 1, default 3}.
pub fn alarms(v: &Value, path: &Path, problems: &mut Vec<Problem>) -> Option<Alarms> {
    let m = object(v, path, problems)?;
    known_keys(m, path, &["repeated_preemptions"], problems);
    let k = match json::get(m, "repeated_preemptions") {
        None => DEFAULT_REPEATED_PREEMPTIONS,
        Some(x) => keep(
            json::integer(
                x,
                &path.key("repeated_preemptions"),
                Rule::whole(1, i64::MAX),
            ),
            problems,
        )? as u64,
    };
    Some(Alarms {
        repeated_preemptions: k,
    })
}

/// The SPEC 14 fields of one job or workload object `m` at `path`: `recovery`,
/// `on_retries_exhausted` (against the scenario's `shares` and the job's own share) and
/// `escalate` (`has_deadline`: whether `deadline_field` is given). Each is `None` when it
/// has a problem (pushed). `kueue`: the scenario follows the Kueue model (its priorities
/// are any 32-bit integer, SPEC 12).
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn job_fields(
    m: &Map<String, Value>,
    path: &Path,
    shares: &[&str],
    own: Option<usize>,
    has_deadline: bool,
    deadline_field: &str,
    kueue: bool,
    problems: &mut Vec<Problem>,
) -> (
    Option<Option<Recovery>>,
    Option<OnExhausted>,
    Option<Option<Escalate>>,
) {
    let recovery = match json::get(m, "recovery") {
        None => Some(None),
        Some(v) => recovery(v, &path.key("recovery"), problems).map(Some),
    };
    let on = match json::get(m, "on_retries_exhausted") {
        None => Some(OnExhausted::Fail),
        Some(v) => on_exhausted(
            v,
            &path.key("on_retries_exhausted"),
            shares,
            own,
            kueue,
            problems,
        ),
    };
    let esc = match json::get(m, "escalate") {
        None => Some(None),
        Some(v) => escalate(
            v,
            &path.key("escalate"),
            has_deadline,
            deadline_field,
            kueue,
            problems,
        )
        .map(Some),
    };
    (recovery, on, esc)
}
