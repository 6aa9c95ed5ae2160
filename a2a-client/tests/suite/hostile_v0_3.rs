//! Broken and hostile v0.3 agents on HTTP+JSON and gRPC, written in the test (no Python needed): the
//! requests go to the v0.3 paths, errors in the SDK's forms are typed, answers that are not the RPC's
//! message are unreadable answers naming the field, a 50 MB error body is not read, and answers over
//! the decode budget are refused, on both bindings.

use std::time::{Duration, Instant};

use a2a_client::{A2aClient, ClientConfig, ClientError, RetryPolicy};
use a2a_protocol::errors::ErrorKind;
use a2a_protocol::limits::Limits;
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, Message, Part, SendMessageRequest, TaskState,
};
use serde_json::json;

use crate::agent::{Chunk, FakeAgent, json_response, serve, sse, streamed};
use crate::requests::get;

fn v0_3_card(url: String, binding: &str) -> AgentCard {
    AgentCard {
        supported_interfaces: vec![AgentInterface::new(url, binding, "0.3")],
        ..Default::default()
    }
}

fn rest_client(agent: &FakeAgent, config: ClientConfig) -> A2aClient {
    let card = v0_3_card(format!("{}/a2a", agent.base), "HTTP+JSON");
    A2aClient::from_card(card, config).expect("client")
}

fn send() -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user("m-1", [Part::text("hi")]),
        ..Default::default()
    }
}

#[tokio::test]
async fn v0_3_http_json_answers_and_errors_are_read_at_the_v0_3_paths() {
    let agent = serve(|request, _, _| match request.path.as_str() {
        "/a2a/v1/tasks/t-1" => json_response(
            200,
            &json!({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}),
        ),
        "/a2a/v1/tasks/t-2" => json_response(200, &json!({"id": "t-2", "status": {"state": "TASK_STATE_PAUSED"}})),
        "/a2a/v1/tasks/t-1:cancel" => {
            json_response(409, &json!({"message": "Task cannot be canceled"}))
        }
        "/a2a/v1/message:stream" => sse(vec![Chunk::Text(
            "data: {\"statusUpdate\": {\"taskId\": \"t-1\", \"contextId\": \"c-1\", \"status\": {\"state\": \"TASK_STATE_COMPLETED\"}, \"final\": true}}\n\n".to_owned(),
        )]),
        _ => json_response(404, &json!({"message": "Task not found"})),
    })
    .await;
    let client = rest_client(&agent, ClientConfig::default());
    let task = client.get_task(get("t-1")).await.expect("the task");
    assert_eq!(
        (task.id.as_str(), task.status.state),
        ("t-1", TaskState::Working)
    );
    let calls = agent.calls();
    assert_eq!(
        (calls[0].path.as_str(), calls[0].header("a2a-version")),
        ("/a2a/v1/tasks/t-1", Some("0.3"))
    );

    let failure = client.get_task(get("t-9")).await.unwrap_err();
    assert_eq!(
        failure.a2a_kind(),
        Some(ErrorKind::TaskNotFound),
        "{failure}"
    );
    let failure = client
        .cancel_task(CancelTaskRequest {
            id: "t-1".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(
        failure.a2a_kind(),
        Some(ErrorKind::TaskNotCancelable),
        "{failure}"
    );
    // A state v0.3 does not define is named by its field.
    let failure = client.get_task(get("t-2")).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { message, .. } if message.contains("status.state")),
        "{failure}"
    );

    let events = client
        .send_streaming_message(send())
        .await
        .expect("a stream")
        .collect()
        .await
        .expect("the events");
    assert_eq!(events.len(), 1, "{events:?}");
}

#[tokio::test]
async fn a_50_mb_v0_3_error_body_is_not_read_and_an_oversized_event_is_refused() {
    let agent = serve(|request, _, _| {
        if request.path.ends_with(":stream") {
            let mut body = vec![Chunk::Text(
                "data: {\"message\": {\"content\": [{\"text\": \"".into(),
            )];
            body.extend((0..64).map(|_| Chunk::Text("x".repeat(64 * 1024))));
            return sse(body);
        }
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
        limits: Limits::default().with_max_bytes(256 * 1024),
        ..ClientConfig::default()
    };
    let client = rest_client(&agent, config);
    let started = Instant::now();
    let failure = client.get_task(get("t-1")).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::Transport { message, .. } if message.contains("HTTP 500")),
        "{failure}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    let failure = client
        .send_streaming_message(send())
        .await
        .expect("a stream")
        .collect()
        .await
        .unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { message, .. } if message.contains("262144")),
        "{failure}"
    );
}

/// A v0.3 gRPC agent (`a2a.v1.A2AService`): its errors in the SDK's form, and answers far over a
/// small decode budget.
mod grpc_v0_3 {
    use a2a_proto::v0_3::a2a_service_server::{A2aService, A2aServiceServer};
    use a2a_proto::v0_3::{
        GetTaskRequest, Message, Part, SendMessageRequest, StreamResponse, Task, part,
        stream_response,
    };
    use tonic::codegen::BoxStream;
    use tonic::{Request, Response, Status};

    pub struct Agent;

    fn many_parts() -> Vec<Part> {
        (0..5_000)
            .map(|_| Part {
                part: Some(part::Part::Text("x".into())),
                ..Default::default()
            })
            .collect()
    }

    #[tonic::async_trait]
    impl A2aService for Agent {
        async fn get_task(
            &self,
            request: Request<GetTaskRequest>,
        ) -> Result<Response<Task>, Status> {
            match request.into_inner().name.as_str() {
                "tasks/giant" => Ok(Response::new(Task {
                    id: "giant".into(),
                    history: vec![Message {
                        message_id: "m-1".into(),
                        content: many_parts(),
                        ..Default::default()
                    }],
                    ..Default::default()
                })),
                name => Err(Status::not_found(format!(
                    "TaskNotFoundError: no task named {name}"
                ))),
            }
        }

        async fn send_streaming_message(
            &self,
            _: Request<SendMessageRequest>,
        ) -> Result<Response<BoxStream<StreamResponse>>, Status> {
            let event = StreamResponse {
                payload: Some(stream_response::Payload::Msg(Message {
                    message_id: "m-2".into(),
                    content: many_parts(),
                    ..Default::default()
                })),
            };
            Ok(Response::new(Box::pin(tokio_stream::iter(vec![Ok(event)]))))
        }
    }

    pub async fn serve() -> (String, tokio::task::JoinHandle<()>) {
        crate::agent::serve_grpc(A2aServiceServer::new(Agent)).await
    }
}

#[tokio::test]
async fn v0_3_grpc_errors_are_typed_and_answers_over_the_budget_refused() {
    let (address, server) = grpc_v0_3::serve().await;
    let config = ClientConfig {
        limits: Limits::default().with_max_elements(1_000),
        ..ClientConfig::default()
    };
    let client = A2aClient::from_card(v0_3_card(address, "GRPC"), config).expect("client");
    let failure = client.get_task(get("t-404")).await.unwrap_err();
    assert_eq!(
        failure.a2a_error().map(|e| (e.kind, e.message.as_str())),
        Some((ErrorKind::TaskNotFound, "no task named tasks/t-404")),
        "{failure}"
    );
    let failure = client.get_task(get("giant")).await.unwrap_err();
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
