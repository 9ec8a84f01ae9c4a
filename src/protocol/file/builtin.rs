//! The built-in protocol files: the lesson's protocols and plan gate
//! (`lesson.toml`), the page's scenarios plus respawn, the scale demo and
//! the explorer's benchmark family `team-N` as team files (`teams/*.toml`), and the examples
//! (`examples/*.toml`), all compiled in.
//!
//! Owns the texts and their names, and keeps the lesson file once built
//! (`lesson`): from `lesson_compiled` (what loading `LESSON_USE` gives,
//! written as Rust and checked against the loader by `lesson_codegen`'s
//! test), so neither the page nor the explorer parses it to start.
//! Loading the texts is `file::load`'s job.

use std::sync::{Arc, OnceLock};

use super::model::ProtocolFile;
use super::Refusals;

/// The lesson's two protocols and the plan gate (`use = ["lesson"]`).
pub const LESSON: &str = include_str!("lesson.toml");

/// The file of the lesson's protocols alone: what `lesson` is the loaded
/// form of (and the text its `ProtocolFile::text` holds).
pub const LESSON_USE: &str = "format = 1\nuse = [\"lesson\"]\n";

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

/// The lesson's protocols and gate, loaded (marked built in): a copy of
/// `lesson_shared`. Never refused (the compiled form is checked against
/// the loader in the tests); the `Result` is the loader's, for callers
/// that also load other files.
pub fn lesson() -> Result<ProtocolFile, Refusals> {
    Ok(ProtocolFile::clone(lesson_shared()))
}

/// The lesson's protocols and gate, built once per program (from
/// `lesson_compiled`, without parsing) and shared: the engine's protocol
/// set and the lesson's tool set hold this one value (`Arc::clone`), so
/// the lesson is neither built nor copied twice.
pub fn lesson_shared() -> &'static Arc<ProtocolFile> {
    static BUILT: OnceLock<Arc<ProtocolFile>> = OnceLock::new();
    BUILT.get_or_init(|| Arc::new(super::lesson_compiled::lesson()))
}

/// The built-in team file with this id.
pub fn team(id: &str) -> Option<&'static str> {
    TEAMS.iter().find(|(i, _)| *i == id).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::file::load;

    #[test]
    fn the_lesson_is_loaded_once_and_is_what_loading_its_file_gives() {
        let (a, b) = (lesson_shared(), lesson_shared());
        assert!(Arc::ptr_eq(a, b), "loaded twice");
        assert_eq!(**a, load(LESSON_USE).unwrap());
        assert_eq!(lesson().unwrap(), **a, "a copy is the shared value");
    }
}
