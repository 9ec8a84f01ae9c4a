//! The run's budget: a cap on tokens or on dollars per run, and the
//! decision, before each model call, whether that call may go. A call may
//! go when what the run spent plus the most this call may spend
//! (`NextCall`: its prompt's size, estimated as the scripted model
//! estimates usage, and its `max_tokens`) stays within the cap. The
//! runtime makes one model call at a time (an agent holds the baton
//! through its call, `runtime::scheduler`), so every earlier reply is
//! counted when the next call is decided, and a run a budget stops has
//! never spent more than its budget.
//!
//! Owns the budget's reading (refusals phrased for the Settings form) and
//! the decision. Pure, like `model::retry`: inputs in, a decision out; it
//! must not look at the clock, the trace or the page. The world holds a
//! `Meter` (the sums), asks it before each call and carries out a stop.

use std::fmt;

use crate::model::Usage;
use crate::protocol::{AgentName, BudgetLimit, Event};

/// What a budget caps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    /// Tokens of every bucket (input, output, cache read and write).
    Tokens(u64),
    /// US dollars, at the price table's price for the run's model.
    Dollars(f64),
}

/// Why a budget typed in Settings is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    /// Not a number.
    #[error("the budget \"{0}\" is not a number; write a whole number of tokens or an amount of dollars, or leave it empty for no budget")]
    NotANumber(String),
    /// Zero or less: no call could ever run.
    #[error("a budget must be more than zero (leave it empty for no budget)")]
    NotPositive,
    /// Tokens must be whole.
    #[error("a token budget is a whole number of tokens, like 50000")]
    NotWhole,
    /// Beyond any run this page could make.
    #[error("a budget this large caps nothing; leave it empty for no budget")]
    TooLarge,
}

/// The largest token budget accepted (a billion tokens).
const MAX_TOKENS: u64 = 1_000_000_000;
/// The largest dollar budget accepted.
const MAX_DOLLARS: f64 = 100_000.0;

/// A finite number above zero, as typed (the start of a refusal quoted).
fn positive(text: &str) -> Result<f64, BudgetError> {
    let v: f64 = text.parse().map_err(|_| BudgetError::NotANumber(text.chars().take(20).collect()))?;
    if !v.is_finite() {
        return Err(BudgetError::NotANumber(text.chars().take(20).collect()));
    }
    if v <= 0.0 {
        return Err(BudgetError::NotPositive);
    }
    Ok(v)
}

impl Budget {
    /// Reads a token budget typed in Settings; empty text is no budget.
    pub fn tokens(text: &str) -> Result<Option<Budget>, BudgetError> {
        let text = text.trim().replace(['_', ','], "");
        if text.is_empty() {
            return Ok(None);
        }
        let v = positive(&text)?;
        if v.fract() != 0.0 {
            return Err(BudgetError::NotWhole);
        }
        if v > MAX_TOKENS as f64 {
            return Err(BudgetError::TooLarge);
        }
        Ok(Some(Budget::Tokens(v as u64)))
    }

    /// Reads a dollar budget typed in Settings (a leading `$` is fine);
    /// empty text is no budget.
    pub fn dollars(text: &str) -> Result<Option<Budget>, BudgetError> {
        let text = text.trim().trim_start_matches('$').trim();
        if text.is_empty() {
            return Ok(None);
        }
        let v = positive(text)?;
        if v > MAX_DOLLARS {
            return Err(BudgetError::TooLarge);
        }
        Ok(Some(Budget::Dollars(v)))
    }
}

impl Budget {
    /// A budget as a trace, a snapshot or a link records it, checked as the
    /// Settings form checks a typed one.
    pub fn from_limit(limit: &BudgetLimit) -> Result<Budget, BudgetError> {
        let read = match *limit {
            BudgetLimit::Tokens(n) => Budget::tokens(&n.to_string()),
            BudgetLimit::Microdollars(m) => Budget::dollars(&(m as f64 / 1_000_000.0).to_string()),
        };
        read?.ok_or(BudgetError::NotPositive)
    }

    /// The amount as typed in Settings: "50000" tokens, "0.5" dollars
    /// (`tokens` and `dollars` read it back).
    pub fn typed(&self) -> String {
        match self {
            Budget::Tokens(n) => n.to_string(),
            Budget::Dollars(d) => d.to_string(),
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Tokens(n) => write!(f, "{n} tokens"),
            Budget::Dollars(d) => write!(f, "${d:.2}"),
        }
    }
}

/// The most a model call about to be made can cost, told from its request
/// before it is sent: the prompt (system, tools and conversation, as JSON)
/// at about four characters a token — the estimate the scripted model's
/// usage gives, `model::json_len` over 4 rounded up — and the reply at
/// most `max_tokens`, the request's own limit, which a provider never
/// exceeds. Once a provider has counted a prompt of the run, the estimate
/// is never below the densest count it gave (`Meter::next_call`): text a
/// provider counts at more than a token per four characters (Japanese,
/// Chinese, code) is bounded by what the provider itself said. The reply's bound is the request's limit, not the agent's
/// largest reply so far: only a bound lets the rule hold that a run a
/// budget stops never spent more than its budget. A provider's own count
/// of the prompt may differ from four characters a token; the scripted
/// model's is exactly this estimate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NextCall {
    /// The prompt's tokens, estimated.
    pub input_tokens: u64,
    /// The most tokens the reply may use (`max_tokens`).
    pub max_output_tokens: u64,
}

impl NextCall {
    /// The call whose request is `request_chars` long as JSON and whose
    /// reply may use `max_tokens`.
    pub fn of_request(request_chars: usize, max_tokens: u32) -> Self {
        NextCall { input_tokens: request_chars.div_ceil(4) as u64, max_output_tokens: u64::from(max_tokens) }
    }

    /// As `of_request`, the prompt counted at `tokens_per_char` when that
    /// is denser than four characters a token.
    pub fn of_request_at(request_chars: usize, max_tokens: u32, tokens_per_char: f64) -> Self {
        let at_four = NextCall::of_request(request_chars, max_tokens);
        let counted = (request_chars as f64 * tokens_per_char).ceil() as u64;
        NextCall { input_tokens: at_four.input_tokens.max(counted), ..at_four }
    }

    /// Its tokens at most.
    pub fn tokens(&self) -> u64 {
        self.input_tokens.saturating_add(self.max_output_tokens)
    }

    /// Its dollars at most at `rates`: the prompt priced at the dearest of
    /// the prompt's buckets (a provider may write it to its cache, which
    /// costs more than reading it fresh), the reply at the output price.
    pub fn dollars(&self, rates: &Rates) -> f64 {
        let prompt = rates.input.max(rates.cache_read).max(rates.cache_write);
        (self.input_tokens as f64 * prompt + self.max_output_tokens as f64 * rates.output) / 1_000_000.0
    }
}

/// What the run has spent so far, and what the next call may spend.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    /// Tokens of every bucket the replies so far used, the whole run.
    pub tokens: u64,
    /// Dollars, the whole run; `None` when the run's model has no price.
    pub dollars: Option<f64>,
    /// Tokens the next call may use at most.
    pub next_tokens: u64,
    /// Dollars the next call may cost at most (0 without a price).
    pub next_dollars: f64,
}

/// Whether the next model call may go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decision {
    /// Within the budget (or no budget).
    Go,
    /// The call would pass the budget: stop the run.
    Stop {
        /// The budget it would pass.
        limit: Budget,
        /// What the run spent so far, in the budget's unit.
        spent: f64,
        /// What this call may spend at most, in the budget's unit.
        expected: f64,
    },
    /// A dollar budget, but the run's model has no price: the run cannot
    /// tell what a call costs, so it stops before spending anything.
    Unpriced {
        /// The budget.
        limit: Budget,
    },
}

/// The decision before a model call: it goes when what the run spent plus
/// what this call may spend at most stays within the cap. Every call that
/// went was within the cap at its worst, so the run never spends more than
/// its budget (when each call spends at most its bound).
pub fn decide(budget: Option<Budget>, spent: &Spent) -> Decision {
    match budget {
        None => Decision::Go,
        Some(limit @ Budget::Tokens(cap)) => {
            let so_far = spent.tokens;
            let expected = spent.next_tokens;
            if so_far.saturating_add(expected) > cap {
                Decision::Stop { limit, spent: so_far as f64, expected: expected as f64 }
            } else {
                Decision::Go
            }
        }
        Some(limit @ Budget::Dollars(cap)) => match spent.dollars {
            None => Decision::Unpriced { limit },
            Some(so_far) => {
                let expected = spent.next_dollars;
                if so_far + expected > cap {
                    Decision::Stop { limit, spent: so_far, expected }
                } else {
                    Decision::Go
                }
            }
        },
    }
}

/// What a million tokens of each bucket cost on the run's model, in US
/// dollars (the page's price table, `view::prices`, passes its row in).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    /// Prompt tokens read fresh.
    pub input: f64,
    /// Reply tokens.
    pub output: f64,
    /// Prompt tokens read from the cache.
    pub cache_read: f64,
    /// Prompt tokens written to the cache.
    pub cache_write: f64,
}

impl Rates {
    /// The dollars `usage` costs at these rates.
    pub fn dollars(&self, usage: &Usage) -> f64 {
        let m = |tokens: u64, per_million: f64| tokens as f64 * per_million / 1_000_000.0;
        m(usage.input_tokens, self.input)
            + m(usage.output_tokens, self.output)
            + m(usage.cache_read_tokens, self.cache_read)
            + m(usage.cache_write_tokens, self.cache_write)
    }
}

/// Every token of every bucket of one reply.
pub fn tokens_of(usage: &Usage) -> u64 {
    usage.input_tokens.saturating_add(usage.output_tokens).saturating_add(usage.cache_read_tokens).saturating_add(usage.cache_write_tokens)
}

/// A run's budget and its running sums: fed each reply's usage, asked
/// before each call. The runtime's world holds one when a budget is set.
#[derive(Debug, Clone, PartialEq)]
pub struct Meter {
    /// The cap.
    pub budget: Budget,
    /// The run's model's price, if the table has one.
    pub rates: Option<Rates>,
    tokens: u64,
    dollars: f64,
    /// The densest prompt a provider counted in this run, in tokens per
    /// character of its request (0 until a measured reply).
    tokens_per_char: f64,
}

impl Meter {
    /// A meter with nothing spent.
    pub fn new(budget: Budget, rates: Option<Rates>) -> Self {
        Meter { budget, rates, tokens: 0, dollars: 0.0, tokens_per_char: 0.0 }
    }

    /// Counts a reply to a request `request_chars` long as JSON: its usage,
    /// and, when the provider measured it, how densely it counted the
    /// prompt.
    pub fn record_reply(&mut self, usage: &Usage, request_chars: usize) {
        self.record(usage);
        if usage.measured && request_chars > 0 {
            let prompt = usage.input_tokens.saturating_add(usage.cache_read_tokens).saturating_add(usage.cache_write_tokens);
            self.tokens_per_char = self.tokens_per_char.max(prompt as f64 / request_chars as f64);
        }
    }

    /// The most the next call may spend: its request `request_chars` long,
    /// at four characters a token or at the densest count a provider gave
    /// in this run, whichever is more, and its reply at `max_tokens`.
    pub fn next_call(&self, request_chars: usize, max_tokens: u32) -> NextCall {
        NextCall::of_request_at(request_chars, max_tokens, self.tokens_per_char)
    }

    /// Counts a reply.
    pub fn record(&mut self, usage: &Usage) {
        self.tokens = self.tokens.saturating_add(tokens_of(usage));
        self.dollars += self.rates.map_or(0.0, |r| r.dollars(usage));
    }

    /// What was spent, and what a call bounded by `next` may spend, as
    /// `decide` reads it.
    pub fn spent(&self, next: &NextCall) -> Spent {
        Spent {
            tokens: self.tokens,
            dollars: self.rates.map(|_| self.dollars),
            next_tokens: next.tokens(),
            next_dollars: self.rates.map_or(0.0, |r| next.dollars(&r)),
        }
    }

    /// Whether a call bounded by `next` may go.
    pub fn decide(&self, next: &NextCall) -> Decision {
        decide(Some(self.budget), &self.spent(next))
    }
}

/// Millionths of a dollar, as the trace records money (rounded to the
/// nearest, never below zero).
pub fn micros(dollars: f64) -> u64 {
    (dollars * 1_000_000.0).round().max(0.0) as u64
}

impl Budget {
    /// The budget as the trace records it.
    pub fn limit(&self) -> BudgetLimit {
        match *self {
            Budget::Tokens(n) => BudgetLimit::Tokens(n),
            Budget::Dollars(d) => BudgetLimit::Microdollars(micros(d)),
        }
    }
}

impl Decision {
    /// The event a stop records, before `agent`'s call; `None` for `Go`.
    pub fn event(&self, agent: &AgentName) -> Option<Event> {
        let amount = |limit: &Budget, v: f64| match limit {
            Budget::Tokens(_) => v.max(0.0) as u64,
            Budget::Dollars(_) => micros(v),
        };
        match self {
            Decision::Go => None,
            Decision::Stop { limit, spent, expected } => Some(Event::BudgetReached {
                agent: agent.clone(),
                limit: limit.limit(),
                spent: amount(limit, *spent),
                expected: amount(limit, *expected),
                unpriced: false,
            }),
            Decision::Unpriced { limit } => {
                Some(Event::BudgetReached { agent: agent.clone(), limit: limit.limit(), spent: 0, expected: 0, unpriced: true })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spent(tokens: u64, next: u64) -> Spent {
        Spent { tokens, dollars: None, next_tokens: next, next_dollars: 0.0 }
    }

    #[test]
    fn without_a_budget_every_call_goes() {
        assert_eq!(decide(None, &spent(u64::MAX, u64::MAX)), Decision::Go);
    }

    #[test]
    fn a_call_goes_while_the_run_plus_the_calls_out_plus_this_call_at_most_stay_within_the_token_cap() {
        let cap = Some(Budget::Tokens(10_000));
        assert_eq!(decide(cap, &spent(0, 9_000)), Decision::Go, "a first call within the cap goes");
        assert_eq!(decide(cap, &spent(6_000, 4_000)), Decision::Go, "exactly at the cap is within it");
        assert_eq!(
            decide(cap, &spent(6_000, 4_001)),
            Decision::Stop { limit: Budget::Tokens(10_000), spent: 6_000.0, expected: 4_001.0 },
            "the next call could pass the cap"
        );
        assert!(matches!(decide(cap, &spent(0, 10_001)), Decision::Stop { .. }), "a first call that could pass the cap does not go");
        assert!(matches!(decide(cap, &spent(u64::MAX, u64::MAX)), Decision::Stop { .. }), "no overflow");
    }

    #[test]
    fn a_dollar_cap_is_checked_in_dollars_and_needs_a_price() {
        let cap = Some(Budget::Dollars(0.50));
        let priced = |so_far: f64, next: f64| Spent { tokens: 0, dollars: Some(so_far), next_tokens: 0, next_dollars: next };
        assert_eq!(decide(cap, &priced(0.30, 0.20)), Decision::Go);
        assert_eq!(decide(cap, &priced(0.30, 0.21)), Decision::Stop { limit: Budget::Dollars(0.50), spent: 0.30, expected: 0.21 });
        assert_eq!(decide(cap, &spent(0, 0)), Decision::Unpriced { limit: Budget::Dollars(0.50) }, "no price: no call");
    }

    #[test]
    fn the_next_call_is_bounded_by_its_prompt_at_four_characters_a_token_and_its_max_tokens() {
        let next = NextCall::of_request(4_001, 8_000);
        assert_eq!(next, NextCall { input_tokens: 1_001, max_output_tokens: 8_000 }, "rounded up, as the scripted model's estimate");
        assert_eq!(next.tokens(), 9_001);
        let rates = Rates { input: 3.0, output: 15.0, cache_read: 0.3, cache_write: 3.75 };
        let want = (1_001.0 * 3.75 + 8_000.0 * 15.0) / 1e6;
        assert!((next.dollars(&rates) - want).abs() < 1e-12, "the prompt at the dearest prompt price: {}", next.dollars(&rates));
        // Whatever the reply's buckets, a reply within the bound costs no more.
        for (read, write) in [(0, 0), (1_001, 0), (0, 1_001), (500, 501)] {
            let usage = Usage {
                input_tokens: 1_001 - read - write,
                output_tokens: 8_000,
                cache_read_tokens: read,
                cache_write_tokens: write,
                measured: true,
            };
            assert!(rates.dollars(&usage) <= next.dollars(&rates) + 1e-12);
            assert_eq!(tokens_of(&usage), next.tokens());
        }
    }

    #[test]
    fn a_meter_sums_every_reply_and_prices_the_next_call_at_its_bound() {
        let rates = Rates { input: 1.0, output: 2.0, cache_read: 0.5, cache_write: 1.0 };
        let mut meter = Meter::new(Budget::Dollars(0.01), Some(rates));
        let call = NextCall { input_tokens: 1_000, max_output_tokens: 2_000 };
        assert_eq!(meter.decide(&call), Decision::Go, "$0.005 at most");
        meter.record(&Usage::plain(1_000, 1_500));
        assert_eq!(meter.spent(&call).tokens, 2_500);
        assert_eq!(meter.decide(&call), Decision::Go, "$0.004 spent, $0.005 at most");
        meter.record(&Usage::plain(1_000, 1_500));
        assert!(matches!(meter.decide(&call), Decision::Stop { .. }), "$0.008 spent, $0.005 more could pass $0.01");
    }

    #[test]
    fn once_a_provider_counted_a_prompt_denser_than_four_characters_a_token_the_next_call_is_bounded_at_its_count() {
        let mut meter = Meter::new(Budget::Tokens(100_000), None);
        assert_eq!(meter.next_call(4_000, 500), NextCall { input_tokens: 1_000, max_output_tokens: 500 }, "before any count");
        // An estimate (the scripted model's) teaches nothing.
        meter.record_reply(&Usage { measured: false, ..Usage::plain(4_000, 10) }, 4_000);
        assert_eq!(meter.next_call(4_000, 500).input_tokens, 1_000);
        // A provider counted 2,000 prompt tokens (half of them cached) for 3,000 characters.
        meter.record_reply(&Usage { cache_read_tokens: 1_000, measured: true, ..Usage::plain(1_000, 10) }, 3_000);
        assert_eq!(meter.next_call(6_000, 500).input_tokens, 4_000, "two thirds of a token a character");
        // A sparser count later does not lower the bound.
        meter.record_reply(&Usage { measured: true, ..Usage::plain(100, 10) }, 3_000);
        assert_eq!(meter.next_call(6_000, 500).input_tokens, 4_000);
        // Nor does the bound fall below four characters a token.
        let mut sparse = Meter::new(Budget::Tokens(100_000), None);
        sparse.record_reply(&Usage { measured: true, ..Usage::plain(10, 10) }, 4_000);
        assert_eq!(sparse.next_call(4_000, 500).input_tokens, 1_000);
    }

    #[test]
    fn zero_negative_and_nonsense_budgets_are_refused_with_a_sentence() {
        assert_eq!(Budget::tokens(""), Ok(None), "empty: no budget");
        assert_eq!(Budget::tokens(" 50_000 "), Ok(Some(Budget::Tokens(50_000))));
        assert_eq!(Budget::tokens("1,000"), Ok(Some(Budget::Tokens(1_000))));
        assert_eq!(Budget::dollars("$2.5"), Ok(Some(Budget::Dollars(2.5))));
        assert_eq!(Budget::tokens("0"), Err(BudgetError::NotPositive));
        assert_eq!(Budget::dollars("-1"), Err(BudgetError::NotPositive));
        assert_eq!(Budget::dollars("0.00"), Err(BudgetError::NotPositive));
        assert_eq!(Budget::tokens("lots"), Err(BudgetError::NotANumber("lots".into())));
        assert_eq!(Budget::tokens("NaN"), Err(BudgetError::NotANumber("NaN".into())));
        assert_eq!(Budget::dollars("inf"), Err(BudgetError::NotANumber("inf".into())));
        assert_eq!(Budget::tokens("12.5"), Err(BudgetError::NotWhole));
        assert_eq!(Budget::tokens("1e12"), Err(BudgetError::TooLarge));
        assert_eq!(Budget::dollars("1000000"), Err(BudgetError::TooLarge));
        // Recorded budgets (a snapshot's, a link's) pass the same checks.
        for budget in [Budget::Tokens(1), Budget::Tokens(50_000), Budget::Dollars(0.5), Budget::Dollars(2.25)] {
            assert_eq!(Budget::from_limit(&budget.limit()), Ok(budget));
            let typed = budget.typed();
            let read = if matches!(budget, Budget::Tokens(_)) { Budget::tokens(&typed) } else { Budget::dollars(&typed) };
            assert_eq!(read, Ok(Some(budget)), "{typed}");
        }
        assert_eq!(Budget::from_limit(&BudgetLimit::Tokens(0)), Err(BudgetError::NotPositive));
        assert_eq!(Budget::from_limit(&BudgetLimit::Microdollars(0)), Err(BudgetError::NotPositive));
        assert_eq!(Budget::from_limit(&BudgetLimit::Tokens(u64::MAX)), Err(BudgetError::TooLarge));
        assert_eq!(Budget::from_limit(&BudgetLimit::Microdollars(u64::MAX)), Err(BudgetError::TooLarge));
        for e in [BudgetError::NotANumber("x".into()), BudgetError::NotPositive, BudgetError::NotWhole, BudgetError::TooLarge] {
            assert!(e.to_string().contains("budget"), "{e}");
        }
    }
}
