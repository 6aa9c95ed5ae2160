//! The JSON-RPC binding: one `POST` per call to the interface URL, a JSON-RPC envelope each way; a
//! stream is server-sent events of JSON-RPC responses.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use a2a_types::jsonrpc::{JsonRpcRequest, JsonRpcResponse, MethodParams, MethodResult};
use a2a_types::limits::Limits;
use a2a_types::operations::Operation;
use a2a_types::service;
use serde_json::Value;

use super::contract::{CallMeta, Common};
use crate::binding::Binding;
use crate::error::ClientError;
use crate::http::{is_event_stream, read_json, send};
use crate::stream::{EventStream, SseKind};

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
        let response = send(JSONRPC, self.common.base_url(), self.post(params, meta)).await?;
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
        let response = send(JSONRPC, self.common.base_url(), request).await?;
        let status = response.status().as_u16();
        if is_event_stream(&response) && (200..300).contains(&status) {
            return Ok(EventStream::sse(
                JSONRPC,
                response,
                SseKind::JsonRpc(
                    a2a_types::sse::JsonDecoder::with_limits(*self.common.limits()),
                    operation,
                ),
            ));
        }
        // No stream started: the answer is an ordinary JSON-RPC response, normally an error.
        let (status, json) = read_json(JSONRPC, response, self.common.limits()).await?;
        let result = read_jsonrpc_response(&json, operation, status)?;
        Err(ClientError::invalid(
            Some(JSONRPC),
            format!(
                "asked for a stream of {operation}, got one {} result as JSON",
                result.operation()
            ),
        ))
    }
}

/// One JSON-RPC response (a whole body, or one event of a stream) to the result or the A2A error.
pub(crate) fn read_jsonrpc_response(
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
