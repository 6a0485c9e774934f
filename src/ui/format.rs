//! Number formatting shared by the components: `quotalab_report`'s (the charts and the
//! report format numbers and times as the page does).

pub use quotalab_report::format::*;

/// What a type's accelerators are called: Trainium and Inferentia chips are not GPUs.
pub fn accelerator_word(ty: &str, one: bool) -> &'static str {
    let chip = ty.contains(".trn") || ty.contains(".inf");
    match (chip, one) {
        (true, true) => "accelerator chip",
        (true, false) => "accelerator chips",
        (false, true) => "GPU",
        (false, false) => "GPUs",
    }
}
