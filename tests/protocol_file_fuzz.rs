//! No protocol file can crash the loader: the built-in lesson, teams and
//! examples are damaged — lines deleted, duplicated and swapped, values
//! swapped between keys, values replaced by another type, the text cut at
//! any character, characters inserted — and loaded. The loader may accept
//! or refuse; it may not panic, and every refusal names a line of the file
//! (1 to the number of lines, or the line after the last for the end of
//! the text), a column from 1 and a sentence.
//!
//! A short pass runs with the suite (`FUZZ_CASES` per source file, 300
//! unless set; `FUZZ_SEED` picks another fixed seed):
//! `FUZZ_CASES=20000 cargo test --release --test protocol_file_fuzz` is the
//! long run.
#![cfg(not(target_arch = "wasm32"))]

use team_protocols::protocol::file::{self, builtin};

/// A small deterministic generator (xorshift64*), so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn env_number(key: &str, default: u64) -> u64 {
    std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const OTHER_VALUES: [&str; 12] =
    ["1", "-7", "true", "\"x\"", "[]", "{}", "[1, \"a\"]", "{ name = 3 }", "1.5", "\"\"", "\"Shutdown\"", "99999999999999999999"];

/// One damaged copy of `text`.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        return String::new();
    }
    let n = lines.len();
    match rng.below(8) {
        0 => {
            lines.remove(rng.below(n));
        }
        1 => {
            let i = rng.below(n);
            lines.insert(rng.below(n), lines[i].clone());
        }
        2 => lines.swap(rng.below(n), rng.below(n)),
        3 => {
            // Swap the values of two `key = value` lines.
            let with_value: Vec<usize> = (0..n).filter(|i| lines[*i].contains(" = ")).collect();
            if with_value.len() >= 2 {
                let (a, b) = (with_value[rng.below(with_value.len())], with_value[rng.below(with_value.len())]);
                let (ka, va) = lines[a].split_once(" = ").map(|(k, v)| (k.to_string(), v.to_string())).unwrap_or_default();
                let (kb, vb) = lines[b].split_once(" = ").map(|(k, v)| (k.to_string(), v.to_string())).unwrap_or_default();
                lines[a] = format!("{ka} = {vb}");
                lines[b] = format!("{kb} = {va}");
            }
        }
        4 => {
            // Flip a value's type.
            let with_value: Vec<usize> = (0..n).filter(|i| lines[*i].contains(" = ")).collect();
            if !with_value.is_empty() {
                let i = with_value[rng.below(with_value.len())];
                let key = lines[i].split_once(" = ").map(|(k, _)| k.to_string()).unwrap_or_default();
                lines[i] = format!("{key} = {}", OTHER_VALUES[rng.below(OTHER_VALUES.len())]);
            }
        }
        5 => {
            // Rename a key or a value's word inside a line.
            let i = rng.below(n);
            let words = ["name", "to", "from", "lead", "teammate", "shutdown", "plan", "gate", "exit", "format", "alice", "approved"];
            let (a, b) = (words[rng.below(words.len())], words[rng.below(words.len())]);
            lines[i] = lines[i].replacen(a, b, 1);
        }
        6 => {
            // Insert a character somewhere.
            let i = rng.below(n);
            let chars: Vec<char> = lines[i].chars().collect();
            let at = rng.below(chars.len() + 1);
            let c = ['"', '[', ']', '{', '}', '=', ',', '#', 'é', '\\', '\t', '0'][rng.below(12)];
            lines[i] = chars[..at].iter().chain(std::iter::once(&c)).chain(&chars[at..]).collect();
        }
        _ => {
            // Cut the text at a character.
            let joined = lines.join("\n");
            let cut = joined.char_indices().map(|(i, _)| i).nth(rng.below(joined.chars().count() + 1)).unwrap_or(joined.len());
            return joined[..cut].to_string();
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Loads `text`: no panic, and every refusal is placed inside it. True
/// when it loaded.
fn check(name: &str, text: &str) -> bool {
    let result = std::panic::catch_unwind(|| file::load(text));
    let Ok(result) = result else { panic!("the loader panicked on a damaged {name}:\n{text}") };
    let Err(refusals) = result else { return true };
    assert!(!refusals.0.is_empty(), "a refusal without a reason for {name}:\n{text}");
    let last_line = text.lines().count() + 1;
    for r in &refusals.0 {
        assert!((1..=last_line).contains(&r.line), "{name}: line {} of {last_line}: {r}\n{text}", r.line);
        assert!(r.column >= 1, "{name}: {r}");
        assert!(!r.error.to_string().trim().is_empty(), "{name}: {r}");
    }
    false
}

#[test]
fn damaged_built_in_and_example_files_never_panic_the_loader_and_every_refusal_names_a_line() {
    let cases = env_number("FUZZ_CASES", 300);
    let seed = env_number("FUZZ_SEED", 0x5EED_F11E);
    let sources = std::iter::once(("lesson", builtin::LESSON)).chain(builtin::TEAMS).chain(builtin::EXAMPLES);
    let (mut refused, mut loaded) = (0u64, 0u64);
    for (i, (name, text)) in sources.enumerate() {
        let mut rng = Rng(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for _ in 0..cases {
            let mut damaged = mutate(text, &mut rng);
            // Sometimes damage twice.
            if rng.below(3) == 0 {
                damaged = mutate(&damaged, &mut rng);
            }
            if check(name, &damaged) {
                loaded += 1;
            } else {
                refused += 1;
            }
        }
    }
    // The mutations must actually break files (else the test checks nothing).
    assert!(refused > loaded / 4, "refused {refused}, loaded {loaded}");
}
