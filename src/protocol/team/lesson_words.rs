//! The lesson's words for the refusals of its two protocols: on the one
//! path (`asks`) they are refused as any protocol's are, and the texts its
//! models read stay the lesson's (pinned by `asks`'s tests). Owns that
//! mapping only; it must not check anything.

use super::TeamError;
use crate::protocol::protocols::LessonProtocol;
use crate::protocol::roster::RosterError;
use crate::protocol::tracker::RequestKind;

/// A refusal of one of the lesson's two protocols in the lesson's words
/// (the texts its models read); any other refusal as it is.
pub(super) fn in_lesson_words(kind: RequestKind, e: TeamError) -> TeamError {
    match (kind.lesson(), e) {
        (Some(LessonProtocol::Shutdown), TeamError::MayNotAsk { asker, .. }) => TeamError::NotLead(asker),
        (Some(LessonProtocol::Shutdown), TeamError::WrongAddressee { to, .. }) => RosterError::UnknownMember(to).into(),
        (Some(LessonProtocol::Shutdown), TeamError::AlreadyPending { target, pending, .. }) => {
            TeamError::ShutdownPending { target, pending }
        }
        (Some(LessonProtocol::Plan), TeamError::MayNotAsk { .. }) => TeamError::LeadSubmitsPlan,
        (_, e) => e,
    }
}
