//! The example's client: the workspace's client crate, [`a2a_client`] (package `a2a-spec-client`),
//! re-exported under the names the example has always used, plus [`conformance`], a conformance
//! run of every operation through it.
//!
//! ```no_run
//! # async fn run() -> Result<(), a2a_example_agent::client::ClientError> {
//! use a2a_example_agent::client::{A2aClient, ClientConfig};
//! use a2a_types::v1::{Message, Part, SendMessageRequest, SendMessageResponse};
//!
//! let client = A2aClient::connect("http://127.0.0.1:8080", ClientConfig::default()).await?;
//! let request = SendMessageRequest {
//!     message: Message::user("m-1", [Part::text("Book a table for two")]),
//!     ..Default::default()
//! };
//! if let SendMessageResponse::Task(task) = client.send_message(request).await? {
//!     println!("task {} is {:?} (over {})", task.id, task.status.state, client.binding());
//! }
//! # Ok(())
//! # }
//! ```

pub use a2a_client::{
    A2aClient, Binding, ClientConfig, ClientError, EventStream, PROTOCOL_VERSION, choose_interface,
    resolve_card,
};

pub mod conformance;
