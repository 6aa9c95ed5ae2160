//! The identifiers a request names that the stores keep or look up as keys (task ids, context
//! ids, push config ids, tenants) may not hold U+0000. PostgreSQL's text cannot store that
//! character, so its store could only fail, with an internal error. Every store refuses it alike,
//! before any store sees it, as `InvalidParams` naming the field. Texts kept inside a task's JSON
//! (message ids, parts) are not keys: JSON escapes the character, and they are stored as sent.

use a2a_protocol::errors::Error;
use a2a_protocol::operations::MethodParams;

use crate::errors::invalid;

/// What the answer says of a field holding U+0000.
const PROBLEM: &str = "must not contain the character U+0000";

/// `InvalidParams` for the first key of `params` that holds U+0000 (proto field names, as the
/// spec's validation names them).
pub(crate) fn check_keys(params: &MethodParams) -> Result<(), Error> {
    let keys = keys_of(params);
    match keys
        .into_iter()
        .find(|(_, value)| value.is_some_and(|value| value.contains('\0')))
    {
        Some((field, _)) => Err(invalid(field, PROBLEM)),
        None => Ok(()),
    }
}

/// The keys a request names, each with its field path.
fn keys_of(params: &MethodParams) -> Vec<(&'static str, Option<&str>)> {
    match params {
        MethodParams::SendMessage(r) | MethodParams::SendStreamingMessage(r) => vec![
            ("tenant", r.tenant.as_deref()),
            ("message.task_id", r.message.task_id.as_deref()),
            ("message.context_id", r.message.context_id.as_deref()),
        ],
        MethodParams::GetTask(r) => vec![("tenant", r.tenant.as_deref()), ("id", Some(&r.id))],
        MethodParams::CancelTask(r) => {
            vec![("tenant", r.tenant.as_deref()), ("id", Some(&r.id))]
        }
        MethodParams::SubscribeToTask(r) => {
            vec![("tenant", r.tenant.as_deref()), ("id", Some(&r.id))]
        }
        MethodParams::ListTasks(r) => vec![
            ("tenant", r.tenant.as_deref()),
            ("context_id", r.context_id.as_deref()),
        ],
        MethodParams::CreateTaskPushNotificationConfig(r) => vec![
            ("tenant", r.tenant.as_deref()),
            ("task_id", r.task_id.as_deref()),
            ("id", r.id.as_deref()),
        ],
        MethodParams::GetTaskPushNotificationConfig(r) => vec![
            ("tenant", r.tenant.as_deref()),
            ("task_id", Some(&r.task_id)),
            ("id", Some(&r.id)),
        ],
        MethodParams::DeleteTaskPushNotificationConfig(r) => vec![
            ("tenant", r.tenant.as_deref()),
            ("task_id", Some(&r.task_id)),
            ("id", Some(&r.id)),
        ],
        MethodParams::ListTaskPushNotificationConfigs(r) => vec![
            ("tenant", r.tenant.as_deref()),
            ("task_id", Some(&r.task_id)),
        ],
        MethodParams::GetExtendedAgentCard(r) => vec![("tenant", r.tenant.as_deref())],
        // A method a later spec adds is answered UnsupportedOperation by `call`.
        #[allow(unreachable_patterns)]
        _ => Vec::new(),
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
