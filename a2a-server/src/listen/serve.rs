//! The HTTP server and the gRPC server of [`A2aServer::serve`](crate::A2aServer::serve), each in a
//! task of its own on the listener it is given (served by [`connections`]), stopped together
//! ([`Listening`]).

use std::io;
use std::net::SocketAddr;

use axum::Router;
use axum::serve::Listener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::listen::connections;
use crate::listen::peer::ClientCertificateOf;
use crate::listen::settings::ConnectionSettings;

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

/// Starts `router` on `http` and the gRPC service `grpc_router` on `grpc`, each connection held as
/// `settings` say.
pub(crate) fn start<H, G>(
    http: H,
    grpc: G,
    router: Router,
    grpc_router: Router,
    settings: &ConnectionSettings,
) -> io::Result<Listening>
where
    H: Listener<Addr = SocketAddr>,
    G: Listener<Addr = SocketAddr>,
    H::Io: ClientCertificateOf,
    G::Io: ClientCertificateOf,
{
    let http_addr = http.local_addr()?;
    let grpc_addr = grpc.local_addr()?;
    let (stop, stopped) = watch::channel(false);
    let http_task = connections::spawn(http, router, settings.clone(), stopped.clone(), "http");
    let grpc_task = connections::spawn(grpc, grpc_router, settings.clone(), stopped, "grpc");
    Ok(Listening {
        http: http_addr,
        grpc: grpc_addr,
        stop,
        tasks: vec![http_task, grpc_task],
    })
}
