//! *Useful work per share* (SPEC 14, "Allocation versus opportunity"): one bar per share of
//! its useful instance time, the part its allocation backs in its colour and the part done
//! on borrowed capacity in its hatched tint (drawn by `quotalab_report::useful`, as in the
//! report).

use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::digest::Digest;

use super::bars::{bar_chart, BarChart};
pub use quotalab_report::useful::{css_height, label, parts, PARTS};

/// The useful-work bars and their key.
#[component]
pub fn UsefulChart(#[prop(into)] digest: Signal<Arc<Digest>>) -> impl IntoView {
    bar_chart(
        BarChart {
            name: "useful",
            label: "Bars per share: useful instance time on its own allocation and on borrowed capacity",
            caption: quotalab_report::useful::caption,
            key: &[("key-own", PARTS[0]), ("key-borrowed", PARTS[1])],
            css_height,
            draw: quotalab_report::useful::draw_useful,
        },
        digest,
    )
}
