//! The tower layer of the limits ([`CallerLimiter::layer`]): each request's caller and tenant
//! (authenticated here, so the key is the one the bindings will see; the outcome goes on in the
//! request's extensions as [`Authenticated`], so the binding does not authenticate again), its rate
//! checked per caller and per tenant, and a stream's slots taken and held until its response body is
//! dropped.

use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use http_body::{Frame, SizeHint};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::Deserialize;
use serde_json::Value;

use crate::auth::{AuthRequest, Authenticated, Caller, PeerCertificate};
use crate::core::state::ServerState;
use crate::limits::CallerLimits;
use crate::limits::refusal::{Binding, Refusal};
use crate::limits::table::{RateTable, StreamCounts, StreamSlot};
use crate::listen::client_slots::client_of;

/// When a caller refused for its streams is told to try again: streams usually end within seconds.
const STREAM_RETRY: Duration = Duration::from_secs(1);

/// Whom a request's budget is counted under.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum CallerKey {
    /// An authenticated caller.
    Principal(String),
    /// An anonymous (or refused) caller, by its client address.
    Peer(IpAddr),
    /// An anonymous caller whose address the router was not told (served outside the server's
    /// listeners without `ConnectInfo`): all such callers share one budget.
    Unknown,
}

/// The limits' state, shared by every router of one server.
pub(crate) struct CallerLimiter {
    state: Arc<ServerState>,
    per_caller: Option<RateTable<CallerKey>>,
    per_tenant: Option<RateTable<String>>,
    caller_streams: Option<Arc<StreamCounts<CallerKey>>>,
    tenant_streams: Option<Arc<StreamCounts<String>>>,
}

impl CallerLimiter {
    /// The limiter of `state`'s [`CallerLimits`], or `None` when it sets none.
    pub(crate) fn new(state: &Arc<ServerState>) -> Option<Arc<Self>> {
        let limits: &CallerLimits = &state.config.caller_limits;
        limits.any().then(|| {
            Arc::new(CallerLimiter {
                state: state.clone(),
                per_caller: limits
                    .rate_per_caller
                    .map(|rate| RateTable::new(rate, limits.max_tracked)),
                per_tenant: limits
                    .rate_per_tenant
                    .map(|rate| RateTable::new(rate, limits.max_tracked)),
                caller_streams: limits.streams_per_caller.map(StreamCounts::new),
                tenant_streams: limits.streams_per_tenant.map(StreamCounts::new),
            })
        })
    }

    /// `router` behind the limits, refusing in `binding`'s form.
    pub(crate) fn layer(self: &Arc<Self>, router: Router, binding: Binding) -> Router {
        router.layer(from_fn_with_state((self.clone(), binding), limit))
    }

    /// The request's caller key and tenant, as the authenticator sees them, and the authenticator's
    /// answer (for the binding).
    async fn who(&self, request: &RequestParts<'_>) -> (CallerKey, Option<String>, Authenticated) {
        let certificate = PeerCertificate::of_extensions(request.extensions);
        let auth = AuthRequest::new(request.headers)
            .with_query(request.uri.query())
            .with_peer_certificate(certificate.as_ref());
        let outcome = self.state.authenticator.authenticate_request(&auth).await;
        if let Ok(Caller {
            principal: Some(principal),
            tenant,
            ..
        }) = &outcome
        {
            let key = CallerKey::Principal(principal.clone());
            return (key, tenant.clone(), Authenticated(outcome));
        }
        let key = request
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(CallerKey::Unknown, |ConnectInfo(peer)| {
                CallerKey::Peer(client_of(peer.ip()))
            });
        (key, None, Authenticated(outcome))
    }

    fn check_rate(&self, caller: &CallerKey, tenant: Option<&String>) -> Result<(), Refusal> {
        if let Some(table) = &self.per_caller {
            table.check(caller).map_err(|wait| Refusal {
                message: "this caller is over its request rate; try again later".into(),
                retry_after: wait,
            })?;
        }
        if let (Some(table), Some(tenant)) = (&self.per_tenant, tenant) {
            table.check(tenant).map_err(|wait| Refusal {
                message: "this caller's tenant is over its request rate; try again later".into(),
                retry_after: wait,
            })?;
        }
        Ok(())
    }

    fn take_streams(
        &self,
        caller: &CallerKey,
        tenant: Option<&String>,
    ) -> Result<StreamSlots, Refusal> {
        let refusal = |whose: &str, cap: usize| Refusal {
            message: format!("{whose} has its {cap} streams open; try again once one ends"),
            retry_after: STREAM_RETRY,
        };
        let caller_slot = match &self.caller_streams {
            Some(counts) => Some(
                counts
                    .take(caller)
                    .ok_or_else(|| refusal("this caller", counts.cap()))?,
            ),
            None => None,
        };
        let tenant_slot = match (&self.tenant_streams, tenant) {
            (Some(counts), Some(tenant)) => Some(
                counts
                    .take(tenant)
                    .ok_or_else(|| refusal("this caller's tenant", counts.cap()))?,
            ),
            _ => None,
        };
        Ok(StreamSlots {
            _caller: caller_slot,
            _tenant: tenant_slot,
        })
    }
}

/// What the layer reads of a request to know who calls.
struct RequestParts<'a> {
    headers: &'a axum::http::HeaderMap,
    uri: &'a axum::http::Uri,
    extensions: &'a axum::http::Extensions,
}

/// The stream slots a response holds until its body is dropped.
struct StreamSlots {
    _caller: Option<StreamSlot<CallerKey>>,
    _tenant: Option<StreamSlot<String>>,
}

/// The middleware: refuses a caller over a limit, else serves the request (holding a stream's
/// slots while its answer is open).
async fn limit(
    State((limiter, binding)): State<(Arc<CallerLimiter>, Binding)>,
    mut request: Request,
    next: Next,
) -> Response {
    // The parts by reference, not the request: its body is not `Sync`, and this future must be `Send`.
    let parts = RequestParts {
        headers: request.headers(),
        uri: request.uri(),
        extensions: request.extensions(),
    };
    let (caller, tenant, authenticated) = limiter.who(&parts).await;
    request.extensions_mut().insert(authenticated);
    let (request, opens_stream, id) = match binding {
        Binding::JsonRpc => {
            match peek_jsonrpc(request, limiter.state.config.limits.max_bytes()).await {
                Ok(peeked) => peeked,
                Err(answer) => return answer,
            }
        }
        Binding::Rest => {
            let path = request.uri().path();
            let stream = path.ends_with(":stream") || path.ends_with(":subscribe");
            (request, stream, None)
        }
        Binding::Grpc => {
            let method = request.uri().path().rsplit('/').next().unwrap_or_default();
            let stream = matches!(
                method,
                "SendStreamingMessage" | "SubscribeToTask" | "TaskSubscription"
            );
            (request, stream, None)
        }
    };
    if let Err(refusal) = limiter.check_rate(&caller, tenant.as_ref()) {
        return refusal.answer(binding, id.as_ref());
    }
    if !opens_stream {
        return next.run(request).await;
    }
    let slots = match limiter.take_streams(&caller, tenant.as_ref()) {
        Ok(slots) => slots,
        Err(refusal) => return refusal.answer(binding, id.as_ref()),
    };
    next.run(request).await.map(|body| {
        Body::new(Holding {
            body,
            _slots: slots,
        })
    })
}

/// What the layer reads of a JSON-RPC request (the rest is skipped).
#[derive(Deserialize)]
struct Peek {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
}

/// The JSON-RPC methods that answer with a stream, in every version served.
const JSONRPC_STREAMS: [&str; 5] = [
    "SendStreamingMessage",
    "SubscribeToTask",
    "message/stream",
    "tasks/resubscribe",
    "tasks/sendSubscribe",
];

/// The request (its body read under the decode budget and put back), whether it opens a stream,
/// and its id; or the answer to a body that could not be read.
async fn peek_jsonrpc(
    request: Request,
    max_bytes: usize,
) -> Result<(Request, bool, Option<Value>), Response> {
    let (parts, body) = request.into_parts();
    let bytes: Bytes = match Limited::new(body, max_bytes).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error) if error.downcast_ref::<LengthLimitError>().is_some() => {
            return Err(crate::bindings::jsonrpc::too_large(format!(
                "payload too large: the body is over the {max_bytes} bytes allowed (the max_bytes limit)"
            )));
        }
        Err(error) => {
            return Err((
                axum::http::StatusCode::BAD_REQUEST,
                format!("the request body could not be read: {error}"),
            )
                .into_response());
        }
    };
    let peek = serde_json::from_slice::<Peek>(&bytes).ok();
    let opens_stream = peek
        .as_ref()
        .and_then(|p| p.method.as_deref())
        .is_some_and(|method| JSONRPC_STREAMS.contains(&method));
    let id = peek.and_then(|p| p.id);
    Ok((
        Request::from_parts(parts, Body::from(bytes)),
        opens_stream,
        id,
    ))
}

/// A response body that holds its stream's slots until it is dropped (trailers pass through, as
/// gRPC needs).
struct Holding {
    body: Body,
    _slots: StreamSlots,
}

impl http_body::Body for Holding {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
