//! The `messageId` behaviours conformance kits drive (`tck-complete-task`, `tck-stream-001`,
//! `test-resubscribe-message-id`, …): the table of what each does ([`table`]), and
//! [`WithBehaviours`], an [`AgentExecutor`](a2a_server::AgentExecutor) an agent wraps itself with so
//! that it answers them while its own logic answers every other message:
//!
//! ```no_run
//! use std::time::Duration;
//!
//! use a2a_server::{AgentExecutor, EventSink, RequestContext, async_trait};
//! use a2a_testkit::behaviour::{Delays, WithBehaviours};
//! use a2a_protocol::errors::Error;
//!
//! struct Echo;
//!
//! #[async_trait]
//! impl AgentExecutor for Echo {
//!     async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
//!         Ok(events.reply(context.message.text()).await?)
//!     }
//! }
//!
//! let delays = Delays { resubscribe: Duration::from_secs(3), long_running: Duration::from_secs(3) };
//! let agent = WithBehaviours::new(Echo, delays);
//! # let _ = agent;
//! ```

mod executor;
pub mod table;

pub use executor::WithBehaviours;
pub use table::{Delays, Plan, Step};
