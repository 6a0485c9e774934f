//! Results: metrics per share and in total, job rows, the event log with explanations, and
//! the change-point series (SPEC 8), as JSON and as a human table.
//!
//! The JSON is written by hand, field by field, in a fixed order, so that the same scenario
//! gives byte-identical output everywhere and a million-job log streams without building a
//! document tree in memory.

use std::fmt::Write as _;

use crate::model::{Ms, Scenario};
use crate::sim::{Cause, Event, EventKind, Reason, Sim, State, NO_JOB};

/// `mean, p50, p90, p99, max` of a set of durations, in seconds (SPEC 8). Percentiles are
/// nearest-rank; all 0 for an empty set.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Percentiles {
    pub n: u64,
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Percentiles {
    pub fn of(mut ms: Vec<Ms>) -> Percentiles {
        if ms.is_empty() {
            return Percentiles::default();
        }
        ms.sort_unstable();
        let n = ms.len();
        let rank = |p: u64| ms[((p as usize * n).div_ceil(100)).clamp(1, n) - 1] as f64 / 1000.0;
        let sum: i128 = ms.iter().map(|&x| x as i128).sum();
        Percentiles {
            n: n as u64,
            mean: sum as f64 / n as f64 / 1000.0,
            p50: rank(50),
            p90: rank(90),
            p99: rank(99),
            max: ms[n - 1] as f64 / 1000.0,
        }
    }
}

/// Job counts (SPEC 8): `submitted = succeeded + failed + unfinished + rejected`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobCounts {
    pub submitted: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub unfinished: u64,
    pub rejected: u64,
    /// Unfinished jobs whose reason at `end_s` is `unschedulable`.
    pub unschedulable: u64,
}

/// Instance time in instance-milliseconds (exact); shown as instance-hours.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InstanceTime {
    pub entitled: u128,
    pub own: u128,
    pub borrowed: u128,
    /// A display metric, proportional split (SPEC 1): not an integer.
    pub lent: f64,
    pub held: u128,
    pub useful: u128,
    pub lost: u128,
    pub startup: u128,
    pub checkpoint: u128,
    pub grace: u128,
}

impl InstanceTime {
    /// `entitled - own - lent` (SPEC 8).
    pub fn idle(&self) -> f64 {
        self.entitled as f64 - self.own as f64 - self.lent
    }
}

/// SPEC 8 metrics of one share (or of all shares).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub jobs: JobCounts,
    pub completion: Percentiles,
    pub wait: Percentiles,
    pub reclaim: u64,
    pub in_share: u64,
    pub time: InstanceTime,
    pub cost_usd: f64,
    pub deadline_misses: u64,
}

impl Stats {
    /// `useful / held`; 0 when nothing was held.
    pub fn goodput(&self) -> f64 {
        if self.time.held == 0 {
            0.0
        } else {
            self.time.useful as f64 / self.time.held as f64
        }
    }
}

const MS_PER_HOUR: f64 = 3_600_000.0;

/// Computes per-share and total metrics from a finished simulation.
pub fn stats(sim: &Sim) -> (Vec<Stats>, Stats) {
    let sc = sim.sc;
    let nshares = sc.shares.len();
    let mut out = vec![Stats::default(); nshares];
    let mut completion: Vec<Vec<Ms>> = vec![Vec::new(); nshares + 1];
    let mut wait: Vec<Vec<Ms>> = vec![Vec::new(); nshares + 1];
    for (i, (spec, r)) in sc.jobs.iter().zip(&sim.jobs).enumerate() {
        let _ = i;
        if r.state == State::Pending {
            continue; // submitted after the horizon: not part of the result
        }
        let st = &mut out[spec.share];
        st.jobs.submitted += 1;
        match r.state {
            State::Succeeded => st.jobs.succeeded += 1,
            State::Failed => st.jobs.failed += 1,
            State::Rejected => st.jobs.rejected += 1,
            _ => {
                st.jobs.unfinished += 1;
                if r.reason == Some(Reason::Unschedulable) {
                    st.jobs.unschedulable += 1;
                }
            }
        }
        if let (State::Succeeded, Some(end)) = (r.state, r.end) {
            completion[spec.share].push(end - spec.submit);
            completion[nshares].push(end - spec.submit);
        }
        if let Some(fs) = r.first_start {
            wait[spec.share].push(fs - spec.submit);
            wait[nshares].push(fs - spec.submit);
        }
        let n = spec.instances as u128;
        let a = &r.acc;
        let t = &mut st.time;
        t.held += a.held as u128 * n;
        t.useful += a.useful() as u128 * n;
        t.lost += a.lost as u128 * n;
        t.startup += a.startup as u128 * n;
        t.checkpoint += a.checkpoint as u128 * n;
        t.grace += a.grace as u128 * n;
        st.cost_usd += a.held as f64 * n as f64 / MS_PER_HOUR
            * sc.instance_types[spec.instance_type].usd_per_hour;
        if missed_deadline(spec.deadline, spec.submit, r.state, r.end, sim.end) {
            st.deadline_misses += 1;
        }
    }
    for (i, &(s, _)) in sim.series.pairs.iter().enumerate() {
        let g = &sim.integrals[i];
        let t = &mut out[s].time;
        t.entitled += g.entitled;
        t.own += g.own;
        t.borrowed += g.borrowed;
        t.lent += g.lent;
    }
    let mut total = Stats::default();
    for (s, st) in out.iter_mut().enumerate() {
        st.completion = Percentiles::of(std::mem::take(&mut completion[s]));
        st.wait = Percentiles::of(std::mem::take(&mut wait[s]));
        st.reclaim = sim.rt[s].reclaims;
        st.in_share = sim.rt[s].in_share;
        let (j, t) = (&mut total.jobs, &st.jobs);
        j.submitted += t.submitted;
        j.succeeded += t.succeeded;
        j.failed += t.failed;
        j.unfinished += t.unfinished;
        j.rejected += t.rejected;
        j.unschedulable += t.unschedulable;
        let (a, b) = (&mut total.time, &st.time);
        a.entitled += b.entitled;
        a.own += b.own;
        a.borrowed += b.borrowed;
        a.lent += b.lent;
        a.held += b.held;
        a.useful += b.useful;
        a.lost += b.lost;
        a.startup += b.startup;
        a.checkpoint += b.checkpoint;
        a.grace += b.grace;
        total.reclaim += st.reclaim;
        total.in_share += st.in_share;
        total.cost_usd += st.cost_usd;
        total.deadline_misses += st.deadline_misses;
    }
    total.completion = Percentiles::of(std::mem::take(&mut completion[nshares]));
    total.wait = Percentiles::of(std::mem::take(&mut wait[nshares]));
    (out, total)
}

/// A job misses its deadline (relative to submit) when it did not succeed by then: it
/// succeeded late, failed, was rejected, or is still unfinished past it at `end_s`.
fn missed_deadline(
    deadline: Option<Ms>,
    submit: Ms,
    state: State,
    end: Option<Ms>,
    run_end: Ms,
) -> bool {
    let Some(d) = deadline else { return false };
    let due = submit + d;
    match (state, end) {
        (State::Succeeded, Some(e)) => e > due,
        (State::Failed | State::Rejected, _) => true,
        _ => run_end > due,
    }
}

// ---- JSON -----------------------------------------------------------------------------

/// Seconds from milliseconds: an integer when whole, else the shortest decimal.
pub fn secs(ms: Ms) -> String {
    if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        num(ms as f64 / 1000.0)
    }
}

/// A finite float in the shortest round-trip form (integers without a fraction).
fn num(x: f64) -> String {
    if !x.is_finite() {
        return "0".to_string();
    }
    if x == x.trunc() && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    serde_json::to_string(&x).unwrap_or_else(|_| "0".to_string())
}

fn hours(ms: u128) -> String {
    num(ms as f64 / MS_PER_HOUR)
}

fn string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

fn percentiles_json(p: &Percentiles) -> String {
    format!(
        "{{\"n\":{},\"mean\":{},\"p50\":{},\"p90\":{},\"p99\":{},\"max\":{}}}",
        p.n,
        num(p.mean),
        num(p.p50),
        num(p.p90),
        num(p.p99),
        num(p.max)
    )
}

fn stats_json(s: &Stats, out: &mut String) {
    let j = &s.jobs;
    let t = &s.time;
    let _ = write!(
        out,
        "{{\"jobs\":{{\"submitted\":{},\"succeeded\":{},\"failed\":{},\"unfinished\":{},\"rejected\":{},\"unschedulable\":{}}},",
        j.submitted, j.succeeded, j.failed, j.unfinished, j.rejected, j.unschedulable
    );
    let _ = write!(
        out,
        "\"completion_s\":{},\"wait_s\":{},\"preemptions\":{{\"reclaim\":{},\"in_share\":{}}},",
        percentiles_json(&s.completion),
        percentiles_json(&s.wait),
        s.reclaim,
        s.in_share
    );
    let _ = write!(
        out,
        "\"instance_hours\":{{\"entitled\":{},\"own\":{},\"borrowed\":{},\"lent\":{},\"idle\":{},\"held\":{},\"useful\":{},\"lost\":{},\"startup\":{},\"checkpoint\":{},\"grace\":{}}},",
        hours(t.entitled),
        hours(t.own),
        hours(t.borrowed),
        num(t.lent / MS_PER_HOUR),
        num(t.idle() / MS_PER_HOUR),
        hours(t.held),
        hours(t.useful),
        hours(t.lost),
        hours(t.startup),
        hours(t.checkpoint),
        hours(t.grace)
    );
    let _ = write!(
        out,
        "\"goodput\":{},\"cost_usd\":{},\"deadline_misses\":{}}}",
        num(s.goodput()),
        num((s.cost_usd * 100.0).round() / 100.0),
        s.deadline_misses
    );
}

/// The one-sentence explanation of a preemption (SPEC 8: a newcomer understands it).
pub fn explain_preempt(sc: &Scenario, victim: u32, kind: &EventKind) -> String {
    let EventKind::Preempt {
        cause,
        by,
        victim_priority,
        by_priority,
    } = *kind
    else {
        return String::new();
    };
    let v = &sc.jobs[victim as usize];
    let b = &sc.jobs[by as usize];
    let ty = &sc.instance_types[v.instance_type].name;
    let (vs, bs) = (&sc.shares[v.share].name, &sc.shares[b.share].name);
    match cause {
        Cause::Reclaim => format!(
            "reclaimed by {}: {bs} lends its idle {ty} only until it needs it, and {vs} was borrowing beyond its own limit",
            b.id
        ),
        Cause::InShare => format!(
            "preempted by {} in {vs}: in-share preemption lets a higher-priority job ({by_priority} > {victim_priority}) take the place of a lower one",
            b.id
        ),
    }
}

/// The one-sentence explanation of a waiting reason (SPEC 4).
pub fn explain_reason(sc: &Scenario, job: u32, reason: Reason) -> String {
    let j = &sc.jobs[job as usize];
    let s = &sc.shares[j.share].name;
    let ty = &sc.instance_types[j.instance_type].name;
    match reason {
        Reason::Unschedulable => format!("{s} has no limit for {ty}, so this job can never be admitted"),
        Reason::BlockedByPriority => {
            format!("strict FIFO: waits behind a higher-priority job at the head of {s}'s queue that cannot start yet")
        }
        Reason::HeadOfLine => format!("strict FIFO: waits behind the job at the head of {s}'s queue, which cannot start yet"),
        Reason::BorrowLimit => {
            format!("{s} has used its {ty} limit plus all it may borrow (its borrow limit); waits for its own jobs to finish")
        }
        Reason::EntitlementExhausted => {
            format!("{s} has used its whole {ty} limit and its strategy does not borrow; waits for its own jobs to finish")
        }
        Reason::CapacityInUse => format!(
            "{s} is owed this {ty} capacity, but it is lent out or reserved and cannot be reclaimed now; waits for it to be released"
        ),
        Reason::NoLendableCapacity => {
            format!("the job would borrow beyond {s}'s limit, but no idle {ty} capacity is left to lend")
        }
    }
}

fn event_json(sim: &Sim, e: &Event, out: &mut String) {
    let sc = sim.sc;
    out.push_str("{\"t_s\":");
    out.push_str(&secs(e.t));
    if e.job != NO_JOB {
        out.push_str(",\"job\":");
        out.push_str(&string(&sc.jobs[e.job as usize].id));
    }
    out.push_str(",\"share\":");
    out.push_str(&string(&sc.shares[e.share as usize].name));
    let kind = match e.kind {
        EventKind::Submit => "submit",
        EventKind::Dispatch { .. } => "dispatch",
        EventKind::Start => "start",
        EventKind::Running => "running",
        EventKind::Preempt { .. } => "preempt",
        EventKind::Requeue => "requeue",
        EventKind::Succeed => "succeed",
        EventKind::Fail => "fail",
        EventKind::Reject => "reject",
        EventKind::Waiting(_) => "waiting",
        EventKind::SetPriority(_) => "set_priority",
        EventKind::UpdateShare => "update_share",
    };
    let _ = write!(out, ",\"kind\":\"{kind}\"");
    match e.kind {
        EventKind::Dispatch { borrowing } => {
            let _ = write!(out, ",\"borrowing\":{borrowing}");
        }
        EventKind::Preempt { cause, by, .. } => {
            let _ = write!(
                out,
                ",\"cause\":\"{}\",\"by\":{},\"explain\":{}",
                cause.as_str(),
                string(&sc.jobs[by as usize].id),
                string(&explain_preempt(sc, e.job, &e.kind))
            );
        }
        EventKind::Waiting(r) => {
            let _ = write!(
                out,
                ",\"reason\":\"{}\",\"explain\":{}",
                r.as_str(),
                string(&explain_reason(sc, e.job, r))
            );
        }
        EventKind::SetPriority(p) => {
            let _ = write!(out, ",\"priority\":{p}");
        }
        _ => {}
    }
    out.push('}');
}

fn opt_secs(ms: Option<Ms>) -> String {
    ms.map_or_else(|| "null".to_string(), secs)
}

/// The result document (SPEC 8), byte-identical for the same scenario.
pub fn to_json(sim: &Sim) -> String {
    let sc = sim.sc;
    let (shares, total) = stats(sim);
    let mut out = String::with_capacity(1024 + sim.events.len() * 96 + sc.jobs.len() * 160);
    out.push_str("{\"format\":\"quotalab-result/v1\",\"end_s\":");
    out.push_str(&secs(sim.end));
    out.push_str(",\"shares\":{");
    for (i, st) in shares.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&string(&sc.shares[i].name));
        out.push(':');
        stats_json(st, &mut out);
    }
    out.push_str("},\"totals\":");
    stats_json(&total, &mut out);
    out.push_str(",\"jobs\":[");
    let mut first = true;
    for (spec, r) in sc.jobs.iter().zip(&sim.jobs) {
        if r.state == State::Pending {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        let _ = write!(
            out,
            "{{\"id\":{},\"share\":{},\"instance_type\":{},\"instances\":{},\"priority\":{},\"state\":\"{}\",\"submit_s\":{},\"first_start_s\":{},\"end_s\":{},\"preemptions\":{},\"lost_s\":{},\"held_s\":{},\"waiting_reason\":{}}}",
            string(&spec.id),
            string(&sc.shares[spec.share].name),
            string(&sc.instance_types[spec.instance_type].name),
            spec.instances,
            r.priority,
            r.state.as_str(),
            secs(spec.submit),
            opt_secs(r.first_start),
            opt_secs(r.end),
            r.preemptions,
            secs(r.acc.lost),
            secs(r.acc.held),
            r.reason.map_or("null".to_string(), |x| format!("\"{}\"", x.as_str()))
        );
    }
    out.push_str("],\"events\":[");
    for (i, e) in sim.events.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        event_json(sim, e, &mut out);
    }
    out.push_str("],\"series\":{\"t_s\":[");
    let ser = &sim.series;
    for (i, &t) in ser.t.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&secs(t));
    }
    out.push_str("],\"shares\":{");
    let mut last_share = usize::MAX;
    for (i, &(s, t)) in ser.pairs.iter().enumerate() {
        if s != last_share {
            if last_share != usize::MAX {
                out.push_str("},");
            }
            out.push_str(&string(&sc.shares[s].name));
            out.push_str(":{");
            last_share = s;
        } else {
            out.push(',');
        }
        out.push_str(&string(&sc.instance_types[t].name));
        out.push_str(":{\"limit\":");
        list(&mut out, ser.limit[i].iter().map(|x| x.to_string()));
        out.push_str(",\"own\":");
        list(&mut out, ser.own[i].iter().map(|x| x.to_string()));
        out.push_str(",\"borrowed\":");
        list(&mut out, ser.borrowed[i].iter().map(|x| x.to_string()));
        out.push_str(",\"lent\":");
        list(&mut out, ser.lent[i].iter().map(|&x| num(x)));
        out.push_str(",\"queued\":");
        list(&mut out, ser.queued[i].iter().map(|x| x.to_string()));
        out.push('}');
    }
    if last_share != usize::MAX {
        out.push('}');
    }
    out.push_str("}}}");
    out
}

fn list(out: &mut String, items: impl Iterator<Item = String>) {
    out.push('[');
    for (i, x) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&x);
    }
    out.push(']');
}

// ---- human table ----------------------------------------------------------------------

fn human_secs(s: f64) -> String {
    if s >= 86_400.0 {
        format!("{:.1}d", s / 86_400.0)
    } else if s >= 3_600.0 {
        format!("{:.1}h", s / 3_600.0)
    } else if s >= 60.0 {
        format!("{:.1}m", s / 60.0)
    } else {
        format!("{s:.0}s")
    }
}

/// A percentile cell: "-" when the set is empty.
fn pct(p: &Percentiles, x: f64) -> String {
    if p.n == 0 {
        "-".to_string()
    } else {
        human_secs(x)
    }
}

/// Instance-hours: one decimal in big runs, two in small ones.
fn hrs(h: f64, big: bool) -> String {
    if big {
        format!("{h:.1}")
    } else {
        format!("{h:.2}")
    }
}

/// The `--summary` table: one aligned row per share, then the totals.
pub fn summary_table(sim: &Sim) -> String {
    let sc = sim.sc;
    let (shares, total) = stats(sim);
    let big = total.time.held as f64 / MS_PER_HOUR >= 100.0;
    let head = [
        "share",
        "jobs",
        "done",
        "failed",
        "unfin",
        "p50 compl",
        "p90 compl",
        "p50 wait",
        "reclaim",
        "in-share",
        "own h",
        "borrow h",
        "lent h",
        "held h",
        "lost h",
        "goodput",
        "cost $",
    ];
    let row = |name: &str, s: &Stats| -> Vec<String> {
        let t = &s.time;
        vec![
            name.to_string(),
            s.jobs.submitted.to_string(),
            s.jobs.succeeded.to_string(),
            s.jobs.failed.to_string(),
            s.jobs.unfinished.to_string(),
            pct(&s.completion, s.completion.p50),
            pct(&s.completion, s.completion.p90),
            pct(&s.wait, s.wait.p50),
            s.reclaim.to_string(),
            s.in_share.to_string(),
            hrs(t.own as f64 / MS_PER_HOUR, big),
            hrs(t.borrowed as f64 / MS_PER_HOUR, big),
            hrs(t.lent / MS_PER_HOUR, big),
            hrs(t.held as f64 / MS_PER_HOUR, big),
            hrs(t.lost as f64 / MS_PER_HOUR, big),
            if t.held == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", s.goodput() * 100.0)
            },
            if s.cost_usd < 100.0 {
                format!("{:.2}", s.cost_usd)
            } else {
                format!("{:.0}", s.cost_usd)
            },
        ]
    };
    let mut rows: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
    for (i, s) in shares.iter().enumerate() {
        rows.push(row(&sc.shares[i].name, s));
    }
    rows.push(row("TOTAL", &total));
    let widths: Vec<usize> = (0..head.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    let title = if sc.name.is_empty() {
        "scenario".to_string()
    } else {
        sc.name.clone()
    };
    let _ = writeln!(
        out,
        "{title}: {} jobs, {} shares, simulated to {} ({} events)",
        total.jobs.submitted,
        sc.shares.len(),
        human_secs(sim.end as f64 / 1000.0),
        sim.event_count
    );
    for (i, r) in rows.iter().enumerate() {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c == 0 {
                let _ = write!(line, "{cell:<w$}", w = widths[c]);
            } else {
                let _ = write!(line, "  {cell:>w$}", w = widths[c]);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if i == 0 || i == rows.len() - 2 {
            out.push_str(&"-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1)));
            out.push('\n');
        }
    }
    out.push_str(
        "compl = completion time (end - submit) of succeeded jobs; wait = first start - submit; \
         h = instance-hours (own/borrow: quota of admitted jobs; lent: idle entitlement others borrowed; held: instances actually held)\n",
    );
    out
}
