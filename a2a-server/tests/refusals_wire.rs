//! A caller at one of its caps is refused as the spec's temporary system error (§3.3.2), seen on the
//! wire: HTTP+JSON answers 503 with `Retry-After` and status `UNAVAILABLE`, JSON-RPC `-32603` with a
//! `google.rpc.RetryInfo` in `data`; another caller is served meanwhile.

use std::time::Duration;

use a2a_protocol::errors::{Error, RETRY_INFO_TYPE};
use a2a_server::{
    A2aServer, AgentExecutor, BearerTokens, EventSink, RequestContext, ServerConfig, Serving,
    async_trait,
};
use a2a_types::v1::{AgentCard, AgentSkill};
use serde_json::{Value, json};

const LIMIT: Duration = Duration::from_secs(20);

/// Works until the task is canceled.
struct Waits;

#[async_trait]
impl AgentExecutor for Waits {
    async fn execute(&self, _context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.working().await?;
        events.canceled().await;
        Ok(())
    }
}

fn card() -> AgentCard {
    AgentCard::builder("Refusals", "Works until canceled.", "1.0.0")
        .jsonrpc("http://127.0.0.1:1/jsonrpc")
        .http_json("http://127.0.0.1:1/rest")
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: "wait".into(),
            name: "Wait".into(),
            description: "Works until canceled.".into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .build()
        .expect("a valid card")
}

async fn start() -> Serving {
    let mut config = ServerConfig::default();
    config.max_executions_per_owner = 1;
    let server = A2aServer::builder(card(), Waits)
        .config(config)
        .authenticator(BearerTokens::new().token("member-token", "member"))
        .build();
    let http = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    server.serve(http, grpc).await.expect("serving")
}

fn message(id: &str) -> Value {
    json!({"message": {"messageId": id, "role": "ROLE_USER", "parts": [{"text": "wait"}]},
           "configuration": {"returnImmediately": true}})
}

async fn exchange(request: reqwest::RequestBuilder) -> (u16, reqwest::header::HeaderMap, Value) {
    let send = async {
        let response = request.send().await.expect("an answer");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        (
            status,
            headers,
            serde_json::from_str::<Value>(&response.text().await.expect("a body")).expect("JSON"),
        )
    };
    tokio::time::timeout(LIMIT, send).await.expect("in time")
}

fn rest_send(serving: &Serving, id: &str, bearer: Option<&str>) -> reqwest::RequestBuilder {
    let request = reqwest::Client::new()
        .post(format!("{}/rest/message:send", serving.base_url()))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(message(id).to_string());
    match bearer {
        Some(token) => request.bearer_auth(token),
        None => request,
    }
}

#[tokio::test]
async fn a_caller_at_its_cap_gets_a_temporary_refusal_on_both_http_bindings() {
    let serving = start().await;
    let (status, _, _) = exchange(rest_send(&serving, "m-1", None)).await;
    assert_eq!(status, 200, "the first run starts");

    let (status, headers, body) = exchange(rest_send(&serving, "m-2", None)).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(headers["retry-after"], "1");
    assert_eq!(body["error"]["status"], "UNAVAILABLE");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("this caller has its 1 executions open"),
        "{body}"
    );

    let rpc = json!({"jsonrpc": "2.0", "id": 9, "method": "SendMessage", "params": message("m-3")});
    let (status, _, body) = exchange(
        reqwest::Client::new()
            .post(format!("{}/jsonrpc", serving.base_url()))
            .header("A2A-Version", "1.0")
            .header("Content-Type", "application/json")
            .body(rpc.to_string()),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["error"]["code"], -32603, "{body}");
    let retry = body["error"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|detail| detail["@type"] == RETRY_INFO_TYPE)
        .unwrap_or_else(|| panic!("a RetryInfo: {body}"));
    assert_eq!(retry["retryDelay"], "1s");

    // Another owner is not refused.
    let (status, _, body) = exchange(rest_send(&serving, "m-4", Some("member-token"))).await;
    assert_eq!(status, 200, "{body}");
    serving.shutdown().await;
}
