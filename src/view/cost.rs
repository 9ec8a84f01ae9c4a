//! What a run cost: the tokens each model call used (fresh input, output,
//! cache read, cache write), summed per agent and for the run as of a
//! cursor, and their price in dollars when the price table knows the model.
//! Counts the scripted model estimated are marked as estimates ("≈").
//!
//! Also splits each agent's tokens between protocol handshakes (calls that
//! asked only for protocol tools) and work, so a learner sees what a
//! handshake costs.
//!
//! Owns the sums, the split, the dollar arithmetic and the words that show them. Pure:
//! no DOM, no signals, no storage; the page passes in the trace, the cursor,
//! the model id and the price table.

use std::collections::BTreeMap;

use crate::model::provider_settings::Provider;
use crate::protocol::{AgentName, BudgetLimit, Event, Trace};
use crate::view::export::snapshot::RunSnapshot;
use crate::view::i18n::{tr, Catalog};
use crate::view::prices::Price;

/// Tokens used by one or more model calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spend {
    /// How many model calls replied.
    pub calls: u64,
    /// Prompt tokens read fresh.
    pub input: u64,
    /// Reply tokens.
    pub output: u64,
    /// Prompt tokens read from the cache.
    pub cache_read: u64,
    /// Prompt tokens written to the cache.
    pub cache_write: u64,
    /// True when any of the counts is an estimate (the scripted model's).
    pub estimated: bool,
}

impl Spend {
    /// The usage of one event, if it is a model's reply.
    pub fn of_event(event: &Event) -> Option<Spend> {
        match event {
            Event::ModelReplied { input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, measured, .. } => Some(Spend {
                calls: 1,
                input: *input_tokens,
                output: *output_tokens,
                cache_read: *cache_read_tokens,
                cache_write: *cache_write_tokens,
                estimated: !measured,
            }),
            _ => None,
        }
    }

    /// Every token of every bucket.
    pub fn total(&self) -> u64 {
        self.input + self.output + self.cache_read + self.cache_write
    }

    /// Both spends together.
    pub fn add(&mut self, other: &Spend) {
        self.calls += other.calls;
        self.input += other.input;
        self.output += other.output;
        self.cache_read += other.cache_read;
        self.cache_write += other.cache_write;
        self.estimated |= other.estimated;
    }

    /// The price in US dollars at `price` (per million tokens per bucket).
    pub fn dollars(&self, price: &Price) -> f64 {
        let m = |tokens: u64, per_million: f64| tokens as f64 * per_million / 1_000_000.0;
        m(self.input, price.input)
            + m(self.output, price.output)
            + m(self.cache_read, price.cache_read)
            + m(self.cache_write, price.cache_write)
    }
}

/// The spend of each agent and of the whole run, as of a cursor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunSpend {
    /// Per agent that called its model, lead included.
    pub agents: BTreeMap<AgentName, Spend>,
    /// The run's sum.
    pub run: Spend,
}

/// Sums the first `cursor` events of `trace` (all of them when `None`).
pub fn spend_at(trace: &Trace, cursor: Option<usize>) -> RunSpend {
    fold_at(trace, cursor).spend().clone()
}

/// The tools of the request/response protocols: a call that asks only for
/// these is the cost of a handshake.
pub const PROTOCOL_TOOLS: [&str; 3] = ["shutdown_request", "shutdown_response", "plan_approval"];

/// One agent's tokens split between the protocols and the work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProtocolSplit {
    /// Calls whose every tool call was a protocol tool.
    pub protocol: Spend,
    /// Every other call: work tools, plain messages, a closing summary, or
    /// a protocol tool asked for beside work in the same reply.
    pub work: Spend,
}

/// Splits each agent's calls, as of a cursor, between protocol and work: a
/// reply counts as protocol when it asked for at least one tool and every
/// tool it asked for (the agent's `ToolCalled` events up to its next model
/// call) is one of `PROTOCOL_TOOLS`.
pub fn protocol_split(trace: &Trace, cursor: Option<usize>) -> BTreeMap<AgentName, ProtocolSplit> {
    fold_at(trace, cursor).split()
}

/// The fold of the first `cursor` events of `trace`, from event 0.
fn fold_at(trace: &Trace, cursor: Option<usize>) -> SpendFold {
    let mut fold = SpendFold::default();
    for entry in &trace.entries()[..cursor.unwrap_or(usize::MAX).min(trace.len())] {
        fold.push(&entry.event);
    }
    fold
}

/// The spend and the protocol split folded over a run's events one at a
/// time, so the page can keep one every so many events (`view::derived`)
/// and read any cursor from the nearest one before it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpendFold {
    spend: RunSpend,
    /// Per agent, its last reply's spend and what its tools were so far:
    /// (spend, asked for a protocol tool, asked for another tool).
    open: BTreeMap<AgentName, (Spend, bool, bool)>,
    /// Per agent, the replies closed so far, split.
    closed: BTreeMap<AgentName, ProtocolSplit>,
}

impl SpendFold {
    /// Takes in the next event.
    pub fn push(&mut self, event: &Event) {
        match event {
            Event::ModelCalled { agent } => {
                if let Some(done) = self.open.remove(agent) {
                    close(&mut self.closed, agent.clone(), done);
                }
            }
            Event::ModelReplied { agent, .. } => {
                if let Some(done) = self.open.remove(agent) {
                    close(&mut self.closed, agent.clone(), done);
                }
                if let Some(spend) = Spend::of_event(event) {
                    self.spend.agents.entry(agent.clone()).or_default().add(&spend);
                    self.spend.run.add(&spend);
                    self.open.insert(agent.clone(), (spend, false, false));
                }
            }
            Event::ToolCalled { agent, tool, .. } => {
                if let Some((_, protocol, other)) = self.open.get_mut(agent) {
                    if PROTOCOL_TOOLS.contains(&tool.as_str()) {
                        *protocol = true;
                    } else {
                        *other = true;
                    }
                }
            }
            _ => {}
        }
    }

    /// Each agent's spend and the run's, so far.
    pub fn spend(&self) -> &RunSpend {
        &self.spend
    }

    /// Each agent's calls so far, split between protocol and work (a reply
    /// whose next call has not come yet counts with the tools it asked for
    /// so far).
    pub fn split(&self) -> BTreeMap<AgentName, ProtocolSplit> {
        let mut out = self.closed.clone();
        for (agent, done) in &self.open {
            close(&mut out, agent.clone(), *done);
        }
        out
    }
}

/// Adds one agent's reply to its split: protocol when it asked for a
/// protocol tool and nothing else.
fn close(out: &mut BTreeMap<AgentName, ProtocolSplit>, agent: AgentName, (spend, protocol, other): (Spend, bool, bool)) {
    let split = out.entry(agent).or_default();
    if protocol && !other {
        split.protocol.add(&spend);
    } else {
        split.work.add(&spend);
    }
}

/// The model id a run's snapshot ran on, for its price: the one typed in
/// Settings or the provider's default; none for the scripted model (its
/// counts are estimates, never priced) or an unknown provider.
pub fn run_model(snapshot: Option<&RunSnapshot>) -> Option<String> {
    let snapshot = snapshot?;
    let provider = Provider::parse(&snapshot.provider).ok()?;
    if provider == Provider::Scripted {
        return None;
    }
    let typed = snapshot.model.trim();
    Some(if typed.is_empty() { provider.default_model().to_string() } else { typed.to_string() })
}

/// A token count as people read it: 950, 12.3k, 4.5M.
pub fn short_count(n: u64) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=999_999 => trim_zero(format!("{:.1}", n as f64 / 1_000.0)) + "k",
        _ => trim_zero(format!("{:.1}", n as f64 / 1_000_000.0)) + "M",
    }
}

fn trim_zero(s: String) -> String {
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// Dollars with enough digits to tell small calls apart: four decimals
/// under a dollar ($0.0042), cents above ($1.27).
pub fn money(dollars: f64) -> String {
    if dollars == 0.0 {
        "$0".to_string()
    } else if dollars < 1.0 {
        format!("${dollars:.4}")
    } else {
        format!("${dollars:.2}")
    }
}

/// One line for a spend: "≈1.2k tokens (estimate)", "14.3k tokens · $0.05",
/// or tokens only when the model has no price.
pub fn spend_words(cat: &Catalog, spend: &Spend, price: Option<&Price>) -> String {
    let tokens = short_count(spend.total());
    if spend.estimated {
        return tr!(cat, "cost-tokens-estimate", tokens = tokens);
    }
    match price {
        Some(p) => tr!(cat, "cost-tokens-priced", tokens = tokens, money = money(spend.dollars(p))),
        None => tr!(cat, "cost-tokens", tokens = tokens),
    }
}

/// The protocol's share of an agent's tokens ("of which ≈1.1k on protocol
/// handshakes"), or nothing when none of its calls was a handshake's.
pub fn protocol_words(cat: &Catalog, split: &ProtocolSplit) -> Option<String> {
    (split.protocol.calls > 0).then(|| {
        let mark = if split.protocol.estimated { "≈" } else { "" };
        tr!(cat, "cost-protocol-share", tokens = format!("{mark}{}", short_count(split.protocol.total())))
    })
}

/// A budget's cap (`amount` `None`) or an amount in its unit, in the
/// reader's words: "5k tokens", "$0.50".
pub fn budget_amount(cat: &Catalog, limit: &BudgetLimit, amount: Option<u64>) -> String {
    match *limit {
        BudgetLimit::Tokens(cap) => tr!(cat, "cost-tokens", tokens = short_count(amount.unwrap_or(cap))),
        BudgetLimit::Microdollars(cap) => crate::protocol::trace::dollars_of_micros(amount.unwrap_or(cap)),
    }
}

/// The banner of a run its budget stopped, as of the first `cursor`
/// events (all when `None`): which limit stopped it at which event ("The
/// budget of 10k tokens stopped the run at event #41, before alice's next
/// model call, which could take up to 8.6k tokens (1.9k tokens spent).").
/// `None` while no budget stopped it.
pub fn budget_banner(cat: &Catalog, trace: &Trace, cursor: Option<usize>) -> Option<String> {
    let entries = &trace.entries()[..cursor.unwrap_or(usize::MAX).min(trace.len())];
    entries.iter().find_map(|e| match &e.event {
        Event::BudgetReached { agent, limit, spent, expected, unpriced } => {
            let who = crate::view::words::captions::who(cat, agent);
            let cap = budget_amount(cat, limit, None);
            Some(if *unpriced {
                tr!(cat, "cost-budget-banner-unpriced", limit = cap, seq = e.seq, who = who)
            } else {
                tr!(
                    cat,
                    "cost-budget-banner",
                    limit = cap,
                    seq = e.seq,
                    who = who,
                    spent = budget_amount(cat, limit, Some(*spent)),
                    expected = budget_amount(cat, limit, Some(*expected))
                )
            })
        }
        _ => None,
    })
}

/// One call's buckets for its caption: input, output and the cache traffic
/// when there was some, then the price (or the estimate's mark).
pub fn call_words(cat: &Catalog, spend: &Spend, price: Option<&Price>) -> String {
    let mut parts = vec![tr!(cat, "cost-in-out", input = spend.input, output = spend.output)];
    if spend.cache_read > 0 || spend.cache_write > 0 {
        parts.push(tr!(cat, "cost-cache", read = spend.cache_read, write = spend.cache_write));
    }
    let body = parts.join(", ");
    if spend.estimated {
        tr!(cat, "cost-call-estimate", usage = body)
    } else {
        match price {
            Some(p) => tr!(cat, "cost-call-priced", usage = body, money = money(spend.dollars(p))),
            None => tr!(cat, "cost-call", usage = body),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::time::Millis;
    use crate::view::i18n::Locale;
    use crate::view::prices::PriceTable;

    fn reply(agent: &AgentName, input: u64, output: u64, cache_read: u64, cache_write: u64, measured: bool) -> Event {
        Event::ModelReplied {
            agent: agent.clone(),
            text: String::new(),
            stop_reason: "end_turn".into(),
            input_tokens: input,
            output_tokens: output,
            cache_read_tokens: cache_read,
            cache_write_tokens: cache_write,
            measured,
        }
    }

    fn trace(events: Vec<Event>) -> Trace {
        let mut t = Trace::new("t", 1);
        for (i, e) in events.into_iter().enumerate() {
            t.append(Millis(i as u64), e).unwrap();
        }
        t
    }

    #[test]
    fn each_agent_sums_its_own_calls_and_the_run_sums_them_all_up_to_the_cursor() {
        let (lead, alice) = (AgentName::lead(), AgentName::parse("alice").unwrap());
        let t = trace(vec![
            Event::ModelCalled { agent: lead.clone() },
            reply(&lead, 100, 10, 1000, 50, true),
            reply(&alice, 200, 20, 0, 0, true),
            reply(&lead, 1, 2, 3, 4, true),
        ]);
        let all = spend_at(&t, None);
        assert_eq!(all.agents[&lead], Spend { calls: 2, input: 101, output: 12, cache_read: 1003, cache_write: 54, estimated: false });
        assert_eq!(all.agents[&alice].total(), 220);
        assert_eq!(all.run.total(), 101 + 12 + 1003 + 54 + 220);
        assert_eq!(all.run.calls, 3);
        let early = spend_at(&t, Some(3));
        assert_eq!(early.run.calls, 2, "the cursor hides later calls");
        assert_eq!(spend_at(&t, Some(0)), RunSpend::default());
    }

    fn tool(agent: &AgentName, tool: &str) -> Event {
        Event::ToolCalled { agent: agent.clone(), tool_use_id: format!("t-{tool}"), tool: tool.into(), input: serde_json::Value::Null }
    }

    #[test]
    fn a_call_that_asks_only_for_protocol_tools_is_the_protocols_cost_and_the_rest_is_work() {
        let (lead, alice) = (AgentName::lead(), AgentName::parse("alice").unwrap());
        let t = trace(vec![
            Event::ModelCalled { agent: lead.clone() },
            reply(&lead, 100, 10, 0, 0, true),
            tool(&lead, "spawn_teammate"),
            Event::ModelCalled { agent: lead.clone() },
            reply(&lead, 200, 20, 0, 0, true),
            tool(&lead, "shutdown_request"),
            Event::ModelCalled { agent: alice.clone() },
            reply(&alice, 50, 5, 0, 0, true),
            tool(&alice, "write_file"),
            tool(&alice, "plan_approval"),
            Event::ModelCalled { agent: alice.clone() },
            reply(&alice, 60, 6, 0, 0, true),
            tool(&alice, "shutdown_response"),
            Event::ModelCalled { agent: lead.clone() },
            reply(&lead, 300, 30, 0, 0, true),
        ]);
        let split = protocol_split(&t, None);
        assert_eq!((split[&lead].protocol.total(), split[&lead].work.total()), (220, 110 + 330), "the summary without tools is work");
        assert_eq!((split[&alice].protocol.total(), split[&alice].work.total()), (66, 55), "a protocol tool beside work is work");
        let all = spend_at(&t, None);
        for (agent, s) in &split {
            assert_eq!(s.protocol.total() + s.work.total(), all.agents[agent].total(), "{agent}: the split adds up");
        }
        assert_eq!(protocol_words(Catalog::get(Locale::En), &split[&lead]).as_deref(), Some("of which 220 on protocol handshakes"));
        assert_eq!(protocol_words(Catalog::get(Locale::En), &ProtocolSplit::default()), None);
        let early = protocol_split(&t, Some(6));
        assert_eq!(early[&lead].protocol.total(), 220, "tools seen up to the cursor decide");
        assert_eq!(protocol_split(&t, Some(5))[&lead].protocol.total(), 0, "a reply whose tools are not seen yet is work");
    }

    #[test]
    fn one_estimated_call_makes_the_sum_an_estimate() {
        let lead = AgentName::lead();
        let t = trace(vec![reply(&lead, 1, 1, 0, 0, true), reply(&lead, 1, 1, 0, 0, false)]);
        assert!(spend_at(&t, None).run.estimated);
        assert!(!spend_at(&t, Some(1)).run.estimated);
    }

    #[test]
    fn dollars_price_each_bucket_at_its_own_rate() {
        let price = PriceTable::default().price_of("claude-sonnet-4-5").unwrap().clone();
        let s = Spend { calls: 1, input: 1_000_000, output: 100_000, cache_read: 2_000_000, cache_write: 400_000, estimated: false };
        // 3.00 + 1.50 + 0.60 + 1.50
        assert!((s.dollars(&price) - 6.60).abs() < 1e-9, "{}", s.dollars(&price));
        assert_eq!(Spend::default().dollars(&price), 0.0);
    }

    #[test]
    fn a_run_is_priced_by_the_model_its_snapshot_ran_on() {
        let snap = |provider: &str, model: &str| RunSnapshot { provider: provider.into(), model: model.into(), ..RunSnapshot::default() };
        assert_eq!(run_model(Some(&snap("anthropic", ""))).as_deref(), Some(crate::model::anthropic::DEFAULT_MODEL));
        assert_eq!(run_model(Some(&snap("anthropic", " claude-haiku-4-5 "))).as_deref(), Some("claude-haiku-4-5"));
        assert_eq!(run_model(Some(&snap("openai", ""))).as_deref(), Some(crate::model::openai::DEFAULT_MODEL));
        assert_eq!(run_model(Some(&snap("scripted", "x"))), None, "the scripted model is never priced");
        assert_eq!(run_model(Some(&snap("martian", "x"))), None);
        assert_eq!(run_model(None), None, "an imported trace says nothing of its model");
    }

    #[test]
    fn a_budget_stop_names_its_limit_and_its_event_in_every_language() {
        let lead = AgentName::lead();
        let alice = AgentName::parse("alice").unwrap();
        let stop = |limit, spent, unpriced| Event::BudgetReached { agent: alice.clone(), limit, spent, expected: 8_600, unpriced };
        let t = trace(vec![reply(&lead, 1000, 900, 0, 0, true), stop(BudgetLimit::Tokens(10_000), 1900, false)]);
        let en = Catalog::get(Locale::En);
        assert_eq!(
            budget_banner(en, &t, None).as_deref(),
            Some(
                "The budget of 10k tokens stopped the run at event #1, before alice's next model call, which could take up to 8.6k tokens (1.9k tokens spent)."
            )
        );
        assert_eq!(budget_banner(en, &t, Some(1)), None, "not before the cursor reaches it");
        let dollars = trace(vec![stop(BudgetLimit::Microdollars(500_000), 0, true)]);
        let words = budget_banner(en, &dollars, None).unwrap();
        assert!(words.contains("$0.50") && words.contains("#0") && words.contains("no price"), "{words}");
        for locale in Locale::ALL {
            let cat = Catalog::get(locale);
            for words in [budget_banner(cat, &t, None).unwrap(), budget_banner(cat, &dollars, None).unwrap()] {
                assert!(!words.contains('⟦') && words.contains('#'), "{locale:?}: {words}");
            }
            let words = budget_banner(cat, &t, None).unwrap();
            for amount in ["10k", "8.6k", "1.9k"] {
                assert!(words.contains(amount), "{locale:?}: the cap, the call's bound and the spend: {words}");
            }
        }
    }

    #[test]
    fn counts_and_money_read_short() {
        assert_eq!(short_count(950), "950");
        assert_eq!(short_count(12_345), "12.3k");
        assert_eq!(short_count(2_000), "2k");
        assert_eq!(short_count(4_500_000), "4.5M");
        assert_eq!(money(0.0), "$0");
        assert_eq!(money(0.00421), "$0.0042");
        assert_eq!(money(0.0105), "$0.0105");
        assert_eq!(money(1.269), "$1.27");
    }

    #[test]
    fn an_estimate_says_so_and_an_unknown_model_shows_tokens_only() {
        let cat = Catalog::get(Locale::En);
        let price = PriceTable::default().price_of("claude-sonnet-4-5").cloned();
        let measured = Spend { calls: 1, input: 1_000, output: 500, cache_read: 0, cache_write: 0, estimated: false };
        assert_eq!(spend_words(cat, &measured, price.as_ref()), "1.5k tokens · $0.0105");
        assert_eq!(spend_words(cat, &measured, None), "1.5k tokens");
        let guess = Spend { estimated: true, ..measured };
        let words = spend_words(cat, &guess, price.as_ref());
        assert!(words.starts_with('≈') && words.contains("estimate") && !words.contains('$'), "{words}");
        let cached = Spend { cache_read: 2_048, cache_write: 310, ..measured };
        assert_eq!(call_words(cat, &cached, None), "Usage: 1000 in, 500 out, cache 2048 read and 310 written.");
        assert!(call_words(cat, &guess, price.as_ref()).contains("estimate"));
    }

    #[test]
    fn every_language_has_the_cost_words() {
        let spend = Spend { calls: 1, input: 5, output: 6, cache_read: 7, cache_write: 8, estimated: false };
        let price = PriceTable::default().price_of("claude-sonnet-4-5").cloned();
        for locale in Locale::ALL {
            let cat = Catalog::get(locale);
            for words in [
                spend_words(cat, &spend, price.as_ref()),
                spend_words(cat, &spend, None),
                spend_words(cat, &Spend { estimated: true, ..spend }, None),
                call_words(cat, &spend, price.as_ref()),
                call_words(cat, &spend, None),
                call_words(cat, &Spend { estimated: true, ..spend }, None),
                protocol_words(cat, &ProtocolSplit { protocol: spend, work: spend }).unwrap(),
            ] {
                assert!(!words.contains('⟦'), "{locale:?}: {words}");
            }
        }
    }
}
