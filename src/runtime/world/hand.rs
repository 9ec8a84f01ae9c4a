//! What a person does to a running team: a prompt for the lead, an answer
//! to a pending request as its addressee (with or without typed fields), a
//! plain message as any agent. Work started while the team is quiet is a
//! run of its own, judged like any run.
//!
//! Owns those entries only; they change the team through the same paths a
//! model's tool call takes (`protocol::Team`, `World::answered`).

use super::World;
use crate::protocol::{AgentName, RequestId, RequestStatus, TeamError};
use crate::runtime::RuntimeError;

impl World {
    /// Starts (or continues) a run with a user prompt for the lead.
    pub fn submit_prompt(&mut self, prompt: &str) -> Result<(), RuntimeError> {
        let prompt = prompt.trim();
        if prompt.is_empty() {
            return Err(RuntimeError::EmptyPrompt);
        }
        self.check_can_run()?;
        let (at, before) = (self.now(), self.recorded());
        self.team.start_run(prompt, at)?;
        self.release_hand_work(before);
        self.run_active = true;
        self.prompts.push_back(prompt.to_string());
        self.wake(&[AgentName::lead()]);
        Ok(())
    }

    /// A human answers a pending request as its addressee (`as_agent`),
    /// through the same protocol path as a model's tool call.
    pub fn answer_as(&mut self, as_agent: &AgentName, request_id: &str, approve: bool, text: &str) -> Result<RequestStatus, RuntimeError> {
        let id = RequestId::parse(request_id)?;
        let kind = self.team.request(&id).map(|r| r.kind);
        let kind = kind.ok_or_else(|| RuntimeError::UnknownRequest(id.clone()))?;
        // The team's check, not only the tracker's: a stale answer across a
        // restart is refused before anything is recorded.
        self.team.check_answer(kind, &id, as_agent, approve)?;
        let before = self.recorded();
        self.begin_human_run(&format!("by hand: {as_agent} {} request {id}", if approve { "approves" } else { "rejects" }))?;
        let result = self.answer(kind, &id, as_agent, approve, text).map_err(RuntimeError::from);
        self.check_quiet();
        self.release_hand_work(before);
        result
    }

    /// A human answers a pending request as its addressee (`as_agent`)
    /// with the answer's typed `fields` (a file protocol's
    /// `response_fields`: text, bool, int, an enum's value as its text),
    /// on the path a model's answer tool takes (`Team::respond`): the
    /// response message carries exactly these fields, as a tool's answer
    /// with them would. Fields that do not fit the protocol (unknown, of
    /// the wrong type, a required one missing) are refused before anything
    /// is recorded. The lesson's two protocols, whose one answer field is
    /// their content (`reason`, `feedback`), go the way `answer_as` goes.
    pub fn answer_as_with_fields(
        &mut self,
        as_agent: &AgentName,
        request_id: &str,
        approve: bool,
        fields: crate::protocol::Fields,
    ) -> Result<RequestStatus, RuntimeError> {
        use crate::protocol::file::Side;
        let id = RequestId::parse(request_id)?;
        let kind = self.team.request(&id).map(|r| r.kind);
        let kind = kind.ok_or_else(|| RuntimeError::UnknownRequest(id.clone()))?;
        let file_protocol = self.team.protocols().protocol_of(kind).map(|(ix, _)| ix);
        let Some(ix) = file_protocol else {
            // The lesson's: its fields checked as a tool's would be, its
            // content field the text `answer_as` takes.
            let running = self.team.protocols().running(kind).ok_or_else(|| RuntimeError::UnknownRequest(id.clone()))?;
            crate::protocol::protocols::check_fields(running.def, Side::Response, &fields).map_err(TeamError::from)?;
            let text = crate::protocol::protocols::content_of(running.def, Side::Response, &fields);
            return self.answer_as(as_agent, request_id, approve, &text);
        };
        self.team.check_respond(ix, &id, as_agent, approve, &fields)?;
        let before = self.recorded();
        self.begin_human_run(&format!("by hand: {as_agent} {} request {id}", if approve { "approves" } else { "rejects" }))?;
        let at = self.now();
        let result = self.with_armed(|t| t.respond(ix, &id, as_agent, approve, fields, at)).map_err(RuntimeError::from);
        if result.is_ok() {
            // The one rule a tool's answer and `answer_as` follow.
            self.answered(&id, as_agent);
        }
        self.check_quiet();
        self.release_hand_work(before);
        result
    }

    /// A human sends a plain message as any agent.
    pub fn human_send(&mut self, from: &AgentName, to: &AgentName, content: &str) -> Result<(), RuntimeError> {
        self.team.check_send(from, to, "message")?;
        let before = self.recorded();
        self.begin_human_run(&format!("by hand: {from} messages {to}"))?;
        let result = self.send_as(from, to, "message", content).map_err(RuntimeError::from);
        self.check_quiet();
        self.release_hand_work(before);
        result
    }

    /// Refuses new work after a stop or a failure, and when a fault rule
    /// cannot run (the plan came in without validation).
    fn check_can_run(&self) -> Result<(), RuntimeError> {
        if let Some(failure) = self.failure.clone() {
            return Err(failure);
        }
        if self.turns.is_stopped() {
            return Err(RuntimeError::Stopped);
        }
        for (i, rule) in self.team.faults().rules.iter().enumerate() {
            rule.validate().map_err(|source| RuntimeError::BadFaultRule { index: i + 1, source })?;
        }
        Ok(())
    }

    /// Work a human starts while the team is quiet is a run of its own, so
    /// it ends with `RunFinished` and the checker judges it like any run.
    fn begin_human_run(&mut self, what: &str) -> Result<(), RuntimeError> {
        self.check_can_run()?;
        if !self.run_active {
            let at = self.now();
            self.team.start_run(what, at)?;
            self.run_active = true;
        }
        Ok(())
    }
}
