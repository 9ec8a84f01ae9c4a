//! The user's protocol files in `localStorage` (`view::protocol_file::store`
//! says the format): read once when the view opens, written after each
//! change. A list that cannot be read is copied aside first
//! (`DAMAGED_KEY`), so writing a new one loses nothing; if even that copy
//! is refused, nothing is written over it.
//!
//! Owns the two storage keys' reads and writes; what the list holds is the
//! view's.

use crate::view::protocol_file::store::{self, UserFile, DAMAGED_KEY, KEY};

/// Why the browser would not read or keep the files.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilesError {
    /// No `localStorage` here.
    #[error("browser storage is unavailable here")]
    Unavailable,
    /// The stored list could not be read; it was set aside.
    #[error("{0}")]
    Damaged(String),
    /// The browser refused the write (full, or not allowed).
    #[error("{0}")]
    Refused(String),
}

/// What the view reads at its start: the files, whether later writes may
/// replace the stored list, and what went wrong, if anything.
pub struct Loaded {
    /// The user's files (empty when none could be read).
    pub files: Vec<UserFile>,
    /// False when a damaged list could not be set aside: writing would
    /// lose it.
    pub writable: bool,
    /// Why the list is empty or not kept.
    pub problem: Option<FilesError>,
}

fn storage() -> Result<web_sys::Storage, FilesError> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten()).ok_or(FilesError::Unavailable)
}

/// A browser exception's name, as the reason for a refusal.
fn refusal(e: &wasm_bindgen::JsValue) -> String {
    js_sys::Reflect::get(e, &"name".into()).ok().and_then(|n| n.as_string()).unwrap_or_else(|| "refused".into())
}

/// Reads the stored list (setting a damaged one aside).
pub fn load() -> Loaded {
    let s = match storage() {
        Ok(s) => s,
        Err(e) => return Loaded { files: Vec::new(), writable: false, problem: Some(e) },
    };
    let raw = s.get_item(KEY).ok().flatten();
    match store::decode(raw.as_deref()) {
        Ok(files) => Loaded { files, writable: true, problem: None },
        Err(e) => {
            let kept =
                s.get_item(DAMAGED_KEY).ok().flatten().is_none() && raw.as_deref().is_some_and(|r| s.set_item(DAMAGED_KEY, r).is_ok());
            Loaded { files: Vec::new(), writable: kept, problem: Some(FilesError::Damaged(e.to_string())) }
        }
    }
}

/// Writes the list.
pub fn save(files: &[UserFile]) -> Result<(), FilesError> {
    storage()?.set_item(KEY, &store::encode(files)).map_err(|e| FilesError::Refused(refusal(&e)))
}
