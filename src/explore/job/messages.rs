//! The messages a worker and the page exchange: `ToWorker`, `FromWorker`,
//! as JSON text (a round trip takes less than as JS values written by
//! serde-wasm-bindgen, which the bench page compares), and `ClaimBatch`,
//! the states a worker claimed, as 32-bit words, which the page relays to
//! the other workers unread.
//!
//! Owns the messages' shapes and encodings only: what the job does with
//! them is `explore::job`.

use serde::{Deserialize, Serialize};

use super::ExploreJobError;
use crate::explore::{Claim, ExploreConfig, PathExample, Progress, Report};

/// What the page tells a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToWorker {
    /// Explore this (the worker's slice is in it).
    Explore {
        /// The search.
        config: ExploreConfig,
    },
}

/// What a worker tells the page. Externally tagged (`{"done":{…}}`), not
/// `tag = "kind"`: an internally tagged enum is read through serde's
/// buffered `Content`, which compiles every finding type's deserializer a
/// second time into the page (11 KB gzip, issue 10).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FromWorker {
    /// The worker's code is loaded and listening.
    Ready,
    /// How far its search has got.
    Progress {
        /// The counters.
        progress: Progress,
    },
    /// Its search is over.
    Done {
        /// What it found, each example as its path: the page rebuilds the
        /// run (and what it found) when it opens one.
        report: Box<Report<PathExample>>,
    },
    /// Its search could not run.
    Failed {
        /// Why, in words.
        error: String,
    },
}

impl ToWorker {
    /// The message as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a message.
    pub fn from_json(text: &str) -> Result<Self, ExploreJobError> {
        serde_json::from_str(text).map_err(|e| ExploreJobError::BadMessage(e.to_string()))
    }
}

impl FromWorker {
    /// The message as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a message.
    pub fn from_json(text: &str) -> Result<Self, ExploreJobError> {
        serde_json::from_str(text).map_err(|e| ExploreJobError::BadMessage(e.to_string()))
    }
}

/// The states one worker claimed since its last batch: it posts them, the
/// page relays them to the other workers of the search as they are, and
/// each takes them in (`Exploration::learn`). As 32-bit words (a typed
/// array: no JSON to write or read on the page's thread): the worker's
/// index, then per claim the hash's low and high halves and the depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimBatch {
    /// The worker's index (its slice's).
    pub from: usize,
    /// Its claims.
    pub claims: Vec<Claim>,
}

impl ClaimBatch {
    /// The batch as words.
    pub fn to_words(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(1 + 3 * self.claims.len());
        out.push(self.from as u32);
        for c in &self.claims {
            out.extend([c.hash as u32, (c.hash >> 32) as u32, c.depth]);
        }
        out
    }

    /// Reads a batch.
    pub fn from_words(words: &[u32]) -> Result<ClaimBatch, ExploreJobError> {
        let torn = || ExploreJobError::BadMessage(format!("{} words are not a worker's index and claims of three words each", words.len()));
        let Some((from, rest)) = words.split_first() else { return Err(torn()) };
        if !rest.len().is_multiple_of(3) {
            return Err(torn());
        }
        let claims = rest.chunks_exact(3).map(|w| Claim { hash: u64::from(w[0]) | (u64::from(w[1]) << 32), depth: w[2] }).collect();
        Ok(ClaimBatch { from: *from as usize, claims })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::job::ExploreSettings;
    use crate::protocol::FaultAction;

    #[test]
    fn a_claim_batch_round_trips_as_words_and_a_torn_one_is_an_error() {
        let batch = ClaimBatch { from: 1, claims: vec![Claim { hash: u64::MAX - 5, depth: 7 }, Claim { hash: 42, depth: 0 }] };
        assert_eq!(ClaimBatch::from_words(&batch.to_words()), Ok(batch.clone()));
        let words = batch.to_words();
        assert!(matches!(ClaimBatch::from_words(&words[..5]), Err(ExploreJobError::BadMessage(_))));
        assert!(matches!(ClaimBatch::from_words(&[]), Err(ExploreJobError::BadMessage(_))));
    }

    #[test]
    fn worker_messages_round_trip_as_json_and_garbage_is_an_error() {
        let m = FromWorker::Progress { progress: Progress { states: 5, distinct_states: 4, depth: 3, frontier: 2, pass: 1 } };
        assert_eq!(FromWorker::from_json(&m.to_json()).unwrap(), m);
        let settings =
            ExploreSettings { scenario: "reject-plan".into(), fault_kinds: vec![FaultAction::Drop], ..ExploreSettings::default() };
        let t = ToWorker::Explore { config: settings.config() };
        assert_eq!(ToWorker::from_json(&t.to_json()).unwrap(), t);
        assert!(matches!(FromWorker::from_json("{\"kind\":\"dance\"}"), Err(ExploreJobError::BadMessage(_))));
    }
}
