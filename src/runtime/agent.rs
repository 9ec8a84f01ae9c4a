//! One agent's loop as a value (`Agent`): where the loop stands
//! (`Resume`), its conversation, its round counts, the tool calls of the
//! last reply still to run. Plain data, cloned by the explorer at every
//! choice point and hashed canonically (`hash_state`). How a loop moves from
//! one point to the next is `runtime::loops`.
//!
//! Owns the loop's state and its canonical hash (taken apart for the
//! state-space diagnosis in `parts`). It must not run anything:
//! no team, no tools, no model; nor know any model's policy (what the
//! explorer remembers about a turn for the scripted policy is the
//! explorer's, in a slot the turn keeps for it: `Said::kept`).

use std::any::Any;
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use serde_json::Value;

mod parts;
mod texts;

pub(crate) use parts::AgentParts;
use texts::{blocks_mention, blocks_windows, hash_blocks, hash_value, value_mentions, value_windows};

use super::tools::{AgentRole, ToolSet};
use crate::model::{json_len, ContentBlock, ModelRequest, ModelResponse, Turn};
use crate::protocol::canon::{id_windows, Canon, CanonMemo, StableHasher};
use crate::protocol::AgentName;

/// What running an agent led to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Progress {
    /// It called its model (`ModelCalled` is recorded): the reply is awaited.
    Model,
    /// It asked for its next turn, parked or left its loop.
    Yielded,
}

/// Where a loop resumes when its turn (or its model's reply) comes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Resume {
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

/// One turn of a conversation, with what the explorer computes from it
/// remembered: its canonical hash (under the last canons it was hashed
/// with), its length as JSON (a model's usage estimate) and whatever the
/// explorer keeps with it (`kept`: what its model's policy read in the
/// turn and, on the last turn of a model call's conversation, its answers
/// to that call). Turns are shared between clones of an agent and between
/// conversations that say the same turns from the same start
/// (`Said::after`), so each is hashed, measured and answered about once
/// rather than at every state.
#[derive(Debug)]
pub(crate) struct Said {
    /// The turn.
    pub(crate) turn: Turn,
    /// The turn's canonical hash, remembered.
    hashed: CanonMemo,
    /// The canonical hash of the whole conversation this turn ends
    /// (remembered on its last turn, which names it: see `answers`).
    whole: CanonMemo,
    /// The turn's length written as JSON.
    chars: OnceLock<usize>,
    /// On a conversation's first turn, its text with the name of the agent
    /// whose conversation it begins written `@` (`masked_first_prompt`):
    /// a first turn is made for one agent (`Agent::teammate`, or a
    /// conversation's only turn replaced, `Said::after` with no turn
    /// before), so it is asked under one name; remembered here rather
    /// than on the agent value, which every move of the agent forgets.
    masked: OnceLock<String>,
    /// What the explorer keeps with the turn (`Said::kept`), of a type the
    /// runtime does not know. A turn is only ever made to follow one turn
    /// (`Said::after`) and never moved, so a conversation's last turn names
    /// the whole conversation (of its agent, whose system prompt and tools
    /// are fixed): what is kept there may be about the whole call.
    kept: OnceLock<Box<dyn Any + Send + Sync>>,
    /// The turns made to follow this one (`Said::after`), while some
    /// conversation holds them.
    next: Mutex<Vec<Weak<Said>>>,
}

impl Said {
    pub(crate) fn new(turn: Turn) -> Self {
        Said {
            turn,
            hashed: CanonMemo::default(),
            whole: CanonMemo::default(),
            chars: OnceLock::new(),
            masked: OnceLock::new(),
            kept: OnceLock::new(),
            next: Mutex::new(Vec::new()),
        }
    }

    /// The turn that says `turn` right after `before` (`None`: a
    /// conversation's first): the one made earlier for an equal turn after
    /// the same `before`, if a conversation still holds it, or a new one.
    /// So two conversations that say the same turns from the same first
    /// turn end in the very same `Said`, and what one remembers (hashes,
    /// length, the policy's alternatives) serves the other: the explorer
    /// reaches one conversation by many interleavings of the other agents.
    pub(crate) fn after(before: Option<&Arc<Said>>, turn: Turn) -> Arc<Said> {
        let Some(before) = before else { return Arc::new(Said::new(turn)) };
        let Ok(mut next) = before.next.lock() else { return Arc::new(Said::new(turn)) };
        next.retain(|w| w.strong_count() > 0);
        if let Some(known) = next.iter().filter_map(Weak::upgrade).find(|s| s.turn == turn) {
            return known;
        }
        let made = Arc::new(Said::new(turn));
        next.push(Arc::downgrade(&made));
        made
    }

    /// The turn's canonical hash under `canon` (remembered).
    fn hash_under(&self, canon: &Canon) -> u64 {
        self.hashed.hash(
            canon,
            |out| blocks_windows(&self.turn.content, out),
            |name| blocks_mention(&self.turn.content, name),
            || {
                let mut h = StableHasher::default();
                (self.turn.role as u8).hash(&mut h);
                hash_blocks(&self.turn.content, canon, &mut h);
                h.finish()
            },
        )
    }

    /// Whether the turn holds `name` (see `blocks_mention`), remembered
    /// under `key`, the name's hash.
    fn mentions(&self, key: u64, name: &str) -> bool {
        self.hashed.mentions(key, name, |name| blocks_mention(&self.turn.content, name))
    }

    /// Whether the conversation before this turn, its last turn, holds
    /// `name` (`conversation` ends with this turn): remembered on that
    /// turn's whole-conversation memo, so a new last turn asks only the
    /// turn before it.
    fn mentions_before(&self, key: u64, name: &str, conversation: &[Arc<Said>]) -> bool {
        let Some((_, rest)) = conversation.split_last() else { return false };
        let Some(before) = rest.last() else { return false };
        before.whole.mentions(key, name, |name| before.mentions_before(key, name, rest) || before.mentions(key, name))
    }

    /// The turn's hex windows (`canon::id_windows`).
    fn windows(&self) -> &[u32] {
        self.hashed.windows(|out| blocks_windows(&self.turn.content, out))
    }

    /// The turn's length written as JSON (remembered).
    fn chars(&self) -> usize {
        *self.chars.get_or_init(|| json_len(&self.turn))
    }

    /// What the explorer keeps with this turn: a `T` made at the first
    /// call and shared by every conversation that holds the turn (`None`
    /// if a `T` cannot be kept: something of another type was kept first).
    pub(crate) fn kept<T: Any + Send + Sync + Default>(&self) -> Option<&T> {
        self.kept.get_or_init(|| Box::<T>::default()).downcast_ref()
    }
}

impl Clone for Said {
    /// A copy to change: nothing is remembered.
    fn clone(&self) -> Self {
        Said::new(self.turn.clone())
    }
}

impl PartialEq for Said {
    fn eq(&self, other: &Self) -> bool {
        self.turn == other.turn
    }
}

impl std::ops::Deref for Said {
    type Target = Turn;
    fn deref(&self) -> &Turn {
        &self.turn
    }
}

/// Appends `turn` to `conversation` (see `Said::after`).
pub(crate) fn push_turn(conversation: &mut Vec<Arc<Said>>, turn: Turn) {
    let said = Said::after(conversation.last(), turn);
    conversation.push(said);
}

/// Replaces the last turn of `conversation` with `turn` (see `Said::after`).
pub(crate) fn replace_last_turn(conversation: &mut Vec<Arc<Said>>, turn: Turn) {
    conversation.pop();
    push_turn(conversation, turn);
}

/// A value computed once and shared by every clone; never part of what
/// makes two agents equal.
#[derive(Debug, Clone, Default)]
pub(crate) struct Memo<T>(Arc<OnceLock<T>>);

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// What is remembered about one agent value, for the explorer: the
/// canonical hash of what it holds between turns (`Agent::hash_in_hand`,
/// under the last canon keys it was asked for). An agent
/// unchanged by a move is shared with the state before it (`World::agents`
/// holds `Arc<Agent>`), so a state pays only for the agents that moved. A
/// copy remembers nothing (it is made to be changed: `Arc::make_mut`), and
/// every change in place goes through `Agent::edit`, which forgets; equal
/// to every other memo, so it never tells two agents apart. Made when
/// first asked for: a move edits its agent several times, and forgetting
/// an empty memo is one test.
#[derive(Debug, Default)]
struct AgentMemo(OnceLock<Box<Remembered>>);

/// What an [`AgentMemo`] holds.
#[derive(Debug, Default)]
struct Remembered {
    in_hand: CanonMemo,
}

impl AgentMemo {
    fn get(&self) -> &Remembered {
        self.0.get_or_init(Box::default)
    }
}

impl Clone for AgentMemo {
    /// A copy to change: nothing is remembered.
    fn clone(&self) -> Self {
        AgentMemo::default()
    }
}

impl PartialEq for AgentMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// One agent's loop, as a value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Agent {
    pub(super) me: AgentName,
    pub(super) role: AgentRole,
    /// The system prompt, tools (its role's share of the set, whose
    /// schemas are written only when a request is) and token limit of every call.
    pub(super) system: std::sync::Arc<str>,
    pub(super) tools: Arc<ToolSet>,
    pub(super) max_tokens: u32,
    /// The conversation so far, each turn shared: cloning an agent (the
    /// explorer does at every choice point) copies pointers, not turns.
    pub(super) conversation: Vec<Arc<Said>>,
    /// The length as JSON of a request of this agent with no messages.
    frame_chars: Memo<usize>,
    /// Model calls in this teammate loop since it last idled.
    pub(super) rounds: usize,
    /// Model calls the lead made for this wake-up.
    pub(super) lead_rounds: usize,
    /// Tool calls of the last reply not yet run, and results so far.
    pub(super) calls: VecDeque<(String, String, Value)>,
    pub(super) results: Vec<ContentBlock>,
    pub(super) at: Resume,
    /// Its canonical hash and masked prompt, remembered (`AgentMemo`).
    memo: AgentMemo,
}

impl Agent {
    /// The lead, parked, waiting for a prompt, with the lead's share of
    /// `tools`.
    pub(crate) fn lead(max_tokens: u32, tools: &Arc<ToolSet>) -> Self {
        Agent {
            me: AgentName::lead(),
            role: AgentRole::Lead,
            system: tools.lead_system_prompt().into(),
            tools: Arc::clone(tools),
            max_tokens,
            conversation: Vec::new(),
            frame_chars: Memo::default(),
            rounds: 0,
            lead_rounds: 0,
            calls: VecDeque::new(),
            results: Vec::new(),
            at: Resume::LeadWoken,
            memo: AgentMemo::default(),
        }
    }

    /// A teammate with its first prompt, waiting for its first model call,
    /// with a teammate's share of `tools`.
    pub(crate) fn teammate(max_tokens: u32, tools: &Arc<ToolSet>, me: &AgentName, role: &str, prompt: &str) -> Self {
        Agent {
            me: me.clone(),
            role: AgentRole::Teammate,
            system: tools.teammate_system_prompt(me.as_str(), role).into(),
            tools: Arc::clone(tools),
            max_tokens,
            conversation: vec![Arc::new(Said::new(Turn::user_text(prompt)))],
            frame_chars: Memo::default(),
            rounds: 0,
            lead_rounds: 0,
            calls: VecDeque::new(),
            results: Vec::new(),
            at: Resume::ModelTurn,
            memo: AgentMemo::default(),
        }
    }

    /// The agent in `shared`, to change: copied if another state shares it
    /// (`Arc::make_mut`), and with what was remembered about it forgotten.
    /// Every change to an agent held by a world goes through here.
    pub(crate) fn edit(shared: &mut Arc<Agent>) -> &mut Agent {
        let agent = Arc::make_mut(shared);
        agent.memo.0.take();
        agent
    }

    /// The first prompt with the agent's own name written `@` (what tells
    /// teammates configured alike apart, `World::symmetric_names`),
    /// remembered on the first turn (`Said::masked`), so a move that
    /// leaves the first turn as it was does not write it again.
    pub(crate) fn masked_first_prompt(&self) -> &str {
        match self.conversation.first() {
            Some(first) => first.masked.get_or_init(|| first.text().replace(self.me.as_str(), "@")),
            None => "",
        }
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
            messages: self.conversation.iter().map(|t| t.turn.clone()).collect(),
            tools: Arc::clone(self.tools.schemas(self.role)),
            max_tokens: self.max_tokens,
        }
    }

    /// The length of `request()` written as JSON, from the lengths of its
    /// parts (each remembered): the frame with no messages, each turn, and
    /// the commas between turns.
    pub(crate) fn request_chars(&self) -> usize {
        let frame = *self.frame_chars.0.get_or_init(|| {
            let empty = ModelRequest {
                system: self.system.to_string(),
                messages: Vec::new(),
                tools: Arc::clone(self.tools.schemas(self.role)),
                max_tokens: self.max_tokens,
            };
            json_len(&empty)
        });
        let turns: usize = self.conversation.iter().map(|t| t.chars()).sum();
        frame + turns + self.conversation.len().saturating_sub(1)
    }

    /// The system prompt of its model calls.
    pub(crate) fn system(&self) -> &str {
        &self.system
    }

    /// The conversation so far, each turn with what the explorer keeps
    /// with it (`Said::kept`): `request()`'s messages, borrowed.
    pub(crate) fn conversation(&self) -> &[Arc<Said>] {
        &self.conversation
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
    /// (`canon`: no times, request ids by their place). The reply, tool
    /// calls and results in hand are hashed as one word remembered for
    /// this agent value (`AgentMemo`), and the conversation as one word
    /// remembered on its last turn (`Said`), each under the canon's key for
    /// its texts (`CanonMemo`): an agent a move did not change costs two
    /// lookups.
    pub(crate) fn hash_state<H: Hasher>(&self, canon: &Canon, h: &mut H) {
        match &self.at {
            Resume::Replied(_) => 0xB0u8.hash(h),
            other => other.hash(h),
        }
        self.rounds.hash(h);
        self.lead_rounds.hash(h);
        let in_hand = matches!(self.at, Resume::Replied(Some(_))) || !self.calls.is_empty() || !self.results.is_empty();
        in_hand.hash(h);
        if in_hand {
            let compute = || {
                let mut sub = StableHasher::default();
                self.hash_in_hand(canon, &mut sub);
                sub.finish()
            };
            let value = self.memo.get().in_hand.hash(canon, |out| self.in_hand_windows(out), |name| self.in_hand_mentions(name), compute);
            debug_assert_eq!(value, compute(), "an agent changed in place without Agent::edit");
            value.hash(h);
        }
        let whole = |last: &Said| {
            last.whole.hash(
                canon,
                |out| self.conversation.iter().for_each(|t| out.extend_from_slice(t.windows())),
                |name| {
                    let key = StableHasher::digest(|h| name.hash(h));
                    last.mentions_before(key, name, &self.conversation) || last.mentions(key, name)
                },
                || {
                    let mut sub = StableHasher::default();
                    for turn in &self.conversation {
                        turn.hash_under(canon).hash(&mut sub);
                    }
                    sub.finish()
                },
            )
        };
        (self.conversation.len(), self.conversation.last().map(|last| whole(last))).hash(h);
    }

    /// The hex windows of every text `hash_in_hand` hands to
    /// `Canon::hash_text` (`canon::id_windows`).
    fn in_hand_windows(&self, out: &mut Vec<u32>) {
        if let Resume::Replied(Some(reply)) = &self.at {
            blocks_windows(&reply.content, out);
        }
        for (id, _, input) in &self.calls {
            id_windows(id, out);
            value_windows(input, out);
        }
        blocks_windows(&self.results, out);
    }

    /// Whether a text `hash_in_hand` hands to `Canon::hash_text` holds
    /// `name`.
    fn in_hand_mentions(&self, name: &str) -> bool {
        let reply = matches!(&self.at, Resume::Replied(Some(reply)) if blocks_mention(&reply.content, name));
        reply
            || self.calls.iter().any(|(id, _, input)| id.contains(name) || value_mentions(input, name))
            || blocks_mention(&self.results, name)
    }

    /// Feeds what the loop holds between turns into `h`, canonically: the
    /// reply not yet read, the tool calls not yet run, their results so far.
    fn hash_in_hand<H: Hasher>(&self, canon: &Canon, h: &mut H) {
        if let Resume::Replied(Some(r)) = &self.at {
            hash_blocks(&r.content, canon, h);
            r.stop_reason.as_str().hash(h);
        }
        for (id, name, input) in &self.calls {
            canon.hash_text(id, h);
            name.hash(h);
            hash_value(input, canon, h);
        }
        hash_blocks(&self.results, canon, h);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Role;
    use crate::protocol::RequestId;

    fn alice() -> Agent {
        Agent::teammate(
            8000,
            ToolSet::lesson(),
            &AgentName::parse("alice").unwrap(),
            "coder",
            "Write a short hello module in src/hello.py.",
        )
    }

    #[test]
    fn the_request_length_from_remembered_parts_is_the_length_of_the_request_written_out() {
        let lead = Agent::lead(8000, ToolSet::lesson());
        assert_eq!(lead.request_chars(), json_len(&lead.request()), "no turns");
        let mut a = alice();
        assert_eq!(a.request_chars(), json_len(&a.request()), "one turn");
        let call = ContentBlock::ToolUse { id: "toolu_1".into(), name: "write_file".into(), input: serde_json::json!({ "path": "a\"b" }) };
        push_turn(&mut a.conversation, Turn { role: Role::Assistant, content: vec![ContentBlock::text("Writing."), call] });
        let result = ContentBlock::ToolResult { tool_use_id: "toolu_1".into(), content: "ok — écrit".into(), is_error: false };
        push_turn(&mut a.conversation, Turn { role: Role::User, content: vec![result] });
        assert_eq!(a.request_chars(), json_len(&a.request()), "three turns, remembered after the first count");
        assert_eq!(a.request_chars(), json_len(&a.request()));
    }

    #[test]
    fn conversations_that_say_the_same_turns_from_the_same_start_share_their_turns_and_what_they_remember() {
        let start = alice();
        let (mut x, mut y) = (start.clone(), start.clone());
        push_turn(&mut x.conversation, Turn::user_text("Please shut down."));
        push_turn(&mut y.conversation, Turn::user_text("Please shut down."));
        assert!(Arc::ptr_eq(&x.conversation[1], &y.conversation[1]), "one turn for both");
        let kept = |a: &Agent| a.conversation[1].kept::<OnceLock<usize>>().map(|k| *k.get_or_init(|| a.rounds + 1));
        y.rounds = 41;
        assert_eq!((kept(&x), kept(&y)), (Some(1), Some(1)), "what one keeps with the turn the other finds");
        // Another turn, or the same turn after another start, is another turn.
        let mut z = start.clone();
        push_turn(&mut z.conversation, Turn::user_text("Carry on."));
        assert!(!Arc::ptr_eq(&x.conversation[1], &z.conversation[1]));
        let mut other = alice();
        push_turn(&mut other.conversation, Turn::user_text("Please shut down."));
        assert!(!Arc::ptr_eq(&x.conversation[1], &other.conversation[1]), "another agent's conversation");
        // A merged last turn is the turn after the one before it.
        replace_last_turn(&mut z.conversation, Turn::user_text("Please shut down."));
        assert!(Arc::ptr_eq(&x.conversation[1], &z.conversation[1]));
        // Nothing is kept once no conversation holds it.
        let gone = Arc::downgrade(&x.conversation[1]);
        drop((x, y, z));
        assert!(gone.upgrade().is_none());
        push_turn(&mut other.conversation, Turn::user_text("Carry on."));
        assert_eq!(other.conversation[2].text(), "Carry on.");
    }

    #[test]
    fn a_turn_keeps_one_value_for_the_explorer_made_at_the_first_ask() {
        let said = Said::new(Turn::user_text("Please shut down."));
        let first: *const OnceLock<u32> = said.kept::<OnceLock<u32>>().unwrap();
        said.kept::<OnceLock<u32>>().unwrap().set(7).unwrap();
        assert_eq!(said.kept::<OnceLock<u32>>().unwrap().get(), Some(&7));
        assert!(std::ptr::eq(first, said.kept::<OnceLock<u32>>().unwrap()), "the same value every time");
        assert!(said.kept::<String>().is_none(), "a value of another type is not made over it");
        assert!(Said::clone(&said).kept::<OnceLock<u32>>().unwrap().get().is_none(), "a copy to change keeps nothing");
    }

    fn hash_of(agent: &Agent, canon: &Canon) -> u64 {
        let mut h = StableHasher::default();
        agent.hash_state(canon, &mut h);
        h.finish()
    }

    #[test]
    fn an_agent_remembers_what_it_holds_until_an_edit_and_a_changed_agent_hashes_as_computed_anew() {
        let result = |text: &str| ContentBlock::ToolResult { tool_use_id: "toolu_1".into(), content: text.into(), is_error: false };
        let mut shared = Arc::new(alice());
        Agent::edit(&mut shared).results.push(result("ok"));
        let canon = Canon::default();
        let first = hash_of(&shared, &canon);
        let before = Arc::clone(&shared);
        Agent::edit(&mut shared).results.push(result("written"));
        let changed = hash_of(&shared, &canon);
        assert_ne!(first, changed, "the edit is seen");
        assert_eq!(hash_of(&before, &canon), first, "the state before keeps its agent and its hash");
        assert_eq!(hash_of(&(*shared).clone(), &canon), changed, "remembered = computed anew");
        // Edited in place (no other state shares it): forgotten too.
        drop(before);
        assert_eq!(Arc::strong_count(&shared), 1);
        Agent::edit(&mut shared).results.pop();
        assert_eq!(hash_of(&shared, &canon), first);
    }

    #[test]
    fn a_remembered_turn_hash_follows_the_canon_it_is_asked_under() {
        let mut a = alice();
        let text = r#"{"type":"shutdown_request","from":"lead","request_id":"4607cc28"}"#;
        push_turn(&mut a.conversation, Turn::user_text(text));
        let first = Canon::new([&RequestId::parse("4607cc28").unwrap()]);
        let other = Canon::new([&RequestId::parse("0badf00d").unwrap(), &RequestId::parse("4607cc28").unwrap()]);
        let (x, y) = (hash_of(&a, &first), hash_of(&a, &other));
        assert_ne!(x, y, "the id's place differs, so the hashes must");
        let fresh = a.clone();
        let fresh = Agent { conversation: fresh.conversation.iter().map(|t| Arc::new(Said::clone(t))).collect(), ..fresh };
        assert_eq!(hash_of(&a, &first), hash_of(&fresh, &first), "remembered = computed anew");
        assert_eq!(hash_of(&a, &other), hash_of(&fresh, &other));
        assert_eq!(hash_of(&a, &first), x, "hashing under another canon keeps the first remembered");
    }
}
