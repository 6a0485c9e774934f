//! Bundled scenarios (issue 5 "Presets") and the toolbar's preset picker.
//!
//! Each preset is a SPEC 7 scenario file in `www/presets/`, compiled into the page. Picking one
//! replaces the scenario text (the editor, the results and the link all follow).

use leptos::prelude::*;

use crate::state::use_app;

/// A scenario the page ships with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub json: &'static str,
}

/// AWS's quota-sharing walkthrough (`www/presets/aws-walkthrough.json`).
pub const AWS_WALKTHROUGH: Preset = Preset {
    id: "aws",
    title: "AWS walkthrough",
    description: "Three quota shares of one ml.g5.xlarge each on a 3-instance cluster: \
                  background lends and borrows, medium only lends, protected keeps its reserve.",
    json: include_str!("../www/presets/aws-walkthrough.json"),
};

/// Four teams on 24 ml.g5.12xlarge, each alone in its partition (every share RESERVE).
pub const PARTITIONED: Preset = Preset {
    id: "partition",
    title: "Partition vs pool: partitioned",
    description: "Four teams, 248 jobs, every share RESERVE: vision's morning burst and \
                  language's afternoon burst queue for hours while the other teams' \
                  instances sit idle. Switch to \"pooled\" to see the same jobs share.",
    json: include_str!("../www/presets/partition-vs-pool-partitioned.json"),
};

/// The same four teams and jobs, every share LEND_AND_BORROW (unlimited).
pub const POOLED: Preset = Preset {
    id: "pool",
    title: "Partition vs pool: pooled",
    description: "The same 248 jobs, every share LEND_AND_BORROW: the bursts borrow idle \
                  instances and finish hours sooner, and pay for it when owners reclaim \
                  (vision checkpoints on preemption and loses nothing; language does not).",
    json: include_str!("../www/presets/partition-vs-pool-pooled.json"),
};

/// 5,000 generated jobs: exploratory research borrowing from a deadline-bound product team.
pub const RESEARCH_ORG: Preset = Preset {
    id: "research",
    title: "Research org (5,000 jobs)",
    description: "Eight days on 32 ml.p4d.24xlarge: research's checkpointed experiments \
                  borrow product's idle instances and are reclaimed a thousand times, losing \
                  little; product has deadlines, no checkpoints and urgent jobs that preempt \
                  its own; platform's RESERVE quota idles.",
    json: include_str!("../www/presets/research-org.json"),
};

/// A sample of the Philly trace (`www/presets/philly-sample.json`, made by the trace import;
/// its own `description` field says how).
pub const PHILLY: Preset = Preset {
    id: "philly",
    title: "Philly trace sample (3,056 jobs)",
    description: "Five days of real GPU jobs from Microsoft's Philly cluster (2017-11-20 to \
                  24): the five busiest virtual clusters and \"other\" as LEND_AND_BORROW \
                  shares of 256 one-GPU instances, limits proportional to their demand.",
    json: include_str!("../www/presets/philly-sample.json"),
};

/// Every preset, in menu order.
pub const PRESETS: &[Preset] = &[AWS_WALKTHROUGH, PARTITIONED, POOLED, RESEARCH_ORG, PHILLY];

/// The preset whose text is exactly `text`, if any.
pub fn matching(text: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.json == text)
}

/// The preset with this id, if any.
pub fn by_id(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// The toolbar's preset menu: picking a preset loads its scenario. Shows "Custom scenario"
/// once the text no longer matches a preset, and the picked preset's description below.
#[component]
pub fn PresetPicker() -> impl IntoView {
    let app = use_app();
    let current = Memo::new(move |_| app.scenario.with(|t| matching(t).map(|p| p.id)));
    let options = PRESETS
        .iter()
        .map(|p| {
            let id = p.id;
            view! {
                <option value=id prop:selected=move || current.get() == Some(id)>
                    {p.title}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="preset-picker">
            <label for="preset-select">"Preset"</label>
            <select
                id="preset-select"
                data-testid="preset-select"
                aria-describedby="preset-description"
                on:change=move |ev| {
                    if let Some(p) = by_id(&event_target_value(&ev)) {
                        app.scenario.set(p.json.to_string());
                    }
                }
            >
                {options}
                <option value="custom" disabled=true prop:selected=move || current.get().is_none()>
                    "Custom scenario"
                </option>
            </select>
            <span id="preset-description" class="preset-description">
                {move || {
                    current
                        .get()
                        .and_then(by_id)
                        .map_or("Edited: no longer a preset.", |p| p.description)
                }}
            </span>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_a_valid_scenario() {
        for p in PRESETS {
            let loaded =
                quotalab_engine::load(p.json).unwrap_or_else(|e| panic!("{}: {:?}", p.id, e));
            assert!(
                loaded.warnings.is_empty(),
                "{}: {:?}",
                p.id,
                loaded.warnings
            );
            assert!(by_id(p.id).is_some());
        }
    }
}
