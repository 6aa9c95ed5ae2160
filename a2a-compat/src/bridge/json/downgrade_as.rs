//! [`downgrade_json_as`]: a v1 message written as the v0.3 schema type the caller names, for the
//! types that have more than one v0.3 form (a request message as its JSON-RPC request, a result as
//! its success response, a union member as that member).

use serde_json::Value;

use super::{convert, downgrade_json, read, write};
use crate::bridge::{BridgeError, BridgeErrorKind};
use a2a_types::v1;

use crate::v0_3;

/// v1 request messages and the v0.3 JSON-RPC requests they become, with the method.
const REQUEST_ENVELOPES: &[(&str, &str, &str)] = &[
    (
        "lf.a2a.v1.SendMessageRequest",
        "SendMessageRequest",
        "message/send",
    ),
    (
        "lf.a2a.v1.SendMessageRequest",
        "SendStreamingMessageRequest",
        "message/stream",
    ),
    ("lf.a2a.v1.GetTaskRequest", "GetTaskRequest", "tasks/get"),
    (
        "lf.a2a.v1.CancelTaskRequest",
        "CancelTaskRequest",
        "tasks/cancel",
    ),
    (
        "lf.a2a.v1.TaskPushNotificationConfig",
        "SetTaskPushNotificationConfigRequest",
        "tasks/pushNotificationConfig/set",
    ),
    (
        "lf.a2a.v1.GetTaskPushNotificationConfigRequest",
        "GetTaskPushNotificationConfigRequest",
        "tasks/pushNotificationConfig/get",
    ),
    (
        "lf.a2a.v1.ListTaskPushNotificationConfigsRequest",
        "ListTaskPushNotificationConfigRequest",
        "tasks/pushNotificationConfig/list",
    ),
    (
        "lf.a2a.v1.DeleteTaskPushNotificationConfigRequest",
        "DeleteTaskPushNotificationConfigRequest",
        "tasks/pushNotificationConfig/delete",
    ),
    (
        "lf.a2a.v1.SubscribeToTaskRequest",
        "TaskResubscriptionRequest",
        "tasks/resubscribe",
    ),
    (
        "lf.a2a.v1.GetExtendedAgentCardRequest",
        "GetAuthenticatedExtendedCardRequest",
        "agent/getAuthenticatedExtendedCard",
    ),
];

/// v1 results and the v0.3 success responses (and per-method response unions) that carry them.
const RESULT_ENVELOPES: &[(&str, &[&str])] = &[
    (
        "lf.a2a.v1.SendMessageResponse",
        &["SendMessageSuccessResponse", "SendMessageResponse"],
    ),
    (
        "lf.a2a.v1.StreamResponse",
        &[
            "SendStreamingMessageSuccessResponse",
            "SendStreamingMessageResponse",
        ],
    ),
    (
        "lf.a2a.v1.ListTaskPushNotificationConfigsResponse",
        &[
            "ListTaskPushNotificationConfigSuccessResponse",
            "ListTaskPushNotificationConfigResponse",
        ],
    ),
    (
        "lf.a2a.v1.Task",
        &[
            "GetTaskSuccessResponse",
            "GetTaskResponse",
            "CancelTaskSuccessResponse",
            "CancelTaskResponse",
        ],
    ),
    (
        "lf.a2a.v1.TaskPushNotificationConfig",
        &[
            "SetTaskPushNotificationConfigSuccessResponse",
            "SetTaskPushNotificationConfigResponse",
            "GetTaskPushNotificationConfigSuccessResponse",
            "GetTaskPushNotificationConfigResponse",
        ],
    ),
    (
        "lf.a2a.v1.AgentCard",
        &[
            "GetAuthenticatedExtendedCardSuccessResponse",
            "GetAuthenticatedExtendedCardResponse",
        ],
    ),
];

/// Union members [`downgrade_json_as`] can pick: the v1 message, the v0.3 member type, the member's
/// `kind` or `type`.
const MEMBERS: &[(&str, &str, &str, &str)] = &[
    ("lf.a2a.v1.Part", "TextPart", "kind", "text"),
    ("lf.a2a.v1.Part", "FilePart", "kind", "file"),
    ("lf.a2a.v1.Part", "DataPart", "kind", "data"),
    (
        "lf.a2a.v1.SecurityScheme",
        "APIKeySecurityScheme",
        "type",
        "apiKey",
    ),
    (
        "lf.a2a.v1.SecurityScheme",
        "HTTPAuthSecurityScheme",
        "type",
        "http",
    ),
    (
        "lf.a2a.v1.SecurityScheme",
        "OAuth2SecurityScheme",
        "type",
        "oauth2",
    ),
    (
        "lf.a2a.v1.SecurityScheme",
        "OpenIdConnectSecurityScheme",
        "type",
        "openIdConnect",
    ),
    (
        "lf.a2a.v1.SecurityScheme",
        "MutualTLSSecurityScheme",
        "type",
        "mutualTLS",
    ),
];

/// Like [`downgrade_json`], but to the v0.3 schema type of the caller's choice where one v1 message has
/// several v0.3 forms:
///
/// - a request message to its whole JSON-RPC request (`lf.a2a.v1.SendMessageRequest` to
///   `SendMessageRequest` or `SendStreamingMessageRequest`, ..., `lf.a2a.v1.GetExtendedAgentCardRequest`
///   to `GetAuthenticatedExtendedCardRequest`), which needs `request_id`;
/// - a result to its method's success response or response union (`lf.a2a.v1.Task` to
///   `GetTaskSuccessResponse`, `CancelTaskResponse`, ...), with `request_id` as `id` (null without);
/// - `lf.a2a.v1.TaskPushNotificationConfig` to `PushNotificationConfig` (dropping the task id);
/// - a `Part` or `SecurityScheme` to the member type its content is (`TextPart`, `APIKeySecurityScheme`,
///   ...); another member fails.
///
/// Any pair of [`DOWNGRADES`](super::DOWNGRADES) works too (ignoring `request_id`). Other pairs fail with
/// [`BridgeErrorKind::NoCounterpart`].
///
/// ```
/// use a2a_compat::bridge::downgrade_json_as;
/// use serde_json::json;
///
/// let v0_3 = downgrade_json_as("lf.a2a.v1.GetTaskRequest", json!({"id": "task-1", "historyLength": 3}),
///                              "GetTaskRequest", Some(7.into())).unwrap();
/// assert_eq!(v0_3, json!({"jsonrpc": "2.0", "id": 7, "method": "tasks/get",
///                         "params": {"id": "task-1", "historyLength": 3}}));
/// ```
pub fn downgrade_json_as(
    v1_full_name: &str,
    v1_json: Value,
    v0_3_schema_type: &str,
    request_id: Option<v0_3::JsonRpcId>,
) -> Result<Value, BridgeError> {
    let unsupported = || {
        BridgeError::new(BridgeErrorKind::NoCounterpart {
            name: format!("{v1_full_name} as {v0_3_schema_type}"),
            reason: "no conversion between these two types",
        })
    };
    if let Some((_, _, method)) = REQUEST_ENVELOPES
        .iter()
        .find(|(v1, v0_3, _)| *v1 == v1_full_name && *v0_3 == v0_3_schema_type)
    {
        let id = request_id.ok_or_else(|| {
            BridgeError::new(BridgeErrorKind::NoCounterpart {
                name: v0_3_schema_type.to_owned(),
                reason: "a JSON-RPC request needs the request id, which v1 messages do not carry",
            })
        })?;
        let mut request = serde_json::Map::new();
        request.insert("jsonrpc".to_owned(), Value::from("2.0"));
        request.insert("id".to_owned(), write("id", &id)?);
        request.insert("method".to_owned(), Value::from(*method));
        if v1_full_name == "lf.a2a.v1.GetExtendedAgentCardRequest" {
            read::<v1::GetExtendedAgentCardRequest>(v1_full_name, v1_json.into())?;
        } else {
            let (_, params) = downgrade_json(v1_full_name, v1_json)?;
            request.insert("params".to_owned(), params);
        }
        return normalize(v0_3_schema_type, Value::Object(request));
    }
    if v1_full_name == "lf.a2a.v1.TaskPushNotificationConfig"
        && v0_3_schema_type == "PushNotificationConfig"
    {
        return convert::<v1::TaskPushNotificationConfig, v0_3::PushNotificationConfig>(
            v1_full_name,
            "PushNotificationConfig",
            v1_json.into(),
        )
        .and_then(|(name, json)| json.into_value(name));
    }
    let (default_type, json) = downgrade_json(v1_full_name, v1_json)?;
    if let Some((_, _)) = RESULT_ENVELOPES
        .iter()
        .find(|(v1, envelopes)| *v1 == v1_full_name && envelopes.contains(&v0_3_schema_type))
    {
        let mut response = match json {
            // The result is already a success response (SendMessageResponse and the like).
            Value::Object(object) if default_type.ends_with("SuccessResponse") => object,
            result => {
                let mut object = serde_json::Map::new();
                object.insert("jsonrpc".to_owned(), Value::from("2.0"));
                object.insert("result".to_owned(), result);
                object
            }
        };
        if let Some(id) = request_id {
            response.insert("id".to_owned(), write("id", &id)?);
        }
        return normalize(v0_3_schema_type, Value::Object(response));
    }
    if default_type == v0_3_schema_type {
        return Ok(json);
    }
    if let Some((_, _, key, value)) = MEMBERS
        .iter()
        .find(|(v1, v0_3, _, _)| *v1 == v1_full_name && *v0_3 == v0_3_schema_type)
    {
        if json.get(*key).and_then(Value::as_str) != Some(*value) {
            return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
                name: format!("{v1_full_name} as {v0_3_schema_type}"),
                reason: "the value converts to another member of the union",
            }));
        }
        return normalize(v0_3_schema_type, json);
    }
    Err(unsupported())
}

/// Reads the JSON as the v0.3 type and writes it back: checks it, and writes it as the type does.
fn normalize(schema_type: &str, json: Value) -> Result<Value, BridgeError> {
    struct Normalize(Value);
    impl a2a_types::registry::SchemaTypeVisitor for Normalize {
        type Output = Result<Value, serde_json::Error>;
        fn visit<T: a2a_types::registry::SchemaType>(self) -> Self::Output {
            serde_json::to_value(serde_json::from_value::<T>(self.0)?)
        }
    }
    v0_3::visit_schema_type(schema_type, Normalize(json))
        .ok_or_else(|| {
            BridgeError::new(BridgeErrorKind::UnknownType {
                name: schema_type.to_owned(),
            })
        })?
        .map_err(|e| {
            BridgeError::new(BridgeErrorKind::InvalidJson {
                type_name: schema_type.to_owned(),
                message: e.to_string(),
            })
        })
}
