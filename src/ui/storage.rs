//! Runs kept in the browser: the current run (restored after a reload) and a
//! list of saved runs, in `localStorage`, as versioned trace JSON plus the
//! settings that are safe to keep (never an API key).
//!
//! Owns the storage format and its errors. What is shown is the session's
//! business; this module only reads and writes.

use serde::{Deserialize, Serialize};

use super::export;
use crate::protocol::Trace;

const CURRENT: &str = "team-protocols.current";
const SAVED: &str = "team-protocols.saved";

/// Errors from browser storage, phrased for the banner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// No `localStorage` (private mode, disabled, or not a browser).
    #[error("browser storage is unavailable here; export the trace as JSON to keep it")]
    Unavailable,
    /// Writing failed, usually because the quota is full.
    #[error("browser storage refused the run (it may be full: delete saved runs, or export the trace as JSON): {0}")]
    WriteFailed(String),
    /// What was stored could not be read back.
    #[error("a stored run could not be read ({0}); it was left untouched")]
    Corrupt(String),
}

/// Settings that travel with a run (no key: keys are stored separately and
/// only when the user asks).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct RunSettings {
    /// Provider id.
    pub provider: String,
    /// Base URL override.
    pub base_url: String,
    /// Model override.
    pub model: String,
    /// Seed.
    pub seed: u64,
    /// The scenario it came from, if any.
    #[serde(default)]
    pub scenario: Option<String>,
    /// The fault rules the run used.
    #[serde(default)]
    pub faults: crate::protocol::FaultPlan,
}

/// One stored run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredRun {
    /// A unique id (creation time in ms).
    pub id: u64,
    /// What the list shows.
    pub title: String,
    /// The settings.
    pub settings: RunSettings,
    /// The trace, as exported JSON.
    pub trace: String,
}

impl StoredRun {
    /// The trace, validated as an import would be.
    pub fn trace(&self) -> Result<Trace, StorageError> {
        export::import_json(&self.trace).map_err(|e| StorageError::Corrupt(e.to_string()))
    }
}

fn storage() -> Result<web_sys::Storage, StorageError> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten()).ok_or(StorageError::Unavailable)
}

fn write(key: &str, value: &str) -> Result<(), StorageError> {
    storage()?.set_item(key, value).map_err(|e| StorageError::WriteFailed(format!("{e:?}")))
}

fn read(key: &str) -> Result<Option<String>, StorageError> {
    Ok(storage()?.get_item(key).ok().flatten())
}

/// Keeps `run` as the current run.
pub fn save_current(run: &StoredRun) -> Result<(), StorageError> {
    write(CURRENT, &serde_json::to_string(run).expect("runs serialise"))
}

/// The current run from before the reload, if any.
pub fn load_current() -> Result<Option<StoredRun>, StorageError> {
    read(CURRENT)?.map(|text| serde_json::from_str(&text).map_err(|e| StorageError::Corrupt(e.to_string()))).transpose()
}

/// Every saved run, newest first.
pub fn saved() -> Result<Vec<StoredRun>, StorageError> {
    match read(SAVED)? {
        None => Ok(Vec::new()),
        Some(text) => serde_json::from_str(&text).map_err(|e| StorageError::Corrupt(e.to_string())),
    }
}

/// Adds a run to the saved list.
pub fn save(run: StoredRun) -> Result<(), StorageError> {
    let mut runs = saved()?;
    runs.insert(0, run);
    write(SAVED, &serde_json::to_string(&runs).expect("runs serialise"))
}

/// Removes a saved run.
pub fn delete(id: u64) -> Result<(), StorageError> {
    let runs: Vec<StoredRun> = saved()?.into_iter().filter(|r| r.id != id).collect();
    write(SAVED, &serde_json::to_string(&runs).expect("runs serialise"))
}
