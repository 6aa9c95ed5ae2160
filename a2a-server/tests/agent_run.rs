//! Where the agent runs: an agent that answers at once runs in the caller's own task (no task is
//! spawned for it), one that waits goes on in a task of its own, and a panic or an error, before
//! or after the first event, ends the request or the task as it always did. Through
//! `A2aServer::call`, every wait bounded.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_server::{
    A2aServer, AgentExecutor, CallContext, Caller, EventSink, Reply, RequestContext, async_trait,
};
use a2a_types::v1::{Message, Part, SendMessageRequest, SendMessageResponse, Task, TaskState};
use tokio::task::Id;

const LIMIT: Duration = Duration::from_secs(20);

/// Follows the message's text: `at once` completes at once, `after a pause` completes after
/// 20 ms, `panic first` panics before any event, `panic after working` panics 20 ms after its
/// first event, `refuse` returns its own error before any event. Records the Tokio task it ran in.
#[derive(Clone, Default)]
struct ScriptedAgent {
    ran_in: Arc<Mutex<Vec<Option<Id>>>>,
}

#[async_trait]
impl AgentExecutor for ScriptedAgent {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let record = || self.ran_in.lock().unwrap().push(tokio::task::try_id());
        record();
        match context.message.text().as_str() {
            "at once" => {}
            "after a pause" => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                record();
            }
            "panic first" => panic!("the scripted agent panics before its first event"),
            "panic after working" => {
                events.working().await?;
                tokio::time::sleep(Duration::from_millis(20)).await;
                panic!("the scripted agent panics after its first event");
            }
            "refuse" => {
                return Err(Error::with_message(
                    ErrorKind::InvalidParams,
                    "the scripted agent refuses",
                ));
            }
            other => panic!("no script for {other:?}"),
        }
        events.complete_with_text("done").await?;
        Ok(())
    }
}

fn server(agent: ScriptedAgent) -> A2aServer {
    let card = common::card(
        "Scripted",
        "Follows a script.",
        "Follows the test's script.",
        false,
    );
    A2aServer::builder(card, agent).build()
}

/// SendMessage of `text`, awaited in a task of its own; the answer and that task's id.
async fn send(server: &A2aServer, text: &str) -> (Result<Task, Error>, Id) {
    let server = server.clone();
    let request = SendMessageRequest {
        message: Message::user(format!("m-{text}"), [Part::text(text)]),
        ..Default::default()
    };
    let caller = tokio::spawn(async move {
        let context = CallContext::new(Caller::anonymous(), "test");
        let params = MethodParams::SendMessage(request);
        let answer = match server.call(params, &context).await {
            Ok(Reply::Unary(MethodResult::SendMessage(SendMessageResponse::Task(task)))) => {
                Ok(task)
            }
            Ok(_) => panic!("not a task"),
            Err(error) => Err(error),
        };
        (answer, tokio::task::id())
    });
    tokio::time::timeout(LIMIT, caller)
        .await
        .expect("in time")
        .expect("the caller's task does not panic")
}

/// SendMessage of `text`, which must be refused: the error.
async fn refused(server: &A2aServer, text: &str) -> Error {
    let (answer, _) = send(server, text).await;
    answer.expect_err("a refusal")
}

fn status_text(task: &Task) -> String {
    task.status
        .message
        .as_ref()
        .map(|m| m.text())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_that_answers_at_once_runs_in_the_callers_task() {
    let agent = ScriptedAgent::default();
    let server = server(agent.clone());
    for _ in 0..20 {
        let (task, caller) = send(&server, "at once").await;
        assert_eq!(task.unwrap().status.state, TaskState::Completed);
        let ran_in = agent.ran_in.lock().unwrap().pop().unwrap();
        assert_eq!(ran_in, Some(caller), "no task was spawned for the agent");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_that_waits_goes_on_in_a_task_of_its_own() {
    let agent = ScriptedAgent::default();
    let server = server(agent.clone());
    let (task, caller) = send(&server, "after a pause").await;
    assert_eq!(task.unwrap().status.state, TaskState::Completed);
    let ran_in = agent.ran_in.lock().unwrap().clone();
    assert_eq!(ran_in.len(), 2);
    assert_eq!(ran_in[0], Some(caller), "its first poll is the caller's");
    assert!(
        ran_in[1].is_some() && ran_in[1] != Some(caller),
        "after the pause it runs in its own task: {ran_in:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_before_the_first_event_fails_the_request_and_nothing_else() {
    let server = server(ScriptedAgent::default());
    let error = refused(&server, "panic first").await;
    assert_eq!(error.kind, ErrorKind::Internal);
    assert_eq!(error.message, "the agent failed");
    let (next, _) = send(&server, "at once").await;
    assert_eq!(next.unwrap().status.state, TaskState::Completed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_after_the_first_event_ends_the_task_failed() {
    let server = server(ScriptedAgent::default());
    let (answer, _) = send(&server, "panic after working").await;
    let task = answer.unwrap();
    assert_eq!(task.status.state, TaskState::Failed);
    assert_eq!(status_text(&task), "the agent failed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agents_own_error_before_the_first_event_is_the_answer() {
    let server = server(ScriptedAgent::default());
    let error = refused(&server, "refuse").await;
    assert_eq!(error.kind, ErrorKind::InvalidParams);
    assert_eq!(error.message, "the scripted agent refuses");
}
