//! The `grpc` feature's generated tonic stubs, end to end: a minimal agent implements the generated
//! `A2aService` trait, runs as a real gRPC server on 127.0.0.1, and the generated client calls it over
//! HTTP/2 (unary, server streaming, error status, and an RPC the agent left to the default stub).
//! With `v0_3`, the same for the v0.3 service `a2a.v1.A2AService`.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::service::Routes;
use tonic::transport::{Channel, Endpoint, Server};
use tonic::{Code, Request, Response, Status};

/// The longest any single step (bind, connect, call, next stream item, shutdown) may take.
const STEP_LIMIT: Duration = Duration::from_secs(10);

async fn within_limit<T>(step: &str, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(STEP_LIMIT, future)
        .await
        .unwrap_or_else(|_| panic!("{step} took longer than {STEP_LIMIT:?}"))
}

/// A gRPC server on an ephemeral loopback port, stopped by [`RunningServer::shut_down`].
struct RunningServer {
    address: SocketAddr,
    stop: oneshot::Sender<()>,
    serving: JoinHandle<Result<(), tonic::transport::Error>>,
}

impl RunningServer {
    async fn start(routes: Routes) -> Self {
        let listener = within_limit("binding", TcpListener::bind("127.0.0.1:0"))
            .await
            .expect("binding 127.0.0.1:0");
        let address = listener.local_addr().expect("bound address");
        let (stop, stopped) = oneshot::channel::<()>();
        let serving = tokio::spawn(
            Server::builder()
                .add_routes(routes)
                .serve_with_incoming_shutdown(TcpListenerStream::new(listener), async {
                    let _ = stopped.await;
                }),
        );
        Self {
            address,
            stop,
            serving,
        }
    }

    async fn connect(&self) -> Channel {
        let endpoint = Endpoint::from_shared(format!("http://{}", self.address))
            .expect("endpoint URI")
            .connect_timeout(STEP_LIMIT)
            .timeout(STEP_LIMIT);
        within_limit("connecting", endpoint.connect())
            .await
            .expect("connecting to the test server")
    }

    /// Drops `client` (closing its connection, which graceful shutdown waits for), then stops.
    async fn shut_down<C>(self, client: C) {
        drop(client);
        self.stop.send(()).expect("server still running");
        within_limit("shutting down", self.serving)
            .await
            .expect("server task")
            .expect("server exited cleanly");
    }
}

mod v1 {
    use super::*;
    use a2a_proto::grpc::{Budgeted, with_limits};
    use a2a_proto::limits::{DEFAULT_MAX_ELEMENTS, Limits};
    use a2a_proto::v1::a2a_service_client::A2aServiceClient;
    use a2a_proto::v1::a2a_service_server::{A2aService, A2aServiceServer};
    use a2a_proto::v1::{
        CancelTaskRequest, GetTaskRequest, Message, Part, Role, SendMessageRequest,
        SendMessageResponse, StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent,
        part, send_message_response, stream_response,
    };
    use tonic::codegen::BoxStream;

    /// Accepts every message as a new task named after the message; knows no task afterwards.
    struct MinimalAgent;

    fn task_for(message: &Message) -> Task {
        Task {
            id: format!("task-for-{}", message.message_id),
            context_id: message.context_id.clone(),
            status: Some(TaskStatus {
                state: TaskState::Submitted.into(),
                ..Default::default()
            }),
            history: vec![message.clone()],
            ..Default::default()
        }
    }

    fn status_update(task: &Task, state: TaskState) -> StreamResponse {
        StreamResponse {
            payload: Some(stream_response::Payload::StatusUpdate(
                TaskStatusUpdateEvent {
                    task_id: task.id.clone(),
                    context_id: task.context_id.clone(),
                    status: Some(TaskStatus {
                        state: state.into(),
                        ..Default::default()
                    }),
                    ..Default::default()
                },
            )),
        }
    }

    fn sent_message(request: Request<SendMessageRequest>) -> Result<Message, Status> {
        request
            .into_inner()
            .message
            .ok_or_else(|| Status::invalid_argument("message is required"))
    }

    #[tonic::async_trait]
    impl A2aService for MinimalAgent {
        async fn send_message(
            &self,
            request: Request<SendMessageRequest>,
        ) -> Result<Response<SendMessageResponse>, Status> {
            let task = task_for(&sent_message(request)?);
            Ok(Response::new(SendMessageResponse {
                payload: Some(send_message_response::Payload::Task(task)),
            }))
        }

        async fn send_streaming_message(
            &self,
            request: Request<SendMessageRequest>,
        ) -> Result<Response<BoxStream<StreamResponse>>, Status> {
            let task = task_for(&sent_message(request)?);
            let events = [
                status_update(&task, TaskState::Working),
                status_update(&task, TaskState::Completed),
            ];
            Ok(Response::new(Box::pin(tokio_stream::iter(
                events.into_iter().map(Ok),
            ))))
        }

        async fn get_task(
            &self,
            request: Request<GetTaskRequest>,
        ) -> Result<Response<Task>, Status> {
            Err(Status::not_found(format!(
                "no task with id {}",
                request.into_inner().id
            )))
        }
    }

    fn booking_request() -> SendMessageRequest {
        SendMessageRequest {
            message: Some(Message {
                message_id: "m-1".into(),
                context_id: "ctx-7".into(),
                role: Role::User.into(),
                parts: vec![Part {
                    content: Some(part::Content::Text("Book a table for two".into())),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn generated_client_calls_generated_server() {
        let (server, mut client) =
            connected(Routes::new(A2aServiceServer::new(MinimalAgent))).await;

        // Unary: the task comes back intact through protobuf on the wire.
        let response = within_limit("SendMessage", client.send_message(booking_request()))
            .await
            .expect("SendMessage succeeds")
            .into_inner();
        let sent = booking_request().message.unwrap();
        let expected_task = Task {
            id: "task-for-m-1".into(),
            context_id: "ctx-7".into(),
            status: Some(TaskStatus {
                state: TaskState::Submitted.into(),
                ..Default::default()
            }),
            history: vec![sent],
            ..Default::default()
        };
        assert_eq!(
            response.payload,
            Some(send_message_response::Payload::Task(expected_task.clone()))
        );

        // Server streaming: both events, in order, then the end of the stream.
        let mut events = within_limit(
            "SendStreamingMessage",
            client.send_streaming_message(booking_request()),
        )
        .await
        .expect("SendStreamingMessage succeeds")
        .into_inner();
        let mut received = Vec::new();
        while let Some(event) = within_limit("next stream event", events.message())
            .await
            .expect("stream event")
        {
            received.push(event);
        }
        assert_eq!(
            received,
            [
                status_update(&expected_task, TaskState::Working),
                status_update(&expected_task, TaskState::Completed),
            ]
        );

        // An error status reaches the client with its code and message.
        let lookup = GetTaskRequest {
            id: "task-404".into(),
            ..Default::default()
        };
        let status = within_limit("GetTask", client.get_task(lookup))
            .await
            .expect_err("GetTask of an unknown task fails");
        assert_eq!(status.code(), Code::NotFound);
        assert_eq!(status.message(), "no task with id task-404");

        // An RPC the agent does not implement answers UNIMPLEMENTED (the generated default), which is
        // also what an RPC added to the spec does until an agent implements it.
        let cancel = CancelTaskRequest {
            id: "task-for-m-1".into(),
            ..Default::default()
        };
        let status = within_limit("CancelTask", client.cancel_task(cancel))
            .await
            .expect_err("CancelTask is not implemented by this agent");
        assert_eq!(status.code(), Code::Unimplemented);

        server.shut_down(client).await;
    }

    /// `routes` served on loopback, and a client connected to them.
    async fn connected(routes: Routes) -> (RunningServer, A2aServiceClient<Channel>) {
        let server = RunningServer::start(routes).await;
        let client = A2aServiceClient::new(server.connect().await);
        (server, client)
    }

    fn request_with_parts(count: usize) -> SendMessageRequest {
        let mut request = booking_request();
        let message = request.message.as_mut().unwrap();
        message.parts = vec![Part::default(); count];
        request
    }

    /// A server wrapped in `Budgeted` checks each request's fields before prost decodes it; the
    /// refusal names the limit and the first field over it, and the server keeps serving.
    #[tokio::test]
    async fn a_budgeted_server_refuses_a_request_over_its_element_limit() {
        let limits = Limits::default().with_max_elements(20);
        let (server, mut client) = connected(Routes::new(Budgeted::new(
            A2aServiceServer::new(MinimalAgent),
            limits,
        )))
        .await;

        // message_id, context_id, role and the message itself are 4 fields: 16 parts fit, 17 do not.
        let within = within_limit("SendMessage", client.send_message(request_with_parts(16))).await;
        assert!(within.is_ok(), "16 parts are within the budget: {within:?}");
        let status = within_limit("SendMessage", client.send_message(request_with_parts(17)))
            .await
            .expect_err("17 parts are over the budget");
        assert_eq!(status.code(), Code::OutOfRange);
        assert_eq!(
            status.message(),
            "more than 20 protobuf fields (the max_elements limit) at `message.parts[16]`"
        );
        let streamed = within_limit(
            "SendStreamingMessage",
            client.send_streaming_message(request_with_parts(40)),
        )
        .await
        .expect_err("the streaming RPC's request is checked as well");
        assert_eq!(streamed.code(), Code::OutOfRange);

        server.shut_down(client).await;
    }

    /// Bytes on the wire as they are: a client codec that sends a request body no message decodes.
    mod raw {
        use prost::bytes::{Buf, BufMut};
        use tonic::Status;
        use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

        #[derive(Clone, Copy, Default)]
        pub(super) struct RawCodec;
        pub(super) struct RawEncoder;
        pub(super) struct RawDecoder;

        impl Codec for RawCodec {
            type Encode = Vec<u8>;
            type Decode = Vec<u8>;
            type Encoder = RawEncoder;
            type Decoder = RawDecoder;
            fn encoder(&mut self) -> RawEncoder {
                RawEncoder
            }
            fn decoder(&mut self) -> RawDecoder {
                RawDecoder
            }
        }

        impl Encoder for RawEncoder {
            type Item = Vec<u8>;
            type Error = Status;
            fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
                dst.put_slice(&item);
                Ok(())
            }
        }

        impl Decoder for RawDecoder {
            type Item = Vec<u8>;
            type Error = Status;
            fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, Status> {
                Ok(Some(src.copy_to_bytes(src.remaining()).to_vec()))
            }
        }
    }

    /// A request that is not a protobuf message (a varint that never ends) is the client's error:
    /// `INVALID_ARGUMENT`, as gRPC's status codes have it, not `INTERNAL` (tonic's own codec's
    /// answer); the server keeps serving.
    #[tokio::test]
    async fn an_undecodable_request_is_an_invalid_argument() {
        let (server, mut client) =
            connected(Routes::new(A2aServiceServer::new(MinimalAgent))).await;
        let mut raw = tonic::client::Grpc::new(server.connect().await);
        within_limit("ready", raw.ready()).await.expect("ready");
        let path = tonic::codegen::http::uri::PathAndQuery::from_static(
            "/lf.a2a.v1.A2AService/SendMessage",
        );
        let status = within_limit(
            "SendMessage",
            raw.unary(Request::new(vec![0xff; 11]), path, raw::RawCodec),
        )
        .await
        .expect_err("no message decodes from these bytes");
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        let within = within_limit("SendMessage", client.send_message(booking_request())).await;
        assert!(within.is_ok(), "{within:?}");
        drop(raw);
        server.shut_down(client).await;
    }

    /// Without `Budgeted`, the stubs still decode under `Limits::default()` (100,000 fields): a
    /// 200 KB request of empty parts, which prost would turn into ~25 MB of structs, is refused.
    #[tokio::test]
    async fn an_unwrapped_server_applies_the_default_budget() {
        let (server, mut client) =
            connected(Routes::new(A2aServiceServer::new(MinimalAgent))).await;
        let status = within_limit(
            "SendMessage",
            client.send_message(request_with_parts(DEFAULT_MAX_ELEMENTS)),
        )
        .await
        .expect_err("100,000 parts and 4 more fields are over the default budget");
        assert_eq!(status.code(), Code::OutOfRange);
        assert!(
            status
                .message()
                .contains("(the max_elements limit) at `message.parts["),
            "{}",
            status.message()
        );
        server.shut_down(client).await;
    }

    /// A client call run inside `with_limits` checks the response it decodes.
    #[tokio::test]
    async fn a_client_call_decodes_its_response_under_its_limits() {
        let (server, mut client) =
            connected(Routes::new(A2aServiceServer::new(MinimalAgent))).await;
        // The answer is a task holding the 8-part message: over 10 fields.
        let request = request_with_parts(8);
        let status = within_limit(
            "SendMessage",
            with_limits(
                Limits::default().with_max_elements(10),
                client.send_message(request.clone()),
            ),
        )
        .await
        .expect_err("the response is over the client's budget");
        assert_eq!(status.code(), Code::OutOfRange);
        assert!(
            status.message().contains("at `task."),
            "{}",
            status.message()
        );
        let answered = within_limit(
            "SendMessage",
            with_limits(Limits::default(), client.send_message(request)),
        )
        .await;
        assert!(answered.is_ok(), "{answered:?}");
        server.shut_down(client).await;
    }

    #[test]
    fn service_name_is_the_protos() {
        use tonic::server::NamedService;
        assert_eq!(
            <A2aServiceServer<MinimalAgent> as NamedService>::NAME,
            "lf.a2a.v1.A2AService"
        );
    }
}

#[cfg(feature = "v0_3")]
mod v0_3 {
    use super::*;
    use a2a_proto::v0_3::a2a_service_client::A2aServiceClient;
    use a2a_proto::v0_3::a2a_service_server::{A2aService, A2aServiceServer};
    use a2a_proto::v0_3::{
        Message, Part, Role, SendMessageRequest, SendMessageResponse, Task, TaskState, TaskStatus,
        part, send_message_response,
    };

    /// Turns every message into a submitted task in the message's context.
    struct V0_3Agent;

    #[tonic::async_trait]
    impl A2aService for V0_3Agent {
        async fn send_message(
            &self,
            request: Request<SendMessageRequest>,
        ) -> Result<Response<SendMessageResponse>, Status> {
            let message = request
                .into_inner()
                .request
                .ok_or_else(|| Status::invalid_argument("request is required"))?;
            let task = Task {
                id: format!("task-for-{}", message.message_id),
                context_id: message.context_id.clone(),
                status: Some(TaskStatus {
                    state: TaskState::Submitted.into(),
                    ..Default::default()
                }),
                history: vec![message],
                ..Default::default()
            };
            Ok(Response::new(SendMessageResponse {
                payload: Some(send_message_response::Payload::Task(task)),
            }))
        }
    }

    #[tokio::test]
    async fn generated_v0_3_client_calls_generated_server() {
        let server = RunningServer::start(Routes::new(A2aServiceServer::new(V0_3Agent))).await;
        let mut client = A2aServiceClient::new(server.connect().await);

        let message = Message {
            message_id: "m-3".into(),
            context_id: "ctx-3".into(),
            role: Role::User.into(),
            content: vec![Part {
                part: Some(part::Part::Text("Status of my order?".into())),
                ..Default::default()
            }],
            ..Default::default()
        };
        let request = SendMessageRequest {
            request: Some(message.clone()),
            ..Default::default()
        };
        let response = within_limit("v0.3 SendMessage", client.send_message(request))
            .await
            .expect("SendMessage succeeds")
            .into_inner();
        let Some(send_message_response::Payload::Task(task)) = response.payload else {
            panic!("expected a task, got {:?}", response.payload);
        };
        assert_eq!(task.id, "task-for-m-3");
        assert_eq!(task.context_id, "ctx-3");
        assert_eq!(task.status.unwrap().state(), TaskState::Submitted);
        assert_eq!(task.history, [message]);

        server.shut_down(client).await;
    }

    #[test]
    fn service_name_is_the_protos() {
        use tonic::server::NamedService;
        assert_eq!(
            <A2aServiceServer<V0_3Agent> as NamedService>::NAME,
            "a2a.v1.A2AService"
        );
    }
}
