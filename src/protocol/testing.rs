//! Builders the tests share: small traces for the unit tests of several
//! modules (compiled for tests only), and a team under a protocol file's
//! text, which the unit tests and the integration tests
//! (`tests/file_protocol_engine.rs`) both build with.
//!
//! Owns test plumbing only; it must not be used by the app's own code.

use std::sync::Arc;

use super::{AgentName, Millis, Team};
#[cfg(test)]
use super::{MemberStatus, RequestKind, Trace};

/// A team (`"t"`, `seed`) under the protocol file `text` with `teammates`
/// spawned as coders at time 0. Panics saying why when the file is refused.
pub fn team_under(text: &str, seed: u64, teammates: &[&str]) -> Team {
    let file = super::file::load(text).unwrap_or_else(|e| panic!("refused:\n{}", e.render("test")));
    let mut t = Team::with_protocols("t", seed, Arc::new(file));
    for who in teammates {
        let who = AgentName::parse(who).expect("a valid name");
        t.spawn(&who, "coder", false, Millis(0)).expect("a fresh name");
    }
    t
}

/// A run where alice is spawned, messaged, asked to shut down, approves and
/// exits; the message holds characters every format must escape.
#[cfg(test)]
pub(crate) fn handshake() -> Trace {
    let name = |s: &str| AgentName::parse(s).expect("a valid name");
    let mut t = Team::new("default", 7);
    t.start_run("Spawn alice; then shut her down.", Millis(0)).expect("fresh team");
    t.spawn(&name("alice"), "coder", false, Millis(1)).expect("fresh name");
    t.send(&AgentName::lead(), &name("alice"), "message", "hi; #1 <b>&</b>\n100%", Millis(2)).expect("alice is there");
    let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(3)).expect("alice is working");
    t.drain(&name("alice"), Millis(4)).expect("alice has an inbox");
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "done", Millis(5)).expect("alice is the addressee");
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(6)).expect("alice may exit");
    t.finish_run(Millis(7)).expect("time moves on");
    t.trace().clone()
}
