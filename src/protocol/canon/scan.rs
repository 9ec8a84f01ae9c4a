//! Reading a text for what `Canon::hash_text` rewrites in it, without
//! looking at every byte where it can help: the request ids (runs of eight
//! lowercase hex characters: `hex_run` probes one byte in eight), the
//! timestamps (`find_quote` tests eight bytes at a time) and the hex
//! windows a remembered hash is keyed by (`id_windows`).
//!
//! Owns the byte-level scanning only: what is rewritten, and how it is
//! hashed, is the canon's. It must not hash anything.

pub(super) const TIMESTAMP: &str = "\"timestamp\":";

pub(super) const NOT_HEX: u8 = 0xFF;

/// Each byte's value as a lowercase hex digit, or `NOT_HEX`.
pub(super) const HEX_DIGIT: [u8; 256] = {
    let mut table = [NOT_HEX; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            _ => NOT_HEX,
        };
        b += 1;
    }
    table
};

/// The value of eight lowercase hex digits at the start of `bytes`.
pub(super) fn hex8(bytes: &[u8]) -> Option<u32> {
    let window = bytes.get(..8)?;
    let mut v = 0u32;
    for &b in window {
        let d = HEX_DIGIT[usize::from(b)];
        if d == NOT_HEX {
            return None;
        }
        v = (v << 4) | u32::from(d);
    }
    Some(v)
}

/// The length of the `"timestamp": <digits>` that `rest` begins with.
pub(super) fn stamp_len(rest: &[u8]) -> usize {
    let after = &rest[TIMESTAMP.len()..];
    let spaces = after.iter().take_while(|c| **c == b' ').count();
    let digits = after[spaces..].iter().take_while(|c| c.is_ascii_digit()).count();
    TIMESTAMP.len() + spaces + digits
}

/// Every run of eight lowercase hex characters in `text` (overlapping
/// ones too), as values, pushed onto `out`: the only places a request id
/// can be matched in the text (`Canon::hash_text`).
pub fn id_windows(text: &str, out: &mut Vec<u32>) {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some((start, end)) = hex_run(bytes, from) {
        // The value of the last eight digits rolls along the run.
        let mut value = 0u32;
        for (k, &b) in bytes[start..end].iter().enumerate() {
            value = (value << 4) | u32::from(HEX_DIGIT[usize::from(b)]);
            if k >= 7 {
                out.push(value);
            }
        }
        from = end;
    }
}

/// The first run of eight or more lowercase hex characters that begins at
/// `from` or later, as `(start, end)`: the only places a request id can be.
/// Such a run covers one of every eight positions, so only the bytes at
/// `from + 7`, `from + 15`, ... are read until one is a hex digit; then
/// its run is measured both ways.
pub(super) fn hex_run(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    let is_hex = |k: usize| HEX_DIGIT[usize::from(bytes[k])] != NOT_HEX;
    let mut probe = from + 7;
    while probe < bytes.len() {
        if !is_hex(probe) {
            probe += 8;
            continue;
        }
        let mut start = probe;
        while start > from && is_hex(start - 1) {
            start -= 1;
        }
        let mut end = probe + 1;
        while end < bytes.len() && is_hex(end) {
            end += 1;
        }
        if end - start >= 8 {
            return Some((start, end));
        }
        // A run after this one begins past `end`, a non-hex byte.
        probe = end + 8;
    }
    None
}

/// The first `"` at `from` or later, eight bytes tested at a time.
pub(super) fn find_quote(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const QUOTES: u64 = 0x2222_2222_2222_2222;
    let mut i = from;
    for chunk in bytes.get(from..).unwrap_or_default().chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ QUOTES;
        // The lowest byte of x that is zero sets the lowest flag (higher
        // flags can be false, the lowest never is).
        let zero = x.wrapping_sub(ONES) & !x & HIGH;
        if zero != 0 {
            return Some(i + (zero.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    bytes[i.min(bytes.len())..].iter().position(|&b| b == b'"').map(|k| i + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_windows_of_a_text_are_its_runs_of_eight_lowercase_hex_characters() {
        let mut out = Vec::new();
        id_windows("id 4607cc28, not 4607CC28 nor 4607cc2; 0badf00d1", &mut out);
        assert_eq!(out, [0x4607_cc28, 0x0bad_f00d, 0xbadf_00d1]);
    }

    #[test]
    fn the_id_windows_are_every_eight_hex_characters_in_a_row() {
        for seed in 0..3000 {
            let text = super::super::tests::pattern_soup(seed, &["4607cc28", "0badf00d"]);
            let mut found = Vec::new();
            id_windows(&text, &mut found);
            let every: Vec<u32> = (0..text.len().saturating_sub(7)).filter_map(|k| hex8(&text.as_bytes()[k..])).collect();
            assert_eq!(found, every, "{text:?}");
        }
    }
}
