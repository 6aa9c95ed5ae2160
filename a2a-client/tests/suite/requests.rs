//! Requests and answers the suites build and read the same way: a GetTask of one id, the task a
//! SendMessage must answer with, and every event of a stream.

use a2a_client::A2aClient;
use a2a_types::v1::{
    GetTaskRequest, SendMessageRequest, SendMessageResponse, StreamResponse, Task,
};

/// GetTask of `id`, the rest at its defaults.
pub fn get(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.into(),
        ..Default::default()
    }
}

/// Sends `request` and returns the task it answers with; a direct message fails the test.
pub async fn task_of(client: &A2aClient, request: SendMessageRequest) -> Task {
    match client.send_message(request).await.expect("sent") {
        SendMessageResponse::Task(task) => task,
        other => panic!("expected a task, got {other:?}"),
    }
}

/// Opens the stream of `request` and reads it to its end; a failure to open or to read fails the test.
pub async fn events_of(client: &A2aClient, request: SendMessageRequest) -> Vec<StreamResponse> {
    client
        .send_streaming_message(request)
        .await
        .expect("a stream")
        .collect()
        .await
        .expect("the events")
}
