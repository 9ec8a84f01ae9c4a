//! Downloads from Blob object URLs, for every file the page hands out: the
//! trace exports (up to 20 MiB) and the workspace's files. A `data:` URL
//! would carry the text percent-encoded in the page (three bytes per byte
//! of most text, copied into the DOM); a `blob:` URL is a short name for
//! the bytes the browser already holds.
//!
//! Owns the Blob, its URL and the URL's lifetime. The caller owns the link
//! the URL is put on (it stays in the page, so tests can read it back) and
//! what the file holds.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlElement, Url};

use crate::view::i18n::{tr, Catalog};

/// How long a URL outlives its click: the download has long started by then.
const REVOKE_AFTER_MS: u32 = 40_000;

/// Why a file could not be offered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DownloadError {
    /// The browser refused to build the Blob or its URL.
    #[error("the browser could not prepare the file ({0})")]
    Refused(String),
}

/// What a JS exception says (its message, or nothing).
fn refused(e: JsValue) -> DownloadError {
    DownloadError::Refused(e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default())
}

/// Offers `text` (UTF-8, as `mime`) for download as `name` through the link
/// `a`: puts a fresh `blob:` URL on it (revoking the one a previous offer
/// left there) and follows it. The URL is revoked 40 s later, or sooner
/// when another offer replaces it.
pub fn offer(a: &HtmlElement, text: &str, name: &str, mime: &str) -> Result<(), DownloadError> {
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(refused)?;
    let url = Url::create_object_url_with_blob(&blob).map_err(refused)?;
    if let Some(old) = a.get_attribute("href") {
        let _ = Url::revoke_object_url(&old);
    }
    let _ = a.set_attribute("href", &url);
    let _ = a.set_attribute("download", name);
    a.click();
    let a = a.clone();
    gloo_timers::callback::Timeout::new(REVOKE_AFTER_MS, move || {
        if a.get_attribute("href").as_deref() == Some(url.as_str()) {
            let _ = a.remove_attribute("href");
        }
        let _ = Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}

/// A file the browser would not prepare for download.
pub fn words(cat: &Catalog, e: &DownloadError) -> String {
    match e {
        DownloadError::Refused(why) => tr!(cat, "error-download", error = why.as_str()),
    }
}
