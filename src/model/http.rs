//! The transport under the real providers: a small HTTP `POST` trait whose
//! reply body is read as a stream of byte chunks (the browser's is
//! `model::fetch`), and the retry loop every provider shares.
//!
//! Owns sending, cancelling, waiting between attempts and the API key's
//! safekeeping ([`ApiKey`], redacting [`Headers`]). It must not know any
//! provider's JSON: `anthropic` and `openai` build requests and read
//! replies; `retry` decides whether to try again.
//!
//! The key is held in memory only. Nothing here serialises it, logs it or
//! puts it into a URL, and every `Debug` output shows `<redacted>` instead.
//! It travels only over https, or plain http to this computer (loopback).

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use super::retry::{self, RetryDecision, RetryPolicy};
use super::sleep::Sleeper;
use super::{CancelToken, Cancelled, LocalBoxFuture, ModelError, ModelResponse, TextSink};
use crate::protocol::ids::SeededIds;

/// Errors of the transport layer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    /// The base URL is not an http(s) URL.
    #[error("the base URL {0:?} must start with http:// or https://")]
    BadBaseUrl(String),
    /// The base URL holds the key (it would end up in logs and history).
    #[error("the base URL contains the API key; put the key in the key field, never in the URL")]
    KeyInUrl,
    /// A key would go over plain `http://` to a host other than this
    /// computer, readable by anyone on the way.
    #[error(
        "the API key would be sent unencrypted: use an https:// base URL (plain http:// is allowed only to this computer: localhost, 127.x.x.x or [::1])"
    )]
    KeyInClearText,
    /// The key holds characters an HTTP header cannot carry.
    #[error("the API key contains characters that cannot be sent (line breaks or control characters)")]
    BadKey,
    /// A reply body grew past the limit.
    #[error("the reply was larger than {0} bytes")]
    TooLarge(usize),
    /// The server could not be reached.
    #[error("could not reach {url}: {reason} (is the base URL right, the server running and allowing calls from a browser (CORS)?)")]
    Unreachable {
        /// Where the call went (never holds the key).
        url: String,
        /// What the browser said.
        reason: String,
    },
    /// The browser refused to build or read the request.
    #[error("the browser refused the request: {0}")]
    Refused(String),
}

impl From<HttpError> for ModelError {
    fn from(e: HttpError) -> Self {
        match e {
            HttpError::TooLarge(_) => ModelError::Malformed(e.to_string()),
            HttpError::BadBaseUrl(_) | HttpError::KeyInUrl | HttpError::KeyInClearText | HttpError::BadKey => {
                ModelError::Settings(e.to_string())
            }
            HttpError::Unreachable { .. } | HttpError::Refused(_) => ModelError::Network(e.to_string()),
        }
    }
}

/// An API key. Held in memory only: it is not `Serialize`, not `Display`,
/// and its `Debug` output is redacted.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key, trimming the whitespace a paste tends to add.
    pub fn new(key: impl Into<String>) -> Self {
        let key = key.into();
        ApiKey(key.trim().to_string())
    }

    /// The key itself, for the one header that carries it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// True when no key was given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Checks that the key can go into a header, is not inside `url`, and
    /// is not sent over plain `http://` to anything but loopback.
    pub fn check(&self, url: &str) -> Result<(), HttpError> {
        if self.0.chars().any(char::is_control) {
            return Err(HttpError::BadKey);
        }
        if self.0.is_empty() {
            return Ok(());
        }
        if url.contains(&self.0) {
            return Err(HttpError::KeyInUrl);
        }
        let url = url.trim();
        let cleartext = url.get(..7).is_some_and(|scheme| scheme.eq_ignore_ascii_case("http://"));
        if cleartext && !is_loopback(&url[7..]) {
            return Err(HttpError::KeyInClearText);
        }
        Ok(())
    }
}

/// True when the authority at the start of `rest` (what follows `http://`)
/// names this computer: `localhost`, an address in 127.0.0.0/8, or `[::1]`.
/// Anything unusual (a trailing dot, shorthand like `127.1`, odd characters)
/// counts as not loopback, so the doubt falls on the side of refusing.
fn is_loopback(rest: &str) -> bool {
    // Browsers end the authority at `\` as well as `/`, `?` and `#`.
    let authority = rest.split(['/', '\\', '?', '#']).next().unwrap_or_default();
    // Credentials before the last `@` are not the host.
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = match host_port.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((addr, port)) if port.is_empty() || port.starts_with(':') => {
                return addr.parse::<std::net::Ipv6Addr>().is_ok_and(|a| a.is_loopback());
            }
            _ => return false,
        },
        None => host_port.split(':').next().unwrap_or_default(),
    };
    host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::Ipv4Addr>().is_ok_and(|a| a.is_loopback())
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() { "ApiKey(none)" } else { "ApiKey(<redacted>)" })
    }
}

/// Header names whose values are secrets and never shown.
const SECRET_HEADERS: [&str; 5] = ["x-api-key", "authorization", "proxy-authorization", "api-key", "cookie"];

/// HTTP headers, in order, names compared case-insensitively. `Debug`
/// redacts the values of credential headers.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Headers(Vec<(String, String)>);

impl Headers {
    /// No headers.
    pub fn new() -> Self {
        Headers::default()
    }

    /// Adds a header (builder style).
    pub fn with(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.insert(name, value);
        self
    }

    /// Adds a header, replacing one of the same name.
    pub fn insert(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        self.0.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
        self.0.push((name, value.into()));
    }

    /// The value of a header, if present.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Every `(name, value)`, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// How many headers there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Headers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        for (n, v) in &self.0 {
            if SECRET_HEADERS.iter().any(|s| n.eq_ignore_ascii_case(s)) {
                map.entry(n, &"<redacted>");
            } else {
                map.entry(n, v);
            }
        }
        map.finish()
    }
}

/// A request ready to send: always a `POST` with a JSON body.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// Where it goes (never holds the key).
    pub url: String,
    /// Its headers (the key is in one of them).
    pub headers: Headers,
    /// The JSON body.
    pub body: String,
}

impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpRequest").field("url", &self.url).field("headers", &self.headers).field("body", &self.body).finish()
    }
}

/// Checks a base URL and joins `path` to it (a trailing `/` is dropped).
pub fn endpoint(base_url: &str, path: &str, key: &ApiKey) -> Result<String, HttpError> {
    key.check(base_url)?;
    let base = base_url.trim().trim_end_matches('/');
    let lower = base.to_ascii_lowercase();
    let host = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://"));
    if !host.is_some_and(|h| !h.is_empty() && !h.starts_with('/')) {
        return Err(HttpError::BadBaseUrl(base.to_string()));
    }
    Ok(format!("{base}{path}"))
}

/// A reply body, read chunk by chunk as it arrives.
pub trait ByteStream {
    /// The next chunk, or `None` at the end.
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, ModelError>>;
}

/// A body already in memory, as a list of chunks (or failures): for tests
/// and fakes.
#[derive(Debug, Default)]
pub struct MemoryBody(VecDeque<Result<Vec<u8>, ModelError>>);

impl MemoryBody {
    /// A body made of these chunks, in order.
    pub fn new(chunks: impl IntoIterator<Item = Result<Vec<u8>, ModelError>>) -> Self {
        MemoryBody(chunks.into_iter().collect())
    }

    /// A body of one chunk.
    pub fn whole(bytes: impl Into<Vec<u8>>) -> Self {
        MemoryBody::new([Ok(bytes.into())])
    }
}

impl ByteStream for MemoryBody {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, ModelError>> {
        let next = self.0.pop_front().transpose();
        Box::pin(std::future::ready(next))
    }
}

/// A reply: status and headers at once, the body as it comes.
pub struct HttpReply {
    /// The HTTP status.
    pub status: u16,
    /// The reply headers (in a browser, only those the server exposes to
    /// scripts).
    pub headers: Headers,
    /// The body.
    pub body: Box<dyn ByteStream>,
}

impl fmt::Debug for HttpReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpReply").field("status", &self.status).field("headers", &self.headers).finish_non_exhaustive()
    }
}

impl HttpReply {
    /// True for a 2xx status.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// True when the body is an event stream.
    pub fn is_event_stream(&self) -> bool {
        self.headers.get("content-type").is_some_and(|t| t.to_ascii_lowercase().contains("text/event-stream"))
    }

    /// True when the body says it is JSON.
    pub fn is_json(&self) -> bool {
        self.headers.get("content-type").is_some_and(|t| t.to_ascii_lowercase().contains("json"))
    }
}

/// Sends requests. Implementations must honour `cancel` (abort the call)
/// and turn every failure into a `ModelError`, never a panic.
pub trait HttpTransport {
    /// `POST`s `body` to `url` with `headers`.
    fn post<'a>(
        &'a self,
        url: &'a str,
        headers: &'a Headers,
        body: String,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<HttpReply, ModelError>>;
}

impl<T: HttpTransport + ?Sized> HttpTransport for Rc<T> {
    fn post<'a>(
        &'a self,
        url: &'a str,
        headers: &'a Headers,
        body: String,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<HttpReply, ModelError>> {
        (**self).post(url, headers, body, cancel)
    }
}

/// Runs `fut` until it completes or `cancel` fires, whichever is first.
pub fn or_cancel<F: Future>(fut: F, cancel: &CancelToken) -> OrCancel<F> {
    OrCancel { fut: Box::pin(fut), cancelled: cancel.cancelled() }
}

/// The future returned by [`or_cancel`].
#[must_use = "futures do nothing unless polled"]
pub struct OrCancel<F> {
    fut: Pin<Box<F>>,
    cancelled: Cancelled,
}

impl<F: Future> Future for OrCancel<F> {
    type Output = Result<F::Output, ModelError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if Pin::new(&mut self.cancelled).poll(cx).is_ready() {
            return Poll::Ready(Err(ModelError::Cancelled));
        }
        self.fut.as_mut().poll(cx).map(Ok)
    }
}

/// Reads a whole body, up to `limit` bytes, stopping at Stop.
pub async fn read_to_end(body: &mut dyn ByteStream, cancel: &CancelToken, limit: usize) -> Result<Vec<u8>, ModelError> {
    let mut all = Vec::new();
    while let Some(chunk) = or_cancel(body.next_chunk(), cancel).await?? {
        if all.len() + chunk.len() > limit {
            return Err(HttpError::TooLarge(limit).into());
        }
        all.extend_from_slice(&chunk);
    }
    Ok(all)
}

/// The largest error body read (its message is all we need).
pub const MAX_ERROR_BODY: usize = 64 * 1024;

/// The largest non-streamed reply read.
pub const MAX_REPLY_BODY: usize = 16 * 1024 * 1024;

/// What the retry loop needs besides the request.
pub struct Sender<'a> {
    /// Sends each attempt.
    pub transport: &'a dyn HttpTransport,
    /// Waits between attempts (`NoSleep` in native tests, `TimerSleeper`
    /// in the browser).
    pub sleeper: &'a dyn Sleeper,
    /// How hard to retry.
    pub policy: &'a RetryPolicy,
    /// Jitter state, advanced once per wait.
    pub random: &'a RefCell<SeededIds>,
}

impl fmt::Debug for Sender<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sender").field("policy", self.policy).finish_non_exhaustive()
    }
}

/// Reads a successful reply into a response (the provider's half).
pub type ReadReply<'a> = dyn Fn(HttpReply, TextSink, CancelToken) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> + 'a;

impl Sender<'_> {
    /// Sends `request`, retrying as `retry` decides, and reads the reply
    /// with `read`. Non-2xx replies become errors via
    /// [`retry::status_error`]. A failure while reading a 2xx reply (an
    /// `overloaded_error` mid-stream) is retried only if no text reached
    /// `on_text` yet: otherwise the user has seen part of a reply, and the
    /// error is shown instead. Stop wins over everything: once `cancel`
    /// fires the result is `ModelError::Cancelled`.
    ///
    /// Every error is passed through [`redact_error`]: a server (or proxy)
    /// that repeats the key in its error message must not get it into the
    /// trace, the UI or a log.
    pub async fn send(
        &self,
        request: &HttpRequest,
        on_text: TextSink,
        cancel: &CancelToken,
        read: &ReadReply<'_>,
    ) -> Result<ModelResponse, ModelError> {
        self.attempts(request, on_text, cancel, read).await.map_err(|e| redact_error(e, &request.headers))
    }

    async fn attempts(
        &self,
        request: &HttpRequest,
        on_text: TextSink,
        cancel: &CancelToken,
        read: &ReadReply<'_>,
    ) -> Result<ModelResponse, ModelError> {
        let emitted = Rc::new(Cell::new(false));
        let sink: TextSink = {
            let emitted = emitted.clone();
            Rc::new(move |text: &str| {
                if !text.is_empty() {
                    emitted.set(true);
                }
                on_text(text);
            })
        };
        let mut attempts = 0u32;
        loop {
            if cancel.is_cancelled() {
                return Err(ModelError::Cancelled);
            }
            attempts += 1;
            let sent = or_cancel(self.transport.post(&request.url, &request.headers, request.body.clone(), cancel.clone()), cancel).await;
            let (error, wait) = match sent.and_then(|r| r) {
                Ok(reply) if reply.is_success() => match read(reply, sink.clone(), cancel.clone()).await {
                    Ok(response) => return Ok(response),
                    Err(e) if emitted.get() => return Err(if cancel.is_cancelled() { ModelError::Cancelled } else { e }),
                    Err(e) => (e, None),
                },
                Ok(mut reply) => {
                    let wait = retry::retry_after(reply.headers.get("retry-after-ms"), reply.headers.get("retry-after"));
                    let body = read_to_end(reply.body.as_mut(), cancel, MAX_ERROR_BODY).await;
                    let body = match body {
                        Err(ModelError::Cancelled) => return Err(ModelError::Cancelled),
                        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                        Err(_) => String::new(),
                    };
                    (retry::status_error(reply.status, &body), wait)
                }
                Err(e) => (e, None),
            };
            if cancel.is_cancelled() {
                return Err(ModelError::Cancelled);
            }
            let random = self.random.borrow_mut().next_u64();
            match retry::decide(self.policy, attempts, &error, wait, random) {
                RetryDecision::RetryAfterMs(ms) => or_cancel(self.sleeper.sleep(ms), cancel).await?,
                RetryDecision::GiveUp => return Err(gave_up(error, attempts)),
            }
        }
    }
}

/// Secrets shorter than this are not searched for in error messages
/// (replacing every occurrence of a two-letter "key" would garble them).
const MIN_REDACTED_LEN: usize = 8;

/// `text` with the value of every credential header in `headers` (and a
/// bearer token without its `Bearer ` prefix) replaced by `<redacted>`.
pub fn redact(text: &str, headers: &Headers) -> String {
    let mut secrets: Vec<&str> = Vec::new();
    for (name, value) in headers.iter() {
        if SECRET_HEADERS.iter().any(|s| name.eq_ignore_ascii_case(s)) {
            secrets.push(value.trim());
            if let Some((scheme, token)) = value.trim().split_once(' ') {
                if scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("basic") {
                    secrets.push(token.trim());
                }
            }
        }
    }
    secrets.retain(|s| s.len() >= MIN_REDACTED_LEN);
    // Longest first, so "Bearer <key>" goes whole before "<key>".
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    let mut out = text.to_string();
    for secret in secrets {
        if out.contains(secret) {
            out = out.replace(secret, "<redacted>");
        }
    }
    out
}

/// `error` with every credential in `headers` redacted from its message.
pub fn redact_error(error: ModelError, headers: &Headers) -> ModelError {
    match error {
        ModelError::Cancelled => ModelError::Cancelled,
        ModelError::Unauthorized(m) => ModelError::Unauthorized(redact(&m, headers)),
        ModelError::Network(m) => ModelError::Network(redact(&m, headers)),
        ModelError::Http { status, message } => ModelError::Http { status, message: redact(&message, headers) },
        ModelError::Malformed(m) => ModelError::Malformed(redact(&m, headers)),
        ModelError::Settings(m) => ModelError::Settings(redact(&m, headers)),
    }
}

fn gave_up(error: ModelError, attempts: u32) -> ModelError {
    match error {
        ModelError::Http { status, message } if attempts > 1 => {
            ModelError::Http { status, message: format!("{message} (gave up after {attempts} attempts)") }
        }
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fake::block_on;

    #[test]
    fn header_debug_output_redacts_credentials_in_any_case() {
        let h = Headers::new()
            .with("X-Api-Key", "sk-ant-secret")
            .with("Authorization", "Bearer sk-secret")
            .with("content-type", "application/json");
        let shown = format!("{h:?}");
        assert!(!shown.contains("secret"), "{shown}");
        assert!(shown.contains("application/json") && shown.contains("<redacted>"));
        assert_eq!(h.get("x-api-key"), Some("sk-ant-secret"), "lookups ignore case");
    }

    #[test]
    fn the_key_debug_output_is_redacted() {
        assert_eq!(format!("{:?}", ApiKey::new(" sk-ant-123\n")), "ApiKey(<redacted>)");
        assert_eq!(ApiKey::new(" sk-ant-123\n").expose(), "sk-ant-123", "whitespace from a paste is trimmed");
        assert_eq!(format!("{:?}", ApiKey::new("")), "ApiKey(none)");
    }

    #[test]
    fn credentials_are_redacted_from_error_messages() {
        let h = Headers::new().with("X-Api-Key", "sk-ant-secret-123").with("content-type", "application/json");
        assert_eq!(redact("invalid key sk-ant-secret-123 (sk-ant-secret-123)", &h), "invalid key <redacted> (<redacted>)");
        let h = Headers::new().with("authorization", "Bearer sk-proj-secret-9");
        assert_eq!(redact("got 'Bearer sk-proj-secret-9', key=sk-proj-secret-9", &h), "got '<redacted>', key=<redacted>");
        let short = Headers::new().with("x-api-key", "k");
        assert_eq!(redact("invalid key k", &short), "invalid key k", "too short to search for without garbling the text");
        assert_eq!(redact("application/json", &h), "application/json", "other headers are not secrets");
        let e = redact_error(ModelError::Http { status: 429, message: "slow down, sk-proj-secret-9".into() }, &h);
        assert_eq!(e, ModelError::Http { status: 429, message: "slow down, <redacted>".into() });
        assert_eq!(redact_error(ModelError::Cancelled, &h), ModelError::Cancelled);
    }

    #[test]
    fn a_key_inside_the_base_url_is_refused() {
        let key = ApiKey::new("sk-ant-123");
        assert_eq!(endpoint("https://proxy.example/sk-ant-123", "/v1/messages", &key), Err(HttpError::KeyInUrl));
        assert!(!HttpError::KeyInUrl.to_string().contains("sk-ant"));
        assert_eq!(endpoint("https://api.anthropic.com/", "/v1/messages", &key).as_deref(), Ok("https://api.anthropic.com/v1/messages"));
    }

    #[test]
    fn a_base_url_must_be_http_or_https() {
        let key = ApiKey::default();
        for bad in ["", "api.anthropic.com", "ftp://x", "javascript:alert(1)", "https://"] {
            assert!(matches!(endpoint(bad, "/x", &key), Err(HttpError::BadBaseUrl(_))), "{bad:?}");
        }
        assert_eq!(
            endpoint("http://localhost:11434/v1", "/chat/completions", &key).as_deref(),
            Ok("http://localhost:11434/v1/chat/completions")
        );
    }

    #[test]
    fn a_key_is_never_sent_in_clear_text_to_a_host_other_than_loopback() {
        let key = ApiKey::new("sk-ant-123");
        for bad in [
            "http://example.com",
            "http://example.com:8080/v1",
            "HTTP://Example.COM/",
            "http://localhost.example.com",
            "http://127.0.0.1.example.com",
            "http://localhost@example.com",
            "http://127.0.0.1:80@example.com/v1",
            "http://example.com\\@127.0.0.1",
            "http://[::2]:8080",
            "http://10.0.0.1",
            "http://0.0.0.0",
            "http://127.1",
        ] {
            assert_eq!(endpoint(bad, "/v1/messages", &key), Err(HttpError::KeyInClearText), "{bad:?}");
        }
        let e = HttpError::KeyInClearText.to_string();
        assert!(e.contains("https://") && !e.contains("sk-ant"), "{e}");
        for ok in [
            "http://localhost:8080",
            "http://LOCALHOST/v1",
            "http://127.0.0.5",
            "http://127.0.0.1:8787/",
            "http://[::1]",
            "http://[::1]:11434/v1",
            "http://localhost#@example.com",
            "https://example.com",
            "https://api.anthropic.com/",
        ] {
            assert!(endpoint(ok, "/v1/messages", &key).is_ok(), "{ok:?}: {:?}", endpoint(ok, "/v1/messages", &key));
        }
        assert!(endpoint("http://example.com", "/v1/messages", &ApiKey::default()).is_ok(), "no key, nothing to protect");
        assert!(endpoint("http://example.com", "/v1/messages", &ApiKey::new("  ")).is_ok(), "a blank key is no key");
    }

    #[test]
    fn a_key_with_line_breaks_is_refused_before_sending() {
        assert_eq!(ApiKey::new("sk-a\nb").check("https://x"), Err(HttpError::BadKey));
    }

    #[test]
    fn reading_a_body_stops_at_the_limit_and_at_stop() {
        let cancel = CancelToken::new();
        let mut body = MemoryBody::new([Ok(b"ab".to_vec()), Ok(b"cd".to_vec())]);
        assert_eq!(block_on(read_to_end(&mut body, &cancel, 10)), Ok(b"abcd".to_vec()));
        let mut body = MemoryBody::new([Ok(b"ab".to_vec()), Ok(b"cd".to_vec())]);
        assert!(matches!(block_on(read_to_end(&mut body, &cancel, 3)), Err(ModelError::Malformed(m)) if m.contains("larger than 3 bytes")));
        cancel.cancel();
        let mut body = MemoryBody::whole("x");
        assert_eq!(block_on(read_to_end(&mut body, &cancel, 10)), Err(ModelError::Cancelled));
    }

    #[test]
    fn or_cancel_wakes_a_pending_future_when_stop_is_pressed() {
        let cancel = CancelToken::new();
        let mut fut = Box::pin(or_cancel(std::future::pending::<()>(), &cancel));
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        assert!(fut.as_mut().poll(&mut cx).is_pending());
        cancel.cancel();
        assert_eq!(fut.as_mut().poll(&mut cx), Poll::Ready(Err(ModelError::Cancelled)));
    }

    #[test]
    fn cancel_callbacks_run_once_and_unregister_when_dropped() {
        let cancel = CancelToken::new();
        let hits = Rc::new(Cell::new(0));
        let kept = {
            let hits = hits.clone();
            cancel.on_cancel(move || hits.set(hits.get() + 1))
        };
        let dropped = {
            let hits = hits.clone();
            cancel.on_cancel(move || hits.set(hits.get() + 10))
        };
        drop(dropped);
        cancel.clone().cancel();
        cancel.cancel();
        assert_eq!(hits.get(), 1);
        drop(kept);
        let late = {
            let hits = hits.clone();
            cancel.on_cancel(move || hits.set(hits.get() + 100))
        };
        assert_eq!(hits.get(), 101, "registering on a cancelled token runs at once");
        drop(late);
    }
}
