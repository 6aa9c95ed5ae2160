//! Raw gRPC calls (a2a-proto's `A2AService` stub on a tonic channel of its own), so the checks see
//! the status code and the `grpc-status-details-bin` trailer a typed client turns into an error:
//! each A2A error is its §5.4 status code with a `google.rpc.Status` of the same code whose details
//! hold the `google.rpc.ErrorInfo` of its reason (§10.6); an unsupported `a2a-version` is refused,
//! `1.0` and `1.0.1` are served (§3.6.2, §10.2).

use std::time::Duration;

use a2a_proto::rpc::{ErrorInfo, Status as RpcStatus};
use a2a_proto::v1::a2a_service_client::A2aServiceClient;
use a2a_proto::v1::send_message_response::Payload;
use a2a_proto::v1::{CancelTaskRequest, GetTaskRequest, ListTasksRequest, SendMessageRequest};
use prost::Message;
use tonic::Code;
use tonic::metadata::{MetadataKey, MetadataValue};
use tonic::transport::{Channel, Endpoint};

use super::super::helpers::{message_id, send, user_message};
use super::super::run::CheckResult;
use super::calls::{VERSION, Wire};
use super::errors::{
    DOMAIN, ERROR_INFO_TYPE, Mapping, TASK_NOT_CANCELABLE, TASK_NOT_FOUND, VERSION_NOT_SUPPORTED,
};

type Stub = A2aServiceClient<Channel>;

/// A stub on a channel of its own to the interface (plain-text HTTP/2: a target without a scheme,
/// `grpc://` or `http://`).
async fn connect(wire: &Wire) -> Result<Stub, String> {
    let url = &wire.url;
    let target = if let Some(rest) = url.strip_prefix("grpc://") {
        format!("http://{rest}")
    } else if url.contains("://") {
        url.clone()
    } else {
        format!("http://{url}")
    };
    if !target.starts_with("http://") {
        return Err(format!(
            "the raw gRPC checks reach plain-text HTTP/2 interfaces only, not {url}"
        ));
    }
    let channel = Endpoint::from_shared(target.clone())
        .map_err(|e| format!("gRPC target {target}: {e}"))?
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .map_err(|e| format!("connecting to {target}: {e}"))?;
    Ok(A2aServiceClient::new(channel))
}

/// `message` with the client's headers and `a2a-version: version` as metadata.
fn request<T>(wire: &Wire, message: T, version: &str) -> Result<tonic::Request<T>, String> {
    let mut request = tonic::Request::new(message);
    let metadata = request.metadata_mut();
    for (name, value) in wire
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .chain([("a2a-version", version)])
    {
        let key = MetadataKey::from_bytes(name.to_ascii_lowercase().as_bytes())
            .map_err(|e| format!("metadata key {name:?}: {e}"))?;
        let value =
            MetadataValue::try_from(value).map_err(|e| format!("metadata {name:?}: {e}"))?;
        metadata.insert(key, value);
    }
    Ok(request)
}

fn code(name: &str) -> Code {
    match name {
        "NOT_FOUND" => Code::NotFound,
        "FAILED_PRECONDITION" => Code::FailedPrecondition,
        "INVALID_ARGUMENT" => Code::InvalidArgument,
        "UNIMPLEMENTED" => Code::Unimplemented,
        _ => Code::Internal,
    }
}

/// Checks a call's failure against `expected`: its code, and its details' `google.rpc.Status`.
fn expect_status<T>(
    result: Result<tonic::Response<T>, tonic::Status>,
    expected: &Mapping,
) -> Result<(), String> {
    let status = match result {
        Ok(_) => {
            return Err(format!(
                "the call succeeded, expected {} ({})",
                expected.grpc_status, expected.reason
            ));
        }
        Err(status) => status,
    };
    if status.code() != code(expected.grpc_status) {
        return Err(format!(
            "status {:?} ({:?}), expected {} for {}",
            status.code(),
            status.message(),
            expected.grpc_status,
            expected.reason
        ));
    }
    if status.details().is_empty() {
        return Err(format!(
            "{:?} without grpc-status-details-bin (no google.rpc.Status, no ErrorInfo)",
            status.code()
        ));
    }
    let details = RpcStatus::decode(status.details())
        .map_err(|e| format!("grpc-status-details-bin is not a google.rpc.Status: {e}"))?;
    if details.code != status.code() as i32 {
        return Err(format!(
            "google.rpc.Status code {} in the details of a {:?} status",
            details.code,
            status.code()
        ));
    }
    let any = details
        .details
        .iter()
        .find(|any| any.type_url == ERROR_INFO_TYPE)
        .ok_or_else(|| {
            let types: Vec<&str> = details
                .details
                .iter()
                .map(|a| a.type_url.as_str())
                .collect();
            format!("no {ERROR_INFO_TYPE} in google.rpc.Status.details (types {types:?})")
        })?;
    let info = ErrorInfo::decode(any.value.as_slice())
        .map_err(|e| format!("the ErrorInfo does not decode: {e}"))?;
    if info.reason != expected.reason || info.domain != DOMAIN {
        return Err(format!(
            "ErrorInfo reason {:?} domain {:?}, expected {} in {DOMAIN}",
            info.reason, info.domain, expected.reason
        ));
    }
    Ok(())
}

fn get(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.to_owned(),
        ..Default::default()
    }
}

/// Sends a `tck-complete-task` message and returns the id of its (completed) task.
async fn completed_task(wire: &Wire, stub: &mut Stub) -> Result<String, String> {
    let message = SendMessageRequest::from(send(user_message("tck-complete-task", "raw gRPC")));
    let answer = stub
        .send_message(request(wire, message, VERSION)?)
        .await
        .map_err(|s| format!("SendMessage: {:?} {}", s.code(), s.message()))?;
    match answer.into_inner().payload {
        Some(Payload::Task(task)) => Ok(task.id),
        other => Err(format!("SendMessage answered {other:?}, expected a task")),
    }
}

pub(super) async fn error_details(wire: &Wire) -> CheckResult {
    let mut stub = connect(wire).await?;
    let unknown = message_id("no-such-task");
    let result = stub.get_task(request(wire, get(&unknown), VERSION)?).await;
    expect_status(result, &TASK_NOT_FOUND).map_err(|e| format!("GetTask of an unknown id: {e}"))?;
    let done = completed_task(wire, &mut stub).await?;
    let cancel = CancelTaskRequest {
        id: done,
        ..Default::default()
    };
    let result = stub.cancel_task(request(wire, cancel, VERSION)?).await;
    expect_status(result, &TASK_NOT_CANCELABLE)
        .map_err(|e| format!("CancelTask of a completed task: {e}"))?;
    Ok(
        "NOT_FOUND and FAILED_PRECONDITION, each with its ErrorInfo in grpc-status-details-bin"
            .into(),
    )
}

/// ListTasks on a stub of its own, with `wire`'s headers (none, for an anonymous wire): the status
/// code and message it was refused with, or `None` when it was served.
pub(super) async fn list_refusal(wire: &Wire) -> Result<Option<(Code, String)>, String> {
    let mut stub = connect(wire).await?;
    let result = stub
        .list_tasks(request(wire, ListTasksRequest::default(), VERSION)?)
        .await;
    Ok(result
        .err()
        .map(|status| (status.code(), status.message().to_owned())))
}

/// A `tck-complete-task` SendMessage with `wire`'s headers, refused as `expected` maps it.
pub(super) async fn send_refused(wire: &Wire, expected: &Mapping) -> Result<(), String> {
    let mut stub = connect(wire).await?;
    let message = SendMessageRequest::from(send(user_message("tck-complete-task", "raw gRPC")));
    expect_status(
        stub.send_message(request(wire, message, VERSION)?).await,
        expected,
    )
}

pub(super) async fn version_refused(wire: &Wire) -> CheckResult {
    let mut stub = connect(wire).await?;
    let unknown = message_id("no-such-task");
    let result = stub.get_task(request(wire, get(&unknown), "9.9")?).await;
    expect_status(result, &VERSION_NOT_SUPPORTED)?;
    Ok("a2a-version: 9.9 refused with VersionNotSupportedError".into())
}

pub(super) async fn version_accepted(wire: &Wire) -> CheckResult {
    let mut stub = connect(wire).await?;
    let done = completed_task(wire, &mut stub).await?;
    for version in ["1.0", "1.0.1"] {
        let task = stub
            .get_task(request(wire, get(&done), version)?)
            .await
            .map_err(|s| {
                format!(
                    "GetTask with a2a-version: {version}: {:?} {}",
                    s.code(),
                    s.message()
                )
            })?;
        if task.get_ref().id != done {
            return Err(format!(
                "GetTask with a2a-version: {version} answered another task"
            ));
        }
    }
    Ok("a2a-version 1.0 and 1.0.1 served".into())
}
