//! The world's state as the explorer compares it: everything that decides
//! what can happen next, hashed canonically (request ids by place,
//! interchangeable teammates under canonical names).
//!
//! Owns the hash only; it must not change the world.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use super::World;
use crate::protocol::canon::Canon;
use crate::protocol::AgentName;

impl World {
    /// Feeds everything that decides what can happen next into `h`: the
    /// team's state, the workspace, turn order and each agent's loop. The
    /// trace, the clock and ticket numbers are left out (the explorer's
    /// canonical state; runs that differ only in timing meet), but for the
    /// time left of a delayed message or a deadline (`Canon::hash_team`). With
    /// `symmetry`, teammates configured alike are interchangeable: each is
    /// hashed under a canonical name, by the rank of its own state in its
    /// class (`symmetric_names`).
    pub fn hash_state<H: Hasher>(&self, symmetry: bool, h: &mut H) {
        let mut canon = Canon::of_requests(self.team.tracker().iter());
        if symmetry {
            let names = self.symmetric_names(&canon);
            canon.rename(names);
        }
        canon.hash_team(&self.team, self.now(), h);
        self.workspace.canon_hash(&canon).hash(h);
        self.turns.hash_shape(&canon, h);
        canon.hash_unordered(
            self.agents.iter(),
            |(name, agent), h| {
                canon.hash_name(name, h);
                agent.hash_state(&canon, h);
            },
            h,
        );
        self.hash_rest(&canon, h);
    }

    /// The rest of the world `hash_state` feeds in after the agents: who
    /// runs, the prompts not yet given, the restarts waiting and whether a
    /// run is active.
    pub(super) fn hash_rest<H: Hasher>(&self, canon: &Canon, h: &mut H) {
        self.running.as_ref().map(|r| canon.hash_name(r, h)).hash(h);
        for p in &self.prompts {
            canon.hash_text(p, h);
        }
        canon.hash_unordered(
            self.restarts.iter(),
            |(name, prompts), h| {
                canon.hash_name(name, h);
                prompts.iter().for_each(|p| canon.hash_text(p, h));
            },
            h,
        );
        self.run_active.hash(h);
    }

    /// Canonical names for teammates configured alike: same role, plan mode
    /// and first prompt once each one's own name is taken out. Within a
    /// class, each teammate is ranked by the hash of its own state with
    /// every name of the class written alike, so which twin did what does
    /// not matter; classes of one keep their names.
    pub(super) fn symmetric_names(&self, canon: &Canon) -> Vec<(String, String)> {
        use crate::protocol::canon::StableHasher;
        // Only teammates that share role and plan mode can be alike: their
        // prompts are read only then.
        let mut shape: BTreeMap<(&str, bool), usize> = BTreeMap::new();
        for m in &self.team.roster().members {
            *shape.entry((m.role.as_str(), m.plan_mode)).or_default() += 1;
        }
        let mut classes: BTreeMap<(&str, bool, &str), Vec<&AgentName>> = BTreeMap::new();
        for m in &self.team.roster().members {
            if shape.get(&(m.role.as_str(), m.plan_mode)).is_none_or(|n| *n < 2) {
                continue;
            }
            let Some(agent) = self.agents.get(&m.name) else { continue };
            classes.entry((m.role.as_str(), m.plan_mode, agent.masked_first_prompt())).or_default().push(&m.name);
        }
        let mut names = Vec::new();
        for (class, (_, members)) in classes.into_iter().filter(|(_, m)| m.len() > 1).enumerate() {
            let alike = canon.clone().with_names(members.iter().map(|n| (n.as_str().to_owned(), canonical_name(class, None))).collect());
            let mut ranked: Vec<(u64, &AgentName)> = members
                .iter()
                .map(|&name| {
                    let mut h = StableHasher::default();
                    if let Some(m) = self.team.roster().members.iter().find(|m| &m.name == name) {
                        (m.status, m.shutdown_approved, self.team.plan_approved(&m.name)).hash(&mut h);
                    }
                    if let Some(agent) = self.agents.get(name) {
                        agent.hash_state(&alike, &mut h);
                    }
                    for e in self.team.peek(name).into_iter().flatten() {
                        alike.hash_text(&e.message.content, &mut h);
                        e.message.msg_type.hash(&mut h);
                    }
                    (h.finish(), name)
                })
                .collect();
            ranked.sort();
            names.extend(
                ranked.into_iter().enumerate().map(|(rank, (_, name))| (name.as_str().to_owned(), canonical_name(class, Some(rank)))),
            );
        }
        names
    }
}

/// A canonical name: `@CLASS` for every teammate of a class while they are
/// ranked, `@CLASS#RANK` after; written digit by digit (it is made for every
/// alike teammate at every state, and `format!` cost a team-3 search 6 % of
/// its instructions).
fn canonical_name(class: usize, rank: Option<usize>) -> String {
    fn digits(n: usize, out: &mut String) {
        if n >= 10 {
            digits(n / 10, out);
        }
        out.push(char::from(b'0' + (n % 10) as u8));
    }
    let mut name = String::with_capacity(8);
    name.push('@');
    digits(class, &mut name);
    if let Some(rank) = rank {
        name.push('#');
        digits(rank, &mut name);
    }
    name
}

#[cfg(test)]
mod tests {
    use super::canonical_name;

    #[test]
    fn canonical_names_are_written_as_class_and_rank() {
        for class in [0, 7, 10, 123] {
            assert_eq!(canonical_name(class, None), format!("@{class}"));
            for rank in [0, 9, 11] {
                assert_eq!(canonical_name(class, Some(rank)), format!("@{class}#{rank}"));
            }
        }
    }
}
