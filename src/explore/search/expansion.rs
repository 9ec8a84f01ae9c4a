//! Expanding states: every move from a state, each child with its hash
//! (`expand`), and a level's states expanded on several threads in
//! order (`expand_level`). Owns no visited set: what was seen before is
//! the caller's (`Claims`, `Found`).

#[cfg(not(target_arch = "wasm32"))]
use crate::explore::claims::Claims;
use crate::explore::{ExploreConfig, ExploreError, Node, Step};

/// The states one move leads to, each with its hash and what the move found.
pub(super) type Expanded = Vec<(u64, Box<Node>, Step)>;

/// A state one move leads to, waiting to be visited; `None` where it is
/// known already and only to be counted (`expand_level`).
pub(super) type Child = (u64, Option<Box<Node>>, Step);

/// A state of a level, with its hash, waiting to be expanded.
pub(super) type Waiting = (u64, Box<Node>);

/// The children of a chunk of a level, in order, or why its expansion
/// stopped.
#[cfg(not(target_arch = "wasm32"))]
pub(super) type ChunkResult = Result<Vec<Child>, ExploreError>;

/// Every move from `node`, each with its hash.
pub(super) fn expand(node: &Node, config: &ExploreConfig) -> Result<Expanded, ExploreError> {
    let choices = node.choices(config);
    let mut out = Vec::with_capacity(choices.len());
    for choice in &choices {
        let (child, step) = node.after(choice, config)?;
        // Boxed: a state is moved from list to list, and a world is large.
        out.push((child.state_hash(config), Box::new(child), step));
    }
    Ok(out)
}

/// The fewest states per thread for which a level is shared between
/// threads: below it, sharing costs more than it saves (measured: a
/// 67-state search ran 2.4 times slower on two threads; on shutdown with 2
/// faults, whose levels hold 27 states at most, sharing every level of 4 or
/// more took 2.4 ms instead of 1.9, and helper threads kept for a whole
/// step, woken per level, 2.3 ms; README, "The explorer's speed").
#[cfg(not(target_arch = "wasm32"))]
pub(super) const PER_THREAD: usize = 32;

/// Expands a level's states on `threads` threads; the result is in the
/// level's order whatever the thread count. The level is cut into many
/// small chunks that the threads take in turn as they finish one (states
/// differ in how many moves they have and how dear each is, so halves of a
/// level would keep one core waiting for the other), and each thread drops
/// the states it expanded, which the level no longer needs. Each thread
/// also drops the children that `claims` (which stand still meanwhile)
/// already hold, and the ones it already returned, keeping only their place
/// (`None`): `Found::visit` would only count them. So they are dropped on
/// the thread that made them, and the level's duplicates neither wait in
/// memory nor travel between cores. States `claims` ceded to another
/// worker are dropped unexpanded.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn expand_level(
    level: Vec<Waiting>,
    config: &ExploreConfig,
    claims: &Claims,
    threads: usize,
) -> Result<Vec<Child>, ExploreError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads = threads.max(1);
    let size = level.len().div_ceil(threads * CHUNKS_PER_THREAD).max(1);
    let mut chunks: Vec<Mutex<Vec<Waiting>>> = Vec::new();
    let mut level = level.into_iter();
    loop {
        let chunk: Vec<_> = level.by_ref().take(size).collect();
        if chunk.is_empty() {
            break;
        }
        chunks.push(Mutex::new(chunk));
    }
    let next = AtomicUsize::new(0);
    // The chunks one thread expanded, each with its place in the level.
    let work = || {
        let mut returned = std::collections::HashSet::new();
        let mut done: Vec<(usize, ChunkResult)> = Vec::new();
        loop {
            let place = next.fetch_add(1, Ordering::Relaxed);
            let Some(chunk) = chunks.get(place) else { break };
            let part = std::mem::take(&mut *chunk.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
            done.push((place, expand_chunk(part, config, claims, &mut returned)));
        }
        done
    };
    let mut done: Vec<(usize, ChunkResult)> = Vec::new();
    std::thread::scope(|scope| {
        // The calling thread is one of the `threads`.
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        done.extend(work());
        for helper in helpers {
            done.extend(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
    });
    done.sort_unstable_by_key(|(place, _)| *place);
    let mut out = Vec::new();
    for (_, part) in done {
        out.extend(part?);
    }
    Ok(out)
}

/// Expands one chunk of a level (see [`expand_level`]): its children in
/// order, those `claims` hold or `returned` has seen kept only as a place.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn expand_chunk(
    part: Vec<Waiting>,
    config: &ExploreConfig,
    claims: &Claims,
    returned: &mut std::collections::HashSet<u64>,
) -> ChunkResult {
    let mut out = Vec::new();
    for (hash, node) in part {
        if !claims.ours(hash) {
            continue;
        }
        for (hash, child, step) in expand(&node, config)? {
            if claims.would_claim(hash, child.path.len() as u32) && returned.insert(hash) {
                out.push((hash, Some(child), step));
            } else {
                out.push((hash, None, Step::default()));
            }
        }
    }
    Ok(out)
}

/// How many chunks a level shared between threads is cut into, per thread.
#[cfg(not(target_arch = "wasm32"))]
pub(super) const CHUNKS_PER_THREAD: usize = 16;

pub(super) fn threads(config: &ExploreConfig) -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    if config.threads == 0 {
        return std::thread::available_parallelism().map_or(1, usize::from);
    }
    config.threads.max(1)
}
