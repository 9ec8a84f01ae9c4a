//! What multiplies a search's distinct states: explores a scenario (or a
//! built-in team file) breadth first, as `explore --no-reduction` does,
//! and over its distinct states counts how many values each part of the
//! state hash takes (`Node::state_parts`), how many distinct states remain
//! when one part is left out, and how many when a conversation is hashed
//! by a coarser view (its turns as a multiset; every turn's blocks as one
//! multiset: order and batching forgotten).
//!
//! `cargo run --release --example state_parts -- SCENARIO FAULTS DECISIONS [MAX_STATES] [show] [no-symmetry] [no-delay] [merges]`
//! (`team-2 0 0` is the small case of issue 30; MAX_STATES bounds the
//! distinct states visited, default 200,000; `show` prints two lead
//! conversations of states alike in every other part; `no-symmetry` turns
//! the teammates' symmetry off; `no-delay` leaves the delay fault out of
//! the fault kinds tried; `merges` checks the explorer's own hash: every
//! state reached again must have the moves of the state it merged into).

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use team_protocols::explore::file_team::{scenario_of, team_config};
use team_protocols::explore::{Choice, ExploreConfig, Node};
use team_protocols::protocol::canon::StableHasher;
use team_protocols::protocol::file::monitor::PropertySet;
use team_protocols::protocol::file::{self, builtin};
use team_protocols::runtime::world::VIEW_MARK;

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: state_parts SCENARIO FAULTS DECISIONS [MAX_STATES] [show] [no-symmetry] [no-delay] [merges]";
    let scenario = args.next().expect(usage);
    let faults: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let decisions: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let rest: Vec<String> = args.collect();
    let max_states: usize = rest.iter().find_map(|a| a.parse().ok()).unwrap_or(200_000);
    let show = rest.iter().any(|a| a == "show");
    let mut config = match builtin::team(&scenario) {
        Some(text) if team_protocols::runtime::scenarios::explorable(&scenario).is_none() => {
            let f = file::load(text).expect("the built-in team file loads");
            let properties = PropertySet::compile(&f).expect("its properties compile");
            let mut config = team_config(Arc::new(f)).expect("it has a team");
            config.file_properties = properties;
            config
        }
        _ => ExploreConfig::new(&scenario),
    };
    config.max_faults = faults;
    config.max_decisions = decisions;
    config.symmetry = !rest.iter().any(|a| a == "no-symmetry");
    if rest.iter().any(|a| a == "no-delay") {
        config.fault_kinds.retain(|k| !matches!(k, team_protocols::protocol::FaultAction::Delay { .. }));
    }
    let merges = rest.iter().any(|a| a == "merges");
    let v = visit(&config, max_states, show, merges);
    if merges {
        check_merges(&v);
    }
    report(&scenario, faults, decisions, &v.states, v.complete);
    if !config.symmetry {
        // The baseline: the explorer's own hash (every exact part).
        check_view(&v, "lead.conversation", false);
        for view in ["per-sender", "outcomes"] {
            for unnamed in [false, true] {
                check_view(&v, &format!("lead.conversation{VIEW_MARK}{view}"), unnamed);
            }
        }
    }
    if show {
        show_pair(&v.states, &v.leads);
        println!("the first state's lead conversation:");
        v.leads[0].iter().for_each(|t| println!("  {t}"));
    }
}

/// Prints two lead conversations of states alike in every other part: the
/// turns where they differ.
fn show_pair(states: &[Vec<(String, u64)>], leads: &[Vec<String>]) {
    let mut groups: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, parts) in states.iter().enumerate() {
        let mut h = StableHasher::default();
        for (name, value) in parts.iter().filter(|(n, _)| exact(n) && n != "lead.conversation") {
            name.hash(&mut h);
            value.hash(&mut h);
        }
        groups.entry(h.finish()).or_default().push(i);
    }
    let Some(pair) = groups.values().filter(|g| g.len() > 1).min_by_key(|g| g[0]) else { return };
    let (a, b) = (&leads[pair[0]], &leads[pair[1]]);
    println!("two lead conversations, all else alike ({} and {} turns):", a.len(), b.len());
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i), b.get(i));
        if x != y {
            println!("turn {i}:\n  A: {}\n  B: {}", x.map_or("-", String::as_str), y.map_or("-", String::as_str));
        }
    }
}

/// What a breadth-first visit found: every distinct state's parts (at
/// most `max_states`), the lead's turns as JSON (with `show`), each move
/// between them (from, choice, to, by index), and which states had all
/// their moves followed.
struct Visit {
    states: Vec<Vec<(String, u64)>>,
    leads: Vec<Vec<String>>,
    moves: Vec<(usize, String, usize)>,
    expanded: Vec<usize>,
    complete: bool,
    /// Each state's hash, by index.
    hashes: Vec<u64>,
    /// With `merges`: each state reached again by another path (as the
    /// index of the state it was merged into), with its own moves (each
    /// choice and the hash of where it leads).
    merged: Vec<(usize, Moves, u64)>,
    /// Each state's delayed messages' remaining delays (hashed), by index.
    delays: Vec<u64>,
}

/// The delays left of the node's held messages (due − now), hashed: what
/// the state hash does not read of a delayed message.
fn delays_left(node: &Node) -> u64 {
    let now = node.world.now().0;
    StableHasher::digest(|h| {
        for held in node.world.team().held() {
            held.due.map(|d| d.0.saturating_sub(now)).hash(h);
        }
    })
}

fn visit(config: &ExploreConfig, max_states: usize, show: bool, merges: bool) -> Visit {
    let lead = team_protocols::protocol::AgentName::lead();
    let turns = |node: &Node| -> Vec<String> {
        if !show {
            return Vec::new();
        }
        let request = node.world.model_request(&lead);
        request.map(|r| r.messages.iter().map(|t| serde_json::to_string(t).unwrap_or_default()).collect()).unwrap_or_default()
    };
    let scenario = scenario_of(config).expect("an explorable scenario");
    let (start, _) = Node::start(scenario, config, false).expect("the run starts");
    let mut seen = HashMap::new();
    seen.insert(start.state_hash(config), 0);
    let mut v = Visit {
        states: vec![with_views(&start, config)],
        leads: vec![turns(&start)],
        moves: Vec::new(),
        expanded: Vec::new(),
        complete: true,
        hashes: vec![start.state_hash(config)],
        merged: Vec::new(),
        delays: vec![delays_left(&start)],
    };
    let mut queue = VecDeque::from([(0, start)]);
    'search: while let Some((at, node)) = queue.pop_front() {
        for choice in node.choices(config) {
            let (next, _) = node.after(&choice, config).expect("a move runs");
            let to = match seen.entry(next.state_hash(config)) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    if merges {
                        let mut moves: Vec<(String, u64)> = next
                            .choices(config)
                            .iter()
                            .map(|c| (move_name(c), next.after(c, config).expect("a move runs").0.state_hash(config)))
                            .collect();
                        moves.sort();
                        moves.dedup();
                        v.merged.push((*e.get(), moves, delays_left(&next)));
                    }
                    *e.get()
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    if v.states.len() >= max_states {
                        v.complete = false;
                        break 'search;
                    }
                    e.insert(v.states.len());
                    v.states.push(with_views(&next, config));
                    v.leads.push(turns(&next));
                    v.hashes.push(next.state_hash(config));
                    v.delays.push(delays_left(&next));
                    queue.push_back((v.states.len() - 1, next));
                    v.states.len() - 1
                }
            };
            v.moves.push((at, move_name(&choice), to));
        }
        v.expanded.push(at);
    }
    v
}

/// A move in words, without what names a request by its id (a reply's
/// label quotes the raw id, which two orders of the same moves draw
/// differently: the state hash compares ids by place).
fn move_name(choice: &Choice) -> String {
    match choice {
        Choice::Reply { agent, option, .. } => format!("{agent}'s model: option {option}"),
        other => other.to_string(),
    }
}

/// Whether the explorer's own hash merges only states with the same
/// moves: each state reached again by another path must offer the same
/// choices as the state it was merged into, each leading to a state of the
/// same hash. Prints how many merges were checked and how many fail.
fn check_merges(v: &Visit) {
    let mut moves_of: HashMap<usize, Vec<(String, u64)>> = HashMap::new();
    for (from, choice, to) in &v.moves {
        moves_of.entry(*from).or_default().push((choice.clone(), v.hashes[*to]));
    }
    for m in moves_of.values_mut() {
        m.sort();
        m.dedup();
    }
    let expanded: HashSet<usize> = v.expanded.iter().copied().collect();
    let checked: Vec<_> = v.merged.iter().filter(|(into, ..)| expanded.contains(into)).collect();
    let failing: Vec<_> =
        checked.iter().filter(|(into, moves, _)| moves_of.get(into).map_or(&[][..], Vec::as_slice) != moves.as_slice()).collect();
    let same_delays = failing.iter().filter(|(into, _, delays)| v.delays[*into] == *delays).count();
    println!(
        "the explorer's hash: {} merges checked, {} where the merged state's moves differ ({} of them with the same delays left)",
        checked.len(),
        failing.len(),
        same_delays
    );
    let unequal_delays = checked.iter().filter(|(into, _, delays)| v.delays[*into] != *delays).count();
    println!("  merges of states whose held messages have different delays left: {unequal_delays}");
    if let Some((into, moves, _)) = failing.first() {
        let labels = |m: &[(String, u64)]| m.iter().map(|(l, k)| format!("{l} -> {k:016x}")).collect::<Vec<_>>().join("; ");
        println!("  e.g. state {into}: {}\n  merged: {}", labels(moves_of.get(into).map_or(&[][..], Vec::as_slice)), labels(moves));
    }
}

/// A state's moves: each choice, in words, and the key of where it leads.
type Moves = Vec<(String, u64)>;

/// Whether hashing the lead's conversation by `view` (instead of as it is)
/// merges only states with the same future, one move deep: every two fully
/// expanded states alike under the view must offer the same choices, each
/// leading to states alike under the view. Prints the number of merged
/// classes and of classes where that fails, with one example. With `view`
/// "lead.conversation" itself this checks the explorer's own hash.
fn check_view(v: &Visit, view: &str, unnamed: bool) {
    let replaced = |n: &str| n == "lead.conversation" || (unnamed && n == "lead.loop");
    let key = |i: usize| {
        let mut h = StableHasher::default();
        let keep = |n: &str| (exact(n) && !replaced(n)) || n == view || (unnamed && n == "lead.loop~unnamed");
        for (name, value) in v.states[i].iter().filter(|(n, _)| keep(n)) {
            name.hash(&mut h);
            value.hash(&mut h);
        }
        h.finish()
    };
    let mut next: HashMap<usize, Vec<(String, u64)>> = HashMap::new();
    for (from, choice, to) in &v.moves {
        next.entry(*from).or_default().push((choice.clone(), key(*to)));
    }
    let mut classes: HashMap<u64, Vec<(usize, Moves)>> = HashMap::new();
    for &i in &v.expanded {
        let mut moves = next.remove(&i).unwrap_or_default();
        moves.sort();
        moves.dedup();
        classes.entry(key(i)).or_default().push((i, moves));
    }
    let merged = classes.values().filter(|c| c.len() > 1).count();
    let broken: Vec<_> = classes.values().filter(|c| c.iter().any(|(_, m)| *m != c[0].1)).collect();
    println!(
        "{view}{}: {} classes of {} expanded states, {merged} merging two or more; {} where the merged states' moves differ",
        if unnamed { " and lead.loop~unnamed" } else { "" },
        classes.len(),
        v.expanded.len(),
        broken.len()
    );
    if let Some(c) = broken.first() {
        let other = c.iter().find(|(_, m)| *m != c[0].1).expect("a differing member");
        let labels = |m: &[(String, u64)]| m.iter().map(|(l, k)| format!("{l} -> {k:016x}")).collect::<Vec<_>>().join("; ");
        println!("  e.g. state {}: {}\n  state {}: {}", c[0].0, labels(&c[0].1), other.0, labels(&other.1));
        if v.leads[c[0].0] != v.leads[other.0] {
            println!("  their lead conversations differ in:");
            for (x, y) in v.leads[c[0].0].iter().zip(&v.leads[other.0]).filter(|(x, y)| x != y) {
                println!("    A: {x}\n    B: {y}");
            }
        }
        // Which parts tell the two states' successors apart, choice by choice.
        let child = |from: usize, choice: &str| v.moves.iter().find(|(f, l, _)| *f == from && l == choice).map(|m| m.2);
        for (label, _) in &c[0].1 {
            let (Some(a), Some(b)) = (child(c[0].0, label), child(other.0, label)) else { continue };
            let differ: Vec<&str> = v.states[a]
                .iter()
                .zip(&v.states[b])
                .filter(|((n, x), (_, y))| x != y && exact(n) && !replaced(n))
                .map(|((n, _), _)| n.as_str())
                .collect();
            if !differ.is_empty() {
                println!("  after '{label}' the states {a} and {b} differ in: {}", differ.join(", "));
                if v.leads[a] != v.leads[b] {
                    for (x, y) in v.leads[a].iter().zip(&v.leads[b]).filter(|(x, y)| x != y) {
                        println!("    lead turn A: {x}\n    lead turn B: {y}");
                    }
                }
            }
        }
    }
}

/// The node's parts, and two views of the lead's conversation that keep
/// what the scripted lead under a team file reads (`model::scripted::team`,
/// `lead::summary`): its prompts in order; each sender's messages in the
/// order heard (the senders as a set); its own tool calls in order with
/// their results — leaving out the assistant's texts, the tool-use ids and
/// the batching into turns. `~per-sender` keeps only that; `~outcomes` adds
/// the order, across senders, of what `summary` lists (shutdown answers,
/// plan-approval results, failed calls). Hashed under a canon without
/// teammates' canonical names: compare with `no-symmetry`.
fn with_views(node: &Node, config: &ExploreConfig) -> Vec<(String, u64)> {
    use team_protocols::model::{ContentBlock, Role};
    use team_protocols::protocol::canon::Canon;
    let mut parts = node.state_parts(config);
    let canon = Canon::of_requests(node.world.team().tracker().iter());
    let text = |t: &str| StableHasher::digest(|h| canon.hash_text(t, h));
    let lead = team_protocols::protocol::AgentName::lead();
    let turns = node.world.model_request(&lead).map(|r| r.messages).unwrap_or_default();
    let mut prompts = Vec::new();
    let mut senders: std::collections::BTreeMap<String, Vec<u64>> = Default::default();
    let mut calls: Vec<(String, u64, Option<u64>)> = Vec::new();
    let mut outcomes: Vec<u64> = Vec::new();
    for turn in &turns {
        for block in &turn.content {
            match (turn.role, block) {
                (Role::User, ContentBlock::Text { text: t }) => {
                    let inner = t.trim().strip_prefix("<inbox>").and_then(|t| t.strip_suffix("</inbox>"));
                    match inner.and_then(|i| serde_json::from_str::<Vec<serde_json::Value>>(i).ok()) {
                        Some(messages) => {
                            for m in messages {
                                let hashed = text(&m.to_string());
                                if m["type"] == "shutdown_response" {
                                    outcomes.push(hashed);
                                }
                                senders.entry(m["from"].as_str().unwrap_or_default().to_owned()).or_default().push(hashed);
                            }
                        }
                        None => prompts.push(text(t)),
                    }
                }
                (Role::Assistant, ContentBlock::ToolUse { name, input, .. }) => {
                    calls.push((name.clone(), text(&input.to_string()), None));
                }
                (Role::User, ContentBlock::ToolResult { content, is_error, .. }) => {
                    let hashed = StableHasher::digest(|h| {
                        canon.hash_text(content, h);
                        is_error.hash(h);
                    });
                    if let Some(open) = calls.iter_mut().find(|c| c.2.is_none()) {
                        if open.0 == "plan_approval" || *is_error {
                            outcomes.push(hashed);
                        }
                        open.2 = Some(hashed);
                    }
                }
                _ => {}
            }
        }
    }
    let per_sender = StableHasher::digest(|h| {
        prompts.hash(h);
        let mut each: Vec<u64> = senders.iter().map(|(from, m)| StableHasher::digest(|h| (from, m).hash(h))).collect();
        each.sort_unstable();
        each.hash(h);
        calls.hash(h);
    });
    parts.push((format!("lead.conversation{VIEW_MARK}per-sender"), per_sender));
    parts.push((format!("lead.conversation{VIEW_MARK}outcomes"), StableHasher::digest(|h| (per_sender, &outcomes).hash(h))));
    parts
}

/// How many distinct states the parts named by `keep` tell apart.
fn distinct(states: &[Vec<(String, u64)>], keep: impl Fn(&str) -> bool) -> usize {
    let mut set = HashSet::with_capacity(states.len());
    for parts in states {
        let mut h = StableHasher::default();
        for (name, value) in parts.iter().filter(|(n, _)| keep(n)) {
            name.hash(&mut h);
            value.hash(&mut h);
        }
        set.insert(h.finish());
    }
    set.len()
}

fn exact(name: &str) -> bool {
    !name.contains(VIEW_MARK)
}

fn report(scenario: &str, faults: usize, decisions: usize, states: &[Vec<(String, u64)>], complete: bool) {
    let all = distinct(states, exact);
    println!(
        "{scenario}, {faults} fault(s), {decisions} decision(s): {} distinct states{} ({} by the exact parts together)",
        states.len(),
        if complete { ", complete" } else { ", cut" },
        all
    );
    println!("| part | distinct values | distinct states without it | with it replaced by this view |");
    println!("|---|---|---|---|");
    let names: Vec<String> = states[0].iter().map(|(n, _)| n.clone()).collect();
    for (i, name) in names.iter().enumerate() {
        let values: HashSet<u64> = states.iter().map(|p| p[i].1).collect();
        match name.split_once(VIEW_MARK) {
            None => {
                let without = distinct(states, |n| exact(n) && n != name);
                println!("| {name} | {} | {without} | |", values.len());
            }
            Some((of, _)) => {
                let replaced = distinct(states, |n| (exact(n) && n != of) || n == name);
                println!("| {name} | {} | | {replaced} |", values.len());
            }
        }
    }
    for view in ["turns", "blocks"] {
        let lead = format!("lead.conversation{VIEW_MARK}{view}");
        let mates = format!("teammates.conversation{VIEW_MARK}{view}");
        let both = distinct(states, |n| (exact(n) && !n.ends_with(".conversation")) || n == lead || n == mates);
        println!("every conversation as its {view} multiset: {both} distinct states");
    }
    // How many orders/batchings of the same blocks the lead's conversation
    // takes, at most and on average, among states otherwise alike.
    let lead = names.iter().position(|n| n == "lead.conversation").expect("a lead part");
    let blocks = names.iter().position(|n| *n == format!("lead.conversation{VIEW_MARK}blocks")).expect("a lead view");
    let mut by_blocks: HashMap<u64, HashSet<u64>> = HashMap::new();
    for p in states {
        by_blocks.entry(p[blocks].1).or_default().insert(p[lead].1);
    }
    let most = by_blocks.values().map(HashSet::len).max().unwrap_or(0);
    let total: usize = by_blocks.values().map(HashSet::len).sum();
    println!(
        "the lead's conversations: {total} in order, {} as block multisets; at most {most} orders/batchings of one multiset",
        by_blocks.len()
    );
}
