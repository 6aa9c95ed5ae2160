//! The example agent's decode budget over the wire: a body over `Config::limits` gets the documented
//! answer on each binding (JSON-RPC `-32600` naming the limit and the path, HTTP+JSON 413, gRPC
//! `OUT_OF_RANGE` for either limit), and a request within it is served as usual. The agent runs on free
//! 127.0.0.1 ports, every call is bounded in time, and the agent is shut down at the end (or dropped,
//! which stops it, when an assertion fails).

use std::time::Duration;

use a2a_example_agent::server::{self, Config};
use a2a_protocol::limits::Limits;
use a2a_testkit::stores::StoreChoice;
use serde_json::{Value, json};

const CALL_LIMIT: Duration = Duration::from_secs(20);

fn send_message(parts: usize) -> Value {
    let parts: Vec<Value> = (0..parts)
        .map(|i| json!({"text": format!("p{i}")}))
        .collect();
    json!({"message": {"messageId": "tck-message-response-1", "role": "ROLE_USER", "parts": parts}})
}

async fn json_of(response: reqwest::Response) -> Value {
    serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_over_the_budget_get_the_documented_error_on_every_binding() {
    let limits = Limits::default()
        .with_max_bytes(4_096)
        .with_max_elements(40);
    let agent = server::start_on_free_ports(Config {
        limits,
        store: StoreChoice::Memory,
        ..Config::default()
    })
    .await
    .expect("the agent starts on free loopback ports");
    let http = reqwest::Client::builder()
        .timeout(CALL_LIMIT)
        .build()
        .unwrap();
    let base = agent.base_url();
    let jsonrpc = |body: String| {
        http.post(format!("{base}/jsonrpc"))
            .header("A2A-Version", "1.0")
            .header("Content-Type", "application/json")
            .body(body)
            .send()
    };
    let envelope = |params: Value| json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": params});

    // Within the budget: served. 10 parts: 8 + 2 x 10 = 28 values.
    let ok = jsonrpc(envelope(send_message(10)).to_string())
        .await
        .unwrap();
    let ok = json_of(ok).await;
    assert!(ok.get("result").is_some(), "{ok}");

    // Over the element count: -32600, naming the limit and the path, before anything is parsed.
    let over = jsonrpc(envelope(send_message(20)).to_string())
        .await
        .unwrap();
    assert_eq!(over.status(), 200);
    let over = json_of(over).await;
    assert_eq!(over["error"]["code"], -32600, "{over}");
    let message = over["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(
            "more than 40 JSON values (the max_elements limit) at `params.message.parts[16]"
        ),
        "{message}"
    );

    // Over the size: the same code, naming max_bytes.
    let big = json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x".repeat(5_000)}]}});
    let over = json_of(jsonrpc(envelope(big.clone()).to_string()).await.unwrap()).await;
    assert_eq!(over["error"]["code"], -32600, "{over}");
    assert!(
        over["error"]["message"]
            .as_str()
            .unwrap()
            .contains("max_bytes")
    );

    // HTTP+JSON: 413 for either limit, with the binding's error body.
    let rest = |body: String| {
        http.post(format!("{base}/rest/message:send"))
            .header("A2A-Version", "1.0")
            .header("Content-Type", "application/json")
            .body(body)
            .send()
    };
    let ok = rest(send_message(10).to_string()).await.unwrap();
    assert_eq!(ok.status(), 200);
    for body in [send_message(20), big.clone()] {
        let over = rest(body.to_string()).await.unwrap();
        assert_eq!(over.status(), 413);
        let over = json_of(over).await;
        assert_eq!(over["error"]["code"], 413, "{over}");
        assert!(
            over["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("payload too large: "),
            "{over}"
        );
    }

    // gRPC: tonic refuses a message over max_bytes with OUT_OF_RANGE.
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{}", agent.grpc_addr()))
        .unwrap()
        .timeout(CALL_LIMIT)
        .connect()
        .await
        .unwrap();
    let mut client = a2a_proto::v1::a2a_service_client::A2aServiceClient::new(channel);
    let request: a2a_proto::v1::SendMessageRequest =
        a2a_proto::json::from_str(&big.to_string()).unwrap();
    let mut request = tonic::Request::new(request);
    request
        .metadata_mut()
        .insert("a2a-version", "1.0".parse().unwrap());
    let status = client.send_message(request).await.unwrap_err();
    assert_eq!(status.code(), tonic::Code::OutOfRange, "{status:?}");

    // gRPC, the element count: fields are counted before prost decodes. 20 parts are 43 fields
    // (the message, its id and role, and each part with its text); 10 parts are 23.
    let grpc_request = |parts: usize| {
        let request: a2a_proto::v1::SendMessageRequest =
            a2a_proto::json::from_str(&send_message(parts).to_string()).unwrap();
        let mut request = tonic::Request::new(request);
        request
            .metadata_mut()
            .insert("a2a-version", "1.0".parse().unwrap());
        request
    };
    let served = client.send_message(grpc_request(10)).await;
    assert!(served.is_ok(), "{served:?}");
    let status = client.send_message(grpc_request(20)).await.unwrap_err();
    assert_eq!(status.code(), tonic::Code::OutOfRange, "{status:?}");
    assert_eq!(
        status.message(),
        "more than 40 protobuf fields (the max_elements limit) at `message.parts[18].text`"
    );

    agent.shutdown().await;
}
