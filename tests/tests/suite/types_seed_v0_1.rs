//! Seed 004 (`../shared/seeds/004_9f419caf4310f08c.txt`), the sample traffic of A2A v0.1's first
//! public release, read with `a2a_compat::v0_1`: every JSON sample is taken from the file at test time,
//! typed by where it stands (the card, a request by its `method`, a response by the request it
//! answers, each event of an SSE stream), decoded as that v0.1 type and written back.
//!
//! Every sample comes back exactly, except where the seed departs from its own schema; those are
//! listed in [`SEED_DEPARTURES`], each with what happens, and the v0.1 JSON Schema is asked whether it
//! accepts each sample, so the table cannot claim a departure the schema does not see (or miss one).
//! Skipped with one line where `../shared` is absent; a failure under `CI=true`.

use a2a_compat::v0_1;
use a2a_types::registry::{SchemaType, SchemaTypeVisitor};
use serde_json::Value;

/// One JSON document of the seed and the v0.1 type it is.
pub(crate) struct Sample {
    /// `Section / label`, with `#n` for the n-th event of a stream.
    pub(crate) name: String,
    pub(crate) schema_type: &'static str,
    pub(crate) document: Value,
}

/// The seed's samples, or `None` (skipped, or failed under CI) where the seed is absent.
pub(crate) fn seed_samples(test: &str) -> Option<Vec<Sample>> {
    let path = a2a_tests::shared_file(test, "seeds/004_9f419caf4310f08c.txt")?;
    let text = std::fs::read_to_string(path).expect("the seed is text");
    Some(samples_of(&text))
}

fn samples_of(text: &str) -> Vec<Sample> {
    let mut samples = Vec::new();
    let (mut section, mut label) = (String::new(), String::new());
    let mut last_method: Option<String> = None;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if let Some(heading) = trimmed.strip_prefix('#') {
            section = heading.trim_start_matches('#').trim().to_owned();
        } else if let Some(tab) = trimmed.strip_prefix("=== ") {
            label = tab.trim_matches('"').to_owned();
        } else if trimmed == "```json" {
            // The seed indents its JSON with no-break spaces (U+00A0), which JSON does not count as
            // whitespace: layout, not content, so they become spaces.
            let block: Vec<String> = lines
                .by_ref()
                .take_while(|l| l.trim() != "```")
                .map(|l| {
                    let content = l.trim_start_matches([' ', '\u{a0}']);
                    format!("{}{content}", " ".repeat(l.len() - content.len()))
                })
                .collect();
            let documents = split_stream(&block.join("\n"));
            let streamed = documents.len() > 1;
            for (index, document) in documents.into_iter().enumerate() {
                let document: Value = serde_json::from_str(&document)
                    .unwrap_or_else(|e| panic!("{section} / {label}: not JSON: {e}"));
                let schema_type = if label.contains("Agent Card") {
                    "AgentCard"
                } else if label.starts_with("Request") {
                    let method = document["method"].as_str().expect("a request has a method");
                    last_method = Some(method.to_owned());
                    request_type(method)
                } else {
                    response_type(
                        last_method
                            .as_deref()
                            .expect("a response follows a request"),
                    )
                };
                let name = if streamed {
                    format!("{section} / {label} #{}", index + 1)
                } else {
                    format!("{section} / {label}")
                };
                samples.push(Sample {
                    name,
                    schema_type,
                    document,
                });
            }
        }
    }
    samples
}

/// A block's documents: itself, or each `data:` event of an SSE stream.
fn split_stream(block: &str) -> Vec<String> {
    if !block.trim_start().starts_with("data:") {
        return vec![block.to_owned()];
    }
    block
        .split("data:")
        .map(str::trim)
        .filter(|event| !event.is_empty())
        .map(str::to_owned)
        .collect()
}

fn request_type(method: &str) -> &'static str {
    match method {
        "tasks/send" => "SendTaskRequest",
        "tasks/sendSubscribe" => "SendTaskStreamingRequest",
        "tasks/get" => "GetTaskRequest",
        "tasks/cancel" => "CancelTaskRequest",
        "tasks/pushNotification/set" => "SetTaskPushNotificationRequest",
        "tasks/pushNotification/get" => "GetTaskPushNotificationRequest",
        "tasks/resubscribe" => "TaskResubscriptionRequest",
        other => panic!("the seed calls a method v0.1 does not have: {other}"),
    }
}

fn response_type(method: &str) -> &'static str {
    match method {
        "tasks/send" => "SendTaskResponse",
        "tasks/get" => "GetTaskResponse",
        "tasks/cancel" => "CancelTaskResponse",
        "tasks/pushNotification/set" => "SetTaskPushNotificationResponse",
        "tasks/pushNotification/get" => "GetTaskPushNotificationResponse",
        "tasks/sendSubscribe" | "tasks/resubscribe" => "SendTaskStreamingResponse",
        other => panic!("no response type for {other}"),
    }
}

/// Reads a document as one v0.1 type and writes it back.
struct ReadAndWrite(Value);

impl SchemaTypeVisitor for ReadAndWrite {
    type Output = Result<Value, String>;
    fn visit<T: SchemaType>(self) -> Result<Value, String> {
        let typed: T = a2a_types::json::from_value(self.0).map_err(|e| e.to_string())?;
        Ok(serde_json::to_value(&typed).expect("a v0.1 type writes JSON"))
    }
}

/// What happens to a sample the seed gets wrong.
enum Departure {
    /// The v0.1 schema rejects it, and so does its type, with an error containing this text.
    Rejected(&'static str),
    /// The schema accepts it; written back, it differs in exactly these places (`a2a_tests::
    /// json_differences` of the written document against the sample).
    WrittenBack(&'static [&'static str]),
    /// The schema rejects it, but only for a string's `format`, which the type keeps as text: it is
    /// read and written back unchanged.
    KeptAsSent,
}

/// Where seed 004 departs from the v0.1 JSON Schema (release 0.1.0), sample by sample.
const SEED_DEPARTURES: &[(&str, Departure)] = &[
    // `schemes` is a list of strings in the schema; the sample card gives one string.
    (
        "Sample Agent Card / Agent Card",
        Departure::Rejected(
            "at `authentication.schemes`: invalid type: string \"OAuth2\", expected a sequence",
        ),
    ),
    // A v0.1 file's content is `bytes` or `uri`; the samples write `data`, which v0.1 does not know
    // (the schema allows unknown members, so it accepts them; the type drops it). Both streaming
    // requests also leave out `jsonrpc` and `id`: `jsonrpc` is always written back.
    (
        "Streaming Support / Request",
        Departure::WrittenBack(&[
            ".jsonrpc: only in ours (\"2.0\")",
            ".params.message.parts[1].file.data: missing in ours (reference: \"<base64-encoded-content>\")",
        ]),
    ),
    (
        "Resubscribe to Task / Request",
        Departure::WrittenBack(&[".jsonrpc: only in ours (\"2.0\")"]),
    ),
    (
        "Non-textual Media / Request (Sequence 1 - Send File)",
        Departure::WrittenBack(&[
            ".params.message.parts[1].file.data: missing in ours (reference: \"<base64-encoded-content>\")",
        ]),
    ),
    // The last two events of the stream give the task id as the number 1 (the JSON-RPC id's value);
    // a task id is a string.
    // Status timestamps are local times without an offset (`2025-04-02T16:59:25.331844`), which
    // the schema's `date-time` format refuses; the types keep a timestamp as the text it was sent as
    // (the bridge reads these as UTC).
    (
        "Streaming Support / Response (SSE Stream) #1",
        Departure::KeptAsSent,
    ),
    (
        "Resubscribe to Task / Response (SSE Stream) #3",
        Departure::KeptAsSent,
    ),
    (
        "Structured Output / Response (Providing JSON Output)",
        Departure::KeptAsSent,
    ),
    (
        "Streaming Support / Response (SSE Stream) #4",
        Departure::Rejected("invalid type: integer `1`, expected a string"),
    ),
    (
        "Streaming Support / Response (SSE Stream) #5",
        Departure::Rejected("invalid type: integer `1`, expected a string"),
    ),
];

/// The v0.1 schema's verdict on `document` as `schema_type`.
fn schema_accepts(schema: &Value, schema_type: &str, document: &Value) -> bool {
    let mut root = schema.clone();
    root["$ref"] = format!("#/$defs/{schema_type}").into();
    jsonschema::draft7::new(&root)
        .expect("the v0.1 schema compiles")
        .is_valid(document)
}

#[test]
fn every_seed_sample_reads_as_its_v0_1_type_and_writes_back_unchanged() {
    let Some(samples) =
        seed_samples("every_seed_sample_reads_as_its_v0_1_type_and_writes_back_unchanged")
    else {
        return;
    };
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(a2a_tests::workspace_root().join("spec/v0_1/a2a.json")).unwrap(),
    )
    .unwrap();
    assert!(samples.len() >= 25, "only {} samples found", samples.len());
    let mut failures = Vec::new();
    for sample in &samples {
        let departure = SEED_DEPARTURES
            .iter()
            .find(|(name, _)| *name == sample.name)
            .map(|(_, departure)| departure);
        let read =
            v0_1::visit_schema_type(sample.schema_type, ReadAndWrite(sample.document.clone()))
                .expect("a v0.1 type");
        let accepted = schema_accepts(&schema, sample.schema_type, &sample.document);
        let outcome = match (departure, read) {
            (None, Ok(written)) => {
                let differences = a2a_tests::json_differences(&written, &sample.document);
                (accepted && differences.is_empty())
                    .then_some(())
                    .ok_or(format!(
                        "schema accepts: {accepted}; written back, it differs: {differences:?}"
                    ))
            }
            (Some(Departure::Rejected(expected)), Err(error)) => (!accepted
                && error.contains(expected))
            .then_some(())
            .ok_or(format!(
                "schema accepts: {accepted}; rejected with `{error}`, expected `{expected}`"
            )),
            (Some(Departure::WrittenBack(expected)), Ok(written)) => {
                let mut differences = a2a_tests::json_differences(&written, &sample.document);
                differences.sort();
                let mut expected = expected.to_vec();
                expected.sort();
                (accepted && differences == expected).then_some(()).ok_or(format!(
                    "schema accepts: {accepted}; differences {differences:?}, expected {expected:?}"
                ))
            }
            (Some(Departure::KeptAsSent), Ok(written)) => {
                let differences = a2a_tests::json_differences(&written, &sample.document);
                (!accepted && differences.is_empty())
                    .then_some(())
                    .ok_or(format!(
                        "schema accepts: {accepted}; written back, it differs: {differences:?}"
                    ))
            }
            (_, Err(error)) => Err(format!("schema accepts: {accepted}; rejected: {error}")),
            (Some(Departure::Rejected(expected)), Ok(written)) => Err(format!(
                "expected a rejection containing `{expected}`, read and wrote {written}"
            )),
        };
        if let Err(why) = outcome {
            failures.push(format!("{} ({}): {why}", sample.name, sample.schema_type));
        }
    }
    for (name, _) in SEED_DEPARTURES {
        if !samples.iter().any(|s| s.name == *name) {
            failures.push(format!("{name}: no such sample in the seed"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} samples:\n{}",
        failures.len(),
        samples.len(),
        failures.join("\n")
    );
}
