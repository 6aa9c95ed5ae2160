//! [`RouteError`]: why a request could not be routed, with the A2A error, HTTP status and
//! HTTP+JSON error body to answer with.

use std::fmt;

use serde_json::Value;

use crate::errors::{Error, ErrorKind};
use crate::limits::LimitError;
use a2a_types::json::JsonError;
use a2a_types::validate::FieldViolation;

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
    /// The body is over the server's [`Limits`](crate::limits::Limits) (413, `InvalidRequest`); it was not parsed.
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

    pub(super) fn field(field: &str, problem: impl Into<String>) -> Self {
        RouteError::InvalidField {
            field: field.to_owned(),
            problem: a2a_types::json::bounded(&problem.into()),
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
