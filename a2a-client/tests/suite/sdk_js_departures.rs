//! The checks of `sdk_js` whose answer depends on the version or binding, or where the JS SDK 1.3.0
//! departs from the specification: each asserts what the SDK does, naming the section it departs
//! from, so the check fails if the SDK changes.

use a2a_client::{A2aClient, Binding, ClientError};
use a2a_protocol::service::ProtocolVersion;
use a2a_types::v1::{
    AgentCard, DeleteTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksResponse, Part, StreamResponse, Task,
    TaskPushNotificationConfig,
};

use crate::sdk_js::{Checks, Outcome, ensure, send, task_of};

fn v0_3(client: &A2aClient) -> bool {
    client.protocol_version() == ProtocolVersion::V0_3
}

/// The file part's name: over v0.3 HTTP+JSON and gRPC the SDK drops it. Its v0.3 `FilePart` has no
/// field 4, `name`, which the v0.3 `a2a.proto` gives it (`string name = 4`): the SDK's protobuf
/// messages, and so its ProtoJSON, carry only the file and `mimeType`.
pub fn file_name(client: &A2aClient, part: &Part) -> Outcome {
    let dropped = v0_3(client) && client.binding() != Binding::JsonRpc;
    let expected = if dropped { None } else { Some("output.txt") };
    ensure(part.filename.as_deref() == expected, || {
        format!("expected the name {expected:?}: {part:?}")
    })
}

/// What the agent's executor received of the file part the client sent ("Sent file content"). Over
/// v0.3 HTTP+JSON and gRPC the client writes `fileWithBytes` as the Python SDK 0.3 reads it, the
/// UTF-8 of the base64 text, where the SDK takes the bytes as the content itself (the v0.3
/// `a2a.proto`'s `bytes file_with_bytes`): its executor receives the base64 text. Which habit a v0.3
/// peer has cannot be told from its card, so the client keeps the Python one (the SDKs deployed
/// with v0.3 are mostly Python) and this check holds the loss.
pub fn file_received(client: &A2aClient, text: &str) -> Outcome {
    let as_base64_text = v0_3(client) && client.binding() != Binding::JsonRpc;
    let expected = if as_base64_text {
        "received: U2VudCBmaWxlIGNvbnRlbnQ="
    } else {
        "received: Sent file content"
    };
    ensure(text == expected, || {
        format!("expected {expected:?}, got {text:?}")
    })
}

/// GetTask of a task of two turns, in full and with `historyLength` 1: the full history holds both
/// user messages and the agent's question, the short one only the last message. Over v0.3 gRPC
/// the SDK reads a request without `historyLength` as a request for none: the v0.3 `a2a.proto`'s
/// `GetTaskRequest.history_length` has no presence, so its 0 is also the unset value, which the
/// JSON-RPC form's optional `TaskQueryParams.historyLength` leaves meaning "no limit"; the SDK
/// applies 0 as "no messages" (its v1 rule for a set 0) and answers with an empty history.
pub fn history(client: &A2aClient, full: &Task, one: &Task) -> Outcome {
    if v0_3(client) && client.binding() == Binding::Grpc {
        ensure(full.history.is_empty(), || {
            format!("the SDK now answers a history without historyLength: {full:?}")
        })?;
    } else {
        ensure(full.history.len() >= 2, || format!("{full:?}"))?;
    }
    ensure(one.history.len() == 1, || {
        format!("historyLength 1 gave {:?}", one.history)
    })?;
    let last = full.history.last().map(|m| &m.message_id);
    ensure(
        last.is_none() || one.history.last().map(|m| &m.message_id) == last,
        || {
            format!(
                "historyLength 1 gave {:?}, not the last of {:?}",
                one.history, full.history
            )
        },
    )
}

/// The streamed artifact's chunks as (text, append, lastChunk): three, appended after the first,
/// the last one marked.
pub fn stream_chunks(
    _client: &A2aClient,
    chunks: &[(String, Option<bool>, Option<bool>)],
) -> Outcome {
    let texts: Vec<&str> = chunks.iter().map(|(t, _, _)| t.as_str()).collect();
    ensure(texts == ["chunk-1 ", "chunk-2 ", "chunk-3"], || {
        format!("{chunks:?}")
    })?;
    let appends: Vec<bool> = chunks.iter().map(|(_, a, _)| a.unwrap_or(false)).collect();
    let lasts: Vec<bool> = chunks.iter().map(|(_, _, l)| l.unwrap_or(false)).collect();
    ensure(
        appends == [false, true, true] && lasts == [false, false, true],
        || format!("{chunks:?}"),
    )
}

/// §3.1.6: the first event of a subscription is the task as it stands.
pub fn subscribe_first_event(
    _client: &A2aClient,
    events: &[StreamResponse],
    task_id: &str,
) -> Outcome {
    ensure(
        matches!(events.first(), Some(StreamResponse::Task(t)) if t.id == task_id),
        || format!("the first event is not the task: {events:?}"),
    )
}

/// ListTasks of one context holding `count` tasks; v0.3 has no ListTasks, which the client refuses
/// by name before sending anything.
pub fn list(
    client: &A2aClient,
    listed: Result<ListTasksResponse, ClientError>,
    count: usize,
) -> Outcome {
    if v0_3(client) {
        return ensure(
            matches!(listed, Err(ClientError::NotConvertible { .. })),
            || format!("{listed:?}"),
        );
    }
    let listed = listed.map_err(|e| e.to_string())?;
    ensure(listed.tasks.len() == count, || format!("{listed:?}"))
}

/// The extended card, asked with the bearer token: one more skill than the public card.
pub fn extended_card(client: &A2aClient, extended: Result<AgentCard, ClientError>) -> Outcome {
    let extended = extended.map_err(|e| e.to_string())?;
    ensure(
        extended.skills.iter().any(|s| s.id == "vip-lounge")
            && !client.card().skills.iter().any(|s| s.id == "vip-lounge"),
        || format!("{extended:?}"),
    )
}

fn config(task_id: &str, id: &str) -> TaskPushNotificationConfig {
    serde_json::from_value(serde_json::json!({
        "taskId": task_id, "id": id, "url": "http://127.0.0.1:9/hook", "token": "tok"
    }))
    .expect("a config")
}

/// Create, get, list and delete of a push config on a completed task.
pub async fn push_config_checks(client: &A2aClient, checks: &mut Checks) {
    let task = match task_of(client, send("hello")).await {
        Ok(task) => task,
        Err(problem) => {
            checks.outcomes.push(("push-config.crud", Err(problem)));
            return;
        }
    };
    checks
        .run("push-config.crud", async {
            let created = client
                .create_task_push_notification_config(config(&task.id, "cfg-1"))
                .await
                .map_err(|e| format!("create: {e}"))?;
            ensure(created.id.as_deref() == Some("cfg-1"), || {
                format!("{created:?}")
            })?;
            let fetched = client
                .get_task_push_notification_config(GetTaskPushNotificationConfigRequest {
                    task_id: task.id.clone(),
                    id: "cfg-1".into(),
                    ..Default::default()
                })
                .await
                .map_err(|e| format!("get: {e}"))?;
            ensure(
                fetched.token.as_deref() == Some("tok") && fetched.url == "http://127.0.0.1:9/hook",
                || format!("{fetched:?}"),
            )?;
            let list = || async {
                client
                    .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest {
                        task_id: task.id.clone(),
                        ..Default::default()
                    })
                    .await
                    .map(|listed| listed.configs.len())
                    .map_err(|e| format!("list: {e}"))
            };
            ensure(list().await? == 1, || "listed not one".to_owned())?;
            client
                .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest {
                    task_id: task.id.clone(),
                    id: "cfg-1".into(),
                    ..Default::default()
                })
                .await
                .map_err(|e| format!("delete: {e}"))?;
            ensure(list().await? == 0, || "listed some after delete".to_owned())
        })
        .await;
    checks
        .run("error.push-config-unknown-task", async {
            let result = client
                .get_task_push_notification_config(GetTaskPushNotificationConfigRequest {
                    task_id: "no-such-task".into(),
                    id: "cfg-1".into(),
                    ..Default::default()
                })
                .await;
            crate::sdk_js::expect_kind(result, a2a_protocol::errors::ErrorKind::TaskNotFound)
        })
        .await;
}

/// §4.5.1: a v1 card's security scheme is an object with one member named by the oneof's field
/// (`httpAuthSecurityScheme`). The SDK's v1 card handler writes the card as it holds it in memory
/// (`JSON.stringify` of its generated types), so the scheme comes out as
/// `{"scheme": {"$case": "httpAuthSecurityScheme", "value": {...}}}`, which the client refuses
/// naming the field. Its v0.3 card (asked without `A2A-Version`) writes the scheme right.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_js_sdk_writes_a_v1_cards_security_schemes_in_its_own_form() {
    if !crate::js::available("the JS SDK card's security schemes") {
        return;
    }
    let server = crate::js::JsServer::start(&["--security-scheme"]);
    let card_url = format!("{}/.well-known/agent-card.json", server.url());
    let http = reqwest::Client::new();
    let fetch = |version: Option<&'static str>| {
        let mut request = http.get(&card_url);
        if let Some(version) = version {
            request = request.header("A2A-Version", version);
        }
        async move {
            let response = request.send().await.expect("the card answers");
            let text = response.text().await.expect("a body");
            serde_json::from_str::<serde_json::Value>(&text).expect("JSON")
        }
    };
    let v1 = fetch(Some("1.0")).await;
    let scheme = &v1["securitySchemes"]["bearer"];
    assert_eq!(
        scheme["scheme"]["$case"], "httpAuthSecurityScheme",
        "the SDK now writes the scheme otherwise: {scheme}"
    );
    assert_eq!(scheme["scheme"]["value"]["scheme"], "bearer", "{scheme}");
    assert!(scheme.get("httpAuthSecurityScheme").is_none(), "{scheme}");
    let v0_3 = fetch(None).await;
    assert_eq!(
        v0_3["securitySchemes"]["bearer"],
        serde_json::json!({"type": "http", "scheme": "bearer"}),
        "{v0_3}"
    );
    let refused = A2aClient::connect(&server.url(), a2a_client::ClientConfig::default())
        .await
        .expect_err("the v1 card is refused");
    assert!(
        refused.to_string().contains("securitySchemes.bearer"),
        "{refused}"
    );
}
