//! Text in and out: shortening text for labels and error messages (one
//! rule everywhere a long prompt, plan or value is shown in a small space),
//! and reading the decimal numbers people and servers type (a fault's
//! probability, a speed, a `retry-after`).
//!
//! Owns `clip` and `parse_decimal`; it knows nothing of protocols or the
//! page.

/// `s` cut to `max` characters, an ellipsis (…) marking the cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        s.chars().take(max.saturating_sub(1)).collect::<String>() + "…"
    }
}

/// Powers of ten that an `f64` holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/// A plain non-negative decimal number: digits with an optional fractional
/// part (`3`, `0.25`, `1.`, `.5`). Up to 15 significant digits and 22
/// decimals it is exactly the `f64` that `str::parse::<f64>` gives (one
/// integer divided by an exact power of ten rounds correctly); anything
/// else (a sign, an exponent, `inf`, spaces, more digits) is `None`.
///
/// Not `str::parse::<f64>` itself: its general algorithm carries about
/// 16 KB of tables and code into the page for these few short numbers.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let fraction = fraction.trim_end_matches('0');
    let digits = || whole.bytes().chain(fraction.bytes());
    if !digits().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (mut mantissa, mut significant) = (0_u64, 0);
    for b in digits() {
        if mantissa == 0 && b == b'0' {
            continue;
        }
        significant += 1;
        if significant > 15 {
            return None;
        }
        mantissa = mantissa * 10 + u64::from(b - b'0');
    }
    let scale = EXACT_POWERS_OF_TEN.get(fraction.len())?;
    Some(mantissa as f64 / scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_read_exactly_as_the_standard_parser_reads_them() {
        let mut cases: Vec<String> = [
            "0",
            "1",
            "3",
            "0.5",
            ".5",
            "1.",
            "1.5",
            "0.1",
            "0.3",
            "0.25",
            "2.50",
            "007",
            "0.000",
            ".0",
            "123456789012345",
            "0.000000000000000000001",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        cases.extend((0..2_000).map(|i| format!("{}.{:03}", i / 1000, i % 1000)));
        // Fifteen digits at every decimal position.
        cases.extend((0..=15).map(|at| {
            let digits = "987654321098765";
            format!("{}.{}", &digits[..at], &digits[at..])
        }));
        for case in &cases {
            let expected: f64 = case.parse().unwrap();
            assert_eq!(parse_decimal(case).map(f64::to_bits), Some(expected.to_bits()), "{case}");
        }
    }

    #[test]
    fn signs_exponents_words_spaces_and_empty_text_are_refused() {
        for bad in [
            "",
            ".",
            "-1",
            "+1",
            "1e3",
            "inf",
            "NaN",
            " 1",
            "1 ",
            "1.2.3",
            "1,5",
            "0x10",
            "soon",
            "1234567890123456",
            "0.00000000000000000000001",
        ] {
            assert_eq!(parse_decimal(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn text_that_fits_is_kept_and_longer_text_ends_in_an_ellipsis_within_the_limit() {
        assert_eq!(clip("short", 5), "short");
        assert_eq!(clip("longer", 5), "long…");
        assert_eq!(clip("ééééé", 4).chars().count(), 4, "counts characters, not bytes");
        assert_eq!(clip("x", 0), "…");
    }
}
