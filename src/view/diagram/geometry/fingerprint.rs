//! An item's fingerprint: 64 bits hashed from everything it draws (its
//! kind, classes, event, request, role, label, extent and every shape, the
//! numbers by their bits). The live view keys its lists of items by it, so
//! a step keeps the elements of the items that stay the same and rebuilds
//! the rest, without writing each item out as text (`{:?}` formatted every
//! number of every item on screen at each step).
//!
//! Owns the hash only; what is drawn stays `geometry`'s. Two items that
//! draw the same have the same fingerprint; two that differ collide with a
//! chance of about 2^-64.

use std::hash::{Hash, Hasher};

use super::{Item, Shape};

/// The numbers of a shape, by their bits (so 0.0 and -0.0 differ, as their
/// text did).
fn floats(h: &mut impl Hasher, values: &[f64]) {
    for v in values {
        h.write_u64(v.to_bits());
    }
}

impl Shape {
    fn fingerprint_into(&self, h: &mut impl Hasher) {
        std::mem::discriminant(self).hash(h);
        match self {
            Shape::Line { x1, y1, x2, y2, class, head } => {
                floats(h, &[*x1, *y1, *x2, *y2]);
                class.hash(h);
                head.hash(h);
            }
            Shape::Cross { x, y, half, class, label } => {
                floats(h, &[*x, *y, *half]);
                class.hash(h);
                label.hash(h);
            }
            Shape::Text { x, y, text, class } => {
                floats(h, &[*x, *y]);
                text.hash(h);
                class.hash(h);
            }
            Shape::Rect { x, y, width, height, rx, class } => {
                floats(h, &[*x, *y, *width, *height, *rx]);
                class.hash(h);
            }
            Shape::Tooltip(text) => text.hash(h),
        }
    }
}

impl Item {
    /// 64 bits hashed from everything the item draws: equal for items that
    /// draw the same, different (but for a chance of about 2^-64) for any
    /// two that do not. The same within a build (the standard library's
    /// `DefaultHasher` with its fixed keys).
    pub fn fingerprint(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.kind.hash(&mut h);
        self.class.hash(&mut h);
        self.seq.hash(&mut h);
        self.request.hash(&mut h);
        self.role.hash(&mut h);
        self.label.hash(&mut h);
        floats(&mut h, &[self.top, self.bottom]);
        h.write_usize(self.shapes.len());
        for shape in &self.shapes {
            shape.fingerprint_into(&mut h);
        }
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::diagram::geometry;
    use crate::view::i18n::Catalog;

    /// Every item of a busy run's drawing, with some changed by one field.
    fn items() -> Vec<Item> {
        let trace = crate::view::synthetic::busy_trace(600, 5, 3);
        let layout = crate::view::diagram::layout::Layout::of(&trace);
        let d = layout.diagram(trace.entries(), None, None);
        let g = geometry::draw(Catalog::en(), &d, &crate::protocol::check(&trace), trace.len());
        let mut items: Vec<Item> =
            g.lifelines.iter().chain(&g.activations).chain(&g.rows).chain(&g.badges).chain(&g.marks).cloned().collect();
        let some: Vec<Item> = items.iter().step_by(7).cloned().collect();
        for it in &some {
            let mut moved = it.clone();
            moved.top += 0.5;
            items.push(moved);
            let mut classed = it.clone();
            classed.class.push_str(" dim");
            items.push(classed);
            if let Some(Shape::Text { text, .. }) = it.shapes.iter().find(|s| matches!(s, Shape::Text { .. })) {
                let mut said = it.clone();
                for s in &mut said.shapes {
                    if let Shape::Text { text: t, .. } = s {
                        *t = format!("{text}!");
                        break;
                    }
                }
                items.push(said);
            }
        }
        items
    }

    #[test]
    fn items_that_draw_the_same_share_a_fingerprint_and_items_that_differ_do_not() {
        let items = items();
        assert!(items.len() > 300, "a busy drawing: {}", items.len());
        for (i, a) in items.iter().enumerate() {
            assert_eq!(a.fingerprint(), a.clone().fingerprint());
            for b in &items[i + 1..] {
                assert_eq!(a == b, a.fingerprint() == b.fingerprint(), "{a:?} against {b:?}");
            }
        }
    }
}
