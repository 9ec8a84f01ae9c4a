//! The explorer in words, for the page: what each property says, why it
//! matters (and which failure reported against a production agent-team
//! tool it stands for), each verdict and each choice of a run told plainly.
//!
//! Owns these sentences only. Pure and native: no DOM; the search is
//! `explore`, the panel `ui::explore_panel`.

use crate::explore::{Choice, Property, Quantifier, Verdict};

/// What the property says, in one sentence.
pub fn statement(p: Property) -> &'static str {
    match p {
        Property::NoAnswerToUnknownRequest => "No response names a request_id that nobody created.",
        Property::NoSecondAnswer => "No request is answered twice: once approved or rejected, it stays so.",
        Property::OnlyTheAddresseeAnswers => "Only the agent a request was addressed to answers it.",
        Property::NoAnswerAcrossRestart => {
            "No answer crosses a restart: a request addressed to a teammate's earlier run is never answered by its new one."
        }
        Property::NoMessageToExitedTeammate => "Nobody sends a message to a teammate that has shut down.",
        Property::NoAnswerLost => "No answer the tracker recorded is lost on its way to the requester.",
        Property::NoDuplicateDelivered => "No reply is read twice.",
        Property::NoActionAfterShutdownApproved => {
            "A teammate that approved its shutdown makes no new model call: it finishes its turn, then leaves its loop."
        }
        Property::NoWorkBeforePlanApproval => "A teammate in plan mode changes no file before its plan is approved.",
        Property::EveryRequestHasAResponder => "Every request is addressed to someone with the tool to answer it.",
        Property::SomeRequestApproved => "Some run reaches an approved request.",
        Property::SomeRequestRejected => "Some run reaches a rejected request.",
        Property::RequestsSettle => "Every request settles: it ends approved or rejected, never pending.",
        Property::ApprovedShutdownsExit => "Every teammate that approved its shutdown reaches shutdown.",
        Property::NoQuietWhilePending => "No run goes quiet — every agent idle — while a request is still pending.",
        Property::RunsEnd => "Every run ends: no state where nothing can move while the run is still on.",
    }
}

/// The failure reported against Claude Code's agent teams that the
/// property stands for, if any (`anthropics/claude-code#N`).
pub fn reported(p: Property) -> &'static [u32] {
    match p {
        Property::OnlyTheAddresseeAnswers => &[81464],
        Property::NoAnswerAcrossRestart => &[45874],
        Property::NoActionAfterShutdownApproved => &[37895, 60199],
        Property::NoWorkBeforePlanApproval => &[65458],
        Property::EveryRequestHasAResponder => &[50310],
        Property::NoQuietWhilePending => &[51556],
        _ => &[],
    }
}

/// `always`, `sometimes` or `eventually`.
pub fn quantifier(p: Property) -> &'static str {
    match p.quantifier() {
        Quantifier::Always => "always",
        Quantifier::Sometimes => "sometimes",
        Quantifier::Eventually => "eventually",
    }
}

/// The verdict, as a badge says it.
pub fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Fails => "fails",
        Verdict::Unknown => "unknown",
    }
}

/// What the example of a property is called: a counterexample breaks an
/// `always` or `eventually` property; a witness shows a `sometimes` one.
pub fn example_kind(p: Property) -> &'static str {
    match p.quantifier() {
        Quantifier::Sometimes => "witness",
        _ => "counterexample",
    }
}

/// The caption of an opened example: what broke (or was shown), and why it
/// matters.
pub fn finding_caption(p: Property, detail: &str, faults: usize, choices: usize) -> (String, String) {
    let faults = match faults {
        0 => "no fault".to_string(),
        1 => "1 fault".to_string(),
        n => format!("{n} faults"),
    };
    let title = match p.quantifier() {
        Quantifier::Sometimes => format!("Shown: sometimes {}", p.name()),
        q => format!("Broken: {} {}", if q == Quantifier::Always { "always" } else { "eventually" }, p.name()),
    };
    let mut text = format!("{detail}. The property: {} ", statement(p));
    text.push_str(&format!("The shortest run found takes {choices} choices and {faults}."));
    let issues = reported(p);
    if !issues.is_empty() {
        let refs: Vec<String> = issues.iter().map(|n| format!("anthropics/claude-code#{n}")).collect();
        text.push_str(&format!(" Reported against a production agent-team tool as {}.", refs.join(", ")));
    }
    (title, text.replace("..", "."))
}

/// A choice of a run, as a step of its story.
pub fn choice(c: &Choice) -> String {
    c.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_property_has_a_statement_that_is_a_sentence() {
        for p in Property::ALL {
            let s = statement(p);
            assert!(s.len() > 20 && s.ends_with('.'), "{}: {s}", p.name());
        }
    }

    #[test]
    fn a_finding_caption_names_the_property_the_fault_count_and_the_reported_issue() {
        let (title, text) = finding_caption(Property::NoAnswerAcrossRestart, "alice's new run answered 4607cc28", 1, 9);
        assert_eq!(title, "Broken: always no_answer_across_restart");
        assert!(text.contains("9 choices and 1 fault.") && text.contains("anthropics/claude-code#45874"), "{text}");
        let (title, text) = finding_caption(Property::SomeRequestApproved, "a482b7d6 approved", 0, 4);
        assert_eq!(title, "Shown: sometimes some_request_approved");
        assert!(text.contains("no fault") && !text.contains("claude-code"), "{text}");
    }
}
