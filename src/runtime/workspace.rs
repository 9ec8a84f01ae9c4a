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
mod tests {
    use super::*;

    fn small(max_file_bytes: usize, max_total_bytes: usize, max_files: usize) -> Workspace {
        Workspace::with_limits(WorkspaceLimits { max_file_bytes, max_total_bytes, max_files })
    }

    fn with_files(files: &[(&str, &str)]) -> Workspace {
        let mut ws = Workspace::new();
        for (path, content) in files {
            ws.write_file(path, content).unwrap();
        }
        ws
    }

    fn err_too_large(path: &str, bytes: usize, max: usize) -> WorkspaceError {
        WorkspaceError::FileTooLarge { path: path.to_string(), bytes, max }
    }

    // --- normalisation ---

    #[test]
    fn normalise_drops_dot_segments_and_repeated_slashes() {
        assert_eq!(normalise("./a/b.txt").unwrap(), "a/b.txt");
        assert_eq!(normalise("a//b").unwrap(), "a/b");
        assert_eq!(normalise("a/./b/.").unwrap(), "a/b");
        assert_eq!(normalise("a/b/").unwrap(), "a/b");
        assert_eq!(normalise("notes.txt").unwrap(), "notes.txt");
    }

    #[test]
    fn leading_slash_means_the_workspace_root() {
        assert_eq!(normalise("/src/x").unwrap(), "src/x");
        assert_eq!(normalise("//src//x").unwrap(), "src/x");
    }

    #[test]
    fn dot_dot_resolves_within_the_root() {
        assert_eq!(normalise("a/../b").unwrap(), "b");
        assert_eq!(normalise("a/b/../c").unwrap(), "a/c");
        assert_eq!(normalise("a/b/../../c").unwrap(), "c");
        assert_eq!(normalise("/a/../b").unwrap(), "b");
    }

    #[test]
    fn paths_that_escape_the_root_are_refused() {
        for bad in ["../x", "a/../../x", "/../x", "..", "./../x", "a/b/../../../x"] {
            assert_eq!(normalise(bad), Err(WorkspaceError::PathEscapesRoot { path: bad.to_string() }), "{bad:?}");
        }
    }

    #[test]
    fn escape_is_refused_even_if_the_path_comes_back_in() {
        assert!(matches!(normalise("../a/x"), Err(WorkspaceError::PathEscapesRoot { .. })));
        assert!(matches!(normalise("a/../../a/x"), Err(WorkspaceError::PathEscapesRoot { .. })));
    }

    #[test]
    fn paths_that_name_no_file_are_refused() {
        for bad in ["", "/", ".", "./", "//", "/./", "a/..", "a/b/../.."] {
            assert_eq!(normalise(bad), Err(WorkspaceError::EmptyPath), "{bad:?}");
        }
    }

    #[test]
    fn backslashes_and_control_characters_are_refused() {
        for (bad, ch) in [("a\\b", '\\'), ("a\0b", '\0'), ("a\nb", '\n'), ("a\tb", '\t'), ("x\u{7f}", '\u{7f}')] {
            assert_eq!(normalise(bad), Err(WorkspaceError::BadChar { path: bad.to_string(), ch }), "{bad:?}");
        }
    }

    #[test]
    fn spaces_and_unicode_are_allowed_in_names() {
        assert_eq!(normalise("my notes/résumé.md").unwrap(), "my notes/résumé.md");
    }

    #[test]
    fn paths_have_a_length_cap_in_characters() {
        let at_cap = "é".repeat(MAX_PATH_CHARS);
        assert_eq!(normalise(&at_cap).unwrap(), at_cap);
        let over = "a".repeat(MAX_PATH_CHARS + 1);
        assert_eq!(normalise(&over), Err(WorkspaceError::PathTooLong { len: MAX_PATH_CHARS + 1 }));
    }

    #[test]
    fn every_tool_normalises_its_path() {
        let mut ws = Workspace::new();
        assert_eq!(ws.write_file("./src//main.rs", "fn main() {}\n").unwrap(), "Wrote 13 bytes to src/main.rs");
        assert_eq!(ws.get("/src/main.rs"), Some("fn main() {}\n"));
        assert_eq!(ws.read_file("src/./x/../main.rs", None).unwrap(), "fn main() {}\n");
        assert_eq!(ws.edit_file("/src/main.rs", "main", "start").unwrap(), "Edited src/main.rs");
        assert_eq!(ws.list_files(), "src/main.rs (14 bytes)");
        assert_eq!(ws.len(), 1);
    }

    #[test]
    fn get_with_an_invalid_path_is_none() {
        let ws = with_files(&[("a.txt", "x")]);
        assert_eq!(ws.get("../a.txt"), None);
        assert_eq!(ws.get(""), None);
        assert_eq!(ws.get("b.txt"), None);
    }

    // --- listing ---

    #[test]
    fn empty_workspace_lists_as_empty() {
        let ws = Workspace::new();
        assert_eq!(ws.list_files(), "(workspace is empty)");
        assert!(ws.is_empty());
        assert_eq!(ws.len(), 0);
        assert_eq!(ws.total_bytes(), 0);
    }

    #[test]
    fn list_files_is_sorted_and_counts_bytes_not_characters() {
        let ws = with_files(&[("zeta.txt", "z"), ("a/b.txt", "héllo"), ("empty", "")]);
        assert_eq!(ws.list_files(), "a/b.txt (6 bytes)\nempty (0 bytes)\nzeta.txt (1 bytes)");
    }

    #[test]
    fn files_iterates_in_path_order() {
        let ws = with_files(&[("b", "2"), ("a", "1"), ("c/d", "3")]);
        let got: Vec<_> = ws.files().collect();
        assert_eq!(got, [("a", "1"), ("b", "2"), ("c/d", "3")]);
    }

    // --- read_file ---

    #[test]
    fn read_without_limit_returns_the_file_verbatim() {
        let ws = with_files(&[("a.txt", "one\ntwo\r\nthree\n")]);
        assert_eq!(ws.read_file("a.txt", None).unwrap(), "one\ntwo\r\nthree\n");
    }

    #[test]
    fn read_with_limit_returns_first_lines_and_counts_the_rest() {
        let ws = with_files(&[("a.txt", "1\n2\n3\n4\n5\n")]);
        assert_eq!(ws.read_file("a.txt", Some(2)).unwrap(), "1\n2\n... (3 more lines)");
        assert_eq!(ws.read_file("a.txt", Some(4)).unwrap(), "1\n2\n3\n4\n... (1 more lines)");
    }

    #[test]
    fn read_with_limit_at_or_over_the_line_count_returns_the_whole_file() {
        let ws = with_files(&[("a.txt", "1\n2\n3\n"), ("b.txt", "1\n2\n3"), ("empty", "")]);
        assert_eq!(ws.read_file("a.txt", Some(3)).unwrap(), "1\n2\n3\n");
        assert_eq!(ws.read_file("b.txt", Some(3)).unwrap(), "1\n2\n3");
        assert_eq!(ws.read_file("a.txt", Some(100)).unwrap(), "1\n2\n3\n");
        assert_eq!(ws.read_file("empty", Some(1)).unwrap(), "");
    }

    #[test]
    fn zero_limit_is_refused() {
        let ws = with_files(&[("a.txt", "1\n2\n")]);
        assert_eq!(ws.read_file("a.txt", Some(0)), Err(WorkspaceError::BadLimit));
    }

    #[test]
    fn reading_a_missing_file_is_not_found_and_suggests_list_files() {
        let ws = with_files(&[("a.txt", "x")]);
        let err = ws.read_file("./b.txt", None).unwrap_err();
        assert_eq!(err, WorkspaceError::NotFound { path: "b.txt".to_string() });
        assert!(err.to_string().contains("list_files"), "{err}");
    }

    #[test]
    fn reading_a_bad_path_is_refused() {
        let ws = with_files(&[("a.txt", "x")]);
        assert!(matches!(ws.read_file("../a.txt", None), Err(WorkspaceError::PathEscapesRoot { .. })));
        assert_eq!(ws.read_file("/", None), Err(WorkspaceError::EmptyPath));
    }

    // --- write_file ---

    #[test]
    fn write_creates_a_file_and_reports_its_bytes() {
        let mut ws = Workspace::new();
        assert_eq!(ws.write_file("notes.txt", "héllo").unwrap(), "Wrote 6 bytes to notes.txt");
        assert_eq!(ws.get("notes.txt"), Some("héllo"));
        assert_eq!(ws.total_bytes(), 6);
        assert_eq!(ws.len(), 1);
        assert!(!ws.is_empty());
    }

    #[test]
    fn write_overwrites_an_existing_file() {
        let mut ws = with_files(&[("a.txt", "old content")]);
        assert_eq!(ws.write_file("a.txt", "new").unwrap(), "Wrote 3 bytes to a.txt");
        assert_eq!(ws.get("a.txt"), Some("new"));
        assert_eq!(ws.len(), 1);
        assert_eq!(ws.total_bytes(), 3);
    }

    #[test]
    fn write_of_an_empty_file_is_allowed() {
        let mut ws = Workspace::new();
        assert_eq!(ws.write_file("empty", "").unwrap(), "Wrote 0 bytes to empty");
        assert_eq!(ws.len(), 1);
    }

    #[test]
    fn write_with_a_bad_path_leaves_the_workspace_unchanged() {
        let mut ws = with_files(&[("a.txt", "x")]);
        let before = ws.clone();
        assert!(matches!(ws.write_file("../evil", "x"), Err(WorkspaceError::PathEscapesRoot { .. })));
        assert!(matches!(ws.write_file("a\\b", "x"), Err(WorkspaceError::BadChar { .. })));
        assert_eq!(ws.write_file(".", "x"), Err(WorkspaceError::EmptyPath));
        assert_eq!(ws, before);
    }

    #[test]
    fn per_file_cap_allows_exactly_the_cap_and_refuses_one_over() {
        let mut ws = small(10, 100, 10);
        assert!(ws.write_file("a", &"x".repeat(10)).is_ok());
        let before = ws.clone();
        let err = ws.write_file("b", &"x".repeat(11)).unwrap_err();
        assert_eq!(err, WorkspaceError::FileTooLarge { path: "b".to_string(), bytes: 11, max: 10 });
        assert_eq!(ws.write_file("a", &"y".repeat(11)), Err(err_too_large("a", 11, 10)));
        assert_eq!(ws, before);
    }

    #[test]
    fn total_cap_allows_exactly_the_cap_and_refuses_one_over() {
        let mut ws = small(100, 10, 10);
        ws.write_file("a", "123456").unwrap();
        assert!(ws.write_file("b", "1234").is_ok());
        assert_eq!(ws.total_bytes(), 10);
        let before = ws.clone();
        assert_eq!(ws.write_file("c", "1"), Err(WorkspaceError::WorkspaceFull { bytes: 11, max: 10 }));
        assert_eq!(ws, before);
    }

    #[test]
    fn total_cap_counts_the_size_of_the_replaced_file() {
        let mut ws = small(100, 10, 10);
        ws.write_file("a", "123456").unwrap();
        ws.write_file("b", "1234").unwrap();
        // Replacing a 6-byte file with 6 bytes keeps the total at the cap.
        assert!(ws.write_file("a", "abcdef").is_ok());
        // Shrinking one file makes room in another.
        assert!(ws.write_file("a", "ab").is_ok());
        assert!(ws.write_file("b", "12345678").is_ok());
        assert_eq!(ws.total_bytes(), 10);
        let before = ws.clone();
        assert_eq!(ws.write_file("b", "123456789"), Err(WorkspaceError::WorkspaceFull { bytes: 11, max: 10 }));
        assert_eq!(ws, before);
    }

    #[test]
    fn file_count_cap_allows_exactly_the_cap_and_refuses_one_more() {
        let mut ws = small(100, 100, 3);
        for path in ["a", "b", "c"] {
            ws.write_file(path, "x").unwrap();
        }
        assert_eq!(ws.len(), 3);
        let before = ws.clone();
        assert_eq!(ws.write_file("d", "x"), Err(WorkspaceError::TooManyFiles { path: "d".to_string(), max: 3 }));
        assert_eq!(ws, before);
    }

    #[test]
    fn file_count_cap_still_allows_overwriting_at_the_cap() {
        let mut ws = small(100, 100, 2);
        ws.write_file("a", "x").unwrap();
        ws.write_file("b", "x").unwrap();
        assert_eq!(ws.write_file("./a", "yy").unwrap(), "Wrote 2 bytes to a");
        assert_eq!(ws.edit_file("b", "x", "zz").unwrap(), "Edited b");
        assert_eq!(ws.len(), 2);
    }

    #[test]
    fn default_limits_are_256_kib_per_file_4_mib_total_1000_files() {
        let limits = Workspace::new().limits();
        assert_eq!(limits.max_file_bytes, 256 * 1024);
        assert_eq!(limits.max_total_bytes, 4 * 1024 * 1024);
        assert_eq!(limits.max_files, 1000);
    }

    #[test]
    fn default_per_file_cap_is_enforced_at_the_boundary() {
        let mut ws = Workspace::new();
        assert!(ws.write_file("big", &"x".repeat(DEFAULT_MAX_FILE_BYTES)).is_ok());
        let err = ws.write_file("bigger", &"x".repeat(DEFAULT_MAX_FILE_BYTES + 1)).unwrap_err();
        assert_eq!(err, err_too_large("bigger", DEFAULT_MAX_FILE_BYTES + 1, DEFAULT_MAX_FILE_BYTES));
    }

    #[test]
    fn default_total_cap_is_enforced_at_the_boundary() {
        let mut ws = Workspace::new();
        let chunk = "x".repeat(DEFAULT_MAX_FILE_BYTES);
        for i in 0..DEFAULT_MAX_TOTAL_BYTES / DEFAULT_MAX_FILE_BYTES {
            ws.write_file(&format!("f{i}"), &chunk).unwrap();
        }
        assert_eq!(ws.total_bytes(), DEFAULT_MAX_TOTAL_BYTES);
        let before = ws.clone();
        let err = ws.write_file("one-more", "x").unwrap_err();
        assert_eq!(err, WorkspaceError::WorkspaceFull { bytes: DEFAULT_MAX_TOTAL_BYTES + 1, max: DEFAULT_MAX_TOTAL_BYTES });
        assert_eq!(ws, before);
    }

    #[test]
    fn default_file_count_cap_is_enforced_at_the_boundary() {
        let mut ws = Workspace::new();
        for i in 0..DEFAULT_MAX_FILES {
            ws.write_file(&format!("f{i}"), "").unwrap();
        }
        assert_eq!(ws.len(), DEFAULT_MAX_FILES);
        let err = ws.write_file("one-more", "").unwrap_err();
        assert_eq!(err, WorkspaceError::TooManyFiles { path: "one-more".to_string(), max: DEFAULT_MAX_FILES });
        assert_eq!(ws.len(), DEFAULT_MAX_FILES);
    }

    // --- edit_file ---

    #[test]
    fn edit_replaces_the_one_occurrence() {
        let mut ws = with_files(&[("a.rs", "fn main() {\n    println!(\"hi\");\n}\n")]);
        assert_eq!(ws.edit_file("a.rs", "\"hi\"", "\"hello\"").unwrap(), "Edited a.rs");
        assert_eq!(ws.get("a.rs"), Some("fn main() {\n    println!(\"hello\");\n}\n"));
    }

    #[test]
    fn edit_can_delete_text_and_handles_multibyte_text() {
        let mut ws = with_files(&[("a.txt", "naïve café")]);
        ws.edit_file("a.txt", "ï", "i").unwrap();
        ws.edit_file("a.txt", " café", "").unwrap();
        assert_eq!(ws.get("a.txt"), Some("naive"));
    }

    #[test]
    fn edit_of_a_missing_file_is_not_found_and_unchanged() {
        let mut ws = with_files(&[("a.txt", "x")]);
        let before = ws.clone();
        let err = ws.edit_file("b.txt", "x", "y").unwrap_err();
        assert_eq!(err, WorkspaceError::NotFound { path: "b.txt".to_string() });
        assert!(err.to_string().contains("list_files"), "{err}");
        assert_eq!(ws, before);
    }

    #[test]
    fn edit_with_a_bad_path_is_refused_and_unchanged() {
        let mut ws = with_files(&[("a.txt", "x")]);
        let before = ws.clone();
        assert!(matches!(ws.edit_file("../a.txt", "x", "y"), Err(WorkspaceError::PathEscapesRoot { .. })));
        assert_eq!(ws.edit_file("", "x", "y"), Err(WorkspaceError::EmptyPath));
        assert_eq!(ws, before);
    }

    #[test]
    fn empty_old_text_is_refused_and_unchanged() {
        let mut ws = with_files(&[("a.txt", "abc")]);
        let before = ws.clone();
        assert_eq!(ws.edit_file("a.txt", "", "x"), Err(WorkspaceError::EmptyOldText));
        assert_eq!(ws, before);
    }

    #[test]
    fn old_text_not_found_is_refused_and_unchanged() {
        let mut ws = with_files(&[("a.txt", "hello world")]);
        let before = ws.clone();
        assert_eq!(ws.edit_file("a.txt", "Hello", "Bye"), Err(WorkspaceError::TextNotFound { path: "a.txt".to_string() }));
        assert_eq!(ws, before);
    }

    #[test]
    fn old_text_found_twice_is_not_unique_and_asks_for_more_context() {
        let mut ws = with_files(&[("a.txt", "x = 1;\ny = 1;\nz = 1;\n")]);
        let before = ws.clone();
        let err = ws.edit_file("a.txt", "= 1;", "= 2;").unwrap_err();
        assert_eq!(err, WorkspaceError::TextNotUnique { path: "a.txt".to_string(), count: 3 });
        assert!(err.to_string().contains("more surrounding context"), "{err}");
        assert_eq!(ws, before);
    }

    #[test]
    fn overlapping_occurrences_count_as_not_unique() {
        let mut ws = with_files(&[("a.txt", "aaa"), ("b.txt", "ababa")]);
        let before = ws.clone();
        assert_eq!(ws.edit_file("a.txt", "aa", "b"), Err(WorkspaceError::TextNotUnique { path: "a.txt".into(), count: 2 }));
        assert_eq!(ws.edit_file("b.txt", "aba", "c"), Err(WorkspaceError::TextNotUnique { path: "b.txt".into(), count: 2 }));
        assert_eq!(ws, before);
    }

    #[test]
    fn edit_result_must_fit_the_per_file_cap() {
        let mut ws = small(10, 100, 10);
        ws.write_file("a", "12345").unwrap();
        assert!(ws.edit_file("a", "5", "567890").is_ok());
        assert_eq!(ws.get("a"), Some("1234567890"));
        let before = ws.clone();
        assert_eq!(ws.edit_file("a", "0", "0!"), Err(err_too_large("a", 11, 10)));
        assert_eq!(ws, before);
    }

    #[test]
    fn edit_result_must_fit_the_total_cap() {
        let mut ws = small(100, 10, 10);
        ws.write_file("a", "1234").unwrap();
        ws.write_file("b", "12345").unwrap();
        assert!(ws.edit_file("b", "5", "56").is_ok());
        assert_eq!(ws.total_bytes(), 10);
        let before = ws.clone();
        assert_eq!(ws.edit_file("a", "4", "45"), Err(WorkspaceError::WorkspaceFull { bytes: 11, max: 10 }));
        assert_eq!(ws, before);
    }

    #[test]
    fn edit_that_shrinks_a_file_is_allowed_when_full() {
        let mut ws = small(100, 4, 10);
        ws.write_file("a", "abcd").unwrap();
        assert!(ws.edit_file("a", "bc", "x").is_ok());
        assert_eq!(ws.total_bytes(), 3);
    }

    // --- messages ---

    #[test]
    fn messages_read_as_sentences_after_error_prefix() {
        let errors = [
            WorkspaceError::EmptyPath,
            WorkspaceError::PathTooLong { len: 600 },
            WorkspaceError::BadChar { path: "a\\b".into(), ch: '\\' },
            WorkspaceError::PathEscapesRoot { path: "../x".into() },
            WorkspaceError::NotFound { path: "x".into() },
            WorkspaceError::BadLimit,
            err_too_large("x", 2, 1),
            WorkspaceError::WorkspaceFull { bytes: 2, max: 1 },
            WorkspaceError::TooManyFiles { path: "x".into(), max: 1 },
            WorkspaceError::EmptyOldText,
            WorkspaceError::TextNotFound { path: "x".into() },
            WorkspaceError::TextNotUnique { path: "x".into(), count: 2 },
            WorkspaceError::NotNormalised { path: "./x".into(), normal: "x".into() },
        ];
        for err in errors {
            let text = err.to_string();
            let first = text.chars().next().unwrap();
            assert!(!first.is_uppercase(), "{text}");
            assert!(!text.ends_with('.'), "{text}");
        }
    }

    #[test]
    fn errors_from_mutating_tools_say_nothing_was_changed() {
        let errors = [
            err_too_large("x", 2, 1),
            WorkspaceError::WorkspaceFull { bytes: 2, max: 1 },
            WorkspaceError::TooManyFiles { path: "x".into(), max: 1 },
            WorkspaceError::EmptyOldText,
            WorkspaceError::TextNotFound { path: "x".into() },
            WorkspaceError::TextNotUnique { path: "x".into(), count: 2 },
        ];
        for err in errors {
            assert!(err.to_string().ends_with("nothing was changed"), "{err}");
        }
    }

    // --- serde ---

    #[test]
    fn export_and_import_round_trip() {
        let mut ws = small(1000, 2000, 5);
        ws.write_file("src/main.rs", "fn main() {}\n").unwrap();
        ws.write_file("README.md", "# hi\n").unwrap();
        let json = serde_json::to_string(&ws).unwrap();
        let back: Workspace = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ws);
    }

    #[test]
    fn import_of_files_only_uses_default_limits() {
        let ws: Workspace = serde_json::from_str(r#"{"files": {"a.txt": "x", "b/c": "yz"}}"#).unwrap();
        assert_eq!(ws.limits(), WorkspaceLimits::default());
        assert_eq!(ws.list_files(), "a.txt (1 bytes)\nb/c (2 bytes)");
    }

    #[test]
    fn import_refuses_bad_or_unnormalised_paths() {
        let escapes = serde_json::from_str::<Workspace>(r#"{"files": {"../x": "x"}}"#).unwrap_err();
        assert!(escapes.to_string().contains("leads outside the workspace"), "{escapes}");
        let unnormal = serde_json::from_str::<Workspace>(r#"{"files": {"./x": "x"}}"#).unwrap_err();
        assert!(unnormal.to_string().contains("should be written 'x'"), "{unnormal}");
    }

    #[test]
    fn import_enforces_the_caps() {
        let json = r#"{"limits": {"max_file_bytes": 2, "max_total_bytes": 10, "max_files": 10}, "files": {"a": "xyz"}}"#;
        let err = serde_json::from_str::<Workspace>(json).unwrap_err();
        assert!(err.to_string().contains("at most 2 bytes"), "{err}");
        let json = r#"{"limits": {"max_files": 1}, "files": {"a": "x", "b": "y"}}"#;
        let err = serde_json::from_str::<Workspace>(json).unwrap_err();
        assert!(err.to_string().contains("already holds 1 files"), "{err}");
    }
}
