//! Running a tool call: each `ToolCall` against the team (through
//! `protocol::Team`, so every change is a trace event) or the workspace, with
//! the call and its result recorded in the trace.
//!
//! Owns the text a successful tool hands back and the order of checks before
//! a call runs (the lesson's plan gate first, its tools as the built-in
//! lesson file lists them, then the protocol file's gates). Every
//! protocol's calls (`Ask`, `Answer`, `Status`), the lesson's as a file's,
//! run through `Team::ask` and `Team::respond`; their texts are the file's
//! `result` templates (`protocol::file::result_text`). Refusals are `ToolError`s wrapping the
//! source error; the runtime's own bookkeeping (waking agents, starting
//! loops) stays in `runtime::world`.

use serde_json::Value;

use super::{parse_with, AgentRole, ToolCall, ToolError, ToolKind, ToolOutcome};
use crate::protocol::file::result_text::{self, Slot};
use crate::protocol::file::{Effect, GateIx, ProtocolIx};
use crate::protocol::{AgentName, Event, Fields, RequestId, RequestStatus};
use crate::runtime::world::World;

impl World {
    /// Runs one tool call for `agent`, recording it in the trace.
    pub(crate) fn run_tool(&mut self, agent: &AgentName, role: AgentRole, tool_use_id: &str, tool: &str, input: &Value) -> ToolOutcome {
        self.observe(Event::ToolCalled {
            agent: agent.clone(),
            tool_use_id: tool_use_id.to_string(),
            tool: tool.to_string(),
            input: input.clone(),
        });
        let call = parse_with(&self.tools, role, tool, input);
        let outcome = ToolOutcome::from(call.and_then(|call| execute(self, agent, tool, call)));
        self.observe(Event::ToolReturned {
            agent: agent.clone(),
            tool_use_id: tool_use_id.to_string(),
            tool: tool.to_string(),
            output: outcome.output.clone(),
            is_error: outcome.is_error,
        });
        outcome
    }
}

/// Runs a parsed call; the `Ok` text is what the model reads.
fn execute(w: &mut World, agent: &AgentName, tool: &str, call: ToolCall) -> Result<String, ToolError> {
    if w.team.plan_gate_closes(agent, tool) {
        return Err(ToolError::PlanGateClosed(agent.clone()));
    }
    if let Some(g) = w.team.closed_gate_for_tool(agent, tool) {
        return Err(gate_closed(w, agent, tool, g));
    }
    match call {
        ToolCall::ListFiles => Ok(w.workspace.list_files()),
        ToolCall::ReadFile { path, limit } => Ok(w.workspace.read_file(&path, limit)?),
        ToolCall::WriteFile { path, content } => Ok(w.workspace.write_file(&path, &content)?),
        ToolCall::EditFile { path, old_text, new_text } => Ok(w.workspace.edit_file(&path, &old_text, &new_text)?),
        ToolCall::SpawnTeammate { name, role, prompt, plan_mode } => spawn_teammate(w, &name, &role, &prompt, plan_mode),
        ToolCall::ListTeammates => Ok(list_teammates(w)),
        ToolCall::SendMessage { to, content, msg_type } => {
            let msg_type = msg_type.unwrap_or_else(|| "message".into());
            let to = AgentName::parse(&to)?;
            w.send_as(agent, &to, &msg_type, &content)?;
            Ok(format!("Sent {msg_type} to {to}"))
        }
        ToolCall::ReadInbox => read_inbox(w, agent),
        ToolCall::Broadcast { content } => {
            let at = w.now();
            let to = w.with_armed(|t| t.broadcast(agent, &content, at))?;
            w.wake(&to);
            Ok(format!("Broadcast to {} teammates", to.len()))
        }
        ToolCall::Ask { protocol, to, fields } => ask(w, agent, protocol, to, fields),
        ToolCall::Answer { protocol, request_id, approve, fields } => respond(w, agent, protocol, &request_id, approve, fields),
        ToolCall::Status { protocol, request_id } => status(w, protocol, &request_id),
    }
}

/// The text a protocol tool's success hands back: its `result` template
/// from the file (the lesson's from the built-in lesson file), else its
/// kind's default, filled in with request `id` as it stands now.
fn result_text(w: &World, protocol: ProtocolIx, kind: ToolKind, id: &RequestId, status: &str) -> String {
    let p = w.tools.file().protocol(protocol);
    let (def, default) = match kind {
        ToolKind::Request => (Some(&p.tools.request), result_text::DEFAULT_REQUEST),
        ToolKind::Respond => (p.tools.respond.as_ref(), result_text::DEFAULT_RESPOND),
        ToolKind::Status => (p.tools.status.as_ref(), result_text::DEFAULT_STATUS),
    };
    let template = def.and_then(|d| d.result.as_deref()).unwrap_or(default);
    let req = w.team.request(id);
    let party = |a: Option<&AgentName>| a.map(ToString::to_string).unwrap_or_default();
    result_text::render(template, |slot| match slot {
        Slot::Id => id.to_string(),
        Slot::To => party(req.map(|r| &r.addressee)),
        Slot::From => party(req.map(|r| &r.requester)),
        Slot::Status => status.to_string(),
        Slot::Protocol => p.name.clone(),
        Slot::ProtocolTitle => result_text::title(&p.name),
    })
}

/// The refusal of `tool` behind gate `g`, naming the protocol (and its
/// request tool) whose approval opens the gate for the asker.
fn gate_closed(w: &World, agent: &AgentName, tool: &str, g: GateIx) -> ToolError {
    let file = w.tools.file();
    let gate = file.gates.get(usize::from(g.0)).map(|g| g.name.clone()).unwrap_or_default();
    let opens = |p: &&crate::protocol::file::Protocol| {
        p.on_approve.iter().any(|e| matches!(e, Effect::OpenGate(o, crate::protocol::file::Party::Requester) if *o == g))
    };
    let opener = match file.protocols.iter().find(opens) {
        Some(p) => format!("ask with {} (the '{}' protocol) and wait until it is approved", p.tools.request.name, p.name),
        None => "no protocol of this team opens it".to_string(),
    };
    ToolError::GateClosed { agent: agent.clone(), tool: tool.to_string(), gate, opener }
}

/// `agent` asks with a protocol: the request goes to `to` (the lead when
/// the protocol's addressee is the lead), who is woken.
fn ask(w: &mut World, agent: &AgentName, protocol: ProtocolIx, to: Option<AgentName>, fields: Fields) -> Result<String, ToolError> {
    let to = to.unwrap_or_else(AgentName::lead);
    let at = w.now();
    let id = w.with_armed(|t| t.ask(protocol, agent, &to, fields, at))?;
    w.wake(std::slice::from_ref(&to));
    Ok(result_text(w, protocol, ToolKind::Request, &id, RequestStatus::Pending.as_str()))
}

/// `agent` answers a protocol's request; who wakes is
/// `World::answered`'s, as for a hand answer.
fn respond(
    w: &mut World,
    agent: &AgentName,
    protocol: ProtocolIx,
    id: &RequestId,
    approve: bool,
    fields: Fields,
) -> Result<String, ToolError> {
    let at = w.now();
    let status = w.with_armed(|t| t.respond(protocol, id, agent, approve, fields, at))?;
    w.answered(id, agent);
    Ok(result_text(w, protocol, ToolKind::Respond, id, status.as_str()))
}

/// The status of a protocol's request: who it went to and where it stands
/// (`rejected (expired)` when its deadline passed), in the status tool's
/// words.
fn status(w: &World, protocol: ProtocolIx, id: &RequestId) -> Result<String, ToolError> {
    let kind = w.team.protocols().kind(protocol);
    let req = w.team.request(id).filter(|r| Some(r.kind) == kind);
    let name = &w.tools.file().protocol(protocol).name;
    let req = req.ok_or_else(|| ToolError::UnknownRequest { protocol: name.clone(), id: id.clone() })?;
    let status = if req.expired() { format!("{} (expired)", req.status) } else { req.status.to_string() };
    Ok(result_text(w, protocol, ToolKind::Status, id, &status))
}

fn spawn_teammate(w: &mut World, raw_name: &str, role: &str, prompt: &str, plan_mode: bool) -> Result<String, ToolError> {
    let name = AgentName::parse(raw_name)?;
    if prompt.trim().is_empty() {
        return Err(ToolError::EmptyPrompt(name));
    }
    let at = w.now();
    w.team.spawn(&name, role, plan_mode, at)?;
    w.launch_teammate(&name, role, prompt);
    let mode = if plan_mode { ", plan mode" } else { "" };
    Ok(format!("Spawned '{name}' (role: {role}{mode})"))
}

fn list_teammates(w: &mut World) -> String {
    let team = &w.team;
    let roster = team.roster();
    if roster.members.is_empty() {
        return "No teammates.".to_string();
    }
    let mut lines = vec![format!("Team: {}", roster.team_name)];
    lines.extend(roster.members.iter().map(|m| format!("  {} ({}): {}", m.name, m.role, m.status)));
    lines.join("\n")
}

fn read_inbox(w: &mut World, agent: &AgentName) -> Result<String, ToolError> {
    let at = w.now();
    let got = w.team.drain(agent, at)?;
    let messages: Vec<_> = got.into_iter().map(|e| e.message).collect();
    Ok(serde_json::to_string_pretty(&messages)?)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use crate::protocol::file::{builtin, load};
    use crate::protocol::{Millis, RequestKind};
    use crate::runtime::world::WorldConfig;

    fn world_under(example: &str) -> World {
        let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == example).unwrap();
        let protocols = Some(Arc::new(load(text).unwrap()));
        World::explored(WorldConfig {
            team_name: "default".into(),
            seed: 1,
            max_rounds: 50,
            lead_max_rounds: 50,
            max_tokens: 8000,
            protocols,
        })
    }

    #[test]
    fn an_agents_tools_come_from_the_runs_protocol_file() {
        let world = world_under("task-claim");
        let lead = AgentName::lead();
        let names: Vec<String> = world.model_request(&lead).unwrap().tools.iter().map(|t| t.name.clone()).collect();
        assert_eq!(names.last().map(String::as_str), Some("answer_claim"));
        assert!(!names.iter().any(|n| n == "shutdown_request"), "the task-claim file does not use the lesson: {names:?}");
        assert!(world.model_request(&lead).unwrap().system.contains("answer with answer_claim"));
    }

    #[test]
    fn a_file_protocols_refusal_is_the_teams_error_and_changes_nothing() {
        let mut world = world_under("task-claim");
        let lead = AgentName::lead();
        let events = world.team.trace().len();
        let out = world.run_tool(&lead, AgentRole::Lead, "t1", "answer_claim", &json!({"request_id": "abcd1234", "approve": true}));
        let id = RequestId::parse("abcd1234").unwrap();
        let kind = world.team.protocols().kind(ProtocolIx(0)).unwrap();
        let err = world.team.check_respond(ProtocolIx(0), &id, &lead, true, &Fields::new()).unwrap_err();
        assert!(kind.is_file());
        assert_eq!(out, ToolOutcome { output: format!("Error: {err}"), is_error: true });
        assert_eq!(world.team.trace().len(), events + 2, "only the call and its refusal are recorded");
        let out = world.run_tool(&lead, AgentRole::Lead, "t2", "answer_claim", &json!({"request_id": "abcd1234"}));
        assert_eq!(out.output, "Error: invalid input for answer_claim: missing field 'approve'", "a bad input is refused first");
    }

    #[test]
    fn the_lessons_plan_gate_closes_the_tools_the_lesson_file_lists_until_a_plan_is_approved() {
        let mut world = World::explored(WorldConfig {
            team_name: "default".into(),
            seed: 1,
            max_rounds: 50,
            lead_max_rounds: 50,
            max_tokens: 8000,
            protocols: None,
        });
        let bob = AgentName::parse("bob").unwrap();
        world.team.spawn(&bob, "coder", true, Millis(0)).unwrap();
        let write = json!({"path": "a.txt", "content": "x"});
        let out = world.run_tool(&bob, AgentRole::Teammate, "t1", "write_file", &write);
        let refusal =
            "Error: 'bob' works in plan mode: submit a plan with plan_approval and wait until the lead approves it before changing files";
        assert_eq!(out, ToolOutcome { output: refusal.to_string(), is_error: true });
        let edit = json!({"path": "a.txt", "old_text": "x", "new_text": "y"});
        assert_eq!(world.run_tool(&bob, AgentRole::Teammate, "t2", "edit_file", &edit).output, refusal);
        assert!(!world.run_tool(&bob, AgentRole::Teammate, "t3", "list_files", &json!({})).is_error, "reading stays open");
        let id = world.team.submit_plan(&bob, "p", Millis(1)).unwrap();
        world.team.answer(RequestKind::PLAN, &id, &AgentName::lead(), true, "", Millis(2)).unwrap();
        assert!(!world.run_tool(&bob, AgentRole::Teammate, "t4", "write_file", &write).is_error, "an approved plan opens the gate");
    }

    #[test]
    fn the_lessons_tools_read_the_lessons_texts_from_the_lesson_file() {
        let mut world = parked_team(None, true, true);
        let (lead, alice) = (AgentName::lead(), AgentName::parse("alice").unwrap());
        let mut call = |who: &AgentName, role, tool: &str, input: Value| world.run_tool(who, role, "t", tool, &input);
        let asked = call(&lead, AgentRole::Lead, "shutdown_request", json!({"teammate": "alice"}));
        let id = asked.output.split(' ').nth(2).unwrap().to_string();
        assert_eq!(asked.output, format!("Shutdown request {id} sent to 'alice' (status: pending)"));
        let status = call(&lead, AgentRole::Lead, "shutdown_response", json!({"request_id": id}));
        assert_eq!(status.output, r#"{"status":"pending","target":"alice"}"#);
        let unknown = call(&lead, AgentRole::Lead, "shutdown_response", json!({"request_id": "abcd1234"}));
        assert_eq!(unknown.output, "Error: unknown shutdown request_id 'abcd1234'");
        let itself = call(&lead, AgentRole::Lead, "shutdown_response", json!({"request_id": id, "approve": true}));
        assert!(itself.is_error, "the lead is not the addressee: {}", itself.output);
        let submitted = call(&alice, AgentRole::Teammate, "plan_approval", json!({"plan": "p"}));
        let plan = submitted.output.trim_start_matches("Plan submitted (request_id=").split(')').next().unwrap().to_string();
        assert_eq!(submitted.output, format!("Plan submitted (request_id={plan}). Waiting for lead approval."));
        let reviewed = call(&lead, AgentRole::Lead, "plan_approval", json!({"request_id": plan, "approve": false, "feedback": "no"}));
        assert_eq!(reviewed.output, "Plan rejected for 'alice'");
        let answered = call(&alice, AgentRole::Teammate, "shutdown_response", json!({"request_id": id, "approve": true}));
        assert_eq!(answered.output, "Shutdown approved");
    }

    /// A world (under `example`, or the lesson's protocols alone) with alice
    /// spawned (in plan mode when `plan_mode`), both alice and the lead
    /// parked, and `wake_on_message` as given.
    fn parked_team(example: Option<&str>, plan_mode: bool, wake_on_message: bool) -> World {
        let mut world = match example {
            Some(example) => world_under(example),
            None => World::explored(WorldConfig {
                team_name: "default".into(),
                seed: 1,
                max_rounds: 50,
                lead_max_rounds: 50,
                max_tokens: 8000,
                protocols: None,
            }),
        };
        world.set_rules(crate::protocol::Rules { wake_on_message, ..crate::protocol::Rules::default() });
        let alice = AgentName::parse("alice").unwrap();
        world.team.spawn(&alice, "coder", plan_mode, Millis(0)).unwrap();
        world.turns.park(&alice);
        world
    }

    /// Who has a turn waiting, by name, sorted.
    fn woken(w: &World) -> Vec<String> {
        let mut names: Vec<String> = w.turns().waiting().into_iter().map(|(n, _)| n.to_string()).collect();
        names.sort();
        names
    }

    /// Who wakes after `by` answers request `id` by hand (`answer_as`) and
    /// after it answers with its tool `tool` (`input` plus the id and the
    /// answer), each on its own copy of `world`.
    fn wakes(
        world: &World,
        by: &str,
        role: AgentRole,
        tool: &str,
        id: &RequestId,
        approve: bool,
        input: Value,
    ) -> (Vec<String>, Vec<String>) {
        let by = AgentName::parse(by).unwrap();
        let mut hand = world.clone();
        hand.answer_as(&by, id.as_str(), approve, "done").unwrap();
        let mut tool_world = world.clone();
        let mut input = input;
        input["request_id"] = json!(id.as_str());
        input["approve"] = json!(approve);
        let out = tool_world.run_tool(&by, role, "t1", tool, &input);
        assert!(!out.is_error, "{tool}: {}", out.output);
        (woken(&hand), woken(&tool_world))
    }

    #[test]
    fn a_hand_answer_and_a_tool_answer_to_a_lesson_shutdown_wake_the_same_agents() {
        let lead = AgentName::lead();
        let alice = AgentName::parse("alice").unwrap();
        for wake_on_message in [true, false] {
            let mut world = parked_team(None, false, wake_on_message);
            let id = world.team.request_shutdown(&lead, &alice, Millis(1)).unwrap();
            let input = json!({"reason": "done"});
            let approved = wakes(&world, "alice", AgentRole::Teammate, "shutdown_response", &id, true, input.clone());
            assert_eq!(
                approved,
                (vec!["alice".into(), "lead".into()], vec!["alice".into(), "lead".into()]),
                "the exiting addressee takes its last turn"
            );
            let rejected = wakes(&world, "alice", AgentRole::Teammate, "shutdown_response", &id, false, input);
            assert_eq!(rejected, (vec!["lead".to_string()], vec!["lead".to_string()]), "only the requester is told");
        }
    }

    #[test]
    fn a_hand_answer_and_a_tool_answer_to_a_lesson_plan_wake_the_same_agents() {
        let alice = AgentName::parse("alice").unwrap();
        for (wake_on_message, expected) in [(true, vec!["alice".to_string()]), (false, vec![])] {
            let mut world = parked_team(None, true, wake_on_message);
            let id = world.team.submit_plan(&alice, "p", Millis(1)).unwrap();
            for approve in [true, false] {
                let both = wakes(&world, "lead", AgentRole::Lead, "plan_approval", &id, approve, json!({"feedback": "ok"}));
                assert_eq!(both, (expected.clone(), expected.clone()), "wake_on_message {wake_on_message}, approve {approve}");
            }
        }
    }

    #[test]
    fn a_hand_answer_and_a_tool_answer_to_a_file_protocol_wake_the_same_agents() {
        let lead = AgentName::lead();
        let alice = AgentName::parse("alice").unwrap();
        for wake_on_message in [true, false] {
            // deadline-retry's `shutdown` is a file protocol whose approval makes its addressee exit.
            let mut world = parked_team(Some("deadline-retry"), false, wake_on_message);
            let id = world.team.ask(ProtocolIx(0), &lead, &alice, Fields::new(), Millis(1)).unwrap();
            let input = json!({"reason": "done"});
            let approved = wakes(&world, "alice", AgentRole::Teammate, "shutdown_response", &id, true, input.clone());
            assert_eq!(
                approved,
                (vec!["alice".into(), "lead".into()], vec!["alice".into(), "lead".into()]),
                "the exiting addressee takes its last turn"
            );
            let rejected = wakes(&world, "alice", AgentRole::Teammate, "shutdown_response", &id, false, input);
            assert_eq!(rejected, (vec!["lead".to_string()], vec!["lead".to_string()]));
        }
    }

    #[test]
    fn an_expiry_is_told_to_the_requester_and_to_the_addressee_that_held_the_request_and_wakes_both() {
        let lead = AgentName::lead();
        let alice = AgentName::parse("alice").unwrap();
        // wake_on_message off: a note is no message, both wake all the same.
        let mut world = parked_team(Some("deadline-retry"), false, false);
        world.launch_teammate(&alice, "coder", "You are alice.");
        world.turns.finish(&alice);
        world.turns.park(&alice);
        world.restarts.clear();
        let id = world.team.ask(ProtocolIx(0), &lead, &alice, Fields::new(), Millis(1)).unwrap();
        world.expire_now(&id).unwrap();
        assert_eq!(woken(&world), ["alice", "lead"]);
        let note = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        let asked = note(world.prompts.back().unwrap());
        let held = note(world.restarts[&alice].back().unwrap());
        for (v, party) in [(&asked, "requester"), (&held, "addressee")] {
            assert_eq!(v["event"], "request_expired");
            assert_eq!(v["request_id"], id.as_str());
            assert_eq!(
                (&v["protocol"], &v["from"], &v["to"], &v["party"]),
                (&json!("shutdown"), &json!("lead"), &json!("alice"), &json!(party))
            );
        }
        assert!(asked["note"].as_str().unwrap().ends_with("you may ask again."), "{asked}");
        assert!(held["note"].as_str().unwrap().ends_with("do not answer it."), "{held}");
    }

    #[test]
    fn an_expiry_tells_no_addressee_whose_loop_has_ended() {
        let lead = AgentName::lead();
        let alice = AgentName::parse("alice").unwrap();
        let mut world = parked_team(Some("deadline-retry"), false, true);
        let id = world.team.ask(ProtocolIx(0), &lead, &alice, Fields::new(), Millis(1)).unwrap();
        // alice has no running loop here (never launched): only the lead hears.
        world.expire_now(&id).unwrap();
        assert_eq!(woken(&world), ["lead"]);
        assert!(world.restarts.is_empty());
    }
}
