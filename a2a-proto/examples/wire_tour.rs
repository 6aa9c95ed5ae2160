//! The workspace's main job today: take A2A v1 traffic as another SDK sends it, read it into the
//! generated types, and write it back as canonical ProtoJSON and as protobuf binary, proving nothing is
//! lost on the way.
//!
//! Run it with `cargo run -p a2a-spec-proto --example wire_tour`.

use a2a_proto::v1::{SendMessageRequest, StreamResponse, Task, stream_response::Payload};

/// A `SendMessage` request with the quirks real peers send: snake_case names, `null`s, a numeric enum,
/// an unknown field, URL-safe unpadded base64, and JSON null as a Part's data.
const REQUEST: &str = r#"{
  "message": {
    "message_id": "9b2f4c1e-3d6a-4f0b-8c7e-1a5d2e9f6b40",
    "context_id": "ctx-lisbon-trip",
    "role": 1,
    "parts": [
      {"text": "Find me a hotel in Lisbon for 3 nights from 2026-04-10, under €180 a night."},
      {"raw": "_-8AAQ", "mediaType": "application/octet-stream", "filename": "loyalty-card.bin"},
      {"data": null}
    ],
    "metadata": {"client": "wayfarer-web", "party_size": 2},
    "referenceTaskIds": null,
    "kind": "message"
  },
  "configuration": {"acceptedOutputModes": ["text/plain", "application/json"], "historyLength": 0}
}"#;

/// A streamed status update whose timestamp carries an offset and whose state is a number this
/// version of the spec does not define (a newer agent's state).
const EVENT: &str = r#"{
  "statusUpdate": {
    "taskId": "task-7f3a",
    "contextId": "ctx-lisbon-trip",
    "status": {"state": 99, "timestamp": "2026-04-01T11:30:00.25+02:00"},
    "metadata": {"shortlisted": 12, "cheapest_eur": 142.5}
  }
}"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let request: SendMessageRequest = a2a_proto::json::from_str(REQUEST)?;
    show("SendMessageRequest", &request)?;

    let event: StreamResponse = a2a_proto::json::from_str(EVENT)?;
    show("StreamResponse", &event)?;
    if let Some(Payload::StatusUpdate(update)) = &event.payload {
        let state = update.status.as_ref().map_or(0, |s| s.state);
        println!(
            "unknown task state kept as {state}: a relay forwards what it does not understand\n"
        );
    }

    let bad = r#"{"id":"task-7f3a","status":{"state":"TASK_STATE_WORKING","timestamp":"10000-01-01T00:00:00Z"}}"#;
    let err = a2a_proto::json::from_str::<Task>(bad).unwrap_err();
    println!("rejected input names the field: {err}");

    let names = a2a_proto::v1::MESSAGE_NAMES;
    println!(
        "\n{} message types in lf.a2a.v1, all with JSON and binary codecs",
        names.len()
    );
    Ok(())
}

/// Prints a message as canonical ProtoJSON and as binary, and checks both read back to the same value.
fn show<M: a2a_proto::registry::ProtoMessage>(
    title: &str,
    message: &M,
) -> Result<(), Box<dyn std::error::Error>> {
    let json = a2a_proto::json::to_string_pretty(message)?;
    let binary = message.encode_to_vec();
    let from_json: M = a2a_proto::json::from_str(&json)?;
    let from_binary = M::decode(binary.as_slice())?;
    assert!(
        from_json == *message && from_binary == *message,
        "{title} did not round-trip"
    );
    println!(
        "{title} ({}) as canonical ProtoJSON:\n{json}",
        M::full_name()
    );
    println!(
        "binary: {} bytes; JSON and binary both read back to an equal message\n",
        binary.len()
    );
    Ok(())
}
