//! Shortening text for labels and error messages: one rule everywhere a
//! long prompt, plan or value is shown in a small space.
//!
//! Owns `clip` only; it knows nothing of protocols or the page.

/// `s` cut to `max` characters, an ellipsis (…) marking the cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        s.chars().take(max.saturating_sub(1)).collect::<String>() + "…"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_fits_is_kept_and_longer_text_ends_in_an_ellipsis_within_the_limit() {
        assert_eq!(clip("short", 5), "short");
        assert_eq!(clip("longer", 5), "long…");
        assert_eq!(clip("ééééé", 4).chars().count(), 4, "counts characters, not bytes");
        assert_eq!(clip("x", 0), "…");
    }
}
