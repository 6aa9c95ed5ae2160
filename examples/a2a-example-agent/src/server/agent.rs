//! The example agent's own logic on the server crate: an [`AgentExecutor`] that answers each
//! message with what the travel skills ([`super::skills`]) make of it, as a completed task.

use a2a_protocol::errors::Error;
use a2a_server::{AgentEvent, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::{Artifact, TaskState};

use super::skills;

/// The travel agent: working, one artifact `answer` (named after the skill that answered), completed.
#[derive(Clone, Copy, Debug)]
pub struct TravelAgent;

#[async_trait]
impl AgentExecutor for TravelAgent {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.status(TaskState::Working, None).await?;
        let (skill, parts) = skills::answer(&context.message.text());
        let mut answer = Artifact::new("answer", parts);
        answer.name = skill.map(str::to_owned);
        let artifact = AgentEvent::Artifact {
            artifact: answer,
            append: false,
            last_chunk: true,
        };
        events.send(artifact).await?;
        events.status(TaskState::Completed, None).await?;
        Ok(())
    }
}
