//! The world's state hash taken apart, for finding what multiplies a
//! search's distinct states (`examples/state_parts.rs`): each part of what
//! `World::hash_state` hashes (the roster, the requests, the inboxes, the
//! workspace, turn order, the lead's and the teammates' loops and
//! conversations, the rest) as its own canonical hash, and coarser views of
//! the conversations (their turns as a multiset; every turn's blocks as one
//! multiset).
//!
//! Owns the parts only: a diagnosis, read by no search. It must not change
//! the world, nor the hash the explorer compares (`state_hash`).

use std::hash::Hash;

use super::World;
use crate::protocol::canon::{Canon, StableHasher};
use crate::runtime::agent::AgentParts;
use crate::runtime::tools::AgentRole;

/// The name of a coarser view of a part: `"lead.conversation~blocks"` is a
/// view of `"lead.conversation"`. Parts without it are the exact ones, which
/// together tell apart what `World::hash_state` tells apart.
pub const VIEW_MARK: char = '~';

impl World {
    /// Each part of the state `hash_state(symmetry, _)` hashes, named, as
    /// its canonical hash under the same canon (request ids by place,
    /// alike teammates under canonical names); and the coarser views of the
    /// conversations, named `PART~VIEW` (`VIEW_MARK`). The teammates' parts
    /// hash every teammate's part as a set, each under its canonical name.
    pub fn state_parts(&self, symmetry: bool) -> Vec<(String, u64)> {
        let mut canon = Canon::of_requests(self.team.tracker().iter());
        if symmetry {
            let names = self.symmetric_names(&canon);
            canon = canon.with_names(names);
        }
        let team = &self.team;
        let now = self.now();
        let mut out: Vec<(String, u64)> = Vec::new();
        let mut part = |name: &str, value: u64| out.push((name.to_owned(), value));
        part(
            "roster",
            StableHasher::digest(|h| canon.hash_unordered(team.roster().members.iter(), |m, h| canon.hash_member(team, m, h), h)),
        );
        part(
            "requests",
            StableHasher::digest(|h| canon.hash_unordered(team.tracker().iter(), |r, h| canon.hash_request(team, r, now, h), h)),
        );
        part(
            "inboxes",
            StableHasher::digest(|h| {
                canon.hash_unordered(
                    team.state().bus.names(),
                    |name, h| {
                        canon.hash_name(name, h);
                        for e in team.peek(name).into_iter().flatten() {
                            canon.hash_message(&e.message, h);
                        }
                    },
                    h,
                );
                for held in team.held() {
                    canon.hash_held(held, now, h);
                }
            }),
        );
        part("workspace", self.workspace.canon_hash(&canon));
        part("turns", StableHasher::digest(|h| self.turns.hash_shape(&canon, h)));
        let lead = self.agents.iter().find(|(_, a)| a.role == AgentRole::Lead).map(|(_, a)| a.hash_parts(&canon));
        let mates: Vec<_> =
            self.agents.iter().filter(|(_, a)| a.role != AgentRole::Lead).map(|(name, a)| (name, a.hash_parts(&canon))).collect();
        let views: [(&str, PartOf); 5] = [
            ("loop", |p| p.at),
            ("loop~unnamed", |p| p.at_unnamed),
            ("conversation", |p| p.conversation),
            ("conversation~turns", |p| p.turn_multiset),
            ("conversation~blocks", |p| p.block_multiset),
        ];
        for (view, of) in views {
            part(&format!("lead.{view}"), lead.as_ref().map(of).unwrap_or_default());
            part(
                &format!("teammates.{view}"),
                StableHasher::digest(|h| {
                    canon.hash_unordered(
                        mates.iter(),
                        |(name, p), h| {
                            canon.hash_name(name, h);
                            of(p).hash(h);
                        },
                        h,
                    )
                }),
            );
        }
        part("world.rest", StableHasher::digest(|h| self.hash_rest(&canon, h)));
        out
    }
}

/// One part of an agent's state, read from its parts.
type PartOf = fn(&AgentParts) -> u64;
