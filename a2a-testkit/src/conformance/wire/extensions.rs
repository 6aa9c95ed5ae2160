//! The check of an agent whose card marks an extension `required`: a SendMessage that does not
//! activate it (no `A2A-Extensions` naming it) is refused with `ExtensionSupportRequiredError` as
//! the binding maps it: JSON-RPC `-32008`, HTTP `400` `FAILED_PRECONDITION`, gRPC
//! `FAILED_PRECONDITION`, each with its `ErrorInfo` (§3.3.4, §5.4).

use a2a_client::Binding;

use super::super::run::CheckResult;
use super::calls::{Op, VERSION, Wire, send_request};
use super::errors::{EXTENSION_SUPPORT_REQUIRED, jsonrpc_error, rest_error};
use super::grpc::send_refused;

pub(super) async fn required_refused(wire: &Wire, required: &[String]) -> CheckResult {
    // The run's own headers may activate the extensions (`--header A2A-Extensions: ...`): this
    // request must not.
    let mut bare = wire.anonymous();
    bare.headers = wire
        .headers
        .iter()
        .filter(|(name, _)| !name.eq_ignore_ascii_case("a2a-extensions"))
        .cloned()
        .collect();
    let expected = &EXTENSION_SUPPORT_REQUIRED;
    match bare.binding {
        Binding::Grpc => send_refused(&bare, expected).await,
        Binding::JsonRpc => {
            let id = bare.id();
            let answer = bare
                .request(
                    &Op::Send(send_request("tck-complete-task", None)),
                    id,
                    Some(VERSION),
                )
                .await?;
            jsonrpc_error(&answer, id, expected)
        }
        Binding::HttpJson => {
            let answer = bare
                .request(
                    &Op::Send(send_request("tck-complete-task", None)),
                    0,
                    Some(VERSION),
                )
                .await?;
            rest_error(&answer, expected)
        }
    }
    .map_err(|e| format!("SendMessage without activating {required:?}: {e}"))?;
    Ok(format!(
        "SendMessage without activating {required:?} refused with ExtensionSupportRequiredError"
    ))
}
