//! Testing tools for A2A agents, built on this workspace's client and server crates:
//!
//! - [`conformance`]: a conformance run of every A2A v1 operation through an [`a2a_client::A2aClient`],
//!   each answer checked, returned as a [`conformance::Report`];
//! - [`load`]: a load test of an agent binary side by side with the official SDKs' servers, with
//!   throughput, errors, lost tasks and memory;
//! - [`behaviour`]: the `messageId` behaviours conformance kits drive (`tck-complete-task`,
//!   `tck-stream-001`, …), as an [`a2a_server::AgentExecutor`] an agent wraps itself with
//!   ([`behaviour::WithBehaviours`]);
//! - [`stores`]: `--store memory|sqlite:PATH|postgres://…`, where a server keeps its tasks;
//! - [`process`]: server processes started by the load test and by tests, killed by pid on drop.
//!
//! Checking an agent over one binding:
//!
//! ```no_run
//! # async fn run() -> Result<(), a2a_client::ClientError> {
//! use a2a_client::{A2aClient, ClientConfig};
//! use a2a_testkit::conformance::{ConformanceOptions, run_conformance};
//!
//! let client = A2aClient::connect("http://127.0.0.1:8080", ClientConfig::default()).await?;
//! let report = run_conformance(&client, &ConformanceOptions::default()).await;
//! println!("{report}");
//! assert!(report.all_passed());
//! # Ok(())
//! # }
//! ```
//!
//! On the command line, the `a2a` command (package `a2a-spec-cli`) runs the conformance run on every
//! binding an agent declares (`a2a conformance URL`) and the load test's batches against any agent
//! (`a2a load URL`).

pub mod behaviour;
pub mod conformance;
pub mod load;
pub mod process;
pub mod stores;
