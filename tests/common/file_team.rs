//! A protocol file's own team run offline, as the page and the explorer
//! start it (`explore::file_team::file_team_run`): the world under the
//! file, its fault rules and rules, each prompt run turn by turn with the
//! scripted model playing the file, to quiet or to a bound on turns.
//!
//! Owns test plumbing only: what a test asserts about the run stays in
//! the test.

use std::sync::Arc;

use team_protocols::explore::file_team::{file_team_run, FileTeamError};
use team_protocols::protocol::file::ProtocolFile;
use team_protocols::runtime::scheduler::Mode;
use team_protocols::runtime::world::{Next, TimeSource, World};

/// The run of `file`'s team with `seed`: every prompt submitted in turn and
/// run until the world goes quiet or `max_turns` turns have begun. The
/// world, and whether every prompt's run went quiet within the bound.
pub(crate) fn run_file_team(file: Arc<ProtocolFile>, seed: u64, max_turns: usize) -> Result<(World, bool), FileTeamError> {
    let run = file_team_run(file, seed)?;
    let mut world = World::new(run.config, Mode::Live, TimeSource::Virtual);
    world.set_faults(run.faults);
    world.set_rules(run.rules);
    let mut quiet = true;
    for prompt in &run.prompts {
        if world.submit_prompt(prompt).is_err() {
            return Ok((world, false));
        }
        let mut went_quiet = false;
        for _ in 0..max_turns {
            if world.begin().is_none() {
                went_quiet = true;
                break;
            }
            while let Next::CallModel { agent } = world.proceed() {
                let Some(request) = world.model_request(&agent) else { break };
                world.model_returned(&agent, Ok(run.model.respond(&request)));
            }
        }
        quiet &= went_quiet;
    }
    Ok((world, quiet))
}
