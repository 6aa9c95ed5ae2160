//! The HTTPS listener of [`A2aServer::serve_tls`](crate::A2aServer::serve_tls), public as
//! [`crate::tls::TlsListener`] for serving [`A2aServer::router`](crate::A2aServer::router) (or any
//! axum router) over TLS in an application of your own: an axum [`Listener`] that hands over
//! connections whose TLS handshake has finished.
//!
//! Handshakes run in their own tasks, so a client that connects and then stalls never holds up the
//! next one; each is bounded in time ([`HANDSHAKE_TIMEOUT`]) and in number ([`MAX_HANDSHAKES`] at
//! once; more connections wait in the kernel's backlog), and finished connections wait in a bounded
//! queue for the server to take them.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::Listener;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, mpsc};
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

use crate::listen::tls::TlsIdentity;

/// The longest a client may take to finish its handshake.
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Handshakes in progress at once.
pub(crate) const MAX_HANDSHAKES: usize = 256;
/// Connections handshaken and not yet taken by the server.
const READY_QUEUE: usize = 64;

/// TLS connections, ready to serve: `axum::serve(TlsListener::new(tcp, &identity)?, router)`.
#[derive(Debug)]
pub struct TlsListener {
    local: SocketAddr,
    ready: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    acceptor: JoinHandle<()>,
}

impl TlsListener {
    /// Starts accepting on `listener` (on the current tokio runtime), presenting `identity`.
    ///
    /// # Errors
    ///
    /// When the listener's address cannot be read.
    pub fn new(listener: TcpListener, identity: &TlsIdentity) -> std::io::Result<Self> {
        let local = listener.local_addr()?;
        let (ready_tx, ready) = mpsc::channel(READY_QUEUE);
        let tls = TlsAcceptor::from(identity.rustls_config());
        let handshakes = Arc::new(Semaphore::new(MAX_HANDSHAKES));
        let acceptor = tokio::spawn(async move {
            loop {
                let Ok(slot) = handshakes.clone().acquire_owned().await else {
                    return;
                };
                let (stream, peer) = match listener.accept().await {
                    Ok(accepted) => accepted,
                    Err(error) => {
                        // Out of file descriptors and the like: wait rather than spin.
                        tracing::warn!(%error, "accepting a TLS connection failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let _ = stream.set_nodelay(true);
                let (tls, ready_tx) = (tls.clone(), ready_tx.clone());
                tokio::spawn(async move {
                    match tokio::time::timeout(HANDSHAKE_TIMEOUT, tls.accept(stream)).await {
                        Ok(Ok(stream)) => {
                            drop(slot);
                            let _ = ready_tx.send((stream, peer)).await;
                        }
                        Ok(Err(error)) => {
                            tracing::debug!(%peer, %error, "TLS handshake failed");
                        }
                        Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                    }
                });
            }
        });
        Ok(TlsListener {
            local,
            ready,
            acceptor,
        })
    }
}

impl Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(accepted) => accepted,
            // The accepting task ended (only when the runtime shuts down): nothing more comes.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(self.local)
    }
}

/// Stops accepting (and closes the TCP listener) when the server lets go of the listener.
impl Drop for TlsListener {
    fn drop(&mut self) {
        self.acceptor.abort();
    }
}
