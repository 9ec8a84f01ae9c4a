//! The state hash taken apart (`Node::state_parts`, the diagnosis of what
//! multiplies a search's distinct states: `examples/state_parts.rs`) loses
//! nothing: its exact parts together tell apart every two states the
//! explorer's hash tells apart, so a count of states with one part left
//! out or coarsened is a count of what that part alone distinguishes.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use team_protocols::explore::file_team::{scenario_of, team_config};
use team_protocols::explore::{Choice, ExploreConfig, Node};
use team_protocols::protocol::canon::StableHasher;
use team_protocols::protocol::file::{self, builtin};
use team_protocols::runtime::world::VIEW_MARK;

/// Every distinct state of `config`'s search: its hash, and the hash of its
/// exact parts together.
fn hashes_and_parts(config: &ExploreConfig) -> Vec<(u64, u64)> {
    let (start, _) = Node::start(scenario_of(config).unwrap(), config, false).unwrap();
    let mut seen = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        let hash = node.state_hash(config);
        if seen.contains_key(&hash) {
            continue;
        }
        let mut h = StableHasher::default();
        for (name, value) in node.state_parts(config).iter().filter(|(n, _)| !n.contains(VIEW_MARK)) {
            (name, value).hash(&mut h);
        }
        seen.insert(hash, h.finish());
        for choice in node.choices(config) {
            queue.push_back(node.after(&choice, config).unwrap().0);
        }
    }
    seen.into_iter().collect()
}

#[test]
fn the_exact_parts_tell_apart_what_the_state_hash_tells_apart() {
    let f = file::load(builtin::team("team-1").unwrap()).unwrap();
    let team = ExploreConfig { max_faults: 1, ..team_config(Arc::new(f)).unwrap() };
    let twins = ExploreConfig { max_faults: 0, ..ExploreConfig::new("twins") };
    for config in [team, twins] {
        let states = hashes_and_parts(&config);
        let mut parts: Vec<u64> = states.iter().map(|s| s.1).collect();
        parts.sort_unstable();
        parts.dedup();
        assert!(states.len() > 100, "{}: a search of some size ({} states)", config.scenario, states.len());
        assert_eq!(parts.len(), states.len(), "{}: as many distinct part tuples as distinct states", config.scenario);
    }
}

/// A state's moves: each choice in words (a reply by its option number: its
/// label quotes a raw request id, which the hash compares by place) and the
/// hash of where it leads, sorted.
fn moves(node: &Node, config: &ExploreConfig) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = node
        .choices(config)
        .iter()
        .map(|c| {
            let name = match c {
                Choice::Reply { agent, option, .. } => format!("{agent}'s model: option {option}"),
                other => other.to_string(),
            };
            (name, node.after(c, config).unwrap().0.state_hash(config))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn states_the_hash_merges_have_the_same_moves_one_move_deep_also_with_a_delay_held() {
    // Before the delays left and deadlines were hashed, 7 of reject-then-
    // accept's merges with 1 fault (221 of out-of-order's) led elsewhere
    // one move later: two histories that spent different virtual time
    // release a delayed message at different moves.
    let config = ExploreConfig { max_faults: 1, ..ExploreConfig::new("reject-then-accept") };
    let (start, _) = Node::start(scenario_of(&config).unwrap(), &config, false).unwrap();
    let mut first: HashMap<u64, Vec<(String, u64)>> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    let (mut merges, mut delayed) = (0, 0);
    while let Some(node) = queue.pop_front() {
        let hash = node.state_hash(&config);
        let here = moves(&node, &config);
        if let Some(seen) = first.get(&hash) {
            merges += 1;
            delayed += usize::from(!node.world.team().held().is_empty());
            assert_eq!(&here, seen, "a state merged into one with other moves");
            continue;
        }
        first.insert(hash, here);
        for choice in node.choices(&config) {
            queue.push_back(node.after(&choice, &config).unwrap().0);
        }
    }
    assert!(merges > 1_000 && delayed > 0, "the check saw merges ({merges}), some with a message held ({delayed})");
}
