//! The scripted model: an offline, deterministic implementation of `Model`.
//! It is a rule-based policy per role that reads the conversation it is
//! given — the prompt, the tool results, the messages delivered — and decides
//! the next tool calls, so it reacts to what actually happened (a refused
//! tool, a rejected plan, a shutdown that arrives mid-task). It never replays
//! a recording.
//!
//! Owns the `Model` implementation and the reply it builds from a policy's
//! decision; the request is read by `conversation`, the lead's goal by
//! `goal`, the policies are `lead` and `teammate` (with `team` for a
//! protocol file's scripted team, `scale` for the
//! benchmark's big teams, and `choices` for the explorer's off-script
//! decisions, `answer_points` for the answers a file protocol allows). It sees only a `ModelRequest`,
//! like any provider: it must not reach into the runtime or the team.

use super::{
    json_len, CancelToken, ContentBlock, LocalBoxFuture, Model, ModelError, ModelRequest, ModelResponse, Role, StopReason, TextSink, Turn,
    Usage,
};

pub mod answer_points;
pub mod choices;
mod conversation;
mod file;
mod goal;
mod lead;
pub mod scale;
mod team;
mod teammate;

use crate::protocol::file::ProtocolFile;
pub use conversation::{AskedTurn, TurnReading};
use conversation::{Conversation, Decision};
use lead::lead_policy;
use teammate::{teammate_identity, teammate_policy};

/// The label the UI shows for this provider.
pub const LABEL: &str = "Scripted (offline)";

/// The offline scripted model.
#[derive(Debug, Default, Clone, Copy)]
pub struct ScriptedModel;

impl Model for ScriptedModel {
    fn label(&self) -> String {
        LABEL.to_string()
    }

    fn complete<'a>(
        &'a self,
        request: &'a ModelRequest,
        on_text: TextSink,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(async move {
            if cancel.is_cancelled() {
                return Err(ModelError::Cancelled);
            }
            let reply = respond(request);
            for block in &reply.content {
                if let ContentBlock::Text { text } = block {
                    for piece in text.split_inclusive(' ') {
                        on_text(piece);
                    }
                }
            }
            Ok(reply)
        })
    }
}

/// The scripted model under a protocol file: the lesson's policies, and
/// the file's protocols answered as their `scripted` says, a closed gate
/// asked open before a gated tool (`file`).
#[derive(Debug, Clone)]
pub struct FileScriptedModel {
    file: std::sync::Arc<ProtocolFile>,
    /// The lead follows the file's `[team]` steps (`team`).
    steps: bool,
}

impl FileScriptedModel {
    /// The scripted model playing the protocols of `file`.
    pub fn with_protocols(file: std::sync::Arc<ProtocolFile>) -> Self {
        FileScriptedModel { file, steps: false }
    }

    /// The scripted model playing `file`'s own team: as `with_protocols`,
    /// and its lead follows the team's steps instead of reading the prompt.
    pub fn playing_team(file: std::sync::Arc<ProtocolFile>) -> Self {
        FileScriptedModel { file, steps: true }
    }

    /// The reply to one request, at once (what `complete` returns): for a
    /// caller that drives a world step by step.
    pub fn respond(&self, request: &ModelRequest) -> ModelResponse {
        let asked = Asked { system: &request.system, turns: &Asked::turns_of(&request.messages) };
        reply(asked, json_len(request), Some(Play { file: &self.file, steps: self.steps, ask_at_gates: true }))
    }

    /// `respond` on a borrowed request whose length as JSON is known
    /// (`input_chars`): the explorer's way in (`respond_asked`'s twin).
    pub fn respond_asked(&self, request: Asked<'_>, input_chars: usize) -> ModelResponse {
        reply(request, input_chars, Some(Play { file: &self.file, steps: self.steps, ask_at_gates: true }))
    }

    /// `respond_asked` with the teammate skipping its ask before a gated
    /// tool (it calls the tool while the gate is closed): the explorer's
    /// alternative (`choices::alternatives_under`).
    pub(crate) fn respond_asked_without_gate_asks(&self, request: Asked<'_>, input_chars: usize) -> ModelResponse {
        reply(request, input_chars, Some(Play { file: &self.file, steps: self.steps, ask_at_gates: false }))
    }

    /// The file this model plays.
    pub fn file(&self) -> &ProtocolFile {
        &self.file
    }
}

/// How the policy plays a protocol file: the file, whether the lead
/// follows its team's steps, whether a teammate asks before a gated tool.
#[derive(Debug, Clone, Copy)]
struct Play<'f> {
    file: &'f ProtocolFile,
    steps: bool,
    ask_at_gates: bool,
}

impl Model for FileScriptedModel {
    fn label(&self) -> String {
        LABEL.to_string()
    }

    fn complete<'a>(
        &'a self,
        request: &'a ModelRequest,
        _on_text: TextSink,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(async move {
            if cancel.is_cancelled() {
                return Err(ModelError::Cancelled);
            }
            Ok(self.respond(request))
        })
    }
}

/// The policy's answer to one request under protocol file `file`.
pub fn respond_under(request: &ModelRequest, file: &ProtocolFile) -> ModelResponse {
    let asked = Asked { system: &request.system, turns: &Asked::turns_of(&request.messages) };
    reply(asked, json_len(request), Some(Play { file, steps: false, ask_at_gates: true }))
}

/// The policy's answer to one request (public for tests).
pub fn respond(request: &ModelRequest) -> ModelResponse {
    respond_sized(request, json_len(request))
}

/// A model request as the policy reads it: the system prompt and the
/// conversation's turns, borrowed (the explorer keeps its turns shared and
/// lends them rather than copying a request per call, each with what the
/// policy read in it: `TurnReading`).
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    /// The system prompt.
    pub system: &'a str,
    /// The conversation so far.
    pub turns: &'a [AskedTurn<'a>],
}

impl Asked<'_> {
    /// The turns of `messages`, each to be read at this call (no reading
    /// kept).
    pub fn turns_of(messages: &[Turn]) -> Vec<AskedTurn<'_>> {
        messages.iter().map(|turn| AskedTurn { turn, reading: None }).collect()
    }
}

/// `respond`, for a caller that knows the request's length as JSON
/// (`input_chars`, the usage estimate) without writing it: the explorer
/// keeps each turn's length.
pub fn respond_sized(request: &ModelRequest, input_chars: usize) -> ModelResponse {
    respond_asked(Asked { system: &request.system, turns: &Asked::turns_of(&request.messages) }, input_chars)
}

/// `respond_sized` on a borrowed request.
pub fn respond_asked(request: Asked<'_>, input_chars: usize) -> ModelResponse {
    reply(request, input_chars, None)
}

/// The reply to `request`: the lesson's policies' decision, or under a
/// protocol file the file's when it has one (`file::decide`); with
/// `steps`, the lead follows the file's team (`team::lead`).
fn reply(request: Asked<'_>, input_chars: usize, protocols: Option<Play<'_>>) -> ModelResponse {
    let convo = Conversation::read(request.turns);
    let lead = request.system.starts_with("You are a team lead");
    let me = (!lead).then(|| teammate_identity(request.system).0);
    let mut decision = match &me {
        None => protocols
            .filter(|play| play.steps)
            .and_then(|play| team::lead(play.file, &convo))
            .or_else(|| scale::lead(&convo))
            .unwrap_or_else(|| lead_policy(&convo)),
        Some(name) => scale::teammate(&convo).unwrap_or_else(|| teammate_policy(name, &convo)),
    };
    if let Some(play) = protocols {
        if let Some(d) = file::decide(play.file, me.as_deref(), &convo, &decision, play.steps, play.ask_at_gates) {
            decision = d;
        }
    }
    let turn_index = request.turns.iter().filter(|t| t.turn.role == Role::Assistant).count();
    let who = if request.system.starts_with("You are a team lead") { "lead".to_string() } else { teammate_identity(request.system).0 };
    let mut content = Vec::new();
    if !decision.text.is_empty() {
        content.push(ContentBlock::text(decision.text.clone()));
    }
    for (i, (name, input)) in decision.calls.iter().enumerate() {
        content.push(ContentBlock::ToolUse { id: format!("toolu_{who}_{turn_index}_{i}"), name: name.clone(), input: input.clone() });
    }
    let stop_reason = if decision.calls.is_empty() { StopReason::EndTurn } else { StopReason::ToolUse };
    let output_chars = json_len(&content);
    ModelResponse { content, stop_reason, usage: Usage::plain(input_chars.div_ceil(4) as u64, output_chars.div_ceil(4) as u64) }
}

#[cfg(test)]
mod tests {
    use super::goal::parse_lead_goal;
    use super::*;
    use crate::model::Turn;
    use serde_json::{json, Value};

    fn lead_request(turns: Vec<Turn>) -> ModelRequest {
        ModelRequest { system: "You are a team lead at /workspace.".into(), messages: turns, tools: Vec::new().into(), max_tokens: 100 }
    }

    fn calls(r: &ModelResponse) -> Vec<(String, Value)> {
        r.tool_uses().map(|(_, n, i)| (n.to_string(), i.clone())).collect()
    }

    #[test]
    fn the_lead_spawns_first_then_requests_the_shutdown() {
        let r = respond(&lead_request(vec![Turn::user_text("Spawn alice as a coder. Then request her shutdown.")]));
        let c = calls(&r);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].0, "spawn_teammate");
        assert_eq!((c[0].1["name"].as_str(), c[0].1["role"].as_str()), (Some("alice"), Some("coder")));
        assert_eq!(r.stop_reason, StopReason::ToolUse);
    }

    #[test]
    fn several_names_in_one_spawn_clause_are_all_spawned() {
        let g = parse_lead_goal("Spawn erin to write release notes in two parts and frank to stand by, then request both shutdowns.", &[]);
        let names: Vec<_> = g.spawns.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(names, ["erin", "frank"]);
        assert_eq!(g.shutdowns, ["erin", "frank"]);
        assert!(g.spawns[1].2.contains("stand by"));
    }

    #[test]
    fn the_list_prompt_does_not_request_a_shutdown() {
        let g = parse_lead_goal("List teammates to see alice's status after shutdown approval", &["alice".into()]);
        assert!(g.list);
        assert!(g.shutdowns.is_empty() && g.spawns.is_empty());
    }

    /// The lead's turns after `prompt`, one tool call and its result each.
    fn after(prompt: &str, done: &[(&str, Value, &str)]) -> ModelRequest {
        let mut turns = vec![Turn::user_text(prompt)];
        for (i, (name, input, result)) in done.iter().enumerate() {
            let id = format!("t{i}");
            turns.push(Turn {
                role: Role::Assistant,
                content: vec![ContentBlock::ToolUse { id: id.clone(), name: name.to_string(), input: input.clone() }],
            });
            turns.push(Turn {
                role: Role::User,
                content: vec![ContentBlock::ToolResult { tool_use_id: id, content: result.to_string(), is_error: false }],
            });
        }
        lead_request(turns)
    }

    const PLEASE_STOP: &str = "Spawn alice as a coder. Then send her a message: \"Hey alice, please stop.\"";

    #[test]
    fn send_her_a_message_is_a_plain_message_to_the_spawned_teammate_and_no_shutdown_request() {
        let g = parse_lead_goal(PLEASE_STOP, &[]);
        assert_eq!(g.plain, [("alice".to_string(), "Hey alice, please stop.".to_string())], "the text keeps its case, without quotes");
        assert!(g.shutdowns.is_empty(), "a plain message is not a shutdown request");
        let spawned = json!({ "name": "alice", "role": "coder", "prompt": "p", "plan_mode": false });
        let r = respond(&after(PLEASE_STOP, &[("spawn_teammate", spawned, "Spawned 'alice' (role: coder)")]));
        assert_eq!(calls(&r), [("send_message".to_string(), json!({ "to": "alice", "content": "Hey alice, please stop." }))]);
        let named = parse_lead_goal("Send bob a message", &["bob".into()]);
        assert_eq!(named.plain, [("bob".to_string(), "Please stop.".to_string())], "a known name; the lesson's words by default");
    }

    #[test]
    fn after_a_plain_message_the_lead_ends_its_turn_saying_it_cannot_know_whether_the_teammate_stopped() {
        let spawned = json!({ "name": "alice", "role": "coder", "prompt": "p", "plan_mode": false });
        let sent = json!({ "to": "alice", "content": "Hey alice, please stop." });
        let r = respond(&after(
            PLEASE_STOP,
            &[("spawn_teammate", spawned, "Spawned 'alice' (role: coder)"), ("send_message", sent, "Sent message to alice")],
        ));
        assert!(calls(&r).is_empty(), "nothing to wait for: no request was made");
        assert_eq!(r.stop_reason, StopReason::EndTurn);
        let text = r.content.iter().map(|b| if let ContentBlock::Text { text } = b { text.as_str() } else { "" }).collect::<String>();
        assert!(text.contains("no request_id") && text.contains("cannot know whether alice stopped"), "{text}");
    }

    #[test]
    fn an_unknown_prompt_gets_an_honest_explanation_and_no_tool_call() {
        let r = respond(&lead_request(vec![Turn::user_text("Write me a poem")]));
        assert!(calls(&r).is_empty());
        assert_eq!(r.stop_reason, StopReason::EndTurn);
        assert!(matches!(&r.content[0], ContentBlock::Text { text } if text.contains("offline scripted model")));
    }

    #[test]
    fn a_teammate_in_plan_mode_submits_a_plan_before_writing() {
        let req = ModelRequest {
            system: "You are 'charlie', role: coder, at /workspace. Submit plans via plan_approval before major work.".into(),
            messages: vec![Turn::user_text("You are charlie. Your task: add validation. Submit a plan with plan_approval and wait.")],
            tools: Vec::new().into(),
            max_tokens: 100,
        };
        let c = calls(&respond(&req));
        assert_eq!(c[0].0, "plan_approval");
    }

    #[test]
    fn usage_is_counted_and_ids_are_stable() {
        let req = lead_request(vec![Turn::user_text("Spawn alice as a coder.")]);
        let (a, b) = (respond(&req), respond(&req));
        assert_eq!(a, b);
        assert!(a.usage.input_tokens > 0 && a.usage.output_tokens > 0);
    }
}
