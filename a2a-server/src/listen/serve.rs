//! The HTTP server and the gRPC server of [`A2aServer::serve`](crate::A2aServer::serve), each in a
//! task of its own on the listener it is given, stopped together ([`Listening`]).

use std::io;
use std::net::SocketAddr;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tonic::service::Routes;

/// The two servers running: their addresses, and the way to stop them. Dropping it stops both.
#[derive(Debug)]
pub(crate) struct Listening {
    pub(crate) http: SocketAddr,
    pub(crate) grpc: SocketAddr,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Listening {
    /// Serves until either server fails (or forever).
    pub(crate) async fn wait(mut self) {
        let tasks = std::mem::take(&mut self.tasks);
        let _ = futures_first(tasks).await;
    }

    /// Tells both servers to stop (they finish what they serve).
    pub(crate) fn stop(&self) {
        let _ = self.stop.send(true);
    }

    /// Waits for both servers to end.
    pub(crate) async fn join(mut self) {
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

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Starts `router` on `http` and `routes` on `grpc` with `grpc_server` (with or without TLS).
pub(crate) fn start<L>(
    http: L,
    grpc: TcpListener,
    mut grpc_server: tonic::transport::Server,
    router: Router,
    routes: Routes,
) -> io::Result<Listening>
where
    L: axum::serve::Listener<Addr = SocketAddr>,
{
    let http_addr = http.local_addr()?;
    let grpc_addr = grpc.local_addr()?;
    let (stop, stopped) = watch::channel(false);
    let http_task = {
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
    Ok(Listening {
        http: http_addr,
        grpc: grpc_addr,
        stop,
        tasks: vec![http_task, grpc_task],
    })
}
