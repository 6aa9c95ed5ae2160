//! How the listeners hold connections, seen from raw sockets on loopback: a client that sends its
//! request head or body slowly is cut off at the timeout, a connection with nothing in progress is
//! closed on HTTP/1 and HTTP/2 alike while a quiet stream is not, and one address cannot take every
//! connection. Every wait is bounded; the server stops with the test.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use a2a_protocol::errors::Error;
use a2a_server::{
    A2aServer, AgentExecutor, ConnectionSettings, EventSink, RequestContext, ServerConfig, Serving,
    async_trait,
};
use a2a_types::v1::{AgentCard, AgentSkill};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The longest any step of these tests waits.
const LIMIT: Duration = Duration::from_secs(15);

/// `slow` works for 2.5 s (longer than the idle timeout below) before it completes; anything else
/// completes at once.
struct Agent;

#[async_trait]
impl AgentExecutor for Agent {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.working().await?;
        if context.message.text() == "slow" {
            tokio::time::sleep(Duration::from_millis(2500)).await;
        }
        events.complete_with_text("done").await?;
        Ok(())
    }
}

fn card() -> AgentCard {
    AgentCard::builder("Connections", "Answers at once, or slowly.", "1.0.0")
        .jsonrpc("http://127.0.0.1:1/jsonrpc")
        .streaming(true)
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: "answer".into(),
            name: "Answer".into(),
            description: "Completes the task.".into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .build()
        .expect("a valid card")
}

/// Short timeouts, so each one shows within a test's time.
fn settings() -> ConnectionSettings {
    let mut settings = ConnectionSettings::default();
    settings.header_read_timeout = Duration::from_secs(1);
    settings.body_read_timeout = Duration::from_secs(1);
    settings.idle_timeout = Duration::from_millis(1500);
    settings.http2_keep_alive_timeout = Duration::from_secs(1);
    settings.max_connections_per_ip = 4;
    settings
}

async fn serve(settings: ConnectionSettings) -> Serving {
    let mut config = ServerConfig::default();
    config.connections = settings;
    let server = A2aServer::builder(card(), Agent).config(config).build();
    let http = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    server.serve(http, grpc).await.expect("serving")
}

/// Reads until the server closes the connection (or resets it), returning what it sent and when
/// it closed; fails the test if that takes longer than [`LIMIT`].
async fn read_until_closed(stream: &mut TcpStream) -> (Vec<u8>, Instant) {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    let read_all = async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => received.extend_from_slice(&buffer[..n]),
            }
        }
    };
    tokio::time::timeout(LIMIT, read_all)
        .await
        .expect("the server closes the connection in time");
    (received, Instant::now())
}

fn jsonrpc_post(body: &str, declared_length: usize) -> String {
    format!(
        "POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         A2A-Version: 1.0\r\nContent-Length: {declared_length}\r\n\r\n{body}"
    )
}

#[tokio::test]
async fn a_request_head_sent_a_line_at_a_time_is_cut_off_at_the_header_timeout() {
    let serving = serve(settings()).await;
    let mut stream = TcpStream::connect(serving.http_addr()).await.unwrap();
    let started = Instant::now();
    stream
        .write_all(b"POST /jsonrpc HTTP/1.1\r\n")
        .await
        .unwrap();
    // One more header line every 200 ms, for ever: only the timeout ends it.
    let (mut reader, mut writer) = stream.into_split();
    let dribble = tokio::spawn(async move {
        for line in 0u32.. {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if writer
                .write_all(format!("X-Line-{line}: x\r\n").as_bytes())
                .await
                .is_err()
            {
                return;
            }
        }
    });
    let mut buffer = [0u8; 1024];
    let closed = tokio::time::timeout(LIMIT, async {
        loop {
            match reader.read(&mut buffer).await {
                Ok(0) | Err(_) => return Instant::now(),
                Ok(_) => {}
            }
        }
    })
    .await
    .expect("the server closes the connection in time");
    dribble.abort();
    let after = closed - started;
    assert!(
        after >= Duration::from_millis(900) && after < Duration::from_secs(4),
        "closed after {after:?}; the header timeout is 1 s"
    );
    serving.shutdown().await;
}

#[tokio::test]
async fn a_body_that_stalls_is_answered_with_an_error_at_the_body_timeout() {
    let serving = serve(settings()).await;
    let mut stream = TcpStream::connect(serving.http_addr()).await.unwrap();
    let started = Instant::now();
    // The head promises 1,000 bytes; 16 come, then nothing.
    stream
        .write_all(jsonrpc_post("{\"jsonrpc\":\"2.0\"", 1000).as_bytes())
        .await
        .unwrap();
    let mut buffer = [0u8; 4096];
    let n = tokio::time::timeout(LIMIT, stream.read(&mut buffer))
        .await
        .expect("an answer in time")
        .expect("an answer");
    let after = started.elapsed();
    let answer = String::from_utf8_lossy(&buffer[..n]);
    assert!(
        after >= Duration::from_millis(900) && after < Duration::from_secs(4),
        "answered after {after:?}; the body timeout is 1 s"
    );
    let status: u16 = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("an HTTP answer: {answer}"));
    assert!(
        (400..500).contains(&status),
        "a client error for a body that never came: {answer}"
    );
    serving.shutdown().await;
}

#[tokio::test]
async fn an_http1_connection_with_nothing_in_progress_is_closed_at_the_idle_timeout() {
    let mut settings = settings();
    // The header timeout (which also bounds the wait for the next request on HTTP/1) is set long
    // here, so the idle timeout is what closes the connection.
    settings.header_read_timeout = Duration::from_secs(30);
    let serving = serve(settings).await;
    let mut stream = TcpStream::connect(serving.http_addr()).await.unwrap();
    stream
        .write_all(b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let answered = Instant::now();
    let (received, closed) = read_until_closed(&mut stream).await;
    assert!(
        String::from_utf8_lossy(&received).starts_with("HTTP/1.1 200"),
        "the card first"
    );
    let after = closed - answered;
    assert!(
        after >= Duration::from_millis(1300) && after < Duration::from_secs(5),
        "closed {after:?} after the answer; the idle timeout is 1.5 s"
    );
    serving.shutdown().await;
}

#[tokio::test]
async fn an_http2_connection_with_no_stream_is_closed_with_a_goaway_at_the_idle_timeout() {
    let serving = serve(settings()).await;
    let mut stream = TcpStream::connect(serving.grpc_addr()).await.unwrap();
    let started = Instant::now();
    // The HTTP/2 connection preface and an empty SETTINGS frame: a gRPC client's opening, then no call.
    stream
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00")
        .await
        .unwrap();
    // It never acknowledges the GOAWAY's ping either: dropped when the 1 s grace runs out.
    let (received, closed) = read_until_closed(&mut stream).await;
    let after = closed - started;
    assert!(
        after >= Duration::from_millis(2300) && after < Duration::from_secs(6),
        "closed after {after:?}; the idle timeout is 1.5 s, the grace 1 s"
    );
    assert!(
        frame_types(&received).contains(&GOAWAY),
        "the server says GOAWAY before it closes: frames {:?}",
        frame_types(&received)
    );
    serving.shutdown().await;
}

const GOAWAY: u8 = 0x7;

/// The types of the HTTP/2 frames in `bytes`, in order.
fn frame_types(bytes: &[u8]) -> Vec<u8> {
    let mut types = Vec::new();
    let mut rest = bytes;
    while rest.len() >= 9 {
        let length = usize::from(rest[0]) << 16 | usize::from(rest[1]) << 8 | usize::from(rest[2]);
        types.push(rest[3]);
        rest = &rest[(9 + length).min(rest.len())..];
    }
    types
}

#[tokio::test]
async fn a_stream_quieter_than_the_idle_timeout_is_not_cut() {
    let serving = serve(settings()).await;
    let mut stream = TcpStream::connect(serving.http_addr()).await.unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"slow"}]}}}"#;
    stream
        .write_all(jsonrpc_post(body, body.len()).as_bytes())
        .await
        .unwrap();
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    let completed = tokio::time::timeout(LIMIT, async {
        loop {
            let n = stream.read(&mut buffer).await.expect("still open");
            assert!(
                n > 0,
                "the stream was cut: {}",
                String::from_utf8_lossy(&received)
            );
            received.extend_from_slice(&buffer[..n]);
            if String::from_utf8_lossy(&received).contains("TASK_STATE_COMPLETED") {
                return;
            }
        }
    })
    .await;
    assert!(
        completed.is_ok(),
        "the stream completes: {}",
        String::from_utf8_lossy(&received)
    );
    serving.shutdown().await;
}

/// A connection from `source` (a loopback address) to `to`.
async fn connect_from(source: &str, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    socket.connect(to).await.unwrap()
}

#[tokio::test]
async fn one_address_cannot_take_every_connection_and_another_is_still_served() {
    let mut settings = settings();
    settings.header_read_timeout = Duration::from_secs(30);
    settings.idle_timeout = Duration::from_secs(30);
    let serving = serve(settings).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect_from("127.0.0.1", serving.http_addr()).await);
    }
    // The fifth from the same address is closed at once, without an answer.
    let mut fifth = connect_from("127.0.0.1", serving.http_addr()).await;
    let _ = fifth
        .write_all(b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    let (received, _) = read_until_closed(&mut fifth).await;
    assert!(received.is_empty(), "no answer over the cap");
    // Another address is served while the first holds its four.
    let mut other = connect_from("127.0.0.2", serving.http_addr()).await;
    other
        .write_all(
            b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )
        .await
        .unwrap();
    let (received, _) = read_until_closed(&mut other).await;
    assert!(
        String::from_utf8_lossy(&received).starts_with("HTTP/1.1 200"),
        "another client is served"
    );
    // One of the four closing gives the address a slot back.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect_from("127.0.0.1", serving.http_addr()).await;
    again
        .write_all(
            b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )
        .await
        .unwrap();
    let (received, _) = read_until_closed(&mut again).await;
    assert!(
        String::from_utf8_lossy(&received).starts_with("HTTP/1.1 200"),
        "a slot freed is usable"
    );
    serving.shutdown().await;
}
