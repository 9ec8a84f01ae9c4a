//! A laid-out diagram as a standalone SVG document: light palette, styles
//! embedded, `role="img"` with a label and a title.
//!
//! Owns the SVG document (header, styles, arrow markers) and the
//! serialisation of geometry primitives to SVG text. Pure: it must not
//! compute geometry (that is `diagram`) nor touch the DOM.

use std::fmt::Write as _;

use crate::protocol::MemberStatus;
use crate::protocol::MessageType;
use crate::ui::diagram::{Diagram, Row, RowKind, PALETTE_SIZE, ROW_HEIGHT};

/// Height of the title band above the diagram in an SVG export.
pub const SVG_TITLE_HEIGHT: f64 = 28.0;

/// The light palette of request colours, slot for slot with the app's
/// `--c0` ... `--c7`.
pub const SVG_PALETTE: [&str; PALETTE_SIZE] = [
    "#3355cc", "#b8338a", "#148a8a", "#c25e00", "#6b4fc8", "#2f7a4f", "#a23b3b", "#5a6b00",
];

const SVG_STYLE: &str = r#"
text { fill: #1d1f24; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 12px; }
.bg { fill: #f5f6f8; }
.title { font-size: 14px; font-weight: 700; }
.life { stroke: #9aa1b1; stroke-dasharray: 4 4; }
.head { fill: #ffffff; stroke: #d9dce3; }
.status-shutdown .head { opacity: 0.6; }
.head-name { text-anchor: middle; font-weight: 600; }
.head-status { text-anchor: middle; font-size: 9px; fill: #5b6170; }
.cross line { stroke: #c0392b; stroke-width: 3; }
.activation { fill: #c3cdef; stroke: #3355cc; }
.banner text { fill: #5b6170; font-style: italic; }
.spawn line { stroke: #5b6170; stroke-dasharray: 2 3; }
.spawn text { text-anchor: middle; fill: #5b6170; font-size: 11px; }
.msg line { stroke-width: 2; }
.msg.text line { stroke-dasharray: 6 3; }
.msg.in-flight line { stroke-dasharray: 2 4; }
.msg-label { text-anchor: middle; font-size: 11px; }
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
.note text { font-size: 11px; }
.note.failure text { fill: #c0392b; font-weight: 600; }
.badge rect { fill: #ffffff; stroke-width: 2; }
.badge text { text-anchor: middle; font-size: 11px; font-weight: 700; }
.badge.badge-pending text { fill: #a86a12; } .badge.badge-pending rect { stroke: #a86a12; }
.badge.badge-approved text { fill: #2f7a4f; } .badge.badge-approved rect { stroke: #2f7a4f; }
.badge.badge-rejected text { fill: #c0392b; } .badge.badge-rejected rect { stroke: #c0392b; }
"#;

/// `diagram` as a standalone SVG document (light colours, styles embedded,
/// `role="img"` with an `aria-label` and a `<title>`), drawing what the app
/// draws: lifelines with their heads and end crosses, activation bars, every
/// row (run banners, spawns, message arrows in their request's colour with
/// labels, transitions, tool notes, failures) and the request badges with
/// their state. `title` is shown above the diagram. All text is XML-escaped.
pub fn svg(diagram: &Diagram, title: &str) -> String {
    let width = diagram.width.max(600.0);
    let height = diagram.height + SVG_TITLE_HEIGHT;
    let arrows = diagram
        .rows
        .iter()
        .filter(|r| matches!(r.kind, RowKind::Message { .. }))
        .count();
    let label = format!(
        "{title}: sequence diagram of {}, {}, {}",
        count(diagram.columns.len(), "agent"),
        count(arrows, "message"),
        count(diagram.badges.len(), "request")
    );
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
    let _ = writeln!(
        out,
        r#"<rect class="bg" x="0" y="0" width="{width}" height="{height}"/>"#
    );
    let _ = writeln!(
        out,
        r#"<text class="title" x="8" y="19">{}</text>"#,
        xml(title)
    );
    let _ = writeln!(out, r#"<g transform="translate(0 {SVG_TITLE_HEIGHT})">"#);
    for c in &diagram.columns {
        let end = c.ended_y.unwrap_or(diagram.height);
        let status = c.status.map_or("lead", MemberStatus::as_str);
        let head_y = if c.name.is_lead() {
            8.0
        } else {
            c.born_y + 1.0
        };
        let _ = writeln!(out, r#"<g class="lifeline status-{status}">"#);
        let _ = writeln!(
            out,
            r#"<line class="life" x1="{x}" y1="{}" x2="{x}" y2="{end}"/>"#,
            head_y + 28.0,
            x = c.x
        );
        let _ = writeln!(
            out,
            r#"<rect class="head" x="{}" y="{head_y}" width="120" height="28" rx="6"/>"#,
            c.x - 60.0
        );
        let _ = writeln!(
            out,
            r#"<text class="head-name" x="{}" y="{}">{}</text>"#,
            c.x,
            head_y + 14.0,
            xml(c.name.as_str())
        );
        let _ = writeln!(
            out,
            r#"<text class="head-status" x="{}" y="{}">{status}</text>"#,
            c.x,
            head_y + 25.0
        );
        if let Some(y) = c.ended_y {
            let _ = writeln!(
                out,
                r#"<g class="cross"><line x1="{}" y1="{}" x2="{}" y2="{}"/><line x1="{}" y1="{}" x2="{}" y2="{}"/></g>"#,
                c.x - 9.0,
                y - 9.0,
                c.x + 9.0,
                y + 9.0,
                c.x + 9.0,
                y - 9.0,
                c.x - 9.0,
                y + 9.0
            );
        }
        out.push_str("</g>\n");
    }
    for a in &diagram.activations {
        let class = if a.open {
            "activation open"
        } else {
            "activation"
        };
        let _ = writeln!(
            out,
            r#"<rect class="{class}" x="{}" y="{}" width="10" height="{}"/>"#,
            a.x - 5.0,
            a.y0 + 4.0,
            (a.y1 - a.y0).max(8.0)
        );
    }
    for r in &diagram.rows {
        svg_row(&mut out, r);
    }
    for b in &diagram.badges {
        let y = b.y + ROW_HEIGHT / 2.0;
        let _ = writeln!(
            out,
            r#"<g class="badge c{} badge-{}" data-request="{}"><rect x="{}" y="{}" width="74" height="18" rx="9"/><text x="{}" y="{}">{}</text></g>"#,
            b.color % PALETTE_SIZE,
            b.status,
            xml(b.request_id.as_str()),
            b.x + 12.0,
            y - 9.0,
            b.x + 49.0,
            y + 4.0,
            b.status
        );
    }
    out.push_str("</g>\n</svg>\n");
    out
}

fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn marker(id: &str, colour: &str) -> String {
    format!(
        r#"<marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker>"#
    )
}

fn svg_row(out: &mut String, r: &Row) {
    let y = r.y + ROW_HEIGHT / 2.0;
    let seq = r.seq;
    let _ = match &r.kind {
        RowKind::RunStarted { prompt } => {
            writeln!(
                out,
                r#"<g class="banner run-start" data-seq="{seq}"><text x="8" y="{y}">{}</text></g>"#,
                xml(&format!("▶ {prompt}"))
            )
        }
        RowKind::RunFinished => {
            writeln!(
                out,
                r#"<g class="banner run-end" data-seq="{seq}"><text x="8" y="{y}">■ run finished</text></g>"#
            )
        }
        RowKind::Spawn { name, from_x, to_x } => writeln!(
            out,
            r#"<g class="spawn" data-seq="{seq}"><line x1="{from_x}" y1="{y}" x2="{}" y2="{y}" marker-end="url(#arrow-plain)"/><text x="{}" y="{}">{}</text></g>"#,
            to_x - 62.0,
            (from_x + to_x) / 2.0,
            y - 4.0,
            xml(&format!("spawn {name}"))
        ),
        RowKind::Message {
            from_x,
            to_x,
            label,
            msg_type,
            request_id,
            color,
            delivered,
            ..
        } => {
            let class = format!(
                "msg {} {} {}",
                color.map_or_else(|| "plain".to_string(), |c| format!("c{}", c % PALETTE_SIZE)),
                if *delivered { "delivered" } else { "in-flight" },
                if matches!(msg_type, MessageType::Message | MessageType::Broadcast) {
                    "text"
                } else {
                    "protocol"
                },
            );
            let marker = color.map_or_else(
                || "arrow-plain".to_string(),
                |c| format!("arrow-{}", c % PALETTE_SIZE),
            );
            let (x1, x2) = if (to_x - from_x).abs() < 1.0 {
                (*from_x, from_x + 40.0)
            } else {
                (*from_x, *to_x)
            };
            let dir = if x2 >= x1 { -1.0 } else { 1.0 };
            let request = request_id
                .as_ref()
                .map(|id| format!(r#" data-request="{}""#, xml(id.as_str())))
                .unwrap_or_default();
            writeln!(
                out,
                r#"<g class="{class}" data-seq="{seq}"{request}><line x1="{x1}" y1="{y}" x2="{}" y2="{y}" marker-end="url(#{marker})"/><text class="msg-label" x="{}" y="{}">{}</text></g>"#,
                x2 + dir * 6.0,
                (x1 + x2) / 2.0,
                y - 5.0,
                xml(label)
            )
        }
        RowKind::Transition {
            request_id,
            to,
            x,
            color,
        } => writeln!(
            out,
            r#"<g class="transition c{} to-{to}" data-seq="{seq}" data-request="{}"><text x="{}" y="{y}">{}</text></g>"#,
            color % PALETTE_SIZE,
            xml(request_id.as_str()),
            x + 10.0,
            xml(&format!("{request_id}: pending → {to}"))
        ),
        RowKind::Tool {
            x,
            label,
            ok,
            output,
        } => {
            let state = match ok {
                None => "running",
                Some(true) => "ok",
                Some(false) => "error",
            };
            let tip = output.as_deref().unwrap_or("running…");
            writeln!(
                out,
                r#"<g class="note tool-{state}" data-seq="{seq}"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" rx="3"/><text x="{}" y="{}">{}</text></g>"#,
                xml(tip),
                x + 8.0,
                r.y + 4.0,
                label.chars().count() as f64 * 6.6 + 14.0,
                ROW_HEIGHT - 8.0,
                x + 15.0,
                y + 4.0,
                xml(label)
            )
        }
        RowKind::Failure { x, error } => writeln!(
            out,
            r#"<g class="note failure" data-seq="{seq}"><text x="{}" y="{}">{}</text></g>"#,
            x + 10.0,
            y + 4.0,
            xml(&format!("⚠ {error}"))
        ),
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
    use crate::protocol::{AgentName, Millis, RequestKind, Team, Trace};
    use crate::ui::diagram::layout;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// alice: spawned, asked to shut down, approves, exits.
    fn handshake() -> Trace {
        let mut t = Team::new("default", 7);
        t.start_run("Spawn alice; then shut her down.", Millis(0))
            .unwrap();
        t.spawn(&name("alice"), "coder", false, Millis(1)).unwrap();
        t.send(
            &AgentName::lead(),
            &name("alice"),
            "message",
            "hi; #1 <b>&</b>\n100%",
            Millis(2),
        )
        .unwrap();
        let id = t
            .request_shutdown(&AgentName::lead(), &name("alice"), Millis(3))
            .unwrap();
        t.drain(&name("alice"), Millis(4)).unwrap();
        t.answer(
            RequestKind::Shutdown,
            &id,
            &name("alice"),
            true,
            "done",
            Millis(5),
        )
        .unwrap();
        t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(6))
            .unwrap();
        t.finish_run(Millis(7)).unwrap();
        t.trace().clone()
    }

    #[test]
    fn xml_escapes_the_five_and_drops_forbidden_characters() {
        assert_eq!(
            xml("<a href=\"x\">'&'</a>\u{1}\n"),
            "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt; "
        );
    }

    #[test]
    fn the_svg_is_a_standalone_accessible_document() {
        let d = layout(&handshake(), None);
        let s = svg(&d, "Run <1> & co");
        assert!(s.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "));
        assert!(
            s.contains(" role=\"img\" aria-label=\"Run &lt;1&gt; &amp; co: sequence diagram of 2 agents, 3 messages, 1 request\""),
            "{s}"
        );
        assert!(s.contains("<title>Run &lt;1&gt; &amp; co</title>"));
        assert!(s.contains(&format!(
            "viewBox=\"0 0 {} {}\"",
            d.width.max(600.0),
            d.height + SVG_TITLE_HEIGHT
        )));
        assert!(s.contains("<style>") && s.contains("class=\"badge c0 badge-approved\""));
        assert!(s.contains("hi; #1 &lt;b&gt;&amp;&lt;/b&gt; 100%"), "{s}");
        assert!(s.trim_end().ends_with("</svg>"));
    }
}
