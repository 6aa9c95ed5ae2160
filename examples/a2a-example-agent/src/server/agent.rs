//! The example agent's logic on the server crate: an [`AgentExecutor`] that runs the plan the
//! behaviour table ([`super::behaviour`]) gives a message, step by step, through the event sink.

use a2a_protocol::errors::Error;
use a2a_server::{AgentEvent, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::Task;

use super::behaviour::{self, Delays, Plan, Step};

/// The example agent: the behaviour table, with its delays.
#[derive(Clone, Copy, Debug)]
pub struct ExampleAgent {
    /// How long the behaviours that take their time take.
    pub delays: Delays,
}

#[async_trait]
impl AgentExecutor for ExampleAgent {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let plan = match &context.task {
            // Run again after a crash (at least once): the message's plan, without the status
            // steps the task has already taken, so a resumed task goes on rather than repeats.
            Some(task) if context.resumed => {
                resumed(behaviour::plan(&context.message, self.delays), task)
            }
            Some(_) => behaviour::continue_plan(&context.message),
            None => behaviour::plan(&context.message, self.delays),
        };
        let steps = match plan {
            Plan::Reply(text) => {
                events.reply(text).await?;
                return Ok(());
            }
            Plan::Task(steps) => steps,
        };
        for step in steps {
            match step {
                Step::Status(state, text) => events.status(state, text.as_deref()).await?,
                Step::Artifact {
                    artifact,
                    append,
                    last_chunk,
                } => {
                    events
                        .send(AgentEvent::Artifact {
                            artifact,
                            append,
                            last_chunk,
                        })
                        .await?
                }
                Step::Wait(duration) => {
                    tokio::select! {
                        _ = tokio::time::sleep(duration) => {}
                        _ = events.canceled() => return Ok(()),
                    }
                }
                Step::UntilCanceled => {
                    events.canceled().await;
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// `plan` for a task resumed in `task`'s state: its leading status steps up to and including the
/// task's current state are dropped (they were committed before the crash).
fn resumed(plan: Plan, task: &Task) -> Plan {
    let Plan::Task(steps) = plan else {
        return plan;
    };
    let reached = steps
        .iter()
        .take_while(|step| matches!(step, Step::Status(..)))
        .position(|step| matches!(step, Step::Status(state, _) if *state == task.status.state));
    Plan::Task(match reached {
        Some(at) => steps.into_iter().skip(at + 1).collect(),
        None => steps,
    })
}
