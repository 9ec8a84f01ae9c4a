//! The one scenario runner the native integration tests share: a runtime on
//! the native host (`LocalExecutor`, virtual time, `NoSleep`), its prompts
//! submitted one after another, each run to quiescence, and the checks every
//! caller wants (each run ends by itself, replay rebuilds the live state,
//! nothing stays held on the bus).
//!
//! Owns test plumbing only; what a test asserts about the run stays in the
//! test. Each test binary uses part of it, hence `dead_code` is allowed.
#![allow(dead_code)]

pub(crate) mod file_team;
pub(crate) mod protocol_gen;

use std::rc::Rc;

use team_protocols::model::scripted::ScriptedModel;
use team_protocols::model::sleep::NoSleep;
use team_protocols::model::Model;
use team_protocols::protocol::{FaultAction, FaultPlan, FaultRule, ReplayError, Team, Trace};
use team_protocols::runtime::executor::LocalExecutor;
use team_protocols::runtime::scenarios::Scenario;
use team_protocols::runtime::{Host, Runtime, RuntimeConfig, RuntimeError};

/// The seed the tests use unless they vary it.
pub(crate) const SEED: u64 = 2026;

/// Why a scenario run did not go as every run must.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HarnessError {
    /// The runtime refused a prompt.
    #[error("{scenario}: the prompt {prompt:?} was refused: {error}")]
    Refused {
        /// The scenario's id.
        scenario: &'static str,
        /// The prompt.
        prompt: &'static str,
        /// Why.
        error: RuntimeError,
    },
    /// Work was left running once every task had stalled.
    #[error("{scenario}: the run of {prompt:?} did not end by itself")]
    DidNotEnd {
        /// The scenario's id.
        scenario: &'static str,
        /// The prompt.
        prompt: &'static str,
    },
    /// The trace could not be replayed.
    #[error("{scenario}: the trace does not replay: {error}")]
    Replay {
        /// The scenario's id.
        scenario: &'static str,
        /// Why.
        error: ReplayError,
    },
    /// Replaying the trace gave another state than the live team's.
    #[error("{scenario}: replay does not equal the live state")]
    ReplayDiffers {
        /// The scenario's id.
        scenario: &'static str,
    },
    /// Messages stayed held by faults after the team went quiet.
    #[error("{scenario}: {held} message(s) stay held once the team is quiet")]
    StillHeld {
        /// The scenario's id.
        scenario: &'static str,
        /// How many.
        held: usize,
    },
}

/// The native host, its tasks on `ex`.
pub(crate) fn native_host(ex: &LocalExecutor) -> Host {
    Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) }
}

/// A runtime with `model` and `config` on a new native host, and the
/// executor that runs its tasks.
pub(crate) fn start(config: RuntimeConfig, model: Rc<dyn Model>) -> (LocalExecutor, Runtime) {
    let ex = LocalExecutor::new();
    let rt = Runtime::new(config, model, native_host(&ex));
    (ex, rt)
}

/// Runs every prompt of `scenario` with the scripted model, seed `seed` and
/// fault plan `faults`, each to quiescence; checks that each run ended,
/// that replay rebuilds the live state and that nothing stays held.
pub(crate) fn try_run_scenario(scenario: Scenario, seed: u64, faults: FaultPlan) -> Result<(Runtime, Trace), HarnessError> {
    let (ex, rt) = start(RuntimeConfig { seed, faults, ..RuntimeConfig::default() }, Rc::new(ScriptedModel));
    let id = scenario.id;
    for &prompt in scenario.prompts {
        rt.submit_prompt(prompt).map_err(|error| HarnessError::Refused { scenario: id, prompt, error })?;
        ex.run_until_stalled();
        if rt.is_running() {
            return Err(HarnessError::DidNotEnd { scenario: id, prompt });
        }
    }
    let trace = rt.trace();
    let replayed = Team::replay(&trace).map_err(|error| HarnessError::Replay { scenario: id, error })?;
    if rt.with_team(|t| t.state() != replayed.state()) {
        return Err(HarnessError::ReplayDiffers { scenario: id });
    }
    let held = rt.with_team(|t| t.held().len());
    if held > 0 {
        return Err(HarnessError::StillHeld { scenario: id, held });
    }
    Ok((rt, trace))
}

/// `try_run_scenario`, panicking with the reason if the run went wrong.
pub(crate) fn run_scenario(scenario: Scenario, seed: u64, faults: FaultPlan) -> (Runtime, Trace) {
    try_run_scenario(scenario, seed, faults).unwrap_or_else(|e| panic!("{e}"))
}

/// The trace of `scenario` with the default seed and no faults.
pub(crate) fn scenario_trace(scenario: Scenario) -> Trace {
    run_scenario(scenario, SEED, FaultPlan::default()).1
}

/// The fault plan a property test draws: `kind` 0 is none, then a drop, a
/// duplicate, a 400 ms delay or a reorder, each at `probability`.
pub(crate) fn fault_plan(kind: u8, probability: f64) -> FaultPlan {
    let action = match kind {
        0 => return FaultPlan::default(),
        1 => FaultAction::Drop,
        2 => FaultAction::Duplicate,
        3 => FaultAction::Delay { ms: 400 },
        _ => FaultAction::Reorder,
    };
    FaultPlan::new(vec![FaultRule { probability, ..FaultRule::new(action) }])
}
