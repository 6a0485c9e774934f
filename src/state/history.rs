//! Undo and redo over the scenario text: a bounded history of whole texts, recorded from
//! every change of [`AppState::scenario`](super::AppState::scenario) (form edits, the raw
//! JSON editor, presets, imports, opened files and links alike).
//!
//! The keystrokes of one form field make one step: an edit tagged with a field's key
//! ([`History::tag`]) that follows an edit with the same key joins it, until the field is
//! left ([`History::seal`]) or another change comes between. Steps are kept while they are
//! at most [`MAX_STEPS`] and [`MAX_BYTES`] together; the oldest go first.

use std::collections::VecDeque;

use leptos::prelude::*;

/// The most undo steps kept.
pub const MAX_STEPS: usize = 100;

/// The most bytes of scenario text the undo steps keep together (an imported trace is
/// megabytes; at least one step is always kept).
pub const MAX_BYTES: usize = 32 * 1024 * 1024;

#[derive(Default)]
struct Steps {
    /// Older texts, newest last.
    past: VecDeque<String>,
    /// Texts undone, the next redo last.
    future: Vec<String>,
    /// The text the history last saw (None before the first).
    current: Option<String>,
    /// The field key of the step that made `current`, while more of its keystrokes may join.
    open_key: Option<String>,
    /// The key the next change is tagged with.
    next_key: Option<String>,
    /// A text set by undo or redo, not to be recorded as a new step.
    restoring: Option<String>,
    bytes: usize,
}

impl Steps {
    fn push_past(&mut self, text: String) {
        self.bytes += text.len();
        self.past.push_back(text);
        while self.past.len() > MAX_STEPS || (self.bytes > MAX_BYTES && self.past.len() > 1) {
            if let Some(old) = self.past.pop_front() {
                self.bytes -= old.len();
            }
        }
    }

    fn observe(&mut self, text: &str) {
        let key = self.next_key.take();
        let Some(current) = self.current.as_deref() else {
            self.current = Some(text.to_string());
            return;
        };
        if current == text {
            return;
        }
        if self.restoring.as_deref() == Some(text) {
            self.restoring = None;
            self.current = Some(text.to_string());
            return;
        }
        self.restoring = None;
        self.future.clear();
        let joins = key.is_some() && key == self.open_key;
        if !joins {
            let old = self.current.take().unwrap_or_default();
            self.push_past(old);
        }
        self.current = Some(text.to_string());
        self.open_key = key;
    }
}

/// The scenario's undo history (cheap to copy).
#[derive(Clone, Copy)]
pub struct History {
    steps: StoredValue<Steps>,
    /// (steps to undo, steps to redo), for the buttons.
    counts: RwSignal<(usize, usize)>,
    /// Bumped by each undo and redo (fields drop what was typed but not applied).
    restores: RwSignal<u64>,
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History {
            steps: StoredValue::new(Steps::default()),
            counts: RwSignal::new((0, 0)),
            restores: RwSignal::new(0),
        }
    }

    fn publish(&self) {
        let counts = self.steps.with_value(|s| (s.past.len(), s.future.len()));
        if self.counts.get_untracked() != counts {
            self.counts.set(counts);
        }
    }

    /// Records that the scenario text is now `text` (see the module docs).
    pub fn observe(&self, text: &str) {
        self.steps.update_value(|s| s.observe(text));
        self.publish();
    }

    /// Tags the next change with the key of the field making it (its JSON path).
    pub fn tag(&self, key: impl Into<String>) {
        let key = key.into();
        self.steps.update_value(|s| s.next_key = Some(key));
    }

    /// Ends the step being typed: the next edit, even of the same field, is a new step.
    pub fn seal(&self) {
        self.steps.update_value(|s| s.open_key = None);
    }

    /// Whether there is something to undo (reactive).
    pub fn can_undo(&self) -> bool {
        self.counts.with(|c| c.0 > 0)
    }

    /// Whether there is something to redo (reactive).
    pub fn can_redo(&self) -> bool {
        self.counts.with(|c| c.1 > 0)
    }

    /// Bumped by each undo and redo (reactive).
    pub fn restores(&self) -> u64 {
        self.restores.get()
    }

    /// The text before the last step, making the current one redoable; None if there is
    /// nothing to undo. The caller sets the scenario to it.
    fn step_back(&self, forward: bool) -> Option<String> {
        let text = self.steps.try_update_value(|s| {
            let current = s.current.clone()?;
            let prev = if forward {
                let t = s.future.pop()?;
                s.push_past(current);
                t
            } else {
                let t = s.past.pop_back()?;
                s.bytes -= t.len();
                s.future.push(current);
                t
            };
            s.current = Some(prev.clone());
            s.restoring = Some(prev.clone());
            s.open_key = None;
            s.next_key = None;
            Some(prev)
        })??;
        self.publish();
        self.restores.update(|n| *n += 1);
        Some(text)
    }

    /// Undoes the last step of `scenario`; false if there was none.
    pub fn undo(&self, scenario: RwSignal<String>) -> bool {
        // A large change not recorded yet ([`record`]) is recorded first.
        scenario.with_untracked(|t| self.observe(t));
        self.step_back(false).map(|t| scenario.set(t)).is_some()
    }

    /// Redoes the last undone step of `scenario`; false if there was none.
    pub fn redo(&self, scenario: RwSignal<String>) -> bool {
        scenario.with_untracked(|t| self.observe(t));
        self.step_back(true).map(|t| scenario.set(t)).is_some()
    }
}

/// Records every change of `scenario` in `history` (call once, inside the page's owner).
///
/// A large text (an imported trace: megabytes) is copied into the history in a task of its
/// own, after the task that changed it (issue #30: no long task); a change made again
/// before that task runs is recorded then, as one step.
pub fn record(history: History, scenario: RwSignal<String>) {
    history.observe(&scenario.get_untracked());
    let waiting = StoredValue::new(false);
    Effect::new(move |_| {
        if scenario.with(String::len) < quotalab_engine_worker::kept::LAZY_BYTES {
            waiting.set_value(false);
            scenario.with_untracked(|t| history.observe(t));
        } else if !waiting.get_value() {
            waiting.set_value(true);
            set_timeout(
                move || {
                    if waiting.try_get_value() == Some(true) {
                        waiting.set_value(false);
                        scenario.with_untracked(|t| history.observe(t));
                    }
                },
                std::time::Duration::ZERO,
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(texts: &[(&str, Option<&str>)]) -> Steps {
        let mut s = Steps::default();
        for (t, key) in texts {
            s.next_key = key.map(str::to_string);
            s.observe(t);
        }
        s
    }

    #[test]
    fn keystrokes_of_one_field_are_one_step() {
        let s = steps(&[
            ("a", None),
            ("b", Some("shares[0].name")),
            ("bc", Some("shares[0].name")),
            ("bcd", Some("shares[0].name")),
            ("x", Some("jobs[0].id")),
            ("preset", None),
            ("preset2", None),
        ]);
        assert_eq!(s.past, ["a", "bcd", "x", "preset"]);
        assert_eq!(s.current.as_deref(), Some("preset2"));
    }

    #[test]
    fn bounded() {
        let mut s = Steps::default();
        for i in 0..(MAX_STEPS + 20) {
            s.observe(&i.to_string());
        }
        assert_eq!(s.past.len(), MAX_STEPS);
        assert_eq!(s.past.front().map(String::as_str), Some("19"));
        assert_eq!(s.bytes, s.past.iter().map(String::len).sum::<usize>());
    }
}
