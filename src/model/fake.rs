//! In-memory stand-ins for the network, for native tests of the real
//! providers: a transport that plays scripted replies (statuses, headers,
//! bodies in chunks, network failures, a call that hangs until Stop) and
//! records what was sent, a sleeper that records the waits instead of
//! waiting, and a tiny `block_on`.
//!
//! Owns nothing the app runs with. It must not reach the network, a clock
//! or a thread.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use super::http::{Headers, HttpReply, HttpRequest, HttpTransport, MemoryBody};
use super::sleep::Sleeper;
use super::{CancelToken, LocalBoxFuture, ModelError};

/// One scripted answer to a `post`.
#[derive(Debug, Clone)]
pub enum FakeReply {
    /// An HTTP reply whose body arrives in these chunks (or fails midway).
    Reply {
        /// The status.
        status: u16,
        /// The headers.
        headers: Headers,
        /// The body, chunk by chunk.
        chunks: Vec<Result<Vec<u8>, ModelError>>,
    },
    /// The call fails before any reply (as `fetch` does when offline).
    Fail(ModelError),
    /// The call never answers; only Stop ends it.
    Hang,
}

impl FakeReply {
    /// A JSON reply.
    pub fn json(status: u16, body: &str) -> Self {
        FakeReply::Reply {
            status,
            headers: Headers::new().with("content-type", "application/json"),
            chunks: vec![Ok(body.as_bytes().to_vec())],
        }
    }

    /// A 200 event stream delivered in these chunks.
    pub fn sse<I, C>(chunks: I) -> Self
    where
        I: IntoIterator<Item = C>,
        C: Into<Vec<u8>>,
    {
        FakeReply::Reply {
            status: 200,
            headers: Headers::new().with("content-type", "text/event-stream"),
            chunks: chunks.into_iter().map(|c| Ok(c.into())).collect(),
        }
    }

    /// Adds a header to a reply.
    pub fn with_header(self, name: &str, value: &str) -> Self {
        match self {
            FakeReply::Reply { status, headers, chunks } => FakeReply::Reply { status, headers: headers.with(name, value), chunks },
            other => other,
        }
    }

    /// Appends a failing chunk to a reply's body (the connection drops).
    pub fn then_fail(self, error: ModelError) -> Self {
        match self {
            FakeReply::Reply { status, headers, mut chunks } => {
                chunks.push(Err(error));
                FakeReply::Reply { status, headers, chunks }
            }
            other => other,
        }
    }
}

/// A transport that plays a script, one reply per `post`, and records every
/// request. Once the script runs out, calls fail with a network error.
#[derive(Debug, Default)]
pub struct FakeTransport {
    script: RefCell<VecDeque<FakeReply>>,
    sent: RefCell<Vec<HttpRequest>>,
}

impl FakeTransport {
    /// A transport that will answer with `replies`, in order.
    pub fn new(replies: impl IntoIterator<Item = FakeReply>) -> Rc<Self> {
        Rc::new(FakeTransport { script: RefCell::new(replies.into_iter().collect()), sent: RefCell::default() })
    }

    /// Every request sent so far.
    pub fn sent(&self) -> Vec<HttpRequest> {
        self.sent.borrow().clone()
    }
}

impl HttpTransport for FakeTransport {
    fn post<'a>(
        &'a self,
        url: &'a str,
        headers: &'a Headers,
        body: String,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<HttpReply, ModelError>> {
        self.sent.borrow_mut().push(HttpRequest { url: url.to_string(), headers: headers.clone(), body });
        let next = self.script.borrow_mut().pop_front();
        Box::pin(async move {
            match next {
                None => Err(ModelError::Network("the fake transport has no more replies".into())),
                Some(FakeReply::Fail(e)) => Err(e),
                Some(FakeReply::Hang) => {
                    cancel.cancelled().await;
                    Err(ModelError::Cancelled)
                }
                Some(FakeReply::Reply { status, headers, chunks }) => {
                    Ok(HttpReply { status, headers, body: Box::new(MemoryBody::new(chunks)) })
                }
            }
        })
    }
}

/// A sleeper that returns at once and remembers each wait, in milliseconds.
#[derive(Debug, Default)]
pub struct RecordingSleeper(RefCell<Vec<u64>>);

impl RecordingSleeper {
    /// A sleeper with no waits yet.
    pub fn new() -> Rc<Self> {
        Rc::new(RecordingSleeper::default())
    }

    /// The waits asked for so far.
    pub fn waits(&self) -> Vec<u64> {
        self.0.borrow().clone()
    }
}

impl Sleeper for RecordingSleeper {
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        self.0.borrow_mut().push(ms);
        Box::pin(std::future::ready(()))
    }
}

/// A sleeper that never wakes: only Stop gets past it.
#[derive(Debug, Default, Clone, Copy)]
pub struct ForeverSleeper;

impl Sleeper for ForeverSleeper {
    fn sleep(&self, _ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(std::future::pending())
    }
}

/// Runs a future that needs nothing but polling (everything in this module)
/// to completion. Panics if it is still pending after many polls: it is
/// waiting for something no one will do.
pub fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..100_000 {
        if let Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
            return out;
        }
    }
    panic!("block_on: the future is still pending after 100000 polls");
}

/// Polls a future once: its output if it is ready.
pub fn poll_once<F: Future + Unpin>(fut: &mut F) -> Option<F::Output> {
    let mut cx = Context::from_waker(Waker::noop());
    match Pin::new(fut).poll(&mut cx) {
        Poll::Ready(out) => Some(out),
        Poll::Pending => None,
    }
}

/// A conversation with every block kind, in the untidy shape the runtime
/// may build (a tool result after text, two user turns in a row, a blank
/// text block): the golden request files in `tests/fixtures/` show what
/// each provider must make of it.
pub fn sample_request() -> super::ModelRequest {
    use super::{ContentBlock, Role, ToolSchema, Turn};
    use serde_json::json;
    let schema = |props: &[&str]| {
        let properties: serde_json::Map<String, serde_json::Value> =
            props.iter().map(|p| (p.to_string(), json!({ "type": "string" }))).collect();
        json!({ "type": "object", "properties": properties, "required": props })
    };
    super::ModelRequest {
        system: "You are a team lead at /workspace.".into(),
        messages: vec![
            Turn::user_text("Spawn alice as a coder, then request her shutdown."),
            Turn {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::text("Spawning alice."),
                    ContentBlock::ToolUse {
                        id: "toolu_1".into(),
                        name: "spawn_teammate".into(),
                        input: json!({ "name": "alice", "role": "coder", "prompt": "Write notes." }),
                    },
                ],
            },
            Turn {
                role: Role::User,
                content: vec![
                    ContentBlock::text("<inbox>[]</inbox>"),
                    ContentBlock::ToolResult {
                        tool_use_id: "toolu_1".into(),
                        content: "Spawned 'alice' (role: coder)".into(),
                        is_error: false,
                    },
                ],
            },
            Turn::user_text("Now request her shutdown."),
            Turn {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::text(""),
                    ContentBlock::ToolUse { id: "toolu_2".into(), name: "shutdown_request".into(), input: json!({ "teammate": "alice" }) },
                ],
            },
            Turn {
                role: Role::User,
                content: vec![ContentBlock::ToolResult {
                    tool_use_id: "toolu_2".into(),
                    content: "Error: alice is busy".into(),
                    is_error: true,
                }],
            },
        ],
        tools: vec![
            ToolSchema {
                name: "spawn_teammate".into(),
                description: "Spawn a teammate.".into(),
                input_schema: schema(&["name", "role", "prompt"]),
            },
            ToolSchema {
                name: "shutdown_request".into(),
                description: "Ask a teammate to shut down.".into(),
                input_schema: schema(&["teammate"]),
            },
        ]
        .into(),
        max_tokens: 8000,
    }
}
