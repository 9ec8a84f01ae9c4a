//! Random VALID protocol files, as TOML text from a proptest strategy: one
//! to three protocols (every direction the loader accepts, fields of each
//! type, effects, deadlines and retries, scripted answers), an optional
//! gate that the first protocol opens, the lesson's protocols or not, a
//! team of one or two teammates with a few lead steps (ask, answer, list,
//! send), a fault rule and a few properties.
//!
//! Owns test plumbing only. The strategy draws small choices (integers and
//! flags, so proptest shrinks them); `render` turns them into a file the
//! loader must accept, keeping every rule of the format (an `exit` never on
//! the lead, `retries` only with a deadline, a gate opened by a protocol,
//! steps that ask only with protocols the lead may use and give every
//! required field, asking until approved only a teammate that may approve). A file it renders that the loader refuses is a bug in
//! this generator or in the loader: the property tests say which text.

use std::fmt::Write as _;

use proptest::prelude::*;

/// Who asks and who answers a generated protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// The lead asks a teammate.
    LeadToTeammate,
    /// A teammate asks the lead.
    TeammateToLead,
    /// A teammate asks another teammate.
    TeammateToTeammate,
    /// Anyone asks a teammate.
    AnyToTeammate,
}

impl Direction {
    fn roles(self) -> (&'static str, &'static str) {
        match self {
            Direction::LeadToTeammate => ("lead", "teammate"),
            Direction::TeammateToLead => ("teammate", "lead"),
            Direction::TeammateToTeammate => ("teammate", "teammate"),
            Direction::AnyToTeammate => ("any", "teammate"),
        }
    }

    fn lead_asks(self) -> bool {
        matches!(self, Direction::LeadToTeammate | Direction::AnyToTeammate)
    }

    fn teammate_asks(self) -> bool {
        !matches!(self, Direction::LeadToTeammate)
    }

    fn to_teammate(self) -> bool {
        !matches!(self, Direction::TeammateToLead)
    }
}

/// A field's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `string`.
    Text,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `enum` of two or three values.
    Enum(u8),
}

/// One generated field.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FieldChoice {
    /// On the response (else the request).
    pub(crate) response: bool,
    /// Its type.
    pub(crate) kind: Kind,
    /// Whether it is required.
    pub(crate) required: bool,
    /// Whether a string field is the message's content.
    pub(crate) content: bool,
}

/// One generated protocol's choices.
#[derive(Debug, Clone)]
pub(crate) struct ProtocolChoice {
    /// Who asks, who answers.
    pub(crate) direction: Direction,
    /// Its fields.
    pub(crate) fields: Vec<FieldChoice>,
    /// Effect choices on approve and reject (0 = none, 1 = exit, 2 = open
    /// the gate, 3 = close it), each kept only where it is legal.
    pub(crate) on_approve: u8,
    /// See `on_approve`.
    pub(crate) on_reject: u8,
    /// `one_pending_per_addressee`.
    pub(crate) one_pending: bool,
    /// `deadline_ms`.
    pub(crate) deadline_ms: Option<u64>,
    /// `retries` (written only with a deadline).
    pub(crate) retries: u8,
    /// The scripted answer (0 approve, 1 reject, 2 reject_first, 3 never).
    pub(crate) scripted: u8,
    /// Whether it has a status tool.
    pub(crate) status_tool: bool,
    /// Whether it has an answer tool (left out only where the file switches
    /// `responder_required` off).
    pub(crate) respond_tool: bool,
}

/// One generated lead step after the spawns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StepChoice {
    /// 0 ask, 1 answer, 2 list, 3 send.
    pub(crate) kind: u8,
    /// Which protocol (modulo their number).
    pub(crate) protocol: u8,
    /// Which teammate (modulo their number).
    pub(crate) teammate: u8,
    /// The answer's approval.
    pub(crate) approve: bool,
    /// Wait for a protocol to settle first (an ask).
    pub(crate) after: bool,
    /// Ask again until approved (an ask).
    pub(crate) until: bool,
    /// Wait for the teammate's plain message instead of a settle (an ask
    /// with `after`).
    pub(crate) after_message: bool,
}

/// One generated property.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PropertyChoice {
    /// 0 absence, 1 existence, 2 at_most, 3 precedence, 4 response.
    pub(crate) pattern: u8,
    /// Events (0 created, 1 approved, 2 rejected, 3 settled, 4 expired).
    pub(crate) first: u8,
    /// See `first`.
    pub(crate) second: u8,
    /// Which protocols (modulo their number).
    pub(crate) protocol: u8,
    /// See `protocol`.
    pub(crate) other: u8,
    /// 0 run, 1 per_agent, 2 per_request.
    pub(crate) scope: u8,
}

/// A fault rule's choices.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FaultChoice {
    /// 0 drop, 1 duplicate, 2 delay, 3 reorder.
    pub(crate) action: u8,
    /// Which message type (modulo the file's own).
    pub(crate) message_type: u8,
    /// Probability 1.0 or 0.5.
    pub(crate) always: bool,
}

/// Everything a generated file is made of.
#[derive(Debug, Clone)]
pub(crate) struct FileChoice {
    /// `use = ["lesson"]`.
    pub(crate) lesson: bool,
    /// A gate closing the write tools, opened by the first protocol.
    pub(crate) gate: bool,
    /// The protocols.
    pub(crate) protocols: Vec<ProtocolChoice>,
    /// Teammates (each flag: closed behind the gate at spawn).
    pub(crate) teammates: Vec<bool>,
    /// A teammate's own scripted answer to a protocol: (teammate,
    /// protocol, answer), each modulo their number.
    pub(crate) override_answer: Option<(u8, u8, u8)>,
    /// Two prompts (the later steps belong to the second).
    pub(crate) two_prompts: bool,
    /// Rules switched off: the four of `protocol::rules`, then
    /// `responder_required`.
    pub(crate) rules_off: [bool; 5],
    /// The lead's steps after spawning everyone.
    pub(crate) steps: Vec<StepChoice>,
    /// A fault rule.
    pub(crate) fault: Option<FaultChoice>,
    /// Properties.
    pub(crate) properties: Vec<PropertyChoice>,
}

fn direction() -> impl Strategy<Value = Direction> {
    prop_oneof![
        Just(Direction::LeadToTeammate),
        Just(Direction::TeammateToLead),
        Just(Direction::TeammateToTeammate),
        Just(Direction::AnyToTeammate),
    ]
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![Just(Kind::Text), Just(Kind::Bool), Just(Kind::Int), (2u8..=3).prop_map(Kind::Enum)]
}

fn field() -> impl Strategy<Value = FieldChoice> {
    (any::<bool>(), kind(), any::<bool>(), any::<bool>()).prop_map(|(response, kind, required, content)| FieldChoice {
        response,
        kind,
        required,
        content,
    })
}

fn protocol() -> impl Strategy<Value = ProtocolChoice> {
    (
        direction(),
        prop::collection::vec(field(), 0..=3),
        0u8..4,
        0u8..4,
        any::<bool>(),
        prop::option::of(prop_oneof![Just(500u64), Just(5_000), Just(30_000)]),
        0u8..=2,
        0u8..4,
        any::<bool>(),
        prop::bool::weighted(0.8),
    )
        .prop_map(
            |(direction, fields, on_approve, on_reject, one_pending, deadline_ms, retries, scripted, status_tool, respond_tool)| {
                ProtocolChoice {
                    direction,
                    fields,
                    on_approve,
                    on_reject,
                    one_pending,
                    deadline_ms,
                    retries,
                    scripted,
                    status_tool,
                    respond_tool,
                }
            },
        )
}

fn step() -> impl Strategy<Value = StepChoice> {
    (0u8..4, any::<u8>(), any::<u8>(), any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(kind, protocol, teammate, approve, after, until, after_message)| StepChoice {
            kind,
            protocol,
            teammate,
            approve,
            after,
            until,
            after_message,
        },
    )
}

fn property() -> impl Strategy<Value = PropertyChoice> {
    (0u8..5, 0u8..5, 0u8..5, any::<u8>(), any::<u8>(), 0u8..3).prop_map(|(pattern, first, second, protocol, other, scope)| PropertyChoice {
        pattern,
        first,
        second,
        protocol,
        other,
        scope,
    })
}

fn fault() -> impl Strategy<Value = FaultChoice> {
    (0u8..4, any::<u8>(), any::<bool>()).prop_map(|(action, message_type, always)| FaultChoice { action, message_type, always })
}

/// The choices of a random valid file.
pub(crate) fn file_choice() -> impl Strategy<Value = FileChoice> {
    (
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(protocol(), 1..=3),
        prop::collection::vec(any::<bool>(), 1..=2),
        prop::collection::vec(step(), 0..=4),
        prop::option::of(fault()),
        prop::collection::vec(property(), 0..=2),
        (prop::option::of((any::<u8>(), any::<u8>(), 0u8..4)), any::<bool>(), prop::array::uniform5(prop::bool::weighted(0.2))),
    )
        .prop_map(|(lesson, gate, protocols, teammates, steps, fault, properties, (override_answer, two_prompts, rules_off))| {
            FileChoice { lesson, gate, protocols, teammates, override_answer, two_prompts, rules_off, steps, fault, properties }
        })
}

/// A random valid protocol file's text.
pub(crate) fn protocol_file_text() -> impl Strategy<Value = String> {
    file_choice().prop_map(|c| render(&c))
}

/// A random protocol file's text that may also ask until approved a
/// teammate whose scripted answer is always `reject` (a step the loader
/// refuses, as it can never be satisfied); otherwise valid.
pub(crate) fn protocol_file_text_asking_until_approved_of_anyone() -> impl Strategy<Value = String> {
    file_choice().prop_map(|c| render_with(&c, true))
}

const TEAMMATES: [&str; 2] = ["ann", "ben"];
const ANSWERS: [&str; 4] = ["approve", "reject", "reject_first", "never"];
const RULES: [&str; 5] = ["incarnation_binding", "addressee_only", "exit_after_approval", "wake_on_message", "responder_required"];
const ENUM_VALUES: [&str; 3] = ["low", "mid", "high"];
const EVENTS: [&str; 5] = ["created", "approved", "rejected", "settled", "expired"];

fn protocol_name(i: usize) -> String {
    format!("p{i}")
}

/// The field's name: its type and its place, `note0`, `flag1`, ...
fn field_name(f: &FieldChoice, i: usize) -> String {
    let stem = match f.kind {
        Kind::Text => "note",
        Kind::Bool => "flag",
        Kind::Int => "count",
        Kind::Enum(_) => "level",
    };
    format!("{stem}{i}")
}

fn field_toml(f: &FieldChoice, i: usize, content_taken: &mut bool) -> String {
    let mut s = format!("{{ name = \"{}\", type = ", field_name(f, i));
    match f.kind {
        Kind::Text => s.push_str("\"string\""),
        Kind::Bool => s.push_str("\"bool\""),
        Kind::Int => s.push_str("\"int\""),
        Kind::Enum(n) => {
            let values = ENUM_VALUES[..usize::from(n)].iter().map(|v| format!("\"{v}\"")).collect::<Vec<_>>().join(", ");
            write!(s, "\"enum\", values = [{values}]").unwrap();
        }
    }
    if f.required {
        s.push_str(", required = true");
    }
    if f.content && f.kind == Kind::Text && !*content_taken {
        *content_taken = true;
        s.push_str(", content = true");
    }
    s.push_str(" }");
    s
}

/// A value for a field in a step's `fields`.
fn field_value(f: &FieldChoice) -> String {
    match f.kind {
        Kind::Text => "\"done\"".to_string(),
        Kind::Bool => "true".to_string(),
        Kind::Int => "3".to_string(),
        Kind::Enum(_) => format!("\"{}\"", ENUM_VALUES[0]),
    }
}

/// `{ a = 1, b = "x" }` with every required field of one side.
fn required_fields(p: &ProtocolChoice, response: bool) -> Option<String> {
    let set: Vec<String> = p
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.response == response && f.required)
        .map(|(i, f)| format!("{} = {}", field_name(f, i), field_value(f)))
        .collect();
    (!set.is_empty()).then(|| format!("{{ {} }}", set.join(", ")))
}

/// An effect, where it is legal for `p` (an `exit` never on the lead; a
/// gate only when the file has one).
fn effect(choice: u8, p: &ProtocolChoice, gate: bool) -> Option<String> {
    match choice {
        1 if p.direction.to_teammate() => Some("{ effect = \"exit\", who = \"addressee\" }".into()),
        1 if p.direction.teammate_asks() && !p.direction.lead_asks() => Some("{ effect = \"exit\", who = \"requester\" }".into()),
        2 if gate => Some("{ effect = \"open_gate\", gate = \"work\", who = \"requester\" }".into()),
        3 if gate => Some("{ effect = \"close_gate\", gate = \"work\", who = \"addressee\" }".into()),
        _ => None,
    }
}

/// The file `c` describes, as TOML.
pub(crate) fn render(c: &FileChoice) -> String {
    render_with(c, false)
}

/// The file `c` describes; with `any_until`, an `until = "approved"` also
/// toward a teammate that always rejects (which makes the file invalid).
fn render_with(c: &FileChoice, any_until: bool) -> String {
    let mut t = String::from("# generated\nformat = 1\n");
    if c.lesson {
        t.push_str("use = [\"lesson\"]\n");
    }
    if c.gate {
        t.push_str("\n[[gate]]\nname = \"work\"\ntools = [\"write_file\", \"edit_file\"]\n");
    }
    for (i, p) in c.protocols.iter().enumerate() {
        let name = protocol_name(i);
        let (from, to) = p.direction.roles();
        writeln!(t, "\n[[protocol]]\nname = \"{name}\"\nrequest = \"{name}_request\"\nresponse = \"{name}_response\"").unwrap();
        writeln!(t, "from = \"{from}\"\nto = \"{to}\"").unwrap();
        for response in [false, true] {
            let mut content_taken = false;
            let fields: Vec<String> = p
                .fields
                .iter()
                .enumerate()
                .filter(|(_, f)| f.response == response)
                .map(|(i, f)| field_toml(f, i, &mut content_taken))
                .collect();
            if !fields.is_empty() {
                let key = if response { "response_fields" } else { "request_fields" };
                writeln!(t, "{key} = [{}]", fields.join(", ")).unwrap();
            }
        }
        let mut approve: Vec<String> = effect(p.on_approve, p, c.gate).into_iter().collect();
        // The gate is opened by the first protocol, so it is never a gate
        // no protocol opens.
        if c.gate && i == 0 && p.on_approve != 2 {
            approve.push("{ effect = \"open_gate\", gate = \"work\", who = \"requester\" }".into());
        }
        if !approve.is_empty() {
            writeln!(t, "on_approve = [{}]", approve.join(", ")).unwrap();
        }
        if let Some(e) = effect(p.on_reject, p, c.gate) {
            writeln!(t, "on_reject = [{e}]").unwrap();
        }
        if p.one_pending {
            t.push_str("one_pending_per_addressee = true\n");
        }
        if let Some(ms) = p.deadline_ms {
            writeln!(t, "deadline_ms = {ms}").unwrap();
            if p.retries > 0 {
                writeln!(t, "retries = {}", p.retries).unwrap();
            }
        }
        writeln!(t, "tools.request = {{ name = \"ask_{name}\", description = \"Ask with {name}.\" }}").unwrap();
        if has_respond_tool(c, p) {
            writeln!(t, "tools.respond = {{ name = \"answer_{name}\", description = \"Answer a {name} request by request_id.\" }}")
                .unwrap();
        }
        if p.status_tool {
            writeln!(t, "tools.status = {{ name = \"{name}_status\", description = \"The status of a {name} request.\" }}").unwrap();
        }
        let answer = ANSWERS[usize::from(p.scripted % 4)];
        writeln!(t, "scripted = {{ answer = \"{answer}\" }}").unwrap();
    }
    render_team(c, &mut t, any_until);
    render_properties(c, &mut t);
    t
}

/// A protocol keeps its answer tool unless the file switches
/// `responder_required` off and the choice leaves it out.
fn has_respond_tool(c: &FileChoice, p: &ProtocolChoice) -> bool {
    p.respond_tool || !c.rules_off[4]
}

/// The scripted answer teammate `mate` gives protocol `ix`: its own, where
/// `c` gives it one, or else the protocol's.
fn answer_of(c: &FileChoice, mate: usize, ix: usize) -> &'static str {
    let own = c.override_answer.filter(|(m, p, _)| {
        usize::from(*m) % c.teammates.len() == mate && usize::from(*p) % c.protocols.len() == ix && c.protocols[ix].direction.to_teammate()
    });
    ANSWERS[usize::from(own.map_or(c.protocols[ix].scripted, |(_, _, a)| a) % 4)]
}

fn render_team(c: &FileChoice, t: &mut String, any_until: bool) {
    t.push_str("\n[team]\nid = \"generated\"\ntitle = \"a generated team\"\n");
    if c.two_prompts {
        t.push_str("prompt = [\"Run the generated team.\", \"Go on.\"]\n");
    } else {
        t.push_str("prompt = \"Run the generated team.\"\n");
    }
    let off: Vec<String> = RULES.iter().zip(c.rules_off).filter(|(_, off)| *off).map(|(r, _)| format!("\"{r}\"")).collect();
    if !off.is_empty() {
        writeln!(t, "rules_off = [{}]", off.join(", ")).unwrap();
    }
    let n = c.protocols.len();
    for (i, gated) in c.teammates.iter().enumerate() {
        writeln!(t, "\n[[team.teammate]]\nname = \"{}\"\nrole = \"coder\"\ntask = \"Write src/t{i}.py.\"", TEAMMATES[i]).unwrap();
        if *gated && c.gate {
            t.push_str("gates = [\"work\"]\n");
        }
        if let Some((mate, protocol, answer)) = c.override_answer.filter(|(mate, _, _)| usize::from(*mate) % c.teammates.len() == i) {
            let _ = mate;
            let ix = usize::from(protocol) % n;
            // Only a protocol a teammate answers has a teammate's answer.
            if c.protocols[ix].direction.to_teammate() {
                let name = protocol_name(ix);
                writeln!(t, "scripted = {{ {name} = {{ answer = \"{}\" }} }}", ANSWERS[usize::from(answer % 4)]).unwrap();
            }
        }
    }
    for name in TEAMMATES.iter().take(c.teammates.len()) {
        writeln!(t, "\n[[team.step]]\nspawn = \"{name}\"").unwrap();
    }
    for (k, s) in c.steps.iter().enumerate() {
        let ix = usize::from(s.protocol) % n;
        let p = &c.protocols[ix];
        let mate = TEAMMATES[usize::from(s.teammate) % c.teammates.len()];
        t.push_str("\n[[team.step]]\n");
        if c.two_prompts && 2 * k >= c.steps.len() {
            t.push_str("prompt = 2\n");
        }
        match s.kind {
            0 if p.direction.lead_asks() => {
                writeln!(t, "ask = \"{}\"\nto = \"{mate}\"", protocol_name(ix)).unwrap();
                if s.after && s.after_message {
                    writeln!(t, "after = \"message:{mate}\"").unwrap();
                } else if s.after {
                    let other = (ix + 1) % n;
                    writeln!(t, "after = \"settled:{}\"", protocol_name(other)).unwrap();
                }
                // Asking until approved a teammate that always rejects never
                // ends: the loader refuses it.
                let mate_ix = usize::from(s.teammate) % c.teammates.len();
                if s.until && (any_until || answer_of(c, mate_ix, ix) != "reject") {
                    t.push_str("until = \"approved\"\n");
                }
                if let Some(fields) = required_fields(p, false) {
                    writeln!(t, "fields = {fields}").unwrap();
                }
            }
            1 if !p.direction.to_teammate() && has_respond_tool(c, p) => {
                writeln!(t, "answer = \"{}\"\nfrom = \"{mate}\"\napprove = {}", protocol_name(ix), s.approve).unwrap();
                if let Some(fields) = required_fields(p, true) {
                    writeln!(t, "fields = {fields}").unwrap();
                }
            }
            3 => writeln!(t, "send = \"Status, please.\"\nto = \"{mate}\"").unwrap(),
            _ => t.push_str("list = true\n"),
        }
    }
    if let Some(f) = c.fault {
        let ix = usize::from(f.message_type) % (2 * n);
        let message_type = format!("{}_{}", protocol_name(ix / 2), if ix.is_multiple_of(2) { "request" } else { "response" });
        let action = ["drop", "duplicate", "delay", "reorder"][usize::from(f.action % 4)];
        writeln!(t, "\n[[team.fault]]\naction = \"{action}\"\ntype = \"{message_type}\"").unwrap();
        if action == "delay" {
            t.push_str("ms = 700\n");
        }
        writeln!(t, "probability = {}", if f.always { "1.0" } else { "0.5" }).unwrap();
    }
}

/// An event on protocol `ix`: `expired` only where the protocol has a
/// deadline (else `settled`).
fn event(c: &FileChoice, e: u8, ix: usize) -> String {
    let e = usize::from(e % 5);
    let name = if e == 4 && c.protocols[ix].deadline_ms.is_none() { "settled" } else { EVENTS[e] };
    format!("{{ event = \"{name}\", protocol = \"{}\" }}", protocol_name(ix))
}

fn render_properties(c: &FileChoice, t: &mut String) {
    let n = c.protocols.len();
    for (i, p) in c.properties.iter().enumerate() {
        let (a, b) = (usize::from(p.protocol) % n, usize::from(p.other) % n);
        let scope = ["run", "per_agent", "per_request"][usize::from(p.scope % 3)];
        writeln!(t, "\n[[property]]\nname = \"prop{i}\"").unwrap();
        match p.pattern % 5 {
            0 => writeln!(t, "expect = \"always\"\npattern = \"absence\"\nmatch = {}", event(c, p.first, a)).unwrap(),
            1 => writeln!(t, "expect = \"sometimes\"\npattern = \"existence\"\nmatch = {}", event(c, p.first, a)).unwrap(),
            2 => writeln!(t, "expect = \"always\"\npattern = \"at_most\"\nn = 1\ncount = {}", event(c, p.first, a)).unwrap(),
            3 => writeln!(
                t,
                "expect = \"always\"\npattern = \"precedence\"\nfirst = {}\nthen = {}",
                event(c, p.first, a),
                event(c, p.second, b)
            )
            .unwrap(),
            _ => writeln!(
                t,
                "expect = \"eventually\"\npattern = \"response\"\ntrigger = {}\nreply = {}",
                event(c, p.first, a),
                event(c, p.second, b)
            )
            .unwrap(),
        }
        writeln!(t, "scope = \"{scope}\"").unwrap();
    }
}
