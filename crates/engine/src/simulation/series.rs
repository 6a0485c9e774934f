//! The change-point series and integrals (SPEC 1, SPEC 8): limit, own, borrowed, lent and
//! queued instances per (share, type), recorded when they change, and their integrals over
//! time behind `instance_hours`.

use crate::input::model::*;

use super::share_value::ShareValue;
use super::state::*;

impl Sim<'_> {
    /// Integrates the current values over `[last_t, t)`: the lent instances (a float,
    /// summed interval by interval; a pair lending nothing adds nothing); the integer
    /// values are summed when they change ([`Sim::settle_pair`]), exactly the same sums.
    pub(super) fn integrate_to(&mut self, t: Ms) {
        let dt = t - self.record.last_t;
        if dt > 0 {
            for &i in &self.record.lending {
                self.record.integrals[i].lent += self.record.now_vals[i].lent * dt as f64;
            }
            let g = &mut self.record.cohort_integrals;
            for (i, v) in self.record.kueue_now.cohort.iter().enumerate() {
                g.quota[i] += v.0 as u128 * dt as u128;
                g.borrowed[i] += v.2 as u128 * dt as u128;
                g.lent[i] += v.3 * dt as f64;
            }
        }
        self.record.last_t = t;
    }

    /// Adds pair `i`'s integer values (limit, own, borrowed) times the time since they were
    /// last added, up to `now`, to its integrals.
    pub(super) fn settle_pair(&mut self, i: usize) {
        let (v, g) = (&self.record.now_vals[i], &mut self.record.integrals[i]);
        let dt = (self.now - self.record.settled_at[i]) as u128;
        g.entitled += v.limit as u128 * dt;
        g.own += v.own as u128 * dt;
        g.borrowed += v.borrowed as u128 * dt;
        self.record.settled_at[i] = self.now;
    }

    /// Computes limit, own, borrowed, lent and queued per (share, type) now (SPEC 1, 8) and
    /// records a change point if anything changed.
    pub(super) fn record_values(&mut self) {
        // Everything but the queue lengths depends only on quota usage and configuration,
        // and every change of either bumps the usage epoch: when it is unchanged, only the
        // queued counts are read again, and only for the series (they are not integrated).
        let usage_same = self
            .record
            .values_at
            .is_some_and(|v| v.0 == self.epochs.usage())
            && !self.opts.exhaustive;
        if usage_same && !self.opts.series {
            return;
        }
        // Values depend only on quota usage, configuration and queue lengths.
        let version = (
            self.epochs.usage(),
            self.rt.iter().map(|r| r.version).sum::<u64>(),
        );
        if self.record.values_at == Some(version) && !self.opts.exhaustive {
            return;
        }
        self.record.values_at = Some(version);
        if usage_same {
            let mut changed = false;
            for (i, p) in self.record.series.pairs.iter().enumerate() {
                let (s, t) = (p.share.index(), p.ty.index());
                let q = self.rt[s].queued[t];
                if q != self.record.now_vals[i].queued {
                    changed = true;
                    self.record.now_vals[i].queued = q;
                }
            }
            self.push_series(changed);
            return;
        }
        // SPEC 1 "Lent": of B = max(0, total borrowed - unallocated), min(B, total idle) is
        // split across lending shares in proportion to their idle entitlement.
        // Per type: (lent, idle) now, and whether they moved since the last call (the
        // previous ones are what `scratch_lent` holds; none before the first call).
        let mut lent_idle = std::mem::take(&mut self.record.scratch_lent);
        let first = lent_idle.len() != self.usage.len();
        lent_idle.resize(self.usage.len(), ((0, 0), true));
        for (u, (now, moved)) in self.usage.iter().zip(lent_idle.iter_mut()) {
            let idle = u.lenders_idle;
            let next = (u.borrowed.saturating_sub(u.unallocated).min(idle), idle);
            *moved = first || next != *now || self.opts.exhaustive;
            *now = next;
        }
        let tree_lent: Vec<Vec<f64>> = self.kueue.trees.iter().map(|tr| tr.lent()).collect();
        let mut changed = self.sc.is_kueue() && self.record_kueue_values(&tree_lent);
        for i in 0..self.record.series.pairs.len() {
            let Pair { share, ty } = self.record.series.pairs[i];
            let (s, t) = (share.index(), ty.index());
            let u = &self.usage[t];
            let (limit, used) = (u.limit(s), u.used[s]);
            let ((lent_total, idle_total), moved) = lent_idle[t];
            let old = &self.record.now_vals[i];
            if !moved
                && tree_lent.is_empty()
                && !self.opts.series
                && (limit, used) == (old.limit, old.own + old.borrowed)
            {
                // Every value of the pair is a function of these: unchanged (the queue
                // length is read only for the series).
                continue;
            }
            let own = used.min(limit);
            let lent = if let Some(l) = tree_lent.get(t) {
                l[s]
            } else if u.lends(s) && idle_total > 0 {
                lent_total as f64 * limit.saturating_sub(used) as f64 / idle_total as f64
            } else {
                0.0
            };
            let v = PairValues {
                limit,
                own,
                borrowed: used - own,
                lent,
                queued: if self.opts.series {
                    self.rt[s].queued[t]
                } else {
                    0 // read only for the series
                },
            };
            if v != self.record.now_vals[i] {
                changed = true;
                let old = &self.record.now_vals[i];
                if (old.limit, old.own, old.borrowed) != (v.limit, v.own, v.borrowed) {
                    self.settle_pair(i);
                }
                if (self.record.now_vals[i].lent != 0.0) != (v.lent != 0.0) {
                    match self.record.lending.binary_search(&i) {
                        Ok(k) => {
                            self.record.lending.remove(k);
                        }
                        Err(k) => self.record.lending.insert(k, i),
                    }
                }
                self.record.now_vals[i] = v;
            }
        }
        self.record.scratch_lent = lent_idle;
        self.push_series(changed);
    }

    /// Records the current values as a change point if series are recorded and anything
    /// `changed` (or nothing is recorded yet).
    fn push_series(&mut self, changed: bool) {
        if !self.opts.series {
            return;
        }
        let fresh = self.record.series.t.is_empty();
        if !(changed || fresh) {
            return;
        }
        let replace = self.record.series.t.last() == Some(&self.now) && !fresh;
        if replace {
            self.record.series.t.pop();
        }
        self.record.series.t.push(self.now);
        let k = (self.record.series.t.len() - 1) as u32;
        for (v, changes) in self
            .record
            .now_vals
            .iter()
            .zip(&mut self.record.series.changes)
        {
            match changes.last_mut() {
                // The point replaced: this pair's values there are now `v`.
                Some((at, last)) if *at == k => *last = *v,
                Some((_, last)) if last.same(v) => {}
                _ => changes.push((k, *v)),
            }
        }
        if self.sc.is_kueue() {
            let (k, now) = (&mut self.record.series.kueue, &self.record.kueue_now);
            if replace {
                k.dominant_share.iter_mut().for_each(|v| {
                    v.pop();
                });
                for v in [&mut k.quota, &mut k.usage, &mut k.borrowed] {
                    v.iter_mut().for_each(|x| {
                        x.pop();
                    });
                }
                k.lent.iter_mut().for_each(|x| {
                    x.pop();
                });
            }
            for (v, &d) in k.dominant_share.iter_mut().zip(&now.dominant_share) {
                v.push(d);
            }
            for (i, &(q, u, b, l)) in now.cohort.iter().enumerate() {
                k.quota[i].push(q);
                k.usage[i].push(u);
                k.borrowed[i].push(b);
                k.lent[i].push(l);
            }
        }
    }

    /// SPEC 12 results now (Kueue model): every node's dominant resource share (Kueue
    /// `dominantResourceShare`, `pkg/cache/scheduler/fair_sharing.go`) and every cohort's
    /// subtree quota, usage, borrowed (`max(0, usage - subtree)`) and lent instances per
    /// type (`pkg/cache/scheduler/resource_node.go`). Returns whether anything changed.
    /// The dominant shares feed only the series: without series they are not computed.
    fn record_kueue_values(&mut self, tree_lent: &[Vec<f64>]) -> bool {
        let Some(tree0) = self.kueue.trees.first() else {
            return false;
        };
        let (shares, types) = (tree0.shares, self.kueue.trees.len());
        let nodes = tree0.parent.len();
        let ncohort = (nodes - shares) * types;
        if self.record.series.kueue.dominant_share.len() != nodes {
            self.record.series.kueue = KueueSeries {
                dominant_share: vec![Vec::new(); nodes],
                quota: vec![Vec::new(); ncohort],
                usage: vec![Vec::new(); ncohort],
                borrowed: vec![Vec::new(); ncohort],
                lent: vec![Vec::new(); ncohort],
            };
            self.record.cohort_integrals = CohortIntegrals {
                quota: vec![0; ncohort],
                borrowed: vec![0; ncohort],
                lent: vec![0.0; ncohort],
            };
        }
        let mut changed = false;
        if self.opts.series {
            let mut ds = std::mem::take(&mut self.record.kueue_now.dominant_share);
            if ds.len() != nodes {
                ds.clear();
                ds.resize(nodes, ShareValue::Finite(0));
                changed = true;
            }
            for (n, d) in ds.iter_mut().enumerate() {
                let v = self.node_drs(n, 0, &self.kueue.trees[0], 0).value();
                if v != *d {
                    changed = true;
                    *d = v;
                }
            }
            self.record.kueue_now.dominant_share = ds;
        }
        let cohort = &mut self.record.kueue_now.cohort;
        if cohort.len() != ncohort {
            cohort.clear();
            cohort.resize(ncohort, (0, 0, 0, 0.0));
            changed = true;
        }
        let mut i = 0;
        for n in shares..nodes {
            for (tree, lent) in self.kueue.trees.iter().zip(tree_lent) {
                let (q, u) = (tree.subtree[n], tree.usage[n]);
                let v = (q, u, u.saturating_sub(q), lent[n]);
                if v != cohort[i] {
                    changed = true;
                    cohort[i] = v;
                }
                i += 1;
            }
        }
        changed
    }
}
