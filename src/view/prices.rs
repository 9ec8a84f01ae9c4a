//! The price table: what a million tokens cost on a model, in US dollars,
//! per bucket (fresh input, output, cache read, cache write), with the date
//! each price was taken. Defaults cover the Claude models whose list price
//! we are sure of; a model not in the table has no price, and the page then
//! shows its tokens only — never an invented price.
//!
//! Owns the defaults, the lookup and the reading of an edited price (with
//! refusals phrased for the reader). Pure: it must not touch storage or the
//! DOM; the page keeps edits in the browser and passes the table in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One model's prices, in US dollars per million tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// Prompt tokens read fresh.
    pub input: f64,
    /// Reply tokens.
    pub output: f64,
    /// Prompt tokens read from the cache.
    pub cache_read: f64,
    /// Prompt tokens written to the cache (Anthropic's five-minute cache).
    pub cache_write: f64,
    /// When the price was taken (YYYY-MM-DD), shown beside it.
    pub taken: String,
}

/// Why an edited price is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PriceError {
    /// The model id is empty.
    #[error("a price needs the model's id (for example claude-sonnet-4-5)")]
    NoModel,
    /// A field is not a number.
    #[error("the {field} price \"{value}\" is not a number of dollars per million tokens")]
    NotANumber {
        /// Which price.
        field: &'static str,
        /// What was typed (shortened).
        value: String,
    },
    /// A field is negative, infinite or absurdly large.
    #[error("the {field} price must be between 0 and 1000 dollars per million tokens")]
    OutOfRange {
        /// Which price.
        field: &'static str,
    },
    /// The date is not YYYY-MM-DD.
    #[error("the date a price was taken must be written YYYY-MM-DD, like 2026-11-27")]
    BadDate,
}

/// The date the default prices were taken.
pub const DEFAULTS_TAKEN: &str = "2026-11-27";

/// The largest price per million tokens the table accepts.
const MAX_PRICE: f64 = 1000.0;

/// Prices by model id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PriceTable {
    /// Model id → price.
    pub models: BTreeMap<String, Price>,
}

impl Default for PriceTable {
    /// The list prices of Anthropic's current Claude models (input, output,
    /// cache read, five-minute cache write, per million tokens), from
    /// anthropic.com/pricing. OpenAI-compatible servers are left out: the
    /// default one is a local server, whose tokens cost nothing a table
    /// could know.
    fn default() -> Self {
        let price = |input: f64, output: f64, cache_read: f64, cache_write: f64| Price {
            input,
            output,
            cache_read,
            cache_write,
            taken: DEFAULTS_TAKEN.to_string(),
        };
        let models = BTreeMap::from([
            ("claude-sonnet-4-5".to_string(), price(3.0, 15.0, 0.30, 3.75)),
            ("claude-haiku-4-5".to_string(), price(1.0, 5.0, 0.10, 1.25)),
        ]);
        PriceTable { models }
    }
}

impl PriceTable {
    /// The price of `model`, if the table has one. A dated snapshot id
    /// (`claude-sonnet-4-5-20250929`) uses its alias's price.
    pub fn price_of(&self, model: &str) -> Option<&Price> {
        let model = model.trim();
        self.models.get(model).or_else(|| {
            let (alias, date) = model.rsplit_once('-')?;
            (date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit())).then(|| self.models.get(alias)).flatten()
        })
    }

    /// Sets `model`'s price from the text of the Settings fields, or says
    /// why not (the table is unchanged then).
    pub fn set(&mut self, model: &str, fields: [&str; 4], taken: &str) -> Result<(), PriceError> {
        let model = model.trim();
        if model.is_empty() {
            return Err(PriceError::NoModel);
        }
        let [input, output, cache_read, cache_write] = fields;
        let price = Price {
            input: dollars("input", input)?,
            output: dollars("output", output)?,
            cache_read: dollars("cache read", cache_read)?,
            cache_write: dollars("cache write", cache_write)?,
            taken: date(taken)?,
        };
        self.models.insert(model.to_string(), price);
        Ok(())
    }

    /// Forgets `model`'s price (its tokens are then shown without one).
    pub fn remove(&mut self, model: &str) {
        self.models.remove(model.trim());
    }
}

fn dollars(field: &'static str, text: &str) -> Result<f64, PriceError> {
    let text = text.trim().trim_start_matches('$');
    let v: f64 = text.parse().map_err(|_| PriceError::NotANumber { field, value: text.chars().take(20).collect() })?;
    if !v.is_finite() || !(0.0..=MAX_PRICE).contains(&v) {
        return Err(PriceError::OutOfRange { field });
    }
    Ok(v)
}

fn date(text: &str) -> Result<String, PriceError> {
    let text = text.trim();
    let parts: Vec<&str> = text.split('-').collect();
    let ok = matches!(parts.as_slice(), [y, m, d] if y.len() == 4 && m.len() == 2 && d.len() == 2
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
        && (1..=12).contains(&m.parse::<u32>().unwrap_or(0))
        && (1..=31).contains(&d.parse::<u32>().unwrap_or(0)));
    if ok {
        Ok(text.to_string())
    } else {
        Err(PriceError::BadDate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_model_of_the_anthropic_settings_has_a_dated_price() {
        let table = PriceTable::default();
        let p = table.price_of(crate::model::anthropic::DEFAULT_MODEL).expect("the default model is priced");
        assert_eq!((p.input, p.output, p.cache_read, p.cache_write), (3.0, 15.0, 0.30, 3.75));
        assert_eq!(p.taken, DEFAULTS_TAKEN);
        assert!(table.models.values().all(|p| p.taken == DEFAULTS_TAKEN));
    }

    #[test]
    fn an_unknown_model_has_no_price() {
        let table = PriceTable::default();
        assert_eq!(table.price_of(crate::model::openai::DEFAULT_MODEL), None);
        assert_eq!(table.price_of("llama3"), None);
        assert_eq!(table.price_of("claude-sonnet-4-5-x"), None, "only an 8-digit date is a snapshot of the alias");
    }

    #[test]
    fn a_dated_snapshot_uses_its_aliass_price() {
        let table = PriceTable::default();
        assert_eq!(table.price_of("claude-haiku-4-5-20251001"), table.price_of("claude-haiku-4-5"));
    }

    #[test]
    fn an_edited_price_replaces_the_default_and_a_new_model_can_be_priced() {
        let mut table = PriceTable::default();
        table.set("claude-sonnet-4-5", ["2", "$10", "0.2", "2.5"], "2026-12-01").unwrap();
        assert_eq!(table.price_of("claude-sonnet-4-5").map(|p| (p.input, p.output, p.taken.as_str())), Some((2.0, 10.0, "2026-12-01")));
        table.set(" my-local ", ["0", "0", "0", "0"], "2026-11-27").unwrap();
        assert!(table.price_of("my-local").is_some(), "zero is a fair price for a local model");
        table.remove("my-local");
        assert_eq!(table.price_of("my-local"), None);
    }

    #[test]
    fn nonsense_prices_are_refused_with_a_sentence_and_change_nothing() {
        let mut table = PriceTable::default();
        let before = table.clone();
        let cases: [(&str, [&str; 4], &str, PriceError); 5] = [
            ("", ["1", "1", "1", "1"], "2026-11-27", PriceError::NoModel),
            ("m", ["cheap", "1", "1", "1"], "2026-11-27", PriceError::NotANumber { field: "input", value: "cheap".into() }),
            ("m", ["1", "-3", "1", "1"], "2026-11-27", PriceError::OutOfRange { field: "output" }),
            ("m", ["1", "1", "inf", "1"], "2026-11-27", PriceError::OutOfRange { field: "cache read" }),
            ("m", ["1", "1", "1", "1"], "27/11/2026", PriceError::BadDate),
        ];
        for (model, fields, taken, want) in cases {
            assert_eq!(table.set(model, fields, taken), Err(want.clone()));
            assert!(want.to_string().ends_with(|c: char| c.is_alphanumeric() || c == ')'), "a sentence: {want}");
        }
        assert_eq!(table, before);
        assert_eq!(table.set("m", ["1", "1", "1", "NaN"], "2026-11-27"), Err(PriceError::OutOfRange { field: "cache write" }));
        assert_eq!(table.set("m", ["1", "1", "1", "1"], "2026-13-01"), Err(PriceError::BadDate));
    }
}
