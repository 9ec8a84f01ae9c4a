//! How an agent's loop runs, as `World::resume`: from where the loop stands
//! until it needs its model or a turn. The loop's shape is the lesson's —
//! deliver, think, act, idle, exit:
//!
//! - a teammate drains its inbox before each model call, runs each tool in a
//!   turn of its own, finishes its turn when it approves its shutdown and
//!   then leaves its loop, and idles (parked) until a message wakes it; a
//!   shutdown approved for it by hand between its turns ends its loop at its
//!   next turn, which only reads its inbox (it calls its model no more);
//! - the lead sleeps until a prompt or a message, then calls its model until
//!   it ends its turn, reading mail that arrived in between.
//!
//! Owns the shape of a loop and the conversation it builds. The loop's
//! state is `agent`; tool meaning lives in `tools`, protocol rules in
//! `protocol::Team`, turn order in `scheduler`, and everything else a loop
//! touches in `world`.

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::Value;

use super::agent::{push_turn, replace_last_turn, Agent, Progress, Resume, Said};
use super::scheduler::TurnKind;
use super::tools::AgentRole;
use super::world::World;
use crate::model::{ContentBlock, ModelResponse, Role, StopReason, Turn};
use crate::protocol::{AgentName, MemberStatus};

/// What one model call and its tools led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Step {
    /// The model asked for tools; their results are in the conversation.
    Acted,
    /// The model ended its turn (or failed): the agent has nothing to do.
    Done,
    /// The model paused a long turn: call it again as is.
    Paused,
}

/// Appends blocks to the conversation as a user turn, merging with a user
/// turn already at the end (providers need roles to alternate).
fn push_user(conversation: &mut Vec<Arc<Said>>, blocks: Vec<ContentBlock>) {
    if blocks.is_empty() {
        return;
    }
    match conversation.last() {
        Some(last) if last.role == Role::User => {
            // A changed turn is a new turn: nothing remembered of the old one.
            let mut turn = last.turn.clone();
            turn.content.extend(blocks);
            replace_last_turn(conversation, turn);
        }
        _ => push_turn(conversation, Turn { role: Role::User, content: blocks }),
    }
}

/// Delivered messages as the JSON text a model reads. Plain data always
/// serialises; were it ever refused, the model reads why instead of the
/// runtime panicking.
fn as_json(written: serde_json::Result<String>) -> String {
    written.unwrap_or_else(|e| format!("(a message could not be written as JSON: {e})"))
}

/// Where the loop goes after one model call and its tools.
enum After {
    Continue(Step),
    Model,
    Wait,
}

impl World {
    /// Runs `me`'s loop from where it stands until it needs its model or
    /// yields its turn.
    pub(crate) fn resume(&mut self, me: &AgentName) -> Progress {
        loop {
            let Some(agent) = self.agents.get(me) else { return Progress::Yielded };
            let at = match agent.at {
                // The reply is taken, not copied: every way on from reading
                // it sets where the loop stands next.
                Resume::Replied(_) => std::mem::replace(&mut self.agent(me).at, Resume::AwaitingModel),
                ref other => other.clone(),
            };
            let next = match at {
                Resume::Ended | Resume::AwaitingModel => return Progress::Yielded,
                // A teammate whose shutdown was approved while it waited for
                // this turn (answered for it by hand) starts no new work.
                Resume::ModelTurn if self.exits_now(me) => self.teammate_leaves(me),
                Resume::ModelTurn => match self.call_model(me) {
                    After::Model => return Progress::Model,
                    _ => return Progress::Yielded,
                },
                Resume::Replied(reply) => self.read_reply(me, reply.map(|r| *r)),
                Resume::ToolTurn => self.run_next_tool(me),
                Resume::TeammateDeliver { .. } if self.exits_now(me) => self.teammate_leaves(me),
                Resume::TeammateDeliver { fresh } => {
                    self.deliver_teammate(me);
                    if fresh {
                        self.agent(me).rounds = 0;
                    }
                    self.ask_turn(me, TurnKind::ModelCall, Resume::ModelTurn)
                }
                Resume::TeammateWoken => {
                    if self.exits_now(me) {
                        self.teammate_leaves(me)
                    } else {
                        self.set_status(me, MemberStatus::Working);
                        self.deliver_teammate(me);
                        self.agent(me).rounds = 0;
                        self.ask_turn(me, TurnKind::ModelCall, Resume::ModelTurn)
                    }
                }
                Resume::LeadWoken | Resume::LeadDeliverAfter => self.lead_top(),
                Resume::LeadDeliverBetween => {
                    self.deliver_lead();
                    self.lead_next_round()
                }
            };
            match next {
                After::Continue(step) => {
                    let after = if self.agent(me).role == AgentRole::Lead { self.lead_after(step) } else { self.teammate_after(me, step) };
                    match after {
                        After::Model => return Progress::Model,
                        After::Wait => return self.yielded(me),
                        After::Continue(_) => continue,
                    }
                }
                After::Model => return Progress::Model,
                After::Wait => return self.yielded(me),
            }
        }
    }

    /// A stop that reached the loop while it ran ends it here.
    fn yielded(&mut self, me: &AgentName) -> Progress {
        if self.turns.is_stopped() {
            if let Some(a) = self.agents.get_mut(me) {
                Agent::edit(a).end();
            }
        }
        Progress::Yielded
    }

    fn agent(&mut self, me: &AgentName) -> &mut Agent {
        Agent::edit(self.agents.get_mut(me).expect("resume runs only agents of this world"))
    }

    /// Queues a turn and says where the loop resumes when it comes.
    fn ask_turn(&mut self, me: &AgentName, kind: TurnKind, at: Resume) -> After {
        self.agent(me).at = at;
        self.turns.enqueue(me, kind);
        After::Wait
    }

    /// Records the call and hands the conversation out.
    fn call_model(&mut self, me: &AgentName) -> After {
        if !self.budget_allows(me) {
            return After::Wait;
        }
        if self.agent(me).role == AgentRole::Teammate {
            self.agent(me).rounds += 1;
        }
        self.observe(crate::protocol::Event::ModelCalled { agent: me.clone() });
        self.agent(me).at = Resume::AwaitingModel;
        After::Model
    }

    /// Reads a reply: its text into the conversation, its tool calls queued
    /// each for a turn of its own.
    fn read_reply(&mut self, me: &AgentName, reply: Option<ModelResponse>) -> After {
        let Some(mut reply) = reply else { return After::Continue(Step::Done) };
        let agent = self.agent(me);
        let calls: VecDeque<(String, String, Value)> =
            reply.tool_uses().map(|(id, name, input)| (id.to_string(), name.to_string(), input.clone())).collect();
        let content = if reply.content.is_empty() { vec![ContentBlock::text("(no reply)")] } else { std::mem::take(&mut reply.content) };
        push_turn(&mut agent.conversation, Turn { role: Role::Assistant, content });
        if calls.is_empty() || reply.stop_reason == StopReason::MaxTokens {
            // A reply cut off by max_tokens may hold a half-written tool
            // call: nothing of it is run. The lesson's loop also stops on any
            // other stop reason than tool_use.
            if !calls.is_empty() {
                let results = calls
                    .iter()
                    .map(|(id, _, _)| ContentBlock::ToolResult {
                        tool_use_id: id.clone(),
                        content: "Error: your reply hit max_tokens before this call was complete; it was not run".into(),
                        is_error: true,
                    })
                    .collect();
                push_user(&mut agent.conversation, results);
            }
            return After::Continue(if reply.stop_reason == StopReason::PauseTurn { Step::Paused } else { Step::Done });
        }
        let first = calls[0].1.clone();
        agent.calls = calls;
        agent.results = Vec::new();
        self.ask_turn(me, TurnKind::Tool { name: first }, Resume::ToolTurn)
    }

    /// Runs one queued tool call; asks a turn for the next, or puts every
    /// result into the conversation.
    fn run_next_tool(&mut self, me: &AgentName) -> After {
        let Some((id, name, input)) = self.agent(me).calls.pop_front() else { return After::Continue(Step::Acted) };
        let role = self.agent(me).role;
        let outcome = self.run_tool(me, role, &id, &name, &input);
        let agent = self.agent(me);
        agent.results.push(ContentBlock::ToolResult { tool_use_id: id, content: outcome.output, is_error: outcome.is_error });
        if let Some(next) = agent.calls.front().map(|c| c.1.clone()) {
            return self.ask_turn(me, TurnKind::Tool { name: next }, Resume::ToolTurn);
        }
        let results = std::mem::take(&mut agent.results);
        push_user(&mut agent.conversation, results);
        After::Continue(Step::Acted)
    }

    // ------------------------------------------------------------ teammates

    fn has_mail(&self, me: &AgentName) -> bool {
        let waiting = self.team.peek(me).map(|q| !q.is_empty()).unwrap_or(false);
        waiting || self.restarts.contains_key(me)
    }

    /// Drains a teammate's inbox (one user block per message, as JSON, as in
    /// the lesson) and any prompt from a restart into the conversation.
    fn deliver_teammate(&mut self, me: &AgentName) {
        let at = self.now();
        let got = self.team.drain(me, at).unwrap_or_default();
        let mut blocks: Vec<ContentBlock> =
            got.into_iter().map(|e| ContentBlock::text(as_json(serde_json::to_string(&e.message)))).collect();
        if let Some(prompts) = self.restarts.remove(me) {
            blocks.extend(prompts.into_iter().map(ContentBlock::text));
        }
        push_user(&mut self.agent(me).conversation, blocks);
    }

    /// A teammate after one model call and its tools.
    fn teammate_after(&mut self, me: &AgentName, step: Step) -> After {
        if self.exits_now(me) {
            return self.teammate_exits(me);
        }
        // Past the round limit a teammate goes idle as if it had ended its
        // turn; a new message wakes it with a fresh budget of rounds.
        let step = match step {
            Step::Acted if self.agent(me).rounds >= self.config.max_rounds => Step::Done,
            other => other,
        };
        match step {
            Step::Paused => self.ask_turn(me, TurnKind::ModelCall, Resume::ModelTurn),
            Step::Acted if self.has_mail(me) => self.ask_turn(me, TurnKind::Deliver, Resume::TeammateDeliver { fresh: false }),
            Step::Acted => self.ask_turn(me, TurnKind::ModelCall, Resume::ModelTurn),
            // Mail arrived during the model call: read it instead of idling.
            Step::Done if self.has_mail(me) => self.ask_turn(me, TurnKind::Deliver, Resume::TeammateDeliver { fresh: true }),
            Step::Done => {
                // Idle until a message (or a restart, or an approved
                // shutdown answered by hand) arrives.
                self.set_status(me, MemberStatus::Idle);
                self.agent(me).at = Resume::TeammateWoken;
                self.turns.park(me);
                self.check_quiet();
                After::Wait
            }
        }
    }

    /// True when the teammate approved its shutdown and so leaves its loop
    /// now; with `exit_after_approval` off it carries on as if it had not
    /// (anthropics/claude-code#37895, #60199).
    fn exits_now(&self, me: &AgentName) -> bool {
        self.team.is_exiting(me) && self.team.rules().exit_after_approval
    }

    /// A teammate whose shutdown was approved between two of its turns (an
    /// answer given for it by hand, while it waited for a turn or idled)
    /// takes this one to leave: it reads its inbox one last time, so the
    /// request answered in its name (and anything else that came) is read,
    /// not left waiting in the inbox of a teammate that is gone; then it
    /// leaves without calling its model (`exit_after_approval`).
    fn teammate_leaves(&mut self, me: &AgentName) -> After {
        if self.team.peek(me).is_ok_and(|q| !q.is_empty()) {
            let at = self.now();
            let got = self.team.drain(me, at).unwrap_or_default();
            let blocks = got.into_iter().map(|e| ContentBlock::text(as_json(serde_json::to_string(&e.message)))).collect();
            push_user(&mut self.agent(me).conversation, blocks);
        }
        self.teammate_exits(me)
    }

    /// The teammate leaves its loop: `shutdown` if it approved its
    /// shutdown, otherwise idle.
    fn teammate_exits(&mut self, me: &AgentName) -> After {
        let exiting = self.team.is_exiting(me);
        self.set_status(me, if exiting { MemberStatus::Shutdown } else { MemberStatus::Idle });
        self.agent(me).end();
        self.agent_ended(me);
        After::Wait
    }

    // ------------------------------------------------------------ the lead

    /// Moves waiting prompts and the lead's inbox into its conversation:
    /// each prompt as user text, the inbox as one `<inbox>...</inbox>` block.
    fn deliver_lead(&mut self) -> bool {
        let lead = AgentName::lead();
        let mut blocks: Vec<ContentBlock> = self.prompts.drain(..).map(ContentBlock::text).collect();
        let at = self.now();
        let mail = self.team.drain(&lead, at).unwrap_or_default();
        if !mail.is_empty() {
            let messages: Vec<_> = mail.into_iter().map(|e| e.message).collect();
            let json = as_json(serde_json::to_string_pretty(&messages));
            blocks.push(ContentBlock::text(format!("<inbox>{json}</inbox>")));
        }
        let delivered = !blocks.is_empty();
        push_user(&mut self.agent(&lead).conversation, blocks);
        delivered
    }

    fn lead_has_mail(&self) -> bool {
        !self.prompts.is_empty() || self.has_mail(&AgentName::lead())
    }

    /// The top of the lead's loop, its delivery turn begun: read, then call
    /// the model until it ends its turn.
    fn lead_top(&mut self) -> After {
        if self.deliver_lead() {
            self.agent(&AgentName::lead()).lead_rounds = 0;
            self.lead_next_round()
        } else {
            self.lead_rest()
        }
    }

    /// The next of the lead's model calls for this wake-up, or rest.
    fn lead_next_round(&mut self) -> After {
        let lead = AgentName::lead();
        let max = self.config.lead_max_rounds;
        let agent = self.agent(&lead);
        if agent.lead_rounds < max {
            agent.lead_rounds += 1;
            self.ask_turn(&lead, TurnKind::ModelCall, Resume::ModelTurn)
        } else {
            self.lead_rest()
        }
    }

    /// The lead after one model call and its tools.
    fn lead_after(&mut self, step: Step) -> After {
        let lead = AgentName::lead();
        match step {
            Step::Done => self.lead_rest(),
            Step::Paused => self.lead_next_round(),
            Step::Acted if self.lead_has_mail() => self.ask_turn(&lead, TurnKind::Deliver, Resume::LeadDeliverBetween),
            Step::Acted => self.lead_next_round(),
        }
    }

    /// The lead's rounds are over: read mail that came meanwhile, or sleep.
    fn lead_rest(&mut self) -> After {
        let lead = AgentName::lead();
        if self.lead_has_mail() {
            // Mail arrived during the last model call: read it, do not idle.
            return self.ask_turn(&lead, TurnKind::Deliver, Resume::LeadDeliverAfter);
        }
        self.agent(&lead).at = Resume::LeadWoken;
        self.turns.park(&lead);
        self.check_quiet();
        After::Wait
    }
}
