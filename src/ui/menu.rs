//! The WAI-ARIA menu button pattern over a `<details>` dropdown: its `<summary>` is the button
//! (`aria-haspopup="menu"`, `aria-expanded`) and the element with `role="menu"` inside holds
//! the `role="menuitem"` buttons.
//!
//! Keys on the button: Enter, Space and ArrowDown open the menu on its first item, ArrowUp
//! on its last. Keys in the menu: ArrowDown / ArrowUp move to the next / previous enabled
//! item (wrapping), Home / End to the first / last, Escape closes and gives the focus back to
//! the button, Tab closes and moves on from the button. A pointer press outside closes it; a
//! choice closes it through [`MenuButton::close`] with the focus back on the button. Mouse
//! clicks on the button keep toggling the `<details>` natively.
//!
//! When it opens, the menu is placed under the button inside the viewport: aligned to the
//! button's right edge, else its left edge, else shifted to fit ([`panel_left`]). Where CSS
//! positions the panel against another box (a phone's full-width menu), it is left to CSS.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};

/// Room kept between the menu and the viewport's edges, in CSS pixels.
const EDGE: f64 = 8.0;

/// Where the menu's left edge goes, relative to the button's left edge, for a button at
/// `[left, right]` and a menu `width` wide in a viewport `viewport` wide: under the button,
/// its right edge on the button's, unless that crosses the viewport's left edge; then its
/// left edge on the button's, unless that crosses the right edge; then as far left as the
/// viewport's margin allows (a menu wider than the viewport is narrowed by CSS).
pub fn panel_left(left: f64, right: f64, width: f64, viewport: f64) -> f64 {
    let right_aligned = right - width;
    let at = if right_aligned >= EDGE {
        right_aligned
    } else if left + width <= viewport - EDGE {
        left
    } else {
        (viewport - EDGE - width).max(EDGE)
    };
    at - left
}

/// Which item gets the focus when the menu opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    First,
    Last,
}

/// A `<details>` menu's behaviour; make one per menu with [`MenuButton::new`] and wire its
/// handlers and [`MenuButton::expanded`] into the view.
#[derive(Clone, Copy)]
pub struct MenuButton {
    details: NodeRef<html::Details>,
    open: RwSignal<bool>,
}

impl MenuButton {
    /// The behaviour of the `<details>` bound to `details`; closes it on a pointer press
    /// outside it while the owner lives.
    pub fn new(details: NodeRef<html::Details>) -> Self {
        let menu = Self {
            details,
            open: RwSignal::new(false),
        };
        let handle = window_event_listener(ev::pointerdown, move |e| {
            let Some(d) = details.get_untracked() else {
                return;
            };
            if !d.open() {
                return;
            }
            let inside = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
                .is_some_and(|n| d.contains(Some(&n)));
            if !inside {
                d.set_open(false);
            }
        });
        on_cleanup(move || handle.remove());
        menu
    }

    /// `aria-expanded` for the button: "true" while the menu is open.
    pub fn expanded(self) -> impl Fn() -> &'static str + Copy {
        move || if self.open.get() { "true" } else { "false" }
    }

    /// Closes the menu; with `return_focus`, the focus goes back to the button.
    pub fn close(self, return_focus: bool) {
        let Some(d) = self.details.get_untracked() else {
            return;
        };
        d.set_open(false);
        if return_focus {
            if let Some(b) = self.button() {
                let _ = b.focus();
            }
        }
    }

    /// For the `<details>`' `toggle` event: follows its state and places an opened menu.
    pub fn on_toggle(self) {
        let open = self.details.get_untracked().is_some_and(|d| d.open());
        self.open.set(open);
        if open {
            self.place();
        }
    }

    /// For `keydown` on the `<summary>`.
    pub fn on_button_keydown(self, e: KeyboardEvent) {
        let start = match e.key().as_str() {
            "Enter" | " " | "ArrowDown" => Start::First,
            "ArrowUp" => Start::Last,
            "Escape" if self.details.get_untracked().is_some_and(|d| d.open()) => {
                e.prevent_default();
                self.close(true);
                return;
            }
            _ => return,
        };
        // The summary's own activation would toggle the menu again.
        e.prevent_default();
        self.open_at(start);
    }

    /// For `keyup` on the `<summary>`: Space activates a summary on key up, and the key
    /// down has already opened the menu.
    pub fn on_button_keyup(self, e: KeyboardEvent) {
        if e.key() == " " {
            e.prevent_default();
        }
    }

    /// For `keydown` on the `role="menu"` element.
    pub fn on_menu_keydown(self, e: KeyboardEvent) {
        let items = self.items();
        let current = document().active_element();
        let at = items.iter().position(|i| {
            current
                .as_ref()
                .is_some_and(|c| c == i.unchecked_ref::<web_sys::Element>())
        });
        let n = items.len();
        let next = match e.key().as_str() {
            "ArrowDown" => at.map_or(0, |i| (i + 1) % n.max(1)),
            "ArrowUp" => at.map_or(n.saturating_sub(1), |i| (i + n - 1) % n.max(1)),
            "Home" => 0,
            "End" => n.saturating_sub(1),
            "Escape" => {
                e.prevent_default();
                e.stop_propagation();
                self.close(true);
                return;
            }
            "Tab" => {
                // From the button, the Tab's default action moves on past the menu.
                self.close(true);
                return;
            }
            _ => return,
        };
        e.prevent_default();
        if let Some(item) = items.get(next) {
            let _ = item.focus();
        }
    }

    fn open_at(self, start: Start) {
        let Some(d) = self.details.get_untracked() else {
            return;
        };
        if !d.open() {
            d.set_open(true);
            // Placed now, before the `toggle` event, so the focused item is where it shows.
            self.place();
        }
        let items = self.items();
        let item = match start {
            Start::First => items.first(),
            Start::Last => items.last(),
        };
        if let Some(item) = item {
            let _ = item.focus();
        }
    }

    fn button(self) -> Option<HtmlElement> {
        self.details
            .get_untracked()?
            .query_selector(":scope > summary")
            .ok()??
            .dyn_into()
            .ok()
    }

    fn panel(self) -> Option<HtmlElement> {
        self.details
            .get_untracked()?
            .query_selector("[role=menu]")
            .ok()??
            .dyn_into()
            .ok()
    }

    /// The enabled items, in document order.
    fn items(self) -> Vec<HtmlElement> {
        let Some(panel) = self.panel() else {
            return Vec::new();
        };
        let Ok(list) =
            panel.query_selector_all("[role=menuitem]:not(:disabled):not([aria-disabled=true])")
        else {
            return Vec::new();
        };
        (0..list.length())
            .filter_map(|i| list.item(i)?.dyn_into::<HtmlElement>().ok())
            .collect()
    }

    /// Moves the open menu inside the viewport ([`panel_left`]).
    fn place(self) {
        let (Some(d), Some(panel)) = (self.details.get_untracked(), self.panel()) else {
            return;
        };
        let style = panel.style();
        // Measured at its natural width and CSS position first.
        let _ = style.remove_property("left");
        let _ = style.remove_property("right");
        // On a phone CSS spans the panel across the share bar (its containing block is not
        // the `<details>`): nothing to measure, and nothing to go stale when the bar reflows.
        let anchored = panel
            .offset_parent()
            .is_some_and(|p| p == *d.unchecked_ref::<web_sys::Element>());
        if !anchored {
            return;
        }
        let viewport = document()
            .document_element()
            .map_or(0.0, |e| f64::from(e.client_width()));
        let button = d.get_bounding_client_rect();
        let width = panel.get_bounding_client_rect().width();
        if viewport <= 0.0 || width <= 0.0 {
            return;
        }
        let left = panel_left(button.left(), button.right(), width, viewport);
        let _ = style.set_property("right", "auto");
        let _ = style.set_property("left", &format!("{left:.1}px"));
    }
}

#[cfg(test)]
mod tests {
    use super::panel_left;

    #[test]
    fn right_aligned_when_it_fits() {
        // A 250 px menu under a button at [900, 960] of 1440: its right edge on the button's.
        assert_eq!(
            panel_left(900.0, 960.0, 250.0, 1440.0),
            960.0 - 250.0 - 900.0
        );
    }

    #[test]
    fn left_aligned_when_right_alignment_crosses_the_left_edge() {
        // A button near the left of a 390 px screen: the menu hangs from its left edge.
        assert_eq!(panel_left(20.0, 90.0, 250.0, 390.0), 0.0);
    }

    #[test]
    fn shifted_to_fit_when_neither_edge_works() {
        // A button in the middle, a menu nearly as wide as the screen: kept 8 px from the right.
        let left = panel_left(150.0, 200.0, 360.0, 390.0);
        assert_eq!(150.0 + left, 390.0 - 8.0 - 360.0);
        // Wider than the viewport: kept at the left margin.
        let left = panel_left(150.0, 200.0, 500.0, 390.0);
        assert_eq!(150.0 + left, 8.0);
    }
}
