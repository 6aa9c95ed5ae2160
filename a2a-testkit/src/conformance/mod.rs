//! A conformance run: every A2A v1 operation, driven through an [`A2aClient`] against an agent that
//! follows the `messageId` behaviour table conformance kits use (`tck-complete-task`,
//! `tck-stream-001`, `test-resubscribe-message-id`, ...; the workspace's example agent and the SDK
//! reference server of `tests/interop/sdk_agent_server.py` both do), with each answer checked.
//!
//! [`run_conformance`] runs every check on one client (so on one binding) and returns a [`Report`]:
//! one line per check, passed or failed with what was wrong. It never panics and bounds each check
//! by [`ConformanceOptions::check_timeout`], so the same run serves tests, demos and load drivers.
//!
//! Push notifications are checked end to end when [`ConformanceOptions::push_delivery`] is set: the
//! run serves a webhook on 127.0.0.1 (axum), registers it with a token and `Bearer` credentials on a
//! task still working, and waits for the agent to POST the task's completion there, checking that
//! every call carries the credentials in `Authorization` (all the specification asks of the headers,
//! section 4.3.3) and that the body is a `StreamResponse` of that task.
//!
//! Expected A2A errors are checked by kind, the same on every binding:
//!
//! | case | expected |
//! |---|---|
//! | `GetTask` of an unknown id | `TaskNotFound` |
//! | `CancelTask` of an unknown id | `TaskNotFound` |
//! | `CancelTask` of a completed task | `TaskNotCancelable` |
//! | `SubscribeToTask` of a completed task | `UnsupportedOperation` |
//! | `SendMessage` continuing an unknown task | `TaskNotFound` |
//! | `GetTaskPushNotificationConfig` of an unknown task | `TaskNotFound` |
//! | `ListTasks` with a negative `pageSize` | `InvalidParams` |
//!
//! Then the MUST behaviours the official conformance kit checks beyond that table (`kit_rules`:
//! execution modes, task and context ids, ListTasks order and artifacts, idempotent push-config
//! deletes, unknown configs and subscriptions).
//!
//! Then the raw-wire checks (`wire`): the kit's and the specification's requirements of the bytes
//! on the wire that a typed client hides (error codes and details as each binding carries them, SSE
//! framing, the ProtoJSON shape of answers, `A2A-Version` handling), made with HTTP requests and gRPC
//! calls of their own.
//!
//! With [`ConformanceOptions::server_rules`], the run also checks what the specification and the
//! official conformance kit require of a server beyond that table ([`server_rules`]).
//!
//! The card decides what applies (section 3.3.4): the checks that use streaming, push
//! notifications or the extended card are made only when the card declares that capability, and
//! reported as skipped otherwise ([`requirements::capability_needed`] says which need which); for
//! each capability it does not declare, a `capability.*` check (`capabilities`) makes sure the
//! agent refuses the operations that need it.
//!
//! Each check names its level (MUST, SHOULD, MAY) and the specification section it comes from
//! ([`requirements`]); [`ConformanceOptions::level`] leaves out the checks weaker than it.

use a2a_client::A2aClient;
use a2a_protocol::errors::ErrorKind;
use a2a_types::v1::{
    GetTaskPushNotificationConfigRequest, ListTasksRequest, SubscribeToTaskRequest, TaskState,
};

mod capabilities;
mod checks;
mod helpers;
mod kit_rules;
mod push;
pub mod requirements;
mod run;
pub mod server_rules;
mod streams;
mod wire;

use checks::{
    ArtifactKind, Expect, cancel_working, card, extended_card, get_history_length, list_tasks,
    send_message_response, send_task, subscribe_running,
};
use helpers::{cancel, completed_task, expect_error, get, send, unknown_id, user_message};
use push::{push_config_crud, push_delivery};
pub use requirements::Level;
use run::Run;
pub use run::{Check, ConformanceOptions, Report};
use streams::{stream_chunked, stream_file, stream_message, stream_text};

/// Runs every check against the agent behind `client`.
pub async fn run_conformance(client: &A2aClient, options: &ConformanceOptions) -> Report {
    let mut run = Run {
        options,
        report: Report {
            binding: client.binding().to_string(),
            checks: Vec::new(),
        },
        capabilities: client.card().capabilities.clone(),
    };
    run.check("card", card(client)).await;
    capabilities::run(&mut run, client).await;

    for (name, prefix, expect) in [
        (
            "send.complete-task",
            "tck-complete-task",
            Expect::StatusText("Hello from TCK"),
        ),
        (
            "send.artifact-text",
            "tck-artifact-text",
            Expect::Artifact(ArtifactKind::Text),
        ),
        (
            "send.artifact-file",
            "tck-artifact-file",
            Expect::Artifact(ArtifactKind::File),
        ),
        (
            "send.artifact-file-url",
            "tck-artifact-file-url",
            Expect::Artifact(ArtifactKind::FileUrl),
        ),
        (
            "send.artifact-data",
            "tck-artifact-data",
            Expect::Artifact(ArtifactKind::Data),
        ),
        (
            "send.input-required",
            "tck-input-required",
            Expect::State(TaskState::InputRequired),
        ),
        (
            "send.reject-task",
            "tck-reject-task",
            Expect::StatusText("rejected"),
        ),
        (
            "send.other-text",
            "rust-client-plain",
            Expect::State(TaskState::Completed),
        ),
    ] {
        run.check(name, send_task(client, prefix, expect)).await;
    }
    run.check("send.message-response", send_message_response(client))
        .await;

    for (name, prefix, text) in [
        (
            "stream.001",
            "tck-stream-001",
            Some("Stream hello from TCK"),
        ),
        (
            "stream.003",
            "tck-stream-003",
            Some("Stream task lifecycle"),
        ),
        (
            "stream.ordering-001",
            "tck-stream-ordering-001",
            Some("Ordered output"),
        ),
        (
            "stream.artifact-text",
            "tck-stream-artifact-text",
            Some("Streamed text content"),
        ),
        ("stream.002", "tck-stream-002", None),
    ] {
        run.check(name, stream_text(client, prefix, text)).await;
    }
    run.check("stream.artifact-file", stream_file(client)).await;
    run.check("stream.artifact-chunked", stream_chunked(client))
        .await;
    run.check("stream.message-response", stream_message(client))
        .await;

    run.check("get.history-length", get_history_length(client))
        .await;
    run.check("list.context-status-paging", list_tasks(client))
        .await;
    run.check("cancel.working-task", cancel_working(client))
        .await;
    run.check("subscribe.running-task", subscribe_running(client))
        .await;
    run.check("push-config.crud", push_config_crud(client))
        .await;
    if options.push_delivery {
        run.check("push-config.delivery", push_delivery(client))
            .await;
    }
    if let Some(token) = &options.extended_card_token {
        run.check("extended-card.with-token", extended_card(client, token))
            .await;
    }

    kit_rules::run(&mut run, client).await;
    if options.wire {
        wire::run(&mut run, client).await;
    }
    if options.server_rules {
        server_rules::run(&mut run, client).await;
    }

    run.check("error.get-unknown-task", async {
        let error = client.get_task(get(&unknown_id())).await;
        expect_error(error, ErrorKind::TaskNotFound)
    })
    .await;
    run.check("error.cancel-unknown-task", async {
        let error = client.cancel_task(cancel(&unknown_id())).await;
        expect_error(error, ErrorKind::TaskNotFound)
    })
    .await;
    run.check("error.cancel-completed-task", async {
        let task = completed_task(client).await?;
        expect_error(
            client.cancel_task(cancel(&task.id)).await,
            ErrorKind::TaskNotCancelable,
        )
    })
    .await;
    run.check("error.subscribe-completed-task", async {
        let task = completed_task(client).await?;
        let request = SubscribeToTaskRequest {
            id: task.id.clone(),
            ..Default::default()
        };
        match client.subscribe_to_task(request).await {
            // The error may come at once or as the stream's first item.
            Ok(stream) => expect_error(stream.collect().await, ErrorKind::UnsupportedOperation),
            Err(error) => expect_error::<()>(Err(error), ErrorKind::UnsupportedOperation),
        }
    })
    .await;
    run.check("error.continue-unknown-task", async {
        let mut message = user_message("rust-client-continue", "more, please");
        message.task_id = Some(unknown_id());
        expect_error(
            client.send_message(send(message)).await,
            ErrorKind::TaskNotFound,
        )
    })
    .await;
    run.check("error.push-config-unknown-task", async {
        let request = GetTaskPushNotificationConfigRequest {
            task_id: unknown_id(),
            id: "any".into(),
            ..Default::default()
        };
        let error = client.get_task_push_notification_config(request).await;
        expect_error(error, ErrorKind::TaskNotFound)
    })
    .await;
    run.check("error.list-negative-page-size", async {
        let request = ListTasksRequest {
            page_size: Some(-1),
            ..Default::default()
        };
        expect_error(client.list_tasks(request).await, ErrorKind::InvalidParams)
    })
    .await;
    run.report
}
