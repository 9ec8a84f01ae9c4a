//! The scripted model as a policy that enumerates its legal choices: for one
//! request, the reply the policy would give, then each other decision the
//! protocol lets the agent make at that point — approve instead of reject
//! (and back), withhold an answer (the agent ends its turn without it; the
//! policy answers later if it is called again, or never), start work
//! instead of submitting a plan. The explorer (`crate::explore`) tries them
//! all; no network, no language model.
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
use crate::protocol::file::{Effect, Party, Protocol};

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

/// Whether a tool call answers a request: a teammate's `shutdown_response`,
/// or the lead's `plan_approval` review (it carries `approve`).
fn is_answer(name: &str, input: &Value) -> bool {
    (name == "shutdown_response" || name == "plan_approval") && input.get("approve").is_some()
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

/// The alternatives to `reply`, the scripted reply to `request` (the
/// lesson's policy's, or a protocol file's model's): the lesson's decisions,
/// on the lesson's answers and plans (a file protocol's own are varied by
/// `alternatives_under`).
pub fn alternatives_of(request: Asked<'_>, reply: ModelResponse, decisions: Decisions) -> Vec<Alternative> {
    let mut out = Vec::new();
    for (index, block) in reply.content.iter().enumerate() {
        let ContentBlock::ToolUse { id, name, input } = block else { continue };
        if is_answer(name, input) {
            let approve = input.get("approve").and_then(Value::as_bool).unwrap_or(false);
            let rid = request_id(input);
            if decisions.flip_answers {
                let mut flipped = input.clone();
                flipped["approve"] = json!(!approve);
                let text_key = if name == "shutdown_response" { "reason" } else { "feedback" };
                flipped[text_key] =
                    json!(if approve { "Not now (explored: the other answer)." } else { "Fine (explored: the other answer)." });
                let block = ContentBlock::ToolUse { id: id.clone(), name: name.clone(), input: flipped };
                let verb = if approve { "reject" } else { "approve" };
                out.push(Alternative { label: format!("{verb} {rid} instead"), reply: with_call(&reply, index, Some(block)) });
            }
            if decisions.withhold_answers {
                out.push(Alternative { label: format!("withhold the answer to {rid}"), reply: with_call(&reply, index, None) });
            }
        } else if name == "plan_approval" && decisions.skip_plans {
            let work = ContentBlock::ToolUse {
                id: id.clone(),
                name: "write_file".into(),
                input: json!({ "path": "src/work.py", "content": "# started without an approved plan\n" }),
            };
            out.push(Alternative { label: "start work instead of submitting a plan".into(), reply: with_call(&reply, index, Some(work)) });
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

/// The alternatives under a protocol file, at a call `model` (the scripted
/// model playing the file) answers: the lesson's (`alternatives_of` on the
/// model's reply), then what a file protocol lets the agent decide, read
/// from the file's tools, message types and fields (no word of a message):
/// for each answer of a file protocol the lesson's do not vary, the other
/// answer (`flip_answers`) and none this turn (`withhold_answers`); for
/// each answer of a file protocol, every other point of approve x each enum
/// field of its response (`flip_answers`: another answer, e.g. a reject
/// with a non-default enum value; `answer_points`, at most
/// `answer_points::MAX_ANSWER_POINTS` per answer, the fewest changes
/// first); and where a teammate asks before a tool its closed gate holds,
/// calling the tool without asking (`skip_plans`, the lesson's "start work
/// instead of submitting a plan": the core refuses the tool, naming the
/// protocol that opens the gate). Each label says what differs from the
/// script.
pub fn alternatives_under(request: Asked<'_>, model: &FileScriptedModel, decisions: Decisions, input_chars: usize) -> Vec<Alternative> {
    let file = model.file();
    let mut all = alternatives_of(request, model.respond_asked(request, input_chars), decisions);
    let reply = all[0].reply.clone();
    let mut asks_at_gate = false;
    for (index, block) in reply.content.iter().enumerate() {
        let ContentBlock::ToolUse { id, name, input } = block else { continue };
        asks_at_gate |= file.protocols.iter().any(|p| p.tools.request.name == *name && opens_a_gate(p));
        let Some(p) = file.protocols.iter().find(|p| p.tools.respond.as_ref().is_some_and(|t| t.name == *name)) else { continue };
        if input.get("approve").is_none() {
            continue;
        }
        let rid = request_id(input);
        // The lesson's answers had their flip and withholding offered by
        // `alternatives_of`. The order keeps the single decisions first (the
        // other answer, withholding, each enum value), then the combinations.
        let lesson = is_answer(name, input);
        let points = if decisions.flip_answers { answer_points(p, input) } else { Vec::new() };
        let (flip, others): (Vec<_>, Vec<_>) = points.into_iter().partition(|pt| pt.flips_approve && pt.enum_changes.is_empty());
        let offer = |point: AnswerPoint| {
            let label = point_label(rid, input, &point);
            Alternative {
                label,
                reply: with_call(&reply, index, Some(ContentBlock::ToolUse { id: id.clone(), name: name.clone(), input: point.input })),
            }
        };
        if !lesson {
            all.extend(flip.into_iter().map(offer));
            if decisions.withhold_answers {
                all.push(Alternative { label: format!("withhold the answer to {rid}"), reply: with_call(&reply, index, None) });
            }
        }
        all.extend(others.into_iter().map(offer));
    }
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
