//! The server's settings ([`ServerConfig`]), read by the builder, the operations and the bindings.

use a2a_protocol::limits::Limits;

use crate::limits::CallerLimits;
use crate::listen::settings::ConnectionSettings;
use crate::push::{PushSettings, WebhookPolicy};
use crate::store::ExecutionSettings;

/// The server's settings; [`ServerConfig::default`] suits most agents.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServerConfig {
    /// The decode budget of every request (`a2a_protocol::limits`): bodies over it are refused before
    /// they are parsed (JSON-RPC `-32600`, HTTP 413, gRPC `OUT_OF_RANGE`).
    pub limits: Limits,
    /// Extensions every request must activate (`A2A-Extensions`), else `ExtensionSupportRequired`.
    pub required_extensions: Vec<String>,
    /// Events an executor may have queued before [`EventSink::send`](crate::EventSink::send) waits (64).
    pub executor_queue: usize,
    /// Events a stream may have queued for a client that reads slowly (32). The stream then waits
    /// for the client, reading nothing more from the task's log; one whose client falls behind
    /// what the log keeps ends (the client resumes with `Last-Event-ID` or SubscribeToTask).
    pub stream_queue: usize,
    /// Streams open at once (1,024); one more is refused, naming the cap, as a temporary refusal
    /// (HTTP 503 with `Retry-After`, gRPC `UNAVAILABLE`, JSON-RPC `-32603` with a `RetryInfo`).
    pub max_streams: usize,
    /// Streams one owner (a principal in a tenant; every anonymous caller is one owner) may have
    /// open at once (64): one more is refused for that owner alone, so a caller holding streams
    /// open cannot take every slot of [`max_streams`](Self::max_streams).
    pub max_streams_per_owner: usize,
    /// Bytes of events all streams may hold for their clients at once (256 MiB): the events each
    /// has queued and the one its connection is writing. A stream at the limit waits for its
    /// clients to read before it reads more from the task's log; a new stream is refused as a
    /// temporary refusal (as for [`max_streams`](Self::max_streams)).
    pub max_stream_bytes: usize,
    /// The part of [`max_stream_bytes`](Self::max_stream_bytes) one owner's streams may hold
    /// (64 MiB): a caller whose clients stop reading waits or is refused alone.
    pub max_stream_bytes_per_owner: usize,
    /// Executions (agent runs) at once in this process (4,096); a message that would start one
    /// more is refused, naming the cap, as a temporary refusal (as for streams), before the agent
    /// runs.
    pub max_executions: usize,
    /// Executions one owner may have running at once (256): one more is refused for that owner
    /// alone. Executions resumed after a restart are counted but never refused.
    pub max_executions_per_owner: usize,
    /// ListTasks' page size when the request gives none (50).
    pub default_page_size: usize,
    /// ListTasks' largest page size (100).
    pub max_page_size: usize,
    /// Which webhook URLs push configs may name.
    pub webhook_policy: WebhookPolicy,
    /// How webhook deliveries are made.
    pub push: PushSettings,
    /// Whom `https` webhook deliveries trust (feature `rustls`): the web PKI roots by default.
    #[cfg(feature = "rustls")]
    pub webhook_tls: crate::listen::tls::WebhookTls,
    /// How executions are leased and resumed, with an execution queue.
    pub executions: ExecutionSettings,
    /// How [`A2aServer::serve`](crate::A2aServer::serve) and its TLS form hold connections: header,
    /// body and idle timeouts, HTTP/2 keep-alive, and caps on connections in all and per client.
    pub connections: ConnectionSettings,
    /// Requests per second and streams open at once, per caller and per tenant ([`crate::limits`]):
    /// none by default.
    pub caller_limits: CallerLimits,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            limits: Limits::default(),
            required_extensions: Vec::new(),
            executor_queue: 64,
            stream_queue: 32,
            max_streams: 1024,
            max_streams_per_owner: 64,
            max_stream_bytes: 256 * 1024 * 1024,
            max_stream_bytes_per_owner: 64 * 1024 * 1024,
            max_executions: 4096,
            max_executions_per_owner: 256,
            default_page_size: 50,
            max_page_size: 100,
            webhook_policy: WebhookPolicy::default(),
            push: PushSettings::default(),
            #[cfg(feature = "rustls")]
            webhook_tls: crate::listen::tls::WebhookTls::default(),
            executions: ExecutionSettings::default(),
            connections: ConnectionSettings::default(),
            caller_limits: CallerLimits::default(),
        }
    }
}
