//! Raw requests to an agent's JSON-RPC or HTTP+JSON interface ([`Wire`]), each operation as the
//! binding writes it (a JSON-RPC 2.0 call, or the HTTP method and path of §11.3), and the checks
//! made of plain answers: their ProtoJSON shape, the query parameters of `GET /tasks`, a request
//! with unknown fields, and the versions an agent must accept.

use std::sync::atomic::{AtomicU64, Ordering};

use a2a_client::{A2aClient, Binding};
use serde_json::{Map, Value, json};

use super::super::helpers::{message_id, truncate};
use super::super::run::CheckResult;
use super::shape::Schema;

/// The version every request names unless a check is about the header.
pub(crate) const VERSION: &str = "1.0";

/// One interface of an agent, reached without the typed client.
pub(crate) struct Wire {
    /// The interface's binding.
    pub(crate) binding: Binding,
    /// The interface's URL, as the card gives it.
    pub(crate) url: String,
    /// Headers every request carries: the client's bearer token and extra headers.
    pub(crate) headers: Vec<(String, String)>,
    http: reqwest::Client,
    next_id: AtomicU64,
}

/// An HTTP answer, read whole.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) content_type: String,
    pub(crate) body: Vec<u8>,
}

impl Answer {
    /// The body as JSON.
    pub(crate) fn json(&self) -> Result<Value, String> {
        serde_json::from_slice(&self.body).map_err(|e| {
            format!(
                "HTTP {} body is not JSON ({e}): {}",
                self.status,
                truncate(&String::from_utf8_lossy(&self.body), 200)
            )
        })
    }

    /// Whether the content type is JSON (`application/json`, or `application/a2a+json`, which
    /// §11.1 recommends for HTTP+JSON).
    pub(crate) fn is_json(&self) -> bool {
        let essence = self.content_type.split(';').next().unwrap_or("").trim();
        essence.eq_ignore_ascii_case("application/json")
            || essence.eq_ignore_ascii_case("application/a2a+json")
    }
}

/// An A2A operation, with its request as ProtoJSON.
pub(crate) enum Op<'a> {
    Send(Value),
    Stream(Value),
    Get(&'a str),
    Cancel(&'a str),
    /// ListTasks with these request fields.
    List(Value),
    /// CreateTaskPushNotificationConfig of this config (its `taskId` set).
    CreatePushConfig(Value),
}

impl Wire {
    /// The interface `client` chose, with its credentials.
    pub(crate) fn new(client: &A2aClient) -> Wire {
        let config = client.config();
        let mut headers = Vec::new();
        if let Some(token) = &config.bearer_token {
            headers.push(("authorization".to_owned(), format!("Bearer {token}")));
        }
        headers.extend(config.headers.iter().cloned());
        let http = config.http_client.clone().unwrap_or_else(|| {
            reqwest::Client::builder()
                .connect_timeout(config.connect_timeout)
                .build()
                .unwrap_or_default()
        });
        Wire {
            binding: client.binding(),
            url: client.interface().url.trim_end_matches('/').to_owned(),
            headers,
            http,
            next_id: AtomicU64::new(1),
        }
    }

    /// The same interface reached with none of the client's credentials or extra headers.
    pub(crate) fn anonymous(&self) -> Wire {
        Wire {
            binding: self.binding,
            url: self.url.clone(),
            headers: Vec::new(),
            http: self.http.clone(),
            next_id: AtomicU64::new(self.id()),
        }
    }

    /// A fresh JSON-RPC request id.
    pub(crate) fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Sends `body` to `path` (after the interface URL) with `method`, naming `version` in
    /// `A2A-Version` (none: no header), and reads the whole answer.
    pub(crate) async fn http(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Vec<u8>>,
        version: Option<&str>,
    ) -> Result<Answer, String> {
        let url = format!("{}{path}", self.url);
        let mut request = self.http.request(method.clone(), &url);
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        if let Some(version) = version {
            request = request.header("A2A-Version", version);
        }
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body);
        }
        let response = request
            .send()
            .await
            .map_err(|e| format!("{method} {url}: {e}"))?;
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let body = response
            .bytes()
            .await
            .map_err(|e| format!("{method} {url}: reading the answer: {e}"))?
            .to_vec();
        Ok(Answer {
            status,
            content_type,
            body,
        })
    }

    /// Sends the JSON-RPC request `body` as it is.
    pub(crate) async fn post_jsonrpc(
        &self,
        body: &Value,
        version: Option<&str>,
    ) -> Result<Answer, String> {
        let bytes = body.to_string().into_bytes();
        self.http(reqwest::Method::POST, "", Some(bytes), version)
            .await
    }

    /// Sends `op` as this interface's binding writes it (JSON-RPC, or HTTP+JSON), with request id
    /// `id` on JSON-RPC.
    pub(crate) async fn request(
        &self,
        op: &Op<'_>,
        id: u64,
        version: Option<&str>,
    ) -> Result<Answer, String> {
        if self.binding == Binding::JsonRpc {
            let (method, params) = match op {
                Op::Send(request) => ("SendMessage", request.clone()),
                Op::Stream(request) => ("SendStreamingMessage", request.clone()),
                Op::Get(task) => ("GetTask", json!({ "id": task })),
                Op::Cancel(task) => ("CancelTask", json!({ "id": task })),
                Op::List(request) => ("ListTasks", request.clone()),
                Op::CreatePushConfig(config) => {
                    ("CreateTaskPushNotificationConfig", config.clone())
                }
            };
            let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
            return self.post_jsonrpc(&body, version).await;
        }
        use reqwest::Method;
        let (method, path, body) = match op {
            Op::Send(request) => (Method::POST, "/message:send".to_owned(), Some(request)),
            Op::Stream(request) => (Method::POST, "/message:stream".to_owned(), Some(request)),
            Op::Get(task) => (Method::GET, format!("/tasks/{}", encode(task)), None),
            Op::Cancel(task) => (
                Method::POST,
                format!("/tasks/{}:cancel", encode(task)),
                None,
            ),
            Op::List(request) => (Method::GET, format!("/tasks{}", query(request)), None),
            Op::CreatePushConfig(config) => {
                let task = config["taskId"].as_str().unwrap_or_default();
                let path = format!("/tasks/{}/pushNotificationConfigs", encode(task));
                (Method::POST, path, Some(config))
            }
        };
        let bytes = match (body, &method) {
            (Some(body), _) => Some(body.to_string().into_bytes()),
            (None, &Method::POST) => Some(b"{}".to_vec()),
            (None, _) => None,
        };
        self.http(method, &path, bytes, version).await
    }

    /// Makes `op` and returns its answer's result: the JSON-RPC `result` (the envelope checked), or
    /// the HTTP+JSON body of a 2xx answer.
    pub(crate) async fn call(&self, op: &Op<'_>, version: Option<&str>) -> Result<Value, String> {
        let id = self.id();
        let answer = self.request(op, id, version).await?;
        self.result(&answer, id)
    }

    /// The result of a unary answer (see [`call`](Self::call)).
    pub(crate) fn result(&self, answer: &Answer, id: u64) -> Result<Value, String> {
        if !answer.is_json() {
            return Err(format!(
                "HTTP {} with Content-Type {:?}, expected application/json",
                answer.status, answer.content_type
            ));
        }
        let body = answer.json()?;
        if self.binding != Binding::JsonRpc {
            if !(200..300).contains(&answer.status) {
                return Err(format!(
                    "HTTP {}: {}",
                    answer.status,
                    truncate(&body.to_string(), 300)
                ));
            }
            return Ok(body);
        }
        let envelope = jsonrpc_envelope(&body, id)?;
        envelope
            .get("result")
            .cloned()
            .ok_or_else(|| format!("a JSON-RPC error: {}", truncate(&body.to_string(), 300)))
    }
}

/// Checks a JSON-RPC 2.0 response object (§9.3): `"jsonrpc": "2.0"`, the request's `id`, and
/// exactly one of `result` and `error`; returns its members.
pub(crate) fn jsonrpc_envelope(body: &Value, id: u64) -> Result<&Map<String, Value>, String> {
    let object = body
        .as_object()
        .ok_or_else(|| format!("a JSON-RPC response is not an object: {body}"))?;
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return Err(format!(
            "\"jsonrpc\" is {:?}, expected \"2.0\"",
            object.get("jsonrpc")
        ));
    }
    if object.get("id") != Some(&json!(id)) {
        return Err(format!(
            "\"id\" is {:?}, the request's was {id}",
            object.get("id")
        ));
    }
    let unknown: Vec<&String> = object
        .keys()
        .filter(|k| !matches!(k.as_str(), "jsonrpc" | "id" | "result" | "error"))
        .collect();
    if !unknown.is_empty() {
        return Err(format!("a JSON-RPC response with members {unknown:?}"));
    }
    if object.contains_key("result") == object.contains_key("error") {
        return Err(format!(
            "a JSON-RPC response needs exactly one of result and error: {}",
            truncate(&body.to_string(), 200)
        ));
    }
    Ok(object)
}

/// A query string of ProtoJSON request fields (`?contextId=…&pageSize=2`).
fn query(request: &Value) -> String {
    let Some(fields) = request.as_object().filter(|f| !f.is_empty()) else {
        return String::new();
    };
    let pairs: Vec<String> = fields
        .iter()
        .map(|(name, value)| {
            let text = match value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            format!("{}={}", encode(name), encode(&text))
        })
        .collect();
    format!("?{}", pairs.join("&"))
}

/// Percent-encodes all but RFC 3986's unreserved characters.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A SendMessageRequest of one user text message whose id starts with the behaviour `prefix`.
pub(crate) fn send_request(prefix: &str, context: Option<&str>) -> Value {
    let mut message = json!({
        "role": "ROLE_USER",
        "messageId": message_id(prefix),
        "parts": [{"text": "conformance, raw"}],
    });
    if let Some(context) = context {
        message["contextId"] = json!(context);
    }
    json!({ "message": message })
}

/// Sends `prefix`'s message and returns the task of the answer.
pub(crate) async fn send_for_task(
    wire: &Wire,
    prefix: &str,
    context: Option<&str>,
) -> Result<Value, String> {
    let result = wire
        .call(&Op::Send(send_request(prefix, context)), Some(VERSION))
        .await
        .map_err(|e| format!("SendMessage {prefix}: {e}"))?;
    result
        .get("task")
        .filter(|t| t["id"].is_string())
        .cloned()
        .ok_or_else(|| {
            format!(
                "SendMessage {prefix}: no task: {}",
                truncate(&result.to_string(), 200)
            )
        })
}

/// The ProtoJSON of each kind of answer, checked against `a2a.proto` (a push config's only when
/// the card declares push notifications, `push_declared`).
pub(super) async fn protojson_shape(wire: &Wire, push_declared: bool) -> CheckResult {
    let schema = Schema::v1();
    let mut problems = Vec::new();
    let mut checked = Vec::new();
    let mut check = |what: &str, type_name: &str, value: &Value| {
        checked.push(what.to_owned());
        problems.extend(
            schema
                .problems(type_name, value)
                .into_iter()
                .map(|p| format!("{what}: {p}")),
        );
    };
    for prefix in [
        "tck-artifact-file",
        "tck-artifact-data",
        "tck-artifact-text",
        "tck-message-response",
    ] {
        let result = wire
            .call(&Op::Send(send_request(prefix, None)), Some(VERSION))
            .await
            .map_err(|e| format!("SendMessage {prefix}: {e}"))?;
        check(prefix, "lf.a2a.v1.SendMessageResponse", &result);
    }
    let context = message_id("ctx-wire");
    let waiting = send_for_task(wire, "tck-input-required", Some(&context)).await?;
    let task_id = waiting["id"].as_str().unwrap_or_default().to_owned();
    let task = wire
        .call(&Op::Get(&task_id), Some(VERSION))
        .await
        .map_err(|e| format!("GetTask: {e}"))?;
    check("GetTask", "lf.a2a.v1.Task", &task);
    let listed = wire
        .call(&Op::List(json!({ "contextId": context })), Some(VERSION))
        .await
        .map_err(|e| format!("ListTasks: {e}"))?;
    check("ListTasks", "lf.a2a.v1.ListTasksResponse", &listed);
    if push_declared {
        let config = json!({
            "taskId": task_id,
            "url": "https://example.com/tck-push-webhook",
            "token": "wire-token",
            "authentication": {"scheme": "Bearer", "credentials": "wire-secret"},
        });
        let created = wire
            .call(&Op::CreatePushConfig(config), Some(VERSION))
            .await
            .map_err(|e| format!("CreateTaskPushNotificationConfig: {e}"))?;
        check(
            "CreateTaskPushNotificationConfig",
            "lf.a2a.v1.TaskPushNotificationConfig",
            &created,
        );
    }
    let _ = wire.call(&Op::Cancel(&task_id), Some(VERSION)).await;
    if problems.is_empty() {
        Ok(format!("ProtoJSON of a2a.proto: {}", checked.join(", ")))
    } else {
        Err(problems.join("; "))
    }
}

/// `GET /tasks` with camelCase query parameters: the filters and pages they name.
pub(super) async fn query_params(wire: &Wire) -> CheckResult {
    let context = message_id("ctx-query");
    let mut made = Vec::new();
    for prefix in [
        "tck-complete-task",
        "tck-complete-task",
        "tck-input-required",
    ] {
        let task = send_for_task(wire, prefix, Some(&context)).await?;
        made.push(task["id"].as_str().unwrap_or_default().to_owned());
    }
    let list = |fields: Value| async move {
        let result = wire
            .call(&Op::List(fields.clone()), Some(VERSION))
            .await
            .map_err(|e| format!("GET /tasks{}: {e}", query(&fields)))?;
        let ids: Vec<String> = result["tasks"]
            .as_array()
            .map(|tasks| {
                tasks
                    .iter()
                    .filter_map(|t| t["id"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        let token = result["nextPageToken"].as_str().unwrap_or("").to_owned();
        Ok::<_, String>((ids, token))
    };
    let (mut all, _) = list(json!({ "contextId": context })).await?;
    all.sort();
    made.sort();
    if all != made {
        return Err(format!("?contextId= listed {all:?}, expected {made:?}"));
    }
    let (completed, _) =
        list(json!({ "contextId": context, "status": "TASK_STATE_COMPLETED" })).await?;
    if completed.len() != 2 {
        return Err(format!(
            "?contextId=…&status=TASK_STATE_COMPLETED listed {} tasks, expected the 2 completed",
            completed.len()
        ));
    }
    let (first, token) = list(json!({ "contextId": context, "pageSize": 2 })).await?;
    if first.len() != 2 || token.is_empty() {
        return Err(format!(
            "?pageSize=2 listed {} tasks with nextPageToken {token:?}",
            first.len()
        ));
    }
    let (second, _) =
        list(json!({ "contextId": context, "pageSize": 2, "pageToken": token })).await?;
    if second.len() != 1 || first.contains(&second[0]) {
        return Err(format!("?pageToken= listed {second:?} after {first:?}"));
    }
    Ok("contextId, status, pageSize and pageToken honoured".into())
}

/// A request with fields the agent does not know is served.
pub(super) async fn unknown_request_fields(wire: &Wire) -> CheckResult {
    let mut request = send_request("tck-complete-task", None);
    request["aFieldOfTomorrow"] = json!({"nested": true});
    request["message"]["anotherNewField"] = json!(42);
    let result = wire
        .call(&Op::Send(request), Some(VERSION))
        .await
        .map_err(|e| format!("SendMessage with unknown fields: {e}"))?;
    match result["task"]["status"]["state"].as_str() {
        Some("TASK_STATE_COMPLETED") => Ok("unknown request fields ignored".into()),
        other => Err(format!(
            "the task is {other:?}, expected TASK_STATE_COMPLETED"
        )),
    }
}

/// Requests naming `1.0` and `1.0.1` are served (JSON-RPC, HTTP+JSON).
pub(super) async fn version_accepted(wire: &Wire) -> CheckResult {
    let task = send_for_task(wire, "tck-complete-task", None).await?;
    let id = task["id"].as_str().unwrap_or_default();
    for version in ["1.0", "1.0.1"] {
        let read = wire
            .call(&Op::Get(id), Some(version))
            .await
            .map_err(|e| format!("GetTask with A2A-Version: {version}: {e}"))?;
        if read["id"] != task["id"] {
            return Err(format!(
                "GetTask with A2A-Version: {version} answered {read}"
            ));
        }
    }
    Ok("A2A-Version 1.0 and 1.0.1 served".into())
}
