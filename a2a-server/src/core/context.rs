//! What a binding hands the operations besides the request ([`CallContext`]), and what it gets
//! back ([`Reply`]).

use a2a_protocol::operations::MethodResult;

use crate::auth::Caller;
use crate::core::streams::EventStream;
use crate::executor::ServiceParams;

/// What a binding knows about a request besides its params.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct CallContext {
    /// Who calls ([`A2aServer::authenticate`](crate::A2aServer::authenticate)).
    pub caller: Caller,
    /// `A2A-Version`, `A2A-Extensions`.
    pub service_params: ServiceParams,
    /// The `Last-Event-ID` a client resuming a stream sent.
    pub last_event_id: Option<u64>,
    /// The binding (`JSONRPC`, `HTTP+JSON`, `GRPC`), for the call's span.
    pub binding: &'static str,
    /// The W3C `traceparent` the request carried, recorded on the call's span.
    pub traceparent: Option<String>,
    /// The id a client names for the task its message starts, where its version lets clients name
    /// new tasks (A2A v0.1's `tasks/send`); `None` lets the server choose, as later versions do.
    pub new_task_id: Option<String>,
}

impl CallContext {
    /// The context of a call by `caller` over `binding`.
    pub fn new(caller: Caller, binding: &'static str) -> Self {
        CallContext {
            caller,
            binding,
            ..CallContext::default()
        }
    }
}

/// A successful answer: one result, or a stream of events.
// Made once per request and moved straight into the response: boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Reply {
    /// The result of a unary operation.
    Unary(MethodResult),
    /// The events of a streaming operation.
    Stream(EventStream),
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::Unary(result) => f.debug_tuple("Unary").field(result).finish(),
            Reply::Stream(_) => f.write_str("Stream(..)"),
        }
    }
}
