//! SPEC 13: named priorities. A scenario's `priority_classes` {name: value} (what Kueue's
//! WorkloadPriorityClasses become on import) name priority values; a job or a workload may
//! give `priority_class: NAME` instead of `priority`. [`resolve`] checks the classes and
//! rewrites each `priority_class` as the `priority` it names before the validator reads the
//! scenario, so every other rule (the priority's range in the model, set_priority) is the
//! validator's as for a number written out.

use serde_json::Value;

use super::json::kind;
use super::path::Path;
use crate::Problem;

/// Checks `priority_classes` and resolves every `priority_class` of `jobs` and `workloads`
/// (problems go to `errors`, each naming its path). `Some(document)` with the classes
/// resolved when any job or workload names one, `None` when the document is used as it is.
pub fn resolve(doc: &Value, errors: &mut Vec<Problem>) -> Option<Value> {
    let top = doc.as_object()?;
    let mut classes: Vec<(&str, i64)> = Vec::new();
    match top.get("priority_classes") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (name, v) in m {
                let path = Path::root().key("priority_classes").key(name);
                match v.as_i64() {
                    Some(n) if i32::try_from(n).is_ok() => classes.push((name, n)),
                    Some(_) => errors.push(Problem::new(
                        path,
                        "must be a 32-bit integer (a WorkloadPriorityClass value)",
                    )),
                    None => errors.push(Problem::new(
                        path,
                        format!("must be an integer priority, not {}", kind(v)),
                    )),
                }
            }
        }
        Some(other) => errors.push(Problem::new(
            Path::root().key("priority_classes"),
            format!(
                "must be an object of {{\"NAME\": priority}}, not {}",
                kind(other)
            ),
        )),
    }
    let names_one = |key: &str| {
        top.get(key)
            .and_then(Value::as_array)
            .is_some_and(|l| l.iter().any(|x| x.get("priority_class").is_some()))
    };
    if !names_one("jobs") && !names_one("workloads") {
        return None;
    }
    let mut doc = doc.clone();
    let known = || {
        if classes.is_empty() {
            "the scenario has no priority_classes".to_string()
        } else {
            let names: Vec<&str> = classes.iter().map(|(n, _)| *n).collect();
            format!("priority_classes: {}", names.join(", "))
        }
    };
    for key in ["jobs", "workloads"] {
        let Some(Value::Array(list)) = doc.get_mut(key) else {
            continue;
        };
        for (i, item) in list.iter_mut().enumerate() {
            let Some(m) = item.as_object_mut() else {
                continue;
            };
            let Some(class) = m.remove("priority_class") else {
                continue;
            };
            let path = Path::root().key(key).idx(i).key("priority_class");
            if m.contains_key("priority") {
                errors.push(Problem::new(
                    path,
                    "give priority or priority_class, not both",
                ));
                continue;
            }
            let Some(name) = class.as_str() else {
                errors.push(Problem::new(
                    path,
                    format!("must be the name of a priority class, not {}", kind(&class)),
                ));
                continue;
            };
            match classes.iter().find(|(n, _)| *n == name) {
                Some((_, value)) => {
                    m.insert("priority".into(), Value::from(*value));
                }
                None => errors.push(Problem::new(
                    path,
                    format!("unknown priority class \"{name}\" ({})", known()),
                )),
            }
        }
    }
    Some(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn classes_become_priorities() {
        let doc = json!({
            "priority_classes": {"high": 1000, "low": 10},
            "jobs": [{"id": "a", "priority_class": "high"}, {"id": "b", "priority": 3}],
            "workloads": [{"priority_class": "low"}],
        });
        let mut errors = Vec::new();
        let out = resolve(&doc, &mut errors).expect("resolved");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(out["jobs"][0]["priority"], 1000);
        assert!(out["jobs"][0].get("priority_class").is_none());
        assert_eq!(out["jobs"][1]["priority"], 3);
        assert_eq!(out["workloads"][0]["priority"], 10);
    }

    #[test]
    fn unknown_classes_and_both_fields_name_their_path() {
        let doc = json!({
            "priority_classes": {"high": 1000, "bad": "x"},
            "jobs": [{"priority_class": "urgent"}, {"priority_class": "high", "priority": 1}],
            "workloads": [{"priority_class": 7}],
        });
        let mut errors = Vec::new();
        resolve(&doc, &mut errors);
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "priority_classes.bad: must be an integer priority, not a string",
                "jobs[0].priority_class: unknown priority class \"urgent\" (priority_classes: high)",
                "jobs[1].priority_class: give priority or priority_class, not both",
                "workloads[0].priority_class: must be the name of a priority class, not a number",
            ]
        );
    }

    #[test]
    fn untouched_without_priority_class() {
        let mut errors = Vec::new();
        assert!(resolve(&json!({"jobs": [{"priority": 1}]}), &mut errors).is_none());
        assert!(errors.is_empty());
    }
}
