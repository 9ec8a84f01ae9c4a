//! The explorer's state hash tells apart states whose requests differ:
//! over every reachable state of the searches below (symmetry off, so
//! names are compared as they are), no two that hash alike differ in a
//! request's kind, parties, status or the incarnations it is bound to.
//! The hash does not read `Request::incarnations` (`Canon::hash_team`);
//! this checks that nothing reachable needs it to (issue 30 listed it
//! among the possible hash gaps; `respawn` is the scenario where a
//! teammate's incarnation changes).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;
use std::sync::Arc;

use team_protocols::explore::file_team::team_config;
use team_protocols::explore::{Choice, ExploreConfig, Node};
use team_protocols::protocol::file::{self, builtin};
use team_protocols::runtime::scenarios;

/// A state's requests in words, sorted: what the check compares.
fn requests(n: &Node) -> Vec<String> {
    let mut v: Vec<String> = n
        .world
        .team()
        .tracker()
        .iter()
        .map(|r| format!("{} {} {} {:?} {:?}", r.kind, r.requester, r.addressee, r.status, r.incarnations))
        .collect();
    v.sort();
    v
}

/// Searches `config` breadth first; the first pair of states that hash
/// alike with different requests, with their paths, and the states seen.
fn first_clash(config: &ExploreConfig) -> (Option<String>, usize) {
    let scenario = scenarios::explorable(&config.scenario).or_else(|| scenarios::explorable("shutdown")).expect("a scenario");
    let (root, _) = Node::start(scenario, config, false).expect("it starts");
    let mut seen: HashMap<u64, (Vec<String>, Vec<Choice>)> = HashMap::new();
    seen.insert(root.state_hash(config), (requests(&root), root.path.to_vec()));
    let mut level = vec![root];
    while !level.is_empty() {
        let mut next = Vec::new();
        for n in &level {
            for c in n.choices(config) {
                let (child, step) = n.after(&c, config).expect("a move");
                let hash = child.state_hash(config);
                let mine = requests(&child);
                match seen.get(&hash) {
                    Some((theirs, path)) if *theirs != mine => {
                        return (Some(format!("{theirs:?} via {path:?}\n{mine:?} via {:?}", child.path)), seen.len());
                    }
                    Some(_) => {}
                    None => {
                        seen.insert(hash, (mine, child.path.to_vec()));
                        if !step.terminal {
                            next.push(child);
                        }
                    }
                }
            }
        }
        level = next;
    }
    (None, seen.len())
}

#[test]
fn states_whose_requests_differ_never_hash_alike() {
    let team_1 = {
        let f = file::load(builtin::team("team-1").expect("a built-in team file")).expect("it loads");
        team_config(Arc::new(f)).expect("it has a team")
    };
    let configs = [
        ExploreConfig::new("respawn"),
        ExploreConfig { max_faults: 1, ..ExploreConfig::new("respawn") },
        ExploreConfig { max_faults: 1, ..ExploreConfig::new("reject-then-accept") },
        ExploreConfig::new("out-of-order"),
        ExploreConfig { max_faults: 1, ..team_1 },
    ];
    for config in configs {
        let config = ExploreConfig { symmetry: false, ..config };
        let (clash, states) = first_clash(&config);
        assert!(clash.is_none(), "{} with {} fault(s): {}", config.scenario, config.max_faults, clash.unwrap_or_default());
        assert!(states > 30, "{}: the search ran ({states} states)", config.scenario);
    }
}
