//! Kubernetes resource quantities (`8`, `500m`, `36Gi`, `1e3`), read exactly: a quantity is
//! `mantissa x 10^e x 1024^k`, so whether it is a whole number is decided without rounding.

/// A parsed quantity: `units x 1024^bin_pow x 10^dec_pow` (mantissa digits in `units`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantity {
    negative: bool,
    units: u128,
    dec_pow: i32,
    bin_pow: u32,
}

/// The largest number of mantissa digits kept (a longer quantity is refused, not rounded).
const MAX_DIGITS: usize = 30;

impl Quantity {
    /// Parses a Kubernetes quantity; `None` when the text is not one.
    pub fn parse(text: &str) -> Option<Quantity> {
        let s = text.trim();
        let (negative, s) = match s.as_bytes().first()? {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        let num_end = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(s.len());
        let (number, suffix) = s.split_at(num_end);
        let (int_part, frac_part) = match number.split_once('.') {
            Some((i, f)) => (i, f),
            None => (number, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        let digits: String = format!("{int_part}{frac_part}");
        let digits = digits.trim_start_matches('0');
        if digits.len() > MAX_DIGITS {
            return None;
        }
        let units: u128 = if digits.is_empty() {
            0
        } else {
            digits.parse().ok()?
        };
        let frac_len = frac_part.len() as i32;
        let (dec, bin): (i32, u32) = match suffix {
            "" => (0, 0),
            "n" => (-9, 0),
            "u" => (-6, 0),
            "m" => (-3, 0),
            "k" => (3, 0),
            "M" => (6, 0),
            "G" => (9, 0),
            "T" => (12, 0),
            "P" => (15, 0),
            "E" => (18, 0),
            "Ki" => (0, 1),
            "Mi" => (0, 2),
            "Gi" => (0, 3),
            "Ti" => (0, 4),
            "Pi" => (0, 5),
            "Ei" => (0, 6),
            e if e.starts_with(['e', 'E']) => {
                let exp: i32 = e[1..].parse().ok()?;
                if !(-40..=40).contains(&exp) {
                    return None;
                }
                (exp, 0)
            }
            _ => return None,
        };
        Some(Quantity {
            negative,
            units,
            dec_pow: dec - frac_len,
            bin_pow: bin,
        })
    }

    /// Parses a YAML/JSON value: a number or a string holding a quantity.
    pub fn from_value(v: &serde_json::Value) -> Option<Quantity> {
        match v {
            serde_json::Value::Number(n) => Quantity::parse(&n.to_string()),
            serde_json::Value::String(s) => Quantity::parse(s),
            _ => None,
        }
    }

    /// The exact whole value, if the quantity is a whole number >= 0 that fits in a u64.
    pub fn whole(&self) -> Option<u64> {
        if self.units == 0 {
            return Some(0);
        }
        if self.negative {
            return None;
        }
        let scaled = self
            .units
            .checked_mul(1024u128.checked_pow(self.bin_pow)?)?;
        let v = if self.dec_pow >= 0 {
            scaled.checked_mul(10u128.checked_pow(self.dec_pow as u32)?)?
        } else {
            let d = 10u128.checked_pow(self.dec_pow.unsigned_abs())?;
            if !scaled.is_multiple_of(d) {
                return None;
            }
            scaled / d
        };
        u64::try_from(v).ok()
    }

    /// The value as a float (for fair-sharing weights).
    pub fn as_f64(&self) -> f64 {
        let v = self.units as f64 * 1024f64.powi(self.bin_pow as i32) * 10f64.powi(self.dec_pow);
        if self.negative {
            -v
        } else {
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Quantity;

    fn whole(s: &str) -> Option<u64> {
        Quantity::parse(s).and_then(|q| q.whole())
    }

    #[test]
    fn kubernetes_quantities() {
        assert_eq!(whole("8"), Some(8));
        assert_eq!(whole("0"), Some(0));
        assert_eq!(whole("2000m"), Some(2));
        assert_eq!(whole("500m"), None);
        assert_eq!(whole("36Gi"), Some(36 * 1024 * 1024 * 1024));
        assert_eq!(whole("1k"), Some(1000));
        assert_eq!(whole("1e3"), Some(1000));
        assert_eq!(whole("1.5"), None);
        assert_eq!(whole("1.50k"), Some(1500));
        assert_eq!(whole("-1"), None);
        assert!(Quantity::parse("eight").is_none());
        assert!(Quantity::parse("").is_none());
        assert!(Quantity::parse("8 Gi").is_none());
        assert!(Quantity::parse("1Xi").is_none());
        assert!(Quantity::parse("1e999").is_none());
        assert_eq!(Quantity::parse("0.5").unwrap().as_f64(), 0.5);
        assert_eq!(whole("999999999999999999999Ei"), None);
    }
}
