//! Shaping a conversation for a remote API, which is stricter than our
//! `Turn` list: roles must alternate, text blocks must not be blank, and the
//! results of an assistant turn's tool calls must open the very next user
//! turn.
//!
//! Owns that normalisation, shared by every remote provider. It must not
//! change what was said: blocks are only merged, reordered or (when blank)
//! dropped, never rewritten, invented or lost.

use super::{ContentBlock, Role, Turn};

/// The conversation as the APIs want it:
/// 1. blank text blocks are dropped, then turns left empty;
/// 2. consecutive turns of the same role are merged into one;
/// 3. every `tool_result` is moved into the user turn right after the
///    assistant turn holding its `tool_use`, keeping the order they came in;
/// 4. in each user turn, `tool_result` blocks come first, the rest after,
///    each group in its original order.
///
/// A `tool_result` whose `tool_use` is nowhere stays where it was (first in
/// its turn); a `tool_use` without a result stays without one. Both are
/// mistakes of the caller that the server will name.
pub fn normalize(messages: &[Turn]) -> Vec<Turn> {
    let mut turns = merge(drop_blank(messages.to_vec()));
    relocate_results(&mut turns);
    let mut turns = merge(drop_blank(turns));
    for turn in turns.iter_mut().filter(|t| t.role == Role::User) {
        let (results, rest): (Vec<ContentBlock>, Vec<ContentBlock>) =
            std::mem::take(&mut turn.content).into_iter().partition(|b| matches!(b, ContentBlock::ToolResult { .. }));
        turn.content = results.into_iter().chain(rest).collect();
    }
    turns
}

fn drop_blank(turns: Vec<Turn>) -> Vec<Turn> {
    turns
        .into_iter()
        .map(|mut t| {
            t.content.retain(|b| !matches!(b, ContentBlock::Text { text } if text.trim().is_empty()));
            t
        })
        .filter(|t| !t.content.is_empty())
        .collect()
}

fn merge(turns: Vec<Turn>) -> Vec<Turn> {
    let mut out: Vec<Turn> = Vec::with_capacity(turns.len());
    for turn in turns {
        match out.last_mut() {
            Some(last) if last.role == turn.role => last.content.extend(turn.content),
            _ => out.push(turn),
        }
    }
    out
}

fn relocate_results(turns: &mut [Turn]) {
    let mut i = 0;
    while i < turns.len() {
        if turns[i].role != Role::Assistant {
            i += 1;
            continue;
        }
        let ids: Vec<String> = turns[i]
            .content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::ToolUse { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect();
        let mut found = Vec::new();
        if !ids.is_empty() {
            for later in turns[i + 1..].iter_mut().filter(|t| t.role == Role::User) {
                let (mine, rest): (Vec<ContentBlock>, Vec<ContentBlock>) = std::mem::take(&mut later.content)
                    .into_iter()
                    .partition(|b| matches!(b, ContentBlock::ToolResult { tool_use_id, .. } if ids.contains(tool_use_id)));
                found.extend(mine);
                later.content = rest;
            }
        }
        // Roles alternate (the turns are merged), so a found result came
        // from a user turn after `i`, and turn `i + 1` is a user turn.
        if let Some(next) = turns.get_mut(i + 1).filter(|_| !found.is_empty()) {
            found.append(&mut next.content);
            next.content = found;
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(role: Role, t: &str) -> Turn {
        Turn { role, content: vec![ContentBlock::text(t)] }
    }
    fn call(id: &str) -> ContentBlock {
        ContentBlock::ToolUse { id: id.into(), name: "t".into(), input: json!({}) }
    }
    fn result(id: &str) -> ContentBlock {
        ContentBlock::ToolResult { tool_use_id: id.into(), content: format!("out {id}"), is_error: false }
    }

    #[test]
    fn consecutive_turns_of_one_role_are_merged_in_order() {
        let turns = vec![
            text(Role::User, "a"),
            text(Role::User, "b"),
            text(Role::Assistant, "c"),
            text(Role::Assistant, "d"),
            text(Role::User, "e"),
        ];
        let n = normalize(&turns);
        assert_eq!(n.len(), 3);
        assert_eq!(n[0].content, vec![ContentBlock::text("a"), ContentBlock::text("b")]);
        assert_eq!(n[1].content, vec![ContentBlock::text("c"), ContentBlock::text("d")]);
    }

    #[test]
    fn blank_text_blocks_and_empty_turns_are_dropped() {
        let turns = vec![
            text(Role::User, "a"),
            text(Role::Assistant, "  "),
            text(Role::User, "b"),
            Turn { role: Role::Assistant, content: vec![] },
        ];
        let n = normalize(&turns);
        assert_eq!(n, vec![Turn { role: Role::User, content: vec![ContentBlock::text("a"), ContentBlock::text("b")] }]);
    }

    #[test]
    fn tool_results_open_the_user_turn_after_their_tool_use() {
        let turns = vec![
            text(Role::User, "go"),
            Turn { role: Role::Assistant, content: vec![ContentBlock::text("ok"), call("1"), call("2")] },
            Turn { role: Role::User, content: vec![ContentBlock::text("{\"type\":\"message\"}"), result("1")] },
            Turn { role: Role::User, content: vec![result("2")] },
        ];
        let n = normalize(&turns);
        assert_eq!(n.len(), 3);
        assert_eq!(n[2].content, vec![result("1"), result("2"), ContentBlock::text("{\"type\":\"message\"}")]);
    }

    #[test]
    fn a_result_that_strayed_past_another_turn_is_moved_back() {
        let turns = vec![
            text(Role::User, "go"),
            Turn { role: Role::Assistant, content: vec![call("1")] },
            text(Role::User, "meanwhile"),
            text(Role::Assistant, "hm"),
            Turn { role: Role::User, content: vec![result("1"), ContentBlock::text("later")] },
        ];
        let n = normalize(&turns);
        assert_eq!(n[2].content, vec![result("1"), ContentBlock::text("meanwhile")]);
        assert_eq!(n[4].content, vec![ContentBlock::text("later")]);
    }

    #[test]
    fn results_follow_assistant_turns_merged_around_their_call() {
        let turns = vec![
            text(Role::User, "go"),
            Turn { role: Role::Assistant, content: vec![call("1")] },
            text(Role::Assistant, "and"),
            Turn { role: Role::User, content: vec![result("1")] },
        ];
        // The two assistant turns merge first, so the result opens the turn after both.
        let n = normalize(&turns);
        assert_eq!(n.len(), 3);
        assert_eq!(n[2].content, vec![result("1")]);
    }

    #[test]
    fn orphan_results_and_unanswered_calls_are_kept_as_they_are() {
        let turns = vec![
            text(Role::User, "go"),
            Turn { role: Role::Assistant, content: vec![call("1")] },
            Turn { role: Role::User, content: vec![ContentBlock::text("x"), result("9")] },
        ];
        let n = normalize(&turns);
        assert_eq!(n[1].content, vec![call("1")]);
        assert_eq!(n[2].content, vec![result("9"), ContentBlock::text("x")]);
    }
}
