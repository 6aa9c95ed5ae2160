//! The server side of the HTTP+JSON routing: a method and path matched to a binding of the
//! operations table, then the typed request read from the path variables, query string and body.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::encoding::{insert_query_value, json_name, parse_query, set_field};
use super::error::RouteError;
use super::node::{Node, json_leaf};
use super::template::{CompiledBinding, compiled_bindings};
use crate::errors::ErrorKind;
use crate::jsonrpc::{JSONRPC_VERSION, JsonRpcRequest};
use crate::limits::Limits;
use crate::operations::MethodParams;
use crate::operations::{HttpBinding, Operation};
use a2a_types::json::JsonError;
use a2a_types::registry::{A2aMessage, MessageVisitor};

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
        if self.binding.body == "*"
            && self.variables.is_empty()
            && let Some(params) = read_whole_body(self.operation, body)
        {
            return Ok(params);
        }
        self.read_gathered(query, body)
    }

    /// The typed request gathered from the path variables, the query string and the body as
    /// [`Node`]s, then read through the JSON-RPC envelope's reader: every binding can be read this
    /// way, and it names what is wrong.
    fn read_gathered(&self, query: &str, body: &[u8]) -> Result<MethodParams, RouteError> {
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

/// The fast path of a binding whose body is the whole request and whose path binds no field (`POST
/// /message:send`): the body's JSON read into the typed request at once, instead of gathered into
/// [`Node`]s, read as the request type, written back to JSON and read again in an envelope. The
/// typed request is the same (reading ProtoJSON written from a typed request gives it back); `None`
/// for anything the slow path could answer differently (an empty body, not an object, any failure),
/// which the caller reads the slow way to name the error.
fn read_whole_body(operation: Operation, body: &[u8]) -> Option<MethodParams> {
    // Parsed as the slow path parses it: a key twice, or text that is not Unicode, is its error.
    let json = a2a_types::json::value_from_slice(body).ok()?;
    if !json.is_object() {
        return None;
    }
    MethodParams::from_json(operation, json).ok()
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
    a2a_types::json::value_from_slice(body).map_err(|e| RouteError::InvalidBody {
        kind: ErrorKind::JsonParse,
        problem: a2a_types::json::bounded(&e.to_string()),
    })
}

/// Reads the operation's request type from the gathered fields, then the typed params from its
/// ProtoJSON.
fn read_typed(operation: Operation, fields: Node) -> Result<MethodParams, RouteError> {
    let info = operation.info();
    let json = match a2a_types::v1::visit_message(info.request_type, ReadRequest(fields.clone())) {
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
pub(super) struct ReadRequest(pub(super) Node);

impl MessageVisitor for ReadRequest {
    type Output = Result<Value, RouteError>;

    fn visit<M: A2aMessage>(self) -> Self::Output {
        let message: M = serde_path_to_error::deserialize(self.0).map_err(JsonError::from)?;
        serde_json::to_value(&message).map_err(|e| RouteError::field(".", e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::LimitError;

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

    /// The whole-body fast path reads what the gathering path reads, and leaves every body that path
    /// refuses (or might read differently) to it.
    #[test]
    fn a_whole_body_request_reads_as_the_gathering_path_reads_it() {
        let matched = match_path("POST", "/message:send").unwrap();
        let read = [
            r#"{"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}, {"data": {"k": [1, null]}}], "metadata": {"a": "b"}}, "configuration": {"historyLength": "3", "acceptedOutputModes": ["text/plain"]}}"#,
            r#"{"message": {"messageId": "m-2", "parts": [{"raw": "aGk=", "mediaType": "text/plain"}]}, "unknown": [1]}"#,
            r#"{"message": null}"#,
        ];
        for body in read {
            let fast = read_whole_body(matched.operation, body.as_bytes());
            let gathered = matched.read_gathered("", body.as_bytes()).unwrap();
            assert_eq!(fast, Some(gathered), "{body}");
        }
        let refused = [
            "",
            "  ",
            "[]",
            "{",
            r#"{"message": {"messageId": "m-1", "messageId": "m-2"}}"#,
            r#"{"message": {"messageId": 7}}"#,
            r#"{"message": {"messageId": "m-1"}, "x": "\ud800"}"#,
        ];
        for body in refused {
            assert!(
                read_whole_body(matched.operation, body.as_bytes()).is_none(),
                "{body}"
            );
        }
        // The gathering path still answers them: an empty body is an empty request, the rest errors.
        assert!(matched.read_gathered("", b"").is_ok());
        for body in &refused[2..] {
            assert!(
                matched.read_gathered("", body.as_bytes()).is_err(),
                "{body}"
            );
        }
    }
}
