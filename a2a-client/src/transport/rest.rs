//! The HTTP+JSON binding: each operation at the method, path and query string `a2a_protocol::rest`
//! gives it under the interface URL; a stream is server-sent events of `StreamResponse`s, an `error`
//! event the binding's error body.

use a2a_protocol::errors::Error;
use a2a_protocol::limits::Limits;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::rest;
use a2a_protocol::service;
use a2a_protocol::sse::StreamItem;
use a2a_types::v1::StreamResponse;
use serde_json::Value;

use super::contract::{CallMeta, Common, rest_no_stream, stream_or_error};
use crate::binding::Binding;
use crate::error::ClientError;
use crate::http::{read_json, send};
use crate::stream::EventStream;

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
        let response = send(REST, &url, request, meta.observing.as_ref()).await?;
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
        let response = send(REST, &url, request, meta.observing.as_ref()).await?;
        stream_or_error(
            REST,
            response,
            self.common.limits(),
            stream_event,
            |status, json| rest_no_stream(operation, status, json, rest_error),
        )
        .await
    }
}

/// One event of a stream as the event; an `error` event's body as the error it carries.
fn stream_event(item: StreamItem<StreamResponse, Value>) -> Result<StreamResponse, ClientError> {
    match item {
        StreamItem::Data(event) => Ok(event),
        StreamItem::Error(body) => {
            let status = body["error"]["code"].as_u64().unwrap_or(500) as u16;
            Err(rest_error(status, &body))
        }
    }
}

/// An HTTP+JSON error body to the A2A error, or a transport error when it holds none.
fn rest_error(status: u16, json: &Value) -> ClientError {
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
