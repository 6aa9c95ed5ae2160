//! The generated operations table of `a2a_protocol::operations` equals the service of the embedded
//! descriptor (`a2a_proto::v1::FILE_DESCRIPTOR_SET`), read here independently with prost-reflect:
//! every RPC, in order, with its gRPC path, types, streaming and every `google.api.http` binding. The
//! capabilities are checked against the list of the spec's section 3.3.4.

use a2a_protocol::operations::{Capability, OPERATIONS, Operation, SERVICE_NAME};
use prost_reflect::{DescriptorPool, DynamicMessage, Value};

const HTTP_EXTENSION: u32 = 72295728;

fn text(message: &DynamicMessage, field: &str) -> String {
    message
        .get_field_by_name(field)
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// (method, path, body, response_body) of one HttpRule.
fn binding(rule: &DynamicMessage) -> (String, String, String, String) {
    let verb = ["get", "put", "post", "delete", "patch"]
        .into_iter()
        .find(|verb| rule.has_field_by_name(verb))
        .expect("every A2A binding uses a standard verb");
    (
        verb.to_uppercase(),
        text(rule, verb),
        text(rule, "body"),
        text(rule, "response_body"),
    )
}

#[test]
fn the_table_is_the_service_of_the_descriptor() {
    let pool = DescriptorPool::decode(a2a_proto::v1::FILE_DESCRIPTOR_SET).unwrap();
    let service = pool.get_service_by_name(SERVICE_NAME).unwrap();
    let methods: Vec<_> = service.methods().collect();
    assert_eq!(methods.len(), OPERATIONS.len());
    assert_eq!(Operation::all().count(), methods.len());
    for (method, info) in methods.iter().zip(&OPERATIONS) {
        assert_eq!(info.rpc_name, method.name());
        assert_eq!(info.jsonrpc_method, method.name(), "spec section 9.1");
        assert_eq!(
            info.grpc_path,
            format!("/{}/{}", SERVICE_NAME, method.name())
        );
        assert_eq!(info.request_type, method.input().full_name());
        assert_eq!(info.response_type, method.output().full_name());
        assert_eq!(info.server_streaming, method.is_server_streaming());
        assert_eq!(info.client_streaming, method.is_client_streaming());
        let options = method.options();
        let rule = options
            .extensions()
            .find(|(ext, _)| ext.number() == HTTP_EXTENSION)
            .and_then(|(_, v)| v.as_message().cloned())
            .expect("every A2A RPC has an HTTP binding");
        let mut expected = vec![binding(&rule)];
        if let Some(Value::List(more)) = rule.get_field_by_name("additional_bindings").as_deref() {
            expected.extend(more.iter().map(|r| binding(r.as_message().unwrap())));
        }
        let ours: Vec<_> = info
            .http
            .iter()
            .map(|b| {
                (
                    b.method.to_owned(),
                    b.path.to_owned(),
                    b.body.to_owned(),
                    b.response_body.to_owned(),
                )
            })
            .collect();
        assert_eq!(ours, expected, "{}", method.name());
        // Every A2A binding has a tenant-prefixed twin (spec section 11).
        assert!(
            ours.iter()
                .any(|(_, path, _, _)| path.starts_with("/{tenant}/")),
            "{}",
            method.name()
        );
        let short = |full: &str| full.rsplit('.').next().unwrap().to_owned();
        assert!(
            info.request_rust_type
                .ends_with(&format!("::{}", short(info.request_type)))
        );
        assert!(
            info.response_rust_type
                .ends_with(&format!("::{}", short(info.response_type)))
        );
    }
}

#[test]
fn capabilities_are_those_of_spec_section_3_3_4() {
    let expected = [
        ("SendStreamingMessage", Some(Capability::Streaming)),
        ("SubscribeToTask", Some(Capability::Streaming)),
        (
            "CreateTaskPushNotificationConfig",
            Some(Capability::PushNotifications),
        ),
        (
            "GetTaskPushNotificationConfig",
            Some(Capability::PushNotifications),
        ),
        (
            "ListTaskPushNotificationConfigs",
            Some(Capability::PushNotifications),
        ),
        (
            "DeleteTaskPushNotificationConfig",
            Some(Capability::PushNotifications),
        ),
        ("GetExtendedAgentCard", Some(Capability::ExtendedAgentCard)),
        ("SendMessage", None),
        ("GetTask", None),
        ("ListTasks", None),
        ("CancelTask", None),
    ];
    assert_eq!(expected.len(), OPERATIONS.len());
    for (name, capability) in expected {
        let op = Operation::from_jsonrpc_method(name).unwrap();
        assert_eq!(op.info().capability, capability, "{name}");
    }
}

/// The REST endpoints of the spec's section 5.3 table, where the proto agrees with it (the table
/// shows `POST` for `SubscribeToTask`; the normative proto binds `GET`, as does the SDK).
#[test]
fn rest_endpoints_match_the_method_mapping_of_section_5_3() {
    let expected = [
        ("SendMessage", "POST", "/message:send", "message/send"),
        (
            "SendStreamingMessage",
            "POST",
            "/message:stream",
            "message/stream",
        ),
        ("GetTask", "GET", "/tasks/{id=*}", "tasks/get"),
        ("CancelTask", "POST", "/tasks/{id=*}:cancel", "tasks/cancel"),
        (
            "SubscribeToTask",
            "GET",
            "/tasks/{id=*}:subscribe",
            "tasks/resubscribe",
        ),
        (
            "GetExtendedAgentCard",
            "GET",
            "/extendedAgentCard",
            "agent/getAuthenticatedExtendedCard",
        ),
        (
            "DeleteTaskPushNotificationConfig",
            "DELETE",
            "/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
            "tasks/pushNotificationConfig/delete",
        ),
    ];
    for (name, method, path, v0_3) in expected {
        let info = Operation::from_jsonrpc_method(name).unwrap().info();
        assert_eq!(
            (info.http[0].method, info.http[0].path),
            (method, path),
            "{name}"
        );
        assert_eq!(info.v0_3_method, Some(v0_3), "{name}");
    }
    assert_eq!(Operation::ListTasks.info().v0_3_method, None);
}
