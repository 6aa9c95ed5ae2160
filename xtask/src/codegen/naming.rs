//! Every name rule of the generators in one place: case conversions, the Rust names of generated types,
//! variants and functions, and how typify spells field idents. Generators call these and never build a
//! name by hand, so a rule changes in one place (with its tests here).

use anyhow::{Result, bail};

/// `TaskState` → `TASK_STATE` (the prefix protobuf style puts on enum values).
pub(crate) fn screaming_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// `INPUT_REQUIRED` or `input_required` → `InputRequired`: each word capitalised, the rest lowercased.
pub(crate) fn upper_camel(snake: &str) -> String {
    snake
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|word| {
            let lower = word.to_ascii_lowercase();
            let mut chars = lower.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// `push_notification_config` → `pushNotificationConfig` (protobuf's JSON name rule): words after the
/// first capitalised, nothing else changed.
pub(crate) fn lower_camel(snake: &str) -> String {
    let mut out = String::new();
    for (i, word) in snake.split('_').enumerate() {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            if i == 0 {
                out.push(first);
            } else {
                out.extend(first.to_uppercase());
            }
            out.push_str(chars.as_str());
        }
    }
    out
}

/// `AgentCard` → `agent_card`; a run of capitals stays one word (`APIKey` → `apikey`).
pub(crate) fn snake_case(upper_camel: &str) -> String {
    let mut name = String::new();
    for (i, c) in upper_camel.char_indices() {
        if c.is_uppercase() && i > 0 && !upper_camel[..i].ends_with(|p: char| p.is_uppercase()) {
            name.push('_');
        }
        name.push(c.to_ascii_lowercase());
    }
    name
}

/// `task` → `Task`: the first character uppercased, the rest unchanged.
pub(crate) fn upper_first(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// `JsonRpcErrorResponse` → `["Json", "Rpc", "Error", "Response"]`: a word starts at each capital.
pub(crate) fn camel_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for c in name.chars() {
        match words.last_mut() {
            Some(word) if !c.is_uppercase() => word.push(c),
            _ => words.push(c.to_string()),
        }
    }
    words
}

/// The Rust name of a oneof's enum: message name plus the oneof name in upper camel case, the rest of
/// each word kept (`Part` + `content` → `PartContent`).
pub(crate) fn oneof_type_name(message: &str, oneof: &str) -> String {
    let mut name = message.to_owned();
    for word in oneof.split('_') {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            name.extend(first.to_uppercase());
            name.push_str(chars.as_str());
        }
    }
    name
}

/// The variant of a oneof member (`rehearsal_ref` → `RehearsalRef`).
pub(crate) fn oneof_variant_name(member: &str) -> String {
    upper_camel(member)
}

/// The variant of an open enum's value: without the enum's prefix, in upper camel case
/// (`TASK_STATE_INPUT_REQUIRED` of `TaskState` → `InputRequired`).
pub(crate) fn enum_variant_name(enum_name: &str, value_name: &str) -> String {
    let prefix = format!("{}_", screaming_snake(enum_name));
    let bare = value_name.strip_prefix(&prefix).unwrap_or(value_name);
    upper_camel(bare)
}

/// The `UNSPECIFIED` value every proto enum starts with (`TaskState` → `TASK_STATE_UNSPECIFIED`).
pub(crate) fn enum_unspecified_value(enum_name: &str) -> String {
    format!("{}_UNSPECIFIED", screaming_snake(enum_name))
}

/// The function returning a type's proptest strategy (`AgentCard` → `agent_card`).
pub(crate) fn strategy_function(rust_type: &str) -> String {
    snake_case(rust_type)
}

/// The protobuf field (or oneof) name of a struct field ident typify wrote: typify escapes Rust keywords
/// as raw idents (`r#type`) or with a trailing underscore (`type_`).
pub(crate) fn field_name_of_ident(ident: &str) -> &str {
    ident.trim_start_matches("r#").trim_end_matches('_')
}

/// Field names that are Rust keywords are spelled differently by typify (`type_`) and prost (`r#type`);
/// the conversions between the two refuse them until one appears in A2A.
pub(crate) fn checked_field_ident(name: &str) -> Result<&str> {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else",
        "enum", "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match",
        "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
        "true", "type", "unsafe", "use", "where", "while", "yield",
    ];
    if KEYWORDS.contains(&name) {
        bail!("field `{name}` is a Rust keyword, which the conversions do not support yet");
    }
    Ok(name)
}

/// The Rust name of a v0.3 JSON Schema definition: acronyms in Rust's camel case (`JSONRPCError` →
/// `JsonRpcError`, `APIKeySecurityScheme` → `ApiKeySecurityScheme`).
pub(crate) fn v0_3_type_name(definition: &str) -> String {
    const ACRONYMS: &[(&str, &str)] = &[
        ("JSONRPC", "JsonRpc"),
        ("JSON", "Json"),
        ("A2A", "A2a"),
        ("API", "Api"),
        ("HTTP", "Http"),
        ("TLS", "Tls"),
    ];
    let mut name = definition.to_owned();
    for (acronym, word) in ACRONYMS {
        name = name.replace(acronym, word);
    }
    name
}

/// The marker type of a v0.3 `const` property: `JsonRpcVersion` for every `jsonrpc`, otherwise owner
/// plus property (`TaskStatusUpdateEvent` + `kind` → `TaskStatusUpdateEventKind`).
pub(crate) fn v0_3_marker_name(owner: &str, property: &str) -> String {
    if property == "jsonrpc" {
        "JsonRpcVersion".to_owned()
    } else {
        format!("{owner}{}", upper_first(property))
    }
}

/// Variant idents of a v0.3 union: the wrapped types' names without the words they all share
/// (`TextPart`, `FilePart` → `Text`, `File`); a JSON-RPC response's are `Error` and `Success` (or the
/// method's name when there are several successes).
pub(crate) fn v0_3_union_variant_names(types: &[String]) -> Vec<String> {
    let error_response = "JsonRpcErrorResponse";
    if types.iter().any(|t| t == error_response) {
        let successes = types.len() - 1;
        return types
            .iter()
            .map(|t| {
                if t == error_response {
                    "Error".to_owned()
                } else if successes == 1 {
                    "Success".to_owned()
                } else {
                    t.trim_end_matches("SuccessResponse").to_owned()
                }
            })
            .collect();
    }
    let words: Vec<Vec<String>> = types.iter().map(|t| camel_words(t)).collect();
    let shortest = words.iter().map(Vec::len).min().unwrap_or(0);
    let common_prefix = (0..shortest)
        .take_while(|&i| words.iter().all(|w| w[i] == words[0][i]))
        .count();
    let common_suffix = (0..shortest)
        .take_while(|&i| {
            words
                .iter()
                .all(|w| w[w.len() - 1 - i] == words[0][words[0].len() - 1 - i])
        })
        .count();
    words
        .iter()
        .map(|w| {
            let end = w.len() - common_suffix;
            if common_prefix >= end {
                w.concat()
            } else {
                w[common_prefix..end].concat()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn case_conversions() {
        assert_eq!(screaming_snake("TaskState"), "TASK_STATE");
        assert_eq!(screaming_snake("Role"), "ROLE");
        assert_eq!(upper_camel("INPUT_REQUIRED"), "InputRequired");
        assert_eq!(
            upper_camel("push_notification_config"),
            "PushNotificationConfig"
        );
        assert_eq!(upper_camel("a__b_"), "AB");
        assert_eq!(
            lower_camel("push_notification_config"),
            "pushNotificationConfig"
        );
        assert_eq!(lower_camel("content"), "content");
        assert_eq!(snake_case("AgentCard"), "agent_card");
        assert_eq!(snake_case("APIKeySecurityScheme"), "apikey_security_scheme");
        assert_eq!(upper_first("kind"), "Kind");
        assert_eq!(upper_first(""), "");
        assert_eq!(
            camel_words("JsonRpcErrorResponse"),
            strings(&["Json", "Rpc", "Error", "Response"])
        );
    }

    #[test]
    fn generated_type_and_variant_names() {
        assert_eq!(oneof_type_name("Part", "content"), "PartContent");
        // Only first letters change: a oneof named in mixed case keeps the rest.
        assert_eq!(
            oneof_type_name("SecurityScheme", "scheme_oAuth"),
            "SecuritySchemeSchemeOAuth"
        );
        assert_eq!(oneof_variant_name("rehearsal_ref"), "RehearsalRef");
        assert_eq!(
            enum_variant_name("TaskState", "TASK_STATE_INPUT_REQUIRED"),
            "InputRequired"
        );
        // A value without the enum's prefix is converted whole.
        assert_eq!(enum_variant_name("TaskState", "OTHER_VALUE"), "OtherValue");
        assert_eq!(enum_unspecified_value("Role"), "ROLE_UNSPECIFIED");
        assert_eq!(
            strategy_function("TaskStatusUpdateEvent"),
            "task_status_update_event"
        );
    }

    #[test]
    fn field_idents() {
        assert_eq!(field_name_of_ident("r#type"), "type");
        assert_eq!(field_name_of_ident("type_"), "type");
        assert_eq!(field_name_of_ident("context_id"), "context_id");
        assert_eq!(checked_field_ident("context_id").unwrap(), "context_id");
        assert!(checked_field_ident("type").is_err());
    }

    #[test]
    fn v0_3_names() {
        assert_eq!(
            v0_3_type_name("JSONRPCErrorResponse"),
            "JsonRpcErrorResponse"
        );
        assert_eq!(
            v0_3_type_name("APIKeySecurityScheme"),
            "ApiKeySecurityScheme"
        );
        assert_eq!(v0_3_type_name("A2AError"), "A2aError");
        assert_eq!(v0_3_marker_name("Task", "kind"), "TaskKind");
        assert_eq!(
            v0_3_marker_name("SendMessageRequest", "jsonrpc"),
            "JsonRpcVersion"
        );
        assert_eq!(
            v0_3_union_variant_names(&strings(&["TextPart", "FilePart", "DataPart"])),
            strings(&["Text", "File", "Data"])
        );
        assert_eq!(
            v0_3_union_variant_names(&strings(&[
                "JsonRpcErrorResponse",
                "GetTaskSuccessResponse"
            ])),
            strings(&["Error", "Success"])
        );
        assert_eq!(
            v0_3_union_variant_names(&strings(&[
                "JsonRpcErrorResponse",
                "SendMessageSuccessResponse",
                "GetTaskSuccessResponse"
            ])),
            strings(&["Error", "SendMessage", "GetTask"])
        );
        // Names that are nothing but the shared words are kept whole.
        assert_eq!(
            v0_3_union_variant_names(&strings(&["Task", "Task"])),
            strings(&["Task", "Task"])
        );
    }
}
