//! One colour per share, shared by the table swatches and the charts.

/// Tableau 10: distinct, colour-blind-friendlier than the defaults, readable on white.
const COLOURS: [(u8, u8, u8); 10] = [
    (0x4e, 0x79, 0xa7),
    (0xf2, 0x8e, 0x2b),
    (0x59, 0xa1, 0x4f),
    (0xe1, 0x57, 0x59),
    (0x76, 0xb7, 0xb2),
    (0xed, 0xc9, 0x48),
    (0xb0, 0x7a, 0xa1),
    (0xff, 0x9d, 0xa7),
    (0x9c, 0x75, 0x5f),
    (0xba, 0xb0, 0xac),
];

/// The colour of the share at `index` in the result's share order.
pub fn rgb(index: usize) -> (u8, u8, u8) {
    COLOURS[index % COLOURS.len()]
}

/// The same colour as CSS text (`#rrggbb`).
pub fn css(index: usize) -> String {
    let (r, g, b) = rgb(index);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The share colour mixed with white: `amount` 0 gives the colour, 1 gives white.
/// Lighter variants of one share's colour (borrowed, startup, waiting) stay recognisable.
pub fn tint(index: usize, amount: f64) -> (u8, u8, u8) {
    let (r, g, b) = rgb(index);
    let a = amount.clamp(0.0, 1.0);
    let mix = |c: u8| (f64::from(c) + (255.0 - f64::from(c)) * a).round() as u8;
    (mix(r), mix(g), mix(b))
}
