//! A small key-value store in the browser's IndexedDB: text values under
//! text keys, in one object store of one database, read and written
//! asynchronously. IndexedDB holds far more than `localStorage` (whose
//! 5 MB a long run's trace outgrows), so the page keeps its runs here.
//!
//! Owns the database's name, version and layout, and turns IndexedDB's
//! requests and transactions into futures. What the values mean (runs,
//! saved lists) is `ui::state::storage`'s business. Each call opens the
//! database and closes it when done, and a connection gives way when the
//! database is deleted or upgraded elsewhere, so none is left holding it.

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbOpenDbRequest, IdbRequest, IdbTransaction, IdbTransactionMode};

/// The page's database.
pub const DATABASE: &str = "team-protocols";
/// The layout's version (1: one object store of text values).
const VERSION: u32 = 1;
/// The object store, keyed by text.
const STORE: &str = "kv";

/// Errors from IndexedDB.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdbError {
    /// No IndexedDB here (not a browser, or disabled).
    #[error("IndexedDB is unavailable")]
    Unavailable,
    /// The browser refused: the name of its exception
    /// (`QuotaExceededError` when the quota is reached).
    #[error("IndexedDB refused ({0})")]
    Refused(String),
}

/// A browser exception's name (`QuotaExceededError`, ...).
fn refused(e: &JsValue) -> IdbError {
    let name = js_sys::Reflect::get(e, &JsValue::from_str("name")).ok().and_then(|n| n.as_string());
    IdbError::Refused(name.unwrap_or_else(|| "Error".into()))
}

/// Why a request failed, from its `error`.
fn request_error(req: &IdbRequest) -> IdbError {
    match req.error() {
        Ok(Some(e)) => IdbError::Refused(e.name()),
        _ => IdbError::Refused("Error".into()),
    }
}

/// Waits for `req`'s success (its result) or failure.
async fn request(req: &IdbRequest) -> Result<JsValue, IdbError> {
    let done = Promise::new(&mut |resolve, reject| {
        req.set_onsuccess(Some(&resolve));
        req.set_onerror(Some(&reject));
    });
    let outcome = JsFuture::from(done).await;
    req.set_onsuccess(None);
    req.set_onerror(None);
    match outcome {
        Ok(_) => req.result().map_err(|e| refused(&e)),
        Err(_) => Err(request_error(req)),
    }
}

/// Waits for `tx` to commit; an aborted transaction (the quota reached,
/// say) is refused with its error's name.
async fn committed(tx: &IdbTransaction) -> Result<(), IdbError> {
    let done = Promise::new(&mut |resolve, reject| {
        tx.set_oncomplete(Some(&resolve));
        tx.set_onabort(Some(&reject));
    });
    let outcome = JsFuture::from(done).await;
    tx.set_oncomplete(None);
    tx.set_onabort(None);
    match outcome {
        Ok(_) => Ok(()),
        Err(_) => Err(match tx.error() {
            Some(e) => IdbError::Refused(e.name()),
            None => IdbError::Refused("AbortError".into()),
        }),
    }
}

/// Opens the database `name` (creating its store on first use).
async fn open(name: &str) -> Result<IdbDatabase, IdbError> {
    let factory = web_sys::window().and_then(|w| w.indexed_db().ok().flatten()).ok_or(IdbError::Unavailable)?;
    let req: IdbOpenDbRequest = factory.open_with_u32(name, VERSION).map_err(|e| refused(&e))?;
    let for_upgrade = req.clone();
    let upgrade = Closure::<dyn FnMut()>::new(move || {
        if let Ok(db) = for_upgrade.result() {
            let db: IdbDatabase = db.unchecked_into();
            if !db.object_store_names().contains(STORE) {
                // A failure here aborts the upgrade; the open then fails.
                let _ = db.create_object_store(STORE);
            }
        }
    });
    req.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
    let opened = request(&req).await;
    req.set_onupgradeneeded(None);
    drop(upgrade);
    let db: IdbDatabase = opened?.unchecked_into();
    // Another connection deleting or upgrading the database (a test
    // starting afresh, a newer page) is not kept waiting.
    db.set_onversionchange(Some(&js_sys::Function::new_no_args("this.close()")));
    Ok(db)
}

/// A transaction on the store.
fn transaction(db: &IdbDatabase, mode: IdbTransactionMode) -> Result<(IdbTransaction, web_sys::IdbObjectStore), IdbError> {
    let tx = db.transaction_with_str_and_mode(STORE, mode).map_err(|e| refused(&e))?;
    let store = tx.object_store(STORE).map_err(|e| refused(&e))?;
    Ok((tx, store))
}

/// The text under `key` in the database `name`, if any.
pub async fn get(name: &str, key: &str) -> Result<Option<String>, IdbError> {
    let db = open(name).await?;
    let read = async {
        let (_tx, store) = transaction(&db, IdbTransactionMode::Readonly)?;
        let req = store.get(&JsValue::from_str(key)).map_err(|e| refused(&e))?;
        request(&req).await.map(|v| v.as_string())
    }
    .await;
    db.close();
    read
}

/// Writes every change in one transaction, all or nothing: `Some(text)`
/// puts `text` under the key, `None` deletes the key.
pub async fn write(name: &str, changes: &[(&str, Option<&str>)]) -> Result<(), IdbError> {
    let db = open(name).await?;
    let written = async {
        let (tx, store) = transaction(&db, IdbTransactionMode::Readwrite)?;
        for (key, value) in changes {
            let key = JsValue::from_str(key);
            let queued = match value {
                Some(text) => store.put_with_key(&JsValue::from_str(text), &key),
                None => store.delete(&key),
            };
            if let Err(e) = queued {
                let _ = tx.abort();
                return Err(refused(&e));
            }
        }
        committed(&tx).await
    }
    .await;
    db.close();
    written
}
