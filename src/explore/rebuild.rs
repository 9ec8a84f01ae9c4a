//! Rebuilding the runs of a search's examples from their paths, each
//! shared prefix once.
//!
//! A search forgets history, so the report rebuilds each example's run
//! from the scenario's start (`Node::start` keeping history) to show it as
//! a trace. The examples of one search often share most of their path (a
//! property's witness and its opposite part at the last answer), and a
//! step (`Node::after`) reads its node without changing it: so the runs
//! are rebuilt as a tree, one start and each shared step once, where
//! rebuilding each path on its own (`replay_path`) would repeat them. Each
//! trace is the one `replay_path` gives for that path.
//!
//! Owns that walk only; which examples a report keeps is `search`'s.

use super::{Choice, ExploreConfig, ExploreError, Node};
use crate::protocol::Trace;
use crate::runtime::scenarios::Scenario;

/// The trace of the run each of `paths` takes from the start of
/// `scenario`, in the order of `paths` (equal paths get equal traces).
pub(super) fn rebuild_traces(scenario: Scenario, config: &ExploreConfig, paths: &[&[Choice]]) -> Result<Vec<Trace>, ExploreError> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let mut traces: Vec<Option<Trace>> = vec![None; paths.len()];
    let (start, _) = Node::start(scenario, config, true)?;
    let all: Vec<usize> = (0..paths.len()).collect();
    walk(&start, 0, &all, paths, config, &mut traces)?;
    // Every path ends at a node of the walk: each gets its trace there.
    Ok(traces.into_iter().map(|t| t.expect("every path ends at a node of the walk")).collect())
}

/// From `node`, reached by the first `depth` choices that every path of
/// `group` (indices into `paths`) shares: the paths that end here get its
/// trace, the others go on, grouped by their next choice, each group from
/// one step.
fn walk(
    node: &Node,
    depth: usize,
    group: &[usize],
    paths: &[&[Choice]],
    config: &ExploreConfig,
    traces: &mut [Option<Trace>],
) -> Result<(), ExploreError> {
    let mut rest: Vec<usize> = Vec::with_capacity(group.len());
    for &i in group {
        if paths[i].len() == depth {
            traces[i] = Some(node.trace().clone());
        } else {
            rest.push(i);
        }
    }
    while let Some(&first) = rest.first() {
        let choice = &paths[first][depth];
        let (same, other): (Vec<usize>, Vec<usize>) = rest.iter().partition(|&&i| paths[i][depth] == *choice);
        let (next, _) = node.after(choice, config)?;
        walk(&next, depth + 1, &same, paths, config, traces)?;
        rest = other;
    }
    Ok(())
}
