//! Scenario building: the imported rows become shares, limits, a capacity and jobs of a
//! SPEC 7 scenario (the rules where SPEC 11 leaves room are in the module documentation).

use super::*;

/// A final share of the scenario.
pub(super) struct Share {
    pub(super) name: String,
    pub(super) jobs: u64,
    /// Sum of work_ms x instances.
    pub(super) demand: u128,
}

impl Share {
    /// A share named `name`, with no jobs yet.
    fn named(name: String) -> Share {
        Share {
            name,
            jobs: 0,
            demand: 0,
        }
    }
}

/// What the scenario will hold, before it is written as JSON.
pub(super) struct Plan {
    /// Sorted by submit time, each with its final share.
    pub(super) jobs: Vec<Row>,
    pub(super) shares: Vec<Share>,
    /// One per share.
    pub(super) limits: Vec<u64>,
    pub(super) capacity: u64,
    /// The earliest submit, time 0 of the scenario.
    pub(super) start: i64,
}

/// Sorts the jobs, folds the shares, sets the capacity and the limits.
pub(super) fn plan_scenario(
    mut jobs: Vec<Row>,
    table: &ShareTable,
    opts: &ImportOptions,
) -> Result<Plan, Problem> {
    // Which trace shares survive, in listing order; the rest fold into `other`.
    let mut order: Vec<usize> = (0..table.names.len())
        .filter(|&i| table.jobs[i] > 0)
        .collect();
    let by_count = |a: &usize, b: &usize| {
        table.jobs[*b]
            .cmp(&table.jobs[*a])
            .then_with(|| table.names[*a].cmp(&table.names[*b]))
    };
    crate::sort::compact_by(&mut order, &by_count);
    let fold = opts.top_shares.filter(|&n| order.len() > n);
    let mut final_of: Vec<usize> = vec![0; table.names.len()];
    let mut shares: Vec<Share> = Vec::new();
    if let Some(keep) = fold {
        let (kept, folded): (Vec<usize>, Vec<usize>) = {
            let ranked: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&i| table.names[i] != "other")
                .collect();
            let kept: Vec<usize> = ranked.iter().copied().take(keep).collect();
            let folded = order
                .iter()
                .copied()
                .filter(|i| !kept.contains(i))
                .collect();
            (kept, folded)
        };
        for i in kept {
            final_of[i] = shares.len();
            shares.push(Share::named(table.names[i].clone()));
        }
        if !folded.is_empty() {
            for i in folded {
                final_of[i] = shares.len();
            }
            shares.push(Share::named("other".to_string()));
        }
    } else {
        // A share named `other` goes last.
        crate::sort::compact_by_i64(&mut order, &|&i| i64::from(table.names[i] == "other"));
        for i in order {
            final_of[i] = shares.len();
            shares.push(Share::named(table.names[i].clone()));
        }
    }
    if shares.len() > MAX_SHARES {
        return Err(Problem::new(
            Path::named("--share"),
            format!(
                "the trace has {} shares, and a queue holds at most {MAX_SHARES} (SPEC 2): \
                 use --top-shares N (N <= 19) to fold the smaller ones into `other`",
                shares.len()
            ),
        ));
    }
    for job in &mut jobs {
        let s = final_of[job.share as usize];
        job.share = s as u32;
        shares[s].jobs += 1;
        shares[s].demand = shares[s]
            .demand
            .saturating_add(job.work_ms as u128 * u128::from(job.instances));
    }

    crate::sort::compact_by_i64(&mut jobs, &|j| j.submit_ms); // stable: row order within an instant
    let start = jobs.first().map_or(0, |j| j.submit_ms);
    let capacity = match opts.capacity {
        Some(c) => c,
        None => average_load_capacity(&jobs, start),
    };
    let limits = match opts.limits {
        LimitsMode::Proportional => {
            let weights: Vec<u128> = shares.iter().map(|s| s.demand).collect();
            largest_remainder(capacity, &weights)
        }
        LimitsMode::Equal => equal_split(capacity, &shares),
    };
    Ok(Plan {
        jobs,
        shares,
        limits,
        capacity,
        start,
    })
}

/// Writes the planned scenario (SPEC 7).
pub(super) fn write_scenario(plan: &Plan, opts: &ImportOptions) -> Value {
    let Plan {
        jobs,
        shares,
        limits,
        capacity,
        start,
    } = plan;
    let (capacity, start) = (*capacity, *start);
    let itype = opts.instance_type.trim();
    let share_values: Vec<Value> = shares
        .iter()
        .zip(limits)
        .map(|(share, limit)| {
            let mut m = Map::new();
            m.insert("name".into(), json!(share.name));
            m.insert("limits".into(), json!({ itype: limit }));
            m.insert("strategy".into(), json!(opts.strategy));
            if opts.strategy == "LEND_AND_BORROW" {
                m.insert(
                    "borrow_limit".into(),
                    json!(opts.borrow_limit.unwrap_or(-1)),
                );
            }
            m.insert("in_share_preemption".into(), json!(false));
            Value::Object(m)
        })
        .collect();

    let mut counters: Vec<u64> = vec![0; shares.len()];
    let job_values: Vec<Value> = jobs
        .iter()
        .map(|job| {
            let s = job.share as usize;
            counters[s] += 1;
            let mut m = Map::new();
            m.insert(
                "id".into(),
                json!(format!("{}-{}", shares[s].name, counters[s])),
            );
            m.insert("share".into(), json!(shares[s].name));
            m.insert("instance_type".into(), json!(itype));
            m.insert("instances".into(), json!(job.instances));
            m.insert("priority".into(), json!(job.priority));
            m.insert("submit_s".into(), seconds(job.submit_ms - start));
            m.insert("work_s".into(), seconds(job.work_ms));
            Value::Object(m)
        })
        .collect();

    let mut scenario = Map::new();
    scenario.insert("format".into(), json!("quotalab/v1"));
    scenario.insert("name".into(), json!(opts.name));
    scenario.insert("seed".into(), json!(1));
    scenario.insert("capacity".into(), json!({ itype: capacity }));
    scenario.insert(
        "queue".into(),
        json!({"queueing": "best_effort_fifo", "preemption_grace_s": 120}),
    );
    scenario.insert("shares".into(), Value::Array(share_values));
    scenario.insert("jobs".into(), Value::Array(job_values));
    Value::Object(scenario)
}

/// Milliseconds as a JSON number of seconds: an integer when whole.
pub(super) fn seconds(ms: i64) -> Value {
    if ms % 1000 == 0 {
        json!(ms / 1000)
    } else {
        json!(ms as f64 / 1000.0)
    }
}

/// The default capacity: the average load, `ceil(sum of work x instances / makespan)`,
/// where the makespan runs from the first submit to the last end if every job started on
/// submit; at least the largest job's instances.
pub(super) fn average_load_capacity(jobs: &[Row], start: i64) -> u64 {
    let mut demand: u128 = 0;
    let mut makespan: i64 = 1;
    let mut largest: u64 = 1;
    for job in jobs {
        demand = demand.saturating_add(job.work_ms as u128 * u128::from(job.instances));
        makespan = makespan.max(job.submit_ms - start + job.work_ms);
        largest = largest.max(u64::from(job.instances));
    }
    let makespan = makespan as u128;
    let average = demand.div_ceil(makespan);
    let average = u64::try_from(average)
        .unwrap_or(MAX_CAPACITY)
        .min(MAX_CAPACITY);
    average.max(largest)
}

/// Splits `total` in proportion to `weights` by largest remainder (Hamilton): the parts sum
/// exactly to `total`; ties go to the earlier weight. All-zero weights split evenly.
pub(super) fn largest_remainder(total: u64, weights: &[u128]) -> Vec<u64> {
    let mut weights = weights.to_vec();
    let total_wide = u128::from(total);
    loop {
        let sum: u128 = weights.iter().fold(0u128, |a, w| a.saturating_add(*w));
        if sum == 0 {
            return split_evenly(total, weights.len());
        }
        // Keep total x sum within u128 (only absurd traces need this).
        if sum < u128::MAX / total_wide.max(1) {
            let mut parts: Vec<u64> = Vec::with_capacity(weights.len());
            let mut remainders: Vec<(u128, usize)> = Vec::with_capacity(weights.len());
            for (i, w) in weights.iter().enumerate() {
                let exact = total_wide * w;
                parts.push(u64::try_from(exact / sum).unwrap_or(total));
                remainders.push((exact % sum, i));
            }
            let given: u64 = parts.iter().sum();
            let mut left = total.saturating_sub(given);
            crate::sort::compact_by(&mut remainders, &|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            for (_, i) in remainders {
                if left == 0 {
                    break;
                }
                parts[i] += 1;
                left -= 1;
            }
            return parts;
        }
        for w in &mut weights {
            *w >>= 1;
        }
    }
}

/// `total / n` each, the remainder one each to the first shares.
pub(super) fn split_evenly(total: u64, n: usize) -> Vec<u64> {
    if n == 0 {
        return Vec::new();
    }
    let n64 = n as u64;
    (0..n64)
        .map(|i| total / n64 + u64::from(i < total % n64))
        .collect()
}

/// `equal` limits: an even split, the remainder one each to the first shares in name order.
pub(super) fn equal_split(total: u64, shares: &[Share]) -> Vec<u64> {
    let mut by_name: Vec<usize> = (0..shares.len()).collect();
    crate::sort::compact_by(&mut by_name, &|a, b| shares[*a].name.cmp(&shares[*b].name));
    let parts = split_evenly(total, shares.len());
    let mut limits = vec![0; shares.len()];
    for (rank, &i) in by_name.iter().enumerate() {
        limits[i] = parts[rank];
    }
    limits
}
