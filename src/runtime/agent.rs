//! The agent loops as sans-IO state machines: the lead and each teammate is
//! a value (`Agent`) saying where its loop stands, and `World::resume` runs
//! it from there until it needs its model or a turn. The loop's shape is the
//! lesson's — deliver, think, act, idle, exit:
//!
//! - a teammate drains its inbox before each model call, runs each tool in a
//!   turn of its own, finishes its turn when it approves its shutdown and
//!   then leaves its loop, and idles (parked) until a message wakes it;
//! - the lead sleeps until a prompt or a message, then calls its model until
//!   it ends its turn, reading mail that arrived in between.
//!
//! Owns the shape of a loop and the conversation it builds. Tool meaning
//! lives in `tools`, protocol rules in `protocol::Team`, turn order in
//! `scheduler`, and everything else a loop touches in `world`.

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde_json::Value;

use super::scheduler::TurnKind;
use super::tools::{self, AgentRole};
use super::world::{World, WorldConfig};
use crate::model::{ContentBlock, ModelRequest, ModelResponse, Role, StopReason, Turn};
use crate::protocol::canon::Canon;
use crate::protocol::{AgentName, MemberStatus};

/// What running an agent led to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Progress {
    /// It called its model (`ModelCalled` is recorded): the reply is awaited.
    Model,
    /// It asked for its next turn, parked or left its loop.
    Yielded,
}

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

/// Where a loop resumes when its turn (or its model's reply) comes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Resume {
    /// A model-call turn: call the model.
    ModelTurn,
    /// The model call is out; `World::model_returned` hands the reply in.
    AwaitingModel,
    /// The reply is in (`None`: the call failed): read it.
    Replied(Option<Box<ModelResponse>>),
    /// A tool turn: run the next of the tools the model asked for.
    ToolTurn,
    /// A teammate's delivery turn between rounds (`fresh`: a new budget of
    /// rounds, as after idling).
    TeammateDeliver { fresh: bool },
    /// A parked teammate's delivery turn: it was woken.
    TeammateWoken,
    /// The lead's delivery turn after sleeping (or its first).
    LeadWoken,
    /// The lead's delivery turn between two model calls.
    LeadDeliverBetween,
    /// The lead's delivery turn after its rounds: read and start over.
    LeadDeliverAfter,
    /// The loop has ended.
    Ended,
}

/// One agent's loop, as a value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Agent {
    me: AgentName,
    role: AgentRole,
    /// The system prompt, tools and token limit of every call.
    system: std::sync::Arc<str>,
    tools: std::sync::Arc<[crate::model::ToolSchema]>,
    max_tokens: u32,
    /// The conversation so far, each turn shared: cloning an agent (the
    /// explorer does at every choice point) copies pointers, not turns.
    conversation: Vec<Arc<Turn>>,
    /// Model calls in this teammate loop since it last idled.
    rounds: usize,
    /// Model calls the lead made for this wake-up.
    lead_rounds: usize,
    /// Tool calls of the last reply not yet run, and results so far.
    calls: VecDeque<(String, String, Value)>,
    results: Vec<ContentBlock>,
    at: Resume,
}

impl Agent {
    /// The lead, parked, waiting for a prompt.
    pub(crate) fn lead(config: &WorldConfig) -> Self {
        Agent {
            me: AgentName::lead(),
            role: AgentRole::Lead,
            system: tools::lead_system_prompt().into(),
            tools: tools::schemas(AgentRole::Lead).into(),
            max_tokens: config.max_tokens,
            conversation: Vec::new(),
            rounds: 0,
            lead_rounds: 0,
            calls: VecDeque::new(),
            results: Vec::new(),
            at: Resume::LeadWoken,
        }
    }

    /// A teammate with its first prompt, waiting for its first model call.
    pub(crate) fn teammate(config: &WorldConfig, me: &AgentName, role: &str, prompt: &str) -> Self {
        Agent {
            me: me.clone(),
            role: AgentRole::Teammate,
            system: tools::teammate_system_prompt(me.as_str(), role).into(),
            tools: tools::schemas(AgentRole::Teammate).into(),
            max_tokens: config.max_tokens,
            conversation: vec![Arc::new(Turn::user_text(prompt))],
            rounds: 0,
            lead_rounds: 0,
            calls: VecDeque::new(),
            results: Vec::new(),
            at: Resume::ModelTurn,
        }
    }

    /// The first thing it was told (a teammate's task prompt).
    pub(crate) fn first_prompt(&self) -> String {
        self.conversation.first().map(|t| t.text()).unwrap_or_default()
    }

    /// True once the loop has ended.
    pub(crate) fn has_ended(&self) -> bool {
        self.at == Resume::Ended
    }

    /// True while its model call is out.
    pub(crate) fn awaits_model(&self) -> bool {
        self.at == Resume::AwaitingModel
    }

    /// The request of a model call: the conversation so far.
    pub(crate) fn request(&self) -> ModelRequest {
        ModelRequest {
            system: self.system.to_string(),
            messages: self.conversation.iter().map(|t| Turn::clone(t)).collect(),
            tools: self.tools.clone(),
            max_tokens: self.max_tokens,
        }
    }

    /// Ends the loop where it stands (a stop).
    pub(crate) fn end(&mut self) {
        self.at = Resume::Ended;
    }

    /// The model's reply (`None`: the call failed) to the call that is out.
    pub(crate) fn take_reply(&mut self, reply: Option<ModelResponse>) {
        if self.at == Resume::AwaitingModel {
            self.at = Resume::Replied(reply.map(Box::new));
        }
    }

    /// Feeds the loop's position and conversation into `h`, canonically
    /// (`canon`: no times, request ids by their place).
    pub(crate) fn hash_state<H: Hasher>(&self, canon: &Canon, h: &mut H) {
        match &self.at {
            Resume::Replied(reply) => {
                0xB0u8.hash(h);
                if let Some(r) = reply {
                    hash_blocks(&r.content, canon, h);
                    r.stop_reason.to_string().hash(h);
                }
            }
            other => other.hash(h),
        }
        self.rounds.hash(h);
        self.lead_rounds.hash(h);
        for (id, name, input) in &self.calls {
            canon.hash_text(id, h);
            name.hash(h);
            hash_value(input, canon, h);
        }
        hash_blocks(&self.results, canon, h);
        for turn in &self.conversation {
            (turn.role as u8).hash(h);
            hash_blocks(&turn.content, canon, h);
        }
    }
}

impl Hash for Resume {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // A reply is hashed canonically by `Agent::hash_state`.
        std::mem::discriminant(self).hash(h);
        if let Resume::TeammateDeliver { fresh } = self {
            fresh.hash(h);
        }
    }
}

fn hash_blocks<H: Hasher>(blocks: &[ContentBlock], canon: &Canon, h: &mut H) {
    for b in blocks {
        match b {
            ContentBlock::Text { text } => {
                0u8.hash(h);
                canon.hash_text(text, h);
            }
            ContentBlock::ToolUse { id, name, input } => {
                1u8.hash(h);
                canon.hash_text(id, h);
                name.hash(h);
                hash_value(input, canon, h);
            }
            ContentBlock::ToolResult { tool_use_id, content, is_error } => {
                (2u8, is_error).hash(h);
                canon.hash_text(tool_use_id, h);
                canon.hash_text(content, h);
            }
        }
    }
}

/// Hashes JSON by its structure (serde_json's `Value` has no `Hash`).
fn hash_value<H: Hasher>(v: &Value, canon: &Canon, h: &mut H) {
    match v {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Number(n) => (2u8, n.to_string()).hash(h),
        Value::String(s) => {
            3u8.hash(h);
            canon.hash_text(s, h);
        }
        Value::Array(items) => {
            (4u8, items.len()).hash(h);
            items.iter().for_each(|i| hash_value(i, canon, h));
        }
        Value::Object(map) => {
            (5u8, map.len()).hash(h);
            for (k, v) in map {
                k.hash(h);
                hash_value(v, canon, h);
            }
        }
    }
}

/// Appends blocks to the conversation as a user turn, merging with a user
/// turn already at the end (providers need roles to alternate).
fn push_user(conversation: &mut Vec<Arc<Turn>>, blocks: Vec<ContentBlock>) {
    if blocks.is_empty() {
        return;
    }
    match conversation.last_mut() {
        Some(last) if last.role == Role::User => Arc::make_mut(last).content.extend(blocks),
        _ => conversation.push(Arc::new(Turn { role: Role::User, content: blocks })),
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
            let at = agent.at.clone();
            let next = match at {
                Resume::Ended | Resume::AwaitingModel => return Progress::Yielded,
                Resume::ModelTurn => match self.call_model(me) {
                    After::Model => return Progress::Model,
                    _ => return Progress::Yielded,
                },
                Resume::Replied(reply) => self.read_reply(me, reply.map(|r| *r)),
                Resume::ToolTurn => self.run_next_tool(me),
                Resume::TeammateDeliver { fresh } => {
                    self.deliver_teammate(me);
                    if fresh {
                        self.agent(me).rounds = 0;
                    }
                    self.ask_turn(me, TurnKind::ModelCall, Resume::ModelTurn)
                }
                Resume::TeammateWoken => {
                    if self.team.is_exiting(me) {
                        self.teammate_exits(me)
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
                a.end();
            }
        }
        Progress::Yielded
    }

    fn agent(&mut self, me: &AgentName) -> &mut Agent {
        self.agents.get_mut(me).expect("resume runs only agents of this world")
    }

    /// Queues a turn and says where the loop resumes when it comes.
    fn ask_turn(&mut self, me: &AgentName, kind: TurnKind, at: Resume) -> After {
        self.agent(me).at = at;
        self.turns.enqueue(me, kind);
        After::Wait
    }

    /// Records the call and hands the conversation out.
    fn call_model(&mut self, me: &AgentName) -> After {
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
        let Some(reply) = reply else { return After::Continue(Step::Done) };
        let agent = self.agent(me);
        let content = if reply.content.is_empty() { vec![ContentBlock::text("(no reply)")] } else { reply.content.clone() };
        agent.conversation.push(Arc::new(Turn { role: Role::Assistant, content }));
        let calls: VecDeque<(String, String, Value)> =
            reply.tool_uses().map(|(id, name, input)| (id.to_string(), name.to_string(), input.clone())).collect();
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
        if self.team.is_exiting(me) {
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
