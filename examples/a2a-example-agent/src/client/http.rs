//! The two HTTP bindings on reqwest: JSON-RPC (one `POST` per call, a JSON-RPC envelope each way) and
//! HTTP+JSON (the method, path and query string of `a2a_types::rest`). Both stream as server-sent
//! events; a stream that fails before it starts is answered as plain JSON, which is read as the
//! binding's error.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use a2a_types::errors::Error;
use a2a_types::jsonrpc::{JsonRpcRequest, JsonRpcResponse, MethodParams, MethodResult};
use a2a_types::rest;
use a2a_types::service;
use serde_json::Value;

use super::stream::{EventStream, SseKind};
use super::{Binding, ClientConfig, ClientError, PROTOCOL_VERSION};

/// What every HTTP request of the client carries.
#[derive(Clone, Debug)]
struct Common {
    http: reqwest::Client,
    base_url: String,
    bearer_token: Option<String>,
}

impl Common {
    fn new(http: reqwest::Client, url: &str, config: &ClientConfig) -> Self {
        Common {
            http,
            base_url: url.trim_end_matches('/').to_owned(),
            bearer_token: config.bearer_token.clone(),
        }
    }

    fn request(&self, method: reqwest::Method, url: &str) -> reqwest::RequestBuilder {
        let mut request = self
            .http
            .request(method, url)
            .header(service::A2A_VERSION_HEADER, PROTOCOL_VERSION.to_string());
        if let Some(token) = &self.bearer_token {
            request = request.bearer_auth(token);
        }
        request
    }
}

/// Sends `request`; a failure to get an answer is a transport error.
async fn send(
    binding: Binding,
    request: reqwest::RequestBuilder,
) -> Result<reqwest::Response, ClientError> {
    request
        .send()
        .await
        .map_err(|e| ClientError::transport(Some(binding), describe(&e)))
}

async fn read_body(binding: Binding, response: reqwest::Response) -> Result<Vec<u8>, ClientError> {
    response
        .bytes()
        .await
        .map(|b| b.to_vec())
        .map_err(|e| ClientError::transport(Some(binding), describe(&e)))
}

/// reqwest's message and its causes, which hold what actually happened (refused, timed out, ...).
fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn is_event_stream(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with(service::MEDIA_TYPE_EVENT_STREAM))
}

fn parse_json(binding: Binding, status: u16, body: &[u8]) -> Result<Value, ClientError> {
    if body.is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    serde_json::from_slice(body).map_err(|e| {
        let text = String::from_utf8_lossy(&body[..body.len().min(200)]);
        if (200..300).contains(&status) {
            ClientError::invalid(Some(binding), format!("the body is not JSON ({e}): {text}"))
        } else {
            ClientError::transport(Some(binding), format!("HTTP {status}: {text}"))
        }
    })
}

/// JSON-RPC 2.0 over HTTP `POST` to the interface URL.
#[derive(Clone, Debug)]
pub(crate) struct JsonRpcTransport {
    common: Common,
    next_id: Arc<AtomicI64>,
}

const JSONRPC: Binding = Binding::JsonRpc;

impl JsonRpcTransport {
    pub(crate) fn new(http: reqwest::Client, url: &str, config: &ClientConfig) -> Self {
        JsonRpcTransport {
            common: Common::new(http, url, config),
            next_id: Arc::new(AtomicI64::new(1)),
        }
    }

    fn post(&self, params: MethodParams) -> reqwest::RequestBuilder {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let body = JsonRpcRequest::new(id, params).to_json();
        self.common
            .request(reqwest::Method::POST, &self.common.base_url)
            .header(reqwest::header::CONTENT_TYPE, service::MEDIA_TYPE_JSON)
            .body(body.to_string())
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        timeout: Duration,
    ) -> Result<MethodResult, ClientError> {
        let operation = params.operation();
        let response = send(JSONRPC, self.post(params).timeout(timeout)).await?;
        let status = response.status().as_u16();
        let body = read_body(JSONRPC, response).await?;
        read_jsonrpc_response(&parse_json(JSONRPC, status, &body)?, operation, status)
    }

    pub(crate) async fn stream(&self, params: MethodParams) -> Result<EventStream, ClientError> {
        let operation = params.operation();
        let request = self
            .post(params)
            .header(reqwest::header::ACCEPT, service::MEDIA_TYPE_EVENT_STREAM);
        let response = send(JSONRPC, request).await?;
        let status = response.status().as_u16();
        if is_event_stream(&response) && (200..300).contains(&status) {
            return Ok(EventStream::sse(
                JSONRPC,
                response,
                SseKind::JsonRpc(Default::default(), operation),
            ));
        }
        // No stream started: the answer is an ordinary JSON-RPC response, normally an error.
        let body = read_body(JSONRPC, response).await?;
        let result =
            read_jsonrpc_response(&parse_json(JSONRPC, status, &body)?, operation, status)?;
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
    operation: a2a_types::operations::Operation,
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
            format!("HTTP {status}: {json}"),
        )),
    }
}

/// HTTP+JSON: each operation at its own method and path under the interface URL.
#[derive(Clone, Debug)]
pub(crate) struct RestTransport {
    common: Common,
}

const REST: Binding = Binding::HttpJson;

impl RestTransport {
    pub(crate) fn new(http: reqwest::Client, url: &str, config: &ClientConfig) -> Self {
        RestTransport {
            common: Common::new(http, url, config),
        }
    }

    fn build(
        &self,
        params: &MethodParams,
        tenant: Option<&str>,
    ) -> Result<reqwest::RequestBuilder, ClientError> {
        let has_tenant = params
            .to_json()
            .get("tenant")
            .and_then(Value::as_str)
            .is_some_and(|t| !t.is_empty());
        let http = rest::build_request(params, tenant.filter(|_| !has_tenant)).map_err(|e| {
            ClientError::InvalidRequest {
                message: e.to_string(),
            }
        })?;
        let method = reqwest::Method::from_bytes(http.method.as_bytes()).map_err(|e| {
            ClientError::InvalidRequest {
                message: format!("HTTP method {}: {e}", http.method),
            }
        })?;
        let url = format!("{}{}", self.common.base_url, http.path_and_query());
        let mut request = self.common.request(method, &url);
        if let Some(body) = http.body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, service::MEDIA_TYPE_JSON)
                .body(body.to_string());
        }
        Ok(request)
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        tenant: Option<&str>,
        timeout: Duration,
    ) -> Result<MethodResult, ClientError> {
        let operation = params.operation();
        let request = self.build(&params, tenant)?.timeout(timeout);
        let response = send(REST, request).await?;
        let status = response.status().as_u16();
        let body = read_body(REST, response).await?;
        let json = parse_json(REST, status, &body)?;
        if (200..300).contains(&status) {
            MethodResult::from_json(operation, json).map_err(|e| {
                ClientError::invalid(Some(REST), format!("the {operation} result: {e}"))
            })
        } else {
            Err(rest_error(status, &json))
        }
    }

    pub(crate) async fn stream(
        &self,
        params: MethodParams,
        tenant: Option<&str>,
    ) -> Result<EventStream, ClientError> {
        let operation = params.operation();
        let request = self
            .build(&params, tenant)?
            .header(reqwest::header::ACCEPT, service::MEDIA_TYPE_EVENT_STREAM);
        let response = send(REST, request).await?;
        let status = response.status().as_u16();
        if is_event_stream(&response) && (200..300).contains(&status) {
            return Ok(EventStream::sse(
                REST,
                response,
                SseKind::Rest(Default::default()),
            ));
        }
        let body = read_body(REST, response).await?;
        let json = parse_json(REST, status, &body)?;
        if (200..300).contains(&status) {
            Err(ClientError::invalid(
                Some(REST),
                format!("asked for a stream of {operation}, got HTTP {status} JSON: {json}"),
            ))
        } else {
            Err(rest_error(status, &json))
        }
    }
}

/// An HTTP+JSON error body to the A2A error, or a transport error when it holds none.
pub(crate) fn rest_error(status: u16, json: &Value) -> ClientError {
    match Error::from_rest(json) {
        Ok(error) => ClientError::A2a {
            binding: REST,
            error,
        },
        Err(e) => ClientError::transport(
            Some(REST),
            format!("HTTP {status} without an A2A error ({e}): {json}"),
        ),
    }
}
