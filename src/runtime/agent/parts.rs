//! One agent's state in parts, for the state-space diagnosis
//! (`World::state_parts`, `examples/state_parts.rs`): where the loop stands,
//! its conversation as `Agent::hash_state` hashes it, and coarser views of
//! the conversation, each a canonical hash.
//!
//! Owns the parts only; what the explorer compares is `Agent::hash_state`,
//! and nothing here may change an agent.

use std::hash::{Hash, Hasher};

use super::*;

/// One agent's state in parts (`Agent::hash_parts`), each a canonical hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AgentParts {
    /// Where the loop stands: its point, round counts and what it holds.
    pub(crate) at: u64,
    /// The same without the reply's texts and the tool-use ids.
    pub(crate) at_unnamed: u64,
    /// The conversation as `hash_state` hashes it (in order).
    pub(crate) conversation: u64,
    /// The conversation's turns as a multiset.
    pub(crate) turn_multiset: u64,
    /// Every turn's blocks as one multiset (each with its turn's role).
    pub(crate) block_multiset: u64,
}

impl Agent {
    /// The parts of `hash_state`, apart, for the state-space diagnosis
    /// (`World::state_parts`): where the loop stands (its point, round
    /// counts and what it holds between turns), its conversation as hashed
    /// (in order), and two coarser views of the conversation: the multiset
    /// of its turns (their order forgotten) and the multiset of every
    /// turn's blocks (order and the batching into turns forgotten: what it
    /// heard, said and called, with the results).
    pub(crate) fn hash_parts(&self, canon: &Canon) -> AgentParts {
        let mut at = StableHasher::default();
        match &self.at {
            Resume::Replied(_) => 0xB0u8.hash(&mut at),
            other => other.hash(&mut at),
        }
        (self.rounds, self.lead_rounds).hash(&mut at);
        let mut hand = StableHasher::default();
        self.hash_in_hand(canon, &mut hand);
        hand.finish().hash(&mut at);
        let mut ordered = StableHasher::default();
        for turn in &self.conversation {
            turn.hash_under(canon).hash(&mut ordered);
        }
        let mut turns: Vec<u64> = self.conversation.iter().map(|t| t.hash_under(canon)).collect();
        turns.sort_unstable();
        let mut blocks: Vec<u64> = self
            .conversation
            .iter()
            .flat_map(|t| {
                t.turn.content.iter().map(move |b| {
                    let mut sub = StableHasher::default();
                    (t.turn.role as u8).hash(&mut sub);
                    hash_blocks(std::slice::from_ref(b), canon, &mut sub);
                    sub.finish()
                })
            })
            .collect();
        blocks.sort_unstable();
        // The same without what only names things: the reply's texts and
        // every tool-use id (a scripted model numbers them by its turns).
        let mut plain = StableHasher::default();
        match &self.at {
            Resume::Replied(_) => 0xB0u8.hash(&mut plain),
            other => other.hash(&mut plain),
        }
        (self.rounds, self.lead_rounds).hash(&mut plain);
        let unnamed = |blocks: &[ContentBlock], h: &mut StableHasher| {
            for b in blocks {
                match b {
                    ContentBlock::Text { .. } => 0u8.hash(h),
                    ContentBlock::ToolUse { name, input, .. } => {
                        name.hash(h);
                        hash_value(input, canon, h);
                    }
                    ContentBlock::ToolResult { content, is_error, .. } => {
                        canon.hash_text(content, h);
                        is_error.hash(h);
                    }
                }
            }
        };
        if let Resume::Replied(Some(r)) = &self.at {
            unnamed(&r.content, &mut plain);
            r.stop_reason.as_str().hash(&mut plain);
        }
        for (_, name, input) in &self.calls {
            name.hash(&mut plain);
            hash_value(input, canon, &mut plain);
        }
        unnamed(&self.results, &mut plain);
        AgentParts {
            at: at.finish(),
            at_unnamed: plain.finish(),
            conversation: ordered.finish(),
            turn_multiset: StableHasher::digest(|h| turns.hash(h)),
            block_multiset: StableHasher::digest(|h| blocks.hash(h)),
        }
    }
}
