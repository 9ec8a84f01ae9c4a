//! Small traces the unit tests of several modules share (compiled for
//! tests only).

use super::{AgentName, MemberStatus, Millis, RequestKind, Team, Trace};

/// A run where alice is spawned, messaged, asked to shut down, approves and
/// exits; the message holds characters every format must escape.
pub(crate) fn handshake() -> Trace {
    let name = |s: &str| AgentName::parse(s).expect("a valid name");
    let mut t = Team::new("default", 7);
    t.start_run("Spawn alice; then shut her down.", Millis(0)).expect("fresh team");
    t.spawn(&name("alice"), "coder", false, Millis(1)).expect("fresh name");
    t.send(&AgentName::lead(), &name("alice"), "message", "hi; #1 <b>&</b>\n100%", Millis(2)).expect("alice is there");
    let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(3)).expect("alice is working");
    t.drain(&name("alice"), Millis(4)).expect("alice has an inbox");
    t.answer(RequestKind::Shutdown, &id, &name("alice"), true, "done", Millis(5)).expect("alice is the addressee");
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(6)).expect("alice may exit");
    t.finish_run(Millis(7)).expect("time moves on");
    t.trace().clone()
}
