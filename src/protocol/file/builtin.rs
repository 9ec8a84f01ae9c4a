//! The built-in protocol files: the lesson's protocols and plan gate
//! (`lesson.toml`), the page's scenarios plus respawn, the scale demo and
//! the explorer's benchmark family `team-N` as team files (`teams/*.toml`), and the examples
//! (`examples/*.toml`), all compiled in.
//!
//! Owns the texts and their names, and keeps the lesson file once loaded
//! (`lesson`). Loading them is `file::load`'s job.

use std::sync::{Arc, OnceLock};

use super::model::ProtocolFile;
use super::{load, Refusals};

/// The lesson's two protocols and the plan gate (`use = ["lesson"]`).
pub const LESSON: &str = include_str!("lesson.toml");

/// The built-in teams, by id: the six page scenarios, respawn, scale, and
/// the scaling benchmark `team-1` … `team-5` (a lead and N teammates in plan
/// mode, each plan approved, then each asked to shut down).
pub const TEAMS: [(&str, &str); 13] = [
    ("shutdown", include_str!("teams/shutdown.toml")),
    ("list-after-shutdown", include_str!("teams/list-after-shutdown.toml")),
    ("reject-plan", include_str!("teams/reject-plan.toml")),
    ("approve-plan", include_str!("teams/approve-plan.toml")),
    ("reject-then-accept", include_str!("teams/reject-then-accept.toml")),
    ("out-of-order", include_str!("teams/out-of-order.toml")),
    ("respawn", include_str!("teams/respawn.toml")),
    ("scale", include_str!("teams/scale.toml")),
    ("team-1", include_str!("teams/team-1.toml")),
    ("team-2", include_str!("teams/team-2.toml")),
    ("team-3", include_str!("teams/team-3.toml")),
    ("team-4", include_str!("teams/team-4.toml")),
    ("team-5", include_str!("teams/team-5.toml")),
];

/// The examples, by name: (a) a deadline and a retry, (b) a
/// permission request nobody answers (refused unless `responder_required`
/// is off, and with it off), (c) a task claim, (d) a status report with a
/// deadline, the contract's own review-gate example, and properties of the
/// lesson's protocols that the explorer checks on the built-in scenarios.
pub const EXAMPLES: [(&str, &str); 7] = [
    ("deadline-retry", include_str!("examples/deadline-retry.toml")),
    ("permission-no-responder", include_str!("examples/permission-no-responder.toml")),
    ("permission-rule-off", include_str!("examples/permission-rule-off.toml")),
    ("task-claim", include_str!("examples/task-claim.toml")),
    ("status-report", include_str!("examples/status-report.toml")),
    ("review-gate", include_str!("examples/review-gate.toml")),
    ("lesson-properties", include_str!("examples/lesson-properties.toml")),
];

/// The lesson's protocols and gate, loaded (marked built in). Loaded once
/// per program and copied after that: the engine's protocol set and the
/// lesson's tool set each ask for it at start-up, and a load (parsing the
/// TOML, validating, resolving names) costs far more than a copy.
pub fn lesson() -> Result<ProtocolFile, Refusals> {
    lesson_shared().map(|f| ProtocolFile::clone(f)).map_err(Refusals::clone)
}

/// The lesson's protocols and gate, loaded once per program and shared:
/// the engine's protocol set and the lesson's tool set hold this one value
/// (`Arc::clone`), so the lesson is neither loaded nor copied twice.
pub fn lesson_shared() -> Result<&'static Arc<ProtocolFile>, &'static Refusals> {
    static LOADED: OnceLock<Result<Arc<ProtocolFile>, Refusals>> = OnceLock::new();
    LOADED.get_or_init(|| load("format = 1\nuse = [\"lesson\"]\n").map(Arc::new)).as_ref()
}

/// The built-in team file with this id.
pub fn team(id: &str) -> Option<&'static str> {
    TEAMS.iter().find(|(i, _)| *i == id).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lesson_is_loaded_once_and_is_what_loading_its_file_gives() {
        let (a, b) = (lesson_shared().unwrap(), lesson_shared().unwrap());
        assert!(Arc::ptr_eq(a, b), "loaded twice");
        assert_eq!(**a, load("format = 1\nuse = [\"lesson\"]\n").unwrap());
        assert_eq!(lesson().unwrap(), **a, "a copy is the shared value");
    }
}
