//! The retry policy, as pure functions: which failures are worth another
//! attempt, how long to wait first, and what error a failed HTTP status
//! becomes. No clock, no sleeping, no randomness of its own: the attempt
//! count, the `retry-after` header and a random number come in, a decision
//! comes out, so every rule is testable without waiting.
//!
//! The rules:
//! - 429 (rate limited), 529 and Anthropic's `overloaded_error` (overloaded)
//!   are retried up to [`RetryPolicy::max_attempts`] attempts in all, after
//!   the server's `retry-after-ms` / `retry-after` (seconds; an HTTP date is
//!   ignored and the backoff used instead), or else a capped exponential
//!   backoff with jitter. A server asking for a longer wait than
//!   [`RetryPolicy::max_retry_after_ms`] is not waited for: the error shows.
//! - Other 5xx (500, 502, 503, 504, ...) are retried at most
//!   [`RetryPolicy::server_error_retries`] times: a proxy hiccup often
//!   passes, a broken server does not, and the user should hear about it.
//! - 401 and 403 become [`ModelError::Unauthorized`] ("the key was
//!   refused"); every other 4xx is shown at once, never retried.
//! - Network failures are not retried: in a browser they are almost always
//!   a wrong base URL, CORS or being offline, none of which a retry fixes.
//!
//! Owns these decisions only; the loop that acts on them is in `http`.

use serde_json::Value;

use super::ModelError;
use crate::protocol::text::parse_decimal;

/// How hard to retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// The backoff before the first retry; it doubles each time.
    pub base_delay_ms: u64,
    /// The backoff never exceeds this.
    pub max_delay_ms: u64,
    /// The longest `retry-after` honoured; a longer one gives up.
    pub max_retry_after_ms: u64,
    /// Retries allowed for a 5xx other than 529.
    pub server_error_retries: u32,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy { max_attempts: 5, base_delay_ms: 1_000, max_delay_ms: 30_000, max_retry_after_ms: 60_000, server_error_retries: 2 }
    }
}

impl RetryPolicy {
    /// A policy that never retries.
    pub fn never() -> Self {
        RetryPolicy { max_attempts: 1, server_error_retries: 0, ..RetryPolicy::default() }
    }
}

/// What kind of failure an error is, for retrying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// 429, 529 or `overloaded_error`: the server asks us to come back later.
    Throttled,
    /// Another 5xx: the server failed.
    ServerError,
    /// Anything else: retrying would not help.
    Final,
}

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryDecision {
    /// Wait this long, then try again.
    RetryAfterMs(u64),
    /// Show the error.
    GiveUp,
}

/// Sorts an error into a [`Failure`].
pub fn classify(error: &ModelError) -> Failure {
    match error {
        ModelError::Http { status: 429 | 529, .. } => Failure::Throttled,
        ModelError::Http { message, .. } if message.starts_with("overloaded_error") => Failure::Throttled,
        ModelError::Http { status: 500..=599, .. } => Failure::ServerError,
        _ => Failure::Final,
    }
}

/// Decides what to do after `attempts_made` attempts (1 after the first)
/// ended in `error`. `retry_after` is the wait the reply asked for (see
/// [`retry_after`]); `random` is any random number, for the jitter.
pub fn decide(policy: &RetryPolicy, attempts_made: u32, error: &ModelError, retry_after: Option<RetryAfter>, random: u64) -> RetryDecision {
    let allowed = match classify(error) {
        Failure::Throttled => policy.max_attempts,
        Failure::ServerError => policy.max_attempts.min(policy.server_error_retries.saturating_add(1)),
        Failure::Final => return RetryDecision::GiveUp,
    };
    if attempts_made >= allowed {
        return RetryDecision::GiveUp;
    }
    match retry_after {
        Some(RetryAfter(ms)) if ms > policy.max_retry_after_ms => RetryDecision::GiveUp,
        Some(RetryAfter(ms)) => RetryDecision::RetryAfterMs(ms),
        None => RetryDecision::RetryAfterMs(backoff_ms(policy, attempts_made, random)),
    }
}

/// A wait the server asked for, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub u64);

/// Reads the wait a reply asks for: `retry-after-ms` (milliseconds, sent by
/// OpenAI) first, else `retry-after` in seconds (whole or fractional). An
/// HTTP date, a negative or an unreadable value gives `None`: use the
/// backoff. Numbers are read by `protocol::text::parse_decimal`.
pub fn retry_after(retry_after_ms: Option<&str>, retry_after_secs: Option<&str>) -> Option<RetryAfter> {
    let parse = |v: &str, scale: f64| parse_decimal(v.trim()).map(|x| RetryAfter((x * scale).ceil() as u64));
    retry_after_ms.and_then(|v| parse(v, 1.0)).or_else(|| retry_after_secs.and_then(|v| parse(v, 1000.0)))
}

/// The backoff before retry number `attempts_made`: the base doubled per
/// earlier attempt, capped at `max_delay_ms`, then "equal jitter": half of
/// it fixed and the other half scaled by `random`, so it lies in
/// `[d/2, d]`.
pub fn backoff_ms(policy: &RetryPolicy, attempts_made: u32, random: u64) -> u64 {
    let doublings = attempts_made.saturating_sub(1).min(32);
    let full = policy.base_delay_ms.saturating_mul(1u64 << doublings).min(policy.max_delay_ms);
    let half = full / 2;
    half + random % (full - half + 1)
}

/// The jitter seed a provider starts from unless given another. The numbers
/// come from the crate's one generator, `protocol::ids::SeededIds`, owned by
/// the retry loop (`http::Sender`), never by this module.
pub const DEFAULT_JITTER_SEED: u64 = 0x5EED_0FA1_7E55_1A7E;

/// The error a non-2xx reply becomes. The message comes from the body's
/// `error.message` (and `error.type`), as both Anthropic and OpenAI-style
/// servers send it; otherwise from the start of the body, or the status.
pub fn status_error(status: u16, body: &str) -> ModelError {
    let message = error_message(body).unwrap_or_else(|| {
        let text: String = body.trim().chars().take(300).collect();
        if text.is_empty() {
            reason_phrase(status).to_string()
        } else {
            text
        }
    });
    match status {
        401 | 403 => ModelError::Unauthorized(format!("{status}: {message}")),
        _ => ModelError::Http { status, message },
    }
}

fn error_message(body: &str) -> Option<String> {
    let v: Value = serde_json::from_str(body).ok()?;
    let err = v.get("error")?;
    if let Some(s) = err.as_str() {
        return Some(s.to_string());
    }
    let message = err.get("message").and_then(Value::as_str)?;
    Some(match err.get("type").and_then(Value::as_str) {
        Some(kind) if !kind.is_empty() => format!("{kind}: {message}"),
        _ => message.to_string(),
    })
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        413 => "Request Too Large",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        529 => "Overloaded",
        _ => "no message",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ids::SeededIds;

    fn http(status: u16) -> ModelError {
        ModelError::Http { status, message: "x".into() }
    }

    #[test]
    fn rate_limits_and_overload_are_retried_until_the_attempts_run_out() {
        let p = RetryPolicy::default();
        for e in [http(429), http(529), ModelError::Http { status: 500, message: "overloaded_error: Overloaded".into() }] {
            for attempt in 1..p.max_attempts {
                assert!(matches!(decide(&p, attempt, &e, None, 7), RetryDecision::RetryAfterMs(_)), "{e:?} attempt {attempt}");
            }
            assert_eq!(decide(&p, p.max_attempts, &e, None, 7), RetryDecision::GiveUp);
        }
    }

    #[test]
    fn other_4xx_and_network_errors_are_never_retried() {
        let p = RetryPolicy::default();
        for e in [
            http(400),
            http(404),
            http(413),
            ModelError::Unauthorized("401".into()),
            ModelError::Network("down".into()),
            ModelError::Malformed("?".into()),
            ModelError::Cancelled,
        ] {
            assert_eq!(decide(&p, 1, &e, Some(RetryAfter(1)), 0), RetryDecision::GiveUp, "{e:?}");
        }
    }

    #[test]
    fn other_5xx_are_retried_only_a_couple_of_times() {
        let p = RetryPolicy::default();
        for status in [500, 502, 503, 504] {
            assert!(matches!(decide(&p, 1, &http(status), None, 0), RetryDecision::RetryAfterMs(_)));
            assert!(matches!(decide(&p, 2, &http(status), None, 0), RetryDecision::RetryAfterMs(_)));
            assert_eq!(decide(&p, 3, &http(status), None, 0), RetryDecision::GiveUp);
        }
    }

    #[test]
    fn retry_after_is_honoured_exactly_and_a_too_long_one_gives_up() {
        let p = RetryPolicy::default();
        assert_eq!(decide(&p, 1, &http(429), Some(RetryAfter(2_000)), 12345), RetryDecision::RetryAfterMs(2_000));
        assert_eq!(decide(&p, 1, &http(429), Some(RetryAfter(0)), 12345), RetryDecision::RetryAfterMs(0));
        assert_eq!(decide(&p, 1, &http(429), Some(RetryAfter(120_000)), 0), RetryDecision::GiveUp);
    }

    #[test]
    fn retry_after_reads_seconds_and_milliseconds_and_ignores_dates() {
        assert_eq!(retry_after(None, Some("3")), Some(RetryAfter(3_000)));
        assert_eq!(retry_after(None, Some(" 1.5 ")), Some(RetryAfter(1_500)));
        assert_eq!(retry_after(Some("250"), Some("3")), Some(RetryAfter(250)), "the milliseconds header wins");
        assert_eq!(retry_after(None, Some("Wed, 21 Oct 2015 07:28:00 GMT")), None);
        assert_eq!(retry_after(None, Some("-1")), None);
        assert_eq!(retry_after(Some("soon"), None), None);
        assert_eq!(retry_after(None, None), None);
    }

    #[test]
    fn backoff_doubles_is_capped_and_jitter_stays_in_the_upper_half() {
        let p = RetryPolicy::default();
        assert_eq!(backoff_ms(&p, 1, 0), 500);
        assert_eq!(backoff_ms(&p, 1, 500), 1_000);
        assert_eq!(backoff_ms(&p, 2, 0), 1_000);
        assert_eq!(backoff_ms(&p, 3, 0), 2_000);
        assert_eq!(backoff_ms(&p, 10, 0), 15_000);
        assert!(backoff_ms(&p, 40, u64::MAX) <= p.max_delay_ms);
        let mut random = SeededIds::new(42);
        for attempt in 1..=8 {
            for _ in 0..100 {
                let full = (1_000u64 << (attempt - 1)).min(30_000);
                let d = backoff_ms(&p, attempt, random.next_u64());
                assert!(d >= full / 2 && d <= full, "attempt {attempt}: {d} outside [{}, {full}]", full / 2);
            }
        }
    }

    #[test]
    fn a_refused_key_says_the_key_was_refused() {
        let body = r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#;
        let e = status_error(401, body);
        assert_eq!(e, ModelError::Unauthorized("401: authentication_error: invalid x-api-key".into()));
        assert!(e.to_string().contains("the key was refused"));
        assert!(matches!(status_error(403, ""), ModelError::Unauthorized(m) if m == "403: Forbidden"));
    }

    #[test]
    fn error_messages_come_from_the_body_in_either_dialect() {
        let anthropic = r#"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too big"}}"#;
        assert_eq!(
            status_error(400, anthropic),
            ModelError::Http { status: 400, message: "invalid_request_error: max_tokens: too big".into() }
        );
        let openai = r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#;
        assert_eq!(status_error(429, openai), ModelError::Http { status: 429, message: "requests: Rate limit reached".into() });
        assert_eq!(
            status_error(502, "<html>Bad gateway</html>"),
            ModelError::Http { status: 502, message: "<html>Bad gateway</html>".into() }
        );
        assert_eq!(status_error(529, ""), ModelError::Http { status: 529, message: "Overloaded".into() });
        let overloaded = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert_eq!(classify(&status_error(503, overloaded)), Failure::Throttled);
    }
}
