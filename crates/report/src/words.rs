//! Where a problem is, in words: a JSON path as the editor names the field
//! (`shares[2].borrow_limit` is "Share 3, borrow limit (%)"), shared by the page and the
//! report (the command line keeps its paths).

use quotalab_engine::Problem;

/// `s` with its first letter in upper case (ASCII only).
pub fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        // ASCII only: the page carries no Unicode case tables (a name's first letter is kept).
        Some(f) => std::iter::once(f.to_ascii_uppercase()).chain(c).collect(),
        None => String::new(),
    }
}

/// A JSON key in words: `work_s` is "work", `borrow_limit` "borrow limit".
fn key_words(key: &str) -> String {
    let known = match key {
        "submit_s" => Some("submit time"),
        "at_s" => Some("time"),
        "horizon_s" => Some("horizon"),
        "preemption_grace_s" => Some("preemption grace"),
        "in_share_preemption" => Some("in-share preemption"),
        "usd_per_hour" => Some("USD per hour"),
        "set_priority" => Some("priority change"),
        "update_share" => Some("share change"),
        "poisson_per_hour" => Some("jobs per hour"),
        "borrow_limit" => Some("borrow limit (%)"),
        "borrowing_limit" => Some("borrowingLimit"),
        "lending_limit" => Some("lendingLimit"),
        _ => None,
    };
    if let Some(k) = known {
        return k.to_string();
    }
    let k = key.strip_suffix("_s").unwrap_or(key);
    k.replace('_', " ")
}

/// Where a JSON path is, in the editor's words: `jobs[0].share` is "Explicit job 1, share".
pub fn place(path: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut rest = path;
    let mut first = true;
    while !rest.is_empty() {
        // A key up to the next '.' or '['; instance-type keys contain dots, so a key that
        // names a catalogue type or has no bracket after it runs to the end.
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let (key, tail) = rest.split_at(end);
        let (index, tail) = match tail.strip_prefix('[') {
            Some(t) => match t.find(']') {
                Some(j) => (t[..j].parse::<usize>().ok(), &t[j + 1..]),
                None => (None, ""),
            },
            None => (None, tail),
        };
        if !key.is_empty() {
            let word = if first {
                match key {
                    "shares" => "Share".to_string(),
                    "jobs" => "Explicit job".to_string(),
                    "workloads" => "Workload mix".to_string(),
                    "events" => "Timed event".to_string(),
                    "instance_types" => "Instance type".to_string(),
                    "capacity" | "limits" => {
                        // The rest is an instance type's name, dots and all.
                        let t = tail.strip_prefix('.').unwrap_or(tail);
                        out.push(capitalized(&key_words(key)));
                        if !t.is_empty() {
                            out.push(t.to_string());
                        }
                        return out.join(", ");
                    }
                    other => capitalized(&key_words(other)),
                }
            } else if matches!(
                key,
                "limits" | "capacity" | "borrowing_limit" | "lending_limit"
            ) {
                // Per-type maps: the rest is an instance type's name, dots and all.
                out.push(
                    format!("{} {}", key_words(key), tail.trim_start_matches('.'))
                        .trim_end()
                        .to_string(),
                );
                return out.join(", ");
            } else {
                key_words(key)
            };
            match index {
                Some(i) => out.push(format!("{word} {}", i + 1)),
                None => out.push(word),
            }
        } else if let Some(i) = index {
            out.push(format!("item {}", i + 1));
        }
        first = false;
        rest = tail.strip_prefix('.').unwrap_or(tail);
    }
    out.join(", ")
}

/// A warning or problem in words: an import warning names its object
/// ([`Problem::words`]); any other is its place ([`place`]) and message
/// (`Capacity, ml.g5.xlarge: ...`, not `capacity.ml.g5.xlarge: ...`).
pub fn problem(p: &Problem) -> String {
    if p.object.is_some() || p.path.is_empty() {
        return p.words();
    }
    let at = p.path.to_string();
    if at.starts_with("job \"") {
        // A generated job, named by its id.
        return format!("{}: {}", capitalized(&at), p.message);
    }
    format!("{}: {}", place(&at), p.message)
}
