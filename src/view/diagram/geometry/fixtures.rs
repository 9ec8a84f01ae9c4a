//! Runs to draw, for the tests of both renderers (`geometry` and
//! `export::svg`).

use crate::protocol::{AgentName, FaultAction, FaultPlan, FaultRule, MemberStatus, Millis, RequestKind, Team, Trace};

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

/// alice is asked to shut down; her approval is dropped on the bus, so
/// the request is left pending when the run finishes (a violation); a
/// tool runs and a model call fails on the way.
pub(crate) fn faulty_run() -> Trace {
    let mut t = Team::new("d", 1);
    t.start_run("Shut alice down", Millis(0)).unwrap();
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.drain(&name("alice"), Millis(2)).unwrap();
    t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]));
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "ok", Millis(3)).unwrap();
    t.set_faults(FaultPlan::default());
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
    t.finish_run(Millis(5)).unwrap();
    t.trace().clone()
}
