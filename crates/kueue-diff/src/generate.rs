//! Random Kueue-model scenarios for the differential test (SPEC 12.1): cohorts up to three
//! levels, nominal quotas, borrowing and lending limits, every preemption policy, strict
//! and best-effort FIFO, fair sharing with weights, grace 0 or more, and jobs submitted
//! at distinct seconds (Kueue orders ties by UID, the engine by file order).

use std::ops::RangeInclusive;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};

/// Instance types the generator uses (catalogue names, so no `instance_types` block).
const TYPES: [&str; 2] = ["ml.g5.xlarge", "ml.g5.2xlarge"];

/// How many jobs a generated scenario has by default: enough for every decision to happen,
/// few enough that a difference is read at a glance.
pub const JOBS: RangeInclusive<usize> = 3..=12;

/// `--jobs LO..HI` (or `N`): how many jobs each generated scenario has, from 1 to 500.
pub fn jobs_range(text: &str) -> Result<RangeInclusive<usize>, String> {
    let bad = || format!("--jobs takes a range of job counts such as 20..60 (got {text:?})");
    let (lo, hi) = text.split_once("..").unwrap_or((text, text));
    let (lo, hi): (usize, usize) = (
        lo.trim().parse().map_err(|_| bad())?,
        hi.trim().parse().map_err(|_| bad())?,
    );
    if lo == 0 || hi < lo || hi > 500 {
        return Err(format!(
            "--jobs {text}: the range must go up from at least 1 job to at most 500"
        ));
    }
    Ok(lo..=hi)
}

/// How the random scenarios of a run are drawn, besides their seed and case: how many jobs
/// each has (`--jobs`), and every instance type's capacity (`--capacity`; by default none is
/// given, so it is the sum of the shares' quotas, SPEC 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    pub jobs: RangeInclusive<usize>,
    pub capacity: Option<u64>,
}

impl Default for Draw {
    fn default() -> Self {
        Draw {
            jobs: JOBS,
            capacity: None,
        }
    }
}

impl Draw {
    /// Case `case` of the run seeded `seed`, drawn so.
    pub fn scenario(&self, seed: u64, case: u64) -> Value {
        let s = scenario_with(seed, case, self.jobs.clone());
        match self.capacity {
            Some(n) => with_capacity(s, n),
            None => s,
        }
    }

    /// What differs from the default draw, as a fixture's name ends (`-jobs-LO-HI`,
    /// `-capacity-N`): what `kueue-diff case` needs to draw a case again.
    pub fn suffix(&self) -> String {
        let mut out = String::new();
        if self.jobs != JOBS {
            out += &format!("-jobs-{}-{}", self.jobs.start(), self.jobs.end());
        }
        if let Some(n) = self.capacity {
            out += &format!("-capacity-{n}");
        }
        out
    }

    /// What differs from the default draw, in words for a run's last line (`, 20..60 jobs
    /// each, capacity 1000`).
    pub fn described(&self) -> String {
        let mut out = String::new();
        if self.jobs != JOBS {
            out += &format!(", {}..{} jobs each", self.jobs.start(), self.jobs.end());
        }
        if let Some(n) = self.capacity {
            out += &format!(", capacity {n} of each type");
        }
        out
    }

    /// Reads the options `--jobs LO..HI` and `--capacity N` at `args[i]` (with its value);
    /// `Ok(false)` if `args[i]` is neither.
    pub fn option(&mut self, args: &[String], i: usize) -> Result<bool, String> {
        match args[i].as_str() {
            "--jobs" => {
                self.jobs = jobs_range(args.get(i + 1).ok_or("--jobs takes a range LO..HI")?)?;
            }
            "--capacity" => {
                self.capacity = Some(capacity_arg(
                    args.get(i + 1)
                        .ok_or("--capacity takes a number of instances")?,
                )?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// `--capacity N`: every instance type's capacity, from 1 to 1,000,000 instances.
pub fn capacity_arg(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        _ => Err(format!(
            "--capacity takes a number of instances from 1 to 1000000 (got {text:?})"
        )),
    }
}

/// Scenario `s` with a `capacity` of `n` instances for every instance type its quotas name.
/// Kueue knows no capacity beyond quota (its reference ignores `capacity`); above the sum
/// of the quotas the engine's capacity condition (SPEC 3, defect 9 of docs/RELIABILITY.md)
/// never binds, so the two must decide alike there too.
pub fn with_capacity(mut s: Value, n: u64) -> Value {
    let mut types = std::collections::BTreeSet::new();
    for list in ["shares", "cohorts"] {
        for item in s[list].as_array().into_iter().flatten() {
            for key in ["limits", "borrowing_limit", "lending_limit"] {
                if let Some(m) = item[key].as_object() {
                    types.extend(m.keys().cloned());
                }
            }
        }
    }
    let capacity: Map<String, Value> = types.into_iter().map(|t| (t, json!(n))).collect();
    s["capacity"] = Value::Object(capacity);
    s
}

/// Case `case` of the run seeded `seed`, with between `jobs.start()` and `jobs.end()` jobs
/// ([`JOBS`] by default): the same three always give the same scenario. Queues of tens of
/// jobs bring what short ones seldom do: shares whose whole queue is set aside after every
/// release, cycles done at once, shares drained for the rest of a pass (SPEC 12.1
/// "Inadmissible workloads").
pub fn scenario_with(seed: u64, case: u64, jobs: RangeInclusive<usize>) -> Value {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(case));
    let r = &mut rng;
    let types: &[&str] = if r.random_bool(0.2) {
        &TYPES
    } else {
        &TYPES[..1]
    };
    let fair = r.random_bool(0.3);

    // Cohorts: a root, and up to three more below it (at most three levels).
    let mut cohorts: Vec<(String, Option<usize>, usize)> = Vec::new(); // name, parent, depth
    let n_cohorts = r.random_range(0..=4usize);
    for i in 0..n_cohorts {
        let name = format!("co{i}");
        if i == 0 {
            cohorts.push((name, None, 1));
        } else {
            let candidates: Vec<usize> = (0..i).filter(|&p| cohorts[p].2 < 3).collect();
            let p = candidates[r.random_range(0..candidates.len())];
            let depth = cohorts[p].2 + 1;
            cohorts.push((name, Some(p), depth));
        }
    }
    let quota = |r: &mut ChaCha8Rng, lo: u64, hi: u64| -> Map<String, Value> {
        types
            .iter()
            .map(|t| (t.to_string(), json!(r.random_range(lo..=hi))))
            .collect()
    };
    let weight = |r: &mut ChaCha8Rng| -> Value {
        [json!(0), json!(0.5), json!(1), json!(2)][r.random_range(0..4usize)].clone()
    };
    let cohort_json: Vec<Value> = cohorts
        .iter()
        .map(|(name, parent, _)| {
            let mut c = Map::new();
            c.insert("name".into(), json!(name));
            if let Some(p) = parent {
                c.insert("parent".into(), json!(cohorts[*p].0));
                if r.random_bool(0.2) {
                    c.insert("borrowing_limit".into(), Value::Object(quota(r, 0, 3)));
                }
            }
            if r.random_bool(0.4) {
                let limits = quota(r, 0, 3);
                if parent.is_some() && r.random_bool(0.3) {
                    let lend: Map<String, Value> = limits
                        .iter()
                        .map(|(k, v)| (k.clone(), json!(r.random_range(0..=v.as_u64().unwrap()))))
                        .collect();
                    c.insert("lending_limit".into(), Value::Object(lend));
                }
                c.insert("limits".into(), Value::Object(limits));
            }
            if fair && r.random_bool(0.4) {
                c.insert("weight".into(), weight(r));
            }
            Value::Object(c)
        })
        .collect();

    let n_shares = r.random_range(2..=5usize);
    let mut shares = Vec::new();
    for i in 0..n_shares {
        let mut s = Map::new();
        s.insert(
            "name".into(),
            json!(format!("cq-{}", (b'a' + i as u8) as char)),
        );
        let limits = quota(r, 0, 5);
        let cohort = (!cohorts.is_empty() && r.random_bool(0.9))
            .then(|| cohorts[r.random_range(0..cohorts.len())].0.clone());
        if let Some(c) = &cohort {
            s.insert("cohort".into(), json!(c));
            if r.random_bool(0.3) {
                s.insert("borrowing_limit".into(), Value::Object(quota(r, 0, 4)));
            }
            if r.random_bool(0.3) {
                let lend: Map<String, Value> = limits
                    .iter()
                    .map(|(k, v)| (k.clone(), json!(r.random_range(0..=v.as_u64().unwrap()))))
                    .collect();
                s.insert("lending_limit".into(), Value::Object(lend));
            }
        }
        s.insert("limits".into(), Value::Object(limits));
        if r.random_bool(0.3) {
            s.insert("queueing".into(), json!("strict_fifo"));
        }
        let within =
            ["never", "lower_priority", "lower_or_newer_equal_priority"][r.random_range(0..3usize)];
        let reclaim = ["never", "lower_priority", "any"][r.random_range(0..3usize)];
        let mut p = Map::new();
        p.insert("within_share".into(), json!(within));
        p.insert("reclaim".into(), json!(reclaim));
        if reclaim != "never" && r.random_bool(0.3) {
            let mut b = Map::new();
            b.insert("policy".into(), json!("lower_priority"));
            if r.random_bool(0.5) {
                b.insert(
                    "max_priority_threshold".into(),
                    json!(r.random_range(-1..=2i64)),
                );
            }
            p.insert("borrow_within_cohort".into(), Value::Object(b));
        }
        s.insert("preemption".into(), Value::Object(p));
        if fair && r.random_bool(0.5) {
            s.insert("weight".into(), weight(r));
        }
        shares.push(Value::Object(s));
    }

    // Jobs at distinct seconds.
    let n_jobs = r.random_range(jobs);
    let mut t = 0u64;
    let mut jobs = Vec::new();
    for i in 0..n_jobs {
        if i > 0 {
            t += r.random_range(1..=6u64);
        }
        let share = r.random_range(0..n_shares);
        jobs.push(json!({
            "id": format!("j{i}"),
            "share": shares[share]["name"],
            "instance_type": types[r.random_range(0..types.len())],
            "instances": r.random_range(1..=3u64),
            "priority": r.random_range(-1..=3i64),
            "submit_s": t,
            "work_s": r.random_range(1..=25u64),
        }));
    }

    let grace = if r.random_bool(0.5) {
        0
    } else {
        r.random_range(1..=5u64)
    };
    let mut top = Map::new();
    top.insert("format".into(), json!("quotalab/v1"));
    top.insert("model".into(), json!("kueue"));
    top.insert("name".into(), json!(format!("random {seed}/{case}")));
    // Long enough for most queues to drain (400 s for the default sizes, as ever).
    top.insert("horizon_s".into(), json!(400.max(25 * n_jobs as u64)));
    top.insert("queue".into(), json!({"preemption_grace_s": grace}));
    if fair {
        let strategies = [
            json!([
                "less_than_or_equal_to_final_share",
                "less_than_initial_share"
            ]),
            json!(["less_than_or_equal_to_final_share"]),
            json!(["less_than_initial_share"]),
        ][r.random_range(0..3usize)]
        .clone();
        top.insert("fair_sharing".into(), json!({ "strategies": strategies }));
    }
    top.insert("cohorts".into(), Value::Array(cohort_json));
    top.insert("shares".into(), Value::Array(shares));
    top.insert("jobs".into(), Value::Array(jobs));
    Value::Object(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs_of(s: &Value) -> usize {
        s["jobs"].as_array().unwrap().len()
    }

    /// The default sizes draw the scenarios they always did (the recorded differential runs
    /// and `./run test`'s floor are about these): cases 0-49 of seed 1, fingerprinted (FNV-1a
    /// of their compact JSON) as the generator before `--jobs` drew them.
    #[test]
    fn the_default_sizes_draw_the_scenarios_they_always_did() {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for case in 0..50 {
            let s = scenario_with(1, case, JOBS);
            assert!(JOBS.contains(&jobs_of(&s)));
            assert_eq!(s["horizon_s"], 400);
            for b in serde_json::to_string(&s).unwrap().bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        assert_eq!(h, FINGERPRINT, "{h:#x}");
    }

    const FINGERPRINT: u64 = 0xe84c_ea89_7de5_95bd;

    #[test]
    fn a_range_of_sizes_gives_that_many_jobs_and_time_to_run_them() {
        for case in 0..20 {
            let s = scenario_with(3, case, 40..=60);
            assert!((40..=60).contains(&jobs_of(&s)), "{}", jobs_of(&s));
            assert_eq!(s["horizon_s"], 25 * jobs_of(&s) as u64);
        }
        assert_eq!(jobs_of(&scenario_with(3, 0, 7..=7)), 7);
    }

    #[test]
    fn a_capacity_is_given_to_every_type_the_quotas_name_and_only_then() {
        let plain = Draw::default();
        let roomy = Draw {
            capacity: Some(1000),
            ..Draw::default()
        };
        for case in 0..40 {
            let s = roomy.scenario(2, case);
            let mut without = s.clone();
            without.as_object_mut().unwrap().remove("capacity");
            assert_eq!(without, plain.scenario(2, case), "only the capacity is new");
            let named = serde_json::to_string(&s["shares"]).unwrap()
                + &serde_json::to_string(&s["cohorts"]).unwrap();
            let capacity = s["capacity"].as_object().unwrap();
            assert!(!capacity.is_empty());
            for t in TYPES {
                assert_eq!(capacity.contains_key(t), named.contains(t), "{t}");
            }
            assert!(capacity.values().all(|v| v == 1000));
            assert!(plain.scenario(2, case).get("capacity").is_none());
        }
        assert_eq!(roomy.suffix(), "-capacity-1000");
        assert_eq!(roomy.described(), ", capacity 1000 of each type");
        assert_eq!(
            (plain.suffix(), plain.described()),
            (String::new(), String::new())
        );
    }

    #[test]
    fn options_read_as_written_or_are_refused_in_words() {
        let args: Vec<String> = [
            "--capacity",
            "50",
            "--jobs",
            "20..60",
            "--seed",
            "3",
            "--capacity",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        let mut d = Draw::default();
        assert_eq!(d.option(&args, 0), Ok(true));
        assert_eq!(d.option(&args, 2), Ok(true));
        assert_eq!(d.option(&args, 4), Ok(false));
        assert_eq!(
            d,
            Draw {
                jobs: 20..=60,
                capacity: Some(50)
            }
        );
        assert_eq!(d.suffix(), "-jobs-20-60-capacity-50");
        assert!(d.option(&args, 6).unwrap_err().contains("--capacity takes"));
        for bad in ["0", "x", "-3", "1000001", ""] {
            let e = capacity_arg(bad).unwrap_err();
            assert!(e.contains("from 1 to 1000000"), "{bad}: {e}");
        }
    }

    #[test]
    fn job_ranges_read_as_written_or_are_refused_in_words() {
        assert_eq!(jobs_range("20..60"), Ok(20..=60));
        assert_eq!(jobs_range(" 5 .. 5 "), Ok(5..=5));
        assert_eq!(jobs_range("30"), Ok(30..=30));
        for bad in ["0..4", "9..3", "1..501"] {
            let e = jobs_range(bad).unwrap_err();
            assert!(e.contains("at least 1 job to at most 500"), "{bad}: {e}");
        }
        for bad in ["", "x", "1..", "..5", "-2..3"] {
            let e = jobs_range(bad).unwrap_err();
            assert!(e.contains("such as 20..60"), "{bad}: {e}");
        }
    }
}
