//! A2A v0.3 agents through the bridge: the same v1 calls, sent as v0.3 JSON-RPC (`message/send`,
//! `tasks/get`, ...), their results, stream events and errors converted back to v1 with
//! [`a2a_types::bridge`]. Every call of the bridge is in this module.
//!
//! What cannot cross is refused with [`ClientError::NotConvertible`] naming the field, never dropped
//! silently: before a request is sent it is downgraded and upgraded again, and any field whose value
//! does not come back (a `tenant`, a part's `mediaType` or `filename` on text and data parts, the
//! paging of `ListTaskPushNotificationConfigs`) is reported. Differences that carry no information
//! (an empty value written or left out, `5.0` read back as `5`) are not losses. `ListTasks` has no
//! v0.3 method at all. Results lose only what v1 has no place for (a status update's `final`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use a2a_types::bridge;
use a2a_types::errors::Error;
use a2a_types::jsonrpc::{MethodParams, MethodResult};
use a2a_types::limits::Limits;
use a2a_types::operations::Operation;
use a2a_types::service;
use a2a_types::v0_3;
use a2a_types::v1::StreamResponse;
use serde_json::Value;

use crate::client::CallMeta;
use crate::http::{Common, read_json, send};
use crate::stream::{EventStream, SseKind};
use crate::{Binding, ClientError};

const JSONRPC: Binding = Binding::JsonRpc;

/// JSON-RPC 2.0 to a v0.3 agent.
#[derive(Clone, Debug)]
pub(crate) struct JsonRpcV0_3Transport {
    common: Common,
    next_id: Arc<AtomicI64>,
}

impl JsonRpcV0_3Transport {
    pub(crate) fn new(http: reqwest::Client, url: &str, limits: Limits) -> Self {
        JsonRpcV0_3Transport {
            common: Common::new(http, url, limits),
            next_id: Arc::new(AtomicI64::new(1)),
        }
    }

    /// The v0.3 request for `params`, or what would not survive.
    fn downgrade(
        &self,
        params: MethodParams,
    ) -> Result<(Operation, v0_3::A2aRequest), ClientError> {
        let operation = params.operation();
        let name = operation.jsonrpc_method();
        if operation.v0_3_method().is_none() {
            return Err(ClientError::NotConvertible {
                message: format!("{name} has no A2A v0.3 counterpart"),
            });
        }
        let original = params.to_json();
        let id = v0_3::JsonRpcId::Number(self.next_id.fetch_add(1, Ordering::Relaxed));
        let downgraded = bridge::downgrade_request(id, params).map_err(not_convertible)?;
        let (_, back) = bridge::upgrade_request(downgraded.clone()).map_err(not_convertible)?;
        let mut lost = Vec::new();
        losses(&original, &back.to_json(), "params", &mut lost);
        if !lost.is_empty() {
            return Err(ClientError::NotConvertible {
                message: format!("{name} to an A2A v0.3 agent would lose {}", lost.join(", ")),
            });
        }
        Ok((operation, downgraded))
    }

    fn post(
        &self,
        request: &v0_3::A2aRequest,
        meta: &CallMeta,
    ) -> Result<reqwest::RequestBuilder, ClientError> {
        let body = serde_json::to_string(request).map_err(|e| ClientError::InvalidRequest {
            message: format!("the v0.3 request: {e}"),
        })?;
        Ok(self
            .common
            .request(reqwest::Method::POST, self.common.base_url(), meta)
            .header(reqwest::header::CONTENT_TYPE, service::MEDIA_TYPE_JSON)
            .body(body))
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<MethodResult, ClientError> {
        let (method, request) = self.downgrade(params)?;
        let response = send(JSONRPC, self.common.base_url(), self.post(&request, meta)?).await?;
        let (status, json) = read_json(JSONRPC, response, self.common.limits()).await?;
        if !(200..300).contains(&status) && json.get("error").is_none() {
            return Err(ClientError::transport(
                Some(JSONRPC),
                format!(
                    "HTTP {status}: {}",
                    a2a_types::json::bounded(&json.to_string())
                ),
            ));
        }
        read_response(method, &json)
    }

    pub(crate) async fn stream(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        let (method, request) = self.downgrade(params)?;
        let request = self
            .post(&request, meta)?
            .header(reqwest::header::ACCEPT, service::MEDIA_TYPE_EVENT_STREAM);
        let response = send(JSONRPC, self.common.base_url(), request).await?;
        let status = response.status().as_u16();
        let is_stream = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with(service::MEDIA_TYPE_EVENT_STREAM));
        if is_stream && (200..300).contains(&status) {
            return Ok(EventStream::sse(
                JSONRPC,
                response,
                SseKind::JsonRpcV0_3(a2a_types::sse::JsonDecoder::with_limits(
                    *self.common.limits(),
                )),
            ));
        }
        let (_, json) = read_json(JSONRPC, response, self.common.limits()).await?;
        read_response(method, &json)?;
        Err(ClientError::invalid(
            Some(JSONRPC),
            format!(
                "asked for a stream of {}, got one result as JSON",
                method.jsonrpc_method()
            ),
        ))
    }
}

fn not_convertible(error: bridge::BridgeError) -> ClientError {
    // The bridge's message names the path and what does not survive.
    ClientError::NotConvertible {
        message: error.to_string(),
    }
}

/// A v0.3 JSON-RPC response to `method` as the v1 result, or the A2A error it carries.
fn read_response(operation: Operation, json: &Value) -> Result<MethodResult, ClientError> {
    if let Some(error) = json.get("error").filter(|e| !e.is_null()) {
        return Err(match Error::from_jsonrpc(error) {
            Ok(error) => ClientError::A2a {
                binding: JSONRPC,
                error,
            },
            Err(e) => ClientError::invalid(Some(JSONRPC), format!("the v0.3 error: {e}")),
        });
    }
    let response: v0_3::JsonRpcResponse =
        a2a_types::json::from_value(json.clone()).map_err(|e| {
            ClientError::invalid(Some(JSONRPC), format!("not a v0.3 JSON-RPC response: {e}"))
        })?;
    bridge::upgrade_response(operation, response).map_err(|e| {
        ClientError::invalid(
            Some(JSONRPC),
            format!(
                "the v0.3 result of {}: {}",
                operation.jsonrpc_method(),
                not_convertible(e)
            ),
        )
    })
}

/// One event of a v0.3 stream (a JSON-RPC response each) as the v1 event, or the error it carries.
pub(crate) fn stream_event(json: &Value) -> Result<StreamResponse, ClientError> {
    match read_response(Operation::SendStreamingMessage, json)? {
        MethodResult::SendStreamingMessage(event) => Ok(event),
        other => Err(ClientError::invalid(
            Some(JSONRPC),
            format!("an event of {} in a stream", other.operation()),
        )),
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

    fn transport() -> JsonRpcV0_3Transport {
        JsonRpcV0_3Transport::new(
            reqwest::Client::new(),
            "http://127.0.0.1:9/",
            Limits::default(),
        )
    }

    #[test]
    fn a_plain_message_downgrades_to_message_send() {
        let request = SendMessageRequest {
            message: Message::user("m-1", [Part::text("Book a table")]),
            ..Default::default()
        };
        let (method, downgraded) = transport()
            .downgrade(MethodParams::SendMessage(request))
            .expect("convertible");
        assert_eq!(method, Operation::SendMessage);
        let json = serde_json::to_value(&downgraded).expect("json");
        assert_eq!(json["method"], "message/send");
        assert_eq!(json["params"]["message"]["parts"][0]["kind"], "text");
    }

    #[test]
    fn what_v0_3_cannot_carry_is_refused_by_name() {
        let tenant = MethodParams::GetTask(a2a_types::v1::GetTaskRequest {
            id: "t-1".into(),
            tenant: Some("acme".into()),
            ..Default::default()
        });
        let error = transport().downgrade(tenant).unwrap_err();
        assert!(error.to_string().contains("`params.tenant`"), "{error}");

        let mut part = Part::text("hi");
        part.media_type = Some("text/markdown".into());
        let media = MethodParams::SendMessage(SendMessageRequest {
            message: Message::user("m-1", [part]),
            ..Default::default()
        });
        let error = transport().downgrade(media).unwrap_err();
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
        let error = transport().downgrade(paged).unwrap_err();
        assert!(error.to_string().contains("`params.pageSize`"), "{error}");

        let list = MethodParams::ListTasks(ListTasksRequest::default());
        assert!(matches!(
            transport().downgrade(list),
            Err(ClientError::NotConvertible { .. })
        ));
    }

    #[test]
    fn a_v0_3_error_is_the_same_a2a_error_kind() {
        let json = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}});
        let error = read_response(Operation::GetTask, &json).unwrap_err();
        assert_eq!(
            error.a2a_kind(),
            Some(a2a_types::errors::ErrorKind::TaskNotFound),
            "{error}"
        );
    }
}
