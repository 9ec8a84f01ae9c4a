//! The checker's violations and the explorer's findings in the reader's
//! language: each `Breach` / `Detail` variant worded from its facts, with the
//! catalog's `violation-*` and `finding-*` messages (`locales/*/findings.ftl`).
//!
//! Pure: a function of (catalog, facts), tested natively. It must not judge
//! runs (the checker and the explorer do) nor touch the DOM. Protocol
//! identifiers (request ids, agent names, message types, tool names,
//! statuses) and event numbers are passed through as they are.

use crate::explore::Detail;
use crate::protocol::{
    Act, AgentName, Arrival, Breach, FaultRef, LessonProtocol, PendingCause, Request, RequestId, RequestKind, ViolationKind,
};
use crate::view::i18n::{tr, Catalog};
use crate::view::words::captions::{who, whose};

/// A violation kind's name: "answer lost", "回答丢失".
pub fn kind(cat: &Catalog, k: ViolationKind) -> String {
    cat.t(match k {
        ViolationKind::AnswerToUnknownRequest => "violation-answer-to-unknown-request",
        ViolationKind::SecondAnswer => "violation-second-answer",
        ViolationKind::AnswerFromWrongAgent => "violation-answer-from-wrong-agent",
        ViolationKind::AnswerAcrossRestart => "violation-answer-across-restart",
        ViolationKind::RequestAcrossRestart => "violation-request-across-restart",
        ViolationKind::MessageToExitedTeammate => "violation-message-to-exited-teammate",
        ViolationKind::LeftPending => "violation-left-pending",
        ViolationKind::AnswerLost => "violation-answer-lost",
        ViolationKind::DuplicateDelivered => "violation-duplicate-delivered",
        ViolationKind::ActAfterShutdownApproved => "violation-act-after-shutdown",
        ViolationKind::GatedToolWhileClosed => "violation-gated-tool-while-closed",
        ViolationKind::AnswerAfterExpiry => "violation-answer-after-expiry",
    })
}

/// The diagram's tooltip on a violation mark: "Protocol violation: answer
/// lost: …", as of the tracker's record of its request (`breach_as_of`).
pub fn mark(cat: &Catalog, k: ViolationKind, b: &Breach, answered: Option<&Request>) -> String {
    tr!(cat, "violation-mark", kind = kind(cat, k), detail = breach_as_of(cat, b, answered))
}

/// "fault rule 2", or "a fault".
fn fault(cat: &Catalog, f: &FaultRef) -> String {
    match f.rule {
        Some(n) => tr!(cat, "finding-fault-rule", rule = n),
        None => cat.t("finding-fault-any"),
    }
}

/// "request 4607cc28", or "a request with no id".
fn request(cat: &Catalog, id: Option<&RequestId>) -> String {
    match id {
        Some(id) => tr!(cat, "finding-request", id = id.to_string()),
        None => cat.t("finding-request-no-id"),
    }
}

/// "shutdown" or "plan", as the language words a request's protocol.
fn kind_word(cat: &Catalog, k: RequestKind) -> String {
    tr!(cat, "finding-kind", kind = k.to_string())
}

fn name(n: &AgentName) -> String {
    n.to_string()
}

/// A checker violation's facts, as a sentence.
pub fn breach(cat: &Catalog, b: &Breach) -> String {
    match b {
        Breach::AnswerToUnknownRequest { from, request: id, kind } => {
            tr!(cat, "finding-answer-unknown", from = who(cat, from), request = request(cat, id.as_ref()), kind = kind_word(cat, *kind))
        }
        Breach::AnswerFromWrongAgent { from, request: id, addressee } => tr!(
            cat,
            "finding-answer-wrong-agent",
            from = who(cat, from),
            request = request(cat, id.as_ref()),
            addressee = who(cat, addressee)
        ),
        Breach::AnswerAcrossRestart { from, incarnation, request: id, kind, addressed } => tr!(
            cat,
            "finding-answer-across-restart",
            from = who(cat, from),
            incarnation = *incarnation as usize,
            kind = kind_word(cat, *kind),
            request = request(cat, id.as_ref()),
            addressed = *addressed as usize
        ),
        Breach::RequestAcrossRestart { agent, incarnation, request: id, kind, addressed } => tr!(
            cat,
            "finding-request-across-restart",
            agent = name(agent),
            incarnation = *incarnation as usize,
            kind = kind_word(cat, *kind),
            request = request(cat, Some(id)),
            addressed = *addressed as usize
        ),
        Breach::SecondAnswer { from, request: id } => {
            tr!(cat, "finding-second-answer", from = who(cat, from), request = request(cat, id.as_ref()))
        }
        Breach::DuplicateDelivered { fault: f, from, request: id, to, recorded } => {
            let tracker = match recorded {
                Some(status) => tr!(cat, "finding-duplicate-recorded", status = status.as_str()),
                None => cat.t("finding-duplicate-unrecorded"),
            };
            tr!(
                cat,
                "finding-duplicate",
                fault = fault(cat, f),
                whose = whose(cat, from),
                request = request(cat, id.as_ref()),
                seq = f.seq as usize,
                to = who(cat, to),
                tracker = tracker
            )
        }
        Breach::MessageToExited { from, msg_type, to, arrival } => {
            let head = tr!(cat, "finding-to-exited", from = who(cat, from), msg_type = msg_type.as_str(), to = name(to));
            let tail = match arrival {
                Arrival::Sent => String::new(),
                Arrival::Released { fault: f } => tr!(cat, "finding-arrival-released", fault = fault(cat, f), seq = f.seq as usize),
                Arrival::Copy { fault: f } => tr!(cat, "finding-arrival-copy", fault = fault(cat, f), seq = f.seq as usize),
            };
            head + &tail
        }
        Breach::LeftPending { kind, request: id, addressee, cause } => {
            let to = who(cat, addressee);
            let head = tr!(cat, "finding-pending", kind = kind_word(cat, *kind), request = request(cat, Some(id)), addressee = to.clone());
            let tail = match cause {
                PendingCause::Unknown => String::new(),
                PendingCause::RequestDropped { fault: f } => {
                    tr!(cat, "finding-pending-dropped", fault = fault(cat, f), seq = f.seq as usize, addressee = to)
                }
                PendingCause::RequestHeld { fault: f } => {
                    tr!(cat, "finding-pending-held", fault = fault(cat, f), seq = f.seq as usize, addressee = to)
                }
                PendingCause::Restarted { incarnation } => {
                    tr!(cat, "finding-pending-restarted", addressee = to, incarnation = *incarnation as usize)
                }
                PendingCause::ReplyUnrecorded => cat.t("finding-pending-unrecorded"),
                PendingCause::ExitedUnanswered => tr!(cat, "finding-pending-exited", addressee = to),
            };
            head + &tail
        }
        Breach::ActAfterApproval { agent, request: id, approved, act } => {
            let act = match act {
                Act::ModelCall => cat.t("finding-act-model-call"),
                Act::ToolCall { tool } => tr!(cat, "finding-act-tool-call", tool = tool.as_str()),
                Act::Message { msg_type, to } => tr!(cat, "finding-act-message", msg_type = msg_type.as_str(), to = who(cat, to)),
            };
            tr!(
                cat,
                "finding-act-after-shutdown",
                agent = name(agent),
                kind = kind_word(cat, RequestKind::SHUTDOWN),
                request = request(cat, Some(id)),
                seq = *approved as usize,
                act = act
            )
        }
        Breach::AnswerLost { from, approved, kind, request: id, fault: f, to } => {
            let key = match (approved, kind.lesson()) {
                (true, Some(LessonProtocol::Shutdown)) => "finding-answer-lost-approved-exits",
                (true, Some(LessonProtocol::Plan) | None) => "finding-answer-lost-approved",
                (false, _) => "finding-answer-lost-rejected",
            };
            tr!(
                cat,
                key,
                from = who(cat, from),
                kind = kind_word(cat, *kind),
                request = request(cat, Some(id)),
                fault = fault(cat, f),
                seq = f.seq as usize,
                to = who(cat, to)
            )
        }
        Breach::GatedToolWhileClosed { agent, tool, gate } => {
            tr!(cat, "finding-gated-tool", agent = who(cat, agent), tool = tool.as_str(), gate = gate.as_str())
        }
        Breach::AnswerAfterExpiry { from, request: id, kind } => tr!(
            cat,
            "finding-answer-after-expiry",
            from = who(cat, from),
            kind = kind_word(cat, *kind),
            request = request(cat, id.as_ref())
        ),
    }
}

/// A checker violation's facts as of the tracker's state at the cursor:
/// a request left pending when a run finished that the tracker records as
/// answered since (a later run answered it) says so, so the finding never
/// contradicts the tracker; `answered` is that request's record, if any.
/// Any other violation reads as `breach`.
pub fn breach_as_of(cat: &Catalog, b: &Breach, answered: Option<&Request>) -> String {
    let words = breach(cat, b);
    let Breach::LeftPending { request: id, .. } = b else { return words };
    let Some(r) = answered.filter(|r| r.id == *id && r.status.is_terminal()) else { return words };
    let Some(last) = r.transitions.last() else { return words };
    words + &tr!(cat, "finding-pending-answered-later", by = who(cat, &last.by), status = r.status.as_str())
}

/// An explorer finding's facts, as a sentence.
pub fn detail(cat: &Catalog, d: &Detail) -> String {
    match d {
        Detail::Checker { breach: b } => breach(cat, b),
        Detail::NoResponder { request: id, kind, addressee } => tr!(
            cat,
            "finding-no-responder",
            request = request(cat, Some(id)),
            kind = kind_word(cat, *kind),
            addressee = who(cat, addressee)
        ),
        Detail::Approved { by, request: id } => tr!(cat, "finding-approved", by = who(cat, by), request = request(cat, Some(id))),
        Detail::Rejected { by, request: id } => tr!(cat, "finding-rejected", by = who(cat, by), request = request(cat, Some(id))),
        Detail::WorkBeforePlanApproval { agent, tool } => {
            tr!(cat, "finding-work-before-approval", agent = name(agent), tool = tool.as_str())
        }
        Detail::QuietWhilePending { kind, request: id, requester, addressee } => tr!(
            cat,
            "finding-quiet-pending",
            kind = kind_word(cat, *kind),
            request = request(cat, Some(id)),
            requester = who(cat, requester),
            addressee = who(cat, addressee)
        ),
        Detail::EndedPending { kind, request: id, addressee } => tr!(
            cat,
            "finding-ended-pending",
            kind = kind_word(cat, *kind),
            request = request(cat, Some(id)),
            addressee = who(cat, addressee)
        ),
        Detail::ApprovedNotExited { agent, status } => {
            tr!(cat, "finding-approved-not-exited", agent = name(agent), status = status.to_string())
        }
        Detail::Stuck => cat.t("finding-stuck"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{MemberStatus, MessageType, RequestStatus};
    use crate::view::i18n::Locale;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// One of each variant and sub-variant, with teammates only (the lead
    /// is "the lead" in the page and "lead" in the raw sentence).
    fn breaches() -> Vec<Breach> {
        let (alice, bob) = (name("alice"), name("bob"));
        let id = RequestId::parse("4607cc28").unwrap();
        let f = FaultRef { seq: 12, rule: Some(2) };
        let any = FaultRef { seq: 7, rule: None };
        let mut all = vec![
            Breach::AnswerToUnknownRequest { from: alice.clone(), request: None, kind: RequestKind::PLAN },
            Breach::AnswerFromWrongAgent { from: bob.clone(), request: Some(id.clone()), addressee: alice.clone() },
            Breach::AnswerAcrossRestart {
                from: alice.clone(),
                incarnation: 2,
                request: Some(id.clone()),
                kind: RequestKind::SHUTDOWN,
                addressed: 1,
            },
            Breach::SecondAnswer { from: alice.clone(), request: Some(id.clone()) },
            Breach::RequestAcrossRestart {
                agent: alice.clone(),
                incarnation: 2,
                request: id.clone(),
                kind: RequestKind::SHUTDOWN,
                addressed: 1,
            },
            Breach::AnswerLost {
                from: alice.clone(),
                approved: true,
                kind: RequestKind::SHUTDOWN,
                request: id.clone(),
                fault: f,
                to: bob.clone(),
            },
            Breach::AnswerLost {
                from: bob.clone(),
                approved: true,
                kind: RequestKind::PLAN,
                request: id.clone(),
                fault: any,
                to: alice.clone(),
            },
            Breach::ActAfterApproval { agent: alice.clone(), request: id.clone(), approved: 12, act: Act::ModelCall },
            Breach::ActAfterApproval {
                agent: alice.clone(),
                request: id.clone(),
                approved: 12,
                act: Act::ToolCall { tool: "write_file".into() },
            },
            Breach::ActAfterApproval {
                agent: alice.clone(),
                request: id.clone(),
                approved: 12,
                act: Act::Message { msg_type: MessageType::Message, to: AgentName::lead() },
            },
            Breach::AnswerLost {
                from: bob.clone(),
                approved: false,
                kind: RequestKind::PLAN,
                request: id.clone(),
                fault: f,
                to: alice.clone(),
            },
            Breach::GatedToolWhileClosed { agent: alice.clone(), tool: "write_file".into(), gate: "build".into() },
            Breach::AnswerAfterExpiry {
                from: bob.clone(),
                request: Some(id.clone()),
                kind: RequestKind::unresolved("claim").unwrap_or_else(|| unreachable!()),
            },
        ];
        for recorded in [Some(RequestStatus::Approved), None] {
            all.push(Breach::DuplicateDelivered { fault: f, from: alice.clone(), request: Some(id.clone()), to: bob.clone(), recorded });
        }
        for arrival in [Arrival::Sent, Arrival::Released { fault: f }, Arrival::Copy { fault: any }] {
            all.push(Breach::MessageToExited { from: bob.clone(), msg_type: MessageType::SHUTDOWN_REQUEST, to: alice.clone(), arrival });
        }
        for cause in [
            PendingCause::Unknown,
            PendingCause::RequestDropped { fault: f },
            PendingCause::RequestHeld { fault: any },
            PendingCause::Restarted { incarnation: 3 },
            PendingCause::ReplyUnrecorded,
            PendingCause::ExitedUnanswered,
        ] {
            all.push(Breach::LeftPending { kind: RequestKind::SHUTDOWN, request: id.clone(), addressee: alice.clone(), cause });
        }
        all
    }

    fn details() -> Vec<Detail> {
        let (alice, bob) = (name("alice"), name("bob"));
        let id = RequestId::parse("4607cc28").unwrap();
        let mut all: Vec<Detail> = breaches().into_iter().map(|breach| Detail::Checker { breach }).collect();
        all.extend([
            Detail::NoResponder { request: id.clone(), kind: RequestKind::PLAN, addressee: alice.clone() },
            Detail::Approved { by: alice.clone(), request: id.clone() },
            Detail::Rejected { by: bob.clone(), request: id.clone() },
            Detail::WorkBeforePlanApproval { agent: bob.clone(), tool: "write_file".into() },
            Detail::QuietWhilePending {
                kind: RequestKind::SHUTDOWN,
                request: id.clone(),
                requester: bob.clone(),
                addressee: alice.clone(),
            },
            Detail::EndedPending { kind: RequestKind::PLAN, request: id.clone(), addressee: bob.clone() },
            Detail::ApprovedNotExited { agent: alice, status: MemberStatus::Idle },
            Detail::Stuck,
        ]);
        all
    }

    #[test]
    fn the_page_says_in_english_exactly_what_the_raw_sentence_says() {
        for d in details() {
            assert_eq!(detail(Catalog::en(), &d), d.to_string());
        }
    }

    #[test]
    fn every_finding_is_worded_in_every_language_keeping_its_identifiers() {
        for l in Locale::ALL {
            let cat = Catalog::get(l);
            for d in details() {
                let words = detail(cat, &d);
                assert!(!words.contains('⟦') && !words.contains("{ $"), "{}: {words}", l.tag());
                let raw = d.to_string();
                for id in ["4607cc28", "alice", "bob", "write_file", "shutdown_request", "#12", "#7"] {
                    if raw.contains(id) {
                        assert!(words.contains(id), "{}: {id} is kept in {words}", l.tag());
                    }
                }
                if l != Locale::En {
                    assert_ne!(words, raw, "{}: translated", l.tag());
                }
            }
            for k in crate::protocol::ViolationKind::ALL {
                assert!(!kind(cat, k).contains('⟦'), "{}: {k}", l.tag());
            }
        }
    }

    #[test]
    fn a_finding_about_the_lead_calls_it_the_lead_in_each_language() {
        let b = Breach::SecondAnswer { from: AgentName::lead(), request: None };
        assert_eq!(breach(Catalog::en(), &b), "the lead answered a request with no id a second time");
        assert!(breach(Catalog::get(Locale::Ja), &b).starts_with("リーダー"));
    }
}
