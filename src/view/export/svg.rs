//! The run as a standalone SVG document: light palette, styles embedded,
//! `role="img"` with a label and a title.
//!
//! Owns the SVG document (header, styles, arrow markers) and the
//! serialisation of `geometry` primitives to SVG text. Pure: it must not
//! place anything itself (where things go is `diagram` and `geometry`, which
//! the live view draws too) nor touch the DOM.

use std::fmt::Write as _;

use crate::protocol::{check, Team, Trace};
use crate::view::cost::spend_at;
use crate::view::diagram::geometry::{activation_with_cost, draw_as_of, head_cost, Geometry, Item, Shape};
use crate::view::diagram::layout::{Layout, PALETTE_SIZE};
use crate::view::diagram::legend::{legend, legend_summary};
use crate::view::diagram::motion_draw;
use crate::view::i18n::{tr, Catalog};
use crate::view::prices::Price;

/// Space between the diagram and its legend in an SVG export.
pub const SVG_LEGEND_GAP: f64 = 12.0;
/// Height of the title band above the diagram in an SVG export.
pub const SVG_TITLE_HEIGHT: f64 = 28.0;

/// The light palette of request colours, slot for slot with the app's
/// `--c0` ... `--c7`.
pub const SVG_PALETTE: [&str; PALETTE_SIZE] = ["#3355cc", "#b8338a", "#148a8a", "#c25e00", "#6b4fc8", "#2f7a4f", "#a23b3b", "#5a6b00"];

const SVG_STYLE: &str = r#"
text { fill: #1d1f24; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 13px; }
.bg { fill: #f5f6f8; }
.title { font-size: 14px; font-weight: 700; }
.life { stroke: #9aa1b1; stroke-dasharray: 4 4; }
.head { fill: #ffffff; stroke: #d9dce3; }
.status-shutdown .head { opacity: 0.6; }
.head-name { text-anchor: middle; font-weight: 600; }
.head-status { text-anchor: middle; font-size: 13px; fill: #5b6170; }
.cross line { stroke: #c0392b; stroke-width: 3; }
.activation { fill: #c3cdef; stroke: #3355cc; }
.banner text { fill: #5b6170; font-style: italic; }
.plate { fill: #f5f6f8; }
.spawn line { stroke: #5b6170; stroke-dasharray: 2 3; }
.spawn text { text-anchor: middle; fill: #5b6170; font-size: 13px; }
.msg line { stroke-width: 2; }
.msg.text line { stroke-dasharray: 6 3; }
.msg.in-flight line { stroke-dasharray: 2 4; }
.msg-label { text-anchor: middle; font-size: 13px; }
.msg-said { text-anchor: middle; font-size: 13px; font-style: italic; fill: #3d4250; }
.plain line { stroke: #5b6170; }
.c0 line { stroke: #3355cc; } .c0 rect { stroke: #3355cc; }
.c1 line { stroke: #b8338a; } .c1 rect { stroke: #b8338a; }
.c2 line { stroke: #148a8a; } .c2 rect { stroke: #148a8a; }
.c3 line { stroke: #c25e00; } .c3 rect { stroke: #c25e00; }
.c4 line { stroke: #6b4fc8; } .c4 rect { stroke: #6b4fc8; }
.c5 line { stroke: #2f7a4f; } .c5 rect { stroke: #2f7a4f; }
.c6 line { stroke: #a23b3b; } .c6 rect { stroke: #a23b3b; }
.c7 line { stroke: #5a6b00; } .c7 rect { stroke: #5a6b00; }
.transition text { font-weight: 600; }
.transition.to-approved text { fill: #2f7a4f; }
.transition.to-rejected text { fill: #c0392b; }
.note rect { fill: #fbf3d4; stroke: #c9a227; }
.note.tool-error rect { fill: #f5dcd9; stroke: #c0392b; }
.note.tool-running rect { stroke-dasharray: 3 2; }
.note text { font-size: 13px; }
.note.failure text { fill: #c0392b; font-weight: 600; }
.badge rect { fill: #ffffff; stroke-width: 2; }
.badge text { text-anchor: middle; font-size: 13px; font-weight: 700; }
.badge.badge-pending text { fill: #a86a12; } .badge.badge-pending rect { stroke: #a86a12; }
.badge.badge-approved text { fill: #2f7a4f; } .badge.badge-approved rect { stroke: #2f7a4f; }
.badge.badge-rejected text { fill: #c0392b; } .badge.badge-rejected rect { stroke: #c0392b; }
.msg.fault-dropped line { stroke-dasharray: 3 3; opacity: 0.8; }
.msg.fault-duplicate .msg-label, .msg.fault-delayed .msg-label, .msg.fault-reordered .msg-label { font-style: italic; }
.violation-mark text { fill: #c0392b; font-size: 14px; font-weight: 700; }
.msg .drop-x line { stroke: #c0392b; stroke-width: 3; stroke-dasharray: none; opacity: 1; }
.legend .legend-entry text.legend-text { font-size: 13px; fill: #3d4250; text-anchor: start; font-weight: 400; font-style: normal; }
.legend-rule { stroke: #d9dce3; }
.envelope { fill: #ffffff; stroke: #3355cc; stroke-width: 1.3; }
.flap { stroke: #3355cc; stroke-width: 1.1; fill: none; }
.inbox-pill { fill: #3355cc; stroke: none; }
.inbox-digits { fill: #ffffff; font-size: 12px; font-weight: 700; }
.held-path, .legend-path { stroke: #a86a12; stroke-width: 2; stroke-dasharray: 2 4; }
.legend-path { stroke: #5b6170; }
.held-msg .envelope { fill: #f6ead6; stroke: #a86a12; }
.held-msg .flap { stroke: #a86a12; }
.held-word { fill: #a86a12; font-style: italic; font-weight: 600; }
.legend-activation { fill: #c3cdef; stroke: #3355cc; }
.head-cost { text-anchor: start; font-size: 12px; fill: #5b6170; }
"#;

/// The run on screen as a standalone SVG document in `cat`'s language:
/// `trace` laid out as of `cursor` (all of it for `None`), with the
/// invariant checker's violations marked and the messages waiting in
/// inboxes or held by a fault at that point, drawn from the same geometry
/// as the live view; what each call and each agent cost is drawn in tokens
/// only (`svg_of_run_priced` adds the dollars).
pub fn svg_of_run(cat: &Catalog, trace: &Trace, cursor: Option<usize>, title: &str) -> String {
    svg_of_run_priced(cat, trace, cursor, title, None)
}

/// [`svg_of_run`] with the run's model's `price` (none: unknown model, or
/// the scripted one's estimates): what the page shows about cost, drawn by
/// the page's own pieces — each model call's bar titled with its usage and
/// dollars (`geometry::activation_with_cost`), each agent's tokens and
/// dollars beside its head (`geometry::head_cost`), as of `cursor`.
pub fn svg_of_run_priced(cat: &Catalog, trace: &Trace, cursor: Option<usize>, title: &str, price: Option<&Price>) -> String {
    let shown = cursor.unwrap_or(usize::MAX).min(trace.len());
    // One layout: its diagram and its flights read the same fates.
    let whole = Layout::of(trace);
    let diagram = whole.diagram(trace.entries(), cursor, None);
    // The marks' words agree with the tracker as of the same cursor.
    let team = Team::replay(&trace.prefix(shown)).ok();
    let mut geometry = draw_as_of(cat, &diagram, &check(trace), team.as_ref().map(Team::tracker), shown);
    let motion = whole.flights().at(shown, None);
    geometry.motion = motion_draw::draw(cat, &motion, &diagram, |seq| diagram.y_of(seq)).items;
    geometry.activations = diagram.activations.iter().map(|a| activation_with_cost(cat, a, price)).collect();
    let spend = spend_at(trace, cursor);
    geometry.lifelines.extend(diagram.columns.iter().filter_map(|c| spend.agents.get(&c.name).and_then(|sp| head_cost(cat, c, sp, price))));
    svg(cat, &geometry, title)
}

/// `geometry` as a standalone SVG document (light colours, styles embedded,
/// `role="img"` with an `aria-label` and a `<title>`): every item of every
/// layer, back to front, then the legend under the drawing, each a `<g>` with its classes, event number and
/// request, holding its shapes. `title` is shown above the drawing. All
/// text is XML-escaped.
pub fn svg(cat: &Catalog, geometry: &Geometry, title: &str) -> String {
    let legend = legend(cat, geometry.height + SVG_LEGEND_GAP, geometry.width);
    // The legend's words may need more room than a small diagram.
    let width = geometry.width.max(legend.width);
    let height = geometry.height + SVG_TITLE_HEIGHT + SVG_LEGEND_GAP + legend.height;
    let label = tr!(cat, "svg-label", title = title, agents = geometry.agents, messages = geometry.messages, requests = geometry.requests);
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{}">"#,
        xml(&label)
    );
    let _ = writeln!(out, "<title>{}</title>", xml(title));
    let _ = writeln!(out, "<style>{SVG_STYLE}</style>");
    out.push_str("<defs>\n");
    for (i, colour) in SVG_PALETTE.iter().enumerate() {
        let _ = writeln!(out, "{}", marker(&format!("arrow-{i}"), colour));
    }
    let _ = writeln!(out, "{}", marker("arrow-plain", "#5b6170"));
    out.push_str("</defs>\n");
    let _ = writeln!(out, r#"<rect class="bg" x="0" y="0" width="{width}" height="{height}"/>"#);
    let _ = writeln!(out, r#"<text class="title" x="8" y="19">{}</text>"#, xml(title));
    let _ = writeln!(out, r#"<g transform="translate(0 {SVG_TITLE_HEIGHT})">"#);
    for it in geometry.items() {
        item(&mut out, it);
    }
    let _ = writeln!(out, r#"<g class="legend" role="list" aria-label="{}">"#, xml(&legend_summary(cat)));
    let _ = writeln!(out, r#"<line class="legend-rule" x1="8" y1="{0}" x2="{1}" y2="{0}"/>"#, geometry.height + 4.0, width - 8.0);
    for it in &legend.items {
        item(&mut out, it);
    }
    out.push_str("</g>\n</g>\n</svg>\n");
    out
}

fn marker(id: &str, colour: &str) -> String {
    format!(
        r#"<marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker>"#
    )
}

/// ` name="value"` with the value escaped, or nothing.
fn attr(name: &str, value: Option<&str>) -> String {
    value.map(|v| format!(r#" {name}="{}""#, xml(v))).unwrap_or_default()
}

fn item(out: &mut String, it: &Item) {
    let seq = it.seq.map(|s| s.to_string());
    let _ = write!(
        out,
        r#"<g class="{}"{}{}{}{}>"#,
        xml(&it.class),
        attr("data-seq", seq.as_deref()),
        attr("data-request", it.request.as_ref().map(|r| r.as_str())),
        attr("role", it.role),
        attr("aria-label", it.label.as_deref())
    );
    for s in &it.shapes {
        shape(out, s);
    }
    out.push_str("</g>\n");
}

/// One primitive as SVG. The match has no wildcard arm: every `Shape` kind
/// is serialised (the live view's `shape_view` matches the same way).
#[deny(clippy::wildcard_enum_match_arm)]
fn shape(out: &mut String, s: &Shape) {
    let _ = match s {
        Shape::Line { x1, y1, x2, y2, class, head } => write!(
            out,
            r#"<line{} x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"{}/>"#,
            attr("class", *class),
            head.map(|h| format!(r#" marker-end="url(#{})""#, h.marker_id())).unwrap_or_default()
        ),
        Shape::Cross { x, y, half, class, label } => write!(
            out,
            r#"<g class="{class}" aria-label="{}"><line x1="{}" y1="{}" x2="{}" y2="{}"/><line x1="{}" y1="{}" x2="{}" y2="{}"/></g>"#,
            xml(label),
            x - half,
            y - half,
            x + half,
            y + half,
            x + half,
            y - half,
            x - half,
            y + half
        ),
        Shape::Text { x, y, text, class } => write!(out, r#"<text{} x="{x}" y="{y}">{}</text>"#, attr("class", *class), xml(text)),
        Shape::Rect { x, y, width, height, rx, class } => {
            write!(out, r#"<rect{} x="{x}" y="{y}" width="{width}" height="{height}" rx="{rx}"/>"#, attr("class", *class))
        }
        Shape::Tooltip(text) => write!(out, "<title>{}</title>", xml(text)),
    };
}

/// Text made safe for XML content and attribute values: the five special
/// characters become entities and characters XML 1.0 forbids are dropped.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || matches!(c, '\u{fffe}' | '\u{ffff}') => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::check;
    use crate::protocol::testing::handshake;
    use crate::view::diagram::geometry::fixtures::faulty_run;
    use crate::view::diagram::geometry::{draw, ShapeKind};
    use crate::view::diagram::layout::layout;

    #[test]
    fn xml_escapes_the_five_and_drops_forbidden_characters() {
        assert_eq!(xml("<a href=\"x\">'&'</a>\u{1}\n"), "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt; ");
    }

    #[test]
    fn the_svg_is_a_standalone_accessible_document() {
        let d = layout(&handshake(), None);
        let en = Catalog::en();
        let s = svg(en, &draw(en, &d, &[], 0), "Run <1> & co");
        assert!(s.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "));
        assert!(
            s.contains(" role=\"img\" aria-label=\"Run &lt;1&gt; &amp; co: sequence diagram of 2 agents, 3 messages, 1 request\""),
            "{s}"
        );
        assert!(s.contains("<title>Run &lt;1&gt; &amp; co</title>"));
        let legend = crate::view::diagram::legend::legend(en, 0.0, d.width.max(600.0));
        assert!(s.contains(&format!(
            "viewBox=\"0 0 {} {}\"",
            d.width.max(600.0),
            d.height + SVG_TITLE_HEIGHT + SVG_LEGEND_GAP + legend.height
        )));
        assert!(
            s.contains("<g class=\"legend\" role=\"list\"") && s.contains(">solid: read; colour = its request_id</text>"),
            "the legend is in the export"
        );
        assert!(s.contains("<style>") && s.contains("class=\"badge fsm c0 badge-approved\""));
        assert!(s.contains("hi; #1 &lt;b&gt;&amp;&lt;/b&gt; 100%"), "{s}");
        assert!(s.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn the_svg_shows_what_the_page_shows_about_cost_each_call_in_its_title_each_agent_beside_its_head() {
        use crate::protocol::{AgentName, Event, Millis};
        let lead = AgentName::lead();
        let mut trace = Trace::new("t", 1);
        for (i, e) in [
            Event::RunStarted { prompt: "hi".into() },
            Event::ModelCalled { agent: lead.clone() },
            Event::ModelReplied {
                agent: lead.clone(),
                text: "done".into(),
                stop_reason: "end_turn".into(),
                input_tokens: 1000,
                output_tokens: 500,
                cache_read_tokens: 0,
                cache_write_tokens: 0,
                measured: true,
            },
        ]
        .into_iter()
        .enumerate()
        {
            trace.append(Millis(i as u64), e).unwrap();
        }
        let en = Catalog::en();
        let table = crate::view::prices::PriceTable::default();
        let price = table.price_of("claude-sonnet-4-5");
        let priced = svg_of_run_priced(en, &trace, None, "cost", price);
        // The same words the page's pieces draw: the bar's title, the head's text.
        let diagram = Layout::of(&trace).diagram(trace.entries(), None, None);
        let bar = activation_with_cost(en, &diagram.activations[0], price);
        let Some(Shape::Tooltip(title)) = bar.shapes.last() else { panic!("the bar has its cost as title") };
        assert_eq!(title, "Usage: 1000 in, 500 out ($0.0105).");
        assert!(priced.contains(&format!("<title>{}</title>", xml(title))), "{priced}");
        assert!(priced.contains(r#"<text class="head-cost""#) && priced.contains(">1.5k tok</text>") && priced.contains(">$0.0105</text>"));
        assert!(priced.contains(".head-cost {"), "styled in the export's own sheet");
        // Without a price: tokens only, never an invented price.
        let unpriced = svg_of_run(en, &trace, None, "cost");
        assert!(unpriced.contains("<title>Usage: 1000 in, 500 out.</title>") && unpriced.contains(">1.5k tok</text>"));
        assert!(!unpriced.contains('$'), "no price, no dollars");
        // As of a cursor before the reply, nothing is spent yet.
        let before = svg_of_run_priced(en, &trace, Some(2), "cost", price);
        assert!(!before.contains("head-cost\"") && !before.contains("Usage:"), "{before}");
        // In another language, the page's words in that language.
        let ja = svg_of_run_priced(Catalog::get(crate::view::i18n::Locale::Ja), &trace, None, "cost", price);
        assert!(!ja.contains("Usage:") && ja.contains("$0.0105"));
    }

    #[test]
    fn the_svg_of_a_run_with_a_dropped_message_shows_the_cross() {
        let s = svg_of_run(Catalog::en(), &faulty_run(), None, "faulty");
        let dropped = s.lines().find(|l| l.starts_with("<g class=\"msg ") && l.contains(" fault-dropped\"")).expect("a dropped arrow");
        assert!(dropped.contains(r#"<g class="drop-x" aria-label="dropped"><line "#), "{dropped}");
        assert!(!dropped.contains("marker-end"), "a dropped arrow has no head: {dropped}");
    }

    #[test]
    fn the_svg_of_a_run_with_a_violation_marks_it_at_its_event() {
        let trace = faulty_run();
        let violations = check(&trace);
        assert!(!violations.is_empty());
        let s = svg_of_run(Catalog::en(), &trace, None, "faulty");
        for v in &violations {
            let mark = format!(r#"<g class="violation-mark" data-seq="{}""#, v.seq);
            let line = s.lines().find(|l| l.starts_with(&mark)).unwrap_or_else(|| panic!("no mark for {v:?} in {s}"));
            assert!(line.contains(&format!(r#"aria-label="violation: {}""#, v.kind)), "{line}");
            assert!(line.contains(&xml(&v.detail.to_string())), "the tooltip says what happened: {line}");
            assert!(line.contains(">⚠</text>"), "{line}");
        }
    }

    #[test]
    fn every_shape_kind_is_serialised() {
        let trace = faulty_run();
        let g = draw(Catalog::en(), &layout(&trace, None), &check(&trace), trace.len());
        for kind in ShapeKind::ALL {
            let one = g.items().flat_map(|i| &i.shapes).find(|s| s.kind() == kind).expect("the fixture has every kind");
            let mut out = String::new();
            shape(&mut out, one);
            let tag = match kind {
                ShapeKind::Line => "<line ",
                ShapeKind::Cross => "<g class=",
                ShapeKind::Text => "<text",
                ShapeKind::Rect => "<rect",
                ShapeKind::Tooltip => "<title>",
            };
            assert!(out.starts_with(tag), "{kind:?}: {out}");
        }
    }

    #[test]
    fn the_cross_of_a_dropped_message_is_styled_solid_red_over_the_arrow_styles() {
        // Later rules of equal specificity win: the × must not inherit the
        // dashes of an in-flight or dropped arrow's line.
        let cross = SVG_STYLE.find(".msg .drop-x line {").expect("a rule for the cross");
        for earlier in [".msg.in-flight line", ".msg.text line", ".msg.fault-dropped line", ".c0 line"] {
            assert!(SVG_STYLE.find(earlier).is_some_and(|at| at < cross), "{earlier} comes before the cross's rule");
        }
        let rule = &SVG_STYLE[cross..][..SVG_STYLE[cross..].find('}').unwrap()];
        assert!(rule.contains("stroke-dasharray: none") && rule.contains("stroke: #c0392b"), "{rule}");
    }

    #[test]
    fn the_svg_shows_the_messages_waiting_in_inboxes_and_held_by_a_fault_at_the_cursor() {
        use crate::protocol::{AgentName, FaultAction, FaultPlan, FaultRule, Millis, Team};
        let alice = AgentName::parse("alice").unwrap();
        let mut t = Team::new("d", 1);
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        t.send(&AgentName::lead(), &alice, "message", "first", Millis(1)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Delay { ms: 50 })]));
        t.send(&AgentName::lead(), &alice, "message", "second", Millis(2)).unwrap();
        let trace = t.trace().clone();
        let s = svg_of_run(Catalog::en(), &trace, None, "held");
        assert!(s.contains(r#"aria-label="alice&apos;s inbox: 1 waiting""#), "the first message waits in alice's inbox: {s}");
        assert!(s.contains(r#"<g class="held-msg""#) && s.contains(">held (delayed)</text>"), "the second is held by the delay: {s}");
        assert!(s.contains(".held-path") && s.contains(".inbox-pill"), "their styles are embedded");
        // At the cursor before the first send nothing waits and nothing is held.
        let before = svg_of_run(Catalog::en(), &trace, Some(1), "held");
        assert!(!before.contains("inbox:") && !before.contains("<g class=\"held-msg"), "{before}");
    }

    #[test]
    fn the_svg_speaks_the_page_language_but_keeps_protocol_identifiers() {
        let trace = faulty_run();
        let ja = svg_of_run(Catalog::get(crate::view::i18n::Locale::Ja), &trace, None, "faulty");
        assert!(ja.contains("シーケンス図") && ja.contains("■ 実行終了") && ja.contains("凡例"), "{ja}");
        assert!(ja.contains("shutdown_request") && ja.contains("pending → approved"), "identifiers stay as they are");
        assert!(!ja.contains("run finished") && !ja.contains("sequence diagram of"), "no English words of the drawing are left");
    }
}
