//! Warnings that help a user (SPEC 2, SPEC 7): overcommitted capacity, unschedulable jobs.

use crate::input::model::*;
use crate::input::path::Path;

use super::Cx;

impl Cx {
    /// Warnings that help a user (SPEC 2: overcommit is a warning, not an error).
    pub(super) fn advise(
        &mut self,
        shares: &[Share],
        capacity: &[u64],
        jobs: &[JobSpec],
        ids: &JobIds,
        explicit: usize,
    ) {
        for (t, ty) in self.types.clone().iter().enumerate() {
            let sum: u64 = shares
                .iter()
                .map(|s| s.limits.get(t).copied().flatten().unwrap_or(0))
                .sum();
            if sum > capacity[t] {
                self.warn(
                    Path::root().key("capacity").key(ty.name.as_str()),
                    format!(
                        "overcommitted: the shares' limits add up to {sum} instances but capacity is {}; some entitlements may be unreachable",
                        capacity[t]
                    ),
                );
            }
        }
        let mut reported = std::collections::HashSet::new();
        for (i, j) in jobs.iter().enumerate() {
            // Only built when a warning is reported. A generated job has no place in the
            // document: it is named by its id.
            let path = || {
                if i < explicit {
                    Path::root().key("jobs").idx(i)
                } else {
                    Path::named(format!("job \"{}\"", ids.get(j.id)))
                }
            };
            let share = &shares[j.share()];
            let limit = share.limits.get(j.instance_type()).copied().flatten();
            if limit.is_none() && reported.insert((j.share(), j.instance_type())) {
                self.warn(
                    path(),
                    format!(
                        "share \"{}\" has no limit for {}: its jobs of that type are unschedulable",
                        share.name,
                        self.types[j.instance_type()].name
                    ),
                );
            } else if j.instances() > capacity[j.instance_type()]
                && reported.insert((usize::MAX - j.share(), j.instance_type()))
            {
                self.warn(
                    path(),
                    format!(
                        "needs {} instance{} of {} but capacity is {}: it can never start",
                        j.instances(),
                        if j.instances() == 1 { "" } else { "s" },
                        self.types[j.instance_type()].name,
                        capacity[j.instance_type()]
                    ),
                );
            }
        }
    }
}
