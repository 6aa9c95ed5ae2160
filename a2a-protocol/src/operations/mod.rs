//! The operations of A2A v1 as data: what each RPC of `lf.a2a.v1.A2AService` is called in every
//! binding, where the HTTP+JSON binding serves it, what it takes and returns, and which agent capability
//! it needs.
//!
//! The table is generated from the proto's service and its `google.api.http` options, so it follows the
//! spec: the method mapping of the spec's section 5.3, the JSON-RPC method names of section 9.1 (the
//! RPC's own name), the gRPC paths of section 10, and the URL patterns of section 11.3 (the proto is
//! normative where the prose differs). A server finds the operation a request is for with
//! [`Operation::from_jsonrpc_method`], [`Operation::from_grpc_path`] or
//! [`Operation::from_v0_3_method`]:
//!
//! ```
//! use a2a_protocol::operations::{Capability, Operation};
//!
//! let op = Operation::from_jsonrpc_method("SubscribeToTask").unwrap();
//! let info = op.info();
//! assert!(info.server_streaming);
//! assert_eq!(info.capability, Some(Capability::Streaming));
//! assert_eq!(info.grpc_path, "/lf.a2a.v1.A2AService/SubscribeToTask");
//! assert_eq!(info.http[0].method, "GET");
//! assert_eq!(info.http[0].path, "/tasks/{id=*}:subscribe");
//! assert_eq!(info.v0_3_method, Some("tasks/resubscribe"));
//! ```

use crate::errors::ErrorKind;
use crate::service::ProtocolVersion;
use a2a_types::v1::AgentCapabilities;

include!("../generated/operations.rs");

pub(crate) mod methods;
pub use methods::{Empty, MethodParams, MethodResult};

/// One RPC of the service, as the proto declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct OperationInfo {
    /// Which operation this is.
    pub operation: Operation,
    /// The RPC's name in the proto, e.g. `SendMessage`.
    pub rpc_name: &'static str,
    /// The JSON-RPC `method` (spec section 9.1: the same PascalCase name as the RPC).
    pub jsonrpc_method: &'static str,
    /// The method a v0.3 client calls for the same thing (`message/send`), if v0.3 had it.
    pub v0_3_method: Option<&'static str>,
    /// The gRPC path, `/lf.a2a.v1.A2AService/SendMessage`.
    pub grpc_path: &'static str,
    /// The HTTP+JSON bindings: the main one first, then its `additional_bindings` (the `{tenant}`
    /// variants).
    pub http: &'static [HttpBinding],
    /// Full proto name of the request message, `lf.a2a.v1.SendMessageRequest`.
    pub request_type: &'static str,
    /// The Rust type of the request, `a2a_types::v1::SendMessageRequest`.
    pub request_rust_type: &'static str,
    /// Full proto name of the response message (of each streamed event when streaming).
    pub response_type: &'static str,
    /// The Rust type of the response, `a2a_types::v1::SendMessageResponse`.
    pub response_rust_type: &'static str,
    /// Whether the response is a stream (Server-Sent Events over HTTP, a server stream in gRPC).
    pub server_streaming: bool,
    /// Whether the request is a stream (no A2A v1 RPC is).
    pub client_streaming: bool,
    /// The capability the agent card must declare for the operation to be available.
    pub capability: Option<Capability>,
}

/// One `google.api.HttpRule` of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpBinding {
    /// The HTTP method, upper case (`GET`, `POST`, `DELETE`, ...).
    pub method: &'static str,
    /// The path template, with `{field=*}` segments naming request fields, e.g. `/tasks/{id=*}`.
    pub path: &'static str,
    /// Which request field the body holds: `*` for the whole request, empty when there is no body
    /// (every other field then comes from the path or the query string, spec section 11.5).
    pub body: &'static str,
    /// Which response field the body holds; empty for the whole response.
    pub response_body: &'static str,
}

impl HttpBinding {
    /// The request fields bound in the path, in order: `["tenant", "task_id", "id"]` for
    /// `/{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}`.
    pub fn path_fields(&self) -> Vec<&'static str> {
        self.path
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split('}').next())
            .map(|variable| variable.split('=').next().unwrap_or(variable))
            .collect()
    }
}

/// An optional capability of `AgentCapabilities` that some operations need (spec section 3.3.4).
///
/// The generator derives it from the proto: a streamed response needs [`Capability::Streaming`], an
/// RPC on `TaskPushNotificationConfig` needs [`Capability::PushNotifications`], and the RPC answering
/// with an `AgentCard` needs [`Capability::ExtendedAgentCard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Capability {
    /// `capabilities.streaming`.
    Streaming,
    /// `capabilities.pushNotifications`.
    PushNotifications,
    /// `capabilities.extendedAgentCard`.
    ExtendedAgentCard,
}

impl Capability {
    /// Whether the capabilities declare it; absent counts as not declared (spec section 3.3.4).
    pub fn is_declared(self, capabilities: &AgentCapabilities) -> bool {
        let declared = match self {
            Capability::Streaming => capabilities.streaming,
            Capability::PushNotifications => capabilities.push_notifications,
            Capability::ExtendedAgentCard => capabilities.extended_agent_card,
        };
        declared == Some(true)
    }

    /// The error an agent must answer when a client uses the capability without the agent declaring
    /// it (spec section 3.3.4): push notifications have their own error, the rest are unsupported
    /// operations.
    pub fn not_declared_error(self) -> ErrorKind {
        match self {
            Capability::PushNotifications => ErrorKind::PushNotificationNotSupported,
            Capability::Streaming | Capability::ExtendedAgentCard => {
                ErrorKind::UnsupportedOperation
            }
        }
    }
}

impl Operation {
    /// Every operation, in the proto's order.
    pub fn all() -> impl Iterator<Item = Operation> {
        OPERATIONS.iter().map(|info| info.operation)
    }

    /// The operation a v1 JSON-RPC `method` names; `None` for anything else (a v0.3 method included).
    pub fn from_jsonrpc_method(method: &str) -> Option<Operation> {
        Self::find(|info| info.jsonrpc_method == method)
    }

    /// The operation of a gRPC path such as `/lf.a2a.v1.A2AService/GetTask`.
    pub fn from_grpc_path(path: &str) -> Option<Operation> {
        Self::find(|info| info.grpc_path == path)
    }

    /// The v1 operation that continues the v0.3 JSON-RPC method `method` (`tasks/get` is `GetTask`).
    pub fn from_v0_3_method(method: &str) -> Option<Operation> {
        Self::find(|info| info.v0_3_method == Some(method))
    }

    /// The operation a JSON-RPC `method` of either version names, with the version the name belongs
    /// to: v1's names (`SendMessage`) and v0.3's (`message/send`) are disjoint, so the name tells the
    /// version the caller speaks (as the official SDK routes requests).
    pub fn from_any_jsonrpc_method(method: &str) -> Option<(Operation, ProtocolVersion)> {
        Self::from_jsonrpc_method(method)
            .map(|op| (op, ProtocolVersion::V1_0))
            .or_else(|| Self::from_v0_3_method(method).map(|op| (op, ProtocolVersion::V0_3)))
    }

    /// The JSON-RPC method name.
    pub fn jsonrpc_method(self) -> &'static str {
        self.info().jsonrpc_method
    }

    /// The v0.3 JSON-RPC method for the same thing (`message/send`); `None` where v0.3 had none
    /// (`ListTasks`).
    pub fn v0_3_method(self) -> Option<&'static str> {
        self.info().v0_3_method
    }

    /// Whether the answer is a stream of events.
    pub fn is_streaming(self) -> bool {
        self.info().server_streaming
    }

    /// Checks that the agent declares the capability this operation needs, answering with the error
    /// the spec prescribes when it does not (section 3.3.4).
    pub fn check_capabilities(self, capabilities: &AgentCapabilities) -> Result<(), ErrorKind> {
        match self.info().capability {
            Some(capability) if !capability.is_declared(capabilities) => {
                Err(capability.not_declared_error())
            }
            _ => Ok(()),
        }
    }

    fn find(matches: impl Fn(&OperationInfo) -> bool) -> Option<Operation> {
        OPERATIONS
            .iter()
            .find(|info| matches(info))
            .map(|info| info.operation)
    }
}

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.info().rpc_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_agree_with_each_other() {
        for op in Operation::all() {
            let info = op.info();
            assert_eq!(info.operation, op);
            assert_eq!(
                Operation::from_jsonrpc_method(info.jsonrpc_method),
                Some(op)
            );
            assert_eq!(Operation::from_grpc_path(info.grpc_path), Some(op));
            if let Some(method) = info.v0_3_method {
                assert_eq!(Operation::from_v0_3_method(method), Some(op));
            }
        }
        assert_eq!(Operation::from_jsonrpc_method("message/send"), None);
        assert_eq!(
            Operation::from_v0_3_method("message/send"),
            Some(Operation::SendMessage)
        );
        assert_eq!(Operation::from_v0_3_method("tasks/list"), None);
        assert_eq!(
            Operation::from_any_jsonrpc_method("message/send"),
            Some((Operation::SendMessage, ProtocolVersion::V0_3))
        );
        assert_eq!(
            Operation::from_any_jsonrpc_method("SendMessage"),
            Some((Operation::SendMessage, ProtocolVersion::V1_0))
        );
        assert_eq!(Operation::from_any_jsonrpc_method("sendMessage"), None);
        assert_eq!(Operation::ListTasks.v0_3_method(), None);
        assert!(Operation::SubscribeToTask.is_streaming() && !Operation::GetTask.is_streaming());
        assert_eq!(
            Operation::from_grpc_path("/a2a.v1.A2AService/GetTask"),
            None
        );
    }

    #[test]
    fn path_fields_follow_the_template() {
        let info = Operation::DeleteTaskPushNotificationConfig.info();
        assert_eq!(info.http[0].path_fields(), ["task_id", "id"]);
        assert_eq!(info.http[1].path_fields(), ["tenant", "task_id", "id"]);
        assert!(Operation::ListTasks.info().http[0].path_fields().is_empty());
    }

    #[test]
    fn capabilities_gate_operations_as_the_spec_says() {
        let none = AgentCapabilities::default();
        let all = AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(true),
            extended_agent_card: Some(true),
            ..Default::default()
        };
        assert_eq!(
            Operation::SendStreamingMessage.check_capabilities(&none),
            Err(ErrorKind::UnsupportedOperation)
        );
        assert_eq!(
            Operation::GetExtendedAgentCard.check_capabilities(&none),
            Err(ErrorKind::UnsupportedOperation)
        );
        assert_eq!(
            Operation::ListTaskPushNotificationConfigs.check_capabilities(&none),
            Err(ErrorKind::PushNotificationNotSupported)
        );
        assert_eq!(Operation::SendMessage.check_capabilities(&none), Ok(()));
        for op in Operation::all() {
            assert_eq!(op.check_capabilities(&all), Ok(()), "{op}");
        }
        let streaming_off = AgentCapabilities {
            streaming: Some(false),
            ..all.clone()
        };
        assert!(
            Operation::SubscribeToTask
                .check_capabilities(&streaming_off)
                .is_err()
        );
    }
}
