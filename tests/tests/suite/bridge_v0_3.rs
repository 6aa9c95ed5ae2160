//! `a2a_compat::bridge`: A2A v0.3 (JSON-RPC) ⇄ v1, which must convert as the official Python SDK's
//! `a2a.compat.v0_3.conversions` does.
//!
//! - every pair of types, both ways, on realistic data, with the exact JSON expected (the table and the
//!   realistic documents are in `tests/fixtures/cases/v0_3/bridge/`);
//! - round trips v0.3 → v1 → v0.3 and v1 → v0.3 → v1 that are lossless where the SDK's are;
//! - each loss of the module's "What does not survive" table, as it happens;
//! - invalid input: the typed error and the path of the field;
//! - the agent card reader on v0.3, v1 and dual cards, the `A2A-Version` helpers, methods and errors;
//! - `upgrade_json` / `downgrade_json` cover every type of both versions or say why not;
//! - the SDK's own vectors (`tests/interop/sdk_jsonrpc_vectors.py`): our upgrade of each case equals the
//!   SDK's `v1_json`, our downgrade of that equals its `from_v1_json`, and the SDK accepts our outputs.
//!   Skips with a message without the SDK's interpreter, except under `CI=true`, where it fails.

use std::collections::BTreeMap;

use a2a_compat::bridge::{
    self, AnyAgentCard, BridgeError, BridgeErrorKind, downgrade_json, downgrade_json_as,
    upgrade_json,
};
use a2a_compat::v0_3;
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::service::ProtocolVersion;
use a2a_tests::jsonrpc_interop::{self, Match};
use a2a_tests::{fixture_json, json_differences};
use a2a_types::v1;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------------
// Helpers

fn parse<T: DeserializeOwned>(json: Value) -> T {
    serde_json::from_value(json)
        .unwrap_or_else(|e| panic!("not a valid {}: {e}", std::any::type_name::<T>()))
}

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("JSON")
}

/// v0.3 JSON → v1 JSON through the typed conversion `V0 → V1`.
fn up_json<V0, V1>(json: Value) -> Value
where
    V0: DeserializeOwned,
    V1: Serialize + TryFrom<V0>,
    <V1 as TryFrom<V0>>::Error: std::fmt::Debug,
{
    to_json(&V1::try_from(parse::<V0>(json)).expect("converts"))
}

/// v1 JSON → v0.3 JSON through the typed conversion `V1 → V0`.
fn down_json<V1, V0>(json: Value) -> Value
where
    V1: DeserializeOwned,
    V0: Serialize + TryFrom<V1>,
    <V0 as TryFrom<V1>>::Error: std::fmt::Debug,
{
    to_json(&V0::try_from(parse::<V1>(json)).expect("converts"))
}

/// Asserts `v0.3 → v1 → v0.3` gives back the same value, and that the v1 form is `v1_json`.
fn lossless_from_v0_3<V0, V1>(v0_3_json: Value, v1_json: Value)
where
    V0: DeserializeOwned + Serialize + TryFrom<V1> + Clone + PartialEq + std::fmt::Debug,
    V1: DeserializeOwned + Serialize + TryFrom<V0> + Clone + PartialEq + std::fmt::Debug,
    <V1 as TryFrom<V0>>::Error: std::fmt::Debug,
    <V0 as TryFrom<V1>>::Error: std::fmt::Debug,
{
    let original: V0 = parse(v0_3_json);
    let upgraded = V1::try_from(original.clone()).expect("upgrades");
    assert_eq!(to_json(&upgraded), v1_json, "v1 form");
    let back = V0::try_from(upgraded.clone()).expect("downgrades");
    assert_eq!(back, original, "v0.3 → v1 → v0.3");
    // And from the other side: the v1 value survives too.
    let again = V1::try_from(back).expect("upgrades again");
    assert_eq!(again, upgraded, "v1 → v0.3 → v1");
}

fn error_of<T: std::fmt::Debug, E: std::fmt::Debug>(result: Result<T, E>) -> E {
    result.expect_err("should fail")
}

// ---------------------------------------------------------------------------------------------------
// Realistic data: one message, task and card in both forms, in `tests/fixtures/cases/v0_3/bridge/`

fn v0_3_message() -> Value {
    fixture_json("cases/v0_3/bridge/v0_3_message.json")
}

fn v1_message() -> Value {
    fixture_json("cases/v0_3/bridge/v1_message.json")
}

fn v0_3_task() -> Value {
    fixture_json("cases/v0_3/bridge/v0_3_task.json")
}

fn v1_task() -> Value {
    fixture_json("cases/v0_3/bridge/v1_task.json")
}

fn v0_3_push_config() -> Value {
    json!({
        "id": "cfg-webhook-primary",
        "url": "https://client.example.com/a2a/notifications",
        "token": "whsec_9f8e7d6c5b4a",
        "authentication": {"schemes": ["Bearer"], "credentials": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}
    })
}

fn v0_3_card() -> Value {
    fixture_json("cases/v0_3/bridge/v0_3_card.json")
}

fn v1_card() -> Value {
    fixture_json("cases/v0_3/bridge/v1_card.json")
}

// ---------------------------------------------------------------------------------------------------
// The SDK's vectors

/// SDK cases we answer differently on purpose: (schema type, case, why). Each must still fail.
const DECLINED: &[(&str, &str, &str)] = &[
    (
        "MessageSendConfiguration",
        "lenient_blocking_string",
        "\"true\" for a boolean and 5.0 for an integer: pydantic's lax mode converts them, the v0.3 \
         types (and the schema) do not allow them",
    ),
    (
        "SendMessageResponse",
        "error",
        "a JSON-RPC error response where a result is expected: the SDK converts it to an empty \
         SendMessageResponse (and back to a message with no id); the bridge reports the error",
    ),
    (
        "ListTaskPushNotificationConfigResponse",
        "error",
        "a JSON-RPC error response where a result is expected: the SDK converts it to an empty list; \
         the bridge reports the error",
    ),
];

/// Equal JSON, or equal numbers written differently (the SDK's `Struct` writes every number as a double,
/// 3.0, where we write 3), which is counted.
fn same_as_sdk(ours: &Value, sdk: &Value, number_format: &mut usize) -> Result<(), String> {
    match jsonrpc_interop::compare(ours, sdk) {
        Match::Exact => Ok(()),
        Match::NumbersByValue => {
            *number_format += 1;
            Ok(())
        }
        Match::RequiredNulls | Match::Different(_) => Err(json_differences(ours, sdk).join("; ")),
    }
}

#[test]
fn the_sdks_vectors_convert_as_the_sdk_converts_them() {
    let Some(python) = jsonrpc_interop::interpreter() else {
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bridge_v0_3");
    let cases = jsonrpc_interop::generate(&python, &dir.join("sdk"));

    let mut failures = Vec::new();
    let (mut upgrades, mut downgrades, mut declined, mut number_format) = (0, 0, 0, 0);
    let mut ours = Vec::new();
    for case in &cases {
        let schema_type = case["schema_type"].as_str().unwrap();
        let name = case["case"].as_str().unwrap();
        let label = format!("{schema_type} {name}");
        let mut entry = json!({"schema_type": schema_type, "case": name});
        let Some(v1_type) = case["v1_type"].as_str() else {
            assert!(
                case.get("v1_error").is_none(),
                "{label}: the SDK failed to convert"
            );
            ours.push(entry);
            continue;
        };
        if let Some((_, _, why)) = DECLINED
            .iter()
            .find(|(t, c, _)| *t == schema_type && *c == name)
        {
            let error = upgrade_json(schema_type, case["json"].clone()).unwrap_err();
            assert!(
                matches!(
                    error.kind(),
                    BridgeErrorKind::ErrorResponse { .. } | BridgeErrorKind::InvalidJson { .. }
                ),
                "{label}: {error}"
            );
            declined += 1;
            entry["declined"] = json!(why);
            ours.push(entry);
            continue;
        }
        // v0.3 → v1.
        match upgrade_json(schema_type, case["json"].clone()) {
            Err(error) => failures.push(format!("{label}: upgrade failed: {error}")),
            Ok((name_out, v1_json)) => {
                if name_out != v1_type {
                    failures.push(format!(
                        "{label}: upgraded to {name_out}, the SDK to {v1_type}"
                    ));
                } else {
                    match same_as_sdk(&v1_json, &case["v1_json"], &mut number_format) {
                        Ok(()) => upgrades += 1,
                        Err(diff) => failures.push(format!("{label}: v1_json: {diff}")),
                    }
                }
            }
        }

        // v1 → v0.3, from the SDK's own v1 JSON, to the type the SDK converts back to.
        let from_v1_type = case["from_v1_type"].as_str().unwrap();
        let id = case["json"]
            .get("id")
            .filter(|id| !id.is_null())
            .map(|id| parse::<v0_3::JsonRpcId>(id.clone()));
        match downgrade_json_as(v1_type, case["v1_json"].clone(), from_v1_type, id) {
            Err(error) => failures.push(format!("{label}: downgrade failed: {error}")),
            Ok(back) => {
                match same_as_sdk(&back, &case["from_v1_json"], &mut number_format) {
                    Ok(()) => downgrades += 1,
                    Err(diff) => failures.push(format!("{label}: from_v1_json: {diff}")),
                }
                entry["from_v1_json"] = back;
            }
        }
        ours.push(entry);
    }
    let converted = cases.iter().filter(|c| c.get("v1_type").is_some()).count();
    eprintln!(
        "bridge vs the SDK: {upgrades}/{converted} upgrades and {downgrades}/{converted} downgrades \
         equal the SDK's ({number_format} only in how numbers are written: 3 for the SDK's 3.0), \
         {declined} declined by design"
    );
    assert!(
        failures.is_empty(),
        "{} differences from the SDK:\n{}",
        failures.len(),
        failures.join("\n")
    );

    // The SDK reads every one of our downgrades as the model it made itself.
    let (ok, stdout) = jsonrpc_interop::check(&python, &dir.join("ours"), "v1", &ours);
    eprintln!(
        "the SDK judging our downgrades: {}",
        stdout.lines().last().unwrap_or_default()
    );
    assert!(ok, "the SDK rejects some of our downgrades:\n{stdout}");
}

#[test]
fn the_sdks_method_names_and_error_codes_are_ours() {
    let Some(python) = jsonrpc_interop::interpreter() else {
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bridge_v0_3_names");
    jsonrpc_interop::generate(&python, &dir);
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let names = manifest["method_names"].as_array().unwrap();
    for entry in names {
        let v1_name = entry["v1"].as_str().unwrap();
        let method = Operation::from_jsonrpc_method(v1_name).unwrap_or_else(|| panic!("{v1_name}"));
        assert_eq!(method.v0_3_method(), entry["v0_3"].as_str(), "{entry}");
        assert_eq!(
            method.is_streaming(),
            entry["streaming"].as_bool().unwrap(),
            "{entry}"
        );
    }
    assert_eq!(
        names.len(),
        Operation::all().count(),
        "every method, and only those"
    );
    let codes = manifest["error_codes"].as_array().unwrap();
    let mut known = 0;
    for entry in codes {
        let code = entry["code"].as_i64().unwrap();
        match entry["v1_error"].as_str() {
            None => assert_eq!(ErrorKind::from_jsonrpc_code(code), None, "{entry}"),
            Some(_) => {
                let ours = ErrorKind::from_jsonrpc_code(code).unwrap_or_else(|| panic!("{entry}"));
                known += 1;
                assert_eq!(ours.in_v0_3(), !entry["v0_3_type"].is_null(), "{entry}");
            }
        }
    }
    assert_eq!(known, ErrorKind::ALL.len());
}

// ---------------------------------------------------------------------------------------------------
// Every pair, both ways

/// One row of `tests/fixtures/cases/v0_3/bridge/pairs.json`: the JSON each side writes for the same
/// realistic value, converting losslessly both ways. The rows cover every entry of `bridge::UPGRADES`
/// (but `A2ARequest`, tested on its own).
#[derive(Deserialize)]
struct Pair {
    /// The v0.3 schema type.
    v0_3_type: String,
    v0_3: Value,
    /// The v1 message's full name.
    v1_type: String,
    v1: Value,
}

fn pairs() -> Vec<Pair> {
    fixture_json("cases/v0_3/bridge/pairs.json")
}

#[test]
fn every_pair_converts_both_ways_with_the_json_each_side_writes() {
    let pairs = pairs();
    for Pair {
        v0_3_type: schema_type,
        v0_3: v0_3_json,
        v1_type: v1_name,
        v1: v1_json,
    } in &pairs
    {
        let (name, upgraded) = upgrade_json(schema_type, v0_3_json.clone())
            .unwrap_or_else(|e| panic!("{schema_type}: {e}"));
        assert_eq!(name, *v1_name, "{schema_type}");
        assert_eq!(&upgraded, v1_json, "{schema_type} → {v1_name}");

        // Back, to the same v0.3 type (requests get their id back from the caller).
        let id = v0_3_json
            .get("id")
            .filter(|_| v0_3_json.get("jsonrpc").is_some())
            .map(|id| parse::<v0_3::JsonRpcId>(id.clone()));
        let back = downgrade_json_as(v1_name, v1_json.clone(), schema_type, id)
            .unwrap_or_else(|e| panic!("{v1_name} → {schema_type}: {e}"));
        assert_eq!(&back, v0_3_json, "{v1_name} → {schema_type}");
    }
    // Every pair of the runtime table has its case here.
    for (schema_type, v1_name) in bridge::UPGRADES {
        if *schema_type == "A2ARequest" {
            continue;
        }
        assert!(
            pairs
                .iter()
                .any(|pair| pair.v0_3_type == *schema_type && pair.v1_type == *v1_name),
            "no case for {schema_type} → {v1_name}"
        );
    }
    // Every v1 message of the default downgrades has cases, and they downgrade by default as listed.
    for (v1_name, schema_type) in bridge::DOWNGRADES {
        let mut cases = pairs
            .iter()
            .filter(|pair| pair.v1_type == *v1_name)
            .peekable();
        assert!(cases.peek().is_some(), "no case for {v1_name}");
        for Pair { v1: v1_json, .. } in cases {
            let (name, _) = downgrade_json(v1_name, v1_json.clone()).unwrap();
            assert!(
                schema_type.starts_with(name),
                "{v1_name}: {name}, listed as {schema_type}"
            );
        }
    }
}

#[test]
fn objects_survive_both_round_trips() {
    lossless_from_v0_3::<v0_3::Message, v1::Message>(v0_3_message(), v1_message());
    lossless_from_v0_3::<v0_3::Task, v1::Task>(v0_3_task(), v1_task());
    lossless_from_v0_3::<v0_3::AgentCard, v1::AgentCard>(v0_3_card(), v1_card());
    lossless_from_v0_3::<v0_3::TaskPushNotificationConfig, v1::TaskPushNotificationConfig>(
        json!({"taskId": "task-4821", "pushNotificationConfig": v0_3_push_config()}),
        json!({"taskId": "task-4821", "id": "cfg-webhook-primary",
               "url": "https://client.example.com/a2a/notifications", "token": "whsec_9f8e7d6c5b4a",
               "authentication": {"scheme": "Bearer", "credentials": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}}),
    );
    lossless_from_v0_3::<v0_3::MessageSendParams, v1::SendMessageRequest>(
        json!({"message": v0_3_message(), "configuration": {"blocking": false, "historyLength": 3,
                                                           "acceptedOutputModes": ["text/plain"]}}),
        json!({"message": v1_message(), "configuration": {"returnImmediately": true, "historyLength": 3,
                                                         "acceptedOutputModes": ["text/plain"]}}),
    );
    lossless_from_v0_3::<v0_3::TaskStatusUpdateEvent, v1::TaskStatusUpdateEvent>(
        json!({"kind": "status-update", "taskId": "task-4821", "contextId": "ctx-lisbon-trip", "final": true,
               "status": {"state": "failed", "timestamp": "2026-05-01T10:00:00Z",
                          "message": {"kind": "message", "messageId": "m-err", "role": "agent",
                                      "parts": [{"kind": "text", "text": "The hotel is fully booked"}]}}}),
        json!({"taskId": "task-4821", "contextId": "ctx-lisbon-trip",
               "status": {"state": "TASK_STATE_FAILED", "timestamp": "2026-05-01T10:00:00Z",
                          "message": {"messageId": "m-err", "role": "ROLE_AGENT",
                                      "parts": [{"text": "The hotel is fully booked"}]}}}),
    );
    lossless_from_v0_3::<v0_3::TaskArtifactUpdateEvent, v1::TaskArtifactUpdateEvent>(
        json!({"kind": "artifact-update", "taskId": "task-4821", "contextId": "ctx-lisbon-trip",
               "append": true, "lastChunk": true, "metadata": {"chunk": 3},
               "artifact": {"artifactId": "a-1", "parts": [{"kind": "text", "text": "Day 3: Sintra"}]}}),
        json!({"taskId": "task-4821", "contextId": "ctx-lisbon-trip", "append": true, "lastChunk": true,
               "metadata": {"chunk": 3},
               "artifact": {"artifactId": "a-1", "parts": [{"text": "Day 3: Sintra"}]}}),
    );
    // Every security scheme, inside the card above; each OAuth flow on its own.
    let card: v0_3::AgentCard = parse(v0_3_card());
    assert_eq!(card.security_schemes.as_ref().unwrap().len(), 5);
    lossless_from_v0_3::<v0_3::OAuthFlows, v1::OAuthFlows>(
        json!({"implicit": {"authorizationUrl": "https://a.example.com/authorize", "scopes": {"r": "Read"}}}),
        json!({"implicit": {"authorizationUrl": "https://a.example.com/authorize", "scopes": {"r": "Read"}}}),
    );
    lossless_from_v0_3::<v0_3::OAuthFlows, v1::OAuthFlows>(
        json!({"password": {"tokenUrl": "https://a.example.com/token", "scopes": {}}}),
        json!({"password": {"tokenUrl": "https://a.example.com/token"}}),
    );

    // v1 data a v0.3 `data` part cannot hold directly comes back from the SDK's wrapping.
    for data in [
        json!([1, 2, 3]),
        json!("plain"),
        json!(4.5),
        json!(true),
        Value::Null,
    ] {
        let part: v1::Part = parse(json!({"data": data, "metadata": {"origin": "sensor"}}));
        let v0_3_part = v0_3::Part::try_from(part.clone()).unwrap();
        assert_eq!(
            to_json(&v0_3_part),
            json!({"kind": "data", "data": {"value": data},
                   "metadata": {"origin": "sensor", "data_part_compat": true}})
        );
        assert_eq!(v1::Part::try_from(v0_3_part).unwrap(), part, "{data}");
    }
}

#[test]
fn every_task_state_and_role_maps() {
    let states = [
        ("submitted", "TASK_STATE_SUBMITTED"),
        ("working", "TASK_STATE_WORKING"),
        ("input-required", "TASK_STATE_INPUT_REQUIRED"),
        ("completed", "TASK_STATE_COMPLETED"),
        ("canceled", "TASK_STATE_CANCELED"),
        ("failed", "TASK_STATE_FAILED"),
        ("rejected", "TASK_STATE_REJECTED"),
        ("auth-required", "TASK_STATE_AUTH_REQUIRED"),
        ("unknown", "TASK_STATE_UNSPECIFIED"),
    ];
    for (v0_3_state, v1_state) in states {
        let state: v0_3::TaskState = parse(json!(v0_3_state));
        let upgraded = v1::TaskState::from(state);
        assert_eq!(to_json(&upgraded), json!(v1_state));
        assert_eq!(v0_3::TaskState::from(upgraded), state);
        let final_ = matches!(v0_3_state, "completed" | "canceled" | "failed" | "rejected");
        assert_eq!(bridge::is_final_state(state), final_, "{v0_3_state}");
    }
    assert_eq!(v1::Role::from(v0_3::MessageRole::User), v1::Role::User);
    assert_eq!(v1::Role::from(v0_3::MessageRole::Agent), v1::Role::Agent);
    assert_eq!(
        v0_3::MessageRole::from(v1::Role::User),
        v0_3::MessageRole::User
    );
    assert_eq!(
        v0_3::MessageRole::from(v1::Role::Agent),
        v0_3::MessageRole::Agent
    );
}

// ---------------------------------------------------------------------------------------------------
// Methods: requests and responses

#[test]
fn method_names_map_both_ways() {
    let expected = [
        (Operation::SendMessage, "SendMessage", Some("message/send")),
        (
            Operation::SendStreamingMessage,
            "SendStreamingMessage",
            Some("message/stream"),
        ),
        (Operation::GetTask, "GetTask", Some("tasks/get")),
        (Operation::ListTasks, "ListTasks", None),
        (Operation::CancelTask, "CancelTask", Some("tasks/cancel")),
        (
            Operation::CreateTaskPushNotificationConfig,
            "CreateTaskPushNotificationConfig",
            Some("tasks/pushNotificationConfig/set"),
        ),
        (
            Operation::GetTaskPushNotificationConfig,
            "GetTaskPushNotificationConfig",
            Some("tasks/pushNotificationConfig/get"),
        ),
        (
            Operation::ListTaskPushNotificationConfigs,
            "ListTaskPushNotificationConfigs",
            Some("tasks/pushNotificationConfig/list"),
        ),
        (
            Operation::DeleteTaskPushNotificationConfig,
            "DeleteTaskPushNotificationConfig",
            Some("tasks/pushNotificationConfig/delete"),
        ),
        (
            Operation::SubscribeToTask,
            "SubscribeToTask",
            Some("tasks/resubscribe"),
        ),
        (
            Operation::GetExtendedAgentCard,
            "GetExtendedAgentCard",
            Some("agent/getAuthenticatedExtendedCard"),
        ),
    ];
    assert_eq!(Operation::all().count(), expected.len());
    for (method, v1_name, v0_3_name) in expected {
        assert_eq!(method.jsonrpc_method(), v1_name);
        assert_eq!(method.v0_3_method(), v0_3_name);
        assert_eq!(Operation::from_jsonrpc_method(v1_name), Some(method));
        assert_eq!(
            Operation::from_any_jsonrpc_method(v1_name),
            Some((method, ProtocolVersion::V1_0))
        );
        if let Some(name) = v0_3_name {
            assert_eq!(Operation::from_v0_3_method(name), Some(method));
            assert_eq!(
                Operation::from_any_jsonrpc_method(name),
                Some((method, ProtocolVersion::V0_3))
            );
        }
        assert_eq!(method.to_string(), v1_name);
    }
    assert_eq!(Operation::from_any_jsonrpc_method("tasks/list"), None);
    assert_eq!(Operation::from_any_jsonrpc_method("sendMessage"), None);
    assert!(
        Operation::SendStreamingMessage.is_streaming() && Operation::SubscribeToTask.is_streaming()
    );
    assert!(!Operation::SendMessage.is_streaming());
}

#[test]
fn every_request_upgrades_and_downgrades_with_its_id() {
    let requests = [
        json!({"jsonrpc": "2.0", "id": "req-1", "method": "message/send",
               "params": {"message": v0_3_message(), "metadata": {"traceId": "abc"}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "message/stream", "params": {"message": v0_3_message()}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"id": "task-4821", "historyLength": 4}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/cancel",
               "params": {"id": "task-4821", "metadata": {"reason": "duplicate"}}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tasks/pushNotificationConfig/set",
               "params": {"taskId": "task-4821", "pushNotificationConfig": v0_3_push_config()}}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "tasks/pushNotificationConfig/get",
               "params": {"id": "task-4821", "pushNotificationConfigId": "cfg-webhook-primary"}}),
        json!({"jsonrpc": "2.0", "id": 7, "method": "tasks/pushNotificationConfig/get", "params": {"id": "task-4821"}}),
        json!({"jsonrpc": "2.0", "id": 8, "method": "tasks/resubscribe", "params": {"id": "task-4821"}}),
        json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/pushNotificationConfig/list", "params": {"id": "task-4821"}}),
        json!({"jsonrpc": "2.0", "id": 10, "method": "tasks/pushNotificationConfig/delete",
               "params": {"id": "task-4821", "pushNotificationConfigId": "cfg-webhook-primary"}}),
        json!({"jsonrpc": "2.0", "id": "req-11", "method": "agent/getAuthenticatedExtendedCard"}),
    ];
    let mut methods = Vec::new();
    for json in requests {
        let request: v0_3::A2aRequest = parse(json.clone());
        let (id, v1_request) = bridge::upgrade_request(request).unwrap();
        assert_eq!(to_json(&id), json["id"]);
        let method = v1_request.operation();
        assert_eq!(method.v0_3_method(), json["method"].as_str());
        methods.push(method);
        // upgrade_json on A2ARequest gives the request message's ProtoJSON.
        let (_, params) = upgrade_json("A2ARequest", json.clone()).unwrap();
        assert_eq!(params, v1_request.to_json());
        // A v1 server reads the same params back by method.
        assert_eq!(MethodParams::from_json(method, params).unwrap(), v1_request);
        let back = bridge::downgrade_request(id, v1_request).unwrap();
        assert_eq!(to_json(&back), json, "{method}");
    }
    methods.dedup();
    assert_eq!(
        methods.len(),
        Operation::all().count() - 1,
        "every method but ListTasks"
    );

    let list_tasks = MethodParams::ListTasks(parse(json!({"contextId": "ctx-1", "pageSize": 10})));
    let error = error_of(bridge::downgrade_request(1.into(), list_tasks));
    assert!(
        matches!(error.kind(), BridgeErrorKind::NoCounterpart { name, .. } if name == "ListTasks")
    );
}

#[test]
fn every_response_upgrades_and_downgrades_with_its_id() {
    let task_push = json!({"taskId": "task-4821", "pushNotificationConfig": v0_3_push_config()});
    let status_update = json!({"kind": "status-update", "taskId": "task-4821", "contextId": "ctx-lisbon-trip",
                               "final": false, "status": {"state": "working"}});
    let results = [
        (Operation::SendMessage, v0_3_task()),
        (Operation::SendMessage, v0_3_message()),
        (Operation::SendStreamingMessage, status_update.clone()),
        (Operation::SubscribeToTask, status_update),
        (Operation::GetTask, v0_3_task()),
        (Operation::CancelTask, v0_3_task()),
        (
            Operation::CreateTaskPushNotificationConfig,
            task_push.clone(),
        ),
        (Operation::GetTaskPushNotificationConfig, task_push.clone()),
        (
            Operation::ListTaskPushNotificationConfigs,
            json!([task_push]),
        ),
        (Operation::DeleteTaskPushNotificationConfig, Value::Null),
        (Operation::GetExtendedAgentCard, v0_3_card()),
    ];
    for (method, result) in results {
        let json = json!({"jsonrpc": "2.0", "id": "req-1", "result": result});
        let response: v0_3::JsonRpcResponse = parse(json.clone());
        let v1_response = bridge::upgrade_response(method, response).unwrap();
        assert_eq!(v1_response.operation(), method);
        let back = bridge::downgrade_response(Some("req-1".into()), v1_response).unwrap();
        assert_eq!(to_json(&back), json, "{method}");
    }

    // An error response is an error, carrying the JSON-RPC error.
    let error_json = json!({"jsonrpc": "2.0", "id": "req-1",
                            "error": {"code": -32001, "message": "Task not found: task-9"}});
    let error = error_of(bridge::upgrade_response(
        Operation::GetTask,
        parse(error_json.clone()),
    ));
    let BridgeErrorKind::ErrorResponse { error: rpc } = error.kind() else {
        panic!("{error}")
    };
    assert_eq!(
        (rpc.code, rpc.message.as_str()),
        (-32001, "Task not found: task-9")
    );
    assert_eq!(error.to_v1_error().kind, ErrorKind::TaskNotFound);
    let error = error_of(v1::Task::try_from(parse::<v0_3::GetTaskResponse>(
        error_json,
    )));
    assert!(matches!(
        error.kind(),
        BridgeErrorKind::ErrorResponse { .. }
    ));

    // ListTasks has no v0.3 answer.
    let list = MethodResult::ListTasks(parse(
        json!({"tasks": [], "nextPageToken": "", "pageSize": 0}),
    ));
    assert!(bridge::downgrade_response(None, list).is_err());
    assert!(
        bridge::upgrade_response(
            Operation::ListTasks,
            parse(json!({"jsonrpc": "2.0", "id": 1, "result": []}))
        )
        .is_err()
    );
}

// ---------------------------------------------------------------------------------------------------
// What does not survive: each row of the module's table

#[test]
fn loss_empty_values_become_absent() {
    let message: v0_3::Message = parse(json!({
        "kind": "message", "messageId": "m-1", "role": "agent", "contextId": "", "taskId": "",
        "extensions": [], "referenceTaskIds": [], "metadata": {},
        "parts": [{"kind": "text", "text": "ok", "metadata": {}}]
    }));
    let upgraded = v1::Message::try_from(message).unwrap();
    // A text part keeps its empty metadata, as the SDK does.
    assert_eq!(
        to_json(&upgraded),
        json!({"messageId": "m-1", "role": "ROLE_AGENT", "parts": [{"text": "ok", "metadata": {}}]})
    );
    assert_eq!(
        to_json(&v0_3::Message::try_from(upgraded).unwrap()),
        json!({"kind": "message", "messageId": "m-1", "role": "agent",
               "parts": [{"kind": "text", "text": "ok", "metadata": {}}]})
    );
    // A v1 message's empty metadata is dropped on the way down; a task's is kept, then dropped on the
    // way back up.
    let message: v1::Message =
        parse(json!({"messageId": "m-1", "role": "ROLE_USER", "metadata": {}}));
    assert_eq!(v0_3::Message::try_from(message).unwrap().metadata, None);
    let task: v1::Task = parse(json!({"id": "t-1", "metadata": {}}));
    let down = v0_3::Task::try_from(task).unwrap();
    assert_eq!(down.metadata, Some(Default::default()));
    assert_eq!(down.context_id, "", "a required v0.3 field v1 left unset");
    assert_eq!(v1::Task::try_from(down).unwrap().metadata, None);
    // Required v0.3 strings v1 may leave unset.
    assert_eq!(
        to_json(&v0_3::ImplicitOAuthFlow::from(
            parse::<v1::ImplicitOAuthFlow>(json!({"scopes": {}}))
        )),
        json!({"authorizationUrl": "", "scopes": {}})
    );
    assert_eq!(
        to_json(&v0_3::AgentExtension::from(parse::<v1::AgentExtension>(
            json!({})
        ))),
        json!({"uri": "", "required": false})
    );
}

#[test]
fn loss_numbers_are_kept_exactly_but_integral_doubles_become_integers() {
    let part: v0_3::Part = parse(json!({"kind": "text", "text": "x",
        "metadata": {"float": 5.0, "big": 9007199254740993u64, "half": 0.5}}));
    let upgraded = v1::Part::try_from(part).unwrap();
    assert_eq!(
        to_json(&upgraded)["metadata"],
        json!({"float": 5, "big": 9007199254740993u64, "half": 0.5})
    );
}

#[test]
fn loss_parts() {
    // Bytes are read like Python's lenient b64decode: characters outside the alphabet are skipped.
    assert_eq!(
        up_json::<v0_3::Part, v1::Part>(
            json!({"kind": "file", "file": {"bytes": "aGVs\nbG8=", "name": ""}})
        ),
        json!({"raw": "aGVsbG8="})
    );
    assert_eq!(
        up_json::<v0_3::Part, v1::Part>(json!({"kind": "file", "file": {"bytes": "-_-_aGk="}})),
        json!({"raw": "aGk="}),
        "URL-safe characters vanish"
    );
    // A wrapped data part is unwrapped; the flag goes, even when false, and so does metadata left empty.
    assert_eq!(
        up_json::<v0_3::Part, v1::Part>(json!({"kind": "data", "data": {"value": [1, 2]},
                                          "metadata": {"data_part_compat": true}})),
        json!({"data": [1, 2]})
    );
    assert_eq!(
        up_json::<v0_3::Part, v1::Part>(json!({"kind": "data", "data": {"value": [1, 2]},
                                          "metadata": {"data_part_compat": false, "k": "v"}})),
        json!({"data": {"value": [1, 2]}, "metadata": {"k": "v"}})
    );
    assert_eq!(
        up_json::<v0_3::Part, v1::Part>(json!({"kind": "data", "data": {"a": 1}, "metadata": {}})),
        json!({"data": {"a": 1}})
    );
    // Text and data parts have no media type or file name in v0.3.
    assert_eq!(
        down_json::<v1::Part, v0_3::Part>(
            json!({"text": "hi", "mediaType": "text/plain", "filename": "hi.txt"})
        ),
        json!({"kind": "text", "text": "hi"})
    );
    assert_eq!(
        down_json::<v1::Part, v0_3::Part>(
            json!({"data": {"a": 1}, "mediaType": "application/json"})
        ),
        json!({"kind": "data", "data": {"a": 1}})
    );
    // Raw bytes are written as standard padded base64, whatever the v1 JSON used.
    assert_eq!(
        down_json::<v1::Part, v0_3::Part>(json!({"raw": "-_8"})),
        json!({"kind": "file", "file": {"bytes": "+/8="}})
    );
}

#[test]
fn loss_roles_and_states_without_a_v0_3_name() {
    for role in [json!("ROLE_UNSPECIFIED"), json!(7)] {
        let message: v1::Message = parse(json!({"messageId": "m", "role": role}));
        assert_eq!(
            v0_3::Message::try_from(message).unwrap().role,
            v0_3::MessageRole::Agent
        );
    }
    for state in [json!("TASK_STATE_UNSPECIFIED"), json!(42)] {
        let status: v1::TaskStatus = parse(json!({"state": state}));
        assert_eq!(
            v0_3::TaskStatus::try_from(status).unwrap().state,
            v0_3::TaskState::Unknown
        );
    }
    let unknown: v0_3::TaskStatus = parse(json!({"state": "unknown"}));
    assert_eq!(
        v1::TaskStatus::try_from(unknown).unwrap().state,
        v1::TaskState::Unspecified
    );
}

#[test]
fn loss_timestamps_are_normalized_to_utc() {
    let status = |timestamp: &str| -> Result<Value, BridgeError> {
        let status: v0_3::TaskStatus = parse(json!({"state": "working", "timestamp": timestamp}));
        v1::TaskStatus::try_from(status).map(|s| to_json(&s)["timestamp"].clone())
    };
    assert_eq!(
        status("2026-05-01T11:30:00+02:00").unwrap(),
        json!("2026-05-01T09:30:00Z")
    );
    assert_eq!(
        status("2026-05-01T09:30:00+00:00").unwrap(),
        json!("2026-05-01T09:30:00Z")
    );
    assert_eq!(
        status("2026-05-01T09:30:00.500000Z").unwrap(),
        json!("2026-05-01T09:30:00.500Z")
    );
    assert_eq!(
        status("2026-05-01T09:30:00.123456789Z").unwrap(),
        json!("2026-05-01T09:30:00.123456789Z")
    );
    let empty: v0_3::TaskStatus = parse(json!({"state": "working", "timestamp": ""}));
    assert_eq!(v1::TaskStatus::try_from(empty).unwrap().timestamp, None);
    for rejected in [
        "2026-05-01T09:30:00",
        "2026-05-01t09:30:00Z",
        "2026-05-01T09:30:00.1234567891Z",
        "May 1st",
        "2026-05-01T09:30:00Z[UTC]",
    ] {
        let error = status(rejected).unwrap_err();
        assert_eq!(error.path(), "timestamp", "{rejected}");
        assert!(
            matches!(error.kind(), BridgeErrorKind::InvalidTimestamp { value, .. } if value == rejected)
        );
    }
}

#[test]
fn loss_final_is_recomputed_from_the_state() {
    let event = |state: &str, final_: bool| -> v0_3::TaskStatusUpdateEvent {
        parse(
            json!({"kind": "status-update", "taskId": "t", "contextId": "c", "final": final_,
                     "status": {"state": state}}),
        )
    };
    for (state, final_) in [
        ("input-required", true),
        ("auth-required", true),
        ("working", true),
        ("completed", false),
        ("rejected", false),
    ] {
        let original = event(state, final_);
        let upgraded = v1::TaskStatusUpdateEvent::try_from(original.clone()).unwrap();
        assert!(to_json(&upgraded).get("final").is_none());
        let back = v0_3::TaskStatusUpdateEvent::try_from(upgraded).unwrap();
        assert_eq!(
            back.final_, !final_,
            "{state}: the SDK's rule, not the sender's flag"
        );
    }
}

#[test]
fn loss_artifact_update_flags_are_always_written() {
    let event: v0_3::TaskArtifactUpdateEvent =
        parse(json!({"kind": "artifact-update", "taskId": "t",
        "contextId": "c", "artifact": {"artifactId": "a", "parts": []}}));
    let back = v0_3::TaskArtifactUpdateEvent::try_from(
        v1::TaskArtifactUpdateEvent::try_from(event).unwrap(),
    )
    .unwrap();
    assert_eq!((back.append, back.last_chunk), (Some(false), Some(false)));
}

#[test]
fn loss_send_configuration() {
    // historyLength 0 is "no limit" in v0.3 as the SDK reads it, and becomes absent.
    assert_eq!(
        up_json::<v0_3::MessageSendConfiguration, v1::SendMessageConfiguration>(
            json!({"historyLength": 0})
        ),
        json!({})
    );
    // So v1's "no history at all" does not survive the round trip.
    let config: v1::SendMessageConfiguration = parse(json!({"historyLength": 0}));
    let down = v0_3::MessageSendConfiguration::from(config);
    assert_eq!(down.history_length, Some(0));
    assert_eq!(
        v1::SendMessageConfiguration::try_from(down)
            .unwrap()
            .history_length,
        None
    );
    // blocking: absent comes back as true; true is v1's default.
    assert_eq!(
        up_json::<v0_3::MessageSendConfiguration, v1::SendMessageConfiguration>(
            json!({"blocking": true})
        ),
        json!({})
    );
    assert_eq!(
        down_json::<v1::SendMessageConfiguration, v0_3::MessageSendConfiguration>(json!({})),
        json!({"blocking": true})
    );
}

#[test]
fn loss_push_notification_configs() {
    // Only the first authentication scheme.
    assert_eq!(
        up_json::<v0_3::PushNotificationAuthenticationInfo, v1::AuthenticationInfo>(
            json!({"schemes": ["Bearer", "Basic"], "credentials": "secret"})
        ),
        json!({"scheme": "Bearer", "credentials": "secret"})
    );
    assert_eq!(
        down_json::<v1::AuthenticationInfo, v0_3::PushNotificationAuthenticationInfo>(json!({})),
        json!({"schemes": []})
    );
    // Tenant, and the task id of a bare PushNotificationConfig.
    let v1_config = json!({"tenant": "acme", "taskId": "task-1", "id": "cfg-1", "url": "https://hook.example.com"});
    assert_eq!(
        down_json::<v1::TaskPushNotificationConfig, v0_3::PushNotificationConfig>(
            v1_config.clone()
        ),
        json!({"id": "cfg-1", "url": "https://hook.example.com"})
    );
    assert_eq!(
        down_json::<v1::TaskPushNotificationConfig, v0_3::TaskPushNotificationConfig>(v1_config),
        json!({"taskId": "task-1", "pushNotificationConfig": {"id": "cfg-1", "url": "https://hook.example.com"}})
    );
}

#[test]
fn loss_params_metadata_tenant_and_paging() {
    assert_eq!(
        up_json::<v0_3::TaskQueryParams, v1::GetTaskRequest>(
            json!({"id": "t", "metadata": {"k": "v"}})
        ),
        json!({"id": "t"})
    );
    assert_eq!(
        to_json(&v1::SubscribeToTaskRequest::from(
            parse::<v0_3::TaskIdParams>(json!({"id": "t", "metadata": {"k": "v"}}))
        )),
        json!({"id": "t"})
    );
    assert_eq!(
        up_json::<v0_3::TaskIdParams, v1::CancelTaskRequest>(
            json!({"id": "t", "metadata": {"k": "v"}})
        ),
        json!({"id": "t", "metadata": {"k": "v"}}),
        "tasks/cancel keeps its metadata"
    );
    for params in [
        json!({"id": "t", "metadata": {"k": "v"}}),
        json!({"id": "t", "pushNotificationConfigId": "c", "metadata": {"k": "v"}}),
    ] {
        let params: v0_3::GetTaskPushNotificationConfigRequestParams = parse(params);
        assert!(
            to_json(&v1::GetTaskPushNotificationConfigRequest::from(params))
                .get("metadata")
                .is_none()
        );
    }
    assert_eq!(
        up_json::<
            v0_3::ListTaskPushNotificationConfigParams,
            v1::ListTaskPushNotificationConfigsRequest,
        >(json!({"id": "t", "metadata": {"k": "v"}})),
        json!({"taskId": "t"})
    );
    assert_eq!(
        down_json::<
            v1::ListTaskPushNotificationConfigsRequest,
            v0_3::ListTaskPushNotificationConfigParams,
        >(json!({"tenant": "acme", "taskId": "t", "pageSize": 5, "pageToken": "p2"})),
        json!({"id": "t"})
    );
    assert_eq!(
        down_json::<
            v1::ListTaskPushNotificationConfigsResponse,
            v0_3::ListTaskPushNotificationConfigSuccessResponse,
        >(json!({"configs": [], "nextPageToken": "p2"})),
        json!({"jsonrpc": "2.0", "id": null, "result": []}),
        "the v0.3 types write the null id JSON-RPC requires"
    );
    for (v1_name, request) in [
        (
            "lf.a2a.v1.SendMessageRequest",
            json!({"tenant": "acme", "message": {"messageId": "m", "role": "ROLE_USER"}}),
        ),
        (
            "lf.a2a.v1.GetTaskRequest",
            json!({"tenant": "acme", "id": "t"}),
        ),
        (
            "lf.a2a.v1.CancelTaskRequest",
            json!({"tenant": "acme", "id": "t"}),
        ),
        (
            "lf.a2a.v1.SubscribeToTaskRequest",
            json!({"tenant": "acme", "id": "t"}),
        ),
        (
            "lf.a2a.v1.DeleteTaskPushNotificationConfigRequest",
            json!({"tenant": "acme", "taskId": "t", "id": "c"}),
        ),
    ] {
        let (_, v0_3_json) = downgrade_json(v1_name, request).unwrap();
        assert!(
            !v0_3_json.to_string().contains("acme"),
            "{v1_name}: {v0_3_json}"
        );
    }
    // A get without a config id comes back as the bare TaskIdParams.
    let (name, json) = downgrade_json(
        "lf.a2a.v1.GetTaskPushNotificationConfigRequest",
        up_json::<
            v0_3::GetTaskPushNotificationConfigParams,
            v1::GetTaskPushNotificationConfigRequest,
        >(json!({"id": "t"})),
    )
    .unwrap();
    assert_eq!((name, json), ("TaskIdParams", json!({"id": "t"})));
}

#[test]
fn loss_card_interfaces_and_flags() {
    // The SDK's own form of a v0.3 card that repeats its main interface in additionalInterfaces.
    let mut card = v0_3_card();
    card["additionalInterfaces"] =
        json!([{"url": "https://agents.example.com/travel/a2a", "transport": "JSONRPC"}]);
    card["capabilities"]["stateTransitionHistory"] = json!(true);
    let upgraded = up_json::<v0_3::AgentCard, v1::AgentCard>(card);
    assert_eq!(
        upgraded["supportedInterfaces"],
        json!([
            {"url": "https://agents.example.com/travel/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3.0"},
            {"url": "https://agents.example.com/travel/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}
        ])
    );
    assert!(
        upgraded["capabilities"]
            .get("stateTransitionHistory")
            .is_none()
    );
    assert_eq!(upgraded["capabilities"]["extendedAgentCard"], json!(true));

    // A v1 card serving both versions: only the 0.x interfaces are left, tenants and versions go.
    let mut card = v1_card();
    card["supportedInterfaces"] = json!([
        {"url": "https://agents.example.com/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0",
         "tenant": "acme"},
        {"url": "https://agents.example.com/v03/grpc", "protocolBinding": "GRPC", "protocolVersion": "0.3",
         "tenant": "acme"},
        {"url": "https://agents.example.com/v03", "protocolBinding": "JSONRPC", "protocolVersion": "0.3.5"},
        {"url": "https://agents.example.com/any", "protocolBinding": "HTTP+JSON"}
    ]);
    let down = down_json::<v1::AgentCard, v0_3::AgentCard>(card);
    assert_eq!(down["url"], json!("https://agents.example.com/v03/grpc"));
    assert_eq!(down["preferredTransport"], json!("GRPC"));
    assert_eq!(down["protocolVersion"], json!("0.3"));
    assert_eq!(
        down["additionalInterfaces"],
        json!([{"url": "https://agents.example.com/v03", "transport": "JSONRPC"},
               {"url": "https://agents.example.com/any", "transport": "HTTP+JSON"}])
    );
    assert_eq!(down["supportsAuthenticatedExtendedCard"], json!(true));
    let again = up_json::<v0_3::AgentCard, v1::AgentCard>(down);
    assert_eq!(
        again["supportedInterfaces"][1],
        json!({"url": "https://agents.example.com/v03", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}),
        "0.3.5 comes back as 0.3"
    );
    // An interface with no version counts as 0.3, and the card says "0.3".
    let mut card = v1_card();
    card["supportedInterfaces"] =
        json!([{"url": "https://a.example.com", "protocolBinding": "JSONRPC"}]);
    assert_eq!(
        down_json::<v1::AgentCard, v0_3::AgentCard>(card)["protocolVersion"],
        json!("0.3")
    );
    // AgentExtension.required is always written.
    assert_eq!(
        down_json::<v1::AgentExtension, v0_3::AgentExtension>(json!({"uri": "urn:x"})),
        json!({"uri": "urn:x", "required": false})
    );
}

#[test]
fn loss_oauth_flows() {
    let flow = |url: &str| json!({"tokenUrl": url, "scopes": {}});
    let all = json!({
        "authorizationCode": {"authorizationUrl": "https://a.example.com/authorize",
                              "tokenUrl": "https://a.example.com/token", "scopes": {}},
        "clientCredentials": flow("https://c.example.com/token"),
        "implicit": {"authorizationUrl": "https://i.example.com/authorize", "scopes": {}},
        "password": flow("https://p.example.com/token")
    });
    assert_eq!(
        up_json::<v0_3::OAuthFlows, v1::OAuthFlows>(all.clone()),
        json!({"password": {"tokenUrl": "https://p.example.com/token"}}),
        "the last flow wins, as in the SDK"
    );
    let mut three = all.clone();
    three.as_object_mut().unwrap().remove("password");
    assert_eq!(
        up_json::<v0_3::OAuthFlows, v1::OAuthFlows>(three),
        json!({"implicit": {"authorizationUrl": "https://i.example.com/authorize"}})
    );
    // No flow: an error for the typed conversion, `{}` on JSON (as the SDK writes it), unset flows inside
    // a scheme.
    let error = error_of(v1::OAuthFlows::try_from(parse::<v0_3::OAuthFlows>(json!(
        {}
    ))));
    assert!(matches!(
        error.kind(),
        BridgeErrorKind::EmptyOneof {
            message: "lf.a2a.v1.OAuthFlows"
        }
    ));
    assert_eq!(
        upgrade_json("OAuthFlows", json!({})).unwrap(),
        ("lf.a2a.v1.OAuthFlows", json!({}))
    );
    assert_eq!(
        downgrade_json("lf.a2a.v1.OAuthFlows", json!({})).unwrap(),
        ("OAuthFlows", json!({}))
    );
    assert_eq!(
        up_json::<v0_3::SecurityScheme, v1::SecurityScheme>(json!({"type": "oauth2", "flows": {}})),
        json!({"oauth2SecurityScheme": {}})
    );
    // deviceCode and pkceRequired have no v0.3 form.
    assert_eq!(
        down_json::<v1::OAuthFlows, v0_3::OAuthFlows>(json!({"deviceCode": {
            "deviceAuthorizationUrl": "https://d.example.com/device", "tokenUrl": "https://d.example.com/token"}})),
        json!({})
    );
    assert_eq!(
        down_json::<v1::OAuthFlows, v0_3::OAuthFlows>(json!({"authorizationCode": {
            "authorizationUrl": "https://a.example.com/authorize", "tokenUrl": "https://a.example.com/token",
            "pkceRequired": true}})),
        json!({"authorizationCode": {"authorizationUrl": "https://a.example.com/authorize",
                                     "tokenUrl": "https://a.example.com/token", "scopes": {}}})
    );
}

#[test]
fn loss_errors() {
    // v0.3 → v1: code and message; the data goes (as in the SDK's clients).
    let error: v0_3::A2aError = parse(json!({"code": -32001, "message": "Task task-9 not found",
                                             "data": {"taskId": "task-9"}}));
    assert_eq!(
        Error::from(error),
        Error::with_message(ErrorKind::TaskNotFound, "Task task-9 not found")
    );
    // v1 → v0.3: codes v0.3 lacks become -32603; message and data stay.
    for (code, v0_3_code) in [
        (ErrorKind::VersionNotSupported, -32603),
        (ErrorKind::ExtensionSupportRequired, -32603),
        (ErrorKind::TaskNotCancelable, -32002),
        (ErrorKind::ExtendedAgentCardNotConfigured, -32007),
    ] {
        let error = Error::new(code).with_metadata("hint", "x");
        let rpc = v0_3::JsonRpcError::from(&error);
        assert_eq!(
            to_json(&rpc),
            json!({"code": v0_3_code, "message": code.default_message(), "data": {"hint": "x"}})
        );
        let typed = v0_3::A2aError::from(error);
        assert_eq!(to_json(&typed)["code"], json!(v0_3_code));
    }
}

// ---------------------------------------------------------------------------------------------------
// Invalid input: the typed error, at the right place

#[test]
fn invalid_input_names_the_field() {
    // A v1 part with no content, deep in a task.
    let mut task = v1_task();
    task["history"][0]["parts"][2] = json!({"mediaType": "image/png"});
    let error = error_of(v0_3::Task::try_from(parse::<v1::Task>(task)));
    assert_eq!(error.path(), "history[0].parts[2]");
    assert_eq!(error.kind(), &BridgeErrorKind::PartWithoutContent);
    assert_eq!(
        error.to_string(),
        "history[0].parts[2]: a v1 part with no content has no v0.3 form"
    );

    let mut task = v1_task();
    task["status"]["message"]["parts"][0] = json!({});
    let error = error_of(v0_3::Task::try_from(parse::<v1::Task>(task)));
    assert_eq!(error.path(), "status.message.parts[0]");

    // Inside a stream event and a response.
    let stream: v1::StreamResponse =
        parse(json!({"artifactUpdate": {"taskId": "t", "contextId": "c",
        "artifact": {"artifactId": "a", "parts": [{"text": "ok"}, {}]}}}));
    let error = error_of(v0_3::SendStreamingMessageSuccessResponse::try_from(stream));
    assert_eq!(error.path(), "artifactUpdate.artifact.parts[1]");

    // Base64 the SDK cannot decode.
    let mut task = v0_3_task();
    task["history"][0]["parts"][1]["file"]["bytes"] = json!("UERGL");
    let error = error_of(v1::Task::try_from(parse::<v0_3::Task>(task)));
    assert_eq!(error.path(), "history[0].parts[1].file.bytes");
    assert!(matches!(
        error.kind(),
        BridgeErrorKind::InvalidBase64 { .. }
    ));

    // A timestamp without an offset, inside a streaming response.
    let response: v0_3::SendStreamingMessageSuccessResponse =
        parse(json!({"jsonrpc": "2.0", "id": 1,
        "result": {"kind": "status-update", "taskId": "t", "contextId": "c", "final": false,
                   "status": {"state": "working", "timestamp": "2026-05-01T09:30:00"}}}));
    let error = error_of(v1::StreamResponse::try_from(response));
    assert_eq!(error.path(), "result.status.timestamp");

    // A wrapped data part without its value.
    let message: v0_3::Message = parse(json!({"kind": "message", "messageId": "m", "role": "user",
        "parts": [{"kind": "data", "data": {"values": []}, "metadata": {"data_part_compat": true}}]}));
    let error = error_of(v1::Message::try_from(message));
    assert_eq!(
        (error.path(), error.kind()),
        ("parts[0].data", &BridgeErrorKind::MissingWrappedValue)
    );

    // historyLength beyond 32 bits, inside a request.
    let request: v0_3::SendMessageRequest =
        parse(json!({"jsonrpc": "2.0", "id": 1, "method": "message/send",
        "params": {"message": {"kind": "message", "messageId": "m", "role": "user", "parts": []},
                   "configuration": {"historyLength": 3_000_000_000i64}}}));
    let error = error_of(v1::SendMessageRequest::try_from(request));
    assert_eq!(error.path(), "params.configuration.historyLength");
    assert_eq!(
        error.kind(),
        &BridgeErrorKind::IntegerOutOfRange {
            value: 3_000_000_000
        }
    );

    // An API key location v0.3 cannot name.
    let mut card = v1_card();
    card["securitySchemes"]["apiKey"]["apiKeySecurityScheme"]["location"] = json!("Header");
    let error = error_of(v0_3::AgentCard::try_from(parse::<v1::AgentCard>(card)));
    assert_eq!(
        error.path(),
        "securitySchemes.apiKey.apiKeySecurityScheme.location"
    );

    // A v1-only card has no v0.3 form.
    let mut card = v1_card();
    card["supportedInterfaces"] = json!([{"url": "https://a.example.com", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]);
    let error = error_of(v0_3::AgentCard::try_from(parse::<v1::AgentCard>(card)));
    assert_eq!(
        (error.path(), error.kind()),
        (
            "supportedInterfaces",
            &BridgeErrorKind::NoCompatibleInterface
        )
    );
    assert_eq!(error.to_v1_error().kind, ErrorKind::VersionNotSupported);

    // A v1 timestamp v0.3 cannot carry (outside years 0001-9999).
    let status = v1::TaskStatus {
        timestamp: Some("+10000-01-01T00:00:00Z".parse().unwrap()),
        ..Default::default()
    };
    let error = error_of(v0_3::TaskStatus::try_from(status));
    assert_eq!(error.path(), "timestamp");
    assert!(matches!(
        error.kind(),
        BridgeErrorKind::InvalidTimestamp { .. }
    ));

    // v1 params of the wrong shape for their method.
    let error = MethodParams::from_json(Operation::GetTask, json!({"id": 5})).unwrap_err();
    assert_eq!(error.path(), "id");

    // On JSON: the schema type's JSON is checked, names are checked.
    let error = upgrade_json("Task", json!({"id": 5})).unwrap_err();
    assert!(
        matches!(error.kind(), BridgeErrorKind::InvalidJson { type_name, .. } if type_name == "Task")
    );
    let error = upgrade_json("Tsak", json!({})).unwrap_err();
    assert!(matches!(error.kind(), BridgeErrorKind::UnknownType { name } if name == "Tsak"));
    let error = downgrade_json("lf.a2a.v1.Tsak", json!({})).unwrap_err();
    assert!(matches!(error.kind(), BridgeErrorKind::UnknownType { .. }));
    assert_eq!(
        Error::try_from(v0_3::JsonRpcError {
            code: -32000,
            data: None,
            message: "x".into()
        })
        .unwrap_err()
        .path,
        "code"
    );
}

// ---------------------------------------------------------------------------------------------------
// Runtime entry points: every type of both versions is converted or said to have no counterpart

#[test]
fn every_type_of_both_versions_converts_or_says_why_not() {
    for name in v0_3::SCHEMA_TYPES {
        let upgrades = bridge::UPGRADES.iter().any(|(t, _)| t == name);
        let without = bridge::NO_V1_COUNTERPART.iter().any(|(t, _)| t == name);
        assert!(
            upgrades != without,
            "{name}: listed in exactly one of UPGRADES and NO_V1_COUNTERPART"
        );
        let error = upgrade_json(name, json!(42)).unwrap_err();
        if upgrades {
            assert!(
                matches!(error.kind(), BridgeErrorKind::InvalidJson { .. }),
                "{name}: {error}"
            );
        } else {
            assert!(
                matches!(error.kind(), BridgeErrorKind::NoCounterpart { .. }),
                "{name}: {error}"
            );
        }
    }
    assert_eq!(
        bridge::UPGRADES.len() + bridge::NO_V1_COUNTERPART.len(),
        v0_3::SCHEMA_TYPES.len()
    );
    let v1_names: Vec<&str> = v1::MESSAGE_NAMES
        .iter()
        .copied()
        .chain(["lf.a2a.v1.TaskState", "lf.a2a.v1.Role"])
        .collect();
    for name in &v1_names {
        let downgrades = bridge::DOWNGRADES.iter().any(|(t, _)| t == name);
        let without = bridge::NO_V0_3_COUNTERPART.iter().any(|(t, _)| t == name);
        assert!(
            downgrades != without,
            "{name}: listed in exactly one of DOWNGRADES and NO_V0_3_COUNTERPART"
        );
        let error = downgrade_json(name, json!("not this")).unwrap_err();
        if downgrades {
            assert!(
                matches!(error.kind(), BridgeErrorKind::InvalidJson { .. }),
                "{name}: {error}"
            );
        } else {
            assert!(
                matches!(error.kind(), BridgeErrorKind::NoCounterpart { .. }),
                "{name}: {error}"
            );
        }
    }
    assert_eq!(
        bridge::DOWNGRADES.len() + bridge::NO_V0_3_COUNTERPART.len(),
        v1_names.len()
    );
}

#[test]
fn downgrade_json_as_picks_the_form() {
    let task = v1_task();
    let get = downgrade_json_as(
        "lf.a2a.v1.Task",
        task.clone(),
        "GetTaskSuccessResponse",
        Some("r-1".into()),
    )
    .unwrap();
    assert_eq!(
        get,
        json!({"jsonrpc": "2.0", "id": "r-1", "result": v0_3_task()})
    );
    // Without an id, the id is null.
    let cancel =
        downgrade_json_as("lf.a2a.v1.Task", task.clone(), "CancelTaskResponse", None).unwrap();
    assert_eq!(
        cancel,
        json!({"jsonrpc": "2.0", "id": null, "result": v0_3_task()})
    );
    // A request needs its id.
    let error = downgrade_json_as(
        "lf.a2a.v1.GetTaskRequest",
        json!({"id": "t"}),
        "GetTaskRequest",
        None,
    )
    .unwrap_err();
    assert!(
        matches!(error.kind(), BridgeErrorKind::NoCounterpart { .. }),
        "{error}"
    );
    // The member a part or scheme is.
    let part = downgrade_json_as(
        "lf.a2a.v1.Part",
        json!({"url": "https://x.example.com/a.png"}),
        "FilePart",
        None,
    )
    .unwrap();
    assert_eq!(
        part,
        json!({"kind": "file", "file": {"uri": "https://x.example.com/a.png"}})
    );
    assert!(downgrade_json_as("lf.a2a.v1.Part", json!({"text": "hi"}), "FilePart", None).is_err());
    let scheme = downgrade_json_as(
        "lf.a2a.v1.SecurityScheme",
        json!({"mtlsSecurityScheme": {}}),
        "MutualTLSSecurityScheme",
        None,
    )
    .unwrap();
    assert_eq!(scheme, json!({"type": "mutualTLS"}));
    // A pair that does not go together.
    assert!(downgrade_json_as("lf.a2a.v1.Task", task, "Message", None).is_err());
    // The bare push config, without its task.
    let config = downgrade_json_as(
        "lf.a2a.v1.TaskPushNotificationConfig",
        json!({"taskId": "t", "url": "https://hook.example.com"}),
        "PushNotificationConfig",
        None,
    )
    .unwrap();
    assert_eq!(config, json!({"url": "https://hook.example.com"}));
    // The request that has no v0.3 params.
    let request = downgrade_json_as(
        "lf.a2a.v1.GetExtendedAgentCardRequest",
        json!({"tenant": "acme"}),
        "GetAuthenticatedExtendedCardRequest",
        Some(3.into()),
    )
    .unwrap();
    assert_eq!(
        request,
        json!({"jsonrpc": "2.0", "id": 3, "method": "agent/getAuthenticatedExtendedCard"})
    );
}

// ---------------------------------------------------------------------------------------------------
// Reading a card of either version

#[test]
fn the_card_reader_tells_the_version_and_gives_both_forms() {
    // v0.3.
    let card = AnyAgentCard::from_json(v0_3_card()).unwrap();
    assert_eq!(card.version(), ProtocolVersion::V0_3);
    assert_eq!(to_json(&card.to_v1()), v1_card());
    assert_eq!(to_json(&card.to_v0_3().unwrap()), v0_3_card());
    assert_eq!(to_json(&card), v0_3_card(), "written as read");

    // v1.
    let card: AnyAgentCard = serde_json::from_value(v1_card()).unwrap();
    assert_eq!(card.version(), ProtocolVersion::V1_0);
    assert_eq!(to_json(&card.to_v0_3().unwrap()), v0_3_card());
    assert_eq!(to_json(&card.clone().into_v1()), v1_card());

    // A v1 card that also carries v0.3's fields for old clients (as the SDK's server writes it) is v1.
    let mut dual = v1_card();
    for (key, value) in v0_3_card().as_object().unwrap() {
        if dual.get(key).is_none() {
            dual[key] = value.clone();
        }
    }
    let card = AnyAgentCard::from_json(dual).unwrap();
    assert_eq!(card.version(), ProtocolVersion::V1_0);
    assert_eq!(to_json(&card.to_v1()), v1_card());

    // Neither `supportedInterfaces` nor `url`: read as v1, as the SDK does.
    let bare = json!({"name": "Bare", "description": "No interfaces", "version": "1"});
    assert_eq!(AnyAgentCard::detect(&bare), Some(ProtocolVersion::V1_0));
    let card = AnyAgentCard::from_json(bare).unwrap();
    assert!(matches!(
        card.to_v0_3().unwrap_err().kind(),
        BridgeErrorKind::NoCompatibleInterface
    ));

    // Not a card.
    assert_eq!(AnyAgentCard::detect(&json!([])), None);
    assert!(AnyAgentCard::from_json(json!("card")).is_err());
    assert!(AnyAgentCard::from_json_str("{").is_err());
    let error = AnyAgentCard::from_json(json!({"url": "https://a.example.com"})).unwrap_err();
    assert!(
        matches!(error.kind(), BridgeErrorKind::InvalidJson { type_name, .. } if type_name == "AgentCard")
    );

    // From the typed cards.
    let typed: v0_3::AgentCard = parse(v0_3_card());
    assert_eq!(AnyAgentCard::from(typed.clone()).to_v0_3().unwrap(), typed);
    let typed: v1::AgentCard = parse(v1_card());
    assert_eq!(AnyAgentCard::from(typed.clone()).to_v1(), typed);
}

// ---------------------------------------------------------------------------------------------------
// A2A-Version

#[test]
fn the_version_header_and_the_method_tell_the_version() {
    assert_eq!(a2a_protocol::service::A2A_VERSION_HEADER, "A2A-Version");
    assert_eq!(
        a2a_protocol::service::A2A_EXTENSIONS_HEADER,
        "A2A-Extensions"
    );
    assert_eq!(bridge::LEGACY_A2A_EXTENSIONS_HEADER, "X-A2A-Extensions");
    // The one A2A-Version rule (`service::ProtocolVersion::from_header`, cased in full in its own
    // tests): the bridge reads the header with it.
    for (header, version) in [
        (None, ProtocolVersion::V0_3),
        (Some(""), ProtocolVersion::V0_3),
        (Some("0.3"), ProtocolVersion::V0_3),
        (Some("0.3.0"), ProtocolVersion::V0_3),
        (Some("1.0"), ProtocolVersion::V1_0),
        (Some("1.0.0"), ProtocolVersion::V1_0),
        (Some("v1.0"), ProtocolVersion::V1_0),
    ] {
        assert_eq!(
            ProtocolVersion::from_header(header).unwrap(),
            version,
            "{header:?}"
        );
    }
    assert_eq!(ProtocolVersion::V0_3.to_string(), "0.3");
    assert_eq!(ProtocolVersion::V1_0.to_string(), "1.0");

    // A server serving both: the method name says which, the header must agree.
    assert_eq!(
        bridge::request_version("message/send", None).unwrap(),
        (Operation::SendMessage, ProtocolVersion::V0_3)
    );
    assert_eq!(
        bridge::request_version("tasks/get", Some("0.3")).unwrap(),
        (Operation::GetTask, ProtocolVersion::V0_3)
    );
    assert_eq!(
        bridge::request_version("SendStreamingMessage", Some("1.0")).unwrap(),
        (Operation::SendStreamingMessage, ProtocolVersion::V1_0)
    );
    // Not a version, or a version served neither as 0.3 nor as 1.0 (major and minor must match).
    for (method, header) in [
        ("SendMessage", "2.0"),
        ("SendMessage", "latest"),
        ("message/send", "1.0.x"),
        ("message/send", "0.2"),
        ("SendMessage", "1.1"),
    ] {
        let error = bridge::request_version(method, Some(header)).unwrap_err();
        assert!(
            matches!(error.kind(), BridgeErrorKind::UnsupportedVersion { .. }),
            "{method} {header}"
        );
        assert_eq!(error.to_v1_error().kind, ErrorKind::VersionNotSupported);
    }
    for (method, header) in [
        ("SendMessage", None),
        ("GetTask", Some("0.3")),
        ("message/send", Some("1.0")),
    ] {
        let error = bridge::request_version(method, header).unwrap_err();
        assert!(
            matches!(error.kind(), BridgeErrorKind::VersionMismatch { .. }),
            "{method} {header:?}"
        );
        let v1_error = error.to_v1_error();
        assert_eq!(v1_error.kind, ErrorKind::VersionNotSupported);
        // And a v0.3 client is told -32603.
        assert_eq!(v0_3::JsonRpcError::from(&v1_error).code, -32603);
    }
    let error = bridge::request_version("tasks/list", None).unwrap_err();
    assert_eq!(error.to_v1_error().kind, ErrorKind::MethodNotFound);

    assert!(bridge::is_v0_3_version("0.3.0"));
    assert!(!bridge::is_v0_3_version("1.0"));
}

// ---------------------------------------------------------------------------------------------------
// Errors

#[test]
fn error_codes_and_the_v1_wire_form() {
    let expected: BTreeMap<i64, (&str, Option<u16>, bool)> = BTreeMap::from([
        (-32700, ("UNKNOWN_ERROR", None, true)),
        (-32600, ("INVALID_REQUEST", Some(400), true)),
        (-32601, ("METHOD_NOT_FOUND", Some(404), true)),
        (-32602, ("INVALID_PARAMS", Some(400), true)),
        (-32603, ("INTERNAL_ERROR", Some(500), true)),
        (-32001, ("TASK_NOT_FOUND", Some(404), true)),
        (-32002, ("TASK_NOT_CANCELABLE", Some(400), true)),
        (-32003, ("PUSH_NOTIFICATION_NOT_SUPPORTED", Some(400), true)),
        (-32004, ("UNSUPPORTED_OPERATION", Some(400), true)),
        (-32005, ("CONTENT_TYPE_NOT_SUPPORTED", Some(400), true)),
        (-32006, ("INVALID_AGENT_RESPONSE", Some(500), true)),
        (
            -32007,
            ("EXTENDED_AGENT_CARD_NOT_CONFIGURED", Some(400), true),
        ),
        (-32008, ("EXTENSION_SUPPORT_REQUIRED", Some(400), false)),
        (-32009, ("VERSION_NOT_SUPPORTED", Some(400), false)),
    ]);
    assert_eq!(expected.len(), ErrorKind::ALL.len());
    for kind in ErrorKind::ALL {
        let (reason, http, in_v0_3) = expected[&kind.jsonrpc_code()];
        assert_eq!(
            ErrorKind::from_jsonrpc_code(kind.jsonrpc_code()),
            Some(kind)
        );
        assert_eq!((kind.reason(), kind.in_v0_3()), (reason, in_v0_3), "{kind}");
        // A parse error has no REST mapping in the SDK's v0.3 conversions; `errors` gives it 400.
        if let Some(http) = http {
            assert_eq!(kind.http_status(), http, "{kind}");
        }
        // Every v0.3 error type converts to its kind.
        if in_v0_3 {
            let error: v0_3::A2aError = parse(json!({"code": kind.jsonrpc_code(), "message": "m"}));
            assert_eq!(Error::from(error).kind, kind);
        }
    }
    assert_eq!(ErrorKind::TaskNotFound.grpc_code().name(), "NOT_FOUND");
    assert_eq!(
        ErrorKind::InvalidParams.grpc_code().name(),
        "INVALID_ARGUMENT"
    );
    assert_eq!(
        ErrorKind::VersionNotSupported.grpc_code().name(),
        "FAILED_PRECONDITION"
    );

    // The v1 JSON-RPC error object carries the metadata in a google.rpc.ErrorInfo.
    let error = Error::with_message(
        ErrorKind::TaskNotCancelable,
        "Task task-4821 is already completed",
    )
    .with_metadata("taskId", "task-4821");
    let wire = error.to_jsonrpc();
    assert_eq!(
        wire,
        json!({"code": -32002, "message": "Task task-4821 is already completed",
               "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_CANCELABLE",
                         "domain": "a2a-protocol.org", "metadata": {"taskId": "task-4821"}}]})
    );
    assert_eq!(Error::from_jsonrpc(&wire).unwrap(), error);
    // A missing message reads as empty; without `data` the error is bare.
    let bare = Error::from_jsonrpc(&json!({"code": -32001})).unwrap();
    assert_eq!(bare, Error::bare(ErrorKind::TaskNotFound, ""));
    assert!(Error::from_jsonrpc(&json!({"code": -32099, "message": "x"})).is_err());
}
