//! Bundled scenarios (issue 5 "Presets"). STUB: the editor's owner fills this in.

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

/// Every preset, in menu order.
pub const PRESETS: &[Preset] = &[AWS_WALKTHROUGH];
