//! Row 9 of issue 29, on both listeners (HTTP, and gRPC's own port): idle connections from one
//! address beyond its cap are closed at once, and another address is still served (about 1,000
//! idle connections stopped HTTP and gRPC for everyone before).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common;
use crate::probe::{connect_from, grpc_addr, socket_addr};

/// Opens 300 idle connections to `addr` from 127.0.0.1 and returns how many of the last 40 the
/// server closed (all of them are over the per-address cap of 256).
async fn idle_flood(addr: SocketAddr) -> (usize, Vec<tokio::net::TcpStream>) {
    let mut held = Vec::new();
    for _ in 0..300 {
        if let Ok(stream) = connect_from("127.0.0.1", addr).await {
            held.push(stream);
        }
    }
    let mut closed = 0;
    for stream in held.iter_mut().rev().take(40) {
        let mut byte = [0u8; 1];
        if let Ok(Ok(0)) =
            tokio::time::timeout(Duration::from_secs(2), stream.read(&mut byte)).await
        {
            closed += 1;
        }
    }
    (closed, held)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_from_one_address_do_not_stop_another_on_either_listener() {
    let (_server, url, first_line) =
        common::start_with(&["--listen", "127.0.0.1:0", "--store", "memory"]);
    let http = socket_addr(&url);
    let grpc = grpc_addr(&first_line);

    let (closed, held) = idle_flood(http).await;
    assert!(
        closed >= 35,
        "HTTP: {closed} of the last 40 connections were closed"
    );
    let started = Instant::now();
    let mut other = connect_from("127.0.0.2", http)
        .await
        .expect("another address connects");
    other
        .write_all(
            b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )
        .await
        .expect("sent");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(2), other.read_to_end(&mut answer))
        .await
        .expect("the card within 2 s")
        .expect("read");
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    eprintln!(
        "300 idle HTTP connections from one address: another got the card in {:?}",
        started.elapsed()
    );
    drop(held);

    let (closed, held) = idle_flood(grpc).await;
    assert!(
        closed >= 35,
        "gRPC: {closed} of the last 40 connections were closed"
    );
    // Another address completes an HTTP/2 handshake and a gRPC call's headers come back.
    let started = Instant::now();
    let stream = connect_from("127.0.0.3", grpc)
        .await
        .expect("another address connects");
    let (mut sender, connection) = tokio::time::timeout(
        Duration::from_secs(2),
        hyper::client::conn::http2::handshake(
            hyper_util::rt::TokioExecutor::new(),
            hyper_util::rt::TokioIo::new(stream),
        ),
    )
    .await
    .expect("the handshake within 2 s")
    .expect("an HTTP/2 connection");
    tokio::spawn(connection);
    // An empty GetTaskRequest (a zero-length message): the agent answers with a gRPC status.
    let request = axum::http::Request::post(format!("http://{grpc}/lf.a2a.v1.A2AService/GetTask"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(axum::body::Body::from(vec![0u8, 0, 0, 0, 0]))
        .expect("a request");
    let response = tokio::time::timeout(Duration::from_secs(2), sender.send_request(request))
        .await
        .expect("answered within 2 s")
        .expect("a response");
    assert_eq!(response.status(), 200);
    eprintln!(
        "300 idle gRPC connections from one address: another was answered in {:?}",
        started.elapsed()
    );
    drop(held);
}
