//! Synthetic traces for the browser benchmark: a busy team of `agents`
//! exchanging messages and requests, with model calls and tool runs, built
//! through `Team` so every trace is valid and replays.
//!
//! Owns nothing but the generator; deterministic for a seed.

use crate::protocol::ids::SeededIds;
use crate::protocol::{AgentName, Event, MemberStatus, Millis, RequestKind, Team, Trace};

/// A valid trace of at least `events` events (it may overshoot by a few),
/// spread over `agents` teammates.
pub fn busy_trace(events: usize, agents: usize, seed: u64) -> Trace {
    let mut rng = SeededIds::new(seed);
    let mut team = Team::new("bench", seed);
    let lead = AgentName::lead();
    let names: Vec<AgentName> = (0..agents.max(1)).map(|i| AgentName::parse(&format!("agent-{i:02}")).expect("valid")).collect();
    let mut now = 0;
    for n in &names {
        team.spawn(n, "worker", false, Millis(now)).expect("fresh names");
    }
    let mut pending = Vec::new();
    while team.trace().len() < events {
        now += 1 + rng.next_u64() % 40;
        let at = Millis(now);
        let who = &names[(rng.next_u64() % names.len() as u64) as usize];
        match rng.next_u64() % 6 {
            0 => {
                let _ = team.send(&lead, who, "message", "status?", at);
            }
            1 => {
                if let Ok(id) = team.request_shutdown(&lead, who, at) {
                    pending.push((id, who.clone()));
                }
            }
            2 => {
                if let Some((id, by)) = pending.pop() {
                    let approve = rng.next_u64().is_multiple_of(3);
                    let answered = team.answer(RequestKind::SHUTDOWN, &id, &by, approve, "", at);
                    if approve && answered.is_ok() {
                        // It keeps its promise and leaves; the team spawns
                        // it again, so the busy team keeps its size.
                        let _ = team.set_status(&by, MemberStatus::Shutdown, at);
                        let _ = team.spawn(&by, "worker", false, at);
                    }
                }
            }
            3 => {
                let _ = team.drain(who, at);
            }
            4 => {
                let _ = team.observe(Event::ModelCalled { agent: who.clone() }, at);
                let reply = Event::ModelReplied {
                    agent: who.clone(),
                    text: "working".into(),
                    stop_reason: "tool_use".into(),
                    input_tokens: 900,
                    output_tokens: 40,
                    cache_read_tokens: 0,
                    cache_write_tokens: 0,
                    measured: false,
                };
                let _ = team.observe(reply, Millis(now + 1));
                now += 1;
            }
            _ => {
                let id = format!("toolu_{now}");
                let input = serde_json::json!({ "path": format!("notes/{who}.md"), "content": "x" });
                let called = Event::ToolCalled { agent: who.clone(), tool_use_id: id.clone(), tool: "write_file".into(), input };
                let _ = team.observe(called, at);
                let done = Event::ToolReturned {
                    agent: who.clone(),
                    tool_use_id: id,
                    tool: "write_file".into(),
                    output: "Wrote 1 bytes".into(),
                    is_error: false,
                };
                let _ = team.observe(done, at);
            }
        }
    }
    team.trace().clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::check;

    #[test]
    fn a_synthetic_trace_is_valid_and_as_long_as_asked() {
        let t = busy_trace(2000, 6, 1);
        assert!(t.len() >= 2000 && t.len() < 2010);
        assert!(Team::replay(&t).is_ok());
        let answered_twice = check(&t).iter().any(|v| v.kind != crate::protocol::ViolationKind::LeftPending);
        assert!(!answered_twice);
        assert_eq!(busy_trace(500, 3, 9), busy_trace(500, 3, 9));
    }
}
