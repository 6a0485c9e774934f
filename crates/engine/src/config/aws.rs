//! AWS Batch quota-share JSON (SPEC 13): CreateQuotaShare request bodies (as the SDK and
//! `aws batch create-quota-share --cli-input-json` take them), ListQuotaShares and
//! DescribeQuotaShares responses, and a CreateServiceEnvironment body or a
//! DescribeServiceEnvironments response for the capacity; and the export back.

use serde_json::{json, Map, Value};

use super::{doc_path, join, kind, ExportOptions, Exported, ImportOptions, Sink};
use crate::input::model::{BorrowLimit, Queueing, ReclaimPolicy, Scenario, Strategy, WithinShare};
use crate::input::path::Path;
use crate::Problem;

/// A quota share as read from a body or a response.
struct ShareIn {
    name: String,
    path: String,
    file: usize,
    queue: Option<String>,
    limits: Vec<(String, u64)>,
    strategy: Strategy,
    borrow_limit: i64,
    in_share: bool,
    enabled: bool,
    /// The object as read (SPEC 16, exports that are safe to apply).
    body: Map<String, Value>,
}

/// A service environment's capacity.
struct EnvIn {
    path: String,
    file: usize,
    limits: Vec<(String, u64)>,
    body: Map<String, Value>,
}

/// Fields of AWS responses that no request body takes (ARNs, status, times): not kept.
fn response_only(key: &str) -> bool {
    key.ends_with("Arn")
        || matches!(
            key,
            "status" | "statusReason" | "createdAt" | "updatedAt" | "lastUpdatedAt"
        )
}

/// The object as a request body: without [`response_only`] fields (a `jobQueueArn`
/// becomes the `jobQueue` a body names its queue with).
fn as_body(m: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, v) in m {
        if k == "jobQueueArn" && !m.contains_key("jobQueue") {
            out.insert("jobQueue".into(), v.clone());
        } else if !response_only(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    out
}

/// Whether a body holds a field the scenario does not model (tags, fields AWS adds, extra
/// keys inside the modelled objects): then the import keeps the bodies (`source.aws`).
fn has_unmodelled(b: &Map<String, Value>, known: &[&str]) -> bool {
    let inner = |key: &str, fields: &[&str]| {
        b.get(key)
            .and_then(Value::as_object)
            .is_some_and(|o| o.keys().any(|k| !fields.contains(&k.as_str())))
    };
    b.keys()
        .any(|k| !known.contains(&k.as_str()) && k != "jobQueue")
        || inner("resourceSharingConfiguration", &["strategy", "borrowLimit"])
        || inner("preemptionConfiguration", &["inSharePreemption"])
        || b.get("capacityLimits")
            .and_then(Value::as_array)
            .is_some_and(|l| {
                l.iter().any(|c| {
                    c.as_object().is_some_and(|o| {
                        o.keys().any(|k| k != "maxCapacity" && k != "capacityUnit")
                    })
                })
            })
}

const SHARE_FIELDS: &[&str] = &[
    "quotaShareName",
    "jobQueue",
    "capacityLimits",
    "resourceSharingConfiguration",
    "preemptionConfiguration",
    "state",
];
const ENV_FIELDS: &[&str] = &[
    "serviceEnvironmentName",
    "serviceEnvironmentType",
    "capacityLimits",
    "state",
];

/// The queue name of a `jobQueue` (a name, or an ARN naming it by its last path segment).
pub fn queue_name(q: &str) -> &str {
    q.rsplit('/').next().unwrap_or(q)
}

/// The job queues that the quota shares of these files name, in first-seen order (ARNs as
/// queue names): what `--queue` picks from. Empty when no file reads as AWS Batch JSON.
pub fn job_queues(texts: &[&str]) -> Vec<String> {
    let mut sources: Vec<(Sink, &str)> = texts.iter().map(|t| (Sink::new(""), *t)).collect();
    let (shares, _) = read(&mut sources);
    let mut queues: Vec<String> = Vec::new();
    for q in shares.into_iter().filter_map(|s| s.queue) {
        if !queues.contains(&q) {
            queues.push(q);
        }
    }
    queues
}

/// Reads every file's shares and service environments (problems go to each file's sink).
fn read(sources: &mut [(Sink, &str)]) -> (Vec<ShareIn>, Vec<EnvIn>) {
    let mut shares = Vec::new();
    let mut envs = Vec::new();
    for (fi, (sink, text)) in sources.iter_mut().enumerate() {
        let text = text.trim_start_matches('\u{feff}');
        let v: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                sink.err("", crate::input::json::syntax_error(&e));
                continue;
            }
        };
        let mut r = Reader {
            sink,
            file: fi,
            shares: &mut shares,
            envs: &mut envs,
        };
        match &v {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    r.item(item, Some(i));
                }
            }
            other => r.item(other, None),
        }
    }
    (shares, envs)
}

pub(crate) fn import(
    sources: &mut [(Sink, &str)],
    opts: &ImportOptions,
) -> Result<(Value, Vec<Problem>), Vec<Problem>> {
    let (mut shares, envs) = read(sources);
    let errors_so_far: usize = sources.iter().map(|(s, _)| s.errors.len()).sum();
    if errors_so_far > 0 {
        return Err(Vec::new());
    }

    // One job queue: the one asked for, or the only one named.
    let mut queues: Vec<String> = Vec::new();
    for s in &shares {
        if let Some(q) = &s.queue {
            if !queues.contains(q) {
                queues.push(q.clone());
            }
        }
    }
    let wanted = opts.queue.as_deref().map(queue_name);
    let queue = match wanted {
        Some(w) => {
            if !queues.is_empty() && !queues.iter().any(|q| q == w) {
                return Err(vec![Problem::new(
                    Path::named("--queue"),
                    format!(
                        "no quota share is of job queue {w} (queues: {})",
                        queues.join(", ")
                    ),
                )]);
            }
            Some(w.to_string())
        }
        None if queues.len() > 1 => {
            return Err(vec![Problem::whole(format!(
                "quota shares of several job queues: {} (--queue NAME picks one)",
                queues.join(", ")
            ))]);
        }
        None => queues.first().cloned(),
    };
    shares.retain(|s| match (&queue, &s.queue) {
        (Some(q), Some(sq)) => q == sq,
        _ => true,
    });
    if shares.is_empty() {
        return Err(vec![Problem::whole(
            "no quota share found (expected CreateQuotaShare bodies or a ListQuotaShares response)",
        )]);
    }
    let mut seen: Vec<(&str, &str)> = Vec::new();
    let mut errors = Vec::new();
    for s in &shares {
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == s.name) {
            errors.push(Problem::new(
                Path::named(join(&s.path, "quotaShareName")),
                format!("duplicate quota share \"{}\" (also {first})", s.name),
            ));
        } else {
            seen.push((&s.name, &s.path));
        }
    }
    if envs.len() > 1 {
        errors.push(Problem::new(
            Path::named(envs[1].path.clone()),
            format!(
                "several service environments ({} and {}): import one",
                envs[0].path, envs[1].path
            ),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // Instance types: catalogue names as they are, others custom (1 GPU, price 0).
    let mut warnings = Vec::new();
    let mut custom: Vec<String> = Vec::new();
    let all_units = shares
        .iter()
        .flat_map(|s| s.limits.iter().map(move |(t, _)| (t, &s.path, s.file)))
        .chain(
            envs.iter()
                .flat_map(|e| e.limits.iter().map(move |(t, _)| (t, &e.path, e.file))),
        );
    for (t, path, file) in all_units {
        if crate::input::catalogue::lookup(t).is_none() && !custom.contains(t) {
            custom.push(t.clone());
            let sink = &mut sources[file].0;
            sink.warn(
                &join(path, "capacityLimits"),
                format!(
                    "{t} is not in the catalogue: a custom instance type with 1 GPU and price 0"
                ),
            );
        }
    }
    for (sink, _) in sources.iter_mut() {
        warnings.append(&mut sink.warnings);
    }

    let mut sc = Map::new();
    sc.insert("format".into(), json!("quotalab/v1"));
    sc.insert(
        "name".into(),
        json!(match &queue {
            Some(q) => format!("AWS Batch quota shares of job queue {q}"),
            None => "AWS Batch quota shares".to_string(),
        }),
    );
    if !custom.is_empty() {
        sc.insert(
            "instance_types".into(),
            Value::Array(
                custom
                    .iter()
                    .map(|t| json!({"name": t, "gpus": 1, "usd_per_hour": 0}))
                    .collect(),
            ),
        );
    }
    if let Some(env) = envs.first() {
        let cap: Map<String, Value> = env
            .limits
            .iter()
            .map(|(t, n)| (t.clone(), json!(n)))
            .collect();
        sc.insert("capacity".into(), Value::Object(cap));
    }
    let list: Vec<Value> = shares.iter().map(share_json).collect();
    sc.insert("shares".into(), Value::Array(list));
    // SPEC 16, exports that are safe to apply: bodies with fields the scenario does not
    // model are kept (`source.aws`), and the export writes the scenario over them.
    let bodies: Vec<Map<String, Value>> = shares.iter().map(|s| as_body(&s.body)).collect();
    let env = envs.first().map(|e| as_body(&e.body));
    if bodies.iter().any(|b| has_unmodelled(b, SHARE_FIELDS))
        || env.as_ref().is_some_and(|b| has_unmodelled(b, ENV_FIELDS))
    {
        let mut aws = Map::new();
        aws.insert(
            "quota_shares".into(),
            Value::Array(bodies.into_iter().map(Value::Object).collect()),
        );
        if let Some(env) = env {
            aws.insert("service_environment".into(), Value::Object(env));
        }
        sc.insert(
            super::kueue::SOURCE_FIELD.into(),
            json!({ "aws": Value::Object(aws) }),
        );
    }
    Ok((Value::Object(sc), warnings))
}

fn share_json(s: &ShareIn) -> Value {
    let limits: Map<String, Value> = s
        .limits
        .iter()
        .map(|(t, n)| (t.clone(), json!(n)))
        .collect();
    let mut m = Map::new();
    m.insert("name".into(), json!(s.name));
    m.insert("limits".into(), Value::Object(limits));
    m.insert("strategy".into(), json!(s.strategy.as_str()));
    if s.strategy == Strategy::LendAndBorrow {
        m.insert("borrow_limit".into(), json!(s.borrow_limit));
    }
    m.insert("in_share_preemption".into(), json!(s.in_share));
    if !s.enabled {
        m.insert("state".into(), json!("DISABLED"));
    }
    Value::Object(m)
}

struct Reader<'a, 'b> {
    sink: &'a mut Sink,
    file: usize,
    shares: &'a mut Vec<ShareIn>,
    envs: &'b mut Vec<EnvIn>,
}

impl Reader<'_, '_> {
    fn item(&mut self, v: &Value, doc: Option<usize>) {
        let path = doc_path(doc, "");
        let Value::Object(m) = v else {
            self.sink.err(
                &path,
                format!("must be an object (a CreateQuotaShare body, a ListQuotaShares response or a service environment), not {}", kind(v)),
            );
            return;
        };
        if let Some(list) = m.get("quotaShares") {
            self.list(m, list, &path, "quotaShares", "ListQuotaShares response");
        } else if let Some(list) = m.get("serviceEnvironments") {
            self.list(
                m,
                list,
                &path,
                "serviceEnvironments",
                "DescribeServiceEnvironments response",
            );
        } else if m.contains_key("quotaShareName") {
            self.share(m, &path);
        } else if m.contains_key("serviceEnvironmentName")
            || m.contains_key("serviceEnvironmentType")
        {
            self.env(m, &path);
        } else {
            self.sink.err(
                &path,
                "is neither a quota share (no quotaShareName) nor a service environment (no serviceEnvironmentName), nor a response listing them",
            );
        }
    }

    fn list(&mut self, m: &Map<String, Value>, list: &Value, path: &str, key: &str, what: &str) {
        for (k, v) in m {
            if k == key {
                continue;
            }
            if k == "nextToken" {
                if !v.is_null() {
                    self.sink.warn(
                        &join(path, "nextToken"),
                        format!("the {what} has more pages (nextToken is set): only this page is imported"),
                    );
                }
                continue;
            }
            self.sink.ignore(what, k, &join(path, k));
        }
        let lp = join(path, key);
        let Value::Array(items) = list else {
            self.sink
                .err(&lp, format!("must be an array, not {}", kind(list)));
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let ip = format!("{lp}[{i}]");
            match item {
                Value::Object(o) if key == "quotaShares" => self.share(o, &ip),
                Value::Object(o) => self.env(o, &ip),
                other => self
                    .sink
                    .err(&ip, format!("must be an object, not {}", kind(other))),
            }
        }
    }

    fn string(&mut self, m: &Map<String, Value>, path: &str, key: &str) -> Option<String> {
        match m.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                self.sink.err(
                    &join(path, key),
                    format!("must be a string, not {}", kind(other)),
                );
                None
            }
        }
    }

    /// `capacityLimits`: [{maxCapacity, capacityUnit}].
    fn capacity_limits(&mut self, m: &Map<String, Value>, path: &str) -> Vec<(String, u64)> {
        let p = join(path, "capacityLimits");
        let mut out: Vec<(String, u64)> = Vec::new();
        let Some(v) = m.get("capacityLimits").filter(|v| !v.is_null()) else {
            self.sink.err(
                &p,
                "is required ([{\"maxCapacity\": N, \"capacityUnit\": INSTANCE_TYPE}])",
            );
            return out;
        };
        let Value::Array(list) = v else {
            self.sink
                .err(&p, format!("must be an array, not {}", kind(v)));
            return out;
        };
        for (i, item) in list.iter().enumerate() {
            let ip = format!("{p}[{i}]");
            let Value::Object(o) = item else {
                self.sink
                    .err(&ip, format!("must be an object, not {}", kind(item)));
                continue;
            };
            for k in o.keys() {
                if k != "maxCapacity" && k != "capacityUnit" {
                    self.sink.ignore("capacityLimits", k, &join(&ip, k));
                }
            }
            let unit = match o.get("capacityUnit") {
                Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
                Some(other) => {
                    self.sink.err(
                        &join(&ip, "capacityUnit"),
                        format!("must be an instance type name, not {other}"),
                    );
                    None
                }
                None => {
                    self.sink.err(
                        &join(&ip, "capacityUnit"),
                        "is required (the instance type)",
                    );
                    None
                }
            };
            let max = match o.get("maxCapacity") {
                Some(v) => match crate::input::json::whole_number(v) {
                    Some(n) if n <= crate::input::model::limits::MAX_INSTANCES => Some(n),
                    _ => {
                        self.sink.err(
                            &join(&ip, "maxCapacity"),
                            format!("must be a whole number of instances, not {v}"),
                        );
                        None
                    }
                },
                None => {
                    self.sink.err(&join(&ip, "maxCapacity"), "is required");
                    None
                }
            };
            if let (Some(unit), Some(max)) = (unit, max) {
                if out.iter().any(|(t, _)| *t == unit) {
                    self.sink.err(
                        &join(&ip, "capacityUnit"),
                        format!("{unit} is listed twice"),
                    );
                } else {
                    out.push((unit, max));
                }
            }
        }
        out
    }

    fn state(&mut self, m: &Map<String, Value>, path: &str) -> bool {
        match m.get("state") {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) if s == "ENABLED" => true,
            Some(Value::String(s)) if s == "DISABLED" => false,
            Some(other) => {
                self.sink.err(
                    &join(path, "state"),
                    format!("must be \"ENABLED\" or \"DISABLED\" (got {other})"),
                );
                true
            }
        }
    }

    fn share(&mut self, m: &Map<String, Value>, path: &str) {
        const KNOWN: &[&str] = &[
            "quotaShareName",
            "jobQueue",
            "jobQueueArn",
            "capacityLimits",
            "resourceSharingConfiguration",
            "preemptionConfiguration",
            "state",
        ];
        // The page names the quota share, not its place in the file (`quotaShares[0]`).
        if let Some(name) = m.get("quotaShareName").and_then(Value::as_str) {
            self.sink.object(path, "quota share", name);
        }
        for k in m.keys() {
            if !KNOWN.contains(&k.as_str()) {
                self.sink.ignore("QuotaShare", k, &join(path, k));
            }
        }
        let before = self.sink.errors.len();
        let name = self.string(m, path, "quotaShareName");
        if name.as_deref().is_some_and(str::is_empty) {
            self.sink
                .err(&join(path, "quotaShareName"), "must not be empty");
        }
        let queue = match self.string(m, path, "jobQueue") {
            Some(q) => Some(q),
            None => self.string(m, path, "jobQueueArn"),
        }
        .map(|q| queue_name(&q).to_string());
        let limits = self.capacity_limits(m, path);
        let rp = join(path, "resourceSharingConfiguration");
        let (mut strategy, mut borrow_limit) = (Strategy::Reserve, -1i64);
        match m.get("resourceSharingConfiguration") {
            Some(Value::Object(rs)) => {
                for k in rs.keys() {
                    if k != "strategy" && k != "borrowLimit" {
                        self.sink
                            .ignore("resourceSharingConfiguration", k, &join(&rp, k));
                    }
                }
                match rs.get("strategy").map(|v| (v, v.as_str().and_then(Strategy::parse))) {
                    Some((_, Some(s))) => strategy = s,
                    Some((v, None)) => self.sink.err(
                        &join(&rp, "strategy"),
                        format!("must be RESERVE, LEND or LEND_AND_BORROW (got {v})"),
                    ),
                    None => self.sink.err(
                        &join(&rp, "strategy"),
                        "is required: RESERVE, LEND or LEND_AND_BORROW",
                    ),
                }
                match rs.get("borrowLimit").filter(|v| !v.is_null()) {
                    None => {}
                    Some(v) => match v.as_i64().filter(|n| *n >= -1) {
                        Some(n) if strategy == Strategy::LendAndBorrow => borrow_limit = n,
                        Some(_) => self.sink.warn(
                            &join(&rp, "borrowLimit"),
                            format!(
                                "ignored: a borrow limit applies only to LEND_AND_BORROW (strategy is {})",
                                strategy.as_str()
                            ),
                        ),
                        None => self.sink.err(
                            &join(&rp, "borrowLimit"),
                            format!("must be -1 (unlimited) or a percent >= 0, not {v}"),
                        ),
                    },
                }
            }
            Some(other) => self
                .sink
                .err(&rp, format!("must be an object, not {}", kind(other))),
            None => self.sink.err(
                &rp,
                "is required ({\"strategy\": \"RESERVE\" | \"LEND\" | \"LEND_AND_BORROW\", \"borrowLimit\": N})",
            ),
        }
        let pp = join(path, "preemptionConfiguration");
        let mut in_share = false;
        match m.get("preemptionConfiguration") {
            None | Some(Value::Null) => {}
            Some(Value::Object(pc)) => {
                for k in pc.keys() {
                    if k != "inSharePreemption" {
                        self.sink
                            .ignore("preemptionConfiguration", k, &join(&pp, k));
                    }
                }
                match pc.get("inSharePreemption") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) if s == "ENABLED" => in_share = true,
                    Some(Value::String(s)) if s == "DISABLED" => {}
                    Some(other) => self.sink.err(
                        &join(&pp, "inSharePreemption"),
                        format!("must be \"ENABLED\" or \"DISABLED\" (got {other})"),
                    ),
                }
            }
            Some(other) => self
                .sink
                .err(&pp, format!("must be an object, not {}", kind(other))),
        }
        let enabled = self.state(m, path);
        if let (Some(name), true) = (name, self.sink.errors.len() == before) {
            self.shares.push(ShareIn {
                name,
                path: self.sink_path(path),
                file: self.file,
                queue,
                limits,
                strategy,
                borrow_limit,
                in_share,
                enabled,
                body: m.clone(),
            });
        }
    }

    fn sink_path(&self, path: &str) -> String {
        path.to_string()
    }

    fn env(&mut self, m: &Map<String, Value>, path: &str) {
        const KNOWN: &[&str] = &[
            "serviceEnvironmentName",
            "serviceEnvironmentType",
            "capacityLimits",
            "state",
        ];
        if let Some(name) = m.get("serviceEnvironmentName").and_then(Value::as_str) {
            self.sink.object(path, "service environment", name);
        }
        for k in m.keys() {
            if !KNOWN.contains(&k.as_str()) {
                self.sink.ignore("ServiceEnvironment", k, &join(path, k));
            }
        }
        let before = self.sink.errors.len();
        self.string(m, path, "serviceEnvironmentName");
        let limits = self.capacity_limits(m, path);
        for (i, (t, _)) in limits.iter().enumerate() {
            if t == "NUM_INSTANCES" {
                self.sink.err(
                    &format!("{}[{i}].capacityUnit", join(path, "capacityLimits")),
                    "NUM_INSTANCES does not say which instance type: give the instance type as capacityUnit",
                );
            }
        }
        self.state(m, path);
        if self.sink.errors.len() == before {
            self.envs.push(EnvIn {
                path: path.to_string(),
                file: self.file,
                limits,
                body: m.clone(),
            });
        }
    }
}

/// A share in AWS terms, for the export.
struct ShareOut {
    name: String,
    limits: Vec<(String, u64)>,
    strategy: Strategy,
    borrow_limit: i64,
    in_share: bool,
    enabled: bool,
}

/// Removes from a kept body the unknown keys that would make the reader take the exported
/// body for a list (`quotaShares`, `serviceEnvironments`, [`Reader::item`]): inside a
/// share they meant nothing, and a body that reads as a list does not import again.
fn drop_list_keys(body: &mut Map<String, Value>) {
    body.remove("quotaShares");
    body.remove("serviceEnvironments");
}

/// The bodies an import kept (`source.aws`, SPEC 16): the quota shares by name, and the
/// service environment.
#[derive(Default)]
pub(crate) struct Kept {
    shares: Vec<Map<String, Value>>,
    env: Option<Map<String, Value>>,
}

impl Kept {
    /// `source.aws` of a scenario (nothing when it has none).
    pub(crate) fn read(scenario: &Value) -> Kept {
        let Some(aws) = scenario
            .get(super::kueue::SOURCE_FIELD)
            .and_then(|s| s.get("aws"))
        else {
            return Kept::default();
        };
        Kept {
            shares: aws
                .get("quota_shares")
                .and_then(Value::as_array)
                .map(|l| l.iter().filter_map(|b| b.as_object().cloned()).collect())
                .unwrap_or_default(),
            env: aws
                .get("service_environment")
                .and_then(Value::as_object)
                .cloned(),
        }
    }

    fn share(&self, name: &str) -> Option<&Map<String, Value>> {
        self.shares
            .iter()
            .find(|b| b.get("quotaShareName").and_then(Value::as_str) == Some(name))
    }
}

/// `capacityLimits` written over the kept ones: an entry of a unit kept keeps its other
/// fields.
fn limits_over(kept: Option<&Value>, limits: &[(String, u64)]) -> Value {
    let old: &[Value] = kept.and_then(Value::as_array).map_or(&[], Vec::as_slice);
    Value::Array(
        limits
            .iter()
            .map(|(t, n)| {
                let found = old
                    .iter()
                    .find(|c| c.get("capacityUnit").and_then(Value::as_str) == Some(t));
                match found.and_then(Value::as_object) {
                    Some(o) => {
                        let mut o = o.clone();
                        o.insert("maxCapacity".into(), json!(n));
                        Value::Object(o)
                    }
                    None => json!({"maxCapacity": n, "capacityUnit": t}),
                }
            })
            .collect(),
    )
}

/// An object field written over: the kept object with `set` applied.
fn object_over(kept: Option<&Value>, set: impl FnOnce(&mut Map<String, Value>)) -> Value {
    let mut o = kept.and_then(Value::as_object).cloned().unwrap_or_default();
    set(&mut o);
    Value::Object(o)
}

pub(crate) fn export(
    sc: &Scenario,
    opts: &ExportOptions,
    script: bool,
    kept: &Kept,
) -> Result<Exported, Vec<Problem>> {
    let shares = if sc.is_kueue() {
        kueue_as_aws(sc)?
    } else {
        sc.shares
            .iter()
            .map(|s| ShareOut {
                name: s.name.clone(),
                limits: named_limits(sc, &s.limits),
                strategy: s.strategy,
                borrow_limit: match s.borrow_limit {
                    BorrowLimit::Unlimited => -1,
                    BorrowLimit::Percent(p) => p as i64,
                },
                in_share: s.in_share_preemption,
                enabled: s.enabled,
            })
            .collect()
    };
    let mut warnings = Vec::new();
    for t in &sc.instance_types {
        if crate::input::catalogue::lookup(&t.name).is_none()
            && (t.gpus != 1 || t.usd_per_hour != 0.0)
        {
            // The page names the type in words (issue #34); the CLI keeps the path.
            let what = "a custom instance type: AWS names only its capacity unit, so its GPUs and price are not exported";
            warnings.push(
                Problem::new(
                    Path::root().key("instance_types").key(t.name.as_str()),
                    what,
                )
                .about(
                    "instance type",
                    &[t.name.as_str()],
                    "",
                    format!("is {what}"),
                ),
            );
        }
    }
    // A kept body's own queue stays unless --queue names another, and a share without one
    // joins the kept shares' queue (the one the import read), so the export is one queue's.
    let default_queue = opts.queue == ExportOptions::DEFAULT_QUEUE;
    let queue = match kept.shares.iter().find_map(|b| b.get("jobQueue")) {
        Some(q) if default_queue => q.clone(),
        _ => json!(opts.queue),
    };
    let capacity: Vec<(String, u64)> = sc
        .instance_types
        .iter()
        .zip(&sc.capacity)
        .map(|(t, n)| (t.name.clone(), *n))
        .collect();
    let env = match &kept.env {
        // SPEC 16: the kept body, its capacity the scenario's; the rest as read.
        Some(b) => {
            let mut b = b.clone();
            drop_list_keys(&mut b);
            if !default_queue || !b.contains_key("serviceEnvironmentName") {
                b.insert("serviceEnvironmentName".into(), json!(opts.queue));
            }
            let limits = limits_over(b.get("capacityLimits"), &capacity);
            b.insert("capacityLimits".into(), limits);
            Value::Object(b)
        }
        None => json!({
            "serviceEnvironmentName": opts.queue,
            "serviceEnvironmentType": "SAGEMAKER_TRAINING",
            "state": "ENABLED",
            "capacityLimits": limits_over(None, &capacity),
        }),
    };
    let bodies: Vec<Value> = shares
        .iter()
        .map(|s| {
            let old = kept.share(&s.name);
            let mut b = old.cloned().unwrap_or_default();
            drop_list_keys(&mut b);
            b.insert("quotaShareName".into(), json!(s.name));
            if !(default_queue && old.is_some_and(|o| o.contains_key("jobQueue"))) {
                b.insert("jobQueue".into(), queue.clone());
            }
            let limits = limits_over(b.get("capacityLimits"), &s.limits);
            b.insert("capacityLimits".into(), limits);
            let rs = object_over(b.get("resourceSharingConfiguration"), |rs| {
                rs.insert("strategy".into(), json!(s.strategy.as_str()));
                if s.strategy == Strategy::LendAndBorrow {
                    rs.insert("borrowLimit".into(), json!(s.borrow_limit));
                } else {
                    rs.remove("borrowLimit");
                }
            });
            b.insert("resourceSharingConfiguration".into(), rs);
            let pc = object_over(b.get("preemptionConfiguration"), |pc| {
                pc.insert(
                    "inSharePreemption".into(),
                    json!(if s.in_share { "ENABLED" } else { "DISABLED" }),
                );
            });
            b.insert("preemptionConfiguration".into(), pc);
            b.insert(
                "state".into(),
                json!(if s.enabled { "ENABLED" } else { "DISABLED" }),
            );
            Value::Object(b)
        })
        .collect();
    let text = if script {
        let mut out = String::from("#!/bin/sh\n");
        out.push_str(&format!(
            "# The quota shares of scenario \"{}\" on AWS Batch job queue {}.\n",
            sc.name.replace('\n', " "),
            opts.queue
        ));
        out.push_str(
            "# The job queue must exist and be attached to this service environment.\nset -e\n\n",
        );
        out.push_str(&format!(
            "aws batch create-service-environment --cli-input-json {}\n",
            shell_quote(&env.to_string())
        ));
        for b in &bodies {
            out.push_str(&format!(
                "aws batch create-quota-share --cli-input-json {}\n",
                shell_quote(&b.to_string())
            ));
        }
        out
    } else {
        let mut all = vec![env];
        all.extend(bodies);
        let mut t = serde_json::to_string_pretty(&Value::Array(all)).unwrap_or_default();
        t.push('\n');
        t
    };
    Ok(Exported {
        text,
        warnings,
        empty_patch: false,
    })
}

/// `'text'` for a POSIX shell.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn named_limits(sc: &Scenario, limits: &[Option<u64>]) -> Vec<(String, u64)> {
    limits
        .iter()
        .enumerate()
        .filter_map(|(t, n)| n.map(|n| (sc.instance_types[t].name.clone(), n)))
        .collect()
}

/// Kueue's word for a share, in a refusal's words for the page.
const CQ: &str = "ClusterQueue";

/// A Kueue scenario in AWS terms (the inverse of SPEC 12's translation), or every feature
/// AWS Batch lacks.
fn kueue_as_aws(sc: &Scenario) -> Result<Vec<ShareOut>, Vec<Problem>> {
    let mut lacks: Vec<Problem> = Vec::new();
    // `what` AWS Batch lacks, at `path` for the CLI; `said` in Kueue's words for the page
    // (kind, names, Kueue field, what of it: [`Problem::about`]).
    let mut lack = |path: Path, what: String, said: (&str, &[&str], &str, String)| {
        let (kind, names, field, words) = said;
        let no = format!("AWS Batch has no {what}");
        lacks.push(Problem::new(path, no).about(kind, names, field, words));
    };
    if sc.fair_sharing.is_some() {
        lack(
            Path::root().key("fair_sharing"),
            "fair sharing".into(),
            (
                "",
                &[],
                "",
                "Fair sharing (fairSharing in Kueue's Configuration) is on: AWS Batch has no fair sharing between queues".into(),
            ),
        );
    }
    for (i, c) in sc.cohorts.iter().enumerate() {
        if let Some(p) = c.parent {
            let parent = &sc.cohorts[p].name;
            lack(
                Path::root().key("cohorts").idx(i).key("parent"),
                format!("nested cohorts (cohort {} has parent {parent})", c.name),
                (
                    "cohort",
                    &[c.name.as_str()],
                    "",
                    format!("has a parent cohort ({parent}): AWS Batch has no nested cohorts"),
                ),
            );
        }
    }
    let used: Vec<usize> = {
        let mut u: Vec<usize> = sc.shares.iter().filter_map(|s| s.kueue.cohort).collect();
        u.sort_unstable();
        u.dedup();
        u
    };
    if used.len() > 1 {
        let names: Vec<&str> = used.iter().map(|&c| sc.cohorts[c].name.as_str()).collect();
        lack(
            Path::root().key("shares"),
            format!(
                "way to hold several cohorts in one queue (cohorts {})",
                names.join(", ")
            ),
            (
                "cohort",
                &names,
                "",
                "each hold ClusterQueues: AWS Batch has no way to hold several cohorts in one queue".into(),
            ),
        );
    }
    let queueings: Vec<Queueing> = sc.shares.iter().map(|s| s.kueue.queueing).collect();
    if queueings.windows(2).any(|w| w[0] != w[1]) {
        // "StrictFIFO (a, b), BestEffortFIFO (c)", in the order the ClusterQueues come.
        let mut groups: Vec<(Queueing, Vec<&str>)> = Vec::new();
        for s in &sc.shares {
            let q = s.kueue.queueing;
            match groups.iter_mut().find(|(g, _)| *g == q) {
                Some((_, names)) => names.push(s.name.as_str()),
                None => groups.push((q, vec![s.name.as_str()])),
            }
        }
        let groups: Vec<String> = groups
            .iter()
            .map(|(q, names)| format!("{} ({})", q.kueue_name(), names.join(", ")))
            .collect();
        lack(
            Path::root().key("shares"),
            "per-share queueing (shares differ in queueing; AWS has one per queue)".into(),
            (
                "",
                &[],
                "",
                format!(
                    "ClusterQueues differ in queueingStrategy, {}: AWS Batch has one queueing order per queue",
                    groups.join(", ")
                ),
            ),
        );
    }
    let mut out = Vec::new();
    for (i, s) in sc.shares.iter().enumerate() {
        let p = Path::root().key("shares").idx(i);
        let k = &s.kueue;
        let typed: Vec<(usize, u64)> = s
            .limits
            .iter()
            .enumerate()
            .filter_map(|(t, n)| n.map(|n| (t, n)))
            .collect();
        let get = |v: &[Option<u64>], t: usize| v.get(t).copied().flatten();
        let (strategy, borrow_limit) = if k.cohort.is_none() {
            (Strategy::Reserve, -1)
        } else {
            // Lends nothing (every lending limit 0) or all (none, or the whole limit).
            let lends: Vec<bool> = typed
                .iter()
                .map(|&(t, n)| get(&k.lending_limit, t).is_none_or(|l| l >= n && n > 0))
                .collect();
            let nothing: Vec<bool> = typed
                .iter()
                .map(|&(t, _)| get(&k.lending_limit, t) == Some(0))
                .collect();
            let lends_all = lends.iter().all(|b| *b);
            let lends_none = nothing.iter().all(|b| *b);
            if !lends_all && !lends_none {
                lack(
                    p.key("lending_limit"),
                    "lending limits other than 0 or all of the limit".into(),
                    (
                        CQ,
                        &[s.name.as_str()],
                        "lendingLimit",
                        "is neither 0 nor the whole nominalQuota: an AWS Batch share lends all its idle quota or none".into(),
                    ),
                );
                continue;
            }
            let bl: Vec<(u64, Option<u64>)> = typed
                .iter()
                .map(|&(t, n)| (n, get(&k.borrowing_limit, t)))
                .collect();
            if lends_none && !lends_all {
                if bl.iter().all(|(_, b)| *b == Some(0)) {
                    (Strategy::Reserve, -1)
                } else {
                    lack(
                        p.key("borrowing_limit"),
                        "share that borrows but lends nothing".into(),
                        (
                            CQ,
                            &[s.name.as_str()],
                            "",
                            "lends nothing (lendingLimit 0) but may borrow (borrowingLimit is not 0): AWS Batch has no share that borrows but lends nothing".into(),
                        ),
                    );
                    continue;
                }
            } else if bl.iter().all(|(_, b)| *b == Some(0)) && !bl.is_empty() {
                (Strategy::Lend, -1)
            } else if bl.iter().all(|(_, b)| b.is_none()) {
                (Strategy::LendAndBorrow, -1)
            } else {
                match percent_for(&bl) {
                    Some(pct) => (Strategy::LendAndBorrow, pct as i64),
                    None => {
                        lack(
                            p.key("borrowing_limit"),
                            "borrowing limit that is not one percent of every limit".into(),
                            (
                                CQ,
                                &[s.name.as_str()],
                                "borrowingLimit",
                                "is not one percent of every nominalQuota: an AWS Batch borrow limit is a percent of the share's limits".into(),
                            ),
                        );
                        continue;
                    }
                }
            }
        };
        let in_share = match k.preemption.within_share {
            WithinShare::Never => false,
            WithinShare::LowerPriority => true,
            WithinShare::LowerOrNewerEqualPriority => {
                lack(
                    p.key("preemption").key("within_share"),
                    "within-share policy lower_or_newer_equal_priority".into(),
                    (
                        CQ,
                        &[s.name.as_str()],
                        "withinClusterQueue",
                        "is LowerOrNewerEqualPriority: AWS Batch preempts within a share only for a higher priority".into(),
                    ),
                );
                false
            }
        };
        if strategy.lends() && k.preemption.reclaim != ReclaimPolicy::Any {
            lack(
                p.key("preemption").key("reclaim"),
                "reclaim policy other than any (AWS always reclaims lent capacity)".into(),
                (
                    CQ,
                    &[s.name.as_str()],
                    "reclaimWithinCohort",
                    format!(
                        "is {}: AWS Batch always reclaims lent capacity (Any)",
                        k.preemption.reclaim.kueue_name()
                    ),
                ),
            );
        }
        if k.preemption.borrow_within_cohort.lower_priority {
            lack(
                p.key("preemption").key("borrow_within_cohort"),
                "preemption while borrowing (borrow_within_cohort)".into(),
                (
                    CQ,
                    &[s.name.as_str()],
                    "borrowWithinCohort",
                    "is LowerPriority: AWS Batch has no preemption while borrowing".into(),
                ),
            );
        }
        out.push(ShareOut {
            name: s.name.clone(),
            limits: named_limits(sc, &s.limits),
            strategy,
            borrow_limit,
            in_share,
            enabled: s.enabled,
        });
    }
    if lacks.is_empty() {
        Ok(out)
    } else {
        Err(lacks)
    }
}

/// The percent p with `floor(limit x p / 100) == borrowing limit` for every type, if any.
fn percent_for(bl: &[(u64, Option<u64>)]) -> Option<u64> {
    let &(n, b) = bl.iter().find(|(n, _)| *n > 0)?;
    let b = b?;
    let p = (b as u128 * 100).div_ceil(n as u128) as u64;
    bl.iter()
        .all(|&(n, b)| b == Some((n as u128 * p as u128 / 100) as u64))
        .then_some(p)
}
