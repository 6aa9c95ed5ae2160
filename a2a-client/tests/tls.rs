//! TLS on loopback (feature `rustls`), with a CA and certificates made at test time (rcgen):
//! - the client calls an agent served with `serve_tls` on JSON-RPC, HTTP+JSON and gRPC (send,
//!   stream, get), trusting the test CA as an extra root, while another peer stalls mid-handshake;
//! - a client that does not trust the CA is refused with `ClientError::Tls`, on the card fetch and
//!   on every binding, and never falls back to another interface;
//! - a push webhook is delivered over https to a receiver whose certificate the test CA signed
//!   (the SSRF guard allowing loopback, not plain http).
//!
//! Every wait is bounded; the servers stop when their handles are shut down or dropped.

use std::net::SocketAddr;
use std::time::Duration;

use a2a_client::tls::RootCertificate;
use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_protocol::errors::Error;
use a2a_server::tls::{TlsIdentity, TlsListener, WebhookTls};
use a2a_server::{
    A2aServer, AgentExecutor, EventSink, HttpPaths, RequestContext, ServerConfig, async_trait,
};
use a2a_types::v1::{
    AgentCard, AgentSkill, GetTaskRequest, Message, Part, SendMessageConfiguration,
    SendMessageRequest, SendMessageResponse, StreamResponse, TaskPushNotificationConfig, TaskState,
};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

const LIMIT: Duration = Duration::from_secs(20);

/// Works, then completes with a text artifact.
struct Done;

#[async_trait]
impl AgentExecutor for Done {
    async fn execute(&self, _context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.working().await?;
        events.complete_with_text("done over TLS").await?;
        Ok(())
    }
}

/// A CA made for one test, and a server certificate for `127.0.0.1` and `localhost` it signed.
struct Pki {
    ca_pem: String,
    identity: TlsIdentity,
    server_chain_pem: String,
    server_key_pem: String,
}

impl Pki {
    fn new(ca_name: &str) -> Self {
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(DnType::CommonName, ca_name);
        ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
        let server_key = KeyPair::generate().unwrap();
        let server_cert = CertificateParams::new(vec!["127.0.0.1".into(), "localhost".into()])
            .unwrap()
            .signed_by(&server_key, &ca)
            .unwrap();
        let server_chain_pem = server_cert.pem();
        let server_key_pem = server_key.serialize_pem();
        let identity = TlsIdentity::from_pem(server_chain_pem.clone(), server_key_pem.clone())
            .expect("a usable identity");
        Pki {
            ca_pem: ca.pem(),
            identity,
            server_chain_pem,
            server_key_pem,
        }
    }

    fn roots(&self) -> Vec<RootCertificate> {
        RootCertificate::from_pem(self.ca_pem.as_bytes()).expect("the CA's PEM")
    }
}

async fn loopback() -> TcpListener {
    TcpListener::bind("127.0.0.1:0").await.unwrap()
}

fn card(http: SocketAddr, grpc: SocketAddr, scheme: &str) -> AgentCard {
    AgentCard::builder("Tls", "Answers over TLS.", "1.0.0")
        .jsonrpc(format!("{scheme}://{http}/jsonrpc"))
        .http_json(format!("{scheme}://{http}/rest"))
        .grpc(format!("{scheme}://{grpc}"))
        .streaming(true)
        .push_notifications(true)
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
        .unwrap()
}

/// The agent behind TLS on all three bindings.
async fn serve_tls(pki: &Pki) -> a2a_server::Serving {
    let (http, grpc) = (loopback().await, loopback().await);
    let card = card(
        http.local_addr().unwrap(),
        grpc.local_addr().unwrap(),
        "https",
    );
    A2aServer::builder(card, Done)
        .build()
        .serve_tls(http, grpc, &HttpPaths::default(), &pki.identity)
        .await
        .expect("serving")
}

fn hello(id: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(id, [Part::text("hello")]),
        ..Default::default()
    }
}

fn trusting(pki: &Pki, binding: Binding) -> ClientConfig {
    ClientConfig {
        web_pki_roots: false,
        ..ClientConfig::default()
    }
    .only(binding)
    .trust_root_certificates(pki.roots())
    .timeout(LIMIT)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_calls_an_agent_behind_tls_on_every_binding() {
    let pki = Pki::new("A2A test CA");
    let serving = serve_tls(&pki).await;
    assert!(serving.base_url().starts_with("https://127.0.0.1:"));
    // A peer that connects and never starts its handshake holds up no one (handshakes run apart).
    let _stalled = tokio::net::TcpStream::connect(serving.http_addr())
        .await
        .unwrap();
    for binding in [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc] {
        // Half the server's 10 s handshake timeout: a listener that handshook in line would still
        // be waiting on the stalled peer.
        let client = tokio::time::timeout(
            Duration::from_secs(5),
            A2aClient::connect(&serving.base_url(), trusting(&pki, binding)),
        )
        .await
        .expect("not held up by the stalled peer")
        .unwrap_or_else(|e| panic!("{binding}: the card over https: {e}"));
        assert_eq!(client.binding(), binding);

        let sent = client
            .send_message(hello(&format!("m-{binding}-send")))
            .await
            .unwrap_or_else(|e| panic!("{binding}: send: {e}"));
        let SendMessageResponse::Task(task) = sent else {
            panic!("{binding}: a message instead of a task");
        };
        assert_eq!(task.status.state, TaskState::Completed, "{binding}");

        let got = client
            .get_task(GetTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            })
            .await
            .unwrap_or_else(|e| panic!("{binding}: get: {e}"));
        assert_eq!((got.id, got.status.state), (task.id, TaskState::Completed));

        let events = tokio::time::timeout(LIMIT, async {
            client
                .send_streaming_message(hello(&format!("m-{binding}-stream")))
                .await?
                .collect()
                .await
        })
        .await
        .expect("the stream ends in time")
        .unwrap_or_else(|e| panic!("{binding}: stream: {e}"));
        let last_state = events.iter().rev().find_map(|event| match event {
            StreamResponse::StatusUpdate(update) => Some(update.status.state),
            StreamResponse::Task(task) => Some(task.status.state),
            _ => None,
        });
        assert_eq!(
            last_state,
            Some(TaskState::Completed),
            "{binding}: {events:?}"
        );
    }
    serving.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_from_an_untrusted_ca_is_refused_with_a_typed_error() {
    let served = Pki::new("A2A served CA");
    let other = Pki::new("Another CA");
    let serving = serve_tls(&served).await;

    // The well-known card: refused before any interface is chosen, with the web PKI roots too.
    let refused = A2aClient::connect(&serving.base_url(), ClientConfig::default().timeout(LIMIT))
        .await
        .expect_err("an untrusted certificate");
    assert!(
        matches!(&refused, ClientError::Tls { binding: None, url, .. } if url.starts_with("https://127.0.0.1:")),
        "{refused:?}"
    );

    // Each binding, given the card: refused as TLS, whatever the other interfaces are.
    let card = card(serving.http_addr(), serving.grpc_addr(), "https");
    for binding in [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc] {
        let client = A2aClient::from_card(card.clone(), trusting(&other, binding)).unwrap();
        let refused = tokio::time::timeout(LIMIT, client.send_message(hello("m-untrusted")))
            .await
            .expect("in time")
            .expect_err("an untrusted certificate");
        assert!(
            matches!(&refused, ClientError::Tls { binding: Some(b), message, .. }
                if *b == binding && message.contains("certificate")),
            "{binding}: {refused:?}"
        );
    }
    // With all three bindings allowed, the refusal is reported: no fallback to another interface.
    let client = A2aClient::from_card(
        card,
        ClientConfig {
            web_pki_roots: false,
            ..ClientConfig::default()
        }
        .trust_root_certificates(other.roots()),
    )
    .unwrap();
    let refused = client.send_message(hello("m-any")).await.unwrap_err();
    assert!(matches!(refused, ClientError::Tls { .. }), "{refused:?}");
    serving.shutdown().await;
}

/// An https webhook receiver presenting `pki`'s server certificate: each body it is POSTed goes
/// to the channel.
async fn https_receiver(pki: &Pki) -> (SocketAddr, mpsc::Receiver<serde_json::Value>) {
    let (bodies, received) = mpsc::channel(16);
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |body: axum::body::Bytes| {
            let bodies = bodies.clone();
            async move {
                let value = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
                let _ = bodies.try_send(value);
                axum::http::StatusCode::OK
            }
        }),
    );
    let identity =
        TlsIdentity::from_pem(pki.server_chain_pem.clone(), pki.server_key_pem.clone()).unwrap();
    let listener = TlsListener::new(loopback().await, &identity).unwrap();
    let addr = axum::serve::Listener::local_addr(&listener).unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (addr, received)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_webhook_is_delivered_to_an_https_receiver() {
    let pki = Pki::new("A2A webhook CA");
    let (receiver, mut received) = https_receiver(&pki).await;
    let mut config = ServerConfig::default();
    config.webhook_policy.allow_loopback = true; // https only: allow_http stays off
    config.webhook_tls = WebhookTls::with_roots(
        pki.roots()
            .iter()
            .map(|root| rustls::pki_types::CertificateDer::from(root.der().to_vec())),
    );
    let (http, grpc) = (loopback().await, loopback().await);
    let card = card(
        http.local_addr().unwrap(),
        grpc.local_addr().unwrap(),
        "http",
    );
    let serving = A2aServer::builder(card.clone(), Done)
        .config(config)
        .build()
        .serve(http, grpc)
        .await
        .unwrap();

    let client =
        A2aClient::from_card(card, ClientConfig::default().only(Binding::JsonRpc)).unwrap();
    let request = SendMessageRequest {
        configuration: Some(SendMessageConfiguration {
            task_push_notification_config: Some(TaskPushNotificationConfig {
                url: format!("https://{receiver}/hook"),
                token: Some("secret-token".into()),
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..hello("m-push")
    };
    let SendMessageResponse::Task(task) = client.send_message(request).await.unwrap() else {
        panic!("a message instead of a task");
    };
    // The deliveries of the task's updates arrive over https; the last says completed.
    let deadline = tokio::time::Instant::now() + LIMIT;
    loop {
        let body = tokio::time::timeout_at(deadline, received.recv())
            .await
            .expect("a delivery in time")
            .expect("the receiver runs");
        let (task_id, state) = match &body {
            serde_json::Value::Object(event) if event.contains_key("statusUpdate") => (
                event["statusUpdate"]["taskId"].as_str().map(str::to_owned),
                event["statusUpdate"]["status"]["state"]
                    .as_str()
                    .map(str::to_owned),
            ),
            serde_json::Value::Object(event) if event.contains_key("task") => (
                event["task"]["id"].as_str().map(str::to_owned),
                event["task"]["status"]["state"].as_str().map(str::to_owned),
            ),
            _ => (None, None),
        };
        assert_eq!(task_id.as_deref(), Some(task.id.as_str()), "{body}");
        if state.as_deref() == Some("TASK_STATE_COMPLETED") {
            break;
        }
    }
    serving.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_roots_that_are_not_certificates_fail_the_build_by_field() {
    let mut config = ServerConfig::default();
    config.webhook_tls =
        WebhookTls::with_roots([rustls::pki_types::CertificateDer::from(b"not DER".to_vec())]);
    let card = card(
        "127.0.0.1:1".parse().unwrap(),
        "127.0.0.1:2".parse().unwrap(),
        "https",
    );
    let error = A2aServer::builder(card, Done)
        .config(config)
        .try_build()
        .expect_err("not a certificate");
    assert!(
        error
            .to_string()
            .starts_with("ServerConfig.webhook_tls.root_certificates[0]: "),
        "{error}"
    );
}
