//! The run's budget on the world (`runtime::budget` measures; this decides
//! when): set before a run, asked before each model call, the call that
//! would pass it not made and the run stopped with a `BudgetReached`.
//! Owns those two entry points only; the meter's arithmetic is
//! `runtime::budget`'s, and the replies it counts are recorded by
//! `World::model_returned`. It must not call a model or read a clock.

use super::World;
use crate::protocol::AgentName;
use crate::runtime::budget::{Budget, Meter, Rates};

impl World {
    /// Caps the run (`runtime::budget`): before each model call, a call
    /// that would pass the budget is not made, a `BudgetReached` is
    /// recorded and the run stops as `stop` does. `rates` price a dollar
    /// budget (none: a dollar budget stops before the first call). Counts
    /// from the replies recorded after this call.
    pub fn set_budget(&mut self, budget: Option<Budget>, rates: Option<Rates>) {
        self.meter = budget.map(|b| Box::new(Meter::new(b, rates)));
    }

    /// Before `agent`'s model call: true when the budget lets it go, at the
    /// most the call may spend (`NextCall`: its request's size and
    /// `max_tokens`); otherwise records why not and stops the run. Without
    /// a budget nothing is measured.
    pub(crate) fn budget_allows(&mut self, agent: &AgentName) -> bool {
        let Some(meter) = self.meter.as_ref() else { return true };
        let Some(a) = self.agents.get(agent) else { return true };
        let next = meter.next_call(a.request_chars(), a.max_tokens);
        let Some(event) = meter.decide(&next).event(agent) else { return true };
        self.observe(event);
        self.stop();
        false
    }
}
