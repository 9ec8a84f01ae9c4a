//! Runs kept in the browser: the current run (restored after a reload) and a
//! list of saved runs, in `localStorage`, as versioned trace JSON plus the
//! snapshot of what built the run (never an API key); the language chosen
//! with the switcher; the price table as edited; and, separately and
//! only when asked, a remembered API key per provider.
//!
//! Owns the storage format, the storage keys and their errors. What is
//! shown is the session's business; this module only reads and writes.

use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

use crate::view::export;

use crate::model::provider_settings::Provider;
use crate::protocol::Trace;
use crate::view::export::snapshot::RunSnapshot;
use crate::view::i18n::{tr, Catalog};

const CURRENT: &str = "team-protocols.current";
const SAVED: &str = "team-protocols.saved";
/// Where a saved-runs list that could not be read is set aside.
const SAVED_DAMAGED: &str = "team-protocols.saved.damaged";

/// Errors from browser storage, phrased for the banner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// No `localStorage` (private mode, disabled, or not a browser).
    #[error("browser storage is unavailable here; export the trace as JSON to keep it")]
    Unavailable,
    /// Writing failed, usually because the quota is full.
    #[error("browser storage refused the run ({0}): delete saved runs, or export the trace as JSON")]
    WriteFailed(String),
    /// What was stored could not be read back.
    #[error("a stored run could not be read ({0}); it was left untouched")]
    Corrupt(String),
    /// The saved-runs list could not be read.
    #[error("the list of saved runs is damaged ({0}); use \"Clear saved runs\" to start a new list")]
    ListDamaged(String),
    /// The key could not be remembered or forgotten.
    #[error("browser storage refused to change the remembered key ({0}); the key is still used for this tab")]
    KeyNotKept(String),
    /// The saved run asked for is not in the list.
    #[error("that saved run is no longer stored (another tab may have deleted it)")]
    Gone,
}

/// One stored run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredRun {
    /// A unique id (creation time in ms).
    pub id: u64,
    /// What the list shows.
    pub title: String,
    /// What built the run (validated when read back); `None` for a trace
    /// that came without one (an imported file).
    #[serde(default)]
    pub settings: Option<RunSnapshot>,
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

/// A browser exception as a sentence (never a raw `JsValue(...)`).
fn refusal(e: &JsValue) -> String {
    let name = js_sys::Reflect::get(e, &JsValue::from_str("name")).ok().and_then(|n| n.as_string()).unwrap_or_default();
    match name.as_str() {
        "QuotaExceededError" => "it is full".into(),
        "SecurityError" => "this page may not use it".into(),
        _ => "it would not write".into(),
    }
}

fn write(key: &str, value: &str) -> Result<(), StorageError> {
    storage()?.set_item(key, value).map_err(|e| StorageError::WriteFailed(refusal(&e)))
}

fn read(key: &str) -> Result<Option<String>, StorageError> {
    Ok(storage()?.get_item(key).ok().flatten())
}

fn to_json<T: Serialize>(value: &T) -> Result<String, StorageError> {
    serde_json::to_string(value).map_err(|e| StorageError::WriteFailed(format!("it could not be encoded: {e}")))
}

/// Keeps `run` as the current run.
pub fn save_current(run: &StoredRun) -> Result<(), StorageError> {
    write(CURRENT, &to_json(run)?)
}

/// The current run from before the reload, if any.
pub fn load_current() -> Result<Option<StoredRun>, StorageError> {
    read(CURRENT)?.map(|text| serde_json::from_str(&text).map_err(|e| StorageError::Corrupt(e.to_string()))).transpose()
}

/// Forgets the current run (a damaged one, once reported).
pub fn forget_current() {
    if let Ok(s) = storage() {
        let _ = s.remove_item(CURRENT);
    }
}

/// Every saved run, newest first.
pub fn saved() -> Result<Vec<StoredRun>, StorageError> {
    match read(SAVED)? {
        None => Ok(Vec::new()),
        Some(text) => serde_json::from_str(&text).map_err(|e| StorageError::ListDamaged(e.to_string())),
    }
}

/// Adds a run to the saved list. A damaged list does not block this: it is
/// set aside (not deleted) and a new list starts with `run`.
pub fn save(run: StoredRun) -> Result<(), StorageError> {
    let mut runs = match saved() {
        Ok(runs) => runs,
        Err(StorageError::ListDamaged(_)) => {
            if let Some(text) = read(SAVED)? {
                write(SAVED_DAMAGED, &text)?;
            }
            Vec::new()
        }
        Err(e) => return Err(e),
    };
    runs.insert(0, run);
    write(SAVED, &to_json(&runs)?)
}

/// Removes a saved run.
pub fn delete(id: u64) -> Result<(), StorageError> {
    let runs: Vec<StoredRun> = saved()?.into_iter().filter(|r| r.id != id).collect();
    write(SAVED, &to_json(&runs)?)
}

/// Deletes every saved run (and a damaged list set aside).
pub fn clear_saved() -> Result<(), StorageError> {
    let s = storage()?;
    for key in [SAVED, SAVED_DAMAGED] {
        s.remove_item(key).map_err(|e| StorageError::WriteFailed(refusal(&e)))?;
    }
    Ok(())
}

/// Where a remembered key is kept on this device.
fn key_item(p: Provider) -> String {
    format!("team-protocols.api-key.{}", p.id())
}

/// The key remembered on this device for `provider`, if any.
pub fn remembered_key(provider: Provider) -> Option<String> {
    storage().ok()?.get_item(&key_item(provider)).ok().flatten()
}

/// Remembers `key` for `provider` on this device, or forgets it (`None`).
pub fn remember_key(provider: Provider, key: Option<&str>) -> Result<(), StorageError> {
    let s = storage()?;
    match key {
        Some(key) => s.set_item(&key_item(provider), key).map_err(|e| StorageError::KeyNotKept(refusal(&e))),
        None => s.remove_item(&key_item(provider)).map_err(|e| StorageError::KeyNotKept(refusal(&e))),
    }
}

/// Where the language chosen with the switcher is kept.
const LOCALE: &str = "team-protocols.locale";

/// The language chosen on this device before, if any (an unknown tag reads
/// as none).
pub fn remembered_locale() -> Option<crate::view::i18n::Locale> {
    read(LOCALE).ok().flatten().and_then(|tag| crate::view::i18n::Locale::from_tag(&tag))
}

/// Remembers the chosen language on this device.
pub fn remember_locale(locale: crate::view::i18n::Locale) -> Result<(), StorageError> {
    write(LOCALE, locale.tag())
}

/// Where the price table edited on this device is kept (settings, not runs).
const PRICES: &str = "team-protocols.prices";

/// The price table edited on this device, if one is kept and every price
/// in it passes the same checks as the form (otherwise none: the defaults).
pub fn remembered_prices() -> Option<crate::view::prices::PriceTable> {
    let text = read(PRICES).ok().flatten()?;
    let stored: crate::view::prices::PriceTable = serde_json::from_str(&text).ok()?;
    let mut table = crate::view::prices::PriceTable { models: Default::default() };
    for (model, p) in &stored.models {
        let fields = [p.input, p.output, p.cache_read, p.cache_write].map(|v| v.to_string());
        table.set(model, [&fields[0], &fields[1], &fields[2], &fields[3]], &p.taken).ok()?;
    }
    Some(table)
}

/// Keeps the price table on this device, or forgets it (`None`: back to
/// the defaults).
pub fn remember_prices(table: Option<&crate::view::prices::PriceTable>) -> Result<(), StorageError> {
    match table {
        Some(t) => write(PRICES, &to_json(t)?),
        None => storage()?.remove_item(PRICES).map_err(|e| StorageError::WriteFailed(refusal(&e))),
    }
}

/// What browser storage refused.
pub fn words(cat: &Catalog, e: &StorageError) -> String {
    match e {
        StorageError::Unavailable => cat.t("error-storage-unavailable"),
        StorageError::WriteFailed(why) => tr!(cat, "error-storage-write", error = why.as_str()),
        StorageError::Corrupt(why) => tr!(cat, "error-storage-corrupt", error = why.as_str()),
        StorageError::ListDamaged(why) => tr!(cat, "error-storage-list", error = why.as_str()),
        StorageError::KeyNotKept(why) => tr!(cat, "error-storage-key", error = why.as_str()),
        StorageError::Gone => cat.t("error-storage-gone"),
    }
}
