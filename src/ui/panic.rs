//! A panic shows a visible banner instead of leaving a dead page.

use std::panic;

/// The id of the banner element (the end-to-end tests look for it).
pub const BANNER_ID: &str = "panic-banner";

/// Installs the hook: the readable panic goes to the console (console_error_panic_hook) and
/// a red banner tops the page.
pub fn install() {
    panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_banner(&info.to_string());
    }));
}

/// Shows (or updates) the banner; best effort, never panics itself.
pub fn show_banner(message: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let banner = match document.get_element_by_id(BANNER_ID) {
        Some(b) => b,
        None => {
            let b = document.create_element("div").ok()?;
            b.set_id(BANNER_ID);
            b.set_class_name("panic-banner");
            b.set_attribute("role", "alert").ok()?;
            document.body()?.prepend_with_node_1(&b).ok()?;
            b
        }
    };
    banner.set_text_content(Some(&format!(
        "Quota Lab stopped after an internal error. Reload the page to start again. Details: {message}"
    )));
    Some(())
}
