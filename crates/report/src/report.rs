//! The report of a scenario (SPEC 14, "The agreement beside the results"): one
//! self-contained HTML file for reviewers, with the scenario described and as written, each
//! share's agreement beside its results and its interruption-contract card, the summary
//! table and every chart as inline SVG; with [`Options::compare`], the comparison with the
//! partitioned and pooled policies too (SPEC 9.1: verdicts, matched jobs and the three
//! policies' tables). Inline CSS, no script, no external resource, no clock: the same
//! scenario gives the same bytes natively (`quotasim report [--compare]`) and in the page
//! (the tools wasm's "Export report", with the comparison while the page's is on).
//!
//! Every table fits a 1024 px window and an A4 page: the summary is three narrower tables
//! (jobs and time, instance-hours, preemptions and cost), the comparison a small table per
//! share (metrics as rows, the three policies as columns).

use quotalab_engine::analysis::contract_card::{self, Card};
use quotalab_engine::analysis::review;
use quotalab_engine::analysis::verdict::{self, Verdicts};
use quotalab_engine::compare::{self, Delta, Matched, Metric, Policy, ShareForecast};
use quotalab_engine::digest::{Digest, DigestLimits, ShareMetrics};
use quotalab_engine::model::Agreement;
use quotalab_engine::output::describe;
use quotalab_engine::pipeline::Product;
use quotalab_engine::Problem;

use crate::chart::{self, estimate_width};
use crate::html::Html;
use crate::{allocation, completion, dominant, format, interruption, occupancy, svg, useful};

/// Width of the report's full-width charts, and of an allocation panel (CSS pixels).
const WIDE: u32 = 960;
const PANEL: (u32, u32) = (470, 210);
const OCCUPANCY_HEIGHT: u32 = 300;
const COMPLETION_HEIGHT: u32 = 320;

/// The report of `scenario_text` as one HTML document (see [`build`]), without the
/// comparison.
pub fn report(scenario_text: &str) -> Result<String, Vec<Problem>> {
    build(scenario_text).map(|r| r.html)
}

/// What a report holds besides the run as given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// SPEC 9.1: the comparison of the scenario as given with the partitioned and pooled
    /// policies (verdicts, matched jobs and each share's table of the three policies), after
    /// the summary (`quotasim report --compare`, the page's report while its comparison is
    /// on).
    pub compare: bool,
    /// SPEC 16: a review of a proposed configuration on this scenario's jobs (`quotasim
    /// report --review PROPOSED`, the page's review): the proposal's file name and text.
    pub review: Option<(String, String)>,
}

/// A report and the validator's warnings (which it also lists).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub html: String,
    pub warnings: Vec<Problem>,
}

/// The report of `scenario_text` without the comparison ([`build_with`] and the default
/// [`Options`]).
pub fn build(scenario_text: &str) -> Result<Report, Vec<Problem>> {
    build_with(scenario_text, &Options::default())
}

/// The report of `scenario_text`: validated (every problem found, as `quotasim run` reports
/// them, when it is not a valid scenario), simulated as given, partitioned and pooled (the
/// SPEC 14 forecast needs the partitioned run, SPEC 9.1's matched jobs all three), and
/// written as one HTML document; with `options.compare`, the comparison section too.
pub fn build_with(scenario_text: &str, options: &Options) -> Result<Report, Vec<Problem>> {
    let loaded = quotalab_engine::load(scenario_text)?;
    // As given whole; the two variants only for their metrics (SPEC 9.1's matched jobs and
    // the SPEC 14 forecast need all three runs).
    let comparison = compare::run_each(scenario_text, |policy| {
        Product::Digest(match policy {
            Policy::AsGiven => DigestLimits::default(),
            _ => DigestLimits {
                max_points: 2,
                max_events: 0,
                max_jobs: usize::MAX,
            },
        })
    })?;
    let verdicts = comparison.verdicts();
    let compare::Comparison {
        runs,
        matched,
        forecast,
        metrics,
        given_is_pooled,
        ..
    } = comparison;
    let given = runs
        .into_iter()
        .find(|(p, _)| *p == Policy::AsGiven)
        .and_then(|(_, o)| o.into_digest())
        .unwrap_or_else(|| unreachable!("a digest was asked for"));
    let compared = options.compare.then_some(Compared {
        matched,
        metrics,
        verdicts,
        given_is_pooled,
    });
    let description = serde_json::from_str::<serde_json::Value>(scenario_text)
        .ok()
        .and_then(|v| v.get("description")?.as_str().map(str::to_string))
        .filter(|d| !d.trim().is_empty());
    let inputs = Inputs {
        text: scenario_text,
        description,
        described: describe::scenario_summary(&loaded.scenario),
        model: if loaded.scenario.is_kueue() {
            "Kueue model"
        } else {
            "AWS Batch model"
        },
        kueue: loaded.scenario.is_kueue(),
        warnings: loaded.warnings.iter().map(crate::words::problem).collect(),
        cohorts: describe::cohort_settings(&loaded.scenario),
        queues: describe::cluster_queue_settings(&loaded.scenario),
    };
    let reviewed = match &options.review {
        None => None,
        Some((name, text)) => Some(review::review(
            review::Input {
                name: "this scenario",
                text: scenario_text,
            },
            review::Input { name, text },
            review::JobsSource::Current,
            &review::ReviewOptions::default(),
        )?),
    };
    let html = write(
        &inputs,
        &given,
        &forecast,
        compared.as_ref(),
        reviewed.as_ref(),
    )
    .map_err(|e| vec![Problem::whole(format!("cannot draw a chart: {e}"))])?;
    Ok(Report {
        html,
        warnings: loaded.warnings,
    })
}

/// What the report says about the scenario besides the run.
struct Inputs<'a> {
    text: &'a str,
    /// The scenario's `description`, as written.
    description: Option<String>,
    described: String,
    model: &'static str,
    kueue: bool,
    warnings: Vec<String>,
    /// Kueue model: each cohort's and ClusterQueue's settings in Kueue's field names.
    cohorts: Vec<describe::KueueSettings>,
    queues: Vec<describe::KueueSettings>,
}

/// The comparison's parts the report shows (SPEC 9.1).
struct Compared {
    /// Per share, in scenario order.
    matched: Vec<Matched>,
    /// Each policy's per-share metrics, in [`Policy::ALL`] order.
    metrics: [Vec<ShareMetrics>; 3],
    /// As given vs partitioned, then pooled vs partitioned.
    verdicts: [Verdicts; 2],
    /// The as-given run is the pooled run: the second verdict would repeat the first.
    given_is_pooled: bool,
}

fn write(
    inputs: &Inputs,
    d: &Digest,
    forecast: &[ShareForecast],
    compared: Option<&Compared>,
    reviewed: Option<&review::Review>,
) -> Result<String, String> {
    let mut h = Html::default();
    let name = if d.name.trim().is_empty() {
        "Untitled scenario"
    } else {
        d.name.as_str()
    };
    h.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .raw("<title>")
        .text(name)
        .raw(" · Quota Lab report</title>\n<style>")
        .raw(CSS)
        .raw("</style>\n</head>\n<body>\n<header>\n<p class=\"kicker\">Quota Lab report</p>\n")
        .el("h1", "", name)
        .raw("\n<p class=\"meta\">")
        .text(&format!(
            "{} · {} · {} · simulated to {}",
            inputs.model,
            if d.kueue.is_some() {
                format::count_of(d.shares.len() as u64, "ClusterQueue", "ClusterQueues")
            } else {
                format::count_of(d.shares.len() as u64, "share", "shares")
            },
            format::count_of(d.totals.submitted, "job", "jobs"),
            format::TimeScale::for_span(d.end_s).at(d.end_s)
        ))
        .text(if compared.is_some() {
            " · compared with partitioned and pooled"
        } else {
            ""
        })
        .text(if reviewed.is_some() {
            " · with a review of a proposed change"
        } else {
            ""
        })
        .raw("</p>\n</header>\n<main>\n");

    scenario_section(&mut h, inputs);
    if inputs.kueue {
        kueue_section(&mut h, inputs, d);
    }
    summary_section(&mut h, d);
    if let Some(c) = compared {
        comparison_section(&mut h, c, inputs.kueue);
    }
    if let Some(r) = reviewed {
        review_section(&mut h, r);
    }
    shares_section(&mut h, d, forecast);
    charts_section(&mut h, d)?;

    h.raw("</main>\n<footer>Written by Quota Lab ")
        .text(env!("CARGO_PKG_VERSION"))
        .raw(" from the scenario above (the same scenario always gives the same report). Agreement texts are shown as written, as text.</footer>\n</body>\n</html>\n");
    Ok(h.finish())
}

fn scenario_section(h: &mut Html, inputs: &Inputs) {
    h.raw("<section id=\"scenario\">\n<h2>Scenario</h2>\n");
    if let Some(d) = &inputs.description {
        h.el("p", "description", d).raw("\n");
    }
    h.el("p", "described", &inputs.described).raw("\n");
    if !inputs.warnings.is_empty() {
        h.raw("<div class=\"warnings\"><h3>Warnings</h3><ul>");
        for w in &inputs.warnings {
            h.el("li", "", w);
        }
        h.raw("</ul></div>\n");
    }
    h.raw("<details class=\"source\"><summary>The scenario as written (JSON)</summary><pre>")
        .text(inputs.text)
        .raw("</pre></details>\n</section>\n");
}

// ---- Kueue: the cohort tree and each ClusterQueue's settings (SPEC 12) ---------------------

/// The cohort tree with what each node did over the run and its settings in Kueue's field
/// names, so a Kueue reader finds the configuration beside the results.
fn kueue_section(h: &mut Html, inputs: &Inputs, d: &Digest) {
    h.raw("<section id=\"kueue\">\n<h2>Cohorts and ClusterQueues</h2>\n");
    let Some(k) = &d.kueue else {
        h.raw("</section>\n");
        return;
    };
    let t = d.busiest_t();
    let rows = d.quota_tree_at(t);
    h.el(
        "p",
        "note",
        &format!(
            "Simulated as Kueue {}'s scheduler decides. The cohort tree as configured, with each node's quota and usage at the busiest moment ({}), and what it borrowed and lent over the whole run.",
            quotalab_engine::model::KUEUE_RELEASE,
            format::TimeScale::for_span(d.end_s).at(t)
        ),
    )
    .raw("\n<div class=\"scroll\"><table class=\"summary cohort-tree\"><thead><tr><th scope=\"col\">cohort / ClusterQueue</th><th scope=\"col\">quota</th><th scope=\"col\">in use</th><th scope=\"col\">borrowed (inst.-h)</th><th scope=\"col\">lent (inst.-h)</th><th scope=\"col\">preemptions</th></tr></thead>\n<tbody>\n");
    for r in &rows {
        // One flavor: its number; several: each ("8 a100 + 4 l4"), never a sum of GPUs of
        // different kinds.
        let sum = |f: fn(&quotalab_engine::tree_view::Amounts) -> f64| {
            let per: Vec<(usize, f64)> = r
                .amounts
                .iter()
                .enumerate()
                .map(|(t, a)| (t, f(a)))
                .filter(|(_, v)| *v != 0.0)
                .collect();
            match per.as_slice() {
                [] => "0".to_string(),
                [(_, v)] if d.instance_types.len() == 1 => format::thousands(*v),
                many => many
                    .iter()
                    .map(|(t, v)| {
                        let name = d.instance_types.get(*t).map_or("", String::as_str);
                        format!("{} {name}", format::thousands(*v))
                    })
                    .collect::<Vec<_>>()
                    .join(" + "),
            }
        };
        let (borrowed, lent, preempt) = match r.kind {
            quotalab_engine::tree_view::NodeKind::Cohort(c) => {
                let c = &k.cohorts[c as usize];
                let m = ShareMetrics {
                    reclaim: c.reclaim,
                    in_share: c.in_share,
                    reclaim_while_borrowing: c.reclaim_while_borrowing,
                    fair_sharing: c.fair_sharing,
                    ..ShareMetrics::default()
                };
                (
                    c.borrowed_h,
                    c.lent_h,
                    crate::interruption::counts_label(&m, true),
                )
            }
            quotalab_engine::tree_view::NodeKind::Share(i) => {
                let m = &d.shares[i as usize];
                (
                    m.borrowed_h,
                    m.lent_h,
                    crate::interruption::counts_label(m, true),
                )
            }
        };
        let indent = "\u{a0}\u{a0}\u{a0}".repeat(r.depth as usize);
        let kind = match r.kind {
            quotalab_engine::tree_view::NodeKind::Cohort(_) => "cohort ",
            quotalab_engine::tree_view::NodeKind::Share(_) => "",
        };
        h.raw("<tr><th scope=\"row\">");
        if let quotalab_engine::tree_view::NodeKind::Share(i) = r.kind {
            h.text(&indent).swatch(i as usize);
        } else {
            h.text(&format!("{indent}{kind}"));
        }
        h.text(&r.name)
            .raw("</th>")
            .el("td", "", &sum(|a| a.quota))
            .el("td", "", &sum(|a| a.usage))
            .el("td", "", &format::hours(borrowed))
            .el("td", "", &format::hours(lent))
            .el("td", "", &preempt)
            .raw("</tr>\n");
    }
    h.raw("</tbody></table></div>\n");
    for (title, list) in [
        ("Cohorts", &inputs.cohorts),
        ("ClusterQueues", &inputs.queues),
    ] {
        if list.is_empty() {
            continue;
        }
        h.raw("<details class=\"settings\" open><summary>")
            .text(title)
            .raw(" as configured (Kueue's field names)</summary><div class=\"scroll\"><table class=\"summary\"><tbody>\n");
        for q in list.iter() {
            h.raw("<tr><th scope=\"row\" colspan=\"2\">")
                .text(&q.path)
                .raw("</th></tr>\n");
            for (field, value) in &q.rows {
                h.raw("<tr><td><code>")
                    .text(field)
                    .raw("</code></td>")
                    .el("td", "", value)
                    .raw("</tr>\n");
            }
        }
        h.raw("</tbody></table></div></details>\n");
    }
    h.raw("</section>\n");
}

// ---- summary ------------------------------------------------------------------------------

fn count(n: u64) -> String {
    format::thousands(n as f64)
}

/// A column of the summary: its heading and a share's cell.
type Column = (&'static str, fn(&ShareMetrics) -> String);

/// One of the summary's tables: its id, heading, what its columns mean, and the columns.
struct Group {
    id: &'static str,
    title: &'static str,
    note: &'static str,
    columns: Vec<Column>,
}

/// The summary's columns (the page's summary table's, `src/results/summary.rs`) as three
/// tables of at most seven columns besides the share's, so that each fits a 1024 px window
/// and an A4 page without being cut or scrolled; the Kueue model's two more causes of
/// preemption and its preemptor waits (SPEC 12.1) with the others (`kueue`).
fn summary_groups(kueue: bool) -> [Group; 3] {
    let mut preemptions: Vec<Column> = vec![
        ("reclaims", |s| count(s.reclaim)),
        if kueue {
            ("within-ClusterQueue preempts", |s| count(s.in_share))
        } else {
            ("in-share preempts", |s| count(s.in_share))
        },
    ];
    if kueue {
        preemptions.extend::<[Column; 3]>([
            ("reclaims while borrowing", |s| {
                count(s.reclaim_while_borrowing)
            }),
            ("fair-sharing preempts", |s| count(s.fair_sharing)),
            ("preemptor waits (quota taken)", |s| {
                crate::interruption::waits_label(s)
            }),
        ]);
    }
    preemptions.extend::<[Column; 2]>([
        ("cost (held)", |s| format::usd(s.cost_usd)),
        ("reserved cost", |s| format::usd(s.reserved_usd)),
    ]);
    [
        Group {
            id: "summary-jobs",
            title: "Jobs and time",
            note: "Completion: submit to success; wait: submit to first start; deadline misses: jobs that did not succeed by their deadline.",
            columns: vec![
                ("done / submitted", |s| {
                    format!("{} / {}", count(s.succeeded), count(s.submitted))
                }),
                ("failed", |s| count(s.failed)),
                ("unfinished", |s| count(s.unfinished)),
                ("deadline misses", |s| count(s.deadline_misses)),
                ("completion p50", |s| format::percentile(&s.completion_s, s.completion_s.p50)),
                ("completion p90", |s| format::percentile(&s.completion_s, s.completion_s.p90)),
                ("wait p50", |s| format::percentile(&s.wait_s, s.wait_s.p50)),
            ],
        },
        Group {
            id: "summary-hours",
            title: "Instance-hours",
            note: if kueue {
                "Nominal is nominalQuota × time; own, borrowed and lent count the quota of admitted jobs; held counts instances physically held; lost is work rolled back. Goodput: useful time ÷ held time."
            } else {
                "Entitled is limit × time; own, borrowed and lent count the quota of admitted jobs; held counts instances physically held; lost is work rolled back. Goodput: useful time ÷ held time."
            },
            columns: vec![
                (if kueue { "nominal" } else { "entitled" }, |s| format::hours(s.entitled_h)),
                ("own", |s| format::hours(s.own_h)),
                ("borrowed", |s| format::hours(s.borrowed_h)),
                ("lent", |s| format::hours(s.lent_h)),
                ("held", |s| format::hours(s.held_h)),
                ("lost", |s| format::hours(s.lost_h)),
                ("goodput", |s| {
                    format::percent((s.held_h > 0.0).then_some(s.goodput))
                }),
            ],
        },
        Group {
            id: "summary-preemptions",
            title: "Preemptions and cost",
            note: if kueue {
                "Preemptions by cause: reclaim (another queue took back quota it had lent), within ClusterQueue (a higher-priority job of the same queue), while borrowing (by a job of another queue while this one borrowed) and fair sharing; preemptor waits: its jobs' waits for their victims to go (WaitingForPreemptedWorkloads), in brackets those whose freed quota another workload took first. Cost (held): what the instances the queue's jobs held cost; reserved cost: what its nominal quota costs, used or not."
            } else {
                "Preemptions by cause: reclaim (another share took back capacity it had lent) and in-share (a higher-priority job of the same share). Cost (held): what the instances the share's jobs held cost; reserved cost: what its entitlement costs, used or not."
            },
            columns: preemptions,
        },
    ]
}

fn summary_section(h: &mut Html, d: &Digest) {
    h.raw("<section id=\"summary\">\n<h2>Summary</h2>\n");
    if d.shares.is_empty() {
        h.el("p", "note", "The run has no quota shares to summarise.")
            .raw("\n</section>\n");
        return;
    }
    let kueue = d.kueue.is_some();
    h.el(
        "p",
        "note",
        if kueue {
            "Each ClusterQueue over the whole run, in three tables."
        } else {
            "Each share over the whole run, in three tables."
        },
    )
    .raw("\n");
    let (unit, all) = if kueue {
        ("ClusterQueue", "All ClusterQueues")
    } else {
        ("share", "All shares")
    };
    for g in summary_groups(kueue) {
        h.raw("<div class=\"table-group\" id=\"")
            .raw(g.id)
            .raw("\">")
            .el("h3", "", g.title)
            .raw("<div class=\"scroll\"><table class=\"summary\"><thead><tr><th scope=\"col\">")
            .text(unit)
            .raw("</th>");
        for (head, _) in &g.columns {
            h.el("th", "", head);
        }
        h.raw("</tr></thead>\n<tbody>\n");
        let totals = (d.shares.len() > 1).then_some(&d.totals);
        for (i, s) in d.shares.iter().enumerate() {
            h.raw("<tr><th scope=\"row\">")
                .swatch(i)
                .text(&s.name)
                .raw("</th>");
            for (_, cell) in &g.columns {
                h.el("td", "", &cell(s));
            }
            h.raw("</tr>\n");
        }
        if let Some(t) = totals {
            h.raw("<tr class=\"totals\"><th scope=\"row\">")
                .text(all)
                .raw("</th>");
            for (_, cell) in &g.columns {
                h.el("td", "", &cell(t));
            }
            h.raw("</tr>\n");
        }
        h.raw("</tbody></table></div>")
            .el("p", "table-note", g.note)
            .raw("</div>\n");
    }
    h.raw("</section>\n");
}

// ---- comparison (SPEC 9.1) ----------------------------------------------------------------

/// The column key of a policy (`as-given`, `partitioned`, `pooled`).
fn policy_col(p: Policy) -> &'static str {
    match p {
        Policy::AsGiven => "as-given",
        Policy::Partitioned => "partitioned",
        Policy::Pooled => "pooled",
    }
}

/// SPEC 16: the review of a proposed configuration on the scenario's jobs, shares worst
/// first, each table as `quotasim review` prints it.
fn review_section(h: &mut Html, r: &review::Review) {
    h.raw("<section id=\"review\">\n<h2>Review of a proposed change</h2>\n");
    // A verdict per team in words first (the page's review), then the numbers.
    let verdicts = review::team_verdicts(r);
    h.raw("<div class=\"verdicts\"><div class=\"verdict-group\" data-review=\"verdicts\">")
        .el("p", "headline", &review::headline(r, &verdicts))
        .el("p", "explain", &review::ran(r))
        .raw("<ul>");
    for v in &verdicts {
        h.raw("<li data-verdict=\"")
            .raw(v.verdict.key())
            .raw("\" data-share=\"")
            .text(&v.name)
            .raw("\">")
            .text(&v.sentence());
        for (lead, lines) in [("Also: ", &v.also), ("", &v.notes)] {
            if !lines.is_empty() {
                h.text(&format!(" {lead}{}", lines.join("; ")));
            }
        }
        if let Some(c) = v.crossing() {
            h.text(&format!(" {c}"));
        }
        h.raw("</li>");
    }
    h.raw("</ul></div></div>\n");
    for line in review::preamble(r) {
        for l in line.lines() {
            h.el("p", "explain", l).raw("\n");
        }
    }
    for t in review::share_tables(r) {
        h.raw("<div class=\"review-share\" data-share=\"")
            .text(&t.name)
            .raw("\">")
            .el("h3", "", &t.heading)
            .el(
                "p",
                "note",
                &format!("current: {} · proposed: {}", t.current, t.proposed),
            )
            .raw("<table class=\"compare\"><thead><tr>");
        for (k, cell) in t.rows.iter().enumerate() {
            if k == 1 {
                h.raw("</thead>\n<tbody>\n<tr>");
            } else if k > 1 {
                h.raw("<tr>");
            }
            for (c, v) in cell.iter().enumerate() {
                match (k, c) {
                    (0, _) => h.raw("<th scope=\"col\">").text(v).raw("</th>"),
                    (_, 0) => h.raw("<th scope=\"row\">").text(v).raw("</th>"),
                    _ => h.raw("<td>").text(v).raw("</td>"),
                };
            }
            h.raw("</tr>\n");
        }
        h.raw("</tbody></table></div>\n");
    }
    for (label, names) in [
        (
            "Only in the current configuration (no jobs)",
            &r.only_current,
        ),
        ("Only in the proposal (no jobs)", &r.only_proposed),
    ] {
        if !names.is_empty() {
            h.el("p", "note", &format!("{label}: {}", names.join(", ")))
                .raw("\n");
        }
    }
    h.raw("</section>\n");
}

fn comparison_section(h: &mut Html, c: &Compared, kueue: bool) {
    h.raw("<section id=\"comparison\">\n<h2>Compare policies: what does lending change?</h2>\n")
        .el(
            "p",
            "explain",
            &format!(
                "The scenario was also simulated under two policies that change only who may lend and borrow; everything else (preemption, priorities, grace, retries, recovery, events) is as given. Partitioned: nobody lends or borrows ({}). Pooled: everyone lends and borrows without limits ({}). Each difference is against partitioned, in the row's unit, said in words; “≈ same” marks a change that is about the same ({}). Completion percentiles are over the matched jobs: the jobs of a share that succeeded under all three policies, so that like is compared with like.",
                if kueue {
                    "every ClusterQueue stands alone, without a cohort"
                } else {
                    "every share RESERVE"
                },
                if kueue {
                    "every ClusterQueue in one cohort, with no borrowing or lending limit"
                } else {
                    "every share LEND_AND_BORROW with no borrow limit"
                },
                verdict::ABOUT_THE_SAME,
            ),
        )
        .raw("\n");

    // The verdicts as `quotasim compare --summary` words them.
    h.raw("<div class=\"verdicts\">\n");
    for (k, v) in c.verdicts.iter().enumerate() {
        if k == 1 && c.given_is_pooled {
            h.raw("<div class=\"verdict-group\" data-policy=\"pooled\">")
                .el("p", "headline", compare::GIVEN_IS_POOLED)
                .raw("</div>\n");
            continue;
        }
        h.raw("<div class=\"verdict-group\" data-policy=\"")
            .raw(policy_col(v.other))
            .raw("\">")
            .el("p", "headline", &v.headline());
        // Identical runs: the headline says "no difference" for every share.
        if !v.identical {
            h.raw("<ul>");
            for s in &v.shares {
                h.raw("<li data-verdict=\"")
                    .raw(s.verdict.key())
                    .raw("\">")
                    .text(&s.sentence())
                    .raw("</li>");
            }
            h.raw("</ul>");
        }
        h.raw("</div>\n");
    }
    h.raw("</div>\n");

    let shares = &c.metrics[Policy::AsGiven as usize];
    if shares.is_empty() {
        h.el("p", "note", "The run has no quota shares to compare.")
            .raw("\n</section>\n");
        return;
    }
    h.raw("<div class=\"compare-tables\">\n");
    for (i, given) in shares.iter().enumerate() {
        compare_table(h, c, i, &given.name);
    }
    h.raw("</div>\n</section>\n");
}

/// Share `i`'s table: its job counts under each policy, its matched jobs, and every
/// compared metric in one scale per row, with its difference from partitioned in words.
fn compare_table(h: &mut Html, c: &Compared, i: usize, name: &str) {
    let metrics = |p: Policy| c.metrics[p as usize].get(i);
    let matched = c.matched.get(i);
    h.raw("<div class=\"compare-share\" data-share=\"")
        .text(name)
        .raw("\"><h3>")
        .swatch(i)
        .text(name)
        .raw("</h3><table class=\"compare\"><thead><tr><th scope=\"col\">metric</th>");
    for p in Policy::ALL {
        h.raw("<th scope=\"col\" data-col=\"")
            .raw(policy_col(p))
            .raw("\">")
            .text(verdict::policy_title(p));
        if p == Policy::Partitioned {
            h.raw("<span class=\"sub\">the baseline</span>");
        }
        h.raw("</th>");
    }
    h.raw("</tr></thead>\n<tbody>\n");
    for m in Metric::ALL {
        let values =
            Policy::ALL.map(|p| metrics(p).and_then(|s| verdict::value_of(m, p, s, matched)));
        let known: Vec<f64> = values.iter().flatten().copied().collect();
        let scale = m.unit().scale_for(&known);
        let base = values[Policy::Partitioned as usize];
        h.raw("<tr data-metric=\"")
            .raw(m.key())
            .raw("\">")
            .raw("<th scope=\"row\">")
            .text(Metric::label(m))
            .raw("</th>");
        for p in Policy::ALL {
            let value = values[p as usize];
            h.raw("<td data-col=\"")
                .raw(policy_col(p))
                .raw("\"><span class=\"value\">")
                .text(&value.map_or_else(|| "—".to_string(), |v| scale.show(v)))
                .raw("</span>");
            if p != Policy::Partitioned {
                let exact = base.is_some() && base == value;
                let d = match (metrics(Policy::Partitioned), metrics(p)) {
                    (Some(b), Some(o)) => {
                        verdict::delta_of(m, (Policy::Partitioned, b), (p, o), matched)
                    }
                    _ => verdict::delta(m, base, value),
                };
                delta_note(h, d, scale, exact);
            }
            h.raw("</td>");
        }
        h.raw("</tr>\n");
        if m == Metric::Succeeded {
            // The other job counts beside it (SPEC 9.1), then the jobs completion is over.
            count_rows(h, &metrics);
            h.raw("<tr data-row=\"matched\" class=\"matched\"><th scope=\"row\" colspan=\"4\">")
                .text(&match matched {
                    Some(m) => format!(
                        "Matched jobs: {} (succeeded under all three policies; completion below is over them)",
                        format::thousands(m.n as f64)
                    ),
                    None => "Matched jobs: none".to_string(),
                })
                .raw("</th></tr>\n");
        }
    }
    h.raw("</tbody></table></div>\n");
}

/// The rows of the jobs that did not succeed under each policy: unfinished, failed.
fn count_rows<'a>(h: &mut Html, metrics: &impl Fn(Policy) -> Option<&'a ShareMetrics>) {
    type Row = (&'static str, &'static str, fn(&ShareMetrics) -> u64);
    let rows: [Row; 2] = [
        ("jobs-unfinished", "Jobs unfinished", |m| m.unfinished),
        ("jobs-failed", "Jobs failed", |m| m.failed),
    ];
    for (key, label, of) in rows {
        h.raw("<tr data-row=\"")
            .raw(key)
            .raw("\">")
            .raw("<th scope=\"row\">")
            .text(label)
            .raw("</th>");
        for p in Policy::ALL {
            let v = metrics(p).map_or_else(|| "—".to_string(), |m| count(of(m)));
            h.raw("<td data-col=\"")
                .raw(policy_col(p))
                .raw("\"><span class=\"value\">")
                .text(&v)
                .raw("</span></td>");
        }
        h.raw("</tr>\n");
    }
}

/// A value's difference from partitioned, in the row's scale and in words (not in colour
/// only): "−3.0 h better", "+$12.00 worse", "≈ same" ([`verdict::ABOUT_THE_SAME`]), "no
/// change" (`exact`: the same value).
fn delta_note(h: &mut Html, d: Delta, scale: verdict::Scale, exact: bool) {
    let (class, number, words) = match d {
        Delta::Better(x) => ("delta better", scale.show_delta(x), " better"),
        Delta::Worse(x) => ("delta worse", scale.show_delta(x), " worse"),
        Delta::Same if exact => ("delta same", String::new(), "no change"),
        Delta::Same => ("delta same", "≈".to_string(), " same"),
        Delta::NotComparable => return,
    };
    h.open("span", class);
    if !number.is_empty() {
        h.el("span", "n", &number);
    }
    h.text(words).close("span");
}

// ---- shares: agreement, results, contract card ----------------------------------------------

/// The agreement's four fields: label and text.
fn agreement_fields(a: &Agreement) -> [(&'static str, &Option<String>); 4] {
    [
        ("Owner", &a.owner),
        ("Rationale", &a.rationale),
        ("Interruption contract", &a.interruption_contract),
        ("Review by", &a.review_by),
    ]
}

fn shares_section(h: &mut Html, d: &Digest, forecast: &[ShareForecast]) {
    h.raw(if d.kueue.is_some() {
        "<section id=\"shares\">\n<h2>Each ClusterQueue: its agreement beside its results</h2>\n"
    } else {
        "<section id=\"shares\">\n<h2>Each share: its agreement beside its results</h2>\n"
    });
    let cards = contract_card::cards(d, Some(forecast));
    for (i, (m, card)) in d.shares.iter().zip(&cards).enumerate() {
        h.raw("<article class=\"share\">\n<h3>")
            .swatch(i)
            .text(&m.name)
            .raw("</h3>\n<div class=\"cols\">\n<div class=\"agreement\"><h4>Agreement</h4>");
        match &card.agreement {
            None => {
                h.el(
                    "p",
                    "note",
                    if d.kueue.is_some() {
                        "No agreement is written for this ClusterQueue."
                    } else {
                        "No agreement is written for this share."
                    },
                );
            }
            Some(a) => {
                h.raw("<dl>");
                for (label, text) in agreement_fields(a) {
                    h.el("dt", "", label);
                    match text.as_deref().filter(|t| !t.trim().is_empty()) {
                        Some(t) => h.el("dd", "text", t),
                        None => h.el("dd", "note", "not written"),
                    };
                }
                h.raw("</dl>");
            }
        }
        h.raw("</div>\n<div class=\"results\"><h4>Results</h4><dl>");
        let goodput = (m.held_h > 0.0).then_some(m.goodput);
        for (label, value) in [
            (
                "Jobs",
                format!(
                    "{} of {} succeeded, {} failed, {} unfinished",
                    count(m.succeeded),
                    count(m.submitted),
                    count(m.failed),
                    count(m.unfinished)
                ),
            ),
            (
                "Completion",
                if m.completion_s.n == 0 {
                    "no job succeeded".to_string()
                } else {
                    format!(
                        "p50 {} · p90 {}",
                        format::duration(m.completion_s.p50),
                        format::duration(m.completion_s.p90)
                    )
                },
            ),
            (
                "Instance-hours",
                format!(
                    "{} {} · own {} · borrowed {} · lent {} · lost {}",
                    if d.kueue.is_some() {
                        "nominal"
                    } else {
                        "entitled"
                    },
                    format::hours(m.entitled_h),
                    format::hours(m.own_h),
                    format::hours(m.borrowed_h),
                    format::hours(m.lent_h),
                    format::hours(m.lost_h)
                ),
            ),
            (
                "Preemptions",
                crate::interruption::counts_label(m, d.kueue.is_some()),
            ),
            ("Goodput", format::percent(goodput)),
            ("Deadline misses", count(m.deadline_misses)),
        ] {
            h.el("dt", "", label).el("dd", "", &value);
        }
        h.raw("</dl></div>\n</div>\n");
        contract_card(h, card);
        h.raw("</article>\n");
    }
    h.raw("</section>\n");
}

/// The interruption-contract card of one share (the engine's
/// [`contract_card`](quotalab_engine::analysis::contract_card) model, as the page shows it).
fn contract_card(h: &mut Html, card: &Card) {
    h.raw("<div class=\"contract\"><h4>Interruption contract</h4><div class=\"questions\">\n");
    for a in &card.answers {
        h.raw("<div class=\"question\">")
            .el("h5", "", a.question.title())
            .raw("<dl>");
        for r in &a.rows {
            h.el("dt", "", r.label).el("dd", "", &r.value);
        }
        h.raw("</dl>");
        if let Some((tone, words)) = &a.verdict {
            h.raw(match tone {
                contract_card::Tone::Good => "<p class=\"verdict tone-good\">",
                contract_card::Tone::Caution => "<p class=\"verdict tone-caution\">",
                contract_card::Tone::Bad => "<p class=\"verdict tone-bad\">",
            })
            .text(words)
            .raw("</p>");
        }
        h.raw("</div>\n");
    }
    h.raw("</div></div>\n");
}

// ---- charts -------------------------------------------------------------------------------

/// The share legend under a chart: swatch and name per share.
fn share_legend(h: &mut Html, d: &Digest) {
    h.raw("<ul class=\"legend\">");
    for (i, s) in d.shares.iter().enumerate() {
        h.raw("<li>").swatch(i).text(&s.name).raw("</li>");
    }
    h.raw("</ul>\n");
}

fn key_legend(h: &mut Html, keys: &[(&'static str, &str)]) {
    h.raw("<ul class=\"legend\">");
    for (class, label) in keys {
        h.raw("<li><span class=\"key ")
            .raw(class)
            .raw("\"></span>")
            .text(label)
            .raw("</li>");
    }
    h.raw("</ul>\n");
}

fn charts_section(h: &mut Html, d: &Digest) -> Result<(), String> {
    h.raw("<section id=\"charts\">\n<h2>Charts</h2>\n");

    // Allocation vs consumption: a panel per share and instance type.
    let words = allocation::words(d.kueue.is_some());
    h.raw("<figure class=\"chart\" id=\"chart-allocation\"><h3>Allocation vs consumption</h3>")
        .el("figcaption", "", words.intro);
    key_legend(h, &allocation::legend(d));
    let mut rows: Vec<_> = d.series.iter().collect();
    quotalab_engine::sort::compact_by(&mut rows, &|a, b| {
        (a.share, a.instance_type).cmp(&(b.share, b.instance_type))
    });
    let several_types = chart::series_types(d).len() > 1;
    if rows.is_empty() {
        h.el("p", "note", "The run has no time series to chart.");
    }
    h.raw("<div class=\"panels\">\n");
    for row in rows {
        let share = row.share as usize;
        h.raw("<div class=\"panel\"><h4>")
            .swatch(share)
            .text(chart::share_name(d, share));
        if several_types {
            h.raw(" <span class=\"type\">")
                .text(chart::type_name(d, row.instance_type))
                .raw("</span>");
        }
        h.raw("</h4>")
            .el(
                "p",
                "caption",
                &allocation::caption(&allocation::panel_summary(row), d.kueue.is_some()),
            )
            .svg(&svg::svg(PANEL.0, PANEL.1, |root, pen| {
                let measure = move |size: f64, text: &str| estimate_width(pen, size, text);
                allocation::draw_panel(root, pen, d, row, &measure).map(|_| ())
            })?)
            .raw("</div>\n");
    }
    h.raw("</div></figure>\n");

    // Occupancy: a chart per instance type.
    h.raw("<figure class=\"chart\" id=\"chart-occupancy\"><h3>Cluster occupancy</h3>")
        .el("figcaption", "", occupancy::caption(d.kueue.is_some()));
    let types = chart::series_types(d);
    if types.is_empty() {
        h.el("p", "note", "The run has no time series to chart.");
    }
    for ty in types {
        if several_types {
            h.el("h4", "", chart::type_name(d, ty));
        }
        h.svg(&svg::svg(WIDE, OCCUPANCY_HEIGHT, |root, pen| {
            occupancy::draw_on(root, pen, d, ty).map(|_| ())
        })?);
    }
    share_legend(h, d);
    h.raw("</figure>\n");

    // The Kueue model's dominant resource share over time (SPEC 12), as on the page.
    if dominant::has_chart(d) {
        h.raw("<figure class=\"chart\" id=\"chart-dominant\"><h3>")
            .text(dominant::TITLE)
            .raw("</h3>")
            .el("figcaption", "", dominant::CAPTION)
            .svg(&svg::svg(WIDE, OCCUPANCY_HEIGHT, |root, pen| {
                dominant::draw_on(root, pen, d).map(|_| ())
            })?);
        share_legend(h, d);
        h.raw("</figure>\n");
    }

    // Completion time.
    h.raw("<figure class=\"chart\" id=\"chart-completion\"><h3>Completion time</h3>")
        .el("figcaption", "", completion::caption(d.kueue.is_some()))
        .svg(&svg::svg(WIDE, COMPLETION_HEIGHT, |root, pen| {
            completion::draw_completion(root, pen, d)
        })?);
    h.raw("<ul class=\"legend\">");
    for (i, s) in d.shares.iter().enumerate() {
        h.raw("<li>")
            .swatch(i)
            .el("strong", "", &s.name)
            .raw(" ")
            .el("span", "note", &completion::legend_note(s))
            .raw("</li>");
    }
    h.raw("</ul>\n</figure>\n");

    // Interruption cost.
    let bars_height = interruption::css_height(d.shares.len().max(1)) as u32;
    h.raw("<figure class=\"chart\" id=\"chart-interruption\"><h3>Interruption cost</h3>")
        .el("figcaption", "", interruption::caption(d.kueue.is_some()))
        .svg(&svg::svg(WIDE, bars_height, |root, pen| {
            interruption::draw_interruption(root, pen, d)
        })?);
    key_legend(
        h,
        &[
            ("key-lost", interruption::PARTS[0]),
            ("key-startup", interruption::PARTS[1]),
            ("key-checkpoint", interruption::PARTS[2]),
            ("key-grace", interruption::PARTS[3]),
        ],
    );
    h.raw("</figure>\n");

    // Useful work, allocation-backed and borrowed (SPEC 14), as on the page: when the
    // scenario uses the interruption contract.
    if d.contract.used {
        let height = useful::css_height(d.shares.len().max(1)) as u32;
        h.raw("<figure class=\"chart\" id=\"chart-useful\"><h3>Useful work: allocation or borrowed</h3>")
            .el(
                "figcaption",
                "",
                useful::caption(d.kueue.is_some()),
            )
            .svg(&svg::svg(WIDE, height, |root, pen| {
                useful::draw_useful(root, pen, d)
            })?);
        key_legend(
            h,
            &[
                ("key-own", useful::PARTS[0]),
                ("key-borrowed", useful::PARTS[1]),
            ],
        );
        h.raw("</figure>\n");
    }
    h.raw("</section>\n");
    Ok(())
}

/// The report's stylesheet (no `>` in it: a raw `<` or `>` is only ever the report's own
/// tags).
const CSS: &str = "
:root{color-scheme:light;--text:#374151;--muted:#6b7280;--line:#e5e7eb;--ink:#111827}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--text);background:#f8fafc}
header,main,footer{max-width:1040px;margin:0 auto;padding:0 24px}
header{padding-top:28px}
.kicker{margin:0;color:var(--muted);font-size:13px;text-transform:uppercase;letter-spacing:.06em}
h1{margin:2px 0 4px;color:var(--ink);font-size:28px;overflow-wrap:anywhere}
h2{margin:0 0 12px;color:var(--ink);font-size:20px}
h3{margin:0 0 8px;color:var(--ink);font-size:17px;overflow-wrap:anywhere}
h4{margin:0 0 6px;font-size:14px;color:var(--ink)}
h5{margin:0 0 4px;font-size:13.5px;color:var(--ink)}
.meta,.note,.caption,figcaption{color:var(--muted)}
section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin:18px 0}
.described{font-size:16px}
.description{white-space:pre-wrap;overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f3f4f6;border-radius:6px;padding:12px;font-size:12.5px;max-height:480px;overflow:auto}
details summary{cursor:pointer;color:var(--ink)}
.warnings{border-left:3px solid #d97706;padding-left:12px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:12.5px;font-variant-numeric:tabular-nums}
table.summary,table.compare{width:100%}
table.summary th:first-child{width:10em}
.table-group{margin:0 0 18px}
.table-group:last-child{margin-bottom:0}
.table-group h3{font-size:15px;margin:0 0 4px}
.table-note{margin:6px 0 0;font-size:12.5px;color:var(--muted)}
th,td{padding:4px 6px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th[scope=row],thead th:first-child{text-align:left;white-space:normal;overflow-wrap:anywhere;min-width:9em;max-width:16em}
thead th{font-weight:600;color:var(--muted);vertical-align:bottom;white-space:normal}
tr.totals th,tr.totals td{font-weight:600;border-top:2px solid var(--line)}
.sw{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:6px;vertical-align:baseline}
article.share{border-top:1px solid var(--line);padding-top:14px;margin-top:14px}
article.share:first-of-type{border-top:0;margin-top:0;padding-top:0}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:18px}
dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;font-size:13.5px}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere}
dd.text{white-space:pre-wrap}
.contract{margin-top:14px}
.questions{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.question{border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.question dl{grid-template-columns:1fr}
.question dt{font-size:12px}
.verdict{margin:8px 0 0;padding:4px 8px;border-radius:5px;font-size:13px}
.tone-good{background:#ecfdf5;color:#065f46}
.tone-caution{background:#fffbeb;color:#92400e}
.tone-bad{background:#fef2f2;color:#991b1b}
figure{margin:0 0 26px}
figure svg{display:block;max-width:100%;height:auto}
.panels{display:grid;grid-template-columns:repeat(auto-fill,minmax(420px,1fr));gap:14px}
.panel .caption{margin:0 0 4px;font-size:12.5px}
.type{color:var(--muted);font-weight:400}
.legend{list-style:none;padding:0;margin:8px 0 0;display:flex;flex-wrap:wrap;gap:4px 18px;font-size:13px}
.key{display:inline-block;width:16px;height:10px;margin-right:6px;border-radius:2px;vertical-align:baseline;background:#9ca3af}
.key-limit{height:0;border-top:2px solid var(--ink);border-radius:0}
.key-own{background:#4e79a7}
.key-borrowed{background:repeating-linear-gradient(135deg,#a9c0d8 0 3px,#4e79a7 3px 4px)}
.key-lent{background:#cbd0d8}
.key-queued{height:0;border-top:2px dashed #475569;border-radius:0}
.key-peak{height:0;border-top:2px solid #95afca;border-radius:0}
.key-lost{background:#4e79a7}
.key-startup{background:#a7bcd3}
.key-checkpoint{background:repeating-linear-gradient(135deg,#fff 0 3px,#4e79a7 3px 4px);border:1px solid #4e79a7}
.key-grace{background:#dce4ed;border:1px solid #4e79a7}
.explain{margin:0 0 12px;font-size:14px}
.verdicts{margin:0 0 16px}
.verdict-group{margin:0 0 10px}
.headline{margin:0 0 4px;font-weight:600;color:var(--ink)}
.verdict-group ul{margin:0;padding-left:20px;font-size:13.5px}
.verdict-group li{margin:2px 0;overflow-wrap:anywhere}
li[data-verdict=better]::marker{color:#047857}
li[data-verdict=worse]::marker{color:#b91c1c}
li[data-verdict=mixed]::marker{color:#b45309}
.compare-tables{display:grid;grid-template-columns:repeat(auto-fill,minmax(400px,1fr));gap:18px 22px}
.compare-share h3{font-size:15px;margin:0 0 4px}
table.compare th[scope=row]{min-width:6em;max-width:none}
table.compare th,table.compare td{padding:4px 5px}
table.compare td{white-space:normal;vertical-align:top}
table.compare thead th{text-align:right}
table.compare thead th:first-child{text-align:left}
th .sub{display:block;font-weight:400;font-size:11px}
tr.matched th{font-weight:400;color:var(--muted);background:#f8fafc;white-space:normal}
table.compare tbody th{font-weight:500}
.value{white-space:nowrap}
.delta{display:block;font-size:11.5px;line-height:1.3}
.delta .n{white-space:nowrap}
.delta.better{color:#047857}
.delta.worse{color:#b91c1c}
.delta.same{color:var(--muted)}
footer{color:var(--muted);font-size:12.5px;padding-bottom:32px}
@media (max-width:760px){.cols,.questions{grid-template-columns:1fr}}
@media print{body{background:#fff}table{font-size:11.5px}section{border:0;padding:0}details{display:block}.scroll{overflow:visible}.table-group,.compare-share,.verdict-group,figure,.panel,.question{break-inside:avoid}h2,h3,h4{break-after:avoid}}
";

#[cfg(test)]
mod tests {
    use super::*;

    const PRESET: &str = include_str!("../../../www/presets/recovery-not-free.json");

    fn with_compare(text: &str) -> String {
        build_with(
            text,
            &Options {
                compare: true,
                ..Options::default()
            },
        )
        .expect("a report")
        .html
    }

    /// The text of `s` after the first `from`, up to the next `to` (empty if no `from`).
    fn between<'a>(s: &'a str, from: &str, to: &str) -> &'a str {
        let a = s.find(from).map_or(s.len(), |i| i + from.len());
        &s[a..a + s[a..].find(to).unwrap_or(s.len() - a)]
    }

    /// SPEC 9.1: each share's verdict follows its table's own deltas (red worse, green
    /// better, else about the same), for both policies against partitioned: the report's
    /// tables judge every metric as the verdicts do (a wait against the p50 completion too,
    /// an interruption against the instance-hours held).
    #[test]
    fn every_verdict_follows_its_tables_deltas() {
        let presets = [
            PRESET,
            include_str!("../../../www/presets/kueue-hierarchical-fair.json"),
            include_str!("../../../www/presets/kueue-three-queues.json"),
            include_str!("../../../www/presets/partition-vs-pool-pooled.json"),
            include_str!("../../../www/presets/philly-sample.json"),
        ];
        let mut total = 0;
        for text in presets {
            let html = with_compare(text);
            for col in ["as-given", "pooled"] {
                let group = between(&html, &format!("data-policy=\"{col}\">"), "</ul>");
                let mut checked = 0;
                for li in group.split("<li data-verdict=\"").skip(1) {
                    let (verdict, rest) = li.split_once('"').unwrap();
                    let share = &rest[1..rest.find(':').unwrap()];
                    let table = between(&html, &format!("data-share=\"{share}\">"), "</table>");
                    let cells: Vec<&str> = table
                        .split("<tr data-metric=")
                        .skip(1)
                        .map(|row| between(row, &format!("data-col=\"{col}\">"), "</td>"))
                        .collect();
                    assert!(cells.len() >= 7, "{share}: {} metric rows", cells.len());
                    let better = cells.iter().any(|c| c.contains("delta better"));
                    let worse = cells.iter().any(|c| c.contains("delta worse"));
                    let want = match (better, worse) {
                        (true, true) => "mixed",
                        (true, false) => "better",
                        (false, true) => "worse",
                        (false, false) => {
                            assert!(
                                ["about-the-same", "no-difference", "no-jobs"].contains(&verdict),
                                "{share} ({col}): {verdict} with no red or green delta"
                            );
                            continue;
                        }
                    };
                    assert_eq!(verdict, want, "{share} ({col})");
                    checked += 1;
                }
                let listed = group.matches("<li ").count();
                assert!(
                    checked > 0 || listed == 0,
                    "{col}: no verdict of {listed} checked"
                );
                total += checked;
            }
        }
        assert!(total >= 15, "{total} verdicts checked");
    }

    /// Issue #34: a Kueue report shows the cohort tree and each ClusterQueue's settings in
    /// Kueue's field names, counts fair-sharing preemptions in each queue's line, and speaks
    /// of ClusterQueues.
    #[test]
    fn a_kueue_reports_tree_never_adds_flavors_together() {
        let mut sc: serde_json::Value =
            serde_json::from_str(include_str!("../../../www/presets/kueue-three-queues.json"))
                .unwrap();
        sc["shares"][0]["limits"]["ml.p4d.24xlarge"] = serde_json::json!(2);
        sc["capacity"]["ml.p4d.24xlarge"] = serde_json::json!(2);
        let html = report(&sc.to_string()).unwrap();
        let at = html.find("<section id=\"kueue\">").unwrap();
        let kueue = &html[at..at + html[at..].find("</section>").unwrap()];
        let name = sc["shares"][0]["name"].as_str().unwrap();
        let row = kueue
            .lines()
            .find(|l| l.contains(&format!("{name}</th>")))
            .expect("the ClusterQueue's row");
        assert!(
            row.contains(" ml.g5.xlarge + 2 ml.p4d.24xlarge</td>"),
            "{row}"
        );
    }

    #[test]
    fn a_kueue_report_shows_the_cohort_tree_and_the_settings() {
        let text = include_str!("../../../www/presets/kueue-hierarchical-fair.json");
        let html = report(text).unwrap();
        let at = html
            .find("<section id=\"kueue\">")
            .expect("the Kueue section");
        let kueue = &html[at..at + html[at..].find("</section>").unwrap()];
        assert!(kueue.contains("Cohorts and ClusterQueues"));
        assert!(kueue.contains("reclaimWithinCohort: "), "{kueue}");
        assert!(kueue.contains("nominalQuota"));
        assert!(kueue.contains("cohort "), "cohort rows in the tree");
        assert!(html.contains("Each ClusterQueue: its agreement beside its results"));
        assert!(!html.contains("No agreement is written for this share."));
        let d = quotalab_engine::run_digest(text, DigestLimits::default()).unwrap();
        let fair: u64 = d.shares.iter().map(|s| s.fair_sharing).sum();
        if fair > 0 {
            assert!(
                html.contains(" fair-sharing"),
                "fair-sharing preemptions named"
            );
        }
        // The summary speaks Kueue: ClusterQueues, nominal, within ClusterQueue.
        let at = html.find("<section id=\"summary\">").unwrap();
        let summary = &html[at..at + html[at..].find("</section>").unwrap()];
        assert!(
            summary.contains("<th scope=\"col\">ClusterQueue</th>"),
            "{summary}"
        );
        assert!(summary.contains("All ClusterQueues"));
        assert!(summary.contains("within-ClusterQueue preempts"));
        assert!(summary.contains(">nominal<"));
        for aws in ["All shares", "in-share", ">entitled<", ">share<"] {
            assert!(!summary.contains(aws), "{aws} in the Kueue summary");
        }
        assert!(
            html.contains(" ClusterQueues · "),
            "the meta line counts ClusterQueues"
        );
        // The AWS report has none of it, and keeps its own words.
        let aws = report(PRESET).unwrap();
        assert!(!aws.contains("<section id=\"kueue\">"));
        assert!(aws.contains("All shares") && aws.contains("in-share preempts"));
    }

    /// Issue #34: the report's warnings name the field in words, not by its JSON path
    /// ("capacity.ml.g5.xlarge:"); the Kueue report's captions speak of ClusterQueues.
    #[test]
    fn warnings_and_captions_in_words() {
        let text = r#"{"format": "quotalab/v1", "name": "w",
            "capacity": {"ml.g5.xlarge": 1},
            "shares": [{"name": "a", "limits": {"ml.g5.xlarge": 2}, "strategy": "LEND"}],
            "jobs": [{"id": "j", "share": "a", "instance_type": "ml.g5.xlarge", "submit_s": 0, "work_s": 60}]}"#;
        let loaded = quotalab_engine::load(text).unwrap();
        let raw: Vec<String> = loaded.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            raw.iter().any(|w| w.starts_with("capacity.")),
            "a warning at a capacity entry: {raw:?}"
        );
        let html = report(text).unwrap();
        let at = html.find("<div class=\"warnings\">").expect("warnings");
        let warnings = &html[at..at + html[at..].find("</div>").unwrap()];
        assert!(!warnings.contains("capacity."), "{warnings}");
        assert!(
            warnings.contains("Capacity, ml.g5.xlarge: overcommitted"),
            "{warnings}"
        );
        let kueue = report(include_str!(
            "../../../www/presets/kueue-hierarchical-fair.json"
        ))
        .unwrap();
        assert!(kueue.contains(crate::interruption::caption(true)));
        assert!(!kueue.contains("each share's admitted jobs"));
    }

    #[test]
    fn the_comparison_is_only_there_when_asked_for() {
        let plain = report(PRESET).unwrap();
        assert!(!plain.contains("id=\"comparison\""));
        let compared = with_compare(PRESET);
        let at = compared.find("<section id=\"comparison\">").unwrap();
        assert!(at > compared.find("<section id=\"summary\">").unwrap());
        assert!(at < compared.find("<section id=\"shares\">").unwrap());
        assert_eq!(compared, with_compare(PRESET), "the same bytes every time");
    }

    #[test]
    fn share_names_with_markup_stay_text_in_the_comparison() {
        let evil = "x\"><script>alert(1)</script>";
        let text = PRESET.replace("\"steady\"", &serde_json::to_string(evil).unwrap());
        let html = with_compare(&text);
        assert!(!html.to_ascii_lowercase().contains("<script"));
        let escaped = crate::html::escape(evil);
        assert!(html.contains(&format!("data-share=\"{escaped}\"")));
        assert!(
            html.contains(&format!("{escaped}: ")),
            "in the verdict sentences"
        );
    }

    #[test]
    fn every_summary_table_is_narrow_and_every_column_is_kept() {
        for kueue in [false, true] {
            let groups = summary_groups(kueue);
            assert!(groups.iter().all(|g| g.columns.len() <= 7));
            let all: usize = groups.iter().map(|g| g.columns.len()).sum();
            // The Kueue model: two more causes of preemption and the preemptor waits.
            assert_eq!(all, if kueue { 21 } else { 18 });
        }
    }
}
