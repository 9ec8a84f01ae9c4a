//! Where a search's memory goes: runs one search (as `explore --threads 1`
//! does, sleep sets on) under a counting allocator and prints the heap's
//! peak beside what the memory bound counts (`peak_memory_bytes`) and the
//! widest frontier; then, on the states of one breadth-first level, the
//! heap one state waiting to be expanded holds beyond what it shares with
//! its parent (its children kept, its parent dropped), and the sizes of
//! what a node holds inline.
//!
//! `cargo run --release --example node_bytes -- SCENARIO FAULTS MAX_STATES [LEVEL]`
//! (a built-in team file such as `team-3` as `explore` loads it; LEVEL,
//! default 12, is the breadth-first level whose children are weighed).

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashSet;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;

use team_protocols::explore::file_team::{scenario_of, team_config};
use team_protocols::explore::{explore_with, Choice, ExploreConfig, Node, Path};
use team_protocols::protocol::file::{self, builtin};
use team_protocols::runtime::world::World;

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed) + layout.size() as isize;
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: node_bytes SCENARIO FAULTS MAX_STATES [LEVEL]";
    let scenario = args.next().expect(usage);
    let faults: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let max_states: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let level: usize = args.next().map_or(12, |a| a.parse().expect(usage));
    let mut config = match builtin::team(&scenario).filter(|_| team_protocols::runtime::scenarios::explorable(&scenario).is_none()) {
        Some(text) => {
            let mut config = team_config(Arc::new(file::load(text).expect("the built-in team file loads"))).expect("it has a team");
            config.compile_team_properties().expect("its properties compile");
            config
        }
        None => ExploreConfig::new(&scenario),
    };
    config.max_faults = faults;
    config.threads = 1;
    config.reduction = true;
    config.max_states = max_states;

    let before = live();
    PEAK.store(before, Ordering::Relaxed);
    let mut widest = 0usize;
    let report = explore_with(&config, &mut |p| widest = widest.max(p.frontier)).expect("the scenario explores");
    let peak = PEAK.load(Ordering::Relaxed) - before;
    println!(
        "search: {} states, {} distinct, depth {}; heap peak {:.1} MiB, counted (peak_memory_bytes) {:.1} MiB, widest frontier {}",
        report.states,
        report.distinct_states,
        report.depth,
        peak as f64 / 1048576.0,
        report.peak_memory as f64 / 1048576.0,
        widest
    );
    println!(
        "  heap per distinct state {:.0} B; per state of the widest frontier, were it all {:.0} B",
        peak as f64 / report.distinct_states.max(1) as f64,
        peak as f64 / widest.max(1) as f64
    );
    println!(
        "inline: Node {} B, World {} B, Choice {} B",
        std::mem::size_of::<Node>(),
        std::mem::size_of::<World>(),
        std::mem::size_of::<Choice>()
    );

    // One breadth-first level, distinct states only, then its children.
    let scenario = scenario_of(&config).expect("the scenario is known");
    let (root, _) = Node::start(scenario, &config, false).expect("it starts");
    let mut seen = HashSet::new();
    let mut states = vec![root];
    for _ in 0..level {
        let mut next = Vec::new();
        for node in &states {
            for choice in node.choices(&config) {
                let (child, _) = node.after(&choice, &config).expect("a move");
                if seen.insert(child.state_hash(&config)) {
                    next.push(child);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        states = next;
    }
    let parents = states.len();
    let held = live();
    let mut children = Vec::new();
    for node in &states {
        for choice in node.choices(&config) {
            let (child, _) = node.after(&choice, &config).expect("a move");
            children.push(Box::new(child));
        }
    }
    let with_children = live();
    drop(states);
    let without_parents = live();
    let n = children.len().max(1) as f64;
    // What a copy of each part costs (the copy a move starts from).
    let weigh = |copy: &dyn Fn(&Node) -> Box<dyn std::any::Any>| {
        let at = live();
        let copies: Vec<_> = children.iter().map(|c| copy(c)).collect();
        let bytes = live() - at;
        drop(copies);
        bytes as f64 / children.len().max(1) as f64
    };
    println!(
        "a copy of a child: the node {:.0} B, its world {:.0} B, the world's team {:.0} B (state {:.0} B, trace {:.0} B)",
        weigh(&|c| Box::new(c.clone())),
        weigh(&|c| Box::new(c.world.clone())),
        weigh(&|c| Box::new(c.world.team().clone())),
        weigh(&|c| Box::new(c.world.team().state().clone())),
        weigh(&|c| Box::new(c.world.team().trace().clone())),
    );
    println!(
        "level {level}: {parents} states, {} children: each child adds {:.0} B while its parent is held (its path's own link {} B); \
         dropping the parents frees {:.0} B per parent",
        children.len(),
        (with_children - held) as f64 / n,
        Path::link_bytes(),
        (with_children - without_parents) as f64 / parents.max(1) as f64,
    );
}
