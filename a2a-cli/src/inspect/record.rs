//! The raw exchange: every request and answer the inspector's clients put on the wire, as the
//! client's observer (`a2a_client::observe`) reports them, kept (the latest [`KEPT`]) as the JSON
//! records the page lists.

use std::collections::VecDeque;
use std::sync::Mutex;

use a2a_client::observe::{Observed, Observer, Payload, Wire};
use serde_json::{Value, json};

/// How many records are kept: the page shows a session's recent calls, not a whole day's.
pub const KEPT: usize = 2_000;

/// The most of one body kept for the page.
const MAX_BODY: usize = 256 * 1024;

/// The records, oldest first, each numbered (`seq`) so the page can ask for the ones after it.
#[derive(Default)]
pub struct ExchangeLog {
    /// The last number given, and the records.
    records: Mutex<(u64, VecDeque<Value>)>,
}

impl ExchangeLog {
    /// The records numbered after `after`.
    pub fn after(&self, after: u64) -> Vec<Value> {
        let records = self.records.lock().unwrap_or_else(|p| p.into_inner());
        records
            .1
            .iter()
            .filter(|r| r["seq"].as_u64().is_some_and(|seq| seq > after))
            .cloned()
            .collect()
    }
}

impl Observer for ExchangeLog {
    fn observe(&self, observed: Observed) {
        let mut records = self.records.lock().unwrap_or_else(|p| p.into_inner());
        records.0 += 1;
        let record = to_json(records.0, &observed);
        records.1.push_back(record);
        while records.1.len() > KEPT {
            records.1.pop_front();
        }
    }
}

/// One observed record as the page reads it.
fn to_json(seq: u64, observed: &Observed) -> Value {
    let mut record = json!({
        "seq": seq,
        "exchange": observed.exchange,
        "binding": observed.binding.protocol_binding(),
        "operation": observed.operation.to_string(),
    });
    let fields = match &observed.wire {
        Wire::Request {
            method,
            url,
            headers,
            body,
        } => {
            let mut fields = json!({"kind": "request", "method": method, "url": url});
            fields["headers"] = pairs(headers);
            merge(&mut fields, payload(body));
            fields
        }
        Wire::Response { status, headers } => {
            json!({"kind": "response", "status": status, "headers": pairs(headers)})
        }
        Wire::Body(body) => {
            let mut fields = json!({"kind": "body"});
            merge(&mut fields, payload(body));
            fields
        }
        Wire::Status { code, message } => {
            json!({"kind": "status", "status": format!("gRPC {code}"), "body": message})
        }
        other => json!({"kind": "other", "body": format!("{other:?}")}),
    };
    merge(&mut record, fields);
    record
}

/// Headers as `[[name, value], …]`.
fn pairs(headers: &[(String, String)]) -> Value {
    headers
        .iter()
        .map(|(name, value)| json!([name, value]))
        .collect()
}

/// A body as text for the page: bytes as (lossy) UTF-8, a protobuf message as its ProtoJSON with
/// its size and leading bytes in hex.
fn payload(body: &Payload) -> Value {
    match body {
        Payload::Bytes(bytes) => {
            let shown = &bytes[..bytes.len().min(MAX_BODY)];
            json!({
                "encoding": "bytes",
                "size": bytes.len(),
                "body": String::from_utf8_lossy(shown),
            })
        }
        Payload::Protobuf { encoded, json } => {
            let hex: String = encoded
                .iter()
                .take(64)
                .map(|b| format!("{b:02x}"))
                .collect();
            json!({
                "encoding": "protobuf",
                "size": encoded.len(),
                "hex": hex,
                "body": serde_json::to_string_pretty(json).unwrap_or_default(),
            })
        }
        other => json!({"encoding": "other", "body": format!("{other:?}")}),
    }
}

fn merge(into: &mut Value, from: Value) {
    if let (Some(into), Value::Object(from)) = (into.as_object_mut(), from) {
        into.extend(from);
    }
}
