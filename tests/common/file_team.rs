//! A protocol file's own team run offline, as the page and the explorer
//! start it (`explore::file_team::file_team_run`): the world under the
//! file, its fault rules and rules, each prompt run turn by turn to quiet
//! or to a bound on turns, every model call answered by the caller's
//! replies (the scripted model playing the file, a provider over a fake
//! wire, or a reply with a slip in it).
//!
//! Owns test plumbing only: what a test asserts about the run stays in
//! the test.

use std::sync::Arc;

use team_protocols::explore::file_team::{file_team_run, FileTeamError, FileTeamRun};
use team_protocols::model::{ModelError, ModelRequest, ModelResponse};
use team_protocols::protocol::file::ProtocolFile;
use team_protocols::protocol::{AgentName, FaultPlan};
use team_protocols::runtime::scheduler::Mode;
use team_protocols::runtime::world::{Next, TimeSource, World};

/// The world `run` starts in: its config, fault plan `faults` and the
/// file's rules, nothing submitted yet.
pub(crate) fn world_of(run: &FileTeamRun, faults: FaultPlan) -> World {
    let mut world = World::new(run.config.clone(), Mode::Live, TimeSource::Virtual);
    world.set_faults(faults);
    world.set_rules(run.rules);
    world
}

/// Submits each of `prompts` to `world` in turn and runs it until the
/// world goes quiet or `max_turns` turns have begun, each model call
/// answered by `reply(agent, request)`. Whether every prompt was taken and
/// went quiet within the bound.
pub(crate) fn run_prompts(
    world: &mut World,
    prompts: &[String],
    max_turns: usize,
    mut reply: impl FnMut(&AgentName, &ModelRequest) -> Result<ModelResponse, ModelError>,
) -> bool {
    let mut quiet = true;
    for prompt in prompts {
        if world.submit_prompt(prompt).is_err() {
            return false;
        }
        let mut went_quiet = false;
        for _ in 0..max_turns {
            if world.begin().is_none() {
                went_quiet = true;
                break;
            }
            while let Next::CallModel { agent } = world.proceed() {
                let Some(request) = world.model_request(&agent) else { break };
                world.model_returned(&agent, reply(&agent, &request));
            }
        }
        quiet &= went_quiet;
    }
    quiet
}

/// The run of `file`'s team with `seed`, the scripted model playing the
/// file: the world, and whether every prompt's run went quiet within
/// `max_turns` turns.
pub(crate) fn run_file_team(file: Arc<ProtocolFile>, seed: u64, max_turns: usize) -> Result<(World, bool), FileTeamError> {
    let run = file_team_run(file, seed)?;
    let mut world = world_of(&run, run.faults.clone());
    let model = run.model.clone();
    let quiet = run_prompts(&mut world, &run.prompts, max_turns, |_, request| Ok(model.respond(request)));
    Ok((world, quiet))
}
