//! Whole numbers for people: digits in groups of three (`82247` as `82,247`). One function
//! for every place that prints a count: the trace import's warnings here, the verdicts of
//! the analysis, the CLI and the report. It sits in `input`, the lowest stage that words
//! numbers, so that every stage above may use it.

/// `n`'s digits in groups of three, separated by commas: `1234567` as `1,234,567`.
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::group_digits;

    #[test]
    fn groups_of_three_from_the_right() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(82_247), "82,247");
        assert_eq!(group_digits(1_234_567), "1,234,567");
        assert_eq!(group_digits(u64::MAX), "18,446,744,073,709,551,615");
    }
}
