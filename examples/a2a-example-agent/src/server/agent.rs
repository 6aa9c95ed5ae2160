//! The example agent's own logic on the server crate: an [`AgentExecutor`] that answers each
//! message with what the travel skills ([`super::skills`]) make of it, as a completed task. A
//! booking asked for in words by a caller the booking skill's security requirements refuse is not
//! made: the task waits for authentication (`TASK_STATE_AUTH_REQUIRED`), saying what is missing.

use a2a_protocol::errors::Error;
use a2a_server::{AgentEvent, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::{Artifact, TaskState};

use super::skills;

/// The card's id of the booking skill.
const BOOKING_SKILL: &str = "book-room";

/// The travel agent: working, one artifact `answer` (named after the skill that answered), completed;
/// a booking by a caller without the booking skill's requirements waits for authentication instead.
#[derive(Clone, Copy, Debug)]
pub struct TravelAgent;

#[async_trait]
impl AgentExecutor for TravelAgent {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.status(TaskState::Working, None).await?;
        let (skill, parts) = skills::answer(&context.message.text());
        // A booking asked for in words, not named in the message's metadata, was not checked by
        // the server: the agent checks the skill's requirements itself before booking.
        if skill == Some("book_room")
            && let Err(refusal) = context.check_skill(BOOKING_SKILL)
        {
            events.require_auth(refusal.to_string()).await?;
            return Ok(());
        }
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
