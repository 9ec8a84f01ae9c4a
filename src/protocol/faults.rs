//! Fault injection on the bus: rules that drop, delay, duplicate or reorder
//! messages, chosen by message type, sender, recipient and probability.
//!
//! Owns the rule vocabulary and the decision for one message given one
//! random draw. The draw is a pure function of the trace seed and the
//! sequence number the message would get (`draw`), so a faulty run replays
//! identically and no hidden RNG state exists. It must not touch the bus or
//! the trace: `team` turns decisions into `FaultApplied` / `MessageReleased`
//! events, and replay needs only those events, never the plan.

use serde::{Deserialize, Serialize};

use super::ids::SeededIds;
use super::message::{Message, MessageType};
use super::AgentName;

/// The longest delay a rule may ask for, in milliseconds (ten minutes).
pub const MAX_DELAY_MS: u64 = 600_000;

/// Errors from validating a fault rule.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FaultError {
    /// The probability is not a number between 0 and 1.
    #[error("fault probability must be a number between 0 and 1, not {0}")]
    BadProbability(f64),
    /// The delay is longer than `MAX_DELAY_MS`.
    #[error("a delay of {0} ms is too long; the most is {MAX_DELAY_MS} ms")]
    DelayTooLong(u64),
}

/// What a fault does to a message.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FaultAction {
    /// The message never reaches an inbox.
    Drop,
    /// The message is held on the bus for `ms` milliseconds.
    Delay {
        /// How long it is held.
        ms: u64,
    },
    /// The message is delivered twice.
    Duplicate,
    /// The message is held until the next message to the same recipient has
    /// been delivered.
    Reorder,
}

impl FaultAction {
    /// A short lowercase name (`drop`, `delay`, `duplicate`, `reorder`).
    pub fn name(&self) -> &'static str {
        match self {
            FaultAction::Drop => "drop",
            FaultAction::Delay { .. } => "delay",
            FaultAction::Duplicate => "duplicate",
            FaultAction::Reorder => "reorder",
        }
    }

    /// True for the actions that hold a message on the bus until released.
    pub fn holds(&self) -> bool {
        matches!(self, FaultAction::Delay { .. } | FaultAction::Reorder)
    }
}

/// One rule: an action, the messages it applies to, and how often.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FaultRule {
    /// What happens to a matching message.
    pub action: FaultAction,
    /// Only messages of this type (any type when `None`).
    pub msg_type: Option<MessageType>,
    /// Only messages from this agent (anyone when `None`).
    pub from: Option<AgentName>,
    /// Only messages to this agent (anyone when `None`).
    pub to: Option<AgentName>,
    /// The chance, from 0 to 1, that a matching message is hit.
    pub probability: f64,
}

impl FaultRule {
    /// A rule that hits every message, always.
    pub fn new(action: FaultAction) -> Self {
        FaultRule { action, msg_type: None, from: None, to: None, probability: 1.0 }
    }

    /// Checks the probability (finite, within 0..=1) and the delay length.
    pub fn validate(&self) -> Result<(), FaultError> {
        if !self.probability.is_finite() || !(0.0..=1.0).contains(&self.probability) {
            return Err(FaultError::BadProbability(self.probability));
        }
        if let FaultAction::Delay { ms } = self.action {
            if ms > MAX_DELAY_MS {
                return Err(FaultError::DelayTooLong(ms));
            }
        }
        Ok(())
    }

    /// True when the rule's filters select `message` (probability aside).
    pub fn matches(&self, message: &Message) -> bool {
        self.msg_type.is_none_or(|t| t == message.msg_type)
            && self.from.as_ref().is_none_or(|f| *f == message.from)
            && self.to.as_ref().is_none_or(|t| *t == message.to)
    }
}

/// The fault rules of a run, tried in order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FaultPlan {
    /// The rules; the first that matches and fires wins.
    pub rules: Vec<FaultRule>,
}

impl FaultPlan {
    /// A plan with these rules.
    pub fn new(rules: Vec<FaultRule>) -> Self {
        FaultPlan { rules }
    }

    /// True when the plan has no rules (no message is ever touched).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Validates every rule.
    pub fn validate(&self) -> Result<(), FaultError> {
        self.rules.iter().try_for_each(FaultRule::validate)
    }

    /// The fault for `message` given the random `draw`: the first rule whose
    /// filters match and whose probability passes
    /// (`draw / u64::MAX < probability`; a probability of 1 always passes,
    /// even for the draws that round to 1.0), with its number counted from 1,
    /// or `None`.
    pub fn decide(&self, message: &Message, draw: u64) -> Option<(usize, FaultAction)> {
        let roll = draw as f64 / u64::MAX as f64;
        self.rules
            .iter()
            .enumerate()
            .find(|(_, r)| r.matches(message) && (roll < r.probability || r.probability >= 1.0))
            .map(|(i, r)| (i + 1, r.action.clone()))
    }
}

/// The random draw for the message that would get sequence number `seq` in
/// a trace with `seed`: a pure function of the two, so reruns agree.
pub fn draw(seed: u64, seq: u64) -> u64 {
    SeededIds::new(seed.rotate_left(29) ^ seq.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ 0xFA17).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::time::Millis;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    fn msg(t: MessageType, from: &str, to: &str) -> Message {
        Message::new(t, name(from), name(to), "hi", Millis(0))
    }

    #[test]
    fn a_new_rule_hits_every_message() {
        let plan = FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]);
        for d in [0, 1, u64::MAX / 2, u64::MAX - 1, u64::MAX] {
            assert_eq!(plan.decide(&msg(MessageType::Message, "lead", "alice"), d), Some((1, FaultAction::Drop)));
        }
    }

    #[test]
    fn filters_select_by_type_sender_and_recipient() {
        let rule = FaultRule {
            msg_type: Some(MessageType::SHUTDOWN_RESPONSE),
            from: Some(name("alice")),
            to: Some(name("lead")),
            ..FaultRule::new(FaultAction::Duplicate)
        };
        let plan = FaultPlan::new(vec![rule]);
        let hit = Message { request_id: None, ..msg(MessageType::SHUTDOWN_RESPONSE, "alice", "lead") };
        assert_eq!(plan.decide(&hit, 0), Some((1, FaultAction::Duplicate)));
        assert_eq!(plan.decide(&msg(MessageType::Message, "alice", "lead"), 0), None);
        assert_eq!(plan.decide(&msg(MessageType::SHUTDOWN_RESPONSE, "bob", "lead"), 0), None);
        assert_eq!(plan.decide(&msg(MessageType::SHUTDOWN_RESPONSE, "alice", "bob"), 0), None);
    }

    #[test]
    fn the_first_matching_rule_that_fires_wins() {
        let never = FaultRule { probability: 0.0, ..FaultRule::new(FaultAction::Drop) };
        let half = FaultRule { probability: 0.5, ..FaultRule::new(FaultAction::Reorder) };
        let always = FaultRule::new(FaultAction::Delay { ms: 10 });
        let plan = FaultPlan::new(vec![never, half, always]);
        let m = msg(MessageType::Message, "lead", "alice");
        assert_eq!(plan.decide(&m, 0), Some((2, FaultAction::Reorder)), "rules are numbered from 1");
        assert_eq!(plan.decide(&m, u64::MAX / 4 * 3), Some((3, FaultAction::Delay { ms: 10 })));
        assert_eq!(FaultPlan::default().decide(&m, 0), None);
    }

    #[test]
    fn probability_must_be_finite_and_within_zero_and_one() {
        for p in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            let rule = FaultRule { probability: p, ..FaultRule::new(FaultAction::Drop) };
            assert!(matches!(rule.validate(), Err(FaultError::BadProbability(_))), "{p}");
        }
        for p in [0.0, 0.3, 1.0] {
            assert_eq!(FaultRule { probability: p, ..FaultRule::new(FaultAction::Drop) }.validate(), Ok(()));
        }
        let err = FaultRule { probability: 2.0, ..FaultRule::new(FaultAction::Drop) }.validate().unwrap_err();
        assert_eq!(err.to_string(), "fault probability must be a number between 0 and 1, not 2");
    }

    #[test]
    fn delays_are_at_most_ten_minutes() {
        assert_eq!(FaultRule::new(FaultAction::Delay { ms: MAX_DELAY_MS }).validate(), Ok(()));
        assert_eq!(FaultRule::new(FaultAction::Delay { ms: MAX_DELAY_MS + 1 }).validate(), Err(FaultError::DelayTooLong(600_001)));
        let plan = FaultPlan::new(vec![FaultRule::new(FaultAction::Drop), FaultRule::new(FaultAction::Delay { ms: 700_000 })]);
        assert!(plan.validate().is_err());
    }

    #[test]
    fn the_draw_is_a_pure_function_of_seed_and_seq() {
        assert_eq!(draw(7, 3), draw(7, 3));
        assert_ne!(draw(7, 3), draw(7, 4));
        assert_ne!(draw(7, 3), draw(8, 3));
    }

    #[test]
    fn actions_serialise_with_a_kind_tag() {
        assert_eq!(serde_json::to_string(&FaultAction::Delay { ms: 5 }).unwrap(), r#"{"kind":"delay","ms":5}"#);
        assert_eq!(serde_json::to_string(&FaultAction::Drop).unwrap(), r#"{"kind":"drop"}"#);
        let plan = FaultPlan::new(vec![FaultRule::new(FaultAction::Reorder)]);
        let back: FaultPlan = serde_json::from_str(&serde_json::to_string(&plan).unwrap()).unwrap();
        assert_eq!(back, plan);
    }
}
