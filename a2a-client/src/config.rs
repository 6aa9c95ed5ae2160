//! [`ClientConfig`]: what a client prefers (bindings, protocol versions), how long it waits, how it
//! retries, what it sends with every request and how much it reads.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

#[cfg(feature = "signing")]
use a2a_types::signing::CardVerifier;

use a2a_protocol::limits::Limits;
use a2a_protocol::service::ProtocolVersion;

use crate::auth::Credentials;
use crate::binding::Binding;
use crate::error::ClientError;
use crate::observe::Observer;

/// How the client connects and calls. Build it with struct update syntax over the default
/// (`ClientConfig { timeout, ..ClientConfig::default() }`) or the builder methods, so fields added
/// later keep old code compiling.
#[derive(Clone)]
pub struct ClientConfig {
    /// The bindings to use, most wanted first.
    pub preference: Vec<Binding>,
    /// The protocol versions to use, most wanted first: [`ProtocolVersion::V1_0`], then
    /// [`ProtocolVersion::V0_3`] (through the bridge, on any binding; v0.2 agents too), then
    /// [`ProtocolVersion::V0_1`] (through the bridge, JSON-RPC) by default. Versions rank before
    /// bindings: a v1 interface on any preferred binding is chosen over a v0.3 one.
    pub versions: Vec<ProtocolVersion>,
    /// Sent as `Authorization: Bearer …` with every request, whatever the card says; for the
    /// card's own security schemes use [`credentials`](Self::credentials).
    pub bearer_token: Option<String>,
    /// Credentials by the name of the card's security scheme they satisfy.
    pub credentials: Credentials,
    /// Extra headers (name, value) sent with every call on every binding (as gRPC metadata on
    /// gRPC, the name lower-cased), after the client's own; not with the card fetch.
    pub headers: Vec<(String, String)>,
    /// Extension URIs to activate, sent as `A2A-Extensions` (and `X-A2A-Extensions` to v0.3 agents).
    pub extensions: Vec<String>,
    /// The longest one unary call (and the card fetch) may take, per attempt.
    pub timeout: Duration,
    /// How long establishing a connection may take.
    pub connect_timeout: Duration,
    /// How long a kept-alive HTTP connection may sit unused before the client closes it rather than
    /// send on it (4 s). Servers close idle connections too, and a request sent just as the server's
    /// close is on its way fails with the connection closed before any answer; a call that is not
    /// idempotent cannot then be sent again. Keep it below the idle timeouts of the agents called:
    /// uvicorn (the Python SDK's usual server) and Node's HTTP server close after 5 s, ours after
    /// 10 s. Not applied to an [`http_client`](Self::http_client) of your own.
    pub pool_idle_timeout: Duration,
    /// The longest a stream may wait for its next event (`None`: forever).
    pub stream_idle_timeout: Option<Duration>,
    /// The longest a whole stream may last (`None`: as long as the agent sends).
    pub stream_timeout: Option<Duration>,
    /// How often a dropped stream is resubscribed before it is reported as not resumable.
    pub stream_resume_attempts: u32,
    /// Retries of idempotent calls.
    pub retry: RetryPolicy,
    /// The decode budget every answer is read under (a whole body, each stream event, each gRPC
    /// message): bytes and JSON values (protobuf fields for gRPC).
    pub limits: Limits,
    /// Whether every request carries a W3C `traceparent` (a new trace per call unless the client was
    /// given one with [`A2aClient::with_trace_parent`](crate::A2aClient::with_trace_parent)).
    pub trace_context: bool,
    /// The HTTP client to use (for client certificates, proxies, pools of your own); by default one
    /// is built with [`connect_timeout`](Self::connect_timeout),
    /// [`pool_idle_timeout`](Self::pool_idle_timeout) and, with feature `rustls`, the TLS
    /// trust below. The gRPC binding uses the trust below in any case.
    pub http_client: Option<reqwest::Client>,
    /// Whether the web PKI roots (Mozilla's list, compiled in) are trusted (feature `rustls`; `true`
    /// by default). Turn it off to trust only [`root_certificates`](Self::root_certificates).
    #[cfg(feature = "rustls")]
    pub web_pki_roots: bool,
    /// Extra certificates trusted as roots, such as a private CA's (feature `rustls`), on every
    /// binding; read PEM with [`RootCertificate::from_pem`](crate::tls::RootCertificate::from_pem).
    #[cfg(feature = "rustls")]
    pub root_certificates: Vec<crate::tls::RootCertificate>,
    /// The certificate the client presents to an agent that asks for one (mutual TLS; feature
    /// `rustls`), on every binding; read PEM with
    /// [`ClientIdentity::from_pem`](crate::tls::ClientIdentity::from_pem).
    #[cfg(feature = "rustls")]
    pub client_identity: Option<crate::tls::ClientIdentity>,
    /// The trust root for agent cards (feature `signing`, A2A §8.4): when set, every card the
    /// client fetches (the well-known card, whether fresh or cached, and `GetExtendedAgentCard`'s)
    /// and every card it is made from must carry a signature that verifies with one of these keys,
    /// else the call fails with [`ClientError::UntrustedCard`](crate::ClientError). `None` (the
    /// default): cards are not checked.
    #[cfg(feature = "signing")]
    pub card_verifier: Option<Arc<CardVerifier>>,
    /// Told of every request sent to the agent's interfaces and of everything read back, as it
    /// crosses the wire ([`observe`](crate::observe)); `None` (the default): nothing is recorded.
    pub observer: Option<Arc<dyn Observer>>,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            preference: Binding::ALL.to_vec(),
            versions: vec![
                ProtocolVersion::V1_0,
                ProtocolVersion::V0_3,
                ProtocolVersion::V0_1,
            ],
            bearer_token: None,
            credentials: Credentials::default(),
            headers: Vec::new(),
            extensions: Vec::new(),
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(5),
            pool_idle_timeout: Duration::from_secs(4),
            stream_idle_timeout: Some(Duration::from_secs(300)),
            stream_timeout: None,
            stream_resume_attempts: 3,
            retry: RetryPolicy::default(),
            limits: Limits::default(),
            trace_context: true,
            http_client: None,
            #[cfg(feature = "rustls")]
            web_pki_roots: true,
            #[cfg(feature = "rustls")]
            root_certificates: Vec::new(),
            #[cfg(feature = "rustls")]
            client_identity: None,
            #[cfg(feature = "signing")]
            card_verifier: None,
            observer: None,
        }
    }
}

impl ClientConfig {
    /// This configuration with only `binding` acceptable.
    pub fn only(mut self, binding: Binding) -> Self {
        self.preference = vec![binding];
        self
    }

    /// This configuration with a bearer token.
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.bearer_token = Some(token.into());
        self
    }

    /// This configuration with only `version` acceptable.
    pub fn only_version(mut self, version: ProtocolVersion) -> Self {
        self.versions = vec![version];
        self
    }

    /// This configuration activating one more extension.
    pub fn extension(mut self, uri: impl Into<String>) -> Self {
        self.extensions.push(uri.into());
        self
    }

    /// This configuration with another unary-call timeout.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// This configuration telling `observer` of every request and answer on the wire
    /// ([`observer`](Self::observer)).
    pub fn observer(mut self, observer: impl Observer + 'static) -> Self {
        self.observer = Some(Arc::new(observer));
        self
    }

    /// This configuration trusting `roots` too (a private CA's certificates; feature `rustls`).
    #[cfg(feature = "rustls")]
    pub fn trust_root_certificates(
        mut self,
        roots: impl IntoIterator<Item = crate::tls::RootCertificate>,
    ) -> Self {
        self.root_certificates.extend(roots);
        self
    }

    /// This configuration presenting `identity` to agents that ask for a client certificate
    /// (mutual TLS; feature `rustls`).
    #[cfg(feature = "rustls")]
    pub fn client_certificate(mut self, identity: crate::tls::ClientIdentity) -> Self {
        self.client_identity = Some(identity);
        self
    }

    /// This configuration trusting only cards signed by `verifier`'s keys
    /// ([`card_verifier`](Self::card_verifier)).
    #[cfg(feature = "signing")]
    pub fn trust_cards_signed_by(mut self, verifier: CardVerifier) -> Self {
        self.card_verifier = Some(Arc::new(verifier));
        self
    }
}

/// Secrets stay out of logs: the token and credentials are shown as present or not.
#[cfg(feature = "rustls")]
impl ClientConfig {
    /// The TLS trust of this configuration: [`web_pki_roots`](Self::web_pki_roots) and
    /// [`root_certificates`](Self::root_certificates), checked.
    pub(crate) fn trust(&self) -> Result<crate::tls::Trust, ClientError> {
        crate::tls::Trust::of(self.web_pki_roots, &self.root_certificates)
            .map(|trust| trust.presenting(self.client_identity.clone()))
    }
}

impl ClientConfig {
    /// The HTTP client of [`http_client`](Self::http_client), or one built with the connect and
    /// pool idle timeouts (and, with feature `rustls`, this configuration's trust).
    pub(crate) fn reqwest_client(&self) -> Result<reqwest::Client, ClientError> {
        if let Some(http) = &self.http_client {
            return Ok(http.clone());
        }
        let builder = reqwest::Client::builder()
            .connect_timeout(self.connect_timeout)
            .pool_idle_timeout(self.pool_idle_timeout);
        #[cfg(feature = "rustls")]
        let builder = builder.tls_backend_preconfigured(self.trust()?.rustls_config()?);
        builder
            .build()
            .map_err(|e| ClientError::transport(None, format!("building the HTTP client: {e}")))
    }
}

impl fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("ClientConfig");
        debug
            .field("preference", &self.preference)
            .field("versions", &self.versions)
            .field("bearer_token", &self.bearer_token.as_ref().map(|_| "…"))
            .field("credentials", &self.credentials)
            .field(
                "headers",
                &self
                    .headers
                    .iter()
                    .map(|(name, _)| name)
                    .collect::<Vec<_>>(),
            )
            .field("extensions", &self.extensions)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("pool_idle_timeout", &self.pool_idle_timeout)
            .field("stream_idle_timeout", &self.stream_idle_timeout)
            .field("stream_timeout", &self.stream_timeout)
            .field("stream_resume_attempts", &self.stream_resume_attempts)
            .field("retry", &self.retry)
            .field("limits", &self.limits)
            .field("trace_context", &self.trace_context);
        #[cfg(feature = "rustls")]
        debug
            .field("web_pki_roots", &self.web_pki_roots)
            .field("root_certificates", &self.root_certificates)
            .field("client_identity", &self.client_identity);
        #[cfg(feature = "signing")]
        debug.field("card_verifier", &self.card_verifier);
        debug.field("observer", &self.observer.as_ref().map(|_| "…"));
        debug.finish_non_exhaustive()
    }
}

/// How idempotent calls (`GetTask`, `ListTasks`, `GetTaskPushNotificationConfig`,
/// `ListTaskPushNotificationConfigs`, `GetExtendedAgentCard`, the card) are retried after a transient
/// failure ([`ClientError::is_transient`](crate::ClientError::is_transient)): exponential backoff
/// with full jitter. Other calls are never retried, since the agent may have acted on them; they only
/// move to another interface when nothing could be sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Attempts in all, the first included (1: no retry).
    pub max_attempts: u32,
    /// The backoff before the first retry; doubled for each next one.
    pub initial_backoff: Duration,
    /// The longest backoff.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(2),
        }
    }
}

impl RetryPolicy {
    /// No retries.
    pub const NONE: RetryPolicy = RetryPolicy {
        max_attempts: 1,
        initial_backoff: Duration::ZERO,
        max_backoff: Duration::ZERO,
    };

    /// A policy of `max_attempts` attempts with the default backoff.
    pub fn attempts(max_attempts: u32) -> Self {
        RetryPolicy {
            max_attempts: max_attempts.max(1),
            ..RetryPolicy::default()
        }
    }

    /// The wait before retry number `retry` (1 for the first): a random duration up to
    /// `initial_backoff × 2^(retry-1)`, capped at `max_backoff` (full jitter, so many clients retrying
    /// at once spread out).
    pub fn backoff(&self, retry: u32) -> Duration {
        let ceiling = self
            .initial_backoff
            .saturating_mul(1u32 << retry.saturating_sub(1).min(16))
            .min(self.max_backoff);
        let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(fastrand::u64(0..=millis))
    }
}

#[cfg(all(test, feature = "rustls"))]
mod tests {
    use super::*;

    #[test]
    fn the_web_pki_roots_are_trusted_by_default() {
        let trust = ClientConfig::default().trust().expect("default trust");
        assert_eq!(trust.anchors.len(), webpki_roots::TLS_SERVER_ROOTS.len());
        assert!(trust.rustls_config().is_ok());
    }
}
