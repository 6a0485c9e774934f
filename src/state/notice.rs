//! Notices: dismissible messages above the results, raised by opening a link or a file, an
//! import or an export ([`crate::state::AppState::notice`] holds the current one).

/// A dismissible message above the results: why a link or a file could not be opened, or
/// what an import did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub title: String,
    /// Details, one per line (validator problems, skipped rows...), shown as text.
    pub lines: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    Error,
    Info,
}

impl Notice {
    pub fn error(title: impl Into<String>, lines: Vec<String>) -> Notice {
        Notice {
            kind: NoticeKind::Error,
            title: title.into(),
            lines,
        }
    }

    pub fn info(title: impl Into<String>, lines: Vec<String>) -> Notice {
        Notice {
            kind: NoticeKind::Info,
            title: title.into(),
            lines,
        }
    }
}
