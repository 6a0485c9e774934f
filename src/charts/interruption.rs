//! *Interruption cost per share*: horizontal stacked bars of the instance time lost to
//! preemptions (rolled-back work), spent starting up and restoring, saving checkpoints and in
//! grace periods, labelled with the share's preemption counts by cause.

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;

use super::bars::{bar_chart, BarChart};
pub use quotalab_report::interruption::{counts_label, css_height, parts, unit, PARTS};

/// The interruption-cost bars and their key.
#[component]
pub fn InterruptionChart(#[prop(into)] digest: Signal<Arc<Digest>>) -> impl IntoView {
    bar_chart(
        BarChart {
            name: "interruption",
            label: "Stacked bars per share: instance time lost to preemptions, startup and restore, checkpoints and grace periods",
            caption: quotalab_report::interruption::caption,
            key: &[
                ("key-lost", PARTS[0]),
                ("key-startup", PARTS[1]),
                ("key-checkpoint", PARTS[2]),
                ("key-grace", PARTS[3]),
            ],
            css_height,
            draw: quotalab_report::interruption::draw_interruption,
        },
        digest,
    )
}
