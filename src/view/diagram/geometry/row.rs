//! One diagram row drawn: a run banner, a spawn, a message arrow with what
//! was said under it (cut to the arrow, whole in its tooltip), a transition,
//! a tool note or a failed model call; and the box of cut words a tap opens
//! whole (`said_target`).
//!
//! Owns a row's shapes and the cutting of its words to their room. It must
//! not place rows (`layout` does) or draw columns and marks (`geometry`).

use super::{item, line, text, Head, Item, ItemKind, Shape, CROSS_HALF, SAID_CHAR_WIDTH};
use crate::protocol::MessageType;
use crate::view::diagram::layout::{Row, RowKind, COLUMN_WIDTH, PALETTE_SIZE, ROW_HEIGHT};
use crate::view::diagram::metrics::{text_columns, BANNER_CHAR_WIDTH, BANNER_X};
use crate::view::fate::Mark;
use crate::view::i18n::{tr, Catalog};
use crate::view::words::captions::{clip, Said};

/// What was said, as drawn under its arrow: `plan: “…”`, cut to `max`
/// characters in all (the tooltip has it whole).
pub fn said_on_arrow(said: &Said, max: usize) -> String {
    let room = max.saturating_sub(said.field.len() + 4);
    format!("{}: “{}”", said.field, clip(&said.text, room))
}

/// Where the cut words of what was said under an arrow are drawn, and what
/// they cut: the page lays a button over this box that opens them whole
/// (no hover on a phone). SVG units.
#[derive(Debug, Clone, PartialEq)]
pub struct SaidTarget {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// The whole of what was said, `field: text` (the arrow's tooltip).
    pub whole: String,
}

/// The box of words drawn cut short that a tap opens whole, if `it` has
/// some: what was said under a message arrow (a plan, feedback, a reason:
/// the text drawn centred on its x, 13 px high, as the stylesheet draws
/// `msg-said`), a plain message's label, a tool note's call, a run
/// banner's prompt or a failed model call's error. `whole` is `field: text`
/// (a message's tooltip; a note's `tool: args`; `prompt: …`, `error: …`).
pub fn said_target(it: &Item) -> Option<SaidTarget> {
    let tooltip = || {
        it.shapes.iter().find_map(|s| match s {
            Shape::Tooltip(t) => Some(t.clone()),
            _ => None,
        })
    };
    let centred = |x: f64, y: f64, text: &str, whole: String| {
        let width = text_columns(text) * SAID_CHAR_WIDTH + 8.0;
        SaidTarget { x: x - width / 2.0, y: y - 13.0, width, height: 18.0, whole }
    };
    match it.kind {
        // A plain message: its label, cut.
        ItemKind::Message if it.class.split(' ').any(|c| c == "text") => {
            let whole = tooltip()?;
            it.shapes.iter().find_map(|s| match s {
                Shape::Text { x, y, text, class: Some("msg-label") } => Some(centred(*x, *y, text, whole.clone())),
                _ => None,
            })
        }
        ItemKind::Message => {
            let whole = tooltip()?;
            it.shapes.iter().find_map(|s| match s {
                Shape::Text { x, y, text, class: Some("msg-said") } => Some(centred(*x, *y, text, whole.clone())),
                _ => None,
            })
        }
        // A run banner's prompt, a tool call's note: its plate.
        ItemKind::Banner | ItemKind::Tool => {
            let whole = it.label.clone()?;
            it.shapes.iter().find_map(|s| match s {
                Shape::Rect { x, y, width, height, .. } => {
                    Some(SaidTarget { x: *x, y: *y, width: *width, height: *height, whole: whole.clone() })
                }
                _ => None,
            })
        }
        // A failed model call's error: its words.
        ItemKind::Failure => {
            let whole = it.label.clone()?;
            it.shapes.iter().find_map(|s| match s {
                Shape::Text { x, y, text, .. } => Some(SaidTarget {
                    x: x - 4.0,
                    y: y - 13.0,
                    width: text_columns(text) * SAID_CHAR_WIDTH + 8.0,
                    height: 18.0,
                    whole: whole.clone(),
                }),
                _ => None,
            })
        }
        _ => None,
    }
}

/// One diagram row: a banner, spawn, message arrow (with its × if dropped),
/// transition, tool note or failure.
pub fn row(cat: &Catalog, r: &Row) -> Item {
    let y = r.y + ROW_HEIGHT / 2.0;
    let seq = Some(r.seq);
    let (top, bottom) = (r.y, r.y + ROW_HEIGHT);
    match &r.kind {
        RowKind::RunStarted { prompt, whole } => {
            let shown = prompt_shown(cat, prompt);
            let mut it = item(ItemKind::Banner, "banner run-start", seq, top, bottom, banner(y, format!("▶ {shown}")));
            // Cut short (in English, or only in the page's language): whole
            // on hover and on a tap (`said_target`), in the page's language.
            let words = crate::view::words::scenarios::prompt_words(cat, whole.as_deref().unwrap_or(prompt));
            if shown != words {
                it.shapes.push(Shape::Tooltip(words.clone()));
                it.label = Some(format!("prompt: {words}"));
            }
            it
        }
        RowKind::RunFinished => item(ItemKind::Banner, "banner run-end", seq, top, bottom, banner(y, cat.t("diagram-run-finished"))),
        RowKind::BudgetReached { limit } => {
            let words = tr!(cat, "diagram-budget-reached", limit = crate::view::cost::budget_amount(cat, limit, None));
            item(ItemKind::Banner, "banner run-end budget-end", seq, top, bottom, banner(y, words))
        }
        RowKind::Spawn { name, from_x, to_x } => item(
            ItemKind::Spawn,
            "spawn",
            seq,
            top,
            bottom,
            vec![
                line(*from_x, y, to_x - 62.0, y, Some(Head { color: None })),
                // In the gap before the new head, clear of the lifelines
                // the arrow passes on its way.
                text(to_x - (COLUMN_WIDTH + 62.0) / 2.0, y - 4.0, tr!(cat, "diagram-spawn", name = name.as_str()), None),
            ],
        ),
        RowKind::Message { from_x, to_x, label, msg_type, request_id, color, delivered, fault, said, text: whole } => {
            let class = format!(
                "msg {} {} {}{}",
                color.map_or_else(|| "plain".to_string(), |c| format!("c{}", c % PALETTE_SIZE)),
                if *delivered { "delivered" } else { "in-flight" },
                if matches!(msg_type, MessageType::Message | MessageType::Broadcast) { "text" } else { "protocol" },
                fault.map(|f| format!(" fault-{}", f.as_str())).unwrap_or_default()
            );
            let dropped = *fault == Some(Mark::Dropped);
            // A message to oneself is drawn as a short arrow to the right.
            let (x1, x2) = if (to_x - from_x).abs() < 1.0 { (*from_x, from_x + 40.0) } else { (*from_x, *to_x) };
            let dir = if x2 >= x1 { -1.0 } else { 1.0 };
            let head = (!dropped).then_some(Head { color: *color });
            // Label and what was said sit in the gap next to the sender (the
            // middle, between neighbours), never across a lifeline the
            // arrow passes; a plain message's text is cut to that gap.
            let gap = (x2 - x1).abs().min(COLUMN_WIDTH);
            let mid = x1 - dir * gap / 2.0;
            let shown = if matches!(msg_type, MessageType::Message | MessageType::Broadcast) {
                clip(label, ((gap - 16.0) / SAID_CHAR_WIDTH) as usize)
            } else {
                label.clone()
            };
            // A plain message's text cut short is whole on hover, and on a
            // tap (`said_target`).
            let cut = whole.as_ref().filter(|w| shown != format!("{msg_type}: {w}")).map(|w| format!("{msg_type}: {w}"));
            let mut shapes = vec![line(x1, y, x2 + dir * 6.0, y, head), text(mid, y - 5.0, shown, Some("msg-label"))];
            if let Some(cut) = cut {
                shapes.push(Shape::Tooltip(cut));
            }
            // Under the arrow, cut to the gap: the fault that hit it, then
            // what was said (whole on hover).
            let fits = ((gap - 36.0) / SAID_CHAR_WIDTH).max(12.0) as usize;
            let mark = fault.map(|f| cat.t(&format!("diagram-fault-{}", f.as_str())));
            let under = match (mark, said) {
                (Some(mark), Some(said)) => Some(format!("{mark} {}", said_on_arrow(said, fits.saturating_sub(mark.len() + 1)))),
                (Some(mark), None) => Some(mark),
                (None, Some(said)) => Some(said_on_arrow(said, fits)),
                (None, None) => None,
            };
            if let Some(said) = said {
                // After the label: the arrow's text still begins with its type.
                shapes.push(Shape::Tooltip(format!("{}: {}", said.field, said.text)));
            }
            if let Some(under) = under {
                shapes.push(text(mid, y + 15.0, under, Some("msg-said")));
            }
            if dropped {
                // The × stands where the head would have been.
                let cx = x2 + dir * (2.0 + CROSS_HALF);
                shapes.push(Shape::Cross { x: cx, y, half: CROSS_HALF, class: "drop-x", label: cat.t("diagram-dropped") });
            }
            let mut it = item(ItemKind::Message, class, seq, top, bottom, shapes);
            it.request = request_id.clone();
            it
        }
        RowKind::Transition { request_id, to, x, color } => {
            let mut it = item(
                ItemKind::Transition,
                format!("transition c{} to-{to}", color % PALETTE_SIZE),
                seq,
                top,
                bottom,
                vec![text(x + 10.0, y, format!("{request_id}: pending → {to}"), None)],
            );
            it.request = Some(request_id.clone());
            it
        }
        RowKind::Tool { x, label, call: (tool, args), ok, output } => {
            let state = match ok {
                None => "running",
                Some(true) => "ok",
                Some(false) => "error",
            };
            let width = label.chars().count() as f64 * 7.3 + 14.0;
            let result = output.clone().unwrap_or_else(|| cat.t("diagram-tool-running"));
            // A call cut short is whole on hover (above its result), and
            // on a tap (`said_target`: the item's `label`).
            let cut = *label != format!("{tool}({args})");
            let tooltip = if cut { format!("{tool}({args})\n{result}") } else { result };
            let mut it = item(
                ItemKind::Tool,
                format!("note tool-{state}"),
                seq,
                top,
                bottom,
                vec![
                    Shape::Tooltip(tooltip),
                    Shape::Rect { x: x + 8.0, y: r.y + 4.0, width, height: ROW_HEIGHT - 8.0, rx: 3.0, class: None },
                    text(x + 15.0, y + 4.0, label.clone(), None),
                ],
            );
            if cut {
                it.label = Some(format!("{tool}: {args}"));
            }
            it
        }
        RowKind::Failure { x, error, whole } => {
            let mut shapes = vec![text(x + 10.0, y + 4.0, format!("⚠ {error}"), None)];
            // Cut short: whole on hover and on a tap (`said_target`).
            if let Some(whole) = whole {
                shapes.push(Shape::Tooltip(whole.clone()));
            }
            let mut it = item(ItemKind::Failure, "note failure", seq, top, bottom, shapes);
            it.role = Some("alert");
            it.label = whole.as_ref().map(|w| format!("error: {w}"));
            it
        }
    }
}

/// A run banner's prompt (`layout` holds it cut to its room) in `cat`'s
/// language when it is a scenario's, cut to the room the prompt itself
/// takes (the diagram's width is laid out from the prompt, the same in
/// every language), so a longer translation never reaches past the edge.
pub(super) fn prompt_shown(cat: &Catalog, prompt: &str) -> String {
    let words = crate::view::words::scenarios::prompt_words_where(cat, prompt, |p| {
        crate::protocol::text::clip(p, crate::view::diagram::layout::PROMPT_CHARS) == prompt
    });
    cut_to_columns(&words, text_columns(prompt))
}

/// `s` cut (with "…") to at most `columns` Latin characters' widths.
fn cut_to_columns(s: &str, columns: f64) -> String {
    if text_columns(s) <= columns {
        return s.to_string();
    }
    let mut out = String::new();
    let mut used = text_columns("…");
    for c in s.chars() {
        used += text_columns(c.encode_utf8(&mut [0; 4]));
        if used > columns {
            break;
        }
        out.push(c);
    }
    out.trim_end().to_string() + "…"
}

/// A run banner's text on an opaque plate (`plate`, the page's background),
/// so the lifelines and activation bars it spans pass behind it instead of
/// through its words.
fn banner(y: f64, words: String) -> Vec<Shape> {
    let width = text_columns(&words) * BANNER_CHAR_WIDTH + 8.0;
    vec![Shape::Rect { x: BANNER_X - 4.0, y: y - 12.0, width, height: 17.0, rx: 3.0, class: Some("plate") }, text(BANNER_X, y, words, None)]
}
