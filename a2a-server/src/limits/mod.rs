//! Limits per caller ([`CallerLimits`], in [`ServerConfig::caller_limits`](crate::ServerConfig)):
//! requests per second and streams open at once, per caller and per tenant, enforced by a tower
//! layer on each router the server builds ([`A2aServer::router`](crate::A2aServer::router), each
//! binding's router, and [`A2aServer::grpc_routes`](crate::A2aServer::grpc_routes)) before the
//! request reaches its binding.
//!
//! The caller is who the [`Authenticator`](crate::Authenticator) says (its principal); an anonymous
//! caller, or one whose credentials are refused, is its peer address (an IPv6 client by its /64),
//! and the tenant is the one the authenticator puts the caller in. One caller's budget is shared by
//! every binding. Rates are the GCRA of the `governor` crate: `burst` requests at once, then one
//! every `1 / per_second` seconds.
//!
//! A caller over a limit is refused alone, before its request is read by the binding, with what each
//! binding says for "too many requests", and when to try again:
//!
//! | binding | answer |
//! |---|---|
//! | HTTP+JSON | HTTP 429 with `Retry-After`, a `google.rpc.Status` body `RESOURCE_EXHAUSTED` with `ErrorInfo` (reason `RATE_LIMIT_EXCEEDED`) and `RetryInfo` |
//! | JSON-RPC | HTTP 429 with `Retry-After`, a JSON-RPC error `-32603` (with the request's `id`) whose `data` holds the same `ErrorInfo` and `RetryInfo` |
//! | gRPC | `RESOURCE_EXHAUSTED`, with `ErrorInfo` and `RetryInfo` in `grpc-status-details-bin` |
//!
//! Memory stays bounded: a caller's rate state is kept while it is distinguishable from a fresh
//! one (at most `burst / per_second` seconds after its last request), and the table holds at most
//! [`max_tracked`](CallerLimits::max_tracked) callers (and as many tenants); when more callers than
//! that are active at once, the newcomers share one budget until the table has room again. Stream
//! counts are kept only for callers with streams open.
//!
//! ```
//! use std::num::NonZeroU32;
//! use a2a_server::ServerConfig;
//! use a2a_server::limits::{CallerLimits, Rate};
//!
//! let mut config = ServerConfig::default();
//! config.caller_limits = CallerLimits::default()
//!     // 20 requests a second per caller, up to 40 at once after a quiet spell.
//!     .rate_per_caller(Rate::per_second(NonZeroU32::new(20).unwrap()).burst(NonZeroU32::new(40).unwrap()))
//!     .rate_per_tenant(Rate::per_second(NonZeroU32::new(200).unwrap()))
//!     .streams_per_caller(8)
//!     .streams_per_tenant(64);
//! // A2aServer::builder(card, agent).config(config).build() then refuses a caller over them.
//! ```

pub(crate) mod layer;
pub(crate) mod refusal;
mod table;

use std::num::NonZeroU32;

/// A request rate: `per_second` on average, `burst` at once (GCRA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests per second, on average.
    pub per_second: NonZeroU32,
    /// Requests accepted at once after a quiet spell (the bucket's size).
    pub burst: NonZeroU32,
}

impl Rate {
    /// `per_second` requests a second, as many at once.
    pub fn per_second(per_second: NonZeroU32) -> Rate {
        Rate {
            per_second,
            burst: per_second,
        }
    }

    /// The same rate, `burst` at once.
    pub fn burst(mut self, burst: NonZeroU32) -> Rate {
        self.burst = burst;
        self
    }
}

/// What one caller (and one tenant) may ask of the server; every limit is off by default.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallerLimits {
    /// Requests one caller may make (`None`: no limit).
    pub rate_per_caller: Option<Rate>,
    /// Requests all callers of one tenant may make together (`None`: no limit).
    pub rate_per_tenant: Option<Rate>,
    /// Streams (SendStreamingMessage, SubscribeToTask) one caller may have open at once.
    pub streams_per_caller: Option<usize>,
    /// Streams all callers of one tenant may have open at once.
    pub streams_per_tenant: Option<usize>,
    /// Callers (and tenants) whose rate state is kept at once (10,000).
    pub max_tracked: usize,
}

impl Default for CallerLimits {
    fn default() -> Self {
        CallerLimits {
            rate_per_caller: None,
            rate_per_tenant: None,
            streams_per_caller: None,
            streams_per_tenant: None,
            max_tracked: 10_000,
        }
    }
}

impl CallerLimits {
    /// With this rate per caller.
    pub fn rate_per_caller(mut self, rate: Rate) -> Self {
        self.rate_per_caller = Some(rate);
        self
    }

    /// With this rate per tenant.
    pub fn rate_per_tenant(mut self, rate: Rate) -> Self {
        self.rate_per_tenant = Some(rate);
        self
    }

    /// With at most `streams` open per caller.
    pub fn streams_per_caller(mut self, streams: usize) -> Self {
        self.streams_per_caller = Some(streams);
        self
    }

    /// With at most `streams` open per tenant.
    pub fn streams_per_tenant(mut self, streams: usize) -> Self {
        self.streams_per_tenant = Some(streams);
        self
    }

    /// Whether any limit is set (else the server adds no layer).
    pub fn any(&self) -> bool {
        self.rate_per_caller.is_some()
            || self.rate_per_tenant.is_some()
            || self.streams_per_caller.is_some()
            || self.streams_per_tenant.is_some()
    }
}
