//! What the HTTP bindings write on the wire, read back as raw JSON over loopback:
//!
//! - the JSON-RPC standard errors the SDK's server writes bare (a body that is not JSON, an unknown
//!   method) have no `data`; those it writes with an `ErrorInfo` (an invalid envelope) keep it;
//! - the last page of ListTasks carries `nextPageToken: ""` on JSON-RPC and HTTP+JSON (section
//!   3.1.4), and every other field of the response too;
//! - an unauthenticated JSON-RPC call is answered 401 with a JSON-RPC error envelope (its id, the
//!   `WWW-Authenticate` challenge), while HTTP+JSON keeps its own error body;
//! - with feature `v0_3`, the well-known card a request without `A2A-Version` gets is one a v0.3
//!   client reads (`url`, `preferredTransport`, `protocolVersion`) and a v1 client reads too, while
//!   a 1.x request gets the plain v1 card.

use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_protocol::service::WELL_KNOWN_AGENT_CARD_PATH;
use a2a_server::{
    A2aServer, AgentExecutor, BearerTokens, EventSink, RequestContext, Serving, async_trait,
};
use a2a_types::v1::{AgentCard, AgentSkill};
use a2a_types::validate::Validate;
use serde_json::{Value, json};

/// The most one exchange may take.
const LIMIT: Duration = Duration::from_secs(20);

struct Done;

#[async_trait]
impl AgentExecutor for Done {
    async fn execute(&self, _context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.complete_with_text("done").await?;
        Ok(())
    }
}

/// A card whose JSON-RPC interface (v1 and v0.3) is at `base`.
fn card(base: &str) -> AgentCard {
    let jsonrpc = format!("{base}/jsonrpc");
    AgentCard::builder("Wire", "Answers on the wire.", "1.0.0")
        .jsonrpc(&jsonrpc)
        .http_json(format!("{base}/rest"))
        .jsonrpc_v0_3(&jsonrpc)
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: "done".into(),
            name: "Done".into(),
            description: "Completes every task.".into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .build()
        .expect("a valid card")
}

/// Starts a server on loopback; `tokens` makes authentication required.
async fn start(tokens: Option<BearerTokens>) -> Serving {
    let http = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", http.local_addr().unwrap());
    let mut builder = A2aServer::builder(card(&base), Done);
    if let Some(tokens) = tokens {
        builder = builder.authenticator(tokens);
    }
    builder.build().serve(http, grpc).await.unwrap()
}

/// The status, the headers and the JSON body of one request.
async fn exchange(request: reqwest::RequestBuilder) -> (u16, reqwest::header::HeaderMap, Value) {
    let answer = async {
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response.bytes().await.expect("a body");
        let json = serde_json::from_slice(&body).unwrap_or_else(|e| {
            panic!("not JSON ({e}): {}", String::from_utf8_lossy(&body));
        });
        (status, headers, json)
    };
    tokio::time::timeout(LIMIT, answer).await.expect("in time")
}

/// A JSON-RPC request body, as `A2A-Version: 1.0`.
fn rpc(serving: &Serving, body: impl Into<reqwest::Body>) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(format!("{}/jsonrpc", serving.base_url()))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(body)
}

fn send_message(id: u32) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "SendMessage", "params": {
        "message": {"messageId": format!("m-{id}"), "role": "ROLE_USER", "parts": [{"text": "hi"}]}
    }})
    .to_string()
}

#[tokio::test]
async fn the_last_page_of_list_tasks_has_an_empty_next_page_token_on_both_bindings() {
    let serving = start(None).await;
    for id in 1..=2 {
        let (status, _, body) = exchange(rpc(&serving, send_message(id))).await;
        assert_eq!(status, 200, "{body}");
        assert!(body.get("result").is_some(), "{body}");
    }

    // JSON-RPC: a first page of one, then the last page.
    let list = |params: Value| {
        json!({"jsonrpc": "2.0", "id": 9, "method": "ListTasks", "params": params}).to_string()
    };
    let (_, _, first) = exchange(rpc(&serving, list(json!({"pageSize": 1})))).await;
    let token = first["result"]["nextPageToken"]
        .as_str()
        .unwrap_or_else(|| panic!("a first page has a token: {first}"));
    assert!(!token.is_empty(), "{first}");
    let (_, _, last) = exchange(rpc(
        &serving,
        list(json!({"pageSize": 1, "pageToken": token})),
    ))
    .await;
    let result = &last["result"];
    assert_eq!(
        result["nextPageToken"],
        json!(""),
        "JSON-RPC last page: {last}"
    );
    assert_eq!(result["tasks"].as_array().map(Vec::len), Some(1), "{last}");
    assert_eq!(result["pageSize"], json!(1), "{last}");
    assert_eq!(result["totalSize"], json!(2), "{last}");

    // HTTP+JSON: one page holding every task is the last one.
    let (status, _, page) = exchange(
        reqwest::Client::new()
            .get(format!("{}/rest/tasks", serving.base_url()))
            .header("A2A-Version", "1.0"),
    )
    .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        page["nextPageToken"],
        json!(""),
        "HTTP+JSON last page: {page}"
    );
    assert_eq!(page["tasks"].as_array().map(Vec::len), Some(2), "{page}");

    // No task at all: every field is still there.
    let (_, _, empty) =
        exchange(rpc(&serving, list(json!({"contextId": "no-such-context"})))).await;
    let result = &empty["result"];
    assert_eq!(result["tasks"], json!([]), "{empty}");
    assert_eq!(result["nextPageToken"], json!(""), "{empty}");
    assert_eq!(result["totalSize"], json!(0), "{empty}");
    serving.shutdown().await;
}

#[tokio::test]
async fn an_unauthenticated_jsonrpc_call_gets_a_jsonrpc_error_with_its_id() {
    let serving = start(Some(
        BearerTokens::new().token("secret", "alice").required(),
    ))
    .await;
    let get_task =
        json!({"jsonrpc": "2.0", "id": "req-7", "method": "GetTask", "params": {"id": "t-1"}});
    let (status, headers, body) = exchange(rpc(&serving, get_task.to_string())).await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(headers["www-authenticate"], "Bearer");
    assert_eq!(body["jsonrpc"], "2.0", "{body}");
    assert_eq!(body["id"], "req-7", "{body}");
    assert!(body.get("result").is_none(), "{body}");
    let error = &body["error"];
    assert_eq!(error["code"], -31401, "{body}");
    assert!(error["message"].is_string(), "{body}");
    assert_eq!(error["data"][0]["reason"], "UNAUTHENTICATED", "{body}");
    assert_eq!(error["data"][0]["domain"], "a2a-protocol.org", "{body}");

    // The token opens the door.
    let (status, _, body) =
        exchange(rpc(&serving, get_task.to_string()).bearer_auth("secret")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["error"]["code"], -32001, "{body}");

    // A v0.3 request (no A2A-Version) is answered the same way, with its id.
    #[cfg(feature = "v0_3")]
    {
        let v0_3 =
            json!({"jsonrpc": "2.0", "id": 11, "method": "tasks/get", "params": {"id": "t-1"}});
        let (status, headers, body) = exchange(
            reqwest::Client::new()
                .post(format!("{}/jsonrpc", serving.base_url()))
                .header("Content-Type", "application/json")
                .body(v0_3.to_string()),
        )
        .await;
        assert_eq!(status, 401, "{body}");
        assert_eq!(headers["www-authenticate"], "Bearer");
        assert_eq!(body["id"], 11, "{body}");
        assert_eq!(body["error"]["code"], -31401, "{body}");
    }

    // HTTP+JSON keeps its own error body.
    let (status, headers, body) = exchange(
        reqwest::Client::new()
            .get(format!("{}/rest/tasks/t-1", serving.base_url()))
            .header("A2A-Version", "1.0"),
    )
    .await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(headers["www-authenticate"], "Bearer");
    assert_eq!(body["error"]["status"], "UNAUTHENTICATED", "{body}");
    serving.shutdown().await;
}

#[tokio::test]
async fn standard_jsonrpc_errors_carry_data_where_the_sdk_writes_it() {
    let serving = start(None).await;
    // Not JSON: -32700, no id, no data.
    let (_, _, body) = exchange(rpc(&serving, "{not json")).await;
    assert_eq!(body["id"], Value::Null, "{body}");
    assert_eq!(body["error"]["code"], -32700, "{body}");
    assert!(body["error"].get("data").is_none(), "{body}");
    // An unknown method: -32601, the request's id, no data.
    let unknown = json!({"jsonrpc": "2.0", "id": 2, "method": "NoSuchMethod", "params": {}});
    let (_, _, body) = exchange(rpc(&serving, unknown.to_string())).await;
    assert_eq!(body["id"], 2, "{body}");
    assert_eq!(body["error"]["code"], -32601, "{body}");
    assert!(body["error"].get("data").is_none(), "{body}");
    // A bad envelope: -32600 with its ErrorInfo, as the SDK's server writes it.
    let bad = json!({"jsonrpc": "1.0", "id": 3, "method": "GetTask", "params": {"id": "t"}});
    let (_, _, body) = exchange(rpc(&serving, bad.to_string())).await;
    assert_eq!(body["error"]["code"], -32600, "{body}");
    assert_eq!(
        body["error"]["data"][0]["reason"], "INVALID_REQUEST",
        "{body}"
    );
    serving.shutdown().await;
}

#[cfg(feature = "v0_3")]
#[tokio::test]
async fn the_card_without_a_version_is_one_v0_3_clients_read_and_v1_clients_too() {
    let serving = start(None).await;
    let url = format!("{}{WELL_KNOWN_AGENT_CARD_PATH}", serving.base_url());
    let jsonrpc = format!("{}/jsonrpc", serving.base_url());

    let (status, headers, merged) = exchange(reqwest::Client::new().get(&url)).await;
    assert_eq!(status, 200);
    assert_eq!(headers["vary"], "A2A-Version");
    // The v0.3 fields: the v0.3 JSON-RPC interface is the main one.
    assert_eq!(merged["url"], json!(jsonrpc), "{merged}");
    assert_eq!(merged["preferredTransport"], "JSONRPC", "{merged}");
    assert_eq!(merged["protocolVersion"], "0.3", "{merged}");
    // The v1 fields, and the v1 card read from it is the server's.
    assert_eq!(merged["supportedInterfaces"][0]["protocolVersion"], "1.0");
    let read: AgentCard = a2a_types::json::from_value(merged.clone()).expect("a v1 card");
    assert!(read.validate().is_ok(), "{:?}", read.validate());
    // An explicit 0.3 gets the same document.
    let (_, _, asked_0_3) = exchange(
        reqwest::Client::new()
            .get(&url)
            .header("A2A-Version", "0.3"),
    )
    .await;
    assert_eq!(asked_0_3, merged);

    // A 1.x request gets the plain v1 card, with a tag of its own.
    let (_, v1_headers, plain) = exchange(
        reqwest::Client::new()
            .get(&url)
            .header("A2A-Version", "1.0"),
    )
    .await;
    assert!(plain.get("url").is_none(), "{plain}");
    assert!(plain.get("protocolVersion").is_none(), "{plain}");
    let plain_card: AgentCard = a2a_types::json::from_value(plain.clone()).unwrap();
    assert_eq!(plain_card, read);
    assert_ne!(v1_headers["etag"], headers["etag"]);
    serving.shutdown().await;
}
