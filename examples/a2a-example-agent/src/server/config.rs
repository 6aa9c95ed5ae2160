//! How the example agent behaves ([`Config`]), and the token of its extended card.

use std::time::Duration;

use a2a_protocol::limits::Limits;
use a2a_server::WebhookPolicy;
use a2a_server::limits::CallerLimits;
use a2a_testkit::stores::StoreChoice;

/// The bearer token the example agent's extended card is behind unless [`Config`] says otherwise:
/// send `Authorization: Bearer example-extended-card-token`.
pub const EXTENDED_CARD_TOKEN: &str = "example-extended-card-token";

/// The principal the extended card's token identifies.
pub const EXTENDED_CARD_PRINCIPAL: &str = "example-client";

/// OpenID Connect protection (`--oidc-issuer URL --oidc-audience AUD`): every operation needs a JWT
/// access token of `issuer` for `audience`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OidcSettings {
    /// The provider, found by discovery at `{issuer}/.well-known/openid-configuration`.
    pub issuer: String,
    /// The audience (`aud`) its tokens must name: this agent's identifier at the provider.
    pub audience: String,
}

/// TLS on both listeners (`--tls-cert PEM --tls-key PEM`): HTTPS and gRPC over TLS, the card's
/// URLs `https`. With `client_roots` (`--mtls-roots PEM`), mutual TLS: every client must present a
/// certificate issued under them, and the certificate names the caller (the card declares the
/// scheme `mtls`).
#[derive(Clone, PartialEq, Eq)]
pub struct TlsSettings {
    /// The agent's certificate chain, PEM (its own certificate first).
    pub certificate_chain: String,
    /// Its private key, PEM.
    pub private_key: String,
    /// The roots client certificates must chain to, PEM; `None`: clients present none.
    pub client_roots: Option<String>,
}

/// The private key stays out of logs.
impl std::fmt::Debug for TlsSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsSettings")
            .field("mutual", &self.client_roots.is_some())
            .finish_non_exhaustive()
    }
}

/// How the agent behaves; [`Config::default`] is what `a2a-example-agent --listen` serves.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a `test-resubscribe-message-id` task stays working before it completes.
    pub resubscribe_delay: Duration,
    /// How long a `tck-long-running` task stays working before it completes.
    pub long_running_delay: Duration,
    /// The bearer token of `GetExtendedAgentCard`; `None` configures no extended card, so the
    /// method fails with `ExtendedAgentCardNotConfigured`.
    pub extended_card_token: Option<String>,
    /// Whether the agent takes push-notification configs (declared in the card's capabilities);
    /// without, the four push-config methods fail with `PushNotificationNotSupported`.
    pub push_notifications: bool,
    /// Extensions the card declares as required: a request whose `A2A-Extensions` does not name
    /// each of them fails with `ExtensionSupportRequired`.
    pub required_extensions: Vec<String>,
    /// The decode budget of every request body (see the [server module docs](super) for the
    /// answers to a body over it); `Limits::default()` unless told otherwise.
    pub limits: Limits,
    /// Which webhook URLs push configs may name: any `https` URL, `http` on loopback.
    pub webhook_policy: WebhookPolicy,
    /// Where tasks and push configs are kept (`--store`): by default the SQLite file of
    /// [`default_store`], so tasks survive a restart; tests and embedders that must not
    /// share that file name their own (`StoreChoice::Memory` or a file of their own).
    pub store: StoreChoice,
    /// How long a task that is over is kept after its last change on SQLite or PostgreSQL
    /// (`--keep-ended SECONDS`): `None` keeps the store's recommended 7 days.
    pub keep_ended: Option<Duration>,
    /// Whether one caller is held to its share (`true`): streams, executions and in-memory tasks
    /// per owner, connections per address. A load generator is one anonymous caller on one
    /// address measuring throughput, so `--load` starts the agent with `--one-caller` (`false`):
    /// the caps in all still hold.
    pub per_caller_caps: bool,
    /// With settings, every operation needs an OpenID Connect bearer token (`--oidc-issuer`,
    /// `--oidc-audience`); the card declares the scheme.
    pub oidc: Option<OidcSettings>,
    /// With a key, every operation accepts (or, without `oidc`, needs) `X-API-Key: KEY`
    /// (`--api-key`); the card declares the scheme.
    pub api_key: Option<String>,
    /// Requests per second and streams open at once per caller (`--rate-per-caller N`,
    /// `--streams-per-caller N`): none by default.
    pub caller_limits: CallerLimits,
    /// TLS, and mutual TLS, on both listeners (`--tls-cert`, `--tls-key`, `--mtls-roots`): none by
    /// default.
    pub tls: Option<TlsSettings>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            resubscribe_delay: Duration::from_secs(3),
            long_running_delay: Duration::from_secs(3),
            extended_card_token: Some(EXTENDED_CARD_TOKEN.to_owned()),
            push_notifications: true,
            required_extensions: Vec::new(),
            limits: Limits::default(),
            webhook_policy: WebhookPolicy::local_development(),
            per_caller_caps: true,
            store: default_store(),
            keep_ended: None,
            oidc: None,
            api_key: None,
            caller_limits: CallerLimits::default(),
            tls: None,
        }
    }
}

/// The agent's store when `--store` is not given: the SQLite file `a2a-example-agent/tasks.sqlite3`
/// in the system's temporary directory (`$TMPDIR`, else `/tmp`), so an agent restarted without
/// options finds its tasks, and the working directory stays clean.
pub fn default_store() -> StoreChoice {
    let folder = std::env::temp_dir().join("a2a-example-agent");
    StoreChoice::Sqlite(folder.join("tasks.sqlite3"))
}
