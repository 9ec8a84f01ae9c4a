//! The texts of an agent's conversation and of what it holds between
//! turns as the canonical hash reads them: each text block and JSON value
//! hashed through `Canon::hash_text` (`hash_blocks`, `hash_value`), and
//! what a remembered hash is keyed by — their hex windows
//! (`blocks_windows`, `value_windows`) and whether they name a teammate
//! (`blocks_mention`, `value_mentions`), each reading exactly the texts
//! the hash hands to the canon.
//!
//! Owns reading those texts; remembering is the agent's and the memo's.

use std::hash::{Hash, Hasher};

use serde_json::Value;

use crate::model::ContentBlock;
use crate::protocol::canon::{id_windows, Canon};

pub(super) fn hash_blocks<H: Hasher>(blocks: &[ContentBlock], canon: &Canon, h: &mut H) {
    for b in blocks {
        match b {
            ContentBlock::Text { text } => {
                0u8.hash(h);
                canon.hash_text(text, h);
            }
            ContentBlock::ToolUse { id, name, input } => {
                1u8.hash(h);
                canon.hash_text(id, h);
                name.hash(h);
                hash_value(input, canon, h);
            }
            ContentBlock::ToolResult { tool_use_id, content, is_error } => {
                (2u8, is_error).hash(h);
                canon.hash_text(tool_use_id, h);
                canon.hash_text(content, h);
            }
        }
    }
}

/// The hex windows of every text `hash_blocks` hands to `Canon::hash_text`.
pub(super) fn blocks_windows(blocks: &[ContentBlock], out: &mut Vec<u32>) {
    for b in blocks {
        match b {
            ContentBlock::Text { text } => id_windows(text, out),
            ContentBlock::ToolUse { id, input, .. } => {
                id_windows(id, out);
                value_windows(input, out);
            }
            ContentBlock::ToolResult { tool_use_id, content, .. } => {
                id_windows(tool_use_id, out);
                id_windows(content, out);
            }
        }
    }
}

/// Whether a text `hash_blocks` hands to `Canon::hash_text` holds `name`.
pub(super) fn blocks_mention(blocks: &[ContentBlock], name: &str) -> bool {
    blocks.iter().any(|b| match b {
        ContentBlock::Text { text } => text.contains(name),
        ContentBlock::ToolUse { id, input, .. } => id.contains(name) || value_mentions(input, name),
        ContentBlock::ToolResult { tool_use_id, content, .. } => tool_use_id.contains(name) || content.contains(name),
    })
}

/// Whether a string `hash_value` hands to `Canon::hash_text` holds `name`.
pub(super) fn value_mentions(v: &Value, name: &str) -> bool {
    match v {
        Value::String(s) => s.contains(name),
        Value::Array(items) => items.iter().any(|i| value_mentions(i, name)),
        Value::Object(map) => map.values().any(|i| value_mentions(i, name)),
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

/// The hex windows of every string `hash_value` hands to `Canon::hash_text`.
pub(super) fn value_windows(v: &Value, out: &mut Vec<u32>) {
    match v {
        Value::String(s) => id_windows(s, out),
        Value::Array(items) => items.iter().for_each(|i| value_windows(i, out)),
        Value::Object(map) => map.values().for_each(|i| value_windows(i, out)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Hashes JSON by its structure (serde_json's `Value` has no `Hash`).
pub(super) fn hash_value<H: Hasher>(v: &Value, canon: &Canon, h: &mut H) {
    match v {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Number(n) => (2u8, n.to_string()).hash(h),
        Value::String(s) => {
            3u8.hash(h);
            canon.hash_text(s, h);
        }
        Value::Array(items) => {
            (4u8, items.len()).hash(h);
            items.iter().for_each(|i| hash_value(i, canon, h));
        }
        Value::Object(map) => {
            (5u8, map.len()).hash(h);
            for (k, v) in map {
                k.hash(h);
                hash_value(v, canon, h);
            }
        }
    }
}
