//! JSON-RPC 2.0 for A2A v1 (spec section 9): request and response envelopes, request ids, and the
//! params and results of every v1 method, typed by method name.
//!
//! A server reads a request body with [`JsonRpcRequest::parse`], which picks the params type from the
//! `method` ([`MethodParams`], generated from the proto's service so a new RPC is readable without a
//! change here), and answers with a [`JsonRpcResponse`]. Every failure is an [`EnvelopeError`] naming
//! the JSON path, which converts into the JSON-RPC error to answer with:
//!
//! ```
//! use a2a_protocol::jsonrpc::{Id, JsonRpcRequest, JsonRpcResponse};
//! use a2a_protocol::operations::MethodParams;
//! use a2a_protocol::operations::Operation;
//!
//! let body = serde_json::json!({
//!     "jsonrpc": "2.0", "id": 7, "method": "GetTask",
//!     "params": {"id": "task-1", "historyLength": 2}
//! });
//! let request = JsonRpcRequest::parse(&body).unwrap();
//! assert_eq!(request.id, Some(Id::Number(7)));
//! let MethodParams::GetTask(params) = &request.params else { panic!() };
//! assert_eq!(params.id, "task-1");
//! assert_eq!(request.params.operation(), Operation::GetTask);
//!
//! let wrong = serde_json::json!({"jsonrpc": "2.0", "id": 8, "method": "GetTask", "params": [null, "task-1", 0]});
//! let error = JsonRpcRequest::parse(&wrong).unwrap_err();
//! assert_eq!(error.path, "params");
//! let answer = JsonRpcResponse::<serde_json::Value>::error(error.id.clone(), error.to_error());
//! assert_eq!(answer.to_json()["error"]["code"], -32602);
//! ```
//!
//! A server holding the body's bytes reads it with [`JsonRpcRequest::from_slice`], which checks it
//! against [`Limits::default`] before parsing anything ([`JsonRpcRequest::from_slice_with_limits`]
//! takes a server's own [`Limits`]): a body over them is `-32600` Invalid Request, "payload too
//! large", the answer the official Python SDK gives a body over its size limit. Clients read
//! responses the same way ([`JsonRpcResponse::from_slice`]). A server on its fast path reads a
//! well-formed request straight into the typed params with [`JsonRpcRequest::read_direct`], and any
//! other body as above, to name what is wrong.
//!
//! Transport-free: nothing here reads HTTP; an SSE stream of a streaming method carries one
//! [`JsonRpcResponse`] per event.
//!
//! # Answering a request
//!
//! Parse, hand the typed params to the agent, write its typed result or error (the workspace README
//! shows this same code; a test keeps the two identical):
//!
//! ```
//! use a2a_protocol::errors::{Error, ErrorKind};
//! use a2a_protocol::jsonrpc::{Id, JsonRpcRequest, JsonRpcResponse};
//! use a2a_protocol::operations::{MethodParams, MethodResult};
//! use a2a_types::v1::{Task, TaskState, TaskStatus};
//!
//! /// The agent's logic: typed params in, a typed result or an A2A error out.
//! fn handle(params: MethodParams) -> Result<MethodResult, Error> {
//!     match params {
//!         MethodParams::GetTask(get) if get.id == "task-1" => Ok(MethodResult::GetTask(Task::new(
//!             "task-1",
//!             "ctx-1",
//!             TaskStatus::now(TaskState::Working),
//!         ))),
//!         MethodParams::GetTask(get) => {
//!             Err(Error::new(ErrorKind::TaskNotFound).with_metadata("taskId", get.id))
//!         }
//!         _ => Err(Error::new(ErrorKind::UnsupportedOperation)),
//!     }
//! }
//!
//! /// One HTTP body in, the JSON-RPC response to send back.
//! fn answer(body: &str) -> serde_json::Value {
//!     let response: JsonRpcResponse = match serde_json::from_str(body) {
//!         Err(e) => JsonRpcResponse::error(None, Error::bare(ErrorKind::JsonParse, e.to_string())),
//!         Ok(json) => match JsonRpcRequest::parse(&json) {
//!             // -32600, -32601 or -32602, naming the field at fault.
//!             Err(e) => JsonRpcResponse::error(e.id.clone(), e.to_error()),
//!             Ok(request) => JsonRpcResponse {
//!                 id: request.id.unwrap_or(Id::Null),
//!                 outcome: handle(request.params),
//!             },
//!         },
//!     };
//!     response.to_json()
//! }
//!
//! let ok = answer(r#"{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "task-1"}}"#);
//! assert_eq!(ok["result"]["status"]["state"], "TASK_STATE_WORKING");
//! let missing = answer(r#"{"jsonrpc": "2.0", "id": 2, "method": "GetTask", "params": {"id": "t-9"}}"#);
//! assert_eq!(missing["error"]["code"], -32001); // TaskNotFoundError, with ErrorInfo details
//! let invalid = answer(r#"{"jsonrpc": "2.0", "id": 3, "method": "GetTask", "params": {"id": 7}}"#);
//! assert_eq!(invalid["error"]["code"], -32602);
//! assert_eq!(invalid["error"]["message"], "params.id: invalid type: integer `7`, expected a string");
//! ```

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::errors::{Error, ErrorKind};
use crate::limits::{Limit, LimitError, Limits};
use crate::operations::methods::{read, write};
use crate::operations::{MethodParams, MethodResult, Operation};

mod direct;
mod direct_response;
pub use direct::MAX_DIRECT_DEPTH;

/// The only `jsonrpc` value JSON-RPC 2.0 allows.
pub const JSONRPC_VERSION: &str = "2.0";

/// A request id: a string, an integer, or null. JSON-RPC 2.0 discourages fractional numbers; they are
/// rejected here, as they cannot be echoed back exactly.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Id {
    /// `"req-1"`.
    String(String),
    /// `7`.
    Number(i64),
    /// `null`.
    Null,
}

impl Id {
    /// The id as JSON.
    pub fn to_json(&self) -> Value {
        match self {
            Id::String(s) => Value::String(s.clone()),
            Id::Number(n) => Value::from(*n),
            Id::Null => Value::Null,
        }
    }

    /// Reads an id; `path` names it in the error.
    fn from_json(value: &Value, path: &str) -> Result<Id, EnvelopeError> {
        match value {
            Value::String(s) => Ok(Id::String(s.clone())),
            Value::Null => Ok(Id::Null),
            Value::Number(n) => n.as_i64().map(Id::Number).ok_or_else(|| {
                EnvelopeError::new(
                    ErrorKind::InvalidRequest,
                    path,
                    format!("the id {n} is not an integer that fits in 64 bits"),
                )
            }),
            other => Err(EnvelopeError::new(
                ErrorKind::InvalidRequest,
                path,
                format!(
                    "the id must be a string, an integer or null, not {}",
                    kind_of(other)
                ),
            )),
        }
    }
}

impl From<&str> for Id {
    fn from(id: &str) -> Self {
        Id::String(id.to_owned())
    }
}

impl From<String> for Id {
    fn from(id: String) -> Self {
        Id::String(id)
    }
}

impl From<i64> for Id {
    fn from(id: i64) -> Self {
        Id::Number(id)
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Id::from_json(&value, "id").map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

/// A JSON-RPC 2.0 request with params of type `P`.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonRpcRequest<P = MethodParams> {
    /// The id; `None` for a notification (no `id` member), which gets no response.
    pub id: Option<Id>,
    /// The method name.
    pub method: String,
    /// The params.
    pub params: P,
}

impl JsonRpcRequest<MethodParams> {
    /// A request calling the method of `params`.
    pub fn new(id: impl Into<Id>, params: MethodParams) -> Self {
        JsonRpcRequest {
            id: Some(id.into()),
            method: params.operation().jsonrpc_method().to_owned(),
            params,
        }
    }

    /// Reads a request to any v1 method, its params typed by the method. An unknown method is
    /// [`ErrorKind::MethodNotFound`].
    pub fn parse(body: &Value) -> Result<Self, EnvelopeError> {
        let (id, method, params) = read_request(body)?;
        let operation = Operation::from_jsonrpc_method(&method).ok_or_else(|| {
            EnvelopeError::new(
                ErrorKind::MethodNotFound,
                "method",
                format!("{method:?} is not an A2A v1 method"),
            )
            .with_id(id.clone())
        })?;
        let params = MethodParams::read_params(operation, params)
            .map_err(|e| params_error(e, id.clone()))?;
        Ok(JsonRpcRequest { id, method, params })
    }

    /// Reads a request from the bytes of a body under [`Limits::default`]: a body over them is
    /// [`ErrorKind::InvalidRequest`], text that is not JSON [`ErrorKind::JsonParse`], and the rest as
    /// [`parse`](Self::parse).
    pub fn from_slice(body: &[u8]) -> Result<Self, EnvelopeError> {
        Self::from_slice_with_limits(body, &Limits::default())
    }

    /// [`from_slice`](Self::from_slice) under `limits`, checked before anything is parsed.
    pub fn from_slice_with_limits(body: &[u8], limits: &Limits) -> Result<Self, EnvelopeError> {
        let json = read_body(body, limits, ErrorKind::InvalidRequest)?;
        Self::parse(&json)
    }

    /// The request as JSON.
    pub fn to_json(&self) -> Value {
        envelope_request(self.id.as_ref(), &self.method, self.params.to_json())
    }
}

impl<P: DeserializeOwned> JsonRpcRequest<P> {
    /// Reads a request whose params are a `P`, whatever the method.
    pub fn parse_as(body: &Value) -> Result<Self, EnvelopeError> {
        let (id, method, params) = read_request(body)?;
        let params = read(params).map_err(|e| params_error(e, id.clone()))?;
        Ok(JsonRpcRequest { id, method, params })
    }
}

impl<P: Serialize> JsonRpcRequest<P> {
    /// The request as JSON, with any serializable params.
    pub fn to_json_with(&self) -> Value {
        envelope_request(self.id.as_ref(), &self.method, write(&self.params))
    }
}

fn envelope_request(id: Option<&Id>, method: &str, params: Value) -> Value {
    let mut object = Map::new();
    object.insert("jsonrpc".into(), JSONRPC_VERSION.into());
    if let Some(id) = id {
        object.insert("id".into(), id.to_json());
    }
    object.insert("method".into(), method.into());
    object.insert("params".into(), params);
    Value::Object(object)
}

/// The envelope checks shared by every request: an object, `jsonrpc` "2.0", an id that is a string,
/// integer or null, a string method, and params that are an object (absent or null mean `{}`).
fn read_request(body: &Value) -> Result<(Option<Id>, String, Value), EnvelopeError> {
    let object = body.as_object().ok_or_else(|| {
        EnvelopeError::new(
            ErrorKind::InvalidRequest,
            "",
            format!("a request must be a JSON object, not {}", kind_of(body)),
        )
    })?;
    // Read the id first, so every later error can echo it.
    let id = object
        .get("id")
        .map(|id| Id::from_json(id, "id"))
        .transpose()?;
    check_version(object).map_err(|e| e.with_id(id.clone()))?;
    let method = match object.get("method") {
        Some(Value::String(method)) => method.clone(),
        Some(other) => {
            return Err(EnvelopeError::new(
                ErrorKind::InvalidRequest,
                "method",
                format!("the method must be a string, not {}", kind_of(other)),
            )
            .with_id(id));
        }
        None => {
            return Err(EnvelopeError::new(
                ErrorKind::InvalidRequest,
                "method",
                "the method is missing",
            )
            .with_id(id));
        }
    };
    let params = match object.get("params") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(params @ Value::Object(_)) => params.clone(),
        Some(Value::Array(_)) => {
            return Err(EnvelopeError::new(
                ErrorKind::InvalidParams,
                "params",
                "A2A params are a JSON object of named members, not an array of positional ones",
            )
            .with_id(id));
        }
        Some(other) => {
            return Err(EnvelopeError::new(
                ErrorKind::InvalidRequest,
                "params",
                format!("params must be a JSON object, not {}", kind_of(other)),
            )
            .with_id(id));
        }
    };
    Ok((id, method, params))
}

fn check_version(object: &Map<String, Value>) -> Result<(), EnvelopeError> {
    match object.get("jsonrpc") {
        Some(Value::String(version)) if version == JSONRPC_VERSION => Ok(()),
        Some(other) => Err(EnvelopeError::new(
            ErrorKind::InvalidRequest,
            "jsonrpc",
            format!("must be \"2.0\", not {other}"),
        )),
        None => Err(EnvelopeError::new(
            ErrorKind::InvalidRequest,
            "jsonrpc",
            "missing; JSON-RPC 2.0 requires \"jsonrpc\": \"2.0\"",
        )),
    }
}

/// A JSON-RPC 2.0 response: a result of type `R`, or an error.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonRpcResponse<R = MethodResult> {
    /// The id of the request answered (null when it could not be read).
    pub id: Id,
    /// The result, or the error.
    pub outcome: Result<R, Error>,
}

impl<R> JsonRpcResponse<R> {
    /// A success.
    pub fn result(id: Id, result: R) -> Self {
        JsonRpcResponse {
            id,
            outcome: Ok(result),
        }
    }

    /// A failure; a missing id (a request too broken to have one) is answered with `null`.
    pub fn error(id: Option<Id>, error: Error) -> Self {
        JsonRpcResponse {
            id: id.unwrap_or(Id::Null),
            outcome: Err(error),
        }
    }

    fn to_json_using(&self, result: impl FnOnce(&R) -> Value) -> Value {
        let mut object = Map::new();
        object.insert("jsonrpc".into(), JSONRPC_VERSION.into());
        object.insert("id".into(), self.id.to_json());
        match &self.outcome {
            Ok(value) => object.insert("result".into(), result(value)),
            Err(error) => object.insert("error".into(), error.to_jsonrpc()),
        };
        Value::Object(object)
    }

    fn read(
        body: &Value,
        result: impl FnOnce(Value) -> Result<R, EnvelopeError>,
    ) -> Result<Self, EnvelopeError> {
        let object = body.as_object().ok_or_else(|| {
            EnvelopeError::new(
                ErrorKind::InvalidRequest,
                "",
                format!("a response must be a JSON object, not {}", kind_of(body)),
            )
        })?;
        check_version(object)?;
        let id = match object.get("id") {
            Some(id) => Id::from_json(id, "id")?,
            None => {
                return Err(EnvelopeError::new(
                    ErrorKind::InvalidRequest,
                    "id",
                    "a response must have an id",
                ));
            }
        };
        let outcome = match (object.get("result"), object.get("error")) {
            (Some(value), None) => {
                Ok(result(value.clone()).map_err(|e| e.with_id(Some(id.clone())))?)
            }
            (None, Some(error)) => Err(Error::from_jsonrpc(error).map_err(|e| {
                EnvelopeError::new(
                    ErrorKind::InvalidRequest,
                    &join("error", &e.path),
                    e.problem,
                )
            })?),
            (Some(_), Some(_)) => {
                return Err(EnvelopeError::new(
                    ErrorKind::InvalidRequest,
                    "",
                    "a response has either a result or an error, not both",
                ));
            }
            (None, None) => {
                return Err(EnvelopeError::new(
                    ErrorKind::InvalidRequest,
                    "",
                    "a response needs a result or an error",
                ));
            }
        };
        Ok(JsonRpcResponse { id, outcome })
    }
}

impl JsonRpcResponse<MethodResult> {
    /// Reads a response to a request for `operation` (a client knows what it asked), the result
    /// typed by it.
    pub fn parse(body: &Value, operation: Operation) -> Result<Self, EnvelopeError> {
        Self::read(body, |value| {
            MethodResult::read_result(operation, value).map_err(|e| {
                let path = join("result", &e.path().to_string());
                EnvelopeError::new(
                    ErrorKind::InvalidAgentResponse,
                    &path,
                    e.into_inner().to_string(),
                )
            })
        })
    }

    /// Reads a response to `operation` from the bytes of a body under [`Limits::default`]: a body
    /// over them, or not JSON, is [`ErrorKind::InvalidAgentResponse`]; the rest as
    /// [`parse`](Self::parse).
    pub fn from_slice(body: &[u8], operation: Operation) -> Result<Self, EnvelopeError> {
        Self::from_slice_with_limits(body, operation, &Limits::default())
    }

    /// [`from_slice`](Self::from_slice) under `limits`, checked before anything is parsed.
    pub fn from_slice_with_limits(
        body: &[u8],
        operation: Operation,
        limits: &Limits,
    ) -> Result<Self, EnvelopeError> {
        check_body(body, limits, ErrorKind::InvalidAgentResponse)?;
        if let Some(response) = Self::read_direct(body, operation) {
            return Ok(response);
        }
        let json = body_value(body, ErrorKind::InvalidAgentResponse)?;
        Self::parse(&json, operation)
    }

    /// The response as JSON.
    pub fn to_json(&self) -> Value {
        self.to_json_using(MethodResult::to_json)
    }
}

/// A body as JSON under `limits`: over them is `over` (naming the limit and the path), text that is
/// not JSON `JsonParse` for a request (`over` is `InvalidRequest`), else `over` too.
fn read_body(body: &[u8], limits: &Limits, over: ErrorKind) -> Result<Value, EnvelopeError> {
    check_body(body, limits, over)?;
    body_value(body, over)
}

/// `body` checked against `limits`: over them is `over`, naming the limit and the path.
fn check_body(body: &[u8], limits: &Limits, over: ErrorKind) -> Result<(), EnvelopeError> {
    limits
        .check_json(body)
        .map(|_| ())
        .map_err(|error| EnvelopeError::over_limits(over, &error))
}

/// A body already checked against the limits as JSON (errors as [`read_body`] gives them).
fn body_value(body: &[u8], over: ErrorKind) -> Result<Value, EnvelopeError> {
    a2a_types::json::value_from_slice(body).map_err(|e| {
        let kind = if over == ErrorKind::InvalidRequest {
            ErrorKind::JsonParse
        } else {
            over
        };
        EnvelopeError::new(kind, "", e.to_string())
    })
}

impl<R: DeserializeOwned> JsonRpcResponse<R> {
    /// Reads a response whose result is an `R`.
    pub fn parse_as(body: &Value) -> Result<Self, EnvelopeError> {
        Self::read(body, |value| {
            read(value).map_err(|e| {
                let path = join("result", &e.path().to_string());
                EnvelopeError::new(
                    ErrorKind::InvalidAgentResponse,
                    &path,
                    e.into_inner().to_string(),
                )
            })
        })
    }
}

impl<R: Serialize> JsonRpcResponse<R> {
    /// The response as JSON, with any serializable result.
    pub fn to_json_with(&self) -> Value {
        self.to_json_using(write)
    }
}

impl JsonRpcResponse<Value> {
    /// The response as JSON, the result written as is.
    pub fn to_json(&self) -> Value {
        self.to_json_using(Value::clone)
    }
}

/// A request or response that cannot be read, with the JSON path of the problem and the A2A error a
/// server answers with ([`EnvelopeError::to_error`]).
#[derive(Clone, Debug, PartialEq)]
pub struct EnvelopeError {
    /// The error to answer with: `InvalidRequest`, `MethodNotFound`, `InvalidParams` (or, reading a
    /// response, `InvalidAgentResponse`).
    pub kind: ErrorKind,
    /// The JSON path of the problem: `jsonrpc`, `id`, `method`, `params.message.parts[0]`; empty for the
    /// whole body.
    pub path: String,
    /// What is wrong.
    pub problem: String,
    /// The request's id, when it could be read, for the error response.
    pub id: Option<Id>,
}

impl EnvelopeError {
    fn new(kind: ErrorKind, path: &str, problem: impl Into<String>) -> Self {
        EnvelopeError {
            kind,
            path: path.to_owned(),
            problem: a2a_types::json::bounded(&problem.into()),
            id: None,
        }
    }

    /// A body over its limits: the path of the first value over them, and the limit in the text.
    fn over_limits(kind: ErrorKind, error: &LimitError) -> Self {
        let problem = match error.limit {
            Limit::Elements => format!(
                "payload too large: more than {} JSON values (the max_elements limit)",
                error.max
            ),
            _ => format!("payload too large: {error}"),
        };
        let path = if error.path == "." { "" } else { &error.path };
        EnvelopeError::new(kind, path, problem)
    }

    fn with_id(mut self, id: Option<Id>) -> Self {
        self.id = id;
        self
    }

    /// The error to answer with; for invalid params, the path is also a `BadRequest` field violation.
    /// A body that is not JSON and an unknown method are [bare](Error::bare), as the SDK's server
    /// answers them.
    pub fn to_error(&self) -> Error {
        let mut error = match self.kind {
            ErrorKind::JsonParse | ErrorKind::MethodNotFound => {
                Error::bare(self.kind, self.to_string())
            }
            kind => Error::with_message(kind, self.to_string()),
        };
        if self.kind == ErrorKind::InvalidParams {
            let field = self.path.strip_prefix("params").unwrap_or(&self.path);
            error
                .field_violations
                .push(a2a_types::validate::FieldViolation {
                    field: field.trim_start_matches('.').to_owned(),
                    description: self.problem.clone(),
                });
        }
        error
    }
}

impl fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.problem)
        } else {
            write!(f, "{}: {}", self.path, self.problem)
        }
    }
}

impl std::error::Error for EnvelopeError {}

fn params_error(
    error: serde_path_to_error::Error<serde_json::Error>,
    id: Option<Id>,
) -> EnvelopeError {
    let path = join("params", &error.path().to_string());
    EnvelopeError::new(
        ErrorKind::InvalidParams,
        &path,
        error.into_inner().to_string(),
    )
    .with_id(id)
}

/// `params` + `message.parts[0]`; serde_path_to_error writes `.` for the root.
fn join(prefix: &str, path: &str) -> String {
    match path {
        "" | "." => prefix.to_owned(),
        _ if path.starts_with('[') => format!("{prefix}{path}"),
        _ => format!("{prefix}.{path}"),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
