//! A row of a task's event log (`a2a_task_events`): one event, or a burst of events that one write
//! logged together. A burst's row is keyed by its first event's version and holds the events'
//! logged texts (see [`logged_event`](crate::logged_event)) as one JSON array, the *n*-th
//! under the first version plus *n*; a row holding one event holds its text alone, as every row
//! did before bursts were kept together.
//!
//! Why: PostgreSQL spends on each row of a log written, whatever its size (its tuple, its
//! index entry, its partition's routing, its part of the write-ahead log), so a streamed burst of
//! fifty chunks cost fifty times that; kept together it costs it once. Events are texts of JSON
//! objects, so the first byte tells the two forms apart.
//!
//! A burst's row is deleted only once all its events are pruned (see
//! [`Dialect::LOG_ROW_LAST_VERSION`](crate::dialect::Dialect::LOG_ROW_LAST_VERSION)), and readers
//! skip the events of a row at or before what they asked for.

use a2a_server::store::StoreError;
use serde_json::value::RawValue;

/// The text of the row that logs `events` (their logged texts, in order): the one event's own
/// text, or a JSON array of them all; `None` for no event.
pub(crate) fn row_text(events: &[String]) -> Option<String> {
    match events {
        [] => None,
        [event] => Some(event.clone()),
        several => {
            let length = several.iter().map(|event| event.len() + 1).sum::<usize>() + 1;
            let mut text = String::with_capacity(length);
            for (n, event) in several.iter().enumerate() {
                text.push(if n == 0 { '[' } else { ',' });
                text.push_str(event);
            }
            text.push(']');
            Some(text)
        }
    }
}

/// The events of the row of task `task_id` logged under `version`, each with its version, in
/// order; `Err` names the task when the row is neither an event nor an array of them.
pub(crate) fn events_of_row<'a>(
    task_id: &str,
    version: i64,
    text: &'a str,
) -> Result<Vec<(i64, &'a str)>, StoreError> {
    if !text.trim_start().starts_with('[') {
        return Ok(vec![(version, text)]);
    }
    // Only split here, at the top level: each event is parsed whole where it is read, and only
    // when it is wanted.
    let events: Vec<&RawValue> = serde_json::from_str(text).map_err(|e| {
        StoreError::Backend(format!(
            "the logged events of task {task_id} from version {version} are unreadable: {e}"
        ))
    })?;
    Ok((version..)
        .zip(events)
        .map(|(version, event)| (version, event.get()))
        .collect())
}

/// The event `wanted` of the row of task `task_id` logged under `version` (the last row at or
/// before `wanted`); `None` when the row ends before it (the event was pruned, or never logged).
pub(crate) fn event_in_row<'a>(
    task_id: &str,
    version: i64,
    text: &'a str,
    wanted: i64,
) -> Result<Option<&'a str>, StoreError> {
    Ok(events_of_row(task_id, version, text)?
        .into_iter()
        .find_map(|(at, event)| (at == wanted).then_some(event)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: &str =
        r#"{"artifactUpdate":{"artifact":{"artifactId":"a","parts":[{"text":"x, [y]"}]}}}"#;
    const SECOND: &str = r#"{"statusUpdate":{"status":{"state":"TASK_STATE_COMPLETED"}}}"#;

    #[test]
    fn one_event_is_its_own_row_and_none_is_no_row() {
        assert_eq!(row_text(&[]), None);
        assert_eq!(row_text(&[FIRST.to_owned()]).as_deref(), Some(FIRST));
        assert_eq!(events_of_row("t", 7, FIRST).expect("read"), [(7, FIRST)]);
    }

    #[test]
    fn a_burst_reads_back_event_by_event_under_consecutive_versions() {
        let row =
            row_text(&[FIRST.to_owned(), SECOND.to_owned(), FIRST.to_owned()]).expect("a row");
        assert!(row.starts_with('['), "{row}");
        assert_eq!(
            events_of_row("t", 7, &row).expect("read"),
            [(7, FIRST), (8, SECOND), (9, FIRST)]
        );
        assert_eq!(event_in_row("t", 7, &row, 8).expect("read"), Some(SECOND));
        assert_eq!(event_in_row("t", 7, &row, 10).expect("read"), None);
        assert_eq!(event_in_row("t", 7, FIRST, 8).expect("read"), None);
    }

    #[test]
    fn an_unreadable_burst_names_its_task_and_version() {
        let problem = events_of_row("task-z", 4, "[{\"a\":1},").unwrap_err();
        assert!(
            problem.to_string().contains("task-z") && problem.to_string().contains('4'),
            "{problem}"
        );
    }
}
