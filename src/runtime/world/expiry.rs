//! Deadlines on the world: a pending request whose protocol has a
//! `deadline_ms` expires (`pending -> rejected`, cause `expired`) when
//! virtual time reaches it (before each turn, and when the run goes quiet:
//! `World::check_quiet` moves the clock on to it), or at once as the
//! explorer's choice (`expire_now`); both its parties, each whose loop
//! still runs, are then told in a JSON note and woken. Owns those entry
//! points and the notes; the expiry itself is the team's
//! (`Team::expire`, `Team::expire_due`). It must not read a clock.

use super::World;
use crate::protocol::{AgentName, Millis, RequestId, TeamError};

impl World {
    /// Expires every pending request whose deadline has passed; its
    /// requester and addressee, each whose loop still runs, are told so
    /// (`tell_expired`) and woken: the requester may ask again, the
    /// addressee does not answer it. Returns how many expired.
    pub(super) fn expire_due(&mut self) -> usize {
        let now = self.now();
        let ids = match self.team.expire_due(now) {
            Ok(ids) => ids,
            Err(e) => {
                self.halt(e);
                return 0;
            }
        };
        self.tell_expired(&ids);
        ids.len()
    }

    /// The explorer: request `id` expires now, whatever the clock says (the
    /// deadline passing as a choice), and its requester and addressee are
    /// told so as when the clock expires it. Refused, changing nothing, unless its protocol
    /// has a deadline and it is pending.
    pub fn expire_now(&mut self, id: &RequestId) -> Result<(), TeamError> {
        let kind = self.team.request(id).map(|r| r.kind).ok_or_else(|| crate::protocol::TrackerError::UnknownRequest(id.clone()))?;
        self.team.state().check_expire(id, kind)?;
        let at = self.now();
        self.team.expire(id, at)?;
        self.tell_expired(std::slice::from_ref(id));
        Ok(())
    }

    /// The pending requests whose protocol has a deadline, in creation
    /// order: those the explorer may expire (`expire_now`). None under the
    /// lesson's protocols alone.
    pub fn expirable(&self) -> impl Iterator<Item = &RequestId> {
        let protocols = self.team.protocols();
        let any = !protocols.is_lesson_only();
        self.team
            .tracker()
            .pending()
            .filter(move |r| any && protocols.protocol_of(r.kind).is_some_and(|(_, p)| p.deadline_ms.is_some()))
            .map(|r| &r.id)
    }

    /// Tells both parties of each expired request that it expired: the
    /// requester (it may ask again) and the addressee that held it (it must
    /// not answer it now), each whose loop still runs, as a note it reads
    /// with its next delivery (like a prompt: an expiry sends no message),
    /// and wakes them. The note is a JSON object (`"event":
    /// "request_expired"`, the request's id, protocol, requester and
    /// addressee, which of the two the reader is under `party`, and the
    /// sentence a model reads in `note`), so a policy reads the expiry from
    /// data, not from words.
    fn tell_expired(&mut self, ids: &[RequestId]) {
        for id in ids {
            let Some(r) = self.team.request(id) else { continue };
            let protocol = self.team.protocols().protocol_of(r.kind).map(|(_, p)| p.name.clone()).unwrap_or_default();
            let (requester, addressee) = (r.requester.clone(), r.addressee.clone());
            let note = |party: &str, sentence: String| {
                serde_json::json!({
                    "event": "request_expired",
                    "request_id": id.as_str(),
                    "protocol": protocol,
                    "from": requester.as_str(),
                    "to": addressee.as_str(),
                    "party": party,
                    "status": "rejected (expired)",
                    "note": sentence,
                })
                .to_string()
            };
            let asked = note(
                "requester",
                format!(
                    "Your {protocol} request {id} to '{addressee}' expired unanswered (status: rejected (expired)); you may ask again."
                ),
            );
            let held = note(
                "addressee",
                format!(
                    "The {protocol} request {id} from '{requester}' to you expired unanswered (status: rejected (expired)); do not answer it."
                ),
            );
            self.tell(&requester, asked);
            if addressee != requester {
                self.tell(&addressee, held);
            }
        }
    }

    /// Hands `agent` a note it reads with its next delivery, if its loop
    /// still runs, and wakes it (whatever `wake_on_message` says: a note is
    /// no message).
    fn tell(&mut self, agent: &AgentName, note: String) {
        if agent.is_lead() {
            self.prompts.push_back(note);
        } else if self.agents.get(agent).is_some_and(|a| !a.has_ended()) {
            self.restarts.entry(agent.clone()).or_default().push_back(note);
        } else {
            return;
        }
        self.turns.unpark(agent);
    }

    /// The earliest deadline of a pending request, if any has one.
    pub(super) fn next_deadline(&self) -> Option<Millis> {
        let protocols = self.team.protocols();
        self.team
            .tracker()
            .pending()
            .filter_map(|r| protocols.protocol_of(r.kind).and_then(|(_, p)| p.deadline_ms).map(|d| r.created_at.0.saturating_add(d)))
            .min()
            .map(Millis)
    }
}
