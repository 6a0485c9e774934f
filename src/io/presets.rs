//! Bundled scenarios: what they are, which one a text is, and loading
//! the large one (the toolbar's preset picker offers them).
//!
//! Each preset is a SPEC 7 scenario file in `www/presets/`. The small ones are compiled into
//! the page; the large one (the Philly sample, 300 KB of JSON) is copied next to it by Trunk
//! and fetched when picked, so that it does not weigh on every page load (the page's size
//! budget, docs/PERFORMANCE.md). Picking one replaces the scenario text (the editor, the results and the link all
//! follow).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A scenario the page ships with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub source: Source,
}

/// Where a preset's scenario text comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Compiled into the page.
    Inline(&'static str),
    /// Fetched from `path` (relative to the page) when picked; `len` and `hash` (the text's
    /// byte length and [`fnv1a`]) recognise the text without compiling it in. A unit test
    /// checks them against the file.
    Fetched {
        path: &'static str,
        len: usize,
        hash: u64,
    },
}

impl Preset {
    /// The scenario text, if it is compiled in (see [`Source`]).
    pub fn inline(&self) -> Option<&'static str> {
        match self.source {
            Source::Inline(text) => Some(text),
            Source::Fetched { .. } => None,
        }
    }

    /// Whether `text` is exactly this preset's scenario.
    pub fn is(&self, text: &str) -> bool {
        match self.source {
            Source::Inline(json) => json == text,
            Source::Fetched { len, hash, .. } => {
                text.len() == len && fnv1a(text.as_bytes()) == hash
            }
        }
    }
}

/// 64-bit FNV-1a, the fingerprint of a fetched preset's text.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The text of AWS's quota-sharing walkthrough, the page's first scenario.
pub const AWS_WALKTHROUGH_JSON: &str = include_str!("../../www/presets/aws-walkthrough.json");

/// AWS's quota-sharing walkthrough (`www/presets/aws-walkthrough.json`).
pub const AWS_WALKTHROUGH: Preset = Preset {
    id: "aws",
    title: "AWS walkthrough",
    description: "Three quota shares of one ml.g5.xlarge each on a 3-instance cluster: \
                  background lends and borrows, medium only lends, protected keeps its reserve.",
    source: Source::Inline(AWS_WALKTHROUGH_JSON),
};

/// Four teams on 24 ml.g5.12xlarge, each alone in its partition (every share RESERVE).
pub const PARTITIONED: Preset = Preset {
    id: "partition",
    title: "Partition vs pool: partitioned",
    description: "Four teams, 248 jobs, every share RESERVE: vision's morning burst and \
                  language's afternoon burst queue for hours while the other teams' \
                  instances sit idle. Switch to \"pooled\" to see the same jobs share.",
    source: Source::Inline(include_str!(
        "../../www/presets/partition-vs-pool-partitioned.json"
    )),
};

/// The same four teams and jobs, every share LEND_AND_BORROW (unlimited).
pub const POOLED: Preset = Preset {
    id: "pool",
    title: "Partition vs pool: pooled",
    description: "The same 248 jobs, every share LEND_AND_BORROW: the bursts borrow idle \
                  instances and finish hours sooner, and pay for it when owners reclaim \
                  (vision checkpoints on preemption and loses nothing; language does not).",
    source: Source::Inline(include_str!(
        "../../www/presets/partition-vs-pool-pooled.json"
    )),
};

/// 5,000 generated jobs: exploratory research borrowing from a deadline-bound product team.
pub const RESEARCH_ORG: Preset = Preset {
    id: "research",
    title: "Research org (5,000 jobs)",
    description: "Eight days on 32 ml.p4d.24xlarge: research's checkpointed experiments \
                  borrow product's idle instances and are reclaimed a thousand times, losing \
                  little; product has deadlines, no checkpoints and urgent jobs that preempt \
                  its own; platform's RESERVE quota idles.",
    source: Source::Inline(include_str!("../../www/presets/research-org.json")),
};

/// A sample of the Philly trace (`www/presets/philly-sample.json`, made by the trace import;
/// its own `description` field says how), fetched when picked.
pub const PHILLY: Preset = Preset {
    id: "philly",
    title: "Philly trace sample (3,056 jobs)",
    description: "Five days of real GPU jobs from Microsoft's Philly cluster (2017-11-20 to \
                  24): the five busiest virtual clusters and \"other\" as LEND_AND_BORROW \
                  shares of 256 one-GPU instances, limits proportional to their demand.",
    source: Source::Fetched {
        path: "presets/philly-sample.json",
        len: 309_493,
        hash: 0xe5e0_c656_2e59_ef54,
    },
};

/// Kueue's documented cohort example with a third queue (Kueue model), fetched when picked
/// (like every Kueue preset: the page's size budget).
pub const KUEUE_THREE: Preset = Preset {
    id: "kueue",
    title: "Kueue: three ClusterQueues in a cohort",
    description: "Kueue's documented cohort team-ab: team-a-cq (9 instances, borrowing \
                  limit 6) bursts into team-b-cq's idle quota (12) until team-b's \
                  workloads reclaim it; team-c-cq (3, lending limit 0) lends nothing.",
    source: Source::Fetched {
        path: "presets/kueue-three-queues.json",
        len: 2_894,
        hash: 0x0482_77be_216a_1837,
    },
};

/// Two departments of two teams each under one root, with fair sharing and weights.
pub const KUEUE_FAIR: Preset = Preset {
    id: "kueue-fair",
    title: "Kueue: hierarchical fair sharing",
    description: "Departments research (weight 2: nlp, vision) and product (weight 1: \
                  search, ads with weight 0) under cohort org, with fair sharing: watch the \
                  dominant shares in the cohort tree and whom fair sharing preempts.",
    source: Source::Fetched {
        path: "presets/kueue-hierarchical-fair.json",
        len: 3_864,
        hash: 0xd9a8_c2ad_832d_0fcf,
    },
};

/// SPEC 14: two borrowing teams with the same jobs, one whose restores fail (fetched when
/// picked, like the Kueue presets).
pub const RECOVERY_NOT_FREE: Preset = Preset {
    id: "recovery",
    title: "Recovery is not free",
    description: "Two training teams borrow product's idle instances with the same jobs and \
                  checkpoints and are reclaimed alike: steady's restores work, flaky's fail 4 \
                  times in 10 and 3 resumes in 10 are corrupt. Read the interruption contract \
                  cards, then compare.",
    source: Source::Fetched {
        path: "presets/recovery-not-free.json",
        len: 2_560,
        hash: 0xa16e_5905_c6f5_7abb,
    },
};

/// SPEC 14: every team escalates near its deadlines, beside calm copies of the same jobs.
pub const PRIORITY_INFLATION: Preset = Preset {
    id: "inflation",
    title: "Priority inflation",
    description: "vision and language raise every job to priority 9 half an hour before its \
                  deadline; vision-calm and language-calm run the same jobs and never do. \
                  Nobody gains: more deadlines missed, and urgent jobs lose their place.",
    source: Source::Fetched {
        path: "presets/priority-inflation.json",
        len: 4_628,
        hash: 0xe831_3403_a9eb_6c3d,
    },
};

/// Every preset, in menu order.
pub const PRESETS: &[Preset] = &[
    AWS_WALKTHROUGH,
    PARTITIONED,
    POOLED,
    RESEARCH_ORG,
    PHILLY,
    KUEUE_THREE,
    KUEUE_FAIR,
    RECOVERY_NOT_FREE,
    PRIORITY_INFLATION,
];

/// The preset whose text is exactly `text`, if any.
pub fn matching(text: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.is(text))
}

/// A scenario decoded from a link as its preset's own text when it is that preset (a link
/// carries the JSON re-printed, so Back to a preset would otherwise read "Custom scenario");
/// the text unchanged otherwise. Only presets held in the page are compared.
pub fn as_preset_text(text: String) -> String {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return text;
    };
    for p in PRESETS {
        if let Source::Inline(json) = p.source {
            if json.len() * 2 >= text.len()
                && serde_json::from_str::<serde_json::Value>(json)
                    .ok()
                    .as_ref()
                    == Some(&value)
            {
                return json.to_string();
            }
        }
    }
    text
}

/// Fetches a preset's text from the page's own server, with a message naming what failed.
pub async fn fetch_text(path: &str) -> Result<String, String> {
    let failed = |e: wasm_bindgen::JsValue| {
        e.dyn_ref::<js_sys::Error>()
            .map_or_else(|| format!("{e:?}"), |e| String::from(e.message()))
    };
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(path))
        .await
        .map_err(failed)?
        .unchecked_into();
    if !response.ok() {
        return Err(format!(
            "the server answered {} {} for {path}",
            response.status(),
            response.status_text()
        ));
    }
    let text = JsFuture::from(response.text().map_err(failed)?)
        .await
        .map_err(failed)?;
    text.as_string()
        .ok_or_else(|| format!("{path} is not text"))
}

/// The preset with this id, if any.
pub fn by_id(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A preset's text: compiled in, or read from the file the page fetches.
    fn text_of(p: &Preset) -> String {
        match p.source {
            Source::Inline(text) => text.to_string(),
            Source::Fetched { path, .. } => {
                let file = format!("{}/www/{path}", env!("CARGO_MANIFEST_DIR"));
                std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"))
            }
        }
    }

    #[test]
    fn every_preset_is_a_valid_scenario() {
        for p in PRESETS {
            let text = text_of(p);
            let loaded =
                quotalab_engine::load(&text).unwrap_or_else(|e| panic!("{}: {:?}", p.id, e));
            assert!(
                loaded.warnings.is_empty(),
                "{}: {:?}",
                p.id,
                loaded.warnings
            );
            assert_eq!(by_id(p.id), Some(p));
            assert_eq!(matching(&text).map(|m| m.id), Some(p.id), "recognised");
        }
    }

    #[test]
    fn fetched_presets_are_recognised_by_their_fingerprint() {
        for p in PRESETS {
            if let Source::Fetched { path, len, hash } = p.source {
                let text = text_of(p);
                assert_eq!(
                    (len, hash),
                    (text.len(), fnv1a(text.as_bytes())),
                    "www/{path} changed: update the preset's len and hash"
                );
                // One byte more or changed is no longer the preset.
                assert!(!p.is(&format!("{text} ")));
                assert!(!p.is(&text.replacen('0', "1", 1)));
            }
        }
        assert!(
            PRESETS.iter().any(|p| p.inline().is_none()),
            "the large one"
        );
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
