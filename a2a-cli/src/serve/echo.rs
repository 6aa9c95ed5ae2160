//! `a2a serve --echo`: each message answered with a completed task whose one artifact, `echo`,
//! holds the message's parts as they came (text, files, data).

use a2a_protocol::errors::Error;
use a2a_server::{AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::Artifact;

/// The echo agent.
pub struct Echo;

#[async_trait]
impl AgentExecutor for Echo {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.working().await?;
        let echoed = Artifact::new("echo", context.message.parts.clone()).name("echo");
        events.artifact(echoed).await?;
        events.complete().await?;
        Ok(())
    }
}
