//! The HTTP+JSON binding's routing (spec section 11), without any HTTP library: a server turns a
//! request's method, path, query string and body into the [`Operation`] and its typed request
//! ([`MethodParams`]); a client turns a typed request into the method, path, query string and body to
//! send.
//!
//! Both directions read the `google.api.http` bindings of the generated operations table
//! ([`OPERATIONS`]), so an RPC the proto gains routes with no change here. The path templates follow
//! `google.api.http`: literal segments, `{field}` (same as `{field=*}`, one segment), `{field=**}` (the
//! rest of the path), `*` and `**`, and a verb suffix such as `:send`. Fields come from three places:
//!
//! | source | what it fills |
//! |---|---|
//! | path variables | the fields the template names (`{tenant}`, `{id=*}`, ...), percent-decoded; they override the same field in the body |
//! | body | with `body: "*"`, the whole request (an empty body is `{}`); with `body: "field"`, that field |
//! | query string | without a body, every other field: ProtoJSON (`contextId`) or proto (`context_id`) names, a repeated field as repeated keys, a nested message field as a dotted path (`config.historyLength`), enums by name or number, `true`/`false`, numbers, RFC 3339 timestamps |
//!
//! Decisions where `google.api.http` leaves room:
//! - **Unknown query parameters are ignored**, as ProtoJSON ignores unknown fields (spec section 5.7):
//!   a newer client may send a filter this server does not know yet. So are query parameters naming a
//!   field the path binds (the path wins), query parameters when the body holds the whole request
//!   (`body: "*"`, where `google.api.http` allows none), and a body sent to a binding without one.
//! - A singular field given twice in the query string is an error, not "last one wins".
//! - Query keys are `application/x-www-form-urlencoded`: `+` is a space there, not in the path.
//! - When templates overlap, the most specific wins: a template with a verb first, then the one
//!   whose first differing segment is literal (`GET /tasks/extendedAgentCard` is `GetTask`, not the
//!   tenant `tasks`'s extended card). A path whose best template serves other methods is
//!   [`RouteError::MethodNotAllowed`] (405), even if a less specific template would take the method.
//! - A custom method (a template with a verb) bound to `GET` also takes `POST`, its body ignored:
//!   the official Python SDK's client sends `POST /tasks/{id}:subscribe`, and its server takes both.
//!
//! Query values are converted to what each field's type reads (the type of the operation's request,
//! found through [`crate::v1::visit_message`]), and the request is then read from that ProtoJSON as
//! [`crate::json`] does, so an error names the field (`pageSize`, `message.parts[0]`).
//!
//! # Answering a request
//!
//! ```
//! use a2a_types::jsonrpc::{MethodParams, MethodResult};
//! use a2a_types::errors::{Error, ErrorKind};
//! use a2a_types::rest;
//! use a2a_types::v1::{Task, TaskState, TaskStatus};
//!
//! /// The agent's own logic: a typed request in, a typed result out.
//! fn handle(params: MethodParams) -> Result<MethodResult, Error> {
//!     match params {
//!         MethodParams::GetTask(request) if request.id == "t-1" => {
//!             let status = TaskStatus { state: TaskState::Working, ..Default::default() };
//!             Ok(MethodResult::GetTask(Task { id: request.id, status, ..Default::default() }))
//!         }
//!         MethodParams::GetTask(_) => Err(Error::new(ErrorKind::TaskNotFound)),
//!         _ => Err(Error::new(ErrorKind::UnsupportedOperation)),
//!     }
//! }
//!
//! /// What an HTTP server calls for each request: the status code and the JSON body to answer with.
//! fn answer(method: &str, path_and_query: &str, body: &[u8]) -> (u16, serde_json::Value) {
//!     let route = match rest::route(method, path_and_query, body) {
//!         Ok(route) => route,
//!         Err(error) => return (error.http_status(), error.to_rest()),
//!     };
//!     match handle(route.params) {
//!         Ok(result) => (200, result.to_json()),
//!         Err(error) => (error.kind.http_status(), error.to_rest()),
//!     }
//! }
//!
//! let (status, body) = answer("GET", "/tenant-a/tasks/t-1?historyLength=3", b"");
//! assert_eq!(status, 200);
//! assert_eq!(body["status"]["state"], "TASK_STATE_WORKING");
//!
//! let (status, body) = answer("GET", "/tasks/t-2", b"");
//! assert_eq!((status, body["error"]["status"].as_str()), (404, Some("NOT_FOUND")));
//!
//! let (status, body) = answer("GET", "/tasks?pageSize=ten", b"");
//! assert_eq!((status, body["error"]["status"].as_str()), (400, Some("INVALID_ARGUMENT")));
//! assert_eq!(body["error"]["details"][1]["fieldViolations"][0]["field"], "pageSize");
//!
//! let (status, _) = answer("DELETE", "/tasks/t-1", b"");
//! assert_eq!(status, 405);
//! ```
//!
//! # Sending a request
//!
//! ```
//! use a2a_types::jsonrpc::MethodParams;
//! use a2a_types::rest;
//! use a2a_types::v1::{ListTasksRequest, TaskState};
//!
//! let params = MethodParams::ListTasks(ListTasksRequest {
//!     context_id: Some("c-1".into()),
//!     status: Some(TaskState::Working),
//!     page_size: Some(10),
//!     ..Default::default()
//! });
//! let request = rest::build_request(&params, Some("tenant a"))?;
//! assert_eq!(request.method, "GET");
//! assert_eq!(
//!     request.path_and_query(),
//!     "/tenant%20a/tasks?contextId=c-1&pageSize=10&status=TASK_STATE_WORKING"
//! );
//! assert_eq!(request.body, None);
//! # Ok::<(), rest::BuildError>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, IntoDeserializer, Visitor};
use serde_json::{Map, Value, json};

use crate::errors::{Error, ErrorKind};
use crate::json::JsonError;
use crate::jsonrpc::{JSONRPC_VERSION, JsonRpcRequest, MethodParams};
use crate::limits::{LimitError, Limits};
use crate::operations::{HttpBinding, OPERATIONS, Operation};
use crate::registry::{A2aMessage, MessageVisitor};
use crate::validate::FieldViolation;

// ---------------------------------------------------------------------------------------------
// Server side
// ---------------------------------------------------------------------------------------------

/// A request matched to its operation, with the typed request read from it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Route {
    /// The operation called.
    pub operation: Operation,
    /// The binding of the operation that matched (the `{tenant}` variant or not).
    pub binding: &'static HttpBinding,
    /// The request, typed by the operation.
    pub params: MethodParams,
}

/// A method and path matched to a binding, before the query string and body are read: a server can
/// check the operation (its capability, authorization) before reading the body.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PathMatch {
    /// The operation called.
    pub operation: Operation,
    /// The binding that matched.
    pub binding: &'static HttpBinding,
    /// The path variables, percent-decoded, by the proto field path the template names (`task_id`).
    pub variables: Vec<(&'static str, String)>,
}

/// Routes one request: `path_and_query` is the request target (`/tasks?pageSize=10`), `body` the
/// raw body (ignored by bindings without one).
///
/// The body is read under [`Limits::default`] (a larger one is [`RouteError::TooLarge`], HTTP 413);
/// [`route_with_limits`] takes other limits.
pub fn route(method: &str, path_and_query: &str, body: &[u8]) -> Result<Route, RouteError> {
    route_with_limits(method, path_and_query, body, &Limits::default())
}

/// [`route`] with the body read under `limits` ([`crate::limits`]): checked before it is parsed.
pub fn route_with_limits(
    method: &str,
    path_and_query: &str,
    body: &[u8],
    limits: &Limits,
) -> Result<Route, RouteError> {
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    let matched = match_path(method, path)?;
    let params = matched.read_params_with_limits(query, body, limits)?;
    Ok(Route {
        operation: matched.operation,
        binding: matched.binding,
        params,
    })
}

/// Finds the binding for a method and path (without the query string).
pub fn match_path(method: &str, path: &str) -> Result<PathMatch, RouteError> {
    let mut candidates: Vec<(&'static CompiledBinding, Vec<(&'static str, String)>)> = Vec::new();
    for compiled in compiled_bindings() {
        if let Some(variables) = compiled.template.matches(path)? {
            candidates.push((compiled, variables));
        }
    }
    let Some(best) = candidates
        .iter()
        .map(|(compiled, _)| compiled.template.rank())
        .max()
    else {
        return Err(RouteError::NotFound {
            method: method.to_owned(),
            path: path.to_owned(),
        });
    };
    candidates.retain(|(compiled, _)| compiled.template.rank() == best);
    let allowed: Vec<&'static str> = candidates.iter().map(|(c, _)| c.binding.method).collect();
    let exact = candidates
        .iter()
        .position(|(compiled, _)| compiled.binding.method.eq_ignore_ascii_case(method));
    // A custom method (`:verb`) bound to GET is also taken by POST, as the official SDK's server
    // does: its client sends `POST /tasks/{id}:subscribe`.
    let lenient = || {
        candidates.iter().position(|(compiled, _)| {
            method.eq_ignore_ascii_case("POST")
                && compiled.binding.method == "GET"
                && compiled.template.verb.is_some()
        })
    };
    let Some((compiled, variables)) = exact.or_else(lenient).map(|at| candidates.swap_remove(at))
    else {
        return Err(RouteError::MethodNotAllowed {
            method: method.to_owned(),
            path: path.to_owned(),
            allowed,
        });
    };
    Ok(PathMatch {
        operation: compiled.operation,
        binding: compiled.binding,
        variables,
    })
}

impl PathMatch {
    /// Reads the typed request from the path variables, the query string (without `?`) and the body,
    /// the body under [`Limits::default`].
    pub fn read_params(&self, query: &str, body: &[u8]) -> Result<MethodParams, RouteError> {
        self.read_params_with_limits(query, body, &Limits::default())
    }

    /// [`read_params`](Self::read_params) with the body checked against `limits` before it is
    /// parsed (a binding without a body ignores it, and the limits with it).
    pub fn read_params_with_limits(
        &self,
        query: &str,
        body: &[u8],
        limits: &Limits,
    ) -> Result<MethodParams, RouteError> {
        if !self.binding.body.is_empty() {
            limits.check_json(body).map_err(RouteError::TooLarge)?;
        }
        let mut fields: BTreeMap<String, Node> = BTreeMap::new();
        match self.binding.body {
            "" => {
                for (key, value) in parse_query(query)? {
                    let names: Vec<&str> = key.split('.').collect();
                    if self.binds_in_path(&names) {
                        continue;
                    }
                    insert_query_value(&mut fields, &names, value, &key)?;
                }
            }
            "*" => fields = read_body(body)?.into_iter().map(json_leaf).collect(),
            field => {
                let names: Vec<String> = field.split('.').map(json_name).collect();
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                for (key, value) in parse_query(query)? {
                    let key_names: Vec<&str> = key.split('.').collect();
                    let in_body = key_names
                        .iter()
                        .zip(&names)
                        .all(|(key, name)| json_name(key) == *name);
                    if self.binds_in_path(&key_names) || in_body {
                        continue;
                    }
                    insert_query_value(&mut fields, &key_names, value, &key)?;
                }
                let body = if body.iter().all(u8::is_ascii_whitespace) {
                    Value::Object(Map::new())
                } else {
                    parse_body_json(body)?
                };
                set_field(&mut fields, &names, Node::Json(body));
            }
        }
        for (field, value) in &self.variables {
            let names: Vec<String> = field.split('.').map(json_name).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            set_field(&mut fields, &names, Node::Text(vec![value.clone()]));
        }
        read_typed(self.operation, Node::Object(fields))
    }

    /// Whether a query key (split on `.`) names a field the path binds, in either spelling.
    fn binds_in_path(&self, key: &[&str]) -> bool {
        self.variables.iter().any(|(field, _)| {
            let bound: Vec<String> = field.split('.').map(json_name).collect();
            key.len() == bound.len() && key.iter().zip(&bound).all(|(k, b)| json_name(k) == *b)
        })
    }
}

/// Why a request could not be routed; each converts into the A2A error to answer with
/// ([`RouteError::to_error`]) and has its HTTP status ([`RouteError::http_status`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RouteError {
    /// No binding has this path (404, `METHOD_NOT_FOUND`).
    NotFound {
        /// The request's method.
        method: String,
        /// The request's path.
        path: String,
    },
    /// The path is an operation's, but for other HTTP methods (405, `METHOD_NOT_FOUND`; answer with
    /// an `Allow` header listing `allowed`).
    MethodNotAllowed {
        /// The request's method.
        method: String,
        /// The request's path.
        path: String,
        /// The methods the path takes.
        allowed: Vec<&'static str>,
    },
    /// The body is not JSON (400, `JsonParse`), or not a JSON object (400, `InvalidRequest`).
    InvalidBody {
        /// Which of the two.
        kind: ErrorKind,
        /// What is wrong.
        problem: String,
    },
    /// The body is over the server's [`Limits`] (413, `InvalidRequest`); it was not parsed.
    TooLarge(LimitError),
    /// A field's value is wrong (400 `INVALID_ARGUMENT`, `InvalidParams` with a field violation).
    InvalidField {
        /// The field's path, ProtoJSON names as the request spelled them (`pageSize`,
        /// `message.parts[0]`; `.` for the request as a whole).
        field: String,
        /// What is wrong.
        problem: String,
    },
}

impl RouteError {
    /// The A2A error this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            RouteError::NotFound { .. } | RouteError::MethodNotAllowed { .. } => {
                ErrorKind::MethodNotFound
            }
            RouteError::InvalidBody { kind, .. } => *kind,
            RouteError::TooLarge(_) => ErrorKind::InvalidRequest,
            RouteError::InvalidField { .. } => ErrorKind::InvalidParams,
        }
    }

    /// The HTTP status to answer with: the error's own (section 5.4), except 405 for a known path
    /// called with the wrong method and 413 (Content Too Large) for a body over the limits.
    pub fn http_status(&self) -> u16 {
        match self {
            RouteError::MethodNotAllowed { .. } => 405,
            RouteError::TooLarge(_) => 413,
            _ => self.kind().http_status(),
        }
    }

    /// The A2A error to answer with; an invalid field is also a `BadRequest` field violation, and a
    /// wrong method lists the allowed ones in the `ErrorInfo` metadata (`allow`).
    pub fn to_error(&self) -> Error {
        let mut error = Error::with_message(self.kind(), self.to_string());
        match self {
            RouteError::InvalidField { field, problem } => {
                error.field_violations.push(FieldViolation {
                    field: field.clone(),
                    description: problem.clone(),
                });
            }
            RouteError::MethodNotAllowed { allowed, .. } => {
                error = error.with_metadata("allow", allowed.join(", "));
            }
            _ => {}
        }
        error
    }

    /// The HTTP+JSON error body (`google.rpc.Status` as JSON, section 11.6), its `code` being
    /// [`RouteError::http_status`].
    pub fn to_rest(&self) -> Value {
        let mut body = self.to_error().to_rest();
        body["error"]["code"] = self.http_status().into();
        body
    }

    fn field(field: &str, problem: impl Into<String>) -> Self {
        RouteError::InvalidField {
            field: field.to_owned(),
            problem: crate::json::bounded(&problem.into()),
        }
    }
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RouteError::NotFound { method, path } => {
                write!(f, "no A2A operation at {method} {path}")
            }
            RouteError::MethodNotAllowed {
                method,
                path,
                allowed,
            } => write!(
                f,
                "{path} does not take {method}; it takes {}",
                allowed.join(", ")
            ),
            RouteError::InvalidBody { problem, .. } => write!(f, "invalid body: {problem}"),
            RouteError::TooLarge(error) => write!(f, "payload too large: {error}"),
            RouteError::InvalidField { field, problem } => write!(f, "at `{field}`: {problem}"),
        }
    }
}

impl std::error::Error for RouteError {}

impl From<RouteError> for Error {
    fn from(error: RouteError) -> Self {
        error.to_error()
    }
}

impl From<JsonError> for RouteError {
    fn from(error: JsonError) -> Self {
        let field = error.path().to_owned();
        RouteError::field(&field, error.into_inner().to_string())
    }
}

fn read_body(body: &[u8]) -> Result<Map<String, Value>, RouteError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match parse_body_json(body)? {
        Value::Object(object) => Ok(object),
        _ => Err(RouteError::InvalidBody {
            kind: ErrorKind::InvalidRequest,
            problem: "the body must be a JSON object".to_owned(),
        }),
    }
}

fn parse_body_json(body: &[u8]) -> Result<Value, RouteError> {
    // A key twice is an error, as everywhere in this crate.
    crate::json::value_from_slice(body).map_err(|e| RouteError::InvalidBody {
        kind: ErrorKind::JsonParse,
        problem: crate::json::bounded(&e.to_string()),
    })
}

fn json_leaf((key, value): (String, Value)) -> (String, Node) {
    (key, Node::Json(value))
}

/// Reads the operation's request type from the gathered fields, then the typed params from its
/// ProtoJSON.
fn read_typed(operation: Operation, fields: Node) -> Result<MethodParams, RouteError> {
    let info = operation.info();
    let json = match crate::v1::visit_message(info.request_type, ReadRequest(fields.clone())) {
        Some(read) => read?,
        // A request type outside this package (e.g. `google.protobuf.Empty`): no field types to
        // follow, so values stay as the request spelled them.
        None => serde_path_to_error::deserialize::<_, Value>(fields).map_err(JsonError::from)?,
    };
    let envelope =
        json!({"jsonrpc": JSONRPC_VERSION, "method": info.jsonrpc_method, "params": json});
    JsonRpcRequest::parse(&envelope)
        .map(|request| request.params)
        .map_err(|e| {
            let field = e.path.strip_prefix("params").unwrap_or(&e.path);
            let field = field.trim_start_matches('.');
            RouteError::field(if field.is_empty() { "." } else { field }, e.problem)
        })
}

/// Reads the request as its own type `M`, so each query value is converted as the field reads it.
struct ReadRequest(Node);

impl MessageVisitor for ReadRequest {
    type Output = Result<Value, RouteError>;

    fn visit<M: A2aMessage>(self) -> Self::Output {
        let message: M = serde_path_to_error::deserialize(self.0).map_err(JsonError::from)?;
        serde_json::to_value(&message).map_err(|e| RouteError::field(".", e.to_string()))
    }
}

// ---------------------------------------------------------------------------------------------
// Client side
// ---------------------------------------------------------------------------------------------

/// The HTTP form of a request, for a client to send.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct HttpRequest {
    /// The HTTP method, upper case.
    pub method: &'static str,
    /// The path, variables percent-encoded.
    pub path: String,
    /// The query string without `?`, empty when no field goes there.
    pub query: String,
    /// The JSON body, for bindings that have one.
    pub body: Option<Value>,
}

impl HttpRequest {
    /// The request target: the path, then `?` and the query string if there is one.
    pub fn path_and_query(&self) -> String {
        if self.query.is_empty() {
            self.path.clone()
        } else {
            format!("{}?{}", self.path, self.query)
        }
    }
}

/// A request that has no HTTP form.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildError {
    /// The field at fault (ProtoJSON name), or the binding's path template.
    pub field: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at `{}`: {}", self.field, self.problem)
    }
}

impl std::error::Error for BuildError {}

/// The HTTP form of a request on the binding that fits it: the binding whose path variables the
/// request sets, the one binding the most of them when several do (so a request with a `tenant` goes
/// to `/{tenant}/...`). `tenant`, when given, sets the request's `tenant` first.
pub fn build_request(
    params: &MethodParams,
    tenant: Option<&str>,
) -> Result<HttpRequest, BuildError> {
    let mut json = params.to_json();
    if let (Some(tenant), Value::Object(object)) = (tenant, &mut json) {
        object.insert("tenant".to_owned(), tenant.into());
    }
    let info = params.operation().info();
    let mut best: Option<(&CompiledBinding, usize)> = None;
    for compiled in compiled_bindings()
        .iter()
        .filter(|c| c.operation == info.operation)
    {
        let fields = &compiled.template.variables;
        let all_set = fields.iter().all(|v| {
            lookup(&json, &v.field)
                .is_some_and(|value| !path_text(value).unwrap_or_default().is_empty())
        });
        if all_set && best.is_none_or(|(_, count)| fields.len() > count) {
            best = Some((compiled, fields.len()));
        }
    }
    let Some((compiled, _)) = best else {
        // Name the first unset path field of the binding needing the fewest.
        let missing = info
            .http
            .iter()
            .min_by_key(|binding| binding.path_fields().len())
            .and_then(|binding| {
                binding.path_fields().into_iter().find(|field| {
                    lookup(&json, field)
                        .and_then(path_text)
                        .is_none_or(|text| text.is_empty())
                })
            })
            .unwrap_or_default();
        return Err(BuildError {
            field: missing
                .split('.')
                .map(json_name)
                .collect::<Vec<_>>()
                .join("."),
            problem: format!(
                "{} has no HTTP binding whose path fields are all set",
                info.rpc_name
            ),
        });
    };
    build_json(compiled.binding, &compiled.template, json)
}

/// The HTTP form of a request on one binding of its operation (from `params.operation().info().http`).
pub fn build_request_for(
    binding: &HttpBinding,
    params: &MethodParams,
) -> Result<HttpRequest, BuildError> {
    let template = Template::parse(binding.path).ok_or_else(|| BuildError {
        field: binding.path.to_owned(),
        problem: "not a google.api.http path template".to_owned(),
    })?;
    build_json(binding, &template, params.to_json())
}

fn build_json(
    binding: &HttpBinding,
    template: &Template,
    json: Value,
) -> Result<HttpRequest, BuildError> {
    let Value::Object(mut fields) = json else {
        return Err(BuildError {
            field: ".".to_owned(),
            problem: "the request is not a JSON object".to_owned(),
        });
    };
    let mut values = Vec::new();
    for variable in &template.variables {
        let names: Vec<String> = variable.field.split('.').map(json_name).collect();
        let text = take(&mut fields, &names)
            .as_ref()
            .and_then(path_text)
            .filter(|text| !text.is_empty())
            .ok_or_else(|| BuildError {
                field: names.join("."),
                problem: format!("the path {} needs it, but it is not set", binding.path),
            })?;
        values.push(text);
    }
    let path = template.render(&values);
    let (query, body) = match binding.body {
        "" => (query_string(&fields)?, None),
        "*" => (String::new(), Some(Value::Object(fields))),
        field => {
            let names: Vec<String> = field.split('.').map(json_name).collect();
            let body = take(&mut fields, &names).unwrap_or_else(|| Value::Object(Map::new()));
            (query_string(&fields)?, Some(body))
        }
    };
    Ok(HttpRequest {
        method: binding.method,
        path,
        query,
        body,
    })
}

fn lookup<'a>(json: &'a Value, field: &str) -> Option<&'a Value> {
    field
        .split('.')
        .try_fold(json, |value, name| value.get(json_name(name)))
}

fn take(fields: &mut Map<String, Value>, names: &[String]) -> Option<Value> {
    match names {
        [] => None,
        [name] => fields.remove(name),
        [name, rest @ ..] => match fields.get_mut(name) {
            Some(Value::Object(inner)) => take(inner, rest),
            _ => None,
        },
    }
}

fn path_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

/// The query string of the fields left: dotted keys for nested messages, a key per element for
/// repeated fields.
fn query_string(fields: &Map<String, Value>) -> Result<String, BuildError> {
    let mut pairs = Vec::new();
    flatten(fields, "", &mut pairs)?;
    Ok(pairs
        .iter()
        .map(|(key, value)| format!("{}={}", encode(key, false), encode(value, false)))
        .collect::<Vec<_>>()
        .join("&"))
}

fn flatten(
    fields: &Map<String, Value>,
    prefix: &str,
    pairs: &mut Vec<(String, String)>,
) -> Result<(), BuildError> {
    for (name, value) in fields {
        let key = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        match value {
            Value::Null => {}
            Value::Object(inner) => flatten(inner, &key, pairs)?,
            Value::Array(items) => {
                for item in items {
                    let text = path_text(item).ok_or_else(|| BuildError {
                        field: key.clone(),
                        problem: "a list of messages or lists cannot go in a query string"
                            .to_owned(),
                    })?;
                    pairs.push((key.clone(), text));
                }
            }
            scalar => pairs.push((key, path_text(scalar).unwrap_or_default())),
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Path templates
// ---------------------------------------------------------------------------------------------

struct CompiledBinding {
    operation: Operation,
    binding: &'static HttpBinding,
    template: Template,
}

/// Every binding of the table with its parsed template, parsed once.
fn compiled_bindings() -> &'static [CompiledBinding] {
    static COMPILED: OnceLock<Vec<CompiledBinding>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        OPERATIONS
            .iter()
            .flat_map(|info| {
                info.http
                    .iter()
                    .map(move |binding| (info.operation, binding))
            })
            // A template this parser cannot read never matches; a unit test checks there is none.
            .filter_map(|(operation, binding)| {
                Some(CompiledBinding {
                    operation,
                    binding,
                    template: Template::parse(binding.path)?,
                })
            })
            .collect()
    })
}

/// A parsed `google.api.http` path template.
#[derive(Debug, PartialEq)]
struct Template {
    segments: Vec<Segment>,
    variables: Vec<Variable>,
    verb: Option<String>,
}

#[derive(Debug, PartialEq)]
enum Segment {
    Literal(String),
    /// `*`: one segment.
    One,
    /// `**`: the rest of the path (zero or more segments); only last.
    Rest,
}

/// A `{field=...}` variable spanning `segments[first..=last]`.
#[derive(Debug, PartialEq)]
struct Variable {
    field: String,
    first: usize,
    last: usize,
}

impl Template {
    fn parse(template: &str) -> Option<Template> {
        let rest = template.strip_prefix('/')?;
        // The verb is a `:` outside braces after the last `/` outside braces.
        let mut depth = 0usize;
        let mut verb_at = None;
        let mut slashes = Vec::new();
        for (at, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.checked_sub(1)?,
                '/' if depth == 0 => {
                    slashes.push(at);
                    verb_at = None;
                }
                ':' if depth == 0 => verb_at = Some(at),
                _ => {}
            }
        }
        if depth != 0 {
            return None;
        }
        let (body, verb) = match verb_at {
            Some(at) => (&rest[..at], Some(rest[at + 1..].to_owned())),
            None => (rest, None),
        };
        if verb.as_deref().is_some_and(str::is_empty) {
            return None;
        }
        let mut parts = Vec::new();
        let mut start = 0;
        for &at in slashes.iter().filter(|&&at| at < body.len()) {
            parts.push(&body[start..at]);
            start = at + 1;
        }
        parts.push(&body[start..]);

        let mut segments = Vec::new();
        let mut variables = Vec::new();
        for part in parts {
            if let Some(inner) = part.strip_prefix('{') {
                let inner = inner.strip_suffix('}')?;
                let (field, pattern) = inner.split_once('=').unwrap_or((inner, "*"));
                if field.is_empty() || field.contains(['{', '}', '/']) {
                    return None;
                }
                let first = segments.len();
                for sub in pattern.split('/') {
                    segments.push(Segment::parse(sub)?);
                }
                variables.push(Variable {
                    field: field.to_owned(),
                    first,
                    last: segments.len() - 1,
                });
            } else {
                segments.push(Segment::parse(part)?);
            }
        }
        let rest_at = segments.iter().position(|s| *s == Segment::Rest);
        if rest_at.is_some_and(|at| at + 1 != segments.len()) {
            return None;
        }
        Some(Template {
            segments,
            variables,
            verb,
        })
    }

    /// The path variables when `path` matches (`None` when it does not); a variable that does not
    /// decode is an error naming its field.
    fn matches(
        &'static self,
        path: &str,
    ) -> Result<Option<Vec<(&'static str, String)>>, RouteError> {
        let Some(rest) = path.strip_prefix('/') else {
            return Ok(None);
        };
        let rest = match &self.verb {
            Some(verb) => match rest
                .strip_suffix(verb.as_str())
                .and_then(|r| r.strip_suffix(':'))
            {
                Some(rest) => rest,
                None => return Ok(None),
            },
            None => rest,
        };
        let raw: Vec<&str> = rest.split('/').collect();
        let has_rest = self.segments.last() == Some(&Segment::Rest);
        let fixed = self.segments.len() - usize::from(has_rest);
        if raw.len() < fixed || (!has_rest && raw.len() != fixed) {
            return Ok(None);
        }
        for (segment, raw) in self.segments.iter().zip(&raw) {
            let fits = match segment {
                Segment::Literal(literal) => decode(raw, false).is_some_and(|d| d == *literal),
                Segment::One => !raw.is_empty(),
                Segment::Rest => true,
            };
            if !fits {
                return Ok(None);
            }
        }
        let mut variables = Vec::new();
        for variable in &self.variables {
            let end = if self.segments[variable.last] == Segment::Rest {
                raw.len()
            } else {
                variable.last + 1
            };
            let text = raw[variable.first..end].join("/");
            let multi = end - variable.first > 1 || self.segments[variable.last] == Segment::Rest;
            let value = decode(&text, multi).ok_or_else(|| {
                RouteError::field(
                    &variable.field,
                    format!("{text:?} is not a percent-encoded UTF-8 path segment"),
                )
            })?;
            variables.push((variable.field.as_str(), value));
        }
        Ok(Some(variables))
    }

    /// How specific the template is: a verb first, then per segment literal > `*` > `**`, left to
    /// right.
    fn rank(&self) -> (bool, Vec<u8>) {
        let segments = self
            .segments
            .iter()
            .map(|segment| match segment {
                Segment::Literal(_) => 2,
                Segment::One => 1,
                Segment::Rest => 0,
            })
            .collect();
        (self.verb.is_some(), segments)
    }

    /// The path with each variable's value (in template order) in place of its segments.
    fn render(&self, values: &[String]) -> String {
        let mut path = String::new();
        let mut at = 0;
        while at < self.segments.len() {
            path.push('/');
            match self.variables.iter().position(|v| v.first == at) {
                Some(index) => {
                    let variable = &self.variables[index];
                    let multi = variable.last > variable.first
                        || self.segments[variable.last] == Segment::Rest;
                    path.push_str(&encode(&values[index], multi));
                    at = variable.last + 1;
                }
                None => {
                    match &self.segments[at] {
                        Segment::Literal(literal) => path.push_str(literal),
                        Segment::One => path.push('*'),
                        Segment::Rest => path.push_str("**"),
                    }
                    at += 1;
                }
            }
        }
        if let Some(verb) = &self.verb {
            path.push(':');
            path.push_str(verb);
        }
        path
    }
}

impl Segment {
    fn parse(text: &str) -> Option<Segment> {
        match text {
            "" => None,
            "*" => Some(Segment::One),
            "**" => Some(Segment::Rest),
            literal if !literal.contains(['{', '}', '=', '*']) => {
                Some(Segment::Literal(literal.to_owned()))
            }
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Percent-encoding, names, query strings
// ---------------------------------------------------------------------------------------------

/// Percent-encodes everything but the unreserved characters (and `/` when `keep_slash`).
fn encode(text: &str, keep_slash: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'_' | b'.' | b'~')
            || (keep_slash && byte == b'/')
        {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Percent-decodes; `None` for a broken escape or bytes that are not UTF-8. For a multi-segment
/// variable `%2F` stays encoded, as `google.api.http` prescribes.
fn decode(text: &str, keep_slash_escape: bool) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            let byte = u8::from_str_radix(hex, 16).ok()?;
            if keep_slash_escape && byte == b'/' {
                out.extend_from_slice(&bytes[at..at + 3]);
            } else {
                out.push(byte);
            }
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The query's key/value pairs, decoded (`+` is a space).
fn parse_query(query: &str) -> Result<Vec<(String, String)>, RouteError> {
    let mut pairs = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(&key.replace('+', " "), false)
            .ok_or_else(|| RouteError::field(key, "not a percent-encoded UTF-8 query key"))?;
        let value = decode(&value.replace('+', " "), false)
            .ok_or_else(|| RouteError::field(&key, "not a percent-encoded UTF-8 query value"))?;
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// The ProtoJSON name of a proto field name (`task_id` is `taskId`); a ProtoJSON name is unchanged.
fn json_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Adds one query value under its dotted key; repeated keys gather into a list.
fn insert_query_value(
    fields: &mut BTreeMap<String, Node>,
    names: &[&str],
    value: String,
    key: &str,
) -> Result<(), RouteError> {
    let conflict = || RouteError::field(key, "a field cannot be both a value and a message");
    match names {
        [] => Ok(()),
        ["", ..] => Err(RouteError::field(key, "empty field name")),
        [name] => match fields
            .entry((*name).to_owned())
            .or_insert_with(|| Node::Text(Vec::new()))
        {
            Node::Text(values) => {
                values.push(value);
                Ok(())
            }
            _ => Err(conflict()),
        },
        [name, rest @ ..] => match fields
            .entry((*name).to_owned())
            .or_insert_with(|| Node::Object(BTreeMap::new()))
        {
            Node::Object(inner) => insert_query_value(inner, rest, value, key),
            _ => Err(conflict()),
        },
    }
}

/// Sets a field (ProtoJSON names), replacing it in either spelling: a path variable over the body.
fn set_field(fields: &mut BTreeMap<String, Node>, names: &[&str], node: Node) {
    let Some((name, rest)) = names.split_first() else {
        return;
    };
    // The same field spelled as the proto does (`task_id`) is removed, so it cannot clash.
    let spellings: Vec<String> = fields
        .keys()
        .filter(|key| key.as_str() != *name && json_name(key) == *name)
        .cloned()
        .collect();
    let mut existing = None;
    for spelling in spellings {
        existing = fields.remove(&spelling);
    }
    if rest.is_empty() {
        fields.insert((*name).to_owned(), node);
        return;
    }
    let entry = fields
        .remove(*name)
        .or(existing)
        .unwrap_or(Node::Object(BTreeMap::new()));
    let mut inner = match entry {
        Node::Object(inner) => inner,
        Node::Json(Value::Object(object)) => object.into_iter().map(json_leaf).collect(),
        _ => BTreeMap::new(),
    };
    set_field(&mut inner, rest, node);
    fields.insert((*name).to_owned(), Node::Object(inner));
}

// ---------------------------------------------------------------------------------------------
// Reading a typed request from path, query and body
// ---------------------------------------------------------------------------------------------

/// The request's fields as gathered: text from the path or query string (converted to whatever the
/// field's type asks for), JSON from the body, and nested messages.
#[derive(Clone, Debug)]
enum Node {
    Text(Vec<String>),
    Json(Value),
    Object(BTreeMap<String, Node>),
}

type DeError = serde_json::Error;

impl Node {
    /// The one text value of a singular field.
    fn single(self) -> Result<String, DeError> {
        match self {
            Node::Text(mut values) if values.len() == 1 => Ok(values.remove(0)),
            Node::Text(values) => Err(de::Error::custom(format!(
                "expected one value, got {} (the field is not repeated)",
                values.len()
            ))),
            Node::Json(_) | Node::Object(_) => Err(de::Error::invalid_type(
                de::Unexpected::Map,
                &"a single value",
            )),
        }
    }

    fn visit_text_seq<'de, V: Visitor<'de>>(
        values: Vec<String>,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let mut seq = SeqDeserializer::new(values.into_iter().map(|v| Node::Text(vec![v])));
        let value = visitor.visit_seq(&mut seq)?;
        seq.end()?;
        Ok(value)
    }
}

impl<'de> IntoDeserializer<'de, DeError> for Node {
    type Deserializer = Node;

    fn into_deserializer(self) -> Node {
        self
    }
}

macro_rules! integer {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            match self {
                Node::Json(value) => value.$method(visitor),
                node => {
                    let text = node.single()?;
                    if let Ok(number) = text.parse::<i64>() {
                        visitor.visit_i64(number)
                    } else if let Ok(number) = text.parse::<u64>() {
                        visitor.visit_u64(number)
                    } else {
                        Err(de::Error::invalid_value(de::Unexpected::Str(&text), &visitor))
                    }
                }
            }
        }
    )*};
}

macro_rules! text {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            match self {
                Node::Json(value) => value.$method(visitor),
                node => visitor.visit_string(node.single()?),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Node {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_any(visitor),
            Node::Object(fields) => {
                let mut map = MapDeserializer::new(fields.into_iter());
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
            Node::Text(values) if values.len() == 1 => {
                let text = values.into_iter().next().unwrap_or_default();
                // An integer is offered as one, so fields read through `deserialize_any` (int32
                // written as strings or numbers, enums by number) take it; strings ask for strings.
                match text.parse::<i64>() {
                    Ok(number) if number.to_string() == text => visitor.visit_i64(number),
                    _ => visitor.visit_string(text),
                }
            }
            Node::Text(values) => Node::visit_text_seq(values, visitor),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_bool(visitor),
            node => match node.single()?.as_str() {
                "true" => visitor.visit_bool(true),
                "false" => visitor.visit_bool(false),
                other => Err(de::Error::invalid_value(
                    de::Unexpected::Str(other),
                    &"true or false",
                )),
            },
        }
    }

    integer!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64);

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_f64(visitor),
            node => {
                let text = node.single()?;
                match text.parse::<f64>() {
                    Ok(number) => visitor.visit_f64(number),
                    Err(_) => Err(de::Error::invalid_value(
                        de::Unexpected::Str(&text),
                        &visitor,
                    )),
                }
            }
        }
    }

    text!(deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_identifier);

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_option(visitor),
            node => visitor.visit_some(node),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_unit(visitor),
            _ => visitor.visit_unit(),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_seq(visitor),
            Node::Text(values) => Node::visit_text_seq(values, visitor),
            Node::Object(_) => Err(de::Error::invalid_type(de::Unexpected::Map, &visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Text(values) => Err(de::Error::invalid_type(
                de::Unexpected::Str(&values.join(",")),
                &"a message (set its fields as `field.subfield=value`)",
            )),
            node => node.deserialize_any(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_enum(name, variants, visitor),
            Node::Object(_) => self.deserialize_any(visitor),
            node => {
                let text: de::value::StringDeserializer<DeError> =
                    node.single()?.into_deserializer();
                visitor.visit_enum(text)
            }
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_over_the_limits_is_413_naming_the_limit_and_the_path() {
        let body = br#"{"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "a"}, {"text": "b"}]}}"#;
        // 1 (request) + message + messageId + role + parts + 2 parts + 2 texts = 9 values.
        let at = |n| {
            route_with_limits(
                "POST",
                "/message:send",
                body,
                &Limits::default().with_max_elements(n),
            )
        };
        assert!(at(9).is_ok());
        let error = at(8).unwrap_err();
        let RouteError::TooLarge(limit) = &error else {
            panic!("{error:?}")
        };
        assert_eq!(
            (limit.max, limit.path.as_str()),
            (8, "message.parts[1].text")
        );
        assert_eq!(error.http_status(), 413);
        assert_eq!(error.kind(), ErrorKind::InvalidRequest);
        let rest = error.to_rest();
        assert_eq!(rest["error"]["code"], 413);
        assert!(
            rest["error"]["message"]
                .as_str()
                .unwrap()
                .contains("max_elements limit) at `message.parts[1].text`"),
            "{rest}"
        );
        let bytes = Limits::default().with_max_bytes(body.len() - 1);
        let error = route_with_limits("POST", "/message:send", body, &bytes).unwrap_err();
        assert!(
            matches!(error, RouteError::TooLarge(LimitError { max, .. }) if max == body.len() - 1)
        );
        // The plain entry point applies the defaults.
        let hostile = format!(r#"{{"message": {{"parts": [{}0]}}}}"#, "0,".repeat(100_000));
        let error = route("POST", "/message:send", hostile.as_bytes()).unwrap_err();
        assert_eq!(error.http_status(), 413, "{error}");
        // A binding without a body ignores what was sent, limits included.
        let get = route_with_limits(
            "GET",
            "/tasks/t-1",
            body,
            &Limits::default().with_max_elements(0),
        );
        assert!(get.is_ok());
    }

    #[test]
    fn every_template_of_the_table_parses() {
        let total: usize = OPERATIONS.iter().map(|info| info.http.len()).sum();
        assert_eq!(compiled_bindings().len(), total);
        for compiled in compiled_bindings() {
            let fields: Vec<&str> = compiled
                .template
                .variables
                .iter()
                .map(|v| v.field.as_str())
                .collect();
            assert_eq!(
                fields,
                compiled.binding.path_fields(),
                "{}",
                compiled.binding.path
            );
        }
    }

    #[test]
    fn templates_parse_as_google_api_http_reads_them() {
        let template = Template::parse("/v1/{name=projects/*/docs/**}:get").unwrap();
        assert_eq!(template.verb.as_deref(), Some("get"));
        assert_eq!(
            template.segments,
            [
                Segment::Literal("v1".into()),
                Segment::Literal("projects".into()),
                Segment::One,
                Segment::Literal("docs".into()),
                Segment::Rest
            ]
        );
        assert_eq!(
            template.variables,
            [Variable {
                field: "name".into(),
                first: 1,
                last: 4
            }]
        );
        for broken in [
            "tasks",
            "/tasks/{id",
            "/a/**/b",
            "/tasks/{id}:",
            "/{=*}",
            "/a//b",
        ] {
            assert_eq!(Template::parse(broken), None, "{broken}");
        }
    }

    #[test]
    fn multi_segment_variables_match_and_keep_encoded_slashes() {
        let template: &'static Template = Box::leak(Box::new(
            Template::parse("/v1/{name=projects/*/docs/**}:get").unwrap(),
        ));
        let vars = template
            .matches("/v1/projects/p%201/docs/a/b%2Fc:get")
            .unwrap()
            .unwrap();
        assert_eq!(vars, [("name", "projects/p 1/docs/a/b%2Fc".to_owned())]);
        assert_eq!(
            template.matches("/v1/projects/p/docs:get").unwrap(),
            Some(vec![("name", "projects/p/docs".to_owned())])
        );
        assert_eq!(
            template.matches("/v1/projects/p/other/x:get").unwrap(),
            None
        );
        assert_eq!(template.matches("/v1/projects/p/docs/x").unwrap(), None);
        assert_eq!(
            template.render(&["projects/p 1/docs/a/b".to_owned()]),
            "/v1/projects/p%201/docs/a/b:get"
        );
    }

    #[test]
    fn percent_coding_round_trips_and_rejects_broken_escapes() {
        let text = "t-1/ä ü:%?&=+#";
        assert_eq!(decode(&encode(text, false), false).as_deref(), Some(text));
        assert_eq!(encode("a/b c", true), "a/b%20c");
        assert_eq!(decode("%zz", false), None);
        assert_eq!(decode("%4", false), None);
        assert_eq!(decode("%FF", false), None);
        assert_eq!(json_name("task_id"), "taskId");
        assert_eq!(json_name("taskId"), "taskId");
    }

    fn query_fields(query: &str) -> Result<Node, RouteError> {
        let mut fields = BTreeMap::new();
        for (key, value) in parse_query(query)? {
            let names: Vec<&str> = key.split('.').collect();
            insert_query_value(&mut fields, &names, value, &key)?;
        }
        Ok(Node::Object(fields))
    }

    fn read_as(request_type: &str, query: &str) -> Result<Value, RouteError> {
        crate::v1::visit_message(request_type, ReadRequest(query_fields(query)?)).unwrap()
    }

    #[test]
    fn query_values_fill_repeated_and_nested_fields_by_their_types() {
        let query = "configuration.acceptedOutputModes=text%2Fplain\
            &configuration.acceptedOutputModes=application%2Fjson&configuration.history_length=3\
            &configuration.returnImmediately=true&message.messageId=m-1&message.role=1\
            &message.referenceTaskIds=t-1&message.referenceTaskIds=t-2&message.contextId=42\
            &metadata.source=cli";
        let json = read_as("lf.a2a.v1.SendMessageRequest", query).unwrap();
        let expected = json!({
            "configuration": {
                "acceptedOutputModes": ["text/plain", "application/json"],
                "historyLength": 3,
                "returnImmediately": true
            },
            "message": {
                "messageId": "m-1",
                "role": "ROLE_USER",
                "referenceTaskIds": ["t-1", "t-2"],
                "contextId": "42"
            },
            "metadata": {"source": "cli"}
        });
        assert_eq!(json, expected);
        // A single value of a repeated field is a list of one.
        let json = read_as(
            "lf.a2a.v1.SendMessageRequest",
            "configuration.acceptedOutputModes=text%2Fplain",
        )
        .unwrap();
        assert_eq!(
            json["configuration"]["acceptedOutputModes"],
            json!(["text/plain"])
        );

        // The client side writes the same fields as a query string that reads back the same.
        let Value::Object(object) = &expected else {
            unreachable!()
        };
        let rebuilt = query_string(object).unwrap();
        assert!(rebuilt.contains("message.referenceTaskIds=t-1&message.referenceTaskIds=t-2"));
        assert_eq!(
            read_as("lf.a2a.v1.SendMessageRequest", &rebuilt).unwrap(),
            expected
        );
    }

    #[test]
    fn query_errors_name_the_nested_field() {
        let error = read_as(
            "lf.a2a.v1.SendMessageRequest",
            "configuration.historyLength=three",
        )
        .unwrap_err();
        assert!(
            matches!(&error, RouteError::InvalidField { field, .. } if field == "configuration.historyLength"),
            "{error:?}"
        );
        let error = read_as("lf.a2a.v1.SendMessageRequest", "configuration=x").unwrap_err();
        assert!(
            matches!(&error, RouteError::InvalidField { field, problem } if field == "configuration" && problem.contains("field.subfield")),
            "{error:?}"
        );
        let error = query_fields("message=x&message.role=1").unwrap_err();
        assert!(
            matches!(&error, RouteError::InvalidField { field, .. } if field == "message.role"),
            "{error:?}"
        );
        let error = query_fields("message..role=1").unwrap_err();
        assert!(
            matches!(error, RouteError::InvalidField { .. }),
            "{error:?}"
        );

        let parts = json!({"message": {"parts": [{"text": "hi"}]}});
        let error = query_string(parts.as_object().unwrap()).unwrap_err();
        assert_eq!(error.field, "message.parts");
    }
}
