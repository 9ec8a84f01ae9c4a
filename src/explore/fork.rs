//! Forks: at any choice point of a run — one the explorer found, or a live
//! run of a scripted scenario — take another branch (approve instead of
//! reject, a fault instead of delivery, another agent first) and play the
//! rest out. The fork keeps to the original's later choices wherever they
//! are still open, and otherwise takes the policy's own move, so the two
//! runs differ only where the branch makes them.
//!
//! Owns branching a path and recovering the path of a live run. Pure; what
//! the page draws of two runs side by side is `view::fork_align`.

use super::{Choice, ExploreConfig, ExploreError, Node};
use crate::protocol::file::diff::compare;
use crate::protocol::Trace;
use crate::runtime::scenarios::Scenario;

/// A run and the choices that make it.
#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    /// Its choices from the start.
    pub path: Vec<Choice>,
    /// Its whole trace.
    pub trace: Trace,
}

/// The node after the first `at` choices of `path`.
fn node_at(scenario: Scenario, config: &ExploreConfig, path: &[Choice], at: usize) -> Result<Node, ExploreError> {
    let (mut node, _) = Node::start(scenario, config, true)?;
    for choice in path.iter().take(at) {
        node = node.after(choice, config)?.0;
    }
    Ok(node)
}

/// The choices open at step `at` of `path` (before its `at`-th choice, from
/// 0), the path's own first.
pub fn open_choices(scenario: Scenario, config: &ExploreConfig, path: &[Choice], at: usize) -> Result<Vec<Choice>, ExploreError> {
    let mut open = node_at(scenario, config, path, at)?.choices(config);
    if let Some(own) = path.get(at) {
        if let Some(i) = open.iter().position(|c| c == own) {
            let own = open.remove(i);
            open.insert(0, own);
        }
    }
    Ok(open)
}

/// The run that takes `choice` at step `at` of `path` instead, then keeps
/// to the original's later choices while they are open (the policy's own
/// move otherwise), to the end of the run or the depth bound.
pub fn fork(scenario: Scenario, config: &ExploreConfig, path: &[Choice], at: usize, choice: &Choice) -> Result<Branch, ExploreError> {
    let node = node_at(scenario, config, path, at)?;
    let (mut node, mut step) = node.after(choice, config)?;
    let mut rest = path.iter().skip(at + 1).peekable();
    while !step.terminal && node.path.len() < config.max_depth {
        let open = node.choices(config);
        if open.is_empty() {
            break;
        }
        // The original's next choice, if open here; a choice it made that is
        // no longer open is skipped.
        let next = loop {
            match rest.peek() {
                Some(c) if open.contains(c) => break rest.next().cloned(),
                Some(_) => {
                    rest.next();
                }
                None => break None,
            }
        };
        let next = next.unwrap_or_else(|| open[0].clone());
        (node, step) = node.after(&next, config)?;
    }
    Ok(Branch { path: node.path.to_vec(), trace: node.trace().clone() })
}

/// The explorer's path for a recorded run of `scenario` on the scripted
/// model (`config.seed` the run's seed): at each choice point, the choice
/// whose events are the recorded ones. Refused when the run went where no
/// choice leads (another model, fault rules, a human's hand), and when it
/// ran under another protocol file than the one explored, naming the
/// difference.
pub fn recover_path(scenario: Scenario, config: &ExploreConfig, recorded: &Trace) -> Result<Branch, ExploreError> {
    let want = recorded.entries();
    let same = |trace: &Trace| {
        let got = trace.entries();
        got.len() <= want.len() && got.iter().zip(want).all(|(a, b)| a.event == b.event)
    };
    let (mut node, mut step) = Node::start(scenario, config, true)?;
    compare(recorded.protocols().under(), node.trace().protocols().under()).map_err(ExploreError::DifferentFile)?;
    if !same(node.trace()) {
        return Err(ExploreError::Unforkable { step: 0, seq: first_difference(node.trace(), recorded) });
    }
    while !step.terminal && node.trace().len() < want.len() {
        let mut taken = None;
        let mut parts_at = first_difference(node.trace(), recorded);
        for choice in node.choices(config) {
            let (next, next_step) = node.after(&choice, config)?;
            if same(next.trace()) {
                taken = Some((next, next_step));
                break;
            }
            // Where the closest candidate parts from the recording.
            parts_at = parts_at.max(first_difference(next.trace(), recorded));
        }
        let Some((next, next_step)) = taken else {
            return Err(ExploreError::Unforkable { step: node.path.len() + 1, seq: parts_at });
        };
        (node, step) = (next, next_step);
    }
    if node.trace().len() != want.len() {
        return Err(ExploreError::Unforkable { step: node.path.len(), seq: first_difference(node.trace(), recorded) });
    }
    Ok(Branch { path: node.path.to_vec(), trace: node.trace().clone() })
}

/// The sequence number of the first recorded entry the explorer's run does
/// not reproduce.
fn first_difference(ours: &Trace, recorded: &Trace) -> u64 {
    let i = ours.entries().iter().zip(recorded.entries()).take_while(|(a, b)| a.event == b.event).count();
    recorded.entries().get(i).map_or(recorded.next_seq(), |e| e.seq)
}
