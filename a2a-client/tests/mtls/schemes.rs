//! Security requirements naming several schemes together (an AND), over mutual TLS: the client
//! certificate and an API key composed by `Security`, a skill needing both, asked on JSON-RPC,
//! HTTP+JSON and gRPC with both, with the certificate only, and with a wrong key.

use a2a_proto::v1::a2a_service_client::A2aServiceClient;
use a2a_server::{ApiKeys, ClientCertificates, Security};
use a2a_types::v1::SecurityRequirement;

use super::{Ca, LIMIT, Leaf, serve_mtls_with};

/// What one SendMessage got on each binding: JSON-RPC's HTTP status and error code (`0`: a
/// result), HTTP+JSON's status, gRPC's code; with the `WWW-Authenticate` of the HTTP answers.
#[derive(Debug, PartialEq)]
struct Answers {
    jsonrpc: (u16, i64, Option<String>),
    rest: (u16, Option<String>),
    grpc: tonic::Code,
}

/// SendMessage by a client presenting `leaf` and, when given, the API key `key` (`X-API-Key`).
async fn send_with(
    ca: &Ca,
    leaf: &Leaf,
    key: Option<&str>,
    serving: &a2a_server::Serving,
) -> Answers {
    let pem = format!("{}{}", leaf.cert_pem, leaf.key_pem);
    let http = reqwest::Client::builder()
        .tls_certs_only([reqwest::Certificate::from_pem(ca.pem().as_bytes()).unwrap()])
        .identity(reqwest::Identity::from_pem(pem.as_bytes()).unwrap())
        .timeout(LIMIT)
        .build()
        .unwrap();
    let message = r#"{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hello"}]}"#;
    let with_key = |request: reqwest::RequestBuilder| match key {
        Some(key) => request.header("X-API-Key", key),
        None => request,
    };
    let challenge = |response: &reqwest::Response| {
        response
            .headers()
            .get("WWW-Authenticate")
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let base = serving.base_url();
    let response = with_key(http.post(format!("{base}/jsonrpc")))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{{"message":{message}}}}}"#
        ))
        .send()
        .await
        .expect("a JSON-RPC answer");
    let (status, header) = (response.status().as_u16(), challenge(&response));
    let body: serde_json::Value =
        serde_json::from_str(&response.text().await.expect("a JSON-RPC body")).expect("JSON");
    let jsonrpc = (status, body["error"]["code"].as_i64().unwrap_or(0), header);
    let response = with_key(http.post(format!("{base}/rest/message:send")))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(format!(r#"{{"message":{message}}}"#))
        .send()
        .await
        .expect("an HTTP+JSON answer");
    let rest = (response.status().as_u16(), challenge(&response));

    let tls = tonic::transport::ClientTlsConfig::new()
        .ca_certificate(tonic::transport::Certificate::from_pem(ca.pem()))
        .domain_name("127.0.0.1")
        .identity(tonic::transport::Identity::from_pem(
            &leaf.cert_pem,
            &leaf.key_pem,
        ));
    let grpc = async {
        let channel =
            tonic::transport::Endpoint::from_shared(format!("https://{}", serving.grpc_addr()))
                .unwrap()
                .tls_config(tls)
                .unwrap()
                .connect()
                .await
                .expect("a gRPC connection");
        let mut request = tonic::Request::new(a2a_proto::v1::SendMessageRequest {
            message: Some(a2a_proto::v1::Message {
                message_id: "m-1".into(),
                role: a2a_proto::v1::Role::User.into(),
                parts: vec![a2a_proto::v1::Part {
                    content: Some(a2a_proto::v1::part::Content::Text("hello".into())),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            ..Default::default()
        });
        request
            .metadata_mut()
            .insert("a2a-version", "1.0".parse().unwrap());
        if let Some(key) = key {
            request
                .metadata_mut()
                .insert("x-api-key", key.parse().unwrap());
        }
        match A2aServiceClient::new(channel).send_message(request).await {
            Ok(_) => tonic::Code::Ok,
            Err(status) => status.code(),
        }
    };
    let grpc = tokio::time::timeout(LIMIT, grpc).await.expect("in time");
    Answers {
        jsonrpc,
        rest,
        grpc,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skill_needing_a_certificate_and_an_api_key_together_is_served_only_with_both() {
    let ca = Ca::new("A2A test CA");
    let security = Security::new()
        .scheme("mtls", ClientCertificates::new())
        .scheme(
            "apiKey",
            ApiKeys::header("X-API-Key").key("k-alice", "alice-job"),
        );
    let both = SecurityRequirement::new([("mtls", Vec::<String>::new()), ("apiKey", Vec::new())]);
    let serving = serve_mtls_with(&ca, security, vec![both]).await;
    let alice = ca.issue(Vec::new(), "alice");

    let served = send_with(&ca, &alice, Some("k-alice"), &serving).await;
    println!("certificate and key: {served:?}");
    assert_eq!(served.jsonrpc.0, 200);
    assert_eq!(served.jsonrpc.1, 0, "JSON-RPC: {served:?}");
    assert_eq!(served.rest.0, 200, "HTTP+JSON: {served:?}");
    assert_eq!(served.grpc, tonic::Code::Ok);

    let certificate_only = send_with(&ca, &alice, None, &serving).await;
    println!("certificate only: {certificate_only:?}");
    assert_eq!(
        (certificate_only.jsonrpc.0, certificate_only.jsonrpc.1),
        (403, -31403)
    );
    assert_eq!(certificate_only.rest.0, 403);
    assert_eq!(certificate_only.grpc, tonic::Code::PermissionDenied);
    // An API key is no HTTP authentication scheme: no challenge (a Bearer one would mislead).
    assert_eq!(
        certificate_only.jsonrpc.2, None,
        "JSON-RPC's WWW-Authenticate"
    );
    assert_eq!(
        certificate_only.rest.1, None,
        "HTTP+JSON's WWW-Authenticate"
    );

    // A presented key that is wrong refuses the request, though the certificate verified.
    let wrong_key = send_with(&ca, &alice, Some("k-mallory"), &serving).await;
    println!("certificate and a wrong key: {wrong_key:?}");
    assert_eq!((wrong_key.jsonrpc.0, wrong_key.jsonrpc.1), (401, -31401));
    assert_eq!(wrong_key.rest.0, 401);
    assert_eq!(wrong_key.grpc, tonic::Code::Unauthenticated);
}
