//! Property tests of the quota tree (SPEC 12 "Quota tree", Kueue resource_node.go): on
//! random trees and random admissions (admitted only when they fit), usage is never above
//! what is available anywhere, borrowing limits are held, cohort usage is the bubbled sum,
//! and the AWS translation table admits exactly what SPEC 3's fit conditions 1-2 admit.

use proptest::prelude::*;
use quotalab_engine::admission::{Misfit, TypeUsage};
use quotalab_engine::model::{BorrowLimit, Cohort, KueueShare, Share, Strategy as ShareStrategy};
use quotalab_engine::quota_tree::{aws_as_kueue, QuotaTree};

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
        let shares: Vec<Share> = cfg
            .iter()
            .map(|&(st, limit, pct)| {
                let strategy = [ShareStrategy::Reserve, ShareStrategy::Lend, ShareStrategy::LendAndBorrow][st as usize];
                let borrow_limit = match (strategy, pct) {
                    (ShareStrategy::LendAndBorrow, Some(p)) => BorrowLimit::Percent(p),
                    _ => BorrowLimit::Unlimited,
                };
                Share { strategy, borrow_limit, ..share(limit, None, None, None) }
            })
            .collect();
        let capacity: u64 = shares.iter().map(|s| s.limits[0].unwrap()).sum::<u64>() + extra;
        let mut aws = TypeUsage::new(&shares, 0, capacity);
        let mut tree = aws_as_kueue(&shares, 0, capacity);
        for (s, n) in ops {
            let s = s.index(shares.len());
            let spec3 = !matches!(aws.fits(&shares, s, n), Err(Misfit::ShareLimit | Misfit::LendablePool));
            let kueue = (n as i128) <= tree.available(s);
            prop_assert_eq!(spec3, kueue, "share {} n {}", s, n);
            if spec3 && aws.fits(&shares, s, n).is_ok() {
                aws.add(&shares, s, n);
                tree.add_usage(s, n);
            }
        }
    }
}
