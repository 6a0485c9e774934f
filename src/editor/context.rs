//! The editor's shared state: the parsed scenario the forms show, how they write it back
//! to the scenario text, and which field each validation problem belongs to.

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;
use quotalab_engine::Problem;
use serde_json::Value;

use super::json;
use super::lazy::{self, RawJobs};
use super::path::{Path, Seg};
use super::words;
use crate::state::AppState;

/// The scenario as the forms see it: the last text that parsed as a JSON object, and why
/// the current text does not (forms are read-only until it does). A large scenario's jobs
/// are kept as text ([`super::lazy`]): `value` has `"jobs": null` at their place and
/// `jobs` holds them; read them with [`Doc::list_len`], [`Doc::at`] and [`Doc::whole`].
#[derive(Clone, Debug)]
pub struct Doc {
    pub value: Arc<Value>,
    pub jobs: Option<Arc<RawJobs>>,
    pub error: Option<String>,
}

impl PartialEq for Doc {
    fn eq(&self, other: &Doc) -> bool {
        Arc::ptr_eq(&self.value, &other.value)
            && match (&self.jobs, &other.jobs) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
            && self.error == other.error
    }
}

impl Doc {
    /// A scenario text read for the forms (its jobs kept as text when it is large).
    fn read(text: &str) -> Result<Doc, String> {
        if let Some((value, jobs)) = lazy::read(text) {
            return Ok(Doc {
                value: Arc::new(value),
                jobs: Some(Arc::new(jobs)),
                error: None,
            });
        }
        json::parse_object(text).map(|v| Doc {
            value: Arc::new(v),
            jobs: None,
            error: None,
        })
    }

    /// The length of the list at the document's key `list` (0 while there is none).
    pub fn list_len(&self, list: &str) -> usize {
        match &self.jobs {
            Some(jobs) if list == "jobs" => jobs.len(),
            _ => self
                .value
                .get(list)
                .and_then(Value::as_array)
                .map_or(0, Vec::len),
        }
    }

    /// The value at `path` (a kept job is parsed for it).
    pub fn at(&self, path: &Path) -> Option<Value> {
        match (&self.jobs, path.segs()) {
            (Some(jobs), [Seg::Key(k), Seg::Idx(i), rest @ ..]) if k == "jobs" => {
                let job = jobs.get(*i)?;
                Path::from_segs(rest.to_vec()).get(&job).cloned()
            }
            (Some(jobs), [Seg::Key(k)]) if k == "jobs" => Some(jobs.all()),
            _ => path.get(&self.value).cloned(),
        }
    }

    /// The whole document, kept jobs parsed in (for an edit of the jobs).
    pub fn whole(&self) -> Value {
        let mut v = (*self.value).clone();
        if let (Some(jobs), Some(slot)) = (&self.jobs, v.get_mut("jobs")) {
            *slot = jobs.all();
        }
        v
    }

    /// The explicit jobs' ids, at most `limit` of them.
    pub fn job_ids(&self, limit: usize) -> Vec<String> {
        let id = |j: &Value| j.get("id").and_then(Value::as_str).map(str::to_string);
        match &self.jobs {
            Some(jobs) => (0..jobs.len().min(limit))
                .filter_map(|i| jobs.get(i).as_ref().and_then(id))
                .collect(),
            None => self
                .value
                .get("jobs")
                .and_then(Value::as_array)
                .map(|a| a.iter().take(limit).filter_map(id).collect())
                .unwrap_or_default(),
        }
    }
}

/// A text's identity while it moves, unchanged, from a form edit into the scenario signal:
/// its buffer's address and length (a `String` moved keeps its buffer). A form edit keeps
/// this rather than a copy of the text (16 MB for a large trace) to know that the document
/// it wrote is the one to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TextKey(usize, usize);

impl TextKey {
    fn of(text: &str) -> TextKey {
        TextKey(text.as_ptr() as usize, text.len())
    }
}

/// Problems (and warnings) sorted to the fields that show them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Assigned {
    /// Field path -> messages to show beside it, in the field's words ([`super::words`]).
    pub errors: HashMap<String, Vec<String>>,
    pub warnings: HashMap<String, Vec<String>>,
    /// Problems no field on screen can show (listed at the top of the editor).
    pub unclaimed: Vec<Problem>,
    pub unclaimed_warnings: Vec<Problem>,
}

/// The editor's context (cheap to copy).
#[derive(Clone, Copy)]
pub struct Ed {
    pub app: AppState,
    pub doc: Memo<Doc>,
    pub json_error: Memo<Option<String>>,
    pub assigned: Memo<Assigned>,
    /// The shares' names, in order.
    pub share_names: Memo<Vec<String>>,
    /// Instance types to pick from: the scenario's own, then the built-in catalogue.
    pub type_names: Memo<Vec<String>>,
    /// Paths of the fields on screen, with their labels (and a count: the same path may be
    /// shown twice).
    registry: StoredValue<HashMap<String, (u32, String)>>,
    registry_version: RwSignal<u64>,
    flush_pending: StoredValue<bool>,
    /// The text a form edit just wrote and the document it was written from: the document
    /// is taken as it is instead of parsing that text again (0.2 s for a 10 MB trace).
    written: StoredValue<Option<(TextKey, Doc)>>,
}

impl Ed {
    pub fn new(app: AppState) -> Ed {
        let written = StoredValue::new(None::<(TextKey, Doc)>);
        let doc = Memo::new(move |prev: Option<&Doc>| {
            let mine = written
                .try_update_value(Option::take)
                .flatten()
                .filter(|(key, _)| app.scenario.with(|text| *key == TextKey::of(text)));
            if let Some((_, doc)) = mine {
                return doc;
            }
            app.scenario.with(|text| match Doc::read(text) {
                Ok(doc) => doc,
                Err(e) => Doc {
                    value: prev
                        .map(|p| p.value.clone())
                        .unwrap_or_else(|| Arc::new(Value::Object(Default::default()))),
                    jobs: prev.and_then(|p| p.jobs.clone()),
                    error: Some(e),
                },
            })
        });
        let json_error = Memo::new(move |_| doc.with(|d| d.error.clone()));
        crate::state::history::record(app.history, app.scenario);
        // An information notice describes the step that was just taken ("Switched to the
        // Kueue model... Undo switches back."): once that step is undone or redone it no
        // longer holds, so it goes, unless the restored scenario is one a story or a preset
        // replaced, whose notice comes back with it. Error notices stay until dismissed.
        Effect::new(move |prev: Option<u64>| {
            let n = app.history.restores();
            if prev.is_some_and(|p| p != n) {
                app.notice_after_restore();
            }
            n
        });
        let registry = StoredValue::new(HashMap::<String, (u32, String)>::new());
        let registry_version = RwSignal::new(0u64);
        let assigned = Memo::new(move |_| {
            registry_version.track();
            let problems = app.problems.get();
            let warnings = if problems.is_empty() {
                app.warnings.get()
            } else {
                Vec::new()
            };
            doc.with(|d| registry.with_value(|reg| assign(reg, &problems, &warnings, d)))
        });
        let share_names = Memo::new(move |_| {
            doc.with(|d| {
                d.value
                    .get("shares")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .map(|s| {
                                s.get("name")
                                    .and_then(Value::as_str)
                                    .unwrap_or_default()
                                    .to_string()
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            })
        });
        let type_names = Memo::new(move |_| {
            let mut names: Vec<String> = doc.with(|d| {
                d.value
                    .get("instance_types")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|t| t.get("name").and_then(Value::as_str))
                            .filter(|n| !n.is_empty())
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default()
            });
            // The Kueue model picks among the scenario's own ResourceFlavors (those it
            // declares or uses); AWS's catalogue only when it has none yet.
            let kueue = doc.with(|d| {
                quotalab_engine::translate::model_of(&d.value)
                    == quotalab_engine::model::Model::Kueue
            });
            if kueue {
                for n in doc.with(|d| super::general::types_in_use(&d.value)) {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
                if !names.is_empty() {
                    return names;
                }
            }
            for n in quotalab_engine::catalogue::names() {
                if !names.iter().any(|x| x == n) {
                    names.push(n.to_string());
                }
            }
            names
        });
        Ed {
            app,
            doc,
            json_error,
            assigned,
            share_names,
            type_names,
            registry,
            registry_version,
            flush_pending: StoredValue::new(false),
            written,
        }
    }

    /// The value at `path` (reactive; changes only when that value does).
    pub fn value(&self, path: Path) -> Memo<Option<Value>> {
        let doc = self.doc;
        Memo::new(move |_| doc.with(|d| d.at(&path)))
    }

    /// Applies `f` to the scenario and writes it back as text. Does nothing while the text
    /// is not a JSON object (the forms are read-only then). With a large scenario's jobs kept
    /// as text, `f` sees `"jobs": null`: if it leaves that alone, the jobs are written back
    /// as they were; if it sets the jobs, they are what it set. An edit that reads or changes
    /// some of the jobs is [`Ed::edit_whole`] (`set` and `type_at` under `jobs` are).
    pub fn edit(&self, f: impl FnOnce(&mut Value)) {
        let doc = self.doc.get_untracked();
        if doc.error.is_some() {
            return;
        }
        let mut v = (*doc.value).clone();
        f(&mut v);
        if v == *doc.value {
            return;
        }
        let (text, written) = match &doc.jobs {
            Some(jobs) if v.get("jobs") == Some(&Value::Null) => {
                (lazy::to_text(&v, jobs), Some(jobs.clone()))
            }
            _ => (json::to_text(&v), None),
        };
        let written = Doc {
            value: Arc::new(v),
            jobs: written,
            error: None,
        };
        self.written.set_value(Some((TextKey::of(&text), written)));
        self.app.scenario.set(text);
    }

    /// [`Ed::edit`] for an edit that reads or changes some of the jobs (a share's jobs follow
    /// its rename, a job is added): on the whole document, a large scenario's kept jobs
    /// parsed in (and kept as text again when the new text is read).
    pub fn edit_whole(&self, f: impl FnOnce(&mut Value)) {
        let doc = self.doc.get_untracked();
        if doc.jobs.is_none() {
            return self.edit(f);
        }
        if doc.error.is_some() {
            return;
        }
        let mut whole = doc.whole();
        f(&mut whole);
        let text = json::to_text(&whole);
        if self.app.scenario.with_untracked(|t| *t != text) {
            self.app.scenario.set(text);
        }
    }

    /// Whether `path` is in a job kept as text (its edit needs the whole document).
    pub fn in_kept_jobs(&self, path: &Path) -> bool {
        matches!(path.segs().first(), Some(Seg::Key(k)) if k == "jobs")
            && self.doc.with_untracked(|d| d.jobs.is_some())
    }

    /// Sets (or, with None, removes) the value at `path`.
    pub fn set(&self, path: &Path, new: Option<Value>) {
        if self.in_kept_jobs(path) {
            self.edit_whole(|v| path.set(v, new));
        } else {
            self.edit(|v| path.set(v, new));
        }
    }

    /// [`Ed::edit`] as a keystroke of the field at `path`: the keystrokes of one field make
    /// one undo step ([`crate::state::History`]).
    pub fn type_at(&self, path: &Path, f: impl FnOnce(&mut Value)) {
        self.app.history.tag(path.to_string());
        if self.in_kept_jobs(path) {
            self.edit_whole(f);
        } else {
            self.edit(f);
        }
    }

    /// [`Ed::type_at`] for an edit that reads every job ([`Ed::edit_whole`]).
    pub fn type_at_whole(&self, path: &Path, f: impl FnOnce(&mut Value)) {
        self.app.history.tag(path.to_string());
        self.edit_whole(f);
    }

    /// Declares that a field labelled `label` shows the problems of `path` (until the
    /// calling component is removed).
    pub fn register(&self, path: String, label: String) {
        self.registry.update_value(|m| {
            let e = m.entry(path.clone()).or_insert((0, String::new()));
            e.0 += 1;
            e.1 = label;
        });
        self.schedule_flush();
        let ed = *self;
        on_cleanup(move || {
            ed.registry.try_update_value(|m| {
                if let Some((n, _)) = m.get_mut(&path) {
                    *n -= 1;
                    if *n == 0 {
                        m.remove(&path);
                    }
                }
            });
            ed.schedule_flush();
        });
    }

    /// Re-sorts problems once after a batch of fields came or went.
    fn schedule_flush(&self) {
        if self.flush_pending.try_get_value() != Some(false) {
            return;
        }
        self.flush_pending.set_value(true);
        let ed = *self;
        queue_microtask(move || {
            ed.flush_pending.try_set_value(false);
            ed.registry_version.try_update(|n| *n += 1);
        });
    }

    /// The messages shown beside the field at `path`: errors, then warnings.
    pub fn messages(&self, path: String) -> Memo<(Vec<String>, Vec<String>)> {
        let assigned = self.assigned;
        Memo::new(move |_| {
            assigned.with(|a| {
                (
                    a.errors.get(&path).cloned().unwrap_or_default(),
                    a.warnings.get(&path).cloned().unwrap_or_default(),
                )
            })
        })
    }

    /// How many problems lie at or under any of `prefixes` (for section badges).
    pub fn problems_under(&self, prefixes: &'static [&'static str]) -> Memo<usize> {
        let problems = self.app.problems;
        Memo::new(move |_| {
            problems.with(|ps| {
                ps.iter()
                    .filter(|p| {
                        let at = p.path.to_string();
                        prefixes.iter().any(|f| json::path_within(&at, f))
                    })
                    .count()
            })
        })
    }
}

/// Sorts each problem to the registered field with the longest path containing it, worded
/// for that field ([`words::beside`]; in full, [`words::located`], when it is inside it).
fn assign(
    reg: &HashMap<String, (u32, String)>,
    problems: &[Problem],
    warnings: &[Problem],
    doc: &Doc,
) -> Assigned {
    let mut out = Assigned::default();
    let place = |p: &Problem| -> Option<(String, String)> {
        // Fields are registered by their paths' text, so the problem's is matched as text.
        let at = p.path.to_string();
        let field = json::candidate_paths(&at).find(|c| reg.contains_key(*c))?;
        let label = reg.get(field).map(|(_, l)| l.as_str()).unwrap_or_default();
        let value = field_value(doc, field);
        let msg = if field == at {
            words::beside(label, p, value.as_ref())
        } else {
            words::located(p, None)
        };
        Some((field.to_string(), msg))
    };
    for p in problems {
        match place(p) {
            Some((field, msg)) => out.errors.entry(field).or_default().push(msg),
            None => out.unclaimed.push(p.clone()),
        }
    }
    for p in warnings {
        match place(p) {
            Some((field, msg)) => out.warnings.entry(field).or_default().push(msg),
            None => out.unclaimed_warnings.push(p.clone()),
        }
    }
    out
}

/// The value of a registered field: its path's value (paths of registered fields are
/// simple: keys and indices, the last key maybe an instance type's dotted name; a job kept
/// as text is parsed for it).
fn field_value(doc: &Doc, field: &str) -> Option<Value> {
    if let (Some(jobs), Some(rest)) = (&doc.jobs, field.strip_prefix("jobs[")) {
        let j = rest.find(']')?;
        let job = jobs.get(rest[..j].parse::<usize>().ok()?)?;
        let rest = &rest[j + 1..];
        return value_in(&job, rest.strip_prefix('.').unwrap_or(rest)).cloned();
    }
    value_in(&doc.value, field).cloned()
}

fn value_in<'a>(doc: &'a Value, field: &str) -> Option<&'a Value> {
    let mut v = doc;
    let mut rest = field;
    while !rest.is_empty() {
        if let Some(t) = rest.strip_prefix('[') {
            let j = t.find(']')?;
            v = v.as_array()?.get(t[..j].parse::<usize>().ok()?)?;
            rest = t[j + 1..].strip_prefix('.').unwrap_or(&t[j + 1..]);
            continue;
        }
        let obj = v.as_object()?;
        if let Some(x) = obj.get(rest) {
            return Some(x);
        }
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        v = obj.get(&rest[..end])?;
        rest = rest[end..].strip_prefix('.').unwrap_or(&rest[end..]);
    }
    Some(v)
}

/// The editor's context (inside [`super::Editor`]).
pub fn use_ed() -> Ed {
    expect_context::<Ed>()
}
