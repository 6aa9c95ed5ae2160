//! The accept loop of one listener: each connection served by hyper (HTTP/1 or HTTP/2, chosen by the
//! client's first bytes) under [`ConnectionSettings`]: header and body timeouts, an idle timeout that
//! closes a connection with no request in progress, HTTP/2 keep-alive pings, and caps on connections
//! in all and per client address. Stopping lets every open connection finish what it serves.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::serve::Listener;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinHandle;
use tower_service::Service;

use crate::listen::activity::{Activity, DeadlineBody, TrackedBody};
use crate::listen::client_slots::ClientSlots;
use crate::listen::peer::ClientCertificateOf;
use crate::listen::settings::ConnectionSettings;

/// Serves `router` on every connection `listener` accepts until `stopped` turns true, then waits
/// for the open connections to end. `what` names the listener in logs.
pub(crate) fn spawn<L>(
    mut listener: L,
    router: Router,
    settings: ConnectionSettings,
    mut stopped: watch::Receiver<bool>,
    what: &'static str,
) -> JoinHandle<()>
where
    L: Listener<Addr = SocketAddr>,
    L::Io: ClientCertificateOf,
{
    tokio::spawn(async move {
        let builder = Arc::new(builder(&settings));
        let max = settings.max_connections.clamp(1, u32::MAX as usize);
        let slots = Arc::new(Semaphore::new(max));
        let per_client = ClientSlots::new(settings.max_connections_per_ip.max(1));
        loop {
            let slot = tokio::select! {
                slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
                _ = stopped.wait_for(|stop| *stop) => break,
            };
            let (io, peer) = tokio::select! {
                accepted = listener.accept() => accepted,
                _ = stopped.wait_for(|stop| *stop) => break,
            };
            let Some(client_slot) = per_client.take(peer.ip()) else {
                tracing::debug!(%peer, listener = what, "closed: the client's connection cap is reached");
                continue;
            };
            let connection = Connection {
                builder: builder.clone(),
                router: router.clone(),
                settings: settings.clone(),
                stopped: stopped.clone(),
            };
            tokio::spawn(async move {
                connection.serve(io, peer, what).await;
                drop((slot, client_slot));
            });
        }
        // No new connection from here; the open ones finish (each told to stop) and return their slots.
        drop(listener);
        let _ = slots.acquire_many(max as u32).await;
    })
}

/// hyper's server settings from ours.
fn builder(settings: &ConnectionSettings) -> Builder<TokioExecutor> {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(settings.header_read_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(settings.http2_keep_alive_interval)
        .keep_alive_timeout(settings.http2_keep_alive_timeout);
    builder
}

/// What serving one connection needs.
struct Connection {
    builder: Arc<Builder<TokioExecutor>>,
    router: Router,
    settings: ConnectionSettings,
    stopped: watch::Receiver<bool>,
}

impl Connection {
    async fn serve<I>(mut self, io: I, peer: SocketAddr, what: &'static str)
    where
        I: tokio::io::AsyncRead
            + tokio::io::AsyncWrite
            + ClientCertificateOf
            + Unpin
            + Send
            + 'static,
    {
        let activity = Activity::new();
        let certificate = io.client_certificate();
        let service = {
            let (activity, router) = (activity.clone(), self.router.clone());
            let certificate = certificate.clone();
            let body_timeout = self.settings.body_read_timeout;
            hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                let in_flight = activity.begin();
                let mut request =
                    request.map(|body| Body::new(DeadlineBody::new(body, body_timeout)));
                // Who is calling from where, for the per-caller limits (and any handler of the
                // application's that extracts `ConnectInfo`).
                request.extensions_mut().insert(ConnectInfo(peer));
                // The client's verified certificate, for the authenticator (mutual TLS).
                if let Some(certificate) = &certificate {
                    request.extensions_mut().insert(certificate.clone());
                }
                let answer = router.clone().call(request);
                async move {
                    let response = answer.await?;
                    Ok::<_, Infallible>(
                        response.map(|body| Body::new(TrackedBody::new(body, in_flight))),
                    )
                }
            })
        };
        let connection = self.builder.serve_connection(TokioIo::new(io), service);
        tokio::pin!(connection);
        // Once closing for idleness, the client has this long to let the connection end (HTTP/2's
        // GOAWAY waits for the client to acknowledge a ping); a client that never does is dropped.
        let mut grace: Option<std::pin::Pin<Box<tokio::time::Sleep>>> = None;
        let mut stopping = false;
        loop {
            tokio::select! {
                served = connection.as_mut() => {
                    if let Err(error) = served {
                        tracing::debug!(%peer, listener = what, %error, "connection ended with an error");
                    }
                    return;
                }
                () = activity.idle_for(self.settings.idle_timeout), if grace.is_none() && !stopping => {
                    tracing::debug!(%peer, listener = what, "closing an idle connection");
                    connection.as_mut().graceful_shutdown();
                    grace = Some(Box::pin(tokio::time::sleep(self.settings.http2_keep_alive_timeout)));
                }
                () = async { grace.as_mut().expect("guarded").await }, if grace.is_some() => {
                    tracing::debug!(%peer, listener = what, "dropping an idle connection that did not close");
                    return;
                }
                _ = self.stopped.wait_for(|stop| *stop), if !stopping && grace.is_none() => {
                    connection.as_mut().graceful_shutdown();
                    stopping = true;
                }
            }
        }
    }
}
