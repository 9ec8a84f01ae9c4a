//! The scheduler: one baton, passed between agent tasks. An agent asks for a
//! turn before each event (an inbox delivery, a model call, a tool run) and
//! holds the baton until it asks for its next turn, parks (idle) or finishes.
//! Which waiting turn goes next is drawn from a seeded generator, so a run is
//! repeatable; in Step mode a turn is released only by `step()`.
//!
//! Owns turn order, parking, step credits and stop. It must not touch the
//! team, the model or the trace: the runtime does that around each turn.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use serde::{Deserialize, Serialize};

use crate::protocol::ids::SeededIds;
use crate::protocol::AgentName;

/// How turns are released.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// As fast as the agents go.
    Live,
    /// One turn per `step()`.
    Step,
}

/// What an agent will do with its turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

/// The run was stopped; the task must end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the run was stopped")]
pub struct Stopped;

struct Ticket {
    agent: AgentName,
    kind: TurnKind,
    granted: bool,
    waker: Option<Waker>,
}

struct Parked {
    ticket: Option<u64>,
    waker: Option<Waker>,
}

struct State {
    mode: Mode,
    rng: SeededIds,
    next_ticket: u64,
    tickets: BTreeMap<u64, Ticket>,
    holder: Option<AgentName>,
    parked: BTreeMap<AgentName, Parked>,
    credits: u64,
    stopped: bool,
    released: u64,
}

impl State {
    fn release(&mut self, agent: &AgentName) {
        if self.holder.as_ref() == Some(agent) {
            self.holder = None;
        }
    }

    fn waiting(&self) -> impl Iterator<Item = (&u64, &Ticket)> {
        self.tickets.iter().filter(|(_, t)| !t.granted)
    }

    fn try_grant(&mut self) {
        if self.stopped || self.holder.is_some() {
            return;
        }
        let count = self.waiting().count();
        if count == 0 {
            return;
        }
        if self.mode == Mode::Step {
            if self.credits == 0 {
                return;
            }
            self.credits -= 1;
        }
        let pick = (self.rng.next_u64() % count as u64) as usize;
        let Some(id) = self.waiting().nth(pick).map(|(id, _)| *id) else { return };
        let Some(ticket) = self.tickets.get_mut(&id) else { return };
        ticket.granted = true;
        self.holder = Some(ticket.agent.clone());
        self.released += 1;
        if let Some(w) = ticket.waker.take() {
            w.wake();
        }
        // A parked agent whose ticket was granted must be polled too.
        if let Some(p) = self.parked.get_mut(&ticket.agent) {
            if let Some(w) = p.waker.take() {
                w.wake();
            }
        }
    }

    fn wake_all(&mut self) {
        for t in self.tickets.values_mut() {
            if let Some(w) = t.waker.take() {
                w.wake();
            }
        }
        for p in self.parked.values_mut() {
            if let Some(w) = p.waker.take() {
                w.wake();
            }
        }
    }
}

/// Shared by every agent task of one run.
#[derive(Clone)]
pub struct Scheduler {
    state: Rc<RefCell<State>>,
}

impl Scheduler {
    /// A scheduler in `mode`, drawing turn order from `seed`.
    pub fn new(mode: Mode, seed: u64) -> Self {
        Scheduler {
            state: Rc::new(RefCell::new(State {
                mode,
                rng: SeededIds::new(seed ^ 0x005E_ED0F_7A5C),
                next_ticket: 0,
                tickets: BTreeMap::new(),
                holder: None,
                parked: BTreeMap::new(),
                credits: 0,
                stopped: false,
                released: 0,
            })),
        }
    }

    /// Queues a turn for `agent` now (releasing the baton if it held it), and
    /// returns the ticket to wait on.
    pub fn enqueue(&self, agent: &AgentName, kind: TurnKind) -> u64 {
        let mut s = self.state.borrow_mut();
        s.release(agent);
        let id = s.next_ticket;
        s.next_ticket += 1;
        s.tickets.insert(id, Ticket { agent: agent.clone(), kind, granted: false, waker: None });
        s.try_grant();
        id
    }

    /// Waits until `ticket` is granted; the agent then holds the baton.
    pub fn wait(&self, ticket: u64) -> impl Future<Output = Result<(), Stopped>> {
        TicketWait { state: self.state.clone(), ticket }
    }

    /// Queues a turn and waits for it.
    pub async fn turn(&self, agent: &AgentName, kind: TurnKind) -> Result<(), Stopped> {
        let ticket = self.enqueue(agent, kind);
        self.wait(ticket).await
    }

    /// Releases the baton and sleeps until `unpark` gives the agent a
    /// delivery turn and that turn is granted.
    pub fn park(&self, agent: &AgentName) -> impl Future<Output = Result<(), Stopped>> {
        {
            let mut s = self.state.borrow_mut();
            s.release(agent);
            s.parked.insert(agent.clone(), Parked { ticket: None, waker: None });
            s.try_grant();
        }
        ParkWait { state: self.state.clone(), agent: agent.clone() }
    }

    /// Gives a parked agent a delivery turn. Returns false if it was not
    /// parked (it will see its inbox at its next delivery anyway).
    pub fn unpark(&self, agent: &AgentName) -> bool {
        let mut s = self.state.borrow_mut();
        let Some(p) = s.parked.get(agent) else { return false };
        if p.ticket.is_some() {
            return true;
        }
        let id = s.next_ticket;
        s.next_ticket += 1;
        s.tickets.insert(id, Ticket { agent: agent.clone(), kind: TurnKind::Deliver, granted: false, waker: None });
        if let Some(p) = s.parked.get_mut(agent) {
            p.ticket = Some(id);
            if let Some(w) = p.waker.take() {
                w.wake();
            }
        }
        s.try_grant();
        true
    }

    /// True when `agent` is parked with no turn queued.
    pub fn is_parked(&self, agent: &AgentName) -> bool {
        self.state.borrow().parked.get(agent).is_some_and(|p| p.ticket.is_none())
    }

    /// The agent's task ended: release the baton it may hold.
    pub fn finish(&self, agent: &AgentName) {
        let mut s = self.state.borrow_mut();
        s.release(agent);
        s.parked.remove(agent);
        s.try_grant();
    }

    /// Step mode: release exactly one waiting turn. Returns false when no
    /// turn is waiting or one is still running (nothing is saved for later).
    pub fn step(&self) -> bool {
        let mut s = self.state.borrow_mut();
        if s.holder.is_some() || s.waiting().next().is_none() || s.stopped {
            return false;
        }
        let before = s.released;
        s.credits = 1;
        s.try_grant();
        s.credits = 0;
        s.released > before
    }

    /// Switches between Live and Step; going Live releases waiting turns.
    pub fn set_mode(&self, mode: Mode) {
        let mut s = self.state.borrow_mut();
        s.mode = mode;
        s.credits = 0;
        s.try_grant();
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.state.borrow().mode
    }

    /// Ends every wait with `Stopped`; nothing is granted afterwards.
    pub fn stop(&self) {
        let mut s = self.state.borrow_mut();
        s.stopped = true;
        s.wake_all();
    }

    /// True after `stop`.
    pub fn is_stopped(&self) -> bool {
        self.state.borrow().stopped
    }

    /// True when nobody holds the baton and no turn is waiting.
    pub fn is_quiet(&self) -> bool {
        let s = self.state.borrow();
        s.holder.is_none() && s.waiting().next().is_none()
    }

    /// The turns waiting to be released, in ticket order.
    pub fn waiting(&self) -> Vec<(AgentName, TurnKind)> {
        self.state.borrow().waiting().map(|(_, t)| (t.agent.clone(), t.kind.clone())).collect()
    }

    /// Who holds the baton.
    pub fn holder(&self) -> Option<AgentName> {
        self.state.borrow().holder.clone()
    }

    /// How many turns have been released so far.
    pub fn released(&self) -> u64 {
        self.state.borrow().released
    }
}

struct TicketWait {
    state: Rc<RefCell<State>>,
    ticket: u64,
}

impl Future for TicketWait {
    type Output = Result<(), Stopped>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        poll_ticket(&mut self.state.borrow_mut(), self.ticket, cx)
    }
}

fn poll_ticket(s: &mut State, ticket: u64, cx: &mut Context<'_>) -> Poll<Result<(), Stopped>> {
    if s.stopped {
        if let Some(t) = s.tickets.remove(&ticket) {
            s.release(&t.agent);
        }
        return Poll::Ready(Err(Stopped));
    }
    // A ticket is polled until granted and then forgotten; polling one that
    // is gone ends the wait as a stop would, rather than panicking.
    let Some(t) = s.tickets.get_mut(&ticket) else { return Poll::Ready(Err(Stopped)) };
    if t.granted {
        s.tickets.remove(&ticket);
        Poll::Ready(Ok(()))
    } else {
        t.waker = Some(cx.waker().clone());
        Poll::Pending
    }
}

struct ParkWait {
    state: Rc<RefCell<State>>,
    agent: AgentName,
}

impl Future for ParkWait {
    type Output = Result<(), Stopped>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut s = self.state.borrow_mut();
        if s.stopped {
            s.parked.remove(&self.agent);
            return Poll::Ready(Err(Stopped));
        }
        let Some(p) = s.parked.get_mut(&self.agent) else { return Poll::Ready(Err(Stopped)) };
        match p.ticket {
            None => {
                p.waker = Some(cx.waker().clone());
                Poll::Pending
            }
            Some(ticket) => {
                p.waker = Some(cx.waker().clone());
                let out = poll_ticket(&mut s, ticket, cx);
                if out.is_ready() {
                    s.parked.remove(&self.agent);
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::executor::{LocalExecutor, Spawner};
    use std::cell::RefCell;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// Three agents each take `turns` turns, logging their name per turn.
    fn run(mode: Mode, seed: u64, turns: usize) -> (LocalExecutor, Scheduler, Rc<RefCell<Vec<String>>>) {
        let ex = LocalExecutor::new();
        let sched = Scheduler::new(mode, seed);
        let log = Rc::new(RefCell::new(Vec::new()));
        for who in ["a", "b", "c"] {
            let (sched, log) = (sched.clone(), log.clone());
            let first = sched.enqueue(&name(who), TurnKind::ModelCall);
            ex.spawn(Box::pin(async move {
                if sched.wait(first).await.is_err() {
                    return;
                }
                for i in 0..turns {
                    log.borrow_mut().push(who.to_string());
                    if i + 1 < turns && sched.turn(&name(who), TurnKind::ModelCall).await.is_err() {
                        return;
                    }
                }
                sched.finish(&name(who));
            }));
        }
        ex.run_until_stalled();
        (ex, sched, log)
    }

    #[test]
    fn live_mode_runs_every_turn_and_ends_quiet() {
        let (ex, sched, log) = run(Mode::Live, 1, 4);
        assert_eq!(log.borrow().len(), 12);
        assert!(sched.is_quiet());
        assert_eq!(ex.live_tasks(), 0);
    }

    #[test]
    fn same_seed_gives_the_same_interleaving() {
        let a = run(Mode::Live, 7, 5).2.borrow().clone();
        let b = run(Mode::Live, 7, 5).2.borrow().clone();
        assert_eq!(a, b);
        let differs = (8..20).any(|seed| run(Mode::Live, seed, 5).2.borrow().clone() != a);
        assert!(differs, "other seeds interleave differently");
    }

    #[test]
    fn step_releases_exactly_one_turn() {
        let (ex, sched, log) = run(Mode::Step, 3, 2);
        assert!(log.borrow().is_empty(), "nothing runs before the first step");
        for expected in 1..=6 {
            assert!(sched.step());
            ex.run_until_stalled();
            assert_eq!(log.borrow().len(), expected);
        }
        assert!(!sched.step(), "nothing left to release");
        assert_eq!(ex.live_tasks(), 0);
    }

    #[test]
    fn stop_ends_every_waiting_task() {
        let (ex, sched, _log) = run(Mode::Step, 3, 5);
        sched.step();
        ex.run_until_stalled();
        sched.stop();
        ex.run_until_stalled();
        assert_eq!(ex.live_tasks(), 0);
        assert!(!sched.step());
    }

    #[test]
    fn a_parked_agent_runs_again_only_when_unparked() {
        let ex = LocalExecutor::new();
        let sched = Scheduler::new(Mode::Live, 0);
        let woke = Rc::new(RefCell::new(0));
        let (s2, w2) = (sched.clone(), woke.clone());
        ex.spawn(Box::pin(async move {
            while s2.park(&name("a")).await.is_ok() {
                *w2.borrow_mut() += 1;
            }
        }));
        ex.run_until_stalled();
        assert!(sched.is_parked(&name("a")));
        assert!(sched.is_quiet());
        assert!(sched.unpark(&name("a")));
        ex.run_until_stalled();
        assert_eq!(*woke.borrow(), 1);
        assert!(!sched.unpark(&name("b")), "b is not parked");
        sched.stop();
        ex.run_until_stalled();
        assert_eq!(ex.live_tasks(), 0);
    }
}
