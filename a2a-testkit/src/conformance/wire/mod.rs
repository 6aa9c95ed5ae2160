//! The raw-wire checks: what the official conformance kit (its requirement ids in brackets) and the
//! specification require of the bytes an agent sends, which a typed client hides. Each check makes
//! its own HTTP requests (reqwest) or gRPC calls (tonic over a2a-proto's stubs) to the interface
//! the run's client chose, with the client's bearer token and extra headers, and `A2A-Version: 1.0`
//! unless the check is about that header. They run on A2A v1 interfaces only.
//!
//! | check | binding | requirement |
//! |---|---|---|
//! | `wire.jsonrpc-error-details` | JSON-RPC | an unknown task is `-32001`, a completed task's cancel `-32002`, each with a `data` array of `@type`d objects holding the `google.rpc.ErrorInfo` of its reason in domain `a2a-protocol.org` (§9.5, §5.4) [JSONRPC-ERR-001..003, JSONRPC-SSE-002] |
//! | `wire.jsonrpc-protocol-errors` | JSON-RPC | invalid JSON `-32700`, no `jsonrpc` member `-32600`, an unknown method `-32601`, a mistyped parameter `-32602` (§9.5) [JSONRPC-FMT-001] |
//! | `wire.jsonrpc-sse` | JSON-RPC | SendStreamingMessage answers `200` `text/event-stream`, each `data:` one JSON-RPC response of the request's id whose `result` is a `StreamResponse` (§9.4.2) [JSONRPC-SSE-001] |
//! | `wire.rest-error-details` | HTTP+JSON | an unknown task is `404` with `{"error": {code 404, status NOT_FOUND, message, details}}`, a completed task's cancel `400` `FAILED_PRECONDITION`, each with its `ErrorInfo` in `details` (§11.6, §5.4) [HTTP_JSON-ERR-001/002, HTTP_JSON-STATUS-001] |
//! | `wire.rest-sse` | HTTP+JSON | `POST /message:stream` answers `200` `text/event-stream`, each `data:` a `StreamResponse` (§11.7) [HTTP_JSON-SSE-001] |
//! | `wire.rest-query-params` | HTTP+JSON | `GET /tasks` honours the camelCase query parameters `contextId`, `status`, `pageSize`, `pageToken` (§11.5) [HTTP_JSON-QP-001] |
//! | `wire.grpc-error-details` | gRPC | an unknown task is `NOT_FOUND`, a completed task's cancel `FAILED_PRECONDITION`, each with a `google.rpc.Status` in `grpc-status-details-bin` holding its `ErrorInfo` (§10.6, §5.4) [GRPC-ERR-001/002] |
//! | `wire.protojson-shape` | JSON-RPC, HTTP+JSON | every answer (tasks with file, data and text artifacts, a message, a task list, a push config) is the ProtoJSON of its `a2a.proto` message: camelCase names, enum value names, no unknown field (no `kind`), RFC 3339 UTC timestamps, one member per oneof; JSON-RPC answers `application/json` in a JSON-RPC 2.0 envelope (§5.5, §5.6.1, §9.1) [DM-SERIAL-001..003, DM-PART-001, JSONRPC-FMT-002] |
//! | `wire.version-unsupported` | all | a request naming `A2A-Version: 9.9` is refused with `VersionNotSupportedError` as the binding maps it (§3.6.2, §5.4) [VER-SERVER-002] |
//! | `wire.version-accepted` | all | a request naming `1.0`, or `1.0.1` (patch versions do not count), is served (§3.6, §3.6.2) [VER-SERVER-001, VER-CLIENT-002] |
//! | `wire.credentials-required` | all, when every alternative of the card's `securityRequirements` names a scheme | ListTasks without credentials, and with a forged bearer token, is refused: HTTP `401`/`403`, a JSON-RPC error, gRPC `UNAUTHENTICATED`/`PERMISSION_DENIED` (§3.3.2, §7.4) |
//! | `wire.extension-required` | all, when the card marks an extension `required` | a SendMessage that does not activate it is refused with `ExtensionSupportRequiredError` as the binding maps it, `ErrorInfo` included (§3.3.4, §5.4) |
//! | `wire.unknown-request-fields` | JSON-RPC, HTTP+JSON | a request with fields the agent does not know is served, not refused (§5.7, SHOULD) [DM-SERIAL-005] |

mod calls;
mod errors;
mod extensions;
mod grpc;
mod security;
pub(crate) mod shape;
mod sse;

use a2a_client::{A2aClient, Binding};
use a2a_protocol::operations::Capability;
use a2a_protocol::service::ProtocolVersion;

use calls::Wire;

use super::run::Run;

/// Runs the module's checks that apply to the client's binding.
pub(super) async fn run(run: &mut Run<'_>, client: &A2aClient) {
    if client.protocol_version() != ProtocolVersion::V1_0 {
        return;
    }
    let wire = Wire::new(client);
    let push_declared = Capability::PushNotifications.is_declared(&client.card().capabilities);
    match client.binding() {
        Binding::JsonRpc => {
            run.check("wire.jsonrpc-error-details", errors::jsonrpc_details(&wire))
                .await;
            run.check(
                "wire.jsonrpc-protocol-errors",
                errors::jsonrpc_protocol(&wire),
            )
            .await;
            run.check("wire.jsonrpc-sse", sse::check(&wire)).await;
        }
        Binding::HttpJson => {
            run.check("wire.rest-error-details", errors::rest_details(&wire))
                .await;
            run.check("wire.rest-sse", sse::check(&wire)).await;
            run.check("wire.rest-query-params", calls::query_params(&wire))
                .await;
        }
        Binding::Grpc => {
            run.check("wire.grpc-error-details", grpc::error_details(&wire))
                .await;
        }
    }
    if client.binding() != Binding::Grpc {
        run.check(
            "wire.protojson-shape",
            calls::protojson_shape(&wire, push_declared),
        )
        .await;
        run.check(
            "wire.unknown-request-fields",
            calls::unknown_request_fields(&wire),
        )
        .await;
    }
    // An empty requirement among the alternatives lets anonymous callers in.
    let requirements = &client.card().security_requirements;
    if !requirements.is_empty() && requirements.iter().all(|r| !r.schemes.is_empty()) {
        run.check(
            "wire.credentials-required",
            security::credentials_required(&wire),
        )
        .await;
    }
    let required: Vec<String> = client
        .card()
        .capabilities
        .extensions
        .iter()
        .filter(|extension| extension.required == Some(true))
        .map(|extension| extension.uri.clone().unwrap_or_default())
        .collect();
    if !required.is_empty() {
        run.check(
            "wire.extension-required",
            extensions::required_refused(&wire, &required),
        )
        .await;
    }
    if client.binding() == Binding::Grpc {
        run.check("wire.version-unsupported", grpc::version_refused(&wire))
            .await;
        run.check("wire.version-accepted", grpc::version_accepted(&wire))
            .await;
    } else {
        run.check("wire.version-unsupported", errors::version_refused(&wire))
            .await;
        run.check("wire.version-accepted", calls::version_accepted(&wire))
            .await;
    }
}
