//! How long a Live run dwells on each event: the pure rule behind pacing.
//! A paced Live run shows its events one at a time (`World::set_paced`), and
//! the driver (`runtime::drive`) waits `pace_ms × weight(event)` after an
//! event is shown before it shows the next, so each event gets its own
//! caption for as long as it takes to read it. The protocol's moments (a
//! request created or answered, a protocol message, a teammate spawned or
//! shutting down) stay on screen several times longer than the machinery
//! around them (model calls, tool calls, inbox reads).
//!
//! At the page's base pace (`BASE_PACE_MS`, a unit at 1×) a protocol event
//! stays 2.24 s and a model or tool call 0.64 s; the scripted "Graceful
//! shutdown" run (30 events: 6 protocol, 22 routine, its start and end)
//! takes about 29 s at 1×. Speed divides the pace (`tests/pace_rules.rs`
//! measures every scenario).
//!
//! Owns the weights only: it must not sleep, read a clock or touch the
//! world (the driver does the waiting, the world holds the events).

use crate::protocol::{Event, MemberStatus};

/// The page's pace at 1×: real milliseconds a unit of weight lasts.
pub const BASE_PACE_MS: u64 = 320;

/// A protocol moment: a request created or moving (pending -> approved |
/// rejected), a protocol message sent (shutdown_request / _response,
/// plan_approval_request / _response), a teammate spawned or shut down.
pub const PROTOCOL: u32 = 7;

/// Worth a second look but not the protocol itself: a run's start and end,
/// a plain message or broadcast, a teammate going idle or back to work, a
/// model call that failed, a tool call refused, a fault on the bus.
pub const NOTABLE: u32 = 4;

/// The machinery: a model called or replying, a tool called or returning,
/// an inbox read.
pub const ROUTINE: u32 = 2;

/// How many pace units a Live run dwells on `event` once it is shown, before
/// it shows the next one: `PROTOCOL`, `NOTABLE` or `ROUTINE`.
pub fn weight(event: &Event) -> u32 {
    match event {
        Event::RequestCreated { .. } | Event::RequestTransitioned { .. } | Event::RequestExpired { .. } | Event::MemberSpawned { .. } => {
            PROTOCOL
        }
        Event::MessageSent { message } if message.msg_type.is_request() || message.msg_type.is_response() => PROTOCOL,
        Event::MemberStatusChanged { to: MemberStatus::Shutdown, .. } => PROTOCOL,
        Event::RunStarted { .. }
        | Event::RunFinished
        | Event::MessageSent { .. }
        | Event::MemberStatusChanged { .. }
        | Event::ModelFailed { .. }
        | Event::BudgetReached { .. }
        | Event::FaultApplied { .. }
        | Event::MessageReleased { .. } => NOTABLE,
        Event::ToolReturned { is_error: true, .. } => NOTABLE,
        Event::ModelCalled { .. }
        | Event::ModelReplied { .. }
        | Event::ToolCalled { .. }
        | Event::ToolReturned { .. }
        | Event::InboxDrained { .. } => ROUTINE,
    }
}

/// Real milliseconds to dwell on `event` at `pace_ms` a unit (0: none).
pub fn dwell_ms(pace_ms: u64, event: &Event) -> u64 {
    pace_ms.saturating_mul(u64::from(weight(event)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{AgentName, Message, MessageType, Millis, RequestId, RequestKind, RequestStatus};

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    fn sent(msg_type: MessageType) -> Event {
        let message = Message::new(msg_type, name("lead"), name("alice"), "text", Millis(0));
        Event::MessageSent { message }
    }

    #[test]
    fn protocol_events_dwell_several_times_longer_than_model_and_tool_calls() {
        const { assert!(PROTOCOL >= 3 * ROUTINE) };
        let id = RequestId::parse("4607cc28").unwrap();
        let protocol = [
            Event::RequestCreated {
                request_id: id.clone(),
                request_kind: RequestKind::SHUTDOWN,
                requester: name("lead"),
                addressee: name("alice"),
                plan: None,
                fields: Default::default(),
            },
            Event::RequestTransitioned {
                request_id: id,
                request_kind: RequestKind::SHUTDOWN,
                by: name("alice"),
                from: RequestStatus::Pending,
                to: RequestStatus::Approved,
            },
            Event::MemberSpawned { name: name("alice"), role: "coder".into(), plan_mode: false },
            Event::MemberStatusChanged { name: name("alice"), from: MemberStatus::Working, to: MemberStatus::Shutdown },
            sent(MessageType::SHUTDOWN_REQUEST),
            sent(MessageType::SHUTDOWN_RESPONSE),
            sent(MessageType::PLAN_APPROVAL_REQUEST),
            sent(MessageType::PLAN_APPROVAL_RESPONSE),
        ];
        for event in &protocol {
            assert_eq!(weight(event), PROTOCOL, "{event:?}");
        }
        let routine = [
            Event::ModelCalled { agent: name("alice") },
            Event::ModelReplied {
                agent: name("alice"),
                text: "ok".into(),
                stop_reason: "end_turn".into(),
                input_tokens: 1,
                output_tokens: 1,
                cache_read_tokens: 0,
                cache_write_tokens: 0,
                measured: false,
            },
            Event::ToolCalled { agent: name("alice"), tool_use_id: "t1".into(), tool: "read_inbox".into(), input: serde_json::json!({}) },
            Event::ToolReturned {
                agent: name("alice"),
                tool_use_id: "t1".into(),
                tool: "read_inbox".into(),
                output: "[]".into(),
                is_error: false,
            },
            Event::InboxDrained { agent: name("alice"), message_ids: Vec::new() },
        ];
        for event in &routine {
            assert_eq!(weight(event), ROUTINE, "{event:?}");
        }
    }

    #[test]
    fn a_plain_message_a_refusal_and_a_run_boundary_are_notable_not_protocol() {
        let notable = [
            sent(MessageType::Message),
            sent(MessageType::Broadcast),
            Event::RunStarted { prompt: "go".into() },
            Event::RunFinished,
            Event::MemberStatusChanged { name: name("alice"), from: MemberStatus::Working, to: MemberStatus::Idle },
            Event::ModelFailed { agent: name("alice"), error: "network".into() },
            Event::ToolReturned {
                agent: name("alice"),
                tool_use_id: "t1".into(),
                tool: "x".into(),
                output: "Error: no".into(),
                is_error: true,
            },
            Event::MessageReleased { held: 3 },
        ];
        for event in &notable {
            assert_eq!(weight(event), NOTABLE, "{event:?}");
        }
        const { assert!(ROUTINE < NOTABLE && NOTABLE < PROTOCOL) };
    }

    #[test]
    fn the_dwell_is_the_pace_times_the_weight_and_zero_pace_never_waits() {
        let spawned = Event::MemberSpawned { name: name("alice"), role: "coder".into(), plan_mode: false };
        assert_eq!(dwell_ms(320, &spawned), 320 * u64::from(PROTOCOL));
        assert_eq!(dwell_ms(80, &Event::ModelCalled { agent: name("lead") }), 80 * u64::from(ROUTINE));
        assert_eq!(dwell_ms(0, &spawned), 0);
        assert_eq!(dwell_ms(u64::MAX, &spawned), u64::MAX, "a huge pace saturates instead of wrapping");
    }
}
