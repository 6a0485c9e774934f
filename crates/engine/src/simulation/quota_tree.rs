//! The quota tree of the Kueue model (SPEC 12 "Quota tree"; Kueue
//! `pkg/cache/scheduler/resource_node.go`), for one instance type.
//!
//! Nodes are the shares (ClusterQueues, `0..shares`) then the cohorts. A share without a
//! cohort is a root of its own: it neither lends nor borrows. Usage is kept per node as
//! Kueue keeps it: a share's usage is `used(S,T)`; what a node uses beyond its private quota
//! bubbles up to its parent, so a cohort's usage is the sum over its children of
//! `max(0, usage - private)`. Every query walks the path to the root: O(depth).

use crate::input::model::{Cohort, Share};

/// A node index: shares first, then cohorts (`shares + cohort index`).
pub type Node = usize;

/// The quota tree of one instance type: its shape (shared by every copy, so a trial copy
/// costs one small vector) and the usage per node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotaTree {
    shape: std::sync::Arc<Shape>,
    /// SPEC 12 `usage(N)` (Kueue ResourceNode.Usage).
    pub usage: Vec<u64>,
}

/// The configuration part of a [`QuotaTree`]: nodes, limits and the quotas derived from
/// them. Read through the tree (`tree.parent[n]`, `tree.subtree[n]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// How many nodes are shares (the first ones).
    pub shares: usize,
    pub parent: Vec<Option<Node>>,
    /// Child cohorts, then child shares, of each node (in scenario order).
    pub child_cohorts: Vec<Vec<Node>>,
    pub child_shares: Vec<Vec<Node>>,
    /// The node's own quota (`limits`, Kueue nominalQuota; 0 when none).
    pub quota: Vec<u64>,
    pub borrowing_limit: Vec<Option<u64>>,
    pub lending_limit: Vec<Option<u64>>,
    /// SPEC 12 `subtree(N)` (Kueue SubtreeQuota).
    pub subtree: Vec<u64>,
    /// SPEC 12 `private(N)` (Kueue localQuota / guaranteed quota).
    pub private: Vec<u64>,
    /// SPEC 12 `potential(N)`, a function of the shape alone: computed once per shape (see
    /// [`QuotaTree::potential`]).
    potentials: Vec<u64>,
    /// Every cohort is a root (shares sit alone or under a root cohort): see
    /// [`QuotaTree::is_flat`].
    flat: bool,
}

impl std::ops::Deref for QuotaTree {
    type Target = Shape;
    fn deref(&self) -> &Shape {
        &self.shape
    }
}

/// A node's quotas as [`available_of`] reads them (copied out of the tree by callers that
/// ask it for many sizes, such as admission's headroom).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeQuota {
    pub subtree: u64,
    pub private: u64,
    pub borrowing_limit: Option<u64>,
}

/// SPEC 12 `available(N)`, one step: a node's available given its parent's
/// (`from_parent`) and its usage, `max(0, private - usage) + min(from_parent, b)` with
/// `b = subtree - private - max(0, usage - private) + borrowingLimit` (no bound without a
/// borrowing limit). The one formula behind [`QuotaTree::available`].
#[inline(always)]
pub fn available_of(q: NodeQuota, usage: u64, from_parent: i128) -> i128 {
    let bounded = match q.borrowing_limit {
        None => from_parent,
        Some(bl) => {
            let (sub, private, usage) = (q.subtree as i128, q.private as i128, usage as i128);
            from_parent.min(sub - private - (usage - private).max(0) + bl as i128)
        }
    };
    local_available_of(q.private, usage) as i128 + bounded
}

/// SPEC 12 `available(N)` of a root on numbers: `subtree - usage` (negative when
/// overdrawn). The one formula behind [`QuotaTree::root_available`].
#[inline(always)]
pub fn root_available_of(subtree: u64, usage: u64) -> i128 {
    subtree as i128 - usage as i128
}

/// Kueue `LocalAvailable` on numbers: `max(0, private - usage)`.
#[inline(always)]
fn local_available_of(private: u64, usage: u64) -> u64 {
    private.saturating_sub(usage)
}

pub(crate) fn at(v: &[Option<u64>], t: usize) -> Option<u64> {
    v.get(t).copied().flatten()
}

impl QuotaTree {
    /// Builds the tree of type `t` for the shares' current configuration, with no usage.
    pub fn new(shares: &[Share], cohorts: &[Cohort], t: usize) -> QuotaTree {
        let n = shares.len() + cohorts.len();
        let s0 = shares.len();
        let mut tree = Shape {
            shares: s0,
            parent: vec![None; n],
            child_cohorts: vec![Vec::new(); n],
            child_shares: vec![Vec::new(); n],
            quota: vec![0; n],
            borrowing_limit: vec![None; n],
            lending_limit: vec![None; n],
            subtree: vec![0; n],
            private: vec![0; n],
            potentials: vec![0; n],
            flat: cohorts.iter().all(|co| co.parent.is_none()),
        };
        for (c, co) in cohorts.iter().enumerate() {
            let node = s0 + c;
            tree.parent[node] = co.parent.map(|p| s0 + p);
            tree.quota[node] = at(&co.limits, t).unwrap_or(0);
            tree.borrowing_limit[node] = at(&co.borrowing_limit, t);
            tree.lending_limit[node] = at(&co.lending_limit, t);
            if let Some(p) = co.parent {
                tree.child_cohorts[s0 + p].push(node);
            }
        }
        for (s, sh) in shares.iter().enumerate() {
            tree.parent[s] = sh.kueue.cohort.map(|c| s0 + c);
            tree.quota[s] = at(&sh.limits, t).unwrap_or(0);
            tree.borrowing_limit[s] = at(&sh.kueue.borrowing_limit, t);
            tree.lending_limit[s] = at(&sh.kueue.lending_limit, t);
            if let Some(c) = sh.kueue.cohort {
                tree.child_shares[s0 + c].push(s);
            }
        }
        let mut done = vec![false; n];
        for node in 0..n {
            tree.compute_subtree(node, &mut done);
        }
        let mut done = vec![false; n];
        for node in 0..n {
            tree.compute_potential(node, &mut done);
        }
        QuotaTree {
            shape: std::sync::Arc::new(tree),
            usage: vec![0; n],
        }
    }
}

impl Shape {
    /// SPEC 12: `subtree(N)` = N's quota plus, for a cohort, the sum over its children C of
    /// `subtree(C) - private(C)`; `private(N)` = `max(0, subtree - lending_limit)`, 0
    /// without a lending limit (resource_node.go `calculateSubtreeQuota`, `localQuota`).
    fn compute_subtree(&mut self, node: Node, done: &mut [bool]) {
        if done[node] {
            return;
        }
        done[node] = true; // a cycle (refused by validation) cannot recurse forever
        let children: Vec<Node> = self.child_cohorts[node]
            .iter()
            .chain(&self.child_shares[node])
            .copied()
            .collect();
        let mut sub = self.quota[node];
        for c in children {
            self.compute_subtree(c, done);
            sub = sub.saturating_add(self.subtree[c] - self.private[c]);
        }
        self.subtree[node] = sub;
        self.private[node] = self.lending_limit[node].map_or(0, |l| sub.saturating_sub(l));
    }
}

impl Shape {
    /// SPEC 12 `potential(N)` (resource_node.go `potentialAvailable`): what N could use
    /// with the whole tree idle: the root's `subtree`; for another node
    /// `min(private + potential(parent), subtree + borrowing_limit)`. Usage plays no part,
    /// so it is computed once per shape, parents first.
    fn compute_potential(&mut self, node: Node, done: &mut [bool]) {
        if done[node] {
            return;
        }
        done[node] = true; // a cycle (refused by validation) cannot recurse forever
        let Some(p) = self.parent[node] else {
            self.potentials[node] = self.subtree[node];
            return;
        };
        self.compute_potential(p, done);
        let v = self.private[node].saturating_add(self.potentials[p]);
        self.potentials[node] = match self.borrowing_limit[node] {
            None => v,
            Some(bl) => v.min(self.subtree[node].saturating_add(bl)),
        };
    }
}

impl QuotaTree {
    /// The nodes above `node`, parent first, root last.
    pub fn ancestors(&self, node: Node) -> impl Iterator<Item = Node> + '_ {
        std::iter::successors(self.parent[node], move |&n| self.parent[n])
    }

    /// The root of `node`'s tree (itself for a share alone).
    pub fn root(&self, node: Node) -> Node {
        self.ancestors(node).last().unwrap_or(node)
    }

    /// Kueue `LocalAvailable`: `max(0, private - usage)`, the unused private quota.
    #[inline(always)]
    pub fn local_available(&self, node: Node) -> u64 {
        local_available_of(self.private[node], self.usage[node])
    }

    /// Kueue `addUsage`: a node's usage grows by `v`; what its unused private quota cannot
    /// hold bubbles up to its parent (a loop up the path, Kueue's recursion).
    #[inline(always)]
    pub fn add_usage(&mut self, node: Node, v: u64) {
        let (mut node, mut v) = (node, v);
        loop {
            let local = self.local_available(node);
            self.usage[node] += v;
            match self.parent[node] {
                Some(p) if v > local => (node, v) = (p, v - local),
                _ => return,
            }
        }
    }

    /// Kueue `removeUsage`: the inverse of [`QuotaTree::add_usage`].
    #[inline(always)]
    pub fn remove_usage(&mut self, node: Node, v: u64) {
        let (mut node, mut v) = (node, v);
        loop {
            let in_parent = self.usage[node].saturating_sub(self.private[node]);
            self.usage[node] -= v;
            match self.parent[node] {
                Some(p) if in_parent > 0 => (node, v) = (p, v.min(in_parent)),
                _ => return,
            }
        }
    }

    /// SPEC 12 `available(N)` (resource_node.go `available`): the root's `subtree - usage`;
    /// for another node `max(0, private - usage) + min(available(parent), b)` where `b` is
    /// unbounded without a borrowing limit, else `subtree - private - max(0, usage -
    /// private) + borrowing_limit`. May be negative after a lowered limit.
    pub fn available(&self, node: Node) -> i128 {
        match self.parent[node] {
            None => self.root_available(node),
            // A child of a root (every share of a one-cohort tree): no recursion.
            Some(p) if self.parent[p].is_none() => {
                self.available_given(node, self.root_available(p))
            }
            Some(p) => self.available_given(node, self.available(p)),
        }
    }

    /// [`QuotaTree::available`] of a root: `subtree - usage`.
    #[inline(always)]
    pub fn root_available(&self, root: Node) -> i128 {
        root_available_of(self.subtree[root], self.usage[root])
    }

    /// One step of [`QuotaTree::available`]: a node's available given its parent's
    /// (`from_parent`), `max(0, private - usage) + min(from_parent, b)`.
    #[inline(always)]
    pub fn available_given(&self, node: Node, from_parent: i128) -> i128 {
        available_of(self.node_quota(node), self.usage[node], from_parent)
    }

    /// The numbers of `node` that [`available_of`] reads.
    #[inline(always)]
    pub fn node_quota(&self, node: Node) -> NodeQuota {
        NodeQuota {
            subtree: self.subtree[node],
            private: self.private[node],
            borrowing_limit: self.borrowing_limit[node],
        }
    }

    /// SPEC 12 `potential(N)` (resource_node.go `potentialAvailable`): what N could use
    /// with the whole tree idle (computed with the shape: `Shape::compute_potential`).
    #[inline(always)]
    pub fn potential(&self, node: Node) -> u64 {
        self.potentials[node]
    }

    /// Whether every cohort is a root: a share's only ancestor is its root cohort, so no
    /// cohort can go over its quota while every share under it stays within its own.
    pub fn is_flat(&self) -> bool {
        self.flat
    }

    /// Kueue `IsWithinNominal`: `usage <= subtree`.
    pub fn within_quota(&self, node: Node) -> bool {
        self.usage[node] <= self.subtree[node]
    }

    /// Kueue `BorrowingWith`: `usage + v > subtree`.
    pub fn borrowing_with(&self, node: Node, v: u64) -> bool {
        self.usage[node].saturating_add(v) > self.subtree[node]
    }

    /// Kueue `QuantitiesFitInQuota` for one type: whether `usage + v <= subtree`, and what
    /// remains for the parent once the node's unused private quota is used.
    pub fn fits_in_quota(&self, node: Node, v: u64) -> (bool, u64) {
        (
            !self.borrowing_with(node, v),
            v.saturating_sub(self.local_available(node)),
        )
    }

    /// Kueue `FindHeightOfLowestSubtreeThatFits`'s second answer (classical/
    /// hierarchical_preemption.go): whether `v` more fits in a subtree below the root
    /// (the share's own quota, or a cohort with a parent), judged on current usage.
    pub fn fits_below_root(&self, share: Node, v: u64) -> bool {
        if self.parent[share].is_none() {
            return false;
        }
        if !self.borrowing_with(share, v) {
            return true;
        }
        let mut remaining = v.saturating_sub(self.local_available(share));
        for a in self.ancestors(share) {
            if !self.borrowing_with(a, remaining) {
                return self.parent[a].is_some();
            }
            remaining = remaining.saturating_sub(self.local_available(a));
        }
        false
    }

    /// The path from the root to `node`, as names: `root/research/team-a` (SPEC 12).
    pub fn path_names(&self, node: Node, share_names: &[&str], cohort_names: &[&str]) -> String {
        let name = |n: Node| {
            if n < self.shares {
                share_names[n]
            } else {
                cohort_names[n - self.shares]
            }
        };
        let mut parts: Vec<&str> = self.ancestors(node).map(name).collect();
        parts.reverse();
        parts.push(name(node));
        parts.join("/")
    }

    /// SPEC 8 / 12 results: the part of each node's quota that others use now, per node
    /// (shares then cohorts), as SPEC 1's proportional split applied at every cohort of the
    /// tree (Kueue `pkg/cache/scheduler/resource_node.go` holds the usage it is read from).
    /// At a cohort C, what its children borrow beyond their subtree quota, less what C
    /// itself borrows from its parent, plus what C lends to its parent, is drawn first from
    /// C's own quota, then from its children's idle lendable quota
    /// `max(0, subtree - max(usage, private))`, split in proportion to it. A child cohort
    /// passes what it lends on to its children the same way. A node alone lends nothing.
    pub fn lent(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.parent.len()];
        for root in (0..self.parent.len()).filter(|&n| self.parent[n].is_none()) {
            if root >= self.shares {
                self.lend_down(root, 0.0, &mut out);
            }
        }
        out
    }

    /// [`QuotaTree::lent`] below cohort `c`, which lends `up` to its parent.
    fn lend_down(&self, c: Node, up: f64, out: &mut [f64]) {
        let children = || self.child_cohorts[c].iter().chain(&self.child_shares[c]);
        let borrowed: u64 = children()
            .map(|&k| self.usage[k].saturating_sub(self.subtree[k]))
            .sum();
        let own_borrowed = if self.parent[c].is_some() {
            self.usage[c].saturating_sub(self.subtree[c])
        } else {
            0
        };
        let demand =
            (borrowed.saturating_sub(own_borrowed) as f64 + up - self.quota[c] as f64).max(0.0);
        let idle = |k: Node| self.subtree[k].saturating_sub(self.usage[k].max(self.private[k]));
        let total: u64 = children().map(|&k| idle(k)).sum();
        let given = demand.min(total as f64);
        for &k in children() {
            let v = if total > 0 {
                given * idle(k) as f64 / total as f64
            } else {
                0.0
            };
            out[k] = v;
            if k >= self.shares {
                self.lend_down(k, v, out);
            }
        }
    }

    /// The lowest common ancestor of two nodes, if they share a tree.
    pub fn lca(&self, a: Node, b: Node) -> Option<Node> {
        let up: Vec<Node> = std::iter::once(a).chain(self.ancestors(a)).collect();
        std::iter::once(b)
            .chain(self.ancestors(b))
            .find(|n| up.contains(n))
    }

    /// Kueue `almostLCA`: the child of `lca` on the path from `node` (`node` itself when it
    /// is a child of `lca`).
    pub fn child_towards(&self, node: Node, lca: Node) -> Node {
        let mut at = node;
        while let Some(p) = self.parent[at] {
            if p == lca {
                return at;
            }
            at = p;
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::model::{BorrowLimit, KueueShare, Strategy};

    fn share(limit: u64, cohort: Option<usize>, bl: Option<u64>, ll: Option<u64>) -> Share {
        Share {
            name: "s".into(),
            limits: vec![Some(limit)],
            strategy: Strategy::LendAndBorrow,
            borrow_limit: BorrowLimit::Unlimited,
            in_share_preemption: false,
            enabled: true,
            kueue: KueueShare {
                cohort,
                borrowing_limit: vec![bl],
                lending_limit: vec![ll],
                ..KueueShare::default()
            },
        }
    }

    fn cohort(parent: Option<usize>, limit: u64, bl: Option<u64>, ll: Option<u64>) -> Cohort {
        Cohort {
            name: "c".into(),
            parent,
            limits: vec![Some(limit)],
            borrowing_limit: vec![bl],
            lending_limit: vec![ll],
            weight: 1000,
        }
    }

    // KUEUE.md 2.1: "lend1 nominal 6/LL 4 in a cohort whose other member has LL 2: 2 + 6 = 8".
    #[test]
    fn lending_limits_bound_the_pool() {
        let shares = vec![
            share(6, Some(0), None, Some(4)),
            share(6, Some(0), None, Some(2)),
        ];
        let tree = QuotaTree::new(&shares, &[cohort(None, 0, None, None)], 0);
        assert_eq!((tree.subtree[0], tree.private[0]), (6, 2));
        assert_eq!((tree.subtree[1], tree.private[1]), (6, 4));
        assert_eq!(tree.subtree[2], 6); // 4 + 2 lent into the cohort
        assert_eq!(tree.potential(0), 2 + 6);
        assert_eq!(tree.potential(1), 4 + 6);
    }

    // resource_node.go: usage within the private part does not reach the cohort.
    #[test]
    fn usage_bubbles_beyond_private_only() {
        let shares = vec![
            share(4, Some(0), None, Some(1)),
            share(2, Some(0), None, None),
        ];
        let mut tree = QuotaTree::new(&shares, &[cohort(None, 0, None, None)], 0);
        tree.add_usage(0, 3);
        assert_eq!(tree.usage[2], 0);
        tree.add_usage(0, 2);
        assert_eq!(tree.usage[2], 2); // 5 - private 3
        assert_eq!(tree.available(1), 1); // cohort subtree 1 + 2 = 3, 2 used
        tree.remove_usage(0, 4);
        assert_eq!((tree.usage[0], tree.usage[2]), (1, 0));
    }

    // SPEC 12: a borrowing limit bounds what a node takes from its parent.
    #[test]
    fn borrowing_limit_bounds_available() {
        let shares = vec![
            share(2, Some(0), Some(1), None),
            share(5, Some(0), None, None),
        ];
        let mut tree = QuotaTree::new(&shares, &[cohort(None, 0, None, None)], 0);
        assert_eq!(tree.available(0), 3);
        assert_eq!(tree.potential(0), 3);
        tree.add_usage(1, 5);
        assert_eq!(tree.available(0), 2);
        // a share alone: its own quota only
        let alone = QuotaTree::new(&[share(2, None, None, None)], &[], 0);
        assert_eq!((alone.available(0), alone.potential(0)), (2, 2));
        assert!(!alone.fits_below_root(0, 1));
    }

    // Hierarchical cohorts: a cohort's quota adds to its subtree; its lending limit bounds
    // what its subtree lends upward.
    #[test]
    fn nested_cohorts() {
        // root(0) <- dept(1, limit 2, lending 3) <- a(limit 4)
        // root(0) <- b(limit 1)
        let cohorts = vec![
            cohort(None, 0, None, None),
            cohort(Some(0), 2, None, Some(3)),
        ];
        let shares = vec![share(4, Some(1), None, None), share(1, Some(0), None, None)];
        let mut tree = QuotaTree::new(&shares, &cohorts, 0);
        let (root, dept) = (2, 3);
        assert_eq!(tree.subtree[dept], 6);
        assert_eq!(tree.private[dept], 3);
        assert_eq!(tree.subtree[root], 3 + 1);
        assert_eq!(tree.potential(1), 4);
        assert_eq!(tree.potential(0), 3 + 4);
        tree.add_usage(1, 1);
        tree.add_usage(0, 7);
        assert_eq!(tree.usage[dept], 7);
        assert_eq!(tree.usage[root], 1 + 4);
        assert_eq!(tree.available(0), -1);
        assert!(!tree.within_quota(dept));
        assert_eq!(
            tree.path_names(0, &["a", "b"], &["root", "dept"]),
            "root/dept/a"
        );
        assert_eq!(tree.lca(0, 1), Some(root));
        assert_eq!(tree.child_towards(0, root), dept);
    }
}
