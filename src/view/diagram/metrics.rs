//! How wide the diagram's text is drawn, and where run banners stand: the
//! measures both `layout` (how far right a row reaches, so the diagram's
//! width takes it in) and `geometry` (the plates and boxes behind text)
//! use, kept here so neither has to import the other for them.
//!
//! Estimates from the stylesheet's sizes in Chromium's default sans-serif;
//! nothing here touches the DOM.

/// Left edge of run banners (leaves room for a violation mark).
pub const BANNER_X: f64 = 22.0;

/// The width of one character of a banner's text (13 px italic), for the
/// plate behind it.
pub const BANNER_CHAR_WIDTH: f64 = 7.2;

/// How many Latin characters' widths `s` takes: a character of the
/// Chinese, Japanese or Korean scripts (or a full-width form) is about 1.8
/// Latin characters wide at the same size.
pub fn text_columns(s: &str) -> f64 {
    chars_columns(s.chars())
}

/// [`text_columns`] of the string `chars` would make, without making it
/// (the same sum, in the same order).
pub fn chars_columns(chars: impl Iterator<Item = char>) -> f64 {
    chars.map(|c| if is_wide(c) { WIDE_CHAR } else { 1.0 }).sum()
}

/// The width of a wide character, in Latin characters.
const WIDE_CHAR: f64 = 1.8;

/// True for a character of Chinese, Japanese or Korean script, or a
/// full-width form.
pub fn is_wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6)
}
