//! Checking what the A2A spec requires of a message, separately from parsing it.
//!
//! Parsing is as lenient as ProtoJSON (a REQUIRED field may be absent on the wire); [`Validate`] then
//! reports every violation at once, each with its field path, in the words and shape the official
//! Python SDK uses, so a server can answer a client with [`Violations::to_jsonrpc_error`]:
//!
//! ```
//! use a2a_types::validate::Validate;
//! use a2a_types::v1::SendMessageRequest;
//!
//! let request: SendMessageRequest =
//!     serde_json::from_str(r#"{"message": {"messageId": "m-1", "parts": [{"text": "hi"}, {}]}}"#).unwrap();
//! let violations = request.validate().unwrap_err();
//! let fields: Vec<&str> = violations.iter().map(|v| v.field.as_str()).collect();
//! assert_eq!(fields, ["message.role", "message.parts[1].content"]);
//! assert_eq!(violations.to_jsonrpc_error()["code"], -32602);
//! ```
//!
//! The rules (generated from `google.api.field_behavior = REQUIRED` in the proto): a REQUIRED string,
//! number or enum must not hold its default; a REQUIRED list or map needs at least one element; a REQUIRED
//! message must be present; every oneof must have a member (each A2A oneof means "exactly one"); nested
//! messages are checked wherever they are present. `a2a-types` holds a REQUIRED message in a plain field,
//! so it counts as missing when it equals its default and has REQUIRED fields of its own.

use std::fmt;

use serde_json::{Value, json};

/// The JSON-RPC error code for invalid parameters, which A2A uses for validation failures.
pub const INVALID_PARAMS: i64 = -32602;

/// One field that breaks a requirement of the spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldViolation {
    /// Path of the field, with proto field names: `message.parts[0].content`, `security_schemes[oauth]`.
    pub field: String,
    /// What is wrong, e.g. `Field is required.`
    pub description: String,
}

impl FieldViolation {
    /// The violation of `field` inside the message at `prefix` (empty for the top level), such as
    /// `message` + `role`: `message.role`.
    pub fn at(prefix: &str, field: &str, description: &str) -> Self {
        Self {
            field: join(prefix, field),
            description: description.to_owned(),
        }
    }
}

pub(crate) fn join(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_owned()
    } else {
        format!("{prefix}.{field}")
    }
}

/// Every violation found in one message (never empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violations(Vec<FieldViolation>);

impl Violations {
    /// The violations, in the order the fields were checked (proto declaration order, depth first).
    pub fn iter(&self) -> std::slice::Iter<'_, FieldViolation> {
        self.0.iter()
    }

    /// How many violations there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always `false`: there is at least one violation.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The violations as a list.
    pub fn into_vec(self) -> Vec<FieldViolation> {
        self.0
    }

    /// Adds the violations of `other`, for checks spanning several messages.
    pub fn extend(&mut self, other: Violations) {
        self.0.extend(other.0);
    }

    /// The JSON-RPC `error` object the A2A spec prescribes for invalid params, as the official SDK
    /// builds it: code -32602, and `data` holding a `google.rpc.ErrorInfo` (reason `INVALID_PARAMS`) and
    /// a `google.rpc.BadRequest` with one `fieldViolations` entry per violation.
    pub fn to_jsonrpc_error(&self) -> Value {
        let errors: Vec<Value> = self
            .iter()
            .map(|v| json!({"field": v.field, "message": v.description}))
            .collect();
        let field_violations: Vec<Value> = self
            .iter()
            .map(|v| json!({"field": v.field, "description": v.description}))
            .collect();
        json!({
            "code": INVALID_PARAMS,
            "message": "Validation failed",
            "data": [
                {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "INVALID_PARAMS",
                    "domain": "a2a-protocol.org",
                    "metadata": {"errors": errors},
                },
                {
                    "@type": "type.googleapis.com/google.rpc.BadRequest",
                    "fieldViolations": field_violations,
                },
            ],
        })
    }

    /// A whole JSON-RPC 2.0 error response to the request with this `id`.
    pub fn to_jsonrpc_response(&self, id: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "error": self.to_jsonrpc_error()})
    }
}

impl From<Vec<FieldViolation>> for Violations {
    fn from(violations: Vec<FieldViolation>) -> Self {
        Self(violations)
    }
}

impl<'a> IntoIterator for &'a Violations {
    type Item = &'a FieldViolation;
    type IntoIter = std::slice::Iter<'a, FieldViolation>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, violation) in self.iter().enumerate() {
            if index > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{}: {}", violation.field, violation.description)?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

/// A message whose spec requirements can be checked; implemented for every `v1` message.
pub trait Validate {
    /// Checks every requirement, returning all violations.
    fn validate(&self) -> Result<(), Violations> {
        let mut out = Vec::new();
        self.collect_violations("", &mut out);
        if out.is_empty() {
            Ok(())
        } else {
            Err(Violations(out))
        }
    }

    /// Appends the violations of this message, with paths under `prefix`.
    #[doc(hidden)]
    fn collect_violations(&self, prefix: &str, out: &mut Vec<FieldViolation>);
}
