//! v0.3 over JSON-RPC 2.0: the v0.3 requests of [`Downgrader`] (`message/send`, `tasks/get`, ...)
//! posted to the interface URL, their JSON-RPC responses (and each event of a stream, a JSON-RPC
//! response too) upgraded with [`bridge::upgrade_response`].
//!
//! The same transport speaks v0.2 and v0.1 ([`Wire::Older`]): each request goes further down and each
//! answer comes up first, through [`crate::transport::older`].

use a2a_compat::bridge::{self, OlderVersion};
use a2a_compat::v0_3;
use a2a_protocol::errors::Error;
use a2a_protocol::limits::Limits;
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::service;
use a2a_protocol::sse::StreamItem;
use a2a_types::v1::StreamResponse;
use serde_json::Value;

use super::{Downgrader, not_convertible};
use crate::binding::Binding;
use crate::error::ClientError;
use crate::http::{read_json, send};
use crate::stream::EventStream;
use crate::transport::contract::{CallMeta, Common, stream_or_error};
use crate::transport::older;
use crate::transport::older_card::get_extended_card;

const JSONRPC: Binding = Binding::JsonRpc;

/// The JSON-RPC a transport writes and reads: v0.3's, or an older version's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wire {
    V0_3,
    /// v0.2 (v0.3's methods and shapes, checked through the v0.2 types) or v0.1.
    Older(OlderVersion),
}

impl Wire {
    /// The request for `params` in this wire's JSON, or what would not survive.
    fn downgrade(
        self,
        downgrader: &Downgrader,
        params: MethodParams,
    ) -> Result<(Operation, Value), ClientError> {
        match self {
            Wire::Older(version) => older::downgrade(version, downgrader, params),
            Wire::V0_3 => {
                let (operation, request) = downgrader.downgrade(params)?;
                let json =
                    serde_json::to_value(request).map_err(|e| ClientError::InvalidRequest {
                        message: format!("the v0.3 request: {e}"),
                    })?;
                Ok((operation, json))
            }
        }
    }

    /// A response to `operation` in this wire's JSON as the v1 result, or the A2A error it carries.
    fn read(self, operation: Operation, json: Value) -> Result<MethodResult, ClientError> {
        let json = match self {
            Wire::V0_3 => json,
            Wire::Older(version) => older::upgrade(version, operation, json)
                .map_err(|message| ClientError::invalid(Some(JSONRPC), message))?,
        };
        read_response(operation, &json)
    }
}

/// JSON-RPC 2.0 to a v0.3 agent (or, with [`Wire::Older`], a v0.2 or v0.1 agent).
#[derive(Clone, Debug)]
pub(crate) struct JsonRpcV0_3Transport {
    common: Common,
    downgrader: Downgrader,
    wire: Wire,
    /// Where a v0.2 agent whose card declares one serves its extended card (by GET, not JSON-RPC).
    extended_card: Option<String>,
}

impl JsonRpcV0_3Transport {
    pub(crate) fn new(http: reqwest::Client, url: &str, limits: Limits, wire: Wire) -> Self {
        JsonRpcV0_3Transport {
            common: Common::new(http, url, limits),
            downgrader: Downgrader::new(),
            wire,
            extended_card: None,
        }
    }

    /// This transport fetching `GetExtendedAgentCard` by GET at `url` (v0.2's way) instead of
    /// refusing it.
    pub(crate) fn with_extended_card(mut self, url: String) -> Self {
        self.extended_card = Some(url);
        self
    }

    fn post(
        &self,
        request: &Value,
        meta: &CallMeta,
    ) -> Result<reqwest::RequestBuilder, ClientError> {
        let body = request.to_string();
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
        if let (MethodParams::GetExtendedAgentCard(request), Some(url)) =
            (&params, &self.extended_card)
        {
            return get_extended_card(&self.common, url, request, meta).await;
        }
        let (method, request) = self.wire.downgrade(&self.downgrader, params)?;
        let response = send(
            JSONRPC,
            self.common.base_url(),
            self.post(&request, meta)?,
            meta.observing.as_ref(),
        )
        .await?;
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
        self.wire.read(method, json)
    }

    pub(crate) async fn stream(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        let (method, request) = self.wire.downgrade(&self.downgrader, params)?;
        let wire = self.wire;
        let request = self
            .post(&request, meta)?
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
            move |item| stream_event(wire, item),
            |_, json| match wire.read(method, json) {
                Err(error) => error,
                Ok(_) => ClientError::invalid(
                    Some(JSONRPC),
                    format!(
                        "asked for a stream of {}, got one result as JSON",
                        method.jsonrpc_method()
                    ),
                ),
            },
        )
        .await
    }
}

/// A v0.3 JSON-RPC response to `method` as the v1 result, or the A2A error it carries.
fn read_response(operation: Operation, json: &Value) -> Result<MethodResult, ClientError> {
    if let Some(error) = json.get("error").filter(|e| !e.is_null()) {
        return Err(match read_error(error) {
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

/// A JSON-RPC error object of v0.3 or an older version. Their `data` is free-form (the SDK 0.2 puts
/// its validation errors there), not v1's list of details: when it does not read as v1's, the code
/// and message alone say the error.
fn read_error(error: &Value) -> Result<Error, a2a_protocol::errors::ErrorShapeError> {
    Error::from_jsonrpc(error).or_else(|shape| {
        let mut without_data = error.clone();
        let removed = without_data
            .as_object_mut()
            .and_then(|object| object.remove("data"));
        match removed {
            Some(_) => Error::from_jsonrpc(&without_data).map_err(|_| shape),
            None => Err(shape),
        }
    })
}

/// One event of a stream (a JSON-RPC response each) as the v1 event, or the error it carries.
fn stream_event(wire: Wire, item: StreamItem<Value, Value>) -> Result<StreamResponse, ClientError> {
    let (StreamItem::Data(json) | StreamItem::Error(json)) = item;
    match wire.read(Operation::SendStreamingMessage, json)? {
        MethodResult::SendStreamingMessage(event) => Ok(event),
        other => Err(ClientError::invalid(
            Some(JSONRPC),
            format!("an event of {} in a stream", other.operation()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_v0_3_error_is_the_same_a2a_error_kind() {
        let json = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}});
        let error = read_response(Operation::GetTask, &json).unwrap_err();
        assert_eq!(
            error.a2a_kind(),
            Some(a2a_protocol::errors::ErrorKind::TaskNotFound),
            "{error}"
        );
    }

    #[test]
    fn free_form_error_data_leaves_the_code_and_message_to_say_the_error() {
        let json = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601,
            "message": "Method not found", "data": [{"type": "literal_error", "loc": ["method"]}]}});
        let error = read_response(Operation::GetExtendedAgentCard, &json).unwrap_err();
        assert_eq!(
            error.a2a_kind(),
            Some(a2a_protocol::errors::ErrorKind::MethodNotFound),
            "{error}"
        );
        // Still not an A2A error: an unknown code, or no message.
        let json = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"code": 7, "data": 1}});
        assert!(
            read_response(Operation::GetTask, &json)
                .unwrap_err()
                .a2a_kind()
                .is_none()
        );
    }
}
