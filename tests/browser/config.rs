//! The "Import configuration" dialog (src/io/config.rs) in headless Chromium, with the
//! engine's `config` functions answering directly (the page runs them in the configuration
//! worker; the messages and `handle` are the same): the format is detected and shown,
//! every warning is listed, errors name the document and path, several AWS job queues
//! offer a choice, an import replaces the shares and keeps the jobs, and one undo takes
//! it back.
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --test browser config::`

use std::time::Duration;

use crate::common::{settle, sleep_ms};
use leptos::{html, mount::mount_to, prelude::*};
use quotalab_app::io::config::{self, ConfigDialog};
use quotalab_app::io::presets;
use quotalab_app::state::{history, AppState};
use quotalab_app::worker::service::{Backend, EngineService, Reply};
use quotalab_engine_worker::jobs::{self, Job};
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

/// Answers in the next task, as the worker would (without the worker).
struct Direct;

impl Backend for Direct {
    fn send(&self, job: Job, reply: Reply) {
        let answer = jobs::serve(job);
        set_timeout(move || reply(answer), Duration::ZERO);
    }
}

struct Dialog {
    root: HtmlElement,
    app: AppState,
    _handle: Box<dyn std::any::Any>,
}

impl Drop for Dialog {
    fn drop(&mut self) {
        self.root.remove();
    }
}

fn mount_dialog() -> Dialog {
    let div: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&div).unwrap();
    let slot = StoredValue::new_local(None::<AppState>);
    let handle = mount_to(div.clone(), move || {
        let app = AppState::new(presets::AWS_WALKTHROUGH_JSON.to_string());
        provide_context(app);
        provide_context(EngineService::new(Direct));
        history::record(app.history, app.scenario);
        slot.set_value(Some(app));
        let node = NodeRef::<html::Dialog>::new();
        Effect::new(move |_| {
            if node.get().is_some() {
                config::open_dialog(node);
            }
        });
        view! { <ConfigDialog node_ref=node /> }
    });
    Dialog {
        root: div,
        app: slot.get_value().expect("the page's state"),
        _handle: Box::new(handle),
    }
}

impl Dialog {
    fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    fn text(&self, selector: &str) -> String {
        self.find(selector)
            .map(|e| e.text_content().unwrap_or_default())
            .unwrap_or_default()
    }

    /// Waits (up to 5 s) until `selector` holds `want`.
    async fn wait_text(&self, selector: &str, want: &str) -> String {
        for _ in 0..100 {
            let t = self.text(selector);
            if t.contains(want) {
                return t;
            }
            sleep_ms(50).await;
        }
        panic!(
            "{selector} never said {want:?}; it says {:?}; the dialog: {}",
            self.text(selector),
            self.root.text_content().unwrap_or_default()
        );
    }

    async fn paste(&self, text: &str) {
        let area: HtmlTextAreaElement = self
            .find("[data-testid=config-text]")
            .unwrap()
            .unchecked_into();
        area.set_value(text);
        area.dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
        settle().await;
    }

    fn scenario(&self) -> Value {
        serde_json::from_str(&self.app.scenario.get_untracked()).unwrap()
    }

    fn names(&self, key: &str) -> Vec<String> {
        self.scenario()[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                s[if key == "jobs" { "id" } else { "name" }]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    }

    fn apply_enabled(&self) -> bool {
        !self
            .find("[data-testid=config-apply]")
            .unwrap()
            .has_attribute("disabled")
    }
}

const KUEUE: &str = "apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: background
spec:
  cohortName: org
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu, cpu]
    flavors:
    - name: ml.g5.xlarge
      resources:
      - name: nvidia.com/gpu
        nominalQuota: 2
      - name: cpu
        nominalQuota: 8
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: medium
spec:
  cohortName: org
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: ml.g5.xlarge
      resources:
      - name: nvidia.com/gpu
        nominalQuota: 1
";

#[wasm_bindgen_test]
async fn kueue_is_detected_warned_and_replaces_the_shares_keeping_the_jobs() {
    let d = mount_dialog();
    let before = d.app.scenario.get_untracked();
    assert_eq!(d.names("shares"), ["background", "medium", "protected"]);
    d.paste(KUEUE).await;
    d.wait_text("[data-testid=config-detected]", "Detected: Kueue YAML")
        .await;
    let summary = d
        .wait_text("[data-testid=config-summary]", "2 ClusterQueues")
        .await;
    assert!(summary.contains("background, medium"), "{summary}");
    assert!(summary.contains("1 cohort (org)"), "{summary}");
    let warnings = d.text("[data-testid=config-warnings]");
    assert!(
        warnings.contains("ClusterQueue background: namespaceSelector ignored"),
        "{warnings}"
    );
    assert!(warnings.contains("resource cpu"), "{warnings}");
    assert!(d.find("[data-testid=config-resource]").is_some());
    assert!(d.apply_enabled());

    d.find("[data-testid=config-apply]")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
    settle().await;
    assert_eq!(d.names("shares"), ["background", "medium"]);
    assert_eq!(d.names("jobs"), ["bg-p3", "bg-p2", "bg-p1", "med-1"]);
    assert_eq!(d.scenario()["model"], "kueue");
    let notice = d.app.notice.get_untracked().expect("a notice");
    assert!(notice.title.contains("Kueue YAML"), "{}", notice.title);

    // One undo step takes the whole import back.
    assert!(d.app.history.undo(d.app.scenario));
    assert_eq!(d.app.scenario.get_untracked(), before);
}

#[wasm_bindgen_test]
async fn errors_name_the_document_and_path() {
    let d = mount_dialog();
    d.paste(&KUEUE.replace("nominalQuota: 1", "nominalQuota: lots"))
        .await;
    let errors = d
        .wait_text("[data-testid=config-errors]", "cannot be imported")
        .await;
    // The page names the object and the field in the user's words (the CLI keeps
    // "[1].spec.resourceGroups[0].flavors[0].resources[0].nominalQuota": issue #34, walk).
    assert!(
        errors.contains(
            "ClusterQueue medium: nominalQuota of nvidia.com/gpu in flavor ml.g5.xlarge is not a quantity"
        ),
        "{errors}"
    );
    assert!(!errors.contains("[1].spec"), "{errors}");
    assert!(!errors.contains("resourceGroups["), "{errors}");
    assert!(!d.apply_enabled());

    // Kept jobs of a share the configuration lacks are named and, by default, dropped
    // (SPEC 16: the first import never fails for them); the import is ready.
    d.paste(&KUEUE.replace("name: medium", "name: other")).await;
    let unknown = d
        .wait_text("[data-testid=config-unknown]", "of “medium”")
        .await;
    assert!(unknown.contains("1 job"), "{unknown}");
    let warnings = d
        .wait_text(
            "[data-testid=config-warnings]",
            "which the configuration does not have, dropped",
        )
        .await;
    assert!(warnings.contains("\"medium\""), "{warnings}");
    assert!(d.apply_enabled());
    // Without the jobs, it imports too.
    let keep: HtmlInputElement = d
        .find("[data-testid=config-keep]")
        .unwrap()
        .unchecked_into();
    keep.click();
    d.wait_text("[data-testid=config-summary]", "background, other")
        .await;
    assert!(d.apply_enabled());
}

#[wasm_bindgen_test]
async fn several_aws_queues_offer_a_choice() {
    let d = mount_dialog();
    let share = |name: &str, queue: &str| {
        format!(
            r#"{{"quotaShareName":"{name}","jobQueue":"{queue}","capacityLimits":[{{"maxCapacity":1,"capacityUnit":"ml.g5.xlarge"}}],"resourceSharingConfiguration":{{"strategy":"LEND_AND_BORROW","borrowLimit":-1}},"preemptionConfiguration":{{"inSharePreemption":"ENABLED"}},"tags":{{"team":"x"}}}}"#
        )
    };
    let text = format!(
        "[{}, {}, {}]",
        share(
            "background",
            "arn:aws:batch:us-east-1:123456789012:job-queue/training"
        ),
        share("medium", "training"),
        share("protected", "inference")
    );
    d.paste(&text).await;
    d.wait_text("[data-testid=config-detected]", "Detected: AWS Batch JSON")
        .await;
    d.wait_text("[data-testid=config-errors]", "several job queues")
        .await;
    settle().await;
    let select: HtmlSelectElement = d
        .find("select[data-testid=config-queue]")
        .expect("a queue picker")
        .unchecked_into();
    let options: Vec<String> = (0..select.length())
        .filter_map(|i| select.item(i))
        .map(|o| o.text_content().unwrap_or_default())
        .collect();
    assert_eq!(options[1..], ["training", "inference"]);
    select.set_value("training");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    let summary = d
        .wait_text("[data-testid=config-summary]", "2 shares")
        .await;
    assert!(summary.contains("background, medium"), "{summary}");
    // The quota shares named, not their place in the file (issue #34).
    let warnings = d.text("[data-testid=config-warnings]");
    assert!(
        warnings.contains("Quota shares background, medium, protected: tags ignored"),
        "{warnings}"
    );
}
