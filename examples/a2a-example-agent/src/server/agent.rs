//! The example agent's logic on the server crate: an [`AgentExecutor`] that runs the plan the
//! behaviour table ([`super::behaviour`]) gives a message, step by step, through the event sink.

use a2a_server::{AgentEvent, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::errors::Error;

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
        let plan = match context.task {
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
