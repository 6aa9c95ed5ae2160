//! The bytes an agent card's signature covers: the card's ProtoJSON without `signatures`, with empty
//! values dropped, in RFC 8785 form, exactly as the official Python SDK 1.3.0 computes them
//! (`a2a.utils.signing._canonicalize_agent_card`). The rules are listed in the module docs of
//! [`signing`](super).

use serde_json::{Map, Value};

use super::CanonicalizationError;
use super::jcs::{MAX_DEPTH, canonical_json, check_depth, member_segment};
use crate::v1::AgentCard;

/// The depth of each extension's `params` object inside a card: card 1, `capabilities` 2, `extensions`
/// 3, the extension 4, `params` 5.
const PARAMS_DEPTH: usize = 5;

/// Refuses the `params` of extension `index` when they nest beyond [`MAX_DEPTH`] in the card, before
/// the card is serialized (which recurses), or converted from another form (which clones them
/// recursively): [`canonicalize`] checks them itself, a caller converting first checks with this.
///
/// # Errors
///
/// [`CanonicalizationError::TooDeep`], naming the path inside the card.
pub fn check_params_depth(
    params: &Map<String, Value>,
    index: usize,
) -> Result<(), CanonicalizationError> {
    for (name, member) in params {
        check_free_form_depth(member, PARAMS_DEPTH + 1).map_err(|e| {
            e.within(&member_segment(name))
                .within(".params")
                .within(&format!("[{index}]"))
                .within(".extensions")
                .within(".capabilities")
        })?;
    }
    Ok(())
}

/// The canonical bytes of a v1 agent card, the JWS payload of its signatures (A2A §8.4.1).
///
/// # Errors
///
/// [`CanonicalizationError::TooDeep`] when an extension's `params` nest deeper than the card-wide limit
/// of [`MAX_DEPTH`](super::MAX_DEPTH) containers, naming the path.
///
/// ```
/// use a2a_types::v1::{AgentCapabilities, AgentCard};
///
/// let card = AgentCard {
///     name: "Example Agent".into(),
///     description: String::new(),
///     capabilities: AgentCapabilities { streaming: Some(false), push_notifications: Some(false), ..Default::default() },
///     ..Default::default()
/// };
/// assert_eq!(
///     a2a_types::signing::canonicalize(&card)?,
///     br#"{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}"#
/// );
/// # Ok::<(), a2a_types::signing::CanonicalizationError>(())
/// ```
pub fn canonicalize(card: &AgentCard) -> Result<Vec<u8>, CanonicalizationError> {
    for (index, extension) in card.capabilities.extensions.iter().enumerate() {
        if let Some(params) = &extension.params {
            check_params_depth(params, index)?;
        }
    }
    let json =
        serde_json::to_value(card).map_err(|e| CanonicalizationError::Json(e.to_string()))?;
    canonicalize_card_json(json)
}

/// The card rules after the JSON form: `signatures` removed, empty values dropped, RFC 8785.
fn canonicalize_card_json(mut json: Value) -> Result<Vec<u8>, CanonicalizationError> {
    if let Value::Object(members) = &mut json {
        members.remove("signatures");
    }
    // A card with nothing left is `null`, as the SDK writes it (its cleaner returns `None`).
    let cleaned = drop_empty(json, 1)?.unwrap_or(Value::Null);
    Ok(canonical_json(&cleaned)?.into_bytes())
}

/// Checks, without recursion, that no container inside `value` (which sits at depth `depth` of the
/// card) is deeper than [`MAX_DEPTH`]: serializing a card recurses, so a value built in code with a
/// hostile depth is refused before it is walked.
fn check_free_form_depth(value: &Value, depth: usize) -> Result<(), CanonicalizationError> {
    let mut pending: Vec<(&Value, usize)> = vec![(value, depth)];
    while let Some((value, depth)) = pending.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(members) => Box::new(members.values()),
            _ => continue,
        };
        if depth > MAX_DEPTH {
            return Err(CanonicalizationError::TooDeep {
                path: String::new(),
                max_depth: MAX_DEPTH,
            });
        }
        pending.extend(children.map(|child| (child, depth + 1)));
    }
    Ok(())
}

/// The SDK's `_clean_empty`: drops empty strings, `null`, and arrays and objects that are empty once
/// their own members are dropped, at every level (inside `params` too); `false` and `0` stay. `None`
/// when `value` itself is dropped.
fn drop_empty(value: Value, depth: usize) -> Result<Option<Value>, CanonicalizationError> {
    Ok(match value {
        Value::Null => None,
        Value::String(text) if text.is_empty() => None,
        Value::Array(items) => {
            check_depth(depth)?;
            let mut kept = Vec::with_capacity(items.len());
            for (index, item) in items.into_iter().enumerate() {
                let item =
                    drop_empty(item, depth + 1).map_err(|e| e.within(&format!("[{index}]")))?;
                kept.extend(item);
            }
            (!kept.is_empty()).then_some(Value::Array(kept))
        }
        Value::Object(members) => {
            check_depth(depth)?;
            let mut kept = Map::new();
            for (name, member) in members {
                let member =
                    drop_empty(member, depth + 1).map_err(|e| e.within(&member_segment(&name)))?;
                if let Some(member) = member {
                    kept.insert(name, member);
                }
            }
            (!kept.is_empty()).then_some(Value::Object(kept))
        }
        other => Some(other),
    })
}

#[cfg(test)]
#[allow(clippy::needless_update)]
mod tests {
    use super::*;
    use crate::v1::{AgentCapabilities, AgentCardSignature, AgentExtension};
    use serde_json::json;

    #[test]
    fn the_spec_example_drops_what_the_sdk_drops() {
        // A2A §8.4.1's example keeps `"description": ""` and `"skills": []` as REQUIRED fields; the
        // Python SDK drops every empty value, REQUIRED or not, and we follow the SDK.
        let card: AgentCard = serde_json::from_value(json!({
            "name": "Example Agent",
            "description": "",
            "capabilities": {"streaming": false, "pushNotifications": false, "extensions": []},
            "skills": []
        }))
        .unwrap();
        assert_eq!(
            String::from_utf8(canonicalize(&card).unwrap()).unwrap(),
            r#"{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}"#
        );
    }

    #[test]
    fn signatures_and_empty_params_members_are_left_out() {
        let card = AgentCard {
            name: "n".into(),
            capabilities: AgentCapabilities {
                extensions: vec![AgentExtension {
                    uri: Some("urn:x".into()),
                    params: Some(
                        json!({"a": "", "b": null, "c": [null, "", {}, [], 0, false], "d": {"e": {}}})
                            .as_object()
                            .unwrap()
                            .clone(),
                    ),
                    ..Default::default()
                }],
                ..Default::default()
            },
            signatures: vec![AgentCardSignature {
                protected: "p".into(),
                signature: "s".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(
            String::from_utf8(canonicalize(&card).unwrap()).unwrap(),
            r#"{"capabilities":{"extensions":[{"params":{"c":[0,false]},"uri":"urn:x"}]},"name":"n"}"#
        );
        assert_eq!(canonicalize(&AgentCard::default()).unwrap(), b"null");
    }

    #[test]
    fn deep_params_are_refused_with_their_path_and_no_recursion() {
        let mut params = json!(1);
        for _ in 0..100_000 {
            params = Value::Array(vec![params]);
        }
        let card = AgentCard {
            capabilities: AgentCapabilities {
                extensions: vec![AgentExtension {
                    params: Some(Map::from_iter([("deep".to_owned(), params)])),
                    ..Default::default()
                }],
                ..Default::default()
            },
            ..Default::default()
        };
        let error = canonicalize(&card).unwrap_err();
        assert_eq!(
            error.to_string(),
            "at `capabilities.extensions[0].params.deep`: nesting exceeds the maximum depth of 128"
        );
        // Dropping a value this deep recurses in serde_json; leak it rather than overflow the stack.
        std::mem::forget(card);
    }
}
