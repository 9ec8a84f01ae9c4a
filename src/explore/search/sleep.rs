//! The partial-order reduction's sleep sets (`Por`, `expand_reduced`):
//! which moves a state need not explore because another order of
//! commuting moves reaches the same states (README, "Partial-order
//! reduction"). Owns the sleep sets; the footprints that say what
//! commutes are `Node`'s.

use crate::explore::claims::ByHash;
use crate::explore::node::Footprint;
use crate::explore::{Choice, ExploreConfig, ExploreError, Node, Step};
use crate::protocol::AgentName;

/// A sleep set (Godefroid): moves already explored from an earlier state
/// or a sibling, each with its footprint there, that commute with every
/// move made since: exploring one here would only reach, in the other
/// order, states the search reaches anyway. Only turns without a fault go
/// to sleep.
pub(super) type Sleep = Vec<(Choice, Footprint)>;

/// The sleep sets of the states visited (`ExploreConfig::reduction`).
/// A state reached again with a sleep set that lacks some of its stored
/// one's moves explores those moves then (the stored set becomes the
/// intersection), so state caching loses no state.
#[derive(Default)]
pub(super) struct Por {
    /// Each state's sleep set, and whether it has been expanded.
    pub(super) sleeps: ByHash<(Sleep, bool)>,
    /// Moves of an expanded state to explore when it comes up again.
    pub(super) again: ByHash<Vec<Choice>>,
    /// The bytes the sleep sets' and the moves' own lists hold, kept up
    /// to date as they change (`Por::bytes` adds the tables).
    pub(super) lists: u64,
}

/// The bytes one move asleep holds, as the memory bound counts them: its
/// place in a sleep set and its footprint's lists.
pub(super) fn asleep_bytes(sleep: &Sleep) -> u64 {
    sleep.iter().map(|(_, f)| (std::mem::size_of::<(Choice, Footprint)>() + f.list_bytes()) as u64).sum()
}

impl Por {
    /// The bytes the reduction's bookkeeping holds, as the memory bound
    /// counts them (`Bound::Memory`): each table's buckets (an entry and a
    /// control byte), every sleep set's moves with their footprints' lists,
    /// and the moves waiting to be explored again. Choices' and names'
    /// own texts are not counted.
    pub(super) fn bytes(&self) -> u64 {
        let table = |capacity: usize, entry: usize| (capacity * (entry + 1)) as u64;
        table(self.sleeps.capacity(), std::mem::size_of::<(u64, (Sleep, bool))>())
            + table(self.again.capacity(), std::mem::size_of::<(u64, Vec<Choice>)>())
            + self.lists
    }

    /// Stores the sleep set of a state seen for the first time.
    pub(super) fn insert(&mut self, hash: u64, sleep: Sleep) {
        self.lists += asleep_bytes(&sleep);
        if let Some((old, _)) = self.sleeps.insert(hash, (sleep, false)) {
            self.lists -= asleep_bytes(&old);
        }
    }

    /// What to explore of state `hash`: its sleep set, and the only moves
    /// to explore when it was expanded before (`None`: nothing to do).
    pub(super) fn take(&mut self, hash: u64) -> Option<(Sleep, Option<Vec<Choice>>)> {
        let (sleep, expanded) = self.sleeps.entry(hash).or_default();
        if !*expanded {
            *expanded = true;
            return Some((sleep.clone(), None));
        }
        let only = self.again.remove(&hash)?;
        self.lists -= (only.len() * std::mem::size_of::<Choice>()) as u64;
        Some((sleep.clone(), Some(only)))
    }

    /// State `hash`, known already, reached again with sleep set `sleep`:
    /// true when it must be expanded again for the moves its stored sleep
    /// set had and this one lacks.
    pub(super) fn revisit(&mut self, hash: u64, sleep: &Sleep) -> bool {
        let Some((stored, expanded)) = self.sleeps.get_mut(&hash) else { return false };
        let asleep = |c: &Choice| sleep.iter().any(|(s, _)| s == c);
        let missing: Vec<Choice> = stored.iter().filter(|(c, _)| !asleep(c)).map(|(c, _)| c.clone()).collect();
        if missing.is_empty() {
            return false;
        }
        let before = asleep_bytes(stored);
        stored.retain(|(c, _)| asleep(c));
        self.lists = self.lists - before + asleep_bytes(stored);
        if !*expanded {
            return false;
        }
        self.lists += (missing.len() * std::mem::size_of::<Choice>()) as u64;
        let again = self.again.entry(hash).or_default();
        let first = again.is_empty();
        again.extend(missing);
        first
    }
}

/// A child of a reduced expansion: its hash, node, what the move found,
/// and its sleep set.
pub(super) type Reduced = (u64, Box<Node>, Step, Sleep);

/// The agent a move belongs to.
pub(super) fn mover(choice: &Choice) -> Option<&AgentName> {
    match choice {
        Choice::Turn { agent, .. } | Choice::Reply { agent, .. } => Some(agent),
        Choice::Expire { .. } => None,
    }
}

/// The moves of `node` that are not asleep (or only `only`), each child
/// with its hash, what the move found and the child's sleep set: the moves
/// asleep here and the siblings explored before it that commute with the
/// move (another agent's, disjoint footprints). While messages are held
/// (their release waits on the clock every move moves) nothing goes to
/// sleep, nor does a turn the move did not end (its model call waits for
/// one of several replies).
pub(super) fn expand_reduced(
    node: &Node,
    sleep: &Sleep,
    only: Option<&[Choice]>,
    config: &ExploreConfig,
) -> Result<Vec<Reduced>, ExploreError> {
    let quiet = node.world.team().held().is_empty();
    let mut done: Sleep = Vec::new();
    let mut out = Vec::new();
    for choice in node.choices(config) {
        let explore = match only {
            Some(only) => only.contains(&choice),
            None => !sleep.iter().any(|(c, _)| *c == choice),
        };
        if !explore {
            continue;
        }
        let (child, step) = node.after(&choice, config)?;
        let turn = matches!(choice, Choice::Turn { fault: None, .. });
        let mut next = Sleep::new();
        if quiet && (turn || matches!(choice, Choice::Reply { .. })) {
            let me = mover(&choice);
            next = sleep.iter().chain(done.iter()).filter(|(c, f)| mover(c) != me && f.disjoint(&step.touched)).cloned().collect();
        }
        // A turn goes to sleep for its later siblings only when the move
        // ended it: a turn that leaves its model call waiting for one of
        // several replies holds the baton (no other agent moves until the
        // reply) and its footprint does not yet hold what the reply does,
        // so it commutes with nothing known (README, "Partial-order
        // reduction": the states it lost before).
        let whole = child.world.awaiting_model().is_none();
        if turn && quiet && whole {
            done.push((choice, step.touched.clone()));
        }
        out.push((child.state_hash(config), Box::new(child), step, next));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(agent: &str) -> Choice {
        Choice::Turn { agent: AgentName::parse(agent).expect("a name"), fault: None }
    }

    /// The bytes of every list `por` holds, counted anew.
    fn recount(por: &Por) -> u64 {
        let sleeps: u64 = por.sleeps.values().map(|(s, _)| asleep_bytes(s)).sum();
        let again: u64 = por.again.values().map(|v| (v.len() * std::mem::size_of::<Choice>()) as u64).sum();
        sleeps + again
    }

    #[test]
    fn the_sleep_sets_are_weighed_as_they_grow_and_shrink() {
        let mut por = Por::default();
        let empty = por.bytes();
        let asleep: Sleep = vec![(turn("c1"), Footprint::everything()), (turn("c2"), Footprint::default())];
        por.insert(1, asleep.clone());
        por.insert(2, asleep.clone());
        assert_eq!(por.lists, recount(&por));
        assert!(por.bytes() > empty, "sleep sets weigh something");
        // State 1 is expanded, then reached again with c2 awake: c2 is to be
        // explored from it again, and its sleep set shrinks.
        assert!(por.take(1).is_some());
        assert!(por.revisit(1, &vec![asleep[0].clone()]));
        assert_eq!(por.lists, recount(&por));
        let (_, only) = por.take(1).expect("c2 again");
        assert_eq!(only, Some(vec![turn("c2")]));
        assert_eq!(por.lists, recount(&por));
        // A state stored again replaces its sleep set's weight.
        por.insert(2, Vec::new());
        assert_eq!(por.lists, recount(&por));
    }
}
