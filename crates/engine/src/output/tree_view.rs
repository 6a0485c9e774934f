//! The quota tree at one instant, for display (SPEC 12, Kueue model): each cohort and each
//! ClusterQueue (share) with its quota, usage, borrowed and lent instances per type, read
//! from the run's [`Digest`] series (the page's cohort tree view at the time cursor, like
//! KueueViz). It only reads what the run recorded; it decides nothing.

use crate::output::digest::{Digest, KueueDigest};

/// What a row of the tree is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Index into [`KueueDigest::cohorts`].
    Cohort(u16),
    /// Index into [`Digest::shares`] (scenario order).
    Share(u16),
}

/// One type's amounts of a node at the instant, in instances.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Amounts {
    /// A share's nominal quota (its limit); a cohort's subtree quota (SPEC 12 `subtree`).
    pub quota: f64,
    /// Instances its jobs (a cohort: the jobs below it) count against the quota.
    pub usage: f64,
    /// Beyond its quota, from its cohort (a cohort: from its parent).
    pub borrowed: f64,
    /// Of its quota, in use elsewhere.
    pub lent: f64,
}

/// One row of the tree: a cohort or a share, at its depth (0 for a root cohort or a share
/// that stands alone), with its [`Amounts`] per instance type of [`Digest::instance_types`].
#[derive(Clone, Debug, PartialEq)]
pub struct TreeRow {
    pub kind: NodeKind,
    pub name: String,
    pub depth: u16,
    pub amounts: Vec<Amounts>,
    /// Its dominant resource share (Kueue weightedShare) at the instant: `Some(None)` is
    /// infinite (a weight of 0 while borrowing); `None` when not recorded.
    pub dominant: Option<Option<u64>>,
}

/// The value of a step series (`t`, `v`) at `t_s`: the last point at or before it (0 before
/// the first one).
fn at(t: &[f64], v: &[f64], t_s: f64) -> f64 {
    let i = t.partition_point(|&x| x <= t_s);
    if i == 0 {
        0.0
    } else {
        v.get(i - 1).copied().unwrap_or(0.0)
    }
}

impl Digest {
    /// The quota tree at `t_s`, in reading order: each root cohort followed by what is
    /// under it (its cohorts, then its shares, in scenario order, depth first), then the
    /// shares that stand alone. Empty for an AWS Batch run.
    pub fn quota_tree_at(&self, t_s: f64) -> Vec<TreeRow> {
        let Some(k) = &self.kueue else {
            return Vec::new();
        };
        let types = self.instance_types.len();
        let mut out = Vec::new();
        let roots: Vec<u16> = (0..k.cohorts.len() as u16)
            .filter(|&c| k.cohorts[c as usize].parent.is_none())
            .collect();
        for c in roots {
            self.push_cohort(k, c, 0, types, t_s, &mut out);
        }
        for (s, _) in k
            .share_cohort
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_none())
        {
            out.push(self.share_row(k, s, 0, types, t_s));
        }
        out
    }

    fn push_cohort(
        &self,
        k: &KueueDigest,
        c: u16,
        depth: u16,
        types: usize,
        t_s: f64,
        out: &mut Vec<TreeRow>,
    ) {
        // A cycle cannot be validated, but never recurse without bound on a digest.
        if usize::from(depth) > k.cohorts.len() {
            return;
        }
        let ci = usize::from(c);
        let series =
            |v: &Vec<Vec<f64>>, t: usize| v.get(ci * types + t).map_or(0.0, |s| at(&k.t_s, s, t_s));
        let amounts = (0..types)
            .map(|t| Amounts {
                quota: series(&k.cohort_quota, t),
                usage: series(&k.cohort_usage, t),
                borrowed: series(&k.cohort_borrowed, t),
                lent: series(&k.cohort_lent, t),
            })
            .collect();
        out.push(TreeRow {
            kind: NodeKind::Cohort(c),
            name: k.cohorts[ci].name.clone(),
            depth,
            amounts,
            dominant: dominant_at(&k.t_s, k.cohort_dominant.get(ci), t_s),
        });
        for child in 0..k.cohorts.len() as u16 {
            if k.cohorts[usize::from(child)].parent == Some(c) {
                self.push_cohort(k, child, depth + 1, types, t_s, out);
            }
        }
        for (s, _) in k
            .share_cohort
            .iter()
            .enumerate()
            .filter(|(_, p)| **p == Some(c))
        {
            out.push(self.share_row(k, s, depth + 1, types, t_s));
        }
    }

    fn share_row(&self, k: &KueueDigest, s: usize, depth: u16, types: usize, t_s: f64) -> TreeRow {
        let mut amounts = vec![Amounts::default(); types];
        for row in self.series.iter().filter(|r| usize::from(r.share) == s) {
            let Some(a) = amounts.get_mut(usize::from(row.instance_type)) else {
                continue;
            };
            let own = at(&row.t_s, &row.own, t_s);
            let borrowed = at(&row.t_s, &row.borrowed, t_s);
            *a = Amounts {
                quota: at(&row.t_s, &row.limit, t_s),
                usage: own + borrowed,
                borrowed,
                lent: at(&row.t_s, &row.lent, t_s),
            };
        }
        TreeRow {
            kind: NodeKind::Share(s as u16),
            name: self
                .shares
                .get(s)
                .map(|m| m.name.clone())
                .unwrap_or_default(),
            depth,
            amounts,
            dominant: dominant_at(&k.t_s, k.share_dominant.get(s), t_s),
        }
    }

    /// The instant the tree view shows when no time is picked: the first change point at
    /// which the most instances are in use across the tree's roots (the busiest moment),
    /// or 0.
    pub fn busiest_t(&self) -> f64 {
        let Some(k) = &self.kueue else { return 0.0 };
        let types = self.instance_types.len().max(1);
        let roots: Vec<usize> = (0..k.cohorts.len())
            .filter(|&c| k.cohorts[c].parent.is_none())
            .collect();
        let mut best = (0.0, 0.0);
        for (i, &t) in k.t_s.iter().enumerate() {
            let used: f64 = roots
                .iter()
                .flat_map(|&c| (0..types).map(move |ty| c * types + ty))
                .filter_map(|j| k.cohort_usage.get(j).and_then(|v| v.get(i)))
                .sum();
            if used > best.1 {
                best = (t, used);
            }
        }
        best.0
    }
}

fn dominant_at(t: &[f64], v: Option<&Vec<Option<u64>>>, t_s: f64) -> Option<Option<u64>> {
    let v = v?;
    let i = t.partition_point(|&x| x <= t_s);
    (i > 0).then(|| v.get(i - 1).copied().flatten())
}
