//! Validation of every `lf.a2a.v1` message against the spec's REQUIRED fields: realistic valid payloads
//! pass, and removing any REQUIRED field from one is reported at that field's path; the JSON-RPC error has
//! the shape the official SDK sends.

use a2a_tests::fixture;
use a2a_types::registry::{A2aMessage, MessageVisitor};
use a2a_types::validate::Validate;
use prost_reflect::{DescriptorPool, MessageDescriptor};
use serde_json::{Value, json};

fn descriptor(full_name: &str) -> MessageDescriptor {
    DescriptorPool::decode(a2a_proto::v1::FILE_DESCRIPTOR_SET)
        .unwrap()
        .get_message_by_name(full_name)
        .unwrap()
}

/// REQUIRED fields of a message, as (JSON name, proto name), read from the published JSON Schema.
fn required_fields(full_name: &str) -> Vec<(String, String)> {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(a2a_tests::workspace_root().join("spec/v1/generated/a2a.json"))
            .unwrap(),
    )
    .unwrap();
    let name = full_name.trim_start_matches("lf.a2a.v1.");
    let message = descriptor(full_name);
    schema["$defs"][name]["required"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|json_name| {
            let json_name = json_name.as_str().unwrap().to_owned();
            let field = message
                .fields()
                .find(|f| f.json_name() == json_name)
                .unwrap();
            (json_name, field.name().to_owned())
        })
        .collect()
}

struct RequiredFieldChecks {
    checked: usize,
}

impl MessageVisitor for &mut RequiredFieldChecks {
    type Output = Result<(), String>;

    fn visit<M: A2aMessage>(self) -> Self::Output {
        let name = M::FULL_NAME;
        let text = fixture(&format!(
            "v1/{}.json",
            name.trim_start_matches("lf.a2a.v1.")
        ));
        let valid: M = serde_json::from_str(&text).unwrap();
        if let Err(violations) = valid.validate() {
            return Err(format!(
                "{name}: the fixture is reported invalid: {violations}"
            ));
        }
        let document: Value = serde_json::from_str(&text).unwrap();
        for (json_name, proto_name) in required_fields(name) {
            let mut broken = document.clone();
            if broken.as_object_mut().unwrap().remove(&json_name).is_none() {
                return Err(format!("{name}: the fixture lacks REQUIRED `{json_name}`"));
            }
            let message: M = serde_json::from_value(broken)
                .map_err(|e| format!("{name} without {json_name}: {e}"))?;
            let reported: Vec<String> = match message.validate() {
                Ok(()) => Vec::new(),
                Err(violations) => violations.iter().map(|v| v.field.clone()).collect(),
            };
            // A REQUIRED message whose own fields are all optional (AgentCard.capabilities) reads back as
            // its valid default: a2a-types cannot tell it was absent (documented in `validate`).
            let undetectable = name == "lf.a2a.v1.AgentCard" && proto_name == "capabilities";
            if undetectable {
                continue;
            }
            if !reported.contains(&proto_name) {
                return Err(format!(
                    "{name} without `{json_name}`: expected a violation at `{proto_name}`, got {reported:?}"
                ));
            }
            self.checked += 1;
        }
        Ok(())
    }
}

#[test]
fn every_message_reports_each_missing_required_field() {
    let mut checks = RequiredFieldChecks { checked: 0 };
    let mut failures = Vec::new();
    for name in a2a_types::v1::MESSAGE_NAMES {
        if let Err(failure) = a2a_types::v1::visit_message(name, &mut checks).unwrap() {
            failures.push(failure);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        checks.checked >= 50,
        "only {} REQUIRED fields were exercised",
        checks.checked
    );
}

#[test]
fn nested_violations_carry_their_path_and_all_are_reported_at_once() {
    let card: a2a_types::v1::AgentCard = serde_json::from_value(json!({
        "name": "Wayfarer",
        "description": "",
        "version": "1.0.0",
        "supportedInterfaces": [{"url": "https://agents.example.com/a2a", "protocolBinding": "JSONRPC"}],
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "skills": [{"id": "book-hotel", "name": "Book a hotel", "description": "Books rooms", "tags": []}],
        "securitySchemes": {"oauth": {"oauth2SecurityScheme": {"description": "OAuth"}}}
    }))
    .unwrap();
    let fields: Vec<String> = card
        .validate()
        .unwrap_err()
        .iter()
        .map(|v| v.field.clone())
        .collect();
    assert_eq!(
        fields,
        [
            "description",
            "supported_interfaces[0].protocol_version",
            "security_schemes[oauth].oauth2_security_scheme.flows",
            "default_output_modes",
            "skills[0].tags",
        ]
    );

    let stream: a2a_types::v1::StreamResponse = serde_json::from_value(json!({
        "statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{}]}}}
    }))
    .unwrap();
    let violations = stream.validate().unwrap_err();
    let pairs: Vec<(&str, &str)> = violations
        .iter()
        .map(|v| (v.field.as_str(), v.description.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("status_update.status.state", "Field is required."),
            (
                "status_update.status.message.parts[0].content",
                "Exactly one of text, raw, url, data must be set."
            ),
        ]
    );
}

/// The error object matches what `a2a-sdk` 1.3.0 sends for the same request: recorded from
/// `build_error_details(InvalidParamsError)` after `validate_proto_required_fields` on
/// `SendMessageRequest{message{parts: [{text: "hi"}]}}` (the SDK checks no oneofs, so this request has
/// only REQUIRED-field violations, where both agree).
#[test]
fn the_jsonrpc_error_has_the_official_sdks_shape() {
    let request: a2a_types::v1::SendMessageRequest =
        serde_json::from_value(json!({"message": {"parts": [{"text": "hi"}]}})).unwrap();
    let sdk = json!({
        "code": -32602,
        "message": "Validation failed",
        "data": [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INVALID_PARAMS", "domain": "a2a-protocol.org",
             "metadata": {"errors": [{"field": "message.message_id", "message": "Field is required."},
                                     {"field": "message.role", "message": "Field is required."}]}},
            {"@type": "type.googleapis.com/google.rpc.BadRequest",
             "fieldViolations": [{"field": "message.message_id", "description": "Field is required."},
                                 {"field": "message.role", "description": "Field is required."}]}
        ]
    });
    assert_eq!(request.validate().unwrap_err().to_jsonrpc_error(), sdk);
    let response = request
        .validate()
        .unwrap_err()
        .to_jsonrpc_response(json!(7));
    assert_eq!(
        (response["jsonrpc"].as_str(), &response["id"]),
        (Some("2.0"), &json!(7))
    );
}
