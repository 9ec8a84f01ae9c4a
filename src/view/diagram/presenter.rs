//! How large presenter mode draws the diagram: big enough for a room to
//! read its smallest text (at least `MIN_TEXT_PX` CSS pixels), as wide as
//! the pane when that is larger, but never so large that fewer than
//! `MIN_ROWS` rows fit in the pane's height. On a phone-sized pane it is
//! not a room's screen but a hand's: the text keeps the everyday scale,
//! which fits two lifelines side by side.
//!
//! Owns this arithmetic only (pure, tested natively); the canvas
//! (`ui::diagram::canvas`) measures the pane and applies the scale, the
//! stylesheet's presenter block sets the text sizes this counts on
//! (`SMALLEST_TEXT_PX`). Must not touch the DOM or any signal.

use crate::view::diagram::layout::ROW_HEIGHT;

/// The smallest text presenter mode shows, in CSS pixels.
pub const MIN_TEXT_PX: f64 = 18.0;
/// The smallest text the diagram draws in presenter mode, in SVG units
/// (the inboxes' digits; the stylesheet's presenter block draws every
/// other label, the sticky heads' statuses included, at 13 or 14).
pub const SMALLEST_TEXT_PX: f64 = 12.0;
/// The least scale presenter mode draws at: the smallest text at
/// `MIN_TEXT_PX`.
pub const READABLE_SCALE: f64 = MIN_TEXT_PX / SMALLEST_TEXT_PX;
/// Fitting a narrow diagram to a wide pane goes no further than this (at
/// 2x, 13 px labels are 26 px).
pub const MAX_SCALE: f64 = 2.0;
/// Fitting goes no further than a scale at which this many rows fit in the
/// pane's height (the sticky heads count for about one).
pub const MIN_ROWS: f64 = 9.0;
/// A pane narrower than this (CSS pixels) is a phone's: presenter mode
/// keeps its everyday scale there (`PHONE_SCALE`).
pub const PHONE_PANE: f64 = 640.0;
/// The least scale on a phone-sized pane: the everyday one.
pub const PHONE_SCALE: f64 = 1.0;

/// The least scale presenter mode draws at in a pane `pane_width` pixels
/// wide.
pub fn floor(pane_width: f64) -> f64 {
    if pane_width < PHONE_PANE {
        PHONE_SCALE
    } else {
        READABLE_SCALE
    }
}

/// The scale presenter mode draws a diagram `diagram_width` units wide at,
/// in a pane `pane_width` by `pane_height` pixels: fitted to the pane's
/// width (`fit`), up to `MAX_SCALE` and to `MIN_ROWS` rows in its height,
/// or else the chosen `zoom`; never below `floor`.
pub fn scale(pane_width: f64, pane_height: f64, diagram_width: f64, fit: bool, zoom: f64) -> f64 {
    let least = floor(pane_width);
    if fit && diagram_width > 0.0 && pane_width > 0.0 {
        let cap = MAX_SCALE.min(pane_height / (MIN_ROWS * ROW_HEIGHT));
        (pane_width / diagram_width).min(cap).max(least)
    } else {
        zoom.max(least)
    }
}

/// Whether presenter mode may zoom to `zoom` in a pane `pane_width` pixels
/// wide (its text stays readable).
pub fn allows(zoom: f64, pane_width: f64) -> bool {
    zoom >= floor(pane_width) - 1e-6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_text_is_drawn_at_least_18_px_on_a_room_s_screen() {
        for (pane, height, width, fit, zoom) in [
            (1900.0, 850.0, 870.0, true, 1.0),
            (1260.0, 490.0, 614.0, true, 1.0),
            (1260.0, 200.0, 870.0, true, 1.0),
            (1900.0, 850.0, 4000.0, true, 1.0),
            (800.0, 600.0, 870.0, false, 0.5),
        ] {
            assert!(scale(pane, height, width, fit, zoom) * SMALLEST_TEXT_PX >= MIN_TEXT_PX, "{pane} {height} {width} {fit} {zoom}");
        }
    }

    #[test]
    fn a_narrow_diagram_fills_a_wide_pane_up_to_the_largest_scale() {
        assert!((scale(1600.0, 1000.0, 1000.0, true, 1.0) - 1.6).abs() < 1e-9);
        assert_eq!(scale(1900.0, 1000.0, 614.0, true, 1.0), MAX_SCALE);
    }

    #[test]
    fn fitting_leaves_room_for_nine_rows_in_the_pane_s_height() {
        let k = scale(1260.0, 540.0, 614.0, true, 1.0);
        assert!(540.0 / (k * ROW_HEIGHT) >= MIN_ROWS - 1e-9 && k >= READABLE_SCALE, "{k}");
        assert_eq!(scale(1260.0, 300.0, 614.0, true, 1.0), READABLE_SCALE, "never below readable");
    }

    #[test]
    fn a_phone_keeps_the_everyday_scale() {
        assert_eq!(scale(390.0, 500.0, 614.0, true, 1.0), PHONE_SCALE);
        assert_eq!(floor(390.0), PHONE_SCALE);
        assert!(allows(1.0, 390.0) && !allows(1.0, 1280.0));
    }

    #[test]
    fn a_chosen_zoom_is_kept_when_it_is_readable() {
        assert_eq!(scale(1900.0, 850.0, 870.0, false, 3.0), 3.0);
        assert_eq!(scale(1900.0, 850.0, 870.0, false, 1.0), READABLE_SCALE);
        assert!(allows(1.5, 1900.0) && allows(2.0, 1900.0) && !allows(1.25, 1900.0));
    }
}
