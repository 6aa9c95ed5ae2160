//! The JSON-RPC binding: one `POST` per call to the interface URL, a JSON-RPC envelope each way; a
//! stream is server-sent events of JSON-RPC responses.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use a2a_protocol::jsonrpc::{JsonRpcRequest, JsonRpcResponse};
use a2a_protocol::limits::Limits;
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::service;
use a2a_protocol::sse::StreamItem;
use a2a_types::v1::StreamResponse;
use serde_json::Value;
use serde_json::value::RawValue;

use super::contract::{CallMeta, Common, stream_or_error};
use crate::binding::Binding;
use crate::error::ClientError;
use crate::http::{json_of, read_json_body, send};
use crate::stream::EventStream;

/// JSON-RPC 2.0 over HTTP `POST` to the interface URL.
#[derive(Clone, Debug)]
pub(crate) struct JsonRpcTransport {
    common: Common,
    next_id: Arc<AtomicI64>,
}

const JSONRPC: Binding = Binding::JsonRpc;

impl JsonRpcTransport {
    pub(crate) fn new(http: reqwest::Client, url: &str, limits: Limits) -> Self {
        JsonRpcTransport {
            common: Common::new(http, url, limits),
            next_id: Arc::new(AtomicI64::new(1)),
        }
    }

    fn post(&self, params: MethodParams, meta: &CallMeta) -> reqwest::RequestBuilder {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let body = JsonRpcRequest::new(id, params).to_json();
        self.common
            .request(reqwest::Method::POST, self.common.base_url(), meta)
            .header(reqwest::header::CONTENT_TYPE, service::MEDIA_TYPE_JSON)
            .body(body.to_string())
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<MethodResult, ClientError> {
        let operation = params.operation();
        let response = send(
            JSONRPC,
            self.common.base_url(),
            self.post(params, meta),
            meta.observing.as_ref(),
        )
        .await?;
        let limits = self.common.limits();
        let (status, body) = read_json_body(JSONRPC, response, limits).await?;
        // A successful answer read straight into its result; anything else, or what that path
        // leaves, read as JSON first, which names what is wrong.
        if (200..300).contains(&status)
            && limits.check_json(&body).is_ok()
            && let Some(response) = JsonRpcResponse::read_direct(&body, operation)
        {
            return read_outcome(response);
        }
        let json = json_of(JSONRPC, status, &body, limits)?;
        read_jsonrpc_response(&json, operation, status)
    }

    pub(crate) async fn stream(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        let operation = params.operation();
        let request = self
            .post(params, meta)
            .header(reqwest::header::ACCEPT, service::MEDIA_TYPE_EVENT_STREAM);
        let response = send(
            JSONRPC,
            self.common.base_url(),
            request,
            meta.observing.as_ref(),
        )
        .await?;
        stream_or_error(
            JSONRPC,
            response,
            self.common.limits(),
            move |item| stream_event(item, operation),
            // No stream started: the answer is an ordinary JSON-RPC response, normally an error.
            |status, json| match read_jsonrpc_response(&json, operation, status) {
                Err(error) => error,
                Ok(result) => ClientError::invalid(
                    Some(JSONRPC),
                    format!(
                        "asked for a stream of {operation}, got one {} result as JSON",
                        result.operation()
                    ),
                ),
            },
        )
        .await
    }
}

/// One event of a stream (a JSON-RPC response each) as the event, or the A2A error it carries. The
/// event's text is read straight into the event when it can be (see
/// [`JsonRpcResponse::read_direct`]), else as JSON first.
fn stream_event(
    item: StreamItem<Box<RawValue>, Value>,
    operation: Operation,
) -> Result<StreamResponse, ClientError> {
    let result = match item {
        StreamItem::Data(text) => {
            match JsonRpcResponse::read_direct(text.get().as_bytes(), operation) {
                Some(response) => read_outcome(response)?,
                None => {
                    let response: Value = serde_json::from_str(text.get()).map_err(|e| {
                        ClientError::invalid(Some(JSONRPC), format!("an event is not JSON: {e}"))
                    })?;
                    read_jsonrpc_response(&response, operation, 200)?
                }
            }
        }
        StreamItem::Error(response) => read_jsonrpc_response(&response, operation, 200)?,
    };
    match result {
        MethodResult::SendStreamingMessage(event) | MethodResult::SubscribeToTask(event) => {
            Ok(event)
        }
        other => Err(ClientError::invalid(
            Some(JSONRPC),
            format!("an event of {} in a stream", other.operation()),
        )),
    }
}

/// One JSON-RPC response (a whole body, or one event of a stream) to the result or the A2A error.
fn read_jsonrpc_response(
    json: &Value,
    operation: Operation,
    status: u16,
) -> Result<MethodResult, ClientError> {
    match JsonRpcResponse::parse(json, operation) {
        Ok(response) => read_outcome(response),
        Err(e) if (200..300).contains(&status) => Err(ClientError::invalid(
            Some(JSONRPC),
            format!("not a JSON-RPC response to {operation}: {e}"),
        )),
        Err(_) => Err(ClientError::transport(
            Some(JSONRPC),
            format!(
                "HTTP {status}: {}",
                a2a_types::json::bounded(&json.to_string())
            ),
        )),
    }
}

/// A response's result, or the A2A error it carries.
fn read_outcome(response: JsonRpcResponse) -> Result<MethodResult, ClientError> {
    response.outcome.map_err(|error| ClientError::A2a {
        binding: JSONRPC,
        error,
    })
}
