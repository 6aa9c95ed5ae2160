//! [`WithBehaviours`]: an agent whose messages that name a behaviour of the table follow the table,
//! step by step through the event sink; every other message goes to the agent's own logic.

use a2a_protocol::errors::Error;
use a2a_server::{AgentEvent, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::Task;

use super::table::{self, Delays, Plan, Step};

/// `agent`, answering the behaviours of the [table](super::table) too.
///
/// A new message that names a behaviour ([`table::behaviour_of`]) follows its plan; a message that
/// continues a task a behaviour started follows [`table::continue_plan`]; a task resumed after a
/// crash goes on from the state it reached. Anything else is `agent`'s.
#[derive(Clone, Copy, Debug)]
pub struct WithBehaviours<A> {
    agent: A,
    delays: Delays,
}

impl<A> WithBehaviours<A> {
    /// `agent` answering the behaviours, those that take their time taking `delays`.
    pub fn new(agent: A, delays: Delays) -> Self {
        WithBehaviours { agent, delays }
    }
}

#[async_trait]
impl<A: AgentExecutor> AgentExecutor for WithBehaviours<A> {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let plan = match &context.task {
            // Run again after a crash (at least once): the message's plan, without the status
            // steps the task has already taken, so a resumed task goes on rather than repeats.
            Some(task) if context.resumed => {
                table::plan(&context.message, self.delays).map(|plan| resumed(plan, task))
            }
            Some(task) => behaviour_started(task)
                .map(|started_by| table::continue_plan(started_by, &context.message)),
            None => table::plan(&context.message, self.delays),
        };
        match plan {
            Some(plan) => follow(plan, &events).await,
            None => self.agent.execute(context, events).await,
        }
    }
}

/// The behaviour the task's first message named, if any (the server keeps it first in the
/// history).
fn behaviour_started(task: &Task) -> Option<&'static str> {
    task.history.first().and_then(table::behaviour_of)
}

/// Takes the plan's steps through `events`, until done or canceled.
async fn follow(plan: Plan, events: &EventSink) -> Result<(), Error> {
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
