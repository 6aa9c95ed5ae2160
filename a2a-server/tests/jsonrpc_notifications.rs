//! JSON-RPC notifications (requests without an `id` member) on the server's JSON-RPC endpoint: the
//! server executes them and never replies (JSON-RPC 2.0 §4.1), answering HTTP 204 with no body,
//! also when the method is unknown or its params do not read; a malformed request is still answered.

use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_server::{A2aServer, AgentExecutor, EventSink, RequestContext, Serving, async_trait};
use a2a_types::v1::{AgentCard, AgentSkill};
use serde_json::{Value, json};

const LIMIT: Duration = Duration::from_secs(15);

struct Agent;

#[async_trait]
impl AgentExecutor for Agent {
    async fn execute(&self, _: RequestContext, events: EventSink) -> Result<(), Error> {
        events.complete_with_text("done").await?;
        Ok(())
    }
}

fn card() -> AgentCard {
    AgentCard::builder("Notifications", "Completes every task.", "1.0.0")
        .jsonrpc("http://127.0.0.1:1/jsonrpc")
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

async fn serve() -> Serving {
    let server = A2aServer::builder(card(), Agent).build();
    let http = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    server.serve(http, grpc).await.expect("serving")
}

/// Posts `body` to the JSON-RPC endpoint: the status and the body's text.
async fn post(serving: &Serving, body: &Value) -> (u16, String) {
    let send = async {
        let response = reqwest::Client::new()
            .post(format!("{}/jsonrpc", serving.base_url()))
            .header("A2A-Version", "1.0")
            .header("Content-Type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("an answer");
        let status = response.status().as_u16();
        (status, response.text().await.expect("a body"))
    };
    tokio::time::timeout(LIMIT, send).await.expect("in time")
}

fn send_message(text: &str) -> Value {
    json!({"message": {"messageId": text, "role": "ROLE_USER", "parts": [{"text": text}]}})
}

#[tokio::test]
async fn a_notification_is_executed_and_gets_no_reply() {
    let serving = serve().await;
    let (status, body) = post(
        &serving,
        &json!({"jsonrpc": "2.0", "method": "SendMessage", "params": send_message("fire")}),
    )
    .await;
    assert_eq!(
        (status, body.as_str()),
        (204, ""),
        "no reply to a notification"
    );

    // The call was made: its task is there for the same (anonymous) owner.
    let (status, body) = post(
        &serving,
        &json!({"jsonrpc": "2.0", "id": 7, "method": "ListTasks", "params": {}}),
    )
    .await;
    assert_eq!(status, 200);
    let listed: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(listed["id"], 7);
    let tasks = listed["result"]["tasks"].as_array().expect("tasks");
    assert_eq!(tasks.len(), 1, "{body}");
    assert_eq!(tasks[0]["status"]["state"], "TASK_STATE_COMPLETED");
    serving.shutdown().await;
}

#[tokio::test]
async fn a_notification_that_fails_gets_no_reply_but_a_request_with_a_null_id_does() {
    let serving = serve().await;
    for notification in [
        json!({"jsonrpc": "2.0", "method": "NoSuchMethod", "params": {}}),
        json!({"jsonrpc": "2.0", "method": "GetTask", "params": {"id": 5}}),
        json!({"jsonrpc": "2.0", "method": "GetTask", "params": {"id": "missing"}}),
    ] {
        let (status, body) = post(&serving, &notification).await;
        assert_eq!((status, body.as_str()), (204, ""), "{notification}");
    }
    // `"id": null` is a request, not a notification: it is answered.
    let (status, body) = post(
        &serving,
        &json!({"jsonrpc": "2.0", "id": null, "method": "GetTask", "params": {"id": "missing"}}),
    )
    .await;
    assert_eq!(status, 200);
    let answer: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(answer["id"], Value::Null);
    assert_eq!(answer["error"]["code"], -32001, "{body}");
    // A malformed request (not JSON-RPC 2.0) without an id is answered, with a null id.
    let (status, body) = post(&serving, &json!({"jsonrpc": "1.0", "method": "GetTask"})).await;
    assert_eq!(status, 200);
    let answer: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(answer["error"]["code"], -32600, "{body}");
    serving.shutdown().await;
}
