//! A run of a protocol file's own team: the world's configuration under
//! the file, the team's prompts and the scripted model that plays the
//! file (its lead follows the team's steps, its teammates work their
//! tasks and answer as the file's `scripted` says) — what the explorer and
//! the page start a file's team from, offline.
//!
//! Owns only putting those three together; running them is the world's
//! and the runtime's job, deciding the scripted model's. It lives in
//! `explore`, not `runtime`: it names a concrete model, and the runtime
//! reaches models only through the `Model` trait.

use std::sync::Arc;

use crate::model::scripted::FileScriptedModel;
use crate::protocol::file::{MessageTypeRef, ProtocolFile, Side};
use crate::protocol::{FaultPlan, FaultRule, MessageType, ProtocolSet, Rules};
use crate::runtime::scenarios::{self, Scenario};
use crate::runtime::world::WorldConfig;

/// Why a file's team cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileTeamError {
    /// The file has no `[team]`.
    #[error("the protocol file has no [team] to run")]
    NoTeam,
}

/// Everything a run of a file's team starts from.
#[derive(Debug, Clone)]
pub struct FileTeamRun {
    /// The world's configuration, under the file's protocols.
    pub config: WorldConfig,
    /// The team's prompts, submitted one after another.
    pub prompts: Vec<String>,
    /// The scripted model playing the file.
    pub model: FileScriptedModel,
    /// The team's fault rules (`World::set_faults`).
    pub faults: FaultPlan,
    /// The protective rules the team leaves on (`World::set_rules`).
    pub rules: Rules,
}

/// The search of `file`'s own team with the default bounds: its id as the
/// scenario's, its protective rules, the file as `ExploreConfig::team` (as
/// `explore --file FILE` and `explore --scenario team-3` search it). The
/// file's own `[[property]]` entries are the caller's to compile.
pub fn team_config(file: Arc<ProtocolFile>) -> Result<crate::explore::ExploreConfig, FileTeamError> {
    let team = file.team.as_ref().ok_or(FileTeamError::NoTeam)?;
    let mut config = crate::explore::ExploreConfig::new(&team.id);
    config.rules = team.rules.rules;
    config.team = Some(Arc::clone(&file));
    Ok(config)
}

/// What stands for the scenario when a file's own team is explored (the
/// team brings its prompts: `Node::start`), as the search names it.
pub const FILE_TEAM: Scenario = Scenario { id: "file-team", title: "a protocol file's own team", prompts: &[] };

/// The scenario a search, a replay or a fork of `config` starts from:
/// `FILE_TEAM` for a file's own team, else the explorable scenario
/// `config.scenario` names.
pub fn scenario_of(config: &crate::explore::ExploreConfig) -> Result<Scenario, crate::explore::ExploreError> {
    match &config.team {
        Some(_) => Ok(FILE_TEAM),
        None => {
            scenarios::explorable(&config.scenario).ok_or_else(|| crate::explore::ExploreError::UnknownScenario(config.scenario.clone()))
        }
    }
}

/// The run of `file`'s team with `seed` (the lesson's limits).
pub fn file_team_run(file: Arc<ProtocolFile>, seed: u64) -> Result<FileTeamRun, FileTeamError> {
    let team = file.team.as_ref().ok_or(FileTeamError::NoTeam)?;
    let prompts = team.prompts.clone();
    let config = WorldConfig {
        team_name: "default".into(),
        seed,
        max_rounds: 50,
        lead_max_rounds: 50,
        max_tokens: 8000,
        protocols: Some(Arc::clone(&file)),
    };
    let set = ProtocolSet::new(Arc::clone(&file));
    let rules = team
        .faults
        .iter()
        .map(|f| FaultRule {
            action: f.action.clone(),
            msg_type: f.message_type.and_then(|t| match t {
                MessageTypeRef::Message => Some(MessageType::Message),
                MessageTypeRef::Broadcast => Some(MessageType::Broadcast),
                MessageTypeRef::Protocol(ix, Side::Request) => set.request_type(ix),
                MessageTypeRef::Protocol(ix, Side::Response) => set.response_type(ix),
            }),
            from: None,
            to: None,
            probability: f.probability,
        })
        .collect();
    Ok(FileTeamRun {
        config,
        prompts,
        faults: FaultPlan::new(rules),
        rules: team.rules.rules,
        model: FileScriptedModel::playing_team(file),
    })
}
