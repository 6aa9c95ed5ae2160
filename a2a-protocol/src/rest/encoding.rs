//! Percent-encoding of paths and query strings, proto and ProtoJSON field names, and the query
//! string read into the request's fields.

use std::collections::BTreeMap;

use serde_json::Value;

use super::error::RouteError;
use super::node::{Node, json_leaf};

/// Percent-encodes everything but the unreserved characters (and `/` when `keep_slash`).
pub(super) fn encode(text: &str, keep_slash: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'_' | b'.' | b'~')
            || (keep_slash && byte == b'/')
        {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Percent-decodes; `None` for a broken escape or bytes that are not UTF-8. For a multi-segment
/// variable `%2F` stays encoded, as `google.api.http` prescribes.
pub(super) fn decode(text: &str, keep_slash_escape: bool) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            let byte = u8::from_str_radix(hex, 16).ok()?;
            if keep_slash_escape && byte == b'/' {
                out.extend_from_slice(&bytes[at..at + 3]);
            } else {
                out.push(byte);
            }
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The query's key/value pairs, decoded (`+` is a space).
pub(super) fn parse_query(query: &str) -> Result<Vec<(String, String)>, RouteError> {
    let mut pairs = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(&key.replace('+', " "), false)
            .ok_or_else(|| RouteError::field(key, "not a percent-encoded UTF-8 query key"))?;
        let value = decode(&value.replace('+', " "), false)
            .ok_or_else(|| RouteError::field(&key, "not a percent-encoded UTF-8 query value"))?;
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// The ProtoJSON name of a proto field name (`task_id` is `taskId`); a ProtoJSON name is unchanged.
pub(super) fn json_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Adds one query value under its dotted key; repeated keys gather into a list.
pub(super) fn insert_query_value(
    fields: &mut BTreeMap<String, Node>,
    names: &[&str],
    value: String,
    key: &str,
) -> Result<(), RouteError> {
    let conflict = || RouteError::field(key, "a field cannot be both a value and a message");
    match names {
        [] => Ok(()),
        ["", ..] => Err(RouteError::field(key, "empty field name")),
        [name] => match fields
            .entry((*name).to_owned())
            .or_insert_with(|| Node::Text(Vec::new()))
        {
            Node::Text(values) => {
                values.push(value);
                Ok(())
            }
            _ => Err(conflict()),
        },
        [name, rest @ ..] => match fields
            .entry((*name).to_owned())
            .or_insert_with(|| Node::Object(BTreeMap::new()))
        {
            Node::Object(inner) => insert_query_value(inner, rest, value, key),
            _ => Err(conflict()),
        },
    }
}

/// Sets a field (ProtoJSON names), replacing it in either spelling: a path variable over the body.
pub(super) fn set_field(fields: &mut BTreeMap<String, Node>, names: &[&str], node: Node) {
    let Some((name, rest)) = names.split_first() else {
        return;
    };
    // The same field spelled as the proto does (`task_id`) is removed, so it cannot clash.
    let spellings: Vec<String> = fields
        .keys()
        .filter(|key| key.as_str() != *name && json_name(key) == *name)
        .cloned()
        .collect();
    let mut existing = None;
    for spelling in spellings {
        existing = fields.remove(&spelling);
    }
    if rest.is_empty() {
        fields.insert((*name).to_owned(), node);
        return;
    }
    let entry = fields
        .remove(*name)
        .or(existing)
        .unwrap_or(Node::Object(BTreeMap::new()));
    let mut inner = match entry {
        Node::Object(inner) => inner,
        Node::Json(Value::Object(object)) => object.into_iter().map(json_leaf).collect(),
        _ => BTreeMap::new(),
    };
    set_field(&mut inner, rest, node);
    fields.insert((*name).to_owned(), Node::Object(inner));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_coding_round_trips_and_rejects_broken_escapes() {
        let text = "t-1/ä ü:%?&=+#";
        assert_eq!(decode(&encode(text, false), false).as_deref(), Some(text));
        assert_eq!(encode("a/b c", true), "a/b%20c");
        assert_eq!(decode("%zz", false), None);
        assert_eq!(decode("%4", false), None);
        assert_eq!(decode("%FF", false), None);
        assert_eq!(json_name("task_id"), "taskId");
        assert_eq!(json_name("taskId"), "taskId");
    }
}
