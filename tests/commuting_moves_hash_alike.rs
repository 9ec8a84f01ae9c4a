//! The explorer's state hash is canonical for commuting moves: two turns of
//! different agents whose footprints are disjoint, made in either order,
//! lead to states that hash alike (the search merges them), while the
//! states after one of them alone, or after different moves, still hash
//! apart. Before, the order the agents' turn tickets were issued in and the
//! global creation order of their requests (each request's id is drawn
//! from its trace position) were hashed, so the two orders of "c1 submits
//! its plan" and "c2 submits its plan" never met.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;

use team_protocols::explore::file_team::team_config;
use team_protocols::explore::{Choice, ExploreConfig, Node};
use team_protocols::protocol::file::{self, builtin};
use team_protocols::runtime::scenarios;

fn team(id: &str, faults: usize, decisions: usize) -> ExploreConfig {
    let f = file::load(builtin::team(id).expect("a built-in team file")).expect("it loads");
    ExploreConfig { max_faults: faults, max_decisions: decisions, ..team_config(Arc::new(f)).expect("it has a team") }
}

/// Counts, over the first `levels` levels of `config`'s search (at most
/// `width` states a level), the pairs of fault-free turns of different
/// agents with disjoint footprints, and the pairs whose two orders hash
/// apart (with their first example).
fn commuting_pairs(config: &ExploreConfig, levels: usize, width: usize) -> (usize, Vec<String>) {
    let scenario = scenarios::explorable("shutdown").expect("a scenario");
    let (root, _) = Node::start(scenario, config, false).expect("it starts");
    let mut seen = std::collections::HashSet::new();
    let mut level = vec![root];
    let (mut checked, mut apart) = (0, Vec::new());
    // After a turn its model call may wait for one of several replies
    // (nothing else moves then): the other turn comes after that reply, as
    // the sleep sets carry it.
    let replies = |after: &Node| -> Vec<Option<Choice>> {
        let r: Vec<Option<Choice>> = after.choices(config).into_iter().filter(|c| matches!(c, Choice::Reply { .. })).map(Some).collect();
        if r.is_empty() {
            vec![None]
        } else {
            r
        }
    };
    for _ in 0..levels {
        let mut next = Vec::new();
        for n in &level {
            // While messages are held the explorer reorders nothing (their
            // release waits on the clock every move moves).
            let quiet = n.world.team().held().is_empty();
            let turns: Vec<Choice> = n.choices(config).into_iter().filter(|c| matches!(c, Choice::Turn { fault: None, .. })).collect();
            for (i, a) in turns.iter().enumerate() {
                for b in &turns[i + 1..] {
                    let (na, sa) = n.after(a, config).expect("a move");
                    let (nb, sb) = n.after(b, config).expect("a move");
                    if !quiet || !sa.touched.disjoint(&sb.touched) {
                        continue;
                    }
                    assert_ne!(na.state_hash(config), nb.state_hash(config), "{a} alone and {b} alone differ");
                    // Both orders: a, a's reply, b, b's reply and b, b's
                    // reply, a, a's reply.
                    for ra in replies(&na) {
                        for rb in replies(&nb) {
                            let run = |moves: [&Option<Choice>; 4]| -> Option<Node> {
                                let mut at = n.clone();
                                for c in moves.into_iter().flatten() {
                                    at = at.after(c, config).ok()?.0;
                                }
                                Some(at)
                            };
                            let (a, b) = (Some(a.clone()), Some(b.clone()));
                            checked += 1;
                            match (run([&a, &ra, &b, &rb]), run([&b, &rb, &a, &ra])) {
                                (Some(ab), Some(ba)) => {
                                    assert_ne!(na.state_hash(config), ab.state_hash(config), "one and both differ");
                                    if ab.state_hash(config) != ba.state_hash(config) {
                                        apart.push(format!("{a:?} {ra:?} / {b:?} {rb:?} after {:?}", n.path));
                                    }
                                }
                                _ => apart.push(format!("{a:?} {ra:?} / {b:?} {rb:?}: an order is not open, after {:?}", n.path)),
                            }
                        }
                    }
                }
            }
            for c in n.choices(config) {
                let (child, step) = n.after(&c, config).expect("a move");
                if !step.terminal && next.len() < width && seen.insert(child.state_hash(config)) {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    (checked, apart)
}

#[test]
fn two_orders_of_commuting_turns_of_different_teammates_hash_alike() {
    for config in [team("team-1", 1, 2), team("team-2", 0, 0), team("team-2", 1, 0), team("team-3", 0, 0)] {
        let (checked, apart) = commuting_pairs(&config, 12, 120);
        assert!(checked > 100, "{}: pairs checked: {checked}", config.scenario);
        assert!(apart.is_empty(), "{}: {} of {checked} pairs hash apart, first: {}", config.scenario, apart.len(), apart[0]);
    }
}
