//! The client's errors: the A2A error the agent answered (the same [`ErrorKind`] kind whichever
//! binding carried it), or what went wrong before or around it.

use std::fmt;

use a2a_types::errors::{Error, ErrorKind};

use super::Binding;

/// Why a call failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// The agent answered with an A2A error (JSON-RPC error object, HTTP+JSON error body, or gRPC
    /// status with its `ErrorInfo`), read into the one error model.
    A2a {
        /// The binding it came over.
        binding: Binding,
        /// The error, with its message and details.
        error: Error,
    },
    /// The agent could not be reached, the connection broke, or it answered with a transport-level
    /// failure that carries no A2A error (an HTTP status without an A2A body, a gRPC status without
    /// A2A details).
    Transport {
        /// The binding, when one had been chosen.
        binding: Option<Binding>,
        /// What happened.
        message: String,
    },
    /// The agent answered, but not with what the operation returns: bad JSON, a wrong shape, a
    /// result of another operation.
    InvalidResponse {
        /// The binding, when one had been chosen.
        binding: Option<Binding>,
        /// What is wrong, naming the field where known.
        message: String,
    },
    /// The request cannot be sent on this binding (a path field it needs is empty, say).
    InvalidRequest {
        /// What is wrong, naming the field.
        message: String,
    },
    /// The agent card lists no interface this client speaks.
    NoSupportedInterface {
        /// The `protocolBinding` and `protocolVersion` of every interface the card offered.
        offered: Vec<String>,
    },
}

impl ClientError {
    /// The A2A error kind, when the agent answered with one.
    pub fn a2a_kind(&self) -> Option<ErrorKind> {
        match self {
            ClientError::A2a { error, .. } => Some(error.kind),
            _ => None,
        }
    }

    /// The A2A error, when the agent answered with one.
    pub fn a2a_error(&self) -> Option<&Error> {
        match self {
            ClientError::A2a { error, .. } => Some(error),
            _ => None,
        }
    }

    pub(crate) fn transport(binding: Option<Binding>, message: impl fmt::Display) -> Self {
        ClientError::Transport {
            binding,
            message: message.to_string(),
        }
    }

    pub(crate) fn invalid(binding: Option<Binding>, message: impl fmt::Display) -> Self {
        ClientError::InvalidResponse {
            binding,
            message: message.to_string(),
        }
    }
}

fn binding_prefix(binding: &Option<Binding>) -> String {
    binding.map(|b| format!("{b}: ")).unwrap_or_default()
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::A2a { binding, error } => write!(
                f,
                "{binding}: the agent answered {} ({}): {}",
                error.kind.reason(),
                error.kind.jsonrpc_code(),
                error.message
            ),
            ClientError::Transport { binding, message } => {
                write!(f, "{}transport failure: {message}", binding_prefix(binding))
            }
            ClientError::InvalidResponse { binding, message } => {
                write!(f, "{}unreadable answer: {message}", binding_prefix(binding))
            }
            ClientError::InvalidRequest { message } => write!(f, "invalid request: {message}"),
            ClientError::NoSupportedInterface { offered } => write!(
                f,
                "the agent card offers no interface this client speaks (offered: {})",
                if offered.is_empty() {
                    "none".to_owned()
                } else {
                    offered.join(", ")
                }
            ),
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::A2a { error, .. } => Some(error),
            _ => None,
        }
    }
}
