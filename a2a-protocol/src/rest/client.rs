//! The client side of the HTTP+JSON routing: a typed request turned into the method, path, query
//! string and body to send, on the binding of the operations table that fits it.

use std::fmt;

use serde_json::{Map, Value};

use super::encoding::{encode, json_name};
use super::template::{CompiledBinding, Template, compiled_bindings};
use crate::operations::HttpBinding;
use crate::operations::MethodParams;

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
pub(super) fn query_string(fields: &Map<String, Value>) -> Result<String, BuildError> {
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
