//! Running the agent on a message, and the task state machine every change goes through.
//!
//! A message starts the [`AgentExecutor`](crate::AgentExecutor), polled once where the request is
//! served and in a task of its own when it goes on ([`agent_run`]); its events come back through a
//! bounded queue. The first decides the answer: a message (no task is stored),
//! or a task, created `submitted` with the message in its history (or, for a message continuing a
//! task that waits for input, that task with the message added); when the events queued by then
//! already end a new task (an agent that answers at once) and the caller does not stream, the task
//! is created with them in one write, and no execution is recorded. A driver then applies each event
//! through the store's [`TaskStore::modify`](crate::TaskStore::modify):
//! refuse changes to a task that is over, change it, keep it under the next version (a database
//! store reads, then writes naming the version read, again when another writer, a cancel or another
//! replica, got there first; the in-memory store changes the task where it lies). Each applied event is
//! logged under the new version, announced on the version bus and handed to the task's webhooks (by the store's durable outbox when the server has one).

//!
//! | file | what |
//! |---|---|
//! | `agent_run` | the agent's run, polled once in place and spawned only when it goes on |
//! | `begin` | the agent started on a message, the task created or continued |
//! | `ended_at_once` | a new task the agent ended before its first write, written once |
//! | `send` | SendMessage and SendStreamingMessage on top of `begin` |
//! | `events` | the agent's events as the stream carries them, and what each does to the task |
//! | `apply` | one event applied to its task, announced, handed to webhooks |
//! | `drive` | the driver of a running execution, its lease renewed |
//! | `resume` | executions whose replica stopped, run again |
//! | `cancel` | CancelTask |

pub(crate) mod agent_run;
pub(crate) mod apply;
pub(crate) mod begin;
pub(crate) mod cancel;
pub(crate) mod drive;
pub(crate) mod ended_at_once;
pub(crate) mod events;
pub(crate) mod resume;
pub(crate) mod send;
