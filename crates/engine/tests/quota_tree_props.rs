//! Property tests of the quota tree (SPEC 12 "Quota tree", Kueue resource_node.go): on
//! random trees and random admissions (admitted only when they fit), usage is never above
//! what is available anywhere, borrowing limits are held, cohort usage is the bubbled sum,
//! and the AWS translation table admits exactly what SPEC 3's fit conditions 1-2 admit.

use proptest::prelude::*;
use quotalab_engine::admission::aws_as_kueue;
use quotalab_engine::admission::{self, Misfit, TypeUsage};
use quotalab_engine::model::{BorrowLimit, Cohort, KueueShare, Share, Strategy as ShareStrategy};
use quotalab_engine::quota_tree::QuotaTree;

fn share(limit: u64, cohort: Option<usize>, bl: Option<u64>, ll: Option<u64>) -> Share {
    Share {
        name: "s".into(),
        limits: vec![Some(limit)],
        strategy: ShareStrategy::LendAndBorrow,
        borrow_limit: BorrowLimit::Unlimited,
        in_share_preemption: false,
        enabled: true,
        kueue: KueueShare {
            cohort,
            borrowing_limit: vec![bl],
            lending_limit: vec![ll.map(|l| l.min(limit))],
            ..KueueShare::default()
        },
    }
}

/// A random forest: cohort i's parent is a cohort < i (or none); shares in random cohorts.
fn tree_strategy() -> impl Strategy<Value = (Vec<Share>, Vec<Cohort>)> {
    let cohorts = prop::collection::vec(
        (
            any::<prop::sample::Index>(),
            any::<bool>(),
            0u64..4,
            prop::option::of(0u64..4),
            prop::option::of(0u64..6),
        ),
        1..5,
    );
    let shares = prop::collection::vec(
        (
            any::<prop::sample::Index>(),
            0u64..6,
            prop::option::of(0u64..4),
            prop::option::of(0u64..6),
            any::<bool>(),
        ),
        1..7,
    );
    (cohorts, shares).prop_map(|(cs, ss)| {
        let mut cohorts = Vec::new();
        for (i, (p, has_parent, limit, bl, ll)) in cs.into_iter().enumerate() {
            let parent = (has_parent && i > 0).then(|| p.index(i));
            cohorts.push(Cohort {
                name: format!("c{i}"),
                parent,
                limits: vec![Some(limit)],
                borrowing_limit: vec![parent.and(bl)],
                lending_limit: vec![parent.and(ll)],
                weight: 1000,
            });
        }
        let n = cohorts.len();
        let shares = ss
            .into_iter()
            .map(|(c, limit, bl, ll, alone)| {
                let cohort = (!alone).then(|| c.index(n));
                share(limit, cohort, cohort.and(bl), cohort.and(ll))
            })
            .collect();
        (shares, cohorts)
    })
}

fn check_invariants(tree: &QuotaTree) -> Result<(), TestCaseError> {
    let n = tree.parent.len();
    for node in 0..n {
        // Cohort usage is the sum over its children of what exceeds their private quota.
        if node >= tree.shares {
            let bubbled: u64 = tree.child_cohorts[node]
                .iter()
                .chain(&tree.child_shares[node])
                .map(|&c| tree.usage[c].saturating_sub(tree.private[c]))
                .sum();
            prop_assert_eq!(tree.usage[node], bubbled, "cohort usage is bubbled usage");
        }
        // Usage never above available anywhere.
        prop_assert!(
            tree.available(node) >= 0,
            "node {} over its availability",
            node
        );
        // Borrowing limits are held.
        if let Some(bl) = tree.borrowing_limit[node] {
            prop_assert!(
                tree.usage[node] <= tree.subtree[node] + bl,
                "borrowing limit of {}",
                node
            );
        }
        // Lending limits are held: what a node's subtree lends out never exceeds its limit.
        if let (Some(ll), Some(_)) = (tree.lending_limit[node], tree.parent[node]) {
            prop_assert!(tree.subtree[node] - tree.private[node] <= ll);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn admissions_that_fit_keep_every_node_within_quota(
        (shares, cohorts) in tree_strategy(),
        ops in prop::collection::vec((any::<prop::sample::Index>(), 1u64..4, any::<bool>()), 0..40),
    ) {
        let mut tree = QuotaTree::new(&shares, &cohorts, 0);
        let mut used = vec![0u64; shares.len()];
        for (s, n, add) in ops {
            let s = s.index(shares.len());
            if add {
                if (n as i128) <= tree.available(s) {
                    tree.add_usage(s, n);
                    used[s] += n;
                }
            } else {
                let n = n.min(used[s]);
                tree.remove_usage(s, n);
                used[s] -= n;
            }
            check_invariants(&tree)?;
            for (s, &u) in used.iter().enumerate() {
                prop_assert_eq!(tree.usage[s], u);
            }
        }
    }

    /// SPEC 12: the AWS translation table is equivalent to SPEC 3's fit conditions 1 and 2.
    #[test]
    fn aws_translation_admits_what_spec_3_admits(
        cfg in prop::collection::vec((0u8..3, 0u64..5, prop::option::of(0u64..300)), 1..6),
        extra in 0u64..4,
        ops in prop::collection::vec((any::<prop::sample::Index>(), 1u64..4), 0..30),
    ) {
        let shares = aws_shares(&cfg);
        let capacity: u64 = shares.iter().map(|s| s.limits[0].unwrap()).sum::<u64>() + extra;
        let mut aws = TypeUsage::new(&shares, 0, capacity);
        let mut tree = aws_as_kueue(&shares, 0, capacity);
        for (s, n) in ops {
            let s = s.index(shares.len());
            let spec3 = spec3_conditions_1_2(&shares, &aws.used, capacity, s, n).is_ok();
            let kueue = (n as i128) <= tree.available(s);
            prop_assert_eq!(spec3, kueue, "share {} n {}", s, n);
            if spec3 && aws.fits(&shares, s, n).is_ok() {
                aws.add(&shares, s, n);
                tree.add_usage(s, n);
            }
        }
    }

    /// SPEC 12 "One engine": the AWS model's fit test (conditions 1-2 through the
    /// translated tree) gives SPEC 3's answer and its failing condition, also after a
    /// configuration change (`update_share`) leaves shares over their limits or the pool
    /// overdrawn, and over releases.
    #[test]
    fn aws_fit_through_the_tree_is_spec_3(
        cfg in prop::collection::vec((0u8..3, 0u64..5, prop::option::of(0u64..300)), 1..6),
        cfg2 in prop::collection::vec((0u8..3, 0u64..5, prop::option::of(0u64..300)), 6),
        extra in 0u64..4,
        ops in prop::collection::vec((any::<prop::sample::Index>(), 1u64..4, 0u8..8), 0..40),
    ) {
        let mut shares = aws_shares(&cfg);
        let capacity: u64 = shares.iter().map(|s| s.limits[0].unwrap()).sum::<u64>() + extra;
        let mut aws = TypeUsage::new(&shares, 0, capacity);
        for (s, n, op) in ops {
            let s = s.index(shares.len());
            let want = spec3_conditions_1_2(&shares, &aws.used, capacity, s, n);
            let got = match aws.fits(&shares, s, n) {
                Err(Misfit::Capacity) => Ok(()),
                r => r,
            };
            prop_assert_eq!(want, got, "share {} n {} used {:?}", s, n, &aws.used);
            match op {
                0 => {
                    // update_share: the share takes another configuration.
                    let (st, limit, pct) = cfg2[s];
                    shares[s] = aws_shares(&[(st, limit, pct)]).remove(0);
                    aws.recompute(&shares);
                }
                1 | 2 => {
                    let n = n.min(aws.used[s]);
                    aws.remove(&shares, s, n);
                }
                _ => {
                    if aws.fits(&shares, s, n).is_ok() {
                        aws.add(&shares, s, n);
                    }
                }
            }
        }
    }
}

fn aws_shares(cfg: &[(u8, u64, Option<u64>)]) -> Vec<Share> {
    cfg.iter()
        .map(|&(st, limit, pct)| {
            let strategy = [
                ShareStrategy::Reserve,
                ShareStrategy::Lend,
                ShareStrategy::LendAndBorrow,
            ][st as usize];
            let borrow_limit = match (strategy, pct) {
                (ShareStrategy::LendAndBorrow, Some(p)) => BorrowLimit::Percent(p),
                _ => BorrowLimit::Unlimited,
            };
            Share {
                strategy,
                borrow_limit,
                ..share(limit, None, None, None)
            }
        })
        .collect()
}

/// SPEC 3 conditions 1 and 2 as the SPEC words them, from the shares and `used` alone.
fn spec3_conditions_1_2(
    shares: &[Share],
    used: &[u64],
    capacity: u64,
    s: usize,
    n: u64,
) -> Result<(), Misfit> {
    let sh = &shares[s];
    let u = used[s];
    let ceiling = admission::borrow_cap(sh, 0).map_or(u64::MAX, |c| admission::limit_of(sh, 0) + c);
    if u + n > ceiling {
        return Err(Misfit::ShareLimit);
    }
    let pool = admission::lendable_pool(shares, 0, capacity);
    let pool_used: u64 = shares
        .iter()
        .zip(used)
        .map(|(sh, &u)| u.saturating_sub(admission::guaranteed(sh, 0)))
        .sum();
    let g = admission::guaranteed(sh, 0);
    if pool_used - u.saturating_sub(g) + (u + n).saturating_sub(g) > pool {
        return Err(Misfit::LendablePool);
    }
    Ok(())
}
