//! The mutator: byte edits, JSON tokens and protobuf-shaped bytes, and splices of two corpus inputs.

/// Tokens that tend to reach new code in JSON readers.
const JSON_TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"null",
    b"true",
    b"false",
    b"0",
    b"-0",
    b"1e999",
    b"-1e-400",
    b"9007199254740993",
    b"1.5",
    b"\"\\ud800\"",
    b"\"\\u0000\"",
    b"\"NaN\"",
    b"\"Infinity\"",
    b"\"2026-03-14T09:26:53Z\"",
    b"\"9999-12-31T23:59:60Z\"",
    b"\"AAAA\"",
    b"\"kind\"",
    b"\"data\"",
    b"\"metadata\"",
    b"\"text\"",
    b"\"raw\"",
    b"\"url\"",
    b"\"method\"",
    b"\"TASK_STATE_WORKING\"",
    b"\"ROLE_USER\"",
    b"{\"a\":{\"a\":{\"a\":{}}}}",
    b"[[[[[[[[]]]]]]]]",
    b"\xff",
    b"\xc3\xa9",
    b"\n",
    b"\r\n",
    b"data: ",
    b"event: ",
    b"id: ",
    b"retry: ",
    b"/tasks/",
    b"?historyLength=",
    b"%2F",
    b":cancel",
];

/// One mutated copy of `base`; `other` is another corpus input to splice from.
pub fn mutate(rng: &mut fastrand::Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
    let mut input = base.to_vec();
    for _ in 0..rng.usize(1..=4) {
        let at = rng.usize(..=input.len());
        match rng.u8(..9) {
            0 if !input.is_empty() => {
                let i = rng.usize(..input.len());
                input[i] ^= 1 << rng.u8(..8);
            }
            1 if !input.is_empty() => {
                let i = rng.usize(..input.len());
                input[i] = rng.u8(..);
            }
            2 if !input.is_empty() => {
                let end = (at + rng.usize(1..=16)).min(input.len());
                input.drain(at.min(end)..end);
            }
            3 => {
                let token = JSON_TOKENS[rng.usize(..JSON_TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
            4 if !other.is_empty() => {
                let from = rng.usize(..other.len());
                let end = (from + rng.usize(1..=64)).min(other.len());
                input.splice(at..at, other[from..end].iter().copied());
            }
            5 if !input.is_empty() => {
                // Repeat a slice: long runs, deep nesting, many elements.
                let end = (at + rng.usize(1..=8)).min(input.len());
                let chunk = input[at.min(end)..end].to_vec();
                for _ in 0..rng.usize(1..=64) {
                    input.splice(at..at, chunk.iter().copied());
                }
            }
            6 => {
                // A protobuf key and a varint, length-prefix-shaped.
                let field = rng.u8(1..16);
                let wire = rng.u8(..6);
                let mut bytes = vec![(field << 3) | wire];
                let mut value = if rng.bool() {
                    rng.u64(..128)
                } else {
                    rng.u64(..)
                };
                loop {
                    let byte = (value & 0x7f) as u8;
                    value >>= 7;
                    if value == 0 {
                        bytes.push(byte);
                        break;
                    }
                    bytes.push(byte | 0x80);
                }
                input.splice(at..at, bytes);
            }
            7 if !input.is_empty() && !other.is_empty() => {
                // Crossover: the head of one and the tail of the other.
                let cut = rng.usize(..other.len());
                input.truncate(at);
                input.extend_from_slice(&other[cut..]);
            }
            _ => {
                if !input.is_empty() {
                    let i = rng.usize(..input.len());
                    input[i] = input[i].wrapping_add(if rng.bool() { 1 } else { 255 });
                }
            }
        }
    }
    input
}
