//! The request and the response of every operation, typed by the operation: what each binding
//! (JSON-RPC, HTTP+JSON, gRPC) reads a request into and writes a response from.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::Operation;
use a2a_types::json::JsonError;

include!("../generated/methods.rs");

/// The result of an RPC returning `google.protobuf.Empty`: written as `{}` (its ProtoJSON); read from
/// `{}` or `null` (the Python SDK answers `DeleteTaskPushNotificationConfig` with `null`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Empty;

impl Serialize for Empty {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Map::new().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Empty {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Unknown members are ignored, as everywhere in ProtoJSON.
        Option::<Map<String, Value>>::deserialize(deserializer).map(|_| Empty)
    }
}

impl MethodParams {
    /// Reads the request of `operation` from its ProtoJSON, as an HTTP+JSON server or a gRPC bridge
    /// holds it outside any JSON-RPC envelope; the error names the field at fault.
    pub fn from_json(operation: Operation, params: Value) -> Result<Self, JsonError> {
        Self::read_params(operation, params).map_err(JsonError::from)
    }
}

impl MethodResult {
    /// Reads the result of `operation` from its ProtoJSON, as an HTTP+JSON client receives it (the
    /// response body, or one server-sent event's data for a streaming operation); the error names
    /// the field at fault.
    ///
    /// ```
    /// use a2a_protocol::operations::MethodResult;
    /// use a2a_protocol::operations::Operation;
    /// use a2a_types::v1::{SendMessageResponse, TaskState};
    ///
    /// let body = serde_json::json!({"task": {"id": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}}});
    /// let MethodResult::SendMessage(SendMessageResponse::Task(task)) =
    ///     MethodResult::from_json(Operation::SendMessage, body).unwrap()
    /// else {
    ///     panic!("a task")
    /// };
    /// assert_eq!(task.status.state, TaskState::Completed);
    ///
    /// let wrong = serde_json::json!({"tasks": [{"id": 7}]});
    /// let error = MethodResult::from_json(Operation::ListTasks, wrong).unwrap_err();
    /// assert_eq!(error.path(), "tasks[0].id");
    /// ```
    pub fn from_json(operation: Operation, result: Value) -> Result<Self, JsonError> {
        Self::read_result(operation, result).map_err(JsonError::from)
    }
}

/// Reads a generated message with the failing path recorded.
pub(crate) fn read<T: DeserializeOwned>(
    value: Value,
) -> Result<T, serde_path_to_error::Error<serde_json::Error>> {
    serde_path_to_error::deserialize(value)
}

/// Writes a generated message; its serde cannot fail (string keys, no fallible serializers).
pub(crate) fn write<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("A2A messages always serialize to JSON")
}
