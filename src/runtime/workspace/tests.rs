//! The workspace's rules: paths, the caps at their boundaries, edits that
//! must match once, error texts as the model reads them, export and import.

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

/// Every path over a small alphabet of separators, dots and names:
/// a path already normal comes back as it is, and any other as the
/// segment fold makes it (each `..` takes back one name).
#[test]
fn normalise_is_the_segment_fold_of_every_short_path() {
    let fold = |path: &str| -> Option<String> {
        let mut kept: Vec<&str> = Vec::new();
        for segment in path.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    kept.pop()?;
                }
                name => kept.push(name),
            }
        }
        (!kept.is_empty()).then(|| kept.join("/"))
    };
    let alphabet = ["a", "b.md", ".", "..", "/"];
    let mut paths = vec![String::new()];
    for _ in 0..5 {
        paths = paths.iter().flat_map(|p| alphabet.iter().map(move |s| format!("{p}{s}"))).collect();
        for path in &paths {
            assert_eq!(normalise(path).ok(), fold(path), "{path:?}");
        }
    }
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
