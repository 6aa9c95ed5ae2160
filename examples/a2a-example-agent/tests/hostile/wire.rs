//! The three bindings an attack is made over: the workspace's client held to one of them, calls
//! made from ProtoJSON params, and the A2A error an attack must be refused with.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_protocol::errors::Error;
use a2a_protocol::operations::{MethodParams, MethodResult, Operation};
use serde_json::{Value, json};

/// Every call of the suite ends within this.
pub const LIMIT: Duration = Duration::from_secs(60);

/// The bindings every request-level attack runs on.
pub const BINDINGS: [Binding; 3] = [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc];

/// A client of the agent at `url` on `binding` only, with `bearer` when given.
pub async fn client(url: &str, binding: Binding, bearer: Option<&str>) -> A2aClient {
    let config = ClientConfig {
        bearer_token: bearer.map(str::to_owned),
        timeout: LIMIT,
        ..ClientConfig::default()
    }
    .only(binding);
    tokio::time::timeout(LIMIT, A2aClient::connect(url, config))
        .await
        .expect("the card in time")
        .unwrap_or_else(|e| panic!("connecting on {binding:?}: {e}"))
}

/// `operation` with these ProtoJSON params.
pub async fn call(
    client: &A2aClient,
    operation: Operation,
    params: Value,
) -> Result<MethodResult, ClientError> {
    let params = MethodParams::from_json(operation, params).expect("well-formed params");
    tokio::time::timeout(LIMIT, client.call(params))
        .await
        .expect("answered in time")
}

/// The A2A error a refused call answered with.
pub fn refusal(outcome: Result<MethodResult, ClientError>, what: &str) -> Error {
    match outcome {
        Err(ClientError::A2a { error, .. }) => error,
        Err(other) => panic!("{what}: not an A2A error: {other}"),
        Ok(result) => panic!("{what}: accepted: {result:?}"),
    }
}

/// A user message with this id and text.
pub fn message(id: &str, text: &str) -> Value {
    json!({"messageId": id, "role": "ROLE_USER", "parts": [{"text": text}]})
}
