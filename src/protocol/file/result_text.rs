//! The text a model reads when one of a protocol's tools succeeds: a tool's
//! `result` template (`tools.request = { name, description, result }`),
//! or the default one of its kind. A template is plain text with
//! placeholders in braces — `{id}` the request's id, `{to}` its addressee,
//! `{from}` its requester, `{status}` where it stands (`pending`,
//! `approved`, `rejected`, `rejected (expired)`), `{protocol}` the
//! protocol's name and `{Protocol}` the same with a capital first letter —
//! and `{{` / `}}` for a literal brace. The lesson's own texts ("Plan
//! submitted (request_id=...). Waiting for lead approval.", a shutdown
//! status as `{"status":...,"target":...}`) are templates of the built-in
//! lesson file like any file's.
//!
//! Owns the template language: checking one when a file loads (`check`)
//! and filling one in (`render`). It must not know which tool runs: the
//! runtime picks the template and hands over the values.

/// A placeholder of a result template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// `{id}`: the request's id.
    Id,
    /// `{to}`: the request's addressee.
    To,
    /// `{from}`: the request's requester.
    From,
    /// `{status}`: where the request stands.
    Status,
    /// `{protocol}`: the protocol's name.
    Protocol,
    /// `{Protocol}`: the protocol's name with a capital first letter.
    ProtocolTitle,
}

/// Every placeholder by the name a template writes, in the order a refusal
/// lists them.
pub const SLOTS: [(&str, Slot); 6] = [
    ("id", Slot::Id),
    ("to", Slot::To),
    ("from", Slot::From),
    ("status", Slot::Status),
    ("protocol", Slot::Protocol),
    ("Protocol", Slot::ProtocolTitle),
];

/// The request tool's text when the file gives none.
pub const DEFAULT_REQUEST: &str = "{Protocol} request {id} sent to '{to}' (status: pending)";
/// The respond tool's text when the file gives none.
pub const DEFAULT_RESPOND: &str = "{Protocol} {status} for '{from}'";
/// The status tool's text when the file gives none: a JSON object.
pub const DEFAULT_STATUS: &str = "{{\"status\":\"{status}\",\"to\":\"{to}\"}}";

/// Why a template was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// `{name}` with a name that is no placeholder.
    #[error("'{{{0}}}' is no placeholder; the placeholders are {{id}}, {{to}}, {{from}}, {{status}}, {{protocol}}, {{Protocol}} (write {{{{ for a literal brace)")]
    UnknownSlot(String),
    /// A `{` never closed.
    #[error("a '{{' is never closed; write {{{{ for a literal brace")]
    Unclosed,
    /// A `}` that closes nothing.
    #[error("a '}}' closes nothing; write }}}} for a literal brace")]
    StrayClose,
}

/// One piece of a template: literal text or a placeholder.
enum Piece<'a> {
    Text(&'a str),
    Slot(Slot),
}

/// Reads `template` piece by piece, handing each to `out`; the first
/// mistake stops it.
fn pieces<'a>(template: &'a str, mut out: impl FnMut(Piece<'a>)) -> Result<(), TemplateError> {
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        out(Piece::Text(&rest[..at]));
        let brace = &rest[at..at + 1];
        let after = &rest[at + 1..];
        if after.starts_with(brace) {
            out(Piece::Text(brace));
            rest = &after[1..];
        } else if brace == "}" {
            return Err(TemplateError::StrayClose);
        } else {
            let end = after.find('}').ok_or(TemplateError::Unclosed)?;
            let name = &after[..end];
            let slot = SLOTS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s);
            out(Piece::Slot(slot.ok_or_else(|| TemplateError::UnknownSlot(name.to_string()))?));
            rest = &after[end + 1..];
        }
    }
    out(Piece::Text(rest));
    Ok(())
}

/// Checks that `template` reads: every placeholder known, every brace
/// closed or doubled.
pub fn check(template: &str) -> Result<(), TemplateError> {
    pieces(template, |_| {})
}

/// `template` with each placeholder's value from `value`. A template that
/// does not read (never one of a loaded file: `check` refused it) is given
/// back as it is written.
pub fn render(template: &str, value: impl Fn(Slot) -> String) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    match pieces(template, |p| match p {
        Piece::Text(t) => out.push_str(t),
        Piece::Slot(s) => out.push_str(&value(s)),
    }) {
        Ok(()) => out,
        Err(_) => template.to_string(),
    }
}

/// `name` with a capital first letter (`{Protocol}`).
pub fn title(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(template: &str) -> String {
        render(template, |s| match s {
            Slot::Id => "a1b2c3d4".into(),
            Slot::To => "alice".into(),
            Slot::From => "lead".into(),
            Slot::Status => "pending".into(),
            Slot::Protocol => "claim".into(),
            Slot::ProtocolTitle => "Claim".into(),
        })
    }

    #[test]
    fn each_placeholder_is_filled_and_doubled_braces_are_literal() {
        assert_eq!(fill(DEFAULT_REQUEST), "Claim request a1b2c3d4 sent to 'alice' (status: pending)");
        assert_eq!(fill(DEFAULT_RESPOND), "Claim pending for 'lead'");
        assert_eq!(fill(DEFAULT_STATUS), r#"{"status":"pending","to":"alice"}"#);
        assert_eq!(fill("{protocol}/{from}/{to}"), "claim/lead/alice");
        assert_eq!(fill("no placeholder"), "no placeholder");
    }

    #[test]
    fn an_unknown_placeholder_or_an_unpaired_brace_is_refused() {
        assert_eq!(check("{ids}"), Err(TemplateError::UnknownSlot("ids".into())));
        assert_eq!(check("sent {id"), Err(TemplateError::Unclosed));
        assert_eq!(check("sent } {id}"), Err(TemplateError::StrayClose));
        assert!(check(DEFAULT_STATUS).is_ok());
        let words = TemplateError::UnknownSlot("ids".into()).to_string();
        assert_eq!(
            words,
            "'{ids}' is no placeholder; the placeholders are {id}, {to}, {from}, {status}, {protocol}, {Protocol} (write {{ for a literal brace)"
        );
    }

    fn task_claim_with(result: &str) -> String {
        let (_, text) = crate::protocol::file::builtin::EXAMPLES.iter().find(|(n, _)| *n == "task-claim").unwrap();
        let tool = r#"description = "Claim a task from the lead before working on it." }"#;
        assert!(text.contains(tool));
        text.replace(tool, &format!(r#"description = "Claim a task from the lead before working on it.", result = '{result}' }}"#))
    }

    #[test]
    fn a_files_result_text_is_loaded_and_one_that_does_not_read_is_refused_at_its_line() {
        let file = crate::protocol::file::load(&task_claim_with("Claimed ({id})")).unwrap();
        let claim = file.protocol(file.protocol_named("claim").unwrap());
        assert_eq!(claim.tools.request.result.as_deref(), Some("Claimed ({id})"));
        let refused = crate::protocol::file::load(&task_claim_with("Claimed {ids}")).unwrap_err();
        let rendered = refused.render("task-claim.toml");
        assert!(rendered.contains("task-claim.toml:16:"), "{rendered}");
        assert!(rendered.contains("this result text does not read: '{ids}' is no placeholder"), "{rendered}");
    }
}
