//! The numbers a decision reads (summary cells, the allocation
//! caption) and the compare verdict, which must agree with the table it sums up.

use crate::common::{all, mount, one};
use std::sync::Arc;

use leptos::prelude::*;
use quotalab_app::charts::allocation::{self, PanelSummary};
use quotalab_app::io::presets;
use quotalab_app::results::compare::{view_of, METRICS_ONLY};
use quotalab_app::results::summary::SummaryTable;
use quotalab_engine::compare::{self, Delta, Verdict};
use quotalab_engine::digest::{Digest, DigestLimits};
use wasm_bindgen_test::*;
use web_sys::Element;

fn cell(row: &Element, col: &str) -> String {
    one(row, &format!("[data-col={col}]"))
        .text_content()
        .unwrap_or_default()
}

fn aws() -> Digest {
    quotalab_engine::run_digest(presets::AWS_WALKTHROUGH_JSON, DigestLimits::default())
        .expect("the walkthrough runs")
}

/// The row of share `name`.
fn row_of(root: &Element, name: &str) -> Element {
    all(root, "[data-testid=summary-row]")
        .into_iter()
        .find(|r| r.get_attribute("data-share").as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no row for {name}"))
}

// Large instance-hours are grouped (40,184), goodput is never 100% when work was lost, and
// an idle RESERVE share shows what its reserved capacity costs.
#[wasm_bindgen_test]
fn summary_numbers_do_not_look_wrong() {
    let mut d = aws();
    {
        let s = &mut d.shares[0];
        s.held_h = 40_184.3;
        s.entitled_h = 27_777_778.0;
        s.lost_h = 0.76;
        s.goodput = (40_184.3 - 0.76) / 40_184.3;
    }
    let root = mount(move || view! { <SummaryTable digest=Arc::new(d) /> });
    let bg = row_of(&root, "background");
    assert_eq!(cell(&bg, "held"), "40,184");
    assert_eq!(cell(&bg, "entitled"), "27,777,778");
    assert_eq!(cell(&bg, "lost"), "0.76");
    assert_eq!(cell(&bg, "goodput"), "99.9%", "not 100% beside 0.76 h lost");

    // protected is RESERVE, limit 1 for the whole 720 s run, and never runs a job.
    let protected = row_of(&root, "protected");
    assert_eq!(cell(&protected, "cost"), "$0.00", "nothing held");
    assert_eq!(
        cell(&protected, "reserved"),
        "$0.28",
        "0.2 instance-hours × $1.408"
    );
    assert_eq!(
        one(&protected, "[data-col=reserved]")
            .get_attribute("data-label")
            .as_deref(),
        Some("reserved cost")
    );
}

// "lent up to 0.5": lent is split among lenders in proportion to their idle quota, so the
// caption says what the fraction means; whole numbers stay as they were.
#[wasm_bindgen_test]
fn a_fractional_lent_instance_is_explained() {
    let s = PanelSummary {
        limit: (1.0, 1.0),
        used: (0.0, 1.0),
        lent_max: 0.5,
        ..PanelSummary::default()
    };
    let c = allocation::caption(&s, false);
    assert!(c.contains("lent up to 0.5 (a fraction"), "{c}");
    assert!(c.contains("split"), "{c}");
    let whole = allocation::caption(&PanelSummary { lent_max: 1.0, ..s }, false);
    assert_eq!(whole, "entitled 1, used 0–1, lent up to 1");
    // The Kueue model says what Kueue calls it (issue #34).
    let kueue = allocation::caption(&PanelSummary { lent_max: 1.0, ..s }, true);
    assert_eq!(kueue, "nominal quota 1, used 0–1, lent up to 1");
}

// The research preset is about a deadline-bound team: the verdict (the engine's, SPEC 9.1)
// names product's deadline misses with both values in one unit, and every share the
// verdict names moved in the table's own direction.
#[wasm_bindgen_test]
fn compare_verdict_agrees_with_the_table() {
    // As the page gets it: made in the engine worker, sent across, viewed.
    let made = quotalab_engine_worker::jobs::compare_scenario(
        presets::RESEARCH_ORG.inline().unwrap(),
        METRICS_ONLY,
    )
    .expect("valid");
    let bytes = quotalab_engine_worker::jobs::encode_compared(&made).unwrap();
    let c = view_of(quotalab_engine_worker::jobs::decode_compared(&bytes).unwrap());
    let given = &c.verdicts[0];
    assert_eq!(given.other, compare::Policy::AsGiven);
    assert!(!given.identical);
    let product = given.shares.iter().find(|s| s.name == "product").unwrap();
    assert_eq!(product.verdict, Verdict::Hurts, "{product:?}");
    assert!(
        product
            .sentence()
            .contains("worse — deadline misses 33 → 37"),
        "{}",
        product.sentence()
    );
    let changes = compare::changes(
        (compare::Policy::Partitioned, &c.partitioned.shares),
        (compare::Policy::AsGiven, &c.as_given.shares),
        &c.matched,
    );
    for (v, ch) in given.shares.iter().zip(&changes) {
        for e in &v.effects {
            let d = ch.deltas.iter().find(|(m, _)| *m == e.metric).unwrap().1;
            match d {
                Delta::Better(_) => assert!(e.better, "{} {:?}", v.name, e.metric),
                Delta::Worse(_) => assert!(!e.better, "{} {:?}", v.name, e.metric),
                _ => panic!(
                    "{} {:?}: the verdict names what the table calls the same",
                    v.name, e.metric
                ),
            }
        }
        let headline = given.headline();
        assert!(headline.contains(&v.name), "{} in {headline}", v.name);
    }
}
