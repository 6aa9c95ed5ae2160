//! Agents that break one rule of the specification on purpose, for `a2a conformance` to catch: the
//! server crate with the conformance behaviours on JSON-RPC and HTTP+JSON, behind a layer that
//! rewrites its answers ([`Rule`]): a JSON answer edited, or a stream served under another content
//! type.

use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderValue, Response, header};
use serde_json::{Value, json};

use a2a_server::{A2aServer, HttpPaths, ServerConfig, WebhookPolicy};
use a2a_testkit::behaviour::{Delays, WithBehaviours};
use a2a_types::v1::{AgentCard, AgentSkill};

/// How an agent breaks the rules.
#[derive(Clone, Copy)]
pub enum Rule {
    /// Each JSON answer passes through this edit (streams pass untouched).
    Json(fn(&mut Value)),
    /// Streams are labelled `application/json` instead of `text/event-stream` (§9.4.2, §11.7).
    SseAsJson,
}

/// A ListTasks answer's fields: at the top (HTTP+JSON) or under `result` (JSON-RPC).
fn list_answer(value: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    let object = value.as_object_mut()?;
    if object.contains_key("result") {
        object.get_mut("result")?.as_object_mut()
    } else {
        Some(object)
    }
}

/// Breaks §3.1.4: the final page's `nextPageToken` goes missing.
pub fn drop_next_page_token(value: &mut Value) {
    if let Some(answer) = list_answer(value) {
        answer.remove("nextPageToken");
    }
}

/// Breaks §3.1.4's ordering: the tasks come oldest first.
pub fn list_oldest_first(value: &mut Value) {
    if let Some(Value::Array(tasks)) = list_answer(value).and_then(|a| a.get_mut("tasks")) {
        tasks.reverse();
    }
}

/// Breaks §9.5: JSON-RPC errors lose their `data` (and so their `google.rpc.ErrorInfo`).
pub fn strip_jsonrpc_error_data(value: &mut Value) {
    if value.get("jsonrpc").is_some()
        && let Some(Value::Object(error)) = value.get_mut("error")
    {
        error.remove("data");
    }
}

/// Breaks §5.5's v1 shape: SendMessage answers carry v0.3's `"kind": "task"` in their task.
pub fn task_with_v0_3_kind(value: &mut Value) {
    let answer = list_answer(value);
    if let Some(Value::Object(task)) = answer.and_then(|a| a.get_mut("task")) {
        task.insert("kind".into(), json!("task"));
    }
}

/// Breaks §3.3.4: the card says `streaming: false`, yet the agent behind it streams.
pub fn card_declaring_no_streaming(value: &mut Value) {
    deny_in_card(value, "streaming");
}

/// Breaks §3.3.4: the card says `pushNotifications: false`, yet the agent takes push configs.
pub fn card_declaring_no_push(value: &mut Value) {
    deny_in_card(value, "pushNotifications");
}

/// The card (an answer with `supportedInterfaces`) declares `capability` false.
fn deny_in_card(value: &mut Value, capability: &str) {
    if value.get("supportedInterfaces").is_some()
        && let Some(Value::Object(capabilities)) = value.get_mut("capabilities")
    {
        capabilities.insert(capability.into(), json!(false));
    }
}

/// The layer's work: `rule` applied to one answer.
async fn apply(response: Response<Body>, rule: Rule) -> Response<Body> {
    match rule {
        Rule::Json(rewrite) => rewrite_json(response, rewrite).await,
        Rule::SseAsJson => {
            let (mut parts, body) = response.into_parts();
            let is_stream = parts
                .headers
                .get(header::CONTENT_TYPE)
                .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
            if is_stream {
                parts.headers.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
            }
            Response::from_parts(parts, body)
        }
    }
}

/// A JSON answer is rewritten by `rewrite`. Other answers (streams included) pass untouched.
async fn rewrite_json(response: Response<Body>, rewrite: fn(&mut Value)) -> Response<Body> {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 16 << 20).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let mut value: Value = match serde_json::from_slice(&bytes) {
        Ok(value) => value,
        Err(_) => return Response::from_parts(parts, Body::from(bytes)),
    };
    rewrite(&mut value);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(value.to_string()))
}

/// An agent that follows the conformance behaviours, on JSON-RPC and HTTP+JSON, whose JSON answers
/// pass through a rewrite that breaks a rule; serving until dropped (the server is a task of its
/// runtime).
pub struct RuleBreaker {
    _runtime: tokio::runtime::Runtime,
    pub url: String,
}

impl RuleBreaker {
    pub fn start(rule: Rule) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let url = runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let address = listener.local_addr().unwrap();
            let card = AgentCard::builder("Rule breaker", "Rewrites its answers.", "1.0.0")
                .jsonrpc(format!("http://{address}/jsonrpc"))
                .http_json(format!("http://{address}/rest"))
                .streaming(true)
                .push_notifications(true)
                .default_input_modes(["text/plain"])
                .default_output_modes(["text/plain"])
                .skill(AgentSkill {
                    id: "pages".into(),
                    name: "Pages".into(),
                    description: "Lists tasks, without the token of the next page.".into(),
                    tags: vec!["conformance".into()],
                    ..Default::default()
                })
                .build()
                .expect("a valid card");
            let mut config = ServerConfig::default();
            config.webhook_policy = WebhookPolicy::local_development();
            let delays = Delays {
                resubscribe: Duration::from_millis(500),
                long_running: Duration::from_millis(500),
            };
            let agent = WithBehaviours::new(Plain, delays);
            let server = A2aServer::builder(card, agent).config(config).build();
            let router =
                server
                    .router(&HttpPaths::default())
                    .layer(axum::middleware::map_response(
                        move |response: Response<Body>| apply(response, rule),
                    ));
            tokio::spawn(async move {
                let _ = axum::serve(listener, router).await;
            });
            format!("http://{address}")
        });
        RuleBreaker {
            _runtime: runtime,
            url,
        }
    }
}

/// The agent's answer to any message the behaviours do not name: completed.
struct Plain;

#[a2a_server::async_trait]
impl a2a_server::AgentExecutor for Plain {
    async fn execute(
        &self,
        _context: a2a_server::RequestContext,
        events: a2a_server::EventSink,
    ) -> Result<(), a2a_protocol::errors::Error> {
        Ok(events.complete_with_text("done").await?)
    }
}
