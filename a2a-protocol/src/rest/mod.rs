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
//! found through [`a2a_types::v1::visit_message`]), and the request is then read from that ProtoJSON as
//! [`a2a_types::json`] does, so an error names the field (`pageSize`, `message.parts[0]`).
//!
//! The code is split along that work: [`route`] and [`PathMatch`] (`server`), their error
//! [`RouteError`] (`error`), [`build_request`] (`client`), the path templates (`template`),
//! percent-coding and query strings (`encoding`), and the serde reader of the gathered fields
//! (`node`).
//!
//! # Answering a request
//!
//! ```
//! use a2a_protocol::operations::{MethodParams, MethodResult};
//! use a2a_protocol::errors::{Error, ErrorKind};
//! use a2a_protocol::rest;
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
//! use a2a_protocol::operations::MethodParams;
//! use a2a_protocol::rest;
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
//!
//! [`Operation`]: crate::operations::Operation
//! [`MethodParams`]: crate::operations::MethodParams
//! [`OPERATIONS`]: crate::operations::OPERATIONS

mod client;
mod encoding;
mod error;
mod node;
mod server;
mod template;

pub use client::{BuildError, HttpRequest, build_request, build_request_for};
pub use error::RouteError;
pub use server::{PathMatch, Route, match_path, route, route_with_limits};
