//! The Explore panel: pick a field, a range, seeds and a metric; Run spreads the sweep over
//! the [`Pool`]; the chart, the progress line and the table follow each result; hovering a
//! dot shows its numbers, clicking it opens that variant in the main view.

use std::rc::Rc;
use std::sync::Arc;

use leptos::html;
use leptos::prelude::*;
use quotalab_engine::analysis::sweep::{seeded, Sweep};

use super::chart::{self, Drawn, RunResult};
use super::fields::{default_range, fields, Field};
use super::head::{planned, with_field_set, with_jobs, Planned, Planning, Whole};
use super::pool::{Event, Pool};
use super::protocol::pick;
use super::settings::{Metric, Settings};

/// The panel's state (cheap to copy): the base scenario, the settings as typed, the
/// results of the sweep shown.
#[derive(Clone, Copy)]
pub struct Explore {
    /// The scenario the fields come from and the sweep runs on (the page's).
    pub scenario: RwSignal<Arc<String>>,
    /// The scenario as the panel plans it: a large one without its jobs ([`planned`]), read
    /// a piece per task ([`Explore::replan`]).
    planned: RwSignal<Arc<Planned>>,
    /// Whether a large scenario is still being read for its plan (its fields are not
    /// offered yet).
    pub reading: RwSignal<bool>,
    /// Bumped per scenario: the pieces of an older one's reading stop.
    planning: StoredValue<u64>,
    pub fields: Memo<Vec<Field>>,
    /// Whether a seed changes anything in the scenario ([`seeded`]): without, every seed
    /// gives the same run, which the form says where the seeds are chosen.
    pub random: Memo<bool>,
    pub path: RwSignal<String>,
    pub from: RwSignal<String>,
    pub to: RwSignal<String>,
    pub step: RwSignal<String>,
    pub seeds: RwSignal<String>,
    pub metric: RwSignal<Metric>,
    /// Why the sweep cannot run (or stopped), in words.
    pub problems: RwSignal<Vec<String>>,
    /// A note about the sweep shown (every seed the same run, stopped, cancelled...).
    pub note: RwSignal<Option<String>>,
    pub results: RwSignal<Vec<RunResult>>,
    pub names: RwSignal<Vec<String>>,
    /// `(done, total)` runs, and whether runs are in flight.
    pub progress: RwSignal<(usize, usize)>,
    pub running: RwSignal<bool>,
    /// The settings of the sweep shown (what the link carries).
    pub shown: RwSignal<Option<Settings>>,
    /// The variant last opened in the main view (its text): not an edit of the base.
    pub opened: StoredValue<Option<String>>,
    sweep_id: StoredValue<u64>,
    plan: StoredValue<Option<Rc<Sweep>>, LocalStorage>,
    /// The whole text the sweep shown was planned from and where its jobs are, when they
    /// were left out of the plan ([`with_jobs`] puts them back in a variant).
    planned_from: StoredValue<Option<Whole>>,
    pool: StoredValue<Option<Pool>, LocalStorage>,
    /// The seed of run 0 (run `p * seeds + k` has seed `base + k`).
    base_seed: StoredValue<u64>,
}

impl Explore {
    /// A panel on `scenario`; its sweeps run in workers when `use_workers`.
    pub fn new(scenario: String, use_workers: bool) -> Explore {
        let planned = RwSignal::new(Arc::new(planned(&scenario)));
        let scenario = RwSignal::new(Arc::new(scenario));
        let e = Explore {
            scenario,
            planned,
            reading: RwSignal::new(false),
            planning: StoredValue::new(0),
            fields: Memo::new(move |_| planned.with(|p| fields(&p.text))),
            // A job's recovery odds make a scenario random too (read when it was planned).
            random: Memo::new(move |_| planned.with(|p| p.jobs_seeded || random(&p.text))),
            path: RwSignal::new(String::new()),
            from: RwSignal::new(String::new()),
            to: RwSignal::new(String::new()),
            step: RwSignal::new(String::new()),
            seeds: RwSignal::new("5".into()),
            metric: RwSignal::new(Metric::default()),
            problems: RwSignal::new(Vec::new()),
            note: RwSignal::new(None),
            results: RwSignal::new(Vec::new()),
            names: RwSignal::new(Vec::new()),
            progress: RwSignal::new((0, 0)),
            running: RwSignal::new(false),
            shown: RwSignal::new(None),
            opened: StoredValue::new(None),
            sweep_id: StoredValue::new(0),
            plan: StoredValue::new_local(None),
            planned_from: StoredValue::new(None),
            pool: StoredValue::new_local(None),
            base_seed: StoredValue::new(0),
        };
        let pool = Pool::new(use_workers, move |event| e.on_event(event));
        e.pool.set_value(Some(pool));
        e
    }

    /// A panel whose scenario is read later ([`Explore::scenario_changed`]): until then it
    /// offers no field and says nothing of the seeds (the note that nothing is random would
    /// be about no scenario).
    pub fn unread(use_workers: bool) -> Explore {
        let e = Explore::new(String::new(), use_workers);
        e.reading.set(true);
        e
    }

    /// The settings as typed.
    pub fn settings(&self) -> Settings {
        Settings {
            path: self.path.get_untracked(),
            from: self.from.get_untracked(),
            to: self.to.get_untracked(),
            step: self.step.get_untracked(),
            seeds: self.seeds.get_untracked().trim().parse().unwrap_or(0),
            metric: self.metric.get_untracked(),
        }
    }

    /// The shown sweep's setting in the editor's words (`research: borrow limit`), or its
    /// path when no field of the scenario has it; empty before a sweep. Tracks the sweep.
    pub fn shown_label(&self) -> String {
        let path = self
            .shown
            .with(|s| s.as_ref().map(|s| s.path.clone()))
            .unwrap_or_default();
        self.label_of(path)
    }

    /// [`Explore::shown_label`] without tracking (event handlers, the hover text).
    pub fn shown_label_untracked(&self) -> String {
        let path = self
            .shown
            .with_untracked(|s| s.as_ref().map(|s| s.path.clone()))
            .unwrap_or_default();
        self.label_of(path)
    }

    /// A problem in the page's words: the field's label for its path, the message without
    /// the command line's syntax (the CLI keeps both).
    fn in_words(&self, path: &str, message: &str) -> String {
        let m = crate::ui::words::plain_message(message);
        if path.is_empty() {
            return m;
        }
        let known = self
            .fields
            .with_untracked(|f| f.iter().find(|f| f.path == path).map(|f| f.label.clone()));
        let label = known.unwrap_or_else(|| crate::ui::words::place(path));
        // "(with shares[0].borrow_limit=-10, seed 7)": the variant by the field's label too.
        let m = m.replace(&format!("{path}="), &format!("{label} = "));
        format!("{label}: {m}")
    }

    fn label_of(&self, path: String) -> String {
        self.fields.with_untracked(|f| {
            f.iter()
                .find(|f| f.path == path)
                .map_or(path.clone(), |f| f.label.clone())
        })
    }

    /// Fills the form from `s` (a link's settings).
    pub fn set_settings(&self, s: &Settings) {
        self.path.set(s.path.clone());
        self.from.set(s.from.clone());
        self.to.set(s.to.clone());
        self.step.set(s.step.clone());
        self.seeds.set(s.seeds.to_string());
        self.metric.set(s.metric);
    }

    /// Picks field `path`, with a default range around its value.
    pub fn pick(&self, path: &str) {
        let value = self
            .fields
            .with_untracked(|f| f.iter().find(|f| f.path == path).map(|f| f.value));
        self.path.set(path.to_string());
        if let Some(v) = value {
            let (from, to, step) = default_range(v);
            self.from.set(from);
            self.to.set(to);
            self.step.set(step);
        }
    }

    /// Plans and starts the sweep of the settings as typed (a sweep in flight stops first);
    /// a plan the engine refuses shows its problems and runs nothing.
    pub fn run(&self) {
        self.stop(None);
        let settings = self.settings();
        let text = self.scenario.get_untracked();
        // A setting the scenario leaves unset is written at its starting value first.
        let unset = self.fields.with_untracked(|f| {
            f.iter()
                .find(|f| f.path == settings.path && f.unset.is_some())
                .cloned()
        });
        let (text, head) = match unset {
            // (The Run button waits while a large scenario is read; a call meanwhile plans
            // it at once.)
            None if self.reading.get_untracked() => {
                let head = Arc::new(planned(&text));
                (text, head)
            }
            Some(f) => {
                let set = self
                    .planned
                    .with_untracked(|p| with_field_set(p, &text, &f));
                match set {
                    Some((text, head)) => (Arc::new(text), Arc::new(head)),
                    None => {
                        let text = Arc::new(super::fields::with_field(&text, &f));
                        let head = Arc::new(planned(&text));
                        (text, head)
                    }
                }
            }
            None => (text, self.planned.get_untracked()),
        };
        let plan = match settings.plan(&head.text) {
            Ok(plan) => Rc::new(plan),
            Err(problems) => {
                let lines = problems
                    .iter()
                    .map(|p| self.in_words(&p.path.to_string(), &p.message))
                    .collect();
                self.problems.set(lines);
                return;
            }
        };
        let names: Vec<String> = serde_json::from_str::<serde_json::Value>(&head.text)
            .ok()
            .and_then(|d| {
                d.get("shares")?.as_array().map(|s| {
                    s.iter()
                        .map(|s| s["name"].as_str().unwrap_or("?").to_string())
                        .collect()
                })
            })
            .unwrap_or_default();
        self.base_seed.set_value(plan.variant(0).1);
        self.sweep_id.update_value(|n| *n += 1);
        let id = self.sweep_id.get_value();
        self.problems.set(Vec::new());
        // (A scenario with nothing random is said to be so beside the seeds, before the
        // runs: `random`.)
        self.note.set(None);
        self.names.set(names);
        self.results.set(Vec::new());
        self.progress.set((0, plan.runs()));
        self.running.set(true);
        self.shown.set(Some(settings.clone()));
        self.plan.set_value(Some(plan.clone()));
        self.planned_from
            .set_value(head.jobs.map(|jobs| (text.clone(), jobs)));
        if let Some(pool) = self.pool.get_value() {
            pool.start(id, plan, &text, &settings.vary_arg());
        }
    }

    /// Stops the sweep in flight (the Cancel button, a new sweep, an edit); `why` is shown.
    pub fn stop(&self, why: Option<String>) {
        let cancelled = self.pool.get_value().is_some_and(|p| p.cancel());
        self.running.set(false);
        if cancelled {
            if let Some(why) = why {
                let (done, total) = self.progress.get_untracked();
                self.note
                    .set(Some(format!("{why} after {done} / {total} runs.")));
            }
        }
    }

    /// The page's scenario changed: unless it is the variant just opened, the sweep in
    /// flight stops and its results go (last edit wins), and the fields follow.
    pub fn scenario_changed(&self, text: String) {
        // A panel made before the page's scenario was read ([`Explore::unread`]) reads it
        // whatever it is.
        let unread = self.planning.get_value() == 0 && self.reading.get_untracked();
        if !unread
            && self
                .opened
                .with_value(|o| o.as_deref() == Some(text.as_str()))
        {
            return;
        }
        if !unread
            && self
                .scenario
                .with_untracked(|s| crate::io::tools::same_text(s.as_bytes(), text.as_bytes()))
        {
            return;
        }
        let had = self.running.get_untracked() || self.results.with_untracked(|r| !r.is_empty());
        self.stop(None);
        // Stale ids: anything still arriving is ignored.
        self.sweep_id.update_value(|n| *n += 1);
        self.results.set(Vec::new());
        self.progress.set((0, 0));
        // Only a sweep shown goes (a link's settings not run yet stay in the link).
        if self.shown.with_untracked(Option::is_some) {
            self.shown.set(None);
        }
        self.scenario.set(Arc::new(text));
        self.replan();
        if had {
            self.note.set(Some(
                "The scenario changed: the sweep of the earlier one was cleared. Run again to sweep this one.".into(),
            ));
        }
    }

    /// Plans the scenario: a small one at once, a large one a piece per task
    /// ([`Planning::STEP_BYTES`]), its fields offered once it is read (issue #30: a 16 MB
    /// trace's pass held the opening's task ~90 ms).
    fn replan(&self) {
        self.planning.update_value(|n| *n += 1);
        let text = self.scenario.get_untracked();
        let mut planning = Planning::new(&text);
        match planning.step(&text, Planning::STEP_BYTES) {
            Some(done) => {
                self.planned.set(Arc::new(done));
                self.reading.set(false);
            }
            None => {
                self.reading.set(true);
                self.plan_on(self.planning.get_value(), text, planning);
            }
        }
    }

    /// The next piece of plan `id`'s reading, in a task of its own.
    fn plan_on(self, id: u64, text: Arc<String>, mut planning: Planning) {
        set_timeout(
            move || {
                if self.planning.try_get_value() != Some(id) {
                    return;
                }
                match planning.step(&text, Planning::STEP_BYTES) {
                    Some(done) => {
                        self.planned.set(Arc::new(done));
                        self.reading.set(false);
                    }
                    None => self.plan_on(id, text, planning),
                }
            },
            std::time::Duration::ZERO,
        );
    }

    fn on_event(&self, event: Event) {
        let id = self.sweep_id.get_value();
        match event {
            Event::Done {
                sweep, run, shares, ..
            } if sweep == id => {
                let Some(plan) = self.plan.get_value() else {
                    return;
                };
                let seeds = plan.seeds() as usize;
                let point = run as usize / seeds;
                let value = plan
                    .values(point)
                    .first()
                    .and_then(|(_, v)| v.as_f64())
                    .unwrap_or(0.0);
                let seed = self.base_seed.get_value() + (run as usize % seeds) as u64;
                self.results.update(|r| {
                    r.push(RunResult {
                        run,
                        point,
                        value,
                        seed,
                        shares: shares.into_iter().map(|(_, n)| n).collect(),
                    })
                });
                let progress = self.pool.get_value().map_or((0, 0), |p| p.progress());
                self.progress.set(progress);
                if progress.0 == progress.1 {
                    self.running.set(false);
                }
            }
            Event::Refused { sweep, problems } if sweep == id => {
                self.running.set(false);
                let mut lines =
                    vec!["A variant of the sweep was refused, so the sweep stopped:".to_string()];
                lines.extend(
                    problems
                        .into_iter()
                        .map(|(path, m)| self.in_words(&path, &m)),
                );
                self.problems.set(lines);
            }
            Event::Failed { sweep, message } if sweep == id => {
                self.running.set(false);
                self.problems
                    .set(vec![format!("The sweep stopped: {message}")]);
            }
            _ => {}
        }
    }

    /// The scenario text of result `i`'s variant (its value and seed), pretty-printed.
    pub fn variant_text(&self, i: usize) -> Option<String> {
        let run = self.results.with_untracked(|r| r.get(i).map(|r| r.run))?;
        let plan = self.plan.get_value()?;
        let (doc, _) = plan.variant(run as usize);
        match self.planned_from.get_value() {
            Some((whole, jobs)) => with_jobs(&doc, &whole, jobs),
            None => serde_json::to_string_pretty(&doc).ok(),
        }
    }

    /// Stops the workers for good.
    pub fn shutdown(&self) {
        if let Some(p) = self.pool.get_value() {
            p.shutdown();
        }
    }
}

/// A number of the sweep's form, `label` before it, bound to `value` as typed (`mode`: the
/// input's `inputmode`, `size`: its width in characters).
fn number_field(
    label: &'static str,
    testid: &'static str,
    mode: &'static str,
    size: &'static str,
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <label>
            {label}
            <input data-testid=testid inputmode=mode size=size prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev)) />
        </label>
    }
}

/// Whether a seed changes anything in scenario `text` ([`seeded`]: generated workloads or
/// a recovery draw). A text naming neither `workloads` nor `recovery` is not parsed.
fn random(text: &str) -> bool {
    (text.contains("\"workloads\"") || text.contains("\"recovery\""))
        && serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|d| d.as_object().map(seeded))
            .unwrap_or(true)
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e12 {
        format!("{}", x as i64)
    } else if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

/// The panel's body (the dialog around it is the tools' [`ExploreDialog`]): `on_open`
/// receives the scenario text of a clicked variant.
#[component]
pub fn ExplorePanel(explore: Explore, on_open: Callback<String>) -> impl IntoView {
    let e = explore;
    let canvas = NodeRef::<html::Canvas>::new();
    let drawn = StoredValue::new(Drawn::default());
    let hover = RwSignal::new(None::<(usize, usize, f64, f64)>);
    // Redraw on each result and on a change of metric.
    Effect::new(move |_| {
        let metric = e.metric.get();
        let names = e.names.get();
        let label = e.shown_label();
        e.results.with(|results| {
            let Some(c) = canvas.get() else { return };
            match chart::draw(&c, results, &names, metric, &label) {
                Ok(d) => {
                    let _ = c.set_attribute("data-bands", &d.bands.to_string());
                    let _ = c.set_attribute("data-dots", &d.dots.len().to_string());
                    // The first dot in CSS pixels (the tests hover and click it).
                    if let Some(&(x, y, _, _)) = d.dots.first() {
                        let k = c_ratio(canvas);
                        let _ = c.set_attribute(
                            "data-dot",
                            &format!("{},{}", x as f64 / k, y as f64 / k),
                        );
                    }
                    drawn.set_value(d);
                }
                Err(err) => leptos::logging::warn!("explore chart: {err}"),
            }
        });
        hover.set(None);
    });
    // Canvas pixels of a mouse event.
    let at = move |ev: &leptos::ev::MouseEvent| -> Option<(f64, f64, f64, f64)> {
        let c = canvas.get_untracked()?;
        let rect = c.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return None;
        }
        let (cx, cy) = (
            ev.client_x() as f64 - rect.left(),
            ev.client_y() as f64 - rect.top(),
        );
        let k = c.width() as f64 / rect.width();
        Some((cx * k, cy * k, cx, cy))
    };
    let near = move |ev: &leptos::ev::MouseEvent| {
        let (x, y, cx, cy) = at(ev)?;
        let dpr = c_ratio(canvas);
        drawn
            .with_value(|d| d.nearest(x, y, 10.0 * dpr))
            .map(|(r, s)| (r, s, cx, cy))
    };
    let open = move |i: usize| {
        if let Some(text) = e.variant_text(i) {
            e.opened.set_value(Some(text.clone()));
            on_open.run(text);
        }
    };
    let hover_text = move || {
        let (i, s, _, _) = hover.get()?;
        let names = e.names.get_untracked();
        e.shown.with_untracked(Option::is_some).then_some(())?;
        let setting = e.shown_label_untracked();
        e.results.with_untracked(|rs| {
            let r = rs.get(i)?;
            let n = r.shares.get(s)?;
            let numbers = Metric::ALL
                .iter()
                .map(|m| format!("{}: {}", m.short(), m.show(pick(n, *m))))
                .collect::<Vec<_>>()
                .join("; ");
            Some(format!(
                "{} = {}, seed {}, {}: {numbers}. Click to open this variant.",
                setting,
                fmt_num(r.value),
                r.seed,
                names.get(s).map_or("?", String::as_str),
            ))
        })
    };
    let options = move || {
        e.fields
            .get()
            .into_iter()
            .map(|f| {
                let path = f.path.clone();
                let selected = move || e.path.with(|p| *p == path);
                view! {
                    <option value=f.path.clone() prop:selected=selected>
                        {match f.unset {
                            Some(u) => format!("{} ({u})", f.label),
                            None => format!("{} (now {})", f.label, fmt_num(f.value)),
                        }}
                    </option>
                }
            })
            .collect_view()
    };
    let metric_options = Metric::ALL
        .iter()
        .map(|m| {
            let m = *m;
            view! {
                <option value=m.code() prop:selected=move || e.metric.get() == m>{m.label()}</option>
            }
        })
        .collect_view();
    let progress_text = move || {
        let (done, total) = e.progress.get();
        if total == 0 {
            // A large scenario's fields are offered once it is read.
            if e.reading.get() {
                "Reading the scenario…".to_string()
            } else {
                String::new()
            }
        } else if e.running.get() {
            format!("{done} / {total} runs")
        } else if done < total && e.note.with(Option::is_some) {
            // The note says why it stopped ("Cancelled after 418 / 1200 runs.").
            format!("{done} / {total} runs")
        } else if done < total {
            // Stopped early (an edit): not "done".
            format!("{done} / {total} runs, stopped")
        } else {
            format!("{done} / {total} runs, done")
        }
    };
    let table = move || {
        let names = e.names.get();
        let metric = e.metric.get();
        let setting = e.shown_label();
        let rows = e.results.with(|r| chart::bands(r, names.len(), metric));
        (!rows.is_empty()).then(|| {
            view! {
                <details class="explore-table" data-testid="explore-table">
                    <summary>"The results as a table"</summary>
                    <table>
                        <caption>{format!("{}: median (10th-90th percentile) over the seeds done", metric.label())}</caption>
                        <thead>
                            <tr>
                                <th scope="col">{setting}</th>
                                {names.iter().map(|n| view! { <th scope="col">{n.clone()}</th> }).collect_view()}
                            </tr>
                        </thead>
                        <tbody>
                            {rows
                                .into_iter()
                                .map(|(x, b)| {
                                    view! {
                                        <tr>
                                            <th scope="row">{fmt_num(x)}</th>
                                            {b
                                                .into_iter()
                                                .map(|cell| {
                                                    // In the metric's unit, as the chart and the
                                                    // hover say it (goodput 88.2 %, not 0.882).
                                                    let text = match cell {
                                                        Some([lo, mid, hi]) => format!("{} ({} to {})", metric.show(mid), metric.show(lo), metric.show(hi)),
                                                        None => metric.none().to_string(),
                                                    };
                                                    view! { <td>{text}</td> }
                                                })
                                                .collect_view()}
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </details>
            }
        })
    };
    view! {
        <div class="explore-panel" data-testid="explore-panel">
            <p class="explore-intro">
                "Vary one setting of this scenario over a range, for several seeds, and see how a metric moves: the line is the median over the seeds, the band the 10th to 90th percentile."
            </p>
            <form
                class="explore-form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    e.run();
                }
            >
                <label class="explore-field">
                    "Setting"
                    <select
                        data-testid="explore-field"
                        on:change=move |ev| e.pick(&event_target_value(&ev))
                    >
                        <option value="" disabled=true prop:selected=move || e.path.with(String::is_empty)>
                            "Pick a setting…"
                        </option>
                        {options}
                    </select>
                </label>
                {move || {
                    if e.reading.get() {
                        return None;
                    }
                    let why = e
                        .planned
                        .with(|p| super::fields::missing_with(&p.text, p.jobs.is_some()));
                    (!why.is_empty()).then(|| view! {
                        <details class="explore-missing" data-testid="explore-missing">
                            <summary>"A setting is not listed?"</summary>
                            <ul>{why.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                        </details>
                    })
                }}
                {number_field("From", "explore-from", "decimal", "8", e.from)}
                {number_field("To", "explore-to", "decimal", "8", e.to)}
                {number_field("Step", "explore-step", "decimal", "8", e.step)}
                {number_field("Seeds", "explore-seeds", "numeric", "4", e.seeds)}
                <label>
                    "Metric"
                    <select
                        data-testid="explore-metric"
                        on:change=move |ev| {
                            if let Some(m) = Metric::from_code(&event_target_value(&ev)) {
                                e.metric.set(m);
                            }
                        }
                    >
                        {metric_options}
                    </select>
                </label>
                // (Not while a large scenario is read: its plan is not known yet.)
                <button type="submit" class="explore-run" data-testid="explore-run" prop:disabled=move || e.reading.get()>"Run sweep"</button>
                <button
                    type="button"
                    data-testid="explore-cancel"
                    prop:disabled=move || !e.running.get()
                    on:click=move |_| e.stop(Some("Cancelled".into()))
                >
                    "Cancel"
                </button>
            </form>
            // Said where the seeds are chosen, before any run (issue #34, fresh-eyes walk:
            // it showed only after the runs).
            <p class="explore-seeds-note" data-testid="explore-seeds-note" hidden=move || e.random.get() || e.reading.get()>
                "Nothing in this scenario is random: every seed gives the same run, so 1 seed is enough (seeds change only generated workloads and recovery draws)."
            </p>
            {move || {
                let p = e.problems.get();
                (!p.is_empty()).then(|| view! {
                    <ul class="explore-problems" role="alert" data-testid="explore-problems">
                        {p.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                    </ul>
                })
            }}
            <div class="explore-progress">
                <progress
                    max=move || e.progress.get().1.max(1)
                    prop:value=move || e.progress.get().0
                    hidden=move || e.progress.get().1 == 0
                ></progress>
                <span role="status" data-testid="explore-progress">{progress_text}</span>
                <span class="explore-note" data-testid="explore-note">{move || e.note.get()}</span>
            </div>
            // Before the first run: a line saying what will appear, not an empty box.
            <p class="explore-empty" data-testid="explore-empty" hidden=move || e.shown.with(Option::is_some)>
                "Pick a setting, a range and the seeds, then Run: each share's median and its 10th-90th percentile band over the seeds appear here as the runs finish."
            </p>
            <div class="explore-chart">
                // Hidden before the first run by the attribute, not only the panel's
                // stylesheet: that is linked when the panel mounts and may arrive after the
                // dialog shows.
                <canvas
                    node_ref=canvas
                    data-testid="explore-canvas"
                    hidden=move || e.shown.with(Option::is_none)
                    role="img"
                    aria-label=move || format!("{} against the setting, per share (the table below has the numbers)", e.metric.get().label())
                    on:mousemove=move |ev| hover.set(near(&ev))
                    on:mouseleave=move |_| hover.set(None)
                    on:click=move |ev| {
                        if let Some((i, _, _, _)) = near(&ev) {
                            open(i);
                        }
                    }
                ></canvas>
                <p
                    class="explore-hover"
                    data-testid="explore-hover"
                    hidden=move || hover.with(Option::is_none)
                    style:left=move || hover.get().map(|h| format!("{}px", h.2 + 12.0))
                    style:top=move || hover.get().map(|h| format!("{}px", h.3 + 12.0))
                >
                    {hover_text}
                </p>
            </div>
            // The shares' key under the chart (drawn inside, it hid the top right points).
            <ul class="legend" aria-label="Legend" data-testid="explore-legend" hidden=move || e.shown.with(Option::is_none)>
                {move || {
                    let names = e.names.get();
                    let metric = e.metric.get();
                    // A share without a value at some values: the gap in its line, said.
                    let (gaps, values) = e.results.with(|r| {
                        let b = chart::bands(r, names.len(), metric);
                        (chart::gaps(&b, names.len()), b.len())
                    });
                    names
                        .into_iter()
                        .enumerate()
                        .map(|(i, name)| {
                            let c = crate::ui::palette::css(i);
                            let gap = gaps.get(i).copied().unwrap_or(0);
                            let note = match gap {
                                0 => String::new(),
                                g if g == values => format!(" ({}: not drawn)", metric.none()),
                                g => format!(" ({} at {g} of {values} values: a gap)", metric.none()),
                            };
                            view! {
                                <li>
                                    <span class="swatch" style:background-color=c aria-hidden="true"></span>
                                    {name}
                                    <span class="legend-gap">{note}</span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
            {table}
        </div>
    }
}

fn c_ratio(canvas: NodeRef<html::Canvas>) -> f64 {
    canvas
        .get_untracked()
        .map(|c| {
            let w = c.get_bounding_client_rect().width();
            if w > 0.0 {
                c.width() as f64 / w
            } else {
                1.0
            }
        })
        .unwrap_or(1.0)
}
