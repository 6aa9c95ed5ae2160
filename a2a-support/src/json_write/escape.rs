//! JSON string escaping, eight bytes at a time: the same bytes `serde_json` writes (`\"`, `\\`, the
//! short escapes `\b \f \n \r \t`, `\u00xx` with lowercase hex for the other control characters,
//! everything else as it is), without looking at every byte of the long clean runs that most text is.

/// What each byte is written as: 0 for itself, `u` for `\u00xx`, any other letter for `\` and it.
const ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

/// The byte `byte` repeated in every lane of a word.
const fn lanes(byte: u8) -> u64 {
    0x0101_0101_0101_0101 * byte as u64
}

/// Whether any of the eight bytes of `word` needs escaping: a control character (below 0x20), a
/// quote or a backslash. The classic "has a byte below n" and "has a zero byte" tests: exact as a
/// yes/no answer (bytes of 0x80 and above, UTF-8, never match).
fn needs_escape(word: u64) -> bool {
    const HIGH_BITS: u64 = lanes(0x80);
    let below_space = word.wrapping_sub(lanes(0x20)) & !word;
    let quote = word ^ lanes(b'"');
    let quote = quote.wrapping_sub(lanes(1)) & !quote;
    let backslash = word ^ lanes(b'\\');
    let backslash = backslash.wrapping_sub(lanes(1)) & !backslash;
    (below_space | quote | backslash) & HIGH_BITS != 0
}

/// Appends `text` to `out` as a JSON string, quotes included.
pub(crate) fn write_escaped(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // `clean_from` is where the run of bytes not yet copied (none needing escape) starts.
    let mut clean_from = 0;
    let mut at = 0;
    while at < bytes.len() {
        if let Some(word) = bytes[at..].first_chunk::<8>()
            && !needs_escape(u64::from_le_bytes(*word))
        {
            at += 8;
            continue;
        }
        let byte = bytes[at];
        let escape = ESCAPE[byte as usize];
        if escape != 0 {
            out.extend_from_slice(&bytes[clean_from..at]);
            if escape == b'u' {
                out.extend_from_slice(b"\\u00");
                out.push(HEX_DIGITS[usize::from(byte >> 4)]);
                out.push(HEX_DIGITS[usize::from(byte & 0xf)]);
            } else {
                out.extend_from_slice(&[b'\\', escape]);
            }
            clean_from = at + 1;
        }
        at += 1;
    }
    out.extend_from_slice(&bytes[clean_from..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str) -> String {
        let mut out = Vec::new();
        write_escaped(&mut out, text);
        String::from_utf8(out).expect("escaping keeps UTF-8")
    }

    /// Every character below 0x80, alone and at every offset of a word, and inside runs of clean text
    /// long enough to take the word-at-a-time path: byte for byte what serde_json writes.
    #[test]
    fn every_ascii_character_is_escaped_as_serde_json_does() {
        for byte in 0u8..0x80 {
            let c = char::from(byte);
            for before in 0..17 {
                for after in [0, 1, 7, 8, 9] {
                    let text = format!("{}{c}{}", "a".repeat(before), "é".repeat(after));
                    assert_eq!(
                        escaped(&text),
                        serde_json::to_string(&text).unwrap(),
                        "{text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn mixed_text_is_escaped_as_serde_json_does() {
        let samples = [
            "",
            "plain words, long enough for several words of eight bytes",
            "quote \" and backslash \\ and newline \n and tab \t",
            "\u{0}\u{1}\u{1f}\u{7f}\u{80}\u{ff}\u{2028}\u{2029}😀",
            "\"\"\"\"\"\"\"\"\\\\\\\\\\\\\\\\\n\n\n\n\n\n\n\n",
            "ünïcödé ëvérÿwhérè, then \r\n and \u{8}\u{c}",
        ];
        for text in samples {
            assert_eq!(
                escaped(text),
                serde_json::to_string(text).unwrap(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_word_test_matches_the_byte_table() {
        for byte in 0u8..=255 {
            for lane in 0..8 {
                let mut word = [b'a'; 8];
                word[lane] = byte;
                assert_eq!(
                    needs_escape(u64::from_le_bytes(word)),
                    ESCAPE[byte as usize] != 0,
                    "byte {byte:#x} in lane {lane}"
                );
            }
        }
    }
}
