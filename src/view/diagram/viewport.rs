//! Where the diagram's viewport scrolls sideways so the event at the cursor
//! is on screen: both ends of its arrow (the sender's lifeline and the
//! recipient's) whenever they fit in the pane, with its badge or note and
//! room for the lifelines' heads when there is some; when an arrow is wider
//! than the pane, its head's end; and the lead's lifeline with them when it
//! fits too (its head is the one the sticky row always shows). The least
//! move that does it, so stepping along one pair of lifelines keeps the
//! view still.
//!
//! Owns this arithmetic only (pure, tested natively); the canvas
//! (`ui::diagram::canvas`) measures the pane and scrolls it.

use crate::view::diagram::layout::{Span, LEFT};

/// Margins tried around an arrow's ends, in SVG units, widest first: half a
/// lifeline head (its name shows whole), then a little past the lifeline.
pub const MARGINS: [f64; 2] = [64.0, 24.0];

/// The scroll offset (CSS pixels) that shows `span` (SVG units, drawn at
/// `scale` pixels per unit) in a pane `pane` pixels wide now scrolled to
/// `left`.
pub fn reveal_left(left: f64, pane: f64, scale: f64, span: Span) -> f64 {
    let (lo, hi) = (span.from.min(span.to), span.from.max(span.to));
    // The lead's lifeline too when it fits (its head is the one kept at
    // the top: the sticky row is never blank), then the row's own; with
    // the badge or note, then without: the lifelines come first.
    let with_lead = lo.min(LEFT);
    let tries = [with_lead, lo].into_iter().flat_map(|from| {
        let noted = MARGINS.map(|m| (from, m, span.right + MARGINS[1] - m));
        let bare = MARGINS.map(|m| (from, m, hi));
        noted.into_iter().chain(bare)
    });
    for (lo, margin, right) in tries {
        let (a, b) = ((lo - margin) * scale, (hi + margin).max(right + margin) * scale);
        if b - a <= pane {
            let moved = if a < left {
                a
            } else if b > left + pane {
                b - pane
            } else {
                left
            };
            return moved.max(0.0);
        }
    }
    // Wider than the pane: the end where the message arrives.
    let margin = MARGINS[1] * scale;
    let head = span.to * scale;
    if span.to >= span.from {
        (head + margin - pane).max(0.0)
    } else {
        (head - margin).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(left: f64, pane: f64, scale: f64, x: f64) -> bool {
        let at = x * scale;
        at >= left && at <= left + pane
    }

    #[test]
    fn both_ends_of_an_arrow_that_fits_are_on_screen_wherever_the_pane_was() {
        let span = Span { from: 90.0, to: 346.0, right: 432.0 };
        for (pane, scale) in [(360.0, 1.0), (390.0, 1.0), (300.0, 0.8), (800.0, 2.0)] {
            for left in [0.0, 50.0, 200.0, 500.0, 1200.0] {
                let to = reveal_left(left, pane, scale, span);
                assert!(to >= 0.0);
                assert!(shown(to, pane, scale, span.from) && shown(to, pane, scale, span.to), "pane {pane} at {left} -> {to}");
            }
        }
    }

    #[test]
    fn an_arrow_already_on_screen_does_not_move_the_view() {
        let span = Span { from: 346.0, to: 90.0, right: 432.0 };
        assert_eq!(reveal_left(10.0, 600.0, 1.0, span), 10.0);
    }

    #[test]
    fn the_lifeline_heads_show_whole_when_there_is_room() {
        let span = Span { from: 602.0, to: 346.0, right: 602.0 };
        let to = reveal_left(0.0, 400.0, 1.0, span);
        assert!(to <= 346.0 - 64.0 && to + 400.0 >= 602.0 + 64.0, "{to}");
    }

    #[test]
    fn a_request_s_badge_is_shown_with_its_arrow_when_both_fit() {
        let span = Span { from: 90.0, to: 346.0, right: 432.0 };
        let to = reveal_left(0.0, 390.0, 1.0, span);
        assert!(shown(to, 390.0, 1.0, 90.0) && shown(to, 390.0, 1.0, 432.0), "{to}");
        // A pane too narrow for the badge keeps both lifelines.
        let to = reveal_left(0.0, 300.0, 1.0, span);
        assert!(shown(to, 300.0, 1.0, 90.0) && shown(to, 300.0, 1.0, 346.0), "{to}");
    }

    #[test]
    fn a_teammate_s_note_keeps_the_lead_s_lifeline_on_screen_when_both_fit() {
        // alice's tool note (346, reaching 552) on a phone: the lead and
        // alice before the rest of the note.
        let span = Span { from: 346.0, to: 346.0, right: 552.0 };
        let to = reveal_left(200.0, 390.0, 1.0, span);
        assert!(shown(to, 390.0, 1.0, LEFT) && shown(to, 390.0, 1.0, 346.0), "{to}");
        // A wide pane shows the whole note as well.
        let to = reveal_left(0.0, 600.0, 1.0, span);
        assert!(shown(to, 600.0, 1.0, LEFT) && shown(to, 600.0, 1.0, 552.0), "{to}");
        // A third column's note, too far from the lead: its own lifeline.
        let far = Span { from: 858.0, to: 858.0, right: 1000.0 };
        let to = reveal_left(0.0, 390.0, 1.0, far);
        assert!(shown(to, 390.0, 1.0, 858.0) && shown(to, 390.0, 1.0, 1000.0), "{to}");
    }

    #[test]
    fn an_arrow_wider_than_the_pane_shows_its_head_end() {
        let right = Span { from: 90.0, to: 858.0, right: 944.0 };
        let to = reveal_left(0.0, 390.0, 1.0, right);
        assert!(shown(to, 390.0, 1.0, 858.0), "{to}");
        let left = Span { from: 858.0, to: 90.0, right: 944.0 };
        let to = reveal_left(700.0, 390.0, 1.0, left);
        assert!(shown(to, 390.0, 1.0, 90.0), "{to}");
    }
}
