//! How much of a task's history an answer carries: what `historyLength` asks for, and no more than
//! fits in the server's answer budget ([`fit_answer`]).

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_types::json::{WriteJson, json_len};
use a2a_types::v1::Task;

use crate::errors::invalid;

/// Bytes of an answer's budget kept for what surrounds the task (the JSON-RPC envelope, an SSE
/// frame's fields).
const ENVELOPE_ALLOWANCE: usize = 4 * 1024;

/// The history length a request asks for: `None` is all of it; negative is an error.
pub(crate) fn check_history_length(
    length: Option<i32>,
    field: &str,
) -> Result<Option<usize>, Error> {
    match length {
        None => Ok(None),
        Some(n) if n < 0 => Err(invalid(field, format!("must not be negative, not {n}"))),
        Some(n) => Ok(Some(n as usize)),
    }
}

/// The task with only its `length` most recent history messages (all for `None`).
pub(crate) fn trim_history(mut task: Task, length: Option<usize>) -> Task {
    if let Some(length) = length {
        let drop = task.history.len().saturating_sub(length);
        task.history.drain(..drop);
    }
    task
}

/// The task as an answer carries it: the `length` most recent history messages (all for `None`),
/// then, while its ProtoJSON would be over `budget` bytes (the server's decode budget, which
/// clients apply to what they read), its oldest history messages dropped (the spec lets a server
/// return less history than asked). A task whose artifacts and status alone are over the budget is
/// refused with an error naming the budget, never sent.
pub(crate) fn fit_answer(task: Task, length: Option<usize>, budget: usize) -> Result<Task, Error> {
    let mut task = trim_history(task, length);
    let budget = budget.saturating_sub(ENVELOPE_ALLOWANCE);
    let size = json_size(&task)?;
    if size <= budget {
        return Ok(task);
    }
    let sizes = task
        .history
        .iter()
        .map(json_size)
        .collect::<Result<Vec<usize>, Error>>()?;
    // Each message also brings its separating comma.
    let mut over = size - budget;
    let mut dropped = 0;
    while over > 0 && dropped < sizes.len() {
        over = over.saturating_sub(sizes[dropped] + 1);
        dropped += 1;
    }
    task.history.drain(..dropped);
    if json_size(&task)? > budget {
        return Err(Error::with_message(
            ErrorKind::Internal,
            format!(
                "task {} is {size} bytes of JSON without its history, over the {budget} bytes an \
                 answer of this agent may carry",
                task.id
            ),
        )
        .with_metadata("taskId", task.id.clone()));
    }
    tracing::debug!(task = %task.id, dropped, "history trimmed to fit the answer budget");
    Ok(task)
}

/// The length of `value`'s JSON, counted by its generated encoder without keeping the document
/// (the answer is written by the same encoder). It fails only where the answer could not be written
/// either (a timestamp outside the years JSON can carry).
fn json_size<T: WriteJson>(value: &T) -> Result<usize, Error> {
    json_len(value).map_err(|e| {
        Error::with_message(
            ErrorKind::Internal,
            format!("the answer cannot be written as JSON: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::{Message, Part};

    use super::*;

    fn task_with_turns(turns: usize, text_bytes: usize) -> Task {
        let mut task = Task {
            id: "t-1".into(),
            context_id: Some("c-1".into()),
            ..Default::default()
        };
        for turn in 0..turns {
            task.history.push(Message::user(
                format!("m-{turn}"),
                [Part::text("x".repeat(text_bytes))],
            ));
        }
        task
    }

    #[test]
    fn a_task_that_fits_is_answered_whole() {
        let task = task_with_turns(3, 100);
        assert_eq!(fit_answer(task.clone(), None, 1 << 20), Ok(task));
    }

    #[test]
    fn the_oldest_messages_go_until_the_answer_fits_the_budget() {
        // Twenty turns of 100 KB against a 1 MiB budget: the answer keeps the newest turns only.
        let task = task_with_turns(20, 100_000);
        let fitted = fit_answer(task, None, 1 << 20).expect("fits without the oldest turns");
        assert!(json_size(&fitted).unwrap() <= (1 << 20) - ENVELOPE_ALLOWANCE);
        assert!(
            fitted.history.len() >= 9 && fitted.history.len() < 20,
            "{}",
            fitted.history.len()
        );
        assert_eq!(
            fitted.history.last().unwrap().message_id,
            "m-19",
            "the newest stays"
        );
        // historyLength applies first.
        let asked = fit_answer(task_with_turns(20, 100_000), Some(2), 1 << 20).unwrap();
        assert_eq!(asked.history.len(), 2);
    }

    #[test]
    fn the_counted_size_is_the_length_of_the_json_the_answer_carries() {
        // Texts with escapes and non-ASCII, file bytes, free-form metadata, many times the counter's
        // spill size: counted in pieces, the total must still be the document's length.
        let mut task = task_with_turns(40, 50_000);
        task.history[3].parts.push(Part::text(
            "quote \" back\\ tab\t nul\u{0} é ✓ 🦀\n".repeat(9_000),
        ));
        task.artifacts.push(a2a_types::v1::Artifact {
            artifact_id: "a-1".into(),
            parts: vec![Part::raw(vec![0xA5; 200_000], "application/octet-stream")],
            ..Default::default()
        });
        task.metadata = Some(
            serde_json::json!({"k": [1, 2.5, "v\u{1}", {"deep": null}], "é": true})
                .as_object()
                .unwrap()
                .clone(),
        );
        for value in [task_with_turns(0, 0), task_with_turns(1, 3), task] {
            let written = serde_json::to_vec(&value).expect("JSON");
            assert_eq!(json_size(&value), Ok(written.len()));
            for message in &value.history {
                let written = serde_json::to_vec(message).expect("JSON");
                assert_eq!(json_size(message), Ok(written.len()));
            }
        }
    }

    #[test]
    fn a_task_over_the_budget_without_history_is_refused_naming_it() {
        let mut task = task_with_turns(1, 10);
        task.artifacts.push(a2a_types::v1::Artifact {
            artifact_id: "a-1".into(),
            parts: vec![Part::text("y".repeat(2 << 20))],
            ..Default::default()
        });
        let error = fit_answer(task, None, 1 << 20).unwrap_err();
        assert!(
            error.message.contains("over the 1044480 bytes"),
            "{}",
            error.message
        );
        assert_eq!(error.metadata["taskId"], "t-1");
    }
}
