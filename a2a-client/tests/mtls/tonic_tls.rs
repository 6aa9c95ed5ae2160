//! The gRPC routes of `A2aServer::grpc_routes` served by tonic's own TLS server (`ServerTlsConfig`
//! with `client_ca_root`), not by `serve_tls`: the client certificate still names the caller.

use a2a_proto::v1::a2a_service_client::A2aServiceClient;
use a2a_server::{A2aServer, ClientCertificates};
use tokio::net::TcpListener;

use super::{Ca, Done, LIMIT, Leaf, card};

/// A task that is aborted when dropped (the server a test started).
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A gRPC channel to `addr` presenting `leaf`, trusting `ca`.
async fn grpc_channel(
    ca: &Ca,
    leaf: &Leaf,
    addr: std::net::SocketAddr,
) -> tonic::transport::Channel {
    let tls = tonic::transport::ClientTlsConfig::new()
        .ca_certificate(tonic::transport::Certificate::from_pem(ca.pem()))
        .domain_name("127.0.0.1")
        .identity(tonic::transport::Identity::from_pem(
            &leaf.cert_pem,
            &leaf.key_pem,
        ));
    let endpoint = tonic::transport::Endpoint::from_shared(format!("https://{addr}"))
        .unwrap()
        .tls_config(tls)
        .unwrap();
    tokio::time::timeout(LIMIT, endpoint.connect())
        .await
        .expect("in time")
        .expect("a gRPC connection")
}

/// A request of the A2A 1.0 service.
fn v1_request<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request
        .metadata_mut()
        .insert("a2a-version", "1.0".parse().unwrap());
    request
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grpc_routes_served_by_tonics_own_tls_server_name_the_caller_by_its_certificate() {
    let ca = Ca::new("A2A test CA");
    let agent = ca.issue(vec!["127.0.0.1".into()], "agent");
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = A2aServer::builder(card(addr, addr), Done)
        .authenticator(ClientCertificates::new().required())
        .build();
    let tls = tonic::transport::ServerTlsConfig::new()
        .identity(tonic::transport::Identity::from_pem(
            &agent.cert_pem,
            &agent.key_pem,
        ))
        .client_ca_root(tonic::transport::Certificate::from_pem(ca.pem()));
    let serving = tonic::transport::Server::builder()
        .tls_config(tls)
        .expect("a usable TLS configuration")
        .add_routes(server.grpc_routes())
        .serve_with_incoming(tonic::transport::server::TcpIncoming::from(listener));
    let _serving = AbortOnDrop(tokio::spawn(serving));

    let (alice, bob) = (ca.issue(Vec::new(), "alice"), ca.issue(Vec::new(), "bob"));
    let mut as_alice = A2aServiceClient::new(grpc_channel(&ca, &alice, addr).await);
    let mut as_bob = A2aServiceClient::new(grpc_channel(&ca, &bob, addr).await);
    let send = a2a_proto::v1::SendMessageRequest {
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
    };
    let sent = tokio::time::timeout(LIMIT, as_alice.send_message(v1_request(send)))
        .await
        .expect("in time");
    sent.unwrap_or_else(|status| panic!("alice, named by her certificate: {status:?}"));
    let listed = |client: &mut A2aServiceClient<tonic::transport::Channel>| {
        let mut client = client.clone();
        async move {
            let request = v1_request(a2a_proto::v1::ListTasksRequest::default());
            let listed = tokio::time::timeout(LIMIT, client.list_tasks(request))
                .await
                .expect("in time")
                .expect("ListTasks");
            listed.into_inner().tasks.len()
        }
    };
    assert_eq!(listed(&mut as_alice).await, 1, "alice's own task");
    assert_eq!(listed(&mut as_bob).await, 0, "bob sees alice's task");
}
