//! A large job history for the scale test and the figures of docs/PERFORMANCE.md (SPEC 16):
//! `N` Kueue Workloads like the CLI fixture's (`crates/cli/tests/history/kueue-workloads.yaml`,
//! its seven workloads repeated with their own names and times shifted a minute per round),
//! printed as `kubectl get workloads -A -o json` or `-o yaml` prints a List.
//!
//! `cargo run --release -p quotalab-engine --example history_gen -- 100000 json > wl100k.json`
//! (or `yaml`); the shares are the fixture's `kueue-config.yaml`.

use serde_json::{json, Value};

/// The fixture the workloads are copied from.
pub const FIXTURE: &str = include_str!("../../cli/tests/history/kueue-workloads.yaml");

/// `n` workloads as a List: JSON (kubectl's 4-space indentation) or YAML.
pub fn generate(n: usize, yaml: bool) -> String {
    let docs = quotalab_engine::config::kueue::parse_documents(FIXTURE).expect("the fixture");
    let items = docs[0]["items"].as_array().expect("a List").clone();
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let mut w = items[k % items.len()].clone();
        let round = (k / items.len()) as i64;
        if let Some(name) = w["metadata"]["name"].as_str() {
            w["metadata"]["name"] = json!(format!("{name}-{k}"));
        }
        shift_times(&mut w, round * 60);
        out.push(w);
    }
    let list = json!({
        "apiVersion": "v1",
        "items": out,
        "kind": "List",
        "metadata": {"resourceVersion": ""},
    });
    if yaml {
        let mut s = String::new();
        emit(&list, 0, &mut s);
        s
    } else {
        let mut buf = Vec::new();
        let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
        let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
        serde::Serialize::serialize(&list, &mut ser).expect("JSON");
        buf.push(b'\n');
        String::from_utf8(buf).expect("UTF-8")
    }
}

/// Adds `secs` to every RFC 3339 time (`2026-03-02T08:00:00Z`) of the value.
fn shift_times(v: &mut Value, secs: i64) {
    match v {
        Value::String(s) if s.len() == 20 && s.as_bytes()[10] == b'T' && s.ends_with('Z') => {
            let (h, m, sec): (i64, i64, i64) = (
                s[11..13].parse().unwrap_or(0),
                s[14..16].parse().unwrap_or(0),
                s[17..19].parse().unwrap_or(0),
            );
            let day: i64 = s[8..10].parse().unwrap_or(1);
            let t = ((day - 1) * 24 + h) * 3600 + m * 60 + sec + secs;
            let (d, r) = (t / 86_400, t % 86_400);
            // Days past the month's end stay in March (31 days) for up to ~40 days of shift.
            *s = format!(
                "{}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
                &s[0..4],
                3 + d / 31,
                1 + d % 31,
                r / 3600,
                r % 3600 / 60,
                r % 60
            );
        }
        Value::Array(a) => a.iter_mut().for_each(|x| shift_times(x, secs)),
        Value::Object(m) => m.values_mut().for_each(|x| shift_times(x, secs)),
        _ => {}
    }
}

/// YAML as kubectl prints it: block mappings, sequences at their key's column, strings
/// double-quoted (JSON strings are YAML strings).
fn emit(v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push_str(&pad);
                out.push_str(k);
                out.push(':');
                match x {
                    Value::Object(o) if !o.is_empty() => {
                        out.push('\n');
                        emit(x, indent + 2, out);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        emit(x, indent, out);
                    }
                    _ => {
                        out.push(' ');
                        scalar(x, out);
                        out.push('\n');
                    }
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                match x {
                    Value::Object(o) if !o.is_empty() => {
                        let mut inner = String::new();
                        emit(x, indent + 2, &mut inner);
                        out.push_str(&pad);
                        out.push_str("- ");
                        out.push_str(&inner[indent + 2..]);
                    }
                    _ => {
                        out.push_str(&pad);
                        out.push_str("- ");
                        scalar(x, out);
                        out.push('\n');
                    }
                }
            }
        }
        _ => {
            out.push_str(&pad);
            scalar(v, out);
            out.push('\n');
        }
    }
}

fn scalar(v: &Value, out: &mut String) {
    match v {
        Value::Object(_) => out.push_str("{}"),
        Value::Array(_) => out.push_str("[]"),
        other => out.push_str(&other.to_string()),
    }
}

#[allow(dead_code)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let yaml = args.get(2).is_some_and(|a| a == "yaml");
    print!("{}", generate(n, yaml));
}
