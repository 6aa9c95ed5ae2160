//! Where each conformance check comes from: the strength of the requirement ([`Level`], the
//! specification's MUST, SHOULD and MAY, RFC 2119) and the section of the A2A v1 specification (or,
//! for a convention of the conformance kits, that kit) that states it.
//!
//! The level is the requirement's strength for an agent that declares what the check uses: pushing
//! notifications is optional, but an agent whose card declares `pushNotifications` MUST serve the
//! push-config operations. The behaviour checks (`send.*`, `stream.*`) presume the conformance
//! kits' `messageId` convention (`tck-complete-task`, ...), which they drive each operation with.
//!
//! [`capability_needed`] names the checks that use an optional capability: a run makes them only
//! when the card declares it, and otherwise makes the `capability.*` checks of its refusal.

use std::fmt;

use a2a_protocol::operations::Capability;

use serde::Serialize;

/// How strong a requirement is; a run at a level makes the checks of that level and stronger ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    /// An absolute requirement.
    Must,
    /// A recommendation: departures need a reason.
    Should,
    /// Optional behaviour (and the conformance kits' own conventions).
    May,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::May => "MAY",
        })
    }
}

/// `must`, `should` or `may`, in any case.
impl std::str::FromStr for Level {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, String> {
        match value.to_ascii_lowercase().as_str() {
            "must" => Ok(Level::Must),
            "should" => Ok(Level::Should),
            "may" => Ok(Level::May),
            _ => Err(format!("level {value:?}: expected must, should or may")),
        }
    }
}

/// Every check: its name, its level, and the section it comes from.
pub const REQUIREMENTS: &[(&str, Level, &str)] = &[
    (
        "card",
        Level::May,
        "§4.4.3 AgentCapabilities (well-formed; what it declares decides the checks, §3.3.4)",
    ),
    (
        "capability.push-refused",
        Level::Must,
        "§3.3.4 Capability Validation (pushNotifications not declared: PushNotificationNotSupportedError)",
    ),
    (
        "capability.streaming-refused",
        Level::Must,
        "§3.3.4 Capability Validation (streaming not declared: UnsupportedOperationError)",
    ),
    (
        "capability.extended-card-refused",
        Level::Must,
        "§3.3.4 Capability Validation (extendedAgentCard not declared: UnsupportedOperationError)",
    ),
    ("send.complete-task", Level::Must, "§3.1.1 Send Message"),
    (
        "send.artifact-text",
        Level::Must,
        "§3.1.1 Send Message; §4.1.7 Artifact",
    ),
    (
        "send.artifact-file",
        Level::Must,
        "§3.1.1 Send Message; §4.1.6 Part (raw)",
    ),
    (
        "send.artifact-file-url",
        Level::Must,
        "§3.1.1 Send Message; §4.1.6 Part (url)",
    ),
    (
        "send.artifact-data",
        Level::Must,
        "§3.1.1 Send Message; §4.1.6 Part (data)",
    ),
    (
        "send.input-required",
        Level::Must,
        "§3.1.1 Send Message; §4.1.3 TaskState",
    ),
    (
        "send.reject-task",
        Level::Must,
        "§3.1.1 Send Message; §4.1.3 TaskState",
    ),
    ("send.other-text", Level::Must, "§3.1.1 Send Message"),
    (
        "send.message-response",
        Level::Must,
        "§3.1.1 Send Message (a Message instead of a Task)",
    ),
    ("stream.001", Level::Must, "§3.1.2 Send Streaming Message"),
    ("stream.003", Level::Must, "§3.1.2 Send Streaming Message"),
    (
        "stream.ordering-001",
        Level::Must,
        "§3.1.2 Send Streaming Message (events in order)",
    ),
    (
        "stream.artifact-text",
        Level::Must,
        "§3.1.2 Send Streaming Message; §4.2.2 TaskArtifactUpdateEvent",
    ),
    ("stream.002", Level::Must, "§3.1.2 Send Streaming Message"),
    (
        "stream.artifact-file",
        Level::Must,
        "§3.1.2 Send Streaming Message; §4.2.2 TaskArtifactUpdateEvent",
    ),
    (
        "stream.artifact-chunked",
        Level::Must,
        "§4.2.2 TaskArtifactUpdateEvent (append, lastChunk)",
    ),
    (
        "stream.message-response",
        Level::Must,
        "§3.1.2 Send Streaming Message (a single Message)",
    ),
    (
        "get.history-length",
        Level::Must,
        "§3.1.3 Get Task (historyLength)",
    ),
    (
        "list.context-status-paging",
        Level::Must,
        "§3.1.4 List Tasks (filters, pageSize, nextPageToken)",
    ),
    ("cancel.working-task", Level::Must, "§3.1.5 Cancel Task"),
    (
        "subscribe.running-task",
        Level::Must,
        "§3.1.6 Subscribe to Task",
    ),
    (
        "push-config.crud",
        Level::Must,
        "§3.1.7–3.1.10 Push Notification Config operations",
    ),
    (
        "push-config.delivery",
        Level::Must,
        "§4.3.3 Push Notification Payload (authentication headers); §13.2",
    ),
    (
        "extended-card.with-token",
        Level::Must,
        "§3.1.11 Get Extended Agent Card",
    ),
    (
        "rules.text-part-prefix",
        Level::May,
        "conformance kit convention (ACTS: the behaviour named by the first text part)",
    ),
    (
        "rules.cancel-until-canceled",
        Level::Must,
        "§3.1.5 Cancel Task",
    ),
    (
        "rules.terminal-task-refuses-messages",
        Level::Must,
        "§3.1.1 Send Message (a task in a terminal state takes no message)",
    ),
    (
        "rules.context-mismatch",
        Level::Must,
        "§3.4.3 Multi-Turn Conversation Patterns (a contextId not its task's is rejected)",
    ),
    (
        "rules.multi-turn-history",
        Level::Must,
        "§3.4.3 Multi-Turn Conversation Patterns",
    ),
    (
        "rules.subscribe-until-terminal",
        Level::Must,
        "§3.1.6 Subscribe to Task (until the task ends)",
    ),
    (
        "rules.webhook-ssrf-guard",
        Level::Should,
        "§13.2 Push Notification Security (webhook URL validation)",
    ),
    (
        "send.return-immediately",
        Level::Must,
        "§3.2.2 SendMessageConfiguration (returnImmediately: in progress)",
    ),
    (
        "send.blocking-waits",
        Level::Must,
        "§3.2.2 SendMessageConfiguration (blocking: waits for the end)",
    ),
    (
        "send.unique-task-ids",
        Level::Must,
        "§3.4.2 Task Identifier Semantics",
    ),
    (
        "send.context-inferred",
        Level::Must,
        "§3.4.3 Multi-Turn Conversation Patterns (contextId inferred from taskId)",
    ),
    (
        "list.newest-first",
        Level::Must,
        "§3.1.4 List Tasks (Ordering: status timestamp, descending)",
    ),
    (
        "list.artifacts-omitted",
        Level::Must,
        "§3.1.4 List Tasks (includeArtifacts false: no artifacts)",
    ),
    (
        "push-config.delete-idempotent",
        Level::Must,
        "§3.1.10 Delete Push Notification Config (idempotent)",
    ),
    (
        "error.push-config-unknown-config",
        Level::Must,
        "§3.1.8 Get Push Notification Config; §3.3.2 TaskNotFoundError",
    ),
    (
        "error.subscribe-unknown-task",
        Level::Must,
        "§3.1.6 Subscribe to Task; §3.3.2 TaskNotFoundError",
    ),
    (
        "wire.jsonrpc-error-details",
        Level::Must,
        "§9.5 Error Handling; §5.4 Error Code Mappings (code, data with ErrorInfo)",
    ),
    (
        "wire.jsonrpc-protocol-errors",
        Level::Must,
        "§9.3 Base Request Structure; §9.5 Error Handling (JSON-RPC 2.0 codes)",
    ),
    (
        "wire.jsonrpc-sse",
        Level::Must,
        "§9.4.2 SendStreamingMessage (text/event-stream, JSON-RPC responses)",
    ),
    (
        "wire.rest-error-details",
        Level::Must,
        "§11.6 Error Handling; §5.4 Error Code Mappings (status, ErrorInfo)",
    ),
    (
        "wire.rest-sse",
        Level::Must,
        "§11.7 Streaming (text/event-stream, StreamResponse data)",
    ),
    (
        "wire.rest-query-params",
        Level::Must,
        "§11.5 Query Parameter Naming (camelCase)",
    ),
    (
        "wire.grpc-error-details",
        Level::Must,
        "§10.6 Error Handling; §5.4 Error Code Mappings (status, ErrorInfo)",
    ),
    (
        "wire.protojson-shape",
        Level::Must,
        "§5.5 JSON Field Naming; §5.6.1 Timestamps; §9.1 (ProtoJSON of a2a.proto)",
    ),
    (
        "wire.version-unsupported",
        Level::Must,
        "§3.6.2 Server Responsibilities; §3.3.2 VersionNotSupportedError",
    ),
    (
        "wire.credentials-required",
        Level::Must,
        "§3.3.2 Error Handling (Authentication Errors: missing or invalid credentials rejected); §7.4 Server Authentication Responsibilities",
    ),
    (
        "wire.extension-required",
        Level::Must,
        "§3.3.4 Capability Validation (a required extension not activated: ExtensionSupportRequiredError); §5.4",
    ),
    (
        "wire.version-accepted",
        Level::Must,
        "§3.6 Versioning (Major.Minor, patch ignored); §3.6.2",
    ),
    (
        "wire.unknown-request-fields",
        Level::Should,
        "§5.7 Field Presence and Optionality (unknown fields ignored)",
    ),
    (
        "error.get-unknown-task",
        Level::Must,
        "§3.1.3 Get Task; §3.3.2 TaskNotFoundError",
    ),
    (
        "error.cancel-unknown-task",
        Level::Must,
        "§3.1.5 Cancel Task; §3.3.2 TaskNotFoundError",
    ),
    (
        "error.cancel-completed-task",
        Level::Must,
        "§3.1.5 Cancel Task; §3.3.2 TaskNotCancelableError",
    ),
    (
        "error.subscribe-completed-task",
        Level::Must,
        "§3.1.6 Subscribe to Task; §3.3.2 UnsupportedOperationError",
    ),
    (
        "error.continue-unknown-task",
        Level::Must,
        "§3.1.1 Send Message; §3.3.2 TaskNotFoundError",
    ),
    (
        "error.push-config-unknown-task",
        Level::Must,
        "§3.1.8 Get Push Notification Config; §3.3.2 TaskNotFoundError",
    ),
    (
        "error.list-negative-page-size",
        Level::Must,
        "§3.1.4 List Tasks (pageSize); §3.3.2 InvalidParamsError",
    ),
];

/// The checks that use each optional capability (with the card field declaring it): made only when
/// the card declares it (section 3.3.4).
const NEEDS: &[(Capability, &str, &[&str])] = &[
    (
        Capability::Streaming,
        "capabilities.streaming",
        &[
            "stream.001",
            "stream.003",
            "stream.ordering-001",
            "stream.artifact-text",
            "stream.002",
            "stream.artifact-file",
            "stream.artifact-chunked",
            "stream.message-response",
            "subscribe.running-task",
            "rules.subscribe-until-terminal",
            "error.subscribe-unknown-task",
            "error.subscribe-completed-task",
            "wire.jsonrpc-sse",
            "wire.rest-sse",
        ],
    ),
    (
        Capability::PushNotifications,
        "capabilities.pushNotifications",
        &[
            "push-config.crud",
            "push-config.delivery",
            "push-config.delete-idempotent",
            "error.push-config-unknown-config",
            "error.push-config-unknown-task",
            "rules.webhook-ssrf-guard",
        ],
    ),
    (
        Capability::ExtendedAgentCard,
        "capabilities.extendedAgentCard",
        &["extended-card.with-token"],
    ),
];

/// The capability the check `name` uses, with the card field declaring it, if any.
pub fn capability_needed(name: &str) -> Option<(Capability, &'static str)> {
    NEEDS
        .iter()
        .find(|(_, _, checks)| checks.contains(&name))
        .map(|(capability, field, _)| (*capability, *field))
}

/// The level and section of the check `name` (a check missing from the table counts as MUST,
/// from an unnamed section; the table's test keeps that from happening).
pub fn requirement(name: &str) -> (Level, &'static str) {
    REQUIREMENTS
        .iter()
        .find(|(check, _, _)| *check == name)
        .map_or(
            (Level::Must, "(no section recorded)"),
            |(_, level, section)| (*level, section),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check names written in the run's sources: string literals starting with a check family.
    fn names_in(source: &str) -> Vec<&str> {
        const FAMILIES: [&str; 13] = [
            "card",
            "capability.",
            "send.",
            "stream.",
            "get.",
            "list.",
            "cancel.",
            "subscribe.",
            "push-config.",
            "extended-card.",
            "rules.",
            "error.",
            "wire.",
        ];
        source
            .split('"')
            .skip(1)
            .step_by(2)
            .filter(|literal| {
                FAMILIES.iter().any(|family| literal.starts_with(family))
                    && literal.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'
                    })
            })
            .collect()
    }

    #[test]
    fn every_check_of_the_run_has_a_level_and_a_section() {
        let names: Vec<&str> = [
            include_str!("mod.rs"),
            include_str!("server_rules.rs"),
            include_str!("kit_rules.rs"),
            include_str!("wire/mod.rs"),
            include_str!("capabilities.rs"),
        ]
        .into_iter()
        .flat_map(names_in)
        .collect();
        assert!(names.len() >= REQUIREMENTS.len(), "{names:?}");
        for name in names {
            assert!(
                REQUIREMENTS.iter().any(|(check, _, _)| *check == name),
                "the check {name:?} is not in REQUIREMENTS"
            );
        }
    }

    #[test]
    fn every_check_needing_a_capability_is_a_check() {
        for (_, _, checks) in NEEDS {
            for name in *checks {
                assert!(
                    REQUIREMENTS.iter().any(|(check, _, _)| check == name),
                    "{name:?} is not in REQUIREMENTS"
                );
            }
        }
        assert_eq!(capability_needed("send.complete-task"), None);
    }

    #[test]
    fn levels_order_from_the_strongest() {
        assert!(Level::Must < Level::Should && Level::Should < Level::May);
        assert_eq!("SHOULD".parse(), Ok(Level::Should));
        assert!("sometimes".parse::<Level>().is_err());
    }
}
