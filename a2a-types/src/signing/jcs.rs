//! RFC 8785, the JSON Canonicalization Scheme (JCS): the one text of a JSON value that every conforming
//! implementation writes, which is what a signature over JSON has to cover.
//!
//! The rules, all from the RFC:
//! - no whitespace between tokens;
//! - object members sorted by their names compared as sequences of UTF-16 code units (not code points:
//!   the two orders differ for names holding characters beyond U+FFFF, whose surrogates sort below
//!   U+E000..U+FFFF);
//! - strings as UTF-8, escaping only `"`, `\` and the controls below U+0020 (`\b`, `\t`, `\n`, `\f`, `\r`
//!   in short form, the rest as `\u00xx` in lower case); `/`, U+007F and everything else literal;
//! - every number an IEEE 754 double written as ECMAScript's `Number.prototype.toString` writes it
//!   (ECMA-262 `Number::toString`): shortest round-trip digits, `1e+21` and `1e-7` at the edges of
//!   positional notation, `-0` as `0`. An integer beyond 2^53 is first rounded to the nearest double,
//!   as a JSON number is one (`9007199254740993` is written `9007199254740992`).
//!
//! Why our own writer rather than a crate: the maintained RFC 8785 crates (`serde_json_canonicalizer`
//! 0.4, `serde_jcs` 0.2) write integers held as `u64`/`i64` digit for digit, so
//! `9007199254740993` stays as is, while RFC 8785 and the official Python SDK (whose card numbers are
//! protobuf doubles) write the double; neither bounds nesting. Both use `ryu-js` for the hard part, the
//! ECMAScript number text, and so does this writer; the rest is a few lines.

use serde_json::{Map, Number, Value};

use super::CanonicalizationError;

/// The deepest nesting of objects and arrays accepted, the outermost container counting 1: the limit of
/// the official Python SDK (`a2a.utils._jcs.MAX_DEPTH`), so a card canonicalizes here exactly when it
/// does there. Nesting is under the sender's control through `AgentExtension.params`.
pub const MAX_DEPTH: usize = 128;

/// The RFC 8785 text of `value`.
///
/// # Errors
///
/// [`CanonicalizationError::TooDeep`] when objects and arrays nest deeper than [`MAX_DEPTH`] (the error
/// names the path of the first container too deep).
///
/// ```
/// use a2a_types::signing::canonical_json;
///
/// let value = serde_json::json!({"b": [1.0, -0.0, 1e21, 5e-324], "a": "é\u{1F600}\n", "\u{1F600}": 1, "\u{FB01}": 2});
/// assert_eq!(
///     canonical_json(&value).unwrap(),
///     "{\"a\":\"é\u{1F600}\\n\",\"b\":[1,0,1e+21,5e-324],\"\u{1F600}\":1,\"\u{FB01}\":2}"
/// );
/// ```
pub fn canonical_json(value: &Value) -> Result<String, CanonicalizationError> {
    let mut out = String::new();
    write_value(value, &mut out, 1)?;
    Ok(out)
}

fn write_value(value: &Value, out: &mut String, depth: usize) -> Result<(), CanonicalizationError> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => write_number(number, out)?,
        Value::String(text) => write_string(text, out),
        Value::Array(items) => {
            check_depth(depth)?;
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_value(item, out, depth + 1).map_err(|e| e.within(&format!("[{index}]")))?;
            }
            out.push(']');
        }
        Value::Object(members) => {
            check_depth(depth)?;
            write_object(members, out, depth)?;
        }
    }
    Ok(())
}

fn write_object(
    members: &Map<String, Value>,
    out: &mut String,
    depth: usize,
) -> Result<(), CanonicalizationError> {
    let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
    sorted.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
    out.push('{');
    for (index, (name, member)) in sorted.into_iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        write_string(name, out);
        out.push(':');
        write_value(member, out, depth + 1).map_err(|e| e.within(&member_segment(name)))?;
    }
    out.push('}');
    Ok(())
}

pub(super) fn check_depth(depth: usize) -> Result<(), CanonicalizationError> {
    if depth > MAX_DEPTH {
        return Err(CanonicalizationError::TooDeep {
            path: String::new(),
            max_depth: MAX_DEPTH,
        });
    }
    Ok(())
}

/// A path segment for an object member, `.name`, in the style of the crate's other error paths.
pub(super) fn member_segment(name: &str) -> String {
    format!(".{name}")
}

fn write_number(number: &Number, out: &mut String) -> Result<(), CanonicalizationError> {
    // Without serde_json's `arbitrary_precision` every number converts; an integer beyond 2^53 rounds to
    // the nearest double here (Rust's `as f64` rounds to nearest, ties to even, as Python's `float()`).
    let double = number
        .as_f64()
        .filter(|double| double.is_finite())
        .ok_or_else(|| CanonicalizationError::NotANumber {
            path: String::new(),
            text: number.to_string(),
        })?;
    if double == 0.0 {
        // ECMAScript writes both zeros as `0`.
        out.push('0');
    } else {
        out.push_str(ryu_js::Buffer::new().format_finite(double));
    }
    Ok(())
}

fn write_string(text: &str, out: &mut String) {
    out.push('"');
    let mut plain_from = 0;
    for (index, byte) in text.bytes().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x09 => "\\t",
            0x0a => "\\n",
            0x0c => "\\f",
            0x0d => "\\r",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[plain_from..index]);
        if escape.is_empty() {
            out.push_str(&format!("\\u{byte:04x}"));
        } else {
            out.push_str(escape);
        }
        plain_from = index + 1;
    }
    out.push_str(&text[plain_from..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn number_text(double: f64) -> String {
        canonical_json(&json!(double)).unwrap()
    }

    #[test]
    fn numbers_are_written_as_ecmascript_writes_them() {
        // Values from RFC 8785 appendix B and the edges of positional notation.
        let cases: [(f64, &str); 16] = [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-7, "1e-7"),
            (1e-6, "0.000001"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (9007199254740992.0, "9007199254740992"),
            (0.1, "0.1"),
            (333333333.3333333, "333333333.3333333"),
            (295147905179352830000.0, "295147905179352830000"),
            (4.35, "4.35"),
        ];
        for (double, text) in cases {
            assert_eq!(number_text(double), text, "{double:e}");
        }
        // Integers beyond 2^53 are doubles first.
        assert_eq!(
            canonical_json(&json!(9007199254740993u64)).unwrap(),
            "9007199254740992"
        );
        assert_eq!(
            canonical_json(&json!(-9007199254740993i64)).unwrap(),
            "-9007199254740992"
        );
    }

    #[test]
    fn strings_escape_only_what_the_rfc_requires() {
        let text = "\u{0}\u{1f}\u{7f}/\"\\\u{8}\u{9}\u{a}\u{c}\u{d}€\u{1D11E}";
        assert_eq!(
            canonical_json(&json!(text)).unwrap(),
            "\"\\u0000\\u001f\u{7f}/\\\"\\\\\\b\\t\\n\\f\\r€\u{1D11E}\""
        );
    }

    #[test]
    fn members_sort_by_utf16_code_units() {
        // RFC 8785 section 3.2.3's example names: code point order would put U+1F600 last.
        let value = json!({"\u{20ac}": 1, "\r": 2, "\u{fb33}": 3, "1": 4, "\u{1f600}": 5, "\u{80}": 6, "\u{f6}": 7});
        assert_eq!(
            canonical_json(&value).unwrap(),
            "{\"\\r\":2,\"1\":4,\"\u{80}\":6,\"\u{f6}\":7,\"\u{20ac}\":1,\"\u{1f600}\":5,\"\u{fb33}\":3}"
        );
    }

    #[test]
    fn nesting_is_bounded_and_the_error_names_the_path() {
        let mut value = json!(1);
        for _ in 0..MAX_DEPTH {
            value = json!([value]);
        }
        assert!(canonical_json(&value).is_ok());
        let too_deep = json!({"a": value});
        let error = canonical_json(&too_deep).unwrap_err();
        assert!(matches!(
            error,
            CanonicalizationError::TooDeep { max_depth: 128, .. }
        ));
        assert!(error.to_string().starts_with("at `a[0][0]"), "{error}");
    }
}
