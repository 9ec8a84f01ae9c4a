//! The diagram's legend: what each line style, mark, badge colour and
//! moving envelope means, drawn with the diagram's own classes and
//! primitives (`geometry`), so it reads the same in the page (the caption
//! box's Legend) and in the SVG export, in the page's language.
//!
//! Owns the legend's entries and their layout in one or two columns; it
//! must not draw anything of a run.

use crate::view::diagram::geometry::{envelope, item, line, text, Head, Item, ItemKind, Shape, CROSS_HALF};
use crate::view::diagram::metrics::is_wide;
use crate::view::i18n::Catalog;

/// Height of one legend entry.
pub const LEGEND_ROW: f64 = 28.0;
/// Width of a legend entry's sample drawing; its words start after it.
pub const LEGEND_SAMPLE: f64 = 96.0;
/// The legend in words, for its accessible name.
pub fn legend_summary(cat: &Catalog) -> String {
    cat.t("legend-summary")
}

/// What the diagram's marks mean, drawn with the diagram's own classes and
/// primitives, so it reads the same in the page and in the SVG export.
#[derive(Debug, Clone, PartialEq)]
pub struct Legend {
    /// Width it takes.
    pub width: f64,
    /// Height it takes.
    pub height: f64,
    /// One item per entry: a sample and its words.
    pub items: Vec<Item>,
}

/// The legend, its first entry's top at `top`, laid out in as many
/// columns of at least 400 units as `width` holds (one at least).
pub fn legend(cat: &Catalog, top: f64, width: f64) -> Legend {
    const COLUMN: f64 = 400.0;
    type Sample = Box<dyn Fn(f64, f64) -> (String, Vec<Shape>)>;
    fn arrow(class: &'static str, color: Option<usize>, words: Option<(String, String)>, fault: Option<&'static str>) -> Sample {
        Box::new(move |x: f64, y: f64| {
            let x2 = x + LEGEND_SAMPLE - 14.0;
            let dropped = fault == Some("dropped");
            let mut shapes = vec![line(x, y, if dropped { x2 - 10.0 } else { x2 }, y, (!dropped).then_some(Head { color }))];
            if let Some((under, _)) = &words {
                // Under the arrow, as the diagram writes a fault's word.
                shapes.push(text(x + (x2 - x) / 2.0, y + 13.0, under.clone(), Some("msg-said")));
            }
            if let (true, Some((_, cross))) = (dropped, &words) {
                shapes.push(Shape::Cross { x: x2 - 2.0, y, half: CROSS_HALF - 2.0, class: "drop-x", label: cross.clone() });
            }
            (format!("legend-entry msg {class}{}", fault.map(|f| format!(" fault-{f}")).unwrap_or_default()), shapes)
        })
    }
    let badge_sample = |status: &'static str| -> Sample {
        Box::new(move |x: f64, y: f64| {
            (
                format!("legend-entry badge fsm c0 badge-{status}"),
                vec![Shape::Rect { x, y: y - 9.0, width: 74.0, height: 18.0, rx: 9.0, class: None }, text(x + 37.0, y + 4.0, status, None)],
            )
        })
    };
    let dropped = (String::new(), cat.t("diagram-dropped"));
    let shut_down = cat.t("legend-shut-down");
    let delayed = (cat.t("diagram-fault-delayed"), String::new());
    let entries: Vec<(Sample, String)> = vec![
        (arrow("c0 delivered protocol", Some(0), None, None), cat.t("legend-read")),
        (arrow("c0 in-flight protocol", Some(0), None, None), cat.t("legend-waiting")),
        (arrow("plain delivered text", None, None, None), cat.t("legend-plain")),
        (arrow("plain delivered protocol", None, Some(dropped), Some("dropped")), cat.t("legend-dropped")),
        (arrow("plain delivered protocol", None, Some(delayed), Some("delayed")), cat.t("legend-fault-word")),
        (badge_sample("pending"), cat.t("legend-pending")),
        (badge_sample("approved"), "pending → approved".to_string()),
        (badge_sample("rejected"), "pending → rejected".to_string()),
        (
            Box::new(|x: f64, y: f64| {
                (
                    "legend-entry note tool-ok".to_string(),
                    vec![
                        Shape::Rect { x, y: y - 11.0, width: 74.0, height: 22.0, rx: 3.0, class: None },
                        text(x + 7.0, y + 4.0, "tool()", None),
                    ],
                )
            }),
            cat.t("legend-tool"),
        ),
        (
            Box::new(|x: f64, y: f64| {
                (
                    "legend-entry model-call".to_string(),
                    vec![Shape::Rect { x: x + 30.0, y: y - 12.0, width: 10.0, height: 24.0, rx: 0.0, class: Some("legend-activation") }],
                )
            }),
            cat.t("legend-model"),
        ),
        (
            Box::new(move |x: f64, y: f64| {
                (
                    "legend-entry lifeline".to_string(),
                    vec![Shape::Cross { x: x + 35.0, y, half: 9.0, class: "cross", label: shut_down.clone() }],
                )
            }),
            cat.t("legend-shut-down"),
        ),
        (
            Box::new(|x: f64, y: f64| ("legend-entry violation-mark".to_string(), vec![text(x + 28.0, y + 5.0, "⚠", None)])),
            cat.t("legend-violation"),
        ),
        // Moving messages (`motion`).
        (
            Box::new(|x: f64, y: f64| {
                let mut shapes = vec![Shape::Line { x1: x, y1: y, x2: x + 60.0, y2: y, class: Some("legend-path"), head: None }];
                shapes.extend(envelope(x + 40.0, y));
                ("legend-entry mover-sample".to_string(), shapes)
            }),
            cat.t("legend-in-flight"),
        ),
        (
            Box::new(|x: f64, y: f64| {
                let mut shapes = envelope(x + 31.0, y - 3.0);
                shapes.extend(envelope(x + 28.0, y));
                shapes.push(Shape::Rect { x: x + 47.0, y: y - 9.0, width: 17.3, height: 18.0, rx: 9.0, class: Some("inbox-pill") });
                shapes.push(text(x + 52.0, y + 4.5, "2", Some("inbox-digits")));
                ("legend-entry inbox-sample".to_string(), shapes)
            }),
            cat.t("legend-inbox"),
        ),
        (
            Box::new(|x: f64, y: f64| {
                let mut shapes = vec![Shape::Line { x1: x, y1: y, x2: x + 80.0, y2: y, class: Some("held-path"), head: None }];
                shapes.extend(envelope(x + 28.0, y));
                ("legend-entry held-msg".to_string(), shapes)
            }),
            cat.t("legend-held"),
        ),
    ];
    // Each column as wide as its longest words (at least COLUMN); two
    // columns only when both fit in `width`.
    let needed = |words: &[(Sample, String)]| words.iter().map(|(_, w)| LEGEND_SAMPLE + legend_text_width(w) + 16.0).fold(COLUMN, f64::max);
    let half = entries.len().div_ceil(2);
    let (first, second) = (needed(&entries[..half]), needed(&entries[half..]));
    let columns = if 12.0 + first + second <= width { 2 } else { 1 };
    let rows = entries.len().div_ceil(columns);
    let column_x = |col: usize| if col == 0 { 12.0 } else { 12.0 + first };
    let total = if columns == 2 { 12.0 + first + second } else { 12.0 + needed(&entries) };
    let items = entries
        .iter()
        .enumerate()
        .map(|(i, (sample, words))| {
            let (col, row) = (i / rows, i % rows);
            let x = column_x(col);
            let y = top + row as f64 * LEGEND_ROW + LEGEND_ROW / 2.0;
            let (class, mut shapes) = sample(x, y);
            shapes.push(text(x + LEGEND_SAMPLE, y + 5.0, words.as_str(), Some("legend-text")));
            let mut it = item(ItemKind::Banner, class, None, y - LEGEND_ROW / 2.0, y + LEGEND_ROW / 2.0, shapes);
            it.role = Some("listitem");
            it.label = Some(words.clone());
            it
        })
        .collect();
    Legend { width: total, height: rows as f64 * LEGEND_ROW + 8.0, items }
}

/// The width of a legend entry's words (13 px text, as measured in
/// Chromium's default fonts: about 6.6 px a Latin character, 13.3 px a wide
/// one).
pub fn legend_text_width(s: &str) -> f64 {
    s.chars().map(|c| if is_wide(c) { 13.3 } else { 6.6 }).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_explains_every_line_style_mark_and_badge_colour() {
        let l = legend(Catalog::en(), 0.0, 880.0);
        let classes: Vec<&str> = l.items.iter().map(|i| i.class.as_str()).collect();
        for needed in [
            "msg c0 delivered",
            "in-flight",
            "plain delivered text",
            "fault-dropped",
            "fault-delayed",
            "badge-pending",
            "badge-approved",
            "badge-rejected",
            "note",
            "model-call",
            "lifeline",
            "violation-mark",
            "mover-sample",
            "inbox-sample",
            "held-msg",
        ] {
            assert!(classes.iter().any(|c| c.contains(needed)), "{needed} in {classes:?}");
        }
        assert!(l.items.iter().all(|i| i.label.as_deref().is_some_and(|w| !w.is_empty())), "every entry has its words");
        assert!(
            l.items.iter().all(|i| i.class.starts_with("legend-entry ")),
            "legend entries are not counted as the run's arrows or badges"
        );
        let narrow = legend(Catalog::en(), 0.0, 500.0);
        assert!(narrow.height > l.height && narrow.width <= 500.0, "one column when narrow");
    }

    #[test]
    fn every_legend_entry_fits_inside_the_legend_in_every_language() {
        use crate::view::i18n::Locale;
        for locale in Locale::ALL {
            for width in [500.0, 880.0, 1400.0] {
                let l = legend(Catalog::get(locale), 0.0, width);
                for it in &l.items {
                    for sh in &it.shapes {
                        if let Shape::Text { x, text, class: Some("legend-text"), .. } = sh {
                            let end = x + legend_text_width(text);
                            assert!(end <= l.width, "{} at {width}: '{text}' ends at {end:.0}, past {:.0}", locale.tag(), l.width);
                        }
                    }
                }
            }
        }
    }
}
