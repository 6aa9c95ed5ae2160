//! Seed 004's v0.1 traffic through the whole bridge: every sample its v0.1 type reads (see
//! `types_seed_v0_1`) upgrades to v1 in one call (`upgrade_json_from`), the v1 types read and validate
//! what it gives, and it downgrades back to v0.1 (`downgrade_json_to`) equal, or different exactly as
//! [`DIFFERENCES`] says (empty `metadata` objects aside, which the v0.3 step drops); the two samples
//! whose files the v0.1 types cannot read whole are refused by name ([`NOT_CARRIED`]). v1 has no JSON-RPC envelopes, so a request is carried by its params and a
//! response by its result, as a server or client bridging them carries them.

use a2a_compat::bridge::{OlderVersion, downgrade_json_to, upgrade_json_from};
use a2a_types::registry::{A2aMessage, MessageVisitor};
use serde_json::Value;

use crate::types_seed_v0_1::seed_samples;

/// The v0.1 object a sample carries to v1: its params, its result, or itself.
fn carried(schema_type: &str, document: &Value) -> Option<(&'static str, Value)> {
    let params = |name| Some((name, document["params"].clone()));
    match schema_type {
        "AgentCard" => Some(("AgentCard", document.clone())),
        "SendTaskRequest" | "SendTaskStreamingRequest" => params("TaskSendParams"),
        "GetTaskRequest" | "TaskResubscriptionRequest" => params("TaskQueryParams"),
        "CancelTaskRequest" | "GetTaskPushNotificationRequest" => params("TaskIdParams"),
        "SetTaskPushNotificationRequest" => params("TaskPushNotificationConfig"),
        "SendTaskResponse" | "GetTaskResponse" | "CancelTaskResponse" => {
            Some(("Task", document["result"].clone()))
        }
        "SetTaskPushNotificationResponse" | "GetTaskPushNotificationResponse" => {
            Some(("TaskPushNotificationConfig", document["result"].clone()))
        }
        "SendTaskStreamingResponse" if document["result"].get("artifact").is_some() => {
            Some(("TaskArtifactUpdateEvent", document["result"].clone()))
        }
        "SendTaskStreamingResponse" => Some(("TaskStatusUpdateEvent", document["result"].clone())),
        _ => None,
    }
}

/// Reads v1 ProtoJSON as its message and validates it.
struct ValidV1(Value);

impl MessageVisitor for ValidV1 {
    type Output = Result<(), String>;
    fn visit<M: A2aMessage>(self) -> Result<(), String> {
        let message: M = serde_json::from_value(self.0).map_err(|e| e.to_string())?;
        message.validate().map_err(|e| e.to_string())
    }
}

/// Where a sample's trip to v1 and back changes it, beyond empty `metadata` objects (which the v0.3
/// step drops, as the SDK does): `(sample, differences)`, each as `a2a_tests::json_differences`
/// writes it (the trip's result against the sample).
const DIFFERENCES: &[(&str, &[&str])] = &[
    // Times without an offset are read as UTC.
    (
        "Streaming Support / Response (SSE Stream) #1",
        &[
            ".status.timestamp: ours \"2025-04-02T16:59:25.331844Z\", reference \"2025-04-02T16:59:25.331844\"",
        ],
    ),
    (
        "Resubscribe to Task / Response (SSE Stream) #3",
        &[
            ".status.timestamp: ours \"2025-04-02T16:59:35.331844Z\", reference \"2025-04-02T16:59:35.331844\"",
        ],
    ),
    // ... and an artifact's `index` equal to its position in the task's list is the one it gets
    // when left out, so it comes back left out.
    (
        "Structured Output / Response (Providing JSON Output)",
        &[
            ".artifacts[0].index: missing in ours (reference: 0)",
            ".status.timestamp: ours \"2025-04-17T17:47:09.680794Z\", reference \"2025-04-17T17:47:09.680794\"",
        ],
    ),
];

/// Samples the v0.1 types read but the bridge cannot carry, with the error's text: their file parts
/// give the content as `data`, which v0.1 does not know, so the file has neither `bytes` nor `uri`.
const NOT_CARRIED: &[(&str, &str)] = &[
    (
        "Streaming Support / Request",
        "message.parts[1].file: FileContent has no counterpart",
    ),
    (
        "Non-textual Media / Request (Sequence 1 - Send File)",
        "message.parts[1].file: FileContent has no counterpart",
    ),
];

/// `value` without `metadata` members that are empty objects, inside out.
fn without_empty_metadata(mut value: Value) -> Value {
    match &mut value {
        Value::Object(members) => {
            members
                .retain(|k, v| !(k == "metadata" && v.as_object().is_some_and(|o| o.is_empty())));
            for member in members.values_mut() {
                *member = without_empty_metadata(member.take());
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = without_empty_metadata(item.take());
            }
        }
        _ => {}
    }
    value
}

#[test]
fn every_readable_seed_sample_upgrades_to_valid_v1_and_comes_back() {
    let Some(samples) =
        seed_samples("every_readable_seed_sample_upgrades_to_valid_v1_and_comes_back")
    else {
        return;
    };
    let mut failures = Vec::new();
    let mut carried_count = 0;
    for sample in &samples {
        let Some((v0_1_type, document)) = carried(sample.schema_type, &sample.document) else {
            continue;
        };
        // What the v0.1 types refuse (the seed's departures from its schema) has nothing to carry.
        let Some(readable) =
            a2a_compat::v0_1::visit_schema_type(v0_1_type, Readable(document.clone()))
        else {
            failures.push(format!("{}: {v0_1_type} is no v0.1 type", sample.name));
            continue;
        };
        if !readable {
            continue;
        }
        carried_count += 1;
        let upgraded = upgrade_json_from(OlderVersion::V0_1, v0_1_type, document.clone());
        if let Some((_, expected)) = NOT_CARRIED.iter().find(|(name, _)| *name == sample.name) {
            match upgraded {
                Err(e) if e.to_string().contains(expected) => {}
                other => failures.push(format!(
                    "{}: expected an error containing `{expected}`, got {other:?}",
                    sample.name
                )),
            }
            continue;
        }
        let result = upgraded
            .map_err(|e| format!("upgrade: {e}"))
            .and_then(|(v1_name, v1)| {
                a2a_types::v1::visit_message(v1_name, ValidV1(v1.clone()))
                    .expect("a v1 message")
                    .map_err(|e| format!("v1 {v1_name} invalid: {e}: {v1}"))?;
                downgrade_json_to(OlderVersion::V0_1, v1_name, v1)
                    .map_err(|e| format!("downgrade {v1_name}: {e}"))
            })
            .and_then(|(back_type, back)| {
                let mut differences = a2a_tests::json_differences(
                    &without_empty_metadata(back),
                    &without_empty_metadata(document.clone()),
                );
                differences.sort();
                let expected = DIFFERENCES
                    .iter()
                    .find(|(name, _)| *name == sample.name)
                    .map(|(_, d)| d.to_vec())
                    .unwrap_or_default();
                if back_type != v0_1_type || differences != expected {
                    Err(format!(
                        "came back as {back_type}, differing in {differences:?} (expected {expected:?})"
                    ))
                } else {
                    Ok(())
                }
            });
        if let Err(why) = result {
            failures.push(format!("{} ({v0_1_type}): {why}", sample.name));
        }
    }
    assert!(carried_count >= 20, "only {carried_count} samples carried");
    assert!(
        failures.is_empty(),
        "{} of {carried_count}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Whether the v0.1 type reads the document.
struct Readable(Value);

impl a2a_types::registry::SchemaTypeVisitor for Readable {
    type Output = bool;
    fn visit<T: a2a_types::registry::SchemaType>(self) -> bool {
        serde_json::from_value::<T>(self.0).is_ok()
    }
}
