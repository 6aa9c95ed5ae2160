//! Hostile and broken agents: a card that is not JSON, an endless stream, a silent stream, an event
//! over the size limit, a wrong content type, a 50 MB error body, answers over the decode budget.
//! Each ends in a typed error within the timeouts, having held no more than the limits allow (the
//! peak heap is measured, at two sizes ten times apart, by the `memory` test binary, `tests/memory`).

use std::time::{Duration, Instant};

use a2a_client::{A2aClient, ClientConfig, ClientError, RetryPolicy};
use a2a_protocol::limits::Limits;
use a2a_types::v1::{GetTaskRequest, Message, Part, SendMessageRequest};
use axum::body::Body;
use axum::response::Response;
use serde_json::json;

use crate::agent::{Chunk, FakeAgent, rpc_event, rpc_result, serve, sse, streamed, task, v1_card};

fn client_of(agent: &FakeAgent, config: ClientConfig) -> A2aClient {
    A2aClient::from_card(v1_card(&agent.base, &[("/rpc", "JSONRPC")]), config).expect("client")
}

fn get() -> GetTaskRequest {
    GetTaskRequest {
        id: "t-1".into(),
        ..Default::default()
    }
}

fn send() -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user("m-1", [Part::text("hi")]),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_card_that_is_not_json_is_an_unreadable_answer() {
    let agent = serve(|_, _, _| {
        Response::builder()
            .status(200)
            .header("content-type", "text/html")
            .body(Body::from("<html><body>Welcome!</body></html>"))
            .expect("response")
    })
    .await;
    let failure = A2aClient::connect(&agent.base, ClientConfig::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { message, .. }
            if message.contains("/.well-known/agent-card.json")),
        "{failure}"
    );
}

#[tokio::test]
async fn an_endless_stream_ends_at_the_stream_timeout() {
    let agent = serve(|request, _, _| {
        let update = json!({"statusUpdate": {"taskId": "t-1", "contextId": "c-1",
            "status": {"state": "TASK_STATE_WORKING"}}});
        let Chunk::Text(event) = rpc_event(request, None, update) else {
            unreachable!()
        };
        sse(vec![Chunk::Forever(event)])
    })
    .await;
    let config = ClientConfig {
        stream_timeout: Some(Duration::from_millis(500)),
        ..ClientConfig::default()
    };
    let started = Instant::now();
    let mut stream = client_of(&agent, config)
        .send_streaming_message(send())
        .await
        .expect("a stream");
    let mut events = 0;
    let failure = loop {
        match stream.next().await.expect("no clean end") {
            Ok(_) => events += 1,
            Err(error) => break error,
        }
    };
    assert!(events > 10, "{events} events before the timeout");
    assert!(
        matches!(&failure, ClientError::Timeout { what, after, .. }
            if what == "the end of the stream" && *after == Duration::from_millis(500)),
        "{failure}"
    );
    assert!(stream.next().await.is_none());
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_silent_stream_ends_at_the_idle_timeout() {
    // Silent, and chattering keep-alive comments without an event: both are idle.
    for body in [
        vec![Chunk::Text(": open\n\n".to_owned()), Chunk::Hang],
        vec![Chunk::Forever(": keep-alive\n\n".to_owned())],
    ] {
        let agent = serve(move |_, _, _| {
            sse(body
                .iter()
                .map(|c| match c {
                    Chunk::Text(t) => Chunk::Text(t.clone()),
                    Chunk::Forever(t) => Chunk::Forever(t.clone()),
                    _ => Chunk::Hang,
                })
                .collect())
        })
        .await;
        let config = ClientConfig {
            stream_idle_timeout: Some(Duration::from_millis(300)),
            ..ClientConfig::default()
        };
        let stream = client_of(&agent, config)
            .send_streaming_message(send())
            .await
            .expect("a stream");
        let failure = tokio::time::timeout(Duration::from_secs(5), stream.collect())
            .await
            .expect("bounded")
            .unwrap_err();
        assert!(
            matches!(&failure, ClientError::Timeout { what, .. } if what == "the next event"),
            "{failure}"
        );
    }
}

#[tokio::test]
async fn an_event_over_the_size_limit_is_refused_unread() {
    let agent = serve(|request, _, _| {
        let huge = "x".repeat(1 << 20);
        let update = json!({"message": {"messageId": "m-2", "role": "ROLE_AGENT", "parts": [{"text": huge}]}});
        sse(vec![rpc_event(request, None, update)])
    })
    .await;
    let config = ClientConfig {
        limits: Limits::default().with_max_bytes(64 * 1024),
        ..ClientConfig::default()
    };
    let stream = client_of(&agent, config)
        .send_streaming_message(send())
        .await
        .expect("a stream");
    let failure = stream.collect().await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { message, .. } if message.contains("65536")),
        "{failure}"
    );
}

#[tokio::test]
async fn a_wrong_content_type_is_an_unreadable_answer() {
    let agent = serve(|request, _, _| {
        let mut response = rpc_result(request, task("t-1", "TASK_STATE_WORKING"));
        response
            .headers_mut()
            .insert("content-type", "text/html".parse().expect("value"));
        response
    })
    .await;
    let client = client_of(&agent, ClientConfig::default());
    let failure = client.get_task(get()).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { message, .. } if message.contains("text/html")),
        "{failure}"
    );
    // A stream answered with something else than an event stream, likewise.
    let failure = client.send_streaming_message(send()).await.unwrap_err();
    assert!(
        matches!(failure, ClientError::InvalidResponse { .. }),
        "{failure}"
    );
}

#[tokio::test]
async fn a_50_mb_error_body_is_not_read() {
    // Sent lazily, 64 KiB at a time: 800 chunks make 50 MB, unless the client stops reading.
    let agent = serve(|_, _, _| {
        let chunk = "e".repeat(64 * 1024);
        streamed(
            500,
            "text/plain",
            (0..800).map(|_| Chunk::Text(chunk.clone())).collect(),
        )
    })
    .await;
    let config = ClientConfig {
        retry: RetryPolicy::NONE,
        ..ClientConfig::default()
    };
    let started = Instant::now();
    let failure = client_of(&agent, config).get_task(get()).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::Transport { message, .. } if message.contains("HTTP 500")),
        "{failure}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );

    // With its length announced, it is refused before a byte of it is read.
    let announced = serve(|_, _, _| {
        Response::builder()
            .status(500)
            .header("content-type", "application/json")
            .header("content-length", (50 * 1024 * 1024).to_string())
            .body(Body::from_stream(tokio_stream::pending::<
                Result<Vec<u8>, std::io::Error>,
            >()))
            .expect("response")
    })
    .await;
    let client = client_of(
        &announced,
        ClientConfig {
            retry: RetryPolicy::NONE,
            ..ClientConfig::default()
        },
    );
    let failure = tokio::time::timeout(Duration::from_secs(5), client.get_task(get()))
        .await
        .expect("refused at once")
        .unwrap_err();
    assert!(failure.to_string().contains("52428800 bytes"), "{failure}");
}

#[tokio::test]
async fn answers_over_the_decode_budget_are_refused() {
    let agent = serve(|request, _, _| {
        let history: Vec<_> = (0..500)
            .map(|i| json!({"messageId": format!("m-{i}"), "role": "ROLE_USER", "parts": [{"text": "hi"}]}))
            .collect();
        let mut task = task("t-1", "TASK_STATE_WORKING");
        task["history"] = json!(history);
        rpc_result(request, task)
    })
    .await;
    let config = ClientConfig {
        limits: Limits::default().with_max_elements(1_000),
        ..ClientConfig::default()
    };
    let failure = client_of(&agent, config).get_task(get()).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { message, .. } if message.contains("max_elements")),
        "{failure}"
    );
    let config = ClientConfig {
        limits: Limits::default().with_max_bytes(10_000),
        ..ClientConfig::default()
    };
    let failure = client_of(&agent, config).get_task(get()).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { message, .. } if message.contains("max_bytes")),
        "{failure}"
    );
}

/// A gRPC agent whose answers are far over a small decode budget.
mod grpc_giant {
    use a2a_proto::v1::a2a_service_server::{A2aService, A2aServiceServer};
    use a2a_proto::v1::{
        GetTaskRequest, Message, Part, SendMessageRequest, StreamResponse, Task, part,
        stream_response,
    };
    use tonic::codegen::BoxStream;
    use tonic::{Request, Response, Status};

    pub struct Giant;

    fn many_parts() -> Vec<Part> {
        (0..5_000)
            .map(|_| Part {
                content: Some(part::Content::Text("x".into())),
                ..Default::default()
            })
            .collect()
    }

    #[tonic::async_trait]
    impl A2aService for Giant {
        async fn get_task(
            &self,
            request: Request<GetTaskRequest>,
        ) -> Result<Response<Task>, Status> {
            let history = vec![Message {
                message_id: "m-1".into(),
                parts: many_parts(),
                ..Default::default()
            }];
            Ok(Response::new(Task {
                id: request.into_inner().id,
                history,
                ..Default::default()
            }))
        }

        async fn send_streaming_message(
            &self,
            _: Request<SendMessageRequest>,
        ) -> Result<Response<BoxStream<StreamResponse>>, Status> {
            let event = StreamResponse {
                payload: Some(stream_response::Payload::Message(Message {
                    message_id: "m-2".into(),
                    parts: many_parts(),
                    ..Default::default()
                })),
            };
            Ok(Response::new(Box::pin(tokio_stream::iter(vec![Ok(event)]))))
        }
    }

    pub async fn serve() -> (String, tokio::task::JoinHandle<()>) {
        crate::agent::serve_grpc(A2aServiceServer::new(Giant)).await
    }
}

#[tokio::test]
async fn grpc_answers_over_the_decode_budget_are_refused_not_retried() {
    let (address, server) = grpc_giant::serve().await;
    let card = a2a_types::v1::AgentCard {
        supported_interfaces: vec![a2a_types::v1::AgentInterface::new(address, "GRPC", "1.0")],
        ..Default::default()
    };
    let config = ClientConfig {
        limits: Limits::default().with_max_elements(1_000),
        ..ClientConfig::default()
    };
    let client = A2aClient::from_card(card, config).expect("client");
    let failure = client.get_task(get()).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { message, .. } if message.contains("OutOfRange")),
        "{failure}"
    );
    let failure = client
        .send_streaming_message(send())
        .await
        .expect("a stream")
        .collect()
        .await
        .unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { .. }),
        "not a broken connection to resume: {failure}"
    );
    server.abort();
}
