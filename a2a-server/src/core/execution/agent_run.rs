//! [`AgentRun`]: the agent's run of one execution, first polled where the request is served and
//! given a Tokio task of its own only when it does not end in that first poll.
//!
//! An agent that answers at once (sends its events and returns) then costs no spawned task, and
//! none of the wake-ups of another worker thread a spawned task brings. (Measured with `wrk` on a
//! 2-core machine: a request cost a third more CPU on two worker threads than on one, and not
//! spawning the agent took about a tenth off.) An agent that waits for anything goes on in its
//! own task from where the first poll left it, exactly as if it had been spawned at once. A panic
//! in the first poll is caught and ends the run as a panic in the spawned task does: "the agent
//! failed".

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::task::Poll;

use a2a_protocol::errors::{Error, ErrorKind};
use tokio::sync::mpsc;
use tokio::task::{JoinError, JoinHandle};

use crate::executor::{AgentEvent, AgentExecutor, EventSink, RequestContext};

/// How the agent's run ended: its own error, or "the agent failed" when it panicked.
pub(crate) type Outcome = Result<(), Error>;

/// The agent's run of one execution.
pub(crate) enum AgentRun {
    /// It ended (events it sent before are still queued for the driver).
    Ended(Outcome),
    /// It goes on in a task of its own.
    Running(JoinHandle<Outcome>),
}

impl AgentRun {
    /// Starts `executor` on `context`: polls it once here, and spawns the rest when it is not
    /// done.
    pub(crate) async fn start(
        executor: Arc<dyn AgentExecutor>,
        context: RequestContext,
        sink: EventSink,
    ) -> AgentRun {
        let mut run = Box::pin(async move { executor.execute(context, sink).await });
        let first_poll = std::future::poll_fn(|cx| {
            Poll::Ready(catch_unwind(AssertUnwindSafe(|| run.as_mut().poll(cx))))
        })
        .await;
        match first_poll {
            Ok(Poll::Ready(outcome)) => AgentRun::Ended(outcome),
            // Polled once, then moved whole into its task: it is boxed, so it stays where the
            // first poll pinned it.
            Ok(Poll::Pending) => AgentRun::Running(tokio::spawn(run)),
            // The future panicked: it is dropped, never polled again.
            Err(_) => AgentRun::Ended(Err(failed())),
        }
    }

    /// The agent's first event; or the request's error when it ends, or drops its sink, without
    /// one (its own error, when it returned one).
    pub(crate) async fn first_event(
        &mut self,
        events: &mut mpsc::Receiver<AgentEvent>,
    ) -> Result<AgentEvent, Error> {
        if let AgentRun::Running(handle) = self {
            let joined = tokio::select! {
                event = events.recv() => return event.ok_or_else(answered_nothing),
                joined = handle => joined,
            };
            *self = AgentRun::Ended(outcome_of(joined));
        }
        // It ended; it may have sent events before returning: they are still queued.
        if let Ok(event) = events.try_recv() {
            return Ok(event);
        }
        match std::mem::replace(self, AgentRun::Ended(Ok(()))) {
            AgentRun::Ended(Err(error)) => Err(error),
            _ => Err(answered_nothing()),
        }
    }

    /// Whether it ended without an error.
    pub(crate) fn ended_well(&self) -> bool {
        matches!(self, AgentRun::Ended(Ok(())))
    }

    /// How it ended, once it has.
    pub(crate) async fn end(self) -> Outcome {
        match self {
            AgentRun::Ended(outcome) => outcome,
            AgentRun::Running(handle) => outcome_of(handle.await),
        }
    }
}

/// A spawned run's outcome, a panic as "the agent failed".
fn outcome_of(joined: Result<Outcome, JoinError>) -> Outcome {
    joined.unwrap_or_else(|_| Err(failed()))
}

fn failed() -> Error {
    Error::bare(ErrorKind::Internal, "the agent failed")
}

fn answered_nothing() -> Error {
    Error::bare(ErrorKind::Internal, "the agent answered nothing")
}
