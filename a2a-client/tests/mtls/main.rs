//! Mutual TLS on loopback (feature `rustls`), with certificates made at test time (rcgen): the
//! agent served with `serve_tls` and `TlsIdentity::require_client_certificates` refuses, on
//! JSON-RPC, HTTP+JSON and gRPC, a client without a certificate and a client whose certificate
//! another root issued, and serves a client whose certificate the trusted root issued; this crate's
//! client presents its certificate (`ClientConfig::client_certificate`) on every binding. With
//! `ClientCertificates` as the authenticator, the certificate names the caller: two clients with
//! certificates of the same root are two callers, and neither sees the other's tasks. With
//! `Security` composing the certificate and an API key, a skill needing both together is served
//! only to a client presenting both, on every binding. The gRPC routes served by tonic's own TLS
//! server with client authentication name the caller by the certificate too.
//!
//! Every wait is bounded; the server stops when its handle is dropped.

use std::time::Duration;

use a2a_client::ClientError;
use a2a_client::tls::{ClientIdentity, RootCertificate};
use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_proto::v1::a2a_service_client::A2aServiceClient;
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_server::tls::TlsIdentity;
use a2a_server::{
    A2aServer, AgentExecutor, Authenticator, ClientCertificates, EventSink, HttpPaths,
    RequestContext, async_trait,
};
use a2a_types::v1::{
    AgentCard, AgentSkill, GetTaskRequest, ListTasksRequest, Message, Part, SecurityRequirement,
    SendMessageRequest, SendMessageResponse,
};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use tokio::net::TcpListener;

mod schemes;
mod tonic_tls;

const LIMIT: Duration = Duration::from_secs(20);

/// Completes every task.
struct Done;

#[async_trait]
impl AgentExecutor for Done {
    async fn execute(&self, _context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.complete_with_text("done").await?;
        Ok(())
    }
}

/// A CA made for one test.
struct Ca {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A certificate and its key, in PEM.
struct Leaf {
    cert_pem: String,
    key_pem: String,
}

impl Ca {
    fn new(name: &str) -> Ca {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        Ca {
            issuer: CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap(),
        }
    }

    fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A leaf for `names` (the server's) or for the client `common_name`.
    fn issue(&self, names: Vec<String>, common_name: &str) -> Leaf {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(names).unwrap();
        params
            .distinguished_name
            .push(DnType::CommonName, common_name);
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Leaf {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }
}

fn card(http: std::net::SocketAddr, grpc: std::net::SocketAddr) -> AgentCard {
    AgentCard::builder("Mtls", "Answers callers with a certificate.", "1.0.0")
        .jsonrpc(format!("https://{http}/jsonrpc"))
        .http_json(format!("https://{http}/rest"))
        .grpc(format!("https://{grpc}"))
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

/// What one client got on each binding: `Ok` with the HTTP status (200 for gRPC's OK), or the
/// error's text.
async fn calls(
    ca_pem: &str,
    client: Option<&Leaf>,
    serving: &a2a_server::Serving,
) -> [Result<u16, String>; 3] {
    let mut http = reqwest::Client::builder()
        .tls_certs_only([reqwest::Certificate::from_pem(ca_pem.as_bytes()).unwrap()]);
    if let Some(leaf) = client {
        let pem = format!("{}{}", leaf.cert_pem, leaf.key_pem);
        http = http.identity(reqwest::Identity::from_pem(pem.as_bytes()).unwrap());
    }
    let http = http.timeout(LIMIT).build().unwrap();
    let base = serving.base_url();
    let jsonrpc = http
        .post(format!("{base}/jsonrpc"))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}"#)
        .send()
        .await
        .map(|r| r.status().as_u16())
        .map_err(|e| format!("{e:?}"));
    let rest = http
        .get(format!("{base}/rest/tasks"))
        .header("A2A-Version", "1.0")
        .send()
        .await
        .map(|r| r.status().as_u16())
        .map_err(|e| format!("{e:?}"));

    let mut tls = tonic::transport::ClientTlsConfig::new()
        .ca_certificate(tonic::transport::Certificate::from_pem(ca_pem))
        .domain_name("127.0.0.1");
    if let Some(leaf) = client {
        tls = tls.identity(tonic::transport::Identity::from_pem(
            &leaf.cert_pem,
            &leaf.key_pem,
        ));
    }
    let grpc = async {
        let channel =
            tonic::transport::Endpoint::from_shared(format!("https://{}", serving.grpc_addr()))
                .unwrap()
                .tls_config(tls)
                .map_err(|e| format!("{e:?}"))?
                .connect()
                .await
                .map_err(|e| format!("{e:?}"))?;
        let mut request = tonic::Request::new(a2a_proto::v1::ListTasksRequest::default());
        request
            .metadata_mut()
            .insert("a2a-version", "1.0".parse().unwrap());
        A2aServiceClient::new(channel)
            .list_tasks(request)
            .await
            .map(|_| 200)
            .map_err(|e| format!("{e:?}"))
    };
    let grpc = tokio::time::timeout(LIMIT, grpc).await.expect("in time");
    [jsonrpc, rest, grpc]
}

/// The agent behind TLS requiring certificates of `ca`.
async fn serve_mtls(ca: &Ca) -> a2a_server::Serving {
    serve_mtls_as(ca, a2a_server::Anonymous).await
}

/// The agent behind TLS requiring certificates of `ca`, its callers named by `authenticator`.
async fn serve_mtls_as(ca: &Ca, authenticator: impl Authenticator) -> a2a_server::Serving {
    serve_mtls_with(ca, authenticator, Vec::new()).await
}

/// The agent behind TLS requiring certificates of `ca`, its callers named by `authenticator`, its
/// one skill needing one of `requirements`.
async fn serve_mtls_with(
    ca: &Ca,
    authenticator: impl Authenticator,
    requirements: Vec<SecurityRequirement>,
) -> a2a_server::Serving {
    let server = ca.issue(vec!["127.0.0.1".into(), "localhost".into()], "agent");
    let identity = TlsIdentity::from_pem(server.cert_pem.clone(), server.key_pem.clone())
        .unwrap()
        .require_client_certificates(ca.pem())
        .expect("usable client roots");
    let (http, grpc) = (
        TcpListener::bind("127.0.0.1:0").await.unwrap(),
        TcpListener::bind("127.0.0.1:0").await.unwrap(),
    );
    let mut card = card(http.local_addr().unwrap(), grpc.local_addr().unwrap());
    card.skills[0].security_requirements = requirements;
    A2aServer::builder(card, Done)
        .authenticator(authenticator)
        .build()
        .serve_tls(http, grpc, &HttpPaths::default(), &identity)
        .await
        .expect("serving")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_clients_with_a_certificate_of_the_trusted_root_are_served_on_every_binding() {
    let ca = Ca::new("A2A test CA");
    let other = Ca::new("Another CA");
    let serving = serve_mtls(&ca).await;

    let good = ca.issue(Vec::new(), "alice");
    let stranger = other.issue(Vec::new(), "mallory");
    let bindings = ["JSON-RPC", "HTTP+JSON", "gRPC"];
    for (who, client) in [
        ("no certificate", None),
        ("another root's", Some(&stranger)),
    ] {
        let answers = calls(&ca.pem(), client, &serving).await;
        for (binding, answer) in bindings.iter().zip(answers) {
            println!("{who}, {binding}: {answer:?}");
            assert!(answer.is_err(), "{who} was served on {binding}: {answer:?}");
        }
    }
    let answers = calls(&ca.pem(), Some(&good), &serving).await;
    for (binding, answer) in bindings.iter().zip(answers) {
        assert_eq!(answer, Ok(200), "the trusted client on {binding}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_presents_its_certificate_on_every_binding() {
    let ca = Ca::new("A2A test CA");
    let serving = serve_mtls(&ca).await;
    let leaf = ca.issue(Vec::new(), "alice");
    let roots = RootCertificate::from_pem(ca.pem().as_bytes()).unwrap();
    for binding in [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc] {
        let config = ClientConfig {
            web_pki_roots: false,
            ..ClientConfig::default()
        }
        .only(binding)
        .trust_root_certificates(roots.clone())
        .timeout(LIMIT);
        // Without a certificate the agent's card cannot even be read.
        let refused = A2aClient::connect(&serving.base_url(), config.clone()).await;
        assert!(refused.is_err(), "{binding}: served without a certificate");
        let identity = ClientIdentity::from_pem(leaf.cert_pem.clone(), leaf.key_pem.clone())
            .expect("a usable identity");
        let client = A2aClient::connect(&serving.base_url(), config.client_certificate(identity))
            .await
            .unwrap_or_else(|e| panic!("{binding}: the card with a certificate: {e}"));
        assert_eq!(client.binding(), binding);
        client
            .list_tasks(ListTasksRequest::default())
            .await
            .unwrap_or_else(|e| panic!("{binding}: ListTasks with a certificate: {e}"));
    }
}

/// A client of `binding` presenting `leaf`, trusting `ca`.
async fn client_as(
    ca: &Ca,
    leaf: &Leaf,
    binding: Binding,
    serving: &a2a_server::Serving,
) -> A2aClient {
    let config = ClientConfig {
        web_pki_roots: false,
        ..ClientConfig::default()
    }
    .only(binding)
    .trust_root_certificates(RootCertificate::from_pem(ca.pem().as_bytes()).unwrap())
    .timeout(LIMIT)
    .client_certificate(
        ClientIdentity::from_pem(leaf.cert_pem.clone(), leaf.key_pem.clone()).unwrap(),
    );
    A2aClient::connect(&serving.base_url(), config)
        .await
        .unwrap_or_else(|e| panic!("{binding}: connecting with a certificate: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_certificate_names_the_caller_and_callers_do_not_see_each_others_tasks() {
    let ca = Ca::new("A2A test CA");
    let serving = serve_mtls_as(&ca, ClientCertificates::new().required()).await;
    let (alice, bob) = (ca.issue(Vec::new(), "alice"), ca.issue(Vec::new(), "bob"));
    for binding in [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc] {
        let as_alice = client_as(&ca, &alice, binding, &serving).await;
        let as_bob = client_as(&ca, &bob, binding, &serving).await;
        let request = SendMessageRequest {
            message: Message::user(format!("m-{binding}"), [Part::text("hello")]),
            ..Default::default()
        };
        let SendMessageResponse::Task(task) = as_alice.send_message(request).await.unwrap() else {
            panic!("{binding}: Done answers with a task");
        };
        let get = || GetTaskRequest {
            id: task.id.clone(),
            ..Default::default()
        };
        let seen = as_alice.get_task(get()).await;
        let seen = seen.unwrap_or_else(|e| panic!("{binding}: alice's own task: {e}"));
        assert_eq!(seen.id, task.id, "{binding}: alice's own task");
        match as_bob.get_task(get()).await {
            Err(ClientError::A2a { error, .. }) => {
                assert_eq!(error.kind, ErrorKind::TaskNotFound, "{binding}: {error:?}")
            }
            other => panic!("{binding}: bob read alice's task: {other:?}"),
        }
        let listed = as_bob
            .list_tasks(ListTasksRequest::default())
            .await
            .unwrap();
        assert!(
            listed.tasks.is_empty(),
            "{binding}: bob lists {:?}",
            listed.tasks
        );
    }
}

#[test]
fn client_roots_that_are_not_certificates_are_refused_by_field() {
    let ca = Ca::new("A2A test CA");
    let server = ca.issue(vec!["127.0.0.1".into()], "agent");
    let identity = TlsIdentity::from_pem(server.cert_pem, server.key_pem).unwrap();
    let error = identity
        .require_client_certificates("not PEM")
        .expect_err("no certificate");
    assert_eq!(error.field, "client_roots");
}
