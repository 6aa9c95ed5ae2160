//! `a2a-example-client`: the workspace's client on the command line. It resolves the agent's card, picks a
//! binding (`--binding` to insist on one), and runs one operation, printing what came back as
//! ProtoJSON (a stream one event per line):
//!
//! ```text
//! a2a-example-client --agent http://127.0.0.1:8080 card
//! a2a-example-client --agent http://127.0.0.1:8080 --binding grpc send "Book a table for two"
//! a2a-example-client --agent http://127.0.0.1:8080 stream --message-id tck-stream-001 "hello"
//! a2a-example-client --agent http://127.0.0.1:8080 get TASK_ID --history-length 1
//! a2a-example-client --agent http://127.0.0.1:8080 conformance --token TOKEN
//! a2a-example-client --agent http://127.0.0.1:9999 --protocol-version 0.3 send "hi"   # a v0.3 agent
//! ```
//!
//! Exits 0 on success, 1 when the agent answered an error (printed with its A2A kind), 2 on bad usage.

use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError, EventStream};
use a2a_testkit::conformance::{ConformanceOptions, run_conformance};
use a2a_types::v1::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Message, Part, SendMessageRequest, SubscribeToTaskRequest,
    TaskPushNotificationConfig, TaskState,
};
use clap::{Parser, Subcommand};
use serde::Serialize;

#[derive(Parser)]
#[command(
    about = "Calls an A2A agent over JSON-RPC, HTTP+JSON or gRPC, chosen from its agent card"
)]
struct Cli {
    /// The agent's base URL; its card is read from /.well-known/agent-card.json under it.
    #[arg(long)]
    agent: String,
    /// The bindings to use, most wanted first (jsonrpc, http+json, grpc); repeat or separate by commas.
    #[arg(long, value_delimiter = ',', default_values = ["jsonrpc", "http+json", "grpc"])]
    binding: Vec<Binding>,
    /// A bearer token sent with every request (the extended card needs one).
    #[arg(long)]
    token: Option<String>,
    /// Seconds a unary call may take.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// The protocol versions to use, most wanted first (1.0, 0.3: a v0.3 agent through the bridge).
    #[arg(long = "protocol-version", value_delimiter = ',', default_values = ["1.0", "0.3"])]
    protocol_versions: Vec<a2a_protocol::service::ProtocolVersion>,
    /// An extension URI to activate (sent as A2A-Extensions); repeat for more.
    #[arg(long)]
    extension: Vec<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Prints the agent card and the interface chosen.
    Card,
    /// SendMessage: prints the task or message.
    Send(SendArgs),
    /// SendStreamingMessage: prints each event as it arrives.
    Stream(SendArgs),
    /// GetTask.
    Get {
        id: String,
        #[arg(long)]
        history_length: Option<i32>,
    },
    /// ListTasks.
    List {
        #[arg(long)]
        context_id: Option<String>,
        /// A task state such as TASK_STATE_COMPLETED.
        #[arg(long)]
        status: Option<String>,
        #[arg(long)]
        page_size: Option<i32>,
        #[arg(long)]
        page_token: Option<String>,
    },
    /// CancelTask.
    Cancel { id: String },
    /// SubscribeToTask: prints each event as it arrives.
    Subscribe { id: String },
    /// CreateTaskPushNotificationConfig.
    PushCreate {
        task_id: String,
        url: String,
        #[arg(long)]
        id: Option<String>,
        #[arg(long)]
        webhook_token: Option<String>,
    },
    /// GetTaskPushNotificationConfig.
    PushGet { task_id: String, id: String },
    /// ListTaskPushNotificationConfigs.
    PushList { task_id: String },
    /// DeleteTaskPushNotificationConfig.
    PushDelete { task_id: String, id: String },
    /// GetExtendedAgentCard (pass --token).
    ExtendedCard,
    /// Runs every conformance check on the chosen binding and prints the report.
    Conformance {
        /// The token that unlocks the extended card; without it those checks are skipped.
        #[arg(long)]
        extended_card_token: Option<String>,
    },
}

#[derive(clap::Args)]
struct SendArgs {
    /// The text to send.
    text: String,
    /// The messageId (its prefix chooses a behaviour of a conformance agent); default a fresh one.
    #[arg(long)]
    message_id: Option<String>,
    /// Continue this task.
    #[arg(long)]
    task_id: Option<String>,
    /// Send within this context.
    #[arg(long)]
    context_id: Option<String>,
    /// Answer at once with the task, without waiting for it to finish.
    #[arg(long)]
    return_immediately: bool,
}

impl SendArgs {
    fn request(self) -> SendMessageRequest {
        let id = self.message_id.unwrap_or_else(|| {
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default();
            format!("cli-{}-{nanos:x}", std::process::id())
        });
        let mut message = Message::user(id, [Part::text(self.text)]);
        message.task_id = self.task_id;
        message.context_id = self.context_id;
        let mut request = SendMessageRequest {
            message,
            ..Default::default()
        };
        if self.return_immediately {
            request.configuration = Some(a2a_types::v1::SendMessageConfiguration {
                return_immediately: Some(true),
                ..Default::default()
            });
        }
        request
    }
}

fn print_json<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("cannot print the answer as JSON: {e}"),
    }
}

async fn print_stream(stream: Result<EventStream, ClientError>) -> Result<(), ClientError> {
    let mut stream = stream?;
    while let Some(event) = stream.next().await {
        match serde_json::to_string(&event?) {
            Ok(line) => println!("{line}"),
            Err(e) => eprintln!("cannot print an event as JSON: {e}"),
        }
    }
    Ok(())
}

async fn run(cli: Cli) -> Result<ExitCode, ClientError> {
    let config = ClientConfig {
        preference: cli.binding,
        bearer_token: cli.token,
        timeout: Duration::from_secs(cli.timeout),
        versions: cli.protocol_versions,
        extensions: cli.extension,
        ..ClientConfig::default()
    };
    let client = A2aClient::connect(&cli.agent, config).await?;
    eprintln!(
        "{}: {} at {}",
        client.card().name,
        client.binding(),
        client.interface().url
    );
    match cli.command {
        Command::Card => print_json(client.card()),
        Command::Send(args) => print_json(&client.send_message(args.request()).await?),
        Command::Stream(args) => {
            print_stream(client.send_streaming_message(args.request()).await).await?
        }
        Command::Get { id, history_length } => print_json(
            &client
                .get_task(GetTaskRequest {
                    id,
                    history_length,
                    ..Default::default()
                })
                .await?,
        ),
        Command::List {
            context_id,
            status,
            page_size,
            page_token,
        } => {
            let status = match status.map(|s| serde_json::from_value::<TaskState>(s.into())) {
                None => None,
                Some(Ok(state)) => Some(state),
                Some(Err(e)) => {
                    eprintln!("--status: {e}");
                    return Ok(ExitCode::from(2));
                }
            };
            print_json(
                &client
                    .list_tasks(ListTasksRequest {
                        context_id,
                        status,
                        page_size,
                        page_token,
                        ..Default::default()
                    })
                    .await?,
            )
        }
        Command::Cancel { id } => print_json(
            &client
                .cancel_task(CancelTaskRequest {
                    id,
                    ..Default::default()
                })
                .await?,
        ),
        Command::Subscribe { id } => {
            let request = SubscribeToTaskRequest {
                id,
                ..Default::default()
            };
            print_stream(client.subscribe_to_task(request).await).await?
        }
        Command::PushCreate {
            task_id,
            url,
            id,
            webhook_token,
        } => print_json(
            &client
                .create_task_push_notification_config(TaskPushNotificationConfig {
                    task_id: Some(task_id),
                    url,
                    id,
                    token: webhook_token,
                    ..Default::default()
                })
                .await?,
        ),
        Command::PushGet { task_id, id } => print_json(
            &client
                .get_task_push_notification_config(GetTaskPushNotificationConfigRequest {
                    task_id,
                    id,
                    ..Default::default()
                })
                .await?,
        ),
        Command::PushList { task_id } => print_json(
            &client
                .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest {
                    task_id,
                    ..Default::default()
                })
                .await?,
        ),
        Command::PushDelete { task_id, id } => {
            client
                .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest {
                    task_id,
                    id,
                    ..Default::default()
                })
                .await?;
            println!("deleted");
        }
        Command::ExtendedCard => print_json(
            &client
                .get_extended_agent_card(GetExtendedAgentCardRequest::default())
                .await?,
        ),
        Command::Conformance {
            extended_card_token,
        } => {
            let options = ConformanceOptions {
                extended_card_token,
                ..ConformanceOptions::default()
            };
            let report = run_conformance(&client, &options).await;
            println!("{report}");
            if !report.all_passed() {
                return Ok(ExitCode::FAILURE);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("a2a-example-client: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("a2a-example-client: {error}");
            ExitCode::FAILURE
        }
    }
}
