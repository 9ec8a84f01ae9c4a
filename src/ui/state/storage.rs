//! Runs kept in the browser: the current run (restored after a reload) and a
//! list of saved runs, in IndexedDB (`ui::browser::idb`: no 5 MB cap, so a
//! 100,000-event run is kept), as versioned trace JSON plus the snapshot of
//! what built the run (never an API key); the language chosen with the
//! switcher; the price table as edited; and, separately and only when
//! asked, a remembered API key per provider (the last three small, in
//! `localStorage`). Runs a page before this one kept in `localStorage` move
//! to IndexedDB once per [`Runs`], at its first read or write, and leave
//! `localStorage` when the copy succeeded (unless something changed them
//! meanwhile).
//!
//! Owns the storage format, the storage keys, their errors, and the queue
//! a page's reads and writes wait their turn in. What is shown is the
//! session's business; this module only reads and writes.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

use crate::ui::browser::idb::{self, IdbError};
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
    /// No browser storage (IndexedDB or `localStorage` missing: private
    /// mode, disabled, or not a browser).
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
    /// The trace, validated as an import would be (without a file's size
    /// cap: the page wrote it).
    pub fn trace(&self) -> Result<Trace, StorageError> {
        export::read_json(&self.trace).map_err(|e| StorageError::Corrupt(e.to_string()))
    }
}

fn storage() -> Result<web_sys::Storage, StorageError> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten()).ok_or(StorageError::Unavailable)
}

/// A browser exception as a sentence (never a raw `JsValue(...)`).
fn refusal(e: &JsValue) -> String {
    let name = js_sys::Reflect::get(e, &JsValue::from_str("name")).ok().and_then(|n| n.as_string()).unwrap_or_default();
    refusal_named(&name)
}

/// What a browser exception named `name` means for the store.
fn refusal_named(name: &str) -> String {
    match name {
        "QuotaExceededError" => "it is full".into(),
        "SecurityError" => "this page may not use it".into(),
        _ => "it would not write".into(),
    }
}

/// A refused write of a run.
fn write_refused(e: IdbError) -> StorageError {
    match e {
        IdbError::Unavailable => StorageError::Unavailable,
        IdbError::Refused(name) => StorageError::WriteFailed(refusal_named(&name)),
    }
}

/// A refused read of a run.
fn read_refused(e: IdbError) -> StorageError {
    match e {
        IdbError::Unavailable => StorageError::Unavailable,
        IdbError::Refused(name) => StorageError::Corrupt(name),
    }
}

/// One job on browser storage: what it does with the runs.
pub type StorageJob = Box<dyn FnOnce(Runs) -> Pin<Box<dyn Future<Output = ()>>>>;

/// The jobs on browser storage of a page, run one at a time in the order
/// they were asked for: the run kept after a restore is written after the
/// restore's read, and the move from `localStorage` (done by the first
/// job) comes before everything else. Each job runs to its end, the page
/// still there or not (a write asked for is done). Clones share the queue.
#[derive(Clone)]
pub struct StorageQueue {
    runs: Runs,
    queue: Rc<RefCell<VecDeque<StorageJob>>>,
    draining: Rc<Cell<bool>>,
}

impl StorageQueue {
    /// An empty queue on `runs`.
    pub fn new(runs: Runs) -> Self {
        StorageQueue { runs, queue: Rc::new(RefCell::new(VecDeque::new())), draining: Rc::new(Cell::new(false)) }
    }

    /// Queues `job`, and runs the queue unless it is running.
    pub fn push(&self, job: StorageJob) {
        self.queue.borrow_mut().push_back(job);
        if self.draining.replace(true) {
            return;
        }
        let jobs = self.clone();
        leptos::task::spawn_local(async move {
            loop {
                let next = jobs.queue.borrow_mut().pop_front();
                let Some(job) = next else { break };
                job(jobs.runs.clone()).await;
            }
            jobs.draining.set(false);
        });
    }
}

/// A context: the storage queue the Apps mounted under it share, in place
/// of one of their own on the page's database. A browser test's page gives
/// its Apps one on a database of their own, so that what one test's App
/// writes late never reaches another test, and an App mounted again (a
/// reload) reads after what the one before it asked to write.
#[derive(Clone, Copy)]
pub struct SharedQueue(pub StoredValue<StorageQueue, LocalStorage>);

/// The runs kept in browser storage, in one IndexedDB database (the page's
/// is [`idb::DATABASE`]). Clones share whether the move from
/// `localStorage` is done.
#[derive(Debug, Clone)]
pub struct Runs {
    database: Rc<str>,
    /// Set once the move from `localStorage` succeeded (or found nothing).
    migrated: Rc<Cell<bool>>,
}

impl Default for Runs {
    fn default() -> Self {
        Runs::in_database(idb::DATABASE)
    }
}

impl Runs {
    /// The runs kept in the database `database`.
    pub fn in_database(database: &str) -> Self {
        Runs { database: database.into(), migrated: Rc::new(Cell::new(false)) }
    }

    /// The database's name.
    pub fn database(&self) -> &str {
        &self.database
    }

    /// Moves runs a page before this one kept in `localStorage` into
    /// IndexedDB, all in one transaction, then removes them from
    /// `localStorage` (each only if it still holds what was copied). Done
    /// once; nothing to move (the usual case) costs three reads.
    async fn migrate(&self) -> Result<(), StorageError> {
        if self.migrated.get() {
            return Ok(());
        }
        let Ok(local) = storage() else {
            self.migrated.set(true);
            return Ok(());
        };
        let old: Vec<(&str, String)> =
            [CURRENT, SAVED, SAVED_DAMAGED].into_iter().filter_map(|k| local.get_item(k).ok().flatten().map(|v| (k, v))).collect();
        if !old.is_empty() {
            let changes: Vec<(&str, Option<&str>)> = old.iter().map(|(k, v)| (*k, Some(v.as_str()))).collect();
            idb::write(&self.database, &changes).await.map_err(write_refused)?;
            for (key, copied) in old {
                if local.get_item(key).ok().flatten().as_deref() == Some(copied.as_str()) {
                    let _ = local.remove_item(key);
                }
            }
        }
        self.migrated.set(true);
        Ok(())
    }

    async fn read(&self, key: &str) -> Result<Option<String>, StorageError> {
        self.migrate().await?;
        idb::get(&self.database, key).await.map_err(read_refused)
    }

    async fn write(&self, changes: &[(&str, Option<&str>)]) -> Result<(), StorageError> {
        self.migrate().await?;
        idb::write(&self.database, changes).await.map_err(write_refused)
    }

    /// Keeps `run` as the current run.
    pub async fn save_current(&self, run: &StoredRun) -> Result<(), StorageError> {
        let text = to_json(run)?;
        self.write(&[(CURRENT, Some(&text))]).await
    }

    /// The current run from before the reload, if any.
    pub async fn load_current(&self) -> Result<Option<StoredRun>, StorageError> {
        self.read(CURRENT).await?.map(|text| serde_json::from_str(&text).map_err(|e| StorageError::Corrupt(e.to_string()))).transpose()
    }

    /// Forgets the current run (a damaged one, once reported).
    pub async fn forget_current(&self) {
        let _ = self.write(&[(CURRENT, None)]).await;
    }

    /// Every saved run, newest first.
    pub async fn saved(&self) -> Result<Vec<StoredRun>, StorageError> {
        match self.read(SAVED).await? {
            None => Ok(Vec::new()),
            Some(text) => serde_json::from_str(&text).map_err(|e| StorageError::ListDamaged(e.to_string())),
        }
    }

    /// Adds a run to the saved list. A damaged list does not block this: it
    /// is set aside (not deleted) and a new list starts with `run`.
    pub async fn save(&self, run: StoredRun) -> Result<(), StorageError> {
        let mut damaged = None;
        let mut runs = match self.saved().await {
            Ok(runs) => runs,
            Err(StorageError::ListDamaged(_)) => {
                damaged = self.read(SAVED).await?;
                Vec::new()
            }
            Err(e) => return Err(e),
        };
        runs.insert(0, run);
        let text = to_json(&runs)?;
        match &damaged {
            Some(old) => self.write(&[(SAVED_DAMAGED, Some(old)), (SAVED, Some(&text))]).await,
            None => self.write(&[(SAVED, Some(&text))]).await,
        }
    }

    /// Removes a saved run.
    pub async fn delete(&self, id: u64) -> Result<(), StorageError> {
        let runs: Vec<StoredRun> = self.saved().await?.into_iter().filter(|r| r.id != id).collect();
        let text = to_json(&runs)?;
        self.write(&[(SAVED, Some(&text))]).await
    }

    /// Deletes every saved run (and a damaged list set aside).
    pub async fn clear_saved(&self) -> Result<(), StorageError> {
        self.write(&[(SAVED, None), (SAVED_DAMAGED, None)]).await
    }
}

fn to_json<T: Serialize>(value: &T) -> Result<String, StorageError> {
    serde_json::to_string(value).map_err(|e| StorageError::WriteFailed(format!("it could not be encoded: {e}")))
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
    storage().ok()?.get_item(LOCALE).ok().flatten().and_then(|tag| crate::view::i18n::Locale::from_tag(&tag))
}

/// Remembers the chosen language on this device.
pub fn remember_locale(locale: crate::view::i18n::Locale) -> Result<(), StorageError> {
    storage()?.set_item(LOCALE, locale.tag()).map_err(|e| StorageError::WriteFailed(refusal(&e)))
}

/// Where the price table edited on this device is kept (settings, not runs).
const PRICES: &str = "team-protocols.prices";

/// The price table edited on this device, if one is kept and every price
/// in it passes the same checks as the form (otherwise none: the defaults).
pub fn remembered_prices() -> Option<crate::view::prices::PriceTable> {
    let text = storage().ok()?.get_item(PRICES).ok().flatten()?;
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
        Some(t) => storage()?.set_item(PRICES, &to_json(t)?).map_err(|e| StorageError::WriteFailed(refusal(&e))),
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
