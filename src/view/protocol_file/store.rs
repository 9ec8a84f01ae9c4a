//! The user's protocol files as the browser keeps them: one JSON list
//! under one `localStorage` key (`KEY`), each file with an id, a name and
//! its text. Reading a damaged list says so and gives nothing back; the
//! page then sets the damaged text aside (`DAMAGED_KEY`) before it writes
//! a new list, so nothing is lost.
//!
//! Pure: the encoding, the decoding and the list's edits. Reading and
//! writing `localStorage` is the page's (`ui::protocols`).

use serde::{Deserialize, Serialize};

/// Where the list is kept.
pub const KEY: &str = "team-protocols.files";

/// Where a list that could not be read is set aside.
pub const DAMAGED_KEY: &str = "team-protocols.files.damaged";

/// Why the stored list could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The text is not the list this page writes.
    #[error("the stored protocol files could not be read ({0})")]
    Damaged(String),
}

/// One of the user's files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserFile {
    /// A unique id within the list.
    pub id: u64,
    /// What the list shows.
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// The stored list, versioned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Stored {
    version: u32,
    files: Vec<UserFile>,
}

/// The list from its stored text (`None`: nothing stored yet, an empty list).
pub fn decode(text: Option<&str>) -> Result<Vec<UserFile>, StoreError> {
    let Some(text) = text else { return Ok(Vec::new()) };
    let stored: Stored = serde_json::from_str(text).map_err(|e| StoreError::Damaged(e.to_string()))?;
    if stored.version != 1 {
        return Err(StoreError::Damaged(format!("version {} is not one this page reads", stored.version)));
    }
    Ok(stored.files)
}

/// The list as stored text.
pub fn encode(files: &[UserFile]) -> String {
    serde_json::to_string(&Stored { version: 1, files: files.to_vec() }).unwrap_or_default()
}

/// An id not used in `files`.
pub fn next_id(files: &[UserFile]) -> u64 {
    files.iter().map(|f| f.id).max().map_or(1, |m| m + 1)
}

/// A name not used in `files`: `base`, else `base (2)`, `base (3)`…
pub fn free_name(files: &[UserFile], base: &str) -> String {
    if !files.iter().any(|f| f.name == base) {
        return base.to_string();
    }
    (2..).map(|n| format!("{base} ({n})")).find(|c| !files.iter().any(|f| &f.name == c)).unwrap_or_default()
}

/// A file that arrived with a run (a shared link, an imported trace),
/// taken into `files`: the file of the same text if the list has one
/// (nothing added), else a new file under `name`, renamed as `free_name`
/// does when a file of that name differs — never written over it. The
/// id of the file, and whether it was added.
pub fn adopt(files: &mut Vec<UserFile>, name: &str, text: &str) -> (u64, bool) {
    if let Some(same) = files.iter().find(|f| f.text == text) {
        return (same.id, false);
    }
    let id = next_id(files);
    let name = free_name(files, name);
    files.push(UserFile { id, name, text: text.to_string() });
    (id, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_survives_its_own_encoding() {
        let files = vec![UserFile { id: 1, name: "review".into(), text: "format = 1\n<script>x</script>".into() }];
        assert_eq!(decode(Some(&encode(&files))).unwrap(), files);
        assert_eq!(decode(None).unwrap(), vec![]);
    }

    #[test]
    fn a_damaged_list_is_refused_not_read_as_empty() {
        assert!(matches!(decode(Some("{not json")), Err(StoreError::Damaged(_))));
        assert!(matches!(decode(Some("{\"version\":9,\"files\":[]}")), Err(StoreError::Damaged(_))));
    }

    #[test]
    fn new_ids_and_names_do_not_clash() {
        let files =
            vec![UserFile { id: 4, name: "a".into(), text: String::new() }, UserFile { id: 2, name: "a (2)".into(), text: String::new() }];
        assert_eq!(next_id(&files), 5);
        assert_eq!(free_name(&files, "a"), "a (3)");
        assert_eq!(free_name(&files, "b"), "b");
    }

    #[test]
    fn a_file_arriving_with_a_run_never_overwrites_one_of_the_same_name() {
        let mut files = vec![UserFile { id: 1, name: "review".into(), text: "mine".into() }];
        let (id, added) = adopt(&mut files, "review", "theirs");
        assert!(added);
        assert_eq!(id, 2);
        assert_eq!(files[0].text, "mine", "the user's file is untouched");
        assert_eq!((files[1].name.as_str(), files[1].text.as_str()), ("review (2)", "theirs"));
        // The same file arriving again is the one already there.
        assert_eq!(adopt(&mut files, "review", "theirs"), (2, false));
        assert_eq!(adopt(&mut files, "other", "mine"), (1, false));
        assert_eq!(files.len(), 2);
    }
}
