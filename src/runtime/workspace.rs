//! The workspace: an in-memory file system that agents read and change
//! through four tools (`list_files`, `read_file`, `write_file`,
//! `edit_file`), because the browser has no disk.
//!
//! Owns file contents, path normalisation and the size caps, and the text
//! each tool hands back to the model. It must not decide whether an agent
//! may change the workspace (plan approval is `protocol::team`'s call), and
//! it must not know about agents, messages or the JSON shape of tool calls.

use std::collections::BTreeMap;
use std::hash::Hasher as _;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::protocol::canon::{id_windows, Canon, SharedMemo, StableHasher};

/// The default cap on a single file, in bytes (256 KiB).
pub const DEFAULT_MAX_FILE_BYTES: usize = 256 * 1024;

/// The default cap on all files together, in bytes (4 MiB).
pub const DEFAULT_MAX_TOTAL_BYTES: usize = 4 * 1024 * 1024;

/// The default cap on the number of files.
pub const DEFAULT_MAX_FILES: usize = 1000;

/// The longest path accepted, in characters, before normalisation.
pub const MAX_PATH_CHARS: usize = 512;

/// Errors from the workspace tools, phrased so they can be handed to a model
/// as `Error: ...`. Every error leaves the workspace unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorkspaceError {
    /// The path names no file: it is empty, `/`, `.`, or resolves to the root.
    #[error("a file path cannot be empty or name the workspace root; give a path such as 'notes.txt' or 'src/main.rs'")]
    EmptyPath,
    /// The path is longer than [`MAX_PATH_CHARS`].
    #[error("path is {len} characters long; the limit is {MAX_PATH_CHARS}")]
    PathTooLong {
        /// The path's length in characters.
        len: usize,
    },
    /// The path holds a backslash or a control character (NUL, newline, ...).
    #[error("path {path:?} contains the character {ch:?}, which is not allowed; separate folders with '/' and use no control characters")]
    BadChar {
        /// The path as given.
        path: String,
        /// The first refused character.
        ch: char,
    },
    /// A `..` segment climbs above the workspace root.
    #[error("path '{path}' leads outside the workspace; paths are relative to the workspace root and '..' cannot climb above it")]
    PathEscapesRoot {
        /// The path as given.
        path: String,
    },
    /// No file exists at the path.
    #[error("no file at '{path}'; call list_files to see which files exist")]
    NotFound {
        /// The normalised path.
        path: String,
    },
    /// `read_file` was asked for zero lines.
    #[error("limit must be at least 1 line; leave it out to read the whole file")]
    BadLimit,
    /// The file would exceed the per-file cap.
    #[error("'{path}' would be {bytes} bytes; a single file may hold at most {max} bytes; nothing was changed")]
    FileTooLarge {
        /// The normalised path.
        path: String,
        /// The size the file would have had.
        bytes: usize,
        /// The per-file cap.
        max: usize,
    },
    /// The workspace would exceed its total size cap.
    #[error("the workspace would hold {bytes} bytes in total; the limit is {max}; make existing files smaller first; nothing was changed")]
    WorkspaceFull {
        /// The total the workspace would have had.
        bytes: usize,
        /// The total cap.
        max: usize,
    },
    /// Creating the file would exceed the file count cap.
    #[error("cannot create '{path}': the workspace already holds {max} files, the most allowed; overwrite an existing file instead; nothing was changed")]
    TooManyFiles {
        /// The normalised path that would have been created.
        path: String,
        /// The file count cap.
        max: usize,
    },
    /// `edit_file` was given an empty `old_text`.
    #[error("old_text is empty; give the exact text to replace, copied from the file; nothing was changed")]
    EmptyOldText,
    /// `old_text` does not occur in the file.
    #[error("old_text was not found in '{path}'; read_file it and copy the text exactly, including whitespace and line breaks; nothing was changed")]
    TextNotFound {
        /// The normalised path.
        path: String,
    },
    /// `old_text` occurs more than once, so the edit would be ambiguous.
    #[error("old_text occurs {count} times in '{path}'; include more surrounding context so it matches exactly once; nothing was changed")]
    TextNotUnique {
        /// The normalised path.
        path: String,
        /// How many (possibly overlapping) occurrences were found.
        count: usize,
    },
    /// An imported workspace holds a path that is not in normal form.
    #[error("path '{path}' is not in normal form; it should be written '{normal}'")]
    NotNormalised {
        /// The path as stored.
        path: String,
        /// Its normal form.
        normal: String,
    },
}

/// Size caps of a workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceLimits {
    /// The most bytes a single file may hold.
    pub max_file_bytes: usize,
    /// The most bytes all files together may hold.
    pub max_total_bytes: usize,
    /// The most files the workspace may hold.
    pub max_files: usize,
}

impl Default for WorkspaceLimits {
    fn default() -> Self {
        WorkspaceLimits { max_file_bytes: DEFAULT_MAX_FILE_BYTES, max_total_bytes: DEFAULT_MAX_TOTAL_BYTES, max_files: DEFAULT_MAX_FILES }
    }
}

/// Normalises a file path to the form the workspace stores: relative to the
/// root, `/`-separated, without empty, `.` or `..` segments.
///
/// A leading `/` means the workspace root (`/src/x` is `src/x`). Refuses
/// paths that name no file, climb above the root, are longer than
/// [`MAX_PATH_CHARS`], or hold a backslash or control character.
pub fn normalise(path: &str) -> Result<String, WorkspaceError> {
    let len = path.chars().count();
    if len > MAX_PATH_CHARS {
        return Err(WorkspaceError::PathTooLong { len });
    }
    if let Some(ch) = path.chars().find(|&c| c == '\\' || c.is_control()) {
        return Err(WorkspaceError::BadChar { path: path.to_string(), ch });
    }
    // Already normal (the usual case): every segment names something.
    if path.split('/').all(|segment| !matches!(segment, "" | "." | "..")) {
        return Ok(path.to_string());
    }
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if segments.pop().is_none() {
                    return Err(WorkspaceError::PathEscapesRoot { path: path.to_string() });
                }
            }
            name => segments.push(name),
        }
    }
    if segments.is_empty() {
        return Err(WorkspaceError::EmptyPath);
    }
    Ok(segments.join("/"))
}

/// An in-memory file system: text files keyed by normalised path, within
/// size caps. Every mutating operation either succeeds whole or leaves the
/// workspace unchanged.
///
/// Serialises as `{"limits": {..}, "files": {path: content}}`; `limits` may
/// be left out on import, and importing enforces the paths and caps.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Workspace {
    limits: WorkspaceLimits,
    /// Shared between clones (the explorer clones the world at every
    /// state) until one writes.
    #[serde(serialize_with = "files_as_map")]
    files: Arc<BTreeMap<String, String>>,
    /// The files' canonical hash for the explorer, shared between clones
    /// and dropped by every write.
    #[serde(skip)]
    hashed: SharedMemo,
}

fn files_as_map<S: serde::Serializer>(files: &Arc<BTreeMap<String, String>>, s: S) -> Result<S::Ok, S::Error> {
    files.as_ref().serialize(s)
}

impl Workspace {
    /// An empty workspace with the default caps.
    pub fn new() -> Self {
        Workspace::default()
    }

    /// An empty workspace with the given caps.
    pub fn with_limits(limits: WorkspaceLimits) -> Self {
        Workspace { limits, files: Arc::default(), hashed: SharedMemo::default() }
    }

    /// The workspace's caps.
    pub fn limits(&self) -> WorkspaceLimits {
        self.limits
    }

    /// The `list_files` tool: one line `path (N bytes)` per file, in path
    /// order, or `(workspace is empty)`.
    pub fn list_files(&self) -> String {
        if self.files.is_empty() {
            return "(workspace is empty)".to_string();
        }
        self.files.iter().map(|(path, content)| format!("{path} ({} bytes)", content.len())).collect::<Vec<_>>().join("\n")
    }

    /// Every file as `(path, content)`, in path order.
    pub fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().map(|(path, content)| (path.as_str(), content.as_str()))
    }

    /// The files' canonical hash (paths and contents through
    /// `Canon::hash_text`), remembered between the clones that share them.
    pub fn canon_hash(&self, canon: &Canon) -> u64 {
        self.hashed.0.hash(
            canon,
            |out| {
                for (path, content) in self.files() {
                    id_windows(path, out);
                    id_windows(content, out);
                }
            },
            |name| self.files().any(|(path, content)| path.contains(name) || content.contains(name)),
            || {
                let mut h = StableHasher::default();
                for (path, content) in self.files() {
                    canon.hash_text(path, &mut h);
                    canon.hash_text(content, &mut h);
                }
                h.finish()
            },
        )
    }

    /// The content of the file at `path`, if the path is valid and the file
    /// exists.
    pub fn get(&self, path: &str) -> Option<&str> {
        let path = normalise(path).ok()?;
        self.files.get(&path).map(String::as_str)
    }

    /// The `read_file` tool: the file's content, verbatim. With a `limit`
    /// and a file of more lines, the first `limit` lines followed by a line
    /// `... (K more lines)`.
    pub fn read_file(&self, path: &str, limit: Option<usize>) -> Result<String, WorkspaceError> {
        if limit == Some(0) {
            return Err(WorkspaceError::BadLimit);
        }
        let path = normalise(path)?;
        let content = self.files.get(&path).ok_or(WorkspaceError::NotFound { path })?;
        let Some(limit) = limit else {
            return Ok(content.clone());
        };
        let total = content.lines().count();
        if total <= limit {
            return Ok(content.clone());
        }
        let mut out: Vec<&str> = content.lines().take(limit).collect();
        let more = format!("... ({} more lines)", total - limit);
        out.push(&more);
        Ok(out.join("\n"))
    }

    /// The `write_file` tool: creates or overwrites the file at `path`, and
    /// answers `Wrote N bytes to PATH`.
    pub fn write_file(&mut self, path: &str, content: &str) -> Result<String, WorkspaceError> {
        let path = normalise(path)?;
        self.check_fits(&path, content.len())?;
        let answer = format!("Wrote {} bytes to {path}", content.len());
        Arc::make_mut(&mut self.files).insert(path, content.to_string());
        self.hashed = SharedMemo::default();
        Ok(answer)
    }

    /// The `edit_file` tool: replaces the one occurrence of `old_text` in
    /// the file at `path` with `new_text`, and answers `Edited PATH`.
    pub fn edit_file(&mut self, path: &str, old_text: &str, new_text: &str) -> Result<String, WorkspaceError> {
        let path = normalise(path)?;
        let content = self.files.get(&path).ok_or_else(|| WorkspaceError::NotFound { path: path.clone() })?;
        if old_text.is_empty() {
            return Err(WorkspaceError::EmptyOldText);
        }
        let Some(at) = content.find(old_text) else {
            return Err(WorkspaceError::TextNotFound { path });
        };
        let count = count_overlapping(content, old_text);
        if count > 1 {
            return Err(WorkspaceError::TextNotUnique { path, count });
        }
        let edited = format!("{}{new_text}{}", &content[..at], &content[at + old_text.len()..]);
        self.check_fits(&path, edited.len())?;
        let answer = format!("Edited {path}");
        Arc::make_mut(&mut self.files).insert(path, edited);
        self.hashed = SharedMemo::default();
        Ok(answer)
    }

    /// The bytes held by all files together.
    pub fn total_bytes(&self) -> usize {
        self.files.values().map(String::len).sum()
    }

    /// The number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when the workspace holds no files.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Checks that the normalised `path` may hold `bytes` bytes: the
    /// per-file cap, the file count cap if it is new, and the total cap
    /// counting the file it would replace.
    fn check_fits(&self, path: &str, bytes: usize) -> Result<(), WorkspaceError> {
        let limits = self.limits;
        if bytes > limits.max_file_bytes {
            return Err(WorkspaceError::FileTooLarge { path: path.to_string(), bytes, max: limits.max_file_bytes });
        }
        let replaced = match self.files.get(path) {
            Some(old) => old.len(),
            None if self.files.len() >= limits.max_files => {
                return Err(WorkspaceError::TooManyFiles { path: path.to_string(), max: limits.max_files });
            }
            None => 0,
        };
        let total = self.total_bytes() - replaced + bytes;
        if total > limits.max_total_bytes {
            return Err(WorkspaceError::WorkspaceFull { bytes: total, max: limits.max_total_bytes });
        }
        Ok(())
    }
}

/// The number of occurrences of a non-empty `needle` in `haystack`,
/// overlapping ones included (`aa` occurs twice in `aaa`).
fn count_overlapping(haystack: &str, needle: &str) -> usize {
    let step = needle.chars().next().map_or(1, char::len_utf8);
    let mut count = 0;
    let mut start = 0;
    while let Some(at) = haystack[start..].find(needle) {
        count += 1;
        start += at + step;
    }
    count
}

/// The serialised shape, checked before it becomes a [`Workspace`].
#[derive(Deserialize)]
struct WorkspaceData {
    #[serde(default)]
    limits: WorkspaceLimits,
    files: BTreeMap<String, String>,
}

impl TryFrom<WorkspaceData> for Workspace {
    type Error = WorkspaceError;
    fn try_from(data: WorkspaceData) -> Result<Self, Self::Error> {
        let mut workspace = Workspace::with_limits(data.limits);
        for (path, content) in data.files {
            let normal = normalise(&path)?;
            if normal != path {
                return Err(WorkspaceError::NotNormalised { path, normal });
            }
            workspace.write_file(&path, &content)?;
        }
        Ok(workspace)
    }
}

impl<'de> Deserialize<'de> for Workspace {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let data = WorkspaceData::deserialize(deserializer)?;
        Workspace::try_from(data).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
