//! The client's one error type: the A2A error the agent answered (the same [`ErrorKind`] kind whichever
//! binding carried it), or what went wrong before or around it.

use std::fmt;
use std::time::Duration;

use a2a_protocol::errors::{Error, ErrorKind};

use crate::Binding;

/// Why a call failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// The agent answered with an A2A error (JSON-RPC error object, HTTP+JSON error body, or gRPC
    /// status with its `ErrorInfo`; from a v0.3 agent, its JSON-RPC error upgraded), read into the one
    /// error model.
    A2a {
        /// The binding it came over.
        binding: Binding,
        /// The error, with its message and details.
        error: Error,
    },
    /// The connection broke, or the agent answered with a transport-level failure that carries no A2A
    /// error (an HTTP status without an A2A body, a gRPC status without A2A details).
    Transport {
        /// The binding, when one had been chosen.
        binding: Option<Binding>,
        /// What happened.
        message: String,
    },
    /// No connection could be made: nothing was sent, so the call may go to another interface.
    Unreachable {
        /// The binding, when one had been chosen.
        binding: Option<Binding>,
        /// The URL that could not be reached.
        url: String,
        /// What happened (refused, no route, connect timeout, ...).
        message: String,
    },
    /// The agent's TLS certificate was refused (not signed by a trusted root, expired, for another
    /// name) or the TLS handshake failed. Nothing was sent; the call does not move to another
    /// interface, since that could downgrade it to plain HTTP.
    Tls {
        /// The binding, when one had been chosen.
        binding: Option<Binding>,
        /// The URL whose certificate was refused.
        url: String,
        /// rustls' reason.
        message: String,
    },
    /// The client's configuration cannot be used (an extra root certificate that does not parse,
    /// no trusted root at all).
    InvalidConfig {
        /// The field of [`ClientConfig`](crate::ClientConfig) at fault, with its index
        /// (`root_certificates[1]`).
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// The agent refused the caller (spec section 3.3.2): its credentials are missing or not valid
    /// (HTTP 401, gRPC `UNAUTHENTICATED`), or valid without the rights the operation needs
    /// (`forbidden`: HTTP 403, gRPC `PERMISSION_DENIED`).
    Refused {
        /// The binding it came over.
        binding: Option<Binding>,
        /// Whether the caller is known but lacks rights (403) rather than unknown (401).
        forbidden: bool,
        /// The agent's reason.
        message: String,
        /// The `WWW-Authenticate` challenge of an HTTP answer.
        challenge: Option<String>,
    },
    /// The call (or a stream's wait for its next event) took longer than its timeout.
    Timeout {
        /// The binding, when one had been chosen.
        binding: Option<Binding>,
        /// What was waited for (`GetTask`, `the next event of SendStreamingMessage`, ...).
        what: String,
        /// The timeout that expired.
        after: Duration,
    },
    /// The agent answered, but not with what the operation returns: bad JSON, a wrong shape or content
    /// type, a result of another operation, an answer over the decode budget.
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
    /// The request or its answer cannot cross to the agent's protocol version without losing
    /// something (an A2A v0.3 agent has no `ListTasks`, no `tenant`, ...): refused, never dropped
    /// silently.
    NotConvertible {
        /// What does not survive, naming the field.
        message: String,
    },
    /// A stream broke and cannot be resumed: the reason, and the failure that broke it.
    NotResumable {
        /// The binding the stream came over.
        binding: Binding,
        /// Why it cannot be resumed (no task to subscribe to, the agent refused, too many attempts,
        /// the resubscribed stream did not move the task on within the stream's timeouts).
        reason: String,
        /// What broke the stream.
        cause: Box<ClientError>,
    },
    /// Credentials for a security scheme could not be obtained (an OAuth 2 token source failed, a
    /// header value is not valid).
    Credentials {
        /// The security scheme's name in the card, or `bearer_token`.
        scheme: String,
        /// What went wrong.
        message: String,
    },
    /// The agent card lists no interface this client speaks, or none that could be reached.
    NoSupportedInterface {
        /// The `protocolBinding` and `protocolVersion` of every interface the card offered.
        offered: Vec<String>,
    },
    /// A card was refused by the trust root ([`ClientConfig::card_verifier`](crate::ClientConfig),
    /// feature `signing`): it is unsigned, none of its signatures verifies with a trusted key (each
    /// one's reason: unknown key, algorithm not allowed, signature not matching the card...), or it
    /// has no canonical form.
    #[cfg(feature = "signing")]
    UntrustedCard {
        /// Which card: its URL, or `GetExtendedAgentCard`.
        card: String,
        /// Why it is not trusted.
        reason: a2a_types::signing::VerifyError,
    },
}

impl ClientError {
    /// The A2A error kind, when the agent answered with one.
    pub fn a2a_kind(&self) -> Option<ErrorKind> {
        self.a2a_error().map(|error| error.kind)
    }

    /// The A2A error, when the agent answered with one.
    pub fn a2a_error(&self) -> Option<&Error> {
        match self {
            ClientError::A2a { error, .. } => Some(error),
            _ => None,
        }
    }

    /// Whether the agent answered that the caller's credentials are missing or not valid (HTTP 401,
    /// gRPC `UNAUTHENTICATED`).
    pub fn is_unauthenticated(&self) -> bool {
        matches!(
            self,
            ClientError::Refused {
                forbidden: false,
                ..
            }
        )
    }

    /// Whether trying the same call again may succeed: a broken connection, an unreachable
    /// interface, a timeout. (Only idempotent calls are retried; see [`crate::RetryPolicy`].)
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            ClientError::Transport { .. }
                | ClientError::Unreachable { .. }
                | ClientError::Timeout { .. }
        )
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

    pub(crate) fn timeout(
        binding: Option<Binding>,
        what: impl fmt::Display,
        after: Duration,
    ) -> Self {
        ClientError::Timeout {
            binding,
            what: what.to_string(),
            after,
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
            ClientError::Refused {
                binding,
                forbidden,
                message,
                ..
            } => write!(
                f,
                "{}the agent refused the caller ({}): {message}",
                binding_prefix(binding),
                if *forbidden {
                    "permission denied"
                } else {
                    "unauthenticated"
                }
            ),
            ClientError::Unreachable {
                binding,
                url,
                message,
            } => write!(
                f,
                "{}{url} is unreachable: {message}",
                binding_prefix(binding)
            ),
            ClientError::Tls {
                binding,
                url,
                message,
            } => write!(
                f,
                "{}the TLS connection to {url} was refused: {message}",
                binding_prefix(binding)
            ),
            ClientError::InvalidConfig { field, message } => {
                write!(f, "invalid ClientConfig.{field}: {message}")
            }
            ClientError::Timeout {
                binding,
                what,
                after,
            } => write!(
                f,
                "{}timed out after {after:?} waiting for {what}",
                binding_prefix(binding)
            ),
            ClientError::InvalidResponse { binding, message } => {
                write!(f, "{}unreadable answer: {message}", binding_prefix(binding))
            }
            ClientError::InvalidRequest { message } => write!(f, "invalid request: {message}"),
            ClientError::NotConvertible { message } => {
                write!(
                    f,
                    "not convertible to the agent's protocol version: {message}"
                )
            }
            ClientError::NotResumable {
                binding,
                reason,
                cause,
            } => write!(
                f,
                "{binding}: the stream broke ({cause}) and cannot be resumed: {reason}"
            ),
            ClientError::Credentials { scheme, message } => {
                write!(f, "credentials for security scheme {scheme:?}: {message}")
            }
            ClientError::NoSupportedInterface { offered } => write!(
                f,
                "the agent card offers no usable interface (offered: {})",
                if offered.is_empty() {
                    "none".to_owned()
                } else {
                    offered.join(", ")
                }
            ),
            #[cfg(feature = "signing")]
            ClientError::UntrustedCard { card, reason } => {
                write!(f, "the agent card {card} is not trusted: {reason}")
            }
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::A2a { error, .. } => Some(error),
            ClientError::NotResumable { cause, .. } => Some(cause.as_ref()),
            #[cfg(feature = "signing")]
            ClientError::UntrustedCard { reason, .. } => Some(reason),
            _ => None,
        }
    }
}
