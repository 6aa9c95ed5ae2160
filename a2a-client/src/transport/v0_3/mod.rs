//! A2A v0.3 agents through the bridge, on all three bindings: the same v1 calls, downgraded with
//! [`a2a_compat::bridge`] to v0.3 requests and sent as v0.3 JSON-RPC ([`jsonrpc`]), v0.3 HTTP+JSON
//! ([`rest`], the `google.api.http` paths of `a2a.v1.A2AService` with ProtoJSON bodies) or v0.3 gRPC
//! ([`grpc`], `a2a.v1.A2AService`); results, stream events and errors come back upgraded to v1.
//! Every call of the bridge is in this module (and, for v0.2 and v0.1 agents, in
//! [`super::older`]).
//!
//! What cannot cross is refused with [`ClientError::NotConvertible`] naming the field, never dropped
//! silently: before a request is sent it is downgraded and upgraded again, and any field whose value
//! does not come back (a `tenant`, a part's `mediaType` or `filename` on text and data parts, the
//! paging of `ListTaskPushNotificationConfigs`) is reported. On HTTP+JSON and gRPC the v0.3 request
//! is also turned into its `a2a.v1` protobuf message and back ([`proto`]), so what the protobuf form
//! has no field for (the `metadata` of `tasks/cancel`, say) is refused the same way. Differences that
//! carry no information (an empty value written or left out, `5.0` read back as `5`) are not losses.
//! `ListTasks` has no v0.3 method at all. Results lose only what v1 has no place for (a status
//! update's `final`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use a2a_compat::bridge;
use a2a_compat::v0_3;
use a2a_protocol::operations::MethodParams;
use a2a_protocol::operations::Operation;
use serde_json::Value;

use crate::ClientError;

pub(crate) mod errors;
pub(crate) mod grpc;
pub(crate) mod jsonrpc;
pub(crate) mod proto;
pub(crate) mod rest;

/// Turns v1 params into v0.3 requests, numbering them, and refuses what would not survive.
#[derive(Clone, Debug)]
pub(crate) struct Downgrader {
    next_id: Arc<AtomicI64>,
}

impl Downgrader {
    pub(crate) fn new() -> Self {
        Downgrader {
            next_id: Arc::new(AtomicI64::new(1)),
        }
    }

    /// The v0.3 JSON-RPC request for `params`, or what would not survive.
    pub(crate) fn downgrade(
        &self,
        params: MethodParams,
    ) -> Result<(Operation, v0_3::A2aRequest), ClientError> {
        let operation = params.operation();
        let original = params.to_json();
        let downgraded = self.convert(params)?;
        let (_, back) = bridge::upgrade_request(downgraded.clone()).map_err(not_convertible)?;
        refuse_losses(
            operation.jsonrpc_method(),
            &original,
            &back.to_json(),
            "an A2A v0.3 agent",
        )?;
        Ok((operation, downgraded))
    }

    /// The v0.3 JSON-RPC request for `params`, numbered, unchecked for losses: the first step down
    /// for the older versions, which check the whole way ([`super::v0_1`]).
    pub(crate) fn convert(&self, params: MethodParams) -> Result<v0_3::A2aRequest, ClientError> {
        let operation = params.operation();
        if operation.v0_3_method().is_none() {
            return Err(ClientError::NotConvertible {
                message: format!("{} has no A2A v0.3 counterpart", operation.jsonrpc_method()),
            });
        }
        let id = v0_3::JsonRpcId::Number(self.next_id.fetch_add(1, Ordering::Relaxed));
        bridge::downgrade_request(id, params).map_err(not_convertible)
    }
}

/// Fails naming every path of `original` that `back` does not carry.
pub(crate) fn refuse_losses(
    method: &str,
    original: &Value,
    back: &Value,
    to: &str,
) -> Result<(), ClientError> {
    let mut lost = Vec::new();
    losses(original, back, "params", &mut lost);
    if lost.is_empty() {
        Ok(())
    } else {
        Err(ClientError::NotConvertible {
            message: format!("{method} to {to} would lose {}", lost.join(", ")),
        })
    }
}

pub(crate) fn not_convertible(error: bridge::BridgeError) -> ClientError {
    // The bridge's message names the path and what does not survive.
    ClientError::NotConvertible {
        message: error.to_string(),
    }
}

/// Whether a JSON value says nothing: absent and these read the same on both sides of the bridge.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(is_empty),
    }
}

/// The paths of `original` whose value `back` does not carry.
fn losses(original: &Value, back: &Value, path: &str, out: &mut Vec<String>) {
    match (original, back) {
        (Value::Object(original), Value::Object(back)) => {
            for (key, value) in original {
                let inner = format!("{path}.{key}");
                match back.get(key) {
                    Some(other) => losses(value, other, &inner, out),
                    None if is_empty(value) => {}
                    // An object of fields lost whole: name the fields it held (a `metadata`
                    // map's keys are data, not fields: the map is named).
                    None if value.is_object() && key != "metadata" => {
                        losses(value, &Value::Object(Default::default()), &inner, out)
                    }
                    None => out.push(format!("`{inner}`")),
                }
            }
        }
        (Value::Array(original), Value::Array(back)) => {
            for (index, value) in original.iter().enumerate() {
                let inner = format!("{path}[{index}]");
                match back.get(index) {
                    Some(other) => losses(value, other, &inner, out),
                    None => out.push(format!("`{inner}`")),
                }
            }
        }
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => {}
        (a, b) if a == b => {}
        (a, _) if is_empty(a) => {}
        _ => out.push(format!("`{path}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{
        ListTaskPushNotificationConfigsRequest, ListTasksRequest, Message, Part, SendMessageRequest,
    };

    #[test]
    fn a_plain_message_downgrades_to_message_send() {
        let request = SendMessageRequest {
            message: Message::user("m-1", [Part::text("Book a table")]),
            ..Default::default()
        };
        let (method, downgraded) = Downgrader::new()
            .downgrade(MethodParams::SendMessage(request))
            .expect("convertible");
        assert_eq!(method, Operation::SendMessage);
        let json = serde_json::to_value(&downgraded).expect("json");
        assert_eq!(json["method"], "message/send");
        assert_eq!(json["params"]["message"]["parts"][0]["kind"], "text");
    }

    #[test]
    fn what_v0_3_cannot_carry_is_refused_by_name() {
        let downgrader = Downgrader::new();
        let tenant = MethodParams::GetTask(a2a_types::v1::GetTaskRequest {
            id: "t-1".into(),
            tenant: Some("acme".into()),
            ..Default::default()
        });
        let error = downgrader.downgrade(tenant).unwrap_err();
        assert!(error.to_string().contains("`params.tenant`"), "{error}");

        let mut part = Part::text("hi");
        part.media_type = Some("text/markdown".into());
        let media = MethodParams::SendMessage(SendMessageRequest {
            message: Message::user("m-1", [part]),
            ..Default::default()
        });
        let error = downgrader.downgrade(media).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`params.message.parts[0].mediaType`"),
            "{error}"
        );

        let paged =
            MethodParams::ListTaskPushNotificationConfigs(ListTaskPushNotificationConfigsRequest {
                task_id: "t-1".into(),
                page_size: Some(5),
                ..Default::default()
            });
        let error = downgrader.downgrade(paged).unwrap_err();
        assert!(error.to_string().contains("`params.pageSize`"), "{error}");

        let list = MethodParams::ListTasks(ListTasksRequest::default());
        assert!(matches!(
            downgrader.downgrade(list),
            Err(ClientError::NotConvertible { .. })
        ));
    }
}
