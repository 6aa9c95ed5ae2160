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

use super::contract::{CallMeta, Common, stream_or_error};
use crate::binding::Binding;
use crate::error::ClientError;
use crate::http::{read_json, send};
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
        let (status, json) = read_json(JSONRPC, response, self.common.limits()).await?;
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

/// One event of a stream (a JSON-RPC response each) as the event, or the A2A error it carries.
fn stream_event(
    item: StreamItem<Value, Value>,
    operation: Operation,
) -> Result<StreamResponse, ClientError> {
    let (StreamItem::Data(response) | StreamItem::Error(response)) = item;
    match read_jsonrpc_response(&response, operation, 200)? {
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
        Ok(response) => response.outcome.map_err(|error| ClientError::A2a {
            binding: JSONRPC,
            error,
        }),
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
