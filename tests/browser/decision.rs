//! The numbers a decision reads (summary cells, the allocation
//! caption) and the compare headline, which must agree with the table it sums up.

use crate::common::{all, mount, one};
use std::sync::Arc;

use leptos::prelude::*;
use quotalab_app::charts::allocation::{self, PanelSummary};
use quotalab_app::io::presets;
use quotalab_app::results::compare::{caption, run_comparison, MetricWords};
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
    let c = allocation::caption(&s);
    assert!(c.contains("lent up to 0.5 (a fraction"), "{c}");
    assert!(c.contains("split"), "{c}");
    let whole = allocation::caption(&PanelSummary { lent_max: 1.0, ..s });
    assert_eq!(whole, "entitled 1, used 0–1, lent up to 1");
}

// The research preset is about a deadline-bound team: compare shows deadline misses and
// cost, and its headline follows the engine's verdicts and quotes the table's own deltas.
#[wasm_bindgen_test]
fn compare_headline_agrees_with_the_deltas() {
    let c = run_comparison(presets::RESEARCH_ORG.inline().unwrap()).expect("valid");
    let changes = compare::changes(&c.partitioned, &c.as_given);
    let product = changes.iter().find(|s| s.name == "product").unwrap();
    let misses = product
        .deltas
        .iter()
        .find(|(m, _)| *m == compare::Metric::DeadlineMisses)
        .unwrap();
    assert_eq!(
        c.as_given.shares[1].deadline_misses, 37,
        "37 misses as given"
    );
    assert!(matches!(misses.1, Delta::Worse(_)), "{misses:?}");

    let words = caption("As given", &changes);
    let better = words.better.clone().unwrap_or_default();
    let worse = words.worse.clone().unwrap_or_default();
    assert!(
        worse.contains("deadline misses for product (+10)"),
        "{worse}"
    );
    assert!(
        !words.verdict.contains("helps no share"),
        "{}",
        words.verdict
    );
    assert!(!format!("{better}{worse}").contains(" h of interruption"));
    for s in &changes {
        let named = |v| match v {
            Verdict::Helps => format!("helps {}", s.name),
            Verdict::Hurts => format!("hurts {}", s.name),
            Verdict::Mixed => format!("is mixed for {}", s.name),
            Verdict::Unchanged => format!("leaves {}", s.name),
        };
        assert!(
            words.verdict.contains(&named(s.verdict))
                || words.verdict.contains(&format!(", {}", s.name))
                || words.verdict.contains(&format!(" and {}", s.name)),
            "{} in {}",
            s.name,
            words.verdict
        );
        // Every delta of the table is quoted as the table shows it.
        for (m, d) in &s.deltas {
            let (list, x) = match d {
                Delta::Better(x) => (&better, x),
                Delta::Worse(x) => (&worse, x),
                _ => continue,
            };
            let quoted = format!("{} ({})", s.name, m.show_delta(*x));
            assert!(list.contains(&quoted), "{quoted} in {list}");
        }
    }
}
