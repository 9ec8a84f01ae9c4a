//! The team's gates, one mechanism for all: a protocol file's `[[gate]]`s
//! and the lesson's plan gate (`ProtocolSet::plan_gate`) are bits of one
//! state per agent (`ClosedGates`), closed at a spawn (the plan gate in plan
//! mode, a file teammate's `gates`), opened and closed by protocol effects
//! (`asks::settle_effects`). Owns that state, what a spawn closes, and the
//! questions the runtime, the hashing and `config.json` ask of it
//! (`plan_gate_closed`, `closed_gate_for_tool`, `plan_approved`). It must
//! not decide effects: `asks` does.

use super::{Team, TeamState};
use crate::protocol::file::model::GateIx;
use crate::protocol::AgentName;

/// One agent's closed gates, one bit per gate index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct GateBits([u64; 4]);

impl GateBits {
    pub(super) fn get(&self, g: GateIx) -> bool {
        self.0[usize::from(g.0 / 64)] & (1 << (g.0 % 64)) != 0
    }

    pub(super) fn set(&mut self, g: GateIx, closed: bool) {
        let word = &mut self.0[usize::from(g.0 / 64)];
        if closed {
            *word |= 1 << (g.0 % 64);
        } else {
            *word &= !(1 << (g.0 % 64));
        }
    }
}

/// The gates closed, per agent; an agent with none closed has no
/// entry, so equal states compare equal however they got there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClosedGates(imbl::OrdMap<AgentName, GateBits>);

impl ClosedGates {
    /// True when gate `g` is closed for `agent`.
    pub fn is_closed(&self, agent: &AgentName, g: GateIx) -> bool {
        self.0.get(agent).is_some_and(|b| b.get(g))
    }

    /// The first gate of `gates` that is closed for `agent`.
    pub fn closed_among(&self, agent: &AgentName, mut gates: impl Iterator<Item = GateIx>) -> Option<GateIx> {
        let bits = self.0.get(agent)?;
        gates.find(|g| bits.get(*g))
    }

    /// Opens or closes `g` for `agent`; returns the agent's gates before.
    pub(super) fn set(&mut self, agent: &AgentName, g: GateIx, closed: bool) -> Option<GateBits> {
        let before = self.0.get(agent).copied();
        let mut bits = before.unwrap_or_default();
        bits.set(g, closed);
        self.restore(agent, (bits != GateBits::default()).then_some(bits));
        before
    }

    /// Puts back `agent`'s gates as `set` returned them.
    pub(super) fn restore(&mut self, agent: &AgentName, bits: Option<GateBits>) {
        match bits {
            Some(bits) => {
                self.0.insert(agent.clone(), bits);
            }
            None => {
                self.0.remove(agent);
            }
        }
    }
}

impl TeamState {
    /// The gates closed for `name` at a spawn (or restart) with
    /// `plan_mode`: the lesson's plan gate in plan mode, and, for a
    /// teammate of the file's team, the gates its `gates` list names.
    pub(super) fn gates_at_spawn(&self, name: &AgentName, plan_mode: bool) -> GateBits {
        let mut bits = GateBits::default();
        if plan_mode {
            bits.set(self.protocols.plan_gate(), true);
        }
        let listed = self.protocols.file().into_iter().flat_map(|f| &f.team).flat_map(|t| &t.teammates);
        for g in listed.filter(|t| &t.name == name).flat_map(|t| &t.gates) {
            bits.set(*g, true);
        }
        bits
    }

    /// A teammate was spawned (or restarted) with `plan_mode`: exactly the
    /// gates `gates_at_spawn` names are closed, as at its first spawn.
    /// Returns its gates before, or `None` when nothing changed.
    pub(super) fn close_gates_at_spawn(&mut self, name: &AgentName, plan_mode: bool) -> Option<Option<GateBits>> {
        let bits = self.gates_at_spawn(name, plan_mode);
        let before = self.gates.0.get(name).copied();
        let after = (bits != GateBits::default()).then_some(bits);
        if before == after {
            return None;
        }
        self.gates.restore(name, after);
        Some(before)
    }
}

impl Team {
    /// True when file gate `g` is closed for `agent`.
    pub fn gate_closed(&self, agent: &AgentName, g: GateIx) -> bool {
        self.state.gates.is_closed(agent, g)
    }

    /// The roster as the lesson's `config.json`, a member whose plan was
    /// approved (`plan_approved`) written with `"plan_approved": true`.
    pub fn config_json(&self) -> String {
        self.state.roster.to_config_json(|name| self.plan_approved(name))
    }

    /// True when `name` was spawned with the lesson's plan gate closed
    /// (in plan mode, or a teammate of the file's team whose `gates` name
    /// it) and a plan of its current run opened it since: what a member's
    /// `plan_approved` said when the roster kept the gate.
    pub fn plan_approved(&self, name: &AgentName) -> bool {
        let Some(m) = self.state.roster.get(name) else { return false };
        let g = self.state.protocols.plan_gate();
        // The closed gate first: the cheaper test, and the one that
        // answers while a plan waits.
        !self.state.gates.is_closed(name, g) && self.state.gates_at_spawn(name, m.plan_mode).get(g)
    }

    /// The file gate, closed for `agent`, that closes `tool` (the first in
    /// file order), or `None` when `agent` may run it as far as file gates
    /// go (a plan-mode member's plan gate is `plan_gate_closes`'s first).
    pub fn closed_gate_for_tool(&self, agent: &AgentName, tool: &str) -> Option<GateIx> {
        let file = self.state.protocols.file()?;
        let gates = file
            .gates
            .iter()
            .enumerate()
            .filter(|(_, g)| g.tools.iter().any(|t| t == tool))
            .filter_map(|(i, _)| u8::try_from(i).ok().map(GateIx));
        self.state.gates.closed_among(agent, gates)
    }

    /// True when the lesson's plan gate is closed for `name` (closed at a
    /// spawn in plan mode, or by its file's `gates`; opened by an approved
    /// plan of its current run): workspace-changing tools stay refused.
    pub fn plan_gate_closed(&self, name: &AgentName) -> bool {
        self.state.gates.is_closed(name, self.state.protocols.plan_gate())
    }

    /// True when `name`, spawned in plan mode, has its plan gate closed and
    /// the gate closes `tool` (one of its `tools` in the built-in file):
    /// refused in the lesson's words (a gate its file closed is refused as
    /// any file gate is, `closed_gate_for_tool`).
    pub fn plan_gate_closes(&self, name: &AgentName, tool: &str) -> bool {
        self.state.roster.get(name).is_some_and(|m| m.plan_mode)
            && self.plan_gate_closed(name)
            && crate::protocol::protocols::lesson_plan_gate().is_some_and(|g| g.tools.iter().any(|t| t == tool))
    }
}
