//! The browser's HTTP transport: `fetch` through `gloo-net`, with an
//! `AbortController` wired to Stop, and the body read as it streams in with
//! `wasm-streams` (wasm32 only; its `setTimeout` sleeper is
//! `model::sleep::TimerSleeper`).
//!
//! Owns turning a `model::http` request into a `fetch` and its reply into
//! byte chunks. It must not know any provider's JSON, retry, or keep the
//! API key beyond the call (the headers are `model::http::Headers`).

use futures_util::StreamExt as _;
use gloo_net::http::Request;
use js_sys::Uint8Array;
use wasm_bindgen::{JsCast, JsValue};
use wasm_streams::readable::IntoStream;
use web_sys::AbortController;

use super::http::{ByteStream, Headers, HttpError, HttpReply, HttpTransport};
use crate::model::{CancelRegistration, CancelToken, LocalBoxFuture, ModelError};

/// Sends with the browser's `fetch` (through `gloo-net`); Stop aborts
/// the call through an `AbortController`, also while the body streams in.
#[derive(Debug, Default, Clone, Copy)]
pub struct FetchTransport;

/// What a JS error says: `Name: message`, or the name alone.
fn describe(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        let (name, message) = (String::from(err.name()), String::from(err.message()));
        if message.is_empty() {
            name
        } else {
            format!("{name}: {message}")
        }
    } else {
        e.as_string().unwrap_or_else(|| "unknown error".to_string())
    }
}

fn refused(e: JsValue) -> ModelError {
    HttpError::Refused(describe(&e)).into()
}

impl HttpTransport for FetchTransport {
    fn post<'a>(
        &'a self,
        url: &'a str,
        headers: &'a Headers,
        body: String,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<HttpReply, ModelError>> {
        Box::pin(async move {
            if cancel.is_cancelled() {
                return Err(ModelError::Cancelled);
            }
            let controller = AbortController::new().map_err(refused)?;
            let registration = {
                let controller = controller.clone();
                cancel.on_cancel(move || controller.abort())
            };
            // Built here rather than with gloo's `header`, which throws on a
            // value a browser cannot send; the browser's message could echo
            // the value, so say only which header.
            let js_headers = web_sys::Headers::new().map_err(refused)?;
            for (name, value) in headers.iter() {
                js_headers
                    .set(name, value)
                    .map_err(|_| HttpError::Refused(format!("the header {name:?} has a value a browser cannot send")))?;
            }
            let request = Request::post(url)
                .headers(gloo_net::http::Headers::from_raw(js_headers))
                .abort_signal(Some(&controller.signal()))
                .body(body)
                .map_err(|e| HttpError::Refused(e.to_string()))?;
            let response = match request.send().await {
                Ok(response) => response,
                Err(_) if cancel.is_cancelled() => return Err(ModelError::Cancelled),
                Err(e) => return Err(HttpError::Unreachable { url: url.to_string(), reason: e.to_string() }.into()),
            };
            let mut reply_headers = Headers::new();
            for (name, value) in response.headers().entries() {
                reply_headers.insert(name, value);
            }
            let chunks = response.body().map(|raw| wasm_streams::ReadableStream::from_raw(raw).into_stream());
            Ok(HttpReply {
                status: response.status(),
                headers: reply_headers,
                body: Box::new(FetchBody { chunks, controller, cancel, _registration: registration }),
            })
        })
    }
}

/// A `fetch` body, read as a stream of chunks. Dropping it aborts the
/// call, so an abandoned stream does not keep the connection open.
struct FetchBody {
    chunks: Option<IntoStream<'static>>,
    controller: AbortController,
    cancel: CancelToken,
    _registration: CancelRegistration,
}

impl Drop for FetchBody {
    fn drop(&mut self) {
        self.controller.abort();
    }
}

impl ByteStream for FetchBody {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, ModelError>> {
        Box::pin(async move {
            let Some(chunks) = &mut self.chunks else {
                return Ok(None);
            };
            match chunks.next().await {
                Some(Ok(chunk)) => match chunk.dyn_into::<Uint8Array>() {
                    Ok(bytes) => Ok(Some(bytes.to_vec())),
                    Err(_) => Err(HttpError::Refused("the reply body is not bytes".to_string()).into()),
                },
                Some(Err(_)) if self.cancel.is_cancelled() => Err(ModelError::Cancelled),
                Some(Err(e)) => Err(ModelError::Network(format!("the reply was cut off: {}", describe(&e)))),
                None => {
                    self.chunks = None;
                    Ok(None)
                }
            }
        })
    }
}
