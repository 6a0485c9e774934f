//! Kueue YAML (SPEC 13): ClusterQueue (v1beta2 `spec.cohortName`, v1beta1 `spec.cohort`),
//! Cohort (`spec.parentName`, v1alpha1 `spec.parent`), ResourceFlavor,
//! WorkloadPriorityClass and a Kueue Configuration's `fairSharing` (alone, or inside the
//! `kueue-manager-config` ConfigMap), read into a Kueue-model scenario; and the export
//! back, which for an AWS scenario spells out SPEC 12's translation.

mod build;
mod export;
mod over;
mod read;

use serde_json::Value;

use super::{ImportOptions, Sink};
use crate::Problem;

use build::build;
use read::Reader;

pub(crate) use export::export;
pub(crate) use over::export as export_over;
pub use over::{Source, SOURCE_FIELD};

/// The pool cohort of an exported AWS scenario.
pub const AWS_COHORT: &str = "quotalab";

/// The parser's budgets: a document nested deeper, or aliases replaying more, is refused.
fn yaml_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = 48;
    budget.max_aliases = 1_000;
    budget.max_anchors = 1_000;
    budget.max_documents = 10_000;
    budget.max_nodes = 1_000_000;
    budget.max_events = 2_000_000;
    budget.max_reader_input_bytes = Some(super::MAX_FILE_BYTES);
    let mut alias = serde_saphyr::options::AliasLimits::default();
    alias.max_total_replayed_events = 10_000;
    alias.max_replay_stack_depth = 8;
    let mut o = serde_saphyr::Options::default();
    o.budget = Some(budget);
    o.alias_limits = alias;
    o.strict_booleans = true;
    o.with_snippet = false;
    o
}

/// SPEC 16: a file that is not YAML yet, named by its shape so the message says what to do:
/// a Go or Helm template (`{{ .Values.x }}`: render it first), or a shell heredoc
/// (`cat <<EOF | kubectl apply -f -`: import the YAML between the markers). Comment lines
/// are skipped. Asked only of a text the YAML parser refused; `None` for any other shape
/// (the parser's message is given).
pub fn unrendered(text: &str) -> Option<String> {
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with('#') {
            continue;
        }
        let n = i + 1;
        if t.contains("{{") && t.contains("}}") {
            return Some(format!(
                "line {n} holds a template expression ({{{{ … }}}}): this is a Go or Helm template, not a configuration; render it first (for example `helm template`) and import its output"
            ));
        }
        if let Some(at) = t.find("<<") {
            let marker = t[at + 2..].trim_start_matches('-').trim_start();
            let marker = marker.trim_start_matches(['\'', '"']);
            if marker.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                return Some(format!(
                    "line {n} starts a shell heredoc (`{}`): import only the YAML between that line and its closing marker",
                    t.trim_end()
                ));
            }
        }
    }
    None
}

/// Parses a YAML stream into its documents (empty documents are skipped).
pub fn parse_documents(text: &str) -> Result<Vec<Value>, String> {
    serde_saphyr::from_multiple_with_options::<Value>(text, yaml_options()).map_err(|e| {
        let msg = e.to_string();
        let msg = msg.lines().next().unwrap_or("").to_string();
        format!("YAML: {msg}")
    })
}

/// Keeps a document's objects: itself, or a `List`'s items.
fn keep_objects(d: Value, out: &mut Vec<Value>) {
    match d {
        Value::Object(mut m) if m.get("kind").and_then(Value::as_str) == Some("List") => {
            if let Some(Value::Array(items)) = m.remove("items") {
                for item in items {
                    keep_objects(item, out);
                }
            }
        }
        Value::Object(m) => out.push(Value::Object(m)),
        _ => {}
    }
}

/// A quota of one flavor of the counted resource, in the resource's units (GPUs).
struct FlavorQuota {
    flavor: String,
    path: String,
    nominal: u64,
    borrowing: Option<u64>,
    lending: Option<u64>,
}

/// A ClusterQueue or a Cohort, as read.
struct Node {
    name: String,
    path: String,
    file: usize,
    cohort: Option<String>,
    quotas: Vec<FlavorQuota>,
    covers_resource: bool,
    queueing: Option<&'static str>,
    preemption: Option<Value>,
    weight: Option<f64>,
    disabled: bool,
}

#[derive(Default)]
struct Collected {
    queues: Vec<Node>,
    cohorts: Vec<Node>,
    flavors: Vec<String>,
    priority_classes: Vec<(String, i64)>,
    /// `Some(None)`: fair sharing explicitly off.
    fair_sharing: Option<Option<Vec<&'static str>>>,
    fair_sharing_path: String,
    /// Every object read, in order (a `List`'s items one by one): the scenario's
    /// `source.kueue.documents` (SPEC 16, exports that are safe to apply).
    documents: Vec<Value>,
}

pub(crate) fn import(
    sources: &mut [(Sink, &str)],
    opts: &ImportOptions,
) -> Result<(Value, Vec<Problem>), Vec<Problem>> {
    import_parsed(sources, opts, parse_documents)
}

/// [`import`] of documents already parsed (one file): the documents a scenario keeps in
/// `source.kueue.documents`, read again by its export as they were imported. Not through
/// text: a document written as JSON can hold a key YAML no longer reads (a key of 615
/// backslashes is 1,230 characters escaped, past YAML's 1,024 for a key).
pub(crate) fn import_documents(
    sources: &mut [(Sink, &str)],
    documents: &[Value],
    opts: &ImportOptions,
) -> Result<(Value, Vec<Problem>), Vec<Problem>> {
    import_parsed(sources, opts, |_| Ok(documents.to_vec()))
}

fn import_parsed(
    sources: &mut [(Sink, &str)],
    opts: &ImportOptions,
    parse: impl Fn(&str) -> Result<Vec<Value>, String>,
) -> Result<(Value, Vec<Problem>), Vec<Problem>> {
    let mut c = Collected::default();
    for (fi, (sink, text)) in sources.iter_mut().enumerate() {
        let docs = match parse(text) {
            Ok(d) => d,
            Err(e) => {
                // Not YAML: said by its shape when it has one (a template, a heredoc), else
                // as the parser found it. A quoted "{{ x }}" in valid YAML is only a string.
                sink.err("", unrendered(text).unwrap_or(e));
                continue;
            }
        };
        let mut r = Reader {
            sink,
            file: fi,
            resource: &opts.resource,
            c: &mut c,
        };
        for (i, d) in docs.iter().enumerate() {
            r.document(d, &format!("[{i}]"));
        }
        for d in docs {
            keep_objects(d, &mut c.documents);
        }
    }
    if sources.iter().any(|(s, _)| !s.errors.is_empty()) {
        return Err(Vec::new());
    }
    build(c, sources, opts)
}
