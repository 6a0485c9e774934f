//! Reading HyperPod task governance objects (SPEC 16): CreateComputeQuota request bodies,
//! DescribeComputeQuota responses and ListComputeQuotas' `ComputeQuotaSummaries`,
//! CreateClusterSchedulerConfig bodies and DescribeClusterSchedulerConfig responses, whether
//! they come from JSON files or from `aws sagemaker` command lines ([`super::shell`]). AWS's
//! documented defaults fill what is omitted (`Strategy` LendAndBorrow, `BorrowLimit` 50,
//! `PreemptTeamTasks` LowerPriority, `FairShareWeight` 0, `ActivationState` Enabled).

use serde_json::{Map, Value};

use super::shell::{self, Read};
use super::{valid_team_name, TEAM_NAME_RULE};
use crate::config::{doc_path, join, kind, Sink};
use crate::input::model::limits::MAX_INSTANCES;

/// SPEC 16 / ResourceSharingConfig `Strategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Lend,
    DontLend,
    LendAndBorrow,
}

impl Strategy {
    pub const NAMES: [&'static str; 3] = ["Lend", "DontLend", "LendAndBorrow"];
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Lend => "Lend",
            Strategy::DontLend => "DontLend",
            Strategy::LendAndBorrow => "LendAndBorrow",
        }
    }
    pub fn parse(s: &str) -> Option<Strategy> {
        match s {
            "Lend" => Some(Strategy::Lend),
            "DontLend" => Some(Strategy::DontLend),
            "LendAndBorrow" => Some(Strategy::LendAndBorrow),
            _ => None,
        }
    }
}

/// AWS's default `BorrowLimit` (percent), per the ResourceSharingConfig reference.
pub const DEFAULT_BORROW_LIMIT: u64 = 50;
/// The largest `BorrowLimit` the API accepts.
pub const MAX_BORROW_LIMIT: u64 = 10_000;
/// The largest `FairShareWeight` and priority class `Weight`.
pub const MAX_WEIGHT: u64 = 100;

/// A compute quota (a team's compute allocation) as read.
#[derive(Clone, Debug)]
pub struct QuotaIn {
    /// `ComputeQuotaTarget.TeamName` (or `Name` where the team is an unexpanded variable).
    pub team: String,
    pub path: String,
    pub file: usize,
    pub cluster: Option<String>,
    /// Instances per instance type, in the order given.
    pub limits: Vec<(String, u64)>,
    pub strategy: Strategy,
    pub borrow_limit: u64,
    /// `AbsoluteBorrowLimits` in instances per type (LendAndBorrow only).
    pub absolute: Vec<(String, u64)>,
    /// `PreemptTeamTasks` LowerPriority.
    pub preempt_lower: bool,
    pub weight: u64,
    pub enabled: bool,
}

/// A cluster scheduler config (the cluster policy) as read.
#[derive(Clone, Debug)]
pub struct SchedIn {
    pub path: String,
    pub file: usize,
    pub cluster: Option<String>,
    pub priority_classes: Vec<(String, u64)>,
    pub fair_share: bool,
}

#[derive(Default)]
pub struct Collected {
    pub quotas: Vec<QuotaIn>,
    pub scheds: Vec<SchedIn>,
}

/// Whether a text is JSON (else command lines).
fn is_json(text: &str) -> bool {
    matches!(text.trim_start().chars().next(), Some('{' | '['))
}

/// Reads every file into `c` (problems go to each file's sink).
pub fn read_all(sources: &mut [(Sink, &str)], c: &mut Collected) {
    for (fi, (sink, text)) in sources.iter_mut().enumerate() {
        let text = text.trim_start_matches('\u{feff}');
        let mut r = Reader { sink, file: fi, c };
        if is_json(text) {
            let v: Value = match serde_json::from_str(text) {
                Ok(v) => v,
                Err(e) => {
                    r.sink.err("", crate::input::json::syntax_error(&e));
                    continue;
                }
            };
            match &v {
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        r.item(item, &doc_path(Some(i), ""));
                    }
                }
                other => r.item(other, ""),
            }
        } else {
            r.commands(text);
        }
    }
}

struct Reader<'a> {
    sink: &'a mut Sink,
    file: usize,
    c: &'a mut Collected,
}

/// `$X`, `${X}`: a value the shell would have expanded.
fn is_variable(s: &str) -> bool {
    s.contains('$')
}

impl Reader<'_> {
    /// Command lines: each `aws sagemaker create-...` command is document `[i]` (i counts the
    /// commands read, from 0).
    fn commands(&mut self, text: &str) {
        let cmds = match shell::split(text) {
            Ok(c) => c,
            Err(e) => {
                self.sink.err("", e);
                return;
            }
        };
        let mut i = 0usize;
        let mut read_any = false;
        for cmd in &cmds {
            let mut ignored = Vec::new();
            let r = shell::read_command(cmd, &mut ignored);
            let path = doc_path(Some(i), "");
            for name in ignored {
                self.sink.ignore("command", &name, &path);
            }
            match r {
                Ok(Read::NotAws) => {}
                Ok(Read::Other(what)) => {
                    self.sink
                        .ignore("command", &what, &format!("line {}", cmd.line));
                }
                Ok(Read::Request(op, body)) => {
                    read_any = true;
                    match op {
                        shell::Operation::CreateComputeQuota => self.quota(&body, &path),
                        shell::Operation::CreateClusterSchedulerConfig => self.sched(&body, &path),
                    }
                    i += 1;
                }
                Err(errors) => {
                    read_any = true;
                    for e in errors {
                        self.sink.err(
                            &join(&path, &e.field),
                            format!("(line {}) {}", cmd.line, e.message),
                        );
                    }
                    i += 1;
                }
            }
        }
        if !read_any {
            self.sink.err(
                "",
                "has no `aws sagemaker create-compute-quota` or `create-cluster-scheduler-config` command (and is not JSON)",
            );
        }
    }

    fn item(&mut self, v: &Value, path: &str) {
        let Value::Object(m) = v else {
            self.sink.err(
                path,
                format!("must be an object (a CreateComputeQuota or CreateClusterSchedulerConfig body, or a ListComputeQuotas / Describe response), not {}", kind(v)),
            );
            return;
        };
        if let Some(list) = m.get("ComputeQuotaSummaries") {
            for (k, v) in m {
                match k.as_str() {
                    "ComputeQuotaSummaries" => {}
                    "NextToken" if !v.is_null() => self.sink.warn(
                        &join(path, "NextToken"),
                        "the ListComputeQuotas response has more pages (NextToken is set): only this page is imported",
                    ),
                    "NextToken" => {}
                    _ => self.sink.ignore("ListComputeQuotas", k, &join(path, k)),
                }
            }
            let lp = join(path, "ComputeQuotaSummaries");
            let Value::Array(items) = list else {
                self.sink
                    .err(&lp, format!("must be an array, not {}", kind(list)));
                return;
            };
            for (i, item) in items.iter().enumerate() {
                let ip = format!("{lp}[{i}]");
                match item {
                    Value::Object(o) => self.quota(o, &ip),
                    other => self
                        .sink
                        .err(&ip, format!("must be an object, not {}", kind(other))),
                }
            }
        } else if m.contains_key("ClusterSchedulerConfigSummaries") {
            self.sink.warn(
                path,
                "ignored: ListClusterSchedulerConfigs summaries carry no SchedulerConfig (import a DescribeClusterSchedulerConfig response instead)",
            );
        } else if m.contains_key("ComputeQuotaConfig") || m.contains_key("ComputeQuotaTarget") {
            self.quota(m, path);
        } else if m.contains_key("SchedulerConfig") {
            self.sched(m, path);
        } else {
            self.sink.err(
                path,
                "is neither a compute quota (no ComputeQuotaConfig / ComputeQuotaTarget) nor a cluster scheduler config (no SchedulerConfig), nor a ListComputeQuotas response",
            );
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

    /// A string field with a fixed set of values (`None` when absent or wrong).
    fn choice<'v>(
        &mut self,
        m: &Map<String, Value>,
        path: &str,
        key: &str,
        values: &[&'v str],
    ) -> Option<&'v str> {
        let v = m.get(key).filter(|v| !v.is_null())?;
        if let Some(s) = v.as_str() {
            if let Some(found) = values.iter().find(|x| **x == s) {
                return Some(found);
            }
        }
        self.sink.err(
            &join(path, key),
            format!("must be {} (got {v})", values.join(" or ")),
        );
        None
    }

    /// A whole number in `0..=max`, refusing unexpanded variables by name.
    fn whole(
        &mut self,
        m: &Map<String, Value>,
        path: &str,
        key: &str,
        max: u64,
        what: &str,
    ) -> Option<u64> {
        let v = m.get(key).filter(|v| !v.is_null())?;
        let p = join(path, key);
        if let Some(s) = v.as_str().filter(|s| is_variable(s)) {
            self.sink.err(
                &p,
                format!(
                    "is the unexpanded shell variable {s}: {key} carries quota, so give its value"
                ),
            );
            return None;
        }
        match crate::input::json::whole_number(v) {
            Some(n) if n <= max => Some(n),
            _ => {
                self.sink.err(
                    &p,
                    format!("must be a whole number {what} from 0 to {max}, not {v}"),
                );
                None
            }
        }
    }

    fn object<'v>(
        &mut self,
        m: &'v Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Option<&'v Map<String, Value>> {
        match m.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::Object(o)) => Some(o),
            Some(other) => {
                self.sink.err(
                    &join(path, key),
                    format!("must be an object, not {}", kind(other)),
                );
                None
            }
        }
    }

    fn quota(&mut self, m: &Map<String, Value>, path: &str) {
        const KNOWN: &[&str] = &[
            "Name",
            "ClusterArn",
            "ComputeQuotaConfig",
            "ComputeQuotaTarget",
            "ActivationState",
            "Status",
        ];
        for k in m.keys() {
            if !KNOWN.contains(&k.as_str()) {
                self.sink.ignore("ComputeQuota", k, &join(path, k));
            }
        }
        if let Some(Value::String(status)) = m.get("Status") {
            if matches!(
                status.as_str(),
                "Deleted" | "Deleting" | "CreateFailed" | "CreateRollbackFailed" | "DeleteFailed"
            ) {
                self.sink.warn(
                    &join(path, "Status"),
                    format!("not imported: the compute quota's Status is {status}"),
                );
                return;
            }
        }
        let before = self.sink.errors.len();
        let name = self.string(m, path, "Name");
        let cluster = self.string(m, path, "ClusterArn");
        let enabled =
            self.choice(m, path, "ActivationState", &["Enabled", "Disabled"]) != Some("Disabled");

        // ComputeQuotaTarget: the team.
        let tp = join(path, "ComputeQuotaTarget");
        let mut team = None;
        let mut weight = 0;
        match self.object(m, path, "ComputeQuotaTarget") {
            None => self.sink.err(
                &tp,
                "is required ({\"TeamName\": NAME, \"FairShareWeight\": 0..100})",
            ),
            Some(t) => {
                for k in t.keys() {
                    if k != "TeamName" && k != "FairShareWeight" {
                        self.sink.ignore("ComputeQuotaTarget", k, &join(&tp, k));
                    }
                }
                match self.string(t, &tp, "TeamName") {
                    None if !t.contains_key("TeamName") => self.sink.err(&join(&tp, "TeamName"), "is required"),
                    None => {}
                    Some(s) if s.is_empty() => self.sink.err(&join(&tp, "TeamName"), "must not be empty"),
                    Some(s) if is_variable(&s) => match name.as_ref().filter(|n| !is_variable(n) && !n.is_empty()) {
                        Some(n) if !valid_team_name(n) => self.sink.err(
                            &join(&tp, "TeamName"),
                            format!("is the unexpanded shell variable {s}, and the quota's Name, {n:?}, is not a team name ({TEAM_NAME_RULE}): give its value"),
                        ),
                        Some(n) => {
                            self.sink.warn(
                                &join(&tp, "TeamName"),
                                format!("is the unexpanded shell variable {s}: the team is named by the quota's Name, {n}"),
                            );
                            team = Some(n.clone());
                        }
                        None => self.sink.err(
                            &join(&tp, "TeamName"),
                            format!("is the unexpanded shell variable {s} and Name does not name the team either: give its value"),
                        ),
                    },
                    Some(s) if !valid_team_name(&s) => self.sink.err(
                        &join(&tp, "TeamName"),
                        format!("{s:?} is not a team name HyperPod accepts ({TEAM_NAME_RULE})"),
                    ),
                    Some(s) => team = Some(s),
                }
                weight = self
                    .whole(t, &tp, "FairShareWeight", MAX_WEIGHT, "(fair-share weight)")
                    .unwrap_or(0);
            }
        }

        // ComputeQuotaConfig: resources, sharing, preemption.
        let cp = join(path, "ComputeQuotaConfig");
        let mut limits = Vec::new();
        let mut strategy = Strategy::LendAndBorrow;
        let mut borrow_limit = DEFAULT_BORROW_LIMIT;
        let mut absolute = Vec::new();
        let mut preempt_lower = true;
        match self.object(m, path, "ComputeQuotaConfig") {
            None => self.sink.err(&cp, "is required ({\"ComputeQuotaResources\": [...], \"ResourceSharingConfig\": {...}, \"PreemptTeamTasks\": ...})"),
            Some(cfg) => {
                for k in cfg.keys() {
                    if !["ComputeQuotaResources", "ResourceSharingConfig", "PreemptTeamTasks"].contains(&k.as_str()) {
                        self.sink.ignore("ComputeQuotaConfig", k, &join(&cp, k));
                    }
                }
                limits = self.resources(cfg, &cp, "ComputeQuotaResources");
                preempt_lower = self.choice(cfg, &cp, "PreemptTeamTasks", &["Never", "LowerPriority"]) != Some("Never");
                let rp = join(&cp, "ResourceSharingConfig");
                if let Some(rs) = self.object(cfg, &cp, "ResourceSharingConfig") {
                    for k in rs.keys() {
                        if !["Strategy", "BorrowLimit", "AbsoluteBorrowLimits"].contains(&k.as_str()) {
                            self.sink.ignore("ResourceSharingConfig", k, &join(&rp, k));
                        }
                    }
                    match self.choice(rs, &rp, "Strategy", &Strategy::NAMES).and_then(Strategy::parse) {
                        Some(s) => strategy = s,
                        None if rs.get("Strategy").is_none_or(Value::is_null) => {
                            self.sink.err(&join(&rp, "Strategy"), "is required: Lend, DontLend or LendAndBorrow")
                        }
                        None => {}
                    }
                    if let Some(b) = self.whole(rs, &rp, "BorrowLimit", MAX_BORROW_LIMIT, "(percent)") {
                        if strategy == Strategy::LendAndBorrow {
                            borrow_limit = b;
                        } else {
                            self.sink.warn(
                                &join(&rp, "BorrowLimit"),
                                format!("ignored: a borrow limit applies only to LendAndBorrow (Strategy is {})", strategy.as_str()),
                            );
                        }
                    }
                    if rs.get("AbsoluteBorrowLimits").is_some_and(|v| !v.is_null()) {
                        let abs = self.resources(rs, &rp, "AbsoluteBorrowLimits");
                        if strategy == Strategy::LendAndBorrow {
                            absolute = abs;
                        } else {
                            self.sink.warn(
                                &join(&rp, "AbsoluteBorrowLimits"),
                                format!("ignored: borrow limits apply only to LendAndBorrow (Strategy is {})", strategy.as_str()),
                            );
                        }
                    }
                }
            }
        }
        if self.sink.errors.len() == before && limits.is_empty() && absolute.is_empty() {
            self.sink.err(
                &join(&cp, "ComputeQuotaResources"),
                "names no instance type: a team needs a quota (or an absolute borrow limit) of at least one instance type",
            );
        }
        if let (Some(team), true) = (team, self.sink.errors.len() == before) {
            self.c.quotas.push(QuotaIn {
                team,
                path: path.to_string(),
                file: self.file,
                cluster,
                limits,
                strategy,
                borrow_limit,
                absolute,
                preempt_lower,
                weight,
                enabled,
            });
        }
    }

    /// `ComputeQuotaResources` / `AbsoluteBorrowLimits`: instances per type. `Count` is
    /// instances; `Accelerators` alone is converted by the type's accelerators per instance
    /// (floored, with a warning); `VCpu`, `MemoryInGiB` and `AcceleratorPartition` are not
    /// modelled (the engine counts whole instances).
    fn resources(&mut self, m: &Map<String, Value>, path: &str, key: &str) -> Vec<(String, u64)> {
        let p = join(path, key);
        let mut out: Vec<(String, u64)> = Vec::new();
        let Some(v) = m.get(key).filter(|v| !v.is_null()) else {
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
                match k.as_str() {
                    "InstanceType" | "Count" | "Accelerators" => {}
                    "VCpu" | "MemoryInGiB" | "AcceleratorPartition" => self.sink.ignore(
                        key,
                        &format!("{k} (the simulator counts whole instances)"),
                        &join(&ip, k),
                    ),
                    _ => self.sink.ignore(key, k, &join(&ip, k)),
                }
            }
            let ty = match o.get("InstanceType") {
                Some(Value::String(s)) if is_variable(s) => {
                    self.sink.err(
                        &join(&ip, "InstanceType"),
                        format!("is the unexpanded shell variable {s}: InstanceType carries quota, so give its value"),
                    );
                    None
                }
                Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
                Some(other) => {
                    self.sink.err(
                        &join(&ip, "InstanceType"),
                        format!("must be an instance type name, not {other}"),
                    );
                    None
                }
                None => {
                    self.sink.err(&join(&ip, "InstanceType"), "is required");
                    None
                }
            };
            let count = self.whole(o, &ip, "Count", MAX_INSTANCES, "of instances");
            let accel = self.whole(o, &ip, "Accelerators", MAX_INSTANCES, "of accelerators");
            let Some(ty) = ty else { continue };
            let per = crate::input::catalogue::lookup(&ty).map_or(1, |t| t.gpus as u64);
            let n = match (count, accel) {
                (Some(n), Some(a)) => {
                    if a != n.saturating_mul(per) {
                        self.sink.warn(
                            &join(&ip, "Accelerators"),
                            format!("ignored: Count gives the instances ({n}); {a} accelerators are not {n} whole {ty}"),
                        );
                    }
                    n
                }
                (Some(n), None) => n,
                (None, Some(_)) if per == 0 => {
                    self.sink.err(
                        &join(&ip, "Accelerators"),
                        format!("{ty} has no accelerators: give Count"),
                    );
                    continue;
                }
                (None, Some(a)) => {
                    if a % per != 0 {
                        self.sink.warn(
                            &join(&ip, "Accelerators"),
                            format!("{a} accelerators are not a whole number of {ty} ({per} per instance): floored to {}", a / per),
                        );
                    }
                    a / per
                }
                (None, None) => {
                    if !o.contains_key("Count") && !o.contains_key("Accelerators") {
                        self.sink.err(
                            &ip,
                            "gives neither Count nor Accelerators: the simulator counts whole instances (VCpu, MemoryInGiB and GPU partitions alone cannot be converted)",
                        );
                    }
                    continue;
                }
            };
            if out.iter().any(|(t, _)| *t == ty) {
                self.sink
                    .err(&join(&ip, "InstanceType"), format!("{ty} is listed twice"));
            } else {
                out.push((ty, n));
            }
        }
        out
    }

    fn sched(&mut self, m: &Map<String, Value>, path: &str) {
        for k in m.keys() {
            if !["Name", "ClusterArn", "SchedulerConfig"].contains(&k.as_str()) {
                self.sink
                    .ignore("ClusterSchedulerConfig", k, &join(path, k));
            }
        }
        let before = self.sink.errors.len();
        self.string(m, path, "Name");
        let cluster = self.string(m, path, "ClusterArn");
        let sp = join(path, "SchedulerConfig");
        let mut priority_classes: Vec<(String, u64)> = Vec::new();
        let mut fair_share = false;
        match self.object(m, path, "SchedulerConfig") {
            None => self.sink.err(&sp, "is required ({\"PriorityClasses\": [...], \"FairShare\": \"Enabled\" | \"Disabled\"})"),
            Some(cfg) => {
                for k in cfg.keys() {
                    match k.as_str() {
                        "PriorityClasses" | "FairShare" => {}
                        "IdleResourceSharing" => {
                            if cfg[k].as_str() == Some("Enabled") {
                                self.sink.warn(
                                    &join(&sp, k),
                                    "not modelled: the cluster's unallocated instances are not in these files, so teams borrow only what other teams lend",
                                );
                            }
                        }
                        _ => self.sink.ignore("SchedulerConfig", k, &join(&sp, k)),
                    }
                }
                fair_share = self.choice(cfg, &sp, "FairShare", &["Enabled", "Disabled"]) == Some("Enabled");
                let pp = join(&sp, "PriorityClasses");
                match cfg.get("PriorityClasses").filter(|v| !v.is_null()) {
                    None => {}
                    Some(Value::Array(list)) => {
                        for (i, item) in list.iter().enumerate() {
                            let ip = format!("{pp}[{i}]");
                            let Value::Object(o) = item else {
                                self.sink.err(&ip, format!("must be an object, not {}", kind(item)));
                                continue;
                            };
                            for k in o.keys() {
                                if k != "Name" && k != "Weight" {
                                    self.sink.ignore("PriorityClass", k, &join(&ip, k));
                                }
                            }
                            let name = match self.string(o, &ip, "Name") {
                                Some(n) if !n.is_empty() => Some(n),
                                _ => {
                                    if o.get("Name").is_none_or(|v| v.is_string()) {
                                        self.sink.err(&join(&ip, "Name"), "is required");
                                    }
                                    None
                                }
                            };
                            let w = self.whole(o, &ip, "Weight", MAX_WEIGHT, "(priority weight)");
                            if !o.contains_key("Weight") {
                                self.sink.err(&join(&ip, "Weight"), "is required");
                            }
                            if let (Some(n), Some(w)) = (name, w) {
                                if priority_classes.iter().any(|(x, _)| *x == n) {
                                    self.sink.err(&join(&ip, "Name"), format!("priority class {n} is listed twice"));
                                } else {
                                    priority_classes.push((n, w));
                                }
                            }
                        }
                    }
                    Some(other) => self.sink.err(&pp, format!("must be an array, not {}", kind(other))),
                }
            }
        }
        if self.sink.errors.len() == before {
            self.c.scheds.push(SchedIn {
                path: path.to_string(),
                file: self.file,
                cluster,
                priority_classes,
                fair_share,
            });
        }
    }
}
