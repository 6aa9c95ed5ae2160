//! The two HTTP bindings on reqwest: JSON-RPC (one `POST` per call, a JSON-RPC envelope each way) and
//! HTTP+JSON (the method, path and query string of `a2a_protocol::rest`). Both stream as server-sent
//! events; a stream that fails before it starts is answered as plain JSON, which is read as the
//! binding's error.
//!
//! Every body is read under the decode budget: no more than `max_bytes` is ever buffered (an error
//! body no more than [`MAX_ERROR_BODY`]), and its JSON values are counted before it is parsed.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use a2a_protocol::errors::Error;
use a2a_protocol::jsonrpc::{JsonRpcRequest, JsonRpcResponse};
use a2a_protocol::limits::Limits;
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::rest;
use a2a_protocol::service;
use serde_json::Value;

use crate::client::CallMeta;
use crate::stream::{EventStream, SseKind};
use crate::{Binding, ClientError};

/// The most of an error answer (a status other than 2xx) that is read: A2A error bodies are small,
/// and a hostile or broken server's 50 MB page is not worth holding.
pub const MAX_ERROR_BODY: usize = 64 * 1024;

/// What every HTTP request of the client carries.
#[derive(Clone, Debug)]
pub(crate) struct Common {
    http: reqwest::Client,
    base_url: String,
    limits: Limits,
}

impl Common {
    pub(crate) fn new(http: reqwest::Client, url: &str, limits: Limits) -> Self {
        Common {
            http,
            base_url: url.trim_end_matches('/').to_owned(),
            limits,
        }
    }

    pub(crate) fn request(
        &self,
        method: reqwest::Method,
        url: &str,
        meta: &CallMeta,
    ) -> reqwest::RequestBuilder {
        let url = with_query(url, &meta.query);
        let mut request = self.http.request(method, url);
        for (name, value) in &meta.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        request
    }

    pub(crate) fn base_url(&self) -> &str {
        &self.base_url
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }
}

/// `url` with `query` appended, percent-encoded.
fn with_query(url: &str, query: &[(String, String)]) -> String {
    if query.is_empty() {
        return url.to_owned();
    }
    let mut out = url.to_owned();
    let mut separator = if url.contains('?') { '&' } else { '?' };
    for (name, value) in query {
        out.push(separator);
        out.push_str(&percent_encode(name));
        out.push('=');
        out.push_str(&percent_encode(value));
        separator = '&';
    }
    out
}

/// Percent-encodes all but RFC 3986's unreserved characters.
pub(crate) fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Sends `request`; a failure to get an answer is a transport error, a failure to connect
/// [`ClientError::Unreachable`].
pub(crate) async fn send(
    binding: Binding,
    url: &str,
    request: reqwest::RequestBuilder,
) -> Result<reqwest::Response, ClientError> {
    request
        .send()
        .await
        .map_err(|e| send_error(Some(binding), url, &e))
}

pub(crate) fn send_error(
    binding: Option<Binding>,
    url: &str,
    error: &reqwest::Error,
) -> ClientError {
    #[cfg(feature = "rustls")]
    if let Some(message) = crate::tls::tls_failure(error) {
        return ClientError::Tls {
            binding,
            url: url.to_owned(),
            message,
        };
    }
    if error.is_connect() {
        crate::card::unreachable(binding, url, error)
    } else {
        ClientError::transport(binding, describe(error))
    }
}

/// Reads a whole body, refusing (without buffering it) one over `max` bytes.
pub(crate) async fn read_limited(
    binding: Option<Binding>,
    mut response: reqwest::Response,
    max: usize,
) -> Result<Vec<u8>, ClientError> {
    let over = |size: String| {
        ClientError::invalid(
            binding,
            format!(
                "the answer is {size} bytes, more than the {max} allowed (the max_bytes limit)"
            ),
        )
    };
    if let Some(length) = response.content_length()
        && usize::try_from(length).map_or(true, |length| length > max)
    {
        return Err(over(length.to_string()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| ClientError::transport(binding, describe(&e)))?
    {
        if body.len() + chunk.len() > max {
            return Err(over(format!("over {}", body.len() + chunk.len())));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// reqwest's message and its causes, which hold what actually happened (refused, timed out, ...).
pub(crate) fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn content_type(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.to_ascii_lowercase())
}

fn is_event_stream(response: &reqwest::Response) -> bool {
    content_type(response).is_some_and(|v| v.starts_with(service::MEDIA_TYPE_EVENT_STREAM))
}

/// Reads an answer's body as JSON under the decode budget. A 2xx answer must be JSON (by its content
/// type, when it names one); any other status is read only up to [`MAX_ERROR_BODY`], and a body that
/// is not JSON makes it a transport error with the status.
pub(crate) async fn read_json(
    binding: Binding,
    response: reqwest::Response,
    limits: &Limits,
) -> Result<(u16, Value), ClientError> {
    let status = response.status().as_u16();
    let success = (200..300).contains(&status);
    let media_type = content_type(&response);
    if success
        && let Some(media_type) = &media_type
        && !media_type.contains("json")
    {
        return Err(ClientError::invalid(
            Some(binding),
            format!("HTTP {status} with content type {media_type:?}, not JSON"),
        ));
    }
    let max = if success {
        limits.max_bytes()
    } else {
        limits.max_bytes().min(MAX_ERROR_BODY)
    };
    let body = match read_limited(Some(binding), response, max).await {
        Ok(body) => body,
        Err(ClientError::InvalidResponse { message, .. }) if !success => {
            return Err(ClientError::transport(
                Some(binding),
                format!("HTTP {status}: {message}"),
            ));
        }
        Err(e) => return Err(e),
    };
    if body.is_empty() {
        return Ok((status, Value::Object(Default::default())));
    }
    let parsed = limits
        .check_json(&body)
        .map_err(|e| e.to_string())
        .and_then(|_| a2a_types::json::value_from_slice(&body).map_err(|e| e.to_string()));
    match parsed {
        Ok(json) => Ok((status, json)),
        Err(e) if success => Err(ClientError::invalid(
            Some(binding),
            format!("the body is not JSON ({e})"),
        )),
        Err(_) => {
            let text = a2a_types::json::bounded(&String::from_utf8_lossy(&body));
            Err(ClientError::transport(
                Some(binding),
                format!("HTTP {status}: {text}"),
            ))
        }
    }
}

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
                    a2a_protocol::sse::JsonDecoder::with_limits(*self.common.limits()),
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

/// HTTP+JSON: each operation at its own method and path under the interface URL.
#[derive(Clone, Debug)]
pub(crate) struct RestTransport {
    common: Common,
}

const REST: Binding = Binding::HttpJson;

impl RestTransport {
    pub(crate) fn new(http: reqwest::Client, url: &str, limits: Limits) -> Self {
        RestTransport {
            common: Common::new(http, url, limits),
        }
    }

    fn build(
        &self,
        params: &MethodParams,
        tenant: Option<&str>,
        meta: &CallMeta,
    ) -> Result<(String, reqwest::RequestBuilder), ClientError> {
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
        let url = format!("{}{}", self.common.base_url(), http.path_and_query());
        let mut request = self.common.request(method, &url, meta);
        if let Some(body) = http.body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, service::MEDIA_TYPE_JSON)
                .body(body.to_string());
        }
        Ok((url, request))
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        tenant: Option<&str>,
        meta: &CallMeta,
    ) -> Result<MethodResult, ClientError> {
        let operation = params.operation();
        let (url, request) = self.build(&params, tenant, meta)?;
        let response = send(REST, &url, request).await?;
        let (status, json) = read_json(REST, response, self.common.limits()).await?;
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
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        let operation = params.operation();
        let (url, request) = self.build(&params, tenant, meta)?;
        let request = request.header(reqwest::header::ACCEPT, service::MEDIA_TYPE_EVENT_STREAM);
        let response = send(REST, &url, request).await?;
        let status = response.status().as_u16();
        if is_event_stream(&response) && (200..300).contains(&status) {
            return Ok(EventStream::sse(
                REST,
                response,
                SseKind::Rest(a2a_protocol::sse::HttpJsonDecoder::with_limits(
                    *self.common.limits(),
                )),
            ));
        }
        let (status, json) = read_json(REST, response, self.common.limits()).await?;
        if (200..300).contains(&status) {
            Err(ClientError::invalid(
                Some(REST),
                format!(
                    "asked for a stream of {operation}, got HTTP {status} JSON: {}",
                    a2a_types::json::bounded(&json.to_string())
                ),
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
            format!(
                "HTTP {status} without an A2A error ({e}): {}",
                a2a_types::json::bounded(&json.to_string())
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_parameters_are_percent_encoded() {
        let query = [("api key".to_owned(), "a/b&c=d é".to_owned())];
        assert_eq!(
            with_query("http://h/rpc", &query),
            "http://h/rpc?api%20key=a%2Fb%26c%3Dd%20%C3%A9"
        );
        assert_eq!(with_query("http://h/t?x=1", &query[..0]), "http://h/t?x=1");
        assert!(with_query("http://h/t?x=1", &query).starts_with("http://h/t?x=1&api"));
    }
}
