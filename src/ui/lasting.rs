//! Signals that wait: what shows that work is under way appears only once the work has
//! lasted, so a quick re-run changes nothing on screen until its result is drawn.

use std::time::Duration;

use leptos::prelude::*;

/// How long work must have lasted before the page shows it: the results dimmed and labelled
/// stale, the progress bar with Cancel, "(updating…)" in the status line. Shown at once,
/// each cost the whole page a style, layout and paint pass on every run of the walkthrough,
/// and the bar and the label moved everything under them down and back up.
pub const SHOW_WORK_AFTER: Duration = Duration::from_millis(300);

/// `flag`, but true only once it has been true for `delay`; false as soon as it is.
pub fn lasting(flag: Signal<bool>, delay: Duration) -> Signal<bool> {
    // A memo: `flag` may be derived from a signal that changes often (a run's progress),
    // and only its own changes restart the wait.
    let on = Memo::new(move |_| flag.get());
    let shown = RwSignal::new(false);
    Effect::new(move |pending: Option<Option<TimeoutHandle>>| {
        if let Some(Some(h)) = pending {
            h.clear();
        }
        if on.get() {
            // `try_set`: the view may be gone by then.
            set_timeout_with_handle(
                move || {
                    let _ = shown.try_set(true);
                },
                delay,
            )
            .ok()
        } else {
            if shown.get_untracked() {
                shown.set(false);
            }
            None
        }
    });
    shown.into()
}
