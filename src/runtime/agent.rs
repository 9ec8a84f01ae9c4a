//! The agent loops: the lead and each teammate as an async task that asks
//! the scheduler for a turn before every event, so Live and Step runs share
//! one code path and a seed fixes the interleaving.
//!
//! Owns the shape of a loop (deliver, think, act, idle, exit) and the
//! conversation it builds. Tool meaning lives in `tools`, protocol rules in
//! `protocol::Team`, and the turn order in `scheduler`.

use std::future::Future;
use std::rc::Rc;

use serde_json::Value;

use super::scheduler::{Stopped, TurnKind};
use super::tools::{self, AgentRole};
use super::Inner;
use crate::model::{ContentBlock, ModelError, ModelRequest, Role, StopReason, Turn};
use crate::protocol::{AgentName, MemberStatus};

/// Appends blocks to the conversation as a user turn, merging with a user
/// turn already at the end (providers need roles to alternate).
fn push_user(request: &mut ModelRequest, blocks: Vec<ContentBlock>) {
    if blocks.is_empty() {
        return;
    }
    match request.messages.last_mut() {
        Some(last) if last.role == Role::User => last.content.extend(blocks),
        _ => request.messages.push(Turn { role: Role::User, content: blocks }),
    }
}

/// What one model call led to.
enum Step {
    /// The model asked for tools; their results are in the conversation.
    Acted,
    /// The model ended its turn (or failed): the agent has nothing to do.
    Done,
    /// The model paused a long turn: call it again as is.
    Paused,
}

/// One model call and the tool runs it asks for.
async fn think_and_act(inner: &Inner, me: &AgentName, role: AgentRole, request: &mut ModelRequest) -> Result<Step, Stopped> {
    let reply = match inner.call_model(me, request).await {
        Ok(reply) => reply,
        Err(ModelError::Cancelled) => return Err(Stopped),
        // Recorded as ModelFailed on the agent; it waits for the next message.
        Err(_) => return Ok(Step::Done),
    };
    let content = if reply.content.is_empty() { vec![ContentBlock::text("(no reply)")] } else { reply.content.clone() };
    request.messages.push(Turn { role: Role::Assistant, content });
    let calls: Vec<(String, String, Value)> =
        reply.tool_uses().map(|(id, name, input)| (id.to_string(), name.to_string(), input.clone())).collect();
    if calls.is_empty() || reply.stop_reason == StopReason::MaxTokens {
        // A reply cut off by max_tokens may hold a half-written tool call:
        // nothing of it is run. The lesson's loop also stops on any other
        // stop reason than tool_use.
        if !calls.is_empty() {
            let results = calls
                .iter()
                .map(|(id, _, _)| ContentBlock::ToolResult {
                    tool_use_id: id.clone(),
                    content: "Error: your reply hit max_tokens before this call was complete; it was not run".into(),
                    is_error: true,
                })
                .collect();
            push_user(request, results);
        }
        return Ok(if reply.stop_reason == StopReason::PauseTurn { Step::Paused } else { Step::Done });
    }
    let mut results = Vec::with_capacity(calls.len());
    for (id, name, input) in calls {
        inner.turn(me, TurnKind::Tool { name: name.clone() }).await?;
        let outcome = inner.run_tool(me, role, &id, &name, &input);
        results.push(ContentBlock::ToolResult { tool_use_id: id, content: outcome.output, is_error: outcome.is_error });
    }
    push_user(request, results);
    Ok(Step::Acted)
}

/// Delivered messages as the JSON text a model reads. Plain data always
/// serialises; were it ever refused, the model reads why instead of the
/// runtime panicking.
fn as_json(written: serde_json::Result<String>) -> String {
    written.unwrap_or_else(|e| format!("(a message could not be written as JSON: {e})"))
}

/// Drains a teammate's inbox (one user block per message, as JSON, as in
/// the lesson) and any prompt from a restart into the conversation.
fn deliver_teammate(inner: &Inner, me: &AgentName, request: &mut ModelRequest) {
    let at = inner.now();
    let got = inner.team.borrow_mut().drain(me, at).unwrap_or_default();
    let mut blocks: Vec<ContentBlock> = got.into_iter().map(|e| ContentBlock::text(as_json(serde_json::to_string(&e.message)))).collect();
    if let Some(prompts) = inner.restarts.borrow_mut().remove(me) {
        blocks.extend(prompts.into_iter().map(ContentBlock::text));
    }
    push_user(request, blocks);
    inner.after_change();
}

fn has_mail(inner: &Inner, me: &AgentName) -> bool {
    let waiting = inner.team.borrow().peek(me).map(|q| !q.is_empty()).unwrap_or(false);
    waiting || inner.restarts.borrow().contains_key(me)
}

/// A teammate's task: its loop, then the end of the task.
pub(crate) async fn teammate_task(inner: Rc<Inner>, me: AgentName, role: String, prompt: String, first_turn: u64) {
    let _ = teammate_loop(&inner, &me, &role, prompt, first_turn).await;
    inner.task_ended(&me);
}

async fn teammate_loop(inner: &Inner, me: &AgentName, role: &str, prompt: String, first_turn: u64) -> Result<(), Stopped> {
    let mut request = ModelRequest {
        system: tools::teammate_system_prompt(me.as_str(), role),
        messages: vec![Turn::user_text(prompt)],
        tools: tools::schemas(AgentRole::Teammate),
        max_tokens: inner.config.max_tokens,
    };
    inner.sched.wait(first_turn).await?;
    inner.begin_turn(&TurnKind::ModelCall).await?;
    let mut rounds = 0;
    loop {
        rounds += 1;
        let step = think_and_act(inner, me, AgentRole::Teammate, &mut request).await?;
        if inner.team.borrow().is_exiting(me) {
            break;
        }
        // Past the round limit a teammate goes idle as if it had ended its
        // turn; a new message wakes it with a fresh budget of rounds.
        let step = match step {
            Step::Acted if rounds >= inner.config.max_rounds => Step::Done,
            other => other,
        };
        match step {
            Step::Paused => {}
            Step::Acted => {
                if has_mail(inner, me) {
                    inner.turn(me, TurnKind::Deliver).await?;
                    deliver_teammate(inner, me, &mut request);
                }
            }
            Step::Done if has_mail(inner, me) => {
                // Mail arrived during the model call: read it instead of idling.
                inner.turn(me, TurnKind::Deliver).await?;
                deliver_teammate(inner, me, &mut request);
                rounds = 0;
            }
            Step::Done => {
                // Idle until a message (or a restart, or an approved
                // shutdown answered by hand) arrives.
                inner.set_status(me, MemberStatus::Idle);
                let parked = inner.sched.park(me);
                inner.check_quiet();
                parked.await?;
                inner.begin_turn(&TurnKind::Deliver).await?;
                if inner.team.borrow().is_exiting(me) {
                    break;
                }
                inner.set_status(me, MemberStatus::Working);
                deliver_teammate(inner, me, &mut request);
                rounds = 0;
            }
        }
        inner.turn(me, TurnKind::ModelCall).await?;
    }
    let exiting = inner.team.borrow().is_exiting(me);
    inner.set_status(me, if exiting { MemberStatus::Shutdown } else { MemberStatus::Idle });
    Ok(())
}

/// Moves waiting prompts and the lead's inbox into its conversation: each
/// prompt as user text, the inbox as one `<inbox>...</inbox>` block.
fn deliver_lead(inner: &Inner, request: &mut ModelRequest) -> bool {
    let lead = AgentName::lead();
    let mut blocks: Vec<ContentBlock> = inner.prompts.borrow_mut().drain(..).map(ContentBlock::text).collect();
    let at = inner.now();
    let mail = inner.team.borrow_mut().drain(&lead, at).unwrap_or_default();
    if !mail.is_empty() {
        let messages: Vec<_> = mail.into_iter().map(|e| e.message).collect();
        let json = as_json(serde_json::to_string_pretty(&messages));
        blocks.push(ContentBlock::text(format!("<inbox>{json}</inbox>")));
    }
    let delivered = !blocks.is_empty();
    push_user(request, blocks);
    inner.after_change();
    delivered
}

fn lead_has_mail(inner: &Inner) -> bool {
    !inner.prompts.borrow().is_empty() || has_mail(inner, &AgentName::lead())
}

/// The lead's task: parked until a prompt or a message arrives, then a run of
/// model calls until it ends its turn.
pub(crate) async fn lead_task(inner: Rc<Inner>, first_park: impl Future<Output = Result<(), Stopped>>) {
    let _ = lead_loop(&inner, first_park).await;
    inner.task_ended(&AgentName::lead());
}

async fn lead_loop(inner: &Inner, first_park: impl Future<Output = Result<(), Stopped>>) -> Result<(), Stopped> {
    let lead = AgentName::lead();
    let mut request = ModelRequest {
        system: tools::lead_system_prompt(),
        messages: Vec::new(),
        tools: tools::schemas(AgentRole::Lead),
        max_tokens: inner.config.max_tokens,
    };
    first_park.await?;
    inner.begin_turn(&TurnKind::Deliver).await?;
    loop {
        if deliver_lead(inner, &mut request) {
            for _ in 0..inner.config.lead_max_rounds {
                inner.turn(&lead, TurnKind::ModelCall).await?;
                match think_and_act(inner, &lead, AgentRole::Lead, &mut request).await? {
                    Step::Done => break,
                    Step::Paused => continue,
                    Step::Acted => {}
                }
                if lead_has_mail(inner) {
                    inner.turn(&lead, TurnKind::Deliver).await?;
                    deliver_lead(inner, &mut request);
                }
            }
        }
        if lead_has_mail(inner) {
            // Mail arrived during the last model call: read it, do not idle.
            inner.turn(&lead, TurnKind::Deliver).await?;
            continue;
        }
        let parked = inner.sched.park(&lead);
        inner.check_quiet();
        parked.await?;
        inner.begin_turn(&TurnKind::Deliver).await?;
    }
}
