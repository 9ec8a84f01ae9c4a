//! Faults on the way out of a command: the plan in force, a fault armed by
//! the explorer, and the messages held by delay and reorder faults until
//! they are released. Owns `Team::inject_faults`, which every command that
//! sends passes its events through; it must not decide what a command sends.

use super::{Team, TeamError};
use crate::protocol::bus::Held;
use crate::protocol::faults::{self, FaultAction, FaultPlan};
use crate::protocol::time::Millis;
use crate::protocol::trace::Event;
use crate::protocol::AgentName;

impl Team {
    /// Sets the fault plan applied to every message a command sends from now
    /// on. The plan is not recorded: its decisions are, as events.
    pub fn set_faults(&mut self, plan: FaultPlan) {
        self.faults = plan;
    }

    /// The fault plan in force.
    pub fn faults(&self) -> &FaultPlan {
        &self.faults
    }

    /// The next message a command sends gets `action` (a fault with no
    /// rule, ahead of the plan) until `disarm_fault`: how the explorer
    /// chooses faults instead of drawing them.
    pub fn arm_fault(&mut self, action: FaultAction) {
        self.armed = Some(action);
    }

    /// Clears a fault armed by `arm_fault`.
    pub fn disarm_fault(&mut self) {
        self.armed = None;
    }

    /// The messages held on the bus by delay and reorder faults.
    pub fn held(&self) -> &[Held] {
        self.state.bus.held()
    }

    /// Releases, in hold order, every delayed message due at or before
    /// `now` into its recipient's inbox. Returns how many were released.
    pub fn release_due(&mut self, now: Millis) -> Result<usize, TeamError> {
        let due: Vec<Event> = self
            .state
            .bus
            .held()
            .iter()
            .filter(|h| h.due.is_some_and(|d| d <= now))
            .map(|h| Event::MessageReleased { held: h.seq })
            .collect();
        self.commit_releases(now, due)
    }

    /// Releases every held message (delayed or reordered, due or not), in
    /// hold order. Used when the team would otherwise go quiet.
    pub fn release_all(&mut self, now: Millis) -> Result<usize, TeamError> {
        let all: Vec<Event> = self.state.bus.held().iter().map(|h| Event::MessageReleased { held: h.seq }).collect();
        self.commit_releases(now, all)
    }

    fn commit_releases(&mut self, now: Millis, events: Vec<Event>) -> Result<usize, TeamError> {
        let n = events.len();
        if n > 0 {
            self.commit(now, events)?;
        }
        Ok(n)
    }

    /// Passes the `MessageSent` events of a command through the fault plan:
    /// each may be dropped, duplicated, delayed or reordered, and a delivery
    /// releases the messages reordered by earlier commands for the same
    /// recipient, right after it. Other
    /// events pass unchanged. With an empty plan and nothing held for
    /// reordering this is the identity.
    pub(super) fn inject_faults(&self, events: Vec<Event>) -> Vec<Event> {
        let mut reordered: Vec<(u64, AgentName)> =
            self.state.bus.held().iter().filter(|h| h.due.is_none()).map(|h| (h.seq, h.message.to.clone())).collect();
        if self.faults.is_empty() && reordered.is_empty() && self.armed.is_none() {
            return events;
        }
        let mut armed = self.armed.clone();
        let first = self.trace.next_seq();
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            let Event::MessageSent { message } = event else {
                out.push(event);
                continue;
            };
            let seq = first + out.len() as u64;
            let decision = match armed.take() {
                Some(action) => Some((None, action)),
                None => self.faults.decide(&message, faults::draw(self.trace.seed, seq)).map(|(rule, action)| (Some(rule), action)),
            };
            match decision {
                Some((rule, FaultAction::Drop)) => {
                    out.push(Event::FaultApplied { action: FaultAction::Drop, message, rule });
                    continue;
                }
                Some((rule, action @ (FaultAction::Delay { .. } | FaultAction::Reorder))) => {
                    // A message held here waits for a later command's
                    // delivery to its recipient.
                    out.push(Event::FaultApplied { action, message, rule });
                    continue;
                }
                Some((rule, FaultAction::Duplicate)) => {
                    out.push(Event::MessageSent { message: message.clone() });
                    out.push(Event::FaultApplied { action: FaultAction::Duplicate, message: message.clone(), rule });
                    out.push(Event::MessageSent { message: message.clone() });
                }
                None => out.push(Event::MessageSent { message: message.clone() }),
            }
            let (release, keep): (Vec<_>, Vec<_>) = reordered.into_iter().partition(|(_, to)| *to == message.to);
            reordered = keep;
            out.extend(release.into_iter().map(|(held, _)| Event::MessageReleased { held }));
        }
        out
    }
}
