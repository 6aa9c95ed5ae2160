//! The agent card: fetched from the well-known path under HTTP caching rules ([`CardResolver`]), read
//! whichever protocol version wrote it, and the interfaces a client may use ranked by preference
//! ([`candidates`]).
//!
//! A v0.2 agent serves its card at [`LEGACY_AGENT_CARD_PATH`], where the resolver looks when the
//! current path answers 404; its `protocolVersion` 0.2.x JSON-RPC interface is spoken as v0.3
//! JSON-RPC, whose methods and shapes v0.2's are (v0.3 only added optional fields).
//!
//! A v0.1 agent serves its card there too. A card is read as v0.1's when its `protocolVersion` is
//! 0.1.x, or when it has none and either has `authentication` (v0.2 replaced it with
//! `securitySchemes`) or lacks a member v0.2 requires (`description`, `defaultInputModes`,
//! `defaultOutputModes`). A card that has none of these marks reads the same in both versions and
//! is read as v0.2's (whose `protocolVersion` default is 0.2.5). A v0.1 card's `url` becomes one
//! JSON-RPC interface of version 0.1, spoken through the bridge (`tasks/send`, ...).
//!
//! Caching follows RFC 9111 for a private cache: `Cache-Control: max-age` (less the `Age` the answer
//! had) makes a card fresh for that long, `no-cache` makes every use revalidate, `no-store` keeps it
//! out of the cache; an `ETag` is sent back as `If-None-Match`, and `304 Not Modified` renews the card
//! held. The cache holds at most [`CardResolver::MAX_ENTRIES`] cards.
//!
//! With feature `signing`, a resolver given a trust root ([`CardResolver::with_verifier`]) refuses
//! every card, fetched or cached, that no trusted key signed ([`ResolvedCard::verify`]).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use a2a_compat::bridge::{AnyAgentCard, OlderVersion, upgrade_json_from};
use a2a_protocol::limits::Limits;
use a2a_protocol::service::{self, ProtocolVersion};
use a2a_types::v1::{AgentCard, AgentInterface};

use crate::http::{read_limited, send_error};
use crate::{Binding, ClientConfig, ClientError, RetryPolicy};

/// A card as fetched: the card in v1 form, and the version its document was written in.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ResolvedCard {
    /// The card (converted from v0.3 when the agent wrote a v0.3 card).
    pub card: AgentCard,
    /// The version of the document: 1.0 for a v1 card, 0.3 for a v0.3 card, 0.2 for a card whose
    /// `protocolVersion` is 0.2.x (read as v0.3, whose card has every field v0.2's has), 0.1 for a
    /// v0.1 card (converted through the bridge).
    pub document_version: ProtocolVersion,
    /// Whether it came from the cache without asking the agent.
    pub from_cache: bool,
    /// For a v0.3 document, the v1 form its signatures cover (`v0_3_card_as_v1`), which differs
    /// from [`card`](Self::card) in the versions of `additionalInterfaces`.
    #[cfg(feature = "signing")]
    signed_form: Option<AgentCard>,
}

#[cfg(feature = "signing")]
impl ResolvedCard {
    /// Checks the card's signatures against the keys `verifier` trusts (A2A §8.4.3): a v1 card as
    /// served, a v0.3 card in the v1 form the official SDK verifies it in.
    ///
    /// # Errors
    ///
    /// Why the card is not trusted ([`VerifyError`](a2a_types::signing::VerifyError)).
    pub fn verify(
        &self,
        verifier: &a2a_types::signing::CardVerifier,
    ) -> Result<a2a_types::signing::VerifiedSignature, a2a_types::signing::VerifyError> {
        verifier.verify(self.signed_form.as_ref().unwrap_or(&self.card))
    }

    /// Accepts the card fetched from `url` when one of its signatures verifies.
    pub(crate) fn check(
        &self,
        verifier: &a2a_types::signing::CardVerifier,
        url: &str,
    ) -> Result<(), ClientError> {
        self.verify(verifier)
            .map(|_| ())
            .map_err(|reason| crate::trust::untrusted(format!("at {url}"), reason))
    }
}

#[derive(Clone, Debug)]
struct Cached {
    card: AgentCard,
    document_version: ProtocolVersion,
    #[cfg(feature = "signing")]
    signed_form: Option<AgentCard>,
    etag: Option<String>,
    fresh_until: Option<Instant>,
    stored: Instant,
}

/// Fetches agent cards and keeps them as long as their HTTP caching headers allow. Share one between
/// clients of the same agents (it is `Sync`).
#[derive(Debug)]
pub struct CardResolver {
    http: reqwest::Client,
    timeout: Duration,
    limits: Limits,
    retry: RetryPolicy,
    cache: Mutex<HashMap<String, Cached>>,
    #[cfg(feature = "signing")]
    verifier: Option<std::sync::Arc<a2a_types::signing::CardVerifier>>,
}

impl CardResolver {
    /// The most cards one resolver keeps; the oldest goes first.
    pub const MAX_ENTRIES: usize = 64;

    /// A resolver using `http`, waiting at most `timeout` for a card, reading it under `limits`,
    /// retrying transient failures with the default [`RetryPolicy`].
    pub fn new(http: reqwest::Client, timeout: Duration, limits: Limits) -> Self {
        CardResolver {
            http,
            timeout,
            limits,
            retry: RetryPolicy::default(),
            cache: Mutex::new(HashMap::new()),
            #[cfg(feature = "signing")]
            verifier: None,
        }
    }

    /// This resolver trusting only cards signed by `verifier`'s keys (feature `signing`): a card,
    /// fetched or cached, that does not verify is refused with [`ClientError::UntrustedCard`].
    #[cfg(feature = "signing")]
    pub fn with_verifier(
        mut self,
        verifier: std::sync::Arc<a2a_types::signing::CardVerifier>,
    ) -> Self {
        self.verifier = Some(verifier);
        self
    }

    /// The trust root, if any.
    #[cfg(feature = "signing")]
    pub fn verifier(&self) -> Option<&std::sync::Arc<a2a_types::signing::CardVerifier>> {
        self.verifier.as_ref()
    }

    /// This resolver retrying as `retry` says (fetching a card is idempotent).
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// A resolver with `config`'s HTTP client, timeout, limits, retries and (feature `signing`)
    /// trust root.
    pub fn from_config(config: &ClientConfig) -> Result<Self, ClientError> {
        #[cfg_attr(not(feature = "signing"), allow(unused_mut))]
        let mut resolver = Self::new(config.reqwest_client()?, config.timeout, config.limits)
            .with_retry(config.retry);
        #[cfg(feature = "signing")]
        {
            resolver.verifier = config.card_verifier.clone();
        }
        Ok(resolver)
    }

    /// The card at `base_url`'s well-known path (`/.well-known/agent-card.json`), or where that
    /// answers 404, at the path v0.2 agents serve it ([`LEGACY_AGENT_CARD_PATH`]).
    pub async fn resolve(&self, base_url: &str) -> Result<ResolvedCard, ClientError> {
        match self
            .resolve_reporting(&service::well_known_agent_card_url(base_url))
            .await
        {
            Err(failure) if failure.not_found => {
                let legacy = format!("{}{LEGACY_AGENT_CARD_PATH}", base_url.trim_end_matches('/'));
                self.resolve_url(&legacy).await
            }
            result => result.map_err(|failure| failure.error),
        }
    }

    /// The card at `url`, from the cache while it is fresh; transient failures are retried.
    pub async fn resolve_url(&self, url: &str) -> Result<ResolvedCard, ClientError> {
        self.resolve_reporting(url)
            .await
            .map_err(|failure| failure.error)
    }

    /// As [`resolve_url`](Self::resolve_url), saying whether the agent answered 404 (which is
    /// final: not retried).
    async fn resolve_reporting(&self, url: &str) -> Result<ResolvedCard, FetchFailure> {
        let mut attempt = 1;
        loop {
            match self.resolve_once(url).await {
                Err(failure)
                    if !failure.not_found
                        && failure.error.is_transient()
                        && attempt < self.retry.max_attempts =>
                {
                    let wait = self.retry.backoff(attempt);
                    tracing::info!(error = %failure.error, attempt, ?wait, "retrying the agent card");
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                Err(failure) => return Err(failure),
                Ok(resolved) => {
                    return self.trusted(Ok(resolved), url).map_err(FetchFailure::from);
                }
            }
        }
    }

    /// A resolved card once the trust root (if any) accepts it.
    fn trusted(
        &self,
        result: Result<ResolvedCard, ClientError>,
        url: &str,
    ) -> Result<ResolvedCard, ClientError> {
        #[cfg(feature = "signing")]
        if let (Some(verifier), Ok(resolved)) = (&self.verifier, &result) {
            resolved.check(verifier, url)?;
        }
        #[cfg(not(feature = "signing"))]
        let _ = url;
        result
    }

    async fn resolve_once(&self, url: &str) -> Result<ResolvedCard, FetchFailure> {
        let cached = self.lock().get(url).cloned();
        if let Some(cached) = &cached
            && cached
                .fresh_until
                .is_some_and(|until| Instant::now() < until)
        {
            return Ok(ResolvedCard {
                card: cached.card.clone(),
                document_version: cached.document_version,
                from_cache: true,
                #[cfg(feature = "signing")]
                signed_form: cached.signed_form.clone(),
            });
        }
        let mut request = self
            .http
            .get(url)
            .header(
                service::A2A_VERSION_HEADER,
                ProtocolVersion::V1_0.to_string(),
            )
            .header(reqwest::header::ACCEPT, service::MEDIA_TYPE_JSON);
        if let Some(etag) = cached.as_ref().and_then(|c| c.etag.as_deref()) {
            request = request.header(reqwest::header::IF_NONE_MATCH, etag);
        }
        let fetch = async {
            let response = request
                .send()
                .await
                .map_err(|e| send_error(None, url, &e))?;
            let status = response.status();
            let headers = response.headers().clone();
            if status == reqwest::StatusCode::NOT_MODIFIED
                && let Some(cached) = cached
            {
                return Ok((headers, None, cached));
            }
            let body = read_limited(None, response, self.limits.max_bytes()).await?;
            if !status.is_success() {
                let text = a2a_types::json::bounded(&String::from_utf8_lossy(&body));
                return Err(FetchFailure {
                    error: ClientError::transport(
                        None,
                        format!("GET {url}: HTTP {status}: {text}"),
                    ),
                    not_found: status == reqwest::StatusCode::NOT_FOUND,
                });
            }
            let (card, document_version) = read_card(&body, &self.limits)
                .map_err(|e| ClientError::invalid(None, format!("the agent card at {url}: {e}")))?;
            let entry = Cached {
                #[cfg(feature = "signing")]
                signed_form: crate::trust::signed_form(&body, document_version),
                card,
                document_version,
                etag: None,
                fresh_until: None,
                stored: Instant::now(),
            };
            Ok::<_, FetchFailure>((headers, Some(()), entry))
        };
        let (headers, fetched, mut entry) = tokio::time::timeout(self.timeout, fetch)
            .await
            .map_err(|_| {
                ClientError::timeout(None, format!("the agent card at {url}"), self.timeout)
            })??;
        let policy = CachePolicy::from_headers(&headers);
        entry.fresh_until = policy.fresh_for.map(|d| Instant::now() + d);
        if fetched.is_some() {
            entry.etag = header(&headers, reqwest::header::ETAG);
        }
        let resolved = ResolvedCard {
            card: entry.card.clone(),
            document_version: entry.document_version,
            from_cache: fetched.is_none(),
            #[cfg(feature = "signing")]
            signed_form: entry.signed_form.clone(),
        };
        let mut cache = self.lock();
        if policy.store {
            if cache.len() >= Self::MAX_ENTRIES && !cache.contains_key(url) {
                let oldest = cache
                    .iter()
                    .min_by_key(|(_, c)| c.stored)
                    .map(|(k, _)| k.clone());
                if let Some(oldest) = oldest {
                    cache.remove(&oldest);
                }
            }
            cache.insert(url.to_owned(), entry);
        } else {
            cache.remove(url);
        }
        Ok(resolved)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Cached>> {
        // A panic elsewhere while holding the lock leaves a map that is still consistent.
        self.cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Where v0.2 agents serve their card (v0.3 moved it to `/.well-known/agent-card.json`).
pub const LEGACY_AGENT_CARD_PATH: &str = "/.well-known/agent.json";

/// The v0.2 line of versions, whose cards are read and whose JSON-RPC is spoken as v0.3's.
const V0_2: ProtocolVersion = ProtocolVersion { major: 0, minor: 2 };

/// A card fetch that failed, and whether because the agent answered 404 Not Found (which sends the
/// resolver to [`LEGACY_AGENT_CARD_PATH`]).
struct FetchFailure {
    error: ClientError,
    not_found: bool,
}

impl From<ClientError> for FetchFailure {
    fn from(error: ClientError) -> Self {
        FetchFailure {
            error,
            not_found: false,
        }
    }
}

fn header(
    headers: &reqwest::header::HeaderMap,
    name: reqwest::header::HeaderName,
) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// What an answer's `Cache-Control` (and `Age`) allow.
#[derive(Debug, PartialEq)]
struct CachePolicy {
    store: bool,
    fresh_for: Option<Duration>,
}

impl CachePolicy {
    fn from_headers(headers: &reqwest::header::HeaderMap) -> Self {
        let mut policy = CachePolicy {
            store: true,
            fresh_for: None,
        };
        let mut no_cache = false;
        for value in headers.get_all(reqwest::header::CACHE_CONTROL) {
            let Ok(value) = value.to_str() else { continue };
            for directive in value.split(',') {
                let directive = directive.trim();
                let (name, argument) = match directive.split_once('=') {
                    Some((name, argument)) => {
                        (name.trim(), Some(argument.trim().trim_matches('"')))
                    }
                    None => (directive, None),
                };
                match name.to_ascii_lowercase().as_str() {
                    "no-store" => policy.store = false,
                    "no-cache" => no_cache = true,
                    "max-age" => {
                        policy.fresh_for = argument
                            .and_then(|a| a.parse::<u64>().ok())
                            .map(Duration::from_secs);
                    }
                    _ => {}
                }
            }
        }
        let age = header(headers, reqwest::header::AGE)
            .and_then(|a| a.trim().parse::<u64>().ok())
            .map(Duration::from_secs)
            .unwrap_or_default();
        policy.fresh_for = policy
            .fresh_for
            .filter(|_| !no_cache)
            .map(|d| d.saturating_sub(age))
            .filter(|d| !d.is_zero());
        policy
    }
}

/// Reads a card of either version under `limits`, naming the field at fault.
pub(crate) fn read_card(
    body: &[u8],
    limits: &Limits,
) -> Result<(AgentCard, ProtocolVersion), String> {
    limits.check_json(body).map_err(|e| e.to_string())?;
    let json = a2a_types::json::value_from_slice(body).map_err(|e| e.to_string())?;
    read_card_json(json)
}

/// Reads a card's JSON of either version (already read under the decode budget), naming the field
/// at fault.
pub(crate) fn read_card_json(
    json: serde_json::Value,
) -> Result<(AgentCard, ProtocolVersion), String> {
    if is_v0_1_card(&json) {
        return read_v0_1_card(json).map(|card| (card, ProtocolVersion::V0_1));
    }
    match AnyAgentCard::detect(&json) {
        None => Err("an agent card is a JSON object".to_owned()),
        Some(version) if version == ProtocolVersion::V0_3 => {
            let written_in = match json.get("protocolVersion").and_then(|v| v.as_str()) {
                Some(declared) if declared.parse::<ProtocolVersion>().ok() == Some(V0_2) => V0_2,
                _ => ProtocolVersion::V0_3,
            };
            AnyAgentCard::from_json(json)
                .map(|card| (card.into_v1(), written_in))
                .map_err(|e| e.to_string())
        }
        Some(_) => a2a_types::json::from_value(json)
            .map(|card| (card, ProtocolVersion::V1_0))
            .map_err(|e| e.to_string()),
    }
}

/// Whether a card's JSON is v0.1's (the rule of the module's documentation).
fn is_v0_1_card(json: &serde_json::Value) -> bool {
    let Some(card) = json.as_object() else {
        return false;
    };
    if card.contains_key("supportedInterfaces") || !card.contains_key("url") {
        return false;
    }
    match card.get("protocolVersion") {
        Some(declared) => declared
            .as_str()
            .is_some_and(|v| OlderVersion::parse(v) == Some(OlderVersion::V0_1)),
        None => {
            card.contains_key("authentication")
                || ["description", "defaultInputModes", "defaultOutputModes"]
                    .iter()
                    .any(|required| !card.contains_key(*required))
        }
    }
}

/// A v0.1 card as v1, its one interface labelled 0.1 (the bridge's steps up write v0.2's default).
/// One departure from the v0.1 schema is read: `authentication.schemes` as one string instead of a
/// list, as the protocol's own sample card of that version writes it.
fn read_v0_1_card(mut json: serde_json::Value) -> Result<AgentCard, String> {
    if let Some(schemes) = json.pointer_mut("/authentication/schemes")
        && schemes.is_string()
    {
        *schemes = serde_json::Value::Array(vec![schemes.take()]);
    }
    let (_, v1) = upgrade_json_from(OlderVersion::V0_1, "AgentCard", json)
        .map_err(|e| format!("a v0.1 card: {e}"))?;
    let mut card: AgentCard = a2a_types::json::from_value(v1).map_err(|e| e.to_string())?;
    for interface in &mut card.supported_interfaces {
        interface.protocol_version = V0_1_INTERFACE_VERSION.to_owned();
    }
    Ok(card)
}

/// The version a v0.1 card's interface is labelled with in its v1 form.
const V0_1_INTERFACE_VERSION: &str = "0.1.0";

/// Fetches the agent card from `base_url`'s well-known path (`/.well-known/agent-card.json`), without
/// caching; a v0.3 card is converted to v1.
pub async fn resolve_card(
    http: &reqwest::Client,
    base_url: &str,
    timeout: Duration,
) -> Result<AgentCard, ClientError> {
    CardResolver::new(http.clone(), timeout, Limits::default())
        .resolve(base_url)
        .await
        .map(|resolved| resolved.card)
}

/// One interface a client may use: its binding, the protocol version it speaks there, and the card's
/// entry.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Candidate {
    /// The binding.
    pub binding: Binding,
    /// The protocol version: 1.0, or 0.3 or 0.1 (spoken through the bridge).
    pub version: ProtocolVersion,
    /// The card's entry (URL, tenant, declared version).
    pub interface: AgentInterface,
}

/// The protocol line an interface's `protocolVersion` belongs to: empty or 1.x is 1.0, 0.3 to 0.x is
/// 0.3, and so is 0.2 on JSON-RPC (v0.2 defined JSON-RPC only, with v0.3's methods and shapes);
/// 0.1 on JSON-RPC is 0.1 (spoken through the bridge); unreadable versions are not spoken.
pub fn interface_version(interface: &AgentInterface) -> Option<ProtocolVersion> {
    if interface.protocol_version.trim().is_empty() {
        return Some(ProtocolVersion::V1_0);
    }
    let version: ProtocolVersion = interface.protocol_version.parse().ok()?;
    match version.major {
        1 => Some(ProtocolVersion::V1_0),
        0 if version.minor >= 3 => Some(ProtocolVersion::V0_3),
        0 if version.minor == 2
            && Binding::from_protocol_binding(&interface.protocol_binding)
                == Some(Binding::JsonRpc) =>
        {
            Some(ProtocolVersion::V0_3)
        }
        0 if version.minor == 1
            && Binding::from_protocol_binding(&interface.protocol_binding)
                == Some(Binding::JsonRpc) =>
        {
            Some(ProtocolVersion::V0_1)
        }
        _ => None,
    }
}

/// Every interface of `card` this client can use, best first: by `versions`, then by `preference`,
/// then in the card's order.
///
/// v0.3 interfaces (on any binding, through the bridge) are ranked by the agent instead: a v0.3 card
/// names its `preferredTransport` and lists `additionalInterfaces` after it, and that order (which
/// the card keeps when read as v1) is followed, `preference` only leaving out the bindings it does
/// not name. The same URL and binding listed twice (SDK cards repeat the preferred interface among
/// the additional ones) is kept once.
pub fn candidates(
    card: &AgentCard,
    preference: &[Binding],
    versions: &[ProtocolVersion],
) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for version in versions {
        if *version == ProtocolVersion::V0_3 {
            for interface in &card.supported_interfaces {
                let Some(binding) = Binding::from_protocol_binding(&interface.protocol_binding)
                else {
                    continue;
                };
                let repeated = out.iter().any(|c| {
                    c.version == *version
                        && c.binding == binding
                        && c.interface.url == interface.url
                });
                if preference.contains(&binding)
                    && interface_version(interface) == Some(*version)
                    && !repeated
                {
                    out.push(Candidate {
                        binding,
                        version: *version,
                        interface: interface.clone(),
                    });
                }
            }
            continue;
        }
        for wanted in preference {
            for interface in &card.supported_interfaces {
                if Binding::from_protocol_binding(&interface.protocol_binding) == Some(*wanted)
                    && interface_version(interface) == Some(*version)
                {
                    out.push(Candidate {
                        binding: *wanted,
                        version: *version,
                        interface: interface.clone(),
                    });
                }
            }
        }
    }
    out
}

/// The interface of `card` to use for A2A 1.x: the first binding of `preference` that the card
/// offers (an interface without a `protocolVersion` counts as 1.x), in the card's order among equals.
pub fn choose_interface(
    card: &AgentCard,
    preference: &[Binding],
) -> Result<(Binding, AgentInterface), ClientError> {
    candidates(card, preference, &[ProtocolVersion::V1_0])
        .into_iter()
        .next()
        .map(|c| (c.binding, c.interface))
        .ok_or_else(|| no_supported_interface(card))
}

pub(crate) fn no_supported_interface(card: &AgentCard) -> ClientError {
    ClientError::NoSupportedInterface {
        offered: card
            .supported_interfaces
            .iter()
            .map(|i| format!("{} {}", i.protocol_binding, i.protocol_version))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderMap, HeaderValue};

    fn policy(pairs: &[(&'static str, &'static str)]) -> CachePolicy {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, HeaderValue::from_static(value));
        }
        CachePolicy::from_headers(&headers)
    }

    #[test]
    fn a_v0_2_interface_is_spoken_as_v0_3_on_json_rpc_only() {
        let interface = |binding: &str, version: &str| AgentInterface {
            url: "http://h/".to_owned(),
            protocol_binding: binding.to_owned(),
            protocol_version: version.to_owned(),
            ..Default::default()
        };
        assert_eq!(
            interface_version(&interface("JSONRPC", "0.2.6")),
            Some(ProtocolVersion::V0_3)
        );
        assert_eq!(interface_version(&interface("GRPC", "0.2.6")), None);
        assert_eq!(
            interface_version(&interface("JSONRPC", "0.1.0")),
            Some(ProtocolVersion::V0_1)
        );
        assert_eq!(interface_version(&interface("HTTP+JSON", "0.1.0")), None);
        let (_, written_in) = read_card(
            br#"{"name": "v0.2 agent", "description": "", "version": "1", "url": "http://h/",
                "protocolVersion": "0.2.6", "capabilities": {}, "defaultInputModes": [],
                "defaultOutputModes": [], "skills": []}"#,
            &Limits::default(),
        )
        .expect("a v0.2 card");
        assert_eq!(written_in, V0_2);
    }

    #[test]
    fn a_v0_1_card_is_recognised_and_its_url_spoken_as_v0_1_json_rpc() {
        let (card, written_in) = read_card(
            br#"{"name": "Maps", "url": "http://h/a2a", "version": "1.0.0",
                "authentication": {"schemes": ["OAuth2"]},
                "capabilities": {"streaming": true}, "skills": []}"#,
            &Limits::default(),
        )
        .expect("a v0.1 card");
        assert_eq!(written_in, ProtocolVersion::V0_1);
        assert_eq!(card.supported_interfaces.len(), 1);
        let interface = &card.supported_interfaces[0];
        assert_eq!(interface.url, "http://h/a2a");
        assert_eq!(interface_version(interface), Some(ProtocolVersion::V0_1));
        assert!(card.security_schemes.contains_key("OAuth2"));
        // The protocol's sample v0.1 card names its one scheme as a string.
        let (card, written_in) = read_card(
            br#"{"name": "Maps", "url": "http://h/a2a", "version": "1.0.0",
                "authentication": {"schemes": "OAuth2"},
                "capabilities": {"streaming": true}, "skills": []}"#,
            &Limits::default(),
        )
        .expect("the sample's form");
        assert_eq!(written_in, ProtocolVersion::V0_1);
        assert!(card.security_schemes.contains_key("OAuth2"));
        // Without `authentication` or a missing v0.2 member, the card reads as v0.2's.
        let (_, written_in) = read_card(
            br#"{"name": "n", "description": "", "url": "http://h/", "version": "1",
                "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [],
                "skills": []}"#,
            &Limits::default(),
        )
        .expect("a card");
        assert_eq!(written_in, ProtocolVersion::V0_3);
    }

    #[test]
    fn cache_control_sets_freshness_and_storage() {
        assert_eq!(
            policy(&[]),
            CachePolicy {
                store: true,
                fresh_for: None
            }
        );
        assert_eq!(
            policy(&[("cache-control", "public, max-age=60")]).fresh_for,
            Some(Duration::from_secs(60))
        );
        assert_eq!(
            policy(&[("cache-control", "max-age=60"), ("age", "45")]).fresh_for,
            Some(Duration::from_secs(15))
        );
        assert_eq!(
            policy(&[("cache-control", "max-age=60"), ("age", "90")]).fresh_for,
            None
        );
        assert_eq!(
            policy(&[("cache-control", "no-cache, max-age=60")]).fresh_for,
            None
        );
        assert!(!policy(&[("cache-control", "no-store")]).store);
        assert_eq!(policy(&[("cache-control", "max-age=soon")]).fresh_for, None);
    }
}
