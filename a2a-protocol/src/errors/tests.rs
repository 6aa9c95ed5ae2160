//! The error model against the spec's tables and examples, and every form round-tripped.

use super::*;

#[test]
#[cfg(feature = "grpc")]
fn every_error_survives_a_tonic_status() {
    for kind in ErrorKind::ALL {
        let error = Error::with_message(kind, format!("{kind:?} for task-9"))
            .with_metadata("taskId", "task-9");
        let status = tonic::Status::from(&error);
        assert_eq!(status.code() as i32, kind.grpc_code().code(), "{kind:?}");
        assert_eq!(status.message(), format!("{kind:?} for task-9"));
        assert_eq!(
            Error::from_tonic_status(&status).unwrap(),
            error,
            "{kind:?}"
        );
    }
    let plain = tonic::Status::unavailable("connection refused");
    let error = Error::from_tonic_status(&plain).unwrap_err();
    assert!(error.to_string().contains("ErrorInfo"), "{error}");
}

/// The mapping of the spec's section 5.4 table, row by row.
#[test]
fn a2a_errors_map_as_the_spec_table_says() {
    let table = [
        (ErrorKind::TaskNotFound, -32001, "NOT_FOUND", 404),
        (
            ErrorKind::TaskNotCancelable,
            -32002,
            "FAILED_PRECONDITION",
            400,
        ),
        (
            ErrorKind::PushNotificationNotSupported,
            -32003,
            "FAILED_PRECONDITION",
            400,
        ),
        (
            ErrorKind::UnsupportedOperation,
            -32004,
            "FAILED_PRECONDITION",
            400,
        ),
        (
            ErrorKind::ContentTypeNotSupported,
            -32005,
            "INVALID_ARGUMENT",
            400,
        ),
        (ErrorKind::InvalidAgentResponse, -32006, "INTERNAL", 500),
        (
            ErrorKind::ExtendedAgentCardNotConfigured,
            -32007,
            "FAILED_PRECONDITION",
            400,
        ),
        (
            ErrorKind::ExtensionSupportRequired,
            -32008,
            "FAILED_PRECONDITION",
            400,
        ),
        (
            ErrorKind::VersionNotSupported,
            -32009,
            "FAILED_PRECONDITION",
            400,
        ),
    ];
    for (kind, code, grpc, http) in table {
        assert!(kind.is_a2a_specific());
        assert_eq!(kind.jsonrpc_code(), code, "{kind:?}");
        assert_eq!(kind.grpc_code().name(), grpc, "{kind:?}");
        assert_eq!(kind.http_status(), http, "{kind:?}");
        assert_eq!(ErrorKind::from_jsonrpc_code(code), Some(kind));
        assert_eq!(ErrorKind::from_reason(kind.reason()), Some(kind));
    }
    let specific = ErrorKind::ALL
        .iter()
        .filter(|e| e.is_a2a_specific())
        .count();
    assert_eq!(specific, table.len());
    assert_eq!(
        GrpcCode::from_name("FAILED_PRECONDITION").map(GrpcCode::code),
        Some(9)
    );
    assert_eq!(GrpcCode::from_code(5), Some(GrpcCode::NotFound));
}

#[test]
fn every_error_round_trips_through_both_shapes() {
    for kind in ErrorKind::ALL {
        let mut error = Error::with_message(kind, format!("{kind:?} happened"))
            .with_metadata("taskId", "task-9");
        error.field_violations.push(FieldViolation {
            field: "message.parts".into(),
            description: "At least one part is required".into(),
        });
        error
            .other_details
            .push(json!({"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "2s"}));
        assert_eq!(Error::from_jsonrpc(&error.to_jsonrpc()).unwrap(), error);
        assert_eq!(Error::from_rest(&error.to_rest()).unwrap(), error);
    }
}

#[test]
fn reads_the_spec_examples() {
    let jsonrpc = json!({
        "code": -32602,
        "message": "Invalid parameters",
        "data": [{
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            "fieldViolations": [{"field": "message.parts", "description": "At least one part is required"}]
        }]
    });
    let error = Error::from_jsonrpc(&jsonrpc).unwrap();
    assert_eq!(error.kind, ErrorKind::InvalidParams);
    assert_eq!(error.field_violations[0].field, "message.parts");
    let rest = json!({"error": {
        "code": 404,
        "status": "NOT_FOUND",
        "message": "The specified task ID does not exist or is not accessible",
        "details": [{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "TASK_NOT_FOUND",
            "domain": "a2a-protocol.org",
            "metadata": {"taskId": "task-123", "timestamp": "2025-11-09T10:30:00.000Z"}
        }]
    }});
    let error = Error::from_rest(&rest).unwrap();
    assert_eq!(error.kind, ErrorKind::TaskNotFound);
    assert_eq!(error.metadata["taskId"], "task-123");
}

#[test]
fn malformed_errors_name_the_path() {
    let cases = [
        (json!({"code": "x"}), "code"),
        (json!({"code": -31999, "message": "?"}), "code"),
        (json!({"code": -32001, "message": 7}), "message"),
        (
            json!({"code": -32001, "data": [{"reason": "X"}]}),
            "data[0].@type",
        ),
        (
            json!({"code": -32602, "data": [{"@type": BAD_REQUEST_TYPE, "fieldViolations": [{"field": 1}]}]}),
            "data[0].fieldViolations[0].field",
        ),
    ];
    for (object, path) in cases {
        assert_eq!(
            Error::from_jsonrpc(&object).unwrap_err().path,
            path,
            "{object}"
        );
    }
    let no_reason = json!({"error": {"code": 400, "message": "bad", "details": []}});
    assert_eq!(
        Error::from_rest(&no_reason).unwrap_err().path,
        "error.details"
    );
}

#[cfg(feature = "proto")]
#[test]
fn grpc_status_round_trips() {
    let error = Error::with_message(ErrorKind::TaskNotFound, "Task with ID 'task-123' not found")
        .with_metadata("taskId", "task-123");
    let status = error.to_grpc_status();
    assert_eq!(status.code, GrpcCode::NotFound);
    assert_eq!(Error::from_grpc_status(&status.details_bin), Ok(error));

    let violations = Violations::from(vec![FieldViolation::at(
        "message",
        "parts",
        "Field is required.",
    )]);
    let invalid = Error::from(&violations);
    let status = invalid.to_grpc_status();
    assert_eq!(status.code, GrpcCode::InvalidArgument);
    assert_eq!(Error::from_grpc_status(&status.details_bin), Ok(invalid));

    // Non-string metadata travels as JSON text.
    let counted = Error::new(ErrorKind::Internal).with_metadata("attempt", 2);
    let read = Error::from_grpc_status(&counted.to_grpc_status().details_bin).unwrap();
    assert_eq!(read.metadata["attempt"], "2");

    assert_eq!(Error::from_grpc_status(b"\xff\xff").unwrap_err().path, "");
    let no_info = a2a_proto::rpc::Status {
        code: 13,
        message: "x".into(),
        details: vec![],
    };
    let bytes = no_info.to_bytes();
    assert_eq!(Error::from_grpc_status(&bytes).unwrap_err().path, "details");
}

#[test]
fn violations_become_invalid_params() {
    let violations = Violations::from(vec![FieldViolation::at(
        "message",
        "role",
        "Field is required.",
    )]);
    let error = Error::from(&violations);
    assert_eq!(error.kind, ErrorKind::InvalidParams);
    assert_eq!(error.field_violations, violations.clone().into_vec());
    assert_eq!(error.to_jsonrpc(), violations.to_jsonrpc_error());
}

#[test]
fn a_bare_error_has_no_data_unless_given_details() {
    let bare = Error::bare(ErrorKind::JsonParse, "not JSON");
    assert_eq!(
        bare.to_jsonrpc(),
        json!({"code": -32700, "message": "not JSON"})
    );
    assert_eq!(Error::from_jsonrpc(&bare.to_jsonrpc()), Ok(bare.clone()));
    // Its other forms still name the error.
    assert_eq!(
        bare.to_rest()["error"]["details"][0]["reason"],
        "UNKNOWN_ERROR"
    );
    // Details are never dropped: given some, it is written with its ErrorInfo, and read back so.
    let mut detailed = bare.clone();
    detailed
        .field_violations
        .push(FieldViolation::at("", "id", "Field is required."));
    let object = detailed.to_jsonrpc();
    assert_eq!(object["data"][0]["reason"], "UNKNOWN_ERROR");
    assert_eq!(object["data"][1]["fieldViolations"][0]["field"], "id");
    let with_metadata = bare.with_metadata("taskId", "t-1");
    assert!(!with_metadata.bare);
    assert_eq!(
        with_metadata.to_jsonrpc()["data"][0]["metadata"]["taskId"],
        "t-1"
    );
    // A `data` of null reads as no details too.
    let read = Error::from_jsonrpc(&json!({"code": -32601, "message": "m", "data": null}));
    assert_eq!(read, Ok(Error::bare(ErrorKind::MethodNotFound, "m")));
}
