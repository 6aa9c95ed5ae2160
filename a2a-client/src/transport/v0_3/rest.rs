//! v0.3 over HTTP+JSON: each RPC of `a2a.v1.A2AService` at the method and path its `google.api.http`
//! option gives (`spec/v0_3/a2a.proto`), under the interface URL, with ProtoJSON bodies:
//!
//! | RPC | request | body |
//! |---|---|---|
//! | `SendMessage` | `POST /v1/message:send` | the `SendMessageRequest` |
//! | `SendStreamingMessage` | `POST /v1/message:stream` (server-sent events of `StreamResponse`) | the `SendMessageRequest` |
//! | `GetTask` | `GET /v1/tasks/{id}?historyLength=N` | — |
//! | `CancelTask` | `POST /v1/tasks/{id}:cancel` | `{}` (the name is the path) |
//! | `TaskSubscription` | `GET /v1/tasks/{id}:subscribe` (server-sent events) | — |
//! | `CreateTaskPushNotificationConfig` | `POST /v1/tasks/{id}/pushNotificationConfigs?configId=C` | the `config` field, a `TaskPushNotificationConfig` |
//! | `GetTaskPushNotificationConfig` | `GET /v1/tasks/{id}/pushNotificationConfigs/{configId}` | — |
//! | `ListTaskPushNotificationConfig` | `GET /v1/tasks/{id}/pushNotificationConfigs` | — |
//! | `DeleteTaskPushNotificationConfig` | `DELETE /v1/tasks/{id}/pushNotificationConfigs/{configId}` | — |
//! | `GetAgentCard` | `GET /v1/card` | — |
//!
//! Path segments are percent-encoded. Answers are the RPC's response message as ProtoJSON, read
//! under the decode budget; errors as [`errors::rest_error`](super::errors::rest_error) reads them.

use a2a_proto::v0_3 as pb;
use a2a_protocol::limits::Limits;
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::service;
use a2a_protocol::sse::StreamItem;
use a2a_types::v1::StreamResponse;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::Downgrader;
use super::errors::rest_error;
use super::proto::{self, ProtoRequest, ProtoResult};
use crate::binding::Binding;
use crate::error::ClientError;
use crate::http::{percent_encode, read_json, send};
use crate::stream::EventStream;
use crate::transport::contract::{CallMeta, Common, rest_no_stream, stream_or_error};

const REST: Binding = Binding::HttpJson;

/// HTTP+JSON to a v0.3 agent.
#[derive(Clone, Debug)]
pub(crate) struct RestV0_3Transport {
    common: Common,
    downgrader: Downgrader,
}

/// One request: method, path and query under the interface URL, and the body.
struct HttpCall {
    method: reqwest::Method,
    path: String,
    query: Vec<(&'static str, String)>,
    body: Option<String>,
}

impl RestV0_3Transport {
    pub(crate) fn new(http: reqwest::Client, url: &str, limits: Limits) -> Self {
        RestV0_3Transport {
            common: Common::new(http, url, limits),
            downgrader: Downgrader::new(),
        }
    }

    fn request(&self, call: HttpCall, meta: &CallMeta) -> (String, reqwest::RequestBuilder) {
        let mut url = format!("{}{}", self.common.base_url(), call.path);
        for (index, (name, value)) in call.query.iter().enumerate() {
            url.push(if index == 0 { '?' } else { '&' });
            url.push_str(name);
            url.push('=');
            url.push_str(&percent_encode(value));
        }
        let mut request = self.common.request(call.method, &url, meta);
        if let Some(body) = call.body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, service::MEDIA_TYPE_JSON)
                .body(body);
        }
        (url, request)
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<MethodResult, ClientError> {
        let (operation, request) = self.downgrader.downgrade_to_proto(params, REST)?;
        let (url, request) = self.request(http_call(request)?, meta);
        let response = send(REST, &url, request, meta.observing.as_ref()).await?;
        let (status, json) = read_json(REST, response, self.common.limits()).await?;
        if !(200..300).contains(&status) {
            return Err(rest_error(operation, status, &json));
        }
        proto::upgrade(REST, operation, read_result(operation, json)?)
    }

    pub(crate) async fn stream(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        let (operation, request) = self.downgrader.downgrade_to_proto(params, REST)?;
        let (url, request) = self.request(http_call(request)?, meta);
        let request = request.header(reqwest::header::ACCEPT, service::MEDIA_TYPE_EVENT_STREAM);
        let response = send(REST, &url, request, meta.observing.as_ref()).await?;
        stream_or_error(
            REST,
            response,
            self.common.limits(),
            stream_event,
            |status, json| {
                rest_no_stream(operation, status, json, |status, json| {
                    rest_error(operation, status, json)
                })
            },
        )
        .await
    }
}

/// One event of a stream (a v0.3 `StreamResponse` in ProtoJSON) upgraded; an `error` event's body
/// read as a v0.3 error answer.
fn stream_event(
    item: StreamItem<pb::StreamResponse, Value>,
) -> Result<StreamResponse, ClientError> {
    match item {
        StreamItem::Data(event) => proto::upgrade_event(REST, event),
        StreamItem::Error(body) => Err(rest_error(Operation::SendStreamingMessage, 500, &body)),
    }
}

/// `tasks/{id}...` (a resource name of the request message) as path segments after `/v1/`, each
/// percent-encoded.
fn resource_path(name: &str) -> String {
    let segments: Vec<String> = name.split('/').map(percent_encode).collect();
    format!("/v1/{}", segments.join("/"))
}

fn json_body<T: Serialize>(message: &T) -> Result<Option<String>, ClientError> {
    serde_json::to_string(message)
        .map(Some)
        .map_err(|e| ClientError::InvalidRequest {
            message: format!("the v0.3 request as ProtoJSON: {e}"),
        })
}

/// The HTTP request of one RPC, by its `google.api.http` option.
fn http_call(request: ProtoRequest) -> Result<HttpCall, ClientError> {
    use reqwest::Method;
    let call = |method, path, body| HttpCall {
        method,
        path,
        query: Vec::new(),
        body,
    };
    Ok(match request {
        ProtoRequest::SendMessage(r) => {
            call(Method::POST, "/v1/message:send".to_owned(), json_body(&r)?)
        }
        ProtoRequest::SendStreamingMessage(r) => call(
            Method::POST,
            "/v1/message:stream".to_owned(),
            json_body(&r)?,
        ),
        ProtoRequest::GetTask(r) => HttpCall {
            query: (r.history_length != 0)
                .then(|| ("historyLength", r.history_length.to_string()))
                .into_iter()
                .collect(),
            ..call(Method::GET, resource_path(&r.name), None)
        },
        // `body: "*"` with the only field bound to the path: an empty object.
        ProtoRequest::CancelTask(r) => call(
            Method::POST,
            format!("{}:cancel", resource_path(&r.name)),
            Some("{}".to_owned()),
        ),
        ProtoRequest::SubscribeToTask(r) => call(
            Method::GET,
            format!("{}:subscribe", resource_path(&r.name)),
            None,
        ),
        // `body: "config"`: the config is the body, `configId` (bound to neither) the query.
        ProtoRequest::CreatePushConfig(r) => HttpCall {
            query: (!r.config_id.is_empty())
                .then(|| ("configId", r.config_id.clone()))
                .into_iter()
                .collect(),
            ..call(
                Method::POST,
                format!("{}/pushNotificationConfigs", resource_path(&r.parent)),
                json_body(&r.config.unwrap_or_default())?,
            )
        },
        ProtoRequest::GetPushConfig(r) => call(Method::GET, resource_path(&r.name), None),
        ProtoRequest::ListPushConfigs(r) => {
            let mut query = Vec::new();
            if r.page_size != 0 {
                query.push(("pageSize", r.page_size.to_string()));
            }
            if !r.page_token.is_empty() {
                query.push(("pageToken", r.page_token.clone()));
            }
            HttpCall {
                query,
                ..call(
                    Method::GET,
                    format!("{}/pushNotificationConfigs", resource_path(&r.parent)),
                    None,
                )
            }
        }
        ProtoRequest::DeletePushConfig(r) => call(Method::DELETE, resource_path(&r.name), None),
        ProtoRequest::GetCard(_) => call(Method::GET, "/v1/card".to_owned(), None),
    })
}

/// A 2xx answer's body as the response message of `operation`.
fn read_result(operation: Operation, json: Value) -> Result<ProtoResult, ClientError> {
    fn read<T: DeserializeOwned>(operation: Operation, json: Value) -> Result<T, ClientError> {
        a2a_types::json::from_value(json).map_err(|e| {
            ClientError::invalid(
                Some(REST),
                format!("the v0.3 result of {}: {e}", operation.jsonrpc_method()),
            )
        })
    }
    Ok(match operation {
        Operation::SendMessage => {
            ProtoResult::SendMessage(read::<pb::SendMessageResponse>(operation, json)?)
        }
        Operation::GetTask | Operation::CancelTask => {
            ProtoResult::Task(read::<pb::Task>(operation, json)?)
        }
        Operation::CreateTaskPushNotificationConfig | Operation::GetTaskPushNotificationConfig => {
            ProtoResult::PushConfig(read::<pb::TaskPushNotificationConfig>(operation, json)?)
        }
        Operation::ListTaskPushNotificationConfigs => {
            ProtoResult::PushConfigs(read::<pb::ListTaskPushNotificationConfigResponse>(
                operation, json,
            )?)
        }
        Operation::DeleteTaskPushNotificationConfig => ProtoResult::Empty,
        Operation::GetExtendedAgentCard => {
            ProtoResult::Card(read::<pb::AgentCard>(operation, json)?)
        }
        other => {
            return Err(ClientError::NotConvertible {
                message: format!("{other} has no A2A v0.3 counterpart"),
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{GetTaskRequest, TaskPushNotificationConfig};

    fn call_of(params: MethodParams) -> HttpCall {
        let (_, request) = Downgrader::new()
            .downgrade_to_proto(params, REST)
            .expect("convertible");
        http_call(request).expect("an HTTP request")
    }

    #[test]
    fn requests_take_the_paths_of_the_v0_3_http_options() {
        let get = call_of(MethodParams::GetTask(GetTaskRequest {
            id: "task 7".into(),
            history_length: Some(2),
            ..Default::default()
        }));
        assert_eq!(
            (get.method, get.path.as_str(), get.query),
            (
                reqwest::Method::GET,
                "/v1/tasks/task%207",
                vec![("historyLength", "2".to_owned())]
            )
        );

        let config: TaskPushNotificationConfig = serde_json::from_value(serde_json::json!({
            "taskId": "t-1", "id": "cfg-1", "url": "http://127.0.0.1:9/hook"
        }))
        .expect("a config");
        let create = call_of(MethodParams::CreateTaskPushNotificationConfig(config));
        assert_eq!(create.method, reqwest::Method::POST);
        assert_eq!(create.path, "/v1/tasks/t-1/pushNotificationConfigs");
        assert_eq!(create.query, vec![("configId", "cfg-1".to_owned())]);
        let body: Value = serde_json::from_str(&create.body.expect("a body")).expect("JSON");
        assert_eq!(body["name"], "tasks/t-1/pushNotificationConfigs/cfg-1");
        assert_eq!(
            body["pushNotificationConfig"]["url"],
            "http://127.0.0.1:9/hook"
        );
    }
}
