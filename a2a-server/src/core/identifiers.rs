//! The identifiers a request names that the stores keep or look up as keys (task ids, context
//! ids, push config ids, tenants) may not hold U+0000. PostgreSQL's text cannot store that
//! character, so its store could only fail, with an internal error. Every store refuses it alike,
//! before any store sees it, as `InvalidParams` naming the field. Texts kept inside a task's JSON
//! (message ids, parts) are not keys: JSON escapes the character, and they are stored as sent.
//!
//! The same reading of a request's keys gives the call its owner's tenant and its span's task id.

use a2a_protocol::errors::Error;
use a2a_protocol::operations::MethodParams;

use crate::errors::invalid;

/// What the answer says of a field holding U+0000.
const PROBLEM: &str = "must not contain the character U+0000";

/// The keys a request names, the task id and context id each with its field path (proto field
/// names, as the spec's validation names them); a push config's own id is the field `id`.
#[derive(Default)]
struct Keys<'a> {
    tenant: Option<&'a str>,
    task_id: Option<(&'static str, &'a str)>,
    context_id: Option<(&'static str, &'a str)>,
    config_id: Option<&'a str>,
}

/// `InvalidParams` for the first key of `params` that holds U+0000.
pub(crate) fn check_keys(params: &MethodParams) -> Result<(), Error> {
    let keys = keys_of(params);
    let named = [
        keys.tenant.map(|tenant| ("tenant", tenant)),
        keys.task_id,
        keys.context_id,
        keys.config_id.map(|id| ("id", id)),
    ];
    match named
        .into_iter()
        .flatten()
        .find(|(_, value)| value.contains('\0'))
    {
        Some((field, _)) => Err(invalid(field, PROBLEM)),
        None => Ok(()),
    }
}

/// The `tenant` a request names (the `{tenant}` of an HTTP+JSON path lands there too).
pub(crate) fn tenant_of(params: &MethodParams) -> Option<&str> {
    keys_of(params).tenant
}

/// The task id a request is about, for the call's span.
pub(crate) fn task_id_of(params: &MethodParams) -> Option<&str> {
    keys_of(params).task_id.map(|(_, id)| id)
}

fn keys_of(params: &MethodParams) -> Keys<'_> {
    match params {
        MethodParams::SendMessage(r) | MethodParams::SendStreamingMessage(r) => Keys {
            tenant: r.tenant.as_deref(),
            task_id: r
                .message
                .task_id
                .as_deref()
                .map(|id| ("message.task_id", id)),
            context_id: r
                .message
                .context_id
                .as_deref()
                .map(|id| ("message.context_id", id)),
            config_id: None,
        },
        MethodParams::GetTask(r) => task(r.tenant.as_deref(), &r.id),
        MethodParams::CancelTask(r) => task(r.tenant.as_deref(), &r.id),
        MethodParams::SubscribeToTask(r) => task(r.tenant.as_deref(), &r.id),
        MethodParams::ListTasks(r) => Keys {
            tenant: r.tenant.as_deref(),
            context_id: r.context_id.as_deref().map(|id| ("context_id", id)),
            ..Keys::default()
        },
        MethodParams::CreateTaskPushNotificationConfig(r) => Keys {
            tenant: r.tenant.as_deref(),
            task_id: r.task_id.as_deref().map(|id| ("task_id", id)),
            config_id: r.id.as_deref(),
            ..Keys::default()
        },
        MethodParams::GetTaskPushNotificationConfig(r) => {
            config(r.tenant.as_deref(), &r.task_id, Some(&r.id))
        }
        MethodParams::DeleteTaskPushNotificationConfig(r) => {
            config(r.tenant.as_deref(), &r.task_id, Some(&r.id))
        }
        MethodParams::ListTaskPushNotificationConfigs(r) => {
            config(r.tenant.as_deref(), &r.task_id, None)
        }
        MethodParams::GetExtendedAgentCard(r) => Keys {
            tenant: r.tenant.as_deref(),
            ..Keys::default()
        },
        // A method a later spec adds is answered UnsupportedOperation by `call`.
        #[allow(unreachable_patterns)]
        _ => Keys::default(),
    }
}

/// The keys of a request about task `id` (GetTask, CancelTask, SubscribeToTask).
fn task<'a>(tenant: Option<&'a str>, id: &'a str) -> Keys<'a> {
    Keys {
        tenant,
        task_id: Some(("id", id)),
        ..Keys::default()
    }
}

/// The keys of a request about the push configs of task `task_id`, or one of them.
fn config<'a>(tenant: Option<&'a str>, task_id: &'a str, id: Option<&'a str>) -> Keys<'a> {
    Keys {
        tenant,
        task_id: Some(("task_id", task_id)),
        config_id: id,
        ..Keys::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{GetTaskRequest, ListTasksRequest, Message, Part, SendMessageRequest};

    fn send(message: Message) -> MethodParams {
        MethodParams::SendMessage(SendMessageRequest {
            message,
            ..Default::default()
        })
    }

    fn field_of(params: &MethodParams) -> Option<String> {
        check_keys(params)
            .err()
            .map(|error| error.field_violations[0].field.clone())
    }

    #[test]
    fn a_key_holding_nul_is_refused_by_its_field() {
        let message = Message::user("m-1", [Part::text("hi")]).context_id("ctx\0");
        assert_eq!(
            field_of(&send(message)).as_deref(),
            Some("message.context_id")
        );
        let get = MethodParams::GetTask(GetTaskRequest {
            id: "task\0".into(),
            ..Default::default()
        });
        assert_eq!(field_of(&get).as_deref(), Some("id"));
        let list = MethodParams::ListTasks(ListTasksRequest {
            tenant: Some("\0".into()),
            ..Default::default()
        });
        assert_eq!(field_of(&list).as_deref(), Some("tenant"));
    }

    #[test]
    fn texts_that_are_not_keys_may_hold_nul() {
        let message = Message::user("m\0", [Part::text("a\0b")]);
        assert_eq!(field_of(&send(message)), None);
        let message = Message::user("m-2", [Part::text("hi")]).context_id("ctx");
        assert_eq!(field_of(&send(message)), None);
    }
}
