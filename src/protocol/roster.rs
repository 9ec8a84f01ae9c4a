//! The team roster (the lesson's `config.json`): members with a role, a
//! status `working | idle | shutdown`, and whether they were spawned in plan
//! mode.
//!
//! Owns membership and status rules. Inboxes belong to `bus`; the lead is not
//! a member (as in the lesson) and its name is reserved.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::name::{AgentName, LEAD};

/// Errors from the roster, phrased so they can be handed to a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RosterError {
    /// Spawning a member that is still working.
    #[error("'{0}' is already working; wait until it is idle or shut down, or pick another name")]
    AlreadyWorking(AgentName),
    /// The name `lead` belongs to the lead.
    #[error("the name '{LEAD}' is reserved for the lead; pick another name for a teammate")]
    Reserved,
    /// No member by that name.
    #[error("no teammate named '{0}'")]
    UnknownMember(AgentName),
    /// A shut-down member can only come back through a new spawn.
    #[error("'{0}' has shut down; spawn it again to restart it")]
    Exited(AgentName),
    /// A role must say something.
    #[error("a teammate's role cannot be empty")]
    EmptyRole,
}

/// A member's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberStatus {
    /// Running its loop.
    Working,
    /// Waiting for a message.
    Idle,
    /// Left its loop after an approved shutdown.
    Shutdown,
}

impl MemberStatus {
    /// The status's name.
    pub fn as_str(self) -> &'static str {
        match self {
            MemberStatus::Working => "working",
            MemberStatus::Idle => "idle",
            MemberStatus::Shutdown => "shutdown",
        }
    }
}

impl fmt::Display for MemberStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One teammate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Its name.
    pub name: AgentName,
    /// Its role, e.g. "coder".
    pub role: String,
    /// Its status.
    pub status: MemberStatus,
    /// Whether it was spawned in plan mode: its workspace-changing tools
    /// wait for an approved plan. Its starting configuration only: whether
    /// the gate is open now is the team's gate state (`Team::plan_gate_closed`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub plan_mode: bool,
    /// Which run of this name it is: 1 after its first spawn, one more with
    /// each restart. Derived from the spawns in the trace, never recorded.
    #[serde(default)]
    pub incarnation: u32,
    /// Whether this run approved a request to shut down (it then finishes
    /// its turn and exits: see `Member::is_exiting`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shutdown_approved: bool,
}

impl Member {
    /// True from the moment this run approved its shutdown until it reaches
    /// `shutdown`; a respawn starts a new run that is not exiting.
    pub fn is_exiting(&self) -> bool {
        self.shutdown_approved && self.status != MemberStatus::Shutdown
    }
}

/// A member as `config.json` writes it (`Roster::to_config_json`): its own
/// fields in order, with `plan_approved` read from the team's gates.
#[derive(Serialize)]
struct MemberConfig<'a> {
    name: &'a AgentName,
    role: &'a str,
    status: MemberStatus,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    plan_mode: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    plan_approved: bool,
    incarnation: u32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    shutdown_approved: bool,
}

/// The roster as `config.json` writes it.
#[derive(Serialize)]
struct RosterConfig<'a> {
    team_name: &'a str,
    members: Vec<MemberConfig<'a>>,
}

/// The incarnation of the lead, which is never spawned or restarted.
pub const LEAD_INCARNATION: u32 = 1;

/// The incarnation of a teammate's first run (0 means not spawned yet).
pub const FIRST_INCARNATION: u32 = 1;

/// Whether a spawn made a new member or restarted an existing one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpawnKind {
    /// A name never seen before.
    New,
    /// An idle or shut-down member started again.
    Restart,
}

/// The team: a name and its members in spawn order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roster {
    /// The team's name.
    pub team_name: String,
    /// Members in the order they were first spawned.
    pub members: Vec<Member>,
}

impl Roster {
    /// An empty team.
    pub fn new(team_name: impl Into<String>) -> Self {
        Roster { team_name: team_name.into(), members: Vec::new() }
    }

    /// Checks whether `name` can be spawned, and how.
    pub fn check_spawn(&self, name: &AgentName, role: &str) -> Result<SpawnKind, RosterError> {
        if name.is_lead() {
            return Err(RosterError::Reserved);
        }
        if role.trim().is_empty() {
            return Err(RosterError::EmptyRole);
        }
        match self.get(name) {
            None => Ok(SpawnKind::New),
            Some(m) if m.status == MemberStatus::Working => Err(RosterError::AlreadyWorking(name.clone())),
            Some(_) => Ok(SpawnKind::Restart),
        }
    }

    /// Adds a working member, or restarts an idle or shut-down one.
    pub fn spawn(&mut self, name: &AgentName, role: &str, plan_mode: bool) -> Result<SpawnKind, RosterError> {
        let kind = self.check_spawn(name, role)?;
        let previous = self.get(name).map_or(0, |m| m.incarnation);
        let member = Member {
            name: name.clone(),
            role: role.to_string(),
            status: MemberStatus::Working,
            plan_mode,
            incarnation: previous.saturating_add(1),
            shutdown_approved: false,
        };
        match self.members.iter_mut().find(|m| &m.name == name) {
            Some(existing) => *existing = member,
            None => self.members.push(member),
        }
        Ok(kind)
    }

    /// Checks that `name` may move to `status`, returning its current status.
    pub fn check_status(&self, name: &AgentName, status: MemberStatus) -> Result<MemberStatus, RosterError> {
        let m = self.get(name).ok_or_else(|| RosterError::UnknownMember(name.clone()))?;
        if m.status == MemberStatus::Shutdown && status != MemberStatus::Shutdown {
            return Err(RosterError::Exited(name.clone()));
        }
        Ok(m.status)
    }

    /// Moves `name` to `status`, returning the status it had.
    pub fn set_status(&mut self, name: &AgentName, status: MemberStatus) -> Result<MemberStatus, RosterError> {
        let old = self.check_status(name, status)?;
        self.members.iter_mut().find(|m| &m.name == name).expect("checked above").status = status;
        Ok(old)
    }

    /// Undoes a change to `name`: puts back the member as it was, or
    /// removes it when it did not exist (a new member is always the last).
    pub(crate) fn restore(&mut self, name: &AgentName, before: Option<Member>) {
        match (self.members.iter().position(|m| &m.name == name), before) {
            (Some(i), Some(member)) => self.members[i] = member,
            (Some(i), None) => {
                self.members.remove(i);
            }
            (None, Some(member)) => self.members.push(member),
            (None, None) => {}
        }
    }

    /// Undoes `set_status`: puts back `status`, past the rule that a
    /// shut-down member only returns by spawning.
    pub(crate) fn restore_status(&mut self, name: &AgentName, status: MemberStatus) {
        if let Some(m) = self.members.iter_mut().find(|m| &m.name == name) {
            m.status = status;
        }
    }

    /// Records that `name` approved a request to shut down: it is exiting.
    /// Unknown names are ignored: only members answer shutdown requests.
    pub fn mark_shutdown_approved(&mut self, name: &AgentName) {
        if let Some(m) = self.members.iter_mut().find(|m| &m.name == name) {
            m.shutdown_approved = true;
        }
    }

    /// Undoes `mark_shutdown_approved`.
    pub(crate) fn restore_shutdown_approved(&mut self, name: &AgentName, approved: bool) {
        if let Some(m) = self.members.iter_mut().find(|m| &m.name == name) {
            m.shutdown_approved = approved;
        }
    }

    /// The member with this name.
    pub fn get(&self, name: &AgentName) -> Option<&Member> {
        self.members.iter().find(|m| &m.name == name)
    }

    /// The current incarnation of `name`: `LEAD_INCARNATION` for the lead,
    /// 0 for a name never spawned.
    pub fn incarnation(&self, name: &AgentName) -> u32 {
        if name.is_lead() {
            return LEAD_INCARNATION;
        }
        self.get(name).map_or(0, |m| m.incarnation)
    }

    /// The run of `name` that a request made now is addressed to (or made
    /// by): its current incarnation, or its first for a name not spawned
    /// yet, since a message sent before then waits for that first run.
    pub fn bound_incarnation(&self, name: &AgentName) -> u32 {
        self.incarnation(name).max(FIRST_INCARNATION)
    }

    /// The status of `name`, if it is a member.
    pub fn status(&self, name: &AgentName) -> Option<MemberStatus> {
        self.get(name).map(|m| m.status)
    }

    /// The lesson's `config.json`, each member with `plan_approved: true`
    /// when `plan_approved` says a plan of its run opened its plan gate
    /// (the team's gate state holds that, not the roster:
    /// `Team::config_json`); the text is as it was when the roster kept
    /// the gate.
    pub fn to_config_json(&self, plan_approved: impl Fn(&AgentName) -> bool) -> String {
        let members: Vec<MemberConfig<'_>> = self
            .members
            .iter()
            .map(|m| MemberConfig {
                name: &m.name,
                role: &m.role,
                status: m.status,
                plan_mode: m.plan_mode,
                plan_approved: plan_approved(&m.name),
                incarnation: m.incarnation,
                shutdown_approved: m.shutdown_approved,
            })
            .collect();
        let config = RosterConfig { team_name: &self.team_name, members };
        serde_json::to_string_pretty(&config).expect("roster serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    #[test]
    fn spawning_adds_a_working_member() {
        let mut r = Roster::new("team");
        assert_eq!(r.spawn(&name("alice"), "coder", false), Ok(SpawnKind::New));
        assert_eq!(r.get(&name("alice")).unwrap().status, MemberStatus::Working);
    }

    #[test]
    fn spawning_a_working_name_is_an_error() {
        let mut r = Roster::new("team");
        r.spawn(&name("alice"), "coder", false).unwrap();
        let before = r.clone();
        assert_eq!(r.spawn(&name("alice"), "tester", false), Err(RosterError::AlreadyWorking(name("alice"))));
        assert_eq!(r, before);
    }

    #[test]
    fn spawning_an_idle_or_shutdown_member_restarts_it() {
        for status in [MemberStatus::Idle, MemberStatus::Shutdown] {
            let mut r = Roster::new("team");
            r.spawn(&name("alice"), "coder", false).unwrap();
            r.set_status(&name("alice"), status).unwrap();
            assert_eq!(r.spawn(&name("alice"), "reviewer", true), Ok(SpawnKind::Restart));
            let m = r.get(&name("alice")).unwrap();
            assert_eq!((m.status, m.role.as_str(), m.plan_mode), (MemberStatus::Working, "reviewer", true));
            assert_eq!(r.members.len(), 1, "restart does not duplicate the member");
            assert_eq!((m.incarnation, r.incarnation(&name("alice"))), (2, 2), "a restart is a new incarnation");
        }
    }

    #[test]
    fn lead_is_a_reserved_name() {
        let mut r = Roster::new("team");
        assert_eq!(r.spawn(&name("lead"), "coder", false), Err(RosterError::Reserved));
        assert!(r.members.is_empty());
    }

    #[test]
    fn a_role_is_required() {
        assert_eq!(Roster::new("t").spawn(&name("a"), "  ", false), Err(RosterError::EmptyRole));
    }

    #[test]
    fn status_of_an_unknown_member_is_an_error() {
        let mut r = Roster::new("team");
        assert_eq!(r.set_status(&name("zed"), MemberStatus::Idle), Err(RosterError::UnknownMember(name("zed"))));
    }

    #[test]
    fn a_shutdown_member_only_comes_back_by_spawning() {
        let mut r = Roster::new("team");
        r.spawn(&name("alice"), "coder", false).unwrap();
        r.set_status(&name("alice"), MemberStatus::Shutdown).unwrap();
        assert_eq!(r.set_status(&name("alice"), MemberStatus::Working), Err(RosterError::Exited(name("alice"))));
        assert_eq!(r.status(&name("alice")), Some(MemberStatus::Shutdown));
    }

    #[test]
    fn status_moves_between_working_and_idle() {
        let mut r = Roster::new("team");
        r.spawn(&name("alice"), "coder", false).unwrap();
        assert_eq!(r.set_status(&name("alice"), MemberStatus::Idle), Ok(MemberStatus::Working));
        assert_eq!(r.set_status(&name("alice"), MemberStatus::Working), Ok(MemberStatus::Idle));
    }

    #[test]
    fn config_json_has_the_lesson_shape() {
        let mut r = Roster::new("default");
        r.spawn(&name("alice"), "coder", false).unwrap();
        let v: serde_json::Value = serde_json::from_str(&r.to_config_json(|_| false)).unwrap();
        assert_eq!(v["team_name"], "default");
        assert_eq!(v["members"][0]["name"], "alice");
        assert_eq!(v["members"][0]["role"], "coder");
        assert_eq!(v["members"][0]["status"], "working");
    }
}
