//! The result JSON (SPEC 8), written by hand, field by field, in a fixed order, so that the
//! same scenario gives byte-identical output everywhere and a million-job log streams
//! without building a document tree in memory.

use std::fmt::Write as _;

use crate::input::model::{Ms, Scenario};
use crate::simulation::{Event, EventKind, Finished, State, NO_JOB};

use super::explain::{explain_preempt, explain_recovery, explain_waiting};
use super::stats::{cohort_stats, stats, Percentiles, Stats, MS_PER_HOUR};
use crate::simulation::share_value::ShareValue;

pub use super::numbers::{num, secs};

pub(crate) fn hours(ms: u128) -> String {
    num(ms as f64 / MS_PER_HOUR)
}

pub(crate) fn string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

pub(crate) fn percentiles_json(p: &Percentiles) -> String {
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

/// SPEC 8's `"shares":{NAME:STATS,..},"totals":STATS`, the part of a result a sweep line
/// repeats (SPEC 15).
pub(crate) fn shares_and_totals_json(
    sc: &Scenario,
    shares: &[Stats],
    total: &Stats,
    out: &mut String,
) {
    let (kueue, contract) = (sc.is_kueue(), sc.contract);
    out.push_str("\"shares\":{");
    for (i, st) in shares.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&string(&sc.shares[i].name));
        out.push(':');
        stats_json(st, kueue, contract, out);
    }
    out.push_str("},\"totals\":");
    stats_json(total, kueue, contract, out);
}

/// One share's (or the totals') metrics; with the SPEC 14 blocks when `contract` (the
/// scenario uses the interruption contract): `instance_hours.useful_borrowed`, `recovery`
/// and `policy`.
pub(crate) fn stats_json(s: &Stats, kueue: bool, contract: bool, out: &mut String) {
    let j = &s.jobs;
    let t = &s.time;
    let _ = write!(
        out,
        "{{\"jobs\":{{\"submitted\":{},\"succeeded\":{},\"failed\":{},\"unfinished\":{},\"rejected\":{},\"unschedulable\":{}}},",
        j.submitted, j.succeeded, j.failed, j.unfinished, j.rejected, j.unschedulable
    );
    let _ = write!(
        out,
        "\"completion_s\":{},\"wait_s\":{},\"preemptions\":{{\"reclaim\":{},\"in_share\":{}",
        percentiles_json(&s.completion),
        percentiles_json(&s.wait),
        s.reclaim,
        s.in_share
    );
    if kueue {
        preemptions_kueue_json(s.reclaim_while_borrowing, s.fair_sharing, out);
    }
    out.push_str("},");
    if kueue {
        // SPEC 12.1: preemption takes time; how often a preemptor waited, and how often the
        // quota its victims freed went to another workload first.
        let _ = write!(
            out,
            "\"preemptor_waits\":{{\"waits\":{},\"quota_taken\":{}}},",
            s.preemptor_waits, s.quota_taken_while_waiting
        );
    }
    let _ = write!(
        out,
        "\"instance_hours\":{{\"entitled\":{},\"own\":{},\"borrowed\":{},\"lent\":{},\"idle\":{},\"held\":{},\"useful\":{},\"lost\":{},\"startup\":{},\"checkpoint\":{},\"grace\":{}",
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
    if contract {
        let _ = write!(out, ",\"useful_borrowed\":{}", hours(t.useful_borrowed));
    }
    out.push_str("},");
    let _ = write!(
        out,
        "\"goodput\":{},\"cost_usd\":{},\"deadline_misses\":{}",
        num(s.goodput()),
        num((s.cost_usd * 100.0).round() / 100.0),
        s.deadline_misses
    );
    if contract {
        recovery_json(s, out);
    }
    out.push('}');
}

/// A rate, or `null` when its denominator is 0.
fn rate(x: Option<f64>) -> String {
    x.map_or_else(|| "null".to_string(), num)
}

/// SPEC 14 blocks of one share (or the totals): `recovery` {`interruptions`, `restores`,
/// `restore_failures`, `invalid_resumes`, `recomputed_h`, `restart_h`,
/// `wait_after_interruption_s` {`n`, `mean`, `p50`, `p90`, `max`}, `retries_exhausted`,
/// `resubmitted`, `alarms`, `success_rate`, `deadline_met_rate`} and `policy`
/// {`priority_overrides`, `allocation_changes`, `priority_raised`}.
fn recovery_json(s: &Stats, out: &mut String) {
    let r = &s.recovery;
    let c = &r.counts;
    let w = &r.wait_after_interruption;
    let _ = write!(
        out,
        ",\"recovery\":{{\"interruptions\":{},\"restores\":{},\"restore_failures\":{},\"invalid_resumes\":{},\"recomputed_h\":{},\"restart_h\":{},\"wait_after_interruption_s\":{{\"n\":{},\"mean\":{},\"p50\":{},\"p90\":{},\"max\":{}}},\"retries_exhausted\":{},\"resubmitted\":{},\"alarms\":{},\"success_rate\":{},\"deadline_met_rate\":{}}}",
        c.interruptions,
        c.restores,
        c.restore_failures,
        c.invalid_resumes,
        hours(s.time.lost),
        hours(s.time.restart),
        w.n,
        num(w.mean),
        num(w.p50),
        num(w.p90),
        num(w.max),
        c.retries_exhausted,
        c.resubmitted,
        c.alarms,
        rate(r.success_rate(s.jobs.succeeded)),
        rate(r.deadline_met_rate())
    );
    let _ = write!(
        out,
        ",\"policy\":{{\"priority_overrides\":{},\"allocation_changes\":{},\"priority_raised\":{}}}",
        c.priority_overrides, c.allocation_changes, r.priority_raised
    );
}

/// SPEC 12: the Kueue model's two more preemption causes, after SPEC 8's two.
fn preemptions_kueue_json(reclaim_while_borrowing: u64, fair_sharing: u64, out: &mut String) {
    let _ = write!(
        out,
        ",\"reclaim_while_borrowing\":{reclaim_while_borrowing},\"fair_sharing\":{fair_sharing}"
    );
}

/// SPEC 12 results per cohort (Kueue model): `"cohorts": {name: {"path", "instance_hours":
/// {"quota", "borrowed", "lent"}, "preemptions": {four causes}}}`.
fn cohorts_json(sim: &Finished, out: &mut String) {
    out.push_str(",\"cohorts\":{");
    for (i, c) in cohort_stats(sim).iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{}:{{\"path\":{},\"instance_hours\":{{\"quota\":{},\"borrowed\":{},\"lent\":{}}},\"preemptions\":{{\"reclaim\":{},\"in_share\":{}",
            string(&c.name),
            string(&c.path),
            hours(c.quota),
            hours(c.borrowed),
            num(c.lent / MS_PER_HOUR),
            c.reclaim,
            c.in_share
        );
        preemptions_kueue_json(c.reclaim_while_borrowing, c.fair_sharing, out);
        out.push_str("}}");
    }
    out.push('}');
}

/// SPEC 12 series (Kueue model), after the shares' series: `"dominant_share": {"shares":
/// {name: [..]}, "cohorts": {name: [..]}}` (Kueue's weightedShare, rounded up; the string
/// `"infinite"` for a weight of 0 while borrowing) and `"cohorts": {name: {type:
/// {"quota", "usage", "borrowed", "lent"}}}`, on the same change points `t_s`.
fn kueue_series_json(sim: &Finished, out: &mut String) {
    let sc = sim.scenario();
    let k = &sim.series().kueue;
    let ns = sc.shares.len();
    let drs = |out: &mut String, n: usize| {
        let v = k.dominant_share.get(n).map(Vec::as_slice).unwrap_or(&[]);
        list(
            out,
            v.iter().map(|x| match x {
                ShareValue::Finite(v) => v.to_string(),
                ShareValue::Infinite => "\"infinite\"".to_string(),
            }),
        );
    };
    out.push_str(",\"dominant_share\":{\"shares\":{");
    for (s, sh) in sc.shares.iter().enumerate() {
        if s > 0 {
            out.push(',');
        }
        out.push_str(&string(&sh.name));
        out.push(':');
        drs(out, s);
    }
    out.push_str("},\"cohorts\":{");
    for (c, co) in sc.cohorts.iter().enumerate() {
        if c > 0 {
            out.push(',');
        }
        out.push_str(&string(&co.name));
        out.push(':');
        drs(out, ns + c);
    }
    out.push_str("}},\"cohorts\":{");
    let types = sc.instance_types.len();
    for (c, co) in sc.cohorts.iter().enumerate() {
        if c > 0 {
            out.push(',');
        }
        out.push_str(&string(&co.name));
        out.push_str(":{");
        for (t, ty) in sc.instance_types.iter().enumerate() {
            let i = c * types + t;
            if t > 0 {
                out.push(',');
            }
            let u = |v: &Vec<Vec<u64>>| v.get(i).cloned().unwrap_or_default();
            out.push_str(&string(&ty.name));
            out.push_str(":{\"quota\":");
            list(out, u(&k.quota).iter().map(|x| x.to_string()));
            out.push_str(",\"usage\":");
            list(out, u(&k.usage).iter().map(|x| x.to_string()));
            out.push_str(",\"borrowed\":");
            list(out, u(&k.borrowed).iter().map(|x| x.to_string()));
            out.push_str(",\"lent\":");
            let lent = k.lent.get(i).cloned().unwrap_or_default();
            list(out, lent.iter().map(|&x| num(x)));
            out.push('}');
        }
        out.push('}');
    }
    out.push('}');
}

pub(crate) fn event_json(sim: &Finished, e: &Event, out: &mut String) {
    let sc = sim.scenario();
    out.push_str("{\"t_s\":");
    out.push_str(&secs(e.t));
    if e.job != NO_JOB {
        out.push_str(",\"job\":");
        out.push_str(&string(sc.job_id(e.job.index())));
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
        EventKind::Waiting(..) => "waiting",
        EventKind::SetPriority(_) | EventKind::Escalated(_) => "set_priority",
        EventKind::UpdateShare => "update_share",
        EventKind::RestoreFailed { .. } => "restore_failed",
        EventKind::InvalidResume { .. } => "invalid_resume",
        EventKind::Resubmit { .. } => "resubmit",
        EventKind::Alarm { .. } => "alarm",
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
                string(sc.job_id(by.index())),
                string(&explain_preempt(sc, e.job, &e.kind))
            );
        }
        EventKind::Waiting(r, why) => {
            let _ = write!(
                out,
                ",\"reason\":\"{}\",\"explain\":{}",
                r.as_str(),
                string(&explain_waiting(sc, e.job, r, why))
            );
        }
        EventKind::SetPriority(p) => {
            let _ = write!(out, ",\"priority\":{p}");
        }
        EventKind::Escalated(p) => {
            let _ = write!(
                out,
                ",\"priority\":{p},\"escalated\":true,\"explain\":{}",
                string(&explain_recovery(sc, e.job, &e.kind))
            );
        }
        EventKind::RestoreFailed { lost } | EventKind::InvalidResume { lost } => {
            let _ = write!(
                out,
                ",\"lost_s\":{},\"explain\":{}",
                secs(lost),
                string(&explain_recovery(sc, e.job, &e.kind))
            );
        }
        EventKind::Resubmit { from, priority } => {
            let _ = write!(
                out,
                ",\"from\":{},\"priority\":{priority},\"explain\":{}",
                string(&sc.shares[from as usize].name),
                string(&explain_recovery(sc, e.job, &e.kind))
            );
        }
        EventKind::Alarm { count } => {
            let _ = write!(
                out,
                ",\"preemptions\":{count},\"explain\":{}",
                string(&explain_recovery(sc, e.job, &e.kind))
            );
        }
        _ => {}
    }
    out.push('}');
}

pub(crate) fn opt_secs(ms: Option<Ms>) -> String {
    ms.map_or_else(|| "null".to_string(), secs)
}

/// The result document (SPEC 8), byte-identical for the same scenario.
pub fn to_json(sim: &Finished) -> String {
    let sc = sim.scenario();
    let (shares, total) = stats(sim);
    let kueue = sc.is_kueue();
    let contract = sc.contract;
    let mut out = String::with_capacity(1024 + sim.events().len() * 96 + sc.jobs.len() * 160);
    out.push_str("{\"format\":\"quotalab-result/v1\",\"end_s\":");
    out.push_str(&secs(sim.end()));
    out.push(',');
    if let Some((first, again)) = sim.circle() {
        // SPEC 6, bounded: only in a run that would never have ended.
        let _ = write!(
            out,
            "\"stopped\":{{\"reason\":\"preemption_circle\",\"repeats_from_s\":{},\"period_s\":{}}},",
            secs(first),
            secs(again - first)
        );
    }
    if !sim.kueue_unsettled().is_empty() {
        // SPEC 12.1, Kueue model: only in a run with an instant whose cycles never settle.
        out.push_str("\"unsettled_instants_s\":");
        list(&mut out, sim.kueue_unsettled().iter().map(|&t| secs(t)));
        out.push(',');
    }
    shares_and_totals_json(sc, &shares, &total, &mut out);
    if kueue {
        cohorts_json(sim, &mut out);
    }
    out.push_str(",\"jobs\":[");
    let mut first = true;
    // `sim.acc()` is kept when events are (the result JSON is recorded with both).
    for (i, (spec, r)) in sc.jobs.iter().zip(sim.jobs()).enumerate() {
        if r.state == State::Pending || spec.resubmission_of.is_some() {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        let _ = write!(
            out,
            "{{\"id\":{},\"share\":{},\"instance_type\":{},\"instances\":{},\"priority\":{},\"state\":\"{}\",\"submit_s\":{},\"first_start_s\":{},\"end_s\":{},\"preemptions\":{},\"lost_s\":{},\"held_s\":{},\"waiting_reason\":{}",
            string(sc.id_of(spec)),
            string(&sc.shares[r.share()].name),
            string(&sc.instance_types[spec.instance_type()].name),
            spec.instances(),
            r.priority,
            r.state.as_str(),
            secs(spec.submit),
            opt_secs(r.first_start.get()),
            opt_secs(r.end().get()),
            r.preemptions,
            secs(sim.acc()[i].lost),
            secs(r.held),
            r.reason.map_or("null".to_string(), |x| format!("\"{}\"", x.as_str()))
        );
        if contract {
            let kept = !matches!(r.state, State::Failed | State::Rejected);
            let ub = if kept { r.useful_borrowed } else { 0 };
            let _ = write!(out, ",\"useful_borrowed_s\":{}", secs(ub));
        }
        out.push('}');
    }
    out.push_str("],\"events\":[");
    for (i, e) in sim.events().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        event_json(sim, e, &mut out);
    }
    out.push_str("],\"series\":{\"t_s\":[");
    let ser = sim.series();
    for (i, &t) in ser.t.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&secs(t));
    }
    out.push_str("],\"shares\":{");
    let mut last_share = usize::MAX;
    for (i, p) in ser.pairs.iter().enumerate() {
        let (s, t) = (p.share.index(), p.ty.index());
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
        list(&mut out, ser.values(i).map(|v| v.limit.to_string()));
        out.push_str(",\"own\":");
        list(&mut out, ser.values(i).map(|v| v.own.to_string()));
        out.push_str(",\"borrowed\":");
        list(&mut out, ser.values(i).map(|v| v.borrowed.to_string()));
        out.push_str(",\"lent\":");
        list(&mut out, ser.values(i).map(|v| num(v.lent)));
        out.push_str(",\"queued\":");
        list(&mut out, ser.values(i).map(|v| v.queued.to_string()));
        out.push('}');
    }
    if last_share != usize::MAX {
        out.push('}');
    }
    out.push('}');
    if kueue {
        kueue_series_json(sim, &mut out);
    }
    out.push_str("}}");
    out
}

pub(crate) fn list(out: &mut String, items: impl Iterator<Item = String>) {
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
