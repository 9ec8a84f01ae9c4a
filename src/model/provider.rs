//! One HTTP model provider for every wire dialect: the request goes out
//! through a transport with retries, the reply is read as a stream or as a
//! whole body. A `Dialect` (Anthropic Messages, OpenAI Chat Completions)
//! supplies only what differs: building the request and parsing the reply.
//!
//! Owns the shared provider shape. It must not know a dialect's JSON: that
//! stays in `anthropic` and `openai`.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use super::http::{self, HttpReply, HttpRequest, HttpTransport, Sender};
use super::retry::{self, RetryPolicy};
use super::sleep::Sleeper;
use super::{CancelToken, ContentBlock, LocalBoxFuture, Model, ModelError, ModelRequest, ModelResponse, TextSink};
use crate::protocol::ids::SeededIds;

/// What one wire format supplies to `HttpModel`.
pub trait Dialect: 'static {
    /// The settings (its `Debug` never shows the key).
    type Config: fmt::Debug;
    /// An incremental parser of a streamed reply.
    type Stream: Default;
    /// What the stream parser yields.
    type Event;
    /// The provider family, for labels ("Anthropic").
    const FAMILY: &'static str;

    /// The model id, for labels.
    fn model_id(config: &Self::Config) -> &str;
    /// Whether to ask for a streamed reply.
    fn streamed(config: &Self::Config) -> bool;
    /// The HTTP request for `request`, or why it cannot be sent.
    fn prepare(config: &Self::Config, request: &ModelRequest) -> Result<HttpRequest, ModelError>;
    /// Parses a whole JSON reply.
    fn parse_body(body: &str) -> Result<ModelResponse, ModelError>;
    /// Feeds streamed bytes, appending the events they complete.
    fn feed(stream: &mut Self::Stream, bytes: &[u8], out: &mut Vec<Self::Event>) -> Result<(), ModelError>;
    /// The text an event adds, if any.
    fn text_of(event: &Self::Event) -> Option<&str>;
    /// The reply, once the stream has ended.
    fn finish(stream: Self::Stream) -> Result<ModelResponse, ModelError>;
}

/// Reads a 2xx reply in dialect `D`: a stream if the server streams, JSON
/// otherwise (a proxy may ignore `stream`). Text goes to `on_text` as it
/// arrives.
pub async fn read_reply<D: Dialect>(
    mut reply: HttpReply,
    on_text: TextSink,
    cancel: CancelToken,
    streamed: bool,
) -> Result<ModelResponse, ModelError> {
    let stream = reply.is_event_stream() || (streamed && !reply.is_json());
    if !stream {
        let bytes = http::read_to_end(reply.body.as_mut(), &cancel, http::MAX_REPLY_BODY).await?;
        let response = D::parse_body(&String::from_utf8_lossy(&bytes))?;
        for block in &response.content {
            if let ContentBlock::Text { text } = block {
                on_text(text);
            }
        }
        return Ok(response);
    }
    let mut parser = D::Stream::default();
    let mut events = Vec::new();
    while let Some(chunk) = http::or_cancel(reply.body.next_chunk(), &cancel).await?? {
        let fed = D::feed(&mut parser, &chunk, &mut events);
        for ev in events.drain(..) {
            if let Some(text) = D::text_of(&ev) {
                on_text(text);
            }
        }
        fed?;
    }
    D::finish(parser)
}

/// A provider speaking dialect `D` over a transport `T` (`FetchTransport`
/// in the browser, a fake in tests).
pub struct HttpModel<D: Dialect, T> {
    config: D::Config,
    transport: T,
    sleeper: Rc<dyn Sleeper>,
    policy: RetryPolicy,
    random: RefCell<SeededIds>,
}

impl<D: Dialect, T> fmt::Debug for HttpModel<D, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpModel")
            .field("family", &D::FAMILY)
            .field("config", &self.config)
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl<D: Dialect, T: HttpTransport> HttpModel<D, T> {
    /// A provider sending through `transport` and waiting between attempts
    /// with `sleeper`, under the default retry policy.
    pub fn new(config: D::Config, transport: T, sleeper: Rc<dyn Sleeper>) -> Self {
        HttpModel {
            config,
            transport,
            sleeper,
            policy: RetryPolicy::default(),
            random: RefCell::new(SeededIds::new(retry::DEFAULT_JITTER_SEED)),
        }
    }

    /// Replaces the retry policy.
    pub fn with_retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Seeds the backoff jitter (pass something random in the browser).
    pub fn with_jitter_seed(mut self, seed: u64) -> Self {
        self.random = RefCell::new(SeededIds::new(seed));
        self
    }

    /// The configuration.
    pub fn config(&self) -> &D::Config {
        &self.config
    }
}

impl<D: Dialect, T: HttpTransport> Model for HttpModel<D, T> {
    fn label(&self) -> String {
        format!("{} ({})", D::model_id(&self.config), D::FAMILY)
    }

    fn complete<'a>(
        &'a self,
        request: &'a ModelRequest,
        on_text: TextSink,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(async move {
            if cancel.is_cancelled() {
                return Err(ModelError::Cancelled);
            }
            let http_request = D::prepare(&self.config, request)?;
            let sender = Sender { transport: &self.transport, sleeper: &*self.sleeper, policy: &self.policy, random: &self.random };
            let streamed = D::streamed(&self.config);
            let read =
                move |reply: HttpReply, sink: TextSink, cancel: CancelToken| -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
                    Box::pin(read_reply::<D>(reply, sink, cancel, streamed))
                };
            sender.send(&http_request, on_text, &cancel, &read).await
        })
    }
}
