//! The scripted model as a policy that enumerates its legal choices: for one
//! request, the reply the policy would give, then each other decision the
//! protocol lets the agent make at that point — approve instead of reject
//! (and back), withhold an answer (the agent ends its turn without it; the
//! policy answers later if it is called again, or never), start work
//! instead of submitting a plan. The explorer (`crate::explore`) tries them
//! all; no network, no language model.
//!
//! One path for the lesson's protocols and a file's (`alternatives_in`):
//! an answer is a call of a protocol's respond tool carrying `approve`,
//! its alternatives read from the protocol's declarations (the lesson's
//! from the built-in lesson file). What stays the lesson's own: starting
//! work instead of submitting a plan (a fixed write) and the lead
//! answering its own shutdown request (anthropics/claude-code#81464).
//!
//! Owns turning one decision into its alternatives. It sees only a
//! `ModelRequest` and the reply, like any provider.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::answer_points::{answer_points, AnswerPoint};
#[cfg(test)]
use super::respond;
use super::{json_len, respond_asked, Asked, FileScriptedModel};
use crate::model::{ContentBlock, ModelRequest, ModelResponse, StopReason};
use crate::protocol::file::{Effect, FieldType, Party, Protocol};
use crate::protocol::protocols::lesson_protocols;

/// Which kinds of alternative decision to offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Decisions {
    /// Approve where the policy rejects, and reject where it approves
    /// (shutdown answers and plan reviews).
    pub flip_answers: bool,
    /// End the turn without an answer the policy would give now.
    pub withhold_answers: bool,
    /// A teammate that would submit a plan starts work instead.
    pub skip_plans: bool,
    /// The lead answers a shutdown request it sent (addressed to a
    /// teammate) itself: the lead approving its own shutdown request
    /// (anthropics/claude-code#81464). Off unless asked for.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub answer_for_addressee: bool,
}

impl Default for Decisions {
    fn default() -> Self {
        Decisions { flip_answers: true, withhold_answers: false, skip_plans: true, answer_for_addressee: false }
    }
}

/// One reply the agent may give, with a short label for the explorer's
/// paths ("as scripted", "approve 4607cc28", ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Alternative {
    /// What this choice is, in words.
    pub label: String,
    /// The reply.
    pub reply: ModelResponse,
}

fn request_id(input: &Value) -> &str {
    input.get("request_id").and_then(Value::as_str).unwrap_or("?")
}

/// The reply with the tool call at `index` replaced (`Some`) or removed.
fn with_call(reply: &ModelResponse, index: usize, replacement: Option<ContentBlock>) -> ModelResponse {
    let mut content: Vec<ContentBlock> = Vec::with_capacity(reply.content.len());
    for (i, block) in reply.content.iter().enumerate() {
        match (i == index, &replacement) {
            (true, Some(new)) => content.push(new.clone()),
            (true, None) => {}
            (false, _) => content.push(block.clone()),
        }
    }
    let any_tool = content.iter().any(|b| matches!(b, ContentBlock::ToolUse { .. }));
    let stop_reason = if any_tool { reply.stop_reason.clone() } else { StopReason::EndTurn };
    ModelResponse { content, stop_reason, usage: reply.usage }
}

/// The policy's reply first, then every alternative `decisions` allows.
pub fn alternatives(request: &ModelRequest, decisions: Decisions) -> Vec<Alternative> {
    alternatives_sized(request, decisions, json_len(request))
}

/// `alternatives`, for a caller that knows the request's length as JSON
/// (`scripted::respond_sized`).
pub fn alternatives_sized(request: &ModelRequest, decisions: Decisions, input_chars: usize) -> Vec<Alternative> {
    alternatives_asked(Asked { system: &request.system, turns: &Asked::turns_of(&request.messages) }, decisions, input_chars)
}

/// `alternatives_sized` on a borrowed request.
pub fn alternatives_asked(request: Asked<'_>, decisions: Decisions, input_chars: usize) -> Vec<Alternative> {
    alternatives_of(request, respond_asked(request, input_chars), decisions)
}

/// The alternatives to `reply`, the scripted reply to `request` under the
/// lesson's protocols alone (the built-in lesson file): `alternatives_in`
/// on the lesson file's protocols, as `alternatives_under` on a file's.
pub fn alternatives_of(request: Asked<'_>, reply: ModelResponse, decisions: Decisions) -> Vec<Alternative> {
    alternatives_in(lesson_protocols(), request, reply, decisions)
}

/// The one path of the alternatives to `reply` (the scripted reply to
/// `request`) under `protocols` (a file's, the lesson's among them when it
/// uses them, or the lesson file's alone), read from their declarations:
/// for each call of a protocol's respond tool that carries `approve`, every
/// other point of approve x each enum field of its response
/// (`flip_answers`: the other answer first — its content field, if the
/// protocol has one, saying it was explored —, then each enum value, then
/// the combinations; at most `answer_points::MAX_ANSWER_POINTS` per
/// answer) and none this turn (`withhold_answers`, after the other
/// answer); for each call of a lesson protocol's request tool whose
/// approval opens the asker's gate (a plan submission), starting work
/// instead (`skip_plans`: the lesson's own alternative, a write the gate
/// refuses; a file's gate asks are varied by `alternatives_under`); and,
/// for the lead, answering a shutdown request it sent itself
/// (`answer_for_addressee`). Each label says what differs from the script.
fn alternatives_in(protocols: &[Protocol], request: Asked<'_>, reply: ModelResponse, decisions: Decisions) -> Vec<Alternative> {
    let mut out = Vec::new();
    for (index, block) in reply.content.iter().enumerate() {
        let ContentBlock::ToolUse { id, name, input } = block else { continue };
        let answers = |p: &&Protocol| p.tools.respond.as_ref().is_some_and(|t| t.name == *name);
        match protocols.iter().find(answers).filter(|_| input.get("approve").is_some()) {
            Some(p) => out.extend(answer_alternatives(p, &reply, index, id, name, input, decisions)),
            None if decisions.skip_plans && protocols.iter().any(|p| p.builtin && p.tools.request.name == *name && opens_a_gate(p)) => {
                let work = ContentBlock::ToolUse {
                    id: id.clone(),
                    name: "write_file".into(),
                    input: json!({ "path": "src/work.py", "content": "# started without an approved plan\n" }),
                };
                out.push(Alternative {
                    label: "start work instead of submitting a plan".into(),
                    reply: with_call(&reply, index, Some(work)),
                });
            }
            None => {}
        }
    }
    if decisions.answer_for_addressee && request.system.starts_with("You are a team lead") {
        for rid in unanswered_shutdown_requests(request) {
            let call = ContentBlock::ToolUse {
                id: format!("toolu_lead_answers_{rid}"),
                name: "shutdown_response".into(),
                input: json!({ "request_id": rid, "approve": true, "reason": "Approved by the lead itself (explored)." }),
            };
            let content = vec![ContentBlock::text(format!("Approving shutdown request {rid} myself.")), call];
            let reply = ModelResponse { content, stop_reason: StopReason::ToolUse, usage: reply.usage };
            out.push(Alternative { label: format!("answer {rid} itself instead of its addressee"), reply });
        }
    }
    let mut all = vec![Alternative { label: "as scripted".into(), reply }];
    all.extend(out);
    all
}

/// The alternatives to the answer call at `index` of `reply` (protocol
/// `p`'s respond tool `name`, its `input` carrying `approve`): the other
/// answer, withholding it, then each other point of `answer_points`.
fn answer_alternatives(
    p: &Protocol,
    reply: &ModelResponse,
    index: usize,
    id: &str,
    name: &str,
    input: &Value,
    decisions: Decisions,
) -> Vec<Alternative> {
    let rid = request_id(input);
    let points = if decisions.flip_answers { answer_points(p, input) } else { Vec::new() };
    let (flip, others): (Vec<_>, Vec<_>) = points.into_iter().partition(|pt| pt.flips_approve && pt.enum_changes.is_empty());
    let content = p.response_fields.iter().find(|f| f.content && f.field_type == FieldType::String);
    let offer = |point: AnswerPoint| {
        let label = point_label(rid, input, &point);
        Alternative {
            label,
            reply: with_call(reply, index, Some(ContentBlock::ToolUse { id: id.to_string(), name: name.to_string(), input: point.input })),
        }
    };
    let mut out: Vec<Alternative> = flip
        .into_iter()
        .map(|mut point| {
            // The other answer's text says it was explored, not the
            // script's reason for the answer it replaces.
            if let Some(f) = content {
                let approve = input.get("approve").and_then(Value::as_bool).unwrap_or(false);
                point.input[f.name.as_str()] =
                    json!(if approve { "Not now (explored: the other answer)." } else { "Fine (explored: the other answer)." });
            }
            offer(point)
        })
        .collect();
    if decisions.withhold_answers {
        out.push(Alternative { label: format!("withhold the answer to {rid}"), reply: with_call(reply, index, None) });
    }
    out.extend(others.into_iter().map(offer));
    out
}

/// The alternatives under a protocol file, at a call `model` (the scripted
/// model playing the file) answers: `alternatives_in` on the file's
/// protocols (the lesson's among them when it uses them) and the model's
/// reply, then, where a teammate asks before a tool its closed gate holds,
/// calling the tool without asking (`skip_plans`, the lesson's "start work
/// instead of submitting a plan" for a file's gate: the core refuses the
/// tool, naming the protocol that opens the gate).
pub fn alternatives_under(request: Asked<'_>, model: &FileScriptedModel, decisions: Decisions, input_chars: usize) -> Vec<Alternative> {
    let file = model.file();
    let mut all = alternatives_in(&file.protocols, request, model.respond_asked(request, input_chars), decisions);
    let reply = all[0].reply.clone();
    let asks_at_gate = reply.tool_uses().any(|(_, name, _)| file.protocols.iter().any(|p| p.tools.request.name == name && opens_a_gate(p)));
    if asks_at_gate && decisions.skip_plans && !request.system.starts_with("You are a team lead") {
        let skipped = model.respond_asked_without_gate_asks(request, input_chars);
        let calls = |r: &ModelResponse| r.tool_uses().map(|(_, name, input)| (name.to_string(), input.clone())).collect::<Vec<_>>();
        if let Some((tool, _)) = calls(&skipped).first().filter(|_| calls(&skipped) != calls(&reply)) {
            all.push(Alternative { label: format!("call {tool} without asking first (its gate is closed)"), reply: skipped });
        }
    }
    all
}

/// What an answer off the script changes, in words: "reject r1 instead",
/// "answer r1 with progress = blocked", "reject r1 instead, with progress =
/// blocked, risk = high".
fn point_label(rid: &str, scripted: &Value, point: &AnswerPoint) -> String {
    let changes = point.enum_changes.join(", ");
    if !point.flips_approve {
        return format!("answer {rid} with {changes}");
    }
    let verb = if scripted["approve"] == true { "reject" } else { "approve" };
    let with = if changes.is_empty() { String::new() } else { format!(", with {changes}") };
    format!("{verb} {rid} instead{with}")
}

/// True when approving a request of `p` opens a gate of its requester's.
fn opens_a_gate(p: &Protocol) -> bool {
    p.on_approve.iter().any(|e| matches!(e, Effect::OpenGate(_, Party::Requester)))
}

/// The shutdown requests the lead sent (as its tool results say) that no
/// answer in the conversation mentions and the lead has not tried to answer.
fn unanswered_shutdown_requests(request: Asked<'_>) -> Vec<String> {
    let mut sent: Vec<String> = Vec::new();
    let mut answered: Vec<String> = Vec::new();
    for turn in request.turns {
        for block in &turn.turn.content {
            match block {
                ContentBlock::ToolResult { content, is_error: false, .. } => {
                    let id = content.strip_prefix("Shutdown request ").and_then(|rest| rest.split(' ').next());
                    sent.extend(id.filter(|_| content.contains(" sent to ")).map(str::to_string));
                }
                ContentBlock::ToolUse { name, input, .. } if name == "shutdown_response" && input.get("approve").is_some() => {
                    answered.push(request_id(input).to_string());
                }
                ContentBlock::Text { text } if text.contains("shutdown_response") => {
                    answered.extend(sent.iter().filter(|id| text.contains(id.as_str())).cloned());
                }
                _ => {}
            }
        }
    }
    sent.retain(|id| !answered.contains(id));
    sent
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Role, Turn};

    fn teammate_asked_to_shut_down() -> ModelRequest {
        let message = json!({
            "type": "shutdown_request", "from": "lead", "to": "alice", "content": "Please shut down.",
            "timestamp": 10, "request_id": "4607cc28"
        });
        ModelRequest {
            system: "You are 'alice', role: coder, team: default, at /workspace. Use send_message to communicate.".into(),
            messages: vec![
                Turn::user_text("You are alice, a coder. Write a short hello module in src/hello.py."),
                Turn { role: Role::User, content: vec![ContentBlock::text(message.to_string())] },
            ],
            tools: Vec::new().into(),
            max_tokens: 1000,
        }
    }

    fn answers(alt: &Alternative) -> Vec<(String, Value)> {
        alt.reply
            .content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::ToolUse { name, input, .. } if name == "shutdown_response" => Some((name.clone(), input["approve"].clone())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_first_alternative_is_the_policys_own_reply() {
        let request = teammate_asked_to_shut_down();
        let all = alternatives(&request, Decisions::default());
        assert_eq!(all[0].reply, respond(&request));
        assert_eq!(all[0].label, "as scripted");
    }

    #[test]
    fn a_shutdown_answer_is_offered_both_ways_and_withheld() {
        let request = teammate_asked_to_shut_down();
        let all = alternatives(&request, Decisions { withhold_answers: true, ..Decisions::default() });
        let own = answers(&all[0]);
        assert_eq!(own.len(), 1, "the policy answers: {:?}", all[0].reply);
        let flipped = all.iter().find(|a| a.label.contains("instead")).expect("the other answer is offered");
        assert_eq!(answers(flipped)[0].1, json!(!own[0].1.as_bool().unwrap()));
        let withheld = all.iter().find(|a| a.label.starts_with("withhold")).expect("withholding is offered");
        assert!(answers(withheld).is_empty());
        assert_ne!(withheld.reply.stop_reason, StopReason::ToolUse, "with no call left the turn ends");
    }

    #[test]
    fn no_alternatives_are_offered_when_none_are_asked_for() {
        let request = teammate_asked_to_shut_down();
        let none = Decisions { flip_answers: false, withhold_answers: false, skip_plans: false, answer_for_addressee: false };
        assert_eq!(alternatives(&request, none).len(), 1);
    }
}

#[cfg(test)]
mod answer_for_addressee {
    use super::*;
    use crate::model::{Role, Turn};

    /// The lead after asking alice to shut down, with `later` appended.
    fn lead_waiting(later: Vec<ContentBlock>) -> ModelRequest {
        let ask = ContentBlock::ToolUse { id: "t1".into(), name: "shutdown_request".into(), input: json!({ "teammate": "alice" }) };
        let sent = ContentBlock::ToolResult {
            tool_use_id: "t1".into(),
            content: "Shutdown request 4607cc28 sent to 'alice' (status: pending)".into(),
            is_error: false,
        };
        let mut messages = vec![
            Turn::user_text("Spawn alice as a coder. Then request her shutdown."),
            Turn { role: Role::Assistant, content: vec![ask] },
            Turn { role: Role::User, content: vec![sent] },
        ];
        if !later.is_empty() {
            messages.push(Turn { role: Role::User, content: later });
        }
        ModelRequest { system: "You are a team lead.".into(), messages, tools: Vec::new().into(), max_tokens: 1000 }
    }

    fn lead_answers(decisions: Decisions, request: &ModelRequest) -> Vec<Alternative> {
        alternatives(request, decisions).into_iter().filter(|a| a.label.contains("itself")).collect()
    }

    #[test]
    fn the_lead_may_answer_its_own_pending_request_only_when_asked_for_and_only_while_unanswered() {
        let on = Decisions { answer_for_addressee: true, ..Decisions::default() };
        let open = lead_answers(on, &lead_waiting(vec![]));
        assert_eq!(open.len(), 1);
        let calls: Vec<_> = open[0].reply.tool_uses().map(|(_, name, input)| (name.to_string(), input.clone())).collect();
        assert_eq!(
            calls,
            vec![(
                "shutdown_response".to_string(),
                json!({ "request_id": "4607cc28", "approve": true, "reason": "Approved by the lead itself (explored)." })
            )]
        );
        assert_eq!(open[0].reply.stop_reason, StopReason::ToolUse);
        assert!(lead_answers(Decisions::default(), &lead_waiting(vec![])).is_empty(), "off by default");
        let reply = r#"<inbox>[{"type":"shutdown_response","from":"alice","request_id":"4607cc28","approve":true}]</inbox>"#;
        assert!(lead_answers(on, &lead_waiting(vec![ContentBlock::text(reply)])).is_empty(), "alice answered already");
    }
}
