//! The scheduler: one baton, passed between agents. An agent asks for a
//! turn before each event (an inbox delivery, a model call, a tool run) and
//! holds the baton until it asks for its next turn, parks (idle) or
//! finishes. Which waiting turn goes next is drawn from a seeded generator,
//! so a run is repeatable; in Step mode a turn is released only by `step()`;
//! with `Pick::Chosen` the caller (the explorer) grants every turn itself.
//!
//! Sans-IO: plain data, no futures, no wakers. `runtime::world` asks it who
//! goes next; the async runtime and the explorer drive the world. It must
//! not touch the team, the model or the trace.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::protocol::ids::SeededIds;
use crate::protocol::AgentName;

/// How turns are released.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// As fast as the agents go.
    Live,
    /// One turn per `step()`.
    Step,
}

/// What an agent will do with its turn.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TurnKind {
    /// Read its inbox (or, for the lead, a new prompt) into the conversation.
    Deliver,
    /// Call its model.
    ModelCall,
    /// Run one tool.
    Tool {
        /// The tool's name.
        name: String,
    },
}

impl fmt::Display for TurnKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnKind::Deliver => f.write_str("read inbox"),
            TurnKind::ModelCall => f.write_str("call the model"),
            TurnKind::Tool { name } => write!(f, "run {name}"),
        }
    }
}

/// Who picks the next turn among the waiting ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// A seeded generator, at the moment the baton is free (live runs).
    Seeded(SeededIds),
    /// The caller, with `Turns::grant` (the explorer tries every choice).
    Chosen,
}

/// A turn waiting for the baton.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ticket {
    /// Its number: tickets are served in the order the picker chooses, and
    /// listed in the order they were asked for.
    pub id: u64,
    /// Who asked.
    pub agent: AgentName,
    /// For what.
    pub kind: TurnKind,
}

/// Turn order for one run: the waiting tickets, the baton, parked agents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turns {
    mode: Mode,
    pick: Pick,
    next_ticket: u64,
    waiting: BTreeMap<u64, (AgentName, TurnKind)>,
    /// Granted and not yet begun by its agent.
    granted: Option<Ticket>,
    holder: Option<AgentName>,
    /// Idle agents, with the delivery turn that wakes them once queued.
    parked: BTreeMap<AgentName, Option<u64>>,
    credits: u64,
    stopped: bool,
    released: u64,
}

impl Turns {
    /// Turns in `mode`, drawn from `seed`.
    pub fn new(mode: Mode, seed: u64) -> Self {
        Turns::with_pick(mode, Pick::Seeded(SeededIds::new(seed ^ 0x005E_ED0F_7A5C)))
    }

    /// Turns picked by `pick` (the explorer passes `Pick::Chosen`).
    pub fn with_pick(mode: Mode, pick: Pick) -> Self {
        Turns {
            mode,
            pick,
            next_ticket: 0,
            waiting: BTreeMap::new(),
            granted: None,
            holder: None,
            parked: BTreeMap::new(),
            credits: 0,
            stopped: false,
            released: 0,
        }
    }

    fn release(&mut self, agent: &AgentName) {
        if self.holder.as_ref() == Some(agent) {
            self.holder = None;
        }
    }

    fn try_grant(&mut self) {
        if self.stopped || self.holder.is_some() || self.waiting.is_empty() {
            return;
        }
        let count = self.waiting.len() as u64;
        let Pick::Seeded(rng) = &mut self.pick else { return };
        if self.mode == Mode::Step {
            if self.credits == 0 {
                return;
            }
            self.credits -= 1;
        }
        let pick = (rng.next_u64() % count) as usize;
        if let Some(id) = self.waiting.keys().nth(pick).copied() {
            self.give(id);
        }
    }

    /// Hands the baton to ticket `id` (which must be waiting).
    fn give(&mut self, id: u64) {
        let Some((agent, kind)) = self.waiting.remove(&id) else { return };
        if self.parked.get(&agent) == Some(&Some(id)) {
            self.parked.remove(&agent);
        }
        self.holder = Some(agent.clone());
        self.granted = Some(Ticket { id, agent, kind });
        self.released += 1;
    }

    /// Queues a turn for `agent` now (releasing the baton if it held it), and
    /// returns its ticket.
    pub fn enqueue(&mut self, agent: &AgentName, kind: TurnKind) -> u64 {
        self.release(agent);
        let id = self.next_ticket;
        self.next_ticket += 1;
        self.waiting.insert(id, (agent.clone(), kind));
        self.try_grant();
        id
    }

    /// Releases the baton; the agent sleeps until `unpark` queues it a
    /// delivery turn and that turn is granted.
    pub fn park(&mut self, agent: &AgentName) {
        self.release(agent);
        self.parked.insert(agent.clone(), None);
        self.try_grant();
    }

    /// Gives a parked agent a delivery turn. Returns false if it was not
    /// parked (it will see its inbox at its next delivery anyway).
    pub fn unpark(&mut self, agent: &AgentName) -> bool {
        match self.parked.get(agent) {
            None => false,
            Some(Some(_)) => true,
            Some(None) => {
                let id = self.next_ticket;
                self.next_ticket += 1;
                self.waiting.insert(id, (agent.clone(), TurnKind::Deliver));
                self.parked.insert(agent.clone(), Some(id));
                self.try_grant();
                true
            }
        }
    }

    /// True when `agent` is parked with no turn queued.
    pub fn is_parked(&self, agent: &AgentName) -> bool {
        self.parked.get(agent).is_some_and(Option::is_none)
    }

    /// The agent is gone: release the baton it may hold and its turns.
    pub fn finish(&mut self, agent: &AgentName) {
        self.release(agent);
        self.parked.remove(agent);
        self.waiting.retain(|_, (who, _)| who != agent);
        self.try_grant();
    }

    /// The turn granted and not yet begun, taken by its agent to begin it.
    pub fn take_granted(&mut self) -> Option<Ticket> {
        self.granted.take()
    }

    /// True when a turn was granted and its agent has not begun it.
    pub fn has_granted(&self) -> bool {
        self.granted.is_some()
    }

    /// `Pick::Chosen`: the turns the baton may go to now (none while an
    /// agent holds it, or after a stop).
    pub fn choices(&self) -> Vec<Ticket> {
        if self.stopped || self.holder.is_some() {
            return Vec::new();
        }
        self.waiting.iter().map(|(id, (agent, kind))| Ticket { id: *id, agent: agent.clone(), kind: kind.clone() }).collect()
    }

    /// `choices`, borrowed: each turn the baton may go to now, as its
    /// ticket's number, agent and kind (the explorer asks at every state).
    pub fn open_turns(&self) -> impl Iterator<Item = (u64, &AgentName, &TurnKind)> + '_ {
        let open = !(self.stopped || self.holder.is_some());
        self.waiting.iter().filter(move |_| open).map(|(id, (agent, kind))| (*id, agent, kind))
    }

    /// `Pick::Chosen`: hands the baton to the waiting ticket `id`. False if
    /// the baton is taken or no such ticket waits.
    pub fn grant(&mut self, id: u64) -> bool {
        if self.stopped || self.holder.is_some() || !self.waiting.contains_key(&id) {
            return false;
        }
        self.give(id);
        true
    }

    /// Step mode: release exactly one waiting turn. Returns false when no
    /// turn is waiting or one is still running (nothing is saved for later).
    pub fn step(&mut self) -> bool {
        if self.holder.is_some() || self.waiting.is_empty() || self.stopped {
            return false;
        }
        let before = self.released;
        self.credits = 1;
        self.try_grant();
        self.credits = 0;
        self.released > before
    }

    /// Switches between Live and Step; going Live releases waiting turns.
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        self.credits = 0;
        self.try_grant();
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Nothing is granted afterwards.
    pub fn stop(&mut self) {
        self.stopped = true;
        self.granted = None;
    }

    /// True after `stop`.
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// True when nobody holds the baton and no turn is waiting.
    pub fn is_quiet(&self) -> bool {
        self.holder.is_none() && self.waiting.is_empty()
    }

    /// The turns waiting to be released, in ticket order.
    pub fn waiting(&self) -> Vec<(AgentName, TurnKind)> {
        self.waiting.values().cloned().collect()
    }

    /// Who holds the baton.
    pub fn holder(&self) -> Option<&AgentName> {
        self.holder.as_ref()
    }

    /// How many turns have been released so far.
    pub fn released(&self) -> u64 {
        self.released
    }

    /// Feeds what decides the future of turn order into `h` (the explorer's
    /// state hash, names as `canon` has them): ticket numbers are left out,
    /// and so is the order of different agents' waiting tickets — under
    /// `Pick::Chosen` (the explorer's) the caller grants any waiting ticket,
    /// so that order decides nothing but the order the choices are listed
    /// in, and two orders of independent turns (each agent asking again
    /// after its own) meet. One agent's own tickets keep their order (its
    /// first waiting ticket is the one its turn takes).
    pub fn hash_shape<H: std::hash::Hasher>(&self, canon: &crate::protocol::canon::Canon, h: &mut H) {
        use std::hash::Hash;
        let mut by_agent: BTreeMap<&AgentName, Vec<&TurnKind>> = BTreeMap::new();
        for (agent, kind) in self.waiting.values() {
            by_agent.entry(agent).or_default().push(kind);
        }
        canon.hash_unordered(
            by_agent.iter(),
            |(agent, kinds), h| {
                canon.hash_name(agent, h);
                kinds.hash(h);
            },
            h,
        );
        self.holder.as_ref().map(|a| canon.hash_name(a, h)).hash(h);
        canon.hash_unordered(
            self.parked.iter(),
            |(agent, ticket), h| {
                canon.hash_name(agent, h);
                ticket.is_some().hash(h);
            },
            h,
        );
        if let Some(t) = &self.granted {
            canon.hash_name(&t.agent, h);
            t.kind.hash(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// Three agents each take `turns` turns; returns who went, in order.
    fn run(seed: u64, turns: usize) -> Vec<String> {
        let mut t = Turns::new(Mode::Live, seed);
        let mut left: BTreeMap<String, usize> = BTreeMap::new();
        for who in ["a", "b", "c"] {
            t.enqueue(&name(who), TurnKind::ModelCall);
            left.insert(who.into(), turns);
        }
        let mut log = Vec::new();
        while let Some(ticket) = t.take_granted() {
            let who = ticket.agent.to_string();
            log.push(who.clone());
            let n = left.get_mut(&who).unwrap();
            *n -= 1;
            if *n > 0 {
                t.enqueue(&ticket.agent, TurnKind::ModelCall);
            } else {
                t.finish(&ticket.agent);
            }
        }
        assert!(t.is_quiet());
        log
    }

    #[test]
    fn live_mode_runs_every_turn_and_ends_quiet() {
        assert_eq!(run(1, 4).len(), 12);
    }

    #[test]
    fn same_seed_gives_the_same_interleaving() {
        let a = run(7, 5);
        assert_eq!(run(7, 5), a);
        assert!((8..20).any(|seed| run(seed, 5) != a), "other seeds interleave differently");
    }

    #[test]
    fn step_releases_exactly_one_turn() {
        let mut t = Turns::new(Mode::Step, 3);
        t.enqueue(&name("a"), TurnKind::ModelCall);
        t.enqueue(&name("b"), TurnKind::ModelCall);
        assert!(!t.has_granted(), "nothing runs before the first step");
        assert!(t.step());
        let first = t.take_granted().unwrap();
        assert!(!t.step(), "the baton is held");
        t.finish(&first.agent);
        assert!(!t.has_granted(), "finishing does not release another turn in Step mode");
        assert!(t.step());
        let second = t.take_granted().unwrap();
        assert_ne!(first.agent, second.agent);
        t.finish(&second.agent);
        assert!(!t.step(), "nothing left to release");
    }

    #[test]
    fn stop_grants_nothing_more() {
        let mut t = Turns::new(Mode::Step, 3);
        t.enqueue(&name("a"), TurnKind::ModelCall);
        t.stop();
        assert!(!t.step());
        assert!(t.choices().is_empty());
        assert!(t.is_stopped());
    }

    #[test]
    fn a_parked_agent_runs_again_only_when_unparked() {
        let mut t = Turns::new(Mode::Live, 0);
        t.park(&name("a"));
        assert!(t.is_parked(&name("a")));
        assert!(t.is_quiet());
        assert!(!t.has_granted());
        assert!(t.unpark(&name("a")));
        let g = t.take_granted().unwrap();
        assert_eq!((g.agent, g.kind), (name("a"), TurnKind::Deliver));
        assert!(!t.is_parked(&name("a")));
        assert!(!t.unpark(&name("b")), "b is not parked");
    }

    #[test]
    fn a_chosen_picker_grants_only_what_the_caller_chooses() {
        let mut t = Turns::with_pick(Mode::Live, Pick::Chosen);
        let a = t.enqueue(&name("a"), TurnKind::ModelCall);
        let b = t.enqueue(&name("b"), TurnKind::Deliver);
        assert!(!t.has_granted());
        assert_eq!(t.choices().iter().map(|c| c.id).collect::<Vec<_>>(), [a, b]);
        assert!(t.grant(b));
        assert!(t.choices().is_empty(), "the baton is taken");
        assert!(!t.grant(a));
        assert_eq!(t.take_granted().unwrap().agent, name("b"));
    }

    fn shape(t: &Turns) -> u64 {
        crate::protocol::canon::StableHasher::digest(|h| t.hash_shape(&crate::protocol::canon::Canon::default(), h))
    }

    #[test]
    fn waiting_tickets_of_different_agents_hash_alike_in_either_order() {
        let asked = |order: [&str; 2]| {
            let mut t = Turns::with_pick(Mode::Live, Pick::Chosen);
            for who in order {
                t.enqueue(&name(who), TurnKind::ModelCall);
            }
            t
        };
        assert_eq!(shape(&asked(["a", "b"])), shape(&asked(["b", "a"])));
        // What each waits for still counts.
        let mut other = Turns::with_pick(Mode::Live, Pick::Chosen);
        other.enqueue(&name("a"), TurnKind::ModelCall);
        other.enqueue(&name("b"), TurnKind::Deliver);
        assert_ne!(shape(&asked(["a", "b"])), shape(&other));
    }
}
