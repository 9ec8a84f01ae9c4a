//! The replies open at a model call in a search: the scripted policy's
//! alternatives (`model::scripted::choices`) for the agent whose call is
//! out, remembered with the turns of its conversation (`Kept`, in the slot
//! each `runtime::agent::Said` keeps for the explorer), so the states that
//! share a conversation ask the policy once.
//!
//! Owns what the explorer remembers for the scripted policy. It must not
//! change the world, choose among the replies (`node`) or decide them (the
//! policy's).

use std::sync::{Arc, OnceLock};

use crate::model::scripted::choices::{alternatives_asked, alternatives_under, Alternative, Decisions};
use crate::model::scripted::{Asked, AskedTurn, FileScriptedModel, TurnReading};
use crate::runtime::agent::Agent;

/// What the explorer keeps with one turn of a conversation.
#[derive(Debug, Default)]
struct Kept {
    /// What the policy read in the turn's texts.
    reading: TurnReading,
    /// The policy's alternatives for a model call whose conversation ends
    /// with this turn (the last turn names the whole conversation:
    /// `Said::after`), and the decisions they were asked under.
    answers: OnceLock<(Decisions, Arc<Vec<Alternative>>)>,
}

/// The scripted policy's alternatives for `agent`'s model call
/// (`choices::alternatives_sized` on its request), remembered on the
/// conversation's last turn: the states that share the conversation share
/// them.
/// With `file`, the replies are the file's model's
/// (`FileScriptedModel::playing_team`), varied along the file's protocols
/// (`choices::alternatives_under`); without, along the built-in lesson
/// file's, on the same path.
pub(super) fn alternatives(agent: &Agent, decisions: Decisions, file: Option<&FileScriptedModel>) -> Arc<Vec<Alternative>> {
    let conversation = agent.conversation();
    let compute = || {
        let turns: Vec<AskedTurn<'_>> =
            conversation.iter().map(|t| AskedTurn { turn: &t.turn, reading: t.kept::<Kept>().map(|k| &k.reading) }).collect();
        let asked = Asked { system: agent.system(), turns: &turns };
        Arc::new(match file {
            None => alternatives_asked(asked, decisions, agent.request_chars()),
            Some(model) => alternatives_under(asked, model, decisions, agent.request_chars()),
        })
    };
    let Some(kept) = conversation.last().and_then(|last| last.kept::<Kept>()) else { return compute() };
    let (asked, known) = kept.answers.get_or_init(|| (decisions, compute()));
    if *asked == decisions {
        Arc::clone(known)
    } else {
        compute()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scripted::choices;
    use crate::protocol::AgentName;

    fn alice() -> Agent {
        Agent::teammate(
            8000,
            crate::runtime::tools::ToolSet::lesson(),
            &AgentName::parse("alice").unwrap(),
            "coder",
            "Write a short hello module in src/hello.py.",
        )
    }

    fn said(alternatives: &[Alternative]) -> Vec<(String, crate::model::ModelResponse)> {
        alternatives.iter().map(|a| (a.label.clone(), a.reply.clone())).collect()
    }

    #[test]
    fn states_that_share_a_conversation_ask_the_policy_once() {
        let x = alice();
        let y = x.clone();
        let d = Decisions::default();
        assert!(Arc::ptr_eq(&alternatives(&x, d, None), &alternatives(&y, d, None)), "the policy was asked once");
        // The same words in another conversation's turn are asked about anew.
        let other = alice();
        let (mine, theirs) = (alternatives(&x, d, None), alternatives(&other, d, None));
        assert!(!Arc::ptr_eq(&mine, &theirs));
        assert_eq!(said(&mine), said(&theirs));
    }

    #[test]
    fn remembered_alternatives_are_the_policys_alternatives_for_the_request() {
        let a = alice();
        let plain = Decisions::default();
        let all = Decisions { flip_answers: true, withhold_answers: true, skip_plans: true, ..Decisions::default() };
        for d in [plain, all, plain] {
            let fresh = choices::alternatives(&a.request(), d);
            assert_eq!(said(&alternatives(&a, d, None)), said(&fresh), "{d:?}");
        }
        assert!(Arc::ptr_eq(&alternatives(&a, plain, None), &alternatives(&a, plain, None)), "the first decisions asked are remembered");
    }
}
