//! The run's budget: a cap on tokens or on dollars per run, and the
//! decision, before each model call, whether that call may go. A call may
//! go when what the run spent plus what the call is expected to spend stays
//! within the cap; the call is expected to spend what its agent's previous
//! call did (nothing is known of an agent's first call, so it is expected
//! to spend nothing and goes while the run is under the cap).
//!
//! Owns the budget's reading (refusals phrased for the Settings form) and
//! the decision. Pure, like `model::retry`: inputs in, a decision out; it
//! must not look at the clock, the trace or the page. The world holds a
//! `Meter` (the sums), asks it before each call and carries out a stop.

use std::collections::BTreeMap;
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

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Tokens(n) => write!(f, "{n} tokens"),
            Budget::Dollars(d) => write!(f, "${d:.2}"),
        }
    }
}

/// What the run has spent so far, and what the calling agent's previous
/// call spent.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    /// Tokens of every bucket, the whole run.
    pub tokens: u64,
    /// Dollars, the whole run; `None` when the run's model has no price.
    pub dollars: Option<f64>,
    /// Tokens of the agent's previous call (0 before its first).
    pub last_call_tokens: u64,
    /// Dollars of the agent's previous call (0 before its first).
    pub last_call_dollars: f64,
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
        /// What the call is expected to spend, in the budget's unit.
        expected: f64,
    },
    /// A dollar budget, but the run's model has no price: the run cannot
    /// tell what a call costs, so it stops before spending anything.
    Unpriced {
        /// The budget.
        limit: Budget,
    },
}

/// The decision before a model call.
pub fn decide(budget: Option<Budget>, spent: &Spent) -> Decision {
    match budget {
        None => Decision::Go,
        Some(limit @ Budget::Tokens(cap)) => {
            let (so_far, next) = (spent.tokens, spent.last_call_tokens);
            if so_far.saturating_add(next) > cap || so_far >= cap {
                Decision::Stop { limit, spent: so_far as f64, expected: next as f64 }
            } else {
                Decision::Go
            }
        }
        Some(limit @ Budget::Dollars(cap)) => match spent.dollars {
            None => Decision::Unpriced { limit },
            Some(so_far) => {
                let next = spent.last_call_dollars;
                if so_far + next > cap || so_far >= cap {
                    Decision::Stop { limit, spent: so_far, expected: next }
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
    /// Each agent's previous call: tokens and dollars.
    last: BTreeMap<AgentName, (u64, f64)>,
}

impl Meter {
    /// A meter with nothing spent.
    pub fn new(budget: Budget, rates: Option<Rates>) -> Self {
        Meter { budget, rates, tokens: 0, dollars: 0.0, last: BTreeMap::new() }
    }

    /// Counts `agent`'s reply.
    pub fn record(&mut self, agent: &AgentName, usage: &Usage) {
        let tokens = tokens_of(usage);
        let dollars = self.rates.map_or(0.0, |r| r.dollars(usage));
        self.tokens = self.tokens.saturating_add(tokens);
        self.dollars += dollars;
        self.last.insert(agent.clone(), (tokens, dollars));
    }

    /// What was spent, as `decide` reads it, before `agent`'s next call.
    pub fn spent(&self, agent: &AgentName) -> Spent {
        let (last_call_tokens, last_call_dollars) = self.last.get(agent).copied().unwrap_or((0, 0.0));
        Spent { tokens: self.tokens, dollars: self.rates.map(|_| self.dollars), last_call_tokens, last_call_dollars }
    }

    /// Whether `agent`'s next call may go.
    pub fn decide(&self, agent: &AgentName) -> Decision {
        decide(Some(self.budget), &self.spent(agent))
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

    fn spent(tokens: u64, last: u64) -> Spent {
        Spent { tokens, dollars: None, last_call_tokens: last, last_call_dollars: 0.0 }
    }

    #[test]
    fn without_a_budget_every_call_goes() {
        assert_eq!(decide(None, &spent(u64::MAX, u64::MAX)), Decision::Go);
    }

    #[test]
    fn a_call_goes_while_the_run_plus_the_agents_last_call_stays_within_the_token_cap() {
        let cap = Some(Budget::Tokens(10_000));
        assert_eq!(decide(cap, &spent(0, 0)), Decision::Go, "the first call goes");
        assert_eq!(decide(cap, &spent(6_000, 4_000)), Decision::Go, "exactly at the cap is within it");
        assert_eq!(
            decide(cap, &spent(6_000, 4_001)),
            Decision::Stop { limit: Budget::Tokens(10_000), spent: 6_000.0, expected: 4_001.0 },
            "the next call would pass the cap"
        );
        assert!(
            matches!(decide(cap, &spent(10_000, 0)), Decision::Stop { .. }),
            "an agent's first call does not go once the cap is reached"
        );
        assert!(matches!(decide(cap, &spent(u64::MAX, u64::MAX)), Decision::Stop { .. }), "no overflow");
    }

    #[test]
    fn a_dollar_cap_is_checked_in_dollars_and_needs_a_price() {
        let cap = Some(Budget::Dollars(0.50));
        let priced = |so_far: f64, last: f64| Spent { tokens: 0, dollars: Some(so_far), last_call_tokens: 0, last_call_dollars: last };
        assert_eq!(decide(cap, &priced(0.30, 0.20)), Decision::Go);
        assert_eq!(decide(cap, &priced(0.30, 0.21)), Decision::Stop { limit: Budget::Dollars(0.50), spent: 0.30, expected: 0.21 });
        assert_eq!(decide(cap, &spent(0, 0)), Decision::Unpriced { limit: Budget::Dollars(0.50) }, "no price: no call");
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
        for e in [BudgetError::NotANumber("x".into()), BudgetError::NotPositive, BudgetError::NotWhole, BudgetError::TooLarge] {
            assert!(e.to_string().contains("budget"), "{e}");
        }
    }
}
