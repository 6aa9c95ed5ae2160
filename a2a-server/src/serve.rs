//! One call that serves all three bindings: [`A2aServer::serve`] takes an HTTP listener (card,
//! JSON-RPC, HTTP+JSON) and a gRPC listener and returns a [`Serving`] handle with the addresses and
//! a graceful shutdown; [`A2aServer::serve_tls`] (feature `rustls`) serves the same over TLS.

use std::io;
use std::net::SocketAddr;

use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::http::HttpPaths;
use crate::server::A2aServer;

/// A running server: its addresses, and the way to stop it. Dropping it stops both listeners.
#[derive(Debug)]
pub struct Serving {
    http: SocketAddr,
    grpc: SocketAddr,
    /// `http` or `https`.
    scheme: &'static str,
    server: A2aServer,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Serving {
    /// The HTTP listener's address.
    pub fn http_addr(&self) -> SocketAddr {
        self.http
    }

    /// The gRPC listener's address.
    pub fn grpc_addr(&self) -> SocketAddr {
        self.grpc
    }

    /// `http://host:port` (`https://` when served with TLS), where the well-known card is.
    pub fn base_url(&self) -> String {
        format!("{}://{}", self.scheme, self.http)
    }

    /// The server being served.
    pub fn server(&self) -> &A2aServer {
        &self.server
    }

    /// Serves until either listener fails (or forever).
    pub async fn wait(mut self) {
        let tasks = std::mem::take(&mut self.tasks);
        let _ = futures_first(tasks).await;
    }

    /// Stops both listeners, ends open streams, and waits for both servers.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        self.server.close_streams();
        for task in self.tasks.drain(..) {
            let _ = task.await;
        }
    }
}

/// Waits for the first of the tasks to end.
async fn futures_first(tasks: Vec<JoinHandle<()>>) {
    let (done, mut ended) = tokio::sync::mpsc::channel::<()>(1);
    let mut guards = Vec::new();
    for task in tasks {
        let done = done.clone();
        guards.push(tokio::spawn(async move {
            let _ = task.await;
            let _ = done.send(()).await;
        }));
    }
    drop(done);
    let _ = ended.recv().await;
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl A2aServer {
    /// Serves the card, JSON-RPC (`/jsonrpc`) and HTTP+JSON (`/rest`) on `http`, and gRPC on
    /// `grpc`; see [`A2aServer::serve_at`] for other paths.
    pub async fn serve(&self, http: TcpListener, grpc: TcpListener) -> io::Result<Serving> {
        self.serve_at(http, grpc, &HttpPaths::default()).await
    }

    /// Serves the card, JSON-RPC and HTTP+JSON at `paths` on `http`, and gRPC on `grpc`.
    pub async fn serve_at(
        &self,
        http: TcpListener,
        grpc: TcpListener,
        paths: &HttpPaths,
    ) -> io::Result<Serving> {
        let grpc_server = tonic::transport::Server::builder();
        // TCP_NODELAY on every accepted connection, as the TLS listener and the gRPC server set it:
        // without it, Nagle's algorithm holds a stream's next small event until the client
        // acknowledges the last one, which a client delaying its ACKs does after about 40 ms.
        let http = http.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        self.serve_listeners(http, grpc, grpc_server, paths, "http")
    }

    /// Serves like [`serve_at`](Self::serve_at), over TLS with `identity` on both listeners
    /// (feature `rustls`): HTTPS (HTTP/1.1 and HTTP/2) and gRPC over TLS. The card's interface URLs
    /// should then be `https://` ones.
    ///
    /// # Errors
    ///
    /// When a listener's address cannot be read, or tonic refuses the identity.
    #[cfg(feature = "rustls")]
    pub async fn serve_tls(
        &self,
        http: TcpListener,
        grpc: TcpListener,
        paths: &HttpPaths,
        identity: &crate::tls::TlsIdentity,
    ) -> io::Result<Serving> {
        let grpc_server = tonic::transport::Server::builder()
            .tls_config(identity.tonic_config())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let http = crate::tls::TlsListener::new(http, identity)?;
        self.serve_listeners(http, grpc, grpc_server, paths, "https")
    }

    /// Starts the HTTP server on `http` and the gRPC server (`grpc_server`, with or without TLS)
    /// on `grpc`.
    fn serve_listeners<L>(
        &self,
        http: L,
        grpc: TcpListener,
        mut grpc_server: tonic::transport::Server,
        paths: &HttpPaths,
        scheme: &'static str,
    ) -> io::Result<Serving>
    where
        L: axum::serve::Listener<Addr = SocketAddr>,
    {
        let http_addr = http.local_addr()?;
        let grpc_addr = grpc.local_addr()?;
        let (stop, stopped) = watch::channel(false);
        let http_task = {
            let router = self.router(paths);
            let mut stopped = stopped.clone();
            tokio::spawn(async move {
                let shutdown = async move {
                    let _ = stopped.wait_for(|stop| *stop).await;
                };
                if let Err(error) = axum::serve(http, router)
                    .with_graceful_shutdown(shutdown)
                    .await
                {
                    tracing::error!(%error, "the HTTP server stopped");
                }
            })
        };
        let grpc_task = {
            let mut stopped = stopped.clone();
            let routes = self.grpc_routes();
            tokio::spawn(async move {
                let shutdown = async move {
                    let _ = stopped.wait_for(|stop| *stop).await;
                };
                // tonic sets TCP_NODELAY only on sockets it accepts itself; without it, Nagle's
                // algorithm holds back the small HTTP/2 frames of a unary answer (about 40 ms each).
                let incoming = tokio_stream::StreamExt::map(
                    tokio_stream::wrappers::TcpListenerStream::new(grpc),
                    |accepted| {
                        if let Ok(stream) = &accepted {
                            let _ = stream.set_nodelay(true);
                        }
                        accepted
                    },
                );
                if let Err(error) = grpc_server
                    .add_routes(routes)
                    .serve_with_incoming_shutdown(incoming, shutdown)
                    .await
                {
                    tracing::error!(%error, "the gRPC server stopped");
                }
            })
        };
        Ok(Serving {
            http: http_addr,
            grpc: grpc_addr,
            scheme,
            server: self.clone(),
            stop,
            tasks: vec![http_task, grpc_task],
        })
    }
}
