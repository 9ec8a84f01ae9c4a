//! `explore merge REPORT.json…`: the `--json` reports of one search's
//! slices (`--slice I/N`) joined into the single search's report; the
//! reports of different searches, a missing or a duplicate slice refused.
//!
//! Owns reading and checking the slices' reports; the join itself is
//! `Report::merge`, the printing `output`.

use std::process::ExitCode;

use team_protocols::explore::Report;

use crate::output::{finish, Extras};

/// Why `explore merge` refused its reports.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MergeError {
    #[error("merge needs the --json reports of a search's slices: explore merge [--json] REPORT.json…")]
    NoReports,
    #[error("unknown option '{0}' (merge takes --json and report files)")]
    Option(String),
    #[error("cannot read {0}: {1}")]
    Read(String, String),
    #[error("{0} is not an `explore --json` report: {1}")]
    NotAReport(String, String),
    #[error("{0} is the report of a whole search, not of a slice (--slice I/N)")]
    NotASlice(String),
    #[error("{0} and {1} are reports of different searches: they differ in {2}")]
    Different(String, String, String),
    #[error("{0} and {1} are both slice {2} of {3}")]
    Duplicate(String, String, usize, usize),
    #[error("slice{} {} of {} missing", if .0.len() == 1 { " is" } else { "s are" }, .0.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", "), .1)]
    Missing(Vec<usize>, usize),
}

/// One slice's report as `explore merge` reads it.
pub(crate) struct Part {
    path: String,
    report: Report,
    /// The other keys that must agree: the file's digest and the team.
    search: serde_json::Value,
    peak_rss: Option<u64>,
}

/// `explore merge [--json] REPORT.json…`: the slices' reports of one
/// search joined into the single search's report (see `MERGE_NOTE`),
/// printed and exiting as a search does; a refusal exits 2 with a sentence.
pub(crate) fn merge_command(args: &[String]) -> ExitCode {
    match merge_reports(args) {
        Ok((report, extras, json)) => finish(&report, &extras, json),
        Err(e) => {
            eprintln!("explore merge: {e}");
            ExitCode::from(2)
        }
    }
}

pub(crate) fn merge_reports(args: &[String]) -> Result<(Report, Extras, bool), MergeError> {
    let mut json = false;
    let mut parts: Vec<Part> = Vec::new();
    for a in args {
        if a == "--json" {
            json = true;
            continue;
        }
        if a.starts_with("--") {
            return Err(MergeError::Option(a.clone()));
        }
        let text = std::fs::read_to_string(a).map_err(|e| MergeError::Read(a.clone(), e.to_string()))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| MergeError::NotAReport(a.clone(), e.to_string()))?;
        let report: Report = serde_json::from_value(value.get("report").cloned().unwrap_or(serde_json::Value::Null))
            .map_err(|e| MergeError::NotAReport(a.clone(), format!("its \"report\" is unreadable ({e})")))?;
        let search = serde_json::json!({ "file_digest": value.get("file_digest"), "team": value.get("team") });
        parts.push(Part { path: a.clone(), report, search, peak_rss: value.get("peak_rss_bytes").and_then(serde_json::Value::as_u64) });
    }
    let first = parts.first().ok_or(MergeError::NoReports)?;
    let Some(of) = first.report.config.slice.map(|s| s.of) else { return Err(MergeError::NotASlice(first.path.clone())) };
    let key = |r: &Report| {
        let mut v = serde_json::to_value(&r.config).unwrap_or(serde_json::Value::Null);
        if let Some(m) = v.as_object_mut() {
            m.remove("slice");
            m.remove("threads");
        }
        v
    };
    let mut seen: Vec<Option<&str>> = vec![None; of];
    for p in &parts {
        let Some(s) = p.report.config.slice else { return Err(MergeError::NotASlice(p.path.clone())) };
        if s.of != of {
            return Err(MergeError::Different(first.path.clone(), p.path.clone(), format!("the number of slices ({of} and {})", s.of)));
        }
        let (a, b) = (key(&first.report), key(&p.report));
        if a != b {
            let which: Vec<String> = a
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, v)| b.get(k.as_str()) != Some(*v))
                .map(|(k, v)| format!("{k} ({v} and {})", b.get(k.as_str()).unwrap_or(&serde_json::Value::Null)))
                .chain(
                    b.as_object()
                        .into_iter()
                        .flatten()
                        .filter(|(k, _)| a.get(k.as_str()).is_none())
                        .map(|(k, v)| format!("{k} (none and {v})")),
                )
                .collect();
            return Err(MergeError::Different(first.path.clone(), p.path.clone(), which.join(", ")));
        }
        for what in ["file_digest", "team"] {
            if first.search[what] != p.search[what] {
                return Err(MergeError::Different(
                    first.path.clone(),
                    p.path.clone(),
                    format!("{what} ({} and {})", first.search[what], p.search[what]),
                ));
            }
        }
        if let Some(earlier) = seen[s.index] {
            return Err(MergeError::Duplicate(earlier.to_string(), p.path.clone(), s.index + 1, of));
        }
        seen[s.index] = Some(&p.path);
    }
    let missing: Vec<usize> = seen.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| i + 1).collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing(missing, of));
    }
    let extras = Extras {
        file: parts.iter().any(|p| !p.report.file_properties.is_empty()),
        team: first.search["team"].is_string(),
        digest: first.search["file_digest"].as_str().map(str::to_string),
        peak_rss: parts.iter().filter_map(|p| p.peak_rss).max(),
        merged_from: Some(of),
        compared: None,
    };
    let report = Report::merge(parts.into_iter().map(|p| p.report).collect()).ok_or(MergeError::NoReports)?;
    Ok((report, extras, json))
}
